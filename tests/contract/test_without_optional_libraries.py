"""helpthread_kit is importable and usable with no Whoosh, markdown-it-py or watchfiles
installed (issue 7, DESIGN "Layout": the adapter template; issue 25: Litestar and the PyYAML
it brings are the kit's own dependencies).

A fresh interpreter (``python -I``: no PYTHONPATH, no user site) starts with
``sys.modules[name] = None`` for each of them, which makes every ``import`` of them raise
ImportError exactly as if the package were not installed — including imports made by
third-party libraries. It then imports helpthread_kit and uses each piece an adapter
needs, ``create_app`` included. (tests/contract/test_standalone_distribution.py goes
further: an environment where they are not installed at all.)
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

_SCRIPT = r"""
import json, sys
for name in ("whoosh", "markdown_it", "watchfiles"):
    sys.modules[name] = None  # "import <name>" now raises ImportError: as if not installed

import helpthread_kit as contract
from helpthread_kit import (
    MINIMUM, Backend, ContractSettings, Exposure, InvalidRequest, InvalidSignature, MemoryReplayStore,
    Registration, Result, SearchQuery, Verifier, load_schema, parse_capabilities, parse_retrieve_request,
    render_results,
)
from helpthread_kit.testing import signed_headers

report = {}
secret = "a-secret-of-forty-characters-0123456789"
customer = Registration.from_values("cs", Exposure.CUSTOMER_SAFE, [secret])

# Signature verification and the replay store (A1-A5).
verifier = Verifier([customer], MemoryReplayStore())
body = json.dumps({"query": "reset password", "limit": 3, "audience": "internal"}).encode()
headers = signed_headers(body, secret)
report["verified_exposure"] = verifier.verify(headers["X-Helpthread-Signature"], body).exposure.value
try:
    verifier.verify(signed_headers(body + b" ", secret)["X-Helpthread-Signature"], body)
except InvalidSignature as exc:
    report["tampered"] = exc.code

# Request parsing (Q1-Q6, X4).
request = parse_retrieve_request(body, exposure=Exposure.CUSTOMER_SAFE, capabilities=MINIMUM)
report["request"] = [request.query, request.limit]
try:
    parse_retrieve_request(b'{"query": ""}', exposure=Exposure.CUSTOMER_SAFE, capabilities=MINIMUM)
except InvalidRequest as exc:
    report["invalid"] = exc.envelope()

# A backend and result rendering (R1-R4, X6).
class Articles:
    implemented_capabilities = frozenset()
    def is_ready(self):
        return True
    def search(self, query):
        return [Result("a", "Reset", "Open settings.", "public", score=0.9),
                Result("b", "Ledger", "Internal.", "internal")][: query.limit]

backend = Articles()
report["is_backend"] = isinstance(backend, Backend)
results = backend.search(SearchQuery(text=request.query, limit=request.limit, reach=Exposure.CUSTOMER_SAFE,
                                     capabilities=MINIMUM))
report["rendered"] = render_results(results, exposure=Exposure.CUSTOMER_SAFE, capabilities=MINIMUM, limit=3)
report["settings_ok"] = ContractSettings(registrations=[customer]).max_skew_s == 300
report["capabilities"] = sorted(parse_capabilities("all", implemented=[]))
report["schema_title"] = load_schema("retrieve-response")["title"]

# The conformance checker needs none of them either.
import helpthread_kit.conformance
report["checker_checks"] = len(helpthread_kit.conformance.CHECKS)

report["loaded"] = sorted(
    name for name in ("whoosh", "markdown_it", "watchfiles") if sys.modules.get(name) is not None
)
try:
    from helpthread_kit import create_app
    create_app(backend, ContractSettings(registrations=[customer]))
    report["create_app"] = "ok"
except ImportError as exc:
    report["create_app"] = str(exc)
print(json.dumps(report))
"""


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    completed = subprocess.run([sys.executable, "-I", "-c", _SCRIPT], capture_output=True, text=True, timeout=60,
                               check=False)
    assert completed.returncode == 0, completed.stderr
    result: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    return result


def test_no_optional_library_is_loaded(report: dict[str, Any]) -> None:
    """whoosh, markdown_it and watchfiles stay unimported."""
    assert report["loaded"] == []


def test_signature_verification_works(report: dict[str, Any]) -> None:
    assert report["verified_exposure"] == "customer_safe"
    assert report["tampered"] == "invalid_signature"


def test_request_parsing_works(report: dict[str, Any]) -> None:
    assert report["request"] == ["reset password", 3]
    assert report["invalid"] == {"contractVersion": 1,
                                 "error": {"code": "invalid_request", "message": "query: must not be empty"}}


def test_backend_interface_and_rendering_work(report: dict[str, Any]) -> None:
    """The internal result is dropped for customer_safe and score is stripped without scoring."""
    assert report["is_backend"] is True
    assert report["rendered"] == {"contractVersion": 1, "results": [
        {"documentId": "a", "title": "Reset", "snippet": "Open settings.", "audience": "public"}]}
    assert report["settings_ok"] is True
    assert report["capabilities"] == ["retrieve"]
    assert "retrieve" in report["schema_title"]
    assert report["checker_checks"] > 40


def test_create_app_works_without_them(report: dict[str, Any]) -> None:
    """The Litestar application builds without any of them."""
    assert report["create_app"] == "ok"
