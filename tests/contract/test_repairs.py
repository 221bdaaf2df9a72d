"""Repairs are backend faults (issue 14): the contract layer still repairs them in
production — dropping a non-public result for customer_safe (X6), removing fields of
undeclared capabilities (R4), cutting past limit (Q2), dropping results in another
language (Q3) — but names each in the request's record and counts it in a metric; in
strict mode it refuses the answer instead (500, the duties named)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence

import httpx
import pytest

from helpthread_kit import ContractSettings, Exposure, Registration, RequestRecord, Result, SearchQuery, create_app
from helpthread_kit.conformance import InProcessTransport
from helpthread_kit.testing import signed_headers

CS = "repairs-customer-secret-0123456789-abcdef"
AO = "repairs-agent-secret-0123456789-abcdefghi"


class Faulty:
    implemented_capabilities: frozenset[str] = frozenset({"locale"})

    def is_ready(self) -> bool:
        return True

    def search(self, query: SearchQuery) -> Sequence[Result]:
        return [Result(f"d{i}", "T", "S", "internal" if i == 0 else "public", score=0.5, locale="en")
                for i in range(query.limit + 2)]


def _ask(strict: bool, body: dict[str, object]) -> tuple[httpx.Response, list[RequestRecord]]:
    records: list[RequestRecord] = []
    settings = ContractSettings(
        registrations=[Registration.from_values("cs", Exposure.CUSTOMER_SAFE, [CS]),
                       Registration.from_values("ao", Exposure.AGENT_ONLY, [AO])],
        capabilities=frozenset({"retrieve", "locale"}), observer=records.append, strict=strict,
    )
    raw = json.dumps(body).encode()
    with httpx.Client(transport=InProcessTransport(create_app(Faulty(), settings)), base_url="http://p") as client:
        reply = client.post("/retrieve", content=raw, headers=signed_headers(raw, CS))
    return reply, records


def test_repairs_are_made_and_named_in_the_record() -> None:
    reply, [record] = _ask(False, {"query": "x", "limit": 3})
    assert reply.status_code == 200
    results = reply.json()["results"]
    assert len(results) == 3 and all(r["audience"] == "public" and "score" not in r for r in results)
    assert set(record.repairs) == {"X6", "R4", "Q2"}


def test_q3_a_result_in_another_language_is_a_repair() -> None:
    reply, [record] = _ask(False, {"query": "x", "limit": 2, "locale": "de"})
    assert reply.status_code == 200 and reply.json()["results"] == []
    assert "Q3" in record.repairs


@pytest.mark.parametrize("body", [{"query": "x", "limit": 3}, {"query": "x", "locale": "de"}])
def test_strict_mode_refuses_instead_and_names_the_duties(body: dict[str, object]) -> None:
    reply, [record] = _ask(True, body)
    assert reply.status_code == 500
    error = reply.json()["error"]
    assert error["code"] == "internal_error" and "the backend broke" in error["message"]
    assert all(duty in error["message"] for duty in record.repairs) and record.repairs


def test_a_running_provider_counts_repairs_in_a_metric() -> None:
    """knowledge_provider_backend_repairs_total{duty=...} (in a fresh process: the
    Prometheus registry is global)."""
    code = (
        "from provider.metrics import Metrics\n"
        "from helpthread_kit import RequestRecord\n"
        "from prometheus_client import generate_latest\n"
        "m = Metrics()\n"
        "for repairs in (('X6', 'R4'), ('X6',), ()):\n"
        "    m.observe_request(RequestRecord('POST', '/retrieve', 200, 0.01, 'cs', 1, None, '-', repairs))\n"
        "print(generate_latest().decode())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True).stdout
    assert 'knowledge_provider_backend_repairs_total{duty="X6"} 2.0' in out
    assert 'knowledge_provider_backend_repairs_total{duty="R4"} 1.0' in out
