"""Exposure and results end to end (CONTRACT X1–X6, R1–R5): a customer_safe credential
never reaches an internal document."""

from __future__ import annotations

import subprocess

import pytest

from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET
from tests.support import ProviderProcess, markup_in

pytestmark = pytest.mark.e2e

#: Phrases that occur only in internal (or unreadable-audience) articles of the sample wiki.
INTERNAL_CANARIES = {
    "refund exception ledger": "en/internal/refund-exceptions",
    "goodwill credit matrix": "en/internal/goodwill-credits",
    "Tier-3 escalation bridge": "en/internal/escalation-procedure",
    "render-queue drain procedure": "en/internal/incident-runbook-pdf-queue",
    "fraud hold override": "en/internal/fraud-review-checklist",
    "Backstage impersonation mode": "kb-2040",
    "white-glove queue": "en/internal/vip-handling",
    "erasure ticket countersign": "en/internal/data-deletion-requests",
    "identity verification scorecard": "en/internal/2fa-recovery-verification",
    "chargeback dossier template": "en/internal/chargeback-handling",
}
#: Articles whose audience is present but not exactly "public": internal (X5).
NEAR_MISS_PUBLIC = {
    "bank feed connection": "en/integrations/bank-feed-connection",  # audience: Public
    "receipt scanning": "en/mobile/receipt-scanning",  # audience: [public]
}
DRAFT_CANARY = "e-invoice validator beta"

BROAD_QUERIES = [
    "reset password", "refund", "invoice pdf", "api key", "two factor", "passwort zurücksetzen",
    "rechnung erstellen", "webhook signature", "vat", "datev export", "sso saml", "team roles",
]


def _ids(reply_json: dict[str, object]) -> list[str]:
    return [r["documentId"] for r in reply_json["results"]]  # type: ignore[index,union-attr]


@pytest.mark.parametrize(("phrase", "doc_id"), sorted(INTERNAL_CANARIES.items()))
def test_x2_x3_internal_canaries(sample_server: ProviderProcess, phrase: str, doc_id: str) -> None:
    """X2: customer_safe never returns the internal article; X3/X6: agent_only does,
    labelled internal."""
    customer = sample_server.retrieve({"query": phrase, "limit": 50}, CUSTOMER_SECRET).json()
    assert doc_id not in _ids(customer)
    for result in customer["results"]:
        assert phrase.lower() not in result["snippet"].lower()
    agent = sample_server.retrieve({"query": phrase, "limit": 5}, AGENT_SECRET).json()
    top = agent["results"][0]
    assert top["documentId"] == doc_id and top["audience"] == "internal"
    assert phrase.lower() in top["snippet"].lower(), "the snippet is the passage that matched"


@pytest.mark.parametrize(("phrase", "doc_id"), sorted(NEAR_MISS_PUBLIC.items()))
def test_x5_near_miss_audience_is_internal(sample_server: ProviderProcess, phrase: str, doc_id: str) -> None:
    """X5: 'Public' and ['public'] are not 'public': served to agent_only as internal only."""
    assert doc_id not in _ids(sample_server.retrieve({"query": phrase, "limit": 50}, CUSTOMER_SECRET).json())
    agent = sample_server.retrieve({"query": phrase, "limit": 50}, AGENT_SECRET).json()
    labels = {r["documentId"]: r["audience"] for r in agent["results"]}
    assert labels.get(doc_id) == "internal"


def test_x5_draft_served_to_nobody(sample_server: ProviderProcess) -> None:
    """X5: a draft is served to no registration."""
    for secret in (CUSTOMER_SECRET, AGENT_SECRET):
        results = sample_server.retrieve({"query": DRAFT_CANARY, "limit": 50}, secret).json()["results"]
        assert "en/invoices/e-invoicing-xrechnung" not in [r["documentId"] for r in results]
        assert all("validator beta" not in r["snippet"] for r in results)


def test_x4_audience_in_request_widens_nothing(sample_server: ProviderProcess) -> None:
    """X4: an audience (or similar) field is an unknown field and is ignored."""
    phrase = "goodwill credit matrix"
    plain = sample_server.retrieve({"query": phrase}, CUSTOMER_SECRET).json()
    for extra in ({"audience": "internal"}, {"audience": ["public", "internal"]}, {"exposure": "agent_only"},
                  {"profile": "agent_only", "includeInternal": True}):
        widened = sample_server.retrieve({"query": phrase, **extra}, CUSTOMER_SECRET).json()
        assert widened == plain
        assert "en/internal/goodwill-credits" not in _ids(widened)


@pytest.mark.parametrize("query", BROAD_QUERIES)
def test_x6_r2_r3_results_public_required_and_plain(sample_server: ProviderProcess, query: str) -> None:
    """X6: customer_safe answers contain only public results; R2: required fields present;
    R3: title and snippet are plain text, bounded and never empty."""
    for secret, allowed in ((CUSTOMER_SECRET, {"public"}), (AGENT_SECRET, {"public", "internal"})):
        results = sample_server.retrieve({"query": query, "limit": 20}, secret).json()["results"]
        assert results, query
        for result in results:
            assert result["audience"] in allowed
            assert result["documentId"] and result["title"].strip() and result["snippet"].strip()
            assert len(result["snippet"]) <= 480
            assert markup_in(result["title"]) == [] and markup_in(result["snippet"]) == [], result


def test_x6_agent_labels_match_front_matter(sample_server: ProviderProcess) -> None:
    """X6: the audience of each agent_only result is the document's true classification."""
    results = sample_server.retrieve({"query": "refund", "limit": 50}, AGENT_SECRET).json()["results"]
    labels = {r["documentId"]: r["audience"] for r in results}
    assert labels["en/billing/requesting-a-refund"] == "public"
    assert labels["en/internal/refund-exceptions"] == "internal"


@pytest.mark.parametrize("query", ["audience:internal goodwill", "goodwill*", "*", "AND OR NOT", "title:(",
                                   '"unbalanced', "(((", "path:en/internal/*", "~~~", "\\", "?", "-"])
def test_query_syntax_never_reaches_other_fields_or_errors(sample_server: ProviderProcess, query: str) -> None:
    """Field syntax, wildcards and operator-only input are plain words: never an error,
    never a route to internal documents."""
    reply = sample_server.retrieve({"query": query, "limit": 50}, CUSTOMER_SECRET)
    assert reply.status == 200
    assert all(r["audience"] == "public" for r in reply.json()["results"])
    assert "en/internal/goodwill-credits" not in _ids(reply.json())


def test_r1_best_first(sample_server: ProviderProcess) -> None:
    """R1: the article about the query comes first."""
    top = sample_server.retrieve({"query": "reset password"}, CUSTOMER_SECRET).json()["results"][0]
    assert top["documentId"] == "en/account/reset-password"


def test_snippet_is_the_matching_passage_not_the_opening(sample_server: ProviderProcess) -> None:
    """R3: the snippet is the passage that matched, even deep in the article."""
    results = sample_server.retrieve({"query": "white-glove queue staffed Tier-2 agents"}, AGENT_SECRET).json()
    top = results["results"][0]
    assert top["documentId"] == "en/internal/vip-handling"
    assert "white-glove queue" in top["snippet"]
    opening = (sample_server.content / "en/internal/vip-handling.md").read_text().split("---", 2)[2].strip()[:60]
    assert not top["snippet"].startswith(opening[:40])


def test_r5_revision_is_git_blob_hash_for_agents_and_a_public_view_hash_for_customers(
    sample_server: ProviderProcess,
) -> None:
    """R5: agent_only's revision is the git blob hash of the file's bytes (what
    `git hash-object` prints); customer_safe's is not — it depends only on the public
    view, so it cannot confirm a guess at internal text by hashing (issue 11)."""
    path = sample_server.content / "en/account/reset-password.md"
    expected = subprocess.run(["git", "hash-object", str(path)], capture_output=True, text=True, check=True)
    agent = sample_server.retrieve({"query": "reset password"}, AGENT_SECRET).json()["results"]
    customer = sample_server.retrieve({"query": "reset password"}, CUSTOMER_SECRET).json()["results"]
    by_id = {r["documentId"]: r["revision"] for r in agent}
    assert by_id["en/account/reset-password"] == expected.stdout.strip()
    top = next(r for r in customer if r["documentId"] == "en/account/reset-password")
    assert top["revision"] != expected.stdout.strip() and len(top["revision"]) == 40


def test_documentid_from_front_matter_id(sample_server: ProviderProcess) -> None:
    """R2: a front matter id is the documentId."""
    results = sample_server.retrieve({"query": "invoice numbering pattern"}, CUSTOMER_SECRET).json()["results"]
    assert "kb-1001" in _ids({"results": results})
