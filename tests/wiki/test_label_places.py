"""Staff wording read in every place a label stands (issue 24; CONTRACT X2, X5).

Leaks: a label saying "not for customers" in a table cell or header, a heading's image
alt text or link, a footnote, a definition term, inline HTML and HTML blocks (``<b>``,
``<strong>``, ``<em>``, ``<figcaption>``, ``<caption>``, a ``title``/``summary``/``label``
attribute of an MDX component), before a period, a dash or in brackets, a box's title in
any dialect (Docusaurus/remark-directive, MkDocs, pymdown, MDX, Hugo, Starlight), or a
front matter title: the canary never reaches the public index and ``check --strict``
fails. Balance: an API table's ``Internal`` column, a term's label (``**Internal**: the
span is internal``), technical headings hide nothing.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from provider.wiki.check import check_wiki
from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.findings import read_finding
from tests.wiki.variants import CANARY

EXAMPLES = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SECRET = f"refund override code {CANARY}"
INTRO = "# Page\n\nPublic words first.\n\n"
OUTRO = "\n## Next\n\nPublic words after.\n"

#: ``(place, layout, body template)``: ``{label}`` is the label, ``{secret}`` the text it
#: stands over.
PLACES = (
    ("table-row", "plain", "| Step | Note |\n|---|---|\n| One | public |\n| {label}: {secret} | x |\n"),
    ("table-cell", "plain", "| Step | Note |\n|---|---|\n| {secret} | {label} |\n"),
    ("table-header", "plain", "| {label} | Public |\n|---|---|\n| {secret} | x |\n"),
    ("heading-image", "plain", "## ![{label}](lock.png) Escalation\n\n{secret}\n"),
    ("heading-link", "plain", "## [{label}](x.md) Escalation\n\n{secret}\n"),
    ("footnote", "plain", "See the rule.[^1]\n\n[^1]: {label}: {secret}\n"),
    ("deflist", "plain", "{label}\n: the {secret}\n"),
    ("html-b", "plain", "<b>{label}:</b> {secret}\n"),
    ("html-strong", "plain", "<strong>{label}:</strong> {secret}\n"),
    ("html-p-em", "plain", "<p><em>{label}</em> {secret}</p>\n"),
    ("figcaption", "plain", "<figure><img src=x.png><figcaption>{label}</figcaption></figure>\n\n{secret}\n"),
    ("caption", "plain", "<table><caption>{label}</caption><tr><td>{secret}</td></tr></table>\n"),
    ("period", "plain", "{label}. {secret}\n"),
    ("parentheses", "plain", "({label}) {secret}\n"),
    ("brackets", "plain", "[{label}] {secret}\n"),
    ("dash", "plain", "{label} - {secret}\n"),
    ("em-dash", "plain", "{label} — {secret}\n"),
    ("directive-attribute", "docusaurus", ':::info{{title="{label}"}}\n{secret}\n:::\n'),
    ("directive-bracket", "docusaurus", ":::note[{label}]\n{secret}\n:::\n"),
    ("starlight", "docusaurus", ":::caution[{label}]\n{secret}\n:::\n"),
    ("mkdocs-admonition", "mkdocs", '!!! note "{label}"\n    {secret}\n'),
    ("mkdocs-collapsible", "mkdocs", '??? warning "{label}"\n    {secret}\n'),
    ("pymdown", "mkdocs", "/// note | {label}\n{secret}\n///\n"),
    ("mdx-details", "docusaurus", '<Details summary="{label}">\n\n{secret}\n\n</Details>\n'),
    ("mdx-tabitem", "docusaurus", '<Tabs>\n<TabItem label="{label}" value="x">\n\n{secret}\n\n</TabItem>\n</Tabs>\n'),
    ("mdx-tabs-values", "docusaurus",
     "<Tabs values={{[{{label: '{label}', value: 'x'}}]}}>\n\n{secret}\n\n</Tabs>\n"),
    ("mdx-aside", "docusaurus", '<Aside title="{label}">\n\n{secret}\n\n</Aside>\n'),
    ("hugo-notice", "hugo", '{{{{< notice info "{label}" >}}}}\n{secret}\n{{{{< /notice >}}}}\n'),
    ("hugo-notice-title", "hugo", '{{{{% notice title="{label}" %}}}}\n{secret}\n{{{{% /notice %}}}}\n'),
    ("hugo-details", "hugo", '{{{{< details title="{label}" >}}}}\n{secret}\n{{{{< /details >}}}}\n'),
)
#: Labels each place is tried with; the table header needs one naming text (a column of
#: internal notes), not availability (``Agents only``: a plan's column).
LABELS = ("Staff only", "Internal only", "For support agents only", "Internal notes", "Do not share",
          "Nur für Mitarbeiter", "社内向け")
HEADER_LABELS = ("Internal notes", "Staff notes", "Do not share", "Not for customers")
#: The insider word alone counts as a label over text and as a box's title.
BARE = ("Internal",)
_BARE_PLACES = ("table-row", "footnote", "html-b", "html-strong", "brackets", "parentheses", "directive-attribute",
                "directive-bracket", "mkdocs-admonition", "mkdocs-collapsible", "pymdown", "mdx-details",
                "mdx-tabitem", "mdx-aside", "hugo-notice", "hugo-notice-title", "hugo-details")


def _parse(text: str, layout: str) -> WikiDocument:
    wiki = WikiSettings(root=Path("/x"), layout=layout)
    result = parse_document(wiki, "docs/page.md", text.encode("utf-8"), size=len(text), mtime_ns=0)
    assert isinstance(result, WikiDocument)
    return result


def _page(layout: str, template: str, label: str) -> str:
    body = template.format(label=label, secret=SECRET)
    return f"---\naudience: public\ntitle: Page\n---\n{INTRO}{body}{OUTRO}"


def _served(doc: WikiDocument) -> bool:
    """Whether ``customer_safe`` is served the canary (a page with errors is quarantined)."""
    return (doc.meta.audience == "public" and not doc.meta.draft and not doc.meta.errors
            and CANARY in doc.public_body)


@st.composite
def labelled_place(draw: st.DrawFn) -> tuple[str, str, str]:
    """``(place, layout, text)``: a public page with a label saying "not for customers"
    in one of :data:`PLACES`, in some case, with public text before and after."""
    place, layout, template = draw(st.sampled_from(PLACES))
    labels = HEADER_LABELS if place == "table-header" else LABELS + (BARE if place in _BARE_PLACES else ())
    label = draw(st.sampled_from(labels))
    label = draw(st.sampled_from([label, label.upper(), label.lower(), label.title()]))
    return place, layout, _page(layout, template, label)


@EXAMPLES
@given(labelled_place())
@example(("html-strong", "plain", _page("plain", "<strong>{label}:</strong> {secret}\n", "INTERNAL")))
@example(("footnote", "plain", _page("plain", "See the rule.[^1]\n\n[^1]: {label}: {secret}\n", "社内向け")))
def test_x2_a_label_in_any_place_keeps_its_text_from_customer_safe(variant: tuple[str, str, str]) -> None:
    place, layout, text = variant
    doc = _parse(text, layout)
    assert not _served(doc), (place, text)
    assert doc.meta.findings, (place, text)  # reported: check lists it, --strict fails
    assert CANARY in doc.body, (place, text)  # agents keep the text


@pytest.mark.parametrize(("place", "layout", "template"), PLACES, ids=[p[0] for p in PLACES])
def test_x2_each_place_of_the_attack_is_withheld(place: str, layout: str, template: str) -> None:
    label = "Internal notes" if place == "table-header" else "Staff only"
    doc = _parse(_page(layout, template, label), layout)
    assert not _served(doc), place
    assert doc.meta.findings, place


@pytest.mark.parametrize(("title", "key"), [("Internal: refund override", "title"), ("Staff only", "description"),
                                            ("[Internal] Refunds", "title")])
def test_x2_a_front_matter_title_saying_internal_quarantines_the_page(title: str, key: str) -> None:
    other = "title: Refunds\n" if key == "description" else ""
    doc = _parse(f"---\naudience: public\n{other}{key}: {title!r}\n---\nThe {SECRET}.\n", "plain")
    assert doc.meta.errors and not _served(doc)
    assert "internal-title" in {read_finding(f)[0] for f in doc.meta.findings}


@pytest.mark.parametrize("title", ["Internal DNS", "Tools for agents", "Internal", "Private networks",
                                   "Internal links: how they are checked"])
def test_x5_technical_front_matter_titles_stay_public(title: str) -> None:
    doc = _parse(f"---\naudience: public\ntitle: {title!r}\n---\nThe {CANARY} words.\n", "plain")
    assert _served(doc) and not doc.meta.findings, title


@pytest.mark.parametrize("body", [
    # An API reference table: a column of booleans headed "Internal".
    f"| Field | Internal | Type |\n|---|---|---|\n| id | yes | int |\n| {CANARY} | no | str |\n",
    f"| Span kind | Meaning |\n|---|---|\n| Internal | an operation inside {CANARY} |\n",
    f"| Plan | Tier 2 only | Agents only |\n|---|---|---|\n| {CANARY} | yes | no |\n",
    f"**Internal**: the span is internal to {CANARY}.\n",
    f"- Internal: `10.0.0.0/16` - the network segment used for internal {CANARY} traffic\n",
    f"## Internal\n\nAn internal {CANARY} span.\n",
    f"## Tools for agents\n\n{CANARY} tools.\n",
    f"Internal DNS. The {CANARY} resolver.\n",
    f"Agents only run tools when asked. The {CANARY} tool.\n",
    f"Internal\n: the span kind of an internal {CANARY} operation\n",
    f"See the spec.[^1]\n\n[^1]: Internal spans: an internal {CANARY} operation.\n",
    f'<img alt="Architecture diagram" src="x.png">\n\n{CANARY} text.\n',
])
def test_x5_balance_terms_in_label_places_hide_nothing(body: str) -> None:
    doc = _parse(f"---\naudience: public\ntitle: Spans\n---\n# Spans\n\n{body}", "plain")
    assert doc.meta.findings == () and not doc.meta.errors, body
    assert _served(doc), body


def test_x2_a_header_cell_hides_the_table_and_a_cell_its_row() -> None:
    doc = _parse(_page("plain", "| Internal notes | Public |\n|---|---|\n| {secret} | x |\n\nAfter table.\n", "x"),
                 "plain")
    assert CANARY not in doc.public_body and "After table" in doc.public_body
    assert {read_finding(f)[0] for f in doc.meta.findings} == {"hiding-cell"}
    row = "| Step | Note |\n|---|---|\n| Keep this row | a |\n| Staff only: {secret} | b |\n"
    doc = _parse(_page("plain", row, "x"), "plain")
    assert CANARY not in doc.public_body and "Keep this row" in doc.public_body


def test_x2_a_footnote_hides_the_paragraph_citing_it() -> None:
    doc = _parse(_page("plain", "Cited text.[^n]\n\nOther paragraph.\n\n[^n]: Internal only: {secret}\n", "x"),
                 "plain")
    assert CANARY not in doc.public_body and "Cited text" not in doc.public_body
    assert "Other paragraph" in doc.public_body
    assert {read_finding(f)[0] for f in doc.meta.findings} == {"hiding-footnote"}


def test_x2_check_strict_exits_1_on_a_label_in_a_table_cell() -> None:
    with tempfile.TemporaryDirectory() as root:
        (Path(root) / "docs").mkdir()
        text = _page("plain", "| Step | Note |\n|---|---|\n| Staff only: {secret} | x |\n", "x")
        (Path(root) / "docs" / "page.md").write_text(text, encoding="utf-8")
        report = check_wiki(WikiSettings(root=Path(root)))
        assert any("docs/page.md" in failure for failure in report.strict_failures())
        assert report.exit_code == 1 or report.strict_failures()


def test_x7_quickcheck_withdraws_a_page_whose_title_now_says_internal(tmp_path: Path) -> None:
    import datetime as dt

    from provider.wiki.quickcheck import may_have_left_public

    before = _parse("---\naudience: public\ntitle: Refunds\n---\n# T\n\nPublic.\n", "plain").meta
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text("---\naudience: public\ntitle: 'Internal: refunds'\n---\n# T\n\n"
                                               "Public.\n", encoding="utf-8")
    assert may_have_left_public(WikiSettings(root=tmp_path), "docs/page.md", dt.datetime.now(dt.UTC), before)


def test_x5_an_accepted_internal_title_publishes_the_page_until_it_changes() -> None:
    from provider.wiki.document import git_blob_sha1
    from provider.wiki.findings import Acceptance

    text = f"---\naudience: public\ntitle: 'Internal: how the {CANARY} router works'\n---\nThe {CANARY} words.\n"
    accepted = (Acceptance("docs/page.md", "internal-title", git_blob_sha1(text.encode("utf-8"))),)
    wiki = WikiSettings(root=Path("/x"), accepted_findings=accepted)
    doc = parse_document(wiki, "docs/page.md", text.encode("utf-8"), size=len(text), mtime_ns=0)
    assert isinstance(doc, WikiDocument) and _served(doc) and doc.meta.accepted == ("internal-title",)
    edited = text + "More.\n"
    doc = parse_document(wiki, "docs/page.md", edited.encode("utf-8"), size=len(edited), mtime_ns=0)
    assert isinstance(doc, WikiDocument) and not _served(doc)
