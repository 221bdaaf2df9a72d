"""``knowledge-provider check``: lint a wiki without serving it or writing an index.

It runs the indexer's own classification — :func:`~provider.wiki.files.discover`,
:func:`~provider.wiki.document.load_document` and :func:`~provider.wiki.corpus.resolve`,
the same functions, not a copy — and reports, per file, what the index would hold and
why.

**Quarantined** means the provider failed closed on a file because of an error, so
what it serves may differ from what the file's author meant, and an operator must fix
the file. Exactly these:

* front matter that cannot be read (syntax, duplicate keys, an alias bomb, too large,
  not a mapping) → withheld from everyone (its publication keys cannot be read); bytes
  that are not UTF-8 → internal;
* an ``audience`` that is not exactly ``public`` or ``internal`` (also a misspelled key
  such as ``Audience``), in front matter or in a section's ``cascade`` → internal;
* a page under a section whose front matter or ``cascade`` cannot be read → internal
  where it does not set ``audience`` itself, and withheld;
* a ``publishDate``/``expiryDate`` (Hugo: ``date``) that is not a date, or a Hugo
  ``build`` value that is not recognised → withheld;
* a closing ``<!-- /internal -->`` with no opening marker → the text before it hidden;
* a ``documentId`` claimed by two or more served files → all internal;
* a file skipped because of an error: unreadable, larger than ``max_file_bytes``, a
  symlink leaving the content folder, not a regular file.

Everything else is a *warning* (served as decided, worth a look): orphan translations,
untranslated copies and ``.md``/``.mdx`` twins (one withheld by design), two documents
of one locale in a translation group, stale translations and translations whose sync
state cannot be told, a citation URL that fails R7, an unclosed internal section, an
invalid locale, title, ``url``, ``review_due``, ``date``, ``source_revision`` or
``default_lang_commit``. Files skipped by design (a layout's build
output, partials, files with no text) are listed, not quarantined.

Exit status (:attr:`CheckReport.exit_code`): 1 when anything is quarantined, else 0.

**Classes** (:meth:`CheckReport.classified_failures`): every failure of ``check`` and of
``check --strict`` has one of :data:`FAILURE_CLASSES` — ``leak-risk``, ``withheld``,
``quarantined``, ``notice`` — so a script reading ``--json`` (``failureClasses``,
``failures``) can fail on what it chooses while the exit status stays 1 for any.

**Strict mode** (``check --strict``, :meth:`CheckReport.strict_failures`): also fails
(exit 1) when an audience rule matches no file — ``contnet/**`` leaves a whole site
internal and nothing else would say so — on every heuristic finding not accepted
(:mod:`provider.wiki.findings`: a heuristic, not a rule, decided what customers see), on
every stale acceptance (``accepted_findings`` naming a file that is gone, that changed
since it was reviewed, or that no longer has the finding), and on the kinds of warning
the operator names (``--fail-on``, codes in :data:`WARNING_CODES`; ``not-on-site``: a page
its rules make public that the sitemap withheld from ``customer_safe``). Each file's
``--json`` entry carries its ``digest`` (what ``accepted_findings`` binds to) and its
``findings``.

**Sitemap** (``sitemap:`` configured, :mod:`provider.wiki.site_gate`): the sitemap is read
as ``serve`` would (a failure is reported, and then nothing is public); every document it
withholds from ``customer_safe`` is listed with the reason, and the summary counts them by
reason and lists sitemap URLs no document produces — many of those mean the citation URL
pattern is wrong. Every entry carries its citation URL (``url``; ``check --urls`` prints
them).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from .audience import FILE, UNDECIDED
from .citations import UrlInputs, document_url, url_inputs
from .classify import PUBLIC, AudienceRule
from .corpus import COPY, ORPHAN, SAME_LOCALE, TWIN, UNPLACED, Resolved, resolve
from .docfx_urls import docfx_site
from .document import WikiDocument, WikiSettings
from .excluded_sources import forget_excluded
from .files import Skipped, discover
from .findings import NEAR_COPY, covers, read_finding, stale_acceptances
from .gitblobs import GitBlobs
from .reader import DocumentReader
from .reasons import withheld_kind
from .site_gate import OFF_SITE_CODES, SiteGate, SiteSource
from .sitemap import page_form, site_key
from .sites import SitePolicy, load_site_policy
from .sites.javascript import docusaurus_trailing_slash
from .sites.load import no_hold
from .sites.policy import Finding

__all__ = ["CHECK_FORMAT", "CUSTOMERS_ALL", "CUSTOMERS_NONE", "CUSTOMERS_PART", "FAILURE_CLASSES", "LEAK_RISK",
           "NOTICE", "QUARANTINED", "WARNING_CODES", "WITHHELD", "CheckReport", "Failure", "FileCheck", "check_wiki",
           "kept_from_customers_by_decision", "missing_url", "own_audience", "warning_codes"]

#: Version of the ``--json`` shape; bumped when a field changes meaning or goes away.
CHECK_FORMAT = 1


#: What a ``customer_safe`` credential gets of a document (:attr:`FileCheck.customer_safe`):
#: all of it, its text outside internal sections, or nothing.
CUSTOMERS_ALL, CUSTOMERS_PART, CUSTOMERS_NONE = "yes", "part", "no"

#: Classes of what makes ``check`` exit 1 (:class:`Failure`), so a CI script reading
#: ``--json`` can fail on the ones it chooses (issue 24): text that looks internal in a page
#: its rules publish, a page its rules publish kept from customers, a file the provider
#: failed closed on because of an error, and the rest (nothing changes for customers).
LEAK_RISK, WITHHELD, QUARANTINED, NOTICE = "leak-risk", "withheld", "quarantined", "notice"
FAILURE_CLASSES = (LEAK_RISK, WITHHELD, QUARANTINED, NOTICE)
#: Warning kinds that keep a page its rules publish (or part of it) from customers.
_WITHHOLDING_CODES = frozenset({"not-on-site", COPY, TWIN, "unclosed-internal-section"})
#: Kinds of withholding (:func:`~provider.wiki.reasons.withheld_kind`) an author or operator
#: decided, not a heuristic or an error: findings on such a page change nothing customers see.
_DECIDED_WITHHOLDING = frozenset({
    "no text to serve (generated or bare title)", "redirect stubs", "untranslated copies", "the same page twice",
    "not built by the docs tool", "NOINDEX", "withheld by a rule", "by a section's cascade",
    "not yet published or expired", "drafts and unpublished", "no readable text",
})


@dataclass(frozen=True)
class Failure:
    """One thing ``check`` (or ``check --strict``) exits 1 for.

    Attributes:
        failure_class: one of :data:`FAILURE_CLASSES`.
        kinds: what was found: a heuristic finding code, a warning kind of
            :data:`WARNING_CODES`, ``quarantined``, ``unused-rule``, ``stale-acceptance``,
            ``site-configuration``, ``sitemap`` or ``citation-url``.
        message: the line ``check`` prints.
        path: the file, relative to the content folder, or ``None``.
    """

    failure_class: str
    kinds: tuple[str, ...]
    message: str
    path: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``failures[]`` entry of ``check --json``."""
        return {"class": self.failure_class, "kinds": list(self.kinds), "path": self.path, "message": self.message}


def kept_from_customers_by_decision(item: Resolved) -> bool:
    """Whether an author's or operator's decision — not a heuristic, not an error — keeps
    the document from customers: an internal audience stated (front matter, a rule, a
    cascade, the site's metadata, the sitemap) or left undecided (internal by default), or
    a withholding such as a draft. A heuristic finding on such a page changes nothing
    customers see; on any other page it means text that looks internal sits in a page its
    rules publish (:data:`LEAK_RISK`)."""
    trailing = []  # the reasons that keep it internal now, the last one first
    for reason in reversed(item.reasons):
        if reason.audience == PUBLIC:
            break
        trailing.append(reason)
    if any(not r.source.startswith("fail-closed") or r.source == UNDECIDED for r in trailing):
        return True
    return item.withheld is not None and withheld_kind(item.withheld) in _DECIDED_WITHHOLDING


def own_audience(item: Resolved) -> tuple[str, str]:
    """``(audience, source)`` the page's own settings give: its front matter, the operator's
    rules, the site's metadata and its section's cascade — before the rules over the whole
    corpus (copies, twins, translations, the sitemap) and before quarantine."""
    own = (item.audience, item.audience_source)
    for reason in item.reasons:
        if reason.stage == FILE or reason.source.startswith(_CASCADE_SOURCES):
            own = (reason.audience, reason.source)
    return own


#: Sources of a section's cascade decision (:func:`own_audience`).
_CASCADE_SOURCES = ("cascade from ", "fail-closed: the cascade of ", "fail-closed: invalid cascade audience")

#: Kinds of warning ``check --strict --fail-on`` can fail on.
WARNING_CODES = (
    "unused-rule", ORPHAN, COPY, TWIN, SAME_LOCALE, UNPLACED, "stale-translation", "sync-unknown", "citation-url",
    "unclosed-internal-section", "not-inlined", "front-matter", "not-on-site", "any",
)
#: Sitemap URLs no document produces, listed by ``check`` (the rest are counted).
SITE_ONLY_SHOWN = 10
_MESSAGE_CODES = (
    ("stale translation:", "stale-translation"),
    ("translation freshness unknown", "sync-unknown"),
    ("unplaced translation:", UNPLACED),
    ("citation URL", "citation-url"),
    ("internal section opened at line", "unclosed-internal-section"),
    ("included text not inlined", "not-inlined"),
)


def warning_codes(entry: FileCheck) -> set[str]:
    """The kinds (:data:`WARNING_CODES`) of an entry's warnings; a warning of no other
    kind (an invalid ``locale``, ``title``, ``url``, ``date``…) is ``front-matter``."""
    codes: set[str] = set(entry.resolved.drift) if entry.resolved is not None else set()
    if entry.resolved is not None and entry.resolved.off_site is not None:
        codes.add("not-on-site")
    for warning in entry.warnings:
        code = next((c for prefix, c in _MESSAGE_CODES if warning.startswith(prefix)), None)
        if code is None and not any(w in warning for w in ("the same page as", "orphan translation",
                                                           "untranslated copy", "translation group",
                                                           "translation of ")):
            code = "front-matter"
        if code is not None:
            codes.add(code)
    return codes


@dataclass(frozen=True)
class FileCheck:
    """What the index would do with one path.

    Attributes:
        path: relative to the content folder (a skipped folder ends in ``/``).
        status: ``served``, ``withheld`` (read, served to nobody) or ``skipped`` (not read).
        quarantined: see the module docstring; ``reasons`` says why.
        reasons: the quarantine reasons.
        warnings: other findings.
        resolved: the classification (``None`` for skipped paths).
        skipped: why the path was skipped, or ``None``.
        url: the citation URL the document is served with (the agent index's, which is
            the public one for a public document), or ``None``.
        url_missing: for a served document without ``url``, why there is none and what
            to set (:func:`missing_url`); else ``None``.
    """

    path: str
    status: str
    quarantined: bool = False
    reasons: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    resolved: Resolved | None = None
    skipped: str | None = None
    url: str | None = None
    url_missing: str | None = None

    @property
    def customer_safe(self) -> str:
        """What a ``customer_safe`` credential gets of the document: :data:`CUSTOMERS_ALL`,
        :data:`CUSTOMERS_PART` (its text outside internal sections) or :data:`CUSTOMERS_NONE`
        (withheld, internal, skipped, or no text outside internal sections)."""
        item = self.resolved
        if item is None or not item.public:
            return CUSTOMERS_NONE
        return CUSTOMERS_PART if item.meta.internal_sections else CUSTOMERS_ALL

    def to_json(self) -> dict[str, Any]:
        """The ``files[]`` entry of ``check --json``."""
        data: dict[str, Any] = {
            "path": self.path,
            "status": self.status,
            "quarantined": self.quarantined,
            "quarantineReasons": list(self.reasons),
            "warnings": list(self.warnings),
        }
        if self.skipped is not None:
            data["skipped"] = self.skipped
        item = self.resolved
        if item is not None:
            meta = item.meta
            data.update(
                documentId=meta.doc_id,
                title=meta.title,
                audience=item.audience,
                audienceSource=item.audience_source,
                inPublicIndex=item.public,
                locale=meta.locale,
                localeSource=meta.sources.get("locale", ""),
                translationGroup=meta.translation_group,
                translationGroupSource=meta.sources.get("translation_group", ""),
                groupedWith=item.group is not None,
                withheld=item.withheld,
                drift=list(item.drift),
                internalSections=meta.internal_sections,
                date=meta.date,
                translationSync=item.sync,
                url=self.url,
                urlMissing=self.url_missing,
                customerSafe=self.customer_safe,
                fileAudience=own_audience(item)[0],
                fileAudienceSource=own_audience(item)[1],
                offSite=item.off_site,
                digest=meta.revision,
                findings=heuristic_findings(item),
            )
        return data


@dataclass
class CheckReport:
    """The result of :func:`check_wiki`.

    Attributes:
        settings: the effective settings (:meth:`WikiSettings.describe`).
        now: the time publication dates were compared with.
        files: one entry per path, sorted by path.
        unused_rules: audience rule patterns that match no file (often a typo that
            leaves a whole folder internal).
        sitemap: with ``sitemap:`` configured: ``sources``, ``urls`` (published URLs
            read), ``files`` (sitemap files read), ``error`` (why it could not be read,
            or ``None``); else ``None``.
        site_only: sitemap URLs that no document's citation URL matches, sorted.
        site: the docs tool's publication settings read (:mod:`provider.wiki.sites`).
        stale_acceptances: why each ``accepted_findings`` entry that no longer applies does
            not (the file is gone or changed, or the finding or its text is not in it).
        broad_acceptances: the ``accepted_findings`` entries without ``text``: each
            accepts every finding of its code in the file.
        url_notes: why some pages have no citation URL although one is configured (a
            DocFX docset without a base path, :meth:`~provider.wiki.docfx_urls.DocfxSite.notes`).
    """

    settings: dict[str, Any]
    now: dt.datetime
    files: list[FileCheck] = field(default_factory=list)
    unused_rules: list[str] = field(default_factory=list)
    sitemap: dict[str, Any] | None = None
    site_only: list[str] = field(default_factory=list)
    site: SitePolicy = field(default_factory=SitePolicy)
    stale_acceptances: list[str] = field(default_factory=list)
    broad_acceptances: list[dict[str, str]] = field(default_factory=list)
    url_notes: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """1 when any file is quarantined, a site configuration file cannot be
        understood, or a configured sitemap withholds every page (:meth:`sitemap_failure`),
        else 0."""
        failed = self.open_site_findings or self.sitemap_failure() or any(f.quarantined for f in self.files)
        return 1 if failed else 0

    def settled(self, finding: Finding) -> bool:
        """Whether the configured sitemap settles a site configuration finding: the file
        is readable but not understood without running it (JavaScript), and the sitemap
        — the ground truth of what was published, exclusions included — decides instead
        (issue 24). A broken file, or one without a sitemap, is never settled."""
        return self.sitemap is not None and finding.sitemap_settles

    @property
    def open_site_findings(self) -> list[Finding]:
        """The site configuration findings that fail ``check`` (not :meth:`settled`)."""
        return [f for f in self.site.findings if not self.settled(f)]

    def sitemap_failure(self) -> str | None:
        """Why the configured sitemap leaves customers nothing, or ``None``: it cannot be
        read (then nothing is public), or it matches none of the pages the rules make
        public (a wrong ``citation_base_url`` or URL pattern; ``check --urls`` shows
        ours, the report lists the site's)."""
        if self.sitemap is None:
            return None
        if self.sitemap.get("error"):
            return f"the sitemap cannot be read, so nothing is public: {self.sitemap['error']}"
        off = [f for f in self.files if f.resolved is not None and f.resolved.off_site]
        if off and not any(f.resolved is not None and f.resolved.public for f in self.files):
            return (f"the sitemap matches none of the {len(off)} pages the rules make public: check "
                    "citation_base_url and citation_path_pattern against the site's URLs (check --urls)")
        return None

    def summary(self) -> dict[str, Any]:
        """Counts for the summary table and ``summary`` in ``--json``."""
        served = [f for f in self.files if f.status == "served" and f.resolved is not None]
        drift = Counter(code for f in self.files if f.resolved is not None for code in f.resolved.drift)
        return {
            "files": len(self.files),
            "served": len(served),
            "publicIndex": sum(1 for f in served if f.resolved is not None and f.resolved.public),
            "internal": sum(1 for f in served if f.resolved is not None and f.resolved.audience == "internal"),
            "withheld": sum(1 for f in self.files if f.status == "withheld"),
            "withheldByReason": dict(Counter(withheld_kind(f.resolved.withheld) for f in self.files
                                             if f.resolved is not None and f.resolved.withheld).most_common()),
            "skipped": sum(1 for f in self.files if f.status == "skipped"),
            "quarantined": sum(1 for f in self.files if f.quarantined),
            "withWarnings": sum(1 for f in self.files if f.warnings),
            "withInternalSections": sum(
                1 for f in served if f.resolved is not None and f.resolved.meta.internal_sections
            ),
            "translationGroups": len({f.resolved.group for f in served if f.resolved and f.resolved.group}),
            "byLocale": dict(sorted(Counter(f.resolved.meta.locale for f in served if f.resolved).items())),
            "byAudience": dict(sorted(Counter(f.resolved.audience for f in served if f.resolved).items())),
            "drift": {code: drift.get(code, 0) for code in (ORPHAN, COPY, TWIN, SAME_LOCALE)},
            **({"sitemap": self._sitemap_summary(served)} if self.sitemap is not None else {}),
        }

    def _sitemap_summary(self, served: list[FileCheck]) -> dict[str, Any]:
        off = Counter(f.resolved.off_site for f in served if f.resolved is not None and f.resolved.off_site)
        sitemap = self.sitemap or {}
        return {
            "urls": sitemap.get("urls", 0),
            "error": sitemap.get("error"),
            "publicByRulesNotOnSite": sum(off.values()),
            "byReason": {OFF_SITE_CODES[code]: off.get(code, 0) for code in OFF_SITE_CODES},
            "siteUrlsWithoutDocument": len(self.site_only),
            "siteUrlsWithoutDocumentTop": self.site_only[:SITE_ONLY_SHOWN],
        }

    def strict_failures(self, fail_on: Iterable[str] = ()) -> list[str]:
        """What ``check --strict`` fails on, as printed (:meth:`classified_failures`
        without the failures of a plain ``check``).

        Raises:
            ValueError: an unknown code.
        """
        return [f.message for f in self.classified_failures(fail_on, strict=True, plain=False)]

    def classified_failures(self, fail_on: Iterable[str] = (), *, strict: bool = False,
                            plain: bool = True) -> list[Failure]:
        """Everything ``check`` exits 1 for, each with its class (:data:`FAILURE_CLASSES`).

        Args:
            fail_on: with ``strict``, warning kinds to fail on (:data:`WARNING_CODES`;
                ``any`` = every kind).
            strict: add what ``check --strict`` fails on: every unused audience rule, every
                open heuristic finding, every stale acceptance, every citation URL note, and
                every file with a warning of a kind in ``fail_on``.
            plain: include what a plain ``check`` fails on (:attr:`exit_code`): quarantined
                files, site configuration not understood, a sitemap that leaves customers
                nothing — all :data:`QUARANTINED`.

        Raises:
            ValueError: an unknown code in ``fail_on``.
        """
        wanted = set(fail_on)
        unknown = wanted - set(WARNING_CODES)
        if unknown:
            raise ValueError(f"unknown warning kind {sorted(unknown)[0]!r}; use {', '.join(WARNING_CODES)}")
        failures: list[Failure] = []
        if plain:
            failures += [Failure(QUARANTINED, ("site-configuration",), f"site configuration: {f.message}")
                         for f in self.open_site_findings]
            if (why := self.sitemap_failure()) is not None:
                failures.append(Failure(QUARANTINED, ("sitemap",), why))
            failures += [Failure(QUARANTINED, ("quarantined",), f"{e.path}: quarantined: {'; '.join(e.reasons)}",
                                 e.path) for e in self.files if e.quarantined]
        if not strict:
            return failures
        audiences = {pattern: audience for rule in self.settings.get("audience_rules", ())
                     for pattern, audience in rule.items()}
        # A rule meant to make pages public that matches nothing leaves them internal; one
        # meant to keep pages from customers that matches nothing may leave them public.
        failures += [Failure(WITHHELD if audiences.get(pattern) == PUBLIC else LEAK_RISK, ("unused-rule",),
                             f"audience rule {pattern!r} matches no file") for pattern in self.unused_rules]
        failures += [Failure(NOTICE, ("stale-acceptance",), stale) for stale in self.stale_acceptances]
        failures += [Failure(NOTICE, ("citation-url",), f"citation URLs: {note}") for note in self.url_notes]
        for entry in self.files:
            # A heuristic decided what this page shows customers: review it (fix the
            # page, or accept the finding in accepted_findings).
            item = entry.resolved
            open_findings = [f for f in (heuristic_findings(item) if item else ()) if not f["accepted"]]
            if item is not None and open_findings:
                failures.append(Failure(
                    NOTICE if kept_from_customers_by_decision(item) else LEAK_RISK,
                    tuple(dict.fromkeys(f["finding"] for f in open_findings)),
                    f"{entry.path}: heuristic finding " + ", ".join(
                        f"{f['finding']}" + (f" at line {f['line']}" if f["line"] else "") for f in open_findings)
                    + f" (digest {item.meta.revision})", entry.path))
            codes = warning_codes(entry)
            hit = sorted(codes if "any" in wanted else codes & wanted)
            for failure_class in (WITHHELD, NOTICE):
                kinds = [code for code in hit if (code in _WITHHOLDING_CODES) == (failure_class == WITHHELD)]
                if kinds:
                    failures.append(Failure(failure_class, tuple(kinds), f"{entry.path}: {', '.join(kinds)}",
                                            entry.path))
        return failures

    def to_json(self) -> dict[str, Any]:
        """The whole ``check --json`` document."""
        return {
            "checkFormat": CHECK_FORMAT,
            "ok": self.exit_code == 0,
            "now": self.now.isoformat(),
            "settings": self.settings,
            "summary": self.summary(),
            "unusedRules": self.unused_rules,
            **({"sitemap": {**self.sitemap, "urlsWithoutDocument": self.site_only}} if self.sitemap is not None
               else {}),
            "site": {"tool": self.site.tool, "sources": list(self.site.sources),
                     "findings": [{"source": f.source, "message": f.message,
                                   **({"settledBySitemap": True} if self.settled(f) else {})}
                                  for f in self.site.findings]},
            "files": [entry.to_json() for entry in self.files],
            # Only with accepted_findings configured: the shape stays as it was without.
            **({"staleAcceptances": self.stale_acceptances, "broadAcceptances": self.broad_acceptances}
               if "accepted_findings" in self.settings else {}),
            **({"urlNotes": self.url_notes} if self.url_notes else {}),
        }


def heuristic_findings(item: Resolved) -> list[dict[str, Any]]:
    """The heuristic findings (:mod:`provider.wiki.findings`) of one document, file-level
    and corpus-level (``near-copy``), each ``{finding, line, text, accepted}``."""
    accepted = set(item.meta.accepted)
    found: list[dict[str, Any]] = []
    for stored in item.meta.findings:
        code, line, text = read_finding(stored)
        found.append({"finding": code, "line": line, "text": text, "accepted": covers(accepted, code, text)})
    for reason in item.quarantine:
        if reason.startswith(("nearly the same text as", "holds a paragraph of")):  # rules 6, 6b and 6c
            found.append({"finding": NEAR_COPY, "line": 0, "text": reason, "accepted": False})
    for problem in item.problems:
        if problem.startswith("accepted near-copy:"):
            found.append({"finding": NEAR_COPY, "line": 0, "text": problem.partition(": ")[2], "accepted": True})
    return found


def _url_warnings(item: Resolved, settings: WikiSettings) -> list[str]:
    """What the indexer would warn about the document's citation URL, in either index."""
    if not item.served:
        return []
    meta = item.meta
    inputs = url_inputs(meta, settings)
    _, warning = document_url(inputs, public=item.audience == PUBLIC, settings=settings.citation, agent_view=True)
    return [warning] if warning else []


def _entry(relpath: str, item: Resolved, settings: WikiSettings) -> FileCheck:
    reasons = tuple(dict.fromkeys([*item.meta.errors, *item.quarantine]))
    found = [*item.meta.warnings, *item.problems, *_url_warnings(item, settings)]
    warnings = tuple(w for w in dict.fromkeys(found) if w not in reasons)
    url = missing = None
    if item.served:
        inputs = url_inputs(item.meta, settings)
        url, dropped = document_url(inputs, public=item.audience == PUBLIC, settings=settings.citation,
                                    agent_view=True)
        if url is None:
            missing = missing_url(inputs, public=item.audience == PUBLIC, settings=settings, dropped=dropped)
    return FileCheck(
        path=relpath,
        status="served" if item.served else "withheld",
        quarantined=item.quarantined,
        reasons=reasons,
        warnings=warnings,
        resolved=item,
        url=url,
        url_missing=missing,
    )


def missing_url(inputs: UrlInputs, *, public: bool, settings: WikiSettings, dropped: str | None = None) -> str:
    """Why a served document has no citation URL, and what to set: ``check --urls`` says
    it instead of a bare "(none)".

    Args:
        inputs: the document's URL material (:func:`~provider.wiki.citations.url_inputs`).
        public: whether its effective audience is ``public``.
        settings: the wiki settings.
        dropped: the warning :func:`~provider.wiki.citations.document_url` gave when it
            built a URL and dropped it, or ``None``.
    """
    if dropped is not None:
        return dropped
    citation = settings.citation
    if not public:
        if citation.internal_base_url is None:
            return ("internal: no internal_citation_base_url set (agents get no link; set it to where staff read "
                    "internal pages)")
    elif citation.base_url is None and inputs.front_matter_url is None:
        return ("no citation_base_url set (set it to the public site, e.g. https://help.example.com; "
                f"citation_path_pattern if its URLs are not the {settings.preset.name} layout's)")
    elif citation.base_url is None:
        return ("front matter url is a site path and no citation_base_url is set to put it under "
                "(set citation_base_url)")
    if inputs.problem is not None:
        return f"the page's path on the site is unknown: {inputs.problem}"
    return "no URL built (run `check --json` and see urlNotes)"


def _site_only(gate: SiteGate, resolved: dict[str, Resolved]) -> list[str]:
    """Sitemap URLs that no document's citation URL matches. A withheld document counts as
    producing its URL: the site publishing a page we withhold (say, one with no text to
    serve) is no sign of a wrong URL pattern, which is what this list is read for."""
    if gate.sitemap is None:
        return []
    produced = {(site_key(url), page_form(url)) for item in resolved.values()
                for url in (gate.url(item.meta),) if url is not None}
    return sorted(url for key, url in gate.sitemap.urls.items()
                  if not any((key, form) in produced for form in gate.sitemap.forms_of(key)))


def _skipped_entry(skipped: Skipped) -> FileCheck:
    return FileCheck(
        path=skipped.relpath,
        status="skipped",
        quarantined=not skipped.expected,
        reasons=() if skipped.expected else (skipped.reason,),
        skipped=skipped.reason,
    )


def unused_rules(rules: Iterable[AudienceRule], relpaths: Iterable[str]) -> list[str]:
    """The patterns of audience rules that match none of ``relpaths``."""
    paths = list(relpaths)
    return [rule.pattern for rule in rules if not any(rule.matches(path) for path in paths)]


def check_wiki(settings: WikiSettings, *, now: dt.datetime | None = None) -> CheckReport:
    """Classify every file under ``settings.root`` as the indexer would, writing nothing.

    Args:
        settings: how to read the wiki (as ``serve`` and ``index`` would).
        now: the time publication dates are compared with (aware); default: the clock.

    The site configuration is read as it is, with no hold (issue 24): a one-shot reading
    has no earlier reading to protect, and on a fresh checkout every file is seconds old.
    ``serve`` and ``index`` keep the hold (:mod:`provider.wiki.sites.load`).

    Raises:
        FileNotFoundError: the content folder does not exist.
    """
    with no_hold():
        return _check_wiki(replace(settings, config_hold_s=0.0), now)  # reader processes too


def _check_wiki(settings: WikiSettings, now: dt.datetime | None) -> CheckReport:
    now = now or dt.datetime.now(dt.UTC)
    policy = load_site_policy(settings.root, settings.layout)
    forget_excluded(settings.root)  # the excluded files' join keys as they are now (issue 24)
    found = discover(settings.root, extensions=settings.file_extensions, max_file_bytes=settings.max_file_bytes,
                     ignore=settings.ignore_rules, exclude=policy.excluded_reason)
    metas = {}
    skipped = list(found.skipped)
    # The same reader as the indexer: worker processes, each file within a time limit.
    reader = DocumentReader(settings)
    try:
        for _, result in reader.read(sorted(found.files)):
            if isinstance(result, WikiDocument):
                metas[result.meta.relpath] = result.meta
            elif isinstance(result, Skipped):
                skipped.append(result)
    finally:
        reader.close()
    gate = None
    if settings.sitemap:
        source = SiteSource(settings.sitemap, state_file=None, limits=settings.sitemap_limits)
        source.refresh()
        gate = source.gate(settings)
    resolved = resolve(metas, default_locale=settings.default_locale, now=now, blobs=GitBlobs(settings.root),
                       layout=settings.preset, gate=gate)
    paths = [*found.files, *(s.relpath for s in skipped)]
    report = CheckReport(settings=settings.describe(applicable_only=True), now=now,
                         unused_rules=unused_rules(settings.audience_rules, paths), site=policy)
    if gate is not None:
        report.sitemap = {"sources": list(settings.sitemap), "error": gate.error,
                          "urls": len(gate.sitemap) if gate.sitemap is not None else 0,
                          "files": list(gate.sitemap.files) if gate.sitemap is not None else []}
        report.site_only = _site_only(gate, resolved)
    citation = settings.citation
    if settings.preset.url_rules == "docfx" and (citation.base_url or citation.internal_base_url or settings.sitemap):
        report.url_notes = docfx_site(settings.root, citation.docfx_base_paths, citation.base_url).notes()
    if (settings.preset.url_rules == "docusaurus" and (citation.base_url or citation.internal_base_url)
            and not citation.path_pattern and isinstance(slash := docusaurus_trailing_slash(settings.root), str)):
        report.url_notes = [*report.url_notes, f"docusaurus.config trailingSlash is {slash!r}, not a literal true or "
                            "false (not evaluated): URLs are built without a trailing slash; set "
                            "citation_path_pattern if the site adds one"]
    if settings.accepted_findings:
        findings = {relpath: [(f["finding"], f["text"]) for f in heuristic_findings(item)]
                    for relpath, item in resolved.items()}
        report.stale_acceptances = stale_acceptances(
            settings.accepted_findings, {relpath: meta.revision for relpath, meta in metas.items()}, findings)
        report.broad_acceptances = [a.describe() for a in settings.accepted_findings if a.text is None]
    report.files = sorted(
        [_entry(relpath, item, settings) for relpath, item in resolved.items()] + [_skipped_entry(s) for s in skipped],
        key=lambda entry: entry.path,
    )
    return report
