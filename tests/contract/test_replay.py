"""The in-process replay store (CONTRACT A5; contract §3.1)."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpthread_kit import Exposure, Registration, Verifier
from helpthread_kit.errors import ReplayedNonce, StaleTimestamp
from helpthread_kit.replay import MemoryReplayStore, ReplayStore
from helpthread_kit.testing import signature_header

T0 = 1_700_000_000.0


class Clock:
    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(clock: Clock) -> MemoryReplayStore:
    return MemoryReplayStore(clock=clock)


@pytest.fixture
def frequent_thread_switches() -> Iterator[None]:
    """Make the interpreter switch threads as often as it can, so a missing lock shows up."""
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(previous)


def test_a5_memory_store_satisfies_the_protocol(store: MemoryReplayStore) -> None:
    """A5: MemoryReplayStore offers the one operation of ReplayStore."""
    assert isinstance(store, ReplayStore)


def test_a5_add_if_absent_is_true_once_then_false(store: MemoryReplayStore) -> None:
    """A5: the first add records the nonce; a second add within its life reports a replay."""
    assert store.add_if_absent("nonce-aaaaaaaa", T0 + 600) is True
    assert store.add_if_absent("nonce-aaaaaaaa", T0 + 600) is False
    assert store.add_if_absent("nonce-aaaaaaaa", T0 + 9999) is False
    assert len(store) == 1


def test_a5_distinct_nonces_are_independent(store: MemoryReplayStore) -> None:
    """A5: recording one nonce does not affect another."""
    assert store.add_if_absent("nonce-aaaaaaaa", T0 + 600) is True
    assert store.add_if_absent("nonce-bbbbbbbb", T0 + 600) is True
    assert store.add_if_absent("nonce-aaaaaaab", T0 + 600) is True
    assert len(store) == 3


def test_a5_a_refused_replay_does_not_extend_the_entry(store: MemoryReplayStore, clock: Clock) -> None:
    """A5: a replay attempt with a later expiry does not change when the original entry expires."""
    store.add_if_absent("nonce-aaaaaaaa", T0 + 10)
    assert store.add_if_absent("nonce-aaaaaaaa", T0 + 1000) is False
    clock.now = T0 + 10
    assert store.add_if_absent("nonce-aaaaaaaa", T0 + 20) is True


def test_a5_entry_expires_at_its_own_time(store: MemoryReplayStore, clock: Clock) -> None:
    """A5: a nonce is refused until expires_at and reusable from expires_at on (injected clock, no sleep)."""
    assert store.add_if_absent("nonce-aaaaaaaa", T0 + 10)
    clock.now = T0 + 9.999
    assert store.add_if_absent("nonce-aaaaaaaa", T0 + 20) is False
    clock.now = T0 + 10
    assert store.add_if_absent("nonce-aaaaaaaa", T0 + 20) is True
    # and the reused entry is live again with its new expiry
    clock.now = T0 + 19
    assert store.add_if_absent("nonce-aaaaaaaa", T0 + 30) is False


def test_a5_stale_heap_entry_does_not_remove_a_renewed_nonce(store: MemoryReplayStore, clock: Clock) -> None:
    """A5: after expiry and reuse, purging the old expiry must not forget the renewed entry."""
    store.add_if_absent("nonce-aaaaaaaa", T0 + 10)
    clock.now = T0 + 10
    assert store.add_if_absent("nonce-aaaaaaaa", T0 + 100) is True
    clock.now = T0 + 50
    store.add_if_absent("nonce-other-01", T0 + 60)  # triggers a purge
    assert store.add_if_absent("nonce-aaaaaaaa", T0 + 100) is False
    assert len(store) == 2


def test_a5_entries_expire_independently(store: MemoryReplayStore, clock: Clock) -> None:
    """A5: each entry has its own expiry; len() counts only live entries."""
    store.add_if_absent("short-lived-1", T0 + 5)
    store.add_if_absent("long-lived-01", T0 + 50)
    assert len(store) == 2
    clock.now = T0 + 5
    assert len(store) == 1
    assert store.add_if_absent("long-lived-01", T0 + 100) is False
    assert store.add_if_absent("short-lived-1", T0 + 100) is True
    clock.now = T0 + 100
    assert len(store) == 0


def test_a5_an_already_expired_entry_is_not_held(store: MemoryReplayStore) -> None:
    """A5: recording a nonce whose expiry has passed does not make it refused."""
    assert store.add_if_absent("nonce-aaaaaaaa", T0 - 1) is True
    assert store.add_if_absent("nonce-aaaaaaaa", T0 + 10) is True


def test_a5_a_full_store_keeps_accepting_current_requests_and_refuses_every_replay(clock: Clock) -> None:
    """A5 (issue 14): a full store no longer answers 503 for minutes. It forgets the
    nonces expiring soonest and refuses what expires at or before them (stale), so a
    replay of a forgotten nonce — same signed timestamp, same expiry — is still refused,
    while requests signed now are accepted."""
    store = MemoryReplayStore(max_entries=3, clock=clock)
    for i in range(3):
        assert store.add_if_absent(f"live-nonce-{i}", T0 + 100 + i)
    assert store.add_if_absent("one-more-nonce", T0 + 200) is True  # room made: no refusal
    assert store.floor == T0 + 100
    assert len(store) == 3
    with pytest.raises(StaleTimestamp):  # the forgotten nonce, replayed
        store.add_if_absent("live-nonce-0", T0 + 100)
    with pytest.raises(StaleTimestamp):  # a fresh nonce signed as long ago: cannot be told apart
        store.add_if_absent("fresh-but-old1", T0 + 100)
    for i in (1, 2):
        assert store.add_if_absent(f"live-nonce-{i}", T0 + 100 + i) is False
    assert store.add_if_absent("one-more-nonce", T0 + 200) is False


@given(st.lists(st.tuples(st.integers(0, 40), st.integers(1, 30)), min_size=1, max_size=120),
       st.integers(1, 8))
@settings(max_examples=200, deadline=None)
def test_a5_no_replay_is_ever_accepted_whatever_the_bound(
    requests: list[tuple[int, int]], max_entries: int
) -> None:
    """A5 as a class: for any sequence of (nonce, expiry) with time advancing and any
    bound, a nonce accepted once is never accepted again with the same expiry before
    that expiry — whether it is still held, purged or evicted."""
    clock = Clock()
    store = MemoryReplayStore(max_entries=max_entries, clock=clock)
    accepted: dict[tuple[int, int], float] = {}
    for step, (nonce, lifetime) in enumerate(requests):
        clock.now = T0 + step / 4
        expires = T0 + (step // 8) + lifetime
        try:
            added = store.add_if_absent(f"nonce-{nonce:06d}", expires)
        except StaleTimestamp:
            continue
        if added and expires > clock.now:
            earlier = accepted.get((nonce, expires))
            assert earlier is None or earlier <= clock.now, (nonce, expires)
            accepted[(nonce, expires)] = expires
        assert len(store) <= max_entries


def test_a5_a_burst_of_250000_nonces_is_accepted_and_every_replay_refused() -> None:
    """Issue 14: the old store refused everything with 503 after 200,000 nonces (about
    3.5 minutes of warm-cache traffic). A burst of 250,000 signed requests inside one
    window is accepted by the default store, and each one replayed is refused."""
    secret = "burst-test-secret-0123456789-abcdefghijkl"
    body = b'{"query":"reset password"}'
    verifier = Verifier([Registration.from_values("cs", Exposure.CUSTOMER_SAFE, [secret])], MemoryReplayStore())
    now = int(time.time())
    headers = [signature_header(body, secret, timestamp=now, nonce=f"burst-{i:09d}")[0] for i in range(250_000)]
    for header in headers:
        verifier.verify(header, body)
    for header in headers[::997]:
        with pytest.raises(ReplayedNonce):
            verifier.verify(header, body)


@pytest.mark.usefixtures("frequent_thread_switches")
def test_a5_concurrent_adds_of_one_nonce_admit_exactly_one() -> None:
    """A5: add_if_absent is atomic: 32 threads adding the same nonce get exactly one True."""
    for _round in range(50):
        store = MemoryReplayStore()
        barrier = threading.Barrier(32)
        outcomes: list[bool] = []
        lock = threading.Lock()

        def worker(
            store: MemoryReplayStore = store,
            barrier: threading.Barrier = barrier,
            lock: threading.Lock = lock,
            outcomes: list[bool] = outcomes,
        ) -> None:
            barrier.wait()
            result = store.add_if_absent("contended-nonce", 4_000_000_000.0)
            with lock:
                outcomes.append(result)

        threads = [threading.Thread(target=worker) for _ in range(32)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=10)
        assert len(outcomes) == 32
        assert outcomes.count(True) == 1


@pytest.mark.usefixtures("frequent_thread_switches")
def test_a5_concurrent_adds_of_distinct_nonces_all_succeed() -> None:
    """A5: concurrency loses no entry: 32 threads x 50 distinct nonces are all recorded once."""
    store = MemoryReplayStore()
    barrier = threading.Barrier(32)
    results: list[bool] = []
    lock = threading.Lock()

    def worker(i: int) -> None:
        barrier.wait()
        mine = [store.add_if_absent(f"nonce-{i}-{j:04d}", 4_000_000_000.0) for j in range(50)]
        with lock:
            results.extend(mine)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(32)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert results == [True] * 32 * 50
    assert len(store) == 32 * 50
    assert not any(store.add_if_absent(f"nonce-{i}-0000", 4_000_000_000.0) for i in range(32))
