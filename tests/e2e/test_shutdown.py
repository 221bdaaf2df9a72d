"""Stopping the provider leaves no process behind (issue 3: operators run it under
docker and systemd, which stop it with SIGTERM; a crash or SIGKILL must not leak either).

``serve`` reads files in parser processes (a forkserver, its workers, multiprocessing's
resource tracker). uvicorn ends the process by re-raising SIGTERM after its graceful
shutdown, which used to skip every cleanup and leave those four processes to init.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import start_provider
from tests.support import REPO_ROOT, write_config


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (children, grandchildren, …), from /proc."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    todo.append(child)
    return found


def alive(pids: set[int]) -> set[int]:
    living = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            living.add(pid)
    return living


def wait_until_gone(pids: set[int], timeout_s: float) -> set[int]:
    deadline = time.monotonic() + timeout_s
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive(pids)


def test_sigterm_stops_serve_and_every_process_it_started(tmp_path: Path) -> None:
    server = start_provider(tmp_path)
    try:
        helpers = descendants(server.proc.pid)
        assert helpers, "serve read the wiki in parser processes; the test needs them to exist"
        server.proc.send_signal(signal.SIGTERM)
        returncode = server.proc.wait(timeout=20)
    finally:
        server.stop()
    assert returncode == -signal.SIGTERM  # still reports "terminated by SIGTERM"
    assert wait_until_gone(helpers, timeout_s=10) == set()
    assert "Finished server process" in server.log()


def test_sigterm_stops_index_watch_and_releases_the_writer_lock(tmp_path: Path) -> None:
    config = write_config(tmp_path / "kp.yaml", {"content": str(REPO_ROOT / "content"), "index": str(tmp_path / "ix"),
                                                 "locales": ["en", "de"]})
    proc = subprocess.Popen([sys.executable, "-m", "provider", "index", "--watch", "--config", str(config)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "ix" / "CURRENT").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)
        helpers = descendants(proc.pid)
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == -signal.SIGTERM, stderr
    assert wait_until_gone(helpers, timeout_s=10) == set()
    again = subprocess.run([sys.executable, "-m", "provider", "index", "--config", str(config)],
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr


def test_parser_processes_exit_when_the_writer_is_killed(tmp_path: Path) -> None:
    """SIGKILL cannot be caught: the reader processes notice their parent is gone."""
    server = start_provider(tmp_path)
    try:
        helpers = descendants(server.proc.pid)
        assert helpers
        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait(timeout=10)
    finally:
        server.stop()
    assert wait_until_gone(helpers, timeout_s=15) == set()
