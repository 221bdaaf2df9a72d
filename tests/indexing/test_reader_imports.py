"""A reader process (forked from the forkserver, which imports the parsing modules) does not
import the HTTP application (Litestar) nor the index writers: each process the build starts
pays only for what it runs (issue 27)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support import REPO_ROOT

_PROBE = """
import json, sys
import provider.wiki.document, provider.indexing.units
left_out = ("provider.indexing.indexer", "provider.indexing.write", "helpthread_kit.app")
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("litestar", "uvicorn", "watchfiles")
                        or m.startswith(left_out))))
"""


def test_the_reader_modules_leave_the_server_and_the_writers_out() -> None:
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120, check=True,
                          cwd=REPO_ROOT)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_the_kit_and_the_indexing_package_still_export_their_names() -> None:
    import helpthread_kit
    import provider.indexing
    from helpthread_kit import app
    from provider.indexing import indexer, report

    assert helpthread_kit.create_app is app.create_app
    assert helpthread_kit.ContractPlugin is app.ContractPlugin
    assert provider.indexing.Indexer is indexer.Indexer
    assert provider.indexing.Progress is report.Progress
