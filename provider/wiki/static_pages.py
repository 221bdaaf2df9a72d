"""Pages a docs site builds from sources that are not markdown documents (issue 24).

A sitemap lists every URL the site publishes, including pages the provider never reads:
Hugo's ``static/`` files, Jekyll's plain ``.html`` pages, MkDocs' ``.html`` files in
``docs_dir``, Docusaurus' ``static/`` and Starlight's ``public/``. A markdown document
that claims such a URL by front matter (``url: /pricing/`` on a page Hugo never builds)
is not proved published by the sitemap: the URL is the other source's. The site gate
(:mod:`provider.wiki.site_gate`) withholds such a document from ``customer_safe``.
"""

from __future__ import annotations

import os
from pathlib import Path

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


def static_pages(root: Path, layout: str) -> list[tuple[str, str]]:
    """``(source path relative to the content root's site, URL path)`` of each ``.html``
    file the layout's tool copies or renders to the site as a page of its own
    (``static/pricing/index.html`` → ``/pricing/index.html``). Never raises (an
    unreadable folder has none); at most 100,000 files are looked at."""
    found: list[tuple[str, str]] = []
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
