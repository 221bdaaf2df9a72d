"""Proof of publication by the site's sitemap (provider/wiki/site_gate.py, corpus rule 11).

CONTRACT X2: with a sitemap configured, a document reaches ``customer_safe`` only if its
rules say public *and* its citation URL is on the site; X7: a page gone from the sitemap
leaves the public index as soon as the sitemap is read again (the kept decisions follow
a new sitemap exactly as a fresh derivation would). Fail closed: no sitemap ever read →
nothing public; an unreadable sitemap later → the last good one holds.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.citations import CitationSettings
from provider.wiki.classify import INTERNAL, PUBLIC
from provider.wiki.corpus import resolve
from provider.wiki.document import DocumentMeta, WikiSettings
from provider.wiki.incremental import CorpusRules
from provider.wiki.locales import strip_extension
from provider.wiki.site_gate import CONFLATED, NEVER_READ, NO_URL, NOT_ON_SITE, URL_PATTERN, SiteGate, SiteSource
from provider.wiki.sitemap import Sitemap, page_form, site_key
from tests.wiki.test_incremental_rules import LAYOUTS, NOW, RICH_PATHS, Blobs, rich_metas
from tests.wiki.test_sitemap import BOMB, urlset

BASE = "https://help.example.com"
SETTINGS = WikiSettings(root=Path("."), citation=CitationSettings(base_url=BASE))


def meta(relpath: str, audience: str = PUBLIC, **more: object) -> DocumentMeta:
    stem = strip_extension(relpath)
    values: dict[str, object] = {
        "relpath": relpath, "size": 1, "mtime_ns": 0, "revision": "r1", "doc_id": stem, "title": stem,
        "audience": audience, "draft": False, "locale": "en", "translation_group": stem, "site_path": stem,
        "text_hash": relpath,
    }
    values.update(more)
    return DocumentMeta(**values)  # type: ignore[arg-type]


def sitemap_of(*urls: str) -> Sitemap:
    return Sitemap(("test",), {site_key(u): u for u in urls})


def test_x2_only_pages_on_the_site_are_public() -> None:
    docs = {p: meta(p) for p in ("guide/a.md", "guide/b.md", "secret.md")}
    docs["internal.md"] = meta("internal.md", INTERNAL)
    gate = SiteGate(SETTINGS, sitemap_of(f"{BASE}/guide/a", f"{BASE}/internal"))
    found = resolve(docs, default_locale="en", gate=gate)
    assert {p for p, r in found.items() if r.public} == {"guide/a.md"}
    # Withheld from customer_safe only: agents keep them (served, internal).
    assert found["secret.md"].served and found["secret.md"].audience == INTERNAL
    assert found["secret.md"].off_site == NOT_ON_SITE
    assert found["secret.md"].audience_source == f"not on the site (sitemap): {BASE}/secret"
    # A sitemap never makes an internal document public.
    assert found["internal.md"].audience == INTERNAL and found["internal.md"].off_site is None


def test_a_near_url_names_the_pattern_and_the_site() -> None:
    gate = SiteGate(SETTINGS, sitemap_of(f"{BASE}/en/guide/a/"))
    found = resolve({"guide/a.md": meta("guide/a.md")}, default_locale="en", gate=gate)["guide/a.md"]
    assert found.off_site == URL_PATTERN
    assert found.audience_source == (f"not on the site (sitemap): URL pattern produces {BASE}/guide/a, "
                                      f"the site has {BASE}/en/guide/a/")


@pytest.mark.parametrize(("first", "second"), [
    (f"{BASE}/x", f"{BASE}/x/"), (f"{BASE}/x/", f"{BASE}/x/index.html"), (f"{BASE}/caf%C3%A9/", f"{BASE}/café/"),
    (f"{BASE}/x/", "https://HELP.example.com:443/x/"), (f"{BASE}/x/#a", f"{BASE}/x/#b"),
])
@pytest.mark.parametrize("other_audience", [PUBLIC, INTERNAL])
def test_two_documents_one_page_to_the_comparison_are_both_off_the_site(
    first: str, second: str, other_audience: str,
) -> None:
    """Issue 24 L1: two documents whose URLs differ only in what the site key forgives
    cannot both be the page the sitemap lists: neither is public (``conflated``)."""
    docs = {"one.md": meta("one.md", url=first), "two.md": meta("two.md", other_audience, url=second),
            "other.md": meta("other.md")}
    gate = SiteGate(SETTINGS, sitemap_of(f"{BASE}/x/", f"{BASE}/café/", f"{BASE}/other"))
    found = resolve(docs, default_locale="en", gate=gate)
    assert not found["one.md"].public and found["one.md"].off_site == CONFLATED and found["one.md"].served
    assert "two.md" in found["one.md"].audience_source
    assert not found["two.md"].public
    assert found["other.md"].public  # balance: a page alone under its key passes


def test_no_citation_url_is_not_public() -> None:
    gate = SiteGate(WikiSettings(root=Path(".")), sitemap_of(f"{BASE}/a"))
    found = resolve({"a.md": meta("a.md")}, default_locale="en", gate=gate)["a.md"]
    assert found.off_site == NO_URL and not found.public


def test_front_matter_url_is_what_is_looked_up() -> None:
    gate = SiteGate(SETTINGS, sitemap_of("https://elsewhere.example.org/page"))
    docs = {"a.md": meta("a.md", url="https://elsewhere.example.org/page/"), "b.md": meta("b.md", url="/page")}
    found = resolve(docs, default_locale="en", gate=gate)
    assert found["a.md"].public
    assert not found["b.md"].public  # a site path joins the base: https://help.example.com/page


def test_x2_never_read_means_nothing_is_public() -> None:
    gate = SiteGate(SETTINGS, None, "sitemap /x/sitemap.xml does not exist")
    found = resolve({p: meta(p) for p in ("a.md", "b.md")}, default_locale="en", gate=gate)
    assert not any(r.public for r in found.values())
    assert all(r.off_site == NEVER_READ and r.served for r in found.values())
    assert "does not exist" in found["a.md"].audience_source


def test_translation_groups_are_judged_after_the_gate() -> None:
    """A public translation whose source is not on the site is not grouped with it in the
    public index (the public index sees groups as if internal documents did not exist)."""
    docs = {"a.md": meta("a.md", translation_group="g"),
            "de/a.md": meta("de/a.md", locale="de", translation_group="g", site_path="de/a")}
    gate = SiteGate(SETTINGS, sitemap_of(f"{BASE}/de/a"))
    found = resolve(docs, default_locale="en", gate=gate)
    assert found["de/a.md"].public and not found["a.md"].public
    assert found["de/a.md"].public_group is None and found["de/a.md"].group == "g"


# -- the class: any corpus, any sitemap ----------------------------------------------------

NAMES = ["a.md", "b.md", "guide/c.md", "guide/d.mdx", "de/e.md", "x/index.md", "Caf\u00e9.md", "with space.md"]


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(NAMES), st.tuples(st.sampled_from([PUBLIC, PUBLIC, INTERNAL]),
                                                          st.booleans(), st.sampled_from([None, "/x/", "https://o.org/p"]))),
       st.sets(st.sampled_from([f"{BASE}/{strip_extension(n)}" for n in NAMES]
                               + [f"{BASE}/{strip_extension(n)}/" for n in NAMES]
                               + [f"{BASE}/en/a/", f"{BASE}/x/", "https://o.org/p", f"{BASE}/Caf%C3%A9"])),
       st.booleans())
def test_x2_no_document_off_the_site_is_ever_public(
    chosen: dict[str, tuple[str, bool, str | None]], urls: set[str], read: bool,
) -> None:
    docs = {p: meta(p, audience, draft=draft, url=url) for p, (audience, draft, url) in chosen.items()}
    sitemap = sitemap_of(*urls) if read else None
    gate = SiteGate(SETTINGS, sitemap)
    with_gate = resolve(docs, default_locale="en", gate=gate)
    without = resolve(docs, default_locale="en")
    for relpath, item in with_gate.items():
        url = gate.url(item.meta)
        on_site = sitemap is not None and url is not None and sitemap.publishes(url)
        if item.public:
            assert on_site and site_key(url or "") in sitemap.urls, (relpath, url)  # type: ignore[union-attr]
            assert without[relpath].public  # and the rules alone said public
        elif without[relpath].public:
            assert item.off_site is not None and item.served
            assert not on_site or item.off_site == CONFLATED


@st.composite
def gated_histories(draw: st.DrawFn) -> tuple[object, list[tuple[dt.datetime, dict[str, DocumentMeta | None],
                                                                  frozenset[str] | None]]]:
    """Batches of file changes, each read with a sitemap drawn anew (or none ever read)."""
    layout = draw(st.sampled_from(LAYOUTS))
    every = [f"{BASE}/{strip_extension(p)}" for p in RICH_PATHS]
    batches = []
    for number in range(draw(st.integers(2, 6))):
        size = (4, 14) if number == 0 else (0, 4)
        touched = draw(st.lists(st.sampled_from(RICH_PATHS), min_size=size[0], max_size=size[1], unique=True))
        batch: dict[str, DocumentMeta | None] = {}
        for relpath in touched:
            if draw(st.integers(0, 4)) == 0:
                batch[relpath] = None
            else:
                made = draw(rich_metas(relpath))
                batch[relpath] = dataclasses.replace(made, site_path=strip_extension(relpath))
        urls = draw(st.one_of(st.none(), st.frozensets(st.sampled_from(every))))
        batches.append((NOW + draw(st.sampled_from([0, 2])) * dt.timedelta(days=1), batch, urls))
    return layout, batches


@settings(max_examples=150, deadline=None)
@given(gated_histories(), st.booleans())
def test_x2_x7_incremental_with_a_sitemap_equals_a_fresh_resolve(
    history: tuple[object, list[tuple[dt.datetime, dict[str, DocumentMeta | None], frozenset[str] | None]]],
    git: bool,
) -> None:
    """Whatever files change and however the sitemap changes between batches, the kept
    decisions equal a fresh derivation with that sitemap, and every changed decision is
    reported as touched (so a page gone from the site leaves the public index in that
    batch)."""
    layout, batches = history
    blobs = Blobs() if git else None
    rules = CorpusRules(max_share=1e9)
    failures: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = failures.append  # type: ignore[method-assign]
    logging.getLogger("provider.wiki.incremental").addHandler(handler)
    docs: dict[str, DocumentMeta] = {}
    before: dict[str, object] = {}
    try:
        for number, (when, batch, urls) in enumerate(batches):
            for relpath, item in batch.items():
                if item is None:
                    docs.pop(relpath, None)
                else:
                    docs[relpath] = item
            if blobs is not None:
                blobs.batch = number
            gate = SiteGate(SETTINGS, sitemap_of(*sorted(urls)) if urls is not None else None)
            kept, touched = rules.resolve(docs, default_locale="en", now=when, blobs=blobs, layout=layout,  # type: ignore[arg-type]
                                          changed=set(batch), gate=gate)
            fresh = resolve(dict(docs), default_locale="en", now=when, blobs=blobs, layout=layout,  # type: ignore[arg-type]
                            gate=gate)
            assert {p for p, r in kept.items() if r.public} == {p for p, r in fresh.items() if r.public}
            assert kept == fresh
            moved = {p for p in set(before) | set(kept) if before.get(p) != kept.get(p)}
            assert moved <= touched
            before = dict(kept)
    finally:
        logging.getLogger("provider.wiki.incremental").removeHandler(handler)
    assert not failures, failures[0].exc_info


# -- reading, keeping, re-reading ----------------------------------------------------------

def test_last_good_sitemap_holds_while_unreadable_and_across_restarts(tmp_path: Path,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "site" / "sitemap.xml"
    state = tmp_path / "index" / "state" / "sitemap.json"
    clock = [0.0]
    source = SiteSource((str(path),), state_file=state, refresh_s=60, monotonic=lambda: clock[0])
    # First start without a sitemap: nothing public, a warning saying so.
    assert source.refresh() is False and source.current is None
    assert "nothing is public" in caplog.text
    gate = source.gate(SETTINGS)
    assert gate(meta("a.md")) is not None and gate(meta("a.md")).code == NEVER_READ  # type: ignore[union-attr]
    path.parent.mkdir()
    path.write_text(urlset(f"{BASE}/a/", f"{BASE}/b/"))
    assert source.due()  # the file appeared: read again before the refresh time
    assert source.refresh() is True and len(source.current or ()) == 2
    assert not source.due() and source.refresh() is False  # same URLs: nothing to derive again
    # It becomes a bomb: refused, the last good one holds, a warning names it.
    path.write_text(BOMB)
    os.utime(path, ns=(1, 1))
    assert source.due()
    caplog.clear()
    assert source.refresh() is False
    assert len(source.current or ()) == 2 and "XML entities" in (source.last_error or "")
    assert "the last good one" in caplog.text
    assert source.gate(SETTINGS)(meta("a.md")) is None
    # A restart while it is still unreadable keeps the last good one from the state file.
    again = SiteSource((str(path),), state_file=state, refresh_s=60)
    assert again.load_kept() and again.refresh() is False
    assert again.current is not None and f"{BASE}/b/" in again.current
    # Another configured sitemap does not take this one's kept state.
    other = SiteSource((str(tmp_path / "other.xml"),), state_file=state)
    assert not other.load_kept()
    # The schedule: due again once refresh_s passed.
    path.write_text(urlset(f"{BASE}/a/"))
    source._stamps = {}  # as if the file were not watched (an https sitemap)
    clock[0] = 61
    assert source.due() and source.refresh() is True and len(source.current or ()) == 1


def test_url_cache_follows_each_document_and_forgets_it() -> None:
    """A new sitemap derives everything again with URLs built once per document: a changed
    document (a new DocumentMeta) gets its new URL, a gone one leaves the cache."""
    import gc

    from provider.wiki.site_gate import UrlCache

    cache = UrlCache(SETTINGS)
    first = meta("a.md")
    assert cache.lookup(first) == (f"{BASE}/a", site_key(f"{BASE}/a"))
    moved = dataclasses.replace(first, site_path="b")
    assert cache.lookup(moved)[0] == f"{BASE}/b"
    assert cache.lookup(first)[0] == f"{BASE}/a"
    gate = SiteGate(SETTINGS, sitemap_of(f"{BASE}/b"), urls=cache)
    assert gate(moved) is None and gate(first) is not None
    del first, moved
    gc.collect()
    assert cache._found == {}
    # Another settings object never shares a cache (its URLs differ).
    other = WikiSettings(root=Path("."), citation=CitationSettings(base_url="https://other.example.com"))
    assert SiteGate(other, None, urls=cache).urls is not cache


# -- issue 24: one URL, several documents -------------------------------------------------

POOL = [None, "/x/", "/x", "/x/index.html", "/x.html", "/y/", f"{BASE}/x/", "https://o.org/p"]


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(NAMES), st.tuples(st.sampled_from([PUBLIC, PUBLIC, INTERNAL]), st.booleans(),
                                                          st.sampled_from(POOL)), min_size=1),
       st.sets(st.sampled_from([f"{BASE}/x/", f"{BASE}/x.html", f"{BASE}/y/", "https://o.org/p",
                                *(f"{BASE}/{strip_extension(n)}" for n in NAMES)])))
def test_issue24_no_two_documents_of_one_url_pass_the_gate(
    chosen: dict[str, tuple[str, bool, str | None]], urls: set[str],
) -> None:
    """Issue 24 (class): whatever URLs the documents claim — the same URL, or URLs one page
    to the comparison — a page of the site published for several documents proves none of
    them published: each is withheld from customer_safe, whatever the others' audience
    or withholding, and the finding names the count and the URL."""
    docs = {p: meta(p, audience, draft=draft, url=url) for p, (audience, draft, url) in chosen.items()}
    gate = SiteGate(SETTINGS, sitemap_of(*urls))
    found = resolve(docs, default_locale="en", gate=gate)
    claims: dict[tuple[str, str], set[str]] = {}
    for relpath, item in docs.items():
        url = gate.url(item)
        if url is not None:
            claims.setdefault((site_key(url), page_form(url)), set()).add(relpath)
    for members in claims.values():
        if len(members) > 1:
            for relpath in members:
                assert not found[relpath].public, (relpath, members)
                if found[relpath].off_site == CONFLATED:
                    assert f"{len(members)} documents claim the URL" in (found[relpath].audience_source or "")


def test_issue24_the_same_url_twice_withholds_both() -> None:
    """Issue 24 L1: ``url: /a`` on one file equal to another's URL: the site publishes one
    page at /a, so neither document is proved published; a third page alone passes."""
    docs = {"a.md": meta("a.md"), "claim.md": meta("claim.md", INTERNAL, url="/a"), "b.md": meta("b.md")}
    gate = SiteGate(SETTINGS, sitemap_of(f"{BASE}/a", f"{BASE}/b"))
    found = resolve(docs, default_locale="en", gate=gate)
    assert not found["a.md"].public and found["a.md"].off_site == CONFLATED
    assert found["a.md"].audience_source == (f"not on the site (sitemap): 2 documents claim the URL {BASE}/a "
                                             "(claim.md too); the site publishes one page there, so the sitemap "
                                             "cannot show which")
    assert found["b.md"].public
    # Translations have their own locale URLs: they never share one.
    docs = {"a.md": meta("a.md", translation_group="g"),
            "de/a.md": meta("de/a.md", locale="de", translation_group="g", site_path="de/a")}
    found = resolve(docs, default_locale="en", gate=SiteGate(SETTINGS, sitemap_of(f"{BASE}/a", f"{BASE}/de/a")))
    assert found["a.md"].public and found["de/a.md"].public
