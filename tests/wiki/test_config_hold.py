"""Issue 24: a docs-tool configuration change that makes a page more public waits until the
files have been unchanged for the hold time; one that makes it less public applies at once.

A configuration an editor is writing may parse while half-written (``title: t`` before its
``exclude:`` list): every truncation of a real configuration at a line end, and at sampled
characters, is written while the provider runs, through the real watcher path
(:class:`provider.watch.LiveIndexer`), and no page it withholds may reach the public
(``customer_safe``) index before the hold has passed.
"""

from __future__ import annotations

import dataclasses
import os
import random
import shutil
import time
from pathlib import Path

import pytest

from provider.indexing import Indexer
from provider.search.layout import IndexLayout
from provider.wiki.document import WikiSettings
from provider.wiki.sites.load import set_hold_s
from tests.wiki.test_sites import _page, _public_now, _write

#: layout → (configuration file, its text, the pages it withholds, a public page, other files)
_SITES: dict[str, tuple[str, str, tuple[str, ...], str, dict[str, str]]] = {
    "jekyll": ("_config.yml",
               "title: Docs\ndescription: the product's help\nexclude:\n  - private/\n  - drafts/\n"
               "defaults:\n  - scope:\n      path: \"staff\"\n    values:\n      published: false\n",
               ("private/a.md", "drafts/c.md", "staff/b.md"), "pub.md", {}),
    "mkdocs": ("mkdocs.yml",
               "site_name: Docs\nsite_url: https://example.org/\nexclude_docs: |\n  private/\n  *.draft.md\n"
               "theme:\n  name: material\n",
               ("docs/private/a.md", "docs/c.draft.md"), "docs/b.md", {}),
    "hugo": ("hugo.toml",
             'title = "Docs"\nbaseURL = "https://example.org/"\nignoreFiles = ["private", "\\\\.draft\\\\.md$"]\n'
             "[params]\n  color = 'blue'\n",
             ("content/private/a.md", "content/c.draft.md"), "content/b.md", {}),
    "mkdocs-meta": ("docs/private/.meta.yml", "tags:\n  - staff\npublished: false\nsearch:\n  exclude: true\n",
                    ("docs/private/a.md",), "docs/b.md", {"mkdocs.yml": "site_name: x\nplugins: [meta]\n"}),
}


def _cuts(text: str) -> list[str]:
    """Every prefix of ``text`` ending at a line end or mid-line, plus sampled characters."""
    ends = {i + 1 for i, ch in enumerate(text) if ch == "\n"}
    ends |= set(random.Random(24).sample(range(1, len(text)), 4))
    return [text[:end] for end in sorted(ends) if end < len(text)]


def _age(path: Path, seconds: float = 600.0) -> None:
    past = time.time() - seconds
    os.utime(path, (past, past))


def _has(ids: set[str], relpath: str) -> bool:
    tail = relpath.removeprefix("content/").removeprefix("docs/").rsplit(".", 1)[0].removesuffix(".draft")
    return any(i == tail or i.endswith("/" + tail) for i in ids)


def _site(tmp_path: Path, kind: str, hold_s: float) -> tuple[WikiSettings, IndexLayout]:
    name, text, withheld, public, more = _SITES[kind]
    site = tmp_path / "site"
    files = {name: text, **more, public: _page()}
    files.update({page: _page() for page in withheld})
    _write(site, files)
    for rel in files:
        _age(site / rel)
    return WikiSettings(root=site, layout=kind.split("-")[0], config_hold_s=hold_s), IndexLayout(tmp_path / "index")


def _settle(settings: WikiSettings, index: IndexLayout) -> None:
    """Index the site once with no hold, so this process has a settled reading of its
    configuration: the files were just written, and their inode change time, which no
    author can set back, says so (backdating their modification time no longer settles them)."""
    with Indexer(dataclasses.replace(settings, config_hold_s=0.0), index) as indexer:
        indexer.sync()


@pytest.fixture(autouse=True)
def _hold_reset() -> object:
    yield
    set_hold_s(None)  # the indexer set it for this process: later tests read the environment's


@pytest.mark.parametrize("kind", sorted(_SITES))
def test_issue24_no_half_written_config_publishes_before_the_hold(tmp_path: Path, kind: str) -> None:
    """Class: every truncation of a real configuration (a file being written), written
    while the provider runs, publishes nothing that the whole file withholds."""
    from provider.watch import LiveIndexer

    name, text, withheld, public, _ = _SITES[kind]
    settings, index = _site(tmp_path, kind, hold_s=30.0)
    _settle(settings, index)
    path = settings.root / name
    with Indexer(settings, index) as indexer:
        indexer.sync()
        before = _public_now(index)
        assert _has(before, public) and not any(_has(before, page) for page in withheld)
        live = LiveIndexer(indexer, reconcile_interval_s=0)
        cuts = _cuts(text)
        assert len(cuts) >= 6
        # As an editor writes it, each part seen by a batch of its own.
        for cut in cuts:
            path.write_text(cut, "utf-8")
            live.apply([name])
            now = _public_now(index)
            early = [page for page in withheld if _has(now, page)]
            assert not early, f"{name} written as far as {cut!r}: {early} public before the hold passed"
        path.write_text(text, "utf-8")
        _age(path)
        live.apply([name])
        assert _has(_public_now(index), public)


@pytest.mark.parametrize("kind", ["jekyll", "mkdocs-meta"])
def test_issue24_a_loosening_applies_once_stable_and_a_tightening_at_once(tmp_path: Path, kind: str) -> None:
    """The looser file applies when it has been unchanged for the hold time, by the timer
    (no other file event); a stricter one at once."""
    from provider.watch import LiveIndexer

    name, text, withheld, public, _ = _SITES[kind]
    settings, index = _site(tmp_path, kind, hold_s=1.0)
    _settle(settings, index)
    path = settings.root / name
    looser = "title: Docs\n" if kind == "jekyll" else "template: page.html\n"
    with Indexer(settings, index) as indexer:
        indexer.sync()
        live = LiveIndexer(indexer, reconcile_interval_s=0)
        path.write_text(looser, "utf-8")
        started = time.time()
        live.apply([name])
        if time.time() - started < 0.9:
            assert not any(_has(_public_now(index), page) for page in withheld)
            assert live.apply_held() is None  # not due yet
        while time.time() < started + 1.2:
            time.sleep(0.1)
        assert live.apply_held() is not None
        assert all(_has(_public_now(index), page) for page in withheld)
        # Stricter again: applies in the batch that sees it, with no hold.
        path.write_text(text, "utf-8")
        live.apply([name])
        assert not any(_has(_public_now(index), page) for page in withheld)
        assert _has(_public_now(index), public)


def test_issue24_a_first_reading_of_a_young_config_holds_its_pages_internal(tmp_path: Path) -> None:
    """A process with no earlier reading (a reader process started mid-change, or a start
    right after an edit) cannot tell a loosening: the pages the file governs are internal
    until it has been unchanged for the hold time."""
    settings, index = _site(tmp_path, "jekyll", hold_s=30.0)
    (settings.root / "_config.yml").write_text("title: Docs\n", "utf-8")
    with Indexer(settings, index) as indexer:
        indexer.sync()
        public = _public_now(index)
    assert not public, public


def _backdated_rename(site: Path, name: str, text: str) -> None:
    """``printf … > n; touch -d '2 hours ago' n; mv n <config>``."""
    scratch = site.parent / "n"
    scratch.write_text(text, "utf-8")
    _age(scratch, 7200.0)
    os.replace(scratch, site / name)


def _copy_keeping_mtime(site: Path, name: str, text: str) -> None:
    """``cp -p old <config>`` from an old file elsewhere."""
    old = site.parent / "old.yml"
    old.write_text(text, "utf-8")
    _age(old, 7200.0)
    shutil.copy2(old, site / name)


def _future_mtime(site: Path, name: str, text: str) -> None:
    """``touch -d '+2 hours' <config>`` after writing it."""
    (site / name).write_text(text, "utf-8")
    _age(site / name, -7200.0)


@pytest.mark.parametrize(("kind", "form"), [("jekyll", _backdated_rename), ("mkdocs-meta", _copy_keeping_mtime),
                                             ("jekyll", _future_mtime)],
                         ids=["backdated-rename", "meta-copy-keeping-mtime", "future-mtime"])
def test_issue24_an_authors_file_times_do_not_skip_the_hold(tmp_path: Path, kind: str, form: object) -> None:
    """Issue 24 (attacker): the hold counts from when the file last changed as the kernel
    saw it, not from the modification time its author sets: a looser configuration moved
    or copied into place with an old time, or given a future one, still waits."""
    from provider.watch import LiveIndexer

    name, _, withheld, public, _ = _SITES[kind]
    looser = "title: t\n" if kind == "jekyll" else "template: page.html\n"
    settings, index = _site(tmp_path, kind, hold_s=30.0)
    _settle(settings, index)
    with Indexer(settings, index) as indexer:
        indexer.sync()
        live = LiveIndexer(indexer, reconcile_interval_s=0)
        assert callable(form)
        form(settings.root, name, looser)
        live.apply([name])
        now = _public_now(index)
        assert _has(now, public)
        assert not any(_has(now, page) for page in withheld), now
        assert live.apply_held() is None  # not due within the hold
