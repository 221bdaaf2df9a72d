"""Issue 24 (attacker): a Hugo shortcode template that prints ``.Inner`` where no reader
sees it — a hidden element, ``<template>``, ``<noscript>``, ``<script>``, ``<style>``, an
attribute value, an HTML comment — does not publish the interior
(provider.wiki.template_html, provider.wiki.template_blocks)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.template_blocks import outputs_inner

#: Where a template may print the interior that no reader of the page sees ({} is the print).
_HIDING = ("<div hidden>{}</div>", '<div style="display:none">{}</div>', '<span style="visibility: hidden">{}</span>',
           "<template>{}</template>", "<noscript>{}</noscript>", '<script>var t = "{}";</script>',
           "<style>/* {} */</style>", "<!-- {} -->", '<div class="sr-only">{}</div>', '<div class="tab-pane">{}</div>',
           '<div {{{{ if .Get "h" }}}}hidden{{{{ end }}}}>{}</div>', '<div class="{{{{ .Get "kind" }}}}">{}</div>',
           '<div style="{{{{ .Get "style" }}}}">{}</div>', '<div {{{{ .Get "attrs" | safeHTMLAttr }}}}>{}</div>',
           '<div class="{{{{ if .Get 0 }}}}d-none{{{{ else }}}}d-block{{{{ end }}}}">{}</div>',
           "<title>{}</title>", "<textarea hidden>{}</textarea>")
#: Attribute values: around a print only (markup with quotes there would end the value).
_IN_ATTRIBUTE = ('<div data-x="{}"></div>', '<abbr title="{}">?</abbr>', '<img alt="{}" src="x.png">')
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
    for level in range(draw(st.integers(1, 2))):
        hidden = draw(st.booleans())
        text = draw(st.sampled_from((_HIDING + _IN_ATTRIBUTE * (level == 0)) if hidden else _SHOWING)).format(text)
        shown = shown and not hidden
    return text, shown


@settings(max_examples=50, deadline=None)
@given(case=_placed())
def test_inner_printed_where_no_reader_sees_it_is_not_output(case: tuple[str, bool]) -> None:
    template, shown = case
    assert outputs_inner(template) is shown, template


@settings(max_examples=25, deadline=None)
@given(hidden=st.sampled_from(_HIDING + _IN_ATTRIBUTE), shown=st.sampled_from(_SHOWING))
def test_one_shown_print_is_enough(hidden: str, shown: str) -> None:
    """A template printing the interior twice, once hidden, still shows it."""
    template = hidden.format("{{ .Inner }}") + "\n" + shown.format("{{ .Inner | markdownify }}")
    assert outputs_inner(template), template


_RAW = ('{{ .Get "title" | safeHTML }}', '{{ with .Get "t" }}<h4>{{ . | safeHTML }}</h4>{{ end }}',
        '{{ htmlUnescape (.Get 0) }}', '<span>{{ .Get "icon" | safeHTML }}</span>')


@settings(max_examples=25, deadline=None)
@given(raw=st.sampled_from(_RAW), shown=st.sampled_from(_SHOWING), before=st.booleans())
def test_markup_an_argument_prints_before_the_interior_may_hide_it(raw: str, shown: str, before: bool) -> None:
    """Issue 24 (attacker): ``{{< note title="<div hidden>" >}}secret{{< /note >}}`` with
    ``{{ .Get "title" | safeHTML }}{{ .Inner }}``: the unescaped argument opens an element
    the interior then stands in; printed after the interior it hides nothing of it."""
    print_ = shown.format("{{ .Inner | markdownify }}")
    assert outputs_inner(raw + print_ if before else print_ + raw) is not before
