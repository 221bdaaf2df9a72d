"""The meaning half of ``semanticSearch``: nearest entries by vector, and their fusion with
the word ranking.

Each entry's vector (:data:`~provider.search.schema.VECTOR_FIELD`) and its passages'
(:data:`~provider.search.schema.PASSAGE_VECTOR_FIELD`) are columns of its own Whoosh
entry, so a search reads them from the same segments, with the same deletions, as the
text they were made from: an entry deleted or replaced by a commit is gone from both at
once. A segment's vectors are read once, as ``float32`` matrices, and kept per segment
(:data:`MATRICES`, :data:`PASSAGES`, as :data:`~provider.search.arrays.POSTINGS` keeps
posting lists); deleted entries and the entries a query may not see are masked per search.

The two rankings are fused by reciprocal rank (Cormack et al., 2009): an entry's fused
score is ``Σ weight / (RRF_K + rank)`` over the rankings it appears in.

An entry's similarity to a query mixes its own vector's cosine with its best passage's
(:func:`nearest`'s ``passages``): a long section about several things is found by the
paragraph that answers, as the word ranking finds it by its best-matching words.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from cachetools import LRUCache

from .arrays import segment_key
from .schema import PASSAGE_VECTOR_FIELD, VECTOR_FIELD

__all__ = ["MATRICES", "PASSAGES", "RRF_K", "fuse", "nearest", "nearest_passage", "similarities"]

#: The rank offset of reciprocal-rank fusion (60 in the original paper; measured here with
#: ``bench/relevance.py --rrf-k``).
RRF_K = 60
#: Segments whose vector matrix is kept per process (each ``entries × d × 4`` bytes).
MATRIX_SEGMENTS = 64

log = logging.getLogger(__name__)

Matrix = npt.NDArray[np.float32]
MATRICES: LRUCache[Hashable, Matrix] = LRUCache(MATRIX_SEGMENTS)
LOCALES: LRUCache[Hashable, npt.NDArray[np.object_]] = LRUCache(MATRIX_SEGMENTS)
#: Per segment: its passages' ``(passages, d)`` matrix, the segment's documents holding any
#: (ascending), and the first row of each of those (rows of one document are consecutive).
PassageRows = tuple[Matrix, npt.NDArray[np.int64], npt.NDArray[np.int64]]
PASSAGES: LRUCache[Hashable, PassageRows] = LRUCache(MATRIX_SEGMENTS)


def _segment_matrix(leaf: Any, scope: Hashable, width: int) -> Matrix:
    """The ``(documents, d)`` float32 vectors of one segment (zeros where none is stored)."""
    key = (segment_key(scope, leaf), width)
    found = MATRICES.get(key)
    if found is not None:
        return found
    count = leaf.doc_count_all()
    if count and not leaf.has_column(VECTOR_FIELD):
        log.error("segment %s holds %d entries without vectors: semanticSearch finds them by words only until "
                  "the index is rebuilt (the indexer rebuilds such a build at its next start)",
                  leaf.segment().segment_id(), count)
    column = leaf.column_reader(VECTOR_FIELD)
    raw = None
    dbfile, base, stored = (getattr(column, name, None) for name in ("_dbfile", "_basepos", "_count"))
    if dbfile is not None and base is not None and stored is not None:
        # A fixed-width column is one run of bytes: read at once, not one document at a time.
        raw = bytes(dbfile.get(base, stored * width)) + bytes(width * (count - stored))
    else:
        raw = b"".join(column[docnum] for docnum in range(count))
    matrix = np.frombuffer(raw, dtype="<f2").astype(np.float32).reshape(count, width // 2)
    MATRICES[key] = matrix
    return matrix


def _segment_passages(leaf: Any, scope: Hashable, width: int) -> PassageRows:
    """One segment's passage vectors (:data:`PassageRows`; none for an index without them)."""
    key = (segment_key(scope, leaf), width, PASSAGE_VECTOR_FIELD)
    found = PASSAGES.get(key)
    if found is not None:
        return found
    count = leaf.doc_count_all()
    lengths: npt.NDArray[np.int64]
    raw = b""
    # An index of an older schema may have the vector field and not this one (has_column raises then).
    if PASSAGE_VECTOR_FIELD in leaf.schema.names() and leaf.has_column(PASSAGE_VECTOR_FIELD):
        column = leaf.column_reader(PASSAGE_VECTOR_FIELD)
        stored_lengths = getattr(column, "_lengths", None)
        dbfile, base = getattr(column, "_dbfile", None), getattr(column, "_basepos", None)
        if stored_lengths is not None and dbfile is not None and base is not None and len(stored_lengths) == count:
            # A variable-width column's values are one run of bytes in document order.
            lengths = np.asarray(stored_lengths, dtype=np.int64)
            raw = bytes(dbfile.get(base, int(lengths.sum())))
        else:
            values = [column[docnum] for docnum in range(count)]
            lengths = np.fromiter((len(value) for value in values), dtype=np.int64, count=count)
            raw = b"".join(values)
    else:
        if count:
            log.error("segment %s holds %d entries without passage vectors: their snippets are chosen by words "
                      "until the index is rebuilt", leaf.segment().segment_id(), count)
        lengths = np.zeros(count, dtype=np.int64)
    rows = lengths // width
    holders = np.flatnonzero(rows).astype(np.int64)
    starts = (np.cumsum(rows) - rows)[holders].astype(np.int64)
    matrix = np.frombuffer(raw, dtype="<f2").astype(np.float32).reshape(-1, width // 2)
    found = PASSAGES[key] = (matrix, holders, starts)
    return found


class _Vectors:
    """One searcher's vectors (a searcher reads one generation): per segment its matrix, and
    for all entries at once whether each is live and its locale's code."""

    def __init__(self, searcher: Any, width: int) -> None:
        scope = getattr(searcher, "_kp_scope", None) or id(searcher)
        self.segments: list[Matrix] = []
        self.passages: list[tuple[int, PassageRows]] = []
        alive: list[npt.NDArray[np.bool_]] = []
        offset = 0
        for leaf, _ in searcher.reader().leaf_readers():
            matrix = _segment_matrix(leaf, scope, width)
            self.segments.append(matrix)
            self.passages.append((offset, _segment_passages(leaf, scope, width)))
            offset += len(matrix)
            mask = np.ones(len(matrix), dtype=bool)
            if leaf.has_deletions():
                mask[:] = False
                mask[np.fromiter(leaf.all_doc_ids(), dtype=np.int64)] = True
            alive.append(mask)
        self.alive = np.concatenate(alive) if alive else np.zeros(0, dtype=bool)
        names = np.concatenate([_segment_locales(leaf, scope) for leaf, _ in searcher.reader().leaf_readers()]
                               ) if alive else np.zeros(0, dtype=object)
        self.codes = {name: code for code, name in enumerate(sorted(set(names.tolist())))}
        self.locale = np.fromiter((self.codes[name] for name in names), dtype=np.int32, count=len(names))
        self._masks: dict[frozenset[str] | None, npt.NDArray[np.bool_]] = {}

    def mask(self, locales: frozenset[str] | None) -> npt.NDArray[np.bool_]:
        """Live entries in one of ``locales`` (``None``: any)."""
        found = self._masks.get(locales)
        if found is None:
            found = self.alive
            if locales is not None:
                codes = [self.codes[name] for name in locales if name in self.codes]
                found = found & np.isin(self.locale, np.asarray(codes, dtype=np.int32))
            if len(self._masks) < 64:
                self._masks[locales] = found
        return found


def _segment_locales(leaf: Any, scope: Hashable) -> npt.NDArray[np.object_]:
    """The (lowercased) locale of each entry of one segment, from its column (kept per segment)."""
    key = (segment_key(scope, leaf), "locale")
    found = LOCALES.get(key)
    if found is None:
        column = leaf.column_reader("locale")
        found = LOCALES[key] = np.asarray([column[d] for d in range(leaf.doc_count_all())], dtype=object)
    return found


def similarities(matrix: Matrix, query: Matrix) -> Matrix:
    """``matrix @ query`` (one cosine per row of unit vectors), computed in this thread.

    Not through BLAS: numpy's ``@`` hands a matrix-vector product of a few thousand rows
    to OpenBLAS, which splits it over as many threads as there are cores and spins while
    they run; on a loaded machine the searching thread then spent 10-30 ms of CPU (8,112
    entries) on what takes 0.4 ms in one thread. ``einsum`` without ``optimize`` runs its
    own single-threaded loop (sums in ``float32``, as BLAS does)."""
    found: Matrix = np.einsum("ij,j->i", matrix, query)
    return found


def nearest(searcher: Any, query: Matrix, count: int, locales: frozenset[str] | None = None,
            passages: float = 0.0) -> list[tuple[float, int]]:
    """The ``count`` live entries most similar to the unit vector ``query``, best first, as
    ``(similarity, docnum)``; only entries whose (lowercased) locale is in ``locales`` when
    given. An entry's similarity is ``(1 - passages) · cosine(entry) + passages ·
    cosine(its best passage)`` (an entry without passage vectors: its own cosine), so
    ``passages`` is in ``[0, 1]``. Entries with no similarity above 0 are never returned.
    An index without vectors, or of another dimension, gives ``[]``."""
    schema = searcher.schema
    if VECTOR_FIELD not in schema.names() or count <= 0:
        return []
    width = int(schema[VECTOR_FIELD].column_type._fixedlen)
    if width != 2 * query.shape[0]:
        return []
    vectors: _Vectors | None = getattr(searcher, "_kp_vectors", None)
    if vectors is None:
        vectors = searcher._kp_vectors = _Vectors(searcher, width)
    if not len(vectors.alive):
        return []
    scores = np.concatenate([similarities(matrix, query) for matrix in vectors.segments])
    if passages > 0:
        best = scores.copy()
        for offset, (matrix, holders, starts) in vectors.passages:
            if len(holders):
                best[offset + holders] = np.maximum.reduceat(similarities(matrix, query), starts)
        scores = (1 - passages) * scores + passages * best
    scores[~vectors.mask(locales)] = -np.inf
    top = np.argpartition(-scores, count)[:count] if count < len(scores) else np.arange(len(scores))
    top = top[np.lexsort((top, -scores[top]))]
    top = top[scores[top] > 0]
    return list(zip(scores[top].tolist(), top.tolist(), strict=True))


def nearest_passage(searcher: Any, docnum: int, query: Matrix) -> int | None:
    """The index (in its ``passages``) of the entry ``docnum``'s passage most similar to the
    unit vector ``query``; ``None`` when it has no passage vectors (or of another dimension).
    Reads the matrices :func:`nearest` keeps for the searcher (call it first)."""
    vectors: _Vectors | None = getattr(searcher, "_kp_vectors", None)
    if vectors is None:
        return None
    for (offset, (matrix, holders, starts)), entries in zip(vectors.passages, vectors.segments, strict=True):
        local = docnum - offset
        if not 0 <= local < len(entries):
            continue
        at = int(np.searchsorted(holders, local))
        if at >= len(holders) or holders[at] != local or matrix.shape[1] != query.shape[0]:
            return None
        end = int(starts[at + 1]) if at + 1 < len(starts) else len(matrix)
        return int(np.argmax(matrix[int(starts[at]):end] @ query))
    return None


def fuse(rankings: Sequence[tuple[float, Sequence[int]]], k: int = RRF_K) -> list[tuple[float, int]]:
    """Reciprocal-rank fusion of ``(weight, docnums best first)`` rankings: ``(fused score,
    docnum)``, best first; ties keep the order of the first ranking an entry appears in."""
    fused: dict[int, float] = {}
    first_seen: dict[int, tuple[int, int]] = {}
    for which, (weight, docnums) in enumerate(rankings):
        for rank, docnum in enumerate(docnums, start=1):
            fused[docnum] = fused.get(docnum, 0.0) + weight / (k + rank)
            first_seen.setdefault(docnum, (which, rank))
    return sorted(((score, docnum) for docnum, score in fused.items()),
                  key=lambda pair: (-pair[0], first_seen[pair[1]]))
