"""Rule 6d — internal text contained in a public page (CONTRACT X2, X5).

Rules 6–6c see a copy whose *whole* text matches (near-copy sketch, same words) or a
copied paragraph of at least :data:`~provider.wiki.copies.MIN_PARAGRAPH_WORDS` words with
exactly the same words. They miss a short internal text (an escalation code in one
sentence) pasted inside a longer public paragraph, and a copied paragraph with one word
edited or split in two. This rule measures **containment**: the share of an internal
text's word shingles (:data:`SHINGLE_WORDS` consecutive words, folded as every copy rule
folds them: NFKC, case, look-alike letters; :func:`provider.wiki.copies.words`) that one
public document holds.

* **Units** (what can be contained): each block of a document (paragraph, list item,
  table, heading) with at least :data:`MIN_UNIT_SHINGLES` shingles, and the whole text of
  a short document (or of its internal sections) when it holds more than one block and at
  most :data:`SHORT_TEXT_SHINGLES` shingles. Under the floor (a title, "Coming soon",
  "See the admin guide") a text is too common to taint anything.
* **A unit is contained** in a document when the document's public blocks hold at least
  :data:`CONTAINED_SHARE` (0.8) of the unit's shingles, and at least
  :data:`MIN_UNIT_SHINGLES` of them (:func:`contains`). At 3 words a shingle, a one-word
  edit costs at most 3 shingles and a split 2: a verbatim copy counts from 8 words, a
  split one from 12, one with a word edited or dropped from 17 (rule 6c already holds a
  20-word paragraph with its words reordered).
* **Shared wording is no secret**: a unit that more than :data:`MAX_CONTAINERS` other
  documents contain (:data:`SHARED_SHARE`) taints none of them.
* **Sources** are as for rule 6c: the units of an internal (meant) or withheld document,
  and the units of any document's internal sections. A public document containing one,
  outside its translation group, inherits its status (:func:`provider.wiki.same_text._inherit`:
  withheld or internal, quarantined, accepted with a ``near-copy`` finding).

Each document stores its blocks' shingles (:func:`block_shingles`; base64 of ascending
32-bit CRC values): the rule reads metadata only, like the others. The relation between
two documents (one contains a unit of the other) does not depend on their status:
:class:`ContainmentIndex` keeps it for the incremental rules
(:mod:`provider.wiki.incremental`) by **prefix filtering**: a unit of ``n`` shingles is
contained only if the container holds one of its ``n - needed + 1`` smallest values.
"""

from __future__ import annotations

import base64
import math
import struct
import zlib
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping

from .audience import PUBLIC
from .copies import _length, words
from .model import DocumentMeta

__all__ = [
    "CONTAINED_SHARE",
    "MAX_CONTAINERS",
    "MIN_UNIT_SHINGLES",
    "SHARED_SHARE",
    "SHINGLE_WORDS",
    "SHORT_TEXT_SHINGLES",
    "ContainmentIndex",
    "block_shingles",
    "contains",
    "decode",
    "needed",
    "public_set",
    "units",
]

#: Words a shingle holds.
SHINGLE_WORDS = 3
#: Shingles a unit needs (8 words), and the fewest shingles of a unit a container must hold.
MIN_UNIT_SHINGLES = 6
#: The share of a unit's shingles a container must hold. Measured on every shared corpus
#: (docs/how-to/findings.md): at 0.6 and 0.7 boilerplate sentences of Microsoft Learn with
#: a word or two changed demoted 11 and 7 pages; 0.8 still holds a 17-word text with one
#: word edited (15 of 18 shingles kept is 0.83).
CONTAINED_SHARE = 0.8
#: The share at which a document counts as *repeating* a unit (see
#: :data:`MAX_CONTAINERS`). Equal to :data:`CONTAINED_SHARE`: a looser one (0.5) caught
#: boilerplate varying from page to page, but related so many documents that a one-file
#: edit of the Hetzner tutorials derived the whole corpus again (docs/how-to/findings.md).
SHARED_SHARE = CONTAINED_SHARE
#: Documents that may repeat a unit (hold :data:`SHARED_SHARE` of it) while it still
#: taints them: past this many (outside the source's translation group) it is wording the
#: site repeats ("This feature requires a Microsoft 365 administrator account"), not a
#: copy of a secret.
MAX_CONTAINERS = 3
#: A document (or its internal sections) of several blocks and at most this many shingles
#: is also a unit as a whole: two short lines copied together.
SHORT_TEXT_SHINGLES = 64


#: Marks a block of a script written without spaces (:func:`block_shingles`).
_SPLIT = "h:"


def _shingles(found: list[str]) -> set[int]:
    return {zlib.crc32(" ".join(found[i : i + SHINGLE_WORDS]).encode("utf-8"))
            for i in range(len(found) - SHINGLE_WORDS + 1)}


def block_shingles(blocks: Iterable[str]) -> tuple[str, ...]:
    """Each block's shingle set (blocks with none left out), encoded: base64 of the
    ascending distinct 32-bit CRC-32 values, big-endian, after ``h:`` when the block is
    written in a script without spaces (each character one :func:`~provider.wiki.copies.words`
    entry: such a unit needs twice the shingles, as a Japanese or Chinese word is about two
    characters — at one each, 8 characters of a glossary entry were a "text"). Order of the
    blocks kept."""
    out = []
    for text in blocks:
        found = words(text)
        values = sorted(_shingles(found))
        if values:
            encoded = base64.b64encode(struct.pack(f">{len(values)}I", *values)).decode("ascii")
            out.append(_SPLIT + encoded if _length(found) < len(found) else encoded)
    return tuple(out)


def decode(encoded: str) -> tuple[int, ...]:
    """The values of one :func:`block_shingles` entry, ascending."""
    raw = base64.b64decode(encoded.removeprefix(_SPLIT))
    return struct.unpack(f">{len(raw) // 4}I", raw)


def needed(size: int, share: float | None = None) -> int:
    """The shingles of a unit of ``size`` a container must hold: ``share`` of them
    (default :data:`CONTAINED_SHARE`), and at least :data:`MIN_UNIT_SHINGLES`."""
    return max(MIN_UNIT_SHINGLES, math.ceil((CONTAINED_SHARE if share is None else share) * size - 1e-9))


def contains(unit: frozenset[int], container: frozenset[int] | set[int], share: float | None = None) -> bool:
    """Whether ``container`` (a document's public shingles) holds ``share`` (default
    :data:`CONTAINED_SHARE`) of ``unit``'s shingles, and at least :data:`MIN_UNIT_SHINGLES`."""
    return len(unit) >= MIN_UNIT_SHINGLES and len(unit & container) >= needed(len(unit), share)


def _units_of(blocks: tuple[str, ...]) -> list[frozenset[int]]:
    decoded = [(frozenset(decode(b)), 2 if b.startswith(_SPLIT) else 1) for b in blocks]
    found = [values for values, scale in decoded if len(values) >= MIN_UNIT_SHINGLES * scale]
    if len(decoded) > 1:
        whole = frozenset().union(*(values for values, _ in decoded))
        scale = max(scale for _, scale in decoded)
        if MIN_UNIT_SHINGLES * scale <= len(whole) <= SHORT_TEXT_SHINGLES * scale:
            found.append(whole)
    return found


def source_capable(meta: DocumentMeta) -> bool:
    """Whether the document's own metadata can make it a source of rule 6d: internal by
    its front matter or the operator's audience rules, withheld by its own publication
    keys or path, quarantined, or holding internal sections. A document public by its
    metadata but internal by a corpus rule (a Hugo section's cascade) is no source: every
    document being one related most of a corpus to itself through shared code blocks, so
    that a one-file edit derived every document again."""
    return meta.audience != PUBLIC or meta.draft or bool(meta.errors) or bool(meta.internal_block_shingles)


def units(meta: DocumentMeta) -> tuple[list[frozenset[int]], list[frozenset[int]]]:
    """``(whole, internal)``: the units of the document's whole text (a source when the
    document is internal or withheld) and of its internal sections (always a source);
    none for a document that is not :func:`source_capable`."""
    if not source_capable(meta):
        return [], []
    internal = _units_of(meta.internal_block_shingles)
    whole = _units_of(meta.block_shingles + meta.internal_block_shingles) if meta.internal_block_shingles \
        else _units_of(meta.block_shingles)
    return whole, internal


def public_set(meta: DocumentMeta) -> frozenset[int]:
    """The shingles of the document's public blocks (what a container holds)."""
    return frozenset().union(*(decode(b) for b in meta.block_shingles))


class ContainmentIndex:
    """Which documents contain a unit of a source-capable one (:func:`source_capable`),
    whatever their status: the relation rule 6d reads, kept for
    :mod:`provider.wiki.incremental` (documents related here are each other's inputs).

    Only source-capable documents' units are kept, with their prefixes indexed (a unit of
    ``n`` shingles is contained only where one of its ``n - needed + 1`` smallest values
    is): a document's sources are found by probing its public shingles. A source's
    containers are found by reading every document's stored shingles (``docs``): done
    only for a document with units (an internal page, a draft, a page with internal
    sections), so the index holds nothing per public page.
    """

    def __init__(self) -> None:
        self._units: dict[str, list[frozenset[int]]] = {}
        self._by_prefix: dict[int, set[str]] = defaultdict(set)

    def clear(self) -> None:
        """Forget every document."""
        self._units.clear()
        self._by_prefix.clear()

    def update(self, key: str, meta: DocumentMeta | None) -> None:
        """Index ``meta`` under ``key`` (``None``: remove the key)."""
        for unit in self._units.pop(key, ()):
            for value in _prefix(unit):
                members = self._by_prefix.get(value)
                if members is not None:
                    members.discard(key)
                    if not members:
                        del self._by_prefix[value]
        if meta is None:
            return
        whole, internal = units(meta)
        found = list({*whole, *internal})
        if found:
            self._units[key] = found
            for unit in found:
                for value in _prefix(unit):
                    self._by_prefix[value].add(key)

    def related(self, key: str, meta: DocumentMeta, docs: Mapping[str, DocumentMeta]) -> Iterator[str]:
        """The documents one of whose units ``key`` (its ``meta``) contains, and, when
        ``key`` has units, the documents of ``docs`` containing one."""
        held = public_set(meta) if meta.block_shingles else frozenset()
        candidates = {other for value in held for other in self._by_prefix.get(value, ()) if other != key}
        for other in candidates:
            if any(contains(unit, held, SHARED_SHARE) for unit in self._units.get(other, ())):
                yield other
        mine = self._units.get(key)
        if not mine:
            return
        probes = {value for unit in mine for value in _prefix(unit)}
        for other, other_meta in docs.items():
            if other == key or not other_meta.block_shingles:
                continue
            values = public_set(other_meta)
            if not probes.isdisjoint(values) and any(contains(unit, values, SHARED_SHARE) for unit in mine):
                yield other


def _prefix(unit: frozenset[int]) -> list[int]:
    """The values of ``unit`` a document repeating it holds one of (at least
    ``needed(n, SHARED_SHARE)`` of its ``n`` values: one among any ``n - needed + 1``)."""
    ordered = sorted(unit)
    return ordered[: len(ordered) - needed(len(ordered), SHARED_SHARE) + 1]
