"""Response checks, judged over every answer of the run (CONTRACT W4, W6, W7, R1–R7; §4.4).

These are *final* checks: they run after all others and look at every exchange the
session recorded, so an error envelope without ``contractVersion`` is found whichever
check provoked it. Schema problems reach the check of the duty they concern
(``validation.py``), so one fault fails one check.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from .expect import Tally
from .model import CheckGroup, Skipped
from .plaintext import markup_in
from .session import Exchange, Session

__all__ = ["FIELDS_BY_CAPABILITY", "checks"]

checks = CheckGroup()

#: Result fields that may appear only when their capability is declared (CONTRACT R4).
FIELDS_BY_CAPABILITY: dict[str, tuple[str, ...]] = {
    "locale": ("locale",),
    "chunking": ("chunkId",),
    "scoring": ("score",),
    "citationUrl": ("url",),
    "freshness": ("freshness", "reviewDueAt"),
    "translationGroups": ("translationGroupId",),
}
#: Contract §4.2: the core gives up after 10 s and fails answers over 1 MiB.
MAX_ANSWER_S = 10.0
MAX_ANSWER_BYTES = 1024 * 1024
#: At most this many misses are spelled out in one reason.
SHOWN = 3
_RFC3339_UTC = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z")


def _problems(s: Session, duty: str) -> list[str]:
    return [f"{e.method} {e.path}: {text}" for e in s.exchanges for d, text in e.problems if d == duty]


def _results(s: Session) -> Iterator[tuple[Exchange, dict[str, Any]]]:
    for exchange in s.exchanges:
        for result in exchange.results:
            yield exchange, result


def _label(result: dict[str, Any]) -> str:
    return f"document {str(result.get('documentId'))[:80]!r}"


def _verdict(misses: list[str], passed: str) -> str:
    # The same result is often seen in several answers; name each miss once.
    misses = list(dict.fromkeys(misses))
    tally = Tally()
    for miss in misses[:SHOWN]:
        tally.miss(miss)
    if len(misses) > SHOWN:
        tally.miss(f"… and {len(misses) - SHOWN} more")
    return tally.verdict(passed)


def _need_results(s: Session) -> int:
    count = sum(1 for _ in _results(s))
    if count == 0:
        raise Skipped("no answer contained a result; pass --query with words your public documents contain")
    return count


@checks.register("W4", "every answer is JSON with contractVersion 1, errors in the agreed envelope", final=True)
def envelope(s: Session) -> str:
    """W4 (final): every answer is JSON with ``contractVersion: 1``; errors match the
    error envelope and its code vocabulary."""
    errors = sum(1 for e in s.exchanges if e.status >= 400)
    return _verdict(_problems(s, "W4"), f"all {len(s.exchanges)} answers, {errors} of them errors, carried "
                                        "contractVersion 1 in the agreed envelope")


@checks.register("R1", "success answers match the retrieve-response schema, best first", final=True)
def success_schema(s: Session) -> str:
    """R1 (final): success answers match the retrieve-response schema; with scores, results
    come best first."""
    misses = _problems(s, "R1")
    successes = [e for e in s.exchanges if e.status == 200 and e.path.endswith("/retrieve")]
    for exchange in successes:
        scores = [r.get("score") for r in exchange.results]
        numeric = [x for x in scores if isinstance(x, (int, float)) and not isinstance(x, bool)]
        if len(numeric) == len(scores) and numeric != sorted(numeric, reverse=True):
            misses.append("results are not ordered best first: their scores increase")
    if not successes:
        raise Skipped("no retrieval succeeded")
    return _verdict(misses, f"all {len(successes)} success answers matched the schema")


@checks.register("R1", "no correctly signed request is answered 500", final=True)
def no_server_errors(s: Session) -> str:
    """R1 (final): a correctly signed request gets results or an error of the contract's
    vocabulary, never a ``500``. A provider running strict (the test kit, a staging
    deployment) answers ``500`` when its backend broke a duty the contract layer would
    otherwise repair, and the message names it (``X6``, ``R4``, ``Q2``, ``Q3``…)."""
    misses = [f"{e.method} {e.path} ({e.profile}) answered 500: {_message(e)}"
              for e in s.exchanges if e.status >= 500 and e.status != 503 and e.profile is not None]
    return _verdict(misses, f"none of {len(s.exchanges)} answers was a server error")


def _message(exchange: Exchange) -> str:
    data = exchange.data if isinstance(exchange.data, dict) else {}
    error = data.get("error") if isinstance(data.get("error"), dict) else {}
    return str(error.get("message", "(no envelope)"))[:200]  # type: ignore[union-attr]


@checks.register("R2", "every result has documentId, title, snippet and audience", final=True)
def required_fields(s: Session) -> str:
    """R2 (final): every result has non-empty ``documentId``, ``title``, ``snippet`` and a
    valid ``audience``."""
    count = _need_results(s)
    return _verdict(_problems(s, "R2"), f"all {count} results carried the required fields")


@checks.register("R3", "titles and snippets are plain text: no markup of any kind", final=True)
def plain_text(s: Session) -> str:
    """R3 (final): no title or snippet of the run contains markup (``plaintext.py``), is
    empty, or exceeds the schema's length bounds."""
    count = _need_results(s)
    misses = _problems(s, "R3")
    for _, result in _results(s):
        for field in ("title", "snippet"):
            value = result.get(field)
            kinds = markup_in(value) if isinstance(value, str) else []
            if kinds and isinstance(value, str):
                misses.append(f"{_label(result)} {field} contains {', '.join(kinds)}: {value[:80]!r}")
    return _verdict(misses, f"all {count} titles and snippets were non-empty plain text")


@checks.register("R4", "result fields appear only for declared capabilities", final=True)
def capability_fields(s: Session) -> str:
    """R4 (final): no result carries a field of a capability ``/capabilities`` does not
    declare — not even as null; declared fields have the schema's shapes."""
    count = _need_results(s)
    declared = s.declared()
    undeclared = {field: cap for cap, fields in FIELDS_BY_CAPABILITY.items() if cap not in declared for field in fields}
    misses = _problems(s, "R4")
    for _, result in _results(s):
        for field in sorted(set(result) & set(undeclared)):
            misses.append(
                f"{_label(result)} carries {field} ({result[field]!r}) but {undeclared[field]} is not declared"
            )
    return _verdict(misses, f"all {count} results carried only fields of declared capabilities "
                            f"({', '.join(sorted(declared))})")


@checks.register("R5", "revision stays the same while nothing changes", final=True)
def revision_stable(s: Session) -> str:
    """R5 (final): the same query twice gives every document the same ``revision``.
    Skipped when no result carries one (it is optional)."""
    query = s.probe_query()
    tally = Tally()
    seen = 0
    for profile in s.profiles():
        first, second = s.search(query, profile), s.search(query, profile)
        before = {r.get("documentId"): r.get("revision") for r in first.results}
        for result in second.results:
            key = result.get("documentId")
            if "revision" in result and key in before:
                seen += 1
                if before[key] != result["revision"]:
                    tally.miss(f"{profile}: {_label(result)} changed revision between two identical requests")
    for problem in _problems(s, "R5"):
        tally.miss(problem)
    if not seen and not tally.misses:
        raise Skipped("no result carries revision (optional, §4.4)")
    return tally.verdict(f"{seen} revisions were identical across two identical requests")


@checks.register("R6", "freshness is current/stale/unknown and reviewDueAt RFC 3339 UTC", final=True)
def freshness(s: Session) -> str:
    """R6 (final): with ``freshness`` declared, values are current/stale/unknown and
    ``reviewDueAt`` is an RFC 3339 UTC timestamp."""
    if "freshness" not in s.declared():
        raise Skipped("freshness is not declared (R4 checks that its fields are absent)")
    misses = _problems(s, "R6")
    seen = 0
    for _, result in _results(s):
        if "freshness" in result:
            seen += 1
            if result["freshness"] not in ("current", "stale", "unknown"):
                misses.append(f"{_label(result)} freshness {result['freshness']!r}")
        if "reviewDueAt" in result:
            value = result["reviewDueAt"]
            if not isinstance(value, str) or not _RFC3339_UTC.fullmatch(value) or not _valid_datetime(value):
                misses.append(f"{_label(result)} reviewDueAt {value!r} is not RFC 3339 UTC")
    return _verdict(misses, f"{seen} freshness values and their reviewDueAt were well formed")


def _valid_datetime(value: str) -> bool:
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


@checks.register("R7", "url is absolute https without userinfo", final=True)
def urls(s: Session) -> str:
    """R7 (final): with ``citationUrl`` declared, every ``url`` is absolute https without
    userinfo."""
    if "citationUrl" not in s.declared():
        raise Skipped("citationUrl is not declared (R4 checks that url is absent)")
    misses = _problems(s, "R7")
    seen = 0
    for _, result in _results(s):
        if "url" not in result:
            continue
        seen += 1
        value = result["url"]
        parts = urlsplit(value) if isinstance(value, str) else None
        if parts is None or parts.scheme != "https" or not parts.hostname or "@" in parts.netloc or \
                any(c.isspace() for c in value):
            misses.append(f"{_label(result)} url {str(value)[:100]!r} is not an absolute https URL without userinfo")
    return _verdict(misses, f"{seen} urls were absolute https without userinfo")


@checks.register("W6", "answers arrive within 10 s and stay below 1 MiB", final=True)
def answer_limits(s: Session) -> str:
    """W6 (final, §4.2): every answer came within 10 s and is below 1 MiB."""
    misses = []
    for exchange in s.exchanges:
        if exchange.elapsed_s > MAX_ANSWER_S:
            misses.append(f"{exchange.method} {exchange.path} took {exchange.elapsed_s:.1f} s")
        if len(exchange.body) > MAX_ANSWER_BYTES:
            misses.append(f"{exchange.method} {exchange.path} answered {len(exchange.body)} bytes")
    slowest = max((e.elapsed_s for e in s.exchanges), default=0.0)
    largest = max((len(e.body) for e in s.exchanges), default=0)
    return _verdict(misses, f"slowest of {len(s.exchanges)} answers {slowest * 1000:.0f} ms, largest {largest} bytes")


@checks.register("W7", "503 and 429 answers carry Retry-After", final=True)
def retry_after(s: Session) -> str:
    """W7 (final, §4.2): every 429/503 of the run carried ``Retry-After``. Skipped when
    none occurred."""
    transient = [e for e in s.exchanges if e.status in (429, 503)]
    if not transient:
        raise Skipped("no 429/503 answer occurred; overload cannot be provoked safely from outside")
    misses = [f"{e.method} {e.path} answered {e.describe()} without Retry-After"
              for e in transient if not e.headers.get("retry-after", "").strip()]
    return _verdict(misses, f"all {len(transient)} 429/503 answers carried Retry-After")
