"""Per-language analysis (issue 4): the same analyzer at index and query time, stemming
where Whoosh can, accent folding only where accents are not letters of their own."""

from __future__ import annotations

import pickle

import pytest

from provider.search.analysis import (
    ANY,
    FOLDING_LANGUAGES,
    CachedStemFilter,
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
    # Turkish has a stop list, Catalan accent folding: fields of their own; Chinese neither.
    assert schema_languages(["en", "de", "zh-Hant-TW", "tr", "pt-BR", "ca"]) == ("ca", "de", "en", "pt", "tr", ANY)
    assert analysis_language("tr", ("de", "en", ANY)) == ANY
    assert analysis_language("zh-Hant-TW", schema_languages(["zh-Hant-TW", "en"])) == ANY
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
