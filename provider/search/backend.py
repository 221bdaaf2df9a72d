"""The Whoosh backend: answers :class:`~provider.contract.backend.SearchQuery` objects
from the index folder, read-only.

Reach by construction (CONTRACT X2): a ``customer_safe`` query opens the ``public``
index, which never contains an internal document nor the text of an internal section
of a public one; only ``agent_only`` opens ``all``. There, a result whose snippet shows
a passage from an internal section is labelled ``internal`` (CONTRACT X6), so an agent
does not pass it on to a customer.

Threads: Litestar runs searches on worker threads and a Whoosh searcher must not be
shared between threads, so each thread keeps its own searchers. A searcher is replaced
by a fresh one when a commit lands or ``CURRENT`` names a new build.

Per request the work is kept small: the query is analysed once, run as an AND of its
terms first and, only if that finds fewer than ``limit`` documents, as an OR to fill
up; snippets come from passages chosen by set lookups over terms stored at index time;
and answers are cached per process (see :class:`ResultCache`).

Never ``Searcher.refresh()``: in whoosh-reloaded 2.7.5 it reuses segment readers by
segment id, so a refreshed searcher keeps the *old* deletion set of a segment and still
finds a document a commit deleted — a public → internal reclassification would keep
reaching ``customer_safe``. Opening a new searcher reads the deletions afresh.
"""

from __future__ import annotations

import logging
import math
import os
import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from whoosh import index as whoosh_index
from whoosh.index import Index
from whoosh.query import And, Or, Term
from whoosh.searching import Searcher

from ..contract.backend import SearchQuery
from ..contract.errors import IndexUnavailable
from ..contract.registrations import Exposure
from ..contract.results import Result
from .analysis import terms
from .layout import ALL, PUBLIC, IndexLayout
from .snippets import best_passage, snippet_span

__all__ = ["MAX_QUERY_TERMS", "ReadyGate", "ResultCache", "WhooshBackend"]

log = logging.getLogger(__name__)

#: Distinct query terms searched; the rest of a very long query is ignored.
MAX_QUERY_TERMS = 32


class ReadyGate(Protocol):
    """Anything with ``is_set()``: a ``threading.Event`` in one process, a marker file
    across worker processes."""

    def is_set(self) -> bool: ...


class ResultCache:
    """A bounded LRU of answers, keyed by reach, build, **index generation** and the
    analysed request.

    Correct by construction: every commit to an index changes its generation and every
    rebuild changes the build name, so an entry can only be found while the index is
    exactly as it was when the entry was made — a reclassified document can never be
    served from the cache. Results are immutable, so entries are shared safely.

    Args:
        max_entries: entries kept; the least recently used is dropped first.
    """

    def __init__(self, max_entries: int = 2048) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[Hashable, tuple[Result, ...]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> tuple[Result, ...] | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return found

    def put(self, key: Hashable, results: tuple[Result, ...]) -> None:
        if self.max_entries <= 0:
            return
        with self._lock:
            self._entries[key] = results
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)


@dataclass
class _Build:
    name: str
    stamp: tuple[int, int]
    indexes: dict[str, Index]


class WhooshBackend:
    """Searches the current build of an index folder.

    Args:
        index_root: the index folder (``index/``).
        ready: when given, searches are refused (``503 index_unavailable``) until it is
            set — the writer sets it once its startup sync has brought the index up to
            date, so nothing stale is served after a restart.
        cache_entries: size of the per-process result cache; 0 disables it.
    """

    implemented_capabilities: frozenset[str] = frozenset()

    def __init__(self, index_root: Path, ready: ReadyGate | None = None, cache_entries: int = 2048) -> None:
        self.layout = IndexLayout(Path(index_root))
        self._ready = ready
        self.cache = ResultCache(cache_entries)
        self._build: _Build | None = None
        self._lock = threading.Lock()
        self._local = threading.local()

    # -- Backend interface ---------------------------------------------------------------

    def is_ready(self) -> bool:
        return (self._ready is None or self._ready.is_set()) and self._current() is not None

    def search(self, query: SearchQuery) -> Sequence[Result]:
        build = self._current()
        if build is None or (self._ready is not None and not self._ready.is_set()):
            raise IndexUnavailable()
        which = PUBLIC if query.reach is Exposure.CUSTOMER_SAFE else ALL
        words = tuple(dict.fromkeys(terms(query.text)))[:MAX_QUERY_TERMS]
        if not words:
            return []
        searcher = self._searcher(build, which)
        key = (query.reach, build.name, which, searcher.ixreader.generation(), words, query.limit,
               query.capabilities, query.locale, query.locale_fallback)
        cached = self.cache.get(key)
        if cached is not None:
            return list(cached)
        results = tuple(self._run(searcher, words, query.limit))
        self.cache.put(key, results)
        return list(results)

    def _run(self, searcher: Searcher, words: tuple[str, ...], limit: int) -> list[Result]:
        clauses = [Or([Term("title", word), Term("body", word)]) for word in words]
        hits = list(searcher.search(And(clauses) if len(clauses) > 1 else clauses[0], limit=limit))
        if len(hits) < limit and len(clauses) > 1:
            # Too few documents have every word: fill up with those having some of them.
            seen = {hit.docnum for hit in hits}
            hits += [hit for hit in searcher.search(Or(clauses), limit=limit) if hit.docnum not in seen]
            hits = hits[:limit]
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
        if held is not None and held[0] == build.name and held[1].up_to_date():
            return held[1]
        if held is not None:
            held[1].close()
        searcher = build.indexes[which].searcher()
        cache[which] = (build.name, searcher)
        return searcher


def _term_weights(searcher: Searcher, words: Sequence[str]) -> dict[str, float]:
    total = max(searcher.doc_count(), 1)
    weights = {}
    for word in words:
        frequency = searcher.doc_frequency("body", word)
        weights[word] = math.log(1 + total / (1 + frequency))
    return weights
