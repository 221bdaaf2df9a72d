"""Rule 6c: an internal paragraph copied into a long public page (CONTRACT X2).

The near-copy sketch and the whole-text word bag compare whole documents; a long public
page that quotes one internal paragraph — verbatim or with its words reordered — is
neither. Every test goes through the real :class:`provider.indexing.indexer.Indexer` and
asserts on the public (``customer_safe``) index.
"""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.indexing import Indexer
from provider.search.layout import IndexLayout
from provider.wiki.check import check_wiki, heuristic_findings
from provider.wiki.copies import MIN_PARAGRAPH_WORDS, paragraph_bags
from provider.wiki.document import WikiSettings, git_blob_sha1
from provider.wiki.findings import NEAR_COPY, Acceptance
from tests.support import write_files

SECRET = ("The staging database password rotates every Tuesday and the vault path for the "
          "billing reconciliation job is kept under ops slash billing slash nightly.")

#: Words of public pages, none of them in SECRET.
VOCABULARY = ("install configure widget dashboard export report screen button account profile "
              "language theme browser mobile tablet desktop chart table filter column row "
              "invoice receipt currency timezone calendar reminder folder archive upload").split()


def _public_page(paragraphs: list[str]) -> str:
    return "---\ntitle: Guide\naudience: public\n---\n# Guide\n\n" + "\n\n".join(paragraphs) + "\n"


def _filler(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(VOCABULARY) for _ in range(rng.randint(14, 30))).capitalize() + "."
            for _ in range(count)]


def _public_ids(root: Path, index_root: Path) -> set[str]:
    from whoosh import index as whoosh_index

    layout = IndexLayout(index_root)
    with Indexer(WikiSettings(root=root), layout) as indexer:
        indexer.sync()
    name = layout.current_name()
    assert name is not None
    with whoosh_index.open_dir(str(layout.build_dir(name) / "public")).searcher() as searcher:
        return {fields["doc"]["id"] for fields in searcher.all_stored_fields()}




def _shuffled(text: str, seed: int) -> str:
    words = text.rstrip(".").split()
    random.Random(seed).shuffle(words)
    return " ".join(words) + "."


def test_x2_a_copied_internal_paragraph_keeps_a_long_public_page_out(tmp_path: Path) -> None:
    """X2: a long public page quoting one paragraph of an internal document verbatim is
    not in the public index, and check names the source."""
    site = tmp_path / "site"
    write_files(site, {
        "ops/runbook.md": "---\ntitle: Runbook\naudience: internal\n---\n# Runbook\n\n" + SECRET + "\n",
        "guide.md": _public_page([*_filler(1, 6), SECRET, *_filler(2, 6)]),
        "other.md": _public_page(_filler(3, 8)),
    })
    assert _public_ids(site, tmp_path / "index") == {"other"}
    entry = next(e for e in check_wiki(WikiSettings(root=site)).files if e.path == "guide.md")
    assert entry.resolved is not None
    assert any("a paragraph of the internal ops/runbook.md" in p for p in entry.resolved.problems)
    assert [f["finding"] for f in heuristic_findings(entry.resolved)] == [NEAR_COPY]  # acceptable, as rule 6


def test_x2_a_shuffled_paragraph_of_an_internal_section_keeps_the_page_out(tmp_path: Path) -> None:
    """X2: the words of another page's internal section, reordered, inside a long public
    page: the page is not public; the page holding the section stays public."""
    site = tmp_path / "site"
    write_files(site, {
        "faq.md": _public_page([*_filler(4, 3), f"<!-- internal -->\n{SECRET}\n<!-- /internal -->", *_filler(5, 3)]),
        "guide.md": _public_page([*_filler(6, 5), _shuffled(SECRET, 7), *_filler(8, 5)]),
    })
    assert _public_ids(site, tmp_path / "index") == {"faq"}


def test_x2_shared_short_boilerplate_does_not_fire(tmp_path: Path) -> None:
    """A support sentence under the paragraph floor and under rule 6d's 6-word floor,
    shared by an internal and a public page, relates nothing: the public page stays
    public. (From 6 words it is contained text, rule 6d: tests/wiki/test_contained_text.py.)"""
    boilerplate = "Contact support if problems persist."
    assert len(boilerplate.split()) < MIN_PARAGRAPH_WORDS
    assert paragraph_bags([boilerplate]) == ()
    site = tmp_path / "site"
    write_files(site, {
        "ops/runbook.md": "---\ntitle: Runbook\naudience: internal\n---\n# Runbook\n\n"
                          + "\n\n".join([SECRET, boilerplate]) + "\n",
        "guide.md": _public_page([*_filler(9, 6), boilerplate]),
    })
    assert _public_ids(site, tmp_path / "index") == {"guide"}


def test_paragraph_bags_ignore_word_order_and_case() -> None:
    assert paragraph_bags([SECRET]) == paragraph_bags([_shuffled(SECRET.upper(), 3)])
    assert paragraph_bags([SECRET]) != paragraph_bags([SECRET.replace("Tuesday", "Monday")])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), before=st.integers(0, 8), after=st.integers(0, 8),
       shuffle=st.booleans(), source=st.sampled_from(["document", "section", "draft"]))
def test_x2_property_an_inserted_internal_paragraph_never_reaches_the_public_index(
    tmp_path_factory: object, seed: int, before: int, after: int, shuffle: bool, source: str,
) -> None:
    """X2, as a class: random public pages of any length with an internal paragraph
    (from an internal document, another page's internal section or a draft) inserted
    anywhere, verbatim or with its words shuffled, never reach the public index."""
    rng = random.Random(seed)
    secret = " ".join(rng.choice(VOCABULARY).upper() + str(rng.randint(0, 99)) for _ in range(
        rng.randint(MIN_PARAGRAPH_WORDS, 40))) + "."
    root = tmp_path_factory.mktemp("site")  # type: ignore[attr-defined]
    if source == "document":
        holder = "---\ntitle: Notes\naudience: internal\n---\n# Notes\n\n" + secret + "\n"
    elif source == "draft":
        holder = "---\ntitle: Notes\naudience: public\ndraft: true\n---\n# Notes\n\n" + secret + "\n"
    else:
        holder = _public_page([*_filler(seed + 1, 2), f"<!-- internal -->\n{secret}\n<!-- /internal -->"])
    copied = _shuffled(secret, seed) if shuffle else secret
    write_files(root, {
        "notes.md": holder,
        "guide.md": _public_page([*_filler(seed + 2, before), copied, *_filler(seed + 3, after)]),
    })
    assert "guide" not in _public_ids(root, root.parent / (root.name + "-index"))


def test_a_paragraph_of_an_unlisted_page_withholds_nothing(tmp_path: Path) -> None:
    """An ``unlisted`` page is built and served under its URL (only left out of lists):
    its paragraphs are on the site, so sharing one is no leak (kaia-docs: the current
    fee pages share paragraphs with an unlisted older version). A draft's does withhold
    (the property test above), and so does an unlisted page internal by its own front
    matter (:func:`provider.wiki.same_text.same_paragraphs`)."""
    site = tmp_path / "site"
    write_files(site, {
        "old.md": "---\ntitle: Old\naudience: public\nunlisted: true\n---\n# Old\n\n" + SECRET + "\n",
        "guide.md": _public_page([*_filler(10, 4), SECRET]),
    })
    assert _public_ids(site, tmp_path / "index") == {"guide"}


def test_a_character_of_a_script_without_spaces_counts_half_a_word() -> None:
    """A Japanese sentence of 30 characters (about 15 words) is under the floor; one of
    40 (about 20 words) is a paragraph."""
    kana = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらり"
    assert paragraph_bags([kana[:30]]) == ()
    assert paragraph_bags([kana[:40]]) != ()


def test_an_accepted_paragraph_copy_is_public_until_the_page_changes(tmp_path: Path) -> None:
    """The finding is ``near-copy``: accepted for the page's current bytes it is public
    (and reported as accepted); an edit re-opens it (the digest no longer matches)."""
    site = tmp_path / "site"
    page = _public_page([*_filler(11, 4), SECRET])
    write_files(site, {
        "ops/runbook.md": "---\ntitle: Runbook\naudience: internal\n---\n# Runbook\n\n" + SECRET + "\n",
        "guide.md": page,
    })
    accepted = (Acceptance("guide.md", NEAR_COPY, git_blob_sha1(page.encode("utf-8"))),)
    settings_ = WikiSettings(root=site, accepted_findings=accepted)
    entry = next(e for e in check_wiki(settings_).files if e.path == "guide.md")
    assert entry.resolved is not None and entry.resolved.public
    assert [f["accepted"] for f in heuristic_findings(entry.resolved)] == [True]
    write_files(site, {"guide.md": page + "\nOne more line.\n"})
    entry = next(e for e in check_wiki(settings_).files if e.path == "guide.md")
    assert entry.resolved is not None and not entry.resolved.public
