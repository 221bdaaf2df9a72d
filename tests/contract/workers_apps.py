"""Application factories the worker processes of ``serve()`` import in
tests/contract/test_supervisor.py."""

from __future__ import annotations

import os
import time

from helpthread_kit.app import ASGIApp
from helpthread_kit.backend import SearchQuery
from helpthread_kit.replay import MemoryReplayStore
from helpthread_kit.results import Result
from tests.conformance.broken.corpus import ArticleBackend
from tests.conformance.broken.providers import correct_app


def memory_store_app() -> ASGIApp:
    """A per-process replay store chosen explicitly: refused in a multi-worker serve (A5)."""
    return correct_app(replay_store=MemoryReplayStore())


def slow_app() -> ASGIApp:
    """An application that takes ``$SLOW_START_S`` seconds to build, like a worker opening
    a large index and its language segmenters on a busy machine."""
    time.sleep(float(os.environ["SLOW_START_S"]))
    return correct_app()


class _SlowSearch(ArticleBackend):
    """Each search takes ``$SLOW_SEARCH_S`` seconds: requests pile up in the application."""

    def search(self, query: SearchQuery) -> list[Result]:
        time.sleep(float(os.environ["SLOW_SEARCH_S"]))
        return super().search(query)


def slow_search_app() -> ASGIApp:
    """Slow searches and a small request limit (``$MAX_REQUESTS``): the application's own
    ``503`` envelope (W7) is reached before uvicorn's ``limit_concurrency``."""
    return correct_app(_SlowSearch(), max_requests=int(os.environ["MAX_REQUESTS"]), max_in_flight=1000,
                       search_threads=32)
