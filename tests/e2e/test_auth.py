"""Authentication end to end, over real HTTP against a real server (CONTRACT A1–A7)."""

from __future__ import annotations

import json
import time

import pytest

from helpthread_kit.signature import compute_signature
from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET
from tests.support import ProviderProcess

pytestmark = pytest.mark.e2e

BODY = json.dumps({"query": "reset password"}).encode()


def _headers(header: str, nonce: str = "nonce-abcdefgh") -> dict[str, str]:
    return {
        "X-Helpthread-Signature": header,
        "X-Helpthread-Request": nonce,
        "X-Helpthread-Knowledge-Version": "1",
        "Content-Type": "application/json; charset=utf-8",
    }


def _sig(secret: str, t: int | str, n: str, body: bytes = BODY) -> str:
    return compute_signature(secret, t, n, body)


def _code(reply: object) -> str:
    return reply.json()["error"]["code"]  # type: ignore[attr-defined]


def test_a1_valid_signature_with_whitespace_order_and_unknown_keys(sample_server: ProviderProcess) -> None:
    """A1: items in any order, whitespace around them, unknown keys ignored."""
    t, n = int(time.time()), "order-test-nonce-1"
    header = f"v2=zzz ,  v1={_sig(CUSTOMER_SECRET, t, n)} , n={n},t={t}"
    reply = sample_server.raw("POST", "/retrieve", body=BODY, headers=_headers(header, n))
    assert reply.status == 200


def test_a1_uppercase_hex_accepted(sample_server: ProviderProcess) -> None:
    """A2: hex is accepted in either case."""
    t, n = int(time.time()), "upper-hex-nonce-1"
    header = f"t={t}, n={n}, v1={_sig(CUSTOMER_SECRET, t, n).upper()}"
    assert sample_server.raw("POST", "/retrieve", body=BODY, headers=_headers(header, n)).status == 200


@pytest.mark.parametrize(
    ("header", "code"),
    [
        (None, "missing_signature"),
        ("", "missing_signature"),
        ("t=1, n=abcdefgh", "malformed_signature"),
        ("v1=" + "0" * 64, "malformed_signature"),
        ("t=abc, n=abcdefghij, v1=" + "0" * 64, "malformed_signature"),
        ("t=1234567890123, n=abcdefghij, v1=" + "0" * 64, "malformed_signature"),
        ("t={t}, n=short, v1=" + "0" * 64, "malformed_signature"),
        ("t={t}, n=has space nonce, v1=" + "0" * 64, "malformed_signature"),
        ("t={t}, n=abcdefghij, v1=xyz", "malformed_signature"),
        ("t={t}, t={t}, n=abcdefghij, v1=" + "0" * 64, "malformed_signature"),
        ("t={t}, n=abcdefghij, v1=" + "0" * 64, "invalid_signature"),
    ],
)
def test_a1_a2_refused_headers(sample_server: ProviderProcess, header: str | None, code: str) -> None:
    """A1/A2: malformed or unsigned requests are 401 with the precise code, before any parsing (A7)."""
    headers = _headers(header.format(t=int(time.time())) if header is not None else "")
    if header is None:
        del headers["X-Helpthread-Signature"]
    reply = sample_server.raw("POST", "/retrieve", body=BODY, headers=headers)
    assert reply.status == 401
    assert _code(reply) == code


def test_a2_wrong_secret_tampered_and_reserialized_body(sample_server: ProviderProcess) -> None:
    """A2: the HMAC covers the raw bytes: a wrong secret, a changed byte, or the same JSON
    re-serialized are all invalid."""
    t = int(time.time())
    wrong = f"t={t}, n=wrong-secret-1, v1={_sig('x' * 40, t, 'wrong-secret-1')}"
    assert _code(sample_server.raw("POST", "/retrieve", body=BODY, headers=_headers(wrong))) == "invalid_signature"
    signed = f"t={t}, n=tampered-body-1, v1={_sig(CUSTOMER_SECRET, t, 'tampered-body-1')}"
    tampered = BODY.replace(b"reset", b"Reset")
    assert _code(sample_server.raw("POST", "/retrieve", body=tampered, headers=_headers(signed))) == "invalid_signature"
    reserialized = json.dumps(json.loads(BODY), indent=2).encode()
    signed2 = f"t={t}, n=reserialized-1, v1={_sig(CUSTOMER_SECRET, t, 'reserialized-1')}"
    reply = sample_server.raw("POST", "/retrieve", body=reserialized, headers=_headers(signed2))
    assert _code(reply) == "invalid_signature"


@pytest.mark.parametrize(("skew", "ok"), [(-290, True), (290, True), (-310, False), (310, False)])
def test_a4_timestamp_window_both_sides(sample_server: ProviderProcess, skew: int, ok: bool) -> None:
    """A4: a timestamp more than 300 s away is refused, in the past and in the future."""
    reply = sample_server.retrieve({"query": "invoice"}, CUSTOMER_SECRET, timestamp=int(time.time()) + skew)
    if ok:
        assert reply.status == 200
    else:
        assert reply.status == 401 and _code(reply) == "stale_timestamp"


def test_a5_replay_refused_and_forgery_does_not_burn_nonce(sample_server: ProviderProcess) -> None:
    """A5: a nonce is refused the second time; a forged request does not record it."""
    nonce = f"replay-{time.time_ns()}"
    forged = sample_server.retrieve({"query": "invoice"}, "f" * 40, nonce=nonce)
    assert forged.status == 401 and _code(forged) == "invalid_signature"
    first = sample_server.retrieve({"query": "invoice"}, CUSTOMER_SECRET, nonce=nonce)
    assert first.status == 200
    again = sample_server.retrieve({"query": "invoice"}, CUSTOMER_SECRET, nonce=nonce)
    assert again.status == 401 and _code(again) == "replayed_nonce"


def test_a5_replay_applies_to_capabilities_too(sample_server: ProviderProcess) -> None:
    """A5/W2: both routes are signed and replay-protected."""
    from helpthread_kit.testing import signed_headers

    headers = signed_headers(b"", CUSTOMER_SECRET, content_type=None)
    assert sample_server.raw("GET", "/capabilities", headers=headers).status == 200
    again = sample_server.raw("GET", "/capabilities", headers=headers)
    assert again.status == 401 and _code(again) == "replayed_nonce"


def test_a3_rotation_either_v1_position(sample_server: ProviderProcess) -> None:
    """A3/§3.1: during rotation the core sends v1=<new>,v1=<old>; any match is accepted."""
    stale = "s" * 40
    assert sample_server.retrieve({"query": "vat"}, [CUSTOMER_SECRET, stale]).status == 200
    assert sample_server.retrieve({"query": "vat"}, [stale, CUSTOMER_SECRET]).status == 200


def test_a6_no_secret_signature_or_nonce_in_logs_or_responses(sample_server: ProviderProcess) -> None:
    """A6: secrets, signatures and nonces never appear in logs or responses; query text
    is not logged either (O2)."""
    from helpthread_kit.testing import signed_headers

    query = "zebra-unique-query-words"
    body = json.dumps({"query": query}).encode()
    good = signed_headers(body, AGENT_SECRET)
    bad = signed_headers(body, "q" * 40)
    seen = [good["X-Helpthread-Request"], bad["X-Helpthread-Request"]]
    seen += [part.split("=", 1)[1] for h in (good, bad) for part in h["X-Helpthread-Signature"].split(", ")
             if part.startswith("v1=")]
    for headers in (good, bad):
        reply = sample_server.raw("POST", "/retrieve", body=body, headers=headers)
        for value in seen:
            assert value.encode() not in reply.body
    log = sample_server.log()
    assert "/retrieve" in log  # the access log is there, so the absence below means something
    for value in [*seen, AGENT_SECRET, CUSTOMER_SECRET, query]:
        assert value not in log


def test_a7_unauthenticated_caller_learns_nothing(sample_server: ProviderProcess) -> None:
    """A7: a bad signature with an invalid JSON body is still 401, and the body is the
    fixed envelope with no corpus data."""
    t = int(time.time())
    headers = _headers(f"t={t}, n=a7-nonce-123, v1={'a' * 64}")
    reply = sample_server.raw("POST", "/retrieve", body=b"{not json", headers=headers)
    assert reply.status == 401
    assert set(reply.json()) == {"contractVersion", "error"}
    unauth_caps = sample_server.raw("GET", "/capabilities", headers={"X-Helpthread-Knowledge-Version": "1"})
    assert unauth_caps.status == 401 and "capabilities" not in unauth_caps.json()
