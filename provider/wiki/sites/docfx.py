"""DocFX: what each ``docfx.json`` builds, and the metadata it gives pages.

Every ``docfx.json`` found at the content root or in a folder below it (up to
:data:`MAX_DEPTH` levels; Microsoft's support repositories hold one per product) is a
docset governing the files in its folder:

* ``build.content[]``: a markdown file is a page only when an entry's ``files`` globs
  match its path (relative to the entry's ``src``, default the ``docfx.json`` folder)
  and the same entry's ``exclude`` globs do not. DocFX globs: ``**`` across folders
  (zero or more), and a segment starting with ``**`` is DocFX's shortcut for ``**/`` then
  ``*`` (``**.md`` is ``**/*.md``: every ``.md`` file at any depth, not only the top
  folder's; ``**/**.yml`` likewise; :func:`docfx_glob`), ``{a,b}``; a ``files`` glob's
  ``*`` and ``**`` do not match a name starting with ``.`` (``.attachments/x.md`` is built
  only when a pattern names the dot, as DocFX's default glob options say), ``exclude``
  globs' do (fail closed); letters compared whatever their case (DocFX's default glob options ignore case) unless
  the entry says ``"case": true``.
* ``build.globalMetadata`` (every page of the docset), then ``build.fileMetadata``
  (``{key: {glob: value}}``, later globs winning, case ignored) are merged under each
  page's front matter: an audience key or ``ROBOTS: NOINDEX`` there counts as the page's
  own.
* When any docset exists, a file in no docset's folder is not built.
* ``toc.md`` is a table of contents, not a page.
* Microsoft Learn's Open Publishing files in the content folder:
  ``.openpublishing.publish.config.json`` — a docset whose folder no
  ``docsets_to_publish[].build_source_folder`` names is not built;
  ``.openpublishing.redirection*.json`` — a file named by a ``source_path`` (relative to
  the content folder) or ``source_path_from_root`` (``/``-rooted) redirects to its
  ``redirect_url``, so it is not a page. Either file unreadable, or without its list, is a
  finding over the whole content folder.

A ``docfx.json`` that cannot be read, has a ``build`` of another shape, or names
``globalMetadataFiles``/``fileMetadataFiles`` (not read here) is a
:class:`~.policy.Finding` over its folder: those pages are internal until it is fixed.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from .config_files import ConfigError, read_bytes, read_config
from .policy import Finding, MetaRule, PathRule

__all__ = ["CONFIG_NAME", "MAX_DEPTH", "MAX_REDIRECTION_BYTES", "PUBLISH_CONFIG", "REDIRECTION_GLOB", "ContentEntry",
           "content_entries", "docfx_glob", "find_docsets", "read_docfx", "redirection_files"]

CONFIG_NAME = "docfx.json"
MAX_DEPTH = 3
#: Open Publishing redirection files, in the content folder (the repository root).
REDIRECTION_GLOB = ".openpublishing.redirection*.json"
#: Redirection files of large docsets hold tens of thousands of entries.
MAX_REDIRECTION_BYTES = 32 << 20
#: Open Publishing's list of the docsets it builds (``docsets_to_publish``).
PUBLISH_CONFIG = ".openpublishing.publish.config.json"
#: DocFX reads these as a folder's table of contents, never as a page.
_TOC = r"(?i)(?:\A|/)toc\.md\Z"
_SKIP = frozenset({"node_modules", "_site", "obj", "_themes"})


def find_docsets(root: Path) -> list[str]:
    """Folders (``""`` or ending in ``/``, relative to ``root``) holding a ``docfx.json``."""
    found: list[str] = []
    base = str(root)
    for folder, dirs, files in os.walk(base):
        rel = os.path.relpath(folder, base).replace(os.sep, "/")
        depth = 0 if rel == "." else rel.count("/") + 1
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP and depth < MAX_DEPTH)
        if CONFIG_NAME in files:
            found.append("" if rel == "." else rel + "/")
    return sorted(found)


def _globs(value: Any) -> list[str] | None:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return list(value)
    return None


_GLOBSTAR_SHORTCUT = re.compile(r"^\*{2,}(?=[^/*])")


def docfx_glob(pattern: str) -> str:
    """``pattern`` with DocFX's globstar shortcut spelled out: a segment starting with
    ``**`` and going on (``**.md``, ``***x``) is ``**/`` then that segment with ``*``
    (``**/*.md``), as DocFX's ``GlobMatcher.ExpandGlobStarShortcut`` reads it; a ``**``
    inside a segment (``a**.md``) is one ``*``, as the glob matcher already reads it.

    >>> docfx_glob("**.md"), docfx_glob("**/**.yml"), docfx_glob("docs/**")
    ('**/*.md', '**/**/*.yml', 'docs/**')
    """
    return "/".join(_GLOBSTAR_SHORTCUT.sub("**/*", part) for part in pattern.split("/"))


def _relative(pattern: str) -> str:
    """A DocFX glob relative to its folder (``./private/**`` and ``/private/**`` name
    ``private/**``), its shortcuts spelled out (:func:`docfx_glob`)."""
    while pattern.startswith(("./", "/")):
        pattern = pattern[1:] if pattern.startswith("/") else pattern[2:]
    return docfx_glob(pattern)


def _join(src: str, pattern: str) -> str:
    return f"{src}/{_relative(pattern)}" if src else _relative(pattern)


def _clean(folder: str) -> str:
    return posixpath.normpath(folder.replace("\\", "/")).strip("/") if folder.strip(" ./") else ""


class ContentEntry(NamedTuple):
    """One ``build.content`` entry: ``src`` and ``dest`` normalised (``""`` for the docset
    folder and the output root), ``files``/``exclude`` joined to ``src`` (relative to the
    docset folder), ``labels`` the ``exclude`` globs as written (for reasons), ``case``
    the entry's ``"case": true`` (globs compare case; DocFX's default ignores it)."""

    src: str
    dest: str
    files: tuple[str, ...]
    exclude: tuple[str, ...]
    labels: tuple[str, ...]
    case: bool = False


def content_entries(build: Mapping[str, Any]) -> tuple[list[ContentEntry], str | None]:
    """``(entries, problem)``: each readable ``build.content`` entry, in order, and the
    first problem found (``None`` when every entry reads). An entry that does not read is
    left out (its files are then not built: fail closed)."""
    content = build.get("content")
    if content is None:
        return [], None
    if not isinstance(content, list):
        return [], "build.content is not a list"
    entries: list[ContentEntry] = []
    problem: str | None = None
    for number, entry in enumerate(content):
        files = _globs(entry.get("files")) if isinstance(entry, Mapping) else None
        exclude = _globs(entry.get("exclude")) if isinstance(entry, Mapping) else None
        src = entry.get("src", "") if isinstance(entry, Mapping) else None
        dest = entry.get("dest", "") if isinstance(entry, Mapping) else None
        if files is None or exclude is None or not isinstance(src, str) or not isinstance(dest, str):
            problem = problem or f"build.content[{number}] files/exclude/src/dest is not a glob list and folders"
            continue
        clean = _clean(src)
        # Only a literal true makes DocFX compare case; anything else keeps its default.
        case = isinstance(entry, Mapping) and entry.get("case") is True
        entries.append(ContentEntry(clean, _clean(dest), tuple(_join(clean, p) for p in files),
                                    tuple(_join(clean, p) for p in exclude), tuple(exclude), case))
    return entries, problem


def _docset(root: Path, base: str) -> tuple[list[PathRule], list[MetaRule], list[Finding]]:
    name = f"{base}{CONFIG_NAME}"
    try:
        data = read_config(root / name, comments=True)
    except (ConfigError, FileNotFoundError) as exc:
        return [], [], [Finding(name, f"{name} {exc}: its pages are internal until it is fixed", base)]
    build = data.get("build") if isinstance(data, Mapping) else None
    if not isinstance(build, Mapping):
        return [], [], [Finding(name, f"{name} has no build mapping: its pages are internal until it is fixed", base)]
    problems: list[str] = []
    for key in ("globalMetadataFiles", "fileMetadataFiles"):
        if build.get(key):
            problems.append(f"{name} build.{key} is not read by the provider (give the site's sitemap: sitemap:, "
                            "or inline the metadata)")
    content = build.get("content")
    found, problem = content_entries(build)
    if problem is not None:
        problems.append(f"{name} {problem}")
    entries = [{"files": list(e.files), "exclude": list(e.exclude), "labels": list(e.labels), "source": name,
                "case": e.case} for e in found]
    srcs = {e.src for e in found}
    global_meta = build.get("globalMetadata")
    file_meta = build.get("fileMetadata")
    if global_meta is not None and not isinstance(global_meta, Mapping):
        problems.append(f"{name} build.globalMetadata is not a mapping")
    if file_meta is not None and (not isinstance(file_meta, Mapping)
                                  or not all(isinstance(v, Mapping) for v in file_meta.values())):
        problems.append(f"{name} build.fileMetadata is not a mapping of glob mappings")
    if problems:
        return [], [], [Finding(name, f"{p}; its pages are internal until it is fixed", base) for p in problems]
    rules = [PathRule("docfx-content", tuple(json.dumps(e, sort_keys=True) for e in entries),
                      f"not matched by build.content files in {name}: DocFX does not build it", base=base,
                      invert=True)] if content is not None else []
    metas: list[MetaRule] = []
    if global_meta:
        metas.append(MetaRule("glob", ("**",), dict(global_meta), f"{name} globalMetadata", base=base))
    # Which folder a fileMetadata glob is relative to depends on the DocFX version and the
    # content groups (the docset folder, or the src of the entry that holds the file).
    # Where a src is not the docset folder, both readings apply and the stricter value
    # of each key is kept (SitePolicy.defaults_for): an internal audience or NOINDEX from
    # either reading wins.
    nested = sorted(src for src in srcs if src)
    readings = [("", [base])] if not nested else [("docset", [base]), ("src", [f"{base}{src}/" for src in nested])]
    for key, by_glob in (file_meta or {}).items():
        for pattern, value in by_glob.items():
            for reading, bases in readings:
                for folder in bases:
                    metas.append(MetaRule("glob", (_relative(str(pattern)),), {str(key): value},
                                          f"{name} fileMetadata {key} {pattern}", base=folder, casefold=True,
                                          reading=reading))
    return rules, metas, []


def redirection_files(root: Path) -> list[Path]:
    """The ``.openpublishing.redirection*.json`` files of the content folder, sorted."""
    try:
        return sorted(p for p in root.glob(REDIRECTION_GLOB) if p.is_file())
    except OSError:
        return []


def _redirections(root: Path) -> tuple[list[PathRule], list[Finding]]:
    """Open Publishing redirections: a ``source_path`` (relative to the file's folder) or
    ``source_path_from_root`` (``/``-rooted) is a URL that now redirects (the
    ``redirect_url``), so a file still at that path is not a page on the site."""
    sources: dict[str, str] = {}
    findings: list[Finding] = []
    for path in redirection_files(root):
        name = path.name
        try:
            data = json.loads(read_bytes(path, MAX_REDIRECTION_BYTES).decode("utf-8-sig"))
        except (ConfigError, OSError, ValueError) as exc:
            findings.append(Finding(name, f"{name} cannot be read ({exc}): a redirected page would be served as a "
                                    "page, so every page is internal until it is fixed"))
            continue
        items = data.get("redirections") if isinstance(data, Mapping) else None
        if not isinstance(items, list):
            findings.append(Finding(name, f"{name} has no redirections list: every page is internal until it is "
                                    "fixed"))
            continue
        for item in items:
            source = item.get("source_path_from_root") or item.get("source_path") if isinstance(item, Mapping) \
                else None
            if not isinstance(source, str) or not source.strip("/"):
                continue
            clean = posixpath.normpath(source.replace("\\", "/").lstrip("/"))
            target = item.get("redirect_url") if isinstance(item, Mapping) else None
            sources.setdefault(clean, f"redirected by {name} to {target}: a redirect, not a page on the site")
    if not sources:
        return [], findings
    ordered = sorted(sources)
    return [PathRule("exact", tuple(ordered), "redirected by .openpublishing.redirection*.json",
                     labels=tuple(sources[s] for s in ordered))], findings


def _unpublished(root: Path, docsets: list[str]) -> tuple[list[PathRule], list[Finding]]:
    """With ``.openpublishing.publish.config.json`` in the content folder, a docset whose
    folder no ``docsets_to_publish[].build_source_folder`` names is not built."""
    path = root / PUBLISH_CONFIG
    if not path.is_file():
        return [], []
    try:
        data = read_config(path)
    except (ConfigError, OSError) as exc:
        return [], [Finding(PUBLISH_CONFIG, f"{PUBLISH_CONFIG} {exc}: every page is internal until it is fixed")]
    items = data.get("docsets_to_publish") if isinstance(data, Mapping) else None
    if not isinstance(items, list):
        return [], [Finding(PUBLISH_CONFIG, f"{PUBLISH_CONFIG} has no docsets_to_publish list: every page is "
                                            "internal until it is fixed")]
    named = {_clean(item["build_source_folder"]) for item in items
             if isinstance(item, Mapping) and isinstance(item.get("build_source_folder"), str)}
    return [PathRule("glob", (f"{docset}**",) if docset else ("**",),
                     f"its docset {docset or './'} is not in {PUBLISH_CONFIG} docsets_to_publish: not published")
            for docset in docsets if docset.rstrip("/") not in named], []


def read_docfx(root: Path) -> tuple[list[str], list[PathRule], list[MetaRule], list[Finding]] | None:
    """``(sources, excluded, defaults, findings)`` for every docset under ``root``, or
    ``None`` when there is no ``docfx.json``."""
    docsets = find_docsets(root)
    if not docsets:
        return None
    rules: list[PathRule] = []
    metas: list[MetaRule] = []
    findings: list[Finding] = []
    if "" not in docsets:
        rules.append(PathRule("glob", ("**",), "in no DocFX docset (no docfx.json in a folder above it)",
                              unless=tuple(d.rstrip("/") for d in docsets)))
    unpublished, findings = _unpublished(root, docsets)
    rules += unpublished
    rules.append(PathRule("regex", (_TOC,), "a DocFX table of contents (toc.md), not a page"))
    redirected, more = _redirections(root)
    rules += redirected
    findings += more
    sources = [p.name for p in (root / PUBLISH_CONFIG, *redirection_files(root)) if p.is_file()]
    # The deepest docset governs its folder: its rules first.
    for base in sorted(docsets, key=lambda d: -d.count("/")):
        more_rules, more_metas, more_findings = _docset(root, base)
        rules += more_rules
        metas += more_metas
        findings += more_findings
    return [f"{d}{CONFIG_NAME}" for d in docsets] + sources, rules, metas, findings
