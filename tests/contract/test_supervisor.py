"""serve()'s worker processes (issue 25): a start-up that takes long is never mistaken
for a hang (uvicorn's supervisor killed workers whose start took more than its 5 s
health-check timeout, in a loop), and a worker that cannot start stops the whole server
once, with its error, instead of being restarted for ever."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from helpthread_kit.testing import signed_headers
from tests.conftest import free_port
from tests.support import REPO_ROOT

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


def _serve(factory: str, port: int, tmp_path: Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    script = ("import logging, os, sys; logging.basicConfig(level=logging.INFO, stream=sys.stderr)\n"
              "from helpthread_kit import serving\n"
              "from helpthread_kit.serving import WorkerStartFailed, serve\n"
              # The one shared listening socket serve() uses where SO_REUSEPORT does not spread.
              "if os.environ.get('HELPTHREAD_TEST_SHARED_LISTENER'):\n"
              "    serving.reuse_port_supported = lambda: False\n"
              # A thread of Python work beside the supervisor's, as the provider's index writer.
              "if os.environ.get('HELPTHREAD_TEST_BUSY_SUPERVISOR'):\n"
              "    import threading\n"
              "    threading.Thread(target=lambda: [sum(range(1000)) for _ in iter(int, 1)], daemon=True).start()\n"
              "try:\n"
              f"    serve({factory!r}, port={port}, workers=2, replay_store={f'sqlite://{tmp_path}/replay.db'!r})\n"
              "except WorkerStartFailed:\n"
              "    sys.exit(1)  # logged once by serve()\n")
    return subprocess.Popen([sys.executable, "-c", script], cwd=REPO_ROOT, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, **(env or {}), "PYTHONPATH": str(REPO_ROOT)})


def test_a_worker_that_cannot_start_stops_the_server_once_with_its_error(tmp_path: Path) -> None:
    proc = _serve("tests.contract.workers_apps:memory_store_app", free_port(), tmp_path)
    try:
        _, stderr = proc.communicate(timeout=90)
    finally:
        proc.kill()
    assert proc.returncode not in (0, None)
    assert stderr.count("a worker could not start") == 1, stderr[-3000:]
    assert "MemoryReplayStore is a per-process replay store, but 2 workers serve" in stderr
    assert "starting a replacement" not in stderr  # no restart loop


def test_a_slow_start_is_waited_for_not_killed(tmp_path: Path) -> None:
    """Each worker takes 8 s to build its application (more than uvicorn's 5 s health
    check): both start once and serve; none is replaced. Meanwhile the address answers
    (issue 27, liveness is not readiness): ``/healthz`` 200, ``/readyz`` and a search
    ``503 index_unavailable`` with ``Retry-After`` — before any worker serves."""
    port = free_port()
    started = time.monotonic()
    proc = _serve("tests.contract.workers_apps:slow_app", port, tmp_path, {"SLOW_START_S": "8"})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        first: dict[str, float] = {}
        standing_in: list[httpx.Response] = []
        while "ready" not in first and time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()[1][-3000:]
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    first.setdefault("healthz", time.monotonic() - started)
                ready = httpx.get(f"{base}/readyz", timeout=2)
                if ready.status_code == 200:
                    first["ready"] = time.monotonic() - started
                elif not standing_in:
                    standing_in += [ready, httpx.post(f"{base}/retrieve", json={"query": "x"}, timeout=2)]
            except httpx.TransportError:
                time.sleep(0.1)
        assert "ready" in first, first
        # The workers built their applications for 8 s each: liveness answered well before.
        assert first["healthz"] < first["ready"] - 4, first
        for answer in standing_in:
            assert answer.status_code == 503 and answer.headers["retry-after"].isdigit(), answer.text
            assert answer.json()["error"]["code"] == "index_unavailable"
            assert answer.headers["cache-control"] == "no-store"
        time.sleep(1)
        assert proc.poll() is None
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=60)
    assert "died" not in stderr and "replacement" not in stderr, stderr[-3000:]
    assert proc.returncode == 0, stderr[-3000:]


@dataclass
class _Answer:
    """One request of the hammering clients: when it was sent and answered (monotonic
    seconds), and its status, or the transport error's name."""

    path: str
    sent: float
    received: float
    status: int | None = None
    error: str | None = None
    code: str | None = None


def _hammer(base: str, stop: threading.Event, answers: list[_Answer], readyz: bool) -> None:
    """Until ``stop``: each request on a new connection (where the kernel picks a
    listener), ``/readyz`` or a signed search alternately (``readyz``) or searches only."""
    from tests.conformance.broken.providers import CUSTOMER_SECRET

    turn = 0
    while not stop.is_set():
        turn += 1
        path = "/readyz" if readyz and turn % 2 else "/retrieve"
        sent = time.monotonic()
        try:
            if path == "/readyz":
                reply = httpx.get(f"{base}/readyz", timeout=10)
            else:
                body = json.dumps({"query": "reset password", "maxResults": 3}).encode()
                reply = httpx.post(f"{base}/retrieve", content=body, headers=signed_headers(body, CUSTOMER_SECRET),
                                   timeout=10)
        except httpx.TransportError as exc:
            answers.append(_Answer(path, sent, time.monotonic(), error=type(exc).__name__))
            time.sleep(0.05)
            continue
        code = reply.json().get("error", {}).get("code") if reply.status_code >= 400 else None
        answers.append(_Answer(path, sent, time.monotonic(), reply.status_code, code=code))


@pytest.mark.parametrize("listeners", ["SO_REUSEPORT", "shared"])
def test_no_starting_answer_once_ready_was_seen(tmp_path: Path, listeners: str) -> None:
    """Issue 27, the hand-over: six clients hammer the address with ``/readyz`` and signed
    searches, each request on a new connection, from before the server listens until
    after both workers serve. Once any client has seen ``/readyz`` 200, no request sent
    afterwards is answered 503 (the starting state), and from the first answer on no
    request fails at the transport (no reset, no refused connection). Both listener
    modes: a ``SO_REUSEPORT`` socket per worker (Linux), and the one shared listening
    socket the other systems get (chosen here as serve() chooses it elsewhere)."""
    port = free_port()
    env = {"SLOW_START_S": "3", "HELPTHREAD_TEST_BUSY_SUPERVISOR": "1"}
    if listeners == "shared":
        env["HELPTHREAD_TEST_SHARED_LISTENER"] = "1"
    proc = _serve("tests.contract.workers_apps:slow_app", port, tmp_path, env)
    base = f"http://127.0.0.1:{port}"
    stop = threading.Event()
    answers: list[list[_Answer]] = [[] for _ in range(6)]
    clients = [threading.Thread(target=_hammer, args=(base, stop, mine, n % 3 != 2)) for n, mine in enumerate(answers)]
    try:
        for client in clients:
            client.start()
        deadline = time.monotonic() + 90
        ready_at: float | None = None
        while time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()[1][-3000:]
            seen = [a.received for mine in answers for a in list(mine) if a.path == "/readyz" and a.status == 200]
            if seen and ready_at is None:
                ready_at = min(seen)
            # Past the second worker's start (3 s more), when it takes its share of connections.
            if ready_at is not None and time.monotonic() > ready_at + 6:
                break
            time.sleep(0.2)
        stop.set()
        for client in clients:
            client.join(20)
    finally:
        stop.set()
        proc.terminate()
        _, stderr = proc.communicate(timeout=60)
    every = sorted((a for mine in answers for a in mine), key=lambda a: a.sent)
    ready = min((a.received for a in every if a.path == "/readyz" and a.status == 200), default=None)
    assert ready is not None, stderr[-3000:]
    first_answer = min(a.received for a in every if a.status is not None)
    starting = [a for a in every if a.status == 503 and a.received < ready]
    assert starting and all(a.code == "index_unavailable" for a in starting), "the starting state answered"
    after = [a for a in every if a.sent > ready]
    assert len(after) >= 20, len(after)
    assert not [a for a in after if a.status != 200], [a for a in after if a.status != 200][:5]
    failed = [a for a in every if a.error is not None and a.sent > first_answer]
    assert not failed, failed[:5]
    assert "died" not in stderr and "replacement" not in stderr, stderr[-3000:]


def test_the_hand_over_answers_what_the_starting_state_accepted_and_keeps_the_queue() -> None:
    """The starting state's stop, over real sockets (issue 27): a connection it accepted
    whose request comes only after the stop began still gets its full ``503`` (never a
    reset, never silence), and ``stop()`` returns only once that connection is answered
    and closed; a connection that arrives after it stopped accepting is not touched — it
    waits in the listening socket's queue for the first worker, who accepts it there."""
    import socket

    from helpthread_kit.serving import ReusePortListener, _StartingState, uvicorn_options

    request = b"GET /readyz HTTP/1.1\r\nHost: p\r\n\r\n"
    bound = ReusePortListener.create("127.0.0.1", 0)
    state = _StartingState(bound, uvicorn_options())
    address = state.listener.getsockname()[:2]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # until its uvicorn serves
        try:
            if httpx.get(f"http://{address[0]}:{address[1]}/healthz", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.05)
    early = socket.create_connection(address)
    time.sleep(0.5)  # accepted by the starting state, no request yet
    worker_side = state.listener.dup()  # what the first worker holds
    stopping = threading.Thread(target=state.stop)
    stopping.start()
    time.sleep(0.5)
    assert stopping.is_alive(), "stop() returned while a connection it accepted was open"
    late = socket.create_connection(address)  # after it stopped accepting
    late.sendall(request)
    early.sendall(request)
    answer = b""
    while chunk := early.recv(65536):
        answer += chunk
    early.close()
    assert answer.startswith(b"HTTP/1.1 503 "), answer[:200]
    assert b'"code":"index_unavailable"' in answer and b"connection: close" in answer.lower()
    stopping.join(30)
    assert not stopping.is_alive()
    worker_side.settimeout(5)
    accepted, _ = worker_side.accept()  # the late connection, still queued and unanswered
    accepted.settimeout(5)
    assert accepted.recv(65536) == request
    accepted.close()
    late.close()
    worker_side.close()
    bound.close()
