"""BCP 47 lookup with langcodes, script-aware (CONTRACT Q3, Q4; §4.3, §5.5)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpthread_kit.locales import canonical_tag, language_of, likely_subtags, preference, writing_of


def _order(requested: str, documents: list[str], **kwargs: object) -> list[str]:
    """The accepted documents' locales, best first (ties keep the given order)."""
    pref = preference(requested, **kwargs)  # type: ignore[arg-type]
    ranked = [(rank, i, tag) for i, tag in enumerate(documents) if (rank := pref.rank(tag)) is not None]
    return [tag for _, _, tag in sorted(ranked)]


@pytest.mark.parametrize(("raw", "canonical"), [("zh_cn", "zh-CN"), ("EN", "en"), ("de-at", "de-AT"),
                                                ("pt-br", "pt-BR"), ("xx", None), ("und", None),
                                                ("english", None), ("", None)])
def test_canonical_tag(raw: str, canonical: str | None) -> None:
    assert canonical_tag(raw) == canonical


def test_lookup_truncates_then_accepts_other_regions() -> None:
    """de-AT is served by de-AT, then de, then another German region; nothing else
    without fallback."""
    pref = preference("de-AT", fallback=False)
    assert pref.rank("de-AT") == 0 and pref.rank("de") == 1
    assert _order("de-AT", ["de-DE", "de", "de-AT"], fallback=False) == ["de-AT", "de", "de-DE"]
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


# -- scripts (issue 12): the README's examples --------------------------------------------

ZH = ["zh-CN", "zh", "zh-Hans", "zh-SG", "zh-HK", "zh-Hant", "zh-TW", "zh-MO"]


def test_zh_tw_gets_traditional_only_its_own_region_first() -> None:
    """zh-TW: the exact tag, zh-Hant (whose likely region is TW), then the other
    Traditional regions; never Simplified (zh, zh-CN, zh-Hans, zh-SG) without fallback."""
    assert _order("zh-TW", ZH, fallback=False) == ["zh-TW", "zh-Hant", "zh-HK", "zh-MO"]


def test_zh_hant_prefers_its_likely_region() -> None:
    assert _order("zh-Hant", ZH, fallback=False) == ["zh-Hant", "zh-TW", "zh-HK", "zh-MO"]


def test_plain_zh_is_simplified() -> None:
    """zh means zh-Hans-CN (CLDR likely subtags): a zh request is never answered in
    Traditional characters, and a zh document never answers a zh-TW request."""
    assert _order("zh", ZH, fallback=False) == ["zh", "zh-CN", "zh-Hans", "zh-SG"]


def test_pt_br_then_pt_then_other_regions() -> None:
    assert _order("pt-BR", ["pt-PT", "pt", "pt-BR", "es"], fallback=False) == ["pt-BR", "pt", "pt-PT"]


def test_pt_prefers_brazil_as_its_likely_region() -> None:
    assert _order("pt", ["pt-PT", "pt-BR", "pt"], fallback=False) == ["pt", "pt-BR", "pt-PT"]


def test_sr_latn_never_gets_cyrillic() -> None:
    """sr is Cyrillic by likely subtags, so the lookup truncation sr-Latn → sr is skipped."""
    docs = ["sr", "sr-Cyrl", "sr-Cyrl-RS", "sr-Latn-RS", "sr-Latn", "sr-Latn-ME"]
    assert _order("sr-Latn", docs, fallback=False) == ["sr-Latn", "sr-Latn-RS", "sr-Latn-ME"]
    assert _order("sr", docs, fallback=False) == ["sr", "sr-Cyrl", "sr-Cyrl-RS"]


def test_another_script_only_through_the_fallback_chain() -> None:
    """With fallback, a chain entry in the other script comes after every Traditional
    document, then the default locale."""
    docs = ["en", "zh-CN", "zh-HK", "zh-TW"]
    assert _order("zh-TW", docs, fallback=True, chain=["zh-CN", "en"]) == ["zh-TW", "zh-HK", "zh-CN", "en"]
    assert _order("zh-TW", docs, fallback=True, chain=["en"]) == ["zh-TW", "zh-HK", "en"]


def test_likely_subtags() -> None:
    assert likely_subtags("zh-TW") == ("zh", "Hant", "TW") and likely_subtags("pt") == ("pt", "Latn", "BR")
    assert writing_of("zh-Hant") == writing_of("zh-HK") == ("zh", "Hant") and writing_of("zh") == ("zh", "Hans")


TAGS = ["zh", "zh-CN", "zh-TW", "zh-HK", "zh-Hans", "zh-Hant", "zh-SG", "zh-MO", "sr", "sr-Latn", "sr-Cyrl",
        "sr-Latn-RS", "sr-ME", "pt", "pt-BR", "pt-PT", "en", "en-GB", "de", "de-AT", "ja", "ko", "ar", "fa",
        "uz", "uz-Cyrl", "uz-Latn", "pa", "pa-Arab", "pa-PK", "az", "az-Arab", "mn", "mn-Mong", "yue", "yue-Hans"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(TAGS), st.sampled_from(TAGS), st.lists(st.sampled_from(TAGS), max_size=3))
def test_no_other_script_without_fallback_nor_outside_the_chain(requested: str, document: str,
                                                                chain: list[str]) -> None:
    """A class, not instances: without fallback, a document is accepted only in the
    request's language and script; with fallback, only in the writing of the request or
    of a chain entry."""
    if preference(requested, fallback=False).rank(document) is not None:
        assert writing_of(document) == writing_of(requested)
    if preference(requested, fallback=True, chain=chain).rank(document) is not None:
        assert writing_of(document) in {writing_of(tag) for tag in [requested, *chain]}


def test_language_of() -> None:
    assert language_of("pt-BR") == "pt" and language_of("zh-Hant-TW") == "zh"
