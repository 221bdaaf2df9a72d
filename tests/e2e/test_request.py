"""Request validation end to end (CONTRACT Q1–Q6): every malformed body is a 400 naming
the field, never a 500."""

from __future__ import annotations

import json

import pytest

from helpthread_kit.testing import signed_headers
from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET
from tests.support import ProviderProcess

pytestmark = pytest.mark.e2e


def _post_raw(server: ProviderProcess, body: bytes, secret: str = CUSTOMER_SECRET):  # type: ignore[no-untyped-def]
    return server.raw("POST", "/retrieve", body=body, headers=signed_headers(body, secret))


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "query"),
        ({"query": ""}, "query"),
        ({"query": "   \t\n"}, "query"),
        ({"query": 42}, "query"),
        ({"query": None}, "query"),
        ({"query": ["reset"]}, "query"),
        ({"query": "x" * 1025}, "query"),
        ({"query": "\U0001F600" * 1025}, "query"),
        ({"query": "ok", "limit": 0}, "limit"),
        ({"query": "ok", "limit": 51}, "limit"),
        ({"query": "ok", "limit": 10.5}, "limit"),
        ({"query": "ok", "limit": "10"}, "limit"),
        ({"query": "ok", "limit": True}, "limit"),
        ({"query": "ok", "limit": None}, "limit"),
        ({"query": "ok", "limit": -1}, "limit"),
    ],
)
def test_q1_q2_field_rules(sample_server: ProviderProcess, body: dict[str, object], field: str) -> None:
    """Q1/Q2: query and limit bounds and types; the message names the field."""
    reply = sample_server.retrieve(body, CUSTOMER_SECRET)
    assert reply.status == 400
    error = reply.json()["error"]
    assert error["code"] == "invalid_request" and error["message"].startswith(f"{field}:")


def test_q1_query_bound_is_code_points(sample_server: ProviderProcess) -> None:
    """Q1: 1024 code points are accepted even when they are 4 UTF-8 bytes each."""
    assert sample_server.retrieve({"query": "\U0001F600" * 1024}, CUSTOMER_SECRET).status == 200


@pytest.mark.parametrize("limit", [1, 3, 50])
def test_q2_never_more_than_limit(sample_server: ProviderProcess, limit: int) -> None:
    """Q2: never more results than limit; 10 by default."""
    results = sample_server.retrieve({"query": "invoice", "limit": limit}, AGENT_SECRET).json()["results"]
    assert 1 <= len(results) <= limit
    default = sample_server.retrieve({"query": "invoice"}, AGENT_SECRET).json()["results"]
    assert len(default) == 10


def test_q2_integral_float_is_an_integer(sample_server: ProviderProcess) -> None:
    """Q2: JSON has one number type; 2.0 is the integer 2 (as JSON Schema agrees)."""
    assert len(sample_server.retrieve({"query": "invoice", "limit": 2.0}, AGENT_SECRET).json()["results"]) == 2


@pytest.mark.parametrize(
    "body",
    [
        b"[]",
        b'"query"',
        b"null",
        b"{",
        b'{"query": "a",}',
        b'{"query": "a", "query": "b"}',
        b'{"query": "\\ud800"}',
        b'{"query": "a", "limit": NaN}',
        b'{"query": "a", "limit": Infinity}',
        b'{"query": "\xff\xfe"}',
        b"\xef\xbb\xbf{\"query\": \"a\"}",
        b'{"query": "a", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}",
        b'{"query": "a", "limit": 1' + b"0" * 5000 + b"}",
    ],
)
def test_q6_malformed_json_is_400_never_500(sample_server: ProviderProcess, body: bytes) -> None:
    """Q6: non-objects, syntax errors, duplicate keys, lone surrogates, NaN, invalid UTF-8,
    a BOM, deep nesting and absurd numbers are all 400 invalid_request."""
    reply = _post_raw(sample_server, body)
    assert reply.status in (400, 413), reply.body
    if reply.status == 400:
        assert reply.json()["error"]["code"] == "invalid_request"


def test_q6_surrogate_pair_is_fine(sample_server: ProviderProcess) -> None:
    """Q6: a properly escaped surrogate pair is a valid character, not a lone surrogate."""
    assert _post_raw(sample_server, b'{"query": "invoice \\ud83d\\ude00"}').status == 200


def test_q3_q4_locale_ignored_without_capability(sample_server: ProviderProcess) -> None:
    """Q3/Q4: without the locale capabilities, locale and localeFallback are ignored,
    even when malformed."""
    plain = sample_server.retrieve({"query": "rechnung"}, CUSTOMER_SECRET).json()
    odd = sample_server.retrieve({"query": "rechnung", "locale": "!!not a tag", "localeFallback": "yes"},
                                 CUSTOMER_SECRET).json()
    assert plain == odd


def test_q5_x8_conversation_id(sample_server: ProviderProcess) -> None:
    """Q5/X8: ignored entirely on customer_safe (even of the wrong type); on agent_only it
    must be a string and changes nothing."""
    base = {"query": "refund"}
    cs_plain = sample_server.retrieve(base, CUSTOMER_SECRET).json()
    cs_ctx = sample_server.retrieve({**base, "context": {"conversationId": 123}}, CUSTOMER_SECRET).json()
    assert cs_plain == cs_ctx
    ao_plain = sample_server.retrieve(base, AGENT_SECRET).json()
    ao_ctx = sample_server.retrieve({**base, "context": {"conversationId": "c-1"}}, AGENT_SECRET).json()
    assert ao_plain == ao_ctx
    bad = sample_server.retrieve({**base, "context": {"conversationId": 5}}, AGENT_SECRET)
    assert bad.status == 400 and bad.json()["error"]["message"].startswith("context.conversationId:")


def test_q_errors_never_echo_query_text(sample_server: ProviderProcess) -> None:
    """O2: error messages name the field, never its value."""
    secret_words = "confidential-customer-words " * 50
    reply = sample_server.retrieve({"query": secret_words}, CUSTOMER_SECRET)
    assert reply.status == 400 and b"confidential" not in reply.body
    reply = sample_server.retrieve({"query": "ok", "limit": "confidential"}, CUSTOMER_SECRET)
    assert reply.status == 400 and b"confidential" not in reply.body
    assert json.loads(reply.body)["error"]["message"].startswith("limit:")
