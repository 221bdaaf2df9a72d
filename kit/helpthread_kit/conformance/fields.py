"""Request field checks: each field's bounds and types (CONTRACT Q1–Q5, X8; contract §4.3).

Checks of ``locale`` and ``localeFallback`` are driven by ``GET /capabilities``: a field
of an undeclared capability must be ignored, a field of a declared one validated.
"""

from __future__ import annotations

from typing import Any

from .expect import Tally
from .model import CheckGroup, Failed, Skipped
from .session import AGENT_ONLY, DEFAULT_LIMIT, Session
from .stability import STABLE_IDS

__all__ = ["checks"]

checks = CheckGroup()

QUERY = "password reset"
INVALID = {"invalid_request"}


def _ids(results: list[dict[str, Any]]) -> list[Any]:
    return [r.get("documentId") for r in results]


@checks.register("Q1", "query is required, a non-empty string of at most 1024 characters")
def query_bounds(s: Session) -> str:
    """Q1 (§4.3): 1024 code points are accepted — astral characters count once, though they
    are two UTF-16 units — and missing, empty, blank, too long or non-string queries are 400."""
    tally = Tally()
    accepted: dict[str, Any] = {
        "1024 ASCII characters": "a" * 1024,
        "1024 astral characters (2048 UTF-16 units)": "\U0001f600" * 1024,
        "surrounding whitespace": f"  {QUERY}\t",
    }
    for label, query in accepted.items():
        tally.expect(label, s.retrieve({"query": query, "limit": 1}), 200)
    refused: dict[str, dict[str, Any]] = {
        "no query": {"limit": 1},
        "an empty query": {"query": ""},
        "a blank query": {"query": " \t\n "},
        "1025 characters": {"query": "a" * 1025},
        "1025 astral characters": {"query": "\U0001f600" * 1025},
        "a number": {"query": 42},
        "null": {"query": None},
        "an array": {"query": [QUERY]},
        "an object": {"query": {"text": QUERY}},
        "true": {"query": True},
    }
    for label, payload in refused.items():
        tally.expect(label, s.retrieve(payload), 400, INVALID)
    return tally.verdict("1024 code points were accepted; missing, empty, blank, 1025-character and "
                         "non-string queries answered 400 invalid_request")


@checks.register("Q2", "limit is an integer from 1 to 50")
def limit_bounds(s: Session) -> str:
    """Q2: 1–50 are accepted; out-of-range and non-integer values (booleans, ``10.5``,
    ``"10"``, null, a list) are 400."""
    tally = Tally()
    for good in (1, 25, 50):
        tally.expect(f"limit {good}", s.retrieve({"query": QUERY, "limit": good}), 200)
    bad: tuple[Any, ...] = (0, -1, 51, 100, True, False, 10.5, "10", None, [10])
    for limit in bad:
        tally.expect(f"limit {limit!r}", s.retrieve({"query": QUERY, "limit": limit}), 400, INVALID)
    return tally.verdict("1, 25 and 50 were accepted; 0, -1, 51, 100, booleans, 10.5, \"10\", null and "
                         "[10] answered 400 invalid_request")


@checks.register("Q2", "never more results than limit (default 10)", final=True)
def at_most_limit(s: Session) -> str:
    """Q2 (final): on a query with more results than asked for, limits 1–3 and the
    default (10) are respected; then every success answer of the whole run is judged."""
    tally = Tally()
    tested: list[str] = []
    try:
        query, available = s.broad_query(wanted=DEFAULT_LIMIT + 1)
    except Skipped:
        query, available = "", 0
    if available >= 2:
        for limit in (1, 2, 3):
            if limit < available:
                s.search(query, limit=limit)
                tested.append(str(limit))
        if available > DEFAULT_LIMIT:
            s.retrieve({"query": query})
            tested.append("absent")
    # Judge every answer of the whole run, including the ones just sent.
    judged = 0
    for exchange in s.exchanges:
        asked = exchange.requested_limit
        if exchange.status != 200 or asked is None or not exchange.path.endswith("/retrieve"):
            continue
        judged += 1
        if len(exchange.results) > asked:
            tally.miss(f"limit {asked} answered {len(exchange.results)} results")
    if not tested:
        if tally.misses:
            return tally.verdict("")
        raise Skipped("no query found 2 or more documents; pass --query with a broad query to test limit")
    return tally.verdict(f"limit {', '.join(tested)} on a query with {available} results, and all {judged} "
                         "answers of this run, stayed within limit")


@checks.register("Q3", "locale is validated when declared and ignored otherwise")
def locale(s: Session) -> str:
    """Q3: with ``locale`` declared, malformed tags are 400 and valid ones accepted; without
    it, the field is ignored whatever it holds."""
    declared = "locale" in s.declared()
    tally = Tally()
    malformed: list[Any] = ["not a tag!", "", "-", 42]
    if declared:
        for tag in ("en", "de-DE", "zh-Hant-TW"):
            tally.expect(f"locale {tag!r}", s.retrieve({"query": QUERY, "locale": tag}), 200)
        for tag in malformed:
            tally.expect(f"locale {tag!r}", s.retrieve({"query": QUERY, "locale": tag}), 400, INVALID)
        return tally.verdict("declared: valid tags accepted, malformed ones answered 400 invalid_request")
    for tag in malformed:
        tally.expect(f"locale {tag!r} (undeclared)", s.retrieve({"query": QUERY, "locale": tag}), 200)
    return tally.verdict("not declared: malformed locale values were ignored (200)")


@checks.register("Q4", "localeFallback is accepted when declared and ignored otherwise")
def locale_fallback(s: Session) -> str:
    """Q4: with ``localeFallback`` declared, booleans are accepted; without it the field
    is ignored whatever it holds."""
    declared = s.declared()
    tally = Tally()
    if "localeFallback" in declared:
        extra: dict[str, Any] = {"locale": "en"} if "locale" in declared else {}
        for flag in (True, False):
            tally.expect(f"localeFallback {flag}", s.retrieve({"query": QUERY, "localeFallback": flag, **extra}), 200)
        return tally.verdict("declared: true and false were accepted")
    ignored: tuple[Any, ...] = ("yes", 1, None)
    for value in ignored:
        tally.expect(f"localeFallback {value!r} (undeclared)",
                     s.retrieve({"query": QUERY, "localeFallback": value}), 200)
    return tally.verdict("not declared: localeFallback values were ignored (200)")


@checks.register("X8", "context.conversationId is ignored on customer_safe", depends_on=(STABLE_IDS,))
def conversation_id(s: Session) -> str:
    """X8, Q5: ``context.conversationId`` on a customer_safe request is ignored — the
    answer equals the one without it (assumes identical requests get identical answers);
    agent_only accepts it."""
    try:
        query = s.probe_query()
    except Skipped:
        query = QUERY
    plain = s.search(query, limit=10)
    if plain.status != 200:
        raise Failed(f"a plain request answered {plain.describe()}")
    tally = Tally()
    context = {"conversationId": "0b7e8c1e-7d55-4bde-9a3c-2f1f1f1f1f1f"}
    with_context = s.search(query, limit=10, extra={"context": context})
    if tally.expect("customer_safe with context.conversationId", with_context, 200) and \
            _ids(with_context.results) != _ids(plain.results):
        tally.miss("customer_safe results changed when context.conversationId was present")
    if s.has_agent:
        tally.expect("agent_only with context.conversationId",
                     s.search(query, AGENT_ONLY, limit=10, extra={"context": context}), 200)
    return tally.verdict("customer_safe results were identical with and without context.conversationId"
                         + ("; agent_only accepted it" if s.has_agent else ""))
