"""Workers survive a busy machine (issue 25; CONTRACT W7): two workers started and
serving while one busy loop per core saturates every CPU for a minute — no worker is
ever restarted, and every request is answered (``2xx``, or ``503`` with
``Retry-After`` from the search deadline or an overload: the contract's way to say
"later").

uvicorn's own supervisor once pinged workers every 5 s and killed those that did not
answer in time — a worker still opening its index on a busy machine — in a loop. Our
supervisor (:mod:`helpthread_kit.serving`) pings nothing; this test is the proof
under real contention.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, start_provider
from tests.e2e.test_process_model import answering_pids
from tests.e2e.test_shutdown import descendants
from tests.support import ProviderProcess, Reply

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]

#: How long the CPUs are saturated while requests are sent, in seconds.
BUSY_S = 60.0
#: How long start-up may take on the saturated machine (shared by other jobs too), in seconds.
STARTUP_S = 240.0
QUERIES = ("refund", "invoice", "reset password", "export data", "what's my invoice?")


def _busy_loops() -> list[subprocess.Popen[bytes]]:
    """One process per core spinning at full speed (normal priority, like any busy job)."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 1)]


def _answered(reply: Reply) -> bool:
    return 200 <= reply.status < 300 or (reply.status == 503 and bool(reply.headers.get("Retry-After")))


def _client(server: ProviderProcess, deadline: float, seen: list[str], failures: list[str], number: int) -> None:
    sent = 0
    while time.monotonic() < deadline:
        sent += 1
        try:
            if sent % 3 == 0:
                reply = server.capabilities(AGENT_SECRET)
                what = "GET /capabilities"
            else:
                query = QUERIES[(sent + number) % len(QUERIES)]
                secret = CUSTOMER_SECRET if sent % 2 else AGENT_SECRET
                reply = server.retrieve({"query": query, "limit": 5}, secret)
                what = f"POST /retrieve {query!r}"
        except httpx.HTTPError as exc:
            failures.append(f"client {number} request {sent}: no answer ({type(exc).__name__}: {exc})")
            continue
        seen.append(f"{reply.status}")
        if not _answered(reply):
            failures.append(f"client {number} {what}: {reply.status} {reply.body[:200]!r}")


def test_two_workers_on_a_saturated_machine_never_restart_and_answer_everything(tmp_path: Path) -> None:
    """W7: started on a machine already busy, then a minute of requests under full CPU
    contention — the two workers stay the same two processes and every request gets an
    answer."""
    loops = _busy_loops()
    server: ProviderProcess | None = None
    try:
        # Started on the already busy machine: start-up may be slow, never a restart.
        server = start_provider(tmp_path, config={"workers": 2}, ready_timeout_s=STARTUP_S)
        workers = descendants(server.proc.pid)
        deadline = time.monotonic() + BUSY_S
        seen: list[str] = []
        failures: list[str] = []
        clients = [threading.Thread(target=_client, args=(server, deadline, seen, failures, n)) for n in range(2)]
        for client in clients:
            client.start()
        for client in clients:
            client.join()
        log = server.log()
        assert server.proc.poll() is None, log[-3000:]
        assert "died" not in log and "starting a replacement" not in log, log[-3000:]
        assert answering_pids(server) <= workers, (answering_pids(server), workers)
        assert descendants(server.proc.pid) >= answering_pids(server)
        assert not failures, failures[:10]
        assert len(seen) >= 20, f"only {len(seen)} requests in {BUSY_S:g} s"
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
        if server is not None:
            server.stop()
