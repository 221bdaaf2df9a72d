"""The reference provider against its own black-box checker on every shared corpus
(CONTRACT R3 and the rest of §8.2): each corpus (``bench/corpora/NAME.yaml``) is served by
the real server (one worker, a fresh index), and the project's ``conformance`` command
runs against it — with its default probe queries and with queries that find code (the
pages whose code reads as markup). Prints each corpus's failed checks and its R3 verdict.

    python bench/corpora_conformance.py                          # every corpus
    python bench/corpora_conformance.py hetzner-tutorials --tree /path/to/other/checkout

``--tree`` serves another checkout's code (before and after in one run); the checker is
this tree's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from common import launch_server, wait_ready  # noqa: E402
from corpora import CONFIGS, SECRET, corpus_config  # noqa: E402

AGENT_SECRET = "corpora-agent-secret-" + "a" * 32
#: Queries whose answers are mostly code on docs sites (HTML/JSX samples, templates,
#: Python, shell): the snippets the checker used to flag.
CODE_QUERIES = ("install", "import", "component", "template", "config", "example", "python", "html", "command",
                "script", "main", "class", "props", "div", "curl")


def run(name: str, tree: Path, work: Path) -> dict[str, object]:
    """Serve ``name`` with ``tree``'s code and return the checker's JSON report."""
    folder = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=work))
    config = {**corpus_config(name), "index": str(folder / "index"), "workers": 1}
    os.environ["KNOWLEDGE_PROVIDER_AGENT_ONLY_SECRET"] = AGENT_SECRET
    with (folder / "serve.log").open("wb") as out:
        base, proc = launch_server(config, folder, SECRET, tree=tree, stdout=out)
        try:
            wait_ready(base, proc, timeout_s=1800, every_s=1.0)
            command = [sys.executable, "-m", "provider", "conformance", base, "--json", "--application-only",
                       "--customer-safe-secret", SECRET, "--agent-only-secret", AGENT_SECRET]
            for query in CODE_QUERIES:
                command += ["--query", query]
            done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    try:
        report: dict[str, object] = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"error": done.stdout[-2000:] + done.stderr[-2000:], "exit": done.returncode}
    report["exit"] = done.returncode
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="corpora (default: every bench/corpora/*.yaml)")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose server is run")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()))
    args = parser.parse_args()
    names = args.names or sorted(p.stem for p in CONFIGS.glob("*.yaml"))
    for name in names:
        report = run(name, args.tree.resolve(), args.work)
        checks = report.get("checks", [])
        listed = checks if isinstance(checks, list) else []
        failed = [c for c in listed if isinstance(c, dict) and c.get("status") == "FAIL"]
        print(f"== {name}: exit {report.get('exit')}, {len(failed)} failed check(s)")
        for check in failed:
            print(f"   FAIL {check.get('id')} {check.get('name')}: {str(check.get('reason', ''))[:300]}")
        if "error" in report:
            print("   ", report["error"])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
