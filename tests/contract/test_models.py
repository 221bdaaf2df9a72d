"""The msgspec models of helpthread_kit.models generate the same JSON Schemas as the
hand-kept files in helpthread_kit/schemas/ (issue 25): field by field — names,
required, types, bounds, patterns, enums — so the two cannot drift apart. What a model
cannot say is listed here by name (ALLOWED_ONLY_BY_HAND), so anything else that differs
fails; and the OpenAPI description Litestar builds from them carries the same shapes."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from helpthread_kit import load_schema
from helpthread_kit.models import (
    CapabilitiesResponse,
    ErrorResponse,
    RetrieveRequestBody,
    RetrieveResponse,
    json_schema,
)

MODELS: dict[str, type[msgspec.Struct]] = {
    "retrieve-request": RetrieveRequestBody,
    "retrieve-response": RetrieveResponse,
    "capabilities-response": CapabilitiesResponse,
    "error-response": ErrorResponse,
}
#: Prose and identity, not shape.
IGNORED = {"title", "description", "$schema", "$id", "$defs"}
#: Constraints the hand-kept files add that a msgspec model cannot express: (path, key).
ALLOWED_ONLY_BY_HAND = {
    ("capabilities", "uniqueItems"),  # one capability listed once
    ("capabilities", "contains"),  # retrieve always declared (C3)
    ("results.url", "format"),  # "uri": the pattern already pins https URLs
    ("results.reviewDueAt", "format"),  # "date-time": RFC 3339, the pattern pins UTC
}


def _resolve(node: Any, root: dict[str, Any]) -> Any:
    """``node`` with local ``$ref`` replaced by the definition (sibling keys win), ``const``
    as a one-member ``enum`` and enums as sets."""
    if isinstance(node, list):
        return [_resolve(item, root) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[1]
        merged = {**root["$defs"][name], **{k: v for k, v in node.items() if k != "$ref"}}
        return _resolve(merged, root)
    out = {key: _resolve(value, root) for key, value in node.items() if key not in IGNORED}
    if "const" in out:
        out["enum"] = [out.pop("const")]
    if "enum" in out:
        out["enum"] = sorted(map(str, out["enum"]))
    return out


def _differences(by_hand: Any, generated: Any, path: str = "") -> list[str]:
    if not (isinstance(by_hand, dict) and isinstance(generated, dict)):
        return [] if by_hand == generated else [f"{path or '<root>'}: by hand {by_hand!r}, generated {generated!r}"]
    found = []
    hand_props, gen_props = by_hand.get("properties", {}), generated.get("properties", {})
    for name in sorted(set(hand_props) | set(gen_props)):
        found += _differences(hand_props.get(name), gen_props.get(name), f"{path}.{name}".lstrip("."))
    if "items" in by_hand or "items" in generated:
        found += _differences(by_hand.get("items"), generated.get("items"), path)
    for key in sorted((set(by_hand) | set(generated)) - {"properties", "items"}):
        if (path, key) in ALLOWED_ONLY_BY_HAND and key not in generated:
            continue
        if key == "required":
            if sorted(by_hand.get(key, [])) != sorted(generated.get(key, [])):
                found.append(f"{path or '<root>'}.required: {by_hand.get(key)} vs {generated.get(key)}")
        elif by_hand.get(key) != generated.get(key):
            found.append(f"{path or '<root>'}.{key}: by hand {by_hand.get(key)!r}, generated {generated.get(key)!r}")
    return found


@pytest.mark.parametrize("name", sorted(MODELS))
def test_the_generated_schema_matches_the_hand_kept_one(name: str) -> None:
    by_hand = load_schema(name)
    generated = json_schema(MODELS[name])
    assert _differences(_resolve(by_hand, by_hand), _resolve(generated, generated)) == []


def test_the_comparison_sees_a_drift() -> None:
    """Not vacuous: a bound changed in a model is reported."""
    by_hand = load_schema("retrieve-request")
    generated = json_schema(RetrieveRequestBody)
    generated["properties"]["query"]["maxLength"] = 2048
    assert _differences(_resolve(by_hand, by_hand), _resolve(generated, generated)) == [
        "query.maxLength: by hand 1024, generated 2048"]


def test_valid_answers_decode_into_the_models() -> None:
    """The models accept what the provider sends (msgspec checks the same bounds)."""
    body = (b'{"contractVersion":1,"results":[{"documentId":"a","title":"T","snippet":"S","audience":"public",'
            b'"score":0.5}]}')
    answer = msgspec.json.decode(body, type=RetrieveResponse)
    assert answer.results[0].score == 0.5
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(body.replace(b"0.5", b"1.5"), type=RetrieveResponse)


def test_the_openapi_description_carries_the_same_shapes() -> None:
    """Litestar's OpenAPI description of the contract routes, with the request body the
    raw-bytes handler cannot declare added from the model: every schema in it matches
    the hand-kept file of the same shape."""
    from litestar.openapi import OpenAPIConfig

    from helpthread_kit import ContractSettings, Exposure, Registration, create_app
    from helpthread_kit.app import openapi_document
    from tests.conformance.broken.corpus import ArticleBackend

    settings = ContractSettings(registrations=[
        Registration.from_values("cs", Exposure.CUSTOMER_SAFE, ["openapi-test-secret-0123456789-abcdefgh"])])
    app = create_app(ArticleBackend(), settings, openapi_config=OpenAPIConfig(title="provider", version="1"))
    document = openapi_document(app)
    schemas = document["components"]["schemas"]
    root = {"$defs": schemas}

    def component(ref: dict[str, str]) -> Any:
        return _resolve(schemas[ref["$ref"].rsplit("/", 1)[1]], root)

    def refs(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: (v.replace("#/components/schemas/", "#/$defs/") if k == "$ref" else refs(v))
                    for k, v in node.items()}
        return [refs(n) for n in node] if isinstance(node, list) else node

    root["$defs"] = refs(schemas)
    retrieve = document["paths"]["/retrieve"]["post"]
    shapes = {
        "retrieve-request": retrieve["requestBody"]["content"]["application/json"]["schema"],
        "retrieve-response": retrieve["responses"]["200"]["content"]["application/json"]["schema"],
        "error-response": retrieve["responses"]["401"]["content"]["application/json"]["schema"],
        "capabilities-response":
            document["paths"]["/capabilities"]["get"]["responses"]["200"]["content"]["application/json"]["schema"],
    }
    for name, ref in shapes.items():
        by_hand = load_schema(name)
        assert _differences(_resolve(by_hand, by_hand), component(refs(ref))) == [], name
