"""Which CSS declarations hide an element's text from a reader.

Read with a CSS tokenizer (tinycss2), never with patterns over the raw style text: the
tokenizer undoes escapes (``dis\\70 lay``, ``no\\6e e``), drops comments
(``display:/**/none``) and ignores case exactly as a browser does. HTML entities
(``display&#58;none``) are the HTML parser's to decode, once, before the style text gets
here (:mod:`provider.wiki.hidden_html`).

The declarations in force are found as a browser finds them: custom properties
(``--x``) substituted into ``var()``; shorthands (``font``, ``inset``, ``margin``,
``overflow``, ``background``, ``mask``) expanded; a declaration a browser drops because
its value is not of its property's type (``display: none; display: blahblah``) dropped;
later declarations override earlier ones, ``!important`` ones the rest.

A declaration list hides its element's text (:func:`hiding_reason`) when it

* removes the element: ``display: none``, ``visibility: hidden|collapse``,
  ``content-visibility: hidden``;
* makes it (nearly) transparent: ``opacity``, ``fill-opacity`` or ``filter: opacity()``
  below 0.1;
* shrinks it to nothing: a ``font-size`` (also in ``font: 0/0 a``) of at most 2px or an
  eighth of the inherited size, ``zoom`` below 0.1, a transform (``transform``,
  ``rotate``, ``scale``) keeping under 1 % of its area on screen (``scale(0)``,
  ``rotateX(90deg)``, ``matrix(0,0,0,0,0,0)``, ``skewX(90deg)``);
* moves it off screen: ``left``/``right``/``top``/``bottom``/``inset*``,
  ``text-indent``, ``margin-left|top|right`` or a translation at least 100px the wrong
  way or 2000px either way, or a whole box (100%) the wrong way, ``calc()`` evaluated
  (relative units with a nominal screen: :data:`provider.wiki.css_values.NOMINAL_PX`);
  ``text-indent`` of 100% or more with the overflow cut off;
* clips it away: ``clip: rect()`` of at most 1px, a ``clip-path`` of no area
  (``inset()`` of 100% across, ``circle(0)``, a ``polygon()`` of no area), a mask whose
  images are all transparent or of size 0, a ``filter: blur()`` of 3px or more;
* gives it no room while cutting off what overflows: a width, height or line height of at
  most 1px with ``overflow: hidden|clip`` and no padding on that axis (the
  responsive-embed trick ``height:0; padding-bottom:56%`` shows its content);
* cuts it short: ``contain: size`` (or ``strict``) without both a width and a height,
  or a line clamp (``-webkit-line-clamp``: the lines after the first few are not shown;
  the element fails closed), with ``overflow: hidden``;
* colours it as what is behind it. The stated rule: the glyphs' colour
  (``-webkit-text-fill-color``, else SVG ``fill``, else ``color``; black when unset),
  after the element's colour filters (``invert()``, ``brightness()``…), hides when its
  alpha is below 0.1 (``transparent``, ``#0000``, ``rgb(0 0 0 / 0)``) or when its WCAG
  contrast with every background behind it is below :data:`LOW_CONTRAST` — the element's
  own background colour and gradient stops (or an inset ``box-shadow`` whose spread fills
  the box), else the nearest ancestor's (:func:`background_css`), else the white page docs sites show
  (``#fff`` and ``#fefefe`` text hide; ``#ddd`` shows). Transparent glyphs show when the
  background is clipped to the text (gradient text) or the text is stroked. A
  background image (``url()``) the text is drawn on is taken as contrasting. A
  ``mix-blend-mode`` that turns black text on white into white hides too.

Fail closed: a value of one of those properties that only the site can decide — a
``var()`` the declaration list does not define (a fallback does not settle it: the
site's stylesheet may define the property), ``env()``, ``color-mix()``, a mask or
clip-path ``url()``, a ``filter: url()`` — hides, and the reason says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import tinycss2
from tinycss2.ast import Node

from .css_geometry import area_scale, polygon_area, transform_matrix
from .css_values import (
    GLOBAL_KEYWORDS,
    NOMINAL_PX,
    UNKNOWN,
    Colour,
    Unknown,
    arguments,
    colour,
    contrast,
    length,
    number,
    significant,
    substitute,
    unknowable,
)
from .css_visual import blend_hides, filtered, gradient_colours

__all__ = ["INSET_FILL", "LOW_CONTRAST", "Declarations", "Nesting", "background_css", "computed", "hiding_reason",
           "nesting"]

#: Below this WCAG contrast ratio with what is behind it, text is not read (``#eee`` on
#: white is 1.16; ``#ddd`` is 1.36).
LOW_CONTRAST: Final = 1.25
_OFF_SCREEN_PX = 100.0
_FAR_PX = 2000.0
_TINY_FONT_PX = 2.0
_BLUR_PX = 3.0
_DISPLAY = frozenset({
    "none", "block", "inline", "inline-block", "flex", "inline-flex", "grid", "inline-grid", "flow", "flow-root",
    "table", "inline-table", "table-row", "table-cell", "table-column", "table-caption", "table-row-group",
    "table-header-group", "table-footer-group", "table-column-group", "list-item", "contents", "run-in", "ruby",
    "ruby-base", "ruby-text", "ruby-base-container", "ruby-text-container", "math", "-webkit-box",
    "-webkit-inline-box", "-ms-flexbox", "-ms-inline-flexbox", "-ms-grid", "-ms-inline-grid", "inline-list-item",
})
_ENUMERATED = {"visibility": frozenset({"visible", "hidden", "collapse"}),
               "content-visibility": frozenset({"visible", "auto", "hidden"})}
_LENGTH_PROPERTIES = frozenset({"left", "right", "top", "bottom", "text-indent", "margin-left", "margin-top",
                                "margin-right", "margin-bottom", "width", "height", "max-width", "max-height",
                                "line-height", "font-size"})
_COLOUR_PROPERTIES = frozenset({"color", "-webkit-text-fill-color", "background-color", "fill"})
_SIDES = ("top", "right", "bottom", "left")
#: Logical properties as a left-to-right, top-to-bottom page reads them.
_LOGICAL = {"inset-inline-start": "left", "inset-inline-end": "right", "inset-block-start": "top",
            "inset-block-end": "bottom", "margin-inline-start": "margin-left", "margin-inline-end": "margin-right",
            "margin-block-start": "margin-top", "margin-block-end": "margin-bottom", "-webkit-mask": "mask",
            "-webkit-mask-image": "mask-image", "-webkit-mask-size": "mask-size", "mask-box-image": "mask-image",
            "-webkit-mask-box-image": "mask-image", "-webkit-background-clip": "background-clip",
            "-webkit-filter": "filter", "-webkit-transform": "transform", "-ms-transform": "transform",
            "-webkit-clip-path": "clip-path", "block-size": "height", "inline-size": "width",
            "max-block-size": "max-height", "max-inline-size": "max-width"}
_FONT_SIZE_KEYWORDS = frozenset({"xx-small", "x-small", "small", "medium", "large", "x-large", "xx-large",
                                 "xxx-large", "larger", "smaller", "math"})

Declarations = dict[str, list[Node]]
#: The colour an inset box shadow fills the box with (drawn over its background).
_INSET_FILL: Final = "-inset-shadow-fill"
#: The pseudo-property :func:`computed` gives an inset box shadow filling the box as.
INSET_FILL: Final = _INSET_FILL


def _box(values: list[list[Node]], names: Sequence[str]) -> list[tuple[str, list[Node]]]:
    """A 1–4 value box shorthand (``inset``, ``margin``) as its longhands."""
    if not 1 <= len(values) <= 4:
        return []
    top = values[0]
    right = values[1] if len(values) > 1 else top
    bottom = values[2] if len(values) > 2 else top
    left = values[3] if len(values) > 3 else right
    return list(zip(names, (top, right, bottom, left), strict=True))


def _font(value: list[Node]) -> list[tuple[str, list[Node]]]:
    """``font: italic 0/0 a`` as its ``font-size`` and ``line-height``: the first length,
    percentage, size keyword or ``0`` (a weight is at least 1)."""
    if len(value) == 1 and value[0].type == "ident":
        return [("font-size", value)]  # a system font (``caption``) or a global keyword: a normal size
    for index, token in enumerate(value):
        is_size = (token.type in ("dimension", "percentage") or (token.type == "number" and token.value == 0)
                   or (token.type == "function" and token.lower_name in ("calc", "min", "max", "clamp", "var"))
                   or (token.type == "ident" and token.lower_value in _FONT_SIZE_KEYWORDS))
        if is_size:
            out = [("font-size", [token])]
            rest = value[index + 1:]
            if len(rest) > 1 and rest[0].type == "literal" and rest[0].value == "/":
                out.append(("line-height", [rest[1]]))
            return out
    return [("font-size", value)] if unknowable(value) else []


def _longhands(name: str, value: list[Node]) -> list[tuple[str, list[Node]]]:
    """A declaration as the longhands it sets (a shorthand expanded)."""
    name = _LOGICAL.get(name, name)
    split = [[t] for t in value]
    if unknowable(value) and name in ("inset", "margin", "overflow", "inset-inline", "inset-block"):
        return [(n, value) for n in {"inset": ("top", "right", "bottom", "left"),
                                     "margin": ("margin-top", "margin-right", "margin-left"),
                                     "overflow": ("overflow-x", "overflow-y")}.get(name, ("left", "top"))]
    if name == "inset":
        return _box(split, _SIDES)
    if name == "margin":
        return _box(split, ("margin-top", "margin-right", "margin-bottom", "margin-left"))
    if name in ("inset-inline", "inset-block", "margin-inline", "margin-block"):
        first, second = (("left", "right") if name == "inset-inline" else ("top", "bottom") if name == "inset-block"
                         else ("margin-left", "margin-right") if name == "margin-inline"
                         else ("margin-top", "margin-bottom"))
        return [(first, split[0]), (second, split[-1])] if 1 <= len(split) <= 2 else []
    if name == "overflow":
        return [("overflow-x", split[0]), ("overflow-y", split[-1])] if 1 <= len(split) <= 2 else []
    if name == "font":
        return _font(value)
    if name == "background":
        colours = [t for t in value if isinstance(colour([t]), (tuple, str))
                   or (t.type == "function" and t.lower_name == "var")]
        return [("background-color", colours[-1:] or [_transparent()]), ("background-image", value),
                ("background-clip", [t for t in value if t.type == "ident" and t.lower_value == "text"])]
    if name == "mask":
        slash = next((i for i, t in enumerate(value) if t.type == "literal" and t.value == "/"), None)
        size = [t for t in value[slash + 1:] if number(t) is not None][:2] if slash is not None else []
        return [("mask-image", value), ("mask-size", size)]
    if name == "box-shadow" and any(t.type == "ident" and t.lower_value == "inset" for t in value):
        # ``inset 0 0 0 2000px #000``: a spread that fills the box paints over its background.
        sizes = [length([t]) for t in value if number(t) is not None]
        fill = [t for t in value if isinstance(colour([t]), (tuple, str))]
        spread = sizes[3] if len(sizes) > 3 else None
        if fill and isinstance(spread, tuple) and spread[1] == "px" and spread[0] >= 50:
            return [(_INSET_FILL, fill[-1:])]
        return []
    if name == "-webkit-text-stroke":
        return [("-webkit-text-stroke-width", [t for t in value if number(t) is not None][:1] or value)]
    return [(name, value)]


def _transparent() -> Node:
    return tinycss2.parse_one_component_value("transparent")


def _valid(name: str, value: list[Node]) -> bool:
    """Whether a browser keeps this declaration (a value of the property's type)."""
    if not value:
        return False
    if unknowable(value) or (len(value) == 1 and value[0].type == "ident" and value[0].lower_value in GLOBAL_KEYWORDS):
        return True
    idents = [t.lower_value for t in value if t.type == "ident"]
    if name == "display":
        return len(idents) == len(value) and all(i in _DISPLAY for i in idents)
    if name in _ENUMERATED:
        return len(value) == 1 and bool(idents) and idents[0] in _ENUMERATED[name]
    if name in ("opacity", "fill-opacity", "zoom"):
        found = length(value)
        return (found is not None and not isinstance(found, Unknown) and found[1] in ("px", "%")) or idents in (
            ["normal"], ["reset"])
    if name in _COLOUR_PROPERTIES:
        return colour(value) is not None or (name == "fill" and idents in (["none"], ["context-fill"]))
    if name in _LENGTH_PROPERTIES:
        # ``max(100%, 10px)`` is a length whose value needs the box: kept, not evaluated.
        return (length(value) is not None or (len(value) == 1 and value[0].type == "ident")
                or (len(value) == 1 and value[0].type == "function"))
    return True


def _declarations(source: str | Sequence[Node]) -> Declarations:
    """The longhands in force, by lower-case property name, ``var()`` substituted."""
    items = [item for item in tinycss2.parse_blocks_contents(source, skip_comments=True, skip_whitespace=True)
             if item.type == "declaration"]
    custom: dict[str, tuple[bool, list[Node]]] = {}
    for item in items:
        if item.name.startswith("--") and (item.important or not custom.get(item.name, (False,))[0]):
            custom[item.name] = (bool(item.important), significant(item.value))
    values = {name: value for name, (_important, value) in custom.items()}
    found: dict[str, tuple[bool, list[Node]]] = {}
    for item in items:
        if item.name.startswith("--"):
            continue
        value = substitute(significant(item.value), values)
        for name, longhand in _longhands(item.lower_name, value):
            if not _valid(name, longhand):
                continue
            before = found.get(name)
            if before is None or item.important or not before[0]:
                found[name] = (bool(item.important), longhand)
    return {name: value for name, (_important, value) in found.items()}


def computed(source: str | Sequence[Node]) -> Declarations:
    """The longhands in force of a declaration list (an inline ``style`` value or a
    rule's contents), by lower-case property name: custom properties substituted,
    shorthands expanded, invalid declarations dropped, ``!important`` applied (see the
    module docstring). An inset ``box-shadow`` whose spread fills the box is
    :data:`INSET_FILL`. Never raises."""
    return _declarations(source)


def _ident(value: list[Node]) -> str | None:
    return value[0].lower_value if len(value) == 1 and value[0].type == "ident" else None


def _quantity(value: list[Node]) -> tuple[float, str] | Unknown | None:
    """A length value (px, %, or a bare number as px); keywords are ``None``."""
    return length(value) if value else None


def _fraction(value: list[Node]) -> float | Unknown | None:
    found = _quantity(value)
    if found is None or isinstance(found, Unknown):
        return found
    amount, unit = found
    return amount / 100 if unit == "%" else amount


def _far(found: tuple[float, str] | Unknown | None) -> bool:
    if found is None:
        return False
    if isinstance(found, Unknown):
        return True
    value, unit = found
    if unit == "%":
        return value <= -100
    return value <= -_OFF_SCREEN_PX or value >= _FAR_PX


def _translations(found: Declarations) -> list[tuple[float, str] | Unknown | None]:
    out: list[tuple[float, str] | Unknown | None] = [length([t]) for t in found.get("translate", [])]
    for token in found.get("transform", []):
        if token.type == "function" and token.lower_name.startswith("translate"):
            out += [length(part) for part in arguments(token)]
    return out


def _moved_away(found: Declarations) -> bool:
    offsets = ("left", "right", "top", "bottom", "text-indent", "margin-left", "margin-top", "margin-right")
    if any(_far(_quantity(found[name])) for name in offsets if name in found):
        return True
    if any(_far(t) for t in _translations(found)):
        return True
    indent = _quantity(found.get("text-indent", []))
    return (isinstance(indent, tuple) and indent[1] == "%" and indent[0] >= 100) and _overflow_cut(found)


def _overflow_cut(found: Declarations) -> bool:
    values = [*found.get("overflow-x", []), *found.get("overflow-y", [])]
    return unknowable(values) or any(t.type == "ident" and t.lower_value in ("hidden", "clip") for t in values)


def _no_room(found: Declarations) -> bool:
    if not _overflow_cut(found):
        return False
    for size, paddings in (("height", ("padding-top", "padding-bottom", "padding-block")),
                           ("width", ("padding-left", "padding-right", "padding-inline"))):
        limits = [found[name] for name in (size, f"max-{size}") if name in found]
        if size == "height" and "line-height" in found and "height" not in found:
            limits.append(found["line-height"])
        padded = any((number(t) or (0.0, ""))[0] > 0 for name in (*paddings, "padding") for t in found.get(name, ()))
        for limit in limits:
            value = _quantity(limit)
            if isinstance(value, Unknown) or (not padded and value is not None and value[1] == "px"
                                               and value[0] <= 1.0):
                return True
    return False


def _cut_short(found: Declarations) -> bool:
    """Overflow cut off from a box that does not grow with its text: ``contain: size``
    (or ``strict``) sizes the box as if empty unless a size is given; a line clamp
    (``-webkit-line-clamp``) shows the first lines only (fail closed for the element)."""
    if not _overflow_cut(found):
        return False
    contain = {t.lower_value for t in found.get("contain", []) if t.type == "ident"}
    if contain & {"size", "strict"} and not ("height" in found and "width" in found):
        return True
    clamp = [*found.get("-webkit-line-clamp", []), *found.get("line-clamp", [])]
    return any(t.type == "number" or unknowable([t]) for t in clamp)


def _shrunk(found: Declarations) -> bool:
    size = _quantity(found.get("font-size", []))
    if isinstance(size, Unknown) or (size is not None and (size[0] <= _TINY_FONT_PX if size[1] == "px"
                                                          else size[0] <= 12.5)):
        return True
    zoom = _fraction(found.get("zoom", []))
    if isinstance(zoom, Unknown) or (zoom is not None and zoom < 0.1):
        return True
    matrix = transform_matrix(found.get("transform", []), found.get("rotate", []), found.get("scale", []))
    return isinstance(matrix, Unknown) or (matrix is not None and area_scale(matrix) < 0.01)


def _clipped(found: Declarations) -> bool:
    for token in found.get("clip", []):
        if token.type == "function" and token.lower_name == "rect":
            sizes = [number(t) for part in arguments(token) for t in part]
            if len(sizes) == 4 and all(s is not None for s in sizes):
                top, right, bottom, left = ((s or (0.0, ""))[0] for s in sizes)
                if right - left <= 1 or bottom - top <= 1:
                    return True
    for token in found.get("clip-path", []):
        if token.type == "url" or (token.type == "function" and token.lower_name not in (
                "inset", "circle", "ellipse", "polygon")):
            return True  # url(#shape), path(), shape(): what they leave is not read here
        if token.type != "function":
            continue
        args = [t for part in arguments(token) for t in part]
        values = [length([t]) for t in args if t.type != "ident"]
        if any(isinstance(v, Unknown) for v in values):
            return True
        if token.lower_name == "polygon":
            area = polygon_area(arguments(token))
            if isinstance(area, Unknown) or area < 1e-4:
                return True
        elif token.lower_name == "inset":
            # Percentages of the box (a 0 is 0%); other lengths need the box's size.
            shares = [v[0] if v[1] == "%" else 0.0 for v in values[:4] if isinstance(v, tuple)
                      and (v[1] == "%" or v[0] == 0)]
            sides = shares if len(shares) == len(values[:4]) else []
            if sides and (sides[0] + (sides[2] if len(sides) > 2 else sides[0]) >= 100
                          or (sides[1] if len(sides) > 1 else sides[0])
                          + (sides[3] if len(sides) > 3 else sides[1] if len(sides) > 1 else sides[0]) >= 100):
                return True
        elif values and isinstance(values[0], tuple) and values[0][0] <= 0:
            return True  # circle(0), ellipse(0 0)
    return False


def _masked(found: Declarations) -> bool:
    image = found.get("mask-image", [])
    for token in image:
        if token.type == "url" or (token.type == "function" and not token.lower_name.endswith("gradient")):
            return True  # an image the text shows through: not read here (fail closed)
        if token.type == "function":
            stops = gradient_colours(token)
            if stops is None or all(alpha < 0.1 for *_rgb, alpha in stops):
                return True
    sizes = [number(t) for t in found.get("mask-size", [])]
    return any(s is not None and s[0] == 0 for s in sizes)


def _blurred(found: Declarations) -> bool:
    for token in found.get("filter", []):
        if token.type == "url" or (token.type == "function" and token.lower_name == "url"):
            return True
        if token.type == "function" and token.lower_name == "blur":
            radius = length(token.arguments)
            if isinstance(radius, Unknown) or (radius is not None and radius[0] >= _BLUR_PX):
                return True
        if token.type == "function" and unknowable([token]):
            return True
    return False


def _faded(found: Declarations) -> bool:
    for name in ("opacity", "fill-opacity"):
        amount = _fraction(found.get(name, []))
        if isinstance(amount, Unknown) or (amount is not None and amount < 0.1):
            return True
    return False


def _fill(found: Declarations) -> Colour | Unknown | None:
    """The glyphs' colour as written (``None``: inherited, the theme's text colour)."""
    for name in ("-webkit-text-fill-color", "fill", "color"):
        if name not in found:
            continue
        if name == "fill" and _ident(found[name]) == "none":
            return (0.0, 0.0, 0.0, 0.0)
        value = colour(found[name])
        if isinstance(value, str):
            continue  # currentcolor / inherited: the next one decides
        return value
    return None


def _backgrounds(found: Declarations) -> list[Colour] | Unknown | None:
    """The colours behind the text (``None``: an image, taken as contrasting)."""
    out: list[Colour] = []
    inset = colour(found.get(_INSET_FILL, []))
    if isinstance(inset, tuple) and inset[3] >= 0.1:
        return [inset]
    own = colour(found.get("background-color", [])) if "background-color" in found else None
    if isinstance(own, Unknown):
        return UNKNOWN
    if isinstance(own, tuple) and own[3] >= 0.1:
        out.append(own)
    for token in found.get("background-image", []):
        if token.type == "url" or (token.type == "function" and token.lower_name in ("url", "image-set", "image")):
            return None
        if token.type == "function" and token.lower_name.endswith("gradient"):
            stops = gradient_colours(token)
            if stops is None:
                return UNKNOWN
            out += [s for s in stops if s[3] >= 0.1]
    return out or [(1.0, 1.0, 1.0, 1.0)]


def _blank_text(found: Declarations) -> bool:
    text = _fill(found)
    filters = found.get("filter", [])
    if not any(k in found for k in ("color", "-webkit-text-fill-color", "fill", "filter", "mix-blend-mode")):
        return False
    if isinstance(text, Unknown):
        return True
    if text is None:
        if not any(k in found for k in ("background-color", "background-image", _INSET_FILL)) and not filters:
            return blend_hides(found.get("mix-blend-mode", []))
        text = (0.0, 0.0, 0.0, 1.0)  # the theme's text colour: dark on a light page
    backgrounds = _backgrounds(found)
    if backgrounds is None:
        return False
    if isinstance(backgrounds, Unknown):
        return True
    shown_text = filtered(text, filters)
    if isinstance(shown_text, Unknown):
        return True
    if shown_text[3] < 0.1:
        stroke = length(found.get("-webkit-text-stroke-width", []))
        clipped_to_text = _ident(found.get("background-clip", [])) == "text" and "background-image" in found
        outline = colour(found.get("stroke", []))  # SVG text drawn by its outline
        stroked = isinstance(outline, tuple) and outline[3] >= 0.1
        return not (clipped_to_text or stroked or (isinstance(stroke, tuple) and stroke[0] > 0))
    if blend_hides(found.get("mix-blend-mode", [])):
        return True
    own = any(k in found for k in ("background-color", "background-image", _INSET_FILL))
    behind = [filtered(b, filters) if own else b for b in backgrounds]
    return all(isinstance(b, tuple) and contrast(shown_text, (*b[:3], 1.0)) < LOW_CONTRAST for b in behind)


@dataclass(frozen=True)
class Nesting:
    """What an element passes on to its descendants, multiplied down the element stack:
    ``opacity: 0.3`` inside ``opacity: 0.3`` draws at 0.09, ``font-size: 30%`` inside
    ``30%`` at 9 %, ``scale(0.1)`` inside ``scale(0.1)`` keeps 0.01 % of the area.

    Attributes:
        opacity: the fraction of opacity left (1: opaque).
        font: the font size as a fraction of the page's (1: 16px).
        area: the fraction of the area a transform keeps (1: unchanged).
    """

    opacity: float = 1.0
    font: float = 1.0
    area: float = 1.0

    def within(self, parent: Nesting, absolute_font: bool) -> Nesting:
        """This element's own factors compounded with its parent's (a font size in
        absolute units does not compound)."""
        return Nesting(self.opacity * parent.opacity, self.font if absolute_font else self.font * parent.font,
                       self.area * parent.area)

    def reason(self) -> str | None:
        """Why the compounded factors hide the text (the thresholds of
        :func:`hiding_reason`), else ``None``."""
        if self.opacity < 0.1:
            return "opacity compounded through nesting below 0.1"
        if self.font <= 0.125:
            return "text too small to read (font size compounded through nesting)"
        if self.area < 0.01:
            return "text too small to read (transform scale compounded through nesting)"
        return None


def nesting(style: str | Sequence[Node]) -> tuple[Nesting, bool]:
    """An element's own opacity, font size and transform scale as fractions (see
    :class:`Nesting`), and whether its font size is absolute (px, rem, a keyword). A value
    not known here counts as 1 (the element's own check fails closed on it)."""
    found = _declarations(style)
    opacity = _fraction(found.get("opacity", []))
    own_opacity = opacity if isinstance(opacity, float) else 1.0
    size, absolute = 1.0, False
    value = found.get("font-size", [])
    if len(value) == 1 and value[0].type == "percentage":
        size = float(value[0].value) / 100
    elif len(value) == 1 and value[0].type == "dimension" and value[0].lower_unit in ("em", "ex", "ch", "cap"):
        size = float(value[0].value) * NOMINAL_PX[value[0].lower_unit] / 16
    elif len(value) == 1 and value[0].type == "ident" and value[0].lower_value == "smaller":
        size = 0.83
    elif value:
        found_size = length(value)
        if isinstance(found_size, tuple) and found_size[1] == "px":
            size, absolute = found_size[0] / 16, True
    matrix = transform_matrix(found.get("transform", []), found.get("rotate", []), found.get("scale", []))
    area = area_scale(matrix) if matrix is not None and not isinstance(matrix, Unknown) else 1.0
    return Nesting(max(own_opacity, 0.0), max(size, 0.0), area), absolute


def background_css(style: str | Sequence[Node]) -> str | None:
    """The declarations that paint an element's background (``background-color``,
    ``background-image``, an inset box shadow filling it), as CSS its descendants'
    text is compared with; ``None`` when it paints none (the text shows what is behind)."""
    found = _declarations(style)
    painted = [(name, found[name]) for name in ("background-color", "background-image") if name in found]
    inset = found.get(_INSET_FILL)
    if inset:
        return f"background-color: {tinycss2.serialize(inset)}"
    colours = _backgrounds(found) if painted else None
    if not painted or (isinstance(colours, list) and colours == [(1.0, 1.0, 1.0, 1.0)]
                       and "background-image" not in found
                       and not isinstance(colour(found.get("background-color", [])), tuple)):
        return None
    return "; ".join(f"{name}: {tinycss2.serialize(value)}" for name, value in painted)


def hiding_reason(style: str | Sequence[Node]) -> str | None:
    """Why a declaration list (an inline ``style`` value, or a rule's contents) hides its
    element's text from a reader, as a short phrase (``"display: none"``); ``None`` when
    the text is shown. Never raises: CSS a browser would drop is dropped here too.
    A value only the site decides (see the module docstring) hides."""
    found = _declarations(style)
    if not found:
        return None
    display, visibility = found.get("display", []), found.get("visibility", [])
    content = found.get("content-visibility", [])
    checks = (
        ("display: none", _ident(display) == "none" or unknowable(display)),
        ("visibility: hidden", _ident(visibility) in ("hidden", "collapse") or unknowable(visibility)),
        ("content-visibility: hidden", _ident(content) == "hidden" or unknowable(content)),
        ("opacity: 0", _faded(found)),
        ("text too small to read", _shrunk(found)),
        ("moved off screen", _moved_away(found)),
        ("clipped away", _clipped(found)),
        ("masked away", _masked(found)),
        ("blurred or filtered away", _blurred(found)),
        ("no room, overflow hidden", _no_room(found)),
        ("contained or line-clamped, overflow hidden", _cut_short(found)),
        ("text coloured as its background", _blank_text(found)),
    )
    reason = next((reason for reason, hides in checks if hides), None)
    if reason is not None and any(unknowable(value) for value in found.values()):
        reason += " (or a value only the site's styles decide: fail closed)"
    return reason
