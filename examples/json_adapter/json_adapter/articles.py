"""Loading one JSON file of articles, and reloading it when it changes.

File format::

    {"articles": [{"id": "reset-password", "title": "…", "body": "<p>HTML or text</p>",
                   "url": "https://help.example.com/…"}, …]}

Every article needs a non-empty, unique ``id`` (its ``documentId``, stable because the
operator chose it) and ``title``; ``url`` is optional. A file that cannot be read or
parsed makes every search that needs it answer ``503`` — fail closed — and is logged
with the reason; it is read again as soon as it changes.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from helpthread_kit import IndexUnavailable
from helpthread_kit.plaintext import html_to_paragraphs

__all__ = ["Article", "ArticleFile", "InvalidArticles"]

log = logging.getLogger(__name__)


class InvalidArticles(ValueError):
    """The file is not a valid article list; the message says where."""


@dataclass(frozen=True)
class Article:
    """One article, as plain text.

    Attributes:
        id: the ``documentId``.
        title: plain text.
        paragraphs: the body as plain-text paragraphs (never empty: the title if need be).
        url: the link, if the file gives one.
        source: the article's JSON, canonical; ``revision`` is derived from it.
    """

    id: str
    title: str
    paragraphs: tuple[str, ...]
    url: str | None
    source: str


def _article(item: object, index: int) -> Article:
    if not isinstance(item, dict):
        raise InvalidArticles(f"articles[{index}] is not an object")
    article_id, title = item.get("id"), item.get("title")
    if not isinstance(article_id, str) or not article_id.strip():
        raise InvalidArticles(f"articles[{index}].id must be a non-empty string")
    plain_title = " ".join(html_to_paragraphs(title)) if isinstance(title, str) else ""
    if not plain_title:
        raise InvalidArticles(f"articles[{index}] ({article_id}): title must be non-empty text")
    body, url = item.get("body", ""), item.get("url")
    if not isinstance(body, str):
        raise InvalidArticles(f"articles[{index}] ({article_id}): body must be a string")
    return Article(
        id=article_id.strip(),
        title=plain_title,
        paragraphs=tuple(html_to_paragraphs(body)) or (plain_title,),
        url=url if isinstance(url, str) else None,
        source=json.dumps(item, sort_keys=True, ensure_ascii=False),
    )


def parse_articles(raw: bytes) -> tuple[Article, ...]:
    """Parse a whole file.

    Raises:
        InvalidArticles: not UTF-8 JSON, no ``articles`` list, a bad article, or an id twice.
    """
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise InvalidArticles(f"not UTF-8 JSON: {exc}") from None
    items = data.get("articles") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise InvalidArticles('expected {"articles": [...]}')
    articles = tuple(_article(item, i) for i, item in enumerate(items))
    seen: set[str] = set()
    for article in articles:
        if article.id in seen:
            raise InvalidArticles(f"id {article.id!r} appears twice")
        seen.add(article.id)
    return articles


class ArticleFile:
    """One JSON file, parsed on first use and again whenever it changes on disk.

    Args:
        path: the file.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._stamp: tuple[int, int, int] | None = None
        self._articles: tuple[Article, ...] = ()

    def articles(self) -> tuple[Article, ...]:
        """The current articles.

        Raises:
            IndexUnavailable: the file is missing or invalid (answered 503, fail closed).
        """
        with self._lock:
            try:
                stat = os.stat(self.path)
                stamp = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
                if stamp != self._stamp:
                    self._articles = parse_articles(self.path.read_bytes())
                    self._stamp = stamp
            except (OSError, InvalidArticles) as exc:
                self._stamp = None
                self._articles = ()
                log.error("cannot read %s: %s", self.path, exc)
                raise IndexUnavailable(f"the article file {self.path.name} cannot be read") from None
            return self._articles
