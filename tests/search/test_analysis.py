"""Per-language analysis (issue 4): the same analyzer at index and query time, stemming
where Whoosh can, accent folding only where accents are not letters of their own."""

from __future__ import annotations

import pickle

import pytest

from provider.search.analysis import (
    ANY,
    FOLDING_LANGUAGES,
    CachedStemFilter,
    ScriptTokenizer,
    analysis_language,
    analyzer_for,
    schema_languages,
    terms,
)
from provider.search.schema import build_schema, languages_of


@pytest.mark.parametrize(("words", "language"), [
    (("Rechnung", "Rechnungen"), "de"),
    (("Erstattung", "Erstattungen"), "de"),
    (("Mahnung", "Mahnungen"), "de"),
    (("Passwort", "Passwörter"), "de"),
    (("zurücksetzen", "zurucksetzen"), "de"),  # the German stemmer maps umlauts itself
    (("reset", "resetting"), "en"),
    (("invoice", "invoices"), "en"),
    (("password", "passwords"), "en"),
    (("facture", "factures"), "fr"),
])
def test_inflected_forms_meet(words: tuple[str, str], language: str) -> None:
    first, second = (terms(word, language) for word in words)
    assert first == second and first


def test_resume_finds_resume_with_accents_in_english() -> None:
    """Accents are folded before stemming where they are not letters: resume ~ Résumé."""
    assert terms("resume", "en") == terms("Résumé", "en") == terms("RÉSUMÉS", "en")
    assert terms("cafe", "fr") == terms("café", "fr")


@pytest.mark.parametrize(("plain", "accented", "language"), [
    ("ar", "år", "sv"),   # year vs. (nothing): different letters in Swedish
    ("tuli", "tüli", "fi"),
    ("sac", "säc", "de"),
])
def test_no_folding_where_accents_are_letters(plain: str, accented: str, language: str) -> None:
    assert language not in FOLDING_LANGUAGES
    if language == "de":
        # German's Snowball stemmer itself maps ä/ö/ü to a/o/u; folding is still not ours.
        assert not any(type(f).__name__ == "FoldAccents" for f in analyzer_for("de").items)
        return
    assert terms(plain, language) != terms(accented, language)


def test_stop_words_per_language() -> None:
    assert terms("the invoice", "en") == terms("invoice", "en")
    assert terms("die Rechnung", "de") == terms("Rechnung", "de")
    assert "die" in terms("die", "en")  # not an English stop word
    # What the tokenizer leaves of English contractions is not a word to require.
    assert terms("we're closing, don't you've", "en") == terms("closing", "en")


def test_plain_analyzer_for_languages_without_stemmer() -> None:
    # Turkish has a stop list, Catalan accent folding, Chinese a segmenter: fields of their own.
    assert schema_languages(["en", "de", "zh-Hant-TW", "tr", "pt-BR", "ca"]) == ("ca", "de", "en", "pt", "tr", "zh",
                                                                                  ANY)
    assert schema_languages(["en", "hi", "vi"]) == ("en", ANY)
    assert analysis_language("tr", ("de", "en", ANY)) == ANY
    assert analysis_language("zh-Hant-TW", schema_languages(["zh-Hant-TW", "en"])) == "zh"
    assert terms("Cafè", "ca") == ["cafe"] and terms("Cafè", ANY) == ["cafè"]
    assert analysis_language("de-AT", ("de", "en", ANY)) == "de"
    assert terms("Büyük Şehirler", ANY) == ["büyük", "şehirler"]


def test_analyzers_pickle_by_name_and_stem_the_same_after_unpickling() -> None:
    """The schema (analyzers included) is pickled into the index: a reader process must
    analyse queries exactly as the writer analysed documents."""
    schema = build_schema(("de", "en", ANY))
    again = pickle.loads(pickle.dumps(schema))  # noqa: S301 - our own bytes, as Whoosh stores the schema
    assert languages_of(again) == ("de", "en", ANY)
    for language, text in (("en", "Résumé resetting"), ("de", "Rückerstattungen"), (ANY, "Ünlü")):
        field = f"body_{language}"
        assert [t.text for t in again[field].analyzer(text)] == terms(text, language)
    stem = CachedStemFilter("de")
    assert pickle.loads(pickle.dumps(stem)) == stem  # noqa: S301 - our own bytes
    assert len(pickle.dumps(stem)) < 200


# -- issue 12: words by script ------------------------------------------------------------


def test_japanese_word_inside_a_sentence_is_a_term_at_both_ends() -> None:
    """ダークモード inside a sentence is found: the page's sentence and the query are cut
    by the same segmenter, particles and auxiliaries dropped."""
    page = terms("設定画面でダークモードを有効にすると、背景が暗くなります。", "ja")
    assert set(terms("ダークモード", "ja")) <= set(page)
    assert set(terms("ダークモードを有効にするには", "ja")) <= set(page)
    assert "を" not in page and "に" not in page


def test_japanese_okurigana_and_inflection_meet() -> None:
    assert terms("申込み", "ja") == terms("申し込み", "ja") == terms("申込", "ja")
    assert set(terms("使えない", "ja")) == set(terms("使う", "ja"))


def test_korean_particles_do_not_stop_a_match() -> None:
    for attached in ("비밀번호를", "비밀번호가", "비밀번호는", "비밀번호에", "비밀번호로"):
        assert terms(attached, "ko") == terms("비밀번호", "ko")
    assert terms("키가", "ko") == terms("키를", "ko") == terms("키", "ko")
    assert terms("노드에서", "ko") == terms("노드를", "ko") == ["노드"]


def test_chinese_simplified_and_traditional_words() -> None:
    assert set(terms("节点", "zh")) <= set(terms("如何在本地运行节点", "zh"))
    assert set(terms("節點", "zh")) <= set(terms("如何在本地運行節點", "zh"))
    assert "如何" not in terms("如何在本地运行节点", "zh")  # a question word, not a topic


def test_cjk_in_another_language_is_cut_into_bigrams() -> None:
    """Chosen by script: Japanese in an English page (or a page of an unconfigured
    language) still gives terms — the Lucene CJK bigrams."""
    assert terms("ダークモード", "en") == ["ダー", "ーク", "クモ", "モー", "ード"]
    assert terms("設", ANY) == ["設"]


def test_latin_words_keep_their_analysis_next_to_cjk() -> None:
    assert terms("DockerでENを実行", "ja") == ["docker", "en", "実行"]
    assert terms("ＥＮ", "ja") == ["en"]  # full-width letters fold


def test_arabic_and_persian_normalisation() -> None:
    """Harakat and tatweel do not split or change a word; Persian yeh and kaf meet the
    Arabic letters; a ZWNJ-joined word is found with a space, a ZWNJ or neither."""
    assert terms("كَتَبَ", ANY) == terms("كتب", ANY) == terms("كـتـب", ANY)
    assert terms("کی", ANY) == terms("كي", ANY)
    joined = set(terms("می\u200cخواهم", ANY))
    assert set(terms("میخواهم", ANY)) <= joined and set(terms("می خواهم", ANY)) <= joined


def test_combining_marks_stay_inside_words() -> None:
    assert terms("हिन्दी में", ANY) == ["हिन्दी", "में"]


def test_segmenting_analyzers_pickle_by_name() -> None:
    schema = build_schema(("ja", "ko", "zh", ANY))
    again = pickle.loads(pickle.dumps(schema))  # noqa: S301 - our own bytes
    for language, text in (("ja", "申込みの方法"), ("ko", "비밀번호를 재설정"), ("zh", "智能合约部署")):
        assert [t.text for t in again[f"body_{language}"].analyzer(text)] == terms(text, language)
    assert len(pickle.dumps(ScriptTokenizer("ja"))) < 200


def test_segmented_runs_remembered_give_the_segmenter_s_words() -> None:
    """A CJK run's words are remembered per process (analysis._segmented): a run met again,
    alone or inside other text, gives what the segmenter gives it."""
    from provider.search.analysis import _segmented, _word_list
    from provider.search.segment import segmenter

    for language, run in (("zh", "智能合约的部署"), ("ja", "申し込みができない"), ("ko", "비밀번호를 재설정")):
        first = _word_list(f"{run} x", language, "words")
        again = _word_list(f"y {run}", language, "words")
        assert first[:-1] == again[1:]
        for piece in run.split():
            segment = segmenter(language)
            assert segment is not None
            assert _segmented(language, piece) == tuple(segment(piece))


def test_a_serving_workers_word_caches_hold_at_most_their_limit_and_analyse_alike() -> None:
    """Issue 27 (a worker's memory bounded under load): a stream of distinct made-up
    words fills each word cache of a language up to the limit set, no further, and every
    word is analysed as without the limit."""
    from provider.search import analysis

    words = [f"zorb{i}ing" for i in range(600)] + ["running", "Häuser", "cafés"]
    expected = {lang: [analysis.terms(word, lang) for word in words] for lang in ("en", "de")}
    try:
        analysis.limit_word_caches(50)
        for lang in ("en", "de"):
            assert [analysis.terms(word, lang) for word in words] == expected[lang]
            assert [analysis.index_terms(word, lang) for word in words[:5]] == [
                [term] for term_list in expected[lang][:5] for term in term_list]
            list(analysis.analyzer_for(lang)(" ".join(words)))
            caches = [analysis._stemmer(lang), *analysis._term_functions(lang, analysis.cjk_mode(lang))]
            assert all(cache.cache_info().currsize <= 50 for cache in caches)  # type: ignore[attr-defined]
        with pytest.raises(ValueError):
            analysis.limit_word_caches(0)
    finally:
        analysis.limit_word_caches(analysis.STEM_CACHE_WORDS)
