"""``semanticSearch``: the word ranking fused with a meaning ranking, hit for hit.

The lexical search (:class:`~provider.search.backend.WhooshBackend`) finds its hits as
always; :class:`MeaningSearch` adds the entries nearest the query's vector among those
the same query may see (its locale filter, or its searched languages) and fuses the two
rankings by reciprocal rank (:func:`~provider.search.vectors.fuse`), the meaning ranking
weighed :data:`DEFAULT_WEIGHT` against the words' 1 — except that the word ranking's first
hit stays first when the meaning ranking agrees with it (has it among its
:data:`AGREEING_RANKS` first), so a query the words already answer keeps its answer on
top, and is never placed below :data:`KEPT_RANK` otherwise. What follows is the
lexical path's own: one answer per translation group, the locale ranking, the passage
cap, snippets cut from the matching entry's passages (for an entry found by meaning
only, from its passage nearest the query: :meth:`MeaningSearch.passage`), scores that
never rise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .embedding import Embedder, Vectors, load_embedder
from .selection import Hit
from .vectors import RRF_K, fuse, nearest, nearest_passage

__all__ = ["AGREEING_RANKS", "DEFAULT_PASSAGES", "DEFAULT_WEIGHT", "KEPT_RANK", "MeaningSearch", "Semantic"]

#: The meaning ranking's weight in the fusion by default (the words' is 1). Weight 2 beat 1
#: on the tuning halves of the paraphrase sets (MRR +0.01 to +0.06) but cost kaia-docs.yaml's
#: English queries 0.072 recall@5 and 0.021 MRR (0.917 / 0.869 -> 0.845 / 0.848); an
#: operator whose readers ask in their own words can raise semantic_weight.
DEFAULT_WEIGHT = 1.0
#: The word ranking's first hit is kept first when it is among the meaning ranking's this
#: many first (per document). Without it, weight 2 cost the sample wiki's English queries
#: 0.023 MRR (0.943 → 0.920); with 5 of them 0.004. At weight 1 the sample's English
#: queries lose 0.016 MRR with 5 (0.943 → 0.927), 0.035 without; with 10 (and
#: :data:`KEPT_RANK`) 0.001.
AGREEING_RANKS = 10
#: Otherwise the word ranking's first hit is placed no lower than this (1-based; 0: where
#: the fusion puts it). A query the words answer well often has its answer first in the
#: word ranking and nowhere among the nearest entries (kaia-docs' node commands, the sample
#: wiki's "who do I page" → the escalation procedure): reciprocal-rank fusion then lets
#: every entry both rankings found pass it. With 2: kaia-docs.yaml English recall@5 back
#: to lexical's (0.917 → 0.940), the paraphrase sets' tuning halves lose at most 0.021 MRR.
KEPT_RANK = 2
#: How much an entry's best passage counts in its similarity to a query, against the
#: entry's own vector (:func:`~provider.search.vectors.nearest`): 0 the entry alone, 1 its
#: best passage alone. 0: at semantic_weight 1, 0.5 raised the tuning halves' hybrid MRR on
#: the Hetzner paraphrase set only (0.328 -> 0.403; openai-agents 0.563 -> 0.545, kaia-docs
#: and ms-officedocs-support unchanged), cost the sample wiki's English queries 0.011 MRR
#: (0.922 -> 0.911) and the search 3-8 ms of CPU at 5,000 entries. The passage vectors still
#: choose the snippet of an entry found by meaning only.
DEFAULT_PASSAGES = 0.0

#: Half-saturation of :func:`~provider.search.backend.normalised_score`: a hit found by
#: meaning only gets a raw score whose normalised value is its cosine similarity.
_SCORE_HALF = 10.0
#: Meaning candidates read per lexical candidate place (a document's several entries and
#: entries of other locales are skipped among them).
_CANDIDATES = 4


@dataclass(frozen=True)
class Semantic:
    """How ``semanticSearch`` queries are matched.

    Attributes:
        embedder: the model the index's vectors were made with.
        weight: the meaning ranking's weight in the fusion; the word ranking's is 1.
        k: the reciprocal-rank fusion offset.
        lexical: the word ranking's weight (0: the meaning ranking alone, for measuring it).
        agreeing: :data:`AGREEING_RANKS` (0: no hit is kept first).
        passages: :data:`DEFAULT_PASSAGES`, the best passage's share of an entry's similarity.
        kept: :data:`KEPT_RANK` (0: the word ranking's first hit goes where the fusion puts it).
    """

    embedder: Embedder
    weight: float = DEFAULT_WEIGHT
    k: int = RRF_K
    lexical: float = 1.0
    agreeing: int = AGREEING_RANKS
    passages: float = DEFAULT_PASSAGES
    kept: int = KEPT_RANK

    @classmethod
    def load(cls, model: str, weight: float = DEFAULT_WEIGHT) -> Semantic:
        """With the model of the ``semantic_model`` setting (loaded once per process).

        Raises:
            EmbeddingUnavailable: it cannot be loaded.
        """
        return cls(load_embedder(model), weight)


@dataclass(frozen=True)
class MeaningSearch:
    """One query's meaning half: its vector and which entries it may see."""

    semantic: Semantic
    vector: Vectors
    #: the (lowercased) locales of the entries it may find; ``None``: any
    locales: frozenset[str] | None

    def passage(self, searcher: Any, docnum: int) -> int | None:
        """The index of the entry ``docnum``'s passage nearest the query (``None``: it has
        no passage vectors), for the snippet of an entry the words did not find."""
        return nearest_passage(searcher, docnum, self.vector)

    def fused(self, searcher: Any, columns: tuple[Any, Any, Any], lexical: list[Hit], fetch: int,
              per_document: int | None) -> list[Hit]:
        """``lexical`` (best first) fused with the ``fetch`` nearest allowed entries (with
        ``per_document`` 1, each document's nearest entry only), ``lexical``'s first hit
        first when the nearest entries have it among their ``agreeing`` first, else no
        lower than ``kept``: at most
        ``max(len(lexical), fetch)`` hits, best first. ``columns``: the searcher's locale,
        group and path column readers."""
        near = nearest(searcher, self.vector, fetch * _CANDIDATES, self.locales, self.semantic.passages)
        similarity: dict[int, float] = {}
        paths: set[str] = set()
        for score, docnum in near:
            if per_document == 1:
                path = columns[2][docnum]
                if path in paths:
                    continue
                paths.add(path)
            similarity[docnum] = score
            if len(similarity) >= fetch:
                break
        if not similarity:
            return lexical
        by_docnum = {hit.docnum: hit for hit in lexical}
        if per_document == 1:
            # One entry per document: a document the words found is ranked at its lexical entry.
            lexical_paths = {hit.path: hit.docnum for hit in lexical}
            similarity = {lexical_paths.get(columns[2][d], d): s for d, s in similarity.items()}
        words = [hit.docnum for hit in lexical]
        meanings = list(similarity)
        ranked = [docnum for _, docnum in fuse([(self.semantic.lexical, words), (self.semantic.weight, meanings)],
                                                self.semantic.k)]
        if words and self.semantic.lexical > 0 and words[0] in meanings[: self.semantic.agreeing]:
            ranked.remove(words[0])
            ranked.insert(0, words[0])
        elif words and self.semantic.lexical > 0 and 0 < self.semantic.kept <= ranked.index(words[0]):
            ranked.remove(words[0])
            ranked.insert(self.semantic.kept - 1, words[0])
        hits = []
        for docnum in ranked[: max(len(lexical), fetch)]:
            hit = by_docnum.get(docnum)
            if hit is None:
                cosine = min(max(similarity[docnum], 0.0), 0.99)
                hit = Hit(docnum, _SCORE_HALF * cosine / (1 - cosine), columns[0][docnum], columns[1][docnum],
                          columns[2][docnum])
            hits.append(hit)
        return hits

