"""Stopping the provider leaves no process behind and makes no noise (issues 3 and 16:
operators run it under docker and systemd, which stop it with SIGTERM, and in a terminal,
where Ctrl-C sends SIGINT to the whole process group; a crash or SIGKILL must not leak).

``serve`` reads files in parser processes (a forkserver, its workers, multiprocessing's
resource tracker). uvicorn ends the process by re-raising the signal after its graceful
shutdown, which used to skip every cleanup and leave those four processes to init, print
"leaked semaphore objects" warnings (SIGTERM), or a KeyboardInterrupt traceback per
parser process (Ctrl-C). A stop now logs one line and exits 0, whatever the worker count.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, free_port, start_provider
from tests.support import REPO_ROOT, write_config

#: What a stop must never print.
NOISE = ("Traceback", "KeyboardInterrupt", "leaked semaphore", "resource_tracker", "ERROR", "WARNING")


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


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("how", ["SIGTERM to the process", "Ctrl-C (SIGINT to the process group)"])
def test_a_stop_is_one_line_and_status_0_and_leaves_nothing_running(tmp_path: Path, workers: int, how: str) -> None:
    config: dict[str, object] = {"workers": workers}
    if workers > 1:
        config["replay_store"] = "sqlite"
    server = start_provider(tmp_path, config=config, popen={"start_new_session": True})
    try:
        helpers = descendants(server.proc.pid)
        assert helpers, "serve read the wiki in parser processes; the test needs them to exist"
        # Each worker warms its build's spelling vocabularies right after ready and logs
        # it: wait for that line, so that only the stop is printed after the signal.
        deadline = time.monotonic() + 30
        while server.log().count(" warm in ") < workers and time.monotonic() < deadline:
            time.sleep(0.1)
        before = len(server.log().splitlines())
        if how.startswith("SIGTERM"):
            server.proc.send_signal(signal.SIGTERM)
        else:
            os.killpg(server.proc.pid, signal.SIGINT)
        returncode = server.proc.wait(timeout=30)
    finally:
        server.stop()
    assert wait_until_gone(helpers, timeout_s=10) == set()
    # The resource tracker prints its warnings as it exits, after the server process.
    time.sleep(0.5)
    stop_lines = server.log().splitlines()[before:]
    printed = [line for line in stop_lines if "provider.access" not in line]
    assert not [line for line in printed if any(word in line for word in NOISE)], printed
    expected = "SIGTERM" if how.startswith("SIGTERM") else "SIGINT"
    assert len(printed) == 1 and f"stopped ({expected})" in printed[0], printed
    assert returncode == 0


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
    assert proc.returncode == 0, stderr  # a planned stop of a long-running command
    assert "stopped (SIGTERM)" in stderr and "Traceback" not in stderr and "leaked" not in stderr, stderr
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


@pytest.mark.parametrize("delay_s", [0.0, 0.15, 0.4, 1.0])
def test_an_interrupted_one_shot_index_exits_with_the_signal_status(tmp_path: Path, delay_s: float) -> None:
    """``index`` without --watch did not finish its work: 128 + SIGTERM, no traceback —
    also when the signal comes while a reader process is being forked (short delays
    after the forkserver appears: a child its owner did not know of printed a
    ``FileNotFoundError`` traceback on 10 of 12 such stops under load)."""
    (tmp_path / "wiki").mkdir()
    (tmp_path / "wiki" / "slow.md").write_text("[" * 1_500_000, "utf-8")  # parses for seconds
    config = write_config(tmp_path / "kp.yaml", {"content": str(tmp_path / "wiki"), "index": str(tmp_path / "ix")})
    proc = subprocess.Popen([sys.executable, "-m", "provider", "index", "--config", str(config)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not descendants(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.01)  # the forkserver started: reader processes are being started
        time.sleep(delay_s)
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 128 + signal.SIGTERM, stderr
    assert "stopped (SIGTERM)" in stderr and not any(word in stderr for word in NOISE), stderr


def test_a_stop_during_the_first_build_says_stopped_last(tmp_path: Path) -> None:
    """SIGTERM while the first index build still runs: the "stopped … no process is left
    running" line comes after every indexing line (it was logged before the indexing
    thread and its reader processes had ended, so later lines contradicted it)."""
    wiki = tmp_path / "wiki"
    for n in range(2500):
        page = wiki / f"p{n // 100}" / f"page-{n}.md"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f"---\naudience: public\ntitle: Page {n}\n---\n\n"
                        + f"Words of page {n} about topic {n % 37}. " * 40, "utf-8")
    config = write_config(tmp_path / "kp.yaml", {"content": str(wiki), "index": str(tmp_path / "ix"),
                                                 "port": free_port(), "metrics_port": 0})
    env = {**os.environ, "KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET": CUSTOMER_SECRET,
           "KNOWLEDGE_PROVIDER_AGENT_ONLY_SECRET": AGENT_SECRET, "PYTHONUNBUFFERED": "1"}
    log_path = tmp_path / "serve.log"
    with open(log_path, "wb") as log_file:
        proc = subprocess.Popen([sys.executable, "-m", "provider", "serve", "--config", str(config)],
                                stdout=log_file, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        try:
            deadline = time.monotonic() + 90
            while "Serving" not in log_path.read_text("utf-8") and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(1.0)  # into the build
            assert "Index built" not in log_path.read_text("utf-8"), "the build must still run at the signal"
            helpers = descendants(proc.pid)
            proc.send_signal(signal.SIGTERM)
            returncode = proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert wait_until_gone(helpers, timeout_s=10) == set()
    time.sleep(0.5)
    lines = [line for line in log_path.read_text("utf-8").splitlines()
             if line.strip() and "provider.access" not in line]
    assert "stopped (SIGTERM)" in lines[-1], lines[-6:]
    assert returncode == 0
