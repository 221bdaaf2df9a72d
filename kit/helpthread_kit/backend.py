"""The interface between the contract layer and whatever holds the knowledge.

This file is the whole of what an adapter author implements. The contract layer does
authentication, request validation, capability filtering and the response envelope;
a backend only answers "what matches this query, within this reach?".

Reach is the exposure of the authenticated registration (§2.2). A backend must make a
``customer_safe`` search *unable* to see internal documents (CONTRACT X2) — for example
by querying a separate public-only index, or by using a credential of the upstream
product that cannot read internal spaces at all — rather than by filtering afterwards.
The contract layer still drops any non-public result on a ``customer_safe`` request as a
last line of defence, and logs it as a fault.

Optionally, a backend that keeps answers in memory may also offer
:meth:`CachedAnswers.answer_from_cache`: the contract layer asks it first, on the event
loop, and only when it returns ``None`` runs :meth:`Backend.search` on a thread. A
backend without it is searched on a thread every time; nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from .registrations import Exposure
from .results import Result

__all__ = ["Backend", "CachedAnswers", "SearchQuery", "cached_answers_of"]


@dataclass(frozen=True)
class SearchQuery:
    """What the backend is asked (derived from a validated request).

    Attributes:
        text: the query text, 1–1024 code points, stripped.
        limit: return at most this many results (1–50).
        reach: the exposure of the authenticated registration.
        capabilities: the declared capabilities; e.g. with ``chunking`` each result is a
            passage, without it a whole document.
        locale: a requested BCP 47 tag (only when ``locale`` is declared), else ``None``.
        locale_fallback: whether results in fallback locales are wanted.
    """

    text: str
    limit: int
    reach: Exposure
    capabilities: frozenset[str]
    locale: str | None = None
    locale_fallback: bool = False


@runtime_checkable
class Backend(Protocol):
    """A searchable knowledge source.

    Attributes:
        implemented_capabilities: the optional capabilities this backend can serve; the
            operator may declare any subset of them (CONTRACT C2).
    """

    implemented_capabilities: frozenset[str]

    def is_ready(self) -> bool:
        """Whether searches can be answered now (``/readyz``; until then ``503``)."""
        ...

    def search(self, query: SearchQuery) -> Sequence[Result]:
        """Return results best first, at most ``query.limit`` of them.

        Called from a worker thread, possibly from several threads at once: a backend
        must not share non-thread-safe state (such as a Whoosh searcher) between calls
        on different threads.

        Raises:
            IndexUnavailable: the backend cannot search right now (answered ``503``).
        """
        ...


@runtime_checkable
class CachedAnswers(Protocol):
    """What a backend with an in-memory answer cache may add to :class:`Backend`.

    Optional: the contract layer looks for the method with :func:`cached_answers_of`
    and runs :meth:`Backend.search` on a thread when a backend has none.
    """

    def answer_from_cache(self, query: SearchQuery) -> Sequence[Result] | None:
        """The answer :meth:`Backend.search` would give ``query`` now, if it is at hand
        without waiting; else ``None`` (then ``search`` runs on a thread).

        Called on the event loop, so it must never block: no network, no lock held by
        a search, no reading of files (a ``stat`` is fine) — microseconds. What it
        returns must be exactly what ``search`` would return at this moment: within
        ``query.reach`` (CONTRACT X2; an answer made for one exposure is never given to
        another), and nothing from before a change the backend has already indexed (a
        document reclassified internal must not come back from a cache, X7). When in
        doubt, ``None``.

        Returning the *same* sequence object for the same answer lets the contract
        layer reuse the response it rendered for it.

        Raises:
            Nothing: an exception is logged as a backend fault and ``search`` runs.
        """
        ...


def cached_answers_of(backend: Backend) -> Callable[[SearchQuery], Sequence[Result] | None] | None:
    """``backend.answer_from_cache`` when the backend offers it, else ``None``."""
    method = getattr(backend, "answer_from_cache", None)
    return method if callable(method) else None
