"""Typo correction through an index of the vocabulary (a deletion index), not a scan.

A query term no document contains is replaced by the closest indexed term of its
language (:func:`closest`): within one edit (Damerau-Levenshtein, as
``whoosh.support.levenshtein.distance`` counts them), two for long terms, sharing the first
:data:`PREFIX` characters, the most frequent of the closest. Scanning the vocabulary
for that — Whoosh's ``terms_within`` computes the distance in pure Python to every term
with the prefix — cost about a tenth of all search time.

Instead each index segment's vocabulary (the title, body and code fields of one
language) gets a **deletion index** once: every term under every way of deleting up to
one character after the prefix (two for terms long enough to be two edits from a long
word). Two words within ``k`` edits become the same string after at most ``k`` deletions
from each, so a lookup generates the query word's own deletions, finds the terms sharing
one, and checks only those with the real distance. The answer is exactly the scan's; the
work is a few dozen hash lookups. Segments never change once written, so an index is
built once per segment (a commit adds a small segment; a merge makes a new one) and
dropped when its segment is gone.

The index stores each entry as one 8-byte integer — a 32-bit hash of the variant and the
term's number — in one sorted ``array``, not a dict of strings, so a 10,000-document
index's vocabulary takes a few MiB. Two variants sharing a 32-bit hash only add a
candidate that the real distance then rejects: the answer does not change. It is built
without a list of Python integers for the whole vocabulary (about 44 bytes an entry, five
times the result): entries go into 256 arrays by their hash's top bits, each sorted on
its own and appended to the result in order, so the build's peak is about twice the
result's size.
"""

from __future__ import annotations

import threading
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from whoosh.support.levenshtein import distance

__all__ = ["MIN_CHARS", "PREFIX", "TWO_EDITS_CHARS", "DeletionIndex", "VocabularyIndexes", "closest_in",
           "max_edits"]

#: Only a term of at least this many characters is corrected.
MIN_CHARS = 4
#: From this many characters on, a term may be two edits away from its correction.
TWO_EDITS_CHARS = 9
#: Words longer than this are not corrected: a 1,024-character query word has half a
#: million two-edit deletions, and no vocabulary word is its misspelling.
MAX_CHARS = 64
#: A correction shares this many first characters with the term.
PREFIX = 2


_NUMBER_BITS = 32
_NUMBER_MASK = (1 << _NUMBER_BITS) - 1
#: The build sorts the entries in 2**8 parts, by the top bits of their hash.
_PART_BITS = 8
_EMPTY = array("Q")


def max_edits(word: str) -> int:
    """The edits a correction of ``word`` may be away: 1, or 2 from :data:`TWO_EDITS_CHARS`."""
    return 2 if len(word) >= TWO_EDITS_CHARS else 1


def _deletions(word: str, edits: int) -> set[str]:
    """``word`` and every string made by deleting up to ``edits`` of its characters after
    the first :data:`PREFIX`."""
    out = {word}
    frontier = out
    for _ in range(edits):
        frontier = {w[:i] + w[i + 1:] for w in frontier for i in range(PREFIX, len(w))}
        out = out | frontier
    return out


class DeletionIndex:
    """The deletion index of one vocabulary (see the module's description).

    Args:
        terms: the vocabulary (any iterable of distinct or repeated terms).
    """

    #: Bits of a variant's hash kept in an entry (at most 32; fewer only in tests, to
    #: make collisions common).
    hash_bits = 32

    def __init__(self, terms: Iterable[str]) -> None:
        self.terms: list[str] = sorted({t for t in terms if len(t) >= MIN_CHARS - 1})
        self._mask = mask = (1 << self.hash_bits) - 1
        shift = max(self.hash_bits - _PART_BITS, 0)
        # (hash, term number) packed into one unsigned 64-bit int, grouped by the hash's
        # top bits: each part is an array (8 bytes an entry), never one list of Python
        # ints for the whole vocabulary.
        parts = [array("Q") for _ in range(1 << min(self.hash_bits, _PART_BITS))]
        for number, term in enumerate(self.terms):
            # A term can be the correction of a word one edit away, or two when that word
            # is long enough (at least TWO_EDITS_CHARS, so the term at least two less).
            edits = 2 if len(term) >= TWO_EDITS_CHARS - 2 else 1
            for variant in _deletions(term, edits):
                key = hash(variant) & mask
                parts[key >> shift].append(key << _NUMBER_BITS | number)
        packed = array("Q")
        for at, part in enumerate(parts):
            # Parts follow one another in hash order, so sorting each sorts the whole;
            # each is freed once copied (only one part is a list at a time).
            packed.extend(sorted(part))
            parts[at] = _EMPTY
        self._packed = packed

    @property
    def entries(self) -> int:
        """Deletion variants stored (each 8 bytes)."""
        return len(self._packed)

    def within(self, word: str, edits: int) -> set[str]:
        """The terms within ``edits`` edits of ``word`` that share its first :data:`PREFIX`
        characters and differ in length by at most ``edits`` — what Whoosh's
        ``terms_within(field, word, edits, prefix=PREFIX)`` with that length bound yields."""
        found: set[int] = set()
        packed, mask, size = self._packed, self._mask, len(self._packed)
        for variant in _deletions(word, edits):
            key = hash(variant) & mask
            at = bisect_left(packed, key << _NUMBER_BITS)
            while at < size and packed[at] >> _NUMBER_BITS == key:
                found.add(packed[at] & _NUMBER_MASK)
                at += 1
        head = word[:PREFIX]
        out = set()
        for number in found:
            term = self.terms[number]
            if (term.startswith(head) and abs(len(term) - len(word)) <= edits
                    and distance(term, word, limit=edits) <= edits):
                out.add(term)
        return out


def closest_in(indexes: Sequence[DeletionIndex], word: str, frequency: Any) -> str | None:
    """The term of ``indexes`` closest to ``word`` (fewest edits, up to
    :func:`max_edits`), the most frequent by ``frequency(term)`` among equally close ones,
    then the first in code-point order; ``None`` when none is close enough, and for a
    word over :data:`MAX_CHARS` (its deletions grow with the square of its length)."""
    if len(word) > MAX_CHARS:
        return None
    for edits in range(1, max_edits(word) + 1):
        found = set().union(*(index.within(word, edits) for index in indexes))
        if found:
            return str(min(found, key=lambda term: (-frequency(term), term)))
    return None


def _decoded(terms: Iterable[Any]) -> Iterable[str]:
    for term in terms:
        yield term.decode("utf-8") if isinstance(term, bytes) else str(term)


class VocabularyIndexes:
    """Deletion indexes per (index, segment, language), built on first use and kept while
    their segment is part of that index (thread-safe; one per backend)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._indexes: dict[tuple[str, str, str], DeletionIndex] = {}
        #: keys being built, each with the event its builder sets when done: a second
        #: caller waits for that build instead of building the same index beside it (the
        #: warm-up thread and every search thread built kaia-docs' English index at once,
        #: each past the search deadline)
        self._building: dict[tuple[str, str, str], threading.Event] = {}
        #: deletion indexes built so far (one per segment and language)
        self.built = 0

    def of(self, scope: str, reader: Any, fields: Sequence[str], language: str, *,
           wait_s: float | None = None, stop: Callable[[], bool] | None = None) -> list[DeletionIndex] | None:
        """The deletion indexes of ``reader``'s segments for ``language``, whose
        vocabulary is the union of ``fields``; ``scope`` names the index (segments of
        other indexes are kept apart). Indexes of this scope's segments no longer in the
        reader are dropped. ``wait_s``: how long (seconds) to wait for an index another
        thread is building; ``None`` when that build has not finished by then (a search
        goes on without typo correction rather than past its deadline), also when another
        thread's build of one of them failed twice. ``stop``: asked before each segment's
        index is built; once true, none more is built and the answer is ``None`` (a
        warm-up of a build replaced meanwhile)."""
        # An index without segments (nothing public yet) reads as one leaf with no
        # segment and no vocabulary.
        leaves = [leaf for leaf, _ in reader.leaf_readers() if leaf.segment() is not None]
        keys = [(scope, leaf.segment().segment_id(), language) for leaf in leaves]
        for _ in range(2):  # a second round only if another thread's build failed
            mine, theirs = [], []
            with self._lock:
                for key, leaf in zip(keys, leaves, strict=True):
                    if key in self._indexes:
                        continue
                    if key in self._building:
                        theirs.append(self._building[key])
                    else:
                        self._building[key] = threading.Event()
                        mine.append((key, leaf))
            for key, leaf in mine:
                try:
                    if stop is not None and stop():
                        continue  # the claim is released below; a later caller builds it
                    present = [field for field in fields if field in leaf.schema]
                    index = DeletionIndex(term for field in present for term in _decoded(leaf.lexicon(field)))
                    with self._lock:
                        self._indexes.setdefault(key, index)
                        self.built += 1
                finally:
                    with self._lock:
                        self._building.pop(key).set()
            if stop is not None and stop():
                return None
            for event in theirs:
                if not event.wait(wait_s):
                    return None
            with self._lock:
                if all(key in self._indexes for key in keys):
                    break
        with self._lock:
            if not all(key in self._indexes for key in keys):
                return None  # another thread's build failed twice: no typo correction this time
            found = [self._indexes[key] for key in keys]
            current = set(keys)
            # This index's segments gone (merged, or a rebuild swapped in): drop them. A
            # searcher still on an older generation rebuilds what it needs, rarely.
            for key in [k for k in self._indexes if k[0] == scope and k[2] == language and k not in current]:
                del self._indexes[key]
        return found
