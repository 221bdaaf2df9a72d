"""Issue 24: documents that claim a URL of the site another page owns — another
document's (front matter ``url``, a slug) or a page the tool generates (tags, pagination,
search) — are not proved published by the sitemap listing that URL (site_gate)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.audience import AudienceRule
from provider.wiki.check import check_wiki
from provider.wiki.citations import CitationSettings
from provider.wiki.document import WikiSettings
from provider.wiki.generated_pages import generated_route
from tests.wiki.test_sitemap import urlset

BASE = "https://docs.example.com"
_SITES = itertools.count()


def _check(tmp_path: Path, layout: str, files: dict[str, str], *urls: str) -> dict[str, object]:
    root = tmp_path / f"s{next(_SITES)}"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")
    sitemap = root.parent / f"{root.name}-sitemap.xml"
    sitemap.write_text(urlset(*(f"{BASE}{u}" for u in urls)), "utf-8")
    wiki = WikiSettings(root=root, layout=layout, audience_rules=(AudienceRule("**", "public"),),
                        citation=CitationSettings(base_url=BASE), sitemap=(str(sitemap),))
    return {e.path: e.resolved for e in check_wiki(wiki).files}


def _public(found: dict[str, object], relpath: str) -> bool:
    return bool(getattr(found[relpath], "public", False))


def _why(found: dict[str, object], relpath: str) -> str:
    return str(getattr(found[relpath], "audience_source", ""))


def test_issue24_hugo_url_front_matter_equal_to_another_page_withholds_both(tmp_path: Path) -> None:
    found = _check(tmp_path, "hugo", {
        "hugo.toml": "title = 'x'\n",
        "content/docs/reset.md": "---\ntitle: Reset\n---\nOpen Settings and press Reset.\n",
        "content/docs/claim.md": "---\ntitle: Claim\nurl: /docs/reset/\n---\nNew prices from 2027: 99 euros.\n",
        "content/docs/other.md": "---\ntitle: Other\n---\nOpen Settings and press Other.\n",
        # A page Hugo never builds claims a URL too: it still owns a claim (fail closed).
        "content/docs/never.md": "---\ntitle: Never\nurl: /docs/other/\nbuild:\n  render: never\n---\nSecret.\n",
    }, "/docs/reset/", "/docs/other/")
    assert not _public(found, "content/docs/reset.md") and not _public(found, "content/docs/claim.md")
    assert "2 documents claim the URL https://docs.example.com/docs/reset/" in _why(found, "content/docs/reset.md")
    assert not _public(found, "content/docs/other.md")
    assert "2 documents claim the URL" in _why(found, "content/docs/other.md")


def test_issue24_jekyll_ignores_url_front_matter(tmp_path: Path) -> None:
    """Jekyll computes ``page.url`` and ignores a front matter ``url``: the page is at its
    path's URL, so claiming another page's URL by ``url:`` proves nothing."""
    found = _check(tmp_path, "jekyll", {
        "_config.yml": "title: x\n",
        "docs/reset.md": "---\ntitle: Reset\n---\nOpen Settings and press Reset.\n",
        "docs/claim.md": "---\ntitle: Claim\nurl: /docs/reset.html\n---\nNew prices from 2027: 99 euros.\n",
    }, "/docs/reset.html")
    assert _public(found, "docs/reset.md")
    assert not _public(found, "docs/claim.md")
    assert _why(found, "docs/claim.md") == f"not on the site (sitemap): {BASE}/docs/claim.html"


def test_issue24_docusaurus_two_slugs_alike_withhold_both(tmp_path: Path) -> None:
    found = _check(tmp_path, "docusaurus", {
        "docusaurus.config.js": "module.exports = { title: 'x' };\n",
        "docs/reset.md": "---\ntitle: Reset\nslug: /help/reset\n---\nOpen Settings and press Reset.\n",
        "docs/claim.md": "---\ntitle: Claim\nslug: /help/reset\n---\nNew prices from 2027: 99 euros.\n",
        "docs/other.md": "---\ntitle: Other\n---\nOpen Settings and press Other.\n",
    }, "/docs/help/reset", "/docs/other")
    assert not _public(found, "docs/reset.md") and not _public(found, "docs/claim.md")
    assert "2 documents claim the URL" in _why(found, "docs/claim.md")
    assert _public(found, "docs/other.md")


# -- generated pages ------------------------------------------------------------------------

GENERATED = {
    "hugo": ["/tags/", "/tags/billing/", "/categories/", "/page/2/", "/docs/page/3/", "/de/tags/x/", "/index.xml",
             "/docs/index.xml"],
    "docusaurus": ["/tags", "/tags/billing", "/docs/tags", "/docs/tags/x", "/blog", "/blog/page/2", "/blog/tags/x",
                   "/blog/archive", "/blog/authors/ann", "/search", "/ja/search", "/404.html", "/blog/rss.xml"],
    "mkdocs": ["/search/", "/search.html", "/404.html", "/blog/page/2/", "/blog/archive/2024/",
               "/blog/category/news/", "/ja/search/"],
    "jekyll": ["/feed.xml", "/sitemap.xml", "/tag/x/", "/category/y/"],
    "starlight": ["/404"],
}
NOT_GENERATED = {
    "hugo": ["/docs/tags-guide/", "/docs/reset/", "/pages/2/", "/page/", "/docs/tags/"],
    "docusaurus": ["/docs/search-guide", "/docs/reset", "/blogging", "/docs/blog", "/tagsx"],
    "mkdocs": ["/blog/", "/blog/my-post/", "/searching/", "/guide/search/"],
    # Without paginate in _config.yml jekyll-paginate writes no /pageN/; Jekyll no robots.txt.
    "jekyll": ["/docs/reset.html", "/pages/", "/tags.html", "/page2/", "/blog/page3/", "/robots.txt"],
    "starlight": ["/search/", "/tags/"],
}


@given(layout=st.sampled_from(sorted(GENERATED)), data=st.data())
@settings(max_examples=200, deadline=None)
def test_issue24_generated_route_families(layout: str, data: st.DataObject) -> None:
    """Issue 24 (class): every layout's generated route families are recognised under any
    base path, with or without a locale folder, in either letter case (Jekyll's in its own)
    and form
    (``/x/`` or ``/x/index.html``); pages of the same names elsewhere are not."""
    path = data.draw(st.sampled_from(GENERATED[layout]))
    if layout != "jekyll" and data.draw(st.booleans()):  # Jekyll's URLs are case-sensitive
        path = path.upper()
    if path.endswith("/") and data.draw(st.booleans()):
        path += "index.html"
    assert generated_route(layout, path, root=Path("/nonexistent"), locales=("de", "ja")) is not None, path
    other = data.draw(st.sampled_from(NOT_GENERATED[layout]))
    assert generated_route(layout, other, root=Path("/nonexistent"), locales=("de", "ja")) is None, other


@pytest.mark.parametrize(("layout", "files", "claim", "url"), [
    ("hugo", {"hugo.toml": "title = 'x'\n",
              "content/claim.md": "---\ntitle: Claim\nurl: /tags/\n---\nNew prices from 2027: 99 euros.\n"},
     "content/claim.md", "/tags/"),
    ("hugo", {"hugo.toml": "title = 'x'\n[taxonomies]\n  topic = 'topics'\n",
              "content/claim.md": "---\ntitle: Claim\nurl: /topics/billing/\n---\nNew prices: 99 euros.\n"},
     "content/claim.md", "/topics/billing/"),
    ("docusaurus", {"docusaurus.config.js": "module.exports = { title: 'x' };\n",
                    "docs/claim.md": "---\ntitle: Claim\nslug: /tags\n---\nNew prices from 2027: 99 euros.\n"},
     "docs/claim.md", "/docs/tags"),
    ("docusaurus", {"docusaurus.config.js": "module.exports = { title: 'x' };\n",
                    "src/pages/search.md": "---\ntitle: Claim\n---\nNew prices from 2027: 99 euros.\n"},
     "src/pages/search.md", "/search"),
    ("mkdocs", {"mkdocs.yml": "site_name: x\n",
                "docs/search.md": "---\ntitle: Claim\n---\nNew prices from 2027: 99 euros.\n"},
     "docs/search.md", "/search/"),
    ("hugo", {"hugo.toml": "title = 'x'\n[pagination]\n  path = 'seite'\n",
              "content/claim.md": "---\ntitle: Claim\nurl: /docs/seite/2/\n---\nNew prices: 99 euros.\n"},
     "content/claim.md", "/docs/seite/2/"),
    ("hugo", {"hugo.toml": "title = 'x'\n[outputFormats.SearchIndex]\n  baseName = 'search'\n"
                           "  mediaType = 'application/json'\n",
              "content/claim.md": "---\ntitle: Claim\nurl: /search.json\n---\nNew prices: 99 euros.\n"},
     "content/claim.md", "/search.json"),
    ("jekyll", {"_config.yml": "paginate_path: /news/p:num/\n",
                "claim.md": "---\ntitle: Claim\npermalink: /news/p2/\n---\nNew prices: 99 euros.\n"},
     "claim.md", "/news/p2/"),
])
def test_issue24_a_document_at_a_generated_route_is_not_proved_published(
    tmp_path: Path, layout: str, files: dict[str, str], claim: str, url: str,
) -> None:
    ok = {"hugo": ("content/docs/reset.md", "/docs/reset/"), "docusaurus": ("docs/reset.md", "/docs/reset"),
          "mkdocs": ("docs/reset.md", "/reset/"), "jekyll": ("reset.md", "/reset.html")}[layout]
    found = _check(tmp_path, layout, {**files, ok[0]: "---\ntitle: Reset\n---\nOpen Settings and press Reset.\n"},
                   url, ok[1])
    assert not _public(found, claim)
    assert "its URL is a page the site generates (" in _why(found, claim), _why(found, claim)
    assert _public(found, ok[0])


@pytest.mark.parametrize("permalinks", ["[permalinks]\n  posts = '/:slug/'\n",
                                        "[permalinks.page]\n  posts = '/:year/:slug/'\n"])
def test_issue24_hugo_permalinks_give_no_url_to_guess(tmp_path: Path, permalinks: str) -> None:
    """Issue 24: Hugo ``[permalinks]`` build a section's URLs from tokens the provider does
    not evaluate; a guessed URL could be another page's (``/reset/`` below is the root
    page's, and the post's too once Hugo applies ``/:slug/``). The section's pages get no
    URL (``no-url``), other sections keep theirs."""
    found = _check(tmp_path, "hugo", {
        "hugo.toml": "title = 'x'\n" + permalinks,
        "content/posts/reset.md": "---\ntitle: Reset\nslug: reset\ndate: 2024-01-01\n---\nNew prices: 99 euros.\n",
        "content/docs/reset.md": "---\ntitle: Reset\n---\nOpen Settings and press Reset.\n",
    }, "/posts/reset/", "/reset/", "/docs/reset/")
    assert not _public(found, "content/posts/reset.md")
    assert "[permalinks] sets the URLs of section 'posts'" in _why(found, "content/posts/reset.md")
    assert _public(found, "content/docs/reset.md")


def test_issue24_twins_are_one_page_not_two_claims(tmp_path: Path) -> None:
    """Balance (kaia-docs has 59 such pairs): ``a.md`` beside ``a.mdx`` are one page the
    twins rule already judged (one served, the other withheld as the same page), not two
    documents claiming a URL; with a non-public twin the served one stays internal."""
    found = _check(tmp_path, "docusaurus", {
        "docusaurus.config.js": "module.exports = { title: 'x' };\n",
        "docs/reset.md": "---\ntitle: Reset\n---\nOpen Settings and press Reset.\n",
        "docs/reset.mdx": "---\ntitle: Reset\n---\nOpen Settings and press Reset now.\n",
        "docs/plan.md": "---\ntitle: Plan\n---\nOpen Settings and press Plan.\n",
        "docs/plan.mdx": "---\ntitle: Plan\naudience: internal\n---\nNew prices from 2027: 99 euros.\n",
    }, "/docs/reset", "/docs/plan")
    served = "docs/reset.md" if _public(found, "docs/reset.md") else "docs/reset.mdx"
    assert _public(found, served) and "claim the URL" not in _why(found, served)
    assert not _public(found, "docs/plan.md") and not _public(found, "docs/plan.mdx")


def test_issue24_a_hugo_slug_is_the_last_segment_of_the_url(tmp_path: Path) -> None:
    """Issue 24 (false positive from the attack on the merged build): Hugo's front matter
    ``slug`` replaces the last segment of a page's URL (a leaf bundle's folder for its
    index), so ``posts/p6.md`` with ``slug: seite`` is on the site at ``/posts/seite/``
    and public when the sitemap lists that; before, it was cited at ``/posts/p6/`` and
    withheld as not on the site. A slug taking another page's URL withholds both."""
    found = _check(tmp_path, "hugo", {
        "hugo.toml": "title = 'x'\n",
        "content/posts/p6.md": "---\ntitle: P6\nslug: seite\n---\nOpen Settings and press Reset.\n",
        "content/posts/p7/index.md": "---\ntitle: P7\nslug: Bundle-Seite\n---\nNew prices for the spring.\n",
        "content/posts/x.md": "---\ntitle: X\nslug: reset\n---\nPress the red button twice.\n",
        "content/posts/reset.md": "---\ntitle: Reset\n---\nHow to reset a device.\n",
    }, "/posts/seite/", "/posts/bundle-seite/", "/posts/reset/", "/posts/p6/")
    assert _public(found, "content/posts/p6.md") and _public(found, "content/posts/p7/index.md")
    assert not _public(found, "content/posts/x.md") and not _public(found, "content/posts/reset.md")


def test_issue24_jekyll_page_pagination_permalink(tmp_path: Path) -> None:
    """Issue 24: jekyll-paginate-v2 lets a page set its own ``pagination: permalink:``; the
    pages it writes below the paginated page (``/blog/seite-2/``) are generated, and a
    document claiming one is not proved published by the sitemap's ``<loc>`` there.
    Without the site's ``pagination`` key the plugin writes nothing: the same URL passes."""
    page = ("---\nlayout: home\npagination:\n  enabled: true\n  permalink: /seite-:num/\n---\n"
            "{% for post in paginator.posts %}{{ post.title }}{% endfor %}\n")
    files = {"blog/index.html": page,
             "claim.md": "---\ntitle: Claim\npermalink: /blog/seite-2/\n---\nNew prices: 99 euros.\n",
             "reset.md": "---\ntitle: Reset\n---\nOpen Settings and press Reset.\n"}
    found = _check(tmp_path, "jekyll", {"_config.yml": "pagination:\n  enabled: true\n", **files},
                   "/blog/seite-2/", "/reset.html")
    assert not _public(found, "claim.md")
    assert "blog/index.html's front matter sets" in _why(found, "claim.md"), _why(found, "claim.md")
    assert _public(found, "reset.md")
    found = _check(tmp_path, "jekyll", {"_config.yml": "title: x\n", **files}, "/blog/seite-2/", "/reset.html")
    assert _public(found, "claim.md") and _public(found, "reset.md")


def test_issue24_hugo_page_outputs_amp(tmp_path: Path) -> None:
    """Issue 24: a Hugo page's own front matter ``outputs: [html, amp]`` makes Hugo render
    it at ``/amp/<its path>/`` whatever the site's ``outputs`` say; a document claiming a
    URL below ``/amp/`` is not proved published by the sitemap's ``<loc>`` there. Without
    such a page, ``/amp/`` is an ordinary section."""
    files = {"hugo.toml": "title = 'x'\n",
             "content/amp/guide.md": "---\ntitle: Guide\n---\nNew prices from 2027: 99 euros.\n",
             "content/docs/reset.md": "---\ntitle: Reset\n---\nOpen Settings and press Reset.\n"}
    found = _check(tmp_path, "hugo", files, "/amp/guide/", "/docs/reset/")
    assert _public(found, "content/amp/guide.md") and _public(found, "content/docs/reset.md")
    files["content/docs/reset.md"] = "---\ntitle: Reset\noutputs: [HTML, AMP]\n---\nOpen Settings and press Reset.\n"
    found = _check(tmp_path, "hugo", files, "/amp/guide/", "/docs/reset/", "/amp/docs/reset/")
    assert not _public(found, "content/amp/guide.md")
    assert "content/docs/reset.md's front matter outputs names AMP" in _why(found, "content/amp/guide.md")
    assert _public(found, "content/docs/reset.md")
