"""What ``semanticSearch`` costs at 10,000 pages: prints figures, asserts nothing.

    python bench/semantic_cost.py                            # 10,000 documents (+ 1,000 German)
    python bench/semantic_cost.py --docs 2000 --index-dir /tmp/kp-sem   # keep the builds for re-runs
    python bench/semantic_cost.py --content ../shared/corpora/astro-docs/src/content/docs --locales en,de

The wiki is bench/search.py's (bench/load.py's English documents, one German per ten),
built with ``capabilities: all`` (chunks) twice in this process: without vectors
(lexical) and with the default model's (``semantic_model: wordllama``). Printed:

* **build** — wall and CPU seconds of each build (CPU: this process and its reader
  processes, which do the embedding), and their ratio;
* **search** — over the build with vectors, 500 queries of 2–4 title words, limit 10,
  ``locale: en``, ``customer_safe``, no result cache, after 20 warm-up queries: p50 and p99
  of the searching thread's CPU time without ``semanticSearch`` (lexical) and with it
  (hybrid), the same queries over the same index;
* **memory** — the bytes of the vector matrices a searching process keeps (entries' and
  passages', both indexes' once each is searched), and the process's peak RSS growth;
* **query embedding** — p50 / p99 of the thread CPU time of embedding each query.

CPU time is the fairer figure on a shared machine; the load average is printed beside.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def _cpu() -> float:
    """CPU seconds of this process and of its children that have exited."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _build(content: Path, index: Path, locales: tuple[str, ...], model: str | None) -> dict[str, float]:
    from provider.indexing import Indexer
    from provider.search.layout import IndexLayout
    from provider.wiki.document import WikiSettings

    settings = WikiSettings(root=content, locales=locales, chunking=True, semantic_model=model)
    started, cpu = time.perf_counter(), _cpu()
    with Indexer(settings, IndexLayout(index), parse_timeout_s=900) as indexer:
        indexer.sync()
    return {"wall_s": time.perf_counter() - started, "cpu_s": _cpu() - cpu}


def _search(index: Path, queries: list[str], semantic: Any) -> list[float]:
    from helpthread_kit.backend import SearchQuery
    from helpthread_kit.capabilities import RETRIEVE, SEMANTIC_SEARCH
    from helpthread_kit.registrations import Exposure
    from provider.search.backend import WhooshBackend

    backend = WhooshBackend(index, cache_entries=0, fallback_locales=("en",), semantic=semantic)
    capabilities = frozenset(backend.implemented_capabilities | {RETRIEVE})
    if semantic is None:
        capabilities -= {SEMANTIC_SEARCH}

    def query(text: str) -> Any:
        return SearchQuery(text=text, limit=10, reach=Exposure.CUSTOMER_SAFE, capabilities=capabilities,
                           locale="en", locale_fallback=False)

    for text in queries[:20]:
        backend.search(query(text))
    import threading
    for thread in threading.enumerate():
        if thread.name == "kp-spelling-warm":
            thread.join(timeout=300)
    cpu = []
    for text in queries:
        started = time.thread_time()
        backend.search(query(text))
        cpu.append(time.thread_time() - started)
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--content", type=Path, help="a folder to index instead of the synthetic wiki")
    parser.add_argument("--locales", default="en,de")
    parser.add_argument("--index-dir", type=Path, help="keep the wiki and builds here (a kept build is not re-timed)")
    parser.add_argument("--rounds", type=int, default=3, help="search rounds (each query's median CPU is kept)")
    parser.add_argument("--passages", type=float, help="the best passage's share of an entry's similarity "
                        "(default: the provider's)")
    args = parser.parse_args()
    from search import build_wiki, make_queries

    from provider.search import vectors
    from provider.search.embedding import load_embedder
    from provider.search.semantic import Semantic

    work = args.index_dir or Path(tempfile.mkdtemp(prefix="kp-semcost-"))
    work.mkdir(parents=True, exist_ok=True)
    locales = tuple(args.locales.split(","))
    if args.content is None:
        content = work / "wiki"
        vocab_file = work / "vocabulary.json"
        if not vocab_file.exists():
            vocab_file.write_text(json.dumps(build_wiki(content, args.docs)))
        vocabulary = json.loads(vocab_file.read_text())
    else:
        from provider.search.analysis import terms
        content = args.content.resolve()
        titles = [line.split(":", 1)[1] for path in sorted(content.rglob("*.md*"))[:2000]
                  for line in path.read_text("utf-8", "replace").splitlines()[:10] if line.startswith("title:")]
        vocabulary = sorted({word for title in titles for word in terms(title, "en") if word.isalpha()})
    queries = make_queries(vocabulary, 500)
    print(f"load average {os.getloadavg()[0]:.1f} at start; content {content}", flush=True)
    builds = {}
    for name, model in (("lexical", None), ("semantic", "wordllama")):
        index = work / f"index-{name}"
        if (index / "CURRENT").exists():
            continue
        builds[name] = _build(content, index, locales, model)
        print(f"build {name}: {builds[name]['wall_s']:.1f} s wall, {builds[name]['cpu_s']:.1f} s CPU "
              f"(load average {os.getloadavg()[0]:.1f})", flush=True)
    if len(builds) == 2:
        print(f"build ratio semantic / lexical: CPU {builds['semantic']['cpu_s'] / builds['lexical']['cpu_s']:.2f}, "
              f"wall {builds['semantic']['wall_s'] / builds['lexical']['wall_s']:.2f}")
    embedder = load_embedder("wordllama")
    embed = []
    for text in queries:
        started = time.thread_time()
        embedder.embed_query(text)
        embed.append(time.thread_time() - started)
    print(f"query embedding CPU: p50 {1000 * _pct(embed, 0.5):.3f} ms, p99 {1000 * _pct(embed, 0.99):.3f} ms")
    semantic = Semantic(embedder) if args.passages is None else Semantic(embedder, passages=args.passages)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    by_mode: dict[str, list[list[float]]] = {"lexical": [], "hybrid": []}
    for _ in range(args.rounds):
        by_mode["lexical"].append(_search(work / "index-semantic", queries, None))
        by_mode["hybrid"].append(_search(work / "index-semantic", queries, semantic))
    for mode, rounds in by_mode.items():
        per_query = [statistics.median(values) for values in zip(*rounds, strict=True)]
        print(f"search {mode}: CPU p50 {1000 * _pct(per_query, 0.5):.2f} ms, p99 {1000 * _pct(per_query, 0.99):.2f} ms "
              f"(load average {os.getloadavg()[0]:.1f})")
    held = sum(m.nbytes for m in vectors.MATRICES.values()) + sum(
        rows[0].nbytes + rows[1].nbytes + rows[2].nbytes for rows in vectors.PASSAGES.values())
    entries = sum(len(m) for m in vectors.MATRICES.values())
    passages = sum(len(rows[0]) for rows in vectors.PASSAGES.values())
    print(f"vector memory: {held / 2**20:.1f} MiB ({entries} entry vectors, {passages} passage vectors, "
          f"both indexes); peak RSS grew {(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss) / 1024:.1f} MiB "
          "while searching")


if __name__ == "__main__":
    main()
