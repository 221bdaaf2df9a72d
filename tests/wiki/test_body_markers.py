"""Body text that says "not for customers" (issue 24; CONTRACT X2, X5), tested as classes.

Leaks: every member of :func:`tests.wiki.variants.body_notice` — a heading, a label, a
TODO, a note or an ``audience`` key deep in the body — keeps the canary out of the
public text and is recorded as a finding (so ``check --strict`` fails on it). Balance:
no member of :func:`tests.wiki.variants.technical_heading` (``Internal`` as an
OpenTelemetry span kind, ``Internal DNS``…) hides or quarantines anything.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from provider.wiki.body_markers import find_body_markers, mark_body_sections, says_not_for_customers
from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.findings import read_finding
from provider.wiki.frontmatter import parse_front_matter
from provider.wiki.quickcheck import may_have_left_public
from tests.wiki.variants import CANARY, body_notice, technical_heading

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _parse(text: str, layout: str = "plain") -> WikiDocument:
    wiki = WikiSettings(root=Path("/x"), layout=layout)
    result = parse_document(wiki, "docs/page.md", text.encode("utf-8"), size=len(text), mtime_ns=0)
    assert isinstance(result, WikiDocument)
    return result


@EXAMPLES
@given(body_notice())
def test_x2_no_body_notice_reaches_customer_safe(variant: tuple[str, str, str]) -> None:
    layout, form, text = variant
    doc = _parse(text, layout)
    public = doc.meta.audience == "public" and doc.meta.public_text
    assert not (public and CANARY in doc.public_body), text
    codes = {read_finding(f)[0] for f in doc.meta.findings}
    assert codes, text  # reported: check lists it, --strict fails on it
    if form == "audience":
        assert doc.meta.audience == "internal" and doc.meta.errors, text
    else:
        # A section, not the page: the public words stay public.
        assert doc.meta.audience == "public" and "Public words" in doc.public_body, text
        assert CANARY in doc.body, text  # agents keep the text


@EXAMPLES
@given(technical_heading())
def test_x5_balance_technical_headings_hide_nothing(variant: tuple[str, str]) -> None:
    layout, text = variant
    doc = _parse(text, layout)
    assert doc.meta.findings == (), text
    assert not doc.meta.errors, text
    assert doc.meta.audience == "public" and CANARY in doc.public_body, text


@pytest.mark.parametrize(("heading", "expected"), [
    ("Internal notes", "internal notes"),
    ("For support staff only", "staff only"),
    ("Confidential – do not share", "confidential"),
    ("DRAFT - not yet published", "draft"),
    ("Іnternal only", "internal only"),  # Cyrillic І
    ("Internal", None),
    ("Internal DNS", None),
    ("Tools for agents", None),
    ("Confidential computing", None),
])
def test_says_not_for_customers(heading: str, expected: str | None) -> None:
    assert says_not_for_customers(heading) == expected


def test_x2_heading_section_ends_at_the_next_heading_of_its_level() -> None:
    body = ("# T\n\nPublic.\n\n## Internal notes\n\nsecret one\n\n### Deeper\n\nsecret two\n\n"
            "```\n## Internal notes\n```\n\n## Public again\n\nvisible\n")
    markers = find_body_markers(body)
    assert [m.code for m in markers] == ["hiding-heading"]
    doc = _parse("---\naudience: public\n---\n" + body)
    assert "secret" not in doc.public_body and "visible" in doc.public_body
    assert doc.meta.internal_sections == 1
    assert mark_body_sections(body, markers).count("\n") == body.count("\n")  # line numbers kept


def test_x7_quickcheck_withdraws_a_page_that_gains_a_hiding_heading(tmp_path: Path) -> None:
    before = _parse("---\naudience: public\n---\n# T\n\nPublic.\n").meta
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text("---\naudience: public\n---\n# T\n\nPublic.\n\n"
                                               "## Staff only\n\nsecret\n", encoding="utf-8")
    import datetime as dt
    wiki = WikiSettings(root=tmp_path)
    assert may_have_left_public(wiki, "docs/page.md", dt.datetime.now(dt.UTC), before)


def test_x5_mkdocs_include_lines_are_not_front_matter() -> None:
    # FastAPI's docs: 507 pages were withheld for one of these lines in the first 40.
    for line in ("{* ../../docs_src/first_steps/tutorial001.py hl[6:7] *}", "{! ../../docs/x.md !}",
                 "{: .note }", "{% include 'x.md' %}", "{{ macro() }}"):
        front = parse_front_matter(f"# First steps\n\n{line}\n\nText.\n")
        assert front.error is None, line
    # What a JSON or flow-mapping header looks like still counts.
    assert parse_front_matter('# T\n\n{"title": "x", "draft": true}\n').error is not None
    assert parse_front_matter("# T\n\n{title: x, draft: true}\n").error is not None


def test_x5_heading_anchor_id_is_not_a_marker() -> None:
    doc = _parse("---\naudience: public\n---\n# Span kinds\n\n#### Internal {#internal}\n\nAn internal span.\n")
    assert doc.meta.audience == "public" and not doc.meta.errors and doc.meta.findings == ()
    doc = _parse("---\naudience: public\n---\n# T\n\nSecret {.internal}\n")
    assert doc.meta.audience == "internal" and doc.meta.errors  # a class still is


def test_x5_mkdocstrings_reference_is_not_a_container() -> None:
    text = "---\naudience: public\n---\n# Agents\n\n::: agents\n\n::: agents.run\n"
    assert _parse(text, "mkdocs").meta.audience == "public"
    assert _parse(text, "docusaurus").meta.audience == "internal"  # an admonition type there


@pytest.mark.parametrize("heading", [
    "## *Internal* notes", "## **Internal** notes", "## [Internal](#x) notes", "## _Staff_ only",
    "## <em>Internal</em> notes", "<h2>Internal notes</h2>", '<h3 id="x">Support <b>staff</b> only</h3>',
    "## ~~Public~~ Internal notes",
])
def test_x2_a_hiding_heading_wrapped_in_inline_markup_or_written_as_html_hides(heading: str) -> None:
    """X2 (attack): the heading's words count as the reader sees them, whatever inline
    markup sits between them, and a heading written as HTML is a heading; the section
    ends at the next heading of its level."""
    doc = _parse(f"---\naudience: public\ntitle: Page\n---\nPublic intro.\n\n{heading}\n\n{CANARY} staff text.\n\n"
                 "## Next\n\nPublic after.\n")
    assert CANARY not in doc.public_body and "Public after" in doc.public_body
    assert doc.meta.findings
