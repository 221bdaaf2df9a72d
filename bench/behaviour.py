"""A snapshot of what the provider decides and answers, to show a refactoring changed nothing.

    python bench/behaviour.py --out /tmp/before            # on the old tree
    python bench/behaviour.py --out /tmp/after             # on the new tree
    python bench/behaviour.py --compare /tmp/before /tmp/after

The snapshot holds, per shared corpus (``bench/corpora/NAME.yaml``), the report of
``knowledge-provider check --json --urls`` with the run's timings removed, and per relevance
set (the sample wiki's ``bench/relevance/queries.yaml`` and each real corpus's set) every
query's first ten distinct documentIds in every mode. ``--compare`` prints the files that
differ and exits 1 when any does. ``--only NAME`` (repeatable) limits the snapshot.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.relevance import MODES, load_queries, run_mode  # noqa: E402 - after the path set-up above

#: Keys of the check report that measure the run rather than describe the wiki.
_VOLATILE = frozenset({"now", "seconds", "elapsed", "elapsedSeconds", "took", "durationSeconds"})


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in _VOLATILE}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def _check(config: Path) -> Any:
    run = subprocess.run([sys.executable, "-m", "provider", "check", "--json", "--urls", "--config", str(config)],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    try:
        report = json.loads(run.stdout)
    except ValueError:
        return {"exit": run.returncode, "stdout": run.stdout[-2000:], "stderr": run.stderr[-2000:]}
    return {"exit": run.returncode, "report": _strip(report)}


def _relevance(queries_file: Path) -> Any:
    queries = load_queries(queries_file)
    return {mode: [[q.query, q.profile, q.locale, ids[:10]] for q, ids in run_mode(mode, queries, ROOT / "content")]
            for mode in ("minimum", "all") if mode in MODES}


def snapshot(out: Path, only: set[str]) -> None:
    """Write ``check-NAME.json`` and ``relevance-NAME.json`` files into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    for config in sorted((ROOT / "bench" / "corpora").glob("*.yaml")):
        if only and config.stem not in only:
            continue
        print(f"check {config.stem}", flush=True)
        (out / f"check-{config.stem}.json").write_text(json.dumps(_check(config), indent=1, sort_keys=True))
    sets = {"sample": ROOT / "bench" / "relevance" / "queries.yaml"}
    sets |= {p.stem: p for p in (ROOT / "bench" / "relevance").glob("*.yaml")
             if p.stem not in ("queries", "queries-issue4")}
    for name, path in sorted(sets.items()):
        if only and name not in only:
            continue
        print(f"relevance {name}", flush=True)
        (out / f"relevance-{name}.json").write_text(json.dumps(_relevance(path), indent=1, ensure_ascii=False))


def compare(before: Path, after: Path) -> int:
    """Print each snapshot file that differs or is missing on one side; 1 if any does."""
    names = sorted({p.name for p in before.glob("*.json")} | {p.name for p in after.glob("*.json")})
    differing = 0
    for name in names:
        a, b = before / name, after / name
        if not a.exists() or not b.exists():
            print(f"{name}: only in {'after' if b.exists() else 'before'}")
            differing += 1
        elif json.loads(a.read_text()) != json.loads(b.read_text()):
            print(f"{name}: DIFFERS (diff {a} {b})")
            differing += 1
        else:
            print(f"{name}: identical")
    return 1 if differing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write a snapshot into this folder")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--only", action="append", default=[], help="a corpus or relevance set name (repeatable)")
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if not args.out:
        parser.error("give --out DIR or --compare BEFORE AFTER")
    snapshot(args.out, set(args.only))
    return 0


if __name__ == "__main__":
    sys.exit(main())
