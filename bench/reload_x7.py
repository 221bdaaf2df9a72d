"""Reload-to-effect time of a configuration change that makes pages internal (CONTRACT
X7, issue 27): prints figures, asserts nothing.

    python bench/reload_x7.py                                   # Microsoft Learn, Teams/**
    python bench/reload_x7.py --corpus kaia-docs --folder docs/build
    python bench/reload_x7.py --index /tmp/learn-index          # reuse a build (else one is made first)

Serves a real corpus (``bench/corpora/NAME.yaml``, one worker) with the real server,
then saves its configuration file (an atomic rename, as an editor does) with the audience
rule ``FOLDER/**: internal`` put first, and polls ``customer_safe`` every 50 ms with the
title of a public page under ``FOLDER`` until no page of ``FOLDER`` is in the answer.
Printed, in seconds from the save: when the reload line was written (the file follower
looks every second), when ``customer_safe`` stopped answering with pages of ``FOLDER``
(the early withdrawal), and when the rebuild with the new settings was swapped in; and
the withdrawal's own log line (how many pages, how long the quick pass and its commit
took).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import launch_server, wait_ready  # noqa: E402
from corpora import corpus_config  # noqa: E402

from helpthread_kit.testing import signed_headers  # noqa: E402

SECRET = "reload-x7-bench-secret-" + "r" * 32
APPLIED = "applying audience_rules while serving"
SWAPPED = "scan complete at"
WITHDREW = "from customer_safe in"


def folder_ids(base: str, query: str, folder: str) -> list[str]:
    """The documentIds under ``folder`` that a ``customer_safe`` search for ``query`` finds now."""
    body = json.dumps({"query": query, "limit": 50}).encode()
    reply = httpx.post(f"{base}/retrieve", content=body, headers=signed_headers(body, SECRET), timeout=30)
    reply.raise_for_status()
    return [r["documentId"] for r in reply.json()["results"] if r["documentId"].startswith(folder + "/")]


def titles(content: Path, folder: str) -> list[str]:
    """Titles of the pages under ``folder`` (front matter ``title:``), for queries."""
    found = []
    for path in sorted((content / folder).rglob("*.md"))[:200]:
        for line in path.read_text("utf-8", errors="replace").splitlines()[1:40]:
            if line.startswith("title:"):
                found.append(line.removeprefix("title:").strip().strip("'\""))
                break
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--corpus", default="ms-officedocs-support")
    parser.add_argument("--folder", default="Teams", help="made internal by the rule FOLDER/**")
    parser.add_argument("--index", type=Path, help="an index folder to reuse (default: a fresh one, built first)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kp-reload-x7-"))
    config = {**corpus_config(args.corpus), "index": str(args.index or work / "index"), "workers": 1}
    log_path = work / "serve.log"
    with open(log_path, "wb") as log_file:
        base, proc = launch_server(config, work, SECRET, stdout=log_file)
    try:
        started = time.monotonic()
        wait_ready(base, proc, timeout_s=1800)
        print(f"ready in {time.monotonic() - started:.1f} s")
        query = next((t for t in titles(Path(config["content"]), args.folder) if folder_ids(base, t, args.folder)),
                     None)
        if query is None:
            sys.exit(f"no customer_safe answer finds a page under {args.folder}/")
        print(f"query {query!r}: {len(folder_ids(base, query, args.folder))} page(s) under {args.folder}/")
        path = work / f"bench-{base.rsplit(':', 1)[1]}.yaml"
        edited = json.loads(path.read_text())
        edited["audience_rules"] = [{f"{args.folder}/**": "internal"}, *edited.get("audience_rules", [])]
        staged = path.with_name(".bench.tmp")
        staged.write_text(json.dumps(edited))
        swaps = log_path.read_text(errors="replace").count(SWAPPED)
        saved = time.monotonic()
        os.replace(staged, path)
        logged = gone = swapped = None
        while swapped is None and time.monotonic() - saved < 1800:
            text = log_path.read_text(errors="replace")
            now = time.monotonic() - saved
            if logged is None and APPLIED in text:
                logged = now
            if gone is None and not folder_ids(base, query, args.folder):
                gone = now
            if text.count(SWAPPED) > swaps:
                swapped = now
            time.sleep(0.05)
        line = next((ln for ln in log_path.read_text(errors="replace").splitlines() if WITHDREW in ln), "(none)")

        def shown(value: float | None) -> str:
            return "never" if value is None else f"{value:.2f} s"

        print(f"from the save: reload line {shown(logged)}, gone from customer_safe {shown(gone)}, "
              f"rebuild swapped in {shown(swapped)}")
        print("withdrawal:", line[line.find("configuration changed"):])
    finally:
        proc.terminate()
        proc.wait(timeout=60)


if __name__ == "__main__":
    main()
