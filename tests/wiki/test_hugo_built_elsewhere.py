"""Issue 24, CONTRACT X2: an unbuilt markdown document claiming a URL Hugo builds from
something else is not proved published by the sitemap. Hugo builds pages from content
files in its other formats (``.html``, ``.org``, ``.adoc``, ``.rst``, ``.pdc``…), from
``_content.gotmpl`` content adapters, the home page and a section's list page when no
``_index`` file is there; a markdown file inside a leaf bundle (a folder with an
``index`` file in any format) is a resource, with no URL of its own."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.audience import AudienceRule
from provider.wiki.check import check_wiki
from provider.wiki.citations import CitationSettings
from provider.wiki.document import WikiSettings
from tests.wiki.test_sitemap import urlset

BASE = "https://docs.example.com"
_SITES = itertools.count()
OK = "content/docs/reset.md"


def _check(tmp_path: Path, files: dict[str, str | None], urls: list[str]) -> dict[str, tuple[str, str]]:
    """``{path: (audience, reasons)}`` of the site with ``files`` (``None``: not there)
    and a sitemap of ``urls``."""
    root = tmp_path / f"s{next(_SITES)}"
    files = {"hugo.toml": "title = 'x'\n", "content/_index.md": "---\ntitle: Home\n---\nWelcome.\n",
             "content/docs/_index.md": "---\ntitle: Docs\n---\nDocs.\n",
             OK: "---\ntitle: Reset\n---\nOpen Settings and press Reset.\n", **files}
    for rel, text in files.items():
        if text is None:
            continue
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")
    sitemap = root / "sitemap.xml"
    sitemap.write_text(urlset(*(BASE + u for u in [*urls, "/", "/docs/", "/docs/reset/"])), "utf-8")
    wiki = WikiSettings(root=root, layout="hugo", locales=("en", "de"), audience_rules=(AudienceRule("**", "public"),),
                        citation=CitationSettings(base_url=BASE), sitemap=(str(sitemap),))
    out = {}
    for entry in check_wiki(wiki).files:
        if entry.resolved is not None:
            out[entry.path] = (entry.resolved.audience if entry.resolved.served else "withheld",
                               " ".join([*entry.reasons, entry.resolved.audience_source or ""]))
    return out


def _claim(url: str) -> str:
    return f"---\ntitle: Claim\nurl: {url}\n---\nNew prices from 2027: 99 euros.\n"


FORMATS = [".html", ".htm", ".org", ".adoc", ".asciidoc", ".ad", ".rst", ".pdc", ".pandoc"]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ext=st.sampled_from(FORMATS), slug=st.text("abcdefgh", min_size=1, max_size=8),
       index=st.booleans(), own_url=st.booleans())
def test_issue24_a_page_hugo_builds_from_another_format_is_not_proof(tmp_path: Path, ext: str, slug: str,
                                                                      index: bool, own_url: bool) -> None:
    source = f"content/pricing/{slug}/index{ext}" if index else f"content/pricing/{slug}{ext}"
    url = f"/pricing/{slug}/"
    files = {"content/pricing/_index.md": "---\ntitle: Pricing\n---\nPrices.\n"}
    if own_url:  # the other file publishes itself elsewhere by its own front matter
        files[source] = "---\nurl: /offers/\n---\n<p>Offers</p>\n"
        url = "/offers/"
    else:
        files[source] = "<p>Prices: 10 euros.</p>\n"
    files["content/docs/claim.md"] = _claim(url)
    found = _check(tmp_path, files, [url, "/pricing/"])
    assert found["content/docs/claim.md"][0] != "public"
    assert found[OK][0] == "public"


@pytest.mark.parametrize(("files", "url"), [
    ({"content/_index.md": None}, "/"),                                   # Hugo generates the home page
    ({}, "/news/"),                                                       # section news/ has no _index
])
def test_issue24_pages_hugo_generates_are_not_proof(tmp_path: Path, files: dict[str, str | None], url: str) -> None:
    site = {"content/news/one.md": "---\ntitle: One\n---\nNews.\n", "content/docs/claim.md": _claim(url)}
    found = _check(tmp_path, {**site, **files}, [url, "/news/one/"])
    assert found["content/docs/claim.md"][0] != "public"
    assert "generates" in found["content/docs/claim.md"][1]
    assert found["content/news/one.md"][0] == "public"


@pytest.mark.parametrize("index", ["index.html", "index.org", "index.de.md", "index.md"])
def test_issue24_a_leaf_bundle_resource_has_no_url(tmp_path: Path, index: str) -> None:
    files = {f"content/trip/{index}": "---\ntitle: Trip\n---\nTrip.\n",
             "content/trip/notes.md": _claim("/pricing/"),
             "content/trip/more/deep.md": "---\ntitle: Deep\n---\nDeep.\n"}
    found = _check(tmp_path, files, ["/pricing/", "/trip/notes/", "/trip/more/deep/"])
    for path in ("content/trip/notes.md", "content/trip/more/deep.md"):
        assert found[path][0] != "public", (path, found[path])
    assert found[OK][0] == "public"


@pytest.mark.parametrize(("adapter", "url", "public"), [
    ("content/docs/_content.gotmpl", "/docs/generated/", False),
    ("content/_content.gotmpl", "/other/c/", False),           # the home section's: any path
    ("content/blog/_content.gotmpl", "/other/c/", True),       # another section
])
def test_issue24_content_adapter_section_is_not_proof(tmp_path: Path, adapter: str, url: str, public: bool) -> None:
    files = {adapter: "{{ $page := dict \"path\" \"generated\" }}{{ .AddPage $page }}\n",
             "content/docs/claimed.md": "---\ntitle: Claimed\n---\nClaimed.\n", "content/other/c.md": _claim(url)}
    found = _check(tmp_path, files, [url, "/docs/claimed/"])
    assert (found["content/other/c.md"][0] == "public") is public


def test_issue24_language_folders_homes_are_their_index_files(tmp_path: Path) -> None:
    """No false positive: with a content folder per language, each language's
    ``_index`` makes its home and sections; only a section without one is generated."""
    files: dict[str, str | None] = {
        "content/_index.md": None, "content/docs/_index.md": None, OK: None,
        "content/en/_index.md": "---\ntitle: Home\n---\nWelcome.\n",
        "content/de/_index.md": "---\ntitle: Start\n---\nWillkommen.\n",
        "content/en/docs/_index.md": "---\ntitle: Docs\n---\nDocs.\n",
        "content/en/docs/reset.md": "---\ntitle: Reset\n---\nPress Reset.\n",
        "content/de/news/claim.md": _claim("/de/news/"),  # de/news/ has no _index: Hugo's list page
    }
    found = _check(tmp_path, files, ["/de/", "/docs/reset/", "/de/news/"])
    for path in ("content/en/_index.md", "content/de/_index.md", "content/en/docs/_index.md",
                 "content/en/docs/reset.md"):
        assert found[path][0] == "public", (path, found[path])
    assert found["content/de/news/claim.md"][0] != "public"
