"""Server memory under sustained distinct-query load: prints figures, asserts nothing.

    python bench/memory.py                                  # 10,000 documents, 3 minutes
    python bench/memory.py --minutes 10 --index-dir /tmp/kp-search
    python bench/memory.py --baseline /tmp/kp-main          # then the same with another tree's server
    python bench/memory.py --corpus astro-docs --connections 16 --minutes 5 --index-dir /tmp/kp-mem
        # a real corpus: served as bench/corpora/astro-docs.yaml says (issue 27)

Uses bench/search.py's wiki and minimum-configuration index (``--index-dir`` shares them
with it), starts the real server (``knowledge-provider serve``, one worker, default
``search_threads``) and sends signed ``/retrieve`` requests from ``--connections``
concurrent clients, every query new (so the answer cache never answers), for
``--minutes``. The server's RSS (all its processes, the forkserver's readers included) is
sampled every ``--every``
seconds; printed: idle RSS, the samples, the peak, and the slope of a least-squares
line through the samples after the first minute (MiB per minute: about 0 when memory
is bounded); then the same for the serving worker alone (the one process answering
requests: the one holding the socket listening on the server's port, the largest by
RSS if several do; printed at idle with the other processes), with the slope over the
last half of the run.

``--corpus NAME`` serves a real corpus instead, configured by ``bench/corpora/NAME.yaml``
(its index built by the server's first start, in ``--index-dir`` when given, so a second
run starts on it), the queries made of 2–4 words of its relevance set's questions
(``bench/relevance/NAME.yaml``: every language of it; else of its file names) and every
one different.

First (synthetic wiki only), the answer cache's size estimate against a measurement: 300 answers of this
wiki, their bytes as :func:`~provider.search.backend.answer_bytes` counts them and as
tracemalloc counts a fresh copy of them (unpickled: new strings and objects).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pickle
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import launch_server, sockets_by_process, wait_ready  # noqa: E402
from search import prepare  # noqa: E402

from helpthread_kit.testing import signed_headers  # noqa: E402

SECRET = "memory-bench-secret-" + "m" * 32


def start(tree: Path, config: dict[str, object], workdir: Path) -> tuple[str, subprocess.Popen[bytes]]:
    """``serve`` from ``tree``'s code; returns (base URL, process) once ``/readyz`` is 200."""
    base, proc = launch_server(config, workdir, SECRET, tree=tree)
    try:
        wait_ready(base, proc, timeout_s=900, every_s=0.2)
    except RuntimeError:
        proc.kill()
        raise
    return base, proc


def distinct_queries(vocabulary: list[str], seed: int) -> list[str]:
    """Queries of 2–4 title words, every one different."""
    rng = random.Random(seed)
    seen: set[str] = set()
    out = []
    for _ in range(4_000_000):  # a small vocabulary has fewer: stop rather than loop for ever
        if len(out) >= 400_000:
            break
        text = " ".join(rng.sample(vocabulary, rng.randint(2, 4)))
        if text not in seen:
            seen.add(text)
            out.append(text)
    return out


async def drive(base: str, texts: list[str], connections: int, seconds: float) -> tuple[int, int]:
    """Send one query after another from ``connections`` clients for ``seconds``;
    returns (answers, errors)."""
    done = errors = 0
    stop = time.monotonic() + seconds
    queue = iter(texts)
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        async def client_loop() -> None:
            nonlocal done, errors
            while time.monotonic() < stop:
                body = json.dumps({"query": next(queue), "limit": 10}).encode()
                try:
                    reply = await client.post("/retrieve", content=body, headers=signed_headers(body, SECRET))
                except httpx.TransportError:
                    errors += 1  # a connection the server closed: counted, the client goes on
                    continue
                done += 1
                errors += reply.status_code != 200

        await asyncio.gather(*(client_loop() for _ in range(connections)))
    return done, errors


def answer_sizes(index: Path, vocabulary: list[str]) -> tuple[float, float]:
    """(estimated, measured) bytes per cached answer over 300 distinct queries."""
    from helpthread_kit.backend import SearchQuery
    from helpthread_kit.capabilities import MINIMUM
    from helpthread_kit.registrations import Exposure
    from provider.search.backend import WhooshBackend

    backend = WhooshBackend(index, cache_entries=1_000, cache_bytes=1 << 40, declared_only=True)
    for text in distinct_queries(vocabulary, seed=5)[:300]:
        backend.search(SearchQuery(text=text, limit=10, reach=Exposure.CUSTOMER_SAFE, capabilities=MINIMUM))
    entries = list(backend.cache._entries.items())
    estimated = sum(answer.size for _, answer in entries) / len(entries)
    data = pickle.dumps(entries)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    copies = pickle.loads(data)  # noqa: S301 - pickled by this process just above
    measured = (tracemalloc.get_traced_memory()[0] - before) / len(copies)
    tracemalloc.stop()
    return estimated, measured


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children, their children, …), parents first."""
    found: list[int] = []
    todo = [pid]
    while todo:
        children = [int(c) for c in subprocess.run(["pgrep", "-P", str(todo.pop())], capture_output=True,
                                                   text=True).stdout.split()]
        found += children
        todo += children
    return found


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def worker_pid(pid: int, port: int | None = None) -> int | None:
    """The serving worker below ``pid`` (the ``serve`` process), or ``None``.

    With ``port``: the descendant holding the socket that listens on it (uvicorn's
    supervisor binds it and hands it to the workers it spawns; the reader processes and
    the side writer, forked by the forkserver, hold none), the largest by RSS when
    several do. Without: the largest ``spawn_main`` child by RSS (a short-lived child
    — a reader, a side writer — is small beside a worker that holds the index)."""
    below = descendants(pid)
    if port is not None:
        candidates = list(sockets_by_process(below, port, listening=True))
    else:
        candidates = [p for p in below if "spawn_main" in _cmdline(p)]
    if not candidates:
        return None
    return max(candidates, key=process_rss_mib)


def describe_family(pid: int, chosen: int | None) -> str:
    """One line per process of ``serve``'s family: pid, RSS, command line (cut), and
    which one was chosen as the serving worker."""
    lines = []
    for member in [pid, *descendants(pid)]:
        mark = "  <- serving worker" if member == chosen else ""
        lines.append(f"    pid {member}: {process_rss_mib(member):.0f} MiB  {_cmdline(member)[:90]}{mark}")
    return "\n".join(lines)


def process_rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def family_rss_mib(pid: int) -> float:
    """Resident memory of ``pid`` and every process below it (the forkserver's readers
    and side writer included), in MiB."""
    return sum(process_rss_mib(p) for p in [pid, *descendants(pid)])


def slope(samples: list[tuple[float, float]]) -> float:
    """Least-squares MiB per minute of (seconds, MiB) samples."""
    if len(samples) < 2:
        return 0.0
    xs, ys = [s for s, _ in samples], [m for _, m in samples]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    var = sum((x - mx) ** 2 for x in xs)
    return 0.0 if var == 0 else sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / var * 60


def corpus_setup(name: str, where: Path) -> tuple[dict[str, object], list[str]]:
    """The server configuration of real corpus ``name`` (bench/corpora/NAME.yaml, its
    paths made absolute, the index under ``where``) and the words of its relevance set's
    questions."""
    import yaml
    from corpora import corpus_config

    config: dict[str, object] = corpus_config(name)  # $KP_CORPORA when not beside ../shared
    config.update({"index": str(where / f"corpus-{name}" / "index"), "workers": 1, "max_in_flight": 256,
                   "log_level": "warning"})
    questions = ROOT / "bench" / "relevance" / f"{name}.yaml"
    if questions.exists():
        relevance = yaml.safe_load(questions.read_text("utf-8"))
        words = sorted({word for item in relevance["queries"] for word in str(item["query"]).split()})
    else:  # no relevance set: the words of its file and folder names (hetzner: <slug>/01.en.md)
        stems = (name for path in Path(str(config["content"])).rglob("*.md") for name in (path.stem, path.parent.name))
        words = sorted({word for stem in stems for word in stem.replace("_", "-").split("-") if len(word) > 2})
    return config, words


def run(name: str, tree: Path, prepared: dict[str, str], vocabulary: list[str], args: argparse.Namespace,
        workdir: Path, corpus_config: dict[str, object] | None = None) -> dict[str, float]:
    if corpus_config is None:
        wiki = Path(prepared["minimum"]).parent / "wiki"
        config = {"content": str(wiki), "index": prepared["minimum"], "locales": ["en", "de"], "workers": 1,
                  "max_in_flight": 256, "log_level": "warning"}
    else:
        config = corpus_config
    base, proc = start(tree, config, workdir)
    try:
        time.sleep(2)
        idle = family_rss_mib(proc.pid)
        samples: list[tuple[float, float]] = []
        worker_samples: list[tuple[float, float]] = []
        port = int(base.rsplit(":", 1)[1])
        worker = worker_pid(proc.pid, port)
        print(f"\n{name}: serve's processes at idle (the serving worker: the one holding the socket "
              f"listening on port {port}):\n{describe_family(proc.pid, worker)}", flush=True)
        worker_idle = process_rss_mib(worker) if worker else 0.0
        changes: list[str] = []
        started = time.monotonic()
        stop = threading.Event()

        def sample() -> None:
            nonlocal worker
            while not stop.wait(args.every):
                now = time.monotonic() - started
                samples.append((now, family_rss_mib(proc.pid)))
                if worker and not Path(f"/proc/{worker}").exists():
                    # A worker replaced (uvicorn restarts one that died): follow the new one.
                    was, worker = worker, worker_pid(proc.pid, port)
                    changes.append(f"at {now:.0f} s worker {was} gone, now {worker}")
                if worker:
                    worker_samples.append((now, process_rss_mib(worker)))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        done, errors = asyncio.run(drive(base, distinct_queries(vocabulary, seed=hash(name) & 0xFFFF),
                                         args.connections, args.minutes * 60))
        stop.set()
        sampler.join()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    print(f"\n{name}: {tree}")
    print(f"  idle RSS {idle:.0f} MiB; {done} answers ({errors} errors) in {args.minutes:g} min, "
          f"{done / (args.minutes * 60):.0f} req/s")
    print("  RSS MiB every ~{:g} s: {}".format(args.every, " ".join(f"{m:.0f}" for _, m in samples)))
    late = [s for s in samples if s[0] >= 60] or samples
    peak = max((m for _, m in samples), default=idle)
    rate = slope(late)
    print(f"  peak {peak:.0f} MiB, last {samples[-1][1] if samples else idle:.0f} MiB, "
          f"slope after the first minute {rate:+.1f} MiB/min")
    half = [x for x in worker_samples if x[0] >= args.minutes * 30] or worker_samples
    worker_peak = max((m for _, m in worker_samples), default=worker_idle)
    worker_rate = slope(half)
    if worker_samples:
        print("  worker RSS MiB: " + " ".join(f"{m:.0f}" for _, m in worker_samples))
    for change in changes:
        print(f"  {change}")
    print(f"  worker (pid {worker}): idle {worker_idle:.0f} MiB, peak {worker_peak:.0f} MiB, "
          f"slope over the last half {worker_rate:+.1f} MiB/min")
    return {"idle": idle, "peak": peak, "slope": rate, "worker_idle": worker_idle, "worker_peak": worker_peak,
            "worker_slope": worker_rate}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--minutes", type=float, default=3)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--every", type=float, default=5, help="seconds between RSS samples")
    parser.add_argument("--index-dir", type=Path, help="bench/search.py's --index-dir (reused)")
    parser.add_argument("--baseline", type=Path, help="another source tree whose server is measured after this one")
    parser.add_argument("--corpus",
                        help="a real corpus (NAME of bench/corpora/NAME.yaml) instead of the synthetic wiki")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kp-memory-") as tmp:
        base = args.index_dir or Path(tmp)
        trees = [("after", ROOT)] + ([("before", args.baseline.resolve())] if args.baseline else [])
        if args.corpus:
            config, words = corpus_setup(args.corpus, base)
            load = os.getloadavg()
            print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, corpus {args.corpus}, "
                  f"{args.connections} connections, load average {load[0]:.2f} {load[1]:.2f}")
            rows = {}
            for name, tree in trees:  # one writer per index: each tree its own
                own = {**config, "index": f"{config['index']}-{name}"}
                rows[name] = run(name, tree, {}, words, args, Path(tmp), own)
            _table(rows)
            return
        prepared = prepare(base / f"docs-{args.docs}", args.docs, ("minimum",))
        vocabulary = json.loads((base / f"docs-{args.docs}" / "vocabulary.json").read_text())
        load = os.getloadavg()
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {args.docs} documents, "
              f"{args.connections} connections, load average {load[0]:.2f} {load[1]:.2f}")
        estimated, measured = answer_sizes(Path(prepared["minimum"]), vocabulary)
        print(f"cached answer (10 results): estimated {estimated / 1024:.1f} KiB, measured {measured / 1024:.1f} KiB")
        # This tree first: its figure is the one wanted if the run is cut short.
        rows = {name: run(name, tree, prepared, vocabulary, args, Path(tmp)) for name, tree in trees}
        _table(rows)


def _table(rows: dict[str, dict[str, float]]) -> None:
    load = os.getloadavg()
    print(f"\nload average after: {load[0]:.2f} {load[1]:.2f}")
    print(f"{'code':<7} {'idle MiB':>8} {'peak MiB':>8} {'MiB/min':>8}   worker: {'idle':>5} {'peak':>5} "
          f"{'MiB/min (last half)':>19}")
    for name, row in rows.items():
        print(f"{name:<7} {row['idle']:8.0f} {row['peak']:8.0f} {row['slope']:+8.1f}           "
              f"{row['worker_idle']:5.0f} {row['worker_peak']:5.0f} {row['worker_slope']:+19.1f}")


if __name__ == "__main__":
    main()
