"""Issue 24's third round of leak classes, as hypothesis strategies.

Each builds a public page (``audience: public``) whose author meant :data:`CANARY` to
stay from customers and said so — in words a reader sees through markup, in a place a
label stands (a table header, a lead-in, a heading's suffix, a title-like front matter
value), in vocabulary of more languages and kinds, or with front matter that keeps the
page from search or publishes it later. Balance strategies build the same shapes that
say nothing of the kind (a feature column of yes and no, a deny sign before a topic).
"""

from __future__ import annotations

import datetime as dt
import json

from hypothesis import strategies as st

from tests.wiki.variants import CANARY, LAYOUTS

SECRET = f"Use the override {CANARY} for refunds."
_PAGE = "---\naudience: public\ntitle: Page\n---\n# Page\n\nPublic words about refunds.\n\n"
_AFTER = "\n\n## Public again\n\nMore public words.\n"

#: Labels the earlier rounds already read when written plainly.
LABELS = ("Staff only", "Internal only", "Agents only", "For support staff", "Do not share", "Internal notes",
          "Nur für Mitarbeiter", "Solo para empleados", "社内向け", "Employees only", "Not for customers")


def _page(body: str) -> str:
    return f"{_PAGE}{body}{_AFTER}"


@st.composite
def decorated_label(draw: st.DrawFn) -> tuple[str, str, str]:
    """``(layout, form, page)``: a label split or wrapped by inline markup, after a line
    break, as an HTML box title, in a definition, as an image's title, or a lock with a
    variation selector — each judged as the reader sees the text."""
    layout = draw(st.sampled_from(LAYOUTS))
    label = draw(st.sampled_from(LABELS))
    form = draw(st.sampled_from(["split", "wrapped", "break", "box-title", "definition", "image-title",
                                 "word-emphasis", "lock", "two-lines"]))
    tag = draw(st.sampled_from(["b", "i", "em", "strong", "span", "small", "sup", "sub", "mark", "u"]))
    if form == "split":
        at = draw(st.integers(1, len(label) - 1))
        empty = draw(st.sampled_from([f"<{tag}></{tag}>", "<wbr>", f"<{tag}/>", '<span class="x"></span>']))
        body = f"{label[:at]}{empty}{label[at:]}: {SECRET}"
    elif form == "wrapped":
        body = f"<{tag}>{label}</{tag}> {SECRET}"
    elif form == "break":
        brk = draw(st.sampled_from(["<br>", "<br/>", "<br />", "\\", "  "]))
        body = f"Public words here.{brk}\n{label}: {SECRET}"
    elif form == "box-title":
        cls = draw(st.sampled_from(["admonition-title", "callout-title", "title", "alert-heading"]))
        title = draw(st.sampled_from([label, "Internal"]))
        body = f'<div class="admonition">\n<p class="{cls}">{title}</p>\n<p>{SECRET}</p>\n</div>'
    elif form == "definition":
        body = f"Refunds\n: {label}: {SECRET}"
    elif form == "image-title":
        body = f'![icon](lock.png "{label}") {SECRET}'
    elif form == "word-emphasis":
        at = draw(st.integers(1, len(label.split()[0]) - 1)) if len(label.split()[0]) > 1 else 1
        # Inside a word only asterisks are emphasis (CommonMark): "_F_or" shows its underscores.
        mark = draw(st.sampled_from(["*", "**"]))
        body = f"{mark}{label[:at]}{mark}{label[at:]}: {SECRET}"
    elif form == "lock":
        lock = draw(st.sampled_from(["\U0001f512", "\U0001f510", "\U0001f50f"]))
        selector = draw(st.sampled_from(["", "\ufe0f", "\ufe0e", "\u200b"]))
        where = draw(st.sampled_from(["heading", "bold", "heading-end"]))
        body = {"heading": f"## {lock}{selector}\n\n{SECRET}",
                "bold": f"**{lock}{selector}** {SECRET}",
                "heading-end": f"## Refund override {lock}{selector}\n\n{SECRET}"}[where]
    else:
        first, _, second = label.partition(" ")
        body = f"<{tag}>{first}</{tag}><br><{tag}>{second or first}</{tag}>\n\n{SECRET}"
    return layout, form, _page(body)


@st.composite
def label_place(draw: st.DrawFn) -> tuple[str, str, str]:
    """``(layout, form, page)``: a label in a place a reader takes for one: a table
    header over text cells, a lead-in addressed to agents, a heading whose suffix names
    staff readers."""
    layout = draw(st.sampled_from(LAYOUTS))
    form = draw(st.sampled_from(["header", "lead-in", "suffix"]))
    if form == "header":
        header = draw(st.sampled_from(["Staff only", "Agents only", "Internal only", "For support staff",
                                       "Employees only", "Helpdesk only"]))
        columns = draw(st.integers(0, 2))
        head = "| " + " | ".join([*(f"Col {i}" for i in range(columns)), header]) + " |"
        rule = "|" + "---|" * (columns + 1)
        value = draw(st.sampled_from([SECRET, f"Code {CANARY}", CANARY]))
        row = "| " + " | ".join([*("yes" for _ in range(columns)), value]) + " |"
        body = f"{head}\n{rule}\n{row}"
    elif form == "lead-in":
        lead = draw(st.sampled_from(["Note to agents", "Notes to staff", "Agent tip", "For agents", "Note for agents",
                                     "Staff tip", "Note to support"]))
        mark = draw(st.sampled_from(["*", "**", "_", ""]))
        body = f"{mark}{lead}:{mark} {SECRET}"
    else:
        dash = draw(st.sampled_from([" — ", " – ", " - ", "—", " | "]))
        readers = draw(st.sampled_from(["agents", "staff", "support agents", "support team", "employees",
                                        "helpdesk", "Staff", "Agents only"]))
        body = f"## Refund override{dash}{readers}\n\n{SECRET}"
    return layout, form, _page(body)


#: Keys a site or a search engine shows as the page's title or summary, as YAML paths.
_SHOWN_PATHS = (("excerpt",), ("summary",), ("seo_title",), ("og", "title"), ("seo", "description"),
                ("twitter", "title"), ("meta_description",), ("teaser",), ("abstract",), ("social", "og", "title"))


@st.composite
def shown_front_matter(draw: st.DrawFn) -> tuple[str, str]:
    """``(layout, page)``: a title-like front matter value other than the six title
    fields, at any depth, whose text or opening label says the page is internal."""
    layout = draw(st.sampled_from(LAYOUTS))
    path = draw(st.sampled_from(_SHOWN_PATHS))
    label = draw(st.sampled_from(LABELS))
    value = draw(st.sampled_from([label, f"{label}: refund override", f"[{label}] Refund override"]))
    node: object = value
    for key in reversed(path[1:]):
        node = {key: node}
    line = f"{path[0]}: {json.dumps(node, ensure_ascii=False)}"
    return layout, f"---\naudience: public\ntitle: Page\n{line}\n---\n# Page\n\n{SECRET}\n"


#: ``(template, nouns)`` of the languages added in the third round.
NEW_LANGUAGES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "bg": (("Само за {}", "За {}"), ("служители", "служителите", "персонала")),
    "ca": (("Només per al {}", "Només per a {}", "Per als {}"), ("personal", "empleats", "treballadors")),
    "et": (("Ainult {}",), ("töötajatele", "personalile")),
    "sl": (("Samo za {}", "Izključno za {}"), ("zaposlene", "osebje", "zaposlenike")),
    "hr": (("Samo za {}", "Isključivo za {}"), ("djelatnike", "zaposlenike", "osoblje")),
    "sr": (("Само за {}", "Samo za {}"), ("запослене", "особље", "zaposlene", "osoblje")),
    "lt": (("Tik {}",), ("darbuotojams", "personalui")),
    "lv": (("Tikai {}",), ("darbiniekiem", "personālam")),
    "sw": (("Kwa {} pekee", "{} pekee"), ("wafanyakazi",)),
}
#: Whole phrases: insider procedures, euphemisms, more scripts, staff nouns of the round.
NEW_PHRASES = ("関係者のみ", "ДСП", "סודי", "Internal FAQ", "Agent guidance", "Support playbook", "Runbook (internal)",
               "Under NDA", "Off the record", "Not for distribution", "Ops only", "Supervisors only",
               "Escalation team only", "Back office only", "Moderators only", "Tier 3 support only",
               "L2 agents only", "За вътрешно ползване", "Za interno uporabo", "Tikai iekšējai lietošanai",
               "Kwa matumizi ya ndani", "Ne dijeliti", "Не споделяйте", "Mitte jagada")
#: Staff words a hasty author misspells, and how.
_MISSPELT = ("staff", "internal", "employees", "personnel", "helpdesk", "moderators")


@st.composite
def misspelt(draw: st.DrawFn) -> tuple[str, str]:
    """``(word, misspelling)``: a staff word of :data:`_MISSPELT` one edit away — a letter
    doubled, dropped, or two neighbours swapped (the edits of haste, not another word)."""
    word = draw(st.sampled_from(_MISSPELT))
    at = draw(st.integers(1, len(word) - 2))
    edit = draw(st.sampled_from(["double", "drop", "swap"]))
    if edit == "double" or (edit == "swap" and word[at] == word[at + 1]):
        return word, word[:at] + word[at] + word[at:]
    if edit == "drop":
        return word, word[:at] + word[at + 1 :]
    return word, word[:at] + word[at + 1] + word[at] + word[at + 2 :]


@st.composite
def new_wording(draw: st.DrawFn) -> tuple[str, str, str]:
    """``(layout, phrase, page)``: a heading or label in the round's vocabulary."""
    layout = draw(st.sampled_from(LAYOUTS))
    kind = draw(st.sampled_from(["language", "phrase", "misspelt"]))
    if kind == "language":
        templates, nouns = NEW_LANGUAGES[draw(st.sampled_from(sorted(NEW_LANGUAGES)))]
        phrase = draw(st.sampled_from(templates)).format(draw(st.sampled_from(nouns)))
    elif kind == "phrase":
        phrase = draw(st.sampled_from(NEW_PHRASES))
    else:
        source, word = draw(misspelt())
        # The insider word restricts beside "only" or "use", a staff noun beside "for" too.
        insider = source == "internal"
        templates = ["{} only", "{} use only", "Only {}"] if insider else ["{} only", "For {}", "Only for {}"]
        phrase = draw(st.sampled_from(templates)).format(word.title())
    phrase = draw(st.sampled_from([phrase, phrase.upper(), phrase.lower()])) if phrase.isascii() else phrase
    form = draw(st.sampled_from(["heading", "label", "bold"]))
    body = {"heading": f"## {phrase}\n\n{SECRET}", "label": f"{phrase}: {SECRET}",
            "bold": f"**{phrase}:** {SECRET}"}[form]
    return layout, phrase, _page(body)


#: Orders to staff about customers, without a word pointing at the text.
_ORDERS = ("Do not tell customers about the override {c} when you refund an order.",
           "Don't tell customers that {c} exists, even when they ask for a refund.",
           "Never mention {c} to customers when they call about a refund today.",
           "Under no circumstances should customers be told about the {c} override.",
           "Please do not reveal to customers that the {c} override exists at all.",
           "Keep the following from customers: the override {c} refunds any order.",
           "Keep {c} from customers and use it only when a refund fails twice.")


@st.composite
def order_sentence(draw: st.DrawFn) -> tuple[str, str]:
    """``(layout, page)``: a paragraph whose sentence orders staff to keep something from
    customers, first or after public words, in a section or before any heading."""
    layout = draw(st.sampled_from(LAYOUTS))
    sentence = draw(st.sampled_from(_ORDERS)).format(c=CANARY)
    before = draw(st.sampled_from(["", "Refunds take a day. "]))
    return layout, _page(f"{before}{sentence}")


@st.composite
def kept_from_search(draw: st.DrawFn) -> tuple[str, str]:
    """``(layout, page)``: front matter keeping the page out of search engines and its
    site's sitemap, in any case and form."""
    layout = draw(st.sampled_from(LAYOUTS))
    key, value = draw(st.sampled_from([
        ("noindex", True), ("robots", "noindex"), ("robots", "noindex, nofollow"), ("robots", "NONE"),
        ("ROBOTS", "NOINDEX"), ("sitemap", False), ("sitemap", {"exclude": True}), ("exclude_from_sitemap", "yes"),
        ("nositemap", True),
        # The attacker's members (issue 24, fourth round): a crawler's own robots key, an
        # index switch, a list of meta tags.
        ("googlebot", "noindex"), ("bingbot", "noindex, nofollow"), ("index", False), ("index", "no"),
        ("meta", [{"name": "robots", "content": "noindex"}]),
        ("meta", [{"name": "description", "content": "Refunds"}, {"name": "googlebot", "content": "none"}])]))
    key = draw(st.sampled_from([key, key.upper(), key.capitalize()]))
    line = f"{key}: {json.dumps(value)}"
    lines = ["audience: public", "title: Page", line]
    if draw(st.booleans()):
        lines.reverse()
    return layout, "---\n" + "\n".join(lines) + f"\n---\n# Page\n\n{SECRET}\n"


@st.composite
def later_date(draw: st.DrawFn) -> tuple[str, str, str]:
    """``(layout, key, page)``: a publication or embargo date in the future, or an expiry
    in the past, under any of the names tools and authors give it."""
    layout = draw(st.sampled_from(LAYOUTS))
    future = draw(st.booleans())
    key = draw(st.sampled_from(["publishDate", "publish_date", "release_date", "embargo", "embargo_until",
                                "available_from", "go_live", "launch_date"]
                               if future else ["expiryDate", "expires", "expiry_date", "expiration_date", "sunset",
                                               "end_date", "valid_until"]))
    days = draw(st.integers(2, 30_000))
    when = dt.date.today() + dt.timedelta(days=days if future else -days)
    return layout, key, f"---\naudience: public\ntitle: Page\n{key}: {when.isoformat()}\n---\n# Page\n\n{SECRET}\n"


@st.composite
def wording_balance(draw: st.DrawFn) -> tuple[str, str]:
    """``(layout, page)``: the round's shapes saying nothing restrictive: a feature
    column of yes and no under ``Staff only``, a sign before a topic, a dashed heading
    naming no readers, a customer's own administrators, a tier alone, a sentence of
    advice about the reader's own customers, a definition without a label."""
    layout = draw(st.sampled_from(LAYOUTS))
    body = draw(st.sampled_from([
        f"| Feature | Staff only |\n|---|---|\n| Export | {draw(st.sampled_from(['yes', 'no', '✓', '✗', '—']))} |\n"
        f"| Import | no |\n\n{SECRET}",
        f"## {draw(st.sampled_from(['⛔', '🚫', '🔒', '🔏']))} {draw(st.sampled_from(['Deprecated APIs', 'Security']))}"
        f"\n\n{SECRET}",
        f"## Refunds - {draw(st.sampled_from(['overview', 'FAQ', 'API', 'examples']))}\n\n{SECRET}",
        f"## Admins only\n\n{SECRET}", f"## Tier 3 only\n\n{SECRET}",
        f"Never share customers' data with third parties. {SECRET}",
        f"Refunds\n: a refund returns the money. {SECRET}",
        f'![diagram](d.png "Architecture") {SECRET}',
        f"## Interval only\n\n{SECRET}",
    ]))
    return layout, _page(body)


#: ``(templates, nouns)`` of the languages added in the fourth round (af, cy, eu, gl, is, mk, sq).
FOURTH_LANGUAGES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "af": (("Slegs vir {}", "Vir {} slegs"), ("personeel", "werknemers")),
    "cy": (("{} yn unig",), ("Staff",)),
    "eu": (("{} soilik",), ("Langileentzat", "Langileak")),
    "gl": (("Só para o {}", "Só para {}"), ("persoal", "empregados")),
    "is": (("Aðeins fyrir {}", "{} aðeins"), ("starfsmenn", "starfsfólk", "starfsmönnum")),
    "mk": (("Само за {}",), ("вработени", "вработените")),
    "sq": (("Vetëm për {}", "Vetem per {}"), ("stafin", "punonjësit")),
}
#: Customer-facing roles the fourth round adds as staff nouns.
_ROLES = ("CSMs", "CSM", "Reps", "Account managers", "Success team", "Support crew", "Frontline", "Care team",
          "Front line")
#: Whole phrases of the fourth round: notes of insiders, the Traffic Light Protocol's
#: restricting colours, off limits to customers, between us.
FOURTH_PHRASES = ("Internal-facing notes", "Internal-facing procedures", "TLP:RED", "TLP:AMBER", "TLP: AMBER+STRICT",
                  "Off-limits to customers", "Off limits to clients", "Keep this between us", "Keep it between us")


@st.composite
def fourth_wording(draw: st.DrawFn) -> tuple[str, str, str]:
    """``(layout, form, page)``: issue 24's fourth round: a heading or label in a language
    or with a staff role or phrase the rules lacked, a lead-in naming staff (*Heads-up
    for reps:*), an order without pointer words (*Never paste this into a ticket reply*,
    *Don't let callers know about…*), a dashed suffix naming a crew, a deny sign after a
    heading's words."""
    layout = draw(st.sampled_from(LAYOUTS))
    form = draw(st.sampled_from(["language", "role", "phrase", "lead-in", "order", "suffix", "sign-after"]))
    place = draw(st.sampled_from(["heading", "label", "bold"]))
    phrase = ""
    if form == "language":
        templates, nouns = FOURTH_LANGUAGES[draw(st.sampled_from(sorted(FOURTH_LANGUAGES)))]
        phrase = draw(st.sampled_from(templates)).format(draw(st.sampled_from(nouns)))
    elif form == "role":
        phrase = draw(st.sampled_from(["{} only", "For {} only", "Only for {}"])).format(draw(st.sampled_from(_ROLES)))
    elif form == "phrase":
        phrase = draw(st.sampled_from(FOURTH_PHRASES))
    if phrase:
        body = {"heading": f"## {phrase}\n\n{SECRET}", "label": f"{phrase}: {SECRET}",
                "bold": f"**{phrase}:** {SECRET}"}[place]
    elif form == "lead-in":
        lead = draw(st.sampled_from(["Heads-up for reps", "Heads up for agents", "FYI support crew", "FYI reps",
                                     "Heads-up, support crew", "FYI for CSMs"]))
        end = draw(st.sampled_from([": ", " — ", " – "]))
        mark = draw(st.sampled_from(["", "**"]))
        body = f"{mark}{lead}{mark}{end}{SECRET}"
    elif form == "order":
        body = draw(st.sampled_from([
            f"Never paste this into a ticket reply. {SECRET}",
            f"Do not copy this into a reply to the customer. {SECRET}",
            f"Don't paste these into customer replies. {SECRET}",
            f"Don't let callers know about {CANARY}.",
            f"Never let callers know that {CANARY} exists.",
            f"Do not let clients know about the {CANARY} override.",
            f"Don't let end users know about {CANARY} when they call.",
        ]))
    elif form == "suffix":
        dash = draw(st.sampled_from([" – ", " — ", " - "]))
        crew = draw(st.sampled_from(["support crew", "reps", "CSMs", "care team", "account managers", "frontline"]))
        body = f"## Goodwill override{dash}{crew}\n\n{SECRET}"
    else:
        sign = draw(st.sampled_from(["⛔", "🚫", "⛔\ufe0f", "🔒"]))
        body = f"## Goodwill override {sign}\n\n{SECRET}"
    return layout, form, _page(body)


@st.composite
def fourth_balance(draw: st.DrawFn) -> tuple[str, str]:
    """``(layout, page)``: look-alikes of the fourth round that restrict nothing: a word
    like a role (*Reports only*), the Traffic Light Protocol's open colours, an insider
    word as a technical term (*Internal-facing API*), advice to the reader about their own
    secret, a deny sign before a topic, a lead-in to developers."""
    layout = draw(st.sampled_from(LAYOUTS))
    heading = draw(st.sampled_from(["Reports only", "TLP:CLEAR", "TLP:WHITE", "TLP:GREEN", "Internal-facing API",
                                    "Internal-facing load balancer", "⛔ Deprecated APIs", "🚫 Common mistakes",
                                    "Representatives of the press", "Front line of defence"]))
    body = draw(st.sampled_from([
        f"## {heading}\n\n{SECRET}",
        f"Never paste your API key into a ticket. {SECRET}",
        f"Never paste your password into a ticket reply. {SECRET}",
        f"Heads-up for developers: {SECRET}",
        f"FYI: {SECRET}",
        f"Don't let the build cache grow. {SECRET}",
    ]))
    return layout, _page(body)
