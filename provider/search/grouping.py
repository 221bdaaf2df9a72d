"""Which languages can still add an answer once a query's own languages were searched.

Without a request locale, one document per translation group is answered, in the
language the query is written in, else the default locale's
(:func:`~provider.search.selection.by_writing`). The other languages of the query's script
are searched only to fill up (:func:`~provider.search.querylang.searched_first`), and a
language can add an answer only through a document whose translation group has no
document in the languages already searched (or a document in no group). Which languages
hold such documents is read once per segment from the index's ``locale`` and ``group``
columns and combined once per index generation, so a wiki whose every article exists in
the default locale never searches the other languages at all, however many there are.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Collection, Hashable
from typing import Any

from cachetools import LRUCache, cached

from .arrays import segment_key

__all__ = ["entries_are_documents", "languages_with_unmatched_groups"]

#: Segments whose groups are remembered per process (each ~100 bytes per group): a
#: build's two indexes, their newest small segments and the ones a merge replaces.
SEGMENTS_KEPT = 16
#: Answers remembered per process: (the segments of an index generation, languages
#: searched) pairs.
ANSWERS_KEPT = 64

#: Shared by the search threads: each cache is read and written under it (values are
#: computed outside it, so two threads may compute the same one; both are equal).
_lock = threading.Lock()


def _group_languages(columns: tuple[Any, Any, Any], count: int,
                     language_of: Callable[[str], str]) -> dict[str, frozenset[str]]:
    """``{group: its entries' languages}`` over ``count`` entries (every entry: the
    deleted ones too, as the answer always counted them)."""
    locales, groups, paths = columns
    try:
        rows = list(zip(locales, groups, paths, strict=True))
    except (TypeError, ValueError):  # a column reader that cannot be iterated whole
        rows = []
    if len(rows) != count:
        rows = [(locales[docnum], groups[docnum], paths[docnum]) for docnum in range(count)]
    found: dict[str, set[str]] = {}
    language: dict[str, str] = {}
    for locale, group, path in rows:
        lang = language.get(locale)
        if lang is None:
            lang = language[locale] = language_of(locale)
        found.setdefault(group or f"\0{path}", set()).add(lang)
    shared: dict[frozenset[str], frozenset[str]] = {}
    return {group: shared.setdefault(frozenset(langs), frozenset(langs)) for group, langs in found.items()}


def _unmatched(members: dict[str, frozenset[str]], key: frozenset[str]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for langs in members.values():
        if not langs & key:
            counts.update(langs)
    return counts


def languages_with_unmatched_groups(
    searcher: Any, columns: tuple[Any, Any, Any], searched: Collection[str], language_of: Callable[[str], str]
) -> frozenset[str]:
    """The analysis languages holding a document whose translation group has no document
    in any of the ``searched`` languages (documents in no group count as their own group).

    Computed once per index generation and set of ``searched`` languages in a process,
    whatever the number of searchers (one per search thread and generation): each
    segment's groups are read once (their column values: the costly part), and
    a generation's answer combines them, walking only the groups of segments other than
    its largest (a one-file update adds a small segment: its groups, not the index's).

    Args:
        searcher: a Whoosh searcher. With the backend's ``_kp_scope`` (the index folder)
            the answer is shared by every searcher of that index; without, it is
            remembered on the searcher (its index never changes).
        columns: its ``locale``, ``group`` and ``path`` column readers (read when the
            searcher has no scope or its segments no identity).
        searched: analysis languages already searched.
        language_of: a document's analysis language from its (lowercased) locale: the
            same function for every searcher of one scope (the index's schema languages).
    """
    key = frozenset(searched)
    scope = getattr(searcher, "_kp_scope", None)
    reader = searcher.reader()
    leaves = [leaf for leaf, _ in reader.leaf_readers()] if scope is not None else []
    names = tuple(segment_key(scope, leaf) for leaf in leaves)
    if not names or any(name[0] == "reader" for name in names):  # type: ignore[index]
        return _per_searcher(searcher, columns, key, language_of)
    return _generation_answer(names, key, leaves, language_of)


# Per (the segments of an index generation, languages searched): the answer.
@cached(LRUCache(ANSWERS_KEPT), key=lambda names, key, leaves, language_of: (names, key), lock=_lock)
def _generation_answer(names: tuple[Hashable, ...], key: frozenset[str], leaves: list[Any],
                       language_of: Callable[[str], str]) -> frozenset[str]:
    parts = [(name, _segment_members(name, leaf, language_of)) for name, leaf in zip(names, leaves, strict=True)]
    # The largest segment's counts, kept; the other segments' groups corrected on them.
    parts.sort(key=lambda part: len(part[1]), reverse=True)
    (base_name, base), rest = parts[0], parts[1:]
    counts = Counter(_open_counts(base_name, key, base))
    united: dict[str, frozenset[str]] = {}
    for _, members in rest:
        for group, langs in members.items():
            united[group] = united.get(group, base.get(group, frozenset())) | langs
    for group, langs in united.items():
        before = base.get(group)
        if before is not None and not before & key:
            counts.subtract(before)
        if not langs & key:
            counts.update(langs)
    return frozenset(lang for lang, count in counts.items() if count > 0)


# Per segment: its translation groups (documents in none: ``"\0" + path``) and the
# analysis languages of its entries in each; a segment never changes (its deleted
# entries count as before, so deletions change nothing either).
@cached(LRUCache(SEGMENTS_KEPT), key=lambda name, leaf, language_of: name, lock=_lock)
def _segment_members(name: Hashable, leaf: Any, language_of: Callable[[str], str]) -> dict[str, frozenset[str]]:
    return _group_languages((leaf.column_reader("locale"), leaf.column_reader("group"), leaf.column_reader("path")),
                            leaf.doc_count_all(), language_of)


# Per (segment, languages searched): how many of its groups in no searched language
# hold each language (read, never changed: callers copy it).
@cached(LRUCache(ANSWERS_KEPT), key=lambda name, key, members: (name, key), lock=_lock)
def _open_counts(name: Hashable, key: frozenset[str], members: dict[str, frozenset[str]]) -> Counter[str]:
    return _unmatched(members, key)


def _per_searcher(searcher: Any, columns: tuple[Any, Any, Any], key: frozenset[str],
                  language_of: Callable[[str], str]) -> frozenset[str]:
    memo: dict[frozenset[str], frozenset[str]] | None = getattr(searcher, "_kp_unmatched", None)
    if memo is None:
        memo = {}
        searcher._kp_unmatched = memo
    found = memo.get(key)
    if found is None:
        members = _group_languages(columns, searcher.reader().doc_count_all(), language_of)
        found = memo[key] = frozenset(lang for lang, count in _unmatched(members, key).items() if count > 0)
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
