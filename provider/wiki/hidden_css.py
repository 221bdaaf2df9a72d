"""Which CSS hides text from a reader: declarations and a page's own style rules.

Read with a CSS tokenizer (tinycss2), never with patterns over the raw style text: the
tokenizer undoes escapes (``dis\\70 lay``, ``no\\6e e``), drops comments
(``display:/**/none``) and ignores case exactly as a browser does, so an encoding cannot
hide ``display: none`` from this module. HTML entities (``display&#58;none``) are the
HTML parser's to decode, once, before the style text gets here
(:mod:`provider.wiki.hidden_html`).

A declaration list hides its element's text (:func:`hiding_reason`) when it removes the
element (``display: none``, ``visibility: hidden|collapse``, ``content-visibility:
hidden``), makes it transparent (``opacity``, ``filter: opacity()`` below 0.1), shrinks
its text to nothing (``font-size`` at most 1px, ``transform: scale()`` below 0.1), moves
it off screen (``left``/``top``/``text-indent``/``margin-*`` or a ``translate`` at least
100px, or 10em, the wrong way), clips it away (``clip: rect()`` of at most 1px,
``clip-path: inset(≥50%)`` or ``circle(0)``), gives it no room while cutting off what
overflows (a width or height of at most 1px with ``overflow: hidden|clip`` and no padding
on that axis: the responsive-embed trick ``height:0; padding-bottom:56%`` shows its
content), or colours its text as the page is (transparent, or white on the white pages
docs sites show, unless it sets a background of another colour) or as its own
background. Later declarations override earlier ones, ``!important`` ones override the
rest, as in a browser.

A stylesheet (:func:`hiding_rules`) hides what the selectors of its hiding rules match;
rules inside ``@media print`` only (hidden on paper, shown on every screen) hide nothing
from a reader, any other ``@media``/``@supports``/``@layer`` block counts (a reader's
screen may match it: fail closed).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import tinycss2
import tinycss2.color3
from tinycss2.ast import Node

__all__ = ["HidingRule", "Selector", "hiding_reason", "hiding_rules"]

#: Lengths at least this far the wrong way (px, or the units where a number means a
#: screen's share) move text off any screen.
_OFF_SCREEN_PX = 100.0
_OFF_SCREEN_RELATIVE = 10.0
_RELATIVE_UNITS = frozenset({"em", "rem", "vw", "vh", "vmin", "vmax", "%", "ch", "ex", "lh"})
#: A font size at most this (px) shows no readable text; em/rem/% below a tenth neither.
_TINY_PX = 1.0
_PX_PER_UNIT = {"px": 1.0, "pt": 4 / 3, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "q": 96 / 101.6}
_OFFSET_PROPERTIES = ("left", "top", "right", "bottom", "text-indent", "margin-left", "margin-top",
                      "margin-right", "inset-inline-start", "inset-block-start", "margin-inline-start")


def _significant(tokens: Iterable[Node]) -> list[Node]:
    return [t for t in tokens if t.type not in ("whitespace", "comment")]


def _declarations(source: str | Sequence[Node]) -> dict[str, list[Node]]:
    """The declarations in force, by lower-case property name: the last one, or the last
    ``!important`` one."""
    found: dict[str, tuple[bool, list[Node]]] = {}
    for item in tinycss2.parse_blocks_contents(source, skip_comments=True, skip_whitespace=True):
        if item.type != "declaration":
            continue
        before = found.get(item.lower_name)
        if before is None or item.important or not before[0]:
            found[item.lower_name] = (bool(item.important), _significant(item.value))
    return {name: value for name, (_important, value) in found.items()}


def _number(token: Node) -> tuple[float, str] | None:
    """``(value, unit)`` of a number, percentage or dimension (unit lower case, ``""``
    for a bare number, ``"%"``)."""
    if token.type == "number":
        return float(token.value), ""
    if token.type == "percentage":
        return float(token.value), "%"
    if token.type == "dimension":
        return float(token.value), token.lower_unit
    return None


def _px(value: float, unit: str) -> float | None:
    """A length in CSS pixels (a bare number as px: React writes ``left: -9999``)."""
    return value * _PX_PER_UNIT.get(unit or "px", 0.0) if unit in _PX_PER_UNIT or not unit else None


def _far_negative(token: Node) -> bool:
    found = _number(token)
    if found is None:
        return False
    value, unit = found
    if unit in _RELATIVE_UNITS:
        return value <= -_OFF_SCREEN_RELATIVE
    px = _px(value, unit)
    return px is not None and px <= -_OFF_SCREEN_PX


def _at_most(token: Node, px_limit: float, relative_limit: float) -> bool:
    found = _number(token)
    if found is None:
        return False
    value, unit = found
    if unit in _RELATIVE_UNITS:
        return value < relative_limit
    px = _px(value, unit)
    return px is not None and px <= px_limit


def _ident(value: list[Node]) -> str | None:
    return value[0].lower_value if len(value) == 1 and value[0].type == "ident" else None


def _functions(value: list[Node], *names: str) -> list[list[Node]]:
    """The significant arguments (commas dropped) of each function in ``value`` named
    one of ``names``."""
    return [[t for t in _significant(token.arguments) if not (t.type == "literal" and t.value == ",")]
            for token in value if token.type == "function" and token.lower_name in names]


def _fraction(token: Node) -> float | None:
    found = _number(token)
    if found is None:
        return None
    value, unit = found
    return value / 100 if unit == "%" else value if not unit else None


def _transparent(value: list[Node], limit: float = 0.1) -> bool:
    amount = _fraction(value[0]) if len(value) == 1 else None
    return amount is not None and amount < limit


def _colour(value: list[Node]) -> tuple[float, float, float, float] | None:
    if not value:
        return None
    parsed = tinycss2.color3.parse_color(value[0] if len(value) == 1 else value)
    if parsed is None or isinstance(parsed, str):  # ``currentColor`` or not a colour
        return None
    return (parsed.red, parsed.green, parsed.blue, parsed.alpha)


def _background(found: dict[str, list[Node]]) -> tuple[float, float, float, float] | None:
    if "background-color" in found:
        return _colour(found["background-color"])
    for token in found.get("background", ()):
        colour = _colour([token])
        if colour is not None:
            return colour
    return None


def _blank_text(found: dict[str, list[Node]]) -> bool:
    """Text coloured as the page (transparent, or white on a white page) or as its own
    background."""
    text = _colour(found.get("color", []))
    if text is None:
        return False
    if text[3] < 0.1:
        return True
    background = _background(found)
    if background is not None and background[3] >= 0.1:
        return all(abs(a - b) < 0.02 for a, b in zip(text[:3], background[:3], strict=True))
    return all(channel > 0.97 for channel in text[:3])


def _no_room(found: dict[str, list[Node]]) -> bool:
    overflow = {t.lower_value for name in ("overflow", "overflow-x", "overflow-y")
                for t in found.get(name, ()) if t.type == "ident"}
    if not overflow & {"hidden", "clip"}:
        return False
    for size, paddings in (("height", ("padding-top", "padding-bottom", "padding-block")),
                           ("width", ("padding-left", "padding-right", "padding-inline"))):
        limited = [found[name] for name in (size, f"max-{size}") if name in found]
        padded = any(t.type in ("number", "percentage", "dimension") and (_number(t) or (0.0, ""))[0] > 0
                     for name in (*paddings, "padding") for t in found.get(name, ()))
        if not padded and any(len(value) == 1 and _at_most(value[0], 1.0, 0.1) for value in limited):
            return True
    return False


def _clipped(found: dict[str, list[Node]]) -> bool:
    for arguments in _functions(found.get("clip", []), "rect"):
        sizes = [n for n in (_number(t) for t in arguments) if n is not None]
        if len(sizes) == 4:
            top, right, bottom, left = (value for value, _unit in sizes)
            if right - left <= 1 or bottom - top <= 1:
                return True
    clip_path = found.get("clip-path", [])
    for arguments in _functions(clip_path, "inset"):
        if arguments and all((_fraction(t) or 0) >= 0.5 if t.type == "percentage" else False
                             for t in arguments[:1]):
            return True
    return any(arguments and _at_most(arguments[0], 0.0, 0.01)
               for arguments in _functions(clip_path, "circle", "ellipse"))


def _shrunk(found: dict[str, list[Node]]) -> bool:
    font = found.get("font-size", [])
    if len(font) == 1 and _at_most(font[0], _TINY_PX, 0.1 if font[0].type != "percentage" else 10.0):
        return True
    for arguments in _functions(found.get("transform", []), "scale", "scalex", "scaley", "scale3d"):
        if any(f is not None and abs(f) < 0.1 for f in map(_fraction, arguments)):
            return True
    scale = [f for f in map(_fraction, found.get("scale", [])) if f is not None]
    return any(abs(f) < 0.1 for f in scale)


def _moved_away(found: dict[str, list[Node]]) -> bool:
    if any(value and _far_negative(value[0]) for value in (found.get(p) for p in _OFFSET_PROPERTIES) if value):
        return True
    for arguments in _functions([*found.get("transform", []), *found.get("translate", [])],
                                "translate", "translatex", "translatey", "translate3d"):
        if any(_far_negative(t) for t in arguments):
            return True
    return any(_far_negative(t) for t in found.get("translate", []))


def hiding_reason(style: str | Sequence[Node]) -> str | None:
    """Why a declaration list (an inline ``style`` value, or a rule's contents) hides its
    element's text from a reader, as a short phrase (``"display: none"``); ``None`` when
    the text is shown. Never raises: CSS a browser would drop is dropped here too."""
    found = _declarations(style)
    if not found:
        return None
    checks = (
        ("display: none", _ident(found.get("display", [])) == "none"),
        ("visibility: hidden", _ident(found.get("visibility", [])) in ("hidden", "collapse")),
        ("content-visibility: hidden", _ident(found.get("content-visibility", [])) == "hidden"),
        ("opacity: 0", _transparent(found.get("opacity", [])) or any(
            _transparent(a) for a in _functions(found.get("filter", []), "opacity"))),
        ("text too small to read", _shrunk(found)),
        ("moved off screen", _moved_away(found)),
        ("clipped away", _clipped(found)),
        ("no room, overflow hidden", _no_room(found)),
        ("text coloured as its background", _blank_text(found)),
    )
    return next((reason for reason, hides in checks if hides), None)


@dataclass(frozen=True)
class Selector:
    """What one selector of a hiding rule matches, read from its last compound (its
    subject; the ancestors are ignored, so it matches at least what the browser does).

    Attributes:
        tag: the element name, lower case, or ``None`` for any.
        classes: class names every matched element has.
        ids: ids it has.
        attributes: ``(name, operator, value, case_insensitive)``; operator ``""`` for
            presence, else one of ``= ~= |= ^= $= *=``.
        pseudo_element: the selector styles a pseudo-element (``::before``), never the
            element's own text.
        interactive: the selector holds only while the reader interacts (``:hover``,
            ``:focus``, ``:active``…): the text is shown otherwise.
    """

    tag: str | None
    classes: frozenset[str] = frozenset()
    ids: frozenset[str] = frozenset()
    attributes: tuple[tuple[str, str, str, bool], ...] = ()
    pseudo_element: bool = False
    interactive: bool = False


@dataclass(frozen=True)
class HidingRule:
    """A style rule that hides what it selects: its selectors and why (a phrase)."""

    selectors: tuple[Selector, ...]
    reason: str
    text: str


def _split_selectors(prelude: Sequence[Node]) -> list[list[Node]]:
    out: list[list[Node]] = [[]]
    for token in prelude:
        if token.type == "literal" and token.value == ",":
            out.append([])
        else:
            out[-1].append(token)
    return [_trimmed(part) for part in out if _significant(part)]


def _trimmed(tokens: list[Node]) -> list[Node]:
    while tokens and tokens[0].type in ("whitespace", "comment"):
        tokens = tokens[1:]
    while tokens and tokens[-1].type in ("whitespace", "comment"):
        tokens = tokens[:-1]
    return tokens


def _attribute(block: Node) -> tuple[str, str, str, bool] | None:
    tokens = _significant(block.content)
    if not tokens or tokens[0].type != "ident":
        return None
    name = tokens[0].lower_value
    rest = tokens[1:]
    if not rest:
        return (name, "", "", False)
    operator = ""
    while rest and rest[0].type == "literal" and rest[0].value in "~|^$*=":
        operator += rest.pop(0).value
    if not rest or rest[0].type not in ("ident", "string"):
        return None
    value = rest.pop(0).value
    insensitive = bool(rest) and rest[0].type == "ident" and rest[0].lower_value == "i"
    return (name, operator, value, insensitive)


def _subject(tokens: list[Node]) -> Selector | None:
    """The last compound selector of a complex selector; ``None`` when it cannot be read."""
    start = 0
    for index, token in enumerate(tokens):
        if token.type == "whitespace" or (token.type == "literal" and token.value in (">", "+", "~")):
            start = index + 1
    compound = [t for t in tokens[start:] if t.type != "comment"]
    tag: str | None = None
    classes: set[str] = set()
    ids: set[str] = set()
    attributes: list[tuple[str, str, str, bool]] = []
    pseudo_element = interactive = False
    index = 0
    while index < len(compound):
        token = compound[index]
        following = compound[index + 1] if index + 1 < len(compound) else None
        if token.type == "ident" and index == 0:
            tag = token.lower_value
        elif token.type == "literal" and token.value == "*" and index == 0:
            tag = None
        elif token.type == "literal" and token.value == "." and following is not None and following.type == "ident":
            classes.add(following.value)
            index += 1
        elif token.type == "hash" and token.is_identifier:
            ids.add(token.value)
        elif token.type == "[] block":
            attribute = _attribute(token)
            if attribute is None:
                return None
            attributes.append(attribute)
        elif token.type == "literal" and token.value == ":":
            if following is not None and following.type == "literal" and following.value == ":":
                pseudo_element = True
                index += 1
            elif following is not None and following.type == "ident" and following.lower_value in (
                    "before", "after", "first-line", "first-letter", "marker", "placeholder"):
                pseudo_element = True  # the CSS 2 spelling ``:before``
            elif following is not None and following.type == "ident" and following.lower_value in _INTERACTIVE:
                interactive = True
            # Another pseudo-class (``:first-child``, ``:not(…)``) narrows the match:
            # ignoring it matches at least what the browser does.
            index += 1
        else:
            return None
        index += 1
    return Selector(tag, frozenset(classes), frozenset(ids), tuple(attributes), pseudo_element, interactive)


#: Pseudo-classes that hold only while the reader interacts with the element.
_INTERACTIVE = frozenset(("hover", "focus", "active", "focus-within", "focus-visible", "target"))


def _print_only(prelude: Sequence[Node]) -> bool:
    """Whether a ``@media`` query list is print only (``print``, ``only print``, every
    query of the list naming ``print``)."""
    queries = _split_selectors(prelude)
    return bool(queries) and all(
        [t.lower_value for t in _significant(q) if t.type == "ident"][:2] in (["print"], ["only", "print"])
        for q in queries)


def _rules(nodes: Sequence[Node], depth: int = 0) -> Iterable[tuple[Sequence[Node], Sequence[Node]]]:
    for node in nodes:
        if node.type == "qualified-rule":
            yield node.prelude, node.content
        elif node.type == "at-rule" and node.content is not None and depth < 8:
            if node.lower_at_keyword == "media" and _print_only(node.prelude):
                continue
            if node.lower_at_keyword in ("media", "supports", "layer", "container", "document", "scope"):
                inner = tinycss2.parse_rule_list(node.content, skip_comments=True, skip_whitespace=True)
                yield from _rules(inner, depth + 1)


def hiding_rules(stylesheet: str) -> list[HidingRule]:
    """The rules of a page's ``<style>`` text that hide what they select. A selector
    that cannot be read is taken to select everything (``Selector(tag=None)``): a
    hiding rule never goes unnoticed because its selector is unusual."""
    out: list[HidingRule] = []
    for prelude, content in _rules(tinycss2.parse_stylesheet(stylesheet, skip_comments=True, skip_whitespace=True)):
        reason = hiding_reason(content)
        if reason is None:
            continue
        selectors = tuple(_subject(part) or Selector(None) for part in _split_selectors(prelude))
        out.append(HidingRule(selectors, reason, tinycss2.serialize(prelude).strip()[:200]))
    return out
