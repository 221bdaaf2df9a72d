"""The live indexer's own logic: event paths, the watch-limit fallback to polling."""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import watchfiles

from provider.indexing import Indexer, SyncReport
from provider.logsetup import PROGRESS_INTERVAL_S, ProgressLog
from provider.search.layout import IndexLayout
from provider.watch import SITEMAP_PROGRESS, LiveIndexer, poll_requested
from provider.wiki.citations import CitationSettings
from provider.wiki.document import WikiSettings
from tests.wiki.test_sitemap import urlset


def test_poll_requested_reads_the_environment() -> None:
    assert poll_requested({"KNOWLEDGE_PROVIDER_POLL": "1"})
    assert poll_requested({"KNOWLEDGE_PROVIDER_POLL": "yes"})
    assert not poll_requested({"KNOWLEDGE_PROVIDER_POLL": "0"})
    assert not poll_requested({})


def test_watch_limit_falls_back_to_polling_and_keeps_indexing(tmp_path: Path) -> None:
    """When the OS watch limit is hit, the live indexer warns and switches to polling,
    and changes are still indexed."""
    content = tmp_path / "content"
    content.mkdir()
    (content / "a.md").write_text("---\naudience: public\n---\n# A\n\nAlpha.\n")
    calls: list[bool] = []

    def limited_watch(*paths: str, **kwargs: Any) -> Iterator[set[tuple[watchfiles.Change, str]]]:
        calls.append(bool(kwargs["force_polling"]))
        if not kwargs["force_polling"]:
            raise OSError(errno.ENOSPC, "OS file watch limit reached")
        yield from watchfiles.watch(*paths, **{**kwargs, "poll_delay_ms": 100})

    with Indexer(WikiSettings(root=content), IndexLayout(tmp_path / "index")) as indexer:
        live = LiveIndexer(indexer, watch_fn=limited_watch, reconcile_interval_s=0)
        live.start()
        try:
            assert live.ready.wait(30)
            deadline = time.monotonic() + 20
            while not live.poll or not live.watching.is_set():
                assert time.monotonic() < deadline
                time.sleep(0.05)
            (content / "b.md").write_text("---\naudience: public\n---\n# B\n\nBeta.\n")
            while "b.md" not in (indexer.manifest.docs if indexer.manifest else {}):
                assert time.monotonic() < deadline, "change not indexed after the fallback"
                time.sleep(0.05)
        finally:
            live.stop()
    assert calls[:2] == [False, True]


def test_event_paths_outside_the_root_or_the_root_itself_are_ignored(tmp_path: Path) -> None:
    content = tmp_path / "content"
    content.mkdir()
    with Indexer(WikiSettings(root=content), IndexLayout(tmp_path / "index")) as indexer:
        live = LiveIndexer(indexer)
        root = str(content.resolve())
        assert live._relative(f"{root}/en/a.md") == "en/a.md"
        assert live._relative(root) is None
        assert live._relative(str(tmp_path / "elsewhere.md")) is None


def test_stop_ends_the_thread_promptly(tmp_path: Path) -> None:
    content = tmp_path / "content"
    content.mkdir()
    with Indexer(WikiSettings(root=content), IndexLayout(tmp_path / "index")) as indexer:
        live = LiveIndexer(indexer)
        live.start()
        assert live.ready.wait(30)
        started = time.monotonic()
        live.stop()
        assert time.monotonic() - started < 5
        assert not any(t.name == "live-indexer" and t.is_alive() for t in threading.enumerate())


def _public_ids(index_root: Path) -> set[str]:
    from whoosh import index as whoosh_index

    layout = IndexLayout(index_root)
    name = layout.current_name()
    assert name is not None
    ix = whoosh_index.open_dir(str(layout.build_dir(name) / "public"))
    with ix.searcher() as searcher:
        return {fields["doc"]["id"] for fields in searcher.all_stored_fields()}


def test_a_build_made_aside_catches_up_with_a_reclassification_before_it_is_swapped_in(tmp_path: Path) -> None:
    """serve --rebuild (issue 16): a public → internal edit applied to the served build
    while the new one was being built is not undone by the swap (CONTRACT X2, X7)."""
    content = tmp_path / "content"
    content.mkdir()
    for name in ("a", "b"):
        (content / f"{name}.md").write_text(f"---\naudience: public\n---\n# {name}\n\nText {name}.\n")
    with Indexer(WikiSettings(root=content), IndexLayout(tmp_path / "index")) as indexer:
        indexer.sync()
        old = IndexLayout(tmp_path / "index").current_name()
        pending = indexer.build_aside()  # has read a.md as public
        assert IndexLayout(tmp_path / "index").current_name() == old, "not served before adopt"
        (content / "a.md").write_text("---\naudience: internal\n---\n# a\n\nText a, now internal.\n")
        indexer.sync(["a.md"])  # the served build takes the edit at once
        assert _public_ids(tmp_path / "index") == {"b"}
        report = indexer.adopt(pending)
        assert report.rebuilt and report.build == pending.name != old
        assert IndexLayout(tmp_path / "index").current_name() == pending.name
        assert _public_ids(tmp_path / "index") == {"b"}, "the swap must not bring the internal article back"
        assert report.generation > 1
        # Later batches go to the new build.
        (content / "b.md").write_text("---\naudience: internal\n---\n# b\n\nText b.\n")
        indexer.sync(["b.md"])
        assert _public_ids(tmp_path / "index") == set()


def test_serve_rebuild_is_ready_at_once_and_swaps_in_later(tmp_path: Path) -> None:
    content = tmp_path / "content"
    content.mkdir()
    (content / "a.md").write_text("---\naudience: public\n---\n# A\n\nAlpha.\n")
    with Indexer(WikiSettings(root=content), IndexLayout(tmp_path / "index")) as indexer:
        indexer.sync()
        first = IndexLayout(tmp_path / "index").current_name()
        live = LiveIndexer(indexer, rebuild_first=True, reconcile_interval_s=0)
        live.start()
        try:
            assert live.ready.wait(30)
            assert live.rebuilt.wait(60)
        finally:
            live.stop()
    assert IndexLayout(tmp_path / "index").current_name() not in (None, first)


def test_a_changed_sitemap_prints_progress_lines_until_its_pass_is_done(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 24: the pass after a changed sitemap derives every page's customer_safe
    status again and reads again every page it changes — as long as a build — so it prints
    the build's progress lines (:class:`~provider.logsetup.ProgressLog`, one per interval)
    until it is done, on a real indexer. The clock makes each file read take an interval."""
    base = "https://help.example.com"
    content = tmp_path / "content"
    content.mkdir()
    pages = [f"page-{n:02d}" for n in range(12)]
    for name in pages:
        (content / f"{name}.md").write_text(f"---\naudience: public\n---\n# {name}\n\nText of {name}.\n", "utf-8")
    sitemap = tmp_path / "site" / "sitemap.xml"
    sitemap.parent.mkdir()
    sitemap.write_text(urlset(f"{base}/elsewhere"), "utf-8")  # none of the pages: nothing public
    settings = WikiSettings(root=content, citation=CitationSettings(base_url=base), sitemap=(str(sitemap),))
    ticks = iter(range(0, 10**6, int(PROGRESS_INTERVAL_S) + 1))

    def progress(label: str) -> ProgressLog:
        return ProgressLog(label, logging.getLogger("test.progress"), clock=lambda: float(next(ticks)))

    reports: list[SyncReport] = []
    with Indexer(settings, IndexLayout(tmp_path / "index")) as indexer:
        live = LiveIndexer(indexer, reconcile_interval_s=0, progress=progress, on_report=reports.append)
        live.start()
        try:
            assert live.ready.wait(60)
            assert reports[-1].by_audience == {"internal": len(pages)}
            caplog.set_level(logging.INFO, logger="test.progress")
            sitemap.write_text(urlset(*[f"{base}/{name}" for name in pages]), "utf-8")
            os.utime(sitemap, ns=(10**18, 10**18))  # a distinct mtime, however coarse the filesystem's
            deadline = time.monotonic() + 60
            while not reports or reports[-1].by_audience != {"public": len(pages)}:
                assert time.monotonic() < deadline, "the changed sitemap was not applied"
                time.sleep(0.05)
        finally:
            live.stop()
    lines = [r for r in caplog.records if getattr(r, "phase", None) == SITEMAP_PROGRESS.lower()
             and getattr(r, "step", None) == "reading"]
    # A line per interval: here per file read, from the second (the first starts the
    # clock) to the one before the last (the pass's own summary line ends it).
    assert [r.done for r in lines] == list(range(2, len(pages)))  # type: ignore[attr-defined]
    assert {r.total for r in lines} == {len(pages)}  # type: ignore[attr-defined]
    assert lines[0].getMessage().startswith(f"{SITEMAP_PROGRESS}: 2 of {len(pages)} files read (16%)")


def test_own_index_and_git_writes_inside_the_content_folder_are_no_batch(tmp_path: Path) -> None:
    """``content: .`` (issue 24, watcher churn): the index folder inside the content folder
    and ``.git`` are not watched, so a commit's own writes never start another batch (was:
    about 520 batches a minute, each committing again, after one edit)."""
    (tmp_path / "a.md").write_text("---\naudience: public\n---\n# A\n\nAlpha.\n")
    root = str(tmp_path.resolve())
    seen: dict[str, Any] = {}
    batches: list[list[str]] = []

    def one_batch(*paths: str, **kwargs: Any) -> Iterator[set[tuple[watchfiles.Change, str]]]:
        seen.update(kwargs)
        yield {(watchfiles.Change.modified, f"{root}/index/builds/b1/manifest.json"),
               (watchfiles.Change.added, f"{root}/index/state/ready"),
               (watchfiles.Change.modified, f"{root}/a.md")}
        kwargs["stop_event"].set()

    class Recorded(LiveIndexer):
        def apply(self, paths: Any) -> SyncReport | None:
            batches.append(sorted(paths))
            return super().apply(paths)  # the real batch, recorded on its way

    with Indexer(WikiSettings(root=tmp_path), IndexLayout(tmp_path / "index")) as indexer:
        indexer.sync()
        live = Recorded(indexer, watch_fn=one_batch, reconcile_interval_s=0)
        live._follow()
    assert batches == [["a.md"]]
    keep = seen["watch_filter"]
    assert not keep(watchfiles.Change.modified, f"{root}/index/builds/b1/manifest.json")
    assert not keep(watchfiles.Change.modified, f"{root}/.git/index")
    assert keep(watchfiles.Change.modified, f"{root}/a.md")


def test_issue27_serve_reads_the_sitemap_in_the_indexing_thread_and_fails_closed_until_then(tmp_path: Path) -> None:
    """Issue 27: ``serve`` opens the indexer without reading the sitemap (a 48 MiB one
    took 31–41 s, before the server listened); the live indexer reads it before its
    startup scan, so the first ready index has it, and until then the sitemap gate has
    none: a decision derived meanwhile makes nothing public to customer_safe."""
    base = "https://help.example.com"
    content = tmp_path / "content"
    content.mkdir()
    (content / "a.md").write_text("---\naudience: public\n---\n# A\n\nAlpha text.\n", "utf-8")
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(urlset(f"{base}/a"), "utf-8")
    settings = WikiSettings(root=content, citation=CitationSettings(base_url=base), sitemap=(str(sitemap),))
    indexer = Indexer(settings, IndexLayout(tmp_path / "index"))
    indexer.open(read_sitemap=False)
    try:
        assert indexer.site is not None and indexer.site.current is None  # not read while opening
        # The gate every decision takes: no sitemap, every page "never read", none public.
        assert indexer.site.gate(settings).key == "never-read"
        reports: list[SyncReport] = []
        live = LiveIndexer(indexer, reconcile_interval_s=0, on_report=reports.append)
        live.start()
        try:
            assert live.ready.wait(60)
        finally:
            live.stop()
        assert indexer.site.current is not None and len(indexer.site.current) == 1
        assert reports[0].by_audience == {"public": 1}
    finally:
        indexer.close()
