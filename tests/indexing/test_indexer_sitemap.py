"""The indexer with a sitemap (issue 24; CONTRACT X2, X7): the public index holds only
pages on the site; a page gone from the sitemap leaves the public index in the batch that
reads the new sitemap, and the result equals a fresh build with that sitemap."""

from __future__ import annotations

import os
from pathlib import Path

from whoosh import index as whoosh_index

from provider.indexing import Indexer
from provider.search.layout import ALL, PUBLIC, IndexLayout
from provider.wiki.citations import CitationSettings
from provider.wiki.document import WikiSettings
from tests.wiki.test_sitemap import BOMB, urlset

BASE = "https://help.example.com"


def _stored(index: Path) -> dict[str, dict[str, str]]:
    layout = IndexLayout(index)
    name = layout.current_name()
    assert name is not None
    out: dict[str, dict[str, str]] = {}
    for sub in (PUBLIC, ALL):
        with whoosh_index.open_dir(str(layout.build_dir(name) / sub)).searcher() as searcher:
            out[sub] = {f["path"]: f["doc"]["audience"] for f in searcher.all_stored_fields()}
    return out


def _settings(content: Path, sitemap: Path) -> WikiSettings:
    return WikiSettings(root=content, citation=CitationSettings(base_url=BASE), sitemap=(str(sitemap),))


def test_x2_x7_sitemap_changes_reach_the_public_index_in_one_batch(tmp_path: Path) -> None:
    content = tmp_path / "content"
    content.mkdir()
    for name in ("a", "b", "c"):
        (content / f"{name}.md").write_text(f"---\naudience: public\n---\n# {name}\n\nText {name}.\n", "utf-8")
    sitemap = tmp_path / "site" / "sitemap.xml"
    sitemap.parent.mkdir()
    sitemap.write_text(urlset(f"{BASE}/a", f"{BASE}/b"), "utf-8")
    index = tmp_path / "index"
    indexer = Indexer(_settings(content, sitemap), IndexLayout(index))
    indexer.open()
    try:
        indexer.sync()
        assert _stored(index) == {PUBLIC: {"a.md": "public", "b.md": "public"},
                                  ALL: {"a.md": "public", "b.md": "public", "c.md": "internal"}}
        assert (index / "state" / "sitemap.json").is_file()

        sitemap.write_text(urlset(f"{BASE}/a", f"{BASE}/c/"), "utf-8")
        os.utime(sitemap, ns=(10**18, 10**18))  # a distinct mtime, however coarse the filesystem's
        assert indexer.refresh_sitemap() is True
        report = indexer.sync([])  # the batch the watch loop runs after a changed sitemap
        assert report.changed
        assert _stored(index) == {PUBLIC: {"a.md": "public", "c.md": "public"},
                                  ALL: {"a.md": "public", "b.md": "internal", "c.md": "public"}}

        # Unreadable: nothing changes, the last good one holds.
        sitemap.write_text(BOMB, "utf-8")
        os.utime(sitemap, ns=(2 * 10**18, 2 * 10**18))
        assert indexer.refresh_sitemap() is False
        assert not indexer.sync([]).changed
    finally:
        indexer.close()

    # A fresh build with the same (last good) sitemap gives the same indexes.
    fresh_index = tmp_path / "fresh"
    (fresh_index / "state").mkdir(parents=True)
    (fresh_index / "state" / "sitemap.json").write_bytes((index / "state" / "sitemap.json").read_bytes())
    fresh = Indexer(_settings(content, sitemap), IndexLayout(fresh_index))
    fresh.open()
    try:
        fresh.sync()
    finally:
        fresh.close()
    assert _stored(fresh_index) == _stored(index)
