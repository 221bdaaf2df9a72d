"""Which pages change status between two trees of the project: prints figures, asserts nothing.

    nice python bench/status_diff.py --baseline ../baseline-1183a69 kaia-docs=docs/misc/** astro-docs
    nice python bench/status_diff.py --dump OUT.json kaia-docs=docs/misc/**   # one tree only (this one)

``KP_BASELINE_PYTHON``: an interpreter that imports the baseline tree's ``provider`` (a
venv of its own), when this tree is installed editable in the running one.

Each corpus (``NAME`` or ``NAME=GLOB``: the folder made internal, as ``bench/heuristics.py
--internal`` does) is read by :func:`provider.wiki.check.check_wiki` in this tree and, with
``--baseline``, by the other tree (a child process running this file from there with
``--dump``), and every page whose status (withheld, internal, public) differs is listed
with its reasons in this tree: what a reader of the two pages must agree with.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = Path(os.environ.get("KP_TREE") or ROOT)
sys.path.insert(0, str(TREE))

CORPORA = Path(os.environ.get("KP_CORPORA") or ROOT.parent / "shared" / "corpora")
NOW = dt.datetime(2026, 9, 1, tzinfo=dt.UTC)


def statuses(name: str, internal: str | None) -> dict[str, list[str]]:
    """``{path: [status, reasons…]}`` of every file of the corpus, read by the tree on ``sys.path``."""
    from provider.config import load_config
    from provider.wiki.check import check_wiki
    from provider.wiki.classify import AudienceRule

    config = load_config(ROOT / "bench" / "corpora" / f"{name}.yaml")
    settings = dataclasses.replace(config.wiki_settings(), root=CORPORA / name)
    if internal:
        settings = dataclasses.replace(settings, audience_rules=(AudienceRule(internal, "internal"),
                                                                 *settings.audience_rules))
    out: dict[str, list[str]] = {}
    for entry in check_wiki(settings, now=NOW).files:
        item = entry.resolved
        if item is None:
            out[entry.path] = ["skipped"]
            continue
        status = "withheld" if not item.served else "public" if item.public else "internal"
        out[entry.path] = [status, *item.quarantine]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpora", nargs="+", help="NAME or NAME=GLOB (the folder made internal)")
    parser.add_argument("--baseline", type=Path, help="another checkout of the project")
    parser.add_argument("--dump", type=Path, help="write this tree's statuses as JSON and stop")
    parser.add_argument("--baseline-cache", type=Path, metavar="DIR",
                        help="keep the baseline's statuses in DIR, one JSON per corpus spec, and reuse them "
                             "(several trees compared against one baseline read it once)")
    args = parser.parse_args()
    for spec in args.corpora:
        name, _, glob = spec.partition("=")
        started = time.process_time()
        mine = statuses(name, glob or None)
        took = time.process_time() - started
        if args.dump:
            args.dump.write_text(json.dumps(mine), "utf-8")
            continue
        print(f"== {spec}: {len(mine)} files, {sum(v[0] == 'public' for v in mine.values())} public "
              f"({took:.1f} CPU s)")
        if args.baseline is None:
            continue
        cached = _cache_file(args.baseline_cache, args.baseline, spec) if args.baseline_cache else None
        if cached is not None and cached.exists():
            theirs = json.loads(cached.read_text("utf-8"))
        else:
            theirs = _baseline_statuses(args.baseline, spec)
            if cached is not None:
                cached.parent.mkdir(parents=True, exist_ok=True)
                partial = cached.with_name(f"{cached.name}.{os.getpid()}")
                partial.write_text(json.dumps(theirs), "utf-8")
                partial.replace(cached)  # whole or absent for another tree reading the cache meanwhile
        print(f"   baseline: {sum(v[0] == 'public' for v in theirs.values())} public")
        for path in sorted(mine.keys() | theirs.keys()):
            before, after = theirs.get(path, ["absent"]), mine.get(path, ["absent"])
            if before[0] != after[0]:
                print(f"   {path}: {before[0]} -> {after[0]}")
                for reason in after[1:] or before[1:]:
                    print(f"      {reason}")


def _cache_file(folder: Path, baseline: Path, spec: str) -> Path:
    """Where the baseline's statuses of ``spec`` are kept: named by the baseline's commit and the spec."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=baseline, capture_output=True,
                            text=True, check=False).stdout.strip() or "unknown"
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in spec)
    return folder / f"{commit}-{safe}.json"


def _baseline_statuses(baseline: Path, spec: str) -> dict[str, list[str]]:
    """The baseline tree's statuses of ``spec``, read by a child process running this file from there."""
    handle, named = tempfile.mkstemp(suffix=".json")
    os.close(handle)
    out = Path(named)
    # The baseline's own interpreter if given: an editable install of this tree (or
    # the working directory) would otherwise lend the reader's workers this tree's code.
    python = os.environ.get("KP_BASELINE_PYTHON") or sys.executable
    subprocess.run([python, str(Path(__file__).resolve()), "--dump", str(out), spec], check=True, cwd=out.parent,
                   # PYTHONPATH too: the reader's worker processes import the project anew.
                   env={**os.environ, "KP_TREE": str(baseline.resolve()), "PYTHONPATH": str(baseline.resolve())})
    theirs: dict[str, list[str]] = json.loads(out.read_text("utf-8"))
    out.unlink()
    return theirs


if __name__ == "__main__":
    main()
