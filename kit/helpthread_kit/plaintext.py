"""Plain text, as the contract means it (CONTRACT R3, O3; §4.4, §4.6): the one
definition the checker (:func:`markup_in`), the reference provider's Markdown converter
(its tests judge every text it produces with :func:`is_plain_text`) and adapters
converting HTML (:func:`html_to_paragraphs`) share, so they agree.

The definition:

* **Text a page shows literally is plain text** — code, and what its author escaped so
  that readers see it (``&lt;b&gt;`` shows as ``<b>``). A provider that knows which
  pieces of a text are such (the converter does) passes them as ``literal``; they are
  set aside before the rest is judged. Where escaped brackets would, put back, read as
  a tag that formats (``&lt;b&gt;x&lt;/b&gt;``), converters write them
  :data:`LITERAL_BRACKETS` (``‹b›x‹/b›``), so even a checker that knows no literal
  pieces agrees; code is left as written.
* **Formatting markup is not**: what a renderer would turn into something else —
  HTML/XML/JSX tags that format (a tag with attributes, a self-closing tag, an element
  opened and closed in the same text: ``<b>Save</b>``), comments, character entities,
  Markdown link/image/emphasis/heading/code/table syntax, and template tags
  (Jinja/Liquid/Hugo shortcodes).

A tag named alone, without attributes (``<b>``, ``</p>``, ``<Enter>``), formats nothing:
it is how a page names an element or a key, and an escaped tag reads exactly so. A
black-box checker, which cannot know which pieces a page shows literally, therefore
accepts it; it still finds a tag with attributes — also one cut off by a snippet's end
(``<a href="/kb…``) — and an element with its closing tag.

The patterns are tuned to avoid flagging ordinary prose: ``a < b and b > c``, a single
``*`` or ``#`` (``C#``, ``issue #4``), ``[1]`` footnote marks and ``INV-{####}`` pass.

Converting HTML: :func:`html_to_paragraphs` drops tags, comments and ``script``/
``style``/``template`` content, decodes entities, and keeps what they decode to as
text; where that text would itself read as a tag or an entity (``&lt;b&gt;`` decodes to
``<b>``, ``&amp;amp;`` to ``&amp;``), the brackets become ``‹ ›`` and the ampersand
``＆``, so its output passes :func:`markup_in` with no ``literal`` pieces at all.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import lru_cache
from html.parser import HTMLParser

__all__ = ["ELLIPSIS", "HTML_ELEMENTS", "LITERAL_BRACKETS", "LOOK_ALIKES", "as_plain_text", "clip_text",
           "html_to_paragraphs", "html_to_text", "is_plain_text", "markup_in", "safe_cut", "without_controls",
           "without_literal"]

#: HTML element names (WHATWG, with a few obsolete ones still found in exports).
HTML_ELEMENTS = frozenset("""
a abbr address area article aside audio b base bdi bdo blockquote body br button canvas caption center cite code col
colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure font footer form frame
frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img input ins kbd label legend li link main map mark
menu meta meter nav noscript object ol optgroup option output p param picture pre progress q rp rt ruby s samp script
search section select slot small source span strike strong style sub summary sup svg table tbody td template textarea
tfoot th thead time title tr track tt u ul var video wbr math
""".split())

#: ``str.translate`` table: how ``<`` and ``>`` a page shows literally are written where,
#: put back, they would read as a tag that formats (``&lt;b&gt;x&lt;/b&gt;``): ``‹ ›``.
LITERAL_BRACKETS = str.maketrans({"<": "‹", ">": "›"})

_TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9:.-]*)(\s[^<>]*)?(/?)>")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9:.-]*(?:\s[^<>]*)?/?>")
_ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")


def _is_tag(match: re.Match[str]) -> bool:
    """Whether an angle-bracket word could be a tag at all: an HTML element's name, a
    component's (capitalised), or carrying attributes or ``/>``."""
    name, attributes, self_closing = match.group(1), match.group(2), match.group(3)
    return bool(name.lower() in HTML_ELEMENTS or name[0].isupper() or (attributes and attributes.strip())
                or self_closing)


def _formatting_tags(text: str) -> bool:
    """Whether ``text`` holds a tag that formats (module docstring): one with attributes
    or ``/>``, or an element both opened and closed in ``text``."""
    opened: set[str] = set()
    closed: set[str] = set()
    for match in _TAG.finditer(text):
        name, attributes, self_closing = match.group(1), match.group(2), match.group(3)
        if (attributes and attributes.strip()) or self_closing:
            return True
        if name.lower() in HTML_ELEMENTS or name[0].isupper():
            (closed if match.group(0).startswith("</") else opened).add(name.lower())
    return bool(opened & closed)


class _TagPattern:
    """``re.Pattern``-like: finds the tags that format (:func:`_formatting_tags`)."""

    def search(self, text: str) -> bool:
        return "<" in text and _formatting_tags(text)


_TAG_LABEL, _COMMENT_LABEL = "HTML/XML tag", "HTML comment"

#: Per kind of markup: how it is found, and which of its characters are written as
#: look-alikes (:data:`LOOK_ALIKES`) so that it reads as markup no longer.
_PATTERNS: tuple[tuple[re.Pattern[str] | _TagPattern, str, str], ...] = (
    # A tag starts "<name" or "</name" with no space after "<" (as HTML parsers require);
    # the second form catches a tag cut off by a snippet boundary ("<a href=...").
    (_TagPattern(), _TAG_LABEL, "<>"),
    (re.compile(r"</?[A-Za-z][A-Za-z0-9:.-]*\s+[A-Za-z:@-]+\s*="), _TAG_LABEL, "<"),
    (re.compile(r"<!--|-->"), _COMMENT_LABEL, "<>"),
    (_ENTITY, "HTML entity", "&"),
    (re.compile(r"!\[[^\]\n]*\]"), "Markdown image", "[]"),
    (re.compile(r"\[[^\]\n]*\]\([^)\n]*\)"), "Markdown link", "[]"),
    (re.compile(r"(?:^|\n)\s{0,3}\[[^\]\n]+\]:\s*\S"), "Markdown link definition", "[]"),
    (re.compile(r"\*\*[^*\n]+\*\*|__[^_\n]+__"), "Markdown bold", "*_"),
    (re.compile(r"(?:^|\n)\s{0,3}#{1,6}\s"), "Markdown heading", "#"),
    (re.compile(r"```|~~~"), "Markdown code fence", "`~"),
    (re.compile(r"`[^`\n]+`"), "Markdown inline code", "`"),
    (re.compile(r"\|\s*:?-{3,}:?\s*\|"), "Markdown table rule", "|"),
    # Jinja comments need the space ("{# note #}"): "INV-{####}" is a plain format string.
    (re.compile(r"\{\{|\}\}|\{%|%\}|\{#\s|\s#\}"), "template tag", "{}"),
)

#: Every kind of markup above holds one of these characters: text without any is plain.
_MAYBE_MARKUP = re.compile(r"[<>&\[*_#`~|{}]")


def markup_in(text: str, literal: Iterable[str] = ()) -> list[str]:
    """The kinds of formatting markup in ``text``, each named once, in a fixed order
    (module docstring), once the pieces a page shows literally are set aside.

    Args:
        text: a title, snippet or passage.
        literal: pieces of ``text`` the page shows as written — code, escaped characters
            (:func:`without_literal`). A black-box checker knows none.

    Returns:
        An empty list when ``text`` is plain text.
    """
    if literal:
        text = without_literal(text, literal)
    found: list[str] = []
    if not _MAYBE_MARKUP.search(text):
        return found
    for pattern, label, _ in _PATTERNS:
        if label not in found and pattern.search(text):
            found.append(label)
    return found


def is_plain_text(text: str, literal: Iterable[str] = ()) -> bool:
    """Whether ``text`` is plain text (CONTRACT R3): :func:`markup_in` finds nothing."""
    return not markup_in(text, literal)


#: How a character a page shows literally is written where, as it stands, it would make
#: text read as formatting markup (:func:`as_plain_text`): a character that looks the
#: same to a reader and that no renderer or checker reads as syntax.
LOOK_ALIKES: dict[str, str] = {
    "<": "‹", ">": "›",      # single angle quotation marks (as LITERAL_BRACKETS)
    "&": "＆",               # fullwidth ampersand
    "[": "［", "]": "］",     # fullwidth square brackets
    "*": "∗",                # asterisk operator
    "_": "＿",               # fullwidth low line
    "#": "＃",               # fullwidth number sign
    "`": "‵",                # reversed prime
    "~": "∼",                # tilde operator
    "|": "│",                # box drawings light vertical
    "{": "｛", "}": "｝",     # fullwidth curly brackets
}
_ALL_LOOK_ALIKES = str.maketrans(LOOK_ALIKES)
_LOOK_ALIKE_TABLES = {chars: str.maketrans({c: LOOK_ALIKES[c] for c in chars}) for _, _, chars in _PATTERNS}


def _tag_look_alikes(text: str) -> str:
    """``text`` with every angle-bracket word that could be a tag (``_is_tag``) in ‹ ›."""
    return _TAG.sub(lambda m: m.group(0).translate(LITERAL_BRACKETS) if _is_tag(m) else m.group(0), text)


def _translator(table: dict[int, str]) -> Callable[[re.Match[str]], str]:
    return lambda match: match.group(0).translate(table)


@lru_cache(maxsize=8192)  # the same passages make the snippets of many queries
def as_plain_text(text: str) -> str:
    """``text`` as plain text a black-box checker accepts (CONTRACT R3), changed only
    where :func:`markup_in` finds markup: there, the characters that make it markup are
    written as :data:`LOOK_ALIKES` (``<div class="x">`` → ``‹div class="x"›``,
    ``__name__`` → ``＿＿name＿＿``, ``{{ .Values }}`` → ``｛｛ .Values ｝｝``).

    This is how a provider shows text its page shows literally — code, an escaped tag —
    where it would read as markup (docs/explanation/plain-text.md). It is the last step
    of showing a text, not a converter: text that still holds the page's own markup is
    the converter's bug, judged before this step (:func:`markup_in` with ``literal``).
    Each character is replaced by one, so the length is unchanged (a clipped text stays
    within its bound).

    Returns:
        ``text`` itself when it is plain; otherwise a text :func:`markup_in` finds
        nothing in, of the same length.
    """
    for _ in range(3):
        kinds = markup_in(text)
        if not kinds:
            return text
        for pattern, label, chars in _PATTERNS:
            if label not in kinds:
                continue
            if isinstance(pattern, _TagPattern):
                text = _tag_look_alikes(text)
            else:
                text = pattern.sub(_translator(_LOOK_ALIKE_TABLES[chars]), text)
    # Not reached by any text known; every kind of markup needs one of these characters.
    return text if not markup_in(text) else text.translate(_ALL_LOOK_ALIKES)


#: Characters that reorder or forge what a reader sees rather than show anything:
#: bidirectional embeddings, overrides and isolates (the "Trojan Source" class: text
#: shown in an order other than the one stored), and the BOM/word joiner used as
#: invisible separators. The marks U+200E/U+200F and the joiners U+200C/U+200D stay:
#: Arabic, Hebrew, Persian and emoji text needs them.
_REORDERING = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff")
#: The same characters as a pattern: one scan in C, where a generator over each
#: character was a visible share of a search's CPU (every snippet has a newline, so
#: the ASCII shortcut below does not apply to it).
_REORDERING_RE = re.compile("[" + "".join(sorted(_REORDERING)) + "]")
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def without_controls(text: str) -> str:
    """``text`` as a reader may be shown it: C0 and C1 control characters (except tab
    and newline) and the line/paragraph separators U+2028/U+2029 become spaces, and
    bidirectional embedding, override and isolate controls (U+202A–U+202E,
    U+2066–U+2069) and U+FEFF are removed, so a snippet or title cannot reorder or
    forge the text around it where it is displayed (CONTRACT R3, O3).

    Returns:
        ``text`` itself when it holds none of them; otherwise a text at most as long.
    """
    if text.isascii() and text.isprintable():
        return text
    return _CONTROLS.sub(" ", _REORDERING_RE.sub("", text))


_SPACES = re.compile(r"\s+")
#: A literal piece this long or longer is also recognised by its start alone, where a
#: snippet or passage boundary cut it off.
_CUT_PIECE_MIN = 12


def without_literal(text: str, literal: Iterable[str]) -> str:
    """``text`` with each literal piece (whitespace collapsed, as in a snippet) replaced
    by a space — also a piece cut off at either end of ``text`` (a passage or snippet
    that starts or ends inside a code block), recognised by its first or last characters."""
    for piece in sorted({_SPACES.sub(" ", p).strip() for p in literal}, key=len, reverse=True):
        if not piece:
            continue
        text = text.replace(piece, " ")
        if len(piece) < _CUT_PIECE_MIN:
            continue
        text = _cut_ends(text, piece)
    return text


def _cut_ends(text: str, piece: str) -> str:
    """``text`` without a start that is the end of ``piece``, or an end that is its
    start (at least :data:`_CUT_PIECE_MIN` characters, an ellipsis at the cut aside);
    empty when all of ``text`` is a middle part of ``piece``."""
    if text.strip().strip(ELLIPSIS).strip() in piece:
        return ""
    body = text.rstrip().removesuffix(ELLIPSIS).rstrip()
    sizes = range(min(len(body), len(piece) - 1), _CUT_PIECE_MIN - 1, -1)
    for size in sizes if body[-_CUT_PIECE_MIN:] in piece else ():
        if piece.startswith(body[-size:]):
            text = body[:-size]
            break
    body = text.lstrip().removeprefix(ELLIPSIS).lstrip()
    sizes = range(min(len(body), len(piece) - 1), _CUT_PIECE_MIN - 1, -1)
    for size in sizes if body[:_CUT_PIECE_MIN] in piece else ():
        if piece.endswith(body[:size]):
            return body[size:]
    return text


_BLOCKS = frozenset({"p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "br", "tr", "table",
                     "blockquote", "pre", "section", "article", "dt", "dd", "hr", "header", "footer", "figcaption"})
_SKIPPED = frozenset({"script", "style", "template", "noscript"})


def _neutral(text: str) -> str:
    """Decoded text that would read as markup, made plain (module docstring)."""
    text = _TAG.sub(lambda m: m.group(0).translate(LITERAL_BRACKETS) if _is_tag(m) else m.group(0), text)
    text = _ENTITY.sub(lambda m: "＆" + m.group(0)[1:], text)
    return text.replace("<!--", "‹!--").replace("-->", "--›")


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)  # entities arrive decoded in handle_data
        self.paragraphs: list[str] = []
        self._current: list[str] = []
        self._skipping = 0

    def flush(self) -> None:
        text = _neutral(re.sub(r"\s+", " ", "".join(self._current)).strip())
        if text:
            self.paragraphs.append(text)
        self._current = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self._skipping += 1
        elif tag in _BLOCKS:
            self.flush()

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self._skipping = max(0, self._skipping - 1)
        elif tag in _BLOCKS:
            self.flush()

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self._current.append(data)


def html_to_paragraphs(html: str) -> list[str]:
    """The text of an HTML fragment as plain-text paragraphs (CONTRACT R3).

    Block elements (``p``, ``li``, ``h1``…, ``br``) end a paragraph; whitespace is
    collapsed; none is empty. Text without tags comes back as one paragraph per
    blank-line-separated block (blank lines are read as paragraph breaks first). Every
    paragraph passes :func:`markup_in` for HTML tags, comments and entities.

    Args:
        html: an HTML fragment or plain text, any length.

    Returns:
        The paragraphs, in document order; empty for a fragment without text.
    """
    collector = _TextCollector()
    collector.feed(re.sub(r"\n\s*\n", "<p>", html))
    collector.close()
    collector.flush()
    return collector.paragraphs


def html_to_text(html: str) -> str:
    """:func:`html_to_paragraphs` joined with single spaces (for titles)."""
    return " ".join(html_to_paragraphs(html))


#: What stands for text left out where a snippet or title is cut (R3).
ELLIPSIS = "…"
_JOINERS = frozenset("\u200d\u200c\u034f")  # zero-width joiner, non-joiner, grapheme joiner


def _continues(char: str) -> bool:
    """Whether ``char`` belongs to the character before it (a combining mark, a variation
    selector, a joiner, an emoji modifier): a cut before it would split what a reader
    sees as one character."""
    return (unicodedata.category(char) in ("Mn", "Me", "Mc") or char in _JOINERS
            or "\ufe00" <= char <= "\ufe0f" or "\U0001f3fb" <= char <= "\U0001f3ff"
            or "\U000e0100" <= char <= "\U000e01ef")


def safe_cut(text: str, index: int) -> int:
    """The largest position ``<= index`` where ``text`` can be cut without splitting a
    character from its combining marks, joiners or modifiers (0 at worst)."""
    index = max(0, min(index, len(text)))
    while 0 < index < len(text) and (_continues(text[index]) or text[index - 1] in _JOINERS):
        index -= 1
    return index


def clip_text(text: str, max_chars: int) -> str:
    """``text`` bounded to ``max_chars`` characters (code points), ellipsis included
    (CONTRACT R3). A clipped text ends with :data:`ELLIPSIS`, so it never ends mid-word
    without one; it is cut at the last space when one is in the last 40 % of the room
    (else anywhere: CJK text has no spaces), never inside a character's marks.

    Raises:
        ValueError: ``max_chars`` is below 2.
    """
    if max_chars < 2:
        raise ValueError("max_chars must be at least 2 (a character and the ellipsis)")
    if len(text) <= max_chars:
        return text
    room = max_chars - 1
    space = text.rfind(" ", 0, room + 1)
    cut = space if space >= room * 0.6 else safe_cut(text, room)
    head = text[:cut].rstrip() or text[: safe_cut(text, room)] or text[:room]
    return head + ELLIPSIS
