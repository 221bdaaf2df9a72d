"""Validate every body the checker receives against the contract's JSON Schemas.

Each problem is attributed to the CONTRACT.md duty it concerns, so that one fault
fails one check: a result without ``audience`` is an R2 problem, an over-long
snippet an R3 problem, an error envelope without ``contractVersion`` a W4 problem.
Checks that look at a status code never fail because of a body's shape; the final
checks (``responses.py``) report these problems instead.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import jsonschema

from ..schemas import load_schema

__all__ = ["Problem", "body_problems", "parse_json"]

#: ``(CONTRACT.md id, description)``.
Problem = tuple[str, str]

_VALIDATORS = {
    name: jsonschema.Draft202012Validator(load_schema(name))
    for name in ("retrieve-response", "capabilities-response", "error-response")
}

# Result field (wire name) -> the duty its shape belongs to.
_FIELD_DUTY = {
    "documentId": "R2",
    "audience": "R2",
    "title": "R3",
    "snippet": "R3",
    "revision": "R5",
    "freshness": "R6",
    "reviewDueAt": "R6",
    "url": "R7",
}


def parse_json(body: bytes) -> tuple[Any, str | None]:
    """Decode a response body: ``(value, None)`` or ``(None, what is wrong)``."""
    try:
        return json.loads(body.decode("utf-8")), None
    except UnicodeDecodeError:
        return None, "the body is not UTF-8"
    except (ValueError, RecursionError):
        return None, "the body is not JSON (or nests too deeply to read)"


def _duty(schema: str, path: Sequence[Any], error: jsonschema.ValidationError) -> str:
    """The CONTRACT.md id a schema error belongs to."""
    if (path and path[0] == "contractVersion") or (
        not path and error.validator == "required" and "contractVersion" in str(error.message)
    ):
        return "W4"
    if schema == "error-response":
        return "W4"
    if schema == "capabilities-response":
        return "C3"
    if len(path) >= 3 and path[0] == "results":
        # Shapes of capability fields (score, chunkId, locale, …) belong to R4.
        return _FIELD_DUTY.get(str(path[2]), "R4")
    if len(path) == 2 and path[0] == "results":
        return "R2"  # a result that is not an object, or lacks a required field
    return "R1"


def _where(path: Sequence[Any]) -> str:
    return "/".join(str(p) for p in path) or "(body)"


def body_problems(*, path: str, status: int, content_type: str | None, body: bytes) -> list[Problem]:
    """Everything wrong with one response body, as ``(duty, description)`` pairs.

    Args:
        path: the request path (``/retrieve`` or ``/capabilities``).
        status: the HTTP status of the answer.
        content_type: its ``Content-Type`` header, if any.
        body: the raw body.

    Returns:
        An empty list when the body is JSON carrying ``contractVersion: 1`` and matches
        the schema for its route and status (success, capabilities or error envelope).
    """
    problems: list[Problem] = []
    media = (content_type or "").split(";")[0].strip().lower()
    if media != "application/json":
        problems.append(("W4", f"{status} answer has Content-Type {content_type or '(none)'}, not application/json"))
    data, error = parse_json(body)
    if error is not None:
        problems.append(("W4", f"{status} answer: {error}"))
        return problems
    if not isinstance(data, dict):
        problems.append(("W4", f"{status} answer is JSON but not an object"))
        return problems
    if status >= 400:
        schema = "error-response"
    elif path.endswith("/capabilities"):
        schema = "capabilities-response"
    else:
        schema = "retrieve-response"
    for err in sorted(_VALIDATORS[schema].iter_errors(data), key=lambda e: list(e.absolute_path)):
        where = list(err.absolute_path)
        problems.append((_duty(schema, where, err), f"{status} answer at {_where(where)}: {err.message[:200]}"))
    return problems
