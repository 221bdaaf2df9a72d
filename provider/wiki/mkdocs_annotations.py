"""Material for MkDocs annotations, reduced to what a reader of the page sees.

Material turns a numbered marker into a (+) button whose text is an item of the ordered
list that follows the annotated block; the list itself is not shown where it stands.

* **Code annotations**: a comment in a fenced code block holding ``(1)`` — ``# (1)``,
  ``// (2)``, ``/* (3) */``, ``<!-- (4) -->``, ``-- (5)`` … — when an ordered list follows
  the block. The marker becomes the button; with ``!`` (``# (1)!``) the whole comment
  goes, so the code shows no comment at all.
* **Text annotations**: a paragraph or list followed by the attribute line
  ``{ .annotate }`` (the attribute line itself is dropped with the others), or an
  admonition whose type line carries ``annotate`` (``!!! note annotate "Title"``): each
  ``(1)`` in it is a button, the ordered list after it their texts.

Here markers are removed (a lone comment marker with them, and a line left empty), and
the annotation list's items are kept as paragraphs without their numbers: their text is
what the reader reads on pressing the button, so it is searchable, but a snippet shows
no list numbers that point at nothing. Markers without a list after the block are left
alone (Material shows them as written then).

Every pattern has bounded repetition (linear on hostile input); fences are recognised as
:func:`~provider.wiki.plaintext.fence_opener` says.
"""

from __future__ import annotations

import re

from .plaintext import closes_fence, fence_opener

__all__ = ["without_annotations"]

# A marker ending a code line: its number, ``!``, and a block comment's closer after it.
_CODE_MARKER = re.compile(r"\((\d{1,3})\)(!?)[ \t]*(\*/|-->)?[ \t]*$")
# Comment openers of the languages Material annotates (``--`` not inside ``<!--``).
_COMMENT_OPENER = re.compile(r"<!--|#|//|(?<!<!)--|;|%|/\*")
#: Lines of prose above ``{ .annotate }`` searched for its block.
_BLOCK_LINES = 200
_TEXT_MARKER = re.compile(r"[ \t]?\(\d{1,3}\)(?!\S)")
_LIST_ITEM = re.compile(r"^([ \t]{0,100})\d{1,9}[.)]([ \t]+|$)(.{0,100000})$")
_ANNOTATE_LINE = re.compile(r"^[ \t]*\{[ \t]{0,20}:?[ \t]{0,20}(?:[.#][\w-]{1,100}[ \t]+){0,10}\.annotate"
                            r"(?:[ \t]+[.#][\w-]{1,100}){0,10}[ \t]*\}[ \t]*$")
_ANNOTATE_ADMONITION = re.compile(r"^([ \t]*)(?:!!!|\?\?\?\+?)[ \t]*[\w-]{1,50}(?:[ \t]+[\w-]{1,50}){0,5}")
_CODE_SPAN = re.compile(r"(`+)[^`\n]{0,2000}?\1")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _next_text(lines: list[str], start: int) -> int:
    """The index of the first line from ``start`` that is not blank (``len(lines)``: none)."""
    while start < len(lines) and not lines[start].strip():
        start += 1
    return start


def _marker(line: str) -> tuple[str, str, str, bool] | None:
    """A code line's annotation marker, as ``(code before the comment, the comment's words
    before the marker, the block comment's closer, whether it ends in "!")``; ``None``: none.
    The comment is the last opener's before the marker (a ``#`` in a string before it is
    code)."""
    end = _CODE_MARKER.search(line)
    if end is None:
        return None
    head = line[:end.start()]
    opener = None
    for found in _COMMENT_OPENER.finditer(head):
        opener = found
    if opener is None:
        return None
    return head[:opener.start()], head[opener.start():].rstrip(), end.group(3) or "", end.group(2) == "!"


def _unmarked_code(line: str) -> str | None:
    """A code line without its annotation marker (``None``: nothing left to show)."""
    found = _marker(line)
    if found is None:
        return line
    code, comment, closer, bang = found
    if bang or not _COMMENT_OPENER.sub("", comment, count=1).strip():
        kept = code.rstrip()
    else:
        kept = (code + comment + (f" {closer}" if closer else "")).rstrip()
    return kept if kept.strip() else None


def _unmarked_text(line: str) -> str:
    """A line of prose without its ``(1)`` markers (inline code left as written)."""
    parts: list[str] = []
    last = 0
    for span in _CODE_SPAN.finditer(line):
        parts += [_TEXT_MARKER.sub("", line[last:span.start()]), span.group(0)]
        last = span.end()
    parts.append(_TEXT_MARKER.sub("", line[last:]))
    return "".join(parts)


def _list_as_paragraphs(lines: list[str], start: int, base: int) -> tuple[list[str], int]:
    """The ordered list starting at ``lines[start]`` (items indented at most ``base + 3``)
    as paragraphs without numbers, and the index of the first line after it."""
    out: list[str] = []
    index = start
    content = base
    while index < len(lines):
        line = lines[index]
        item = _LIST_ITEM.match(line)
        if item is not None and _indent(line) <= base + 3:
            if out:
                out.append("")
            content = max(len(line) - len(item.group(3)), _indent(line) + 2)
            out.append(" " * base + item.group(3))
            index += 1
            continue
        if not line.strip():
            following = _next_text(lines, index)
            if following < len(lines) and (_indent(lines[following]) >= content
                                           or (_LIST_ITEM.match(lines[following]) is not None
                                               and _indent(lines[following]) <= base + 3)):
                out += [""] * (following - index)
                index = following
                continue
            break
        if _indent(line) >= content or (out and out[-1].strip()):
            # A continuation: indented under the item, or a lazy line right after its text.
            out.append(" " * base + line[min(content, _indent(line)):])
            index += 1
            continue
        break
    return out, index


def _annotation_list(lines: list[str], after: int, base: int) -> int | None:
    """Where the annotation list of a block ending before ``after`` starts, or ``None``."""
    start = _next_text(lines, after)
    if start < len(lines) and _LIST_ITEM.match(lines[start]) and _indent(lines[start]) <= base + 3:
        return start
    return None


def without_annotations(lines: list[str]) -> list[str]:
    """Markdown source lines with Material's code and text annotations as the page
    shows them (see the module docstring); other lines unchanged."""
    out: list[str] = []
    cleaned = 0  # lines of ``out`` before this one are never an annotated block again
    index = 0
    while index < len(lines):
        line = lines[index]
        fence = fence_opener(line)
        if fence is not None:
            end = index + 1
            while end < len(lines) and not closes_fence(lines[end], fence):
                end += 1
            block = lines[index + 1:end]
            listed = _annotation_list(lines, end + 1, _indent(line)) if end < len(lines) else None
            if listed is None or not any(_marker(code) is not None for code in block):
                out += lines[index:end + 1]
                index = end + 1
                continue
            out.append(line)
            out += [kept for kept in map(_unmarked_code, block) if kept is not None]
            out += lines[end:listed]
            items, index = _list_as_paragraphs(lines, listed, _indent(line))
            out += items
            continue
        if _ANNOTATE_LINE.match(line) is not None:
            listed = _annotation_list(lines, index + 1, _indent(line))
            # The annotated block: the lines above, back to a blank one.
            first = len(out)
            while first > cleaned and out[first - 1].strip() and len(out) - first < _BLOCK_LINES:
                first -= 1
            out[first:] = [_unmarked_text(text) for text in out[first:]]
            cleaned = len(out) + 1  # each line is cleaned once
            out.append(line)
            index += 1
            if listed is not None:
                out += lines[index:listed]
                items, index = _list_as_paragraphs(lines, listed, _indent(line))
                out += items
            continue
        admonition = _ANNOTATE_ADMONITION.match(line)
        if admonition is not None and re.search(r"[ \t]annotate(?![\w-])", admonition.group(0)):
            base = _indent(line)
            end = index + 1
            while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > base):
                end += 1
            while end > index + 1 and not lines[end - 1].strip():
                end -= 1
            out.append(line)
            out += [_unmarked_text(text) for text in lines[index + 1:end]]
            index = end
            listed = _annotation_list(lines, end, base)
            if listed is not None:
                out += lines[index:listed]
                items, index = _list_as_paragraphs(lines, listed, base)
                out += items
            continue
        out.append(line)
        index += 1
    return out
