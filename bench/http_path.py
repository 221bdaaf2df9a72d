"""The HTTP and contract path over the bare signed endpoint (issue 15): prints figures,
asserts nothing.

    python bench/http_path.py --index-dir /tmp/kp-search              # this tree
    python bench/http_path.py --index-dir /tmp/kp-search --baseline /tmp/kp-before

The real server (``knowledge-provider serve``, one worker) on bench/search.py's
minimum-configuration index of ``--docs`` documents (``--index-dir`` reuses it), and
bench/peers.py's signed no-op endpoint under the same ``serve()`` (same HTTP protocol,
same signature check and in-memory replay store, a fixed answer; one per tree, served
by that tree's code). Each round sends
``--requests`` signed requests over ``--connections`` keep-alive connections to:

* ``/retrieve`` repeating 20 queries (answered from the answer cache once warm),
* ``/retrieve`` with ``--distinct`` queries never sent before (new ones each round, the
  same for every tree; each a search on a search thread, issue 27),
* ``GET /capabilities``,
* the no-op endpoint,

and reads the CPU time of the process that answers (the serving worker; the no-op's
one process). The distinct queries of each round are also searched **in process** with
the same tree's code (bench/search.py's measurement: ``WhooshBackend`` without answer
cache, a fresh process, the searching thread's CPU), and the table ends with the HTTP
cost of a distinct query against issue 27's bound, ``1.3 × in-process CPU + 0.3 ms``
(means, since CPU per request over HTTP is a mean). Printed per tree: CPU µs per
request and requests per second, the median of ``--rounds`` rounds (trees and endpoints
interleaved round by round, so a change in the machine's load hits all alike), and each
endpoint's CPU above the no-op's. The client (bench/common.raw_load: each request signed as it is sent, raw keep-alive
sockets) runs on the same machine and shares its two CPUs: read the CPU figures first.

``--py-spy FILE`` then records the first tree's serving worker with py-spy (it must be
on ``PATH`` or beside this Python) while it answers cached ``/retrieve`` requests,
writes the raw stacks to ``FILE`` and prints the functions with the largest shares of
the samples in which the worker was not waiting in ``epoll``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import Call, raw_load, running_server  # noqa: E402
from load import SECRET, queries  # noqa: E402
from memory import descendants, worker_pid  # noqa: E402
from peers import start_noop  # noqa: E402
from search import _run_tree, prepare  # noqa: E402

from helpthread_kit.testing import signed_headers  # noqa: E402


def measure(base: str, pid: int, calls: list[Call], connections: int) -> tuple[float, float]:
    """(CPU µs per request of process ``pid`` alone, requests per second), the requests
    sent by bench/common.raw_load (the client must not be the limit)."""
    cpu, rps, _ = measure_tree(base, pid, None, calls, connections)
    return cpu, rps


def measure_tree(base: str, pid: int, family: int | None, calls: list[Call],
                 connections: int) -> tuple[float, float, float]:
    """:func:`measure`, and the CPU µs per request of the whole family of process
    ``family`` (``serve``: its supervisor, the worker, the writer, any reader; NaN
    without ``family``)."""
    before, family_before = _own_cpu(pid), _tree_cpu(family) if family else 0.0
    seconds, latencies, errors = asyncio.run(raw_load(base, calls, connections, SECRET))
    worker_cpu, family_after = _own_cpu(pid), _tree_cpu(family) if family else math.nan
    if errors:
        method, path, body = calls[0]
        headers = signed_headers(body or b"", SECRET, content_type=None if body is None else "application/json")
        probe = httpx.request(method, base + path, content=body, headers=headers, timeout=30)
        print(f"    ({errors} errors at {base}; a probe now: {probe.status_code} {probe.text[:120]})", flush=True)
    per = 1e6 / len(latencies)
    return (worker_cpu - before) * per, len(latencies) / seconds, (family_after - family_before) * per


def wait_quiet(pid: int, timeout_s: float = 180) -> None:
    """Wait until process ``pid`` uses under 5 % of a CPU over two seconds (the worker
    builds its spelling indexes in a thread after opening a build)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        before = _own_cpu(pid)
        time.sleep(2)
        if _own_cpu(pid) - before < 0.1:
            return


def _own_cpu(pid: int) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks


def _tree_cpu(pid: int) -> float:
    """CPU seconds of process ``pid`` and every descendant alive now (a child that ended
    during the measurement is missed: none does while serving)."""
    total = 0.0
    for member in [pid, *descendants(pid)]:
        try:
            total += _own_cpu(member)
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


def py_spy(base: str, pid: int, calls: list[Call], connections: int, out: Path) -> None:
    """Record process ``pid`` with py-spy while it answers ``calls``; print its top frames."""
    spy_bin = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    spy = subprocess.Popen([spy_bin, "record", "--pid", str(pid), "--rate", "400", "--format", "raw",
                            "--nonblocking", "-o", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.5)  # py-spy attaches
    measure(base, pid, calls, connections)
    spy.send_signal(2)
    spy.wait(timeout=60)
    print_profile(out)


def print_profile(path: Path, top: int = 25) -> None:
    """The largest self and inclusive shares (by function) of py-spy's raw stacks in
    ``path``, leaving out samples waiting for the network (``select``) or a thread."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    busy = waiting = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = [re.sub(r":\d+\)$", ")", frame) for frame in stack.split(";")]
        if frames[-1].startswith(("EpollSelector.select", "Condition.wait", "_worker (concurrent")):
            waiting += int(count)
            continue
        busy += int(count)
        own[frames[-1]] += int(count)
        inclusive.update(dict.fromkeys(set(frames), int(count)))
    print(f"\npy-spy: {busy} samples busy, {waiting} waiting (left out); raw stacks in {path}")
    for title, counter in (("self", own), ("inclusive", inclusive)):
        print(f"\n| {title} share | function |\n|---|---|")
        for frame, count in counter.most_common(top):
            print(f"| {count / max(1, busy):.1%} | {frame} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=3000, help="requests per endpoint and round")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--distinct", type=int, default=1500,
                        help="distinct /retrieve queries per tree and round (0: none)")
    parser.add_argument("--index-dir", type=Path, help="bench/search.py's --index-dir (reused)")
    parser.add_argument("--baseline", type=Path, help="another source tree, measured beside this one")
    parser.add_argument("--py-spy", type=Path, metavar="FILE",
                        help="afterwards, profile this tree's worker under cached /retrieve (raw stacks to FILE)")
    parser.add_argument("--py-spy-distinct", type=int, default=0, metavar="N",
                        help="with --py-spy: profile N distinct /retrieve queries instead of cached ones")
    args = parser.parse_args()
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="kp-http-") as tmp, ExitStack() as stack:
        work = Path(tmp)
        base_dir = args.index_dir or work
        prepared = prepare(base_dir / f"docs-{args.docs}", args.docs, ("minimum",))
        vocabulary = json.loads((base_dir / f"docs-{args.docs}" / "vocabulary.json").read_text())
        wiki = Path(prepared["minimum"]).parent / "wiki"
        config = {"content": str(wiki), "index": prepared["minimum"], "locales": ["en", "de"], "workers": 1,
                  "max_in_flight": 256, "log_level": "warning"}
        repeated_set = queries(vocabulary, 20, seed=7)
        retrieve: list[Call] = [
            ("POST", "/retrieve", json.dumps({"query": repeated_set[i % 20]}).encode()) for i in range(args.requests)]
        capabilities: list[Call] = [("GET", "/capabilities", None)] * args.requests
        print(f"bench/http_path.py at {commit}: {args.docs} documents, {args.requests} requests × "
              f"{args.connections} connections × {args.rounds} rounds, load average {os.getloadavg()[0]:.2f}",
              flush=True)
        trees = [("after", ROOT)] + ([("before", args.baseline.resolve())] if args.baseline else [])
        servers = {}
        for name, tree in trees:
            # One writer per index: each tree's server gets its own copy of it.
            index = work / f"index-{name}"
            shutil.copytree(prepared["minimum"], index, ignore=shutil.ignore_patterns("state"))
            base, proc = stack.enter_context(running_server({**config, "index": str(index)}, work, SECRET,
                                                            tree=tree))
            worker = None
            deadline = time.monotonic() + 30
            while worker is None and time.monotonic() < deadline:
                worker = worker_pid(proc.pid)
                time.sleep(0.2)
            if worker is None:
                raise RuntimeError(f"no serving worker under {proc.pid}")
            measure(base, worker, retrieve[:200], args.connections)  # the 20 answers cached
            servers[name] = (base, worker, proc.pid)
        for _, worker, _ in servers.values():
            wait_quiet(worker)
        noops = {}
        for name, tree in trees:  # each tree's no-op under its own serve()
            noop_base, noop_proc = start_noop(tree)
            stack.callback(noop_proc.wait, 30)
            stack.callback(noop_proc.terminate)
            measure(noop_base, noop_proc.pid, retrieve[:200], args.connections)
            noops[name] = (noop_base, noop_proc.pid)
        rows: dict[str, list[tuple[float, float]]] = {}
        in_process: dict[str, list[float]] = {}
        family_rows: dict[str, list[float]] = {}
        fresh = queries(vocabulary, args.distinct * args.rounds, seed=4242)  # none of them repeated_set's
        for round_ in range(args.rounds):
            distinct = fresh[round_ * args.distinct:(round_ + 1) * args.distinct]
            for name, (base, worker, _) in servers.items():
                if distinct:
                    calls = [("POST", "/retrieve", json.dumps({"query": q}).encode()) for q in distinct]
                    cpu_us, rps, family_us = measure_tree(base, worker, servers[name][2], calls, args.connections)
                    rows.setdefault(f"{name} /retrieve (distinct)", []).append((cpu_us, rps))
                    family_rows.setdefault(name, []).append(family_us)
                    cpu = _run_tree(dict(trees)[name], prepared["minimum"], "minimum", distinct)["cpu"]
                    in_process.setdefault(name, []).append(statistics.fmean(cpu) * 1e6)
                rows.setdefault(f"{name} no-op", []).append(measure(*noops[name], retrieve, args.connections))
                rows.setdefault(f"{name} /retrieve (cached)", []).append(
                    measure(base, worker, retrieve, args.connections))
                rows.setdefault(f"{name} /capabilities", []).append(
                    measure(base, worker, capabilities, args.connections))
            print(f"  round {round_ + 1} done, load average {os.getloadavg()[0]:.2f}", flush=True)
        if args.py_spy:
            base, worker, _ = servers["after"]
            if args.py_spy_distinct:
                spied = queries(vocabulary, args.py_spy_distinct, seed=977)  # none sent before
                py_spy(base, worker, [("POST", "/retrieve", json.dumps({"query": q}).encode()) for q in spied],
                       args.connections, args.py_spy)
            else:
                py_spy(base, worker, retrieve * 3, args.connections, args.py_spy)
    print("\n| endpoint | CPU µs/request (rounds) | median | above its tree's no-op | req/s | of the no-op's |")
    print("|---|---|---|---|---|---|")
    for name, values in rows.items():
        noop = rows[name.split(" ", 1)[0] + " no-op"]
        noop_cpu = statistics.median(c for c, _ in noop)
        noop_rps = statistics.median(r for _, r in noop)
        cpu = statistics.median(c for c, _ in values)
        rps = statistics.median(r for _, r in values)
        print(f"| {name} | {' '.join(f'{c:.0f}' for c, _ in values)} | {cpu:.0f} | {cpu - noop_cpu:+.0f} | "
              f"{rps:.0f} | {rps / noop_rps:.0%} |")
    for name, values in in_process.items():
        search_us = statistics.median(values)
        http_us = statistics.median(c for c, _ in rows[f"{name} /retrieve (distinct)"])
        family_us = statistics.median(family_rows[name])
        bound = 1.3 * search_us + 300
        print(f"\n{name}: distinct query over HTTP {http_us:.0f} µs CPU a request in the worker, "
              f"{family_us:.0f} µs in serve's whole process tree (rounds: "
              f"{' '.join(f'{v:.0f}' for v in family_rows[name])}); the same searches in process "
              f"{search_us:.0f} µs (rounds: {' '.join(f'{v:.0f}' for v in values)}); ratio {http_us / search_us:.2f} "
              f"(tree {family_us / search_us:.2f}); issue 27's bound 1.3 × {search_us:.0f} + 300 = {bound:.0f} µs: "
              f"worker {'met' if http_us <= bound else 'not met'} ({http_us - bound:+.0f} µs), "
              f"tree {'met' if family_us <= bound else 'not met'} ({family_us - bound:+.0f} µs)")
    print(f"\n(at {commit}; load average {os.getloadavg()[0]:.2f} at the end)")


if __name__ == "__main__":
    main()
