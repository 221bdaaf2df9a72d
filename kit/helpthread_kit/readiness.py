"""Whether the provider can answer now: the backend's readiness and the replay store's
reachability, each checked off the event loop and cached (``/readyz``, ``/retrieve``).

:meth:`Backend.is_ready` may be slow (an adapter pinging Confluence): run on the event
loop on every request it delayed everything, health checks included. Here it runs in a
worker thread at most once per :data:`READY_CACHE_S` seconds; requests arriving while
a check runs use the previous answer, so at most one request per period waits for it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import anyio
import anyio.to_thread

from .errors import ContractError
from .replay import ReplayStore

__all__ = ["READY_CACHE_S", "STORE_CHECK_S", "Readiness"]

errors_log = logging.getLogger("provider.errors")

#: How long an answer of ``Backend.is_ready()`` is reused, in seconds: a backend that
#: stops being ready is refused traffic at most this long after.
READY_CACHE_S = 1.0
#: How often the replay store is pinged for ``/readyz``, in seconds.
STORE_CHECK_S = 2.0


class Readiness:
    """Cached readiness of a backend and a replay store.

    Args:
        is_ready: the backend's ``is_ready`` (any thread; exceptions count as not ready).
        replay_store: pinged when it has a ``ping()`` method.
        limiter: the threads the checks may use.
        clock: monotonic seconds.
    """

    def __init__(
        self,
        is_ready: Callable[[], bool],
        replay_store: ReplayStore,
        limiter: anyio.CapacityLimiter,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._is_ready = is_ready
        self._ping: Callable[[], None] | None = getattr(replay_store, "ping", None)
        self._limiter = limiter
        self._clock = clock
        self._ready: bool | None = None
        self._ready_at = 0.0
        self._ready_lock = anyio.Lock()
        self._store_error: ContractError | None = None
        self._store_at = -STORE_CHECK_S

    def _check_backend(self) -> bool:
        try:
            return bool(self._is_ready())
        except Exception:
            errors_log.exception("Backend.is_ready() raised; counted as not ready")
            return False

    async def backend_ready(self) -> bool:
        """The backend's readiness, at most :data:`READY_CACHE_S` old."""
        fresh = self._clock() - self._ready_at < READY_CACHE_S
        if self._ready is not None and (fresh or self._ready_lock.locked()):
            return self._ready
        async with self._ready_lock:
            if self._ready is None or self._clock() - self._ready_at >= READY_CACHE_S:
                self._ready = await anyio.to_thread.run_sync(self._check_backend, limiter=self._limiter)
                self._ready_at = self._clock()
            return self._ready

    async def replay_store_error(self) -> ContractError | None:
        """Why the replay store cannot be used, checked at most every :data:`STORE_CHECK_S`
        seconds; ``None`` when it answers (or cannot be pinged)."""
        if self._ping is None:
            return None
        if self._clock() - self._store_at >= STORE_CHECK_S:
            self._store_at = self._clock()
            try:
                await anyio.to_thread.run_sync(self._ping, limiter=self._limiter)
                self._store_error = None
            except ContractError as exc:
                if self._store_error is None:
                    errors_log.error("the replay store cannot be reached: %s", exc.message)
                self._store_error = exc
        return self._store_error
