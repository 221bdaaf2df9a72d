"""Issue 24 / CONTRACT R7: a Jekyll page's citation URL is the URL Jekyll 4 builds from its
``permalink`` front matter, the site's ``permalink`` style or template, and its
collection's ``permalink`` (placeholders ``:title :year :month :day :categories``…,
styles ``date``/``pretty``/``ordinal``/``none``, a trailing ``/`` meaning a folder URL)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from provider.wiki.citations import CitationSettings, document_url, url_inputs
from provider.wiki.document import WikiDocument, WikiSettings, load_document
from provider.wiki.jekyll_urls import jekyll_url

BASE = "https://site.example.org"
_SITES = itertools.count()

# (site permalink setting or None, file, front matter lines, expected URL path)
CASES = [
    (None, "_posts/2024-01-31-hello.md", "", "/2024/01/31/hello.html"),
    (None, "news/_posts/2024-01-31-hello.md", "", "/news/2024/01/31/hello.html"),
    (None, "_posts/2024-01-31-hello.md", "categories: [Release, notes]\n", "/release/notes/2024/01/31/hello.html"),
    (None, "_posts/2024-01-31-hello.md", "category: Ops\n", "/ops/2024/01/31/hello.html"),
    (None, "_posts/2024-01-31-hello.md", "date: 2024-02-03 10:00:00 +0100\n", "/2024/02/03/hello.html"),
    (None, "_posts/2024-01-31-hello.md", "slug: Other_Name\n", "/2024/01/31/Other-Name.html"),
    ("pretty", "_posts/2024-01-31-hello.md", "", "/2024/01/31/hello/"),
    ("pretty", "guide/setup.md", "", "/guide/setup/"),
    ("pretty", "guide/index.md", "", "/guide/"),
    ("ordinal", "_posts/2024-02-01-hello.md", "", "/2024/032/hello.html"),
    ("none", "_posts/2024-01-31-hello.md", "categories: a b\n", "/a/b/hello.html"),
    ("/blog/:year/:title/", "_posts/2024-01-31-hello.md", "", "/blog/2024/hello/"),
    ("/blog/:year/:title", "_posts/2024-01-31-hello.md", "", "/blog/2024/hello"),
    ("/blog/:year/:title/", "guide/setup.md", "", "/guide/setup/"),
    ("/:title:output_ext", "guide/setup.md", "", "/guide/setup.html"),
    ("/:title", "guide/setup.md", "", "/guide/setup"),
    (None, "about.md", "", "/about.html"),
    (None, "about.md", "permalink: /company/about/\n", "/company/about/"),
    (None, "about.md", "permalink: /:path/:basename:output_ext\n", "/about.html"),
    (None, "_posts/2024-01-31-hello.md", "permalink: /news/:title/\n", "/news/hello/"),
    (None, "_posts/2024-01-31-hello.md", "permalink: /posts/:i_month-:i_day/:slug\n", "/posts/1-31/hello"),
]


@pytest.mark.parametrize(("style", "relpath", "front", "expected"), CASES)
def test_issue24_jekyll_urls_follow_permalinks(tmp_path: Path, style: str | None, relpath: str, front: str,
                                               expected: str) -> None:
    root = tmp_path / f"jk{next(_SITES)}"
    files = {"_config.yml": f"title: x\n{f'permalink: {style!r}' if style else ''}\n",
             relpath: f"---\ntitle: T\n{front}---\nText of the page.\n"}
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")
    settings = WikiSettings(root=root, layout="jekyll", citation=CitationSettings(base_url=BASE))
    doc = load_document(settings, relpath)
    assert isinstance(doc, WikiDocument)
    url, warning = document_url(url_inputs(doc.meta, settings), public=True, settings=settings.citation,
                                agent_view=True)
    assert warning is None and url == BASE + expected


def test_issue24_collection_documents_follow_the_collections_permalink() -> None:
    assert jekyll_url("_docs/a/b.md", {}, kind="docs", collection_folder="_docs") == "/docs/a/b.html"
    assert jekyll_url("_docs/a/b.md", {}, kind="docs", style="pretty", collection_folder="_docs") == "/docs/a/b/"
    assert jekyll_url("coll/_docs/a/b.md", {}, kind="docs", collection_permalink="/guide/:path/",
                      collection_folder="coll/_docs") == "/guide/a/b/"
