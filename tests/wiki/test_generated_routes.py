"""Routes a docs tool generates from its configuration (issue 24, CONTRACT X2): a
markdown document whose URL is one of them is withheld as ``generated`` — the sitemap's
``<loc>`` there proves the generated page, not the document."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from provider.wiki.generated_pages import generated_route

_SLUG = st.from_regex(r"[a-z][a-z0-9-]{0,12}", fullmatch=True)
_YEAR = st.integers(1990, 2099).map(str)
_TWO = st.integers(1, 12).map(lambda n: f"{n:02d}")


def _jekyll(root: Path, config: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "_config.yml").write_text(config, "utf-8")
    return root


def _mkdocs(root: Path, config: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "mkdocs.yml").write_text(config, "utf-8")
    return root


ARCHIVES = "plugins: [jekyll-archives]\njekyll-archives:\n  enabled: [year, month, tags]\n"
CUSTOM = ("plugins: [jekyll-archives]\njekyll-archives:\n  permalinks:\n    year: '/archive/:year/'\n"
          "    tag: '/topics/:name/'\n")


@pytest.mark.parametrize(("config", "path", "generated"), [
    (ARCHIVES, "/2024/", True),
    (ARCHIVES, "/2024/05/", True),
    (ARCHIVES, "/2024/05/31/", True),
    (ARCHIVES, "/categories/x/", False),        # not its default (it is /category/x/)
    (ARCHIVES, "/category/billing/", True),
    (ARCHIVES, "/2024/05/31/hello.html", False),  # a post
    (CUSTOM, "/archive/2024/", True),
    (CUSTOM, "/topics/billing/", True),
    (CUSTOM, "/topics/", False),
    ("title: x\n", "/2024/", False),              # no jekyll-archives: no date pages
    ("plugins: [jekyll-archives]\njekyll-archives: {permalinks: {year: [1]}}\n", "/anything/", True),
])
def test_issue24_jekyll_archives_routes(tmp_path: Path, config: str, path: str, generated: bool) -> None:
    root = _jekyll(tmp_path, config)
    assert (generated_route("jekyll", path, root=root) is not None) is generated


@hsettings(max_examples=40, deadline=None)
@given(year=_YEAR, month=_TWO, day=_TWO, name=_SLUG)
def test_issue24_jekyll_archives_every_date_and_term(tmp_path_factory: pytest.TempPathFactory, year: str,
                                                     month: str, day: str, name: str) -> None:
    root = _jekyll(tmp_path_factory.mktemp("j"), ARCHIVES)
    for path in (f"/{year}/", f"/{year}/{month}/", f"/{year}/{month}/{day}/", f"/tag/{name}/",
                 f"/category/{name}/"):
        assert generated_route("jekyll", path, root=root) is not None, path


BLOG = ("site_name: x\nplugins:\n  - search\n  - blog:\n      blog_dir: news\n"
        "      archive_url_format: 'by-date/{date}'\n      archive_url_date_format: 'yyyy/MM'\n"
        "      categories_url_format: 'topic/{slug}'\n      authors_profiles: true\n")


@pytest.mark.parametrize(("path", "generated"), [
    ("/news/by-date/2024/05/", True),
    ("/news/by-date/2024/05/page/2/", True),
    ("/news/topic/billing/", True),
    ("/news/topic/billing/page/3/", True),
    ("/news/author/ann/", True),
    ("/news/page/2/", True),
    ("/news/", False),                       # the blog's own index.md
    ("/news/2024/05/31/hello/", False),      # a post
    ("/guide/topic/billing/", False),        # not below blog_dir
    ("/ja/news/topic/billing/", True),       # under a locale folder
])
def test_issue24_material_blog_routes_below_blog_dir(tmp_path: Path, path: str, generated: bool) -> None:
    root = _mkdocs(tmp_path, BLOG)
    assert (generated_route("mkdocs", path, root=root, locales=("ja",)) is not None) is generated


@hsettings(max_examples=40, deadline=None)
@given(blog_dir=_SLUG, year=_YEAR, name=_SLUG, page=st.integers(2, 99))
def test_issue24_material_blog_generated_pages_any_blog_dir(tmp_path_factory: pytest.TempPathFactory,
                                                             blog_dir: str, year: str, name: str, page: int) -> None:
    root = _mkdocs(tmp_path_factory.mktemp("m"), f"plugins:\n  - material/blog:\n      blog_dir: {blog_dir}\n")
    for path in (f"/{blog_dir}/archive/{year}/", f"/{blog_dir}/category/{name}/", f"/{blog_dir}/author/{name}/",
                 f"/{blog_dir}/page/{page}/", f"/{blog_dir}/category/{name}/page/{page}/"):
        assert generated_route("mkdocs", path, root=root) is not None, path
    assert generated_route("mkdocs", f"/{blog_dir}/", root=root) is None
