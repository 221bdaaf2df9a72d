"""serve()'s worker processes (issue 25): a start-up that takes long is never mistaken
for a hang (uvicorn's supervisor killed workers whose start took more than its 5 s
health-check timeout, in a loop), and a worker that cannot start stops the whole server
once, with its error, instead of being restarted for ever."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import free_port
from tests.support import REPO_ROOT

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


def _serve(factory: str, port: int, tmp_path: Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    script = ("import logging, sys; logging.basicConfig(level=logging.INFO, stream=sys.stderr)\n"
              "from helpthread_kit.serving import WorkerStartFailed, serve\n"
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
    check): both start once and serve; none is replaced."""
    port = free_port()
    proc = _serve("tests.contract.workers_apps:slow_app", port, tmp_path, {"SLOW_START_S": "8"})
    try:
        deadline = time.monotonic() + 90
        answered = False
        while not answered and time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()[1][-3000:]
            try:
                answered = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200
            except httpx.TransportError:
                time.sleep(0.3)
        assert answered
        time.sleep(1)
        assert proc.poll() is None
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=60)
    assert "died" not in stderr and "replacement" not in stderr, stderr[-3000:]
    assert proc.returncode == 0, stderr[-3000:]
