"""Wire rules end to end (CONTRACT W1–W7, C2–C3, the error vocabulary)."""

from __future__ import annotations

import json

import pytest

from helpthread_kit.testing import signed_headers
from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET
from tests.support import ProviderProcess

pytestmark = pytest.mark.e2e


def test_w1_routes_and_200_not_201(sample_server: ProviderProcess) -> None:
    """W1: POST /retrieve answers 200 (not Litestar's default 201); GET /capabilities answers."""
    reply = sample_server.retrieve({"query": "reset password"}, CUSTOMER_SECRET)
    assert reply.status == 200
    assert reply.json()["results"]
    assert sample_server.capabilities(CUSTOMER_SECRET).status == 200


def test_c2_c3_default_declares_only_retrieve(sample_server: ProviderProcess) -> None:
    """C2/C3: the default configuration declares exactly the minimum set, in the agreed shape."""
    for secret in (CUSTOMER_SECRET, AGENT_SECRET):
        assert sample_server.capabilities(secret).json() == {"contractVersion": 1, "capabilities": ["retrieve"]}


def test_c2_minimum_results_carry_no_optional_fields(sample_server: ProviderProcess) -> None:
    """R4 with C2: without declared capabilities no locale, score, chunkId, url,
    freshness, reviewDueAt or translationGroupId — absent, not null."""
    for secret in (CUSTOMER_SECRET, AGENT_SECRET):
        query = {"query": "passwort zurücksetzen rechnung", "limit": 50}
        results = sample_server.retrieve(query, secret).json()["results"]
        assert results
        for result in results:
            assert set(result) == {"documentId", "title", "snippet", "audience", "revision"}


@pytest.mark.parametrize("version", [None, "2", "0", "v1", ""])
def test_w2_version_header_required(sample_server: ProviderProcess, version: str | None) -> None:
    """W2/§4.1: X-Helpthread-Knowledge-Version missing or not 1 → 400 unsupported_version."""
    body = b'{"query": "invoice"}'
    headers = signed_headers(body, CUSTOMER_SECRET)
    if version is None:
        del headers["X-Helpthread-Knowledge-Version"]
    else:
        headers["X-Helpthread-Knowledge-Version"] = version
    reply = sample_server.raw("POST", "/retrieve", body=body, headers=headers)
    assert reply.status == 400 and reply.json()["error"]["code"] == "unsupported_version"


@pytest.mark.parametrize(
    ("content_type", "ok"),
    [
        ("application/json; charset=utf-8", True),
        ("application/json;charset=UTF-8", True),
        ("Application/JSON; Charset=\"utf-8\"", True),
        ("application/json; foo=bar; charset=utf-8", True),
        ("application/json", True),
        ("application/json; charset=latin-1", False),
        ("text/plain", False),
        ("application/x-www-form-urlencoded", False),
        (None, False),
    ],
)
def test_w3_media_type(sample_server: ProviderProcess, content_type: str | None, ok: bool) -> None:
    """W3: parameters in any order and case count; any other media type is 415."""
    body = b'{"query": "invoice"}'
    headers = signed_headers(body, CUSTOMER_SECRET, content_type=content_type)
    reply = sample_server.raw("POST", "/retrieve", body=body, headers=headers)
    if ok:
        assert reply.status == 200
    else:
        assert reply.status == 415 and reply.json()["error"]["code"] == "unsupported_media_type"


def test_w4_every_answer_carries_contract_version(sample_server: ProviderProcess) -> None:
    """W4: results, errors, unknown routes, wrong methods and oversized bodies all carry
    contractVersion (checked by validate_reply on every reply) with the agreed codes."""
    assert sample_server.raw("GET", "/nope").json()["error"]["code"] == "not_found"
    assert sample_server.raw("GET", "/retrieve").json()["error"]["code"] == "method_not_allowed"
    assert sample_server.raw("GET", "/healthz").json() == {"contractVersion": 1, "status": "ok"}
    big = json.dumps({"query": "x", "pad": "y" * 20000}).encode()
    reply = sample_server.raw("POST", "/retrieve", body=big, headers=signed_headers(big, CUSTOMER_SECRET))
    assert reply.status == 413 and reply.json()["error"]["code"] == "payload_too_large"


def test_w5_unknown_fields_ignored(sample_server: ProviderProcess) -> None:
    """W5: additive fields never break us; the answer equals the one without them."""
    plain = sample_server.retrieve({"query": "recurring invoices"}, CUSTOMER_SECRET).json()
    extra = sample_server.retrieve(
        {"query": "recurring invoices", "futureField": {"a": [1, 2]}, "mode": "x"}, CUSTOMER_SECRET
    ).json()
    assert plain == extra and plain["results"]


def test_w6_largest_answer_far_below_one_mebibyte(sample_server: ProviderProcess) -> None:
    """W6: a limit-50 answer to a broad query stays far below the core's 1 MiB cap."""
    reply = sample_server.retrieve({"query": "the invoice account payment settings", "limit": 50}, AGENT_SECRET)
    assert reply.status == 200 and len(reply.body) < 100 * 1024


def test_healthz_says_nothing_about_the_corpus(sample_server: ProviderProcess) -> None:
    """/healthz is unauthenticated and reveals no corpus or registration data."""
    reply = sample_server.raw("GET", "/healthz")
    assert reply.json() == {"contractVersion": 1, "status": "ok"}
    assert sample_server.raw("GET", "/readyz").json() == {"contractVersion": 1, "status": "ready"}


def test_responses_are_not_cacheable(sample_server: ProviderProcess) -> None:
    """§6.3: nothing may cache a provider answer on the way (no-store)."""
    reply = sample_server.retrieve({"query": "invoice"}, CUSTOMER_SECRET)
    assert reply.headers["cache-control"] == "no-store"


def test_a_request_path_cannot_forge_log_lines(sample_server: ProviderProcess) -> None:
    """Paths arrive percent-decoded; a newline in one is escaped in the access log."""
    import time

    sample_server.raw("GET", "/probe%0aFORGED-LOG-LINE%20INFO%20provider.access")
    deadline = time.monotonic() + 5
    while "/probe" not in (log := sample_server.log()) and time.monotonic() < deadline:
        time.sleep(0.05)  # the access line is written just after the response
    assert "\nFORGED-LOG-LINE" not in log and "/probe\\nFORGED-LOG-LINE" in log
