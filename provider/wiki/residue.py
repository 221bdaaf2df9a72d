"""The syntax docs tools add to Markdown, as it would look left in plain text.

:mod:`provider.wiki.dialects` takes each tool's syntax out of the text a snippet shows
(CONTRACT R3); :func:`dialect_residue` finds what of it is left, by kind. The tests of the
dialects and ``bench/residue.py`` (the share of real snippets with residue on every
corpus) measure the text the provider serves with it.
"""

from __future__ import annotations

import re

__all__ = ["DIALECT_RESIDUE", "dialect_residue"]


#: The syntax docs tools add to Markdown (:mod:`provider.wiki.dialects`), as it would look
#: left in plain text (CONTRACT R3): (label, pattern). Run on prose only — code may hold
#: any of it.
DIALECT_RESIDUE: list[tuple[str, re.Pattern[str]]] = [
    ("pymdown block fence", re.compile(r"(?:^|\s)/{3,}(?:[ \t]*[A-Za-z][\w-]*(?:[ \t]*\||\s|$)|\s|$)")),
    ("include line", re.compile(r"\{\*|\*\}|\{!|!\}|-{1,2}8<-{1,2}")),
    ("colon fence", re.compile(r"(?:^|\s):::+[ \t]*[A-Za-z]|(?:^|\s):::+(?:\s|$)")),
    # Only with an admonition type: "!!! Take care" is an author's own emphasis.
    ("admonition marker", re.compile(
        r"(?:^|\s)(?:!!!|\?\?\?\+?)[ \t]*(?:note|abstract|summary|tldr|info|todo|tip|hint|important|success|check"
        r"|done|question|help|faq|warning|caution|attention|failure|fail|missing|danger|error|bug|example|quote"
        r"|cite|seealso)\b")),
    ("content tab", re.compile(r"===[+!]{0,2}[ \t]+\"")),
    ("attribute list", re.compile(r"\{[ \t]*:?[ \t]*[.#][A-Za-z][\w-]*[^{}\n]*\}|\{:[^{}\n]*\}")),
    ("image style marker", re.compile(r"(?<!\S)\\?\*[a-z_]*border\b")),
    ("cross-reference", re.compile(r"(?<![\w\]])\[[^\[\]\n]+\]\[[^\]\s]*\]")),
    ("alert or directive", re.compile(r"\[!(?:NOTE|TIP|IMPORTANT|CAUTION|WARNING|INCLUDE|div|VIDEO)\b", re.I)),
    ("keys", re.compile(r"\+\+[a-z][\w-]*\+[\w+-]*\+\+")),
]


def dialect_residue(text: str) -> list[str]:
    """Labels of the docs-tool syntax left in ``text`` (empty for plain text)."""
    return [label for label, pattern in DIALECT_RESIDUE if pattern.search(text)]
