"""Which languages can still add an answer once a query's own languages were searched.

Without a request locale, one document per translation group is answered, in the
language the query is written in, else the default locale's
(:func:`~provider.search.selection.by_writing`). The other languages of the query's script
are searched only to fill up (:func:`~provider.search.querylang.searched_first`), and a
language can add an answer only through a document whose translation group has no
document in the languages already searched (or a document in no group). Which languages
hold such documents is read once per searcher from the index's ``locale`` and ``group``
columns, so a wiki whose every article exists in the default locale never searches the
other languages at all, however many there are.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

__all__ = ["entries_are_documents", "languages_with_unmatched_groups"]


def languages_with_unmatched_groups(
    searcher: Any, columns: tuple[Any, Any, Any], searched: Collection[str], language_of: Callable[[str], str]
) -> frozenset[str]:
    """The analysis languages holding a document whose translation group has no document
    in any of the ``searched`` languages (documents in no group count as their own group).

    Args:
        searcher: a Whoosh searcher (the answer is remembered on it: its index never changes).
        columns: its ``locale``, ``group`` and ``path`` column readers.
        searched: analysis languages already searched.
        language_of: a document's analysis language from its (lowercased) locale.
    """
    memo: dict[frozenset[str], frozenset[str]] | None = getattr(searcher, "_kp_unmatched", None)
    if memo is None:
        memo = {}
        searcher._kp_unmatched = memo
    key = frozenset(searched)
    found = memo.get(key)
    if found is None:
        locales, groups, paths = columns
        members: dict[str, set[str]] = {}
        for docnum in range(searcher.reader().doc_count_all()):
            group = groups[docnum] or f"\0{paths[docnum]}"
            members.setdefault(group, set()).add(language_of(locales[docnum]))
        found = memo[key] = frozenset(lang for langs in members.values() if not langs & key for lang in langs)
    return found


def entries_are_documents(searcher: Any) -> bool:
    """Whether the index's entries stand for whole documents (built without ``chunking``:
    no stored chunk id), so a document must be answered once whatever the query declares.
    Read from one stored entry, once per searcher; an empty index says ``True``."""
    known: bool | None = getattr(searcher, "_kp_documents", None)
    if known is None:
        reader = searcher.reader()
        known = True
        for docnum in reader.all_doc_ids():
            known = reader.stored_fields(docnum)["doc"].get("chunk") is None
            break
        searcher._kp_documents = known
    return known
