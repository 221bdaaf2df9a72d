"""A reader process whose parent is killed mid-file leaves at once, not when the file
is done (readers ignore SIGTERM by design: the process that started them decides when
they stop; CONTRACT X7's reader processes must not outlive it as orphans)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from provider.wiki.files import DEFAULT_MAX_FILE_BYTES
from tests.support import REPO_ROOT

#: Read by a process that reads one slow file (a run of ``[``, under the size limit: a
#: file over it is skipped before anything parses it) with a 600 s time limit, and
#: prints its reader's pid once that reader has started on the file.
PARENT = """
import sys, threading, time
from pathlib import Path
from provider.wiki.document import WikiSettings
from provider.wiki.reader import DocumentReader

def announce(reader):
    while True:
        for worker in list(reader._workers):
            if worker.current == "slow.md":
                print(worker.process.pid, flush=True)
                return
        time.sleep(0.05)

if __name__ == "__main__":  # forkserver children import this module again
    reader = DocumentReader(WikiSettings(root=Path(sys.argv[1])), timeout_s=600, processes=1)
    threading.Thread(target=announce, args=(reader,), daemon=True).start()
    for relpath, outcome in reader.read(["slow.md"]):
        print("read", relpath, type(outcome).__name__, flush=True)
"""


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; only its parent's wait is missing


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.timeout(120)
def test_a_reader_whose_parent_is_killed_mid_file_exits_within_seconds(tmp_path: Path) -> None:
    slow = "[" * 2_000_000  # about a minute of parsing
    assert len(slow) < DEFAULT_MAX_FILE_BYTES
    (tmp_path / "slow.md").write_text(slow, "utf-8")
    script = tmp_path / "parent.py"
    script.write_text(PARENT, "utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    parent = subprocess.Popen([sys.executable, str(script), str(tmp_path)], stdout=subprocess.PIPE, text=True,
                              env=env, cwd=tmp_path)
    reader_pid = 0
    try:
        assert parent.stdout is not None
        reader_pid = int(parent.stdout.readline())
        # Mid-file: the reader is parsing (its CPU time grows), far from done.
        before = _cpu_ticks(reader_pid)
        time.sleep(2.0)
        assert _cpu_ticks(reader_pid) - before >= 5  # CPU time grows (even on a busy machine): parsing
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 5
        while _running(reader_pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running(reader_pid), "the reader kept parsing after its parent was killed"
    finally:
        parent.kill()
        parent.wait(timeout=10)
        if parent.stdout is not None:
            parent.stdout.close()
        if reader_pid and _running(reader_pid):
            os.kill(reader_pid, signal.SIGKILL)
