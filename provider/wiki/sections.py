"""Section-level audience: internal blocks inside an article.

Syntax — an HTML comment pair, each marker on a line of its own or inline::

    Public text everyone may read.

    <!-- internal -->
    Only agents see this: the refund override code is in the admin console.
    <!-- /internal -->

    More public text.

Markers are matched case-insensitively with any spacing (``<!--internal-->``,
``<!-- /Internal -->``) and may span lines. Chosen over a ``::: internal`` container
because the markers are invisible in every renderer of the docs tools we read (Hugo,
Jekyll, MkDocs, DocFX, GitHub), do not collide with the ``:::`` syntax of Docusaurus
admonitions, DocFX ``:::image``/``:::zone`` and pandoc divs, and close with an explicit
named marker, so a missing close is unambiguous. (MDX — ``.mdx`` files — rejects HTML
comments: mark internal sections in ``.md`` files there.)

Rules, all failing closed:

* a marker that the Markdown parser shows as code — in a fenced or indented code block
  or an inline code span, after the layout's dialect rules, exactly as the indexed text
  is made — is text, not a marker; anything else (escaped backticks, backticks inside an
  HTML block, a fence hidden in an MDX comment) is a marker;
* an opening marker without a closing one hides *everything after it*;
* a closing marker without an opening one hides everything *before* it back to the
  start of the article or the end of the previous internal block (the opener was
  probably forgotten), and is reported as an error;
* markers nest: an inner pair inside a block changes nothing;
* something that looks meant as a marker but is not one is reported as an error and
  makes the whole document internal (otherwise the text it was meant to hide would be
  published). Compared after Unicode folding, confusables and with separators removed
  (:mod:`provider.wiki.lookalike`), these are would-be markers: a comment in any docs
  tool's syntax (HTML ``<!-- -->``, MDX ``{/* */}``, Hugo ``{{/* */}}``, Liquid
  ``{% comment %}``, kramdown ``{::comment}``, ``{# #}``) mentioning one of
  :data:`HIDE_WORDS` (``<!-- BEGIN INTERNAL -->``, ``<!-- inter\u00adnal -->``,
  ``<!-- ｉｎｔｅｒｎａｌ -->``, ``{/* internal */}``, ``<!-- agent-only -->``); a shortcode,
  Liquid tag, HTML/JSX element, class or attribute list *named* by one
  (``{{< internal >}}``, ``<Internal>``, ``class="agent-only"``, ``{.internal}``); a
  container or alert whose type or title is one (``::: internal``, ``:::note Internal``,
  ``!!! internal``, ``> [!INTERNAL]``).

:func:`split_sections` returns two views of the body: ``full`` (markers removed; what
``agent_only`` searches and reads) and ``public`` (internal blocks removed; the only
text the public index receives, so their words are not even searchable there). Both
keep the body's line structure.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from .body_markers import hiding_summary, says_not_for_customers
from .code_shown import shown_as_code
from .hidden_html import HIDING_CLASSES, hidden_elements
from .lookalike import fold, mentions, near, resembles, squash
from .plaintext import Block

__all__ = ["HIDE_WORDS", "MARKER", "SectionSplit", "hidden_spans", "hiding_spans", "mark_internal_blocks",
           "split_sections"]

MARKER = re.compile(r"<!--\s{0,40}(/?)\s{0,40}internal\s{0,40}-->", re.IGNORECASE)

#: Words that, after Unicode folding and with separators removed
#: (:func:`provider.wiki.lookalike.mentions`), say "hide this from customers".
HIDE_WORDS = ("internal", "confidential", "private", "restricted", "agentonly", "agentsonly", "staffonly",
              "employeesonly", "teamonly", "supportonly", "notpublic", "nonpublic", "donotpublish", "donotshare",
              "notforcustomers", "notforthepublic", "foragents", "forstaff", "supportstaff", "forsupportteam")
#: Single words that, as a word of a comment, say the same — with the misspellings
#: allowed for each (``intrenal``, ``confidental``; short words exactly).
HIDE_COMMENT_WORDS = {"internal": 2, "confidential": 2, "restricted": 2, "private": 1, "secret": 0, "hidden": 0,
                      "intern": 0, "interne": 0, "staff": 0, "agents": 0, "hide": 0,
                      # The languages of the docs sites we read: de, fr, es/pt/it.
                      "vertraulich": 1, "geheim": 0, "confidentiel": 1, "confidentielle": 1, "confidencial": 1,
                      "interno": 0, "interna": 0, "riservato": 1, "privado": 0, "prive": 0}
#: The same in scripts written without spaces between words (ja, zh, ko): found anywhere
#: in a comment.
HIDE_COMMENT_PHRASES = ("内部", "社内", "機密", "机密", "非公開", "保密", "仅限", "僅限", "내부", "기밀", "비공개")
#: Names of a shortcode, Liquid tag, JSX/HTML element, container type or class that say
#: the same when they are the whole name.
HIDE_NAMES = frozenset(HIDE_WORDS) | {"internalonly", "agent", "agents", "staff", "hidden",
                                      # Classes the CSS frameworks hide text with (Tailwind,
                                      # Bootstrap, WordPress, Foundation, HTML5 Boilerplate).
                                      "sronly", "visuallyhidden", "visuallyhiddenfocusable", "screenreaderonly",
                                      "screenreadertext", "showforsr", "offscreen", "invisible", "dnone",
                                      "hide", "hidetext", "textindent"}

# Where an author can say "hide this" in some docs tool's syntax. Each is a *candidate*;
# it counts only if it is not shown as code (:func:`provider.wiki.code_shown.shown_as_code`).
# Hidden HTML (an element the site hides) is found by parsing: :mod:`provider.wiki.hidden_html`.
_COMMENTS = re.compile(
    r"<!-(?:(?!-->).){0,2000}?-->"                          # HTML comment (also <!--- … --->)
    r"|(?m:^ {0,3}\[[^\]\n]{1,40}\]:[ \t]*(?:#|<>)[ \t]+(?:\([^)\n]{0,300}\)|\"[^\"\n]{0,300}\"))"  # [//]: # (…)
    r"|\{\{?/\*(?:(?!\*/).){0,2000}?\*/\}?\}"                # MDX {/* */}, Hugo {{/* */}}
    r"|\{%-?\s*comment\s*-?%\}(?:(?!\{%).){0,2000}"           # Liquid {% comment %}
    r"|\{::comment\}(?:(?!\{:/).){0,2000}"                     # kramdown {::comment}
    r"|\{#(?:(?!#\}).){0,2000}?#\}"                            # Jinja / MkDocs macros {# #}
    r"|<!\[CDATA\[(?:(?!\]\]>).){0,2000}"                           # CDATA
    r"|<\?(?:(?!\?>).){0,2000}\?>"                                 # processing instruction
    r"|<![A-Za-z][^<>]{0,300}>"                                 # declaration <!X>
    r"|\{%-?(?:(?!%\}).){0,300}%\}"                                # a Liquid/Jinja tag: {% if internal %}
    r"|\{(?![/%#{:])[^{}\n]{0,200}(?:&&|\?)[^{}\n]{0,200}\}"          # a JSX condition {isInternal && …}
    r"|<summary[^<>]{0,200}>[^<]{0,200}</summary>"              # a <details> summary: "Internal notes"
    r"""|(?:data-[\w-]+|role|aria-label)\s*=\s*["'][^"'\n]{0,200}["']""",  # data-audience="internal"
    re.DOTALL,
)
_NAMES = re.compile(
    r"\{%-?\s*(?:end)?([^\s%}]{1,60})"                          # Liquid tag
    r"|\{\{[<%]\s*/?\s*([^\s<>%}]{1,60})"                       # Hugo shortcode
    r"|<\s*/?\s*([^\s<>/\"'=]{1,40})"                            # HTML or JSX element (or one a person typed)
    r"""|(?:class|className)\s*=\s*["']([^"'\n]{0,200})["']"""   # class attribute
    r"|\{:?\s*((?:[.#][\w-]+\s*)+)\}",                          # attribute list {.internal}, {: .x}
)
_CONTAINER = re.compile(
    r"^[ \t]{0,3}(?:>[ \t]*)*(?::{3,}|!!!|\?\?\?\+?|===|@@@)[ \t]*\{?[ \t]*\.?([^\s{}\[\]\"=]*)([^\n]*)"
    r"|^[ \t]*(?:>[ \t]*)+\[!([^\]\n]{0,40})\]",
    re.MULTILINE,
)


def hiding_spans(body: str, *, colon_containers: bool = True, prepare: Callable[[str], str] | None = None,
                 shortcodes_run_first: bool = False) -> list[re.Match[str]]:
    """Candidate would-be markers: a comment (any syntax) mentioning a hide word, an
    element, shortcode, tag, class or container whose name is one, a container titled
    with one, and an element the site hides that holds text
    (:func:`provider.wiki.hidden_html.hidden_elements`, whose ``<style>`` rules count
    unless shown as code after ``prepare``, the layout's dialect rules). Exact markers
    are not candidates. ``colon_containers`` false (MkDocs, where ``::: agents`` is a
    mkdocstrings reference to the Python package ``agents``): a ``:::`` line counts only
    when its name mentions one of :data:`HIDE_WORDS`."""
    found = hidden_spans(body, prepare, shortcodes_run_first=shortcodes_run_first)
    for match in _COMMENTS.finditer(body):
        text = match.group(0)
        if MARKER.fullmatch(text) is None and _comment_hides(text):
            found.append(match)
    for match in _NAMES.finditer(body):
        named = next(g for g in match.groups() if g is not None)
        if match.group(5) is not None:
            # An attribute list: ``{#internal}`` is a heading's anchor id (OpenTelemetry's
            # ``#### Internal {#internal}`` span kind), not a class any tool hides by.
            named = " ".join(re.findall(r"\.([\w-]+)", named))
        names = re.split(r"[\s.#/:]+", named)
        if match.group(4) is not None or match.group(5) is not None:
            # A class the CSS frameworks hide with is :mod:`provider.wiki.hidden_html`'s to
            # judge (``hidden md:inline``, ``print:hidden`` show the text on a screen); a
            # class *named* for an audience (``agent-only``) is a would-be marker here.
            names = [name for name in names if squash(name) not in HIDING_CLASSES]
        if any(squash(name) in HIDE_NAMES or _resembles_any(name) for name in names if name):
            found.append(match)
    for match in _CONTAINER.finditer(body):
        kind, title, alert = match.group(1), match.group(2), match.group(3)
        if not colon_containers and match.group(0).lstrip(" \t>").startswith(":::") and (
                "." in (kind or "") or not mentions(f"{kind or ''} {title or ''}"[:300], HIDE_WORDS)):
            # MkDocs has no ``:::`` containers: ``::: agents.run`` is a mkdocstrings
            # reference. A hide word itself (``::: internal``) is still a would-be marker.
            continue
        words = [w for w in re.split(r"[\s\"'\[\]()]+", f"{kind or ''} {alert or ''}") if w]
        # Attribute values a tool reads as a page or a file (an image's source) are not intent.
        # Only attributes that select an audience count (``pivot``, ``range``…); text a
        # reader sees (``alt-text``) and files (``source``) do not.
        title = _OTHER_ATTRIBUTES.sub("", title or "")
        if any(squash(w) in HIDE_NAMES or _resembles_any(w) for w in words) or mentions(title[:300], HIDE_WORDS):
            found.append(match)
    return found


def _span(body: str, start: int, end: int) -> re.Match[str]:
    """The body's text from ``start`` to ``end`` as a match (what
    :func:`~provider.wiki.code_shown.shown_as_code` and the callers read)."""
    found = re.compile(f"(?s).{{{end - start}}}").match(body, start)
    if found is None:  # ``end`` beyond the body: never, the spans come from it
        raise ValueError(f"span {start}-{end} outside a body of {len(body)} characters")
    return found


def hidden_spans(body: str, prepare: Callable[[str], str] | None = None, *,
                 shortcodes_run_first: bool = False) -> list[re.Match[str]]:
    """The start tags (attribute lists, ``<style>`` elements) of what the site hides
    (:func:`provider.wiki.hidden_html.hidden_elements`), a ``<style>`` shown as code
    after ``prepare`` styling nothing."""
    def in_code(spans: Sequence[tuple[int, int]]) -> set[int]:
        return shown_as_code(body, [_span(body, start, end) for start, end in spans], prepare or (lambda text: text),
                             shortcodes_run_first=shortcodes_run_first)

    prepared = prepare(body) if prepare is not None and ("<" in body or "{" in body) else None
    return [_span(body, found.start, found.end) for found in hidden_elements(body, in_code, prepared)]


@lru_cache(maxsize=2048)
def _comment_hides(text: str) -> bool:
    """Whether a comment (any syntax) mentions a hide word or hides an element.
    Remembered per text (at most ~2,000 characters): pages made from one template repeat
    their comments, and the look-alike search runs a pattern per hide word."""
    if text.startswith("<summary"):
        # A label a reader sees: ``Private networks`` is a topic, not a request to hide.
        # It is one when it reads as a hiding heading, or is a hide name alone (``Internal``).
        label = re.sub(r"<[^<>]*>", " ", text)
        return says_not_for_customers(label) is not None or squash(label) in HIDE_NAMES
    return bool(mentions(text, HIDE_WORDS) or _hide_word_in(text) or _restricts(text))


#: A comment's delimiters in the syntaxes :data:`_COMMENTS` reads.
_DELIMITERS = re.compile(r"^(?:<!-+|\{\{?/\*|\{#|\{%-?\s*comment\s*-?%\}|\{::comment\}|\[[^\]]*\]:\s*#\s*[(\"])"
                         r"|(?:-+>|\*/\}?\}?|#\}|[)\"])$")


def _restricts(text: str) -> bool:
    """Whether a comment says, in words, that what it introduces or wraps is not for
    customers (``<!-- for employees -->``, ``<!-- dont publish -->``, ``<!-- Nur für
    Mitarbeiter: … -->``): its whole text when short, or its lead before a colon or a
    dash, read as a heading is (:func:`provider.wiki.body_markers.says_not_for_customers`)."""
    if not text.startswith(("<!", "{", "[")) or text.startswith("<![CDATA["):
        return False
    inner = _DELIMITERS.sub("", text.strip()).strip()
    if not inner:
        return False
    lead = re.split(r"[:\n]|\s[-–—]+\s", inner, maxsplit=1)[0]
    return any(says_not_for_customers(part) is not None for part in dict.fromkeys((inner, lead))
               if len(part.split()) <= 12)


_COMMENT_WORD = re.compile(r"[^\W_]+")
_OTHER_ATTRIBUTES = re.compile(
    r"""\b(?!(?:pivot|range|audience|visibility|target|class)\b)[\w-]+\s*=\s*("[^"]*"|'[^']*'|\S+)""")


#: Parts of a page a theme shows around its text: ``<!-- hide toc -->`` asks the theme to
#: leave one out (MkDocs Material's ``hide:``), which hides none of the page's text.
_PAGE_PARTS = frozenset({"toc", "navigation", "nav", "sidebar", "footer", "header", "feedback", "tags", "path",
                         "breadcrumbs", "breadcrumb", "title", "search", "edit", "banner", "menu"})


def _hide_word_in(text: str) -> bool:
    """Whether a word of ``text`` is one of :data:`HIDE_COMMENT_WORDS`, misspelled by up
    to the edits :data:`HIDE_COMMENT_WORDS` allows it."""
    folded = fold(text[:2000])
    words = _COMMENT_WORD.findall(folded)
    return any(_is_hide_word(word) and not (word in ("hide", "hidden") and following in _PAGE_PARTS)
               for word, following in zip(words, [*words[1:], ""], strict=False)) or (
        not folded.isascii() and any(phrase in folded for phrase in HIDE_COMMENT_PHRASES))


@lru_cache(maxsize=65_536)
def _is_hide_word(word: str) -> bool:
    # Remembered per word: a page's comments and tags repeat their words, and the
    # misspelling distance is computed in Python.
    for hide, edits in HIDE_COMMENT_WORDS.items():
        if abs(len(word) - len(hide)) <= edits and (resembles(word, hide) or (edits and near(word, hide, edits))):
            return True
    return False


@lru_cache(maxsize=65_536)
def _resembles_any(name: str) -> bool:
    squashed = squash(name)
    return len(squashed) <= 40 and any(resembles(squashed, word) for word in HIDE_NAMES)


@dataclass(frozen=True)
class SectionSplit:
    """The two views of a body and what was found.

    Attributes:
        full: the body without markers.
        public: the body without internal blocks (equal to ``full`` when there are none).
        blocks: internal blocks found (a stray closer counts as one).
        unclosed_line: body line (1-based) of an opening marker never closed, else ``None``.
        stray_lines: body lines (1-based) of closing markers without an opener.
        near_miss_lines: body lines (1-based) of would-be markers (see the module
            docstring); the document is to be treated as internal.
    """

    full: str
    public: str
    blocks: int = 0
    unclosed_line: int | None = None
    stray_lines: tuple[int, ...] = ()
    near_miss_lines: tuple[int, ...] = ()


def _blank(text: str) -> str:
    return "\n" * text.count("\n")


def _without_hidden_labels(body: str, candidates: list[re.Match[str]]) -> list[re.Match[str]]:
    """``candidates`` less the collapsible-block labels that hide their block.

    A collapsible block labelled "Internal notes" is a heading over its block:
    :mod:`provider.wiki.body_markers` hides it (``hiding-heading``) wherever the text as
    written does not show it as code — the very test made here, so a label it leaves
    (code as written, maybe not after the dialect rules) stays a would-be marker."""
    labels = [m for m in candidates if hiding_summary(body, m.start()) is not None]
    if not labels:
        return candidates
    written_code = shown_as_code(body, labels, lambda text: text)
    dropped = {id(m) for i, m in enumerate(labels) if i not in written_code}
    return [m for m in candidates if id(m) not in dropped]


def split_sections(body: str, prepare: Callable[[str], str] | None = None, *,
                   colon_containers: bool = True, shortcodes_run_first: bool = False) -> SectionSplit:
    """Split a markdown body (front matter removed) into its full and public views.

    Args:
        body: the markdown body.
        prepare: the rewriting the body gets before it is parsed for indexing (the
            layout's dialect rules); used to tell which markers are shown as code.
        colon_containers: whether the layout's tool has ``:::`` containers (see
            :func:`hiding_spans`).
        shortcodes_run_first: the layout's tool (Hugo) runs shortcodes before Markdown,
            inside code too: a shortcode marker shown as code still hides.
    """
    markers = list(MARKER.finditer(body))
    candidates = hiding_spans(body, colon_containers=colon_containers, prepare=prepare,
                              shortcodes_run_first=shortcodes_run_first)
    if not markers and not candidates:
        return SectionSplit(full=body, public=body)
    candidates = _without_hidden_labels(body, candidates)
    code = shown_as_code(body, [*markers, *candidates], prepare or (lambda text: text),
                         shortcodes_run_first=shortcodes_run_first)
    starts = [0] + [i + 1 for i, char in enumerate(body) if char == "\n"]

    def line_of(offset: int) -> int:
        return bisect.bisect_right(starts, offset) - 1

    near = tuple(dict.fromkeys(
        line_of(m.start()) + 1 for i, m in enumerate(candidates, start=len(markers)) if i not in code
    ))
    full: list[str] = []
    public: list[str] = []
    depth = 0
    blocks = 0
    anchor = 0  # index in ``public`` where a stray closer's hiding starts
    position = 0
    opened_at: int | None = None
    strays: list[int] = []
    for index, marker in enumerate(markers):
        if index in code:
            continue
        line = line_of(marker.start())
        before = body[position : marker.start()]
        full.append(before)
        public.append(before if depth == 0 else _blank(before))
        if not marker.group(1):
            depth += 1
            if depth == 1:
                blocks += 1
                opened_at = line + 1
        elif depth > 0:
            depth -= 1
            if depth == 0:
                anchor = len(public) + 1
        else:
            # A closer with no opener: the opener was probably forgotten, so what came
            # before it (since the last block) may be internal. Hide it.
            strays.append(line + 1)
            blocks += 1
            for index in range(anchor, len(public)):
                public[index] = _blank(public[index])
            anchor = len(public) + 1
        full.append(_blank(marker.group(0)))
        public.append(_blank(marker.group(0)))
        position = marker.end()
    if not blocks:  # no marker, or every marker was code
        return SectionSplit(full=body, public=body, near_miss_lines=near)
    rest = body[position:]
    full.append(rest)
    public.append(rest if depth == 0 else _blank(rest))
    return SectionSplit(
        full="".join(full),
        public="".join(public),
        blocks=blocks,
        unclosed_line=opened_at if depth > 0 else None,
        stray_lines=tuple(strays),
        near_miss_lines=near,
    )


def mark_internal_blocks(full: Sequence[Block], public: Sequence[Block]) -> tuple[Block, ...]:
    """Flag the blocks of the full view that customers do not see.

    A block is public when the public view has a block of the same kind and text (each
    public block vouches for one full block); every other block came from, or was
    changed by, an internal section.
    """
    available = Counter((block.kind, block.text) for block in public)
    marked = []
    for block in full:
        key = (block.kind, block.text)
        if available[key] > 0:
            available[key] -= 1
            marked.append(block)
        else:
            marked.append(replace(block, internal=True))
    return tuple(marked)
