"""Application factories the worker processes of ``serve()`` import in
tests/contract/test_supervisor.py."""

from __future__ import annotations

import os
import time

from helpthread_kit.app import ASGIApp
from helpthread_kit.replay import MemoryReplayStore
from tests.conformance.broken.providers import correct_app


def memory_store_app() -> ASGIApp:
    """A per-process replay store chosen explicitly: refused in a multi-worker serve (A5)."""
    return correct_app(replay_store=MemoryReplayStore())


def slow_app() -> ASGIApp:
    """An application that takes ``$SLOW_START_S`` seconds to build, like a worker opening
    a large index and its language segmenters on a busy machine."""
    time.sleep(float(os.environ["SLOW_START_S"]))
    return correct_app()
