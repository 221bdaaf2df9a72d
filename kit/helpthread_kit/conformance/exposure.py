"""Exposure checks: what a ``customer_safe`` credential can reach (CONTRACT X2–X4, X6; §2).

From outside, "internal" can only be known from what the operator tells the checker:

* A **canary query** (``--canary-query``) is a phrase the operator knows occurs in
  internal documents and in no public one.
* For each canary, ``agent_only`` must find at least one result and label every result
  containing the phrase ``internal`` (X3).
* For each canary, ``customer_safe`` must return no document that ``agent_only``
  labelled ``internal`` for the same query, and no result whose title or snippet
  contains the phrase (X2) — so a leaked internal document is caught whether it keeps its
  ``documentId`` or not, and with only the customer-safe secret.
* Every ``customer_safe`` result of the whole run is labelled ``public`` (X6).
* A **draft canary** (``--draft-canary-query``) is a phrase that occurs only in drafts
  and unpublished documents: no registration, ``agent_only`` included, may get a result
  whose title or snippet contains it (X5).
* Adding ``audience`` or a similar field to a ``customer_safe`` request returns no
  document the same request without it did not (X4); this assumes the provider answers
  identical requests identically.

Phrases are compared case-insensitively with runs of whitespace collapsed.
"""

from __future__ import annotations

import re
from typing import Any

from .expect import Tally
from .model import CheckGroup, Skipped
from .session import AGENT_ONLY, CUSTOMER_SAFE, Session

__all__ = ["WIDENING_FIELDS", "checks"]

checks = CheckGroup()

#: Request fields a careless provider might read as a widening of reach (X4).
WIDENING_FIELDS: tuple[dict[str, Any], ...] = (
    {"audience": "internal"},
    {"audience": ["public", "internal"]},
    {"audience": "all"},
    {"exposure": "agent_only"},
    {"profile": "agent_only"},
    {"reach": "agent_only"},
    {"includeInternal": True},
    {"context": {"audience": "internal"}},
    {"filter": {"audience": "internal"}},
)
#: X4 sends every widening field per query; beyond this many canaries it adds little.
MAX_WIDENING_QUERIES = 3


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def _contains(result: dict[str, Any], phrase: str) -> bool:
    wanted = _normal(phrase)
    return any(isinstance(result.get(f), str) and wanted in _normal(result[f]) for f in ("title", "snippet"))


def _need_canaries(s: Session) -> tuple[str, ...]:
    if not s.canary_queries:
        raise Skipped("no --canary-query given: name phrases that occur only in internal documents")
    return s.canary_queries


def _internal_ids(s: Session, query: str) -> set[Any]:
    """documentIds ``agent_only`` labels internal for ``query`` (empty without the agent secret)."""
    if not s.has_agent:
        return set()
    return {r.get("documentId") for r in s.search(query, AGENT_ONLY).results if r.get("audience") == "internal"}


@checks.register("X3", "agent_only labels what a canary query finds internal")
def agent_labels_internal(s: Session) -> str:
    """X3, X6 (§2.2): see the module docstring."""
    canaries = _need_canaries(s)
    s.secret(AGENT_ONLY)
    tally = Tally()
    for phrase in canaries:
        exchange = s.search(phrase, AGENT_ONLY)
        if not tally.expect(f"agent_only {phrase!r}", exchange, 200):
            continue
        results = exchange.results
        if not any(r.get("audience") == "internal" for r in results):
            tally.miss(f"canary {phrase!r}: agent_only returned no result labelled internal ({len(results)} results)")
        for result in results:
            if _contains(result, phrase) and result.get("audience") != "internal":
                tally.miss(f"canary {phrase!r}: document {result.get('documentId')!r} contains the phrase but is "
                           f"labelled {result.get('audience')!r}")
    return tally.verdict(f"for {len(canaries)} canary queries agent_only labelled the internal documents internal")


@checks.register("X2", "customer_safe returns nothing a canary query finds internally")
def customer_safe_reach(s: Session) -> str:
    """X2 (§2.2, §2.3): see the module docstring."""
    canaries = _need_canaries(s)
    tally = Tally()
    internal_seen: set[Any] = set()  # distinct documents: two canaries may find the same one
    for phrase in canaries:
        internal = _internal_ids(s, phrase)
        internal_seen |= internal
        exchange = s.search(phrase, CUSTOMER_SAFE)
        if not tally.expect(f"customer_safe {phrase!r}", exchange, 200):
            continue
        for result in exchange.results:
            if result.get("documentId") in internal:
                tally.miss(f"canary {phrase!r}: customer_safe returned {result.get('documentId')!r}, which "
                           "agent_only labels internal")
            elif _contains(result, phrase):
                tally.miss(f"canary {phrase!r}: customer_safe returned {result.get('documentId')!r}, whose text "
                           "contains the canary phrase")
    compared = f", nor any of the {len(internal_seen)} documents agent_only labels internal" if s.has_agent else \
        " (give --agent-only-secret to also compare documentIds)"
    return tally.verdict(f"for {len(canaries)} canary queries customer_safe returned no text containing the "
                         f"phrase{compared}")


@checks.register("X4", "an audience field in the request widens nothing")
def no_widening(s: Session) -> str:
    """X4 (§4.3): see the module docstring. Without canaries the probe query is used."""
    queries = list(s.canary_queries[:MAX_WIDENING_QUERIES]) or [s.probe_query()]
    tally = Tally()
    for query in queries:
        plain = s.search(query, CUSTOMER_SAFE)
        if not tally.expect(f"customer_safe {query!r}", plain, 200):
            continue
        allowed = {r.get("documentId") for r in plain.results}
        for extra in WIDENING_FIELDS:
            field = ", ".join(f"{k}={v!r}" for k, v in extra.items())
            exchange = s.search(query, CUSTOMER_SAFE, extra=extra)
            if not tally.expect(f"{query!r} with {field}", exchange, 200):
                continue
            added = [r.get("documentId") for r in exchange.results if r.get("documentId") not in allowed]
            if added:
                tally.miss(f"{query!r} with {field} returned {len(added)} documents the plain request did not, "
                           f"e.g. {added[0]!r}")
    kind = "canary" if s.canary_queries else "probe (no --canary-query given)"
    return tally.verdict(f"{len(WIDENING_FIELDS)} widening fields on {len(queries)} {kind} queries added no document")


@checks.register("X5", "drafts and unpublished documents are served to nobody")
def no_drafts(s: Session) -> str:
    """X5 (§2.1): see the module docstring."""
    if not s.draft_canary_queries:
        raise Skipped("no --draft-canary-query given: name phrases that occur only in drafts or unpublished "
                      "documents")
    tally = Tally()
    for phrase in s.draft_canary_queries:
        for profile in s.profiles():
            exchange = s.search(phrase, profile)
            if not tally.expect(f"{profile} {phrase!r}", exchange, 200):
                continue
            for result in exchange.results:
                if _contains(result, phrase):
                    tally.miss(f"draft canary {phrase!r}: {profile} was served {result.get('documentId')!r}, whose "
                               "text contains the phrase")
    return tally.verdict(f"for {len(s.draft_canary_queries)} draft canary queries no registration "
                         f"({', '.join(s.profiles())}) was served text containing the phrase")


@checks.register("X6", "every customer_safe result is labelled public", final=True)
def customer_safe_labels(s: Session) -> str:
    """X6 (final): every result any customer_safe request of the run received is
    labelled public."""
    tally = Tally()
    count = 0
    for exchange in s.exchanges:
        if exchange.profile != CUSTOMER_SAFE:
            continue
        for result in exchange.results:
            count += 1
            if result.get("audience") != "public" and len(tally.misses) < 3:
                tally.miss(f"document {result.get('documentId')!r} labelled {result.get('audience')!r}")
    if count == 0:
        raise Skipped("no customer_safe answer contained a result; pass --query or --canary-query")
    return tally.verdict(f"all {count} customer_safe results were labelled public")
