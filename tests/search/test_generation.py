"""What the searchers of one index generation share (provider/search/generation.py,
issue 27): computed once for all of them, never shared between the public and the agent
index (CONTRACT X2), never carried over to another generation (CONTRACT X7)."""

from __future__ import annotations

from pathlib import Path

from helpthread_kit.backend import SearchQuery
from helpthread_kit.capabilities import MINIMUM
from helpthread_kit.registrations import Exposure
from provider.indexing import Indexer
from provider.search.backend import WhooshBackend, _dfs, _index_info
from provider.search.generation import Generations
from provider.search.layout import ALL, PUBLIC, IndexLayout
from provider.wiki.document import WikiSettings


def _page(audience: str, body: str) -> str:
    return f"---\ntitle: Page\naudience: {audience}\n---\n{body}\n"


def test_searchers_of_one_generation_share_and_a_commit_starts_afresh(tmp_path: Path) -> None:
    content = tmp_path / "content"
    content.mkdir()
    (content / "a.md").write_text(_page("public", "# A\n\nOtter facts."), "utf-8")
    (content / "b.md").write_text(_page("internal", "# B\n\nOtter secrets."), "utf-8")
    backend = WhooshBackend(tmp_path / "index")
    with Indexer(WikiSettings(root=content), IndexLayout(tmp_path / "index")) as indexer:
        indexer.sync()
        build = backend._current()
        assert build is not None
        first, second = (backend._open_searcher(build, PUBLIC) for _ in range(2))
        agent = backend._open_searcher(build, ALL)
        assert first._kp_shared is second._kp_shared
        assert agent._kp_shared is not first._kp_shared  # X2: the agent index's counts are its own
        info = _index_info(first, build.languages[PUBLIC])
        assert _index_info(second, build.languages[PUBLIC]) is info
        assert _dfs(first, "en", "otter") == _dfs(second, "en", "otter")
        assert _dfs(agent, "en", "otter")[1] == 2 and _dfs(first, "en", "otter")[1] == 1
        # A commit: the next generation's searchers compute their own (X7: nothing of the
        # generation before is taken as this one's).
        (content / "a.md").write_text(_page("internal", "# A\n\nOtter facts."), "utf-8")
        indexer.sync(["a.md"])
        later = backend._open_searcher(build, PUBLIC)
        assert later._kp_shared is not first._kp_shared and not later._kp_shared.dfs
        query = SearchQuery(text="otter", limit=5, reach=Exposure.CUSTOMER_SAFE, capabilities=MINIMUM)
        assert list(backend.search(query)) == []
        for searcher in (first, second, agent, later):
            searcher.close()


def test_only_the_latest_generations_are_kept() -> None:
    kept = Generations(kept=2)
    a, b = kept.of("x", 1), kept.of("x", 2)
    assert kept.of("x", 1) is a  # used again: the most recent now
    kept.of("x", 3)
    assert len(kept) == 2 and kept.of("x", 1) is a and kept.of("x", 2) is not b
