"""The provider beside its peers, on the same documents and queries, in one run: prints
the benchmark table of docs/benchmarks.md (issue 15). Prints figures, asserts nothing.

    pip install -e '.[bench]'                  # tantivy-py, the anchor of the search rows
    nice python bench/peers.py                 # 10,000 documents
    nice python bench/peers.py --docs 50000 --rounds 1

Rows, each provider / anchor / ratio:

* cold build — ``knowledge-provider index`` on a fresh folder (a process, as an operator
  runs it) against tantivy-py (the Rust Tantivy engine, 2 indexing threads) indexing
  the same files: documents per second and index size on disk;
* in-process search with snippets, limit 10, ``customer_safe`` — the provider's
  :class:`~provider.search.backend.WhooshBackend` without its answer cache, minimum
  configuration and ``capabilities: all`` (on the same index), against tantivy with
  a ``audience:public`` filter and a snippet per hit: p50 and p99, the median over
  ``--rounds`` rounds of ``--queries`` queries;
* signed ``POST /retrieve`` over real HTTP, 1 worker, ``--connections`` keep-alive
  connections: distinct queries, and one set of 20 repeated (the answer cache), against
  a signed no-op endpoint under the same server (``serve()``, the same hardened HTTP
  protocol, the same signature check and replay store, a fixed answer): requests per
  second, p50 latency, and the server's CPU time per request (the client shares the
  machine's CPUs, so CPU per request is the fairer cost);
* server RSS idle and after that load, against the tantivy process's peak RSS;
* with 2 workers, the connections each worker holds (``--workers2``).

Documents are those of ``bench/load.py`` (paragraphs of the Hetzner tutorials under
varied titles, one in five internal); queries are 2–4 of their title words. The load
generator runs on the same machine and competes for its CPUs: read the ratios, and
the load average printed with them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import (  # noqa: E402
    Call,
    free_port,
    percentile,
    raw_load,
    running_server,
    signed_request,
    sockets_by_process,
)
from load import SECRET, build_wiki, cpu_seconds, family, queries, rss_mib  # noqa: E402

from helpthread_kit.backend import SearchQuery  # noqa: E402
from helpthread_kit.capabilities import MINIMUM  # noqa: E402
from helpthread_kit.registrations import Exposure  # noqa: E402
from provider.search.backend import WhooshBackend  # noqa: E402

_FRONT = re.compile(r"\A---\n(.*?)\n---\n(.*)\Z", re.DOTALL)
Figures = dict[str, Any]


# -- the anchors ---------------------------------------------------------------------


def tantivy_run(wiki: Path, index: Path, texts: list[str], rounds: int) -> Figures:
    """Build a Tantivy index of the wiki's files and search ``texts`` (in this process:
    its peak RSS is tantivy's)."""
    import tantivy

    builder = tantivy.SchemaBuilder()
    builder.add_text_field("title", stored=True)
    builder.add_text_field("body", stored=True)
    builder.add_text_field("audience", tokenizer_name="raw")
    schema = builder.build()
    index.mkdir(parents=True)
    started = time.perf_counter()
    engine = tantivy.Index(schema, path=str(index))
    writer = engine.writer(heap_size=200_000_000, num_threads=2)
    count = 0
    for path in sorted(wiki.rglob("*.md")):
        found = _FRONT.match(path.read_text("utf-8"))
        if found is None:
            continue
        head, body = found.groups()
        title = re.search(r'^title:\s*"?(.*?)"?\s*$', head, re.MULTILINE)
        audience = re.search(r"^audience:\s*(\S+)", head, re.MULTILINE)
        writer.add_document(tantivy.Document(title=title.group(1) if title else "", body=body,
                                             audience=audience.group(1) if audience else "internal"))
        count += 1
    writer.commit()
    writer.wait_merging_threads()
    build_s = time.perf_counter() - started
    engine.reload()
    searcher = engine.searcher()
    public = tantivy.Query.term_query(schema, "audience", "public")

    def search(text: str) -> None:
        parsed = engine.parse_query(text, ["title", "body"])
        query = tantivy.Query.boolean_query([(tantivy.Occur.Must, parsed), (tantivy.Occur.Must, public)])
        snippets = tantivy.SnippetGenerator.create(searcher, parsed, schema, "body")
        for _score, address in searcher.search(query, 10).hits:
            snippets.snippet_from_doc(searcher.doc(address)).fragment()

    p50s, p99s = timed_rounds(search, texts, rounds)
    return {"docs": count, "build_s": build_s, "size": folder_bytes(index), "p50s": p50s, "p99s": p99s,
            "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


async def noop_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The bare signed path: read the body, verify the signature and record the nonce as
    the provider does (HMAC-SHA256, the same in-memory replay store), send a fixed answer."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    header, body = await signed_request(scope, receive)
    try:
        NOOP_VERIFIER.verify(header, body)
        status, answer = 200, b'{"contractVersion":1,"results":[]}'
    except Exception:
        status, answer = 401, b'{"error":"unauthenticated"}'
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(answer)).encode())]})
    await send({"type": "http.response.body", "body": answer})


NOOP_VERIFIER: Any = None


def litestar_noop_app() -> Any:
    """The same signed no-op as a Litestar route taking the raw request (issue 25: how
    the contract routes are built), for a tree whose contract layer is a Litestar one."""
    from litestar import Litestar, Request, post
    from litestar.response.base import ASGIResponse

    answer = b'{"contractVersion":1,"results":[]}'

    # Annotations are strings here (postponed): Litestar is told what the names mean.
    @post("/retrieve", status_code=200, signature_namespace={"Request": Request, "ASGIResponse": ASGIResponse})
    async def retrieve(request: Request[Any, Any, Any]) -> ASGIResponse:
        body = await request.body()
        try:
            NOOP_VERIFIER.verify(request.headers.get("x-helpthread-signature"), body)
        except Exception:
            return ASGIResponse(body=b'{"error":"unauthenticated"}', status_code=401)
        return ASGIResponse(body=answer, media_type="application/json")

    return Litestar(route_handlers=[retrieve], openapi_config=None, logging_config=None)


def serve_noop(port: int) -> None:
    """``--noop-server PORT``: serve :func:`noop_app` as the provider is served — as a
    Litestar route where the tree's contract layer is built on Litestar."""
    global NOOP_VERIFIER
    from helpthread_kit import app as contract_app
    from helpthread_kit.registrations import Registration
    from helpthread_kit.replay import MemoryReplayStore
    from helpthread_kit.serving import serve
    from helpthread_kit.signature import Verifier

    NOOP_VERIFIER = Verifier([Registration.from_values("bench", Exposure.CUSTOMER_SAFE, [SECRET])],
                             MemoryReplayStore())
    serve(litestar_noop_app() if hasattr(contract_app, "ContractPlugin") else noop_app, port=port)


# -- measuring -----------------------------------------------------------------------


def folder_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def timed_rounds(search: Any, texts: list[str], rounds: int) -> tuple[list[float], list[float]]:
    """p50 and p99 (ms) of each round of ``search`` over ``texts``, after one warm-up query."""
    search(texts[0])
    p50s, p99s = [], []
    for _ in range(rounds):
        timings = []
        for text in texts:
            t0 = time.perf_counter()
            search(text)
            timings.append((time.perf_counter() - t0) * 1000)
        p50s.append(statistics.median(timings))
        p99s.append(percentile(timings, 0.99))
    return p50s, p99s


def provider_search(index: Path, texts: list[str], rounds: int, capabilities: frozenset[str]) -> Figures:
    backend = WhooshBackend(index, cache_entries=0)

    def search(text: str) -> None:
        backend.search(SearchQuery(text=text, limit=10, reach=Exposure.CUSTOMER_SAFE, capabilities=capabilities))

    p50s, p99s = timed_rounds(search, texts, rounds)
    return {"p50s": p50s, "p99s": p99s}


def http_load(base: str, pid: int, bodies: list[bytes], connections: int) -> Figures:
    """POST ``bodies`` to /retrieve, signed (by the light client, which must not be the limit:
    bench/common.raw_load), and return req/s, p50 ms, server CPU ms/request."""
    calls: list[Call] = [("POST", "/retrieve", b) for b in bodies]
    cpu = cpu_seconds(pid)
    seconds, latencies, errors = asyncio.run(raw_load(base, calls, connections, SECRET))
    return {"rps": len(latencies) / seconds, "p50": statistics.median(latencies) * 1000,
            "cpu_ms": (cpu_seconds(pid) - cpu) / len(latencies) * 1000, "errors": errors}


def connections_per_worker(base: str, pid: int, bodies: list[bytes], connections: int) -> list[int]:
    """Open a client pool of ``connections`` at once, answer ``bodies`` on it, and count
    the established connections each worker process holds while the pool is open."""
    port = int(base.rsplit(":", 1)[1])

    async def run() -> list[int]:
        limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
        from helpthread_kit.testing import signed_headers

        deadline = time.monotonic() + 120
        while len(_sockets(family(pid)[1:], port, "0A")) < 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.2)  # the second worker may still be starting: count once both listen
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
            async def one(body: bytes) -> None:
                await client.post("/retrieve", content=body, headers=signed_headers(body, SECRET))

            for start in range(0, len(bodies), connections):
                await asyncio.gather(*(one(b) for b in bodies[start:start + connections]))
            counts = _sockets(family(pid)[1:], port, "01")
            return sorted(counts.values(), reverse=True)

    return asyncio.run(run())


def _sockets(pids: list[int], port: int, state: str) -> Counter[int]:
    """Sockets on local ``port`` in TCP ``state`` (``01`` established, ``0A`` listening)
    per process among ``pids``; with ``01``, every worker ``multiprocessing`` spawned is
    counted, holding none or not."""
    counts = sockets_by_process(pids, port, listening=state == "0A")
    if state == "01":
        for pid in pids:
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                counts[pid] += 0
    return counts


def start_noop(tree: Path = ROOT) -> tuple[str, subprocess.Popen[bytes]]:
    """Start :func:`serve_noop` in a process of its own, served by the ``provider``
    package of source tree ``tree`` (another checkout: its HTTP protocol and signature
    check); return its base URL and the process."""
    port = free_port()
    # The tree's kit and provider packages imported first, so that this module's own
    # imports (its ROOT first on sys.path) find them already loaded: one tree's code.
    script = (f"import sys; sys.path.insert(0, {str(tree)!r}); import helpthread_kit.serving; "
              "import provider.search.backend; "  # this module's own import, from the same tree
              f"sys.path.insert(1, {str(Path(__file__).resolve().parent)!r}); import peers; "
              f"peers.serve_noop({port})")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(base, timeout=1)
            return base, proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the no-op server did not start")


# -- the run -------------------------------------------------------------------------


def med(values: list[float]) -> float:
    return statistics.median(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", type=int, default=10_000, help="documents (default 10,000; 50,000 works)")
    parser.add_argument("--queries", type=int, default=500, help="queries per in-process round")
    parser.add_argument("--rounds", type=int, default=3, help="in-process rounds (the median is printed)")
    parser.add_argument("--requests", type=int, default=1500, help="requests per HTTP measurement")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workdir", type=Path,
                        help="keep the wiki and the provider's index here and reuse them when present "
                             "(the cold-build row is then left out)")
    parser.add_argument("--no-workers2", dest="workers2", action="store_false",
                        help="skip the 2-worker connection count")
    parser.add_argument("--noop-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--tantivy-worker", nargs=4, metavar=("WIKI", "INDEX", "QUERIES", "ROUNDS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.noop_server:
        serve_noop(args.noop_server)
        return
    if args.tantivy_worker:
        wiki, index, texts, rounds = args.tantivy_worker
        print(json.dumps(tantivy_run(Path(wiki), Path(index), json.loads(Path(texts).read_text()), int(rounds))))
        return

    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    print(f"bench/peers.py at {commit}: python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"{args.docs} documents, {args.queries} queries × {args.rounds} rounds, "
          f"load average {os.getloadavg()[0]:.2f} at the start", flush=True)
    with tempfile.TemporaryDirectory(prefix="kp-peers-") as tmp:
        work = Path(tmp)
        kept = args.workdir / f"docs-{args.docs}" if args.workdir else work
        wiki, index = kept / "wiki", kept / "index"
        reused = (index / "CURRENT").exists() and (kept / "vocabulary.json").exists()
        if reused:
            vocabulary = json.loads((kept / "vocabulary.json").read_text())
        else:
            shutil.rmtree(wiki, ignore_errors=True)
            shutil.rmtree(index, ignore_errors=True)
            vocabulary = build_wiki(wiki, args.docs)
        texts = queries(vocabulary, args.queries, seed=101)
        (work / "queries.json").write_text(json.dumps(texts))
        (work / "empty.yaml").write_text("{}\n")

        build_s = None
        if not reused:
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "provider", "index", "--config", str(work / "empty.yaml"),
                            "--content", str(wiki), "--index", str(index)], check=True, cwd=ROOT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            build_s = time.perf_counter() - started
            (kept / "vocabulary.json").write_text(json.dumps(vocabulary))
            print(f"  provider index built in {build_s:.1f} s", flush=True)
        else:
            print(f"  provider index reused from {index}", flush=True)
        size = folder_bytes(index)

        anchor = json.loads(subprocess.run(
            [sys.executable, __file__, "--tantivy-worker", str(wiki), str(work / "tantivy"),
             str(work / "queries.json"), str(args.rounds)], check=True, capture_output=True, text=True).stdout)
        print(f"  tantivy built in {anchor['build_s']:.1f} s", flush=True)

        minimum = provider_search(index, texts, args.rounds, MINIMUM)
        everything = provider_search(index, texts, args.rounds, WhooshBackend.implemented_capabilities | MINIMUM)
        print("  in-process search measured", flush=True)

        n = args.requests
        distinct = [json.dumps({"query": q}).encode() for q in queries(vocabulary, n, seed=202)]
        repeated_set = queries(vocabulary, 20, seed=7)
        repeated = [json.dumps({"query": repeated_set[i % 20]}).encode() for i in range(n)]
        config = {"content": str(wiki), "index": str(index), "workers": 1, "max_in_flight": 256,
                  "log_level": "warning"}
        with running_server(config, work, SECRET) as (base, proc):
            time.sleep(1)
            idle_rss = rss_mib(proc.pid)
            http_load(base, proc.pid, repeated[:64], args.connections)  # connections up, the 20 answers cached
            cold = http_load(base, proc.pid, distinct, args.connections)
            warm = http_load(base, proc.pid, repeated, args.connections)
            loaded_rss = rss_mib(proc.pid)
        noop_base, noop_proc = start_noop()
        try:
            http_load(noop_base, noop_proc.pid, repeated[:64], args.connections)
            noop = http_load(noop_base, noop_proc.pid, repeated, args.connections)
        finally:
            noop_proc.terminate()
            noop_proc.wait(timeout=30)
        print("  HTTP measured", flush=True)

        spread: list[int] = []
        if args.workers2:
            with running_server({**config, "workers": 2}, work, SECRET) as (base, proc):
                spread = connections_per_worker(base, proc.pid, repeated[:64], args.connections)

    end_load = os.getloadavg()[0]
    rows = table(args, build_s, size, anchor, minimum, everything, cold, warm, noop, idle_rss, loaded_rss, spread)
    print()
    print("| what | this provider | anchor | ratio |")
    print("|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print(f"\n(at {commit}; load average {end_load:.2f} at the end; errors: distinct {cold['errors']}, "
          f"repeated {warm['errors']}, no-op {noop['errors']})")


def table(args: argparse.Namespace, build_s: float | None, size: int, anchor: Figures, minimum: Figures,
          everything: Figures, cold: Figures, warm: Figures, noop: Figures, idle_rss: float, loaded_rss: float,
          spread: list[int]) -> list[list[str]]:
    mb = 1_000_000
    anchor_docs_s = anchor["docs"] / anchor["build_s"]
    p50, p99 = med(minimum["p50s"]), med(minimum["p99s"])
    t50, t99 = med(anchor["p50s"]), med(anchor["p99s"])
    a50, a99 = med(everything["p50s"]), med(everything["p99s"])
    extra_cpu = warm["cpu_ms"] - noop["cpu_ms"]
    if build_s is None:
        build = ["cold build", f"not built in this run; index {size / mb:,.1f} MB",
                 f"tantivy {anchor_docs_s:,.0f} docs/s, {anchor['size'] / mb:,.1f} MB",
                 f"{size / anchor['size']:.1f}× larger"]
    else:
        docs_s = args.docs / build_s
        build = ["cold build", f"{docs_s:,.0f} docs/s, index {size / mb:,.1f} MB",
                 f"tantivy {anchor_docs_s:,.0f} docs/s, {anchor['size'] / mb:,.1f} MB",
                 f"{anchor_docs_s / docs_s:.1f}× slower, {size / anchor['size']:.1f}× larger"]
    rows = [
        build,
        ["in-process search with snippets, minimum config", f"p50 {p50:.1f} ms, p99 {p99:.1f} ms",
         f"tantivy p50 {t50:.2f} ms, p99 {t99:.2f} ms", f"{p50 / t50:.1f}× / {p99 / t99:.1f}×"],
        ["same, `capabilities: all`", f"p50 {a50:.1f} ms, p99 {a99:.1f} ms", "—",
         f"{a50 / p50:.2f}× the minimum config (p50)"],
        [f"signed `/retrieve`, 1 worker, {args.connections} connections, distinct queries",
         f"{cold['rps']:,.0f} req/s, p50 {cold['p50']:.0f} ms, {cold['cpu_ms']:.2f} ms CPU/request",
         f"no-op ceiling {noop['rps']:,.0f} req/s, {noop['cpu_ms']:.2f} ms CPU",
         f"{100 * cold['rps'] / noop['rps']:.0f} % of the ceiling"],
        ["same, repeated queries (answer cache)",
         f"{warm['rps']:,.0f} req/s, p50 {warm['p50']:.1f} ms, {warm['cpu_ms']:.2f} ms CPU/request",
         f"{noop['cpu_ms']:.2f} ms CPU, p50 {noop['p50']:.1f} ms",
         f"{100 * warm['rps'] / noop['rps']:.0f} % of the ceiling; +{extra_cpu:.2f} ms CPU/request "
         f"({warm['cpu_ms'] / noop['cpu_ms']:.1f}× the bare signed path)"],
        ["server RSS, 1 worker", f"{idle_rss:,.0f} MiB idle, {loaded_rss:,.0f} MiB after the HTTP load above",
         f"tantivy process {anchor['rss_mib']:,.0f} MiB (peak)", "—"],
    ]
    if spread:
        rows.append([f"2 workers: connections of one {args.connections}-connection client per worker",
                     " / ".join(str(c) for c in spread), "—",
                     "every worker holds some" if len(spread) > 1 and min(spread) > 0 else "a worker holds none"])
    return rows


if __name__ == "__main__":
    main()
