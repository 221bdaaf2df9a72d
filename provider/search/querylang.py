"""Which languages a query can be in, and which one it is written in.

Nothing here guesses from nothing: the *script* of the query's letters limits the analysis
languages worth analysing and searching (a Hangul query is not searched in the German
fields), and the index's own *vocabulary* tells the languages apart within one script —
a script only one language of the index writes in (kana, Hangul) decides it; otherwise
the language whose documents use the query's words (and whose stop words the query uses)
most, and clearly more than the default locale's language, is the language the query is
written in. A query without such evidence (a product name, a number) is taken to be in the
default locale's language.

Chinese is further told apart by characters: a text whose Han characters all exist in
GB 2312 (Simplified) but not all in Big5 (Traditional) is Simplified, and the other way
round; characters both sets share say nothing.

A query of Han characters without kana or Hangul is ambiguous between Japanese and both
Chinese scripts, and the index's vocabulary cannot tell them apart (the three write many
of the same words). Its characters decide where they are evidence — each writing's
character set (JIS X 0208 for Japanese, GB 2312, Big5) must hold every one of them, so a
Traditional-only character (說) rules out Japanese and Simplified, a Simplified-only one
(项) Japanese and Traditional, a Japanese shinjitai form (広, 説) both Chinese scripts;
otherwise every CJK language of the index that the characters fit is taken as written,
and each is searched first (:func:`han_writings`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache

from helpthread_kit.locales import likely_subtags

from .analysis import ANY
from .segment import HAN, HANGUL, KANA

__all__ = ["EVIDENCE_RATIO", "candidate_languages", "chinese_scripts", "han_writings",
           "query_scripts", "searched_first", "stop_words_of", "writing_key", "written_in"]

#: How much likelier the whole query must be in another language than in the default
#: locale's language before it counts as written in it (a likelihood ratio over the
#: index's own word frequencies).
EVIDENCE_RATIO = 4.0
#: The probability a stop word of a language is taken to have in that language's documents.
STOP_WORD_P = 0.5

#: Unicode script name (first word of a character's name) → ISO 15924 code.
_SCRIPT_NAMES = {
    "LATIN": "Latn", "CYRILLIC": "Cyrl", "ARABIC": "Arab", "GREEK": "Grek", "HEBREW": "Hebr",
    "DEVANAGARI": "Deva", "THAI": "Thai", "ARMENIAN": "Armn", "GEORGIAN": "Geor", "BENGALI": "Beng",
    "TAMIL": "Taml", "HANGUL": "Hang", "HIRAGANA": "Kana", "KATAKANA": "Kana", "CJK": "Hani",
}
#: The scripts a query in an analysis language may be written in, beyond its CLDR script.
_LANGUAGE_SCRIPTS = {"ja": frozenset({"Hani", "Kana"}), "zh": frozenset({"Hani"}), "ko": frozenset({"Hang"})}


#: Each writing of Han characters and the character set that holds what it writes: JIS X
#: 0208 (``shift_jis``: the kanji of Japanese text, shinjitai forms included), GB 2312,
#: Big5. Character sets, not word lists: a character outside a set is evidence against that
#: writing, whatever the words.
_HAN_WRITINGS = (("ja", "shift_jis"), ("zh-Hans", "gb2312"), ("zh-Hant", "big5"))
#: Scripts only the CJK languages write in.
_CJK_SCRIPTS = frozenset({"Hani", "Kana", "Hang"})

_HAN_CHAR = re.compile(f"[{HAN}]")
_KANA_CHAR = re.compile(f"[{KANA}]")
_HANGUL_CHAR = re.compile(f"[{HANGUL}]")


@lru_cache(maxsize=8192)
def _char_script(char: str) -> str:
    if _HAN_CHAR.match(char):
        return "Hani"
    if _KANA_CHAR.match(char):
        return "Kana"
    if _HANGUL_CHAR.match(char):
        return "Hang"
    name = unicodedata.name(char, "")
    return _SCRIPT_NAMES.get(name.split(" ", 1)[0], "") if name else ""


def query_scripts(text: str) -> frozenset[str]:
    """ISO 15924 codes of the scripts of the letters in ``text`` (``Hani`` for Han,
    ``Kana`` for either kana, ``Hang`` for Hangul); digits and punctuation have none."""
    return frozenset(script for char in set(text) if char.isalpha() and (script := _char_script(char)))


@lru_cache(maxsize=256)
def _scripts_of_language(language: str) -> frozenset[str]:
    if language in _LANGUAGE_SCRIPTS:
        return _LANGUAGE_SCRIPTS[language]
    script = likely_subtags(language)[1]
    return frozenset({script}) if script else frozenset()


def candidate_languages(text: str, languages: Sequence[str]) -> tuple[str, ...]:
    """The analysis languages of an index a query can be in, by script: each language
    whose script the query's letters use, and :data:`~provider.search.analysis.ANY`
    (documents of unconfigured languages, in any script). A query without letters, or
    one whose scripts no language uses, can be in any of them."""
    scripts = query_scripts(text)
    if not scripts:
        return tuple(languages)
    return tuple(lang for lang in languages
                 if lang == ANY or not _scripts_of_language(lang) or _scripts_of_language(lang) & scripts)


def searched_first(words: Mapping[str, tuple[str, ...]], written: Iterable[str], default_language: str
                   ) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """Without a request locale, the query's terms split into the languages searched first
    — the one it is written in (its writing keys, :func:`written_in`) and the default
    locale's — and the other languages of its script, searched only to fill up when those
    find too few. Real translations share words (product names, code, untranslated
    sentences): searching every language of a script with them made a query's cost grow
    with the number of locales, for translations one answer per group then drops."""
    languages = {key.split("-", 1)[0] for key in written} | {default_language}
    first = {lang: ws for lang, ws in words.items() if lang in languages}
    if not first:
        return dict(words), {}
    return first, {lang: ws for lang, ws in words.items() if lang not in languages}


def chinese_scripts(text: str) -> frozenset[str]:
    """``{"Hans"}``, ``{"Hant"}`` or both: the Chinese scripts ``text``'s Han characters
    fit (GB 2312 holds Simplified characters, Big5 Traditional ones)."""
    han = "".join(char for char in text if _char_script(char) == "Hani")
    out = set()
    for script, codec in (("Hans", "gb2312"), ("Hant", "big5")):
        try:
            han.encode(codec)
        except UnicodeEncodeError:
            continue
        out.add(script)
    return frozenset(out or {"Hans", "Hant"})


def han_writings(text: str) -> frozenset[str]:
    """The writings (:func:`writing_key`: ``ja``, ``zh-Hans``, ``zh-Hant``) whose character
    set holds every Han character of ``text`` (see :data:`_HAN_WRITINGS`); all three when
    none holds them all (a mix, rare characters) or ``text`` has no Han character."""
    han = "".join(char for char in text if _char_script(char) == "Hani")
    out = set()
    for writing, codec in _HAN_WRITINGS:
        try:
            han.encode(codec)
        except UnicodeEncodeError:
            continue
        out.add(writing)
    return frozenset(out or (writing for writing, _ in _HAN_WRITINGS))


def writing_key(analysis_language: str, locale: str) -> str:
    """What a document's translation is compared on: its analysis language, for Chinese
    with its script (``zh-Hans``, ``zh-Hant``)."""
    if analysis_language == "zh":
        return f"zh-{likely_subtags(locale)[1] or 'Hans'}"
    return analysis_language


def written_in(
    words: Mapping[str, Sequence[str]],
    stop_hits: Mapping[str, int],
    frequency: Callable[[str, str], int],
    counts: Mapping[str, int],
    default_language: str,
    text: str,
) -> frozenset[str]:
    """The writing keys (:func:`writing_key`) of the language a query is written in.

    Args:
        words: per candidate analysis language, the query's analysed terms.
        stop_hits: per candidate language, how many of the query's words are its stop words.
        frequency: ``(language, term)`` → documents of that language containing the term.
        counts: documents per analysis language.
        default_language: the default locale's analysis language.
        text: the query (Chinese scripts are read from its characters).

    Returns:
        One language's keys (both Chinese scripts when the characters do not tell), or
        the default language's when no language is clearly likelier; for a query whose
        CJK letters are Han only, in an index with Japanese and Chinese documents, the
        keys of every writing its characters fit (:func:`han_writings`), not one guess.
    """
    present = [lang for lang in words if counts.get(lang)]
    exclusive = _exclusive_language(text, present)
    if exclusive is not None:
        return _keys(exclusive, text)
    if query_scripts(text) & _CJK_SCRIPTS == {"Hani"} and {"ja", "zh"} <= set(present):
        return han_writings(text)
    scores: dict[str, float] = {}
    size = 0
    for language in set(words) | set(stop_hits):
        if not counts.get(language):
            continue  # no documents: no evidence either way
        total = counts[language] + 1
        logs = [math.log((frequency(language, term) + 0.5) / total) for term in words.get(language, ())]
        logs += [math.log(STOP_WORD_P)] * stop_hits.get(language, 0)
        if logs:
            scores[language] = sum(logs) / len(logs)
            size = max(size, len(logs))
    if not scores:
        return _keys(default_language, text)
    best = max(sorted(scores), key=lambda language: scores[language])
    # The mean log-likelihood per word (segmenters cut one text into different numbers of
    # words), times the query's length: the evidence a whole query gives.
    if default_language in scores and (scores[best] - scores[default_language]) * size < math.log(EVIDENCE_RATIO):
        best = default_language
    return _keys(best, text)


def _exclusive_language(text: str, languages: Sequence[str]) -> str | None:
    """The one language of ``languages`` that writes in a non-Latin script of the query,
    when exactly one does (kana: Japanese; Hangul: Korean): letters of that script are
    evidence enough, whatever Latin product names the query also holds (``なぜAstroを選ぶ``)."""
    for script in sorted(query_scripts(text) - {"Latn"}):
        owners = [lang for lang in languages if lang != ANY and script in _scripts_of_language(lang)]
        if len(owners) == 1:
            return owners[0]
    return None


def _keys(language: str, text: str) -> frozenset[str]:
    if language == "zh":
        return frozenset(f"zh-{script}" for script in chinese_scripts(text))
    return frozenset({language})


def stop_words_of(analyzer: object) -> frozenset[str]:
    """The stop list in an analyzer chain (empty when it has none)."""
    for item in getattr(analyzer, "items", ()):
        stops = getattr(item, "stops", None)
        if stops is not None:
            return frozenset(stops)
    return frozenset()
