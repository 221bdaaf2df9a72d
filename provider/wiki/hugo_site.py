"""Hugo's site configuration ``cascade``: front matter the site passes to its pages.

A Hugo site can hide pages from its configuration alone — OpenTelemetry's docs hide
their ``_includes/`` partials with a cascade in ``config/_default/hugo.yaml`` — so the
``hugo`` layout reads it as Hugo does:

* the files: ``hugo.toml``, ``hugo.yaml``, ``hugo.json`` (in that order of precedence;
  the first found is read), else the older ``config.toml|yaml|json``, at the site root;
  and the configuration directory ``config/_default/`` and ``config/production/``
  (``production`` is the environment a build uses), each as ``hugo.*``/``config.*``
  holding a ``cascade`` key or ``cascade.*`` holding the list itself;
* the site root is the content folder, or its parent when the content folder is
  ``content`` itself;
* each entry is a mapping (or the ``cascade`` is one mapping); its ``target`` (Hugo
  0.123+) or ``_target`` selects pages by ``path`` (a glob over the page's path, such as
  ``/docs/_includes/**``), ``kind`` (``page``, ``section``, ``home``), ``lang`` and
  ``environment`` (``production``); an entry without a target applies to every page.

What applies is what a section cascade passes on (:mod:`provider.wiki.cascade`):
``audience`` and the publication keys, at the lowest precedence (a page's own front
matter, then its nearest section's cascade, win). Fail closed: a configuration file that
cannot be read, or a ``cascade`` that is not a mapping or a list of mappings, makes every
page internal and quarantined until fixed (it may have said ``internal`` or
``build: {render: never}``); an entry whose target uses anything else than the four
keys above may only withhold.

The configuration is read when a page is read and cached by the files' modification
times; a scan re-reads every page when the configuration changed (its digest is part of
each page's :attr:`~provider.wiki.model.DocumentMeta.site_policy`, see
:mod:`provider.wiki.sites`).
"""

from __future__ import annotations

import json
import os
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from wcmatch import glob

from .cascade import CASCADE_ERROR, read_cascade
from .classify import site_path
from .locale_patterns import match_locale
from .locales import strip_extension
from .model import WikiSettings
from .sites.config_files import steady

__all__ = ["BUNDLE_RESOURCE", "CONTENT_EXTENSIONS", "SiteCascade", "hugo_content_adapters", "hugo_leaf_bundle",
           "hugo_page", "is_bundle_index", "load_site_cascade", "site_cascade_for"]

_NAMES = ("hugo", "config")
_FORMATS = ("toml", "yaml", "json")
_MAX_CONFIG_BYTES = 1 << 20
_TARGET_KEYS = frozenset({"path", "kind", "lang", "environment"})
_GLOB_FLAGS = glob.GLOBSTAR | glob.BRACE | glob.DOTGLOB | glob.IGNORECASE
ENVIRONMENT = "production"


@dataclass(frozen=True)
class _Entry:
    target: Mapping[str, str] | None
    values: Mapping[str, Any]
    unknown_target: bool


@dataclass(frozen=True)
class SiteCascade:
    """The site configuration's cascade, ready to apply.

    Attributes:
        entries: in the order read.
        error: why the configuration cannot be read, or ``None``.
        source: the files read, for messages.
    """

    entries: tuple[_Entry, ...] = ()
    error: str | None = None
    source: str = ""

    def values_for(self, page_path: str, *, kind: str, lang: str) -> dict[str, str] | None:
        """What the site cascades to one page, as :func:`provider.wiki.cascade.read_cascade`
        reports a section's cascade (``{"error": reason}`` when the configuration cannot
        be read), or ``None`` when nothing applies.

        Args:
            page_path: Hugo's path of the page: ``/docs/_includes/x``, ``/`` for home.
            kind: ``page``, ``section`` or ``home``.
            lang: the page's language key (``en``, ``zh-cn``).
        """
        if self.error is not None:
            # It may have said internal, or build: {render: never}: both, until fixed.
            return {CASCADE_ERROR: CASCADE_ERROR, "build": f"{self.error} (withheld, fail closed)"}
        out: dict[str, str] = {}
        for entry in self.entries:
            if entry.target is not None and not _selects(entry.target, page_path, kind, lang):
                continue
            values = dict(entry.values)
            if entry.unknown_target:
                values["target"] = {}  # read_cascade then applies only what withholds
            cascade, _, _ = read_cascade({"cascade": values}, _PARAMS_LAYOUT)
            for key, value in (cascade or {}).items():
                out.setdefault(key, value)
        return out or None


def _selects(target: Mapping[str, str], page_path: str, kind: str, lang: str) -> bool:
    facts = {"path": page_path, "kind": kind, "lang": lang, "environment": ENVIRONMENT}
    # Names compared after Unicode NFC, as audience rules compare paths.
    return all(glob.globmatch(unicodedata.normalize("NFC", facts[key]), unicodedata.normalize("NFC", pattern),
                              flags=_GLOB_FLAGS) for key, pattern in target.items())


class _ParamsLayout:
    params_key = "params"


_PARAMS_LAYOUT: Any = _ParamsLayout()


def _read(path: Path) -> Any:
    data = path.read_bytes()
    if len(data) > _MAX_CONFIG_BYTES:
        raise ValueError(f"larger than {_MAX_CONFIG_BYTES} bytes")
    text = data.decode("utf-8")
    if path.suffix == ".toml":
        return steady(path, tomllib.loads(text))
    if path.suffix == ".json":
        return steady(path, json.loads(text))
    return steady(path, yaml.safe_load(text))


def _candidates(site: Path) -> list[tuple[Path, bool]]:
    """``(file, holds the cascade list itself)`` in the order Hugo reads them."""
    found: list[tuple[Path, bool]] = []
    root = next((site / f"{n}.{f}" for n in _NAMES for f in _FORMATS if (site / f"{n}.{f}").is_file()), None)
    if root is not None:
        found.append((root, False))
    for folder in ("_default", ENVIRONMENT):
        base = site / "config" / folder
        found += [(base / f"{n}.{f}", False) for n in _NAMES for f in _FORMATS if (base / f"{n}.{f}").is_file()]
        found += [(base / f"cascade.{f}", True) for f in _FORMATS if (base / f"cascade.{f}").is_file()]
        found += [(base / f"languages.{f}", False) for f in _FORMATS if (base / f"languages.{f}").is_file()]
    return found


def _entries(raw: Any, where: str) -> tuple[list[_Entry], str | None]:
    items = [raw] if isinstance(raw, Mapping) else raw if isinstance(raw, list) else None
    if items is None or not all(isinstance(item, Mapping) for item in items):
        return [], f"the cascade in {where} is not a mapping or a list of mappings"
    entries = []
    for item in items:
        key = next((k for k in item if isinstance(k, str) and k.lower() in ("target", "_target")), None)
        values = {k: v for k, v in item.items() if k != key}
        if key is None:
            entries.append(_Entry(None, values, False))
            continue
        target = item[key]
        if not isinstance(target, Mapping):
            entries.append(_Entry(None, values, True))
            continue
        known = {str(k).lower(): v for k, v in target.items()}
        usable = {k: v for k, v in known.items() if k in _TARGET_KEYS and isinstance(v, str)}
        entries.append(_Entry(usable, values, len(usable) != len(known)))
    return entries, None


def _key(data: Mapping[Any, Any], name: str) -> Any:
    """``data[name]``, the key compared case-insensitively (Hugo lowercases keys)."""
    return next((v for k, v in data.items() if isinstance(k, str) and k.lower() == name), None)


def _language_entries(languages: Any, where: str) -> tuple[list[_Entry], str | None]:
    """The cascades set per language (``[languages.en.cascade]``): each applies to that
    language's pages only, as if its target named ``lang``."""
    if languages is None:
        return [], None
    if not isinstance(languages, Mapping):
        return [], f"languages in {where} is not a mapping"
    entries: list[_Entry] = []
    for lang, settings in languages.items():
        raw = _key(settings, "cascade") if isinstance(settings, Mapping) else None
        if raw is None:
            continue
        more, error = _entries(raw, f"{where} languages.{lang}")
        if error is not None:
            return [], error
        for entry in more:
            target = {**(entry.target or {}), "lang": str(lang).lower()}
            entries.append(_Entry(target, entry.values, entry.unknown_target))
    return entries, None


_cache: dict[tuple[str, tuple[tuple[str, int], ...]], SiteCascade] = {}


def load_site_cascade(content: Path) -> SiteCascade:
    """The site configuration's cascade for a Hugo site whose content folder is
    ``content`` (module docstring). Never raises: an unreadable configuration is
    :attr:`SiteCascade.error`."""
    sites = [content, content.parent] if content.name == "content" else [content]
    files: list[tuple[Path, bool]] = []
    for site in sites:
        try:
            files = _candidates(site)
        except OSError:
            files = []
        if files:
            break
    stamp = []
    for path, _ in files:
        try:
            stamp.append((str(path), os.stat(path).st_mtime_ns))
        except OSError:
            stamp.append((str(path), -1))
    key = (str(content), tuple(stamp))
    if key in _cache:
        return _cache[key]
    entries: list[_Entry] = []
    # A language's own cascade wins over the site's, as a language's settings do in Hugo.
    by_language: list[_Entry] = []
    error: str | None = None
    for path, is_list in files:
        try:
            data = _read(path)
        except (OSError, ValueError, UnicodeDecodeError, yaml.YAMLError, tomllib.TOMLDecodeError, RecursionError):
            error = f"the site configuration {path.name} cannot be read"
            break
        if is_list:
            raw: Any = data
        elif isinstance(data, Mapping):
            raw = _key(data, "cascade")
            languages = data if path.stem == "languages" else _key(data, "languages")
            more, error = _language_entries(languages, path.name)
            if error is not None:
                break
            by_language += more
            if raw is None:
                continue
        elif data is None:
            continue
        else:
            error = f"the site configuration {path.name} is not a mapping"
            break
        more, error = _entries(raw, path.name)
        if error is not None:
            break
        entries += more
    result = SiteCascade(tuple(by_language + entries) if error is None else (), error,
                         ", ".join(p.name for p, _ in files))
    if len(_cache) > 64:
        _cache.clear()
    _cache[key] = result
    return result


def hugo_page(settings: WikiSettings, relpath: str, *, section: bool) -> tuple[str, str, str]:
    """``(path, kind, lang)`` of a page as Hugo sees it: ``content/en/docs/_index.md`` →
    ``("/docs", "section", "en")``; the path is lower case, without the content folder,
    the language folder or suffix, and the extension."""
    path = site_path(relpath, known_locales=settings.known_locales, patterns=settings.patterns,
                     index_names=settings.preset.index_names)
    path = path.removeprefix("content/") if path != "content" else ""
    page = "/" + path.strip("/").lower()
    found = match_locale(strip_extension(relpath), settings.patterns, settings.known_locales)
    lang = found.key.lower() if found is not None and found.key else settings.default_locale.lower()
    kind = ("home" if page == "/" else "section") if section else "page"
    return page, kind, lang


def site_cascade_for(settings: WikiSettings, relpath: str, *, section: bool) -> dict[str, str] | None:
    """What the site configuration cascades to one page (:meth:`SiteCascade.values_for`)."""
    page, kind, lang = hugo_page(settings, relpath, section=section)
    return load_site_cascade(settings.root).values_for(page, kind=kind, lang=lang)


#: The extensions of Hugo's content formats (markdown, HTML, Emacs Org, AsciiDoc, Pandoc,
#: reStructuredText): each file of one in the content folder is a page, or a bundle's index.
CONTENT_EXTENSIONS = (".md", ".markdown", ".mdown", ".html", ".htm", ".org", ".adoc", ".asciidoc", ".ad",
                      ".pandoc", ".pdc", ".rst")
_listings: dict[str, tuple[int, frozenset[str]]] = {}


def _names(folder: Path) -> frozenset[str]:
    """The lower-cased file names in ``folder``, kept while its modification time stays."""
    try:
        stamp = folder.stat().st_mtime_ns
        cached = _listings.get(str(folder))
        if cached is not None and cached[0] == stamp:
            return cached[1]
        names = frozenset(entry.name.lower() for entry in os.scandir(folder) if entry.is_file())
    except OSError:
        return frozenset()
    if len(_listings) > 4096:
        _listings.clear()
    _listings[str(folder)] = (stamp, names)
    return names


#: How a document's ``publication["path"]`` reason opens when it is a leaf bundle's
#: resource: the incremental scan reads it back to see a bundle appear or go.
BUNDLE_RESOURCE = "not a page: a resource of the leaf bundle"


def is_bundle_index(name: str, stem: str = "index") -> bool:
    """Whether the file ``name`` is ``stem`` in a Hugo content format, with or without a
    language suffix (``index.md``, ``index.de.html``, ``_index.org``)."""
    lowered = name.lower()
    ext = next((e for e in CONTENT_EXTENSIONS if lowered.endswith(e)), None)
    if ext is None:
        return False
    base = lowered[: -len(ext)]
    return base == stem or (base.startswith(stem + ".") and "." not in base[len(stem) + 1:])


def hugo_leaf_bundle(root: Path, relpath: str) -> str | None:
    """The leaf bundle (its folder, relative to ``root``) of which the file ``relpath``
    is a resource, or ``None`` when it is a page: a folder holding an ``index`` file in
    any content format (``index.html`` too, which the provider does not read) makes every
    other file in it and below it a resource, not a page, with no URL of its own
    (issue 24). Never raises."""
    folder, _, name = relpath.rpartition("/")
    own = True
    while folder:
        if (own and is_bundle_index(name)) or not any(is_bundle_index(n) for n in _names(root / folder)):
            own = False
            folder = folder.rpartition("/")[0]
            continue
        return folder
    return None


def hugo_content_adapters(root: Path) -> list[str]:
    """The folders (relative to ``root``, POSIX) holding a ``_content.gotmpl`` content
    adapter: it adds pages at any path of its section, so no URL below one is proved to
    be a markdown document's (issue 24). At most 100,000 files are looked at; never
    raises."""
    found: list[str] = []
    seen = 0
    for current, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "node_modules"]
        seen += len(files)
        if "_content.gotmpl" in files:
            rel = os.path.relpath(current, root).replace(os.sep, "/")
            found.append("" if rel == "." else rel)
        if seen > 100_000:
            break
    return found
