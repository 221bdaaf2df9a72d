"""The Whoosh backend under concurrency: one searcher per thread, no errors."""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from provider.contract.backend import SearchQuery
from provider.contract.capabilities import MINIMUM
from provider.contract.registrations import Exposure
from provider.search.backend import WhooshBackend
from provider.search.indexer import Indexer
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
