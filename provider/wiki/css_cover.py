"""Boxes a site draws over text: an opaque overlay, for :mod:`provider.wiki.hidden_html`.

Text is hidden by what is drawn on top of it as surely as by ``display: none``: an empty
``<span style="position:absolute; inset:0; background:#fff">`` beside a paragraph, or a
``::before`` pseudo-element with the same declarations, shows a white box where the
paragraph is. The stated rule (:func:`cover_reason`):

    **An element or ``::before``/``::after`` pseudo-element that is taken out of the flow
    (``position: absolute`` or ``fixed``), not pushed behind the page (``z-index`` below
    0), paints an opaque box (alpha at least :data:`OPAQUE`) and spans its containing
    block on both axes hides all the text of that containing block.**

* *Opaque*: a background colour (a keyword such as ``currentcolor`` or ``Canvas``
  too), the colour stops of a background gradient, an inset ``box-shadow`` whose spread
  fills the box, each with alpha at least :data:`OPAQUE` (the element's ``opacity``
  multiplied in); a background image (``url()``) or a replaced element (``<img>``,
  ``<svg>``, ``<video>``, ``<canvas>``, ``<iframe>``, ``<picture>``, ``<object>``,
  ``<embed>``) counts as opaque (what it draws is not read here: fail closed).
* *Spans an axis*: both its offsets on that axis (``top``/``bottom``, ``left``/``right``,
  set by ``inset`` or the longhands, logical ones too) at most :data:`NEAR_EDGE_PX` or
  :data:`NEAR_EDGE_SHARE` of the box, or its size on that axis (``width``/``height``,
  ``min-*`` too) at least :data:`WIDE_SHARE` of the box or :data:`WIDE_PX`.
* A value only the site decides (``var()``, ``env()``) in ``position``, ``z-index``, an
  offset or a size counts as covering when the rest does (fail closed).

Shown: a badge in a corner (small on either axis), a translucent veil (alpha below
:data:`OPAQUE`), a decorative ``::before`` with ``content: "→"`` and no background, a
sticky or relative header (in the flow: it covers nothing), an overlay with a negative
``z-index`` (drawn behind the text).

The containing block is found by :mod:`provider.wiki.hidden_html`: the nearest ancestor
whose own style positions it (``relative``, ``absolute``, ``fixed``, ``sticky``) or
transforms it; without one the box covers the window, and the whole page is reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tinycss2.ast import Node

from .css_values import Unknown, colour, length, unknowable
from .css_visual import gradient_colours
from .hidden_css import INSET_FILL, Declarations, computed

__all__ = ["NEAR_EDGE_PX", "NEAR_EDGE_SHARE", "OPAQUE", "REPLACED", "WIDE_PX", "WIDE_SHARE", "cover_reason",
           "positions"]

#: Alpha at or above which a painted box hides the text under it (a white veil of 0.9
#: over black text leaves a contrast of about 1.2: below
#: :data:`~provider.wiki.hidden_css.LOW_CONTRAST`).
OPAQUE: Final = 0.9
#: An offset this close to the containing block's edge still covers the text (px, and a
#: share of the box for percentages).
NEAR_EDGE_PX: Final = 48.0
NEAR_EDGE_SHARE: Final = 10.0
#: A size that spans the containing block (percent of it, or px on the nominal screen).
WIDE_SHARE: Final = 90.0
WIDE_PX: Final = 600.0
#: Elements whose content is drawn, not text: opaque when they cover (fail closed).
REPLACED = frozenset({"img", "svg", "video", "canvas", "iframe", "picture", "object", "embed"})
_OUT_OF_FLOW = frozenset({"absolute", "fixed"})
_POSITIONED = frozenset({"relative", "absolute", "fixed", "sticky"})


def _first(found: Declarations, name: str) -> list[Node]:
    return found.get(name, [])


def _near_edge(value: list[Node]) -> bool:
    size = length(value) if value else None
    if size is None:
        return False
    if isinstance(size, Unknown):
        return True
    amount, unit = size
    return amount <= (NEAR_EDGE_SHARE if unit == "%" else NEAR_EDGE_PX)


def _wide(found: Declarations, name: str) -> bool:
    for prop in (name, f"min-{name}"):
        value = _first(found, prop)
        size = length(value) if value else None
        if isinstance(size, Unknown):
            return True
        if size is not None and size[0] >= (WIDE_SHARE if size[1] == "%" else WIDE_PX):
            return True
    return False


def _spans(found: Declarations, start: str, end: str, size: str) -> bool:
    return (_near_edge(_first(found, start)) and _near_edge(_first(found, end))) or _wide(found, size)


def _opacity(found: Declarations) -> float:
    value = length(_first(found, "opacity")) if "opacity" in found else None
    if value is None or isinstance(value, Unknown):
        return 1.0  # unknown: fail closed (opaque)
    amount, unit = value
    return max(0.0, min(1.0, amount / 100 if unit == "%" else amount))


def _paint(found: Declarations, replaced: bool) -> str | None:
    """What opaque thing the box paints, or ``None``."""
    alpha = _opacity(found)
    if alpha < OPAQUE:
        return None
    if replaced:
        return "an image"
    for name, what in ((INSET_FILL, "an inset box shadow"), ("background-color", "a background colour")):
        value = colour(_first(found, name)) if name in found else None
        # A keyword (``currentcolor``, a system colour such as ``Canvas``) is the
        # theme's, opaque in every theme: fail closed.
        if isinstance(value, (Unknown, str)) or (isinstance(value, tuple) and value[3] * alpha >= OPAQUE):
            return what
    for token in _first(found, "background-image"):
        if token.type == "url" or (token.type == "function" and token.lower_name in ("url", "image-set", "image")):
            return "a background image"
        if token.type == "function" and token.lower_name.endswith("gradient"):
            stops = gradient_colours(token)
            if stops is None or all(stop[3] * alpha >= OPAQUE for stop in stops):
                return "a background gradient"
        if unknowable([token]):
            return "a background only the site's styles decide"
    return None


def cover_reason(style: str | Sequence[Node], replaced: bool = False) -> str | None:
    """Why a box with these declarations (an inline ``style``, or a rule's contents for
    an element or a ``::before``/``::after``) hides the text of its containing block
    (see the module docstring), as a phrase; ``None`` when it does not cover.
    ``replaced``: the box is an ``<img>``, ``<svg>``… (:data:`REPLACED`). Never raises."""
    found = computed(style)
    position = _first(found, "position")
    kind = position[0].lower_value if len(position) == 1 and position[0].type == "ident" else None
    if kind not in _OUT_OF_FLOW and not unknowable(position):
        return None
    depth = length(_first(found, "z-index")) if "z-index" in found else None
    if isinstance(depth, tuple) and depth[0] < 0:
        return None
    if not (_spans(found, "left", "right", "width") and _spans(found, "top", "bottom", "height")):
        return None
    paint = _paint(found, replaced)
    if paint is None:
        return None
    how = {"absolute": "an absolutely positioned", "fixed": "a fixed"}.get(kind or "", "a positioned")
    return f"covered by {how} box painting {paint} over it"


def positions(style: str | Sequence[Node]) -> bool:
    """Whether these declarations make the element a containing block for an absolutely
    positioned descendant: a ``position`` other than ``static`` (or one only the site
    decides), or a ``transform``."""
    found = computed(style)
    position = _first(found, "position")
    kind = position[0].lower_value if len(position) == 1 and position[0].type == "ident" else None
    transform = _first(found, "transform")
    moved = bool(transform) and not (len(transform) == 1 and transform[0].type == "ident")
    return kind in _POSITIONED or unknowable(position) or moved
