"""The replay stores' warnings say a count and a time, never a nonce, a signature or a
secret (CONTRACT A6): the in-memory store's refusal floor, the Redis store's epoch."""

from __future__ import annotations

import contextlib
import logging
import re
import subprocess
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpthread_kit.errors import StaleTimestamp
from helpthread_kit.replay import MemoryReplayStore
from helpthread_kit.replay_redis import RedisReplayStore

NONCES = st.lists(st.from_regex(r"[A-Za-z0-9._~-]{8,40}", fullmatch=True), min_size=4, max_size=8, unique=True)


def _numbers_only(record: logging.LogRecord) -> bool:
    return all(isinstance(arg, (int, float)) for arg in (record.args or ()))  # type: ignore[union-attr]


@settings(max_examples=40, deadline=None)
@given(nonces=NONCES)
def test_the_memory_store_logs_its_floor_not_the_nonces(nonces: list[str]) -> None:
    now = 1_900_000_000.0
    store = MemoryReplayStore(max_entries=2, clock=lambda: now)
    handler = _Collect()
    logger = logging.getLogger("provider")
    logger.addHandler(handler)
    try:
        for offset, nonce in enumerate(nonces):
            with contextlib.suppress(StaleTimestamp):
                store.add_if_absent(nonce, now + 10 + offset)
    finally:
        logger.removeHandler(handler)
    floors = [r for r in handler.records if "max_entries" in r.getMessage()]
    assert floors, "the store filled up and said so"
    for record in handler.records:
        assert _numbers_only(record)
        assert not any(nonce in record.getMessage() for nonce in nonces)
    assert "holds 2 nonces" in floors[0].getMessage()
    assert re.search(r"at or before Unix time \d+ ", floors[0].getMessage())


def test_the_redis_store_logs_its_epoch_not_the_nonce(
    disposable_redis: tuple[subprocess.Popen[bytes], str], caplog: pytest.LogCaptureFixture
) -> None:
    import redis

    _proc, url = disposable_redis
    store = RedisReplayStore(url, key_prefix="log-test:")
    first, second = f"log-first-{time.time_ns()}", f"log-second-{time.time_ns()}"
    store.add_if_absent(first, time.time() + 300, signed_at=time.time())
    redis.Redis.from_url(url).flushall()
    with caplog.at_level(logging.WARNING), pytest.raises(StaleTimestamp):
        # Signed before the new epoch (written by this very call): refused, and reported.
        store.add_if_absent(second, time.time() + 300, signed_at=time.time() - 1)
    epochs = [r for r in caplog.records if "remembers nonces only from" in r.getMessage()]
    assert epochs, "the lost memory was reported"
    for record in caplog.records:
        assert _numbers_only(record)
        assert first not in record.getMessage() and second not in record.getMessage()
        assert "log-test" not in record.getMessage()


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
