"""CSS values as a browser computes them, for :mod:`provider.wiki.hidden_css`: lengths,
numbers and angles (``calc()``, ``min()``, ``max()``, ``clamp()`` evaluated), custom
properties (``var()``) substituted, colours read by CSS Color 4 (tinycss2) and compared
by contrast.

A value this module cannot work out — a ``var()`` no declaration of the same list
defines, ``env()``, ``attr()``, a function it does not know — is :data:`UNKNOWN`, never a
guess: the caller decides (for a property that can hide text it fails closed). A value
that is plainly not of the property's type (``display: blahblah``) is ``None``: the
browser drops that declaration, and so does the caller.

Lengths are in CSS pixels. Relative units are converted with a nominal reader's screen
(:data:`NOMINAL_PX`: 16px font, a 1280×800 window); percentages stay percentages
(their base is the element's box, unknown here).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

import tinycss2
import tinycss2.color4
from tinycss2.ast import Node

__all__ = ["GLOBAL_KEYWORDS", "NOMINAL_PX", "UNKNOWN", "Colour", "Unknown", "angle_deg", "arguments", "colour",
           "colour_alpha", "contrast", "length", "number", "significant", "substitute", "unknowable"]


class Unknown:
    """The type of :data:`UNKNOWN`: a value only the site's own stylesheets or scripts
    decide."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Final = Unknown()

#: Keywords every property takes: they give an inherited or initial value, none hides.
GLOBAL_KEYWORDS = frozenset({"inherit", "initial", "unset", "revert", "revert-layer"})
#: Pixels per unit on a nominal reader's screen (16px text, a 1280×800 window).
NOMINAL_PX = {"px": 1.0, "pt": 4 / 3, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "q": 96 / 101.6,
              "em": 16.0, "rem": 16.0, "ch": 8.0, "ex": 8.0, "cap": 11.0, "ic": 16.0, "lh": 24.0, "rlh": 24.0,
              "vw": 12.8, "vh": 8.0, "vi": 12.8, "vb": 8.0, "vmin": 8.0, "vmax": 12.8, "svw": 12.8, "svh": 8.0,
              "lvw": 12.8, "lvh": 8.0, "dvw": 12.8, "dvh": 8.0, "cqw": 12.8, "cqh": 8.0, "cqi": 12.8, "cqb": 8.0,
              "cqmin": 8.0, "cqmax": 12.8}
_DEG_PER_UNIT = {"deg": 1.0, "rad": 180 / math.pi, "grad": 0.9, "turn": 360.0}
#: Functions whose value depends on the site or the reader, never on the text of the style.
_UNKNOWABLE = frozenset({"var", "env", "attr", "if", "random", "sibling-index", "sibling-count", "anchor",
                         "anchor-size", "light-dark", "color-mix", "contrast-color", "progress", "media-progress",
                         "container-progress", "calc-size"})
_MATH = frozenset({"calc", "min", "max", "clamp", "-webkit-calc", "-moz-calc"})

#: ``(value, unit)``: a number (unit ``""``), a percentage (``"%"``) or a length in px.
Quantity = tuple[float, str]


def significant(tokens: Sequence[Node]) -> list[Node]:
    """``tokens`` without whitespace and comments."""
    return [t for t in tokens if t.type not in ("whitespace", "comment")]


def arguments(function: Node) -> list[list[Node]]:
    """A function's arguments, split at commas, each without whitespace."""
    out: list[list[Node]] = [[]]
    for token in significant(function.arguments):
        if token.type == "literal" and token.value == ",":
            out.append([])
        else:
            out[-1].append(token)
    return out if out != [[]] else []


def unknowable(tokens: Sequence[Node]) -> bool:
    """Whether ``tokens`` hold a function only the site or the reader decides (``var()``
    left after :func:`substitute`, ``env()``, ``attr()``…), at any depth."""
    for token in tokens:
        if token.type == "function" and token.lower_name in _UNKNOWABLE:
            return True
        inner = token.arguments if token.type == "function" else getattr(token, "content", None)
        if isinstance(inner, list) and unknowable(inner):
            return True
    return False


def substitute(tokens: Sequence[Node], custom: dict[str, list[Node]], depth: int = 0) -> list[Node]:
    """``tokens`` with each ``var(--x)`` replaced by the custom property ``--x`` that the
    same declaration list defines (``custom``); a ``var()`` of one it does not define is
    left in place (its value is the site's: :func:`unknowable`), fallback or not — the
    site's stylesheet may define it."""
    out: list[Node] = []
    for token in tokens:
        if token.type == "function" and token.lower_name == "var" and depth < 8:
            parts = significant(token.arguments)
            name = parts[0].value if parts and parts[0].type == "ident" else ""
            if name in custom:
                out.extend(substitute(custom[name], custom, depth + 1))
                continue
        out.append(token)
    return out


def number(token: Node) -> Quantity | None:
    """``(value, unit)`` of a number, percentage or dimension token (unit lower case,
    ``""`` for a number)."""
    if token.type == "number":
        return float(token.value), ""
    if token.type == "percentage":
        return float(token.value), "%"
    if token.type == "dimension":
        return float(token.value), token.lower_unit
    return None


def _in_px(found: Quantity) -> Quantity | None:
    value, unit = found
    if unit in ("", "%"):
        return found
    if unit in NOMINAL_PX:
        return value * NOMINAL_PX[unit], "px"
    if unit in _DEG_PER_UNIT:
        return value * _DEG_PER_UNIT[unit], "deg"
    return None


def _combine(a: Quantity, b: Quantity, operator: str) -> Quantity | None:
    (x, ux), (y, uy) = a, b
    if operator in "+-":
        if ux != uy and not (x == 0 and not ux) and not (y == 0 and not uy):
            return None  # px + % needs the element's box: not known here
        return (x + y if operator == "+" else x - y), ux or uy
    if operator == "*":
        return (x * y, ux or uy) if not (ux and uy) else None
    if uy or y == 0:
        return None
    return x / y, ux


def _evaluate(tokens: list[Node]) -> Quantity | Unknown | None:
    """The value of a ``calc()`` expression (a sum of products), in px / % / deg."""
    terms: list[Quantity | str] = []
    for token in tokens:
        if token.type == "literal" and token.value in "+-*/":
            terms.append(token.value)
            continue
        value = _component(token)
        if value is None or isinstance(value, Unknown):
            return value
        terms.append(value)
    if not terms or isinstance(terms[0], str) or isinstance(terms[-1], str):
        return None
    # Products first, then sums, as CSS (and arithmetic) does.
    for operators in ("*/", "+-"):
        index = 1
        while index < len(terms):
            operator, left, right = terms[index], terms[index - 1], terms[index + 1] if index + 1 < len(terms) else ""
            if not isinstance(operator, str) or isinstance(left, str) or isinstance(right, str):
                return None
            if operator in operators:
                combined = _combine(left, right, operator)
                if combined is None:
                    return None
                terms[index - 1: index + 2] = [combined]
            else:
                index += 2
    return terms[0] if len(terms) == 1 and not isinstance(terms[0], str) else None


def _component(token: Node) -> Quantity | Unknown | None:
    if token.type == "function" and token.lower_name in _UNKNOWABLE:
        return UNKNOWN
    if token.type == "() block":
        return _evaluate(significant(token.content))
    if token.type == "function" and token.lower_name in _MATH:
        values = [_evaluate(part) for part in arguments(token)]
        if any(isinstance(v, Unknown) for v in values):
            return UNKNOWN
        found = [v for v in values if v is not None and not isinstance(v, Unknown)]
        if len(found) != len(values) or not found or len({unit for _, unit in found}) > 1:
            return None
        name = token.lower_name.rsplit("-", 1)[-1]
        if name == "calc" and len(found) == 1:
            return found[0]
        if name == "clamp" and len(found) == 3:
            low, middle, high = (v for v, _ in found)
            return max(low, min(middle, high)), found[0][1]
        if name in ("min", "max"):
            pick = min if name == "min" else max
            return pick(v for v, _ in found), found[0][1]
        return None
    if token.type == "ident" and token.lower_value in ("pi", "e", "infinity", "-infinity"):
        return {"pi": math.pi, "e": math.e, "infinity": math.inf, "-infinity": -math.inf}[token.lower_value], ""
    quantity = number(token)
    return _in_px(quantity) if quantity is not None else None


def length(tokens: Sequence[Node]) -> Quantity | Unknown | None:
    """One length, percentage or number (a bare number as px: React writes
    ``left: -9999``), maths evaluated, in px (``"px"``), ``"%"`` or ``""``; an angle
    in ``"deg"``. :data:`UNKNOWN` when it holds a value only the site knows; ``None``
    when ``tokens`` are not one such value."""
    parts = significant(tokens)
    if len(parts) != 1:
        return UNKNOWN if unknowable(parts) else None
    found = _component(parts[0])
    if found is None or isinstance(found, Unknown):
        return found
    value, unit = found
    return (value, "px") if unit == "" else found


def angle_deg(token: Node) -> float | None:
    """An angle token (``90deg``, ``0.25turn``, ``0``) in degrees."""
    found = _component(token)
    if found is None or isinstance(found, Unknown):
        return None
    value, unit = found
    return value if unit == "deg" or (unit == "" and value == 0) else None


#: ``(red, green, blue, alpha)``, each 0–1, in sRGB.
Colour = tuple[float, float, float, float]
#: CSS Color 4 system colours (and the deprecated ones browsers still accept): the
#: reader's theme decides them, so they are returned by name.
_SYSTEM_COLOURS = frozenset({
    "canvas", "canvastext", "linktext", "visitedtext", "activetext", "buttonface", "buttontext", "buttonborder",
    "field", "fieldtext", "highlight", "highlighttext", "selecteditem", "selecteditemtext", "mark", "marktext",
    "graytext", "accentcolor", "accentcolortext", "activeborder", "activecaption", "appworkspace", "background",
    "buttonhighlight", "buttonshadow", "captiontext", "inactiveborder", "inactivecaption", "inactivecaptiontext",
    "infobackground", "infotext", "menu", "menutext", "scrollbar", "threeddarkshadow", "threedface",
    "threedhighlight", "threedlightshadow", "threedshadow", "window", "windowframe", "windowtext",
})


def colour(tokens: Sequence[Node]) -> Colour | Unknown | str | None:
    """A colour value in sRGB; ``"currentcolor"`` for that keyword (and the global
    keywords: an inherited colour); a system colour's name (``"canvas"``: the reader's
    theme decides it); :data:`UNKNOWN` for one only the site decides
    (``var()``, ``color-mix()``); ``None`` when it is no colour."""
    parts = significant(tokens)
    if len(parts) == 1 and parts[0].type == "ident" and parts[0].lower_value in GLOBAL_KEYWORDS:
        return "currentcolor"
    if len(parts) != 1:
        return UNKNOWN if unknowable(parts) else None
    if unknowable(parts):
        return UNKNOWN
    if parts[0].type == "ident" and parts[0].lower_value in _SYSTEM_COLOURS:
        return str(parts[0].lower_value)
    parsed = tinycss2.color4.parse_color(parts[0])
    if parsed is None:
        # A colour function tinycss2 does not evaluate (``rgb(calc(…) …)``, ``rgb(from …)``).
        return UNKNOWN if parts[0].type == "function" else None
    if isinstance(parsed, str):
        return parsed
    return _srgb(parsed)


def colour_alpha(text: str) -> float:
    """The alpha of a colour written as text (``none`` and ``transparent``: 0); 1 for
    anything that is not a colour with an alpha below 1."""
    if text.strip().lower() == "none":
        return 0.0
    found = colour(tinycss2.parse_component_value_list(text))
    return found[3] if isinstance(found, tuple) else 1.0


def _srgb(parsed: tinycss2.color4.Color) -> Colour:
    for space in ("srgb", "xyz-d65", "xyz-d50"):
        try:
            converted = parsed.to(space)
        except NotImplementedError:
            continue
        red, green, blue = ((c or 0.0) for c in converted.coordinates)
        if space != "srgb":
            # Only the luminance matters here: a grey of the colour's luminance (Y).
            red = green = blue = _encode(max(0.0, min(1.0, green)))
        return (max(0.0, min(1.0, red)), max(0.0, min(1.0, green)), max(0.0, min(1.0, blue)), parsed.alpha)
    return (0.0, 0.0, 0.0, parsed.alpha)  # never: every space converts to one of those


def _encode(linear: float) -> float:
    return 12.92 * linear if linear <= 0.0031308 else 1.055 * linear ** (1 / 2.4) - 0.055


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def _luminance(rgb: Colour) -> float:
    red, green, blue, _alpha = rgb
    return 0.2126 * _linear(red) + 0.7152 * _linear(green) + 0.0722 * _linear(blue)


def contrast(text: Colour, background: Colour) -> float:
    """WCAG contrast ratio (1–21) of ``text`` drawn on an opaque ``background``, the
    text's alpha composited first."""
    alpha = text[3]
    red, green, blue = (t * alpha + b * (1 - alpha) for t, b in zip(text[:3], background[:3], strict=True))
    mixed: Colour = (red, green, blue, 1.0)
    lighter, darker = sorted((_luminance(mixed), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)
