"""Wire checks: routes, version header, media types, body size, JSON strictness and
forward compatibility (CONTRACT W1–W3, W5, C3, Q6; contract §4, §4.1, §3.3)."""

from __future__ import annotations

from typing import Any

import httpx

from .expect import Tally
from .model import CheckGroup, Failed, Skipped
from .session import Session, encode
from .stability import STABLE_IDS

__all__ = ["KNOWN_CAPABILITIES", "checks"]

checks = CheckGroup()

#: The capability names of contract §3.3 (CONTRACT C1).
KNOWN_CAPABILITIES = frozenset({
    "retrieve", "semanticSearch", "locale", "localeFallback", "freshness", "translationGroups", "chunking",
    "scoring", "citationUrl",
})
VERSION = "X-Helpthread-Knowledge-Version"
BODY = encode({"query": "password reset", "limit": 1})
#: Far above any sensible request limit ("a few KiB is plenty", CONTRACT Errors).
OVERSIZED_BYTES = 1024 * 1024
#: The contract counts nesting deeper than "a small bound" as invalid (Q6).
DEEP = 2000


def _baseline(s: Session) -> None:
    exchange = s.retrieve(BODY)
    if exchange.status != 200:
        raise Failed(f"a correct request answered {exchange.describe()}, so refusals prove nothing")


@checks.register("W1", "signed requests are answered on POST /retrieve and GET /capabilities")
def routes(s: Session) -> str:
    """W1 (§4, §3.3): both routes answer 200 to correctly signed requests, for every
    registration the checker holds a secret for."""
    tally = Tally()
    for profile in s.profiles():
        tally.expect(f"{profile} POST /retrieve", s.retrieve(BODY, profile), 200)
        tally.expect(f"{profile} GET /capabilities", s.capabilities(profile), 200)
    return tally.verdict(f"both routes answered 200 for {' and '.join(s.profiles())}")


@checks.register("C3", "GET /capabilities declares retrieve and only known names")
def capabilities_shape(s: Session) -> str:
    """C1, C3: ``{"contractVersion": 1, "capabilities": [...]}`` with ``retrieve``, names
    from §3.3 only, none twice."""
    tally = Tally()
    declared: list[str] = []
    for profile in s.profiles():
        exchange = s.capabilities(profile)
        if not tally.expect(f"{profile} GET /capabilities", exchange, 200):
            continue
        data = exchange.data if isinstance(exchange.data, dict) else {}
        names = data.get("capabilities")
        if not isinstance(names, list):
            tally.miss(f"{profile}: the answer has no capabilities list")
            continue
        if "retrieve" not in names:
            tally.miss(f"{profile}: retrieve (mandatory, C1) is not declared")
        unknown = [n for n in names if n not in KNOWN_CAPABILITIES]
        if unknown:
            tally.miss(f"{profile}: unknown capability names {unknown!r}")
        if len(names) != len(set(map(str, names))):
            tally.miss(f"{profile}: a capability is listed twice")
        for _, problem in (p for p in exchange.problems if p[0] == "C3"):
            tally.miss(f"{profile}: {problem}")
        declared = [str(n) for n in names]
    return tally.verdict(f"declares {', '.join(declared)}")


@checks.register("W2", "a missing or wrong version header is refused")
def version_header(s: Session) -> str:
    """W2 (§4.1): ``X-Helpthread-Knowledge-Version`` missing, empty or anything but ``1`` is
    400 unsupported_version, on both routes."""
    _baseline(s)
    tally = Tally()
    for value in (None, "2", "0", "1.0", "v1", ""):
        headers = s.signed(BODY)
        label = "no version header" if value is None else f"version {value!r}"
        if value is None:
            del headers[VERSION]
        else:
            headers[VERSION] = value
        tally.expect(f"POST /retrieve, {label}", s.send("POST", "/retrieve", body=BODY, headers=headers),
                     400, {"unsupported_version"})
    headers = s.signed(b"", content_type=None)
    del headers[VERSION]
    tally.expect("GET /capabilities, no version header", s.send("GET", "/capabilities", headers=headers),
                 400, {"unsupported_version"})
    return tally.verdict(f"all {tally.tried} answered 400 unsupported_version")


@checks.register("W3", "JSON media types with parameters in any order and case are accepted")
def media_types_accepted(s: Session) -> str:
    """W3: ``application/json`` with or without a UTF-8 charset, in any case, with
    parameters in any order and quoted, is accepted."""
    tally = Tally()
    for content_type in (
        "application/json; charset=utf-8",
        "application/json",
        "application/json;charset=UTF-8",
        "APPLICATION/JSON; CHARSET=UTF-8",
        'application/json; charset="utf-8"',
        "application/json; profile=x; charset=utf-8",
    ):
        tally.expect(repr(content_type), s.retrieve(BODY, content_type=content_type), 200)
    return tally.verdict(f"all {tally.tried} spellings of application/json were accepted")


@checks.register("W3", "other media types are refused")
def media_types_refused(s: Session) -> str:
    """W3: no Content-Type, or another media type (including look-alikes such as
    ``application/jsonx``), is 415."""
    _baseline(s)
    tally = Tally()
    for content_type in (None, "text/plain", "application/x-www-form-urlencoded", "application/xml",
                         "application/jsonx", "text/json"):
        label = "no Content-Type" if content_type is None else repr(content_type)
        tally.expect(label, s.retrieve(BODY, content_type=content_type), 415, {"unsupported_media_type"})
    return tally.verdict(f"all {tally.tried} answered 415 unsupported_media_type")


@checks.register("Q6", "an oversized body is refused with 413 (or 400), never 2xx or 5xx")
def oversized(s: Session) -> str:
    """Q6 and the error table: a correctly signed 1 MiB body is 413 (400 tolerated); never
    accepted, never a server error, never a dropped connection."""
    padding = "x" * OVERSIZED_BYTES
    body = encode({"query": "password reset", "limit": 1, "padding": padding})
    try:
        exchange = s.retrieve(body)
    except httpx.HTTPError as exc:
        raise Failed(f"a 1 MiB body got no answer ({type(exc).__name__}), where 413 was expected") from None
    tally = Tally()
    tally.expect("a correctly signed 1 MiB body", exchange, (413, 400), {"payload_too_large", "invalid_request"})
    return tally.verdict(f"a correctly signed 1 MiB body answered {exchange.describe()}")


def _invalid_bodies() -> dict[str, tuple[bytes, tuple[int, ...]]]:
    only_400 = (400,)
    # Deep or long bodies may also meet the size limit first.
    big = (400, 413)
    return {
        "an array": (b"[]", only_400),
        "a string": (b'"password reset"', only_400),
        "null": (b"null", only_400),
        "a number": (b"42", only_400),
        "an empty body": (b"", only_400),
        "truncated JSON": (b'{"query":"password reset"', only_400),
        "a trailing comma": (b'{"query":"password reset",}', only_400),
        "single quotes": (b"{'query':'password reset'}", only_400),
        "a comment": (b'{"query":"password reset" /* x */}', only_400),
        "trailing garbage": (b'{"query":"password reset"} x', only_400),
        "duplicate keys": (b'{"query":"password reset","query":"invoice"}', only_400),
        "a lone high surrogate": (b'{"query":"password \\ud800"}', only_400),
        "a lone low surrogate": (b'{"query":"\\udc00 password"}', only_400),
        "invalid UTF-8": (b'{"query":"password \xff"}', only_400),
        "overlong UTF-8": (b'{"query":"password \xc0\xaf"}', only_400),
        "UTF-16": ('{"query":"password"}'.encode("utf-16-le"), only_400),
        "NaN": (b'{"query":"password reset","limit":NaN}', only_400),
        "Infinity": (b'{"query":"password reset","limit":Infinity}', only_400),
        "-Infinity": (b'{"query":"password reset","limit":-Infinity}', only_400),
        f"arrays nested {DEEP} deep": (b'{"query":"password reset","x":' + b"[" * DEEP + b"]" * DEEP + b"}", big),
        "objects nested 1000 deep": (b'{"query":"password reset","x":' + b'{"a":' * 1000 + b"1" + b"}" * 1000 + b"}",
                                     big),
        "a 4000-digit number": (b'{"query":"password reset","limit":1' + b"0" * 4000 + b"}", big),
    }


@checks.register("Q6", "invalid JSON of every kind is refused with 400, never 500")
def invalid_json(s: Session) -> str:
    """Q6 (§4.3): bodies that are not a JSON object, or not strict JSON — duplicate keys,
    lone surrogates, invalid UTF-8, NaN/Infinity, deep nesting — are 400 (413 tolerated
    for the deep or long ones), never 500."""
    _baseline(s)
    tally = Tally()
    for label, (body, statuses) in _invalid_bodies().items():
        tally.expect(label, s.retrieve(body), statuses, {"invalid_request", "payload_too_large"})
    return tally.verdict(f"all {tally.tried} invalid bodies answered 400 invalid_request")


@checks.register("W5", "unknown request fields are ignored", depends_on=(STABLE_IDS,))
def unknown_fields(s: Session) -> str:
    """W5 (§4.1): unknown fields, nested ones included, change nothing in the answer
    (assumes identical requests get identical answers)."""
    try:
        query = s.probe_query()
    except Skipped:
        query = "password reset"
    plain = s.search(query, limit=10)
    if plain.status != 200:
        raise Failed(f"a plain request answered {plain.describe()}")
    tally = Tally()
    variants: dict[str, dict[str, Any]] = {
        "an unknown object field": {"futureField": {"nested": [1, 2, {"x": None}]}},
        "unknown scalar fields": {"mode": "hybrid", "boost": 2.5, "explain": True, "filter": None},
        "an unknown context member": {"context": {"futureHint": "x"}},
    }
    expected = [r.get("documentId") for r in plain.results]
    for label, extra in variants.items():
        exchange = s.search(query, limit=10, extra=extra)
        if tally.expect(label, exchange, 200):
            got = [r.get("documentId") for r in exchange.results]
            if got != expected:
                tally.miss(f"{label}: the results changed ({len(got)} vs {len(expected)} documents)")
    return tally.verdict(f"answers with unknown fields equal the plain answer ({len(expected)} results)")
