"""Serving benchmark: prints figures, asserts nothing.

    python bench/load.py                       # 10,000 documents, 1 and 2 workers
    python bench/load.py --docs 2000 --seconds 10 --profile

Builds a wiki of --docs documents from the Hetzner tutorials corpus (each a random
selection of one tutorial's paragraphs under a varied title, so term statistics stay
realistic), indexes it once, then for 1 and 2 workers starts the real server and
measures over real HTTP, with signed requests:

* POST /retrieve with a cold cache (every query new) and a warm cache (a small set of
  queries repeated): throughput, p50 and p99 latency;
* GET /capabilities — signed, no search: the ceiling of the HTTP + signature stack;
* server RSS (all processes);

and, in process, the search time of the same queries without any cache (the engine's
floor), with snippets. --profile prints where in-process search time goes.

The load generator runs on the same machine as the server and competes for its CPUs.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import os
import pstats
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import running_server  # noqa: E402

from helpthread_kit.backend import SearchQuery  # noqa: E402
from helpthread_kit.capabilities import MINIMUM  # noqa: E402
from helpthread_kit.registrations import Exposure  # noqa: E402
from helpthread_kit.testing import signed_headers  # noqa: E402
from provider.indexing import Indexer  # noqa: E402
from provider.search.backend import WhooshBackend  # noqa: E402
from provider.search.layout import IndexLayout  # noqa: E402
from provider.wiki.document import WikiSettings  # noqa: E402

# Beside the repository, as CI lays it out; KP_CORPORA names another folder (as in tests/corpora.py).
CORPUS = Path(os.environ.get("KP_CORPORA") or ROOT.parent / "shared" / "corpora") / "hetzner-tutorials" / "tutorials"
SECRET = "load-bench-secret-" + "z" * 32
_WORD = re.compile(r"[a-z]{4,12}")


def tutorial_sources(locale: str) -> list[tuple[str, list[str]]]:
    """The Hetzner tutorials of one file-suffix locale (``*.<locale>.md``) with a title and
    at least four prose paragraphs of eight words or more: ``(title, paragraphs)``."""
    sources = []
    for path in sorted(CORPUS.rglob(f"*.{locale}.md")):
        text = path.read_text("utf-8", errors="replace").replace("\r\n", "\n")
        parts = text.split("---", 2)
        body = parts[2] if len(parts) == 3 else text
        found = re.search(r"^title:\s*\"?(.+?)\"?\s*$", parts[1] if len(parts) == 3 else "", re.MULTILINE)
        paragraphs = [p.strip() for p in body.split("\n\n") if len(p.split()) >= 8 and "```" not in p]
        if len(paragraphs) >= 4 and found:
            sources.append((found.group(1), paragraphs))
    return sources


def build_wiki(target: Path, count: int, seed: int = 11) -> list[str]:
    """Write ``count`` documents; return a vocabulary of title words for queries."""
    rng = random.Random(seed)
    sources = tutorial_sources("en")
    vocabulary = sorted({w for title, _ in sources for w in _WORD.findall(title.lower())})
    for i in range(count):
        title, paragraphs = sources[i % len(sources)]
        chosen = rng.sample(paragraphs, min(len(paragraphs), rng.randint(3, 6)))
        audience = "internal" if i % 5 == 0 else "public"
        path = target / f"t{i % 100:02d}" / f"doc-{i:05d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        body = "\n\n## Notes\n\n".join(chosen)
        path.write_text(f"---\ntitle: \"{title} ({i})\"\naudience: {audience}\n---\n{body}\n", "utf-8")
    return vocabulary


def queries(vocabulary: list[str], count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.sample(vocabulary, rng.randint(2, 4))) for _ in range(count)]



def family(pid: int) -> list[int]:
    """A process and its children."""
    pids = [pid]
    try:
        children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    return pids


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children so far, in seconds."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for p in family(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
        except (OSError, IndexError, ValueError):
            pass
    return total


def rss_mib(pid: int) -> float:
    """Resident memory of a process and its children, in MiB."""
    total = 0
    for p in family(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


async def load(
    base: str, requests: Sequence[tuple[str, bytes | None]], concurrency: int
) -> tuple[float, list[float], int]:
    """Send requests with ``concurrency`` in flight; return (seconds, latencies, errors)."""
    latencies: list[float] = []
    errors = 0
    queue = list(reversed(requests))
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as client:
        async def worker() -> None:
            nonlocal errors
            while queue:
                method, body = queue.pop()
                if body is None:
                    headers = signed_headers(b"", SECRET, content_type=None)
                else:
                    headers = signed_headers(body, SECRET)
                t0 = time.perf_counter()
                try:
                    reply = await client.request(method, "/capabilities" if body is None else "/retrieve",
                                                 content=body, headers=headers)
                except httpx.TransportError:
                    # A kept-alive connection closed by the server as it was reused: counted, not fatal.
                    errors += 1
                    continue
                latencies.append(time.perf_counter() - t0)
                if reply.status_code != 200:
                    errors += 1

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return time.perf_counter() - started, latencies, errors


def measure(label: str, base: str, pid: int, requests: Sequence[tuple[str, bytes | None]], concurrency: int) -> None:
    """Send ``requests`` and print throughput, latency and the server's CPU time per request
    (the client shares the machine's CPUs, so CPU per request is the fairer cost figure)."""
    cpu = cpu_seconds(pid)
    seconds, latencies, errors = asyncio.run(load(base, requests, concurrency))
    cpu_ms = (cpu_seconds(pid) - cpu) / len(latencies) * 1000
    ordered = sorted(latencies)
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000
    print(f"    {label:<34} {len(latencies) / seconds:7.1f} req/s   p50 {p50:7.1f} ms   p99 {p99:7.1f} ms"
          f"   server CPU {cpu_ms:5.1f} ms/req   errors {errors}")


def serve_and_measure(wiki: Path, index: Path, workers: int, vocabulary: list[str], args: argparse.Namespace) -> None:
    config = {"content": str(wiki), "index": str(index), "workers": workers, "max_in_flight": 256,
              "log_level": "warning"}
    with running_server(config, index.parent, SECRET) as (base, proc):
        print(f"  {workers} worker(s), concurrency {args.concurrency}:")
        n = args.requests
        cold = [("POST", json.dumps({"query": q}).encode()) for q in queries(vocabulary, n, seed=100 + workers)]
        warm_set = queries(vocabulary, 20, seed=7)
        warm = [("POST", json.dumps({"query": warm_set[i % 20]}).encode()) for i in range(n)]
        noop: list[tuple[str, bytes | None]] = [("GET", None)] * n
        asyncio.run(load(base, warm[:40], args.concurrency))  # connections up, warm entries cached
        measure("signed /retrieve, cold cache", base, proc.pid, cold, args.concurrency)
        measure("signed /retrieve, warm cache", base, proc.pid, warm, args.concurrency)
        measure("signed /capabilities (no search)", base, proc.pid, noop, args.concurrency)
        print(f"    server RSS (all processes): {rss_mib(proc.pid):.0f} MiB")


def in_process(index: Path, vocabulary: list[str], args: argparse.Namespace) -> None:
    backend = WhooshBackend(index, cache_entries=0)
    texts = queries(vocabulary, args.requests, seed=101)
    backend.search(SearchQuery(text=texts[0], limit=10, reach=Exposure.CUSTOMER_SAFE, capabilities=MINIMUM))
    timings = []
    profiler = cProfile.Profile() if args.profile else None
    for text in texts:
        query = SearchQuery(text=text, limit=10, reach=Exposure.CUSTOMER_SAFE, capabilities=MINIMUM)
        t0 = time.perf_counter()
        if profiler:
            profiler.enable()
        backend.search(query)
        if profiler:
            profiler.disable()
        timings.append(time.perf_counter() - t0)
    ordered = sorted(timings)
    timed = " (timed with the profiler on: slower than without)" if profiler else ""
    p99 = ordered[int(0.99 * (len(ordered) - 1))] * 1000
    print(f"  in-process search, no cache, limit 10, with snippets: p50 {statistics.median(ordered) * 1000:.1f} ms, "
          f"mean {statistics.fmean(ordered) * 1000:.1f} ms, p99 {p99:.1f} ms ({len(ordered)} queries){timed}")
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(18)
        print(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=600, help="requests per measurement")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {args.docs} documents")
    with tempfile.TemporaryDirectory(prefix="kp-load-") as tmp:
        wiki, index = Path(tmp) / "wiki", Path(tmp) / "index"
        vocabulary = build_wiki(wiki, args.docs)
        started = time.perf_counter()
        with Indexer(WikiSettings(root=wiki), IndexLayout(index)) as indexer:
            indexer.sync()
        print(f"  index built in {time.perf_counter() - started:.1f} s")
        in_process(index, vocabulary, args)
        for workers in (int(w) for w in args.workers.split(",")):
            serve_and_measure(wiki, index, workers, vocabulary, args)


if __name__ == "__main__":
    main()
