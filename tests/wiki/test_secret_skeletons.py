"""Issue 24 (CONTRACT X2, X5): a secret copied onto a public page in another form, as a
class. An internal page's secret line (a passphrase of words and a number, an override
code, an API key) is rewritten on a public page by a random composition of what an author
or an attacker does — numbers in digits, one word a digit, in words, in Roman numerals;
parts reordered or in separate paragraphs; words split anywhere; separators, case,
camelCase; every character spaced; an API key regrouped; ROT13, reversed; percent-encoded,
HTML character references; full-width, zero-width, look-alike letters; base64 or hex of
the result — and the public page never reaches ``customer_safe``
(:func:`provider.wiki.secret_forms.secret_skeletons` against
:func:`provider.wiki.secret_forms.page_skeleton`).
"""

from __future__ import annotations

import base64
import random
import urllib.parse

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.secret_forms import number_spellings, page_skeleton, roman_numeral, secret_skeletons, skeleton
from tests.support import write_files
from tests.wiki.test_contained_text import LOOKALIKES, SECRET_WORDS, _filler, _page, _public
from tests.wiki.test_secret_lines import VALUE_WORDS

_DIGIT_WORDS = "zero one two three four five six seven eight nine".split()
_ROT13 = str.maketrans("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                       "nopqrstuvwxyzabcdefghijklmNOPQRSTUVWXYZABCDEFGHIJKLM")
_WORDS_OF = {7: "seven", 13: "thirteen", 42: "forty-two", 79: "seventy nine", 305: "three hundred and five",
             1984: "nineteen eighty four", 7731: "seven thousand seven hundred thirty one"}



def _number(rng: random.Random, number: int, how: str) -> str:
    if how == "digit-words":
        return " ".join(_DIGIT_WORDS[int(d)] for d in str(number))
    if how == "words" and number in _WORDS_OF:
        return _WORDS_OF[number]
    if how == "roman" and number < 4000:
        return roman_numeral(number).upper()
    return str(number)


@st.composite
def transformed_secrets(draw: st.DrawFn) -> tuple[str, list[str], str]:
    """(the internal page's secret line, the public page's paragraphs holding the secret
    transformed, the composition applied)."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    kind = draw(st.sampled_from(["phrase", "code", "key"]))
    steps: list[str] = [kind]
    if kind == "phrase":  # two or three words and maybe a number
        parts: list[str | int] = [*rng.sample(VALUE_WORDS[4:], draw(st.integers(2, 3)))]
        if draw(st.booleans()):
            parts.append(rng.choice(list(_WORDS_OF)))
        label = draw(st.sampled_from(["Passphrase", "Password", "Code word"]))
    elif kind == "code":  # letters and a 4-digit number: GW-7731
        parts = ["".join(rng.choice("BCDFGHJKMNPQRTVWXZ") for _ in range(3)), rng.choice([1984, 7731, 4417])]
        label = "Override"
    else:  # an API key: letters and digits mixed
        alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
        parts = ["".join(rng.choice(alphabet) for _ in range(draw(st.integers(16, 32))))]
        label = "API key"
    value = " ".join(str(p) for p in parts) if kind == "phrase" else "-".join(str(p) for p in parts)
    line = f"{label}: {value}"
    # The parts as the page writes them.
    number_how = draw(st.sampled_from(["digits", "digit-words", "words", "roman"]))
    shown = [_number(rng, p, number_how) if isinstance(p, int) else p for p in parts]
    steps.append(number_how)
    # A code's parts reordered (``7731 RTC``) are no parts of 4 characters and 10
    # together: the code pair's business (its code beside a word), not covered here.
    if draw(st.booleans()) and len(shown) > 1 and kind == "phrase":
        rng.shuffle(shown)
        steps.append("reordered")
    if draw(st.booleans()):
        at = rng.randrange(len(shown))
        word = shown[at]
        cut = rng.randint(1, max(1, len(word) - 1))
        shown[at] = word[:cut] + " " + word[cut:]
        steps.append("split-word")
    apart = kind == "phrase" and sum(isinstance(p, str) for p in parts) >= 2 and draw(st.booleans())
    if apart:
        steps.append("paragraphs")
    joiner = draw(st.sampled_from([" ", "-", "_", "", ".", "camel"]))
    steps.append(f"join:{joiner}")

    def text_of(pieces: list[str]) -> str:
        if joiner == "camel":
            return "".join(p[:1].upper() + p[1:] for p in pieces)
        return joiner.join(pieces)

    # Transformations of the text: each with a probability, in an order that keeps them
    # meaningful (what is encoded last is what the page shows).
    transforms = [name for name in ("case", "rot13", "reverse", "spaced", "regroup", "fullwidth", "zero-width",
                                    "lookalike", "entities", "percent") if draw(st.booleans())]
    encoding = draw(st.sampled_from(["none", "none", "base64", "hex"]))
    if apart:  # parts in separate paragraphs: each transformed alone, no encoding
        encoding = "none"
        transforms = [t for t in transforms if t not in ("regroup",)]
    steps += transforms + ([encoding] if encoding != "none" else [])

    def transform(text: str) -> str:
        for name in transforms:
            if name == "case":
                text = rng.choice([text.upper(), text.lower(), text.swapcase()])
            elif name == "rot13":
                text = text.translate(_ROT13)
            elif name == "reverse":
                text = text[::-1]
            elif name == "spaced":
                text = " ".join(text)
            elif name == "regroup":
                bare = "".join(ch for ch in text if ch.isalnum())
                text = "-".join(bare[i : i + 4] for i in range(0, len(bare), 4))
            elif name == "fullwidth":
                text = "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text)
            elif name == "zero-width":
                text = "\u200b".join(text)
            elif name == "lookalike":
                text = "".join(LOOKALIKES.get(ch, ch) for ch in text)
            elif name == "entities":
                text = "".join(f"&#{ord(ch)};" if ch.isalnum() and rng.random() < 0.5 else ch for ch in text)
            elif name == "percent":
                text = "".join(urllib.parse.quote(ch, safe="") if rng.random() < 0.5 else ch for ch in text)
                text = text.replace("%", "%25") if rng.random() < 0.2 else text  # encoded twice
        if encoding == "base64":
            text = base64.b64encode(text.encode()).decode()
        elif encoding == "hex":
            text = text.encode().hex()
        return text

    before, after = _filler(rng, rng.randint(0, 12)), _filler(rng, rng.randint(0, 12))
    if apart:
        paragraphs = [f"{_filler(rng, 8)} {transform(piece)} {_filler(rng, 8)}." for piece in shown]
    else:
        paragraphs = [f"{before} {transform(text_of(shown))} {after}."]
    return line, paragraphs, "/".join(steps)


def _holds(line: str, paragraphs: list[str]) -> bool:
    """Whether the page's skeleton holds the secret of ``line`` as :func:`secret_skeletons`
    describes it (the whole value, or every part of two or more)."""
    value = line.partition(": ")[2]
    found = secret_skeletons(value)
    assert found is not None, value
    _, forms, parts = found
    stream = page_skeleton(paragraphs)
    if any(form in stream for form in forms):
        return True
    return len(parts) >= 2 and sum(len(part) for part, _ in parts) >= 10 and \
        all(any(form in stream for form in spellings) for _, spellings in parts)


@settings(max_examples=400, deadline=None)
@given(transformed_secrets())
def test_every_composition_of_transformations_meets_the_secrets_skeleton(case) -> None:  # type: ignore[no-untyped-def]
    """Issue 24: whatever composition of the transformations a page applies, its skeleton
    holds one of the secret's forms, or every one of its parts."""
    line, paragraphs, how = case
    assert _holds(line, paragraphs), (how, line, paragraphs)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(transformed_secrets())
def test_x2_a_secret_transformed_never_reaches_the_public_index(tmp_path_factory, case) -> None:  # type: ignore[no-untyped-def]
    """X2, issue 24: a public page holding an internal page's secret under any
    composition of the transformations is withheld from ``customer_safe``; an unrelated
    public page stays public."""
    line, paragraphs, how = case
    rng = random.Random(len(line))
    site = tmp_path_factory.mktemp("site")
    body = [" ".join(rng.sample(SECRET_WORDS, 10)) + ".", line, " ".join(rng.sample(SECRET_WORDS, 8)) + "."]
    write_files(site, {"ops/vault.md": _page("Vault", "internal", body),
                       "guide.md": _page("Guide", "public", paragraphs),
                       "other.md": _page("Other", "public", [_filler(rng, 30) + "."])})
    public = _public(site)
    assert "guide.md" not in public, (how, line, paragraphs)
    assert "other.md" in public


def test_the_forms_of_a_number_and_a_page_meet() -> None:
    """Numbers: digits, one word a digit, pairs, whole, Roman; a page's skeleton undoes
    percent-encoding (twice), HTML references, full-width and zero-width characters."""
    assert number_spellings("7731") >= {"7731", "sevenseventhreeone", "seventyseventhirtyone",
                                        "seventhousandsevenhundredthirtyone"}
    assert "lxxix" in number_spellings("79")
    assert "nineteeneightyfour" in number_spellings("1984")
    assert skeleton("%2537%37 &#51;&#x31;") == "7731"
    assert skeleton("Ａｍｂｅｒ\u200bFalcon") == "amberfalcon"
    assert page_skeleton(["see YW1iZXIgZmFsY29u"]) == "seeyw1izxigzmfsy29uamberfalcon"


def test_what_is_no_secret_skeleton() -> None:
    """The balance: a value under 6 characters with its numbers in digits (``PIN: 12``,
    ``ab-12``) or a long sentence is not looked for; a number is no part of its own."""
    assert secret_skeletons("12") is None
    assert secret_skeletons("ab-12") is None
    assert secret_skeletons("this is a long sentence of ordinary words that a label happened to precede here") is None
    assert secret_skeletons("dbpassword") is None  # one word under 11 letters: its terms only
    assert secret_skeletons("lighthousemarmalade") is not None
    found = secret_skeletons("amber falcon seventy nine")
    assert found is not None
    assert found[0] == "amberfalcon79"
    assert [part for part, _ in found[2]] == ["amber", "falcon"]


#: Texts of the incremental test's documents: secret lines, their respellings, neither.
_TEXTS = ("Passphrase: amber falcon seventy nine", "API key: qK7vR2mXp9LwT4sZ",
          "see Amber-Falcon-79 here", "falcon install amber", "key q k 7 v R 2 m X p 9 L w T 4 s Z ok",
          "97noclaf rebma", "nothing secret about this widget dashboard")


@st.composite
def _secret_histories(draw: st.DrawFn) -> list[tuple[object, dict[str, object]]]:
    """Batches of documents whose blocks are drawn from :data:`_TEXTS`, internal or
    public, changed or removed."""
    from provider.wiki.classify import INTERNAL, PUBLIC
    from provider.wiki.containment import block_shingles
    from provider.wiki.document import DocumentMeta
    from tests.wiki.test_incremental_rules import NOW

    paths = ["a.md", "b.md", "c.md", "d.md", "e.md"]
    batches: list[tuple[object, dict[str, object]]] = []
    for number in range(draw(st.integers(2, 6))):
        touched = draw(st.lists(st.sampled_from(paths), min_size=3 if number == 0 else 1, max_size=4, unique=True))
        batch: dict[str, object] = {}
        for relpath in touched:
            if draw(st.integers(0, 4)) == 0:
                batch[relpath] = None
                continue
            texts = draw(st.lists(st.sampled_from(_TEXTS), min_size=1, max_size=2))
            internal = draw(st.booleans())
            batch[relpath] = DocumentMeta(
                relpath=relpath, size=1, mtime_ns=0, revision="r1", doc_id=relpath, title=relpath,
                audience=INTERNAL if internal else PUBLIC, audience_own=True, draft=False, locale="en",
                translation_group=relpath, text_hash=relpath + "".join(texts), block_shingles=block_shingles(texts))
        batches.append((NOW, batch))
    return batches


@settings(max_examples=60, deadline=None)
@given(_secret_histories())
def test_x2_incremental_secret_skeletons_equal_a_fresh_resolve(batches) -> None:  # type: ignore[no-untyped-def]
    """X2: as pages gain and lose a secret's line or its respellings, the incremental
    rules (the :class:`~provider.wiki.containment.ContainmentIndex` reading each page's
    skeleton for the sources' secrets) decide exactly what a resolve from scratch does."""
    from provider.wiki.incremental import CorpusRules
    from tests.wiki.test_incremental_rules import _apply_history

    _apply_history(CorpusRules(max_share=1e9), batches, None, None, hinted=True)  # type: ignore[arg-type]
