"""Body text that says "not for customers" in words rather than with a marker.

Authors who do not know the ``<!-- internal -->`` markers (:mod:`provider.wiki.sections`)
write what they mean in prose. These forms are found outside code, read after Unicode
folding and through the confusables table (:mod:`provider.wiki.lookalike`):

============================  =======================================================
finding code                  what, and its effect
============================  =======================================================
``hiding-heading``            a heading such as ``## Internal notes``, ``## For support
                              staff only``, ``### Confidential – do not share``,
                              ``## DRAFT - not yet published``: **the heading's section**
                              (down to the next heading of the same or a higher level)
                              is internal
``hiding-label``              a paragraph opening with a label such as ``**INTERNAL
                              ONLY:**``, ``Staff only:``, ``Staff only.``, ``(Staff only)``,
                              ``[Internal]``, ``Staff only –``, ``<strong>Internal:</strong>``,
                              an image's alt text, or an HTML block's first words
                              (``<p><em>Staff only</em> …``): **that paragraph** is internal
                              (and everything up to the next heading when the label stands alone)
``hiding-note``               a blockquote whose first line says so (``> Note for agents
                              (do not share)``): **the blockquote** is internal
``todo-internal``             ``TODO(internal)``, ``FIXME(staff)``…: **the paragraph,
                              list item or heading section** holding it is internal
``hiding-title``              a box, tab, component, shortcode or HTML element titled so
                              (``:::info{title="Staff only"}``, ``??? note "Internal"``,
                              ``<TabItem label="Internal">``, ``{{< notice info "Staff
                              only" >}}``, ``<figcaption>``, a ``title``/``summary``/
                              ``label``/``alt``/``aria-label`` attribute): **the box or
                              element** (to its closing tag; else to the next heading)
``hiding-cell``               a table body cell that is or opens with such a label: **its
                              row**; a header cell naming text (``Internal notes``): **the
                              table**
``hiding-footnote``           a footnote saying so: **the footnote and every block citing it**
``hiding-term``               a definition term saying so: **the term and its definitions**
``hiding-sentence``           a sentence of a paragraph, of any length, saying its text is
                              for staff or not for customers (*This article is for support
                              agents and must not be shared with customers*, *Customers
                              should never see the following steps*): **the section
                              holding it** (from its heading to the next heading of the
                              same or a higher level; before any heading: the whole page)
``audience-in-body``          a line ``audience: internal`` (or a look-alike key and
                              value) in the body, beyond the first lines the front matter
                              reader already scans: **the page** is quarantined as
                              internal
``internal-title``            a front matter title or description saying so, whole or as
                              its opening label (``title: "Internal: refund override"``;
                              :func:`front_matter_markers`): **the page** is quarantined
============================  =======================================================

Labels are judged by :func:`label_says`; the places a label stands in (cells, footnotes,
terms, HTML) are found by :mod:`provider.wiki.label_places`. The insider word alone
(``Internal``) is a label over text that does not use it again, and a box's title; in a
heading or a table header it is a term.

Why a section and not the whole page: a heading, a label, a note and a TODO each say
*which* text they are about, as the markers do; hiding it keeps the rest of a public page
public (the same design as internal sections: its words never reach the public index).
An ``audience`` key says something about the whole page, so it decides the page.

What does not fire (measured on every corpus in ``../shared/corpora`` by
``bench/heuristics.py``): a heading that is a technical term — ``Internal`` alone (an
OpenTelemetry span kind), ``Internal DNS``, ``Internal links``, ``Private networks``,
``Tools for agents`` — and any of these words inside code.
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from markdown_it.token import Token

from .code_shown import shown_as_code
from .copies import _fold as fast_fold
from .label_places import LABEL_ATTRIBUTES, Place, opening_label, place_labels
from .lookalike import _confusable_table, fold, latin_skeleton, resembles
from .plaintext import parse_markdown
from .restriction import HINT, INSIDER_STEMS, names_staff_reader, orders_staff, restricts_readers

__all__ = ["BODY_MARKER_CODES", "LABEL_CODES", "PAGE_CODES", "BodyMarker", "find_body_markers", "front_matter_markers",
           "hiding_summary", "label_says", "mark_body_sections", "says_not_for_customers"]

#: Finding codes of this module, in the order of the table above.
BODY_MARKER_CODES = ("hiding-heading", "hiding-label", "hiding-note", "todo-internal", "hiding-title", "hiding-cell",
                     "hiding-footnote", "hiding-term", "hiding-sentence", "audience-in-body", "internal-title")
#: Codes of a label that hides text where it stands (a table cell, a paragraph's opening,
#: a footnote, a definition term), not a heading, a box's title or a sentence saying so:
#: one doubtful word there ("(agents only)" in a settings row) is no strong evidence, so
#: the text it hides is a source of rule 6d only for a long verbatim run.
LABEL_CODES = ("hiding-label", "hiding-cell", "hiding-footnote", "hiding-term")
#: Codes that decide the whole page rather than hide lines of it.
PAGE_CODES = ("audience-in-body", "internal-title")

#: The words the phrases below are made of; a word of the text is read as one of them
#: when it resembles it (``Іnternal`` with a Cyrillic І, ``ＳＴＡＦＦ``).
_VOCABULARY = ("internal", "only", "use", "notes", "note", "staff", "agents", "agent", "support", "team",
               "employees", "do", "dont", "not", "share", "publish", "published", "distribute", "for",
               "customers", "the", "public", "publication", "yet", "unpublished", "confidential", "eyes",
               "draft", "audience", "private", "restricted")

#: Phrases that say "not for customers" wherever they stand in a heading, label or note.
_ANYWHERE = tuple(tuple(p.split()) for p in (
    "internal only", "internal use", "for internal use", "internal notes", "internal note", "internal eyes",
    "staff only", "for support staff", "support staff only", "for staff only", "agents only", "agent only",
    "for support agents", "notes for agents", "note for agents", "agent notes", "agent note", "employees only",
    "support only", "team only", "do not share", "dont share", "do not publish", "dont publish",
    "do not distribute", "not for customers", "not for the public", "not for public", "not for publication",
    "not yet published", "confidential only", "strictly confidential",
))
#: Phrases that say so only when they are the whole heading or label.
_WHOLE = tuple(tuple(p.split()) for p in (
    "confidential", "internal confidential", "confidential notes", "confidential note", "for staff", "for agents",
    "staff", "staff notes", "staff note", "support notes", "unpublished", "not public", "draft",
    "for our team", "for our staff", "for our agents", "for our support team", "for our employees",
    "for the support team", "for our eyes",
    "draft unpublished", "private notes", "restricted",
))

_WORD = re.compile(r"[^\W_]+")
#: What an ASCII body must contain for any finding to be possible (each phrase of
#: :data:`_ANYWHERE` and :data:`_WHOLE` holds one of these words; labels and TODOs too).
#: The insider word alone as a title or label attribute, in brackets, or opening a line.
_TITLED_INSIDER = re.compile(r"""(?:title|label|summary|alt|caption|heading|header)\s*[=:]\s*["'`]\s*intern"""
                             r"""|[\[(【]\s*intern\w*\s*[\])】]|^[ \t>*_-]*intern\w*\b|"intern\w*\"""", re.MULTILINE)
_MAYBE = re.compile(r"(?m)internal[\s_-]+(?:only|use|notes?|eyes|confidential)|for internal|confidential|staff|"
                    r"agents? (?:only|notes?)|for (?:support )?agents|employees|"
                    r"(?:support|team) only|support notes?|(?:not|n'?t) (?:share|publish|distribut)|"
                    r"publication|published|"
                    r"for customers|not (?:for (?:the )?)?public|draft|restricted|private notes|audience|"
                    r"for (?:our|the) (?:support )?(?:team|staff|agents|employees|eyes)|"
                    r"(?:todo|fixme|xxx|hack|note)\s*\("
                    # The insider word alone as a label: "Internal:", "[Internal]", a title.
                    r"|[\[(]\s*intern\w*\s*[\])]|\bintern\w*\s*[:：]|intern\w*\s*$")  # on lowercased text (4x faster)
#: Inline markup between a phrase's words (``*Internal* notes``, ``[Internal](#x) notes``,
#: ``<em>Internal</em> notes``): blanked, length kept, before :data:`_MAYBE` looks. A tag's
#: attribute values stay: a title or label attribute is a label.
_INLINE_MARKUP = re.compile(r"\]\([^)\n]*\)|</?[a-z][\w.:-]*|[>=*`\[\]~]")
#: A heading written as HTML; its text is read as a Markdown heading's is.
_HTML_HEADING = re.compile(r"<h([1-6])(?:\s[^>]*)?>(.*?)</h\1\s*>", re.IGNORECASE | re.DOTALL)
#: "DRAFT - …", "DRAFT: …": a heading or label announcing a draft.
_DRAFT_LEAD = re.compile(r"[\s#*_>🔒]*draft\s*[-–—:|]")
#: Words after "confidential" that say it is about the text, not a technical term.
_ABOUT_TEXT = frozenset(("notes", "note", "information", "info", "only", "section", "details", "content", "do",
                         "dont", "not", "internal", "staff", "agents"))
_TODO = re.compile(r"\b(?:TODO|FIXME|XXX|NOTE|HACK)\s*\(\s*(internal|staff|agents?|support|private|confidential)\s*\)",
                   re.IGNORECASE)
_AUDIENCE = re.compile(r"^\s*[\"']?(\S{4,12}?)[\"']?\s*[:=]\s*[\"']?([^\s\"',}]{4,20})", re.MULTILINE)
_LABEL = re.compile(r"^\s*([^\n:]{1,80}):")
#: A collapsible block's label, and its opening and closing tags.
_SUMMARY = re.compile(r"<summary\b[^>]{0,200}>(.{0,300}?)</summary\s*>", re.IGNORECASE | re.DOTALL)
_SUMMARY_AT = re.compile(r"<summary", re.IGNORECASE)
_DETAILS = re.compile(r"<(/?)details\b[^>]{0,200}>", re.IGNORECASE)
_TAG = re.compile(r"<[^<>]{0,200}>")


@dataclass(frozen=True)
class BodyMarker:
    """One finding.

    Attributes:
        code: one of :data:`BODY_MARKER_CODES`.
        line: the body line (1-based) the finding is on.
        text: the matching text, at most 120 characters.
        start, end: the body lines (0-based, ``end`` excluded) made internal; equal for
            ``audience-in-body`` (nothing hidden: the page is decided).
    """

    code: str
    line: int
    text: str
    start: int
    end: int


@lru_cache(maxsize=65_536)
def _canonical(word: str) -> str:
    folded = fold(word)
    if folded in _VOCABULARY or folded.isascii():
        return "dont" if folded == "don" else folded
    # resembles() compares the folded word letter by letter: a word of another length is
    # never read as that word, and most are (a run of CJK text is one long word).
    size = len(folded.strip())
    return next((w for w in _VOCABULARY if len(w) == size and resembles(word, w)), folded)


def _words(text: str) -> tuple[str, ...]:
    # Folded first: a soft hyphen or zero-width space inside a word must not split it.
    words = [_canonical(w) for w in _WORD.findall(fold(text[:300]))]
    # "don't" splits into "don" and "t".
    out: list[str] = []
    for word in words:
        if word == "t" and out and out[-1] == "dont":
            continue
        out.append(word)
    return tuple(out)


def _contains(words: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    size = len(phrase)
    return any(words[i : i + size] == phrase for i in range(len(words) - size + 1))


def says_not_for_customers(text: str) -> str | None:
    """The phrase of ``text`` (a heading, a label, a note's first line) that says its
    text is not for customers, or ``None``. ``"Internal notes"`` → ``"internal notes"``;
    ``"Internal"``, ``"Internal DNS"``, ``"Tools for agents"`` → ``None``."""
    words = _words(text)
    if not words:
        # A sign alone (a bare 🔒 as a heading or label) has no words to match.
        return restricts_readers(text)
    if _DRAFT_LEAD.match(fold(text)) and text.lstrip(" #*_>🔒").startswith("DRAFT"):
        return "draft"
    if words[-1] == "confidential" or any(a == "confidential" and b in _ABOUT_TEXT for a, b in pairwise(words)):
        # "Support: confidential", "Confidential information"; not "Confidential computing".
        return "confidential"
    present = set(words)
    for phrase in _ANYWHERE:
        # A phrase with a word the text lacks is not in it (most headings hold none).
        if present.issuperset(phrase) and _contains(words, phrase) and not _advice(words, phrase):
            return " ".join(phrase)
    trimmed = tuple(w for w in words if w not in ("only", "the"))
    for phrase in _WHOLE:
        if trimmed == phrase or words == phrase:
            return " ".join(phrase)
    # A restriction bound to staff readers, in any language (Helpdesk only, Nur für
    # Mitarbeiter, 社内向け): :mod:`provider.wiki.restriction`.
    return restricts_readers(text)


#: Words after a do-not phrase that make it advice about the reader's own secret
#: (``## Do not share your password``), as :mod:`provider.wiki.restriction` reads them.
_ADVICE_AFTER = frozenset(("your", "their", "passwords", "password", "credentials", "keys", "key", "tokens",
                           "token", "secrets", "pin", "ihr", "ihre", "votre", "vos", "tu", "tus", "sua", "seu"))


def _advice(words: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    """Whether every place ``phrase`` (a do-not phrase) stands in ``words`` is followed
    by a word of advice (:data:`_ADVICE_AFTER`)."""
    if phrase[0] not in ("do", "dont"):
        return False
    size = len(phrase)
    at = [i for i in range(len(words) - size + 1) if words[i : i + size] == phrase]
    return bool(at) and all(i + size < len(words) and words[i + size] in _ADVICE_AFTER for i in at)


_ATTRIBUTE = re.compile(r"""([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def _shown(child: Token) -> str:
    """What a reader sees of one inline child as words: its text, an image's alt text,
    an inline tag's title or label attributes."""
    if child.type in ("softbreak", "hardbreak"):
        return "\n"
    if child.type in ("text", "text_special"):
        return child.content
    if child.type == "image":
        return " " + child.content + " "
    if child.type == "html_inline" and _BREAK_TAGS.match(child.content):
        return "\n"
    if child.type == "html_inline" and "=" in child.content:
        return " ".join(a or b for name, a, b in _ATTRIBUTE.findall(child.content) if name.lower() in LABEL_ATTRIBUTES)
    return ""


def _inline_text(token: Token) -> str:
    """The text of an inline token without its code spans, with its images' alt text
    and its inline tags' title attributes (a reader sees them as words)."""
    if not token.children:
        return token.content
    shown: list[str] = []
    # A collapsible block's label is read as one (:func:`_collapsed`); code is text.
    in_summary = False
    for child in token.children:
        if child.type == "html_inline" and _SUMMARY_TAG.match(child.content):
            in_summary = not child.content.startswith("</")
        elif not in_summary:
            shown.append(_shown(child))
    return "".join(shown)


_SUMMARY_TAG = re.compile(r"</?(?:summary|code|kbd|samp|pre|tt|var)\b", re.IGNORECASE)
#: Inline elements whose text, first in a paragraph, is a label over the rest, as bold
#: text is (``<small>Staff only</small> …``, ``<sup>Internal</sup> …``).
_INLINE_LABEL = re.compile(r"<(b|strong|em|i|u|mark|small|sup|sub|span|ins|big|font|abbr|cite|q|s|label)\b[^>]*>",
                           re.IGNORECASE)


def _closer(child: Token) -> Callable[[Token], bool] | None:
    """For an inline child opening emphasis or an inline element, a test of the child
    that closes it; else ``None``."""
    if child.type in ("strong_open", "em_open", "s_open"):
        closing = child.type.replace("_open", "_close")
        return lambda other: other.type == closing
    opening = _INLINE_LABEL.fullmatch(child.content) if child.type == "html_inline" else None
    if opening is None:
        return None
    end = re.compile(rf"</{opening.group(1)}\s*>", re.IGNORECASE)
    return lambda other: other.type == "html_inline" and end.fullmatch(other.content) is not None


def _later_label(inline: Token) -> tuple[str, str] | None:
    """``(code, text)`` of a label that does not open a paragraph but a reader still
    sees as one: a line after a hard break or ``<br>`` opening with a label, or an
    image whose title says so; else ``None``."""
    lines: list[list[Token]] = [[]]
    for child in inline.children or ():
        if child.type == "hardbreak" or (child.type == "html_inline" and _BREAK_TAGS.match(child.content)):
            lines.append([])
        else:
            lines[-1].append(child)
        title = child.attrGet("title") if child.type == "image" else None
        if isinstance(title, str) and label_says(title, titled=True) is not None:
            return "hiding-title", title
    for line in lines[1:]:
        text = "".join(_shown(c) for c in line).strip()
        opening = opening_label(text)
        if opening is not None and label_says(*opening[:2], whole=opening[2]) is not None:
            return "hiding-label", text
    return None


def _label(inline: Token, text: str) -> tuple[str, str, bool] | None:
    """``(label, rest, whole)``: a paragraph's opening label — bold or emphasised text
    or an image first in it, text before a colon, in brackets or parentheses, or before
    a period or dash — or its whole text when it is short. ``whole``: only a label that
    is all phrase counts (:func:`label_says`)."""
    children = [c for c in inline.children or () if not (c.type == "text" and not c.content)]
    closer = _closer(children[0]) if children else None
    if closer is not None:
        inside: list[str] = []
        for number, child in enumerate(children[1:], start=1):
            if closer(child):
                rest = "".join(_shown(c) for c in children[number + 1 :])
                if rest[:1].isalnum():
                    break  # emphasis closing inside a word (``*Sta*ff only:``): read as text
                return "".join(inside)[:60], rest, False
            inside.append(_shown(child))
        else:
            return None
    if children and children[0].type == "image":
        alt, title = children[0].content, children[0].attrGet("title")
        # An image's title is a label too (a reader sees it over the image).
        label = title if isinstance(title, str) and label_says(title, titled=True) is not None else alt
        return label[:60], "".join(_shown(c) for c in children[1:]), False
    first_line = text.lstrip().split("\n", 1)[0]
    opening = opening_label(first_line)
    if opening is not None:
        return opening
    words = text.split()
    return (" ".join(words), "", True) if 0 < len(words) <= 6 else None


#: Words of a table header saying its column holds text for some readers (``Internal
#: notes``, ``Do not share``), not that a feature is available to some (``Agents only``).
_ABOUT_A_TEXT = frozenset(("notes", "note", "share", "publish", "published", "distribute", "customers", "public",
                           "publication", "confidential", "use", "eyes", "comments", "remarks", "draft",
                           "unpublished"))


def _insider(word: str) -> bool:
    """Whether ``word`` (folded) is the insider word itself: *internal*, *intern*,
    *interno*, *внутренний* — not *internals*, *international*, *internet*."""
    return word in ("internal", "intern", "interne", "interno", "interna", "internes", "internen", "internas",
                    "internos") or (not word.isascii() and word.startswith(INSIDER_STEMS))


#: An ASCII label (lowercased) without a word any phrase of :func:`says_not_for_customers`
#: or :func:`~provider.wiki.restriction.restricts_readers` is made of.
_NO_PHRASE = re.compile(r"(?!.*(?:intern|staff|agent|employ|confidential|draft|share|publish|distribut|customer|"
                        r"public|private|restrict|note|support|team|eyes|only|desk|moderat|personnel|tier|level|"
                        r"\b[lt][1-4]\b|for\b)).*", re.DOTALL)


def label_says(label: str, rest: str = "", *, whole: bool = False, titled: bool = False) -> str | None:
    """The phrase of a ``label`` (a title, a cell, a paragraph's opening words) that
    says the text it stands over (``rest``: that text's first words) is not for
    customers, else ``None``.

    Read with :func:`says_not_for_customers`; with ``whole`` (a label before a period or
    dash, a whole cell), the phrase must be (nearly) all of the label or end it: ``Staff
    only.``, ``For support agents only`` count, ``Agents only run tools.`` does not. The
    insider word alone (``Internal:``, ``[Internal]``, a box titled ``Internal``) counts on a label over other text or a
    title (``titled``), unless the text uses the word again: ``**Internal**: the span is
    internal`` names a term. Never raises."""
    if label.isascii() and _NO_PHRASE.fullmatch(lowered := label.lower()) and not HINT.search(lowered):
        return None  # most labels hold no word of any phrase: not read word by word
    phrase = says_not_for_customers(label)
    if phrase is None and label.strip().lower() == "tlp":
        phrase = restricts_readers(f"TLP:{rest[:12]}")  # "TLP:RED: …" is read as a label "TLP"
        if phrase is not None:
            return phrase
    if phrase is not None:
        words, said = _words(label), tuple(phrase.split())
        # A whole label is the phrase, maybe with a word before or after it, or ends with it.
        return phrase if not whole or len(words) <= len(said) + 1 or words[-len(said) :] == said else None
    words = _words(label)
    if len(words) == 1 and _insider(words[0]) and (titled or rest.strip()):
        stem = words[0][:5]
        if not any(w.startswith(stem) for w in _words(rest)):
            return words[0]
    return None


#: Lines whose folding each reader process remembers (a few MB at most).
_FOLDED_LINES = 8192


@lru_cache(maxsize=_FOLDED_LINES)
def _fast_fold_line(line: str) -> str:
    return fast_fold(line)


@lru_cache(maxsize=_FOLDED_LINES)
def _fold_line(line: str) -> str:
    return fold(line)


def fold_by_line(text: str, *, fast: bool) -> str:
    """``fast_fold(text)`` (``fast``) or ``fold(text)``, line by line: the same text, since
    no step of either crosses a line feed (a character no normalisation composes with or
    produces, and no table maps), and each line is folded once per process — a body is
    read up to three times (as written, flush left, as shown) and translations repeat
    their code, imports and components, where whole bodies were folded each time."""
    line_fold = _fast_fold_line if fast else _fold_line
    # An ASCII line folds to its case folding in both (their own first test).
    return "\n".join([line.casefold() if line.isascii() else line_fold(line) for line in text.split("\n")])


def _may_hold(body: str) -> bool:
    """Whether ``body`` may hold a finding: most pages hold none of the phrases where
    one counts, and are not parsed again. Other text is folded first (full-width
    letters, invisible characters, combining marks); a letter the confusables table
    reads as a Latin one (Cyrillic ``і``) always means "maybe"."""
    if body.isascii():
        text = body.lower()
    else:
        text = fold_by_line(body, fast=True).lower()
        table = _confusable_table()
        # Before folding: folding may already turn a look-alike into another Latin letter
        # (Cyrillic palochka ``ӏ`` → ``i``) than the one a reader sees (``l``).
        if any(char in table for char in set(body) if not char.isascii()):
            return True
    if "<summary" in text:
        return True  # a collapsible block's label may span lines
    if _TITLED_INSIDER.search(text):
        return True
    for match in _MAYBE.finditer(_INLINE_MARKUP.sub(lambda m: " " * len(m.group(0)), text)):
        # Only where a phrase counts: a heading (ATX, or a line above a setext
        # underline), a blockquote, a label before a colon or in bold, a TODO, an
        # audience key. A phrase in the middle of prose is no finding.
        start = text.rfind("\n", 0, match.start()) + 1
        end = text.find("\n", match.end())
        line = text[start : end if end >= 0 else len(text)].lstrip(" \t")
        after = text[end + 1 : text.find("\n", end + 1)] if end >= 0 else ""
        if (_where_a_label_stands(line, after, match.start() - start - (len(text[start:match.start()])
                                                                      - len(text[start:match.start()].lstrip(" \t"))))
                or match.group(0).endswith("(") or "audience" in match.group(0)):
            return True
    # Folded as the restriction rule reads (the copy rules' folding splits Hangul).
    return _may_restrict(text if body.isascii() else fold_by_line(body, fast=False))


#: How far into a line a label's words may start (``For support agents only. …``), and
#: an offset beyond it.
_OPENING, _FAR = 40, 1 << 30
_LEAD_END = re.compile(r"[:.–—|()\[\]]| - ")
_LEAD_EMPHASIS = re.compile(r"[ \t>*+-]*?(\*\*|__|\*|_)([^*_\n]{1,60}?)\1")
_LEAD_TAG = re.compile(r"[ \t>*+-]*<(b|strong|em|i|u|mark|small|sup|sub|span|ins|big)\b[^>]{0,100}>"
                       r"([^<\n]{1,60}?)</\1\s*>", re.IGNORECASE)


def _where_a_label_stands(line: str, after: str, at: int) -> bool:
    """Whether words at offset ``at`` of ``line`` (left-stripped; ``after``: the next
    line) stand where a label can: a heading, a quote, a list item, a table, a tag or an
    attribute value, a box or a definition, before a colon, or among the line's opening
    words (a paragraph's label before a period or a dash, a definition's term)."""
    after = after.strip(" \t")
    return (line[:1] in "#>*_-+|<[({:!/=" or line[:2].rstrip(".)").isdigit() or ":" in line[:120] or at < _OPENING
            or "=" in line or (bool(after) and (set(after) <= set("=-") or after[:1] == ":")))


def _may_restrict(text: str) -> bool:
    """Whether a line of ``text`` (lowercased, folded) where a phrase counts restricts its
    readers to staff in words (:func:`~provider.wiki.restriction.restricts_readers`)."""
    seen: set[int] = set()
    sentences_seen: set[tuple[int, int]] = set()
    for match in HINT.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        end = text.find("\n", match.end())
        line = text[start : end if end >= 0 else len(text)].strip(" \t")
        # The sentence rule (hiding-sentence) counts anywhere: read the sentence around
        # each hint (a line's later sentence too: "… Not to be shared externally." ends a
        # paragraph opening with another hint); in prose nothing else does.
        at = match.start() - start - (len(text[start:match.start()]) - len(text[start:match.start()].lstrip(" \t")))
        opened = max((m.end() for m in _SENTENCE_END.finditer(line, 0, max(at, 0))), default=0)
        if (start, opened) not in sentences_seen:
            sentences_seen.add((start, opened))
            closed = _SENTENCE_END.search(line, max(at, 0))
            if restricts_readers(line[opened : closed.start() if closed else len(line)]) is not None:
                return True
        if start in seen:
            continue
        seen.add(start)
        after = text[end + 1 : text.find("\n", end + 1)].strip(" \t") if end >= 0 else ""
        # One verdict per line: lines repeat across a page's three readings, its tables
        # and its translations' code.
        if _line_may_restrict(line, after, match.start() - start):
            return True
    return False


@lru_cache(maxsize=_FOLDED_LINES)
def _line_may_restrict(line: str, after: str, at: int) -> bool:
    """:func:`_may_restrict` of one ``line`` (stripped) whose first hint starts ``at``
    characters after the line's start (before stripping); ``after``: the next line, stripped."""
    # Where a heading or note stands, the whole line counts; among a paragraph's
    # opening words only a short label can (read no further: most lines are prose).
    # (The sentence rule is :func:`_may_restrict`'s: it reads the sentence around every hint.)
    whole_line = _where_a_label_stands(line, after, _FAR)
    if not (whole_line or at < _OPENING):
        return False
    shown = _INLINE_MARKUP.sub(" ", line.lstrip("#>*_-+|[ \t"))[: 300 if whole_line else 80]
    # The whole line (a heading, a note) and its lead before a colon, a period, a dash
    # or a bracket (a label).
    parts = {shown, *shown.split(":", 2)[:2], _LEAD_END.split(shown, maxsplit=1)[0]}
    if (emphasis := _LEAD_EMPHASIS.match(line) or _LEAD_TAG.match(line)) is not None:
        parts.add(emphasis.group(2))  # "**🔒** …", "<b>社内向け</b> …": the bold lead is a label
    parts.update(m.group(2) or m.group(3) or "" for m in _TITLED_LINK.finditer(line))  # an image's title
    if any(restricts_readers(part) is not None for part in parts):
        return True
    if any(len(words := _words(part)) == 1 and _insider(words[0]) for part in parts if not part.isascii()):
        return True  # the insider word alone in another script, as a label ("داخلي:")
    return line.startswith("#") and _qualified(line.lstrip("# "))


# The opening line of a docs tool's box (admonition, tab, pymdown block, container,
# shortcode), with its title if it has one: a reader takes the title for a heading over
# the box's text.
_BOX_OPENER = re.compile(
    r'^(?:(?:!!!|\?\?\?\+?)[ \t]*[\w-]+(?:[ \t]+[\w-]+)*(?:[ \t]+"(?P<a>[^"\n]*)")?[ \t]*'
    r'|===\+?[ \t]*"(?P<b>[^"\n]*)"[ \t]*'
    r'|:{3,}[ \t]*[\w-]+[ \t]*(?:\[(?P<c>[^\]\n]*)\]|[ \t]+(?P<d>[^\n{]*))?'
    r'(?:\{[^\n]*?\b(?:title|label|summary)=["\'](?P<g>[^"\'\n]*)["\'][^\n]*\}|\{[^\n]*\})?[ \t]*'
    r'|/{3,}[ \t]*[\w-]+[ \t]*(?:\|[ \t]*(?P<e>[^\n]*))?'
    r'|\{\{[<%][ \t]*[\w-]+\b(?P<args>[^\n]*?)[ \t]*[%>]\}\}[ \t]*)$',
    re.MULTILINE)


# A GitHub/DocFX alert's first line (``> [!NOTE]``): the box's kind, shown as its title.
# Written as an empty quote line when a label follows, so the label starts its paragraph.
_ALERT = re.compile(r"((?:[ \t]*>)+)[ \t]*\[![A-Za-z]+\][+-]?")
#: The line after an alert's first line, when it opens with a label (bold, or a few words
#: and a colon): only then is the quote's text read as starting there (its first words,
#: when not a label, are the alert's prose: "Don't share your password" is advice, not a
#: note for staff).
_QUOTED_LABEL = re.compile(r"(?:[ \t]*>)+[ \t]*(?:\*\*|__|[^\s:>][^:\n]{0,40}:)")


#: Text without one of these holds no box or alert: most pages are not read line by line.
_BOX_SIGNS = ("!!!", "???", "===", ":::", "///", "{{<", "{{%", "[!")


#: A shortcode's title: a named argument, else its first quoted positional argument that
#: is not a path (``{{< notice info "Staff only" >}}``, ``{{% notice title="Internal" %}}``).
_NAMED_TITLE = re.compile(r"""\b(?:title|summary|label|header|name)\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)')""")
_POSITIONAL = re.compile(r"""(?<![=\w])(?:"([^"\n]*)"|'([^'\n]*)')""")


def _box_title(opener: re.Match[str]) -> str:
    """The title a box's opening line shows, or ``""``."""
    args = opener.group("args")
    if args is None:
        return next((t for name, t in opener.groupdict().items() if name != "args" and t and t.strip()), "")
    named = _NAMED_TITLE.search(args)
    if named is not None:
        return named.group(1) or named.group(2) or ""
    for match in _POSITIONAL.finditer(args):
        value = match.group(1) or match.group(2) or ""
        if value.strip() and not re.search(r"[/\\]|\.\w{1,5}$", value):
            return value
    return ""


def _flush_left(body: str) -> tuple[str, frozenset[int]]:
    """``body`` as the docs tools' boxes show it, line for line: each box's opening line
    written as a level-2 heading of its title (an empty line when it has none), and the
    text of an indented box (MkDocs admonitions and tabs, which plain Markdown would read
    as code) moved left by the box's indentation; code inside a box stays code. ``body``
    itself when it has no box."""
    if not any(sign in body for sign in _BOX_SIGNS):
        return body, frozenset()
    lines, changed = [], False
    titles: set[int] = set()
    bodies: list[int] = []  # the column each open indented box's text starts at
    source = body.split("\n")
    for number, line in enumerate(source):
        expanded = line.expandtabs(4)
        stripped = expanded.lstrip(" ")
        if stripped:
            while bodies and len(expanded) - len(stripped) < bodies[-1]:
                bodies.pop()
        text = expanded[bodies[-1]:] if bodies and stripped else (expanded if stripped else "")
        opener = _BOX_OPENER.fullmatch(text.rstrip())
        if opener is None:
            alert = _ALERT.fullmatch(text.rstrip())
            if alert is not None and _QUOTED_LABEL.match(source[number + 1] if number + 1 < len(source) else ""):
                changed = True
                text = alert.group(1)
            lines.append(text)
            continue
        changed = True
        title = _box_title(opener)
        if title.strip():
            titles.add(number)
        lines.append("## " + title if title.strip() else "")
        if text.startswith(("!!!", "???", "===")):
            bodies.append((bodies[-1] if bodies else 0) + 4)
    return ("\n".join(lines), frozenset(titles)) if changed else (body, frozenset())


def find_body_markers(body: str) -> list[BodyMarker]:
    """Every finding of this module in a markdown body (front matter removed), in body
    order. Text in code blocks and code spans is never a finding.

    The body is read twice: as Markdown, and flush left with box titles as headings
    (:func:`_flush_left`), since a docs tool shows an indented admonition body or a box
    titled "Staff notes" as prose under a heading. A finding of either reading counts
    (fail closed: the flat reading may take indented code for prose, never the reverse)."""
    flat, titles = _flush_left(body)
    if not (_may_hold(body) or (flat != body and _may_hold(flat))
            or (_HIDES_WORDS.search(body) and (shown := as_read(body)) != body and _may_hold(shown))):
        return []
    found = _findings(body)
    if flat != body:
        seen = {(m.code, m.line) for m in found}
        found += [m for m in _findings(flat, titles) if (m.code, m.line) not in seen]
    return sorted(found, key=lambda m: (m.start, m.code))


def _findings(body: str, titles: frozenset[int] = frozenset()) -> list[BodyMarker]:
    """The findings of one reading of ``body``; ``titles``: the lines that are a box's
    title written as a heading (:func:`_flush_left`)."""
    tokens = parse_markdown(body)
    lines = len(body.split("\n"))
    found: list[BodyMarker] = []
    # A heading a reader does not see (empty, a comment, a zero-width space) ends no
    # section: "## Staff only" … "## <!-- -->" … must not make what follows public.
    headings = [(i, int(t.tag[1:])) for i, t in enumerate(tokens)
                if t.type == "heading_open" and t.map and _EMPTY_HEADING.fullmatch(tokens[i + 1].content) is None]
    for position, token in enumerate(tokens):
        if token.type == "heading_open" and token.map is not None:
            inline = tokens[position + 1]
            text = _inline_text(inline)
            level = int(token.tag[1:])
            end = next((tokens[i].map[0] for i, other in headings  # type: ignore[index]
                        if i > position and other <= level), lines)
            # A heading or a box's title is a label, never a product option's name in
            # Title Case (``!!! note "Do Not Forward"``): read it lowercased too.
            phrase = says_not_for_customers(text) or says_not_for_customers(text.lower())
            if phrase is not None or _qualified(text):
                found.append(BodyMarker("hiding-heading", token.map[0] + 1, text.strip()[:120], token.map[0], end))
            elif token.map[0] in titles and label_says(text, titled=True) is not None:
                # A box titled with the insider word alone (``??? note "Internal"``).
                found.append(BodyMarker("hiding-title", token.map[0] + 1, text.strip()[:120], token.map[0], end))
            elif _TODO.search(text):
                found.append(BodyMarker("todo-internal", token.map[0] + 1, text.strip()[:120], token.map[0], end))
        elif token.type in ("html_block", "inline") and token.map is not None and "<h" in token.content.lower():
            found += _html_headings(token, headings, tokens, lines)
        elif token.type == "blockquote_open" and token.map is not None:
            quoted = next((t for t in tokens[position:] if t.type == "inline"), None)
            shown = _inline_text(quoted).split("\n") if quoted is not None else [""]
            first = shown[0]
            if (alert := _ALERT_KIND.fullmatch(first)) is not None:
                # A GitHub or Obsidian alert (``> [!CAUTION]``): its kind is no label; the
                # title after it, else the body's first line, is (``> Do not share…``).
                first = alert.group(1) or (shown[1] if len(shown) > 1 else "")
                if not alert.group(1) and len(first.split()) > 8:
                    # A sentence of prose, not a label (its sentence rule still reads it),
                    # unless it opens with one (``> Internal only - do not share…``).
                    lead = _LEAD_END.split(first, maxsplit=1)[0]
                    first = lead if lead != first and label_says(lead, whole=True) is not None else ""
            # A note's first line is a label, never a product option's name in Title Case
            # (``> Do Not Forward``): read it lowercased too.
            if says_not_for_customers(first) is not None or says_not_for_customers(first.lower()) is not None:
                found.append(BodyMarker("hiding-note", token.map[0] + 1, first.strip()[:120], token.map[0],
                                        token.map[1]))
        elif token.type == "paragraph_open" and token.map is not None:
            inline = tokens[position + 1]
            text = _inline_text(inline)
            opening = _label(inline, text)
            start, end = token.map
            first_line = text.strip().split("\n", 1)[0]
            shown_words = text.split()
            alone = 0 < len(shown_words) <= 6 and label_says(" ".join(shown_words), whole=True) is not None
            if alone or (opening is not None and (label_says(*opening[:2], whole=opening[2]) is not None or (
                    names_staff_reader(opening[0]) and restricts_readers(first_line) is not None))):
                rest = opening[1] if opening is not None else ""
                if (alone or not rest.strip(" :*_.-–—()[]") or _POINTS_AT_TEXT.search(fold(rest).lower())
                        or text.rstrip().endswith(":")) and position + 3 < len(tokens):
                    # The label stands alone: it is about what follows — to the next
                    # heading, as an author means "the rest of this part" (it hid only the
                    # next block, and the paragraph after that was served).
                    end = max(end, next((tokens[i].map[0] for i, _ in headings  # type: ignore[index]
                                         if i > position), lines))
                found.append(BodyMarker("hiding-label", start + 1, text.strip().split("\n", 1)[0][:120], start, end))
            elif (later := _later_label(inline)) is not None:
                # A label opening a line after a break (``…<br>Staff only: …``) or an
                # image titled so (``![x](y "Staff only")``): the paragraph; with nothing
                # else in it, to the next heading.
                code, said = later
                if not "".join(_shown(c) for c in inline.children or () if c.type != "image").strip():
                    end = max(end, next((tokens[i].map[0] for i, _ in headings  # type: ignore[index]
                                         if i > position), lines))
                found.append(BodyMarker(code, start + 1, said[:120], start, end))
            elif (todo := _TODO.search(text)) is not None:
                lines_held = _item_range(tokens, position)
                found.append(BodyMarker("todo-internal", start + 1, todo.group(0)[:120], *lines_held))
            elif (sentence := _restricting_sentence(text)) is not None:
                found.append(BodyMarker("hiding-sentence", start + 1, sentence[:120],
                                        *_section_around(tokens, headings, position, lines)))
            for match in _AUDIENCE.finditer(text):
                key, value = match.group(1), match.group(2)
                if resembles(key, "audience") and any(resembles(value, w) for w in ("internal", "private", "staff")):
                    line = start + text[: match.start(1)].count("\n") + 1
                    found.append(BodyMarker("audience-in-body", line, match.group(0).strip()[:120], start, start))
    found += _collapsed(body)
    found += [marker for place in place_labels(tokens, lines, _inline_text) if (marker := _judged(place)) is not None]
    # A sentence pointing at "this" or "the following" inside a note or a labelled block
    # keeps its own, wider reach (the section): "> **Note:** This must not be shared with
    # customers." speaks of what follows the note too.
    return found


#: Where a paragraph's sentences end (Latin, CJK and Devanagari full stops).
_SENTENCE_END = re.compile(r"(?<=[.!?。！？।])\s+|(?<=[。！？])")


def _restricting_sentence(text: str) -> str | None:
    """The first sentence of a paragraph's ``text`` that says its text is for staff or
    not for customers (:func:`~provider.wiki.restriction.restricts_readers`'s sentence
    rule, any length), else ``None``. Only paragraphs of more than 6 words: shorter
    ones are labels (:func:`_label`)."""
    if len(text.split()) <= 6 or not HINT.search(fold(text).lower()):
        return None
    for sentence in _SENTENCE_END.split(" ".join(text.split())):
        # In prose a sentence must point at the text itself ("this article", "the
        # following", "the steps below"): a do-not-forward option in a list of Outlook
        # settings, or "It won't display chats from desktop clients", says nothing of it.
        lowered = fold(sentence).lower()
        if len(sentence.split()) > 6 and (
                (_POINTS_AT_TEXT.search(lowered) and restricts_readers(sentence) is not None)
                or (_ORDER.match(lowered) and orders_staff(sentence) is not None)):
            return sentence
        if 0 < len(sentence.split()) <= 6 and (label_says(said := sentence.strip(" .!?"), whole=True) is not None
                                               or _short_restricting(said)):
            # A short sentence that is a label on its own (*Not to be shared externally.*,
            # *Staff only.*) says it of the paragraph it ends or opens, as the label does.
            return sentence
    return None


def _short_restricting(said: str) -> bool:
    """Whether a short sentence says its paragraph is for staff (*Do not share with
    customers*): a phrase of :func:`~provider.wiki.restriction.restricts_readers`, but not
    "<readers> only" followed by what they do (*Agents only run tools when asked*: who
    does something, not who may read)."""
    hit = restricts_readers(said)
    if hit is None:
        return False
    lowered = fold(said).lower()
    at = lowered.find(hit)
    return not (hit.endswith(" only") and at >= 0 and lowered[at + len(hit):].strip(" .!?"))


#: A sentence opening as an order (*Do not tell customers…*, *Under no circumstances…*,
#: *Keep … from customers*): it needs no pointer word to be about the text around it
#: (:func:`provider.wiki.restriction._order` decides whether it is one).
_ORDER = re.compile(r"\W*(?:please\s+)?(?:do\s+not|don'?t|never|under\s+no\s+circumstances|keep)\b")


#: A GitHub or Obsidian alert's first line (``[!CAUTION]``, ``[!note]- Title``) and its title.
_ALERT_KIND = re.compile(r"\s*\[![A-Za-z]+\][+-]?\s*(.*?)\s*")
#: A heading's text a reader does not see: nothing, comments, invisible characters.
_EMPTY_HEADING = re.compile(r"(?:\s|<!--.*?-->|[\u200b-\u200d\u2060\ufeff\u00ad#])*", re.DOTALL)
#: Words by which a sentence points at the page's own text.
_POINTS_AT_TEXT = re.compile(r"\b(?:this|these|following|below|above|hereafter|next part|what follows|diese[rsnm]?|"
                             r"folgende\w*|ce(?:tte|s)?|suivante?s?|este|esta|estos|estas|siguientes?|dit|deze|"
                             r"volgende|questo|questa|seguenti)\b")


def _section_around(tokens: Sequence[Token], headings: Sequence[tuple[int, int]], position: int,
                    lines: int) -> tuple[int, int]:
    """``(start, end)`` lines of the heading section holding token ``position``: from the
    nearest heading before it to the next heading of the same or a higher level; the
    whole body when no heading comes before it (what such a sentence speaks of is, fail
    closed, everything around it)."""
    before = [(i, level) for i, level in headings if i < position]
    if not before:
        return 0, lines
    index, level = before[-1]
    start = tokens[index].map[0]  # type: ignore[index]
    end = next((tokens[i].map[0] for i, other in headings  # type: ignore[index]
                if i > index and other <= level), lines)
    return start, end


#: A heading's qualifier in brackets (``Refund override (internal)``, ``… [staff]``) and
#: its lead label before a colon (``Internal: refund override``).
_QUALIFIER = re.compile(r"[(\[]([^()\[\]]{1,40})[)\]]")
#: Phrases that, in brackets, describe the thing's state rather than the section's
#: readers (kaia's "Release Notes for Klaytn v0.9.4 (unpublished)": a version never
#: released, in public release notes).
_STATE_PHRASES = ("unpublished", "draft", "draft unpublished", "not public", "not yet published", "restricted",
                  "confidential")
_LEAD = re.compile(r"^\W*([^:：]{1,30})[:：]\s*\S")
#: A lock, or a no-entry or deny sign, after a heading's words (one before them is the
#: topic's icon or warning: ``🔒 Security``, ``⛔ Deprecated APIs``).
_TRAILING_LOCK = re.compile("\\w\\W*?[\U0001f512\U0001f510\U0001f50f\u26d4\U0001f6ab]\ufe0f?\\W*$")
#: A lock before a heading's words, and the words (a deny sign, ⛔ or 🚫, marks what
#: not to do: "🚫 Common mistakes").
_LEADING_LOCK = re.compile("\\W*?[\U0001f512\U0001f510\U0001f50f]\ufe0f?\\W*(\\w.*)", re.DOTALL)
#: Words of a topic whose icon a lock is (``🔒 Security``, ``🔐 Sign-in and SSO``,
#: ``⛔ Deprecated APIs``, ``🚫 Blocked senders``): a lock before them marks no section.
_SECURITY_TOPIC = re.compile(
    r"secur|auth|encrypt|crypt|passw|passk|passphrase|privacy|permission|access|login|log in|sign[ -]?in|sign[ -]?on|"
    r"\bsso\b|\bkeys?\b|secret|token|credential|lock|\btls\b|\bssl\b|https|certificat|\b[2m]fa\b|vault|"
    r"protect|safe|complian|deprecat|block|ban|forbid|denied|deny|restrict|limit|prohibit|avoid|don|not|never|"
    r"warning|danger|caution|error|breaking|unsupported|removed|disabled|spam|abuse|policy|policies")
#: A heading's parts at a spaced dash, or an en or em dash.
_DASHED = re.compile(r"\s+[-–—|]\s+|\s*[–—]\s*")


def _qualified(heading: str) -> bool:
    """Whether a heading's bracketed qualifier (by its phrase: ``[staff]``, ``(agents
    only)``), its lead label before a colon (read as a label over the rest:
    ``Internal: refund override``), its last part after a dash naming staff readers only
    (``Refund override — agents``) or a lock after its words (``Refund override 🔒``) says
    its section is not for customers."""
    if _TRAILING_LOCK.search(heading):
        return True  # "Refund override 🔒": a lock after the words marks the section
    if (lead := _LEADING_LOCK.match(heading)) is not None and not _SECURITY_TOPIC.search(fold(lead.group(1))):
        return True  # "🔒 Refund override": a lock before a topic that is not security's
    dashed = _DASHED.split(heading.strip())
    if len(dashed) > 1 and names_staff_reader(dashed[-1]):
        return True  # "Refund override — agents", "Refunds - staff": the section's readers
    if "(" not in heading and "[" not in heading and ":" not in heading and "：" not in heading:
        return False
    # A bracketed qualifier counts by its phrase only: the insider word alone there is as
    # often a kind of the thing (``Load balancer (internal)``, ``Span kinds (Internal)``).
    if any(says_not_for_customers(match.group(1)) not in (None, *_STATE_PHRASES)
           for match in _QUALIFIER.finditer(heading)):
        return True
    lead = _LEAD.match(heading)
    if lead is None:
        return False
    return label_says(lead.group(1), heading[lead.end(1) :].lstrip(":： "), titled=True) is not None


#: The finding code of a label in each place (:mod:`provider.wiki.label_places`).
_PLACE_CODES = {"cell": "hiding-cell", "header": "hiding-cell", "footnote": "hiding-footnote", "term": "hiding-term",
                "title": "hiding-title", "label": "hiding-label"}
_TIER_WORD = re.compile(r"\d|\b[lt][1-4]\b")


#: Front matter keys a site shows as the page's title or summary.
_TITLE_FIELDS = ("title", "linkTitle", "sidebar_label", "description", "summary", "subtitle")
#: Parts of other keys whose string values a site or a search engine shows as the page's
#: title or summary (``excerpt``, ``seo_title``, ``og: {title: …}``, ``meta: [{content:
#: …}]``): judged as titles are, at any depth.
_SHOWN_KEY = re.compile(r"title|excerpt|summary|description|subtitle|caption|heading|label|teaser|abstract|"
                        r"blurb|tagline|content|text", re.IGNORECASE)
#: Keys whose values are identifiers or paths, never shown as words.
_NOT_SHOWN = re.compile(r"url|path|slug|link|href|src|image|img|icon|file|id$|key$|layout|template|type$|lang|"
                        r"locale|tags?$|categor|keywords|aliases|redirect", re.IGNORECASE)


def _shown_values(meta: Mapping[str, object]) -> list[tuple[str, str]]:
    """``(key path, text)`` of every string value of ``meta`` a site shows as the page's
    title or summary: the :data:`_TITLE_FIELDS` at the top, and values of keys matching
    :data:`_SHOWN_KEY` (not :data:`_NOT_SHOWN`) at any depth up to four."""
    found = [(key, value) for key in _TITLE_FIELDS if isinstance(value := meta.get(key), str)]
    seen = {key for key, _ in found}

    def walk(node: object, path: tuple[str, ...], depth: int) -> None:
        if depth > 4:
            return
        if isinstance(node, Mapping):
            for key, value in list(node.items())[:200]:
                walk(value, (*path, str(key)), depth + 1)
        elif isinstance(node, list):
            for item in node[:50]:
                walk(item, path, depth + 1)
        elif isinstance(node, str) and path and ".".join(path) not in seen:
            name = path[-1]
            shown = any(_SHOWN_KEY.search(part) and not _NOT_SHOWN.search(part) for part in path[-2:])
            if shown and not _NOT_SHOWN.search(name) and len(node) <= 300:
                found.append((".".join(path), node))

    walk(meta, (), 0)
    return found


def front_matter_markers(meta: Mapping[str, object], header: str) -> list[BodyMarker]:
    """``internal-title`` findings: a front matter title, description or other value a
    site shows as the page's title or summary (``excerpt``, ``seo_title``, ``og.title``;
    :func:`_shown_values`) in ``meta``, as read from the header text ``header``, whose
    opening label or whole text says the page is not for customers (``title: "Internal:
    refund override"``, ``excerpt: Staff only``): the title stands over the whole page,
    so the page is internal. The finding's ``line`` is the key's line in ``header``
    (1-based; 1 when not found); nothing is hidden (``start == end == 0``)."""
    found: list[BodyMarker] = []
    for key, value in _shown_values(meta):
        if not value.strip():
            continue
        text = " ".join(value.split())
        opening = opening_label(text)
        candidates = [(text, "", True)] if len(text.split()) <= 6 else []
        if opening is not None:
            candidates.append(opening)
        if any(label_says(label, rest, whole=whole) is not None for label, rest, whole in candidates):
            last = key.rsplit(".", 1)[-1]
            at = re.search(rf"(?m)^\s*-?\s*[\"']?{re.escape(last)}[\"']?\s*[:=]", header)
            line = header[: at.start()].count("\n") + 1 if at is not None else 1
            found.append(BodyMarker("internal-title", line, f"{key}: {text}"[:120], 0, 0))
    return found


def _judged(place: Place) -> BodyMarker | None:
    """The finding of a label in a place, or ``None`` when its words do not say so. A
    table header counts only when it names text for some readers (``Internal notes``,
    not a feature column ``Agents only``); a cell's support tier (``Tier 2 only``) is a
    plan, not a reader."""
    titled = place.kind == "title"
    phrase = label_says(place.label, place.rest, whole=place.whole, titled=titled)
    if phrase is None:
        return None
    if place.kind in ("cell", "header") and not _words(place.label) and not any(
            lock in place.label for lock in "\U0001f512\U0001f510\U0001f50f"):
        return None  # a deny sign alone in a cell (⛔, 🚫) says "no", as ✗ does
    if place.kind == "header" and not (set(phrase.split()) & _ABOUT_A_TEXT or _no_share_phrase(place.label)) and (
            all(_FLAG_VALUE.fullmatch(fold(cell)) for cell in place.column)):
        # A feature column (``| Staff only |`` over yes and no) says who may use a
        # feature; a column of anything else holds text for those readers: the table.
        return None
    if place.kind in ("cell", "header") and _TIER_WORD.search(phrase):
        return None
    text = f"{place.label}: {place.rest}" if place.rest.strip() else place.label
    return BodyMarker(_PLACE_CODES[place.kind], place.line + 1, " ".join(text.split())[:120], place.start, place.end)


#: The values of a feature matrix's column: marks, yes and no, availability.
_FLAG_VALUE = re.compile(r"[\s*_`]*(?:|yes|no|y|n|x|true|false|on|off|✓|✔|✔️|✗|✘|❌|✅|☑|☐|—|–|-|n/?a|none|"
                         r"optional|required|supported|not supported|unsupported|included|not included|available|"
                         r"not available|partial|partly|limited|full|read|write|read/write|read-only|read only|"
                         r"view|edit|allowed|not allowed|denied|granted|enabled|disabled|default|beta|preview)"
                         r"[\s*_`.]*")


def _no_share_phrase(text: str) -> bool:
    words = _words(text)
    return any(_contains(words, tuple(p.split())) for p in ("do not share", "dont share", "do not publish",
                                                             "do not distribute", "not for customers"))


def _html_headings(token: Token, headings: list[tuple[int, int]], tokens: Sequence[Token],
                   lines: int) -> list[BodyMarker]:
    """``hiding-heading`` findings for headings written as HTML (``<h2>Internal
    notes</h2>``): the section runs to the next Markdown heading of the same or a higher
    level, else to the end of the body."""
    assert token.map is not None
    found: list[BodyMarker] = []
    for match in _HTML_HEADING.finditer(token.content):
        text = re.sub(r"<[^>]*>", " ", match.group(2))
        if says_not_for_customers(text) is None:
            continue
        level, start = int(match.group(1)), token.map[0] + token.content[: match.start()].count("\n")
        end = next((tokens[i].map[0] for i, other in headings  # type: ignore[index]
                    if tokens[i].map[0] > start and other <= level), lines)  # type: ignore[index]
        found.append(BodyMarker("hiding-heading", start + 1, " ".join(text.split())[:120], start, end))
    return found


#: A collapsible block's label that names only who the block is for, staff (in the sites'
#: languages: en, de, fr, es, pt, it): ``<summary>Support team</summary>`` reads "for the
#: support team". Only as the whole label, after :data:`_AUDIENCE_FILLER`: "Contact the
#: support team", "Team settings", "Agents SDK" name topics. Measured: no ``<summary>``
#: of the shared corpora is one (docs/how-to/findings.md).
_AUDIENCE_LABELS = frozenset(tuple(p.split()) for p in (
    "support team", "support agents", "support agent", "support staff", "agents", "staff", "employees",
    "internal team", "support team members", "team members", "ops team", "operations team", "supportteam",
    "mitarbeiter", "mitarbeitende", "personal", "supportteam intern", "equipe support", "equipe de support",
    "personnel", "employes", "equipo de soporte", "empleados", "agentes", "equipe de suporte", "funcionarios",
    "team di supporto", "personale", "dipendenti", "agenti",
))
#: Words a who-it-is-for label may add: "For the support team", "Nur für Mitarbeiter".
_AUDIENCE_FILLER = frozenset(("for", "the", "our", "only", "nur", "fur", "die", "pour", "le", "la", "les", "l",
                              "du", "de", "reserve", "au", "aux", "para", "el", "los", "solo", "o", "a", "os",
                              "apenas", "per", "il", "i", "solo", "riservato", "al"))
#: The same in scripts written without spaces (ja, zh, ko): the whole label.
_AUDIENCE_LABELS_CJK = frozenset(("サポートチーム", "スタッフ向け", "社員向け", "社内向け", "サポート担当者向け",
                                  "支持团队", "员工", "员工专用", "内部人员", "지원팀", "직원", "직원용", "직원 전용"))


def _audience_word(word: str) -> str:
    """``word``, or the word of a who-it-is-for label it imitates (look-alike letters,
    :func:`~provider.wiki.lookalike.resembles`)."""
    if word.isascii():
        return word
    vocabulary = {w for phrase in _AUDIENCE_LABELS for w in phrase} | _AUDIENCE_FILLER
    return next((w for w in sorted(vocabulary) if len(w) > 2 and resembles(word, w)), word)


def names_staff(label: str) -> bool:
    """Whether a collapsible block's label names only who it is for, staff
    (:data:`_AUDIENCE_LABELS`): ``"Support team"``, ``"For employees"`` → ``True``;
    ``"Contact the support team"``, ``"Agents SDK"`` → ``False``."""
    if " ".join(fold(label).split()) in {fold(phrase) for phrase in _AUDIENCE_LABELS_CJK}:
        return True
    skeleton = latin_skeleton()
    wanted = {tuple(w for w in phrase if w not in _AUDIENCE_FILLER) for phrase in _AUDIENCE_LABELS}
    # Read two ways (fail closed): look-alike letters matched letter by letter, and the
    # text as the Latin letters it imitates (the copy rules' reading).
    for text in (label, fold(label.translate(skeleton)).translate(skeleton)):
        words = tuple(w for w in map(_audience_word, _words(text)) if w not in _AUDIENCE_FILLER)
        if words in wanted:
            return True
    return False


def hiding_summary(body: str, at: int) -> re.Match[str] | None:
    """The collapsible block's label element starting at offset ``at`` of ``body``
    (``<summary>Internal notes</summary>``) when the label says its block is not for
    customers (:func:`says_not_for_customers`) or names only staff as its readers
    (:func:`names_staff`: ``Support team``), after removing tags and entities, else
    ``None``. :mod:`provider.wiki.sections` asks the same question of its would-be
    markers, so the two never disagree."""
    match = _SUMMARY.match(body, at)
    if match is None:
        return None
    # A tag may split a word (``Inter<wbr>nal``) or separate two (``Internal<br>notes``):
    # the label is read both ways.
    labels = (_label_text(match.group(1), gap) for gap in (" ", ""))
    # A label is never a product option's name in Title Case (``Do Not Forward``).
    return match if any(says_not_for_customers(label) is not None or says_not_for_customers(label.lower()) is not None
                        or names_staff(label) for label in labels) else None


def _label_text(label: str, gap: str = " ") -> str:
    """A ``<summary>`` element's text as shown: tags replaced by ``gap``, entities decoded,
    white space collapsed."""
    return " ".join(html.unescape(_TAG.sub(gap, label)).split())


_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
#: Tags a reader sees as a line break, and inline tags a reader does not see at all
#: (``Sta<b></b>ff``, ``<small>Staff only</small>``); emphasis marks inside or around a
#: word (``*Sta*ff``).
_BREAK_TAGS = re.compile(r"<(?:br|hr|/?p|/?div|/?li|/?tr|/?td|/?th|/?dt|/?dd)\b[^<>]{0,200}>", re.IGNORECASE)
_INLINE_TAGS = re.compile(r"</?[A-Za-z][\w.:-]*(?:\s[^<>]{0,200})?/?>")
_TITLED_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\s]*\s+(?:\"([^\"\n]*)\"|'([^'\n]*)')\s*\)")
_WORD_EMPHASIS = re.compile(r"(?<=[^\W_])(?:\*{1,3}|_{1,3}|~~)(?=[^\W_])")


#: Markup that joins, splits or hides words a reader sees (a tag or emphasis inside a
#: word, a titled link or image, a line break, an inline element opening a line): only
#: then is the text read a second time as shown (:func:`as_read`).
_HIDES_WORDS = re.compile(r"[^\W_](?:<[^<>\n]{0,200}>)+[^\W_]|[^\W_](?:\*+|~~)[^\W_]|\]\([^)\s]*\s+[\"']|<br\b"
                          # an empty element or a void tag anywhere (``Do not<b></b> share``)
                          r"|<([A-Za-z][\w.:-]*)\b[^<>\n]{0,200}>\s*</\1\s*>|<wbr\b|<[A-Za-z][^<>\n]{0,200}/>"
                          r"|^[ \t>*+-]*<(?:b|strong|em|i|u|mark|small|sup|sub|span|ins|big)\b",
                          re.IGNORECASE | re.MULTILINE)


def as_read(text: str) -> str:
    """``text`` as a reader sees its words (issue 24): break tags as line breaks, other
    tags removed (their words join: ``Sta<b></b>ff`` is *Staff*), emphasis marks inside
    a word removed. Line count is kept (a break tag adds no line), so line numbers found
    in it are the text's. Invisible characters and compatibility forms are left to
    :func:`~provider.wiki.lookalike.fold`, which every judge applies."""
    if "<" not in text and "*" not in text and "_" not in text and "~" not in text and "](" not in text:
        return text
    # A link's or image's title is shown on hover: words of the text.
    text = _TITLED_LINK.sub(lambda m: f"{m.group(1)} {m.group(2) or m.group(3) or ''}", text) if "](" in text else text
    text = _BREAK_TAGS.sub(" \u2028 ", text) if "<" in text else text
    text = _INLINE_TAGS.sub("", text) if "<" in text else text
    text = _WORD_EMPHASIS.sub("", text)
    # A break tag is a line to a reader; as a separator (not a new line) it keeps lines.
    return text.replace(" \u2028 ", " | ")


def _not_a_closer(body: str, at: int) -> bool:
    """Whether the ``</details>`` at ``at`` closes nothing in a browser: escaped, inside an
    HTML comment or inside another tag (an attribute value). Only closers are set aside
    this way: ignoring one can only hide more (fail closed)."""
    if at and body[at - 1] == "\\":
        return True
    if body.rfind("<", 0, at) > body.rfind(">", 0, at):
        return True
    return any(m.start() < at < m.end() for m in _COMMENT.finditer(body, 0, at + 1))


def _collapsed(body: str) -> list[BodyMarker]:
    """``hiding-heading`` findings for collapsible blocks labelled as not for customers:
    ``<details><summary>Internal notes</summary>…</details>`` is a heading over its block,
    read with the same vocabulary (``Support team``, ``Contact support`` address
    customers: public). A label shown as code is text. The block runs from the label's
    line to the line of the matching ``</details>`` outside code (nested blocks counted);
    with none, to the end of the body (fail closed, as an unclosed marker)."""

    labels = [m for at in _SUMMARY_AT.finditer(body) if (m := hiding_summary(body, at.start())) is not None]
    if not labels:
        return []
    tags = [tag for tag in _DETAILS.finditer(body) if not (tag.group(1) and _not_a_closer(body, tag.start()))]
    code = shown_as_code(body, [*labels, *tags], lambda text: text)
    starts = [0] + [i + 1 for i, char in enumerate(body) if char == "\n"]
    found: list[BodyMarker] = []
    for index, label in enumerate(labels):
        if index in code:
            continue
        line = bisect.bisect_right(starts, label.start()) - 1
        end, depth = len(starts), 1
        for number, tag in enumerate(tags, start=len(labels)):
            if tag.start() < label.end() or number in code:
                continue
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                end = bisect.bisect_right(starts, tag.start())
                break
        text = _label_text(label.group(1))
        found.append(BodyMarker("hiding-heading", line + 1, text[:120], line, end))
    return found


def _item_range(tokens: Sequence[Token], paragraph: int) -> tuple[int, int]:
    """The lines of the list item holding the paragraph at ``paragraph``, else its own."""
    level = tokens[paragraph].level
    for index in range(paragraph - 1, -1, -1):
        token = tokens[index]
        if token.type == "list_item_open" and token.level == level - 1 and token.map is not None:
            return token.map[0], token.map[1]
        if token.level < level - 1:
            break
    start, end = tokens[paragraph].map or (0, 0)
    return start, end


def mark_body_sections(body: str, markers: Sequence[BodyMarker]) -> str:
    """``body`` with an internal-section marker pair around each finding's lines, so
    :func:`provider.wiki.sections.split_sections` hides them exactly as hand-written
    markers. Markers are put at the start of a line and add no line: line numbers of
    the body stay valid. Overlapping spans become one."""
    spans: list[list[int]] = []
    for marker in sorted((m for m in markers if m.end > m.start), key=lambda m: m.start):
        if spans and marker.start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], marker.end)
        else:
            spans.append([marker.start, marker.end])
    if not spans:
        return body
    lines = body.split("\n")
    for start, end in spans:
        lines[start] = "<!-- internal -->" + lines[start]
        if end < len(lines):
            lines[end] = "<!-- /internal -->" + lines[end]
        else:
            lines[-1] = lines[-1] + ("\n" if lines[-1].strip() else "") + "<!-- /internal -->"
    return "\n".join(lines)
