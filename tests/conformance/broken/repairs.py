"""Backends whose faults the contract layer repairs silently in production (it drops,
strips or cuts), each broken in one duty (issue 14). The test kit (strict by default)
and the checker against a strict provider must both fail them, naming the duty.

Also the factories a real multi-worker uvicorn imports (``python -m uvicorn --factory``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace

from helpthread_kit import Exposure, Result, SearchQuery
from helpthread_kit.app import ASGIApp
from helpthread_kit.replay import open_replay_store

from .corpus import INTERNAL, PUBLIC, Article, ArticleBackend
from .providers import correct_app


class InternalSourceOnCustomerSafe(ArticleBackend):
    """customer_safe searches read the internal source too (labelled correctly): the
    contract layer drops those results (X6), so the answer has fewer than it should."""

    def collections(self, reach: Exposure) -> list[tuple[str, Sequence[Article]]]:
        return [("public", PUBLIC), ("internal", INTERNAL)]


class UndeclaredField(ArticleBackend):
    """Every result carries ``score`` whether or not ``scoring`` is declared (R4)."""

    def search(self, query: SearchQuery) -> list[Result]:
        return [replace(r, score=0.5) for r in super().search(query)]


class OverLimit(ArticleBackend):
    """Ignores ``limit`` (Q2): the contract layer cuts the answer."""

    def search(self, query: SearchQuery) -> list[Result]:
        return super().search(replace(query, limit=50))


class IgnoredLocale(ArticleBackend):
    """Declares ``locale`` but answers in English whatever was asked (Q3)."""

    implemented_capabilities: frozenset[str] = frozenset({"locale"})

    def search(self, query: SearchQuery) -> list[Result]:
        return [replace(r, locale="en") for r in super().search(query)]


#: name -> (backend class, declared capabilities, the duty it breaks)
REPAIR_MUTANTS: dict[str, tuple[type[ArticleBackend], frozenset[str], str]] = {
    "internal-source-on-customer-safe": (InternalSourceOnCustomerSafe, frozenset({"retrieve"}), "X6"),
    "undeclared-field": (UndeclaredField, frozenset({"retrieve"}), "R4"),
    "over-limit": (OverLimit, frozenset({"retrieve"}), "Q2"),
    "ignored-locale": (IgnoredLocale, frozenset({"retrieve", "locale"}), "Q3"),
}


def strict_mutant_app(name: str) -> ASGIApp:
    """The mutant as a strict provider (a staging deployment) serves it."""
    backend, capabilities, _ = REPAIR_MUTANTS[name]
    return correct_app(backend(), capabilities=capabilities, strict=True)


def per_process_store_app() -> ASGIApp:
    """uvicorn factory: what an adapter author got from ``uvicorn --workers 2`` and the
    default settings — each worker its own in-memory replay store."""
    return correct_app()


def shared_store_app() -> ASGIApp:
    """uvicorn factory: the same, with the SQLite store named in $BROKEN_REPLAY_DB."""
    return correct_app(replay_store=open_replay_store(f"sqlite://{os.environ['BROKEN_REPLAY_DB']}"))
