"""The adapter's :class:`~helpthread_kit.Backend`: search by reach, over two files.

Reach by construction (CONTRACT X2): the backend maps each exposure to the files it may
read *when it is built* — ``customer_safe`` to ``public.json`` only — and a search looks
up its files by its reach and nothing else. No code path filters internal articles out
of a customer-safe answer, because none ever reaches one. The audience of a result is
the file it came from, so it cannot be misspelled (X5, X6).

For the strongest separation, deploy the customer-safe registration from a process that
is not given ``internal.json`` at all (see the README).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from helpthread_kit import INTERNAL, PUBLIC, Exposure, IndexUnavailable, Result, SearchQuery

from .articles import Article, ArticleFile
from .matching import best_passage, score, terms

__all__ = ["JsonBackend"]


def _safe_url(url: str | None) -> str | None:
    """``url`` if it is absolute https without userinfo, else ``None`` (CONTRACT R7)."""
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme != "https" or not parts.hostname or "@" in parts.netloc or any(c.isspace() for c in url):
        return None
    return url


def _revision(audience: str, article: Article) -> str:
    # Changes whenever the article's JSON or its file (its classification) changes (R5).
    return hashlib.sha256(f"{audience}\n{article.source}".encode()).hexdigest()[:20]


class JsonBackend:
    """Searches ``public.json`` for every reach and ``internal.json`` for ``agent_only`` only.

    Args:
        public: the file of public articles.
        internal: the file of internal articles, or ``None`` for a customer-safe-only
            deployment (agent_only then sees public articles only).

    ``citationUrl`` is implemented (each article's ``url``, when it is safe); the
    operator declares it or not in the contract settings.
    """

    implemented_capabilities: frozenset[str] = frozenset({"citationUrl"})

    def __init__(self, public: Path, internal: Path | None = None) -> None:
        public_file = ArticleFile(public)
        sources: list[tuple[str, ArticleFile]] = [(PUBLIC, public_file)]
        if internal is not None:
            sources.append((INTERNAL, ArticleFile(internal)))
        self._reach: dict[Exposure, tuple[tuple[str, ArticleFile], ...]] = {
            Exposure.CUSTOMER_SAFE: ((PUBLIC, public_file),),
            Exposure.AGENT_ONLY: tuple(sources),
        }

    def is_ready(self) -> bool:
        try:
            for _, source in self._reach[Exposure.AGENT_ONLY]:
                source.articles()
        except IndexUnavailable:
            return False
        return True

    def search(self, query: SearchQuery) -> Sequence[Result]:
        """Best matches first, at most ``query.limit``; reads only the files of ``query.reach``.

        Raises:
            IndexUnavailable: a file this reach reads is missing or invalid (503).
        """
        wanted = terms(query.text)
        scored: list[tuple[int, str, Article]] = []
        for audience, source in self._reach[query.reach]:
            for article in source.articles():
                points = score(article, wanted)
                if points:
                    scored.append((points, audience, article))
        scored.sort(key=lambda item: (-item[0], item[2].id))
        return [
            Result(
                document_id=article.id,
                title=article.title,
                snippet=best_passage(article, wanted),
                audience=audience,
                revision=_revision(audience, article),
                url=_safe_url(article.url),
            ).only_declared(query.capabilities)  # url only with citationUrl declared (R4)
            for _, audience, article in scored[: query.limit]
        ]
