"""Deliberately broken providers, each correct but for one duty.

Each is our own ``create_app`` around :class:`ArticleBackend`, with one piece swapped
for a broken one — a setting, the replay store, the backend, or an ASGI wrapper — and
names the checks that must fail because of it, with a fragment of the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from helpthread_kit import ContractSettings, Exposure, Registration, create_app
from helpthread_kit.app import ASGIApp
from helpthread_kit.conformance import CHECKS

from . import middleware
from .corpus import INTERNAL, PUBLIC, Article, ArticleBackend

CUSTOMER_SECRET = "broken-cs-secret-0123456789-abcdefghijklmnop"
AGENT_SECRET = "broken-ao-secret-0123456789-abcdefghijklmnop"


def check(contract_id: str, words: str) -> str:
    """The key of the one check with this id whose name contains ``words``."""
    keys = [c.key for c in CHECKS if c.id == contract_id and words in c.name]
    if len(keys) != 1:
        raise LookupError(f"{len(keys)} checks match {contract_id} {words!r}")
    return keys[0]


def settings(**overrides: object) -> ContractSettings:
    registrations = [
        Registration.from_values("cs", Exposure.CUSTOMER_SAFE, [CUSTOMER_SECRET]),
        Registration.from_values("ao", Exposure.AGENT_ONLY, [AGENT_SECRET]),
    ]
    return ContractSettings(registrations=registrations, **overrides)  # type: ignore[arg-type]


def correct_app(backend: ArticleBackend | None = None, **overrides: object) -> ASGIApp:
    return create_app(backend or ArticleBackend(), settings(**overrides))


class ForgetfulReplayStore:
    """Says every nonce is new."""

    def add_if_absent(self, nonce: str, expires_at: float) -> bool:
        return True


class MarkupBackend(ArticleBackend):
    """Snippets straight from a rich-text source: Markdown emphasis and an HTML link."""

    def snippet(self, article: Article, words: set[str]) -> str:
        return f"**{super().snippet(article, words)}** See <a href=\"/kb/{article.id}\">the article</a>."


class TemplateMarkupBackend(ArticleBackend):
    """Snippets from a source whose shortcodes and entities were never rendered."""

    def snippet(self, article: Article, words: set[str]) -> str:
        return f"{{{{< note >}}}}{super().snippet(article, words)} &amp; more{{{{< /note >}}}}"


class MarkdownLinkBackend(ArticleBackend):
    """Snippets that keep the source's Markdown link and code span (R3: no Markdown)."""

    def snippet(self, article: Article, words: set[str]) -> str:
        return f"[{super().snippet(article, words)}](https://x.example/kb/{article.id}) Run `make help`."


class LeakyBackend(ArticleBackend):
    """Searches everything for every reach and labels results by the reach: an internal
    article reaches customer_safe labelled public."""

    def collections(self, reach: Exposure) -> list[tuple[str, Sequence[Article]]]:
        label = "public" if reach is Exposure.CUSTOMER_SAFE else None
        return [(label or "public", PUBLIC), (label or "internal", INTERNAL)]


@dataclass(frozen=True)
class BrokenProvider:
    """A provider with one duty broken.

    Attributes:
        name: the broken duty, as a pytest id.
        build: returns the ASGI app.
        fails: key of every check that must FAIL → a fragment of its reason.
    """

    name: str
    build: Callable[[], ASGIApp]
    fails: dict[str, str] = field(default_factory=dict)


BROKEN: tuple[BrokenProvider, ...] = (
    BrokenProvider(
        "accepts-stale-timestamps",
        lambda: correct_app(max_skew_s=10**7),
        {check("A4", "outside"): "t=now-310s: answered 200"},
    ),
    BrokenProvider(
        "accepts-replays",
        lambda: correct_app(replay_store=ForgetfulReplayStore()),
        {check("A5", "replayed request"): "replay #1 (new connection): answered 200",
         check("A5", "used nonce"): "another body, signed afresh: answered 200"},
    ),
    BrokenProvider(
        "markup-in-snippets",
        lambda: correct_app(MarkupBackend()),
        {check("R3", "plain text"): "contains HTML/XML tag, Markdown bold"},
    ),
    BrokenProvider(
        "unrendered-shortcodes-and-entities",
        lambda: correct_app(TemplateMarkupBackend()),
        {check("R3", "plain text"): "contains HTML entity, template tag"},
    ),
    BrokenProvider(
        "markdown-links-in-snippets",
        lambda: correct_app(MarkdownLinkBackend()),
        {check("R3", "plain text"): "contains Markdown link, Markdown inline code"},
    ),
    BrokenProvider(
        "leaks-internal-canary-to-customer-safe",
        lambda: correct_app(LeakyBackend()),
        {check("X2", "customer_safe returns nothing"): "which agent_only labels internal"},
    ),
    BrokenProvider(
        "score-without-scoring",
        lambda: middleware.rewrite_json_responses(correct_app(), middleware.add_score),
        {check("R4", "declared capabilities"): "carries score (0.5) but scoring is not declared"},
    ),
    BrokenProvider(
        "errors-without-contract-version",
        lambda: middleware.rewrite_json_responses(correct_app(), middleware.drop_version_from_errors),
        {check("W4", "contractVersion"): "'contractVersion' is a required property"},
    ),
    BrokenProvider(
        "500-on-invalid-json",
        lambda: middleware.crash_on_invalid_json(correct_app(), [CUSTOMER_SECRET, AGENT_SECRET]),
        {check("Q6", "invalid JSON"): "truncated JSON: answered 500 internal_error",
         check("R1", "answered 500"): "answered 500: internal error"},
    ),
    BrokenProvider(
        "forged-request-burns-nonce",
        lambda: middleware.burn_every_nonce(correct_app()),
        {check("A5", "forged"): "the forged request burned the nonce"},
    ),
    BrokenProvider(
        "ignores-version-header",
        lambda: middleware.ignore_version_header(correct_app()),
        {check("W2", "version header"): "no version header: answered 200"},
    ),
    BrokenProvider(
        "verifies-a-re-serialized-body",
        lambda: middleware.reserialize_body(correct_app()),
        {check("A2", "raw bytes"): "spaced JSON signed over its own bytes: answered 401 invalid_signature",
         # A space after the JSON survives no re-serialization, so the tampering goes unseen.
         check("A2", "tampered"): "a space appended to the body: answered 200"},
    ),
    BrokenProvider(
        "audience-field-widens-reach",
        lambda: middleware.honour_audience_field(correct_app(), CUSTOMER_SECRET, AGENT_SECRET),
        {check("X4", "widens nothing"): "with audience='internal' returned",
         check("X6", "labelled public"): "labelled 'internal'"},
    ),
)
