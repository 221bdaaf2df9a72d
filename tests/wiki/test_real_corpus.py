"""The wiki reader on real markdown written by others: a deterministic sample of the
Hetzner community tutorials (../shared/corpora/hetzner-tutorials, read-only; see its
README). No audience key anywhere: one operator rule makes them public (X5), the locale
is in the file name (``01.de.md``), and translations share a group."""

from __future__ import annotations

import re
import shutil
from collections import defaultdict
from pathlib import Path

import pytest

from provider.wiki.classify import PUBLIC, AudienceRule
from provider.wiki.corpus import resolve
from provider.wiki.document import WikiDocument, WikiSettings, load_document, parse_document
from provider.wiki.files import discover
from provider.wiki.frontmatter import parse_front_matter
from provider.wiki.locales import normalize_tag
from provider.wiki.plaintext import markdown_to_text
from tests.corpora import corpus_path, require_corpus
from tests.wiki.markup import assert_no_markup, assert_no_prose_markup, code_words

CORPUS = corpus_path("hetzner-tutorials", "tutorials")
pytestmark = pytest.mark.slow
LOCALES = ("en", "de", "ru", "it", "bg", "fi", "pt")
SAMPLE_FILES = 60
_NAME = re.compile(r"^(?P<page>\d+)\.+(?P<locale>[a-z]{2})\.md$")


def _choose_sample() -> list[Path]:
    """About 60 files, the same every run: every n-th tutorial folder (whole folders, so
    translations come together), plus the folder of ``01..de.md`` and one CRLF file."""
    folders = sorted(p for p in CORPUS.iterdir() if p.is_dir())
    must: list[Path] = [p.parent for p in sorted(CORPUS.glob("*/01..de.md"))[:1]]
    for folder in folders:
        if any(b"\r\n" in f.read_bytes() for f in sorted(folder.glob("*.md"))):
            must.append(folder)
            break
    # Prefer multilingual folders so translation groups are exercised.
    multi = [
        f
        for f in folders
        if len(
            {
                _NAME.match(p.name)["locale"]
                for p in f.glob("*.md")  # type: ignore[index]
                if _NAME.match(p.name)
            }
        )
        > 1
    ]
    rest = [f for f in folders if f not in multi]
    chosen: list[Path] = list(dict.fromkeys(must))
    for pool, step in ((multi, 7), (rest, 11)):
        for folder in pool[::step]:
            if sum(len(list(f.glob("*.md"))) for f in chosen) >= SAMPLE_FILES:
                break
            if folder not in chosen:
                chosen.append(folder)
    return sorted(f for folder in chosen for f in folder.glob("*.md"))


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    require_corpus("hetzner-tutorials", "tutorials")
    root = tmp_path_factory.mktemp("hetzner")
    relpaths = []
    for source in _choose_sample():
        rel = f"tutorials/{source.parent.name}/{source.name}"
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        relpaths.append(rel)
    return root, relpaths


@pytest.fixture(scope="module")
def settings_(sample: tuple[Path, list[str]]) -> WikiSettings:
    root, _ = sample
    return WikiSettings(
        root=root, default_locale="en", locales=LOCALES, audience_rules=(AudienceRule("tutorials/**", PUBLIC),)
    )


@pytest.fixture(scope="module")
def documents(sample: tuple[Path, list[str]], settings_: WikiSettings) -> dict[str, WikiDocument]:
    _, relpaths = sample
    loaded = {}
    for rel in relpaths:
        result = load_document(settings_, rel)
        assert isinstance(result, WikiDocument), (rel, result)
        loaded[rel] = result
    return loaded


def test_sample_is_what_the_test_claims(sample: tuple[Path, list[str]]) -> None:
    root, relpaths = sample
    assert len(relpaths) >= SAMPLE_FILES
    assert any(rel.endswith("/01..de.md") for rel in relpaths)
    assert any(b"\r\n" in (root / rel).read_bytes() for rel in relpaths)
    assert len({rel.rsplit("/", 1)[0] for rel in relpaths}) < len(relpaths)  # some folders hold translations


def test_discovery_finds_exactly_the_sample(sample: tuple[Path, list[str]]) -> None:
    root, relpaths = sample
    found = discover(root)
    assert sorted(found.files) == sorted(relpaths)
    assert found.skipped == []


def test_x5_every_document_public_by_rule(documents: dict[str, WikiDocument]) -> None:
    for rel, doc in documents.items():
        assert doc.meta.audience == PUBLIC, rel
        assert doc.meta.sources["audience"] == "rule 'tutorials/**'", rel
        assert doc.meta.draft is False, rel
        assert doc.meta.warnings == (), (rel, doc.meta.warnings)


def test_x5_without_the_rule_nothing_is_public(sample: tuple[Path, list[str]]) -> None:
    root, relpaths = sample
    plain = WikiSettings(root=root, locales=LOCALES)
    for rel in relpaths:
        result = load_document(plain, rel)
        assert isinstance(result, WikiDocument)
        assert result.meta.audience != PUBLIC, rel


def test_locale_from_front_matter_language_or_suffix(
    sample: tuple[Path, list[str]], documents: dict[str, WikiDocument]
) -> None:
    root, _ = sample
    for rel, doc in documents.items():
        match = _NAME.match(rel.rsplit("/", 1)[1])
        assert match, rel
        suffix = match["locale"]
        front = parse_front_matter((root / rel).read_bytes().decode("utf-8"))
        language = front.data.get("language")
        tag = normalize_tag(language) if isinstance(language, str) else None
        if tag is not None:
            assert doc.meta.locale == tag, rel
            assert doc.meta.sources["locale"] == "front matter language", rel
        else:
            assert doc.meta.locale == suffix, rel
            assert doc.meta.sources["locale"] == "path suffix", rel
        # In this corpus the two agree.
        assert doc.meta.locale == suffix, rel


def test_translations_share_a_group(documents: dict[str, WikiDocument]) -> None:
    by_page: dict[tuple[str, str], set[str]] = defaultdict(set)
    for rel, doc in documents.items():
        folder, name = rel.rsplit("/", 1)
        match = _NAME.match(name)
        assert match
        by_page[(folder, match["page"])].add(doc.meta.translation_group)
        assert doc.meta.translation_group == f"{folder}/{match['page']}", rel
    # one group per page of a tutorial, whatever the language ...
    assert all(len(groups) == 1 for groups in by_page.values())
    # ... and different pages / tutorials never share one
    groups = [next(iter(g)) for g in by_page.values()]
    assert len(groups) == len(set(groups))


def test_double_dot_file_groups_with_its_sibling(documents: dict[str, WikiDocument]) -> None:
    (odd,) = [rel for rel in documents if rel.endswith("/01..de.md")]
    folder = odd.rsplit("/", 1)[0]
    siblings = [rel for rel in documents if rel.startswith(folder + "/01.") and rel != odd]
    assert siblings
    for rel in siblings:
        assert documents[rel].meta.translation_group == documents[odd].meta.translation_group
    assert documents[odd].meta.locale == "de"


def test_groups_resolved_for_multilingual_tutorials(documents: dict[str, WikiDocument]) -> None:
    resolved = resolve({rel: doc.meta for rel, doc in documents.items()})
    members: dict[str, list[str]] = defaultdict(list)
    for rel, doc in documents.items():
        members[doc.meta.translation_group].append(rel)
    assert any(len(rels) > 1 for rels in members.values())
    for group, rels in members.items():
        for rel in rels:
            r = resolved[rel]
            assert r.public and r.problems == ()
            expected = group if len(rels) > 1 else None
            assert r.group == expected and r.public_group == expected, rel


def test_document_ids_unique_and_stable(documents: dict[str, WikiDocument]) -> None:
    ids = [doc.meta.doc_id for doc in documents.values()]
    assert len(ids) == len(set(ids))
    for rel, doc in documents.items():
        assert doc.meta.doc_id == rel.rsplit(".", 1)[0]


def test_r3_titles_and_headings_are_plain(documents: dict[str, WikiDocument]) -> None:
    for rel, doc in documents.items():
        assert doc.meta.title, rel
        assert doc.meta.sources["title"] == "front matter title", rel
        assert_no_markup(doc.meta.title)
        kept = _kept_words(parse_front_matter((CORPUS.parent / rel).read_bytes().decode("utf-8")).body)
        for passage in doc.passages:
            if passage.heading:
                # A heading may hold inline code (`<ChatLine>`), kept as written.
                assert_no_prose_markup(passage.heading, kept)


def _kept_words(body: str) -> frozenset[str]:
    """The words of a body's code and verbatim pieces: kept exactly as written."""
    blocks = markdown_to_text(body).blocks
    return code_words([b.text for b in blocks if b.kind == "code"] + [v for b in blocks for v in b.verbatim])


def test_r3_passages_are_plain(documents: dict[str, WikiDocument]) -> None:
    """Every passage is free of markup outside code. Tutorials are full of code, which
    a reader sees and a passage keeps as written — ``# comment`` lines, ``cat <<EOF``,
    ``port="<new-ssh-port>"``, inline ``<your-email@example.com>`` placeholders — so the
    words of code are left out of the check; titles and headings get the strict one
    above, prose blocks the Markdown-syntax check below."""
    for rel, doc in documents.items():
        assert doc.passages, rel
        kept = _kept_words(parse_front_matter((CORPUS.parent / rel).read_bytes().decode("utf-8")).body)
        for passage in doc.passages:
            assert passage.text and len(passage.text) <= 400, rel
            assert_no_prose_markup(passage.text, kept)


def test_r3_prose_blocks_have_no_markdown_syntax(sample: tuple[Path, list[str]]) -> None:
    root, relpaths = sample
    prose_markup = re.compile(r"\]\(|!\[|```|~~~|\{\{|\{%|\*\*\S|<!--|</[A-Za-z]")
    for rel in relpaths:
        body = parse_front_matter((root / rel).read_bytes().decode("utf-8")).body
        for block in markdown_to_text(body).blocks:
            if block.kind == "code":
                continue
            prose = block.text
            for piece in sorted(block.verbatim, key=len, reverse=True):
                prose = prose.replace(" ".join(piece.split()), " ")  # inline code, escapes: as written
            assert not prose_markup.search(prose), (rel, block.text)


def test_r3_whole_corpus_passages_and_titles(settings_: WikiSettings) -> None:
    """The same checks on all 550 files, read in place (read-only): real content found
    nested tags in code (``port="<new-ssh-port>"``), entities in inline code
    (`` `&lt;-` ``) and Markdown in image alt text."""
    count = 0
    for path in sorted(CORPUS.rglob("*.md")):
        data = path.read_bytes()
        rel = f"tutorials/{path.relative_to(CORPUS).as_posix()}"
        result = parse_document(settings_, rel, data, size=len(data), mtime_ns=0)
        assert isinstance(result, WikiDocument), (rel, result)
        assert result.meta.audience == PUBLIC, rel
        assert_no_markup(result.meta.title)
        kept = _kept_words(parse_front_matter(data.decode("utf-8")).body)
        for passage in result.passages:
            assert_no_prose_markup(passage.text, kept)
            if passage.heading:
                assert_no_prose_markup(passage.heading, kept)
        count += 1
    assert count >= 500
