"""Adapter bugs that passed both the kit and the checker before issue 25, each in one
backend built on :class:`ArticleBackend`: drafts served, a ``documentId`` that changes
at every build (so per worker process and per rebuild), an FTS-style search that raises
on a query its syntax cannot parse.

Also :func:`two_workers`: two independently built apps behind one address, each
request to the next — what fresh connections to a two-worker server see.
"""

from __future__ import annotations

import itertools
import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import replace

from helpthread_kit import Exposure, Result, SearchQuery
from helpthread_kit.app import ASGIApp, Receive, Scope, Send
from helpthread_kit.serving import default_replay_store

from .corpus import DRAFTS, Article, ArticleBackend
from .providers import BrokenProvider, check, correct_app

__all__ = ["ADAPTER_BUGS", "DraftsServed", "FtsSyntaxErrors", "IdsPerBuild", "ids_per_build_app", "two_workers"]


class DraftsServed(ArticleBackend):
    """Indexes drafts with the public articles (X5)."""

    def collections(self, reach: Exposure) -> list[tuple[str, Sequence[Article]]]:
        return [(audience, [*articles, *DRAFTS] if audience == "public" else articles)
                for audience, articles in super().collections(reach)]


class IdsPerBuild(ArticleBackend):
    """Numbers its documents with a salt drawn when the index is built (R2): each worker
    process, and each rebuild, gives the same article another id."""

    def __init__(self) -> None:
        self.salt = secrets.token_hex(4)

    def search(self, query: SearchQuery) -> list[Result]:
        return [replace(r, document_id=f"{r.document_id}-{self.salt}") for r in super().search(query)]


class FtsSyntaxError(Exception):
    """What SQLite FTS5 raises on ``MATCH 'what's'``."""


_FTS_SYNTAX = re.compile(r"['\"?*:()^~{}\[\]]|\b(?:AND|OR|NOT|NEAR)\b")


class FtsSyntaxErrors(ArticleBackend):
    """Hands the query to a query language as it is (Q1): quotes, ``?`` and operators raise."""

    def search(self, query: SearchQuery) -> list[Result]:
        match = _FTS_SYNTAX.search(query.text)
        if match:
            raise FtsSyntaxError(f"fts5: syntax error near {match.group()!r}")
        return super().search(query)


def two_workers(build: Callable[[], ASGIApp]) -> ASGIApp:
    """Two apps from two calls of ``build`` sharing one replay store (as a correct
    deployment shares one), each request to the next."""
    apps = [build(), build()]
    turn = itertools.count()

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        await apps[next(turn) % 2](scope, receive, send)

    return app


def ids_per_build_app() -> ASGIApp:
    """:class:`IdsPerBuild` behind :func:`two_workers`."""
    store = default_replay_store()
    return two_workers(lambda: correct_app(IdsPerBuild(), replay_store=store))


#: The bugs, as :class:`BrokenProvider` entries (tests/conformance/test_broken_providers.py).
ADAPTER_BUGS: tuple[BrokenProvider, ...] = (
    BrokenProvider(
        "drafts-served",
        lambda: correct_app(DraftsServed()),
        {check("X5", "drafts"): "draft canary 'upcoming platinum tier': customer_safe was served 'draft-pricing-2027'"},
    ),
    BrokenProvider(
        "document-id-per-worker-and-build",
        ids_per_build_app,
        # W5 and X8 compare the ids of two answers too: skipped, depending on R2.
        {check("R2", "every connection and worker"): "on one connection and"},
    ),
    BrokenProvider(
        "fts-syntax-error-on-hostile-queries",
        lambda: correct_app(FtsSyntaxErrors()),
        {check("Q1", "hostile"): "query \"what's my invoice?\": answered 500",
         check("R1", "answered 500"): "answered 500"},
    ),
)
