"""Crash safety and readiness: kill -9 of the writer at any point leaves an index the
next start serves consistently, without manual steps; /readyz is 503 until loaded."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from provider.indexing import Indexer
from provider.indexing.manifest import Manifest
from provider.search.layout import IndexLayout
from provider.wiki.document import WikiSettings
from tests.conftest import CUSTOMER_SECRET, free_port
from tests.support import ProviderProcess, write_config

pytestmark = pytest.mark.e2e

WORDS = (
    "invoice", "payment", "refund", "account", "password", "export", "report", "customer", "reminder", "tax",
    "bank", "card", "plan", "team", "role", "token", "webhook", "limit", "receipt", "mobile", "sync", "archive",
)


def generate_wiki(root: Path, count: int, seed: int = 7, prefix: str = "gen") -> None:
    rng = random.Random(seed)
    for i in range(count):
        audience = "public" if i % 4 else "internal"
        words = " ".join(rng.choice(WORDS) for _ in range(300))
        path = root / prefix / f"{i // 100:02d}" / f"page-{i:05d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\naudience: {audience}\n---\n# Page {i}\n\n## Section\n\n{words}\n", "utf-8")


def fingerprints(index: Path) -> dict[str, str]:
    layout = IndexLayout(index)
    name = layout.current_name()
    assert name is not None, "no build is published"
    manifest = Manifest.load(layout.build_dir(name) / "manifest.json")
    assert manifest is not None
    return manifest.fingerprints


def fresh_fingerprints(content: Path, index: Path) -> dict[str, str]:
    with Indexer(WikiSettings(root=content), IndexLayout(index)) as indexer:
        indexer.sync()
    return fingerprints(index)


def run_index(config: Path, timeout_s: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "provider", "index", "--config", str(config)],
                          capture_output=True, text=True, timeout=timeout_s)


def kill9_after(config: Path, delay_s: float, args: tuple[str, ...] = ()) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "provider", "index", "--config", str(config), *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay_s)
    proc.send_signal(signal.SIGKILL)
    proc.wait()


def test_kill9_during_first_build_then_restart(tmp_path: Path) -> None:
    """A build killed half-way is never published; the next run finishes without manual
    steps, removes the partial build, and equals a fresh build."""
    content = tmp_path / "content"
    generate_wiki(content, 1200)
    config = write_config(tmp_path / "kp.yaml", {"content": str(content), "index": str(tmp_path / "index")})
    kill9_after(config, 2.0)
    assert IndexLayout(tmp_path / "index").current_name() is None
    result = run_index(config)
    assert result.returncode == 0, result.stderr
    builds = list((tmp_path / "index" / "builds").iterdir())
    assert len(builds) == 1
    assert fingerprints(tmp_path / "index") == fresh_fingerprints(content, tmp_path / "fresh")


@pytest.mark.parametrize("delay_s", [0.3, 0.8, 1.5, 2.5])
def test_kill9_during_incremental_update_then_restart(tmp_path: Path, delay_s: float) -> None:
    """kill -9 while a large batch is being applied: the next start reconciles to exactly
    what a fresh build of the folder gives; the lock of the dead writer is not in the way."""
    content = tmp_path / "content"
    generate_wiki(content, 400)
    config = write_config(tmp_path / "kp.yaml", {"content": str(content), "index": str(tmp_path / "index")})
    assert run_index(config).returncode == 0
    # A branch switch: 300 files rewritten, 100 new, a folder removed.
    generate_wiki(content, 300, seed=99)
    generate_wiki(content, 100, seed=5, prefix="other")
    for path in (content / "gen" / "03").iterdir():
        path.unlink()
    kill9_after(config, delay_s)
    result = run_index(config)
    assert result.returncode == 0, result.stderr
    assert fingerprints(tmp_path / "index") == fresh_fingerprints(content, tmp_path / "fresh")


def test_readyz_503_until_loaded_while_healthz_answers(tmp_path: Path) -> None:
    """/readyz and /retrieve answer 503 (with Retry-After) until the first index is
    loaded; /healthz answers throughout; then /readyz is 200 and searches work."""
    content = tmp_path / "content"
    generate_wiki(content, 1500)
    port = free_port()
    config = write_config(tmp_path / "kp.yaml", {"content": str(content), "index": str(tmp_path / "index"),
                                                 "port": port, "metrics_port": 0})
    env = {**os.environ, "KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET": CUSTOMER_SECRET}
    log_path = tmp_path / "server.log"
    with open(log_path, "wb") as log_file:
        proc = subprocess.Popen([sys.executable, "-m", "provider", "serve", "--config", str(config)],
                                stdout=log_file, stderr=subprocess.STDOUT, env=env)
        server = ProviderProcess(proc=proc, base_url=f"http://127.0.0.1:{port}", log_path=log_path,
                                 log_file=log_file, root=tmp_path, content=content)
        try:
            seen_not_ready = False
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                assert proc.poll() is None, server.log()
                try:
                    ready = httpx.get(f"{server.base_url}/readyz", timeout=2)
                except httpx.TransportError:
                    time.sleep(0.05)
                    continue
                if ready.status_code == 200:
                    break
                assert ready.status_code == 503 and ready.headers["retry-after"].isdigit()
                assert ready.json()["error"]["code"] == "index_unavailable"
                assert httpx.get(f"{server.base_url}/healthz", timeout=2).status_code == 200
                reply = server.retrieve({"query": "invoice"}, CUSTOMER_SECRET)
                assert reply.status in (200, 503)
                if reply.status == 503:
                    assert reply.json()["error"]["code"] == "index_unavailable"
                    seen_not_ready = True
                time.sleep(0.05)
            assert seen_not_ready, "the server was never observed before its index was loaded"
            assert server.retrieve({"query": "invoice"}, CUSTOMER_SECRET).status == 200
        finally:
            server.stop()
