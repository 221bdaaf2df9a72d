"""A replay store in Redis, shared by every replica (CONTRACT A5).

``SET key 1 NX EXAT <expires_at>`` is atomic: exactly one of several concurrent
requests with one nonce gets ``OK``. Keys expire by themselves when the nonce's
timestamp leaves the window. If Redis cannot be reached the store raises
:class:`~provider.contract.errors.ReplayStoreUnavailable` — the request is refused with
``503`` and ``Retry-After``, never accepted without a replay check.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from .errors import ReplayStoreUnavailable

__all__ = ["RedisReplayStore"]


class RedisReplayStore:
    """Replay store backed by a Redis server (the ``redis`` client library).

    Args:
        url: ``redis://[:password@]host:port/db`` or ``rediss://`` for TLS.
        key_prefix: namespace of the nonce keys, so one Redis can serve several providers.
        timeout_s: socket connect and read timeout, in seconds: a Redis that does not
            answer within it makes the request a ``503``.
        clock: Unix time in seconds (only for the never-expired guard).

    Raises:
        ImportError: the ``redis`` package is not installed (``pip install redis``).
    """

    def __init__(
        self,
        url: str,
        *,
        key_prefix: str = "knowledge-provider:nonce:",
        timeout_s: float = 0.5,
        clock: Callable[[], float] = time.time,
    ) -> None:
        import redis  # imported here so the contract layer does not need redis installed

        self._errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError)
        self._client: Any = redis.Redis.from_url(
            url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s, health_check_interval=30
        )
        self.key_prefix = key_prefix
        self._clock = clock

    def add_if_absent(self, nonce: str, expires_at: float) -> bool:
        # EXAT takes whole seconds; round up so the nonce never expires early.
        expire_at = max(math.ceil(expires_at), int(self._clock()) + 1)
        try:
            return bool(self._client.set(self.key_prefix + nonce, b"1", nx=True, exat=expire_at))
        except self._errors as exc:
            raise ReplayStoreUnavailable(f"replay store unreachable ({exc.__class__.__name__})",
                                         retry_after_s=2) from None

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
