"""The words :mod:`provider.wiki.restriction` reads, by kind and language (data only).

Each word is written as a reader spells it; :mod:`provider.wiki.restriction` folds them
(:func:`provider.wiki.lookalike.fold`: accents and case dropped, ``för`` → ``for``) and
compares folded text. A word belongs here only when, in a heading or a label, it has no
common meaning that restricts nothing (Indonesian *internal* and Turkish *dahili* are
insider words: they fire only bound to a restriction, as English *internal* does).

Languages: en, de, nl, pt, es, fr, it, pl, ru, uk, sv, da, no, fi, tr, cs, sk, hu, ro, el,
id, ms, tl, vi, bg, ca, et, sl, hr, sr, lt, lv, sw, af, cy, eu, gl, is, mk, sq (read word by
word); ar, he, fa, hi, th (:data:`FIXED_FORMS`, matched as
written); ja, zh, ko (:mod:`provider.wiki.restriction`'s forms without spaces).
"""

from __future__ import annotations

#: Staff nouns read by their stem (every inflection counts); a stem no common word of
#: another meaning starts with.
STAFF_STEMS: tuple[str, ...] = (
    "helpdesk", "servicedesk", "backoffice", "supportteam", "supportmitarbeit", "kundendienst",  # en, de
    "mitarbeit", "angestellt", "beschaftigt", "medewerk", "werknemer", "personeel",  # de, nl
    "funcionari", "empleado", "trabajador", "dipendent", "pracowni",  # pt, es, it, pl
    "сотрудник", "работник", "співробітник", "працівник",  # ru, uk
    "anstalld", "ansatte", "medarbetar", "medarbejder", "medarbeid", "personalen", "personalet",  # sv, da, no
    "henkilokun", "tyontekij", "tukihenkilo",  # fi
    "calısan", "calisan",  # tr
    "zamestnan", "zamestnanc",  # cs, sk
    "munkatars", "alkalmazott",  # hu
    "angajat",  # ro
    "προσωπικ", "υπαλληλ", "εργαζομεν",  # el
    "karyawan", "pegawai", "kakitangan",  # id, ms
    "empleyado", "kawani",  # tl
    # issue 24, third round: bg, ca, et, sl, hr, sr, lt, lv, sw
    "служител", "empleat", "treballador", "tootaja", "zaposlen", "djelatni", "osoblj", "osebj", "запослен",
    "особљ", "darbuotoj", "darbiniek", "wafanyakaz",
    # issue 24, fourth round: eu langileentzat, is starfsmenn/starfsfólk, mk вработени, sq punonjësit
    "langile", "starfsm", "starfsfolk", "вработен", "punonjes",
)
#: Staff nouns read as whole words.
STAFF_WORDS: frozenset[str] = frozenset((
    "staff", "staffs", "staffer", "staffers", "employee", "employees", "employe", "employes", "agent", "agents",
    "agentes", "agenten", "agenti", "agentow", "агент", "агенты", "агентов", "агентам", "агентів", "moderator",
    "moderators", "moderador", "moderadores", "moderateur", "moderateurs", "moderatori", "moderatoren", "модератор",
    "модераторов", "модераторам", "personnel", "personale", "personel", "personelu", "персонал", "персонала",
    "персоналу", "colaborador", "colaboradores", "collaborateur", "collaborateurs", "collaboratori", "helpdesk",
    "servicedesk", "backoffice",
    "personele", "personelin",  # tr
    "staf", "petugas", "agen",  # id, ms
    "tauhan",  # tl
    # Operations staff and supervisors; "admins" are not here: a customer's own
    # administrators are customers ("This article is for Microsoft 365 administrators only").
    "ops", "supervisor", "supervisors", "personalile",
    # Customer-facing roles (issue 24, fourth round): a CSM, a rep, an account manager
    # ("account managers" is joined, below), the frontline.
    "csm", "csms", "rep", "reps", "frontline", "accountmanager", "accountmanagers",
    "persoal", "empregados", "empregado", "empregadas", "stafin", "stafit", "stafi",  # gl, sq
    "personalui", "personalam", "personālam", "персонала",
))
#: A word that is a staff noun only when it ends the text after a for or only word
#: (sv, cs, es "Endast för personal", "Pouze pro personál"): English *personal* restricts
#: nothing ("For personal use only").
STAFF_AT_END: frozenset[str] = frozenset(("personal", "personál"))
#: Words naming a team, which are staff when a support or insider word stands by them.
TEAM_WORDS: frozenset[str] = frozenset((
    "team", "teams", "equipe", "equipes", "equipo", "squadra", "zespol", "zespół", "zespołu", "команда", "команды",
    "команди", "staff", "desk", "engineers", "engineer", "agents", "agent", "rep", "reps", "representatives",
    "representative",
    "teamet", "tiimi", "tiimille", "ekip", "ekibi", "ekibine", "tým", "týmu", "tim", "pasukan", "echipa", "echipei",
    "ομαδα", "ekipa", "ekipi", "komanda", "timu",
    "crew", "crews",
))
SUPPORT_WORDS: frozenset[str] = frozenset((
    "support", "soporte", "suporte", "supporto", "wsparcia", "поддержки", "підтримки", "help", "service", "servicio",
    "cs", "ops", "sales", "internal", "interne", "interno", "interna", "intern", "internes", "internen",
    "tuki", "destek", "podpory", "podpora", "dukungan", "sokongan", "suport", "υποστηριξης", "tamogatas",
    "escalation", "escalations", "podrske", "podpore", "podrška", "подршке", "поддръжка", "palaikymo", "atbalsta",
    "msaada",
    "success", "care", "frontline",  # success team, care team, frontline crew
))
#: Insider words' stems: internal and "official use".
INSIDER_STEMS: tuple[str, ...] = (
    "internal", "intern", "wewnetrzn", "wewnętrzn", "внутренн", "служебн", "внутрішн", "службов", "интерн",
    "dahili",  # tr
    "sisai",  # fi sisäinen, sisäiseen
    "belso",  # hu belső
    "εσωτερικ",  # el
    "dalaman", "panloob",  # ms, tl
    "вътрешн",  # bg
    "vidin",  # lt vidinis, vidiniam
    "iekšēj", "ieksej",  # lv iekšējs
    "sisekasutus", "siseteave", "sisemine", "sisemar",  # et (not "sise" alone: sisestage, sisend)
    "интерн", "ndani",  # sr, sw "ya ndani"
    "داخلي",  # ar (the word alone counts as a label, as "Internal" does)
)
#: Use words: "for internal use".
USE_WORDS: frozenset[str] = frozenset((
    "use", "usage", "gebrauch", "nutzung", "verwendung", "gebruik", "uso", "utilisation", "utilizzo", "użytku",
    "uzytku", "использования", "пользования", "користування", "використання", "purposes", "eyes",
    "bruk", "brug", "bruk", "anvandning", "kayttoon", "kaytto", "kullanım", "kullanim", "kullanıma", "pouziti",
    "pouzitie", "potrebu", "potrebe", "hasznalatra", "hasznalat", "uz", "utilizare", "χρηση", "penggunaan",
    "kegunaan", "pemakaian", "paggamit",
    "uporabo", "uporabu", "upotrebu", "употребу", "ползване", "naudojimui", "lietošanai", "lietosanai",
    "kasutamiseks", "kasutuseks", "matumizi", "upotrebe", "uporabe",
))
#: Only words (placed before or after the noun they restrict).
ONLY_WORDS: frozenset[str] = frozenset((
    "only", "exclusively", "solely", "nur", "ausschliesslich", "alleen", "uitsluitend", "enkel", "somente", "apenas",
    "exclusivamente", "solo", "solamente", "unicamente", "uniquement", "seulement", "exclusivement", "soltanto",
    "esclusivamente", "tylko", "wyłącznie", "wylacznie", "exclusivo", "exclusiva", "exclusivos", "exclusif",
    "exclusive", "esclusivo", "esclusiva", "только", "исключительно", "лише", "тільки", "виключно",
    "endast", "enbart", "uteslutande", "kun", "bare", "udelukkende", "utelukkende", "vain", "ainoastaan", "pelkastaan",
    "sadece", "yalnızca", "yalnizca", "yalnız", "pouze", "jen", "jenom", "vyhradne", "iba", "len", "csak", "kizarolag",
    "doar", "numai", "exclusiv", "μονο", "αποκλειστικα", "hanya", "khusus", "sahaja", "saja", "lamang", "lang",
    "само", "samo", "només", "ainult", "tik", "tikai", "pekee", "isključivo", "izključno", "isključivo",
    "slegs", "unig", "soilik", "aðeins", "adeins", "vetëm", "vetem",  # af, cy, eu, is, sq
))
#: Reserved words: an only and a for in one ("reserved for", "Mitarbeitern vorbehalten").
RESERVED_STEMS: tuple[str, ...] = ("reserved", "reserve", "riservat", "reservad", "vorbehalten", "zarezerwowan",
                                   "предназначен", "призначен", "forbeholdt", "forbehallen", "vyhrazen",
                                   "fenntartva", "rezervat", "προοριζεται")
#: For words.
FOR_WORDS: frozenset[str] = frozenset((
    "for", "fur", "voor", "pour", "para", "per", "dla", "для", "til", "icin", "için", "pro", "pre", "pentru", "για",
    "untuk", "bagi",
    "за", "za", "kwa",
    "vir", "fyrir",  # af, is (sq "për" is read as it is in Italian, restriction._ITALIAN_AFTER_PER)
))
#: Words skipped between the others: articles, possessives, contractions, particles.
FILLERS: frozenset[str] = frozenset((
    "the", "our", "a", "an", "der", "die", "das", "den", "dem", "des", "unsere", "unser", "het", "de", "onze", "o",
    "os", "as", "do", "da", "dos", "nossos", "nossa", "el", "la", "los", "las", "le", "les", "l", "du", "nos",
    "notre", "il", "lo", "i", "gli", "ai", "al", "alla", "agli", "dei", "di", "aos", "ao", "às", "allo", "alle",
    "nostri", "nostro", "au", "aux", "naszych", "nasz", "наших", "all", "todos", "tous", "tutti", "wszystkich",
    "всех", "усіх", "van", "von", "s", "vara", "våra", "vores", "vare", "våre", "το", "τους", "την", "τις", "τον",
    "sa", "mga", "ng", "kami", "kita", "az", "a", "naše", "nase", "bizim",
    "als", "ya", "na", "nashe", "naše",
    "yn",  # cy "Staff yn unig"
))
#: Words of a text that is about the page's text (a note, information): "Internal notes",
#: "Notas internas", "Intern information".
NOTE_WORDS: frozenset[str] = frozenset((
    "note", "notes", "memo", "memos", "information", "info", "remarks", "notiz", "notizen", "hinweis", "hinweise",
    "informationen", "vermerk", "vermerke", "notitie", "notities", "aantekeningen", "informatie", "remarque",
    "remarques", "informations", "nota", "notas", "informacion", "informacoes", "informacao", "informazioni",
    "notatki", "notatka", "uwagi", "informacje", "заметки", "заметка", "примечания", "примечание", "информация",
    "нотатки", "примітки", "примітка", "інформація", "anteckningar", "anteckning", "noter", "notater", "notat",
    "informasjon", "muistiinpanot", "muistiinpanoja", "tiedot", "huomautukset", "notlar", "notu", "bilgi", "bilgiler",
    "poznamky", "poznamka", "informace", "jegyzetek", "megjegyzesek", "informaciok", "notite", "informatii",
    "σημειωσεις", "πληροφοριες", "catatan", "informasi", "maklumat", "tala",
    "бележки", "opombe", "bilješke", "biljeske", "белешке", "beleske", "pastabos", "piezīmes", "piezimes",
    "märkmed", "markmed", "maelezo", "notes", "faq", "faqs", "guidance", "tips", "tip",
    "fyi", "headsup",  # lead-ins: "Heads-up for reps:", "FYI support crew —"
))
#: Words naming a staff procedure: "Agent playbook", "Support runbook".
PROCEDURE_WORDS: frozenset[str] = frozenset(("playbook", "playbooks", "runbook", "runbooks", "handbook", "sop",
                                             "procedures", "procedure", "macros",
                                             "sops"))
#: Nouns a staff restriction may modify as a product feature's name: "Employees only
#: sign-in", "Agent-only fields" — the restriction is the feature's, not the text's.
FEATURE_WORDS: frozenset[str] = frozenset((
    "sign", "signin", "login", "logon", "log", "sso", "mode", "portal", "feature", "features", "setting", "settings",
    "option", "options", "toggle", "checkbox", "flag", "channel", "channels", "group", "groups", "space", "spaces",
    "field", "fields", "view", "views", "filter", "filters", "button", "plan", "plans", "license", "licenses",
    "pricing", "discount", "discounts", "seat", "seats",
))
#: Words saying "not" in the sentence rule (``n't`` is read as ``nt``: *don't* → *dont*).
NEGATIONS: frozenset[str] = frozenset((
    "not", "never", "dont", "doesnt", "shouldnt", "mustnt", "cannot", "cant", "wont", "nicht", "nie", "niemals",
    "pas", "jamais", "no", "nunca", "nao", "niet", "nooit", "non", "mai", "inte", "ikke", "ei", "ala",
))
#: Verbs of showing, sharing or telling, in the sentence rule: stems of five letters or
#: more (every inflection counts) …
SHOW_STEMS: tuple[str, ...] = (
    "share", "sharing", "forward", "disclos", "reveal", "display", "expos", "mention", "communicat", "distribut",
    "publish", "weiterge", "mitteil", "weiterleit", "partag", "montr", "communiqu", "divulg", "transmet", "compart",
    "mostr", "encaminh", "vertel", "doorstu", "reenvi", "ensena", "berätta",
)
#: … and shorter verbs as whole words ("del" is no stem: "delete").
SHOW_WORDS: frozenset[str] = frozenset((
    "show", "shown", "shows", "showing", "tell", "told", "telling", "send", "sent", "sending", "see", "seen", "pass",
    "passed", "give", "given", "read", "zeigen", "zeig", "teilen", "sehen", "voir", "ver", "decir", "dizer", "delen",
    "tonen", "dela", "visa",
))
#: Customer nouns in the sentence rule.
CUSTOMER_WORDS: frozenset[str] = frozenset((
    "customer", "customers", "client", "clients", "endusers", "enduser", "kunden", "kunde", "endkunden",
    "clientes", "cliente", "klanten", "klant", "clienti", "kunder", "kunderna", "asiakkaille", "asiakkaat",
    "musteri", "musteriler", "zakaznikum", "pelanggan",
    # Outsiders in general: only ever read beside a negated verb of showing and the
    # text itself ("This section must not be shown to external users / outsiders").
    "external", "externally", "outsiders", "outside", "extern", "externe", "externen",
))
#: Words after "this", "these" or "the following" that name the page's own text.
TEXT_NOUNS: frozenset[str] = frozenset((
    "article", "section", "page", "information", "info", "content", "note", "notes", "document", "guide",
    "procedure", "steps", "step", "text", "paragraph", "workaround", "part", "details", "macro", "instructions",
    "answer", "process", "runbook", "playbook", "doc", "docs", "material", "script", "faq", "entry",
    "artikel", "abschnitt", "seite", "informationen", "article", "section", "articulo", "seccion", "pagina",
    "secao", "artigo", "informacion",
))
#: Deictic words that, before a :data:`TEXT_NOUNS` noun, point at the text itself.
DEICTICS: frozenset[str] = frozenset(("this", "these", "following", "below", "dieser", "diese", "dieses", "ce",
                                      "cette", "ces", "este", "esta", "estos", "estas", "esse", "essa", "deze", "dit"))
#: Verbs of a staff-audience statement: "This article is for…", "…is intended for…".
FOR_STATEMENT: frozenset[str] = frozenset(("is", "are", "intended", "meant", "written", "only", "solely", "exclusively",
                                           "strictly", "designed"))

#: Do-not-share phrases, read anywhere in a text of any length.
NO_SHARE: tuple[str, ...] = (
    "do not share", "dont share", "do not publish", "dont publish", "do not distribute", "dont distribute",
    "not for customers", "not for the public", "not to be shared", "not to be published", "do not forward",
    "dont forward", "do not disclose", "dont disclose", "do not circulate", "not for external distribution",
    "not for external use", "not for distribution", "not for release", "not customer facing", "not client facing",
    "non customer facing", "not public facing", "off limits to customers", "off limits to clients",
    "off limits for customers", "keep this between us", "keep it between us", "keep this between ourselves",
    "not for external eyes", "company confidential",
    "need to know basis", "internal distribution only", "for internal distribution", "not to be forwarded",
    "under nda", "nda only", "off the record", "not for general distribution", "not for circulation",
    "do not tell customers", "dont tell customers", "never tell customers", "keep from customers",
    "ne deli", "ne delite", "ne deliti", "ne dijeli", "ne dijelite", "ne dijeliti", "не делити", "не делите",
    "не споделяйте", "не споделяй", "не за клиенти", "nesidalinkite", "nedalinti", "ne klientams", "nedalīties",
    "nedalities", "nav paredzets klientiem", "mitte jagada", "arge jagage", "mitte klientidele", "usishiriki",
    "si kwa wateja", "no compartiu", "no per a clients",
    "nicht weitergeben", "nicht teilen", "nicht veroffentlichen", "nicht fur kunden", "nicht an kunden",
    "nicht weiterleiten",
    "ne pas partager", "ne pas diffuser", "ne pas publier", "ne pas divulguer", "pas pour les clients",
    "ne pas transmettre",
    "no compartir", "no publicar", "no divulgar", "no para clientes", "no distribuir", "no reenviar",
    "nao compartilhar", "nao divulgar", "nao publicar", "nao partilhar", "nao para clientes", "nao encaminhar",
    "non condividere", "non divulgare", "non pubblicare", "non diffondere", "non per i clienti",
    "niet delen", "niet publiceren", "niet verspreiden", "niet voor klanten", "niet doorsturen",
    "nie udostepniac", "nie publikowac", "nie rozpowszechniac", "nie dla klientow",
    "не распространять", "не публиковать", "не передавать", "не разглашать", "не для клиентов",
    "не поширювати", "не публікувати", "не для клієнтів",
    "dela inte", "far inte delas", "sprid inte", "inte for kunder", "ej for kunder", "far ej spridas",
    "del ikke", "ma ikke deles", "må ikke deles", "ikke for kunder", "ikke del", "ma ikke videregives",
    "ala jaa", "ei saa jakaa", "ei asiakkaille", "ei julkinen", "ala julkaise",
    "paylasmayın", "paylasmayin", "paylasılmamalıdır", "musterilerle paylasmayın", "musterilerle paylasmayin",
    "yayınlamayın", "yayinlamayin",
    "nesdilet", "nesirte", "nezverejnovat", "ne pro zakazniky", "nesdielat",
    "ne oszd meg", "ne osszuk meg", "nem nyilvanos", "ne tegye kozze",
    "nu distribuiti", "nu partajati", "nu publicati", "nu pentru clienti",
    "μην κοινοποιειτε", "να μην κοινοποιηθει", "οχι για πελατες", "μην το μοιραστειτε",
    "jangan dibagikan", "jangan disebarkan", "jangan bagikan", "jangan sebarkan", "bukan untuk pelanggan",
    "jangan kongsi", "huwag ibahagi", "huwag ipamahagi", "hindi para sa mga customer",
    "không chia sẻ", "không công khai", "không dành cho khách hàng", "không được chia sẻ", "không phát tán",
)
#: Phrases that restrict only as the whole text (a heading or label saying nothing else):
#: "What you need to know" is no restriction, "Need to know" as a label is.
WHOLE_NO_SHARE: tuple[str, ...] = ("need to know", "for your eyes only", "eyes only", "internal facing",
                                   # he "secret", ru/uk "for official use" (ДСП, ДСК), confidential in
                                   # bg, ca, et, sl, hr, sr, lt, lv, sw: as the whole text only
                                   # ("Zaupno ravnanje s podatki" is a privacy heading)
                                   "סודי", "дсп", "дск", "поверително", "confidencial", "konfidentsiaalne",
                                   "zaupno", "povjerljivo", "poverljivo", "поверљиво", "konfidencialu",
                                   "konfidenciāli", "konfidenciali", "under nda",
                                   "internal eyes", "company internal",
                                   # Traffic Light Protocol: RED and AMBER restrict who may
                                   # read; CLEAR, WHITE and GREEN do not
                                   "tlp red", "tlp amber", "tlp amber strict", "just between us",
                                   "konfidentiellt", "fortroligt", "fortrolig",
                                   "konfidensielt", "luottamuksellinen", "duverne", "bizalmas",
                                   "confidențial", "εμπιστευτικο", "kumpidensyal", "tuyet mat")
#: Words spelled as two that a reader reads as one, by language: the words they stand for.
COMPOUNDS: dict[tuple[str, ...], tuple[str, ...]] = {
    ("back", "office"): ("backoffice",), ("help", "desk"): ("helpdesk",), ("service", "desk"): ("servicedesk",),
    ("end", "users"): ("endusers",), ("end", "user"): ("enduser",), ("eyes", "only"): ("use", "only"),
    ("nhan", "vien"): ("staff",), ("noi", "bo"): ("internal",), ("danh", "cho"): ("for",), ("chi",): ("only",),
    ("su", "dung"): ("use",), ("ghi", "chu"): ("notes",), ("thong", "tin"): ("information",),
    ("đội", "ngũ", "hỗ", "trợ"): ("support", "team"), ("nhóm", "hỗ", "trợ"): ("support", "team"),
    ("khách", "hàng"): ("customers",), ("lưu", "hành", "nội", "bộ"): ("internal", "use"),
    ("ic", "kullanım"): ("internal", "use"), ("ic", "kullanim"): ("internal", "use"),
    ("sirket", "ici"): ("internal",), ("kurum", "ici"): ("internal",), ("musteri", "temsilcileri"): ("staff",),
    ("müşteri", "temsilcileri"): ("staff",),
    ("account", "managers"): ("accountmanagers",), ("account", "manager"): ("accountmanager",),
    ("front", "line"): ("frontline",), ("heads", "up"): ("headsup",), ("internal", "facing"): ("internalfacing",),
    ("so",): ("only",),  # pt "só" (folded); read as only only before a for word, below
}
#: Forms read as written, in scripts whose words the word-by-word reading cannot split
#: (Arabic, Hebrew and Persian prefixes; Devanagari and Thai vowel signs): each a phrase
#: that says "not for customers" in a heading or label. Matched after folding, at word
#: boundaries where the script has them.
FIXED_FORMS: dict[str, tuple[str, ...]] = {
    "ar": ("للاستخدام الداخلي", "استخدام داخلي فقط", "داخلي فقط", "للموظفين فقط", "فقط للموظفين", "مخصص للموظفين",
           "خاص بالموظفين", "للعاملين فقط", "للطاقم فقط", "لفريق الدعم فقط", "لفريق العمل فقط", "لا تشارك",
           "لا تنشر", "يمنع النشر", "ممنوع النشر", "غير مخصص للعملاء", "ليس للعملاء", "ملاحظات داخلية",
           "معلومات داخلية", "سري للغاية", "سري وخاص", "لا يشارك مع العملاء", "وثيقة داخلية"),
    "he": ("לשימוש פנימי", "פנימי בלבד", "לעובדים בלבד", "לצוות בלבד", "לצוות התמיכה בלבד", "לנציגים בלבד",
           "לסוכנים בלבד", "אין לשתף", "אין להפיץ", "אין לפרסם", "לא ללקוחות", "הערות פנימיות", "מידע פנימי",
           "סודי ביותר", "חסוי", "מסמך פנימי", "לא לשיתוף", "לא להפצה", "לא לפרסום"),
    "fa": ("فقط برای کارکنان", "فقط کارکنان", "ویژه کارکنان", "برای استفاده داخلی", "استفاده داخلی", "فقط داخلی",
           "محرمانه", "منتشر نشود", "منتشر نکنید", "به اشتراک نگذارید", "یادداشت‌های داخلی", "یادداشت های داخلی",
           "اطلاعات داخلی", "فقط برای پشتیبانی", "برای مشتریان نیست", "فقط برای کارمندان"),
    "hi": ("केवल आंतरिक", "आंतरिक उपयोग", "कर्मचारियों के लिए", "स्टाफ के लिए", "सहायता टीम के लिए",
           "एजेंटों के लिए", "आंतरिक नोट्स", "आंतरिक टिप्पणियाँ", "आंतरिक जानकारी", "गोपनीय", "साझा न करें",
           "शेयर न करें", "ग्राहकों के लिए नहीं", "प्रकाशित न करें", "केवल कर्मचारी", "सिर्फ़ कर्मचारी",
           "सिर्फ कर्मचारी"),
    "th": ("สำหรับพนักงานเท่านั้น", "เฉพาะพนักงาน", "ใช้ภายในเท่านั้น", "ภายในเท่านั้น", "เฉพาะภายใน",
           "ใช้ภายในองค์กร", "ห้ามเผยแพร่", "ห้ามแชร์", "ห้ามเปิดเผย", "บันทึกภายใน", "ลับเฉพาะ", "เอกสารภายใน",
           "ไม่ใช่สำหรับลูกค้า", "สำหรับเจ้าหน้าที่เท่านั้น", "เฉพาะเจ้าหน้าที่"),
}
#: A fixed form followed by these letters is another word (Hindi गोपनीय "confidential",
#: गोपनीयता "privacy").
FIXED_NOT_BEFORE = "ता"
