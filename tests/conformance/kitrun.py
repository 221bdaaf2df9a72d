"""Running a generated test-kit module in a pytest of its own, as an adapter author's
suite runs, and reading what each test did."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.support import REPO_ROOT

#: {test class: {test name: (status, failure message)}}, status passed, failed or skipped.
Outcomes = dict[str, dict[str, tuple[str, str]]]


def run_kit_module(root: Path, filename: str, source: str) -> Outcomes:
    """Write ``source`` as ``root/filename`` and run pytest on ``root`` (warnings as
    errors, up to 600 s); the outcome of every test, by class and name."""
    (root / filename).write_text(source, "utf-8")
    (root / "pytest.ini").write_text("[pytest]\nfilterwarnings = error\n", "utf-8")
    junit = root / "junit.xml"
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={junit}", str(root)],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)}, cwd=root, timeout=600,
        check=False,
    )
    assert junit.exists(), completed.stdout + completed.stderr
    outcomes: Outcomes = {}
    for case in ET.parse(junit).getroot().iter("testcase"):  # noqa: S314 - pytest wrote it, just now
        failure = case.find("failure")
        status = "failed" if failure is not None else "skipped" if case.find("skipped") is not None else "passed"
        message = (failure.get("message") or "") if failure is not None else ""
        outcomes.setdefault(case.attrib["classname"].rpartition(".")[2], {})[case.attrib["name"]] = (status, message)
    return outcomes
