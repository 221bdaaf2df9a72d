"""Snippets never start or end inside a word without an ellipsis (CONTRACT R3), in any
script: the passages a document is cut into, the snippet made of them and the contract
layer's last clip all keep words whole or mark the cut."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from helpthread_kit.plaintext import ELLIPSIS, clip_text, safe_cut
from helpthread_kit.registrations import Exposure
from helpthread_kit.results import SNIPPET_MAX_CHARS, Result, render_results
from provider.search.snippets import snippet_span
from provider.wiki.passages import PASSAGE_MAX_CHARS, split_passages
from provider.wiki.plaintext import Block

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
# A Japanese paragraph of 600 characters without a space (the case the issue met).
JAPANESE = "".join(f"出力{i}番目の条件は目的の型のテキスト" for i in range(40))[:600]


def _whole_words(text: str, source: str, after: int = 0) -> int:
    """Each end of ``text`` is an ellipsis, or a boundary of a word in ``source`` (where
    ``text`` is found from position ``after`` on). Returns where it was found."""
    body = text.strip(ELLIPSIS)
    at = source.find(body, after)
    assert at >= 0, (text, source)
    end = at + len(body)
    if not text.startswith(ELLIPSIS) and at > 0:
        assert not (source[at - 1].isalnum() and source[at].isalnum()), f"starts mid-word: {text[:20]!r}"
    if not text.endswith(ELLIPSIS) and end < len(source):
        assert not (source[end - 1].isalnum() and source[end].isalnum()), f"ends mid-word: {text[-20:]!r}"
    return at


def test_japanese_without_sentence_spaces_is_cut_at_sentences() -> None:
    text = "。".join(["エージェントは指示に従ってツールを呼び出します"] * 30) + "。"
    passages = split_passages([Block("text", text)])
    assert len(passages) > 1
    assert all(p.text.endswith("。") for p in passages)  # whole sentences, no cut word


def test_japanese_run_on_sentence_cut_with_ellipses() -> None:
    passages = split_passages([Block("text", JAPANESE)])
    assert len(passages) > 1
    assert passages[0].text.endswith(ELLIPSIS) and passages[1].text.startswith(ELLIPSIS)
    snippet, _ = snippet_span([p.text for p in passages], 1)
    _whole_words(snippet, JAPANESE)
    _whole_words(passages[0].text, JAPANESE)
    # Shown together, the two halves of a cut word are one word again.
    joined, _ = snippet_span([p.text for p in passages], 0, max_chars=2000)
    assert joined == JAPANESE


def test_a_cjk_comma_is_a_cut_without_ellipsis() -> None:
    clause = "設定ファイルを開いて必要な値を入力し"
    text = "、".join([clause] * 40) + "。"
    passages = split_passages([Block("text", text)])
    assert all(p.text.endswith("、") or p.text.endswith("。") for p in passages)
    assert not any(ELLIPSIS in p.text for p in passages)


def test_clip_text_prefers_a_space_and_always_marks_the_cut() -> None:
    assert clip_text("short", 10) == "short"
    assert clip_text("one two three four five", 12) == "one two…"
    assert clip_text("日本語のテキストです", 5) == "日本語の…"
    # Never between a letter and its combining mark, nor inside a joined emoji.
    assert clip_text("abcde\u0301fg", 6) == "abcd…"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert clip_text("ab" + family + "cdef", 5) == "ab…"
    assert safe_cut("e\u0301", 1) == 0


def test_render_results_clips_at_a_word_with_an_ellipsis() -> None:
    long = "alpha beta gamma delta " * 40
    body = render_results([Result("d", "T", long, "public")], exposure=Exposure.CUSTOMER_SAFE,
                          capabilities=frozenset({"retrieve"}), limit=5)
    snippet = body["results"][0]["snippet"]  # type: ignore[index]
    assert len(snippet) <= SNIPPET_MAX_CHARS and snippet.endswith(ELLIPSIS)
    assert snippet[:-1].split()[-1] in {"alpha", "beta", "gamma", "delta"}


_LATIN = st.text(alphabet=st.sampled_from("abcdefghij  .,"), min_size=0, max_size=900)
_KANA = st.text(alphabet=st.sampled_from("あいうえおかきくけこ日本語概念、。"), min_size=0, max_size=900)
_MIXED = st.lists(st.one_of(_LATIN, _KANA), min_size=1, max_size=3).map(" ".join)


@settings(max_examples=300, deadline=None, database=None)
@given(text=_MIXED.filter(lambda t: t.strip()), start=st.integers(0, 20),
       max_chars=st.sampled_from([60, 200, SNIPPET_MAX_CHARS]))
def test_property_snippets_never_cut_a_word_without_an_ellipsis(text: str, start: int, max_chars: int) -> None:
    """R3, as a property over Latin, CJK and mixed paragraphs of any length: every passage
    and every snippet (any start, any bound) begins and ends at a word boundary of the
    source or with an ellipsis; and the contract clip ends with one whenever it cuts."""
    source = " ".join(text.split())
    passages = [p.text for p in split_passages([Block("text", source)], max_chars=min(max_chars, PASSAGE_MAX_CHARS))]
    where, after = [], 0
    for passage in passages:
        where.append(_whole_words(passage, source, after))
        after = where[-1] + 1
    first = min(start, len(passages) - 1)
    snippet, _ = snippet_span(passages, first, max_chars=max_chars)
    assert 0 < len(snippet) <= max_chars
    if snippet.endswith(ELLIPSIS) and not any(p.endswith(ELLIPSIS) for p in passages) \
            and len(snippet) == max_chars:
        return  # clipped by clip_text: the ellipsis is the mark
    _whole_words(snippet, source, where[first])
    clipped = clip_text(source, max_chars)
    assert len(clipped) <= max_chars
    assert clipped == source or clipped.endswith(ELLIPSIS)
