"""The process model of ``serve`` (CONTRACT X7 under load, issue 15): the process that
writes the index never answers a search, whatever the worker count.

``serve`` is the one writer (it holds ``index/writer.lock``, follows the folder and
commits); searches are answered by worker processes it starts — one by default — at a
lower CPU priority (``serving_niceness``), so an edit is indexed on its own interpreter
lock and wins the CPU from busy searches. A worker that dies is replaced; a writer that
dies takes its workers with it; a stop is one line, status 0, nothing left running.
"""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import pytest

from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, start_provider
from tests.e2e.test_shutdown import alive, descendants, wait_until_gone
from tests.support import ProviderProcess, wait_for

pytestmark = pytest.mark.e2e

ARTICLE = "en/billing/requesting-a-refund.md"
DOC_ID = "en/billing/requesting-a-refund"


def answering_pids(server: ProviderProcess) -> set[int]:
    """Processes that logged answering ``POST /retrieve`` (the access log names its pid)."""
    return {int(pid) for pid in re.findall(r"\[(\d+)\] provider\.access: POST /retrieve", server.log())}


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def lock_holders(lock: Path) -> set[int]:
    """Processes holding an flock on ``lock``, from /proc/locks (device and inode)."""
    st = lock.stat()
    holders = set()
    for line in Path("/proc/locks").read_text().splitlines():
        fields = [field for field in line.split() if field != "->"]  # "->": a waiter
        if "FLOCK" not in fields:
            continue
        pid, where = fields[4], fields[5]
        inode = int(where.rsplit(":", 1)[1])
        if inode == st.st_ino:
            holders.add(int(pid))
    return holders


def open_files(pid: int) -> set[str]:
    found = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            found.add(os.readlink(fd))
        except OSError:
            continue
    return found


def searched_pid(server: ProviderProcess, timeout_s: float = 30.0) -> int:
    """Send searches until one is answered and logged; return the answering pid."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        reply = server.retrieve({"query": "refund"}, CUSTOMER_SECRET)
        if reply.status == 200 and answering_pids(server):
            return max(answering_pids(server), key=lambda pid: server.log().rfind(f"[{pid}]"))
        time.sleep(0.1)
    raise AssertionError(f"no search was answered in {timeout_s}s:\n{server.log()}")


def found(server: ProviderProcess, secret: str) -> bool:
    reply = server.retrieve({"query": "refund", "limit": 50}, secret)
    assert reply.status == 200, reply.body
    return DOC_ID in {r["documentId"] for r in reply.json()["results"]}


@pytest.mark.parametrize("workers", [1, 2])
def test_the_writer_is_never_a_serving_process(tmp_path: Path, workers: int) -> None:
    """X7 under load: with one worker as with two, searches are answered by children of
    ``serve``, which alone holds the writer lock; the children run ``serving_niceness``
    (default 5) steps below it; an edit made public → internal still leaves
    customer_safe answers; SIGTERM stops everything with one line and status 0."""
    server = start_provider(tmp_path, config={"workers": workers})
    try:
        writer = server.proc.pid
        worker = searched_pid(server)
        assert worker != writer, "a search was answered by the process that writes the index"
        assert parent_of(worker) == writer
        lock = tmp_path / "index" / "writer.lock"
        assert lock_holders(lock) == {writer}
        assert str(lock) not in open_files(worker), "a serving worker holds the writer lock's file open"
        assert os.getpriority(os.PRIO_PROCESS, worker) - os.getpriority(os.PRIO_PROCESS, writer) == min(
            5, 19 - os.getpriority(os.PRIO_PROCESS, writer))

        assert found(server, CUSTOMER_SECRET)
        path = server.content / ARTICLE
        path.write_text(path.read_text("utf-8").replace("audience: public", "audience: internal"), "utf-8")
        wait_for(lambda: not found(server, CUSTOMER_SECRET), "the withdrawn article to leave customer_safe")
        assert found(server, AGENT_SECRET)

        family = descendants(writer)
        server.proc.send_signal(signal.SIGTERM)
        server.proc.wait(timeout=30)
    finally:
        server.stop()
    assert server.proc.returncode == 0, server.log()
    assert server.log().count("stopped (SIGTERM)") == 1, server.log()
    assert wait_until_gone(family, timeout_s=15) == set()


def test_a_niceness_of_0_serves_at_the_writers_priority(tmp_path: Path) -> None:
    server = start_provider(tmp_path, config={"serving_niceness": 0})
    try:
        worker = searched_pid(server)
        assert worker != server.proc.pid
        assert os.getpriority(os.PRIO_PROCESS, worker) == os.getpriority(os.PRIO_PROCESS, server.proc.pid)
    finally:
        server.stop()


def test_a_dead_worker_is_replaced_and_a_dead_writer_takes_its_worker_along(tmp_path: Path) -> None:
    """One worker is supervised as several are: killed, it is restarted and the server
    answers again; the writer killed (SIGKILL: nothing can be cleaned up), the worker
    stops by itself rather than serve an index nobody keeps current."""
    server = start_provider(tmp_path)
    try:
        first = searched_pid(server)
        os.kill(first, signal.SIGKILL)
        wait_for(lambda: first not in alive({first}) and bool(
            [pid for pid in descendants(server.proc.pid) if pid != first]), "the worker to be restarted")
        second = None
        deadline = time.monotonic() + 60
        while second in (None, first) and time.monotonic() < deadline:
            try:
                second = searched_pid(server, timeout_s=5)
            except Exception:
                time.sleep(0.2)
        assert second not in (None, first), server.log()
        assert parent_of(second) == server.proc.pid  # type: ignore[arg-type]

        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait(timeout=10)
    finally:
        server.stop()
    assert wait_until_gone({second}, timeout_s=15) == set()  # type: ignore[arg-type]
