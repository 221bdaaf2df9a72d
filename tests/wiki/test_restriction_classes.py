"""Issue 24's staff-wording classes, second round, read by :func:`restricts_readers` (CONTRACT X2, X5).

Leak classes (each property draws language × kind × position × spelling): languages
the rule did not read (sv, da, no, fi, tr, cs, hu, ro, el, id, ms, tl, vi, ar, he, fa,
hi, th), euphemisms (*Backoffice only*, *Need to know*), notes of insiders in any
language (*Notas internas*, *内部メモ*), signs and obfuscated spellings (*🔒 Internal*,
*I N T E R N A L*, *St4ff only*), and sentences of any length that say their own text is
for staff or not for customers. Balance: ordinary headings and sentences holding the same
words (*Dahili depolama*, *Jaringan internal*, *Tier 2 only* on a pricing page,
*Customers can share a link with their team*) restrict nothing.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from provider.wiki.lookalike import fold
from provider.wiki.restriction import HINT, restricts_readers
from tests.wiki.variants import CANARY

FAST = settings(max_examples=400, deadline=None)

#: Restricting phrases by language and kind, written independently of the rule's tables.
#: Kinds: ``staff`` (a restriction bound to staff), ``insider`` (internal use, notes),
#: ``share`` (do not share, said alone).
LEAKS: dict[str, dict[str, tuple[str, ...]]] = {
    "sv": {"staff": ("Endast för personal", "Endast för anställda", "Enbart för medarbetare", "Personal endast"),
           "insider": ("Intern information", "Endast för internt bruk", "Interna anteckningar"),
           "share": ("Dela inte", "Får inte delas", "Sprid inte")},
    "da": {"staff": ("Kun for medarbejdere", "Kun for ansatte", "Forbeholdt medarbejdere"),
           "insider": ("Kun til intern brug", "Interne noter"), "share": ("Må ikke deles", "Del ikke")},
    "no": {"staff": ("Kun for ansatte", "Bare for medarbeidere", "Forbeholdt ansatte"),
           "insider": ("Kun til intern bruk", "Interne notater"), "share": ("Ikke del", "Må ikke deles")},
    "fi": {"staff": ("Vain henkilökunnalle", "Vain työntekijöille", "Ainoastaan henkilökunnalle"),
           "insider": ("Vain sisäiseen käyttöön", "Sisäiset muistiinpanot"), "share": ("Älä jaa", "Ei saa jakaa")},
    "tr": {"staff": ("Sadece personel için", "Yalnızca çalışanlar için", "Personel için", "Sadece destek ekibi"),
           "insider": ("İç kullanım için", "Dahili notlar", "Sadece dahili kullanım", "Yalnizca dahili"),
           "share": ("Paylaşmayın", "Müşterilerle paylaşmayın")},
    "cs": {"staff": ("Pouze pro zaměstnance", "Jen pro zaměstnance", "Výhradně pro personál"),
           "insider": ("Jen pro interní potřebu", "Pouze pro interní použití", "Interní poznámky"),
           "share": ("Nesdílet", "Nešiřte")},
    "hu": {"staff": ("Csak munkatársaknak", "Kizárólag alkalmazottaknak"),
           "insider": ("Csak belső használatra", "Belső jegyzetek"), "share": ("Ne oszd meg", "Nem nyilvános")},
    "ro": {"staff": ("Doar pentru angajați", "Numai pentru angajați"),
           "insider": ("Uz intern", "Numai pentru uz intern", "Note interne"), "share": ("Nu distribuiți",)},
    "el": {"staff": ("Μόνο για το προσωπικό", "Μόνο για τους υπαλλήλους"),
           "insider": ("Μόνο για εσωτερική χρήση", "Εσωτερικές σημειώσεις"), "share": ("Μην κοινοποιείτε",)},
    "id": {"staff": ("Hanya untuk staf", "Hanya untuk karyawan", "Khusus karyawan", "Khusus untuk petugas"),
           "insider": ("Untuk penggunaan internal", "Catatan internal", "Hanya internal"),
           "share": ("Jangan dibagikan", "Jangan disebarkan")},
    "ms": {"staff": ("Untuk kakitangan sahaja", "Kakitangan sahaja"),
           "insider": ("Untuk kegunaan dalaman sahaja",), "share": ("Jangan kongsi",)},
    "tl": {"staff": ("Para sa mga empleyado lamang",), "insider": ("Panloob lamang",), "share": ("Huwag ibahagi",)},
    "vi": {"staff": ("Chỉ dành cho nhân viên", "Dành cho nhân viên", "Chỉ dành cho đội ngũ hỗ trợ"),
           "insider": ("Chỉ sử dụng nội bộ", "Ghi chú nội bộ", "Thông tin nội bộ", "Lưu hành nội bộ"),
           "share": ("Không chia sẻ", "Không được chia sẻ", "Không dành cho khách hàng")},
    "ar": {"staff": ("للموظفين فقط", "لفريق الدعم فقط"), "insider": ("للاستخدام الداخلي فقط", "ملاحظات داخلية"),
           "share": ("لا تشارك", "لا تنشر")},
    "he": {"staff": ("לעובדים בלבד", "לצוות התמיכה בלבד"), "insider": ("לשימוש פנימי בלבד", "הערות פנימיות"),
           "share": ("אין לשתף", "אין להפיץ")},
    "fa": {"staff": ("فقط برای کارکنان",), "insider": ("فقط برای استفاده داخلی", "یادداشت‌های داخلی"),
           "share": ("منتشر نشود", "به اشتراک نگذارید")},
    "hi": {"staff": ("केवल कर्मचारियों के लिए", "सिर्फ़ कर्मचारियों के लिए"),
           "insider": ("केवल आंतरिक उपयोग के लिए", "आंतरिक नोट्स"), "share": ("साझा न करें", "गोपनीय")},
    "th": {"staff": ("สำหรับพนักงานเท่านั้น", "เฉพาะพนักงาน"), "insider": ("ใช้ภายในเท่านั้น", "บันทึกภายใน"),
           "share": ("ห้ามเผยแพร่", "ห้ามแชร์")},
    "en": {"staff": ("Backoffice only", "Back office only", "CS reps only", "Tier 2 agents only", "Employees only",
                     "Agent playbook", "Support staff only", "L2 support only"),
           "insider": ("Back-office use", "Internal notes", "Internal only", "Internal runbook"),
           "share": ("Not customer-facing", "Need to know", "Do not forward", "Not for external distribution",
                     "Company confidential", "Not for release")},
    "multi": {"staff": ("社内向け", "スタッフ専用", "직원 전용"),
              "insider": ("Interne Notizen", "Notes internes", "Notas internas", "Note interne", "Interne notities",
                          "Notatki wewnętrzne", "Внутренние заметки", "Интерные заметки", "内部メモ", "内部备注",
                          "內部備註", "내부 메모", "社内メモ"),
              "share": ("社外秘", "대외비")},
}
#: Words the obfuscated spellings below apply to (English, Latin letters).
_LEET = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"}


@st.composite
def leak(draw: st.DrawFn) -> str:
    """A heading's or label's text restricting its readers: a language's phrase of one
    kind, alone or beside a topic, in one of several spellings."""
    language = draw(st.sampled_from(sorted(LEAKS)))
    kind = draw(st.sampled_from(sorted(LEAKS[language])))
    phrase = draw(st.sampled_from(LEAKS[language][kind]))
    if kind in ("staff", "share") and language not in ("ar", "he", "fa", "hi", "th", "multi"):
        topic = draw(st.sampled_from(["", "Refund overrides", "Escalations", "Kod rabatowy 2024"]))
        if topic:
            phrase = draw(st.sampled_from([f"{phrase} – {topic}", f"{topic} ({phrase})", f"{phrase}: {topic}"]))
    how = draw(st.sampled_from(["as is", "upper", "lower", "fullwidth", "invisible"]))
    if how == "upper":
        return phrase.upper()
    if how == "lower":
        return phrase.lower()
    if how == "fullwidth":
        return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in phrase)
    if how == "invisible" and len(phrase) > 3:
        at = draw(st.integers(1, len(phrase) - 1))
        if phrase[at - 1].isalpha() and phrase[at].isalpha():
            return phrase[:at] + "\u200b" + phrase[at:]
    return phrase


@st.composite
def obfuscated(draw: st.DrawFn) -> str:
    """An English insider or staff word (or a restriction with it) spelled to escape a
    byte comparison: letter-spaced, leet digits, a look-alike or invisible character;
    alone or with *only* — a spelling nobody uses for a technical term."""
    word = draw(st.sampled_from(["internal", "staff", "employees", "confidential"]))
    how = draw(st.sampled_from(["spaced", "dashed", "leet", "lookalike", "invisible"]))
    if how == "spaced":
        spelled = " ".join(word.upper())
    elif how == "dashed":
        spelled = "-".join(word.capitalize())
    elif how == "leet":
        at = draw(st.sampled_from([i for i, ch in enumerate(word) if ch in _LEET]))
        spelled = word[:at] + _LEET[word[at]] + word[at + 1 :]
    elif how == "lookalike":
        at = draw(st.sampled_from([i for i, ch in enumerate(word) if ch in "aeoci"]))
        spelled = word[:at] + {"a": "\u0430", "e": "\u0435", "o": "\u043e", "c": "\u0441", "i": "\u0456"}[
            word[at]] + word[at + 1 :]
    else:
        spelled = word[:2] + "\u200b" + word[2:]
    return draw(st.sampled_from([spelled, f"{spelled} only", f"🔒 {spelled}"]))


@st.composite
def restricting_sentence(draw: st.DrawFn) -> str:
    """A sentence (often over ten words) saying its own text is for staff or must not
    reach customers."""
    customers = draw(st.sampled_from(["customers", "end users", "clients", "the customer"]))
    text = draw(st.sampled_from(["this article", "this section", "the following steps", "these notes",
                                 "this information", "this page"]))
    form = draw(st.integers(0, 2))
    if form == 0:
        negated = draw(st.sampled_from(["don't", "do not", "never", "please do not", "you must not"]))
        verb = draw(st.sampled_from(["share", "show", "forward", "send", "read out", "disclose"]))
        return f"{negated.capitalize()} {verb} {text} to {customers}, even when they ask for it twice on a call."
    if form == 1:
        modal = draw(st.sampled_from(["should never", "must not", "may not", "shouldn't"]))
        verb = draw(st.sampled_from(["see", "be shown", "be told about", "read"]))
        return f"{customers.capitalize()} {modal} {verb} {text}, which describes how we override limits."
    staff = draw(st.sampled_from(["support agents", "staff", "employees", "the support team", "Tier 2 agents",
                                  "helpdesk staff"]))
    intended = draw(st.sampled_from(["is for", "is only for", "is intended for", "is meant for"]))
    tail = draw(st.sampled_from([" and must not be shared with customers.", ".",
                                 " working the night shift on the refunds queue."]))
    return f"{text.capitalize()} {intended} {staff}{tail}"


#: Ordinary headings with the same words (each a technical or product term, a plan, a
#: language's everyday word).
ORDINARY_HEADINGS = (
    "Tier 2 only", "Plan tier 2 only", "Employees only sign-in", "Agents only sign-in", "Dahili depolama",
    "Dahili API", "Jaringan internal", "Alamat IP internal", "Mạng nội bộ", "Sisäinen verkko", "Interní síť",
    "Belső hálózat", "Εσωτερικό δίκτυο", "Rețea internă", "Intern nätverk", "Internt netværk", "Internal DNS",
    "Only internal links", "For developers", "Untuk pengembang", "Sadece okunur", "Csak olvasható",
    "Pouze pro čtení", "Kun læseadgang", "Endast läsbehörighet", "What you need to know", "内部メモリ",
    "내부 메모리", "内部实现", "🔒 Security", "🔒 Authentication", "Agent usage", "Personal access tokens",
    "For personal use only", "Henkilökunta", "Personel yönetimi", "Karyawan baru", "Nhân viên mới",
    "L2 cache only", "Level 2 only", "Private notes", "Chi siamo", "So that it works", "Internal", "Sisäinen",
    "Dahili", "गोपनीयता नीति", "سياسة الخصوصية", "מדיניות פרטיות", "Tools for agents", "Benefits for employees",
    "Personal data", "Para desarrolladores", "Support team", "Tier 3 support", "Agent notes app",
    # found on the shared corpora by the line diff against the base (ms-officedocs-support,
    # hetzner-tutorials, openai-agents-docs, astro-docs fr)
    "**Do Not Forward**", "directories to backup (use . for /)", "title: Can't delete items from public folder",
    "Per agent", "N'oubliez pas de transmettre `client", "Don't share your passwords with anyone",
    "Can't open SharePoint documents in a local client (rich client) from Chrome when NPAPI plug-in is missing",
)
#: Ordinary sentences with the same words.
ORDINARY_SENTENCES = (
    "Customers can share a link with their team from the dashboard.",
    "Internal notes are not visible to customers, only to agents in your helpdesk.",
    "Do not share your API key with anyone, not even with our support team.",
    "Never share your password; customers can reset it from the sign-in page.",
    "Agents only run tools when the model asks for them, and then they stop.",
    "Bu ayar dahili depolama alanını kullanır ve sunucu yeniden başlatıldığında korunur.",
    "Gunakan alamat IP internal untuk koneksi antar server di jaringan yang sama.",
    "Sisäinen verkko yhdistää palvelimet toisiinsa ilman julkista IP-osoitetta.",
    "Mạng nội bộ kết nối các máy chủ với nhau mà không cần địa chỉ IP công khai.",
    "Customers who don't see the button should refresh this page after signing in.",
    "This article is for customers who want to share a report with their team.",
    "This page is for agents that call tools, and shows how to configure them.",
    "If customers can't see the following steps, ask them to update the app.",
)


@FAST
@given(leak())
@example("Tier 2 agents only")
@example("Chỉ dành cho đội ngũ hỗ trợ")
@example("İç kullanım için")
@example("Staff only – refund overrides")
@example("Personal endast")
def test_x2_a_restriction_in_any_language_and_spelling_is_read(text: str) -> None:
    assert restricts_readers(text) is not None, text
    # Bodies are searched with HINT first: a line it misses is never read.
    assert HINT.search(fold(text).lower()) is not None, text


@FAST
@given(obfuscated())
@example("I N T E R N A L")
@example("S-t-a-f-f only")
@example("1nternal")
@example("St4ff only")
@example("In\u200bternal")
def test_x2_an_obfuscated_spelling_is_a_restriction_even_alone(text: str) -> None:
    assert restricts_readers(text) is not None, text
    # A look-alike letter makes body_markers read the body whatever HINT says.
    assert HINT.search(fold(text).lower()) is not None or "\u0400" <= max(text) <= "\u04ff", text


@FAST
@given(restricting_sentence())
@example("This article is for support agents and must not be shared with customers.")
@example("Please don't show this section to end users.")
@example("Customers should never see the following steps.")
def test_x2_a_sentence_saying_its_text_is_not_for_customers_is_read_at_any_length(text: str) -> None:
    assert restricts_readers(text) is not None, text


@pytest.mark.parametrize("text", [*ORDINARY_HEADINGS, *ORDINARY_SENTENCES])
def test_x5_balance_ordinary_text_with_the_same_words_restricts_nothing(text: str) -> None:
    assert restricts_readers(text) is None, (text, restricts_readers(text))


@pytest.mark.parametrize("text", ["🔒", "🔐", "🚫👀", "🔒 Internal", "🔐 Staff only", "🚫👀 Refund overrides"])
def test_x2_a_lock_alone_or_beside_a_restriction_is_a_marker(text: str) -> None:
    """A lock or a no-eyes sign as a heading's or label's marker. A lock before a topic
    (``🔒 Security``) is the topic's icon and stays public (balance above)."""
    assert restricts_readers(text) is not None


def test_x2_ordinary_words_of_new_languages_in_long_prose_stay_public() -> None:
    """Sentences of the new languages' ordinary technical prose, padded past the
    heading length, hold no do-not-share phrase."""
    for sentence in ORDINARY_SENTENCES:
        assert restricts_readers(f"{sentence} {CANARY} " * 2) is None, sentence
