"""The contract application with backends of our own making, in process: load shedding
(W7), the customer_safe tripwire (X2/X6), unexpected backend errors never leak."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Sequence

import httpx
import pytest

from helpthread_kit import (
    ContractSettings,
    Exposure,
    MemoryReplayStore,
    Registration,
    Result,
    SearchQuery,
    create_app,
)
from helpthread_kit.testing import signed_headers

CS = "customer-safe-secret-0123456789-abcdefgh"
AO = "agent-only-secret-0123456789-abcdefghijk"
REGISTRATIONS = [
    Registration.from_values("customer_safe", Exposure.CUSTOMER_SAFE, [CS]),
    Registration.from_values("agent_only", Exposure.AGENT_ONLY, [AO]),
]


class SlowBackend:
    implemented_capabilities: frozenset[str] = frozenset()

    def __init__(self, delay_s: float) -> None:
        self.delay_s = delay_s
        self.calls = 0
        self._lock = threading.Lock()

    def is_ready(self) -> bool:
        return True

    def search(self, query: SearchQuery) -> Sequence[Result]:
        with self._lock:
            self.calls += 1
        time.sleep(self.delay_s)
        return [Result(document_id="d1", title="T", snippet="S", audience="public")]


class LeakyBackend:
    """A broken backend that returns an internal document to everyone."""

    implemented_capabilities: frozenset[str] = frozenset({"scoring"})

    def is_ready(self) -> bool:
        return True

    def search(self, query: SearchQuery) -> Sequence[Result]:
        return [
            Result(document_id="secret", title="Secret", snippet="internal text", audience="internal", score=0.9),
            Result(document_id="open", title="Open", snippet="public text", audience="public", score=0.5),
            Result(document_id="odd", title="Odd", snippet="x", audience="Public"),
        ]


class CrashingBackend:
    implemented_capabilities: frozenset[str] = frozenset()

    def is_ready(self) -> bool:
        return True

    def search(self, query: SearchQuery) -> Sequence[Result]:
        raise RuntimeError("disk on fire /srv/secret/path")


async def _post(client: httpx.AsyncClient, secret: str, payload: dict[str, object]) -> httpx.Response:
    body = json.dumps(payload).encode()
    return await client.post("http://provider/retrieve", content=body, headers=signed_headers(body, secret))


def _client(backend: object, **settings: object) -> httpx.AsyncClient:
    app = create_app(backend, ContractSettings(registrations=REGISTRATIONS, replay_store=MemoryReplayStore(),
                                               **settings))  # type: ignore[arg-type]
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app))


def test_w7_overload_is_503_with_retry_after_at_once() -> None:
    """W7: beyond max_in_flight searches, the answer is an immediate 503 overloaded with
    Retry-After — never a hang and never a 500 — and health keeps answering."""
    backend = SlowBackend(delay_s=0.5)

    async def scenario() -> tuple[list[httpx.Response], float, int]:
        async with _client(backend, max_in_flight=2, search_threads=2, retry_after_s=3) as client:
            tasks = [asyncio.create_task(_post(client, CS, {"query": "x"})) for _ in range(8)]
            await asyncio.sleep(0.1)
            started = time.monotonic()
            health = await client.get("http://provider/healthz")
            health_s = time.monotonic() - started
            return list(await asyncio.gather(*tasks)), health_s, health.status_code

    replies, health_s, health_status = asyncio.run(scenario())
    statuses = sorted(r.status_code for r in replies)
    assert statuses.count(200) == 2 and statuses.count(503) == 6
    for reply in replies:
        if reply.status_code == 503:
            assert reply.headers["retry-after"] == "3"
            assert reply.json() == {"contractVersion": 1, "error": {"code": "overloaded",
                                                                    "message": reply.json()["error"]["message"]}}
    assert backend.calls == 2
    assert health_status == 200 and health_s < 0.3


def test_w7_requests_beyond_the_process_limit_get_the_envelope_503_with_retry_after() -> None:
    """W7: beyond ``max_requests`` requests in the application at once (any route), the
    answer is ``503 overloaded`` in the envelope with ``Retry-After`` at once — the
    application's own limit, below uvicorn's ``limit_concurrency``, whose ``503`` is
    plain text without ``Retry-After``. Liveness (``/healthz``) still answers."""
    backend = SlowBackend(delay_s=0.5)

    async def scenario() -> tuple[list[httpx.Response], int, int]:
        async with _client(backend, max_requests=3, max_in_flight=100, search_threads=8, retry_after_s=2) as client:
            tasks = [asyncio.create_task(_post(client, CS, {"query": "x"})) for _ in range(8)]
            await asyncio.sleep(0.1)
            health = await client.get("http://provider/healthz")
            capabilities = await client.get("http://provider/capabilities")
            replies = list(await asyncio.gather(*tasks))
            after = await _post(client, CS, {"query": "x"})
            return [*replies, after], health.status_code, capabilities.status_code

    replies, health, capabilities = asyncio.run(scenario())
    statuses = [r.status_code for r in replies]
    assert sorted(statuses[:8]).count(200) == 3 and statuses[:8].count(503) == 5
    for reply in replies[:8]:
        if reply.status_code == 503:
            assert reply.headers["retry-after"] == "2"
            assert reply.json()["contractVersion"] == 1 and reply.json()["error"]["code"] == "overloaded"
    assert health == 200 and capabilities == 503  # every route counts but liveness
    assert statuses[8] == 200  # the count comes back down
    assert backend.calls == 4


def test_max_requests_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="max_requests"):
        ContractSettings(registrations=REGISTRATIONS, max_requests=0)


def test_x2_x6_r4_response_layer_drops_what_a_broken_backend_leaks() -> None:
    """X2/X6: even if a backend returns an internal result to customer_safe, it is dropped;
    an unrecognised audience is dropped for everyone; R4: score is absent while scoring is
    not declared."""

    async def scenario() -> tuple[dict[str, object], dict[str, object]]:
        async with _client(LeakyBackend()) as client:
            customer = (await _post(client, CS, {"query": "x"})).json()
            agent = (await _post(client, AO, {"query": "x"})).json()
            return customer, agent

    customer, agent = asyncio.run(scenario())
    assert [r["documentId"] for r in customer["results"]] == ["open"]  # type: ignore[index]
    assert [r["documentId"] for r in agent["results"]] == ["secret", "open"]  # type: ignore[index]
    for result in customer["results"] + agent["results"]:  # type: ignore[operator]
        assert "score" not in result


def test_backend_crash_is_a_plain_500_envelope_without_details() -> None:
    """A backend bug is answered with the error envelope and no internal detail."""

    async def scenario() -> httpx.Response:
        async with _client(CrashingBackend()) as client:
            return await _post(client, CS, {"query": "x"})

    reply = asyncio.run(scenario())
    assert reply.status_code == 500
    assert reply.json() == {"contractVersion": 1, "error": {"code": "internal_error", "message": "internal error"}}
    assert b"/srv/secret" not in reply.content


class _Ready:
    implemented_capabilities: frozenset[str] = frozenset()

    def is_ready(self) -> bool:
        return True

    def search(self, query: SearchQuery) -> Sequence[Result]:
        return []


def test_w4_options_and_oversized_headers_get_the_envelope() -> None:
    """W4: OPTIONS (which the framework would answer 204 without a body) and headers over
    16 KiB are answered with the contract's envelope."""

    async def scenario() -> tuple[httpx.Response, httpx.Response]:
        async with _client(_Ready()) as client:
            options = await client.options("http://provider/retrieve")
            huge = await client.get("http://provider/healthz", headers={"X-Padding": "x" * 20_000})
            return options, huge

    options, huge = asyncio.run(scenario())
    assert options.status_code == 405 and options.json()["error"]["code"] == "method_not_allowed"
    assert huge.status_code == 431 and huge.json()["contractVersion"] == 1
    assert huge.json()["error"]["code"] == "payload_too_large"


def test_a_body_that_does_not_arrive_in_time_is_refused() -> None:
    """A client trickling its body is answered 400 after body_timeout_s, freeing the slot."""
    from helpthread_kit import create_app as make

    app = make(_Ready(), ContractSettings(registrations=REGISTRATIONS, body_timeout_s=0.3))
    sent: list[dict[str, object]] = []

    async def scenario() -> None:
        messages = [{"type": "http.request", "body": b'{"query"', "more_body": True}]

        async def receive() -> dict[str, object]:
            if messages:
                return messages.pop()
            await asyncio.sleep(5)
            return {"type": "http.disconnect"}

        async def send(message: dict[str, object]) -> None:
            sent.append(message)

        scope = {"type": "http", "http_version": "1.1", "method": "POST", "path": "/retrieve", "raw_path": b"/retrieve",
                 "query_string": b"", "root_path": "", "scheme": "http", "server": ("provider", 80),
                 "client": ("127.0.0.1", 1), "headers": [(b"content-type", b"application/json")]}
        await asyncio.wait_for(app(scope, receive, send), timeout=3)

    asyncio.run(scenario())
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")  # type: ignore[misc]
    assert start["status"] == 400 and json.loads(body)["error"]["message"].startswith("body: not received")


class _DownStore:
    def add_if_absent(self, nonce: str, expires_at: float) -> bool:
        from helpthread_kit import ReplayStoreUnavailable

        raise ReplayStoreUnavailable("replay store unreachable (test)")

    def ping(self) -> None:
        from helpthread_kit import ReplayStoreUnavailable

        raise ReplayStoreUnavailable("replay store unreachable (test)")


def test_a5_readyz_reports_an_unreachable_replay_store() -> None:
    """A5: while the replay store is down every request is refused 503, and /readyz says
    so, so a load balancer stops sending traffic."""
    from helpthread_kit import create_app as make

    app = make(_Ready(), ContractSettings(registrations=REGISTRATIONS, replay_store=_DownStore()))  # type: ignore[arg-type]

    async def scenario() -> tuple[httpx.Response, httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app)) as client:
            ready = await client.get("http://provider/readyz")
            reply = await _post(client, CS, {"query": "x"})
            return ready, reply

    ready, reply = asyncio.run(scenario())
    assert ready.status_code == 503 and ready.headers["retry-after"].isdigit()
    assert reply.status_code == 503 and reply.headers["retry-after"].isdigit()
