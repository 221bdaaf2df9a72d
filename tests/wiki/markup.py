"""A plain-text check shared by the wiki tests (CONTRACT R3, O3).

``assert_no_markup(text)`` fails when ``text`` still contains anything that is markup:
HTML/JSX tags (even a bare ``<tag`` or ``</``), HTML comments, character entities,
Markdown link/image syntax, code fences, heading markers, emphasis markers, Hugo
shortcodes and Liquid/Jinja template tags.

``code=True`` is for text that may legitimately contain *code* a reader sees (shell
comments starting with ``#``, heredocs ``<<EOF``, ``a[0](b)``, a ``` inside a longer
fence): then only what is markup in any context is refused — a complete HTML tag, an
HTML comment, an entity, a template tag.

Code reaches a snippet exactly as written (``<div class="x">``, ``__init__.py``), so text
that mixes prose and code is checked with :func:`assert_no_prose_markup`, which leaves
out the words of the document's code first.
"""

from __future__ import annotations

import re

__all__ = ["assert_no_markup", "assert_no_prose_markup", "code_words", "markup_problems"]

# (label, pattern, also checked in code mode)
_CHECKS: list[tuple[str, re.Pattern[str], bool]] = [
    ("complete HTML tag", re.compile(r"</?[A-Za-z][A-Za-z0-9:._-]*(?:\s[^<>]*)?/?>"), True),
    ("HTML comment", re.compile(r"<!--"), True),
    ("HTML entity", re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});"), True),
    ("template tag", re.compile(r"\{\{|\{%"), True),
    ("start of a tag", re.compile(r"<[A-Za-z!?]"), False),
    ("closing tag", re.compile(r"</"), False),
    ("template end", re.compile(r"\}\}|%\}"), False),
    ("Markdown link", re.compile(r"\]\("), False),
    ("Markdown image", re.compile(r"!\["), False),
    ("code fence", re.compile(r"```|~~~"), False),
    ("heading marker", re.compile(r"(?:^|\n)[ \t]{0,3}#{1,6}(?:[ \t]|$)", re.MULTILINE), False),
    ("bold markers", re.compile(r"\*\*[^*\s][^*]*\*\*"), False),
]


def markup_problems(text: str, *, code: bool = False) -> list[str]:
    """Labels of the kinds of markup found in ``text`` (empty for plain text)."""
    return [label for label, pattern, in_code in _CHECKS if (in_code or not code) and pattern.search(text)]


def assert_no_markup(text: str, *, code: bool = False) -> None:
    """Fail if ``text`` contains markup (see the module docstring)."""
    problems = markup_problems(text, code=code)
    assert not problems, f"markup {problems} in {text!r}"


def code_words(code_texts: list[str] | tuple[str, ...]) -> frozenset[str]:
    """Every whitespace-separated word of the given code texts."""
    return frozenset(word for text in code_texts for word in text.split())


def assert_no_prose_markup(text: str, code: frozenset[str]) -> None:
    """Fail if ``text``, with every word of the document's code (:func:`code_words`) cut
    out of it, contains markup."""
    prose = text
    for word in sorted(code, key=len, reverse=True):
        prose = prose.replace(word, " ")
    assert_no_markup(prose)
