"""A fixed number of Whoosh searchers per worker, whatever the thread pool does
(DESIGN: a searcher is never shared between threads at once; issue 15: memory bounded)."""

from __future__ import annotations

import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpthread_kit.backend import SearchQuery
from helpthread_kit.capabilities import MINIMUM
from helpthread_kit.registrations import Exposure
from provider.indexing import Indexer
from provider.search.backend import WhooshBackend
from provider.search.layout import ALL, PUBLIC, IndexLayout
from provider.search.pool import SearcherPool
from provider.wiki.document import WikiSettings
from tests.support import REPO_ROOT

QUERIES = ["reset password", "refund", "invoice pdf", "api key", "rechnung", "pasword reset"]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pool")
    content = root / "content"
    shutil.copytree(REPO_ROOT / "content", content)
    with Indexer(WikiSettings(root=content, locales=("en", "de")), IndexLayout(root / "index")) as indexer:
        indexer.sync()
    return root / "index"


@pytest.mark.parametrize("size", [1, 4])
def test_after_64_threads_searched_at_most_search_threads_searchers_are_open(index: Path, size: int) -> None:
    """64 distinct threads each search (all at once: a barrier holds them until every one
    exists); afterwards at most ``searchers`` are open per index, and every answer is the
    one a single thread gets."""
    backend = WhooshBackend(index, cache_entries=0, searchers=size)

    def query(i: int, reach: Exposure) -> SearchQuery:
        return SearchQuery(text=QUERIES[i % len(QUERIES)], limit=10, reach=reach, capabilities=MINIMUM)

    expected = {(i, reach): [r.document_id for r in backend.search(query(i, reach))]
                for i in range(len(QUERIES)) for reach in Exposure}
    barrier = threading.Barrier(64)
    threads: set[int] = set()

    def run(i: int) -> tuple[int, Exposure, list[str]]:
        barrier.wait()
        threads.add(threading.get_ident())
        reach = list(Exposure)[i % 2]
        return i % len(QUERIES), reach, [r.document_id for r in backend.search(query(i, reach))]

    with ThreadPoolExecutor(max_workers=64) as pool:
        answers = list(pool.map(run, range(64 * 2)))
    assert len(threads) == 64
    for i, reach, ids in answers:
        assert ids == expected[(i, reach)]
    assert backend.pools[PUBLIC].open_searchers <= size
    assert backend.pools[ALL].open_searchers <= size


class _Fake:
    """Stands in for a Whoosh searcher: only what the pool calls."""

    def __init__(self) -> None:
        self.closed = False
        self.fresh = True

    def up_to_date(self) -> bool:
        return self.fresh

    def close(self) -> None:
        self.closed = True


@settings(max_examples=25, deadline=None)
@given(size=st.integers(1, 6), threads=st.integers(1, 24), stale_every=st.integers(0, 5))
def test_a_searcher_is_never_held_by_two_threads_and_never_more_than_size_are_open(
        size: int, threads: int, stale_every: int) -> None:
    """As a class: for any pool size, number of threads and pattern of commits (a searcher
    going stale), no searcher is checked out twice at once, at most ``size`` are open, no
    stale or closed one is handed out; clearing the pool closes every one."""
    pool = SearcherPool(size)
    made: list[_Fake] = []
    in_use: set[int] = set()
    lock = threading.Lock()
    problems: list[str] = []

    def opener() -> _Fake:
        fake = _Fake()
        with lock:
            made.append(fake)
        return fake

    def work(n: int) -> None:
        for k in range(20):
            with pool.checkout("build", opener) as searcher:  # type: ignore[arg-type]
                with lock:
                    if id(searcher) in in_use:
                        problems.append("shared")
                    if searcher.closed or not searcher.fresh:
                        problems.append("stale or closed handed out")
                    in_use.add(id(searcher))
                    if sum(not f.closed for f in made) > size:
                        problems.append("too many open")
                time.sleep(0)
                with lock:
                    in_use.discard(id(searcher))
                if stale_every and (n + k) % stale_every == 0:
                    searcher.fresh = False  # a commit landed

    with ThreadPoolExecutor(max_workers=threads) as executor:
        list(executor.map(work, range(threads)))
    assert not problems
    assert pool.open_searchers <= size
    pool.clear()
    assert pool.open_searchers == 0 and all(f.closed for f in made)


def test_a_failed_search_closes_its_searcher_and_frees_its_place() -> None:
    pool = SearcherPool(1)
    with pytest.raises(OSError), pool.checkout("build", _Fake) as first:  # type: ignore[arg-type]
        raise OSError("index file gone")
    assert first.closed and pool.open_searchers == 0
    with pool.checkout("other-build", _Fake) as second:  # type: ignore[arg-type]
        assert second is not first


def test_pool_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least one"):
        SearcherPool(0)
