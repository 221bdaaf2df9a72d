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
    page_form,
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


# -- L1: a file and a folder of one name are two pages (page_form) ----------------------------

def _sitemap(*urls: str) -> Sitemap:
    forms: dict[str, frozenset[str]] = {}
    for url in urls:
        forms[site_key(url)] = forms.get(site_key(url), frozenset()) | {page_form(url)}
    return Sitemap(("t",), {site_key(u): u for u in reversed(urls)}, forms=forms)


@pytest.mark.parametrize(("cited", "listed"), [
    ("https://ex.com/a.html", "https://ex.com/a/"),                 # Jekyll a.md vs a/index.md (s1)
    ("https://ex.com/a.html", "https://ex.com/a/index.html"),
    ("https://ex.com/a.html", "https://ex.com/a"),                  # bare: proves no file
    ("https://ex.com/a.htm", "https://ex.com/a/"),
    ("https://ex.com/a/", "https://ex.com/a.html"),                 # and the other way
    ("https://ex.com/a/index.html", "https://ex.com/a.html"),
    ("https://ex.com/a", "https://ex.com/a.html"),
    ("http://ex.com/a.html", "https://ex.com/a/"),                  # with each forgiven difference
    ("https://EX.COM/a.html", "https://ex.com/a/"),
    ("https://ex.com:443/a.HTML", "https://ex.com/a/"),
    ("https://ex.com/caf%c3%a9.html", "https://ex.com/café/"),
    ("https://ex.com/a.html#top", "https://ex.com/a/#top"),
    ("https://ex.com/A.html", "https://ex.com/a.html"),             # and each kept one
    ("https://ex.com/a.html", "https://other.com/a.html"),
    ("https://ex.com/a.html?v=1", "https://ex.com/a.html"),
    ("https://ex.com/a.html", "https://ex.com/a.htm"),              # and two files of one stem
    ("https://ex.com/a.html", "https://ex.com/a.HTML"),
    ("https://ex.com/a.html", "https://ex.com/a.html?v=1"),
])
def test_a_file_url_and_a_folder_url_are_two_pages(cited: str, listed: str) -> None:
    assert not _sitemap(listed).publishes(cited)
    assert cited not in _sitemap(listed)


@pytest.mark.parametrize(("cited", "listed"), [
    ("https://ex.com/a/", "https://ex.com/a"),                      # balance: one folder's spellings
    ("https://ex.com/a/", "https://ex.com/a/index.html"),
    ("https://ex.com/a/index.htm", "http://EX.com/a"),
    ("https://ex.com/a.html", "http://ex.com/a.html#x"),            # one file's spellings
    ("https://ex.com/caf%c3%a9.html", "https://ex.com/café.html"),
    ("https://ex.com/a.htm", "https://ex.com:443/a.htm"),
    ("https://ex.com/", "https://ex.com/index.html"),
])
def test_one_page_spelled_two_ways_is_published(cited: str, listed: str) -> None:
    assert _sitemap(listed).publishes(cited)


def test_a_sitemap_listing_file_and_folder_publishes_both() -> None:
    both = _sitemap("https://ex.com/a/", "https://ex.com/a.html")
    assert both.publishes("https://ex.com/a.html") and both.publishes("https://ex.com/a/index.html")
    kept = Sitemap.from_json(both.to_json())
    assert kept.publishes("https://ex.com/a.html") and kept.publishes("https://ex.com/a/")
    assert kept.digest() == both.digest() != _sitemap("https://ex.com/a/").digest()


_FILE_SUFFIX = st.sampled_from([".html", ".htm", ".HTML"])
_FOLDER_END = st.sampled_from(["/", "", "/index.html", "/index.htm", "/INDEX.HTML"])
_SPELLING = st.tuples(st.sampled_from(["https://ex.com", "http://ex.com", "https://EX.COM", "https://ex.com:443"]),
                      st.booleans(), st.sampled_from(["", "#top"]))


def _spell(segments: list[str], end: str, spelling: tuple[str, bool, str]) -> str:
    origin, encode, fragment = spelling
    path = "/".join(quote(s, safe="") if encode else s for s in segments)
    return f"{origin}/{path}{end}{fragment}"


@given(SEGMENTS, _FILE_SUFFIX, _FOLDER_END, _SPELLING, _SPELLING)
def test_a_file_is_never_proven_by_its_folder_nor_the_folder_by_the_file(
    segments: list[str], suffix: str, end: str, one: tuple[str, bool, str], other: tuple[str, bool, str],
) -> None:
    """Issue 24 L1, as a class: ``x.html`` and ``x/`` (in every spelling the key forgives:
    scheme, host case, default port, escapes, fragment, ``index.html``, bare) never prove
    each other; each proves its own spellings (the balance)."""
    file_url, folder_url = _spell(segments, suffix, one), _spell(segments, end, other)
    assert site_key(file_url) == site_key(folder_url)  # one key: only the form tells them apart
    assert not _sitemap(folder_url).publishes(file_url)
    assert not _sitemap(file_url).publishes(folder_url)
    assert _sitemap(_spell(segments, suffix, other)).publishes(file_url)
    assert _sitemap(_spell(segments, "/", one)).publishes(folder_url)


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

def test_only_loc_proves_publication_not_hreflang_alternates(tmp_path: Path) -> None:
    """Issue 24 L6: a URL named only by an ``<xhtml:link rel="alternate">`` (hreflang,
    x-default), never by a ``<loc>``, is not published: the alternate is a link from a
    published page, not a page the site lists."""
    alternates = ('<xhtml:link rel="alternate" hreflang="de" href="https://ex.com/de/a/"/>'
                  '<xhtml:link rel="alternate" hreflang="fr" href="/fr/a/"/>'
                  '<xhtml:link rel="alternate" hreflang="x-default" href="https://ex.com/secret/"/>'
                  '<xhtml:link rel="canonical" href="https://ex.com/not-an-alternate/"/>')
    path = tmp_path / "sitemap.xml"
    path.write_text(urlset("https://ex.com/a/", extra="<lastmod>2026-01-02</lastmod>" + alternates), "utf-8")
    found = load_sitemap(str(path))
    assert "https://ex.com/a/" in found
    for unlisted in ("https://ex.com/de/a/", "https://ex.com/fr/a/", "https://ex.com/secret/",
                     "https://ex.com/not-an-alternate/"):
        assert unlisted not in found, unlisted
    assert found.lastmod[site_key("https://ex.com/a/")] == "2026-01-02"
    assert len(found) == 1


def test_an_alternate_with_its_own_loc_is_published(tmp_path: Path) -> None:
    """Balance for L6: translations as Hugo and mkdocs-static-i18n write them (each its own
    ``<url>``, alternates linking them) are all published."""
    link = ('<xhtml:link rel="alternate" hreflang="en" href="https://ex.com/a/"/>'
            '<xhtml:link rel="alternate" hreflang="de" href="https://ex.com/de/a/"/>')
    path = tmp_path / "sitemap.xml"
    path.write_text(urlset("https://ex.com/a/", "https://ex.com/de/a/", extra=link), "utf-8")
    found = load_sitemap(str(path))
    assert "https://ex.com/a/" in found and "https://ex.com/de/a/" in found and len(found) == 2


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
    with pytest.raises(SitemapRefused, match="lists itself"):
        load_sitemap(str(tmp_path / "sitemap.xml"), limits=SitemapLimits(max_depth=3, max_files=100))
    for n in range(5):  # a chain of five distinct indexes: too deep, and no loop
        (tmp_path / f"i{n}.xml").write_text(index(f"https://ex.com/i{n + 1}.xml"))
    (tmp_path / "i5.xml").write_text(urlset("https://ex.com/a/"))
    with pytest.raises(SitemapRefused, match="nested deeper than 3 levels"):
        load_sitemap(str(tmp_path / "i0.xml"), limits=SitemapLimits(max_depth=3))
    (tmp_path / "wide.xml").write_text(index(*["https://ex.com/a.xml"] * 5))
    (tmp_path / "a.xml").write_text(urlset("https://ex.com/a/"))
    with pytest.raises(SitemapRefused, match="more than 3 sitemap files"):
        load_sitemap(str(tmp_path / "wide.xml"), limits=SitemapLimits(max_files=3))


@pytest.mark.parametrize("spelling", [
    "https://ex.com/sitemap.xml", "/sitemap.xml", "sitemap.xml", "https://EX.com/sitemap.xml#x",
    "https://ex.com/./sitemap.xml",
])
def test_an_index_listing_itself_is_a_loop(tmp_path: Path, spelling: str) -> None:
    """Issue 24: an index that lists itself (any spelling of its own URL) is reported as
    the loop it is, not as nesting too deep, even with room for many levels."""
    (tmp_path / "sitemap.xml").write_text(index(spelling))
    with pytest.raises(SitemapRefused, match="lists itself") as caught:
        load_sitemap(str(tmp_path / "sitemap.xml"), limits=SitemapLimits(max_depth=50))
    assert "deeper" not in str(caught.value)


def test_a_cycle_of_indexes_is_named(tmp_path: Path) -> None:
    (tmp_path / "sitemap.xml").write_text(index("https://ex.com/b.xml"))
    (tmp_path / "b.xml").write_text(index("https://ex.com/c.xml"))
    (tmp_path / "c.xml").write_text(index("https://ex.com/b.xml"))
    with pytest.raises(SitemapRefused, match=r"form a cycle \(.*b\.xml → .*c\.xml → .*b\.xml\)") as caught:
        load_sitemap(str(tmp_path / "sitemap.xml"), limits=SitemapLimits(max_depth=50))
    assert "deeper" not in str(caught.value)


def test_two_indexes_sharing_a_child_are_no_loop(tmp_path: Path) -> None:
    """Balance: a child listed twice (a diamond, not a cycle) is read, not refused."""
    (tmp_path / "sitemap.xml").write_text(index("https://ex.com/b.xml", "https://ex.com/c.xml"))
    (tmp_path / "b.xml").write_text(index("https://ex.com/leaf.xml"))
    (tmp_path / "c.xml").write_text(index("https://ex.com/leaf.xml"))
    (tmp_path / "leaf.xml").write_text(urlset("https://ex.com/a/"))
    assert "https://ex.com/a/" in load_sitemap(str(tmp_path / "sitemap.xml"))


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
    (f"<urlset {NS}><url><loc>https://ex.com/a/</loc>", "not well-formed"),
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


# -- issue 24: every redirect hop, and no way into the provider's own network -------------

def test_issue24_every_redirect_hop_must_be_https(site: StaticSite) -> None:
    """Issue 24 L4: the last URL being https is not enough: a hop to plain http on a
    public host is refused before it is requested (https → http → https passed before)."""
    site.pages = {"/final.xml": urlset("https://ex.com/a/").encode()}
    site.redirects = {"/start.xml": "http://example.com/hop", "/local-hop.xml": "/final.xml"}
    with pytest.raises(SitemapRefused, match=r"http://example.com/hop is not https"):
        load_sitemap(f"{site.url}/start.xml")
    assert site.requested == ["/start.xml"]  # the http hop was never requested
    # A redirect within the local test server is followed (http is allowed there).
    assert len(load_sitemap(f"{site.url}/local-hop.xml")) == 1
    site.redirects = {f"/loop{i}.xml": f"/loop{i + 1}.xml" for i in range(12)}
    with pytest.raises(SitemapError, match="more than 10 redirects"):
        load_sitemap(f"{site.url}/loop0.xml")


def _public_localhost(host: str) -> list[str]:
    """DNS as a public site's would answer: ``localhost`` is a public address (the test
    server is reached by it all the same), anything else as the system says."""
    import socket

    if host == "localhost":
        return ["93.184.216.34"]
    return sorted({str(i[4][0]) for i in socket.getaddrinfo(host, None)})


@pytest.mark.parametrize("child", ["http://127.0.0.1:{port}/child.xml", "http://[::1]:{port}/child.xml",
                                   "https://10.1.2.3/child.xml", "https://169.254.169.254/latest/meta-data/",
                                   "https://0.0.0.0/child.xml", "https://[::ffff:127.0.0.1]/child.xml",
                                   "https://192.168.1.1/child.xml", "https://[fe80::1]/child.xml"])
def test_issue24_a_public_index_never_leads_into_inner_addresses(site: StaticSite, child: str) -> None:
    """Issue 24 L4 (SSRF, class): an index fetched from a public host naming a child on a
    loopback, private, link-local or unspecified address (or redirecting there) is refused
    before the child is requested; the same index served from the local test server (the
    configured source is itself inner) reads its local children."""
    port = site.url.rsplit(":", 1)[1]
    public = f"http://localhost:{port}"
    site.pages = {"/index.xml": index(child.format(port=port)).encode(),
                  "/child.xml": urlset("https://ex.com/a/").encode()}
    with pytest.raises(SitemapRefused, match="loopback, private or link-local"):
        load_sitemap(f"{public}/index.xml", resolve=_public_localhost)
    assert site.requested == ["/index.xml"]
    site.redirects = {"/via.xml": child.format(port=port)}
    site.pages["/index2.xml"] = index(f"{public}/via.xml").encode()
    with pytest.raises(SitemapRefused, match="loopback, private or link-local"):
        load_sitemap(f"{public}/index2.xml", resolve=_public_localhost)
    # Operator's own local server: its local children are read.
    site.pages["/local.xml"] = index(f"{site.url}/child.xml").encode()
    assert len(load_sitemap(f"{site.url}/local.xml")) == 1


def test_issue24_inner_addresses_are_every_non_global_one() -> None:
    from provider.wiki.sitemap import _inner_address

    for inner in ("127.0.0.1", "10.0.0.1", "172.16.5.4", "192.168.0.1", "169.254.169.254", "0.0.0.0", "::1",  # noqa: S104
                  "::", "fe80::1", "fc00::1", "::ffff:10.0.0.1", "100.64.0.1", "224.0.0.1", "fe80::1%eth0"):
        assert _inner_address(inner), inner
    for outer in ("93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"):
        assert not _inner_address(outer), outer


# -- issue 24: caps per file, configurable, and the last good sitemap holds ----------------

@pytest.mark.parametrize("cap", [1, 3, 50])
def test_issue24_urls_per_file_are_capped_as_the_protocol_says(tmp_path: Path, cap: int) -> None:
    """Issue 24 L5: one file listing more than ``max_urls_per_file`` (50,000 by default,
    the sitemap protocol's limit) is refused, at the first URL too many: what follows is
    never parsed (here: not even well-formed)."""
    path = tmp_path / "sitemap.xml"
    head = urlset(*[f"https://ex.com/{n}/" for n in range(cap + 1)]).removesuffix("</urlset>\n")
    path.write_text(head + "<url><loc>https://ex.com/broken</url>")  # broken after the cap
    with pytest.raises(SitemapRefused, match=f"more than {cap} URLs in one file"):
        load_sitemap(str(path), limits=SitemapLimits(max_urls_per_file=cap))
    path.write_text(urlset(*[f"https://ex.com/{n}/" for n in range(cap)]))
    assert len(load_sitemap(str(path), limits=SitemapLimits(max_urls_per_file=cap))) == cap
    assert SitemapLimits().max_urls_per_file == 50_000 and SitemapLimits().max_bytes == 50 * 1024 * 1024


def test_issue24_caps_come_from_the_configuration_and_the_last_good_sitemap_holds(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    from provider.config import load_config
    from provider.wiki.site_gate import SiteSource

    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(urlset("https://ex.com/a/", "https://ex.com/b/"))
    (tmp_path / "content").mkdir()
    config = tmp_path / "kp.yaml"
    config.write_text("sitemap: sitemap.xml\nsitemap_max_urls: 2\nsitemap_max_mib: 1\n")
    settings = load_config(config).wiki_settings()
    assert (settings.sitemap_limits.max_urls_per_file, settings.sitemap_limits.max_bytes) == (2, 1024 * 1024)
    source = SiteSource(settings.sitemap, state_file=None, limits=settings.sitemap_limits)
    assert source.refresh() and len(source.current or ()) == 2
    sitemap.write_text(urlset("https://ex.com/a/", "https://ex.com/b/", "https://ex.com/c/"))
    assert source.refresh() is False
    assert len(source.current or ()) == 2 and "more than 2 URLs in one file" in (source.last_error or "")
    assert "the last good one" in caplog.text
    sitemap.write_bytes(gzip.compress(urlset("https://ex.com/a/").encode() + b" " * (2 * 1024 * 1024)))
    assert source.refresh() is False and "once decompressed" in (source.last_error or "")


# -- issue 24, the attacker's E12/E17: what is not the page or not a sitemap ---------------

@given(user=st.text("abcxyz09:%", max_size=6), port=st.sampled_from(["", ":443", ":8443"]),
       path=st.sampled_from(["/", "/docs/staff/", "/a/b.html"]))
def test_a_url_with_userinfo_is_no_page(user: str, port: str, path: str) -> None:
    """``https://x@host/p`` is not the page ``https://host/p`` (whatever answers it is not
    taken for the site's page): its key is one no page has."""
    url = f"https://{user}@docs.example.com{port}{path}"
    assert site_key(url).startswith("invalid:")
    assert site_key(url) != site_key(f"https://docs.example.com{path}")


@pytest.mark.parametrize(("url", "same"), [
    ("http://docs.example.com/a/", "https://docs.example.com/a/"),
    ("https://docs.example.com/x/../a/", "https://docs.example.com/a/"),
    ("https://docs.example.com/%73taff/", "https://docs.example.com/staff/"),
    ("https://DOCS.example.com:443/a/index.html", "https://docs.example.com/a"),
])
def test_forms_of_one_page_share_a_key_as_documented(url: str, same: str) -> None:
    assert site_key(url) == site_key(same)


@pytest.mark.parametrize("root", [
    '<urlset xmlns="http://example.com/not-sitemaps">', "<urlset>",
    '<urlset xmlns="https://www.sitemaps.org/schemas/sitemap/0.9/">',
    '<sitemapindex xmlns="http://example.com/x">',
])
def test_a_urlset_outside_the_sitemap_namespace_is_refused(tmp_path: Path, root: str) -> None:
    """The protocol requires its namespace: another ``<urlset>`` is some other XML and
    proves nothing published (refused whole: fail closed)."""
    close = "</" + root[1:].split()[0].rstrip(">") + ">"
    path = tmp_path / "sitemap.xml"
    path.write_text(f'<?xml version="1.0"?>\n{root}<url><loc>https://ex.com/a/</loc></url>{close}')
    with pytest.raises(SitemapError, match="namespace"):
        load_sitemap(str(path))


def test_only_entries_in_the_sitemap_namespace_count(tmp_path: Path) -> None:
    """A ``<url>``/``<loc>`` of another vocabulary inside a real sitemap is not an entry."""
    path = tmp_path / "sitemap.xml"
    path.write_text(f'<?xml version="1.0"?>\n<urlset {NS} xmlns:o="urn:other">'
                    "<url><loc>https://ex.com/a/</loc></url><o:url><loc>https://ex.com/staff/</loc></o:url>"
                    "<url><o:loc>https://ex.com/ops/</o:loc></url></urlset>")
    found = load_sitemap(str(path))
    assert "https://ex.com/a/" in found and len(found) == 1
    assert "https://ex.com/staff/" not in found and "https://ex.com/ops/" not in found
