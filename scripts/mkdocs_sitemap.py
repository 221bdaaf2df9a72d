"""Write the sitemap an MkDocs build of a repository would publish, without building it.

For trying the ``sitemap:`` setting (docs/how-to/sitemap.md) on a repository whose site
is not built here: the URLs follow MkDocs' own rules — ``docs_dir`` (default ``docs``),
``site_url``, ``use_directory_urls`` (default true: ``a/b.md`` → ``a/b/``, ``a/index.md`` and
``a/README.md`` → ``a/``; false: ``a/b.html``, ``a/index.html``), files and folders starting
with ``.`` and the ``templates/`` folder left out (MkDocs' default ``exclude_docs``).
Plugins that add or drop pages (i18n, blog, exclude) are not imitated beyond that: the
mkdocs-static-i18n folder structure keeps the locale folder in the URL, as written here.

Usage::

    python scripts/mkdocs_sitemap.py ../shared/corpora/openai-agents-docs \\
        --site-url https://openai.github.io/openai-agents-python/ > /tmp/sitemap.xml
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import quote
from xml.sax.saxutils import escape

import yaml


class _Loader(yaml.SafeLoader):
    """Reads mkdocs.yml, whose ``!!python/name:`` and ``!ENV`` tags are kept as text."""


_Loader.add_multi_constructor("", lambda loader, suffix, node: None)


def page_urls(root: Path, site_url: str | None = None) -> list[str]:
    """Every page URL, sorted. ``site_url`` overrides the configuration's."""
    config = yaml.load((root / "mkdocs.yml").read_text("utf-8"), Loader=_Loader) or {}  # noqa: S506 - SafeLoader subclass
    base = (site_url or config.get("site_url") or "").rstrip("/")
    if not base:
        raise SystemExit("mkdocs.yml has no site_url: pass --site-url")
    directory_urls = config.get("use_directory_urls", True) is not False
    docs = root / str(config.get("docs_dir", "docs"))
    urls = set()
    for path in sorted(docs.rglob("*.md")):
        relative = path.relative_to(docs)
        if any(part.startswith(".") for part in relative.parts) or relative.parts[0] == "templates":
            continue
        folder, stem = relative.parent.as_posix(), relative.stem
        folder = "" if folder == "." else folder + "/"
        is_index = stem == "index" or (stem.lower() == "readme" and not (path.parent / "index.md").exists())
        if directory_urls:
            page = folder if is_index else f"{folder}{stem}/"
        else:
            page = f"{folder}index.html" if is_index else f"{folder}{stem}.html"
        urls.add(f"{base}/{quote(page)}")
    return sorted(urls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("root", type=Path, help="the repository (holding mkdocs.yml)")
    parser.add_argument("--site-url", help="the site's URL when mkdocs.yml has no site_url")
    args = parser.parse_args()
    body = "".join(f"  <url><loc>{escape(url)}</loc></url>\n" for url in page_urls(args.root, args.site_url))
    sys.stdout.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                     f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{body}</urlset>\n')


if __name__ == "__main__":
    main()
