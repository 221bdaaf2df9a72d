"""Text analysis per language, shared by indexing and querying.

The same analyzer must run at index time and at query time, or terms will not meet. Each
document is analysed with the analyzer of its language (:func:`analysis_language`), and
a query is analysed once per language searched. For language ``L`` the chain is:

1. ``RegexTokenizer`` — runs of word characters (Unicode-aware);
2. ``LowercaseFilter``;
3. ``StopFilter`` with ``L``'s stop list, when Whoosh has one (also drops one-letter tokens);
   for English also the fragments the tokenizer leaves of contractions (``we're`` →
   ``we`` ``re``; ``don't`` → ``don``), :data:`EXTRA_STOP_WORDS`;
4. accent folding (``é`` → ``e``), **only** where accents are not letters of their own:
   :data:`FOLDING_LANGUAGES`. In German, Swedish, Finnish, Turkish … ``ä`` and ``a`` are
   different letters (Swedish ``år``/``ar``), so they are left alone there (German's Snowball
   stemmer still maps ``ä``, ``ö``, ``ü`` to ``a``, ``o``, ``u`` itself). Folding comes
   before stemming, so ``resume`` and ``Résumé`` meet;
5. the Snowball stemmer for ``L`` (:class:`CachedStemFilter`).

A configured language for which none of steps 3–5 applies shares the ``any`` analyzer —
tokenizer and lowercase only — with documents in unconfigured languages.

Whoosh's own stem cache is an LFU cache in Python that cost more than the stemming it
saved; :class:`CachedStemFilter` memoises with ``functools.lru_cache`` (in C) and pickles
as its language name, because the schema — analyzers included — is pickled into the index.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache, lru_cache

from whoosh.analysis import (
    Analyzer,
    CharsetFilter,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
)
from whoosh.lang import has_stemmer, has_stopwords, stemmer_for_language, stopwords_for_language
from whoosh.support.charset import accent_map

from ..contract.locales import language_of

__all__ = [
    "ANY",
    "EXTRA_STOP_WORDS",
    "FOLDING_LANGUAGES",
    "CachedStemFilter",
    "FoldAccents",
    "analysis_language",
    "analyzer_for",
    "schema_languages",
    "terms",
]

#: The analysis language of documents whose language has no Whoosh stemmer.
ANY = "any"
#: Languages whose accented letters are variants of the plain letter, not letters of
#: their own: accents are folded there (and only there).
FOLDING_LANGUAGES = frozenset({"en", "fr", "es", "it", "pt", "nl", "ca", "ro"})
#: Added to Whoosh's stop list of a language: what is left of contractions once the
#: tokenizer split them at the apostrophe. Without them ``we're`` would require ``re``.
EXTRA_STOP_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset({"re", "ve", "ll", "don", "doesn", "didn", "isn", "aren", "wasn", "weren", "won", "wouldn",
                     "couldn", "shouldn", "hasn", "haven", "hadn", "ain"}),
}
#: Distinct words whose stem is remembered, per language (query words come from callers).
STEM_CACHE_WORDS = 200_000


@cache
def _stemmer(language: str) -> Callable[[str], str]:
    return lru_cache(maxsize=STEM_CACHE_WORDS)(stemmer_for_language(language))


class CachedStemFilter(StemFilter):  # type: ignore[misc]  # Whoosh is untyped
    """Whoosh's ``StemFilter`` for one language, memoised with ``lru_cache``, pickled as
    its language name."""

    def __init__(self, language: str) -> None:
        self.lang = language
        self.stemfn = None
        self.ignore: frozenset[str] = frozenset()
        self.cachesize = None
        self._stem = _stemmer(language)

    def clear(self) -> None:
        self._stem = _stemmer(self.lang)

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return (CachedStemFilter, (self.lang,))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CachedStemFilter) and other.lang == self.lang

    def __hash__(self) -> int:
        return hash(("stem", self.lang))


class FoldAccents(CharsetFilter):  # type: ignore[misc]  # Whoosh is untyped
    """Accent folding with Whoosh's ``accent_map``, pickled by name (not as its table)."""

    def __init__(self) -> None:
        super().__init__(accent_map)

    def __reduce__(self) -> tuple[type, tuple[()]]:
        return (FoldAccents, ())

    def __eq__(self, other: object) -> bool:
        return type(other) is FoldAccents

    def __hash__(self) -> int:
        return hash("fold")


def analysis_language(locale: str, languages: Iterable[str]) -> str:
    """The analysis language of a document in ``locale``: its language subtag when that
    is one of the index's ``languages``, else :data:`ANY`."""
    language = language_of(locale)
    return language if language in set(languages) else ANY


def _own_analysis(language: str) -> bool:
    return language != ANY and (has_stemmer(language) or has_stopwords(language) or language in FOLDING_LANGUAGES)


def schema_languages(locales: Iterable[str]) -> tuple[str, ...]:
    """The analysis languages of an index for these configured locales: each language with
    more than the plain analysis (a stemmer, a stop list or accent folding), sorted, then
    :data:`ANY` (always present)."""
    languages = {language_of(tag) for tag in locales}
    return (*sorted(lang for lang in languages if _own_analysis(lang)), ANY)


@cache
def analyzer_for(language: str) -> Analyzer:
    """The analyzer of ``language``'s title and body fields (see the module docstring)."""
    chain = RegexTokenizer() | LowercaseFilter()
    if language != ANY and has_stopwords(language):
        stop_words = frozenset(stopwords_for_language(language)) | EXTRA_STOP_WORDS.get(language, frozenset())
        chain = chain | StopFilter(stoplist=stop_words)
    if language in FOLDING_LANGUAGES:
        chain = chain | FoldAccents()
    if language != ANY and has_stemmer(language):
        chain = chain | CachedStemFilter(language)
    return chain


def terms(text: str, language: str = "en") -> list[str]:
    """The indexed terms of ``text`` in ``language``, in order, duplicates kept."""
    return [token.text for token in analyzer_for(language)(text)]
