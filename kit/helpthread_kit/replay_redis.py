"""A replay store in Redis, shared by every replica (CONTRACT A5).

One Lua script per request does, atomically on the server:

1. read the *epoch* key — the Unix time (in milliseconds) from which this Redis
   remembers nonces, written when the store is opened (the start of that second) — and,
   if it is missing, write it as now: a Redis restarted without persistence, or flushed (``FLUSHALL``), has lost
   every nonce, and the missing key says so;
2. refuse a request signed before the epoch (``401 stale_timestamp``): its nonce may
   have been recorded in the memory that was lost, so a replay of it cannot be told
   from a first use. Timestamps are whole seconds, so a request signed in the very
   second the memory was lost counts as before it;
3. ``SET key 1 NX EXAT <expires_at>``: exactly one of several concurrent requests with
   one nonce gets ``OK``; keys expire by themselves when the nonce's timestamp leaves
   the window.

In steady state the epoch is long past and step 2 refuses nothing; for at most one
replay window (300 s) after a loss of memory, requests signed before it are refused
and the core signs again. If Redis cannot be reached the store raises
:class:`~helpthread_kit.errors.ReplayStoreUnavailable` — the request is refused with
``503`` and ``Retry-After``, never accepted without a replay check.
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
from collections.abc import Callable
from typing import Any

from .errors import ReplayStoreUnavailable, StaleTimestamp

__all__ = ["RedisReplayStore"]

log = logging.getLogger("provider.errors")

# KEYS: epoch, nonce. ARGV: now (ms), signed at (ms), expire at (s). Returns
# {outcome, epoch, created}: outcome 1 recorded, 0 replay, -1 signed before the epoch.
_ADD_SCRIPT = """
local epoch = redis.call('GET', KEYS[1])
local created = 0
if not epoch then
  redis.call('SET', KEYS[1], ARGV[1], 'NX')
  epoch = redis.call('GET', KEYS[1])
  created = 1
end
if tonumber(ARGV[2]) < tonumber(epoch) then
  return {-1, epoch, created}
end
if redis.call('SET', KEYS[2], '1', 'NX', 'EXAT', ARGV[3]) then
  return {1, epoch, created}
end
return {0, epoch, created}
"""


class RedisReplayStore:
    """Replay store backed by a Redis server (the ``redis`` client library).

    Args:
        url: ``redis://[:password@]host:port/db`` or ``rediss://`` for TLS.
        key_prefix: namespace of the nonce keys, so one Redis can serve several providers.
            The epoch key is ``key_prefix + "~epoch"`` (no nonce is that short).
        timeout_s: socket connect and read timeout, in seconds: a Redis that does not
            answer within it makes the request a ``503``.
        max_skew_s: the verifier's window (A4), used to recover the signed time from
            ``expires_at`` when the caller does not pass ``signed_at``.
        clock: Unix time in seconds.

    Raises:
        ImportError: the ``redis`` package is not installed (``pip install redis``).
    """

    #: Seen by every process that opens it (see ``serving.check_replay_store_for_workers``).
    shared = True

    def __init__(
        self,
        url: str,
        *,
        key_prefix: str = "knowledge-provider:nonce:",
        timeout_s: float = 0.5,
        max_skew_s: int = 300,  # the contract's window (§3.1), as the verifier's default
        clock: Callable[[], float] = time.time,
    ) -> None:
        import redis  # imported here so the contract layer does not need redis installed

        self._errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError)
        self._client: Any = redis.Redis.from_url(
            url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s, health_check_interval=30
        )
        self._script: Any = self._client.register_script(_ADD_SCRIPT)
        self.key_prefix = key_prefix
        self.epoch_key = key_prefix + "~epoch"
        self.max_skew_s = max_skew_s
        self._clock = clock
        self._epoch: int | None = None
        # Written at start: a Redis that comes up empty later is told by the key's absence.
        # Whole seconds here: a memory lost before this start was lost in an earlier
        # second (a provider takes longer than that to start), and requests signed in
        # this second are then accepted. Unreachable now: the first request writes it.
        with contextlib.suppress(*self._errors):
            self._client.set(self.epoch_key, int(self._clock()) * 1000, nx=True)

    def _now_ms(self) -> int:
        return int(self._clock() * 1000)

    @property
    def epoch(self) -> float | None:
        """The Unix time (seconds) from which Redis remembers nonces, as last seen
        (``None`` before the first request)."""
        return None if self._epoch is None else self._epoch / 1000

    def add_if_absent(self, nonce: str, expires_at: float, *, signed_at: float | None = None) -> bool:
        """Record ``nonce`` until ``expires_at`` unless it is recorded (see the module).

        Args:
            nonce: the request's nonce.
            expires_at: Unix seconds until which it must be refused.
            signed_at: the request's signed timestamp; default ``expires_at`` minus the
                window (what the verifier adds).

        Raises:
            StaleTimestamp: signed before the epoch (Redis lost its memory since).
            ReplayStoreUnavailable: Redis cannot be reached.
        """
        now = int(self._clock())
        # EXAT takes whole seconds; round up so the nonce never expires early.
        expire_at = max(math.ceil(expires_at), now + 1)
        signed = expires_at - self.max_skew_s - 1 if signed_at is None else signed_at
        try:
            outcome, epoch, created = self._script(
                keys=[self.epoch_key, self.key_prefix + nonce],
                args=[self._now_ms(), math.floor(signed) * 1000, expire_at],
            )
        except self._errors as exc:
            raise ReplayStoreUnavailable(f"replay store unreachable ({exc.__class__.__name__})",
                                         retry_after_s=2) from None
        epoch = int(epoch)
        if epoch != self._epoch:
            if self._epoch is not None or created:
                # The epoch is a Unix time in ms written by the script, nothing of any request (A6).
                log.warning("the Redis replay store remembers nonces only from Unix time %.3f (it was emptied or "
                            "restarted without persistence): requests signed before then are refused",
                            float(epoch) / 1000)
            self._epoch = epoch
        if outcome == -1:
            raise StaleTimestamp("signed before the replay store's memory begins (it was restarted or emptied); "
                                 "sign again with the current time")
        return bool(outcome == 1)

    def ping(self) -> None:
        """Check the connection now.

        Raises:
            ReplayStoreUnavailable: Redis cannot be reached.
        """
        try:
            self._client.ping()
        except self._errors as exc:
            raise ReplayStoreUnavailable(f"replay store unreachable ({exc.__class__.__name__})") from None

    def close(self) -> None:
        self._client.close()
