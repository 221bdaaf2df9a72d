"""Look-alike letters the confusables table does not list (CONTRACT X2, X5): Latin small
capitals (``ɪɴᴛᴇʀɴᴀʟ``), modifier and superscript letters read as the letter they are named
after, in headings, markers and copies alike (the attack wrote ``## ɪɴᴛᴇʀɴᴀʟ ɴᴏᴛᴇs``)."""

from __future__ import annotations

import contextlib
import unicodedata

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.copies import words
from tests.wiki.test_body_markers import _parse

CANARY = "zqxcanary"


def _drawn_otherwise(letter: str) -> list[str]:
    """Other characters Unicode names as ``letter`` (looked up by name, not by our table)."""
    names = (f"LATIN LETTER SMALL CAPITAL {letter.upper()}", f"MODIFIER LETTER SMALL {letter.upper()}",
             f"MODIFIER LETTER CAPITAL {letter.upper()}", f"LATIN SUBSCRIPT SMALL LETTER {letter.upper()}")
    found = []
    for name in names:
        with contextlib.suppress(KeyError):
            found.append(unicodedata.lookup(name))
    return found


@st.composite
def disguised(draw: st.DrawFn, word: str) -> str:
    out = []
    for letter in word:
        others = _drawn_otherwise(letter) if letter.isalpha() else []
        out.append(draw(st.sampled_from([letter, *others])) if others else letter)
    return "".join(out)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(disguised("internal notes"), st.sampled_from(["heading", "summary", "comment"]))
def test_x2_a_staff_label_in_named_look_alikes_hides_its_text(label: str, form: str) -> None:
    body = {
        "heading": f"## {label}\n\nAgents use {CANARY} here.\n\n## Next\n\nPublic words.\n",
        "summary": f"<details><summary>{label}</summary>\n\nAgents use {CANARY} here.\n\n</details>\n\nPublic.\n",
        "comment": f"<!-- {label.split()[0]} -->\nAgents use {CANARY} here.\n<!-- /{label.split()[0]} -->\n\nPublic.\n",
    }[form]
    doc = _parse(f"---\naudience: public\ntitle: Page\n---\nPublic words first.\n\n{body}")
    assert not (doc.meta.audience == "public" and CANARY in doc.public_body), body
    assert doc.meta.findings, body


@settings(max_examples=100, deadline=None)
@given(disguised("for refunds over five hundred euros call the finance hotline"))
def test_x2_copies_in_named_look_alikes_are_the_same_words(text: str) -> None:
    assert words(text) == words("for refunds over five hundred euros call the finance hotline")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([" ", "\u3164", "\u115f", "\u1160", "\uffa0"]), min_size=9, max_size=9))
def test_x2_a_blank_filler_between_words_is_a_word_break(gaps: list[str]) -> None:
    """X2: Hangul fillers are default-ignorable but drawn as blanks; folding them away
    joined a pasted note into one long word, so the copy rules saw no shingles (attack)."""
    sentence = "for refunds over five hundred euros call the finance hotline".split()
    text = sentence[0] + "".join(gap + word for gap, word in zip(gaps, sentence[1:], strict=True))
    assert words(text) == sentence
