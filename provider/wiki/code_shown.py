"""Which pieces of a markdown body the reader sees as code.

Marker syntax shown as code (an inline code span, a fence, an indented block, an HTML
``<code>``, ``<kbd>``, ``<samp>``, ``<pre>``, ``<tt>`` or ``<var>`` element) is text the
page shows, never a marker — but in a Hugo site a shortcode, which runs before Markdown,
is never code unless escaped (``{{</* … */>}}``): :mod:`provider.wiki.sections` and
:mod:`provider.wiki.body_markers` both ask this module, so they decide code alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .plaintext import parse_markdown_where, strip_templates

__all__ = ["CODE_TAGS", "shown_as_code"]

#: HTML elements a browser shows as code or as keys typed or output (their text is text,
#: never a marker: ``<code>{.internal}</code>`` documents the syntax).
CODE_TAGS = ("code", "kbd", "samp", "pre", "tt", "var")
_OPEN = re.compile(r"<(" + "|".join(CODE_TAGS) + r")(?:\s[^>]*)?>", re.IGNORECASE)
_CLOSE = re.compile(r"</(" + "|".join(CODE_TAGS) + r")\s*>", re.IGNORECASE)
_ELEMENT = re.compile(r"<(" + "|".join(CODE_TAGS) + r")(?:\s[^>]*)?>(.*?)</\1\s*>", re.IGNORECASE | re.DOTALL)


def _html_code(token_children: Sequence[object]) -> list[str]:
    """The text of inline children inside an HTML code element (``<code>…</code>`` written
    as HTML in a paragraph: markdown-it gives the tags as ``html_inline`` tokens and the
    text between them as ordinary children)."""
    out: list[str] = []
    depth = 0
    for child in token_children:
        kind, content = getattr(child, "type", ""), getattr(child, "content", "")
        if kind == "html_inline":
            if _OPEN.fullmatch(content.strip()):
                depth += 1
            elif _CLOSE.fullmatch(content.strip()) and depth:
                depth -= 1
        elif depth:
            out.append(content)
    return out


def _sentinel(index: int) -> str:
    # A plain word: it has no Markdown meaning, so standing in for a marker it lands in
    # whatever token the marker was in.
    return f"kpmarker{index}x"


def shown_as_code(body: str, matches: Sequence[re.Match[str]], prepare: Callable[[str], str], *,
                  shortcodes_run_first: bool = False) -> set[int]:
    """Indexes of ``matches`` that the reader sees as code.

    A sentinel word is put just before each match (after its indentation), the body goes
    through ``prepare`` (the layout's dialect rules) and the same parser the indexed text
    comes from; a match is code only if its sentinel is inside a code token. A regex
    guess at code spans once disagreed with the parser (escaped backticks, backticks in
    an HTML block, a fence inside an MDX comment) and let text between real markers
    through. The match's own text stays, so the parse is the page's: a letter added
    outside a backtick run opens no code span and no code block. What counts is where a
    match *starts*: a comment, tag or container whose opening is shown as code is text
    (``{% comment %}`` in a code span, its words after the span visible prose), and
    overlapping matches each keep their own start (a real marker inside the text a
    Liquid comment candidate spans still counts). With ``shortcodes_run_first`` (Hugo) a
    shortcode is never code unless escaped."""
    if not matches:
        return set()
    starts: dict[int, list[int]] = {}
    for index, match in enumerate(matches):
        text = match.group(0)
        starts.setdefault(match.start() + len(text) - len(text.lstrip(" \t")), []).append(index)
    parts, position = [], 0
    for number, start in enumerate(sorted(starts)):
        parts += [body[position:start], _sentinel(number)]
        position = start
    parts.append(body[position:])
    code: list[str] = []
    html: list[str] = []  # text inside HTML code elements
    # Only a paragraph that holds a sentinel, an entity or a tag can show one as code (its
    # code spans and HTML code elements are its own text, an entity's or a link's decoding).
    for token in parse_markdown_where(strip_templates(prepare("".join(parts))),
                                      lambda text: "kpmarker" in text or "&" in text or "<" in text):
        if token.type in ("fence", "code_block"):
            code.append(token.content)
        elif token.type == "html_block":
            html += [found.group(2) for found in _ELEMENT.finditer(token.content)]
        for child in token.children or ():
            if child.type == "code_inline":
                code.append(child.content)
        html += _html_code(token.children or ())
    shown, in_html = "\n".join(code), "\n".join(html)
    if "kpmarker" not in shown and "kpmarker" not in in_html:
        return set()
    # Inside an HTML element a browser still reads a tag or a comment (``<code><!-- internal
    # --></code>`` shows nothing): only a match that is not one is text there.
    return {index for number, start in enumerate(sorted(starts))
            for index in starts[start]
            if not (shortcodes_run_first and _expanded_first(matches[index].group(0)))
            and (_sentinel(number) in shown
                 or (_sentinel(number) in in_html and not matches[index].group(0).lstrip().startswith("<")))}


def _expanded_first(text: str) -> bool:
    """A Hugo shortcode runs before Markdown is read, inside code spans, fences and HTML
    code elements too: only its escaped form (``{{</* internal */>}}``) is shown as text."""
    text = text.lstrip()
    return text.startswith(("{{<", "{{%")) and not text.startswith(("{{</*", "{{%/*"))
