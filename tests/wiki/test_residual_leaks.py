"""Rule 6d's residual leak classes (issue 24; CONTRACT X2, X5), each as a class.

The attacker reproduced six ways internal text reached ``customer_safe`` past rule 6d:
a short block of a long internal page (a PIN or a phone number on its own line), internal
boilerplate that 13 internal pages repeat (common by the old count of every document),
one note pasted into more public pages than the common limit (closed up to the limit
only: see below), a partial paste (the
sentence with the secret, not the paragraph), a fragment of a Japanese or Chinese
paragraph, and pieces under 4 words. Each generator below makes members of one class;
every page goes through the real reader (:func:`provider.wiki.check.check_wiki`). The
benign counterparts — a site's template wording, a code many public pages give with
common words — stay public.

Out of reach, and documented (docs/reference/corpus-rules.md): a paraphrase, pieces
under 4 words that carry no code, and one note pasted into more public pages than the
common limit (its words, and its code pairs, are then common).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from provider.wiki.check import check_wiki
from provider.wiki.containment import is_code, terms
from provider.wiki.document import WikiSettings
from tests.support import write_files
from tests.wiki.test_contained_text import FILLER, SECRET_WORDS, _filler, _page, _public

_SLOW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _code(rng: random.Random) -> tuple[str, str]:
    """A code in two spellings: a PIN, a phone number or an identifier."""
    kind = rng.choice(["pin", "phone", "id"])
    if kind == "pin":
        a, b = rng.randint(1000, 9999), rng.randint(1000, 9999)
        return rng.sample([f"{a}-{b}", f"{a} {b}", f"{a}{b}", f"{a}.{b}"], 2)  # type: ignore[return-value]
    if kind == "phone":
        a, b = rng.randint(200, 999), rng.randint(1000, 9999)
        return rng.sample([f"{a}-{b}", f"({a}) {b}", f"{a} {b}", f"{a}{b}"], 2)  # type: ignore[return-value]
    letters = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(2))
    number = rng.randint(1000, 99999)
    return rng.sample([f"{letters}-{number}", f"{letters}{number}", f"{letters}_{number}"], 2)  # type: ignore[return-value]


def _long_internal(rng: random.Random, line: str) -> str:
    """A long internal page with ``line`` as a block of its own among others."""
    return _page("Runbook", "internal", [_filler(rng, 40) + ".", line, _filler(rng, 40) + ".",
                                         " ".join(rng.sample(SECRET_WORDS, 8)) + "."])


def test_codes_are_numbers_of_four_digits_and_mixed_identifiers() -> None:
    """What counts as a code: 4 digits or more in any spelling, or letters and digits
    mixed; not a name with a version after it."""
    assert all(is_code(t) for t in terms("4417-9920 GW-7731 (555) 0199 x7q9zk 0x80070005"))
    assert not any(is_code(t) for t in terms("sha256 office365 win10 x64 utf8 ipv6, 365 or 42"))


#: A public page that shares nothing with the generated pages but the language.
_OTHER_TEXT = ("Parcels leave the warehouse each morning; couriers scan every label, and shoppers follow "
               "the journey on a map until the doorbell rings.")


@st.composite
def short_code_lines(draw: st.DrawFn) -> tuple[str, dict[str, str]]:
    """Classes 1, 4 and 6: a line under 6 words carrying a code ("Override PIN: 4417-9920")
    in a long internal page; a public page carries that line, or only the code beside
    one of its words (a piece of 2 or 3 words), in another spelling, mid-paragraph."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    spelled, other = _code(rng)
    label = rng.sample(SECRET_WORDS, draw(st.integers(1, 3)))
    label[0] = label[0].capitalize()
    line = f"{' '.join(label)}: {spelled}"
    piece = draw(st.sampled_from(["line", "piece"]))
    carried = f"{' '.join(label)} {other}" if piece == "line" else f"{rng.choice(label)} {other}"
    page = _page("Guide", "public", [f"{_filler(rng, 30)}. {carried}. {_filler(rng, 30)}."])
    return _long_internal(rng, line), {"guide.md": page}


@_SLOW
@given(short_code_lines())
@example(("---\ntitle: Runbook\naudience: internal\n---\n# Runbook\n\nwidget dashboard export.\n\n"
          "Override PIN: 4417-9920\n\nchart table filter.\n",
          {"guide.md": _page("Guide", "public", ["Open the screen. Override PIN 4417 9920. Then export."])}))
@example(("---\ntitle: Runbook\naudience: internal\n---\n# Runbook\n\nchart browser widget profile desktop receipt "
          "export button reminder screen browser table reminder folder desktop folder theme upload desktop column "
          "invoice desktop column theme upload filter browser column row profile timezone browser invoice theme upload "
          "row theme reminder account mobile.\n\nEscalation: 1494-5372\n\nscreen timezone theme folder filter tablet "
          "theme timezone reminder folder report timezone archive table calendar report browser dashboard language "
          "export desktop widget export profile reminder export calendar screen table account invoice invoice account "
          "currency dashboard archive install browser row invoice.\n\nwaiver ticket hotline tier credential rotate "
          "bypass code.\n",
          {"guide.md": _page("Guide", "public", ["invoice currency button install chart screen receipt browser "
                                                 "reminder row. Escalation 14945372. screen desktop configure "
                                                 "receipt tablet invoice table export."])}))
def test_x2_a_short_line_with_a_code_never_reaches_the_public_index(tmp_path_factory, case) -> None:  # type: ignore[no-untyped-def]
    """X2: a PIN, phone number or identifier on its own short line of a long internal page
    (under the 6-word floor of a unit), carried into a public page whole or as a 2-word
    piece, in another spelling, keeps that page out of ``customer_safe``; ``check`` names
    the source."""
    source, pages = case
    site = tmp_path_factory.mktemp("site")
    write_files(site, {"ops/runbook.md": source, **pages,
                       # Words of its own: the filler vocabulary is ~40 words, so a page of it
                       # holds most of any filler paragraph of the runbook (a CI run drew one).
                       "other.md": _page("Other", "public", [_OTHER_TEXT])})
    report = check_wiki(WikiSettings(root=site))
    public = {e.path for e in report.files if e.resolved is not None and e.resolved.public}
    assert "guide.md" not in public and "other.md" in public
    entry = next(e for e in report.files if e.path == "guide.md")
    assert entry.resolved is not None and any("ops/runbook.md" in q for q in entry.resolved.quarantine)


@st.composite
def internal_boilerplate(draw: st.DrawFn) -> tuple[str, dict[str, str]]:
    """Class 2: a note that 13 to 20 internal pages repeat (an internal template), pasted
    into one public page."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    note = " ".join(rng.sample(SECRET_WORDS, draw(st.integers(6, 12)))) + "."
    files = {f"ops/i{n}.md": _page(f"I{n}", "internal", [note, f"Runbook page {n}."])
             for n in range(draw(st.integers(13, 20)))}
    files["guide.md"] = _page("Guide", "public", [f"{_filler(rng, 20)}. {note} {_filler(rng, 20)}."])
    return note, files


@_SLOW
@given(internal_boilerplate())
def test_x2_boilerplate_of_many_internal_pages_is_still_evidence(tmp_path_factory, case) -> None:  # type: ignore[no-untyped-def]
    """X2: commonness counts public documents only: a note 13 or more internal pages
    repeat is no site wording while few public pages hold it, and a public page holding
    it is withheld."""
    _, files = case
    site = tmp_path_factory.mktemp("site")
    write_files(site, {**files, "other.md": _page("Other", "public", [_filler(random.Random(4), 30) + "."])})
    public = _public(site)
    assert "guide.md" not in public and "other.md" in public


@st.composite
def mass_pastes(draw: st.DrawFn) -> dict[str, str]:
    """Class 3, up to the limit: a short line carrying a code pasted into 1 to 12 public
    pages (past 12 its words are common: the documented residual)."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    spelled, other = _code(rng)
    words_ = rng.sample(SECRET_WORDS, draw(st.integers(1, 6)))
    files = {"ops/runbook.md": _long_internal(rng, f"{' '.join(words_)} {spelled}")}
    for n in range(draw(st.integers(1, 12))):
        files[f"p{n}.md"] = _page(f"P{n}", "public", [f"{_filler(rng, 15)}. {' '.join(words_)} {other}. "
                                                      f"{_filler(rng, 10)}."])
    return files


@_SLOW
@given(mass_pastes())
def test_x2_a_code_line_pasted_into_many_pages_taints_them_all(tmp_path_factory, files) -> None:  # type: ignore[no-untyped-def]
    """X2: a short internal line with a code pasted into up to 12 public pages (the
    common limit) taints every one of them. Past the limit its words are site wording:
    "never common by public pastes" withheld 35 real Learn articles (see
    provider.wiki.containment._common), so that attack is the documented residual."""
    site = tmp_path_factory.mktemp("site")
    write_files(site, files)
    assert not {p for p in files if p.startswith("p")} & _public(site)


@st.composite
def partial_pastes(draw: st.DrawFn) -> tuple[str, dict[str, str]]:
    """Class 4: a long internal paragraph of several sentences; a public page carries one
    sentence of it (6 to 12 words, no code), mid-paragraph."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    sentences = []
    for _ in range(draw(st.integers(3, 5))):
        sentence = rng.sample(SECRET_WORDS + FILLER, draw(st.integers(8, 12)))
        sentence[0] = sentence[0].capitalize()
        sentences.append(" ".join(sentence) + ".")
    secret = rng.randrange(len(sentences))
    page = _page("Guide", "public", [f"{_filler(rng, 25)}. {sentences[secret]} {_filler(rng, 25)}."])
    return _page("Runbook", "internal", [" ".join(sentences)]), {"guide.md": page}


@_SLOW
@given(partial_pastes())
def test_x2_one_sentence_of_a_long_internal_paragraph_is_withheld(tmp_path_factory, case) -> None:  # type: ignore[no-untyped-def]
    """X2: each sentence of an internal paragraph is a unit of its own (wording path): a
    public page carrying one sentence of a long internal paragraph is withheld."""
    source, pages = case
    site = tmp_path_factory.mktemp("site")
    write_files(site, {"ops/runbook.md": source, **pages})
    assert "guide.md" not in _public(site)


JAPANESE = ["内部の運用チームだけが使う緊急用の管理者パスワードは毎週変更されます。",
            "顧客の返金は上長の承認番号がある場合に限り手動で処理してください。",
            "障害時の連絡先は夜間当番の携帯電話で社外には公開しないでください。",
            "特別割引の適用条件は営業部の内部資料に記載されている基準に従います。"]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.permutations(JAPANESE), st.integers(0, 3))
def test_x2_a_sentence_of_a_japanese_internal_paragraph_is_withheld(tmp_path_factory, order, which) -> None:  # type: ignore[no-untyped-def]
    """X2 (class 5): a script without spaces: a sentence (ending in 。) of a longer
    internal paragraph, pasted into a public page, is withheld; a public page without it
    stays public."""
    site = tmp_path_factory.mktemp("site")
    write_files(site, {"ops/a.md": _page("A", "internal", ["".join(order)]),
                       "one.md": _page("One", "public", [f"説明の前半です。{order[which]}説明の後半です。"]),
                       "two.md": _page("Two", "public", ["説明の前半です。アプリを開いて設定を確認します。"])})
    public = _public(site)
    assert "one.md" not in public and "two.md" in public


@st.composite
def public_codes(draw: st.DrawFn) -> dict[str, str]:
    """The balance: a code the site publishes (a support number, an error number) beside
    words the site's pages use everywhere, on 1 to 16 public pages, and an internal page
    giving it with the same words."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    spelled, other = _code(rng)
    files = {"ops/runbook.md": _long_internal(rng, f"Call {spelled} for help")}
    for n in range(draw(st.integers(1, 16))):
        files[f"p{n}.md"] = _page(f"P{n}", "public", [f"{_filler(rng, 15)}. Call {other} for help. {_filler(rng, 9)}."])
    # "call", "for" and "help" are everyday words of the site, on pages without the code
    # too (as is every filler word: a site of 14 pages is otherwise all rare words).
    for n in range(13):
        files[f"q{n}.md"] = _page(f"Q{n}", "public", [f"{' '.join(rng.sample(FILLER, len(FILLER)))}. "
                                                      "Call your admin for help."])
    return files


@_SLOW
@given(public_codes())
def test_a_code_the_site_publishes_with_common_words_taints_nothing(tmp_path_factory, files) -> None:  # type: ignore[no-untyped-def]
    """The balance: a code beside words that many public pages hold ("Call 555 0199 for
    help") is site wording, not evidence, even though an internal page gives it too."""
    site = tmp_path_factory.mktemp("site")
    write_files(site, files)
    assert {p for p in files if not p.startswith("ops/")} <= _public(site)
