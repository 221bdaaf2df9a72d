"""Issue 24 (CONTRACT X2), the third attacker: an internal page's secret respelled on a
public page in forms rule 6d still let through, as classes —

1. numbers one word a digit in English, German, French, Spanish, Italian, Portuguese or
   Dutch, in other scripts' digits (Arabic-Indic, Devanagari, Bengali, full-width), in
   Roman numerals;
2. prose: a multi-word passphrase said in a sentence (``The recovery phrase for the
   vault is correct horse battery staple and …``); a short value cut in two words
   (``marma lade``), the two in one paragraph or in separate ones, in either order;
3. ciphers and encodings: every Caesar shift and Atbash (values of 9 letters or more),
   reversal, leet (``p4ssw0rd``), the NATO alphabet, percent-encoding, base32, hex and
   decimal byte runs, a key regrouped or every character spaced —

and never a placeholder (``<password>``, ``your-api-key``, ``xxxx``, ``123456``,
``example``): an author's stand-in for the reader's own secret withholds nothing.
"""

from __future__ import annotations

import base64
import random
import urllib.parse

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.secret_forms import (
    CIPHER_MIN_LETTERS,
    FOREIGN_DIGIT_WORDS,
    decoded_texts,
    is_placeholder,
    page_skeleton,
    roman_numeral,
    secret_skeletons,
)
from provider.wiki.secret_lines import secret_values
from tests.support import write_files
from tests.wiki.test_contained_text import SECRET_WORDS, _filler, _page, _public

_E2E = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
_DIGIT_WORDS = (("zero one two three four five six seven eight nine".split()),
                *(list(words) for words in FOREIGN_DIGIT_WORDS))
#: Other scripts' zero: Arabic-Indic, Extended Arabic-Indic, Devanagari, Bengali, Thai, full-width.
_ZEROS = (0x660, 0x6F0, 0x966, 0x9E6, 0xE50, 0xFF10)
_NATO = dict(zip("abcdefghijklmnopqrstuvwxyz0123456789", (
    "alfa bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa quebec "
    "romeo sierra tango uniform victor whiskey xray yankee zulu zero one two three four five six seven eight "
    "niner").split(), strict=True))
_LEET = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"}
#: Words of short values (6 to 10 letters), none in FILLER or SECRET_WORDS.
SHORT_VALUES = "swordfish marmalade heronry quartzite tundrafox velvetine copperjay".split()
#: Values of 9 letters or more for the ciphers.
LONG_VALUES = "lighthousekeeper quartzheron marmaladefox velvetorbit copperfalcon".split()
PHRASE_WORDS = "amber falcon lighthouse copper heron velvet orbit quartz tundra".split()



def _caesar(text: str, shift: int) -> str:
    return "".join(chr((ord(ch) - 97 + shift) % 26 + 97) if "a" <= ch <= "z" else ch for ch in text)


@st.composite
def respelled(draw: st.DrawFn) -> tuple[str, list[str], str]:
    """(the internal page's secret line, the public page's paragraphs holding it
    respelled, how): one member of the three classes of the module docstring."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    how = draw(st.sampled_from(["digit-words", "script-digits", "roman", "prose", "split", "cipher", "reversed",
                                "leet", "nato", "percent", "base32", "bytes", "regrouped", "spaced"]))
    if how in ("digit-words", "script-digits", "roman"):
        number = rng.randint(1000, 3999) * 10**4 + rng.randint(1000, 9999) if how != "roman" else rng.randint(
            1000, 3999)
        word = rng.choice(PHRASE_WORDS)
        line = f"Door code: {number}" if how != "roman" else f"Passphrase: {word} {rng.choice(PHRASE_WORDS)} {number}"
        if how == "digit-words":
            words = rng.choice(_DIGIT_WORDS)
            shown = " ".join(words[int(d)] for d in str(number))
        elif how == "script-digits":
            zero = rng.choice(_ZEROS)
            shown = "".join(chr(zero + int(d)) for d in str(number))
        else:
            shown = line.partition(": ")[2].replace(str(number), roman_numeral(number).upper())
        return line, [f"{_filler(rng, 8)} {shown} {_filler(rng, 8)}."], how
    if how == "prose":
        value = " ".join(rng.sample(PHRASE_WORDS, rng.randint(3, 5)))
        label = rng.choice(["recovery phrase for the vault", "passphrase", "shared password for staging"])
        line = f"The {label} is {value} and it rotates every month."
        return line, [f"{_filler(rng, 8)} {value} {_filler(rng, 8)}."], how
    if how == "split":
        value = rng.choice(SHORT_VALUES)
        cut = rng.randint(3, len(value) - 3)
        pieces = [value[:cut], value[cut:]]
        if rng.random() < 0.5:
            pieces.reverse()
        if rng.random() < 0.5:  # separate paragraphs of one page
            return f"Password: {value}", [f"{_filler(rng, 8)} {p} {_filler(rng, 8)}." for p in pieces], how
        return f"Password: {value}", [f"{_filler(rng, 8)} {' '.join(pieces)} {_filler(rng, 8)}."], how
    if how in ("cipher", "reversed"):
        value = rng.choice(LONG_VALUES)
        if how == "reversed":
            shown = value[::-1]
        elif rng.random() < 0.2:
            shown = "".join(chr(219 - ord(ch)) for ch in value)  # Atbash
        else:
            shown = _caesar(value, rng.randint(1, 25))
        shown = shown.upper() if rng.random() < 0.3 else shown
        return f"Password: {value}", [f"{_filler(rng, 8)} {shown} {_filler(rng, 8)}."], how
    if how == "regrouped":
        alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
        value = "".join(rng.choice(alphabet) for _ in range(rng.randint(16, 32)))
        size = rng.randint(3, 6)
        shown = rng.choice("- ").join(value[i : i + size] for i in range(0, len(value), size))
        return f"API key: {value}", [f"{_filler(rng, 8)} {shown} {_filler(rng, 8)}."], how
    value = rng.choice(SHORT_VALUES + LONG_VALUES)
    if how == "leet":
        shown = "".join(_LEET.get(ch, ch) if rng.random() < 0.5 else ch for ch in value)
        if shown == value:
            shown = value.replace("o", "0").replace("e", "3").replace("a", "4")
    elif how == "nato":
        shown = rng.choice([" ", ", ", "-"]).join(_NATO[ch] for ch in value)
        shown = shown.title() if rng.random() < 0.3 else shown
    elif how == "percent":
        shown = "".join(f"%{ord(ch):02X}" if rng.random() < 0.7 else ch for ch in value)
    elif how == "base32":
        shown = base64.b32encode(value.encode()).decode()
        shown = shown.rstrip("=") if rng.random() < 0.5 else shown
    elif how == "bytes":
        style = rng.choice(["0x", "\\x", "colon", "decimal"])
        if style == "0x":
            shown = rng.choice([" ", ", "]).join(f"0x{ord(ch):02x}" for ch in value)
        elif style == "\\x":
            shown = "".join(f"\\x{ord(ch):02x}" for ch in value)
        elif style == "colon":
            shown = ":".join(f"{ord(ch):02x}" for ch in value)
        else:
            shown = rng.choice([" ", ", "]).join(str(ord(ch)) for ch in value)
    else:  # spaced
        shown = " ".join(value)
    return f"Password: {value}", [f"{_filler(rng, 8)} {shown} {_filler(rng, 8)}."], how


def _site(tmp_path_factory, line: str, paragraphs: list[str]):  # type: ignore[no-untyped-def]
    rng = random.Random(len(line))
    site = tmp_path_factory.mktemp("site")
    body = [" ".join(rng.sample(SECRET_WORDS, 10)) + ".", line, " ".join(rng.sample(SECRET_WORDS, 8)) + "."]
    write_files(site, {"ops/vault.md": _page("Vault", "internal", body),
                       "guide.md": _page("Guide", "public", paragraphs),
                       "other.md": _page("Other", "public", [_filler(rng, 30) + "."])})
    return site


@_E2E
@given(respelled())
def test_x2_issue24_a_respelled_secret_never_reaches_the_public_index(tmp_path_factory, case) -> None:  # type: ignore[no-untyped-def]
    """X2, issue 24: a public page holding an internal page's secret in any member of
    the three classes is withheld from ``customer_safe``; an unrelated page stays public."""
    line, paragraphs, how = case
    public = _public(_site(tmp_path_factory, line, paragraphs))
    assert "guide.md" not in public, (how, line, paragraphs)
    assert "other.md" in public


@settings(max_examples=300, deadline=None)
@given(respelled())
def test_issue24_each_respelling_meets_its_secret_in_the_page(case) -> None:  # type: ignore[no-untyped-def]
    """Issue 24, without a site: the page's skeleton holds one of the value's forms, or
    (a short value, not looked for in a skeleton) the page's respelled texts or words
    hold the value, or each half of it."""
    line, paragraphs, how = case
    values = [*secret_values(line)]
    assert values, line
    value = values[0]
    stream = page_skeleton(paragraphs)
    found = secret_skeletons(value)
    if found is not None and any(form in stream for form in found[1]):
        return
    words = {w.casefold().strip(".,") for p in paragraphs for text in (p, *decoded_texts(p)) for w in text.split()}
    words |= {w.casefold() for p in paragraphs for w in urllib.parse.unquote(p).split()}
    assert value.casefold() in words or (how == "split" and len(words & {value[:i] for i in range(3, 8)}) == 1), \
        (how, value, paragraphs)


@st.composite
def placeholders(draw: st.DrawFn) -> str:
    """An author's stand-in for the reader's own secret."""
    name = draw(st.sampled_from(["password", "api key", "token", "secret", "db password", "access key"]))
    snake, kebab = name.replace(" ", "_"), name.replace(" ", "-")
    return draw(st.sampled_from([
        f"<{name}>", f"<{snake.upper()}>", f"{{{{{snake}}}}}", f"${{{snake.upper()}}}", f"${snake.upper()}",
        f"[{name}]", f"your-{kebab}", f"your_{snake}", f"Your{name.title().replace(' ', '')}", f"my-{kebab}",
        "x" * draw(st.integers(4, 12)), "X" * draw(st.integers(4, 12)), "*" * draw(st.integers(4, 12)),
        "123456", "12345678", "1234", "000000", "abcdef", "qwerty", "example", f"example-{kebab}",
        "changeme", "CHANGE_ME", "placeholder", "REDACTED", name, "secret", "dummy-token"]))


@settings(max_examples=200, deadline=None)
@given(placeholders())
def test_issue24_placeholders_are_never_secrets(value: str) -> None:
    """Issue 24's false positives: a placeholder is no secret's value; real values are."""
    assert is_placeholder(value), value


def test_real_values_are_no_placeholders() -> None:
    for value in ["swordfish", "amber falcon 79", "qK7vR2mXp9LwT4sZ", "GW-7731", "Lighthouse!4477", "seventy",
                  "correct horse battery staple", "77314417", "marmalade"]:
        assert not is_placeholder(value), value


@_E2E
@given(placeholders(), st.sampled_from(["Password: {}", "API key: {}", "The password is {}."]))
def test_x2_issue24_a_placeholder_withholds_no_page(tmp_path_factory, value: str, template: str) -> None:  # type: ignore[no-untyped-def]
    """Issue 24: an internal page's ``Password: <password>`` and a public page writing
    the same placeholder (as written, or respelled) leave the public page public."""
    rng = random.Random(len(value))
    shown = rng.choice([value, value.upper(), " ".join(value), urllib.parse.quote(value)])
    paragraphs = [f"{_filler(rng, 12)} {shown} {_filler(rng, 12)}."]
    public = _public(_site(tmp_path_factory, template.format(value), paragraphs))
    assert "guide.md" in public, (value, shown)


def test_ciphers_are_for_long_values_only() -> None:
    """Caesar shifts and Atbash only for a value of :data:`CIPHER_MIN_LETTERS` letters:
    a shifted short value is any short run of letters."""
    long_forms = secret_skeletons("lighthousekeeper")
    assert long_forms is not None and _caesar("lighthousekeeper", 3) in long_forms[1]
    short = "amber-79"
    assert sum(ch.isalpha() for ch in short) < CIPHER_MIN_LETTERS
    found = secret_skeletons(short)
    assert found is not None and _caesar("amber79", 3) not in found[1]
