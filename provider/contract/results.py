"""Result objects and the response envelope (CONTRACT R1–R7, X6, W4; §4.4).

Backends return :class:`Result` objects. :func:`render_results` is the last gate before
the wire and enforces, for every backend alike:

* at most ``limit`` results, in the backend's order (best first, R1, Q2);
* the required fields present and non-empty (R2) — a result missing one is dropped;
* for a ``customer_safe`` registration, nothing but ``audience == "public"`` (X2, X6):
  anything else is dropped and reported as a backend fault, never sent;
* fields of undeclared capabilities absent, not ``null`` (R4);
* ``snippet`` and ``title`` bounded in length (R3).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from .capabilities import FIELDS_BY_CAPABILITY
from .registrations import Exposure

__all__ = [
    "INTERNAL",
    "MAX_TITLE_CHARS",
    "PUBLIC",
    "SNIPPET_MAX_CHARS",
    "Result",
    "render_results",
]

log = logging.getLogger(__name__)

PUBLIC = "public"
INTERNAL = "internal"
#: Upper bound on ``snippet`` length in characters (code points), ellipsis included.
SNIPPET_MAX_CHARS = 480
#: Upper bound on ``title`` length in characters.
MAX_TITLE_CHARS = 300


@dataclass(frozen=True)
class Result:
    """One search result as a backend produces it (§4.4).

    Required: ``document_id`` (stable across restarts and re-indexing), ``title`` and
    ``snippet`` (plain text, never empty), ``audience`` (``"public"`` or ``"internal"``,
    the document's true classification). Every other field is optional and is sent only
    when its capability is declared (R4).

    Attributes:
        score: in [0, 1], higher is better, monotonic with rank (``scoring``).
        review_due_at: RFC 3339 UTC, e.g. ``"2027-01-31T00:00:00Z"`` (``freshness``).
        url: absolute ``https`` URL without userinfo (``citationUrl``, R7).
    """

    document_id: str
    title: str
    snippet: str
    audience: str
    revision: str | None = None
    chunk_id: str | None = None
    url: str | None = None
    locale: str | None = None
    score: float | None = None
    freshness: str | None = None
    review_due_at: str | None = None
    translation_group_id: str | None = None

    def to_wire(self) -> dict[str, object]:
        """Every non-``None`` field under its wire name (before capability filtering)."""
        pairs: list[tuple[str, object]] = [
            ("documentId", self.document_id),
            ("title", self.title),
            ("snippet", self.snippet),
            ("audience", self.audience),
            ("revision", self.revision),
            ("chunkId", self.chunk_id),
            ("url", self.url),
            ("locale", self.locale),
            ("score", self.score),
            ("freshness", self.freshness),
            ("reviewDueAt", self.review_due_at),
            ("translationGroupId", self.translation_group_id),
        ]
        return {key: value for key, value in pairs if value is not None}


def _clip(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    return text[: max_chars - 1].rstrip() + "…"


def render_results(
    results: Iterable[Result], *, exposure: Exposure, capabilities: frozenset[str], limit: int
) -> dict[str, object]:
    """Build the ``/retrieve`` response envelope ``{"contractVersion": 1, "results": [...]}``.

    Args:
        results: the backend's results, best first.
        exposure: the exposure of the authenticated registration.
        capabilities: the declared capabilities.
        limit: the request's ``limit``; never exceeded.
    """
    undeclared = [f for cap, fields in FIELDS_BY_CAPABILITY.items() if cap not in capabilities for f in fields]
    out: list[dict[str, object]] = []
    for result in results:
        if len(out) >= limit:
            break
        if result.audience not in (PUBLIC, INTERNAL):
            log.error("backend returned a result with an invalid audience; dropped")
            continue
        if exposure is Exposure.CUSTOMER_SAFE and result.audience != PUBLIC:
            # The tripwire of §2.3, on our side of the wire: never sent, always reported.
            log.error("backend returned a non-public result to a customer_safe request; dropped")
            continue
        if not (
            isinstance(result.document_id, str)
            and result.document_id
            and isinstance(result.title, str)
            and result.title.strip()
            and isinstance(result.snippet, str)
            and result.snippet.strip()
        ):
            log.error("backend returned a result without documentId, title or snippet; dropped")
            continue
        wire = result.to_wire()
        wire["title"] = _clip(result.title.strip(), MAX_TITLE_CHARS)
        wire["snippet"] = _clip(result.snippet.strip(), SNIPPET_MAX_CHARS)
        for field in undeclared:
            wire.pop(field, None)
        out.append(wire)
    return {"contractVersion": 1, "results": out}
