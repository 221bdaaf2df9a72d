"""``longest_first`` (the word lists behind the restriction rule's patterns, CONTRACT X2/X5:
a staff phrase must be found exactly as before) matches as the flat longest-first
alternation does, in any surrounding pattern: the same spans, the same backtracking."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.alternation import longest_first

_LETTERS = st.text(alphabet="ab.c*\u00e9中", min_size=0, max_size=5)
_WORDS = st.lists(_LETTERS, min_size=0, max_size=12)
#: Surroundings: nothing, a required continuation (forces backing off to a shorter word),
#: anchors, a repetition.
_FRAMES = ("{}", "(?:{})b", "^(?:{})$", "(?:{})\\s?c", "(?:(?:{})-)+", "(?<!a)(?:{})(?!a)")


def _flat(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@settings(max_examples=600, deadline=None)
@given(_WORDS, st.text(alphabet="ab.c*\u00e9中- \n", max_size=30), st.sampled_from(_FRAMES))
def test_same_spans_as_the_flat_alternation(words: list[str], text: str, frame: str) -> None:
    flat = re.compile(frame.format(_flat(words)))
    trie = re.compile(frame.format(longest_first(words)))
    assert [m.span() for m in trie.finditer(text)] == [m.span() for m in flat.finditer(text)]
    assert bool(trie.fullmatch(text)) == bool(flat.fullmatch(text))


def test_shared_prefixes_are_written_once() -> None:
    assert longest_first(["intern", "internal", "staff"]) == "(?:intern(?:al|)|staff)"
    assert longest_first([]) == ""
