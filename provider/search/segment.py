"""Words of Chinese, Japanese and Korean text, and the scripts a text is written in.

CJK text has no spaces between words (Korean has spaces between *eojeol*, a word with its
particles attached), so a tokenizer that splits at spaces makes one token of a whole
clause and a word inside it is never found. Each run of CJK characters is segmented here:

* **Japanese** — SudachiPy with the core dictionary, split mode A (the shortest units,
  so a compound in a query splits like the same compound in a page), each word in its
  *normalised form*: okurigana and spelling variants meet (``申込み``, ``申込``,
  ``申し込み`` → ``申し込み``), inflected verbs and adjectives become their dictionary form
  (``使えない`` → ``使う``). Particles, auxiliary verbs, symbols and a few light verbs and
  formal nouns (:data:`JA_STOP`) are dropped.
* **Chinese** (Simplified and Traditional alike) — jieba in search mode (a long word and
  the shorter words inside it, so ``智能合约`` also finds ``合约``); function words and
  question words (:data:`ZH_STOP`) are dropped.
* **Korean** — Lindera with mecab-ko-dic (the dictionary of Lucene's Nori): only the
  morphemes that carry meaning are kept (nouns, verb and adjective stems, roots,
  foreign words, numbers), so particles and endings (``비밀번호를``, ``키가``) never stop a
  match.

:func:`cjk_bigrams` is the baseline these are measured against: Lucene's and
Elasticsearch's CJK analysis, overlapping pairs of CJK characters (a lone character
stays a unigram).

The segmenters are loaded once per process, on first use (each loads a dictionary of
70–250 MiB: Korean's ko-dic the largest), one at a time, so that a process holds only the
dictionaries of the languages it has analysed: a serving worker whose queries are all in
English never loads one (issue 27). :func:`loaded_dictionaries` says which are loaded.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

__all__ = [
    "CJK",
    "HAN",
    "HANGUL",
    "JA_STOP",
    "KANA",
    "KO_STOP",
    "ZH_STOP",
    "cjk_bigrams",
    "loaded_dictionaries",
    "segmenter",
]

#: Code point ranges of the scripts (as regular-expression character-class bodies).
HAN = "\u3005\u3007\u3021-\u3029\u3038-\u303b\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
KANA = "\u3041-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f"
HANGUL = "\u1100-\u11ff\u3131-\u318e\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff\uffa0-\uffdc"
CJK = HAN + KANA + HANGUL

#: Japanese words dropped after segmentation, in their normalised form: light verbs and
#: formal nouns that carry no topic (する, いる, ある, なる, できる, こと, もの, ため, よう …).
JA_STOP = frozenset({"為る", "居る", "有る", "成る", "出来る", "事", "物", "為", "様", "所", "良い", "言う",
                     "其れ", "此れ", "何", "どう", "此の", "其の", "方", "時", "もの", "こと", "よう", "ところ"})
#: Chinese function words and question words (Simplified and Traditional forms).
ZH_STOP = frozenset("""
的 了 是 在 和 与 與 或 及 吗 嗎 呢 吧 啊 呀 着 著 过 過 地 得 之 其 而
也 都 就 还 還 又 很 被 把 让 讓 给 給 对 對 从 從 向 于 於 以 我 你 您
他 她 它 我们 我們 你们 你們 他们 他們 这 這 那 这个 這個 那个 那個 这些 這些
那些 哪 哪里 哪裡 哪儿 哪兒 什么 什麼 怎么 怎麼 怎样 怎樣 怎么样 怎麼樣 如何
为什么 為什麼 为何 為何 是否 能否 可以 能 会 會 要 想 需要 应该 應該 一个 一個
一些 有 没有 沒有 个 個 些 所 等 中 上 下 时 時 后 後 前 里 裡 因为 因為
所以 但是 但 如果 并 並 且 用 来 來 去 到 做 请 請
""".split())



def cjk_bigrams(run: str) -> Iterator[str]:
    """Overlapping character pairs of a run of CJK characters; a one-character run is
    its character (Lucene's ``CJKBigramFilter``)."""
    if len(run) == 1:
        yield run
        return
    for i in range(len(run) - 1):
        yield run[i : i + 2]


_lock = threading.Lock()
#: One per language, held while its dictionary loads: several threads wanting the same
#: segmenter at once (a worker's first Korean queries) load it once, not once each, and
#: a query in another language does not wait for it.
_loading = {language: threading.Lock() for language in ("ja", "zh", "ko")}
#: The segmenters loaded in this process, by language subtag.
_loaded: dict[str, Any] = {}


def _load(language: str, loader: Callable[[], Any]) -> Any:
    """``language``'s segmenter object, made by ``loader`` the first time."""
    found = _loaded.get(language)
    if found is None:
        with _loading[language]:
            found = _loaded.get(language)
            if found is None:
                found = _loaded[language] = loader()
    return found


def loaded_dictionaries() -> frozenset[str]:
    """The language subtags (``ja``, ``zh``, ``ko``) whose segmenter, and so dictionary,
    this process has loaded."""
    return frozenset(_loaded)


def _sudachi() -> Any:
    return _load("ja", _new_sudachi)


def _jieba() -> Any:
    return _load("zh", _new_jieba)


def _lindera() -> Any:
    return _load("ko", _new_lindera)


def _new_sudachi() -> Any:
    from sudachipy import Dictionary, SplitMode

    return Dictionary(dict="core").tokenizer(mode=SplitMode.A)


def _new_jieba() -> Any:
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    tokenizer = jieba.Tokenizer()
    tokenizer.initialize()
    return tokenizer


def _new_lindera() -> Any:
    import lindera

    return lindera.Tokenizer(lindera.load_dictionary("embedded://ko-dic"), mode="normal")


_JA_DROP = frozenset({"助詞", "助動詞", "補助記号", "空白", "記号", "感動詞", "接続詞", "代名詞", "連体詞"})
#: Sudachi refuses inputs over ~49,000 bytes; runs are cut well below that.
_JA_MAX_CHARS = 4000


def _japanese(run: str) -> Iterator[str]:
    tokenizer = _sudachi()
    for start in range(0, len(run), _JA_MAX_CHARS):
        with _lock:  # a Sudachi tokenizer is not shared between threads
            morphemes = [(m.part_of_speech()[0], m.normalized_form()) for m in
                         tokenizer.tokenize(run[start : start + _JA_MAX_CHARS])]
        for pos, form in morphemes:
            if pos not in _JA_DROP and form not in JA_STOP:
                yield form


def _chinese(run: str) -> Iterator[str]:
    for word in _jieba().cut_for_search(run, HMM=True):
        if word not in ZH_STOP:
            yield word


#: mecab-ko-dic tags kept: general and proper nouns, verb and adjective stems, roots,
#: prefixes, foreign words, Chinese characters and numbers.
_KO_KEEP = ("NNG", "NNP", "VV", "VA", "XR", "XPN", "SL", "SH", "SN")
#: Korean light verbs and question stems, dropped like stop words (하다, 되다, 있다, 어떻다 …).
KO_STOP = frozenset({"하", "되", "있", "없", "같", "위하", "어떻", "어떠", "않", "이러", "그러", "보"})


def _korean(run: str) -> Iterator[str]:
    for token in _lindera().tokenize(run):
        details: list[str] = list(token.details or ())
        tag = details[0] if details else ""
        # A compound tag (VV+EC, NNG+JKO …) names its first morpheme first.
        if tag.split("+", 1)[0] not in _KO_KEEP:
            continue
        surface = token.surface
        if "+" in tag and len(details) > 7 and details[7] not in ("*", ""):
            # Inflected: the expression field gives the stem first (해야 → 하/VV+아야/EC).
            surface = details[7].split("+", 1)[0].split("/", 1)[0]
        if surface and surface not in KO_STOP:
            yield surface


@cache
def segmenter(language: str) -> Callable[[str], Iterator[str]] | None:
    """The word segmenter of a CJK language subtag (``ja``, ``zh``, ``ko``): a function from
    a run of CJK characters to its words; ``None`` for any other language."""
    return {"ja": _japanese, "zh": _chinese, "ko": _korean}.get(language)
