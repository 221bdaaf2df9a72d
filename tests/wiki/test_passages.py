"""provider.wiki.passages: cutting a document's blocks into bounded passages (R3: a
snippet is a passage, bounded in length, never empty)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.passages import PASSAGE_MAX_CHARS, Passage, split_passages
from provider.wiki.plaintext import Block, markdown_to_text


def heading(text: str, level: int = 2) -> Block:
    return Block("heading", text, level)


def para(text: str) -> Block:
    return Block("text", text)


def sentence(i: int, words: int = 12) -> str:
    return " ".join(f"word{i}x{j}" for j in range(words)) + "."


def test_passage_max_is_below_snippet_bound() -> None:
    assert 0 < PASSAGE_MAX_CHARS <= 480


def test_short_blocks_joined_under_one_heading() -> None:
    passages = split_passages([heading("Refunds"), para("One."), para("Two."), para("Three.")])
    assert passages == (Passage("Refunds", "One. Two. Three."),)


def test_text_before_first_heading_has_empty_heading() -> None:
    passages = split_passages([para("Intro."), heading("Section"), para("Body.")])
    assert passages == (Passage("", "Intro."), Passage("Section", "Body."))


def test_heading_attached_to_following_passages_only() -> None:
    blocks = [heading("A"), para("a text."), heading("B", 3), para("b text."), heading("C"), para("c text.")]
    assert split_passages(blocks) == (Passage("A", "a text."), Passage("B", "b text."), Passage("C", "c text."))


def test_heading_text_is_not_repeated_in_passage_text() -> None:
    (passage,) = split_passages([heading("Unique heading"), para("Body text.")])
    assert "Unique heading" not in passage.text


def test_every_passage_of_a_long_section_carries_the_heading() -> None:
    long_text = " ".join(sentence(i) for i in range(40))
    passages = split_passages([heading("Long section"), para(long_text)])
    assert len(passages) > 3
    assert {p.heading for p in passages} == {"Long section"}


def test_max_length_respected() -> None:
    long_text = " ".join(sentence(i) for i in range(50))
    passages = split_passages([para(long_text), para(long_text)])
    assert all(1 <= len(p.text) <= PASSAGE_MAX_CHARS for p in passages)


def test_custom_max_length() -> None:
    passages = split_passages([para(" ".join(sentence(i, 3) for i in range(20)))], max_chars=60)
    assert len(passages) > 1
    assert all(len(p.text) <= 60 for p in passages)


def test_cut_at_sentence_boundaries() -> None:
    sentences = [sentence(i) for i in range(30)]
    passages = split_passages([para(" ".join(sentences))])
    assert len(passages) > 1
    for passage in passages:
        assert passage.text.endswith("."), passage.text  # every cut falls after a sentence
        assert passage.text.split(" ")[0].startswith("word")
    # nothing lost, nothing duplicated, order kept
    assert " ".join(p.text for p in passages) == " ".join(sentences)


def test_sentence_ends_other_than_full_stop() -> None:
    parts = [f"Question number {i} is here?" if i % 3 == 0 else f"Shout number {i}!" for i in range(60)]
    passages = split_passages([para(" ".join(parts))], max_chars=100)
    assert len(passages) > 1
    assert all(p.text[-1] in "?!" for p in passages)


def test_run_on_sentence_hard_split_at_words() -> None:
    run_on = " ".join(f"token{i}" for i in range(300))  # no sentence end at all
    passages = split_passages([para(run_on)])
    assert len(passages) > 1
    assert all(1 <= len(p.text) <= PASSAGE_MAX_CHARS for p in passages)
    # cut between words: every token survives whole
    assert " ".join(p.text for p in passages).split() == run_on.split()


def test_single_huge_word_hard_split() -> None:
    # CONTRACT R3: a word cut in two shows an ellipsis on both sides of the cut.
    word = "x" * (PASSAGE_MAX_CHARS * 3 + 7)
    passages = split_passages([para(word)])
    assert all(len(p.text) <= PASSAGE_MAX_CHARS for p in passages)
    assert passages[0].text.endswith("…") and passages[-1].text.startswith("…")
    assert all(p.text.startswith("…") and p.text.endswith("…") for p in passages[1:-1])
    assert "".join(p.text.strip("…") for p in passages) == word


def test_long_sentence_between_short_ones() -> None:
    long_sentence = " ".join(f"w{i}" for i in range(400)) + "."
    passages = split_passages([para(f"Short before. {long_sentence} Short after.")])
    assert passages[0].text.startswith("Short before.")
    assert passages[-1].text.endswith("Short after.")
    assert all(len(p.text) <= PASSAGE_MAX_CHARS for p in passages)


def test_headings_only_document_still_yields_a_passage() -> None:
    passages = split_passages([heading("Title", 1), heading("Section"), heading("Sub", 3)])
    assert passages == (Passage("", "Title · Section · Sub"),)


def test_headings_only_long_is_bounded() -> None:
    blocks = [heading(f"Heading number {i} with words") for i in range(60)]
    passages = split_passages(blocks)
    assert passages
    assert all(len(p.text) <= PASSAGE_MAX_CHARS for p in passages)


def test_no_blocks_no_passages() -> None:
    assert split_passages([]) == ()


def test_code_block_becomes_passage_text() -> None:
    passages = split_passages(markdown_to_text("## Install\n\n```\napt install nginx\n```\n").blocks)
    assert passages == (Passage("Install", "apt install nginx"),)


def test_from_markdown() -> None:
    source = "# Guide\n\nIntro text.\n\n## Step 1\n\nDo this. Then that.\n\n## Step 2\n\n- item one\n- item two\n"
    passages = split_passages(markdown_to_text(source).blocks)
    assert passages == (
        Passage("Guide", "Intro text."),
        Passage("Step 1", "Do this. Then that."),
        Passage("Step 2", "item one item two"),
    )


_words = (
    st.text(alphabet=st.sampled_from("abcdefgh .!?;:…-"), min_size=1, max_size=600)
    .map(lambda s: " ".join(s.split()))
    .filter(bool)
)
_blocks = st.lists(st.one_of(_words.map(para), _words.map(lambda t: heading(t[:80].strip() or "h"))), max_size=15)


@settings(max_examples=300, deadline=None, database=None)
@given(blocks=_blocks, max_chars=st.sampled_from([20, 57, 120, PASSAGE_MAX_CHARS]))
def test_property_bounded_nonempty_and_nothing_lost(blocks: list[Block], max_chars: int) -> None:
    passages = split_passages(blocks, max_chars=max_chars)
    texts = [b.text for b in blocks if b.kind != "heading"]
    for passage in passages:
        assert 1 <= len(passage.text) <= max_chars
        assert passage.text == passage.text.strip()
    if texts:
        # Every non-space character of the text, in order, and nothing else but the
        # ellipses that mark a word cut in two.
        def chars(text: str) -> str:
            return "".join(text.split()).replace("…", "")
        assert "".join(chars(p.text) for p in passages) == "".join(chars(t) for t in texts)
        headings_seen = {b.text for b in blocks if b.kind == "heading"} | {""}
        assert all(p.heading in headings_seen for p in passages)
    elif blocks:
        assert passages  # headings only: still something to show
    else:
        assert passages == ()
