"""The Dockerfile, step by step, outside Docker (no engine here): a clean virtual
environment installs the package as the image would — every dependency pinned by
constraints.txt — the entry point serves the sample wiki with its secret from a
``…_FILE`` variable, the HEALTHCHECK command passes as written (also with TLS and other
ports in a mounted configuration), and the metrics listen on every interface (issue 16)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import free_port
from tests.support import REPO_ROOT, ProviderProcess, write_config

pytestmark = pytest.mark.e2e


@pytest.mark.timeout(900)  # a fresh environment's pip install, then two container runs
def test_dockerfile_steps_run_and_the_container_answers() -> None:
    result = subprocess.run([sys.executable, str(REPO_ROOT / "scripts" / "check_dockerfile.py")],
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    out = result.stdout
    assert "installed distributions is pinned in constraints.txt" in out
    assert "(needs root; not applied) apt-get install -y --no-install-recommends git" in out
    assert out.count("HEALTHCHECK passed") == 2 and "HEALTHCHECK passed: healthy: https://" in out
    assert out.count("signed query answered") == 2
    assert "metrics reachable on 0.0.0.0" in out


def healthcheck(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "provider", "healthcheck", *args], capture_output=True, text=True,
                          timeout=60, check=False)


def test_healthcheck_probes_where_the_running_server_listens(sample_server: ProviderProcess) -> None:
    result = healthcheck("--config", str(sample_server.root / "provider.yaml"))
    assert result.returncode == 0, result.stderr
    assert f"{sample_server.base_url}/healthz" in result.stdout and "from serve (pid" in result.stdout


def test_healthcheck_fails_with_1_when_nothing_answers(tmp_path: Path) -> None:
    config = write_config(tmp_path / "kp.yaml", {"port": free_port(), "ssl_certfile": "c.pem", "ssl_keyfile": "k.pem"})
    result = healthcheck("--config", str(config))
    assert result.returncode == 1  # Docker reserves 2
    assert "unhealthy: https://127.0.0.1:" in result.stderr and "from the configuration" in result.stderr
