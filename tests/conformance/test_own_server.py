"""Our own server passes the conformance checker (issue 7, contract §8.2): a real
``knowledge-provider serve`` process, in the minimum and in the full configuration."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpthread_kit.conformance import Report, Status, check_url, format_text
from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, free_port, start_provider
from tests.support import ProviderProcess

pytestmark = pytest.mark.e2e

#: Phrases of the sample wiki that occur only in internal articles.
CANARIES = ("refund exception ledger", "goodwill credit matrix", "Tier-3 escalation bridge", "fraud hold override")
#: Phrases of the sample wiki that occur only in a draft (content/en/invoices/e-invoicing-xrechnung.md).
DRAFT_CANARIES = ("e-invoice validator beta", "Leitweg-ID")
#: What cannot be judged against the minimum configuration: no freshness, no url, no overload;
#: and W4 on requests that never reach the application, the reverse proxy's duty (served
#: here without it; tests/e2e/test_reverse_proxy.py checks it through the proxy).
MINIMUM_SKIPS = {"R6", "R7", "W7", "W4", "R2"}
#: R2 among them: its two-run check (documentId across a restart, --document-ids) only
#: records on a single run; its other checks pass.


def _run(url: str) -> Report:
    return check_url(url, customer_safe_secret=CUSTOMER_SECRET, agent_only_secret=AGENT_SECRET,
                     canary_queries=CANARIES, draft_canary_queries=DRAFT_CANARIES, application_only=True)


def _by_status(report: Report, status: Status) -> set[str]:
    return {o.id for o in report.outcomes if o.status is status}


def test_minimum_configuration_conforms(sample_server: ProviderProcess) -> None:
    """Every check passes except the three that cannot be judged without optional
    capabilities or load — which proves the others really ran rather than skipped."""
    report = _run(sample_server.base_url)
    assert not report.failed, format_text(report)
    assert _by_status(report, Status.SKIP) == MINIMUM_SKIPS, format_text(report)
    assert "declares retrieve" in next(o.reason for o in report.outcomes if o.id == "C3")


def test_full_configuration_conforms(tmp_path: Path) -> None:
    """``capabilities: all`` declares every capability the backend implements (all but
    semanticSearch), with citation URLs configured: the capability-driven checks follow
    /capabilities, so Q3/Q4 validate locale fields and R6/R7 judge freshness and urls."""
    server = start_provider(tmp_path, config={
        "capabilities": "all", "locales": ["en", "de"], "fallback_locales": ["de"],
        "citation_base_url": "https://help.example.com", "citation_path_pattern": "/{locale}/{path}/",
        "internal_citation_base_url": "https://kb.example.net",
    })
    try:
        report = _run(server.base_url)
    finally:
        server.stop()
    assert not report.failed, format_text(report)
    assert _by_status(report, Status.SKIP) == {"W7", "W4", "R2"}, format_text(report)
    reasons = {o.id: o.reason for o in report.outcomes}
    assert "declared: valid tags accepted" in reasons["Q3"]
    assert not reasons["R7"].startswith("0 urls") and not reasons["R6"].startswith("0 freshness")


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "provider", "conformance", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=120, check=False)


def test_cli_against_our_server(sample_server: ProviderProcess) -> None:
    """Exit 0 and a "conforming" summary; --json carries the same verdicts. (Served without
    its reverse proxy: --application-only.)"""
    args = [sample_server.base_url, "--customer-safe-secret", CUSTOMER_SECRET, "--agent-only-secret", AGENT_SECRET,
            *[arg for phrase in CANARIES[:2] for arg in ("--canary-query", phrase)], "--application-only"]
    text = _cli(*args)
    assert text.returncode == 0, text.stdout + text.stderr
    lines = text.stdout.splitlines()
    assert lines[-1].endswith("— conforming") and " 0 failed" in lines[-1]
    assert all(line.startswith(("PASS  ", "SKIP  ", "NOTE  ")) for line in lines[:-1])
    assert any(line.startswith("PASS  X2  ") for line in lines)
    document = json.loads(_cli(*args, "--json").stdout)
    assert document["conforming"] is True
    assert len(document["checks"]) + len(document["notes"]) == len(lines) - 1
    assert {c["status"] for c in document["checks"]} <= {"PASS", "SKIP"}


def test_cli_unreachable_provider_exits_2() -> None:
    result = _cli(f"http://127.0.0.1:{free_port()}", "--customer-safe-secret", CUSTOMER_SECRET)
    assert result.returncode == 2
    assert "cannot reach" in result.stderr and CUSTOMER_SECRET not in result.stderr


def test_cli_a_refused_secret_exits_2_with_one_clear_line(sample_server: ProviderProcess) -> None:
    """A wrong secret makes every signed check fail for one reason: say that once, not 25 FAILs."""
    wrong = "not-the-registration-secret-0123456789"
    result = _cli(sample_server.base_url, "--customer-safe-secret", wrong)
    assert result.returncode == 2
    assert "customer_safe secret given was answered 401 invalid_signature" in result.stderr
    assert "FAIL" not in result.stdout and wrong not in result.stdout + result.stderr

    agent = _cli(sample_server.base_url, "--customer-safe-secret", CUSTOMER_SECRET, "--agent-only-secret", wrong)
    assert agent.returncode == 2 and "agent_only secret given" in agent.stderr


def test_cli_requires_the_customer_safe_secret() -> None:
    env = {"KNOWLEDGE_PROVIDER_CONFORMANCE_CUSTOMER_SAFE_SECRET": ""}
    result = _cli("http://127.0.0.1:9", env=env)
    assert result.returncode == 2
    assert "--customer-safe-secret" in result.stderr
