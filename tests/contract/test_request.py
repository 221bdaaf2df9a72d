"""Reading a retrieval request (CONTRACT W2, W3, W5, Q1–Q6, X4, X8; contract §4.1, §4.3)."""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

import pytest

from helpthread_kit.capabilities import ALL_CAPABILITIES, LOCALE, LOCALE_FALLBACK, MINIMUM
from helpthread_kit.errors import InvalidRequest, UnsupportedMediaType, UnsupportedVersion
from helpthread_kit.registrations import Exposure
from helpthread_kit.request import (
    DEFAULT_LIMIT,
    MAX_JSON_DEPTH,
    MAX_LIMIT,
    MAX_QUERY_CHARS,
    RetrieveRequest,
    check_content_type,
    check_version,
    loads_strict,
    parse_retrieve_request,
)

CUSTOMER = Exposure.CUSTOMER_SAFE
AGENT = Exposure.AGENT_ONLY
ALL = frozenset(ALL_CAPABILITIES)
ASTRAL = "\U0001f600"  # one code point, four UTF-8 bytes, two UTF-16 code units


def encode(payload: Any) -> bytes:
    return json.dumps(payload, ensure_ascii=False).encode("utf-8")


def parse(
    payload: Any, *, exposure: Exposure = CUSTOMER, capabilities: frozenset[str] = MINIMUM
) -> RetrieveRequest:
    body = payload if isinstance(payload, bytes) else encode(payload)
    return parse_retrieve_request(body, exposure=exposure, capabilities=capabilities)


def invalid_field(payload: Any, **kwargs: Any) -> str:
    """Parse, expect InvalidRequest, and return the field it names."""
    with pytest.raises(InvalidRequest) as info:
        parse(payload, **kwargs)
    error = info.value
    assert error.status == 400
    assert error.code == "invalid_request"
    assert error.message.startswith(f"{error.field}: ")
    return error.field


# --------------------------------------------------------------------------------------
# Headers (W2, W3)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["1", " 1 ", "1\t"])
def test_w2_version_1_accepted(value: str) -> None:
    """W2: X-Helpthread-Knowledge-Version: 1 (surrounding whitespace tolerated)."""
    check_version(value)


@pytest.mark.parametrize("value", [None, "", " ", "2", "0", "01", "1.0", "v1", "1,1", "one", "11"])
def test_w2_missing_or_other_version_refused(value: str | None) -> None:
    """W2: a missing or non-1 version is 400 unsupported_version."""
    with pytest.raises(UnsupportedVersion) as info:
        check_version(value)
    assert info.value.status == 400
    assert info.value.code == "unsupported_version"


@pytest.mark.parametrize(
    "value",
    [
        "application/json; charset=utf-8",
        "application/json;charset=utf-8",
        "application/json; charset=UTF-8",
        "Application/JSON; Charset=UTF-8",
        "APPLICATION/JSON; CHARSET=utf-8",
        'application/json; charset="utf-8"',
        "application/json; charset=utf8",
        "application/json; foo=bar; charset=utf-8",
        "application/json; charset=utf-8; foo=bar",
        "application/json",
        "application/json ; charset = utf-8",
    ],
)
def test_w3_json_content_type_variants_accepted(value: str) -> None:
    """W3: application/json with a UTF-8 charset in any case or parameter order, or no charset."""
    check_content_type(value)


@pytest.mark.parametrize(
    "value",
    [
        None,
        "",
        "application/json; charset=latin-1",
        "application/json; charset=iso-8859-1",
        "application/json; charset=utf-16",
        "application/json; charset=",
        "text/plain",
        "text/plain; charset=utf-8",
        "text/json",
        "application/jsonx",
        "application/json-seq",
        "application/problem+json",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/*",
        "*/*",
        "json",
    ],
)
def test_w3_other_media_types_or_charsets_refused(value: str | None) -> None:
    """W3: anything but JSON in UTF-8 is 415 unsupported_media_type; so is a missing header."""
    with pytest.raises(UnsupportedMediaType) as info:
        check_content_type(value)
    assert info.value.status == 415
    assert info.value.code == "unsupported_media_type"


# --------------------------------------------------------------------------------------
# Strict JSON (Q6)
# --------------------------------------------------------------------------------------


def body_error(body: bytes) -> InvalidRequest:
    with pytest.raises(InvalidRequest) as info:
        loads_strict(body)
    assert info.value.field == "body"
    assert info.value.status == 400
    return info.value


@pytest.mark.parametrize(
    "body",
    [
        b"\xff",
        b'{"query": "\xc3"}',
        b'{"query": "\xc3\x28"}',
        b'{"query": "\xed\xa0\x80"}',  # a surrogate encoded as UTF-8 (CESU)
        b'{"query": "\xc0\xaf"}',  # overlong encoding of '/'
        '{"query": "caf\u00e9"}'.encode("latin-1"),
        '{"query": "x"}'.encode("utf-16"),
    ],
    ids=["ff", "truncated", "bad-continuation", "encoded-surrogate", "overlong", "latin-1", "utf-16"],
)
def test_q6_invalid_utf8_refused(body: bytes) -> None:
    """Q6/W3: a body that is not valid UTF-8 is 400 naming body."""
    body_error(body)


def test_q6_utf8_bom_refused() -> None:
    """Q6: a UTF-8 byte order mark is refused."""
    assert "byte order mark" in body_error(b'\xef\xbb\xbf{"query": "x"}').message


@pytest.mark.parametrize(
    "body",
    [
        b'{"query": "a", "query": "b"}',
        b'{"query": "a", "query": "a"}',
        b'{"query": "a", "context": {"conversationId": "x", "conversationId": "y"}}',
        b'{"query": "a", "extra": [{"k": 1, "k": 2}]}',
        b'{"query": "a", "\\u0071uery": "b"}',  # the same key, once escaped
    ],
    ids=["top-level", "same-value", "nested-object", "in-array", "escaped-key"],
)
def test_q6_duplicate_keys_refused(body: bytes) -> None:
    """Q6: a JSON object with the same key twice, at any depth, is refused."""
    assert "same key twice" in body_error(body).message


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
@pytest.mark.parametrize("where", ["limit", "unknown"])
def test_q6_nan_and_infinity_refused(constant: str, where: str) -> None:
    """Q6: NaN, Infinity and -Infinity are not JSON; refused wherever they appear."""
    body_error(f'{{"query": "x", "{where}": {constant}}}'.encode())


@pytest.mark.parametrize(
    "body",
    [
        b'{"query": "\\ud800"}',
        b'{"query": "\\udfff"}',
        b'{"query": "x\\ud83d"}',
        b'{"query": "\\ude00\\ud83d"}',
        b'{"\\ud800": "x", "query": "q"}',
        b'{"query": "q", "extra": ["\\udc00"]}',
        b'{"query": "q", "context": {"conversationId": "\\ud800"}}',
    ],
    ids=["high", "low", "trailing-high", "reversed-pair", "in-key", "in-array", "nested"],
)
def test_q6_lone_surrogates_refused(body: bytes) -> None:
    """Q6: a lone surrogate anywhere (value, key, nested) is 400, never a 500 later."""
    assert "surrogate" in body_error(body).message


def test_q6_escaped_surrogate_pair_is_one_code_point() -> None:
    """Q6: a correctly paired escape is a normal astral character."""
    assert loads_strict(b'{"query": "\\ud83d\\ude00"}') == {"query": ASTRAL}


def nested(depth: int, open_: str = "[", close: str = "]") -> bytes:
    if open_ == "{":
        return ('{"a":' * depth + "1" + "}" * depth).encode()
    return (open_ * depth + close * depth).encode()


@pytest.mark.parametrize("kind", ["[", "{"])
def test_q6_nesting_within_bound_accepted(kind: str) -> None:
    """Q6: nesting up to MAX_JSON_DEPTH levels is fine."""
    loads_strict(nested(MAX_JSON_DEPTH, kind))


@pytest.mark.parametrize("kind", ["[", "{"])
@pytest.mark.parametrize("extra", [1, 2, 100_000])
def test_q6_nesting_beyond_bound_refused(kind: str, extra: int) -> None:
    """Q6: nesting deeper than MAX_JSON_DEPTH is 400 (and very deep input is not a RecursionError)."""
    assert "nests deeper" in body_error(nested(MAX_JSON_DEPTH + extra, kind)).message


def test_q6_depth_bound_is_small() -> None:
    """Q6: 'a small bound' — the request needs two levels; the bound must be far below recursion limits."""
    assert 2 <= MAX_JSON_DEPTH <= 64


def test_q6_brackets_inside_strings_do_not_count_as_nesting() -> None:
    """Q6: only structural brackets count toward depth, not brackets in strings or after escapes."""
    many = "[{" * (MAX_JSON_DEPTH * 2)
    assert loads_strict(json.dumps({"query": many}).encode()) == {"query": many}
    tricky = '\\"' + many + '\\\\'
    body = ('{"query": "' + tricky + '"}').encode()
    assert loads_strict(body) == {"query": '"' + many + "\\"}


def test_q6_mixed_nesting_counts_depth_not_bracket_total() -> None:
    """Q6: many siblings at shallow depth are fine; only depth is bounded."""
    loads_strict(("[" + ",".join(["[]"] * 1000) + "]").encode())


@pytest.mark.parametrize(
    "body",
    [
        b'{"query": "x", "n": ' + b"9" * 5000 + b"}",
        b'{"query": "x", "limit": ' + b"1" * 4301 + b"}",
        b'{"query": "x", "n": -' + b"9" * 10_000 + b"}",
    ],
    ids=["5000-digits", "limit-4301-digits", "negative-10000-digits"],
)
def test_q6_huge_integer_strings_refused(body: bytes) -> None:
    """Q6: numbers Python refuses to convert are 400, not a ValueError (500)."""
    body_error(body)


@pytest.mark.parametrize(
    "body",
    [b"", b" ", b"{", b'{"query": }', b'{"query": "x",}', b"[1,]", b"{'query': 'x'}", b'{"query": "x"} {}', b"nul"],
)
def test_q6_syntax_errors_refused(body: bytes) -> None:
    """Q6: malformed JSON is 400 naming body."""
    body_error(body)


@pytest.mark.parametrize("body", [b"[]", b'"query"', b"null", b"1", b"true", b'[{"query": "x"}]'])
def test_q6_body_that_is_not_an_object_refused(body: bytes) -> None:
    """Q6: the body must be a JSON object."""
    assert invalid_field(body) == "body"


def test_q6_loads_strict_accepts_ordinary_json() -> None:
    """Q6: valid JSON, including non-ASCII text, decodes unchanged."""
    payload = {"query": "Passwort zurücksetzen 🔑", "limit": 5, "x": [1, 2.5, None, True, {"y": "z"}]}
    assert loads_strict(encode(payload)) == payload


# --------------------------------------------------------------------------------------
# query (Q1)
# --------------------------------------------------------------------------------------


def test_q1_query_missing_names_query() -> None:
    """Q1: query is required."""
    assert invalid_field({"limit": 5}) == "query"


@pytest.mark.parametrize("value", [None, 1, 1.5, True, [], ["x"], {}, {"text": "x"}])
def test_q1_query_not_a_string_names_query(value: Any) -> None:
    """Q1: query must be a string."""
    assert invalid_field({"query": value}) == "query"


@pytest.mark.parametrize("value", ["", " ", "\t\n\r ", "\u3000", "\u00a0\u2003"])
def test_q1_query_blank_after_trimming_names_query(value: str) -> None:
    """Q1: query must be non-empty after trimming."""
    assert invalid_field({"query": value}) == "query"


def test_q1_query_is_trimmed() -> None:
    """Q1: surrounding whitespace is removed."""
    assert parse({"query": "  reset password \n"}).query == "reset password"


def test_q1_query_of_1024_astral_code_points_accepted() -> None:
    """Q1: the bound is 1024 code points — 1024 four-byte characters (4096 bytes) are accepted."""
    query = ASTRAL * MAX_QUERY_CHARS
    assert MAX_QUERY_CHARS == 1024
    assert len(query.encode("utf-8")) == 4096
    assert parse({"query": query}).query == query


def test_q1_query_of_1025_astral_code_points_refused() -> None:
    """Q1: 1025 code points are refused."""
    assert invalid_field({"query": ASTRAL * (MAX_QUERY_CHARS + 1)}) == "query"


def test_q1_query_length_counts_code_points_not_utf16_units() -> None:
    """Q1: escaped surrogate pairs count as one code point each (1024 pairs = 2048 UTF-16 units)."""
    body = ('{"query": "' + "\\ud83d\\ude00" * MAX_QUERY_CHARS + '"}').encode()
    assert parse(body).query == ASTRAL * MAX_QUERY_CHARS
    too_long = ('{"query": "' + "\\ud83d\\ude00" * (MAX_QUERY_CHARS + 1) + '"}').encode()
    assert invalid_field(too_long) == "query"


def test_q1_query_length_is_measured_after_trimming() -> None:
    """Q1: 1024 code points with whitespace around them are accepted; 1025 plus whitespace are not."""
    assert parse({"query": "  " + "a" * MAX_QUERY_CHARS + "  "}).query == "a" * MAX_QUERY_CHARS
    assert invalid_field({"query": " " + "a" * (MAX_QUERY_CHARS + 1) + " "}) == "query"


def test_o2_invalid_request_messages_do_not_echo_the_query() -> None:
    """O2/A6: the error message never contains query text."""
    secretish = "customer-typed-words-" + "z" * MAX_QUERY_CHARS
    with pytest.raises(InvalidRequest) as info:
        parse({"query": secretish})
    assert "customer-typed-words" not in info.value.message


# --------------------------------------------------------------------------------------
# limit (Q2)
# --------------------------------------------------------------------------------------


def test_q2_limit_defaults_to_10() -> None:
    """Q2: absent limit means 10."""
    assert DEFAULT_LIMIT == 10
    assert parse({"query": "x"}).limit == 10


@pytest.mark.parametrize(("value", "expected"), [(1, 1), (10, 10), (10.0, 10), (50, 50), (50.0, 50), (1e1, 10)])
def test_q2_integer_limits_in_range_accepted(value: Any, expected: int) -> None:
    """Q2: integers 1–50 are accepted; 10.0 is the same JSON number as 10."""
    limit = parse({"query": "x", "limit": value}).limit
    assert limit == expected
    assert type(limit) is int


def test_q2_limit_bound_is_50() -> None:
    """Q2: maximum 50."""
    assert MAX_LIMIT == 50


@pytest.mark.parametrize(
    "value",
    [True, False, 10.5, 0.5, "10", None, [], {}, [10], 0, -1, 51, 100, 10**30, 0.0, 50.5, -0.0],
)
def test_q2_bad_limits_name_limit(value: Any) -> None:
    """Q2: non-integers (true, 10.5, "10", null) and out-of-range values are 400 naming limit."""
    assert invalid_field({"query": "x", "limit": value}) == "limit"


@pytest.mark.parametrize("literal", [b"1e999", b"-1e999", b"1e400"])
def test_q2_limit_overflowing_to_infinity_names_limit(literal: bytes) -> None:
    """Q2/Q6: a number that overflows to infinity is a 400 naming limit, not a crash."""
    assert invalid_field(b'{"query": "x", "limit": ' + literal + b"}") == "limit"


# --------------------------------------------------------------------------------------
# locale, localeFallback (Q3, Q4)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "payload",
    [
        {"locale": "de-DE", "localeFallback": True},
        {"locale": 123, "localeFallback": "yes"},
        {"locale": "", "localeFallback": None},
        {"locale": "not a tag!!", "localeFallback": 1},
        {"locale": "x" * 1000},
        {"locale": None},
    ],
)
def test_q3_q4_locale_fields_ignored_when_not_declared(payload: dict[str, Any]) -> None:
    """Q3/Q4: without the capabilities, locale and localeFallback are ignored — even malformed."""
    request = parse({"query": "x", **payload}, capabilities=MINIMUM)
    assert request.locale is None
    assert request.locale_fallback is False


@pytest.mark.parametrize(
    ("tag", "canonical"),
    [("de", "de"), ("de-DE", "de-DE"), ("de-at", "de-AT"), ("EN-us", "en-US"), ("zh-Hant-TW", "zh-Hant-TW"),
     ("sr-Latn-RS", "sr-Latn-RS"), ("es-419", "es-419"), ("i-klingon", "tlh"), ("iw", "he")],
)
def test_q3_well_formed_locale_accepted_when_declared(tag: str, canonical: str) -> None:
    """Q3: a valid BCP 47 tag is read, in canonical form (langcodes), when locale is declared."""
    assert parse({"query": "x", "locale": tag}, capabilities=frozenset({"retrieve", LOCALE})).locale == canonical


@pytest.mark.parametrize(
    "value",
    [None, 123, True, ["de"], {"tag": "de"}, "", "   ", "en_US", "en US", "-de", "de-", "de--DE", "d", "123",
     "deutsch-Deutschland-toolongsubtag", "dé", "x", "a" * 65],
)
def test_q3_malformed_locale_names_locale_when_declared(value: Any) -> None:
    """Q3: a malformed tag is a 400 naming locale when the capability is declared."""
    assert invalid_field({"query": "x", "locale": value}, capabilities=frozenset({"retrieve", LOCALE})) == "locale"


def test_q3_locale_declared_without_locale_fallback_ignores_fallback() -> None:
    """Q3/Q4: each field is governed by its own capability."""
    payload = {"query": "x", "locale": "de", "localeFallback": "junk"}
    request = parse(payload, capabilities=frozenset({"retrieve", LOCALE}))
    assert request.locale == "de"
    assert request.locale_fallback is False


@pytest.mark.parametrize("value", [True, False])
def test_q4_locale_fallback_boolean_read_when_declared(value: bool) -> None:
    """Q4: localeFallback is a boolean, read when declared."""
    caps = frozenset({"retrieve", LOCALE_FALLBACK})
    request = parse({"query": "x", "localeFallback": value, "locale": "!!bad!!"}, capabilities=caps)
    assert request.locale_fallback is value
    assert request.locale is None


@pytest.mark.parametrize("value", ["true", 1, 0, None, [], "false"])
def test_q4_non_boolean_locale_fallback_names_it_when_declared(value: Any) -> None:
    """Q4: a non-boolean localeFallback is a 400 naming localeFallback when declared."""
    assert invalid_field({"query": "x", "localeFallback": value}, capabilities=ALL) == "localeFallback"


def test_q3_q4_absent_locale_fields_default_when_declared() -> None:
    """Q3/Q4: declared but not sent means no locale and no fallback."""
    request = parse({"query": "x"}, capabilities=ALL)
    assert request.locale is None
    assert request.locale_fallback is False


# --------------------------------------------------------------------------------------
# context.conversationId (Q5, X8)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "context",
    [
        {"conversationId": "conv-123"},
        {"conversationId": 5},
        {"conversationId": None},
        {"conversationId": "x" * 10_000},
        "not-an-object",
        None,
        [1, 2],
        {},
    ],
)
@pytest.mark.parametrize("capabilities", [MINIMUM, ALL])
def test_x8_context_ignored_entirely_for_customer_safe(context: Any, capabilities: frozenset[str]) -> None:
    """X8: on a customer_safe request, context is never read, whatever its shape."""
    request = parse({"query": "x", "context": context}, exposure=CUSTOMER, capabilities=capabilities)
    assert request.conversation_id is None


def test_q5_conversation_id_read_for_agent_only() -> None:
    """Q5/X8: an agent_only request keeps context.conversationId."""
    request = parse({"query": "x", "context": {"conversationId": "conv-123"}}, exposure=AGENT)
    assert request.conversation_id == "conv-123"


def test_q5_conversation_id_optional_for_agent_only() -> None:
    """Q5: context and conversationId are optional."""
    assert parse({"query": "x"}, exposure=AGENT).conversation_id is None
    assert parse({"query": "x", "context": {}}, exposure=AGENT).conversation_id is None
    assert parse({"query": "x", "context": {"other": 1}}, exposure=AGENT).conversation_id is None


@pytest.mark.parametrize("value", [5, None, True, ["x"], {"id": "x"}, "x" * 257])
def test_q5_bad_conversation_id_names_it_for_agent_only(value: Any) -> None:
    """Q5: a non-string (or over-long) conversationId is 400 naming context.conversationId."""
    payload = {"query": "x", "context": {"conversationId": value}}
    assert invalid_field(payload, exposure=AGENT) == "context.conversationId"


def test_q5_conversation_id_of_256_characters_accepted() -> None:
    """Q5: the bound is inclusive."""
    assert parse({"query": "x", "context": {"conversationId": "c" * 256}}, exposure=AGENT).conversation_id == "c" * 256


@pytest.mark.parametrize("context", ["conv-123", 5, [], None])
def test_q5_context_not_an_object_names_context_for_agent_only(context: Any) -> None:
    """Q5: context must be an object on agent_only requests."""
    assert invalid_field({"query": "x", "context": context}, exposure=AGENT) == "context"


# --------------------------------------------------------------------------------------
# Unknown fields (W5, X4)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("exposure", [CUSTOMER, AGENT])
def test_x4_audience_field_is_ignored(exposure: Exposure) -> None:
    """X4: an "audience" field is an unknown field and cannot widen reach."""
    plain = parse({"query": "x", "limit": 3}, exposure=exposure, capabilities=ALL)
    widened = parse(
        {"query": "x", "limit": 3, "audience": "internal", "exposure": "agent_only", "reach": "all"},
        exposure=exposure,
        capabilities=ALL,
    )
    assert widened == plain


def test_x4_request_model_has_no_field_that_could_carry_reach() -> None:
    """X4: nothing parsed from a body describes audience or exposure."""
    names = {f.name for f in fields(RetrieveRequest)}
    assert names == {"query", "limit", "locale", "locale_fallback", "conversation_id"}


@pytest.mark.parametrize(
    "extra",
    [
        {"audience": "internal"},
        {"returnedLocale": "de"},
        {"futureField": {"nested": [1, 2, {"deep": None}]}},
        {"filters": ["internal"], "page": 2, "cursor": "abc"},
        {"Query": "shadow", "LIMIT": 999},
    ],
)
def test_w5_unknown_fields_are_ignored(extra: dict[str, Any]) -> None:
    """W5: unknown fields (any type, any depth) neither fail nor change the parsed request."""
    for exposure in (CUSTOMER, AGENT):
        assert parse({"query": "q", **extra}, exposure=exposure) == RetrieveRequest(query="q")


def test_w5_full_request_example_of_the_contract_parses() -> None:
    """§4.3 example, all capabilities declared, agent_only."""
    body = {
        "query": "customer can't reset their password",
        "limit": 10,
        "locale": "de-DE",
        "localeFallback": True,
        "context": {"conversationId": "uuid"},
    }
    assert parse(body, exposure=AGENT, capabilities=ALL) == RetrieveRequest(
        query="customer can't reset their password",
        limit=10,
        locale="de-DE",
        locale_fallback=True,
        conversation_id="uuid",
    )


@pytest.mark.parametrize(
    "body",
    [
        b"\xff",
        b'{"query": "x", "query": "y"}',
        b'{"query": NaN}',
        b'{"query": "\\ud800"}',
        nested(MAX_JSON_DEPTH + 1),
        b'{"query": 1' + b"0" * 5000 + b"}",
        b"[]",
        b'{"query": 5}',
        b'{"query": "x", "limit": "5"}',
    ],
)
def test_q6_parse_retrieve_request_only_ever_raises_invalid_request(body: bytes) -> None:
    """Q6: every bad body is an InvalidRequest (400), never another exception (500)."""
    for exposure in (CUSTOMER, AGENT):
        with pytest.raises(InvalidRequest):
            parse_retrieve_request(body, exposure=exposure, capabilities=ALL)
