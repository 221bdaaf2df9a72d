"""Backend.is_ready() runs off the event loop, at most once per READY_CACHE_S (issue 14):
a readiness check that takes a second (an adapter pinging Confluence) no longer delays
/healthz or other requests."""

from __future__ import annotations

import asyncio
import logging
import threading
import time

import httpx
import pytest

from helpthread_kit import ContractSettings, Exposure, Registration, create_app
from helpthread_kit.readiness import READY_CACHE_S

REGISTRATIONS = [Registration.from_values("cs", Exposure.CUSTOMER_SAFE, ["readiness-test-secret-0123456789-abcd"])]


class SlowReadiness:
    implemented_capabilities: frozenset[str] = frozenset()

    def __init__(self) -> None:
        self.calls = 0
        self.threads: set[str] = set()

    def is_ready(self) -> bool:
        self.calls += 1
        self.threads.add(threading.current_thread().name)
        time.sleep(1.0)
        return True

    def search(self, query: object) -> list[object]:
        return []


def test_a_slow_readiness_check_delays_neither_healthz_nor_itself_twice() -> None:
    backend = SlowReadiness()
    app = create_app(backend, ContractSettings(registrations=REGISTRATIONS))  # type: ignore[arg-type]

    async def scenario() -> tuple[list[int], float, list[int]]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://p") as client:
            ready = asyncio.gather(*(client.get("/readyz") for _ in range(5)))
            await asyncio.sleep(0.1)  # the first check is under way
            started = time.perf_counter()
            health = await client.get("/healthz")
            healthz_s = time.perf_counter() - started
            statuses = [r.status_code for r in await ready]
            again = [(await client.get("/readyz")).status_code for _ in range(5)]  # within the cache period
            return [health.status_code, *statuses], healthz_s, again

    statuses, healthz_s, again = asyncio.run(scenario())
    assert set(statuses) == {200} and again == [200] * 5
    assert healthz_s < 0.3, f"/healthz took {healthz_s:.2f} s while is_ready() ran"
    assert backend.calls == 1, "five concurrent /readyz and five more within the cache period share one check"
    assert threading.main_thread().name not in backend.threads
    assert READY_CACHE_S <= 2.0


class NeverReady(SlowReadiness):
    def is_ready(self) -> bool:
        return False


def test_probes_answered_200_are_logged_at_debug_and_failing_ones_at_info(caplog: pytest.LogCaptureFixture) -> None:
    """An orchestrator probes every few seconds: a 200 probe is a debug line, so the access
    log at info shows the requests; a probe that fails stays at info, where it is looked for."""
    caplog.set_level(logging.DEBUG, logger="provider.access")
    for backend, ready_status in ((SlowReadiness(), 200), (NeverReady(), 503)):
        app = create_app(backend, ContractSettings(registrations=REGISTRATIONS))  # type: ignore[arg-type]

        async def probe(app: object = app) -> list[int]:
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://p") as client:
                return [(await client.get(path)).status_code for path in ("/healthz", "/readyz", "/capabilities")]

        assert asyncio.run(probe())[:2] == [200, ready_status]
    levels = [(r.levelno, r.getMessage().split()[1:3]) for r in caplog.records if r.name == "provider.access"]
    assert (logging.DEBUG, ["/healthz", "200"]) in levels and (logging.DEBUG, ["/readyz", "200"]) in levels
    assert (logging.INFO, ["/readyz", "503"]) in levels
    assert all(level == logging.INFO for level, (path, _) in levels if path == "/capabilities")
    assert not any(level == logging.INFO and status == "200" and path in ("/healthz", "/readyz")
                   for level, (path, status) in levels)


def test_the_starting_state_is_alive_but_serves_nothing() -> None:
    """Issue 27, liveness is not readiness: while serve()'s first worker starts, its
    address answers with starting_app() — /healthz 200, every contract route (signed or
    not) and anything else 503 index_unavailable with Retry-After and the envelope (W7),
    no-store, and the connection closed so the next request can reach a worker."""
    from helpthread_kit.starting import starting_app
    from helpthread_kit.testing import signed_headers

    app = starting_app(retry_after_s=2)
    body = b'{"query":"reset password"}'
    secret = "readiness-test-secret-0123456789-abcd"

    async def scenario() -> list[httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://p") as client:
            return [await client.get("/healthz"), await client.get("/readyz"),
                    await client.post("/retrieve", content=body, headers=signed_headers(body, secret)),
                    await client.get("/capabilities", headers=signed_headers(b"", secret, content_type=None)),
                    await client.post("/healthz"), await client.get("/"), await client.request("OPTIONS", "/retrieve")]

    health, *others = asyncio.run(scenario())
    assert health.status_code == 200 and health.json() == {"contractVersion": 1, "status": "ok"}
    for answer in [health, *others]:
        assert answer.headers["cache-control"] == "no-store" and answer.headers["connection"] == "close"
    for answer in others:
        assert answer.status_code == 503, (answer.request.url, answer.text)
        assert answer.headers["retry-after"] == "2"
        assert answer.json() == {"contractVersion": 1, "error": {
            "code": "index_unavailable", "message": "the search index is not loaded yet; retry shortly"}}
