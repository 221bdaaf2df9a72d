"""Front matter keys other than ``audience`` that restrict who may read a page (issue 24).

None of these keys can publish a page (only ``audience: public`` does); each can make it
internal, and the page is then quarantined with the key named, because the author meant
something the provider cannot be sure of (CONTRACT X5, the strictest reading wins).

One table, :data:`KEY_KINDS`: for each kind of key name, how its value restricts.

=====================  =====================================  ===========================
kind                   key names (after folding, any case)    the value restricts when
=====================  =====================================  ===========================
``kept out of search`` ``noindex``, ``nositemap``,            it is true
                       ``exclude_from_sitemap``
``kept out of search`` ``robots``, ``sitemap``                ``robots`` says ``noindex``
                                                              or ``none``; ``sitemap:
                                                              false`` or ``{exclude:
                                                              true}``
``kept out of search`` a crawler's key (``googlebot``, any    it says ``noindex`` or
                       ``*bot`` but ``chatbot``)              ``none``
``kept out of search`` ``index``                              it is false (a number is a
                                                              sort order: ``index: 3``)
``kept out of search`` ``meta`` (a list of meta tags)         a tag ``{name: robots,
                                                              content: noindex}``
``intent``             ``visibility``, ``classification``,    always (``visibility:
                       ``private``, ``Sichtbarkeit``,         public`` too: only
                       ``zichtbaarheid``, ``公開範囲``…        ``audience`` publishes)
                       (misspelled by a letter or two)
``restricting part``   a part naming access control           always
                       (``required_role``, ``allowedRoles``,
                       ``x-permissions``, ``ACL``)
``restriction``        the key is a restriction itself        always
                       (``agent_only``, ``hideFromCustomers``)
``status``             ``status``, ``state``, ``review``,     it names a state before
                       ``workflow``, ``stage``, ``Status``,   publication (``draft``,
                       ``estado``, ``状態``…                  ``wip``, ``pending``,
                                                              ``Entwurf``, ``下書き``…)
``publish flag``       ``publish``, ``published``,            it is false
                       ``veröffentlicht``, ``publicar``…
``hidden flag``        ``hidden``, ``unpublished``, ``hide``, it is true (``hide: [toc]``
                       ``verborgen``, ``oculto``…             is a layout switch)
``hidden from          ``hide_from_public``, ``hidePublic``   it is true
readers``
``exposure flag``      a part naming who is shown the page    it is false
                       (``is_public``, ``customerFacing``,
                       ``show_to_customers``; not before a
                       topic noun: ``public_api``)
``sign-in``            ``login_required``, ``gated``,         it is true or "required"
                       ``auth``, ``sso``…
``not ready``          ``wip``, ``todo``, ``inprogress``      it is true
``out of service``     ``retired``, ``archived``,             it is true
                       ``decommissioned``, ``withdrawn``
``not approved``       ``ready``, ``approved``, ``reviewed``, it is false
                       ``released``, ``live``…
any other key but      —                                      it names a restricted
prose and tags                                                readership (``internal``,
                                                              ``intern``, ``社内``, *for
                                                              employees*)
=====================  =====================================  ===========================

``retired``, ``archived``, ``hide``, ``index``, ``meta`` and ``*bot`` keys count only as the
page's own keys (at the top, or under Hugo's ``params``: :func:`page_level_only`), not in a
component or a listed item (``versions: [{archived: true}]``, ``search: {index: false}``).

What stays public, measured on the shared corpora: a restricting adjective naming the
topic's property (``private_repo: true``, ``internal_ip``, ``secret_key_name``) — the key
is about the thing the page documents, not the page; prose keys (``title``) and tags
(``tags: [Agent]``); ``hide: [toc]`` (MkDocs Material's layout switch) and
``hide_title``; Docusaurus ``unlisted: true`` and ``listed: false`` (published, only left
out of lists; ``unlisted`` is read by the publication rules);
``search_exclude: true`` and ``search: {exclude: true}`` (published, only left out of the
site's own search, as translations are). Keys the publication rules read with the docs tools' own meaning
(``draft``, ``published``, ``unlisted``, ``build``, ``headless``) are not read again here.

A page its site keeps out of search engines (``noindex``, ``robots: noindex``, ``sitemap:
false``) is published, but its authors did not mean it to be found; our search is how
customers find pages, so it is internal (agents keep it; fail closed). Left out of the
site's own search box only (``search_exclude: true``, ``search: {exclude: true}``), it
stays public: sites do so for pages found otherwise, translations above all (all 114
ja/ko/zh pages of openai-agents-docs). ``enabled``/``active``/``show: false`` restrict nothing: no docs tool reads
them as publication, and pages use them for components (``comments: {enabled: false}``,
``show: false`` of a menu entry), so reading them would quarantine public pages for a
guess.

A comment in the front matter is read too (:func:`comment_restricts`), on its own line or
after any key: ``audience: public # internal until launch`` and ``tags: [billing]  # legal
hasn't approved this`` say the author does not mean it yet (also ``pending approval``,
``not been approved``); ``# approved by legal`` says nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .flag_keys import FLAG_KEYS
from .lookalike import fold, mentions, near, resembles, squash
from .restriction import restricts_readers

__all__ = ["INTENT_KEYS", "KEY_KINDS", "RESTRICTING_KEY_PARTS", "KeyKind", "comment_restricts", "front_matter_lines",
           "page_level_only", "restricting_kind"]


def _always(_value: Any) -> bool:
    return True


#: Values saying a page is not (yet) published, squashed, in the languages of
#: :mod:`provider.wiki.staff_words`.
_UNPUBLISHED_VALUES = frozenset(squash(v) for v in (
    "draft", "wip", "work in progress", "pending", "unpublished", "not published", "in review", "review",
    "internal", "private", "hidden", "staging", "todo", "embargoed", "entwurf", "in bearbeitung", "intern",
    "borrador", "rascunho", "brouillon", "bozza", "concept", "szkic", "черновик", "чернетка", "utkast", "kladde",
    "luonnos", "taslak", "koncept", "piszkozat", "ciorna", "προσχεδιο", "draf", "ban nhap", "下書き", "草稿",
    "초안", "非公開", "未公開", "不公开", "비공개", "in progress", "needs review", "proposed", "planned",
    "unreleased", "coming soon", "archived", "retired", "em revisao", "em revisão", "작성중", "작성 중", "検討中",
    "準備中", "in arbeit", "en cours", "en revision", "en revisión", "🚧"))
_FALSE = frozenset(("false", "no", "off", "0", "n", "nein", "nee", "non", "nie", "нет", "nej", "ei", "hayır", "ne",
                    "nu", "όχι", "tidak", "khong"))
_TRUE = frozenset(("true", "yes", "on", "1", "y", "ja", "oui", "si", "sim", "tak", "да", "evet", "ano", "igen", "da",
                   "ναι", "ya", "co"))


def _unpublished(value: Any) -> bool:
    return isinstance(value, str) and squash(value) in _UNPUBLISHED_VALUES


def _false(value: Any) -> bool:
    return value is False or value == 0 or (isinstance(value, str) and squash(value) in _FALSE)


def _true(value: Any) -> bool:
    return value is True or (value == 1 and not isinstance(value, float)) or (
        isinstance(value, str) and squash(value) in _TRUE)


#: Key names that say who may read the page, spelled near enough (one or two letters
#: off), in the languages of :mod:`provider.wiki.staff_words`.
INTENT_KEYS = ("visibility", "classification", "internal", "private", "confidential", "public", "exposure",
               "restricted", "sichtbarkeit", "vertraulichkeit", "zichtbaarheid", "visibilidad", "visibilidade",
               "visibilite", "visibilita", "widocznosc", "видимость", "видимість", "synlighet", "synlighed",
               "nakyvyys", "gorunurluk", "viditelnost", "lathatosag", "vizibilitate", "ορατοτητα", "visibilitas",
               "公開範囲", "公開設定", "公開", "可见性", "可見性", "公开范围", "공개범위", "공개", "vertraulich",
               "intern", "interno", "interne", "privat", "privado", "prive", "privato", "konfidentiell")
#: Words that, as a part of a key (``access``, ``required_role``, ``allowedRoles``,
#: ``x-permissions``, ``ACL``), say the key restricts who may read the page.
RESTRICTING_KEY_PARTS = ("access", "role", "roles", "permission", "permissions", "perm", "perms", "acl", "acls",
                         "visibility", "visible", "private", "internal", "confidential", "restricted", "restrict",
                         "restriction", "restrictions", "security", "sensitivity", "secret", "staff", "staffonly",
                         "employees", "readers", "viewers", "audiences", "entitlement", "entitlements", "clearance",
                         "classification", "tlp", "allowed", "authorized", "authorised", "exposure")
#: Restricting adjectives that, before one of :data:`_TOPIC_NOUNS`, name a property of
#: what the page documents (``private_repo``, ``internal_ip``, ``secret_key``).
_ADJECTIVE_PARTS = frozenset(("private", "internal", "secret", "confidential", "restricted", "security", "visible"))
_TOPIC_NOUNS = frozenset(("repo", "repos", "repository", "repositories", "key", "keys", "ip", "ips", "network",
                          "networks", "subnet", "dns", "url", "urls", "endpoint", "endpoints", "link", "links",
                          "registry", "package", "packages", "token", "tokens", "address", "addresses", "port",
                          "ports", "cert", "certificate", "bucket", "cluster", "host", "hosts", "name", "id", "ids",
                          "group", "groups", "header", "headers", "scan", "scanning", "patch", "update", "updates",
                          "advisory", "zone", "api", "apis", "image", "images", "server", "servers"))
#: Key names that are themselves a restriction, as runs of letters in the squashed key.
_RESTRICTING_KEY_RUNS = ("agentonly", "agentsonly", "staffonly", "employeesonly", "internalonly", "hidefromcustomer",
                         "hiddenfromcustomer", "notforcustomer", "customerhidden", "nocustomer", "supportonly",
                         "notpublic", "nichtoffentlich", "nurintern")
_STATUS_KEYS = frozenset(squash(k) for k in (
    "status", "state", "review", "reviewstatus", "publishstatus", "publicationstatus", "workflowstatus", "workflow",
    "stage", "phase", "lifecycle", "docstatus", "pagestatus", "zustand", "estado", "statut", "stato", "staat",
    "stan", "статус", "durum", "tila", "stav", "állapot", "stare", "κατασταση", "trang thai", "状態", "状态",
    "ステータス", "상태", "etat", "stadium"))
_PUBLISH_KEYS = frozenset(squash(k) for k in (
    "publish", "published", "publishable", "ispublished", "veröffentlicht", "veroffentlichen", "publiceren",
    "gepubliceerd", "publicar", "publicado", "publier", "publie", "pubblicato", "pubblicare", "opublikowany",
    "publicera", "publiceret", "julkaistu", "yayınla", "yayınlandı", "zverejnit", "公開する", "发布", "게시"))
_HIDDEN_KEYS = frozenset(squash(k) for k in (
    "hidden", "ishidden", "hide", "unpublished", "unpublish", "verborgen", "versteckt", "oculto", "oculta", "masque",
    "nascosto", "ukryty", "скрыт", "скрытый", "dolda", "skjult", "piilotettu", "gizli", "skryty",
    "非表示", "隐藏", "숨김"))


@dataclass(frozen=True)
class KeyKind:
    """One kind of restricting key (a row of the module's table).

    Attributes:
        name: the kind, as ``check`` names it.
        names: whether a key name (as written) is of this kind.
        restricts: whether the key's value, for a key of this kind, restricts the page.
    """

    name: str
    names: Callable[[str], bool]
    restricts: Callable[[Any], bool]


def _near_intent(name: str) -> bool:
    squashed = squash(name)
    if len(squashed) > 40 or _topic_property(name):
        return False
    if mentions(name, ("audience",)) or (len(squashed) >= 5 and near(squashed, "audience", 2)):
        return True
    return any(near(squashed, fold(word), 1 if len(word) < 7 else 2) if word.isascii() else squashed == fold(word)
               for word in INTENT_KEYS)


_KEY_PARTS = re.compile(r"[^\W_]+?(?=[A-Z][a-z]|[^\w]|_|$)|[^\W_]+")


def _topic_property(name: str) -> bool:
    """A key of two parts, a restricting adjective and a noun of what the page documents
    (``private_repo``, ``internalIp``): a parameter of the topic, not of the page."""
    parts = [squash(p) for p in _KEY_PARTS.findall(name)]
    return len(parts) == 2 and parts[0] in _ADJECTIVE_PARTS and parts[1] in _TOPIC_NOUNS


def _restricting_parts(name: str) -> bool:
    """A part of the key (split at separators and camelCase, as written and folded)
    naming access control, unless it is an adjective of the page's topic
    (``private_repo``)."""
    for split in (_KEY_PARTS.findall(name), _KEY_PARTS.findall(fold(name))):
        parts = [squash(p) for p in split]
        for i, part in enumerate(parts):
            if not _restricting_part(part):
                continue
            if part in _ADJECTIVE_PARTS and i + 1 < len(parts) and parts[i + 1] in _TOPIC_NOUNS:
                continue
            return True
    return False


#: Docs tools' own front matter keys that begin with a restricting word's letters
#: (``perm``): a page's address, never its readers.
_TOOL_KEYS = frozenset(("permalink", "permalinks"))


@lru_cache(maxsize=4096)
def _restricting_part(squashed: str) -> bool:
    if squashed in _TOOL_KEYS:
        return False
    if any(near(squashed, word, 1) if len(word) >= 7 else resembles(squashed, word) for word in RESTRICTING_KEY_PARTS):
        return True
    # A key written as one run of letters (ALLOWEDROLES, accesslevel): a restricting
    # word of four letters or more at its start or end ("accessibility" is no access).
    return not squashed.startswith("accessib") and not any(squashed.startswith(a) and squashed[len(a):] in _TOPIC_NOUNS
                                                           for a in _ADJECTIVE_PARTS) and any(
        len(word) >= 4 and len(squashed) > len(word) and (squashed.startswith(word) or squashed.endswith(word))
        for word in RESTRICTING_KEY_PARTS)


def _run(name: str) -> bool:
    squashed = squash(name)
    return len(squashed) <= 40 and any(run in squashed for run in _RESTRICTING_KEY_RUNS)


#: Parts of a key naming who the page is shown to; such a key set to false keeps it
#: from them (``is_public: false``, ``customerFacing: false``, ``show_to_customers: no``).
_EXPOSURE_PARTS = frozenset(("public", "publicly", "customer", "customers", "client", "clients", "external",
                             "externally", "customerfacing", "publicfacing", "öffentlich", "offentlich"))
#: Nouns after which an exposure part names a property of the documented topic
#: (``public_api: false``, ``external_ip``).
_EXPOSURE_TOPICS = _TOPIC_NOUNS | frozenset(("access", "ip", "network", "dns", "facing_api"))
#: Keys that put the page behind a sign-in (``login_required: true``, ``gated: yes``).
_GATE_PARTS = frozenset(("login", "loginrequired", "requireslogin", "gated", "gate", "auth", "authrequired",
                         "authentication", "sso", "signin", "signinrequired", "membersonly", "paywall", "paywalled"))
#: Workflow flags: true means not ready (``wip: true``), false means not ready
#: (``ready: false``, ``approved: false``).
_NOT_READY_WHEN_TRUE = frozenset(("wip", "todo", "inprogress", "workinprogress", "needsreview", "embargoed"))
#: Flags taking a page out of service (``retired: true``, ``archived: true``).
_OUT_OF_SERVICE = frozenset(("retired", "isretired", "archived", "isarchived", "decommissioned", "withdrawn"))
_NOT_READY_WHEN_FALSE = frozenset(("ready", "approved", "reviewed", "final", "released", "release", "live",
                                   "online", "golive"))


def _parts(name: str) -> list[str]:
    return [squash(p) for p in _KEY_PARTS.findall(name)]


def _exposure_key(name: str) -> bool:
    parts = _parts(name)
    squashed = squash(name)
    if any(p in _EXPOSURE_PARTS and i + 1 < len(parts) and parts[i + 1] in _EXPOSURE_TOPICS
           for i, p in enumerate(parts)):
        return False
    return any(p in _EXPOSURE_PARTS for p in parts) or "customer" in squashed or "public" in squashed


def _hiding_from_readers(name: str) -> bool:
    squashed = squash(name)
    return squashed.startswith(("hide", "hidden", "exclude")) and any(
        word in squashed for word in ("public", "customer", "client", "external", "search", "sitemap"))


def _gate_key(name: str) -> bool:
    return squash(name) in _GATE_PARTS or any(p in _GATE_PARTS for p in _parts(name))


def _gating(value: Any) -> bool:
    return _true(value) or (isinstance(value, str) and squash(value) in ("required", "mandatory", "yes", "always"))


#: Keys by which a site keeps a page out of search engines and its sitemap (``noindex:
#: true``, ``robots: noindex``, ``sitemap: false``): published, but not meant to be found
#: from outside. Our search surfaces what customers are meant to find, so such a page is
#: internal (fail closed; agents keep it). Leaving a page out of the site's *own* search
#: box (Just the Docs' ``search_exclude: true``, MkDocs Material's ``search: {exclude:
#: true}``) is not this: sites use it for pages found otherwise, above all translations
#: (openai-agents-docs: all 114 ja/ko/zh pages), so it restricts nothing.
_NOINDEX_KEYS = frozenset(("noindex", "sitemapexclude", "excludefromsitemap", "nositemap"))


_SEARCH_SETTINGS = frozenset(("robots", "metarobots", "sitemap"))


def _crawler(name: str) -> bool:
    """A crawler's own robots key (``googlebot``, ``bingbot``, ``GPTBot``): any ``*bot``
    but a page's chat widget (``chatbot``)."""
    squashed = squash(name)
    return squashed.endswith("bot") and 4 < len(squashed) <= 20 and squashed not in ("chatbot", "robot")


def _says_noindex(value: Any) -> bool:
    """A crawler key's value saying ``noindex`` or ``none`` (a yes/no is a widget switch)."""
    return isinstance(value, str) and re.search(r"\b(?:noindex|none)\b", value, re.IGNORECASE) is not None


def _search_setting(name: str) -> bool:
    """``robots``, ``sitemap``, or a crawler's robots key."""
    return squash(name) in _SEARCH_SETTINGS or _crawler(name)


def _index_off(value: Any) -> bool:
    """``index: false`` (or ``no``/``noindex``); a number is a sort order (``index: 3``,
    ``index: 0``), not a switch."""
    return value is False or (isinstance(value, str) and squash(value) in ("false", "no", "off", "noindex", "none"))


def _meta_robots(value: Any) -> bool:
    """A ``meta`` list of tags holding ``{name: robots, content: noindex}`` (or a
    crawler's name, ``googlebot``)."""
    items = value if isinstance(value, list) else [value]
    # VitePress writes a tag as a pair: ``head: [[meta, {name: robots, content: noindex}]]``.
    items = [part for item in items[:200] for part in (item[:3] if isinstance(item, list) else [item])]
    # Starlight: ``head: [{tag: meta, attrs: {name: robots, content: noindex}}]``.
    items += [v for item in items if isinstance(item, dict) for k, v in item.items()
              if isinstance(k, str) and squash(k) in ("attrs", "attributes")]
    for item in items:
        if not isinstance(item, dict):
            continue
        named = [v for k, v in item.items() if isinstance(k, str) and squash(k) in ("name", "property", "httpequiv")]
        content = [v for k, v in item.items() if isinstance(k, str) and squash(k) in ("content", "value")]
        if any(isinstance(n, str) and (_search_setting(n) or squash(n) == "xrobotstag") for n in named) and any(
                isinstance(c, str) and _kept_out_of_search(c) for c in content):
            return True
    return False


def _kept_out_of_search(value: Any) -> bool:
    """A value of a ``robots`` or ``sitemap`` key keeping the page out of search engines:
    a ``robots`` value saying ``noindex`` or ``none``, ``sitemap: false`` or ``sitemap:
    {exclude|disable: true}`` (``{priority: 0.5}`` is no exclusion)."""
    if isinstance(value, dict):
        return any(isinstance(k, str) and squash(k) in ("exclude", "disable", "disabled", "noindex", "hidden")
                   and _true(v) for k, v in value.items()) or any(
            isinstance(k, str) and squash(k) in ("index", "include", "enabled") and _false(v) for k, v in value.items())
    if isinstance(value, str) and re.search(r"\b(?:noindex|none)\b", value, re.IGNORECASE):
        return True
    return _false(value)


#: The table: each kind of key name and how its value restricts (first match wins).
KEY_KINDS: tuple[KeyKind, ...] = (
    KeyKind("kept out of search", lambda name: squash(name) in _NOINDEX_KEYS, _true),
    KeyKind("kept out of search", lambda name: squash(name) in _SEARCH_SETTINGS, _kept_out_of_search),
    KeyKind("kept out of search", _crawler, _says_noindex),
    KeyKind("kept out of search", lambda name: squash(name) == "index", _index_off),
    KeyKind("kept out of search", lambda name: squash(name) in ("meta", "metatags", "head"), _meta_robots),
    KeyKind("intent", _near_intent, _always),
    KeyKind("restriction", _run, _always),
    KeyKind("status", lambda name: squash(name) in _STATUS_KEYS, _unpublished),
    KeyKind("publish flag", lambda name: squash(name) in _PUBLISH_KEYS, _false),
    KeyKind("hidden flag", lambda name: squash(name) in _HIDDEN_KEYS, _true),
    KeyKind("restricting part", _restricting_parts, _always),
    KeyKind("hidden from readers", _hiding_from_readers, _true),
    KeyKind("exposure flag", _exposure_key, _false),
    KeyKind("sign-in", _gate_key, _gating),
    KeyKind("not ready", lambda name: squash(name) in _NOT_READY_WHEN_TRUE, _true),
    KeyKind("out of service", lambda name: squash(name) in _OUT_OF_SERVICE, _true),
    KeyKind("not approved", lambda name: squash(name) in _NOT_READY_WHEN_FALSE, _false),
)

#: Key names read only as the page's own keys (at the top, or under Hugo's ``params``):
#: deeper, they are a component's or a listed item's (``versions: [{archived: true}]``,
#: ``sidebar: {hide: true}``, ``search: {index: false}``), not the page's.
_PAGE_ONLY = _OUT_OF_SERVICE | frozenset(("hide", "index", "meta", "metatags", "head"))


def page_level_only(name: str) -> bool:
    """Whether key ``name`` restricts only as one of the page's own keys
    (:data:`_PAGE_ONLY`, a crawler's ``*bot`` key)."""
    return squash(name) in _PAGE_ONLY or _crawler(name)


#: Keys whose value is prose a reader sees: never read as a restriction.
_PROSE_KEYS = ("title", "description", "summary", "excerpt", "subtitle", "sidebar_label", "linktitle", "label",
               "keywords", "tagline", "text", "linktext")
#: List-valued keys whose items name topics; an item saying "internal" is read apart.
TAG_KEYS = ("tags", "tag", "categories", "category", "keywords", "labels", "label")
_HIDE_TAGS = ("internal", "confidential", "private", "agentonly", "agentsonly", "staffonly", "internalonly", "staff",
              "draft", "wip", "hidden", "intern", "社内", "内部", "unpublished")
#: Values that, as the whole value of any other key, name who may read the page
#: (``readers: staff``, ``scope: internal``, ``Zielgruppe: intern``, ``公開範囲: 社内``).
_RESTRICTING_VALUES = frozenset(squash(v) for v in (
    "internal", "confidential", "private", "restricted", "secret", "staff", "employees", "agents", "agent",
    "employee", "staffonly", "agentsonly", "agentonly", "internalonly", "employeesonly", "nonpublic", "notpublic",
    "internaluse", "internaluseonly", "intern", "interna", "interno", "interne", "internes", "internal only",
    "vertraulich", "confidencial", "confidentiel", "riservato", "poufne", "внутренний", "внутренняя",
    "внутреннее", "служебный", "конфиденциально", "sisäinen", "dahili", "interní", "belső", "εσωτερικό",
    "nội bộ", "社内", "社内限定", "内部", "內部", "내부", "사내", "非公開", "不公开", "不公開", "비공개", "部外秘",
    "社外秘", "mitarbeiter", "mitarbeitende", "medewerkers", "pracownicy", "personel", "社員", "従業員", "직원",
    "henkilökunta", "zaměstnanci", "zamestnanci", "çalışanlar", "сотрудники", "працівники", "empleados",
    "funcionários", "employés", "dipendenti", "anställda", "medarbejdere", "ansatte", "nhân viên", "karyawan"))
_ASCII_VALUES = frozenset(v for v in _RESTRICTING_VALUES if v.isascii())


def _restricting_value(name: str, value: Any) -> bool:
    """Whether ``value`` (a short string, or a list of them) of a key that is not prose
    names a restricted readership: one of :data:`_RESTRICTING_VALUES` after folding (an
    ASCII one also through look-alike letters), or words binding a restriction to staff
    (:func:`provider.wiki.restriction.restricts_readers`: ``for employees``)."""
    if squash(name) in _PROSE_KEYS or _tag_key(name):
        # Tags name topics ("Agent": the OGP agent software of a Hetzner tutorial).
        return False
    items = value if isinstance(value, list) else [value]
    for item in items[:200]:
        if isinstance(item, str) and 0 < len(item) <= 60 and len(item.split()) <= 5:
            squashed = squash(item)
            if squashed in _RESTRICTING_VALUES or any(resembles(squashed, word) for word in _ASCII_VALUES) or (
                    restricts_readers(item)):
                return True
    return False


@lru_cache(maxsize=4096)
def _tag_key(name: str) -> bool:
    """Whether key ``name`` resembles one of :data:`TAG_KEYS` (remembered, as
    :func:`_key_kind`)."""
    return any(resembles(name, key) for key in TAG_KEYS)


def _hiding_tags(name: str, value: Any) -> bool:
    if not _tag_key(name):
        return False
    items = value if isinstance(value, list) else [value]
    return any(isinstance(item, str) and len(item) <= 60 and any(resembles(squash(item), w) for w in _HIDE_TAGS)
               for item in items[:200])


#: Keys the publication rules read with the docs tools' own meaning
#: (:mod:`provider.wiki.publication`: ``published: false``, ``draft: true`` withhold the
#: page from everyone), spelt exactly: not a second, stricter reading that quarantines.
_READ_EXACTLY = frozenset(FLAG_KEYS)


@lru_cache(maxsize=4096)
def _key_kind(name: str) -> KeyKind | None:
    """The first kind of :data:`KEY_KINDS` whose names ``name`` is, which alone decides
    (its value restricts or not). Remembered: a site's pages repeat their keys
    (``ms.author``, ``title``), and matching a name near enough to each intent word
    costs more than the rest of the page's front matter."""
    return next((kind for kind in KEY_KINDS if kind.names(name)), None)


def restricting_kind(name: str, value: Any) -> str | None:
    """The kind (:data:`KEY_KINDS`, or ``"tags"``, ``"value"``) by which front matter key
    ``name`` with ``value`` restricts who may read the page, else ``None``.

    ``("visibility", "public")`` → ``"intent"``; ``("Sichtbarkeit", "intern")`` →
    ``"intent"``; ``("review", "pending")`` → ``"status"``; ``("hidden", True)`` →
    ``"hidden flag"``; ``("tags", ["internal"])`` → ``"tags"``; ``("scope",
    "社内")`` → ``"value"``; ``("private_repo", True)``, ``("hide", ["toc"])`` → ``None``.
    """
    if name in _READ_EXACTLY:
        return None  # the publication rules read it exactly: false withholds from everyone
    kind = _key_kind(name)
    # A status key saying "published" is read by its value only, by no later kind.
    if kind is not None and kind.restricts(value):
        return kind.name
    if _hiding_tags(name, value):
        return "tags"
    if _restricting_value(name, value):
        return "value"
    return None


#: A comment in YAML or TOML front matter: ``#`` at a line's start or after a blank,
#: outside quotes (checked by the caller).
_COMMENT = re.compile(r"(?:^|\s)#\s?(.*)$")
#: Words that, in a front matter comment, say the page is not for customers yet.
_COMMENT_WORDS = frozenset(("internal", "intern", "interne", "interno", "interna", "confidential", "private", "draft",
                            "wip", "unpublished", "staff", "employees", "embargo", "embargoed", "secret",
                            "vertraulich", "entwurf", "borrador", "rascunho", "brouillon", "bozza", "社内", "内部",
                            "非公開", "내부"))
_WORDS = re.compile(r"[^\W_]+")
#: Phrases of a front matter comment saying the page is not to be published yet
#: (``# not ready``, ``# do not publish yet``, ``# hold until launch``).
_NOT_YET = re.compile(r"\bnot\s+(?:yet\s+)?(?:been\s+)?(?:ready|live|released|approved|final|public|published)\b"
                      r"|\b(?:has|have|is|was|were)(?:n['\u2019]?t|\s+not)\s+(?:yet\s+)?(?:been\s+)?"
                      r"(?:approved|signed\s+off|cleared|released|published|reviewed)\b"
                      r"|\b(?:pending|awaiting|needs|without|requires)\s+(?:\w+\s+)?(?:approval|sign-?off|clearance)\b"
                      r"|\bunapproved\b"
                      r"|\b(?:do\s+not|don'?t|never)\s+(?:publish|release|ship|share)"
                      r"|\bhold\s+(?:until|till|for|off|back)\b|\buntil\s+(?:launch|release|ga|go[\s-]?live)\b"
                      r"|\bunreleased\b|\bpre-?release\b|\bunder\s+embargo\b|\bcoming\s+soon\b",
                      re.IGNORECASE)


def comment_restricts(header: str) -> str | None:
    """The first comment of front matter text ``header`` (the lines between its fences)
    that says the page is not for customers — a restriction
    (:func:`provider.wiki.restriction.restricts_readers`) or a word of
    :data:`_COMMENT_WORDS` (``# internal until launch``, ``# draft``) or of
    :data:`_NOT_YET` (``# not ready``, ``# hold until launch``) — else ``None``.
    Comments about editing (``# Do not make edits to it directly``) say nothing."""
    for line in header.split("\n")[:400]:
        match = _COMMENT.search(line)
        if match is None:
            continue
        before = line[: match.start()]
        if before.count('"') % 2 or before.count("'") % 2:
            continue  # the # is inside a quoted value
        comment = match.group(1).strip()
        words = {fold(w) for w in _WORDS.findall(comment)}
        if words & _COMMENT_WORDS or any(w in fold(comment) for w in _COMMENT_WORDS if not w.isascii()) or (
                _NOT_YET.search(comment) or restricts_readers(comment)):
            return comment[:120]
    return None


#: Fences that open front matter, and the fence each closes with.
_FENCES = {"---": ("---", "..."), "+++": ("+++",)}


def front_matter_lines(text: str) -> str:
    """The lines of ``text``'s front matter between its fences (YAML ``---``, TOML
    ``+++``), at most 400; empty when ``text`` opens with none or it is not closed."""
    lines = text.lstrip("\ufeff").split("\n", 402)
    closing = _FENCES.get(lines[0].rstrip("\r ").strip()) if lines else None
    if closing is None:
        return ""
    for number, line in enumerate(lines[1:401], start=1):
        if line.rstrip("\r ").strip() in closing:
            return "\n".join(lines[1:number])
    return ""
