"""The response gate: render_results (CONTRACT R1–R4, R6, X2, X6, Q2; contract §4.4)."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import pytest

from helpthread_kit.capabilities import ALL_CAPABILITIES, FIELDS_BY_CAPABILITY, MINIMUM, RETRIEVE
from helpthread_kit.registrations import Exposure
from helpthread_kit.results import (
    INTERNAL,
    MAX_TITLE_CHARS,
    PUBLIC,
    SNIPPET_MAX_CHARS,
    Result,
    render_results,
)

CUSTOMER = Exposure.CUSTOMER_SAFE
AGENT = Exposure.AGENT_ONLY
ALL = frozenset(ALL_CAPABILITIES)
GOVERNED = {field for fields in FIELDS_BY_CAPABILITY.values() for field in fields}


def result(i: int = 0, audience: str = PUBLIC, **kwargs: Any) -> Result:
    base: dict[str, Any] = {
        "document_id": f"doc-{i}",
        "title": f"Title {i}",
        "snippet": f"Snippet {i}",
        "audience": audience,
    }
    base.update(kwargs)
    return Result(**base)


def full(i: int = 0, audience: str = PUBLIC) -> Result:
    """A result with every optional field set."""
    return result(
        i,
        audience,
        revision=f"rev-{i}",
        chunk_id=f"doc-{i}#c1",
        url=f"https://help.example.com/doc-{i}",
        locale="de-DE",
        score=0.5,
        freshness="current",
        review_due_at="2027-01-31T00:00:00Z",
        translation_group_id=f"group-{i}",
    )


def render(
    results: list[Result],
    *,
    exposure: Exposure = AGENT,
    capabilities: frozenset[str] = MINIMUM,
    limit: int = 10,
) -> list[dict[str, Any]]:
    payload = render_results(results, exposure=exposure, capabilities=capabilities, limit=limit)
    assert payload["contractVersion"] == 1
    assert set(payload) == {"contractVersion", "results"}
    out = payload["results"]
    assert isinstance(out, list)
    return out


def ids(rendered: list[dict[str, Any]]) -> list[str]:
    return [r["documentId"] for r in rendered]


# --------------------------------------------------------------------------------------
# Envelope, order and limit (R1, Q2)
# --------------------------------------------------------------------------------------


def test_r1_envelope_and_order_preserved() -> None:
    """R1/W4: {"contractVersion": 1, "results": [...]} with the backend's order (best first)."""
    payload = render_results([result(2), result(0), result(1)], exposure=AGENT, capabilities=MINIMUM, limit=10)
    assert payload == {
        "contractVersion": 1,
        "results": [
            {"documentId": "doc-2", "title": "Title 2", "snippet": "Snippet 2", "audience": "public"},
            {"documentId": "doc-0", "title": "Title 0", "snippet": "Snippet 0", "audience": "public"},
            {"documentId": "doc-1", "title": "Title 1", "snippet": "Snippet 1", "audience": "public"},
        ],
    }


def test_r1_no_results_is_an_empty_list() -> None:
    """R1: nothing found is an empty results list, not an error."""
    assert render([]) == []


@pytest.mark.parametrize("limit", [1, 2, 5, 10, 50])
@pytest.mark.parametrize("exposure", [CUSTOMER, AGENT])
def test_q2_never_more_than_limit(limit: int, exposure: Exposure) -> None:
    """Q2/R1: a backend returning more than limit results is cut to limit, keeping the best."""
    rendered = render([result(i) for i in range(60)], exposure=exposure, limit=limit)
    assert ids(rendered) == [f"doc-{i}" for i in range(limit)]


def test_q2_fewer_than_limit_is_fine() -> None:
    """Q2: providers may return fewer."""
    assert len(render([result(0), result(1)], limit=50)) == 2


def test_q2_limit_works_on_a_generator_without_consuming_it_all() -> None:
    """Q2: results may be any iterable; rendering stops at limit."""
    consumed: list[int] = []

    def gen() -> Any:
        for i in range(1000):
            consumed.append(i)
            yield result(i)

    payload = render_results(gen(), exposure=AGENT, capabilities=MINIMUM, limit=3)
    assert len(payload["results"]) == 3  # type: ignore[arg-type]
    assert len(consumed) <= 4


def test_q2_dropped_results_do_not_count_toward_limit() -> None:
    """Q2/R2: limit counts results sent, so dropped ones leave room for the next valid one."""
    rendered = render(
        [result(0, snippet=""), result(1, audience=INTERNAL), result(2), result(3), result(4)],
        exposure=CUSTOMER,
        limit=2,
    )
    assert ids(rendered) == ["doc-2", "doc-3"]


# --------------------------------------------------------------------------------------
# Required fields (R2, R3)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "broken",
    [
        {"document_id": ""},
        {"title": ""},
        {"title": "   "},
        {"title": "\n\t"},
        {"snippet": ""},
        {"snippet": "  \n "},
        {"document_id": None},
        {"title": None},
        {"snippet": None},
    ],
    ids=["no-id", "no-title", "blank-title", "ws-title", "no-snippet", "blank-snippet", "id-None", "title-None",
         "snippet-None"],
)
@pytest.mark.parametrize("exposure", [CUSTOMER, AGENT])
def test_r2_results_missing_a_required_field_are_dropped(broken: dict[str, Any], exposure: Exposure) -> None:
    """R2: documentId, title and snippet are required and non-empty; a result without one is dropped."""
    rendered = render([result(0), result(1, **broken), result(2)], exposure=exposure)
    assert ids(rendered) == ["doc-0", "doc-2"]


@pytest.mark.parametrize("exposure", [CUSTOMER, AGENT])
def test_r2_every_result_carries_the_required_fields(exposure: Exposure) -> None:
    """R2/X6: every rendered result has documentId, title, snippet and audience, all non-empty strings."""
    for rendered in render([full(i) for i in range(5)], exposure=exposure, capabilities=ALL):
        for key in ("documentId", "title", "snippet", "audience"):
            assert isinstance(rendered[key], str)
            assert rendered[key].strip()


def test_r2_revision_is_not_capability_governed() -> None:
    """R2/R5: revision is an ordinary optional field, sent whenever the backend has one."""
    assert render([result(0, revision="r1")], capabilities=MINIMUM)[0]["revision"] == "r1"
    assert "revision" not in render([result(0)], capabilities=ALL)[0]


def test_r3_title_and_snippet_are_stripped() -> None:
    """R3: surrounding whitespace is not part of the plain text."""
    rendered = render([result(0, title="  Reset \n", snippet="\n  the passage  ")])[0]
    assert rendered["title"] == "Reset"
    assert rendered["snippet"] == "the passage"


# --------------------------------------------------------------------------------------
# Exposure (X2, X6)
# --------------------------------------------------------------------------------------


def test_x6_customer_safe_drops_internal_results() -> None:
    """X2/X6: a customer_safe response contains only public results."""
    rendered = render(
        [result(0), result(1, audience=INTERNAL), result(2), result(3, audience=INTERNAL)],
        exposure=CUSTOMER,
    )
    assert ids(rendered) == ["doc-0", "doc-2"]
    assert {r["audience"] for r in rendered} == {PUBLIC}


def test_x6_customer_safe_with_only_internal_results_is_empty() -> None:
    """X2: nothing non-public ever reaches a customer_safe response."""
    assert render([result(i, audience=INTERNAL) for i in range(5)], exposure=CUSTOMER, capabilities=ALL) == []


def test_x6_agent_only_keeps_both_audiences_with_their_true_label() -> None:
    """X3/X6: agent_only receives public and internal, each labelled with its classification."""
    rendered = render([result(0), result(1, audience=INTERNAL)], exposure=AGENT)
    assert [(r["documentId"], r["audience"]) for r in rendered] == [("doc-0", PUBLIC), ("doc-1", INTERNAL)]


@pytest.mark.parametrize(
    "audience",
    ["", "Public", "PUBLIC", "public ", " public", "Internal", "secret", "customer_safe", "all", None, 1, True],
)
@pytest.mark.parametrize("exposure", [CUSTOMER, AGENT])
def test_x6_invalid_audience_is_dropped(audience: Any, exposure: Exposure) -> None:
    """X5/X6: a result whose audience is not exactly public or internal is dropped for everyone."""
    rendered = render([result(0), result(1, audience=audience), result(2, audience=INTERNAL)], exposure=exposure)
    expected = ["doc-0"] if exposure is CUSTOMER else ["doc-0", "doc-2"]
    assert ids(rendered) == expected


def test_x6_non_public_on_customer_safe_is_reported_without_its_content(caplog: pytest.LogCaptureFixture) -> None:
    """X2/A6: the dropped result is logged as a backend fault, without its title or text."""
    with caplog.at_level(logging.ERROR, logger="helpthread_kit.results"):
        render([result(0, audience=INTERNAL, title="Salary bands", snippet="confidential")], exposure=CUSTOMER)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors
    text = " ".join(r.getMessage() for r in errors)
    assert "Salary bands" not in text
    assert "confidential" not in text


# --------------------------------------------------------------------------------------
# Capability fields (R4)
# --------------------------------------------------------------------------------------


def test_r4_capability_table_covers_every_governed_field() -> None:
    """R4: locale, chunkId, score, url, freshness/reviewDueAt and translationGroupId are each governed."""
    assert FIELDS_BY_CAPABILITY == {
        "locale": ("locale",),
        "chunking": ("chunkId",),
        "scoring": ("score",),
        "citationUrl": ("url",),
        "freshness": ("freshness", "reviewDueAt"),
        "translationGroups": ("translationGroupId",),
    }


def test_r4_every_governed_field_is_produced_by_to_wire() -> None:
    """R4: the table names real wire fields (a typo would make stripping a no-op)."""
    assert set(full().to_wire()) >= GOVERNED


@pytest.mark.parametrize("exposure", [CUSTOMER, AGENT])
def test_r4_minimum_capabilities_strip_every_governed_field(exposure: Exposure) -> None:
    """R4/C2: with only retrieve declared, no governed field appears — absent, not null."""
    rendered = render([full(0)], exposure=exposure, capabilities=MINIMUM)[0]
    assert set(rendered) == {"documentId", "title", "snippet", "audience", "revision"}
    assert None not in rendered.values()


@pytest.mark.parametrize("capability", sorted(FIELDS_BY_CAPABILITY))
def test_r4_undeclared_capability_fields_absent_declared_present(capability: str) -> None:
    """R4: each capability's fields appear only when it is declared, and those of the others never."""
    declared = frozenset({RETRIEVE, capability})
    rendered = render([full(0)], capabilities=declared)[0]
    own = set(FIELDS_BY_CAPABILITY[capability])
    assert own <= set(rendered)
    assert not (GOVERNED - own) & set(rendered)
    # ...and everything but this capability declared: only its own fields are missing
    others = ALL - {capability}
    rendered_others = render([full(0)], capabilities=others)[0]
    assert not own & set(rendered_others)
    assert (GOVERNED - own) <= set(rendered_others)


def test_r4_all_capabilities_keep_every_field_with_its_value() -> None:
    """R4: with every capability declared, every field the backend set is sent unchanged."""
    rendered = render([full(7)], capabilities=ALL)[0]
    assert rendered == {
        "documentId": "doc-7",
        "title": "Title 7",
        "snippet": "Snippet 7",
        "audience": "public",
        "revision": "rev-7",
        "chunkId": "doc-7#c1",
        "url": "https://help.example.com/doc-7",
        "locale": "de-DE",
        "score": 0.5,
        "freshness": "current",
        "reviewDueAt": "2027-01-31T00:00:00Z",
        "translationGroupId": "group-7",
    }


def test_r4_declared_capability_with_no_value_is_absent_not_null() -> None:
    """R4: a declared capability whose value the backend lacks is omitted, never null."""
    rendered = render([result(0)], capabilities=ALL)[0]
    assert set(rendered) == {"documentId", "title", "snippet", "audience"}
    assert None not in rendered.values()


def test_r4_semantic_search_and_locale_fallback_govern_no_result_field() -> None:
    """R4: declaring semanticSearch or localeFallback alone adds nothing to results."""
    rendered = render([full(0)], capabilities=frozenset({RETRIEVE, "semanticSearch", "localeFallback"}))[0]
    assert not GOVERNED & set(rendered)


def test_r4_to_wire_uses_wire_names_and_drops_none() -> None:
    """R2/R4: to_wire maps snake_case attributes to the contract's camelCase names."""
    minimal = {"documentId": "doc-0", "title": "Title 0", "snippet": "Snippet 0", "audience": "public"}
    assert result(0).to_wire() == minimal
    wire = full(0).to_wire()
    assert len(wire) == len(dataclasses.fields(Result))


# --------------------------------------------------------------------------------------
# Length bounds (R3)
# --------------------------------------------------------------------------------------


def test_r3_snippet_clipped_to_bound_with_ellipsis() -> None:
    """R3: the snippet is bounded: at most SNIPPET_MAX_CHARS code points, ellipsis included."""
    long = "word " * 1000
    snippet = render([result(0, snippet=long)])[0]["snippet"]
    assert len(snippet) <= SNIPPET_MAX_CHARS
    assert snippet.endswith("…")
    assert long.startswith(snippet[:-1])


def test_r3_title_clipped_to_bound_with_ellipsis() -> None:
    """R3: the title is bounded: at most MAX_TITLE_CHARS code points."""
    title = render([result(0, title="T" * 5000)])[0]["title"]
    assert len(title) == MAX_TITLE_CHARS
    assert title == "T" * (MAX_TITLE_CHARS - 1) + "…"


def test_r3_text_exactly_at_the_bound_is_unchanged() -> None:
    """R3: clipping only happens beyond the bound."""
    rendered = render([result(0, title="t" * MAX_TITLE_CHARS, snippet="s" * SNIPPET_MAX_CHARS)])[0]
    assert rendered["title"] == "t" * MAX_TITLE_CHARS
    assert rendered["snippet"] == "s" * SNIPPET_MAX_CHARS


def test_r3_bounds_count_code_points() -> None:
    """R3: astral characters count once each."""
    snippet = render([result(0, snippet="\U0001f600" * (SNIPPET_MAX_CHARS + 1))])[0]["snippet"]
    assert len(snippet) == SNIPPET_MAX_CHARS
    assert snippet == "\U0001f600" * (SNIPPET_MAX_CHARS - 1) + "…"
    title = render([result(0, title="\U0001f600" * MAX_TITLE_CHARS)])[0]["title"]
    assert title == "\U0001f600" * MAX_TITLE_CHARS


def test_r3_clipping_never_leaves_trailing_whitespace_before_the_ellipsis() -> None:
    """R3: a clipped passage ends in text then the ellipsis."""
    text = "a" * (SNIPPET_MAX_CHARS - 3) + "      " + "b" * 100
    snippet = render([result(0, snippet=text)])[0]["snippet"]
    assert len(snippet) <= SNIPPET_MAX_CHARS
    assert snippet == "a" * (SNIPPET_MAX_CHARS - 3) + "…"


def test_r3_bounds_match_the_response_schema() -> None:
    """R3: the module's bounds are the ones the published schema states."""
    from helpthread_kit.schemas import load_schema

    props = load_schema("retrieve-response")["$defs"]["result"]["properties"]
    assert props["snippet"]["maxLength"] == SNIPPET_MAX_CHARS
    assert props["title"]["maxLength"] == MAX_TITLE_CHARS
