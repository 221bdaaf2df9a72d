"""Chunks (the ``chunking`` capability): sections at headings of level 1–3, short ones
merged, long ones split, ids stable while a chunk is unchanged."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.chunks import CHUNK_MAX_CHARS, CHUNK_MIN_CHARS, split_chunks
from provider.wiki.passages import split_passages
from provider.wiki.plaintext import markdown_to_text


def _chunks(markdown: str):  # type: ignore[no-untyped-def]
    return split_chunks(split_passages(markdown_to_text(markdown).blocks))


def _para(word: str, sentences: int = 4) -> str:
    return " ".join(f"The {word} sentence number {i} explains one more detail of {word}." for i in range(sentences))


DOC = f"""Intro text {_para("intro")}

## Install

{_para("install")}

### Requirements

{_para("requirements")}

#### A deep heading stays inside its section

{_para("deep")}

## Configure

{_para("configure")}

## Troubleshoot

{_para("trouble")}
"""


def test_sections_start_at_headings_of_level_one_to_three() -> None:
    chunks = _chunks(DOC)
    assert [c.heading for c in chunks] == ["", "Install", "Requirements", "Configure", "Troubleshoot"]
    assert [c.anchor for c in chunks] == ["", "install", "requirements", "configure", "troubleshoot"]
    deep = next(c for c in chunks if c.heading == "Requirements")
    assert any("deep" in p.text for p in deep.passages)


def test_short_sections_merge_into_the_next_and_the_last_into_the_previous() -> None:
    text = "## Short one\n\nTiny.\n\n## Long one\n\n" + _para("long") + "\n\n## Short end\n\nBye."
    chunks = _chunks(text)
    assert [c.heading for c in chunks] == ["Short one"]
    (chunk,) = chunks
    assert chunk.passages[0].text == "Tiny." and chunk.passages[-1].text == "Bye."
    assert chunk.anchor == "short-one"


def test_long_sections_split_at_passage_boundaries() -> None:
    text = "## Huge\n\n" + "\n\n".join(_para(f"w{i}") for i in range(30))
    chunks = _chunks(text)
    assert len(chunks) > 1
    assert all(len(c.text) <= CHUNK_MAX_CHARS + len(chunks[0].passages) for c in chunks)
    assert {c.heading for c in chunks} == {"Huge"} and len({c.id for c in chunks}) == len(chunks)


def test_editing_one_section_keeps_the_other_chunk_ids() -> None:
    """Issue 4: unchanged passages keep their ids when other passages of the same document
    change — here a whole section is rewritten, one is added and one removed."""
    before = {c.heading: c.id for c in _chunks(DOC)}
    edited = DOC.replace(_para("configure"), _para("reconfigure", 6)).replace(
        "## Troubleshoot", "## New section\n\n" + _para("new") + "\n\n## Troubleshoot")
    after = {c.heading: c.id for c in _chunks(edited)}
    assert after["Configure"] != before["Configure"]
    for heading in ("", "Install", "Requirements", "Troubleshoot"):
        assert after[heading] == before[heading], heading
    assert "New section" in after
    removed = {c.heading: c.id for c in _chunks(DOC.replace("## Install\n\n" + _para("install"), ""))}
    assert removed["Configure"] == before["Configure"] and removed["Troubleshoot"] == before["Troubleshoot"]


def test_identical_chunks_get_a_suffix() -> None:
    section = "## Same\n\n" + _para("same") + "\n\n"
    ids = [c.id for c in _chunks(section * 3)]
    assert ids[1] == f"{ids[0]}-2" and ids[2] == f"{ids[0]}-3"


def test_duplicate_headings_get_github_anchors() -> None:
    anchors = [c.anchor for c in _chunks(("## Troubleshooting\n\n" + _para("x") + "\n\n") * 2)]
    assert anchors == ["troubleshooting", "troubleshooting-1"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 4), st.integers(0, 40)), min_size=1, max_size=12))
def test_chunks_cover_every_passage_once_in_order(sections: list[tuple[int, int]]) -> None:
    text = "\n\n".join(f"{'#' * level} Heading {i}\n\n" + (_para(f"s{i}", n) if n else "")
                       for i, (level, n) in enumerate(sections))
    passages = split_passages(markdown_to_text(text).blocks)
    chunks = split_chunks(passages)
    assert [p for c in chunks for p in c.passages] == list(passages)
    assert len({c.id for c in chunks}) == len(chunks)
    if len(chunks) > 1:
        # A short section never stands alone when there is something to merge it with; only
        # the tail piece of a split long section may be short.
        sized = [sum(len(p.text) for p in c.passages) for c in chunks]
        assert all(size >= CHUNK_MIN_CHARS or (i > 0 and chunks[i].heading == chunks[i - 1].heading)
                   for i, size in enumerate(sized))


def test_a_chunk_starting_under_an_h4_links_to_the_h4_not_its_parent_h3() -> None:
    # CONTRACT R7: the anchor takes the reader to the text shown. A Japanese page whose h3
    # has no text of its own: the chunk's first words are under the h4.
    body = "日本語の説明です。" * 40
    doc = f"## 設定\n\n{body}\n\n### 詳細\n\n#### 認証トークン\n\n{body}\n\n## 次へ\n\n{body}\n"
    chunks = _chunks(doc)
    under_h4 = next(c for c in chunks if c.heading == "詳細")
    assert under_h4.anchor == "認証トークン"
    assert chunks[0].anchor == "設定"


def test_a_chunk_with_text_under_its_h3_keeps_the_h3_anchor() -> None:
    chunks = _chunks(DOC)
    requirements = next(c for c in chunks if c.heading == "Requirements")
    assert requirements.anchor == "requirements"
