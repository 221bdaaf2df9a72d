"""Relevance of the sample wiki: recall@5 and MRR per language and capability mode.

Indexes ``content/`` in process (a temporary index, with the shipped
``knowledge-provider.yaml``), sends every query of ``bench/relevance/queries.yaml``
through the real :class:`~provider.search.backend.WhooshBackend` and judges the answers:

* **recall@5** — of a query's expected documents, the share found among the first five
  distinct documents answered (a query expecting more than five counts five);
* **MRR** — the mean of 1 / rank of the first expected document (0 when none is in the
  first ten distinct documents).

Modes: ``minimum`` — only ``retrieve`` declared, so no locale is sent and nothing is
filtered by language; ``all`` — every implemented capability (``capabilities: all``):
the query's ``locale`` and ``localeFallback`` are sent, results are chunks (ranks are
counted over distinct documents, in the order their first chunk appears); ``all-whole`` —
the same without ``chunking`` (not shown by default; useful when tuning);
``minimum-over-all`` — ``minimum``'s queries over the ``all`` build, which holds the same
entries a ``minimum`` build does (a document's chunks; only the stored chunk ids and URLs
differ), so one slow build serves both modes.

    python bench/relevance.py                 # the table
    python bench/relevance.py --misses        # also every query whose best answer is not first
    python bench/relevance.py --json          # machine-readable
    python bench/relevance.py --corpus paraphrase-hetzner-tutorials --semantic --half held-out

``--half``: ``tune`` keeps a set's 1st, 3rd, 5th … queries, ``held-out`` the 2nd, 4th …
(the fusion and embedding choices of issue 28 were tuned on ``tune`` of the paraphrase
sets; ``held-out`` gives figures on queries no choice was made with).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from dataclasses import replace as dataclass_replace
from pathlib import Path
from typing import Any

import yaml
from msgspec.structs import replace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from helpthread_kit.backend import SearchQuery  # noqa: E402
from helpthread_kit.capabilities import RETRIEVE, SEMANTIC_SEARCH  # noqa: E402
from helpthread_kit.locales import canonical_tag  # noqa: E402
from helpthread_kit.registrations import Exposure  # noqa: E402
from provider.config import load_config  # noqa: E402 - after the path set-up above
from provider.indexing import Indexer  # noqa: E402
from provider.search.backend import WhooshBackend  # noqa: E402
from provider.search.embedding import load_embedder  # noqa: E402
from provider.search.layout import IndexLayout  # noqa: E402
from provider.search.semantic import DEFAULT_WEIGHT, Semantic  # noqa: E402
from provider.search.vectors import RRF_K  # noqa: E402

MODES = {"minimum": "minimum", "all": "all", "all-whole": "all-but-chunking", "minimum-over-all": "minimum"}
DEPTH = 5
#: Languages in the order the table shows them (the query's ``language``).
LANGUAGES = ("en", "de", "ja", "ko", "zh-Hans", "zh-Hant", "ar")
FETCH = 20


@dataclass(frozen=True)
class Query:
    query: str
    language: str
    profile: str
    locale: str | None
    fallback: bool
    expect: tuple[str, ...]
    kind: str


@dataclass(frozen=True)
class QuerySet:
    """A relevance set: its queries, and for a set on a real corpus the configuration it is
    served with (``None``: the shipped ``knowledge-provider.yaml`` over ``--content``)."""

    queries: list[Query]
    config: Path | None = None


def _expected_id(template: dict[str, str], path: str, locale: str) -> str:
    pattern = template.get(locale, template["*"])
    return pattern.format(path=path, locale=locale, folder=locale.lower())


def load_queries(path: Path) -> QuerySet:
    """Read a set: a list of entries (the sample wiki's sets), or a mapping with ``config``,
    ``ids`` (document id templates per locale, ``*`` for the others) and ``queries`` whose
    ``expect`` lists translation-group paths (a real corpus's sets)."""
    data = yaml.safe_load(path.read_text("utf-8"))
    if isinstance(data, list):
        return QuerySet([Query(e["query"], e["language"], e["profile"], e.get("locale"), bool(e.get("fallback")),
                               tuple(e["expect"]), e.get("kind", "")) for e in data])
    ids = data["ids"]
    queries = [Query(e["query"], e["language"], e["profile"], e.get("locale"), bool(e.get("fallback")),
                     tuple(_expected_id(ids, p, e["locale"]) for p in e["expect"]), e.get("kind", ""))
               for e in data["queries"]]
    return QuerySet(queries, (path.parent / data["config"]).resolve())


def _capabilities(mode: str) -> str | tuple[str, ...]:
    if mode == "minimum":
        return "minimum"
    every = sorted(WhooshBackend.implemented_capabilities | {RETRIEVE})
    return "all" if mode == "all" else tuple(c for c in every if c != "chunking")


Answers = list[tuple[Query, list[str]]]
#: ``--semantic``: each mode's queries answered three ways over one build with vectors.
MATCHING = {"lexical": None, "vector": 0.0, "hybrid": 1.0}


def run_mode(mode: str, queries: QuerySet, content: Path, index_dir: Path | None = None, *,
             semantic: Semantic | None = None) -> Answers | dict[str, Answers]:
    """Each query with the distinct documentIds answered, best first. With ``index_dir``
    the index is kept there and brought up to date instead of built afresh (a changed
    schema or analysis still rebuilds it). With ``semantic``, the index holds vectors and
    the answers are given per :data:`MATCHING` (``lexical``: without ``semanticSearch``;
    ``vector``: the meaning ranking alone, the word ranking's weight 0; ``hybrid``: fused)."""
    if queries.config is None:
        config = replace(load_config(ROOT / "knowledge-provider.yaml"), content=content)
    else:
        config = load_config(queries.config)
    # minimum-over-all: minimum-mode queries over the `all` build (with --index-dir, the
    # one `all` made): it holds the same entries a minimum build does, bar chunk ids and URLs.
    built = "all" if mode == "minimum-over-all" else mode
    declared = replace(config, capabilities=_capabilities(mode.removesuffix("-over-all"))).declared_capabilities(
        WhooshBackend.implemented_capabilities)
    config = replace(config, capabilities=_capabilities(built), semantic_search=semantic is not None)
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp) if index_dir is None else index_dir / built
        where.mkdir(parents=True, exist_ok=True)
        with Indexer(config.wiki_settings(), IndexLayout(where)) as indexer:
            indexer.sync()
        if semantic is None:
            backend = WhooshBackend(where, cache_entries=0, fallback_locales=config.fallback_chain)
            return _answers(backend, queries, declared)
        by_matching = {}
        for name, lexical_weight in MATCHING.items():
            fusion = None if lexical_weight is None else dataclass_replace(semantic, lexical=lexical_weight)
            backend = WhooshBackend(where, cache_entries=0, fallback_locales=config.fallback_chain, semantic=fusion)
            caps = declared | {SEMANTIC_SEARCH} if fusion is not None else declared
            by_matching[name] = _answers(backend, queries, caps)
        return by_matching


def _answers(backend: WhooshBackend, queries: QuerySet, declared: frozenset[str]) -> list[tuple[Query, list[str]]]:
    answers = []
    for q in queries.queries:
        locale = canonical_tag(q.locale) if q.locale and "locale" in declared else None
        search = SearchQuery(text=q.query, limit=FETCH, reach=Exposure(q.profile), capabilities=declared,
                             locale=locale, locale_fallback=q.fallback and "localeFallback" in declared)
        answers.append((q, list(dict.fromkeys(r.document_id for r in backend.search(search)))))
    return answers


def judge(answers: list[tuple[Query, list[str]]]) -> dict[str, dict[str, float]]:
    """``{group: {"n", "recall@5", "mrr"}}`` for each language, each kind and ``all``."""
    sums: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    for q, ids in answers:
        expected = set(q.expect)
        recall = len(expected & set(ids[:DEPTH])) / min(len(expected), DEPTH)
        rr = next((1 / rank for rank, doc in enumerate(ids[:10], start=1) if doc in expected), 0.0)
        for group in (q.language, f"kind:{q.kind}", "all"):
            sums[group][0] += 1
            sums[group][1] += recall
            sums[group][2] += rr
    return {g: {"n": n, "recall@5": round(r / n, 3), "mrr": round(m / n, 3)} for g, (n, r, m) in sums.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=Path, default=ROOT / "bench" / "relevance" / "queries.yaml")
    parser.add_argument("--content", type=Path, default=ROOT / "content")
    parser.add_argument("--modes", default="minimum,all", help="comma-separated: " + ", ".join(MODES))
    parser.add_argument("--by-kind", action="store_true", help="also break the figures down by query kind")
    parser.add_argument("--misses", action="store_true", help="list queries whose best answer is not first")
    parser.add_argument("--corpus", help="a set on a real corpus: bench/relevance/NAME.yaml (kaia-docs, astro-docs, "
                        "paraphrase-<corpus> for each shared corpus)")
    parser.add_argument("--index-dir", type=Path, help="keep the indexes here and reuse them (faster re-runs)")
    parser.add_argument("--semantic", action="store_true",
                        help="build with vectors (semantic_search) and show lexical, vector and hybrid rows per mode")
    parser.add_argument("--semantic-model", default="wordllama", help="with --semantic: the semantic_model")
    parser.add_argument("--semantic-weight", type=float, default=DEFAULT_WEIGHT,
                        help="with --semantic: semantic_weight")
    parser.add_argument("--rrf-k", type=int, default=RRF_K, help="with --semantic: the fusion's rank offset")
    parser.add_argument("--half", choices=("tune", "held-out"),
                        help="only the tuning half of the set (1st, 3rd … query) or the held-out one (2nd, 4th …)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    path = ROOT / "bench" / "relevance" / f"{args.corpus}.yaml" if args.corpus else args.queries
    queries = load_queries(path)
    if args.half:
        kept = 0 if args.half == "tune" else 1
        queries = QuerySet([q for i, q in enumerate(queries.queries) if i % 2 == kept], queries.config)
    report: dict[str, Any] = {}
    semantic = (Semantic(load_embedder(args.semantic_model), args.semantic_weight, args.rrf_k)
                if args.semantic else None)
    for mode in args.modes.split(","):
        found = run_mode(mode, queries, args.content.resolve(), args.index_dir, semantic=semantic)
        for name, answers in (found.items() if isinstance(found, dict) else [(mode, found)]):
            key = mode if not isinstance(found, dict) else f"{mode}/{name}"
            report[key] = {"figures": judge(answers),
                           "misses": [{"query": q.query, "expect": list(q.expect), "got": ids[:DEPTH]}
                                      for q, ids in answers if not ids or ids[0] not in q.expect]}
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    print(f"{len(queries.queries)} queries; recall@{DEPTH} and MRR over distinct documents\n")
    print(f"{'mode':<22}{'group':<16}{'n':>4}{'recall@5':>10}{'MRR':>8}")
    for mode, data in report.items():
        figures = data["figures"]
        groups = [g for g in (*LANGUAGES, "all") if g in figures]
        if args.by_kind:
            groups += sorted(g for g in figures if g.startswith("kind:"))
        for group in groups:
            row = figures[group]
            print(f"{mode:<22}{group:<16}{row['n']:>4}{row['recall@5']:>10.3f}{row['mrr']:>8.3f}")
    if args.misses:
        for mode, data in report.items():
            print(f"\n{mode}: best answer not first")
            for miss in data["misses"]:
                print(f"  {miss['query']!r}: expected {miss['expect'][0]}, got {miss['got'][:3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
