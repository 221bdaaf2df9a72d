"""Issue 24 (CONTRACT X2), round three, as classes rather than members: an internal
page's secret line, and a public page that gives the secret

1. **a key edited** within one edit in five characters (swaps of neighbours, letters
   changed: ``Kq7vRm2Xw9Lp`` for ``qK7vR2mXw9Lp``), or **cut in 2 to 4 pieces** anywhere
   on the page;
2. **a code in look-alike letters, however many** (``TTEI-ZZgO`` for ``7731-2290``,
   ``AA17-qq2D``): read against the corpus's own secrets, not as "a number";
3. **a PIN in digits in any spacing, separator or width** (``Press 4417``, ``4-4-1-7``,
   ``4 4 1 7``, ``４４１７``) or **in words of another language**, Roman numerals, or
   digits and words mixed —

is withheld; ordinary words (``Blog``, ``SOS``), other keys and other numbers are not.
The rule runs in memory (:func:`tests.wiki.test_secret_attack_classes._withheld`: the
same units, rarity and :func:`~provider.wiki.containment.contained` as the corpus).
"""

from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from num2words import num2words

from provider.wiki.secret_forms import _mixed_case, edit_bound, is_placeholder
from tests.wiki.test_contained_text import _filler
from tests.wiki.test_secret_attack_classes import _INTERNAL_NOTE, _KEY_ALPHABET, _LOOKS, _around, _code, _key, _withheld

_DIGIT_WORDS = "zero one two three four five six seven eight nine".split()
_ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")


def _edited(rng: random.Random, key: str) -> str:
    """``key`` with :func:`edit_bound` edits at most (each a swap of neighbours or a
    character changed), at places apart so that no two edits undo each other."""
    shown = list(key)
    edits = rng.randint(1, edit_bound(key))
    places = sorted(rng.sample(range(0, len(key) - 1, 3), min(edits, len(key) // 3)))
    for at in places:
        if rng.random() < 0.5 and shown[at] != shown[at + 1]:
            shown[at], shown[at + 1] = shown[at + 1], shown[at]
        else:
            shown[at] = rng.choice([ch for ch in _KEY_ALPHABET if ch.casefold() != shown[at].casefold()])
    return "".join(shown)


def _pin(rng: random.Random) -> str:
    while True:
        value = str(rng.randint(1000, 9999))
        if not is_placeholder(value) and not value.startswith(("19", "20")):
            return value


@st.composite
def attacks(draw: st.DrawFn) -> tuple[str, list[str], str]:
    """(the internal secret line, the public page's paragraphs giving it, the class)."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    how = draw(st.sampled_from(["edited", "pieces", "lookalike", "pin-digits", "pin-words", "pin-mixed", "pin-roman"]))
    if how == "edited":
        value = _key(rng, rng.randint(10, 24))
        return f"API key: {value}", [_around(rng, f"sign in with {_edited(rng, value)} now")], how
    if how == "pieces":
        value = _key(rng, rng.randint(12, 24))
        count = rng.randint(3, 4)
        cuts = sorted(rng.sample(range(3, len(value) - 2), count - 1))
        while any(b - a < 3 for a, b in zip([0, *cuts], [*cuts, len(value)], strict=True)):
            cuts = sorted(rng.sample(range(3, len(value) - 2), count - 1))
        pieces = [value[a:b] for a, b in zip([0, *cuts], [*cuts, len(value)], strict=True)]
        # A piece of letters in one case (``abc``, ``Word``) is a word: the residual.
        assume(all(any(ch.isdigit() for ch in piece) or _mixed_case(piece) for piece in pieces))
        return f"API key: {value}", [_around(rng, f"part {n} is {piece}") for n, piece in enumerate(pieces)], how
    if how == "lookalike":
        value = _code(rng)
        chars = list(value)
        places = [i for i, ch in enumerate(chars) if ch != "-"]
        # More than half the digits as look-alikes, all of them possibly.
        for i in rng.sample(places, rng.randint(len(places) // 2 + 1, len(places))):
            chars[i] = rng.choice(_LOOKS[chars[i]])
        return f"Override code: {value}", [_around(rng, f"use {''.join(chars)} at the door")], how
    value = _pin(rng)
    if how == "pin-digits":
        shown = rng.choice([value, "-".join(value), " ".join(value), f"{value[:2]} {value[2:]}"]) \
            if rng.random() < 0.7 else "".join(chr(0xFF10 + int(d)) for d in value)
        return f"Door PIN: {value}", [_around(rng, f"press {shown.strip()} at the gate")], how
    if how == "pin-words":
        lang = rng.choice(["pl", "ru", "ja", "de", "fr", "es", "cs", "sv", "fi", "tr"])
        shown = " ".join(num2words(int(d), lang=lang) for d in value) if rng.random() < 0.5 \
            else num2words(int(value), lang=lang)
        return f"Door PIN: {value}", [_around(rng, f"press {shown} at the gate")], how
    if how == "pin-mixed":
        spelled = rng.sample(range(4), 2)
        shown = ", ".join(_DIGIT_WORDS[int(d)] if at in spelled else d for at, d in enumerate(value))
        return f"Door PIN: {value}", [_around(rng, f"press {shown} at the gate")], how
    assume("0" not in value)
    # The documented floor: a Roman spelling is looked for from 6 letters (``I V VI V``,
    # 1565, is 5: as short as a run of letters any page has).
    assume(len("".join(_ROMAN[int(d)] for d in value)) >= 6)
    shown = " ".join(_ROMAN[int(d)] for d in value)
    return f"Door PIN: {value}", [_around(rng, f"press {shown} at the gate")], how


@settings(max_examples=50, deadline=None)
@given(attacks())
def test_issue24_x2_edited_keys_lookalike_codes_and_pins_are_withheld(case: tuple[str, list[str], str]) -> None:
    """Issue 24, X2: a public page giving an internal page's secret in any of the classes
    1 to 3 is withheld; a public page of ordinary text beside it is not."""
    line, paragraphs, how = case
    rng = random.Random(line)
    other = [_filler(rng, 30) + "."]
    assert _withheld([_INTERNAL_NOTE, line], [paragraphs, other]) == [True, False], (how, line, paragraphs)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_issue24_other_keys_and_numbers_are_not_the_secret(seed: int) -> None:
    """Issue 24, the balance: a key more edits away than :func:`edit_bound` (another
    key), another 4-digit number, a year or a port beside the PIN's words, and words a
    look-alike map could read as digits (``Blog``, ``SOS``, ``E2E``) are not the
    internal page's secret."""
    rng = random.Random(seed)
    key, pin = _key(rng, rng.randint(10, 24)), _pin(rng)
    other_key = _key(rng, len(key))
    other_pin = str((int(pin) + rng.randint(1, 50)) % 9000 + 1000)
    assume(other_pin != pin)
    pages = [[_around(rng, f"sign in with {other_key} now")], [_around(rng, f"press {other_pin} at the gate")],
             [_around(rng, "Blog SOS E2E BIOS Oslo GOTO ZIOS in 2024 on port 8080")]]
    assert _withheld([_INTERNAL_NOTE, f"API key: {key}", f"Door PIN: {pin}", "Gate code: 8109-5050"],
                     pages) == [False, False, False], (key, other_key, pin, other_pin)
