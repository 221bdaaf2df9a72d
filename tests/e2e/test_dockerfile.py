"""The Dockerfile, step by step, outside Docker (no engine here): a clean virtual
environment installs the package as the image would, the entry point serves the sample
wiki with its secret from a ``…_FILE`` variable, and the HEALTHCHECK command passes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support import REPO_ROOT

pytestmark = pytest.mark.e2e


def test_dockerfile_steps_run_and_the_container_answers() -> None:
    result = subprocess.run([sys.executable, str(REPO_ROOT / "scripts" / "check_dockerfile.py")],
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "HEALTHCHECK passed" in result.stdout and "signed query answered" in result.stdout
