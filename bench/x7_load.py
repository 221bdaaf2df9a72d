"""CONTRACT X7 under load: prints figures, asserts nothing.

    nice python bench/x7_load.py                          # 10,000 documents, 1 and 2 workers
    nice python bench/x7_load.py --docs 2000 --trials 20 --workers 1
    nice python bench/x7_load.py --server before=/tmp/old-checkout --server after=. \
        --server after-nice0=.:serving_niceness=0          # side by side, in one run

Builds a wiki of --docs documents (the Hetzner-derived builder of ``bench/load.py``) plus
--trials pages that a unique word finds, indexes it once, then for each worker count starts
the real server (``knowledge-provider serve``) and, while --clients concurrent signed
``customer_safe`` clients send distinct queries as fast as they are answered (a separate
process):

* flips a public page to ``audience: internal`` --trials times and measures, from the file's
  save, the time until a ``customer_safe`` query for its word stops finding it (p50, p99,
  max), then flips it back and waits until it is found again;
* writes --batch new public files at once (a ``git checkout``) and measures the time until
  all of them are in the public index on disk and a sample of them is found over HTTP, then
  removes them again;
* prints the clients' throughput and latency without edits, during the flips and during
  the bulk change, and the load average.

``--server LABEL=TREE[:key=value,...]`` (repeatable) serves from another source tree
(e.g. a checkout of the code before a change) and/or with more settings, each worker
count running every server in turn over the same wiki and index, so before and after
are measured under the same machine load; a summary table ends the output.

A few flips with the clients idle come first, for reference. The clients run on the same
machine as the server and compete with it (and with the indexer) for the CPUs, as the
machine's other processes do: read the load average beside the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import percentile, running_server  # noqa: E402
from load import build_wiki, queries  # noqa: E402
from whoosh import index as whoosh_index  # noqa: E402
from whoosh.query import Prefix  # noqa: E402

from helpthread_kit.testing import signed_headers  # noqa: E402
from provider.indexing import Indexer  # noqa: E402
from provider.search.layout import PUBLIC, IndexLayout  # noqa: E402
from provider.wiki.document import WikiSettings  # noqa: E402

SECRET = "x7-load-bench-secret-" + "q" * 32
#: Phases of the load process, for its per-phase counts and latencies.
PHASES = ("warm-up", "no edits", "flips", "bulk change", "clean-up")


def _word(k: int, prefix: str = "zyx") -> str:
    """A made-up word no other document contains (letters only: analysers keep it whole)."""
    return f"{prefix}{chr(97 + k // 26 % 26)}{chr(97 + k % 26)}qwv"


def flip_page(k: int, audience: str) -> str:
    word = _word(k)
    return (f"---\ntitle: \"Flip page {word}\"\naudience: {audience}\n---\n"
            f"This page about {word} is published and withdrawn by the benchmark.\n")


def batch_page(k: int) -> str:
    word = _word(k, "bqz")
    return f"---\ntitle: \"Batch page {word}\"\naudience: public\n---\nA page about {word} from a bulk change.\n"


# -- the load ------------------------------------------------------------------------------


def _load_process(base: str, vocabulary: list[str], clients: int, phase: Any, running: Any, stop: Any,
                  out: Any) -> None:
    """Send distinct signed queries from ``clients`` connections until ``stop`` (setting
    ``running`` at the first answer); send ``{phase: (count, latencies)}`` through ``out``."""
    counts = {i: 0 for i in range(len(PHASES))}
    latencies: dict[int, list[float]] = {i: [] for i in range(len(PHASES))}
    texts = queries(vocabulary, 200_000, seed=os.getpid())

    async def main() -> None:
        limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
        async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as client:
            async def worker(w: int) -> None:
                i = w
                while not stop.is_set():
                    body = json.dumps({"query": texts[i % len(texts)]}).encode()
                    i += clients
                    t0 = time.perf_counter()
                    try:
                        reply = await client.post("/retrieve", content=body, headers=signed_headers(body, SECRET))
                        ok = reply.status_code == 200
                    except httpx.HTTPError:
                        ok = False
                    p = phase.value
                    if ok:
                        running.set()
                        counts[p] += 1
                        latencies[p].append(time.perf_counter() - t0)

            await asyncio.gather(*(worker(w) for w in range(clients)))

    asyncio.run(main())
    out.send({i: (counts[i], latencies[i]) for i in counts})


class Load:
    """The clients' process, its current phase and the phases' wall-clock durations."""

    def __init__(self, base: str, vocabulary: list[str], clients: int) -> None:
        ctx = mp.get_context("spawn")
        self.phase = ctx.Value("i", 0)
        self.stop, running = ctx.Event(), ctx.Event()
        self.recv, send = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=_load_process, daemon=True,
                                args=(base, vocabulary, clients, self.phase, running, self.stop, send))
        self.proc.start()
        if not running.wait(120):
            raise RuntimeError("the clients got no answer within 120 s")
        self.durations = {i: 0.0 for i in range(len(PHASES))}
        self._since = time.monotonic()

    def enter(self, name: str) -> None:
        now = time.monotonic()
        self.durations[self.phase.value] += now - self._since
        self._since = now
        self.phase.value = PHASES.index(name)

    def finish(self) -> dict[str, tuple[float, float, float]]:
        """``{phase: (requests per second, p50 ms, p99 ms)}``."""
        self.enter("clean-up")
        self.stop.set()
        figures: dict[int, tuple[int, list[float]]] = self.recv.recv()
        self.proc.join(30)
        result = {}
        for i, (count, lat) in figures.items():
            if count and self.durations[i] > 0:
                result[PHASES[i]] = (count / self.durations[i], statistics.median(lat) * 1000,
                                     percentile(lat, 0.99) * 1000)
        return result


# -- probes --------------------------------------------------------------------------------


def found(client: httpx.Client, word: str) -> bool | None:
    """Whether a ``customer_safe`` query for ``word`` finds a page titled with it
    (``None``: answered 503, e.g. a worker still opening the index)."""
    body = json.dumps({"query": word, "limit": 5}).encode()
    reply = client.post("/retrieve", content=body, headers=signed_headers(body, SECRET))
    if reply.status_code == 503:
        return None
    if reply.status_code != 200:
        raise RuntimeError(f"/retrieve answered {reply.status_code}: {reply.text[:200]}")
    return any(word in result["title"] for result in reply.json()["results"])


def wait_for(client: httpx.Client, word: str, present: bool, timeout_s: float = 300.0) -> float:
    """Seconds until ``found(word)`` is ``present`` (polled back to back)."""
    started = time.monotonic()
    while found(client, word) is not present:
        if time.monotonic() - started > timeout_s:
            raise RuntimeError(f"{word} still {'absent' if present else 'found'} after {timeout_s:.0f} s")
        time.sleep(0.005)
    return time.monotonic() - started


def public_count(index: Path, prefix: str) -> int:
    """Documents whose path starts with ``prefix`` in the public index on disk now."""
    layout = IndexLayout(index)
    name = layout.current_name()
    if name is None:
        return 0
    with whoosh_index.open_dir(str(layout.build_dir(name) / PUBLIC)).searcher() as searcher:
        return len(list(Prefix("path", prefix).docs(searcher)))


def flips(client: httpx.Client, wiki: Path, trials: int, offset: int = 0) -> tuple[list[float], list[float]]:
    """``trials`` public → internal → public round trips; (withdrawal seconds, republication seconds)."""
    withdrawn, published = [], []
    rng = random.Random(offset)
    for k in range(offset, offset + trials):
        path = wiki / "x7" / f"flip-{k:03d}.md"
        wait_for(client, _word(k), True)
        path.write_text(flip_page(k, "internal"), "utf-8")
        withdrawn.append(wait_for(client, _word(k), False))
        time.sleep(rng.uniform(0.2, 0.4))
        path.write_text(flip_page(k, "public"), "utf-8")
        published.append(wait_for(client, _word(k), True))
        time.sleep(rng.uniform(0.2, 0.4))
    return withdrawn, published


def bulk(client: httpx.Client, wiki: Path, index: Path, count: int, tag: str) -> tuple[float, float, float]:
    """Write ``count`` public files at once; (write seconds, seconds until all are in the
    public index, seconds until a sample is found over HTTP too), counted from the last
    file's save. Then remove them and wait until they are gone."""
    folder = wiki / f"x7-batch-{tag}"
    folder.mkdir()
    started = time.monotonic()
    for k in range(count):
        (folder / f"b-{k:04d}.md").write_text(batch_page(k), "utf-8")
    saved = time.monotonic()
    prefix = f"x7-batch-{tag}/"
    while public_count(index, prefix) < count:
        if time.monotonic() - saved > 300:
            raise RuntimeError("the bulk change was not indexed within 300 s")
        time.sleep(0.05)
    on_disk = time.monotonic() - saved
    for k in (0, count // 3, count // 2, count - 1):
        wait_for(client, _word(k, "bqz"), True)
    served = time.monotonic() - saved
    for path in folder.iterdir():
        path.unlink()
    folder.rmdir()
    while public_count(index, prefix):
        time.sleep(0.1)
    return saved - started, on_disk, served


def summary(values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"p50 {statistics.median(ms):6.0f} ms   p99 {percentile(ms, 0.99):6.0f} ms   max {max(ms):6.0f} ms"
            f"   (n={len(ms)})")


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def parse_server(spec: str) -> tuple[str, Path, dict[str, Any]]:
    """``LABEL=TREE[:key=value,...]`` → (label, tree, settings); values are YAML scalars."""
    import yaml

    label, _, rest = spec.partition("=")
    tree, _, extra = rest.partition(":")
    settings = {}
    for item in filter(None, extra.split(",")):
        key, _, value = item.partition("=")
        settings[key.strip()] = yaml.safe_load(value)
    return label or "server", Path(tree or ROOT).resolve(), settings


def run(wiki: Path, index: Path, workers: int, vocabulary: list[str], args: argparse.Namespace,
        server: tuple[str, Path, dict[str, Any]]) -> list[str]:
    """One server's figures; returns its summary row."""
    label, tree, extra = server
    config = {"content": str(wiki), "index": str(index), "workers": workers, "max_in_flight": 256,
              "log_level": "warning", **extra}
    with running_server(config, index.parent, SECRET, tree=tree) as (base, _proc):
        print(f"\n  {label} ({tree}{', ' if extra else ''}{', '.join(f'{k}={v}' for k, v in extra.items())}): "
              f"{workers} worker(s), {args.clients} busy clients (load average at start {loadavg()}):", flush=True)
        with httpx.Client(base_url=base, timeout=60) as client:
            idle, _ = flips(client, wiki, args.idle_trials, offset=args.trials)
            print(f"    idle, public -> internal until customer_safe stops finding it: {summary(idle)}", flush=True)
            load = Load(base, vocabulary, args.clients)
            time.sleep(args.seconds / 2)
            load.enter("no edits")
            time.sleep(args.seconds)
            averages = [loadavg()]
            load.enter("flips")
            withdrawn, published = flips(client, wiki, args.trials)
            averages.append(loadavg())
            load.enter("bulk change")
            written, on_disk, served = bulk(client, wiki, index, args.batch, f"{workers}")
            averages.append(loadavg())
            rates = load.finish()
        print(f"    loaded, public -> internal until customer_safe stops finding it: {summary(withdrawn)}")
        print(f"    loaded, internal -> public until customer_safe finds it again:   {summary(published)}")
        print(f"    loaded, {args.batch} new files (written in {written:.2f} s): all in the public index "
              f"{on_disk:.2f} s after the last save, a sample found over HTTP after {served:.2f} s")
        for name in ("no edits", "flips", "bulk change"):
            if name in rates:
                rps, p50, p99 = rates[name]
                print(f"    clients' throughput, {name:<12} {rps:7.1f} req/s   p50 {p50:6.1f} ms   p99 {p99:6.1f} ms")
        print(f"    load average (1, 5, 15 min) after the quiet run, the flips, the bulk change: "
              f"{' | '.join(averages)}", flush=True)
    ms = sorted(v * 1000 for v in withdrawn)
    return [label, str(workers), f"{statistics.median(ms):.0f}", f"{percentile(ms, 0.99):.0f}", f"{max(ms):.0f}",
            f"{statistics.median(v * 1000 for v in idle):.0f}", f"{served:.1f}",
            *(f"{rates[name][0]:.0f}" if name in rates else "-" for name in ("no edits", "flips", "bulk change")),
            averages[1].split()[0]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=4, help="concurrent busy clients")
    parser.add_argument("--trials", type=int, default=20, help="public -> internal flips under load")
    parser.add_argument("--idle-trials", type=int, default=5, help="flips before the load starts")
    parser.add_argument("--batch", type=int, default=500, help="files of the bulk change")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of load without edits")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--workdir", type=Path,
                        help="keep the wiki and index here, reused by the next run (default: a temporary folder)")
    parser.add_argument("--server", action="append", default=[], metavar="LABEL=TREE[:key=value,...]",
                        help="a server to measure (repeatable; default: this tree)")
    args = parser.parse_args()
    servers = [parse_server(spec) for spec in args.server] or [("this tree", ROOT, {})]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {args.docs} documents, "
          f"load average {loadavg()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="kp-x7-") as tmp:
        work = args.workdir or Path(tmp)
        wiki, index = work / "wiki", work / "index"
        if not (index / "CURRENT").exists():
            vocabulary = build_wiki(wiki, args.docs)
        else:  # reused: the same seed gives the same vocabulary
            with tempfile.TemporaryDirectory() as scratch:
                vocabulary = build_wiki(Path(scratch), min(args.docs, 200))
        (wiki / "x7").mkdir(exist_ok=True)
        for k in range(args.trials + args.idle_trials):
            (wiki / "x7" / f"flip-{k:03d}.md").write_text(flip_page(k, "public"), "utf-8")
        started = time.perf_counter()
        with Indexer(WikiSettings(root=wiki), IndexLayout(index)) as indexer:
            indexer.sync()
        print(f"  index built (or brought up to date) in {time.perf_counter() - started:.1f} s", flush=True)
        rows = []
        for workers in (int(w) for w in args.workers.split(",")):
            for server in servers:
                rows.append(run(wiki, index, workers, vocabulary, args, server))
    header = ["server", "workers", "unpublish p50 ms", "p99 ms", "max ms", "idle p50 ms",
              f"{args.batch} files s", "req/s quiet", "req/s flips", "req/s bulk", "load avg"]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    print("\nsummary (unpublish: public -> internal until customer_safe stops finding it, under load):")
    for row in [header, *rows]:
        print("  " + "  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))


if __name__ == "__main__":
    main()
