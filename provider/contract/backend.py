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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from .registrations import Exposure
from .results import Result

__all__ = ["Backend", "SearchQuery"]


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
