"""Issue 24 (CONTRACT X2), the attacker on the current build: a PIN or a code said in
forms rule 6d missed, each served to ``customer_safe``. As classes:

1. a PIN said in a sentence that goes on after it (``… is 7305 and it rotates
   monthly.``), after an aside (``The alarm PIN (rotated monthly) is 4417.``), before its
   name (``4417 is the alarm PIN.``) or in a table's column named for it;
2. a lone PIN written in another script's digits (``٤٤١٧``, ``४४१७``, ``৪৪১৭``, ``۴۴۱۷``);
3. a key or a code with Cyrillic or Greek look-alike letters, capitals included
   (``qК7vR2mХw9Lр``, ``7731-ZZ9О``);

and that a dotted version of a PIN's digits (``Upgrade to version 4.4.17``, ``release
4.4.1.7``: 3 or more numeric groups) is no PIN's spacing (4); and that a code of what it
opens is a secret's label (``Access code``, ``Lock code``, ``Safe combination``,
``Türcode``, ``Code d'accès``, ``Código de acceso``), not a code of nothing secret
(``Error code``, ``Zip code``) (5).

is withheld when a public page gives its digits. The rule runs in memory
(:func:`tests.wiki.test_secret_attack_classes._withheld`); a page's blocks are what
:func:`provider.wiki.plaintext.markdown_to_text` makes of its markdown.
"""

from __future__ import annotations

import random
import unicodedata

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.plaintext import markdown_to_text
from tests.wiki.test_secret_attack_classes import _code, _key, _withheld

_NOTE = "Notes for the on-call rota, kept here for the night shift."
_WHATS = ("alarm PIN", "lab door code", "door code", "alarm code", "PIN", "gate code")


def _blocks(markdown: str) -> list[str]:
    return [block.text for block in markdown_to_text(markdown).blocks]


def _pin(rng: random.Random) -> str:
    while True:
        value = str(rng.randint(1000, 99999))
        if not (1900 <= int(value) <= 2099) and len(set(value)) > 2 and value not in "0123456789":
            return value


@st.composite
def _said_pins(draw: st.DrawFn) -> tuple[str, str]:
    """(an internal page's markdown saying a PIN, the PIN)."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    pin, what = _pin(rng), rng.choice(_WHATS)
    form = draw(st.sampled_from(["and", "aside", "first", "table"]))
    if form == "and":
        line = f"The {what} is {pin} {rng.choice(['and', 'but', 'which'])} it rotates monthly."
    elif form == "aside":
        line = f"The {what} ({rng.choice(['rotated monthly', 'see the rota', 'night shift'])}) is {pin}."
    elif form == "first":
        line = f"{pin} is the {what}."
    else:
        line = f"| System | {what.split()[-1].upper() if what.endswith('PIN') else what.capitalize()} |\n" \
               f"|---|---|\n| Alarm | {pin} |\n| Lobby | see the desk |"
    return f"{_NOTE}\n\n{line}\n", pin


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(_said_pins(), st.sampled_from(["Press {} to continue.", "Disarm the walrus alarm with {}."]))
def test_issue24_a_pin_said_in_any_sentence_or_table_is_looked_for_anywhere(case: tuple[str, str],
                                                                            public: str) -> None:
    internal, pin = case
    assert _withheld(_blocks(internal), [[public.format(pin)]]) == [True]


def test_issue24_the_attackers_pin_sentences_are_withheld() -> None:
    for internal, public in [
        ("The alarm PIN is 7305 and it rotates monthly.", "Disarm the walrus alarm with 7305."),
        ("The lab door code is 4417 and it rotates monthly.", "Press 4417 to continue."),
        ("The alarm PIN (rotated monthly) is 4417.", "Press 4417 to continue."),
        ("4417 is the alarm PIN.", "Press 4417 to continue."),
        ("| System | PIN |\n|---|---|\n| Alarm | 4417 |", "Press 4417 to continue."),
    ]:
        assert _withheld(_blocks(f"{_NOTE}\n\n{internal}\n"), [[public]]) == [True], internal


def test_issue24_a_state_a_number_of_a_non_secret_or_a_table_of_no_secret_stay_public() -> None:
    for internal, public in [
        ("The token is revoked and a new one is created.", "The token is revoked by the admin."),
        ("4417 is the build number.", "Press 4417 to continue."),
        ("| System | Port |\n|---|---|\n| Alarm | 4417 |", "Press 4417 to continue."),
        # An options table's row naming a secret is no header (a Hetzner tutorial's installer options).
        ("| Option | Meaning |\n|---|---|\n| Password | The password of the admin |\n| 4417 | The port |",
         "Press 4417 to continue."),
    ]:
        assert _withheld(_blocks(f"{_NOTE}\n\n{internal}\n"), [[public]]) == [False], internal


#: The zero of each script's decimal digits a public page may write a PIN in.
_ZEROS = [zero for zero in range(0x660, 0x1D800) if unicodedata.category(chr(zero)) == "Nd"
          and unicodedata.decimal(chr(zero)) == 0 and not (0xFF10 <= zero <= 0xFF19)]


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10**6), st.sampled_from(_ZEROS))
def test_issue24_a_pin_in_any_scripts_digits_is_its_digits(seed: int, zero: int) -> None:
    pin = _pin(random.Random(seed))
    shown = "".join(chr(zero + int(digit)) for digit in pin)
    assert _withheld([_NOTE, f"Alarm PIN: {pin}"], [[f"Enter {shown} to continue."]]) == [True], shown


def test_issue24_the_attackers_pin_in_other_digits_is_withheld() -> None:
    for shown in ("٤٤١٧", "४४१७", "৪৪১৭", "۴۴۱۷"):
        assert _withheld([_NOTE, "Alarm PIN: 4417"], [[f"Enter {shown} to continue."]]) == [True], shown


#: Cyrillic and Greek letters a reader takes for a Latin one (capitals too: ``К``, ``Х``, ``О``).
_LOOKALIKE_LETTERS = {"K": "КΚ", "X": "ХΧ", "O": "ОΟ", "p": "рρ", "A": "АΑ", "B": "ВΒ", "C": "С", "E": "ЕΕ",
                      "H": "НΗ", "M": "МΜ", "T": "ТΤ", "a": "а", "c": "с", "e": "е", "o": "оο", "x": "х",
                      "y": "у", "Z": "Ζ"}


def _respelled(rng: random.Random, value: str) -> str:
    at = [i for i, ch in enumerate(value) if ch in _LOOKALIKE_LETTERS]
    chosen = set(rng.sample(at, min(len(at), rng.randint(1, 3))))
    return "".join(rng.choice(_LOOKALIKE_LETTERS[ch]) if i in chosen else ch for i, ch in enumerate(value))


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10**6), st.sampled_from(["key", "code"]))
def test_issue24_cyrillic_and_greek_lookalike_letters_in_keys_and_codes(seed: int, what: str) -> None:
    rng = random.Random(seed)
    if what == "key":
        value = _key(rng, rng.randint(12, 20)) + rng.choice("KXOp")  # a letter with look-alikes
        line = f"API key: {value}"
    else:
        code = _code(rng)[:-2] + "".join(rng.choice("20") for _ in range(2))
        line = f"Override code: {code}"
        value = code[:-2] + code[-2:].translate(str.maketrans("20", "ZO"))  # 2 as Z, 0 as O
    shown = _respelled(rng, value)
    assert _withheld([_NOTE, line], [[f"Use the pelican token {shown} now."]]) == [True], (line, shown)


def test_issue24_the_attackers_cyrillic_key_and_code_are_withheld() -> None:
    assert _withheld([_NOTE, "API key: qK7vR2mXw9Lp"], [["Use the pelican token qК7vR2mХw9Lр"]]) == [True]
    assert _withheld([_NOTE, "Override code: 7731-2290"], [["Use 7731-ZZ9О now."]]) == [True]


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10**6),
       st.sampled_from(["Upgrade to version {}.", "Use release {} today.", "Since {} the menu moved."]))
def test_issue24_a_dotted_version_of_a_pins_digits_is_no_pin(seed: int, public: str) -> None:
    rng = random.Random(seed)
    pin = _pin(rng)
    cuts = sorted(rng.sample(range(1, len(pin)), rng.randint(2, len(pin) - 1)))
    version = ".".join(pin[a:b] for a, b in zip([0, *cuts], [*cuts, len(pin)], strict=True))
    assert _withheld([_NOTE, f"Alarm PIN: {pin}"], [[public.format(version)], [f"Press {pin} to continue."]]) \
        == [False, True], version


def test_issue24_the_attackers_versions_stay_public_and_other_spacings_do_not() -> None:
    pages = [["Upgrade to version 4.4.17"], ["Use release 4.4.1.7 today."], ["Press 44.17 now."], ["Dial 4-4-1-7."]]
    assert _withheld([_NOTE, "Alarm PIN: 4417"], pages) == [False, False, True, True]


_OPENS = "access entry lock door gate alarm safe keypad unlock security".split()
_NAMES = ["code", "PIN", "combination", "codes"]
_OTHER_LABELS = ["Combination", "Türcode", "Code d'accès", "Código de acceso", "Lock number"]
_NOT_SECRETS = ["Error code", "Status code", "Zip code", "Country code", "Product code", "Key combination",
                "Access number"]


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10**6), st.sampled_from(["{}: {}", "The {} is {}."]))
def test_issue24_a_code_of_what_it_opens_is_a_secrets_label(seed: int, form: str) -> None:
    rng = random.Random(seed)
    pin = _pin(rng)
    label = rng.choice([f"{rng.choice(_OPENS).capitalize()} {rng.choice(_NAMES)}", *_OTHER_LABELS])
    secret = _withheld([_NOTE, form.format(label, pin)], [[f"Press {pin} to continue."]])
    plain = _withheld([_NOTE, form.format(rng.choice(_NOT_SECRETS), pin)], [[f"Press {pin} to continue."]])
    assert (secret, plain) == ([True], [False]), label
