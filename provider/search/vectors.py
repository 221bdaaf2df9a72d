"""The meaning half of ``semanticSearch``: nearest entries by vector, and their fusion with
the word ranking.

Each entry's vector is a column of its own Whoosh entry (:data:`~provider.search.schema.
VECTOR_FIELD`), so a search reads it from the same segments, with the same deletions, as
the text it was made from: an entry deleted or replaced by a commit is gone from both at
once. A segment's vectors are read once, as one ``float32`` matrix, and kept per segment
(:data:`MATRICES`, as :data:`~provider.search.arrays.POSTINGS` keeps posting lists);
deleted entries and the entries a query may not see are masked per search.

The two rankings are fused by reciprocal rank (Cormack et al., 2009): an entry's fused
score is ``Σ weight / (RRF_K + rank)`` over the rankings it appears in.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from cachetools import LRUCache

from .arrays import segment_key
from .schema import VECTOR_FIELD

__all__ = ["MATRICES", "RRF_K", "fuse", "nearest"]

#: The rank offset of reciprocal-rank fusion (60 in the original paper; measured here with
#: ``bench/relevance.py --rrf-k``).
RRF_K = 60
#: Segments whose vector matrix is kept per process (each ``entries × d × 4`` bytes).
MATRIX_SEGMENTS = 64

Matrix = npt.NDArray[np.float32]
MATRICES: LRUCache[Hashable, Matrix] = LRUCache(MATRIX_SEGMENTS)


def _segment_matrix(leaf: Any, scope: Hashable, width: int) -> Matrix:
    """The ``(documents, d)`` float32 vectors of one segment (zeros where none is stored)."""
    key = (segment_key(scope, leaf), width)
    found = MATRICES.get(key)
    if found is not None:
        return found
    count = leaf.doc_count_all()
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


def nearest(searcher: Any, query: Matrix, count: int, allowed: Callable[[int], bool] | None = None
            ) -> list[tuple[float, int]]:
    """The ``count`` live entries most similar to the unit vector ``query`` (cosine), best
    first, as ``(similarity, docnum)``; ties by docnum. ``allowed(docnum)``: whether the
    query may see an entry (its locale and language), ``None``: all. An index without
    vectors, or of another dimension, gives ``[]``."""
    reader = searcher.reader()
    schema = searcher.schema
    if VECTOR_FIELD not in schema.names() or count <= 0:
        return []
    width = int(schema[VECTOR_FIELD].column_type._fixedlen)
    if width != 2 * query.shape[0]:
        return []
    scope = getattr(searcher, "_kp_scope", None) or id(searcher)
    scores_all: list[npt.NDArray[np.float32]] = []
    docnums_all: list[npt.NDArray[np.int64]] = []
    for leaf, offset in reader.leaf_readers():
        matrix = _segment_matrix(leaf, scope, width)
        if not len(matrix):
            continue
        scores = matrix @ query
        docnums = np.arange(offset, offset + len(matrix), dtype=np.int64)
        if leaf.has_deletions():
            alive = np.fromiter((not leaf.is_deleted(i) for i in range(len(matrix))), dtype=bool, count=len(matrix))
            scores, docnums = scores[alive], docnums[alive]
        scores_all.append(scores)
        docnums_all.append(docnums)
    if not scores_all:
        return []
    scores = np.concatenate(scores_all)
    docnums = np.concatenate(docnums_all)
    order = np.lexsort((docnums, -scores))
    found: list[tuple[float, int]] = []
    for i in order:
        if scores[i] <= 0:
            break  # a zero vector (no text) or an unrelated entry: never a meaning match
        docnum = int(docnums[i])
        if allowed is None or allowed(docnum):
            found.append((float(scores[i]), docnum))
            if len(found) >= count:
                break
    return found


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
