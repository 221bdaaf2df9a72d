"""What colour CSS paints a text's glyphs and what is behind them, for
:mod:`provider.wiki.hidden_css`: colour filters (Filter Effects 1: ``invert()``,
``brightness()``, ``contrast()``, ``grayscale()``, ``sepia()``, ``saturate()``,
``hue-rotate()``, ``opacity()``) applied to a colour, a gradient's colour stops, and
whether a ``mix-blend-mode`` turns dark text on a white page white.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tinycss2.ast import Node

from .css_values import UNKNOWN, Colour, Unknown, angle_deg, arguments, colour, number, unknowable

__all__ = ["blend_hides", "filtered", "gradient_colours"]

#: Blend modes that keep black text on a white page dark; any other (``screen``,
#: ``difference``, ``lighten``…) paints it white, or as the page.
_DARK_KEEPING = frozenset({"normal", "multiply", "darken", "color-burn", "hard-light", "luminosity",
                           "plus-darker", "inherit", "initial", "unset", "revert", "revert-layer"})


def _amount(function: Node) -> float | Unknown | None:
    parts = [t for part in arguments(function) for t in part]
    if not parts:
        return 1.0
    if function.lower_name == "hue-rotate":
        degrees = angle_deg(parts[0])
        return degrees if degrees is not None else None
    found = number(parts[0])
    if found is None:
        return UNKNOWN if unknowable(parts) else None
    value, unit = found
    return value / 100 if unit == "%" else value if not unit else None


def _matrix(rgb: tuple[float, float, float], m: Sequence[float]) -> tuple[float, float, float]:
    red, green, blue = rgb
    return (m[0] * red + m[1] * green + m[2] * blue, m[3] * red + m[4] * green + m[5] * blue,
            m[6] * red + m[7] * green + m[8] * blue)


def _hue(degrees: float) -> list[float]:
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return [0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928,
            0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283,
            0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072]


def _apply(name: str, a: float, rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    if name == "invert":
        return tuple(a * (1 - c) + (1 - a) * c for c in rgb)  # type: ignore[return-value]
    if name == "brightness":
        return tuple(c * a for c in rgb)  # type: ignore[return-value]
    if name == "contrast":
        return tuple((c - 0.5) * a + 0.5 for c in rgb)  # type: ignore[return-value]
    if name == "hue-rotate":
        return _matrix(rgb, _hue(a))
    a = min(1.0, max(0.0, a)) if name != "saturate" else max(0.0, a)
    if name == "grayscale":
        b = 1 - a
        return _matrix(rgb, [0.2126 + 0.7874 * b, 0.7152 - 0.7152 * b, 0.0722 - 0.0722 * b,
                             0.2126 - 0.2126 * b, 0.7152 + 0.2848 * b, 0.0722 - 0.0722 * b,
                             0.2126 - 0.2126 * b, 0.7152 - 0.7152 * b, 0.0722 + 0.9278 * b])
    if name == "sepia":
        b = 1 - a
        return _matrix(rgb, [0.393 + 0.607 * b, 0.769 - 0.769 * b, 0.189 - 0.189 * b,
                             0.349 - 0.349 * b, 0.686 + 0.314 * b, 0.168 - 0.168 * b,
                             0.272 - 0.272 * b, 0.534 - 0.534 * b, 0.131 + 0.869 * b])
    if name == "saturate":
        return _matrix(rgb, [0.213 + 0.787 * a, 0.715 - 0.715 * a, 0.072 - 0.072 * a,
                             0.213 - 0.213 * a, 0.715 + 0.285 * a, 0.072 - 0.072 * a,
                             0.213 - 0.213 * a, 0.715 - 0.715 * a, 0.072 + 0.928 * a])
    return rgb


def filtered(text: Colour, filters: Sequence[Node]) -> Colour | Unknown:
    """``text`` after the colour functions of a ``filter`` value, in order;
    :data:`UNKNOWN` for an amount only the site decides. Other functions (``blur()``,
    ``drop-shadow()``, ``url()``) change no colour here: the caller reads them."""
    red, green, blue, alpha = text
    rgb = (red, green, blue)
    for token in filters:
        if token.type != "function":
            continue
        name = token.lower_name
        if name not in ("invert", "brightness", "contrast", "grayscale", "sepia", "saturate", "hue-rotate",
                        "opacity"):
            continue
        amount = _amount(token)
        if isinstance(amount, Unknown):
            return UNKNOWN
        if amount is None:
            return text  # a filter value no browser accepts: the whole declaration is dropped
        if name == "opacity":
            alpha *= min(1.0, max(0.0, amount))
            continue
        red, green, blue = (min(1.0, max(0.0, c)) for c in _apply(name, amount, rgb))
        rgb = (red, green, blue)
    return (*rgb, alpha)


def gradient_colours(function: Node) -> list[Colour] | None:
    """The colour stops of a ``*-gradient()``; ``None`` when one is only the site's
    (``var()``) or the gradient cannot be read."""
    out: list[Colour] = []
    for part in arguments(function):
        for token in part:
            value = colour([token])
            if isinstance(value, Unknown):
                return None
            if isinstance(value, tuple):
                out.append(value)
    return out or None


def blend_hides(value: Sequence[Node]) -> bool:
    """Whether a ``mix-blend-mode`` paints dark text on a white page white (or only the
    site decides it)."""
    names = [t.lower_value for t in value if t.type == "ident"]
    return unknowable(value) or (len(names) == 1 and names[0] not in _DARK_KEEPING)
