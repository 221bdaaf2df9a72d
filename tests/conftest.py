"""Shared fixtures: real server processes over real HTTP, signed the way the core signs."""

from __future__ import annotations

import os
import shutil
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support import REPO_ROOT, ProviderProcess, write_config

CUSTOMER_SECRET = "cs-test-secret-0123456789-abcdefghijklmnop"
AGENT_SECRET = "ao-test-secret-0123456789-abcdefghijklmnop"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_provider(
    tmp: Path,
    *,
    content: Path | None = None,
    config: dict[str, object] | None = None,
    env: dict[str, str] | None = None,
    extra_args: tuple[str, ...] = (),
    base_url: str | None = None,
    verify: ssl.SSLContext | bool = True,
    popen: dict[str, Any] | None = None,
    ready_timeout_s: float = 60,
) -> ProviderProcess:
    """Start ``knowledge-provider serve`` as a subprocess and wait until it answers
    (``popen``: more arguments for :class:`subprocess.Popen`, e.g. a session of its own)."""
    tmp.mkdir(parents=True, exist_ok=True)
    wiki = tmp / "content"
    if content is None:
        shutil.copytree(REPO_ROOT / "content", wiki)
    elif content != wiki:
        shutil.copytree(content, wiki)
    port = int((config or {}).get("port", 0)) or free_port()  # type: ignore[call-overload]
    settings: dict[str, object] = {"content": str(wiki), "index": str(tmp / "index"), "port": port,
                                   "default_locale": "en", "locales": ["en", "de"], "metrics_port": 0}
    settings.update(config or {})
    config_path = write_config(tmp / "provider.yaml", settings)
    process_env = {
        **os.environ,
        "KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET": CUSTOMER_SECRET,
        "KNOWLEDGE_PROVIDER_AGENT_ONLY_SECRET": AGENT_SECRET,
        "PYTHONUNBUFFERED": "1",
    }
    process_env.pop("KNOWLEDGE_PROVIDER_CONFIG", None)
    process_env.update(env or {})
    log_path = tmp / "server.log"
    log_file = open(log_path, "wb")  # noqa: SIM115 - closed by ProviderProcess.stop
    proc = subprocess.Popen(
        [sys.executable, "-m", "provider", "serve", "--config", str(config_path), *extra_args],
        stdout=log_file, stderr=subprocess.STDOUT, env=process_env, cwd=tmp, **(popen or {}),
    )
    server = ProviderProcess(proc=proc, base_url=base_url or f"http://127.0.0.1:{port}", log_path=log_path,
                             log_file=log_file, root=tmp, content=wiki, verify=verify)
    server.wait_until_healthy(timeout_s=ready_timeout_s, workers=int(settings.get("workers", 1)))  # type: ignore[call-overload]
    return server


@pytest.fixture(scope="session")
def sample_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProviderProcess]:
    """The shipped sample wiki, served in the default (minimum) configuration."""
    server = start_provider(tmp_path_factory.mktemp("sample"))
    yield server
    server.stop()


@pytest.fixture()
def fresh_server(tmp_path: Path) -> Iterator[ProviderProcess]:
    """A server of its own for tests that change files or depend on process state."""
    server = start_provider(tmp_path)
    yield server
    server.stop()



def _spawn_redis() -> tuple[subprocess.Popen[bytes], str]:
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("KP_REQUIRE_REDIS"):
            pytest.fail("redis-server is required (KP_REQUIRE_REDIS is set) but not installed")
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return proc, f"redis://127.0.0.1:{port}/0"
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError("redis-server did not start")


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A real Redis: the one .ci/run started ($KP_TEST_REDIS_URL), else one of our own."""
    if os.environ.get("KP_TEST_REDIS_URL"):
        yield os.environ["KP_TEST_REDIS_URL"]
        return
    proc, url = _spawn_redis()
    yield url
    proc.terminate()
    proc.wait()


@pytest.fixture()
def disposable_redis() -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A Redis of this test's own, which the test may stop."""
    proc, url = _spawn_redis()
    yield proc, url
    if proc.poll() is None:
        proc.terminate()
        proc.wait()
