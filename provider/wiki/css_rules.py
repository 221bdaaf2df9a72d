"""A page's own stylesheet (a ``<style>`` element): which of its rules hide text, and
what their selectors match.

:func:`hiding_rules` reads the stylesheet with tinycss2 and asks
:func:`provider.wiki.hidden_css.hiding_reason` about each rule's declarations (and
:func:`provider.wiki.css_cover.cover_reason`: a rule drawing an opaque overlay, on an
element or a ``::before``/``::after``, hides the text under it); rules
inside ``@media print`` only (hidden on paper, shown on every screen) hide nothing from a
reader; nested rules (``.a { & .b { display: none } }``) and ``@import`` of a
``data:text/css`` URL are read as rules of their own; any other
``@media``/``@supports``/``@layer`` block counts (a reader's screen may
match it: fail closed).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import unquote

import tinycss2
from tinycss2.ast import Node

from .css_cover import cover_reason
from .css_values import significant as _significant
from .hidden_css import hiding_reason

__all__ = ["HidingRule", "Selector", "StyleRule", "data_stylesheet", "hiding_rules", "style_rules"]


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
        generated: the pseudo-element is ``::before`` or ``::after`` (a box of its own,
            drawn inside the element: it can cover the element's text).
        pseudo: that pseudo-element's name (``"before"``), else ``""``.
        specificity: ``(ids, classes, types)`` of the whole selector, for the cascade.
        certain: the subject is the whole selector (no ancestor, sibling or
            pseudo-class this reading ignores): it matches exactly what the browser does.
    """

    tag: str | None
    classes: frozenset[str] = frozenset()
    ids: frozenset[str] = frozenset()
    attributes: tuple[tuple[str, str, str, bool], ...] = ()
    pseudo_element: bool = False
    interactive: bool = False
    generated: bool = False
    pseudo: str = ""
    specificity: tuple[int, int, int] = (0, 0, 0)
    certain: bool = True


@dataclass(frozen=True)
class HidingRule:
    """A style rule that hides what it selects: its selectors and why (a phrase).
    ``covers``: what it selects is an opaque overlay
    (:func:`provider.wiki.css_cover.cover_reason`) hiding the text of its containing
    block, not its own; for a ``::before``/``::after`` selector, the text of the element
    it is drawn in (at least)."""

    selectors: tuple[Selector, ...]
    reason: str
    text: str
    covers: bool = False


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
    certain = start == 0
    pseudo = ""
    tag: str | None = None
    classes: set[str] = set()
    ids: set[str] = set()
    attributes: list[tuple[str, str, str, bool]] = []
    pseudo_element = interactive = generated = False
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
                named = compound[index + 1] if index + 1 < len(compound) else None
                if named is not None and named.type == "ident" and named.lower_value in ("before", "after"):
                    generated, pseudo = True, named.lower_value
            elif following is not None and following.type == "ident" and following.lower_value in (
                    "before", "after", "first-line", "first-letter", "marker", "placeholder"):
                pseudo_element = True  # the CSS 2 spelling ``:before``
                if following.lower_value in ("before", "after"):
                    generated, pseudo = True, following.lower_value
            elif following is not None and following.type == "ident" and following.lower_value in _INTERACTIVE:
                interactive = True
            else:
                certain = False
            # Another pseudo-class (``:first-child``, ``:not(…)``) narrows the match:
            # ignoring it matches at least what the browser does.
            index += 1
        else:
            return None
        index += 1
    return Selector(tag, frozenset(classes), frozenset(ids), tuple(attributes), pseudo_element, interactive,
                    generated, pseudo, _specificity(tokens), certain)


def _specificity(tokens: list[Node]) -> tuple[int, int, int]:
    """``(ids, classes, types)`` of a complex selector, counted over all its compounds."""
    ids = classes = types = 0
    before: Node | None = None
    for token in tokens:
        if token.type == "hash":
            ids += 1
        elif token.type == "[] block" or (token.type == "ident" and before is not None and before.type == "literal"
                                          and before.value in (".", ":")):
            classes += 1
        elif token.type == "ident" and (before is None or before.type == "whitespace"
                                        or (before.type == "literal" and before.value in (">", "+", "~"))):
            types += 1
        if token.type != "comment":
            before = token
    return ids, classes, types


#: Pseudo-classes that hold only while the reader interacts with the element.
_INTERACTIVE = frozenset(("hover", "focus", "active", "focus-within", "focus-visible", "target"))


def _print_only(prelude: Sequence[Node]) -> bool:
    """Whether a ``@media`` query list is print only (``print``, ``only print``, every
    query of the list naming ``print``)."""
    queries = _split_selectors(prelude)
    return bool(queries) and all(
        [t.lower_value for t in _significant(q) if t.type == "ident"][:2] in (["print"], ["only", "print"])
        for q in queries)


def data_stylesheet(url: str) -> str | None:
    """The CSS text of a ``data:text/css,…`` URL (percent-encoded or base64), else
    ``None`` (another scheme or type: not read here)."""
    head, comma, data = url.strip().partition(",")
    if not comma or not head.lower().startswith("data:") or "css" not in head.lower():
        return None
    if head.lower().endswith(";base64"):
        try:
            return base64.b64decode(unquote(data), validate=False).decode("utf-8", "replace")
        except (ValueError, binascii.Error):
            return "* { display: none }"  # unreadable: fail closed for everything
    return unquote(data)


def _rules(nodes: Sequence[Node], depth: int = 0) -> Iterable[tuple[Sequence[Node], Sequence[Node]]]:
    for node in nodes:
        if node.type == "qualified-rule":
            yield node.prelude, node.content
            if depth < 8:  # nested rules (``.a { & .b { display: none } }``): their own subjects
                inner = tinycss2.parse_blocks_contents(node.content, skip_comments=True, skip_whitespace=True)
                yield from _rules([n for n in inner if n.type != "declaration"], depth + 1)
        elif node.type == "at-rule" and node.lower_at_keyword == "import" and depth < 8:
            url = next((t.value if t.type in ("url", "string") else tinycss2.serialize(t.arguments).strip("'\" ")
                        for t in node.prelude if t.type in ("url", "string")
                        or (t.type == "function" and t.lower_name == "url")), "")
            css = data_stylesheet(url)
            if css is not None:
                yield from _rules(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True), depth + 1)
        elif node.type == "at-rule" and node.content is not None and depth < 8:
            if node.lower_at_keyword == "media" and _print_only(node.prelude):
                continue
            if node.lower_at_keyword in ("media", "supports", "layer", "container", "document", "scope"):
                inner = tinycss2.parse_rule_list(node.content, skip_comments=True, skip_whitespace=True)
                yield from _rules(inner, depth + 1)


@dataclass(frozen=True)
class StyleRule:
    """Any style rule of a page's stylesheet, for the cascade: its selectors, its
    declarations (CSS text) and its place in the sheet (later wins at equal specificity)."""

    selectors: tuple[Selector, ...]
    declarations: str
    order: int


def style_rules(stylesheet: str) -> list[StyleRule]:
    """Every style rule of a page's ``<style>`` text (print-only ones left out; see the
    module docstring), in source order. A selector that cannot be read selects
    everything and is not :attr:`Selector.certain`."""
    out: list[StyleRule] = []
    for order, (prelude, content) in enumerate(
            _rules(tinycss2.parse_stylesheet(stylesheet, skip_comments=True, skip_whitespace=True))):
        selectors = tuple(_subject(part) or Selector(None, certain=False) for part in _split_selectors(prelude))
        out.append(StyleRule(selectors, tinycss2.serialize(content), order))
    return out


def hiding_rules(stylesheet: str) -> list[HidingRule]:
    """The rules of a page's ``<style>`` text that hide what they select. A selector
    that cannot be read is taken to select everything (``Selector(tag=None)``): a
    hiding rule never goes unnoticed because its selector is unusual."""
    out: list[HidingRule] = []
    for prelude, content in _rules(tinycss2.parse_stylesheet(stylesheet, skip_comments=True, skip_whitespace=True)):
        reason = hiding_reason(content)
        covers = None if reason is not None else cover_reason(content)
        if reason is None and covers is None:
            continue
        selectors = tuple(_subject(part) or Selector(None) for part in _split_selectors(prelude))
        out.append(HidingRule(selectors, reason or covers or "", tinycss2.serialize(prelude).strip()[:200],
                              covers=covers is not None))
    return out
