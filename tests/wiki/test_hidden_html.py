"""Text the site hides never reaches ``customer_safe`` (S1, X2), found by parsing HTML and
CSS — and look-alikes that hide nothing stay public (X5).

The classes: a hiding mechanism × an encoding × an element × where the secret sits
(:mod:`tests.wiki.hidden_variants`). Pinned with ``@example``: the attacker's leaks of the
regex reading (character references, CSS escapes and comments, a page's ``<style>``
rules, closed dialogs, attribute lists, MDX) and its false positives.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings

from provider.wiki.css_rules import hiding_rules
from provider.wiki.hidden_css import hiding_reason
from provider.wiki.plaintext import markdown_to_text
from provider.wiki.sections import split_sections
from tests.wiki.hidden_variants import hidden_page, lookalike_page
from tests.wiki.test_staff_wording import _customer_safe_sees, _parse
from tests.wiki.variants import CANARY

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _page(body: str) -> str:
    return f"---\naudience: public\ntitle: Page\n---\n# Page\n\nPublic words.\n\n{body}\n"


SECRET = f"The {CANARY} override."


@EXAMPLES
@given(hidden_page())
@example(("plain", _page(f'<div style="display&#58;none">{SECRET}</div>'), "style"))
@example(("plain", _page(f'<div style="display&colon;none">{SECRET}</div>'), "style"))
@example(("plain", _page(f'<span style="dis\\70 lay:none">{SECRET}</span>'), "style"))
@example(("plain", _page(f'<span style="display:no\\6e e">{SECRET}</span>'), "style"))
@example(("plain", _page(f'<span style="display:/**/none">{SECRET}</span>'), "style"))
@example(("plain", _page(f'<p style="DISPLAY : NONE !important">{SECRET}</p>'), "style"))
@example(("plain", _page(f'<p style="height:0;overflow:hidden">{SECRET}</p>'), "style"))
@example(("plain", _page(f"<style>.x{{display:none}}</style>\n\n<div class=\"x\">{SECRET}</div>"), "rule"))
@example(("plain", _page(f"<style>.a, #b {{ visibility: hidden !important }}</style>\n\n<p id=b>{SECRET}</p>"),
          "rule"))
@example(("plain", _page(f"<style>[data-k] {{ display: none }}</style>\n\n<p data-k=1>{SECRET}</p>"), "rule"))
@example(("plain", _page(f"<style>p {{ display: none }}</style>\n\n{SECRET}"), "rule"))
@example(("plain", _page(f"<dialog>{SECRET}</dialog>"), "semantic"))
@example(("plain", _page(f"<div popover>{SECRET}</div>"), "attribute"))
@example(("plain", _page(f"<template>\n\n{SECRET}\n\n</template>"), "semantic"))
@example(("plain", _page(f'<svg><text display="none">{SECRET}</text></svg>'), "svg"))
@example(("plain", _page(f'<svg><g visibility="hidden"><text>{SECRET}</text></g></svg>'), "svg"))
@example(("plain", _page(f"<video src=a.mp4>\n\n{SECRET}\n\n</video>"), "semantic"))
@example(("plain", _page(f'<object data="a.pdf">{SECRET}</object>'), "semantic"))
@example(("plain", _page(f'<input type="hidden" value="{SECRET}">'), "semantic"))
@example(("mkdocs", _page(f'{SECRET}\n{{: style="display:none"}}'), "attr-list"))
@example(("jekyll", _page(f"## {SECRET}\n{{: .sr-only}}"), "attr-list"))
@example(("plain", _page(f"::: {{.hidden}}\n{SECRET}\n:::"), "attr-list"))
@example(("plain", _page(f"Text [{SECRET}]{{.hidden}} more."), "attr-list"))
@example(("plain", _page(f'Text [{SECRET}]{{style="display:none"}} more.'), "attr-list"))
@example(("docusaurus", _page(f'<div style={{{{display: "none"}}}}>{SECRET}</div>'), "mdx"))
@example(("docusaurus", _page(f"<span style={{{{ visibility: 'hidden' }}}}>{SECRET}</span>"), "mdx"))
@example(("docusaurus", _page(f'<div className="sr-only">{SECRET}</div>'), "mdx"))
@example(("docusaurus", _page(f'<div className="hidden">{SECRET}</div>'), "mdx"))
@example(("plain", _page(f'<span class="&#104;idden">{SECRET}</span>'), "class"))
# A <script>/<style> start tag shown in a fence must not swallow the real elements after it.
@example(("plain", _page(f"```html\n<script>\n```\n\n<div hidden>{SECRET}</div>"), "attribute"))
@example(("plain", _page(f"```html\n<style>\n```\n\n<div hidden>{SECRET}</div>\n\n```\n</style>\n```"),
          "attribute"))
def test_x2_text_the_site_hides_never_reaches_the_public_index(variant: tuple[str, str, str]) -> None:
    layout, text, _mechanism = variant
    doc = _parse(text, layout)
    assert not _customer_safe_sees(doc), text


@EXAMPLES
@given(lookalike_page())
@example(("plain", _page(f"<!-- hide toc -->\n\n{SECRET}")))
@example(("plain", _page(f"{SECRET} Use `<p hidden>` to hide a paragraph.")))
@example(("plain", _page(f"```html\n<p hidden>x</p>\n```\n\n{SECRET}")))
@example(("plain", _page(f"<details>\n<summary>Private networks</summary>\n\n{SECRET}\n\n</details>")))
@example(("plain", _page(f"{SECRET} Set `display: none` or write display: none in your CSS.")))
@example(("plain", _page(f"<style>@media print {{ .x {{ display: none }} }}</style>\n\n<div class=x>{SECRET}</div>")))
@example(("plain", _page(f'<span class="hidden md:inline">{SECRET}</span>')))
@example(("hugo", _page(f"<video controls>\n  <source src=a.mp4>\n  Your browser does not support video.\n</video>\n\n"
                        f"{SECRET}")))
def test_x5_lookalikes_of_hidden_text_stay_public(variant: tuple[str, str]) -> None:
    layout, text = variant
    doc = _parse(text, layout)
    assert doc.meta.audience == "public" and not doc.meta.errors, (text, doc.meta.errors)
    assert CANARY in doc.public_body, text


@pytest.mark.parametrize(("css", "reason"), [
    ("dis\\70 lay:none", "display: none"), ("display:no\\6e e", "display: none"),
    ("display:/**/none", "display: none"), ("DISPLAY : NONE !important", "display: none"),
    ("display:none!important;display:block", "display: none"),
    ("color:white;background:#333", None), ("display:none;display:block", None),
    ("height:0;padding-bottom:56.25%;overflow:hidden", None), ("opacity:.5", None), ("margin-left:-20px", None),
    ("font-size:12px", None), ("height:0", None),
])
def test_css_is_read_as_a_browser_reads_it(css: str, reason: str | None) -> None:
    """Escapes, comments, case and the cascade inside one declaration list; a zero height
    without cutting off the overflow (the responsive-embed trick) shows its content."""
    assert hiding_reason(css) == reason


def test_print_only_rules_hide_nothing_on_screen_and_other_media_count() -> None:
    """``@media print`` hides on paper only; a screen or width query may match a reader's
    screen (fail closed); a pseudo-element rule styles no text of the element."""
    assert hiding_rules("@media print { .x { display: none } }") == []
    assert [r.text for r in hiding_rules("@media screen and (min-width: 1px) { .x { display: none } }")] == [".x"]
    (rule,) = hiding_rules(".a::before, .b:before { display: none }")
    assert all(s.pseudo_element for s in rule.selectors)


def test_aria_hidden_alone_and_details_are_shown() -> None:
    """Decisions: ``aria-hidden`` hides from screen readers only — sighted readers see the
    text, so it is published; ``<details>`` opens on a click; an open dialog shows."""
    for body in ('<span aria-hidden="true">x</span>', "<details><summary>More</summary>x</details>",
                 "<dialog open>x</dialog>", "<p hidden={false}>x</p>"):
        assert split_sections(body + "\n").near_miss_lines == (), body


def test_r3_attribute_lists_leave_no_residue_in_the_text() -> None:
    """kramdown/attr_list ``{: …}`` lines are read by the site, never shown."""
    text = markdown_to_text('A paragraph.\n{: style="color:red" target=_blank}\n\n## Title {: .big #t}\n').text
    assert "{" not in text and "style" not in text and "Title" in text


def test_media_fallback_text_is_not_indexed() -> None:
    """A browser shows the video, never its fallback text: it is not text of the page
    (and not a reason to withhold the page) while it stays in the element's block."""
    body = "<video controls>\n  <source src=a.mp4>\n  Your browser does not support video.\n</video>\n\nWords.\n"
    assert "browser" not in markdown_to_text(body).text
    assert "browser" not in markdown_to_text("See <video src=a>Your browser fails.</video> it.\n").text
    assert split_sections(body).near_miss_lines == ()


@pytest.mark.parametrize("body", [
    f'<style>.k::after{{display:none}}</style>\n\n<p class="k">{CANARY} shown.</p>',
    f'<style>.k:hover{{display:none}}</style>\n\n<p class="k">{CANARY} shown until hovered.</p>',
    f'<style>.k:focus-within {{ visibility: hidden }}</style>\n\n<p class="k">{CANARY} shown.</p>',
    f'<p class="md:hidden">{CANARY} on small screens.</p>',
    f'<p class="max-lg:sr-only">{CANARY} on wide screens.</p>',
])
def test_x5_text_shown_at_some_width_or_until_hovered_stays_public(body: str) -> None:
    """The attacker's false positives: a rule styling only ``::after`` or holding only on
    ``:hover``, and one hiding class under a screen-width variant, hide nothing a
    reader is never shown."""
    assert _customer_safe_sees(_parse(_page(body), "plain")), body


@pytest.mark.parametrize("body", [
    f'<p class="sm:hidden max-sm:hidden">{CANARY}</p>',
    f'<p class="hidden md:hidden">{CANARY}</p>',
    f'<style>.k:hover, .k {{display:none}}</style>\n\n<p class="k">{CANARY}</p>',
])
def test_x2_variants_that_together_hide_everywhere_still_hide(body: str) -> None:
    assert not _customer_safe_sees(_parse(_page(body), "plain")), body
