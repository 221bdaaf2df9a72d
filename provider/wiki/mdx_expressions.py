"""MDX expressions (``{…}`` in the text of an ``.mdx`` page, Docusaurus and Starlight):
what they show is decided by evaluating JavaScript, so their text is not the page's.

The rule (fail closed): an expression in the text — ``{false && <p>…</p>}``,
``{0 ? <p>…</p> : null}``, ``{props.note}``, a template literal — is blanked, so neither
its words nor its source (``{false &&``) reach the index or a snippet. Left to the other
MDX rules of :mod:`provider.wiki.dialects`: a comment ``{/* … */}`` (removed there), a
lone string literal ``{'text'}`` (shown as its text), a number (``{Infinity}``), an ``import``/``export`` line, a
heading id ``{#anchor}``, and an
expression inside a tag (``<Tabs items={[…]}>``: an attribute, not text). Code is left
alone: fenced code (:func:`provider.wiki.plaintext.outside_fences`) and code spans.
"""

from __future__ import annotations

import bisect
import re

from .code_shown import CODE_TAGS
from .plaintext import outside_fences

__all__ = ["blank_expressions"]

#: A number the expression shows as written (``{Infinity}``, ``{1024}``).
_LITERAL = re.compile(r"[-+]?(?:\d[\d_]*(?:\.\d+)?|Infinity|NaN)")
_STRING_ONLY = re.compile(r"""\{\s*(?:"[^"\n{}]*"|'[^'\n{}]*')\s*\}""")
#: Characters after which a quote starts a JavaScript string (else it is an apostrophe in
#: JSX text: ``{ok && <p>Don't</p>}``).
_JS_BEFORE_STRING = frozenset("{([,=:?&|+!")


def _code_spans(text: str) -> dict[int, int]:
    """Start → end of each code span (a run of backticks closed by a run of as many in the
    same paragraph) and of each code element (``<code>``, ``<kbd>``, ``<pre>``…): shown as written.
    Found in one pass each (bisect over the runs, never a rescan)."""
    spans: dict[int, int] = {}
    runs = [(m.start(), m.end() - m.start()) for m in re.finditer(r"`+", text)]
    by_length: dict[int, list[int]] = {}
    for start, length in runs:
        by_length.setdefault(length, []).append(start)
    blanks = [m.start() for m in re.finditer(r"\n[ \t]*\n", text)]
    after = -1
    for start, length in runs:
        if start < after:
            continue
        same = by_length[length]
        index = bisect.bisect_right(same, start)
        if index < len(same):
            close = same[index]
            blank = bisect.bisect_right(blanks, start)
            if blank >= len(blanks) or blanks[blank] > close:
                spans[start] = after = close + length
    closers = {name: [m.end() for m in re.finditer(rf"</{name}\s*>", text, re.IGNORECASE)] for name in CODE_TAGS}
    for match in re.finditer(rf"<({'|'.join(CODE_TAGS)})\b", text, re.IGNORECASE):
        ends = closers[match.group(1).lower()]
        index = bisect.bisect_right(ends, match.end())
        if index < len(ends):
            spans.setdefault(match.start(), ends[index])
    return spans


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


#: What changes the scan outside an expression (a tag opening or closing, a brace), and
#: inside one (braces, the quotes that may open a JavaScript string).
_OUTSIDE = re.compile(r"[<>{]")
_INSIDE = re.compile(r"[{}\"'`]")


def _expressions(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each top-level ``{…}`` outside code and tags, in one pass
    (from one character that matters to the next: a page is mostly prose)."""
    code = _code_spans(text)
    starts = sorted(code)
    found: list[tuple[int, int]] = []
    depth = 0
    start = 0
    in_tag = False
    index = 0
    size = len(text)
    while index < size:
        if depth == 0:
            match = _OUTSIDE.search(text, index)
            event = match.start() if match else size
            first = bisect.bisect_left(starts, index)
            if first < len(starts) and starts[first] <= event:  # code first, shown as written
                index = code[starts[first]]
                continue
            if match is None:
                break
            index = event
            char = text[index]
            if char == "<":
                if index + 1 < size and (text[index + 1].isalpha() or text[index + 1] == "/"):
                    in_tag = True
            elif char == ">":
                in_tag = False
            else:
                start, depth = index, 1
            index += 1
            continue
        match = _INSIDE.search(text, index)
        if match is None:
            break
        index = match.start()
        char = text[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0 and not in_tag:
                found.append((start, index + 1))
        else:
            before = index - 1
            while text[before].isspace():  # stops at the expression's "{" at the latest
                before -= 1
            if char == "`" or text[before] in _JS_BEFORE_STRING:
                # A JavaScript string: its braces are not the expression's. Looked for within
                # a bounded reach (an apostrophe in JSX text has no partner).
                close = text.find(char, index + 1, index + 300)
                if close != -1:
                    index = close + 1
                    continue
        index += 1
    return found


def _blank_prose(text: str) -> str:
    out: list[str] = []
    position = 0
    lines = [0] + [m.end() for m in re.finditer("\n", text)]
    for start, end in _expressions(text):
        inner = text[start + 1:end - 1].strip()
        line = text[lines[bisect.bisect_right(lines, start) - 1]:start].lstrip()
        if (not inner or inner.startswith(("/*", "#")) or _STRING_ONLY.fullmatch(text, start, end)
                or _LITERAL.fullmatch(inner) or line.startswith(("import ", "export "))):
            continue
        out += [text[position:start], _blank(text[start:end])]
        position = end
    out.append(text[position:])
    return "".join(out)


def blank_expressions(source: str) -> str:
    """``source`` (an MDX page) with its text expressions blanked (spaces; line breaks
    kept, so line numbers stay true); see the module docstring."""
    if "{" not in source:
        return source
    return outside_fences(source, _blank_prose)
