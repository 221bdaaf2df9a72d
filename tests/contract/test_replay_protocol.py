"""The ``ReplayStore`` protocol for adapter authors (CONTRACT A5): ``add_if_absent(nonce,
expires_at, *, signed_at=None)``. Every shipped store takes the keyword; the verifier
passes the signed time to any store whose method accepts it, and a store written for
0.1.0's two-argument protocol still works (its replays refused)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpthread_kit import Exposure, Registration, Verifier
from helpthread_kit.errors import ReplayedNonce
from helpthread_kit.replay import MemoryReplayStore, ReplayStore, accepts_signed_at
from helpthread_kit.replay_redis import RedisReplayStore
from helpthread_kit.replay_sqlite import SQLiteReplayStore
from helpthread_kit.testing import signed_headers

SECRET = "protocol-test-secret-0123456789-abcdefghij"
REGISTRATION = Registration.from_values("customer", Exposure.CUSTOMER_SAFE, [SECRET])
NONCES = st.from_regex(r"[A-Za-z0-9._~-]{8,40}", fullmatch=True)
OFFSETS = st.integers(min_value=-290, max_value=290)


def _header(body: bytes, timestamp: int, nonce: str) -> str:
    return signed_headers(body, SECRET, timestamp=timestamp, nonce=nonce)["X-Helpthread-Signature"]


class _Recording:
    """A dictionary store in each of the shapes an adapter author may write."""

    def __init__(self) -> None:
        self.seen: dict[str, float] = {}
        self.signed: list[float | None] = []

    def _add(self, nonce: str, expires_at: float) -> bool:
        if nonce in self.seen:
            return False
        self.seen[nonce] = expires_at
        return True


class KeywordOnly(_Recording):
    def add_if_absent(self, nonce: str, expires_at: float, *, signed_at: float | None = None) -> bool:
        self.signed.append(signed_at)
        return self._add(nonce, expires_at)


class PositionalOrKeyword(_Recording):
    def add_if_absent(self, nonce: str, expires_at: float, signed_at: float | None = None) -> bool:
        self.signed.append(signed_at)
        return self._add(nonce, expires_at)


class AnyKeywords(_Recording):
    def add_if_absent(self, nonce: str, expires_at: float, **options: Any) -> bool:
        self.signed.append(options.get("signed_at"))
        return self._add(nonce, expires_at)


class TwoArguments(_Recording):
    """A store written for 0.1.0: no ``signed_at``."""

    def add_if_absent(self, nonce: str, expires_at: float) -> bool:
        self.signed.append(None)
        return self._add(nonce, expires_at)


class StarArguments(_Recording):
    """Positional extras only: the keyword cannot be passed."""

    def add_if_absent(self, nonce: str, expires_at: float, *rest: object) -> bool:
        assert not rest
        self.signed.append(None)
        return self._add(nonce, expires_at)


@settings(max_examples=60, deadline=None)
@given(shape=st.sampled_from([KeywordOnly, PositionalOrKeyword, AnyKeywords]), offset=OFFSETS, nonce=NONCES)
def test_a5_the_verifier_passes_signed_at_to_every_store_that_takes_it(shape: type[_Recording], offset: int,
                                                                       nonce: str) -> None:
    """A5: a store whose ``add_if_absent`` accepts the keyword — by name, keyword-only or
    not, or through ``**kwargs``, with no class flag — gets the request's signed time."""
    store = shape()
    now = int(time.time())
    verifier = Verifier([REGISTRATION], store)  # type: ignore[arg-type]
    body = b'{"query":"reset password"}'
    header = _header(body, now + offset, nonce)
    assert verifier.verify(header, body) is REGISTRATION
    with pytest.raises(ReplayedNonce):
        verifier.verify(header, body)
    assert store.signed == [now + offset, now + offset]


@settings(max_examples=30, deadline=None)
@given(shape=st.sampled_from([TwoArguments, StarArguments]), offset=OFFSETS, nonce=NONCES)
def test_a5_a_store_without_the_keyword_still_refuses_replays(shape: type[_Recording], offset: int,
                                                             nonce: str) -> None:
    """A5: a store written for 0.1.0 (two arguments) is called as it always was: the
    first request passes, its replay is refused."""
    store = shape()
    assert not accepts_signed_at(store)
    verifier = Verifier([REGISTRATION], store)  # type: ignore[arg-type]
    body = b'{"query":"invoice"}'
    header = _header(body, int(time.time()) + offset, nonce)
    assert verifier.verify(header, body) is REGISTRATION
    with pytest.raises(ReplayedNonce):
        verifier.verify(header, body)
    assert store.signed == [None, None]


def test_a5_every_shipped_store_takes_signed_at_by_keyword(tmp_path: Path, redis_url: str) -> None:
    """A5: memory, SQLite and Redis stores implement the protocol's keyword (and are
    ``ReplayStore``s): a new nonce is recorded once, then refused."""
    stores: list[ReplayStore] = [MemoryReplayStore(), SQLiteReplayStore(tmp_path / "r.db"),
                                 RedisReplayStore(redis_url, key_prefix=f"protocol-{time.time_ns()}:")]
    for store in stores:
        assert isinstance(store, ReplayStore) and accepts_signed_at(store)
        assert not hasattr(store, "takes_signed_at")
        now = time.time()
        nonce = f"protocol-{type(store).__name__}-{time.time_ns()}"
        assert store.add_if_absent(nonce, now + 301, signed_at=float(int(now)))
        assert not store.add_if_absent(nonce, now + 301, signed_at=float(int(now)))
