"""Jekyll: what ``_config.yml`` and Jekyll's naming rules keep off the site.

Read with Jekyll 4's semantics (``Jekyll::EntryFilter``, ``Configuration``,
``FrontmatterDefaults``), from ``_config.yml`` (else ``_config.yaml``, ``_config.toml``)
at the content root:

* ``exclude:`` — each pattern (a string is a comma-separated list, as
  ``Configuration#csv_to_array`` reads it; a leading ``/`` is the source folder), and
  Jekyll's default excludes (added to the site's since Jekyll 4), minus the patterns
  listed in ``include:``. An entry is excluded when Ruby's
  ``File.fnmatch`` matches it (``*`` crosses ``/``) or its path starts with the pattern;
  an excluded folder takes everything below it. ``include:`` keeps an entry (named by its
  path or its name).
* names Jekyll does not render: a file or folder whose name starts with ``.``, ``_``,
  ``#`` or ``~`` or ends with ``~``, at any depth, unless ``include:`` names it — except
  the ``_posts`` and ``_drafts`` folders and the folders of collections with
  ``output: true`` (``_drafts`` is withheld as drafts by :mod:`provider.wiki.publication`);
* ``collections:`` with ``output: false`` (the default for a collection): its documents
  are not pages;
* ``defaults:`` — each ``{scope: {path, type}, values}`` merged under the front matter of
  the pages it selects (a glob when ``path`` holds ``*``), ``type`` ``pages``, ``posts``,
  ``drafts`` or a collection label; a more specific scope (a longer path, then one with a
  type) wins. Jekyll 4 (``FrontmatterDefaults#path_is_subpath?``) compares the scope
  path as a string prefix (``guides/internal`` selects ``guides/internal-tools.md``);
  Jekyll 3, which GitHub Pages runs, compares whole segments. Which one builds the site
  is not known here, so a scope whose values withhold (``published: false``, an audience
  other than ``public``, ``sitemap: false``, any key that restricts readers, a date) is
  read as a prefix, and one whose values only publish as segments: the stricter reading
  either way.

A ``_config.yml`` that cannot be read, or whose ``exclude``/``include``/``collections``/
``defaults`` is not of the documented shape, is a :class:`~.policy.Finding` over the
whole site (every page internal until fixed).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..audience import audience_signals
from ..publication import read_flags_and_dates
from .config_files import ConfigError, Unresolved, read_config
from .policy import Finding, MetaRule, PathRule

__all__ = ["CONFIG_NAMES", "DEFAULT_EXCLUDES", "read_jekyll", "withholds"]

CONFIG_NAMES = ("_config.yml", "_config.yaml", "_config.toml")
#: ``Jekyll::Configuration::DEFAULTS["exclude"]`` (Jekyll 4.3), always added.
DEFAULT_EXCLUDES = (".sass-cache", ".jekyll-cache", "gemfiles", "Gemfile", "Gemfile.lock", "node_modules",
                    "vendor/bundle/", "vendor/cache/", "vendor/gems/", "vendor/ruby/")
#: The last segment of a file in ``_posts`` that Jekyll's PostReader skips: not
#: ``YYYY-MM-DD-title.ext`` (``\d{2,4}-\d{1,2}-\d{1,2}-`` then anything, then an extension).
_UNDATED_POST = r"(?![0-9]{2,4}-[0-9]{1,2}-[0-9]{1,2}-[^/]*\.[^./]+$)[^/]+$"
_SPECIAL_REASON = ("Jekyll does not render files or folders whose names start with _ . # ~ or end with ~ "
                   "(not listed in _config.yml include:)")


def _strings(value: Any, key: str, name: str) -> tuple[tuple[str, ...], str | None]:
    if value is None:
        return (), None
    if isinstance(value, str):
        # Configuration#csv_to_array: a string is a comma-separated list (Ruby's split
        # drops trailing empty fields).
        parts = value.split(",")
        while parts and not parts[-1]:
            parts.pop()
        value = [item.strip() for item in parts]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return (), f"{name} {key}: is not a list of strings (Jekyll patterns)"
    # EntryFilter joins each pattern to the source folder (PathManager.join, File.join),
    # so a leading ``/`` names the same entry as none.
    return tuple(item.lstrip("/") for item in value), None


def _collections(raw: Any, name: str) -> tuple[dict[str, bool], str | None]:
    """``label → output`` (``posts`` is always there, with output)."""
    out = {"posts": True}
    if raw is None:
        return out, None
    if isinstance(raw, list) and all(isinstance(item, str) for item in raw):
        out.update({label: False for label in raw})
        return out, None
    if not isinstance(raw, Mapping):
        return out, f"{name} collections: is not a mapping or a list of names"
    for label, options in raw.items():
        if not isinstance(label, str):
            return out, f"{name} collections: has a label that is not a string"
        output = options.get("output", label == "posts") if isinstance(options, Mapping) else label == "posts"
        if not isinstance(output, bool):
            return out, f"{name} collections.{label}.output is not true or false"
        out[label] = output
    return out, None


def withholds(values: Mapping[str, Any]) -> bool:
    """Whether ``values`` (a ``defaults`` entry's mapping) could withhold a page it is
    merged under: any audience-like or restricting key other than an exact ``audience:
    public`` (:func:`provider.wiki.audience.audience_signals`), or any withholding flag,
    date or unreadable value (:func:`provider.wiki.publication.read_flags_and_dates`)."""
    signals = audience_signals(values)
    if any(not (signal.exact and signal.value == "public") for signal in signals):
        return True
    facts, errors = read_flags_and_dates(values)
    return bool(errors) or any(facts.values())


def _defaults(raw: Any, name: str) -> tuple[list[MetaRule], str | None]:
    if raw is None:
        return [], None
    if not isinstance(raw, list):
        return [], f"{name} defaults: is not a list"
    scored: list[tuple[int, int, int, MetaRule]] = []
    for number, entry in enumerate(raw):
        where = f"{name} defaults[{number}]"
        if not isinstance(entry, Mapping) or not isinstance(entry.get("values"), Mapping):
            return [], f"{where} has no values: mapping"
        scope = entry.get("scope") or {}
        if not isinstance(scope, Mapping):
            return [], f"{where} scope: is not a mapping"
        path = scope.get("path", "")
        kind = scope.get("type")
        if not isinstance(path, str) or (kind is not None and not isinstance(kind, str)):
            return [], f"{where} scope path/type is not a string"
        if any(isinstance(v, Unresolved) for v in entry["values"].values()):
            return [], f"{where} values hold a YAML tag Jekyll does not read"
        clean = path.strip().removeprefix("./").lstrip("/")
        values = dict(entry["values"])
        types = (kind,) if kind else ()
        strict = withholds(values)
        if "*" in clean:
            # A glob's matches are scope paths too: as a prefix, ``*`` after it reaches
            # what starts with each match.
            rule = MetaRule("glob", (clean + "*" if strict else clean,), values, where, types=types)
        else:
            rule = MetaRule("prefix" if strict and clean else "subpath", (clean,), values, where, types=types)
        # FrontmatterDefaults#has_precedence?: a longer path wins, then a scope with a type.
        scored.append((len(clean), 1 if kind else 0, number, rule))
    return [rule for *_, rule in sorted(scored, key=lambda item: item[:3])], None


def read_jekyll(root: Path) -> tuple[list[str], list[PathRule], list[MetaRule], list[Finding],
                                     list[tuple[str, str]], tuple[str, ...], tuple[tuple[str, str], ...]]:
    """``(sources, excluded, defaults, findings, page_types, dated_types, permalinks)``
    for a Jekyll site at ``root``; ``dated_types``: the page types (``posts``, collection
    labels) whose documents dated in the future Jekyll does not build (none with
    ``future: true``); ``permalinks``: ``("", the site's permalink)`` and ``(label, the
    collection's permalink)`` pairs, as written.
    Without a configuration file Jekyll's defaults still apply (its default excludes, the
    naming rule), so they are returned with no sources."""
    path = next((root / name for name in CONFIG_NAMES if (root / name).exists()), None)
    name = path.name if path is not None else "_config.yml"
    try:
        data = read_config(path) if path is not None else {}
    except (ConfigError, FileNotFoundError) as exc:
        return [name], [], [], [Finding(name, f"{name} {exc}: every page is internal until it is fixed")], [], (), ()
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        message = f"{name} is not a mapping: every page is internal until it is fixed"
        return [name], [], [], [Finding(name, message)], [], (), ()
    problems: list[str] = []
    include, problem = _strings(data.get("include"), "include", name)
    problems += [problem] if problem else []
    exclude, problem = _strings(data.get("exclude"), "exclude", name)
    problems += [problem] if problem else []
    collections, problem = _collections(data.get("collections"), name)
    problems += [problem] if problem else []
    defaults, problem = _defaults(data.get("defaults"), name)
    problems += [problem] if problem else []
    if problems:
        return ([name], [], [], [Finding(name, f"{p}: every page is internal until it is fixed") for p in problems], [],
                (), ())
    collections_dir = data.get("collections_dir", "")
    if collections_dir is None:
        collections_dir = ""
    if not isinstance(collections_dir, str):
        return [name], [], [], [Finding(name, f"{name} collections_dir: is not a string: every page is internal "
                                        "until it is fixed")], [], (), ()
    base = collections_dir.strip().strip("/")
    if base in (".", "./"):
        base = ""
    if base and (base.startswith("../") or "/../" in f"/{base}/" or "*" in base):
        return [name], [], [], [Finding(name, f"{name} collections_dir: {collections_dir!r} is not a folder "
                                        "inside the site: every page is internal until it is fixed")], [], (), ()
    base = base + "/" if base else ""
    rules: list[PathRule] = []
    for pattern in dict.fromkeys(exclude):
        if pattern not in include:  # ``site.exclude - site.include``
            rules.append(PathRule("jekyll", (pattern,), f"excluded by {name} exclude: {pattern}", unless=include))
    for pattern in DEFAULT_EXCLUDES:
        if pattern not in include and pattern not in exclude:
            rules.append(PathRule("jekyll", (pattern,), f"excluded by Jekyll's default exclude: {pattern}",
                                  unless=include))
    for label, output in collections.items():
        if not output:
            rules.append(PathRule("glob", (f"{base}_{label}",),
                                  f"in collection '{label}', which has output: false in {name} (not pages)"))
    # The folders Jekyll reads itself, though their names start with ``_``: ``_posts``
    # and ``_drafts`` in any folder (Reader#retrieve_posts; only below collections_dir
    # when it is set, Reader#outside_configured_directory?), and each collection with
    # output at the top of collections_dir (Collection#collection_dir).
    posts_at = (re.escape(base) + "(?:.*/)?" if base else "(?:.*/)?")
    read_by_jekyll = (posts_at + "_posts", posts_at + "_drafts",
                      *(re.escape(f"{base}_{label}") for label, output in collections.items()
                        if output and label != "posts"))
    rules.append(PathRule("jekyll-special", read_by_jekyll, _SPECIAL_REASON, unless=include))
    # PostReader reads only files named YYYY-MM-DD-title.ext (Document::DATE_FILENAME_MATCHER);
    # ``jekyll doctor`` warns about the others, the build skips them.
    rules.append(PathRule("regex", (r"(?:^|/)_posts/(?:[^/]+/)*" + _UNDATED_POST,),
                          "in _posts without a date in its name (YYYY-MM-DD-title.md): Jekyll does not build it"))
    page_types = [("_posts", "posts"), ("_drafts", "drafts"),
                  *((f"{base}_{label}", label) for label in collections if label != "posts")]
    future = data.get("future", False) is True
    # Site#publisher hides a document dated in the future unless ``future: true``: posts
    # and every collection's documents; pages have no date to Jekyll.
    dated = () if future else ("posts", *(label for label in collections if label != "posts"))
    # Permalink settings, for URLs (provider.wiki.jekyll_urls): "" the site's style, else
    # a collection's own template.
    permalinks = [("", data["permalink"])] if isinstance(data.get("permalink"), str) else []
    raw = data.get("collections")
    if isinstance(raw, Mapping):
        permalinks += [(str(label), options["permalink"]) for label, options in raw.items()
                       if isinstance(options, Mapping) and isinstance(options.get("permalink"), str)]
    return [name] if path is not None else [], rules, defaults, [], page_types, dated, tuple(permalinks)
