"""A regular expression matching any of many literal strings, longest first, factored by
shared prefix.

``a|b|c`` over hundreds of words makes Python's ``re`` try every word at every position of
the text searched; most words share their first letters, so the same words written as a
trie (``in(?:ternal|tern)`` for ``internal|intern``) test a letter once and leave at the
first one that fails.

Same matches, tried in the same order: at one position the words that match are all
prefixes of the text there, hence of each other, so they lie on one path of the trie. The
flat alternation (longest first) tries them longest first; the trie goes as deep as it can
and, when what follows fails, backs off to the next shorter word on that path — the same
sequence of candidates, in any surrounding pattern.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["longest_first"]

_END = ""
#: A node: each next character → its node; :data:`_END` → ``{}`` where a word ends.
_Trie = dict[str, "_Trie"]


def longest_first(words: Iterable[str]) -> str:
    """A pattern (no capturing groups) matching any of ``words`` as
    ``"|".join(map(re.escape, sorted(words, key=len, reverse=True)))`` does, tried in that
    order, written as a trie of characters. An empty ``words`` gives ``""`` (as the flat
    form does)."""
    trie: _Trie = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[_END] = {}
    return _pattern(trie)


def _pattern(node: _Trie) -> str:
    branches = [re.escape(char) + _pattern(child) for char, child in sorted(node.items()) if char != _END]
    if not branches:
        return ""
    ends_here = _END in node
    if len(branches) == 1 and not ends_here:
        return branches[0]
    # A word ending here is the shortest candidate on this path: tried after every longer one.
    return "(?:" + "|".join(branches) + ("|" if ends_here else "") + ")"
