"""Words that restrict who may read a text to staff, read by meaning in many languages.

A short text — a heading, a label, a note's first line, a collapsible block's label, a
box title, a comment — says "not for customers" when it binds a **restriction** to a
**reader who is staff** (issue 24). Rather than a list of sentences, the rule reads
words of a few kinds (:mod:`provider.wiki.staff_words`, 24 languages word by word, five
more by fixed phrases, ja/zh/ko by forms without spaces), after Unicode folding
(:func:`provider.wiki.lookalike.fold`), in a second reading with look-alike letters taken
for the Latin letters they imitate (:func:`provider.wiki.lookalike.latin_skeleton`), and
in a third with obfuscated spellings written plainly (*I N T E R N A L*, *St4ff*):

* a **staff noun** (*staff*, *employees*, *agents*, *helpdesk*, *back office*, *support
  team*, *Tier 2 agents*, *Mitarbeiter*, *personal* (sv), *henkilökunta*, *çalışanlar*,
  *nhân viên*…); an **insider** word (*internal*, *intern*, *внутренний*, *dahili*,
  *sisäinen*…), which counts only in the firmer patterns;
* an **only** word, a **reserved** word, a **for** word, a **use**, **note** or
  **procedure** word (*use*, *notes*, *playbook*);
* a **do-not-share** phrase, which says it alone.

The text restricts its readers when (:func:`restricts_readers`):

1. it holds a do-not-share phrase (not advice: *Do not share your API key*), a lock or
   no-eyes sign with nothing but restriction words (*🔒*, *🔒 Internal*), a fixed phrase
   (*للاستخدام الداخلي فقط*, *לעובדים בלבד*), or, in a script written without spaces, a staff
   noun bound to a restriction (``社内向け``), notes of insiders (``内部メモ``) or a
   do-not-share phrase (``社外秘``);
2. a staff or insider noun is followed by an only or reserved word (*Helpdesk only*,
   *Mitarbeitern vorbehalten*), unless a product feature's noun follows (*Employees only
   sign-in*);
3. a staff or insider noun is preceded by an only or reserved word and a for word
   (*Only for employees*, *Endast för personal*), or by an only word when at most a for
   word follows it (*Only staff*, *Vain henkilökunnalle*, *Sadece personel için*);
4. the whole text is a for word and a staff noun, an insider and a use word, notes of
   insiders, a staff procedure or staff use (*For employees*, *Para uso interno*, *Notas
   internas*, *Agent playbook*, *Back-office use*), or a phrase that says it only as
   the whole text (*Need to know*);
5. a staff or insider word is spelled to hide it (letter-spaced, leet, an invisible or
   look-alike character inside): then even alone;
6. any length: a sentence says its own text is not for customers or is for staff
   (:func:`_sentence`: *Please don't show this section to end users*, *This article is
   for support agents*).

Texts are also read part by part (split at a spaced dash, a colon, brackets). What does
not fire, measured on every corpus in ``../shared/corpora`` by ``bench/heuristics.py``:
a staff noun without a restriction (*Tools for agents*, *Support team*), an insider word
as a technical term in any language (*Internal*, *Internal DNS*, *Dahili depolama*,
*Jaringan internal*, *内部実装*), a support tier alone (*Tier 2 only*: a pricing plan as
often), ordinary sentences about customers (*Customers can share a link with their
team*).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from . import staff_words as words_table
from .alternation import longest_first
from .lookalike import fold, latin_skeleton

__all__ = ["FOR_WORDS", "INSIDER_STEMS", "NO_SHARE", "ONLY_WORDS", "STAFF_STEMS", "STAFF_WORDS", "names_staff_reader",
           "orders_staff", "restricts_readers"]


#: Letters folding keeps that writers interchange with a plain one: Vietnamese ``đ``,
#: Turkish dotless ``ı`` (``yalnızca`` and ``yalnizca`` are one word to a reader).
_PLAIN_LETTERS = str.maketrans({"đ": "d", "ı": "i"})


def _fold(text: str) -> str:
    return fold(text).translate(_PLAIN_LETTERS)


def _fold_all(words: frozenset[str]) -> frozenset[str]:
    return frozenset(_fold(w) for w in words)


def _fold_stems(stems: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(_fold(s) for s in stems))


# The vocabulary (:mod:`provider.wiki.staff_words`) is written as a reader spells it;
# words are compared folded.
STAFF_STEMS = _fold_stems(words_table.STAFF_STEMS)
STAFF_WORDS = _fold_all(words_table.STAFF_WORDS)
INSIDER_STEMS = _fold_stems(words_table.INSIDER_STEMS)
ONLY_WORDS = _fold_all(words_table.ONLY_WORDS)
FOR_WORDS = _fold_all(words_table.FOR_WORDS)
FILLERS = _fold_all(words_table.FILLERS)
_STAFF_AT_END = _fold_all(words_table.STAFF_AT_END)
_TEAM_WORDS = _fold_all(words_table.TEAM_WORDS)
_SUPPORT_WORDS = _fold_all(words_table.SUPPORT_WORDS)
_USE_WORDS = _fold_all(words_table.USE_WORDS)
_RESERVED = _fold_stems(words_table.RESERVED_STEMS)
_NOTE_KIND = _fold_all(words_table.NOTE_WORDS)
_PROCEDURE = _fold_all(words_table.PROCEDURE_WORDS)
_FEATURE = _fold_all(words_table.FEATURE_WORDS)
_COMPOUNDS = {tuple(_fold(w) for w in k): tuple(_fold(w) for w in v) for k, v in words_table.COMPOUNDS.items()}
_COMPOUND_MAX = max(len(k) for k in _COMPOUNDS)
#: The words a compound starts with: at any other word none is looked up.
_COMPOUND_FIRST = frozenset(k[0] for k in _COMPOUNDS)


#: Scripts written without spaces (ja, zh, ko — ko's particles stick to the noun).
_CJK_STAFF = ("社内関係者", "関係者", "社内", "社員", "従業員", "スタッフ", "担当者", "職員", "内部", "內部", "员工",
              "員工", "职员", "工作人员", "工作人員", "客服人员", "客服人員", "客服", "支持团队", "支援團隊",
              "支持人员",
              "サポート担当", "サポートチーム", "关系者", "관계자", "직원", "사내", "내부", "임직원", "상담원",
              "지원팀")
_CJK_AFTER = ("向け", "専用", "限定", "のみ", "限り", "专用", "專用", "전용", "한정", "만")
_CJK_BEFORE = ("仅限", "僅限", "只限", "仅供", "僅供", "只供", "仅", "僅", "限")
_CJK_NO_SHARE = ("社外秘", "部外秘", "外部秘", "请勿外传", "請勿外傳", "不得外传", "不得外傳", "对外保密", "對外保密",
                 "不对外", "不對外", "외부 공유 금지", "외부공유금지", "대외비", "공유 금지")
#: Notes of insiders ("内部メモ", "内部备注", "내부 메모"); not memory ("内部メモリ", "내부 메모리")
#: nor a database ("内部资料库").
_CJK_INSIDER = ("内部", "內部", "社内", "내부", "사내")
_CJK_NOTES = ("メモ", "ノート", "備考", "备注", "備註", "笔记", "筆記", "资料", "資料", "메모", "노트", "자료", "참고")


def _alternation(words: tuple[str, ...] | frozenset[str] | list[str]) -> str:
    return longest_first(words)


_CJK = re.compile(
    rf"(?:{_alternation(_CJK_BEFORE)})\s?(?:{_alternation(_CJK_STAFF)})"
    rf"|(?:{_alternation(_CJK_STAFF)})\s?(?:{_alternation(_CJK_AFTER)})"
    rf"|(?:{_alternation(_CJK_STAFF)})\s?(?:用|용)\s*$"
    rf"|(?:{_alternation(_CJK_INSIDER)})\s?(?:の\s?)?(?:{_alternation(_CJK_NOTES)})(?![リ리库庫ァ-ヺー])"
    rf"|{_alternation(_CJK_NO_SHARE)}")
#: Forms of :data:`provider.wiki.staff_words.FIXED_FORMS`, folded; a letter on either side
#: makes them part of another word, except in scripts without spaces (Thai).
_FIXED = re.compile(
    r"(?<![^\W_])(?:" + _alternation(tuple(fold(f) for lang, forms in words_table.FIXED_FORMS.items()
                                           if lang != "th" for f in forms)) + r")(?![^\W_]|" + re.escape(
        fold(words_table.FIXED_NOT_BEFORE)) + ")"
    + "|" + _alternation(tuple(fold(f) for f in words_table.FIXED_FORMS["th"])))
#: A lock (🔒 🔐) or a "no eyes" sign (🚫👀) used as a heading's or label's marker.
#: 🔏 (a lock with a pen: "signed, sealed") reads as a lock too. A "no entry" sign (⛔ 🚫)
#: or see-no-evil (🙈) says "keep out" only beside restriction words or alone (``⛔
#: Internal``): before a topic it warns of the topic (``⛔ Deprecated APIs``, ``🚫 Common
#: mistakes``), as a lock before a topic is its icon (``🔒 Security``).
_LOCKS = "\U0001f512\U0001f510\U0001f50f\u26d4\U0001f6ab\U0001f648"
_NO_EYES = re.compile("\U0001f6ab\\s?\U0001f440")
_WORD = re.compile(r"[^\W_]+")
_TIER = re.compile(r"(?:tier|level|stufe|nivel|niveau|livello|poziom|уровень|рівень|taso|seviye|uroven)$")
_TIER_CODE = re.compile(r"[lt][1-4]")
#: Letters a writer puts for others ("1nternal", "St4ff"), and separators between
#: single letters ("I N T E R N A L", "S-t-a-f-f"): the obfuscated spellings of the words
#: that say the most.
_LEET = {"a": "a4@", "e": "e3", "i": "i1!|l", "l": "l1|i", "o": "o0", "s": "s5$", "t": "t7+", "g": "g9"}
_OBFUSCATED_WORDS = ("internal", "intern", "staff", "employees", "employee", "agents", "agent", "only",
                     "confidential", "private", "support", "notes", "helpdesk", "moderators")


def _spelled(word: str) -> str:
    letters = ["[" + re.escape(_LEET.get(ch, ch)) + "]" for ch in word]
    return r"[\s.\-_·*]?".join(letters)


_OBFUSCATED = re.compile(r"(?<![^\W_])(?:" + "|".join(f"(?P<w{i}>{_spelled(w)})" for i, w in
                                                     enumerate(_OBFUSCATED_WORDS)) + r")(?![^\W_])")

#: Staff and insider words of five letters or more that a hasty author misspells
#: (*Stafff only*, *Intenral only*, *Emplyees only*): a word one edit away (a letter
#: added, dropped, changed, or two swapped) is read as the word …
_MISSPELT = {"staff": "staff", "internal": "insider", "employees": "staff", "personnel": "staff",
             "helpdesk": "staff", "moderators": "staff", "supervisors": "staff"}
#: … unless it is a word of its own, measured on the shared corpora (``bench/heuristics.py``).
_REAL_WORDS = frozenset(("stuff", "stiff", "staffs", "staffed", "interval", "intervals", "internals", "internet",
                         "eternal", "intern", "interna", "interne", "interno", "employers", "employer", "employed",
                         "employee", "personal", "moderator", "supervisor", "scaff", "snaff", "stafe"))


def _one_edit_pattern(words: Mapping[str, str]) -> str:
    """A pattern of the spellings one edit from ``words`` after their first letter (for
    :data:`HINT`, which only narrows the search), grouped by that letter: a position of a
    body is tried once per first letter, not once per spelling."""
    by_first: dict[str, set[str]] = {}
    for word in words:
        head, tail = word[0], word[1:]
        forms = {tail[:i] + "." + tail[i + 1 :] for i in range(len(tail))}  # a letter changed
        forms |= {tail[:i] + tail[i + 1 :] for i in range(len(tail))}  # dropped
        forms |= {tail[:i] + "." + tail[i:] for i in range(len(tail) + 1)}  # added
        forms |= {tail[:i] + tail[i + 1] + tail[i] + tail[i + 2 :] for i in range(len(tail) - 1)}  # swapped
        by_first.setdefault(head, set()).update(forms)
    return "|".join(f"{head}(?:{'|'.join(sorted(forms, key=len, reverse=True))})"
                    for head, forms in sorted(by_first.items()))


@lru_cache(maxsize=65_536)
def _misspelt(word: str) -> str | None:
    """The kind of the :data:`_MISSPELT` word ``word`` (folded, ASCII) is one edit from."""
    if len(word) < 4 or not word.isascii() or word in _REAL_WORDS:
        return None
    return next((kind for wanted, kind in _MISSPELT.items()
                 if abs(len(word) - len(wanted)) <= 1 and word != wanted and _edits(word, wanted) <= 1), None)


def _edits(a: str, b: str) -> int:
    """The optimal string alignment distance of ``a`` and ``b`` (adjacent swaps count one)."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def _prefix(phrase: str) -> str:
    """The first words of ``phrase``, at least nine characters when it has them."""
    out = ""
    for word in phrase.split():
        out = f"{out} {word}".strip()
        if len(out) >= 9:
            break
    return out


#: Staff words so short that, as hints, they would match inside most words ("rep" in
#: "report"): :data:`HINT` looks for them as whole words.
_SHORT_STAFF = frozenset(("rep", "reps", "csm", "csms"))


def _hints() -> list[str]:
    """The words and phrase starts :data:`HINT` looks for, folded as a body is (with and
    without :data:`_PLAIN_LETTERS`). Team words are staff only beside a support word,
    which is a hint itself; a customer noun matters only in a sentence with a negation."""
    t = words_table
    raw = {*t.STAFF_STEMS, *(w for w in t.STAFF_WORDS if w not in _SHORT_STAFF), *t.STAFF_AT_END, *t.INSIDER_STEMS,
           *t.PROCEDURE_WORDS,
           *(w for w in t.SUPPORT_WORDS if len(w) > 3 and w not in ("success", "care")),
           *(w for w in t.CUSTOMER_WORDS if len(w) > 6), "customer",
           "client", "tier", "level", "cs rep", "cs team", "ops team", "tlp", "callers", "ticket reply",
           # a text's state (_kept_inside): "…is not public yet", "…stay inside the company"
           "not public", "not yet public", "not publicly", "inside the company", "within the company",
           "in house", "between us",
           # "success" and "care" are in most prose: hinted with a team word only
           *(f"{w}{sep}{team}" for w in ("success", "care") for sep in (" ", "-") for team in ("team", "crew", "desk")),
           *(_prefix(p) for p in (*t.NO_SHARE, *t.WHOLE_NO_SHARE)),
           *(sep.join(key) for key in t.COMPOUNDS if len(key) > 1 for sep in " -")}
    return sorted({form for word in raw for form in (fold(word), _fold(word))}, key=len, reverse=True)


#: What a line must contain, lowercased and folded, for :func:`restricts_readers` to be
#: able to fire: a staff or insider word or stem, a support word or tier, a do-not-share
#: phrase's first words, a customer noun, a fixed form, a lock, an obfuscated spelling.
#: Bodies are searched with it before any line is read word by word.
HINT = re.compile(
    _alternation(_hints())
    + r"|\b[lt][1-4]\b|\b(?:" + _alternation(_SHORT_STAFF) + r")\b"
    # Each script's forms behind a test of its first letter: Latin text fails it at once.
    + r"|(?=[\u3040-\u9fff\uac00-\ud7af])(?:" + _alternation(_CJK_STAFF) + "|" + _alternation(_CJK_NO_SHARE) + ")"
    + r"|(?=[\u0590-\u06ff\u0900-\u097f\u0e00-\u0e7f])(?:"
    + _alternation(tuple(fold(f) for forms in words_table.FIXED_FORMS.values() for f in forms)) + ")"
    + f"|[{_LOCKS}]|" + _NO_EYES.pattern
    # Letter-spaced or leet spellings (the plain words are hints above).
    + "|" + "|".join(_spelled(w) for w in ("internal", "staff", "employee", "agent", "confidential"))
    + "|" + _one_edit_pattern(_MISSPELT))


@lru_cache(maxsize=65_536)
def _kind(word: str) -> str:
    """The kind of one folded word (remembered: a page's words repeat, and each is read
    in every reading and part of each line a hint is on): ``staff``, ``insider``, ``only``, ``reserved``,
    ``for``, ``use``, ``note``, ``procedure``, ``filler`` or ``other``."""
    if word in ONLY_WORDS:
        return "only"
    if word in FOR_WORDS:
        return "for"
    if word in STAFF_WORDS or (len(word) > 3 and word.startswith(STAFF_STEMS)):
        return "staff"
    if len(word) > 4 and word.startswith(INSIDER_STEMS):
        return "insider"
    if word.startswith(_RESERVED):
        return "reserved"
    if word in _USE_WORDS:
        return "use"
    if word in _NOTE_KIND:
        return "note"
    if word in _PROCEDURE:
        return "procedure"
    if word in FILLERS:
        return "filler"
    return _misspelt(word) or "other"


def _joined(words: list[str]) -> list[str]:
    """``words`` with the words a reader reads as one (:data:`provider.wiki.staff_words.COMPOUNDS`:
    *back office*, Vietnamese *nhân viên*) replaced by the words they stand for."""
    out: list[str] = []
    i = 0
    while i < len(words):
        if words[i] not in _COMPOUND_FIRST:
            out.append(words[i])
            i += 1
            continue
        for size in range(min(_COMPOUND_MAX, len(words) - i), 0, -1):
            found = _COMPOUNDS.get(tuple(words[i : i + size]))
            if found is not None and not (found == ("only",) and size == 1 and not (
                    (words[i + 1 : i + 2] and words[i + 1] in FOR_WORDS)
                    or tuple(words[i + 1 : i + 3]) in _COMPOUNDS)):
                # A lone "so" or "chi" is only an only word before a for word (só para,
                # chỉ dành cho); "Chi siamo", "so that" bind nothing.
                out.extend(found)
                i += size
                break
        else:
            out.append(words[i])
            i += 1
    return out


# Phrases are compared after compounds are joined, as text is.
NO_SHARE = tuple(dict.fromkeys(tuple(_joined(_fold(p).split())) for p in words_table.NO_SHARE))
_WHOLE_NO_SHARE = frozenset(tuple(_joined(_fold(p).split())) for p in words_table.WHOLE_NO_SHARE)
#: :data:`NO_SHARE` by first word: a text is searched once, not once per phrase.
_NO_SHARE_BY_FIRST: dict[str, list[tuple[str, ...]]] = {}
for _words in NO_SHARE:
    _NO_SHARE_BY_FIRST.setdefault(_words[0], []).append(_words)


#: Words after which "per" is the Italian (or Albanian "për") for word, not the English "each".
_ITALIAN_AFTER_PER = frozenset(("dipendenti", "personale", "agenti", "collaboratori", "moderatori", "uso", "utilizzo",
                                "interno", "staff", "stafin", "stafit", "stafi", "punonjesit", "punonjesve",
                                "personelin", "personelit"))


def _kinds(words: list[str]) -> list[str]:
    """The kind of each word, a team or support tier read as one staff noun
    (*support team*, *internal team*, *Tier 2 agents*, *L2 support*): a tier alone is a
    plan's as often as a support line's (*Tier 2 only* on a pricing page)."""
    kinds = [_kind(w) for w in words]
    for i, word in enumerate(words):
        following = words[i + 1] if i + 1 < len(words) else ""
        after_filler = words[i + 2] if following in FILLERS and i + 2 < len(words) else following
        if word in _SUPPORT_WORDS and following in _TEAM_WORDS:
            kinds[i] = kinds[i + 1] = "staff"
        elif word in _TEAM_WORDS and after_filler in _SUPPORT_WORDS:
            # équipe (de) support, equipo de soporte, team di supporto, команда поддержки
            kinds[i] = "staff"
            kinds[i + (1 if following == after_filler else 2)] = "staff"
        elif _TIER.match(word) and following.isdigit() and len(following) == 1:
            third = words[i + 2] if i + 2 < len(words) else ""
            if third in _SUPPORT_WORDS | _TEAM_WORDS or kinds[i + 2 : i + 3] == ["staff"]:
                kinds[i] = kinds[i + 1] = kinds[i + 2] = "staff"  # Tier 3 support, Level 2 agents
        elif _TIER_CODE.fullmatch(word) and (following in _SUPPORT_WORDS | _TEAM_WORDS
                                             or kinds[i + 1 : i + 2] == ["staff"]):
            kinds[i] = kinds[i + 1] = "staff"  # L2 support, T2 agents
        elif word == "to" and i > 0 and kinds[i - 1] == "note":
            kinds[i] = "filler"  # Note to agents, Notes to staff, Note to support
            if following in _SUPPORT_WORDS and i + 2 == len(words):
                kinds[i + 1] = "staff"
        elif word == "per" and following not in _ITALIAN_AFTER_PER and kinds[i + 1 : i + 2] != ["filler"]:
            kinds[i] = "other"  # English "per agent" (each); Italian "per il personale" (for)
        elif word in _STAFF_AT_END and ((i == len(words) - 1 and i > 0 and _before(kinds, i) in ("for", "only"))
                                        or (i == len(words) - 2 and following in ONLY_WORDS - {"only"})):
            kinds[i] = "staff"  # Endast för personal, Pouze pro personál, Personal endast
    return kinds


def _before(kinds: list[str], i: int) -> str:
    """The kind of the last word before ``i`` that is no filler (``per al personal``)."""
    return next((k for k in reversed(kinds[:i]) if k != "filler"), "")


#: The longest text read for its words' kinds (a heading, a label); a longer one is a
#: sentence, read for do-not-share phrases and the sentence rule only.
_MAX_WORDS = 10
#: The longest text (folded characters) read for the forms of scripts without spaces.
_MAX_CJK_CHARS = 40


def _contains(words: list[str], phrase: tuple[str, ...]) -> bool:
    size = len(phrase)
    return any(tuple(words[i : i + size]) == phrase for i in range(len(words) - size + 1))


def _no_share(words: list[str]) -> str | None:
    for i, word in enumerate(words):
        for phrase in _NO_SHARE_BY_FIRST.get(word, ()):
            end = i + len(phrase)
            if tuple(words[i:end]) != phrase:
                continue
            if end < len(words) and (words[end] in _ADVICE or words[end] in _OPTION_NOUNS):
                # "Do not share your API key with anyone": advice; "a Do not Forward
                # flag", "the Do not share button": a product's option, named
                continue
            return " ".join(phrase)
    return None


_NEGATIONS = _fold_all(words_table.NEGATIONS)
_SHOW = _fold_stems(words_table.SHOW_STEMS)
_SHOW_WORDS = _fold_all(words_table.SHOW_WORDS)
_CUSTOMERS = _fold_all(words_table.CUSTOMER_WORDS)
_TEXT_NOUNS = _fold_all(words_table.TEXT_NOUNS)
_DEICTICS = _fold_all(words_table.DEICTICS)
_FOR_STATEMENT = _fold_all(words_table.FOR_STATEMENT)
#: Staff nouns a sentence names as its readers without doubt: "agents" alone may be the
#: software of an AI SDK ("This guide is for agents that call tools").
_AGENT_NOUNS = frozenset(w for w in STAFF_WORDS if w.startswith(("agent", "агент")))
#: Words opening a condition or a relative clause: a negation after one is not an order.
_CONDITIONS = frozenset(("if", "when", "who", "whether", "unless", "that", "which", "wenn", "falls", "si", "se",
                         "als", "jos", "eger"))
#: Nouns after a do-not-share phrase that make it the name of a product's option.
_OPTION_NOUNS = frozenset(("flag", "flags", "option", "options", "button", "template", "templates", "permission",
                           "permissions", "policy", "label", "labels", "setting", "settings", "feature", "checkbox",
                           "toggle", "restriction"))
#: Words that, beside a negation, make it an order to do the thing ("don't forget to",
#: "n'hésitez pas à").
_UNNEGATING = frozenset(("forget", "oubliez", "oublie", "oublier", "vergessen", "vergiss", "olvide", "olvides",
                         "olvidar", "esqueca", "esquecer", "dimenticare", "dimenticate", "vergeet", "hesitate",
                         "hesitez", "hesiter", "unterlassen", "miss", "fail"))
#: Words after a do-not-share phrase that make it advice about a secret of the reader's
#: ("Do not share your API key"), not about the text.
_ADVICE = frozenset(("your", "their", "his", "her", "any", "passwords", "password", "credentials", "keys", "key",
                     "tokens", "token", "secrets", "pin", "ihr", "ihre", "votre", "vos", "tu", "tus", "sua", "seu"))


#: Words after a text noun that point at the page's own text.
_PLACED = frozenset(("below", "above", "here", "hereafter", "unten", "oben", "ci-dessous", "dessous", "abajo"))


#: Verbs of telling in an order about customers ("Do not tell customers…").
_TELL = frozenset(("tell", "told", "mention", "mentioned", "inform", "informed", "reveal", "revealed", "disclose",
                   "disclosed", "say", "said", "share", "shared", "show", "shown", "know", "learn", "explain",
                   "communicate", "communicated"))
#: Nouns after a customer noun that make it a possessive ("Never share customers' data"):
#: advice about the reader's own customers, not an order to staff.
_POSSESSED = frozenset(("data", "information", "info", "details", "records", "record", "accounts", "account",
                        "passwords", "password", "credentials", "emails", "email", "addresses", "names", "numbers",
                        "files", "pii", "messages", "payment", "cards", "card", "orders", "order", "tickets", "s"))


#: Outsiders an order keeps things from, beside :data:`_CUSTOMERS`: callers of a support
#: line ("Don't let callers know about…"); read in orders only, as an API's callers are
#: no one's customers elsewhere.
_ORDER_OUTSIDERS = frozenset(("callers", "caller", "enduser", "endusers", "users", "user"))
#: Verbs of putting text where a customer reads it ("Never paste this into a ticket reply").
_PASTE = frozenset(("paste", "copy", "include", "put", "quote", "insert", "add", "send", "forward", "share", "use"))
#: The page's own text as the object of :data:`_PASTE`.
_THIS = frozenset(("this", "these", "it", "that", "following"))
#: Replies a customer reads: "a ticket reply", "a reply to the customer", "customer replies".
_REPLIES = frozenset(("reply", "replies", "response", "responses", "answer", "answers", "email", "emails"))


def _into_reply(head: list[str], opening: int) -> str | None:
    """*Never paste this into a ticket reply*, *Don't copy these into a reply to the
    customer*: a verb of putting, the text itself as its object, and a reply a customer
    reads (a ticket's or a customer's). Not advice about the reader's own things
    (*Never paste your API key into a ticket*): the object must be the text."""
    verb = opening + 1
    if verb + 1 >= len(head) or head[verb] not in _PASTE or head[verb + 1] not in _THIS:
        return None
    for j in range(verb + 2, len(head)):
        if head[j] not in _REPLIES:
            continue
        before = head[j - 1] if j > 0 else ""
        after = [w for w in head[j + 1 : j + 4] if _kind(w) != "filler"]
        if before in ("ticket", "support", "customer", "customers", "client", "public") or (
                after[:2] in (["to", w] for w in (*_CUSTOMERS, *_ORDER_OUTSIDERS))):
            return " ".join(head[: j + 1])
    return None


def _order(words: list[str]) -> str | None:
    """An order to staff about what customers must not learn, without pointing at the
    text (issue 24): a negation opening the sentence (*Do not tell customers about…*,
    *Never mention the fee to customers*, *Under no circumstances should customers be
    told…*) with a verb of telling and a customer noun in its first twelve words, or
    *Keep (the following) from customers*. Not advice about the reader's own customers'
    things (*Never share customers' data*) nor a condition."""
    head = words[:12]
    opening = 0
    if head[:1] == ["please"]:
        opening = 1
    if head[opening : opening + 3] == ["under", "no", "circumstances"] or head[opening : opening + 2] == ["do", "not"]:
        opening += 1
    if head[:1] == ["keep"] and "from" in head:
        after = [w for w in head[head.index("from") + 1 :] if _kind(w) != "filler"]
        return " ".join(head[: head.index("from") + 2]) if after[:1] and after[0] in _CUSTOMERS else None
    if opening >= len(head) or head[opening] not in _NEGATIONS:
        return None
    if (reply := _into_reply(head, opening)) is not None:
        return reply
    verbs = [j for j, w in enumerate(head) if j > opening and w in _TELL]
    customers = [j for j, w in enumerate(head) if j > opening and (
        w in _CUSTOMERS or (w in _ORDER_OUTSIDERS and w.startswith("caller")))]
    for c in customers:
        if c + 1 < len(words) and words[c + 1] in _POSSESSED:
            continue
        if any(0 < c - v <= 4 or 0 < v - c <= 2 for v in verbs) and not _ADVICE & set(head[opening:c]):
            return " ".join(head)
    return None


#: Words naming the whole of what follows or precedes by its place ("Everything below").
_EVERYTHING = frozenset(("everything", "anything", "all", "alles", "tout", "todo"))
#: A verb saying what a text is or must stay ("This workaround *is* not public yet",
#: "Everything below *must stay* inside the company").
_BE = frozenset(("is", "are", "be", "remains", "remain", "stays", "stay", "kept", "was", "were"))
#: Adverbs between that verb and the state: "is *still* confidential".
_STATE_FILLERS = frozenset(("still", "currently", "strictly", "for", "now", "only", "to", "must", "should", "yet"))
#: States of a text that keep it from customers: confidential, not public (yet), inside
#: the company. "internal" and "private" count only as the sentence's last word or before
#: a conjunction ("This section is internal and…"), not before a noun ("…is internal DNS").
_KEPT_STATES = tuple(tuple(p.split()) for p in (
    "confidential", "not public", "not yet public", "not publicly available", "not yet publicly available",
    "not for customers", "not for the public", "not customer facing", "inside the company", "within the company",
    "inside the team", "within the team", "inside the organization", "within the organization",
    "inside the organisation", "within the organisation", "in house", "internal only", "staff only",
    "between us"))
_OPEN_STATES = frozenset(("internal", "private"))
_ENDS_STATE = frozenset(("and", "or", "but", "so", "until", "do", "dont", "please"))


def _kept_inside(words: list[str], texts: list[int]) -> str | None:
    """*This workaround is not public yet*, *Everything below is confidential and must
    stay inside the company*, *The following section is internal*: the page's own text
    (``texts``: where :func:`_sentence` found it named) as the subject of a verb of being
    or staying (:data:`_BE`) whose state keeps it from customers (:data:`_KEPT_STATES`).
    Not a product's state (*This API is not public yet* names no text of the page)."""
    for t in texts:
        for j in range(t + 1, min(t + 8, len(words))):
            if words[j] not in _BE:
                continue
            k = j + 1
            while k < len(words) and words[k] in _STATE_FILLERS:
                k += 1
            rest = words[k : k + 5]
            for state in _KEPT_STATES:
                if tuple(rest[: len(state)]) == state:
                    return " ".join(words[t : k + len(state)])
            if rest[:1] and rest[0] in _OPEN_STATES and (len(rest) == 1 or rest[1] in _ENDS_STATE):
                return " ".join(words[t : k + 1])
    return None


def _sentence(words: list[str]) -> str | None:
    """A sentence saying its own text is for staff or not for customers (any length):

    * a negation, a verb of showing, sharing or telling within three words after it, and
      a customer noun, with the page's own text (*this article*, *the following steps*)
      as the verb's object or the sentence's subject, or short as a label (*Do not show
      to customers*): "Please don't show this section to end users", "Customers should
      never see the following steps", "This article must not be shared with customers";
    * its own text said to be for staff: "This article is for support agents".

    Not an instruction: no negation ("Customers can share a link with their team"), no
    text of its own ("Internal notes are not visible to customers"), a condition or a
    relative clause before the negation ("If customers can't see the following steps…",
    "Customers who don't see the button…")."""
    if (order := _order(words)) is not None:
        return order
    texts = [i for i, w in enumerate(words) if w in _DEICTICS and (
        w == "following" or any(n in _TEXT_NOUNS for n in words[i + 1 : i + 4]))]
    # "The steps below", "the information above": the text named after its noun.
    texts += [i for i, w in enumerate(words[:-1]) if w in _TEXT_NOUNS and words[i + 1] in _PLACED]
    # "Everything below", "all of the following": the rest of the page named by place.
    texts += [i for i, w in enumerate(words[:-1]) if w in _EVERYTHING and words[i + 1] in _PLACED]
    if texts and (kept := _kept_inside(words, texts)) is not None:
        return kept
    if any(w in _CUSTOMERS for w in words):
        for i, word in enumerate(words):
            if word not in _NEGATIONS or any(w in _CONDITIONS for w in words[:i]):
                continue
            verbs = [j for j in range(i + 1, min(i + 4, len(words)))
                     if words[j] in _SHOW_WORDS or words[j].startswith(_SHOW)]
            if not verbs or _UNNEGATING & {*words[max(0, i - 1) : verbs[0]]}:
                continue  # "Don't forget to share…", "N'oubliez pas de transmettre…": an order to do it
            # The text is the verb's object (after it) or the sentence's subject (before
            # the negation); a label says it of itself when the verb follows the negation
            # at once and the customers follow the verb ("Do not show to customers").
            if any(t < i or verbs[0] < t <= verbs[0] + 4 for t in texts) or (
                    len(words) <= _MAX_WORDS and (verbs[0] == i + 1 or words[i + 1] in ("be", "to", "ever"))
                    and any(w in _CUSTOMERS for w in words[verbs[0] + 1 : verbs[0] + 5])):
                return " ".join(words[i : i + 6])
    if texts:
        kinds = _kinds(words)  # only here: most sentences name no text of their own
        for i, word in enumerate(words):
            if word in FOR_WORDS and i > 0 and words[i - 1] in _FOR_STATEMENT and any(t < i for t in texts):
                j = i + 1
                while j < len(words) and kinds[j] == "filler":
                    j += 1
                staff = [w for w, k in zip(words[j : j + 3], kinds[j : j + 3], strict=False) if k == "staff"]
                last = max((k for k in range(j, min(j + 3, len(words))) if kinds[k] == "staff"), default=j)
                while last + 1 < len(words) and kinds[last + 1] == "staff":
                    last += 1
                if last + 1 < len(words) and words[last + 1] in ("and", "or", "und", "oder", "et", "ou", "y", "o", "e"):
                    # "for support agents and IT professionals": staff among other readers
                    # (Microsoft Learn's notes to administrators), not staff only.
                    continue
                # "support agents", "Tier 2 agents" count; "agents" alone is an AI SDK's.
                if staff and (len(staff) > 1 or staff[0] not in _AGENT_NOUNS):
                    return " ".join(words[max(0, i - 2) : j + len(staff)])
    return None


def _phrase(words: list[str], obfuscated: bool) -> str | None:
    if (found := _no_share(words)) is not None:
        return found
    kinds = _kinds(words)
    # Fillers and use words carry no meaning of their own here.
    kept = [(w, k) for w, k in zip(words, kinds, strict=True) if k != "filler"]
    shown = [k for _, k in kept]
    if tuple(w for w, k in kept if k != "only") in _WHOLE_NO_SHARE or tuple(w for w, _ in kept) in _WHOLE_NO_SHARE:
        return " ".join(words)
    if obfuscated and set(shown) & {"staff", "insider"} and set(shown) <= {"staff", "insider", "only", "use",
                                                                           "note"}:
        return " ".join(words)  # "I N T E R N A L", "1nternal": nobody spells a term so
    nouns = [i for i, k in enumerate(shown) if k in ("staff", "insider")]
    for i in nouns:
        later = [(w, k) for w, k in kept[i + 1 :] if k not in ("staff", "insider", "use")]
        if later and later[0][1] in ("only", "reserved"):
            if len(later) > 1 and later[1][0] in _FEATURE:
                continue  # "Employees only sign-in": a feature's name, not the text's readers
            return " ".join(w for w, _ in kept[: i + 2])
        start = i
        while start > 0 and shown[start - 1] in ("staff", "insider", "use"):
            start -= 1
        before = shown[max(0, start - 2) : start]
        if before[-1:] == ["reserved"] or (len(before) == 2 and before[0] in ("only", "reserved")
                                           and before[1] == "for"):
            return " ".join(w for w, _ in kept[max(0, start - 2) : i + 1])
        rest = shown[i + 1 :]
        if before[-1:] == ["only"] and all(k in ("staff", "insider", "use", "for") for k in rest):
            return " ".join(w for w, _ in kept[start - 1 :])  # Only staff; Sadece personel için
    # The whole text: a for word and staff (For employees, Personel için), an insider
    # word used by staff (Para uso interno, For internal use), notes of insiders
    # (Internal notes, Notas internas, Notes for agents), a staff procedure (Agent
    # playbook), staff use (Back-office use).
    core = [k for k in shown if k != "only"]
    present = set(core)
    if "for" in present and len(core) > 1 and present <= {"for", "staff", "insider", "use"} and (
            "staff" in present or ("use" in present and core[0] == "for")):
        return " ".join(words)
    if present in ({"insider", "use"}, {"for", "insider", "use"}):
        return " ".join(words)  # Internal use, Intern gebruik, Do użytku wewnętrznego
    if "note" in present and present & {"staff", "insider"} and present <= {"note", "staff", "insider", "for"}:
        return " ".join(words)
    if "procedure" in present and present & {"staff", "insider"} and present <= {"procedure", "staff", "insider"}:
        return " ".join(words)
    if len(kept) == 2 and kept[0][0] in _SUPPORT_WORDS and kept[1][1] == "procedure":
        return " ".join(words)  # Support playbook, Ops runbook, CS macros
    if present == {"staff", "use"} and kept[-1][0] == "use" and len(kept) <= 3 and not (
            {w for w, k in kept if k == "staff"} & _AGENT_NOUNS):
        return " ".join(words)
    return None


def _marked(folded: str) -> str | None:
    """A lock, deny or "no eyes" sign that marks the text as not for customers: a lock
    or deny sign (:data:`_LOCKS`) alone (``🔒``, ``⛔``) or beside words of a restriction
    only (``🔒 Internal``, ``🙈 Staff``), a no-eyes sign anywhere. A sign before a topic
    (``🔒 Security``, ``⛔ Deprecated APIs``) is the topic's icon."""
    if _NO_EYES.search(folded):
        return "🚫👀"
    if not any(lock in folded for lock in _LOCKS):
        return None
    words = _WORD.findall(folded)
    if all(_kind(w) in ("staff", "insider", "only", "use", "note", "filler") for w in words):
        return folded.strip()
    return None


def _deobfuscated(text: str) -> str | None:
    """``text`` with the obfuscated spellings of :data:`_OBFUSCATED_WORDS` written
    plainly, or ``None`` when it holds none."""
    changed = False

    def plain(match: re.Match[str]) -> str:
        nonlocal changed
        word = _OBFUSCATED_WORDS[int(next(k for k, v in match.groupdict().items() if v is not None)[1:])]
        changed = changed or match.group(0) != word
        return word

    out = _OBFUSCATED.sub(plain, text)
    return out if changed else None


#: Names of products' options that read as a restriction: Outlook's and Purview's "Do Not
#: Forward" permission (ms-officedocs-support: "**Do Not Forward**" as a list item).
#: Written otherwise ("Do not forward", "DO NOT FORWARD") the phrase restricts.
_NAMED_OPTIONS = ("Do Not Forward",)
#: Separators between the parts of a heading or label ("Staff only – refunds",
#: "Refunds (staff only)").
_PARTS = re.compile(r"\s[-–—|/·•]\s|[:：()（）\[\]]")
#: Characters nobody types inside a Latin word but to hide it from a byte comparison.
_INVISIBLE_IN_WORD = re.compile("[a-zA-Z][\u00ad\u034f\u180e\u200b-\u200f\u2060-\u2064\ufeff]+[a-zA-Z]")


#: A Traffic Light Protocol marking that restricts who may read (RED, AMBER, AMBER+STRICT;
#: CLEAR, WHITE and GREEN do not) opening a text: ``TLP:RED``, ``TLP: AMBER — refunds``.
TLP_MARKING = re.compile(r"^\W*tlp\s*[:：]?\s*(?:red|amber)(?![^\W_])")


@lru_cache(maxsize=65_536)
def restricts_readers(text: str) -> str | None:
    """The words of ``text`` (a heading, label, note's first line, box title or comment;
    its first 300 characters) that restrict its readers to staff, else ``None``:
    ``"Helpdesk only"`` → ``"helpdesk only"``, ``"Nur für Mitarbeiter"`` → ``"nur fur
    mitarbeiter"``, ``"社内向け"`` → ``"社内向け"``; ``"Tools for agents"``,
    ``"Internal DNS"``, ``"Only internal links"``, ``"Tier 2 only"`` → ``None``. See the
    module docstring for the rule."""
    folded = _fold(text[:300]).strip(" \t:：;-–—.。!！*_()（）[]")
    short = len(folded) <= _MAX_CJK_CHARS * 2
    if (tlp := TLP_MARKING.match(folded)) is not None:
        return tlp.group(0).strip()
    if short and (sign := _marked(folded)) is not None:
        return sign
    if len(folded) <= _MAX_CJK_CHARS and (cjk := _CJK.search(folded)) is not None:
        return cjk.group(0)
    if short and (fixed := _FIXED.search(folded)) is not None:
        return fixed.group(0)
    if any(name in text for name in _NAMED_OPTIONS):
        text = text.replace("Do Not Forward", "the option")
        folded = _fold(text[:300]).strip(" \t:：;-–—.。!！*_()（）[]")
    hidden = _INVISIBLE_IN_WORD.search(text[:300]) is not None
    readings = [(folded, hidden)]
    if not folded.isascii():
        skeleton = folded.translate(latin_skeleton())
        # A Latin word with a look-alike letter in it ("Іnternal") is written to hide it.
        readings.append((skeleton, hidden or any(
            w.isascii() and not o.isascii() and any(c.isascii() for c in o)
            for w, o in zip(_WORD.findall(skeleton), _WORD.findall(folded), strict=False))))
    for reading, _ in list(readings):
        if (plain := _deobfuscated(reading)) is not None:
            readings.append((plain, True))
    for reading, hiding in list(readings):
        parts = _PARTS.split(reading)
        if len(parts) > 1:
            # "Vain henkilökunnalle – Refund overrides": each part is read as a heading.
            readings.extend((part, hiding) for part in parts if part.strip())
    for reading, hiding in readings:
        words = _joined(_WORD.findall(reading.replace("n't", "nt").replace("n’t", "nt")))
        if not words:
            continue
        # A longer text is a sentence, not a heading or a label: "Agents only run tools
        # when…" binds nothing; a do-not-share phrase or the sentence rule still says it.
        found = _no_share(words) if len(words) > _MAX_WORDS else _phrase(words, hiding)
        if found is None:
            found = _sentence(words)
        if found is not None:
            return found
    return None


def orders_staff(text: str) -> str | None:
    """The words of a sentence ``text`` ordering staff to keep something from customers
    (:func:`_order`: *Do not tell customers about…*, *Keep the following from
    customers*), else ``None``. Read folded, as :func:`restricts_readers` reads."""
    folded = _fold(text[:300])
    return _order(_joined(_WORD.findall(folded.replace("n't", "nt").replace("n’t", "nt"))))


#: Words a label naming its readers may add: "Note for agents", "Hinweis für Mitarbeiter".
_NOTE_WORDS = frozenset(("note", "notes", "hinweis", "hinweise", "remarque", "nota", "notas", "opmerking", "uwaga",
                         "примечание", "заметка", "примітка", "anteckning", "notat", "huomautus", "not", "poznamka",
                         "megjegyzes", "catatan", "ghi", "chu"))


def names_staff_reader(text: str) -> bool:
    """Whether ``text`` (a label before a colon) names staff as its readers and nothing
    else, with at most for, only, note words and fillers around: ``"Agents"``, ``"Note
    for agents"``, ``"Support team"``, ``"Für Mitarbeiter"`` → ``True``; ``"Agents SDK"``,
    ``"Note"`` → ``False``."""
    folded = _fold(text[:120])
    for reading in (folded, folded.translate(latin_skeleton())):
        words = _joined(_WORD.findall(reading))
        kinds = _kinds(words)
        if "staff" in kinds and all(k in ("staff", "filler", "for", "only") or w in _NOTE_WORDS
                                    for w, k in zip(words, kinds, strict=True)):
            return True
    return False
