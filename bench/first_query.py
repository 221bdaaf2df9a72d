"""First-query latency after ready: prints figures, asserts nothing.

    python bench/first_query.py                              # sample wiki and kaia-docs, this tree
    python bench/first_query.py --baseline /tmp/kp-base      # side by side with another checkout

Each corpus is served by the real server (``knowledge-provider serve``, one worker) from
an empty index folder. Once ``/readyz`` first answers 200 (polled every 50 ms), three
signed ``/retrieve`` requests are sent one after the other and each is timed (wall
clock, milliseconds): the first query, a second distinct one, and the first query again
(answered from the answer cache). The worker runs at the writer's priority
(``serving_niceness: 0``). A worker that opens its build or loads segmenter
dictionaries or spelling vocabularies only when a request comes pays that in the first
figure (issue 27). The corpora: the sample wiki (``content/``, English and German) and
a subset of ``../shared/corpora/kaia-docs`` (its first ``--pages`` (40) Simplified Chinese
pages and their English originals, six locales configured), the query in Chinese: the
whole corpus takes minutes to build on a loaded machine, and what a first query loads
does not depend on the corpus' size. The machine's load average is printed with every row: on a
shared machine compare ratios from the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from common import launch_server, wait_ready  # noqa: E402
from corpora import corpus_config  # noqa: E402

from helpthread_kit.testing import signed_headers  # noqa: E402

SECRET = "first-query-bench-secret-" + "f" * 32

#: corpus -> (configuration, first query, second query)
CORPORA: dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = {
    "sample-wiki": ({"content": str(ROOT / "content"), "default_locale": "en", "locales": ["en", "de"]},
                    {"query": "reset my password"}, {"query": "export invoices"}),
    "kaia-docs-zh": (corpus_config("kaia-docs"), {"query": "如何运行节点", "locale": "zh-CN"},
                  {"query": "智能合约部署", "locale": "zh-CN"}),
}


#: Where kaia-docs keeps its Simplified Chinese pages (Docusaurus i18n).
_ZH = Path("i18n/zh-CN/docusaurus-plugin-content-docs/current")


def _kaia_subset(source: Path, dest: Path, pages: int) -> None:
    """Copy the site's configuration, its first ``pages`` Chinese pages and their English
    originals from ``source`` into ``dest``."""
    for name in ("docusaurus.config.js", "sidebars.js"):
        if (source / name).exists():
            shutil.copy2(source / name, dest / name)
    for page in sorted((source / _ZH).rglob("*.md"))[:pages]:
        relative = page.relative_to(source / _ZH)
        for src, dst in ((page, dest / _ZH / relative), (source / "docs" / relative, dest / "docs" / relative)):
            if src.exists():
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dst)


def _ask(base: str, body: dict[str, Any]) -> float:
    data = json.dumps(body).encode()
    started = time.perf_counter()
    reply = httpx.post(f"{base}/retrieve", content=data, headers=signed_headers(data, SECRET), timeout=60)
    elapsed = (time.perf_counter() - started) * 1000
    if reply.status_code != 200:
        raise RuntimeError(f"/retrieve answered {reply.status_code}: {reply.text[:200]}")
    return elapsed


def measure(name: str, tree: Path, work: Path, pages: int) -> tuple[float, float, float, float]:
    """Serve ``name`` with ``tree``'s code; ``(seconds to ready, first, second, repeated ms)``."""
    config, first, second = CORPORA[name]
    run = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=work))
    if name == "kaia-docs-zh":
        (run / "content").mkdir()
        _kaia_subset(Path(config["content"]), run / "content", pages)
        config = {**config, "content": str(run / "content")}
    # serving_niceness 0: on a loaded machine a worker niced 10 waits minutes for the CPU
    # (its warm-up with it); the figures are of the worker's own work.
    config = {**config, "index": str(run / "index"), "workers": 1, "log_level": "info", "serving_niceness": 0}
    with (run / "serve.log").open("wb") as out:
        started = time.monotonic()
        base, proc = launch_server(config, run, SECRET, tree=tree, stdout=out)
        try:
            wait_ready(base, proc, timeout_s=600, every_s=0.05)
            ready_s = time.monotonic() - started
            return ready_s, _ask(base, first), _ask(base, second), _ask(base, first)
        finally:
            proc.terminate()
            proc.wait(timeout=60)


def _commit(tree: Path) -> str:
    return subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True, check=False).stdout.strip() or "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", action="append", choices=sorted(CORPORA), help="repeatable; default: both")
    parser.add_argument("--baseline", type=Path, help="another checkout to measure side by side")
    parser.add_argument("--pages", type=int, default=40, help="Chinese pages of kaia-docs to serve (default 40)")
    args = parser.parse_args(argv)
    trees = [("this", ROOT)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    work = Path(tempfile.mkdtemp(prefix="kp-first-query-"))
    try:
        print(f"{'corpus':<12} {'tree':<17} {'ready s':>8} {'first ms':>9} {'second ms':>10} {'repeat ms':>10}  load")
        for index, name in enumerate(args.corpus or sorted(CORPORA)):
            order = trees if index % 2 == 0 else list(reversed(trees))
            for label, tree in order:
                ready_s, first, second, repeated = measure(name, tree, work, args.pages)
                load = " ".join(f"{x:.2f}" for x in os.getloadavg())
                print(f"{name:<12} {label + ' ' + _commit(tree):<17} {ready_s:8.1f} {first:9.1f} {second:10.1f} "
                      f"{repeated:10.1f}  {load}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
