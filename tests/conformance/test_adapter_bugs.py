"""Issue 25: the checker finds what the kit finds. Each adapter bug of
``tests/conformance/broken/adapter_bugs.py`` fails the test kit naming the duty (the
checker's side is in test_broken_providers.py); the repairs a production provider makes
silently are one failure each against a strict one, with every check that could not be
judged because of it skipped, naming it; the report says when repairs are invisible."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest

from helpthread_kit import STRICT_ENV, Result, SearchQuery, strict_from_environment
from helpthread_kit.conformance import InProcessTransport, Report, Status, check_asgi_app, format_text
from helpthread_kit.conformance.grouping import ROOT_CAUSE, group_dependent_failures
from helpthread_kit.conformance.model import Outcome
from helpthread_kit.conformance.session import Exchange
from helpthread_kit.testing import signed_headers
from tests.conformance.broken.corpus import CANARIES, ArticleBackend
from tests.conformance.broken.providers import AGENT_SECRET, CUSTOMER_SECRET, check, correct_app
from tests.conformance.broken.repairs import REPAIR_MUTANTS, strict_mutant_app
from tests.conformance.kitrun import Outcomes, run_kit_module

_KIT_MODULE = '''
from helpthread_kit.testkit import ContractTestKit
from tests.conformance.broken.adapter_bugs import DraftsServed, FtsSyntaxErrors, IdsPerBuild
from tests.conformance.broken.corpus import CANARIES, DRAFT_CANARIES, ArticleBackend


from helpthread_kit import MemoryReplayStore

#: One store for every simulated worker, as a deployment shares SQLite or Redis.
SHARED = MemoryReplayStore()


class Base(ContractTestKit):
    canary_queries = CANARIES
    draft_canary_queries = DRAFT_CANARIES

    def make_settings(self, registrations):
        settings = super().make_settings(registrations)
        settings.replay_store = SHARED
        return settings


class TestCorrect(Base):
    workers = 2

    def make_backend(self):
        return ArticleBackend()


class TestDraftsServed(Base):
    def make_backend(self):
        return DraftsServed()


class TestIdsPerBuild(Base):
    def make_backend(self):
        return IdsPerBuild()


class TestIdsPerWorker(Base):
    workers = 2

    def make_backend(self):
        return IdsPerBuild()


class TestFtsSyntaxErrors(Base):
    def make_backend(self):
        return FtsSyntaxErrors()
'''


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Outcomes:
    """Run the kit over every bug: {class: {test: (status, message)}}."""
    root = tmp_path_factory.mktemp("kit-adapter-bugs")
    return run_kit_module(root, "test_adapter_bug_kits.py", _KIT_MODULE)


def _failed(results: dict[str, tuple[str, str]]) -> dict[str, str]:
    return {test: message for test, (status, message) in results.items() if status == "failed"}


def test_the_kit_passes_the_correct_backend_under_two_workers(kit: dict[str, dict[str, tuple[str, str]]]) -> None:
    assert _failed(kit["TestCorrect"]) == {}
    assert kit["TestCorrect"]["test_document_ids_survive_a_rebuild"][0] == "passed"
    assert kit["TestCorrect"][f"test_contract[{check('X5', 'drafts')}]"][0] == "passed"


def test_the_kit_fails_drafts_served(kit: dict[str, dict[str, tuple[str, str]]]) -> None:
    failed = _failed(kit["TestDraftsServed"])
    assert set(failed) == {f"test_contract[{check('X5', 'drafts')}]"}, failed
    assert "was served 'draft-pricing-2027'" in next(iter(failed.values()))


def test_the_kit_fails_ids_that_change_per_build(kit: dict[str, dict[str, tuple[str, str]]]) -> None:
    """One worker: the rebuild test sees it; two workers: R2 over connections sees it too."""
    failed = _failed(kit["TestIdsPerBuild"])
    assert set(failed) == {"test_document_ids_survive_a_rebuild"}, failed
    assert "R2: documentId changed when the backend was built again" in failed["test_document_ids_survive_a_rebuild"]
    failed = _failed(kit["TestIdsPerWorker"])
    assert f"test_contract[{check('R2', 'every connection and worker')}]" in failed, failed
    assert "test_document_ids_survive_a_rebuild" in failed


def test_the_kit_fails_an_fts_search_raising_on_hostile_queries(kit: dict[str, dict[str, tuple[str, str]]]) -> None:
    failed = _failed(kit["TestFtsSyntaxErrors"])
    assert set(failed) == {f"test_contract[{check('Q1', 'hostile')}]", f"test_contract[{ROOT_CAUSE}]"}, failed
    assert "query \"what's my invoice?\": answered 500" in failed[f"test_contract[{check('Q1', 'hostile')}]"]


@pytest.mark.parametrize("name", sorted(REPAIR_MUTANTS))
def test_one_root_cause_one_failure(name: str) -> None:
    """Against a strict provider a repaired fault is one FAIL (R1, naming the duty); the
    checks its 500s kept from being judged are skipped, naming the duty."""
    duty = REPAIR_MUTANTS[name][2]
    report = check_asgi_app(strict_mutant_app(name), customer_safe_secret=CUSTOMER_SECRET,
                            agent_only_secret=AGENT_SECRET, canary_queries=CANARIES)
    failed = [o for o in report.outcomes if o.status is Status.FAIL]
    assert [o.key for o in failed] == [ROOT_CAUSE], format_text(report)
    assert f"the backend broke {duty}" in failed[0].reason
    grouped = [o for o in report.outcomes if o.reason.startswith("skipped: depends on")]
    assert grouped, format_text(report)
    assert all(o.status is Status.SKIP and f"depends on {duty}, which failed" in o.reason for o in grouped)
    # A strict provider shows itself by its refusals: nothing is said to be invisible.
    assert report.notes == ()


def test_limit_ignored_is_one_failure_not_dozens() -> None:
    """The issue's case: limit ignored, 24 checks failed for it before grouping."""
    report = check_asgi_app(strict_mutant_app("over-limit"), customer_safe_secret=CUSTOMER_SECRET,
                            agent_only_secret=AGENT_SECRET, canary_queries=CANARIES)
    assert report.count(Status.FAIL) == 1
    assert sum("depends on Q2, which failed" in o.reason for o in report.outcomes) >= 20


def test_a_production_provider_is_reported_with_repairs_invisible() -> None:
    """Not strict, the same backend passes every check (its answers are repaired): the
    report must say that it cannot see that."""
    from tests.conformance.broken.repairs import OverLimit

    report = check_asgi_app(correct_app(OverLimit()), customer_safe_secret=CUSTOMER_SECRET,
                            agent_only_secret=AGENT_SECRET, canary_queries=CANARIES)
    assert not report.failed, format_text(report)
    assert any("repairs in production mode are invisible from outside; run against a strict deployment" in n
               for n in report.notes)
    assert "NOTE  repairs in production mode are invisible" in format_text(report)
    declared = check_asgi_app(correct_app(OverLimit()), customer_safe_secret=CUSTOMER_SECRET,
                              strict_deployment=True)
    assert declared.notes == ()


@pytest.mark.parametrize(("value", "strict"), [("1", True), ("true", True), (" YES ", True), ("on", True),
                                                ("0", False), ("", False), ("false", False), ("off", False)])
def test_the_strict_switch_reads_the_environment(value: str, strict: bool) -> None:
    assert strict_from_environment({STRICT_ENV: value}) is strict
    assert strict_from_environment({}) is False


def test_a_bad_strict_switch_names_the_variable() -> None:
    with pytest.raises(ValueError, match=r"KNOWLEDGE_PROVIDER_STRICT='maybe'"):
        strict_from_environment({STRICT_ENV: "maybe"})


class _SlowBackend(ArticleBackend):
    """Takes ``delay_s`` for every search: a backend whose upstream hangs."""

    def __init__(self, delay_s: float) -> None:
        self.delay_s = delay_s

    def search(self, query: SearchQuery) -> list[Result]:
        time.sleep(self.delay_s)
        return super().search(query)


def _retrieve(app: object, query: str) -> httpx.Response:
    body = json.dumps({"query": query}).encode()
    with httpx.Client(transport=InProcessTransport(app), base_url="http://provider.invalid") as client:  # type: ignore[arg-type]
        return client.post("/retrieve", content=body, headers=signed_headers(body, CUSTOMER_SECRET))


def test_a_search_past_its_deadline_is_503_with_retry_after() -> None:
    """W7: a backend that does not answer within search_deadline_s is answered 503
    overloaded with Retry-After, not left to hit the core's 10 s timeout; the checker's
    W7 check judges that answer like any other."""
    app = correct_app(_SlowBackend(0.5), search_deadline_s=0.05, retry_after_s=2)
    started = time.perf_counter()
    response = _retrieve(app, "invoice")
    assert time.perf_counter() - started < 0.4
    assert response.status_code == 503
    assert response.headers["retry-after"] == "2"
    assert response.json()["error"]["code"] == "overloaded"
    assert "did not finish in time" in response.json()["error"]["message"]


def test_a_search_within_its_deadline_is_answered() -> None:
    response = _retrieve(correct_app(_SlowBackend(0.05), search_deadline_s=2.0), "invoice")
    assert response.status_code == 200 and response.json()["results"]


def test_without_a_deadline_a_slow_search_is_waited_for() -> None:
    response = _retrieve(correct_app(_SlowBackend(0.3), search_deadline_s=None), "invoice")
    assert response.status_code == 200


ACROSS_RUNS = check("R2", "restart and a re-index")


def _ids_run(app: object, path: str) -> Report:
    return check_asgi_app(app, customer_safe_secret=CUSTOMER_SECRET, agent_only_secret=AGENT_SECRET,  # type: ignore[arg-type]
                          canary_queries=CANARIES, document_ids_file=path)


def test_document_ids_across_two_runs_catch_a_rebuild(tmp_path: Path) -> None:
    """R2 across a restart: the first run records, the second (against a rebuilt
    provider) compares; a salted id fails, a stable one passes."""
    from tests.conformance.broken.adapter_bugs import IdsPerBuild

    stable, salted = str(tmp_path / "stable.json"), str(tmp_path / "salted.json")
    first = _ids_run(correct_app(), stable).outcome(ACROSS_RUNS)
    assert first.status is Status.SKIP and "recorded the documentIds of" in first.reason, first.reason
    second = _ids_run(correct_app(), stable).outcome(ACROSS_RUNS)
    assert second.status is Status.PASS and "titles kept the documentId" in second.reason, second.reason

    assert _ids_run(correct_app(IdsPerBuild()), salted).outcome(ACROSS_RUNS).status is Status.SKIP
    rebuilt = _ids_run(correct_app(IdsPerBuild()), salted).outcome(ACROSS_RUNS)
    assert rebuilt.status is Status.FAIL and "in the recorded run and is" in rebuilt.reason, rebuilt.reason


def test_document_ids_across_runs_is_skipped_without_a_file() -> None:
    report = check_asgi_app(correct_app(), customer_safe_secret=CUSTOMER_SECRET)
    assert report.outcome(ACROSS_RUNS).status is Status.SKIP
    assert "--document-ids FILE" in report.outcome(ACROSS_RUNS).reason


def _exchange(status: int, body: bytes = b'{"query":"invoice"}') -> Exchange:
    return Exchange(method="POST", path="/retrieve", profile="customer_safe", request_headers={}, request_body=body,
                    status=status, headers=httpx.Headers(), body=b"{}", elapsed_s=0.0, data={})


def test_grouping_never_hides_a_failure_of_its_own() -> None:
    """Only misses that are 500 answers to valid requests are grouped under R1: a leak
    naming a document 'pricing-500', a 500 to invalid JSON, and a check that also failed
    otherwise keep their FAIL."""
    root = Outcome("R1", "no correctly signed request is answered 500", Status.FAIL, "answered 500: boom")
    leak = Outcome("X2", "leak", Status.FAIL, "x")
    invalid = Outcome("Q6", "invalid", Status.FAIL, "x")
    mixed = Outcome("A4", "mixed", Status.FAIL, "x")
    dependent = Outcome("W3", "dependent", Status.FAIL, "x")
    sent = {
        root.key: ([], ("answered 500: boom",), False),
        leak.key: ([_exchange(500)], ("canary 'x': customer_safe returned 'pricing-500', which agent_only labels "
                                      "internal",), False),
        invalid.key: ([_exchange(500, b'{"query":')], ("truncated JSON: answered 500 internal_error",), False),
        mixed.key: ([_exchange(500)], ("t=now-290s: answered 500", "t=now-310s: answered 200"), False),
        dependent.key: ([_exchange(500)], ("'application/json': answered 500 internal_error, expected 200",), False),
    }
    grouped = {o.key: o for o in group_dependent_failures([root, leak, invalid, mixed, dependent], sent)}
    assert [k for k, o in grouped.items() if o.status is Status.FAIL] == [root.key, leak.key, invalid.key, mixed.key]
    assert grouped[dependent.key].status is Status.SKIP
    assert grouped[dependent.key].reason.startswith("skipped: depends on R1, which failed")
