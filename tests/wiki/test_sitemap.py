"""Reading a site's sitemap (provider/wiki/sitemap.py; issue 24, CONTRACT X2).

Parsing must accept what docs tools write (index files, per-language sitemaps, gzip,
hreflang alternates) and refuse what is unsafe (entity declarations, external entities,
oversize files) with a clear error, and never half-read a sitemap.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from provider.wiki.sitemap import (
    Sitemap,
    SitemapError,
    SitemapLimits,
    SitemapRefused,
    load_sitemap,
    site_key,
)
from tests.support import StaticSite

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"'


def urlset(*urls: str, extra: str = "") -> str:
    body = "".join(f"<url><loc>{u}</loc>{extra}</url>" for u in urls)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>{body}</urlset>'


def index(*locs: str) -> str:
    body = "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in locs)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex {NS}>{body}</sitemapindex>'


BOMB = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://ex.com/&lol4;</loc></url></urlset>
"""

EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE urlset [ <!ENTITY secret SYSTEM "file:///etc/passwd"> ]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://ex.com/&secret;</loc></url></urlset>
"""


# -- one normalisation ---------------------------------------------------------------------

@pytest.mark.parametrize(("first", "second"), [
    ("https://EX.com/a/", "https://ex.com/a"),                      # host case, trailing slash
    ("https://ex.com/a/index.html", "https://ex.com/a/"),           # directory index
    ("https://ex.com/a.html", "https://ex.com/a/"),                 # Jekyll / ugly URLs
    ("https://ex.com/a.htm", "https://ex.com/a"),
    ("http://ex.com/a/", "https://ex.com/a/"),                      # scheme dropped
    ("https://ex.com:443/a/", "https://ex.com/a/"),                 # default port
    ("https://ex.com/%7euser/", "https://ex.com/~user/"),           # unreserved escapes
    ("https://ex.com/caf%c3%a9/", "https://ex.com/café/"),          # escape case, raw UTF-8
    ("https://ex.com/a/#top", "https://ex.com/a/"),                 # fragment
    ("https://ex.com", "https://ex.com/index.html"),                # the root
])
def test_site_key_equates_the_forms_of_one_page(first: str, second: str) -> None:
    assert site_key(first) == site_key(second)


@pytest.mark.parametrize(("first", "second"), [
    ("https://ex.com/a/", "https://ex.com/A/"),                     # path case is significant
    ("https://ex.com/a/", "https://other.com/a/"),
    ("https://ex.com:8443/a/", "https://ex.com/a/"),
    ("https://ex.com/de/a/", "https://ex.com/a/"),
    ("https://ex.com/a%2Fb/", "https://ex.com/a%20b/"),
    ("https://ex.com/a%2Fb/", "https://ex.com/a/b/"),             # an encoded slash is not a separator
    ("https://ex.com/a/?v=1", "https://ex.com/a/"),
])
def test_site_key_keeps_different_pages_apart(first: str, second: str) -> None:
    assert site_key(first) != site_key(second)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30))
def test_site_key_is_idempotent_on_paths(segment: str) -> None:
    url = "https://ex.com/" + segment
    key = site_key(url)
    assert site_key("https:" + key) == key


#: Path segments as docs tools make them: any letters (accents, CJK), digits, spaces and
#: punctuation, but no "/" or "%" (those are tested above), no "." (a ".html" suffix is
#: one page by design) and no raw white space (a sitemap's <loc> is trimmed, and tools
#: write a space in a URL as %20).
_SEGMENT_CHARS = st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"), blacklist_characters="/%.?#\\")
SEGMENTS = st.lists(st.text(alphabet=_SEGMENT_CHARS,
                            min_size=1, max_size=8), min_size=1, max_size=4)


def _forms(segments: list[str]) -> list[str]:
    """The ways tools and servers write one page's URL."""
    raw = "/".join(segments)
    encoded = "/".join(quote(s, safe="") for s in segments)
    return [f"https://ex.com/{raw}/", f"https://ex.com/{raw}", f"https://EX.COM/{encoded}/index.html",
            "http://ex.com/" + re.sub("%[0-9A-F]{2}", lambda m: m.group().lower(), encoded) + ".html",
            f"https://ex.com:443/{encoded}/"]


@given(SEGMENTS)
def test_site_key_one_page_one_key(segments: list[str]) -> None:
    keys = {site_key(form) for form in _forms(segments)}
    assert len(keys) == 1, keys


@given(SEGMENTS, SEGMENTS)
def test_site_key_never_merges_two_pages(first: list[str], second: list[str]) -> None:
    """The safety direction: a page off the site must not match another page's URL."""
    if first != second:
        assert site_key("https://ex.com/" + "/".join(first) + "/") != site_key("https://ex.com/" + "/".join(second))


# -- what docs tools write -----------------------------------------------------------------

def test_urlset_with_lastmod_and_hreflang_alternates(tmp_path: Path) -> None:
    alternates = ('<xhtml:link rel="alternate" hreflang="de" href="https://ex.com/de/a/"/>'
                  '<xhtml:link rel="alternate" hreflang="fr" href="/fr/a/"/>'
                  '<xhtml:link rel="canonical" href="https://ex.com/not-an-alternate/"/>')
    path = tmp_path / "sitemap.xml"
    path.write_text(urlset("https://ex.com/a/", extra="<lastmod>2026-01-02</lastmod>" + alternates), "utf-8")
    found = load_sitemap(str(path))
    assert "https://ex.com/a/" in found
    assert "https://ex.com/de/a/" in found
    assert "https://ex.com/fr/a/" in found  # relative href, resolved against <loc>
    assert "https://ex.com/not-an-alternate/" not in found
    assert found.lastmod[site_key("https://ex.com/a/")] == "2026-01-02"
    assert len(found) == 3


def test_index_file_with_children_found_beside_it_in_the_build_output(tmp_path: Path) -> None:
    (tmp_path / "de").mkdir()
    (tmp_path / "sitemap.xml").write_text(index("https://ex.com/en/sitemap.xml.gz", "https://ex.com/de/sitemap.xml"))
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "sitemap.xml.gz").write_bytes(gzip.compress(urlset("https://ex.com/en/a/").encode()))
    (tmp_path / "de" / "sitemap.xml").write_text(urlset("https://ex.com/de/a/"))
    found = load_sitemap(str(tmp_path / "sitemap.xml"))
    assert set(found.urls.values()) == {"https://ex.com/en/a/", "https://ex.com/de/a/"}
    assert len(found.files) == 3


def test_gzip_by_magic_bytes_without_the_suffix(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_bytes(gzip.compress(urlset("https://ex.com/a/").encode()))
    assert "https://ex.com/a" in load_sitemap(str(path))


def test_per_language_sitemaps_add_up(tmp_path: Path) -> None:
    (tmp_path / "en.xml").write_text(urlset("https://ex.com/a/"))
    (tmp_path / "fr.xml").write_text(urlset("https://ex.com/fr/a/"))
    found = load_sitemap([str(tmp_path / "en.xml"), str(tmp_path / "fr.xml")])
    assert len(found) == 2


def test_a_child_missing_fails_the_whole_read(tmp_path: Path) -> None:
    (tmp_path / "sitemap.xml").write_text(index("https://ex.com/gone.xml"))
    with pytest.raises(SitemapError, match=r"gone\.xml"):
        load_sitemap(str(tmp_path / "sitemap.xml"))


def test_a_child_leaving_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "sitemap.xml").write_text(index("../../etc/passwd"))
    with pytest.raises(SitemapError, match="leaves the folder"):
        load_sitemap(str(tmp_path / "sitemap.xml"))


def test_index_nesting_and_file_count_are_bounded(tmp_path: Path) -> None:
    (tmp_path / "sitemap.xml").write_text(index("https://ex.com/sitemap.xml"))  # names itself
    with pytest.raises(SitemapRefused):
        load_sitemap(str(tmp_path / "sitemap.xml"), limits=SitemapLimits(max_depth=3, max_files=100))
    (tmp_path / "wide.xml").write_text(index(*["https://ex.com/a.xml"] * 5))
    (tmp_path / "a.xml").write_text(urlset("https://ex.com/a/"))
    with pytest.raises(SitemapRefused, match="more than 3 sitemap files"):
        load_sitemap(str(tmp_path / "wide.xml"), limits=SitemapLimits(max_files=3))


def test_url_count_is_bounded(tmp_path: Path) -> None:
    (tmp_path / "sitemap.xml").write_text(urlset(*[f"https://ex.com/{n}/" for n in range(20)]))
    with pytest.raises(SitemapRefused, match="more than 10 URLs"):
        load_sitemap(str(tmp_path / "sitemap.xml"), limits=SitemapLimits(max_urls=10))


# -- refused as unsafe, or not a sitemap ---------------------------------------------------

def test_an_xml_bomb_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(BOMB)
    with pytest.raises(SitemapRefused, match="declares XML entities"):
        load_sitemap(str(path))


def test_an_external_entity_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(EXTERNAL)
    with pytest.raises(SitemapRefused, match="entit"):
        load_sitemap(str(path))


def test_oversize_files_are_refused_before_and_after_decompression(tmp_path: Path) -> None:
    big = urlset(*[f"https://ex.com/{n}/" for n in range(2000)])
    path = tmp_path / "sitemap.xml"
    path.write_text(big)
    with pytest.raises(SitemapRefused, match="larger than 1000 bytes"):
        load_sitemap(str(path), limits=SitemapLimits(max_bytes=1000))
    # A gzip bomb: small on disk, large once decompressed.
    packed = tmp_path / "packed.xml.gz"
    packed.write_bytes(gzip.compress(big.encode() + b" " * 2_000_000))
    assert packed.stat().st_size < 20_000
    with pytest.raises(SitemapRefused, match="once decompressed"):
        load_sitemap(str(packed), limits=SitemapLimits(max_bytes=1_000_000))


@pytest.mark.parametrize(("text", "message"), [
    ("<html><body>404</body></html>", "not a sitemap"),
    ("<urlset><url><loc>https://ex.com/a/</loc>", "not well-formed"),
    ("", "not well-formed"),
])
def test_not_a_sitemap(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(text)
    with pytest.raises(SitemapError, match=message):
        load_sitemap(str(path))


def test_a_missing_file_names_the_fix(tmp_path: Path) -> None:
    with pytest.raises(SitemapError, match="does not exist"):
        load_sitemap(str(tmp_path / "site" / "sitemap.xml"))


# -- over HTTP -----------------------------------------------------------------------------

@pytest.fixture
def site() -> Iterator[StaticSite]:
    with StaticSite() as served:
        yield served


def test_index_and_children_over_http(site: StaticSite) -> None:
    site.pages = {
        "/sitemap.xml": index(f"{site.url}/en.xml.gz", "/de.xml").encode(),
        "/en.xml.gz": gzip.compress(urlset("https://ex.com/a/").encode()),
        "/de.xml": urlset("https://ex.com/de/a/").encode(),
    }
    found = load_sitemap(f"{site.url}/sitemap.xml")
    assert len(found) == 2 and len(found.files) == 3


def test_http_errors_and_bombs_over_http(site: StaticSite) -> None:
    site.pages = {"/bomb.xml": BOMB.encode()}
    with pytest.raises(SitemapError, match="HTTP 404"):
        load_sitemap(f"{site.url}/missing.xml")
    with pytest.raises(SitemapRefused, match="declares XML entities"):
        load_sitemap(f"{site.url}/bomb.xml")


def test_plain_http_is_refused_except_locally() -> None:
    with pytest.raises(SitemapError, match="only https"):
        load_sitemap("http://example.com/sitemap.xml")


# -- kept across restarts ------------------------------------------------------------------

def test_kept_json_round_trips(tmp_path: Path) -> None:
    (tmp_path / "s.xml").write_text(urlset("https://ex.com/a/", "https://ex.com/é/",
                                           extra="<lastmod>2026-01-01</lastmod>"))
    found = load_sitemap(str(tmp_path / "s.xml"))
    found.save(tmp_path / "state" / "sitemap.json")
    import json

    again = Sitemap.from_json(json.loads((tmp_path / "state" / "sitemap.json").read_text("utf-8")))
    assert again == found and again.digest() == found.digest()


def test_near_finds_the_url_the_pattern_should_have_produced() -> None:
    sitemap = Sitemap(("s",), {site_key(u): u for u in ("https://ex.com/en/guide/a/", "https://ex.com/docs/b/",
                                                          "https://ex.com/c/", "https://ex.com/Mixed/")})
    assert sitemap.near("https://ex.com/guide/a/") == "https://ex.com/en/guide/a/"  # site has a locale prefix
    assert sitemap.near("https://ex.com/b/") == "https://ex.com/docs/b/"            # site keeps docs/
    assert sitemap.near("https://ex.com/de/c/") == "https://ex.com/c/"              # we add a prefix
    assert sitemap.near("https://other.com/c/") == "https://ex.com/c/"              # another host
    assert sitemap.near("https://ex.com/mixed/") == "https://ex.com/Mixed/"         # letter case
    assert sitemap.near("https://ex.com/nothing/like/it/") is None
