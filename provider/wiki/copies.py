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
from collections import Counter, defaultdict
from collections.abc import Container, Iterable, Mapping
from itertools import chain

from .lookalike import _ignorable

__all__ = ["MIN_SHINGLES", "NEAR_COPY_JACCARD", "SHINGLE_WORDS", "SKETCH_SIZE", "CopyGraph", "near_copies",
           "similarity", "sketch"]

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


class _Dropped(dict[int, int | None]):
    """``str.translate`` table deleting what :func:`~provider.wiki.lookalike.fold` deletes
    after NFD (default-ignorable code points, combining marks), filled per character as
    met."""

    def __missing__(self, code: int) -> int | None:
        char = chr(code)
        kept = None if _ignorable(char) or unicodedata.category(char) in ("Mn", "Me") else code
        self[code] = kept
        return kept


_DROPPED = _Dropped()


def _fold(text: str) -> str:
    """Exactly :func:`~provider.wiki.lookalike.fold`, faster: ASCII text needs only case
    folding (normalisation leaves it alone and it has no ignorable code points or
    marks), and other text is filtered by ``str.translate`` instead of per character in
    Python — folding was a third of parsing a document."""
    if text.isascii():
        return text.casefold()
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text)).translate(_DROPPED)
    return unicodedata.normalize("NFKC", text).casefold()


def words(text: str) -> list[str]:
    """The folded words of ``text`` (see the module docstring)."""
    folded = _fold(text)
    if folded.isascii():  # no script written without spaces: every word stays whole
        return _WORD.findall(folded)
    out: list[str] = []
    for word in _WORD.findall(folded):
        out.extend(_split(word))
    return out


def sketch(text: str) -> str:
    """The bottom-k sketch of ``text`` as hex (8 digits a value, ascending), or ``""``
    when the text has fewer than :data:`MIN_SHINGLES` shingles."""
    found = words(text)
    shingles = set(map(" ".join, zip(*(found[i:] for i in range(SHINGLE_WORDS)), strict=False)))
    if len(shingles) < MIN_SHINGLES:
        return ""
    # Four big-endian bytes sort as the 32-bit numbers they stand for, and their hex is
    # the number's eight digits: no conversion to int and back per shingle.
    digests = sorted(hashlib.blake2b(s.encode("utf-8"), digest_size=4).digest() for s in shingles)
    return b"".join(digests[:SKETCH_SIZE]).hex()


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
        for value in set(_values(encoded)):
            by_value[value].append(key)
    found: dict[str, list[tuple[str, float]]] = {}
    for key, encoded in targets.items():
        if not encoded:
            continue
        shared: dict[str, int] = defaultdict(int)
        for value in set(_values(encoded)):
            for other in by_value.get(value, ()):
                if other != key:
                    shared[other] += 1
        pairs = [(other, similarity(encoded, sources[other])) for other, count in shared.items()
                 if count >= _CANDIDATE_SHARED]
        pairs = sorted(((o, s) for o, s in pairs if s >= threshold), key=lambda p: (-p[1], p[0]))
        if pairs:
            found[key] = pairs
    return found


class CopyGraph:
    """Every pair of sketches that are near-copies, kept up to date one document at a time.

    Which documents are *targets* and which are *sources* of rule 6 depends on audiences
    that every batch may change; whether two texts are near-copies depends only on their
    sketches. So the pairs are found once for all sketches, whatever their status, and a
    changed document only has its own pairs found again (against an inverted index of
    sketch values); :meth:`near_copies` then filters the pairs by the current targets and
    sources. Its answer equals :func:`near_copies` on the same sketches: the similarity of
    a pair does not depend on the other documents.

    Keys are the caller's (the corpus rules use a relative path, and the path and
    ``#internal`` for an internal section's sketch). Memory: about 64 small integers per
    sketch, plus the pairs.
    """

    def __init__(self, threshold: float = NEAR_COPY_JACCARD) -> None:
        self.threshold = threshold
        self._encoded: dict[str, str] = {}
        self._values: dict[str, frozenset[int]] = {}
        self._by_value: dict[int, set[str]] = defaultdict(set)
        self._pairs: dict[str, dict[str, float]] = {}

    def __len__(self) -> int:
        return len(self._encoded)

    def sync(self, sketches: Mapping[str, str]) -> int:
        """Make the graph hold exactly ``sketches`` (key → hex sketch; empty ones are
        left out). Returns how many keys were added, changed or removed."""
        changed = 0
        for key in [k for k in self._encoded if not sketches.get(k)]:
            self._remove(key)
            changed += 1
        for key, encoded in sketches.items():
            if encoded and self._encoded.get(key) != encoded:
                self.set(key, encoded)
                changed += 1
        return changed

    def update(self, key: str, encoded: str) -> bool:
        """Give one key this sketch (``""``: none) unless it has it already; returns
        whether anything changed."""
        if self._encoded.get(key, "") == encoded:
            return False
        self.set(key, encoded)
        return True

    def set(self, key: str, encoded: str) -> None:
        """Add or replace one key's sketch and find its pairs."""
        if key in self._encoded:
            self._remove(key)
        if not encoded:
            return
        values = frozenset(_values(encoded))
        by_value = self._by_value
        # Counted in C: at 10,000 documents this loop is most of the first sync.
        shared = Counter(chain.from_iterable(by_value[value] for value in values if value in by_value))
        pairs: dict[str, float] = {}
        for other, count in shared.items():
            if count >= _CANDIDATE_SHARED:
                score = _similarity(values, self._values[other])
                if score >= self.threshold:
                    pairs[other] = score
                    self._pairs[other][key] = score
        self._encoded[key], self._values[key], self._pairs[key] = encoded, values, pairs
        for value in values:
            self._by_value[value].add(key)

    def _remove(self, key: str) -> None:
        self._encoded.pop(key, None)
        values = self._values.pop(key, frozenset())
        for value in values:
            keys = self._by_value.get(value)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._by_value[value]
        for other in self._pairs.pop(key, {}):
            self._pairs[other].pop(key, None)

    def neighbours(self, key: str) -> Iterable[str]:
        """The keys whose sketch nearly copies ``key``'s (none for an unknown key)."""
        return self._pairs.get(key, {}).keys()

    def near_copies(self, targets: Iterable[str], sources: Container[str]) -> dict[str, list[tuple[str, float]]]:
        """Like :func:`near_copies` for keys already in the graph: ``{target: [(source,
        similarity), ...]}``, most similar first, for targets with at least one copy among
        ``sources`` (a key is never paired with itself)."""
        found: dict[str, list[tuple[str, float]]] = {}
        for key in targets:
            pairs = self._pairs.get(key)
            if not pairs:
                continue
            hits = sorted(((o, s) for o, s in pairs.items() if o in sources), key=lambda p: (-p[1], p[0]))
            if hits:
                found[key] = hits
        return found


def _similarity(first: frozenset[int], second: frozenset[int]) -> float:
    union = sorted(first | second)[:SKETCH_SIZE]
    return sum(1 for value in union if value in first and value in second) / len(union)
