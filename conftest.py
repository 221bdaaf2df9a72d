"""Test tiers, for every test under the repository (tests/ and the example adapters).

- **fast** (``pytest`` with no arguments): unit and property tests, in parallel on every
  core (pytest-xdist), without the two tiers below;
- **e2e** (marker ``e2e``): tests that start a real server process and talk HTTP to it —
  every test under ``tests/e2e/``, every test using the ``sample_server`` or
  ``fresh_server`` fixture, and the files listed in :data:`E2E_FILES`;
- **slow** (marker ``slow``): tests over the real shared corpora and tests that build
  virtual environments or run pytest again (:data:`SLOW_FILES`).

``pytest --full`` (or ``pytest -m ''``) runs all three, one test at a time (what
``.ci/run`` runs). Naming files or folders (``pytest tests/e2e/test_auth.py``) or giving
``-m`` runs exactly what was asked for, whatever its tier.
"""

from __future__ import annotations

import os
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


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--full", action="store_true", default=False,
                     help="run every tier: fast, slow (real corpora) and e2e (real servers); "
                          "one test at a time unless -n is given")


def _default_run(config: pytest.Config) -> bool:
    """Whether the run is plain ``pytest``: no paths, no ``-m`` (not even ``-m ''``), no ``--full``."""
    marks_given = any(arg == "-m" or (arg.startswith("-m") and not arg.startswith("--"))
                      for arg in config.invocation_params.args)
    return (config.args_source is pytest.Config.ArgsSource.TESTPATHS
            and not marks_given and not config.getoption("full"))


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """The fast tier runs on every core unless ``-n`` says otherwise (never inside an
    xdist worker, which would start workers of its own)."""
    if hasattr(config, "workerinput") or config.option.collectonly:
        return
    if _default_run(config) and getattr(config.option, "numprocesses", None) is None:
        config.option.numprocesses = "auto"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    e2e, slow = pytest.mark.e2e, pytest.mark.slow
    for item in items:
        rel = Path(str(item.path)).resolve().relative_to(ROOT).as_posix()
        if rel.startswith("tests/e2e/") or rel in E2E_FILES or SERVER_FIXTURES & set(item.fixturenames):
            item.add_marker(e2e)
        if rel in SLOW_FILES:
            item.add_marker(slow)
    if not _default_run(config):
        return
    kept, left_out = [], []
    for item in items:
        (left_out if any(item.iter_markers("e2e")) or any(item.iter_markers("slow")) else kept).append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept
