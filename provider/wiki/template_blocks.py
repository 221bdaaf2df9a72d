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

Tags inside ``{% raw %}…{% endraw %}`` are text; a construct whose tags are shown as code
is left as written (see :func:`mark_template_blocks`).

Nesting counts: the outermost construct decides. An opening tag never closed hides (or
drops) everything after it (fail closed); a closing tag never opened is left as it is.
Line structure is kept (only newlines survive a drop), so line numbers stay true.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path

from .sites.config_files import ConfigError, read_config

__all__ = ["DIALECT_OF_LAYOUT", "mark_template_blocks", "template_dialect"]

#: The template dialect each layout's tool runs over a page.
DIALECT_OF_LAYOUT = {"jekyll": "liquid", "mkdocs": "jinja", "hugo": "hugo"}

_OPEN_MARK = "<!-- internal -->"
_CLOSE_MARK = "<!-- /internal -->"

# ``{%-``/``-%}`` (both dialects) and ``{%+``/``+%}`` (Jinja) control whitespace only.
_TAG = re.compile(r"\{%[-+]?\s*(end)?([a-zA-Z]+)\b((?:[^%]|%(?!\})){0,2000})%\}")
# Loops too: a loop over nothing (``site.nothing``, ``(1..0)``, ``[]``) shows nothing.
_HIDDEN = {"liquid": frozenset({"if", "unless", "case", "capture", "comment", "for", "tablerow"}),
           "jinja": frozenset({"if", "macro", "call", "filter", "set", "for"})}
# What ``{% raw %}`` holds is shown as written, tags included (how a page documents them).
_RAW = re.compile(r"\{%[-+]?\s*raw\s*[-+]?%\}.*?(?:\{%[-+]?\s*endraw\s*[-+]?%\}|\Z)", re.DOTALL)
# Liquid ``comment`` is dropped by :mod:`provider.wiki.plaintext`, after the would-be
# marker rules (:mod:`provider.wiki.sections`) have read it: not dropped here.
_DROPPED: dict[str, frozenset[str]] = {"liquid": frozenset(), "jinja": frozenset()}
# ``{#-`` and ``{#+`` too; ``{#id}`` (a heading id, no space) is none.
_JINJA_COMMENT = re.compile(r"\{#[-+]?\s.*?#\}", re.DOTALL)
_JINJA_OPEN = re.compile(r"\{#[-+]?\s")
# With arguments too (``{{< comment "why" >}}``): Hugo ignores them and the text.
_HUGO_COMMENT = re.compile(r"\{\{([<%])\s*(/)?\s*comment\b[^>%{}]{0,500}[>%]\}\}", re.IGNORECASE)


_MKDOCS_CONFIGS = ("mkdocs.yml", "mkdocs.yaml")
_macros_cache: dict[tuple[str, int], bool] = {}


def _mkdocs_macros(root: Path) -> bool:
    """Whether the MkDocs site around ``root`` (its folder or parent) runs the ``macros``
    plugin; a configuration that cannot be read counts as yes (fail closed)."""
    for folder in (root, root.parent):
        for name in _MKDOCS_CONFIGS:
            path = folder / name
            try:
                mtime = os.stat(path).st_mtime_ns
            except OSError:
                continue
            key = (str(path), mtime)
            if key not in _macros_cache:
                try:
                    data = read_config(path)
                except (ConfigError, OSError):
                    _macros_cache[key] = True
                    return True
                plugins = data.get("plugins") if isinstance(data, Mapping) else None
                items = list(plugins) if isinstance(plugins, (list, Mapping)) else []
                names = [next(iter(i), "") if isinstance(i, Mapping) else i for i in items]
                if len(_macros_cache) > 64:
                    _macros_cache.clear()
                _macros_cache[key] = any(isinstance(n, str) and n.split("/")[-1] == "macros" for n in names)
            return _macros_cache[key]
    return False


def template_dialect(layout: str, root: Path) -> str | None:
    """The template dialect the site of ``layout`` at content root ``root`` runs over its
    pages: Liquid for Jekyll, Hugo's shortcodes, and Jinja for MkDocs only when the
    ``macros`` plugin is listed (without it MkDocs shows ``{% … %}`` as written)."""
    dialect = DIALECT_OF_LAYOUT.get(layout)
    if dialect == "jinja" and not _mkdocs_macros(root):
        return None
    return dialect


def _blank(text: str) -> str:
    return "\n" * text.count("\n")


def _liquid_spans(body: str, dialect: str) -> list[tuple[int, int, int, int, bool]]:
    """Outermost constructs as ``(start of open tag, end of open tag, start of close tag,
    end of close tag, dropped)``; an unclosed one ends at the end of the body."""
    spans = []
    stack: list[tuple[str, re.Match[str]]] = []
    raw = [(m.start(), m.end()) for m in _RAW.finditer(body)]
    for tag in _TAG.finditer(body):
        if any(start < tag.start() < end for start, end in raw):
            continue
        closing, name = bool(tag.group(1)), tag.group(2).lower()
        if name not in _HIDDEN[dialect] and name not in _DROPPED[dialect]:
            continue
        if not closing:
            if name == "set" and "=" in tag.group(3):
                continue  # {% set x = "…" %}: an assignment, no block
            stack.append((name, tag))
            continue
        depth = next((i for i in range(len(stack) - 1, -1, -1) if stack[i][0] == name), None)
        if depth is None:
            continue
        opened = stack[depth][1]
        del stack[depth:]
        if not stack and name != "comment":  # a closed Liquid comment: plaintext drops it
            spans.append((opened.start(), opened.end(), tag.start(), tag.end(), name in _DROPPED[dialect]))
    if stack:
        name, opened = stack[0]
        spans.append((opened.start(), opened.end(), len(body), len(body), name in _DROPPED[dialect]))
    return spans


def _hugo_spans(body: str) -> list[tuple[int, int, int, int, bool]]:
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
    return spans


def mark_template_blocks(body: str, dialect: str | None,
                         in_code: Callable[[list[tuple[int, int]]], set[int]] | None = None) -> str:
    """``body`` with each template conditional/capture/loop interior between
    internal-section markers and each comment construct blanked (module docstring).
    ``dialect``: a value of :data:`DIALECT_OF_LAYOUT` or ``None`` (the body is returned
    unchanged); ``in_code``: the indexes of ``(start, end)`` spans of ``body`` a reader
    sees as code. A construct whose opening or closing tag is shown as code is left as
    written: a marker there would be code text, and marker syntax shown as code is how a
    page documents it (a known gap: Liquid and MkDocs' macros render before Markdown, so
    such a tag runs on the site; ``{% raw %}`` is honoured). Never raises; the result has
    as many newlines as ``body``."""
    if dialect is None or "{" not in body:
        return body
    if dialect == "hugo":
        spans = _hugo_spans(body)
    elif dialect in _HIDDEN:
        if dialect == "jinja":
            # Spaces keep every offset and line.
            body = _JINJA_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), body)
        spans = _liquid_spans(body, dialect)
        unclosed = _JINJA_OPEN.search(body) if dialect == "jinja" else None
        if unclosed is not None:
            # A comment never closed: Jinja refuses the page; hide the rest (fail closed).
            spans = sorted([*spans, (unclosed.start(), unclosed.end(), len(body), len(body), False)])
    else:
        return body
    hidden = [i for i, span in enumerate(spans) if not span[4]]
    if hidden and in_code is not None:
        tags = [spans[i][:2] for i in hidden]
        closers = [i for i in hidden if spans[i][2] < spans[i][3]]
        coded = in_code(tags + [spans[i][2:4] for i in closers])
        shown = {hidden[i] if i < len(hidden) else closers[i - len(hidden)] for i in coded}
        spans = [span for i, span in enumerate(spans) if i not in shown]
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
