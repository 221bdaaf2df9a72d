"""The site policy: what a docs tool's own configuration says about publication.

Every tool reader (:mod:`.jekyll`, :mod:`.mkdocs`, :mod:`.docfx`, :mod:`.hugo`,
:mod:`.javascript`) turns its configuration into one value of this module, so the rest of
the provider applies every tool alike:

* :class:`PathRule` — paths the tool does not build (excluded, not rendered, not
  mounted), each with the reason shown to the operator; such a file is not a page and is
  served to nobody;
* :class:`MetaRule` — metadata the tool merges under a page's front matter (Jekyll
  ``defaults``, MkDocs ``.meta.yml``, DocFX ``globalMetadata``/``fileMetadata``); the
  page's own keys win, so ``published: false`` or an audience value from a default is
  read as if the page said it;
* :class:`Finding` — a configuration file that exists but cannot be understood, and the
  folder it governs: every page there is internal (fail closed) and quarantined, and
  ``check`` names the file.

Paths are POSIX, relative to the content root. Each rule carries its own matching
``syntax`` so the tool's semantics are kept exactly (gitignore for MkDocs via
``pathspec``, Ruby ``fnmatch`` plus prefix for Jekyll, Go regexes by RE2 for Hugo, DocFX
globs ignoring case).
The value is plain data (:meth:`SitePolicy.to_json`) and has a :attr:`SitePolicy.digest`
that changes whenever any configuration file read for it changes.
"""

from __future__ import annotations

import fnmatch
import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any

import pathspec
from wcmatch import glob

from .go_regex import GoRegexError, Searcher, compile_go

__all__ = ["Finding", "MetaRule", "PathRule", "SitePolicy", "rule_matches"]

#: How each syntax's patterns are matched (see :func:`rule_matches`).
SYNTAXES = ("gitignore", "glob", "prefix", "subpath", "regex", "goregex", "exact", "jekyll", "jekyll-special",
            "docfx-content")
_GLOB_FLAGS = glob.GLOBSTAR | glob.BRACE | glob.DOTGLOB
_JEKYLL_SPECIAL = re.compile(r"\A[._#~]|~\Z")


@dataclass(frozen=True)
class PathRule:
    """Paths a tool does not build.

    Attributes:
        syntax: one of :data:`SYNTAXES`.
        patterns: the tool's own patterns, as written in its configuration.
        reason: shown to the operator (``excluded by _config.yml exclude: drafts/``).
        base: the folder (ending in ``/``, or ``""`` for the content root) the patterns
            are relative to; paths outside it are not this rule's concern.
        prefix: prepended to the path below ``base`` before matching (Hugo matches
            ``content/…`` when the content root is the ``content`` folder).
        invert: the rule excludes what its patterns do *not* match (DocFX ``files``,
            Hugo ``includeFiles``, MkDocs ``docs_dir``).
        unless: patterns of the same syntax that keep a path the rule would exclude
            (Jekyll ``include``).
        labels: ``gitignore`` and ``exact`` only: one reason per pattern, naming the
            pattern that decided (for ``gitignore`` the last matching one, as in Git);
            empty to use ``reason``.
        casefold: patterns match whatever the letters' case (DocFX globs, Hugo mounts;
            see :func:`rule_matches`).
    """

    syntax: str
    patterns: tuple[str, ...]
    reason: str
    base: str = ""
    prefix: str = ""
    invert: bool = False
    unless: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    casefold: bool = False

    def __post_init__(self) -> None:
        _normalize(self, "patterns", "unless", "base", "prefix")

    def explain(self, relpath: str) -> str | None:
        """Why this rule excludes ``relpath``, or ``None`` when it does not."""
        relpath = _nfc(relpath)
        if not self.excludes(relpath):
            return None
        if self.syntax == "docfx-content":
            return _docfx_explain(self, self.prefix + relpath[len(self.base):])
        if self.syntax == "exact" and self.labels:
            return self.labels[self.patterns.index(self.prefix + relpath[len(self.base):])]
        if self.syntax == "gitignore" and self.labels:
            index = _gitignore(self.patterns).check_file(self.prefix + relpath[len(self.base):]).index
            if index is not None and 0 <= index < len(self.labels):
                return self.labels[index]
        return self.reason

    def excludes(self, relpath: str) -> bool:
        """Whether this rule says the tool does not build ``relpath``."""
        relpath = _nfc(relpath)
        if not relpath.startswith(self.base):
            return False
        path = self.prefix + relpath[len(self.base):]
        if self.syntax in ("jekyll", "jekyll-special"):
            return _jekyll_excludes(self, path)
        if self.syntax == "docfx-content":
            return not any(_docfx_builds(entry, path) for entry in _docfx_entries(self.patterns))
        hit = rule_matches(self.syntax, self.patterns, path, casefold=self.casefold)
        if self.invert:
            hit = not hit
        return hit and not (self.unless and rule_matches(self.syntax, self.unless, path, casefold=self.casefold))


@dataclass(frozen=True)
class MetaRule:
    """Metadata a tool merges under the front matter of the pages a rule selects.

    Attributes:
        syntax: one of :data:`SYNTAXES` (``"glob"`` with ``("**",)`` selects every page
            below ``base``).
        patterns: what selects a page (the path below ``base``, ``prefix`` prepended).
        values: the metadata (a mapping as read from the configuration).
        source: where it is written, for messages (``_config.yml defaults[2]``).
        base: as :attr:`PathRule.base`.
        prefix: as :attr:`PathRule.prefix`.
        types: Jekyll ``scope.type``: the page must be of one of these types (``pages``,
            ``posts``, ``drafts``, a collection label); empty for any.
        casefold: as :attr:`PathRule.casefold` (DocFX ``fileMetadata`` globs).
        reading: ``""`` for a rule that always applies; else the name of one reading of
            an ambiguous setting (DocFX ``fileMetadata`` globs relative to the docset
            folder, or to the ``src`` of the content entry): each reading's rules are
            merged on their own, and the stricter value of each key is kept
            (:meth:`SitePolicy.defaults_for`).
    """

    syntax: str
    patterns: tuple[str, ...]
    values: Mapping[str, Any]
    source: str
    base: str = ""
    prefix: str = ""
    types: tuple[str, ...] = ()
    casefold: bool = False
    reading: str = ""

    def __post_init__(self) -> None:
        _normalize(self, "patterns", "base", "prefix")

    def selects(self, relpath: str, page_type: str) -> bool:
        """Whether the rule applies to the page at ``relpath`` of Jekyll type ``page_type``."""
        relpath = _nfc(relpath)
        if not relpath.startswith(self.base):
            return False
        if self.types and page_type not in self.types:
            return False
        return rule_matches(self.syntax, self.patterns, self.prefix + relpath[len(self.base):],
                            casefold=self.casefold)


@dataclass(frozen=True)
class Finding:
    """A configuration file that exists and cannot be understood.

    Attributes:
        source: the file, relative to the content root (or its name when outside it).
        message: what is wrong, and what to do (recommending the sitemap where the file
            cannot be read at all, such as JavaScript).
        base: the folder it governs (``""``: the whole content root); every page below is
            internal (fail closed) while the finding stands.
        sitemap_settles: the file is readable but cannot be understood without running
            it (JavaScript): the site's sitemap, which proves what was published, settles
            what it would have said. A broken file is not settled by a sitemap.
    """

    source: str
    message: str
    base: str = ""
    sitemap_settles: bool = False

    def covers(self, relpath: str) -> bool:
        return _nfc(relpath).startswith(_nfc(self.base))


@dataclass(frozen=True)
class SitePolicy:
    """One tool's publication settings, ready to apply (module docstring).

    Attributes:
        tool: the layout it was read for (``jekyll``, ``mkdocs``…), or ``""`` for none.
        sources: the configuration files read (relative to the content root, or names).
        excluded: in order; the first rule that excludes a path gives its reason.
        defaults: lowest precedence first; later rules override earlier ones per key,
            the page's own front matter overrides them all.
        findings: configuration that cannot be understood.
        digest: changes whenever a file read for the policy changes (hex, 16 digits).
        page_types: Jekyll: ``(folder name, type)`` pairs giving a page's type for
            ``defaults`` scopes (``_posts`` → ``posts``); other tools leave it empty.
        folder_meta: a file name each folder may hold whose mapping applies to the pages
            in it and below (MkDocs meta plugin: ``.meta.yml``), or ``""``; read per page
            by :func:`provider.wiki.sites.load.site_view`, nearest folder winning.
        folder_meta_base: the folder (``""`` or ending in ``/``) from which
            :attr:`folder_meta` files are read (``docs_dir``).
        dated_types: Jekyll: the page types (:meth:`page_type`) whose documents dated in
            the future are not built (posts and collection documents, unless ``future:
            true``); pages have no date to Jekyll.
        permalinks: Jekyll: ``("", the site's permalink)`` and ``(collection label, its
            permalink)`` pairs as written (:mod:`provider.wiki.jekyll_urls`).
        held: earlier readings still in force while a change is younger than the hold
            time (:mod:`.load`, issue 24): :meth:`defaults_for` keeps each key the
            stricter way across them; their exclusions and findings are already in
            :attr:`excluded` and :attr:`findings`.
    """

    tool: str = ""
    sources: tuple[str, ...] = ()
    excluded: tuple[PathRule, ...] = ()
    defaults: tuple[MetaRule, ...] = ()
    findings: tuple[Finding, ...] = ()
    digest: str = ""
    page_types: tuple[tuple[str, str], ...] = field(default=())
    folder_meta: str = ""
    folder_meta_base: str = ""
    dated_types: tuple[str, ...] = ()
    permalinks: tuple[tuple[str, str], ...] = ()
    held: tuple[SitePolicy, ...] = ()

    def excluded_reason(self, relpath: str) -> str | None:
        """Why the tool does not build ``relpath`` (a file path), or ``None``."""
        for rule in self.excluded:
            reason = rule.explain(relpath)
            if reason is not None:
                return reason
        return None

    def page_type(self, relpath: str) -> str:
        """The Jekyll type of a page (``pages`` when no folder of :attr:`page_types` holds
        it; a folder name holds it at any depth, a folder path only there)."""
        parts = relpath.split("/")[:-1]
        for folder, kind in self.page_types:
            if folder in parts if "/" not in folder else relpath.startswith(folder + "/"):
                return kind
        return "pages"

    def defaults_for(self, relpath: str) -> tuple[dict[str, Any], list[str]]:
        """``(values, sources)``: the metadata merged under the page's front matter, and
        where each applied rule is written."""
        kind = self.page_type(relpath)
        readings = sorted({rule.reading for rule in self.defaults if rule.reading}) or [""]
        merged: list[tuple[dict[str, Any], list[str]]] = []
        for reading in readings:
            values: dict[str, Any] = {}
            sources: list[str] = []
            for rule in self.defaults:
                if rule.reading in ("", reading) and rule.selects(relpath, kind):
                    values.update(rule.values)
                    sources.append(rule.source)
            merged.append((values, sources))
        for earlier in self.held:
            merged.append(earlier.defaults_for(relpath))
        values, sources = merged[0]
        for other, more in merged[1:]:
            values = _stricter(values, other)
            sources += [source for source in more if source not in sources]
        return values, sources

    def is_dated(self, relpath: str) -> bool:
        """Jekyll: whether a date in the future keeps the tool from building the page,
        in this reading or any :attr:`held` one."""
        return any(p.page_type(relpath) in p.dated_types for p in (self, *self.held))

    def type_folder(self, kind: str) -> str:
        """The folder of a Jekyll page type (``_docs``, ``coll/_docs``), or ``""``."""
        return next((folder for folder, label in self.page_types if label == kind), "")

    def findings_for(self, relpath: str) -> list[Finding]:
        """The findings whose folder holds ``relpath``."""
        return [finding for finding in self.findings if finding.covers(relpath)]

    def to_json(self) -> dict[str, Any]:
        """Plain data (lists, mappings, strings); metadata values are as the tool's file
        gave them (a YAML date stays a date)."""
        return asdict(self)


def _restricts(key: Any, value: Any) -> bool:
    """Whether ``{key: value}`` could withhold a page or restrict its readers: an
    audience-like key other than an exact ``public``, a withholding flag or date, or
    ``ROBOTS`` with ``NOINDEX``."""
    from .jekyll import withholds  # the one reading of "withholds" (jekyll imports this module)

    if isinstance(key, str) and key.strip().lower() == "robots" and "noindex" in str(value).lower():
        return True
    return isinstance(key, str) and withholds({key: value})


def _publishes(key: Any, value: Any) -> bool:
    from ..audience import audience_signals

    return isinstance(key, str) and bool(audience_signals({key: value}))


def _stricter(one: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """Two readings' metadata made one, each key the stricter way (issue 24): a value
    that withholds or restricts (:func:`_restricts`) wins; an audience value only one
    reading gives (``public``) is dropped; otherwise the first reading's value."""
    out: dict[str, Any] = {}
    for key in [*one, *(k for k in other if k not in one)]:
        here, there = key in one, key in other
        if here and there and one[key] == other[key]:
            out[key] = one[key]
            continue
        strict = [d[key] for d in (one, other) if key in d and _restricts(key, d[key])]
        if strict:
            out[key] = strict[0]
        elif here and there:
            if not _publishes(key, one[key]):
                out[key] = one[key]
        elif not _publishes(key, (one if here else other)[key]):
            out[key] = (one if here else other)[key]
    return out


def _nfc(text: str) -> str:
    # A name typed in a configuration file (NFC, usually) and the same name on disk (NFD
    # on macOS) are one name to a reader: rules meet paths after normalisation.
    return unicodedata.normalize("NFC", text)


def _normalize(rule: Any, *names: str) -> None:
    for name in names:
        value = getattr(rule, name)
        object.__setattr__(rule, name, tuple(_nfc(v) for v in value) if isinstance(value, tuple) else _nfc(value))


def rule_matches(syntax: str, patterns: tuple[str, ...], path: str, *, casefold: bool = False,
                 dots: bool = True, above: bool = True) -> bool:
    """Whether ``path`` matches any of ``patterns`` in a tool's syntax.

    * ``gitignore``: Git's own rules (``pathspec.GitIgnoreSpec``: ``!`` re-includes,
      ``/`` anchors, a folder pattern covers what is below);
    * ``glob``: ``**`` across folders, ``{a,b}``; a pattern matching a folder above the
      path matches the path too (DocFX, Hugo mounts);
    * ``prefix``: the path starts with the pattern, as a string (Jekyll ``defaults``
      scope paths: ``docs`` also covers ``docs-old/``);
    * ``subpath``: the path is the pattern or lies below it, segment by segment (Jekyll 4
      ``defaults`` scope paths, ``FrontmatterDefaults#path_is_subpath?``: ``docs`` covers
      ``docs`` and ``docs/a.md``, not ``docs.md`` or ``docs-old/``; ``""`` covers all);
    * ``exact``: the path is one of the patterns (DocFX redirection sources);
    * ``regex``: a search anywhere in the path, Python syntax (patterns the provider
      writes: MkDocs exclude plugin globs and regexes, DocFX ``toc.md``);
    * ``goregex``: a search anywhere in the path (Hugo ``ignoreFiles``) with Go's RE2
      semantics (:mod:`provider.wiki.sites.go_regex`: POSIX classes such as
      ``[[:digit:]]``); a pattern RE2 does not accept matches nothing here, and the
      reader that makes such rules reports it as a finding over the whole content root,
      which fails closed.

    ``dots`` (``glob`` only): ``*`` and ``**`` match names starting with ``.``; without it
    only a pattern naming the dot does (DocFX's default glob options, for ``files``).

    ``above`` (``glob`` only): a pattern matching a folder above the path matches it; without
    it only the path itself counts — DocFX ``files`` globs select files (``"*"`` builds the
    top folder's files, not ``sub/x.md``: with ``above`` that read built every depth, issue 24).

    ``casefold`` compares letters whatever their case (``Internal/`` against
    ``internal/**``): DocFX's globs ignore case unless a file mapping says ``"case":
    true``, and Hugo's mount globs ignore case.

    Raises:
        ValueError: an unknown syntax.
    """
    if not patterns:
        return False
    if syntax == "gitignore":
        return _gitignore(patterns).match_file(path)
    if syntax == "glob":
        matcher = _glob(patterns, casefold, dots)
        if not above:
            return bool(matcher.match(path))
        parts = path.split("/")
        return any(matcher.match("/".join(parts[:depth])) for depth in range(1, len(parts) + 1))
    if casefold and syntax not in ("regex", "goregex"):
        path, patterns = path.casefold(), tuple(pattern.casefold() for pattern in patterns)
    if syntax == "prefix":
        return any(path.startswith(pattern) for pattern in patterns)
    if syntax == "subpath":
        return any(not (folder := pattern.strip("/")) or path == folder or path.startswith(folder + "/")
                   for pattern in patterns)
    if syntax == "exact":
        return path in _exact(patterns)
    if syntax == "regex":
        compiled = [_regex(pattern) for pattern in patterns]
        return any(regex is not None and regex.search(path) for regex in compiled)
    if syntax == "goregex":
        searchers = [_goregex(pattern) for pattern in patterns]
        return any(searcher is not None and searcher.search(path) for searcher in searchers)
    raise ValueError(f"unknown rule syntax {syntax!r}")


@lru_cache(maxsize=64)
def _exact(patterns: tuple[str, ...]) -> frozenset[str]:
    return frozenset(patterns)


@lru_cache(maxsize=1024)
def _glob(patterns: tuple[str, ...], casefold: bool = False, dots: bool = True) -> Any:
    flags = (_GLOB_FLAGS if dots else _GLOB_FLAGS & ~glob.DOTGLOB) | (glob.IGNORECASE if casefold else 0)
    return glob.compile(list(patterns), flags=flags)


@lru_cache(maxsize=256)
def _gitignore(patterns: tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    return pathspec.GitIgnoreSpec.from_lines(patterns)


@lru_cache(maxsize=512)
def _regex(pattern: str) -> re.Pattern[str] | None:
    try:
        return re.compile(pattern)
    except re.error:
        return None


def _goregex(pattern: str) -> Searcher | None:
    try:
        return compile_go(pattern)
    except GoRegexError:
        return None


def _jekyll_glob_include(patterns: tuple[str, ...], entry: str, *, folder: bool) -> bool:
    """Jekyll's ``EntryFilter#glob_include?``: Ruby ``File.fnmatch`` without flags (``*``
    crosses ``/``), or the entry starts with the pattern, or a folder named with a
    trailing ``/``."""
    for pattern in patterns:
        if fnmatch.fnmatchcase(entry, pattern) or entry.startswith(pattern):
            return True
        if folder and pattern == entry + "/":
            return True
    return False


@lru_cache(maxsize=256)
def _fullmatch_regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _fullmatch(pattern: str, text: str) -> bool:
    return _fullmatch_regex(pattern).fullmatch(text) is not None


def _jekyll_excludes(rule: PathRule, path: str) -> bool:
    """Jekyll reads a site folder by folder and filters each entry: an entry matched by
    ``exclude`` (``jekyll``) or with a special name — leading ``.``, ``_``, ``#``, ``~``
    or trailing ``~`` (``jekyll-special``, whose patterns are regexes naming the folders
    Jekyll reads itself, such as ``(?:.*/)?_posts``, matched against the whole folder
    path) — is dropped with everything below it, unless ``include`` names it (by its path
    or its name)."""
    parts = path.split("/")
    for depth in range(1, len(parts) + 1):
        entry = "/".join(parts[:depth])
        folder = depth < len(parts)
        name = parts[depth - 1]
        if rule.syntax == "jekyll":
            hit = _jekyll_glob_include(rule.patterns, entry, folder=folder)
        else:
            hit = bool(_JEKYLL_SPECIAL.search(name)) and not (
                folder and any(_fullmatch(pattern, entry) for pattern in rule.patterns))
        if hit and not (_jekyll_glob_include(rule.unless, entry, folder=folder)
                        or _jekyll_glob_include(rule.unless, name, folder=folder)):
            return True
    return False


@lru_cache(maxsize=64)
def _docfx_entries(patterns: tuple[str, ...]) -> tuple[dict[str, Any], ...]:
    return tuple(json.loads(pattern) for pattern in patterns)


def _docfx_builds(entry: Mapping[str, Any], path: str) -> bool:
    """DocFX builds ``path`` for a ``build.content`` entry: its ``files`` match and its
    ``exclude`` does not."""
    casefold = not entry.get("case", False)
    return (rule_matches("glob", tuple(entry["files"]), path, casefold=casefold, dots=False, above=False)
            and not rule_matches("glob", tuple(entry["exclude"]), path, casefold=casefold))


def _docfx_explain(rule: PathRule, path: str) -> str:
    for entry in _docfx_entries(rule.patterns):
        casefold = not entry.get("case", False)
        if not rule_matches("glob", tuple(entry["files"]), path, casefold=casefold, dots=False, above=False):
            continue
        for pattern, label in zip(entry["exclude"], entry["labels"], strict=True):
            if rule_matches("glob", (pattern,), path, casefold=casefold):
                return f"excluded by {entry['source']} build.content exclude: {label}"
    return rule.reason
