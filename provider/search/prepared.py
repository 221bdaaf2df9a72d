"""Index entries analysed once: units, their postings, and writers that take them as they are.

Analysing text (tokenizing, folding, stemming) is most of what writing a document to
Whoosh costs, and it was done up to three times per text: for the stored passage terms,
for the agent (``all``) index and again for the public index. The entries' text fields,
passage terms and the analysed postings of every searched field depend only on the file
itself, not on its audience or translation group, so they are made in the reader
processes, beside the parsing and in parallel (:func:`~provider.indexing.units.prepare`
makes the units, :func:`pack` their postings), and the writers of both
indexes take the postings as they are (:class:`AnalysedOnce`) instead of analysing the
same text again. The entries themselves are identical to analysing in the writer: the
same schema's analyzers run on the same values, only elsewhere.
"""

from __future__ import annotations

import pickle
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from whoosh.fields import FieldType, Schema
from whoosh.formats import Frequency, Positions
from whoosh.formats import dumps as _dumps
from whoosh.formats import pack_uint as _pack_uint
from whoosh.writing import IndexWriter

from .analysis import fast_analysis, index_terms
from .schema import build_schema

__all__ = ["AnalysedOnce", "Posting", "Unit", "load", "pack", "postings_of"]

#: One posting of one field value as Whoosh's ``FieldType.index`` yields it:
#: ``(term bytes, frequency, weight, encoded value)``.
Posting = tuple[bytes, int, float, bytes]


@dataclass(frozen=True)
class Unit:
    """What one Whoosh document holds apart from the corpus-wide decisions: a whole
    document or one chunk of it.

    Attributes:
        chunk_id: the chunk's id, ``None`` for a whole document.
        anchor: the chunk's URL fragment (``""`` for a whole document).
        fields: the entry's fields except ``doc`` and ``group``.
        passage_anchors: per passage of ``fields["passages"]``, the URL fragment of the
            heading that governs it (the nearest above, at any level; ``""`` before the
            first heading): what a result showing that passage cites (CONTRACT R3, R7).
            Empty for a whole document.
    """

    chunk_id: str | None
    anchor: str
    fields: dict[str, Any]
    passage_anchors: tuple[str, ...] = ()


def postings_of(field: FieldType, value: Any, index: Any = None) -> list[Posting]:
    """What ``field.index(value)`` yields — ``(term bytes, frequency, weight, encoded
    value)`` per distinct term, in order of first occurrence — as a list. For a text
    field of our analyzers (:func:`~provider.search.analysis.fast_analysis`) with
    Whoosh's ``Frequency`` format (the schema's) or ``Positions`` format, the terms come
    from :func:`~provider.search.analysis.index_terms` and only the encoding is
    Whoosh's: the same postings, without a generator per token and filter. Other fields
    are analysed by ``index`` (by default ``field.index``)."""
    kind = type(field.format) if isinstance(value, str) else None
    fast = fast_analysis(field.analyzer) if kind is Frequency or kind is Positions else None
    if fast is None:
        return list((index or field.index)(value))
    boost = field.format.field_boost
    if kind is Frequency:
        # Counted in C, in order of first occurrence (as Frequency.word_values's dict);
        # the weight is the count times the boost, as Whoosh's sum of 1.0 per token is.
        return [(term.encode("utf-8"), count, count * boost, _pack_uint(count))
                for term, count in Counter(index_terms(value, *fast)).items()]
    positions: dict[str, list[int]] = {}
    for position, term in enumerate(index_terms(value, *fast)):
        found = positions.get(term)
        if found is None:
            positions[term] = [position]
        else:
            found.append(position)
    return [(term.encode("utf-8"), len(found), len(found) * boost, _encode_positions(found))
            for term, found in positions.items()]


def _encode_positions(found: list[int]) -> bytes:
    """``Positions.encode(found)`` (Whoosh's own ``pack_uint`` and ``dumps`` on the same
    gaps), without a Python loop for a term found once — most terms: its one gap is its
    position."""
    gaps = found if len(found) == 1 else [b - a for a, b in zip([0, *found[:-1]], found, strict=True)]
    encoded: bytes = _pack_uint(len(gaps)) + _dumps(gaps, 2)
    return encoded


@cache
def _schema(languages: tuple[str, ...]) -> Schema:
    return build_schema(languages)


def _searched(name: str) -> bool:
    return name.startswith(("title_", "body_", "code_"))


def pack(languages: tuple[str, ...], views: dict[bool, tuple[Unit, ...]]) -> bytes:
    """Run in a reader process: a document's units by view (``True``: the public index)
    and the postings of every searched field value in them, pickled for the main process
    (it keeps them until the corpus rules have run; pickled, they take a fraction of the
    memory). ``languages``: the analysis languages they were made for.

    The result is read by :func:`load`: ``(units by public_view, postings by
    (field name, value))``.
    """
    schema = _schema(languages)
    postings: dict[tuple[str, str], list[Posting]] = {}
    for units in views.values():
        for unit in units:
            for name, value in unit.fields.items():
                if _searched(name) and value and (name, value) not in postings:
                    postings[(name, value)] = postings_of(schema[name], value)
    return pickle.dumps((languages, views, postings), protocol=pickle.HIGHEST_PROTOCOL)


def load(data: bytes | None, languages: tuple[str, ...]) -> tuple[dict[bool, tuple[Unit, ...]],
                                                                  dict[tuple[str, str], list[Posting]]] | None:
    """What :func:`pack` made, or ``None`` when there is none or it was made for other
    analysis languages (the caller then analyses in process)."""
    if data is None:
        return None
    # Made by our own reader processes (the queue that brought it is pickle too).
    made_for, views, postings = pickle.loads(data)  # noqa: S301
    if made_for != languages:
        return None
    return views, postings


class AnalysedOnce:
    """Lets Whoosh writers take analysed postings instead of analysing field values.

    :meth:`attach` replaces, on one writer's own schema object, the ``index`` method of
    each searched field with one that answers from :attr:`postings` when the value is
    there — filled from :func:`pack`'s postings, or by the first writer that analysed it — and
    analyses as before otherwise. Call :meth:`clear` between documents and
    :meth:`detach` before committing.
    """

    def __init__(self) -> None:
        self.postings: dict[tuple[str, str], list[Posting]] = {}

    def attach(self, writer: IndexWriter) -> None:
        schema = writer.schema
        for name in schema.names():
            if _searched(name):
                field = schema[name]
                field.index = self._indexer(name, field, field.index)

    def detach(self, writer: IndexWriter) -> None:
        """Give the writer's fields their own ``index`` back: call before the commit, which
        pickles the schema (a closure cannot be pickled)."""
        schema = writer.schema
        for name in schema.names():
            field = schema[name]
            if "index" in vars(field):
                del field.index

    def _indexer(self, name: str, field: FieldType, analyse: Any) -> Any:
        postings = self.postings

        def index(value: Any, **kwargs: Any) -> Iterable[Posting]:
            if kwargs or not isinstance(value, str):
                analysed: Iterable[Posting] = analyse(value, **kwargs)
                return analysed
            known: list[Posting] | None = postings.get((name, value))
            if known is None:
                known = postings[(name, value)] = postings_of(field, value, analyse)
            # The list itself: Whoosh's writers only iterate it, and TermWriter takes a
            # list as it is instead of copying it.
            return known

        return index

    def clear(self) -> None:
        self.postings.clear()
