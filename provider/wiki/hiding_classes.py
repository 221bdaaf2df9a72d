"""Classes the CSS frameworks hide text with, for :mod:`provider.wiki.hidden_html`.

An element's classes hide its text when

* one names a hiding class (:data:`HIDING_CLASSES`: Tailwind ``hidden``/``invisible``/
  ``sr-only``, Bootstrap ``d-none``/``visually-hidden``, Angular ``ng-hide``, Bulma,
  Foundation, WordPress, GOV.UK…), also with Tailwind's important mark (``!hidden``,
  ``hidden!``) or a short prefix (``tw-hidden``, ``u-sr-only``);
* one is a component state class its framework shows only in another state:
  Bootstrap ``collapse`` without ``show``/``in``, ``fade`` without ``show``/``in``,
  ``modal``/``offcanvas``/``toast``/``dropdown-menu`` without ``show``, ``tab-pane``
  without ``active``, ``carousel-item`` without ``active`` (the reader must act to see
  it, and nothing on the page says what); Bulma ``is-hidden-*`` classes that together
  hide at every width (``is-hidden-mobile is-hidden-tablet``);
* the utility classes together (Tailwind: ``opacity-0``, ``text-transparent``,
  ``size-0 overflow-hidden``, ``text-[0px]``, ``scale-0``, ``-indent-[9999px]``,
  ``blur``, ``text-white`` without a ``bg-*``, a text colour with an opacity modifier
  below 10 % (``text-black/0``), arbitrary properties
  ``[display:none]``) amount to CSS that hides (:func:`provider.wiki.hidden_css.hiding_reason`
  reads the CSS they stand for).

Decisions: screen-reader-only text (``sr-only``, ``visually-hidden``) counts as hidden —
sighted readers and the page's reviewers never see it, so it can carry text nobody
checked, though assistive technology reads it. Classes under a screen-width variant
are shown at the other widths (``md:hidden``, ``hidden md:inline``, ``d-none
d-md-block``), two such variants may together cover every width; ``print:`` hides on
paper only; ``hover:``/``focus:`` variants apply only while the reader interacts.
An arbitrary variant (``[&_p]:hidden``) hides what it selects (fail closed: the
element's text); ``min-[0px]:`` holds at every width, as no variant.
"""

from __future__ import annotations

import re

from .hidden_css import hiding_reason
from .lookalike import squash

__all__ = ["HIDING_CLASSES", "RESPONSIVE_HIDING", "SHOWN_AT_A_WIDTH", "class_reason"]

#: Classes (after :func:`provider.wiki.lookalike.squash`) the CSS frameworks hide an
#: element with (Tailwind, Bootstrap 3-5, Bulma, Foundation, WordPress, HTML5
#: Boilerplate, GOV.UK, Angular), on screen: ``visible-print`` shows only on paper.
HIDING_CLASSES = frozenset({
    "hidden", "invisible", "sronly", "visuallyhidden", "visuallyhiddenfocusable", "screenreaderonly",
    "screenreadertext", "showforsr", "offscreen", "dnone", "hide", "hidetext", "texthide", "ishidden",
    "isinvisible", "issronly", "uhidden", "uvisuallyhidden", "govukvisuallyhidden", "displaynone",
    "visibilityhidden", "elementinvisible", "assistivetext", "visibleprint", "visibleprintblock",
    "visibleprintinline", "visibleprintinlineblock", "nghide", "ngcloak", "xcloak", "vcloak",
})
#: A CSS framework's class that shows an element from some screen width on.
SHOWN_AT_A_WIDTH = re.compile(
    r"(?<!\S)(?:(?:sm|md|lg|xl|2xl):(?:block|inline|inline-block|flex|inline-flex|grid|inline-grid|table|contents"
    r"|flow-root|visible)|d-(?:sm|md|lg|xl|xxl)-(?:block|inline|inline-block|flex|inline-flex|grid|table))(?!\S)")
#: Hiding classes such a class undoes at that width.
RESPONSIVE_HIDING = frozenset(("hidden", "invisible", "dnone", "none", "d"))
#: Component classes hidden until a state class (any of the set) is added by a script.
_STATEFUL = {"collapse": {"show", "in"}, "fade": {"show", "in"}, "modal": {"show", "d-block"},
             "offcanvas": {"show", "showing"}, "toast": {"show"}, "dropdown-menu": {"show"},
             "tab-pane": {"active", "show"}, "carousel-item": {"active"}}
#: Bulma's ``is-hidden-*`` classes: the screen widths (px, inclusive) each hides at.
_BULMA_WIDTHS = {"mobile": (0, 768), "tablet": (769, 10**6), "tablet-only": (769, 1023), "touch": (0, 1023),
                 "desktop": (1024, 10**6), "desktop-only": (1024, 1215), "widescreen": (1216, 10**6),
                 "widescreen-only": (1216, 1407), "fullhd": (1408, 10**6)}
#: Variants in front of a Tailwind class (``md:``, ``[&_p]:``, ``min-[0px]:``, ``group-hover/x:``).
_VARIANT = re.compile(r"(?:[\w!@-]*\[[^\]]*\][\w-]*|[\w!@-]+)(?:/[\w-]+)?:")
#: A ``min-[…]`` width variant small enough to hold at every screen width.
_EVERY_WIDTH = re.compile(r"min-\[(?:0*(?:\.\d+)?|[0-2]?\d{1,2}(?:\.\d+)?px|0*1?\d(?:\.\d+)?r?em)\]")
#: Tailwind screen-width variants: ``sm:`` … ``2xl:``, ``max-md:``, ``min-[900px]:``.
_BREAKPOINT = re.compile(r"(?:max-|min-)?(?:sm|md|lg|xl|2xl|\[[0-9.]+(?:px|em|rem)\])")
_PREFIX = re.compile(r"^[a-z]{1,4}-")
#: Tailwind's palette, by shade, as a grey of the same lightness: only how light matters.
_SHADES = {"50": "#f9fafb", "100": "#f3f4f6", "200": "#e5e7eb", "300": "#d1d5db"}
_SPACING_PX = 4.0
_BLUR = {"blur": "8px", "blur-xs": "4px", "blur-sm": "4px", "blur-md": "12px", "blur-lg": "16px",
         "blur-xl": "24px", "blur-2xl": "40px", "blur-3xl": "64px"}
_SIZE_NAMES = {"size": ("width", "height"), "w": ("width",), "h": ("height",), "max-h": ("max-height",),
               "max-w": ("max-width",), "leading": ("line-height",)}
_OFFSET_NAMES = {"left": "left", "right": "right", "top": "top", "bottom": "bottom", "inset": "inset",
                 "indent": "text-indent", "ml": "margin-left", "mt": "margin-top"}
_UTILITY = re.compile(r"(-?)([a-z]+(?:-[a-z]+)?)-(\[[^\]]+\]|[\w./]+)")


def _value(raw: str, scale_px: float | None = None) -> str:
    """A Tailwind value: ``[9999px]`` as written, ``96`` on the spacing scale, ``px``."""
    if raw.startswith("["):
        return raw[1:-1].replace("_", " ")
    if raw == "px":
        return "1px"
    if raw == "full":
        return "100%"
    if "/" in raw:
        top, _, bottom = raw.partition("/")
        return f"{float(top) / float(bottom) * 100}%" if top.isdigit() and bottom.isdigit() else raw
    if scale_px is not None and re.fullmatch(r"\d+(?:\.\d+)?", raw):
        return f"{float(raw) * scale_px}px"
    return raw


def _utility_css(name: str, classes: set[str]) -> str:
    """The CSS a Tailwind utility class stands for, as far as hiding goes ('' for none)."""
    if name.startswith("[") and name.endswith("]") and ":" in name:
        return name[1:-1].replace("_", " ")  # an arbitrary property: ``[visibility:hidden]``
    if name in _BLUR:
        return f"filter: blur({_BLUR[name]})"
    if name in ("overflow-hidden", "overflow-clip", "truncate"):
        return "overflow: hidden"
    if name in ("bg-clip-text",):
        return "background-clip: text; background-image: linear-gradient(#000, #000)"
    match = _UTILITY.fullmatch(name)
    if match is None:
        return ""
    negative, base, raw = match.groups()
    sign = "-" if negative else ""
    if base == "opacity":
        value = _value(raw)
        return f"opacity: {value}%" if value.isdigit() else f"opacity: {value}"
    if base == "scale" or base in ("scale-x", "scale-y"):
        value = _value(raw)
        return f"scale: {sign}{value}%" if value.isdigit() else f"scale: {sign}{value}"
    if base in _SIZE_NAMES:
        value = _value(raw, _SPACING_PX) if base != "leading" else _value(raw)
        return "; ".join(f"{prop}: {value}" for prop in _SIZE_NAMES[base])
    if base in _OFFSET_NAMES or base in ("translate-x", "translate-y"):
        value = _value(raw, _SPACING_PX)
        value = f"-{value}" if sign and not value.startswith("-") else value
        if base == "translate-y":
            return f"translate: 0 {value}"
        return f"{_OFFSET_NAMES.get(base, 'translate')}: {value}"
    if base.startswith("text") and "/" in raw and not raw.startswith("["):
        alpha = raw.rpartition("/")[2]  # an opacity modifier: ``text-black/0``, ``text-gray-900/[0.05]``
        alpha = alpha[1:-1] if alpha.startswith("[") else alpha
        amount = float(alpha) / 100 if alpha.isdigit() else float(alpha) if re.fullmatch(r"\d*\.\d+", alpha) else 1.0
        if amount < 0.1:
            return "color: transparent"
        raw = raw.rpartition("/")[0]
    if base == "text":
        value = _value(raw)
        if raw.startswith("[") and re.match(r"[\d.]", value):
            return f"font-size: {value}"
        if raw.startswith("[") or value in ("white", "black", "transparent"):
            return f"color: {value}"
        return ""
    if base in ("bg", "text-bg"):
        return f"background-color: {_value(raw) if raw.startswith('[') else _colour_name(raw)}"
    if "-" in base and base.split("-", 1)[0] == "text":
        shade = raw
        return f"color: {_SHADES.get(shade, '#6b7280')}"
    if base == "mix-blend":
        return f"mix-blend-mode: {raw}"
    return ""


def _covers_every_width(ranges: list[tuple[int, int]]) -> bool:
    reached = 0
    for low, high in sorted(ranges):
        if low > reached:
            return False
        reached = max(reached, high + 1)
    return bool(ranges) and reached > 10**6


def _colour_name(raw: str) -> str:
    if raw in ("white", "transparent", "black"):
        return raw
    shade = raw.rsplit("-", 1)[-1]
    return _SHADES.get(shade, "#6b7280")


def class_reason(classes: list[str]) -> str | None:
    """Why an element's classes hide its text (``"class 'sr-only'"``), else ``None``."""
    joined = " ".join(classes)
    shown_somewhere = SHOWN_AT_A_WIDTH.search(joined) is not None
    hiding: list[tuple[str, str]] = []
    plain: list[str] = []
    for name in classes:
        # A Tailwind arbitrary property (``[display:none]``, ``md:[visibility:hidden]``)
        # holds a colon of its own.
        variants: list[str] = []
        rest = name
        while (found := _VARIANT.match(rest)) is not None and found.end() < len(rest):
            if not _EVERY_WIDTH.fullmatch(found.group(0)[:-1].lower()):
                variants.append(found.group(0)[:-1])
            rest = rest[found.end():]
        variant, base = ":".join(variants), rest.strip("!")
        if not variant:
            plain.append(base)
        squashed = squash(base)
        prefixed = squash(_PREFIX.sub("", base, count=1)) if _PREFIX.match(base) else ""
        if (squashed in HIDING_CLASSES or prefixed in HIDING_CLASSES) and not variant.lower().endswith("print"):
            hiding.append((variant, base))
    if len(hiding) == 1 and _BREAKPOINT.fullmatch(hiding[0][0].lower()):
        # One hiding class under a screen-width variant alone (``md:hidden``,
        # ``max-lg:sr-only``): shown at the other widths. Two such classes may together
        # cover every width, so they count.
        hiding = []
    for variant, base in hiding:
        # A variant prefix (``dark:sr-only``) narrows when it hides; print hides nothing
        # on a screen (left out above).
        if not (shown_somewhere and squash(base) in RESPONSIVE_HIDING):
            return f"class {(variant + ':' if variant else '') + base!r}"
    states = set(plain)
    bulma = [_BULMA_WIDTHS[n[len("is-hidden-"):]] for n in states if n[len("is-hidden-"):] in _BULMA_WIDTHS
             and n.startswith("is-hidden-")]
    if _covers_every_width(bulma):
        return "classes 'is-hidden-*' together hide at every screen width"
    for name, shown_by in _STATEFUL.items():
        if name in states and not states & shown_by:
            return f"class {name!r} without {' or '.join(sorted(shown_by))}"
    css = "; ".join(filter(None, (_utility_css(name, states) for name in plain)))
    if "color:" in css and "background" not in css and any(n.startswith("bg-") for n in plain):
        css += "; background-color: #6b7280"
    reason = hiding_reason(css) if css else None
    return f"classes {' '.join(plain)!r}: {reason}" if reason is not None else None
