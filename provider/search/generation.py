"""What every searcher of one index generation would compute alike, computed once.

A Whoosh searcher sees one generation of one index (its table of contents: segments and
their deletions), and nothing about that generation ever changes. The worker keeps up
to ``search_threads`` searchers of each index, replaced after every commit; each one
used to count the index's documents per language and its files (a walk over the whole
``path`` lexicon: tens of milliseconds at 10,000 documents, more with the agent index)
and to look up every query term's document frequencies on its own — so the first
searches on each fresh searcher, after a start and after every commit, paid for what
another searcher of the same generation had already found out.

:data:`GENERATIONS` keeps that per ``(scope, generation)`` — ``scope`` names one index
of one build (:meth:`~provider.search.backend.WhooshBackend._scope`), so the public and
the agent index never share an entry (CONTRACT X2), and a generation number is never
reused within a build, so an entry cannot describe another table of contents than the
searcher's (CONTRACT X7). Only the latest few generations are kept.

Thread safety: searchers of one generation run on different threads at once. An
entry's values are built whole and then stored with one assignment (atomic under the
GIL); two threads racing to build the same value store equal values.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

__all__ = ["GENERATIONS", "KEPT_GENERATIONS", "GenerationState", "Generations"]

#: Generations kept at once, over every index of the process: the public and the agent
#: index's current ones and the ones before (searchers still open on them after a commit).
#: Each holds up to ``DF_CACHE_TERMS`` document frequencies (a few MiB at most), so
#: their number is the bound of this cache's memory.
KEPT_GENERATIONS = 4


class GenerationState:
    """The values shared by the searchers of one index generation.

    Attributes:
        info: the index summary (documents per language, locales, chunked), or ``None``
            until a searcher computes it.
        dfs: ``(language, term) -> (title, body, code)`` document frequencies.
    """

    __slots__ = ("dfs", "info")

    def __init__(self) -> None:
        self.info: Any = None
        self.dfs: dict[tuple[str, str], tuple[int, int, int]] = {}


class Generations:
    """The :class:`GenerationState` of the latest :data:`KEPT_GENERATIONS` generations,
    keyed by ``(scope, generation)``; the least recently opened goes first."""

    def __init__(self, kept: int = KEPT_GENERATIONS) -> None:
        self.kept = kept
        self._states: OrderedDict[tuple[str, int], GenerationState] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, scope: str, generation: int) -> GenerationState:
        """The shared state of ``generation`` of the index named ``scope`` (made empty
        on first use)."""
        key = (scope, generation)
        with self._lock:
            state = self._states.get(key)
            if state is None:
                state = self._states[key] = GenerationState()
                while len(self._states) > self.kept:
                    self._states.popitem(last=False)
            else:
                self._states.move_to_end(key)
            return state

    def __len__(self) -> int:
        return len(self._states)


#: The shared states of this process.
GENERATIONS = Generations()
