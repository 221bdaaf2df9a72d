"""The checker is not fooled: refusing everything earns no pass for the refusal checks,
and a wrong clock on the checker's side is reported as such, not blamed on the provider."""
# A provider that refuses even a correctly signed GET /capabilities is not checked at all
# (SecretRefused: the secret may simply be wrong); to test the refusal checks, these
# "providers" answer that one request and refuse everything else.

from __future__ import annotations

import re
import time

import pytest

from helpthread_kit.app import Receive, Scope, Send
from helpthread_kit.conformance import SecretRefused, Status, check_url, format_text
from tests.conformance.broken.corpus import CANARIES
from tests.conformance.broken.providers import AGENT_SECRET, CUSTOMER_SECRET, check, correct_app
from tests.conformance.broken.server import serving

_REFUSAL = b'{"contractVersion":1,"error":{"code":"invalid_signature","message":"no"}}'
_CAPABILITIES = b'{"contractVersion":1,"capabilities":["retrieve"]}'


async def _answer(send: Send, status: int, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def refuse_everything(scope: Scope, receive: Receive, send: Send) -> None:
    """A "provider" that answers 401 invalid_signature to every request."""
    if scope["type"] == "http":
        await _answer(send, 401, _REFUSAL)


async def refuse_all_but_capabilities(scope: Scope, receive: Receive, send: Send) -> None:
    """Answers any GET /capabilities (signed or not) and refuses every retrieval."""
    if scope["type"] != "http":
        return
    if scope["method"] == "GET" and scope["path"] == "/capabilities":
        await _answer(send, 200, _CAPABILITIES)
    else:
        await _answer(send, 401, _REFUSAL)


def test_a_provider_refusing_the_secret_is_not_checked_but_named() -> None:
    with serving(refuse_everything) as url, pytest.raises(SecretRefused, match="customer_safe secret given"):
        check_url(url, customer_safe_secret=CUSTOMER_SECRET, agent_only_secret=AGENT_SECRET, canary_queries=CANARIES,
                  application_only=True)


def test_refusing_everything_passes_only_what_it_really_satisfies() -> None:
    """Every check that expects a refusal first makes sure a correct request is accepted,
    so a provider that refuses everything fails them; it can only pass "nothing is
    echoed", "every answer carries the envelope" (and the framing refusals, which the
    server's protocol makes), "answers are fast and small" and "no 500"."""
    with serving(refuse_all_but_capabilities) as url:
        report = check_url(url, customer_safe_secret=CUSTOMER_SECRET, agent_only_secret=AGENT_SECRET,
                           canary_queries=CANARIES, application_only=True)
    passed = {o.id for o in report.outcomes if o.status is Status.PASS}
    assert passed == {"A6", "W4", "W6", "C3", "R1"}, format_text(report)  # C3: it does answer /capabilities
    assert report.outcome(check("R1", "success answers")).status is not Status.PASS
    refusal_checks = {"W2", "A1", "A2", "A4", "A5", "A7", "W3", "Q1", "Q2", "Q6"}
    assert refusal_checks <= {o.id for o in report.outcomes if o.status is Status.FAIL}


def test_a_skewed_checker_clock_skips_the_window_checks_instead_of_failing() -> None:
    """The provider's Date header shows the checker's clock is 120 s fast: judging the
    ±300 s window would be unfair, so both A4 checks are skipped with the reason."""
    with serving(correct_app()) as url:
        report = check_url(url, customer_safe_secret=CUSTOMER_SECRET, agent_only_secret=AGENT_SECRET,
                           canary_queries=CANARIES, clock=lambda: time.time() + 120, application_only=True)
    assert not report.failed, format_text(report)
    window = [o for o in report.outcomes if o.id == "A4"]
    assert len(window) == 2
    for outcome in window:
        # The Date header has whole seconds, truncated: the skew measures 120 or 121 s.
        assert outcome.status is Status.SKIP, outcome.reason
        assert re.search(r"is -12[01] s from this machine's clock", outcome.reason), outcome.reason
