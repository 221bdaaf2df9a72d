"""The adapter's :class:`~helpthread_kit.Backend` over a SQLite help-centre database.

Reach by construction (CONTRACT X2): each reach has its own read-only connection. The
``customer_safe`` one carries an SQLite *authorizer* that refuses to read anything but
the ``public_articles`` view (and the ``articles`` columns that view reads for it), so
no query on that connection — whatever its text — can return a staff article. The
``agent_only`` connection reads ``servable_articles``.

Classification lives in the database's own fields, not in front matter (X5):

* ``visibility``: exactly ``everyone`` is public; ``staff``, ``NULL``, ``Everyone ``
  or anything else is internal — fail closed;
* ``status``: only ``published`` is served; a ``draft`` reaches nobody.

Both rules are written once, in the two views below.
"""

from __future__ import annotations

import hashlib
import logging
import re
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from helpthread_kit import INTERNAL, PUBLIC, Exposure, IndexUnavailable, Result, SearchQuery
from helpthread_kit.plaintext import html_to_paragraphs, html_to_text

__all__ = ["VIEWS", "SQLiteBackend", "create_database"]

log = logging.getLogger(__name__)

VIEWS = """
CREATE VIEW IF NOT EXISTS servable_articles AS
    SELECT id, title, body_html, url, updated_at,
           CASE WHEN visibility = 'everyone' THEN 'public' ELSE 'internal' END AS audience
    FROM articles WHERE status = 'published';
CREATE VIEW IF NOT EXISTS public_articles AS
    SELECT id, title, body_html, url, updated_at, 'public' AS audience
    FROM articles WHERE status = 'published' AND visibility = 'everyone';
"""
#: Snippets stay well under the contract layer's own bound (R3).
SNIPPET_MAX_CHARS = 300
_WORD = re.compile(r"\w+")


def create_database(path: Path, seed_sql: str) -> Path:
    """Create ``path`` from ``seed_sql`` (the ``articles`` table and rows) and add the views.

    Raises:
        sqlite3.Error: the SQL is not valid.
    """
    with sqlite3.connect(path) as connection:
        connection.executescript(seed_sql)
        connection.executescript(VIEWS)
    connection.close()
    return path


def _public_only(action: int, arg1: str | None, arg2: str | None, database: str | None, source: str | None) -> int:
    """SQLite authorizer of the customer_safe connection: reading is allowed from the
    ``public_articles`` view and from ``articles`` only on that view's behalf."""
    if action == sqlite3.SQLITE_SELECT:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_READ:
        if arg1 == "public_articles" or (arg1 == "articles" and source == "public_articles"):
            return sqlite3.SQLITE_OK
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_FUNCTION:
        return sqlite3.SQLITE_OK
    return sqlite3.SQLITE_DENY


@dataclass(frozen=True)
class _Article:
    id: str
    title: str
    paragraphs: tuple[str, ...]
    url: str | None
    audience: str
    revision: str


def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text)}


def _clip(text: str) -> str:
    if len(text) <= SNIPPET_MAX_CHARS:
        return text
    return text[: SNIPPET_MAX_CHARS - 1].rsplit(" ", 1)[0] + "…"


def _safe_url(url: str | None) -> str | None:
    if not url:
        return None
    parts = urlsplit(url)
    ok = parts.scheme == "https" and parts.hostname and "@" not in parts.netloc and not any(c.isspace() for c in url)
    return url if ok else None


class SQLiteBackend:
    """Searches the database by reach (module docstring).

    Args:
        path: the SQLite database (opened read-only; it must hold the two views).

    ``citationUrl`` is implemented (each article's ``url``, when it is safe https).
    """

    implemented_capabilities: frozenset[str] = frozenset({"citationUrl"})

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()

    def _connection(self, reach: Exposure) -> sqlite3.Connection:
        # sqlite3 connections belong to the thread that made them: one per thread and reach.
        key = f"connection_{reach.value}"
        connection: sqlite3.Connection | None = getattr(self._local, key, None)
        if connection is None:
            connection = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            if reach is Exposure.CUSTOMER_SAFE:
                connection.set_authorizer(_public_only)
            setattr(self._local, key, connection)
        return connection

    def _articles(self, reach: Exposure) -> list[_Article]:
        view = "public_articles" if reach is Exposure.CUSTOMER_SAFE else "servable_articles"
        try:
            rows = self._connection(reach).execute(
                f"SELECT id, title, body_html, url, updated_at, audience FROM {view}"  # noqa: S608 - a constant
            ).fetchall()
        except sqlite3.Error as exc:
            log.error("cannot read %s: %s", self.path, exc)
            raise IndexUnavailable("the article database cannot be read") from None
        articles = []
        for article_id, title, body, url, updated_at, audience in rows:
            plain_title = html_to_text(title or "")
            if not article_id or not plain_title or audience not in (PUBLIC, INTERNAL):
                continue  # an unusable row is not served (logged once per search would be noise)
            revision = hashlib.sha256(f"{audience}\n{title}\n{body}\n{url}\n{updated_at}".encode()).hexdigest()[:20]
            articles.append(_Article(article_id, plain_title, tuple(html_to_paragraphs(body or "")) or (plain_title,),
                                     url, audience, revision))
        return articles

    def is_ready(self) -> bool:
        try:
            self._articles(Exposure.AGENT_ONLY)
        except IndexUnavailable:
            return False
        return True

    def search(self, query: SearchQuery) -> Sequence[Result]:
        """Best matches first (3 per query word in the title, 1 in the body), at most
        ``query.limit``; reads only the view of ``query.reach``.

        Raises:
            IndexUnavailable: the database cannot be read (503).
        """
        wanted = _words(query.text)
        scored = []
        for article in self._articles(query.reach):
            title, body = _words(article.title), _words(" ".join(article.paragraphs))
            points = sum(3 * (w in title) + (w in body) for w in wanted)
            if points:
                scored.append((points, article))
        scored.sort(key=lambda item: (-item[0], item[1].id))
        results = []
        for _, article in scored[: query.limit]:
            passage = max(article.paragraphs, key=lambda p: len(_words(p) & wanted))
            results.append(Result(document_id=article.id, title=article.title, snippet=_clip(passage),
                                  audience=article.audience, revision=article.revision,
                                  url=_safe_url(article.url)).only_declared(query.capabilities))  # R4
        return results
