"""The live indexer's own logic: event paths, the watch-limit fallback to polling."""

from __future__ import annotations

import errno
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import watchfiles

from provider.search.indexer import Indexer
from provider.search.layout import IndexLayout
from provider.watch import LiveIndexer, poll_requested
from provider.wiki.document import WikiSettings


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
