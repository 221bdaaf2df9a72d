"""Issue 14: the mutants the contract layer used to hide. Each makes the test kit fail
and the checker fail, naming the duty: a per-process replay store under two workers
(A5), internal results on customer_safe (X6), a field of an undeclared capability (R4),
more results than limit (Q2), a declared locale ignored (Q3)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from helpthread_kit.conformance import Report, Status, check_url, format_text
from tests.conformance.broken.corpus import CANARIES
from tests.conformance.broken.providers import AGENT_SECRET, CUSTOMER_SECRET, check
from tests.conformance.broken.repairs import REPAIR_MUTANTS, strict_mutant_app
from tests.conformance.broken.server import serving
from tests.conformance.kitrun import Outcomes, run_kit_module
from tests.support import REPO_ROOT

REPLAY = check("A5", "replayed request")
NO_500 = check("R1", "answered 500")


def _check(url: str, *, application_only: bool = True) -> Report:
    return check_url(url, customer_safe_secret=CUSTOMER_SECRET, agent_only_secret=AGENT_SECRET,
                     canary_queries=CANARIES, application_only=application_only)


@pytest.mark.parametrize("name", sorted(REPAIR_MUTANTS))
def test_the_checker_fails_a_repaired_backend_served_strict(name: str) -> None:
    """Against a strict provider the repair becomes a 500 whose message names the duty."""
    duty = REPAIR_MUTANTS[name][2]
    with serving(strict_mutant_app(name)) as url:
        report = _check(url)
    outcome = report.outcome(NO_500)
    assert outcome.status is Status.FAIL, format_text(report)
    assert f"the backend broke {duty}" in outcome.reason, outcome.reason


_KIT_MODULE = '''
from helpthread_kit.testkit import ContractTestKit
from tests.conformance.broken.corpus import CANARIES, ArticleBackend
from tests.conformance.broken.repairs import REPAIR_MUTANTS

{classes}

class TestTwoWorkersPerProcessStore(ContractTestKit):
    canary_queries = CANARIES
    workers = 2

    def make_backend(self):
        return ArticleBackend()
'''
_KIT_CLASS = '''
class Test_{ident}(ContractTestKit):
    canary_queries = CANARIES
    capabilities = REPAIR_MUTANTS[{name!r}][1]

    def make_backend(self):
        return REPAIR_MUTANTS[{name!r}][0]()
'''


@pytest.fixture(scope="module")
def kit_outcomes(tmp_path_factory: pytest.TempPathFactory) -> Outcomes:
    """Run the kit over every mutant: {class: {test: (status, message)}}."""
    root = tmp_path_factory.mktemp("kit-mutants")
    classes = "".join(_KIT_CLASS.format(ident=name.replace("-", "_"), name=name) for name in REPAIR_MUTANTS)
    return run_kit_module(root, "test_mutant_kits.py", _KIT_MODULE.format(classes=classes))


@pytest.mark.parametrize("name", sorted(REPAIR_MUTANTS))
def test_the_kit_fails_a_repaired_backend_naming_the_duty(
    kit_outcomes: dict[str, dict[str, tuple[str, str]]], name: str
) -> None:
    results = kit_outcomes[f"Test_{name.replace('-', '_')}"]
    status, message = results["test_backend_needs_no_repairs"]
    duty = REPAIR_MUTANTS[name][2]
    assert status == "failed" and f"broke {duty}" in message, (status, message)
    # Strict: the refusals show in the checks too, with the duty in the reason.
    status, message = results[f"test_contract[{NO_500}]"]
    assert status == "failed" and f"the backend broke {duty}" in message, (status, message)


def test_the_kit_fails_a_per_process_store_under_two_workers(
    kit_outcomes: dict[str, dict[str, tuple[str, str]]],
) -> None:
    results = kit_outcomes["TestTwoWorkersPerProcessStore"]
    status, message = results[f"test_contract[{REPLAY}]"]
    assert status == "failed" and "answered 200" in message, (status, message)
    assert "must be shared" in message
    # The nonce reused with another body reaches the other worker too: both A5 checks.
    assert {t for t, (s, _) in results.items() if s == "failed"} == {
        f"test_contract[{REPLAY}]", f"test_contract[{check('A5', 'used nonce')}]"}


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def _uvicorn_two_workers(factory: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """A real ``uvicorn --workers 2 --factory`` process, as an adapter author runs it."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", factory, "--workers", "2", "--port", str(port),
         "--log-level", "warning"],
        cwd=REPO_ROOT, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            raise RuntimeError("uvicorn did not start")
        time.sleep(1.0)  # both workers listening
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_the_checker_fails_a_per_process_store_under_two_workers() -> None:
    """Replays over fresh connections reach the other worker, which never saw the nonce."""
    with _uvicorn_two_workers("tests.conformance.broken.repairs:per_process_store_app") as url:
        report = check_url(url, customer_safe_secret=CUSTOMER_SECRET, agent_only_secret=AGENT_SECRET)
    outcome = report.outcome(REPLAY)
    assert outcome.status is Status.FAIL and "(new connection): answered 200" in outcome.reason, outcome.reason


def test_two_workers_sharing_a_sqlite_store_pass_the_replay_check(tmp_path: Path) -> None:
    with _uvicorn_two_workers("tests.conformance.broken.repairs:shared_store_app",
                              {"BROKEN_REPLAY_DB": str(tmp_path / "replay.sqlite3")}) as url:
        report = check_url(url, customer_safe_secret=CUSTOMER_SECRET, agent_only_secret=AGENT_SECRET)
    assert report.outcome(REPLAY).status is Status.PASS, report.outcome(REPLAY).reason


def test_the_checker_fails_an_adapter_served_without_its_proxy() -> None:
    """uvicorn answers the malformed requests it refuses with plain text: a deployment
    without the reverse proxy fails W4 (tests/e2e/test_reverse_proxy.py passes it through
    the proxy), and the checker says what to put in front. The refusal itself holds."""
    from tests.conformance.broken.providers import correct_app

    with serving(correct_app(), hardened=False) as url:
        report = _check(url, application_only=False)
    outcome = report.outcome(check("W4", "with the envelope"))
    assert outcome.status is Status.FAIL and "expected a 4xx error envelope" in outcome.reason, outcome.reason
    assert "reverse proxy" in outcome.reason
    assert report.outcome(check("W4", "nothing smuggled")).status is Status.PASS
