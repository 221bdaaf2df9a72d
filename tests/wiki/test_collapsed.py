"""Collapsible blocks labelled as not for customers (issue 24; CONTRACT X2, X5), as classes.

Leak: ``<details><summary>Internal notes</summary>…</details>`` in any spelling of the
heading vocabulary (case, full-width, look-alike letters, invisible characters, markup in
the label), anywhere a block can stand (top level, list item, blockquote, inline in a
paragraph, nested, unclosed, a ``</details>`` shown as code inside it) hides the block
and is a ``hiding-heading`` finding; the rest of the page stays public. Balance: labels
that address customers (``Support team``, ``Contact support``, ``Internal DNS``…) hide
nothing.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.findings import read_finding
from tests.wiki.test_code_shown import parse_public_page
from tests.wiki.variants import CANARY, spelling

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LAYOUTS = ("plain", "hugo", "jekyll", "mkdocs", "docfx", "docusaurus")
HIDING = ("internal notes", "for support staff only", "staff only", "internal only", "confidential",
          "agents only", "do not share", "notes for agents", "not for customers", "internal use only")
#: Labels without a hide word. A label naming one outside a hiding phrase (``Internal``,
#: ``Internal DNS``) stays a would-be marker, as before: a collapsed block is more often
#: hidden on purpose than a heading is (docs/reference/internal-sections.md).
PUBLIC = ("contact the support team", "contact support", "details", "show the output", "support",
          "for customers", "team settings", "show the code", "support hours", "our team")
#: Labels naming only who the block is for, staff (issue 24): they hide it as a hiding
#: phrase does.
STAFF = ("support team", "for the support team", "support agents", "staff", "employees", "for employees",
         "nur fur mitarbeiter", "equipe support", "personnel", "equipo de soporte", "empleados", "dipendenti")


@st.composite
def label(draw: st.DrawFn, phrases: tuple[str, ...]) -> str:
    words = draw(st.sampled_from(phrases)).split()
    spelled = " ".join([draw(spelling(w)) if len(w) > 2 else w for w in words])
    case = draw(st.sampled_from(("lower", "title", "upper")))
    spelled = spelled.title() if case == "title" else spelled.upper() if case == "upper" else spelled
    wrap = draw(st.sampled_from(("{}", "<b>{}</b>", "<strong>{}</strong>", "🔒 {}", " {} ", "\n{}\n")))
    return wrap.format(spelled)


@st.composite
def collapsed(draw: st.DrawFn, phrases: tuple[str, ...]) -> tuple[str, str]:
    """``(layout, body)``: a ``<details>`` block labelled with one of ``phrases``, holding
    the canary, in some position."""
    layout = draw(st.sampled_from(LAYOUTS))
    tag = draw(st.sampled_from(("summary", "Summary", "SUMMARY", 'summary class="x"')))
    summary = f"<{tag}>{draw(label(phrases))}</summary>"
    close = draw(st.sampled_from(("</details>", "</DETAILS>", "")))
    inner = draw(st.sampled_from((f"{CANARY} text.", f"- {CANARY} item", f"```\n</details>\n```\n\n{CANARY} text.",
                                  f"<details><summary>More</summary>\n\nmore\n\n</details>\n\n{CANARY} text.")))
    kind = draw(st.sampled_from(("block", "tight", "list", "quote", "inline")))
    if kind == "inline" and "\n" not in inner:
        return layout, f"Text <details>{summary}{inner}{close} more."
    if kind == "tight" and "\n" not in inner:
        return layout, f"<details>{summary}{inner}{close}"
    block = f"<details>\n{summary}\n\n{inner}\n\n{close}"
    if kind == "list":
        return layout, "- item\n\n" + "\n".join("  " + line if line else "" for line in block.split("\n"))
    if kind == "quote":
        return layout, "\n".join("> " + line for line in block.split("\n"))
    return layout, block


@EXAMPLES
@given(collapsed(HIDING))
def test_x2_a_collapsible_block_labelled_internal_never_reaches_customer_safe(variant: tuple[str, str]) -> None:
    layout, body = variant
    doc = parse_public_page(body, layout)
    assert not (doc.meta.audience == "public" and CANARY in doc.public_body), body
    assert doc.meta.findings, body  # reported: check --strict fails on it
    if doc.meta.audience == "public":
        assert {read_finding(f)[0] for f in doc.meta.findings} == {"hiding-heading"}, body
        assert "Public words first" in doc.public_body, body
        assert CANARY in doc.body, body  # agents keep it


@EXAMPLES
@given(collapsed(STAFF))
def test_x2_a_collapsible_block_labelled_with_its_staff_readers_never_reaches_customer_safe(
        variant: tuple[str, str]) -> None:
    """X2: ``<details><summary>Support team</summary>…`` (and "Staff", "For employees",
    "Nur für Mitarbeiter"…) names who the block is for: hidden, reported."""
    layout, body = variant
    doc = parse_public_page(body, layout)
    assert not (doc.meta.audience == "public" and CANARY in doc.public_body), body
    assert doc.meta.findings, body


@pytest.mark.parametrize("label", ["サポートチーム", "社員向け", "员工专用", "직원 전용"])
def test_x2_staff_labels_in_scripts_without_spaces_hide_the_block(label: str) -> None:
    doc = parse_public_page(f"<details>\n<summary>{label}</summary>\n\n{CANARY} text.\n\n</details>", "hugo")
    assert CANARY not in doc.public_body


@EXAMPLES
@given(collapsed(PUBLIC))
def test_x5_balance_labels_addressing_customers_hide_nothing(variant: tuple[str, str]) -> None:
    layout, body = variant
    doc = parse_public_page(body, layout)
    assert doc.meta.findings == (), body
    assert doc.meta.audience == "public" and CANARY in doc.public_body, body


@pytest.mark.parametrize("closer", ["<!-- </details> -->", "\\</details>", '<a title="</details>">x</a>',
                                    "<!--\n</details>\n-->"])
def test_x2_a_closer_a_browser_ignores_does_not_end_the_hidden_block(closer: str) -> None:
    """Attack: a ``</details>`` in a comment, escaped or in an attribute ended the block
    early and served what followed."""
    body = f"<details><summary>Internal notes</summary>\n\nA.\n{closer}\n{CANARY} text.\n</details>"
    doc = parse_public_page(body, "mkdocs")
    assert CANARY not in doc.public_body and "Public words last" in doc.public_body


@pytest.mark.parametrize("tag", ["<wbr>", "<span></span>", "<b></b>", "<br>"])
def test_x2_a_label_split_by_a_tag_is_still_read(tag: str) -> None:
    """Attack: ``Inter<wbr>nal notes`` was not read as ``Internal notes``."""
    glued = "Inter" + tag + "nal notes" if tag != "<br>" else "Internal" + tag + "notes"
    body = f"<details><summary>{glued}</summary>\n\n{CANARY} text.\n</details>"
    doc = parse_public_page(body, "mkdocs")
    assert not (doc.meta.audience == "public" and CANARY in doc.public_body)
