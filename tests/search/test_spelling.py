"""Typo correction through the vocabulary's deletion index: the same corrections as the
scan it replaced (Whoosh's ``terms_within``), and none for a correctly spelled word."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from whoosh.reading import IndexReader
from whoosh.support.levenshtein import distance

from helpthread_kit.backend import SearchQuery
from helpthread_kit.capabilities import MINIMUM
from helpthread_kit.registrations import Exposure
from provider.indexing import Indexer
from provider.search import backend as backend_module
from provider.search.backend import WhooshBackend
from provider.search.layout import IndexLayout
from provider.search.schema import body_field, code_field, title_field
from provider.search.spelling import MIN_CHARS, PREFIX, DeletionIndex, closest_in, max_edits
from provider.wiki.document import WikiSettings
from tests.support import REPO_ROOT

# A small alphabet, so random words have many neighbours within one or two edits.
WORDS = st.text(alphabet="abcde", min_size=3, max_size=12)


def _scan(vocabulary: set[str], word: str, edits: int) -> set[str]:
    """The scan: every term with the word's prefix within the edits, length bound too."""
    return {t for t in vocabulary if t.startswith(word[:PREFIX]) and abs(len(t) - len(word)) <= edits
            and distance(t, word, limit=edits) <= edits and len(t) >= 3}


@settings(max_examples=300, deadline=None)
@given(vocabulary=st.sets(WORDS, min_size=1, max_size=60), word=WORDS, edits=st.sampled_from([1, 2]))
def test_deletion_index_finds_exactly_what_the_scan_finds(vocabulary: set[str], word: str, edits: int) -> None:
    """As a class over vocabularies and words: ``within`` equals the scan (for two edits
    the index covers terms of at least seven characters, the only ones a word of nine or
    more can be corrected to)."""
    if edits == 2 and len(word) < 9:
        word = (word * 3)[:9]
    assert DeletionIndex(vocabulary).within(word, edits) == _scan(vocabulary, word, edits)


class _Colliding(DeletionIndex):
    """Three bits of hash: most variants share one with others (the real index keeps 32)."""

    hash_bits = 3


@settings(max_examples=200, deadline=None)
@given(vocabulary=st.sets(WORDS, min_size=1, max_size=60), word=WORDS, edits=st.sampled_from([1, 2]))
def test_hash_collisions_add_candidates_never_answers(vocabulary: set[str], word: str, edits: int) -> None:
    """As a class: when many deletion variants share a hash (the index keeps only part of
    it, sorted in parts by its top bits), ``within`` still equals the scan and the real
    index's answer — a colliding entry is a candidate the real distance rejects."""
    if edits == 2 and len(word) < 9:
        word = (word * 3)[:9]
    expected = _scan(vocabulary, word, edits)
    assert _Colliding(vocabulary).within(word, edits) == expected
    assert DeletionIndex(vocabulary).within(word, edits) == expected


def test_the_index_holds_eight_bytes_an_entry_in_hash_order() -> None:
    """The build's result: one sorted array of 8-byte entries (the memory docs/benchmarks.md states)."""
    index = DeletionIndex(f"{a}{b}{c}word{d}" for a in "abcd" for b in "efgh" for c in "ijkl" for d in "mnop")
    packed = index._packed
    assert packed.itemsize == 8 and index.entries == len(packed) > 256
    assert list(packed) == sorted(packed)


@settings(max_examples=200, deadline=None)
@given(vocabulary=st.sets(WORDS, min_size=1, max_size=60), word=WORDS)
def test_closest_is_the_nearest_then_most_frequent(vocabulary: set[str], word: str) -> None:
    frequency = {t: len(t) % 3 for t in vocabulary}
    found = closest_in([DeletionIndex(vocabulary)], word, frequency.__getitem__)
    expected = None
    for edits in range(1, max_edits(word) + 1):
        near = _scan(vocabulary, word, edits)
        if near:
            expected = min(near, key=lambda t: (-frequency[t], t))
            break
    assert found == expected


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("spelling")
    content = root / "content"
    shutil.copytree(REPO_ROOT / "content", content)
    with Indexer(WikiSettings(root=content, locales=("en", "de")), IndexLayout(root / "index")) as indexer:
        indexer.sync()
    return root / "index"


def _old_closest(searcher, language: str, word: str) -> str | None:  # type: ignore[no-untyped-def]
    """The scan as it was: Whoosh's pure-Python ``terms_within`` over every field."""
    reader = searcher.reader()
    fields = (title_field(language), body_field(language), code_field(language))
    for edits in range(1, max_edits(word) + 1):
        found = {t for f in fields if f in searcher.schema
                 for t in IndexReader.terms_within(reader, f, word, edits, prefix=PREFIX)
                 if abs(len(t) - len(word)) <= edits}
        if found:
            return str(min(found, key=lambda t: (-searcher.doc_frequency(body_field(language), t), t)))
    return None


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_on_a_real_index_the_same_suggestions_as_the_scan(index: Path, data: st.DataObject) -> None:
    """A term of the sample wiki's vocabulary with a random edit (or two, when long) is
    corrected to exactly what the scan corrected it to."""
    backend = WhooshBackend(index, cache_entries=0)
    build = backend._current()
    assert build is not None
    with backend.pools["all"].checkout(build.name, lambda: backend._open_searcher(build, "all")) as searcher:
        language = data.draw(st.sampled_from(["en", "de"]))
        terms = sorted(t.decode() for t in searcher.reader().lexicon(body_field(language))
                       if len(t) >= 4 and t.isalpha())
        term = data.draw(st.sampled_from(terms))
        for _ in range(data.draw(st.integers(1, max_edits(term)))):
            at = data.draw(st.integers(PREFIX, len(term)))
            kind = data.draw(st.sampled_from(["insert", "delete", "replace", "swap"]))
            char = data.draw(st.sampled_from("aeinrst"))
            if kind == "insert" or at >= len(term):
                term = term[:at] + char + term[at:]
            elif kind == "delete":
                term = term[:at] + term[at + 1:]
            elif kind == "replace":
                term = term[:at] + char + term[at + 1:]
            elif at + 1 < len(term):
                term = term[:at] + term[at + 1] + term[at] + term[at + 2:]
        assume(len(term) >= MIN_CHARS)  # shorter words are never corrected
        assert backend_module._closest(searcher, language, term) == _old_closest(searcher, language, term)


def test_a_correctly_spelled_word_of_the_querys_language_is_not_corrected(index: Path) -> None:
    """Every word here occurs in the sample wiki's documents of the query's language:
    no look-up runs at all (the query is not "corrected" in another language either)."""
    backend = WhooshBackend(index, cache_entries=0)
    calls: list[str] = []
    original = backend_module._closest

    def counted(searcher, language: str, word: str) -> str | None:  # type: ignore[no-untyped-def]
        calls.append(f"{language}:{word}")
        return original(searcher, language, word)

    backend_module._closest = counted  # type: ignore[assignment]
    try:
        for text, locale in [("reset password", None), ("refund invoice", None), ("Rechnung Passwort", None),
                             ("reset password", "en"), ("Passwort zurücksetzen", "de")]:
            backend.search(SearchQuery(text=text, limit=10, reach=Exposure.AGENT_ONLY, capabilities=MINIMUM,
                                       locale=locale))
    finally:
        backend_module._closest = original  # type: ignore[assignment]
    assert calls == []


def test_a_misspelled_word_is_still_corrected(index: Path) -> None:
    backend = WhooshBackend(index, cache_entries=0)
    found = backend.search(SearchQuery(text="pasword reset", limit=5, reach=Exposure.AGENT_ONLY,
                                       capabilities=MINIMUM))
    assert found and any("password" in r.document_id or "Password" in r.title for r in found)


def test_threads_asking_for_the_same_deletion_index_share_one_build(index: Path) -> None:
    """The warm-up thread and the search threads ask for the same segment's deletion
    index at once: it is built once and they all get it (three concurrent builds of a
    large vocabulary each ran past the search deadline, answered 503)."""
    import threading

    from provider.search.spelling import VocabularyIndexes

    backend = WhooshBackend(index, cache_entries=0)
    build = backend._current()
    assert build is not None
    indexes = VocabularyIndexes()
    fields = [body_field("en"), title_field("en"), code_field("en")]
    start = threading.Barrier(6)
    results: list[list[DeletionIndex]] = []

    def ask() -> None:
        with build.indexes["all"].reader() as reader:
            start.wait()
            results.append(indexes.of("all", reader, fields, "en"))

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    segments = len(results[0])
    assert indexes.built == segments
    assert all([id(i) for i in found] == [id(i) for i in results[0]] for found in results)


def test_a_search_does_not_wait_past_its_budget_for_another_threads_build(index: Path) -> None:
    """While another thread (the warm-up) builds a vocabulary's index, a search waits at
    most ``wait_s`` and then goes on without typo correction (``None``), never past the
    search deadline; once built, the index is returned at once."""
    import threading
    import time

    from provider.search.spelling import VocabularyIndexes

    backend = WhooshBackend(index, cache_entries=0)
    build = backend._current()
    assert build is not None
    indexes = VocabularyIndexes()
    fields = [body_field("en"), title_field("en"), code_field("en")]
    with build.indexes["all"].reader() as reader:
        key = ("all", reader.leaf_readers()[0][0].segment().segment_id(), "en")
        busy = threading.Event()
        indexes._building[key] = busy  # another thread's build, not finished
        started = time.monotonic()
        assert indexes.of("all", reader, fields, "en", wait_s=0.2) is None
        assert time.monotonic() - started < 5
        del indexes._building[key]
        busy.set()
        assert indexes.of("all", reader, fields, "en", wait_s=0.2)


def test_a_word_longer_than_any_misspelling_is_not_corrected() -> None:
    """A 1,024-character query word (the checker's Q1 probe) has ~500,000 two-edit
    deletions: it is not corrected, and costs nothing."""
    index = DeletionIndex(["invoice", "invoices", "payment"])
    assert closest_in([index], "ab" * 512, lambda term: 1) is None
    assert closest_in([index], "invoicse", lambda term: 1) == "invoice"


def test_an_index_with_nothing_public_warms_and_searches_without_error(tmp_path: Path) -> None:
    """Nothing public yet: the customer_safe index has no segment. Its warm-up and a
    misspelled customer_safe query find no vocabulary and answer nothing — no exception
    in the warm-up thread (it crashed on the segment-less reader, so typo correction was
    never warmed for the agent index either)."""
    import threading

    content = tmp_path / "content"
    content.mkdir()
    (content / "refund.md").write_text("---\naudience: internal\n---\n# Refund exceptions\n\nMoney back.\n")
    with Indexer(WikiSettings(root=content), IndexLayout(tmp_path / "index")) as indexer:
        indexer.sync()
    failures: list[BaseException | None] = []
    previous = threading.excepthook
    threading.excepthook = lambda args: failures.append(args.exc_value)
    try:
        found = WhooshBackend(tmp_path / "index")
        query = SearchQuery(text="mony bak", limit=10, reach=Exposure.CUSTOMER_SAFE, capabilities=MINIMUM)
        assert found.search(query) == ()
        for thread in [t for t in threading.enumerate() if t.name == "kp-spelling-warm"]:
            thread.join(30)
    finally:
        threading.excepthook = previous
    assert failures == []
    agent = SearchQuery(text="refnd exceptons", limit=10, reach=Exposure.AGENT_ONLY, capabilities=MINIMUM)
    assert [r.title for r in found.search(agent)] == ["Refund exceptions"]
