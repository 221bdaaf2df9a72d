"""Top-N search over whole posting lists with numpy, answering exactly as Whoosh would.

Whoosh walks a query's matchers one posting at a time in pure Python: with a union of a
dozen terms (the OR fill-up of a four-word query) scoring every matching entry that way
was most of a slow query's time. Here
each term's posting list is read block by block into arrays, scored with BM25F — the same
expression, operation by operation, as :class:`whoosh.scoring.BM25FScorer`, so each
entry's term score is the same double — and summed over the query's tree (``Term``,
``And``, ``Or``, ``DefaultOr``) **in the order of the matcher tree Whoosh would build**
for that segment: its weighted trees of binary unions and intersections (the two
lightest joined first, by ``estimate_size``), or, for an ``Or`` of three or more clauses
on a segment of at most 5,000 entries, the preloaded array that adds clause after clause.
Floating-point addition is not associative, so the order matters for the last bit; with
it every score equals the one Whoosh's collector computes, and the answer is Whoosh's:
score descending, then the lower document number first; with ``key_of``, the best entry
of each key (one per document), as :class:`~provider.search.collecting.BestPerKey` keeps.

Anything this module does not handle — another weighting than BM25F, a boost, ``minmatch``
or ``scale``, another query type, a posting format it does not know — makes
:func:`top_entries` return ``None``, and the caller searches with Whoosh's collectors.

Deleted entries (a document unpublished since its segment was written, CONTRACT X7) are
masked with each segment's deletion set, as Whoosh's ``FilterMatcher`` does; only the
searcher's own index is read (CONTRACT X2: a ``customer_safe`` search reads the public
index). Posting lists are kept per process (:data:`POSTINGS`, shared by searchers:
segments never change once written) and scored lists per searcher
(:data:`TERM_CACHE_BYTES`); the longest lists are read ahead when a build is opened.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from typing import Any

import numpy as np
from cachetools import LRUCache
from whoosh.codec.whoosh3 import LENGTHS_COLUMN, W3LeafMatcher, _lenfield
from whoosh.idsets import DocIdSet
from whoosh.matching.wrappers import FilterMatcher
from whoosh.query import And, Or, Query, Term
from whoosh.query.compound import DefaultOr
from whoosh.scoring import BM25F
from whoosh.searching import Searcher
from whoosh.util.numeric import _length_byte_cache

__all__ = ["POSTINGS", "POSTINGS_CACHE_BYTES", "TERM_CACHE_BYTES", "PostingLists", "segment_key", "top_entries"]

#: Or's automatic matcher choice (``whoosh.query.Or``): a segment of at most this many
#: entries preloads a query of three or more clauses into an array.
_PRELOAD_DOCS = 5000
#: Bytes of scored posting lists kept per searcher (12 bytes a posting): a query's
#: common words are read and scored once per searcher, not on every search.
TERM_CACHE_BYTES = 1024 * 1024
#: Posting lists kept per process, in bytes (8 bytes a posting).
POSTINGS_CACHE_BYTES = 12 * 1024 * 1024
#: Document frequencies kept per searcher (about 200 bytes each, emptied when full): every
#: new word of a request adds one per field and leaf, so a stream of distinct queries
#: filled the searcher's share up to the bound (19 MiB at 100,000, per search thread).
DF_CACHE_ENTRIES = 10_000
#: Terms of at least this many entries (four blocks of Whoosh's postings) are read
#: ahead when an index is opened (:meth:`PostingLists.warm`).
WARM_MIN_FREQUENCY = 512
#: Field lengths as Whoosh decodes its length byte (``byte_to_length``).
_BYTE_TO_LENGTH = np.array(_length_byte_cache, dtype=np.float32)


class _Unsupported(Exception):
    """The query or index has something this module does not evaluate."""


class _Arrays:
    """What one searcher's index holds as arrays, made once per searcher (one unchanging
    generation): per leaf reader its offset and size, the live entries, and per field
    the decoded field lengths (made on first use)."""

    def __init__(self, searcher: Searcher) -> None:
        self.size = int(searcher.doc_count_all())
        self.leaves: list[tuple[Any, int, int]] = []
        live = np.ones(self.size, dtype=bool)
        for subsearcher, offset in searcher.leaf_searchers():
            reader = subsearcher.reader()
            count = int(reader.doc_count_all())
            self.leaves.append((reader, offset, count))
            if reader.has_deletions():
                deleted = np.fromiter(reader.deleted_docs_set, dtype=np.int64)
                live[deleted + offset] = False
        self.live = live
        scope = getattr(searcher, "_kp_scope", None) or ("searcher", id(searcher))
        self.segments = [segment_key(scope, reader) for reader, _, _ in self.leaves]
        self._lengths: dict[tuple[int, str], np.ndarray] = {}
        #: per (leaf, field, term) its entries and scores, bounded by bytes (least
        #: recently used out first); one searcher serves one thread at a time
        self._terms: LRUCache[tuple[int, str, str], tuple[np.ndarray, np.ndarray]] = LRUCache(
            TERM_CACHE_BYTES, getsizeof=_nbytes)
        #: per (leaf, field, term) its document frequency in that leaf (Term.estimate_size)
        self._dfs: dict[tuple[int, str, str], int] = {}
        self._doc_counts = [int(reader.doc_count()) for reader, _, _ in self.leaves]
        self.accepted: dict[int, tuple[DocIdSet, np.ndarray]] = {}

    def lengths(self, leaf: int, reader: Any, count: int, field: str) -> np.ndarray:
        """The leaf's field lengths of ``field`` per entry, as Whoosh's scorer reads them."""
        key = (leaf, field)
        found = self._lengths.get(key)
        if found is None:
            column = reader._perdoc._cached_reader(_lenfield(field), LENGTHS_COLUMN)
            raw = np.zeros(count, dtype=np.uint8)
            if column is not None:
                stored = min(column._count, count)
                if stored:
                    raw[:stored] = np.frombuffer(column._dbfile.get(column._basepos, stored), dtype=np.uint8)
            found = self._lengths[key] = _BYTE_TO_LENGTH[raw]  # float32: whole numbers below 2**24, exact
        return found

    def estimate(self, leaf: int, query: Query) -> int:
        """``query.estimate_size(leaf reader)`` as Whoosh computes it (the weights of its
        matcher trees), with the terms' frequencies remembered."""
        if type(query) is Term:
            key = (leaf, query.fieldname, query.text)
            found = self._dfs.get(key)
            if found is None:
                if len(self._dfs) >= DF_CACHE_ENTRIES:
                    self._dfs.clear()
                found = self._dfs[key] = int(query.estimate_size(self.leaves[leaf][0]))
            return found
        sizes = [self.estimate(leaf, sub) for sub in query.subqueries]
        if type(query) is And:
            return min(sizes)
        return min(sum(sizes), self._doc_counts[leaf])

    def term(self, key: tuple[int, str, str]) -> tuple[np.ndarray, np.ndarray] | None:
        return self._terms.get(key)

    def keep_term(self, key: tuple[int, str, str], ids: np.ndarray, scores: np.ndarray) -> None:
        if _nbytes((ids, scores)) <= TERM_CACHE_BYTES:
            self._terms[key] = (ids, scores)

    def accepted_mask(self, accepted: DocIdSet) -> np.ndarray:
        found = self.accepted.get(id(accepted))
        if found is None or found[0] is not accepted:
            mask = np.zeros(self.size, dtype=bool)
            ids = np.fromiter(iter(accepted), dtype=np.int64)
            mask[ids[ids < self.size]] = True
            if len(self.accepted) > 64:
                self.accepted.clear()
            found = self.accepted[id(accepted)] = (accepted, mask)
        return found[1]


def _nbytes(lists: tuple[np.ndarray, np.ndarray]) -> int:
    """What a pair of arrays (entries and their weights or scores) holds, in bytes."""
    return int(lists[0].nbytes + lists[1].nbytes)


def _arrays(searcher: Searcher) -> _Arrays:
    found: _Arrays | None = getattr(searcher, "_kp_arrays", None)
    if found is None:
        found = searcher._kp_arrays = _Arrays(searcher)
    return found


def _leaf_postings(matcher: Any) -> tuple[np.ndarray, np.ndarray]:
    """A leaf matcher's whole posting list: (segment document numbers as int32, weights
    as Whoosh's matcher gives them)."""
    if isinstance(matcher, FilterMatcher):
        matcher = matcher.child  # deletions are masked by the caller
    if type(matcher) is not W3LeafMatcher or matcher._byteids:
        raise _Unsupported(type(matcher).__name__)
    ids, weights = [], []
    while matcher.is_active():
        if matcher._data is None:
            matcher._read_data()
        data = matcher._data
        count = matcher._blocklength
        ids.append(np.cumsum(np.asarray(data[0], dtype=np.int64)).astype(np.int32))
        stored = data[1]
        if stored is None:
            weights.append(np.ones(count, dtype=np.float32))
        elif isinstance(stored, float):
            # Whoosh repeats a block's one weight into an array("f"): float32.
            weights.append(np.full(count, stored, dtype=np.float32))
        else:
            weights.append(np.asarray(stored))
        matcher._next_block()
    if not ids:
        return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32)
    return np.concatenate(ids), np.concatenate(weights)


class PostingLists:
    """Posting lists read from segments, kept per process and shared by every searcher
    (segments never change once written; deletions are applied by each searcher), so a
    common word's long list is decoded once, not once per searcher and commit.

    Thread-safe; bounded by :data:`POSTINGS_CACHE_BYTES` (least recently used out first).
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._lists: LRUCache[tuple[Hashable, str, str], tuple[np.ndarray, np.ndarray]] = LRUCache(
            max_bytes, getsizeof=_nbytes)
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._lists)

    @property
    def bytes(self) -> int:
        """What the kept lists hold, in bytes."""
        return int(self._lists.currsize)

    def get(self, segment: Hashable, reader: Any, field: str, text: str) -> tuple[np.ndarray, np.ndarray]:
        """The posting list of ``(field, text)`` in the leaf ``reader`` (which holds it)."""
        key = (segment, field, text)
        with self._lock:
            found = self._lists.get(key)
        if found is not None:
            return found
        found = _leaf_postings(reader.postings(field, text))
        if _nbytes(found) <= self.max_bytes:
            with self._lock:
                self._lists.setdefault(key, found)
        return found

    def warm(self, reader: Any, segment: Hashable, fields: Sequence[str], share: float = 0.5,
             min_frequency: int = WARM_MIN_FREQUENCY, stop: Callable[[], bool] | None = None) -> int:
        """Read the longest posting lists of ``fields`` in the leaf ``reader`` ahead (those
        of at least ``min_frequency`` documents, longest first) until ``share`` of the
        bound is used or ``stop()`` is true (asked before each list); returns how many
        were read."""
        terms = []
        for field in fields:
            if field not in reader.schema:
                continue
            for text, info in reader.iter_field(field):
                if info.doc_frequency() >= min_frequency:
                    terms.append((info.doc_frequency(), field, text))
        terms.sort(reverse=True)
        done = 0
        for _, field, text in terms:
            if self.bytes >= share * self.max_bytes or (stop is not None and stop()):
                break
            try:
                self.get(segment, reader, field, text if isinstance(text, str) else text.decode("utf-8"))
            except _Unsupported:
                return done
            done += 1
        return done


#: The process's posting lists.
POSTINGS = PostingLists(POSTINGS_CACHE_BYTES)


def segment_key(scope: Hashable, reader: Any) -> Hashable:
    """A leaf reader's segment, named within ``scope`` (the index folder)."""
    segment = getattr(reader, "_segment", None)
    if segment is None or not hasattr(segment, "segment_id"):
        return ("reader", id(reader))
    return (scope, segment.segment_id())


def _term(searcher: Searcher, arrays: _Arrays, leaf: int, query: Term) -> tuple[np.ndarray, np.ndarray]:
    weighting = searcher.weighting
    field, text = query.fieldname, query.text
    reader, _, count = arrays.leaves[leaf]
    scores = np.zeros(count, dtype=np.float64)
    mask = np.zeros(count, dtype=bool)
    if field not in searcher.schema or not searcher.schema[field].scorable:
        raise _Unsupported(field)
    key = (leaf, field, text)
    found = arrays.term(key)
    if found is None:
        if (field, text) not in reader:
            return scores, mask
        B = weighting._field_B.get(field, weighting.B)
        K1 = weighting.K1
        # Global statistics from the top searcher, as BM25FScorer reads them.
        idf = searcher.idf(field, text)
        avgfl = searcher.avg_field_length(field) or 1
        ids, weights = POSTINGS.get(arrays.segments[leaf], reader, field, text)
        tf = weights.astype(np.float64)
        fl = arrays.lengths(leaf, reader, count, field)[ids].astype(np.float64)
        # bm25() of whoosh.scoring, operation by operation: the same double for each entry.
        found = (ids, idf * ((tf * (K1 + 1)) / (tf + K1 * ((1 - B) + B * fl / avgfl))))
        arrays.keep_term(key, *found)
    ids, term_scores = found
    scores[ids] = term_scores
    mask[ids] = True
    return scores, mask


_Node = tuple[np.ndarray, np.ndarray]


def _tree(items: list[tuple[int, _Node]], intersect: bool) -> _Node:
    """Whoosh's ``make_weighted_tree`` of binary matchers, evaluated: the two lightest
    joined first, the join inserted after the subtrees of equal weight (its sort and
    ``insort`` never order matchers of equal weight, so ties keep their order). A
    binary matcher's score is ``a + b``; an entry absent from one side of a union
    scores the other side alone (``x + 0.0 == x``)."""
    items = sorted(items, key=lambda item: item[0])
    while len(items) > 1:
        (wa, (sa, ma)), (wb, (sb, mb)) = items.pop(0), items.pop(0)
        if intersect:
            mask = ma & mb
            scores = np.where(mask, sa + sb, 0.0)
        else:
            mask = ma | mb
            scores = sa + sb
        weight = wa + wb
        at = len(items)
        for i, (w, _) in enumerate(items):
            if weight < w:
                at = i
                break
        items.insert(at, (weight, (scores, mask)))
    return items[0][1]


def _evaluate(searcher: Searcher, arrays: _Arrays, leaf: int, query: Query) -> _Node:
    """Whoosh's scores of every entry of one leaf (segment), and which entries match:
    the matcher tree ``query.matcher(leaf searcher, searcher.context())`` builds, summed
    in its order (so each score is the same double Whoosh's collector computes)."""
    if query.boost != 1.0:
        raise _Unsupported("boost")
    kind = type(query)
    if kind is Term:
        return _term(searcher, arrays, leaf, query)
    if kind not in (And, Or, DefaultOr):
        raise _Unsupported(kind.__name__)
    assert isinstance(query, And | Or)
    count = arrays.leaves[leaf][2]
    subs = query.subqueries
    if not subs:
        return np.zeros(count, dtype=np.float64), np.zeros(count, dtype=bool)
    if isinstance(query, Or) and (query.minmatch or query.scale):
        raise _Unsupported("minmatch")
    if len(subs) == 1:
        return _evaluate(searcher, arrays, leaf, subs[0])
    nodes = [_evaluate(searcher, arrays, leaf, sub) for sub in subs]
    if kind is And:
        return _tree([(0 - arrays.estimate(leaf, sub), node) for sub, node in zip(subs, nodes, strict=True)], True)
    if kind is Or and ((len(subs) != 2 and count <= _PRELOAD_DOCS) or len(subs) >= Or.TOO_MANY_CLAUSES):
        # Or's automatic choice on a small segment: PreloadedOr, which adds each
        # sub-matcher's scores into an array in query order.
        scores = np.zeros(count, dtype=np.float64)
        mask = np.zeros(count, dtype=bool)
        for sub_scores, sub_mask in nodes:
            scores = scores + sub_scores
            mask |= sub_mask
        return scores, mask
    return _tree([(arrays.estimate(leaf, sub), node) for sub, node in zip(subs, nodes, strict=True)], False)


def top_entries(
    searcher: Searcher, query: Query, count: int, *, key_of: Callable[[int], Hashable] | None = None,
    taken: Mapping[Any, int] | None = None, skip: Collection[int] = (), accepted: DocIdSet | None = None,
) -> list[tuple[float, int]] | None:
    """The ``count`` best entries of ``query`` as ``(score, docnum)``, best first, as
    Whoosh's collectors answer them — or ``None`` when this module cannot tell (the
    caller then asks Whoosh).

    Args:
        key_of: when given, at most one entry per key (the document's file path), as
            :class:`~provider.search.collecting.BestPerKey` with ``per_key=1``; else the
            best entries, as ``searcher.search(query, limit=count, filter=accepted)``.
        taken: per key, entries chosen elsewhere: a key taken once is not answered.
        skip: global document numbers never answered.
        accepted: only these documents (a locale filter), as Whoosh's ``filter=``.
    """
    if count < 1:
        return []
    if type(searcher.weighting) is not BM25F:
        return None
    arrays = _arrays(searcher)
    try:
        parts = [_evaluate(searcher, arrays, leaf, query) for leaf in range(len(arrays.leaves))]
    except _Unsupported:
        return None
    if not parts:
        return []
    scores = np.concatenate([p[0] for p in parts]) if len(parts) > 1 else parts[0][0]
    mask = np.concatenate([p[1] for p in parts]) if len(parts) > 1 else parts[0][1]
    mask &= arrays.live
    if accepted is not None:
        mask &= arrays.accepted_mask(accepted)
    if skip:
        skipped = np.fromiter(skip, dtype=np.int64)
        mask[skipped[(skipped >= 0) & (skipped < arrays.size)]] = False
    matching = np.flatnonzero(mask)
    # Whoosh's order: the best score first, the lower document number first among equals.
    order = matching[np.lexsort((matching, -scores[matching]))]
    taken = taken or {}
    out: list[tuple[float, int]] = []
    if key_of is None:
        return [(float(scores[d]), d) for d in order[:count].tolist()]
    chosen: set[Hashable] = set()
    for docnum in order.tolist():
        key = key_of(docnum)
        if key in chosen or taken.get(key, 0) >= 1:
            continue
        chosen.add(key)
        out.append((float(scores[docnum]), docnum))
        if len(out) == count:
            break
    return out
