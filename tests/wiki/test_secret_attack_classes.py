"""Issue 24 (CONTRACT X2), the attacker on the merged build, round two, as classes: an
internal page's secret line, and a public page that gives the secret

1. **reversed or with two neighbours swapped** (``pL9wXm2RvK7q`` for ``qK7vR2mXw9Lp``);
2. **in pieces**: a key cut in two in prose (``the key starts qK7vR2 and ends mXw9Lp``),
   a code's groups in separate paragraphs or table cells (``4417`` … ``9920``);
3. **a camelCase value reordered or split** (``BlueVault Otter`` for ``VaultOtterBlue``);
4. **look-alike letters for digits** (``4A17-9920``, ``44l7-gg2O``: 0 O o D Q, 1 l I i | !,
   2 Z, 3 E, 4 A, 5 S s, 6 G b, 7 T, 8 B, 9 g q);
5. **a PIN in words** (``four four one seven``, ``forty four seventeen``);
6. **a code with a few words of its sentence** (``Lab door code is 4417`` for ``The door
   code for the lab is 4417.``);
7. **on more public pages than the common limit**: a lone PIN, a value of words only
   (``otter-blue-vault``) —

is withheld; ordinary text, placeholders, versions, years and ports are not. The
containment rule runs in memory here (:func:`_withheld`: the same units, rarity and
:func:`~provider.wiki.containment.contained` as :func:`provider.wiki.check.check_wiki`),
and once end to end.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from provider.wiki.containment import (
    Rarity,
    Skeletons,
    _blocks,
    _common,
    _pair_words,
    _units_of,
    _values_of,
    block_shingles,
    common_limit,
    contained,
)
from provider.wiki.secret_forms import decoded_texts, is_placeholder
from tests.support import write_files
from tests.wiki.test_contained_text import FILLER, _filler, _page, _public

_KEY_ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
_DIGIT_WORDS = "zero one two three four five six seven eight nine".split()
#: Each digit's look-alikes (the class of issue 24's item 4).
_LOOKS = {"0": "OoDQ", "1": "lIi|!", "2": "Z", "3": "E", "4": "A", "5": "Ss", "6": "Gb", "7": "T", "8": "B", "9": "gq"}
_CAMEL_WORDS = ("vault otter blue amber falcon heron orbit maple cobalt tundra pepper lantern "
                "quartz meadow signal").split()
_INTERNAL_NOTE = "Notes for the on-call rota, kept here for the night shift."


def _entries(paragraphs: list[str]) -> tuple[str, ...]:
    return block_shingles(paragraphs)


def _withheld(internal: list[str], pages: list[list[str]], others: list[list[str]] | None = None) -> list[bool]:
    """For each of ``pages`` (public, as ``others``), whether rule 6d withholds it for
    holding a unit of the internal page ``internal`` (paragraphs): the units, the public
    documents' frequency of their values, the common limit and :func:`contained`, as the
    corpus derives them."""
    units = _units_of(_entries(internal))
    skeletons = Skeletons(units)
    public = [_entries(paragraphs) for paragraphs in [*pages, *(others or [])]]
    held = [frozenset(_values_of(e)) | skeletons.hits(e[-1].removeprefix("j:")) for e in public]
    wanted = {v for unit in units for v in unit.values()}
    df = Counter(v for page in held for v in page & wanted)
    limit = common_limit(len(public))
    kept = frozenset().union(*(unit.kept for unit in units))
    rare = Rarity(limit, _common(df, limit, _pair_words(units), _blocks(units), kept))
    return [any(contained(unit, page, rare) for unit in units) for page in held[: len(pages)]]


def _around(rng: random.Random, text: str) -> str:
    return f"{_filler(rng, rng.randint(2, 8))} {text} {_filler(rng, rng.randint(2, 8))}."


def _key(rng: random.Random, chars: int) -> str:
    value = "".join(rng.choice(_KEY_ALPHABET) for _ in range(chars))
    return value if sum(ch.isdigit() for ch in value) >= 2 else value[:-2] + "47"


def _code(rng: random.Random) -> str:
    while True:
        value = f"{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}"
        if not is_placeholder(value):
            return value


@st.composite
def attacks(draw: st.DrawFn) -> tuple[str, list[str], str]:
    """(the internal secret line, the public page's paragraphs giving it, the class)."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    how = draw(st.sampled_from(["reversed", "swapped", "key-pieces", "code-pieces", "code-cells", "camel",
                                "lookalike", "pin-words", "sentence-code"]))
    if how in ("reversed", "swapped"):
        value = _key(rng, rng.randint(12, 24))
        shown = value[::-1] if how == "reversed" or rng.random() < 0.5 else value
        at = rng.randrange(len(shown) - 1)
        if how == "swapped":
            shown = shown[:at] + shown[at + 1] + shown[at] + shown[at + 2 :]
        return f"API key: {value}", [_around(rng, f"the key is {shown}")], how
    if how == "key-pieces":
        value = _key(rng, rng.randint(12, 24))
        cut = rng.randint(4, len(value) - 4)
        return f"API key: {value}", [_around(rng, f"the key starts {value[:cut]} and ends {value[cut:]}")], how
    if how in ("code-pieces", "code-cells"):
        value = _code(rng)
        first, second = value.split("-")
        if how == "code-cells":
            table = f"| Step | Value |\n|---|---|\n| first | {first} |\n| then | {second} |"
            return f"Override PIN: {value}", [table], how
        return f"Override PIN: {value}", [_around(rng, f"dial {first}"), _filler(rng, 20) + ".",
                                          _around(rng, f"then {second}")], how
    if how == "camel":
        words = rng.sample(_CAMEL_WORDS, 3)
        value = "".join(w.capitalize() for w in words)
        rng.shuffle(words)
        cut = rng.randint(1, 2)
        shown = "".join(w.capitalize() for w in words[:cut]) + " " + " ".join(w.capitalize() for w in words[cut:])
        return f"Passphrase: {value}", [_around(rng, f"say {shown} at the desk")], how
    if how == "lookalike":
        value = _code(rng)
        chars = list(value)
        places = [i for i, ch in enumerate(chars) if ch != "-"]
        # Up to half the digits as look-alikes: a reader still sees a number.
        for i in rng.sample(places, rng.randint(1, len(places) // 2)):
            chars[i] = rng.choice(_LOOKS[chars[i]])
        return f"Override PIN: {value}", [_around(rng, f"use {''.join(chars)} at the door")], how
    if how == "pin-words":
        value = str(rng.randint(1000, 9999))
        assume(not is_placeholder(value))
        shown = " ".join(_DIGIT_WORDS[int(d)] for d in value)
        return f"Door PIN: {value}", [_around(rng, f"the door opens with {shown} today")], how
    value = str(rng.randint(1000, 9999))
    assume(not is_placeholder(value))
    place = rng.choice(["lab", "archive", "workshop", "garage"])
    return (f"The door code for the {place} is {value}.", [_around(rng, f"{place} door code {value}")], how)


@settings(max_examples=50, deadline=None)
@given(attacks())
def test_issue24_x2_each_attack_class_is_withheld(case: tuple[str, list[str], str]) -> None:
    """Issue 24, X2: a public page giving an internal page's secret in any of the
    classes 1 to 6 is withheld; a public page of ordinary text beside it is not."""
    line, paragraphs, how = case
    rng = random.Random(line)
    other = [_filler(rng, 30) + "."]
    assert _withheld([_INTERNAL_NOTE, line], [paragraphs, other]) == [True, False], (how, line, paragraphs)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["Door PIN: {}", "The alarm code is {}.", "Passphrase: {}"]),
       st.integers(13, 30), st.sampled_from(["-", " "]), st.integers(3, 4))
def test_issue24_x2_a_labelled_value_on_many_pages_is_never_common(seed: int, template: str, copies: int,
                                                                   joiner: str, size: int) -> None:
    """Issue 24, X2 (class 7): a lone PIN, or a value of words only — hyphenated or
    spaced (``Passphrase: correct horse battery staple``) —, that a secret's label gives
    on the internal page stays a secret on 13 to 30 public pages (past the limit of 12),
    and on one more page without its label: every copy is withheld, the other pages are
    not."""
    rng = random.Random(seed)
    if "Passphrase" in template:
        value = joiner.join(rng.sample(_CAMEL_WORDS, size))
    else:
        value = str(rng.randint(1000, 9999))
        assume(not is_placeholder(value))
    line = template.format(value)
    pages = [[_around(rng, line.rstrip("."))] for _ in range(copies)]
    unlabelled = [[_around(rng, value)]] if "Passphrase" in template else []
    others = [[_filler(rng, 30) + "."] for _ in range(3)]
    expected = [True] * (copies + len(unlabelled)) + [False]
    assert _withheld([_INTERNAL_NOTE, line], [*pages, *unlabelled, *others[:1]], others[1:]) == expected, line


def test_issue24_a_prompts_output_on_many_pages_stays_the_sites_wording() -> None:
    """The balance of class 7 (issue 24): ``mysql_secure_installation``'s output in an
    internal tutorial — ``New password: Re-enter new password: Password updated
    successfully!``, prompts whose words the labels cut or which name the secret
    themselves — is no value a label gives whole: on 13 public tutorials it is their
    common wording (hetzner-tutorials with ``install-*`` internal withheld 4 of them)."""
    rng = random.Random(5)
    output = ("Change the root password? [Y/n] y New password: Re-enter new password: "
              "Password updated successfully! Reloading privilege tables.. ... Success!")
    pages = [[_filler(rng, 20) + ".", output, _filler(rng, 20) + "."] for _ in range(13)]
    assert not any(_withheld([_INTERNAL_NOTE, output], pages))


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([
    "Version: {v}", "Port: {port}", "Released in {year}.", "Password: <password>", "API key: your-api-key",
    "PIN: 1234", "Password: xxxx", "Code: {year}", "Order {qty} units of the widget.",
]))
def test_issue24_placeholders_versions_years_ports_stay_placeholders(seed: int, template: str) -> None:
    """Issue 24's balance (class 7): placeholders, versions, years, ports and quantities
    in the internal page are never kept from commonness: on more public pages than the
    common limit they are the site's wording, and no page holding them is withheld (on
    one page a short block's number beside its words is a code pair's evidence, as
    before)."""
    rng = random.Random(seed)
    line = template.format(v=f"{rng.randint(1, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}",
                           port=rng.choice(["8080", "443", "5432", "3306"]), year=rng.randint(1990, 2030),
                           qty=rng.randint(10, 500))
    pages = [[_around(rng, line.rstrip("."))] for _ in range(14)]
    assert not any(_withheld([_INTERNAL_NOTE, line], pages)), line


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from([*FILLER, "Blog", "Good", "SOS", "IPv6", "E2E", "Bob", "GOTO", "iOS", "Boss",
                                 "ZIOS", "10GbE", "A380", "S3", "Q3", "OAuth2", "2FA", "TODO", "GIGS", "Oslo"]),
                min_size=3, max_size=12))
def test_issue24_lookalike_digits_leave_words_alone(words: list[str]) -> None:
    """Issue 24 (class 4), the balance: reading look-alike letters as digits needs a code
    of at least as many digits as letters (two at least): ordinary words, acronyms and
    product names with one digit are not made numbers."""
    text = " ".join(words)
    for shown in decoded_texts(text):
        for before, after in zip(text.split(), shown.split(), strict=False):
            if before != after:
                digits = sum(ch.isdigit() for ch in before)
                assert digits >= 2 and digits >= len(before) - digits - before.count("-"), (before, after)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(attacks())
def test_x2_issue24_an_attack_class_never_reaches_the_public_index(tmp_path_factory, case) -> None:  # type: ignore[no-untyped-def]
    """X2, issue 24, end to end: the public page is withheld from ``customer_safe``, the
    unrelated one stays public."""
    line, paragraphs, how = case
    rng = random.Random(line)
    site = tmp_path_factory.mktemp("site")
    write_files(site, {"ops/vault.md": _page("Vault", "internal", [_INTERNAL_NOTE, line]),
                       "guide.md": _page("Guide", "public", paragraphs),
                       "other.md": _page("Other", "public", [_filler(rng, 30) + "."])})
    public = _public(site)
    assert "guide.md" not in public, (how, line, paragraphs)
    assert "other.md" in public
