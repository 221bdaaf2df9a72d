"""The contract kit stands alone (issues 14, 25): ``kit/`` is its own distribution,
``helpthread-kit`` (import package ``helpthread_kit``, command ``conformance``), the one
the reference provider depends on, which installs into an empty virtual
environment — no Whoosh, markdown-it-py or watchfiles, nothing of the reference provider
(Litestar and its PyYAML are its own) — and there the example adapters run their own
tests, and the JSON example, served, passes the ``conformance`` command."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.support import REPO_ROOT, ProviderProcess

pytestmark = [pytest.mark.timeout(600), pytest.mark.slow]

ABSENT = ("whoosh", "watchfiles", "provider", "provider.wiki", "provider.search")
#: Installed as a dependency of a dependency (markdown-it-py: Litestar's CLI uses rich,
#: which requires it), never imported by the kit: checked after importing every piece.
NEVER_IMPORTED = ("whoosh", "markdown_it", "watchfiles")


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=500, check=False,
                          env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def standalone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with only helpthread-kit[kit] installed (from kit/); its python."""
    root = tmp_path_factory.mktemp("standalone")
    # A copy, so that building leaves nothing in the checkout.
    shutil.copytree(REPO_ROOT / "kit", root / "dist",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
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
    pieces = ("helpthread_kit", "helpthread_kit.serving", "helpthread_kit.app",
              "helpthread_kit.conformance", "helpthread_kit.testkit", "helpthread_kit.replay_sqlite")
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


#: Phrases only the example's internal articles hold (its tests name the same).
JSON_CANARIES = ("chargeback dossier template", "escalation bridge channel", "courtesy credit ceiling")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_kit_distribution_is_the_one_the_provider_depends_on() -> None:
    """One distribution: the root project depends on helpthread-kit and ships none of
    its files; kit/pyproject.toml names the ``conformance`` command."""
    import tomllib

    root = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text("utf-8"))
    kit = tomllib.loads((REPO_ROOT / "kit" / "pyproject.toml").read_text("utf-8"))
    assert kit["project"]["name"] == "helpthread-kit"
    assert any(dep.startswith("helpthread-kit") for dep in root["project"]["dependencies"])
    assert root["tool"]["setuptools"]["packages"]["find"]["include"] == ["provider*"]
    assert kit["project"]["scripts"] == {"conformance": "helpthread_kit.conformance_cli:run"}
    assert not (REPO_ROOT / "helpthread_kit").exists()


def test_the_kit_wheel_alone_serves_the_json_example_and_conformance_passes(tmp_path: Path) -> None:
    """Exactly what examples/json_adapter/README.md tells an adapter author: a fresh
    venv, ``pip install`` the built kit wheel (nothing of the reference provider), run
    the example adapter, run ``conformance`` against it — every check passes."""
    shutil.copytree(REPO_ROOT / "kit", tmp_path / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info",
                                                                                      "build"))
    wheel = _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path / "wheels"),
                  str(tmp_path / "src")], tmp_path, {"PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    assert wheel.returncode == 0, wheel.stdout + wheel.stderr
    (wheel_file,) = (tmp_path / "wheels").glob("helpthread_kit-*.whl")
    venv.EnvBuilder(with_pip=True, clear=True).create(tmp_path / "venv")
    bin_dir = tmp_path / "venv" / "bin"
    env = {"PYTHONPATH": "", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    installed = _run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(wheel_file)], tmp_path, env)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    example = tmp_path / "json_adapter"
    shutil.copytree(REPO_ROOT / "examples" / "json_adapter", example,
                    ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    port = _free_port()
    customer, agent = secrets.token_urlsafe(48), secrets.token_urlsafe(48)
    keys = {"JSON_ADAPTER_CUSTOMER_SAFE_SECRET": customer, "JSON_ADAPTER_AGENT_ONLY_SECRET": agent}
    server_env = {**os.environ, **env, **keys, "PYTHONPATH": str(example), "JSON_ADAPTER_PORT": str(port),
                  "JSON_ADAPTER_PUBLIC": "articles/public.json", "JSON_ADAPTER_INTERNAL": "articles/internal.json",
                  "KNOWLEDGE_PROVIDER_STRICT": "1"}
    log = open(tmp_path / "server.log", "wb")  # noqa: SIM115 - closed by ProviderProcess.stop
    server = ProviderProcess(
        proc=subprocess.Popen([str(bin_dir / "python"), "-m", "json_adapter"], cwd=example, env=server_env,
                              stdout=log, stderr=subprocess.STDOUT),
        base_url=f"http://127.0.0.1:{port}", log_path=tmp_path / "server.log", log_file=log, root=example,
        content=example / "articles")
    try:
        server.wait_until_healthy(timeout_s=60)
        checked = _run([str(bin_dir / "conformance"), f"http://127.0.0.1:{port}", "--strict-deployment",
                        "--application-only", *[arg for phrase in JSON_CANARIES for arg in ("--canary-query", phrase)]],
                       tmp_path, {**env, "KNOWLEDGE_PROVIDER_CONFORMANCE_CUSTOMER_SAFE_SECRET": customer,
                                  "KNOWLEDGE_PROVIDER_CONFORMANCE_AGENT_ONLY_SECRET": agent})
    finally:
        server.stop()
    assert checked.returncode == 0, checked.stdout[-4000:] + checked.stderr[-2000:]
    assert "FAIL" not in checked.stdout and "conforming" in checked.stdout, checked.stdout[-2000:]
