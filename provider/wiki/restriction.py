"""Words that restrict who may read a text to staff, read by meaning in many languages.

A short text — a heading, a label, a note's first line, a collapsible block's label, a
box title, a comment — says "not for customers" when it binds a **restriction** to a
**reader who is staff** (issue 24). Rather than a list of sentences, the rule reads
words of a few kinds, after Unicode folding (:func:`provider.wiki.lookalike.fold`) and,
in a second reading, with look-alike letters taken for the Latin letters they imitate
(:func:`provider.wiki.lookalike.latin_skeleton`):

* a **staff noun** (:data:`STAFF_STEMS`, :data:`STAFF_WORDS`): *staff*, *employees*,
  *agents*, *helpdesk*, *moderators*, *support team*, a support tier (*Tier 2*, *L2*),
  *Mitarbeiter*, *medewerkers*, *funcionários*, *сотрудников*, *pracowników*… (stems,
  so every inflection counts); an **insider** word (:data:`INSIDER_STEMS`: *internal*,
  *intern*, *interno*, *внутренний*, *служебный*) is one only in the firmer patterns;
* an **only** word (:data:`ONLY_WORDS`: *only*, *nur*, *alleen*, *somente*, *только*,
  *tylko*…), a **reserved** word (*reserved*, *réservé*, *vorbehalten*…), a **for**
  word (:data:`FOR_WORDS`: *for*, *für*, *voor*, *para*, *для*…);
* a **do-not-share** phrase (:data:`NO_SHARE`: *do not share*, *nicht weitergeben*,
  *ne pas diffuser*, *не распространять*…), which says it alone.

The text restricts its readers when (:func:`restricts_readers`):

1. it holds a do-not-share phrase, or, in a script written without spaces, a staff noun
   bound to a restriction (``社内向け``, ``仅限内部``, ``スタッフ専用``, ``직원 전용``) or a
   do-not-share phrase (``社外秘``, ``请勿外传``);
2. a staff or insider noun is followed by an only or reserved word (*Helpdesk only*,
   *Tier 2 only*, *Internal only*, *Mitarbeitern vorbehalten*);
3. a staff or insider noun is preceded by an only or reserved word and a for word
   (*Only for employees*, *Nur für Mitarbeiter*, *Только для сотрудников*, *Réservé aux
   employés*), or by an only word when the noun ends the text (*Only staff*, *Nur
   intern*);
4. the whole text is a for word and a staff noun, or an insider word and a use word
   with or without a for word (*For employees*, *Für Mitarbeitende*, *Para uso interno*,
   *Intern gebruik*).

Articles and possessives (:data:`FILLERS`) are skipped everywhere. What does not fire,
measured on every corpus in ``../shared/corpora`` by ``bench/heuristics.py``: a staff
noun without a restriction (*Tools for agents*, *Support team*, *Agents*), an insider
word as a technical term (*Internal*, *Only internal links*, *内部実装*), a support tier
in prose or a table cell (it is read only in headings, labels, notes and comments).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .lookalike import fold, latin_skeleton

__all__ = ["FOR_WORDS", "INSIDER_STEMS", "NO_SHARE", "ONLY_WORDS", "STAFF_STEMS", "STAFF_WORDS", "names_staff_reader",
           "restricts_readers"]

#: Staff nouns read by their stem (de, nl, pt, es, it, pl, ru, uk), after folding
#: (accents dropped: ``funcionários`` → ``funcionarios``); a stem no English word of
#: another meaning starts with.
STAFF_STEMS: tuple[str, ...] = ("helpdesk", "servicedesk", "mitarbeit", "angestellt", "beschaftigt", "medewerk",
                                "werknemer",
               "personeel", "funcionari", "empleado", "trabajador", "dipendent", "pracowni", "сотрудник",
               "работник", "співробітник", "працівник", "supportteam", "supportmitarbeit", "kundendienst")
#: Staff nouns read as whole words.
STAFF_WORDS = frozenset(("staff", "staffs", "staffer", "staffers", "employee", "employees", "employe", "employes",
                         "employee", "agent", "agents", "agentes", "agenten", "agenti", "agentow", "агент", "агенты",
                         "агентов", "агентам", "агентів", "moderator", "moderators", "moderador", "moderadores",
                         "moderateur", "moderateurs", "moderatori", "moderatoren", "модератор", "модераторов",
                         "модераторам", "personnel", "personale", "personel", "personelu", "персонал", "персонала",
                         "персоналу", "colaborador", "colaboradores", "collaborateur", "collaborateurs",
                         "collaboratori", "helpdesk", "servicedesk"))
#: Words naming a team, which are staff when a support or insider word stands by them.
_TEAM_WORDS = frozenset(("team", "teams", "equipe", "equipes", "equipo", "squadra", "zespol", "zespół", "zespołu",
                         "команда",
                         "команды", "команди", "staff", "desk", "engineers", "engineer", "agents", "agent"))
_SUPPORT_WORDS = frozenset(("support", "soporte", "suporte", "supporto", "wsparcia", "поддержки", "підтримки",
                            "help", "service", "servicio", "cs", "ops", "internal", "interne", "interno",
                            "interna", "intern", "internes", "internen"))
#: Insider words: internal (en, de, nl, fr, es, pt, it, pl, ru, uk) and "official use".
INSIDER_STEMS: tuple[str, ...] = ("internal", "intern", "wewnetrzn", "wewnętrzn", "внутренн", "служебн", "внутрішн",
                                  "службов",
                 "dahili")
_USE_WORDS = frozenset(("use", "usage", "gebrauch", "nutzung", "verwendung", "gebruik", "uso", "utilisation",
                        "utilizzo", "użytku", "uzytku", "использования", "пользования", "користування",
                        "використання", "purposes", "eyes"))
#: Only words (placed before or after the noun they restrict).
ONLY_WORDS = frozenset(("only", "exclusively", "solely", "nur", "ausschliesslich", "alleen", "uitsluitend", "enkel",
                        "somente", "apenas", "exclusivamente", "solo", "solamente", "unicamente", "uniquement",
                        "seulement", "exclusivement", "soltanto", "esclusivamente", "tylko", "wyłącznie",
                        "wylacznie", "exclusivo", "exclusiva", "exclusivos", "exclusif", "exclusive", "esclusivo",
                        "esclusiva", "только", "исключительно", "лише", "тільки", "виключно"))
#: Reserved words: an only and a for in one ("reserved for", "Mitarbeitern vorbehalten").
_RESERVED = ("reserved", "reserve", "riservat", "reservad", "vorbehalten", "zarezerwowan", "предназначен",
             "призначен")
#: For words: "for" in the languages above.
FOR_WORDS = frozenset(("for", "fur", "voor", "pour", "para", "per", "dla", "для"))
#: Words skipped between the others: articles, possessives, contractions.
FILLERS = frozenset(("the", "our", "a", "an", "der", "die", "das", "den", "dem", "des", "unsere", "unser", "het",
                     "de", "onze", "o", "os", "as", "do", "da", "dos", "nossos", "nossa", "el", "la", "los", "las",
                     "le", "les", "l", "du", "nos", "notre", "il", "lo", "i", "gli", "ai", "al", "alla", "agli",
                     "dei", "di", "aos", "ao", "as", "às", "allo", "alle", "nostri", "nostro", "au", "aux", "naszych",
                     "nasz", "наших", "all", "todos",
                     "alle", "tous", "tutti", "wszystkich", "всех", "усіх", "van", "von", "s"))
#: Do-not-share phrases, as folded word sequences.
NO_SHARE = tuple(tuple(p.split()) for p in (
    "do not share", "dont share", "do not publish", "dont publish", "do not distribute", "dont distribute",
    "not for customers", "not for the public", "not to be shared", "not to be published",
    "nicht weitergeben", "nicht teilen", "nicht veroffentlichen", "nicht fur kunden", "nicht an kunden",
    "ne pas partager", "ne pas diffuser", "ne pas publier", "ne pas divulguer", "pas pour les clients",
    "no compartir", "no publicar", "no divulgar", "no para clientes", "no distribuir",
    "nao compartilhar", "nao divulgar", "nao publicar", "nao partilhar", "nao para clientes",
    "non condividere", "non divulgare", "non pubblicare", "non diffondere", "non per i clienti",
    "niet delen", "niet publiceren", "niet verspreiden", "niet voor klanten",
    "nie udostepniac", "nie publikowac", "nie rozpowszechniac", "nie dla klientow",
    "не распространять", "не публиковать", "не передавать", "не разглашать", "не для клиентов",
    "не поширювати", "не публікувати", "не для клієнтів",
))
#: Scripts written without spaces (ja, zh, ko — ko's particles stick to the noun).
_CJK_STAFF = ("社内関係者", "社内", "社員", "従業員", "スタッフ", "担当者", "職員", "内部", "內部", "员工", "員工",
              "职员", "工作人员", "工作人員", "客服人员", "客服人員", "客服", "支持团队", "支援團隊", "支持人员",
              "サポート担当", "サポートチーム", "关系者", "관계자", "직원", "사내", "내부", "임직원", "상담원",
              "지원팀")
_CJK_AFTER = ("向け", "専用", "限定", "のみ", "限り", "专用", "專用", "전용", "한정", "만")
_CJK_BEFORE = ("仅限", "僅限", "只限", "仅供", "僅供", "只供", "仅", "僅", "限")
_CJK_NO_SHARE = ("社外秘", "部外秘", "外部秘", "请勿外传", "請勿外傳", "不得外传", "不得外傳", "对外保密", "對外保密",
                 "不对外", "不對外", "외부 공유 금지", "외부공유금지", "대외비", "공유 금지")


def _alternation(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_CJK = re.compile(
    rf"(?:{_alternation(_CJK_BEFORE)})\s?(?:{_alternation(_CJK_STAFF)})"
    rf"|(?:{_alternation(_CJK_STAFF)})\s?(?:{_alternation(_CJK_AFTER)})"
    rf"|(?:{_alternation(_CJK_STAFF)})\s?(?:用|용)\s*$"
    rf"|{_alternation(_CJK_NO_SHARE)}")
_WORD = re.compile(r"[^\W_]+")
_TIER = re.compile(r"(?:tier|level|stufe|nivel|niveau|livello|poziom|уровень|рівень)$")
_TIER_CODE = re.compile(r"[lt][1-4]")

#: What a line must contain, lowercased and folded, for :func:`restricts_readers` to be
#: able to fire: a staff or insider word or stem, a team or tier, a do-not-share
#: phrase's first words, or a form of a script written without spaces. Bodies are
#: searched with it before any line is read word by word.
HINT = re.compile(
    "|".join(re.escape(fold(s)) for s in sorted({*STAFF_STEMS, *STAFF_WORDS, *INSIDER_STEMS, *_TEAM_WORDS,
                                                 *(w for w in _SUPPORT_WORDS if len(w) > 3), "tier", "level",
                                                 *(" ".join(p[:2]) for p in NO_SHARE)}, key=len, reverse=True))
    + r"|\b[lt][1-4]\b|" + _alternation(_CJK_STAFF) + "|" + _alternation(_CJK_NO_SHARE))


def _kind(word: str) -> str:
    """The kind of one folded word: ``staff``, ``insider``, ``only``, ``reserved``,
    ``for``, ``use``, ``filler`` or ``other``."""
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
    if word in FILLERS:
        return "filler"
    return "other"


def _kinds(words: list[str]) -> list[str]:
    """The kind of each word, a team or support tier read as one staff noun
    (*support team*, *internal team*, *Tier 2*, *L2*)."""
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
            kinds[i] = kinds[i + 1] = "staff"
            if i + 2 < len(words) and words[i + 2] in _SUPPORT_WORDS | _TEAM_WORDS:
                kinds[i + 2] = "staff"  # Tier 3 support, Level 2 agents
        elif _TIER_CODE.fullmatch(word):
            kinds[i] = "staff"
        elif word == "so" and following in FOR_WORDS:
            kinds[i] = "only"  # Portuguese "só para"; English "so" binds nothing
    return kinds


#: The longest text read for its words' kinds (a heading, a label); a longer one is a
#: sentence, read for do-not-share phrases only.
_MAX_WORDS = 10
#: The longest text (folded characters) read for the forms of scripts without spaces.
_MAX_CJK_CHARS = 40


def _no_share(words: list[str]) -> str | None:
    for phrase in NO_SHARE:
        size = len(phrase)
        if any(tuple(words[i : i + size]) == phrase for i in range(len(words) - size + 1)):
            return " ".join(phrase)
    return None


def _phrase(words: list[str]) -> str | None:
    if (found := _no_share(words)) is not None:
        return found
    kinds = _kinds(words)
    # Fillers and use words carry no meaning of their own here.
    kept = [(w, k) for w, k in zip(words, kinds, strict=True) if k != "filler"]
    shown = [k for _, k in kept]
    nouns = [i for i, k in enumerate(shown) if k in ("staff", "insider")]
    for i in nouns:
        after = next((k for k in shown[i + 1 :] if k not in ("staff", "insider", "use")), "")
        if after in ("only", "reserved"):
            return " ".join(w for w, _ in kept[: i + 2])
        start = i
        while start > 0 and shown[start - 1] in ("staff", "insider", "use"):
            start -= 1
        before = shown[max(0, start - 2) : start]
        if before[-1:] == ["reserved"] or (len(before) == 2 and before[0] in ("only", "reserved")
                                           and before[1] == "for"):
            return " ".join(w for w, _ in kept[max(0, start - 2) : i + 1])
        if before[-1:] == ["only"] and all(k in ("staff", "insider", "use") for k in shown[i + 1 :]):
            return " ".join(w for w, _ in kept[start - 1 :])
    # The whole text: a for word and staff (For employees), or an insider word used by
    # staff (Para uso interno, For internal use).
    core = [k for k in shown if k != "only"]
    if core[:1] == ["for"] and len(core) > 1 and set(core[1:]) <= {"staff", "insider", "use"} and (
            "staff" in core or "use" in core):
        return " ".join(words)
    if set(core) == {"insider", "use"} or set(core) == {"for", "insider", "use"}:
        return " ".join(words)  # Internal use, Intern gebruik, Do użytku wewnętrznego
    return None


@lru_cache(maxsize=65_536)
def restricts_readers(text: str) -> str | None:
    """The words of ``text`` (a heading, label, note's first line, box title or comment;
    its first 300 characters) that restrict its readers to staff, else ``None``:
    ``"Helpdesk only"`` → ``"helpdesk only"``, ``"Nur für Mitarbeiter"`` → ``"nur fur
    mitarbeiter"``, ``"社内向け"`` → ``"社内向け"``; ``"Tools for agents"``,
    ``"Internal DNS"``, ``"Only internal links"`` → ``None``. See the module docstring
    for the rule."""
    folded = fold(text[:300]).strip(" \t:：;-–—.。!！*_()（）[]")
    if len(folded) <= _MAX_CJK_CHARS and (cjk := _CJK.search(folded)) is not None:
        return cjk.group(0)
    readings = [folded]
    if not folded.isascii():
        readings.append(folded.translate(latin_skeleton()))
    for reading in readings:
        words = _WORD.findall(reading.replace("n't", "nt").replace("n’t", "nt"))
        if not words:
            continue
        # A longer text is a sentence, not a heading or a label: "Agents only run tools
        # when…" binds nothing; a do-not-share phrase still says it.
        found = _no_share(words) if len(words) > _MAX_WORDS else _phrase(words)
        if found is not None:
            return found
    return None


#: Words a label naming its readers may add: "Note for agents", "Hinweis für Mitarbeiter".
_NOTE_WORDS = frozenset(("note", "notes", "hinweis", "hinweise", "remarque", "nota", "notas", "opmerking", "uwaga",
                         "примечание", "заметка", "примітка"))


def names_staff_reader(text: str) -> bool:
    """Whether ``text`` (a label before a colon) names staff as its readers and nothing
    else, with at most for, only, note words and fillers around: ``"Agents"``, ``"Note
    for agents"``, ``"Support team"``, ``"Für Mitarbeiter"`` → ``True``; ``"Agents SDK"``,
    ``"Note"`` → ``False``."""
    folded = fold(text[:120])
    for reading in (folded, folded.translate(latin_skeleton())):
        words = _WORD.findall(reading)
        kinds = _kinds(words)
        if "staff" in kinds and all(k in ("staff", "filler", "for", "only") or w in _NOTE_WORDS
                                    for w, k in zip(words, kinds, strict=True)):
            return True
    return False


def _fold_all(words: frozenset[str]) -> frozenset[str]:
    return frozenset(fold(w) for w in words)


# The lists above are written as a reader spells them; words are compared folded.
STAFF_WORDS, ONLY_WORDS, FOR_WORDS, FILLERS = map(_fold_all, (STAFF_WORDS, ONLY_WORDS, FOR_WORDS, FILLERS))
_TEAM_WORDS, _SUPPORT_WORDS, _USE_WORDS = map(_fold_all, (_TEAM_WORDS, _SUPPORT_WORDS, _USE_WORDS))
STAFF_STEMS = tuple(fold(s) for s in STAFF_STEMS)
INSIDER_STEMS = tuple(dict.fromkeys(fold(s) for s in INSIDER_STEMS))
NO_SHARE = tuple(tuple(fold(w) for w in p) for p in NO_SHARE)
