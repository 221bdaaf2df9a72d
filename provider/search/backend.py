"""The Whoosh backend: answers :class:`~helpthread_kit.backend.SearchQuery` objects
from the index folder, read-only.

Reach by construction (CONTRACT X2): a ``customer_safe`` query opens the ``public``
index, which never contains an internal document nor the text of an internal section
of a public one; only ``agent_only`` opens ``all``. There, a result whose snippet shows
a passage from an internal section is labelled ``internal`` (CONTRACT X6), so an agent
does not pass it on to a customer.

Threads: Litestar runs searches on worker threads and a Whoosh searcher must not be
shared between threads, so a search checks a searcher out of a fixed pool per index
(:class:`~provider.search.pool.SearcherPool`, ``search_threads`` of them, whatever the
size of the thread pool) and gives it back. A searcher is replaced by a fresh one when a
commit lands or ``CURRENT`` names a new build.

One search, step by step:

1. **Analysis.** The query is analysed once per analysis language searched, with that
   language's analyzer as stored in the index (:mod:`provider.search.analysis`) — the
   languages of the query's script (:func:`~provider.search.querylang.candidate_languages`),
   or with a request locale only those the locale preference accepts.
2. **Matching.** Per language, an AND of its terms (each in title or body); the languages
   are ORed. Only if that finds too few, an OR of all terms fills up (after every AND hit).
   Without a request locale, first only in the language the query is written in and the
   default locale's; the other languages of its script only when those find too few
   (:func:`~provider.search.querylang.searched_first`).
   A term no document contains is first replaced by the closest indexed term, in the
   languages the query looks written in (typos). Each pass is scored over whole posting
   lists at once (:func:`~provider.search.arrays.top_entries`: Whoosh's own scores and
   order, bit for bit), Whoosh's collectors answering what that does not evaluate.
3. **Locale** (a request ``locale``, CONTRACT Q3/Q4, §5.5). A coarse filter keeps documents
   whose language the preference accepts; more hits than ``limit`` are fetched; each is
   ranked with :meth:`~helpthread_kit.locales.LocalePreference.rank` (BCP 47 lookup,
   then the fallback chain with ``localeFallback``); non-matching ones are dropped, and of
   each translation group only the document in the best-ranked locale is kept (ties: the
   more relevant), at the place of the group's most relevant hit. ``locale`` on a result
   is always the document's own. Without a request locale: no filter, no de-duplication.
4. **Score** (``scoring``): the BM25F score ``s`` becomes ``s / (s + SCORE_HALF)`` in
   [0, 1), then is capped down the final order so it never increases (AND results come
   before OR fill-ups, and locale ranking can move a result).
5. **Snippet**: the best passage, chosen by set lookups over terms stored at index time
   (analysed in the document's language; adjacent query terms standing together count
   extra, :func:`~provider.search.snippets.pair_weights`); each hit is one chunk and its
   snippet comes from that chunk only (without ``chunking`` a document's best-scored
   chunk stands for the whole document, once).
6. **Freshness** (``freshness``), at query time with the clock: a past ``review_due`` →
   ``stale``, a future one → ``current``, none → ``unknown``; a stale translation is stale
   whatever its date, and a translation whose sync state git cannot tell is never
   ``current`` (CONTRACT R6).

Answers are cached per process (:class:`ResultCache`, bounded by entries and by bytes),
keyed by the exposure, the request and the index generation they were made on; an
answer's freshness is judged again from the clock whenever a review date it depends on
has passed. A repeated request is answered from the cache on the event loop
(:meth:`WhooshBackend.answer_from_cache`) when the index directory shows no commit since
the generation was last read — one ``stat``; otherwise, and for everything else, on a
search thread.

Never ``Searcher.refresh()``: in whoosh-reloaded 2.7.5 it reuses segment readers by
segment id, so a refreshed searcher keeps the *old* deletion set of a segment and still
finds a document a commit deleted — a public → internal reclassification would keep
reaching ``customer_safe``. Opening a new searcher reads the deletions afresh.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
import os
import re
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path
from typing import Any, Protocol

from cachetools import LRUCache
from whoosh import index as whoosh_index
from whoosh.collectors import FilterCollector
from whoosh.idsets import BitSet, DocIdSet
from whoosh.index import Index
from whoosh.query import And, Or, Query, Term
from whoosh.query.compound import DefaultOr
from whoosh.reading import ReaderClosed
from whoosh.searching import Searcher

from helpthread_kit.backend import SearchQuery
from helpthread_kit.capabilities import CHUNKING, FRESHNESS, OPTIONAL_CAPABILITIES, SEMANTIC_SEARCH
from helpthread_kit.errors import IndexUnavailable
from helpthread_kit.locales import LocalePreference, preference
from helpthread_kit.plaintext import as_plain_text, without_controls
from helpthread_kit.registrations import Exposure
from helpthread_kit.results import Result

from . import spelling
from .analysis import ANY, analysis_language
from .arrays import POSTINGS, segment_key, top_entries
from .collecting import BestPerKey
from .generation import GENERATIONS, GenerationState
from .grouping import entries_are_documents, languages_with_unmatched_groups
from .layout import ALL, PUBLIC, IndexLayout
from .pool import SearcherPool
from .querylang import candidate_languages, searched_first, stop_words_of, writing_key, written_in
from .schema import SYNC_CURRENT, SYNC_STALE, body_field, code_field, languages_of, title_field
from .segment import CJK
from .segment_files import install as read_segments_in_place
from .selection import Hit, by_locale, by_writing, cap_passages
from .semantic import MeaningSearch, Semantic
from .snippets import best_passage, cited_url, pair_weights, snippet_span
from .spelling import VocabularyIndexes, closest_in

__all__ = [
    "DEFAULT_CACHE_BYTES",
    "FETCH_FACTOR",
    "MAX_QUERY_TERMS",
    "SCORE_HALF",
    "ReadyGate",
    "ResultCache",
    "WhooshBackend",
    "freshness",
    "normalised_score",
]

log = logging.getLogger(__name__)

# Searchers read their segments' sub-files from the memory map, not copies (issue 27).
read_segments_in_place()

#: Distinct query terms searched per language; the rest of a very long query is ignored.
MAX_QUERY_TERMS = 32
#: ``limit`` hits (at least :data:`FETCH_MIN`) are fetched first, FETCH_FACTOR times it, before
#: locale ranking, one answer per translation group and the passage cap; four times more
#: (up to :data:`FETCH_MAX`) only when those left too few and more exist.
FETCH_FACTOR = 1
#: ... times this with chunks.
CHUNK_FETCH_FACTOR = 3
#: ... times this without a request locale in an index of several locales, whole documents:
#: one translation per group is chosen among the documents fetched, so a translation in
#: the query's own language ranked a little below the ``limit``-th document is still seen.
TRANSLATION_FETCH_FACTOR = 3
FETCH_MIN = 10
FETCH_MAX = 400
#: Spelling: a query term no document contains, of at least SPELLING_MIN_CHARS characters,
#: is replaced by the closest indexed term within one edit (Damerau-Levenshtein), two from
#: SPELLING_TWO_EDITS_CHARS characters on (counted on the analysed term: ``basename`` is
#: ``basenam``, so not "basecamp"), no longer or shorter than those edits allow, sharing its
#: first SPELLING_PREFIX characters (a shared prefix of two cuts the terms compared by
#: about ten, at the same relevance);
#: at most SPELLING_MAX_WORDS terms per language and query are corrected.
SPELLING_MIN_CHARS = spelling.MIN_CHARS
SPELLING_TWO_EDITS_CHARS = spelling.TWO_EDITS_CHARS
#: How long (seconds) a search waits for a vocabulary's deletion index another thread
#: (the warm-up) is building, before it goes on without typo correction: well under the
#: search deadline.
SPELLING_WAIT_S = 2.0
SPELLING_PREFIX = spelling.PREFIX
SPELLING_MAX_WORDS = 4
_CJK_CHAR = re.compile(f"[{CJK}]")
_FIELDS = (title_field, body_field, code_field)
#: The raw BM25F score that normalises to 0.5 (``scoring``): ``s / (s + SCORE_HALF)``.
SCORE_HALF = 10.0

Clock = Callable[[], dt.datetime]


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def normalised_score(raw: float) -> float:
    """A raw BM25F score mapped into [0, 1): ``raw / (raw + SCORE_HALF)``."""
    raw = max(raw, 0.0)
    return raw / (raw + SCORE_HALF)


def freshness(due: dt.datetime | None, sync: str | None, now: dt.datetime) -> str:
    """``stale`` when the review date has passed or the translation is stale; ``current``
    when the review date is ahead and the document is not a translation of unknown sync
    state; else ``unknown`` (CONTRACT R6: never ``current`` without a basis)."""
    review = None if due is None else ("stale" if due <= now else "current")
    if review == "stale" or sync == SYNC_STALE:
        return "stale"
    if review == "current" and sync in (None, SYNC_CURRENT):
        return "current"
    return "unknown"


def _rfc3339(due: dt.datetime | None) -> str | None:
    return None if due is None else due.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse_due(value: object) -> dt.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        parsed = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=dt.UTC)


class ReadyGate(Protocol):
    """Anything with ``is_set()``: a ``threading.Event`` in one process, a marker file
    across worker processes."""

    def is_set(self) -> bool: ...


#: Default byte bound of the answer cache (:class:`ResultCache`), per worker.
DEFAULT_CACHE_BYTES = 32 * 1024 * 1024
#: Memory of one cached :class:`~helpthread_kit.results.Result` beyond its strings, and
#: of one answer beyond its results (the entry, its key, the tuples), in bytes: fitted so
#: that :func:`answer_bytes` matches tracemalloc's count of copies of 300 answers of
#: bench/search.py's 10,000-document wiki, about 12 KB each (``bench/memory.py`` prints
#: both figures).
RESULT_OVERHEAD_BYTES = 260
ANSWER_OVERHEAD_BYTES = 900
#: A commit changes the index directory's modification time; a time this recent (in
#: nanoseconds) may still change within the file system's clock tick without showing,
#: so the generation is not taken as known from it until it is older.
SETTLED_NS = 1_000_000_000
#: Seconds a generation read from the folder is trusted by the event-loop look-up at
#: most, even when the folder's stamp has not changed: on a file system that does not
#: update a folder's modification time, a commit is still seen within this long.
GENERATION_TRUST_S = 1.0
#: Seconds between two looks at ``CURRENT`` by :meth:`WhooshBackend.open_ahead`'s follower.
FOLLOW_INTERVAL_S = 0.2
#: The longest wait, in seconds, before the follower tries again a build it could not open.
FOLLOW_RETRY_MAX_S = 5.0
#: Seconds between two lines of a warm-up still running; it runs after ready, while
#: serving, so a line now and then is enough (an operator trial saw one every 5 s for 285 s).
WARM_PROGRESS_S = 30.0


def _freshness_of(result: Result, value: str | None) -> Result:
    """``result`` with ``freshness = value`` (the result itself when it already has it).
    Not ``dataclasses.replace``, which re-runs ``__init__`` through every field: the
    fields are those of a valid result, so a copy of them is one too."""
    if result.freshness == value:
        return result
    copy = object.__new__(type(result))
    copy.__dict__.update(result.__dict__)
    copy.__dict__["freshness"] = value
    return copy


class _Answer:
    """One cached answer: its results with freshness judged at ``judged[1]``, valid until
    ``judged[2]`` (the next review date among them, ``None``: for ever).

    Args:
        build, generation: the index build and generation it was searched on.
        found: the results before the clock, best first.
        judge: whether freshness is set on the results (``freshness`` declared, or
            all fields kept).
        now: the time of the answer.
        size: the bytes it holds (:func:`answer_bytes`).
    """

    __slots__ = ("basis", "build", "generation", "judge", "judged", "size")

    def __init__(self, build: str, generation: int, found: Sequence[_Found], judge: bool, now: dt.datetime,
                 size: int) -> None:
        self.build = build
        self.generation = generation
        self.judge = judge
        self.basis = tuple((f.due, f.sync) for f in found) if judge else ()
        self.size = size
        self.judged = self._judge(tuple(f.result for f in found), now)

    def _judge(self, results: tuple[Result, ...], now: dt.datetime
               ) -> tuple[tuple[Result, ...], dt.datetime, dt.datetime | None]:
        if not self.judge:
            return results, now, None
        results = tuple(_freshness_of(result, freshness(due, sync, now))
                        for result, (due, sync) in zip(results, self.basis, strict=True))
        later = [due for due, _ in self.basis if due is not None and due > now]
        return results, now, min(later) if later else None

    def at(self, now: dt.datetime) -> tuple[Result, ...]:
        """The results with freshness as of ``now``: the same tuple until a review date
        among them passes (or the clock goes back), then judged again."""
        judged = self.judged  # one read: another thread may replace it
        results, since, until = judged
        if since <= now and (until is None or now < until):
            return results
        judged = self._judge(results, now)
        self.judged = judged
        return judged[0]


def answer_bytes(key_text: str, found: Sequence[_Found]) -> int:
    """An estimate of the memory one cached answer holds, in bytes: its strings as
    Python stores them plus :data:`RESULT_OVERHEAD_BYTES` per result and
    :data:`ANSWER_OVERHEAD_BYTES` for the entry and its key."""
    total = ANSWER_OVERHEAD_BYTES + sys.getsizeof(key_text)
    for f in found:
        r = f.result
        total += RESULT_OVERHEAD_BYTES
        for value in (r.document_id, r.title, r.snippet, r.revision, r.chunk_id, r.url, r.locale,
                      r.review_due_at, r.translation_group_id):
            if value is not None:
                total += sys.getsizeof(value)
    return total


class ResultCache:
    """A bounded LRU of answers, keyed by exposure, index and request; each answer
    records the build and **index generation** it was searched on.

    Correct by construction: an answer is given only while its index is at the
    generation it was made on (every commit changes it, every rebuild the build name),
    so a reclassified document can never come back from the cache (CONTRACT X7); and
    the key starts with the request's exposure and the index searched, so an answer
    made for ``agent_only`` is never given to ``customer_safe`` (X2). Results are
    immutable, so answers are shared safely between threads.

    Args:
        max_entries: answers kept at most; the least recently used goes first.
        max_bytes: bytes the answers hold at most, by :func:`answer_bytes` (an answer
            larger than this alone is not kept).
    """

    def __init__(self, max_entries: int = 2048, max_bytes: int = DEFAULT_CACHE_BYTES) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        # Bounded by bytes here (the least recently used out first), by entries in put().
        self._entries: LRUCache[Hashable, _Answer] = LRUCache(max(max_bytes, 0), getsizeof=attrgetter("size"))
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @property
    def enabled(self) -> bool:
        return self.max_entries > 0 and self.max_bytes > 0

    @property
    def bytes(self) -> int:
        """What the kept answers hold, by :func:`answer_bytes`."""
        return int(self._entries.currsize)

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable) -> _Answer | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                self.misses += 1
                return None
            self.hits += 1
            return found

    def put(self, key: Hashable, answer: _Answer) -> None:
        if not self.enabled or answer.size > self.max_bytes:
            return
        with self._lock:
            self._entries[key] = answer
            while len(self._entries) > self.max_entries:
                self._entries.popitem()


@dataclass
class _Build:
    name: str
    stamp: tuple[int, int]
    indexes: dict[str, Index]
    #: per index, its analysis languages (read once from the schema, not per request)
    languages: dict[str, tuple[str, ...]]
    #: per index, its folder (a commit changes its modification time)
    folders: dict[str, str]


@dataclass(frozen=True)
class _Found:
    """A result before the clock is applied: freshness is computed on every answer."""

    result: Result
    due: dt.datetime | None
    sync: str | None


class WhooshBackend:
    """Searches the current build of an index folder.

    Args:
        index_root: the index folder (``index/``).
        ready: when given, searches are refused (``503 index_unavailable``) until it is
            set — the writer sets it once its startup sync has brought the index up to
            date, so nothing stale is served after a restart.
        cache_entries: answers the per-process cache keeps at most; 0 disables it.
        cache_bytes: bytes those answers hold at most (:func:`answer_bytes`); 0
            disables the cache.
        fallback_locales: the operator's fallback chain of canonical tags, the default
            locale last (used with ``localeFallback``).
        default_locale: the wiki's default locale (without a request locale, the
            translation a query in no evident language gets); default: the chain's last.
        clock: the current time, aware (freshness is judged with it).
        searchers: the most Whoosh searchers open per index (the worker's
            ``search_threads``); a search beyond that many at once waits for one.
        declared_only: return only the fields of ``query.capabilities`` (CONTRACT R4)
            rather than every field the index has. The contract layer counts removing
            an undeclared field as a backend fault, so the application asks for this;
            done once per cached answer, not per request.
        semantic: implement ``semanticSearch`` with this model and fusion (a query
            declaring it is matched by meaning too, over an index built with vectors of
            the same model); ``None``: lexical only.
    """

    #: Every optional capability but ``semanticSearch`` (this is lexical BM25F search).
    implemented_capabilities: frozenset[str] = frozenset(OPTIONAL_CAPABILITIES) - {SEMANTIC_SEARCH}

    def __init__(
        self,
        index_root: Path,
        ready: ReadyGate | None = None,
        cache_entries: int = 2048,
        *,
        cache_bytes: int = DEFAULT_CACHE_BYTES,
        fallback_locales: Sequence[str] = (),
        default_locale: str | None = None,
        clock: Clock = utc_now,
        searchers: int = 4,
        declared_only: bool = False,
        semantic: Semantic | None = None,
    ) -> None:
        self.layout = IndexLayout(Path(index_root))
        #: ``semanticSearch`` (the operator's switch): how queries are embedded and fused.
        self.semantic = semantic
        if semantic is not None:
            self.implemented_capabilities = WhooshBackend.implemented_capabilities | {SEMANTIC_SEARCH}
        self._ready = ready
        self.cache = ResultCache(cache_entries, cache_bytes)
        self.declared_only = declared_only
        #: per index: (build name, its folder's stamp, the latest generation read then,
        #: when — monotonic seconds)
        self._seen: dict[str, tuple[str, tuple[int, int, int], int, float]] = {}
        self.fallback_locales = tuple(fallback_locales)
        # The configuration's fallback chain ends with the default locale.
        self.default_locale = default_locale or (self.fallback_locales[-1] if self.fallback_locales else "en")
        self._clock = clock
        self._build: _Build | None = None
        self._lock = threading.Lock()
        self.pools = {PUBLIC: SearcherPool(searchers), ALL: SearcherPool(searchers)}
        #: set by :meth:`open_ahead`: not ready until a build is open and warm
        self._following = threading.Event()
        #: the stamp of ``CURRENT`` whose build the follower last opened and warmed
        self._warm_stamp: tuple[int, int] | None = None
        #: builds opened (index files read, analysers loaded) by a request or readiness
        #: check rather than ahead of them by :meth:`open_ahead`'s follower
        self.opened_on_demand = 0
        #: builds opened and warmed ahead by the follower
        self.opened_ahead = 0
        self.warmed_ahead = 0  # builds whose spelling vocabularies and posting lists the follower warmed
        #: the last build whose warm-up was started (by the follower or beside a request)
        self._warmed_name: str | None = None
        #: the follower's latest warm-up thread (each waits for the one before it)
        self._warming: threading.Thread | None = None

    # -- Backend interface ---------------------------------------------------------------

    def is_ready(self) -> bool:
        if self._ready is not None and not self._ready.is_set():
            return False
        if self._following.is_set() and self._warm_stamp is None:
            return False  # the follower is opening and warming the first build
        return self._current() is not None

    def search(self, query: SearchQuery) -> Sequence[Result]:
        try:
            return self._search(query)
        except (OSError, whoosh_index.EmptyIndexError, ReaderClosed):
            # A rebuild was swapped in between finding the served build and reading it:
            # once more, on fresh searchers of the build served now.
            for pool in self.pools.values():
                pool.clear()
            return self._search(query)

    def answer_from_cache(self, query: SearchQuery) -> Sequence[Result] | None:
        """The cached answer to ``query`` if the index is provably at the generation it
        was made on, else ``None`` (:class:`~helpthread_kit.backend.CachedAnswers`).

        Never blocks: a dictionary look-up, then for an answer found a ``stat`` of
        ``CURRENT`` and of the index folder. The generation counts as known while the folder's stamp is the one seen
        when it was last read (:meth:`_note_generation`, on a search thread) — every
        commit renames a new table of contents into the folder, which changes it — and
        for at most :data:`GENERATION_TRUST_S` after that read, so about once a second a
        repeated request is answered on a search thread, which reads it again.
        """
        if not self.cache.enabled or (self._ready is not None and not self._ready.is_set()):
            return None
        build = self._build
        if build is None:
            return None  # no build open yet: the search thread opens it
        which = PUBLIC if query.reach is Exposure.CUSTOMER_SAFE else ALL
        seen = self._seen.get(which)
        if seen is None or seen[0] != build.name or time.monotonic() - seen[3] > GENERATION_TRUST_S:
            return None
        # The look-up before the two stats: a query never asked before (most of them)
        # costs no system call on the event loop, which would let go of the GIL and wait
        # for a search thread to hand it back.
        answer = self.cache.get(self._cache_key(query, which))
        if answer is None or answer.build != build.name or answer.generation != seen[2]:
            return None
        if _file_stamp(self.layout.current_file) != build.stamp:
            return None  # a rebuild to open: the search thread does it
        if _folder_stamp(build.folders[which]) != seen[1]:
            return None  # a commit since: the search thread reads the new generation
        return answer.at(self._clock())

    def _cache_key(self, query: SearchQuery, which: str) -> Hashable:
        # The exposure first: an answer is only ever found again for the same reach.
        return (query.reach, which, query.text, query.limit, query.capabilities, query.locale,
                query.locale_fallback)

    def _note_generation(self, build: _Build, which: str) -> None:
        """Record the index's latest generation with its folder's stamp, read in this
        order (so the generation is at least as new as the stamp), for
        :meth:`answer_from_cache`; forget it while the folder changed too recently for
        its stamp to prove anything (:data:`SETTLED_NS`)."""
        folder = build.folders[which]
        stamp = _folder_stamp(folder)
        seen = self._seen.get(which)
        read_at = time.monotonic()
        if (seen is not None and seen[0] == build.name and seen[1] == stamp
                and read_at - seen[3] < GENERATION_TRUST_S / 2):
            return
        if stamp is None or time.time_ns() - max(stamp[1], stamp[2]) < SETTLED_NS:
            self._seen.pop(which, None)
            return
        self._seen[which] = (build.name, stamp, build.indexes[which].latest_generation(), read_at)

    def _search(self, query: SearchQuery) -> Sequence[Result]:
        build = self._current()
        if build is None or (self._ready is not None and not self._ready.is_set()):
            raise IndexUnavailable()
        which = PUBLIC if query.reach is Exposure.CUSTOMER_SAFE else ALL
        key = self._cache_key(query, which)
        if self.cache.enabled:
            self._note_generation(build, which)
        with self.pools[which].checkout(build.name, lambda: self._open_searcher(build, which)) as searcher:
            generation = searcher.ixreader.generation()
            answer = self.cache.get(key) if self.cache.enabled else None
            if answer is not None and answer.build == build.name and answer.generation == generation:
                return answer.at(self._clock())
            found = self._search_with(searcher, build, which, query)
        if self.declared_only:
            found = [_Found(f.result.only_declared(query.capabilities), f.due, f.sync) for f in found]
        judge = FRESHNESS in query.capabilities or not self.declared_only
        answer = _Answer(build.name, generation, found, judge, self._clock(), answer_bytes(query.text, found))
        self.cache.put(key, answer)
        return answer.judged[0]

    def _search_with(self, searcher: Searcher, build: _Build, which: str, query: SearchQuery) -> list[_Found]:
        languages = build.languages[which]
        pref = (preference(query.locale, fallback=query.locale_fallback, chain=self.fallback_locales)
                if query.locale else None)
        # Only the languages the query can be in: those the locale accepts, or without a
        # locale those of the query's script (the cost does not grow with the locales).
        searched = candidate_languages(query.text, languages) if pref is None else tuple(
            dict.fromkeys(analysis_language(lang, languages) for lang in sorted(pref.accepted_languages)))
        # A language without documents in this index cannot match (nor tell a query's language).
        counts = _index_info(searcher, languages).counts
        searched = tuple(lang for lang in searched if counts.get(lang, 0) > 0)
        words = {}
        for language in searched:
            # A query of stop words only (in this language) searches its words rather than nothing.
            found = (_analysed(searcher, language, query.text)
                     or _analysed(searcher, language, query.text, keep_stop_words=True))
            if found:
                words[language] = found
        if not words:
            return []
        return self._run(searcher, languages, words, query, pref)

    def _run(
        self, searcher: Searcher, languages: Sequence[str], words: Mapping[str, tuple[str, ...]], query: SearchQuery,
        pref: LocalePreference | None,
    ) -> list[_Found]:
        limit = query.limit
        info = _index_info(searcher, languages)
        default_language = analysis_language(self.default_locale, languages)
        preferred_filter = None
        if pref is None:
            stops = {lang: _stop_hits(searcher, lang, query.text) for lang in words}
            written = written_in(words, stops, lambda lang, term: _frequency(searcher, lang, term), info.counts,
                                 default_language, query.text)
            allowed = {key.split("-", 1)[0] for key in written}
            locale_filter = None
        else:
            allowed = set(words)
            wanted = [locale for locale in info.locales if pref.rank(locale) is not None]
            if not wanted:
                return []
            # Only the locales the preference accepts, and no filter when that is all of them.
            locale_filter = None if len(wanted) == len(info.locales) else _accepted_docs(searcher, tuple(wanted))
            # With a fallback chain, the best-ranked locale is also searched alone: of a
            # translation group the preferred translation must be among the candidates
            # whatever the limit (the English original outscored it on English words, and
            # the answer's language changed with the limit: English at 3, Japanese at 8).
            best_rank = min(pref.rank(locale) or 0 for locale in wanted)
            preferred = tuple(locale for locale in wanted if (pref.rank(locale) or 0) == best_rank)
            preferred_filter = (_accepted_docs(searcher, preferred)
                                if len(preferred) < len(wanted) else None)
        words = _spelling(searcher, words, allowed)
        keys: dict[str, str] = {}

        def key_of(locale: str) -> str:
            if locale not in keys:
                keys[locale] = writing_key(analysis_language(locale, languages), locale)
            return keys[locale]

        default_key = key_of(self.default_locale.lower())
        whole = CHUNKING not in query.capabilities or entries_are_documents(searcher)
        # A document answered once: the best entry of each document
        # (:class:`~provider.search.collecting.BestPerKey`), so ``limit`` documents are found at
        # once. With chunks, the best entries: a document's passages are shown together at
        # its best one's place, so its second passage counts even if it ranks below others.
        per_document = 1 if whole else None
        # Chunks: the passage cap holds back a document's third passage, so fetch more at once.
        factor = FETCH_FACTOR * (CHUNK_FETCH_FACTOR if info.chunked and not whole else 1)
        if pref is None and whole and len(info.locales) > 1:
            factor = max(factor, TRANSLATION_FETCH_FACTOR)
        fetch = min(max(limit * factor, FETCH_MIN), FETCH_MAX)
        # Without a locale: the query's own language and the default first, the rest of its
        # script only to fill up (the cost does not grow with the locales sharing its words).
        first, later = searched_first(words, written, default_language) if pref is None else (dict(words), {})
        if later:
            # Only languages holding an article the first ones lack can add an answer.
            open_languages = languages_with_unmatched_groups(
                searcher, _columns(searcher), first, lambda locale: analysis_language(locale, languages))
            later = {lang: ws for lang, ws in later.items() if lang in open_languages}
        meaning = self._meaning(searcher, languages, query, allowed, None if pref is None else wanted)
        while True:
            found = self._match(searcher, first, fetch, locale_filter, per_document)
            if later and len(found) < fetch:
                # Another language's fields hold other documents: no hit can repeat.
                found += self._match(searcher, later, fetch - len(found), None, per_document)
            if preferred_filter is not None:
                seen = {hit.docnum for hit in found}
                found += [hit for hit in self._match(searcher, first, fetch, preferred_filter, per_document)
                          if hit.docnum not in seen]
            lexical_docnums = {hit.docnum for hit in found}
            if meaning is not None:
                found = meaning.fused(searcher, _columns(searcher), found, fetch, per_document)
            chosen = by_locale(found, pref) if pref is not None else by_writing(found, key_of, written, default_key)
            hits, short = cap_passages(chosen, limit, whole_documents=whole)
            # More hits may exist and were needed: fetch more (rarely: a locale filter
            # keeps only what it accepts, so only translation groups can thin them).
            if not short or len(found) < fetch or fetch >= FETCH_MAX:
                break
            fetch = min(fetch * 4, FETCH_MAX)
        passage_of = None
        if meaning is not None:
            found_by = meaning

            def passage_of(docnum: int) -> int | None:
                # The words' best passage for what they found, the nearest one for the rest.
                return None if docnum in lexical_docnums else found_by.passage(searcher, docnum)
        return _results(searcher, hits, languages, words, query.text, passage_of)

    def _meaning(self, searcher: Searcher, languages: Sequence[str], query: SearchQuery,
                 written: Collection[str], wanted: Sequence[str] | None) -> MeaningSearch | None:
        """The vector half of a ``semanticSearch`` query (``None``: lexical only): over the
        entries in the ``wanted`` locales (the request's), else in a language the query is
        written in (``written``: language subtags), and of those only in languages the
        model serves."""
        if self.semantic is None or SEMANTIC_SEARCH not in query.capabilities:
            return None
        served = self.semantic.embedder.languages
        info = _index_info(searcher, languages)
        candidates = wanted if wanted is not None else [
            locale for locale in info.locales if locale.split("-", 1)[0] in written]
        locales = frozenset(locale for locale in candidates if served is None or locale.split("-", 1)[0] in served)
        if not locales:
            return None
        vector = self.semantic.embedder.embed_query(query.text)
        if not vector.any():
            return None
        return MeaningSearch(self.semantic, vector, locales)

    @staticmethod
    def _match(
        searcher: Searcher, words: Mapping[str, tuple[str, ...]], fetch: int, accepted: DocIdSet | None,
        per_document: int | None = None,
    ) -> list[Hit]:
        """First an AND of the query's terms per language — for each language whose
        documents know every term (another language's AND could only be empty) — the
        languages ORed. Then, if that found fewer than ``fetch``, an OR of the terms of
        every language that knows any of them fills up after them. Hits carry their
        locale, group and path from the index's columns; stored fields are not loaded.
        With ``per_document``, at most that many entries of one document (file) are
        among the ``fetch`` hits (:class:`~provider.search.collecting.BestPerKey`; the
        fill-up then keeps only the places the AND left, counting the AND's documents),
        else the ``fetch`` best entries.

        (Requiring only the terms a language knows was tried: it helped German questions
        with English product words, but let a word the wiki lacks drop out of an English
        AND, which then favoured the wrong documents; on the relevance sets it was no
        better, so the plain AND stayed.)"""

        def terms_of(language: str, word: str) -> list[Query]:
            # Only the fields that hold the word: no matcher is built for an absent term.
            dfs = _dfs(searcher, language, word)
            return [Term(field(language), word) for field, df in zip(_FIELDS, dfs, strict=True) if df]

        def clause(language: str, word: str) -> Query:
            found = terms_of(language, word)
            # A binary tree of unions: Whoosh's automatic choice for three or more
            # clauses on a small index preloads every posting into an array, slower here.
            return found[0] if len(found) == 1 else DefaultOr(found)

        columns = _columns(searcher)

        def hit_of(docnum: int, score: float) -> Hit:
            return Hit(docnum, score, columns[0][docnum], columns[1][docnum], columns[2][docnum])

        def top(query: Query, count: int, taken: Counter[str] | None = None, skip: Collection[int] = ()
                ) -> list[tuple[float, int]]:
            # Whole posting lists scored at once (numpy), the same answer as the collectors
            # below; they answer what it cannot evaluate.
            found = top_entries(searcher, query, count, key_of=None if per_document is None else columns[2].__getitem__,
                                taken=taken, skip=skip, accepted=accepted) if per_document in (None, 1) else None
            if found is not None:
                return found
            if per_document is None:
                return [(hit.score, hit.docnum) for hit in searcher.search(query, limit=count, filter=accepted)]
            best = BestPerKey(count, columns[2].__getitem__, per_document, taken=taken, skip=skip)
            searcher.search_with_collector(query, best if accepted is None else FilterCollector(best, allow=accepted))
            return best.best()

        known = {language: [w for w in ws if _indexed(searcher, language, w)] for language, ws in words.items()}
        required = {language: ws for language, ws in words.items() if len(known[language]) == len(ws)}
        hits: list[Hit] = []
        if required:
            every = Or([And([clause(lang, w) for w in ws]) if len(ws) > 1 else clause(lang, ws[0])
                        for lang, ws in required.items()])
            hits = [hit_of(docnum, score) for score, docnum in top(every, fetch)]
        some_words = [(lang, w) for lang, ws in known.items() for w in ws]
        if len(hits) < fetch and some_words and (not required or any(len(ws) > 1 for ws in words.values())):
            # Too few documents have every word: fill up with those having some of them.
            seen = {hit.docnum for hit in hits}
            some = Or([term for lang, w in some_words for term in terms_of(lang, w)])
            if per_document is None:
                found = top(some, fetch)
            else:
                # Only the places left, the AND's entries and documents counted already (as
                # the passage cap would count them): the higher threshold skips more.
                found = top(some, fetch - len(hits), Counter(hit.path for hit in hits), seen)
            for score, docnum in found:
                if docnum not in seen and len(hits) < fetch:
                    hits.append(hit_of(docnum, score))
        return hits

    # -- internals -----------------------------------------------------------------------

    def open_ahead(self, interval_s: float = FOLLOW_INTERVAL_S) -> threading.Thread:
        """Follow ``CURRENT`` in a thread: open each build it names and warm it up —
        index files, the spelling vocabularies, the longest posting lists — as soon as it
        appears, rather than in the first request after it. A serving worker calls this
        as it starts; from then on :meth:`is_ready` is false until the first build is open
        (index files, index summaries). The Japanese, Chinese and Korean segmenters are
        not loaded here: each by the first query in its script
        (:mod:`~provider.search.segment`), so a worker holds only the dictionaries of the
        languages it was asked in. The spelling vocabularies and posting lists are warmed right after,
        in a thread of their own, so that the follower keeps following meanwhile; a build
        replaced while warming stops being warmed, and the next build's warm-up starts
        only once it has stopped. A request that arrives after ``CURRENT`` changed but
        before the follower has opened that build opens it itself, as without the
        follower (never an answer from the build replaced).

        Args:
            interval_s: seconds between two looks at ``CURRENT`` (a ``stat``).

        Returns the thread (daemon; it runs as long as the process)."""
        self._following.set()
        thread = threading.Thread(target=self._follow, args=(interval_s,), daemon=True, name="kp-open-ahead")
        thread.start()
        return thread

    def _follow(self, interval_s: float) -> None:
        wait_s = interval_s
        while True:
            stamp = _file_stamp(self.layout.current_file)
            if stamp is not None and stamp != self._warm_stamp:
                try:
                    self._open_and_warm(stamp)
                except Exception:  # retried later; a request opening it reports it
                    log.debug("opening the index ahead failed", exc_info=True)
                # A build that cannot be opened (logged by _current) is tried again less
                # and less often, not every interval.
                wait_s = interval_s if self._warm_stamp == stamp else min(wait_s * 2, FOLLOW_RETRY_MAX_S)
            else:
                wait_s = interval_s
            time.sleep(wait_s)

    def _open_and_warm(self, stamp: tuple[int, int]) -> None:
        started = time.monotonic()
        build = self._current(ahead=True)
        if build is None or build.stamp != stamp:
            return  # not opened (an error logged), or CURRENT changed again: the next look
        if build.name == self._warmed_name:
            self._warm_stamp = build.stamp
            return
        # Ready once the index files and the analysers are loaded and the index summaries
        # computed: what every first query needs. The spelling vocabularies and posting
        # lists only help some queries and take long on a large multilingual site, so they
        # are warmed after ready (a query needing one meanwhile builds it itself).
        if not self._warm_summaries(build):
            return  # the build went away meanwhile: a later look warms the next one
        self._warmed_name = build.name
        self.opened_ahead += 1
        self._warm_stamp = build.stamp
        log.info("index build %s open in %.2f s (%s); warming its spelling vocabularies and posting lists",
                 build.name, time.monotonic() - started,
                 ", ".join(sorted(set(build.languages[PUBLIC]) | set(build.languages[ALL]))) or "no language")
        # The warm-up takes minutes on a large multilingual site: in its own thread, so
        # that the follower goes on opening each new build ahead of the requests. It
        # first waits for the warm-up before it, which stops as soon as this build is
        # served: one warm-up at a time, the memory of one build's vocabularies.
        self._warming = threading.Thread(target=self._warm_ahead, args=(build, started, self._warming),
                                         daemon=True, name="kp-warm")
        self._warming.start()

    def _warm_ahead(self, build: _Build, started: float, previous: threading.Thread | None) -> None:
        if previous is not None:
            previous.join()
        done = threading.Event()
        saying = threading.Thread(target=_say_while, args=(done, started, build.name), daemon=True,
                                  name="kp-warm-progress")
        saying.start()
        try:
            warm = self._warm_spelling(build)
        finally:
            done.set()
            saying.join()  # its last line before the one saying the build is warm
        if not warm:
            log.info("index build %s no longer served: its warm-up stopped after %.2f s",
                     build.name, time.monotonic() - started)
            return
        self.warmed_ahead += 1
        log.info("index build %s warm in %.2f s", build.name, time.monotonic() - started)

    def _warm_summaries(self, build: _Build) -> bool:
        """Compute the generation's index summaries, which the first search of each index
        would otherwise compute (a walk over the whole path lexicon, :func:`_index_info`);
        kept for the searchers of this generation (:mod:`provider.search.generation`).
        Returns false when the build went away meanwhile (a later look opens the next)."""
        # The searcher is closed, not left idle in a pool: one of an index nobody
        # searches would keep the files of its generation open after later commits.
        for which in (PUBLIC, ALL):
            try:
                with self._open_searcher(build, which) as found:
                    _index_info(found, build.languages[which])
            except (OSError, whoosh_index.EmptyIndexError, ReaderClosed) as exc:
                log.debug("searcher warm-up of build %s stopped: %s", build.name, exc)
                return False
        return True

    def _warm_spelling(self, build: _Build) -> bool:
        """Build the spelling vocabularies of ``build`` and read its longest posting lists
        ahead. Returns false when it stopped early: the build is no longer the one served
        (a warm-up of a build replaced would only fill memory), or went away."""
        def replaced() -> bool:
            return self._build is not build

        for which, index in build.indexes.items():
            try:
                with index.reader() as reader:
                    for language in build.languages[which]:
                        if replaced():
                            return False
                        VOCABULARY.of(self._scope(build, which), reader,
                                      [field(language) for field in _FIELDS], language, stop=replaced)
            except (OSError, whoosh_index.EmptyIndexError, ReaderClosed) as exc:
                log.debug("spelling warm-up of build %s stopped: %s", build.name, exc)
                return False
        # The longest posting lists, read ahead for the first searches: the public index's
        # up to a quarter of the bound (most requests are customer_safe), then the agent
        # index's up to half; later segments (commits) are read as searches need them.
        for share, which in ((0.25, PUBLIC), (0.5, ALL)):
            try:
                with build.indexes[which].reader() as reader:
                    scope = self._scope(build, which)
                    fields = [field(language) for language in build.languages[which] for field in _FIELDS]
                    for leaf, _ in reader.leaf_readers():
                        POSTINGS.warm(leaf, segment_key(scope, leaf), fields, share=share, stop=replaced)
            except (OSError, whoosh_index.EmptyIndexError, ReaderClosed) as exc:
                log.debug("posting warm-up of build %s stopped: %s", build.name, exc)
                return False
        return not replaced()

    def _warm_on_demand(self, build: _Build) -> None:
        if self._warm_summaries(build):
            self._warm_spelling(build)

    def _scope(self, build: _Build, which: str) -> str:
        """The name of one index of a build (its folder), under which the per-segment
        deletion indexes and posting lists are kept: never shared by the public and the
        agent index."""
        return str(self.layout.build_dir(build.name) / which)

    def _open_searcher(self, build: _Build, which: str) -> Searcher:
        searcher = build.indexes[which].searcher()
        # Names the index for the vocabulary's deletion indexes and the posting lists.
        searcher._kp_scope = scope = self._scope(build, which)
        # What every searcher of this generation computes alike (index summary, document
        # frequencies) is computed once for all of them.
        searcher._kp_shared = GENERATIONS.of(scope, searcher.ixreader.generation())
        return searcher

    def _current(self, *, ahead: bool = False) -> _Build | None:
        """The build named by ``CURRENT``, opened once per process and reopened on change
        (``ahead``: by the follower of :meth:`open_ahead`, which then warms it itself)."""
        stamp = _file_stamp(self.layout.current_file)
        if stamp is None:
            return None
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
            languages = {sub: languages_of(index.schema) for sub, index in indexes.items()}
            # The segmenters (Japanese, Chinese, Korean dictionaries, 70–250 MiB each) are
            # not loaded here but by the first query in their script: a worker whose
            # queries are all in other languages never holds one (issue 27).
            log.info("opening index build %s (languages %s)", name,
                     ", ".join(sorted(set(languages[PUBLIC]) | set(languages[ALL]))) or "none")
            folders = {sub: str(path / sub) for sub in indexes}
            self._build = _Build(name=name, stamp=stamp, indexes=indexes, languages=languages, folders=folders)
            log.info("serving index build %s", name)
            if not ahead:
                self.opened_on_demand += 1
                self._warmed_name = name
                # The index summaries and the vocabulary's deletion indexes, built aside
                # rather than in a first search.
                threading.Thread(target=self._warm_on_demand, args=(self._build,), daemon=True,
                                 name="kp-spelling-warm").start()
            return self._build


def _say_while(done: threading.Event, started: float, name: str) -> None:
    """Log a line every :data:`WARM_PROGRESS_S` seconds until ``done`` is set."""
    while not done.wait(WARM_PROGRESS_S):
        log.info("warming index build %s (serving meanwhile): spelling vocabularies and posting lists, "
                 "%.0f s so far", name, time.monotonic() - started)


def _results(searcher: Searcher, hits: Sequence[Hit], languages: Sequence[str],
             words: Mapping[str, tuple[str, ...]], text: str,
             passage_of: Callable[[int], int | None] | None = None) -> list[_Found]:
    """The results of ``hits`` (best first): stored fields, the best passage as the
    snippet for the query's words analysed like the document's language (or the one
    ``passage_of`` a hit's docnum gives, when not ``None``: a hit found by meaning only),
    scores that never rise down the list."""
    weights: dict[str, dict[str, float]] = {}
    results = []
    ceiling = 1.0
    for hit in hits:
        stored = searcher.stored_fields(hit.docnum)
        doc = stored["doc"]
        language = analysis_language(doc["locale"], languages)
        if language not in weights:
            # Query terms analysed like the document's passages were.
            mine = words.get(language) or _analysed(searcher, language, text)
            weights[language] = pair_weights(mine, _term_weights(searcher, mine, language))
        start = passage_of(hit.docnum) if passage_of is not None else None
        if start is None or start >= len(stored["passages"]):
            start = best_passage(stored["passage_terms"], weights[language], code=stored.get("passage_code") or ())
        snippet, shown = snippet_span(stored["passages"], start)
        # A public article's internal section is shown to agents only, and labelled
        # internal when the snippet includes it, so it is not passed on to a customer.
        internal = set(stored.get("passage_internal") or ()).intersection(shown)
        ceiling = min(ceiling, normalised_score(hit.raw_score))
        due = _parse_due(doc.get("review_due"))
        result = Result(
            document_id=doc["id"],
            title=as_plain_text(without_controls(doc["title"])),
            snippet=snippet,
            audience="internal" if internal else doc["audience"],
            revision=doc["revision"],
            chunk_id=doc.get("chunk"),
            url=cited_url(doc, start),
            locale=doc["locale"],
            score=round(ceiling, 4),
            review_due_at=_rfc3339(due),
            translation_group_id=doc.get("group"),
        )
        results.append(_Found(result, due, doc.get("sync")))
    return results


def _file_stamp(path: Path | str) -> tuple[int, int] | None:
    """``(inode, mtime in ns)`` of a file (``CURRENT`` is replaced by a rename), or ``None``."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_mtime_ns


def _folder_stamp(path: str) -> tuple[int, int, int] | None:
    """``(inode, mtime, ctime in ns)`` of a folder, or ``None`` when it is gone."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns, st.st_ctime_ns


def _analysed(searcher: Searcher, language: str, text: str, *, keep_stop_words: bool = False) -> tuple[str, ...]:
    """The distinct terms of ``text`` as the index analysed ``language`` — with the
    analyzer stored in the index's schema, so a query meets the documents even if the
    code's analyzers changed since the index was built. Stop words are dropped unless
    ``keep_stop_words`` (they are indexed: :class:`~provider.search.analysis.QueryStopFilter`)."""
    analyzer = searcher.schema[body_field(language)].analyzer
    tokens = analyzer(text, removestops=not keep_stop_words)
    return tuple(dict.fromkeys(token.text for token in tokens))[:MAX_QUERY_TERMS]


def _stop_hits(searcher: Searcher, language: str, text: str) -> int:
    """How many of the query's words are stop words of ``language`` (a sign of the
    language it is written in)."""
    analyzer = searcher.schema[body_field(language)].analyzer
    stops = stop_words_of(analyzer)
    if not stops:
        return 0
    return sum(1 for token in analyzer(text, removestops=False) if token.stopped)


def _frequency(searcher: Searcher, language: str, word: str) -> int:
    return max(_dfs(searcher, language, word))


@dataclass(frozen=True)
class _IndexInfo:
    """What a searcher's index holds, read once per searcher: documents (or chunks) per
    analysis language, and the locales present (lowercased)."""

    counts: dict[str, int]
    locales: tuple[str, ...]
    #: whether the index holds chunks (more entries than files)
    chunked: bool = False


def _index_info(searcher: Searcher, languages: Sequence[str]) -> _IndexInfo:
    """The searcher's :class:`_IndexInfo`, computed once per index generation
    (:mod:`provider.search.generation`) — it walks the whole ``path`` lexicon."""
    shared: GenerationState | None = getattr(searcher, "_kp_shared", None)
    info: _IndexInfo | None = shared.info if shared is not None else getattr(searcher, "_kp_info", None)
    if info is None:
        # Live documents, not doc_frequency: a term's frequency still counts documents an
        # edit deleted until their segment merges, and the surplus made ANY's count 0 —
        # every language without its own analysis (Hindi, Polish…) unsearchable after edits.
        counts = {lang: sum(1 for _ in searcher.docs_for_query(Term("lang", lang)))
                  for lang in languages if lang != ANY}
        counts[ANY] = max(int(searcher.doc_count()) - sum(counts.values()), 0)
        locales = tuple(term.decode("utf-8") if isinstance(term, bytes) else str(term)
                        for term in searcher.reader().lexicon("locale"))
        files = sum(1 for _ in searcher.reader().lexicon("path"))
        info = _IndexInfo(counts, locales, chunked=int(searcher.doc_count()) > files)
        if shared is not None:
            shared.info = info
        else:
            searcher._kp_info = info
    return info


#: Locale filters remembered per searcher (each a different set of accepted locales).
FILTER_CACHE_ENTRIES = 64


def _accepted_docs(searcher: Searcher, locales: tuple[str, ...]) -> DocIdSet:
    """The documents in ``locales``, as the set Whoosh filters with. Built once per
    searcher (one index generation) and set of locales: Whoosh would otherwise rebuild it
    from the postings on every search that passes the filter as a query."""
    cache: dict[tuple[str, ...], DocIdSet] | None = getattr(searcher, "_kp_filters", None)
    if cache is None or len(cache) >= FILTER_CACHE_ENTRIES:
        cache = searcher._kp_filters = {}
    found = cache.get(locales)
    if found is None:
        query = Or([Term("locale", locale) for locale in locales])
        found = cache[locales] = BitSet(searcher.docs_for_query(query), size=searcher.doc_count_all())
    return found


def _columns(searcher: Searcher) -> tuple[Any, Any, Any]:
    """The searcher's column readers of locale, group and path (made once per searcher)."""
    columns: tuple[Any, Any, Any] | None = getattr(searcher, "_kp_columns", None)
    if columns is None:
        reader = searcher.reader()
        columns = (reader.column_reader("locale"), reader.column_reader("group"), reader.column_reader("path"))
        searcher._kp_columns = columns
    return columns


def _indexed(searcher: Searcher, language: str, word: str) -> bool:
    return any(_dfs(searcher, language, word))


#: (language, term) document frequencies remembered per index generation (shared by its
#: searchers: one unchanging generation, so they cannot go stale).
DF_CACHE_TERMS = 50_000


def _dfs(searcher: Searcher, language: str, word: str) -> tuple[int, int, int]:
    """Documents containing ``word`` in the title, body and code fields of ``language``;
    one query asks this several times per word (matching, spelling, its language)."""
    shared: GenerationState | None = getattr(searcher, "_kp_shared", None)
    cache: dict[tuple[str, str], tuple[int, int, int]] | None = (
        shared.dfs if shared is not None else getattr(searcher, "_kp_dfs", None))
    if cache is None or len(cache) > DF_CACHE_TERMS:
        cache = {}
        if shared is not None:
            shared.dfs = cache
        else:
            searcher._kp_dfs = cache
    found = cache.get((language, word))
    if found is None:
        title, body, code = (int(searcher.doc_frequency(field(language), word)) for field in _FIELDS)
        found = cache[(language, word)] = (title, body, code)
    return found


def _spelling(searcher: Searcher, words: Mapping[str, tuple[str, ...]], allowed: set[str]
              ) -> dict[str, tuple[str, ...]]:
    """Correct typos, only in the ``allowed`` languages (the one the query is written in,
    or the request's): where the query looks written in that language (at least half of
    its terms occur in that language's documents, or no term occurs anywhere), each term
    that occurs nowhere is replaced by its closest indexed term (:func:`_closest`), if
    there is one close enough. So ``pasword reset`` finds ``password``, while a German
    query is not "corrected" into English words."""
    known = {language: [_indexed(searcher, language, w) for w in ws] for language, ws in words.items()}
    anywhere = any(any(flags) for flags in known.values())
    out = {}
    for language, ws in words.items():
        flags = known[language]
        if language not in allowed or (anywhere and 2 * sum(flags) < len(ws)):
            out[language] = ws
            continue
        fixed = []
        budget = SPELLING_MAX_WORDS
        for word, ok in zip(ws, flags, strict=True):
            if not ok and len(word) >= SPELLING_MIN_CHARS and budget > 0:
                budget -= 1
                word = _closest(searcher, language, word) or word
            fixed.append(word)
        out[language] = tuple(dict.fromkeys(fixed))
    return out


#: The deletion indexes of every index's vocabulary (per segment and language), per process.
VOCABULARY = VocabularyIndexes()


def _closest(searcher: Searcher, language: str, word: str) -> str | None:
    """The indexed term of ``language`` closest to ``word``: within one edit
    (Damerau-Levenshtein), or two from :data:`SPELLING_TWO_EDITS_CHARS` characters on,
    longer or shorter by at most the edits allowed, sharing the first :data:`SPELLING_PREFIX`
    characters; the most frequent among the closest. ``None`` when there is none (and
    for CJK terms). Found through the vocabulary's deletion index
    (:mod:`provider.search.spelling`), not a scan."""
    if _CJK_CHAR.search(word):
        return None  # a CJK term is a segmenter's word or a bigram: an edit makes another word
    fields = [field(language) for field in _FIELDS]
    scope = getattr(searcher, "_kp_scope", None) or f"searcher-{id(searcher)}"
    indexes = VOCABULARY.of(scope, searcher.reader(), fields, language, wait_s=SPELLING_WAIT_S)
    if indexes is None:
        return None  # the warm-up is still building this vocabulary's index
    body = body_field(language)
    return closest_in(indexes, word, lambda term: searcher.doc_frequency(body, term))


def _term_weights(searcher: Searcher, words: Sequence[str], language: str) -> dict[str, float]:
    total = max(searcher.doc_count(), 1)
    weights = {}
    for word in words:
        # The body's frequency from the generation's shared table, which matching has
        # just filled for these words: a look-up in the term file otherwise.
        frequency = _dfs(searcher, language, word)[1]
        weights[word] = math.log(1 + total / (1 + frequency))
    return weights
