"""Generators of overlays: text the site draws and then covers with an opaque box (S1,
X2; the rule of :mod:`provider.wiki.css_cover`), and of the look-alikes every reader
sees through (X5).

A member of the class: a containing block (positioned by ``relative``, ``sticky``,
``absolute`` or a transform, written in any case — or none: the box covers the
window), text in it at any nesting depth, and a box that is out of the flow
(``absolute``/``fixed``), spans the block (``inset`` in 1–4 values, the four longhands in
any order, logical insets, ``width``/``height`` of 100 % or a viewport, ``min-*``) and
paints something opaque (a background colour in any CSS Color 4 syntax, ``background``
or ``background-color``, a gradient, an image, an inset box shadow, an ``<img>`` or
``<svg>``), with or without a ``z-index`` at or above 0: an element before or after the
text, or a ``::before``/``::after`` (also ``:before``) of the block from a ``<style>``
rule.
"""

from __future__ import annotations

from hypothesis import strategies as st

from tests.wiki.hidden_css_variants import SECRET

_OPAQUE = ("#fff", "#ffffff", "white", "WHITE", "rgb(255,255,255)", "rgb(255 255 255)", "rgba(255,255,255,.95)",
           "hsl(0 0% 100%)", "hsl(0deg 0% 100% / 0.92)", "#fffe", "#f8f8f8", "#000", "black", "#1e1e1e",
           "rgb(250 250 250 / 100%)", "oklch(1 0 0)", "canvas", "aliceblue")
_TRANSLUCENT = ("rgba(255,255,255,.5)", "rgb(255 255 255 / 0.3)", "#fff8", "hsla(0,0%,100%,.8)", "transparent",
                "#ffffff80")


@st.composite
def _geometry(draw: st.DrawFn) -> str:
    near = draw(st.sampled_from(["0", "0px", "-1px", "0%", "-10px", "2px", "5%", "calc(0px)", "-.5em"]))
    sides = [f"top:{near}", f"right:{near}", f"bottom:{near}", f"left:{near}"]
    return draw(st.sampled_from([
        f"inset:{near}", f"inset:{near} {near}", f"inset:{near} {near} {near} {near}",
        ";".join(draw(st.permutations(sides))), f"inset-inline:{near};inset-block:{near}",
        f"inset-inline-start:{near};inset-inline-end:{near};top:{near};bottom:{near}",
        "width:100%;height:100%", "top:0;left:0;width:100%;height:100%", "width:100vw;height:100vh",
        "min-width:100%;min-height:100%", f"left:{near};right:{near};height:100%", "width:120%;height:150%",
    ]))


@st.composite
def _paint(draw: st.DrawFn) -> str:
    fill = draw(st.sampled_from(_OPAQUE))
    return draw(st.sampled_from([
        f"background:{fill}", f"background-color:{fill}", f"background:{fill} none repeat",
        f"background:linear-gradient({fill},{fill})", "background:url(cover.png)",
        f"box-shadow:inset 0 0 0 9999px {fill}", f"BACKGROUND-COLOR:{fill}",
    ]))


@st.composite
def cover_css(draw: st.DrawFn) -> str:
    """The declarations of a box that covers its containing block."""
    position = draw(st.sampled_from(["absolute", "fixed", "ABSOLUTE", "Absolute"]))
    parts = [f"position:{position}", draw(_geometry()), draw(_paint())]
    z = draw(st.sampled_from(["", "z-index:0", "z-index:1", "z-index:10", "z-index:9999", "z-index:auto"]))
    parts += [z] if z else []
    if draw(st.booleans()):
        parts.append('content:""')
    return ";".join(draw(st.permutations(parts)))


def _nest(text: str, depth: int) -> str:
    for number in range(depth):
        text = f'<div class="n{number}">{text}</div>' if number % 2 else f"<span>{text}</span>"
    return text


@st.composite
def overlay(draw: st.DrawFn) -> str:
    """A page body whose :data:`SECRET` is covered by an opaque overlay."""
    text = _nest(f"<p>{SECRET}</p>", draw(st.integers(0, 3)))
    block = draw(st.sampled_from(["position:relative", "position:RELATIVE", "position:sticky", "position:absolute",
                                  "transform:translateZ(0)", ""]))
    css = draw(cover_css())
    kind = draw(st.sampled_from(["element", "img", "svg", "pseudo", "rule-element"]))
    if kind == "pseudo":
        pseudo = draw(st.sampled_from(["::before", "::after", ":before", ":after"]))
        return (f"<style>.box{{{block}}} .box{pseudo}{{{css}}}</style>\n\n"
                f'<div class="box">{text}</div>')
    if kind == "rule-element":
        box = '<div class="veil"></div>'
        style = f"<style>.veil{{{css}}}</style>\n\n"
    elif kind == "img":
        box, style = f'<img src="white.png" alt="" style="{css.replace(chr(34), chr(39))}">', ""
    elif kind == "svg":
        box, style = f'<svg style="{css.replace(chr(34), chr(39))}"><rect fill="#fff"/></svg>', ""
    else:
        tag = draw(st.sampled_from(["span", "div", "i", "a"]))
        box, style = f'<{tag} style="{css.replace(chr(34), chr(39))}"></{tag}>', ""
    wrapped = _nest(box, draw(st.integers(0, 2))).replace('class="n', 'class="w')
    inside = f"{wrapped}{text}" if draw(st.booleans()) else f"{text}{wrapped}"
    attribute = f' style="{block}"' if block else ""
    return f"{style}<div{attribute}>{inside}</div>"


@st.composite
def shown_overlay(draw: st.DrawFn) -> str:
    """A page body with a positioned box near its :data:`SECRET` that leaves it readable."""
    fill = draw(st.sampled_from(_OPAQUE))
    veil = draw(st.sampled_from(_TRANSLUCENT))
    size = draw(st.sampled_from(["24px", "1em", "32px", "20%", "3rem"]))
    corner = draw(st.sampled_from(["top:0;right:0", "top:-8px;left:-8px", "bottom:0;right:0", "inset:0 0 auto auto"]))
    box = draw(st.sampled_from([
        f"position:absolute;{corner};width:{size};height:{size};background:{fill}",  # a badge
        f"position:absolute;inset:0;background:{veil}",  # a translucent veil
        f"position:absolute;inset:0;background:{fill};opacity:.4",
        f"position:absolute;inset:0;background:{fill};z-index:-1",  # behind the text
        f"position:relative;width:100%;height:100%;background:{fill}",  # in the flow
        f"position:sticky;top:0;width:100%;background:{fill}",  # a sticky header
        "position:absolute;inset:0",  # nothing painted
        f"position:absolute;top:0;left:0;right:0;height:4px;background:{fill}",  # a progress bar
    ]))
    kind = draw(st.sampled_from(["element", "pseudo", "decorative"]))
    if kind == "decorative":
        pseudo = draw(st.sampled_from(["::before", "::after"]))
        arrow = draw(st.sampled_from(['"→"', '"★ "', "counter(step)", '""']))
        return (f'<style>.box{{position:relative}} .box{pseudo}{{content:{arrow};position:absolute;left:0;'
                f"color:#06c}}</style>\n\n<div class=\"box\"><p>{SECRET}</p></div>")
    if kind == "pseudo":
        return (f"<style>.box{{position:relative}} .box::after{{{box}}}</style>\n\n"
                f'<div class="box"><p>{SECRET}</p></div>')
    return f'<div style="position:relative"><p>{SECRET}</p><span style="{box}"></span></div>'
