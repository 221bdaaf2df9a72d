"""Text analysis per language, shared by indexing and querying.

The same analyzer must run at index time and at query time, or terms will not meet. Each
document is analysed with the analyzer of its language (:func:`analysis_language`), and
a query is analysed once per language searched. For language ``L`` the chain is:

1. :class:`ScriptTokenizer` — words chosen by script. Before anything, full-width forms are
   folded (NFKC: ``ＥＮ`` → ``EN``, half-width katakana → katakana) and Arabic-script text
   is normalised (harakat and tatweel removed; alef, yeh, kaf, heh and teh marbuta variants
   folded, so Arabic and Persian spellings meet). Then runs of word characters (combining
   marks included, so Devanagari vowel signs and Arabic marks do not split a word), and:
   a run of CJK characters is segmented into words by the segmenter of ``L`` when its
   script is ``L``'s (:mod:`provider.search.segment`: Japanese, Chinese, Korean), else
   cut into CJK bigrams; a word joined by a ZWNJ (Persian ``می‌خواهم``) gives its parts
   and the joined word, so it is found typed with a space, a ZWNJ or neither;
2. ``LowercaseFilter``;
3. :class:`QueryStopFilter` with ``L``'s stop list, when Whoosh has one (also drops one-letter
   tokens) — at query time only: stop words are indexed, so a query of stop words only
   (``Wenn Sie``) can fall back to searching them;
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

import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from functools import cache, lru_cache, partial
from operator import is_not
from typing import Any

from whoosh.analysis import (
    Analyzer,
    CharsetFilter,
    LowercaseFilter,
    StemFilter,
    StopFilter,
    Token,
    Tokenizer,
)
from whoosh.lang import has_stemmer, has_stopwords, stemmer_for_language, stopwords_for_language
from whoosh.support.charset import accent_map

from helpthread_kit.locales import language_of

from .segment import CJK, HAN, HANGUL, KANA, cjk_bigrams, segmenter

__all__ = [
    "ANY",
    "DEFAULT_CJK_MODES",
    "EXTRA_STOP_WORDS",
    "FOLDING_LANGUAGES",
    "SERVING_CACHE_WORDS",
    "CachedStemFilter",
    "FoldAccents",
    "QueryStopFilter",
    "ScriptTokenizer",
    "analysis_language",
    "analyzer_for",
    "cjk_mode",
    "fast_analysis",
    "index_terms",
    "limit_word_caches",
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
#: Languages whose CJK text is segmented into words (:mod:`provider.search.segment`).
SEGMENTED_LANGUAGES = frozenset({"ja", "zh", "ko"})
#: How each segmented language's CJK text is analysed by default: ``words`` (its segmenter)
#: or ``bigrams`` (the Lucene baseline), as measured (README, Relevance); ``both`` indexes
#: and searches a segmented run's words and its bigrams together (measured, not chosen).
DEFAULT_CJK_MODES: dict[str, str] = {"ja": "words", "ko": "words", "zh": "words"}
CJK_MODES = ("words", "bigrams", "both")
#: Distinct words whose stem is remembered, per language and cache (query words come from callers).
STEM_CACHE_WORDS = 200_000
#: ... in a serving worker (:func:`limit_word_caches`), whose words come from requests:
#: a stream of made-up words filled the three caches of a language to about 60 MiB,
#: for each language of the query's script.
SERVING_CACHE_WORDS = 20_000
_cache_words = STEM_CACHE_WORDS


def limit_word_caches(words: int) -> None:
    """Remember at most ``words`` words per language in each of this process's word
    caches (stems, index terms, query terms) from now on; the caches are emptied.

    For a process's start, before it opens an index: an analyzer made earlier (an
    opened index's schema) keeps the cache it was made with.

    Raises:
        ValueError: ``words`` below 1.
    """
    global _cache_words
    if words < 1:
        raise ValueError(f"a word cache holds at least one word, not {words}")
    _cache_words = words
    for made in (_stemmer, _analyzer, _word_step, _term_functions):
        made.cache_clear()


@cache
def _stemmer(language: str) -> Callable[[str], str]:
    return lru_cache(maxsize=_cache_words)(stemmer_for_language(language))


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


def cjk_mode(language: str | None = None) -> str:
    """How CJK text of ``language`` is analysed in indexes built now (:data:`DEFAULT_CJK_MODES`),
    unless ``KNOWLEDGE_PROVIDER_CJK_ANALYSIS`` says otherwise: ``bigrams`` or ``words`` for
    every language, or per language (``zh=bigrams,ja=words``) — for measuring one against the
    other. Without ``language``: a description of all of them (part of the index settings)."""
    modes = _cjk_modes(os.environ.get("KNOWLEDGE_PROVIDER_CJK_ANALYSIS", ""))
    if language is None:
        return ",".join(f"{lang}={mode}" for lang, mode in sorted(modes.items()))
    return modes.get(language, "words")


@lru_cache(maxsize=16)
def _cjk_modes(setting: str) -> dict[str, str]:
    """:func:`cjk_mode`'s table for one value of the setting (read on every call: it is
    asked per text analysed). Callers must not change the dictionary."""
    modes = dict(DEFAULT_CJK_MODES)
    for part in filter(None, (p.strip() for p in setting.strip().lower().split(","))):
        lang, _, mode = part.rpartition("=")
        if mode in CJK_MODES:
            modes.update({lang: mode} if lang else dict.fromkeys(modes, mode))
    return modes


def _mark_class() -> str:
    """A character-class body of every combining mark (categories Mn, Mc, Me) below
    U+20000: Python's ``\\w`` leaves them out, which cut Devanagari, Thai or vowelled
    Arabic words apart at every vowel sign."""
    ranges: list[tuple[int, int]] = []
    for code in range(0x300, 0x20000):
        if unicodedata.category(chr(code)).startswith("M"):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1] = (ranges[-1][0], code)
            else:
                ranges.append((code, code))
    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in ranges)


_MARKS = _mark_class()
_WORD = f"(?:(?![{CJK}])[\\w{_MARKS}])+"
#: A CJK run, or a word (``3.5``, ``example.com`` and ZWNJ-joined Persian words stay whole).
_TOKEN = re.compile(f"(?P<cjk>[{CJK}]+)|(?P<word>{_WORD}(?:[.\u200c]{_WORD})*)")
_HAN_OR_KANA = re.compile(f"[{HAN}{KANA}]")
_KANA_OR_HANGUL = re.compile(f"[{KANA}{HANGUL}]")
_HANGUL_CHAR = re.compile(f"[{HANGUL}]")
_ARABIC = re.compile("[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]")
_WIDE = re.compile("[\uff00-\uffef]")
#: Arabic-script normalisation (as Lucene's Arabic and Persian normalisers do): marks and
#: tatweel removed; letter variants folded to one letter.
_ARABIC_FOLD = {
    **{code: None for code in range(0x064B, 0x0660)},  # harakat (fatha, damma, kasra, shadda, sukun …)
    0x0670: None,  # superscript alef
    0x0640: None,  # tatweel
    0x0622: "\u0627", 0x0623: "\u0627", 0x0625: "\u0627", 0x0671: "\u0627",  # alef variants → alef
    0x0649: "\u064a", 0x06CC: "\u064a", 0x06D2: "\u064a",  # alef maksura, Farsi yeh → yeh
    0x06A9: "\u0643", 0x06AA: "\u0643",  # keheh (Persian kaf) → kaf
    0x0629: "\u0647", 0x06C0: "\u0647", 0x06C1: "\u0647", 0x06D5: "\u0647",  # teh marbuta, heh forms → heh
}


def normalise(text: str) -> str:
    """Full-width forms folded (NFKC) and Arabic script normalised, only where present."""
    if _WIDE.search(text):
        text = unicodedata.normalize("NFKC", text)
    if _ARABIC.search(text):
        text = text.translate(_ARABIC_FOLD)
    return text


def _segmentable(language: str, run: str) -> bool:
    if language == "ja":
        return _HAN_OR_KANA.search(run) is not None
    if language == "zh":
        return _KANA_OR_HANGUL.search(run) is None
    if language == "ko":
        return _HANGUL_CHAR.search(run) is not None
    return False


def words(text: str, language: str, mode: str = "words") -> Iterator[str]:
    """The words of ``text`` before lowercasing, stop words and stemming (step 1 of the
    module docstring): what :class:`ScriptTokenizer` yields."""
    return iter(_word_list(text, language, mode))


#: The word alternative of :data:`_TOKEN` alone: what it matches in a text without CJK
#: characters, where the CJK alternative never matches.
_WORD_RUN = re.compile(f"{_WORD}(?:[.\u200c]{_WORD})*")
#: The same for ASCII text: there ``[\w{_MARKS}]`` is ``\w`` (every mark is above U+02FF)
#: and no character is CJK, so the per-character look-ahead can go.
_ASCII_WORD_RUN = re.compile(r"\w+(?:\.\w+)*")
_CJK_OR_ZWNJ = re.compile(f"[{CJK}\u200c]")


def _word_list(text: str, language: str, mode: str) -> list[str]:
    """:func:`words` as a list. A text without CJK characters or ZWNJ (after
    :func:`normalise`) is cut by one ``findall`` of the word alternative of
    :data:`_TOKEN` — the same matches, without a match object and a Python step per
    word; ASCII text (which :func:`normalise` leaves alone) by the ASCII form of it."""
    if text.isascii():
        return _ASCII_WORD_RUN.findall(text)
    text = normalise(text)
    if _CJK_OR_ZWNJ.search(text) is None:
        return _WORD_RUN.findall(text)
    segment = segmenter(language) if mode in ("words", "both") else None
    out: list[str] = []
    for match in _TOKEN.finditer(text):
        run = match.group("cjk")
        if run is not None:
            if segment is not None and _segmentable(language, run):
                found = list(_segmented(language, run))
                out += found
                if mode == "both":
                    out += [pair for pair in cjk_bigrams(run) if pair not in found]
            else:
                out += cjk_bigrams(run)
            continue
        word = match.group("word")
        if "\u200c" in word:
            out += [part for part in word.split("\u200c") if part]
            out.append(word.replace("\u200c", ""))
        else:
            out.append(word)
    return out


#: CJK runs whose words are remembered per process: a passage's run is analysed for its
#: stored terms and again in the body (or code) field's postings, and translations share
#: runs (product names, headings, UI labels).
SEGMENTED_RUNS = 16_384


@lru_cache(maxsize=SEGMENTED_RUNS)
def _segmented(language: str, run: str) -> tuple[str, ...]:
    """The words of one CJK run by ``language``'s segmenter: a run is segmented on its own
    (never with its neighbours), so its words do not depend on where it was found."""
    segment = segmenter(language)
    assert segment is not None  # only called for a segmented language
    return tuple(segment(run))


class ScriptTokenizer(Tokenizer):  # type: ignore[misc]  # Whoosh is untyped
    """Whoosh tokenizer of step 1 (module docstring) for one language; pickled as its
    language and CJK mode, so an index keeps the analysis it was built with.

    Args:
        language: an analysis language (``ja``, ``zh``, ``ko`` segment their CJK runs).
        mode: ``words``, ``bigrams`` or ``both`` (:func:`cjk_mode`).
    """

    def __init__(self, language: str, mode: str = "words") -> None:
        self.language = language
        self.mode = mode

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        return (ScriptTokenizer, (self.language, self.mode))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ScriptTokenizer) and (other.language, other.mode) == (self.language, self.mode)

    def __hash__(self) -> int:
        return hash(("script", self.language, self.mode))

    def __call__(self, value: str, positions: bool = False, chars: bool = False, keeporiginal: bool = False,
                 removestops: bool = True, start_pos: int = 0, start_char: int = 0, tokenize: bool = True,
                 mode: str = "", **kwargs: Any) -> Iterator[Any]:
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        pieces: Iterable[str] = words(value, self.language, self.mode) if tokenize else (value,)
        for pos, text in enumerate(pieces, start=start_pos):
            token.text = text
            token.boost = 1.0
            token.stopped = False
            if keeporiginal:
                token.original = text
            if positions:
                token.pos = pos
            if chars:  # offsets are not kept (snippets come from stored passages)
                token.startchar = token.endchar = start_char
            yield token


class QueryStopFilter(StopFilter):  # type: ignore[misc]  # Whoosh is untyped
    """Whoosh's ``StopFilter`` that removes stop words from queries (and from
    :func:`terms`) but not while indexing (``mode="index"``)."""

    def __call__(self, tokens: Iterable[Any]) -> Iterator[Any]:
        stops, minsize = self.stops, self.min
        for token in tokens:
            if token.mode == "index" or (len(token.text) >= minsize and token.text not in stops):
                token.stopped = False
                yield token
            elif not token.removestops:
                token.stopped = True
                yield token


def analysis_language(locale: str, languages: Iterable[str]) -> str:
    """The analysis language of a document in ``locale``: its language subtag when that
    is one of the index's ``languages``, else :data:`ANY`."""
    language = language_of(locale)
    return language if language in set(languages) else ANY


def _own_analysis(language: str) -> bool:
    return language != ANY and (has_stemmer(language) or has_stopwords(language) or language in FOLDING_LANGUAGES
                                or language in SEGMENTED_LANGUAGES)


def schema_languages(locales: Iterable[str]) -> tuple[str, ...]:
    """The analysis languages of an index for these configured locales: each language with
    more than the plain analysis (a stemmer, a stop list or accent folding), sorted, then
    :data:`ANY` (always present)."""
    languages = {language_of(tag) for tag in locales}
    return (*sorted(lang for lang in languages if _own_analysis(lang)), ANY)


def analyzer_for(language: str) -> Analyzer:
    """The analyzer of ``language``'s title and body fields (see the module docstring),
    with CJK text analysed as :func:`cjk_mode` says."""
    return _analyzer(language, cjk_mode(language))


@cache
def _analyzer(language: str, mode: str) -> Analyzer:
    chain = ScriptTokenizer(language, mode) | LowercaseFilter()
    if language != ANY and has_stopwords(language):
        stop_words = frozenset(stopwords_for_language(language)) | EXTRA_STOP_WORDS.get(language, frozenset())
        chain = chain | QueryStopFilter(stoplist=stop_words)
    if language in FOLDING_LANGUAGES:
        chain = chain | FoldAccents()
    if language != ANY and has_stemmer(language):
        chain = chain | CachedStemFilter(language)
    return chain


def terms(text: str, language: str = "en") -> list[str]:
    """The indexed terms of ``text`` in ``language``, in order, duplicates kept, stop
    words left out (what a query of ``text`` searches for): what the analyzer of
    :func:`analyzer_for` yields, made by :func:`_word_step` instead of its chain of
    generators."""
    mode = cjk_mode(language)
    found = map(_term_functions(language, mode)[1], _word_list(text, language, mode))
    return list(filter(_not_none, found))  # type: ignore[arg-type]  # drops the Nones


def index_terms(text: str, language: str, mode: str | None = None) -> list[str]:
    """The terms the analyzer of ``language`` (CJK ``mode``, by default :func:`cjk_mode`'s)
    yields for ``text`` when indexing (stop words kept): one per word of :func:`words`,
    so a term's position is its index in the list."""
    mode = mode or cjk_mode(language)
    return list(map(_term_functions(language, mode)[0], _word_list(text, language, mode)))


_not_none = partial(is_not, None)


@cache
def _term_functions(language: str, mode: str) -> tuple[Callable[[str], str], Callable[[str], str | None]]:
    """``(word -> term, word -> term or None for a stop word)`` of :func:`_word_step`,
    each remembered on its own (one look-up per word, in C, where unpacking a pair in
    Python cost more)."""
    term_of = _word_step(language, mode)

    def index_term(word: str) -> str:
        return term_of(word)[0]

    def query_term(word: str) -> str | None:
        term, stopped = term_of(word)
        return None if stopped else term

    return lru_cache(maxsize=_cache_words)(index_term), lru_cache(maxsize=_cache_words)(query_term)


def fast_analysis(analyzer: Any) -> tuple[str, str] | None:
    """``(language, CJK mode)`` when ``analyzer`` equals the analyzer this module builds
    for them (so :func:`index_terms` may stand in for it), else ``None``."""
    items = getattr(analyzer, "items", None)
    tokenizer = items[0] if items else None
    if not isinstance(tokenizer, ScriptTokenizer):
        return None
    if analyzer is not _analyzer(tokenizer.language, tokenizer.mode) and analyzer != _analyzer(
            tokenizer.language, tokenizer.mode):
        return None
    return tokenizer.language, tokenizer.mode


@cache
def _word_step(language: str, mode: str) -> Callable[[str], tuple[str, bool]]:
    """``word -> (term, stopped)``: what the analyzer of ``language`` makes of one word of
    :func:`words` — lowercased, accents folded where they are, stemmed — and whether a
    query drops it as a stop word. Every filter of the chain works on one token alone, so
    a word's term can be remembered (:func:`_term_functions`, in C): per-token generators
    were most of the analysis time."""
    chain = _analyzer(language, mode)
    stops: frozenset[str] = frozenset()
    minsize = 0
    fold: dict[int, str] | None = None
    stem: Callable[[str], str] | None = None
    for item in chain.items[1:]:
        if isinstance(item, QueryStopFilter):
            stops, minsize = item.stops, item.min
        elif isinstance(item, FoldAccents):
            fold = item.charmap
        elif isinstance(item, CachedStemFilter):
            stem = item._stem
        elif not isinstance(item, LowercaseFilter):  # pragma: no cover - a new filter needs its step here
            raise TypeError(f"no per-word step for {item!r}")

    def term_of(word: str) -> tuple[str, bool]:
        text = word.lower()
        stopped = len(text) < minsize or text in stops
        if fold is not None:
            text = text.translate(fold)
        if stem is not None:
            text = stem(text)
        return text, stopped

    return term_of
