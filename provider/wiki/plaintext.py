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

__all__ = [
    "Block", "PlainText", "clean_inline", "markdown_to_text", "parse_markdown", "remove_spans", "strip_templates",
]

_md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])

# Delimited spans (templates, comments) are found by pairing the positions of their
# openers and closers in one pass (:func:`remove_spans`), not by lazy regular
# expressions, which rescan the rest of the text from every opener on hostile input.
_LIQUID_COMMENT_OPEN = re.compile(r"\{%-?[ \t]*comment[ \t]*-?%\}")
_LIQUID_COMMENT_CLOSE = re.compile(r"\{%-?[ \t]*endcomment[ \t]*-?%\}")
_MDX_IMPORT_FROM = re.compile(r"""\sfrom\s{1,20}['"][^'"\n]{1,500}['"];?\s*$""")
_MDX_IMPORT_BARE = re.compile(r"""import\s{1,20}['"][^'"\n]{1,500}['"];?\s*$""")
_MAX_MDX_LINE = 1000
_MDX_EXPORT = re.compile(r"^\s*export\s+(?:default\b|const\b|let\b|var\b|function\b|async\b|class\b|\{)")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_TAG_LIKE = re.compile(r"</?[A-Za-z][A-Za-z0-9:._-]*(?:\s[^<>]{0,1000})?/?>")
_COMMENT_OPEN = re.compile(r"<!--")
_COMMENT_CLOSE = re.compile(r"-->")
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


# A "<" that does not open a tag closed within 1,000 characters (or a declaration): the
# parser would take everything after it, up to the end, as one unfinished tag, and does
# so again from each following "<" — quadratic: 250 KB of "<div " took minutes.
_UNBOUNDED_OPEN = re.compile(r"<(?!/?[A-Za-z][^<>]{0,1000}>|![^<>]{0,1000}>)")


def _html_to_text(fragment: str) -> str:
    parser = _HTMLText()
    try:
        # html.parser is quadratic on unclosed comments and unclosed tags; comments carry
        # no visible text, and a "<" that opens no tag is text.
        parser.feed(_UNBOUNDED_OPEN.sub("&lt;", _strip_comments(fragment)))
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
            return text
    # Absurdly deep escaping: what is left must still not read as an entity.
    return _ENTITY.sub(lambda m: "& " + m.group(0)[1:], text)


# The last pass over every text a snippet or title can show: Markdown the parser left as
# literal text (a link markdown-it refused, like ``[x](javascript:…)``, backticks of a
# dialect it does not know, a shell comment opening a code block) must not reach a
# reader looking like markup (CONTRACT R3).
_SCRUB: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"!\[([^\]\n]{0,500})\]\((?:[^()\n]|\([^()\n]{0,500}\)){0,2000}\)"), r"\1"),
    (re.compile(r"\[([^\]\n]{0,500})\]\((?:[^()\n]|\([^()\n]{0,500}\)){0,2000}\)"), r"\1"),
    (re.compile(r"!\["), "["),
    (re.compile(r"\*\*([^*\n]{1,500})\*\*"), r"\1"),
    (re.compile(r"__([^_\n]{1,500})__"), r"\1"),
    (re.compile(r"`([^`\n]{1,500})`"), r"\1"),
    (re.compile(r"`{3,}|~{3,}"), " "),
    (re.compile(r"\|\s{0,20}:?-{3,}:?\s{0,20}\|"), " "),
    (re.compile(r"\{#\s|\s#\}"), " "),
    (re.compile(r"^\s{0,3}#{1,6}\s+"), ""),
)


# Extensions markdown-it (CommonMark + tables) does not parse, left as text in prose
# only — in code, ``a == b == c`` and ``[^0-9]`` are what the reader must see.
_PROSE_SCRUB: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?<=\S)\[\^\w{1,40}\](?!:)"), ""),  # footnote reference, right after a word
    (re.compile(r"^\[\^\w{1,40}\]:\s*"), ""),  # footnote definition label
    (re.compile(r"==([^=\n]{1,500})=="), r"\1"),  # ==highlight==
    (re.compile(r"^\[[ xX]\]\s+"), ""),  # task list box
    (re.compile(r"\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]", re.IGNORECASE), r"\1:"),  # GitHub alert
    (re.compile(r"\{:?[ \t]{0,5}(?:[#.][A-Za-z][\w-]{0,100}[ \t]{0,5}){1,10}\}"), " "),  # {: .class} {#id}
    (re.compile(r"^[=-]{3,}$"), ""),  # a setext underline whose heading text was cut away
)


def _scrub(text: str, extra: tuple[tuple[re.Pattern[str], str], ...] = ()) -> str:
    for _ in range(3):
        before = text
        for pattern, replacement in (*_SCRUB, *extra):
            text = pattern.sub(replacement, text)
        if text == before:
            break
    return _squash(text)


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


def _strip_comments(text: str) -> str:
    return remove_spans(text, _COMMENT_OPEN, _COMMENT_CLOSE, to_end=True)


def _clean_prose(text: str) -> str:
    text = _strip_comments(_decode_entities(text))
    text = _strip_tags(text, keep_words=False)
    # A delimiter left without its pair (``{{`` alone, or decoded from ``&#123;&#123;``)
    # still reads as a template tag: drop it.
    return _scrub(_squash(_TEMPLATE_DELIMITER.sub(" ", text)), _PROSE_SCRUB)


def _code_text(text: str) -> str:
    # Code is kept as the reader sees it, but nothing in it may look like markup: an
    # entity is decoded, a tag keeps its words without its brackets, a stray template
    # delimiter keeps its characters with a space between them.
    text = _strip_comments(_decode_entities(text))
    text = _strip_tags(text, keep_words=True)
    return _CLOSE_SPLIT.sub(" }", _OPEN_SPLIT.sub("{ ", text))


def _clean_code(text: str) -> str:
    return _scrub(_squash(_code_text(text)))


def _blank(removed: str) -> str:
    """A removed template, as a space plus the line breaks it spanned."""
    return " " + "\n" * removed.count("\n")


def remove_spans(
    text: str,
    opener: re.Pattern[str],
    closer: re.Pattern[str],
    *,
    window: int | None = None,
    to_end: bool = False,
    replace: Callable[[str], str] = lambda _: " ",
) -> str:
    """Replace every ``opener … closer`` span with ``replace(span)``, in linear time.

    Each opener pairs with the first closer after it; a pair further apart than
    ``window`` characters is not a span (the opener stays). An opener with no closer
    after it removes the rest of the text when ``to_end`` (an unclosed HTML comment),
    and otherwise stays.
    """
    closers = [(m.start(), m.end()) for m in closer.finditer(text)]
    out: list[str] = []
    done = 0  # text before this index is already written
    j = 0
    for match in opener.finditer(text):
        start, body = match.start(), match.end()
        if start < done:
            continue
        while j < len(closers) and closers[j][0] < body:
            j += 1
        if j == len(closers):
            if to_end:
                out += [text[done:start], replace(text[start:])]
                done = len(text)
            break
        close_start, close_end = closers[j]
        if window is not None and close_start - body > window:
            continue
        out += [text[done:start], replace(text[start:close_end])]
        done = close_end
    out.append(text[done:])
    return "".join(out)


def _is_mdx_import(line: str) -> bool:
    stripped = line.strip()
    if len(stripped) > _MAX_MDX_LINE or not stripped.startswith("import"):
        return False
    return bool(_MDX_IMPORT_BARE.match(stripped) or
                (stripped[6:7].isspace() and _MDX_IMPORT_FROM.search(stripped)))


_SHORTCODE_OPEN = re.compile(r"\{\{[<%]")
_SHORTCODE_CLOSE = re.compile(r"[%>]\}\}")
_LIQUID_TAG_OPEN = re.compile(r"\{%")
_LIQUID_TAG_CLOSE = re.compile(r"%\}")
_LIQUID_OUTPUT_OPEN = re.compile(r"\{\{")
_LIQUID_OUTPUT_CLOSE = re.compile(r"\}\}")
_MDX_COMMENT_OPEN = re.compile(r"\{/\*")
_MDX_COMMENT_CLOSE = re.compile(r"\*/\}")


def strip_templates(source: str, *, keep_lines: bool = False) -> str:
    """Remove shortcodes, Liquid and MDX import/export lines from markdown source.

    Args:
        source: markdown text.
        keep_lines: keep every line where it was (a removed multi-line template leaves
            its line breaks, a removed line stays as an empty line), so line numbers of
            the result are those of ``source`` — for finding which lines are code.
    """
    removed: Callable[[str], str] = _blank if keep_lines else (lambda _: " ")
    # Liquid runs before Markdown: what a {% comment %} hides is gone before any fence
    # inside it could start a code block.
    source = remove_spans(source, _LIQUID_COMMENT_OPEN, _LIQUID_COMMENT_CLOSE, window=100_000, replace=removed)
    out: list[str] = []
    for is_code, segment in _fenced_segments(source):
        # In prose a template disappears; in fenced code the reader sees its words
        # (``api_token: "{{ hcloud_token }}"`` → ``api_token: " hcloud_token "``).
        out.append(_remove_templates(segment, _template_words if is_code else removed))
    lines = []
    fence: str | None = None
    for line in "".join(out).split("\n"):
        match = _FENCE.match(line)
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker[0] * len(marker)
            elif marker.startswith(fence):
                fence = None
        elif fence is None and (_is_mdx_import(line) or _MDX_EXPORT.match(line)):
            if keep_lines:
                lines.append("")
            continue
        lines.append(line)
    return "\n".join(lines)


def _template_words(span: str) -> str:
    return " " + span.strip("{}%<>-/*# \t") + " "


def _remove_templates(text: str, replace: Callable[[str], str]) -> str:
    text = remove_spans(text, _SHORTCODE_OPEN, _SHORTCODE_CLOSE, window=4000, replace=replace)
    text = remove_spans(text, _LIQUID_TAG_OPEN, _LIQUID_TAG_CLOSE, window=4000, replace=replace)
    text = remove_spans(text, _LIQUID_OUTPUT_OPEN, _LIQUID_OUTPUT_CLOSE, window=4000, replace=replace)
    # MDX comments hide text from readers in every layout (Docusaurus renders .md as MDX).
    return remove_spans(text, _MDX_COMMENT_OPEN, _MDX_COMMENT_CLOSE, window=20_000,
                        replace=_blank if replace is _blank else (lambda _: " "))


def _fenced_segments(source: str) -> list[tuple[bool, str]]:
    """Split markdown source into (is fenced code, text) runs, line breaks kept."""
    segments: list[tuple[bool, str]] = []
    current: list[str] = []
    fence: str | None = None
    for line in source.splitlines(keepends=True):
        match = _FENCE.match(line)
        if match and fence is None:
            segments.append((False, "".join(current)))
            current = [line]
            fence = match.group(1)[0] * len(match.group(1))
            continue
        current.append(line)
        if match and fence is not None and match.group(1).startswith(fence):
            segments.append((True, "".join(current)))
            current, fence = [], None
    segments.append((fence is not None, "".join(current)))
    return segments


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
