"""Production serving end to end: several workers, shared replay stores, load shedding,
log secrecy, TLS, metrics (CONTRACT A5, A6, O1, O2, W7)."""

from __future__ import annotations

import json
import os
import re
import shutil
import ssl
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from helpthread_kit.testing import signed_headers
from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, free_port, start_provider
from tests.support import REPO_ROOT, ProviderProcess

pytestmark = pytest.mark.e2e

BODY = json.dumps({"query": "reset password"}).encode()


def _fresh_client_post(server: ProviderProcess, body: bytes, headers: dict[str, str]) -> httpx.Response:
    # A new connection per request, so the kernel may hand it to any worker.
    with httpx.Client(base_url=server.base_url, timeout=20) as client:
        return client.post("/retrieve", content=body, headers=headers)


def _worker_pids(server: ProviderProcess) -> set[str]:
    return set(re.findall(r"\[(\d+)\] provider\.access: POST /retrieve", server.log()))


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory: pytest.TempPathFactory) -> ProviderProcess:
    server = start_provider(tmp_path_factory.mktemp("workers"), config={"workers": 2})
    # /healthz answered by one worker says nothing of the other: wait until fresh
    # connections (spread over both) all get answers, so no test meets a worker that is
    # still opening the index (503 index_unavailable) on a loaded machine.
    deadline = time.monotonic() + 60
    streak = 0
    while streak < 12 and time.monotonic() < deadline:
        ok = _fresh_client_post(server, BODY, signed_headers(BODY, CUSTOMER_SECRET)).status_code == 200
        streak = streak + 1 if ok else 0
        if not ok:
            time.sleep(0.2)
    yield server  # type: ignore[misc]
    server.stop()


def test_a5_replay_to_another_worker_is_refused(two_workers: ProviderProcess) -> None:
    """A5: with two workers sharing the embedded store, a replay is refused whichever
    worker receives it."""
    for _ in range(10):
        headers = signed_headers(BODY, CUSTOMER_SECRET)
        assert _fresh_client_post(two_workers, BODY, headers).status_code == 200
        for _ in range(4):
            again = _fresh_client_post(two_workers, BODY, headers)
            assert again.status_code == 401 and again.json()["error"]["code"] == "replayed_nonce"
    assert len(_worker_pids(two_workers)) == 2, "both workers served requests"


def test_a5_concurrent_duplicates_exactly_one_200(two_workers: ProviderProcess) -> None:
    """A5: 24 simultaneous copies of one signed request: exactly one is answered 200."""
    for _ in range(3):
        headers = signed_headers(BODY, CUSTOMER_SECRET)
        barrier = threading.Barrier(24)

        def send(_: int, barrier: threading.Barrier = barrier, headers: dict[str, str] = headers) -> int:
            barrier.wait()
            return _fresh_client_post(two_workers, BODY, headers).status_code

        with ThreadPoolExecutor(24) as pool:
            statuses = list(pool.map(send, range(24)))
        assert statuses.count(200) == 1 and statuses.count(401) == 23


def test_a5_replay_across_two_servers_sharing_redis(tmp_path: Path, redis_url: str) -> None:
    """A5: two provider processes (two replicas) sharing Redis refuse each other's replays."""
    content = tmp_path / "content"
    shutil.copytree(REPO_ROOT / "content", content)
    a = start_provider(tmp_path / "a", content=content, config={"replay_store": redis_url})
    b = start_provider(tmp_path / "b", content=content, config={"replay_store": redis_url})
    try:
        headers = signed_headers(BODY, AGENT_SECRET)
        assert _fresh_client_post(a, BODY, headers).status_code == 200
        replay = _fresh_client_post(b, BODY, headers)
        assert replay.status_code == 401 and replay.json()["error"]["code"] == "replayed_nonce"
    finally:
        a.stop()
        b.stop()


def test_a5_replay_store_down_is_503_never_accepted(
    tmp_path: Path, disposable_redis: tuple[subprocess.Popen[bytes], str]
) -> None:
    """A5/W7: with the shared store unreachable the provider fails closed: 503 with
    Retry-After, never an unchecked 200; it recovers when the store is back."""
    proc, url = disposable_redis
    server = start_provider(tmp_path, config={"replay_store": url})
    try:
        assert server.retrieve({"query": "invoice"}, CUSTOMER_SECRET).status == 200
        proc.terminate()
        proc.wait()
        reply = server.retrieve({"query": "invoice"}, CUSTOMER_SECRET)
        assert reply.status == 503 and reply.headers["retry-after"].isdigit()
        assert server.raw("GET", "/healthz").status == 200
    finally:
        server.stop()


def test_w7_load_shedding_503_with_retry_after_and_no_500(tmp_path: Path) -> None:
    """W7: beyond max_in_flight searches the answer is an immediate 503 overloaded with
    Retry-After; nothing is a 500; health keeps answering."""
    server = start_provider(tmp_path, config={"max_in_flight": 1, "search_threads": 1, "cache_entries": 0})
    try:
        queries = ["invoice payment reminder account export tax bank refund password team api webhook"] * 60

        def send(i: int) -> tuple[int, str | None]:
            body = json.dumps({"query": f"{queries[i]} {i}", "limit": 50}).encode()
            reply = _fresh_client_post(server, body, signed_headers(body, AGENT_SECRET))
            return reply.status_code, reply.headers.get("retry-after")

        with ThreadPoolExecutor(30) as pool:
            futures = [pool.submit(send, i) for i in range(60)]
            health = [httpx.get(f"{server.base_url}/healthz", timeout=5).status_code for _ in range(5)]
            answers = [f.result() for f in futures]
        statuses = [status for status, _ in answers]
        assert 500 not in statuses
        assert statuses.count(503) >= 1 and statuses.count(200) >= 1
        assert all(retry and retry.isdigit() for status, retry in answers if status == 503)
        assert set(health) == {200}
    finally:
        server.stop()


@pytest.mark.parametrize("log_format", ["plain", "json"])
def test_a6_o2_debug_logs_never_carry_secrets_signatures_nonces_or_queries(tmp_path: Path, log_format: str) -> None:
    """A6/O2: a full session at debug level — valid requests on both registrations, bad
    signatures, replays, bad bodies, capabilities — leaves no secret, signature, nonce or
    query text anywhere in the output."""
    server = start_provider(tmp_path, config={"log_level": "debug", "log_format": log_format})
    sensitive: set[str] = {CUSTOMER_SECRET, AGENT_SECRET}
    try:
        queries = ["private customer words alpha", "zanzibar-unique-query", "passwort zurücksetzen geheim"]
        for i, query in enumerate(queries):
            sensitive.add(query)
            body = json.dumps({"query": query, "limit": 3, "context": {"conversationId": f"conv-{i}-secret"}}).encode()
            for secret in (CUSTOMER_SECRET, AGENT_SECRET, "w" * 40):
                headers = signed_headers(body, secret)
                sensitive.add(headers["X-Helpthread-Request"])
                parts = headers["X-Helpthread-Signature"].split(", ")
                sensitive.update(part[3:] for part in parts if part.startswith("v1="))
                server.raw("POST", "/retrieve", body=body, headers=headers)
                server.raw("POST", "/retrieve", body=body, headers=headers)  # replay
        bad = b'{"query": "broken-json-query-words", '
        sensitive.add("broken-json-query-words")
        headers = signed_headers(bad, CUSTOMER_SECRET)
        sensitive.add(headers["X-Helpthread-Request"])
        server.raw("POST", "/retrieve", body=bad, headers=headers)
        caps = signed_headers(b"", AGENT_SECRET, content_type=None)
        sensitive.add(caps["X-Helpthread-Request"])
        server.raw("GET", "/capabilities", headers=caps)
        time.sleep(0.5)
    finally:
        server.stop()
    log = server.log()
    assert "DEBUG" in log or '"level": "DEBUG"' in log, "the session really ran at debug level"
    assert log.count("/retrieve") >= 18, "the access log is there"
    leaked = sorted(value for value in sensitive if value in log)
    assert not leaked, f"found in the logs: {leaked}"
    if log_format == "json":
        access = [json.loads(line) for line in log.splitlines() if line.startswith("{") and "provider.access" in line]
        fields = {"http_status", "duration_ms", "registration", "result_count", "request_digest"}
        assert access and fields <= set(access[0])


def test_o1_https_with_the_dev_certificate(tmp_path: Path) -> None:
    """O1: the provider terminates TLS itself with --ssl-certfile/--ssl-keyfile; a client
    trusting the dev certificate gets signed answers over https."""
    cert_dir = tmp_path / "cert"
    made = subprocess.run(
        [sys.executable, "-m", "provider", "dev-cert", "--out", str(cert_dir)],
        capture_output=True, text=True, timeout=60,
    )
    assert made.returncode == 0, made.stderr
    assert (cert_dir / "key.pem").stat().st_mode & 0o077 == 0
    port = free_port()
    trust = ssl.create_default_context(cafile=str(cert_dir / "cert.pem"))
    server = start_provider(
        tmp_path, config={"port": port, "ssl_certfile": str(cert_dir / "cert.pem"),
                          "ssl_keyfile": str(cert_dir / "key.pem")},
        base_url=f"https://127.0.0.1:{port}", verify=trust,
    )
    try:
        body = json.dumps({"query": "reset password"}).encode()
        reply = httpx.post(f"https://127.0.0.1:{port}/retrieve", content=body,
                           headers=signed_headers(body, CUSTOMER_SECRET), verify=trust)
        assert reply.status_code == 200 and reply.json()["results"]
        with pytest.raises(httpx.TransportError):
            httpx.post(f"http://127.0.0.1:{port}/retrieve", content=body,
                       headers=signed_headers(body, CUSTOMER_SECRET), timeout=5)
    finally:
        server.stop()


def test_metrics_exposed_on_loopback_and_counting(tmp_path: Path) -> None:
    """Metrics: Prometheus text on a separate loopback port, counting requests by route
    and status, replay refusals, documents by audience, index generation, last scan."""
    metrics_port = free_port()
    server = start_provider(tmp_path, config={"metrics_port": metrics_port})
    try:
        for _ in range(3):
            assert server.retrieve({"query": "invoice"}, CUSTOMER_SECRET).status == 200
        headers = signed_headers(BODY, CUSTOMER_SECRET)
        server.raw("POST", "/retrieve", body=BODY, headers=headers)
        server.raw("POST", "/retrieve", body=BODY, headers=headers)
        text = httpx.get(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5).text

        def value(pattern: str) -> float:
            match = re.search(r"^" + pattern + r" ([0-9.e+]+)$", text, re.MULTILINE)
            assert match, f"{pattern} not in metrics"
            return float(match.group(1))

        assert value(r'knowledge_provider_requests_total\{route="/retrieve",status="200"\}') >= 4
        assert value(r'knowledge_provider_requests_total\{route="/retrieve",status="401"\}') >= 1
        assert value(r'knowledge_provider_auth_refusals_total\{code="replayed_nonce"\}') >= 1
        # 48 / 12: rule 6d's words path counts only scarce words (held by at most 3 public pages), so
        # en/mobile/offline-mode.md, which shares a topic's vocabulary with receipt-scanning.md, stays public.
        assert value(r'knowledge_provider_documents\{audience="public"\}') == 48
        assert value(r'knowledge_provider_documents\{audience="internal"\}') == 12
        assert value(r"knowledge_provider_index_generation") >= 1
        assert value(r"knowledge_provider_last_scan_timestamp") > time.time() - 600
        assert value(r'knowledge_provider_request_seconds_count\{route="/retrieve"\}') >= 5
        assert "reset password" not in text and CUSTOMER_SECRET not in text
        # Loopback only by default: not reachable on another local address.
        with pytest.raises(httpx.TransportError):
            httpx.get(f"http://127.0.0.2:{metrics_port}/metrics", timeout=2)

        # A second `serve` of the same index (other ports) is refused on the writer lock
        # and leaves the running server's per-process metrics files alone.
        second = subprocess.run(
            [sys.executable, "-m", "provider", "serve", "--config", str(tmp_path / "provider.yaml"),
             "--port", str(free_port()), "--metrics-port", str(free_port())],
            capture_output=True, text=True, timeout=120, cwd=tmp_path,
            env={**os.environ, "KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET": CUSTOMER_SECRET,
                 "KNOWLEDGE_PROVIDER_AGENT_ONLY_SECRET": AGENT_SECRET})
        assert second.returncode == 1, second.stdout + second.stderr
        after = httpx.get(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5).text
        assert re.search(r'^knowledge_provider_requests_total\{route="/retrieve",status="200"\} ([4-9]|\d\d)',
                         after, re.MULTILINE), after
    finally:
        server.stop()
