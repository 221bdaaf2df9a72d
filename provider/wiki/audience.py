"""A document's audience: decided here, in order, with every reason.

Fail closed (CONTRACT X5): a document is ``public`` only when its audience is exactly
the string ``public`` — from its front matter, or, when the front matter has no
``audience`` key, from a section's cascade or the first operator rule whose glob matches
its path — and nothing later takes it back. Everything else is ``internal``: a missing
key with no rule, a misspelled or differently-cased value, a list, a number, an
unreadable header, undecodable bytes, a marker in the body.

Two stages, one :class:`Reason` type, so ``check`` tells one story:

1. **The file** (:func:`decide_file`, at reading): what reading the file found
   (:class:`FileFacts`: its front matter with the site's defaults, the operator's rules,
   a symlink's real path, the body's markers) gives a :class:`Verdict` — the reasons in
   the order they applied, the last one deciding — in one pass:

   a. unreadable bytes or header → internal;
   b. else the front matter's audience keys (:func:`audience_signals`) decide, said as
      coming from the site's metadata when only the docs tool's defaults set them; a
      first matching operator rule saying ``internal`` takes back a ``public`` (rules can
      serve less than the file says, never more);
   c. else the first matching rule, internal for a symlink whose real path the rules do
      not make public, else internal;
   d. an audience key written in the body → internal;
   e. a would-be internal-section marker → internal.

2. **The corpus** (:func:`provider.wiki.corpus.derive`): rules that need other
   documents — a section's cascade, the same file twice, twins, translations of
   internal text, copies, duplicate ids, quarantine, the sitemap — each add a
   :class:`Reason` of stage :data:`CORPUS` to the document's story.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from wcmatch import glob

from .lookalike import fold, mentions, near, resembles, squash
from .restriction import restricts_readers

__all__ = [
    "AUDIENCES",
    "CORPUS",
    "FILE",
    "INTERNAL",
    "PUBLIC",
    "UNDECIDED",
    "AudienceRule",
    "AudienceSignal",
    "FileFacts",
    "Reason",
    "Verdict",
    "audience_signals",
    "decide_audience",
    "decide_file",
    "decide_own_audience",
]

PUBLIC = "public"
INTERNAL = "internal"
AUDIENCES = (PUBLIC, INTERNAL)
_GLOB_FLAGS = glob.GLOBSTAR | glob.BRACE | glob.DOTGLOB

@lru_cache(maxsize=65_536)
def nfc(name: str) -> str:
    """``name`` in Unicode NFC (remembered: rules and paths repeat)."""
    return name if name.isascii() else unicodedata.normalize("NFC", name)


@dataclass(frozen=True)
class AudienceRule:
    """An operator rule: files whose relative path matches ``pattern`` get ``audience``
    unless their front matter says otherwise.

    Attributes:
        pattern: a glob over POSIX paths relative to the content root; ``**`` matches any
            number of folders (``tutorials/**``), ``{a,b}`` alternatives.
        audience: ``public`` or ``internal``.
    """

    pattern: str
    audience: str

    def matches(self, relpath: str) -> bool:
        # A rule that can only serve less (anything but public) also matches other case
        # (``staff/**`` covers ``Staff/``): a case slip must not leave pages to a later
        # public rule. A public rule matches exactly.
        flags = _GLOB_FLAGS if self.audience == PUBLIC else _GLOB_FLAGS | glob.IGNORECASE
        # Names compared after Unicode NFC: a folder written in NFD (macOS) and a rule
        # typed in NFC name the same folder to a reader, and to the docs tool.
        return bool(glob.globmatch(nfc(relpath), nfc(self.pattern), flags=flags))


#: The stages of a decision (:attr:`Reason.stage`).
FILE, CORPUS = "file", "corpus"
#: The source of a page nothing decided (no key, no rule, no cascade): internal by default.
UNDECIDED = "fail-closed: no audience key and no matching rule"


@dataclass(frozen=True)
class Reason:
    """One step of an audience decision: the audience it leaves, and why.

    Attributes:
        audience: :data:`PUBLIC` or :data:`INTERNAL` after this step.
        source: what the operator reads; the last step's is the document's
            ``audienceSource`` in ``check``.
        stage: :data:`FILE` (the file and the operator's rules) or :data:`CORPUS`
            (rules over the whole corpus).
    """

    audience: str
    source: str
    stage: str = FILE

    @property
    def value(self) -> str:
        """The audience (the name every other decision of :mod:`provider.wiki.classify` uses)."""
        return self.audience


@dataclass(frozen=True)
class FileFacts:
    """What reading one file found that bears on its audience.

    Attributes:
        relpath: path relative to the content root.
        front_matter: the front matter mapping as the audience is read from it (the docs
            tool's defaults merged below it, Hugo's ``params`` lifted, the operator's
            audience map applied); empty when absent or unreadable.
        rules: the operator's audience rules (``public``/``internal``), first match wins.
        unreadable: why the file's bytes or header could not be read, or ``None``.
        real_relpath: the real path of a file reached through a symlink; a rule makes it
            public only if the rules say public for both paths (a link from a public
            folder must not publish an internal one).
        lowercase_keys: the layout's tool reads keys case-insensitively (Hugo).
        skip: top-level keys read elsewhere (a section page's ``cascade``).
        site_sources: the configuration files of the docs tool that supplied defaults.
        page_front_matter: when the tool supplied defaults, the page's own front matter
            read the same way without them (``None``: no defaults): tells whether an
            audience came from the site's metadata.
        audience_in_body: an audience key is written in the body, outside the front matter.
        would_be_marker: a line looks like an internal-section marker but is not one.
    """

    relpath: str
    front_matter: Mapping[str, Any]
    rules: Sequence[AudienceRule]
    unreadable: str | None = None
    real_relpath: str | None = None
    lowercase_keys: bool = False
    skip: tuple[str, ...] = ()
    site_sources: tuple[str, ...] = ()
    page_front_matter: Mapping[str, Any] | None = None
    audience_in_body: bool = False
    would_be_marker: bool = False


@dataclass(frozen=True)
class Verdict:
    """A file's own audience (:func:`decide_file`).

    Attributes:
        reasons: every step that decided, in order; the last one holds.
        errors: what quarantines the file (a look-alike key, a value that is not exactly
            ``public`` or ``internal``, keys that disagree).
        own: the file decided its audience itself (an audience key, or unreadable): no
            cascade applies.
    """

    reasons: tuple[Reason, ...]
    errors: tuple[str, ...] = ()
    own: bool = False

    @property
    def audience(self) -> str:
        return self.reasons[-1].audience

    @property
    def source(self) -> str:
        return self.reasons[-1].source


def decide_file(facts: FileFacts) -> Verdict:
    """The file's own audience, in one pass over what reading it found (the module
    docstring's stage 1). Never raises; any doubt gives :data:`INTERNAL`."""
    if facts.unreadable is not None:
        reasons = [Reason(INTERNAL, f"fail-closed: {facts.unreadable}")]
        errors: list[str] = []
        own = True
    else:
        signals = audience_signals(facts.front_matter, lowercase_keys=facts.lowercase_keys, skip=facts.skip)
        own = bool(signals)
        if signals:
            first, errors = _by_signals(signals)
            reasons = [_said_by_site(first, facts)]
            if reasons[-1].audience == PUBLIC:
                reasons.extend(_internal_by_rule(facts))
        else:
            reasons, errors = _by_rules_for_both(facts), []
            # An internal rule is not undone by a section's cascade either.
            own = bool(_internal_by_rule(facts))
        if facts.audience_in_body:
            reasons.append(Reason(INTERNAL, "fail-closed: an audience key in the body"))
    if facts.would_be_marker:
        reasons.append(Reason(INTERNAL, "fail-closed: a would-be internal-section marker"))
    return Verdict(tuple(reasons), tuple(errors), own)


def _said_by_site(reason: Reason, facts: FileFacts) -> Reason:
    """Say where the operator will find an audience the docs tool's defaults set: the
    tool's configuration, not the file."""
    if facts.page_front_matter is None or not reason.source.startswith("front matter"):
        return reason
    if audience_signals(facts.page_front_matter, lowercase_keys=facts.lowercase_keys, skip=facts.skip):
        return reason
    return Reason(reason.audience, f"site metadata ({', '.join(facts.site_sources)}): "
                                   f"{reason.source.removeprefix('front matter').strip()}")


def _internal_by_rule(facts: FileFacts) -> list[Reason]:
    """An operator rule can make a file less public than its front matter says, never
    more: the first matching rule saying ``internal`` (for the path or a symlink's real
    path) takes back a front matter ``public``."""
    for path in (facts.relpath, facts.real_relpath):
        if path is None:
            continue
        decision = _by_rules(path, facts.rules)
        if decision.audience == INTERNAL and decision.source != UNDECIDED:
            return [Reason(INTERNAL, f"{decision.source}: internal whatever the front matter says")]
    return []


def _by_rules_for_both(facts: FileFacts) -> list[Reason]:
    decision = _by_rules(facts.relpath, facts.rules)
    if facts.real_relpath is not None and decision.audience == PUBLIC:
        real = _by_rules(facts.real_relpath, facts.rules)
        if real.audience != PUBLIC:
            return [decision, Reason(INTERNAL, f"fail-closed: symlink to {facts.real_relpath}, which the rules do "
                                               "not make public")]
    return [decision]



#: How deep front matter is searched for keys resembling ``audience``.
_SIGNAL_DEPTH = 6


@dataclass(frozen=True)
class AudienceSignal:
    """A front matter key that reads as ``audience``.

    Attributes:
        path: the keys leading to it (``("audience",)``, ``("params", "audience")``).
        value: what it says.
        exact: whether the key path is one a docs tool reads as the page's audience,
            spelled exactly (``audience`` at the top or under ``params``; in layouts that
            lowercase keys, as Hugo does, any case).
    """

    path: tuple[str, ...]
    value: Any
    exact: bool


def audience_signals(data: Mapping[str, Any], *, lowercase_keys: bool = False,
                     skip: tuple[str, ...] = ()) -> list[AudienceSignal]:
    """Every key of ``data`` (at any depth up to six, in mappings and lists) that
    resembles ``audience`` after Unicode folding and confusables
    (:func:`provider.wiki.lookalike.resembles`).

    Args:
        lowercase_keys: the layout's tool compares keys case-insensitively (Hugo).
        skip: top-level keys whose subtree is read elsewhere (a section's ``cascade``).
    """
    found: list[AudienceSignal] = []

    def exact_key(key: str, wanted: str) -> bool:
        return key == wanted or (lowercase_keys and key.lower() == wanted)

    def walk(node: Any, path: tuple[str, ...], depth: int) -> None:
        if depth > _SIGNAL_DEPTH:
            return
        if isinstance(node, Mapping):
            for key, value in node.items():
                name = key if isinstance(key, str) else str(key)
                if not path and any(exact_key(name, s) for s in skip):
                    continue
                here = (*path, name)
                if resembles(name, "audience"):
                    exact = exact_key(name, "audience") and (
                        not path or (len(path) == 1 and exact_key(path[0], "params")))
                    found.append(AudienceSignal(here, value, exact))
                elif (_intent_key(name) or _hiding_tags(name, value) or _restricting_value(name, value)
                      or _unpublishing(name, value)):
                    found.append(AudienceSignal(here, value, False))
                walk(value, here, depth + 1)
        elif isinstance(node, list):
            for item in node[:200]:
                walk(item, path, depth + 1)

    walk(data, (), 0)
    return found


#: Keys that, spelled near enough, say who may read the page (``visibility: internal``,
#: ``private: true``, ``public: false``): not ``audience``, so never a public signal, but
#: a signal that the author meant something — the page fails closed and is quarantined.
INTENT_KEYS = ("visibility", "classification", "internal", "private", "confidential", "public", "exposure",
               "restricted")
#: List-valued keys whose items may say "internal" (``tags: [internal]``).
_TAG_KEYS = ("tags", "tag", "categories", "category", "keywords", "labels", "label")
_HIDE_TAGS = ("internal", "confidential", "private", "agentonly", "agentsonly", "staffonly", "internalonly")


#: Words that, as a part of a key (``access``, ``required_role``, ``allowedRoles``,
#: ``x-permissions``, ``ACL``), say the key restricts who may read the page (issue 24):
#: not ``audience``, so never a public signal, whatever the value — the strictest reading.
RESTRICTING_KEY_PARTS = ("access", "role", "roles", "permission", "permissions", "perm", "perms", "acl", "acls",
                         "visibility", "visible", "private", "internal", "confidential", "restricted", "restrict",
                         "restriction", "restrictions", "security", "sensitivity", "secret", "staff", "staffonly",
                         "employees", "readers", "viewers", "audiences", "entitlement", "entitlements", "clearance",
                         "classification", "tlp", "allowed", "authorized", "authorised", "exposure")
_KEY_PARTS = re.compile(r"[^\W_]+?(?=[A-Z][a-z]|[^\w]|_|$)|[^\W_]+")


def _intent_key(name: str) -> bool:
    """A key misspelling ``audience`` (``audiance``, ``audiences``), containing it
    (``target_audience``, ``ms.audience``), naming an intent of :data:`INTENT_KEYS`, or
    with a part (split at separators and camelCase) naming one of
    :data:`RESTRICTING_KEY_PARTS` (short parts exactly, after folding and confusables;
    longer ones misspelled by one letter)."""
    squashed = squash(name)
    if len(squashed) > 40:
        return False
    if mentions(name, ("audience",)) or (len(squashed) >= 5 and near(squashed, "audience", 2)):
        return True
    if any(near(squashed, word, 1 if len(word) < 7 else 2) for word in INTENT_KEYS):
        return True
    # Split as written (camelCase) and folded (an invisible character inside a part).
    return any(_restricting_part(part) for part in {*_KEY_PARTS.findall(name), *_KEY_PARTS.findall(fold(name))})


@lru_cache(maxsize=4096)
def _restricting_part(part: str) -> bool:
    squashed = squash(part)
    if any(near(squashed, word, 1) if len(word) >= 7 else resembles(squashed, word) for word in RESTRICTING_KEY_PARTS):
        return True
    # A key written as one run of letters (ALLOWEDROLES, accesslevel): a restricting
    # word of four letters or more at its start or end ("accessibility" is no access).
    return not squashed.startswith("accessib") and any(
        len(word) >= 4 and len(squashed) > len(word) and (squashed.startswith(word) or squashed.endswith(word))
        for word in RESTRICTING_KEY_PARTS)


#: Keys whose value is prose a reader sees: never read as a restriction.
_PROSE_KEYS = ("title", "description", "summary", "excerpt", "subtitle", "sidebar_label", "linktitle", "label",
               "keywords", "tagline", "text", "linktext")
#: Values that, as the whole value of any other key, name who may read the page
#: (``readers: staff``, ``scope: internal``).
_RESTRICTING_VALUES = frozenset(("internal", "confidential", "private", "restricted", "secret", "staff", "employees",
                                 "agents", "agent", "employee", "staffonly", "agentsonly", "agentonly", "internalonly",
                                 "employeesonly",
                                 "nonpublic", "notpublic", "internaluse", "internaluseonly"))


def _restricting_value(name: str, value: Any) -> bool:
    """Whether ``value`` (a short string, or a list of them) of a key that is not prose
    names a restricted readership: one of :data:`_RESTRICTING_VALUES` after folding, or
    words binding a restriction to staff (:func:`provider.wiki.restriction.restricts_readers`:
    ``for employees``, ``Nur für Mitarbeiter``)."""
    if squash(name) in _PROSE_KEYS or any(resembles(name, key) for key in _TAG_KEYS):
        # Tags name topics ("Agent": the OGP agent software of a Hetzner tutorial); a tag
        # saying "internal" is read by _hiding_tags.
        return False
    items = value if isinstance(value, list) else [value]
    for item in items[:200]:
        if isinstance(item, str) and 0 < len(item) <= 60 and len(item.split()) <= 5:
            squashed = squash(item)
            if any(resembles(squashed, word) for word in _RESTRICTING_VALUES) or restricts_readers(item):
                return True
    return False


#: Key names that are themselves a restriction (``agent_only``, ``hideFromCustomers``),
#: as parts of the key squashed to letters (after folding and confusables).
_RESTRICTING_KEY_RUNS = ("agentonly", "agentsonly", "staffonly", "employeesonly", "internalonly", "hidefromcustomer",
                         "hiddenfromcustomer", "notforcustomer", "customerhidden", "nocustomer", "supportonly")
#: Keys whose value says a page is not (yet) published (``status: draft``, ``publish:
#: false`` as Obsidian Publish writes it), and the values that say so, squashed.
_STATUS_KEYS = ("status", "state", "publishstatus", "publicationstatus", "workflowstatus")
_UNPUBLISHED_VALUES = frozenset(("draft", "wip", "workinprogress", "pending", "unpublished", "notpublished",
                                 "inreview", "review", "internal", "private", "hidden", "staging"))
_FALSE = frozenset(("false", "no", "off", "0", "n"))


def _unpublishing(name: str, value: Any) -> bool:
    """Whether key ``name`` with ``value`` says the page is restricted or unpublished in
    words no other rule reads: a restriction as the key's own name
    (:data:`_RESTRICTING_KEY_RUNS`), a workflow status of :data:`_UNPUBLISHED_VALUES`, or
    ``publish`` set false. None occurs in the shared corpora's front matter."""
    squashed = squash(name)
    if len(squashed) <= 40 and any(run in squashed for run in _RESTRICTING_KEY_RUNS):
        return True
    if squashed in _STATUS_KEYS and isinstance(value, str):
        return squash(value) in _UNPUBLISHED_VALUES
    if squashed == "publish":
        return value is False or value == 0 or (isinstance(value, str) and squash(value) in _FALSE)
    return False


def _hiding_tags(name: str, value: Any) -> bool:
    if not any(resembles(name, key) for key in _TAG_KEYS):
        return False
    items = value if isinstance(value, list) else [value]
    return any(isinstance(item, str) and len(item) <= 60 and any(resembles(squash(item), w) for w in _HIDE_TAGS)
               for item in items[:200])


def decide_audience(
    data: Mapping[str, Any], relpath: str, rules: Sequence[AudienceRule], *, unreadable: str | None,
    real_relpath: str | None = None, lowercase_keys: bool = False,
) -> Reason:
    """:func:`decide_own_audience` without its errors."""
    return decide_own_audience(data, relpath, rules, unreadable=unreadable, real_relpath=real_relpath,
                               lowercase_keys=lowercase_keys)[0]


def decide_own_audience(
    data: Mapping[str, Any], relpath: str, rules: Sequence[AudienceRule], *, unreadable: str | None,
    real_relpath: str | None = None, lowercase_keys: bool = False, skip: tuple[str, ...] = (),
) -> tuple[Reason, list[str]]:
    """A file's own audience from its front matter and the rules alone (no body, no site
    metadata): the first steps of :func:`decide_file`, its last reason and errors.

    Every front matter key resembling ``audience`` is a signal
    (:func:`audience_signals`). The page is public by its front matter only when every
    signal is an exactly spelled key in a place the tools read, saying exactly the string
    ``public``; internal when they all say exactly ``internal``. Anything else — a
    look-alike key (``Audience``, ``audi\u00adence``, Cyrillic letters), a key elsewhere
    (``meta.audience``), a value that is not exactly one of the two, signals that
    disagree — is internal and an *error* (the file is quarantined). With no signal, the
    first matching operator rule decides, else internal.

    Args:
        data: the front matter mapping (:attr:`FileFacts.front_matter`); the others are
            the :class:`FileFacts` fields of their names.

    Returns:
        the decision and the errors that quarantine the file.
    """
    verdict = decide_file(FileFacts(relpath, data, rules, unreadable=unreadable, real_relpath=real_relpath,
                                    lowercase_keys=lowercase_keys, skip=skip))
    return verdict.reasons[-1], list(verdict.errors)


def _by_signals(signals: Sequence[AudienceSignal]) -> tuple[Reason, list[str]]:
    inexact = [s for s in signals if not s.exact]
    if inexact:
        shown = ".".join(inexact[0].path)
        key = inexact[0].path[-1]
        if mentions(key, ("audience",)) or near(squash(key), "audience", 2):
            said = f"front matter key {shown!r} resembles 'audience' but is not it; treated as internal"
        else:
            said = (f"front matter key {shown!r} may restrict who reads the page (only 'audience: public' "
                    "publishes, and the strictest reading wins); treated as internal")
        return Reason(INTERNAL, f"fail-closed: front matter key {shown!r} is not 'audience'"), [said]
    values = {s.value if isinstance(s.value, str) else repr(s.value) for s in signals}
    if len(signals) > 1 and len(values) > 1:
        keys = ", ".join(repr(".".join(s.path)) for s in signals)
        return (Reason(INTERNAL, f"fail-closed: several audience keys ({keys})"),
                [f"several audience keys ({keys}) that disagree; treated as internal"])
    value = signals[0].value
    if isinstance(value, str) and value == PUBLIC:
        return Reason(PUBLIC, "front matter"), []
    if isinstance(value, str) and value == INTERNAL:
        return Reason(INTERNAL, "front matter"), []
    return (Reason(INTERNAL, "fail-closed: front matter audience is not exactly 'public' or 'internal'"),
            ["audience is not exactly 'public' or 'internal'; treated as internal"])


def _by_rules(relpath: str, rules: Sequence[AudienceRule]) -> Reason:
    for rule in rules:
        if rule.matches(relpath):
            return Reason(rule.audience, f"rule {rule.pattern!r}")
    return Reason(INTERNAL, UNDECIDED)
