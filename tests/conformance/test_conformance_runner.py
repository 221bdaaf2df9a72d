"""The check model, runner and report: ids, keys, ordering, redaction and formats."""

from __future__ import annotations

import json
import re

import httpx
import pytest

from helpthread_kit.conformance import CHECKS, Check, Failed, Skipped, Status, format_json, format_text, run_checks
from helpthread_kit.conformance.model import CheckGroup
from helpthread_kit.conformance.session import Session

#: Every duty id in CONTRACT.md.
CONTRACT_IDS = {f"{letter}{n}" for letter, count in {"W": 7, "A": 7, "X": 8, "Q": 6, "R": 8, "C": 3, "O": 3}.items()
                for n in range(1, count + 1)}
SECRET = "runner-test-secret-0123456789-abcdefghij"


def _session() -> Session:
    # No check below sends a request; the client only has to exist.
    return Session(httpx.Client(base_url="http://unused.invalid"), customer_safe_secret=SECRET)


def test_every_check_cites_a_contract_id_and_has_a_unique_key() -> None:
    assert {c.id for c in CHECKS} <= CONTRACT_IDS
    keys = [c.key for c in CHECKS]
    assert len(keys) == len(set(keys))
    assert all(re.fullmatch(r"[A-Z][0-9]-[a-z0-9-]+", key) for key in keys)


def test_the_checks_cover_every_area_of_issue_7() -> None:
    ids = {c.id for c in CHECKS}
    assert {"A1", "A2", "A3", "A4", "A5", "A6", "A7"} <= ids
    assert {"W1", "W2", "W3", "W4", "W5", "W6", "Q1", "Q2", "Q6"} <= ids
    assert {"R1", "R2", "R3", "R4", "C3", "X2", "X3", "X4", "X6"} <= ids


def test_a_check_group_refuses_an_id_that_is_not_a_contract_id() -> None:
    with pytest.raises(ValueError, match=r"CONTRACT\.md id"):
        CheckGroup().register("auth", "whatever")


def test_runner_orders_final_checks_last_but_reports_in_registry_order() -> None:
    ran: list[str] = []

    def recorder(name: str) -> Check:
        def run(_: Session) -> str:
            ran.append(name)
            return "ok"
        return Check("W1", name, run, final=name.startswith("final"))

    checks = [recorder("final one"), recorder("first"), recorder("second")]
    report = run_checks(_session(), target="t", checks=checks)
    assert ran == ["first", "second", "final one"]
    assert [o.name for o in report.outcomes] == ["final one", "first", "second"]


def _raise(exc: Exception) -> Check:
    def run(_: Session) -> str:
        raise exc
    return Check("A6", f"raises {type(exc).__name__}", run)


def test_outcomes_redact_secrets_and_survive_checker_errors() -> None:
    checks = [
        _raise(Failed(f"the provider echoed {SECRET} back")),
        _raise(Skipped("not judged")),
        _raise(KeyError("documentId")),
        _raise(httpx.ConnectError("refused")),
        Check("A1", "long reason", lambda _: "x " * 1000),
    ]
    report = run_checks(_session(), target="t", checks=checks)
    echoed, skipped, crashed, unreachable, long = report.outcomes
    assert echoed.status is Status.FAIL and SECRET not in echoed.reason and "[secret]" in echoed.reason
    assert skipped.status is Status.SKIP and skipped.reason == "not judged"
    assert crashed.status is Status.FAIL and "could not judge" in crashed.reason
    assert unreachable.status is Status.FAIL and "ConnectError" in unreachable.reason
    assert long.status is Status.PASS and len(long.reason) <= 600
    assert report.failed


def test_text_and_json_formats() -> None:
    checks = [Check("A4", "window", lambda _: "fine"), _raise(Failed("broken")), _raise(Skipped("later"))]
    report = run_checks(_session(), target="http://p.example", checks=checks)
    lines = format_text(report).splitlines()
    assert lines[:3] == ["PASS  A4  window — fine", "FAIL  A6  raises Failed — broken",
                         "SKIP  A6  raises Skipped — later"]
    # No strict refusal was seen: the report says what it cannot see (issue 25).
    assert lines[3].startswith("NOTE  repairs in production mode are invisible from outside; run against a strict "
                               "deployment")
    assert lines[4].startswith("3 checks against http://p.example: 1 passed, 1 failed, 1 skipped (0 requests, ")
    assert lines[4].endswith("— NOT CONFORMING")
    document = json.loads(format_json(report))
    assert document["conforming"] is False
    assert document["notes"] == list(report.notes) and len(report.notes) == 1
    assert document["summary"] == {**document["summary"], "total": 3, "passed": 1, "failed": 1, "skipped": 1}
    assert document["checks"][0] == {"id": "A4", "key": "A4-window", "name": "window", "status": "PASS",
                                     "reason": "fine"}
