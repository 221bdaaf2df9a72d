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
A key reversed or with two neighbours swapped, a PIN of 4 or 5 digits in words
(:func:`_spelled_pin`) and a key's or code's pieces apart (:func:`key_pieces`, words of
the page) are looked for too (issue 24, second round). A page's key-like words
(:func:`page_tokens`) are compared with the corpus's own secrets only: edited keys
(:func:`edit_bound`), keys in pieces (:func:`tiles`) and codes in look-alike letters
(:func:`reads_as`) (third round).

The joined form (:func:`joined`: ``amberfalcon79``) and the value with its numbers in
digits and in words (:func:`with_digits`, :func:`spelled`) are the value's own units,
compared by its terms.
"""

from __future__ import annotations

import base64
import binascii
import html
import itertools
import re
import unicodedata
import urllib.parse
from collections.abc import Iterable, Iterator
from typing import Final

from .copies import _fold
from .lookalike import latin_lookalikes

__all__ = ["CIPHER_MIN_LETTERS", "FOREIGN_DIGIT_WORDS", "KEY_MIN_CHARS", "MAX_JOINED_CHARS", "MAX_PAGE_TOKENS",
           "MAX_SPELLINGS", "MIN_BYTE_RUN", "MIN_ENCODED_CHARS", "MIN_NATO_RUN", "MIXED_MAX_DIGITS",
           "NUMBER_LANGUAGES", "PARTS_MIN_CHARS", "PART_MIN_CHARS", "PIECE_MIN_CHARS", "PIN_SPELLED_CHARS",
           "SHAPED_DIGITS", "SKELETON_MIN_CHARS", "SOLO_MIN_CHARS", "ascii_digits", "decoded_texts", "edit_bound",
           "is_key", "is_placeholder", "is_secret_shaped", "joined", "key_pieces", "number_spellings",
           "page_respellings", "page_skeleton", "page_tokens", "reads_as", "roman_numeral", "secret_skeletons",
           "short_splits", "skeleton", "spelled", "tiles", "tokens", "with_digits"]

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
    """The printable texts ``text`` holds encoded or spelled out (issue 24's respellings
    a reader undoes): its base64 (standard or URL-safe), base32 and hex words (of
    :data:`MIN_ENCODED_CHARS` characters or more, less their surrounding punctuation);
    its runs of byte values (``0x73 0x77 …``, ``\\x73\\x77…``, ``73:77:6f:…``, ``115 119
    111 …``: :data:`MIN_BYTE_RUN` or more); its runs of NATO alphabet words
    (``sierra whiskey …``: :data:`MIN_NATO_RUN` or more, digits in English words too);
    its words with leet digits between letters (``p4ssw0rd``, ``sw0rdf1sh``); and its
    runs of single characters (``s w o r d f i s h``) run together; and, where a digit
    code holds look-alike letters (``44l7-992O``, ``4A17-9920``, ``44l7-gg2O``: the
    class of :data:`_DIGIT_LOOKALIKES`), the text with them as digits."""
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
        if _BASE32.fullmatch(run) is not None:
            try:
                found = _printable(base64.b32decode(run + "=" * (-len(run) % 8)))
            except (binascii.Error, ValueError):
                found = None
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
    digits = _HAS_DIGIT.search(text) is not None
    if digits:
        for found_run in _BYTE_RUN.finditer(text):
            decoded = _bytes_of(found_run.group())
            if decoded is not None:
                yield decoded
    if digits or "@" in text or "$" in text:
        # One case after the first letter: p4ssw0rd, P4SSW0RD, Sw0rdf1sh; not a key or base64
        # (qK7vR2mX), nor hex (a hash, or what the hex decoder reads).
        leet = [shown for word in _LEET_WORD.findall(text)
                if (word[1:].islower() or word[1:].isupper()) and _HEX.fullmatch(word) is None
                and (shown := _LEET_INSIDE.sub(_unleet, word)) != word]
        if leet:
            yield " ".join(leet)
    for found_run in _NATO_RUN.finditer(text):
        yield "".join(_NATO[word.casefold()] for word in _NATO_WORD.findall(found_run.group()))
    for found_run in _SPACED.finditer(text):
        yield found_run.group().replace(" ", "")
    if digits:
        shown = _LOOKALIKE_GROUP.sub(_as_digits, text)
        if shown != text:
            yield shown


#: The letters (and marks) a reader takes for a digit, by the digit (issue 24's class:
#: ``0`` O o D Q, ``1`` l I i | !, ``2`` Z, ``3`` E, ``4`` A, ``5`` S s, ``6`` G b,
#: ``7`` T, ``8`` B, ``9`` g q).
_DIGIT_LOOKALIKES = {"0": "OoDQ", "1": "lIi|!", "2": "Z", "3": "E", "4": "A", "5": "Ss", "6": "Gb", "7": "T",
                     "8": "B", "9": "gq"}
#: A code with look-alike letters (``44l7``, ``992O``, ``4A17-9920``, ``44l7-gg2O``): groups of
#: three characters or more joined by hyphens, of which digits at least as many as letters
#: and two at least (counted over the whole code: ``gg2O`` alone is a word).
_LOOKALIKE_GROUP = re.compile(r"(?<![^\W_-])[0-9" + re.escape("".join(_DIGIT_LOOKALIKES.values()))
                              + r"]{3,}(?:-[0-9" + re.escape("".join(_DIGIT_LOOKALIKES.values()))
                              + r"]{3,})*(?![^\W_-])")
_AS_DIGITS = str.maketrans({ch: digit for digit, chars in _DIGIT_LOOKALIKES.items() for ch in chars})


def _as_digits(found: re.Match[str]) -> str:
    group = found.group()
    digits = sum(ch.isdigit() for ch in group)
    letters = len(group) - digits - group.count("-")
    return group.translate(_AS_DIGITS) if digits >= 2 and digits >= letters else group


#: Byte values a run needs to be decoded (``0x73 0x77 0x6f 0x72 0x64 0x66``).
MIN_BYTE_RUN: Final = 6
#: NATO alphabet words a run needs to be read as letters (four in a row are no prose).
MIN_NATO_RUN: Final = 4
_BASE32 = re.compile(r"[A-Z2-7]+={0,6}")
_HAS_DIGIT = re.compile(r"\d")
_BYTE_RUN = re.compile(
    rf"(?:(?:0x|\\x)[0-9a-fA-F]{{2}}(?:[\s,;:]*)){{{MIN_BYTE_RUN},}}"
    rf"|\b[0-9a-fA-F]{{2}}(?:[ :,-][0-9a-fA-F]{{2}}){{{MIN_BYTE_RUN - 1},}}\b"
    rf"|\b\d{{2,3}}(?:[ ,;]+\d{{2,3}}){{{MIN_BYTE_RUN - 1},}}\b")
_BYTE = re.compile(r"(?:0x|\\x)?([0-9a-fA-F]{2,3})")
#: A word of letters holding leet characters (``p4ssw0rd``, ``p@$$word``).
_LEET_WORD = re.compile(r"(?<![\w@$])(?=[\w@$]*[A-Za-z][\w@$]*[A-Za-z])(?=[\w@$]*[0134578@$])[\w@$]{4,32}(?![\w@$])")
#: Leet characters (one to three) between letters, starting or ending a word of letters.
_LEET_INSIDE = re.compile(r"(?<=[A-Za-z])[0134578@$]{1,3}(?=[A-Za-z])"
                          r"|^[0134578@$]{1,3}(?=[A-Za-z])|(?<=[A-Za-z])[0134578@$]{1,3}$")
_LEET = str.maketrans("0134578@$", "oieastbas")
_NATO = {word: word[0] for word in (
    "alfa alpha bravo charlie delta echo foxtrot golf hotel india juliett juliet kilo lima mike november "
    "oscar papa quebec romeo sierra tango uniform victor whiskey whisky xray x-ray yankee zulu").split()} | {
    word: str(digit) for digit, word in enumerate("zero one two three four five six seven eight nine".split())} | {
    "niner": "9"}
_NATO_WORD = re.compile(r"\b(?:" + "|".join(sorted(_NATO, key=len, reverse=True)) + r")\b", re.IGNORECASE)
_NATO_RUN = re.compile(rf"(?:{_NATO_WORD.pattern}[\s,./-]*){{{MIN_NATO_RUN},}}", re.IGNORECASE)
#: Single characters spaced out: ``s w o r d f i s h`` (four or more).
_SPACED = re.compile(r"(?<!\S)(?:[^\W_] ){3,}[^\W_](?!\S)")


def _unleet(found: re.Match[str]) -> str:
    return found.group().translate(_LEET)


def _bytes_of(run: str) -> str | None:
    """The printable text a run of byte values spells (hex with a ``0x``/``\\x`` prefix
    or in pairs, else decimal), or ``None``."""
    values = _BYTE.findall(run)
    hexed = "0x" in run or "\\x" in run or any(not v.isdigit() for v in values) or all(len(v) == 2 for v in values)
    try:
        data = bytes(int(v, 16 if hexed else 10) for v in values)
    except ValueError:
        return None
    found = _printable(data)
    return found if found is not None and sum(ch.isalpha() for ch in found) >= 2 else None


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

_ANY_DIGIT = re.compile(r"(?![0-9])\d")
_ROT13 = str.maketrans("abcdefghijklmnopqrstuvwxyz", "nopqrstuvwxyzabcdefghijklm")
_NOT_ALNUM = re.compile(r"[\W_]+")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_DIGIT_WORDS = "zero one two three four five six seven eight nine".split()
#: Letters a value's skeleton needs before its Caesar shifts and Atbash are looked for
#: (a short value shifted is any short run of letters).
CIPHER_MIN_LETTERS: Final = 9
_LOWER = "abcdefghijklmnopqrstuvwxyz"
#: Every Caesar shift but ROT13 (:func:`_transformed` has it) and Atbash.
_CIPHERS = (*(str.maketrans(_LOWER, _LOWER[k:] + _LOWER[:k]) for k in range(1, 26) if k != 13),
            str.maketrans(_LOWER, _LOWER[::-1]))
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
    return _NOT_ALNUM.sub("", _fold(ascii_digits(_undone(text))))


def ascii_digits(text: str) -> str:
    """``text`` with every decimal digit of another script (Arabic-Indic ``٧``,
    Devanagari ``७``, Bengali, Thai…) as the ASCII digit it stands for; NFKC leaves them
    alone (it folds only full-width ``７``)."""
    if text.isascii():
        return text
    return _ANY_DIGIT.sub(lambda found: str(unicodedata.digit(found.group())), text)


#: Languages a number may be spelled in on a page (num2words' codes): those whose labels
#: :mod:`provider.wiki.secret_lines` reads and those of the corpora's translations.
NUMBER_LANGUAGES: Final = ("en", "de", "fr", "es", "it", "pt", "nl", "pl", "ru", "uk", "cs", "sv", "da", "no", "fi",
                           "tr", "hu", "ja", "ko")


def _spelled_number(number: int, lang: str) -> str:
    from num2words import num2words  # spelling in many languages is the library's, not a hand list

    return str(num2words(number, lang=lang))


#: Digit words of :data:`NUMBER_LANGUAGES` but English (German, French, … Polish, Russian,
#: Japanese ``四``, Korean ``사``), folded as a page's text is (``pięć`` is ``piec``): a number
#: one word a digit in any of them.
FOREIGN_DIGIT_WORDS: Final = tuple(dict.fromkeys(
    tuple(_NOT_ALNUM.sub("", _fold(_spelled_number(digit, lang))) for digit in range(10))
    for lang in NUMBER_LANGUAGES if lang != "en"))


def page_skeleton(blocks: Iterable[str]) -> str:
    """The skeleton of a page's blocks, run together, then of what they hold encoded or
    spelled out (:func:`decoded_texts`): what :func:`secret_skeletons` are looked for
    in."""
    return page_respellings(blocks)[0]


def page_respellings(blocks: Iterable[str], code: Iterable[str] = ()) -> tuple[str, list[str]]:
    """``(skeleton, respelled)``: the page's :func:`page_skeleton`, and the texts its
    blocks hold respelled — each block with HTML references and percent-encoding decoded
    (where that changes it) and what :func:`decoded_texts` finds in it —, whose words a
    secret's value of a word or two is looked for among (a short value is never looked
    for in a skeleton: ``swordfish`` sent as ``%73%77…``, base32 or NATO words).
    ``code``: the page's code, in order (code blocks, inline code spans): its short pieces
    (a skeleton of :data:`MAX_JOINED_CHARS` characters at most) run together end the
    skeleton, so a secret split over two code blocks or spans (```4417``` …
    ```9920```) is whole there."""
    texts = list(blocks)
    undone = [_undone(text) for text in texts]
    decoded = [found for text in undone for found in decoded_texts(text)]
    stream = "".join(skeleton(text) for text in undone) + "".join(skeleton(text) for text in decoded)
    pieces = [shown for piece in code if len(shown := skeleton(piece)) <= MAX_JOINED_CHARS]
    if len(pieces) > 1:
        stream += "".join(pieces)
    return stream, [shown for shown, text in zip(undone, texts, strict=True) if shown != text] + decoded


#: A page's word of letters and digits, hyphenated groups together (``TTEI-ZZgO``, ``qK7v``).
#: ``|`` and ``!`` are look-alikes of 1 (``73!!-TB9D``).
_PAGE_TOKEN = re.compile(r"(?:[^\W_]|[|!])+(?:-(?:[^\W_]|[|!])+)*")
#: Tokens a page keeps at most (:func:`page_tokens`): a page of hex dumps is bounded.
MAX_PAGE_TOKENS: Final = 4000
_LOOKALIKE_CHARS = frozenset("".join(_DIGIT_LOOKALIKES.values()))


def page_tokens(blocks: Iterable[str]) -> list[str]:
    """The words of a page's blocks that a secret copied with edits may be (issue 24, a
    class compared only against the corpus's secrets: :class:`provider.wiki.containment.Skeletons`),
    distinct, in their case (a look-alike ``b`` is 6, ``B`` 8), hyphens dropped (and each
    hyphenated group on its own), HTML
    references and percent-encoding decoded, NFKC: each of 3 to :data:`MAX_JOINED_CHARS`
    characters holding a digit (``Kq7vRm2Xw9Lp``, ``AA17qq2D``, a piece ``R2mX``), a
    key's mixed case (``ZZgO``, ``vgY``; not ``Hello``), or of 6 or more made only of look-alike letters
    (``TTEIZZGO``). At most :data:`MAX_PAGE_TOKENS`."""
    out: dict[str, None] = {}
    for text in blocks:
        shown = _undone(text)
        if not shown.isascii():
            # Look-alike letters as the Latin letter or digit they imitate, in their case
            # (``qК7vR2mХw9Lр`` with Cyrillic К, Х, р; ``7731-ZZ9О``: issue 24).
            shown = unicodedata.normalize("NFKC", ascii_digits(shown)).translate(latin_lookalikes())
        for found in _PAGE_TOKEN.findall(shown):
            if found.isalpha() and (found.islower() or found.istitle()):
                continue  # a word (``blog``, ``Hello``), most of a page: no key, piece or code
            whole = found.replace("-", "")
            # A ``!`` or ``|`` at either end is as often punctuation (``Done!``) as a 1.
            # Its groups too: a key after a prefix (``sk-Kq7vRm2Xw9Lp``).
            parts = found.split("-") if "-" in found else []
            for token in dict.fromkeys((whole, whole.strip("|!"), *parts)):
                if not 3 <= len(token) <= MAX_JOINED_CHARS or token in out:
                    continue
                if any(ch.isdigit() for ch in token) or _mixed_case(token) or (
                        len(token) >= SKELETON_MIN_CHARS and set(token) <= _LOOKALIKE_CHARS):
                    out[token] = None
                    if len(out) >= MAX_PAGE_TOKENS:
                        return list(out)
    return list(out)


def _mixed_case(token: str) -> bool:
    """A key's piece's case (``vgY``, ``BGjf``), not a word's (``Hello``): an upper case
    letter after a lower case one, or two upper case letters and a lower case one."""
    return any(a.islower() and b.isupper() for a, b in itertools.pairwise(token)) or (
        sum(ch.isupper() for ch in token) >= 2 and any(ch.islower() for ch in token))


def reads_as(token: str, code: str) -> bool:
    """Whether the page's ``token`` (:func:`page_tokens`) is a secret's skeleton ``code``
    (letters and digits, lower case) written with look-alike letters for some of its
    digits (``TTEI-ZZgO``, ``AA17-qq2D`` for ``7731-2290``, ``4417-9920``: the class of
    :data:`_DIGIT_LOOKALIKES`), at least one: each character the code's or, where the
    code has a digit, a letter a reader takes for it. A token of letters only needs
    :data:`SKELETON_MIN_CHARS` characters (``Blog`` is no ``8109``)."""
    if len(token) != len(code) or (len(token) < SKELETON_MIN_CHARS and not any(ch.isdigit() for ch in token)):
        return False
    swapped = 0
    for shown, meant in zip(token, code, strict=True):
        if shown.casefold() == meant:
            continue
        if meant.isdigit() and shown in _DIGIT_LOOKALIKES[meant]:
            swapped += 1
            continue
        return False
    return swapped > 0


def edit_bound(key: str) -> int:
    """Edits (optimal string alignment: a swap of neighbours is one) a copy of the key
    ``key`` may carry and still be it: one in 5 characters (``Kq7vRm2Xw9Lp`` for
    ``qK7vR2mXw9Lp``: 2 swaps in 12). A random token that close to one of the corpus's
    few keys is no chance."""
    return max(1, len(key) // 5)


def tiles(key: str, pieces: Iterable[str]) -> bool:
    """Whether ``key`` (lower case) is some of ``pieces`` (a page's tokens, lower case,
    of 3 characters or more) run together, two pieces at least (``qK7v`` … ``R2mX`` …
    ``w9Lp`` anywhere on a page)."""
    inside = {piece for piece in pieces if 3 <= len(piece) < len(key) and piece in key}
    if len(inside) < 2:
        return False
    reached = [False] * (len(key) + 1)
    reached[0] = True
    for at in range(len(key)):
        if reached[at]:
            for piece in inside:
                if key.startswith(piece, at):
                    reached[at + len(piece)] = True
    return reached[len(key)]


def roman_numeral(number: int) -> str:
    """``number`` (1 to 3,999) in Roman numerals, lower case (``1987``: ``mcmlxxxvii``);
    ``""`` for 0."""
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
            out.add(roman_numeral(number))
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
    # camelCase is split before folding loses the case: ``VaultOtterBlue`` is three
    # parts, reordered or split on a page (``BlueVault Otter``) as any value's (issue 24).
    shown = unicodedata.normalize("NFKC", ascii_digits(_undone(value)))
    raw = [_fold(t).casefold() for t in _TOKEN.findall(shown)]
    raw = [t for found in raw for t in _TOKEN.findall(found)]
    return [(_number_groups(run), True) if run else (token, token.isdigit()) for token, run in _number_runs(raw)]


def _foreign(digits: str) -> frozenset[str]:
    """``digits`` one word a digit in each language of :data:`FOREIGN_DIGIT_WORDS`."""
    return frozenset("".join(words[int(d)] for d in digits) for words in FOREIGN_DIGIT_WORDS)


def _transformed(form: str) -> set[str]:
    """``form`` as written, reversed, in ROT13, and both."""
    rot = form.translate(_ROT13)
    return {form, form[::-1], rot, rot[::-1]}


_GROUP = re.compile(r"[^\W_]+")
#: Groups a code has at most for its groups' reversals to be looked for.
_MAX_GROUPS = 8


def secret_skeletons(value: str) -> tuple[str, frozenset[str], tuple[tuple[str, frozenset[str]], ...]] | None:
    """What a public page holding the secret ``value`` may hold: ``(canonical, forms,
    parts)`` — its skeleton with numbers in digits (``amberfalcon79``), the skeletons it
    may be written as (each number in each of :func:`number_spellings`, at most
    :data:`MAX_SPELLINGS`; each as written, reversed, in ROT13 and both), and its parts
    of :data:`PART_MIN_CHARS` or more (canonical, forms: a number's spellings, each
    transformed the same way); a value of digits in 2 to 8 groups also with each group
    reversed and with the groups in reverse order. ``None`` for a value under :data:`SKELETON_MIN_CHARS` or
    over :data:`MAX_JOINED_CHARS` (prose, not a secret)."""
    parts = _secret_parts(value)
    canonical = "".join(part for part, _ in parts)
    if canonical.isdigit() and SHAPED_DIGITS <= len(canonical) < SKELETON_MIN_CHARS:
        return _spelled_pin(canonical)
    if not SKELETON_MIN_CHARS <= len(canonical) <= MAX_JOINED_CHARS:
        return None
    if len(parts) == 1 and canonical.isalpha() and len(canonical) < SOLO_MIN_CHARS:
        return None
    spellings = [""]
    for part, number in parts:
        options = sorted(number_spellings(part)) if number else [part]
        spellings = [s + o for s in spellings for o in options][:MAX_SPELLINGS]
    forms = {skeleton(value), *spellings}
    if any(number for _, number in parts):
        forms |= {"".join("".join(words[int(d)] for d in part) if number else part for part, number in parts)
                  for words in FOREIGN_DIGIT_WORDS}
    groups = _GROUP.findall(_fold(ascii_digits(_undone(value))))
    if 1 < len(groups) <= _MAX_GROUPS and any(ch.isdigit() for ch in canonical):
        # A code's groups reversed each (``7144-0299``) or in reverse order (``9920-4417``).
        forms |= {"".join(group[::-1] for group in groups), "".join(reversed(groups))}
    # A key edited (swapped neighbours, typos), as written or reversed, is a page's word
    # near it (:class:`provider.wiki.containment.Skeletons`), not a list of variants here.
    found: set[str] = set()
    for form in forms:
        found |= _transformed(form)
    if sum(ch.isalpha() for ch in canonical) >= CIPHER_MIN_LETTERS:
        for form in {canonical, skeleton(value)}:
            found |= {shown.translate(table) for shown in (form, form[::-1]) for table in _CIPHERS}
    pieces = []
    for part, number in parts:
        if len(part) >= PART_MIN_CHARS:
            written = number_spellings(part) | _foreign(part) if number else frozenset([part])
            pieces.append((part, frozenset(t for o in written for t in _transformed(o))))
    return canonical, frozenset(found), tuple(dict.fromkeys(pieces))


#: Characters a key (letters and digits mixed in one run) has at least for its pieces and
#: swapped neighbours to be looked for (:func:`key_pieces`).
KEY_MIN_CHARS: Final = 10
#: Characters each piece of a key cut in two has at least (:func:`key_pieces`).
PIECE_MIN_CHARS: Final = 4


def is_key(canonical: str) -> bool:
    """Whether a secret's canonical skeleton is a key: :data:`KEY_MIN_CHARS` characters or
    more, two letters and two digits at least (``qk7vr2mxw9lp``)."""
    return len(canonical) >= KEY_MIN_CHARS and sum(ch.isdigit() for ch in canonical) >= 2 \
        and sum(ch.isalpha() for ch in canonical) >= 2


#: Characters a PIN's spelling needs in letters (``fourfouroneseven``); in a script whose
#: every character is a word (``四四一七``, ``사사일칠``), :data:`SHAPED_DIGITS`.
PIN_SPELLED_CHARS: Final = 8
#: Digits a PIN has at most for its digits and words mixed to be looked for (2 ** 5 forms).
MIXED_MAX_DIGITS: Final = 5


def _ideographic(form: str) -> bool:
    return all(unicodedata.name(ch, "").startswith(("CJK", "HANGUL")) for ch in form)


def _spelled_pin(digits: str) -> tuple[str, frozenset[str], tuple[tuple[str, frozenset[str]], ...]]:
    """A PIN of 4 or 5 digits (too short a skeleton as digits: ``4417`` is in many a page's
    run of digits) as the words a page may write it in: one word a digit and as one
    number in each of :data:`NUMBER_LANGUAGES` (``four four one seven``, ``cztery cztery
    jeden siedem``, ``четыре тысячи…``, ``四四一七``), in pairs (``forty four seventeen``),
    digits and English words mixed (``4, four, 1, seven``), and in Roman numerals, as a
    whole (``MMMMCDXVII``) or one a digit (``IV IV I VII``). Only spellings of
    :data:`PIN_SPELLED_CHARS` characters or more (Roman numerals:
    :data:`SKELETON_MIN_CHARS`; a script whose characters are words: :data:`SHAPED_DIGITS`).
    The canonical skeleton is the digits (what a look-alike spelling is read against:
    :class:`provider.wiki.containment.Skeletons`)."""
    number = int(digits)
    forms = set(number_spellings(digits) | _foreign(digits))
    if not (len(digits) > 1 and digits[0] == "0"):
        forms |= {skeleton(_spelled_number(number, lang)) for lang in NUMBER_LANGUAGES}
    romans = {"m" * (number // 1000) + roman_numeral(number % 1000)} if digits[0] != "0" else set()
    if "0" not in digits:
        romans.add("".join(roman_numeral(int(d)) for d in digits))
    if len(digits) <= MIXED_MAX_DIGITS:
        for spelled_out in itertools.product((False, True), repeat=len(digits)):
            if 2 <= sum(spelled_out) < len(digits):
                forms.add("".join(_DIGIT_WORDS[int(d)] if word else d for d, word in zip(
                    digits, spelled_out, strict=True)))
    return digits, frozenset({form for form in forms if not form.isdigit() and (
        len(form) >= PIN_SPELLED_CHARS or (len(form) >= SHAPED_DIGITS and _ideographic(form)))}
        | {form for form in romans if len(form) >= SKELETON_MIN_CHARS}), ()


def key_pieces(value: str) -> list[tuple[str, ...]]:
    """The pieces a page may give a secret's ``value`` in, apart (``the key starts
    qK7vR2 and ends mXw9Lp``; ``4417`` and ``9920`` in two paragraphs or table cells):
    a value of two groups or more of :data:`PIECE_MIN_CHARS` characters, letters and
    digits (``4417-9920``): its groups; a key (:data:`KEY_MIN_CHARS` or more, letters
    and digits mixed): it cut in two pieces of :data:`PIECE_MIN_CHARS` or more, each cut.
    Folded as terms are (lower case); none for another value."""
    groups = [_fold(group).casefold() for group in _GROUP.findall(ascii_digits(_undone(value)))]
    out: list[tuple[str, ...]] = []
    if 1 < len(groups) <= _MAX_GROUPS and all(len(group) >= PIECE_MIN_CHARS for group in groups) \
            and any(ch.isdigit() for group in groups for ch in group):
        out.append(tuple(groups))
    whole = "".join(groups)
    if len(groups) == 1 and is_key(whole) and len(whole) <= MAX_JOINED_CHARS:
        out += [(whole[:cut], whole[cut:]) for cut in range(PIECE_MIN_CHARS, len(whole) - PIECE_MIN_CHARS + 1)]
    return list(dict.fromkeys(out))


#: Words that make a value a placeholder wherever they stand in it (``your-api-key``,
#: ``<example password>``, ``CHANGEME``).
_PLACEHOLDER_MARKS = ("your", "example", "placeholder", "changeme", "redacted", "dummy", "sample", "xxx", "foobar")
#: Words a placeholder is made of only (``password``, ``API token``, ``secret value``).
_GENERIC = frozenset("""
    password passwd pass pwd passphrase passcode pin secret token key api apikey value here string text word
    my new old test demo foo bar baz none null empty user username admin root db database mysql postgres
    code word phrase login access private public default strong secure random generated the a an
""".split())
_BRACKETED = re.compile(r"<[^<>]*>|\{\{?[^{}]*\}?\}|\[[^\[\]]*\]|\$\{?[A-Za-z_]\w*\}?|%\w+%")
_SEQUENCES = "0123456789012345678901", "9876543210987654321", "abcdefghijklmnopqrstuvwxyz", "qwertyuiop", "asdfghjkl"


#: A version (``v1.2.3``, ``2.0``), a date (``2024-05-17``, ``17.05.2024``, ``05/17/2024``),
#: a time, an IP address, or a well-known port: what a value after a label may be
#: without naming any secret (``Port: 8080``, ``Key: 2024-05-17``).
_NOT_SECRETS = re.compile(
    r"v?\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?"
    r"|\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{4}|\d{1,2}:\d{2}(?::\d{2})?"
    r"|(?:(?:\w+://)?(?:localhost|[\d.]+):)?(?:80|443|8080|8443|8000|8888|3000|5000|5432|3306|6379|27017|9000|9090|9200"
    r"|22|21|25|53|587|993|995|1433|1521|5672|11211)/?", re.IGNORECASE)
#: Digits a value's digit groups need together to be secret-shaped (``4417-9920``; a
#: ``PIN: 4417`` too).
SHAPED_DIGITS: Final = 4
_ALNUM_RUN = re.compile(r"[^\W_]+(?:[-\s.][^\W_]+)*")
_GROUP_GAP = re.compile(r"(?<=\d)[-\s.]+(?=\d)")


def is_secret_shaped(value: str) -> bool:
    """Whether a secret line's ``value`` has a secret's shape, so that no count of public
    pages copying it makes it common (issue 24: 13 public pages writing ``Override PIN:
    4417-9920`` published it as boilerplate): not a placeholder (:func:`is_placeholder`),
    and a run of digit groups of :data:`SHAPED_DIGITS` digits or more together
    (``4417-9920``, ``7731``), or a word mixing letters and digits, two of each with a
    digit before its last letter (``GW-7731``, ``qK7vR2mX``: not ``sha256``,
    ``office365``), or a random key's case (a word of 10 or more letters changing case
    4 times: ``qKvRmXpLwTsZ``). Words alone (``swordfish``, ``amber falcon``) are not:
    a word copied widely is the site's (the residual of
    docs/reference/corpus-rules.md); the whole of such a value a label gives is kept
    all the same (a ``z:l:`` entry of :mod:`provider.wiki.containment`)."""
    if is_placeholder(value):
        return False
    shown = ascii_digits(unicodedata.normalize("NFKC", _undone(value)))
    for found in _ALNUM_RUN.finditer(shown):
        run = _GROUP_GAP.sub("", found.group())
        for word in re.split(r"[-\s.]+", run):
            digits = sum(ch.isdigit() for ch in word)
            if digits >= SHAPED_DIGITS:
                return True
            letters = len(word) - digits
            if digits >= 2 and letters >= 2 and any(ch.isdigit() for ch in word[: max(
                    i for i, ch in enumerate(word) if not ch.isdigit())]):
                return True
            if len(word) >= 10 and sum(
                    a.isupper() != b.isupper() for a, b in itertools.pairwise(word)) >= 4:
                return True
    return False


def is_placeholder(value: str) -> bool:
    """Whether a secret line's ``value`` is a placeholder an author writes for the
    reader's own secret, never a secret (issue 24's false positives): a bracketed or
    variable name (``<password>``, ``{{token}}``, ``${DB_PASS}``), a value with a
    placeholder's word (``your-api-key``, ``example``, ``xxxx``) or only generic words
    (``Password: secret``), one or two characters repeated (``******``, ``000000``), or
    a run of the digits or the alphabet or a keyboard row (``123456``, ``abcdef``,
    ``qwerty``), or a version, a date, a time, an IP address or a well-known port
    (``1.2.3``, ``2024-05-17``, ``8080``, ``localhost:443``)."""
    shown = value.strip().strip("`'\"")
    if not shown or _BRACKETED.fullmatch(shown) is not None or _NOT_SECRETS.fullmatch(shown) is not None:
        return True
    whole = skeleton(shown)  # as written: "seventy" is a value, its "70" would be no secret
    if not whole or len(set(whole)) <= 2:
        return True
    if any(mark in whole for mark in _PLACEHOLDER_MARKS) or _generic_only(whole):
        return True
    return any(whole in run for run in _SEQUENCES)


def _generic_only(whole: str) -> bool:
    """Whether ``whole`` (a skeleton) is generic words run together (``dbpassword``,
    ``myPassword``, ``secret-token``)."""
    ends = {0}
    for end in range(1, len(whole) + 1):
        if any(start in ends and whole[start:end] in _GENERIC for start in range(max(0, end - 12), end)):
            ends.add(end)
    return len(whole) in ends


def short_splits(value: str) -> list[str]:
    """A one-word value of letters too short to be looked for as a skeleton (from 6 to
    :data:`SOLO_MIN_CHARS` less one letters): the value cut in two words of 3 letters or
    more (``marma lade``, ``sword fish``), each looked for as the words of a secret's
    value — both distinctive, anywhere on one page. Else none."""
    parts = _secret_parts(value)
    if len(parts) != 1 or not parts[0][0].isalpha():
        return []
    word = parts[0][0]
    if not 6 <= len(word) < SOLO_MIN_CHARS:
        return []
    return [f"{word[:cut]} {word[cut:]}" for cut in range(3, len(word) - 2)]
