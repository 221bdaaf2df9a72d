"""Text analysis shared by indexing and querying.

The same analyzer must run at index time and at query time, or terms will not meet.
Tokens are lowercased, English stop words dropped and words reduced to their Porter
stem, so ``resetting`` finds ``reset``.
"""

from __future__ import annotations

from functools import cache, lru_cache

from whoosh.analysis import Analyzer, StemmingAnalyzer
from whoosh.lang.porter import stem

__all__ = ["analyzer", "cached_stem", "terms"]


@lru_cache(maxsize=200_000)
def cached_stem(word: str) -> str:
    """Porter stem of ``word``, memoised. Whoosh's own stem cache (an LFU cache in
    Python) cost more than the stemming it saved; ``lru_cache`` is implemented in C.
    Bounded, because query words come from callers."""
    return str(stem(word))


@cache
def analyzer() -> Analyzer:
    """The analyzer of the ``title`` and ``body`` fields."""
    return StemmingAnalyzer(stemfn=cached_stem, cachesize=None)


def terms(text: str) -> list[str]:
    """The indexed terms of ``text``, in order, duplicates kept."""
    return [token.text for token in analyzer()(text)]
