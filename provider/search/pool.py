"""A fixed number of Whoosh searchers per index and process.

A Whoosh searcher must not be used by two threads at once, and each one holds its own
readers, caches and file mappings (tens of MiB on a 10,000-document index). Keeping one
per thread let a process hold as many as its thread pool ever had threads — anyio's
default pool has 40 — however few searches ran at once. A :class:`SearcherPool` holds at
most ``size`` searchers (the worker's ``search_threads``): a search checks one out for its
duration and gives it back; when all are out, the next search waits for one.

A searcher sees the index generation it was opened on. One that is no longer up to date
(a commit landed) or belongs to another build is closed when it would be handed out, with
every other idle one, and a fresh one opened in its place — never ``Searcher.refresh()``,
which in whoosh-reloaded 2.7.5 keeps a segment's old deletion set (see
:mod:`provider.search.backend`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from whoosh.searching import Searcher

__all__ = ["SearcherPool"]


class SearcherPool:
    """At most ``size`` open searchers of one index (one per concurrent search).

    Args:
        size: the most searchers open at once (≥ 1); a search beyond that many waits.

    Raises:
        ValueError: ``size`` below 1.
    """

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a searcher pool needs at least one searcher, not {size}")
        self.size = size
        self._cond = threading.Condition()
        #: idle searchers, each with the build name it was opened on
        self._idle: list[tuple[str, Searcher]] = []
        #: searchers open: idle ones and those checked out
        self._open = 0

    @property
    def open_searchers(self) -> int:
        """Searchers open now, idle or in use (never more than :attr:`size`)."""
        with self._cond:
            return self._open

    @contextmanager
    def checkout(self, build: str, opener: Callable[[], Searcher]) -> Iterator[Searcher]:
        """A searcher of ``build`` for this thread alone until the block ends: an idle,
        up-to-date one, else a new one from ``opener()``. If the block raises, the
        searcher is closed rather than given back (it may belong to a replaced build)."""
        searcher = self._take(build, opener)
        healthy = False
        try:
            yield searcher
            healthy = True
        finally:
            self._give_back(build, searcher, healthy)

    def clear(self) -> None:
        """Close every idle searcher (those in use are closed when given back stale)."""
        with self._cond:
            idle, self._idle = self._idle, []
            self._open -= len(idle)
            self._cond.notify_all()
        for _, searcher in idle:
            searcher.close()

    def _take(self, build: str, opener: Callable[[], Searcher]) -> Searcher:
        with self._cond:
            while not self._idle and self._open >= self.size:
                self._cond.wait()
            held = self._idle.pop() if self._idle else None
            if held is None:
                self._open += 1  # this thread opens it, outside the lock
        if held is not None:
            name, searcher = held
            # Checked outside the lock: up_to_date() reads the index's table of contents.
            if name == build and searcher.up_to_date():
                return searcher
            searcher.close()  # its slot is reused for the fresh one
            # A commit landed or the build changed: the other idle searchers are as old or
            # older; close them now, so none keeps a merged-away segment's files open.
            self.clear()
        try:
            return opener()
        except BaseException:
            with self._cond:
                self._open -= 1
                self._cond.notify()
            raise

    def _give_back(self, build: str, searcher: Searcher, healthy: bool) -> None:
        if healthy:
            with self._cond:
                self._idle.append((build, searcher))
                self._cond.notify()
            return
        searcher.close()
        with self._cond:
            self._open -= 1
            self._cond.notify()
