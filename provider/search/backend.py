"""The Whoosh backend: answers :class:`~provider.contract.backend.SearchQuery` objects
from the index folder, read-only.

Reach by construction (CONTRACT X2): a ``customer_safe`` query opens the ``public``
index, which never contains an internal document nor the text of an internal section
of a public one; only ``agent_only`` opens ``all``. There, a result whose snippet shows
a passage from an internal section is labelled ``internal`` (CONTRACT X6), so an agent
does not pass it on to a customer.

Threads: Litestar runs searches on worker threads and a Whoosh searcher must not be
shared between threads, so each thread keeps its own searchers. They are refreshed
when a commit lands (Whoosh reuses unchanged segments and closes the rest), and
replaced when ``CURRENT`` names a new build.
"""

from __future__ import annotations

import logging
import math
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from whoosh import index as whoosh_index
from whoosh.index import Index
from whoosh.query import Or, Query, Term
from whoosh.searching import Searcher

from ..contract.backend import SearchQuery
from ..contract.errors import IndexUnavailable
from ..contract.registrations import Exposure
from ..contract.results import Result
from .analysis import terms
from .layout import ALL, PUBLIC, IndexLayout
from .snippets import best_passage, snippet_span

__all__ = ["MAX_QUERY_TERMS", "WhooshBackend"]

log = logging.getLogger(__name__)

#: Distinct query terms searched; the rest of a very long query is ignored.
MAX_QUERY_TERMS = 32


@dataclass
class _Build:
    name: str
    stamp: tuple[int, int]
    indexes: dict[str, Index]


class WhooshBackend:
    """Searches the current build of an index folder.

    Args:
        index_root: the index folder (``index/``).
    """

    implemented_capabilities: frozenset[str] = frozenset()

    def __init__(self, index_root: Path) -> None:
        self.layout = IndexLayout(Path(index_root))
        self._build: _Build | None = None
        self._lock = threading.Lock()
        self._local = threading.local()

    # -- Backend interface ---------------------------------------------------------------

    def is_ready(self) -> bool:
        return self._current() is not None

    def search(self, query: SearchQuery) -> Sequence[Result]:
        build = self._current()
        if build is None:
            raise IndexUnavailable()
        which = PUBLIC if query.reach is Exposure.CUSTOMER_SAFE else ALL
        searcher = self._searcher(build, which)
        words = list(dict.fromkeys(terms(query.text)))[:MAX_QUERY_TERMS]
        if not words:
            return []
        whoosh_query = _build_query(words)
        hits = searcher.search(whoosh_query, limit=query.limit)
        if not hits:
            return []
        weights = _term_weights(searcher, words)
        results = []
        for hit in hits:
            stored = hit.fields()
            doc = stored["doc"]
            passages = stored["passages"]
            start = best_passage(stored["passage_terms"], weights)
            snippet, shown = snippet_span(passages, start)
            # A public article's internal section is shown to agents only, and labelled
            # internal when the snippet includes it, so it is not passed on to a customer.
            internal = set(stored.get("passage_internal") or ()).intersection(shown)
            results.append(
                Result(
                    document_id=doc["id"],
                    title=doc["title"],
                    snippet=snippet,
                    audience="internal" if internal else doc["audience"],
                    revision=doc["revision"],
                    locale=doc["locale"],
                    translation_group_id=doc["group"],
                )
            )
        return results

    # -- internals -----------------------------------------------------------------------

    def _current(self) -> _Build | None:
        """The build named by ``CURRENT``, opened once per process and reopened on change."""
        try:
            st = os.stat(self.layout.current_file)
        except FileNotFoundError:
            return None
        stamp = (st.st_ino, st.st_mtime_ns)
        build = self._build
        if build is not None and build.stamp == stamp:
            return build
        with self._lock:
            build = self._build
            if build is not None and build.stamp == stamp:
                return build
            name = self.layout.current_name()
            if name is None:
                return None
            try:
                path = self.layout.build_dir(name)
                indexes = {sub: whoosh_index.open_dir(str(path / sub)) for sub in (PUBLIC, ALL)}
            except (OSError, whoosh_index.EmptyIndexError) as exc:
                log.error("cannot open index build %s: %s", name, exc)
                return self._build
            self._build = _Build(name=name, stamp=stamp, indexes=indexes)
            log.info("serving index build %s", name)
            return self._build

    def _searcher(self, build: _Build, which: str) -> Searcher:
        cache: dict[str, tuple[str, Searcher]] = getattr(self._local, "searchers", None) or {}
        self._local.searchers = cache
        held = cache.get(which)
        if held is not None and held[0] == build.name:
            searcher = held[1].refresh()
        else:
            if held is not None:
                held[1].close()
            searcher = build.indexes[which].searcher()
        cache[which] = (build.name, searcher)
        return searcher


def _build_query(words: list[str]) -> Query:
    # Each term may match the title or the body; documents matching more terms score
    # higher (BM25F sums the matching clauses).
    return Or([Or([Term("title", word), Term("body", word)]) for word in words])


def _term_weights(searcher: Searcher, words: list[str]) -> dict[str, float]:
    total = max(searcher.doc_count(), 1)
    weights = {}
    for word in words:
        frequency = searcher.doc_frequency("body", word)
        weights[word] = math.log(1 + total / (1 + frequency))
    return weights
