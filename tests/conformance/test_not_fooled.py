"""The checker is not fooled: refusing everything earns no pass for the refusal checks,
and a wrong clock on the checker's side is reported as such, not blamed on the provider."""

from __future__ import annotations

import re
import time

from provider.conformance import Status, check_url, format_text
from provider.contract.app import Receive, Scope, Send
from tests.conformance.broken.corpus import CANARIES
from tests.conformance.broken.providers import AGENT_SECRET, CUSTOMER_SECRET, correct_app
from tests.conformance.broken.server import serving

_REFUSAL = b'{"contractVersion":1,"error":{"code":"invalid_signature","message":"no"}}'


async def refuse_everything(scope: Scope, receive: Receive, send: Send) -> None:
    """A "provider" that answers 401 invalid_signature to every request."""
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 401,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(_REFUSAL)).encode())]})
    await send({"type": "http.response.body", "body": _REFUSAL})


def test_refusing_everything_passes_only_what_it_really_satisfies() -> None:
    """Every check that expects a refusal first makes sure a correct request is accepted,
    so a provider that refuses everything fails them; it can only pass "nothing is
    echoed", "every answer carries the envelope" and "answers are fast and small"."""
    with serving(refuse_everything) as url:
        report = check_url(url, customer_safe_secret=CUSTOMER_SECRET, agent_only_secret=AGENT_SECRET,
                           canary_queries=CANARIES)
    passed = {o.id for o in report.outcomes if o.status is Status.PASS}
    assert passed == {"A6", "W4", "W6"}, format_text(report)
    refusal_checks = {"W2", "A1", "A2", "A4", "A5", "A7", "W3", "Q1", "Q2", "Q6"}
    assert refusal_checks <= {o.id for o in report.outcomes if o.status is Status.FAIL}


def test_a_skewed_checker_clock_skips_the_window_checks_instead_of_failing() -> None:
    """The provider's Date header shows the checker's clock is 120 s fast: judging the
    ±300 s window would be unfair, so both A4 checks are skipped with the reason."""
    with serving(correct_app()) as url:
        report = check_url(url, customer_safe_secret=CUSTOMER_SECRET, agent_only_secret=AGENT_SECRET,
                           canary_queries=CANARIES, clock=lambda: time.time() + 120)
    assert not report.failed, format_text(report)
    window = [o for o in report.outcomes if o.id == "A4"]
    assert len(window) == 2
    for outcome in window:
        # The Date header has whole seconds, truncated: the skew measures 120 or 121 s.
        assert outcome.status is Status.SKIP, outcome.reason
        assert re.search(r"is -12[01] s from this machine's clock", outcome.reason), outcome.reason
