"""Write constraints.txt: the exact version of every runtime dependency of the package.

    python scripts/pin_constraints.py [--check]

Asks pip to resolve ``pip install ./kit .`` without installing anything (``--dry-run
--ignore-installed --report``), so the pins are what a fresh environment — the
container image — would get today. ``--check`` only reports whether the file is current
(exit 1 if not). The Dockerfile installs with ``--constraint constraints.txt``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "constraints.txt"
HEADER = """\
# Exact versions of every runtime dependency, direct and indirect, used by the Dockerfile
# (`pip install --constraint constraints.txt ./kit .`), so two image builds a week apart install
# the same code. pyproject.toml keeps the ranges the package supports.
# Regenerate after changing dependencies:  python scripts/pin_constraints.py
"""


def resolved() -> list[tuple[str, str]]:
    """(name, version) of every distribution ``pip install ./kit .`` would install, but this
    repository's own two."""
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.json"
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--dry-run", "--ignore-installed",
                        "--report", str(report), str(ROOT / "kit"), str(ROOT)], check=True)
        data = json.loads(report.read_text("utf-8"))
    # This repository's own two distributions: the provider and the kit it depends on (kit/).
    own = ("helpthread-knowledge-provider", "helpthread-kit")
    return sorted(((item["metadata"]["name"], item["metadata"]["version"]) for item in data["install"]
                   if item["metadata"]["name"] not in own), key=lambda pair: pair[0].lower())


def render(pins: list[tuple[str, str]]) -> str:
    return HEADER + "\n" + "".join(f"{name}=={version}\n" for name, version in pins)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 if constraints.txt is not current")
    args = parser.parse_args()
    text = render(resolved())
    if args.check:
        current = TARGET.read_text("utf-8") if TARGET.exists() else ""
        print("constraints.txt is current" if current == text else "constraints.txt is out of date")
        return 0 if current == text else 1
    TARGET.write_text(text, "utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
