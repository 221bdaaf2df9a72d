"""Generators of the classes of hidden text issue 24's attacker found beyond the first
round (S1, X2), and of their look-alikes that every reader sees (X5).

Each strategy draws members of one class, not the instances the attacker wrote: any far
offset on any side (``right``, ``inset``, logical insets) written plainly, in ``calc()``,
``min()``/``clamp()`` or behind a ``var()``; any transform that leaves the text no area;
any clip-path polygon of no area; any transparent or near-white colour in any CSS Color 4
syntax; a hiding declaration followed by an invalid one; the SVG elements never drawn;
fallback content; utility classes; MDX expressions; kramdown attribute lists.
"""

from __future__ import annotations

from hypothesis import strategies as st

from tests.wiki.variants import CANARY

SECRET = f"The {CANARY} override."
_SIDES = ("left", "right", "top", "bottom", "inset-inline-start", "inset-inline-end", "inset-block-start",
          "inset-block-end", "text-indent", "margin-left", "margin-top")


@st.composite
def far_length(draw: st.DrawFn) -> str:
    """A length at least 100px the wrong way (or 2000px either way), in some form."""
    px = draw(st.one_of(st.integers(-10**6, -100), st.integers(2000, 10**6)))
    part = draw(st.integers(-50, 50))
    forms = {
        "px": f"{px}px", "em": f"{px / 16:.3f}em", "calc-sum": f"calc({px - part}px + {part}px)",
        "calc-product": f"calc({px / 4:.2f}px * 4)", "min": f"min({px}px, {px}px)",
        "clamp": f"clamp({px}px, {px}px, {px}px)", "bare-var": "var(--theme-offset)",
        "var-fallback": f"var(--{draw(st.sampled_from(['x', 'off', 'pos']))}, {px}px)",
    }
    return forms[draw(st.sampled_from(sorted(forms)))]


@st.composite
def offset_css(draw: st.DrawFn) -> str:
    length = draw(far_length())
    side = draw(st.sampled_from([*_SIDES, "inset"]))
    defined = "--x: -9999px; " if "var(--x" in length else ""
    if side == "inset":
        values = ["auto"] * draw(st.integers(1, 4))
        values[draw(st.integers(0, len(values) - 1))] = length
        return f"{defined}position: absolute; inset: {' '.join(values)}"
    return f"{defined}position: absolute; {side}: {length}"


@st.composite
def shrink_css(draw: st.DrawFn) -> str:
    """Declarations that leave the text no size or no area."""
    angle = draw(st.sampled_from(["90deg", "-90deg", "270deg", "0.25turn", "100grad", "calc(45deg * 2)"]))
    axis = draw(st.sampled_from(["rotateX({})", "rotateY({})", "rotate3d(1, 0, 0, {})", "rotate3d(0, 1, 0, {})"]))
    a, b, k = draw(st.integers(-5, 5)), draw(st.integers(-5, 5)), draw(st.integers(-3, 3))
    choices = {
        "zoom": ["zoom: 0", "zoom: 0%", "zoom: 0.05", "zoom: 5%", "zoom: calc(0)"],
        "font": [f"font: {style}{size}/0 a" for style in ("", "italic ", "bold ", "italic 700 ")
                 for size in ("0", "0px", "1px", "0.05em", "calc(0px)", "0%")],
        "rotate": [f"transform: {perspective}{axis.format(angle)}" for perspective in ("", "perspective(500px) ")],
        "matrix": [f"transform: matrix({a}, {b}, {k * a}, {k * b}, 0, 0)"],  # a determinant of 0
        "scale3d": [f"transform: scale3d({v})" for v in ("0, 0, 0", "0, 1, 1", "1, 0, 1", "0.01, 0.5, 1")],
        "scale-prop": [f"scale: {v}" for v in ("0", "0%", "0 1", "1 0", "0.05")],
        "rotate-prop": [f"rotate: {v}" for v in ("x 90deg", "y 90deg", "1 0 0 90deg")],
        "skew": [f"transform: {v}" for v in ("skewX(90deg)", "skew(90deg, 0)", "skewY(-90deg)")],
    }
    return draw(st.sampled_from(choices[draw(st.sampled_from(sorted(choices)))]))


@st.composite
def clip_css(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["polygon", "inset", "mask", "mask-size", "blur", "filter-opacity", "clip-url"]))
    if kind == "polygon":
        # Collinear points: a polygon of no area.
        x0, y0, dx, dy = (draw(st.integers(0, 100)) for _ in range(4))
        points = ", ".join(f"{x0 + t * dx}% {y0 + t * dy}%" for t in range(draw(st.integers(3, 6))))
        return f"clip-path: polygon({points})"
    if kind == "inset":
        top = draw(st.integers(0, 100))
        return f"clip-path: inset({top}% 0 {100 - top}% 0)"
    if kind == "mask":
        prefix = draw(st.sampled_from(["mask", "-webkit-mask", "mask-image", "-webkit-mask-image"]))
        stop = draw(st.sampled_from(["transparent", "rgba(0,0,0,0)", "#0000", "rgb(0 0 0 / 0)"]))
        return f"{prefix}: {draw(st.sampled_from(['linear', 'radial', 'conic']))}-gradient({stop}, {stop})"
    if kind == "mask-size":
        return "mask: url(a.svg) 0 0 / 0 0 no-repeat"
    if kind == "blur":
        return f"filter: blur({draw(st.integers(3, 80))}px)"
    if kind == "filter-opacity":
        return f"filter: opacity({draw(st.integers(0, 9))}%)"
    shape = draw(st.sampled_from(["url(#c)", 'path("M0 0")']))
    return f"clip-path: {shape}"


_COLOUR_FORMS = (
    "transparent", "#0000", "#00000000", "rgba(10, 20, 30, 0)", "rgb(0 0 0 / 0)", "rgb(0 0 0 / 0%)",
    "hsl(0 0% 0% / 0)", "hsla(120, 50%, 50%, 0)", "#fff", "#FFFFFF", "white", "rgb(255,255,255)", "rgb(100% 100% 100%)",
    "hsl(0 0% 100%)", "hsl(0, 0%, 99%)", "hwb(0 100% 0%)", "#fefefe", "#fdfdfd", "oklch(100% 0 0)", "lab(100 0 0)",
)


@st.composite
def colour_css(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["color", "fill", "same", "invert", "var"]))
    if kind in ("color", "fill"):
        prop = "color" if kind == "color" else "-webkit-text-fill-color"
        return f"{prop}: {draw(st.sampled_from(_COLOUR_FORMS))}"
    if kind == "same":
        red, green, blue = (draw(st.integers(0, 255)) for _ in range(3))
        text = draw(st.sampled_from([f"#{red:02x}{green:02x}{blue:02x}", f"rgb({red}, {green}, {blue})",
                                     f"rgb({red} {green} {blue})"]))
        return f"color: {text}; background-color: rgb({red} {green} {blue})"
    if kind == "invert":
        return "color: #000; filter: invert(1)"
    return "color: var(--page-background)"


@st.composite
def overridden_css(draw: st.DrawFn) -> str:
    """A hiding declaration, then one of the same property no browser accepts."""
    hiding, invalid = draw(st.sampled_from([
        ("display: none", ["blahblah", "12px", "#fff", "url(x)"]),
        ("visibility: hidden", ["12px", "shown", "red"]),
        ("opacity: 0", ["red", "auto", "1px 2px"]),
        ("color: transparent", ["12px", "blahblah", "rgb(1, 2)"]),
    ]))
    return f"{hiding}; {hiding.split(':')[0]}: {draw(st.sampled_from(invalid))}"


def hiding_css() -> st.SearchStrategy[str]:
    """Any member of the CSS classes above."""
    return st.one_of(offset_css(), shrink_css(), clip_css(), colour_css(), overridden_css(), cut_short_css())


@st.composite
def cut_short_css(draw: st.DrawFn) -> str:
    """Overflow cut off a box that does not grow with its text: ``contain: size`` or
    ``strict`` without a full size, or a line clamp (issue 24, round 3)."""
    overflow = draw(st.sampled_from(["overflow: hidden", "overflow: clip", "overflow-y: hidden",
                                     "overflow: hidden auto"]))
    cut = draw(st.sampled_from([
        "contain: size", "contain: strict", "contain: size layout paint", "contain: strict; width: 300px",
        "display: -webkit-box; -webkit-line-clamp: 1; -webkit-box-orient: vertical",
        "-webkit-line-clamp: 2", "line-clamp: 1", "display: -webkit-box; -webkit-line-clamp: var(--n)"]))
    parts = [overflow, cut]
    return "; ".join(draw(st.permutations(parts)))


@st.composite
def shown_css(draw: st.DrawFn) -> str:
    """Declarations that look like hiding and show the text (X5)."""
    return draw(st.sampled_from([
        "transform: translate(-50%, -50%)", "position: absolute; left: -20px", "margin-left: -1.5rem",
        "transform: rotate(45deg)", "transform: rotateX(30deg)", "transform: scale(0.8)", "zoom: 67%",
        "font: bold 14px/1.4 sans-serif", "font: 1rem serif", "clip-path: polygon(50% 0, 100% 100%, 0 100%)",
        "clip-path: inset(10% 0 10% 0)", "filter: blur(1px)", "filter: grayscale(1)", "opacity: .5",
        "color: #333", "color: white; background: #333", "color: #fff; background-color: rgb(30 30 30)",
        "background: linear-gradient(90deg, #f00, #00f); -webkit-background-clip: text; "
        "-webkit-text-fill-color: transparent", "mask-image: linear-gradient(black, transparent)",
        "display: none; display: block", "height: 0; padding-bottom: 56.25%; overflow: hidden", "left: 0",
        "--fit: cover; --pos: center", "background-color:#CCCCCC;color:#000;border-radius:6px;",
        "color: hsl(0 0% 40%)", "text-indent: 2em", "position: absolute; top: 150px", "color: #ddd",
        "contain: layout paint; overflow: hidden", "contain: size; width: 300px; height: 200px; overflow: hidden",
        "-webkit-line-clamp: 3", "contain: strict",
    ]))


@st.composite
def hidden_element(draw: st.DrawFn) -> str:
    """Markup whose text is never drawn: SVG definitions, a zero-size SVG, fallback
    content, a ``<title>`` in the body, utility classes, ``hidden`` variants."""
    kind = draw(st.sampled_from(["svg-part", "svg-size", "fallback", "class", "attribute", "nested", "framework",
                                 "column", "svg-drawing", "background",
                                 "stylesheet", "mdx-props"]))
    if kind == "framework":
        return draw(framework_hidden())
    if kind == "svg-drawing":
        return draw(st.sampled_from([
            f'<svg viewBox="0 0 100 100"><text x="5000" y="50">{SECRET}</text></svg>',
            f'<svg viewBox="0 0 100 100"><text x="10" y="-500">{SECRET}</text></svg>',
            f'<svg viewBox="0 0 100 40"><text x="10" y="900">{SECRET}</text></svg>',
            f'<svg width="200" height="20"><text y="-500">{SECRET}</text></svg>',
            f'<svg viewBox="0 0 100 100"><text x="10" y="50" fill="#fff">{SECRET}</text></svg>',
            f'<svg viewBox="0 0 100 100"><g fill="white"><text x="10" y="50">{SECRET}</text></g></svg>',
            f'<svg viewBox="0 0 100 100"><text x="10" y="50" fill="#FEFEFE">{SECRET}</text></svg>',
            f'<svg viewBox="0 0 100 100"><switch><text y="20">Shown</text><text y="40">{SECRET}</text></switch></svg>',
            f'<svg viewBox="0 0 100 100"><text y="50"><textPath href="#gone">{SECRET}</textPath></text></svg>',
            f'<svg viewBox="0 0 100 100"><text y="50"><textPath xlink:href="#gone">{SECRET}</textPath></text></svg>',
            f'<svg viewBox="0 0 100 100"><foreignObject width="0" height="0"><p>{SECRET}</p></foreignObject></svg>',
            f'<svg viewBox="0 0 100 100"><foreignObject><div>{SECRET}</div></foreignObject></svg>',
        ]))
    if kind == "background":
        box = draw(st.sampled_from(["background:#000", "background-color:#123456", "background:rgb(20 20 20)",
                                    "box-shadow: inset 0 0 0 1000px #222", "background:linear-gradient(#111,#111)"]))
        text = {"background:#000": "#000", "background-color:#123456": "#123457", "background:rgb(20 20 20)": "#141414",
                "box-shadow: inset 0 0 0 1000px #222": "#222",
                "background:linear-gradient(#111,#111)": "#111"}[box]
        between = draw(st.sampled_from(["", "<div>", "<section>"]))
        inner = f'<span style="color:{text}">{SECRET}</span>'
        inner = f"{between}{inner}</{between[1:-1]}>" if between else inner
        return f'<div style="{box}">{inner}</div>'
    if kind == "stylesheet":
        return draw(st.sampled_from([
            f'<style>.a{{ & .b{{display:none}} }}</style>\n\n<div class="a"><p class="b">{SECRET}</p></div>',
            f'<style>.a{{ .b &{{visibility:hidden}} }}</style>\n\n<div class="b"><p class="a">{SECRET}</p></div>',
            f'<style>@import url("data:text/css,.x%7Bdisplay:none%7D");</style>\n\n<p class="x">{SECRET}</p>',
            f'<style>@import "data:text/css,.x{{opacity:0}}";</style>\n\n<p class="x">{SECRET}</p>',
            f'<link rel="stylesheet" href="data:text/css,.y%7Bvisibility:hidden%7D">\n\n<p class="y">{SECRET}</p>',
            f'<link rel=stylesheet href="data:text/css;base64,Lnp7ZGlzcGxheTpub25lfQ==">\n\n<p class="z">{SECRET}</p>',
        ]))
    if kind == "mdx-props":
        return draw(st.sampled_from([
            f"<div {{...{{hidden: true}}}}>{SECRET}</div>", f"<p {{ ...{{style: {{display: 'none'}}}} }}>{SECRET}</p>",
            f'<div style={{{{["display"]: "none"}}}}>{SECRET}</div>',
            f'<div style={{{{display: "no" + "ne"}}}}>{SECRET}</div>',
            f"<div style={{{{display: `none`}}}}>{SECRET}</div>",
            f"<div style={{{{visibility: `hid${{'den'}}`}}}}>{SECRET}</div>",
        ]))
    if kind == "column":
        col = draw(st.sampled_from(['<col style="visibility:collapse">', '<col style="visibility: collapse;">',
                                    '<colgroup><col><col style="visibility:collapse"></colgroup>']))
        return f"<table>{col}<tr><td>a</td><td>{SECRET}</td></tr></table>"
    if kind == "nested":
        return draw(compounded_nesting())
    if kind == "svg-part":
        part = draw(st.sampled_from(["desc", "metadata", "defs", "symbol", "clipPath", "mask", "linearGradient",
                                     "pattern", "marker", "title"]))
        inner = draw(st.sampled_from([SECRET, f"<text>{SECRET}</text>", f"<g><text x='0'>{SECRET}</text></g>"]))
        return f'<svg viewBox="0 0 10 10"><{part} id="p">{inner}</{part}></svg>'
    if kind == "svg-size":
        size = draw(st.sampled_from(['width="0" height="0"', 'width="0"', 'height="1px"', 'viewBox="0 0 0 0"',
                                     'style="width:0;height:0"']))
        return f"<svg {size}><text>{SECRET}</text></svg>"
    if kind == "fallback":
        tag, attributes = draw(st.sampled_from([("canvas", ' width="10"'), ("progress", ' value="1" max="2"'),
                                                ("meter", ' value="0.5"'), ("datalist", ' id="d"'), ("title", ""),
                                                ("object", ' data="a.pdf" type="application/pdf"')]))
        gap = draw(st.sampled_from(["", "\n"]))
        return f"<{tag}{attributes}>{gap}{SECRET}{gap}</{tag}>"
    if kind == "class":
        classes = draw(st.sampled_from([
            "!hidden", "hidden!", "tw-hidden", "md:!hidden max-md:!hidden", "opacity-0", "opacity-[0]", "opacity-5",
            "text-transparent", "invisible", "sr-only", "tw-sr-only", "collapse", "collapse navbar-collapse", "fade",
            "d-none", "visually-hidden", "ng-hide", "modal", "tab-pane", "offcanvas", "size-0 overflow-hidden",
            "h-0 overflow-hidden", "h-px w-px overflow-hidden", "text-[0px]", "text-[0]", "scale-0", "-indent-[9999px]",
            "-left-[9999px] absolute", "left-[-9999px]", "text-white", "text-gray-50", "blur", "[display:none]",
            "[visibility:hidden]", "mix-blend-screen", "carousel-item", "carousel-item fade",
            "is-hidden-mobile is-hidden-tablet", "is-hidden-touch is-hidden-desktop", "[&_p]:hidden",
            "min-[0px]:hidden", "text-black/0", "text-gray-900/5", "ng-cloak", "[&>*]:!hidden"]))
        attribute = draw(st.sampled_from(["class", "className"]))
        return f'<div {attribute}="{classes}">{SECRET}</div>'
    value = draw(st.sampled_from(["hidden", 'hidden="until-found"', 'hidden="false"', 'hidden=""', "HIDDEN"]))
    return f"<p {value}>{SECRET}</p>"


@st.composite
def framework_hidden(draw: st.DrawFn) -> str:
    """Vue, Alpine and Angular attributes that hide until (or unless) a script decides."""
    attribute = draw(st.one_of(
        st.sampled_from(["ng-cloak", "v-cloak", "x-cloak", "data-ng-cloak"]),
        st.builds(lambda name, value: f'{name}="{value}"',
                  st.sampled_from(["v-if", "v-show", "x-show", "*ngIf", "ng-if", "ng-show"]),
                  st.sampled_from(["false", "0", "null", "open", "isVisible", "!true", "user.admin", ""])),
        st.builds(lambda name, value: f'{name}="{value}"', st.sampled_from(["[hidden]", ":hidden", "ng-hide"]),
                  st.sampled_from(["true", "1", "collapsed", "!open"]))))
    tag = draw(st.sampled_from(["div", "p", "section", "span"]))
    return f"<{tag} {attribute}>{SECRET}</{tag}>"


@st.composite
def compounded_nesting(draw: st.DrawFn) -> str:
    """Elements each shown alone whose opacity, font size or transform scale, multiplied
    down the element stack, hides the innermost text (issue 24, round 3)."""
    prop, values = draw(st.sampled_from([
        ("opacity", ["0.3", "0.25", "30%", "0.2"]), ("font-size", ["30%", "0.3em", "25%", "35%"]),
        ("transform", ["scale(0.1)", "scale(0.08)", "scale(0.09, 0.1)"]), ("scale", ["0.1", "0.09"])]))
    depth = draw(st.integers(2, 3))
    tags = draw(st.lists(st.sampled_from(["div", "span", "section", "p"]), min_size=depth, max_size=depth))
    middle = draw(st.sampled_from(["", "<div>", "<em>"]))
    out = SECRET
    for index, tag in enumerate(reversed(tags)):
        if index == 1 and middle:
            out = f"{middle}{out}</{middle[1:-1]}>"
        out = f'<{tag} style="{prop}:{draw(st.sampled_from(values))}">{out}</{tag}>'
    return out


@st.composite
def shown_element(draw: st.DrawFn) -> str:
    """Markup near those that every reader sees (X5)."""
    return draw(st.sampled_from([
        f'<svg viewBox="0 0 24 24" width="24" height="24"><title>Icon</title><path d="M0 0h24v24H0z"/></svg> {SECRET}',
        f'<div class="collapse show">{SECRET}</div>', f'<div class="tab-pane active">{SECRET}</div>',
        f'<div class="modal show">{SECRET}</div>', f'<p class="text-white bg-blue-600">{SECRET}</p>',
        f'<p class="bg-gradient-to-r from-pink-500 to-violet-500 bg-clip-text text-transparent">{SECRET}</p>',
        f'<p class="opacity-50">{SECRET}</p>', f'<p class="overflow-hidden">{SECRET}</p>',
        f'<p class="text-gray-700 text-lg">{SECRET}</p>', f'<div class="md:hidden">{SECRET}</div>',
        f'<canvas id="c"></canvas>\n\n{SECRET}', f'<progress value="1" max="2"></progress> {SECRET}',
        # SVG's part names outside an <svg> are unknown HTML elements, shown (a placeholder in prose).
        f"Pass <pattern> or <filter> as the argument.\n\n{SECRET}",
        f'<div class="carousel-item active">{SECRET}</div>', f'<p class="is-hidden-mobile">{SECRET}</p>',
        f'<p v-if="true">{SECRET}</p>', f'<p [hidden]="false">{SECRET}</p>', f'<p class="text-black/80">{SECRET}</p>',
        f'<p class="min-[900px]:hidden">{SECRET}</p>',
        f'<table><col style="background:#eee"><col><tr><td>a</td><td>{SECRET}</td></tr></table>',
        f'<svg viewBox="0 0 100 100"><rect width="100" height="100" fill="#336"/>'
        f'<text x="10" y="50" fill="#fff">{SECRET}</text></svg>',
        f'<svg viewBox="0 0 100 100"><text x="10" y="50">{SECRET}</text></svg>',
        f'<svg width="200" height="40"><text x="10" y="25">{SECRET}</text></svg>',
        f'<svg viewBox="0 0 100 100"><switch><text y="50">{SECRET}</text></switch></svg>',
        f'<svg viewBox="0 0 100 100"><path id="p" d="M0 0L100 100"/><text><textPath href="#p">{SECRET}</textPath>'
        f'</text></svg>',
        f'<svg viewBox="0 0 100 100"><foreignObject width="100" height="100"><p>{SECRET}</p></foreignObject></svg>',
        f'<div style="background:#333"><p style="color:#fff">{SECRET}</p></div>',
        f'<div style="background:#000"><div><span style="color:#eee">{SECRET}</span></div></div>',
        f'<p style="box-shadow: inset 0 0 0 2000px #000; color:#fff">{SECRET}</p>',
        f'<p style="box-shadow: 0 1px 3px #000">{SECRET}</p>',
        f'<style>.a{{ color:#333; & .b{{font-weight:bold}} }}</style>\n\n'
        f'<div class="a"><p class="b">{SECRET}</p></div>',
        f'<link rel="stylesheet" href="/extra.css">\n\n<p class="y">{SECRET}</p>',
        f'<div style={{{{margin: "0 auto", maxWidth: 600}}}}>{SECRET}</div>',
        f'<div style={{{{transform: "translate(-50%, -50%)", opacity: 0.5}}}}>{SECRET}</div>',
        # Nesting that compounds to something readable.
        f'<div style="opacity:0.9"><p style="opacity:0.9">{SECRET}</p></div>',
        f'<div style="font-size:30%"><p style="font-size:16px">{SECRET}</p></div>',
        f'<div style="font-size:80%"><small style="font-size:0.8em">{SECRET}</small></div>',
        f'<div style="position:absolute;left:50%;transform:translate(-50%,-50%)">'
        f'<p style="transform:scale(0.5)">{SECRET}</p></div>',
    ]))


@st.composite
def mdx_expression(draw: st.DrawFn) -> tuple[str, str]:
    """``(body, source)``: MDX whose text is inside an expression (``source`` must show in
    no snippet)."""
    element = draw(st.sampled_from([f"<p>{SECRET}</p>", f"<div>\n  {SECRET}\n</div>", f"<>{SECRET}</>",
                                    f'"{SECRET}"', f"`{SECRET}`", f"<Note>{SECRET}</Note>"]))
    falsy = draw(st.sampled_from(["false", "0", "null", "''", "!true", "1 === 2", "undefined"]))
    form = draw(st.sampled_from(["and", "ternary", "ternary-else", "or-null", "iife", "array"]))
    expression = {
        "and": f"{{{falsy} && {element}}}", "ternary": f"{{{falsy} ? {element} : null}}",
        "ternary-else": f"{{!{falsy} ? null : {element}}}", "or-null": f"{{{falsy} && (\n  {element}\n)}}",
        "iife": f"{{(() => {falsy} && {element})()}}", "array": f"{{[{element}].slice(0, 0)}}",
    }[form]
    place = draw(st.sampled_from(["block", "inline"]))
    body = f"Before.\n\n{expression}\n\nAfter." if place == "block" else f"Before {expression} after."
    return body, expression.split(SECRET)[0].strip()[:8]


@st.composite
def attribute_list(draw: st.DrawFn) -> str:
    """A paragraph or heading under a kramdown / attr_list attribute list that hides it."""
    attributes = draw(st.sampled_from(["hidden", ".hidden", 'style="display:none"', ".sr-only",
                                       "hidden .note", '.note style="visibility: hidden"', ".d-none #x"]))
    space = draw(st.sampled_from(["", " "]))
    if draw(st.booleans()):
        return f"## {SECRET} {{:{space}{attributes}}}"
    return f"{SECRET}\n{{:{space}{attributes}}}"


@st.composite
def mdx_evaluated(draw: st.DrawFn) -> str:
    """MDX whose visibility the page's own script decides: a style from a constant, a
    class from an expression, a component of the page that renders none of its content."""
    kind = draw(st.sampled_from(["style", "class", "component"]))
    if kind == "style":
        css = draw(st.sampled_from(['{display: "none"}', "{opacity: 0}", '{visibility: "hidden"}', "{}"]))
        return f"export const h = {css}\n\n<p style={{h}}>{SECRET}</p>"
    if kind == "class":
        return f"<p className={{styles.{draw(st.sampled_from(['note', 'x', 'hidden']))}}}>{SECRET}</p>"
    definition = draw(st.sampled_from(["const {} = () => null", "function {}() {{ return null }}",
                                       "const {} = () => <></>", "const {} = ({{title}}) => <h2>{{title}}</h2>"]))
    name = draw(st.sampled_from(["Nothing", "Note", "Gone"]))
    gap = draw(st.sampled_from(["", "\n\n"]))
    return f"export {definition.format(name)}\n\n<{name}>{gap}{SECRET}{gap}</{name}>"
