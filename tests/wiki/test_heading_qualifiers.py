"""A heading's qualifier says its section is for staff (issue 24, CONTRACT X2): a phrase
in brackets (``Refund override [staff]``, ``(agents only)``) or a lead label before a
colon (``Internal: refund override``), as the attacker wrote them. The insider word alone
in brackets names a kind of the thing (``Load balancer (internal)``) and stays public."""

from __future__ import annotations

import pytest

from tests.wiki.test_staff_wording import _customer_safe_sees, _parse
from tests.wiki.variants import CANARY


def _page(heading: str) -> str:
    return f"---\naudience: public\ntitle: T\n---\n# T\n\nPublic intro.\n\n## {heading}\n\n{CANARY} text.\n"


@pytest.mark.parametrize("heading", [
    "Refund override [staff]", "Refund override (staff only)", "Refund override [internal only]",
    "Refund override (for support agents)", "Internal: refund override", "Staff only: override codes",
    "Nur für Mitarbeiter: Erstattungen",
])
def test_x2_a_qualified_heading_hides_its_section(heading: str) -> None:
    doc = _parse(_page(heading), "plain")
    assert not _customer_safe_sees(doc) and "Public intro" in doc.public_body, heading


@pytest.mark.parametrize("heading", [
    "Load balancer (internal)", "Span kinds (Internal)", "Setup (optional)", "Internal links: how to",
    "Internal network (internal IPs)", "Note: internal links",
    # kaia-docs: a version never released, in public release notes
    "Release Notes for Klaytn v0.9.4 (unpublished)", "Old API (draft)",
])
def test_x5_a_heading_naming_a_kind_stays_public(heading: str) -> None:
    assert _customer_safe_sees(_parse(_page(heading), "plain")), heading
