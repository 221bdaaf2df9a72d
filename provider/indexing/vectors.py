"""The embedding of each index entry (``semanticSearch``), made with its text.

A unit's vector is computed from that unit's own text only — its title and the passages
it holds in its view, less those mostly made of code — and stored in the same Whoosh entry (the schema's ``vector``
column). So the public index's vectors come from public passages alone (CONTRACT X2, as
for its text), and whatever removes or replaces an entry's text removes or replaces its
vector in the same commit (X7, live re-indexing, rebuilds and crash safety need nothing
of their own).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..search.embedding import Embedder, Vectors, load_embedder, to_bytes
from ..search.prepared import Unit
from ..search.schema import VECTOR_FIELD
from ..wiki.document import WikiSettings

__all__ = ["VECTOR_TEXT_VERSION", "entry_vectors", "unit_text", "vector_bytes_of", "with_vectors"]

#: What an entry's vector embeds, versioned: part of the index's settings key, so a build
#: whose vectors embed something else is rebuilt aside. 3: passages mostly of code left out.
VECTOR_TEXT_VERSION = 3


def vector_bytes_of(settings: WikiSettings) -> int:
    """Bytes of one entry's vector in an index of ``settings`` (0: no vectors)."""
    if settings.semantic_model is None:
        return 0
    return 2 * load_embedder(settings.semantic_model).dimensions


def unit_text(title: str, passages: Sequence[str]) -> str:
    """What a unit's vector embeds: the document's title and the unit's passages as shown
    (a section's first one starting with its heading), those mostly made of code left out
    (all of them when every passage is).

    (A code sample's tokens say little of what a page is for to a static model, and in a
    tutorial they outweighed the prose in the mean. The meaning ranking alone, tuning half
    of the openai-agents paraphrase set: MRR 0.503 → 0.628, the other sets within ±0.015.
    Stripping every code span, inline ones too, lost Hetzner's product names: its MRR
    fell 0.223 → 0.176.)"""
    return "\n".join((title, *passages))


def entry_vectors(embedder: Embedder, title: str, texts: list[str]) -> Vectors:
    """The unit vectors of the entries of one document titled ``title`` whose texts
    (:func:`unit_text`, which starts with the title) are ``texts``.

    (Adding the title's own vector to each, so the topic is not drowned in a long section's
    tokens, was measured: better MRR on the openai-agents paraphrase set, 0.569 against
    0.507, but worse on the sample wiki's English queries, 0.869 against 0.908; not kept.)"""
    del title  # part of each text already
    return embedder.embed(texts)


def with_vectors(model: str, title: str, units: tuple[Unit, ...], prose: tuple[Sequence[str], ...]
                 ) -> tuple[Unit, ...]:
    """``units`` each with its ``vector`` field (one batch per document); ``prose[i]``:
    the passages unit ``i``'s vector embeds (:func:`unit_text`).

    Raises:
        EmbeddingUnavailable: the model cannot be loaded.
    """
    if not units:
        return units
    vectors = entry_vectors(load_embedder(model), title, [unit_text(title, texts) for texts in prose])
    return tuple(replace(unit, fields={**unit.fields, VECTOR_FIELD: to_bytes(vector)})
                 for unit, vector in zip(units, vectors, strict=True))
