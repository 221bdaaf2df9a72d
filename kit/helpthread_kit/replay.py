"""Replay stores: remember verified nonces for as long as their timestamp is acceptable
(CONTRACT A5; §3.1).

Every store offers one atomic operation, :meth:`ReplayStore.add_if_absent` — never a
check followed by an insert, which two workers could interleave. A store that cannot
answer raises :class:`~helpthread_kit.errors.ReplayStoreUnavailable`, which the
application answers ``503`` with ``Retry-After``: an unverifiable replay is refused,
never accepted.
"""

from __future__ import annotations

import hashlib
import heapq
import inspect
import logging
import math
import os
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, runtime_checkable

from .errors import StaleTimestamp

__all__ = [
    "BYTES_PER_ENTRY",
    "DEFAULT_MAX_ENTRIES",
    "REPLACEMENT_ENV",
    "MemoryReplayStore",
    "ReplayStore",
    "accepts_signed_at",
    "open_replay_store",
]

log = logging.getLogger("provider.errors")

#: Default bound of :class:`MemoryReplayStore`: live nonces held at once.
DEFAULT_MAX_ENTRIES = 1_000_000
#: Set by :func:`~helpthread_kit.serving.serve`'s supervisor for the worker processes
#: it starts to replace one (not for the first ones).
REPLACEMENT_ENV = "HELPTHREAD_PROVIDER_REPLACEMENT_WORKER"
#: Measured memory per live entry of :class:`MemoryReplayStore` (``bench/replay_store.py``).
BYTES_PER_ENTRY = 122


@runtime_checkable
class ReplayStore(Protocol):
    """The one operation replay protection needs.

    A store may set ``blocking = False`` on its class when ``add_if_absent`` never waits
    (no network, no disk, no other process's lock): the contract application then calls
    it on the event loop instead of in a worker thread, which saves a thread hand-off per
    request. Without the attribute a store is taken to block.

    The :class:`~helpthread_kit.signature.Verifier` passes the request's signed time
    as the keyword ``signed_at`` to a store whose ``add_if_absent`` accepts it (a
    parameter of that name, or ``**kwargs``), looked up once when the verifier is made.
    A store written for 0.1.0, without the keyword, is called with the two arguments as
    before.
    """

    def add_if_absent(self, nonce: str, expires_at: float, *, signed_at: float | None = None) -> bool:
        """Record ``nonce`` until ``expires_at`` (Unix seconds) unless it is already recorded.

        Args:
            nonce: the request's nonce (A5), as sent.
            expires_at: Unix seconds until which a replay of it must be refused.
            signed_at: the request's signed Unix time (whole seconds; ``None`` when the
                caller does not know it). A store that can lose its memory — a process
                restart, a flushed server — uses it to refuse what was signed before its
                memory began (``False`` or :class:`~helpthread_kit.errors.StaleTimestamp`);
                a store that cannot ignores it.

        Returns:
            ``True`` if the nonce was new and is now recorded; ``False`` if it was
            already recorded and has not expired (a replay).

        Raises:
            ReplayStoreUnavailable: the store cannot answer; the caller must refuse.
            StaleTimestamp: (optional) the store refuses the request's time; the caller
                signs again with the current time.
        """
        ...


def accepts_signed_at(store: object) -> bool:
    """Whether ``store.add_if_absent`` takes the ``signed_at`` keyword of
    :meth:`ReplayStore.add_if_absent`: a parameter of that name that can be passed by
    keyword, or ``**kwargs``. ``False`` for a store written for 0.1.0's two-argument
    protocol, and for one whose signature cannot be read (it is then called with two
    arguments, as it always was)."""
    try:
        parameters = inspect.signature(store.add_if_absent).parameters.values()  # type: ignore[attr-defined]
    except (AttributeError, TypeError, ValueError):
        return False
    by_keyword = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return any(p.kind is p.VAR_KEYWORD or (p.name == "signed_at" and p.kind in by_keyword) for p in parameters)


class MemoryReplayStore:
    """An in-process store whose memory is bounded by the replay window: correct only
    while one process serves (several workers or replicas need ``sqlite`` or ``redis``).

    Nonces are held until their own ``expires_at`` and are then purged as new ones
    arrive, so in steady state the store holds exactly the nonces of the last replay
    window (about 601 s of traffic with the contract's 300 s skew). Each entry is a
    keyed 64-bit digest of the nonce, not the nonce itself: about
    :data:`BYTES_PER_ENTRY` bytes each (``bench/replay_store.py`` prints the figure),
    so the default ``max_entries`` of 1,000,000 — 1,660 requests per second for a
    whole window — is bounded at about 117 MiB.

    Should traffic ever exceed ``max_entries`` live nonces, the store does not refuse
    every request: it forgets the nonces that expire soonest and raises a *floor*,
    refusing from then on any request whose expiry is not after it (``401
    stale_timestamp``, "sign again"). A replay of a forgotten nonce carries the same
    signed timestamp, hence the same expiry, and is refused by the floor; requests
    signed with the current time pass. Nothing valid is refused before the store holds
    ``max_entries`` live nonces.

    A digest collision (two nonces with one 64-bit digest, about one in 2**40 at a
    million entries) refuses the second as a replay: it fails closed.

    A store in a worker that :func:`~helpthread_kit.serving.serve`'s supervisor
    started to replace another (after a crash, or on ``SIGHUP``) knows nothing of the
    nonces the dead worker saw. It therefore refuses every request signed before it
    began *or in the second it began* (``signed_at`` at or below :attr:`started_at`,
    its start in whole seconds) as a possible replay, with the answer a replay gets
    (``401 replayed_nonce``): the dead worker may have seen a request signed in that
    same second if the supervisor replaced it within the second. Requests signed from
    the next second on pass. (A request the dead worker saw that was signed ahead of the
    provider's clock, by up to the skew window, is not covered.) The first workers of a
    server, and stores made outside ``serve``, refuse nothing for their start: a
    provider that has just started accepts the whole window (A4), as the conformance
    kit checks — what a *previous* server process saw is known only to a shared store.

    Args:
        max_entries: the most live nonces held at once (the memory bound).
        clock: returns the current Unix time in seconds.
        started_at: the Unix second (whole seconds) at or before which signatures are
            refused; default the clock's current whole second in a replacement worker
            (:data:`REPLACEMENT_ENV` set), else ``-inf`` (nothing refused).
    """

    #: Per process: refused by a multi-worker :func:`~helpthread_kit.serving.serve`.
    shared = False
    #: A dictionary and a heap under a lock held for microseconds: safe on the event loop.
    blocking = False
    def __init__(self, max_entries: int = DEFAULT_MAX_ENTRIES, clock: Callable[[], float] = time.time, *,
                 started_at: float | None = None) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        self.max_entries = max_entries
        self._clock = clock
        if started_at is None:
            # Whole seconds, as signatures carry: the start second itself is refused too,
            # since the dead worker may have accepted a request signed in it (a supervisor
            # can replace a worker in well under a second).
            started_at = float(math.floor(clock())) if os.environ.get(REPLACEMENT_ENV) else -math.inf
        self.started_at = started_at
        # A per-process key: digests cannot be predicted from outside, so no one can
        # craft nonces that collide on purpose.
        self._key = secrets.token_bytes(16)
        self._expiry: dict[int, int] = {}
        # Expiry second -> digests recorded with it; a heap of those seconds.
        self._buckets: dict[int, list[int]] = {}
        self._seconds: list[int] = []
        self._floor = -math.inf
        self._floor_logged = -math.inf
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            self._purge(self._clock())
            return len(self._expiry)

    @property
    def floor(self) -> float:
        """Requests expiring at or before this Unix second are refused (``-inf`` until
        the store has ever been full)."""
        return self._floor

    def _digest(self, nonce: str) -> int:
        return int.from_bytes(hashlib.blake2b(nonce.encode("utf-8"), digest_size=8, key=self._key).digest(), "big")

    def _drop_bucket(self) -> int:
        second = heapq.heappop(self._seconds)
        expiry = self._expiry
        for key in self._buckets.pop(second):
            if expiry.get(key) == second:
                del expiry[key]
        return second

    def _purge(self, now: float) -> None:
        while self._seconds and self._seconds[0] <= now:
            self._drop_bucket()

    def add_if_absent(self, nonce: str, expires_at: float, *, signed_at: float | None = None) -> bool:
        """See :meth:`ReplayStore.add_if_absent`; also ``False`` when ``signed_at`` (the
        request's signed Unix time, when given) is at or before :attr:`started_at`.

        Raises:
            StaleTimestamp: the store has been full and ``expires_at`` is not after its
                floor; the caller signs again with the current time.
        """
        if signed_at is not None and signed_at <= self.started_at:
            return False  # possibly seen by the store before this one: refused like a replay
        now = self._clock()
        second = math.ceil(expires_at)
        key = self._digest(nonce)
        with self._lock:
            self._purge(now)
            current = self._expiry.get(key)
            if current is not None and current > now:
                return False
            if second <= self._floor:
                raise StaleTimestamp("signed too long ago for this provider's replay memory under the current load; "
                                     "sign again with the current time")
            if second <= now:
                return True  # already expired: nothing to remember
            while len(self._expiry) >= self.max_entries:
                self._floor = max(self._floor, self._drop_bucket())
                if now - self._floor_logged > 60:
                    self._floor_logged = now
                    # A count and a Unix second, nothing of any request (CONTRACT A6).
                    log.warning("the in-memory replay store holds %d nonces (max_entries): requests expiring "
                                "at or before Unix time %d are refused as stale", int(self.max_entries),
                                int(self._floor))
                if second <= self._floor:
                    raise StaleTimestamp("signed too long ago for this provider's replay memory under the current "
                                         "load; sign again with the current time")
            self._expiry[key] = second
            bucket = self._buckets.get(second)
            if bucket is None:
                self._buckets[second] = bucket = []
                heapq.heappush(self._seconds, second)
            bucket.append(key)
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
