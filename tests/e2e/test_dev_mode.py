"""`serve --dev` and `query`: the README's first command and the tutorial's queries, as a
newcomer runs them."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.conftest import free_port
from tests.support import REPO_ROOT


def _env(state: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KNOWLEDGE_PROVIDER_")}
    return {**env, "XDG_STATE_HOME": str(state), "PYTHONUNBUFFERED": "1"}


@contextmanager
def dev_server(tmp: Path, state: Path) -> Iterator[tuple[str, subprocess.Popen[str], Path]]:
    port = free_port()
    content = tmp / "content"
    if not content.exists():
        shutil.copytree(REPO_ROOT / "content", content)
    log = tmp / f"serve-{port}.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "provider", "serve", "--dev", "--content", str(content),
             "--index", str(tmp / f"index-{port}"), "--port", str(port), "--metrics-port", "0"],
            stdout=out, stderr=subprocess.STDOUT, text=True, env=_env(state), cwd=tmp)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and proc.poll() is None:
                try:
                    if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
            yield base, proc, log
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=20)


def test_dev_secrets_are_stored_0600_never_printed_and_used_by_query(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with dev_server(tmp_path, state) as (base, _, log):
        path = state / "knowledge-provider" / f"dev-{base.rsplit(':', 1)[1]}.json"
        stored = json.loads(path.read_text("utf-8"))
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        printed = log.read_text("utf-8")
        for secret in stored["secrets"].values():
            assert secret not in printed  # a log is no place for a credential
        assert str(path) in printed  # where they are instead
        result = subprocess.run([sys.executable, "-m", "provider", "query", "reset password"],
                                capture_output=True, text=True, env=_env(state), timeout=60, check=False)
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("1. ") and "[public]" in result.stdout.splitlines()[0]
        assert stored["url"] == base
    # Stopped: this run's secrets and run files are gone, the index is kept for the next start.
    index = tmp_path / f"index-{base.rsplit(':', 1)[1]}"
    assert not path.exists()
    assert sorted(p.name for p in (index / "state").iterdir()) == []
    assert (index / "CURRENT").is_file()


def test_two_dev_servers_on_two_ports_keep_their_own_secrets(tmp_path: Path) -> None:
    """A second `serve --dev` on another port no longer overwrites the first one's
    secrets: `query --url` finds each server's own, and `query` without `--url` asks
    which one."""
    state = tmp_path / "state"
    with dev_server(tmp_path, state) as (first, _, _), dev_server(tmp_path, state) as (second, _, log):
        assert "another `serve --dev`" not in log.read_text("utf-8")
        for base in (first, second):
            result = subprocess.run([sys.executable, "-m", "provider", "query", "reset password", "--url", base],
                                    capture_output=True, text=True, env=_env(state), timeout=60, check=False)
            assert result.returncode == 0, result.stderr
            assert f"{base}/retrieve" in result.stderr
        both = subprocess.run([sys.executable, "-m", "provider", "query", "reset password"],
                              capture_output=True, text=True, env=_env(state), timeout=60, check=False)
        assert both.returncode == 1
        assert "2 `serve --dev` servers are running" in both.stderr and "pass --url" in both.stderr
        assert first in both.stderr and second in both.stderr
