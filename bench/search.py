"""In-process search latency: prints figures, asserts nothing.

    python bench/search.py                              # 10,000 documents
    python bench/search.py --large                      # also 50,000
    python bench/search.py --index-dir /tmp/kp-search   # keep the indexes for re-runs
    python bench/search.py --baseline /tmp/kp-main      # before/after, same indexes, one run

The wiki is bench/load.py's (each document a random selection of one Hetzner tutorial's
English paragraphs, ~300 words) plus one German document per ten (paragraphs of the
German tutorials, ``locale: de``), so a request locale has something to filter. It is
indexed twice: whole documents (the **minimum** configuration: only ``retrieve``
declared, no request locale) and chunks (``capabilities: all``: every capability, the
request asks ``locale: en``). 500 queries of 2–4 title words, limit 10, no result
cache, with snippets, ``customer_safe``; measured after 20 warm-up queries and the
backend's start-up warm-up thread (spelling indexes, longest posting lists) has finished.

Printed per configuration and size: p50 and p99 of the wall time and of the searching
thread's CPU time (the fairer figure on a shared machine, where wall time includes
waiting for a CPU), each the median of ``--rounds`` rounds, the
share of queries whose typo correction looked anything up, and the share that took the
OR fill-up (a second Whoosh search after the AND).

``--baseline TREE`` runs the same measurement with another source tree's code (e.g. a
``git worktree add /tmp/kp-main main``) on the same indexes, alternating rounds with this
tree, and prints a before/after table and the overlap of the top-10 ids per query.
The indexes must have the same schema version in both trees.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpora" / "hetzner-tutorials" / "tutorials"
QUERIES = 500


def build_wiki(target: Path, count: int) -> list[str]:
    """``count`` English documents (bench/load.py's) and ``count // 10`` German ones;
    returns the query vocabulary (English title words)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from load import build_wiki as english
    from load import tutorial_sources

    vocabulary: list[str] = english(target, count)
    rng = random.Random(23)
    sources = tutorial_sources("de")
    for i in range(count // 10):
        title, paragraphs = sources[i % len(sources)]
        chosen = rng.sample(paragraphs, min(len(paragraphs), rng.randint(3, 6)))
        path = target / "de" / f"d{i % 20:02d}" / f"doc-{i:05d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        body = "\n\n## Hinweise\n\n".join(chosen)
        path.write_text(f"---\ntitle: \"{title} ({i})\"\nlocale: de\n---\n{body}\n", "utf-8")
    return vocabulary


def make_queries(vocabulary: list[str], count: int) -> list[str]:
    rng = random.Random(101)
    return [" ".join(rng.sample(vocabulary, rng.randint(2, 4))) for _ in range(count)]


def prepare(where: Path, docs: int, modes: tuple[str, ...] = ("minimum", "all")) -> dict[str, Any]:
    """Build (or reuse) the wiki and the indexes of ``modes`` of ``docs`` documents under
    ``where``; return ``{"minimum": index, "all": index, "queries": [...]}``."""
    sys.path.insert(0, str(ROOT))
    from provider.indexing import Indexer
    from provider.search.layout import IndexLayout
    from provider.wiki.document import WikiSettings

    where.mkdir(parents=True, exist_ok=True)
    wiki = where / "wiki"
    vocab_file = where / "vocabulary.json"
    if not vocab_file.exists():
        vocab_file.write_text(json.dumps(build_wiki(wiki, docs)))
    vocabulary = json.loads(vocab_file.read_text())
    out: dict[str, Any] = {"queries": make_queries(vocabulary, QUERIES)}
    for mode, chunking in (("minimum", False), ("all", True)):
        if mode not in modes:
            continue
        index = where / f"index-{mode}"
        if not (index / "CURRENT").exists():
            started = time.perf_counter()
            settings = WikiSettings(root=wiki, locales=("en", "de"), chunking=chunking)
            with Indexer(settings, IndexLayout(index)) as indexer:
                indexer.sync()
            print(f"  built {mode} index of {docs} documents in {time.perf_counter() - started:.0f} s", flush=True)
        out[mode] = str(index)
    return out


def measure(index: str, mode: str, queries: list[str], again: bool = False) -> dict[str, Any]:
    """Run in the tree whose code is measured (``sys.path`` set by the caller): one round
    over ``queries``; timings in seconds, top-10 ids, and counts of spelling look-ups
    and OR fill-ups; with ``again``, also the CPU of searching each query a second time
    (``cpu_again``: the same searches once every cache but the answer cache is warm)."""
    from whoosh.searching import Searcher

    import provider.search.backend as backend_module
    from helpthread_kit.backend import SearchQuery
    from helpthread_kit.capabilities import MINIMUM, RETRIEVE
    from helpthread_kit.registrations import Exposure

    calls = {"search": 0, "spelling": 0}
    # Every Whoosh search ends here (``Searcher.search`` too, and a custom collector's).
    original_search = Searcher.search_with_collector

    def counted_search(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls["search"] += 1
        return original_search(self, *args, **kwargs)

    Searcher.search_with_collector = counted_search  # type: ignore[method-assign]
    original_top = getattr(backend_module, "top_entries", None)
    if original_top is not None:  # whole-list scoring (issue 15): a search that did not reach Whoosh's collectors

        def counted_top(*args: Any, **kwargs: Any) -> Any:
            found = original_top(*args, **kwargs)
            calls["search"] += found is not None
            return found

        setattr(backend_module, "top_entries", counted_top)  # noqa: B010 - not exported
    original_closest = backend_module._closest

    def counted_closest(*args: Any, **kwargs: Any) -> Any:
        calls["spelling"] += 1
        return original_closest(*args, **kwargs)

    backend_module._closest = counted_closest  # type: ignore[assignment]
    backend = backend_module.WhooshBackend(Path(index), cache_entries=0, fallback_locales=("en",))
    if mode == "all":
        capabilities = frozenset(backend.implemented_capabilities | {RETRIEVE})
        locale: str | None = "en"
    else:
        capabilities, locale = MINIMUM, None

    def query(text: str) -> Any:
        return SearchQuery(text=text, limit=10, reach=Exposure.CUSTOMER_SAFE, capabilities=capabilities,
                           locale=locale, locale_fallback=False)

    for text in queries[:20]:  # warm: searchers open, segmenters loaded
        backend.search(query(text))
    # And the backend's start-up warm-up (spelling indexes, and after issue 15 the longest
    # posting lists) finished: the figures are a running server's, not its first seconds'.
    import threading
    for thread in threading.enumerate():
        if thread.name == "kp-spelling-warm":
            thread.join(timeout=300)
    timings, cpu, ids, spelled, filled = [], [], [], 0, 0
    for text in queries:
        calls["search"] = calls["spelling"] = 0
        started, cpu_started = time.perf_counter(), time.thread_time()
        results = backend.search(query(text))
        cpu.append(time.thread_time() - cpu_started)
        timings.append(time.perf_counter() - started)
        ids.append([r.document_id + (f"#{r.chunk_id}" if r.chunk_id else "") for r in results])
        spelled += calls["spelling"] > 0
        filled += calls["search"] > 1
    cpu_again = []
    for text in queries if again else ():
        cpu_started = time.thread_time()
        backend.search(query(text))
        cpu_again.append(time.thread_time() - cpu_started)
    return {"timings": timings, "cpu": cpu, "ids": ids, "spelling": spelled / len(queries),
            "fillup": filled / len(queries), "cpu_again": cpu_again}


def _run_tree(tree: Path, index: str, mode: str, queries: list[str], again: bool = False) -> dict[str, Any]:
    """One round with ``tree``'s code, in a fresh process (the two trees' modules cannot
    share one)."""
    payload = json.dumps({"tree": str(tree), "index": index, "mode": mode, "queries": queries, "again": again})
    done = subprocess.run([sys.executable, __file__, "--measure-stdin"], input=payload, capture_output=True,
                          text=True, check=True, cwd=tree)
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000


def _summary(rounds: list[dict[str, Any]]) -> dict[str, float]:
    return {"p50": statistics.median(_pct(r["timings"], 0.5) for r in rounds),
            "p99": statistics.median(_pct(r["timings"], 0.99) for r in rounds),
            "cpu50": statistics.median(_pct(r["cpu"], 0.5) for r in rounds),
            "cpu99": statistics.median(_pct(r["cpu"], 0.99) for r in rounds),
            "spelling": rounds[0]["spelling"], "fillup": rounds[0]["fillup"]}


def _overlap(before: list[list[str]], after: list[list[str]]) -> tuple[float, int]:
    """Mean share of top-10 ids in common, and how many queries answered exactly alike."""
    shares, same = [], 0
    for b, a in zip(before, after, strict=True):
        same += a == b
        shares.append(len(set(a) & set(b)) / max(len(set(a) | set(b)), 1) if a or b else 1.0)
    return statistics.fmean(shares), same


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--large", action="store_true", help="also 50,000 documents (the minimum configuration)")
    parser.add_argument("--index-dir", type=Path, help="keep wikis and indexes here and reuse them")
    parser.add_argument("--baseline", type=Path, help="another source tree to compare with (before/after)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--minimum-only", action="store_true",
                        help="only the minimum configuration (no chunked index to build at --docs)")
    parser.add_argument("--again", action="store_true",
                        help="also search every query a second time: mean CPU of a query seen for the first "
                             "time against the same query again (issue 27)")
    parser.add_argument("--measure-stdin", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure_stdin:
        job = json.loads(sys.stdin.read())
        sys.path.insert(0, job["tree"])
        print(json.dumps(measure(job["index"], job["mode"], job["queries"], job.get("again", False))))
        return
    load = os.getloadavg()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f}")
    trees = {"after": ROOT} if args.baseline is None else {"before": args.baseline.resolve(), "after": ROOT}
    sizes = [args.docs] + ([50_000] if args.large else [])
    with tempfile.TemporaryDirectory(prefix="kp-search-") as tmp:
        base = args.index_dir or Path(tmp)
        table: dict[tuple[int, str, str], dict[str, float]] = {}
        answers: dict[tuple[int, str, str], list[list[str]]] = {}
        again: dict[tuple[int, str, str], list[dict[str, Any]]] = {}
        for size in sizes:
            modes = ("minimum", "all") if size == args.docs and not args.minimum_only else ("minimum",)
            prepared = prepare(base / f"docs-{size}", size, modes)
            for mode in modes:
                rounds: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
                for _ in range(args.rounds):
                    for name, tree in trees.items():  # alternating: both see the same load
                        rounds[name].append(_run_tree(tree, prepared[mode], mode, prepared["queries"], args.again))
                for name in trees:
                    again[(size, mode, name)] = rounds[name]
                    table[(size, mode, name)] = _summary(rounds[name])
                    answers[(size, mode, name)] = rounds[name][0]["ids"]
        load = os.getloadavg()
        print(f"load average after: {load[0]:.2f} {load[1]:.2f}")
        print(f"\n{'documents':>9}  {'config':<8} {'code':<7} {'p50 ms':>7} {'p99 ms':>7} {'CPU p50':>7} "
              f"{'CPU p99':>7} {'spelling':>8} {'OR fill-up':>10}")
        for (size, mode, name), row in table.items():
            print(f"{size:>9,}  {mode:<8} {name:<7} {row['p50']:7.2f} {row['p99']:7.2f} {row['cpu50']:7.2f} "
                  f"{row['cpu99']:7.2f} {row['spelling']:8.0%} {row['fillup']:10.0%}")
        for name in trees:
            small, all_mode = table[(args.docs, "minimum", name)], table.get((args.docs, "all", name))
            line = (f"{name}: all / minimum p50 {all_mode['p50'] / small['p50']:.2f}x "
                    f"(CPU {all_mode['cpu50'] / small['cpu50']:.2f}x)" if all_mode else f"{name}:")
            if args.large:
                large = table[(50_000, "minimum", name)]
                line += (f"; 50,000 / {args.docs:,} p50 {large['p50'] / small['p50']:.2f}x "
                         f"(CPU {large['cpu50'] / small['cpu50']:.2f}x)")
            print(line)
        if args.again:
            for (size, mode, name), found in again.items():
                first = statistics.median(statistics.fmean(r["cpu"]) * 1000 for r in found)
                second = statistics.median(statistics.fmean(r["cpu_again"]) * 1000 for r in found)
                print(f"{name}, {size:,} {mode}: mean CPU of a query seen for the first time {first:.2f} ms, "
                      f"the same query again {second:.2f} ms ({first / second:.2f}x; answer cache off)")
        if args.baseline is not None:
            for (size, mode, name), ids in answers.items():
                if name == "after":
                    share, same = _overlap(answers[(size, mode, "before")], ids)
                    print(f"top-10 overlap before/after, {size:,} {mode}: mean Jaccard {share:.3f}, "
                          f"identical lists {same}/{len(ids)}")


if __name__ == "__main__":
    main()
