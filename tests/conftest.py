"""Shared fixtures: real server processes over real HTTP, signed the way the core signs."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

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
) -> ProviderProcess:
    """Start ``knowledge-provider serve`` as a subprocess and wait until it answers."""
    wiki = tmp / "content"
    if content is None:
        shutil.copytree(REPO_ROOT / "content", wiki)
    elif content != wiki:
        shutil.copytree(content, wiki)
    port = free_port()
    settings: dict[str, object] = {"content": str(wiki), "index": str(tmp / "index"), "port": port,
                                   "default_locale": "en", "locales": ["en", "de"]}
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
        stdout=log_file, stderr=subprocess.STDOUT, env=process_env, cwd=tmp,
    )
    server = ProviderProcess(proc=proc, base_url=f"http://127.0.0.1:{port}", log_path=log_path,
                             log_file=log_file, root=tmp, content=wiki)
    server.wait_until_healthy(timeout_s=60)
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

