"""Cold builds of the real corpora: prints figures, asserts nothing.

    python bench/corpora.py                                  # every corpus, this tree
    python bench/corpora.py --corpus astro-docs --corpus kaia-docs
    python bench/corpora.py --baseline /tmp/kp-base          # side by side with another checkout
        # e.g. after `git worktree add --detach /tmp/kp-base HEAD~1`

Each corpus of ``../shared/corpora`` that has a configuration in ``bench/corpora/``
(``NAME.yaml``: what its site's operator would write) is served by the real server
(``knowledge-provider serve``, one worker) from an empty index folder, in a fresh
process, so the build is the one a first start makes. Printed per corpus and tree:

* documents served when ready (the ``knowledge_provider_documents`` gauges, or the
  build's summary line);
* documents per CPU-second of the whole process tree (``serve``, its workers, reader
  processes, side writer, forkserver: user and system time of every live process and of
  the children each has reaped, read from ``/proc`` when ``/readyz`` first answers 200);
* the peak resident memory of the tree (the sum over its processes, sampled at every
  poll, ``--every`` seconds);
* time to ready, wall clock (from starting ``serve``).

With ``--baseline TREE`` the same corpus is built by the other checkout's code right
after (or before: the order alternates from corpus to corpus), with the same
configuration (this tree's ``bench/corpora/NAME.yaml``), so both meet the machine's load
of the same minutes; ``--rounds N`` repeats each build and prints medians. The machine's
load average is printed with every build: on a shared machine read the CPU figures, not
the wall clock.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import yaml

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ROOT / "bench" / "corpora"
sys.path.insert(0, str(ROOT / "bench"))

from common import free_port, launch_server, wait_ready  # noqa: E402

SECRET = "corpora-bench-secret-" + "c" * 32
_TICK = os.sysconf("SC_CLK_TCK")
_PAGE_KIB = os.sysconf("SC_PAGE_SIZE") / 1024
_GAUGE = re.compile(r'^knowledge_provider_documents\{audience="[^"]*"\} ([0-9.e+]+)$', re.M)
_SUMMARY = re.compile(r"(\d+) documents served")


@dataclass
class Build:
    """One cold build: documents served, CPU seconds of the process tree and wall seconds
    at ready, and the tree's peak resident memory in MiB."""

    documents: int
    cpu_s: float
    wall_s: float
    peak_mib: float

    @property
    def docs_per_cpu_s(self) -> float:
        return self.documents / self.cpu_s if self.cpu_s else 0.0


def _stat(pid: int) -> tuple[int, float, float] | None:
    """``(parent pid, CPU seconds of it and its reaped children, RSS MiB)`` of ``pid``."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2:].split()  # after the command name, which may hold spaces
    # fields[0] is field 3 of proc(5): ppid is 4, utime..cstime 14..17, rss 24.
    cpu = sum(int(value) for value in fields[11:15]) / _TICK
    return int(fields[1]), cpu, int(fields[21]) * _PAGE_KIB / 1024


def tree_usage(root: int) -> tuple[float, float]:
    """CPU seconds and resident MiB of ``root`` and every process below it, now. The CPU
    time of a process that has ended counts once its parent has reaped it (as Python's
    multiprocessing and the forkserver do)."""
    stats = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            found = _stat(int(entry.name))
            if found is not None:
                stats[int(entry.name)] = found
    members, todo = set(), [root]
    while todo:
        pid = todo.pop()
        if pid in stats and pid not in members:
            members.add(pid)
            todo += [child for child, (parent, _, _) in stats.items() if parent == pid]
    return sum(stats[p][1] for p in members), sum(stats[p][2] for p in members)


def served_documents(metrics_port: int, log: Path) -> int:
    """The servable documents: the sum of the ``knowledge_provider_documents`` gauges, else
    the number in the build's summary line of ``serve``'s output."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            text = httpx.get(f"http://127.0.0.1:{metrics_port}/metrics", timeout=2).text
            values = [float(v) for v in _GAUGE.findall(text)]
            if values and sum(values) > 0:
                return int(sum(values))
        except httpx.HTTPError:
            pass
        found = _SUMMARY.findall(log.read_text(errors="replace"))
        if found:
            return int(found[0])
        time.sleep(0.2)
    return 0


def corpus_config(name: str) -> dict[str, Any]:
    """``bench/corpora/NAME.yaml`` with its content folder made absolute (the file's paths
    are relative to it; when that folder is missing, the one of the same name in
    ``$KP_CORPORA``)."""
    path = CONFIGS / f"{name}.yaml"
    config: dict[str, Any] = yaml.safe_load(path.read_text("utf-8"))
    content = (path.parent / config["content"]).resolve()
    corpora = os.environ.get("KP_CORPORA")
    if corpora and not content.is_dir():  # a worktree is not beside ../shared (as in tests/corpora.py)
        content = Path(corpora) / content.name
    config["content"] = str(content)
    return config


def build(name: str, tree: Path, work: Path, *, every_s: float, timeout_s: float) -> Build:
    """Serve corpus ``name`` from an empty index with ``tree``'s code until ready."""
    run = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=work))
    metrics_port = free_port()
    config = {**corpus_config(name), "index": str(run / "index"), "workers": 1, "metrics_port": metrics_port,
              "log_level": "info"}
    log = run / "serve.log"
    peak = 0.0
    cpu = 0.0
    with log.open("wb") as out:
        started = time.monotonic()
        base, proc = launch_server(config, run, SECRET, tree=tree, stdout=out)

        def sample() -> None:
            nonlocal peak, cpu
            cpu, rss = tree_usage(proc.pid)
            peak = max(peak, rss)

        try:
            wait_ready(base, proc, timeout_s=timeout_s, every_s=every_s, each=sample)
            wall = time.monotonic() - started
            sample()
            documents = served_documents(metrics_port, log)
        except RuntimeError as exc:
            raise RuntimeError(f"{name} with {tree}: {exc}; its output: {log}") from None
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    shutil.rmtree(run, ignore_errors=True)
    return Build(documents, cpu, wall, peak)


def _median(builds: list[Build], field: Callable[[Build], float]) -> float:
    return statistics.median(field(b) for b in builds)


def _row(name: str, label: str, builds: list[Build]) -> str:
    return (f"| {name} | {label} | {_median(builds, lambda b: b.documents):,.0f} | "
            f"{_median(builds, lambda b: b.docs_per_cpu_s):.1f} | {_median(builds, lambda b: b.cpu_s):.1f} | "
            f"{_median(builds, lambda b: b.peak_mib):,.0f} | {_median(builds, lambda b: b.wall_s):.1f} |")


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def _commit(tree: Path) -> str:
    done = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() or "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", action="append", help="a corpus (NAME of bench/corpora/NAME.yaml); "
                        "default: every one")
    parser.add_argument("--baseline", type=Path, help="another checkout of the project, built beside this one")
    parser.add_argument("--rounds", type=int, default=1, help="builds per corpus and tree (medians printed)")
    parser.add_argument("--every", type=float, default=0.25, help="seconds between samples of the process tree")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds a build may take to ready")
    parser.add_argument("--workdir", type=Path, help="where the indexes are built (default: a temporary folder)")
    args = parser.parse_args(argv)
    names = args.corpus or sorted(p.stem for p in CONFIGS.glob("*.yaml"))
    missing = [n for n in names if not (CONFIGS / f"{n}.yaml").exists()]
    if missing:
        parser.error(f"no configuration bench/corpora/NAME.yaml for {', '.join(missing)}")
    for name in names:
        if not Path(corpus_config(name)["content"]).is_dir():
            parser.error(f"corpus {name}: {corpus_config(name)['content']} is missing (../shared/corpora)")
    trees = [("this", ROOT)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    print(f"bench/corpora.py: python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {_load()}; "
          + ", ".join(f"{label} {tree} at {_commit(tree)}" for label, tree in trees), flush=True)
    results: dict[tuple[str, str], list[Build]] = {}
    with tempfile.TemporaryDirectory(prefix="kp-corpora-", dir=args.workdir) as tmp:
        for i, name in enumerate(names):
            for round_ in range(args.rounds):
                order = trees if (i + round_) % 2 == 0 else list(reversed(trees))
                for label, tree in order:
                    result = build(name, tree, Path(tmp), every_s=args.every, timeout_s=args.timeout)
                    results.setdefault((name, label), []).append(result)
                    print(f"  {name} {label}: {result.documents} documents, {result.cpu_s:.1f} CPU s "
                          f"({result.docs_per_cpu_s:.1f} docs per CPU-second), peak {result.peak_mib:.0f} MiB, "
                          f"ready in {result.wall_s:.1f} s; load average {_load()}", flush=True)
    print(f"\nload average at the end: {_load()}\n")
    print("| corpus | code | documents | docs per CPU-s | CPU s | peak RSS MiB (tree) | ready s (wall) |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        for label, _ in trees:
            print(_row(name, label, results[(name, label)]))
    if args.baseline:
        print("\nthis / baseline: docs per CPU-second, peak RSS, time to ready")
        for name in names:
            now, before = results[(name, "this")], results[(name, "baseline")]
            ratios = [_median(now, f) / max(_median(before, f), 1e-9) for f in
                      (lambda b: b.docs_per_cpu_s, lambda b: b.peak_mib, lambda b: b.wall_s)]
            print(f"  {name}: {ratios[0]:.2f}x, {ratios[1]:.2f}x, {ratios[2]:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
