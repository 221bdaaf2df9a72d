"""``serve --rebuild`` keeps answering from the current build while a fresh one is built
aside, honours a public → internal edit made meanwhile, and swaps the new build in
atomically (issue 16; CONTRACT X2, X7).

The rebuild is made slow on purpose, the same on any machine: the wiki holds one
pathological file that takes longer than ``parse_timeout`` to parse, so every full pass
waits that long for it before skipping it.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, start_provider
from tests.e2e.test_live_reindex import ARTICLE, DOC_ID, atomic_save, make_internal, wait_for

pytestmark = pytest.mark.e2e

PARSE_TIMEOUT_S = 4
SWAPPED = "rebuild swapped in"


@pytest.mark.timeout(300)  # two starts, each with a pathological file, and a rebuild
def test_rebuild_serves_the_old_build_throughout_and_honours_a_reclassification(tmp_path: Path) -> None:
    config = {"parse_timeout": PARSE_TIMEOUT_S}
    first = start_provider(tmp_path, config=config)
    (first.content / "slow.md").write_text("[" * 1_500_000, "utf-8")
    first.stop()
    # The first build (the sample wiki) is there; serve --rebuild makes a new one aside.
    server = start_provider(tmp_path, content=tmp_path / "content", config=config, extra_args=("--rebuild",))
    try:
        assert SWAPPED not in server.log(), "ready only after the rebuild: the old build was not served meanwhile"
        statuses: list[int] = []
        seen: list[tuple[float, bool]] = []
        stop = threading.Event()

        def customer() -> None:
            while not stop.is_set():
                reply = server.retrieve({"query": "requesting a refund", "limit": 50}, CUSTOMER_SECRET)
                statuses.append(reply.status)
                if reply.status == 200:
                    seen.append((time.monotonic(), DOC_ID in [r["documentId"] for r in reply.json()["results"]]))

        threads = [threading.Thread(target=customer) for _ in range(2)]
        for thread in threads:
            thread.start()
        try:
            time.sleep(0.5)  # the watcher starts right after the startup scan
            wait_for(lambda: bool(seen), timeout_s=30, what="a first answer")
            assert seen[-1][1], "the article is public before the edit"
            path = server.content / ARTICLE
            atomic_save(path, make_internal(path.read_text("utf-8")))
            wait_for(lambda: bool(seen) and not seen[-1][1], timeout_s=30, what="the reclassification")
            gone_at = time.monotonic()
            assert SWAPPED not in server.log(), "the edit must take effect on the build served during the rebuild"
            wait_for(lambda: SWAPPED in server.log(), timeout_s=120, what="the swap")
            swapped_at = time.monotonic()
            time.sleep(1.0)
        finally:
            stop.set()
            for thread in threads:
                thread.join()
        assert statuses and set(statuses) == {200}, f"answers other than 200 during the rebuild: {set(statuses)}"
        assert not any(present for at, present in seen if at > gone_at), "the article came back (the swap undid it)"
        assert any(at > swapped_at for at, _ in seen), "queries ran after the swap"
        # The new build holds it too, as internal: agent_only still finds it.
        agent = server.retrieve({"query": "requesting a refund", "limit": 50}, AGENT_SECRET)
        assert DOC_ID in [r["documentId"] for r in agent.json()["results"]]
        builds = os.listdir(tmp_path / "index" / "builds")
        current = (tmp_path / "index" / "CURRENT").read_text().strip()
        assert len(builds) == 2 and current in builds, "the new build is served; the old one is kept for stragglers"
    finally:
        server.stop()
