"""Rule 6d: an internal text's distinctive content carried by a public page (CONTRACT
X2, X5).

Rule 6c needs a paragraph of at least 20 words with exactly the same words. A short
internal note pasted into a longer public paragraph, a copy with words changed or
reordered, a list spread over a page, a phone number respelled, a note pasted into
several pages or split across them escaped it (issue 24). Tested as classes: generators
make members of each (:func:`pasted_notes`, :func:`leaks`), and of the benign
counterparts — a title, a short common phrase, a few scattered shared words, template
wording many internal and public pages share (:func:`templates`) — that stay public.
Every page goes through the real reader (:func:`provider.wiki.check.check_wiki`)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.indexing import Indexer
from provider.search.layout import IndexLayout
from provider.wiki.check import check_wiki
from provider.wiki.classify import INTERNAL, PUBLIC
from provider.wiki.containment import (
    MIN_UNIT_SHINGLES,
    ContainmentIndex,
    Rarity,
    Unit,
    block_shingles,
    contained,
    decode,
    decode_words,
    terms,
)
from provider.wiki.corpus import resolve
from provider.wiki.document import DocumentMeta, WikiSettings, git_blob_sha1
from provider.wiki.findings import NEAR_COPY, Acceptance
from provider.wiki.incremental import CorpusRules
from tests.support import write_files
from tests.wiki.test_incremental_rules import _apply_history

NOW = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)

#: Words of internal notes; none is in FILLER.
SECRET_WORDS = ("override escalation vault rotate staging credential ticket waiver bypass refund "
                "supervisor hotline discount code tier partner quota ledger").split()
FILLER = ("install configure widget dashboard export report screen button account profile "
          "language theme browser mobile tablet desktop chart table filter column row "
          "invoice receipt currency timezone calendar reminder folder archive upload").split()
LOOKALIKES = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "i": "і", "x": "х"}


def _filler(rng: random.Random, count: int) -> str:
    return " ".join(rng.choice(FILLER) for _ in range(count))




def _page(title: str, audience: str, paragraphs: list[str]) -> str:
    return f"---\ntitle: {title}\naudience: {audience}\n---\n# {title}\n\n" + "\n\n".join(paragraphs) + "\n"


def _public(site: Path) -> set[str]:
    return {e.path for e in check_wiki(WikiSettings(root=site)).files if e.resolved is not None and e.resolved.public}


def _disguise(words: list[str], rng: random.Random, how: str) -> list[str]:
    """One variant of the class: what a careless (or hostile) author does to a pasted note."""
    out = list(words)
    if how == "edit":
        out[rng.randrange(len(out))] = rng.choice(FILLER)
    elif how == "drop":
        del out[rng.randrange(1, len(out) - 1)]
    elif how == "lookalike":
        out = ["".join(LOOKALIKES.get(ch, ch) if rng.random() < 0.5 else ch for ch in w) for w in out]
    elif how == "case":
        out = [w.upper() if rng.random() < 0.5 else w.capitalize() for w in out]
    return out


@st.composite
def pasted_notes(draw: st.DrawFn) -> tuple[str, list[str], str]:
    """(internal note, the public page's paragraphs holding a variant of it, the variant kind)."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    size = draw(st.integers(MIN_UNIT_SHINGLES + 4, 40))
    note = [rng.choice(SECRET_WORDS) for _ in range(size)]
    note[0] = note[0].capitalize()
    how = draw(st.sampled_from(["verbatim", "edit", "drop", "lookalike", "case", "split", "whitespace"]))
    # What the rule promises (provider.wiki.containment): 80 % of the shingles kept; an
    # edited or dropped word costs up to 3 of them, a split 2.
    if (how in ("edit", "drop") and size < 17) or (how == "split" and size < 12):
        how = "verbatim"
    variant = _disguise(note, rng, how)
    before, after = _filler(rng, rng.randint(0, 30)), _filler(rng, rng.randint(0, 30))
    if how == "split":
        cut = rng.randint(size // 3, 2 * size // 3)
        paragraphs = [f"{before} {' '.join(variant[:cut])}.", f"{' '.join(variant[cut:])} {after}."]
    elif how == "whitespace":
        text = "".join(w + rng.choice([" ", "  ", "\t", "\u00a0", "\n"]) for w in variant)
        paragraphs = [f"{before} {text.strip()} {after}."]
    else:
        paragraphs = [f"{before} {' '.join(variant)} {after}."]
    return " ".join(note) + ".", [_filler(rng, 25) + ".", *paragraphs, _filler(rng, 25) + "."], how


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pasted_notes(), st.booleans())
def test_x2_a_pasted_internal_note_never_reaches_the_public_index(tmp_path_factory, case, as_section) -> None:  # type: ignore[no-untyped-def]
    """X2: a short internal text (an internal page, or an internal section of another
    page) pasted into a public paragraph — verbatim (from 8 words), one word edited or
    dropped (from 17), split across two paragraphs (from 12), in look-alike letters,
    another case, other whitespace — keeps that public page out of ``customer_safe``; an
    unrelated public page stays public."""
    note, paragraphs, _ = case
    site = tmp_path_factory.mktemp("site")
    rng = random.Random(len(note))
    source = (_page("Runbook", "public", [_filler(rng, 20) + ".", "<!-- internal -->", note, "<!-- /internal -->"])
              if as_section else _page("Runbook", "internal", [note]))
    write_files(site, {"ops/runbook.md": source, "guide.md": _page("Guide", "public", paragraphs),
                       "other.md": _page("Other", "public", [_filler(rng, 30) + "."])})
    public = _public(site)
    assert "guide.md" not in public
    assert "other.md" in public


BENIGN = ["Coming soon", "See the admin guide", "Contact support for help", "Install the widget first"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 10**6), st.sampled_from(BENIGN), st.integers(0, 5))
def test_short_or_loosely_shared_internal_text_taints_no_public_page(tmp_path_factory, seed, phrase, shared) -> None:  # type: ignore[no-untyped-def]
    """The balance: an internal page under the floor (a title, "Coming soon", a few words)
    whose text a public page also holds, or a longer internal note of which a public page
    holds fewer than the contained share (a few words in common, scattered), leaves the
    public page public."""
    rng = random.Random(seed)
    note = [rng.choice(SECRET_WORDS) for _ in range(20)]
    # A public page holding a few of the note's words, never 3 in a row.
    scattered = " ".join(f"{w} {rng.choice(FILLER)} {rng.choice(FILLER)}" for w in note[:shared])
    site = tmp_path_factory.mktemp("site")
    write_files(site, {
        "ops/soon.md": _page("Runbook", "internal", [phrase + "."]),
        "ops/note.md": _page("Escalation", "internal", [" ".join(note) + "."]),
        "guide.md": _page("Runbook", "public", [f"{_filler(rng, 20)} {phrase}. {scattered} {_filler(rng, 20)}."]),
    })
    assert "guide.md" in _public(site)


def test_x2_the_attack_example_gw_7731_is_internal_and_named(tmp_path: Path) -> None:
    """X2: the attacker's example — a one-sentence internal page pasted mid-paragraph into
    a long public page — is internal, quarantined, and ``check`` names the source."""
    site = tmp_path / "site"
    write_files(site, {
        "ops/esc.md": _page("Escalation", "internal", ["Use override code GW-7731 for VIP refunds."]),
        "guide.md": _page("Refunds", "public", [
            "Our refund policy covers most orders, and you can ask any time from your account page. "
            "Use override code GW-7731 for VIP refunds. Then wait three days for the money to arrive."]),
    })
    entry = next(e for e in check_wiki(WikiSettings(root=site)).files if e.path == "guide.md")
    assert entry.resolved is not None and not entry.resolved.public and entry.resolved.quarantined
    assert any("holds the text of the internal ops/esc.md" in q for q in entry.resolved.quarantine)


def test_x2_the_public_index_leaves_out_a_page_holding_internal_text(tmp_path: Path) -> None:
    """X2 end to end: the real indexer's public (``customer_safe``) index holds no page
    containing an internal note."""
    from whoosh import index as whoosh_index

    site = tmp_path / "site"
    write_files(site, {
        "ops/esc.md": _page("Escalation", "internal", ["Staging vault credential rotates every Tuesday at noon."]),
        "guide.md": _page("Guide", "public", [
            "Open the dashboard. The staging vault credential rotates every Tuesday at noon, remember. Then export."]),
        "other.md": _page("Other", "public", ["Open the dashboard and export the report as a table."]),
    })
    layout = IndexLayout(tmp_path / "index")
    with Indexer(WikiSettings(root=site), layout) as indexer:
        indexer.sync()
    name = layout.current_name()
    assert name is not None
    with whoosh_index.open_dir(str(layout.build_dir(name) / "public")).searcher() as searcher:
        assert {fields["doc"]["id"] for fields in searcher.all_stored_fields()} == {"other"}


def test_x2_an_accepted_finding_publishes_the_page_until_it_changes(tmp_path: Path) -> None:
    """X2: the operator can accept the ``near-copy`` finding for the page's bytes; an edit
    re-opens it."""
    site = tmp_path / "site"
    guide = _page("Guide", "public", ["Open it. Staging vault credential rotates every Tuesday at noon. Then go."])
    esc = _page("Esc", "internal", ["Staging vault credential rotates every Tuesday at noon."])
    write_files(site, {"ops/esc.md": esc,
                       "guide.md": guide})
    accepted = (Acceptance("guide.md", NEAR_COPY, git_blob_sha1(guide.encode())),)
    settings_ = dataclasses.replace(WikiSettings(root=site), accepted_findings=accepted)
    entry = next(e for e in check_wiki(settings_).files if e.path == "guide.md")
    assert entry.resolved is not None and entry.resolved.public
    assert any(p.startswith("accepted near-copy") for p in entry.resolved.problems)
    (site / "guide.md").write_text(guide + "\nMore.\n", "utf-8")
    entry = next(e for e in check_wiki(settings_).files if e.path == "guide.md")
    assert entry.resolved is not None and not entry.resolved.public


def test_containment_counts_distinctive_content_only() -> None:
    """The measure itself: a unit whose values are distinctive is contained from 80 % of
    its shingles, or 70 % of its words in any order; the same unit made of common values
    (template wording) is contained nowhere."""
    entry = block_shingles(["one two three four five six seven eight nine ten"])[0]
    unit = Unit(frozenset(decode(entry)), frozenset(decode_words(entry)))
    rare = Rarity(12)
    assert contained(unit, unit.values(), rare)
    assert contained(unit, set(sorted(unit.words)[:7]), rare)  # 7 of 10 words, no shingle
    assert not contained(unit, set(sorted(unit.words)[:6]), rare)
    assert not contained(unit, unit.values(), Rarity(12, unit.values()))


def test_numbers_and_identifiers_are_written_one_way() -> None:
    """A phone number or a code in any spelling is one term."""
    assert terms("Call 555-0199") == terms("call 555 0199") == terms("CALL 5550199") == terms("call (555) 0199")
    assert terms("code GW-7731") == terms("code gw7731") == terms("code GW_7731")


# -- incremental ------------------------------------------------------------------------

NOTES = ["override escalation vault rotate staging credential ticket waiver bypass",
         "supervisor hotline discount code tier partner quota ledger refund"]
BLOCKS = [*NOTES, f"install widget {NOTES[0]} dashboard export", f"theme {NOTES[1][:40]}",
          "chart table filter column row"]
ENCODED = [block_shingles([b])[0] for b in BLOCKS]
PATHS = [f"s{i}/p{i}.md" for i in range(5)]


@st.composite
def histories(draw: st.DrawFn) -> list[tuple[dt.datetime, dict[str, DocumentMeta | None]]]:
    batches: list[tuple[dt.datetime, dict[str, DocumentMeta | None]]] = []
    for number in range(draw(st.integers(2, 6))):
        touched = draw(st.lists(st.sampled_from(PATHS), min_size=5 if number == 0 else 1, max_size=5, unique=True))
        batch: dict[str, DocumentMeta | None] = {}
        for relpath in touched:
            stem = relpath.removesuffix(".md")
            gone = relpath != PATHS[0] and draw(st.integers(0, 5)) == 0
            batch[relpath] = None if gone else DocumentMeta(
                relpath=relpath, size=1, mtime_ns=1, revision="r1", doc_id=stem, title=stem,
                audience=draw(st.sampled_from([PUBLIC, PUBLIC, INTERNAL])), draft=draw(st.integers(0, 5)) == 0,
                locale="en", translation_group=stem, text_hash=stem,
                block_shingles=tuple(draw(st.lists(st.sampled_from(ENCODED), min_size=1, max_size=2, unique=True))),
                internal_block_shingles=tuple(draw(st.lists(st.sampled_from(ENCODED), max_size=1))),
            )
        batches.append((NOW, batch))
    return batches


@settings(max_examples=150, deadline=None)
@given(histories(), st.booleans())
def test_x2_incremental_contained_text_equals_a_fresh_resolve(
    batches: list[tuple[dt.datetime, dict[str, DocumentMeta | None]]], hinted: bool,
) -> None:
    """X2, rule 6d: pages related only by contained text: after every batch (one-file
    edits included) the incremental decisions equal a resolve from scratch."""
    _apply_history(CorpusRules(max_share=1e9), batches, None, None, hinted)


def test_a_one_file_edit_pasting_a_note_derives_the_two_pages_only() -> None:
    """A one-file edit that pastes an internal note into a public page derives that page
    and its source, not the corpus, and equals a fresh resolve."""
    docs = {
        f"s/p{i}.md": DocumentMeta(
            relpath=f"s/p{i}.md", size=1, mtime_ns=0, revision="r1", doc_id=f"p{i}", title=f"p{i}",
            audience=INTERNAL if i == 0 else PUBLIC, draft=False, locale="en", translation_group=f"p{i}",
            text_hash=f"h{i}", block_shingles=(ENCODED[0] if i == 0 else block_shingles([f"page {i} of the docs"])[0],))
        for i in range(30)
    }
    rules = CorpusRules()
    rules.resolve(docs, default_locale="en", now=NOW)
    docs["s/p7.md"] = dataclasses.replace(docs["s/p7.md"], block_shingles=(ENCODED[2],), revision="r2")
    kept, touched = rules.resolve(docs, default_locale="en", now=NOW)
    assert not rules.last_full and rules.last_derived == 2
    assert "s/p7.md" in touched
    assert kept == resolve(dict(docs), default_locale="en", now=NOW)
    assert not kept["s/p7.md"].public


def test_the_index_relates_a_container_and_its_source_both_ways() -> None:
    """The incremental relation: a source-capable document (internal here) and a page
    containing one of its units are each other's inputs; two public pages sharing a
    block are not (a public page is no source: relating them tied whole corpora together)."""
    index = ContainmentIndex()
    meta = DocumentMeta(relpath="a.md", size=1, mtime_ns=0, revision="r", doc_id="a", title="a", audience=PUBLIC,
                        draft=False, locale="en", translation_group="a")
    docs = {"src": dataclasses.replace(meta, audience=INTERNAL, block_shingles=(ENCODED[0],)),
            "box": dataclasses.replace(meta, block_shingles=(ENCODED[2],)),
            "twin": dataclasses.replace(meta, block_shingles=(ENCODED[2],)),
            "far": dataclasses.replace(meta, block_shingles=(ENCODED[4],))}
    index.rebuild(docs)
    assert set(index.related("src", docs["src"], docs)) == {"box", "twin"}
    assert set(index.related("box", docs["box"], docs)) == {"src"}
    assert set(index.related("far", docs["far"], docs)) == set()
    gone = docs.pop("src")
    assert index.update({"src": (gone, None)}, docs)
    assert set(index.related("box", docs["box"], docs)) == set()


@pytest.mark.parametrize("repeats", [1, 3, 4, 8])
def test_x2_an_internal_note_pasted_on_many_pages_taints_them_all(tmp_path: Path, repeats: int) -> None:
    """X2 (attack): pasting an internal sentence into more public pages does not make it
    site wording — the old guard ("more than 3 other pages repeat it") let an author
    launder a note by pasting it 4 times. Wording is common only when more than
    ``common_limit`` documents (12 here) hold it."""
    sentence = "This feature requires a Microsoft 365 administrator account to run the diagnostic."
    rng = random.Random(repeats)
    files = {"admin/diag.md": _page("Diagnostics", "internal", [sentence])}
    for number in range(repeats):
        files[f"p{number}.md"] = _page(f"P{number}", "public", [f"{_filler(rng, 15)}. {sentence} {_filler(rng, 9)}."])
    site = tmp_path / "site"
    write_files(site, files)
    assert not {f"p{n}.md" for n in range(repeats)} & _public(site)


def test_template_wording_many_pages_share_taints_none(tmp_path: Path) -> None:
    """The balance: a sentence 13 public documents hold (a template's "Sign in to the
    admin center" step, which internal pages hold too) is common and taints no public
    page; the internal pages' own text still does. Commonness counts public documents
    only (see the laundering test below)."""
    template = "Sign in to the Microsoft 365 admin center and select Support then Help and support."
    rng = random.Random(5)
    files = {}
    for number in range(5):
        files[f"viva/p{number}.md"] = _page(f"V{number}", "internal", [template, f"Glint survey {number} ledger "
                                                                        f"rotation quota waiver {number * 7}."])
    for number in range(13):
        files[f"p{number}.md"] = _page(f"P{number}", "public", [f"{_filler(rng, 15)}.", template])
    files["leak.md"] = _page("Leak", "public", [f"{_filler(rng, 15)}. Glint survey 3 ledger rotation quota waiver 21."])
    site = tmp_path / "site"
    write_files(site, files)
    public = _public(site)
    assert {f"p{n}.md" for n in range(13)} <= public
    assert "leak.md" not in public


def test_x2_text_of_a_withheld_page_withholds_the_page_holding_it(tmp_path: Path) -> None:
    """X2: a public page holding the text of a draft (withheld) is withheld too, and
    ``check`` says why once."""
    site = tmp_path / "site"
    note = "Staging vault credential rotates every Tuesday at noon for the billing team."
    write_files(site, {"wip.md": "---\ntitle: WIP\ndraft: true\n---\n# WIP\n\n" + note + "\n",
                       "guide.md": _page("Guide", "public", [
                           f"{_filler(random.Random(1), 40)}. {note} {_filler(random.Random(2), 40)}."])})
    entry = next(e for e in check_wiki(WikiSettings(root=site)).files if e.path == "guide.md")
    assert entry.resolved is not None and not entry.resolved.served
    assert entry.resolved.withheld is not None and entry.resolved.withheld.startswith("text copied from wip.md")
    assert [q.count("which is not served") for q in entry.resolved.quarantine] == [1]


def test_cjk_units_need_twice_the_characters(tmp_path: Path) -> None:
    """A Japanese glossary line of 10 characters (about 5 words) taints nothing; a
    30-character internal sentence pasted into a public page does (X2). Each character
    is one word to the copy rules, so a unit in such a script needs twice the shingles
    (the kaia archive scenario demoted ~60 translated pages for 8-character glossary terms)."""
    short = "ノードの同期状態です"
    long_ = "内部の運用チームだけが使う緊急用の管理者パスワードは毎週月曜日に変更されます"
    site = tmp_path / "site"
    write_files(site, {"ops/a.md": _page("A", "internal", [short]), "ops/b.md": _page("B", "internal", [long_]),
                       "one.md": _page("One", "public", [f"説明の前半です。{short}。説明の後半です。"]),
                       "two.md": _page("Two", "public", [f"説明の前半です。{long_}。説明の後半です。"])})
    public = _public(site)
    assert "one.md" in public and "two.md" not in public


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pasted_notes(), st.sampled_from(["fr", "de", "ja"]))
def test_x2_an_internal_pages_text_left_in_its_public_translation_is_not_served(tmp_path_factory, case, locale) -> None:  # type: ignore[no-untyped-def]
    """X2 (attack): a translation that says ``audience: public`` but carries its internal
    source's text (any variant :func:`pasted_notes` makes) is the source's text, not a
    translation: the translation group is no exception to rule 6d."""
    note, paragraphs, _ = case
    site = tmp_path_factory.mktemp("site")
    write_files(site, {"ops/runbook.md": _page("Runbook", "internal", [note]),
                       f"ops/runbook.{locale}.md": _page("Traduction", "public", ["Une ligne traduite.", *paragraphs])})
    settings_ = WikiSettings(root=site, locales=("en", locale))
    public = {e.path for e in check_wiki(settings_).files if e.resolved is not None and e.resolved.public}
    assert f"ops/runbook.{locale}.md" not in public


# -- leak classes the near-copy rule missed (issue 24), and their benign counterpart ------

PHONES = ["555-0199", "555 0199", "5550199", "(555) 0199", "555.0199"]


@st.composite
def leaks(draw: st.DrawFn) -> tuple[str, str, dict[str, str]]:
    """(kind, the internal page, the public pages carrying it) for one member of a leak
    class: up to 3 words substituted, words or sentences reordered, a phone number in
    another spelling, a list spread over the page, a short note verbatim, one note pasted
    into 1 to 8 pages, one note split across 2 or 3 pages."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    kind = draw(st.sampled_from(["substitute", "reorder-words", "reorder-sentences", "phone", "list", "short",
                                 "pasted", "split"]))
    size = draw(st.integers(6, 7)) if kind == "short" else draw(st.integers(10, len(SECRET_WORDS)))
    note = rng.sample(SECRET_WORDS, size)
    filler = lambda n: _filler(rng, n)  # noqa: E731 - one line, used below
    pages: dict[str, str] = {}
    if kind == "substitute":
        variant = list(note)
        for at in rng.sample(range(size), draw(st.integers(1, 3))):
            variant[at] = rng.choice(FILLER)
        pages["guide.md"] = _page("Guide", "public", [f"{filler(20)} {' '.join(variant)} {filler(20)}."])
        source = [" ".join(note) + "."]
    elif kind == "reorder-words":
        variant = list(note)
        rng.shuffle(variant)
        pages["guide.md"] = _page("Guide", "public", [f"{filler(20)} {' '.join(variant)} {filler(20)}."])
        source = [" ".join(note) + "."]
    elif kind == "reorder-sentences":
        cut = size // 2
        first, second = " ".join(note[:cut]) + ".", " ".join(note[cut:]) + "."
        pages["guide.md"] = _page("Guide", "public", [f"{filler(20)} {second} {filler(5)}. {first} {filler(10)}."])
        source = [f"{first} {second}"]
    elif kind == "phone":
        spelled, other = rng.sample(PHONES, 2)
        words_ = note[:6]
        pages["guide.md"] = _page("Guide", "public", [f"{filler(20)} {' '.join(words_)} {other}. {filler(20)}."])
        source = [f"{' '.join(words_)} {spelled}."]
    elif kind == "list":
        items = [" ".join(note[i : i + 3]) for i in range(0, size, 3)]
        source = ["\n".join(f"- {item}" for item in items)]
        spread = []
        for item in rng.sample(items, len(items)):
            spread += [filler(15) + ".", f"- {item}"]
        pages["guide.md"] = _page("Guide", "public", spread)
    elif kind == "short":
        pages["guide.md"] = _page("Guide", "public", [f"{filler(20)} {' '.join(note)}. {filler(20)}."])
        source = [" ".join(note) + "."]
    elif kind == "pasted":
        for number in range(draw(st.integers(1, 8))):
            pages[f"p{number}.md"] = _page(f"P{number}", "public", [f"{filler(15)} {' '.join(note)}. {filler(9)}."])
        source = [" ".join(note) + "."]
    else:  # split across pages
        # Each part at least 4 words: the rule's floor for a part (a 4-word rare run);
        # a note cut into pieces under 4 words is the documented residual.
        count = draw(st.integers(2, min(3, size // 4)))
        cuts = [round(size * i / count) for i in range(count + 1)]
        for number in range(count):
            piece = " ".join(note[cuts[number] : cuts[number + 1]])
            pages[f"p{number}.md"] = _page(f"P{number}", "public", [f"{filler(15)} {piece}. {filler(15)}."])
        source = [" ".join(note) + "."]
    return kind, _page("Runbook", "internal", source), pages


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(leaks())
def test_x2_every_member_of_the_leak_classes_is_withheld(tmp_path_factory, case) -> None:  # type: ignore[no-untyped-def]
    """X2, X5: a public page carrying an internal note in any member of the classes
    rule 6d missed (words substituted, reordered, a phone number respelled, a list spread
    over the page, a 6- or 7-word note, a note pasted into up to 8 pages, a note split across
    pages) never reaches ``customer_safe``; ``check`` names the internal source; an
    unrelated page stays public."""
    kind, source, pages = case
    site = tmp_path_factory.mktemp("site")
    write_files(site, {"ops/runbook.md": source, **pages,
                       "other.md": _page("Other", "public", [_filler(random.Random(kind), 30) + "."])})
    report = check_wiki(WikiSettings(root=site))
    public = {e.path for e in report.files if e.resolved is not None and e.resolved.public}
    assert not set(pages) & public, kind
    assert "other.md" in public
    for entry in report.files:
        if entry.path in pages:
            assert entry.resolved is not None
            assert any("ops/runbook.md" in q for q in entry.resolved.quarantine), kind


@st.composite
def templates(draw: st.DrawFn) -> dict[str, str]:
    """A site whose internal pages and public pages share a template's wording (a
    sentence or a procedure step on more than 12 public pages), each internal page also
    holding text of its own that no public page carries."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    # Under 20 words: a paragraph of 20 or more is rule 6c's (same words, no rarity test).
    template = " ".join(rng.choice(FILLER) for _ in range(draw(st.integers(5, 19)))) + "."
    internal, public = draw(st.integers(1, 6)), draw(st.integers(13, 16))
    files = {}
    for number in range(internal):
        own = " ".join(rng.sample(SECRET_WORDS, 10))
        files[f"ops/i{number}.md"] = _page(f"I{number}", "internal", [template, f"{own} {number}."])
    for number in range(public):
        files[f"p{number}.md"] = _page(f"P{number}", "public", [_filler(rng, 20) + ".", template,
                                                               _filler(rng, 10) + "."])
    return files


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(templates())
def test_template_wording_shared_with_internal_pages_keeps_public_pages_public(tmp_path_factory, files) -> None:  # type: ignore[no-untyped-def]
    """The balance (the Microsoft Learn ``Viva/**`` scenario): public pages sharing only a
    template's wording with internal pages stay public."""
    site = tmp_path_factory.mktemp("site")
    write_files(site, files)
    assert {p for p in files if not p.startswith("ops/")} <= _public(site)


# -- the parts rule (rule 6d (c)): a note cut into pieces, and words shared in passing ----

#: Words of longer internal notes (none in FILLER).
NOTE_WORDS = (*SECRET_WORDS, *("harbor lantern meadow quartz saffron tundra walnut zephyr cobalt ember falcon "
                               "glacier juniper marble nectar orchid").split())


@st.composite
def split_notes(draw: st.DrawFn) -> tuple[str, dict[str, str]]:
    """(the internal page, the public pages) of one member of the class: an internal note
    of 12 to 34 words cut into 2 to 6 consecutive pieces of 4 to 11 words, each piece
    on a public page of its own (in any order) or two on one page, among filler. Each
    piece at least 4 words: the floor of a part (a note cut into pieces under 4 words
    is the documented residual). At most 11: a page holding 12 words of a note is a
    copy on its own (the run path, or rules 6 to 6c before it), and a piece on another
    page whose rest a page withheld by an earlier rule holds is the documented residual."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    size = draw(st.integers(12, len(NOTE_WORDS)))
    note = rng.sample(NOTE_WORDS, size)
    count = draw(st.integers(max(2, -(-size // 11)), min(6, size // 4)))
    cuts = [0, *sorted(rng.sample(range(4, size - 3), count - 1)), size]
    while any(not 4 <= b - a <= 11 for a, b in pairwise(cuts)):
        cuts = [0, *sorted(rng.sample(range(4, size - 3), count - 1)), size]
    pieces = [" ".join(note[a:b]) for a, b in pairwise(cuts)]
    rng.shuffle(pieces)
    pages: dict[str, str] = {}
    doubled = draw(st.booleans()) and len(pieces) > 2
    groups = [[pieces[0], pieces[1]], *[[p] for p in pieces[2:]]] if doubled else [[p] for p in pieces]
    for number, group in enumerate(groups):
        pages[f"p{number}.md"] = _page(f"P{number}", "public",
                                       [f"{_filler(rng, 12)} {piece}. {_filler(rng, 12)}." for piece in group])
    return _page("Runbook", "internal", [" ".join(note) + "."]), pages


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(split_notes())
def test_x2_a_note_cut_into_pieces_over_pages_is_withheld_everywhere(tmp_path_factory, case) -> None:  # type: ignore[no-untyped-def]
    """X2 (issue 24): an internal note cut into 2 to 6 pieces of 4 to 11 words, spread
    over as many public pages (two on one page, any order), reaches ``customer_safe``
    through none of them."""
    source, pages = case
    site = tmp_path_factory.mktemp("site")
    write_files(site, {"ops/runbook.md": source, **pages})
    assert not set(pages) & _public(site)


@st.composite
def words_in_passing(draw: st.DrawFn) -> tuple[str, dict[str, str]]:
    """(the internal page, the public pages) of the benign counterpart: a long internal
    paragraph whose words the site's other pages use — each page a third to a half of
    them, here and there, and one 4-word phrase of it —, so that together they hold all
    its words but no piece of more than a few words (openai-agents-docs with
    ``guardrails.md`` internal: 7 pages held its API names, verbs and short phrases)."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    note = rng.sample(NOTE_WORDS, draw(st.integers(28, len(NOTE_WORDS))))
    pages: dict[str, str] = {}
    starts = list(range(0, len(note) - 4, 8))
    for number in range(draw(st.integers(3, 8))):
        scattered = rng.sample(note, int(len(note) * rng.uniform(0.3, 0.5)))
        start = rng.choice(starts)
        phrase = " ".join(note[start : start + 4])
        text = " ".join(f"{rng.choice(FILLER)} {word}" for word in scattered)
        pages[f"p{number}.md"] = _page(f"P{number}", "public", [f"{text}.", f"{_filler(rng, 8)} {phrase}."])
    return _page("Runbook", "internal", [" ".join(note) + "."]), pages


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words_in_passing())
def test_words_and_short_phrases_of_an_internal_paragraph_keep_pages_public(tmp_path_factory, case) -> None:  # type: ignore[no-untyped-def]
    """The balance of the parts rule (issue 24 false positives): pages that together
    hold an internal paragraph's words, each with a short phrase of it, but no piece of
    its text beyond a few words, stay public."""
    source, pages = case
    site = tmp_path_factory.mktemp("site")
    write_files(site, {"ops/runbook.md": source, **pages})
    assert set(pages) <= _public(site)


# -- pieces of an internal paragraph, edited word by word (issue 24) ------------------------

#: Words of long internal paragraphs (none in FILLER): 64 of them.
PARAGRAPH_WORDS = (*NOTE_WORDS, *("amber basalt cypress delta ferrite garnet hazel indigo jasper kelp lichen "
                                  "mangrove nickel opal pewter quill russet sienna topaz umber velvet willow "
                                  "yarrow zircon acorn bramble cinder dune ").split())


def _edit(piece: list[str], rng: random.Random, spacing: int, first: int | None = None) -> list[str]:
    """``piece`` with one word substituted, dropped or added every ``spacing`` words or
    more (the first edit anywhere, or at ``first``): the author's word-level edits."""
    out: list[str] = []
    next_edit = rng.randrange(spacing) if first is None else first
    for at, word in enumerate(piece):
        if at != next_edit:
            out.append(word)
            continue
        how = rng.choice(["substitute", "drop", "add"])
        out += [rng.choice(FILLER)] if how == "substitute" else [] if how == "drop" else [rng.choice(FILLER), word]
        next_edit = at + spacing + rng.randrange(spacing)
    return out


@st.composite
def edited_pieces(draw: st.DrawFn) -> tuple[str, dict[str, str]]:
    """(the internal page, the public pages) of one member of the class the attack on the
    merged build found (issue 24): an internal paragraph of 24 to 49 words on one public
    page, or of 24 to 64 words cut into 2 to 7 consecutive pieces of 7 to 16 words — at
    the cut the next piece follows on, or a word is dropped —, each on a public page of
    its own among filler; a piece of 9 words or more has a word changed, dropped or added
    every 9 words or more (11 %), a shorter one is as written. Between two pieces of 11
    words or more the cut may lose more: 1 or 2 words dropped and the next piece's first
    or second word changed, dropped or added (the attack's draw: 2 dropped and a third
    beside them, 4 words between the pieces). Floor of a piece: 4 consecutive words as
    written (see :func:`provider.wiki.containment.part`). At most 16 words: a page
    holding more of the paragraph is withheld by an earlier copy rule, and a piece whose
    rest only such a page holds is the documented residual."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    size = draw(st.integers(24, len(PARAGRAPH_WORDS)))
    note = rng.sample(PARAGRAPH_WORDS, size)
    count = 1 if draw(st.booleans()) and size < 50 else draw(st.integers(-(-size // 16), min(7, size // 7)))
    lengths = [7] * count if count > 1 else [size]
    while sum(lengths) < size:  # each piece 7 to 16 words
        at = rng.choice([i for i, n in enumerate(lengths) if n < 16])
        lengths[at] += 1
    cuts = [0, *[sum(lengths[: i + 1]) for i in range(count)]]
    pages: dict[str, str] = {}
    for number, (a, b) in enumerate(pairwise(cuts)):
        if number and min(lengths[number - 1], lengths[number]) >= 11 and draw(st.booleans()):
            # A wide cut: 1 or 2 words dropped, and an edit beside it.
            piece = _edit(note[a + draw(st.integers(1, 2)) : b], rng, 9, first=draw(st.integers(0, 1)))
        else:
            piece = note[a + (number > 0 and rng.random() < 0.5) : b]  # a word dropped at the cut, or not
            piece = _edit(piece, rng, 9) if len(piece) >= 9 else piece
        text = f"{_filler(rng, 12)} {' '.join(piece)}. {_filler(rng, 12)}."
        pages[f"p{number}.md"] = _page(f"P{number}", "public", [text])
    return _page("Runbook", "internal", [" ".join(note) + "."]), pages


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edited_pieces())
def test_x2_pieces_of_a_paragraph_edited_word_by_word_are_withheld_everywhere(tmp_path_factory, case) -> None:  # type: ignore[no-untyped-def]
    """X2 (issue 24): an internal paragraph on one page with a word changed every 9 words,
    or cut into up to 7 pieces over as many public pages, each edited so or a word
    dropped between them, reaches ``customer_safe`` through none of them."""
    source, pages = case
    site = tmp_path_factory.mktemp("site")
    write_files(site, {"ops/runbook.md": source, **pages})
    assert not set(pages) & _public(site)


@st.composite
def densely_edited_pieces(draw: st.DrawFn) -> tuple[str, dict[str, str]]:
    """(the internal page, the public pages) of one member of the denser class (issue 24,
    the attack on the merged build): an internal paragraph of 32 to 64 words cut into 2
    to 4 consecutive pieces of 16 words or more, each on a public page of its own among
    filler, with every 4th to 8th word replaced (at any phase). Each 3-word run between
    two edits survives alone; 3 of them in a row, one edit apart, are a piece
    (:func:`provider.wiki.containment.part`)."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    size = draw(st.integers(32, len(PARAGRAPH_WORDS)))
    note = rng.sample(PARAGRAPH_WORDS, size)
    count = draw(st.integers(2, min(4, size // 16)))
    every = draw(st.integers(4, 8))
    phase = draw(st.integers(0, every - 1))
    variant = [rng.choice(FILLER) if at % every == phase else word for at, word in enumerate(note)]
    cuts = [size * number // count for number in range(count + 1)]
    return _page("Runbook", "internal", [" ".join(note) + "."]), {
        f"p{number}.md": _page(f"P{number}", "public",
                               [f"{_filler(rng, 12)} {' '.join(variant[a:b])}. {_filler(rng, 12)}."])
        for number, (a, b) in enumerate(pairwise(cuts))}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(densely_edited_pieces())
def test_x2_pieces_with_every_fourth_word_replaced_are_withheld_everywhere(tmp_path_factory, case) -> None:  # type: ignore[no-untyped-def]
    """X2 (issue 24): an internal paragraph cut into 2 to 4 pieces of 16 words or more
    over as many public pages, every 4th to 8th word replaced (the attack's halves with
    every 4th word replaced), reaches ``customer_safe`` through none of them."""
    source, pages = case
    site = tmp_path_factory.mktemp("site")
    write_files(site, {"ops/runbook.md": source, **pages})
    assert not set(pages) & _public(site)


def _attack(kind: str) -> tuple[str, dict[str, str]]:
    """The three members of the class the attack on the merged build served (issue 24)."""
    rng = random.Random(kind)
    pages: dict[str, list[str]] = {}
    if kind == "halves":  # 43 words in two halves, every 10th word replaced
        note = rng.sample(PARAGRAPH_WORDS, 43)
        variant = [rng.choice(FILLER) if at % 10 == 9 else word for at, word in enumerate(note)]
        pages = {"p0.md": variant[:21], "p1.md": variant[21:]}
    elif kind == "nines":  # 5 pages of 9 consecutive words, 1 changed in each
        note = rng.sample(PARAGRAPH_WORDS, 45)
        for number in range(5):
            piece = note[9 * number : 9 * number + 9]
            piece[rng.randrange(9)] = rng.choice(FILLER)
            pages[f"p{number}.md"] = piece
    else:  # 7 pages of 6 words, a word dropped between pieces
        note = rng.sample(PARAGRAPH_WORDS, 49)
        pages = {f"p{number}.md": note[7 * number : 7 * number + 6] for number in range(7)}
    return _page("Runbook", "internal", [" ".join(note) + "."]), {
        path: _page(path, "public", [f"{_filler(rng, 12)} {' '.join(piece)}. {_filler(rng, 12)}."])
        for path, piece in pages.items()}


@pytest.mark.parametrize("kind", ["halves", "nines", "sixes"])
def test_x2_the_attacks_edited_pieces_are_withheld(tmp_path: Path, kind: str) -> None:
    """X2 (issue 24): the attack's three members — a 43-word paragraph in two halves on 2
    pages with every 10th word replaced, 5 pages of 9 words with 1 changed, 7 pages of 6
    words with a word dropped between — are withheld from ``customer_safe``, naming the
    internal source."""
    source, pages = _attack(kind)
    write_files(tmp_path, {"ops/runbook.md": source, **pages})
    report = check_wiki(WikiSettings(root=tmp_path))
    for entry in report.files:
        if entry.path in pages:
            assert entry.resolved is not None and not entry.resolved.public, entry.path
            assert any("ops/runbook.md" in q for q in entry.resolved.quarantine)


def test_commands_written_with_other_addresses_are_no_edited_copy(tmp_path: Path) -> None:
    """The balance of the edited-pieces rule (issue 24): a code block's commands are
    edited by design — the same ``iptables`` lines with another address and interface in
    other tutorials (hetzner-tutorials with ``install-*`` internal: the GRE and Docker
    tutorials) — and stay public; a code block's pieces count as written only."""
    rules = ["sudo iptables -t nat -A POSTROUTING -s 10.0.0.0/24 -o enp1s0 -j SNAT --to-source 203.0.113.1",
             "sudo iptables -t nat -A POSTROUTING -s 10.0.0.0/24 -j MASQUERADE"]
    fence = lambda lines: "```bash\n" + "\n".join(lines) + "\n```"  # noqa: E731 - one line, used below
    rng = random.Random(7)
    write_files(tmp_path, {
        "ops/vpn.md": _page("VPN", "internal", [_filler(rng, 20) + ".", fence(rules)]),
        "gre.md": _page("GRE", "public", [_filler(rng, 20) + ".", fence([
            "iptables -t nat -A POSTROUTING -s 10.0.0.0/30 ! -o gre+ -j SNAT --to-source 198.51.100.1"])]),
        "docker.md": _page("Docker", "public", [_filler(rng, 20) + ".", fence([
            "sudo iptables -t nat -A POSTROUTING -s 172.17.0.0/16 -o eth0 -j MASQUERADE"])]),
    })
    assert {"gre.md", "docker.md"} <= _public(tmp_path)


def test_a_public_page_restating_a_few_phrases_of_an_internal_row_stays_public() -> None:
    """Issue 24, the false-positive side of the edited-pieces rule: the sample wiki's public
    "Lost your two-factor device" lists the recovery form's fields, which the internal
    scorecard names again in its rows ("Last 4 digits of the subscription card or IBAN
    match"): one page holding 4 of a row's 10 word triples, in two phrases, restates it —
    it is no edited copy, and stays public."""
    sample = Path(__file__).resolve().parents[2] / "content"
    public_page = "en/account/lost-2fa-device.md"
    settings_ = WikiSettings(root=sample, default_locale="en", locales=("en", "de"))
    entry = next(e for e in check_wiki(settings_).files if e.path == public_page)
    assert entry.resolved is not None and entry.resolved.public, entry.resolved and entry.resolved.quarantine
