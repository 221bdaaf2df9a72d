"""A black-box conformance checker for Knowledge Provider Interface v1 (contract §1.3, §8.2).

It knows a provider only by its base URL and the secrets of its registrations, and
tests the provider duties of CONTRACT.md — authentication, wire, request fields,
responses and exposure — one check per duty, each yielding PASS, FAIL or SKIP with a
reason. Every body it receives is validated against the contract's JSON Schemas.

Against a deployment::

    from helpthread_kit.conformance import check_url, format_text
    report = check_url("https://kb.example.com", customer_safe_secret="...",
                       canary_queries=["refund exception ledger"])
    print(format_text(report))

In-process, against any ASGI app (this is what the adapter test kit does)::

    report = check_asgi_app(create_app(backend, settings), customer_safe_secret="...")

The command line is ``knowledge-provider conformance URL …``.
"""

from .model import Check, Failed, Outcome, Skipped, Status
from .report import format_json, format_text, summary_line
from .runner import CHECKS, Report, check_asgi_app, check_url, run_checks
from .session import Exchange, ProviderUnreachable, SecretRefused, Session
from .transport import InProcessTransport

__all__ = [
    "CHECKS",
    "Check",
    "Exchange",
    "Failed",
    "InProcessTransport",
    "Outcome",
    "ProviderUnreachable",
    "Report",
    "SecretRefused",
    "Session",
    "Skipped",
    "Status",
    "check_asgi_app",
    "check_url",
    "format_json",
    "format_text",
    "run_checks",
    "summary_line",
]
