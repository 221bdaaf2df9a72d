"""Near-copy graph benchmark (corpus rule 6): prints figures, asserts nothing.

    nice python bench/copy_graph.py                          # 2,000, 5,000 and 10,000 documents
    nice python bench/copy_graph.py --docs 5000 --baseline /tmp/kp-main   # before/after, one run

The sketches are those of bench/search.py's wiki (every document a random selection of
one Hetzner tutorial's paragraphs, one in five internal, plus one German document per
ten): the title and body of each file as written, not parsed as Markdown. Documents of
one tutorial share paragraphs and every tutorial shares boilerplate phrases, so pairs
that share sketch values grow with the square of the documents per tutorial — what made
the first build of the graph most of a 50,000-document build.

For each size, with this tree's code (and ``--baseline TREE``'s, in a fresh process on
the same sketches): the graph's first build (``CopyGraph.sync`` of every sketch), rule
6's question (``CopyGraph.near_copies``: public documents against internal ones), 500
keys' ``neighbours`` (what the incremental rules follow), the pairs found, the process's
peak RSS, and whether both trees' answers are identical.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def sketches(where: Path, count: int) -> Path:
    """Write bench/search.py's wiki of ``count`` documents under ``where`` (once) and a
    JSON file ``{relpath: [sketch, internal]}``; returns the file."""
    out = where / f"sketches-{count}.json"
    if out.exists():
        return out
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    from search import build_wiki

    from provider.wiki.copies import sketch

    wiki = where / f"wiki-{count}"
    if not wiki.is_dir():
        build_wiki(wiki, count)
    found: dict[str, tuple[str, bool]] = {}
    for path in sorted(wiki.rglob("*.md")):
        _, front, body = path.read_text("utf-8").split("---", 2)
        title = re.search(r'^title: "(.*)"$', front, re.MULTILINE)
        found[path.relative_to(wiki).as_posix()] = (sketch(f"{title.group(1) if title else ''}\n{body}"),
                                                    "audience: internal" in front)
    out.write_text(json.dumps(found))
    return out


def measure(path: Path) -> dict[str, Any]:
    """Run in the tree whose code is measured (``sys.path`` set by the caller)."""
    from provider.wiki.copies import CopyGraph

    data: dict[str, list[Any]] = json.loads(path.read_text())
    every = {key: value[0] for key, value in data.items() if value[0]}
    targets = {key: value[0] for key, value in data.items() if value[0] and not value[1]}
    sources = {key: value[0] for key, value in data.items() if value[0] and value[1]}
    graph = CopyGraph()
    started = time.perf_counter()
    graph.sync(every)
    build_s = time.perf_counter() - started
    started = time.perf_counter()
    found = graph.near_copies(targets, sources)
    rule_s = time.perf_counter() - started
    probe = sorted(every)[:: max(len(every) // 500, 1)][:500]
    started = time.perf_counter()
    neighbours = {key: sorted(graph.neighbours(key)) for key in probe}
    neighbours_s = time.perf_counter() - started
    answer = json.dumps([sorted(found.items()), sorted(neighbours.items())])
    return {"build_s": build_s, "rule_s": rule_s, "neighbours_ms": neighbours_s / len(probe) * 1000,
            "pairs": sum(len(hits) for hits in found.values()), "targets_hit": len(found),
            "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "answer": hashlib.sha256(answer.encode()).hexdigest()[:16]}


def _run_tree(tree: Path, path: Path) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--measure", str(path), "--tree", str(tree)],
                          capture_output=True, text=True, check=True, cwd=tree)
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", default="2000,5000,10000", help="comma-separated document counts")
    parser.add_argument("--baseline", type=Path, help="another source tree to compare with (before/after)")
    parser.add_argument("--workdir", type=Path, help="keep the wikis and sketches here and reuse them")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure is not None:
        sys.path.insert(0, str(args.tree))
        print(json.dumps(measure(args.measure)))
        return
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}; code {ROOT}")
    trees = {"after": ROOT} if args.baseline is None else {"before": args.baseline.resolve(), "after": ROOT}
    with tempfile.TemporaryDirectory(prefix="kp-copies-") as tmp:
        work = args.workdir or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        for count in (int(c) for c in args.docs.split(",") if c):
            path = sketches(work, count)
            rows = {name: _run_tree(tree, path) for name, tree in trees.items()}
            for name, row in rows.items():
                print(f"[{count:>6} docs] {name:<6} first build {row['build_s']:7.2f} s, rule 6 "
                      f"{row['rule_s']:7.2f} s, neighbours {row['neighbours_ms']:6.2f} ms/key; "
                      f"{row['pairs']} target-source pairs ({row['targets_hit']} targets), peak RSS "
                      f"{row['rss_mib']:.0f} MiB, answer {row['answer']} (load {os.getloadavg()[0]:.2f})", flush=True)
            if args.baseline is not None:
                before, after = rows["before"], rows["after"]
                print(f"[{count:>6} docs] before/after: first build + rule 6 "
                      f"{(before['build_s'] + before['rule_s']) / (after['build_s'] + after['rule_s']):.1f}x faster; "
                      f"answers identical: {before['answer'] == after['answer']}", flush=True)


if __name__ == "__main__":
    main()
