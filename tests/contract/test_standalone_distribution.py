"""The contract layer stands alone (issue 14): scripts/build_contract_dist.py builds it
as its own distribution, which installs into an empty virtual environment — no Whoosh,
markdown-it-py or watchfiles, nothing of the wiki (Litestar and its PyYAML are its own) — and there the example
adapters run their own tests: the contract test kit and every conformance check."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.support import REPO_ROOT

pytestmark = pytest.mark.timeout(600)

ABSENT = ("whoosh", "watchfiles", "provider.wiki", "provider.search")
#: Installed as a dependency of a dependency (markdown-it-py: Litestar's CLI uses rich,
#: which requires it), never imported by the kit: checked after importing every piece.
NEVER_IMPORTED = ("whoosh", "markdown_it", "watchfiles")


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=500, check=False,
                          env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def standalone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with only helpthread-provider-contract[kit] installed; its python."""
    root = tmp_path_factory.mktemp("standalone")
    built = _run([sys.executable, str(REPO_ROOT / "scripts" / "build_contract_dist.py"), str(root / "dist")], root)
    assert built.returncode == 0, built.stderr
    venv.EnvBuilder(with_pip=True, clear=True).create(root / "venv")
    python = root / "venv" / "bin" / "python"
    # Outside the repository, so that nothing of it is importable but what was installed.
    env = {"PYTHONPATH": "", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    installed = _run([str(python), "-m", "pip", "install", "--quiet", f"{root / 'dist'}[kit]"], root, env)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return python


def test_the_distribution_installs_nothing_of_the_wiki(standalone: Path, tmp_path: Path) -> None:
    probe = ("import importlib.util, json\n"
             f"print(json.dumps([n for n in {ABSENT!r} if importlib.util.find_spec(n.split('.')[0]) is not None "
             "and (n.count('.') == 0 or importlib.util.find_spec(n) is not None)]))")
    found = _run([str(standalone), "-I", "-c", probe], tmp_path)
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == "[]"
    # And every piece of the package imports there.
    pieces = ("provider.contract", "provider.contract.serving", "provider.contract.app",
              "provider.contract.conformance", "provider.contract.testkit", "provider.contract.replay_sqlite")
    imported = _run([str(standalone), "-I", "-c", "import importlib, json, sys\n" + "".join(
        f"importlib.import_module({name!r})\n" for name in pieces)
        + f"print(json.dumps([n for n in {NEVER_IMPORTED!r} if n in sys.modules]))"], tmp_path)
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("example", ["json_adapter", "sqlite_adapter"])
def test_an_example_adapter_passes_its_kit_in_the_empty_environment(
    standalone: Path, tmp_path: Path, example: str
) -> None:
    """The example adapter, copied out of the repository as its README says, runs its
    own tests — the contract test kit included — with only the contract distribution."""
    source = REPO_ROOT / "examples" / example
    if not source.exists():
        pytest.fail(f"examples/{example} is missing")
    copy = tmp_path / example
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    completed = _run([str(standalone), "-m", "pytest", "-q", "-p", "no:cacheprovider"], copy, {"PYTHONPATH": ""})
    assert completed.returncode == 0, completed.stdout[-4000:] + completed.stderr[-2000:]
    summary = completed.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary, summary
