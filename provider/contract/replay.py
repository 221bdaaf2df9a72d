"""Replay stores: remember verified nonces for as long as their timestamp is acceptable
(CONTRACT A5; §3.1).

Every store offers one atomic operation, :meth:`ReplayStore.add_if_absent` — never a
check followed by an insert, which two workers could interleave. A store that cannot
answer raises :class:`~provider.contract.errors.ReplayStoreUnavailable`, which the
application answers ``503`` with ``Retry-After``: an unverifiable replay is refused,
never accepted.
"""

from __future__ import annotations

import heapq
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, runtime_checkable

from .errors import ReplayStoreUnavailable

__all__ = ["MemoryReplayStore", "ReplayStore", "open_replay_store"]


@runtime_checkable
class ReplayStore(Protocol):
    """The one operation replay protection needs."""

    def add_if_absent(self, nonce: str, expires_at: float) -> bool:
        """Record ``nonce`` until ``expires_at`` (Unix seconds) unless it is already recorded.

        Returns:
            ``True`` if the nonce was new and is now recorded; ``False`` if it was
            already recorded and has not expired (a replay).

        Raises:
            ReplayStoreUnavailable: the store cannot answer; the caller must refuse.
        """
        ...


class MemoryReplayStore:
    """A bounded in-process store: correct only while one process serves.

    Entries expire at their own ``expires_at``; expired entries are purged as new ones
    arrive. When ``max_entries`` live nonces are held the store refuses (fails closed)
    rather than forgetting a nonce that is still inside its window.

    Args:
        max_entries: the most live nonces held at once. At the default of 200,000 and a
            600-second lifetime that is over 300 requests per second, above what one
            Whoosh worker can answer.
        clock: returns the current Unix time in seconds.
    """

    def __init__(self, max_entries: int = 200_000, clock: Callable[[], float] = time.time) -> None:
        self.max_entries = max_entries
        self._clock = clock
        self._expiry: dict[str, float] = {}
        self._heap: list[tuple[float, str]] = []
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            self._purge(self._clock())
            return len(self._expiry)

    def _purge(self, now: float) -> None:
        heap, expiry = self._heap, self._expiry
        while heap and heap[0][0] <= now:
            when, nonce = heapq.heappop(heap)
            if expiry.get(nonce) == when:
                del expiry[nonce]

    def add_if_absent(self, nonce: str, expires_at: float) -> bool:
        now = self._clock()
        with self._lock:
            self._purge(now)
            current = self._expiry.get(nonce)
            if current is not None and current > now:
                return False
            if len(self._expiry) >= self.max_entries:
                raise ReplayStoreUnavailable("replay store is full; retry shortly", retry_after_s=5)
            self._expiry[nonce] = expires_at
            heapq.heappush(self._heap, (expires_at, nonce))
            return True


def open_replay_store(spec: str, *, state_dir: Path | None = None) -> ReplayStore:
    """Open a replay store from an operator setting.

    Args:
        spec: ``memory`` (one process only), ``sqlite`` (a database in ``state_dir``,
            shared by every worker of one machine), ``sqlite:///absolute/path.db``, or
            ``redis://…`` / ``rediss://…`` (shared by several replicas).
        state_dir: folder for the default SQLite database.

    Raises:
        ValueError: an unknown kind of store, or ``sqlite`` without a state folder.
    """
    if spec == "memory":
        return MemoryReplayStore()
    if spec == "sqlite" or spec.startswith("sqlite:///"):
        from .replay_sqlite import SQLiteReplayStore

        if spec == "sqlite":
            if state_dir is None:
                raise ValueError("the sqlite replay store needs a state folder")
            return SQLiteReplayStore(state_dir / "replay.sqlite3")
        return SQLiteReplayStore(Path(spec.removeprefix("sqlite://")))
    if spec.startswith(("redis://", "rediss://", "unix://")):
        from .replay_redis import RedisReplayStore

        return RedisReplayStore(spec)
    raise ValueError(f"unknown replay store {spec!r}; use memory, sqlite, sqlite:///path or redis://host:port/db")
