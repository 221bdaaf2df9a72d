"""A Whoosh collector that keeps the best entries of each document, not of the index.

An index holds one entry per chunk of a document (also without ``chunking``: a document
is scored by its best section), and without ``chunking`` a result list answers each
document once, by its best entry. Whoosh's own top-N collector keeps the best N
*entries*: the chunks of one document score alike when the query's words are in its
title (repeated on every chunk), so three times ``limit`` entries were fetched to find
``limit`` documents. :class:`BestPerKey` keeps the best N entries with at most
``per_key`` of each document (its file path, read from a column), so one pass finds the
N best documents; and its threshold for Whoosh's block-quality skipping is the N-th best
*document*'s score, which skips more than the 3N-th best entry's did.

The order is Whoosh's: score descending, then the lower document number first; of one
document's entries the same rule picks the ones kept, so the list equals the top
entries of a plain search with the surplus entries of each document taken out.

(With ``chunking`` the backend keeps collecting entries: a document's two passages are
shown together at the place of its best one, so its second passage counts even when
other documents' entries rank between them.)
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Collection, Hashable, Mapping
from heapq import heappop, heappush
from typing import Any

from whoosh.collectors import TopCollector

__all__ = ["BestPerKey"]


class BestPerKey(TopCollector):  # type: ignore[misc]  # Whoosh has no type hints
    """The ``limit`` best-scored entries, at most ``per_key`` of them with the same key.

    Args:
        limit: entries kept (at least 1).
        key_of: an entry's key from its global document number (e.g. a column reader's
            ``__getitem__``: the document's file path).
        per_key: entries kept per key (at least 1).
        taken: per key, entries already chosen elsewhere (an earlier search): they count
            against ``per_key`` and not against ``limit``.
        skip: document numbers never kept (those chosen elsewhere).

    After ``searcher.search_with_collector(query, collector)``, :meth:`best` gives the
    kept entries as ``(score, docnum)``, best first.
    """

    def __init__(self, limit: int, key_of: Callable[[int], Hashable], per_key: int = 1, *,
                 taken: Mapping[Any, int] | None = None, skip: Collection[int] = ()) -> None:
        if limit < 1 or per_key < 1:
            raise ValueError("limit and per_key must be at least 1")
        super().__init__(limit=limit)
        self.key_of = key_of
        self.per_key = per_key
        self.taken = dict(taken or {})
        self.skip = skip

    def prepare(self, top_searcher: Any, q: Any, context: Any) -> None:
        super().prepare(top_searcher, q, context)
        #: per key its kept entries ``(score, -docnum)``, worst first
        self._kept: dict[Hashable, list[tuple[float, int]]] = {}
        #: the kept entries and the dropped ones not yet popped (``_dead``), worst on top
        self._heap: list[tuple[float, int]] = []
        self._dead: set[int] = set()
        self._key: dict[int, Hashable] = {}
        self._live = 0

    def _collect(self, global_docnum: int, score: float) -> float:
        self.total += 1
        entry = (score, -global_docnum)
        full = self._live >= self.limit
        if full and entry <= self._heap[0]:
            return 0
        if global_docnum in self.skip:
            return 0
        key = self.key_of(global_docnum)
        room = self.per_key - self.taken.get(key, 0)
        if room <= 0:
            return 0
        mine = self._kept.get(key)
        if mine is None:
            mine = self._kept[key] = []
        elif len(mine) >= room:
            if entry <= mine[0]:
                return 0
            self._drop(mine.pop(0))
        insort(mine, entry)
        heappush(self._heap, entry)
        self._key[-global_docnum] = key
        self._live += 1
        if self._live > self.limit:
            worst = self._pop_live()
            self._kept[self._key[worst[1]]].remove(worst)
            self._drop(worst, popped=True)
        self._clean_top()
        if self._live >= self.limit:
            # Block-quality skipping may now pass over anything not better than this.
            self.minscore = self._heap[0][0]
        return 0 - score

    def _drop(self, entry: tuple[float, int], *, popped: bool = False) -> None:
        self._live -= 1
        del self._key[entry[1]]
        if not popped:
            self._dead.add(entry[1])

    def _pop_live(self) -> tuple[float, int]:
        while True:
            entry = heappop(self._heap)
            if entry[1] in self._dead:
                self._dead.discard(entry[1])
                continue
            return entry

    def _clean_top(self) -> None:
        heap, dead = self._heap, self._dead
        while heap and heap[0][1] in dead:
            dead.discard(heappop(heap)[1])

    def remove(self, global_docnum: int) -> None:
        raise NotImplementedError("BestPerKey does not remove entries")

    def best(self) -> list[tuple[float, int]]:
        """The kept entries as ``(score, docnum)``: score descending, then docnum ascending."""
        entries = sorted((entry for mine in self._kept.values() for entry in mine), reverse=True)
        return [(score, -negated) for score, negated in entries]

    def results(self) -> Any:
        return self._results(self.best())
