"""The spellings of one secret value, for rule 6d's secret units (:mod:`provider.wiki.containment`).

A public page copying ``Passphrase: amber falcon seventy nine`` may write the value in
any composition of: separators, case and camelCase changed (``Amber-Falcon-79``), words
run together or split anywhere (``marma lade``), every character spaced, a key regrouped
(``qK7v-R2mX-…``); its numbers in digits, one word a digit (``seven seven three one``),
in pairs (``seventy seven thirty one``), as one number or in Roman numerals (``LXXIX``);
its parts reordered or in separate paragraphs; ROT13 or reversed; percent-encoded, HTML
character references, full-width, zero-width or look-alike letters; base64 or hex.

Both sides are compared as **skeletons** (issue 24: the class, not its members):

* A page's side (:func:`page_skeleton`): its blocks decoded (HTML references,
  percent-encoding), folded as every copy rule folds (NFKC, case, look-alike letters,
  zero-width characters dropped), reduced to their letters and digits run together, then
  the same of what their base64 and hex runs decode to. One string a page, stored once;
  nothing of it depends on the corpus's secrets.
* A secret's side (:func:`secret_skeletons`): its canonical skeleton with numbers in
  digits (``amberfalcon79``), the skeletons it may be written as — each number in every
  spelling of :func:`number_spellings`, each as written, reversed, in ROT13 and both —
  and the same for each of its parts (``amber``, ``falcon``).

The corpus looks for every secret's skeletons in every public page's skeleton as a
substring (:class:`provider.wiki.containment.Skeletons`): the whole value, or every
distinctive part in any order and anywhere on the page. A value whose canonical skeleton
is shorter than :data:`SKELETON_MIN_CHARS` (a value of one word of letters:
:data:`SOLO_MIN_CHARS`), or a part shorter than :data:`PART_MIN_CHARS`, is never looked
for (``pin12`` would be everywhere), and one that more than a corpus's limit of public
pages hold is common (its rarity: :class:`~provider.wiki.containment.Rarity`). Residual:
a one-word value under :data:`SOLO_MIN_CHARS` letters split or encoded (``sword fish``),
and a code's parts reordered (``7731 RTC``: no two parts of :data:`PART_MIN_CHARS`).

The joined form (:func:`joined`: ``amberfalcon79``) and the value with its numbers in
digits and in words (:func:`with_digits`, :func:`spelled`) are the value's own units,
compared by its terms.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
import unicodedata
import urllib.parse
from collections.abc import Iterable, Iterator
from typing import Final

from .copies import _fold

__all__ = ["MAX_JOINED_CHARS", "MAX_SPELLINGS", "MIN_ENCODED_CHARS", "PARTS_MIN_CHARS", "PART_MIN_CHARS",
           "SKELETON_MIN_CHARS", "SOLO_MIN_CHARS",
           "decoded_texts", "joined", "number_spellings", "page_skeleton", "secret_skeletons", "skeleton", "spelled",
           "tokens", "with_digits"]

#: Characters a joined form has at most (longer: prose, not a secret).
MAX_JOINED_CHARS: Final = 64
#: Characters an encoded run needs before it is decoded (base64 of 9 bytes).
MIN_ENCODED_CHARS: Final = 12

_UNITS = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen".split())}
_TENS = {w: 10 * n for n, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), start=2)}
_SCALES = {"hundred": 100, "thousand": 1000}
_NUMBER_WORDS = frozenset(_UNITS) | frozenset(_TENS) | frozenset(_SCALES)
#: Letters, digits, camelCase parts: ``AmberFalcon79`` is ``Amber``, ``Falcon``, ``79``.
_TOKEN = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[^\W\d_A-Z]+|\d+|[^\W\d_]+")
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]+={0,2}")
_HEX = re.compile(r"(?:0x)?((?:[0-9a-fA-F]{2})+)")


def _number(words: list[str]) -> int:
    total = current = 0
    for word in words:
        if word in _UNITS:
            current += _UNITS[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = max(current, 1) * 100
        else:  # thousand
            total += max(current, 1) * 1000
            current = 0
    return total + current


def tokens(text: str) -> list[str]:
    """``text``'s tokens, folded, with each run of English number words one token of
    digits (``["amber", "falcon", "79"]`` for ``Amber-Falcon-seventy-nine``)."""
    raw = [t.casefold() for t in _TOKEN.findall(unicodedata.normalize("NFKC", text))]
    return [str(_number(run)) if run else token for token, run in _number_runs(raw)]


def _number_runs(raw: list[str]) -> Iterator[tuple[str, list[str]]]:
    """``(token, [])`` for each token of ``raw`` that is no number word, and ``("", run)``
    for each run of English number words (a scale word such as ``hundred`` does not start one)."""
    run: list[str] = []
    for token in [*raw, ""]:
        if token in _NUMBER_WORDS and not (token in _SCALES and not run):
            run.append(token)
            continue
        if run:
            yield "", run
            run = []
        if token:
            yield token, []


def joined(text: str) -> str:
    """The joined form of ``text`` (see the module docstring): ``amberfalcon79``."""
    return "".join(tokens(text))


def with_digits(text: str) -> str:
    """``text`` with its runs of English number words written as digits, other words
    kept: ``amber falcon 79``."""
    return " ".join(tokens(text))


def _words_of(number: int) -> str:
    names = {n: w for w, n in _UNITS.items()} | {n: w for w, n in _TENS.items()}
    if number < 20:
        return names[number]
    if number < 100:
        return names[number - number % 10] + ("" if number % 10 == 0 else " " + names[number % 10])
    if number < 1000:
        rest = number % 100
        return f"{names[number // 100]} hundred" + (f" {_words_of(rest)}" if rest else "")
    rest = number % 1000
    return f"{_words_of(number // 1000)} thousand" + (f" {_words_of(rest)}" if rest else "")


def spelled(text: str) -> str:
    """``text`` with each number below 10,000 (its own token) written in English words:
    ``amber falcon seventy nine``."""
    return " ".join(_words_of(int(t)) if t.isdigit() and int(t) < 10000 and not (len(t) > 1 and t[0] == "0")
                    else t for t in tokens(text))


def _printable(data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    # Zero-width characters (format, Cf) hide nothing a reader sees: a secret spaced by
    # them and then encoded is text.
    shown = sum(ch.isprintable() or ch.isspace() or unicodedata.category(ch) == "Cf" for ch in text)
    if not text or shown < 0.95 * len(text) or not any(ch.isalnum() for ch in text):
        return None
    return text


def decoded_texts(text: str) -> Iterator[str]:
    """The printable texts that base64 (standard or URL-safe) and hex runs of ``text``
    decode to (runs of :data:`MIN_ENCODED_CHARS` characters or more, each a
    whitespace-separated word of ``text`` less its surrounding punctuation)."""
    for word in text.split():
        if len(word) < MIN_ENCODED_CHARS:
            continue
        run = word.strip("\"'`()[]{}<>.,;:!?*")
        hexed = _HEX.fullmatch(run)
        if hexed is not None:
            found = _printable(binascii.unhexlify(hexed.group(1)))
            if found is not None:
                yield found
            continue
        if run.isdigit() or _BASE64.fullmatch(run) is None:
            continue
        padded = run.rstrip("=")
        padded += "=" * (-len(padded) % 4)
        try:
            data = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
        except (binascii.Error, ValueError):
            continue
        found = _printable(data)
        if found is not None:
            yield found


# --- Skeletons: what a public page's text and a secret are compared as (rule 6d) -------

#: Characters a secret's skeleton (in digits) needs to be looked for on public pages:
#: ``gw7731`` is one; ``pin12`` is not (a short code is a code pair's business).
SKELETON_MIN_CHARS: Final = 6
#: Characters a part of a secret needs to count as one (``amber`` of ``Amber-Falcon-79``;
#: not ``79``, nor ``xyz`` of ``abcde*1234#XYZ``: at 3, an alphabet on a Hetzner tutorial
#: held that placeholder's parts).
PART_MIN_CHARS: Final = 4
#: Characters a page must hold of a secret's distinctive parts together (parts path):
#: ``heron`` and ``orbit``.
PARTS_MIN_CHARS: Final = 10
#: Characters a value of one word of letters needs to be looked for as a skeleton
#: (``lighthousemarmalade``; not ``dbpassword``, ``changeme``, ``xxxxxxx``: placeholders
#: 5 to 8 other Hetzner tutorials write as ``DB_PASSWORD``, ``XXXXXXX``). Shorter, it is
#: found by its terms only (:func:`provider.wiki.containment.contained`).
SOLO_MIN_CHARS: Final = 11
#: Spellings of one secret looked for at most (each number has up to 6: its digits, its
#: digits one word each, in pairs, as a whole, in Roman numerals).
MAX_SPELLINGS: Final = 64

_ROT13 = str.maketrans("abcdefghijklmnopqrstuvwxyz", "nopqrstuvwxyzabcdefghijklm")
_NOT_ALNUM = re.compile(r"[\W_]+")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_DIGIT_WORDS = "zero one two three four five six seven eight nine".split()
_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
          (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))


def _undone(text: str) -> str:
    """``text`` with HTML character references and percent-encoding decoded, each in
    turn up to three times (``%2537`` is ``%37`` is ``7``; ``&#55%3B`` is ``&#55;`` is
    ``7``)."""
    for _ in range(3):
        done = html.unescape(text) if "&" in text else text
        if _PERCENT.search(done) is not None:
            done = urllib.parse.unquote(done)
        if done == text:
            break
        text = done
    return text


def skeleton(text: str) -> str:
    """``text``'s **skeleton**: decoded (HTML references, percent-encoding), folded as
    every copy rule folds (NFKC, case, look-alike letters, zero-width characters
    dropped: :func:`provider.wiki.copies.words`), then only its letters and digits, run
    together (``Amber-Falcon-79`` and ``a m b e r falcon %37%39`` are ``amberfalcon79``).
    Number words and Roman numerals are left as written: a secret is looked for in each
    of its numbers' spellings (:func:`secret_skeletons`), so a word split anywhere still
    runs together."""
    return _NOT_ALNUM.sub("", _fold(_undone(text)))


def page_skeleton(blocks: Iterable[str]) -> str:
    """The skeleton of a page's blocks, run together, then of what their base64 and hex
    runs decode to (:func:`decoded_texts`): what :func:`secret_skeletons` are looked
    for in."""
    texts = [_undone(text) for text in blocks]
    found = [skeleton(text) for text in texts]
    found += [skeleton(decoded) for text in texts for decoded in decoded_texts(text)]
    return "".join(found)


def _roman(number: int) -> str:
    out = ""
    for value, letters in _ROMAN:
        while number >= value:
            out += letters
            number -= value
    return out


def number_spellings(digits: str) -> frozenset[str]:
    """The skeletons a public page may write the number ``digits`` as: its digits, one
    English word a digit (``sevenseventhreeone``), in pairs of digits
    (``seventyseventhirtyone``, ``nineteeneightyfour``), as one number
    (``seventhousandsevenhundredthirtyone``, with ``and`` after ``hundred`` too), and
    in Roman numerals below 4,000 (``lxxix``)."""
    out = {digits, "".join(_DIGIT_WORDS[int(d)] for d in digits)}
    if len(digits) > 2 and len(digits) % 2 == 0 and "0" not in digits[::2]:
        out.add("".join(_words_of(int(digits[i : i + 2])) for i in range(0, len(digits), 2)).replace(" ", ""))
    number = int(digits)
    if number < 10000 and not (len(digits) > 1 and digits[0] == "0"):
        whole = _words_of(number)
        out |= {whole.replace(" ", ""), whole.replace("hundred ", "hundred and ").replace(" ", "")}
        if 0 < number < 4000:
            out.add(_roman(number))
    return frozenset(out)


def _number_groups(run: list[str]) -> str:
    """A run of English number words as digits, a new number where the words cannot go
    on one (``seven seven three one``: ``7731``; ``nineteen eighty four``: ``1984``;
    ``seventy nine``: ``79``)."""
    groups: list[list[str]] = []
    for word in run:
        last = groups[-1][-1] if groups else None
        goes_on = last is not None and (
            (word in _SCALES and last not in _SCALES)
            or (word in _TENS and last in _SCALES)
            or (word in _UNITS and (last in _SCALES or (last in _TENS and 0 < _UNITS[word] < 10))))
        if goes_on:
            groups[-1].append(word)
        else:
            groups.append([word])
    return "".join(str(_number(group)) for group in groups)


def _secret_parts(value: str) -> list[tuple[str, bool]]:
    """``value``'s parts, folded: ``(part, is a number)``; a run of number words one
    number of digits."""
    raw = [t.casefold() for t in _TOKEN.findall(_fold(_undone(value)))]
    return [(_number_groups(run), True) if run else (token, token.isdigit()) for token, run in _number_runs(raw)]


def _transformed(form: str) -> set[str]:
    """``form`` as written, reversed, in ROT13, and both."""
    rot = form.translate(_ROT13)
    return {form, form[::-1], rot, rot[::-1]}


def secret_skeletons(value: str) -> tuple[str, frozenset[str], tuple[tuple[str, frozenset[str]], ...]] | None:
    """What a public page holding the secret ``value`` may hold: ``(canonical, forms,
    parts)`` — its skeleton with numbers in digits (``amberfalcon79``), the skeletons it
    may be written as (each number in each of :func:`number_spellings`, at most
    :data:`MAX_SPELLINGS`; each as written, reversed, in ROT13 and both), and its parts
    of :data:`PART_MIN_CHARS` or more (canonical, forms: a number's spellings, each
    transformed the same way). ``None`` for a value under :data:`SKELETON_MIN_CHARS` or
    over :data:`MAX_JOINED_CHARS` (prose, not a secret)."""
    parts = _secret_parts(value)
    canonical = "".join(part for part, _ in parts)
    if not SKELETON_MIN_CHARS <= len(canonical) <= MAX_JOINED_CHARS:
        return None
    if len(parts) == 1 and canonical.isalpha() and len(canonical) < SOLO_MIN_CHARS:
        return None
    spellings = [""]
    for part, number in parts:
        options = sorted(number_spellings(part)) if number else [part]
        spellings = [s + o for s in spellings for o in options][:MAX_SPELLINGS]
    forms = {skeleton(value), *spellings}
    found: set[str] = set()
    for form in forms:
        found |= _transformed(form)
    pieces = []
    for part, number in parts:
        if len(part) >= PART_MIN_CHARS:
            written = number_spellings(part) if number else frozenset([part])
            pieces.append((part, frozenset(t for o in written for t in _transformed(o))))
    return canonical, frozenset(found), tuple(dict.fromkeys(pieces))
