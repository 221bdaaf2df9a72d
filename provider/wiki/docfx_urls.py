"""DocFX and Microsoft Learn page URLs, from each docset's own ``docfx.json`` (issue 24).

The ``docfx`` layout makes a page's ``{path}`` the way the build does:

* **docset**: the nearest folder above the file holding a ``docfx.json`` (a repository
  may hold several: Microsoft's support repository has one per product);
* **content entry**: the first ``build.content[]`` entry whose ``files`` globs match the
  file (relative to the entry's ``src``) and whose ``exclude`` globs do not; the page's
  output path is the entry's ``dest`` joined to the path below ``src`` (``src:
  ExchangeOnline, dest: .`` publishes ``ExchangeOnline/mail-flow/x.md`` as
  ``mail-flow/x``);
* **docset base path**: where the site puts the docset. A docset at the content root,
  or the only docset, is at the root of ``citation_base_url``. With several docsets the
  base path of each is set on the publishing service, not in the repository, so the
  operator names it (``docfx_base_paths: {Exchange: /exchange/troubleshoot}``); a
  docset without one has **no** citation URL, and :meth:`DocfxSite.notes` says so (with
  the base its ``globalMetadata.breadcrumb_path`` suggests, if any) — a guessed URL
  would decide publication wrongly once a sitemap is checked;
* **page form**: ``.md`` dropped and an ``index`` page standing for its folder
  (``a/index.md`` → ``a/``). On Microsoft Learn (:attr:`DocfxSite.learn`) the whole path
  is lower case, as Learn serves it; a plain DocFX site keeps the case and adds
  ``.html`` (``a/b.md`` → ``a/b.html``, ``a/index.md`` → ``a/index.html``).

A repository is a Learn repository when ``.openpublishing.publish.config.json`` is in
the content folder or a folder above it (up to the Git root), or ``citation_base_url``
is on ``learn.microsoft.com``.

Redirections (``.openpublishing.redirection*.json``) are not read here: a redirected
source file is not a page at all (:mod:`provider.wiki.sites.docfx` excludes it).
"""

from __future__ import annotations

import posixpath
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .sites.config_files import ConfigError, read_config
from .sites.docfx import CONFIG_NAME, ContentEntry, content_entries
from .sites.load import load_site_policy
from .sites.policy import rule_matches

__all__ = ["LEARN_CONFIG", "DocfxSite", "Docset", "docfx_site"]

LEARN_CONFIG = ".openpublishing.publish.config.json"
_LEARN_HOST = "learn.microsoft.com"
_PAGE_EXTENSIONS = (".md", ".markdown", ".yml", ".yaml")


@dataclass(frozen=True)
class Docset:
    """One ``docfx.json`` as far as URLs go.

    Attributes:
        folder: ``""`` or a folder ending in ``/``, relative to the content folder.
        entries: the ``build.content`` entries, in order.
        error: why the file's ``build.content`` cannot be read, or ``None``.
        suggested_base: the base path ``globalMetadata.breadcrumb_path`` points at
            (``/exchange/troubleshoot`` for ``/exchange/troubleshoot/breadcrumb/toc.json``),
            shown as a hint only.
    """

    folder: str
    entries: tuple[ContentEntry, ...]
    error: str | None = None
    suggested_base: str | None = None

    @property
    def name(self) -> str:
        """The docset folder as ``docfx_base_paths`` names it (``""`` for the root)."""
        return self.folder.rstrip("/")

    def output_path(self, inner: str) -> str | None:
        """The output path (``dest`` + path below ``src``) of the file at ``inner``
        (relative to the docset folder), or ``None`` when no entry builds it."""
        for entry in self.entries:
            fold = not entry.case
            if (rule_matches("glob", entry.files, inner, casefold=fold, dots=False, above=False)
                    and not rule_matches("glob", entry.exclude, inner, casefold=fold)):
                below = inner[len(entry.src) + 1:] if entry.src else inner
                return posixpath.normpath(posixpath.join(entry.dest, below)) if entry.dest else below
        return None


@dataclass(frozen=True)
class DocfxSite:
    """Every docset of a content folder, and the operator's base paths (module docstring).

    Attributes:
        docsets: deepest folder first.
        base_paths: docset name → URL path (no leading or trailing ``/``; ``""``: the
            base URL's root).
        learn: Microsoft Learn's URL rules (lower case, no ``.html``).
    """

    docsets: tuple[Docset, ...]
    base_paths: Mapping[str, str]
    learn: bool

    def docset_of(self, relpath: str) -> Docset | None:
        """The docset whose folder holds ``relpath`` (the deepest), or ``None``."""
        return next((d for d in self.docsets if relpath.startswith(d.folder)), None)

    def base_of(self, docset: Docset) -> str | None:
        """The docset's base path (no leading or trailing ``/``), or ``None`` when unknown."""
        if docset.name in self.base_paths:
            return self.base_paths[docset.name]
        if docset.folder == "" or len(self.docsets) == 1:
            return ""
        return None

    def url_path(self, relpath: str) -> tuple[str | None, str | None]:
        """``(path, problem)``: the page's URL path below ``citation_base_url`` (no
        leading ``/``; a folder page ends in ``/``), or ``None`` and why there is none."""
        docset = self.docset_of(relpath)
        if docset is None:
            return None, "in no DocFX docset"
        if docset.error is not None:
            return None, docset.error
        base = self.base_of(docset)
        if base is None:
            return None, f"no base path for the DocFX docset {docset.name}/ (set docfx_base_paths)"
        output = docset.output_path(relpath[len(docset.folder):])
        if output is None:
            return None, f"not built by {docset.folder}{CONFIG_NAME} build.content"
        stem, ext = posixpath.splitext(output)
        if ext.lower() not in _PAGE_EXTENSIONS:
            stem = output
        folder, _, name = stem.rpartition("/")
        is_index = name.lower() == "index"
        page = (folder if is_index else stem) if self.learn else f"{stem}.html"
        path = "/".join(part for part in (base, page) if part)
        if self.learn and is_index and path:
            path += "/"
        return (path.lower() if self.learn else path), None

    def notes(self) -> list[str]:
        """What ``check`` says about the URLs: docsets without a base path (with the
        breadcrumb hint), base paths naming no docset, docsets whose content cannot be read."""
        out: list[str] = []
        names = {d.name for d in self.docsets}
        for docset in sorted(self.docsets, key=lambda d: d.folder):
            if docset.error is not None:
                out.append(f"{docset.folder}{CONFIG_NAME}: {docset.error}; its pages have no citation URL")
            elif self.base_of(docset) is None:
                hint = (f"; its globalMetadata breadcrumb_path suggests {docset.suggested_base}"
                        if docset.suggested_base else "")
                out.append(f"{docset.folder}{CONFIG_NAME}: the site's base path of this docset is set on the "
                           f"publishing service, not in the repository, so its pages have no citation URL: set "
                           f"docfx_base_paths: {{{docset.name}: /path}}{hint}")
        for name in sorted(set(self.base_paths) - names):
            out.append(f"docfx_base_paths names {name!r}, which is no docset folder (no {name}/{CONFIG_NAME}); "
                       "it is not used")
        return out


def _suggested_base(build: Mapping[str, Any]) -> str | None:
    meta = build.get("globalMetadata")
    crumb = meta.get("breadcrumb_path") if isinstance(meta, Mapping) else None
    if not isinstance(crumb, str) or not crumb.startswith("/"):
        return None
    parts = crumb.strip("/").split("/")
    if len(parts) >= 3 and parts[-2] == "breadcrumb":
        return "/" + "/".join(parts[:-2])
    return None


def _read_docset(root: Path, folder: str) -> Docset:
    try:
        data = read_config(root / folder / CONFIG_NAME, comments=True)
    except (ConfigError, FileNotFoundError, OSError) as exc:
        return Docset(folder, (), f"cannot be read ({exc})")
    build = data.get("build") if isinstance(data, Mapping) else None
    if not isinstance(build, Mapping):
        return Docset(folder, (), "has no build mapping")
    entries, problem = content_entries(build)
    if problem is not None:
        return Docset(folder, (), problem)
    return Docset(folder, tuple(entries), None, _suggested_base(build))


def _is_learn(root: Path, base_url: str | None) -> bool:
    if base_url is not None and (urlsplit(base_url).hostname or "").lower().endswith(_LEARN_HOST):
        return True
    folder = root.resolve()
    for candidate in (folder, *folder.parents):
        if (candidate / LEARN_CONFIG).is_file():
            return True
        if (candidate / ".git").exists():
            break
    return False


_cache: dict[tuple[str, str, tuple[tuple[str, str], ...], str | None], DocfxSite] = {}
_lock = threading.Lock()


def docfx_site(root: Path, base_paths: tuple[tuple[str, str], ...] = (),
               base_url: str | None = None) -> DocfxSite:
    """The :class:`DocfxSite` of the content folder ``root``, read again when any
    ``docfx.json`` changes (the site policy's digest says so). Never raises: a docset
    that cannot be read has :attr:`Docset.error`."""
    policy = load_site_policy(root, "docfx", max_age_s=5.0)
    key = (str(root), policy.digest, base_paths, base_url)
    with _lock:
        found = _cache.get(key)
    if found is not None:
        return found
    folders = [source[: -len(CONFIG_NAME)] for source in policy.sources
               if source == CONFIG_NAME or source.endswith("/" + CONFIG_NAME)]
    docsets = tuple(_read_docset(root, folder) for folder in sorted(folders, key=lambda f: (-f.count("/"), f)))
    site = DocfxSite(docsets, {name.strip("/"): path.strip("/") for name, path in base_paths},
                     _is_learn(root, base_url))
    with _lock:
        if len(_cache) > 16:
            _cache.clear()
        _cache[key] = site
    return site
