"""The JSON Schemas shipped in helpthread_kit/schemas (CONTRACT W4, R1–R7, C3, "Errors"; contract §4)."""

from __future__ import annotations

import copy
import inspect
import json
from importlib import resources
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from helpthread_kit import errors as errors_module
from helpthread_kit.capabilities import ALL_CAPABILITIES
from helpthread_kit.errors import ContractError, InvalidRequest, Unavailable
from helpthread_kit.registrations import Exposure
from helpthread_kit.results import Result, render_results
from helpthread_kit.schemas import SCHEMA_NAMES, load_schema

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
ASTRAL = "\U0001f600"


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(load_schema(name), format_checker=Draft202012Validator.FORMAT_CHECKER)


def is_valid(name: str, document: Any) -> bool:
    return bool(validator(name).is_valid(document))


# --------------------------------------------------------------------------------------
# The schemas themselves
# --------------------------------------------------------------------------------------


def test_every_schema_file_is_registered() -> None:
    """Every *.json file in the package is reachable through load_schema, and vice versa."""
    files = {p.name for p in resources.files("helpthread_kit.schemas").iterdir() if p.name.endswith(".json")}
    assert files == set(SCHEMA_NAMES.values())
    assert set(SCHEMA_NAMES) == {"retrieve-request", "retrieve-response", "capabilities-response", "error-response"}


@pytest.mark.parametrize("name", sorted(SCHEMA_NAMES))
def test_schema_loads_and_is_valid_draft_2020_12(name: str) -> None:
    """Each schema is JSON, declares draft 2020-12, and passes the metaschema."""
    schema = load_schema(name)
    assert isinstance(schema, dict)
    assert schema["$schema"] == DRAFT_2020_12
    Draft202012Validator.check_schema(schema)
    assert schema["$id"].endswith(SCHEMA_NAMES[name])


def test_schema_ids_are_unique() -> None:
    """Each schema has its own $id."""
    ids = [load_schema(name)["$id"] for name in SCHEMA_NAMES]
    assert len(set(ids)) == len(ids)


def test_check_schema_is_not_vacuous() -> None:
    """check_schema really rejects a broken schema (so the test above means something)."""
    broken = copy.deepcopy(load_schema("retrieve-response"))
    broken["properties"]["results"]["maxItems"] = "fifty"
    with pytest.raises(SchemaError):
        Draft202012Validator.check_schema(broken)


def test_load_schema_unknown_name_is_key_error() -> None:
    """load_schema names: a typo is a KeyError, not None."""
    with pytest.raises(KeyError):
        load_schema("retrieve-respons")


def test_schema_files_are_plain_utf8_json() -> None:
    """Package data is parseable with the standard library alone."""
    for filename in SCHEMA_NAMES.values():
        text = resources.files("helpthread_kit.schemas").joinpath(filename).read_text("utf-8")
        assert isinstance(json.loads(text), dict)


# --------------------------------------------------------------------------------------
# retrieve-request (§4.3, Q1–Q5)
# --------------------------------------------------------------------------------------

FULL_REQUEST = {
    "query": "customer can't reset their password",
    "limit": 10,
    "locale": "de-DE",
    "localeFallback": True,
    "context": {"conversationId": "uuid"},
}


@pytest.mark.parametrize(
    "document",
    [
        {"query": "x"},
        FULL_REQUEST,
        {"query": "x", "limit": 1},
        {"query": "x", "limit": 50},
        {"query": "x", "limit": 10.0},
        {"query": ASTRAL * 1024},
        {"query": "x", "audience": "internal"},
        {"query": "x", "context": {}},
    ],
)
def test_q1_q5_valid_requests(document: dict[str, Any]) -> None:
    """Q1–Q5/W5: well-formed requests (unknown members allowed) validate."""
    assert is_valid("retrieve-request", document)


@pytest.mark.parametrize(
    "document",
    [
        {},
        {"limit": 5},
        {"query": ""},
        {"query": "   "},
        {"query": 5},
        {"query": ASTRAL * 1025},
        {"query": "x", "limit": 0},
        {"query": "x", "limit": 51},
        {"query": "x", "limit": 10.5},
        {"query": "x", "limit": "10"},
        {"query": "x", "limit": True},
        {"query": "x", "locale": ""},
        {"query": "x", "localeFallback": "yes"},
        {"query": "x", "context": "conv"},
        {"query": "x", "context": {"conversationId": 5}},
        ["query"],
    ],
)
def test_q1_q5_invalid_requests(document: Any) -> None:
    """Q1–Q5: missing/blank/over-long query, bad limit types and ranges, bad optional fields are invalid."""
    assert not is_valid("retrieve-request", document)


# --------------------------------------------------------------------------------------
# retrieve-response (§4.4, R1–R7, X6)
# --------------------------------------------------------------------------------------

FULL_RESULT = {
    "documentId": "provider-defined-stable-id",
    "title": "Resetting your password",
    "snippet": "…the passage that matched, as plain text…",
    "audience": "public",
    "revision": "opaque-version-token",
    "chunkId": "optional-passage-id",
    "url": "https://help.example.com/de/passwort-zuruecksetzen",
    "locale": "de-DE",
    "score": 0.87,
    "freshness": "current",
    "reviewDueAt": "2026-11-01T00:00:00Z",
    "translationGroupId": "optional-provider-defined-key",
}


def response(**changes: Any) -> dict[str, Any]:
    result = dict(FULL_RESULT)
    for key, value in changes.items():
        if value is ...:
            del result[key]
        else:
            result[key] = value
    return {"contractVersion": 1, "results": [result]}


def test_r1_contract_example_response_is_valid() -> None:
    """R1/R2: the §4.4 example (with the envelope returnedLocale the core ignores) validates."""
    assert is_valid("retrieve-response", {**response(), "returnedLocale": "de-DE"})


@pytest.mark.parametrize(
    "document",
    [
        {"contractVersion": 1, "results": []},
        response(score=0),
        response(score=1),
        response(audience="internal"),
        response(freshness="stale"),
        response(freshness="unknown"),
        response(url="https://help.example.com"),
        response(url="https://help.example.com:8443/a/b?c=d#e"),
        {"contractVersion": 1, "results": [{"documentId": "d", "title": "t", "snippet": "s", "audience": "public"}]},
        response(title="T" * 300, snippet="S" * 480),
    ],
)
def test_r1_r7_valid_responses(document: dict[str, Any]) -> None:
    """R1–R7: minimal and boundary responses validate."""
    assert is_valid("retrieve-response", document)


@pytest.mark.parametrize(
    "document",
    [
        response(score=1.5),
        response(score=-0.1),
        response(score="0.5"),
        response(url="http://help.example.com/a"),
        response(url="https://user:pass@help.example.com/a"),
        response(url="https://user@help.example.com/a"),
        response(url="/relative/path"),
        response(url="javascript:alert(1)"),
        response(url="https://help.example.com/a b"),
        response(audience="secret"),
        response(audience="Public"),
        response(audience=None),
        response(audience=...),
        response(documentId=...),
        response(title=...),
        response(snippet=...),
        response(documentId=""),
        response(snippet=""),
        response(snippet="   "),
        response(title="\n"),
        response(title="T" * 301),
        response(snippet="S" * 481),
        response(freshness="fresh"),
        response(freshness={"state": "current"}),
        response(reviewDueAt="2026-11-01T00:00:00+02:00"),
        response(locale=""),
        response(chunkId=""),
        response(translationGroupId=""),
        response(revision=""),
        {"contractVersion": 2, "results": []},
        {"contractVersion": "1", "results": []},
        {"results": []},
        {"contractVersion": 1},
        {"contractVersion": 1, "results": {}},
        {"contractVersion": 1, "results": [dict(FULL_RESULT)] * 51},
    ],
)
def test_r1_r7_invalid_responses(document: dict[str, Any]) -> None:
    """R1–R7/X6/W4: out-of-range score, non-https or userinfo url, bad audience, missing or
    empty required fields, over-long text, bad freshness, wrong contractVersion, > 50 results."""
    assert not is_valid("retrieve-response", document)


def _all_optional(i: int, audience: str) -> Result:
    return Result(
        document_id=f"doc-{i}",
        title=f"Title {i} " + "t" * 400,
        snippet=f"Snippet {i} " + "s" * 1000,
        audience=audience,
        revision=f"r{i}",
        chunk_id=f"doc-{i}#1",
        url=f"https://help.example.com/doc-{i}",
        locale="en",
        score=1 / (i + 1),
        freshness="stale",
        review_due_at="2027-01-31T00:00:00Z",
        translation_group_id="g",
    )


@pytest.mark.parametrize("exposure", list(Exposure))
@pytest.mark.parametrize("capabilities", [frozenset({"retrieve"}), frozenset(ALL_CAPABILITIES)], ids=["min", "all"])
def test_r1_rendered_responses_validate(exposure: Exposure, capabilities: frozenset[str]) -> None:
    """R1–R4: whatever render_results produces (clipped, filtered, 50 max) matches the response schema."""
    results = [_all_optional(i, "public" if i % 2 else "internal") for i in range(80)]
    payload = render_results(results, exposure=exposure, capabilities=capabilities, limit=50)
    validator("retrieve-response").validate(payload)
    assert payload["results"]


# --------------------------------------------------------------------------------------
# capabilities-response (C3)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "capabilities",
    [["retrieve"], list(ALL_CAPABILITIES), ["scoring", "retrieve"]],
)
def test_c3_valid_capability_documents(capabilities: list[str]) -> None:
    """C3: {"contractVersion": 1, "capabilities": [...]} including retrieve."""
    assert is_valid("capabilities-response", {"contractVersion": 1, "capabilities": capabilities})


@pytest.mark.parametrize(
    "document",
    [
        {"contractVersion": 1, "capabilities": []},
        {"contractVersion": 1, "capabilities": ["scoring"]},
        {"contractVersion": 1, "capabilities": ["retrieve", "teleport"]},
        {"contractVersion": 1, "capabilities": ["retrieve", "retrieve"]},
        {"contractVersion": 1, "capabilities": "retrieve"},
        {"contractVersion": 2, "capabilities": ["retrieve"]},
        {"capabilities": ["retrieve"]},
    ],
)
def test_c3_invalid_capability_documents(document: dict[str, Any]) -> None:
    """C3/C1: retrieve missing, unknown names, duplicates or a wrong version are invalid."""
    assert not is_valid("capabilities-response", document)


def test_c1_schema_capability_names_match_the_code() -> None:
    """C1: the schema's vocabulary is exactly ALL_CAPABILITIES."""
    schema = load_schema("capabilities-response")
    assert schema["properties"]["capabilities"]["items"]["enum"] == list(ALL_CAPABILITIES)


# --------------------------------------------------------------------------------------
# error-response (Errors, W4)
# --------------------------------------------------------------------------------------


def _error_classes() -> list[type[ContractError]]:
    return [
        cls
        for _, cls in inspect.getmembers(errors_module, inspect.isclass)
        if issubclass(cls, ContractError)
    ]


def _instance(cls: type[ContractError]) -> ContractError:
    if issubclass(cls, InvalidRequest):
        return cls("limit", "must be an integer")
    return cls()


def test_errors_every_error_class_is_found() -> None:
    """The introspection below covers the whole hierarchy."""
    names = {cls.__name__ for cls in _error_classes()}
    assert {"ContractError", "MissingSignature", "InvalidRequest", "Unavailable", "Overloaded"} <= names


@pytest.mark.parametrize("cls", _error_classes(), ids=lambda cls: cls.__name__)
def test_errors_every_envelope_validates(cls: type[ContractError]) -> None:
    """Errors/W4: every error the package can raise produces a valid envelope with a vocabulary code."""
    error = _instance(cls)
    validator("error-response").validate(error.envelope())
    assert error.envelope()["contractVersion"] == 1
    if isinstance(error, Unavailable) or error.status in (429, 503):
        assert "Retry-After" in error.headers()


def test_errors_schema_vocabulary_is_exactly_the_codes_in_use() -> None:
    """Errors: the schema's code vocabulary and the error classes agree, with no unused code."""
    schema_codes = set(load_schema("error-response")["properties"]["error"]["properties"]["code"]["enum"])
    class_codes = {cls.code for cls in _error_classes()}
    assert class_codes == schema_codes


@pytest.mark.parametrize(
    ("code", "status"),
    [
        ("missing_signature", 401),
        ("malformed_signature", 401),
        ("stale_timestamp", 401),
        ("invalid_signature", 401),
        ("replayed_nonce", 401),
        ("unsupported_version", 400),
        ("unsupported_media_type", 415),
        ("payload_too_large", 413),
        ("invalid_request", 400),
        ("overloaded", 503),
        ("index_unavailable", 503),
    ],
)
def test_errors_contract_table_codes_and_statuses(code: str, status: int) -> None:
    """Errors: each code of the CONTRACT table is produced by a class with the table's status."""
    statuses = {cls.status for cls in _error_classes() if cls.code == code}
    assert statuses == {status}


@pytest.mark.parametrize(
    "document",
    [
        {"contractVersion": 1, "error": {"code": "teapot", "message": "short and stout"}},
        {"contractVersion": 1, "error": {"code": "unavailable", "message": "x"}},
        {"contractVersion": 1, "error": {"code": "invalid_request"}},
        {"contractVersion": 1, "error": {"message": "x"}},
        {"contractVersion": 1, "error": {"code": "invalid_request", "message": 5}},
        {"error": {"code": "invalid_request", "message": "x"}},
        {"contractVersion": 2, "error": {"code": "invalid_request", "message": "x"}},
        {"contractVersion": 1, "error": "invalid_request"},
    ],
)
def test_errors_invalid_envelopes(document: dict[str, Any]) -> None:
    """Errors: a code outside the vocabulary, a missing message or version is invalid."""
    assert not is_valid("error-response", document)
