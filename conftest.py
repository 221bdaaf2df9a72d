"""Test tiers, for every test under the repository (tests/ and the example adapters).

- **fast** (``pytest`` with no arguments): unit and property tests, in parallel on every
  core (pytest-xdist), without the two tiers below;
- **e2e** (marker ``e2e``): tests that start a real server process and talk HTTP to it —
  every test under ``tests/e2e/``, every test using the ``sample_server`` or
  ``fresh_server`` fixture, and the files listed in :data:`E2E_FILES`;
- **slow** (marker ``slow``): tests over the real shared corpora and tests that build
  virtual environments or run pytest again (:data:`SLOW_FILES`).

``pytest --full`` runs all three (what ``.ci/run`` runs): first the fast tier exactly as
plain ``pytest`` runs it, on every core, in a child pytest; then the slow and e2e tiers
one test at a time in this process, so no server under test shares the machine with other
tests. The run fails if either part fails. Without pytest-xdist, or with ``-n``, paths or
``-m`` given, nothing is split. ``pytest -m ''`` runs all three one test at a time.
Naming files or folders (``pytest tests/e2e/test_auth.py``) or giving ``-m`` runs exactly
what was asked for, whatever its tier.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent

# Tests write a site configuration and read it at once: a change that makes pages more
# public applies without the production hold (30 s) unless a test sets one
# (``WikiSettings(config_hold_s=…)``, tests/wiki/test_config_hold.py).
os.environ.setdefault("KNOWLEDGE_PROVIDER_CONFIG_HOLD_S", "0")

#: Files whose tests serve a real application over TCP (uvicorn or ``serve`` processes).
E2E_FILES = frozenset({
    "tests/conformance/test_broken_providers.py",
    "tests/conformance/test_examples_served.py",
    "tests/conformance/test_mutants.py",
    "tests/conformance/test_own_server.py",
    "tests/contract/test_replay_restart.py",
    "tests/contract/test_serving_workers.py",
})
#: Files whose tests build a virtual environment or run a fresh pytest or interpreter per test.
SLOW_FILES = frozenset({
    "tests/contract/test_standalone_distribution.py",
    "tests/conformance/test_testkit.py",
})
#: Fixtures that start a real provider process.
SERVER_FIXTURES = frozenset({"sample_server", "fresh_server"})
#: The exit code of the fast tier's child run, on a split ``--full`` run (:func:`_split_full_run`).
_FAST_TIER_EXIT = pytest.StashKey[int]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--full", action="store_true", default=False,
                     help="run every tier: fast (first, on every core), then slow (real corpora) "
                          "and e2e (real servers) one test at a time")


def _marks_given(config: pytest.Config) -> bool:
    return any(arg == "-m" or (arg.startswith("-m") and not arg.startswith("--"))
               for arg in config.invocation_params.args)


def _default_run(config: pytest.Config) -> bool:
    """Whether the run is plain ``pytest``: no paths, no ``-m`` (not even ``-m ''``), no ``--full``."""
    return (config.args_source is pytest.Config.ArgsSource.TESTPATHS
            and not _marks_given(config) and not config.getoption("full"))


def _split_full_run(config: pytest.Config) -> bool:
    """Whether the run is ``pytest --full`` with no paths, ``-m`` or ``-n``, outside an
    xdist worker, with pytest-xdist installed: the fast tier then runs in a child pytest
    on every core before this process runs the other two tiers."""
    return (config.getoption("full") and config.args_source is pytest.Config.ArgsSource.TESTPATHS
            and not _marks_given(config) and config.pluginmanager.hasplugin("xdist")
            and getattr(config.option, "numprocesses", None) is None)


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """The fast tier runs on every core unless ``-n`` says otherwise (never inside an
    xdist worker, which would start workers of its own)."""
    if hasattr(config, "workerinput") or config.option.collectonly:
        return
    if _default_run(config) and getattr(config.option, "numprocesses", None) is None:
        config.option.numprocesses = "auto"
    elif _split_full_run(config):
        # The same arguments without --full make plain ``pytest``: the fast tier on every core.
        args = [arg for arg in config.invocation_params.args if arg != "--full"]
        print("--full: the fast tier first, on every core (a child pytest); "
              "then the slow and e2e tiers, one test at a time", flush=True)
        command = [sys.executable, "-m", "pytest", *args]
        config.stash[_FAST_TIER_EXIT] = subprocess.call(command, cwd=config.invocation_params.dir)  # noqa: S603


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A split ``--full`` run fails when its fast tier failed, whatever the other tiers did."""
    fast = session.config.stash.get(_FAST_TIER_EXIT, None)
    if fast not in (None, pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED) \
            and session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        session.exitstatus = fast


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    fast = config.stash.get(_FAST_TIER_EXIT, None)
    if fast is not None:
        verdict = {pytest.ExitCode.OK: "passed", pytest.ExitCode.NO_TESTS_COLLECTED: "selected no test"}.get(
            fast, f"FAILED (exit {fast}, its report is above)")
        terminalreporter.write_line(f"--full: the fast tier (child run on every core) {verdict}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    e2e, slow = pytest.mark.e2e, pytest.mark.slow
    for item in items:
        rel = Path(str(item.path)).resolve().relative_to(ROOT).as_posix()
        if rel.startswith("tests/e2e/") or rel in E2E_FILES or SERVER_FIXTURES & set(item.fixturenames):
            item.add_marker(e2e)
        if rel in SLOW_FILES:
            item.add_marker(slow)
    if _FAST_TIER_EXIT in config.stash:  # the child run had the fast tier: the other two here
        keep_fast = False
    elif _default_run(config):
        keep_fast = True
    else:
        return
    kept, left_out = [], []
    for item in items:
        fast = not (any(item.iter_markers("e2e")) or any(item.iter_markers("slow")))
        (kept if fast == keep_fast else left_out).append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept
