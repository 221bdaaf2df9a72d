"""Issue 24, third round: text under a box that paints an opaque area over it never
reaches ``customer_safe`` (S1, X2) whatever paints the area — background, outer shadow
spread, border, outline, a scaled transform, padding, a backdrop filter, a filling
border image — however its size is written (``max()``, ``calc()``, ``clamp()``, colours
only the site decides), whichever rules of the page set its position and its paint
(the cascade), and however it is moved over the text (out of the flow, shifted,
pulled by a negative margin, stacked in a grid cell); and text painted above a
background, or beside an overlay that paints nothing, stays public (X5).
Generators: :mod:`tests.wiki.overlay_variants`.
"""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.wiki.hidden_css_variants import SECRET
from tests.wiki.overlay_variants import layout_under_text, painted_overlay, shifted_overlay
from tests.wiki.test_staff_wording import _customer_safe_sees, _parse
from tests.wiki.variants import CANARY, LAYOUTS

PAGES = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _page(body: str) -> str:
    return f"---\naudience: public\ntitle: Page\n---\n# Page\n\nPublic words.\n\n{body}\n"


@PAGES
@given(st.sampled_from(LAYOUTS), painted_overlay())
@example("plain", f'<div style="position:relative"><p>{SECRET}</p><div style="position:absolute;top:0;left:0;'
         'width:0;height:0;box-shadow:0 0 0 5000px #fff"></div></div>')
@example("plain", f'<div style="position:relative"><p>{SECRET}</p>'
         '<div style="position:absolute;top:0;left:0;border:5000px solid white"></div></div>')
@example("plain", f'<div style="position:relative"><p>{SECRET}</p><div style="position:absolute;top:0;left:0;'
         'width:2px;height:2px;background:#fff;transform:scale(500)"></div></div>')
@example("plain", f'<div style="position:relative"><p>{SECRET}</p>'
         '<div style="position:absolute;inset:0;background:rgb(from white r g b)"></div></div>')
@example("plain", f'<div style="position:relative"><p>{SECRET}</p><div style="posi\\tion:absolute;'
         'width:max(100%, 10px);height:calc(100% + 5px);background:#fff"></div></div>')
@example("plain", '<style>.veil{position:absolute;inset:0} .tone{background:#fff}</style>\n\n'
         f'<div style="position:relative"><p>{SECRET}</p><div class="veil tone"></div></div>')
def test_x2_text_under_any_painted_area_is_never_public(layout: str, body: str) -> None:
    text = _page(body)
    assert not _customer_safe_sees(_parse(text, layout)), text


@PAGES
@given(st.sampled_from(LAYOUTS), shifted_overlay())
@example("plain", f'<div style="display:grid"><p style="grid-area:1/1">{SECRET}</p>'
         '<div style="grid-area:1/1;background:#fff"></div></div>')
@example("plain", f'<div><p>{SECRET}</p><div style="position:relative;margin-top:-200px;height:300px;'
         'background:#fff"></div></div>')
def test_x2_text_under_a_box_moved_over_it_is_never_public(layout: str, body: str) -> None:
    text = _page(body)
    assert not _customer_safe_sees(_parse(text, layout)), text


@PAGES
@given(st.sampled_from(LAYOUTS), layout_under_text())
@example("plain", '<div style="position:relative"><img src="hero.png" alt="" style="position:absolute;inset:0;'
         f'width:100%;height:100%"><p style="position:relative;z-index:1">{SECRET}</p></div>')
@example("plain", '<div style="position:relative"><div style="position:absolute;inset:0;background:#f8f8f8">'
         f'</div><p style="position:relative">{SECRET}</p></div>')
def test_x5_text_painted_above_a_background_stays_public(layout: str, body: str) -> None:
    doc = _parse(_page(body), layout)
    assert doc.meta.audience == "public" and not doc.meta.errors, (body, doc.meta.errors)
    assert CANARY in doc.public_body, body


@PAGES
@given(st.sampled_from(LAYOUTS), st.sampled_from(["z-index:0", "opacity:.99", "transform:translateZ(0)",
                                                 "isolation:isolate", "filter:blur(0)", "will-change:transform"]),
       st.sampled_from(["z-index:99", "z-index:2"]))
@example("plain", "z-index:0", "z-index:99")
def test_x2_a_high_z_index_inside_a_lower_stacking_context_stays_covered(layout: str, context: str,
                                                                          high: str) -> None:
    """Text whose own ``z-index`` is above the overlay's, inside a box that is a stacking
    context painted below it, is painted below the overlay too (S1, X2)."""
    body = (f'<div style="position:relative"><div style="position:relative;{context}">'
            f'<p style="position:relative;{high}">{SECRET}</p></div>'
            '<div style="position:absolute;inset:0;background:#fff;z-index:1"></div></div>')
    text = _page(body)
    assert not _customer_safe_sees(_parse(text, layout)), text


@PAGES
@given(st.sampled_from(LAYOUTS), st.sampled_from([
    ".wrap .veil{position:absolute;inset:0} .tone{background:#fff}",
    ".veil{position:absolute;inset:0;background:#fff} .nowhere .veil{position:static!important}",
    ".veil:first-child{position:absolute;inset:0} div.tone{background:#fff}",
    ".veil{position:absolute;inset:0;background:#fff} body > main .veil{display:none!important}",
]))
def test_x2_a_rule_read_only_in_part_neither_hides_nor_unhides_an_overlay(layout: str, sheet: str) -> None:
    """A rule whose selector is read only in part (an ancestor, a pseudo-class) may or
    may not match: the overlay is judged with and without it, and covers if either way
    covers (S1, X2; issue 24)."""
    body = (f"<style>{sheet}</style>\n\n<div class=\"wrap\" style=\"position:relative\"><p>{SECRET}</p>"
            '<div class="veil tone"></div></div>')
    text = _page(body)
    assert not _customer_safe_sees(_parse(text, layout)), text
