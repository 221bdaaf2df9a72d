"""Template logic the provider cannot evaluate: text it never proves published.

A docs tool that runs a template language over the page (Jekyll's Liquid, MkDocs'
``macros`` plugin's Jinja, Hugo's shortcodes) may leave text out of the site:
``{% if site.flag %}…{% endif %}`` with the flag false, ``{% unless true %}``, a
``{% capture x %}`` whose variable is never shown, Hugo's built-in ``comment`` shortcode
(never rendered, Hugo ≥ 0.137.1). The provider does not evaluate the condition, so such
text is not proof of publication (issue 24): :func:`mark_template_blocks` wraps each
conditional/capture interior in internal-section markers (agents keep it, the public
view does not get it, the rest of the page stays public), and blanks a comment
construct's text altogether.

Constructs, by dialect (tag names case-insensitively, Liquid/Jinja whitespace control
``{%-``/``-%}`` allowed):

* ``liquid`` (Jekyll): ``if``, ``unless``, ``case``, ``capture``, ``for``, ``tablerow``
  (hidden); ``comment`` is dropped by :mod:`provider.wiki.plaintext` (one never closed
  hides the rest here);
* ``jinja`` (MkDocs): ``if``, ``for``, ``macro``, ``call``, ``filter``, a block ``set``
  without ``=`` (hidden; ``{%+`` too); ``{# … #}`` with a space after ``{#``, ``{#-`` or
  ``{#+`` (dropped; ``{#id}`` is a heading id, not a comment);
* ``hugo``: ``{{% comment %}}…{{% /comment %}}`` and ``{{< comment >}}…{{< /comment >}}``,
  with or without arguments (dropped).

Liquid and MkDocs' macros render the page *before* Markdown, so their tags run wherever
they are written: in a code span, a fence or an HTML comment too. Tags inside
``{% raw %}…{% endraw %}`` are text (how a page shows the syntax as written). A construct
whose tag is shown as code is dropped whole (a marker placed there would be code text);
a tag inside an HTML comment puts its marker outside the comment (``<!-- {% if x %} -->``
leaves ``<!-- -->`` behind on the site). The engines' switches are honoured: Jekyll's
``render_with_liquid: false`` front matter, the macros plugin's ``render_by_default``
and per-page ``render_macros``, and its custom delimiters (``j2_block_start_string``…).

Hugo: a paired shortcode whose template (``layouts/shortcodes/NAME.html``, also
``layouts/_shortcodes`` and a theme's) may not output ``.Inner`` (:func:`outputs_inner`:
a condition without ``else``, a comment, an assignment never shown, ``len .Inner``, a
print where no reader sees it: :mod:`provider.wiki.template_html`; ``{{ block "b" . }}`` and
``{{ partial "p" . }}`` — ``layouts/partials``, ``layouts/_partials``, a theme's — count as
what their body prints, an unknown partial as nothing)
can hide its interior: dropped, as an inline shortcode's (``{{< x.inline >}}…{{< /x.inline >}}``:
a template itself, rendered only with ``enableInlineShortcodes``) is — unless it hands ``.Inner`` to its parent's
``Store``/``Scratch`` and the parent's template prints that on every path
(:func:`shown_through_parent`: Docsy's ``tab`` inside ``tabpane``); a silent parent's own
text between such children is dropped. An unknown shortcode (no template found) is left as
written. With the macros plugin's own variable delimiters (``[[ … ]]``), an expression
is left out of the text, as a ``{{ … }}`` one is by :mod:`provider.wiki.plaintext`.

Nesting counts: the outermost construct decides. An opening tag never closed hides (or
drops) everything after it (fail closed); a closing tag never opened is left as it is.
Line structure is kept (only newlines survive a drop), so line numbers stay true.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from .sites.config_files import ConfigError, read_config
from .template_html import GO_ACTION, GO_HTML_COMMENT, shown_actions

__all__ = ["DEFAULT_DELIMITERS", "DIALECT_OF_LAYOUT", "Delimiters", "goldmark_unsafe", "handoffs", "jinja_delimiters",
           "leaves_open", "mark_template_blocks", "outputs_inner", "prints_stored", "shortcode_templates",
           "shown_through_parent", "silent_shortcodes", "template_dialect"]

#: The template dialect each layout's tool runs over a page.
DIALECT_OF_LAYOUT = {"jekyll": "liquid", "mkdocs": "jinja", "hugo": "hugo"}

_OPEN_MARK = "<!-- internal -->"
_CLOSE_MARK = "<!-- /internal -->"


@dataclass(frozen=True)
class Delimiters:
    """A Jinja environment's tag delimiters (the macros plugin's ``j2_*_string`` options);
    Liquid always uses the defaults."""

    block_start: str = "{%"
    block_end: str = "%}"
    comment_start: str = "{#"
    comment_end: str = "#}"
    variable_start: str = "{{"
    variable_end: str = "}}"


DEFAULT_DELIMITERS = Delimiters()

# Loops too: a loop over nothing (``site.nothing``, ``(1..0)``, ``[]``) shows nothing.
# Jinja's ``block`` and ``with`` show their interior in place (no ``extends``): not hidden.
_HIDDEN = {"liquid": frozenset({"if", "unless", "case", "capture", "comment", "for", "tablerow"}),
           "jinja": frozenset({"if", "macro", "call", "filter", "set", "for"})}
# Liquid ``comment`` is dropped by :mod:`provider.wiki.plaintext`, after the would-be
# marker rules (:mod:`provider.wiki.sections`) have read it: not dropped here.
_DROPPED: dict[str, frozenset[str]] = {"liquid": frozenset(), "jinja": frozenset()}
# With arguments too (``{{< comment "why" >}}``): Hugo ignores them and the text.
_HUGO_COMMENT = re.compile(r"\{\{([<%])\s*(/)?\s*comment\b[^>%{}]{0,500}[>%]\}\}", re.IGNORECASE)
# Any shortcode (not the escaped ``{{</* x */>}}``): name, then arguments up to ``>}}``/``%}}``.
_HUGO_SHORTCODE = re.compile(r"\{\{([<%])-?\s*(/)?\s*([\w.-]+(?:/[\w.-]+)*)\b([^>%{}]{0,500}?)(/)?\s*-?[>%]\}\}")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


@lru_cache(maxsize=16)
def _patterns(delimiters: Delimiters) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The tag, raw, comment and comment-opening patterns of ``delimiters``: ``{%-``/``-%}``
    (both dialects) and ``{%+``/``+%}`` (Jinja) control whitespace only; ``{#-``, ``{#+``
    comments too, but ``{#id}`` (a heading id, no space) is none."""
    bs, be = re.escape(delimiters.block_start), re.escape(delimiters.block_end)
    cs, ce = re.escape(delimiters.comment_start), re.escape(delimiters.comment_end)
    tag = re.compile(bs + r"[-+]?\s*(end)?([a-zA-Z]+)\b((?:(?!" + be + r")[\s\S]){0,2000})" + be)
    # What ``{% raw %}`` holds is shown as written, tags included (how a page documents them).
    raw = re.compile(bs + r"[-+]?\s*raw\s*[-+]?" + be + r".*?(?:" + bs + r"[-+]?\s*endraw\s*[-+]?" + be + r"|\Z)",
                     re.DOTALL)
    return tag, raw, re.compile(cs + r"[-+]?\s.*?" + ce, re.DOTALL), re.compile(cs + r"[-+]?\s")


_MKDOCS_CONFIGS = ("mkdocs.yml", "mkdocs.yaml")
_macros_cache: dict[tuple[str, int], Mapping[str, Any] | None] = {}
#: What an unreadable configuration counts as: the plugin on, with its defaults (fail closed).
_UNREADABLE: Mapping[str, Any] = {}


def _macros_config(root: Path) -> Mapping[str, Any] | None:
    """The ``macros`` plugin's options of the MkDocs site around ``root`` (its folder or
    parent), ``None`` when the plugin is not listed; a configuration that cannot be read
    counts as the plugin with its defaults (fail closed)."""
    for folder in (root, root.parent):
        for name in _MKDOCS_CONFIGS:
            path = folder / name
            try:
                mtime = os.stat(path).st_mtime_ns
            except OSError:
                continue
            key = (str(path), mtime)
            if key not in _macros_cache:
                if len(_macros_cache) > 64:
                    _macros_cache.clear()
                try:
                    data = read_config(path)
                except (ConfigError, OSError):
                    _macros_cache[key] = _UNREADABLE
                    return _UNREADABLE
                plugins = data.get("plugins") if isinstance(data, Mapping) else None
                items: list[Any] = (list(plugins.items()) if isinstance(plugins, Mapping)
                                    else list(plugins) if isinstance(plugins, list) else [])
                found: Mapping[str, Any] | None = None
                for item in items:
                    name_, options = (item if isinstance(item, tuple) else
                                      next(iter(item.items()), ("", None)) if isinstance(item, Mapping) else
                                      (item, None))
                    if isinstance(name_, str) and name_.split("/")[-1] == "macros":
                        found = options if isinstance(options, Mapping) else {}
                _macros_cache[key] = found
            return _macros_cache[key]
    return None


def _rendered_by_macros(meta: Mapping[str, Any], options: Mapping[str, Any]) -> bool:
    """Whether the macros plugin renders a page: its ``render_macros`` if the page sets the
    key, else the plugin's ``render_by_default``, read with Python's truth (the plugin's):
    any non-empty string is true — ``render_macros: "false"`` renders (attacker, issue 24)."""
    return bool(meta["render_macros"] if "render_macros" in meta else options.get("render_by_default", True))


def template_dialect(layout: str, root: Path, meta: Mapping[str, Any] | None = None) -> str | None:
    """The template dialect the site of ``layout`` at content root ``root`` runs over a
    page whose front matter is ``meta``: Liquid for Jekyll (not with
    ``render_with_liquid: false``), Hugo's shortcodes, and Jinja for MkDocs only when the
    ``macros`` plugin is listed (without it MkDocs shows ``{% … %}`` as written) and
    renders the page (``render_macros: false`` on the page, or ``render_by_default:
    false`` without ``render_macros: true``, leave it as written)."""
    dialect = DIALECT_OF_LAYOUT.get(layout)
    meta = meta if isinstance(meta, Mapping) else {}
    # Jekyll skips Liquid only for the boolean false (``data["render_with_liquid"] == false``):
    # the string "false" still renders (attacker, issue 24).
    if dialect == "liquid" and meta.get("render_with_liquid") is False:
        return None
    if dialect == "jinja":
        options = _macros_config(root)
        if options is None or not _rendered_by_macros(meta, options):
            return None
    return dialect


def jinja_delimiters(root: Path) -> Delimiters:
    """The delimiters the macros plugin of the MkDocs site around ``root`` renders with
    (its ``j2_block_start_string``, ``j2_block_end_string``, ``j2_comment_start_string``,
    ``j2_comment_end_string``, ``j2_variable_start_string`` and ``j2_variable_end_string``
    options; Jinja's defaults otherwise)."""
    options = _macros_config(root) or {}
    given = {field: options.get(f"j2_{field}_string") for field in ("block_start", "block_end", "comment_start",
                                                                      "comment_end", "variable_start",
                                                                      "variable_end")}
    return Delimiters(**{k: v for k, v in given.items() if isinstance(v, str) and v.strip()})


_MAX_TEMPLATE = 200_000
_INNER_NAMES = (".Inner", ".InnerDeindent", "$.Inner", "$.InnerDeindent")
#: References at a shortcode template's top: its interior, the dot (``@dot``) and ``$``
#: (``@root``) being the shortcode.
_SHORTCODE = (*_INNER_NAMES, "@dot", "@root")
# Functions that output their argument's text (Markdown or HTML rendered, unescaped or
# trimmed at its ends): a pipeline of these over ``.Inner`` still shows it.
_OUTPUT_FUNCTIONS = re.compile(r"markdownify|safeHTML|htmlUnescape|chomp|emojify|plainify|strings\.TrimSpace"
                               r"|(?:\$?[\w.]*\.)?RenderString")
# Functions that print their argument unescaped: markup of an argument (``.Get "title"``)
# may open an element that hides what the template prints after it.
_RAW_OUTPUT = re.compile(r"\b(?:safeHTML|htmlUnescape)\b")
# Markdown rendered from an argument: its raw HTML passes through only with Goldmark's
# ``markup.goldmark.renderer.unsafe`` (by default Hugo writes ``<!-- raw HTML omitted -->``).
_MARKDOWN_OUTPUT = re.compile(r"\b(?:markdownify|RenderString)\b")
#: Elements with no end tag, and those whose end tag a parser may imply (an open one of
#: these wraps nothing that follows the partial on its own).
_VOID_OR_IMPLIED = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
                              "track", "wbr", "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th",
                              "thead", "tbody", "tfoot", "colgroup", "caption", "rb", "rt", "rtc", "rp"})


def _raw_output(expression: str, unsafe: bool) -> bool:
    """Whether a printed pipeline may write markup it was given (an argument, a
    parameter): ``safeHTML``, ``htmlUnescape``, and with Goldmark's ``unsafe`` on,
    ``markdownify`` and ``.RenderString``."""
    return _RAW_OUTPUT.search(expression) is not None or (unsafe and _MARKDOWN_OUTPUT.search(expression) is not None)


class _OpenCounter(HTMLParser):
    """Start tags less end tags, per element that a parser does not close by itself."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: dict[str, int] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _VOID_OR_IMPLIED:
            self.open[tag] = self.open.get(tag, 0) + 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self.open:
            self.open[tag] -= 1


def leaves_open(template: str, *, unsafe: bool = False) -> bool:
    """Whether a partial template may leave an element open where its caller goes on
    printing (``<div hidden>``, ``<details>`` without its end tag, on any path: the
    branches' text all counts), or may print markup it was given
    (:func:`_raw_output`), or calls another partial (not followed: fail closed). A
    shortcode that prints its ``.Inner`` after such a partial may print it hidden
    (issue 24). Never raises."""
    clean = GO_HTML_COMMENT.sub(" ", template)
    for found in GO_ACTION.finditer(clean):
        text = found.group(1)
        if _PARTIAL_CALL.search(text) or _raw_output(text, unsafe):
            return True
    counter = _OpenCounter()
    try:
        counter.feed(GO_ACTION.sub(" ", clean))
        counter.close()
    except Exception:  # html.parser raises on little, but what it raises is not ours to pass on
        return True
    return any(count > 0 for count in counter.open.values())
_ASSIGNMENT = re.compile(r"(\$\w+)\s*(:?=)\s*(.*)", re.DOTALL)
_OPENERS = ("if", "with", "range", "define", "block")
_THE_INNER = re.compile(r"(?<![\w$])\$?\.Inner(?:Deindent)?\b")


def _go_actions(template: str) -> list[tuple[str, str, bool]]:
    """``(keyword, rest, shown)`` of each action of a Go template (``""`` as the keyword
    of an expression; ``shown``: what it prints lands where a reader sees it,
    :func:`provider.wiki.template_html.shown_actions`); comments (``{{/* … */}}``, in
    HTML comments too) are none."""
    out = []
    clean = GO_HTML_COMMENT.sub(lambda m: " " * len(m.group(0)), template)
    for found, shown in zip(GO_ACTION.finditer(clean), shown_actions(template), strict=True):
        text = _TRIM.sub("", found.group(1)).strip()
        if text.startswith("/*"):
            continue
        word, rest = _keyword(text)
        out.append((word, rest, shown) if word in _KEYWORDS else ("", text, shown))
    return out


# Trim markers: ``{{-`` and ``-}}`` with a space beside them (``{{-3}}`` is a number).
_TRIM = re.compile(r"\A-(?=\s)|(?<=\s)-\Z")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_KEYWORDS = frozenset({*_OPENERS, "else", "end", "template", "break", "continue"})


def _keyword(text: str) -> tuple[str, str]:
    """``text``'s first identifier and what follows it: Go's lexer ends a keyword at any
    character that is not a letter, digit or ``_`` (``if\tfalse``, ``if(eq 1 2)``,
    ``if.Inner``), not only at a space (attacker, issue 24)."""
    found = _IDENTIFIER.match(text)
    if found is None:
        return "", text
    return found.group(0), text[found.end():].strip()


def _outside(text: str) -> Iterator[tuple[int, str, int]]:
    """``(index, character, parenthesis depth after it)`` of each character of ``text``
    outside strings (quoted or raw)."""
    depth, quote = 0, ""
    for i, char in enumerate(text):
        if quote:
            quote = "" if char == quote and text[i - 1] != "\\" else quote
        elif char in "\"'`":
            quote = char
        else:
            depth += 1 if char == "(" else -1 if char == ")" else 0
            yield i, char, depth


def _split_outside(text: str, separator: Callable[[str], bool]) -> list[str]:
    """``text`` cut at each character ``separator`` accepts outside strings and
    parentheses; empty pieces included."""
    pieces, start = [], 0
    for i, char, depth in _outside(text):
        if depth == 0 and char not in "()" and separator(char):
            pieces.append(text[start:i])
            start = i + 1
    return [*pieces, text[start:]]


def _split_pipeline(expression: str) -> list[str]:
    """The commands of a pipeline (``|`` outside strings and parentheses)."""
    return [command.strip() for command in _split_outside(expression, "|".__eq__)]


def _words(command: str) -> list[str]:
    """The words of a command (spaces outside strings and parentheses)."""
    return [word for word in _split_outside(command, str.isspace) if word]


def _unwrap(term: str) -> str:
    """``term`` without the parentheses around the whole of it."""
    term = term.strip()
    while term.startswith("(") and term.endswith(")") and _words(term) == [term] and _closes_at_end(term):
        term = term[1:-1].strip()
    return term


def _closes_at_end(term: str) -> bool:
    """Whether the parenthesis opening ``term`` closes at its last character."""
    return next((i == len(term) - 1 for i, char, depth in _outside(term) if char == ")" and depth == 0), False)


# Where a shortcode keeps what a child stored: ``.Store.Get "tabs"`` (``$.`` anywhere,
# ``.`` while the dot is the shortcode).
_STORE_GET = re.compile(r'(\$\w*)?\.(Store|Scratch)\.Get\s+"([^"\\]*)"')
# A child handing a value to its parent: ``$.Parent.Store.Add "tabs" (slice $tab)``.
_HANDOFF = re.compile(r'(\$\.Parent|\.Parent|\$\w+|)\.(Store|Scratch)\.(Add|Set|SetInMap)\s+"([^"\\]*)"\s+(.+)',
                      re.DOTALL)
_LITERAL = re.compile(r'"(?:\\.|[^"\\])*"|`[^`]*`')
# Functions whose first argument is the text they output (``highlight X "go" ""``,
# ``trim X "\n"``): code shown as code is still shown.
_FIRST_ARGUMENT_OUTPUT = frozenset({"highlight", "trim"})


def _resolve(term: str, inner: frozenset[str], reads: Mapping[str, str]) -> str | None:
    """What ``term`` holds of the interior: ``"text"`` (the interior's text), a shape
    (``"each/dict:content/text"``: a list or map of dicts whose ``content`` is it) or
    ``None`` (nothing known). ``inner`` holds references (``$x``: the text; ``$x=SHAPE``:
    a shaped value; ``@dot``, ``@root``: the dot, ``$``, is the shortcode; ``$x=@parent``,
    ``$x=@self``: a name for the parent or the shortcode); ``reads`` maps ``Store:KEY`` to
    the shape a child stored there."""
    term = _unwrap(term)
    if term in inner:
        return "text"
    for entry in inner:
        name, equals, shape = entry.partition("=")
        if equals and name == term and not shape.startswith("@"):
            return shape
    got = _STORE_GET.fullmatch(term)
    if got is not None:
        owner = got.group(1)
        # ``$.Store``, ``.Store`` where the dot is the shortcode, ``$self.Store`` after ``$self := .``.
        mine = (owner == "$" and "@root" in inner) or (owner is None and "@dot" in inner) or (
            owner is not None and f"{owner}=@self" in inner)
        return reads.get(f"{got.group(2)}:{got.group(3)}") if mine else None
    words = _words(term)
    if (len(words) >= 3 and words[0] in ("partial", "partialCached") and _LITERAL.fullmatch(words[1])
            and ((words[2] == "." and "@dot" in inner) or (words[2] == "$" and "@root" in inner))):
        # A partial given the shortcode as its dot: what it prints (:func:`outputs_inner`).
        return reads.get(f"partial:{words[1][1:-1].lower().removesuffix('.html')}")
    if len(words) >= 2 and ((_OUTPUT_FUNCTIONS.fullmatch(words[0]) is not None
                             and _resolve(words[-1], inner, reads) == "text")
                            or (words[0] in _FIRST_ARGUMENT_OUTPUT and _resolve(words[1], inner, reads) == "text")):
        return "text"
    if len(words) == 3 and words[0] == "index" and _LITERAL.fullmatch(words[2]):
        base = _resolve(words[1], inner, reads)
        prefix = f"dict:{words[2][1:-1]}/"
        return base[len(prefix):] if base is not None and base.startswith(prefix) else None
    field = re.fullmatch(r"(\$\w*(?:\.\w+)*|(?:\.\w+)*)\.([A-Za-z_]\w*)", term)
    if field is not None and len(words) == 1:
        base = _resolve(field.group(1) or ".", inner, reads)
        prefix = f"dict:{field.group(2)}/"
        return base[len(prefix):] if base is not None and base.startswith(prefix) else None
    return None


def _shape(value: str, inner: frozenset[str], reads: Mapping[str, str]) -> str | None:
    """The shape of a value built around the interior: the text (through output
    functions too), ``slice X``, ``dict "k" X …`` of one, ``merge``."""
    value = _unwrap(value)
    if _shows(value, inner, reads):
        return "text"
    words = _words(_unwrap(value))
    if len(words) == 2 and words[0] == "slice":
        held = _shape(words[1], inner, reads)
        return None if held is None else f"each/{held}"
    if words and words[0] == "dict" and len(words) % 2 == 1:
        for key, item in zip(words[1::2], words[2::2], strict=True):
            held = _shape(item, inner, reads)
            if held is not None and _LITERAL.fullmatch(key):
                return f"dict:{key[1:-1]}/{held}"
        return None
    if len(words) == 3 and words[0] == "merge":
        # ``merge $tab (dict "content" .Inner)``: the later map's keys win.
        added = _shape(words[2], inner, reads)
        if added is not None:
            return added
        base, later = _resolve(words[1], inner, reads), _words(_unwrap(words[2]))
        if base is None or not later or later[0] != "dict" or not all(
                _LITERAL.fullmatch(key) and not base.startswith(f"dict:{key[1:-1]}/") for key in later[1::2]):
            return None
        return base
    return _resolve(value, inner, reads)


def _shows(expression: str, inner: frozenset[str], reads: Mapping[str, str] | None = None) -> bool:
    """Whether a pipeline outputs the text of one of the references ``inner`` (``.Inner``,
    ``.`` inside ``with .Inner``, a variable holding it, a field of what a child stored
    (``reads``, :func:`_resolve`)): the reference itself or an output function's last
    argument (``highlight``'s and ``trim``'s first), then only output functions."""
    first, *rest = _split_pipeline(expression)
    return _resolve(first, inner, reads or {}) == "text" and all(
        _OUTPUT_FUNCTIONS.fullmatch(command.split(" ")[0]) is not None
        or command.split(" ")[0] in _FIRST_ARGUMENT_OUTPUT for command in rest)


def _is_variable(entry: str) -> bool:
    return re.match(r"\$\w", entry) is not None


def _name(entry: str) -> str:
    return entry.partition("=")[0]


class _Template:
    """Whether a shortcode template outputs ``.Inner`` on every path it can take; or,
    given ``reads``, what a child stored in it (:func:`prints_stored`); ``handed``: the
    hand-offs to the parent (``(Store:KEY, shape, overwrites)``) that count as output."""

    def __init__(self, template: str, reads: Mapping[str, str] | None = None,
                 handed: frozenset[tuple[str, str, bool]] = frozenset(), *, unsafe: bool = False,
                 opens: frozenset[str] = frozenset()) -> None:
        self.actions = _go_actions(template)
        #: Goldmark's ``unsafe``: markdown rendered from an argument may carry raw HTML.
        self.unsafe = unsafe
        #: Partials (lower case, no ``.html``) that may leave an element open (:func:`leaves_open`).
        self.opens = opens
        self.position = 0
        self.reads: Mapping[str, str] = reads or {}
        self.handed = handed
        #: Every hand-off to the parent met, shown or not (:func:`handoffs`).
        self.handoffs: set[tuple[str, str, bool]] = set()
        #: Whether the construct or branch last read may end in a ``break``/``continue``.
        self.escapes = False
        #: Whether unescaped markup other than the interior was printed before (on any path).
        self.raw_before = False
        # A variable assigned again with ``=`` may hold anything after: never a reference.
        self.reassigned = {m.group(1) for _, text, _ in self.actions
                           if (m := _ASSIGNMENT.fullmatch(text)) is not None and m.group(2) == "="}
        # A parent that writes its own key may empty or replace what a child stored there.
        self.writes = {f"{m.group(2)}:{m.group(4)}" for _, text, _ in self.actions
                       for m in [re.search(r'(\.Parent)?\.(Store|Scratch)\.(Add|Set|SetInMap|Delete)\s+"([^"\\]*)"',
                                           text)] if m is not None and m.group(1) is None}

    def handoff(self, expression: str, inner: frozenset[str]) -> bool:
        """Whether ``expression`` stores the interior in the parent as a hand-off of
        :attr:`handed` (recorded in :attr:`handoffs` either way)."""
        found = _HANDOFF.fullmatch(expression.strip())
        if found is None:
            return False
        receiver, store, method, key, args = found.groups()
        if (receiver == ".Parent" and "@dot" not in inner) or (receiver == "" and "@parent" not in inner) or (
                receiver == "$.Parent" and "@root" not in inner) or (
                receiver not in ("", ".Parent", "$.Parent") and f"{receiver}=@parent" not in inner):
            return False
        words = _words(args.strip())
        if method == "SetInMap":
            if len(words) != 2:
                return False
            held = _shape(words[1], inner, self.reads)
            mapkey = _unwrap(words[0])
            # ``printf "%02v" $.Ordinal``: each child its own key, none replaces a sibling's.
            unique = (re.fullmatch(r'(?:printf\s+"[^"%]*%[\w.]+[^"%]*"\s+)?(\$?)\.Ordinal', mapkey) is not None
                      and (mapkey.endswith("$.Ordinal") or "@dot" in inner))
            # Read back by ranging over the map, or (a literal key) by ``index`` with that key.
            shape = None if held is None else f"each/{held}"
            if unique and shape is not None:
                method = "Add"
            elif shape is not None and _LITERAL.fullmatch(mapkey) and mapkey[0] == '"':
                keyed = (f"{store}:{key}", f"dict:{mapkey[1:-1]}/{held}", True)
                self.handoffs.add(keyed)
                if keyed in self.handed:
                    return True
        else:
            shape = _shape(words[0], inner, self.reads) if len(words) == 1 else None
        if shape is None:
            return False
        # ``Add`` appends to a list or a text; anything else may replace what a sibling stored.
        token = (f"{store}:{key}", shape, method != "Add" or not (shape == "text" or shape.startswith("each/")))
        self.handoffs.add(token)
        return token in self.handed

    def sequence(self, inner: frozenset[str]) -> tuple[bool, str, str, frozenset[str]]:
        """Reads actions up to an ``else``/``end`` (or the end): ``(outputs the interior on
        every path, the keyword that ended it, its rest, the references then: variables
        declared here with ``:=`` as they were before)``."""
        shown = False
        # After a ``break``/``continue`` (here, or in a branch of an ``if``/``with`` here) the
        # rest of this branch may not run: what it shows does not count (fail closed).
        stopped = False
        start, local = inner, set()
        while self.position < len(self.actions):
            word, rest, printed = self.actions[self.position]
            self.position += 1
            if word in ("else", "end"):
                break
            if word in ("break", "continue"):
                stopped = True
                continue
            if word in _OPENERS:
                self.escapes = False
                shown_here, inner = self.construct(word, rest, inner)
                shown = (shown_here and not stopped) or shown
                stopped = stopped or self.escapes
                continue
            if word == "template" or stopped:
                # Another template's output is not read here: not shown.
                continue
            assigned = _ASSIGNMENT.fullmatch(rest)
            if assigned is not None:
                name = assigned.group(1)
                held = _shape(assigned.group(3), inner, self.reads)
                inner = frozenset(entry for entry in inner if _name(entry) != name)
                if assigned.group(2) == ":=":
                    local.add(name)
                if held is None and name not in self.reassigned:
                    # ``$p := .Parent``, ``$self := .``: a name for the parent or the shortcode.
                    value = assigned.group(3).strip()
                    for alias, dollar, dot in (("@parent", "$.Parent", ".Parent"), ("@self", "$", ".")):
                        if (value == dollar and "@root" in inner) or (value == dot and "@dot" in inner):
                            inner = inner | {f"{name}={alias}"}
                if held == "text":
                    inner = inner | {name}
                elif held is not None:
                    inner = inner | {f"{name}={held}"}
                continue
            # Printed where no reader sees it (``<div hidden>``, an attribute), or after
            # markup an argument may have put there (``{{ .Get "t" | safeHTML }}``: an
            # unclosed ``<div hidden>``): not shown.
            prints = printed and _shows(rest, inner, self.reads)
            shown = self.handoff(rest, inner) or (prints and not self.raw_before) or shown
            self.raw_before = self.raw_before or (printed and not prints and (
                _raw_output(rest, self.unsafe) or any(name.lower().removesuffix(".html") in self.opens
                                                      for name in _PARTIAL_CALL.findall(rest))))
        else:
            word, rest = "", ""
        self.escapes = stopped
        after = frozenset({*(e for e in inner if _name(e) not in local), *(e for e in start if _name(e) in local)})
        return shown, word, rest, after

    def block(self, rest: str, inner: frozenset[str]) -> tuple[bool, frozenset[str]]:
        """``{{ block "name" PIPELINE }}…{{ end }}``: Go defines the template and runs it in
        place, PIPELINE its dot and its ``$``, the caller's variables out of its reach.
        Shown when PIPELINE is the shortcode (``.`` where the dot is, or ``$``) and the body
        outputs the interior on every path — not when the file defines the name again."""
        words = _words(rest)
        name, pipeline = (words[0] if words else ""), " ".join(words[1:])
        shortcode = (pipeline == "." and "@dot" in inner) or (pipeline == "$" and "@root" in inner)
        shown, ended, _, _ = self.sequence(frozenset(_SHORTCODE) if shortcode else frozenset())
        while ended == "else":  # not a template Go accepts: read to its end, never counted
            shown, ended, _, _ = self.sequence(frozenset())
            shown = False
        redefined = any(word == "define" and _words(text)[:1] == [name] for word, text, _ in self.actions)
        self.escapes = False
        return shown and ended == "end" and not redefined and _LITERAL.fullmatch(name) is not None, inner

    def construct(self, word: str, condition: str, inner: frozenset[str]) -> tuple[bool, frozenset[str]]:
        """An ``if``/``with``/``range`` chain (all its branches, a final ``else`` needed,
        ``with``/``range`` moving the dot), a ``block`` (:meth:`block`), or a ``define``
        (read, never counted): ``(outputs the interior on every path, the references
        after it)`` — a variable keeps what every way through gave it (``$x = …`` inside
        a branch)."""
        if word == "block":
            return self.block(condition, inner)
        # Where ``with``/``range`` move the dot, only ``$.Inner`` and variables are the shortcode's.
        moved = frozenset(name for name in inner if not name.startswith((".", "@")) or name == "@root")
        branches: list[bool] = []
        outs: list[frozenset[str]] = []
        # {{ if .Inner }}, {{ with $tab.content }}, {{ range $tabs }}: a value holding the
        # interior (or what a child stored) is there to test; otherwise there is none.
        tests_inner = False
        final_else = False
        introduced: set[str] = set()
        first = word
        escapes = False
        while True:
            held = _resolve(condition, inner, self.reads) if word in ("if", "with") and not final_else else None
            over = _RANGE.fullmatch(condition) if word == "range" and not final_else else None
            each = _resolve(over.group(3), inner, self.reads) if over is not None else None
            parent = word == "with" and condition in ("$.Parent", ".Parent") and (
                condition[0] == "$" or "@dot" in inner)
            if not branches:
                # ``with .Parent`` is taken only where a parent is known to be there (hand-offs).
                tests_inner = (held is not None or (each is not None and each.startswith("each/"))
                               or (parent and bool(self.handed)))
            if word == "if" or final_else:
                scope = inner
            elif parent and not branches:
                scope = moved | {"@parent"}  # only asked inside a parent
            elif word == "with" and held is not None:
                scope = moved | {"." if held == "text" else f".={held}"}
            elif word == "range":
                # A loop body runs again after its own ``$x = …``: those hold nothing known.
                scope = frozenset(e for e in moved if _name(e) not in self.reassigned)
                if over is not None and each is not None and each.startswith("each/"):
                    element = each[len("each/"):]
                    names = [name for name in (over.group(2) or over.group(1),) if name]
                    introduced.update(names)
                    scope |= {name if element == "text" else f"{name}={element}" for name in [".", *names]}
            else:
                scope = moved
            shown, ended, rest, out = self.sequence(scope)
            # A ``break`` in a loop's own body ends that loop, not the branch around it.
            escapes = escapes or (self.escapes and not (first == "range" and not branches))
            branches.append(shown)
            outs.append(out)
            if ended != "else":
                break
            if final_else:
                return False, inner  # a second else: not a template Go accepts
            word, condition = _keyword(rest)
            final_else = word not in ("if", "with")
        kept = frozenset(e for e in inner if not _is_variable(e) or _name(e) in introduced)
        self.escapes = escapes and first not in ("define", "block")
        if word in ("define", "block"):
            return False, inner
        if tests_inner:
            ways = outs[:1]
        elif final_else and first != "range":
            ways = outs
        else:
            ways = [*outs, inner]
        variables = frozenset.intersection(*(frozenset(e for e in way if _is_variable(e)
                                                       and _name(e) not in introduced) for way in ways))
        after = kept | variables
        if tests_inner:
            return branches[0], after
        return final_else and all(branches), after


# ``partial "note" .``, ``partialCached "docs/note.html" $ "key"``: the partials a template calls.
_PARTIAL_CALL = re.compile(r'\bpartial(?:Cached)?\s+"([^"\\]+)"')
_MAX_PARTIAL_DEPTH = 8
# ``range $i, $e := X``, ``range $e := X``, ``range X``.
_RANGE = re.compile(r"(?:(\$\w+)\s*(?:,\s*(\$\w+)\s*)?:=\s*)?(.+)", re.DOTALL)


def outputs_inner(template: str, handed: frozenset[tuple[str, str, bool]] = frozenset(), *,
                  partials: Mapping[str, tuple[str, ...]] | None = None, unsafe: bool = False,
                  _depth: int = 0) -> bool:
    """Whether a Hugo shortcode template outputs its interior (``.Inner`` or
    ``.InnerDeindent``, bare or through output functions such as ``markdownify``,
    ``safeHTML``, ``.Page.RenderString``) on every path: each ``if``/``with``/``range``
    needs an ``else`` and every branch showing it (``{{ if .Inner }}`` and ``{{ with
    .Inner }}`` excepted: not taken, there is no interior); a mention in a comment, an
    assignment never shown, ``len .Inner``, a ``define`` are no output (issue 24).
    ``handed``: hand-offs to the parent (``$.Parent.Store.Add "tabs" (slice (dict
    "content" .Inner))``, as :func:`handoffs` gives them) that count as output, because
    the parent prints them (:func:`prints_stored`). ``partials``: the site's partial
    templates by name (lower case, no ``.html``): ``{{ partial "note" . }}`` (or
    ``partialCached``, or ``$`` for the dot) shows the interior when every variant of
    that partial does; an unknown one does not (fail closed). What is printed after
    markup an argument may carry (``safeHTML``, ``htmlUnescape``; ``markdownify`` and
    ``.RenderString`` too when ``unsafe``, Goldmark's ``markup.goldmark.renderer.unsafe``)
    or after a partial that may leave an element open (:func:`leaves_open`; an unknown
    partial may) is not shown."""
    if len(template) > _MAX_TEMPLATE or _depth > _MAX_PARTIAL_DEPTH:
        return False  # not read: may hide it (fail closed)
    reads: dict[str, str] = {}
    opens: set[str] = set()
    for name in {found.lower().removesuffix(".html") for found in _PARTIAL_CALL.findall(template)}:
        texts = (partials or {}).get(name, ())
        if texts and all(outputs_inner(text, partials=partials, unsafe=unsafe, _depth=_depth + 1) for text in texts):
            reads[f"partial:{name}"] = "text"
        if not texts or any(leaves_open(text, unsafe=unsafe) for text in texts):
            opens.add(name)
    return _Template(template, reads=reads, handed=handed, unsafe=unsafe,
                     opens=frozenset(opens)).sequence(frozenset(_SHORTCODE))[0]


def handoffs(template: str) -> frozenset[tuple[str, str, bool]]:
    """The hand-offs of the interior to the parent shortcode a template makes somewhere:
    ``(where, shape, overwrites)`` — ``where`` is ``Store:KEY`` or ``Scratch:KEY``,
    ``shape`` what holds the text (``"text"``, ``"each/dict:content/text"`` for a list or
    map of dicts whose ``content`` it is), ``overwrites`` whether a later sibling's may
    replace it (``Set``, ``SetInMap``; ``Add`` of a list or text appends)."""
    if len(template) > _MAX_TEMPLATE:
        return frozenset()
    reading = _Template(template)
    reading.sequence(frozenset(_SHORTCODE))
    return frozenset(reading.handoffs)


def prints_stored(template: str, where: str, shape: str) -> bool:
    """Whether a parent shortcode template prints, on every path, the interior a child
    stored in its ``where`` (``Store:KEY``/``Scratch:KEY``) as ``shape`` (:func:`handoffs`):
    ``{{ range $tab := .Store.Get "tabs" }}{{ $tab.content | markdownify }}{{ end }}``,
    ``index``/fields of a stored map. A template that writes that key itself may replace
    what children stored: never."""
    if len(template) > _MAX_TEMPLATE:
        return False
    reading = _Template(template, reads={where: shape})
    # The children run when the parent asks for its ``.Inner`` (Docsy's tabpane does): a
    # parent that never does may find nothing stored (fail closed).
    if where in reading.writes or not any(_THE_INNER.search(text) for _, text, _ in reading.actions):
        return False
    return reading.sequence(frozenset({"@dot", "@root"}))[0]


@lru_cache(maxsize=256)
def shown_through_parent(child: tuple[str, ...], parent: tuple[str, ...], last: bool) -> bool:
    """Whether a paired shortcode with the template variants ``child`` shows its interior
    inside one with the variants ``parent``: each child variant, on every path, hands it
    to the parent in a way each parent variant prints (``last``: no shortcode follows it
    in the parent, so a hand-off that overwrites counts too). Either unknown: no."""
    if not child or not parent:
        return False
    tokens = set().union(*(handoffs(text) for text in child))
    printed = frozenset(token for token in tokens if (last or not token[2])
                        and all(prints_stored(text, token[0], token[1]) for text in parent))
    return bool(printed) and all(outputs_inner(text, printed) for text in child)


_SHORTCODE_FOLDERS = ("layouts/shortcodes", "layouts/_shortcodes")
_PARTIAL_FOLDERS = ("layouts/partials", "layouts/_partials")


@lru_cache(maxsize=64)
def _templates_in(folders: tuple[tuple[str, int, bool], ...]) -> Mapping[str, tuple[str, ...]]:
    found: dict[str, tuple[str, ...]] = {}
    site: dict[str, tuple[str, ...]] = {}
    for folder, _, theme in folders:
        names: dict[str, list[str]] = {}
        for path in sorted(Path(folder).rglob("*.html")):
            try:
                text = path.read_text("utf-8", errors="replace")
            except OSError:
                continue
            # ``docs/aside.html`` is ``{{< docs/aside >}}``; ``note.en.html`` a variant of ``note``.
            name = "/".join([*path.relative_to(folder).parent.parts, path.name.split(".", 1)[0]]).lower()
            names.setdefault(name, []).append(text)
        for name, texts in names.items():
            # The site's own template overrides a theme's. Within the site (``shortcodes``
            # and ``_shortcodes``), and between themes (their order is the configuration's,
            # not read here), which one Hugo picks is not established: every candidate
            # counts, as a variant (fail closed, attacker, issue 24).
            if theme and name in site:
                continue
            found[name] = (*found.get(name, ()), *texts)
            if not theme:
                site[name] = found[name]
    return found


def _present(site: Path, subfolders: tuple[str, ...]) -> list[tuple[str, int, bool]]:
    """``(path, mtime, a theme's)`` of each of ``subfolders`` in ``site`` and its themes."""
    found = []
    for base in [site, *sorted(p for p in (site / "themes").glob("*") if p.is_dir())]:
        for sub in subfolders:
            try:
                found.append((str(base / sub), os.stat(base / sub).st_mtime_ns, base != site))
            except OSError:
                continue
    return found


def _folders(root: Path, partials: bool = False) -> tuple[tuple[str, int, bool], ...]:
    """The shortcode folders of the site around ``root``: ``(path, mtime, a theme's)``;
    ``partials``: the partial folders of the site whose shortcode folders those are."""
    for site in (root, root.parent, root.parent.parent):  # ``content/en`` as the content root too
        if folders := _present(site, _SHORTCODE_FOLDERS):
            return tuple(_present(site, _PARTIAL_FOLDERS) if partials else folders)
    return ()


def shortcode_templates(root: Path) -> Mapping[str, tuple[str, ...]]:
    """The Hugo shortcode templates of the site around ``root`` (its folder, parent or
    grandparent: the first holding shortcode templates), by name in lower case
    (``docs/aside`` for ``layouts/shortcodes/docs/aside.html``), each a tuple of its
    variants' texts (``note.en.html`` too); the site's ``layouts`` override its themes';
    a name in both of the site's folders, or in several themes, has every candidate as a
    variant (fail closed)."""
    folders = _folders(root)
    return _templates_in(folders) if folders else {}


@lru_cache(maxsize=64)
def _silent_in(folders: tuple[tuple[str, int, bool], ...],
               partial_folders: tuple[tuple[str, int, bool], ...] = (), unsafe: bool = False) -> frozenset[str]:
    # Any variant of the template that may not output ``.Inner`` can drop it.
    partials = _templates_in(partial_folders) if partial_folders else {}
    return frozenset(name for name, texts in _templates_in(folders).items()
                     if any(not outputs_inner(text, partials=partials, unsafe=unsafe) for text in texts))


def goldmark_unsafe(root: Path) -> bool:
    """Whether the Hugo site around ``root`` (its folder, parent or grandparent: the first
    with a site configuration) sets ``markup.goldmark.renderer.unsafe`` (in any of its
    configuration files, per language too): raw HTML in markdown is then written as it
    is, through ``markdownify`` and ``.RenderString`` too. ``True`` when a configuration
    file cannot be read (fail closed); ``False`` without one (Hugo's default). Never raises."""
    from .generated_pages import hugo_config_maps

    for site in (root, root.parent, root.parent.parent):
        maps = hugo_config_maps(site)
        if maps is None:
            return True
        if not maps:
            continue
        for data in maps:
            languages = data.get("languages")
            scopes = [data, *(v for v in languages.values() if isinstance(v, dict))] if isinstance(
                languages, dict) else [data]
            for scope in scopes:
                value: Any = scope
                for key in ("markup", "goldmark", "renderer", "unsafe"):
                    value = {str(k).lower(): v for k, v in value.items()}.get(key) if isinstance(value, dict) else None
                if value is not None and value is not False:
                    return True
        return False
    return False


def silent_shortcodes(root: Path) -> frozenset[str]:
    """Names (lower case) of the Hugo shortcodes of the site around ``root`` (its folder,
    parent or grandparent: the first holding shortcode templates) with a template that
    may not output ``.Inner`` (:func:`outputs_inner`, with the site's
    :func:`goldmark_unsafe`): a paired one may hide its interior. The site's
    ``layouts`` come before its themes'."""
    folders = _folders(root)
    return _silent_in(folders, _folders(root, partials=True), goldmark_unsafe(root)) if folders else frozenset()


def _spaces(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


def _blank_variables(body: str, delimiters: Delimiters, raw: re.Pattern[str],
                     in_code: Callable[[list[tuple[int, int]]], set[int]] | None
                     ) -> tuple[str, re.Match[str] | None]:
    """``body`` with each expression between the variable delimiters (``{{ … }}``, or the
    macros plugin's own: ``[[ "secret" if false ]]``) blanked — only those ``in_code``
    finds shown as code when it is given — and the first opening never closed. What
    ``{% raw %}`` holds is text."""
    start, end = re.escape(delimiters.variable_start), re.escape(delimiters.variable_end)
    held = [(m.start(), m.end()) for m in raw.finditer(body)]
    found = [m for m in re.finditer(start + r".*?(?:" + end + r"|\Z)", body, re.DOTALL)
             if not any(a <= m.start() < b for a, b in held)]
    closed = [m for m in found if m.group(0).endswith(delimiters.variable_end) and m.end() - m.start() >= len(
        delimiters.variable_start) + len(delimiters.variable_end)]
    left = next((m for m in found if m not in closed), None)
    unclosed = re.compile(start).match(body, left.start()) if left is not None else None
    if in_code is not None and closed:
        shown = in_code([(m.start(), m.end()) for m in closed])
        closed = [m for i, m in enumerate(closed) if i in shown]
    out, position = [], 0
    for match in closed:
        out += [body[position:match.start()], _spaces(match)]
        position = match.end()
    out.append(body[position:])
    return "".join(out), unclosed


def _blank(text: str) -> str:
    return "\n" * text.count("\n")


_Tag = tuple[str, bool, re.Match[str]]  # (name, closing, the tag)
_Pair = tuple[str, re.Match[str], re.Match[str], bool]  # (name, opening, closing, outermost)


def _pairs(tags: Iterable[_Tag]) -> tuple[list[_Pair], list[tuple[str, re.Match[str]]]]:
    """Each closing tag with the nearest opening of its name still open (those opened
    after it close with it), and the openings never closed, outermost first; a closing
    tag never opened is skipped."""
    pairs: list[_Pair] = []
    stack: list[tuple[str, re.Match[str]]] = []
    for name, closing, tag in tags:
        if not closing:
            stack.append((name, tag))
            continue
        depth = next((i for i in range(len(stack) - 1, -1, -1) if stack[i][0] == name), None)
        if depth is None:
            continue
        opened = stack[depth][1]
        del stack[depth:]
        pairs.append((name, opened, tag, not stack))
    return pairs, stack


def _liquid_spans(body: str, dialect: str, delimiters: Delimiters) -> list[tuple[int, int, int, int, bool]]:
    """Outermost constructs as ``(start of open tag, end of open tag, start of close tag,
    end of close tag, dropped)``; an unclosed one ends at the end of the body."""
    tag_pattern, raw_pattern = _patterns(delimiters)[:2]
    raw = [(m.start(), m.end()) for m in raw_pattern.finditer(body)]

    def tags() -> Iterator[_Tag]:
        for tag in tag_pattern.finditer(body):
            closing, name = bool(tag.group(1)), tag.group(2).lower()
            if (name in _HIDDEN[dialect] or name in _DROPPED[dialect]) and not any(
                    start < tag.start() < end for start, end in raw):
                if not closing and name == "set" and "=" in tag.group(3):
                    continue  # {% set x = "…" %}: an assignment, no block
                yield name, closing, tag

    pairs, unclosed = _pairs(tags())
    # A closed Liquid comment: plaintext drops it.
    spans = [(opened.start(), opened.end(), closed.start(), closed.end(), name in _DROPPED[dialect])
             for name, opened, closed, outermost in pairs if outermost and name != "comment"]
    if unclosed:
        name, opened = unclosed[0]
        spans.append((opened.start(), opened.end(), len(body), len(body), name in _DROPPED[dialect]))
    return spans


def _hugo_spans(body: str, silent: frozenset[str],
                templates: Mapping[str, tuple[str, ...]]) -> list[tuple[int, int, int, int, bool]]:
    """Hugo's comment shortcode (one never closed drops the rest) and each paired
    shortcode of ``silent`` (one never closed is a shortcode without interior), but for
    the children a silent one's parent prints (:func:`shown_through_parent`, Docsy's
    ``tab`` in ``tabpane``): those keep their interior, the rest of the parent's goes."""
    spans = []
    depth = 0
    opened: re.Match[str] | None = None
    for tag in _HUGO_COMMENT.finditer(body):
        if tag.group(2) is None:
            if depth == 0:
                opened = tag
            depth += 1
        elif depth > 0:
            depth -= 1
            if depth == 0 and opened is not None:
                spans.append((opened.start(), opened.end(), tag.start(), tag.end(), True))
    if depth > 0 and opened is not None:
        spans.append((opened.start(), opened.end(), len(body), len(body), True))
    if silent or ".inline" in body.lower():
        # The comment: above; ``{{< x />}}``: self-closed.
        tags = [tag for tag in _HUGO_SHORTCODE.finditer(body) if tag.group(3).lower() != "comment"]
        pairs, _ = _pairs((tag.group(3).lower(), tag.group(2) is not None, tag) for tag in tags if not tag.group(5))

        def parent(i: int) -> int | None:
            """The nearest pair around pair ``i``: the shortcode's ``.Parent``."""
            start, end = pairs[i][1].start(), pairs[i][2].end()
            around = [j for j, pair in enumerate(pairs) if pair[1].start() < start and end <= pair[2].end()]
            return min(around, key=lambda j: pairs[j][2].end() - pairs[j][1].start(), default=None)

        parents = {i: parent(i) for i in range(len(pairs))} if templates else {}
        shown = set()
        for i, (name, _, closed, _) in enumerate(pairs):
            up = parents.get(i)
            if name in silent and up is not None:
                # A later sibling may overwrite what this one stored with ``Set``.
                last = not any(closed.end() <= tag.start() < pairs[up][2].start() for tag in tags)
                if shown_through_parent(templates.get(name, ()), templates.get(pairs[up][0], ()), last):
                    shown.add(i)
        for i, (name, opened_, closed, _) in enumerate(pairs):
            # An inline shortcode's interior is a template (its logic not evaluated here), and
            # Hugo renders none of it unless ``enableInlineShortcodes`` is on: dropped.
            if (name not in silent and not name.endswith(".inline")) or i in shown:
                continue
            position = opened_.start()
            for child in sorted((j for j in shown if parents.get(j) == i), key=lambda j: pairs[j][1].start()):
                start = pairs[child][1].start()
                spans.append((position, position, start, start, True))
                position = pairs[child][2].end()
            spans.append((position, position, closed.end(), closed.end(), True))
        spans.sort()
    return spans


def _outside_comments(body: str, spans: list[tuple[int, int, int, int, bool]],
                      in_code: Callable[[list[tuple[int, int]]], set[int]] | None
                      ) -> list[tuple[int, int, int, int, bool]]:
    """``spans`` with each tag written inside an HTML comment widened to the whole comment:
    the tag still runs (the engine renders before Markdown), and its marker then stands
    outside the comment, where it is a marker. A ``<!--`` shown as code opens no comment;
    a construct with both tags in one comment is left to the marker rules (fail closed)."""
    if "<!--" not in body or not spans:
        return spans
    comments = [(m.start(), m.end()) for m in _HTML_COMMENT.finditer(body)]
    if comments and in_code is not None:
        coded = in_code([(start, start + 4) for start, _ in comments])
        comments = [span for i, span in enumerate(comments) if i not in coded]
    if not comments:
        return spans

    def around(start: int, end: int) -> tuple[int, int]:
        for c_start, c_end in comments:
            if c_start < start and end <= c_end:
                return c_start, c_end
        return start, end

    out = []
    for span in spans:
        open_start, open_end = around(*span[:2])
        close_start, close_end = around(*span[2:4]) if span[2] < span[3] else span[2:4]
        out.append((open_start, open_end, close_start, close_end, span[4]) if open_end <= close_start else span)
    return out


def mark_template_blocks(body: str, dialect: str | None,
                         in_code: Callable[[list[tuple[int, int]]], set[int]] | None = None, *,
                         delimiters: Delimiters = DEFAULT_DELIMITERS,
                         silent: frozenset[str] = frozenset(),
                         templates: Mapping[str, tuple[str, ...]] | None = None) -> str:
    """``body`` with each template conditional/capture/loop interior between
    internal-section markers and each comment construct blanked (module docstring).
    ``dialect``: a value of :data:`DIALECT_OF_LAYOUT` or ``None`` (the body is returned
    unchanged); ``in_code``: the indexes of ``(start, end)`` spans of ``body`` a reader
    sees as code; ``delimiters``: Jinja's (:func:`jinja_delimiters`); ``silent``: Hugo
    shortcodes that drop their interior (:func:`silent_shortcodes`); ``templates``: the
    site's shortcode templates (:func:`shortcode_templates`), read to keep a silent
    child its parent prints (:func:`shown_through_parent`). Tags shown as code
    run as any other (Liquid and MkDocs' macros render before Markdown; ``{% raw %}`` is
    how a page shows them as written, and is honoured), but a marker placed beside them
    would be code text: such a construct is dropped whole, for everyone (fail closed).
    Never raises; the result has as many newlines as ``body``."""
    if dialect is None or ("{" not in body and delimiters == DEFAULT_DELIMITERS):
        return body
    if dialect == "hugo":
        spans = _hugo_spans(body, silent, templates or {})
    elif dialect in _HIDDEN:
        marks = delimiters if dialect == "jinja" else DEFAULT_DELIMITERS
        unclosed = None
        _, raw, comment, comment_open = _patterns(marks)
        if dialect == "jinja":
            # Spaces keep every offset and line.
            body = comment.sub(_spaces, body)
            unclosed = comment_open.search(body)
        # Expressions run in code too (the engine renders before Markdown), where the
        # text keeps what is written: their values are not known here, so no text.
        # :mod:`provider.wiki.plaintext` drops ``{{ … }}`` in prose after the marker rules
        # have read it (``{{< internal >}}`` is a would-be marker there): code only.
        custom = (marks.variable_start, marks.variable_end) != ("{{", "}}")
        body, unclosed_variable = _blank_variables(body, marks, raw, None if custom else in_code)
        if dialect == "jinja":  # Liquid's lax mode shows a lone ``{{`` as written
            unclosed = min((u for u in (unclosed, unclosed_variable) if u is not None),
                           key=lambda u: u.start(), default=None)
        spans = _liquid_spans(body, dialect, marks)
        if unclosed is not None:
            # A comment or expression never closed: Jinja refuses the page; hide the rest (fail closed).
            spans = sorted([*spans, (unclosed.start(), unclosed.end(), len(body), len(body), False)])
    else:
        return body
    hidden = [i for i, span in enumerate(spans) if not span[4]]
    if hidden and in_code is not None:
        tags = [spans[i][:2] for i in hidden]
        closers = [i for i in hidden if spans[i][2] < spans[i][3]]
        coded = in_code(tags + [spans[i][2:4] for i in closers])
        drop = {hidden[i] if i < len(hidden) else closers[i - len(hidden)] for i in coded}
        spans = [(*span[:4], True) if i in drop else span for i, span in enumerate(spans)]
    if dialect != "hugo":
        spans = _outside_comments(body, spans, in_code)
    out: list[str] = []
    position = 0
    for open_start, open_end, close_start, close_end, dropped in spans:
        if open_start < position:
            continue
        out.append(body[position:open_start])
        if dropped:
            out.append(_blank(body[open_start:close_end]))
        else:
            out += [body[open_start:open_end], _OPEN_MARK, body[open_end:close_start], _CLOSE_MARK,
                    body[close_start:close_end]]
        position = close_end
    out.append(body[position:])
    return "".join(out)
