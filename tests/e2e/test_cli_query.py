"""`knowledge-provider query` against a real server: what the README's first step shows."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import CUSTOMER_SECRET
from tests.support import ProviderProcess


def query(server: ProviderProcess, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET": CUSTOMER_SECRET}
    env.pop("KNOWLEDGE_PROVIDER_AGENT_ONLY_SECRET", None)
    return subprocess.run([sys.executable, "-m", "provider", "query", *args, "--url", server.base_url],
                          capture_output=True, text=True, env=env, timeout=60, check=False)


def test_prints_ranked_plain_text_results(sample_server: ProviderProcess) -> None:
    result = query(sample_server, "reset password")
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first.startswith("1. ") and "[public]" in first and "reset-password" in first


def test_json_is_the_provider_answer(sample_server: ProviderProcess) -> None:
    result = query(sample_server, "reset password", "--json", "--limit", "2")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["contractVersion"] == 1 and 1 <= len(answer["results"]) <= 2


def test_a_locale_the_provider_ignores_is_pointed_out(sample_server: ProviderProcess) -> None:
    """The sample server declares only `retrieve`, so it ignores `locale` (Q3): say so."""
    result = query(sample_server, "reset password", "--locale", "de")
    assert result.returncode == 0, result.stderr
    assert "does not declare the `locale` capability" in result.stderr
    assert "does not declare" not in query(sample_server, "reset password").stderr
