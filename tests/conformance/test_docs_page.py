"""The docs page of the checker (docs/how-to/conformance.md) documents it completely:
every check in order, every option, every variable."""

from __future__ import annotations

import click

from helpthread_kit.conformance import CHECKS
from provider.cli import CONFORMANCE_SECRET_ENV, conformance
from tests.support import REPO_ROOT

PAGE = (REPO_ROOT / "docs" / "how-to" / "conformance.md").read_text("utf-8")


def test_every_check_is_listed_in_order() -> None:
    rows = [line for line in PAGE.splitlines() if line.startswith("| ") and line.count("|") == 3]
    listed = [row for row in rows if row.split("|")[1].strip() in {c.id for c in CHECKS}]
    assert listed == [f"| {c.id} | {c.name} |" for c in CHECKS]


def test_every_option_and_variable_is_documented() -> None:
    options = [opt for param in conformance.params if isinstance(param, click.Option) for opt in param.opts]
    assert options
    for option in options:
        if option not in ("-h", "--help"):
            assert f"`{option}" in PAGE, option
    for variable in CONFORMANCE_SECRET_ENV.values():
        assert f"`{variable}`" in PAGE, variable
