"""Both example adapters, started as their READMEs say (``python -m …``, which runs
helpthread_kit.serving.serve), pass the black-box checker over real HTTP — the
SQLite one with two workers sharing a SQLite replay store."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from helpthread_kit.conformance import Status, check_url, format_text
from tests.support import REPO_ROOT

pytestmark = pytest.mark.timeout(300)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def _adapter(module: str, env: dict[str, str], cwd: Path) -> Iterator[str]:
    proc = subprocess.Popen([sys.executable, "-m", module], cwd=cwd, env={**os.environ, **env},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    port = next(v for k, v in env.items() if k.endswith("_PORT"))
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{module} exited: {proc.stderr.read().decode() if proc.stderr else ''}")
            try:
                if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{module} did not become ready")
            time.sleep(0.2)
        time.sleep(0.5)
        yield url
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        if proc.stderr:
            proc.stderr.close()


def _conforms(url: str, customer: str, agent: str, canaries: tuple[str, ...], drafts: tuple[str, ...] = ()) -> None:
    """Served strict (KNOWLEDGE_PROVIDER_STRICT=1, issue 25): a repair would be a 500."""
    report = check_url(url, customer_safe_secret=customer, agent_only_secret=agent, canary_queries=canaries,
                       draft_canary_queries=drafts, application_only=True, strict_deployment=True)
    assert not report.failed, format_text(report)
    assert report.notes == ()
    for key in ("A5-a-replayed-request-is-refused", "W4-malformed-http-framing-is-refused-nothing-smuggled"):
        assert report.outcome(key).status is Status.PASS


def test_the_json_adapter_served_passes_the_checker() -> None:
    customer, agent = secrets.token_urlsafe(48), secrets.token_urlsafe(48)
    example = REPO_ROOT / "examples" / "json_adapter"
    env = {"JSON_ADAPTER_PUBLIC": str(example / "articles" / "public.json"),
           "JSON_ADAPTER_INTERNAL": str(example / "articles" / "internal.json"),
           "JSON_ADAPTER_CUSTOMER_SAFE_SECRET": customer, "JSON_ADAPTER_AGENT_ONLY_SECRET": agent,
           "JSON_ADAPTER_CAPABILITIES": "retrieve,citationUrl", "JSON_ADAPTER_PORT": str(_free_port()),
           "KNOWLEDGE_PROVIDER_STRICT": "1", "PYTHONPATH": f"{example}{os.pathsep}{REPO_ROOT}"}
    with _adapter("json_adapter", env, example) as url:
        _conforms(url, customer, agent, ("chargeback dossier template",))


def test_the_sqlite_adapter_with_two_workers_passes_the_checker(tmp_path: Path) -> None:
    from sqlite_adapter import create_database

    example = REPO_ROOT / "examples" / "sqlite_adapter"
    database = create_database(tmp_path / "help.db", (example / "articles.sql").read_text("utf-8"))
    customer, agent = secrets.token_urlsafe(48), secrets.token_urlsafe(48)
    env = {"SQLITE_ADAPTER_DATABASE": str(database), "SQLITE_ADAPTER_CUSTOMER_SAFE_SECRET": customer,
           "SQLITE_ADAPTER_AGENT_ONLY_SECRET": agent, "SQLITE_ADAPTER_PORT": str(_free_port()),
           "SQLITE_ADAPTER_WORKERS": "2", "SQLITE_ADAPTER_REPLAY_STORE": f"sqlite://{tmp_path / 'replay.sqlite3'}",
           "KNOWLEDGE_PROVIDER_STRICT": "1", "PYTHONPATH": f"{example}{os.pathsep}{REPO_ROOT}"}
    with _adapter("sqlite_adapter", env, example) as url:
        _conforms(url, customer, agent, ("refund exception ledger", "goodwill credit matrix"),
                  drafts=("pricing change announcement",))


def test_the_sqlite_adapter_refuses_two_workers_without_a_shared_store(tmp_path: Path) -> None:
    from sqlite_adapter import create_database

    example = REPO_ROOT / "examples" / "sqlite_adapter"
    database = create_database(tmp_path / "help.db", (example / "articles.sql").read_text("utf-8"))
    env = {"SQLITE_ADAPTER_DATABASE": str(database), "SQLITE_ADAPTER_CUSTOMER_SAFE_SECRET": secrets.token_urlsafe(48),
           "SQLITE_ADAPTER_PORT": str(_free_port()), "SQLITE_ADAPTER_WORKERS": "2",
           "PYTHONPATH": f"{example}{os.pathsep}{REPO_ROOT}"}
    done = subprocess.run([sys.executable, "-m", "sqlite_adapter"], cwd=example, env={**os.environ, **env},
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "shared replay store" in done.stderr, done.stderr
