"""The embeddings of each index entry (``semanticSearch``), made with its text.

A unit's vector is computed from that unit's own text only — its title and the passages
it holds in its view — and stored in the same Whoosh entry (the schema's ``vector``
column), and so is one vector per passage it holds (its ``passage_vectors`` column: the
title and that passage), which lets a long entry be found by its best passage. So the
public index's vectors come from public passages alone (CONTRACT X2, as for its text),
and whatever removes or replaces an entry's text removes or replaces its vectors in the
same commit (X7, live re-indexing, rebuilds and crash safety need nothing
of their own).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from whoosh import index as whoosh_index

from ..search.embedding import Embedder, Vectors, load_embedder, to_bytes
from ..search.layout import ALL, PUBLIC
from ..search.prepared import Unit
from ..search.schema import PASSAGE_VECTOR_FIELD, VECTOR_FIELD
from ..wiki.document import WikiSettings

__all__ = ["VECTOR_TEXT_VERSION", "VectorsMissing", "check_vectors", "entry_vectors", "missing_vectors",
           "passage_texts", "unit_text", "vector_bytes_of", "with_vectors"]

#: What an entry's vector embeds, versioned: part of the index's settings key, so a build
#: whose vectors embed something else is rebuilt aside. 3 left passages mostly of code out;
#: 4: every passage again (:func:`unit_text`); 5: a vector per passage too (:func:`passage_texts`).
VECTOR_TEXT_VERSION = 5


def vector_bytes_of(settings: WikiSettings) -> int:
    """Bytes of one entry's vector in an index of ``settings`` (0: no vectors)."""
    if settings.semantic_model is None:
        return 0
    return 2 * load_embedder(settings.semantic_model).dimensions


def unit_text(title: str, unit: Unit) -> str:
    """What a unit's vector embeds: the document's title and the unit's passages as shown
    (a section's first one starting with its heading), code included.

    (Leaving passages mostly of code out helped the openai-agents paraphrase set — the
    meaning ranking alone, tuning half: MRR 0.503 → 0.628 — but cost kaia-docs.yaml's
    English queries, whose node-operation pages say what they are for in their commands:
    hybrid at semantic_weight 1, 0.917 / 0.869 → 0.893 / 0.827 recall@5 / MRR; not kept.)"""
    return "\n".join((title, *unit.fields.get("passages", ())))


def passage_texts(title: str, unit: Unit) -> list[str]:
    """What each of a unit's passage vectors embeds, in the order of its ``passages``:
    the document's title and that passage as shown (a section's first passage starts
    with its heading), so a passage is read as part of its page's topic."""
    return [f"{title}\n{passage}" for passage in unit.fields.get("passages", ())]


def entry_vectors(embedder: Embedder, title: str, texts: list[str]) -> Vectors:
    """The unit vectors of the entries of one document titled ``title`` whose texts
    (:func:`unit_text`, which starts with the title) are ``texts``.

    (Adding the title's own vector to each, so the topic is not drowned in a long section's
    tokens, was measured: better MRR on the openai-agents paraphrase set, 0.569 against
    0.507, but worse on the sample wiki's English queries, 0.869 against 0.908; not kept.)"""
    del title  # part of each text already
    return embedder.embed(texts)


def with_vectors(model: str, title: str, units: tuple[Unit, ...]) -> tuple[Unit, ...]:
    """``units`` each with its ``vector`` field (:func:`unit_text`) and its
    ``passage_vectors`` field (:func:`passage_texts`, concatenated): one batch per document.

    Raises:
        EmbeddingUnavailable: the model cannot be loaded.
    """
    if not units:
        return units
    embedder = load_embedder(model)
    vectors = entry_vectors(embedder, title, [unit_text(title, unit) for unit in units])
    pieces = [passage_texts(title, unit) for unit in units]
    passage_vectors = embedder.embed([text for texts in pieces for text in texts])
    done = []
    start = 0
    for unit, vector, texts in zip(units, vectors, pieces, strict=True):
        own = passage_vectors[start:start + len(texts)]
        start += len(texts)
        done.append(replace(unit, fields={**unit.fields, VECTOR_FIELD: to_bytes(vector),
                                          PASSAGE_VECTOR_FIELD: to_bytes(own)}))
    return tuple(done)


class VectorsMissing(RuntimeError):
    """A build made for ``semanticSearch`` holds entries without their vectors (a bug, or a
    build written by other code): it is not published, or, found at start, rebuilt."""


def missing_vectors(build: Path) -> list[str]:
    """What a build folder made with vectors lacks: one line per index whose schema has no
    vector columns, or per segment holding entries but no ``vector`` or
    ``passage_vectors`` column (Whoosh writes a segment's column only when one of its
    entries has a value, so every entry of such a segment is without it). ``[]``: complete.

    Raises:
        OSError, whoosh.index.IndexError: an index of the build cannot be read.
    """
    lacking: list[str] = []
    for sub in (PUBLIC, ALL):
        index = whoosh_index.open_dir(str(build / sub))
        names = index.schema.names()
        if VECTOR_FIELD not in names or PASSAGE_VECTOR_FIELD not in names:
            lacking.append(f"{sub}: the schema has no vector columns")
            continue
        with index.reader() as reader:
            for leaf, _ in reader.leaf_readers():
                if not leaf.doc_count_all():
                    continue
                absent = [f for f in (VECTOR_FIELD, PASSAGE_VECTOR_FIELD) if not leaf.has_column(f)]
                if absent:
                    lacking.append(f"{sub}: segment {leaf.segment().segment_id()} ({leaf.doc_count_all()} entries) "
                                   f"has no {' or '.join(absent)} column")
    return lacking


def check_vectors(settings: WikiSettings, build: Path) -> None:
    """Raise :class:`VectorsMissing` when ``settings`` ask for vectors and the build folder
    lacks any (:func:`missing_vectors`); nothing without ``semanticSearch``."""
    if settings.semantic_model is None:
        return
    lacking = missing_vectors(build)
    if lacking:
        raise VectorsMissing(f"build {build.name} was made for semanticSearch but lacks vectors: "
                             + "; ".join(lacking))
