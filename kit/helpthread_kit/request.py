"""Reading a retrieval request: headers, strict JSON and field rules (CONTRACT W2, W3, W5,
Q1–Q6, X4, X8; §4.1, §4.3).

Everything here runs only after the signature has been verified (A7). Every failure is
an :class:`~helpthread_kit.errors.InvalidRequest` naming the field, answered ``400``;
nothing in a body can raise anything else.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from email.message import Message
from typing import Any

from .capabilities import LOCALE, LOCALE_FALLBACK
from .errors import InvalidRequest, UnsupportedMediaType, UnsupportedVersion
from .locales import canonical_tag
from .registrations import Exposure

__all__ = [
    "DEFAULT_LIMIT",
    "MAX_JSON_DEPTH",
    "MAX_LIMIT",
    "MAX_QUERY_CHARS",
    "RetrieveRequest",
    "check_content_type",
    "check_version",
    "loads_strict",
    "parse_retrieve_request",
]

MAX_QUERY_CHARS = 1024  # Q1, in Unicode code points
DEFAULT_LIMIT = 10  # Q2
MAX_LIMIT = 50  # Q2
MAX_JSON_DEPTH = 16  # Q6: the request itself nests two levels; this leaves room for extensions
MAX_LOCALE_CHARS = 64
# Q3: the shape of a BCP 47 tag (RFC 5646 §2.1): a 2-8 letter language subtag, or the
# ``x-``/``i-`` prefixes of private-use and grandfathered tags, then subtags of 1-8 letters or
# digits separated by hyphens. Well-formedness only; whether the subtags are registered is
# the backend's concern.
_BCP47_RE = re.compile(r"[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*|[xXiI](?:-[A-Za-z0-9]{1,8})+")
MAX_CONVERSATION_ID_CHARS = 256
#: Content-Type values accepted without parsing (lowercased).
_PLAIN_JSON = frozenset({"application/json", "application/json; charset=utf-8", "application/json;charset=utf-8"})


@dataclass(frozen=True)
class RetrieveRequest:
    """A validated ``POST /retrieve`` body (§4.3).

    Attributes:
        query: the query text, stripped of surrounding whitespace (1–1024 code points).
        limit: the most results wanted, 1–50.
        locale: the requested BCP 47 tag in canonical form, or ``None``. Set only when
            the ``locale`` capability is declared (Q3); otherwise always ``None``.
        locale_fallback: whether fallback was requested; ``False`` unless the
            ``localeFallback`` capability is declared (Q4).
        conversation_id: present only on ``agent_only`` requests (X8); never used to
            tailor results.
    """

    query: str
    limit: int = DEFAULT_LIMIT
    locale: str | None = None
    locale_fallback: bool = False
    conversation_id: str | None = None


def check_version(value: str | None) -> None:
    """Require ``X-Helpthread-Knowledge-Version: 1`` (CONTRACT W2; §4.1).

    Raises:
        UnsupportedVersion: the header is missing or is not exactly ``1``.
    """
    if value is None or value.strip() != "1":
        raise UnsupportedVersion()


def check_content_type(value: str | None) -> None:
    """Accept ``application/json`` with an optional UTF-8 ``charset`` (CONTRACT W3).

    Media type and parameter names are case-insensitive and parameters may come in any
    order. A charset other than UTF-8 is refused, because the body would not be the
    bytes we decode.

    Raises:
        UnsupportedMediaType: a missing header, another media type, or another charset.
    """
    if not value:
        raise UnsupportedMediaType()
    if value.lower() in _PLAIN_JSON:
        return  # what clients send; the email parser below costs more than the rest of the checks
    header = Message()
    header["content-type"] = value
    if header.get_content_type() != "application/json":
        raise UnsupportedMediaType()
    for name, param in header.get_params() or []:
        # Every charset parameter counts: "charset=utf-8; charset=latin-1" is refused.
        if name.lower() == "charset" and (not isinstance(param, str) or param.strip().lower() not in ("utf-8", "utf8")):
            raise UnsupportedMediaType("charset must be utf-8")


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise InvalidRequest("body", "a JSON object has the same key twice")
        result[key] = value
    return result


def _reject_constant(name: str) -> Any:
    raise InvalidRequest("body", f"{name} is not valid JSON")


def _check_depth(text: str) -> None:
    if text.count("{") + text.count("[") <= MAX_JSON_DEPTH:
        return  # cannot nest deeper than it opens (brackets inside strings only over-count)
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise InvalidRequest("body", f"JSON nests deeper than {MAX_JSON_DEPTH} levels")
        elif char in "]}":
            depth -= 1


def _check_strings(value: Any) -> None:
    """Refuse lone surrogates (``"\\ud800"``): they cannot be encoded as UTF-8 text."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise InvalidRequest("body", "a JSON string contains a lone surrogate") from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def loads_strict(body: bytes) -> Any:
    """Decode a JSON body the way CONTRACT Q6 requires.

    Refused, each as ``InvalidRequest("body", ...)``: invalid UTF-8, a UTF-8 BOM, syntax
    errors, duplicate keys, ``NaN``/``Infinity``, lone surrogates, nesting deeper than
    :data:`MAX_JSON_DEPTH`, and numbers Python refuses to convert.

    Returns:
        The decoded value (not necessarily an object).
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidRequest("body", "is not valid UTF-8") from None
    if text.startswith("\ufeff"):
        raise InvalidRequest("body", "must not start with a byte order mark")
    _check_depth(text)
    try:
        value = json.loads(text, object_pairs_hook=_reject_duplicates, parse_constant=_reject_constant)
    except InvalidRequest:
        raise
    except (ValueError, RecursionError):
        raise InvalidRequest("body", "is not valid JSON") from None
    _check_strings(value)
    return value


def _integer(value: Any, field: str) -> int:
    # JSON has one number type: 10 and 10.0 are the same integer (as JSON Schema agrees);
    # booleans, strings and fractions are not integers.
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidRequest(field, "must be an integer")
    if isinstance(value, float):
        if not math.isfinite(value) or not value.is_integer():
            raise InvalidRequest(field, "must be an integer")
        return int(value)
    return value


def parse_retrieve_request(
    body: bytes, *, exposure: Exposure, capabilities: frozenset[str]
) -> RetrieveRequest:
    """Validate a ``POST /retrieve`` body (CONTRACT Q1–Q6, W5, X4, X8).

    Unknown fields are ignored (W5) — ``audience`` among them (X4). ``locale`` and
    ``localeFallback`` are read only when their capability is declared (Q3, Q4);
    ``context`` is read only for ``agent_only`` registrations (X8).

    Args:
        body: the raw, already authenticated body.
        exposure: the exposure of the registration that signed it.
        capabilities: the capabilities this provider declares.

    Raises:
        InvalidRequest: naming the field (``query``, ``limit``, ``locale``,
            ``localeFallback``, ``context``, ``context.conversationId`` or ``body``).
    """
    data = loads_strict(body)
    if not isinstance(data, dict):
        raise InvalidRequest("body", "must be a JSON object")

    if "query" not in data:
        raise InvalidRequest("query", "is required")
    query = data["query"]
    if not isinstance(query, str):
        raise InvalidRequest("query", "must be a string")
    query = query.strip()
    if not query:
        raise InvalidRequest("query", "must not be empty")
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidRequest("query", f"must be at most {MAX_QUERY_CHARS} characters")

    limit = DEFAULT_LIMIT
    if "limit" in data:
        limit = _integer(data["limit"], "limit")
        if not 1 <= limit <= MAX_LIMIT:
            raise InvalidRequest("limit", f"must be between 1 and {MAX_LIMIT}")

    locale: str | None = None
    if LOCALE in capabilities and "locale" in data:
        raw_locale = data["locale"]
        if not isinstance(raw_locale, str) or not raw_locale.strip():
            raise InvalidRequest("locale", "must be a BCP 47 language tag")
        if len(raw_locale) > MAX_LOCALE_CHARS:
            raise InvalidRequest("locale", f"must be at most {MAX_LOCALE_CHARS} characters")
        # The shape check refuses forms langcodes would forgive (en_US, "en US"); langcodes
        # then decides validity and gives the canonical form (de-at → de-AT).
        canonical = canonical_tag(raw_locale) if _BCP47_RE.fullmatch(raw_locale.strip()) else None
        if canonical is None:
            raise InvalidRequest("locale", "must be a BCP 47 language tag")
        locale = canonical

    locale_fallback = False
    if LOCALE_FALLBACK in capabilities and "localeFallback" in data:
        if not isinstance(data["localeFallback"], bool):
            raise InvalidRequest("localeFallback", "must be true or false")
        locale_fallback = data["localeFallback"]

    conversation_id: str | None = None
    if exposure is Exposure.AGENT_ONLY and "context" in data:
        context = data["context"]
        if not isinstance(context, dict):
            raise InvalidRequest("context", "must be an object")
        if "conversationId" in context:
            conversation_id = context["conversationId"]
            if not isinstance(conversation_id, str):
                raise InvalidRequest("context.conversationId", "must be a string")
            if len(conversation_id) > MAX_CONVERSATION_ID_CHARS:
                raise InvalidRequest(
                    "context.conversationId", f"must be at most {MAX_CONVERSATION_ID_CHARS} characters"
                )

    return RetrieveRequest(
        query=query,
        limit=limit,
        locale=locale,
        locale_fallback=locale_fallback,
        conversation_id=conversation_id,
    )
