"""Capability names and the operator's capability setting (CONTRACT C1–C3, R4; contract §3.3)."""

from __future__ import annotations

import pytest

from helpthread_kit.capabilities import (
    ALL_CAPABILITIES,
    FIELDS_BY_CAPABILITY,
    MINIMUM,
    OPTIONAL_CAPABILITIES,
    RETRIEVE,
    parse_capabilities,
)

EVERYTHING = frozenset(OPTIONAL_CAPABILITIES)


def test_c1_capability_names_and_order_are_the_contracts() -> None:
    """C1/C3: retrieve plus the eight optional capabilities, in §3.3 order."""
    assert ALL_CAPABILITIES == (
        "retrieve",
        "semanticSearch",
        "locale",
        "localeFallback",
        "freshness",
        "translationGroups",
        "chunking",
        "scoring",
        "citationUrl",
    )
    assert RETRIEVE not in OPTIONAL_CAPABILITIES
    assert (RETRIEVE, *OPTIONAL_CAPABILITIES) == ALL_CAPABILITIES


def test_c2_minimum_is_retrieve_only() -> None:
    """C2: the default declaration is the minimum set: retrieve only."""
    assert set(MINIMUM) == {"retrieve"}
    assert isinstance(MINIMUM, frozenset)


def test_r4_governed_capabilities_are_optional_ones() -> None:
    """R4: only optional capabilities govern result fields; retrieve governs none."""
    assert set(FIELDS_BY_CAPABILITY) <= set(OPTIONAL_CAPABILITIES)


@pytest.mark.parametrize("value", [None, "", "   ", "minimum", " minimum ", "none", [], ()])
def test_c2_default_and_minimum_settings_give_the_minimum_set(value: object) -> None:
    """C2: no setting (or 'minimum'/'none'/empty) declares only retrieve, whatever the backend implements."""
    assert parse_capabilities(value, implemented=EVERYTHING) == MINIMUM  # type: ignore[arg-type]


def test_c2_all_declares_what_the_backend_implements_plus_retrieve() -> None:
    """C2: 'all' means every capability the backend implements, never one it does not."""
    assert parse_capabilities("all", implemented=EVERYTHING) == frozenset(ALL_CAPABILITIES)
    assert parse_capabilities("all", implemented={"scoring", "chunking"}) == {"retrieve", "scoring", "chunking"}
    assert parse_capabilities(" all ", implemented=()) == MINIMUM


def test_c2_list_of_names() -> None:
    """C2: a list of names declares those plus retrieve."""
    declared = parse_capabilities(["scoring", "chunking"], implemented=EVERYTHING)
    assert declared == {"retrieve", "scoring", "chunking"}
    assert isinstance(declared, frozenset)


def test_c2_list_entries_are_trimmed() -> None:
    """C2: whitespace around listed names is ignored."""
    assert parse_capabilities([" locale ", "localeFallback"], implemented=EVERYTHING) == {
        "retrieve",
        "locale",
        "localeFallback",
    }


@pytest.mark.parametrize(
    "value",
    ["scoring,chunking", "scoring, chunking", " scoring ,chunking ", "scoring,,chunking,", "chunking,scoring,scoring"],
)
def test_c2_comma_separated_string(value: str) -> None:
    """C2: one comma-separated string, blanks and repeats tolerated."""
    assert parse_capabilities(value, implemented=EVERYTHING) == {"retrieve", "scoring", "chunking"}


def test_c2_retrieve_named_explicitly_is_fine() -> None:
    """C1: retrieve is always declared; naming it changes nothing."""
    assert parse_capabilities("retrieve", implemented=()) == MINIMUM
    assert parse_capabilities(["retrieve", "scoring"], implemented={"scoring"}) == {"retrieve", "scoring"}


@pytest.mark.parametrize("name", ["bogus", "Scoring", "citation_url", "all", "minimum", "score"])
def test_c2_unknown_name_is_an_error_naming_it(name: str) -> None:
    """C2: an unknown capability name is refused; the message names it and the valid choices."""
    with pytest.raises(ValueError, match="unknown capability") as info:
        parse_capabilities(["scoring", name], implemented=EVERYTHING)
    assert repr(name) in str(info.value)
    assert "citationUrl" in str(info.value)


def test_c2_unknown_name_in_comma_string_is_an_error() -> None:
    """C2: typos in the comma form are caught too."""
    with pytest.raises(ValueError, match="'scroing'"):
        parse_capabilities("chunking, scroing", implemented=EVERYTHING)


@pytest.mark.parametrize("name", list(OPTIONAL_CAPABILITIES))
def test_c2_unimplemented_capability_is_an_error(name: str) -> None:
    """C2: a capability is declared only when actually implemented; otherwise the operator is told."""
    implemented = EVERYTHING - {name}
    with pytest.raises(ValueError, match="not implemented") as info:
        parse_capabilities([name], implemented=implemented)
    assert repr(name) in str(info.value)
    assert parse_capabilities([name], implemented={name}) == {"retrieve", name}
