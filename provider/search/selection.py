"""Which hits become results: locale ranking, one answer per translation group, and at
most two passages of one document.

Hits carry what these rules need — locale, translation group, file path — read from the
index's columns, so no stored field is loaded for a hit that is not returned.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from helpthread_kit.locales import LocalePreference

__all__ = ["MAX_PASSAGES_PER_DOCUMENT", "Hit", "by_locale", "by_writing", "cap_passages"]

#: With chunks, at most this many passages of one document in a result list, unless the
#: limit exceeds the documents found (then the rest fill up, in order).
MAX_PASSAGES_PER_DOCUMENT = 2


@dataclass
class Hit:
    """One matching Whoosh document.

    Attributes:
        docnum: its number in the searcher.
        raw_score: BM25F score.
        locale: the document's locale, lowercased.
        group: its translation group key, ``""`` for none.
        path: its file (shared by every chunk of the document).
    """

    docnum: int
    raw_score: float
    locale: str
    group: str
    path: str

    @property
    def group_key(self) -> tuple[str, str]:
        return ("group", self.group) if self.group else ("document", self.path)


def _keep_best(hits: Sequence[Hit], rank: Callable[[Hit], int]) -> list[Hit]:
    """Of each group keep the document of the best rank (ties: the more relevant), at the
    place of the group's most relevant hit; a kept document keeps all its chunks."""
    best: dict[tuple[str, str], tuple[int, str]] = {}
    place: dict[tuple[str, str], int] = {}
    for index, hit in enumerate(hits):
        group = hit.group_key
        place.setdefault(group, index)
        r = rank(hit)
        if group not in best or r < best[group][0]:
            best[group] = (r, hit.path)
    kept = [(place[hit.group_key], index, hit) for index, hit in enumerate(hits)
            if hit.path == best[hit.group_key][1]]
    return [hit for _, _, hit in sorted(kept, key=lambda item: (item[0], item[1]))]


def by_locale(hits: Sequence[Hit], pref: LocalePreference) -> list[Hit]:
    """Drop hits in locales the preference does not accept; of each translation group keep
    the document in the best-ranked locale (CONTRACT Q3, Q4; §5.5)."""
    ranks = {locale: pref.rank(locale) for locale in {hit.locale for hit in hits}}
    accepted = [hit for hit in hits if ranks[hit.locale] is not None]
    return _keep_best(accepted, lambda hit: ranks[hit.locale] or 0)


def by_writing(hits: Sequence[Hit], key: Callable[[str], str], written: Collection[str], default_key: str
               ) -> list[Hit]:
    """Without a request locale: of each translation group the translation in the
    language the query is written in (``written``), else the default locale's, else the
    most relevant. ``key`` maps a locale to its writing key."""
    def rank(hit: Hit) -> int:
        mine = key(hit.locale)
        return 0 if mine in written else 1 if mine == default_key else 2

    return _keep_best(hits, rank)


def cap_passages(hits: Sequence[Hit], limit: int, *, whole_documents: bool = False) -> tuple[list[Hit], bool]:
    """At most :data:`MAX_PASSAGES_PER_DOCUMENT` hits of one document among the first
    ``limit``; when that leaves fewer than ``limit``, the held-back hits fill up in order.
    With ``whole_documents`` (no ``chunking``: every entry of a document stands for all of
    it), only a document's first — best-scored — entry, and nothing fills up.
    Also whether the first ``limit`` are short of that (held-back hits filled in, or fewer
    than ``limit`` hits): more hits, if there are any, would make a better list."""
    most = 1 if whole_documents else MAX_PASSAGES_PER_DOCUMENT
    seen: dict[str, int] = {}
    first: list[Hit] = []
    rest: list[Hit] = []
    for hit in hits:
        seen[hit.path] = seen.get(hit.path, 0) + 1
        (first if seen[hit.path] <= most else rest).append(hit)
    if whole_documents:
        rest = []
    return (first + rest)[:limit], len(first) < limit
