"""Rule 6d's leak classes found on the build of 9a8a509 (issue 24; CONTRACT X2, X5), each
as a class, and the false positive it had on Microsoft Learn.

* **A short secret without a digit code**: ``Authorisation phrase: amber falcon seventy
  nine`` in an internal page; a public page saying ``amber falcon seventy nine`` was public
  (the line's own runs include the label, so the page held 2 of its 4). A ``label: value``
  line whose label names a secret (:mod:`provider.wiki.secret_lines`) — or ``the
  password is swordfish`` — makes its value a unit (:func:`secret_lines`).
* **A 12-word partial paste** of a long internal paragraph (:func:`partial_pastes`).
* **A fragment of a Japanese or Chinese paragraph** shorter than the 14-character unit
  (:func:`cjk_fragments`).
* **The balance**: a sentence of words the whole site uses with one rare word in it — an
  error message two articles quote, a link to an article under its title — is no copy
  (:func:`test_a_sentence_of_site_words_with_one_rare_word_is_no_copy`).

Out of reach (measured, documented in docs/how-to/findings.md): a paraphrase.
"""

from __future__ import annotations

import base64
import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.containment import SECRET_MIN_CHARS, terms
from provider.wiki.secret_forms import SOLO_MIN_CHARS, decoded_texts, joined, spelled
from provider.wiki.secret_lines import LABEL_CHARACTERS, LABEL_WORDS, names_a_secret_anywhere, secret_values
from tests.support import write_files
from tests.wiki.test_contained_text import FILLER, LOOKALIKES, SECRET_WORDS, _filler, _page, _public

_SLOW = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

LABELS = ["Password", "Admin password", "Passphrase", "Authorisation phrase", "Authorization code", "PIN",
          "Code word", "Override", "Master key", "Token", "API key", "Recovery key", "Kennwort", "Passwort",
          "Mot de passe", "Contraseña", "Пароль", "パスワード", "暗証番号", "密码", "비밀번호"]
#: Words of secret values; none is in FILLER or SECRET_WORDS (the internal page's other text).
VALUE_WORDS = "amber falcon seventy nine lighthouse marmalade copper heron velvet orbit quartz tundra".split()
CJK_VALUES = ["あおぞら七十九", "青空の灯台", "琥珀色の鷹", "银色海鸥九号"]


@st.composite
def secret_lines(draw: st.DrawFn) -> tuple[str, str, str]:
    """(the internal page's line, its value as a public page writes it, how): a label
    naming a secret in one of 8 languages, ``:``, ``：``, ``=`` or ``is``; a value of one
    to four words (at least :data:`SECRET_MIN_CHARS` characters), words and digits mixed
    without a 4-digit code, or Japanese or Chinese; in the public page with or without the
    label, another case, look-alike letters."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    label = draw(st.sampled_from(LABELS))
    kind = draw(st.sampled_from(["words", "mixed", "cjk"]))
    if kind == "words":
        value = " ".join(rng.sample(VALUE_WORDS, draw(st.integers(1, 4))))
        if len(value.replace(" ", "")) < SECRET_MIN_CHARS:
            value += " " + rng.choice(VALUE_WORDS)
    elif kind == "mixed":
        value = f"{rng.choice(VALUE_WORDS).capitalize()}{rng.choice('!#$&*')}{rng.randint(10, 999)}"
    else:
        value = rng.choice(CJK_VALUES)
    how = draw(st.sampled_from([": ", "：", " = ", " is "]))
    if how == " is " and (len(value.split()) > 3 or not label.isascii()):
        how = ": "
    line = f"The {label.lower()} is {value}." if how == " is " else f"{label}{how}{value}"
    shown = value
    variant = draw(st.sampled_from(["plain", "upper", "lookalike", "labelled"]))
    if variant == "upper":
        shown = value.upper()
    elif variant == "lookalike":
        shown = "".join(LOOKALIKES.get(ch, ch) for ch in value)
    elif variant == "labelled":
        shown = line
    return line, shown, f"{kind}/{how.strip() or 'space'}/{variant}"


@_SLOW
@given(secret_lines(), st.booleans())
def test_x2_the_value_of_a_secret_line_never_reaches_the_public_index(tmp_path_factory, case, as_section) -> None:  # type: ignore[no-untyped-def]
    """X2: an internal page (or an internal section) with a line naming a secret — among
    other text, a block of its own or in a paragraph — keeps any public page holding its
    value (with or without the label) out of ``customer_safe``, and ``check`` names the
    source; an unrelated public page stays public."""
    line, shown, how = case
    rng = random.Random(len(line))
    site = tmp_path_factory.mktemp("site")
    # The internal page's other text shares no word with the public pages (FILLER only).
    body = [" ".join(rng.sample(SECRET_WORDS, 10)) + ".", line, " ".join(rng.sample(SECRET_WORDS, 8)) + "."]
    source = (_page("Vault", "public", [_filler(rng, 20) + ".", "<!-- internal -->", *body, "<!-- /internal -->"])
              if as_section else _page("Vault", "internal", body))
    write_files(site, {"ops/vault.md": source,
                       "guide.md": _page("Guide", "public", [f"{_filler(rng, 20)} {shown} {_filler(rng, 20)}."]),
                       "other.md": _page("Other", "public", [_filler(rng, 30) + "."])})
    public = _public(site)
    assert "guide.md" not in public, how
    assert "other.md" in public


NUMBERS = {7: "seven", 13: "thirteen", 42: "forty two", 79: "seventy nine", 305: "three hundred five"}
SPLIT_LABELS = ["pass word", "Pass-Word", "pass_phrase", "PASS PHRASE", "code-word", "Pass Code"]


@st.composite
def secret_spellings(draw: st.DrawFn) -> tuple[str, str, str]:
    """(the internal page's line, the value as a public page respells it, how): two or
    three words and maybe a number, spelled out or in digits, either side, under a label
    written whole or split (``pass word``); on the public page hyphenated, snake_case,
    camelCase, run together, with the number the other way, a word split in two, or
    the value (as written in the line) in base64 or hex."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    words = rng.sample(VALUE_WORDS[4:], draw(st.integers(2, 3)))
    number = draw(st.sampled_from([None, *NUMBERS]))
    form = draw(st.sampled_from(["hyphen", "snake", "camel", "joined", "other-number", "split-word", "base64", "hex",
                                 "upper-snake"]))
    if form == "split-word" and number is not None:
        words = words[:2]
    while form == "split-word" and number is None and len("".join(words)) < SOLO_MIN_CHARS:
        words.append(rng.choice([w for w in VALUE_WORDS[4:] if w not in words]))  # one word: 11 letters
    spoken = draw(st.booleans())
    value_words = words + ([NUMBERS[number] if spoken else str(number)] if number is not None else [])
    value = " ".join(value_words)
    label = draw(st.sampled_from([*SPLIT_LABELS, "Passphrase", "Password"]))
    line = f"{label}: {value}"
    digits = words + ([str(number)] if number is not None else [])
    if form == "hyphen":
        shown = "-".join(w.capitalize() for w in digits)
    elif form == "snake":
        shown = "_".join(digits)
    elif form == "upper-snake":
        shown = "_".join(digits).upper()
    elif form == "camel":
        shown = "".join(w.capitalize() for w in digits)
    elif form == "joined":
        shown = "".join(digits)
    elif form == "other-number":
        other = words + ([str(number) if spoken else NUMBERS[number]] if number is not None else [])
        shown = " ".join(other)
    elif form == "split-word":
        first = digits[0]
        shown = " ".join([first[: len(first) // 2], first[len(first) // 2 :], *digits[1:]])
        line = f"{label}: {''.join(value_words)}" if number is None else line
        if number is not None:  # the secret run together, the page's words apart
            line = f"{label}: {''.join(words)}{number}"
    elif form == "base64":
        shown = base64.b64encode(value.encode()).decode()
    else:
        shown = value.encode().hex()
    return line, shown, form


@_SLOW
@given(secret_spellings())
def test_x2_a_respelled_or_encoded_secret_never_reaches_the_public_index(tmp_path_factory, case) -> None:  # type: ignore[no-untyped-def]
    """X2: a public page holding an internal secret's value respelled — separators,
    camelCase, run together or split apart, numbers as digits or words, base64, hex — is
    withheld from ``customer_safe``; an unrelated public page stays public."""
    line, shown, how = case
    rng = random.Random(len(line))
    site = tmp_path_factory.mktemp("site")
    body = [" ".join(rng.sample(SECRET_WORDS, 10)) + ".", line, " ".join(rng.sample(SECRET_WORDS, 8)) + "."]
    write_files(site, {"ops/vault.md": _page("Vault", "internal", body),
                       "guide.md": _page("Guide", "public", [f"{_filler(rng, 20)} {shown} {_filler(rng, 20)}."]),
                       "other.md": _page("Other", "public", [_filler(rng, 30) + "."])})
    public = _public(site)
    assert "guide.md" not in public, (how, line, shown)
    assert "other.md" in public


def test_secret_forms_meet_in_one_joined_form() -> None:
    """Both sides' spellings of ``amber falcon seventy nine`` come to ``amberfalcon79``;
    a base64 or hex run decodes to its text; prose does not decode."""
    for spelling in ("Amber-Falcon-79", "amber_falcon_79", "AmberFalcon79", "amber falcon seventy-nine",
                     "AMBER_FALCON_SEVENTY_NINE"):
        assert joined(spelling) == "amberfalcon79", spelling
    assert list(decoded_texts("see YW1iZXIgZmFsY29uIHNldmVudHkgbmluZQ== here")) == ["amber falcon seventy nine"]
    assert list(decoded_texts(f"0x{b'amber falcon'.hex()}")) == ["amber falcon"]
    assert list(decoded_texts("Configuration management and troubleshooting guide")) == []
    assert spelled("falcon 305") == "falcon three hundred five"
    assert list(secret_values("pass word: sword fish")) == ["sword fish"]
    assert list(secret_values("Pass-Word = lighthouse")) == ["lighthouse"]


def test_secret_values_are_read_from_labelled_lines_only() -> None:
    """What a secret line is: a short label naming a secret, then the value up to the end
    of its clause or the next label; a long label, a label naming no secret, and prose
    after "is" are not."""
    assert list(secret_values("Authorisation phrase: amber falcon seventy nine")) == ["amber falcon seventy nine"]
    assert list(secret_values("Password: swordfish User: admin")) == ["swordfish"]
    assert list(secret_values("Call first. Code word: Lighthouse!4477. Then go.")) == ["Lighthouse!4477"]
    assert list(secret_values("パスワード：あおぞら七十九")) == ["あおぞら七十九"]
    assert list(secret_values("Das Kennwort lautet Leuchtturm.")) == ["Leuchtturm"]
    assert list(secret_values("The password is stored in the vault.")) == []
    assert list(secret_values("Note: the token expires after an hour")) == []
    assert list(secret_values("Everything you need to know about the password reset: see below")) == []
    assert list(secret_values("See https://example.com/password for details")) == []


def test_benign_secret_lines_taint_no_public_page(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The balance: one part of a value with its numbers (``amber`` and ``seventy nine``
    scattered, no ``falcon``), and a value too short to look for ("PIN: 12") leave the
    public page public. (Every part scattered over the page is the secret's parts
    reordered: issue 24, :func:`test_x2_a_secret_transformed_never_reaches_the_public_index`.)"""
    site = tmp_path / "site"
    rng = random.Random(3)
    write_files(site, {
        "ops/vault.md": _page("Vault", "internal", [_filler(rng, 30) + ".", "Passphrase: amber falcon seventy nine",
                                                    "PIN: 12"]),
        "guide.md": _page("Guide", "public", [f"amber {_filler(rng, 5)} seventy "
                                              f"{_filler(rng, 5)} nine {_filler(rng, 5)} 12."]),
    })
    assert "guide.md" in _public(site)


@st.composite
def partial_pastes(draw: st.DrawFn) -> tuple[str, str]:
    """(a long internal paragraph, a public paragraph holding a run of 12 to 16 of its
    words): a partial paste, under the 80 % a block or sentence unit needs."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    vocabulary = SECRET_WORDS + VALUE_WORDS
    words = [w for _ in range(draw(st.integers(2, 3))) for w in rng.sample(vocabulary, len(vocabulary))]
    size = draw(st.integers(12, 16))
    start = rng.randrange(0, len(words) - size)
    piece = " ".join(words[start : start + size])
    return " ".join(words) + ".", f"{_filler(rng, 20)} {piece} {_filler(rng, 20)}."


@_SLOW
@given(partial_pastes())
def test_x2_a_12_word_partial_paste_never_reaches_the_public_index(tmp_path_factory, case) -> None:  # type: ignore[no-untyped-def]
    """X2: 12 consecutive words of a long internal paragraph (one sentence, no full stop
    inside) pasted into a public page keep it out of ``customer_safe``."""
    paragraph, pasted = case
    site = tmp_path_factory.mktemp("site")
    write_files(site, {"ops/runbook.md": _page("Runbook", "internal", [paragraph]),
                       "guide.md": _page("Guide", "public", [pasted])})
    assert "guide.md" not in _public(site)


CJK_TEXT = ("内部の運用チームだけが使う緊急用の管理者手順では夜間の障害時に担当者へ直接連絡し"
            "顧客の契約番号と請求履歴を確認してから返金の可否を判断する必要があります")


@st.composite
def cjk_fragments(draw: st.DrawFn) -> tuple[str, str]:
    """(the internal Japanese paragraph, a public Japanese paragraph holding 10 to 13 of
    its characters in a run): a fragment shorter than the 14-character unit."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    size = draw(st.integers(10, 13))
    start = rng.randrange(0, len(CJK_TEXT) - size)
    fragment = CJK_TEXT[start : start + size]
    return CJK_TEXT, f"説明の前半です。{fragment}。説明の後半です。"


@_SLOW
@given(cjk_fragments())
def test_x2_a_short_cjk_fragment_never_reaches_the_public_index(tmp_path_factory, case) -> None:  # type: ignore[no-untyped-def]
    """X2: 10 consecutive characters of an internal Japanese paragraph in a public page
    keep it out of ``customer_safe``; a public page sharing a 8-character glossary term
    with the internal page stays public (the kaia archive scenario)."""
    paragraph, pasted = case
    site = tmp_path_factory.mktemp("site")
    write_files(site, {"ops/runbook.md": _page("Runbook", "internal", [paragraph]),
                       "guide.md": _page("Guide", "public", [pasted]),
                       "term.md": _page("Term", "public", [f"用語の説明です。{CJK_TEXT[4:12]}。以上です。"])})
    public = _public(site)
    assert "guide.md" not in public
    assert "term.md" in public


def test_a_sentence_of_site_words_with_one_rare_word_is_no_copy(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The balance (Microsoft Learn's NDR article and the printer article it links to):
    an internal sentence made of words more than 12 public pages use, with one rare word
    in it — an error message two articles quote, a link to an article under its title —
    taints no public page quoting it; the same sentence with two rare words does (X2)."""
    rng = random.Random(7)
    files = {f"p{n}.md": _page(f"P{n}", "public", [" ".join(rng.sample(FILLER, len(FILLER))) + "."])
             for n in range(14)}
    sentence = "install configure widget dashboard export multifunction report screen button account"
    two = "install configure widget dashboard export multifunction report screen marmalade account"
    files["ops/printer.md"] = _page("Printer", "internal", [f"{sentence}.", f"{two}."])
    files["ndr.md"] = _page("NDR", "public", [f"{_filler(rng, 10)}. {sentence}. {_filler(rng, 10)}."])
    files["leak.md"] = _page("Leak", "public", [f"{_filler(rng, 10)}. {two}. {_filler(rng, 10)}."])
    site = tmp_path / "site"
    write_files(site, files)
    public = _public(site)
    assert "ndr.md" in public
    assert "leak.md" not in public
    assert terms("Lighthouse!4477") == ["lighthouse", "4477"]


NAMES = ["Jane Doe", "Oskar Lindqvist", "Priya Raman", "Acme Logistics", "Borealis Foods", "Cobalt Marine",
         "Dunmore Bank", "Tomasz Wolski", "Ines Carvalho", "Kenji Morita"]


@st.composite
def name_list_copies(draw: st.DrawFn) -> tuple[str, list[str], str]:
    """(the internal page's list of names, the public page's paragraphs naming them, how):
    3 to 6 names as list items or one ``Customers: A, B and C`` line; in the public page
    in another order, one sentence, or list items among other text."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    names = rng.sample(NAMES, draw(st.integers(3, 6)))
    as_items = draw(st.booleans())
    source = "\n".join(f"- {n}" for n in names) if as_items else f"Customers: {', '.join(names[:-1])} and {names[-1]}."
    shown = rng.sample(names, len(names))
    how = draw(st.sampled_from(["sentence", "items"]))
    if how == "sentence":
        paragraphs = [f"{_filler(rng, 15)} {', '.join(shown)} {_filler(rng, 10)}."]
    else:
        paragraphs = [_filler(rng, 15) + ".", "\n".join(f"- {n}" for n in shown), _filler(rng, 10) + "."]
    return source, paragraphs, how


@_SLOW
@given(name_list_copies())
def test_x2_a_list_of_names_never_reaches_the_public_index(tmp_path_factory, case) -> None:  # type: ignore[no-untyped-def]
    """X2: an internal page's list of people or customers (each name under the 6-word
    unit floor), among other text, named by a public page in any order keeps that page
    out of ``customer_safe``; a public page naming one of them stays public."""
    source, paragraphs, how = case
    rng = random.Random(len(source))
    site = tmp_path_factory.mktemp("site")
    write_files(site, {"ops/accounts.md": _page("Accounts", "internal", [" ".join(rng.sample(SECRET_WORDS, 12)) + ".",
                                                                          source,
                                                                          " ".join(rng.sample(SECRET_WORDS, 9)) + "."]),
                       "guide.md": _page("Guide", "public", paragraphs),
                       "one.md": _page("One", "public", [f"{_filler(rng, 15)} {NAMES[0]} and {NAMES[4]}."])})
    public = _public(site)
    assert "guide.md" not in public, how
    assert "one.md" in public


def test_title_case_product_words_are_no_names() -> None:
    """What a name is: capitalised words of letters; not product names with inner
    capitals, nor a sentence."""
    from provider.wiki.name_lists import name_lists

    assert name_lists(["Our team, in short.", "Jane Doe", "John Smith", "Ana Lopez"]) == [
        ["Jane Doe", "John Smith", "Ana Lopez"]]
    assert name_lists(["Customers: Acme Logistics, Borealis Foods and Cobalt Marine."]) == [
        ["Acme Logistics", "Borealis Foods", "Cobalt Marine"]]
    assert name_lists(["Use SharePoint, PowerShell and IIS.", "Restart the server now"]) == []


_CODE_OF = ["Override", "override", "Door", "Alarm", "Gate", "Keypad", "Bypass", "Disarm", "Vault", "Master",
            "Emergency", "Unlock", "Admin override", "Building door", "PIN", "Token"]
_CODE_SHAPES = ["7731-2290", "7731 2290", "77312290", "4417", "GW-7731", "qK7vR2mX"]


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(_CODE_OF), st.sampled_from(["code", "codes", "Code", "CODE"]), st.sampled_from(_CODE_SHAPES),
       st.sampled_from(["{l}: {v}", "{l} = {v}", "The {l} is {v}.", "Call the desk. {l}: {v}"]))
def test_issue24_a_code_of_what_opens_is_a_secrets_label(qualifier: str, code: str, value: str, form: str) -> None:
    """Issue 24 (attacker): ``Override code: 7731-2290`` was no label (``code`` ends it, and
    only ``Override PIN``/``Door code`` were names) and the value, copied onto 3 public
    pages, was served; a code of what a secret opens names one, as its PIN does."""
    assert list(secret_values(form.format(l=f"{qualifier} {code}", v=value))) == [value]


@given(st.sampled_from(["Error code: 0x80070005", "Status code: 200", "code: 0x80070005", "Error code = 404",
                        "The error code is 0x800f081f.", "Return code: 1603", "Exit code: 2", "Product code: 5",
                        "Source code: available", "The status code is 503.", "Country code: 44"]))
def test_issue24_a_code_of_nothing_secret_stays_prose(line: str) -> None:
    """Troubleshooting docs (Learn) say ``Error code: 0x80070005``: no secret's label."""
    assert list(secret_values(line)) == []



_NAMES_JOINED = sorted(name.replace(" ", "") for name in LABEL_WORDS)
#: Term pieces: secret names whole, cut and run together, other words and scripts.
_TERM_PIECES = st.sampled_from((*_NAMES_JOINED, *LABEL_CHARACTERS, *(n[:3] for n in _NAMES_JOINED),
                                *(n[3:] for n in _NAMES_JOINED), "admin", "access", "x", "é", "日", "9", ""))


@settings(max_examples=50, deadline=None, database=None)
@given(found=st.lists(st.lists(_TERM_PIECES, min_size=1, max_size=3).map("".join), max_size=6))
def test_issue27_a_code_line_names_a_secret_as_its_rule_says(found: list[str]) -> None:
    """Issue 24's rule for a short command line, read faster (issue 27): its terms name a
    secret when a term, or two adjacent terms run together, is a secret's name, or a term
    holds one of 5 letters or more or a name of a script written without spaces."""
    joined = [*found, *(a + b for a, b in itertools.pairwise(found))]
    expected = any(term in _NAMES_JOINED or any(name in term for name in _NAMES_JOINED if len(name) >= 5)
                   or any(name in term for name in LABEL_CHARACTERS) for term in joined)
    assert names_a_secret_anywhere(found) is expected
