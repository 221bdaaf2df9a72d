"""Marker syntax shown as code is text (issue 24; CONTRACT X2, X5), tested as classes.

Balance: every marker kind — exact markers, would-be markers (comments, tags, attribute
lists, classes, CSS that hides, containers, summaries), audience keys and header-like
blocks — written inside an inline code span (any number of backticks) or a fenced or
indented code block is shown text: the page stays public, whole, with no finding (our own
docs page about the format was quarantined for `` `{.internal}` ``). Leak: the same kind
written *outside* code on the same line as a code-shown one still counts.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.plaintext import parse_markdown, parse_markdown_where
from tests.wiki.variants import CANARY

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: One member of each marker kind the provider reads.
WOULD_BE = (
    "{.internal}", "{: .internal }", "{: .agent-only }", "<!-- BEGIN INTERNAL -->", "<!-- confidential -->",
    "{% confidential %}", "{% comment %} internal {% endcomment %}", "{% if internal %}", "{{< internal >}}",
    "{{% staff %}}", "<Internal>", "</Internal>", '<div class="agent-only">', '<span style="display:none">',
    '<p style="Visibility: Hidden">', "<p hidden>", "{/* internal */}", "{{/* internal */}}", "{# internal #}",
    "[//]: # (internal)", '[x]: <> "confidential"', "<summary>Internal notes</summary>",
    'data-audience="internal"', 'role="staff"', "::: internal", "!!! internal", "> [!INTERNAL]",
    ":::note For support staff", "{isInternal && x}",
)
EXACT = ("<!-- internal -->", "<!-- /internal -->", "<!--INTERNAL-->")
AUDIENCE = ("audience: internal", '"audience": "internal"', "Audience = staff", "{audience: private}")
HEADER = ("---\ntitle: x\naudience: internal\n---", '{"title": "x", "audience": "internal"}')
LAYOUTS = ("plain", "hugo", "jekyll", "mkdocs", "docfx", "docusaurus")


def _runs_first(marker: str, layout: str) -> bool:
    """Hugo runs a shortcode before Markdown, inside code too: it is no text there."""
    return layout == "hugo" and marker.startswith(("{{<", "{{%"))


def documented(marker: str, layout: str) -> str:
    """``marker`` as a page documents it: Jekyll's Liquid renders the page before Markdown,
    so a Liquid tag in a code span or fence still runs (``{% if internal %}`` there hides
    the rest of the page on the site, issue 24); the site author shows the syntax inside
    ``{% raw %}…{% endraw %}``, and so does this test."""
    return f"{{% raw %}}{marker}{{% endraw %}}" if layout == "jekyll" and "{%" in marker else marker


def parse_public_page(body: str, layout: str) -> WikiDocument:
    """``body`` between two public paragraphs of a page whose front matter says public."""
    text = f"---\ntitle: Page\naudience: public\n---\n\nPublic words first.\n\n{body}\n\nPublic words last.\n"
    wiki = WikiSettings(root=Path("/x"), layout=layout)
    result = parse_document(wiki, "docs/page.md", text.encode("utf-8"), size=len(text), mtime_ns=0)
    assert isinstance(result, WikiDocument)
    return result


@st.composite
def inline_code(draw: st.DrawFn, marker: str) -> str:
    """``marker`` in a code span of one to four backticks, inside a sentence or a list item."""
    ticks = "`" * draw(st.integers(1, 4))
    pad = draw(st.sampled_from(("", " ")))
    span = f"{ticks}{pad}{marker}{pad}{ticks}"
    before = draw(st.sampled_from(("Write ", "", "- ", "1. ", "| a | ", "> ")))
    return f"{before}{span} to mark it, e.g. `x`."


@st.composite
def code_block(draw: st.DrawFn, marker: str, layout: str) -> str:
    """``marker`` (maybe several lines) in a fenced block (backticks or tildes, any length,
    maybe an info string, maybe in a list item) or, outside MDX, an indented block."""
    kinds = ["fence", "list-fence"] + (["indented"] if layout != "docusaurus" else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "indented":
        return "\n".join("    " + line for line in marker.split("\n"))
    fence = draw(st.sampled_from("`~")) * draw(st.integers(3, 5))
    info = draw(st.sampled_from(("", "md", "markdown", "yaml", "html {.x}")))
    if kind == "list-fence":
        inner = "\n".join("   " + line for line in marker.split("\n"))
        return f"1. Step:\n\n   {fence}{info}\n{inner}\n   {fence}"
    return f"{fence}{info}\n{marker}\n{fence}"


@st.composite
def shown_as_code(draw: st.DrawFn) -> tuple[str, str]:
    """``(layout, body)``: one marker of any kind shown as code."""
    layout = draw(st.sampled_from(LAYOUTS))
    marker = draw(st.sampled_from([m for m in WOULD_BE + EXACT + AUDIENCE + HEADER if not _runs_first(m, layout)]))
    marker = documented(marker, layout)
    if "\n" in marker or draw(st.booleans()):
        return layout, draw(code_block(marker, layout))
    return layout, draw(inline_code(marker))



def _assert_public_and_whole(layout: str, body: str) -> None:
    """The page parses public, with no finding or error, and serves its words whole."""
    doc = parse_public_page(body, layout)
    assert doc.meta.findings == (), body
    assert not doc.meta.errors, body
    assert doc.meta.audience == "public", body
    assert "Public words first" in doc.public_body and "Public words last" in doc.public_body, body

@EXAMPLES
@given(shown_as_code())
def test_x5_balance_marker_syntax_shown_as_code_is_text(variant: tuple[str, str]) -> None:
    _assert_public_and_whole(*variant)


@st.composite
def code_then_real(draw: st.DrawFn) -> tuple[str, str, str]:
    """``(layout, kind, body)``: a marker shown as code and, on the same line, before or
    after it, a real one outside code."""
    layout = draw(st.sampled_from(LAYOUTS))
    kind = draw(st.sampled_from(("would-be", "exact")))
    ticks = "`" * draw(st.integers(1, 3))
    shown = f"{ticks}{documented(draw(st.sampled_from(WOULD_BE + EXACT)), layout)}{ticks}"
    if kind == "would-be":
        real = draw(st.sampled_from([m for m in WOULD_BE if not m.startswith((":::", "!!!", ">", "[")) and
                                     not (layout == "mkdocs" and m.startswith("{isInternal"))]))
        line = draw(st.sampled_from((f"{shown} and {real} {CANARY}", f"{real} {CANARY} and {shown}")))
        return layout, kind, line
    line = draw(st.sampled_from((f"{shown} then <!-- internal --> {CANARY} <!-- /internal -->",
                                 f"<!-- internal --> {CANARY} <!-- /internal --> and {shown}",
                                 f"<!-- internal --> {shown} {CANARY} <!-- /internal -->")))
    return layout, kind, line


@EXAMPLES
@given(code_then_real())
def test_x2_a_real_marker_beside_a_code_shown_one_still_counts(variant: tuple[str, str, str]) -> None:
    layout, kind, body = variant
    doc = parse_public_page(body, layout)
    public = doc.meta.audience == "public"
    assert not (public and CANARY in doc.public_body), body
    assert doc.meta.findings or kind == "exact", body
    if kind == "would-be" and "<summary>" not in re.sub(r"(`+).*?\1", "", body):
        assert doc.meta.audience == "internal", body  # a labelled <details> hides its block instead


def test_our_own_docs_line_about_attribute_markers_is_text() -> None:
    line = ("  - a shortcode, Liquid tag, HTML/JSX element, `class` or attribute list *named* by one of\n"
            "    those words: `{{< internal >}}`,\n"
            '    `{% confidential %}`, `<Internal>`, `<div class="agent-only">`, `{.internal}`;')
    doc = parse_public_page(line, "mkdocs")
    assert doc.meta.findings == () and doc.meta.audience == "public"


#: HTML elements a browser shows as code, keys or output.
HTML_CODE = ("code", "kbd", "samp", "tt", "var", "pre")


@st.composite
def in_html_code(draw: st.DrawFn) -> tuple[str, str]:
    """``(layout, body)``: a would-be marker that is not itself a tag or comment, inside an
    HTML code element, in a sentence, a list item, a table cell or a block of its own."""
    layout = draw(st.sampled_from(LAYOUTS))
    marker = draw(st.sampled_from([m for m in WOULD_BE if not m.startswith("<") and not _runs_first(m, layout)]))
    tag = draw(st.sampled_from(HTML_CODE))
    attrs = draw(st.sampled_from(("", ' class="language-md"')))
    element = f"<{tag}{attrs}>{documented(marker, layout)}</{tag}>"
    where = draw(st.sampled_from(("Write {} after a heading.", "- {} marks it", "| a | {} |", "{}")))
    return layout, where.format(element)


@EXAMPLES
@given(in_html_code())
def test_x5_balance_marker_syntax_in_an_html_code_element_is_text(variant: tuple[str, str]) -> None:
    """X5 balance: ``<code>{.internal}</code>``, ``<kbd>``, ``<samp>`` … show the syntax; the
    page stays public and whole, with no finding (it was quarantined as a would-be marker)."""
    _assert_public_and_whole(*variant)


@pytest.mark.parametrize("tag", HTML_CODE)
def test_x2_a_comment_or_tag_inside_an_html_code_element_still_counts(tag: str) -> None:
    """X2: a browser reads ``<!-- internal -->`` inside ``<code>`` as a comment (it shows
    nothing), so it is still a marker, and what it hides stays hidden."""
    doc = parse_public_page(f"<{tag}><!-- internal --></{tag}> {CANARY} <!-- /internal -->", "plain")
    assert CANARY not in doc.public_body


@pytest.mark.parametrize("shown", ["`{}`", "<code>{}</code>", "<kbd>{}</kbd>", "```\n{}\n```"])
@pytest.mark.parametrize(("opening", "closing"), [("{{< internal >}}", "{{< /internal >}}"),
                                                  ("{{% staff %}}", "{{% /staff %}}")])
def test_x2_a_hugo_shortcode_shown_as_code_still_runs(shown: str, opening: str, closing: str) -> None:
    """X2: Hugo runs shortcodes before Markdown, in code spans, HTML code elements and
    fences alike: a shortcode marker written as code still hides (the attack's
    ``<code>{{< internal >}}</code> secret <code>{{< /internal >}}</code>`` was served)."""
    body = f"{shown.format(opening)}\n\n{CANARY} staff text.\n\n{shown.format(closing)}"
    doc = parse_public_page(body, "hugo")
    assert not (doc.meta.audience == "public" and CANARY in doc.public_body), body


@pytest.mark.parametrize("shown", ["`{}`", "<code>{}</code>"])
def test_x5_balance_an_escaped_hugo_shortcode_is_text(shown: str) -> None:
    """X5 balance: ``{{</* internal */>}}`` is how a Hugo page shows the syntax: text."""
    doc = parse_public_page(f"Write {shown.format('{{</* internal */>}}')} to hide a section.", "hugo")
    assert doc.meta.audience == "public" and not doc.meta.findings
    assert "Public words last" in doc.public_body


#: Pieces whose inline parse may hold code or decode to other text: code spans, HTML code
#: elements, entities, escapes, autolinks with percent escapes, link references.
_INLINE_PIECES = st.sampled_from((
    "`", "``", "```\n", "~~~\n", "    ", "\n", "\n\n", "<code>", "</code>", "<kbd>", "</kbd>", "<pre>\n", "</pre>",
    "&amp;", "&#107;", "&lt;code&gt;", "<!-- internal -->", "internal", "word ", "- ", "> ", "# ", "[a](", ")",
    "[ref]: /x\n", "[ref]", "<http://x%6b>", "*", "_", "| a | b |\n|---|---|\n", "\\`", "<div>\n", "</div>\n",
    "kpmarker0x",
))


@settings(max_examples=50, deadline=None, database=None)
@given(pieces=st.lists(_INLINE_PIECES, max_size=30), word=st.sampled_from(("kpmarker", "&", "<", "internal")))
def test_issue27_inline_markdown_parsed_where_wanted_is_the_whole_parse(pieces: list[str], word: str) -> None:
    """Issue 27 (one parse for the code question): the inline tokens a caller wants parsed
    get exactly the children the whole parse gives them (link references from anywhere on
    the page included); the block tokens are the same."""
    body = "".join(pieces)
    whole = parse_markdown(body)
    partial = parse_markdown_where(body, lambda text: word in text)
    assert len(whole) == len(partial)
    for full, part in zip(whole, partial, strict=True):
        assert (full.type, full.map, full.content, full.info) == (part.type, part.map, part.content, part.info)
        if full.type == "inline" and word in full.content:
            assert [c.as_dict() for c in full.children or ()] == [c.as_dict() for c in part.children or ()]
