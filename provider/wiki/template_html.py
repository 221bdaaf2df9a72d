"""Where a Go template's actions print: text a reader of the page sees, or not.

A Hugo shortcode template that prints ``.Inner`` shows the page's text only where its
output lands in the page's visible text (issue 24). Printed into ``<div hidden>``, an
element styled ``display:none``, ``<template>``, ``<noscript>``, ``<script>``,
``<style>``, or into a start tag (an attribute value such as ``data-x="{{ .Inner }}"`` or
``title=``), the text is on the site but no reader sees it; in an HTML comment Go's
``html/template`` drops it (the caller already leaves those actions out).

:func:`shown_actions` reads the template as HTML with each action standing in for the
text it prints: an expression (``{{ .Inner }}``, ``{{ $x }}``) as letters, an action that
prints nothing (``if``, ``else``, ``end``, ``range``, an assignment, a comment) as spaces,
and asks :func:`provider.wiki.hidden_html.hidden_elements` which elements are hidden —
the same notion of hidden as a page's own HTML. An action is shown when it prints into
the text of the document (not into a start tag), with no ancestor that is hidden, is a
``<script>``/``<style>``, or has a start tag the template fills in itself in a way that
may hide it (fail closed):

* an expression in the tag but outside the value of an attribute that cannot hide
  (``id``, ``href``, ``src``, ``alt``, ``title``, ``role``, ``aria-*``, ``data-*``…):
  ``<div {{ .Get "attrs" }}>``, ``class="{{ .Get "kind" }}"`` (a page may pass
  ``d-none``), ``style="{{ … }}"``;
* text an ``if``/``with``/``range`` in the tag adds on some path only: it counts as
  written on every path (so ``{{ if .x }}hidden{{ end }}`` hides) and as left out on
  some (so a class that undoes another may be missing), except the state classes a
  script sets to show a component (``active``, ``show``, ``in``: Docsy's
  ``class="tab-pane fade{{ if eq $i 0 }} show active{{ end }}"``, where each tab is shown
  on the path that selects it).

A template the HTML parser cannot read, or a ``<style>`` whose rules may hide what is
rendered into it, shows nothing. Never raises.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from html.parser import HTMLParser

from .hidden_html import hidden_elements
from .plaintext import SKIP_CONTENT_TAGS

__all__ = ["shown_actions"]

# Go's html/template drops the HTML comments of a template's text, actions in them too.
GO_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
# Strings are read whole: ``{{ $x := "}}{{ .Inner }}" }}`` outputs nothing.
GO_ACTION = re.compile(r"""\{\{((?:"(?:\\.|[^"\\])*"|`[^`]*`|'(?:\\.|[^'\\])*'|[^"`'}]|\}(?!\}))*)\}\}""")
_SILENT_WORDS = re.compile(r"-?\s*(?:/\*|(?:if|else|end|range|with|define|block|break|continue)\b|\$\w+\s*:?=)")
_FIRST_WORD = re.compile(r"-?\s*([A-Za-z_]\w*)")
_WORD = re.compile(r"[^\s\"'=]+")
# Attributes whose value no browser hides text by (``aria-hidden`` hides from screen readers only).
_HARMLESS = re.compile(r"(?:id|href|src|srcset|alt|title|role|lang|dir|for|name|target|rel|download|tabindex|"
                       r"aria-[\w-]+|data-[\w.:-]+)", re.IGNORECASE)
_ATTRIBUTE = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")
#: State classes a component's script adds to show it: leaving them out hides nothing more.
_SHOWING = frozenset({"active", "show", "in"})
#: Elements whose content is no text of the page (script, style, template, noscript,
#: fallback content): as :mod:`provider.wiki.plaintext` leaves it out of a page.
_NOT_TEXT = frozenset({"script", "style", *SKIP_CONTENT_TAGS})


@dataclass
class _Tag:
    tag: str
    start: int
    end: int
    parent: _Tag | None = None


class _Reader(HTMLParser):
    """Elements (start tags' spans, parents) and runs of text with the element they are in."""

    def __init__(self, body: str) -> None:
        super().__init__(convert_charrefs=False)
        self.starts = [0] + [i + 1 for i, char in enumerate(body) if char == "\n"]
        self.tags: list[_Tag] = []
        #: ``(start, end, innermost open element)`` of each run of text.
        self.texts: list[tuple[int, int, _Tag | None]] = []
        self.open: list[_Tag] = []

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        element = _Tag(tag, start, start + len(self.get_starttag_text() or ""), self.open[-1] if self.open else None)
        self.tags.append(element)
        if tag not in ("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
                       "source", "track", "wbr"):
            self.open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if self.open and self.open[-1].tag == tag:
            self.open.pop()

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index].tag == tag:
                del self.open[index:]
                break

    def _text(self, length: int) -> None:
        start = self._offset()
        self.texts.append((start, start + length, self.open[-1] if self.open else None))

    def handle_data(self, data: str) -> None:
        self._text(len(data))

    def handle_entityref(self, name: str) -> None:
        self._text(len(name) + 2)

    def handle_charref(self, name: str) -> None:
        self._text(len(name) + 3)


def _probe(template: str, actions: list[re.Match[str]]) -> str:
    """The template with each action as the text it stands for (module docstring)."""
    out, position = [], 0
    for action in actions:
        out.append(template[position:action.start()])
        out.append(" " * len(action.group(0)) if _SILENT_WORDS.match(action.group(1)) else "x" * len(action.group(0)))
        position = action.end()
    out.append(template[position:])
    return "".join(out)


def _bare(probe: str, actions: list[re.Match[str]], tags: list[_Tag]) -> str:
    """``probe`` with the words a condition inside a start tag adds left out (the state
    classes that show a component kept)."""
    chars = list(probe)
    for tag in tags:
        depth, position = 0, tag.start
        for action in (a for a in actions if tag.start <= a.start() < tag.end):
            if depth:
                for word in _WORD.finditer(probe, position, action.start()):
                    if word.group(0) not in _SHOWING:
                        chars[word.start():word.end()] = " " * len(word.group(0))
            found = _FIRST_WORD.match(action.group(1))
            if found is not None and found.group(1) in ("if", "with", "range", "define", "block"):
                depth += 1
            elif found is not None and found.group(1) == "end":
                depth = max(0, depth - 1)
            position = action.end()
        if depth:  # a condition the tag does not close: what follows in it is conditional
            for word in _WORD.finditer(probe, position, tag.end - 1):
                if word.group(0) not in _SHOWING:
                    chars[word.start():word.end()] = " " * len(word.group(0))
    return "".join(chars)


def _read(probe: str) -> tuple[str, _Reader, set[int], bool]:
    """The elements of ``probe``, the starts of the hidden ones, and whether everything is."""
    reader = _Reader(probe)
    try:
        reader.feed(probe)
        reader.close()
    except Exception:  # html.parser's own assertion errors: fail closed
        return probe, reader, set(), True
    hidden = hidden_elements(probe, lambda spans: set())
    styles = {tag.start for tag in reader.tags if tag.tag == "style"}
    everything = any(found.start in styles or found.reason == "HTML the parser cannot read" for found in hidden)
    return probe, reader, {found.start for found in hidden}, everything


def _filled(probe: str, tag: _Tag, actions: list[re.Match[str]]) -> bool:
    """Whether an expression fills the start tag of ``tag`` (in ``probe``: its strings
    stand as letters) outside a harmless attribute's value."""
    inside = [a for a in actions if tag.start <= a.start() < tag.end and _SILENT_WORDS.match(a.group(1)) is None]
    if not inside:
        return False
    raw = probe[tag.start:tag.end]
    name_end = re.match(r"<\s*[^\s/>]*", raw)
    spans = []
    for found in _ATTRIBUTE.finditer(raw, name_end.end() if name_end else 0):
        if found.group(2) is not None and _HARMLESS.fullmatch(found.group(1)):
            spans.append((tag.start + found.start(2), tag.start + found.end(2)))
    return not all(any(a <= action.start() and action.end() <= b for a, b in spans) for action in inside)


@lru_cache(maxsize=256)
def shown_actions(template: str) -> tuple[bool, ...]:
    """For each action of ``template`` (:data:`GO_ACTION`'s matches, in order, after the
    HTML comments are blanked: comment by comment, same length), whether what it prints
    lands where a reader of the page sees it (module docstring). Never raises."""
    clean = GO_HTML_COMMENT.sub(lambda m: " " * len(m.group(0)), template)
    actions = list(GO_ACTION.finditer(clean))
    if not actions:
        return ()
    if "<" not in clean:
        return (True,) * len(actions)
    union = _read(_probe(clean, actions))
    readings = [union, _read(_bare(union[0], actions, union[1].tags))] if not union[3] else [union]
    if any(everything for *_, everything in readings):
        return (False,) * len(actions)
    out = []
    for action in actions:
        shown = True
        for probe, reader, hidden, _ in readings:
            starts = [start for start, _, _ in reader.texts]
            at = bisect_right(starts, action.start()) - 1
            if at < 0 or not (reader.texts[at][0] <= action.start() < reader.texts[at][1]):
                shown = False  # in a start tag, or read as no text
                break
            element = reader.texts[at][2]
            while element is not None and shown:
                shown = not (element.tag in _NOT_TEXT or element.start in hidden
                             or _filled(probe, element, actions))
                element = element.parent
            if not shown:
                break
        out.append(shown)
    return tuple(out)
