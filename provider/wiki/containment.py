"""Rule 6d — internal text contained in a public page (CONTRACT X2, X5).

Rules 6–6c see a copy whose *whole* text matches (near-copy sketch, same words) or a
copied paragraph of at least :data:`~provider.wiki.copies.MIN_PARAGRAPH_WORDS` words with
exactly the same words. This rule finds an internal text inside a public page however it
was carried over: pasted into a longer paragraph, with words changed or reordered, split
into list items spread over the page, split across several pages, a phone number written
another way — and tells it apart from template wording an internal page shares with the
site.

* **Terms.** A block's text is folded as every copy rule folds it (NFKC, case, look-alike
  letters; :func:`provider.wiki.copies.words`) after numbers and identifiers are written
  one way (:func:`terms`: ``555-0199``, ``555 0199`` and ``5550199`` are one term, as are
  ``GW-7731`` and ``GW7731``). Each block stores its **shingles** (runs of
  :data:`SHINGLE_WORDS` terms: order) and its **words** (single terms: order-free), as
  32-bit CRC values (:func:`block_shingles`).
* **Distinctive content.** A value (shingle or word) held by more than
  :func:`common_limit` documents of the corpus (any status: at least
  :data:`COMMON_MIN_DOCS`, and :data:`COMMON_SHARE` of the documents) is **common**:
  template wording ("Sign in to the Microsoft 365 admin center"), which matches nothing.
  Only the other values — *distinctive* ones — count as evidence (:class:`Rarity`).
  Pasting an internal note into a handful of pages leaves it distinctive: it takes more
  than ``common_limit`` pages carrying the same words (the residual attack: see
  docs/reference/corpus-rules.md).
* **Units** (what can be contained): each block of an internal text with at least
  :data:`MIN_UNIT_SHINGLES` shingles (6 words; 14 characters in a script written
  without spaces), and the whole of a short internal text of several blocks (at most
  :data:`SHORT_TEXT_SHINGLES` shingles).
* **A unit is contained** in a public page (:func:`contained`) when its distinctive
  content is there: (a) *wording* — at least half its shingles are distinctive, the
  page holds :data:`CONTAINED_SHARE` of those (and at least :data:`MIN_DISTINCT_SHINGLES`)
  and one of its distinctive words (a run of common words — "select Save, then sign in
  again" — is site wording even where that run itself is rare): a verbatim or lightly
  edited copy, from 6 words; or (b) *words* — it has at least
  :data:`MIN_DISTINCT_WORDS` distinctive words and the page holds :data:`WORD_SHARE` of
  them, in any order and anywhere on the page: words changed or reordered, a list spread
  over the page; or (c) *parts* — several pages each hold a run of it
  (:data:`PART_SHINGLES` distinctive shingles and :data:`PART_WORDS` distinctive words),
  and together :data:`WORD_SHARE` of its distinctive words: a note split across pages
  taints every page holding a part.

The relation between a source and a page holding one of its distinctive values does not
depend on their status: :class:`ContainmentIndex` keeps it for the incremental rules
(:mod:`provider.wiki.incremental`); a value that becomes common or distinctive, or another
``common_limit``, makes them derive the corpus again.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import struct
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from .audience import PUBLIC
from .copies import _length, words
from .model import DocumentMeta

__all__ = [
    "COMMON_MIN_DOCS",
    "COMMON_SHARE",
    "CONTAINED_SHARE",
    "MIN_DISTINCT_SHINGLES",
    "MIN_DISTINCT_WORDS",
    "MIN_UNIT_SHINGLES",
    "PART_SHINGLES",
    "PART_WORDS",
    "SHINGLE_WORDS",
    "SHORT_TEXT_SHINGLES",
    "WORD_SHARE",
    "ContainmentIndex",
    "Rarity",
    "Unit",
    "block_shingles",
    "common_limit",
    "contained",
    "decode",
    "decode_words",
    "held",
    "part",
    "parts_cover",
    "public_set",
    "rarity",
    "source_capable",
    "terms",
    "units",
]

#: Terms a shingle holds.
SHINGLE_WORDS = 3
#: Shingles a block needs to be a unit (6 words): "Use override code GW-7731 for VIP."
#: is one; "See the admin guide", "Contact support if problems persist." are not.
MIN_UNIT_SHINGLES = 4
#: The share of a unit's distinctive shingles a page must hold (wording path). At 3 terms
#: a shingle, a changed word costs up to 3 of them: the words path takes edited copies.
CONTAINED_SHARE = 0.8
#: Distinctive shingles a page must hold at least (wording path).
MIN_DISTINCT_SHINGLES = 3
#: Distinctive words a unit needs for the words path, and the share a page must hold:
#: 3 words changed in a 10-word note keep 7 of 10.
MIN_DISTINCT_WORDS = 7
WORD_SHARE = 0.7
#: What a page must hold of a unit to count as carrying a part of it (parts path): a run
#: of 4 distinctive terms and 3 distinctive words.
PART_SHINGLES = 2
PART_WORDS = 3
#: A text (or its internal sections) of several blocks and at most this many shingles is
#: also a unit as a whole: two short lines copied together.
SHORT_TEXT_SHINGLES = 64
#: Documents that may hold a value while it is still distinctive: at least this many…
COMMON_MIN_DOCS = 12
#: … and this share of the corpus's documents (0.5 %: 13 of Microsoft Learn's 2,448).
COMMON_SHARE = 0.005

#: Marks a block of a script written without spaces (:func:`block_shingles`).
_SPLIT = "h:"
#: Separates a block's shingles from its words in a stored entry.
_WORDS = "|"
#: Numbers written with separators ("555-0199", "555 0199", "(555) 0199", "1.234.567"):
#: the separators go, so every spelling is one term.
_NUMBER_GAP = re.compile(r"(?<=\d)[\s.\-\u2010-\u2015/()]+(?=\d)")
_DIGIT = re.compile(r"\d")
#: An identifier's hyphen or underscore between letters and digits ("GW-7731", "esc_42").
_CODE_GAP = re.compile(r"(?<=[^\W\d_])[-_](?=\d)|(?<=\d)[-_](?=[^\W\d_])")


def terms(text: str) -> list[str]:
    """The folded words of ``text`` (:func:`provider.wiki.copies.words`) with numbers and
    identifiers written one way (see the module docstring)."""
    if _DIGIT.search(text) is None:  # both patterns need a digit: most prose has none
        return words(text)
    return words(_CODE_GAP.sub("", _NUMBER_GAP.sub("", text)))


def _pack(values: list[int]) -> str:
    return base64.b64encode(struct.pack(f">{len(values)}I", *values)).decode("ascii")


def block_shingles(blocks: Iterable[str]) -> tuple[str, ...]:
    """Each block's shingles and words (blocks with no shingle left out), encoded: base64
    of the ascending distinct 32-bit CRC-32 values of its shingles, ``|``, the same of its
    words (another CRC seed: a word never reads as a shingle); after ``h:`` when the
    block is written in a script without spaces (each character one term: such a unit
    needs twice the shingles, as a Japanese or Chinese word is about two characters).
    Order of the blocks kept."""
    out = []
    crc = zlib.crc32
    for text in blocks:
        found = terms(text)
        if len(found) < SHINGLE_WORDS:
            continue
        # SHINGLE_WORDS terms a run, spelled out: a generator of joins cost twice as much.
        runs = zip(found, found[1:], found[2:], strict=False)
        shingles = sorted({crc(f"{a} {b} {c}".encode()) for a, b, c in runs})
        encoded = _pack(shingles) + _WORDS + _pack(sorted({crc(word.encode(), 1) for word in set(found)}))
        out.append(_SPLIT + encoded if _length(found) < len(found) else encoded)
    return tuple(out)


def _unpack(raw: str) -> tuple[int, ...]:
    data = binascii.a2b_base64(raw)  # what base64.b64decode calls, without its checks of the argument
    return struct.unpack(f">{len(data) // 4}I", data)


def decode(encoded: str) -> tuple[int, ...]:
    """The shingle values of one :func:`block_shingles` entry, ascending."""
    return _unpack(encoded.removeprefix(_SPLIT).partition(_WORDS)[0])


def decode_words(encoded: str) -> tuple[int, ...]:
    """The word values of one :func:`block_shingles` entry, ascending."""
    return _unpack(encoded.partition(_WORDS)[2])


def common_limit(documents: int) -> int:
    """The most documents a value may be held by while it is distinctive, in a corpus of
    ``documents``: :data:`COMMON_MIN_DOCS`, or :data:`COMMON_SHARE` of them if more."""
    return max(COMMON_MIN_DOCS, math.ceil(COMMON_SHARE * documents))


@dataclass(frozen=True)
class Unit:
    """One internal text that can be contained: its shingle and word values."""

    shingles: frozenset[int]
    words: frozenset[int]
    #: Written without spaces (each character a term): single characters are no
    #: evidence, so only the wording path applies.
    split: bool = False

    def values(self) -> frozenset[int]:
        return self.shingles | self.words


def _floor(split: bool) -> int:
    """Shingles a unit needs: :data:`MIN_UNIT_SHINGLES`, or 12 (14 characters) in a
    script written without spaces (at 8 characters, glossary terms of the kaia archive
    scenario demoted ~60 translated pages)."""
    return 12 if split else MIN_UNIT_SHINGLES


def _units_of(blocks: tuple[str, ...]) -> list[Unit]:
    decoded = [(frozenset(decode(b)), frozenset(decode_words(b)), b.startswith(_SPLIT)) for b in blocks]
    found = [Unit(s, w, split) for s, w, split in decoded if len(s) >= _floor(split)]
    if len(decoded) > 1:
        shingles = frozenset().union(*(s for s, _, _ in decoded))
        split = any(split for _, _, split in decoded)
        words_ = frozenset().union(*(w for _, w, _ in decoded))
        # A list of short items has few shingles (none across items) but its words: a
        # unit from 6 distinct words, as a block is from 6 words.
        if (_floor(split) <= len(shingles) or (not split and len(words_) >= MIN_UNIT_SHINGLES + 2)) \
                and len(shingles) <= SHORT_TEXT_SHINGLES * (2 if split else 1):
            found.append(Unit(shingles, words_, split))
    return list(dict.fromkeys(found))


def source_capable(meta: DocumentMeta) -> bool:
    """Whether the document's own metadata can make it a source of rule 6d: internal by
    its front matter or the operator's audience rules, withheld by its own publication
    keys or path, quarantined, or holding internal sections. A document public by its
    metadata but internal by a corpus rule (a Hugo section's cascade) is no source: every
    document being one related most of a corpus to itself through shared code blocks, so
    that a one-file edit derived every document again."""
    return meta.audience != PUBLIC or meta.draft or bool(meta.errors) or bool(meta.internal_block_shingles)


def units(meta: DocumentMeta) -> tuple[list[Unit], list[Unit]]:
    """``(whole, internal)``: the units of the document's whole text (a source when the
    document is internal or withheld) and of its internal sections (always a source);
    none for a document that is not :func:`source_capable`."""
    if not source_capable(meta):
        return [], []
    internal = _units_of(meta.internal_block_shingles)
    whole = _units_of(meta.block_shingles + meta.internal_block_shingles) if meta.internal_block_shingles \
        else _units_of(meta.block_shingles)
    return whole, internal


def _values_of(entries: tuple[str, ...]) -> set[int]:
    found: set[int] = set()
    for entry in entries:
        shingles, _, words_ = entry.removeprefix(_SPLIT).partition(_WORDS)
        found.update(_unpack(shingles))
        found.update(_unpack(words_))
    return found


def public_set(meta: DocumentMeta) -> frozenset[int]:
    """The shingle and word values of the document's public blocks (what a page holds)."""
    return frozenset(_values_of(meta.block_shingles))


def _all_values(meta: DocumentMeta, page: frozenset[int] | None = None) -> set[int]:
    """Every shingle and word value of the document, internal sections included (what
    the document frequency counts); ``page``: its :func:`public_set` if known."""
    found = _values_of(meta.internal_block_shingles)
    found |= public_set(meta) if page is None else page
    return found


def _source_values(meta: DocumentMeta) -> set[int]:
    whole, internal = units(meta)
    return {value for unit in (*whole, *internal) for value in unit.values()}


@dataclass
class Rarity:
    """Which values of source units are common (held by more than ``limit`` documents).

    Attributes:
        limit: :func:`common_limit` of the corpus's size.
        common: the common values among those of source units.
    """

    limit: int
    common: frozenset[int] = field(default_factory=frozenset)
    _seen: dict[Unit, tuple[frozenset[int], frozenset[int]]] = field(default_factory=dict, repr=False,
                                                                     compare=False)

    def distinctive(self, unit: Unit) -> tuple[frozenset[int], frozenset[int]]:
        """``(shingles, words)`` of ``unit`` that are not common."""
        found = self._seen.get(unit)
        if found is None:
            found = self._seen[unit] = (unit.shingles - self.common, unit.words - self.common)
        return found


def rarity(docs: Mapping[str, DocumentMeta], pages: Mapping[str, frozenset[int]] | None = None) -> Rarity:
    """The :class:`Rarity` of a whole corpus: each source unit value's document frequency
    over every document (any status). ``pages``: documents' :func:`public_set` already
    decoded."""
    wanted: set[int] = set()
    for meta in docs.values():
        wanted |= _source_values(meta)
    counts: Counter[int] = Counter()
    if wanted:
        known = pages or {}
        for relpath, meta in docs.items():
            counts.update(_all_values(meta, known.get(relpath)) & wanted)
    limit = common_limit(len(docs))
    return Rarity(limit, frozenset(value for value, count in counts.items() if count > limit))


def held(unit: Unit, page: frozenset[int] | set[int], rare: Rarity) -> tuple[int, int]:
    """``(distinctive shingles, distinctive words)`` of ``unit`` that ``page`` holds."""
    shingles, words_ = rare.distinctive(unit)
    return len(shingles & page), len(words_ & page)


def contained(unit: Unit, page: frozenset[int] | set[int], rare: Rarity) -> bool:
    """Whether ``page`` (a document's :func:`public_set`) contains ``unit`` by the wording
    or the words path (see the module docstring)."""
    shingles, words_ = rare.distinctive(unit)
    if (2 * len(shingles) >= len(unit.shingles) and len(shingles) >= MIN_DISTINCT_SHINGLES
            and (unit.split or not words_.isdisjoint(page))
            and len(shingles & page) >= max(MIN_DISTINCT_SHINGLES,
                                            math.ceil(CONTAINED_SHARE * len(shingles) - 1e-9))):
        return True
    # At least MIN_DISTINCT_WORDS held, not only the share: 5 English terms of a 7-term
    # glossary block scattered over a Korean FAQ are no copy of it.
    return not unit.split and len(words_) >= MIN_DISTINCT_WORDS and \
        len(words_ & page) >= max(MIN_DISTINCT_WORDS, math.ceil(WORD_SHARE * len(words_) - 1e-9))


def part(unit: Unit, page: frozenset[int] | set[int], rare: Rarity) -> frozenset[int]:
    """The distinctive words of ``unit`` that ``page`` holds when it carries a part of it
    (:data:`PART_SHINGLES` distinctive shingles and :data:`PART_WORDS` distinctive words),
    else nothing."""
    shingles, words_ = rare.distinctive(unit)
    mine = words_ & page
    if not unit.split and len(mine) >= PART_WORDS and len(shingles & page) >= PART_SHINGLES:
        return mine
    return frozenset()


def parts_cover(unit: Unit, parts: Iterable[frozenset[int]], rare: Rarity) -> bool:
    """Whether pages' :func:`part` of ``unit`` together hold :data:`WORD_SHARE` of its
    distinctive words (and :data:`MIN_DISTINCT_WORDS`)."""
    words_ = rare.distinctive(unit)[1]
    together = frozenset().union(*parts)
    return len(words_) >= MIN_DISTINCT_WORDS and len(together) >= math.ceil(WORD_SHARE * len(words_) - 1e-9)


class ContainmentIndex:
    """Which documents hold a distinctive value of a source-capable document's units
    (:func:`source_capable`), whatever their status: the relation rule 6d reads, kept for
    :mod:`provider.wiki.incremental` (documents related here are each other's inputs),
    with the document frequency of every source unit value (the :class:`Rarity`).

    A value held by more than ``limit`` documents is common and relates nothing, so a
    value relates at most ``limit + 1`` documents. A source's containers are found by
    reading every document's stored values (``docs``): done only for a document with
    units (an internal page, a draft, a page with internal sections).
    """

    def __init__(self) -> None:
        self._units: dict[str, list[Unit]] = {}
        self._by_value: dict[int, set[str]] = defaultdict(set)
        #: How many source units' entries hold each value (a value leaves at 0).
        self._wanted: Counter[int] = Counter()
        #: The document frequency of every wanted value.
        self._df: Counter[int] = Counter()
        self.rarity = Rarity(COMMON_MIN_DOCS)

    def clear(self) -> None:
        """Forget every document."""
        self._units.clear()
        self._by_value.clear()
        self._wanted.clear()
        self._df.clear()
        self.rarity = Rarity(COMMON_MIN_DOCS)

    def rebuild(self, docs: Mapping[str, DocumentMeta]) -> None:
        """Index every document of ``docs`` (the whole corpus) afresh."""
        self.clear()
        for key, meta in docs.items():
            found = [*dict.fromkeys(u for part_ in units(meta) for u in part_)]
            if found:
                self._units[key] = found
                self._wanted.update(v for u in found for v in u.values())
        for meta in docs.values():
            self._df.update(_all_values(meta) & self._wanted.keys())
        self.rarity = self._rarity(len(docs))
        self._reindex()

    def _rarity(self, documents: int) -> Rarity:
        limit = common_limit(documents)
        return Rarity(limit, frozenset(v for v, n in self._df.items() if n > limit))

    def _reindex(self) -> None:
        self._by_value.clear()
        for key, found in self._units.items():
            self._index(key, found)

    def _index(self, key: str, found: list[Unit]) -> None:
        common = self.rarity.common
        for unit in found:
            for value in unit.values():
                if value not in common:
                    self._by_value[value].add(key)

    def update(self, changes: Mapping[str, tuple[DocumentMeta | None, DocumentMeta | None]],
               docs: Mapping[str, DocumentMeta]) -> bool:
        """Bring the index to ``docs`` (the whole corpus after the change) for the changed
        keys (``{key: (old meta, new meta)}``). Returns whether the :class:`Rarity` stayed
        the same for every value that was and still is a source unit's (else the caller
        derives everything again: a value that became common or distinctive changes
        decisions no relation follows)."""
        before = self.rarity
        added: set[int] = set()
        for key, (old, new) in changes.items():
            if old is not None:
                self._df.subtract(_all_values(old) & self._wanted.keys())
            for unit in self._units.pop(key, ()):
                for value in unit.values():
                    self._by_value.get(value, set()).discard(key)
                    self._wanted[value] -= 1
            if new is not None:
                found = [*dict.fromkeys(u for part_ in units(new) for u in part_)]
                if found:
                    self._units[key] = found
                    for value in {v for u in found for v in u.values()}:
                        if self._wanted[value] <= 0:
                            added.add(value)
                    self._wanted.update(v for u in found for v in u.values())
        for value in [v for v, n in self._wanted.items() if n <= 0]:
            del self._wanted[value]
            self._df.pop(value, None)
            added.discard(value)
        self._by_value = defaultdict(set, {v: k for v, k in self._by_value.items() if k})
        for _, new in changes.values():
            if new is not None:
                self._df.update(_all_values(new) & (self._wanted.keys() - added))
        if added:  # values new to the sources: counted over the whole corpus
            for value in added:
                self._df[value] = 0
            for meta in docs.values():
                self._df.update(_all_values(meta) & added)
        self.rarity = self._rarity(len(docs))
        flipped = ((before.common ^ self.rarity.common) & self._wanted.keys()) - added
        if before.limit != self.rarity.limit or flipped:
            self._reindex()
            return False
        for key, (_, new) in changes.items():
            if new is not None and key in self._units:
                self._index(key, self._units[key])
        return True

    def related(self, key: str, meta: DocumentMeta, docs: Mapping[str, DocumentMeta]) -> Iterator[str]:
        """The source-capable documents one of whose distinctive values ``key`` (its
        ``meta``) holds, and, when ``key`` has units, the documents of ``docs`` holding
        one of its distinctive values."""
        page = public_set(meta) if meta.block_shingles else frozenset()
        get = self._by_value.get
        found: set[str] = set()
        for value in page:
            sources = get(value)
            if sources:
                found |= sources
        found.discard(key)
        yield from found
        mine = self._units.get(key)
        if not mine:
            return
        common = self.rarity.common
        probes = {v for u in mine for v in u.values()} - common
        for other, other_meta in docs.items():
            if other != key and other_meta.block_shingles and not probes.isdisjoint(public_set(other_meta)):
                yield other
