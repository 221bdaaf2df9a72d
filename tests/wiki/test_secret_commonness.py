"""Issue 24 (CONTRACT X2), the attacker on the merged build, as classes:

1. **commonness**: a secret-shaped value (digit groups, letters and digits mixed, a random
   key's case) copied onto more public pages than :func:`~provider.wiki.containment.common_limit`
   is still a secret — never the site's boilerplate, whatever the corpus's size; a
   placeholder, a version, a date or a port never is one;
2. **respellings**: look-alike letters inside digit groups (``44l7-992O``), a secret split
   over two code blocks or inline code spans of one page.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from provider.wiki.containment import (
    _common,
    _secret_entries,
    _skeleton_unit,
    _units_of,
    block_shingles,
    common_limit,
)
from provider.wiki.secret_forms import is_placeholder, is_secret_shaped, page_skeleton, secret_skeletons
from tests.support import write_files
from tests.wiki.test_contained_text import SECRET_WORDS, _filler, _page, _public

_E2E = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
_KEY_ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: Look-alike letters a digit may be written as.
_LOOKS = {"1": "lI|", "0": "Oo", "5": "S", "8": "B", "2": "Z"}


@st.composite
def shaped_values(draw: st.DrawFn) -> str:
    """A secret-shaped value: digit groups (a PIN, a door code), a code of letters and
    digits (``GW-7731``), or a random key."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    kind = draw(st.sampled_from(["groups", "code", "key"]))
    if kind == "groups":
        # Two groups at least: a lone 4-digit PIN is a code pair's business (its residual).
        groups = [str(rng.randint(1000, 9999)) for _ in range(rng.randint(2, 3))]
        value = rng.choice("- ").join(groups)
        assume(not is_placeholder(value))
        return value
    if kind == "code":
        return "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(rng.randint(2, 3))) + "-" + str(
            rng.randint(1000, 99999))
    value = "".join(rng.choice(_KEY_ALPHABET) for _ in range(rng.randint(12, 32)))
    # Two digits inside, not at the end: ``TnxfdQRCByqv47`` (3 changes of case, digits last)
    # is a word with a number after it by the rule's definition, not a key's shape.
    value = value if sum(ch.isdigit() for ch in value) >= 2 else value[:6] + "47" + value[6:]
    last_letter = max(i for i, ch in enumerate(value) if ch.isalpha())
    assume(any(ch.isdigit() for ch in value[:last_letter]))  # the key shape's definition
    assume(not is_placeholder(value))  # "2222", "1234": a placeholder (its own class below)
    return value


@st.composite
def not_secrets(draw: st.DrawFn) -> str:
    """What a value after a label may be without naming a secret: a placeholder, a
    version, a date, a time, an IP address, a well-known port."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    return draw(st.sampled_from([
        f"{rng.randint(0, 30)}.{rng.randint(0, 30)}.{rng.randint(0, 99)}", f"v{rng.randint(1, 9)}.{rng.randint(0, 9)}",
        f"{rng.randint(1990, 2030)}-{rng.randint(1, 12):02}-{rng.randint(1, 28):02}",
        f"{rng.randint(1, 28):02}.{rng.randint(1, 12):02}.{rng.randint(1990, 2030)}",
        f"{rng.randint(0, 23):02}:{rng.randint(0, 59):02}", rng.choice(["8080", "443", "8443", "3306", "5432", "22"]),
        f"localhost:{rng.choice(['8080', '3000', '5432'])}", f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.1",
        "<password>", "your-api-key", "xxxx", "123456", "example", "${DB_PASSWORD}", "12345678"]))


@settings(max_examples=50, deadline=None)
@given(shaped_values())
def test_issue24_a_shaped_secret_is_never_common(value: str) -> None:
    """Issue 24: every value a secret-shaped value's units are made of is kept out of the
    common values, however many public pages hold it and whatever the corpus's limit."""
    assert is_secret_shaped(value), value
    units = _units_of(tuple(_secret_entries(value)))
    assert any(unit.kept for unit in units), value
    kept = frozenset().union(*(unit.kept for unit in units))
    # Only codes and skeletons: a kept word "the" would make every page's "the" evidence.
    assert all(unit.forms or unit.pairs or (len(unit.words) == 1 and not unit.shingles)
               for unit in units if unit.kept)
    for documents in (22, 2_448, 20_000):
        limit = common_limit(documents)
        df = dict.fromkeys(kept, limit + 1 + documents // 10)
        assert not _common(df, limit, {}, None, kept), (value, documents)


@settings(max_examples=50, deadline=None)
@given(not_secrets())
def test_issue24_placeholders_versions_dates_ports_are_no_secrets(value: str) -> None:
    """Issue 24's false positives: a placeholder, a version, a date, a time, an IP
    address or a well-known port is no secret's value (no unit at all)."""
    assert is_placeholder(value), value
    assert not is_secret_shaped(value), value
    assert _secret_entries(value) == [], value


def test_issue24_words_stay_subject_to_commonness_but_the_whole_value() -> None:
    """A value of words only (``swordfish``, ``amber falcon 79``) is not secret-shaped:
    its words and parts may be the site's; only its whole skeleton, which a secret's
    label gave, is kept from commonness (issue 24, round two). A person's name is not."""
    for value in ("swordfish", "amber falcon 79", "correct horse battery staple", "sha256", "office365"):
        assert not is_secret_shaped(value), value
        units = _units_of(tuple(_secret_entries(value)))
        assert all(unit.forms and unit.kept == {unit.whole} for unit in units if unit.kept), value
    assert not any(unit.kept for unit in _units_of(tuple(_secret_entries("Dana Whitfield", labelled=False))))


def test_issue24_a_word_part_of_a_shaped_value_may_still_be_common() -> None:
    """Of ``amber falcon 4417``, the whole and ``4417`` are kept; ``amber`` and
    ``falcon`` are words a site may say widely (the parts path then needs the rest)."""
    entry = next(e for e in _secret_entries("amber falcon 4417") if e.startswith("z:"))
    unit = _skeleton_unit(entry)
    assert unit.whole in unit.kept
    assert len(unit.kept) == 2  # the whole and the digit part


def _site(tmp_path_factory, line: str, pages: list[list[str]], others: int):  # type: ignore[no-untyped-def]
    rng = random.Random(len(line))
    site = tmp_path_factory.mktemp("site")
    body = [" ".join(rng.sample(SECRET_WORDS, 10)) + ".", line, " ".join(rng.sample(SECRET_WORDS, 8)) + "."]
    files = {"ops/vault.md": _page("Vault", "internal", body)}
    files |= {f"copy{i}.md": _page(f"Copy {i}", "public", paragraphs) for i, paragraphs in enumerate(pages)}
    files |= {f"other{i}.md": _page(f"Other {i}", "public", [_filler(rng, 30) + "."]) for i in range(others)}
    write_files(site, files)
    return site


@_E2E
@given(shaped_values(), st.integers(1, 16), st.sampled_from([1, 8]),
       st.sampled_from(["Override PIN: {}", "API key: {}", "The door code is {}."]))
def test_x2_issue24_a_secret_copied_onto_many_pages_never_reaches_the_public_index(
        tmp_path_factory, value: str, copies: int, others: int, template: str) -> None:  # type: ignore[no-untyped-def]
    """X2, issue 24: 1 to 16 public pages (past the limit of 12) carrying an internal
    page's secret-shaped value are all withheld, in a wiki of 3 to 25 pages; the others
    stay public."""
    rng = random.Random(copies)
    pages = [[f"{_filler(rng, 8)} {template.format(value).rstrip('.')} {_filler(rng, 8)}."] for _ in range(copies)]
    public = _public(_site(tmp_path_factory, template.format(value), pages, others))
    assert not any(path.startswith("copy") for path in public), (value, copies, sorted(public))
    assert {f"other{i}.md" for i in range(others)} <= public


@st.composite
def lookalike_groups(draw: st.DrawFn) -> tuple[str, str]:
    """(a digit-group value, the same with look-alike letters for some digits)."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    groups = ["".join(rng.choice("0125789") for _ in range(4)) for _ in range(2)]
    value = "-".join(groups)
    shown = "".join(rng.choice(_LOOKS[ch]) if ch in _LOOKS and rng.random() < 0.3 else ch for ch in value)
    if shown == value:
        shown = value.replace("1", "l").replace("0", "O").replace("8", "B").replace("2", "Z").replace("5", "S")
    return value, shown


@settings(max_examples=50, deadline=None)
@given(lookalike_groups())
def test_issue24_lookalike_letters_in_digit_groups_meet_their_secret(case: tuple[str, str]) -> None:
    """Issue 24: ``44l7-992O`` on a page holds ``4417-9920``: the page's skeleton holds
    one of the value's forms, where each group keeps two digits or more."""
    value, shown = case
    groups = shown.split("-")
    if any(sum(ch.isdigit() for ch in group) < 2 for group in groups):
        return  # "lOOl": no digit group a reader sees as one
    found = secret_skeletons(value)
    assert found is not None
    stream = page_skeleton([f"install the widget then type {shown} and save."])
    assert any(form in stream for form in found[1]), (value, shown, stream)


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(["4417-9920", "qK7vR2mXp9LwT4sZ", "GW-77310482"]), st.integers(1, 4), st.booleans())
def test_issue24_a_secret_split_over_code_pieces_meets_its_secret(value: str, cut_at: int, inline: bool) -> None:
    """Issue 24: a secret split over two code blocks, or two inline code spans, of one
    page (prose between them) is whole in the page's skeleton."""
    plain = value.replace("-", "")
    cut = len(plain) * cut_at // 5
    first, second = plain[:cut], plain[cut:]
    if inline:
        blocks: list[tuple[str, bool] | tuple[str, bool, tuple[str, ...]]] = [
            (f"run {first} in the dashboard then {second} to export", False, (first, second))]
    else:
        blocks = [(first, True), ("configure the widget in the dashboard", False), (second, True)]
    entries = block_shingles(blocks)
    stream = entries[-1].removeprefix("j:")
    found = secret_skeletons(value)
    assert found is not None
    assert any(form in stream for form in found[1]), (value, blocks)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(1000, 99999).map(str), min_size=2, max_size=4), st.sampled_from(["each", "order", "all"]),
       st.sampled_from(["-", " ", "."]))
def test_issue24_a_code_with_its_groups_reversed_meets_its_secret(groups: list[str], how: str, gap: str) -> None:
    """Issue 24: ``7144-0299`` (each group reversed), ``9920-4417`` (the groups in
    reverse order) or ``0299-7144`` (all reversed) on a page holds ``4417-9920``."""
    value = "-".join(groups)
    assume(not is_placeholder(value))
    shown = gap.join(g[::-1] for g in groups) if how == "each" else gap.join(reversed(groups)) if how == "order" \
        else value[::-1]
    found = secret_skeletons(value)
    assert found is not None
    stream = page_skeleton([f"configure the widget then enter {shown} on the dashboard."])
    assert any(form in stream for form in found[1]), (value, shown)
