"""The generated reference pages of the docs site are what the code gives now: the CLI
page (every command's ``--help``), the configuration page (every key, default and bound
from provider/config.py), the metrics page and the wire errors page. Committed pages that
drift from the code fail here, naming the script to run."""

from __future__ import annotations

import importlib.util
from types import ModuleType

import pytest

from tests.support import REPO_ROOT


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_reference", REPO_ROOT / "scripts" / "gen_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()


@pytest.mark.parametrize("page", sorted(GEN.PAGES, key=str), ids=lambda path: path.name)
def test_generated_page_matches_the_code(page: object) -> None:
    committed = page.read_text("utf-8") if page.is_file() else ""  # type: ignore[attr-defined]
    assert committed == GEN.PAGES[page](), (
        f"{page.relative_to(REPO_ROOT)} differs from the code: "  # type: ignore[attr-defined]
        "run `python scripts/gen_reference.py` and commit the page"
    )


def test_every_command_and_setting_is_on_its_page() -> None:
    from provider.cli import main
    from provider.config import SETTINGS

    cli = GEN.CLI_PAGE.read_text("utf-8")
    for name, command in main.commands.items():
        if not command.hidden:
            assert f"\n## {name}\n" in cli, name
    configuration = GEN.CONFIG_PAGE.read_text("utf-8")
    for key in SETTINGS:
        assert f"| `{key}` |" in configuration, key


def test_every_wire_error_code_and_metric_is_on_its_page() -> None:
    from helpthread_kit import errors

    page = GEN.ERRORS_PAGE.read_text("utf-8")
    for cls in (errors.ReplayedNonce, errors.PayloadTooLarge, errors.IndexUnavailable, errors.InvalidRequest):
        assert f"| `{cls.code}` | `{cls.__name__}` |" in page, cls
    metrics = GEN.METRICS_PAGE.read_text("utf-8")
    source = (REPO_ROOT / "provider" / "metrics.py").read_text("utf-8")
    for name in ("knowledge_provider_requests_total", "knowledge_provider_documents"):
        assert name in source and f"| `{name}` |" in metrics, name
