"""Boxes a site paints over text: an opaque overlay, for :mod:`provider.wiki.hidden_html`.

Text is hidden by what is painted on top of it as surely as by ``display: none``. The
stated rule (:func:`cover`): **a box that is moved over other content — taken out of the
flow (``position: absolute|fixed``), shifted (``position: relative`` with an offset, a
``transform``, ``translate``/``scale``/``rotate``, a negative margin of at least
:data:`PULL_PX`) or stacked into a grid cell (``grid-area``, ``grid-row``,
``grid-column``) — not pushed behind the page (``z-index`` below 0), whose opaque painted
area is at least :data:`WIDE_PX` × :data:`TALL_PX`, hides the text under it.**

* *Painted area*, per axis: the content size (``width``/``height`` with ``min-*`` and
  ``max-*``; an out-of-flow box with both offsets set spans its containing block minus
  them; an in-flow or grid box without a width spans its block) plus padding and border,
  and for each ring painted outside it — ``outline`` (width and offset) and an outer
  ``box-shadow`` (spread and offset) — the ring's extent; all multiplied by the scale of
  the box's transform (``scale(500)`` of a 2px box paints 1000px; ``scale(0)`` nothing)
  and its ``zoom``. Percentages and relative units are converted with a nominal
  containing block of :data:`BLOCK_PX` (and :data:`provider.wiki.css_values.NOMINAL_PX`).
* *Opaque* (alpha at least :data:`OPAQUE`, the box's ``opacity`` multiplied in): a
  background colour (a keyword such as ``currentcolor`` or ``Canvas`` too, and a colour
  only the site decides, ``rgb(from white r g b)``), a gradient's stops, a background
  image, an inset ``box-shadow`` filling the box, a ``border-image`` with ``fill``, a
  ``backdrop-filter`` (it blurs or recolours what is behind the box), a replaced element
  (``<img>``, ``<svg>``…: what it draws is not read here); a border, outline or outer
  shadow in an opaque colour (``currentcolor`` when unset) counts when its ring is at
  least as thick as what it surrounds (a 0×0 box with a 5000px border paints a solid
  square).
* *Not painted*: ``display: none``, ``visibility: hidden``, ``opacity`` below
  :data:`OPAQUE`, a ``clip-path``/``mask`` leaving nothing, a ``::before``/``::after``
  without ``content``.
* Fail closed: a value the reader cannot evaluate here — ``var()`` not resolved, a
  function or unit it does not know, ``max(100%, 10px)`` — in ``position``, an offset,
  a size, a transform or a ``z-index`` of a box that is moved over content counts as
  covering; the same value on a box in the flow covers nothing.

Which text is under the box, and whether text is painted above it (a later
positioned sibling, a higher ``z-index``), is decided by :mod:`provider.wiki.hidden_html`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import tinycss2
from tinycss2.ast import Node

from .css_geometry import transform_matrix
from .css_values import UNKNOWN, Unknown, colour, length, significant, unknowable
from .css_visual import gradient_colours
from .hidden_css import INSET_FILL, Declarations, computed, hiding_reason

__all__ = ["BLOCK_PX", "OPAQUE", "PULL_PX", "REPLACED", "TALL_PX", "WIDE_PX", "Cover", "cover", "cover_reason",
           "isolates", "positions", "stacking"]

#: Alpha at or above which a painted box hides the text under it (a white veil of 0.9
#: over black text leaves a contrast of about 1.2: below
#: :data:`~provider.wiki.hidden_css.LOW_CONTRAST`).
OPAQUE: Final = 0.9
#: The nominal containing block percentages are taken of (px, width and height).
BLOCK_PX: Final = (640.0, 480.0)
#: A painted area at least this wide and this tall hides text (a line is 24px tall; a
#: badge or an icon is narrower, a progress bar or a rule thinner).
WIDE_PX: Final = 240.0
TALL_PX: Final = 24.0
#: A negative margin at least this large pulls a box over the line before it.
PULL_PX: Final = 24.0
#: Elements whose content is drawn, not text: opaque when they cover (fail closed).
REPLACED = frozenset({"img", "svg", "video", "canvas", "iframe", "picture", "object", "embed"})
_OUT_OF_FLOW = frozenset({"absolute", "fixed"})
_POSITIONED = frozenset({"relative", "absolute", "fixed", "sticky"})
_GONE = ("display: none", "visibility: hidden", "content-visibility: hidden", "opacity: 0", "clipped away",
         "masked away")
_BORDER_STYLES = frozenset({"solid", "double", "dotted", "dashed", "groove", "ridge", "inset", "outset", "auto"})
_BORDER_WIDTHS = {"thin": 1.0, "medium": 3.0, "thick": 5.0}
_GRID = ("grid-area", "grid-row", "grid-column", "grid-row-start", "grid-row-end", "grid-column-start",
         "grid-column-end")
_COLOUR_FUNCTIONS = frozenset({"rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color",
                               "color-mix", "light-dark", "var", "env", "attr"})

#: A length on one axis in px, or :data:`~provider.wiki.css_values.UNKNOWN`.
Size = float | Unknown


@dataclass(frozen=True)
class Cover:
    """A box painting an opaque area over other content.

    Attributes:
        reason: why, as a phrase for the finding.
        out_of_flow: ``position: absolute|fixed`` (its containing block is what it
            covers); otherwise it is shifted or stacked over the content around it.
        z: its ``z-index`` (``auto``: 0; ``None``: only the site decides).
    """

    reason: str
    out_of_flow: bool
    z: float | None


def _ident(value: Sequence[Node]) -> str | None:
    parts = significant(value)
    return parts[0].lower_value if len(parts) == 1 and parts[0].type == "ident" else None


def _px(value: Sequence[Node], axis: int) -> Size | None:
    """One length in px (a percentage of :data:`BLOCK_PX`); ``None`` for ``auto`` or
    nothing; :data:`UNKNOWN` for a value not evaluated here (a function, a unit)."""
    parts = significant(value)
    if not parts or _ident(parts) is not None:
        return None
    found = length(parts)
    if isinstance(found, Unknown):
        return UNKNOWN
    if found is None:
        # ``max(100%, 10px)``, ``calc(100% + 5px)``, an unknown unit: fail closed.
        return UNKNOWN if any(t.type in ("function", "dimension") for t in parts) else None
    amount, unit = found
    if unit == "%":
        return amount / 100 * BLOCK_PX[axis]
    return amount if unit == "px" else UNKNOWN


def _add(*sizes: Size) -> Size:
    total = 0.0
    for size in sizes:
        if isinstance(size, Unknown):
            return UNKNOWN
        total += size
    return total


def _box_values(value: Sequence[Node]) -> list[list[Node]]:
    parts = significant(value)
    return [[t] for t in parts] if not unknowable(parts) else [list(parts)] * 4


def _sides(found: Declarations, name: str, axis: int) -> Size:
    """The sum of a box property's two sides on an axis (``padding`` and longhands)."""
    first, second = ("left", "right") if axis == 0 else ("top", "bottom")
    logical = "inline" if axis == 0 else "block"
    values: dict[str, Size] = {}
    shorthand = _box_values(found.get(name, []))
    if 1 <= len(shorthand) <= 4:
        top = shorthand[0]
        right = shorthand[1] if len(shorthand) > 1 else top
        bottom = shorthand[2] if len(shorthand) > 2 else top
        left = shorthand[3] if len(shorthand) > 3 else right
        picked = (left, right) if axis == 0 else (top, bottom)
        for side, value in zip((first, second), picked, strict=True):
            values[side] = _px(value, 0) or 0.0
    for both in (f"{name}-{logical}",):
        pair = _box_values(found.get(both, []))
        if pair:
            values[first], values[second] = _px(pair[0], 0) or 0.0, _px(pair[-1], 0) or 0.0
    for side, alias in ((first, f"{name}-{logical}-start"), (second, f"{name}-{logical}-end")):
        for key in (f"{name}-{side}", alias):
            if key in found:
                values[side] = _px(found[key], 0) or 0.0
    return _add(*(max(v, 0.0) if isinstance(v, float) else v for v in values.values()))


def _size(found: Declarations, axis: int) -> Size | None:
    """The content size on an axis (``None``: ``auto``)."""
    name = "width" if axis == 0 else "height"
    size, low, high = (_px(found.get(n, []), axis) for n in (name, f"min-{name}", f"max-{name}"))
    if isinstance(size, Unknown) or isinstance(low, Unknown):
        return UNKNOWN
    if size is not None and isinstance(high, float):
        size = min(size, high)
    if low is not None and (size is None or low > size):
        size = low
    return size


def _line(found: Declarations, prefix: str) -> tuple[Size, bool]:
    """The width of a border or outline (the widest side, px) and whether it is painted
    in an opaque colour: a style other than ``none``/``hidden`` set, its colour opaque
    (``currentcolor`` when unset) or only the site's."""
    width: Size = 0.0
    styled = opaque = False
    painted_colour = True
    for name, value in found.items():
        if not (name == prefix or name.startswith(f"{prefix}-")) or name in ("outline-offset", "border-radius"):
            continue
        if "image" in name or "collapse" in name or "spacing" in name or "radius" in name:
            continue
        for token in significant(value):
            if token.type == "ident" and token.lower_value in _BORDER_STYLES:
                styled = True
            elif token.type == "ident" and token.lower_value in _BORDER_WIDTHS:
                named = _BORDER_WIDTHS[token.lower_value]
                width = width if isinstance(width, Unknown) else max(width, named)
            elif token.type in ("dimension", "number") or (token.type == "function" and token.lower_name in (
                    "calc", "min", "max", "clamp")):
                found_px = _px([token], 0)
                if isinstance(found_px, Unknown) or isinstance(width, Unknown):
                    width = UNKNOWN
                elif found_px is not None:
                    width = max(width, found_px)
            elif unknowable([token]):
                styled, width = True, UNKNOWN
            else:
                shade = colour([token])
                if isinstance(shade, tuple):
                    painted_colour = shade[3] >= OPAQUE
                elif shade is not None:
                    painted_colour = True
        opaque = styled and painted_colour
    if styled and width == 0.0 and prefix == "border" and not any(
            t.type in ("dimension", "number") for v in found.values() for t in v):
        width = _BORDER_WIDTHS["medium"]
    return width, opaque


def _shadow(found: Declarations) -> tuple[Size, Size, bool]:
    """An outer ``box-shadow``'s extent beyond the box per axis (spread on both sides
    and the offset) and whether it is opaque (``currentcolor`` when no colour)."""
    best: tuple[Size, Size, bool] = (0.0, 0.0, False)
    shadow: list[Node] = []
    for token in [*significant(found.get("box-shadow", [])), None]:
        if token is not None and not (token.type == "literal" and token.value == ","):
            shadow.append(token)
            continue
        if any(t.type == "ident" and t.lower_value == "inset" for t in shadow) or not shadow:
            shadow = []
            continue
        if unknowable(shadow):
            return UNKNOWN, UNKNOWN, True
        measures = [t for t in shadow if t.type in ("dimension", "number")
                    or (t.type == "function" and t.lower_name in _MATH)]
        sizes = [_px([t], 0) for t in measures]
        shades = [colour([t]) for t in shadow if t not in measures and colour([t]) is not None]
        opaque = not shades or not isinstance(shades[-1], tuple) or shades[-1][3] >= OPAQUE
        x, y = [*sizes, 0.0, 0.0][:2]
        spread = sizes[3] if len(sizes) > 3 else 0.0
        both: Size = 2 * spread if isinstance(spread, float) else UNKNOWN
        grow_x = _add(abs(x) if isinstance(x, float) else x or 0.0, both)
        grow_y = _add(abs(y) if isinstance(y, float) else y or 0.0, both)
        if opaque and (isinstance(spread, Unknown) or (isinstance(spread, float) and spread > 0)):
            best = (grow_x, grow_y, True)
        shadow = []
    return best


def _alpha(found: Declarations) -> float:
    value = length(found.get("opacity", [])) if "opacity" in found else None
    if value is None or isinstance(value, Unknown):
        return 1.0  # unknown: fail closed (opaque)
    amount, unit = value
    return max(0.0, min(1.0, amount / 100 if unit == "%" else amount))


def _fill(found: Declarations, replaced: bool) -> str | None:
    """What opaque thing fills the box (its border box), or ``None``."""
    alpha = _alpha(found)
    if replaced:
        return "an image"
    for name, what in ((INSET_FILL, "an inset box shadow"), ("background-color", "a background colour")):
        value = colour(found[name]) if name in found else None
        # A keyword (``currentcolor``, a system colour such as ``Canvas``) is the
        # theme's, opaque in every theme: fail closed.
        if isinstance(value, (Unknown, str)) or (isinstance(value, tuple) and value[3] * alpha >= OPAQUE):
            return what
    for token in found.get("background-image", []):
        if token.type == "url" or (token.type == "function" and token.lower_name in ("url", "image-set", "image")):
            return "a background image"
        if token.type == "function" and token.lower_name.endswith("gradient"):
            stops = gradient_colours(token)
            if stops is None or all(stop[3] * alpha >= OPAQUE for stop in stops):
                return "a background gradient"
        elif token.type == "function" and token.lower_name in _COLOUR_FUNCTIONS and colour([token]) is UNKNOWN:
            return "a background colour only the site's styles decide"
        if unknowable([token]):
            return "a background only the site's styles decide"
    image = [t for name in ("border-image", "border-image-source", "border-image-slice", "-webkit-border-image")
             for t in significant(found.get(name, []))]
    if any(t.type == "ident" and t.lower_value == "fill" for t in image) and any(
            t.type == "url" or t.type == "function" for t in image):
        return "a border image filling the box"
    backdrop = significant([*found.get("backdrop-filter", []), *found.get("-webkit-backdrop-filter", [])])
    if backdrop and _ident(backdrop) not in ("none", *_GLOBAL):
        return "a backdrop filter"
    return None


_MATH = ("calc", "min", "max", "clamp")
_GLOBAL = ("inherit", "initial", "unset", "revert", "revert-layer")


def _scale(found: Declarations) -> tuple[Size, Size]:
    """How much the box's transform (and ``zoom``) scales it on each axis."""
    matrix = transform_matrix(found.get("transform", []), found.get("rotate", []), found.get("scale", []))
    if isinstance(matrix, Unknown):
        return UNKNOWN, UNKNOWN
    zoom = length(found.get("zoom", [])) if "zoom" in found else None
    factor = 1.0
    if isinstance(zoom, Unknown):
        return UNKNOWN, UNKNOWN
    if zoom is not None and zoom[1] in ("px", "%") and zoom[0] > 0:
        factor = zoom[0] / 100 if zoom[1] == "%" else zoom[0]
    if matrix is None:
        return factor, factor
    a, b, c, d = matrix[0], matrix[1], matrix[4], matrix[5]
    # A rotated box's bounding extent: a 45° turn of a wide bar covers a square.
    return (abs(a) + abs(c)) * factor, (abs(b) + abs(d)) * factor


def _moved(found: Declarations, kind: str | None, atomic: bool) -> str | None:
    """How an in-flow box is moved over the content around it, or ``None``. A block
    pulled by a negative margin is painted under the text of the blocks before it (CSS
    paints every block's background before any line of text); it covers only when
    painted whole in its turn (``atomic``: a replaced element, a flex or grid item; or
    positioned, a stacking context, an inline block)."""
    if kind == "relative":
        for name in ("top", "bottom", "left", "right"):
            offset = _px(found.get(name, []), 0)
            if isinstance(offset, Unknown) or (isinstance(offset, float) and abs(offset) >= 1):
                return "a shifted"
    transform = [*found.get("transform", []), *found.get("translate", []), *found.get("scale", []),
                 *found.get("rotate", [])]
    if any(t.type == "function" or (t.type in ("dimension", "number", "percentage")) for t in transform):
        return "a transformed"
    display = found.get("display", [])
    whole = (atomic or kind is not None or unknowable(display) or (_ident(display) or "").startswith("inline-")
             or isolates_found(found))
    for name in ("margin-top", "margin-bottom", "margin-left", "margin-right"):
        if not whole:
            break
        margin = _px(found.get(name, []), 0)
        if isinstance(margin, Unknown) or (isinstance(margin, float) and margin <= -PULL_PX):
            return "a negatively margined"
    if any(name in found and _ident(found[name]) != "auto" for name in _GRID):
        return "a grid-stacked"
    return None


def _axis(found: Declarations, axis: int, spans: bool, kind: str | None) -> tuple[Size, Size]:
    """The border box and the inner (padding) box extent on an axis."""
    start, end = ("left", "right") if axis == 0 else ("top", "bottom")
    size = _size(found, axis)
    if size is None:
        offsets = (_px(found.get(start, []), axis), _px(found.get(end, []), axis))
        if kind in _OUT_OF_FLOW and all(o is not None for o in offsets):
            size = _add(BLOCK_PX[axis], *(-o if isinstance(o, float) else UNKNOWN for o in offsets))
        elif spans:
            size = BLOCK_PX[axis]
        else:
            size = 0.0
    if isinstance(size, float):
        size = max(size, 0.0)
    inner = _add(size, _sides(found, "padding", axis))
    border, _opaque = _line(found, "border")
    return _add(inner, 2 * border if isinstance(border, float) else UNKNOWN), inner


def _covers(extent: tuple[Size, Size]) -> bool:
    x, y = extent
    return (isinstance(x, Unknown) or x >= WIDE_PX) and (isinstance(y, Unknown) or y >= TALL_PX)


def _ring_fills(outer: Size, inner: Size) -> bool:
    if isinstance(outer, Unknown) or isinstance(inner, Unknown):
        return True
    return outer - inner >= inner


def cover(style: str | Sequence[Node], replaced: bool = False, generated: bool = False,
          atomic: bool = False) -> Cover | None:
    """Whether a box with these declarations (an inline ``style``, or the cascaded
    declarations of an element or of a ``::before``/``::after``, ``generated``) paints
    an opaque area over other content (see the module docstring); ``replaced``: the box
    is an ``<img>``, ``<svg>``… (:data:`REPLACED`); ``atomic``: it is painted whole in
    its turn (a flex or grid item, a replaced element). Never raises."""
    found = computed(style)
    if not found:
        return None
    if generated and _ident(found.get("content", [])) in (None, "none", "normal") and not unknowable(
            found.get("content", [])) and not any(t.type != "ident" for t in significant(found.get("content", []))):
        return None
    position = found.get("position", [])
    kind = _ident(position)
    out_of_flow = kind in _OUT_OF_FLOW or unknowable(position)
    moved = "an absolutely positioned" if kind == "absolute" else "a fixed" if kind == "fixed" else (
        "a positioned" if out_of_flow else _moved(found, kind, atomic or replaced))
    if moved is None:
        return None
    gone = hiding_reason(found_css(found))
    if gone is not None and gone.startswith(_GONE) and "fail closed" not in gone:
        return None
    if _alpha(found) < OPAQUE:
        return None
    depth = length(found.get("z-index", [])) if "z-index" in found else None
    if isinstance(depth, tuple) and depth[0] < 0:
        return None
    z = None if isinstance(depth, Unknown) or (depth is None and "z-index" in found
                                                and _ident(found["z-index"]) != "auto") else (
        depth[0] if isinstance(depth, tuple) else 0.0)
    spans = not out_of_flow and not replaced
    scale_x, scale_y = _scale(found)
    boxes = [_axis(found, axis, spans and (axis == 0 or moved == "a grid-stacked"), kind) for axis in (0, 1)]
    if replaced and all(_size(found, axis) is None for axis in (0, 1)):
        boxes = [(UNKNOWN, UNKNOWN), (UNKNOWN, UNKNOWN)]  # its own size, not known here: fail closed

    def scaled(x: Size, y: Size) -> tuple[Size, Size]:
        return (UNKNOWN if isinstance(x, Unknown) or isinstance(scale_x, Unknown) else x * scale_x,
                UNKNOWN if isinstance(y, Unknown) or isinstance(scale_y, Unknown) else y * scale_y)

    border_box = scaled(boxes[0][0], boxes[1][0])
    inner_box = scaled(boxes[0][1], boxes[1][1])
    paint = _fill(found, replaced)
    if paint is not None and _covers(border_box):
        return Cover(f"covered by {moved} box painting {paint} over it", out_of_flow, z)
    _width, border_opaque = _line(found, "border")
    if border_opaque and _covers(border_box) and all(
            _ring_fills(o, i) for o, i in zip(border_box, inner_box, strict=True)):
        return Cover(f"covered by {moved} box painting a wide border over it", out_of_flow, z)
    outline, outline_opaque = _line(found, "outline")
    offset = _px(found.get("outline-offset", []), 0) or 0.0
    if outline_opaque:
        grow = _add(outline, offset if isinstance(offset, Unknown) else max(offset, 0.0))
        ring = scaled(*(_add(b, 2 * grow if isinstance(grow, float) else UNKNOWN) for b in (boxes[0][0], boxes[1][0])))
        if _covers(ring) and all(_ring_fills(o, i) for o, i in zip(ring, border_box, strict=True)):
            return Cover(f"covered by {moved} box painting a wide outline over it", out_of_flow, z)
    grow_x, grow_y, shadow_opaque = _shadow(found)
    if shadow_opaque:
        ring = scaled(_add(boxes[0][0], grow_x), _add(boxes[1][0], grow_y))
        if _covers(ring) and all(_ring_fills(o, i) for o, i in zip(ring, border_box, strict=True)):
            return Cover(f"covered by {moved} box painting a wide box shadow over it", out_of_flow, z)
    return None


def found_css(found: Declarations) -> str:
    """Declarations in force written back as CSS (for :func:`hiding_reason`)."""
    import tinycss2

    return "; ".join(f"{name}: {tinycss2.serialize(value)}" for name, value in found.items()
                     if not name.startswith("-inset"))


def cover_reason(style: str | Sequence[Node], replaced: bool = False) -> str | None:
    """Why a box with these declarations hides the text under it (:func:`cover`), as a
    phrase; ``None`` when it does not cover. Never raises."""
    found = cover(style, replaced)
    return found.reason if found is not None else None


def positions(style: str | Sequence[Node]) -> bool:
    """Whether these declarations make the element a containing block for an absolutely
    positioned descendant: a ``position`` other than ``static`` (or one only the site
    decides), or a ``transform``."""
    found = computed(style)
    position = found.get("position", [])
    kind = _ident(position)
    transform = found.get("transform", [])
    moved = bool(transform) and not (len(transform) == 1 and transform[0].type == "ident")
    return kind in _POSITIONED or unknowable(position) or moved


#: Properties that make a box a stacking context of its own (with a value other than
#: their initial one): nothing inside it is painted above what it is painted below.
_ISOLATING = {"opacity": ("1",), "transform": ("none",), "translate": ("none",), "scale": ("none",),
              "rotate": ("none",), "filter": ("none",), "backdrop-filter": ("none",), "isolation": ("auto",),
              "mix-blend-mode": ("normal",), "will-change": ("auto",), "contain": ("none",),
              "clip-path": ("none",), "mask-image": ("none",), "perspective": ("none",)}


def isolates(style: str | Sequence[Node]) -> bool:
    """Whether a box is a stacking context of its own: positioned with a ``z-index``
    other than ``auto``, or one of :data:`_ISOLATING` set to a value other than its
    initial one (a value not read here counts: fail closed)."""
    return isolates_found(computed(style))


def isolates_found(found: Declarations) -> bool:
    """:func:`isolates` of declarations already read."""
    if _ident(found.get("position", [])) in _POSITIONED and "z-index" in found and _ident(found["z-index"]) != "auto":
        return True
    for name, initial in _ISOLATING.items():
        value = significant(found.get(name, []))
        if value and _text(value) not in (*initial, *_GLOBAL):
            return True
    return False


def _text(value: Sequence[Node]) -> str:
    return str(tinycss2.serialize(value)).strip().lower()


def stacking(style: str | Sequence[Node]) -> float | None:
    """Where a box is painted among positioned boxes: its ``z-index`` (``auto``: 0) when
    it is positioned, else ``None`` (painted below every positioned box)."""
    found = computed(style)
    kind = _ident(found.get("position", []))
    if kind not in _POSITIONED:
        return None
    depth = length(found.get("z-index", [])) if "z-index" in found else None
    return depth[0] if isinstance(depth, tuple) else 0.0
