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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from helpthread_kit.plaintext import LITERAL_BRACKETS, markup_in

__all__ = [
    "ATTRIBUTE_LIST", "ATTRIBUTE_PART", "DIAGRAM_LANGUAGES", "HEADING_ID", "HTML_ELEMENTS", "SKIP_CONTENT_TAGS",
    "Block", "PlainText", "TextOptions", "clean_inline", "closes_fence", "fence_opener", "heading_id_mark",
    "markdown_to_text", "no_text_to_serve", "outside_fences", "parse_blocks", "parse_markdown",
    "parse_markdown_where", "remove_spans", "strip_templates",
]

# ``text_join`` off: an entity or a backslash escape stays its own ``text_special`` token,
# so text the author escaped (``&lt;Enter&gt;``, ``\<b\>``) is known to be text, not a tag.
_md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"]).disable("text_join")


@dataclass(frozen=True)
class TextOptions:
    """What a layout's tool does to text that plain Markdown leaves alone.

    Attributes:
        code_templates: what the tool does to templates inside code: ``"literal"``
            (nothing: MDX, DocFX, MkDocs, plain Markdown — the code is shown as written),
            ``"hugo"`` (shortcodes run inside code; the escaped form ``{{</* x */>}}``
            shows as ``{{< x >}}``), ``"liquid"`` (Jekyll: Liquid runs inside code,
            except between ``{% raw %}`` and ``{% endraw %}``).
        unknown_tags_as_text: a tag-like ``<ServerName>`` in prose whose name is not an
            HTML element is shown as text (Microsoft Learn encodes such tags).
        raw_html: the site renders raw HTML blocks (Hugo's Goldmark does not without
            ``unsafe``: it shows ``<!-- raw HTML omitted -->``, so their text is no text).
    """

    code_templates: str = "literal"
    unknown_tags_as_text: bool = False
    raw_html: bool = True


PLAIN_TEXT = TextOptions()

# Delimited spans (templates, comments) are found by pairing the positions of their
# openers and closers in one pass (:func:`remove_spans`), not by lazy regular
# expressions, which rescan the rest of the text from every opener on hostile input.
_LIQUID_COMMENT_OPEN = re.compile(r"\{%-?[ \t]*comment[ \t]*-?%\}")
_LIQUID_COMMENT_CLOSE = re.compile(r"\{%-?[ \t]*endcomment[ \t]*-?%\}")
_MDX_IMPORT_FROM = re.compile(r"""\sfrom\s{1,20}['"][^'"\n]{1,500}['"];?\s*$""")
_MDX_IMPORT_BARE = re.compile(r"""import\s{1,20}['"][^'"\n]{1,500}['"];?\s*$""")
_MAX_MDX_LINE = 1000
_MDX_EXPORT = re.compile(r"^\s*export\s+(?:default\b|const\b|let\b|var\b|function\b|async\b|class\b|\{)")
_FENCE_LINE = re.compile(r"^((?:[ \t]*>)*[ \t]*)(`{3,}|~{3,})(.*)$")
_TAG_LIKE = re.compile(r"</?[A-Za-z][A-Za-z0-9:._-]*(?:\s[^<>]{0,1000})?/?>")
_COMMENT_OPEN = re.compile(r"<!--")
_COMMENT_CLOSE = re.compile(r"-->")
# Only ``&name;`` / ``&#n;`` forms: html.unescape alone would also decode legacy names
# without a semicolon and corrupt text such as ``?a=1&region=eu`` (→ ``?a=1®ion=eu``).
_ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")
_TEMPLATE_DELIMITER = re.compile(r"\{\{|\}\}|\{%|%\}")
_MAX_PASSES = 8
_SPACES = re.compile(r"\s+")
#: Elements whose content a reader never sees (a browser with scripts shows the media,
#: not the fallback text of ``<video>``, ``<audio>``, ``<iframe>``): left out of the text.
SKIP_CONTENT_TAGS = frozenset({"script", "style", "template", "noscript", "noembed", "noframes", "video", "audio",
                               "iframe",
                               # Fallback content, and a <title> in the body (issue 24: provider/wiki/hidden_html.py;
                               # SVG's own parts are judged there, inside an <svg> only).
                               "canvas", "progress", "meter", "datalist", "title"})
#: HTML element names (WHATWG, plus common obsolete ones and SVG/MathML roots): a tag
#: of another name is not HTML, and Learn shows it as text (``<ServerName>``).
HTML_ELEMENTS = frozenset("""
a abbr acronym address area article aside audio b base basefont bdi bdo big blink blockquote body br button
canvas caption center cite code col colgroup data datalist dd del details dfn dialog dir div dl dt em embed
fieldset figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i
iframe img input ins kbd label legend li link main map mark marquee math menu meta meter nav nobr noframes
noscript object ol optgroup option output p param picture pre progress q rp rt ruby s samp script search
section select slot small source span strike strong style sub summary sup svg table tbody td template
textarea tfoot th thead time title tr track tt u ul var video wbr
""".split())
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
        anchor: a heading's explicit id (``## Title {#id}`` in the layouts whose tool
            honours it), else ``""``.
        verbatim: the pieces of a text block kept exactly as written (inline code,
            escaped characters, Learn placeholders), for checking the rest for markup.
    """

    kind: str
    text: str
    level: int = 0
    internal: bool = False
    anchor: str = field(default="", compare=False)
    verbatim: tuple[str, ...] = field(default=(), compare=False)


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
    def __init__(self, held: list[str]) -> None:
        super().__init__(convert_charrefs=False)
        self.parts: list[str] = []
        self._skip_depth = 0
        self._held = held

    def _reference(self, decoded: str) -> None:
        # ``&lt;Enter&gt;`` in HTML is text a reader sees, not a tag.
        if not self._skip_depth:
            self.parts.append(_hold(self._held, decoded) if decoded in "<>&" else decoded)

    def handle_entityref(self, name: str) -> None:
        self._reference(html.unescape(f"&{name};"))

    def handle_charref(self, name: str) -> None:
        self._reference(html.unescape(f"&#{name};"))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIP_CONTENT_TAGS:
            self._skip_depth += 1
        elif tag in _BREAK_TAGS:
            self.parts.append(" ")
        if tag == "img":
            alt = dict(attrs).get("alt")
            if alt and not self._skip_depth:
                self.parts.append(f" {alt} ")

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIP_CONTENT_TAGS and self._skip_depth:
            self._skip_depth -= 1
        elif tag in _BREAK_TAGS:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self._skip_depth:
            # Inside an HTML block Markdown is not parsed: ``a__b__c`` or ``[x](y)`` there
            # is what the reader sees, literally (the kit's rule for such text, R3).
            self.parts.append(_hold(self._held, data) if markup_in(data) else data)


# A "<" that does not open a tag closed within 1,000 characters (or a declaration): the
# parser would take everything after it, up to the end, as one unfinished tag, and does
# so again from each following "<" — quadratic: 250 KB of "<div " took minutes.
_UNBOUNDED_OPEN = re.compile(r"<(?!/?[A-Za-z][^<>]{0,1000}>|![^<>]{0,1000}>)")


def _html_to_text(fragment: str, held: list[str]) -> str:
    parser = _HTMLText(held)
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
    """Decode ``&amp;``-style entities once, as a browser shows them: ``&amp;lt;b&amp;gt;``
    is the text ``&lt;b&gt;``, never the tag ``<b>`` (a second pass lost its words). The
    ``&`` an entity or escape gives is held (:func:`_inline_text`, :class:`_HTMLText`), so
    it starts no further entity here."""
    if "&" not in text:  # every entity starts with one
        return text
    return _ENTITY.sub(lambda m: html.unescape(m.group(0)), text)


# The last pass over every text a snippet or title can show: Markdown the parser left as
# literal text (a link markdown-it refused, like ``[x](javascript:…)``, backticks of a
# dialect it does not know, a shell comment opening a code block) must not reach a
# reader looking like markup (CONTRACT R3).
_SCRUB: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"!\[([^\]\n]{0,500})\]\((?:[^()\n]|\([^()\n]{0,500}\)){0,2000}\)"), r"\1"),
    (re.compile(r"\[([^\]\n]{0,500})\]\((?:[^()\n]|\([^()\n]{0,500}\)){0,2000}\)"), r"\1"),
    (re.compile(r"!\["), "["),
    (re.compile(r"\*\*([^*\n]{1,500})\*\*"), r"\1"),
    (re.compile(r"`([^`\n]{1,500})`"), r"\1"),
    (re.compile(r"`{3,}|~{3,}"), " "),
    (re.compile(r"\|\s{0,20}:?-{3,}:?\s{0,20}\|"), " "),
    (re.compile(r"\{#\s|\s#\}"), " "),
    (re.compile(r"^\s{0,3}#{1,6}\s+"), ""),
)
#: Per pattern of :data:`_SCRUB`, characters of which every match holds at least one: a
#: text without any of them is left as it is by that pattern, so it is not run.
_SCRUB_NEEDS = ("[", "[", "[", "*", "`", "`~", "|", "#", "#")


_ATTRIBUTE = r"""(?:[.#][^\W\d][^\s{}.#="'<>]*|[A-Za-z_:][\w:.-]*=(?:"[^"\n]*"|'[^'\n]*'|[^\s{}"'<>]+))"""
#: An attribute list of kramdown, Python-Markdown's attr_list and Pandoc: ``{: .x #y k=v}``
#: (its parts: :data:`ATTRIBUTE_PART`).
# A bare name (``{: hidden}``: attr_list's ``hidden="hidden"``, a kramdown reference to a
# definition) only after the colon: ``{name}`` alone is text (a placeholder).
_BARE_OR_ATTRIBUTE = r"(?:" + _ATTRIBUTE + r"|[A-Za-z_][\w-]*)"
ATTRIBUTE_LIST = re.compile(
    r"\{:[ \t]*(" + _BARE_OR_ATTRIBUTE + r"(?:[ \t]+" + _BARE_OR_ATTRIBUTE + r")*)[ \t]*\}"
    r"|\{[ \t]*(" + _ATTRIBUTE + r"(?:[ \t]+" + _ATTRIBUTE + r")*)[ \t]*\}")
ATTRIBUTE_PART = re.compile(_BARE_OR_ATTRIBUTE)


# Extensions markdown-it (CommonMark + tables) does not parse, left as text in prose
# only — in code, ``a == b == c`` and ``[^0-9]`` are what the reader must see.
_PROSE_SCRUB: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?<=\S)\[\^\w{1,40}\](?!:)"), ""),  # footnote reference, right after a word
    (re.compile(r"^\[\^\w{1,40}\]:\s*"), ""),  # footnote definition label
    (re.compile(r"==([^=\n]{1,500})=="), r"\1"),  # ==highlight==
    (re.compile(r"^\[[ xX]\]\s+"), ""),  # task list box
    (re.compile(r"\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]", re.IGNORECASE), r"\1:"),  # GitHub alert
    (ATTRIBUTE_LIST, " "),  # {: .class} {#id} {: style="…" target=_blank}
    (re.compile(r"^[=-]{3,}$"), ""),  # a setext underline whose heading text was cut away
    # A reference link whose definition is missing (a translation dropped it): its text.
    (re.compile(r"(?<![\w\]])\[([^\[\]\n]{1,500})\]\[[^\[\]\s]{1,300}\]"), r"\1"),
)
_PROSE_SCRUB_NEEDS = ("[", "[", "=", "[", "[", "{", "=-", "[")
_SCRUB_STEPS = tuple(zip(_SCRUB, _SCRUB_NEEDS, strict=True))
_PROSE_SCRUB_STEPS = _SCRUB_STEPS + tuple(zip(_PROSE_SCRUB, _PROSE_SCRUB_NEEDS, strict=True))


def _scrub(text: str, prose: bool = False) -> str:
    steps = _PROSE_SCRUB_STEPS if prose else _SCRUB_STEPS
    for _ in range(3):
        before = text
        for (pattern, replacement), needs in steps:
            if any(char in text for char in needs):
                text = pattern.sub(replacement, text)
        if text == before:
            break
    return _squash(text)


def _tag_words(match: re.Match[str]) -> str:
    return " " + match.group(0).strip("</>").strip() + " "


def _strip_tags(text: str, *, keep_words: bool) -> str:
    """Remove tag-like strings, repeatedly: removing ``<b>`` from ``<a x="<b>">`` reveals
    a complete tag that a single pass would leave behind."""
    if "<" not in text:  # every tag starts with one
        return text
    for _ in range(_MAX_PASSES):
        text, count = _TAG_LIKE.subn(_tag_words if keep_words else " ", text)
        if not count:
            return text
    if _TAG_LIKE.search(text):  # absurdly deep nesting: no angle brackets at all
        text = text.replace("<", " ").replace(">", " ")
    return text


def _strip_comments(text: str) -> str:
    if "<!--" not in text:  # no opener: remove_spans would give the text back
        return text
    return remove_spans(text, _COMMENT_OPEN, _COMMENT_CLOSE, to_end=True)


# Text that must reach the reader as written — inline code, escaped characters — is
# held out of the clean-up passes: each piece is replaced by a placeholder (a private-use
# character and an index from plane 15) that no pattern touches, then put back.
_HELD = "\ue020"
_HELD_PIECE = re.compile(_HELD + "([\U000f0000-\U000fffff])")
_MAX_HELD = 0xFFFF


def _hold(held: list[str], text: str) -> str:
    if len(held) >= _MAX_HELD:
        return text
    held.append(text)
    return _HELD + chr(0xF0000 + len(held) - 1)


def _release(text: str, held: list[str]) -> str:
    return _HELD_PIECE.sub(lambda m: held[ord(m.group(1)) - 0xF0000], text)


#: Stands for an "&" an entity or escape gave while the text is put back together.
_AMPERSAND = "\ue023"
_ESCAPED_ENTITY = re.compile(_AMPERSAND + r"(?=[A-Za-z][A-Za-z0-9]{1,31};|#[0-9]{1,7};|#[xX][0-9A-Fa-f]{1,6};)")
#: What the kit's definition calls a tag that formats (:func:`markup_in`).
_TAG_KIND = "HTML/XML tag"


def _clean_prose(text: str, held: list[str] | None = None) -> str:
    text = _strip_comments(_decode_entities(text))
    text = _strip_tags(text, keep_words=False)
    # A delimiter left without its pair (``{{`` alone, or decoded from ``&#123;&#123;``)
    # still reads as a template tag: drop it.
    if "{" in text or "}" in text or "%" in text:  # every delimiter holds one
        text = _TEMPLATE_DELIMITER.sub(" ", text)
    text = _scrub(_squash(text), prose=True)
    if not held:
        return text
    pieces = [_AMPERSAND if piece == "&" else piece for piece in held]
    shown = _squash(_release(text, pieces))
    if "<" in shown and _TAG_KIND in markup_in(shown):
        # Escaped brackets that, put back, read as a tag that formats (``&lt;b&gt;x&lt;/b&gt;``):
        # a checker cannot tell them from leaked markup, so they are shown as ‹ › (the kit's
        # definition of plain text, as html_to_paragraphs does). Code is left as written.
        pieces = [piece.translate(LITERAL_BRACKETS) if piece in ("<", ">") else piece for piece in pieces]
        shown = _squash(_release(text, pieces))
        # A placeholder escaped on one side only (Learn's ``\<Folder type>``): its other
        # bracket is shown the same way (it showed as ``‹Folder type>``).
        shown = _pair_brackets(shown)
    if _AMPERSAND in shown:
        # An escaped entity (``&amp;lt;``) shows as the entity's own text; with a full-width
        # ampersand (the kit's definition) it does not read as markup (R3).
        shown = _ESCAPED_ENTITY.sub("\uff06", shown).replace(_AMPERSAND, "&")
    return shown


_HALF_PAIR = re.compile(r"‹([^<>‹›]{1,80})>|<([^<>‹›]{1,80})›")


def _pair_brackets(text: str) -> str:
    """``‹name>`` and ``<name›`` (one bracket of a pair shown as ‹ ›) as ``‹name›``."""
    if "‹" not in text and "›" not in text:
        return text
    return _HALF_PAIR.sub(lambda m: f"‹{m.group(1) if m.group(1) is not None else m.group(2)}›", text)


def _clean_code(text: str) -> str:
    # Code is shown exactly as written (``__init__.py``, ``<div class="x">``, ``&lt;``):
    # only its line breaks and runs of spaces become one space.
    return _squash(text)


def fence_opener(line: str) -> str | None:
    """The fence (``"```"``, ``"~~~~"``) that ``line`` opens, or ``None``.

    Any indentation is allowed (fences nest in list items, JSX and blockquotes), but a
    backtick fence's info string may not contain a backtick (CommonMark): a one-line
    ```` ```adb shell``` ```` is inline code, not the start of a code block.
    """
    match = _FENCE_LINE.match(line)
    if match is None:
        return None
    marker, info = match.group(2), match.group(3)
    if marker[0] == "`" and "`" in info:
        return None
    return marker


def closes_fence(line: str, fence: str) -> bool:
    """Whether ``line`` closes a block opened by ``fence``: the same character, at least
    as many of them, and nothing else on the line."""
    match = _FENCE_LINE.match(line)
    return (match is not None and match.group(2)[0] == fence[0] and len(match.group(2)) >= len(fence)
            and not match.group(3).strip())


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


def strip_templates(source: str, *, keep_lines: bool = False, options: TextOptions = PLAIN_TEXT) -> str:
    """Remove shortcodes, Liquid and MDX import/export lines from markdown source.

    In prose a template disappears; in fenced code what the reader sees is kept
    (:attr:`TextOptions.code_templates`).

    Args:
        source: markdown text.
        keep_lines: keep every line where it was (a removed multi-line template leaves
            its line breaks, a removed line stays as an empty line), so line numbers of
            the result are those of ``source`` — for finding which lines are code.
        options: what the layout's tool does to text (:class:`TextOptions`).
    """
    return _prepare(source, keep_lines=keep_lines, options=options, math=False)


def _prepare(source: str, *, keep_lines: bool, options: TextOptions, math: bool) -> str:
    removed: Callable[[str], str] = _blank if keep_lines else (lambda _: " ")
    # Liquid runs before Markdown: what a {% comment %} hides is gone before any fence
    # inside it could start a code block.
    source = remove_spans(source, _LIQUID_COMMENT_OPEN, _LIQUID_COMMENT_CLOSE, window=100_000, replace=removed)
    out: list[str] = []
    for is_code, segment in _fenced_segments(source):
        if is_code:
            out.append(_code_templates(segment, options.code_templates))
            continue
        segment = _AUTOLINK_TEMPLATE.sub(" ", segment)
        if math:
            segment = _math_as_code(segment)
        if options.code_templates == "literal":
            # Inline code is code: a template in it is shown as written.
            segment = _CODE_SPAN.sub(lambda m: m.group(0).replace("{", _HOLD), segment)
        out.append(_remove_templates(segment, removed).replace(_HOLD, "{"))
    joined = "".join(out)
    if "import" not in joined and "export" not in joined:
        # No line can be an MDX import or export line: the loop below keeps every line.
        return joined
    lines = []
    fence: str | None = None
    for line in joined.split("\n"):
        if fence is None and (marker := fence_opener(line)) is not None:
            fence = marker
        elif fence is not None and closes_fence(line, fence):
            fence = None
        elif fence is None and (_is_mdx_import(line) or _MDX_EXPORT.match(line)):
            if keep_lines:
                lines.append("")
            continue
        lines.append(line)
    return "\n".join(lines)


# ``<{{ release.url }}>``: an autolink whose address a template fills in. Its text is
# unknown here, so the whole link goes, not just the template (which left ``< >``).
_AUTOLINK_TEMPLATE = re.compile(r"<[^\s<>{}]{0,500}(?:\{\{[^{}\n]{0,500}\}\}|\{%[^{}\n]{0,500}%\})[^\s<>]{0,500}>")

_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)[^`\n]{1,2000}?(?<!`)\1(?!`)")
_RAW_OPEN = re.compile(r"\{%-?[ \t]*raw[ \t]*-?%\}")
_RAW_CLOSE = re.compile(r"\{%-?[ \t]*endraw[ \t]*-?%\}")
_HUGO_ESCAPED = re.compile(r"\{\{([<%])/\*(.{0,4000}?)\*/([>%])\}\}", re.DOTALL)
_HOLD = "\ue010"  # stands for a "{" of text that must survive template removal


def _code_templates(segment: str, mode: str) -> str:
    """A fenced code segment as its tool shows it (:attr:`TextOptions.code_templates`)."""
    if mode == "hugo":
        # ``{{</* x */>}}`` is Hugo's way of showing a shortcode in code: it renders as
        # ``{{< x >}}``. Real shortcodes run; what they output is not known here.
        segment = segment.replace(_HOLD, "")
        segment = _HUGO_ESCAPED.sub(lambda m: f"{_HOLD}{{{m.group(1)}{m.group(2)}{m.group(3)}}}}}", segment)
        segment = remove_spans(segment, _SHORTCODE_OPEN, _SHORTCODE_CLOSE, window=4000, replace=_template_words)
        return segment.replace(_HOLD, "{")
    if mode == "liquid":
        segment = segment.replace(_HOLD, "")
        # Between {% raw %} and {% endraw %} Liquid is not run: the text is shown as written.
        segment = remove_spans(segment, _RAW_OPEN, _RAW_CLOSE, window=100_000,
                               replace=lambda span: _RAW_OPEN.sub("", _RAW_CLOSE.sub("", span)).replace("{", _HOLD))
        segment = remove_spans(segment, _LIQUID_TAG_OPEN, _LIQUID_TAG_CLOSE, window=4000, replace=lambda _: "")
        segment = remove_spans(segment, _LIQUID_OUTPUT_OPEN, _LIQUID_OUTPUT_CLOSE, window=4000,
                               replace=_template_words)
        return segment.replace(_HOLD, "{")
    return segment


# LaTeX in prose (MathJax/KaTeX delimiters): kept as its source, as inline code, so
# Markdown does not eat its backslashes (``\( \frac{1}{2} \)`` → ``\frac{1}{2}``).
_INLINE_MATH = re.compile(
    r"(?<!\\)\\\((.{1,2000}?)(?<!\\)\\\)"
    r"|(?<!\\)\\\[((?=[^\n]{0,2000}?(?:\\[A-Za-z]|[\^_=]))[^\n]{1,2000}?)(?<!\\)\\\]"
    r"|(?<![\\$])\$\$([^$\n]{1,2000}?)\$\$"
)
_DISPLAY_MATH = re.compile(r"^([ \t]*)(\$\$|\\\[)[ \t]*$")
_DISPLAY_CLOSE = {"$$": re.compile(r"^[ \t]*\$\$[ \t]*$"), "\\[": re.compile(r"^[ \t]*\\\][ \t]*$")}
_BACKTICKS = re.compile(r"`+")


def _as_code_span(text: str) -> str:
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    ticks = "`" * (longest + 1)
    return f"{ticks} {text.strip()} {ticks}"


def _math_as_code(segment: str) -> str:
    lines = segment.split("\n")
    out: list[str] = []
    closing: re.Pattern[str] | None = None
    for line in lines:
        if closing is not None:
            if closing.match(line):
                out.append("~~~~")
                closing = None
            else:
                out.append(line)
            continue
        display = _DISPLAY_MATH.match(line)
        if display is not None:
            closing = _DISPLAY_CLOSE[display.group(2)]
            out.append("~~~~math")
            continue
        out.append(_INLINE_MATH.sub(lambda m: _as_code_span(next(g for g in m.groups() if g is not None)), line))
    if closing is not None:  # never closed: not math after all
        return segment
    return "\n".join(out)


def _template_words(span: str) -> str:
    return " " + span.strip("{}%<>-/*# \t") + " "


def _remove_templates(text: str, replace: Callable[[str], str]) -> str:
    text = remove_spans(text, _SHORTCODE_OPEN, _SHORTCODE_CLOSE, window=4000, replace=replace)
    text = remove_spans(text, _LIQUID_TAG_OPEN, _LIQUID_TAG_CLOSE, window=4000, replace=replace)
    text = remove_spans(text, _LIQUID_OUTPUT_OPEN, _LIQUID_OUTPUT_CLOSE, window=4000, replace=replace)
    # MDX comments hide text from readers in every layout (Docusaurus renders .md as MDX).
    return remove_spans(text, _MDX_COMMENT_OPEN, _MDX_COMMENT_CLOSE, window=20_000,
                        replace=_blank if replace is _blank else (lambda _: " "))


def outside_fences(source: str, change: Callable[[str], str]) -> str:
    """``source`` with ``change`` applied to each run of lines outside fenced code
    (fences as :func:`fence_opener` finds them)."""
    return "".join(segment if is_code else change(segment) for is_code, segment in _fenced_segments(source))


def _fenced_segments(source: str) -> list[tuple[bool, str]]:
    """Split markdown source into (is fenced code, text) runs, line breaks kept."""
    if "```" not in source and "~~~" not in source:  # no line can open a fence
        return [(False, source)]
    segments: list[tuple[bool, str]] = []
    current: list[str] = []
    fence: str | None = None
    for line in source.splitlines(keepends=True):
        if fence is None:
            marker = fence_opener(line)
            if marker is not None:
                segments.append((False, "".join(current)))
                current = [line]
                fence = marker
                continue
        current.append(line)
        if fence is not None and closes_fence(line, fence):
            segments.append((True, "".join(current)))
            current, fence = [], None
    segments.append((fence is not None, "".join(current)))
    return segments


# Characters a Markdown escape or entity gives whose meaning as markup is removed anyway:
# a template delimiter stays dropped (R3). An "&" is held: decoded once, it is text.
_UNHELD_SPECIALS = frozenset("{}%")
_SIMPLE_TAG = re.compile(r"<([A-Za-z][A-Za-z0-9_.-]{0,100})>")


def _inline_text(children: list[Token], held: list[str], options: TextOptions = PLAIN_TEXT) -> str:
    parts: list[str] = []
    skip = 0
    for child in children:
        kind = child.type
        if kind == "html_inline":
            tag = child.content.lstrip("</").split(None, 1)[0].rstrip("/>").lower() if child.content else ""
            if tag in SKIP_CONTENT_TAGS:
                skip += -1 if child.content.startswith("</") else 1
                skip = max(skip, 0)
            elif tag == "br":
                parts.append(" ")
            elif (options.unknown_tags_as_text and not skip and tag not in HTML_ELEMENTS
                  and _SIMPLE_TAG.fullmatch(child.content)):
                parts.append(_hold(held, child.content))  # a placeholder: <ServerName>
            continue
        if skip:
            continue
        if kind == "text":
            parts.append(child.content)
        elif kind == "text_special":
            # ``&lt;Enter&gt;``, ``\*``: the author escaped it so that readers see it.
            content = child.content
            parts.append(content if content in _UNHELD_SPECIALS else _hold(held, content))
        elif kind == "code_inline":
            parts.append(_hold(held, child.content))
        elif kind == "image":
            # The alt text as a reader sees it: parsed, not its Markdown source.
            parts.append(_inline_text(child.children or [], held, options))
        elif kind in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts)


def _unheld(source: str) -> str:
    """``source`` without the characters placeholders are made of."""
    return source.replace(_HELD, "").replace(_HOLD, "")


def parse_markdown(source: str) -> list[Token]:
    """The block token stream of ``source`` from the same parser the text comes from
    (each block token's ``map`` holds its line range)."""
    return _md.parse(source)


#: :data:`_md` without the core rules that run after the block rules (inline parsing and
#: what works on its tokens): the same block tokens, without their children.
_md_blocks = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
_md_blocks.core.ruler.enableOnly(["normalize", "block"])


def parse_blocks(source: str) -> list[Token]:
    """:func:`parse_markdown`'s block tokens (type, ``map``, ``content``), without
    parsing inline Markdown: ``children`` is empty. For questions about blocks alone."""
    return _md_blocks.parse(source)


def parse_markdown_where(source: str, wanted: Callable[[str], bool]) -> list[Token]:
    """:func:`parse_markdown`'s tokens, the inline Markdown of only the inline tokens whose
    content ``wanted`` accepts parsed (the others' ``children`` empty). Each inline token
    is parsed from its content and the page's link references alone, so a parsed one's
    children are exactly :func:`parse_markdown`'s."""
    env: dict[str, Any] = {}
    tokens = _md_blocks.parse(source, env)
    for token in tokens:
        if token.type == "inline" and wanted(token.content):
            token.children = []
            _md.inline.parse(token.content, _md, env, token.children)
    return tokens


def clean_inline(source: str, options: TextOptions = PLAIN_TEXT) -> str:
    """Plain text of one line of inline Markdown (titles): ``Using `curl` &amp; **jq**``
    → ``Using curl & jq``."""
    source = strip_templates(_unheld(source).replace("\n", " "), options=options)
    tokens = _md.parseInline(source)
    held: list[str] = []
    text = "".join(_inline_text(t.children or [], held, options) for t in tokens)
    return _clean_prose(text, held)


#: How a dialect passes a heading's explicit id on (``## Title {#id}`` →
#: ``## Title \ue030id\ue031``): private-use characters no Markdown rule touches.
HEADING_ID = re.compile("\ue030([^\ue030\ue031\\s]{1,200})\ue031")


def heading_id_mark(anchor: str) -> str:
    """The mark :func:`markdown_to_text` reads as a heading's explicit id."""
    return f"\ue030{anchor}\ue031"


# An image's alt text as the site's CSS reads it: AdGuard's knowledge bases (Docusaurus)
# style screenshots by a ``*border`` or ``\*mobile_border`` word in the alt text, which
# no reader sees.
_IMAGE_ALT = re.compile(r"!\[([^\[\]\n]{0,1000})\]")
_ALT_MARKER = re.compile(r"(?<!\S)\\?\*[a-z][a-z0-9_-]{0,40}(?!\S)")


def _without_alt_markers(segment: str) -> str:
    if "*" not in segment:
        return segment
    return _IMAGE_ALT.sub(lambda m: "![" + _squash(_ALT_MARKER.sub(" ", m.group(1))) + "]", segment)


#: Fenced code in these languages is a diagram's or chart's source, not text a reader
#: sees on the page.
DIAGRAM_LANGUAGES = frozenset({"mermaid", "plantuml", "puml", "graphviz", "dot", "d2"})


def markdown_to_text(source: str, options: TextOptions = PLAIN_TEXT) -> PlainText:
    """Convert a markdown body (front matter already removed) to plain-text blocks.

    Prose loses its markup; code (fenced, indented, inline) is kept exactly as written,
    its whitespace collapsed; diagram source (``mermaid`` fences) is dropped.

    Args:
        source: the body.
        options: what the layout's tool does to text (:class:`TextOptions`).

    Never raises on any input text.
    """
    prepared = _prepare(_unheld(source), keep_lines=False, options=options, math=True)
    tokens = _md.parse(outside_fences(prepared, _without_alt_markers) if "![" in prepared else prepared)
    blocks: list[Block] = []
    first_h1: str | None = None
    first_heading: str | None = None
    heading_level = 0
    row: list[str] = []
    row_verbatim: list[str] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        kind = token.type
        if kind == "heading_open":
            heading_level = int(token.tag[1:]) if token.tag[1:].isdigit() else 1
        elif kind == "inline":
            held: list[str] = []
            text = _clean_prose(_inline_text(token.children or [], held, options), held)
            verbatim = tuple(held)
            if heading_level:
                explicit = HEADING_ID.search(text)
                if explicit is not None:
                    text = _squash(HEADING_ID.sub(" ", text))
                if text:
                    blocks.append(Block("heading", text, heading_level,
                                        anchor=explicit.group(1) if explicit is not None else "", verbatim=verbatim))
                    if first_heading is None:
                        first_heading = text
                    if heading_level == 1 and first_h1 is None:
                        first_h1 = text
            elif row is not None and i > 0 and tokens[i - 1].type in ("th_open", "td_open"):
                if text:
                    row.append(text)
                    row_verbatim.extend(verbatim)
            elif text:
                blocks.append(Block("text", text, verbatim=verbatim))
        elif kind == "heading_close":
            heading_level = 0
        elif kind == "tr_open":
            row, row_verbatim = [], []
        elif kind == "tr_close":
            if row:
                blocks.append(Block("text", " · ".join(row), verbatim=tuple(row_verbatim)))
            row, row_verbatim = [], []
        elif kind in ("fence", "code_block"):
            language = token.info.split(None, 1)[0].lower() if kind == "fence" and token.info.strip() else ""
            text = "" if language in DIAGRAM_LANGUAGES else _clean_code(token.content)
            if text:
                blocks.append(Block("code", text))
        elif kind == "html_block" and options.raw_html:
            held = []
            text = _clean_prose(_html_to_text(token.content, held), held)
            if text:
                blocks.append(Block("text", text, verbatim=tuple(held)))
        i += 1
    return PlainText(blocks=tuple(blocks), first_h1=first_h1, first_heading=first_heading)


#: A mkdocstrings line: the site renders the API documentation of ``identifier`` there.
_GENERATED = re.compile(r"^[ \t]*:::[ \t]+([\w.:/-]{1,300})[ \t]*$", re.MULTILINE)
#: An include line: the site puts another file's text there.
_INCLUDED = re.compile(r"^[ \t]*(?:--8<--|\{[*!]|\{%\s*include)", re.MULTILINE)
_TEXT_WORD = re.compile(r"[^\W_]+")


def no_text_to_serve(body: str, texts: Iterable[str], title: str, *, headings_only: bool = False) -> str | None:
    """Why a page whose text (``texts``: its passages' plain text) holds no word beyond
    its ``title`` is not served, else ``None``. Such a page renders from something the
    provider does not have — mkdocstrings ``::: package.module`` lines (docstrings of
    code), include lines — or is a bare title; served, it would answer with nothing but
    its title and outrank real guides. ``body``: the markdown body, to name the cause.

    With ``headings_only`` (the page shows headings and nothing else), a page that renders
    from such lines is not served either, whatever its headings say: its snippet would be
    a run of headings over text the site generates (an API reference page of
    ``## Section`` + ``::: package.Class`` pairs). A page of headings alone, generating
    nothing, is served (its headings are all the text it has)."""
    if headings_only and (_GENERATED.search(body) or _INCLUDED.search(body)):
        texts = ()
    allowed = set(_TEXT_WORD.findall(title.casefold()))
    for text in texts:
        if any(word not in allowed for word in _TEXT_WORD.findall(text.casefold())):
            return None
    generated = _GENERATED.search(body)
    if generated is not None:
        return ("no text to serve: the page is generated by mkdocstrings from code the provider does not have "
                f"(::: {generated.group(1)})")
    if _INCLUDED.search(body):
        return "no text to serve: the page's text is included from other files the provider does not read"
    return "no text to serve: the page holds nothing but its title"
