"""The adapter passes the contract test kit: every conformance check, in-process."""

from __future__ import annotations

from pathlib import Path

from json_adapter import JsonBackend

from helpthread_kit import Backend
from helpthread_kit.testkit import ContractTestKit

ARTICLES = Path(__file__).resolve().parent.parent / "articles"
#: Phrases that occur in internal.json and nowhere in public.json.
CANARIES = ("chargeback dossier template", "escalation bridge channel", "courtesy credit ceiling")


class TestJsonAdapter(ContractTestKit):
    """Both registrations, minimum capabilities."""

    canary_queries = CANARIES

    def make_backend(self) -> Backend:
        return JsonBackend(ARTICLES / "public.json", ARTICLES / "internal.json")


class TestJsonAdapterWithCitationUrls(TestJsonAdapter):
    """Declaring citationUrl: results carry safe https urls (R7) and nothing undeclared (R4)."""

    capabilities = frozenset({"retrieve", "citationUrl"})


class TestCustomerSafeOnlyDeployment(ContractTestKit):
    """A deployment that is never given internal.json and has no agent registration."""

    canary_queries = CANARIES
    serve_agent_only = False

    def make_backend(self) -> Backend:
        return JsonBackend(ARTICLES / "public.json")
