"""The checker catches faults (issue 7): every deliberately broken provider fails exactly
the checks of its broken duty, for the right reason, and nothing else — while the same
pieces unbroken pass. Each provider is served by a real uvicorn server over TCP."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from helpthread_kit.conformance import Report, Status, check_url, format_text
from tests.conformance.broken.adapter_bugs import ADAPTER_BUGS, ids_per_build_app
from tests.conformance.broken.corpus import CANARIES, DRAFT_CANARIES
from tests.conformance.broken.providers import (
    AGENT_SECRET,
    BROKEN,
    CUSTOMER_SECRET,
    BrokenProvider,
    check,
    correct_app,
)
from tests.conformance.broken.server import serving


def _check(url: str) -> Report:
    # Served without the deployment's reverse proxy: its duties are tested through it
    # (tests/e2e/test_reverse_proxy.py).
    return check_url(url, customer_safe_secret=CUSTOMER_SECRET, agent_only_secret=AGENT_SECRET,
                     canary_queries=CANARIES, draft_canary_queries=DRAFT_CANARIES, application_only=True)


def _failed(report: Report) -> set[str]:
    return {o.key for o in report.outcomes if o.status is Status.FAIL}


def test_the_unbroken_pieces_conform() -> None:
    """The baseline every broken provider departs from: no FAIL, and every check a broken
    provider must fail is a PASS here (so the failures below are caused by the fault)."""
    with serving(correct_app()) as url:
        report = _check(url)
    assert _failed(report) == set(), format_text(report)
    for broken in (*BROKEN, *ADAPTER_BUGS):
        for key in broken.fails:
            assert report.outcome(key).status is Status.PASS, (key, report.outcome(key).reason)


@pytest.mark.parametrize("broken", (*BROKEN, *ADAPTER_BUGS), ids=lambda b: b.name)
def test_checker_fails_the_broken_duty_and_nothing_else(broken: BrokenProvider) -> None:
    with serving(broken.build()) as url:
        report = _check(url)
    assert _failed(report) == set(broken.fails), format_text(report)
    for key, fragment in broken.fails.items():
        assert fragment in report.outcome(key).reason, report.outcome(key).reason
    assert report.failed


def test_checks_comparing_answers_depend_on_stable_ids() -> None:
    """One root cause, one failure: ids that differ per worker make W5 and X8 (which
    compare two answers) differ too; they are skipped naming R2, not failed."""
    with serving(ids_per_build_app()) as url:
        report = _check(url)
    for key in (check("W5", "unknown request fields"), check("X8", "conversationId")):
        outcome = report.outcome(key)
        assert outcome.status is Status.SKIP, format_text(report)
        assert outcome.reason.startswith("skipped: depends on R2 (documentId is the same"), outcome.reason


def test_cli_exits_1_and_names_the_failed_check() -> None:
    """The command prints one line per check and a summary, exits 1 on a FAIL, and never
    prints the secrets it was given (through the environment)."""
    stale = next(b for b in BROKEN if b.name == "accepts-stale-timestamps")
    env = {**os.environ, "KNOWLEDGE_PROVIDER_CONFORMANCE_CUSTOMER_SAFE_SECRET": CUSTOMER_SECRET,
           "KNOWLEDGE_PROVIDER_CONFORMANCE_AGENT_ONLY_SECRET": AGENT_SECRET}
    with serving(stale.build()) as url:
        text = subprocess.run([sys.executable, "-m", "provider", "conformance", url, "--canary-query", CANARIES[0],
                               "--application-only"],
                              capture_output=True, text=True, env=env, timeout=120, check=False)
        as_json = subprocess.run([sys.executable, "-m", "provider", "conformance", url, "--json",
                                  "--application-only"],
                                 capture_output=True, text=True, env=env, timeout=120, check=False)
    assert text.returncode == 1, text.stderr
    lines = text.stdout.splitlines()
    assert "FAIL  A4  timestamps outside the window are refused, past and future — t=now-310s" in "\n".join(lines)
    assert all(line.startswith(("PASS  ", "FAIL  ", "SKIP  ", "NOTE  ")) for line in lines[:-1])
    # Not declared strict: the report says what it cannot see.
    assert "NOTE  repairs in production mode are invisible from outside; run against a strict deployment" in text.stdout
    assert lines[-1].endswith("NOT CONFORMING") and " 1 failed" in lines[-1]
    for secret in (CUSTOMER_SECRET, AGENT_SECRET):
        assert secret not in text.stdout + text.stderr + as_json.stdout + as_json.stderr
    assert as_json.returncode == 1
    document = json.loads(as_json.stdout)
    assert document["conforming"] is False and document["summary"]["failed"] == 1
    assert document["notes"] and "invisible from outside" in document["notes"][0]
    [failed] = [c for c in document["checks"] if c["status"] == "FAIL"]
    assert failed["id"] == "A4" and failed["key"] in stale.fails
