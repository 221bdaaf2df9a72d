"""Issue 24 (attacker): a Hugo shortcode template that prints ``.Inner`` where no reader
sees it — a hidden element, ``<template>``, ``<noscript>``, ``<script>``, ``<style>``, an
attribute value, an HTML comment — does not publish the interior
(provider.wiki.template_html, provider.wiki.template_blocks)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.audience import AudienceRule
from provider.wiki.document import WikiDocument, WikiSettings, load_document
from provider.wiki.template_blocks import outputs_inner

_SITES = itertools.count()
SECRET = "Quokkasecret datacenter closes in May."
LEAD = "Install the agent with the package manager."

#: Where a template may print the interior that no reader of the page sees ({} is the print).
_HIDING = ("<div hidden>{}</div>", '<div style="display:none">{}</div>', '<span style="visibility: hidden">{}</span>',
           "<template>{}</template>", "<noscript>{}</noscript>", '<script>var t = "{}";</script>',
           "<style>/* {} */</style>", '<div data-x="{}"></div>', '<abbr title="{}">?</abbr>', "<!-- {} -->",
           '<div class="sr-only">{}</div>', '<div class="tab-pane">{}</div>', '<img alt="{}" src="x.png">',
           '<div {{{{ if .Get "h" }}}}hidden{{{{ end }}}}>{}</div>', '<div class="{{{{ .Get "kind" }}}}">{}</div>',
           '<div style="{{{{ .Get "style" }}}}">{}</div>', '<div {{{{ .Get "attrs" | safeHTMLAttr }}}}>{}</div>',
           '<div class="{{{{ if .Get 0 }}}}d-none{{{{ else }}}}d-block{{{{ end }}}}">{}</div>',
           "<title>{}</title>", "<textarea hidden>{}</textarea>")
#: Where it is text of the page.
_SHOWING = ("{}", "<div>{}</div>", '<div class="note">{}</div>', "<details><summary>More</summary>{}</details>",
            '<div id="n-{{{{ .Get 0 }}}}" aria-hidden="true">{}</div>',
            '<div class="tab-pane fade{{{{ if eq .Ordinal 0 }}}} show active{{{{ end }}}}">{}</div>',
            '<a href="{{{{ .Get "url" }}}}" title="{{{{ .Get 1 }}}}">{}</a>', "<p>&amp; {}</p>")
_PRINTS = ("{{ .Inner }}", "{{ .Inner | markdownify }}", "{{- $.Page.RenderString .Inner -}}",
           "{{ $t := .Inner }}{{ $t | safeHTML }}")


@st.composite
def _placed(draw: st.DrawFn) -> tuple[str, bool]:
    """A template printing the interior inside up to two wrappers, and whether a reader sees it."""
    text = draw(st.sampled_from(_PRINTS))
    shown = True
    for _ in range(draw(st.integers(1, 2))):
        hidden = draw(st.booleans())
        text = draw(st.sampled_from(_HIDING if hidden else _SHOWING)).format(text)
        shown = shown and not hidden
    return text, shown


@settings(max_examples=50, deadline=None)
@given(case=_placed())
def test_inner_printed_where_no_reader_sees_it_is_not_output(case: tuple[str, bool]) -> None:
    template, shown = case
    assert outputs_inner(template) is shown, template


@settings(max_examples=25, deadline=None)
@given(hidden=st.sampled_from(_HIDING), shown=st.sampled_from(_SHOWING))
def test_one_shown_print_is_enough(hidden: str, shown: str) -> None:
    """A template printing the interior twice, once hidden, still shows it."""
    template = hidden.format("{{ .Inner }}") + "\n" + shown.format("{{ .Inner | markdownify }}")
    assert outputs_inner(template), template


def _hugo(tmp_path: Path, body: str, templates: dict[str, str]) -> WikiDocument:
    root = tmp_path / f"h{next(_SITES)}"
    (root / "content" / "docs").mkdir(parents=True)
    (root / "content" / "docs" / "page.md").write_text(f"---\ntitle: Setup\n---\n{body}", "utf-8")
    for path, text in templates.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, "utf-8")
    doc = load_document(WikiSettings(root=root, layout="hugo", audience_rules=(AudienceRule("**", "public"),)),
                        "content/docs/page.md")
    assert isinstance(doc, WikiDocument)
    return doc


@pytest.mark.parametrize(("template", "shown"), [
    ('<div class="note" hidden>{{ .Inner | markdownify }}</div>', False),
    ('<div data-text="{{ .Inner }}"></div>', False),
    ("<script>const note = {{ .Inner }};</script>", False),
    ('<div class="note">{{ .Inner | markdownify }}</div>', True),
])
def test_a_page_shows_a_shortcodes_interior_only_where_the_template_shows_it(tmp_path: Path, template: str,
                                                                            shown: bool) -> None:
    body = f"{LEAD}\n\n{{{{< note >}}}}{SECRET}{{{{< /note >}}}}\n"
    public = " ".join(p.text for p in _hugo(tmp_path, body, {"layouts/shortcodes/note.html": template}).public_passages)
    assert ("Quokkasecret" in public) is shown and "Install" in public
