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
import struct
import unicodedata
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from itertools import chain

import numpy as np

from .lookalike import DROPPED as _DROPPED  # the table fold() filters by: one, shared
from .lookalike import latin_skeleton

__all__ = ["MAX_PARAGRAPH_BAGS", "MIN_BAG_WORDS", "MIN_PARAGRAPH_WORDS", "MIN_SHINGLES", "NEAR_COPY_JACCARD",
           "SHINGLE_WORDS", "SKETCH_SIZE", "CopyGraph",
           "near_copies", "paragraph_bags", "similarity", "sketch", "word_bag"]

SHINGLE_WORDS = 3
SKETCH_SIZE = 64
MIN_SHINGLES = 8
#: Estimated Jaccard similarity from which a text counts as a copy of another.
NEAR_COPY_JACCARD = 0.35
#: Sketch values two texts must share before their similarity is estimated (a copy at the
#: threshold shares about 33 of 64).
_CANDIDATE_SHARED = 8

#: How many values of the pair's shared ones :class:`CopyGraph` finds in both sketches'
#: indexed prefixes at least (each prefix is this much longer than prefix filtering
#: needs: see :meth:`CopyGraph._prefix_of`); at most :data:`_CANDIDATE_SHARED`.
_PREFIX_SHARED = 3

#: Buckets of the table a target's values are looked up in (:func:`_scores`; a power of
#: two: a value's bucket is its low bits), and the mark of an empty one (no value).
_BUCKETS = 1 << 16
_EMPTY = -2
#: Candidates :class:`_SourceMatrix` scores first (the highest bounds).
_FIRST = 24

#: Keys whose neighbours :class:`CopyGraph` keeps (each a set of its near-copies).
_CACHED_KEYS = 20_000

_WORD = re.compile(r"[^\W_]+")
_SPLIT_SCRIPTS = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "THAI")


def _split(word: str) -> list[str]:
    """A word of a script written without spaces becomes one word per character."""
    if word.isascii():
        return [word]
    if any(unicodedata.name(ch, "").startswith(_SPLIT_SCRIPTS) for ch in word):
        return list(word)
    return [word]


def _fold(text: str) -> str:
    """:func:`~provider.wiki.lookalike.fold`, faster, then look-alike letters as the
    ASCII letter they imitate (:func:`~provider.wiki.lookalike.latin_skeleton`). ASCII
    text needs only case folding (normalisation leaves it alone and it has no ignorable
    code points or marks, nor look-alikes), and other text is filtered by
    ``str.translate`` instead of per character in Python."""
    if text.isascii():
        return text.casefold()
    # Look-alike letters read as the Latin letter they imitate, on both sides of every
    # comparison: "rеfund" with a Cyrillic е is a copy of "refund". Before normalising
    # too: NFKC turns some look-alikes into others (lunate ϲ into σ, listed as "o").
    skeleton = latin_skeleton()
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text.translate(skeleton))).translate(_DROPPED)
    return unicodedata.normalize("NFKC", text).casefold().translate(skeleton)


def words(text: str) -> list[str]:
    """The folded words of ``text`` (see the module docstring)."""
    if text.isascii():  # folding is case folding: no script written without spaces
        return _WORD.findall(text.casefold())
    # Folding never joins characters across white space (a space is a starter nothing
    # composes with, and folds to a non-word character), so the text's words are those of
    # its white-space-separated pieces, each folded once per process: the same pieces
    # recur from paragraph to page to page, and str.translate costs ~0.1 us a character.
    return list(chain.from_iterable(map(_piece_words, text.split())))


#: Invisible format characters (Unicode Cf: zero-width space, joiners, word joiner, soft
#: hyphen, byte order mark, bidi marks and isolates) and the Mongolian vowel separator.
_INVISIBLE = re.compile("[\u00ad\u034f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]+")
#: Letters a white-space-separated piece holds, invisibles dropped, beyond which it is no
#: word but words glued by invisibles (English's longest dictionary words are ~30 letters).
_LONGEST_WORD = 30


@lru_cache(maxsize=1 << 16)
def _piece_words(piece: str) -> tuple[str, ...]:
    if len(piece) > _LONGEST_WORD and _INVISIBLE.search(piece) is not None and len(
            _INVISIBLE.sub("", piece)) > _LONGEST_WORD:
        # Words glued by zero-width spaces instead of spaces (issue 24, C13): each
        # invisible is read as the word break it stands for, or the paragraph is one
        # "word" that matches nothing. Inside a word of ordinary length ("re\u00adfund",
        # "inter\u200bnal") it is dropped, as fold() drops it: the word a reader sees.
        return tuple(chain.from_iterable(_piece_words(part) for part in _INVISIBLE.sub(" ", piece).split()))
    folded = _fold(piece)
    if folded.isascii():
        return tuple(_WORD.findall(folded))
    return tuple(chain.from_iterable(_split(word) for word in _WORD.findall(folded)))


#: Words a text needs for a :func:`word_bag` (fewer: a stub, a heading).
MIN_BAG_WORDS = 4


def word_bag(text: str) -> str:
    """A digest of the *multiset* of ``text``'s folded words (:func:`words`), or ``""``
    under :data:`MIN_BAG_WORDS` words. Equal for a verbatim copy, however short (a page
    under the shingle floor has no :func:`sketch`), and for a copy with its words or
    sentences in another order (which breaks every shingle)."""
    found = words(text)
    if len(found) < MIN_BAG_WORDS:
        return ""
    return hashlib.blake2b(" ".join(sorted(found)).encode("utf-8"), digest_size=12).hexdigest()


#: Words a paragraph needs for a :func:`paragraph_bags` digest: fewer, and shared
#: boilerplate ties unrelated pages (at 12, two Microsoft Learn procedure sentences of 14
#: and 19 words demoted four public pages; measured on every corpus: see
#: docs/how-to/findings.md).
MIN_PARAGRAPH_WORDS = 20
#: Paragraph digests kept per document (the smallest, so the choice is stable).
MAX_PARAGRAPH_BAGS = 512


def _length(found: list[str]) -> float:
    """A paragraph's length in words: a character of a script written without spaces
    (one :func:`words` entry each) counts half — a Japanese or Chinese word is about two
    characters, and at one each a 20-character sentence was a "paragraph"."""
    if "".join(found).isascii():
        return len(found)
    split = sum(1 for word in found if len(word) == 1 and not word.isascii() and _half_word(word))
    return len(found) - split / 2


@lru_cache(maxsize=1 << 14)
def _half_word(character: str) -> bool:
    """Whether a one-character word is of a script written without spaces (it counts
    half in :func:`_length`); remembered: a page repeats its characters."""
    return unicodedata.name(character, "").startswith(_SPLIT_SCRIPTS)


def paragraph_bags(paragraphs: Iterable[str]) -> tuple[str, ...]:
    """Digests of the word multisets of each paragraph of at least
    :data:`MIN_PARAGRAPH_WORDS` words (:func:`_length`; 16 hex digits each, distinct, ascending, at most
    :data:`MAX_PARAGRAPH_BAGS`): a paragraph copied into a longer page, verbatim or with
    its words reordered, has the same digest there (CONTRACT X2, rule 6c)."""
    found: set[str] = set()
    for paragraph in paragraphs:
        folded = words(paragraph)
        if _length(folded) >= MIN_PARAGRAPH_WORDS:
            found.add(hashlib.blake2b(" ".join(sorted(folded)).encode("utf-8"), digest_size=8).hexdigest())
    return tuple(sorted(found)[:MAX_PARAGRAPH_BAGS])


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
    if len(encoded) % 8 == 0:  # as sketch() writes them: decoded in C (5x faster)
        return list(struct.unpack(f">{len(encoded) // 8}I", bytes.fromhex(encoded)))
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
    """The corpus's sketches, indexed so that one key's near-copies are found without
    comparing it with every sketch that shares a value with it.

    Whether two texts are near-copies depends only on their sketches, and a pair counts
    exactly when :func:`near_copies` would count it: they share at least
    :data:`_CANDIDATE_SHARED` values and their estimated similarity reaches the
    threshold. Comparing every pair that shares a value, as :func:`near_copies` does,
    costs the square of the documents sharing a value: phrases of boilerplate ("in this
    tutorial you will") sat in the sketches of 1,500 of 5,500 documents of the benchmark
    wiki and made the graph's first build the bulk of a 50,000-document build.

    So candidates are found by **prefix filtering** (the all-pairs similarity join's
    exact filter): a pair that counts shares at least *t* values, where *t* depends only
    on the sizes of the two sketches (:func:`_least_shared`: 23 of 64 at the threshold
    0.35); order all values by how many sketches hold them, rarest first; then the first
    value of the pair's shared ones in that order lies within the first ``len − t + 1``
    values of *each* sketch (at least ``t − 1`` shared values come after it), and its
    first *k* shared values within the first ``len − t + k``. Only those prefixes are
    indexed and probed (*k* = :data:`_PREFIX_SHARED`), so a value held by many sketches
    is looked up only by sketches made mostly of such values, and a candidate met fewer
    than *k* times is no near-copy. Every other candidate is then checked exactly (shared
    count, bound, similarity), so the answer equals :func:`near_copies`' on the same
    sketches — tested as a property on corpora of shared paragraphs and boilerplate
    (``tests/wiki/test_copy_graph.py``). Any fixed order is correct; the frequencies are
    taken when most of the graph is (re)built and kept until the next such rebuild (values
    first seen after it count as the rarest), so an update never re-indexes other keys.

    No pair is stored: :meth:`neighbours` finds one key's near-copies among all sketches
    (whatever their status: the incremental rules follow them when a status changes),
    and :meth:`near_copies` compares only targets with sources, the pairs rule 6 can act
    on — at 10,000 documents of the benchmark wiki 110,000 near-copy pairs, mostly
    between public documents that the rule leaves alone.

    Keys are the caller's (the corpus rules use a relative path, and the path and
    ``#internal`` for an internal section's sketch). Memory: per key a set of up to 64
    integers and about 44 index entries.
    """

    def __init__(self, threshold: float = NEAR_COPY_JACCARD) -> None:
        self.threshold = threshold
        self._encoded: dict[str, str] = {}
        self._values: dict[str, frozenset[int]] = {}
        self._sorted: dict[str, tuple[int, ...]] = {}
        self._prefix: dict[str, tuple[int, ...]] = {}
        self._index: dict[int, set[str]] = {}
        #: How many sketches held each value at the last rebuild (the order's key).
        self._held: dict[int, int] = {}
        #: Neighbours found so far, kept exact through updates (the relation is symmetric:
        #: a changed key only leaves its old neighbours' sets and joins its new ones').
        self._cache: dict[str, set[str]] = {}

    def __len__(self) -> int:
        return len(self._encoded)

    def sync(self, sketches: Mapping[str, str]) -> int:
        """Make the graph hold exactly ``sketches`` (key → hex sketch; empty ones are
        left out). Returns how many keys were added, changed or removed. When they are
        more than half of the keys, the index is rebuilt with fresh frequencies."""
        gone = [k for k in self._encoded if not sketches.get(k)]
        new = [(k, e) for k, e in sketches.items() if e and self._encoded.get(k) != e]
        changed = len(gone) + len(new)
        if changed * 2 > len(self._encoded):
            self._rebuild({k: e for k, e in sketches.items() if e})
            return changed
        for key in gone:
            self._remove(key)
        for key, encoded in new:
            self.set(key, encoded)
        return changed

    def update(self, key: str, encoded: str) -> bool:
        """Give one key this sketch (``""``: none) unless it has it already; returns
        whether anything changed."""
        if self._encoded.get(key, "") == encoded:
            return False
        self.set(key, encoded)
        return True

    def set(self, key: str, encoded: str) -> None:
        """Add or replace one key's sketch (``""``: remove it)."""
        if key in self._encoded:
            self._remove(key)
        if encoded:
            self._insert(key, encoded, frozenset(_values(encoded)))

    def _insert(self, key: str, encoded: str, values: frozenset[int], *, known: bool = False) -> None:
        ordered = tuple(sorted(values))
        prefix = self._prefix_of(ordered, known=known)
        self._encoded[key], self._values[key], self._sorted[key], self._prefix[key] = encoded, values, ordered, prefix
        self._index_prefix(key, prefix)
        index = self._index
        cache = self._cache
        if cache:
            found = cache[key] = {other for other, _ in self._pairs(key, index)}
            for other in found:
                kept = cache.get(other)
                if kept is not None:
                    kept.add(key)

    def _index_prefix(self, key: str, prefix: Iterable[int]) -> None:
        """Enter ``key`` in the prefix index under each value of its ``prefix``."""
        index = self._index
        for value in prefix:
            keys = index.get(value)
            if keys is None:
                index[value] = {key}
            else:
                keys.add(key)

    def _rebuild(self, sketches: Mapping[str, str]) -> None:
        self._encoded, self._values, self._sorted, self._prefix, self._index = {}, {}, {}, {}, {}
        self._cache.clear()
        decoded = {key: frozenset(_values(encoded)) for key, encoded in sketches.items()}
        self._held = dict(Counter(chain.from_iterable(decoded.values())))
        ordered = {key: tuple(sorted(values)) for key, values in decoded.items()}
        prefixes = self._prefixes(ordered)
        encoded_of, values_of, sorted_of, prefix_of = self._encoded, self._values, self._sorted, self._prefix
        for key, encoded in sketches.items():
            prefix = prefixes[key]
            encoded_of[key], values_of[key], sorted_of[key] = encoded, decoded[key], ordered[key]
            prefix_of[key] = prefix
            self._index_prefix(key, prefix)

    def _prefixes(self, ordered: Mapping[str, tuple[int, ...]]) -> dict[str, tuple[int, ...]]:
        """:meth:`_prefix_of` of every sketch (ascending values) at once, with a rebuild's
        counts (the sketches among these holding each value): each row sorted by
        (count, value) in one numpy sort — the order of the stable sort by count — instead
        of a Python sort with a key function per sketch (half of the graph's first build
        at 50,000 documents)."""
        keys = list(ordered)
        width = max((len(values) for values in ordered.values()), default=0)
        if not keys or not width:
            return {key: () for key in keys}
        pad = (-1,) * width
        flat = np.fromiter(chain.from_iterable((ordered[key] + pad)[:width] for key in keys), dtype=np.int64,
                           count=len(keys) * width)
        # How many sketches hold each value: ``held``'s counts (the rows are the same sets).
        real = flat >= 0
        _, inverse, held_counts = np.unique(flat[real], return_inverse=True, return_counts=True)
        counts = np.zeros(flat.size, dtype=np.int64)
        counts[real] = held_counts[inverse]
        # (count, value) as one integer: values are 32-bit; padding sorts last.
        order = np.where(real, (counts << 32) | flat, np.iinfo(np.int64).max)
        order = np.sort(order.reshape(len(keys), width), axis=1) & 0xFFFFFFFF
        lengths: dict[int, int] = {}
        found: dict[str, tuple[int, ...]] = {}
        for row, key in enumerate(keys):
            size = len(ordered[key])
            length = lengths.get(size)
            if length is None:
                least = _least_shared(size, self.threshold)
                length = lengths[size] = 0 if least > size else min(size, size - least + _PREFIX_SHARED)
            found[key] = tuple(order[row, :length].tolist())
        return found

    def _prefix_of(self, ordered: tuple[int, ...], *, known: bool = False) -> tuple[int, ...]:
        """The first values of a sketch (ascending) in the order rarest first, ties by
        value (a stable sort of the ascending values). A value not seen at the rebuild
        counts 0, and is not added: the frequencies stay as the rebuild took them
        (``known``: every value was seen).

        A sketch of ``n`` values that shares ``c >= t`` values with a near-copy
        (:func:`_least_shared`) has at most ``c - k`` of them after its ``k``-th shared
        value in the order, so the first ``k`` shared values lie within its first
        ``n - t + k`` values. The prefix is that long for ``k`` =
        :data:`_PREFIX_SHARED`: a near-copy then turns up at least that often among the
        keys indexed under a probing sketch's prefix (:meth:`_pairs`), and a key that
        shares one rare value by chance — most candidates on a wiki of random words,
        each compared exactly before — is dropped without being compared. Empty when
        no sketch can share ``t`` values with this one."""
        size = len(ordered)
        least = _least_shared(size, self.threshold)
        if least > size:
            return ()
        length = min(size, size - least + _PREFIX_SHARED)
        held = self._held
        return tuple(sorted(ordered, key=held.__getitem__ if known else lambda value: held.get(value, 0))[:length])

    def _remove(self, key: str) -> None:
        cache = self._cache
        if cache and key in self._values:
            for other in self.neighbours(key):
                kept = cache.get(other)
                if kept is not None:
                    kept.discard(key)
            cache.pop(key, None)
        self._encoded.pop(key, None)
        self._values.pop(key, None)
        self._sorted.pop(key, None)
        for value in self._prefix.pop(key, ()):
            keys = self._index.get(value)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._index[value]

    def _candidates(self, key: str, index: Mapping[int, Iterable[str]]) -> list[str]:
        """The keys of ``index`` (a prefix index) met at least :data:`_PREFIX_SHARED`
        times under ``key``'s prefix, ``key`` left out: every near-copy of ``key`` among
        them, and few others (see :meth:`_prefix_of`)."""
        prefix = self._prefix.get(key)
        if not prefix:
            return []
        get = index.get
        counts = Counter(chain.from_iterable([found for value in prefix if (found := get(value)) is not None]))
        counts.pop(key, None)
        return [other for other, count in counts.items() if count >= _PREFIX_SHARED]

    def _pairs(self, key: str, index: Mapping[int, Iterable[str]]) -> Iterator[tuple[str, float]]:
        """``key``'s near-copies among the keys of ``index`` (a prefix index)."""
        if key not in self._values:
            return
        values, ordered, threshold = self._values[key], self._sorted[key], self.threshold
        all_values, all_sorted = self._values, self._sorted
        for other in self._candidates(key, index):
            score = _pair_score(values, all_values[other], ordered, all_sorted[other], threshold)
            if score is not None:
                yield other, score

    def neighbours(self, key: str) -> Iterable[str]:
        """The keys whose sketch nearly copies ``key``'s (none for an unknown key; a
        read-only view until the next change). Found once, then kept up to date by each
        change; past :data:`_CACHED_KEYS` keys the kept ones are dropped (found again when
        asked)."""
        found = self._cache.get(key)
        if found is None:
            if key not in self._values:
                return ()
            if len(self._cache) >= _CACHED_KEYS:
                self._cache.clear()
            found = self._cache[key] = {other for other, _ in self._pairs(key, self._index)}
        return found

    def _source_index(self, sources: Iterable[str]) -> dict[int, list[str]]:
        index: dict[int, list[str]] = defaultdict(list)
        for source in sources:
            for value in self._prefix.get(source, ()):
                index[value].append(source)
        return index

    def closest(self, targets: Iterable[str], sources: Iterable[str],
                groups: Mapping[str, str] | None = None) -> dict[str, tuple[str, float]]:
        """For each target, the first pair of :meth:`near_copies`' list (most similar
        source, ties by the least key) whose source is not in the target's group
        (``groups``: a label for every target and source; none: no group is skipped):
        ``{target: (source, similarity)}`` for targets with one. What rule 6 asks (it acts
        on the closest source only).

        Every candidate is scored exactly, with numpy, one target at a time: the sources'
        sketches are one matrix for the call (:class:`_SourceMatrix`), and a target's
        candidates' shared values, bounds and similarities are a few array operations
        over their rows (:func:`_scores`: the same integers, and the same float
        divisions, as :func:`_pair_score`). In the clusters of shared boilerplate of the
        50,000-document tutorial wiki a public document has ~195 candidates, ~160 of them
        near-copies: scoring them one by one in Python was ~120 s of the first sync
        after a start."""
        matrix = _SourceMatrix(self, sources, groups)
        found: dict[str, tuple[str, float]] = {}
        if not matrix.keys:
            return found
        for key in targets:
            hit = matrix.closest(self, key, groups)
            if hit is not None:
                found[key] = hit
        return found

    def near_copies(self, targets: Iterable[str], sources: Iterable[str]) -> dict[str, list[tuple[str, float]]]:
        """Like :func:`near_copies` for keys already in the graph: ``{target: [(source,
        similarity), ...]}``, most similar first, for targets with at least one copy among
        ``sources`` (a key is never paired with itself). Only target–source pairs are
        compared: the sources' prefixes are indexed for the call."""
        index = self._source_index(sources)
        found: dict[str, list[tuple[str, float]]] = {}
        if not index:
            return found
        for key in targets:
            hits = sorted(self._pairs(key, index), key=lambda p: (-p[1], p[0]))
            if hits:
                found[key] = hits
        return found


def _least_shared(size: int, threshold: float) -> int:
    """The fewest values a sketch of ``size`` values shares with any sketch it nearly
    copies: at least :data:`_CANDIDATE_SHARED`, and ``c`` shared values give at most
    ``c / min(SKETCH_SIZE, size)`` (see :func:`_pair_score`). ``size + 1`` when none
    can."""
    bottom = min(SKETCH_SIZE, size)
    for shared in range(_CANDIDATE_SHARED, size + 1):
        if shared / bottom >= threshold:
            return shared
    return size + 1


def _pair_score(first: frozenset[int], second: frozenset[int], first_sorted: tuple[int, ...],
                second_sorted: tuple[int, ...], threshold: float) -> float | None:
    """The similarity of two sketches (as sets and as ascending tuples) when they count as
    near-copies (as in :func:`near_copies`), else ``None``; the same float as
    :func:`similarity`.

    With ``c`` shared values, the similarity's numerator (shared values among the
    :data:`SKETCH_SIZE` smallest of the union) is at most ``c`` and its denominator is
    ``min(SKETCH_SIZE, |union|)``, so a pair whose ``c`` over that denominator is below
    the threshold is dropped at once (exact: the same float division, monotonic in the
    numerator). Otherwise the numerator counts the shared values whose rank in the union
    — values of each sketch up to it (``bisect``), less the shared ones counted twice —
    is at most :data:`SKETCH_SIZE`: a binary search over the shared values instead of
    sorting the union."""
    shared = first & second
    count = len(shared)
    if count < _CANDIDATE_SHARED:
        return None
    union = len(first) + len(second) - count
    bottom = min(SKETCH_SIZE, union)
    if count / bottom < threshold:
        return None
    if union <= SKETCH_SIZE:
        return count / bottom
    ordered = sorted(shared)
    top = ordered[-1]
    if bisect_right(first_sorted, top) + bisect_right(second_sorted, top) - count <= SKETCH_SIZE:
        kept = count
    else:  # the number of shared values of rank <= SKETCH_SIZE (the rank grows with the value)
        low, high = 0, count - 1
        while low < high:
            middle = (low + high) // 2
            value = ordered[middle]
            if bisect_right(first_sorted, value) + bisect_right(second_sorted, value) - middle - 1 <= SKETCH_SIZE:
                low = middle + 1
            else:
                high = middle
        kept = low
    score = kept / bottom
    return score if score >= threshold else None


class _SourceMatrix:
    """The sources of one :meth:`CopyGraph.closest` call as arrays: each source's sketch
    values a row of ``values`` (ascending, padded with ``-1``, which no value equals),
    its size, the rank of its key in key order, its group's number, and the prefix
    index (value → the rows whose prefix holds it)."""

    def __init__(self, graph: CopyGraph, sources: Iterable[str], groups: Mapping[str, str] | None) -> None:
        known = graph._sorted
        self.keys = keys = [key for key in dict.fromkeys(sources) if key in known and graph._prefix.get(key)]
        self.row_of = {key: row for row, key in enumerate(keys)}
        width = max((len(known[key]) for key in keys), default=0)
        pad = (-1,) * width
        flat = chain.from_iterable((known[key] + pad)[:width] for key in keys)
        self.values = np.fromiter(flat, dtype=np.int64, count=len(keys) * width).reshape(len(keys), width)
        self.buckets = (self.values & _BUCKETS - 1).astype(np.intp)
        self.sizes = np.fromiter((len(known[key]) for key in keys), dtype=np.int64, count=len(keys))
        self.ranks = np.empty(len(keys), dtype=np.int64)
        self.ranks[sorted(range(len(keys)), key=keys.__getitem__)] = np.arange(len(keys))
        self.group_ids: dict[str, int] = {}
        if groups is not None:
            ids = self.group_ids
            self.groups = np.fromiter((ids.setdefault(groups[key], len(ids)) for key in keys), dtype=np.int64,
                                      count=len(keys))
        # The prefix index: (value, row) pairs sorted by value, cut where the value changes.
        prefixes = graph._prefix
        lengths = np.fromiter((len(prefixes[key]) for key in keys), dtype=np.int64, count=len(keys))
        held = np.fromiter(chain.from_iterable(prefixes[key] for key in keys), dtype=np.int64,
                           count=int(lengths.sum()))
        order = np.argsort(held, kind="stable")
        held, owners = held[order], np.repeat(np.arange(len(keys), dtype=np.int64), lengths)[order]
        cuts = np.flatnonzero(held[1:] != held[:-1]) + 1
        starts = np.concatenate(([0], cuts)) if held.size else cuts
        #: The prefix index: for each value of ``indexed`` (ascending), the rows of the
        #: sources whose prefix holds it are ``owners[starts[i] : ends[i]]``.
        self.indexed, self.owners, self.starts = held[starts], owners, starts
        self.ends = np.concatenate((cuts, [held.size])) if held.size else cuts
        self.columns = np.arange(1, width + 1, dtype=np.int64)
        #: A target's values by their low bits, and their positions (see :func:`_scores`).
        self.table = np.full(_BUCKETS, _EMPTY, dtype=np.int64)
        self.positions = np.zeros(_BUCKETS, dtype=np.int64)

    def closest(self, graph: CopyGraph, key: str, groups: Mapping[str, str] | None) -> tuple[str, float] | None:
        """``key``'s most similar near-copy among the sources (ties by the least key),
        outside its group, or ``None`` (see :meth:`CopyGraph.closest`)."""
        ordered, prefix = graph._sorted.get(key), graph._prefix.get(key)
        if ordered is None or not prefix:
            return None
        probe = np.array(prefix, dtype=np.int64)
        at = np.minimum(np.searchsorted(self.indexed, probe), len(self.indexed) - 1)
        at = at[self.indexed[at] == probe]
        if len(at) < _PREFIX_SHARED:
            return None
        # Rows met at least _PREFIX_SHARED times under the prefix: every near-copy among
        # them (see CopyGraph._prefix_of), as CopyGraph._candidates finds them. The
        # owners' ranges of the values met, concatenated without a loop.
        starts, lengths = self.starts[at], self.ends[at] - self.starts[at]
        spans = np.arange(int(lengths.sum())) + np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
        counts = np.bincount(self.owners[spans], minlength=len(self.keys))
        own = self.row_of.get(key)
        if own is not None:
            counts[own] = 0
        rows = np.flatnonzero(counts >= _PREFIX_SHARED)
        label = groups.get(key) if groups is not None else None
        if label is not None and rows.size:
            group = self.group_ids.get(label)
            if group is not None:
                rows = rows[self.groups[rows] != group]
        if not rows.size:
            return None
        target = np.array(ordered, dtype=np.int64)
        buckets = target & _BUCKETS - 1
        table = self.table
        table[buckets] = target
        try:
            if np.count_nonzero(table[buckets] == target) == len(target):  # no two values in one bucket
                self.positions[buckets] = np.arange(len(target))
                row_buckets = self.buckets[rows]
                hits = table[row_buckets] == self.values[rows]
                at = self.positions[row_buckets]
            else:
                values = self.values[rows]
                at = np.searchsorted(target, values)
                hits = target[np.minimum(at, len(target) - 1)] == values
        finally:
            table[buckets] = _EMPTY
        # The bound of _pair_score (the same float divisions), then the similarity of the
        # candidates best-first by it: first the _FIRST highest, then only those of the
        # others whose bound reaches the best similarity found (a lower one can neither
        # beat nor tie it). Most candidates of a boilerplate cluster are near-copies of
        # about the same bound; ~28 of ~160 were scored one by one before.
        count = np.count_nonzero(hits, axis=1)
        bottom = np.minimum(SKETCH_SIZE, len(target) + self.sizes[rows] - count)
        bound = count / bottom
        threshold = graph.threshold
        order = np.flatnonzero((count >= _CANDIDATE_SHARED) & (bound >= threshold))
        if not order.size:
            return None
        order = order[np.argsort(-bound[order], kind="stable")]
        scored, scores = order[:_FIRST], _scores(hits, at, bottom, order[:_FIRST], self.columns, threshold)
        rest = order[_FIRST:]
        if rest.size:
            best = scores.max()
            if best >= 0.0:
                rest = rest[bound[rest] >= best]
            if rest.size:
                scored = np.concatenate((scored, rest))
                scores = np.concatenate((scores, _scores(hits, at, bottom, rest, self.columns, threshold)))
        best = scores.max()
        if best < 0.0:
            return None
        tied = rows[scored[scores == best]]
        row = int(tied[np.argmin(self.ranks[tied])])
        return self.keys[row], float(best)


def _scores(hits: np.ndarray, at: np.ndarray, bottom: np.ndarray, which: np.ndarray, columns: np.ndarray,
            threshold: float) -> np.ndarray:
    """The similarity of a target sketch with the candidates ``which`` (indexes into the
    arrays) where at least the threshold, else ``-1.0``: for pairs that pass
    :func:`_pair_score`'s bound, what it returns (``None`` as ``-1.0``), the same floats.

    ``hits[i, j]``: whether the target holds candidate ``i``'s ``j``-th smallest value
    (candidates' values ascending, padded at the end); ``at[i, j]``: then its position
    in the target (else anything); ``bottom``: the similarity's denominator. A shared
    value's rank in the union of the two sketches is the values of each sketch up to it
    less the shared ones counted twice; the numerator counts the shared values of rank at
    most :data:`SKETCH_SIZE` (the similarity's "shared among the smallest of the union")."""
    shared = hits[which]
    rank = at[which] + 1 + columns - np.cumsum(shared, axis=1)
    kept = np.count_nonzero(shared & (rank <= SKETCH_SIZE), axis=1)
    score = kept / bottom[which]
    return np.where(score >= threshold, score, -1.0)
