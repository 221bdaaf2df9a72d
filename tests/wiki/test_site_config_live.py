"""Issue 24: a site configuration that becomes empty or goes missing while the provider
runs (an editor truncating it, or moving it aside, before writing it) never makes a page
more public: its last reading with settings still applies, through the real watcher path
(:class:`provider.watch.LiveIndexer`)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from provider.indexing import Indexer
from provider.search.layout import IndexLayout
from provider.wiki.document import WikiSettings
from tests.wiki.test_sites import _page, _public_now, _write

#: (layout, configuration file, its text with settings, page the settings withhold, a public page)
_SITES = {
    "jekyll": ("_config.yml", "title: x\nexclude: [private/]\n", "private/a.md", "b.md"),
    "mkdocs": ("mkdocs.yml", "site_name: x\nexclude_docs: |\n  private/\n", "docs/private/a.md", "docs/b.md"),
    "hugo": ("hugo.toml", 'title = "x"\nignoreFiles = ["private"]\n', "content/private/a.md", "content/b.md"),
    "mkdocs-meta": ("docs/private/.meta.yml", "published: false\n", "docs/private/a.md", "docs/b.md"),
}


def _has(ids: set[str], tail: str) -> bool:
    return any(i == tail or i.endswith("/" + tail) for i in ids)


@pytest.mark.parametrize("how", ["empty", "comment only", "missing"])
@pytest.mark.parametrize("site_kind", sorted(_SITES))
def test_issue24_a_config_being_rewritten_never_makes_a_page_public(
        tmp_path: Path, site_kind: str, how: str, caplog: pytest.LogCaptureFixture) -> None:
    from provider.watch import LiveIndexer

    name, text, withheld, public = _SITES[site_kind]
    if site_kind == "mkdocs-meta" and how == "missing":
        pytest.skip("not done: a .meta.yml moved aside is known missing only to a process that read it before")
    layout_name = site_kind.split("-")[0]
    site = tmp_path / "site"
    files = {name: text, withheld: _page(), public: _page()}
    if site_kind == "mkdocs-meta":
        files["mkdocs.yml"] = "site_name: x\nplugins: [meta]\n"
    _write(site, files)
    index = IndexLayout(tmp_path / "index")
    with Indexer(WikiSettings(root=site, layout=layout_name), index) as indexer:
        indexer.sync()
        before = _public_now(index)
        assert not _has(before, "private/a") and _has(before, "b")
        live = LiveIndexer(indexer, reconcile_interval_s=0)
        if how == "missing":
            (site / name).unlink()
        else:
            (site / name).write_text("" if how == "empty" else "# being written\n", "utf-8")
        with caplog.at_level(logging.WARNING):
            live.apply([name])
        assert not _has(_public_now(index), "private/a"), f"{name} {how}: {withheld} became public"
        assert any(("being written" if how != "missing" else "last reading") in r.getMessage()
                   for r in caplog.records)
        # The file has settings again: they apply (here: the same ones).
        _write(site, {name: text})
        live.apply([name])
        assert not _has(_public_now(index), "private/a") and _has(_public_now(index), "b")


@pytest.mark.parametrize("name", ["_config.yml", "mkdocs.yml", "hugo.toml"])
def test_issue24_an_empty_config_is_read_as_empty_once_it_is_old(tmp_path: Path, name: str) -> None:
    """An empty file written moments ago is read as being written (every page internal);
    once older than YOUNG_S it is read as empty, and the policy's digest changes, so the
    pages are read again."""
    import os
    import time

    from provider.wiki.sites import load_site_policy
    from provider.wiki.sites.config_files import YOUNG_S

    tool = {"_config.yml": "jekyll", "mkdocs.yml": "mkdocs", "hugo.toml": "hugo"}[name]
    _write(tmp_path, {name: "", "a.md": _page()})
    young = load_site_policy(tmp_path, tool)
    assert young.findings and all("being written" in f.message for f in young.findings)
    past = time.time() - YOUNG_S - 5
    os.utime(tmp_path / name, (past, past))
    old = load_site_policy(tmp_path, tool)
    assert not old.findings and old.digest != young.digest
