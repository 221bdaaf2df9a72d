"""Incremental corpus rules equal the full derivation (X2, X5, X7).

The indexer keeps a :class:`~provider.wiki.copies.CopyGraph` with its manifest so that a
batch compares only the sketches it changed. Whatever sequence of file changes arrives,
each batch's decisions must be exactly those of resolving the corpus from scratch —
audiences (so a ``customer_safe`` credential reaches no internal text), withheld and
quarantined documents, groups, problems — as a class: random corpora with near-copies,
duplicate ids, twins, untranslated copies and translations, and random change sequences.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.cascade import CASCADE_ERROR, INVALID_AUDIENCE
from provider.wiki.classify import INTERNAL, PUBLIC
from provider.wiki.copies import CopyGraph, near_copies, sketch
from provider.wiki.corpus import resolve
from provider.wiki.document import DocumentMeta
from provider.wiki.incremental import CorpusRules, Tally
from provider.wiki.layouts import get_layout

NOW = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
WORDS = "invoice refund account password export report customer reminder bank card plan team".split()


def _texts(count: int, seed: int) -> list[str]:
    """Texts of which some are near-copies of others (a few words changed)."""
    rng = random.Random(seed)
    bases = [[rng.choice(WORDS) for _ in range(60)] for _ in range(count)]
    out = [" ".join(words) for words in bases]
    for words in bases[: count // 2]:
        edited = list(words)
        for i in rng.sample(range(len(edited)), 4):
            edited[i] = rng.choice(WORDS)
        out.append(" ".join(edited))
    return out


SKETCHES = [sketch(text) for text in _texts(4, seed=7)] + [""]
# b-de.md, german/c.md, a.fr.md: paths naming a language (rule 5c) read other pages.
PATHS = ["a.md", "a.mdx", "b.md", "de/b.md", "c.md", "de/c.md", "d.md", "x/e.md", "b-de.md", "german/c.md",
         "a.fr.md"]


@st.composite
def metas(draw: st.DrawFn, relpath: str) -> DocumentMeta:
    locale = "de" if relpath.startswith("de/") else draw(st.sampled_from(["en", "en", "de"]))
    stem = relpath.removeprefix("de/").rsplit(".", 1)[0]
    has_internal = draw(st.booleans())
    return DocumentMeta(
        relpath=relpath,
        size=1,
        mtime_ns=0,
        revision=draw(st.sampled_from(["r1", "r2", "r3"])),
        doc_id=draw(st.sampled_from([stem, stem, "shared-id"])),
        title=stem,
        audience=draw(st.sampled_from([PUBLIC, PUBLIC, INTERNAL])),
        audience_own=draw(st.booleans()),
        sync={"source_revision": "r1"} if locale != "en" and draw(st.booleans()) else {},
        draft=draw(st.booleans()) and draw(st.booleans()),
        locale=locale,
        translation_group=draw(st.sampled_from([stem, stem, "g"])),
        text_hash=draw(st.sampled_from(["h1", "h2", "h3"])),
        sketch=draw(st.sampled_from(SKETCHES)),
        internal_sketch=draw(st.sampled_from(SKETCHES)) if has_internal else "",
    )


@st.composite
def histories(draw: st.DrawFn) -> list[dict[str, DocumentMeta | None]]:
    """A first corpus, then batches: each batch changes or removes a few files."""
    batches = []
    for _ in range(draw(st.integers(2, 7))):
        touched = draw(st.lists(st.sampled_from(PATHS), min_size=1, max_size=4, unique=True))
        batch: dict[str, DocumentMeta | None] = {}
        for relpath in touched:
            batch[relpath] = None if draw(st.integers(0, 4)) == 0 else draw(metas(relpath))
        batches.append(batch)
    return batches


@settings(max_examples=300, deadline=None)
@given(histories())
def test_x2_incremental_copy_rule_equals_a_fresh_resolve(batches: list[dict[str, DocumentMeta | None]]) -> None:
    graph = CopyGraph()
    docs: dict[str, DocumentMeta] = {}
    for batch in batches:
        for relpath, meta in batch.items():
            if meta is None:
                docs.pop(relpath, None)
            else:
                docs[relpath] = meta
        incremental = resolve(docs, default_locale="en", now=NOW, copies=graph)
        fresh = resolve(dict(docs), default_locale="en", now=NOW)
        assert incremental == fresh
        # Spelled out for the failure message: what reaches customer_safe is the same.
        assert {p for p, r in incremental.items() if r.public} == {p for p, r in fresh.items() if r.public}
        assert {p for p, r in incremental.items() if r.quarantined} == {p for p, r in fresh.items() if r.quarantined}
        assert {p: r.withheld for p, r in incremental.items()} == {p: r.withheld for p, r in fresh.items()}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["t1", "t2", "t3", "s1", "s2"]), st.sampled_from(SKETCHES)),
                min_size=1, max_size=12))
def test_copy_graph_answers_as_the_full_comparison(changes: list[tuple[str, str]]) -> None:
    graph = CopyGraph()
    current: dict[str, str] = {}
    for key, encoded in changes:
        current[key] = encoded
        graph.sync(current)
        present = {k: v for k, v in current.items() if v}
        targets = {k: v for k, v in present.items() if k.startswith("t")}
        sources = {k: v for k, v in present.items() if k != "t3"}
        assert graph.near_copies(targets, sources) == near_copies(targets, sources)


# -- every rule kept between batches (provider.wiki.incremental.CorpusRules) --------------

DAY = dt.timedelta(days=1)
DATES = [(NOW + k * DAY).isoformat() for k in (-3, -1, 1, 3)]
RICH_PATHS = [
    "a.md", "a.mdx", "a.MD", "b.md", "de/b.md", "x.md", "_index.md",
    "docs/_index.md", "docs/c.md", "docs/c.mdx", "de/docs/_index.md", "de/docs/c.md",
    "docs/sub/_index.md", "docs/sub/d.md", "docs/bundle/index.md", "docs/bundle/res.md",
    "i18n/de/x.md", "i18n/de/docs/c.md", "docs/c_de.md", "french/docs/c.md", "x.de-DE.md",
]
LAYOUTS = [None, get_layout("plain"), get_layout("hugo"), get_layout("docusaurus"), get_layout("jekyll")]


class Blobs:
    """A git stand-in: fixed answers, except for files at the top (``b.md``, ``x.md``…),
    whose answer is not settled (as after a timeout) and changes from one batch to the
    next."""

    batch = 0

    def __call__(self, pairs: object) -> dict[tuple[str, str], str | None]:
        return {pair: self._answer(*pair) for pair in pairs}  # type: ignore[attr-defined]

    def _answer(self, commit: str, path: str) -> str | None:
        if not self.settled((commit, path)):
            return None if self.batch % 2 else "r1"
        return "r1" if path.startswith("docs") else "r2" if commit == "c1" else None

    def settled(self, pair: tuple[str, str]) -> bool:
        return "/" in pair[1]


def _locale_and_group(relpath: str) -> tuple[str | None, str]:
    for prefix in ("i18n/de/", "de/"):
        if relpath.startswith(prefix):
            return "de", relpath.removeprefix(prefix).rsplit(".", 1)[0]
    return None, relpath.rsplit(".", 1)[0]


#: Paragraph bags (provider.wiki.copies.paragraph_bags) the generated documents share.
PARAGRAPHS = ("p1", "p2", "p3")


@st.composite
def rich_metas(draw: st.DrawFn, relpath: str) -> DocumentMeta:
    locale, stem = _locale_and_group(relpath)
    locale = locale or draw(st.sampled_from(["en", "en", "de"]))
    section = relpath.rsplit("/", 1)[-1].startswith("_index")
    cascade = None
    if section:
        cascade = draw(st.sampled_from([
            None, {}, {"audience": PUBLIC}, {"audience": INTERNAL}, {"audience": INVALID_AUDIENCE},
            {CASCADE_ERROR: "unreadable", "build": "unreadable"}, {"publishDate": DATES[2]},
            {"expiryDate": DATES[1]}, {"expiryDate": DATES[3], "audience": PUBLIC}, {"draft": "cascade draft"},
        ]))
    publication = draw(st.sampled_from([{}, {}, {"publishDate": DATES[1]}, {"publishDate": DATES[2]},
                                        {"expiryDate": DATES[0]}, {"expiryDate": DATES[3]},
                                        {"publishDate": "invalid"}]))
    sync: dict[str, str] = {}
    if locale != "en":
        sync = draw(st.sampled_from([{}, {"source_revision": "r1"}, {"default_lang_commit": "c1"},
                                     {"default_lang_commit": "c2"}]))
    own = draw(st.booleans())
    return DocumentMeta(
        relpath=relpath,
        size=1,
        mtime_ns=0,
        revision=draw(st.sampled_from(["r1", "r2"])),
        doc_id=draw(st.sampled_from([stem, stem, "shared-id"])),
        title=stem,
        audience=draw(st.sampled_from([PUBLIC, PUBLIC, INTERNAL])),
        audience_own=own,
        sources={"audience": "front matter" if own else draw(st.sampled_from(["rule 'docs/**'", "default"]))},
        sync=sync,
        draft=draw(st.integers(0, 5)) == 0,
        locale=locale,
        translation_group=draw(st.sampled_from([stem, stem, "g"])),
        text_hash=draw(st.sampled_from(["h1", "h2", "h3"])),
        sketch=draw(st.sampled_from(SKETCHES)),
        internal_sketch=draw(st.sampled_from(SKETCHES)) if draw(st.booleans()) else "",
        publication=publication,
        section=section,
        cascade=cascade,
        has_text=draw(st.integers(0, 6)) != 0,
        public_text=draw(st.integers(0, 6)) != 0,
        has_front_matter=draw(st.integers(0, 4)) != 0,
        errors=("a stray closer",) if draw(st.integers(0, 8)) == 0 else (),
        site_cascade=draw(st.sampled_from([None, None, {"audience": PUBLIC}, {"audience": INTERNAL}])),
        # Whole-text and paragraph word bags from small pools, so rules 6b and 6c relate
        # documents (a paragraph copied into a longer page: containment).
        bag=draw(st.sampled_from(["", "b1", "b2"])),
        internal_bag=draw(st.sampled_from(["", "", "b1"])),
        paragraph_bags=tuple(draw(st.lists(st.sampled_from(PARAGRAPHS), max_size=2, unique=True))),
        internal_paragraph_bags=tuple(draw(st.lists(st.sampled_from(PARAGRAPHS), max_size=1))),
    )


@st.composite
def rich_histories(draw: st.DrawFn) -> tuple[object, list[tuple[dt.datetime, dict[str, DocumentMeta | None]]]]:
    """A layout, then batches at various times: each changes or removes a few files
    (the first one many)."""
    layout = draw(st.sampled_from(LAYOUTS))
    batches = []
    for number in range(draw(st.integers(2, 8))):
        size = (4, 14) if number == 0 else (0, 4)
        touched = draw(st.lists(st.sampled_from(RICH_PATHS), min_size=size[0], max_size=size[1], unique=True))
        batch: dict[str, DocumentMeta | None] = {}
        for relpath in touched:
            batch[relpath] = None if draw(st.integers(0, 4)) == 0 else draw(rich_metas(relpath))
        when = NOW + draw(st.sampled_from([0, 0, -4, -2, 2, 4])) * DAY + draw(st.integers(0, 3)) * dt.timedelta(hours=1)
        batches.append((when, batch))
    return layout, batches


@settings(max_examples=250, deadline=None)
@given(rich_histories(), st.booleans(), st.booleans())
def test_x2_x5_every_incremental_rule_equals_a_fresh_resolve(
    history: tuple[object, list[tuple[dt.datetime, dict[str, DocumentMeta | None]]]], git: bool, hinted: bool,
) -> None:
    """Duplicate ids, twins, untranslated copies, pages not built, translation groups,
    drift, translation sync (git answers that may change included), cascades and
    publication dates at a moving ``now``, near-copies: after every batch the kept
    decisions equal a resolve from scratch, and every decision that changed is reported
    as touched (so the indexer writes it). ``hinted``: the caller names the paths it
    changed (as the indexer does), else every entry is compared."""
    layout, batches = history
    blobs = Blobs() if git else None
    rules = CorpusRules(max_share=1e9)  # never fall back to the whole corpus: test the incremental path
    failures: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = failures.append  # type: ignore[method-assign]
    logging.getLogger("provider.wiki.incremental").addHandler(handler)
    try:
        _apply_history(rules, batches, blobs, layout, hinted)
    finally:
        logging.getLogger("provider.wiki.incremental").removeHandler(handler)
    assert not failures, failures[0].exc_info  # the incremental path itself gave the answers


def _apply_history(rules: CorpusRules, batches: list[tuple[dt.datetime, dict[str, DocumentMeta | None]]],
                   blobs: Blobs | None, layout: object, hinted: bool = False) -> None:
    docs: dict[str, DocumentMeta] = {}
    before: dict[str, object] = {}
    for number, (when, batch) in enumerate(batches):
        for relpath, meta in batch.items():
            if meta is None:
                docs.pop(relpath, None)
            else:
                docs[relpath] = meta
        if blobs is not None:
            blobs.batch = number
        common, wanted = rules.contained.rarity.common, set(rules.contained._wanted)
        kept, touched = rules.resolve(docs, default_locale="en", now=when, blobs=blobs, layout=layout,  # type: ignore[arg-type]
                                      changed=set(batch) if hinted else None)
        # A value that became common or distinctive (a block 3 public pages now hold whole:
        # boilerplate) may change decisions no relation follows: the corpus may be derived
        # again (ContainmentIndex.update decides; the decisions equal a fresh resolve).
        flipped = bool((common ^ rules.contained.rarity.common) & wanted & set(rules.contained._wanted))
        fresh = resolve(dict(docs), default_locale="en", now=when, blobs=blobs, layout=layout)  # type: ignore[arg-type]
        assert {p for p, r in kept.items() if r.public} == {p for p, r in fresh.items() if r.public}
        assert {p: r.withheld for p, r in kept.items()} == {p: r.withheld for p, r in fresh.items()}
        assert kept == fresh
        moved = {p for p in set(before) | set(kept) if before.get(p) != kept.get(p)}
        assert moved <= touched
        assert rules.last_full == (number == 0) or flipped
        counted = Tally()
        for relpath, item in fresh.items():
            counted.count(relpath, item, 1)
        assert rules.tally == counted  # the sync report's summary, kept with the decisions
        before = dict(kept)


def test_one_changed_document_derives_only_what_it_can_affect() -> None:
    """A one-file edit in a corpus of unrelated documents derives that document (and
    none of the others), with the same answer as a fresh resolve."""
    texts = _texts(40, seed=3)
    docs = {
        f"s{i % 4}/p{i}.md": DocumentMeta(
            relpath=f"s{i % 4}/p{i}.md", size=1, mtime_ns=0, revision="r1", doc_id=f"p{i}", title=f"p{i}",
            audience=PUBLIC if i % 5 else INTERNAL, draft=False, locale="en", translation_group=f"p{i}",
            text_hash=f"h{i}", sketch=sketch(text))
        for i, text in enumerate(texts[:40])
    }
    rules = CorpusRules()
    rules.resolve(docs, default_locale="en", now=NOW)
    assert rules.last_full
    edited = dataclasses.replace(docs["s1/p1.md"], audience=INTERNAL, revision="r2")
    docs["s1/p1.md"] = edited
    kept, touched = rules.resolve(docs, default_locale="en", now=NOW)
    assert not rules.last_full and rules.last_derived == 1
    assert touched == {"s1/p1.md"}
    assert kept == resolve(dict(docs), default_locale="en", now=NOW)
    assert not kept["s1/p1.md"].public


def test_removing_every_document_is_measured_against_the_corpus_before() -> None:
    """The changed share is of the larger corpus, before or after: removing both pages of
    a two-page corpus under a share that allows it is incremental (Hypothesis found the
    share taken of the empty corpus after, which allowed one change)."""
    docs = {f"p{i}.md": DocumentMeta(relpath=f"p{i}.md", size=1, mtime_ns=0, revision="r1", doc_id=f"p{i}",
                                     title=f"p{i}", audience=PUBLIC, draft=False, locale="en",
                                     translation_group=f"p{i}", text_hash=f"h{i}") for i in range(2)}
    rules = CorpusRules(max_share=1.0)
    rules.resolve(docs, default_locale="en", now=NOW)
    kept, touched = rules.resolve({}, default_locale="en", now=NOW, changed=set(docs))
    assert not rules.last_full and dict(kept) == {} and touched == set(docs)


#: Pages related by nothing but the paragraphs they share (rule 6c).
PARAGRAPH_PATHS = [f"s{i}/p{i}.md" for i in range(6)]


@st.composite
def paragraph_histories(draw: st.DrawFn) -> list[tuple[dt.datetime, dict[str, DocumentMeta | None]]]:
    batches: list[tuple[dt.datetime, dict[str, DocumentMeta | None]]] = []
    for number in range(draw(st.integers(2, 6))):
        touched = draw(st.lists(st.sampled_from(PARAGRAPH_PATHS), min_size=6 if number == 0 else 1, max_size=6,
                                unique=True))
        batch: dict[str, DocumentMeta | None] = {}
        for relpath in touched:
            stem = relpath.removesuffix(".md")
            # The first page is never removed: an empty corpus is derived whole, by design.
            gone = relpath != PARAGRAPH_PATHS[0] and draw(st.integers(0, 5)) == 0
            batch[relpath] = None if gone else DocumentMeta(
                relpath=relpath, size=1, mtime_ns=1, revision="r1", doc_id=stem, title=stem,
                audience=draw(st.sampled_from([PUBLIC, PUBLIC, INTERNAL])), draft=draw(st.integers(0, 4)) == 0,
                locale="en", translation_group=stem, text_hash=stem,
                paragraph_bags=tuple(draw(st.lists(st.sampled_from(PARAGRAPHS), max_size=2, unique=True))),
                internal_paragraph_bags=tuple(draw(st.lists(st.sampled_from(PARAGRAPHS), max_size=1))),
            )
        batches.append((NOW, batch))
    return batches


@settings(max_examples=150, deadline=None)
@given(paragraph_histories(), st.booleans())
def test_x2_incremental_paragraph_copies_equal_a_fresh_resolve(
    batches: list[tuple[dt.datetime, dict[str, DocumentMeta | None]]], hinted: bool,
) -> None:
    """X2, rule 6c: pages related only by a shared paragraph (an internal page's, an
    internal section's, a draft's): after every batch the incremental decisions equal a
    resolve from scratch — a page that gains, loses or changes the status of a copied
    paragraph re-derives every page holding it."""
    _apply_history(CorpusRules(max_share=1e9), batches, None, None, hinted)
