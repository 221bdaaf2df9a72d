"""Pages a docs site builds from sources that are not markdown documents (issue 24).

A sitemap lists every URL the site publishes, including pages the provider never reads:
Hugo's ``static/`` files, Jekyll's plain ``.html`` pages, MkDocs' ``.html`` files in
``docs_dir``, Docusaurus' ``static/`` and Starlight's ``public/``. A markdown document
that claims such a URL by front matter (``url: /pricing/`` on a page Hugo never builds)
is not proved published by the sitemap: the URL is the other source's. The site gate
(:mod:`provider.wiki.site_gate`) withholds such a document from ``customer_safe``.

Hugo builds pages from more than ``static/``: its content files in the other formats it
renders (``.html``/``.htm``, Emacs Org ``.org``, AsciiDoc ``.adoc``/``.asciidoc``/``.ad``,
Pandoc ``.pandoc``/``.pdc``, reStructuredText ``.rst``; ``.ipynb`` is none of them) at their
path's URL and at a front matter ``url`` they set; the home page ``/`` when the content
folder has no ``_index`` file, and a list page ``/<section>/`` for each top-level folder
without one (Hugo generates both). Leaf-bundle resources and content adapters are told
by :mod:`provider.wiki.hugo_site`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .hugo_site import CONTENT_EXTENSIONS, is_bundle_index

__all__ = ["static_pages"]

_HTML = (".html", ".htm")
_MAX_FILES = 100_000


def _folders(root: Path, layout: str) -> list[tuple[Path, bool]]:
    """``(folder whose .html files are served at the site root, skip _-prefixed names)``."""
    if layout == "hugo":
        site = root.parent if root.name == "content" else root
        return [(site / "static", False)]
    if layout == "jekyll":
        return [(root, True)]
    if layout == "mkdocs":
        has_config = any((root / n).is_file() for n in ("mkdocs.yml", "mkdocs.yaml"))
        return [(root / "docs" if has_config else root, False)]
    if layout == "docusaurus":
        return [(root / "static", False)]
    if layout == "starlight":
        return [(root / "public", False)]
    return []


#: A Hugo site's folders that are not content (when the content root is the site root).
_NOT_CONTENT = frozenset({"archetypes", "layouts", "themes", "public", "resources", "assets", "static", "data", "i18n",
                          "node_modules", "config"})
_OTHER_FORMATS = tuple(e for e in CONTENT_EXTENSIONS if e not in (".md", ".markdown", ".mdown"))
_FRONT_URL = re.compile(r"""^\s*["']?url["']?\s*[:=]\s*["']?([^"'\s#]+)""", re.M)


def _front_url(path: Path) -> str | None:
    """A ``url`` set in the front matter of a non-markdown content file (read as text)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(16384).decode("utf-8", errors="replace")
    except OSError:
        return None
    lines = head.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() not in ("---", "+++", "{"):
        return None
    closing = {"---": "---", "+++": "+++", "{": "}"}[lines[0].strip()]
    block = "\n".join(next((lines[1:n] for n in range(1, len(lines)) if lines[n].strip() == closing), lines[1:]))
    found = _FRONT_URL.search(block)
    return found.group(1) if found and found.group(1).startswith("/") else None


def _files(folder: str | Path) -> list[str]:
    try:
        return [e.name for e in os.scandir(folder) if e.is_file()]
    except OSError:
        return []


def _generated_lists(content: Path, where: str, url: str) -> list[tuple[str, str]]:
    """The home (``url``) and top-level section list pages Hugo generates for the
    content folder (or language folder) ``content`` because no ``_index`` file makes them."""
    found: list[tuple[str, str]] = []
    try:
        top = list(os.scandir(content))
    except OSError:
        return found
    if not any(entry.is_file() and is_bundle_index(entry.name, "_index") for entry in top):
        found.append((f"(the home page Hugo generates: no {where}_index file)", url))
    for entry in top:
        if (entry.is_dir() and not entry.name.startswith(".") and entry.name not in _NOT_CONTENT
                and not any(is_bundle_index(n, "_index") or is_bundle_index(n) for n in _files(entry.path))):
            found.append((f"(the list page Hugo generates for section {where}{entry.name}/: no _index file)",
                          f"{url}{entry.name.lower()}/"))
    return found


def _hugo_pages(root: Path, locales: frozenset[str], default_locale: str) -> list[tuple[str, str]]:
    """The pages Hugo builds from its content folder besides markdown documents
    (module docstring). A top-level folder named like a locale is a language's content
    folder (its home at ``/<locale>/``, the default language's at ``/``)."""
    content = root if root.name == "content" or not (root / "content").is_dir() else root / "content"
    prefix = "" if content == root else "content/"
    found: list[tuple[str, str]] = []
    languages = [d for d in _dirs(content) if d.lower() in locales]
    if languages:
        for language in languages:
            url = "/" if language.lower() == default_locale else f"/{language.lower()}/"
            found += _generated_lists(content / language, f"{prefix}{language}/", url)
    else:
        found += _generated_lists(content, prefix, "/")
    seen = 0
    for current, dirs, files in os.walk(content):
        dirs[:] = [d for d in dirs if not d.startswith(".") and not (current == str(content) and d in _NOT_CONTENT)]
        rel_dir = os.path.relpath(current, content)
        rel_dir = "" if rel_dir == "." else rel_dir.replace(os.sep, "/") + "/"
        for name in files:
            seen += 1
            if seen > _MAX_FILES:
                return found
            lowered = name.lower()
            ext = next((e for e in _OTHER_FORMATS if lowered.endswith(e)), None)
            if ext is None:
                continue
            stem = lowered[: -len(ext)].split(".", 1)[0]  # without a language suffix (about.de.org)
            page = rel_dir.lower() if stem in ("index", "_index") else f"{rel_dir.lower()}{stem}/"
            source = f"{prefix}{rel_dir}{name}"
            found.append((source, f"/{page}"))
            own = _front_url(Path(current) / name)
            if own is not None:
                found.append((source, own))
    return found


def _dirs(folder: Path) -> list[str]:
    try:
        return [e.name for e in os.scandir(folder) if e.is_dir()]
    except OSError:
        return []


def static_pages(root: Path, layout: str, *, locales: frozenset[str] = frozenset(),
                 default_locale: str = "") -> list[tuple[str, str]]:
    """``(source path relative to the content root's site, URL path)`` of each ``.html``
    file the layout's tool copies or renders to the site as a page of its own
    (``static/pricing/index.html`` → ``/pricing/index.html``), and Hugo's other pages
    (module docstring; the source in parentheses for a generated one; ``locales``: the
    language folders a Hugo content folder may hold, ``default_locale`` the one served
    without a prefix). Never raises (an
    unreadable folder has none); at most 100,000 files are looked at."""
    lowered = frozenset(locale.lower() for locale in locales)
    found: list[tuple[str, str]] = _hugo_pages(root, lowered, default_locale.lower()) if layout == "hugo" else []
    seen = 0
    for folder, skip_special in _folders(root, layout):
        if not folder.is_dir():
            continue
        for current, dirs, files in os.walk(folder):
            rel_dir = os.path.relpath(current, folder)
            rel_dir = "" if rel_dir == "." else rel_dir.replace(os.sep, "/") + "/"
            if skip_special:
                dirs[:] = [d for d in dirs if not d.startswith(("_", ".")) and d not in ("vendor", "node_modules")]
            for name in files:
                seen += 1
                if seen > _MAX_FILES:
                    return found
                if name.lower().endswith(_HTML) and not (skip_special and name.startswith(("_", "."))):
                    found.append((f"{folder.name}/{rel_dir}{name}", f"/{rel_dir}{name}"))
    return found
