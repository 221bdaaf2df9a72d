"""The contract application with backends of our own making, in process: load shedding
(W7), the customer_safe tripwire (X2/X6), unexpected backend errors never leak."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Sequence

import httpx

from provider.contract import (
    ContractSettings,
    Exposure,
    MemoryReplayStore,
    Registration,
    Result,
    SearchQuery,
    create_app,
)
from provider.contract.testing import signed_headers

CS = "c" * 40
AO = "a" * 40
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
