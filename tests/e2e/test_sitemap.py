"""The site's sitemap as proof of publication, end to end: a real ``serve`` process over
HTTP (issue 24; CONTRACT X2, X3, X7).

A page missing from the sitemap is never returned to ``customer_safe`` (``agent_only``
still gets it); a page removed from the sitemap leaves; a sitemap that becomes
unreadable (an XML bomb, a 404) keeps the last good one, across a restart too; with no
sitemap ever read nothing is public.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, start_provider
from tests.support import ProviderProcess, StaticSite, wait_for
from tests.wiki.test_sitemap import BOMB, urlset

pytestmark = pytest.mark.e2e

BASE = "https://help.example.com"
PAGES = {
    "alpha": "Alpha: how to request a refund for a duplicate charge.",
    "bravo": "Bravo: how a refund reaches your card after a cancelled order.",
    "charlie": "Charlie: refund exceptions the support team grants by hand.",
}


def write_wiki(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in PAGES.items():
        (folder / f"{name}.md").write_text(f"---\ntitle: {name.title()} refunds\naudience: public\n---\n\n{text}\n",
                                           "utf-8")
    return folder


def results(server: ProviderProcess, secret: str) -> dict[str, str]:
    reply = server.retrieve({"query": "refund", "limit": 50}, secret)
    assert reply.status == 200, reply.body
    return {r["documentId"]: r["audience"] for r in reply.json()["results"]}


@pytest.fixture
def site() -> Iterator[StaticSite]:
    with StaticSite() as served:
        yield served


def test_x2_x7_a_page_off_the_site_never_reaches_customer_safe(tmp_path: Path, site: StaticSite) -> None:
    site.pages = {"/sitemap.xml": urlset(f"{BASE}/alpha", f"{BASE}/bravo/").encode()}
    config = {"citation_base_url": BASE, "sitemap": f"{site.url}/sitemap.xml", "sitemap_refresh_s": 1,
              "capabilities": "all"}
    wiki = write_wiki(tmp_path / "wiki")
    server = start_provider(tmp_path / "run", content=wiki, config=config)
    try:
        assert results(server, CUSTOMER_SECRET) == {"alpha": "public", "bravo": "public"}
        # agent_only keeps the page the site does not publish, as internal (X3, X6).
        assert results(server, AGENT_SECRET) == {"alpha": "public", "bravo": "public", "charlie": "internal"}

        # Bravo is taken off the site: it leaves customer_safe at the next read (X7).
        site.pages = {"/sitemap.xml": urlset(f"{BASE}/alpha").encode()}
        wait_for(lambda: "bravo" not in results(server, CUSTOMER_SECRET), "bravo to leave customer_safe")
        # The public index loses it first (withdrawn ahead of the batch); agent_only's
        # label follows with the batch that re-reads it.
        wait_for(lambda: results(server, AGENT_SECRET).get("bravo") == "internal", "bravo labelled internal")

        # The sitemap becomes an XML bomb, then a 404: refused, the last good one holds.
        site.pages = {"/sitemap.xml": BOMB.encode()}
        wait_for(lambda: "declares XML entities" in server.log(), "the bomb to be refused")
        site.pages = {}
        wait_for(lambda: "HTTP 404" in server.log(), "the 404 to be reported")
        assert results(server, CUSTOMER_SECRET) == {"alpha": "public"}
    finally:
        server.stop()

    # A restart while the sitemap is still unreadable keeps the last good one (index/state).
    assert (tmp_path / "run" / "index" / "state" / "sitemap.json").is_file()
    again = start_provider(tmp_path / "run", content=tmp_path / "run" / "content", config=config)
    try:
        assert results(again, CUSTOMER_SECRET) == {"alpha": "public"}
        assert "the last good one" in again.log()
    finally:
        again.stop()


def test_x2_nothing_is_public_until_a_sitemap_is_read(tmp_path: Path) -> None:
    sitemap = tmp_path / "site" / "sitemap.xml"
    config = {"citation_base_url": BASE, "sitemap": str(sitemap), "sitemap_refresh_s": 3600}
    server = start_provider(tmp_path / "run", content=write_wiki(tmp_path / "wiki"), config=config)
    try:
        assert results(server, CUSTOMER_SECRET) == {}
        assert results(server, AGENT_SECRET) == {"alpha": "internal", "bravo": "internal", "charlie": "internal"}
        assert "nothing is public" in server.log()
        # The build output appears: read at once (a changed file, not the hour's schedule).
        sitemap.parent.mkdir()
        tmp = sitemap.with_name(".sitemap.tmp")
        tmp.write_text(urlset(f"{BASE}/charlie/index.html"), "utf-8")
        os.replace(tmp, sitemap)
        wait_for(lambda: results(server, CUSTOMER_SECRET) == {"charlie": "public"}, "charlie to become public")
    finally:
        server.stop()
