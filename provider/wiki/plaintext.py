"""Markdown → plain text, from markdown-it-py's token stream (CONTRACT R3).

Kept: the words a reader sees — headings, paragraphs, list items, table cells, link
text, image alt text, code text, the visible text of HTML. Dropped: markup of every
kind — Markdown syntax, HTML tags and comments, ``script``/``style`` content, entities
(decoded), Hugo shortcodes (``{{< … >}}``, ``{{% … %}}``), Liquid (``{% … %}``,
``{{ … }}``), MDX ``import``/``export`` lines and JSX tags. Text between paired
shortcodes or tags is kept.

The output is a sequence of :class:`Block` objects, one per paragraph, list item,
table row, heading or code block, each a single line of text. Sections and passages
are cut from these blocks.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser

from markdown_it import MarkdownIt
from markdown_it.token import Token

__all__ = ["Block", "PlainText", "clean_inline", "markdown_to_text", "parse_markdown", "strip_templates"]

_md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])

# Bounded repetition keeps every pattern linear on hostile input.
_SHORTCODE = re.compile(r"\{\{[<%].{0,4000}?[%>]\}\}", re.DOTALL)
_LIQUID_COMMENT = re.compile(r"\{%-?\s*comment\s*-?%\}.{0,100000}?\{%-?\s*endcomment\s*-?%\}", re.DOTALL)
_LIQUID_TAG = re.compile(r"\{%.{0,4000}?%\}", re.DOTALL)
_LIQUID_OUTPUT = re.compile(r"\{\{.{0,4000}?\}\}", re.DOTALL)
_MDX_IMPORT = re.compile(r"""^\s*import\s+(?:[\w*{}\s,$]+\s+from\s+)?['"][^'"]+['"];?\s*$""")
_MDX_EXPORT = re.compile(r"^\s*export\s+(?:default\b|const\b|let\b|var\b|function\b|async\b|class\b|\{)")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_TAG_LIKE = re.compile(r"</?[A-Za-z][A-Za-z0-9:._-]*(?:\s[^<>]{0,1000})?/?>")
_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
# Only ``&name;`` / ``&#n;`` forms: html.unescape alone would also decode legacy names
# without a semicolon and corrupt text such as ``?a=1&region=eu`` (→ ``?a=1®ion=eu``).
_ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")
_TEMPLATE_DELIMITER = re.compile(r"\{\{|\}\}|\{%|%\}")
_OPEN_SPLIT = re.compile(r"\{(?=[{%])")
_CLOSE_SPLIT = re.compile(r"(?<=[}%])\}")
_MAX_PASSES = 8
_SPACES = re.compile(r"\s+")
_SKIP_CONTENT_TAGS = frozenset({"script", "style", "template", "noscript"})
_BREAK_TAGS = frozenset(
    {"br", "p", "div", "li", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "summary", "dt", "dd", "section"}
)


@dataclass(frozen=True)
class Block:
    """One unit of visible text.

    Attributes:
        kind: ``"heading"``, ``"text"`` or ``"code"``.
        text: single-line plain text (whitespace collapsed), never empty.
        level: heading level 1–6 for headings, else 0.
        internal: the text is not visible outside internal sections
            (:mod:`provider.wiki.sections`); only ever set on the full view.
    """

    kind: str
    text: str
    level: int = 0
    internal: bool = False


@dataclass(frozen=True)
class PlainText:
    """A document's visible text.

    Attributes:
        blocks: in reading order.
        first_h1: the text of the first level-1 heading, if any (a title candidate).
        first_heading: the text of the first heading of any level, if any.
    """

    blocks: tuple[Block, ...]
    first_h1: str | None
    first_heading: str | None

    @property
    def text(self) -> str:
        """All blocks, one per line."""
        return "\n".join(block.text for block in self.blocks)


class _HTMLText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP_CONTENT_TAGS:
            self._skip_depth += 1
        elif tag in _BREAK_TAGS:
            self.parts.append(" ")
        if tag == "img":
            alt = dict(attrs).get("alt")
            if alt and not self._skip_depth:
                self.parts.append(f" {alt} ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP_CONTENT_TAGS and self._skip_depth:
            self._skip_depth -= 1
        elif tag in _BREAK_TAGS:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self._skip_depth:
            self.parts.append(data)


def _html_to_text(fragment: str) -> str:
    parser = _HTMLText()
    try:
        parser.feed(fragment)
        parser.close()
    except Exception:
        return ""
    return "".join(parser.parts)


def _squash(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def _decode_entities(text: str) -> str:
    """Decode ``&amp;``-style entities, again while any remain (``&amp;lt;``)."""
    for _ in range(_MAX_PASSES):
        text, count = _ENTITY.subn(lambda m: html.unescape(m.group(0)), text)
        if not count or not _ENTITY.search(text):
            break
    return text


def _tag_words(match: re.Match[str]) -> str:
    return " " + match.group(0).strip("</>").strip() + " "


def _strip_tags(text: str, *, keep_words: bool) -> str:
    """Remove tag-like strings, repeatedly: removing ``<b>`` from ``<a x="<b>">`` reveals
    a complete tag that a single pass would leave behind."""
    for _ in range(_MAX_PASSES):
        text, count = _TAG_LIKE.subn(_tag_words if keep_words else " ", text)
        if not count:
            return text
    if _TAG_LIKE.search(text):  # absurdly deep nesting: no angle brackets at all
        text = text.replace("<", " ").replace(">", " ")
    return text


def _clean_prose(text: str) -> str:
    text = _COMMENT.sub(" ", _decode_entities(text))
    text = _strip_tags(text, keep_words=False)
    # A delimiter left without its pair (``{{`` alone, or decoded from ``&#123;&#123;``)
    # still reads as a template tag: drop it.
    return _squash(_TEMPLATE_DELIMITER.sub(" ", text))


def _code_text(text: str) -> str:
    # Code is kept as the reader sees it, but nothing in it may look like markup: an
    # entity is decoded, a tag keeps its words without its brackets, a stray template
    # delimiter keeps its characters with a space between them.
    text = _COMMENT.sub(" ", _decode_entities(text))
    text = _strip_tags(text, keep_words=True)
    return _CLOSE_SPLIT.sub(" }", _OPEN_SPLIT.sub("{ ", text))


def _clean_code(text: str) -> str:
    return _squash(_code_text(text))


def _blank(match: re.Match[str]) -> str:
    """A removed template, as a space plus the line breaks it spanned."""
    return " " + "\n" * match.group(0).count("\n")


def strip_templates(source: str, *, keep_lines: bool = False) -> str:
    """Remove shortcodes, Liquid and MDX import/export lines from markdown source.

    Args:
        source: markdown text.
        keep_lines: keep every line where it was (a removed multi-line template leaves
            its line breaks, a removed line stays as an empty line), so line numbers of
            the result are those of ``source`` — for finding which lines are code.
    """
    replacement: str | Callable[[re.Match[str]], str] = _blank if keep_lines else " "
    source = _SHORTCODE.sub(replacement, source)
    source = _LIQUID_COMMENT.sub(replacement, source)
    source = _LIQUID_TAG.sub(replacement, source)
    source = _LIQUID_OUTPUT.sub(replacement, source)
    lines = []
    fence: str | None = None
    for line in source.split("\n"):
        match = _FENCE.match(line)
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker[0] * len(marker)
            elif marker.startswith(fence):
                fence = None
        elif fence is None and (_MDX_IMPORT.match(line) or _MDX_EXPORT.match(line)):
            if keep_lines:
                lines.append("")
            continue
        lines.append(line)
    return "\n".join(lines)


def _inline_text(children: list[Token]) -> str:
    parts: list[str] = []
    skip = 0
    for child in children:
        kind = child.type
        if kind == "html_inline":
            tag = child.content.lstrip("</").split(None, 1)[0].rstrip("/>").lower() if child.content else ""
            if tag in _SKIP_CONTENT_TAGS:
                skip += -1 if child.content.startswith("</") else 1
                skip = max(skip, 0)
            elif tag == "br":
                parts.append(" ")
            continue
        if skip:
            continue
        if kind == "text":
            parts.append(child.content)
        elif kind == "code_inline":
            # Same rule as code blocks: `<your-ip>` keeps its words, `&lt;-` is decoded.
            parts.append(_code_text(child.content))
        elif kind == "image":
            # The alt text as a reader sees it: parsed, not its Markdown source.
            parts.append(_inline_text(child.children or []))
        elif kind in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts)


def parse_markdown(source: str) -> list[Token]:
    """The block token stream of ``source`` from the same parser the text comes from
    (each block token's ``map`` holds its line range)."""
    return _md.parse(source)


def clean_inline(source: str) -> str:
    """Plain text of one line of inline Markdown (titles): ``Using `curl` &amp; **jq**``
    → ``Using curl & jq``."""
    source = strip_templates(source.replace("\n", " "))
    tokens = _md.parseInline(source)
    text = "".join(_inline_text(t.children or []) for t in tokens)
    return _clean_prose(text)


def markdown_to_text(source: str) -> PlainText:
    """Convert a markdown body (front matter already removed) to plain-text blocks.

    Never raises on any input text.
    """
    tokens = _md.parse(strip_templates(source))
    blocks: list[Block] = []
    first_h1: str | None = None
    first_heading: str | None = None
    heading_level = 0
    row: list[str] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        kind = token.type
        if kind == "heading_open":
            heading_level = int(token.tag[1:]) if token.tag[1:].isdigit() else 1
        elif kind == "inline":
            text = _clean_prose(_inline_text(token.children or []))
            if heading_level:
                if text:
                    blocks.append(Block("heading", text, heading_level))
                    if first_heading is None:
                        first_heading = text
                    if heading_level == 1 and first_h1 is None:
                        first_h1 = text
            elif row is not None and i > 0 and tokens[i - 1].type in ("th_open", "td_open"):
                if text:
                    row.append(text)
            elif text:
                blocks.append(Block("text", text))
        elif kind == "heading_close":
            heading_level = 0
        elif kind == "tr_open":
            row = []
        elif kind == "tr_close":
            if row:
                blocks.append(Block("text", " · ".join(row)))
            row = []
        elif kind in ("fence", "code_block"):
            text = _clean_code(token.content)
            if text:
                blocks.append(Block("code", text))
        elif kind == "html_block":
            text = _clean_prose(_html_to_text(token.content))
            if text:
                blocks.append(Block("text", text))
        i += 1
    return PlainText(blocks=tuple(blocks), first_h1=first_h1, first_heading=first_heading)
