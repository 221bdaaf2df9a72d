"""``fold`` (CONTRACT X5: a look-alike spelling of a marker reads as the marker) removes
default-ignorable code points and combining marks and blanks Hangul fillers, character by
character, whatever the text around them: the definition below, one character at a time,
is what the table-driven :func:`provider.wiki.lookalike.fold` must equal."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.lookalike import BLANK_FILLERS, _ignorable, fold


def _fold_by_definition(text: str) -> str:
    """NFKC; after NFD each character kept, dropped (ignorable, Mn, Me) or made a space
    (a blank filler); NFKC again; case folded."""
    if text.isascii():
        return text.casefold()
    kept = []
    for char in unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text)):
        if char in BLANK_FILLERS:
            kept.append(" ")
        elif not _ignorable(char) and unicodedata.category(char) not in ("Mn", "Me"):
            kept.append(char)
    return unicodedata.normalize("NFKC", "".join(kept)).casefold()


#: Characters folding treats specially, beside letters they attach to or sit between.
_SPECIAL = st.sampled_from(
    ["\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\u202e", "\ufeff", "\u034f", "\u115f", "\u1160", "\u3164",
     "\uffa0", "\ufe0f", "\U000e0100", "\u0301", "\u0308", "\u20dd", "\u0488", "\u093f", "\uff49", "\u2160",
     "\u1100", "\u1161", "\u11a8", "\uac00", "\u0456", "\u0131", "\u00df", "\u1e9e", "\u2126"])
_TEXT = st.lists(st.one_of(_SPECIAL, st.characters(exclude_categories=("Cs",)), st.sampled_from("internal ")),
                 max_size=24).map("".join)


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_fold_is_its_definition_character_by_character(text: str) -> None:
    assert fold(text) == _fold_by_definition(text)


def test_every_code_point_between_letters_folds_as_defined() -> None:
    # The table is filled per code point: each entry is checked, with letters around it
    # that marks may compose with (the assigned planes below U+30000 and plane 14's tags
    # and variation selectors).
    for code in [*range(0x80, 0xD800), *range(0xE000, 0x30000), *range(0xE0000, 0xE0200)]:
        text = f"a{chr(code)}e\u0301"
        assert fold(text) == _fold_by_definition(text), hex(code)


def test_hidden_characters_inside_a_marker_fold_away() -> None:
    assert fold("in\u00adter\u200bnal") == "internal"
    assert fold("ＩＮＴＥＲＮＡＬ") == "internal"
    assert fold("inte\u0301rnal") == "internal"
    assert fold("a\u3164b") == "a b"  # a Hangul filler reads as a gap, never joins the words


#: Texts of several lines: the special characters, any character, and line feeds next to
#: what could compose or be dropped around them (a mark opening a line, a filler ending one).
_LINES = st.lists(st.one_of(_SPECIAL, st.characters(exclude_categories=("Cs",)), st.just("\n"),
                            st.sampled_from(["\n\u0301", "\u3164\n", "\u0456\n", "ﬁ\n", "Σ\n"])),
                  max_size=32).map("".join)


@settings(max_examples=50, deadline=None)
@given(_LINES)
def test_x5_folding_line_by_line_is_folding_the_whole_text(text: str) -> None:
    """Issue 27: the body-marker prefilter folds a body one remembered line at a time;
    it must read exactly the text folding the whole body gives (CONTRACT X5: a look-alike
    marker on any line is still seen), for both foldings."""
    from provider.wiki.body_markers import fold_by_line
    from provider.wiki.copies import _fold as fast_fold

    assert fold_by_line(text, fast=False) == fold(text)
    assert fold_by_line(text, fast=True) == fast_fold(text)
