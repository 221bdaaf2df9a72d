"""``--log-format json``: every line of a whole run — start, indexing with progress,
requests, stop — is one JSON object (issue 16: a log collector must never meet a plain
line, a traceback or a warning from a helper process)."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from tests.conftest import CUSTOMER_SECRET, start_provider
from tests.support import REPO_ROOT

pytestmark = pytest.mark.e2e

WORDS = "invoice payment customer account refund export report ledger tax currency bank statement".split()


def generated_wiki(root: Path, count: int) -> Path:
    """The sample wiki and ``count`` generated public articles (enough for progress lines)."""
    import shutil

    shutil.copytree(REPO_ROOT / "content", root)
    folder = root / "en" / "generated"
    folder.mkdir()
    for i in range(count):
        body = "\n\n".join(" ".join(WORDS[(i + j + k) % len(WORDS)] for k in range(30)) for j in range(6))
        (folder / f"article-{i:04d}.md").write_text(
            f"---\ntitle: Generated article {i}\naudience: public\n---\n# Generated {i}\n\n{body}\n", "utf-8")
    return root


def test_every_line_of_a_start_index_query_stop_run_is_json(tmp_path: Path) -> None:
    wiki = generated_wiki(tmp_path / "wiki", 300)
    server = start_provider(tmp_path / "run", content=wiki, extra_args=("--log-format", "json"))
    try:
        reply = server.retrieve({"query": "reset password"}, CUSTOMER_SECRET)
        assert reply.status == 200
        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.wait(timeout=30) == 0
    finally:
        server.stop()
    lines = server.log().splitlines()
    records = []
    for number, line in enumerate(lines, start=1):
        try:
            record = json.loads(line)
        except ValueError:
            raise AssertionError(f"line {number} is not JSON: {line!r}") from None
        assert isinstance(record, dict) and {"timestamp", "level", "message"} <= set(record), line
        records.append(record)
    progress = [r for r in records if r.get("event") == "progress"]
    # Every phase reports progress (reading, rules, writing, committing); a phase without
    # a count (the corpus rules, the commit) says total 0.
    assert progress and all(isinstance(r["done"], int) and isinstance(r["total"], int) for r in progress), progress
    assert any(r["total"] >= 300 for r in progress), progress
    messages = [r["message"] for r in records]
    assert any(m.startswith("Index built in") for m in messages)
    assert any(r.get("name") == "provider.access" for r in records)
    assert messages[-1] == "stopped (SIGTERM): the index is consistent and no process is left running"
