"""BCP 47 lookup with langcodes (CONTRACT Q3, Q4; §4.3, §5.5)."""

from __future__ import annotations

import pytest

from provider.contract.locales import canonical_tag, language_of, preference


@pytest.mark.parametrize(("raw", "canonical"), [("zh_cn", "zh-CN"), ("EN", "en"), ("de-at", "de-AT"),
                                                ("pt-br", "pt-BR"), ("xx", None), ("und", None),
                                                ("english", None), ("", None)])
def test_canonical_tag(raw: str, canonical: str | None) -> None:
    assert canonical_tag(raw) == canonical


def test_lookup_truncates_then_accepts_other_regions() -> None:
    """de-AT is served by de-AT, then de, then another German region; nothing else
    without fallback."""
    pref = preference("de-AT", fallback=False)
    assert pref.rank("de-AT") == 0 and pref.rank("de") == 1 and pref.rank("de-DE") == 2
    assert pref.rank("en") is None and pref.rank("fr-AT") is None


def test_fallback_chain_comes_after_the_requested_language_in_order() -> None:
    pref = preference("de-AT", fallback=True, chain=["fr", "en"])
    ranks = {tag: pref.rank(tag) for tag in ("de-AT", "de", "de-CH", "fr", "fr-CA", "en", "en-GB", "es")}
    assert ranks["es"] is None
    ordered = sorted((r, t) for t, r in ranks.items() if r is not None)
    assert [t for _, t in ordered] == ["de-AT", "de", "de-CH", "fr", "fr-CA", "en", "en-GB"]


def test_fallback_chain_skips_the_requested_language() -> None:
    pref = preference("en-GB", fallback=True, chain=["en"])
    assert len(pref.steps) == 1 and pref.rank("en") == 1


def test_language_of() -> None:
    assert language_of("pt-BR") == "pt" and language_of("zh-Hant-TW") == "zh"
