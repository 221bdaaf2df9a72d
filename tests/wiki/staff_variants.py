"""Authoring variants of issue 24's four leak classes, as hypothesis strategies.

Each builds a page whose front matter says ``audience: public`` and whose author meant
:data:`tests.wiki.variants.CANARY` to stay from customers — said in words in one of the
sites' languages, hidden by the page's HTML, or restricted by a front matter key — in
the many ways an author writes it: languages × restriction words × staff nouns × case ×
look-alike letters × markup (heading, label, note, box title, collapsible label,
comment) × layouts.
"""

from __future__ import annotations

import json

from hypothesis import strategies as st

from tests.wiki.variants import CANARY, LAYOUTS, spelling

#: ``(restriction template, staff nouns)`` per language: ``{}`` is where the noun goes.
STAFF_PHRASES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "en": (("{} only", "Only for {}", "For {}", "Reserved for {}", "{}: do not share", "Exclusively for {}"),
           ("staff", "employees", "agents", "support agents", "helpdesk", "help desk staff", "moderators",
            "Tier 2 agents", "Tier 3 support", "L2 support", "support team", "back office", "CS reps", "internal team",
            "service desk")),
    "de": (("Nur für {}", "{} vorbehalten", "Für {}", "Ausschließlich für {}", "Nur {}"),
           ("Mitarbeiter", "Mitarbeitende", "Mitarbeitern", "Angestellte", "Supportteam", "Kundendienst")),
    "nl": (("Alleen voor {}", "Uitsluitend voor {}", "Voor {}", "{} alleen"),
           ("medewerkers", "werknemers", "personeel", "supportteam")),
    "pt": (("Somente para {}", "Apenas para {}", "Só para {}", "Para {}", "Exclusivo para {}", "Reservado aos {}"),
           ("funcionários", "colaboradores", "agentes", "equipe de suporte")),
    "es": (("Solo para {}", "Sólo para {}", "Únicamente para {}", "Para {}", "Reservado a los {}"),
           ("empleados", "agentes", "trabajadores", "colaboradores", "equipo de soporte")),
    "fr": (("Réservé aux {}", "Uniquement pour les {}", "Pour les {}", "Seulement pour le {}"),
           ("employés", "personnel", "agents", "collaborateurs", "équipe support")),
    "it": (("Solo per i {}", "Riservato ai {}", "Per il {}", "Esclusivamente per i {}"),
           ("dipendenti", "personale", "agenti", "collaboratori")),
    "pl": (("Tylko dla {}", "Wyłącznie dla {}", "Dla {}"), ("pracowników", "personelu", "agentów")),
    "ru": (("Только для {}", "Исключительно для {}", "Для {}"), ("сотрудников", "персонала", "агентов", "работников")),
    "uk": (("Тільки для {}", "Лише для {}", "Для {}"), ("співробітників", "працівників", "персоналу")),
    "sv": (("Endast för {}", "Enbart för {}", "För {}", "{} endast"), ("personal", "anställda", "medarbetare")),
    "da": (("Kun for {}", "For {}", "Udelukkende for {}"), ("medarbejdere", "ansatte", "supportteamet")),
    "no": (("Kun for {}", "Bare for {}", "Forbeholdt {}"), ("ansatte", "medarbeidere", "personalet")),
    "fi": (("Vain {}", "Ainoastaan {}"), ("henkilökunnalle", "työntekijöille", "tukihenkilöille")),
    "tr": (("Sadece {} için", "Yalnızca {} için", "{} için", "Sadece {}"), ("personel", "çalışanlar", "destek ekibi")),
    "cs": (("Pouze pro {}", "Jen pro {}", "Výhradně pro {}", "Pro {}"), ("zaměstnance", "personál", "tým podpory")),
    "hu": (("Csak {}", "Kizárólag {}"), ("munkatársaknak", "alkalmazottaknak")),
    "ro": (("Doar pentru {}", "Numai pentru {}", "Pentru {}"), ("angajați", "angajații", "echipa de suport")),
    "el": (("Μόνο για το {}", "Μόνο για τους {}", "Για {}"), ("προσωπικό", "υπαλλήλους", "εργαζόμενους")),
    "id": (("Hanya untuk {}", "Khusus {}", "Untuk {}", "Khusus untuk {}"), ("staf", "karyawan", "pegawai", "petugas")),
    "ms": (("Untuk {} sahaja", "{} sahaja", "Hanya untuk {}"), ("kakitangan", "staf", "pegawai")),
    "vi": (("Chỉ dành cho {}", "Dành cho {}"), ("nhân viên", "nhóm hỗ trợ")),
}
#: Phrases of scripts written without spaces, and whole phrases of "internal use".
WHOLE_PHRASES = ("社内向け", "社員のみ", "スタッフ専用", "社外秘", "仅限内部", "仅供内部使用", "員工專用", "內部專用",
                 "僅限員工",
                 "请勿外传", "직원 전용", "내부용", "사내 전용", "대외비", "Para uso interno", "Pour usage interne",
                 "Nur für den internen Gebrauch", "Alleen voor intern gebruik", "Для служебного пользования",
                 "Для внутреннего использования", "Do użytku wewnętrznego", "Solo per uso interno", "Nur intern",
                 "Nicht weitergeben", "Ne pas diffuser", "No compartir", "Não divulgar", "Niet delen",
                 "Не распространять", "Intern gebruik",
                 # issue 24's second round: more languages, euphemisms, notes of insiders
                 "Intern information", "Kun til intern brug", "Endast för internt bruk", "Vain sisäiseen käyttöön",
                 "Sisäiset muistiinpanot", "İç kullanım için", "Dahili notlar", "Sadece dahili kullanım",
                 "Interní poznámky", "Jen pro interní potřebu", "Csak belső használatra", "Uz intern",
                 "Εσωτερικές σημειώσεις", "Catatan internal", "Untuk penggunaan internal", "Ghi chú nội bộ",
                 "Chỉ sử dụng nội bộ", "Para sa mga empleyado lamang", "للاستخدام الداخلي فقط", "للموظفين فقط",
                 "ملاحظات داخلية", "לשימוש פנימי בלבד", "לעובדים בלבד", "אין לשתף", "केवल आंतरिक उपयोग के लिए",
                 "केवल कर्मचारियों के लिए", "साझा न करें", "สำหรับพนักงานเท่านั้น", "ห้ามเผยแพร่", "فقط برای کارکنان",
                 "استفاده داخلی", "Dela inte", "Må ikke deles", "Älä jaa", "Paylaşmayın", "Nesdílet",
                 "Jangan dibagikan", "Không chia sẻ", "Backoffice only", "Back-office use", "CS reps only",
                 "Not customer-facing", "Need to know", "Agent playbook", "Tier 2 agents only", "Employees only",
                 "Do not forward", "Not for external distribution", "Company confidential", "Interne Notizen",
                 "Notes internes", "Notas internas", "Note interne", "Interne notities", "Notatki wewnętrzne",
                 "Внутренние заметки", "内部メモ", "内部备注", "內部備註", "내부 메모", "🔐 Staff", "🔒 Internal",
                 "🚫👀 Refund overrides", "I N T E R N A L", "S-t-a-f-f only", "1nternal", "St4ff only")
#: Latin letters a look-alike may replace in an English word.
_SWAP = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "i": "\u0456"}


@st.composite
def staff_phrase(draw: st.DrawFn) -> str:
    """A phrase restricting its readers to staff: a language's restriction around one of
    its staff nouns, or a whole phrase; then written in another case, full-width, or
    with an English word in look-alike letters."""
    if draw(st.integers(0, 4)) == 0:
        phrase = draw(st.sampled_from(WHOLE_PHRASES))
    else:
        templates, nouns = STAFF_PHRASES[draw(st.sampled_from(sorted(STAFF_PHRASES)))]
        phrase = draw(st.sampled_from(templates)).format(draw(st.sampled_from(nouns)))
    how = draw(st.sampled_from(["as is", "upper", "lower", "title", "fullwidth", "lookalike"]))
    if how == "upper":
        return phrase.upper()
    if how == "lower":
        return phrase.lower()
    if how == "title":
        return phrase.title()
    if how == "fullwidth":
        return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in phrase)
    if how == "lookalike":
        swappable = [i for i, ch in enumerate(phrase) if ch in _SWAP]
        if swappable:
            i = draw(st.sampled_from(swappable))
            return phrase[:i] + _SWAP[phrase[i]] + phrase[i + 1 :]
    return phrase


@st.composite
def staff_wording(draw: st.DrawFn) -> tuple[str, str, str]:
    """``(layout, form, text)``: a public page keeping :data:`CANARY` from customers
    with a :func:`staff_phrase` as a heading, a label, a note, a box title, a
    collapsible block's label or a comment that introduces or wraps the text."""
    layout = draw(st.sampled_from(LAYOUTS))
    phrase = draw(staff_phrase())
    secret = f"Agents may use the override {CANARY} here."
    intro = "# Page\n\nPublic words about refunds.\n\n"
    form = draw(st.sampled_from(["heading", "label", "note", "box", "summary", "comment", "comment-wrap"]))
    if form == "heading":
        level = draw(st.integers(2, 4))
        body = f"{intro}{'#' * level} {phrase}\n\n{secret}\n\n{'#' * level} Public again\n\nMore public words.\n"
    elif form == "label":
        label = draw(st.sampled_from([f"**{phrase}:**", f"**{phrase}**:", f"{phrase}:", f"*{phrase}:*"]))
        body = f"{intro}{label} {secret}\n\nMore public words.\n"
    elif form == "note":
        body = f"{intro}> {phrase}\n> {secret}\n\nMore public words.\n"
    elif form == "box":
        box = {"mkdocs": f'!!! note "{phrase}"\n    {secret}\n',
               "docusaurus": f":::note[{phrase}]\n{secret}\n:::\n"}.get(
                   layout, f'!!! note "{phrase}"\n    {secret}\n')
        body = f"{intro}{box}\nMore public words.\n"
    elif form == "summary":
        body = f"{intro}<details><summary>{phrase}</summary>\n\n{secret}\n\n</details>\n\nMore public words.\n"
    elif form == "comment":
        body = f"{intro}<!-- {phrase} -->\n{secret}\n\nMore public words.\n"
    else:
        body = f"{intro}<!-- {phrase}: {secret} -->\n\nMore public words.\n"
    return layout, form, f"---\naudience: public\ntitle: Page\n---\n{body}"


#: Staff wording in the agents' own sense and technical uses: none may hide anything.
STAFF_BALANCE = ("Tools for agents", "Agents", "Running agents", "Support team", "Contact the support team",
                 "Tier 2 pricing", "Internal", "Internal DNS", "Only internal links", "Employees API",
                 "For developers", "For personal use only", "Benefits for employees", "Helpdesk integration",
                 "Moderation tools", "Team settings", "Personal access tokens", "内部実装", "内部構造",
                 "Mitarbeiter verwalten", "Agents SDK", "Create an agent", "Staffing", "Levels", "Collaboration",
                 # issue 24's second round: ordinary uses of the new words
                 "Tier 2 only", "Dahili depolama", "Jaringan internal", "Mạng nội bộ",
                 "Sisäinen verkko", "Interní síť", "Personal access", "内部メモリ", "내부 메모리", "🔒 Security",
                 "What you need to know", "Agent usage", "Customers can share a link with their team",
                 "Henkilökunta", "Personel yönetimi", "Karyawan baru", "Untuk pengembang", "Sadece okunur",
                 "Csak olvasható", "Pouze pro čtení", "Kun læseadgang", "Endast läsbehörighet", "L2 cache only",
                 "Level 2 only", "गोपनीयता नीति", "Chi siamo")


@st.composite
def staff_balance(draw: st.DrawFn) -> tuple[str, str]:
    """``(layout, text)``: a public page whose heading, label or table names staff or a
    tier without restricting its readers (:data:`STAFF_BALANCE`, a pricing table)."""
    layout = draw(st.sampled_from(LAYOUTS))
    phrase = draw(st.sampled_from(STAFF_BALANCE))
    form = draw(st.sampled_from(["heading", "label", "table"]))
    if form == "heading":
        body = f"## {phrase}\n\nEvery {CANARY} word here is public.\n"
    elif form == "label":
        # A term's label, as a glossary writes it: the text names the term again. The
        # insider word alone over text that does not (``**Internal:** code 4417``) is a
        # restriction (tests/wiki/test_label_places.py).
        body = f"**{phrase}:** every {CANARY} word about {phrase.lower()} here is public.\n"
    else:
        body = (f"| Plan | Tier 2 only | Agents only |\n|---|---|---|\n| Pro | yes | no |\n\n"
                f"Every {CANARY} word here is public.\n")
    return layout, f"---\naudience: public\ntitle: Page\n---\n# Page\n\n{body}"


#: ``(style or attribute, what it hides)`` forms of hidden inline HTML.
_HIDDEN_STYLES = ("position:absolute; left:-9999px", "position: absolute; LEFT: -10000px;", "text-indent:-9999px",
                  "margin-left: -5000px", "clip: rect(0 0 0 0); position: absolute", "clip-path: inset(50%)",
                  "color:#fff", "color: white", "color:#FFFFFF", "color: rgb(255, 255, 255)", "color: transparent",
                  "font-size:0", "font-size: 0px", "font-size:0.1px", "display:none", "DISPLAY: NONE",
                  "visibility:hidden", "opacity:0", "width:0;height:0;overflow:hidden", "transform: scale(0)",
                  "color:#fff;background:#fff", "height: 0; overflow: hidden")
_HIDING_CLASSES = ("sr-only", "visually-hidden", "screen-reader-only", "screen-reader-text", "d-none", "hidden",
                   "invisible", "show-for-sr", "visually-hidden-focusable")


@st.composite
def hidden_html(draw: st.DrawFn) -> tuple[str, str]:
    """``(layout, text)``: a public page holding :data:`CANARY` in inline HTML the site
    does not show a reader (style, class, ``hidden`` attribute), in any tag and case, or
    under a meta refresh that sends the reader away first."""
    layout = draw(st.sampled_from(LAYOUTS))
    tag = draw(st.sampled_from(["span", "div", "p", "section", "small"]))
    kind = draw(st.sampled_from(["style", "class", "attribute", "refresh"]))
    if kind == "style":
        style = draw(st.sampled_from(_HIDDEN_STYLES))
        quote = draw(st.sampled_from(['"', "'"]))
        html = f"<{tag} style={quote}{style}{quote}>The {CANARY} override.</{tag}>"
    elif kind == "class":
        html = f'<{tag} class="note {draw(st.sampled_from(_HIDING_CLASSES))}">The {CANARY} override.</{tag}>'
    elif kind == "attribute":
        attribute = draw(st.sampled_from(["hidden", "HIDDEN", 'hidden="hidden"']))
        html = f"<{tag} {attribute}>The {CANARY}.</{tag}>"
    else:
        words = " ".join(["Public words of the old page."] * draw(st.integers(9, 30)))
        delay = draw(st.sampled_from(["0", "1", "0; url=/new/", "3;URL='/new/'"]))
        html = f'<meta http-equiv="refresh" content="{delay}">\n\n{words} The {CANARY} override.'
    inline = draw(st.booleans()) and kind != "refresh"
    body = f"Public words before {html} and after.\n" if inline else f"Public words.\n\n{html}\n\nMore public words.\n"
    return layout, f"---\naudience: public\ntitle: Page\n---\n# Page\n\n{body}"


#: Key names that restrict the readers, in the forms authors use.
_RESTRICTING_KEYS = ("access", "roles", "role", "visibility", "private", "permissions", "required_role",
                     "allowedRoles", "access_level", "x-permissions", "acl", "restricted", "internal", "confidential",
                     "security", "sensitivity", "readers", "viewers", "entitlements", "classification")
_RESTRICTING_VALUES = ("staff", ["agent"], "internal", True, "employees", ["support", "admin"], "agents only",
                       {"level": "internal"}, "private", 2, "restricted", ["Mitarbeiter"])


@st.composite
def restricting_front_matter(draw: st.DrawFn) -> tuple[str, str]:
    """``(layout, text)``: ``audience: public`` beside a key restricting the readers,
    the key in any case or with a look-alike letter, above or below the audience key,
    at the top or under ``params`` (Hugo)."""
    layout = draw(st.sampled_from(LAYOUTS))
    key = draw(st.sampled_from(_RESTRICTING_KEYS))
    key = draw(st.sampled_from([key, key.upper(), key.title(), draw(spelling(key))])).strip()
    value = draw(st.sampled_from(_RESTRICTING_VALUES))
    lines = beside_audience(draw, layout, key, value)
    return layout, "---\n" + "\n".join(lines) + f"\n---\n# Page\n\nThe {CANARY} override.\n"


def beside_audience(draw: st.DrawFn, layout: str, key: str, value: object) -> list[str]:
    """Front matter lines: ``audience: public``, a title and ``key: value`` (JSON
    spelled), the key above or below, or under ``params`` in a Hugo page."""
    line = f"{json.dumps(key, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}"
    lines = ["audience: public", "title: Page", line]
    if draw(st.booleans()):
        lines.reverse()
    if layout == "hugo" and draw(st.booleans()):
        lines = ["audience: public", "title: Page", "params:", f"  {line}"]
    return lines


#: Box openers and the title each shows: ``(layout, opener with {t}, closer)``.
_BOXES = (("mkdocs", '!!! note "{t}"', ""), ("mkdocs", '??? warning "{t}"', ""), ("mkdocs", '???+ tip "{t}"', ""),
          ("mkdocs", "/// note | {t}", "///"), ("mkdocs", "/// details | {t}", "///"),
          ("mkdocs", '=== "{t}"', ""), ("docusaurus", ":::tip {t}", ":::"), ("docusaurus", ":::note[{t}]", ":::"),
          ("docusaurus", ":::caution {t} {{#anchor}}", ":::"))


@st.composite
def titled_box(draw: st.DrawFn) -> tuple[str, str, str, str]:
    """``(layout, text, title, first words)``: a page with a titled box whose title
    does not end with punctuation, in Latin or CJK script."""
    layout, opener, closer = draw(st.sampled_from(_BOXES))
    title = draw(st.sampled_from(["Title here", "Before you start", "Python 3.10+", "Heads up", "注意事項",
                                  "참고 사항", "Important information"]))
    first = draw(st.sampled_from(["The text of the note.", "Run the command first.", "本文です。"]))
    indented = opener.startswith(("!!!", "???", "==="))
    inner = f"    {first}" if indented else first
    box = f"{opener.format(t=title)}\n{inner}\n" + (f"{closer}\n" if closer else "")
    return layout, f"---\naudience: public\ntitle: Page\n---\n# Page\n\nIntro.\n\n{box}\nAfter.\n", title, first
