"""Which languages can still add an answer (``grouping.languages_with_unmatched_groups``):
the answer shared per index generation equals a walk over every entry, for any
segments, deletions and languages searched."""

from __future__ import annotations

from uuid import uuid4

from hypothesis import given, settings
from hypothesis import strategies as st
from whoosh.fields import ID, Schema

from provider.search.grouping import languages_with_unmatched_groups
from tests.support import ram_index

LOCALES = ["en", "en-gb", "de", "fr", "ja", "zh-hant", "xx"]
LANGUAGES = {"en", "de", "fr", "ja", "zh"}


def _language(locale: str) -> str:
    language = locale.split("-", 1)[0]
    return language if language in LANGUAGES else "any"


def _schema() -> Schema:
    return Schema(key=ID(stored=True, unique=True), path=ID(stored=True, sortable=True),
                  locale=ID(sortable=True), group=ID(sortable=True))


def _walk(entries: list[tuple[str, str, str]], searched: frozenset[str]) -> frozenset[str]:
    """The definition: every entry written, deleted or not."""
    members: dict[str, set[str]] = {}
    for path, locale, group in entries:
        members.setdefault(group or "\0" + path, set()).add(_language(locale))
    return frozenset(lang for langs in members.values() if not langs & searched for lang in langs)


entry = st.tuples(st.sampled_from([f"p{i}.md" for i in range(12)]), st.sampled_from(LOCALES),
                  st.sampled_from(["", "g1", "g2", "g3", "g4"]))
batches = st.lists(st.tuples(st.lists(entry, min_size=0, max_size=8), st.lists(st.integers(0, 40), max_size=3)),
                   min_size=1, max_size=4)
searches = st.lists(st.frozensets(st.sampled_from(sorted(LANGUAGES | {"any"})), max_size=3), min_size=1, max_size=4)


def _columns(searcher: object) -> tuple[object, object, object]:
    reader = searcher.reader()  # type: ignore[attr-defined]
    return reader.column_reader("locale"), reader.column_reader("group"), reader.column_reader("path")


@settings(max_examples=60, deadline=None)
@given(batches=batches, searches=searches)
def test_shared_answer_equals_the_walk_over_every_entry(batches: list[tuple[list[tuple[str, str, str]], list[int]]],
                                                        searches: list[frozenset[str]]) -> None:
    """Per generation (several segments, deleted entries), the shared answer equals the
    walk, on a new searcher of the same generation too (the shared one), and with no
    scope (remembered per searcher)."""
    ix = ram_index(_schema())
    scope = f"test-{uuid4().hex}"
    written: list[tuple[str, str, str]] = []
    for added, deleted in batches:
        writer = ix.writer()
        for path, locale, group in added:
            writer.add_document(key=str(len(written)), path=path, locale=locale, group=group)
            written.append((path, locale, group))
        for position in deleted:  # a deleted entry still counts, as the walk always did
            if position < len(written):
                writer.delete_by_term("key", str(position))
        writer.commit(merge=False)
        if not written:
            continue
        for key in searches:
            expected = _walk(written, key)
            for shared in (True, True, False):
                with ix.searcher() as searcher:
                    if shared:
                        searcher._kp_scope = scope
                    got = languages_with_unmatched_groups(searcher, _columns(searcher), key, _language)
                assert got == expected, (key, written)
