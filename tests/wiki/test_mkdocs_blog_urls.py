"""Issue 24 / CONTRACT R7: a Material for MkDocs blog post's citation URL is the URL the
blog plugin gives it (``blog/YYYY/MM/DD/slug/`` by default; ``post_url_format``,
``post_url_date_format``, ``post_slugify``, ``post_url_max_categories``, ``blog_dir``),
not its path in the posts folder, so a sitemap lists it."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from provider.wiki.citations import CitationSettings, document_url, url_inputs
from provider.wiki.document import WikiDocument, WikiSettings, load_document

BASE = "https://site.example.org"
_SITES = itertools.count()

# (blog plugin options as YAML flow mapping, post path in docs/, front matter, expected URL path)
CASES = [
    ("{}", "blog/posts/hello.md", "date: 2024-01-31\n", "/blog/2024/01/31/hello-world/"),
    ("{}", "blog/posts/2024/hello.md", "date: 2024-01-31\nslug: my-own\n", "/blog/2024/01/31/my-own/"),
    ("{}", "blog/posts/hello.md", "date:\n  created: 2024-01-31\n", "/blog/2024/01/31/hello-world/"),
    ("{post_url_format: '{categories}/{slug}'}", "blog/posts/hello.md",
     "date: 2024-01-31\ncategories: [Release Notes, Other]\n", "/blog/release-notes/hello-world/"),
    ("{post_url_format: '{date}/{file}', post_url_date_format: yyyy/MM}", "blog/posts/hello.md",
     "date: 2024-01-31\n", "/blog/2024/01/hello/"),
    ("{blog_dir: news, post_url_format: '{slug}'}", "news/posts/hello.md", "date: 2024-01-31\n",
     "/news/hello-world/"),
    ("{blog_dir: ., post_url_format: '{slug}'}", "posts/hello.md", "date: 2024-01-31\n", "/hello-world/"),
    ("{post_slugify_separator: _}", "blog/posts/hello.md", "date: 2024-01-31\n", "/blog/2024/01/31/hello_world/"),
    ("{}", "blog/index.md", "", "/blog/"),  # not a post: its path
    ("{}", "guide/setup.md", "date: 2024-01-31\n", "/guide/setup/"),
]


@pytest.mark.parametrize(("options", "relpath", "front", "expected"), CASES)
def test_issue24_material_blog_post_urls(tmp_path: Path, options: str, relpath: str, front: str,
                                         expected: str) -> None:
    root = tmp_path / f"mk{next(_SITES)}"
    files = {"mkdocs.yml": f"site_name: x\ntheme: {{name: material}}\nplugins:\n  - blog: {options}\n",
             f"docs/{relpath}": f"---\n{front}---\n# Hello, World!\n\nText of the post.\n"}
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")
    settings = WikiSettings(root=root, layout="mkdocs", citation=CitationSettings(base_url=BASE))
    doc = load_document(settings, f"docs/{relpath}")
    assert isinstance(doc, WikiDocument)
    url, warning = document_url(url_inputs(doc.meta, settings), public=True, settings=settings.citation,
                                agent_view=True)
    assert warning is None and url == BASE + expected


def test_issue24_blog_posts_without_directory_urls_end_in_html(tmp_path: Path) -> None:
    root = tmp_path / "mk"
    (root / "docs/blog/posts").mkdir(parents=True)
    (root / "mkdocs.yml").write_text("site_name: x\nuse_directory_urls: false\nplugins: [blog]\n", "utf-8")
    (root / "docs/blog/posts/a.md").write_text("---\ndate: 2024-01-31\ntitle: Fine Day\n---\nText here.\n", "utf-8")
    settings = WikiSettings(root=root, layout="mkdocs", citation=CitationSettings(base_url=BASE))
    doc = load_document(settings, "docs/blog/posts/a.md")
    assert isinstance(doc, WikiDocument)
    url, _ = document_url(url_inputs(doc.meta, settings), public=True, settings=settings.citation, agent_view=True)
    assert url == BASE + "/blog/2024/01/31/fine-day.html"
