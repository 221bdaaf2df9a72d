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

* ``liquid`` (Jekyll): ``if``, ``unless``, ``case``, ``capture`` (hidden); ``comment``
  (dropped);
* ``jinja`` (MkDocs): ``if``, ``macro``, ``call``, ``filter``, a block ``set`` without
  ``=`` (hidden); ``{# … #}`` (dropped);
* ``hugo``: ``{{% comment %}}…{{% /comment %}}`` and ``{{< comment >}}…{{< /comment >}}``
  (dropped).

Nesting counts: the outermost construct decides. An opening tag never closed hides (or
drops) everything after it (fail closed); a closing tag never opened is left as it is.
Line structure is kept (only newlines survive a drop), so line numbers stay true.
"""

from __future__ import annotations

import re

__all__ = ["DIALECT_OF_LAYOUT", "mark_template_blocks"]

#: The template dialect each layout's tool runs over a page.
DIALECT_OF_LAYOUT = {"jekyll": "liquid", "mkdocs": "jinja", "hugo": "hugo"}

_OPEN_MARK = "<!-- internal -->"
_CLOSE_MARK = "<!-- /internal -->"

_TAG = re.compile(r"\{%-?\s*(end)?([a-zA-Z]+)\b((?:[^%]|%(?!\}))*)-?%\}")
_HIDDEN = {"liquid": frozenset({"if", "unless", "case", "capture"}),
           "jinja": frozenset({"if", "macro", "call", "filter", "set"})}
_DROPPED = {"liquid": frozenset({"comment"}), "jinja": frozenset()}
_JINJA_COMMENT = re.compile(r"\{#.*?(?:#\}|\Z)", re.DOTALL)
_HUGO_COMMENT = re.compile(r"\{\{([<%])\s*(/)?\s*comment\s*[>%]\}\}", re.IGNORECASE)


def _blank(text: str) -> str:
    return "\n" * text.count("\n")


def _liquid_spans(body: str, dialect: str) -> list[tuple[int, int, int, int, bool]]:
    """Outermost constructs as ``(start of open tag, end of open tag, start of close tag,
    end of close tag, dropped)``; an unclosed one ends at the end of the body."""
    spans = []
    stack: list[tuple[str, re.Match[str]]] = []
    for tag in _TAG.finditer(body):
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
        if not stack:
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


def mark_template_blocks(body: str, dialect: str | None) -> str:
    """``body`` with each template conditional/capture interior between internal-section
    markers and each comment construct blanked (module docstring). ``dialect``: a value
    of :data:`DIALECT_OF_LAYOUT` or ``None`` (the body is returned unchanged). Never
    raises; the result has as many newlines as ``body``."""
    if dialect is None or "{" not in body:
        return body
    if dialect == "hugo":
        spans = _hugo_spans(body)
    elif dialect in _HIDDEN:
        if dialect == "jinja":
            body = _JINJA_COMMENT.sub(lambda m: _blank(m.group(0)), body)
        spans = _liquid_spans(body, dialect)
    else:
        return body
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
