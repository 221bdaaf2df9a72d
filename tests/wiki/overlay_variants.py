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


# Issue 24, third round: overlays recognised by the area they paint, not by their offsets.

def _escaped(name: str, draw: st.DrawFn) -> str:
    """A property name with one letter written as a CSS escape (``posi\\74 ion``,
    ``posi\\tion``) or in another case: the same property to a browser."""
    how = draw(st.sampled_from(["plain", "hex", "char", "upper"]))
    index = draw(st.integers(1, len(name) - 1))
    if how == "plain" or name[index] == "-":
        return name
    if how == "char" and name[index] in "0123456789abcdef":
        how = "hex"  # ``\\a`` is a hex escape (a newline), not the letter
    if how == "hex":
        return f"{name[:index]}\\{ord(name[index]):x} {name[index + 1:]}"
    if how == "char":
        return f"{name[:index]}\\{name[index]}{name[index + 1:]}"
    return name.upper()


_FILL = ("#fff", "white", "rgb(255 255 255)", "rgb(from white r g b)", "hsl(from #fff h s l)", "canvas", "#000",
         "color-mix(in srgb, white 100%, white)")
_BIG = ("5000px", "300vw", "200em", "calc(100vw + 10px)", "max(100%, 4000px)", "clamp(3000px, 50%, 9000px)",
        "min(9999px, 200vw)")


@st.composite
def painted_box(draw: st.DrawFn) -> dict[str, str]:
    """The paint and geometry of a box covering its block, as declarations: a
    background on a spanning box, or paint reaching far beyond a small box (outer
    shadow spread, a wide border or outline, a scale transform, padding only), or a
    filter over what is behind it."""
    fill = draw(st.sampled_from(_FILL))
    big = draw(st.sampled_from(_BIG))
    span = draw(st.sampled_from(["inset:0", "top:0;left:0;width:100%;height:100%", f"width:{big};height:{big}",
                                 "width:max(100%, 10px);height:calc(100% + 5px)",
                                 "width:clamp(100%, 50vw, 200%);height:max(100%, 1em)"]))
    small = draw(st.sampled_from(["width:0;height:0", "width:1px;height:1px", "width:2px;height:2px", ""]))
    family = draw(st.sampled_from(["background", "shadow", "border", "outline", "scale", "padding", "backdrop",
                                   "border-image"]))
    at = "top:0;left:0"
    scale = draw(st.sampled_from(["scale(500)", "scale(800, 900)", "matrix(600,0,0,600,0,0)",
                                  "scale(500) rotate(45deg)", "translate(-10px,-10px) scale(1000)"]))
    return {
        "background": {"geometry": span, "paint": f"background:{fill}"},
        "shadow": {"geometry": f"{at};{small}", "paint": f"box-shadow:0 0 0 {big} {fill}"},
        "border": {"geometry": f"{at};{small}", "paint": f"border:{big} solid {fill}"},
        "outline": {"geometry": f"{at};{small}", "paint": f"outline:{big} solid {fill}"},
        "scale": {"geometry": f"{at};width:2px;height:2px", "paint": f"background:{fill};transform:{scale}"},
        "padding": {"geometry": f"{at};width:0;height:0;padding:{big}", "paint": f"background:{fill}"},
        "backdrop": {"geometry": span, "paint": draw(st.sampled_from(["backdrop-filter:blur(12px)",
                                                                      "-webkit-backdrop-filter:blur(30px)",
                                                                      "backdrop-filter:brightness(0)"]))},
        "border-image": {"geometry": span, "paint": "border-image:url(white.png) 30 fill"},
    }[family]


def _declarations(parts: list[str], draw: st.DrawFn) -> str:
    out = []
    for part in (p for chunk in parts for p in chunk.split(";") if p):
        name, _, value = part.partition(":")
        out.append(f"{_escaped(name, draw)}:{value}")
    return ";".join(draw(st.permutations(out)))


@st.composite
def painted_overlay(draw: st.DrawFn) -> str:
    """A page body whose :data:`SECRET` is under a box painting an opaque area, the box's
    position and paint written in one style or split over two page rules (and the
    inline style) that all match it."""
    box = draw(painted_box())
    position = f"position:{draw(st.sampled_from(['absolute', 'fixed']))}"
    where = draw(st.sampled_from(["inline", "one-rule", "split", "split-inline", "id-and-class"]))
    text = f"<p>{SECRET}</p>"
    if where == "inline":
        css = _declarations([position, box["geometry"], box["paint"]], draw).replace('"', "'")
        cover = f'<div style="{css}"></div>'
        sheet = ""
    elif where == "one-rule":
        cover = '<div class="veil"></div>'
        sheet = f"<style>.veil{{{_declarations([position, box['geometry'], box['paint']], draw)}}}</style>\n\n"
    elif where == "split":
        cover = '<div class="veil tone"></div>'
        sheet = (f"<style>.veil{{{_declarations([position, box['geometry']], draw)}}}"
                 f" .tone{{{_declarations([box['paint']], draw)}}}</style>\n\n")
    elif where == "split-inline":
        css = _declarations([box["paint"]], draw).replace('"', "'")
        cover = f'<div class="veil" style="{css}"></div>'
        sheet = f"<style>div.veil{{{_declarations([position, box['geometry']], draw)}}}</style>\n\n"
    else:
        cover = '<div id="v" class="tone"></div>'
        sheet = (f"<style>#v{{{_declarations([position], draw)}}} .tone{{{_declarations([box['geometry']], draw)}}}"
                 f" div{{{_declarations([box['paint']], draw)}}}</style>\n\n")
    inside = f"{text}{cover}" if draw(st.booleans()) else f"{cover}{text}"
    block = draw(st.sampled_from(["position:relative", "transform:translateZ(0)", ""]))
    return f'{sheet}<div style="{block}">{inside}</div>'


@st.composite
def shifted_overlay(draw: st.DrawFn) -> str:
    """A page body whose :data:`SECRET` is under a box in the flow moved over it: a
    negative margin, a transform, a relative offset, or a later child stacked in the
    same grid cell."""
    fill = draw(st.sampled_from(_FILL))
    pull = draw(st.sampled_from(["-200px", "-12em", "calc(-100vh)", "-50vh"]))
    css = draw(st.sampled_from([
        f"position:relative;margin-top:{pull};height:300px;background:{fill}",
        f"display:inline-block;width:100%;margin-top:{pull};height:300px;background:{fill}",
        f"transform:translateY({pull});height:300px;background:{fill}",
        f"translate:0 {pull};height:300px;background:{fill}",
        f"position:relative;top:{pull};height:300px;background:{fill}",
        f"grid-area:1 / 1;background:{fill}",
        f"grid-row:1;grid-column:1;background:{fill};z-index:1",
        f"margin-top:{pull};height:300px;background:{fill};flex:none",
    ]))
    grid = ("display:grid" if "grid" in css else "display:flex;flex-direction:column" if "flex" in css else "")
    css = _declarations([css], draw).replace('"', "'")
    return (f'<div style="{grid}"><p style="{"grid-area:1/1" if grid else ""}">{SECRET}</p>'
            f'<div style="{css}"></div></div>')


@st.composite
def layout_under_text(draw: st.DrawFn) -> str:
    """A page body whose :data:`SECRET` every reader sees: a background painted under
    it (a hero image or card below text that is painted above it, a block pulled up
    under it by a negative margin), or an overlay that
    paints nothing (``display: none``, ``visibility: hidden``, ``opacity: 0``, no
    size, ``scale(0)``, clipped away, inside a box of no size cutting its overflow)."""
    fill = draw(st.sampled_from(_OPAQUE))
    z = draw(st.sampled_from(["", "z-index:0", "z-index:1", "z-index:auto"]))
    level = "position:relative" if not z or z.endswith(("0", "auto")) else "position:relative;z-index:2"
    above = draw(st.sampled_from(["position:relative;z-index:1", "position:relative;z-index:5", level]))
    gone = draw(st.sampled_from(["display:none", "visibility:hidden", "opacity:0", "width:0;height:0",
                                 "transform:scale(0)", "clip-path:inset(50%)", "clip-path:circle(0)"]))
    kind = draw(st.sampled_from(["hero", "card", "gone", "clipped", "pulled"]))
    if kind == "pulled":
        # A block pulled up by a negative margin paints its background under the text
        # before it (block backgrounds are painted before any line of text).
        return (f'<div><p>{SECRET}</p><div style="margin-top:-2em;padding:1em;background:{fill}">'
                "Note.</div></div>")
    if kind == "hero":
        return (f'<div style="position:relative"><img src="hero.png" alt="" style="position:absolute;inset:0;'
                f'width:100%;height:100%;{z}"><p style="{above}">{SECRET}</p></div>')
    if kind == "card":
        return (f'<div style="position:relative"><div style="position:absolute;inset:0;background:{fill};{z}">'
                f'</div><p style="{above}">{SECRET}</p></div>')
    if kind == "gone":
        veil = ("width:100%;height:100%" if gone.startswith("width") is False else "") + f";{gone}"
        return (f'<div style="position:relative"><p>{SECRET}</p>'
                f'<div style="position:absolute;top:0;left:0;background:{fill};{veil}"></div></div>')
    inner = draw(st.sampled_from(["transform:translateY(-100px)", "margin-top:-200px", "position:relative;top:-90px"]))
    return (f'<div><p>{SECRET}</p><div style="height:0;overflow:hidden">'
            f'<div style="{inner};height:2000px;background:{fill}"></div></div></div>')
