"""A worker that ``serve()``'s supervisor starts to replace a dead one begins with an
empty in-memory replay store: it refuses what was signed before it began, which the
dead worker may have seen (CONTRACT A5; docs/how-to/scale.md "Replay memory"). A provider that has
just started accepts the whole window (A4).

Real verifiers and HMAC signatures; the last test serves a real application with
``serve()`` in its own process and kills its worker."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from helpthread_kit import ContractSettings, Exposure, Registration, Result, SearchQuery, create_app
from helpthread_kit.app import ASGIApp
from helpthread_kit.errors import ReplayedNonce
from helpthread_kit.replay import REPLACEMENT_ENV, MemoryReplayStore, open_replay_store
from helpthread_kit.signature import Verifier
from helpthread_kit.testing import signed_headers
from tests.support import REPO_ROOT

SECRET = "restart-test-secret-0123456789-abcdefghij"
REGISTRATION = Registration.from_values("customer", Exposure.CUSTOMER_SAFE, [SECRET])
T0 = 1_800_000_000
SKEW = 300
NONCES = st.from_regex(r"[A-Za-z0-9._~-]{8,40}", fullmatch=True)


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _header(body: bytes, timestamp: int, nonce: str) -> str:
    return signed_headers(body, SECRET, timestamp=timestamp, nonce=nonce)["X-Helpthread-Signature"]


@settings(max_examples=200, deadline=None)
@given(signed=st.integers(min_value=-SKEW + 2, max_value=0), down_s=st.floats(min_value=0.0, max_value=SKEW - 2),
       nonce=NONCES)
@example(signed=0, down_s=0.0, nonce="same-second-0001")  # replaced within the second it was signed in
@example(signed=0, down_s=0.49, nonce="same-second-0002")
def test_a5_a_replacement_worker_refuses_a_replay_of_what_the_dead_worker_saw(
    signed: int, down_s: float, nonce: str
) -> None:
    """A5: whenever inside the window a request was signed and accepted by the dead
    worker's store, its replay to the replacement's store is refused as a replay — also
    when the supervisor replaced the worker within the very second the request was
    signed in (the replacement's start second is refused too)."""
    clock = Clock(T0 + signed + 0.5)
    body = json.dumps({"query": "reset password"}).encode()
    header = _header(body, T0 + signed, nonce)
    dead = Verifier([REGISTRATION], MemoryReplayStore(clock=clock), clock=clock)
    assert dead.verify(header, body) is REGISTRATION
    clock.now = T0 + signed + 0.5 + down_s  # the replacement starts, still inside the window
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(REPLACEMENT_ENV, "1")
        replacement = Verifier([REGISTRATION], MemoryReplayStore(clock=clock), clock=clock)
    if clock.now - (T0 + signed) > SKEW:
        return
    with pytest.raises(ReplayedNonce) as refused:
        replacement.verify(header, body)
    assert refused.value.code == "replayed_nonce" and refused.value.status == 401


@settings(max_examples=100, deadline=None)
@given(offset=st.integers(min_value=1, max_value=SKEW), nonce=NONCES)
def test_a5_a_replacement_accepts_what_is_signed_after_its_first_second_once(offset: int, nonce: str) -> None:
    """A5: the start floor refuses nothing signed after the replacement's first
    second; those are refused only when replayed."""
    clock = Clock(T0 + 0.75)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(REPLACEMENT_ENV, "1")
        store = MemoryReplayStore(clock=clock)
    assert store.started_at == T0
    verifier = Verifier([REGISTRATION], store, clock=clock)
    clock.now = T0 + offset + 0.25
    body = b'{"query":"invoice"}'
    header = _header(body, T0 + offset, nonce)
    assert verifier.verify(header, body) is REGISTRATION
    with pytest.raises(ReplayedNonce):
        verifier.verify(header, body)


@settings(max_examples=50, deadline=None)
@given(start=st.floats(min_value=0.0, max_value=0.999), later=st.floats(min_value=0.0, max_value=SKEW), nonce=NONCES)
def test_a5_a_replacement_refuses_what_is_signed_in_its_start_second(start: float, later: float, nonce: str) -> None:
    """A5: a request signed in the second the replacement began (which the dead worker
    may have seen) is refused as a replay whenever it arrives, even never seen."""
    clock = Clock(T0 + start)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(REPLACEMENT_ENV, "1")
        verifier = Verifier([REGISTRATION], MemoryReplayStore(clock=clock), clock=clock)
    clock.now = T0 + start + min(later, SKEW - start)
    body = b'{"query":"invoice"}'
    with pytest.raises(ReplayedNonce):
        verifier.verify(_header(body, T0, nonce), body)


@settings(max_examples=50, deadline=None)
@given(offset=st.integers(min_value=-SKEW, max_value=SKEW), nonce=NONCES)
def test_a4_a_store_outside_a_replacement_worker_accepts_the_whole_window(offset: int, nonce: str) -> None:
    """A4: a provider that has just started (its first workers, or an application made
    outside ``serve``) accepts every timestamp inside the window."""
    assert REPLACEMENT_ENV not in os.environ
    clock = Clock(T0)
    for store in (MemoryReplayStore(clock=clock), open_replay_store("memory")):
        body = b'{"query":"refund"}'
        verifier = Verifier([REGISTRATION], store, clock=clock)
        assert verifier.verify(_header(body, T0 + offset, nonce), body) is REGISTRATION


class _Backend:
    implemented_capabilities: frozenset[str] = frozenset()

    def is_ready(self) -> bool:
        return True

    def search(self, query: SearchQuery) -> list[Result]:
        return [Result(document_id="d1", title="T", snippet="S", audience="public")]


def make_app() -> ASGIApp:
    """The application each worker of the served test builds (an import string for ``serve``)."""
    return create_app(_Backend(), ContractSettings(registrations=[REGISTRATION]))


def _workers(pid: int) -> list[int]:
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    found = []
    for child in children:
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(int(child))
        except OSError:
            continue
    return found


@pytest.mark.timeout(120)
def test_a5_served_a_killed_worker_s_replacement_refuses_its_replays(tmp_path: Path) -> None:
    """A5 with a real ``serve(own_process=True)``: a request answered 200 (signed 200 s
    ago: a fresh provider accepts the window, A4), its worker killed (SIGKILL) and
    replaced by the supervisor, the same bytes sent again are answered ``401
    replayed_nonce``; a request signed after the replacement's start second is
    answered 200."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    code = ("from helpthread_kit.serving import serve; "
            f"serve('tests.contract.test_replay_restart:make_app', port={port}, own_process=True, "
            "log_config=None)")
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    env.pop(REPLACEMENT_ENV, None)
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=REPO_ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    body = json.dumps({"query": "reset password"}).encode()

    def post(headers: dict[str, str]) -> httpx.Response:
        return httpx.post(f"{base}/retrieve", content=body, headers=headers, timeout=10)

    def wait_healthy(deadline: float) -> None:
        while time.monotonic() < deadline:
            assert proc.poll() is None, "serve() exited"
            try:
                # /readyz, not /healthz: the starting state answers /healthz before a worker serves.
                if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        raise AssertionError("the server did not answer /healthz")

    try:
        wait_healthy(time.monotonic() + 60)
        seen = signed_headers(body, SECRET, timestamp=int(time.time()) - 200)
        assert post(seen).status_code == 200
        (first,) = _workers(proc.pid)
        os.kill(first, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while not [pid for pid in _workers(proc.pid) if pid != first]:
            assert time.monotonic() < deadline, "the worker was not replaced"
            time.sleep(0.1)
        wait_healthy(deadline)
        replay = post(seen)
        assert replay.status_code == 401, replay.text
        assert replay.json()["error"]["code"] == "replayed_nonce"
        # The replacement refuses its start second too (the dead worker may have seen a
        # request signed in it); it started before it answered /healthz, so a request
        # signed from the next second on is one it can judge.
        time.sleep(1.05 - time.time() % 1)
        assert post(signed_headers(body, SECRET)).status_code == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
