"""Rule 6d — internal text contained in a public page (CONTRACT X2, X5).

Rules 6–6c see a copy whose *whole* text matches (near-copy sketch, same words) or a
copied paragraph of at least :data:`~provider.wiki.copies.MIN_PARAGRAPH_WORDS` words with
exactly the same words. This rule finds an internal text inside a public page however it
was carried over: pasted into a longer paragraph, with words changed or reordered, split
into list items spread over the page, split across several pages, a phone number written
another way — and tells it apart from template wording an internal page shares with the
site.

* **Terms.** A block's text is folded as every copy rule folds it (NFKC, case, look-alike
  letters; :func:`provider.wiki.copies.words`) after numbers and identifiers are written
  one way (:func:`terms`: ``555-0199``, ``555 0199`` and ``5550199`` are one term, as are
  ``GW-7731`` and ``GW7731``). Each block stores its **shingles** (runs of
  :data:`SHINGLE_WORDS` terms: order) and its **words** (single terms: order-free), as
  32-bit CRC values (:func:`block_shingles`).
* **Distinctive content.** A value (shingle or word) held by more than
  :func:`common_limit` documents of the corpus (any status: at least
  :data:`COMMON_MIN_DOCS`, and :data:`COMMON_SHARE` of the documents) is **common**:
  template wording ("Sign in to the Microsoft 365 admin center"), which matches nothing.
  Only the other values — *distinctive* ones — count as evidence (:class:`Rarity`).
  Pasting an internal note into a handful of pages leaves it distinctive: it takes more
  than ``common_limit`` pages carrying the same words (the residual attack: see
  docs/reference/corpus-rules.md).
* **Units** (what can be contained): each block of an internal text with at least
  :data:`MIN_UNIT_SHINGLES` shingles (6 words; 14 characters in a script written
  without spaces), and the whole of a short internal text of several blocks (at most
  :data:`SHORT_TEXT_SHINGLES` shingles).
* **Lists of names** (people, customers: :mod:`provider.wiki.name_lists`) are a unit of
  their words, contained where a page holds :data:`WORD_SHARE` of its distinctive words
  (and :data:`MIN_NAME_WORDS`), in any order.
* **Secret values**: the value of a line whose label names a secret
  (``Passphrase: amber falcon seventy nine``, ``the admin password is swordfish``:
  :mod:`provider.wiki.secret_lines`) is a unit of its own, contained where a page holds
  all its runs and words and they are distinctive (a value of one or two terms: every
  term, and :data:`SECRET_MIN_CHARS` characters). Its respellings
  (:mod:`provider.wiki.secret_forms`) are units too: the value with its numbers in digits
  and in English words, its joined form as a word (``amberfalcon79``), and its
  **skeletons** (a ``z:`` unit: :attr:`Unit.forms`), looked for when the corpus is derived
  in each public page's skeleton (:class:`Skeletons`: ``Amber-Falcon-79``, ``marma lade``,
  ``%37%37``, ROT13, reversed, Roman numerals, a spaced or regrouped key, a decoded base64
  or hex run) — the whole value, or every distinctive part in any order; a value or part
  more public pages hold than the limit is common (``Password: your password`` finds no
  page saying "your password").
* **A unit is contained** in a public page (:func:`contained`) when its distinctive
  content is there: (a) *wording* — at least half its shingles are distinctive, the
  page holds :data:`CONTAINED_SHARE` of those (and at least :data:`MIN_DISTINCT_SHINGLES`)
  and :data:`MIN_HELD_WORDS` of its distinctive words (a run of common words — "select
  Save, then sign in again", an error message, a link under an article's title — is
  site wording even where that run itself is rare): a verbatim or lightly edited copy,
  from 6 words; or (a') *a run* — the page holds a stretch of the unit with
  :data:`RUN_SHINGLES` distinctive shingles (a 12-word piece of a long paragraph;
  :data:`RUN_SPLIT_SHINGLES`, 10 characters, in Japanese or Chinese) and
  :data:`MIN_HELD_WORDS` distinctive words; or (b) *words* — it has at least
  :data:`MIN_DISTINCT_WORDS` distinctive words and the page holds :data:`WORD_SHARE` of
  them, in any order and anywhere on the page: words changed or reordered, a list spread
  over the page; or (c) *parts* — one page or several each hold pieces of it (a stretch
  of its shingles with :data:`PART_SHINGLES` distinctive ones, with the stretches around
  it a changed, dropped or added word separates, and :data:`PART_WORDS` of its
  distinctive words; or :data:`EDITED_GROUP_SHINGLES` distinctive 3-word runs in a row,
  one edited word apart: a word changed every 4 words), and the pieces together, with
  the gaps of up to :data:`EDIT_SHINGLES` shingles between them (straddling a cut, or
  taken out by an edited word) — :data:`CUT_SHINGLES` between two pieces spanning
  :data:`CUT_PIECE_SHINGLES` each (2 words dropped at a cut, a word changed beside it) —,
  hold :data:`WORD_SHARE` of its distinctive shingles: a note split across pages, its
  words edited here and there, taints every page holding a part. Floor: a text with a
  word changed every 3 words keeps no run, and pages are read as sets of runs and words.

The relation between a source and a page holding one of its distinctive values does not
depend on their status: :class:`ContainmentIndex` keeps it for the incremental rules
(:mod:`provider.wiki.incremental`); a value that becomes common or distinctive, or another
``common_limit``, makes them derive the corpus again.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import struct
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from itertools import pairwise

from rapidfuzz import process
from rapidfuzz.distance import OSA

from .audience import PUBLIC
from .copies import _length, words
from .model import DocumentMeta
from .name_lists import name_lists, person_names
from .secret_forms import (
    MAX_JOINED_CHARS,
    PARTS_MIN_CHARS,
    SHAPED_DIGITS,
    SKELETON_MIN_CHARS,
    ascii_digits,
    edit_bound,
    is_key,
    is_placeholder,
    is_secret_shaped,
    joined,
    key_pieces,
    page_respellings,
    page_tokens,
    reads_as,
    secret_skeletons,
    short_splits,
    spelled,
    tiles,
    with_digits,
)
from .secret_lines import names_a_secret_anywhere, secret_values, table_values, whole_labelled_values

__all__ = [
    "ALONE_SHARE",
    "BOILERPLATE_DOCS",
    "CODE_DIGITS",
    "CODE_WINDOW",
    "COMMAND_BOILERPLATE_DOCS",
    "COMMAND_TERMS",
    "COMMON_MIN_DOCS",
    "COMMON_SHARE",
    "CONTAINED_SHARE",
    "CUT_PIECE_SHINGLES",
    "CUT_SHINGLES",
    "EDITED_GROUP_SHINGLES",
    "EDIT_SHINGLES",
    "MIN_DISTINCT_SHINGLES",
    "MIN_DISTINCT_WORDS",
    "MIN_HELD_WORDS",
    "MIN_NAME_WORDS",
    "MIN_UNIT_SHINGLES",
    "PART_SHINGLES",
    "PART_WORDS",
    "RUN_SHINGLES",
    "RUN_SPLIT_SHINGLES",
    "SECRET_MIN_CHARS",
    "SECRET_WINDOW",
    "SHINGLE_WORDS",
    "SHORT_TEXT_SHINGLES",
    "WORD_SHARE",
    "ContainmentIndex",
    "Rarity",
    "Skeletons",
    "Unit",
    "block_id",
    "block_shingles",
    "common_limit",
    "contained",
    "counts_for_commonness",
    "decode",
    "decode_pairs",
    "decode_words",
    "held",
    "is_code",
    "is_command",
    "page_skeleton_of",
    "page_values",
    "part",
    "parts_cover",
    "public_set",
    "rarity",
    "source_capable",
    "terms",
    "text_units",
    "units",
]

#: Terms a shingle holds.
SHINGLE_WORDS = 3
#: Shingles a block needs to be a unit (6 words): "Use override code GW-7731 for VIP."
#: is one; "See the admin guide", "Contact support if problems persist." are not.
MIN_UNIT_SHINGLES = 4
#: The share of a unit's distinctive shingles a page must hold (wording path). At 3 terms
#: a shingle, a changed word costs up to 3 of them: the words path takes edited copies.
CONTAINED_SHARE = 0.8
#: Distinctive shingles a page must hold at least (wording path).
MIN_DISTINCT_SHINGLES = 3
#: Distinctive words a unit needs for the words path, and the share a page must hold:
#: 3 words changed in a 10-word note keep 7 of 10.
MIN_DISTINCT_WORDS = 7
WORD_SHARE = 0.7
#: What a page must hold of a unit to count as carrying a part of it (parts path): a run
#: of 4 distinctive terms and 3 distinctive words.
PART_SHINGLES = 2
PART_WORDS = 3
#: Shingles between two pieces of a unit no page holds that the parts path still reads as
#: the same text edited, not two phrases of it (issue 24): 3 words no run holds — a
#: changed or dropped word takes out 3 runs, an added one 2, a cut 2, a cut with a word
#: changed beside it 5. Not in code (:attr:`Unit.code`), whose commands are edited by
#: design: with it, hetzner-tutorials' GRE and Docker tutorials held the ``iptables -t nat
#: -A POSTROUTING … -j SNAT`` lines of the WireGuard one with another address.
EDIT_SHINGLES = 2 * SHINGLE_WORDS - 1
#: Shingles between two *long* pieces (each spanning :data:`CUT_PIECE_SHINGLES` shingles
#: or more, an edited word's gap inside it bridged) that the parts path still reads as one
#: text cut (issue 24): 7 words no run holds — 2 words dropped at a cut and a word changed
#: on either side of it within 3 words (the attack's draw: 2 dropped, a third beside them,
#: 6 runs). Phrases of 4 words, 4 words apart (a page's passing use of a long paragraph's
#: wording: 2 runs each), are short pieces: for them the gap stays :data:`EDIT_SHINGLES`.
CUT_SHINGLES = 3 * SHINGLE_WORDS
#: Shingles each piece beside a gap wider than :data:`EDIT_SHINGLES` must span: 5, 7
#: words of the text (edited ones included).
CUT_PIECE_SHINGLES = 5
#: Distinctive shingles a page's group of 3-word pieces needs when no piece has
#: :data:`PART_SHINGLES` (a word changed every 4 words: each 3-word run between two edits
#: survives alone, one edit apart): 3, each within :data:`SHINGLE_WORDS` missing shingles
#: of the next (one changed, dropped or added word between them).
EDITED_GROUP_SHINGLES = 3
#: The share of a unit's distinctive shingles one page must hold itself for its edited
#: pieces alone to be the unit (:func:`parts_cover`): a word changed every 9 words keeps
#: about 6 in 9.
ALONE_SHARE = 0.5
#: Distinctive shingles of one unit a page holds that make it a copy whatever the unit's
#: length (the run path): 10 is a 12-word piece of a long paragraph; in a script written
#: without spaces :data:`RUN_SPLIT_SHINGLES` (10 characters).
RUN_SHINGLES = 10
RUN_SPLIT_SHINGLES = 8
#: Distinctive words the wording and run paths need the page to hold (a unit of a script
#: written without spaces: none). At 1, sentences of common words with rare runs — an
#: error message, a link to another article under its title — withheld 7 Microsoft Learn
#: articles (see docs/how-to/findings.md).
MIN_HELD_WORDS = 2
#: Distinctive words of a list of names (:mod:`provider.wiki.name_lists`) it needs, and
#: a page must hold (and :data:`WORD_SHARE` of them): two people's first and last names.
MIN_NAME_WORDS = 4
#: Characters (of its terms) a secret's value of one or two terms needs: "PIN: 1234" is
#: no value to look for on other pages (its code is: see :func:`_code_pairs`).
SECRET_MIN_CHARS = 6
#: A text (or its internal sections) of several blocks and at most this many shingles is
#: also a unit as a whole: two short lines copied together.
SHORT_TEXT_SHINGLES = 64
#: Documents that may hold a value while it is still distinctive: at least this many…
COMMON_MIN_DOCS = 12
#: … and this share of the corpus's documents (0.5 %: 13 of Microsoft Learn's 2,448).
COMMON_SHARE = 0.005
#: Public documents that hold a block whole (the same terms in the same order) for it to
#: be the site's boilerplate, which evidences nothing: Learn's "Get help from the
#: Microsoft Community…" footer is on 3 public articles, its administrator-account note
#: on 9. An internal paragraph pasted unchanged, as a paragraph of its own, into this
#: many public pages is the residual (a paste inside a paragraph is another block).
BOILERPLATE_DOCS = 3
#: Public documents that hold a short command line whole (:data:`COMMAND_TERMS`, no code,
#: no secret's label) for it to be documented usage rather than a copied note: making
#: Outlook/Mac internal withheld 2 public Learn articles that give the same
#: ``Set-MailboxRegionalConfiguration … -LocalizeDefaultFolderName:$true`` line. A
#: secret's labelled value in such a line (``password: swordfish``) is a unit of its own
#: and a code (:func:`is_code`) keeps the line out of this rule: both stay evidence.
COMMAND_BOILERPLATE_DOCS = 2
#: Terms a code block has at most to be a short command line.
COMMAND_TERMS = 32

#: Marks a block of a script written without spaces (:func:`block_shingles`).
_SPLIT = "h:"
#: Marks a sentence of a block of several sentences (:func:`block_shingles`): a unit of
#: its own, never part of what a page holds (its block holds it all).
_SENTENCE = "s:"
#: Marks the value of a line naming a secret (:mod:`provider.wiki.secret_lines`): a unit
#: of its own, never part of what a page holds.
_KEYED = "k:"
#: Marks a list of names (:mod:`provider.wiki.name_lists`): a unit of its words.
_NAMES = "n:"
#: Marks the words of a public block under :data:`SHINGLE_WORDS` terms (a table row's
#: ``admin | swordfish``, a list item, a heading, a line of code): what a page holds,
#: never a unit (a secret's value copied alone was in no entry, so on no page).
_SHORT = "w:"
#: Marks a short command line (:func:`is_command`): a block whose boilerplate threshold is
#: :data:`COMMAND_BOILERPLATE_DOCS`. Part of its :func:`block_id`, so prose of the same
#: words is another block.
_COMMAND = "c:"
#: Marks a page's other code blocks (a fence, an indented block): their pieces are read
#: as written only (:data:`EDIT_SHINGLES`). Part of its :func:`block_id`, as ``c:`` is.
_CODE = "x:"
#: Marks a page's skeleton (:func:`provider.wiki.secret_forms.page_skeleton`): what the
#: corpus's secrets are looked for in (:class:`Skeletons`), never a unit. One entry, last.
_JOINED = "j:"
#: Marks (after ``k:``) each code of a secret's value of a secret's shape
#: (:func:`~provider.wiki.secret_forms.is_secret_shaped`), a unit of its own, and (after
#: ``z:``) such a value's skeletons: never common (:attr:`Unit.kept`), however many
#: public pages copy them.
_SHAPED = "v:"
#: Marks (after ``z:``) the skeletons of a value a secret's label gives that is not
#: secret-shaped (``otter-blue-vault``): its whole value never common (issue 24).
_LABELLED = "l:"
#: Marks what a secret's value may be written as on a page
#: (:func:`provider.wiki.secret_forms.secret_skeletons`): a unit of its own.
_SKELETON = "z:"
#: Separate a ``z:`` entry's sections (the whole value, then each part) and the forms of one.
_SECTION, _FORM = "\x1e", "\x1f"
#: Separates a block's shingles, words, code pairs and the pairs' words in a stored entry.
_WORDS = "|"
#: Numbers written with separators ("555-0199", "555 0199", "(555) 0199", "1.234.567"):
#: the separators go, so every spelling is one term.
_NUMBER_GAP = re.compile(r"(?<=\d)[\s.\-\u2010-\u2015/()]+(?=\d)")
_DIGIT = re.compile(r"\d")
#: An identifier's hyphen or underscore between letters and digits ("GW-7731", "esc_42").
_CODE_GAP = re.compile(r"(?<=[^\W\d_])[-_](?=\d)|(?<=\d)[-_](?=[^\W\d_])")
#: Where a block's sentences end: after ".", "!" or "?" and white space, or after a
#: full stop of a script written without spaces.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[\u3002\uff01\uff1f])")
#: A year (1900 to 2099): a PIN that is one is every dated page's number, never looked for alone.
_YEAR = re.compile(r"(?:19|20)\d\d")
#: Digits a PIN has at most (a dotted version of as many is none: :func:`_version`).
MAX_PIN_DIGITS = 5
#: Terms on either side of a code that a code pair ties it to ("Override PIN: 4417-9920").
CODE_WINDOW = 4
#: Digits a term needs to be a code (a PIN, a phone number, an account or error number).
CODE_DIGITS = 4


def terms(text: str) -> list[str]:
    """The folded words of ``text`` (:func:`provider.wiki.copies.words`) with numbers and
    identifiers written one way (see the module docstring)."""
    if _DIGIT.search(text) is None:  # both patterns need a digit: most prose has none
        return words(text)
    # Every script's decimal digits read as ASCII (``٤٤١٧`` is ``4417``: issue 24); NFKC
    # folds only full-width ones.
    return words(_CODE_GAP.sub("", _NUMBER_GAP.sub("", _DOTTED.sub(_version, ascii_digits(text)))))


#: A dotted version: 3 or more numeric groups apart by dots (``4.4.17``, ``4.4.1.7``).
_DOTTED = re.compile(r"(?<![\d.])\d+(?:\.\d+){2,}(?!\.?\d)")


def _version(found: re.Match[str]) -> str:
    """A dotted version of a PIN's digits or fewer is no PIN's spacing (``Upgrade to
    version 4.4.17`` is no ``4417``: issue 24): one term, its groups apart by ``v``
    (``4v4v17``); a longer run (an IP address, a code) is its digits as any code's."""
    shown = found.group()
    return shown.replace(".", "v") if len(shown) - shown.count(".") <= MAX_PIN_DIGITS else shown


def is_code(term: str) -> bool:
    """Whether a term (:func:`terms`) is a **code**: :data:`CODE_DIGITS` digits or more
    ("44179920", "gw7731", "0x80070005"), or letters and digits mixed with two of each and
    a digit before the last letter ("x7q9zk"; not a name with a number after it: "sha256",
    "office365", "win10")."""
    digits = sum(ch.isdigit() for ch in term)
    if digits >= CODE_DIGITS:
        return True
    if digits < 2 or len(term) - digits < 2 or len(term) < 5:
        return False
    last_letter = max(i for i, ch in enumerate(term) if not ch.isdigit())
    return any(ch.isdigit() for ch in term[:last_letter])


def is_command(text: str, found: list[str]) -> bool:
    """Whether a code block (``text``, its :func:`terms` ``found``) is a short command
    line: at most :data:`COMMAND_TERMS` terms, no code (:func:`is_code`: a PIN, a key, an
    account number), no line naming a secret
    (:func:`~provider.wiki.secret_lines.secret_values`) and no secret's name in any term
    (``-Password swordfish``, ``-AccessToken …``:
    :func:`~provider.wiki.secret_lines.names_a_secret_anywhere`)."""
    return len(found) <= COMMAND_TERMS and not any(is_code(term) for term in found) \
        and next(secret_values(text), None) is None and not names_a_secret_anywhere(found)


def _pack(values: list[int]) -> str:
    return base64.b64encode(struct.pack(f">{len(values)}I", *values)).decode("ascii")


def _code_pairs(found: list[str]) -> list[tuple[int, int]]:
    """``(pair value, word value)`` for each code of ``found`` and each other term within
    :data:`CODE_WINDOW` of it that is no code (another CRC seed: a pair never reads as a
    word)."""
    crc = zlib.crc32
    pairs: dict[int, int] = {}
    for at, term in enumerate(found):
        if not _DIGIT.search(term) or not is_code(term):
            continue
        for near in found[max(0, at - CODE_WINDOW) : at + CODE_WINDOW + 1]:
            # Beside a word, not another code: two error numbers side by side name a topic.
            if near != term and not (_DIGIT.search(near) and is_code(near)):
                pairs[crc(f"{term} {near}".encode(), 2)] = crc(near.encode(), 1)
    return sorted(pairs.items())


#: Terms on either side of a secret value's code that its sentence's pairs tie it to
#: (``The door code for the lab is 4417``: ``door`` is 5 terms before it).
SECRET_WINDOW = 8


def _secret_pairs(found: list[str], value: str) -> list[tuple[int, int]]:
    """The code pairs (:func:`_code_pairs`) of the codes of a secret's ``value`` in its
    block's terms ``found``, with every other term of the block within
    :data:`SECRET_WINDOW`: a public page giving the code beside a few words of the
    sentence holds it (issue 24), whatever the sentence's length."""
    codes = {term for term in terms(value) if is_code(term)}
    crc = zlib.crc32
    pairs: dict[int, int] = {}
    for at, term in enumerate(found):
        if term not in codes:
            continue
        for near in found[max(0, at - SECRET_WINDOW) : at + SECRET_WINDOW + 1]:
            if near != term and not (_DIGIT.search(near) and is_code(near)):
                pairs[crc(f"{term} {near}".encode(), 2)] = crc(near.encode(), 1)
    return sorted(pairs.items())


def _entry(found: list[str], pairs: list[tuple[int, int]]) -> str:
    crc = zlib.crc32
    # SHINGLE_WORDS terms a run, spelled out: a generator of joins cost twice as much.
    runs = zip(found, found[1:], found[2:], strict=False)
    # In the text's order, repeats kept: the run path reads stretches of the text.
    shingles = [crc(f"{a} {b} {c}".encode()) for a, b, c in runs]
    encoded = _pack(shingles) + _WORDS + _pack(sorted({crc(word.encode(), 1) for word in set(found)}))
    if pairs:
        encoded += _WORDS + _pack([p for p, _ in pairs]) + _WORDS + _pack([w for _, w in pairs])
    return _SPLIT + encoded if _length(found) < len(found) else encoded


def block_shingles(blocks: Iterable[str | tuple[str, bool] | tuple[str, bool, tuple[str, ...]]], *, page: bool = True,
                   hidden: bool = False) -> tuple[str, ...]:
    """Each block's shingles and words (blocks with neither a shingle nor a code left
    out), encoded: base64 of the 32-bit CRC-32 values of its shingles in the text's order,
    ``|``, the same of its words (another CRC seed: a word never reads as a shingle),
    and, when the block holds a code (:func:`is_code`), ``|`` and its code pairs
    (:func:`_code_pairs`, ascending) and ``|`` and each pair's word value; after ``h:``
    when the block is written in a script without spaces (each character one term: such
    a unit needs twice the shingles, as a Japanese or Chinese word is about two
    characters). A block of several sentences is followed by an ``s:`` entry for each
    sentence of at least :data:`MIN_UNIT_SHINGLES` shingles (a unit of its own: a pasted
    sentence of a long paragraph); a block with a line naming a secret is preceded by a
    ``k:`` entry of each value (:func:`~provider.wiki.secret_lines.secret_values`: of each
    spelling, and a ``z:`` entry of the skeletons it may be written as:
    :func:`_secret_entries`), the blocks' lists of names
    (:func:`~provider.wiki.name_lists.name_lists`) follow them as ``n:`` entries, and,
    when ``page`` (the blocks a page publishes; not its internal sections), a ``j:``
    entry of their skeleton (:func:`~provider.wiki.secret_forms.page_skeleton`) ends the
    tuple. Order of the blocks kept. With ``hidden`` (the blocks of internal sections),
    each person's name in a block (:func:`~provider.wiki.name_lists.person_names`: a
    table cell's "Dana Whitfield") is a ``k:`` entry too, looked for as exactly as a
    secret's value. A block may be given as ``(text, is code)``: a page's code block that
    :func:`is_command` has its main entry after ``c:`` (not in internal sections: their
    every block stays evidence), or as ``(text, is code, inline code spans)``: the page's
    code pieces in order are what a secret split over them is looked for in
    (:func:`~provider.wiki.secret_forms.page_respellings`)."""
    out = []
    given = [(block, False, ()) if isinstance(block, str) else (*block, ()) if len(block) == 2 else block
             for block in blocks]
    texts = [text for text, _, _ in given]
    code_pieces = [piece for text, code, spans in given for piece in ((text,) if code else spans)]
    tabled = table_values(texts)
    for number, (text, code, _) in enumerate(given):
        found = terms(text)
        whole = whole_labelled_values(text) if ":" in text or "=" in text or "：" in text else []
        for value in dict.fromkeys([*secret_values(text), *tabled.get(number, ())]):
            out += _secret_entries(value, given=value in whole)
            if _DIGIT.search(value) and not is_placeholder(value):
                coded = _secret_pairs(found, value)
                if coded:
                    # A code unit of the value's code in its sentence; never common (v:) when
                    # the value is its codes only (``Door PIN: 4417``): of ``abcde*1234#XYZ``,
                    # ``1234`` beside ``password`` is any tutorial's example (2 Hetzner tutorials).
                    lone = all(is_code(term) for term in terms(value)) and is_secret_shaped(value)
                    out.append(_KEYED + (_SHAPED if lone else "") + _entry([], coded))
        if hidden:
            for name in person_names(text):
                out += _secret_entries(name, labelled=False)
        pairs = _code_pairs(found) if _DIGIT.search(text) else []
        if page and found and len(found) < SHINGLE_WORDS and not pairs:
            out.append(_SHORT + _entry(found, []))
        if len(found) >= SHINGLE_WORDS or pairs:
            command = code and not hidden and not pairs and is_command(text, found)
            out.append((_COMMAND if command else _CODE if code and not hidden else "") + _entry(found, pairs))
            sentences = _SENTENCE_END.split(text.strip())
            for sentence in sentences if len(sentences) > 1 else ():
                inner = terms(sentence)
                if len(inner) - SHINGLE_WORDS + 1 >= _floor(_length(inner) < len(inner)) and len(inner) < len(found):
                    out.append(_SENTENCE + _entry(inner, []))
    for names in name_lists(texts):
        out.append(_NAMES + _entry(terms(" ".join(names)), []))
    if page and texts:
        stream, respelled = page_respellings(texts, code_pieces)
        for text in respelled:
            found = terms(text)
            if found:
                out.append(_SHORT + _entry(found, []))
        listed = page_tokens([*texts, *respelled])
        if stream or listed:
            out.append(_JOINED + stream + (_SECTION + " ".join(listed) if listed else ""))
    return tuple(out)


def _secret_entries(value: str, *, labelled: bool = True, given: bool = False) -> list[str]:
    """The ``k:`` entries of one secret's value: its terms as written, with its numbers
    in digits and in English words (:mod:`provider.wiki.secret_forms`), and its joined
    form (``amberfalcon79``) as a word; and a ``z:`` entry of what a page's skeleton may
    hold of it (:func:`~provider.wiki.secret_forms.secret_skeletons`): its forms, then
    each part's, in plain text (the entry is an internal document's, never served).
    ``given``: a ``label: value`` line gives the value whole
    (:func:`~provider.wiki.secret_lines.whole_labelled_values`)."""
    if is_placeholder(value):
        return []
    shaped = is_secret_shaped(value)
    out = []
    for spelling in dict.fromkeys((value, with_digits(value), spelled(value), *short_splits(value))):
        held_terms = terms(spelling)
        if len(held_terms) >= SHINGLE_WORDS or len("".join(held_terms)) >= SECRET_MIN_CHARS:
            out.append(_KEYED + _entry(held_terms, []))
    form = joined(value)
    if SECRET_MIN_CHARS <= len(form) <= MAX_JOINED_CHARS:
        out.append(_KEYED + _entry([form], []))
    # Its pieces apart (``starts qK7vR2 … ends mXw9Lp``, ``4417`` and ``9920`` in two cells).
    out += [_KEYED + _entry(list(pieces), []) for pieces in key_pieces(value)]
    if shaped:
        # Only its codes are kept from commonness: the value's other words ("for", "the")
        # are every page's, and a kept word is distinctive for every unit holding it.
        out += [_KEYED + _SHAPED + _entry([term], []) for term in terms(value)
                if len(term) >= SECRET_MIN_CHARS and is_code(term)]
        lone = terms(value)
        if len(lone) == 1 and lone[0].isdigit() and SHAPED_DIGITS <= len(lone[0]) < SECRET_MIN_CHARS \
                and _YEAR.fullmatch(lone[0]) is None:
            # A PIN is its digits in any spacing, separator or width (``Press 4417``,
            # ``4-4-1-7``, ``４４１７``: one term), anywhere on a public page (issue 24).
            # Alone, common on more public pages than the limit (a chain id, a model
            # number the site uses everywhere); beside its label's words it never is.
            out.append(_KEYED + _entry(lone, []))
    found = secret_skeletons(value)
    if found is not None:
        canonical, forms, parts = found
        sections = [canonical + _FORM + _FORM.join(sorted(forms))]
        sections += [part + _FORM + _FORM.join(sorted(spellings)) for part, spellings in parts]
        # A value a secret's label gives is never common as a whole (``l:``; a person's
        # name is: the site's people are on many of its pages).
        mark = _SHAPED if shaped else _LABELLED if labelled and _one_run(value, spaced=given) else ""
        out.append(_SKELETON + mark + _SECTION.join(sections))
    return list(dict.fromkeys(out))


def _one_run(value: str, *, spaced: bool = False) -> bool:
    """Whether a value of words is one run a reader takes for a credential
    (``otter-blue-vault``, ``VaultOtterBlue``; with ``spaced``, a ``label: value`` line's
    whole value, ``correct horse battery staple``): no bracket, no secret's name inside
    (``<MARIADB_ROOT_PASSWORD>`` is a variable, ``Password updated successfully`` a
    message), and no white space unless ``spaced``. mysql_secure_installation's output
    (``New password: Re-enter new password: Password updated successfully!``, on 4 Hetzner
    tutorials) gives ``Re-enter new``, which the next prompt's label cuts (not whole), and
    a message naming the secret."""
    shown = value.strip().strip("`'\"")
    return bool(shown) and not any((ch.isspace() and not spaced) or ch in "<>{}[]()$%" for ch in shown) \
        and not names_a_secret_anywhere(terms(shown))


def _unpack(raw: str) -> tuple[int, ...]:
    data = binascii.a2b_base64(raw)  # what base64.b64decode calls, without its checks of the argument
    return struct.unpack(f">{len(data) // 4}I", data)


def _sections(encoded: str) -> list[str]:
    for mark in (_SENTENCE, _KEYED, _SHAPED, _NAMES, _SHORT, _JOINED, _COMMAND, _CODE, _SPLIT):
        encoded = encoded.removeprefix(mark)
    return encoded.split(_WORDS)


def decode(encoded: str) -> tuple[int, ...]:
    """The shingle values of one :func:`block_shingles` entry, in the text's order (a
    repeated run as often as it occurs)."""
    return _unpack(_sections(encoded)[0])


def decode_words(encoded: str) -> tuple[int, ...]:
    """The word values of one :func:`block_shingles` entry, ascending."""
    return _unpack(_sections(encoded)[1])


def decode_pairs(encoded: str) -> tuple[tuple[int, int], ...]:
    """The ``(code pair, word)`` values of one :func:`block_shingles` entry, by pair."""
    found = _sections(encoded)
    if len(found) < 4:
        return ()
    return tuple(zip(_unpack(found[2]), _unpack(found[3]), strict=True))


def common_limit(documents: int) -> int:
    """The most documents a value may be held by while it is distinctive, in a corpus of
    ``documents``: :data:`COMMON_MIN_DOCS`, or :data:`COMMON_SHARE` of them if more."""
    return max(COMMON_MIN_DOCS, math.ceil(COMMON_SHARE * documents))


@dataclass(frozen=True)
class Unit:
    """One internal text that can be contained: its shingle and word values, or (a code
    unit) its code pairs."""

    shingles: frozenset[int]
    words: frozenset[int]
    #: Written without spaces (each character a term): single characters are no
    #: evidence, so only the wording path applies.
    split: bool = False
    #: A code unit's ``(code pair, word)`` values (:func:`decode_pairs`); its shingles and
    #: words are empty.
    pairs: frozenset[tuple[int, int]] = frozenset()
    #: A sentence of a longer block: only the wording path applies (its few words,
    #: scattered over a long page, are no copy).
    sentence: bool = False
    #: The value of a line naming a secret (:mod:`provider.wiki.secret_lines`): contained
    #: where a page holds all of it (see :func:`contained`).
    secret: bool = False
    #: A block's or sentence's shingles in the text's order (the run path: see
    #: :func:`_run`); empty for a unit of several blocks.
    order: tuple[int, ...] = ()
    #: A list of names (:mod:`provider.wiki.name_lists`): contained where a page holds
    #: most of its distinctive words, in any order (see :func:`contained`).
    names: bool = False
    #: Text only a label hides (:attr:`DocumentMeta.label_block_shingles`): contained only
    #: by a long verbatim run (see :func:`contained`), never by its words or a part; its
    #: codes, names and secrets by their own exact rules.
    labelled: bool = False
    #: A secret's skeleton unit (a ``z:`` entry): ``(form, value)`` for each skeleton a
    #: page may hold it as (:class:`Skeletons` looks for them); the whole value's forms
    #: have the value :attr:`whole`, each part's forms the part's value in :attr:`parts`.
    forms: frozenset[tuple[str, int]] = frozenset()
    whole: int = 0
    #: ``(value, characters)`` of each part.
    parts: frozenset[tuple[int, int]] = frozenset()
    #: Characters of the whole value's canonical skeleton.
    chars: int = 0
    #: The :func:`block_id` of the block the unit is made of (its sentences' and codes'
    #: too); 0 for a unit of several blocks, a secret's value or a list of names. A
    #: block that :data:`BOILERPLATE_DOCS` public documents hold whole is no evidence
    #: (see :func:`_common`).
    block: int = 0
    #: Its block is a short command line (:func:`is_command`): boilerplate from
    #: :data:`COMMAND_BOILERPLATE_DOCS` public documents.
    command: bool = False
    #: Its block is a page's code block (a ``c:`` or ``x:`` entry): its parts are pieces
    #: as written, on two pages or more (see :func:`part`).
    code: bool = False
    #: Values never common (:func:`_common`): a secret-shaped value's
    #: (:func:`~provider.wiki.secret_forms.is_secret_shaped`), which no count of public
    #: pages copying it makes the site's wording.
    kept: frozenset[int] = frozenset()
    #: A skeleton unit's canonical skeleton in plain text (``qk7vr2mxw9lp``, ``4417``): what
    #: :class:`Skeletons` compares a page's tokens with, edited or in look-alike letters.
    canonical: str = ""

    def values(self) -> frozenset[int]:
        """Every value whose document frequency decides the unit's distinctive content:
        its shingles and words (a code unit: its pairs and their words; a skeleton unit:
        its whole value's and its parts' values), and its block."""
        if self.forms:
            found = frozenset(v for v, _ in self.parts) | {self.whole}
        elif self.pairs:
            found = frozenset(v for pair in self.pairs for v in pair)
        else:
            found = self.shingles | self.words
        return found | {self.block} if self.block else found


def _floor(split: bool) -> int:
    """Shingles a unit needs: :data:`MIN_UNIT_SHINGLES`, or 12 (14 characters) in a
    script written without spaces (at 8 characters, glossary terms of the kaia archive
    scenario demoted ~60 translated pages)."""
    return 12 if split else MIN_UNIT_SHINGLES


def block_id(entry: str) -> int:
    """The value standing for one whole block (a main :func:`block_shingles` entry: the
    same terms in the same order, the same code pairs) in a page's :func:`public_set` and
    a unit's :meth:`Unit.values` (another CRC seed: it never reads as a shingle, a word,
    a pair or a joined form)."""
    return zlib.crc32(entry.encode(), 4)


def _units_of(blocks: tuple[str, ...], *, hidden: bool = False) -> list[Unit]:
    """The units of one text's entries; ``hidden``: the entries of internal sections,
    whose every code is a unit (see below)."""
    found: list[Unit] = []
    decoded = []
    block = 0
    for entry in blocks:
        if entry.startswith((_JOINED, _SHORT)):
            continue
        if entry.startswith(_SKELETON):
            found.append(_skeleton_unit(entry))
            continue
        ordered = decode(entry)
        shingles, words_ = frozenset(ordered), frozenset(decode_words(entry))
        split = entry.removeprefix(_SENTENCE).removeprefix(_KEYED).removeprefix(_SHAPED).removeprefix(
            _COMMAND).removeprefix(_CODE).startswith(_SPLIT)
        if entry.startswith(_KEYED):
            keyed_pairs = decode_pairs(entry)
            shaped = entry.startswith(_KEYED + _SHAPED)
            if keyed_pairs:
                # A secret-shaped value's code beside its sentence's words: never common.
                found.append(Unit(frozenset(), frozenset(), split, frozenset(keyed_pairs),
                                  kept=frozenset(p for p, _ in keyed_pairs) if shaped else frozenset()))
            else:
                found.append(Unit(shingles, words_, split, secret=True, kept=words_ if shaped else frozenset()))
            continue
        if entry.startswith(_NAMES):
            found.append(Unit(frozenset(), words_, names=True))
            continue
        if not entry.startswith(_SENTENCE):
            block = block_id(entry)  # its sentences' entries follow it
        if len(shingles) >= _floor(split):
            found.append(Unit(shingles, words_, split, sentence=entry.startswith(_SENTENCE), order=ordered,
                              block=block, command=entry.startswith(_COMMAND),
                              code=entry.startswith((_COMMAND, _CODE))))
        if entry.startswith(_SENTENCE):
            continue
        decoded.append((shingles, words_, split))
        pairs = decode_pairs(entry)
        # A code unit only for a block too short to be a unit ("Override PIN: 4417-9920"):
        # in a longer block of a page the code is mostly a fact its topic shares (an error
        # number, a version), and the block's own runs are the evidence. With every block's
        # codes, Teams articles' error codes and dated links withheld 17 other Learn
        # articles. An internal section's codes are what it hides ("The supervisor
        # override code is 4471." in a table row only a label hides): each is a unit.
        if pairs and (hidden or len(shingles) < _floor(split)):
            found.append(Unit(frozenset(), frozenset(), split, frozenset(pairs), block=block))
    if len(decoded) > 1:
        shingles = frozenset().union(*(s for s, _, _ in decoded))
        split = any(split for _, _, split in decoded)
        words_ = frozenset().union(*(w for _, w, _ in decoded))
        # A list of short items has few shingles (none across items) but its words: a
        # unit from 6 distinct words, as a block is from 6 words.
        if (_floor(split) <= len(shingles) or (not split and len(words_) >= MIN_UNIT_SHINGLES + 2)) \
                and len(shingles) <= SHORT_TEXT_SHINGLES * (2 if split else 1):
            found.append(Unit(shingles, words_, split))
    return list(dict.fromkeys(found))


def _skeleton_unit(entry: str) -> Unit:
    """The unit of a ``z:`` entry (:func:`_secret_entries`): its values are CRCs of the
    canonical forms under seed 5 (a whole value) and 6 (a part), never a shingle's or a
    word's."""
    body = entry.removeprefix(_SKELETON)
    shaped = body.startswith(_SHAPED)
    labelled = body.startswith(_LABELLED)
    sections = body.removeprefix(_SHAPED).removeprefix(_LABELLED).split(_SECTION)
    forms: set[tuple[str, int]] = set()
    parts: set[tuple[int, int]] = set()
    kept: set[int] = set()
    whole = chars = 0
    first = ""
    for at, section in enumerate(sections):
        canonical, *spellings = section.split(_FORM)
        first = first or canonical
        value = zlib.crc32(canonical.encode(), 6 if at else 5)
        if at:
            parts.add((value, len(canonical)))
        else:
            whole, chars = value, len(canonical)
        # A shaped value's whole and its parts with digits (``4417``) are never common; a
        # word part (``amber``) still is where the site says it widely.
        if (shaped and (not at or _DIGIT.search(canonical))) or (labelled and not at):
            kept.add(value)
        forms.update((form, value) for form in spellings)
    return Unit(frozenset(), frozenset(), secret=True, forms=frozenset(forms), whole=whole, parts=frozenset(parts),
                chars=chars, kept=frozenset(kept), canonical=first)


class Skeletons:
    """The skeletons the corpus's secrets may be written as (:attr:`Unit.forms`), looked
    for in each public page's skeleton (its ``j:`` entry) when the corpus is derived: a
    page holds the value of each form its skeleton contains. One regular expression of
    them all, a trie (each position of a page tries the forms' next characters at once),
    finds whether a page holds any; only then is each form looked for.

    A page's tokens (:func:`~provider.wiki.secret_forms.page_tokens`, after the skeleton
    in its ``j:`` entry) are compared with the corpus's own secrets only, so that no
    ordinary word can match (issue 24: the class, not its members): a token within
    :func:`~provider.wiki.secret_forms.edit_bound` edits of a key or of the key reversed
    (optimal string alignment, rapidfuzz: ``pL9wXm2RvK7q`` for ``qK7vR2mXw9Lp``), the
    key run together from 2 tokens or more (:func:`~provider.wiki.secret_forms.tiles`), or a
    token that reads as a code's skeleton through look-alike letters (:func:`~provider.wiki.secret_forms.reads_as`)."""

    def __init__(self, units_: Iterable[Unit]) -> None:
        self.values: dict[str, set[int]] = defaultdict(set)
        self.keys: dict[str, set[int]] = defaultdict(set)
        self.codes: dict[int, dict[str, set[int]]] = defaultdict(lambda: defaultdict(set))
        for unit in units_:
            for form, value in unit.forms:
                self.values[form].add(value)
            if is_key(unit.canonical):
                self.keys[unit.canonical].add(unit.whole)
            if sum(ch.isdigit() for ch in unit.canonical) >= SHAPED_DIGITS and unit.canonical.isalnum():
                self.codes[len(unit.canonical)][unit.canonical].add(unit.whole)
        self._any = re.compile(_trie(sorted(self.values))) if self.values else None

    def hits(self, entry: str) -> frozenset[int]:
        """The values of the forms a page's ``j:`` entry body (:func:`page_skeleton_of`:
        its skeleton, then its tokens) contains, and of the secrets its tokens are."""
        stream, _, listed = entry.partition(_SECTION)
        found: set[int] = set()
        if self._any is not None and stream and self._any.search(stream) is not None:
            found.update(v for form, values in self.values.items() if form in stream for v in values)
        if listed and (self.keys or self.codes):
            found |= self._token_hits(listed.split(" "))
        return frozenset(found)

    def _token_hits(self, page: list[str]) -> set[int]:
        found: set[int] = set()
        for token in page:
            for code, values in self.codes.get(len(token), {}).items():
                if reads_as(token, code):
                    found |= values
        if self.keys:
            folded = [token.casefold() for token in page]
            for key, values in self.keys.items():
                bound = edit_bound(key)
                near = [token for token in folded if abs(len(token) - len(key)) <= bound]
                if (near and process.extractOne(key, near, scorer=OSA.distance, score_cutoff=bound) is not None) \
                        or (near and process.extractOne(key[::-1], near, scorer=OSA.distance,
                                                        score_cutoff=bound) is not None) \
                        or tiles(key, folded):
                    found |= values
        return found


def _trie(forms: list[str]) -> str:
    """A regular expression matching any of ``forms`` (sorted), as a trie."""
    tree: dict[str, dict] = {}  # type: ignore[type-arg]
    for form in forms:
        node = tree
        for ch in form:
            node = node.setdefault(ch, {})
        node[""] = {}

    def pattern(node: dict) -> str:  # type: ignore[type-arg]
        if "" in node:
            return ""  # a shorter form ends here: reaching it is a match
        branches = [re.escape(ch) + pattern(child) for ch, child in sorted(node.items())]
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return pattern(tree)


_NO_SKELETONS = Skeletons(())


def page_skeleton_of(meta: DocumentMeta) -> str:
    """The skeleton of the document's public blocks and, after ``\\x1e``, their tokens
    (:func:`~provider.wiki.secret_forms.page_tokens`, by spaces): its ``j:`` entry's
    body, or ``""``."""
    entries = meta.block_shingles
    return entries[-1].removeprefix(_JOINED) if entries and entries[-1].startswith(_JOINED) else ""


def page_values(meta: DocumentMeta, skeletons: Skeletons) -> frozenset[int]:
    """What the document's public blocks hold: its :func:`public_set` and the values of
    the corpus's secret forms its skeleton contains (:meth:`Skeletons.hits`)."""
    found = skeletons.hits(page_skeleton_of(meta))
    return public_set(meta) | found if found else public_set(meta)


def source_capable(meta: DocumentMeta) -> bool:
    """Whether the document's own metadata can make it a source of rule 6d: internal by
    its front matter or the operator's audience rules, withheld by its own publication
    keys or path, quarantined, or holding internal sections. A document public by its
    metadata but internal by a corpus rule (a Hugo section's cascade) is no source: every
    document being one related most of a corpus to itself through shared code blocks, so
    that a one-file edit derived every document again."""
    return meta.audience != PUBLIC or meta.draft or bool(meta.errors) or bool(meta.internal_block_shingles)


def units(meta: DocumentMeta) -> tuple[list[Unit], list[Unit]]:
    """``(whole, internal)``: the units of the document's whole text (a source when the
    document is internal or withheld) and of its internal sections (always a source);
    none for a document that is not :func:`source_capable`."""
    if not source_capable(meta):
        return [], []
    return text_units(meta)


def text_units(meta: DocumentMeta) -> tuple[list[Unit], list[Unit]]:
    """:func:`units` whatever the document's metadata says (rule 6c's rarity test reads
    the units of a document withheld by a corpus rule too). The internal units of blocks
    only a label hides (:attr:`DocumentMeta.label_block_shingles`) are
    :attr:`Unit.labelled`."""
    internal = _units_of(meta.internal_block_shingles, hidden=True)
    if meta.label_block_shingles:
        left = Counter(meta.label_block_shingles)
        strong = []
        for entry in meta.internal_block_shingles:
            if left[entry] > 0:
                left[entry] -= 1
            else:
                strong.append(entry)
        internal = _units_of(tuple(strong), hidden=True)
        internal += [replace(unit, labelled=True) for unit in _units_of(meta.label_block_shingles, hidden=True)
                     if unit not in internal]
    whole = _units_of(meta.block_shingles + meta.internal_block_shingles) if meta.internal_block_shingles \
        else _units_of(meta.block_shingles)
    return whole, internal


def _values_of(entries: tuple[str, ...]) -> set[int]:
    found: set[int] = set()
    for entry in entries:
        if entry.startswith((_SENTENCE, _KEYED, _SKELETON, _JOINED)):
            continue  # its block holds it all; a skeleton is read against the secrets
        if entry.startswith((_NAMES, _SHORT)):  # blocks under 3 terms: their words only
            found.update(decode_words(entry))
            continue
        # The pairs' words are words.
        for section in entry.removeprefix(_COMMAND).removeprefix(_CODE).removeprefix(_SPLIT).split(_WORDS)[:3]:
            found.update(_unpack(section))
        found.add(block_id(entry))
    return found


def public_set(meta: DocumentMeta) -> frozenset[int]:
    """The shingle, word and code pair values of the document's public blocks, and each
    block's :func:`block_id` (what a page holds)."""
    return frozenset(_values_of(meta.block_shingles))


def counts_for_commonness(meta: DocumentMeta) -> bool:
    """Whether the document counts in the document frequency that makes a value common:
    public by its own metadata (not internal by front matter or audience rule, not a
    draft, not malformed). Internal pages do not: boilerplate 13 internal pages repeat is
    still distinctive where a few public pages hold it (the attack's laundering by
    repetition inside the internal part of the site)."""
    return meta.audience == PUBLIC and not meta.draft and not meta.errors


def _counted_values(meta: DocumentMeta, page: frozenset[int] | None = None,
                    skeletons: Skeletons = _NO_SKELETONS) -> frozenset[int]:
    """The values the document adds to the document frequency: its :func:`page_values`
    (``page`` if known) when it :func:`counts_for_commonness`, else none."""
    if not counts_for_commonness(meta):
        return frozenset()
    return page_values(meta, skeletons) if page is None else page


def _pair_words(units_: Iterable[Unit]) -> dict[int, int]:
    return {pair: word for unit in units_ for pair, word in unit.pairs}


def _blocks(units_: Iterable[Unit]) -> dict[int, tuple[frozenset[int], int]]:
    """Each :attr:`Unit.block` of ``units_``: the shingles of its block and the public
    documents that make it boilerplate (:data:`BOILERPLATE_DOCS`, or
    :data:`COMMAND_BOILERPLATE_DOCS` for a short command line)."""
    found: dict[int, tuple[frozenset[int], int]] = {}
    for unit in units_:
        if unit.block and not unit.pairs and not unit.sentence:
            found[unit.block] = (unit.shingles, COMMAND_BOILERPLATE_DOCS if unit.command else BOILERPLATE_DOCS)
        elif unit.block:
            found.setdefault(unit.block, (frozenset(), BOILERPLATE_DOCS))
    return found


def _common(df: Mapping[int, int], limit: int, pair_words: Mapping[int, int],
            blocks: Mapping[int, tuple[frozenset[int], int]] | None = None,
            kept: frozenset[int] = frozenset()) -> frozenset[int]:
    """The common values of ``df`` (value → public documents holding it): held by more
    than ``limit``; a code pair also when its word is (a code is evidence only beside a
    distinctive word of its unit: "error 0x80070005" is none); and a block that
    :data:`BOILERPLATE_DOCS` public documents hold whole (``blocks``: block id → its
    shingles and that threshold, :data:`COMMAND_BOILERPLATE_DOCS` for a short command
    line), with its shingles — the site's own footer or note, which those pages
    published already, however few they are. Never a value of ``kept`` (a secret-shaped
    value's: :attr:`Unit.kept`): 13 public pages carrying ``Override PIN: 4417-9920``
    copied from an internal page are 13 copies of a secret, not boilerplate (issue 24).

    Measured, not kept: a code pair common only when its word is common on pages
    *without* the code ("never common by public pastes") withheld 35 Microsoft Learn
    articles with ``Teams/**`` internal, whose diagnostics and add-in templates carry the
    same codes and link words as the Teams articles. A note pasted into more public
    pages than the limit is the documented residual."""
    found = set()
    for value, count in df.items():
        word = pair_words.get(value)
        if count > limit or (word is not None and df.get(word, 0) > limit):
            found.add(value)
    for block, (shingles, threshold) in (blocks or {}).items():
        if df.get(block, 0) >= threshold:
            found.add(block)
            found |= shingles
    return frozenset(found) - kept


@dataclass
class Rarity:
    """Which values of source units are common (see :func:`_common`).

    Attributes:
        limit: :func:`common_limit` of the number of public documents.
        common: the common values among those of source units.
    """

    limit: int
    common: frozenset[int] = field(default_factory=frozenset)
    _seen: dict[Unit, tuple[frozenset[int], frozenset[int]]] = field(default_factory=dict, repr=False,
                                                                     compare=False)

    def distinctive(self, unit: Unit) -> tuple[frozenset[int], frozenset[int]]:
        """``(shingles, words)`` of ``unit`` that are not common; for a code unit,
        ``(code pairs, ())``; nothing for a unit of a boilerplate block."""
        found = self._seen.get(unit)
        if found is None:
            if unit.block and unit.block in self.common:  # boilerplate (see _common)
                found = (frozenset(), frozenset())
            elif unit.pairs:
                found = (frozenset(p for p, _ in unit.pairs) - self.common, frozenset())
            else:
                found = (unit.shingles - self.common, unit.words - self.common)
            self._seen[unit] = found
        return found


def rarity(docs: Mapping[str, DocumentMeta], pages: Mapping[str, frozenset[int]] | None = None) -> Rarity:
    """The :class:`Rarity` of a whole corpus: each source unit value's document frequency
    over the documents that :func:`counts_for_commonness`. ``pages``: documents'
    :func:`page_values` already decoded."""
    wanted: set[int] = set()
    pair_words: dict[int, int] = {}
    found: list[Unit] = []
    blocks: dict[int, tuple[frozenset[int], int]] = {}
    for meta in docs.values():
        whole, internal = units(meta)
        found += whole + internal
        wanted |= {value for unit in (*whole, *internal) for value in unit.values()}
        pair_words.update(_pair_words((*whole, *internal)))
        blocks.update(_blocks((*whole, *internal)))
    skeletons = Skeletons(found)
    kept = frozenset().union(*(unit.kept for unit in found))
    counts: Counter[int] = Counter()
    counted = sum(1 for meta in docs.values() if counts_for_commonness(meta))
    if wanted:
        known = pages or {}
        for relpath, meta in docs.items():
            counts.update(_counted_values(meta, known.get(relpath), skeletons) & wanted)
    limit = common_limit(counted)
    return Rarity(limit, _common(counts, limit, pair_words, blocks, kept))


def held(unit: Unit, page: frozenset[int] | set[int], rare: Rarity) -> tuple[int, int]:
    """``(distinctive shingles, distinctive words)`` of ``unit`` that ``page`` holds."""
    shingles, words_ = rare.distinctive(unit)
    return len(shingles & page), len(words_ & page)


def contained(unit: Unit, page: frozenset[int] | set[int], rare: Rarity, *, words: bool = True) -> bool:
    """Whether ``page`` (a document's :func:`public_set`) contains ``unit`` by the wording
    or the words path (see the module docstring); ``words=False``: the wording path only
    (a page in another language than the unit: see :func:`provider.wiki.same_text.contained_text`)."""
    shingles, words_ = rare.distinctive(unit)
    if unit.labelled and not (unit.secret or unit.pairs or unit.names):
        # A code, a name or a secret's value is a fact wherever it stands: the exact rule
        # of each below applies to label-hidden text as to any other.
        return _verbatim(unit, page, shingles)
    if unit.pairs:  # a code unit: its code beside one of its words (see _common)
        return not shingles.isdisjoint(page)
    if unit.forms:
        return _holds_skeleton(unit, page, rare)
    if unit.secret:
        return _holds_secret(unit, shingles, words_, page)
    if unit.names:
        return len(words_) >= MIN_NAME_WORDS and \
            len(words_ & page) >= max(MIN_NAME_WORDS, math.ceil(WORD_SHARE * len(words_) - 1e-9))
    # A run of common words ("select Save, then sign in again") is site wording even where
    # the run itself is rare: MIN_HELD_WORDS distinctive words of the unit on the page.
    enough_words = unit.split or len(words_ & page) >= min(MIN_HELD_WORDS, len(unit.words))
    held_shingles = len(shingles & page)
    run = RUN_SPLIT_SHINGLES if unit.split else RUN_SHINGLES
    if enough_words and held_shingles >= run and _run(unit.order, page, shingles) >= run:
        return True  # a long piece of a longer text: a 12-word partial paste
    if (2 * len(shingles) >= len(unit.shingles) and len(shingles) >= MIN_DISTINCT_SHINGLES and enough_words
            and held_shingles >= max(MIN_DISTINCT_SHINGLES, math.ceil(CONTAINED_SHARE * len(shingles) - 1e-9))):
        return True
    # At least MIN_DISTINCT_WORDS held, not only the share: 5 English terms of a 7-term
    # glossary block scattered over a Korean FAQ are no copy of it. And only for a unit
    # made mostly of distinctive words (WORD_SHARE of them): out of order, a paragraph
    # of everyday prose shares most of its distinctive words with any page on its topic
    # (the sample wiki's offline-mode page held 14 of the 18 distinctive words of the
    # receipt page's 29-word "upload is stuck" paragraph).
    if not words or unit.split or unit.sentence or unit.secret or len(words_) < WORD_SHARE * len(unit.words):
        return False
    return len(words_) >= MIN_DISTINCT_WORDS and \
        len(words_ & page) >= max(MIN_DISTINCT_WORDS, math.ceil(WORD_SHARE * len(words_) - 1e-9))


def _verbatim(unit: Unit, page: frozenset[int] | set[int], shingles: frozenset[int]) -> bool:
    """Whether ``page`` holds a long piece of a :attr:`~Unit.labelled` unit as written: a
    run of :data:`RUN_SHINGLES` distinctive shingles (whole sentences), or every shingle
    of a shorter block with :data:`MIN_DISTINCT_SHINGLES` distinctive ones. A few rare
    words of a settings row hidden by one "(agents only)" cell are no copy of it: with
    the words and share paths, that row withheld 8 to 19 of 37 pages of our own docs."""
    if unit.pairs or unit.names or not unit.order or len(shingles) < MIN_DISTINCT_SHINGLES:
        return False
    run = RUN_SPLIT_SHINGLES if unit.split else RUN_SHINGLES
    return _run(unit.order, page, shingles) >= run or unit.shingles <= page


def _run(order: tuple[int, ...], page: frozenset[int] | set[int], distinctive: frozenset[int]) -> int:
    """The most distinctive shingles of one stretch of consecutive shingles of ``order``
    (a text's) that ``page`` all holds: a piece of the text, not runs scattered over it
    (a table of diagnostics shares a description here and a link there with each article
    it lists)."""
    best = count = 0
    for value in order:
        if value in page:
            count += value in distinctive
            best = max(best, count)
        else:
            count = 0
    return best


def _holds_secret(unit: Unit, shingles: frozenset[int], words_: frozenset[int],
                  page: frozenset[int] | set[int]) -> bool:
    """Whether ``page`` holds a secret's value (:attr:`Unit.secret`): all its runs and
    words, and distinctive content — of a value of three terms or more a distinctive run
    and (outside scripts written without spaces) a distinctive word; of a shorter value
    every word distinctive ("Password: your password" names nothing)."""
    if not (unit.shingles <= page and unit.words <= page):
        return False
    if unit.shingles:
        return bool(shingles) and (unit.split or bool(words_))
    return words_ == unit.words


def _holds_skeleton(unit: Unit, page: frozenset[int] | set[int], rare: Rarity) -> bool:
    """Whether ``page`` (with its skeleton's hits: :func:`page_values`) holds a secret's
    skeleton unit (:attr:`Unit.forms`): the whole value in one of its forms, unless it
    is common (more public pages than the limit write it: site wording, not a secret) or
    its distinctive parts (and those too short to be parts) have fewer than
    :data:`~provider.wiki.secret_forms.SKELETON_MIN_CHARS` characters
    (``Password: A secure password``, ``Password: password mysql database``: ``password``
    is on 180 of hetzner-tutorials' pages, and 8 other tutorials say "a secure
    password"); or every distinctive part — two at least, of
    :data:`~provider.wiki.secret_forms.PARTS_MIN_CHARS` together —, in any order,
    anywhere on the page."""
    mine = [(value, chars) for value, chars in unit.parts if value not in rare.common]
    rare_chars = sum(chars for _, chars in mine)
    # Characters too short to be parts (``rtc`` of ``RTC-7731``, ``db``) count as distinctive.
    short = unit.chars - sum(chars for _, chars in unit.parts)
    if unit.whole in page and unit.whole not in rare.common and (
            rare_chars + short >= SKELETON_MIN_CHARS or unit.whole in unit.kept):
        return True  # a kept value (a secret's label gives it) is the secret however common its words
    return len(mine) >= 2 and rare_chars >= PARTS_MIN_CHARS and all(value in page for value, _ in mine)


def part(unit: Unit, page: frozenset[int] | set[int], rare: Rarity) -> frozenset[int]:
    """The positions (in :attr:`Unit.order`) of the pieces of ``unit`` that ``page``
    carries, when the page holds :data:`PART_WORDS` distinctive words of the unit (else
    nothing): each stretch of consecutive shingles the page holds whole with
    :data:`PART_SHINGLES` distinctive ones, with the stretches the page holds within
    :data:`EDIT_SHINGLES` missing shingles of it (a piece with a word changed, dropped or
    added: "every 10th word replaced"). A piece of the text, not words and phrases
    scattered over the page: a long paragraph shares a few of those with every page on
    its topic (openai-agents-docs' guardrails note, whose 40 distinctive words are API
    names and verbs the other pages use). Floor: 4 consecutive words of the unit as
    written, 2 of their runs distinctive, or :data:`EDITED_GROUP_SHINGLES` distinctive
    3-word runs each one edited word from the next (not in code); a piece edited more
    densely than that is the residual."""
    shingles, words_ = rare.distinctive(unit)
    if unit.split or unit.sentence or unit.secret or unit.names or unit.labelled or not unit.order \
            or len(words_ & page) < PART_WORDS:
        return frozenset()
    # Each stretch the page holds: (first, last position, distinctive shingles).
    stretches: list[tuple[int, int, int]] = []
    start = count = 0
    for at, value in enumerate((*unit.order, None)):
        if value is not None and value in page:
            if at == 0 or unit.order[at - 1] not in page:
                start, count = at, 0
            count += value in shingles
        elif at and unit.order[at - 1] in page:
            stretches.append((start, at - 1, count))
    found: list[int] = []
    group: list[tuple[int, int, int]] = []
    edits = 0 if unit.code else EDIT_SHINGLES
    for stretch in (*stretches, None):
        if stretch is not None and group and stretch[0] - group[-1][1] - 1 <= edits:
            group.append(stretch)
            continue
        if any(n >= PART_SHINGLES for _, _, n in group) or (not unit.code and _edited_throughout(group)):
            found += [at for first, last, _ in group for at in range(first, last + 1)]
        group = [stretch] if stretch is not None else []
    return frozenset(found)


def _edited_throughout(group: list[tuple[int, int, int]]) -> bool:
    """Whether a page's ``group`` of stretches (first, last position, distinctive
    shingles) holds :data:`EDITED_GROUP_SHINGLES` distinctive 3-word pieces in a row, each
    one edited word from the next (at most :data:`SHINGLE_WORDS` missing shingles): a text
    with a word changed every 4 words, not phrases of it a page uses here and there."""
    best = count = 0
    for at, (first, _, distinctive) in enumerate(group):
        if at and first - group[at - 1][1] - 1 > SHINGLE_WORDS:
            count = 0
        count += distinctive
        best = max(best, count)
    return best >= EDITED_GROUP_SHINGLES


def parts_cover(unit: Unit, parts: Iterable[frozenset[int]], rare: Rarity, *, alone: bool = False) -> bool:
    """Whether pages' :func:`part` of ``unit`` (one page's or several) are its text cut
    into pieces, edited or not: together, with the gaps of at most :data:`EDIT_SHINGLES`
    shingles between them (the shingles straddling a cut, on no page, or those a changed,
    dropped or added word takes out; in code only the :data:`SHINGLE_WORDS` ``- 1``
    straddling a cut), or of :data:`CUT_SHINGLES` between two pieces spanning
    :data:`CUT_PIECE_SHINGLES` shingles each (not in code), they hold :data:`WORD_SHARE`
    of its distinctive shingles, and it has :data:`MIN_DISTINCT_WORDS` distinctive
    words. ``alone``: one page carries every piece, which must then hold
    :data:`ALONE_SHARE` of those shingles itself, the gaps
    not counted — a text edited every 9 words or more, not a page restating a few of its
    phrases (the sample wiki's public "Lost your two-factor device" lists the recovery
    form's fields that an internal scorecard row names again: 4 of 10 triples)."""
    shingles, words_ = rare.distinctive(unit)
    if len(words_) < MIN_DISTINCT_WORDS:
        return False
    held = frozenset().union(*parts)
    if not held:
        return False
    covered = set(held)
    gap = SHINGLE_WORDS - 1 if unit.code else EDIT_SHINGLES
    # The pieces the pages hold together, in the text's order, each with the gaps of an
    # edit inside it: [first, last position].
    pieces: list[list[int]] = []
    for at in sorted(held):
        if pieces and at - pieces[-1][1] - 1 <= gap:
            covered.update(range(pieces[-1][1] + 1, at))
            pieces[-1][1] = at
        else:
            pieces.append([at, at])
    if not unit.code:
        for (first, end), (start, last) in pairwise(pieces):
            if start - end - 1 <= CUT_SHINGLES and min(end - first, last - start) + 1 >= CUT_PIECE_SHINGLES:
                covered.update(range(end + 1, start))
    distinctive = [at for at, value in enumerate(unit.order) if value in shingles]
    if alone and sum(at in held for at in distinctive) < math.ceil(ALONE_SHARE * len(distinctive) - 1e-9):
        return False
    return sum(at in covered for at in distinctive) >= math.ceil(WORD_SHARE * len(distinctive) - 1e-9)


class ContainmentIndex:
    """Which documents hold a distinctive value of a source-capable document's units
    (:func:`source_capable`), whatever their status: the relation rule 6d reads, kept for
    :mod:`provider.wiki.incremental` (documents related here are each other's inputs),
    with the document frequency of every source unit value (the :class:`Rarity`).

    A value held by more than ``limit`` documents is common and relates nothing, so a
    value relates at most ``limit + 1`` documents. A source's containers are found by
    reading every document's stored values (``docs``): done only for a document with
    units (an internal page, a draft, a page with internal sections).
    """

    def __init__(self) -> None:
        self._units: dict[str, list[Unit]] = {}
        self._by_value: dict[int, set[str]] = defaultdict(set)
        #: How many source units' entries hold each value (a value leaves at 0).
        self._wanted: Counter[int] = Counter()
        #: The document frequency of every wanted value (public documents only).
        self._df: Counter[int] = Counter()
        #: How many documents count for commonness (:func:`counts_for_commonness`).
        self._counted = 0
        #: Each code pair value's word value (the pair's commonness reads it).
        self._pair_words: dict[int, int] = {}
        #: The forms of the sources' secrets (what a page's skeleton is read for).
        self._skeletons = _NO_SKELETONS
        #: Each source block's shingles (a boilerplate block's are common: see _common).
        self._blocks: dict[int, tuple[frozenset[int], int]] = {}
        self.rarity = Rarity(COMMON_MIN_DOCS)

    def clear(self) -> None:
        """Forget every document."""
        self._units.clear()
        self._by_value.clear()
        self._wanted.clear()
        self._df.clear()
        self._counted = 0
        self._pair_words.clear()
        self._skeletons = _NO_SKELETONS
        self._blocks.clear()
        self.rarity = Rarity(COMMON_MIN_DOCS)

    def rebuild(self, docs: Mapping[str, DocumentMeta]) -> None:
        """Index every document of ``docs`` (the whole corpus) afresh."""
        self.clear()
        for key, meta in docs.items():
            found = [*dict.fromkeys(u for part_ in units(meta) for u in part_)]
            if found:
                self._units[key] = found
                self._wanted.update(v for u in found for v in u.values())
                self._pair_words.update(_pair_words(found))
                self._blocks.update(_blocks(found))
        self._skeletons = Skeletons(u for found in self._units.values() for u in found)
        for meta in docs.values():
            self._counted += counts_for_commonness(meta)
            self._df.update(_counted_values(meta, None, self._skeletons) & self._wanted.keys())
        self.rarity = self._rarity()
        self._reindex()

    def _rarity(self) -> Rarity:
        limit = common_limit(self._counted)
        kept = frozenset().union(*(unit.kept for found in self._units.values() for unit in found))
        return Rarity(limit, _common(self._df, limit, self._pair_words, self._blocks, kept))

    def _reindex(self) -> None:
        self._by_value.clear()
        for key, found in self._units.items():
            self._index(key, found)

    def _index(self, key: str, found: list[Unit]) -> None:
        common = self.rarity.common
        for unit in found:
            for value in unit.values():
                if value not in common:
                    self._by_value[value].add(key)

    def update(self, changes: Mapping[str, tuple[DocumentMeta | None, DocumentMeta | None]],
               docs: Mapping[str, DocumentMeta]) -> bool:
        """Bring the index to ``docs`` (the whole corpus after the change) for the changed
        keys (``{key: (old meta, new meta)}``). Returns whether the :class:`Rarity` stayed
        the same for every value that was and still is a source unit's (else the caller
        derives everything again: a value that became common or distinctive changes
        decisions no relation follows)."""
        before = self.rarity
        added: set[int] = set()
        for key, (old, new) in changes.items():
            if old is not None:
                self._counted -= counts_for_commonness(old)
                self._df.subtract(_counted_values(old, None, self._skeletons) & self._wanted.keys())
            for unit in self._units.pop(key, ()):
                for value in unit.values():
                    self._by_value.get(value, set()).discard(key)
                    self._wanted[value] -= 1
            if new is not None:
                found = [*dict.fromkeys(u for part_ in units(new) for u in part_)]
                if found:
                    self._units[key] = found
                    self._pair_words.update(_pair_words(found))
                    self._blocks.update(_blocks(found))
                    for value in {v for u in found for v in u.values()}:
                        if self._wanted[value] <= 0:
                            added.add(value)
                    self._wanted.update(v for u in found for v in u.values())
        for value in [v for v, n in self._wanted.items() if n <= 0]:
            del self._wanted[value]
            self._df.pop(value, None)
            added.discard(value)
        self._by_value = defaultdict(set, {v: k for v, k in self._by_value.items() if k})
        if any(u.forms for found in self._units.values() for u in found) or self._skeletons.values:
            self._skeletons = Skeletons(u for found in self._units.values() for u in found)
        for _, new in changes.values():
            if new is not None:
                self._counted += counts_for_commonness(new)
                self._df.update(_counted_values(new, None, self._skeletons) & (self._wanted.keys() - added))
        if added:  # values new to the sources: counted over the whole corpus
            for value in added:
                self._df[value] = 0
            for meta in docs.values():
                self._df.update(_counted_values(meta, None, self._skeletons) & added)
        self.rarity = self._rarity()
        flipped = ((before.common ^ self.rarity.common) & self._wanted.keys()) - added
        if before.limit != self.rarity.limit or flipped:
            self._reindex()
            return False
        for key, (_, new) in changes.items():
            if new is not None and key in self._units:
                self._index(key, self._units[key])
        return True

    def related(self, key: str, meta: DocumentMeta, docs: Mapping[str, DocumentMeta]) -> Iterator[str]:
        """The source-capable documents one of whose distinctive values ``key`` (its
        ``meta``) holds, and, when ``key`` has units, the documents of ``docs`` holding
        one of its distinctive values."""
        page = page_values(meta, self._skeletons) if meta.block_shingles else frozenset()
        get = self._by_value.get
        found: set[str] = set()
        for value in page:
            sources = get(value)
            if sources:
                found |= sources
        found.discard(key)
        yield from found
        mine = self._units.get(key)
        if not mine:
            return
        common = self.rarity.common
        probes = {v for u in mine for v in u.values()} - common
        for other, other_meta in docs.items():
            if other != key and other_meta.block_shingles and \
                    not probes.isdisjoint(page_values(other_meta, self._skeletons)):
                yield other
