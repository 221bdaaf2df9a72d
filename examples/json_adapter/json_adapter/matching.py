"""Scoring an article against a query, and picking the passage that matched.

Deliberately simple — word overlap, title words counting triple — because the point of
this example is the contract seam, not ranking. A real adapter calls the product's own
search API here instead.
"""

from __future__ import annotations

import re

from .articles import Article

__all__ = ["SNIPPET_MAX_CHARS", "best_passage", "score", "terms"]

#: Snippets stay well under the contract layer's own bound.
SNIPPET_MAX_CHARS = 300
_WORD = re.compile(r"\w+")


def terms(text: str) -> set[str]:
    """The distinct words of ``text``, case-folded."""
    return {word.casefold() for word in _WORD.findall(text)}


def score(article: Article, query_terms: set[str]) -> int:
    """How well ``article`` matches: 3 per query word in the title, 1 per word in the body."""
    title = terms(article.title)
    body = terms(" ".join(article.paragraphs))
    return sum(3 * (t in title) + (t in body) for t in query_terms)


def _clip(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    cut = text[: max_chars - 1].rsplit(" ", 1)[0]
    return cut + "…"


def best_passage(article: Article, query_terms: set[str], max_chars: int = SNIPPET_MAX_CHARS) -> str:
    """The paragraph sharing most words with the query (the first on ties), clipped."""
    best = max(article.paragraphs, key=lambda p: len(terms(p) & query_terms))
    return _clip(best, max_chars)
