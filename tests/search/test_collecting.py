"""The per-document collector (issue 15: tail latency) keeps exactly what a plain search
followed by the passage cap keeps: the best entries, at most ``per_key`` per document,
in Whoosh's order — block-quality skipping with its higher threshold loses none."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from whoosh.collectors import FilterCollector
from whoosh.fields import ID, TEXT, Schema
from whoosh.query import Or, Term

from provider.search.collecting import BestPerKey
from tests.support import ram_index

WORDS = ["alpha", "beta", "gamma", "delta"]

entries = st.lists(
    st.tuples(st.integers(0, 40), st.lists(st.sampled_from(WORDS), min_size=1, max_size=12)),
    min_size=1, max_size=400)


def _index(docs: list[tuple[int, list[str]]]):  # type: ignore[no-untyped-def]
    index = ram_index(Schema(path=ID(stored=True, sortable=True), body=TEXT))
    writer = index.writer()
    for key, words in docs:
        writer.add_document(path=f"doc-{key}", body=" ".join(words))
    writer.commit()
    return index


def _expected(searcher, query, limit: int, per_key: int, allowed=None):  # type: ignore[no-untyped-def]
    paths = searcher.reader().column_reader("path")
    everything = searcher.search(query, limit=None)
    taken: dict[str, int] = {}
    out = []
    for hit in sorted(((h.score, h.docnum) for h in everything), key=lambda sd: (-sd[0], sd[1])):
        score, docnum = hit
        if allowed is not None and docnum not in allowed:
            continue
        path = paths[docnum]
        if taken.get(path, 0) < per_key:
            taken[path] = taken.get(path, 0) + 1
            out.append((score, docnum))
    return out[:limit]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries, st.integers(1, 30), st.integers(1, 3), st.lists(st.sampled_from(WORDS), min_size=1, max_size=3,
                                                                  unique=True))
def test_keeps_the_best_entries_with_at_most_per_key_of_each_document(
    docs: list[tuple[int, list[str]]], limit: int, per_key: int, words: list[str]
) -> None:
    index = _index(docs)
    query = Or([Term("body", w) for w in words])
    with index.searcher() as searcher:
        paths = searcher.reader().column_reader("path")
        best = BestPerKey(limit, paths.__getitem__, per_key)
        searcher.search_with_collector(query, best)
        got = best.best()
        expected = _expected(searcher, query, limit, per_key)
        assert [d for _, d in got] == [d for _, d in expected]
        assert [round(s, 9) for s, _ in got] == [round(s, 9) for s, _ in expected]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries, st.integers(1, 20))
def test_a_filter_is_applied_before_keeping(docs: list[tuple[int, list[str]]], limit: int) -> None:
    index = _index(docs)
    query = Or([Term("body", w) for w in WORDS[:2]])
    with index.searcher() as searcher:
        allowed = {n for n in range(searcher.doc_count_all()) if n % 3}
        assume(allowed)  # Whoosh reads an empty filter as none
        paths = searcher.reader().column_reader("path")
        best = BestPerKey(limit, paths.__getitem__, 1)
        searcher.search_with_collector(query, FilterCollector(best, allow=allowed))
        assert [d for _, d in best.best()] == [d for _, d in _expected(searcher, query, limit, 1, allowed)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries, st.integers(1, 20), st.integers(1, 2), st.sets(st.integers(0, 40), max_size=10),
       st.sets(st.integers(0, 60), max_size=15))
def test_entries_chosen_elsewhere_count_against_their_document_not_the_limit(
    docs: list[tuple[int, list[str]]], limit: int, per_key: int, taken_keys: set[int], skip: set[int]
) -> None:
    """The OR fill-up after the AND: the AND's entries are skipped, its documents' places
    counted, and ``limit`` is the places left."""
    index = _index(docs)
    query = Or([Term("body", w) for w in WORDS[:3]])
    taken = {f"doc-{key}": 1 for key in taken_keys}
    with index.searcher() as searcher:
        paths = searcher.reader().column_reader("path")
        best = BestPerKey(limit, paths.__getitem__, per_key, taken=taken, skip=skip)
        searcher.search_with_collector(query, best)
        counts = dict(taken)
        expected = []
        for _score, docnum in _expected(searcher, query, 10_000, 10_000):
            path = paths[docnum]
            if docnum in skip or counts.get(path, 0) >= per_key:
                continue
            counts[path] = counts.get(path, 0) + 1
            expected.append(docnum)
        assert [d for _, d in best.best()] == expected[:limit]
