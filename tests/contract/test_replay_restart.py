"""A replay store that starts empty — a restarted process, a worker the supervisor
replaced — refuses what was signed before it began (CONTRACT A5; README "Replay
protection"): it cannot know which of those nonces the store before it saw.

Real verifiers, real HMAC signatures, the stores as the application opens them; only
the clock is set by hand."""

from __future__ import annotations

import asyncio
import json

import httpx
from hypothesis import given, settings
from hypothesis import strategies as st

from provider.contract import ContractSettings, Exposure, Registration, Result, SearchQuery, create_app
from provider.contract.errors import ReplayedNonce
from provider.contract.replay import MemoryReplayStore, open_replay_store
from provider.contract.signature import Verifier
from provider.contract.testing import signed_headers

SECRET = "restart-test-secret-0123456789-abcdefghij"
REGISTRATION = Registration.from_values("customer", Exposure.CUSTOMER_SAFE, [SECRET])
T0 = 1_800_000_000
SKEW = 300


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _header(body: bytes, timestamp: int, nonce: str) -> str:
    return signed_headers(body, SECRET, timestamp=timestamp, nonce=nonce)["X-Helpthread-Signature"]


@settings(max_examples=200, deadline=None)
@given(signed=st.integers(min_value=-SKEW, max_value=-1), restart_after=st.floats(min_value=0.0, max_value=SKEW),
       nonce=st.from_regex(r"[A-Za-z0-9._~-]{8,40}", fullmatch=True))
def test_a5_a_replay_of_a_request_the_previous_store_saw_is_refused_by_the_new_one(
    signed: int, restart_after: float, nonce: str
) -> None:
    """A5: whenever inside the window a request was signed and accepted by the store
    before a restart, its replay to the new store is refused with the replay's error."""
    clock = Clock(T0 + signed + 0.5)
    body = json.dumps({"query": "reset password"}).encode()
    header = _header(body, T0 + signed, nonce)
    before = Verifier([REGISTRATION], MemoryReplayStore(clock=clock), clock=clock)
    assert before.verify(header, body) is REGISTRATION
    # The process dies; its successor starts later, still inside the request's window.
    clock.now = T0 + max(restart_after, 0.0) + 1.0
    after = Verifier([REGISTRATION], MemoryReplayStore(clock=clock), clock=clock)
    if abs(clock.now - (T0 + signed)) > SKEW:
        return  # out of the window: refused as stale anyway (not this test's duty)
    try:
        after.verify(header, body)
    except ReplayedNonce as exc:
        assert exc.code == "replayed_nonce" and exc.status == 401
    else:
        raise AssertionError("a request signed before the store began was accepted by it")


@settings(max_examples=100, deadline=None)
@given(offset=st.integers(min_value=0, max_value=SKEW),
       nonce=st.from_regex(r"[A-Za-z0-9._~-]{8,40}", fullmatch=True))
def test_a5_requests_signed_from_the_stores_start_on_are_accepted_once(offset: int, nonce: str) -> None:
    """A5: the start floor refuses nothing signed in or after the store's first second;
    those are refused only when replayed."""
    clock = Clock(T0 + 0.75)
    store = MemoryReplayStore(clock=clock)
    assert store.started_at == T0
    verifier = Verifier([REGISTRATION], store, clock=clock)
    clock.now = T0 + offset + 0.25
    body = b'{"query":"invoice"}'
    header = _header(body, T0 + offset, nonce)
    assert verifier.verify(header, body) is REGISTRATION
    try:
        verifier.verify(header, body)
    except ReplayedNonce:
        pass
    else:
        raise AssertionError("a replay was accepted")


def test_a5_the_store_an_application_opens_by_default_starts_at_its_creation() -> None:
    """``open_replay_store("memory")`` (what ``serve`` hands a worker) and the default
    store both refuse a request signed a second before they were made."""
    import time

    for store in (open_replay_store("memory"), MemoryReplayStore()):
        assert isinstance(store, MemoryReplayStore)
        assert store.started_at <= time.time() < store.started_at + 2
        assert store.add_if_absent("nonce-before-start", time.time() + SKEW, signed_at=store.started_at - 1) is False
        assert store.add_if_absent("nonce-after-start", time.time() + SKEW, signed_at=store.started_at) is True


class _Backend:
    implemented_capabilities: frozenset[str] = frozenset()

    def is_ready(self) -> bool:
        return True

    def search(self, query: SearchQuery) -> list[Result]:
        return [Result(document_id="d1", title="T", snippet="S", audience="public")]


def test_a5_over_http_a_restarted_application_answers_a_replay_401_replayed_nonce() -> None:
    """The whole application: a request answered 200 by one application is answered
    ``401 replayed_nonce`` by its successor (a fresh in-memory store), and a request
    signed now still gets 200."""
    import time

    body = json.dumps({"query": "reset password"}).encode()
    old_headers = signed_headers(body, SECRET, timestamp=int(time.time()) - 2)

    async def post(app: object, headers: dict[str, str]) -> httpx.Response:
        transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
        async with httpx.AsyncClient(transport=transport, base_url="http://provider") as client:
            return await client.post("/retrieve", content=body, headers=headers)

    def app() -> object:
        return create_app(_Backend(), ContractSettings(registrations=[REGISTRATION], replay_store=MemoryReplayStore()))

    # The first application started before the request was signed.
    first = create_app(_Backend(), ContractSettings(
        registrations=[REGISTRATION], replay_store=MemoryReplayStore(started_at=time.time() - 60)))
    assert asyncio.run(post(first, old_headers)).status_code == 200
    successor = app()
    replay = asyncio.run(post(successor, old_headers))
    assert replay.status_code == 401 and replay.json()["error"]["code"] == "replayed_nonce"
    assert asyncio.run(post(successor, signed_headers(body, SECRET))).status_code == 200
