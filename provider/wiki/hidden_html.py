"""Text a page holds that its site does not show: hidden HTML elements, found by parsing.

A Markdown page may carry HTML (and MDX/JSX, and attribute lists) that the site renders
but hides from every reader; text in such an element must not reach ``customer_safe``
(CONTRACT S1). :func:`hidden_elements` reads the body with an HTML parser (the standard
library's, which decodes character references in attribute values once, as a browser
does: ``style="display&#58;none"`` is ``display:none``) and each style with a CSS
tokenizer (:mod:`provider.wiki.hidden_css`), and reports every element that holds text
and is hidden:

* by its own attributes: ``hidden`` (any value, ``until-found`` too; ``hidden={false}``
  in JSX is not), an inline ``style`` — HTML, or a JSX object (``style={{display:
  "none"}}``, React's camelCase and unit-less pixels) — that hides it
  (:func:`provider.wiki.hidden_css.hiding_reason`), SVG presentation attributes
  (``display="none"``, ``opacity="0"``, ``transform``, ``clip-path``, ``fill="none"``),
  ``<font color="white">``, classes (:func:`provider.wiki.hiding_classes.class_reason`),
  ``<input type="hidden" value=…>``; in MDX, props not written as plain literals
  (spread props ``{...{hidden: true}}``, a style's computed key, ``+``, a template
  literal: fail closed), a ``style``/``className`` the page's script
  computes (``style={h}``) and a component the page defines that renders none of its
  ``children`` (fail closed);
* by a front-end framework's attributes: ``ng-cloak``, ``v-cloak``, ``x-cloak``;
  ``v-if``/``v-show``/``x-show``/``x-if``/``*ngIf``/``ng-if`` with anything but a
  literal true (a variable is the script's to decide: fail closed); ``[hidden]``,
  ``ng-hide`` with anything but a literal false;
* by what it is: ``<template>``, ``<noscript>`` (shown only without JavaScript),
  ``<noembed>``, ``<noframes>``, ``<datalist>``, a ``<title>`` in the body, MathML
  annotations, SVG parts never drawn themselves (``<desc>``, ``<defs>``, ``<symbol>``,
  ``<clipPath>``, ``<mask>``, ``<metadata>``…), an ``<svg>`` of no size, a ``<dialog>``
  without ``open``, a ``popover`` no element of the page opens (``popovertarget``), the
  fallback content of ``<video>``, ``<audio>``, ``<iframe>``, ``<canvas>``,
  ``<progress>``, ``<meter>`` and of an ``<object>`` with ``data`` (a browser shows the
  element instead);
* by SVG drawing rules: text outside the ``viewBox``, a white ``fill`` in a drawing
  with no darker shape, ``<switch>`` children after the first, a ``<textPath>`` to a
  missing path, a ``<foreignObject>`` of no size;
* by a text colour too close to the background of the nearest box it is in that paints
  one (and shown when that background contrasts: ``color: #fff`` in a dark box);
* by a column of its table (``<col style="visibility: collapse">``: the whole table);
* by an opaque overlay: an element — or a ``::before``/``::after`` of a page rule — moved
  over other content and painting an opaque area (:mod:`provider.wiki.css_cover`), its
  declarations the cascade of every page rule matching it and its inline style, hides
  the text under it that is not painted above it: for an out-of-flow box the text of
  its containing block (the nearest ancestor positioned or transformed; the element a
  pseudo-element is drawn in at least; with none, the window: the overlay is reported
  for the whole page), for a box moved in the flow the text of the element it is in;
* by what its ancestors pass on: opacity, font size and transform scale multiplied
  down the element stack (``opacity: 0.3`` inside ``opacity: 0.3``);
* by a rule of a ``<style>`` element of the page (or a ``<link rel=stylesheet>`` to a
  ``data:text/css`` URL; nested rules and ``@import`` of such a URL included) (:mod:`provider.wiki.css_rules`: class,
  id, attribute and type selectors, selector lists, ``!important``, inside any
  ``@media`` but print). A hiding
  rule whose selectors match no element written in the page may hide what the site
  renders from the Markdown (``p``, ``.markdown``): the ``<style>`` element itself is
  reported;
* by an attribute list of the Markdown dialects (kramdown and Python-Markdown
  ``{: .sr-only}``, ``{: hidden}``, ``{: style="display:none"}``; Pandoc ``::: {.hidden}``,
  ``[text]{.hidden}``), read into the same attributes.

Not hidden: ``<details>`` (its text is one click away, and published), ``<summary>``,
``aria-hidden`` alone (it hides from screen readers only: every sighted reader sees the
text), ``@media print`` rules (hidden on paper only), an element with no text. Whether
an element is shown as code (a fence, a code span: never rendered HTML) is not decided
here: the caller asks :func:`provider.wiki.code_shown.shown_as_code` about the spans.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser

from .css_cover import REPLACED, Cover, cover, isolates, positions, stacking
from .css_rules import HidingRule, Selector, StyleRule, data_stylesheet, hiding_rules, style_rules
from .css_values import colour_alpha
from .hidden_css import Nesting, background_css, hiding_reason, nesting
from .hiding_classes import HIDING_CLASSES, RESPONSIVE_HIDING, SHOWN_AT_A_WIDTH, class_reason
from .plaintext import ATTRIBUTE_LIST, ATTRIBUTE_PART, SKIP_CONTENT_TAGS

__all__ = ["HIDING_CLASSES", "RESPONSIVE_HIDING", "SHOWN_AT_A_WIDTH", "HiddenElement",
           "hidden_elements"]

#: SVG parts never drawn themselves; outside an ``<svg>`` (and MathML's outside ``<math>``)
#: the same names are unknown HTML elements, shown (``<pattern>`` as a placeholder in prose).
_SVG_PARTS = ("desc", "metadata", "defs", "symbol", "clippath", "mask", "lineargradient", "radialgradient", "pattern",
              "marker", "filter")
_FOREIGN_PARTS = frozenset({*_SVG_PARTS, "annotation", "annotation-xml"})
#: Elements whose content no browser with scripts shows.
_UNSHOWN = {"template": "<template> content", "noscript": "<noscript> content (shown only without JavaScript)",
            "noembed": "<noembed> content", "noframes": "<noframes> content",
            "datalist": "<datalist> options (suggestions, not text of the page)",
            "title": "<title> (a tooltip or the tab's name, not text of the page)",
            "annotation": "MathML annotation", "annotation-xml": "MathML annotation",
            # SVG elements that are never drawn themselves: definitions, metadata.
            **{tag: f"SVG <{tag}> (never drawn)" for tag in _SVG_PARTS}}
#: Elements a browser shows instead of their content (the content is fallback).
_MEDIA = frozenset({"video", "audio", "iframe", "canvas", "progress", "meter"})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
                   "track", "wbr"})
#: Elements the site renders from Markdown itself (no tag in the source): a type
#: selector naming one hides the page's own text.
_MARKDOWN_TAGS = frozenset({"p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "code",
                            "table", "thead", "tbody", "tr", "td", "th", "a", "em", "strong", "img", "hr", "br",
                            "html", "body", "main", "article", "div", "span", "section", "dl", "dt", "dd", "del"})
#: SVG/HTML presentation attributes read as the CSS property of the same name.
_PRESENTATION = ("display", "visibility", "opacity", "font-size", "color", "fill-opacity", "clip-path", "mask",
                 "filter", "transform", "width", "height", "overflow")
#: React's unit-less style properties (a number there is not pixels).
_UNITLESS = frozenset({"opacity", "z-index", "font-weight", "line-height", "flex", "flex-grow", "flex-shrink",
                       "order", "zoom", "scale", "fill-opacity"})
# A "<" that opens no tag within 1,000 characters: html.parser would read the rest of
# the page as one unfinished tag, again from each following "<" (quadratic).
_UNBOUNDED_OPEN = re.compile(r"<(?!/?[A-Za-z][^<>]{0,1000}>|![^<>]{0,1000}>)")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_JSX_STYLE = re.compile(r"\bstyle\s*=\s*\{\{")
# ``style={h}``, ``className={styles.x}``: a value the page's script computes.
_JSX_EXPRESSION = re.compile(r"""\b(style|className|class)\s*=\s*\{(?!\{)\s*(?!["'][^"'{}]*["']\s*\}|`[^`$]*`\s*\})""")
# A component the page defines itself (``export const Note = () => null``), to its end.
_PAGE_COMPONENT = re.compile(
    r"^export\s+(?:default\s+)?(?:const|let|var|function)\s+([A-Z][\w$]*)(.{0,2000}?)(?=\n[ \t]*\n|\Z)",
    re.MULTILINE | re.DOTALL)
_TAG_NAME = re.compile(r"<\s*([A-Za-z][\w.:-]*)")
_JS_TOKEN = re.compile(r"""\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[-+]?\d*\.?\d+(?:e-?\d+)?|[\w$-]+|\S)""")
#: An attribute list of kramdown, Python-Markdown's attr_list and Pandoc: ``{: .x #y k=v}``.


@dataclass(frozen=True)
class HiddenElement:
    """An element the site hides, or a ``<style>`` element hiding what it renders.

    Attributes:
        start: offset in the body of the element's start tag (or attribute list).
        end: offset just after it.
        reason: why it is hidden, for the finding (``"display: none"``).
    """

    start: int
    end: int
    reason: str


@dataclass
class _Element:
    tag: str
    attributes: dict[str, str]
    start: int
    end: int
    raw: str
    has_text: bool = False
    #: Inside an ``<svg>`` or ``<math>`` element.
    foreign: bool = False
    #: Text anywhere inside, also where the indexed text leaves it out.
    any_text: bool = False
    #: The element it is written in (``None``: at the top of the body).
    parent: _Element | None = None
    #: Text directly inside it (not only in its children).
    own_text: bool = False

    @property
    def classes(self) -> list[str]:
        value = self.attributes.get("class", "") + " " + self.attributes.get("classname", "")
        return re.findall(r"[^\s{}\"'`]+", value)


@dataclass(frozen=True)
class StyleSheet:
    """A ``<style>`` element: where its start tag is and its hiding rules."""

    start: int
    end: int
    rules: tuple[HidingRule, ...]
    cascade: tuple[StyleRule, ...] = ()


class _Reader(HTMLParser):
    """Elements with their attributes (decoded once) and whether they hold text."""

    def __init__(self, body: str) -> None:
        super().__init__(convert_charrefs=True)
        self.body = body
        self.starts = [0] + [i + 1 for i, char in enumerate(body) if char == "\n"]
        self.elements: list[_Element] = []
        self.styles: list[tuple[int, int, str]] = []
        self._open: list[_Element] = []
        self._style: tuple[int, int, list[str]] | None = None

    def set_cdata_mode(self, *_args: object, **_kwargs: object) -> None:
        # No raw-text mode for <script>/<style>: a ``<script>`` shown in a code fence, its
        # end tag missing or in a later fence, would swallow the real elements between
        # (they are found here and judged by the caller's code test; CSS holds no tags).
        return

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raw = self.get_starttag_text() or ""
        start = self._offset()
        self.flush_style()  # a tag ends a style's text: CSS holds none
        element = _Element(tag, {name: value or "" for name, value in reversed(attrs)}, start, start + len(raw), raw,
                           foreign=any(e.tag in ("svg", "math") for e in self._open),
                           parent=self._open[-1] if self._open else None)
        self.elements.append(element)
        if tag == "style":
            self._style = (element.start, element.end, [])
        elif tag in _VOID:
            element.has_text = bool(element.attributes.get("value", "").strip()
                                    or element.attributes.get("alt", "").strip())
        else:
            self._open.append(element)

    def flush_style(self) -> None:
        """End the ``<style>`` element being read (at its end tag, or the body's end)."""
        if self._style is not None:
            start, end, parts = self._style
            self.styles.append((start, end, "".join(parts)))
            self._style = None

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID and tag != "style" and self._open and self._open[-1].tag == tag:
            self._open.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self.flush_style()
        for index in range(len(self._open) - 1, -1, -1):
            if self._open[index].tag == tag:
                del self._open[index:]
                break

    def handle_data(self, data: str) -> None:
        if self._style is not None:
            self._style[2].append(data)
            return
        if not data.strip():
            return
        start = self._offset()
        if self._open:
            self._open[-1].own_text = True
        for element in self._open:
            element.any_text = True
            if element.tag not in SKIP_CONTENT_TAGS:
                element.has_text = True
            elif not element.has_text:
                # The indexed text leaves this element's content out while it is in the
                # Markdown block the element opens; a blank line ends that block, and
                # what follows it is indexed as the page's text.
                blank = _BLANK_LINE.search(self.body, element.end, start + len(data))
                element.has_text = blank is not None and bool(self.body[max(blank.end(), start):
                                                                        start + len(data)].strip())


def _readable(body: str) -> str:
    """The body with what html.parser must not read blanked, offsets kept: comments
    (they show nothing) and a "<" that opens no tag."""
    def blank(match: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", match.group(0))

    return _UNBOUNDED_OPEN.sub(" ", _COMMENT.sub(blank, body))


def _attribute_lists(body: str) -> list[_Element]:
    out = []
    for match in ATTRIBUTE_LIST.finditer(body):
        attributes: dict[str, str] = {}
        for part in ATTRIBUTE_PART.findall(match.group(1) or match.group(2)):
            if part.startswith("."):
                attributes["class"] = f"{attributes.get('class', '')} {unescape(part[1:])}"
            elif part.startswith("#"):
                attributes["id"] = unescape(part[1:])
            else:
                name, _, value = part.partition("=")
                attributes[name.lower()] = unescape(value.strip("\"'"))
        out.append(_Element("*", attributes, match.start(), match.end(), match.group(0), has_text=True))
    return out


def _js_string(token: str) -> str:
    if token.startswith("'"):
        token = '"' + token[1:-1].replace('\\"', '"').replace('"', '\\"') + '"'
    try:
        value = json.loads(token)
    except ValueError:
        return token.strip("\"'")
    return value if isinstance(value, str) else token


def _jsx_style(raw: str) -> str | None:
    """A JSX ``style={{…}}`` object as CSS declarations (``fontSize: 0`` as
    ``font-size: 0px``), or ``None`` when the tag has none."""
    found = _JSX_STYLE.search(raw)
    if found is None:
        return None
    tokens = [m.group(1) for m in _JS_TOKEN.finditer(raw, found.end())]
    declarations: list[str] = []
    depth = 0
    key: str | None = None
    value: list[str] = []
    for token in tokens:
        if token in ("{", "(", "["):
            depth += 1
        elif token in ("}", ")", "]"):
            if depth == 0:
                break
            depth -= 1
        if depth == 0 and token == ":" and key is None and value:  # noqa: S105 - JavaScript punctuation
            key, value = value[0], []
        elif depth == 0 and token == ",":  # noqa: S105
            declarations.append(_declaration(key, value))
            key, value = None, []
        else:
            value.append(token)
    declarations.append(_declaration(key, value))
    return "; ".join(d for d in declarations if d)


_NOT_LITERAL = frozenset({"[", "`", "+", ".", "?", "(", "$"})
_SPREAD = re.compile(r"\{\s*\.\.\.")


def _jsx_computed(raw: str) -> str | None:
    """Why a JSX tag's props are not plain literals (spread props ``{...{hidden: true}}``,
    a computed key ``{["display"]: "none"}``, ``"no" + "ne"``, a template literal in a
    style): what they set is the script's to decide (fail closed)."""
    if _SPREAD.search(raw):
        return "props spread from an expression (fail closed)"
    found = _JSX_STYLE.search(raw)
    if found is None:
        return None
    depth = 0
    for match in _JS_TOKEN.finditer(raw, found.end()):
        token = match.group(1)
        if token == "{":  # noqa: S105 - JavaScript punctuation
            depth += 1
        elif token == "}":  # noqa: S105
            if depth == 0:
                return None
            depth -= 1
        elif token in _NOT_LITERAL:
            return "style object that is not a plain literal (fail closed)"
    return None


def _declaration(key: str | None, value: list[str]) -> str:
    if key is None or not value:
        return ""
    name = re.sub(r"[A-Z]", lambda m: "-" + m.group(0).lower(), _js_string(key))
    text = " ".join(_js_string(token) if token[:1] in "\"'" else token for token in value)
    if re.fullmatch(r"[-+]?\d*\.?\d+", text) and name not in _UNITLESS and float(text) != 0:
        text += "px"
    return f"{name}: {text}"


def _svg_reason(attributes: dict[str, str]) -> str | None:
    """An ``<svg>`` of no size (its overflow is cut off), or a ``viewBox`` of none."""
    box = attributes.get("viewbox", "").replace(",", " ").split()
    if len(box) == 4 and any(part in ("0", "-0", "0.0") for part in box[2:]):
        return "SVG viewBox of no size"
    sizes = "; ".join(f"{name}: {attributes[name]}" for name in ("width", "height") if name in attributes)
    style = attributes.get("style", "")
    return hiding_reason(f"overflow: hidden; {sizes}; {style}") if sizes or style else None


def _fill_reason(attributes: dict[str, str]) -> str | None:
    """SVG text painted with no fill and no stroke. (Its fill's colour is not compared
    with the page: SVG text is drawn over shapes of its own.)"""
    fill = attributes.get("fill", "").strip().lower()
    if not fill or colour_alpha(fill) >= 0.1 or "stroke" in attributes:
        return None
    return f"fill: {fill}"


#: Attributes a front-end framework hides an element with until its script runs.
_CLOAKS = ("ng-cloak", "data-ng-cloak", "x-cloak", "v-cloak")
#: Attributes that show an element only when their expression is true (and the
#: framework's script ran), and those that hide it when it is.
_SHOWN_IF = ("v-if", "v-show", "x-show", "x-if", "*ngif", "ng-if", "ng-show", "data-ng-if", "data-ng-show",
             "v-else-if")
_HIDDEN_IF = ("[hidden]", ":hidden", "v-bind:hidden", "ng-hide", "data-ng-hide", "x-bind:hidden", "[class.hidden]")
_TRUE = frozenset({"true", "1", "!false", "!0", "'x'", "!!1"})
_FALSE = frozenset({"false", "0", "null", "undefined", "''", '""', "!true", "!1"})


def _framework_reason(attributes: dict[str, str]) -> str | None:
    """Vue, Alpine and Angular attributes that keep an element hidden: a cloak, a
    condition that is false, or one only the page's script decides (fail closed: its
    text is shown, if ever, only after a script runs). A literal ``true`` shows."""
    for name in _CLOAKS:
        if name in attributes:
            return f"{name} (shown only after the page's script runs)"
    for name in _SHOWN_IF:
        if name in attributes and attributes[name].strip().lower() not in _TRUE:
            return f'{name}="{attributes[name].strip()[:40]}" (shown only if the page\'s script finds it true)'
    for name in _HIDDEN_IF:
        if name in attributes and attributes[name].strip().lower() not in _FALSE:
            return f'{name}="{attributes[name].strip()[:40]}" (hidden unless the page\'s script finds it false)'
    return None


def _own_reason(element: _Element, opened: set[str], components: frozenset[str] = frozenset()) -> str | None:
    """Why an element is hidden by its own name and attributes, else ``None``."""
    attributes, tag = element.attributes, element.tag
    named = _TAG_NAME.match(element.raw)
    if named is not None and named.group(1) in components:
        return f"component <{named.group(1)}> the page defines renders none of its content"
    if (reason := _jsx_computed(element.raw)) is not None:
        return reason
    expression = _JSX_EXPRESSION.search(element.raw)
    if expression is not None:
        return f"{expression.group(1)} from an expression the page evaluates (fail closed)"
    if tag == "svg" and (reason := _svg_reason(attributes)) is not None:
        return reason
    if (reason := _fill_reason(attributes)) is not None:
        return reason
    if "hidden" in attributes and attributes["hidden"].strip().lower() not in ("{false}", "{ false }"):
        return "hidden attribute"
    if (reason := _framework_reason(attributes)) is not None:
        return reason
    written_as = named.group(1) if named is not None else tag
    if (tag in _UNSHOWN and not written_as[:1].isupper()  # ``<Title>`` is an MDX component
            and (element.foreign or tag not in _FOREIGN_PARTS)):
        return _UNSHOWN[tag]
    if tag == "dialog" and ("open" not in attributes or attributes["open"].strip() == "{false}"):
        return "<dialog> without open"
    if "popover" in attributes and attributes.get("id") not in opened:
        return "popover no element opens"
    if (tag in _MEDIA and not written_as[:1].isupper()) or (tag == "object" and attributes.get("data")):
        return f"<{tag}> fallback content"
    if tag == "input" and attributes.get("type", "").strip().lower() == "hidden":
        return "hidden input"
    for css in _styles(element):
        reason = hiding_reason(css) if css.strip() else None
        if reason is not None:
            return reason
    return class_reason(element.classes)


def _styles(element: _Element) -> tuple[str, str]:
    """The element's inline style (HTML or JSX) and its presentation attributes, as CSS."""
    style = _jsx_style(element.raw)
    attributes = element.attributes
    return (style if style is not None else attributes.get("style", ""),
            "; ".join(f"{name}: {attributes[name]}" for name in _PRESENTATION if name in attributes))


_SHAPES = frozenset({"rect", "circle", "ellipse", "path", "polygon", "polyline", "image", "use"})
_SVG_NUMBER = re.compile(r"^\s*([-+]?\d*\.?\d+(?:e[-+]?\d+)?)\s*(?:px)?\s*(?:[,\s]|$)")


def _svg_number(text: str) -> float | None:
    found = _SVG_NUMBER.match(text)
    return float(found.group(1)) if found is not None else None


def _ancestor(element: _Element, tag: str) -> _Element | None:
    parent = element.parent
    while parent is not None and parent.tag != tag:
        parent = parent.parent
    return parent


def _outside_view(element: _Element, svg: _Element) -> bool:
    """SVG text placed wholly outside its ``<svg>``'s ``viewBox`` (or, without one, its
    width and height in pixels): cut off there."""
    box = [_svg_number(part) for part in svg.attributes.get("viewbox", "").replace(",", " ").split()]
    if not box and "width" in svg.attributes and "height" in svg.attributes:  # user units are pixels
        box = [0.0, 0.0, *(_svg_number(svg.attributes[n]) for n in ("width", "height"))]
    if len(box) != 4 or any(b is None for b in box) or svg.attributes.get("overflow", "").strip() == "visible":
        return False
    left, top, width, height = (b or 0.0 for b in box)
    moving = {"transform", "dx", "dy", "style"}
    parent: _Element | None = element
    while parent is not None and parent is not svg:  # a transform may move it back: not read here
        if moving & set(parent.attributes):
            return False
        parent = parent.parent
    x, y = (_svg_number(element.attributes[axis]) if axis in element.attributes else None for axis in ("x", "y"))
    size = _svg_number(element.attributes.get("font-size", "16")) or 16.0
    return ((x is not None and (x >= left + width or x <= left - 2000))
            or (y is not None and (y <= top - size or y >= top + height + size)))


def _svg_reasons(elements: list[_Element]) -> dict[int, str]:
    """SVG text a browser does not draw: placed outside the ``viewBox``, filled the
    page's white in a drawing with no darker shape to sit on, a ``<switch>`` child after
    the first (fail closed: the first is the usual fallback chain's pick), a
    ``<textPath>`` to no path of the page, a ``<foreignObject>`` of no size (its default)."""
    ids = {element.attributes.get("id") for element in elements}
    out: dict[int, str] = {}
    for element in elements:
        if not element.foreign:
            continue
        svg = _ancestor(element, "svg")
        parent = element.parent
        if parent is not None and parent.tag == "switch" and element is not next(
                (e for e in elements if e.parent is parent), element):
            out[id(element)] = "SVG <switch> child after the first (not drawn)"
        elif element.tag == "textpath" and (element.attributes.get("href") or element.attributes.get(
                "xlink:href", "")).strip().lstrip("#") not in ids:
            out[id(element)] = "SVG <textPath> to a path the page does not hold"
        elif element.tag == "foreignobject" and any(
                (_svg_number(element.attributes.get(n, "0")) or 0.0) <= 0 for n in ("width", "height")):
            out[id(element)] = "SVG <foreignObject> of no size"
        elif element.tag in ("text", "tspan") and svg is not None and _outside_view(element, svg):
            out[id(element)] = "SVG text outside the viewBox"
        elif element.tag in ("text", "tspan", "g") and svg is not None and _light_fill(element, svg, elements):
            out[id(element)] = f"SVG text filled {element.attributes['fill']} on the white page"
    return out


def _light_fill(element: _Element, svg: _Element, elements: list[_Element]) -> bool:
    fill = element.attributes.get("fill", "").strip()
    if not fill or hiding_reason(f"color: {fill}") is None:
        return False
    for other in elements:  # a shape drawn in a colour the text can sit on
        shape_fill = other.attributes.get("fill", "").strip()
        if other.tag in _SHAPES and _ancestor(other, "svg") is svg and shape_fill.lower() != "none" and (
                not shape_fill or hiding_reason(f"color: {shape_fill}") is None):
            return False
    return True


def _collapsed_columns(elements: list[_Element]) -> dict[int, str]:
    """Tables (by ``id``) with a column (``<col>``, ``<colgroup>``) whose style hides
    it: its cells are not shown, and which cells they are is not worked out here (the
    whole table fails closed)."""
    out: dict[int, str] = {}
    for element in elements:
        if element.tag not in ("col", "colgroup"):
            continue
        reason = next((r for css in _styles(element) if css.strip() and (r := hiding_reason(css))), None)
        table = element.parent
        while table is not None and table.tag != "table":
            table = table.parent
        if reason is not None and table is not None:
            out[id(table)] = f"a column of the table is hidden ({reason})"
    return out


def _on_ancestor_background(elements: list[_Element]) -> tuple[dict[int, str], set[int]]:
    """Elements (by ``id``) whose text colour, compared with the nearest ancestor's
    background rather than the page's white, hides them (``color: #000`` in a black
    box); and those it shows (``color: #fff`` in a dark box)."""
    painted: dict[int, str | None] = {}
    hidden: dict[int, str] = {}
    shown: set[int] = set()
    for element in elements:
        style, presentation = _styles(element)
        css = f"{presentation}; {style}" if presentation else style
        own = background_css(css) if css.strip() else None
        inherited = painted.get(id(element.parent)) if element.parent is not None else None
        painted[id(element)] = own or inherited
        if own is None and inherited is not None and css.strip():
            reason = hiding_reason(f"{inherited}; {css}")
            if reason is not None and "coloured as its background" in reason:
                hidden[id(element)] = f"{reason} (the background of a box it is in)"
            elif reason is None:
                shown.add(id(element))
    return hidden, shown


def _compounded(elements: list[_Element]) -> dict[int, str]:
    """Elements (by ``id``) hidden only by what their ancestors pass on: opacity, font
    size and transform scale multiplied down the element stack (each alone shows)."""
    chain: dict[int, Nesting] = {}
    out: dict[int, str] = {}
    for element in elements:  # in document order: a parent before its children
        style, presentation = _styles(element)
        css = f"{presentation}; {style}" if presentation else style
        own, absolute = nesting(css) if css.strip() else (Nesting(), False)
        parent = chain.get(id(element.parent)) if element.parent is not None else None
        total = own.within(parent, absolute) if parent is not None else own
        chain[id(element)] = total
        if parent is not None and (reason := total.reason()) is not None:
            out[id(element)] = reason
    return out


def _silent_components(body: str) -> frozenset[str]:
    """Components the page defines (MDX ``export``) that render none of their content:
    their definition never mentions ``children`` (nor passes all ``props`` on)."""
    if "export" not in body:
        return frozenset()
    return frozenset(m.group(1) for m in _PAGE_COMPONENT.finditer(body)
                     if not re.search(r"\bchildren\b|\bprops\b|\.\.\.", m.group(2)))


def _attribute_matches(element: _Element, name: str, operator: str, value: str, insensitive: bool) -> bool:
    if name == "class" and "classname" in element.attributes:
        have: str | None = " ".join(element.classes)
    else:
        have = element.attributes.get(name)
    if have is None:
        return False
    if not operator:
        return True
    if insensitive:
        have, value = have.lower(), value.lower()
    checks = {"=": have == value, "~=": value in have.split(), "|=": have == value or have.startswith(value + "-"),
              "^=": bool(value) and have.startswith(value), "$=": bool(value) and have.endswith(value),
              "*=": bool(value) and value in have}
    return checks.get(operator, True)  # an operator not known: match (fail closed)


def _matches(selector: Selector, element: _Element) -> bool:
    if selector.pseudo_element or selector.interactive:
        return False
    if selector.tag is not None and selector.tag != element.tag:
        return False
    return (selector.classes <= set(element.classes)
            and (not selector.ids or element.attributes.get("id") in selector.ids)
            and all(_attribute_matches(element, *attribute) for attribute in selector.attributes))


def _subject_matches(selector: Selector, element: _Element) -> bool:
    """Whether the subject of a selector (its pseudo-element and pseudo-classes aside)
    matches an element."""
    return ((selector.tag is None or selector.tag == element.tag) and selector.classes <= set(element.classes)
            and (not selector.ids or element.attributes.get("id") in selector.ids)
            and all(_attribute_matches(element, *attribute) for attribute in selector.attributes))


#: Words one of which a declaration list moving a box over content holds (a property
#: name with an escape in it, ``posi\tion``, is let through by its backslash).
_MOVING = ("position", "transform", "translate", "scale", "rotate", "margin", "grid", "\\")


def _selects_rendered(selector: Selector, covers: bool = False) -> bool:
    """Whether a selector can match what the site renders from Markdown (no class, id or
    attribute to tell it apart, and a tag Markdown makes or none); for an overlay rule
    (``covers``), its ``::before``/``::after`` too."""
    return ((not selector.pseudo_element or (covers and selector.generated)) and not selector.classes
            and not selector.ids and not selector.attributes
            and (selector.tag is None or selector.tag in _MARKDOWN_TAGS))


@dataclass(frozen=True)
class _Cover:
    """An opaque overlay (:func:`provider.wiki.css_cover.cover`): the element it is
    (``pseudo`` empty) or the element whose ``::before``/``::after`` it is, and what it
    paints."""

    index: int
    box: Cover
    pseudo: str = ""


def _cascaded(element: _Element, rules: Sequence[StyleRule], pseudo: str, certain_only: bool) -> str:
    """The declarations in force for an element (or its ``::before``/``::after``): the
    page rules matching it by specificity and order, then its presentation attributes
    and inline style (which win over rules; ``!important`` is :func:`computed`'s)."""
    matched: list[tuple[tuple[int, int, int], int, int, str]] = []
    for number, rule in enumerate(rules):
        for selector in rule.selectors:
            if selector.interactive or selector.pseudo != pseudo or (certain_only and not selector.certain):
                continue
            if selector.pseudo_element and not pseudo:
                continue
            if _subject_matches(selector, element):
                matched.append((selector.specificity, number, rule.order, rule.declarations))
                break
    parts = [css for *_key, css in sorted(matched)]
    if not pseudo:
        style, presentation = _styles(element)
        parts += [presentation, style]
    return "; ".join(part for part in parts if part.strip())


def _cover_boxes(elements: list[_Element], rules: Sequence[StyleRule]) -> tuple[list[_Cover], list[str]]:
    """The overlays of the page — elements, and ``::before``/``::after`` of elements,
    whose declarations in force (page rules and inline style together: position from
    one rule, paint from another) make them one — and each element's declarations in
    force from the rules that surely match it (for stacking and containing blocks). A
    rule whose selector is read only in part (an ancestor, a pseudo-class) may or may
    not apply: the box is judged with and without such rules, and covers if either
    way covers (fail closed)."""
    out: list[_Cover] = []
    sure: list[str] = []
    where: dict[int, int] = {}
    for index, element in enumerate(elements):
        where[id(element)] = index
        replaced = element.tag in REPLACED
        parent = sure[where[id(element.parent)]] if element.parent is not None and id(element.parent) in where else ""
        atomic = bool(parent) and _lays_out_items(parent)
        for pseudo in ("", "before", "after"):
            if pseudo and not rules:
                break
            variants = dict.fromkeys((_cascaded(element, rules, pseudo, True),
                                      _cascaded(element, rules, pseudo, False)))
            if not pseudo:
                sure.append(next(iter(variants)))
            found = next((box for css in variants if any(word in css.lower() for word in _MOVING)
                          and (box := cover(css, replaced and not pseudo, bool(pseudo), atomic)) is not None), None)
            if found is not None:
                out.append(_Cover(index, found, pseudo))
    return out, sure


def _lays_out_items(css: str) -> bool:
    """Whether a box lays out its children as flex or grid items (each painted whole in
    its turn, like an inline block), or only the site decides its ``display``."""
    lowered = css.lower()
    return ("flex" in lowered or "grid" in lowered or "var(" in lowered or "\\" in lowered) and any(
        word in lowered for word in ("display", "\\"))


def _ancestors(element: _Element) -> list[_Element]:
    out: list[_Element] = []
    node = element.parent
    while node is not None:
        out.append(node)
        node = node.parent
    return out


def _covered(elements: list[_Element], box: _Cover, sure: list[str], children: dict[int, list[int]],
             where: dict[int, int]) -> list[HiddenElement]:
    """What an overlay hides: the text under it that is not painted above it. An
    out-of-flow box covers its containing block — the element it is drawn in (a
    ``::before``) when that element is positioned, else the nearest positioned ancestor;
    with none, the window: the whole page (the overlay is reported). A box shifted or
    stacked in the flow covers the element it is written in. Text in a box painted
    above the overlay (positioned, with a higher ``z-index``, or the same and later in
    the page) is not covered; nor is text in a box whose overflow is cut to no room."""
    element = elements[box.index]
    reason = box.box.reason
    if box.box.out_of_flow:
        block = element if box.pseudo else element.parent
        while block is not None:
            if positions(sure[where[id(block)]]):
                break
            if box.pseudo and block is element:
                break  # its own text at least, whatever its position (fail closed)
            block = block.parent
    else:
        block = element if box.pseudo else element.parent
    if block is None:
        return [HiddenElement(element.start, element.end, f"{reason}; it covers the window, and the page's text")]
    between = [element] if box.pseudo else []
    between += [a for a in _ancestors(element) if a is not block and block in _ancestors(a)] + [block]
    for clipping in between:
        if box.box.out_of_flow and clipping is not block and not positions(sure[where[id(clipping)]]):
            continue  # overflow clips an out-of-flow box only at or above its containing block
        clip = hiding_reason(sure[where[id(clipping)]])
        if clip is not None and clip.startswith("no room") and "fail closed" not in clip:
            return []  # the overlay is cut off with its box (whose own text is hidden anyway)
    lineage = {id(a) for a in _ancestors(element)} | {id(element)}
    z = box.box.z

    def above(index: int) -> bool:
        node = elements[index]
        depth = stacking(sure[index])
        if depth is None or z is None or id(node) in lineage:
            return False
        later = box.pseudo == "before" if node is element or id(element) in {id(a) for a in _ancestors(node)} \
            else node.start > element.start
        return depth > z or (depth == z and later)

    def exposed(index: int, depth: int = 0, trapped: bool = False) -> bool:
        node = elements[index]
        if depth > 64:
            return True  # nested past reading: fail closed
        if (node is element and not box.pseudo) or (not trapped and above(index)):
            return False
        # Inside a stacking context painted below the overlay nothing is painted above
        # it, whatever its own z-index (``z-index: 99`` within a ``z-index: 0`` box).
        trapped = trapped or (id(node) not in lineage and isolates(sure[index]))
        return node.own_text or any(exposed(child, depth + 1, trapped) for child in children.get(id(node), ()))

    if not block.has_text or not exposed(where[id(block)]):
        return []
    return [HiddenElement(block.start, block.end, reason)]


def _read(body: str) -> tuple[list[_Element], list[StyleSheet], bool]:
    """Every element written in the body (HTML and JSX tags, attribute lists), every
    ``<style>`` element with its hiding rules, and whether the parser gave up."""
    readable = _readable(body)
    reader = _Reader(readable)
    failed = False
    try:
        reader.feed(readable)
        reader.close()
        reader.flush_style()
    except Exception:  # html.parser's own assertion errors: what it did not read may hide text
        failed = True
    linked = [(e.start, e.end, css) for e in reader.elements if e.tag == "link"
              and "stylesheet" in e.attributes.get("rel", "").lower().split()
              and (css := data_stylesheet(e.attributes.get("href", ""))) is not None]
    sheets = [StyleSheet(start, end, tuple(hiding_rules(css)), tuple(style_rules(css)))
              for start, end, css in sorted(reader.styles + linked)]
    return [*reader.elements, *_attribute_lists(body)], sheets, failed


def _unwrapped(body: str, prepared: str, elements: list[_Element]) -> None:
    """Count all the text of an element whose content the indexed text leaves out only
    within its Markdown block, when the layout's dialect rules blank its start tag's line
    (MDX reads what is inside JSX as Markdown) or change the body's lines (fail closed)."""
    lines, prepared_lines = body.split("\n"), prepared.split("\n")
    same = len(lines) == len(prepared_lines)
    for element in elements:
        if element.tag in SKIP_CONTENT_TAGS and element.any_text and not element.has_text:
            line = body.count("\n", 0, element.start)
            element.has_text = not same or (not prepared_lines[line].strip() and bool(lines[line].strip()))


def hidden_elements(body: str, shown_as_code: Callable[[Sequence[tuple[int, int]]], set[int]],
                    prepared: str | None = None) -> list[HiddenElement]:
    """The elements of ``body`` (a Markdown page body) that hold text a reader of the
    site does not see, each with why, and the ``<style>`` elements whose hiding rules may
    hide what the site renders (see the module docstring).

    Args:
        body: the Markdown body.
        shown_as_code: given ``(start, end)`` spans of the body, the indexes of those the
            reader sees as code (:func:`provider.wiki.code_shown.shown_as_code`): such an
            element is text, and a ``<style>`` shown as code styles nothing.
        prepared: the body after the layout's dialect rules (``None``: the same).
    """
    if "<" not in body and "{" not in body:
        return []
    elements, sheets, failed = _read(body)
    if failed:
        return [HiddenElement(0, min(len(body), 1), "HTML the parser cannot read")]
    if prepared is not None and prepared != body:
        _unwrapped(body, prepared, elements)
    opened = {element.attributes.get("popovertarget", "") for element in elements}
    components = _silent_components(body)
    compounded = _compounded(elements)
    on_background, shown_on_background = _on_ancestor_background(elements)
    compounded.update(on_background)
    collapsed = _collapsed_columns(elements)
    collapsed.update(_svg_reasons(elements))
    own = [_own_reason(element, opened, components) or compounded.get(id(element)) or collapsed.get(id(element))
           for element in elements]
    own = [None if reason == "text coloured as its background" and id(element) in shown_on_background else reason
           for reason, element in zip(own, elements, strict=True)]
    selected = [[n for n, sheet in enumerate(sheets) if any(_matches(s, element) for r in sheet.rules
                                                            if not r.covers for s in r.selectors)]
                for element in elements]
    # Only live sheets (not shown as code) take part in the cascade.
    live = set(range(len(sheets)))
    if sheets:
        live -= shown_as_code([(sheet.start, sheet.end) for sheet in sheets])
    boxes, sure = _cover_boxes(elements, [rule for n in sorted(live) for rule in sheets[n].cascade])
    suspects = [i for i, element in enumerate(elements) if own[i] or selected[i]]
    if not suspects and not boxes and not any(sheet.rules for sheet in sheets):
        return []
    if not sheets and not boxes and not any(elements[i].has_text for i in suspects):
        # Nothing below could be reported whatever is code (a suspect without text hides
        # nothing): the body is not parsed again to ask (a ``<title>`` in an SVG).
        return []
    spans = [(sheet.start, sheet.end) for sheet in sheets] + [(elements[i].start, elements[i].end) for i in suspects]
    spans += [(elements[box.index].start, elements[box.index].end) for box in boxes]
    code = shown_as_code(spans)
    hidden: list[HiddenElement] = []
    used: set[HidingRule] = set()
    for position, i in enumerate(suspects, start=len(sheets)):
        if position in code:
            continue
        reason = own[i]
        for rule in (r for number in selected[i] if number in live for r in sheets[number].rules
                     if not r.covers and any(_matches(s, elements[i]) for s in r.selectors)):
            used.add(rule)
            reason = reason or f"{rule.reason} by the page's rule {rule.text!r}"
        if reason is not None and elements[i].has_text:
            hidden.append(HiddenElement(elements[i].start, elements[i].end, reason))
    children: dict[int, list[int]] = {}
    where = {id(element): index for index, element in enumerate(elements)}
    for index, element in enumerate(elements):
        if element.parent is not None:
            children.setdefault(id(element.parent), []).append(index)
    for position, box in enumerate(boxes, start=len(sheets) + len(suspects)):
        if position in code:
            continue
        element = elements[box.index]
        used.update(r for n in live for r in sheets[n].rules if r.covers and any(
            s.pseudo == box.pseudo and _subject_matches(s, element) for s in r.selectors))
        hidden.extend(_covered(elements, box, sure, children, where))
    for number in sorted(live):
        sheet = sheets[number]
        # A hiding rule that selects no element written in the page hides something the
        # site renders: maybe the page's own text (``.markdown``, ``p``); an overlay
        # drawn by ``::before``/``::after`` covers the element it is drawn in.
        unseen = next((r for r in sheet.rules
                       if not all(s.interactive or (s.pseudo_element and not (r.covers and s.generated))
                                  for s in r.selectors)
                       and (r not in used or any(_selects_rendered(s, r.covers) for s in r.selectors))), None)
        if unseen is not None:
            hidden.append(HiddenElement(sheet.start, sheet.end,
                                        f"<style> rule {unseen.text!r} may hide the page's own text ({unseen.reason})"))
    return sorted(hidden, key=lambda found: found.start)
