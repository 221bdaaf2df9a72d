"""Detect markup in text that must be plain (CONTRACT R3, O3; §4.4, §4.6).

The core renders ``title`` and ``snippet`` as escaped text, so any markup a provider
leaves in shows up literally in front of an agent or a customer. These patterns find
what would be markup if something rendered it: HTML/XML/JSX tags and comments,
character entities, Markdown link/image/emphasis/heading/code/table syntax, and
template tags (Jinja/Liquid/Hugo shortcodes).

They are tuned to avoid flagging ordinary prose: ``a < b and b > c``, a single ``*``
or ``#`` (``C#``, ``issue #4``), ``[1]`` footnote marks and ``INV-{####}`` pass.
"""

from __future__ import annotations

import re

__all__ = ["markup_in"]

_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # A tag starts "<name" or "</name" with no space after "<" (as HTML parsers require);
    # the second form catches a tag cut off by a snippet boundary ("<a href=...").
    (re.compile(r"</?[A-Za-z][A-Za-z0-9:.-]*(?:\s[^<>]*)?/?>"), "HTML/XML tag"),
    (re.compile(r"</?[A-Za-z][A-Za-z0-9:.-]*\s+[A-Za-z:@-]+\s*="), "HTML/XML tag"),
    (re.compile(r"<!--|-->"), "HTML comment"),
    (re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});"), "HTML entity"),
    (re.compile(r"!\[[^\]\n]*\]"), "Markdown image"),
    (re.compile(r"\[[^\]\n]*\]\([^)\n]*\)"), "Markdown link"),
    (re.compile(r"(?:^|\n)\s{0,3}\[[^\]\n]+\]:\s*\S"), "Markdown link definition"),
    (re.compile(r"\*\*[^*\n]+\*\*|__[^_\n]+__"), "Markdown bold"),
    (re.compile(r"(?:^|\n)\s{0,3}#{1,6}\s"), "Markdown heading"),
    (re.compile(r"```|~~~"), "Markdown code fence"),
    (re.compile(r"`[^`\n]+`"), "Markdown inline code"),
    (re.compile(r"\|\s*:?-{3,}:?\s*\|"), "Markdown table rule"),
    # Jinja comments need the space ("{# note #}"): "INV-{####}" is a plain format string.
    (re.compile(r"\{\{|\}\}|\{%|%\}|\{#\s|\s#\}"), "template tag"),
)


def markup_in(text: str) -> list[str]:
    """The kinds of markup found in ``text``, each named once, in a fixed order.

    Returns:
        An empty list when ``text`` is plain text.
    """
    found: list[str] = []
    for pattern, label in _PATTERNS:
        if label not in found and pattern.search(text):
            found.append(label)
    return found
