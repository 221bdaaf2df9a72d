"""A secret's value copied onto a public page as a block of its own (the second attacker
on the merged build): a table row ``| admin | swordfish |``, a list item, a heading, a
line of code, ``Password: `swordfish```. Blocks under 3 words made no entry, so the
value was on no page (issue 24, rule 6d; CONTRACT X2: customer_safe never reaches
internal text)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import write_files
from tests.wiki.test_contained_text import _filler, _page, _public

SOURCE = _page("Ops", "internal", ["Admin password: swordfish"])
FORMS = {
    "table row": "| user | pass |\n|---|---|\n| admin | swordfish |",
    "list item": "- swordfish",
    "heading": "## swordfish",
    "code line": "```\nswordfish\n```",
    "label and code span": "Password: `swordfish`",
    "alone": "swordfish",
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_x2_a_secret_value_alone_in_a_short_block_is_found(tmp_path: Path, form: str) -> None:
    site = write_files(tmp_path / "site", {
        "ops.md": SOURCE,
        "guide.md": _page("Guide", "public", [_filler(random.Random(1), 30) + ".", FORMS[form],
                                              _filler(random.Random(2), 30) + "."]),
        "other.md": _page("Other", "public", [_filler(random.Random(3), 30) + "."]),
    })
    assert _public(site) == {"other.md"}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(form=st.sampled_from(sorted(FORMS)), seed=st.integers(0, 10_000))
def test_balance_a_short_block_without_the_value_stays_public(tmp_path_factory: pytest.TempPathFactory,
                                                               form: str, seed: int) -> None:
    site = tmp_path_factory.mktemp("site")
    write_files(site, {
        "ops.md": SOURCE,
        "guide.md": _page("Guide", "public", [_filler(random.Random(seed), 30) + ".",
                                              FORMS[form].replace("swordfish", "marlin"),
                                              _filler(random.Random(seed + 1), 30) + "."]),
    })
    assert _public(site) == {"guide.md"}
