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

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from wcmatch import glob

from .lookalike import mentions, near, resembles, squash
from .restricting_keys import comment_restricts, front_matter_lines, page_level_only, restricting_kind

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
        header_text: the file's text from its start (its front matter's comments are
            read: ``audience: public # internal until launch``); empty when not given.
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
    header_text: str = ""


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
        if (comment := comment_restricts(front_matter_lines(facts.header_text))) is not None:
            reasons.append(Reason(INTERNAL, "fail-closed: a front matter comment says the page is not for customers"))
            errors = [*errors, f"front matter comment {comment!r} says the page is not for customers; treated as "
                               "internal"]
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
                elif restricting_kind(name, value) is not None and (
                        not path or (len(path) == 1 and exact_key(path[0], "params")) or not page_level_only(name)):
                    found.append(AudienceSignal(here, value, False))
                walk(value, here, depth + 1)
        elif isinstance(node, list):
            for item in node[:200]:
                walk(item, path, depth + 1)

    walk(data, (), 0)
    return found


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


#: The audience source of a page its own front matter keeps out of search engines
#: (``noindex: true``, ``robots: noindex``, ``sitemap: false``): internal, not
#: quarantined (the signal is unambiguous), and no secret — the site publishes the page,
#: so the copy rules take nothing from it (issue 24: public SharePoint pages were
#: withheld for resembling NOINDEX ones).
KEPT_OUT_OF_SEARCH = "kept out of search engines"


def _kept_out_of_search(signal: AudienceSignal) -> bool:
    return restricting_kind(signal.path[-1], signal.value) == "kept out of search"


def _by_signals(signals: Sequence[AudienceSignal]) -> tuple[Reason, list[str]]:
    unlisted = [s for s in signals if not s.exact and _kept_out_of_search(s)]
    if unlisted and len(unlisted) < len(signals):
        reason, errors = _by_signals([s for s in signals if s not in unlisted])
        if reason.audience == PUBLIC:
            return Reason(INTERNAL, f"{KEPT_OUT_OF_SEARCH}: front matter {'.'.join(unlisted[0].path)}"), errors
        return reason, errors
    if unlisted:
        return Reason(INTERNAL, f"{KEPT_OUT_OF_SEARCH}: front matter {'.'.join(unlisted[0].path)}"), []
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
