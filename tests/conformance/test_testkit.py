"""The contract test kit, used the way an adapter author uses it: a separate pytest run
over a test module that subclasses ContractTestKit. It yields one test per check, passes
a correct backend, and fails a broken one on exactly the broken duty."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from helpthread_kit.conformance import CHECKS
from helpthread_kit.conformance.stability import IDS_ACROSS_RUNS
from tests.support import REPO_ROOT

_MODULE = '''
from helpthread_kit.testkit import ContractTestKit
from tests.conformance.broken.corpus import CANARIES, DRAFT_CANARIES, ArticleBackend
from tests.conformance.broken.providers import MarkupBackend


class TestCorrectAdapter(ContractTestKit):
    canary_queries = CANARIES
    draft_canary_queries = DRAFT_CANARIES

    def make_backend(self):
        return ArticleBackend()


class TestMarkupAdapter(ContractTestKit):
    canary_queries = CANARIES

    def make_backend(self):
        return MarkupBackend()


class TestCustomerSafeOnlyAdapter(ContractTestKit):
    serve_agent_only = False

    def make_backend(self):
        return ArticleBackend()
'''


def _outcomes(tmp_path: Path) -> dict[str, dict[str, str]]:
    """Run pytest on the module; return {class: {check key: passed|failed|skipped}}."""
    (tmp_path / "test_kit_user.py").write_text(_MODULE, "utf-8")
    # Strict, like ours: a deprecation warning from the kit would fail the author's suite.
    (tmp_path / "pytest.ini").write_text("[pytest]\nfilterwarnings = error\n", "utf-8")
    junit = tmp_path / "junit.xml"
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={junit}", str(tmp_path)],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300, check=False,
    )
    assert junit.exists(), completed.stdout + completed.stderr
    outcomes: dict[str, dict[str, str]] = {}
    for case in ET.parse(junit).getroot().iter("testcase"):  # noqa: S314 - pytest wrote it, just now
        key = case.attrib["name"].removeprefix("test_contract[").removesuffix("]")  # or test_backend_needs_…
        status = "failed" if case.find("failure") is not None else "skipped" if case.find("skipped") is not None \
            else "error" if case.find("error") is not None else "passed"
        outcomes.setdefault(case.attrib["classname"].rpartition(".")[2], {})[key] = status
    return outcomes


def test_testkit_runs_one_test_per_check_and_catches_a_broken_backend(tmp_path: Path) -> None:
    outcomes = _outcomes(tmp_path)
    keys = {check.key for check in CHECKS} - {IDS_ACROSS_RUNS}  # replaced by the rebuild test
    assert set(outcomes) == {"TestCorrectAdapter", "TestMarkupAdapter", "TestCustomerSafeOnlyAdapter"}
    for results in outcomes.values():
        assert set(results) == keys | {"test_backend_needs_no_repairs", "test_document_ids_survive_a_rebuild",
                                       "test_a_search_past_its_deadline_is_answered_503"}

    correct = outcomes["TestCorrectAdapter"]
    assert {k for k, v in correct.items() if v != "passed"} == {
        k for k in keys if k.startswith(("R6-", "R7-", "W7-", "W4-malformed-http-framing"))
    }, correct

    markup = outcomes["TestMarkupAdapter"]
    assert [k for k, v in markup.items() if v == "failed"] == [k for k in keys if k.startswith("R3-")]

    # Without an agent_only registration nothing fails; the agent and canary checks are skipped.
    customer_only = outcomes["TestCustomerSafeOnlyAdapter"]
    assert "failed" not in customer_only.values()
    assert {k[:2] for k, v in customer_only.items() if v == "skipped"} >= {"X2", "X3"}
