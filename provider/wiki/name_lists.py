"""Lists of names in a text: people, customers, partners (rule 6d, CONTRACT X2).

An internal page's list of customers (``Acme Logistics``, ``Borealis Foods``…) or of the
people on an escalation rota is short items, each under rule 6d's 6-word unit floor, so
no item is a unit, and a public page repeating the names in another order, one per line
or in one sentence, held none of the page's runs. :func:`name_lists` finds such lists;
rule 6d (:mod:`provider.wiki.containment`) makes each one a unit of its words.

A **name** is 1 to :data:`MAX_NAME_WORDS` words each starting with a capital letter and
otherwise letters (``Jane Doe``, ``O'Brien``, ``J. Smith``); a **list** is
:data:`MIN_NAMES` names or more, either consecutive blocks that are each one name (list
items, table cells), or one block of names separated by commas, semicolons or "and"
(after an optional ``Label:``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["MAX_NAME_WORDS", "MIN_NAMES", "name_lists", "person_names"]

#: Words a name has at most.
MAX_NAME_WORDS = 4
#: Names a list has at least.
MIN_NAMES = 3

_SEPARATORS = re.compile(r"\s*(?:[,;、，；]|\band\b|\bund\b|\bet\b|\by\b)\s*")
_LABEL = re.compile(r"^[^:,]{1,40}:\s*")


def _is_name_word(word: str) -> bool:
    if not word[0].isupper() or not word[0].isalpha():
        return False
    rest = word[1:]
    # "J." an initial; "Doe" a name; "SharePoint", "PowerShell", "IIS": product names.
    return rest == "." or rest == "" or (rest.isalpha() and rest.islower())


def _is_name(piece: str) -> bool:
    found = piece.split()
    return 1 <= len(found) <= MAX_NAME_WORDS and all(_is_name_word(word) for word in found)


def _inline(text: str) -> list[str]:
    pieces = [p.strip(" .") for p in _SEPARATORS.split(_LABEL.sub("", text)) if p.strip(" .")]
    return pieces if len(pieces) >= MIN_NAMES and all(_is_name(p) for p in pieces) else []


def name_lists(blocks: Sequence[str]) -> list[list[str]]:
    """The lists of names in ``blocks`` (single-line texts, in order): each list's names
    as written (see the module docstring)."""
    found: list[list[str]] = []
    run: list[str] = []
    for text in [*blocks, ""]:
        stripped = text.strip(" .")
        if stripped and _is_name(stripped):
            run.append(stripped)
            continue
        if len(run) >= MIN_NAMES:
            found.append(run)
        run = []
        if stripped:
            inline = _inline(stripped)
            if inline:
                found.append(inline)
    return found


#: Words that open a sentence or a table cell in capitals without being part of a name
#: ("The Supervisor", "Call Dana Whitfield", "Ask Priya Raman").
_OPENERS = frozenset((
    "a an the this that these those our your their my his her its we you they it if when for to in on at by "
    "from with call contact ask email ping page see use escalate phone ring text message"
).split())
#: Where a table row's cells, a sentence, a clause or a bracket end: a name never spans one.
_PIECES = re.compile(r"\s+·\s+|(?<!\b[A-Z])\.+(?:\s+|$)|[!?;:,()\[\]{}|/\"“”]+(?:\s+|$)|\s+[-–—]\s+")


def person_names(text: str) -> list[str]:
    """The names of people in one block ``text`` (a hidden block: CONTRACT X2, rule 6d):
    each run of 2 to :data:`MAX_NAME_WORDS` capitalised name words (``Dana Whitfield``,
    ``J. Smith``) inside one table cell, sentence or clause, less a capitalised opener
    (``Call``, ``The``: :data:`_OPENERS`). Runs of more words are titles, not names."""
    found: list[str] = []
    for piece in _PIECES.split(text):
        run: list[str] = []
        for word in [*piece.split(), ""]:
            bare = word.strip("'’`*_")
            if bare and _is_name_word(bare) and not (not run and bare.casefold() in _OPENERS):
                run.append(bare)
                continue
            if 2 <= len(run) <= MAX_NAME_WORDS:
                found.append(" ".join(run))
            run = []
    return list(dict.fromkeys(found))
