"""A tiny in-memory knowledge base: the backend every broken provider is built on.

Public and internal articles live in separate tuples, and a ``customer_safe`` search
only ever reads the public one (CONTRACT X2). The internal articles contain canary
phrases that no public article contains, so the checker's exposure checks have
something to catch.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from helpthread_kit import Exposure, Result, SearchQuery

__all__ = ["CANARIES", "INTERNAL", "PUBLIC", "Article", "ArticleBackend"]


@dataclass(frozen=True)
class Article:
    id: str
    title: str
    body: str


_TOPICS = [
    ("reset-password", "Resetting your password", "Open Settings and choose Reset password. We email a link that "
     "works for one hour. If the email does not arrive, check your spam folder."),
    ("change-email", "Changing your account email", "Your login email is in Account settings. Confirm the new "
     "address from the message we send, then sign in again."),
    ("two-factor", "Two-factor authentication", "Turn on two-factor login in Security settings. Keep your "
     "recovery codes; they replace the app if you lose your phone."),
    ("create-invoice", "Creating an invoice", "Choose New invoice, add a customer and lines, then send it. "
     "The invoice number follows your numbering settings."),
    ("recurring-invoices", "Recurring invoices", "A recurring invoice is sent on a schedule. Pause it from the "
     "invoice list at any time."),
    ("payment-methods", "Payment methods", "Customers can pay an invoice by card or bank transfer. Add payment "
     "details in Billing settings."),
    ("failed-payments", "When a payment fails", "We retry a failed card payment three times. Update the card in "
     "Billing settings to stop the retries."),
    ("api-keys", "API keys", "Create an API key in Developer settings. Treat it like a password and rotate it if "
     "it leaks."),
    ("webhooks", "Webhooks", "Webhooks tell your server when an invoice is paid. Verify the signature header on "
     "every delivery."),
    ("delete-account", "Deleting your account", "An owner can delete the account from Account settings. "
     "Invoices are kept for the legal retention period."),
    ("team-roles", "Team members and roles", "Invite colleagues from Team settings and give each a role: owner, "
     "admin or member. Only owners see billing."),
    ("export-data", "Exporting your data", "Download invoices and customers as CSV from Settings, Export. Large "
     "exports arrive by email."),
]
PUBLIC: tuple[Article, ...] = tuple(Article(f"pub-{slug}", title, body) for slug, title, body in _TOPICS)
INTERNAL: tuple[Article, ...] = (
    Article("int-refund-exceptions", "Refund exceptions", "Before approving a refund outside policy, record it in "
            "the refund exception ledger with the ticket number. Password resets never need an entry."),
    Article("int-goodwill", "Goodwill credits", "Use the goodwill credit matrix to pick the credit for an outage. "
            "Never promise a credit to a customer before a lead approves it."),
)
#: Phrases that occur only in internal articles.
CANARIES = ("refund exception ledger", "goodwill credit matrix")

_WORD = re.compile(r"\w+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


class ArticleBackend:
    """Word-overlap search over :data:`PUBLIC` and :data:`INTERNAL` (CONTRACT X2: the
    customer_safe reach reads only the public tuple)."""

    implemented_capabilities: frozenset[str] = frozenset()

    def is_ready(self) -> bool:
        return True

    def collections(self, reach: Exposure) -> list[tuple[str, Sequence[Article]]]:
        """``(audience, articles)`` pairs a search with this reach may read."""
        if reach is Exposure.CUSTOMER_SAFE:
            return [("public", PUBLIC)]
        return [("public", PUBLIC), ("internal", INTERNAL)]

    def snippet(self, article: Article, words: set[str]) -> str:
        sentences = _SENTENCE.split(article.body)
        return max(sentences, key=lambda s: len(_words(s) & words))

    def search(self, query: SearchQuery) -> list[Result]:
        words = _words(query.text)
        scored = []
        for audience, articles in self.collections(query.reach):
            for article in articles:
                overlap = len(_words(article.title + " " + article.body) & words)
                if overlap:
                    scored.append((overlap, article, audience))
        scored.sort(key=lambda item: (-item[0], item[1].id))
        return [
            Result(
                document_id=article.id,
                title=article.title,
                snippet=self.snippet(article, words),
                audience=audience,
                revision=hashlib.sha256(f"{audience}\n{article.title}\n{article.body}".encode()).hexdigest()[:16],
            )
            for _, article, audience in scored[: query.limit]
        ]

#: Drafts and unpublished articles: served to nobody (CONTRACT X5).
DRAFTS: tuple[Article, ...] = (
    Article("draft-pricing-2027", "Pricing from 2027", "The upcoming platinum tier replaces the business plan. "
            "Do not publish before the announcement."),
)
#: Phrases that occur only in drafts.
DRAFT_CANARIES = ("upcoming platinum tier",)
