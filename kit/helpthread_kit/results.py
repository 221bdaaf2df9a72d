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
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .capabilities import FIELDS_BY_CAPABILITY
from .plaintext import clip_text
from .registrations import Exposure

__all__ = [
    "INTERNAL",
    "MAX_TITLE_CHARS",
    "PUBLIC",
    "SNIPPET_MAX_CHARS",
    "Repair",
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
#: Result attributes of each optional capability (the wire names are FIELDS_BY_CAPABILITY).
_ATTRIBUTES_BY_CAPABILITY = {
    "locale": ("locale",),
    "chunking": ("chunk_id",),
    "scoring": ("score",),
    "citationUrl": ("url",),
    "freshness": ("freshness", "review_due_at"),
    "translationGroups": ("translation_group_id",),
}


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

    def only_declared(self, capabilities: frozenset[str]) -> Result:
        """This result without the fields of capabilities not in ``capabilities`` (R4):
        what a backend returns when its source always has, say, a URL."""
        dropped = [attribute for capability, attributes in _ATTRIBUTES_BY_CAPABILITY.items()
                   if capability not in capabilities for attribute in attributes
                   if getattr(self, attribute) is not None]
        if not dropped:
            return self
        # A copy of the fields with some set to None: every field keeps a value its
        # __init__ accepted, so nothing needs re-checking — and dataclasses.replace(),
        # which re-runs __init__ through getattr on every field, took ~10× as long
        # (ten results per answer, on every answer).
        copy = object.__new__(type(self))
        fields = copy.__dict__
        fields.update(self.__dict__)
        for attribute in dropped:
            fields[attribute] = None
        return copy

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
    # At a space where one is near, always with an ellipsis: never mid-word without one.
    return clip_text(text, max_chars)


@dataclass(frozen=True)
class Repair:
    """Something :func:`render_results` had to fix in a backend's answer: a backend bug.

    Attributes:
        duty: the CONTRACT.md id the backend broke (``"X6"``, ``"R4"``, ``"Q2"``…).
        what: one line for the operator; never a document's content or the query.
    """

    duty: str
    what: str


def _primary_language(tag: str) -> str:
    return tag.split("-", 1)[0].casefold()


def _refusal(result: Result, exposure: Exposure, wanted_language: str | None) -> tuple[str, str] | None:
    """Why ``result`` must not be sent — ``(duty, what)`` — or ``None`` when it may."""
    if result.audience not in (PUBLIC, INTERNAL):
        return "R2", "a result with an invalid audience; dropped"
    if exposure is Exposure.CUSTOMER_SAFE and result.audience != PUBLIC:
        # The tripwire of §2.3, on our side of the wire: never sent, always reported.
        return "X6", ("a non-public result on a customer_safe request (the search read an internal source); "
                      "dropped")
    if not (
        isinstance(result.document_id, str)
        and result.document_id
        and isinstance(result.title, str)
        and result.title.strip()
        and isinstance(result.snippet, str)
        and result.snippet.strip()
    ):
        return "R2", "a result without documentId, title or snippet; dropped"
    if wanted_language and isinstance(result.locale, str) and _primary_language(result.locale) != wanted_language:
        return "Q3", "a result in another language than the requested locale, without localeFallback; dropped"
    return None


def _wire(result: Result, undeclared: list[str], repair: Callable[[str, str], None]) -> dict[str, object]:
    """``result`` as sent: lengths bounded (R3), undeclared fields removed (R4)."""
    wire = result.to_wire()
    title, snippet = result.title.strip(), result.snippet.strip()
    if len(title) > MAX_TITLE_CHARS or len(snippet) > SNIPPET_MAX_CHARS:
        repair("R3", f"a title over {MAX_TITLE_CHARS} or a snippet over {SNIPPET_MAX_CHARS} characters; clipped")
    wire["title"] = _clip(title, MAX_TITLE_CHARS)
    wire["snippet"] = _clip(snippet, SNIPPET_MAX_CHARS)
    for field in undeclared:
        if field in wire:
            del wire[field]
            repair("R4", f"{field}, a field of an undeclared capability; removed")
    return wire


def render_results(
    results: Iterable[Result],
    *,
    exposure: Exposure,
    capabilities: frozenset[str],
    limit: int,
    locale: str | None = None,
    locale_fallback: bool = False,
    repairs: list[Repair] | None = None,
) -> dict[str, object]:
    """Build the ``/retrieve`` response envelope ``{"contractVersion": 1, "results": [...]}``.

    Every fix it makes is a backend bug; each is logged, and appended to ``repairs``
    when given (the application counts them, and refuses the answer in strict mode):

    ====  ==========================================================================
    X6    a non-public result on a ``customer_safe`` request (dropped)
    R2    a result without ``documentId``, ``title`` or ``snippet``, or with an
          invalid ``audience`` (dropped)
    R3    a title or snippet over its length bound (clipped)
    R4    a field of an undeclared capability (removed)
    Q2    more results than ``limit`` (cut)
    Q3    with ``locale`` declared and no fallback asked for, a result in another
          language than the requested one (dropped)
    ====  ==========================================================================

    Args:
        results: the backend's results, best first.
        exposure: the exposure of the authenticated registration.
        capabilities: the declared capabilities.
        limit: the request's ``limit``; never exceeded.
        locale: the requested BCP 47 tag (only when ``locale`` is declared).
        locale_fallback: whether the request accepts other languages.
        repairs: receives one :class:`Repair` per kind of fix made.
    """
    found: dict[str, Repair] = {}

    def repair(duty: str, what: str) -> None:
        if duty not in found:
            found[duty] = Repair(duty, what)
            log.error("backend fault (%s): %s", duty, what)

    undeclared = [f for cap, fields in FIELDS_BY_CAPABILITY.items() if cap not in capabilities for f in fields]
    wanted_language = _primary_language(locale) if locale and "locale" in capabilities and not locale_fallback \
        else None
    out: list[dict[str, object]] = []
    for result in results:
        if len(out) >= limit:
            repair("Q2", f"the backend returned more results than limit {limit}; cut")
            break
        refusal = _refusal(result, exposure, wanted_language)
        if refusal is not None:
            repair(*refusal)
            continue
        out.append(_wire(result, undeclared, repair))
    if repairs is not None:
        repairs.extend(found.values())
    return {"contractVersion": 1, "results": out}
