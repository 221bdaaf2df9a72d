"""Shared replay stores (CONTRACT A5): SQLite across processes, Redis across replicas;
atomic add-if-absent; fail closed when unreachable."""

from __future__ import annotations

import multiprocessing
import subprocess
import time
from pathlib import Path

import pytest

from helpthread_kit import Exposure, Registration, Verifier
from helpthread_kit.errors import ReplayedNonce, ReplayStoreUnavailable, StaleTimestamp
from helpthread_kit.replay import MemoryReplayStore, open_replay_store
from helpthread_kit.replay_redis import RedisReplayStore
from helpthread_kit.replay_sqlite import SQLiteReplayStore
from helpthread_kit.testing import signature_header

REDIS_SECRET = "redis-flush-secret-0123456789-abcdefghijkl"


def _sqlite_add(args: tuple[str, str, float]) -> bool:
    path, nonce, expires_at = args
    return SQLiteReplayStore(Path(path)).add_if_absent(nonce, expires_at)


def _redis_add(args: tuple[str, str, float]) -> bool:
    url, nonce, expires_at = args
    return RedisReplayStore(url).add_if_absent(nonce, expires_at)


def test_a5_sqlite_exactly_one_winner_across_processes(tmp_path: Path) -> None:
    """A5: 8 processes adding the same nonce at once: exactly one succeeds."""
    path = str(tmp_path / "replay.sqlite3")
    SQLiteReplayStore(Path(path))
    expires = time.time() + 600
    with multiprocessing.get_context("spawn").Pool(8) as pool:
        for round_ in range(5):
            results = pool.map(_sqlite_add, [(path, f"nonce-{round_}-abc", expires)] * 16)
            assert results.count(True) == 1


def test_a5_sqlite_expiry_and_reuse(tmp_path: Path) -> None:
    now = [1000.0]
    store = SQLiteReplayStore(tmp_path / "r.db", clock=lambda: now[0], purge_every=2)
    assert store.add_if_absent("n-123456789", 1300.0)
    assert not store.add_if_absent("n-123456789", 1300.0)
    now[0] = 1300.5
    assert store.add_if_absent("n-123456789", 1600.0), "an expired nonce may be recorded again"
    assert not store.add_if_absent("n-123456789", 1600.0)


def test_a5_sqlite_unreadable_database_fails_closed(tmp_path: Path) -> None:
    """A store that cannot be used refuses (503), never accepts unchecked."""
    path = tmp_path / "r.db"
    store = SQLiteReplayStore(path, busy_timeout_s=0.1)
    path.write_bytes(b"this is not a database " * 200)
    for extra in ("-wal", "-shm"):
        Path(f"{path}{extra}").unlink(missing_ok=True)
    with pytest.raises(ReplayStoreUnavailable) as raised:
        store.add_if_absent("n-123456789", time.time() + 10)
    assert raised.value.status == 503


def test_a5_redis_exactly_one_winner_across_processes(redis_url: str) -> None:
    """A5: replicas sharing Redis: of 16 concurrent adds of one nonce exactly one wins."""
    expires = time.time() + 600
    with multiprocessing.get_context("spawn").Pool(8) as pool:
        for round_ in range(5):
            nonce = f"redis-{time.time_ns()}-{round_}"
            results = pool.map(_redis_add, [(redis_url, nonce, expires)] * 16)
            assert results.count(True) == 1


def test_a5_redis_keys_expire_with_the_window(redis_url: str) -> None:
    store = RedisReplayStore(redis_url)
    nonce = f"expiring-{time.time_ns()}"
    assert store.add_if_absent(nonce, time.time() + 1, signed_at=time.time())
    assert not store.add_if_absent(nonce, time.time() + 1, signed_at=time.time())
    time.sleep(2.2)
    assert store.add_if_absent(nonce, time.time() + 1, signed_at=time.time())


def test_a5_redis_down_fails_closed(disposable_redis: tuple[subprocess.Popen[bytes], str]) -> None:
    """When Redis cannot be reached the store raises ReplayStoreUnavailable (→ 503)."""
    proc, url = disposable_redis
    store = RedisReplayStore(url, timeout_s=0.3)
    assert store.add_if_absent(f"up-{time.time_ns()}", time.time() + 60, signed_at=time.time())
    proc.terminate()
    proc.wait()
    with pytest.raises(ReplayStoreUnavailable) as raised:
        store.add_if_absent(f"down-{time.time_ns()}", time.time() + 60, signed_at=time.time())
    assert raised.value.status == 503 and raised.value.headers()["Retry-After"].isdigit()


def _signed(body: bytes, nonce: str) -> str:
    return signature_header(body, REDIS_SECRET, nonce=nonce)[0]


def test_a5_a_replay_after_flushall_is_refused(redis_url: str) -> None:
    """Issue 14: Redis restarted without persistence (here: FLUSHALL on a real Redis)
    forgets every nonce. The epoch key goes with them; the store notices its absence,
    writes a new epoch, and refuses what was signed before it — the replay included —
    while a request signed afterwards is accepted."""
    import redis

    prefix = f"flush-test-{time.time_ns()}:"
    verifier = Verifier([Registration.from_values("cs", Exposure.CUSTOMER_SAFE, [REDIS_SECRET])],
                        RedisReplayStore(redis_url, key_prefix=prefix))
    body = b'{"query":"reset password"}'
    nonce = f"before-flush-{time.time_ns()}"
    header = _signed(body, nonce)
    verifier.verify(header, body)
    with pytest.raises(ReplayedNonce):
        verifier.verify(header, body)
    client = redis.Redis.from_url(redis_url)
    client.flushall()
    assert client.get(prefix + nonce) is None  # the memory really is gone
    with pytest.raises(StaleTimestamp, match="replay store"):
        verifier.verify(header, body)
    assert client.get(prefix + "~epoch") is not None  # a new epoch was written
    time.sleep(1.05)  # the core's next request is signed in a later second
    verifier.verify(_signed(body, f"after-flush-{time.time_ns()}"), body)


def test_a5_a_second_replica_sees_the_new_epoch_too(redis_url: str) -> None:
    """The epoch lives in Redis, not in the process: a replica that did not notice the
    flush itself refuses the replay too."""
    import redis

    prefix = f"flush-two-{time.time_ns()}:"
    registration = Registration.from_values("cs", Exposure.CUSTOMER_SAFE, [REDIS_SECRET])
    a = Verifier([registration], RedisReplayStore(redis_url, key_prefix=prefix))
    b = Verifier([registration], RedisReplayStore(redis_url, key_prefix=prefix))
    body = b'{"query":"invoice"}'
    header = _signed(body, f"two-replicas-{time.time_ns()}")
    a.verify(header, body)
    redis.Redis.from_url(redis_url).flushall()
    with pytest.raises(StaleTimestamp):
        a.verify(header, body)
    with pytest.raises(StaleTimestamp):
        b.verify(header, body)


def test_open_replay_store_specs(tmp_path: Path, redis_url: str) -> None:
    assert isinstance(open_replay_store("memory"), MemoryReplayStore)
    assert isinstance(open_replay_store("sqlite", state_dir=tmp_path), SQLiteReplayStore)
    assert isinstance(open_replay_store(f"sqlite:///{tmp_path}/x.db"), SQLiteReplayStore)
    assert isinstance(open_replay_store(redis_url), RedisReplayStore)
    with pytest.raises(ValueError, match="unknown replay store"):
        open_replay_store("postgres://x")
