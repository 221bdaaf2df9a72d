"""The Whoosh backend under concurrency: one searcher per thread, no errors."""

from __future__ import annotations

import shutil
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from helpthread_kit.backend import SearchQuery
from helpthread_kit.capabilities import MINIMUM
from helpthread_kit.registrations import Exposure
from provider.indexing import Indexer
from provider.search.backend import WhooshBackend
from provider.search.layout import IndexLayout
from provider.wiki.document import WikiSettings
from tests.support import REPO_ROOT


def test_concurrent_searches_from_many_threads(tmp_path: Path) -> None:
    """DESIGN: a Whoosh searcher must not be shared between threads; 8 threads x 60
    searches must all succeed and agree with a single-threaded answer."""
    content = tmp_path / "content"
    shutil.copytree(REPO_ROOT / "content", content)
    with Indexer(WikiSettings(root=content, locales=("en", "de")), IndexLayout(tmp_path / "index")) as indexer:
        indexer.sync()
    backend = WhooshBackend(tmp_path / "index")
    queries = ["reset password", "refund", "invoice pdf", "api key", "rechnung"]

    def run(i: int) -> list[str]:
        q = SearchQuery(text=queries[i % len(queries)], limit=10, reach=Exposure.AGENT_ONLY, capabilities=MINIMUM)
        return [r.document_id for r in backend.search(q)]

    expected = [run(i) for i in range(len(queries))]
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(run, range(480)))
    for i, answer in enumerate(answers):
        assert answer == expected[i % len(queries)]


def test_no_index_means_not_ready(tmp_path: Path) -> None:
    assert not WhooshBackend(tmp_path / "missing").is_ready()


def _page(audience: str, body: str) -> str:
    return f"---\naudience: {audience}\n---\n{body}\n"


def test_x7_a_thread_that_searched_before_a_commit_sees_the_deletion(tmp_path: Path) -> None:
    """X7: the same thread, with its searcher open from before, must not find a document
    that a later commit removed from the public index (whoosh-reloaded's refresh() would)."""
    content = tmp_path / "content"
    content.mkdir()
    for i in range(5):
        (content / f"p{i}.md").write_text(_page("public", f"# Page {i}\n\nShared walrus text {i}."))
    backend = WhooshBackend(tmp_path / "index")
    query = SearchQuery(text="walrus", limit=10, reach=Exposure.CUSTOMER_SAFE, capabilities=MINIMUM)
    with Indexer(WikiSettings(root=content), IndexLayout(tmp_path / "index")) as indexer:
        indexer.sync()
        assert len(backend.search(query)) == 5
        for round_ in range(3):
            (content / f"p{round_}.md").write_text(_page("internal", f"# Page {round_}\n\nShared walrus text."))
            indexer.sync([f"p{round_}.md"])
            found = {r.document_id for r in backend.search(query)}
            assert found == {f"p{i}" for i in range(round_ + 1, 5)}


def test_file_handles_do_not_grow_over_many_queries_and_commits(tmp_path: Path) -> None:
    """Searchers of old generations are closed: over 2,000 queries interleaved with 40
    commits, no descriptor is left on a deleted index file and none is held twice
    (bench/reindex.py runs 10,000)."""
    import os

    content = tmp_path / "content"
    content.mkdir()
    for i in range(20):
        (content / f"p{i}.md").write_text(_page("public", f"# Page {i}\n\nBadger text {i}."))
    index = tmp_path / "index"
    backend = WhooshBackend(index)
    query = SearchQuery(text="badger", limit=5, reach=Exposure.AGENT_ONLY, capabilities=MINIMUM)

    def index_fds() -> list[str]:
        targets = []
        for fd in os.listdir("/proc/self/fd"):
            try:
                target = os.readlink(f"/proc/self/fd/{fd}")
            except OSError:
                continue
            if target.startswith(str(index)):
                targets.append(target)
        return targets

    with Indexer(WikiSettings(root=content), IndexLayout(index)) as indexer:
        indexer.sync()
        for i in range(2000):
            if i % 50 == 0:
                (content / f"p{i % 20}.md").write_text(_page("public", f"# Page\n\nBadger edit {i}."))
                indexer.sync([f"p{i % 20}.md"])
            assert backend.search(query)
        held = index_fds()
    assert held, "the searcher holds index files open"
    assert not [t for t in held if t.endswith("(deleted)")], "descriptors left on deleted (old) index files"
    assert len(held) == len(set(held)), "an index file is held open more than once"


def test_rebuild_aside_is_swapped_in_atomically_for_readers(tmp_path: Path) -> None:
    """A full rebuild is built aside and swapped in: a reader searching throughout never
    sees an empty or partial index."""
    content = tmp_path / "content"
    content.mkdir()
    for i in range(60):
        (content / f"p{i:02d}.md").write_text(_page("public", f"# Page {i}\n\nHeron text {i}."))
    backend = WhooshBackend(tmp_path / "index")
    query = SearchQuery(text="heron", limit=50, reach=Exposure.CUSTOMER_SAFE, capabilities=MINIMUM)
    counts: list[int] = []
    errors: list[BaseException] = []
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            try:
                counts.append(len(backend.search(query)))
            except BaseException as exc:
                errors.append(exc)

    with Indexer(WikiSettings(root=content), IndexLayout(tmp_path / "index")) as indexer:
        indexer.sync()
        thread = threading.Thread(target=reader)
        thread.start()
        try:
            for _ in range(3):
                assert indexer.sync(rebuild=True).rebuilt
        finally:
            stop.set()
            thread.join()
    assert not errors and counts and set(counts) == {50}
