"""Look-alike text: how keys, values and markers are compared when only an exact match
may publish.

An author (or an attacker with commit rights) can write ``audience`` or ``internal`` in a
form that a reader sees as the word but a byte comparison does not: a soft hyphen or a
zero-width space inside it (editors show neither), full-width or mathematical letters,
Cyrillic ``і`` for Latin ``i``, a combining accent, a digit ``1`` for ``l``. The rule
everywhere in :mod:`provider.wiki` (CONTRACT X5, fail closed):

* only the **exact** ASCII spelling counts as the signal (``audience: public``,
  ``<!-- internal -->``), because that is what the docs tools themselves match;
* anything that merely **resembles** it (:func:`resembles`, :func:`mentions`) makes the
  document internal and quarantined — the provider cannot be sure what the author meant,
  and guessing wrong would publish internal text.

Folding (:func:`fold`), in order: Unicode NFKC (full-width and compatibility forms to
their plain letters), removal of default-ignorable code points (format characters such
as U+00AD SOFT HYPHEN, U+200B–U+200D, U+2060, bidi controls, variation selectors,
U+034F), removal of combining marks, case folding. Then each character is compared
through the Unicode confusables table (UTS #39, via the ``confusable_homoglyphs``
package): a character matches a Latin letter or digit it is listed as confusable with.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

__all__ = ["DROPPED", "Dropped", "fold", "latin_lookalikes", "mentions", "near", "resembles", "squash"]

#: Default-ignorable code points outside category Cf (UAX #44 Default_Ignorable_Code_Point).
_IGNORABLE_EXTRA = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0"
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))  # variation selectors
)


#: Default-ignorable characters a font draws as a blank (Hangul fillers): a reader sees a
#: gap between words, so folding makes them a space, never joins the words around them.
BLANK_FILLERS = frozenset("\u115f\u1160\u3164\uffa0")


def _ignorable(char: str) -> bool:
    if char in _IGNORABLE_EXTRA or 0xE0100 <= ord(char) <= 0xE01EF:
        return True
    return unicodedata.category(char) == "Cf"


class Dropped(dict[int, int | None]):
    """The ``str.translate`` table of what :func:`fold` does after NFD: default-ignorable
    code points and combining marks deleted, blank fillers made a space. Filled as
    characters are met, so each code point is classified once per process, not once per
    occurrence (whole CJK pages are folded)."""

    def __missing__(self, code: int) -> int | None:
        char = chr(code)
        if char in BLANK_FILLERS:
            self[code] = 32  # a gap the reader sees: a word break
            return 32
        kept = None if _ignorable(char) or unicodedata.category(char) in ("Mn", "Me") else code
        self[code] = kept
        return kept


#: The one :class:`Dropped` table of the process.
DROPPED = Dropped()


def fold(text: str) -> str:
    """``text`` as a reader sees it, for comparison: NFKC, without default-ignorable
    code points and combining marks, case-folded. Confusable letters are *not* mapped
    here (they are compared by :func:`resembles`)."""
    if text.isascii():
        # Normalisation leaves ASCII alone, and it has no ignorable code points (category
        # Cf) or combining marks: only case folding applies (keys are folded by the
        # thousand while a document's front matter is read).
        return text.casefold()
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text)).translate(DROPPED)
    return unicodedata.normalize("NFKC", text).casefold()


#: A Unicode name that says "this is the Latin letter X, drawn otherwise": small capitals
#: (``ɪ``, ``ᴛ``), modifier and superscript or subscript letters — look-alikes that the
#: confusables table does not list.
_NAMED_LATIN = re.compile(r"(?:LATIN (?:SMALL |CAPITAL |SUBSCRIPT SMALL )?LETTER|MODIFIER LETTER (?:SMALL|CAPITAL)"
                          r"|SUPERSCRIPT LATIN SMALL LETTER)(?: SMALL CAPITAL| CAPITAL)? ([A-Z])")


@lru_cache(maxsize=1)
def named_latin() -> dict[str, str]:
    """Each non-ASCII character whose Unicode name makes it a plain Latin letter
    (:data:`_NAMED_LATIN`) → that letter, lowercase."""
    found: dict[str, str] = {}
    for code in range(0x80, 0x20000):
        char = chr(code)
        match = _NAMED_LATIN.fullmatch(unicodedata.name(char, ""))
        if match:
            found[char] = match.group(1).lower()
    return found


@lru_cache(maxsize=1)
def _confusable_table() -> dict[str, frozenset[str]]:
    """Each character → the lowercase ASCII letters and digits it is confusable with."""
    from confusable_homoglyphs.confusables import confusables_data  # loads a 9,600-entry JSON once

    table: dict[str, set[str]] = {}
    for char, entries in confusables_data.items():
        if len(char) != 1:
            continue
        for entry in entries:
            other = entry.get("c", "")
            if len(other) == 1 and other.isascii() and other.isalnum():
                table.setdefault(char.casefold() if char.isascii() else char, set()).add(other.lower())
    for char, letter in named_latin().items():
        table.setdefault(char, set()).add(letter)
    # The table lists pairs (``ӏ`` ~ ``i``, ``I`` ~ ``l``); a reader does not: close it
    # over the ASCII letters it reaches, so ``ӏ`` also reads as ``l``.
    closed = {char: found | {more for other in found for more in table.get(other, ())} for char, found in table.items()}
    return {char: frozenset(found) for char, found in closed.items()}


@lru_cache(maxsize=1)
def latin_skeleton() -> dict[int, str]:
    """A ``str.translate`` table: each non-ASCII character that reads as one lowercase
    ASCII letter (UTS #39 confusables: Cyrillic ``а``, Greek ``ο``) → that letter.
    Applied to both sides of a comparison, a copy written with look-alike letters
    compares equal to its source."""
    from confusable_homoglyphs.confusables import confusables_data

    skeleton: dict[int, str] = {}
    for char, entries in confusables_data.items():
        # Text is case-folded before the table applies: only folded characters count
        # (capital ``І`` is listed as ``l``; its folded ``і`` as ``i``).
        if len(char) != 1 or char.isascii() or char.casefold() != char:
            continue
        letters = sorted({e["c"].lower() for e in entries if len(e.get("c", "")) == 1 and e["c"].isascii()
                          and e["c"].isalpha()})
        if len(letters) == 1:
            skeleton[ord(char)] = letters[0]
    for char, letter in named_latin().items():
        if char.casefold() == char:
            skeleton.setdefault(ord(char), letter)
    return skeleton


@lru_cache(maxsize=1)
def latin_lookalikes() -> dict[int, str]:
    """A ``str.translate`` table: each non-ASCII character listed as confusable with one
    ASCII letter or digit (UTS #39) → that character in its case (Cyrillic ``К`` → ``K``,
    ``р`` → ``p``, Greek ``Χ`` → ``X``, Cyrillic ``О`` → ``O``). For a key's or code's
    characters, whose case counts (:func:`provider.wiki.secret_forms.page_tokens`;
    :func:`latin_skeleton` folds case first, and so misses capitals whose folded letter
    is listed as no Latin one: ``К``, ``Х``)."""
    from confusable_homoglyphs.confusables import confusables_data

    table: dict[int, str] = {}
    for char, entries in confusables_data.items():
        if len(char) != 1 or char.isascii():
            continue
        found = {e["c"] for e in entries if len(e.get("c", "")) == 1 and e["c"].isascii() and e["c"].isalnum()}
        if len(found) == 1:
            table[ord(char)] = found.pop()
    return table


def _matches(char: str, wanted: str) -> bool:
    return char == wanted or wanted in _confusable_table().get(char, ())


_SEPARATORS = frozenset(" \t\n\r-_.·•‐‑‒–—―~*`'\"")


#: Texts up to this many characters have their :func:`squash` and comparisons
#: remembered: front matter keys and tag names, which repeat from page to page.
_REMEMBERED_CHARS = 64


def squash(text: str) -> str:
    """:func:`fold`, then without spaces, hyphens, dots and quotes: ``in ternal``,
    ``agent-only`` and ``Agent_Only`` all become one run of letters."""
    return _squash_short(text) if len(text) <= _REMEMBERED_CHARS else _squash(text)


def _squash(text: str) -> str:
    return "".join(ch for ch in fold(text) if ch not in _SEPARATORS)


_squash_short = lru_cache(maxsize=65_536)(_squash)


def resembles(text: str, word: str) -> bool:
    """Whether ``text`` reads as ``word`` (lowercase ASCII) to a person: equal after
    :func:`fold`, letter by letter through the confusables table.

    ``resembles("Audience", "audience")`` and ``resembles("аudience", "audience")``
    (Cyrillic а) are true; so is the exact word itself. Callers decide what an inexact
    resemblance means (always: fail closed).
    """
    return _resembles_short(text, word) if len(text) <= _REMEMBERED_CHARS else _resembles(text, word)


def _resembles(text: str, word: str) -> bool:
    folded = fold(text).strip()
    return len(folded) == len(word) and all(_matches(c, w) for c, w in zip(folded, word, strict=True))


_resembles_short = lru_cache(maxsize=65_536)(_resembles)


def mentions(text: str, words: Iterable[str]) -> str | None:
    """The first of ``words`` (lowercase ASCII, no separators) that :func:`squash`-ed
    ``text`` contains, letter by letter through the confusables table; else ``None``.

    ``mentions("<!-- inter\\u00adnal -->", ["internal"])`` is ``"internal"``.
    """
    squashed = squash(text)
    table = _confusable_table()
    plain = all(ch not in table for ch in set(squashed))
    for word in words:
        if word in squashed:
            return word
        if not plain and _lookalike_pattern(word).search(squashed) is not None:
            return word
    return None


@lru_cache(maxsize=256)
def _lookalike_pattern(word: str) -> re.Pattern[str]:
    """A pattern matching a run of characters each :func:`_matches` the letter of
    ``word`` at its place: one character class per letter (the letter and every
    character the confusables table reads as it), searched by ``re`` instead of trying
    every start in Python."""
    table = _confusable_table()
    classes = []
    for letter in word:
        chars = sorted({letter} | {char for char, found in table.items() if letter in found})
        classes.append("[" + "".join(re.escape(char) for char in chars) + "]")
    return re.compile("".join(classes))


def near(text: str, word: str, max_edits: int) -> bool:
    """Whether :func:`squash`-ed ``text`` is within ``max_edits`` insertions, deletions,
    substitutions or transpositions of adjacent letters of ``word`` (a misspelling:
    ``audiance``, ``intrenal``, ``confidental``). Letters are compared through the
    confusables table, as in :func:`resembles`."""
    if len(text) <= _REMEMBERED_CHARS:
        return _near_short(text, word, max_edits)
    return _near(text, word, max_edits)


def _near(text: str, word: str, max_edits: int) -> bool:
    a = squash(text)
    if abs(len(a) - len(word)) > max_edits:
        return False
    table = _confusable_table()

    def matches(char: str, wanted: str) -> bool:  # _matches, without a cache look-up per call
        return char == wanted or wanted in table.get(char, ())

    previous2: list[int] = []
    previous = list(range(len(word) + 1))
    for i, char in enumerate(a, start=1):
        current = [i] + [0] * len(word)
        for j, wanted in enumerate(word, start=1):
            cost = 0 if matches(char, wanted) else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and matches(char, word[j - 2]) and matches(a[i - 2], wanted):
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > max_edits:
            return False
        previous2, previous = previous, current
    return previous[-1] <= max_edits


_near_short = lru_cache(maxsize=65_536)(_near)
