"""Staff-only text inside the docs tools' boxes (issue 24; CONTRACT X2), as a class.

Leak found by the attack: a heading, a bold label or a blockquote note that says "not for
customers" was read only at the top level, so indented under a MkDocs admonition
(``!!! note`` / ``??? note``), a content tab (``=== "A"``) or nested boxes it was taken for
code and served; and a box whose *title* says so (``!!! note "Staff notes"``,
``:::note[Internal notes]``, ``/// details | Staff only``, Hugo's ``{{< details
summary="…" >}}``) hid nothing. Leak: every member of the class hides the canary. Balance:
the same boxes with a title that addresses customers, and staff words in code inside a
box, keep the page public.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.wiki.test_code_shown import parse_public_page
from tests.wiki.variants import CANARY

EXAMPLES = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HIDING = ("Internal notes", "For support staff only", "Staff notes", "Internal only", "Confidential",
          "Notes for agents", "Not for customers", "Staff only")
PUBLIC = ("Tip", "Note", "Example", "Support team", "Before you start", "Contact support")


def _indent(text: str, depth: int, unit: str) -> str:
    return "\n".join((unit * depth + line) if line else line for line in text.split("\n"))


@st.composite
def inside_box(draw: st.DrawFn) -> tuple[str, str]:
    """``(layout, body)``: a staff-only heading, label or note inside one to two nested
    MkDocs boxes, holding the canary."""
    phrase = draw(st.sampled_from(HIDING))
    form = draw(st.sampled_from(("heading", "label", "setext")))
    inner = {"heading": f"{draw(st.sampled_from(('##', '###', '####')))} {phrase}\n\n{CANARY} text.",
             "label": f"**{phrase}:** {CANARY} text.",
             "setext": f"{phrase}\n---\n\n{CANARY} text."}[form]
    unit = draw(st.sampled_from(("    ", "\t")))
    openers = st.sampled_from(("!!! note", "??? note", "???+ warning", '=== "Tab A"', '!!! tip "Tip"'))
    body = inner
    for _ in range(draw(st.integers(1, 2))):
        body = draw(openers) + "\n" + _indent(body, 1, unit)
    return "mkdocs", body


@st.composite
def titled_box(draw: st.DrawFn, phrases: tuple[str, ...]) -> tuple[str, str]:
    """``(layout, body)``: a box titled with one of ``phrases``, its text the canary."""
    title = draw(st.sampled_from(phrases))
    title = draw(st.sampled_from((title, title.upper(), title.lower())))
    layout, body = draw(st.sampled_from((
        ("mkdocs", f'!!! note "{title}"\n    {CANARY} text.'),
        ("mkdocs", f'??? info "{title}"\n    {CANARY} text.'),
        ("mkdocs", f'=== "{title}"\n    {CANARY} text.'),
        ("mkdocs", f"/// details | {title}\n{CANARY} text.\n///"),
        ("docusaurus", f":::note[{title}]\n{CANARY} text.\n:::"),
        ("docusaurus", f":::note {title}\n{CANARY} text.\n:::"),
        ("hugo", f'{{{{< details summary="{title}" >}}}}\n{CANARY} text.\n{{{{< /details >}}}}'),
    )))
    return layout, body


@EXAMPLES
@given(inside_box())
def test_x2_staff_text_indented_in_a_box_is_never_public(case: tuple[str, str]) -> None:
    layout, body = case
    doc = parse_public_page(body, layout)
    assert not (doc.meta.audience == "public" and CANARY in doc.public_body), body


@EXAMPLES
@given(titled_box(HIDING))
def test_x2_a_box_titled_for_staff_hides_its_text(case: tuple[str, str]) -> None:
    layout, body = case
    doc = parse_public_page(body, layout)
    assert not (doc.meta.audience == "public" and CANARY in doc.public_body), body


@EXAMPLES
@given(titled_box(PUBLIC))
def test_balance_a_box_titled_for_customers_stays_public(case: tuple[str, str]) -> None:
    layout, body = case
    doc = parse_public_page(body, layout)
    assert doc.meta.audience == "public" and CANARY in doc.public_body, body


def test_balance_staff_words_in_code_inside_a_box_stay_public() -> None:
    body = f'!!! tip "Tip"\n    Run it:\n\n    ```\n    ## Internal notes\n    {CANARY}\n    ```\n\nAfter.'
    doc = parse_public_page(body, "mkdocs")
    assert doc.meta.audience == "public" and CANARY in doc.public_body


@pytest.mark.parametrize("kind", ["NOTE", "IMPORTANT", "WARNING", "TIP", "CAUTION", "note"])
@pytest.mark.parametrize("label", ["**Internal only:**", "**Staff only:**", "**Not for customers:**",
                                   "Internal notes:"])
@pytest.mark.parametrize("layout", ["docfx", "mkdocs", "docusaurus", "plain"])
def test_x2_a_staff_label_under_an_alert_line_hides_its_text(kind: str, label: str, layout: str) -> None:
    """Attack: under ``> [!NOTE]`` the label did not start its paragraph, so it hid nothing."""
    doc = parse_public_page(f"> [!{kind}]\n> {label} {CANARY} text.", layout)
    assert not (doc.meta.audience == "public" and CANARY in doc.public_body)


def test_balance_an_alert_for_customers_stays_public() -> None:
    doc = parse_public_page(f"> [!NOTE]\n> Use the {CANARY} command to sign in.", "docfx")
    assert doc.meta.audience == "public" and CANARY in doc.public_body
