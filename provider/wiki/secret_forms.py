"""The spellings of one secret value, for rule 6d's secret units (:mod:`provider.wiki.containment`).

A public page copying ``Passphrase: amber falcon seventy nine`` may write the value
``Amber-Falcon-79``, ``amber_falcon_79``, ``AmberFalcon79``, ``amber falcon 79``, as two
words run together or one split (``sword fish`` for ``swordfish``), or encoded
(``YW1iZXIgZmFsY29uIHNldmVudHkgbmluZQ==``, its hex). Both sides are brought to one
**joined form** (:func:`joined`): NFKC and case folded, camelCase split, every run of
English number words written as digits (``seventy nine`` → ``79``), then every letter
and digit run together without separators (``amberfalcon79``).

* The secret's side: its joined form (:func:`secret_forms`) and the value with its
  numbers written in digits and in English words (each a unit of its terms).
* A page's side (:func:`page_joined`): the joined form of every run of
  :data:`JOIN_TERMS` or fewer consecutive tokens (a token: a camelCase part, a run of
  letters or digits, a run of number words), and of every base64 or hex run of
  :data:`MIN_ENCODED_CHARS` or more characters that decodes to printable text (and of
  every run of that text's tokens).

A joined form shorter than :data:`~provider.wiki.containment.SECRET_MIN_CHARS` is never
compared: ``pin1`` would be everywhere.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from collections.abc import Iterator
from typing import Final

__all__ = ["JOIN_TERMS", "MAX_JOINED_CHARS", "MIN_ENCODED_CHARS", "decoded_texts", "joined", "page_joined",
           "spelled", "tokens", "with_digits"]

#: Tokens a page's run has at most to be compared joined (``Velvet-Orbit-Quartz-79``: 4).
JOIN_TERMS: Final = 4
#: Characters a joined form has at most (longer: prose, not a secret).
MAX_JOINED_CHARS: Final = 64
#: Characters an encoded run needs before it is decoded (base64 of 9 bytes).
MIN_ENCODED_CHARS: Final = 12
#: Tokens of a decoded text that are compared (a long decoded text is its runs' business).
_DECODED_TOKENS = 32

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
    out: list[str] = []
    run: list[str] = []
    for token in [*raw, ""]:
        if token in _NUMBER_WORDS and not (token in _SCALES and not run):
            run.append(token)
            continue
        if run:
            out.append(str(_number(run)))
            run = []
        if token:
            out.append(token)
    return out


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
    shown = sum(ch.isprintable() or ch.isspace() for ch in text)
    if not text or shown < 0.95 * len(text) or not any(ch.isalpha() for ch in text):
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


def _runs(found: list[str], longest: int) -> Iterator[str]:
    for start in range(len(found)):
        piece = ""
        for token in found[start : start + longest]:
            piece += token
            if len(piece) > MAX_JOINED_CHARS:
                break
            yield piece


def page_joined(text: str, min_chars: int) -> set[str]:
    """The joined forms a page's block ``text`` holds (see the module docstring), of
    ``min_chars`` characters or more: runs of two to :data:`JOIN_TERMS` tokens (a single
    token is already one of the page's words), and of a decoded base64 or hex run every
    run of its tokens."""
    found = tokens(text)
    out: set[str] = set()
    for start in range(len(found) - 1):
        piece = found[start]
        for token in found[start + 1 : start + JOIN_TERMS]:
            piece += token
            if len(piece) > MAX_JOINED_CHARS:
                break
            if len(piece) >= min_chars:
                out.add(piece)
    for decoded in decoded_texts(text):
        inner = tokens(decoded)[:_DECODED_TOKENS]
        out.update(piece for piece in _runs(inner, len(inner)) if len(piece) >= min_chars)
    return out
