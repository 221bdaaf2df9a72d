"""Text analysis shared by indexing and querying.

The same analyzer must run at index time and at query time, or terms will not meet.
Tokens are lowercased, English stop words dropped and words reduced to their Porter
stem, so ``resetting`` finds ``reset``.
"""

from __future__ import annotations

from functools import cache

from whoosh.analysis import Analyzer, StemmingAnalyzer

__all__ = ["analyzer", "terms"]


@cache
def analyzer() -> Analyzer:
    """The analyzer of the ``title`` and ``body`` fields."""
    return StemmingAnalyzer()


def terms(text: str) -> list[str]:
    """The indexed terms of ``text``, in order, duplicates kept."""
    return [token.text for token in analyzer()(text)]
