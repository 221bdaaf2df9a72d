"""The wire shapes of Knowledge Provider Interface v1 as typed msgspec models (contract
§4.3, §4.4, CONTRACT C3 and "Errors"), from which JSON Schemas and the OpenAPI
description are generated (:func:`json_schema`, Litestar's OpenAPI).

They describe shapes, like the hand-kept files in ``helpthread_kit/schemas/`` — which
``tests/contract/test_models.py`` checks field by field against them, so the two cannot
drift apart. Nothing parses a request through them: the body is verified over its raw
bytes first and then read by :func:`~helpthread_kit.request.parse_retrieve_request`
(A2, A7, Q6), whose rules (duplicate keys, lone surrogates, depth) a schema cannot say.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from .capabilities import ALL_CAPABILITIES

__all__ = [
    "CapabilitiesResponse",
    "ErrorBody",
    "ErrorResponse",
    "RequestContext",
    "RetrieveRequestBody",
    "RetrieveResponse",
    "WireResult",
    "json_schema",
]

_UNSET: Any = msgspec.UNSET
NonBlank = Annotated[str, msgspec.Meta(min_length=1, pattern=r"\S")]
Capability = Literal[ALL_CAPABILITIES]  # type: ignore[valid-type]
ErrorCode = Literal[
    "missing_signature", "malformed_signature", "stale_timestamp", "invalid_signature", "replayed_nonce",
    "unsupported_version", "unsupported_media_type", "payload_too_large", "invalid_request", "overloaded",
    "index_unavailable", "not_found", "method_not_allowed", "internal_error",
]


class RequestContext(msgspec.Struct, rename="camel", omit_defaults=True):
    """``context`` of a request: read only for ``agent_only`` registrations (X8)."""

    conversation_id: Annotated[str, msgspec.Meta(max_length=256)] | msgspec.UnsetType = _UNSET


class RetrieveRequestBody(msgspec.Struct, rename="camel", omit_defaults=True):
    """``POST /retrieve`` body (§4.3). Unknown members are ignored (W5)."""

    query: Annotated[str, msgspec.Meta(min_length=1, max_length=1024, pattern=r"\S")]
    limit: Annotated[int, msgspec.Meta(ge=1, le=50)] = 10
    locale: Annotated[str, msgspec.Meta(min_length=1, max_length=64)] | msgspec.UnsetType = _UNSET
    locale_fallback: bool | msgspec.UnsetType = _UNSET
    context: RequestContext | msgspec.UnsetType = _UNSET


class WireResult(msgspec.Struct, rename="camel", omit_defaults=True):
    """One result of a ``/retrieve`` answer (§4.4); optional fields only for declared
    capabilities (R4)."""

    document_id: Annotated[str, msgspec.Meta(min_length=1, max_length=1024)]
    title: Annotated[str, msgspec.Meta(min_length=1, max_length=300, pattern=r"\S")]
    snippet: Annotated[str, msgspec.Meta(min_length=1, max_length=480, pattern=r"\S")]
    audience: Literal["public", "internal"]
    revision: Annotated[str, msgspec.Meta(min_length=1)] | msgspec.UnsetType = _UNSET
    chunk_id: Annotated[str, msgspec.Meta(min_length=1)] | msgspec.UnsetType = _UNSET
    url: Annotated[str, msgspec.Meta(pattern=r"^https://[^/@\s]+(/[^\s]*)?$")] | msgspec.UnsetType = _UNSET
    locale: Annotated[str, msgspec.Meta(min_length=1)] | msgspec.UnsetType = _UNSET
    score: Annotated[float, msgspec.Meta(ge=0, le=1)] | msgspec.UnsetType = _UNSET
    freshness: Literal["current", "stale", "unknown"] | msgspec.UnsetType = _UNSET
    review_due_at: Annotated[str, msgspec.Meta(pattern="Z$")] | msgspec.UnsetType = _UNSET
    translation_group_id: Annotated[str, msgspec.Meta(min_length=1)] | msgspec.UnsetType = _UNSET


class RetrieveResponse(msgspec.Struct, rename="camel"):
    """``POST /retrieve`` success answer (§4.4)."""

    contract_version: Literal[1]
    results: Annotated[list[WireResult], msgspec.Meta(max_length=50)]


class CapabilitiesResponse(msgspec.Struct, rename="camel"):
    """``GET /capabilities`` answer (C3)."""

    contract_version: Literal[1]
    capabilities: list[Capability]


class ErrorBody(msgspec.Struct):
    """``error`` of the envelope: a code from the fixed vocabulary and a message."""

    code: ErrorCode
    message: str


class ErrorResponse(msgspec.Struct, rename="camel"):
    """Every error answer (W4, "Errors")."""

    contract_version: Literal[1]
    error: ErrorBody


def json_schema(model: type[msgspec.Struct]) -> dict[str, Any]:
    """The JSON Schema msgspec generates for ``model``: the model's own definition, with
    the definitions it refers to under ``$defs``."""
    (schema,), components = msgspec.json.schema_components([model], ref_template="#/$defs/{name}")
    name = schema["$ref"].rsplit("/", 1)[1]
    own = dict(components.pop(name))
    if components:
        own["$defs"] = components
    return own
