"""Dialects: the syntax each docs tool adds to Markdown, reduced to the text a reader sees.

Each cleaner takes markdown source and returns markdown source; the plain-text
converter (:mod:`provider.wiki.plaintext`) then does the rest, as for any file. A
layout names the cleaners it runs (:attr:`~provider.wiki.layouts.Layout.dialects`).
Fenced code blocks are left alone. What each does:

``heading_attributes``
    ``## Title {#custom-id}``, ``{: .class}`` and ``{ #id .class }`` at the end of a
    heading (Hugo, Docusaurus, kramdown, MkDocs attr_list) → ``## Title``.
``hugo``
    Goldmark block attribute lines (``{.class}`` under a paragraph) removed. Shortcodes
    are removed for every layout by the plain-text converter (text between paired
    shortcodes is kept).
``docusaurus``
    Admonitions ``:::note``, ``:::tip Title``, ``:::info[Title]``, nested with more
    colons → their title (when given) and their text; MDX comments ``{/* … */}`` removed;
    string expressions ``{' '}`` → their text. Imports, exports and JSX tags are removed
    for every layout.
``mdx``
    MDX alone, for an ``.mdx`` file in a layout without a docs tool that reads MDX
    (:meth:`~provider.wiki.layouts.Layout.dialects_for`): what ``docusaurus`` does but the
    admonitions.
``kramdown`` (Jekyll)
    Inline and block attribute lists ``{: .class}``, ``{:target="_blank"}``, attribute
    definitions ``{:ref: .x}``, extensions ``{::options …/}``, ``{::comment}…{:/comment}``
    and raw output ``{::nomarkdown}…{:/nomarkdown}`` (with their content), the ``* TOC`` +
    ``{:toc}`` idiom, abbreviation definitions ``*[HTML]: …``. Liquid tags and
    ``{{ site.… }}`` are removed for every layout.
``mkdocs`` (Material for MkDocs, pymdown-extensions)
    pymdownx.blocks ``/// type | title`` … ``///`` (nested with more slashes) → the title
    (not for ``html``/``caption`` blocks, whose argument is no text) and the body, the
    fence lines and the block's indented YAML options dropped; admonitions
    ``!!! note "Title"`` (also ``!!!note``), collapsible ``??? note`` / ``???+ note`` and
    content tabs ``=== "Tab"`` → their title and their indented text, de-indented (nested
    ones too); include lines removed everywhere, fenced code included (they run before
    Markdown): FastAPI's ``{* file hl[1] *}``, mdx_include ``{!> file !}``, pymdownx.snippets
    ``--8<-- "file"`` and ``--8<--`` blocks; mkdocstrings ``::: package.module`` lines and
    their indented options removed; autorefs ``[text][package.Object]`` → ``text``;
    attr_list lists (``{ .md-button }``, ``{target=_blank}`` after a link) removed; Material
    icons ``:material-x:`` removed; ``[TOC]`` removed; a ``|`` in inline code in a table
    row escaped (Python-Markdown keeps the cell whole); abbreviation definitions; keys
    ``++ctrl+k++`` → ``ctrl+k``; ``^^insert^^`` → ``insert``; code and text annotations
    (``# (1)!``, ``{ .annotate }``) without their markers, their list's items as paragraphs
    (:mod:`provider.wiki.mkdocs_annotations`).
``docfx`` (DocFX, Microsoft Learn)
    ``[!INCLUDE [title](path)]``, ``[!VIDEO …]``, ``[!div …]``, ``[!code-… ]`` removed;
    alerts ``> [!NOTE]`` (and TIP, IMPORTANT, CAUTION, WARNING) → the quoted text;
    ``:::image … alt-text="…":::`` → its alt text; other ``:::name …:::`` and
    ``:::zone``/``:::moniker`` fences removed, their text kept; ``<xref:Uid>`` → ``Uid``.

Every pattern has bounded repetition, so cleaning stays linear on hostile input.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from .mdx_expressions import blank_expressions
from .mkdocs_annotations import without_annotations
from .plaintext import SKIP_CONTENT_TAGS, closes_fence, fence_opener, heading_id_mark, remove_spans

__all__ = ["DIALECTS", "apply_dialects", "unwrap_mdx_code_blocks"]

_CODE_SPAN = re.compile(r"(`+)[^`\n]{0,2000}?\1")


def _lines_outside_fences(lines: list[str]) -> Iterator[tuple[int, bool]]:
    """``(index, in_fence)`` for every line; fence lines themselves count as in a fence.
    Fences are recognised as :func:`~provider.wiki.plaintext.fence_opener` says."""
    fence: str | None = None
    for index, line in enumerate(lines):
        if fence is None:
            fence = fence_opener(line)
            yield index, fence is not None
            continue
        if closes_fence(line, fence):
            fence = None
        yield index, True


def _map_prose_lines(source: str, change: Callable[[str], str | None]) -> str:
    """Apply ``change`` to every line outside fenced code; ``None`` drops the line."""
    lines = source.split("\n")
    out: list[str] = []
    for index, in_fence in _lines_outside_fences(lines):
        line = lines[index]
        if in_fence:
            out.append(line)
            continue
        changed = change(line)
        if changed is not None:
            out.append(changed)
    return "\n".join(out)


def _outside_code_spans(line: str, change: Callable[[str], str]) -> str:
    """Apply ``change`` to the parts of one line that are not inline code."""
    parts: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(line):
        parts.append(change(line[last : match.start()]))
        parts.append(match.group(0))
        last = match.end()
    parts.append(change(line[last:]))
    return "".join(parts)


# --------------------------------------------------------------------------- heading attributes

_HEADING_ATTRS = re.compile(r"^(\s{0,3}#{1,6}\s.{0,2000}?)\s*\{\s{0,20}:?\s{0,20}([#.][^{}\n]{0,500})\}\s*#*\s*$")
_ID_ATTR = re.compile(r"(?:^|\s)#([^\s{}#.]{1,200})")


def _heading_attribute(match: re.Match[str]) -> str:
    # The id becomes the heading's anchor (Hugo, Docusaurus, kramdown and attr_list all
    # use it as the element id); classes and other attributes are dropped.
    found = _ID_ATTR.search(match.group(2))
    return match.group(1) + (" " + heading_id_mark(found.group(1)) if found is not None else "")


def _heading_attributes(source: str) -> str:
    return _map_prose_lines(source, lambda line: _HEADING_ATTRS.sub(_heading_attribute, line))


# --------------------------------------------------------------------------- hugo

_ATTRIBUTE_LINE = re.compile(r"^\s*\{\s{0,20}:?\s{0,20}[#.][^{}\n]{0,500}\}\s*$")


def _hugo(source: str) -> str:
    return _map_prose_lines(source, lambda line: None if _ATTRIBUTE_LINE.match(line) else line)


# --------------------------------------------------------------------------- docusaurus

# An admonition may stand in a blockquote (``> :::note``): the quote markers are kept.
_COLON_OPEN = re.compile(r"^((?:[ \t]*>)*[ \t]*):{3,}\s{0,10}([A-Za-z][\w-]{0,50})(.{0,1000})$")
_COLON_CLOSE = re.compile(r"^((?:[ \t]*>)*)[ \t]*:{3,}\s*$")
_MDX_STRING = re.compile(r"""\{\s{0,10}(['"])([^'"\n{}]{0,200})\1\s{0,10}\}""")


#: Characters a box title may end with that already part it from the text after it.
_TITLE_ENDS = frozenset(".:;!?…。：；！？)」』】")


def shown_title(title: str) -> str:
    """A box's title (admonition, tab, pymdown block) as a paragraph of plain text: the
    site shows it on a bar of its own above the box's text, so a title that does not end
    with punctuation gets a colon (``Title: The text…``, not ``Title The text…``) — a
    snippet joins the title and the text on one line. A title in a script written
    without spaces gets the full-width colon."""
    stripped = title.rstrip()
    if not stripped or stripped[-1] in _TITLE_ENDS:
        return title
    wide = 0x2E80 <= ord(stripped[-1]) <= 0xFFEF
    return stripped + ("：" if wide else ":")


def _admonition_title(rest: str) -> str:
    """The title of ``:::tip[Title]``, ``:::tip Title`` or ``:::tip Title {attrs}``."""
    rest = rest.strip()
    bracket = re.match(r"\[(.{0,500}?)\]", rest)
    if bracket:
        return bracket.group(1).strip()
    return re.sub(r"\{[^{}]{0,500}\}\s*$", "", rest).strip()


def _docusaurus_line(line: str) -> str | None:
    closer = _COLON_CLOSE.match(line)
    if closer:
        return closer.group(1)
    opener = _COLON_OPEN.match(line)
    if opener:
        title = _admonition_title(opener.group(3))
        # A blank line after the title keeps it a paragraph of its own.
        quote = opener.group(1).rstrip()
        return f"{opener.group(1)}{shown_title(title)}\n{quote}" if title else quote
    return line


_MDX_COMMENT_WINDOW = 20_000


def _strip_mdx_comments(source: str) -> str:
    """Remove ``{/* … */}`` outside fenced code, in one pass from the start: in code a
    comment is text the reader sees, and a fence inside a comment is no fence (MDX reads
    the comment first)."""
    out: list[str] = []
    pos, size = 0, len(source)
    fence: str | None = None
    line_start = True
    while pos < size:
        newline = source.find("\n", pos)
        eol = size if newline == -1 else newline + 1
        line = source[pos:eol]
        if fence is not None:
            out.append(line)
            fence = None if closes_fence(line.rstrip("\n"), fence) else fence
            pos, line_start = eol, True
            continue
        if line_start and (marker := fence_opener(line.rstrip("\n"))) is not None:
            out.append(line)
            fence, pos = marker, eol
            continue
        opener = source.find("{/*", pos, eol)
        closer = -1
        while opener != -1:
            closer = source.find("*/}", opener + 3, opener + 3 + _MDX_COMMENT_WINDOW)
            if closer != -1:
                break
            opener = source.find("{/*", opener + 3, eol)
        if opener == -1:
            out.append(line)
            pos, line_start = eol, True
            continue
        out.append(source[pos:opener])
        out.append(" ")
        pos, line_start = closer + 3, False
    return "".join(out)


# A line of JSX/HTML tags only (``<Steps>``, ``  <Fragment slot="npm">``, ``</TabItem>``).
_TAG_LINE = re.compile(r"^[ \t]*(?:</?[A-Za-z][\w.:-]{0,100}(?:\s[^<>\n]{0,1000})?/?>[ \t]*){1,20}$")


def _mdx_blocks(source: str) -> str:
    """MDX reads what is inside JSX as Markdown, and has no indented code blocks, so a
    fence indented inside a component is a fence. A line of tags only becomes a blank
    line (CommonMark would start an HTML block there and swallow the Markdown after
    it), and a fence indented four or more columns is de-indented. Line count kept."""
    lines = source.split("\n")
    out: list[str] = []
    fence: str | None = None
    indent = 0
    for line in lines:
        if fence is not None:
            if closes_fence(line, fence):
                out.append(line.strip())  # however indented, as MDX closes it
                fence = None
            else:
                out.append(_dedent(line, indent))
            continue
        marker = fence_opener(line)
        if marker is not None:
            fence, indent = marker, _indent_width(line)
            out.append(_dedent(line, indent))
            continue
        out.append("" if _TAG_LINE.match(line) and not _holds_unshown(line) else line)
    return "\n".join(out)


_TAG_NAME = re.compile(r"</?([A-Za-z][\w.:-]{0,100})")


def _holds_unshown(line: str) -> bool:
    """Whether a line of tags opens or closes an element whose content no reader sees
    (``<video>``'s fallback text, ``<template>``): kept, so that its content stays in the
    element's HTML block and out of the text, as the browser shows it."""
    return any(name.lower() in SKIP_CONTENT_TAGS for name in _TAG_NAME.findall(line))


_MDX_CODE_BLOCK = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*mdx-code-block[ \t]*$")


def unwrap_mdx_code_blocks(source: str) -> str:
    """Docusaurus renders a ```` ```mdx-code-block ```` fence as MDX, not as code (it
    lets a ``.md`` page hold MDX): its fence lines become blank lines and its content is
    read as the page's (imports and JSX then go as anywhere else). Other fences are
    kept; line count kept."""
    if "mdx-code-block" not in source:
        return source
    lines = source.split("\n")
    fence: str | None = None
    unwrapping: str | None = None
    for index, line in enumerate(lines):
        if fence is not None:
            fence = None if closes_fence(line, fence) else fence
            continue
        if unwrapping is not None and closes_fence(line, unwrapping):
            lines[index], unwrapping = "", None
            continue
        if unwrapping is None and (found := _MDX_CODE_BLOCK.match(line)):
            lines[index], unwrapping = "", found.group(1)
            continue
        fence = fence_opener(line)
    return "\n".join(lines)


def _docusaurus(source: str) -> str:
    source = unwrap_mdx_code_blocks(source)
    source = _mdx_blocks(blank_expressions(_strip_mdx_comments(source)))
    source = _map_prose_lines(source, _docusaurus_line)
    return _mdx_strings(source)


def _mdx_strings(source: str) -> str:
    return _map_prose_lines(source, lambda line: _outside_code_spans(line, lambda s: _MDX_STRING.sub(r"\2", s)))


def _mdx(source: str) -> str:
    # MDX itself, without any docs tool's additions (no admonitions).
    return _mdx_strings(_mdx_blocks(blank_expressions(_strip_mdx_comments(source))))


# --------------------------------------------------------------------------- kramdown

_KRAMDOWN_COMMENT_OPEN = re.compile(r"\{::comment\}")
_KRAMDOWN_COMMENT_CLOSE = re.compile(r"\{:/comment\}")
_KRAMDOWN_EMPTY_COMMENT = re.compile(r"\{::comment[ \t]*/\}")
_KRAMDOWN_RAW_OPEN = re.compile(r"\{::nomarkdown[^{}\n]{0,200}\}")
_KRAMDOWN_RAW_CLOSE = re.compile(r"\{:/nomarkdown\}")
_KRAMDOWN_EXTENSION = re.compile(r"\{::[a-z]+[^{}\n]{0,500}?/?\}|\{:/[a-z]*\}")
_KRAMDOWN_IAL = re.compile(r"\{:[^{}\n]{0,500}\}")
_TOC_ITEM = re.compile(r"^\s*(?:[*+-]|\d+\.)\s+TOC\s*$", re.IGNORECASE)
_ABBREVIATION = re.compile(r"^\s{0,3}\*\[[^\]\n]{1,200}\]:\s")


_HIGHLIGHT_OPEN = re.compile(r"^([ \t]*)\{%-?[ \t]*highlight[ \t]+([\w+#.-]{1,50})[^%\n]{0,200}-?%\}[ \t]*$")
_HIGHLIGHT_CLOSE = re.compile(r"^[ \t]*\{%-?[ \t]*endhighlight[ \t]*-?%\}[ \t]*$")
_HIGHLIGHT_FENCE = "~" * 12  # longer than any tilde run a highlighted example holds


def _highlight_blocks(source: str) -> str:
    """Jekyll's ``{% highlight lang %}`` … ``{% endhighlight %}`` → a fenced code block,
    so its content is code (a ``# comment`` in it is not a heading)."""
    lines = source.split("\n")
    out: list[str] = []
    fence: str | None = None
    opened: int | None = None
    for line in lines:
        if opened is not None:
            if _HIGHLIGHT_CLOSE.match(line):
                out.append(_HIGHLIGHT_FENCE)
                opened = None
            else:
                out.append(line)
            continue
        if fence is not None:
            fence = None if closes_fence(line, fence) else fence
            out.append(line)
            continue
        if (highlight := _HIGHLIGHT_OPEN.match(line)) is not None:
            opened = len(out)
            out.append(f"{highlight.group(1)}{_HIGHLIGHT_FENCE}{highlight.group(2)}")
            continue
        fence = fence_opener(line)
        out.append(line)
    if opened is not None:  # never closed: Jekyll fails the build; read it as it stands
        return source
    return "\n".join(out)


_BLOCK_IAL = re.compile(r"^\s{0,3}\{:([^{}\n]{0,500})\}\s*$")
_ATX_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
_IAL_START = re.compile(r"\{:[^{}\n]{0,500}$")
_IAL_END = re.compile(r"^[^{}\n]{0,500}\}")


def _split_attribute_lists(source: str) -> str:
    """A kramdown attribute list broken over two lines (``{: .table`` / ``.striped}``) →
    removed from both lines; a block attribute list under a heading (``{: #id}``) gives
    the heading its id."""
    lines = source.split("\n")
    prose = [not in_fence for _, in_fence in _lines_outside_fences(lines)]
    for index in range(1, len(lines)):
        # ``## Title`` then ``{: #id}``: kramdown's block IAL gives the heading its id.
        block = _BLOCK_IAL.match(lines[index]) if prose[index] and prose[index - 1] else None
        found = _ID_ATTR.search(block.group(1)) if block is not None else None
        if found is not None and _ATX_HEADING.match(lines[index - 1]):
            lines[index - 1] = f"{lines[index - 1].rstrip()} {heading_id_mark(found.group(1))}"
            lines[index] = ""
    for index in range(len(lines) - 1):
        if not (prose[index] and prose[index + 1]):
            continue
        start = _IAL_START.search(lines[index])
        end = _IAL_END.match(lines[index + 1]) if start is not None else None
        if start is not None and end is not None:
            lines[index] = lines[index][: start.start()].rstrip()
            lines[index + 1] = lines[index + 1][end.end() :]
    return "\n".join(lines)


def _kramdown(source: str) -> str:
    source = _split_attribute_lists(_highlight_blocks(source))
    source = remove_spans(source, _KRAMDOWN_COMMENT_OPEN, _KRAMDOWN_COMMENT_CLOSE, window=100_000)
    # Raw output goes to the page as it is — backticks are not code there, an HTML
    # comment is a comment — so it cannot be read as Markdown: dropped with its content
    # (which also makes an internal-section marker inside it count as a marker).
    source = remove_spans(source, _KRAMDOWN_RAW_OPEN, _KRAMDOWN_RAW_CLOSE, window=100_000)
    source = _KRAMDOWN_EMPTY_COMMENT.sub(" ", source)
    lines = _map_prose_lines(source, lambda line: None if _ABBREVIATION.match(line) else line).split("\n")
    out: list[str] = []
    for line in lines:
        if line.strip().lower() == "{:toc}" and out and _TOC_ITEM.match(out[-1]):
            out.pop()  # "* TOC" + "{:toc}" is kramdown's table of contents: no text
            continue
        out.append(line)
    return _map_prose_lines(
        "\n".join(out),
        lambda line: _outside_code_spans(line, lambda s: _KRAMDOWN_IAL.sub("", _KRAMDOWN_EXTENSION.sub("", s))),
    )


# --------------------------------------------------------------------------- mkdocs

# Python-Markdown's admonition allows no space after the marker (``!!!note``), and a type
# in any script (``!!! 참고``).
_MKDOCS_BLOCK = re.compile(
    r"""^([ \t]*)(?:!!!|\?\?\?\+?)[ \t]*[\w-]{1,50}(?:[ \t]+[\w-]{1,50}){0,5}(?:[ \t]+"(.{0,500})")?[ \t]*$"""
)
_MKDOCS_TAB = re.compile(r"""^([ \t]*)===!?\+?[ \t]+"(.{0,500})"[ \t]*$""")
# pymdownx.snippets takes a line for an include only when the file name ends it: a
# sentence after it ("--8<-- "x.md" and then run the installer.") is text the page shows.
_SNIPPET = re.compile(r"""^\s*;?-{1,2}8<-{1,2}[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\S+)[ \t]*$""")
_SNIPPET_BLOCK = re.compile(r"""^\s*-{1,2}8<-{1,2}\s*$""")
_INLINE_ATTRS = re.compile(r"\{\s{0,20}:?\s{0,20}[.#][^{}\n]{0,500}\}")
# ``[text](url){target=_blank}``: attr_list after a link or image may hold only key=value.
_LINK_ATTRS = re.compile(r"(?<=[)\]])\{:?[ \t]{0,20}[\w-]{1,50}=[^{}\n]{0,500}\}")
_KEYS = re.compile(r"\+\+([\w+-]{1,60}?)\+\+")
_INSERT = re.compile(r"\^\^([^^\n]{1,500}?)\^\^")
# Material's icon and emoji shortcodes (``:material-check:``, ``:octicons-git-branch-16:``).
_ICON = re.compile(r":(?:material|octicons|fontawesome|simple)-[\w-]{1,100}:")
_TOC_MARKER = re.compile(r"^\s{0,3}\[TOC\]\s*$")
# Preprocessor includes, resolved before Markdown (so also inside fenced code):
# FastAPI's ``{* ../../docs_src/x.py hl[6:7] *}``, mdx_include ``{!> ../x.md !}``.
_STAR_INCLUDE = re.compile(r"^[ \t]*\{\*[^\n]{0,2000}?\*\}[ \t]*$")
_BANG_INCLUDE = re.compile(r"\{![^\n]{0,2000}?!\}")
# mkdocstrings: ``::: package.module`` renders API documentation from docstrings.
_AUTODOC = re.compile(r"^([ \t]*):::[ \t]+[\w.:/-]{1,300}[ \t]*$")
# autorefs cross-references: ``[text][package.Object]`` and ``[package.Object][]``,
# not after an ASCII word character (``a[i][j]``); after a Han, Kana or Hangul character
# it is one, since those scripts write no space before it (``通过[Config][agents.Config]配置``).
_AUTOREF = re.compile(r"(?<![0-9A-Za-z_\]])\[((?:[^\[\]\n]|\[[^\[\]\n]{0,200}\]){1,500})\]\[([^\[\]\n]{0,300})\]")
# pymdownx.blocks: ``/// type | title`` … ``///`` (the outer of nested blocks has more slashes).
_PYMDOWN_OPEN = re.compile(r"^[ \t]{0,3}(/{3,})[ \t]*([\w-]{1,50})[ \t]*(?:\|[ \t]*(.{0,500}?))?[ \t]*$")
_PYMDOWN_CLOSE = re.compile(r"^[ \t]{0,3}(/{3,})[ \t]*$")
#: Blocks whose argument is not text a reader sees (a tag selector, a caption's number).
_UNSHOWN_ARGUMENT = frozenset({"html", "caption", "figure-caption", "table-caption"})


def _indent_width(line: str) -> int:
    width = 0
    for char in line:
        if char == " ":
            width += 1
        elif char == "\t":
            width += 4 - width % 4
        else:
            break
    return width


def _dedent(line: str, width: int) -> str:
    """Remove ``width`` columns of leading whitespace (tabs count to the next stop of 4)."""
    removed = 0
    index = 0
    while index < len(line) and removed < width and line[index] in " \t":
        removed += 1 if line[index] == " " else 4 - removed % 4
        index += 1
    return line[index:]


def _mkdocs_blocks(lines: list[str], depth: int = 0) -> list[str]:
    """Replace each admonition or content tab by its title and its de-indented body,
    kept at the opener's indentation (so one inside a list item stays there)."""
    fenced = dict(_lines_outside_fences(lines))
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        opener = None if fenced[index] or depth > 20 else (_MKDOCS_BLOCK.match(line) or _MKDOCS_TAB.match(line))
        if opener is None:
            out.append(line)
            index += 1
            continue
        base = _indent_width(line)
        end = index + 1
        while end < len(lines) and (not lines[end].strip() or _indent_width(lines[end]) >= base + 4):
            end += 1
        while end > index + 1 and not lines[end - 1].strip():
            end -= 1  # trailing blank lines belong to what follows
        body = [_dedent(b, base + 4) for b in lines[index + 1 : end]]
        pad = " " * base
        title = (opener.group(2) or "").strip()
        out += ["", f"{pad}{shown_title(title)}", ""] if title else [""]
        out += [f"{pad}{b}" if b.strip() else "" for b in _mkdocs_blocks(body, depth + 1)]
        out.append("")
        index = end
    return out


def _indented_tail(lines: list[str], start: int, base: int) -> int:
    """The index after the lines from ``start`` that are blank or indented deeper than
    ``base`` (an options block), trailing blank lines left out."""
    end = start
    while end < len(lines) and (not lines[end].strip() or _indent_width(lines[end]) > base):
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return end


def _pymdown_blocks(lines: list[str]) -> list[str]:
    """``/// type | title`` … ``///`` → the title as a paragraph of its own, then the
    body; the fence lines and the block's indented YAML options are dropped."""
    fenced = dict(_lines_outside_fences(lines))
    out: list[str] = []
    open_fences: list[int] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if fenced[index]:
            out.append(line)
            index += 1
            continue
        closer = _PYMDOWN_CLOSE.match(line)
        if closer is not None and open_fences and len(closer.group(1)) in open_fences:
            while open_fences and open_fences.pop() != len(closer.group(1)):
                pass  # an inner block left open ends with its outer one
            out.append("")
            index += 1
            continue
        opener = _PYMDOWN_OPEN.match(line)
        if opener is None:
            out.append(line)
            index += 1
            continue
        open_fences.append(len(opener.group(1)))
        title = (opener.group(3) or "").strip()
        out += ["", shown_title(title), ""] if title and opener.group(2).lower() not in _UNSHOWN_ARGUMENT else [""]
        # The block's options: YAML indented right under its header (``    type: warning``),
        # up to the first blank or unindented line.
        base = _indent_width(line)
        index += 1
        while index < len(lines) and lines[index].strip() and _indent_width(lines[index]) > base:
            index += 1
    return out


def _preprocessor_includes(lines: list[str]) -> list[str]:
    """Include lines removed everywhere, code included (they are replaced before Markdown
    runs): what they include is another file's text, not this page's."""
    out: list[str] = []
    in_block = False
    for line in lines:
        if _SNIPPET_BLOCK.match(line):
            in_block = not in_block  # a --8<-- block lists one file per line until the next --8<--
            continue
        if in_block:
            continue
        if _SNIPPET.match(line) or _STAR_INCLUDE.match(line):
            continue
        if "{!" in line:
            stripped = _BANG_INCLUDE.sub("", line)
            if not stripped.strip() and line.strip():
                continue
            line = stripped
        out.append(line)
    if in_block:  # never closed: not a snippet block after all
        return _preprocessor_includes_lines_only(lines)
    return out


def _preprocessor_includes_lines_only(lines: list[str]) -> list[str]:
    return [_BANG_INCLUDE.sub("", line) for line in lines
            if not (_SNIPPET.match(line) or _STAR_INCLUDE.match(line))]


def _autodoc(lines: list[str]) -> list[str]:
    """mkdocstrings ``::: identifier`` lines and their indented options removed."""
    fenced = dict(_lines_outside_fences(lines))
    out: list[str] = []
    index = 0
    while index < len(lines):
        found = None if fenced[index] else _AUTODOC.match(lines[index])
        if found is None:
            out.append(lines[index])
            index += 1
            continue
        out.append("")
        index = _indented_tail(lines, index + 1, _indent_width(lines[index]))
    return out


def _autorefs(line: str) -> str:
    """``[text][id]`` → ``text`` where the brackets are not inside inline code (the text
    itself may be code: ``[`Agent`][agents.Agent]``)."""
    if "][" not in line:
        return line
    spans = [m.span() for m in _CODE_SPAN.finditer(line)]

    def replace(match: re.Match[str]) -> str:
        if any(start < match.start() < end for start, end in spans):
            return match.group(0)
        return match.group(1)

    return _AUTOREF.sub(replace, line)


def _mkdocs_inline(text: str) -> str:
    text = _LINK_ATTRS.sub("", _INLINE_ATTRS.sub("", text))
    text = _ICON.sub("", text) if ":" in text else text
    return _INSERT.sub(r"\1", _KEYS.sub(r"\1", text))


_TABLE_ROW = re.compile(r"^\s{0,3}\|")


def _table_code_pipes(line: str) -> str:
    """Python-Markdown's tables keep a ``|`` inside inline code in its cell (GFM, which
    the parser here follows, would split the cell there): escaped, it stays."""
    if "|" not in line or "`" not in line or not _TABLE_ROW.match(line):
        return line
    return _CODE_SPAN.sub(lambda m: m.group(0).replace("\\|", "|").replace("|", "\\|"), line)


def _mkdocs(source: str) -> str:
    lines = without_annotations(_preprocessor_includes(source.split("\n")))
    lines = _autodoc(_pymdown_blocks(lines))
    source = "\n".join(_mkdocs_blocks(lines))

    def line_change(line: str) -> str | None:
        if (_ATTRIBUTE_LINE.match(line) or _SNIPPET.match(line) or _ABBREVIATION.match(line)
                or _TOC_MARKER.match(line)):
            return None
        if _HEADING_ATTRS.match(line):
            return line  # heading_attributes reads its id (the anchor)
        return _outside_code_spans(_autorefs(_table_code_pipes(line)), _mkdocs_inline)

    return _map_prose_lines(source, line_change)


# --------------------------------------------------------------------------- docfx

_DOCFX_INCLUDE = re.compile(r"\[!INCLUDE\s{0,10}\[[^\]\n]{0,500}\]\([^)\n]{0,1000}\)\]", re.IGNORECASE)
_DOCFX_CODE = re.compile(r"\[!code(?:-[\w+#-]{1,30})?\s{0,10}\[[^\]\n]{0,500}\]\([^)\n]{0,1000}\)\]", re.IGNORECASE)
_DOCFX_DIRECTIVE = re.compile(r"\[!(?:div|VIDEO|nextstepaction)\b[^\]\n]{0,1000}\]", re.IGNORECASE)
_DOCFX_ALERT = re.compile(r"^(\s*(?:>\s*)+)\[!(?:NOTE|TIP|IMPORTANT|CAUTION|WARNING)\]\s*", re.IGNORECASE)
_DOCFX_TRIPLE = re.compile(r":::([\w-]{1,50})([^\n]{0,2000}?):::")
_DOCFX_FENCE_LINE = re.compile(r"^\s*:::[\w-]{1,50}(?:\s.{0,2000})?$")
_ALT_TEXT = re.compile(r"""alt-text\s*=\s*(["'])(.{0,1000}?)\1""")
_XREF = re.compile(r"<xref:([^>\s?#]{1,500})[^>\n]{0,500}>")


def _docfx_triple(match: re.Match[str]) -> str:
    if match.group(1).lower() == "image":
        alt = _ALT_TEXT.search(match.group(2))
        return f" {alt.group(2)} " if alt else " "
    return " "


def _docfx_line(line: str) -> str | None:
    line = _DOCFX_INCLUDE.sub(" ", line)
    line = _DOCFX_CODE.sub(" ", line)
    line = _DOCFX_DIRECTIVE.sub(" ", line)
    line = _DOCFX_TRIPLE.sub(_docfx_triple, line)
    line = _XREF.sub(lambda m: m.group(1), line)
    alert = _DOCFX_ALERT.match(line)
    if alert:
        rest = line[alert.end() :]
        if not rest.strip():
            return None  # "> [!NOTE]" alone: the quote's text follows on the next lines
        line = alert.group(1) + rest
    if _DOCFX_FENCE_LINE.match(line):  # ":::zone pivot=…", ":::zone-end", ":::moniker range=…"
        return ""
    return line


def _docfx(source: str) -> str:
    return _map_prose_lines(source, _docfx_line)


DIALECTS: dict[str, Callable[[str], str]] = {
    "heading_attributes": _heading_attributes,
    "hugo": _hugo,
    "docusaurus": _docusaurus,
    "mdx": _mdx,
    "kramdown": _kramdown,
    "mkdocs": _mkdocs,
    "docfx": _docfx,
}


def apply_dialects(source: str, names: Iterable[str]) -> str:
    """Run the named cleaners over markdown source, in order.

    Raises:
        KeyError: an unknown dialect name (a programming error: layouts are fixed).
    """
    for name in names:
        source = DIALECTS[name](source)
    return source
