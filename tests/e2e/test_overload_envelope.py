"""W7 on a real server (stock uvicorn under ``serve()``): requests beyond the
application's own limit (``ContractSettings.max_requests``) are answered ``503
overloaded`` in the contract's envelope with ``Retry-After`` — never uvicorn's own
``503`` (plain text, no ``Retry-After``), which ``limit_concurrency`` (``max_connections``)
only gives beyond the application's limit."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from helpthread_kit.testing import signed_headers
from tests.conformance.broken.providers import CUSTOMER_SECRET
from tests.conftest import free_port
from tests.support import REPO_ROOT

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

MAX_REQUESTS = 4
SENT = 12


def _post(port: int) -> httpx.Response:
    body = b'{"query":"refund"}'
    headers = signed_headers(body, CUSTOMER_SECRET)
    with httpx.Client(timeout=30) as client:  # a connection of its own
        return client.post(f"http://127.0.0.1:{port}/retrieve", content=body, headers=headers)


def test_w7_beyond_the_application_limit_the_503_is_the_envelope_with_retry_after(tmp_path: Path) -> None:
    port = free_port()
    script = ("from helpthread_kit.serving import serve\n"
              f"serve('tests.contract.workers_apps:slow_search_app', port={port}, max_connections=64)\n")
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "SLOW_SEARCH_S": "2", "MAX_REQUESTS": str(MAX_REQUESTS)}
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-c", script], cwd=REPO_ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log.read_text(errors="replace")[-3000:]
            try:
                # /readyz, not /healthz: the starting state answers /healthz before a worker serves.
                if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "not ready"
            time.sleep(0.2)
        with ThreadPoolExecutor(SENT) as pool:
            replies = list(pool.map(_post, [port] * SENT))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    statuses = sorted(r.status_code for r in replies)
    assert set(statuses) <= {200, 503}, statuses
    assert 1 <= statuses.count(200) <= MAX_REQUESTS, statuses
    assert statuses.count(503) >= SENT - MAX_REQUESTS, statuses
    for reply in replies:
        if reply.status_code == 503:
            assert reply.headers.get("retry-after") == "1", reply.headers
            assert reply.headers["content-type"].startswith("application/json"), reply.text
            assert reply.json()["contractVersion"] == 1 and reply.json()["error"]["code"] == "overloaded"
