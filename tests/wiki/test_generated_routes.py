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


# -- configured pagination paths and output formats (issue 24) --------------------------------

def _hugo(root: Path, config: str) -> Path:
    (root / "content").mkdir(parents=True, exist_ok=True)
    (root / "hugo.toml").write_text(config, "utf-8")
    return root / "content"


_SEGMENT = st.from_regex(r"[a-z][a-z0-9]{1,8}", fullmatch=True).filter(lambda s: s not in ("page", "tags"))


@hsettings(max_examples=40, deadline=None)
@given(segment=_SEGMENT, section=_SLUG, page=st.integers(2, 999),
       how=st.sampled_from(["[pagination]\n  path = '{}'\n", "paginatePath = '{}'\n",
                            "[languages.de.pagination]\n  path = '{}'\n"]))
def test_issue24_hugo_pagination_path_any_segment(tmp_path_factory: pytest.TempPathFactory, segment: str,
                                                  section: str, page: int, how: str) -> None:
    """Hugo writes list pages' pagination at ``…/<pagination path>/N/`` (``[pagination]
    path``, the older ``paginatePath``, per language too): every such URL is generated,
    below the home page, a section, a locale folder; the bare segment is not."""
    root = _hugo(tmp_path_factory.mktemp("h"), "title = 'x'\n" + how.format(segment))
    for path in (f"/{segment}/{page}/", f"/{section}/{segment}/{page}/", f"/de/{segment}/{page}/",
                 f"/{section}/{segment}/{page}/index.html", f"/page/{page}/"):
        assert generated_route("hugo", path, root=root, locales=("de",)) is not None, path
    assert generated_route("hugo", f"/{section}/{segment}/", root=root) is None


HUGO_OUTPUTS = ("title = 'x'\n[outputs]\n  home = ['HTML', 'RSS', 'SearchIndex']\n  section = ['HTML', 'JSON', 'AMP']\n"
                "[outputFormats.SearchIndex]\n  baseName = 'search'\n  mediaType = 'application/json'\n"
                "[outputFormats.Print]\n  baseName = 'print'\n  mediaType = 'text/html'\n"
                "[outputFormats.Data]\n  baseName = 'data'\n  mediaType = 'application/x-custom'\n")


@pytest.mark.parametrize(("path", "generated"), [
    ("/index.xml", True),           # RSS
    ("/blog/index.json", True),     # JSON for sections
    ("/search.json", True),         # a custom format's baseName and its media type's suffix
    ("/blog/print.html", True),     # an HTML format under its own baseName
    ("/data.anything", True),       # a media type of unknown suffix: any suffix
    ("/amp/blog/x/", True),         # AMP's path, named in outputs
    ("/blog/x/", False),
    ("/search/", False),
    ("/blog/index.html", False),    # the page itself
])
def test_issue24_hugo_output_formats(tmp_path: Path, path: str, generated: bool) -> None:
    root = _hugo(tmp_path, HUGO_OUTPUTS)
    assert (generated_route("hugo", path, root=root) is not None) is generated


def test_issue24_hugo_output_formats_in_config_folder(tmp_path: Path) -> None:
    """``config/_default/outputFormats.toml`` (``pagination.toml``, ``taxonomies.toml``)
    holds the key its name says."""
    root = _hugo(tmp_path, "title = 'x'\n")
    (tmp_path / "config" / "_default").mkdir(parents=True)
    (tmp_path / "config" / "_default" / "outputFormats.toml").write_text(
        "[feed]\n  baseName = 'feed'\n  mediaType = 'application/rss+xml'\n", "utf-8")
    (tmp_path / "config" / "_default" / "pagination.toml").write_text("path = 'seite'\n", "utf-8")
    (tmp_path / "config" / "_default" / "taxonomies.toml").write_text("topic = 'topics'\n", "utf-8")
    assert generated_route("hugo", "/feed.xml", root=root) is not None
    assert generated_route("hugo", "/blog/seite/2/", root=root) is not None
    assert generated_route("hugo", "/topics/billing/", root=root) is not None


@hsettings(max_examples=40, deadline=None)
@given(prefix=_SLUG, word=_SEGMENT, page=st.integers(2, 999), name=_SLUG)
def test_issue24_jekyll_paginate_path_and_v2_permalink(tmp_path_factory: pytest.TempPathFactory, prefix: str,
                                                       word: str, page: int, name: str) -> None:
    """jekyll-paginate's ``paginate_path`` (from the site root) and jekyll-paginate-v2's
    ``permalink`` (below any paginated page) and ``autopages`` permalinks: every page
    they write is generated; the same words elsewhere are not."""
    root = _jekyll(tmp_path_factory.mktemp("j"), (
        f"paginate_path: /{prefix}/{word}:num/\npagination:\n  enabled: true\n  permalink: /{word}-:num/\n"
        f"autopages:\n  enabled: true\n  tags:\n    permalink: /{word}/:tag\n"))
    for path in (f"/{prefix}/{word}{page}/", f"/{word}-{page}/", f"/{name}/{word}-{page}/", f"/{word}/{name}/",
                 f"/{word}/{name}/{word}-{page}/", f"/category/{name}/"):
        assert generated_route("jekyll", path, root=root) is not None, path
    for path in (f"/{prefix}/{name}/", f"/{name}/{word}/"):
        if path.strip("/") not in (f"{word}/{name}", f"{prefix}/{word}") and name not in ("tag", "category"):
            assert generated_route("jekyll", path, root=root) is None, path


def test_issue24_jekyll_v2_default_permalink(tmp_path: Path) -> None:
    root = _jekyll(tmp_path, "pagination:\n  enabled: true\n")
    assert generated_route("jekyll", "/blog/page/2/", root=root) is not None
    assert generated_route("jekyll", "/blog/page/", root=root) is None


@pytest.mark.parametrize(("path", "generated"), [
    ("/news/seite/2/", True),
    ("/news/category/billing/seite/3/", True),
    ("/news/page/2/", False),   # the default format is not used here
    ("/news/seite/", False),
])
def test_issue24_material_blog_custom_pagination_url_format(tmp_path: Path, path: str, generated: bool) -> None:
    """Material's blog ``pagination_url_format`` names the index's and the lists' pages."""
    root = _mkdocs(tmp_path, "site_name: x\nplugins:\n  - blog:\n      blog_dir: news\n"
                             "      pagination_url_format: 'seite/{page}'\n")
    assert (generated_route("mkdocs", path, root=root) is not None) is generated


# -- Jekyll's paginators write what they write: letter case and form as configured (issue 24) --

PAGINATE = "paginate: 5\npaginate_path: /news/p:num/\n"


@pytest.mark.parametrize(("config", "path", "generated"), [
    (PAGINATE, "/news/p2/", True),
    (PAGINATE, "/news/p12/index.html", True),
    (PAGINATE, "/news/p2", True),              # a bare path is the folder's page to a server
    (PAGINATE, "/news/P2/", False),            # another URL: Jekyll's URLs are case-sensitive
    (PAGINATE, "/News/p2/", False),
    (PAGINATE, "/news/p3.html", False),        # jekyll-paginate writes news/p3/index.html only
    (PAGINATE, "/news/p1/", False),            # page 1 is news/index.html itself
    (PAGINATE, "/news/p02/", False),
    (PAGINATE, "/robots.txt", False),          # Jekyll writes none of its own
    (PAGINATE, "/blog/page3/", False),         # not the configured path
    ("paginate_path: /news/p:num/\n", "/news/p2/", True),
    ("title: x\n", "/page2/", False),          # no paginate: jekyll-paginate writes nothing
    ("paginate: 5\n", "/page2/", True),        # its default paginate_path /page:num
    ("pagination:\n  enabled: true\n  permalink: /page-:num.html\n", "/blog/page-2.html", True),
    ("pagination:\n  enabled: true\n  permalink: /page-:num.html\n", "/blog/page-2/", False),
    ("pagination:\n  enabled: true\n  permalink: /Seite/:num/\n", "/blog/Seite/2/", True),
    ("pagination:\n  enabled: true\n  permalink: /Seite/:num/\n", "/blog/seite/2/", False),
])
def test_issue24_jekyll_pagination_exact_case_and_form(tmp_path: Path, config: str, path: str,
                                                       generated: bool) -> None:
    root = _jekyll(tmp_path, config)
    assert (generated_route("jekyll", path, root=root) is not None) is generated


@hsettings(max_examples=40, deadline=None)
@given(prefix=st.from_regex(r"[a-zA-Z][a-zA-Z0-9]{0,8}", fullmatch=True),
       word=st.from_regex(r"[a-zA-Z]{1,6}", fullmatch=True), page=st.integers(2, 999), data=st.data())
def test_issue24_jekyll_pagination_other_spellings_are_other_pages(
    tmp_path_factory: pytest.TempPathFactory, prefix: str, word: str, page: int, data: st.DataObject,
) -> None:
    """Class: jekyll-paginate writes ``<paginate_path with N>/index.html`` exactly; the same
    path in another letter case, or as ``….html``, is another page of the site and no
    generated one (issue 24 FP: ``/news/P2/``, ``/news/p3.html`` were withheld)."""
    root = _jekyll(tmp_path_factory.mktemp("j"), f"paginate: 3\npaginate_path: /{prefix}/{word}:num/\n")
    exact = f"/{prefix}/{word}{page}/"
    assert generated_route("jekyll", exact, root=root) is not None
    flips = data.draw(st.lists(st.integers(0, len(exact) - 1), min_size=1, max_size=4))
    other = "".join(c.swapcase() if i in flips else c for i, c in enumerate(exact))
    if other != exact:
        assert generated_route("jekyll", other, root=root) is None, other
    assert generated_route("jekyll", exact.rstrip("/") + ".html", root=root) is None
