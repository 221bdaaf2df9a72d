"""Near-copies: documents whose text is the same, or nearly the same, as another's.

A copy of internal text under another path is internal text (CONTRACT X2, X5). The
corpus rules (:mod:`provider.wiki.corpus`) give a public document that nearly copies an
internal or withheld one the strictest status among the documents it copies.

"Nearly the same" is measured on **word shingles**: the text (title, headings, prose and
code) is folded (:func:`provider.wiki.lookalike.fold`), cut into words — letters or digits
in a run; each Han, kana, Hangul or Thai character counts as a word, as those scripts do
not put spaces between words — and every run of :data:`SHINGLE_WORDS` consecutive words is
one shingle. Two texts are near-copies when the Jaccard similarity of their shingle sets
(shared shingles / all shingles) is at least :data:`NEAR_COPY_JACCARD` (0.35: a copy with
every eighth word changed still counts).

It is estimated from a **bottom-k sketch** (the :data:`SKETCH_SIZE` smallest 32-bit BLAKE2b
hashes of a text's shingles), stored with each document's metadata so that a sync compares
documents without reading them again. With k = 64 the estimate's standard error is about
0.06 at J = 0.35; texts shorter than :data:`MIN_SHINGLES` shingles get no sketch (stubs and
one-line pages would all look alike).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import defaultdict
from collections.abc import Mapping

from .lookalike import fold

__all__ = ["MIN_SHINGLES", "NEAR_COPY_JACCARD", "SHINGLE_WORDS", "SKETCH_SIZE", "near_copies", "similarity", "sketch"]

SHINGLE_WORDS = 3
SKETCH_SIZE = 64
MIN_SHINGLES = 8
#: Estimated Jaccard similarity from which a text counts as a copy of another.
NEAR_COPY_JACCARD = 0.35
#: Sketch values two texts must share before their similarity is estimated (a copy at the
#: threshold shares about 33 of 64).
_CANDIDATE_SHARED = 8

_WORD = re.compile(r"[^\W_]+")
_SPLIT_SCRIPTS = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "THAI")


def _split(word: str) -> list[str]:
    """A word of a script written without spaces becomes one word per character."""
    if word.isascii():
        return [word]
    if any(unicodedata.name(ch, "").startswith(_SPLIT_SCRIPTS) for ch in word):
        return list(word)
    return [word]


def words(text: str) -> list[str]:
    """The folded words of ``text`` (see the module docstring)."""
    out: list[str] = []
    for word in _WORD.findall(fold(text)):
        out.extend(_split(word))
    return out


def sketch(text: str) -> str:
    """The bottom-k sketch of ``text`` as hex (8 digits a value, ascending), or ``""``
    when the text has fewer than :data:`MIN_SHINGLES` shingles."""
    found = words(text)
    shingles = {" ".join(found[i : i + SHINGLE_WORDS]) for i in range(max(len(found) - SHINGLE_WORDS + 1, 0))}
    if len(shingles) < MIN_SHINGLES:
        return ""
    hashes = sorted(
        int.from_bytes(hashlib.blake2b(s.encode("utf-8"), digest_size=4).digest(), "big") for s in shingles
    )[:SKETCH_SIZE]
    return "".join(f"{h:08x}" for h in hashes)


def _values(encoded: str) -> list[int]:
    return [int(encoded[i : i + 8], 16) for i in range(0, len(encoded), 8)]


def similarity(a: str, b: str) -> float:
    """Estimated Jaccard similarity (0–1) of the texts behind two sketches; 0.0 when
    either is empty."""
    if not a or not b:
        return 0.0
    first, second = set(_values(a)), set(_values(b))
    union = sorted(first | second)[:SKETCH_SIZE]
    return sum(1 for value in union if value in first and value in second) / len(union)


def near_copies(targets: Mapping[str, str], sources: Mapping[str, str],
                threshold: float = NEAR_COPY_JACCARD) -> dict[str, list[tuple[str, float]]]:
    """For each target, the sources it nearly copies, most similar first.

    Args:
        targets: key → sketch (documents that could inherit a stricter status).
        sources: key → sketch (documents whose status is inherited); a key in both is
            never compared with itself.
        threshold: estimated Jaccard similarity from which a pair counts.

    Returns:
        ``{target: [(source, similarity), ...]}`` for targets with at least one copy.
    """
    by_value: dict[int, list[str]] = defaultdict(list)
    for key, encoded in sources.items():
        for value in _values(encoded):
            by_value[value].append(key)
    found: dict[str, list[tuple[str, float]]] = {}
    for key, encoded in targets.items():
        if not encoded:
            continue
        shared: dict[str, int] = defaultdict(int)
        for value in _values(encoded):
            for other in by_value.get(value, ()):
                if other != key:
                    shared[other] += 1
        pairs = [(other, similarity(encoded, sources[other])) for other, count in shared.items()
                 if count >= _CANDIDATE_SHARED]
        pairs = sorted(((o, s) for o, s in pairs if s >= threshold), key=lambda p: (-p[1], p[0]))
        if pairs:
            found[key] = pairs
    return found
