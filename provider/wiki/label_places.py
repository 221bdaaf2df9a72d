"""The places of a Markdown body where a short text stands as a label over other text.

A label says what the text it stands over is about; "Staff only" as a label keeps that
text from customers wherever the label stands (issue 24). This module finds the places,
not the words: it walks markdown-it's token stream (table cells, footnotes, definition
terms, HTML blocks and the components and elements they open) and hands each label to a
judge (:func:`provider.wiki.body_markers.label_says`), with the body lines the label
reaches. Where a label's reach is unclear, it reaches to the next heading (fail closed).

==================  ===========================================  =====================================
place               label                                        lines it reaches
==================  ===========================================  =====================================
table header cell   the cell, when it names text (``Internal     the whole table
                    notes``, ``Do not share``)
table body cell     its opening label (``Staff only: …``) or     its row
                    the whole cell (``Staff only``)
footnote            its opening label (``[^1]: Internal only:    the footnote, and every block that
                    …``) or its whole text                       refers to it
definition term     the term (``Staff only`` over ``: …``)       the term and its definitions
HTML block          a ``title``/``summary``/``label``/``alt``/   the element, to its closing tag;
                    ``aria-label``/``caption`` attribute, the    else to the next heading
                    text of a ``caption``/``figcaption``/
                    ``legend``/``summary``/``dt`` element, or
                    the block's opening label (``<p><em>Staff
                    only</em> …``)
==================  ===========================================  =====================================
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser

from markdown_it.token import Token

__all__ = ["LABEL_ATTRIBUTES", "Place", "html_labels", "opening_label", "place_labels"]

#: Attributes whose value a site shows as the element's title or label.
LABEL_ATTRIBUTES = frozenset(("title", "summary", "label", "alt", "aria-label", "caption", "heading", "header",
                              "tablabel", "tab"))
#: Elements whose text is a title over their parent's text.
_TITLE_ELEMENTS = frozenset(("caption", "figcaption", "legend"))
#: Elements read as the Markdown places they are: a header cell, a definition term.
_CELL_ELEMENTS = {"th": "header", "dt": "term"}
#: Elements whose text, first in a block, is a label over the block (``<b>Staff only:</b>``).
_EMPHASIS = frozenset(("b", "strong", "em", "i", "u", "mark", "span", "small", "ins"))
#: Elements that start a block of their own: their first text may be a label.
_BLOCKS = frozenset(("p", "div", "li", "td", "dd", "blockquote", "section", "aside", "article", "figure", "details"))
#: A class naming an element as the title of a box (``admonition-title``, ``callout-title``,
#: ``alert-heading``): its text is a title over the box.
_TITLE_CLASS = re.compile(r"(?:^|[\s_-])(?:title|heading)(?:$|\s)", re.IGNORECASE)
#: The tag recorded for a label from an element with a title class.
TITLED_CLASS = "title-class"
_VOID = frozenset(("img", "br", "hr", "input", "meta", "link", "source", "wbr", "area", "col", "embed", "track"))

#: Separators a label stands before, weakest last: ``Staff only: …``, ``Staff only. …``,
#: ``Staff only – …``. A label before a weak separator must be the whole phrase.
_STRONG_LABEL = re.compile(r"^\s*([^\n:]{1,80}?)\s*[:：]")
_WEAK_LABEL = re.compile(r"^\s*([^\n.:–—|]{1,60}?)\s*(?:\.(?:\s|$)|\s[-–—|]\s|[–—])")
_ENCLOSED_LABEL = re.compile(r"^\s*(?:\(([^()\n]{1,60})\)|\[([^\[\]\n]{1,60})\]|【([^【】\n]{1,30})】)")
_FOOTNOTE = re.compile(r"^\s{0,3}\[\^([^\]\s]{1,60})\]:[ \t]*")
_DEFINITION = re.compile(r"^[ \t]{0,3}:[ \t]+")


@dataclass(frozen=True)
class Place:
    """A label and the body lines it reaches.

    Attributes:
        kind: ``cell``, ``header``, ``footnote``, ``term``, ``title`` or ``label``.
        line: the body line (0-based) the label is on.
        label: the label's text; ``rest``: the text it stands over (its first words).
        whole: the label must be a whole phrase to count (a weak separator, a cell).
        start, end: the body lines (0-based, ``end`` excluded) the label reaches.
        column: for a table header cell, the shown text of the body cells below it.
    """

    kind: str
    line: int
    label: str
    rest: str
    whole: bool
    start: int
    end: int
    column: tuple[str, ...] = ()


def opening_label(text: str) -> tuple[str, str, bool] | None:
    """``(label, rest, whole)``: the label opening ``text`` (plain text of a paragraph,
    cell or title) — before a colon, in brackets or parentheses, or before a period or
    dash (then ``whole``: only a label that is all phrase counts) — else ``None``."""
    enclosed = _ENCLOSED_LABEL.match(text)
    if enclosed is not None:
        label = next(g for g in enclosed.groups() if g is not None)
        return label, text[enclosed.end() :], True
    strong = _STRONG_LABEL.match(text)
    if strong is not None and (len(strong.group(1).split()) <= 6 or strong.group(1).isupper()):
        return strong.group(1), text[strong.end() :], False
    weak = _WEAK_LABEL.match(text)
    if weak is not None and len(weak.group(1).split()) <= 6:
        return weak.group(1), text[weak.end() :], True
    return None


def _next_heading(tokens: Sequence[Token], after: int, lines: int) -> int:
    return next((t.map[0] for t in tokens if t.type == "heading_open" and t.map and t.map[0] > after), lines)


def place_labels(tokens: Sequence[Token], lines: int, inline_text: Callable[[Token], str]) -> list[Place]:
    """Every label of a table cell, footnote, definition term or HTML block of the token
    stream ``tokens`` of a body of ``lines`` lines. ``inline_text`` gives an inline
    token's shown text (code left out)."""
    found: list[Place] = []
    row: Token | None = None
    table: Token | None = None
    columns: list[tuple[str, ...]] = []
    cell = 0
    for position, token in enumerate(tokens):
        if token.type == "table_open":
            table = token
            columns = _columns(tokens, position, inline_text)
        elif token.type == "tr_open":
            row, cell = token, 0
        elif token.type in ("th_open", "td_open") and row is not None and row.map and table is not None:
            header = token.type == "th_open"
            column = columns[cell] if header and cell < len(columns) else ()
            found += _cell(tokens[position + 1], header, row, table, inline_text, column)
            cell += 1
        elif token.type == "paragraph_open" and token.map is not None:
            found += _paragraph(tokens, position, lines, inline_text)
        elif token.type == "html_block" and token.map is not None:
            found += _html_block(tokens, position, lines)
    return found


def _html_block(tokens: Sequence[Token], position: int, lines: int) -> list[Place]:
    """The labels of the HTML block (or tag-led paragraph) at ``position``."""
    token = tokens[position]
    assert token.map is not None
    start = token.map[0]
    content = tokens[position + 1].content if token.type == "paragraph_open" else token.content
    return html_labels(content, start, lambda: _html_end(tokens, position, lines),
                       lambda: _next_heading(tokens, start, lines))


def _columns(tokens: Sequence[Token], opening: int, inline_text: Callable[[Token], str]) -> list[tuple[str, ...]]:
    """The shown text of the body cells of each column of the table opening at ``opening``."""
    columns: list[list[str]] = []
    cell = 0
    for position in range(opening + 1, len(tokens)):
        token = tokens[position]
        if token.type == "table_close":
            break
        if token.type == "tr_open":
            cell = 0
        elif token.type == "td_open":
            while len(columns) <= cell:
                columns.append([])
            columns[cell].append(" ".join(inline_text(tokens[position + 1]).split()))
            cell += 1
    return [tuple(column) for column in columns]


def _cell(inline: Token, header: bool, row: Token, table: Token,
          inline_text: Callable[[Token], str], column: tuple[str, ...] = ()) -> list[Place]:
    assert row.map is not None and table.map is not None
    text = " ".join(inline_text(inline).split())
    if not text:
        return []
    start, end = table.map if header else row.map
    kind = "header" if header else "cell"
    places = [Place(kind, row.map[0], text, "", True, start, end, column)]
    opening = opening_label(text)
    if opening is not None:
        label, rest, whole = opening
        places.append(Place(kind, row.map[0], label, rest, whole, start, end, column))
    return places


def _paragraph(tokens: Sequence[Token], position: int, lines: int,
               inline_text: Callable[[Token], str]) -> list[Place]:
    token = tokens[position]
    assert token.map is not None
    inline = tokens[position + 1]
    raw = inline.content
    footnote = _FOOTNOTE.match(raw)
    if footnote is not None:
        return _footnote(tokens, position, footnote.group(1), raw[footnote.end() :], inline_text)
    if raw.startswith("<") and "=" in raw.split("\n", 1)[0]:
        # A component whose attributes are no HTML (``values={[…]}``) opens a paragraph.
        return _html_block(tokens, position, lines)
    first, _, after = raw.partition("\n")
    if _DEFINITION.match(after) or (not after and _definition_follows(tokens, position)):
        end = _definitions_end(tokens, position)
        places = [Place("term", token.map[0], first.strip(), _DEFINITION.sub("", after), False, token.map[0], end)]
        # A definition may open with a label of its own (``Term`` / ``: Staff only: …``).
        for number, line in enumerate(after.split("\n"), start=1):
            if _DEFINITION.match(line) and (opening := opening_label(_DEFINITION.sub("", line))) is not None:
                places.append(Place("label", token.map[0] + number, *opening, token.map[0], end))
        return places
    return []


def _definition_follows(tokens: Sequence[Token], position: int) -> bool:
    following = next((i for i in range(position + 1, len(tokens)) if tokens[i].type == "paragraph_open"), None)
    return (following is not None and tokens[following].level == tokens[position].level
            and tokens[following - 1].type == "paragraph_close"
            and bool(_DEFINITION.match(tokens[following + 1].content)))


def _definitions_end(tokens: Sequence[Token], position: int) -> int:
    """The line after the last definition (``: …``, or text indented under it) of the
    term at ``position``."""
    end = tokens[position].map[1]  # type: ignore[index]
    for token in tokens[position + 3 :]:
        if token.map is None or token.level != tokens[position].level:
            continue
        if token.type == "code_block" or (token.type == "paragraph_open" and token.map is not None
                                          and bool(_DEFINITION.match(_first_inline(tokens, token)))):
            end = max(end, token.map[1])
            continue
        if token.type in ("paragraph_open", "heading_open", "html_block", "fence", "bullet_list_open",
                          "ordered_list_open", "blockquote_open", "table_open", "hr"):
            break
    return end


def _first_inline(tokens: Sequence[Token], opener: Token) -> str:
    index = next(i for i, t in enumerate(tokens) if t is opener)
    return tokens[index + 1].content if index + 1 < len(tokens) else ""


def _footnote(tokens: Sequence[Token], position: int, name: str, text: str,
              inline_text: Callable[[Token], str]) -> list[Place]:
    """A footnote reaches its own lines (and text indented under it) and every block
    that refers to it."""
    token = tokens[position]
    assert token.map is not None
    start, end = token.map
    for following in tokens[position + 3 :]:
        if following.type == "code_block" and following.map is not None:
            end = following.map[1]  # a footnote's indented second paragraph
        elif following.map is not None and following.type != "paragraph_close":
            break
    places = [Place("footnote", start, " ".join(text.split()), "", True, start, end)]
    opening = opening_label(text)
    if opening is not None:
        places.append(Place("footnote", start, opening[0], opening[1], opening[2], start, end))
    reference = f"[^{name}]"
    for index, other in enumerate(tokens):
        if other.type == "inline" and reference in other.content and index > 0 and index - 1 != position:
            block = tokens[index - 1]
            if block.map is not None and not other.content.lstrip().startswith(reference + ":"):
                places += [Place("footnote", start, p.label, p.rest, p.whole, block.map[0], block.map[1])
                           for p in places[:2]]
    return places


def _html_end(tokens: Sequence[Token], position: int, lines: int) -> int:
    """Where the element opening the HTML block at ``position`` ends when the block does
    not close it: after the line of its closing tag in a later block or paragraph
    (nested elements of its name counted), else at the next heading (fail closed)."""
    block = tokens[position]
    start = block.map[0]  # type: ignore[index]
    content = tokens[position + 1].content if block.type == "paragraph_open" else block.content
    opening = _OPENING_TAG.match(content.lstrip())
    if opening is None:
        return _next_heading(tokens, start, lines)
    tag = re.compile(rf"<(/?){re.escape(opening.group(1))}(?=[\s/>])[^>]*?(/?)>", re.IGNORECASE)
    depth = 0
    for token in tokens[position:]:
        if token.map is None or token.type not in ("html_block", "inline"):
            continue
        for match in tag.finditer(token.content):
            if not match.group(2):
                depth += -1 if match.group(1) else 1
            if depth == 0:
                return token.map[1]
    return _next_heading(tokens, start, lines)


class _Labels(HTMLParser):
    """The labels of one HTML fragment: ``(kind, line offset, label, rest, tag)``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.labels: list[tuple[str, int, str, str, str]] = []
        self._open: list[tuple[str, int, list[str], bool]] = []  # tag, line, text, first in its block
        self._block_text: list[str] = [""]
        self.text: list[str] = []
        self._summary = 0
        self._titled: set[int] = set()  # indices of self._open whose element has a title class

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0] - 1
        for name, value in attrs:
            if name in LABEL_ATTRIBUTES and value and value.strip():
                self.labels.append(("title", line, value.strip(), "", tag))
        if tag == "summary":
            # A collapsible block's label is read by provider.wiki.body_markers itself.
            self._summary += 1
        if tag in _BLOCKS:
            self._block_text.append("")
        titled = any(name == "class" and value and _TITLE_CLASS.search(value) for name, value in attrs)
        if titled:
            self._titled.add(len(self._open))
        if self._summary == 0 and (tag in _TITLE_ELEMENTS or tag in _EMPHASIS or tag in _CELL_ELEMENTS or titled):
            first = not self._block_text[-1].strip()
            self._open.append((tag, line, [], first))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "summary":
            self._summary = max(0, self._summary - 1)
        for index in range(len(self._open) - 1, -1, -1):
            name, line, text, first = self._open[index]
            if name != tag:
                continue
            del self._open[index:]
            titled = index in self._titled
            self._titled = {i for i in self._titled if i < index}
            shown = " ".join("".join(text).split())
            if shown and titled:
                # A box's title written as HTML (``<p class="admonition-title">``): a title
                # over what follows it, as a figure's caption is.
                self.labels.append(("title", line, shown, "", TITLED_CLASS))
            elif shown and (tag in _TITLE_ELEMENTS or tag in _CELL_ELEMENTS or first):
                kind = "title" if tag in _TITLE_ELEMENTS else _CELL_ELEMENTS.get(tag, "label")
                self.labels.append((kind, line, shown, "", tag))
            break
        if tag in _BLOCKS and len(self._block_text) > 1:
            opening = opening_label(" ".join(self._block_text.pop().split()))
            if opening is not None:
                self.labels.append(("label", self.getpos()[0] - 1, opening[0], opening[1], tag))

    def handle_data(self, data: str) -> None:
        for _tag, _line, text, _first in self._open:
            text.append(data)
        if self._summary == 0:
            self._block_text[-1] += data
        self.text.append(data)


_OPENING_TAG = re.compile(r"<([A-Za-z][\w.:-]*)")


#: Labels written as JSX values: ``values={[{label: 'Staff only', value: 'x'}]}``.
_JSX_LABEL = re.compile(r"""\b(?:label|title|summary)\s*:\s*(["'`])([^"'`\n]{1,80})\1""")


def html_labels(fragment: str, first_line: int, open_end: Callable[[], int],
                next_heading: Callable[[], int]) -> list[Place]:
    """The labels of an HTML block starting on body line ``first_line``: each reaches
    from the block's first line to the end of the block's first element — the block's
    end when the block closes it, else ``open_end()`` (its closing tag further down, or
    the next heading)."""
    parser = _Labels()
    try:
        parser.feed(fragment)
        parser.close()
    except (AssertionError, ValueError):  # malformed markup: read what was read
        pass
    for match in _JSX_LABEL.finditer(fragment):
        parser.labels.append(("title", fragment[: match.start()].count("\n"), match.group(2), "", ""))
    if not parser.labels:
        return []
    block_end = first_line + fragment.rstrip("\n").count("\n") + 1
    opening = _OPENING_TAG.match(fragment.lstrip())
    closed = opening is not None and _closes(fragment, opening.group(1))
    end = block_end if closed else max(block_end, open_end())
    shown = " ".join("".join(parser.text).split()).strip(" :.-–—")
    places = []
    for kind, offset, label, rest, _tag in parser.labels:
        # A label standing alone is about what follows, to the next heading.
        # A figure's caption may be about the text around it: to the next heading.
        alone = label.strip(" :.-–—") == shown and kind == "label"
        reach = max(end, next_heading()) if alone or _tag in ("figcaption", TITLED_CLASS) else end
        places.append(Place(kind, first_line + offset, label, rest, kind != "title", first_line, reach))
    return places


def _closes(fragment: str, tag: str) -> bool:
    """Whether the element ``tag`` opening ``fragment`` is closed in it."""
    depth = 0
    for match in re.finditer(rf"<(/?){re.escape(tag)}(?=[\s/>])[^>]*?(/?)>", fragment, re.IGNORECASE):
        if match.group(2):
            continue
        depth += -1 if match.group(1) else 1
        if depth == 0:
            return True
    return False
