"""Corpus-wide rules: what one file cannot decide alone.

:func:`resolve` takes every document's metadata and decides, for each, whether and
how it is served. In order:

1. **Cascade** (Hugo, :mod:`provider.wiki.cascade`): the nearest section page of the
   document's locale supplies ``audience`` and withholding facts the document does not
   set itself. Audience precedence: own front matter → nearest cascade → operator rule
   → internal. An unreadable or invalid cascade makes the pages it would cover internal.
   **The same file by several paths** (a symlink, a hard link): every path gets the
   strictest status of them all (withheld, else internal, else public).
2. **Publication**: drafts, ``unlisted``, ``build`` options, a future ``publishDate`` or
   past ``expiryDate`` at ``now`` → served to nobody (CONTRACT X5).
3. **The same page twice** — ``intro.md`` and ``intro.mdx`` (or ``.markdown``) side by
   side: one is served, ``.mdx`` first, then ``.md``, then ``.markdown``; the others are
   withheld and both are reported. The served one is public only if every twin is.
4. **Untranslated copies**: a document in another locale whose text is identical to a
   default-locale document of its translation group is not a translation: it is
   withheld (reported), so a search in that locale does not return source-language text
   labelled as a translation, and an unpublished source's text is not served under
   another name.
5. **Pages the tool does not build**: a Hugo leaf bundle's other markdown files (page
   resources), a Jekyll file without front matter (copied as a static file), and a translation under a path of
   :attr:`~provider.wiki.layouts.Layout.translations_need_source` (Docusaurus ``i18n/``)
   whose translation group has no default-locale document is withheld: Docusaurus
   builds no ``i18n/`` file without its source under ``docs/`` — and with
   :attr:`~provider.wiki.layouts.Layout.translations_by_file`, none without the source
   *file* at the same path, extension included (run before the twins rule, so of a
   translated ``a.md``/``a.mdx`` pair the one Docusaurus builds is kept). **5b.** A public
   translation the locale settings place in a group whose default-locale page is internal
   or withheld — however that was decided: front matter, an audience rule, a cascade, a
   quarantine, a publication key, the tool not building it — is internal, whatever made
   the translation public (its own front matter too): a translation of internal text is
   internal text. One rule with 5c and the copy rules (:func:`_passes_on`): a source
   withheld as a duplicate, or only kept out of search engines, passes nothing on. The
   sitemap (rule 11) runs later and passes nothing on: a translation is gated by its own
   URL. **5c.** A page whose path names another language than its own in a folder or a
   part of its file name (``goodwill-de.md``, ``de-goodwill.md``, ``goodwill-de-v2.md``,
   ``de-DE/goodwill.md``, ``german/goodwill.md``, Docusaurus' ``i18n/de/…``:
   :mod:`provider.wiki.translation_names`; paths compared after NFC and case folding)
   where the locale settings do not place a translation is reported (an *unplaced
   translation*), and a public one is internal when the page at the path without that
   name, or its translation group, is internal or withheld.
6. **Copies inherit the strictest status** (:mod:`provider.wiki.copies`): a public
   document whose text nearly copies (estimated Jaccard similarity of word shingles ≥ 0.35)
   an internal document, an internal section of any document, or a document withheld for
   its own reasons (draft, dates, not built) is served with the strictest audience and
   publication among them, and quarantined with the reason. A page withheld only because
   its ``ROBOTS`` says ``NOINDEX`` passes nothing on (the site publishes its text), and a
   near-copy the operator accepted for the page's bytes (:mod:`provider.wiki.findings`)
   is reported, not acted on. **6b.** The same holds for a public document with the very
   words of such a text (:func:`~provider.wiki.copies.word_bag`: a copy too short for a
   sketch, or with its words or sentences reordered).
7. **Duplicate ids**: two or more served files claiming one ``documentId`` are all
   reported and all made internal, so none reaches ``customer_safe`` (fail closed).
8. **Translation groups**: a group key shared by two or more served documents is a
   group; a key of one document is not reported as a group. The public index sees
   groups as if internal documents did not exist, so a public article's group never
   reveals an internal sibling (contract §5.4).
9. **Drift reports** (served as they are): an *orphan translation* — a document in
   another locale whose group has no default-locale document — and an *ambiguous group*
   — two served documents of one locale in one group.
10. **Translation sync** (the ``freshness`` capability): a *translation* — a document of
   a group in another locale than the default (source) locale — whose front matter
   records the source revision it was made from is ``stale`` when its source document
   changed since, ``current`` when not, ``unknown`` when that cannot be told:
   ``source_revision: <git blob hash of the source file>`` is compared with the source's
   current revision (a prefix of 7 or more hex digits is enough);
   ``default_lang_commit: <git commit>`` (Hugo sites) asks git which blob the source
   file was at that commit (:mod:`provider.wiki.gitblobs`). The source is the group's
   one default-locale document; none, or several, make the state ``unknown``. The
   public index judges with public sources only, as it sees groups.

11. **Proof of publication** (with ``sitemap:`` configured, :mod:`provider.wiki.site_gate`):
   a document the rules above leave public stays public only if the site's sitemap has its
   citation URL, and no other document's different URL reaches the same site key (Jekyll's
   ``/a.html`` and ``/a/``); otherwise it is internal (agents keep it), with the reason. It runs last
   among the audience rules and passes nothing on: a page missing from the site demotes no
   copy of it (the site publishes the copy), and translation groups and sync are judged
   after it, as the public index sees them.

The result depends only on the metadata, ``now``, the sitemap and git's (immutable) history, and each
document's decision only on a few others' (its inputs: see
:mod:`provider.wiki.incremental`, which keeps the decisions between batches and derives
again only what a batch can affect), so an incremental update gives exactly what a fresh
build would at that time.
"""

from __future__ import annotations

import datetime as dt
import gc
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING, TypeAlias

from .audience import CORPUS, FILE, INTERNAL, PUBLIC, Reason
from .cascade import CASCADE_ERROR, INVALID_AUDIENCE
from .containment import Rarity, rarity
from .copies import CopyGraph, near_copies
from .findings import NEAR_COPY
from .gitblobs import BlobLookup
from .layouts import Layout
from .locale_patterns import match_locale
from .locales import strip_extension
from .model import DocumentMeta
from .publication import DATE_KEYS, INVALID, withholding
from .same_text import ON_THE_SITE, WITHHELD, contained_text, copy_source, same_file, same_paragraphs, same_words
from .translation_names import candidate_stems, name_key

if TYPE_CHECKING:
    from .site_gate import SiteGate

#: Asked about every document the rules leave public (rule 11): ``None`` when it is on
#: the site, else why not; and which documents share a site key (``conflated``).
Gate: TypeAlias = "SiteGate"

__all__ = [
    "COPY",
    "ORPHAN",
    "SAME_LOCALE",
    "SYNC_CURRENT",
    "SYNC_STALE",
    "SYNC_UNKNOWN",
    "TWIN",
    "TWIN_PREFERENCE",
    "UNPLACED",
    "Derived",
    "Gate",
    "Resolved",
    "derive",
    "public_part",
    "resolve",
]

#: Drift codes (:attr:`Resolved.drift`).
ORPHAN, COPY, TWIN, SAME_LOCALE = "orphan-translation", "untranslated-copy", "same-page-twice", "same-locale-in-group"
#: Drift code of rule 5c: a page whose path reads as a translation the locale settings do not place.
UNPLACED = "unplaced-translation"

#: Translation sync states (:attr:`Resolved.sync`).
SYNC_CURRENT, SYNC_STALE, SYNC_UNKNOWN = "current", "stale", "unknown"

#: Which of two files with one path and different extensions is served.
TWIN_PREFERENCE = (".mdx", ".md", ".markdown")


@dataclass(frozen=True)
class Resolved:
    """How one document is served.

    Attributes:
        meta: the file's own metadata.
        audience: the effective audience (``public`` only if the file, its cascade or a
            rule says exactly public *and* no corpus rule withdrew it).
        served: false when withheld (see ``withheld``).
        group: the translation group key when the group has two or more served
            members, else ``None`` (used in the agent index).
        public_group: the same, counting only members in the public index.
        problems: corpus-level findings shown to the operator (twins, copies, orphans).
        audience_source: where the effective audience came from.
        withheld: why the document is served to nobody, or ``None``.
        quarantine: corpus-level reasons the document is quarantined (a duplicate id,
            an unreadable or invalid cascade); its own are ``meta.errors``.
        drift: translation-drift findings by code: :data:`ORPHAN`, :data:`COPY`,
            :data:`TWIN` (one of a pair; the served one too), :data:`SAME_LOCALE`.
        sync: for a translation with a sync key, :data:`SYNC_CURRENT`, :data:`SYNC_STALE`
            or :data:`SYNC_UNKNOWN` (rule 8); ``None`` otherwise (used in the agent index).
        public_sync: the same, judged with public sources only (used in the public index).
        off_site: when the sitemap (rule 11) made a document its rules call public
            internal, the code of why (:data:`provider.wiki.site_gate.OFF_SITE_CODES`);
            the sentence is ``audience_source``.
        reasons: the audience's story (:class:`provider.wiki.audience.Reason`): the
            file's decision, then each corpus rule that changed it, in the order they
            applied; the last one is ``audience`` and ``audience_source``.
    """

    meta: DocumentMeta
    audience: str
    served: bool
    group: str | None
    public_group: str | None = None
    problems: tuple[str, ...] = ()
    audience_source: str = ""
    withheld: str | None = None
    quarantine: tuple[str, ...] = field(default=())
    drift: tuple[str, ...] = field(default=())
    sync: str | None = None
    public_sync: str | None = None
    off_site: str | None = None
    reasons: tuple[Reason, ...] = ()

    @property
    def public(self) -> bool:
        """Whether the document belongs in the public (``customer_safe``) index: served,
        public, and with some text outside internal sections."""
        return self.served and self.audience == PUBLIC and self.meta.public_text

    @property
    def quarantined(self) -> bool:
        """Whether the provider failed closed on this file because of an error in it or
        in what it depends on (see ``quarantine`` and ``meta.errors``)."""
        return bool(self.meta.errors or self.quarantine)

    def fingerprint(self) -> str:
        """Changes whenever anything indexed for this document changes. The part after
        ``" #public "`` (:func:`public_part`) changes only when its entry in the public
        index does."""
        meta = self.meta
        parts = (meta.revision, self.audience, str(self.served), self.group or "", meta.doc_id, meta.title,
                 meta.locale, meta.review_due or "", meta.url or "", self.sync or "")
        public = ((meta.public_revision or meta.revision), self.public_group or "", meta.doc_id, meta.title,
                  meta.locale, meta.review_due or "", meta.url or "", self.public_sync or "") if self.public else ()
        return "|".join(parts) + " #public " + "|".join(public)


def public_part(fingerprint: str | None) -> str | None:
    """What of a :meth:`Resolved.fingerprint` describes the public index entry (``""``
    when the document is not in it, ``None`` for no fingerprint)."""
    if fingerprint is None:
        return None
    before, marker, after = fingerprint.partition(" #public ")
    return after if marker else before  # an older manifest's fingerprint: treat as changed


@dataclass
class _Draft:
    """A document's decisions while the rules run."""

    meta: DocumentMeta
    audience: str
    audience_source: str
    withheld: str | None
    problems: list[str] = field(default_factory=list)
    quarantine: list[str] = field(default_factory=list)
    drift: list[str] = field(default_factory=list)
    #: withheld for a corpus rule about another copy (twins, untranslated copies): such a
    #: document does not pass its status on to the document it duplicates.
    withheld_as_duplicate: bool = False
    #: the documents a copy rule (6–6d) took this one's status from: their text is not
    #: this one's to pass back (:func:`~provider.wiki.same_text.copied_back`).
    copied_from: set[str] = field(default_factory=set)
    #: the publication dates compared with ``now`` (POSIX seconds): the first pass gives
    #: the same answer at any other time on the same side of each of them.
    dates: tuple[float, ...] = ()
    #: rule 11's code, when the sitemap made the document internal.
    off_site: str | None = None
    #: the audience's story so far: the file's decision, then the corpus rules'.
    reasons: list[Reason] = field(default_factory=list)

    def decide(self, reason: Reason) -> None:
        """A corpus rule sets the audience: recorded in the story."""
        self.audience, self.audience_source = reason.audience, reason.source
        self.reasons.append(reason)

    def story(self) -> tuple[Reason, ...]:
        """The reasons, ending with the audience as it stands (should a rule ever set the
        fields directly rather than through :meth:`decide`, it is told in its own words)."""
        last = self.reasons[-1] if self.reasons else None
        if last is None or (last.audience, last.source) != (self.audience, self.audience_source):
            return (*self.reasons, Reason(self.audience, self.audience_source, CORPUS))
        return tuple(self.reasons)


def _parent(path: str) -> str:
    return path.rpartition("/")[0]


def _cascades(docs: Mapping[str, DocumentMeta]) -> dict[tuple[str, str], DocumentMeta]:
    return {
        (_parent(relpath), meta.locale): meta
        for relpath, meta in sorted(docs.items())
        if meta.section and meta.cascade is not None
    }


def _cascaded(
    relpath: str, meta: DocumentMeta, sections: Mapping[tuple[str, str], DocumentMeta]
) -> tuple[dict[str, str], dict[str, str]]:
    """``(values, origin)``: each cascaded key's value from the nearest section that sets
    it, and that section's path. An unreadable section supplies ``error`` for the
    audience it might have set."""
    values: dict[str, str] = {}
    origin: dict[str, str] = {}
    folder: str | None = _parent(relpath)
    while folder is not None:
        section = sections.get((folder, meta.locale))
        if section is not None and section.cascade is not None:
            for key, value in section.cascade.items():
                if key == CASCADE_ERROR:
                    if "audience" not in values:
                        values["audience"], origin["audience"] = CASCADE_ERROR, section.relpath
                    continue
                if key not in values:
                    values[key], origin[key] = value, section.relpath
        folder = _parent(folder) if folder else None
    for key, value in (meta.site_cascade or {}).items():  # the site configuration: below every section
        key = "audience" if key == CASCADE_ERROR else key
        if key not in values:
            values[key], origin[key] = value, "the site configuration"
    return values, origin


def _first_pass(relpath: str, meta: DocumentMeta, sections: Mapping[tuple[str, str], DocumentMeta],
                now: dt.datetime) -> _Draft:
    values, origin = _cascaded(relpath, meta, sections) if sections or meta.site_cascade else ({}, {})
    source = meta.sources.get("audience", "")
    draft = _Draft(meta, meta.audience, source, None, reasons=[Reason(meta.audience, source, FILE)])
    cascaded_audience = values.pop("audience", None)
    if not meta.audience_own and cascaded_audience is not None:
        where = origin["audience"]
        if cascaded_audience == CASCADE_ERROR:
            draft.decide(Reason(INTERNAL, f"fail-closed: the cascade of {where} cannot be read", CORPUS))
            draft.quarantine.append(f"audience unknown: the cascade of {where} cannot be read; served as internal")
        elif cascaded_audience == INVALID_AUDIENCE:
            draft.decide(Reason(INTERNAL, f"fail-closed: invalid cascade audience in {where}", CORPUS))
            draft.quarantine.append(f"the cascade audience of {where} is not exactly 'public' or 'internal'")
        else:
            draft.decide(Reason(cascaded_audience, f"cascade from {where}", CORPUS))
    if meta.draft:
        draft.withheld = meta.sources.get("draft") or "draft"
    elif not meta.has_text:
        draft.withheld = "has no readable text (kept for its cascade)"
    else:
        facts = {**values, **meta.publication}
        draft.dates = _dates(facts)
        found = withholding(facts, now)
        if found is not None:
            key, reason = found
            from_cascade = key in values and key not in meta.publication
            draft.withheld = f"cascade from {origin[key]}: {reason}" if from_cascade else reason
    return draft


def _dates(facts: Mapping[str, str]) -> tuple[float, ...]:
    found = []
    for key in DATE_KEYS:
        value = facts.get(key)
        if value and value != INVALID:
            found.append(dt.datetime.fromisoformat(value).timestamp())
    return tuple(found)


def _twins(drafts: Mapping[str, _Draft]) -> None:
    by_page: dict[str, list[str]] = defaultdict(list)
    for relpath, draft in drafts.items():
        extension = "." + relpath.rsplit(".", 1)[-1].lower() if "." in relpath else ""
        if draft.withheld is None and extension in TWIN_PREFERENCE:
            by_page[strip_extension(relpath)].append(relpath)
    for paths in by_page.values():
        if len(paths) < 2:
            continue
        # By path among equals (``a.md``, ``a.MD``), not by the order the files were met.
        paths.sort(key=lambda p: (TWIN_PREFERENCE.index("." + p.rsplit(".", 1)[-1].lower()), p))
        kept, others = paths[0], paths[1:]
        drafts[kept].problems.append(f"the same page as {', '.join(others)}; this one is served")
        drafts[kept].drift.append(TWIN)
        for other in others:
            drafts[other].withheld = f"the same page as {kept}, which is served instead"
            drafts[other].withheld_as_duplicate = True
            drafts[other].problems.append(f"the same page as {kept}; not served")
            drafts[other].drift.append(TWIN)
        internal = [p for p in others if drafts[p].audience != PUBLIC]
        if drafts[kept].audience == PUBLIC and internal:
            drafts[kept].decide(Reason(INTERNAL, f"fail-closed: its twin {internal[0]} is not public", CORPUS))


def _source_files(drafts: Mapping[str, _Draft], layout: Layout) -> None:
    """Rule 5 (Docusaurus): a translation under
    :attr:`~provider.wiki.layouts.Layout.translations_need_source` is built only for the
    source *file* at the same path (``i18n/ja/…/current/a/b.mdx`` for ``docs/a/b.mdx``):
    the docs plugin lists the files of ``docs/`` and looks each one up in the locale's
    folder, so a translated ``admin.md`` beside the source's ``admin/README.md``, or a
    ``hardhat.md`` left beside the source's ``hardhat.mdx``, is never a page (issue 24)."""
    files = set(drafts)
    for relpath, draft in drafts.items():
        if draft.withheld is not None or not relpath.startswith(layout.translations_need_source):
            continue
        stem = strip_extension(relpath)
        extension = relpath[len(stem):]
        found = match_locale(stem, layout.locale_patterns, {draft.meta.locale})
        if found is None:
            continue
        source = found.group + extension
        if source in files:
            continue
        draft.withheld = (f"not a page: the docs tool builds {relpath.split('/')[0]}/ translations only for a "
                          f"source file at the same path, and there is no {source}")
        draft.withheld_as_duplicate = True  # a stale copy: it must not withhold what it copies
        draft.problems.append(f"no source file {source}: the docs tool does not build this translation, so it "
                              "is not served")
        draft.drift.append(ORPHAN)


def _copies(drafts: Mapping[str, _Draft], default_locale: str) -> None:
    sources: dict[tuple[str, str], str] = {}
    for relpath, draft in sorted(drafts.items()):
        if draft.meta.locale == default_locale and draft.meta.text_hash:
            sources.setdefault((draft.meta.translation_group, draft.meta.text_hash), relpath)
    for draft in drafts.values():
        meta = draft.meta
        source = sources.get((meta.translation_group, meta.text_hash))
        if draft.withheld is None and meta.locale != default_locale and source is not None:
            # The hash is of the words a reader sees (text_hash): say so, since the files
            # themselves may differ (a generated comment, the front matter, markup).
            draft.withheld = (f"shows the same text as its {default_locale} source {source} (title, headings and "
                              "text compared; comments, markup and front matter are not): not a translation")
            draft.withheld_as_duplicate = True
            draft.problems.append(f"untranslated copy of {source}; not served")
            draft.drift.append(COPY)


def _mkdocs_page_of(relpath: str) -> tuple[str, tuple[tuple[str, ...], bool, str]]:
    """``(page, sort key)`` of a Markdown file as MkDocs builds it: ``a/b.md``,
    ``a/b/index.md`` and ``a/b/README.md`` are all the page ``a/b/``; the key is MkDocs'
    own order of building files (``mkdocs.structure.files.file_sort_key``: a folder's
    files before its subfolders', ``index`` first)."""
    parts = tuple(relpath.split("/"))
    stem = strip_extension(parts[-1])
    index = stem.lower() in ("index", "readme")
    page = "/".join(parts[:-1]) if index else strip_extension(relpath)
    return page, (parts[:-1], not index, parts[-1])


def _mkdocs_overwritten(drafts: Mapping[str, _Draft]) -> None:
    """Rule 5 (MkDocs): ``a/b.md`` beside ``a/b/index.md`` are built to the one file
    ``a/b/index.html``, in MkDocs' order of files; the one written last is the page the site
    shows, whatever ``nav`` names (MkDocs 1.6: the subfolder's ``index.md``). The others are
    not on the site: withheld."""
    by_page: dict[tuple[str, str], list[str]] = defaultdict(list)
    for relpath, draft in drafts.items():
        if draft.withheld is None:  # the same documentId too: an ``id:`` of its own names another page
            by_page[(_mkdocs_page_of(relpath)[0], draft.meta.doc_id)].append(relpath)
    for paths in by_page.values():
        if len(paths) < 2:
            continue
        paths.sort(key=lambda p: _mkdocs_page_of(p)[1])
        shown = paths[-1]
        for other in paths[:-1]:
            why = f"not a page: MkDocs builds {shown} to the same page after it, so the site shows that one"
            drafts[other].withheld = why
            drafts[other].problems.append(why)


def _not_pages(drafts: Mapping[str, _Draft], layout: Layout) -> None:
    """Rule 5: files the layout's tool does not render as pages (Hugo leaf-bundle
    resources, Jekyll files without front matter, an MkDocs page another file of the same
    URL overwrites)."""
    if layout.url_rules == "mkdocs":
        _mkdocs_overwritten(drafts)
    bundles = set()
    if layout.bundle_resources:
        for relpath in drafts:
            folder, _, name = relpath.rpartition("/")
            if folder and name.split(".", 1)[0].lower() == "index":
                bundles.add(folder)
    for relpath, draft in drafts.items():
        if draft.withheld is not None:
            continue
        if layout.needs_front_matter and not draft.meta.has_front_matter:
            draft.withheld = f"not a page: {layout.name} does not render a file without front matter as a page"
            draft.problems.append(draft.withheld)
            continue
        folder, _, name = relpath.rpartition("/")
        stem = name.split(".", 1)[0].lower()
        while folder and bundles:
            if folder in bundles and not (folder == relpath.rpartition("/")[0] and stem in ("index", "_index")):
                draft.withheld = f"not a page: a resource of the leaf bundle {folder}/ (Hugo renders only its index)"
                draft.problems.append(draft.withheld)
                break
            folder = folder.rpartition("/")[0]


def _passes_on(source: _Draft) -> str | None:
    """Whether a page's translations inherit its status, and which: ``"internal"`` or
    ``"withheld"`` (not served), else ``None``. One answer however that status was decided —
    front matter, an audience rule, a cascade, a quarantine, a publication key, the tool not
    building the page — and the same one the copy rules read
    (:func:`~provider.wiki.same_text.copy_source`): a page withheld as a duplicate, or only
    kept out of search engines, is on the site and passes nothing on."""
    whole = copy_source(source)[0]
    return None if whole is None else "withheld" if whole == WITHHELD else "internal"


def _inherit_from_source(draft: _Draft, sources: list[_Draft], why: str) -> str | None:
    """Rules 5 and 5c, one code path: a public translation of a page whose status
    passes on (:func:`_passes_on`) is internal — whatever made the translation public,
    its own front matter included: a translation of internal text is internal text (issue
    24). ``why`` says how the page reads as a translation (``""``: the locale settings
    place it). Returns the source that decided, or ``None``."""
    if draft.audience != PUBLIC or draft.withheld is not None:
        return None
    for source in sources:
        status = _passes_on(source) if source is not draft else None
        if status is None:
            if source is not draft and source.withheld is not None and source.withheld.endswith(ON_THE_SITE):
                # Docusaurus ``unlisted`` (or NOINDEX, a redirect stub): the site publishes the
                # source under its URL, so its text is public and the translation keeps its own
                # status; said, since the source itself is not served (operator trial, issue 24).
                note = (f"its source {source.meta.relpath} is not served ({source.withheld}), but the site "
                        "publishes it under its URL: this translation keeps its own audience")
                if note not in draft.problems:
                    draft.problems.append(note)
            continue
        path = source.meta.relpath
        named = f"the internal {path}" if status == "internal" else f"{path}, which is not served"
        draft.decide(Reason(INTERNAL, f"fail-closed: {why}a translation of {named}", CORPUS))
        draft.problems.append(f"translation of {named}; served as internal")
        return path
    return None


def url_key(meta: DocumentMeta) -> str | None:
    """The key that joins pages of one URL in several languages (jekyll-polyglot builds
    the pages sharing a ``permalink`` as one page, whatever their file names): the
    Jekyll URL path (:attr:`DocumentMeta.slug`, starting with ``/``) compared after NFC and
    case folding, without its slashes; ``None`` for other layouts' slugs."""
    return name_key(meta.slug).strip("/") or "/" if meta.slug.startswith("/") else None


def _unbuilt_translations(drafts: Mapping[str, _Draft], default_locale: str, need_source: tuple[str, ...],
                          by_url: bool = False) -> None:
    """Rule 5: translations the tool would not build; translations of internal or
    withheld text (:func:`_inherit_from_source`), by translation group and, with
    ``by_url`` (Jekyll: jekyll-polyglot's join), by :func:`url_key`."""
    sources: dict[str, list[_Draft]] = defaultdict(list)
    for draft in drafts.values():
        if draft.meta.locale == default_locale:
            # Keys compared as rule 5c compares paths (NFC, case folded): ``café.md`` in NFC
            # and its translation ``café.de.md`` in NFD (macOS), or ``Secret.md`` beside
            # ``secret.de.md`` on a case-insensitive file system, are one page to a reader,
            # and the tool pairs them there; a wider match only withholds more (issue 24).
            sources[name_key(draft.meta.translation_group)].append(draft)
            key = url_key(draft.meta) if by_url else None
            if key is not None:
                sources["\0url " + key].append(draft)
    for relpath, draft in drafts.items():
        meta = draft.meta
        if meta.locale == default_locale:
            continue
        key = url_key(meta) if by_url else None
        found = sorted({id(d): d for d in (*sources.get(name_key(meta.translation_group), []),
                                           *(sources.get("\0url " + key, []) if key is not None else []))}.values(),
                       key=lambda d: d.meta.relpath)
        if not found and need_source and relpath.startswith(need_source) and draft.withheld is None:
            draft.withheld = (f"not a page: the docs tool builds no translation under {relpath.split('/')[0]}/ "
                              "without its source page")
            # A stale copy of a page that moved: it must not withhold the page it copies.
            draft.withheld_as_duplicate = True
            draft.problems.append(f"no source page in translation group {meta.translation_group!r}: the docs "
                                  "tool does not build this translation, so it is not served")
            draft.drift.append(ORPHAN)
            continue
        _inherit_from_source(draft, found, "")


def _unplaced_translations(drafts: Mapping[str, _Draft]) -> None:
    """Rule 5c: a page whose path names another language than its own
    (:func:`~provider.wiki.translation_names.candidate_stems`: ``goodwill-de.md``,
    ``german/goodwill.md``, ``de-goodwill.md``, ``i18n/de/…``; paths compared by
    :func:`~provider.wiki.translation_names.name_key`) reads as a translation of the page
    at the path without that name, though the locale settings do not place it: ``check``
    reports it (:data:`UNPLACED`), and when that page or a member of its translation group
    is internal or withheld (however decided) a public candidate is internal, with the
    reason (:func:`_inherit_from_source`)."""
    by_stem: dict[str, list[_Draft]] = defaultdict(list)
    groups: dict[str, list[_Draft]] = defaultdict(list)
    for relpath, draft in drafts.items():
        by_stem[name_key(strip_extension(relpath))].append(draft)
        groups[name_key(draft.meta.translation_group)].append(draft)
    for relpath, draft in drafts.items():
        if draft.withheld is not None:
            continue
        for stem, language in candidate_stems(relpath, draft.meta.locale):
            # The page of the same name (``a.md``, or ``a.en.md`` whose group is ``a``)
            # first, then its group: the reason names the page the author meant.
            sources = sorted({id(d): d for d in (*by_stem.get(stem, ()), *groups.get(stem, ()))}.values(),
                             key=lambda d: d.meta.relpath)
            sources = [d for d in sources if d is not draft]
            if not sources or any(d.meta.translation_group == draft.meta.translation_group for d in sources):
                continue  # placed in that page's group by the locale settings: rules 4-5 read it
            members = {id(d): d for s in sources
                       for d in (s, *sorted(groups[name_key(s.meta.translation_group)], key=lambda d: d.meta.relpath))}
            if UNPLACED not in draft.drift:
                draft.drift.append(UNPLACED)
                draft.problems.append(f"unplaced translation: its path names the language {language!r}, so it reads "
                                      f"as a translation of {sources[0].meta.relpath}, but the locale settings do not "
                                      f"place it (served as {draft.meta.locale}) — add the locale and its path "
                                      "pattern, or rename the file")
            if _inherit_from_source(draft, list(members.values()),
                                    f"its path names the language {language!r}, so it reads as ") is not None:
                break



def _sketches(docs: Mapping[str, DocumentMeta]) -> dict[str, str]:
    """Every sketch of the corpus by :class:`~provider.wiki.copies.CopyGraph` key."""
    found = {relpath: meta.sketch for relpath, meta in docs.items() if meta.sketch}
    found.update((relpath + "#internal", meta.internal_sketch) for relpath, meta in docs.items()
                 if meta.internal_sketch)
    return found


def _inherit_from_copies(drafts: Mapping[str, _Draft], graph: CopyGraph | None = None) -> None:
    """Rule 6: a public document that nearly copies internal or withheld text inherits
    the strictest status among what it copies: withheld like the most similar withheld
    document it copies, else internal like the most similar internal one (ties by key).
    With ``graph`` (kept in step with the drafts' sketches by :func:`resolve`), only
    that closest source of each kind is looked for (:meth:`CopyGraph.closest`); without
    it, every pair is compared and listed (:func:`near_copies`), the reference the graph
    is tested against."""
    targets = {relpath: d.meta.sketch for relpath, d in drafts.items()
               if d.withheld is None and d.audience == PUBLIC and d.meta.sketch}
    if not targets:
        return
    # Sources by kind (:func:`~provider.wiki.same_text.copy_source`, the one rule of 6–6d).
    withheld_sources: dict[str, str] = {}
    internal_sources: dict[str, str] = {}
    for relpath, draft in drafts.items():
        whole, sections = copy_source(draft)
        if draft.meta.sketch and whole == WITHHELD:
            withheld_sources[relpath] = draft.meta.sketch
        elif draft.meta.sketch and whole is not None:
            internal_sources[relpath] = draft.meta.sketch
        if draft.meta.internal_sketch and sections:
            internal_sources[relpath + "#internal"] = draft.meta.internal_sketch
    if not withheld_sources and not internal_sources:
        return

    # Copies inside one translation group are the untranslated-copy rule's: an
    # untranslated copy must not demote the page it copies (a document's own internal
    # section is in its group too).
    groups = {key: drafts[key.partition("#")[0]].meta.translation_group
              for key in chain(targets, withheld_sources, internal_sources)}
    def closest(among: list[str], kind: Mapping[str, str]) -> dict[str, tuple[str, float]]:
        if graph is not None:
            return graph.closest(among, kind, groups)
        found: dict[str, tuple[str, float]] = {}
        for relpath, pairs in near_copies({t: targets[t] for t in among}, kind).items():
            first = next(((key, score) for key, score in pairs if groups[key] != groups[relpath]), None)
            if first is not None:
                found[relpath] = first
        return found

    withheld = closest(list(targets), withheld_sources)
    held_by: dict[str, list[str]] = defaultdict(list)
    for relpath, (path, _) in withheld.items():
        held_by[path].append(relpath)
    for path, holders in held_by.items():
        if len(holders) > 1 and drafts[path].meta.audience == PUBLIC:
            # Text two or more public pages hold is the site's, and the withheld page
            # (a draft, a page not yet due) quotes it: which copy is the source is told by
            # who publishes it (issue 24: a draft quoting a.md and b.md withheld both).
            # Internal text is not weighed so (an internal source, a withheld page its
            # own metadata makes internal): pasted onto many pages it is still internal.
            for relpath in holders:
                del withheld[relpath]
                drafts[relpath].problems.append(
                    f"nearly the same text as {path}, which is not served; {len(holders)} public pages hold that "
                    "text, so it is the site's: served")
    internal = closest([t for t in targets if t not in withheld], internal_sources)
    for found in (withheld, internal):
        for relpath in [r for r in found if NEAR_COPY in drafts[r].meta.accepted]:
            # The operator reviewed this finding for these bytes and accepted it.
            key, score = found.pop(relpath)
            drafts[relpath].problems.append(f"accepted near-copy: nearly the same text as {key.partition('#')[0]} "
                                            f"(similarity {score:.2f}); accepted in accepted_findings")
    for relpath, (path, score) in withheld.items():
        draft = drafts[relpath]
        why = drafts[path].withheld
        draft.copied_from.add(path)
        draft.withheld = f"a copy of {path} (similarity {score:.2f}), which is not served: {why}"
        draft.quarantine.append(f"nearly the same text as {path} (similarity {score:.2f}), which is not "
                                "served; not served either")
    for relpath, (key, score) in internal.items():
        if relpath in withheld:
            continue
        draft = drafts[relpath]
        source_path, _, part = key.partition("#")
        path = source_path + (" (its internal section)" if part else "")
        draft.copied_from.add(source_path)
        draft.decide(Reason(INTERNAL, f"fail-closed: a copy of the internal {path}", CORPUS))
        draft.quarantine.append(f"nearly the same text as the internal {path} (similarity {score:.2f}); "
                                "served as internal")


def _drift(drafts: Mapping[str, _Draft], default_locale: str) -> None:
    group_locales: dict[str, set[str]] = defaultdict(set)
    served_by_locale: dict[tuple[str, str], list[str]] = defaultdict(list)
    for relpath, draft in sorted(drafts.items()):
        group_locales[draft.meta.translation_group].add(draft.meta.locale)
        if draft.withheld is None:
            served_by_locale[(draft.meta.translation_group, draft.meta.locale)].append(relpath)
    for relpath, draft in drafts.items():
        meta = draft.meta
        if draft.withheld is not None:
            continue
        if meta.locale != default_locale and default_locale not in group_locales[meta.translation_group]:
            draft.problems.append(
                f"orphan translation: no {default_locale} document in translation group {meta.translation_group!r}"
            )
            draft.drift.append(ORPHAN)
        same = served_by_locale[(meta.translation_group, meta.locale)]
        if len(same) > 1:
            others = ", ".join(p for p in same if p != relpath)
            draft.problems.append(
                f"translation group {meta.translation_group!r} has another {meta.locale} document: {others}"
            )
            draft.drift.append(SAME_LOCALE)


def _on_site(drafts: Mapping[str, _Draft], gate: Gate) -> None:
    """Rule 11: a document left public stays public only if its URL is on the site, and no
    other document's different URL is the same page to the comparison (``conflated``)."""
    # A twin withheld as the same page (a.md beside a.mdx) claims no URL of its own: the
    # twins rule judged the pair already (the served one turns internal with a non-public twin).
    conflated = gate.conflated(draft.meta for draft in drafts.values() if not draft.withheld_as_duplicate)
    for draft in drafts.values():
        if draft.withheld is None and draft.audience == PUBLIC:
            found = gate(draft.meta) or conflated.get(draft.meta.relpath)
            if found is not None:
                draft.decide(Reason(INTERNAL, found.reason, CORPUS))
                draft.off_site = found.code


def _sources(drafts: Mapping[str, _Draft], default_locale: str, *, public_only: bool) -> dict[str, DocumentMeta | None]:
    """Per translation group, its one source-language document (``None`` when several)."""
    found: dict[str, list[DocumentMeta]] = defaultdict(list)
    for draft in drafts.values():
        meta = draft.meta
        if meta.locale != default_locale or not meta.has_text:
            continue
        if public_only and not (draft.withheld is None and draft.audience == PUBLIC and meta.public_text):
            continue
        found[meta.translation_group].append(meta)
    out: dict[str, DocumentMeta | None] = {}
    for group, metas in found.items():
        served = [m for m in metas if drafts[m.relpath].withheld is None]
        candidates = served if len(metas) > 1 and served else metas
        out[group] = candidates[0] if len(candidates) == 1 else None
    return out


def _sync_state(
    meta: DocumentMeta, source: DocumentMeta | None, blobs: Mapping[tuple[str, str], str | None]
) -> tuple[str, str]:
    """``(state, explanation)`` of one translation against its source (rule 8)."""
    if source is None:
        return SYNC_UNKNOWN, "no single source-language document in its translation group"
    revision = meta.sync.get("source_revision")
    if revision is not None:
        if source.revision.startswith(revision):
            return SYNC_CURRENT, ""
        return SYNC_STALE, f"its source {source.relpath} changed since source_revision {revision[:12]}"
    commit = meta.sync["default_lang_commit"]
    blob = blobs.get((commit, source.relpath))
    if blob is None:
        return SYNC_UNKNOWN, f"git cannot tell what {source.relpath} was at default_lang_commit {commit[:12]}"
    if blob == source.revision:
        return SYNC_CURRENT, ""
    return SYNC_STALE, f"its source {source.relpath} changed since default_lang_commit {commit[:12]}"


def _translation_sync(
    drafts: Mapping[str, _Draft], default_locale: str, blobs: BlobLookup | None, unsettled: set[str] | None = None,
) -> dict[str, tuple[str, str]]:
    """``{relpath: (sync, public_sync)}`` for every translation carrying a sync key.

    ``unsettled`` receives the translations judged with a git answer that may be
    different next time (git did not answer; see :meth:`GitBlobs.settled
    <provider.wiki.gitblobs.GitBlobs.settled>`)."""
    translations = {relpath: d for relpath, d in drafts.items()
                    if d.meta.sync and d.meta.locale != default_locale and d.withheld is None}
    if not translations:
        return {}
    sources = _sources(drafts, default_locale, public_only=False)
    public_sources = _sources(drafts, default_locale, public_only=True)
    pairs = {(d.meta.sync["default_lang_commit"], source.relpath)
             for d in translations.values()
             if "source_revision" not in d.meta.sync and "default_lang_commit" in d.meta.sync
             for source in (sources.get(d.meta.translation_group), public_sources.get(d.meta.translation_group))
             if source is not None}
    answers = blobs(pairs) if blobs is not None and pairs else {}
    settled = getattr(blobs, "settled", None)
    states = {}
    for relpath, draft in translations.items():
        group = draft.meta.translation_group
        keys = draft.meta.sync
        if unsettled is not None and blobs is not None and "source_revision" not in keys \
                and "default_lang_commit" in keys:
            commit = keys["default_lang_commit"]
            asked = [(commit, s.relpath) for s in (sources.get(group), public_sources.get(group)) if s is not None]
            # Without ``settled``: a blob found at a commit stays found; "not found" may change.
            if any((not settled(pair)) if settled is not None else answers.get(pair) is None for pair in asked):
                unsettled.add(relpath)
        state, why = _sync_state(draft.meta, sources.get(group), answers)
        public_state, _ = _sync_state(draft.meta, public_sources.get(group), answers)
        if state == SYNC_STALE:
            draft.problems.append(f"stale translation: {why}")
        elif state == SYNC_UNKNOWN:
            draft.problems.append(f"translation freshness unknown: {why}")
        states[relpath] = (state, public_state)
    return states


def resolve(
    docs: Mapping[str, DocumentMeta],
    *,
    default_locale: str | None = None,
    now: dt.datetime | None = None,
    blobs: BlobLookup | None = None,
    layout: Layout | None = None,
    copies: CopyGraph | None = None,
    gate: Gate | None = None,
) -> dict[str, Resolved]:
    """Apply the corpus-wide rules to every document (keyed by relative path).

    Args:
        docs: every document's metadata.
        default_locale: the source-language tag; ``None`` skips the translation rules
            that need it (untranslated copies, orphans, translation sync).
        now: the time publication dates are compared with (aware); default: the clock.
        blobs: answers ``default_lang_commit`` questions (:class:`provider.wiki.gitblobs.GitBlobs`);
            without it, such translations are ``unknown``.
        layout: the layout whose tool's page rules apply (rule 5); ``None``: none.
        copies: a :class:`~provider.wiki.copies.CopyGraph` kept from the previous call
            (the indexer's): it is brought in step with ``docs``' sketches, so only the
            sketches that changed are compared again (rule 6). The result is the same
            with or without it.
        gate: with a sitemap configured, its :class:`~provider.wiki.site_gate.SiteGate`
            (rule 11); ``None``: no sitemap, the rule does not apply.
    """
    # The rules allocate a few objects per document and make no reference cycles; the
    # collector's passes over the whole heap that so many allocations trigger were half
    # of the time at 10,000 documents. Collected as usual afterwards.
    paused = gc.isenabled()
    gc.disable()
    try:
        if copies is not None:
            copies.sync(_sketches(docs))
        return derive(docs, default_locale=default_locale, now=now or dt.datetime.now(dt.UTC), blobs=blobs,
                      layout=layout, copies=copies, gate=gate).resolved
    finally:
        if paused:
            gc.enable()


@dataclass
class Derived:
    """What :func:`derive` found: the decisions, and what an incremental caller
    (:class:`provider.wiki.incremental.CorpusRules`) needs to know when to derive them
    again.

    Attributes:
        resolved: the decisions by relative path.
        dates: per document, the publication dates (POSIX seconds) its decision was
            compared with ``now`` on (documents with none are left out).
        unsettled: translations whose sync state rests on a git answer that may differ
            when asked again.
    """

    resolved: dict[str, Resolved]
    dates: dict[str, tuple[float, ...]]
    unsettled: set[str]


def derive(
    docs: Mapping[str, DocumentMeta], *, default_locale: str | None, now: dt.datetime, blobs: BlobLookup | None,
    layout: Layout | None, copies: CopyGraph | None, gate: Gate | None = None, rare: Rarity | None = None,
) -> Derived:
    """The rules of :func:`resolve` over ``docs``, with ``copies`` (if given) already
    holding exactly the sketches of ``docs`` — or of a larger corpus of which ``docs``
    holds every document the decisions of ``docs`` depend on (see
    :mod:`provider.wiki.incremental`), and ``rare`` the
    :class:`~provider.wiki.containment.Rarity` of that corpus (``None``: measured on
    ``docs``, which must then be the whole corpus). Does not pause the collector."""
    sections = _cascades(docs)
    drafts = {relpath: _first_pass(relpath, meta, sections, now) for relpath, meta in docs.items()}
    same_file(drafts)
    if layout is not None and layout.translations_by_file:
        _source_files(drafts, layout)
    _twins(drafts)
    if layout is not None:
        _not_pages(drafts, layout)
    if default_locale is not None:
        _copies(drafts, default_locale)
        _unbuilt_translations(drafts, default_locale, layout.translations_need_source if layout else (),
                              by_url=layout is not None and layout.url_rules == "jekyll")
    _unplaced_translations(drafts)
    _inherit_from_copies(drafts, copies)
    same_words(drafts)
    if rare is None:
        rare = rarity(docs)
    same_paragraphs(drafts, rare=rare)
    contained_text(drafts, rare=rare)
    if default_locale is not None:
        _drift(drafts, default_locale)

    by_id: dict[str, list[str]] = defaultdict(list)
    for relpath, draft in drafts.items():
        if draft.withheld is None:
            by_id[draft.meta.doc_id].append(relpath)
    for relpath, draft in drafts.items():
        claimants = by_id[draft.meta.doc_id]
        if draft.withheld is None and len(claimants) > 1:
            others = ", ".join(sorted(p for p in claimants if p != relpath))
            draft.quarantine.append(f"documentId {draft.meta.doc_id!r} is also claimed by {others}; served as internal "
                                    "(keep the page the site shows; skip the other with an audience rule "
                                    "'<path>: skip', or give one an id: in its front matter)")
            draft.decide(Reason(INTERNAL, "fail-closed: duplicate documentId", CORPUS))

    for draft in drafts.values():
        # One rule for every reason to quarantine, present and future: the provider failed
        # closed on this file, so it is never public (a stray closer, an unmapped value…).
        if draft.audience == PUBLIC and (draft.meta.errors or draft.quarantine):
            first = (draft.meta.errors or draft.quarantine)[0]
            draft.decide(Reason(INTERNAL, "fail-closed: quarantined (" + first[:80] + ")", CORPUS))
    if gate is not None:
        _on_site(drafts, gate)

    unsettled: set[str] = set()
    sync = _translation_sync(drafts, default_locale, blobs, unsettled) if default_locale is not None else {}

    by_group: dict[str, int] = defaultdict(int)
    public_by_group: dict[str, int] = defaultdict(int)
    for draft in drafts.values():
        if draft.withheld is None:
            by_group[draft.meta.translation_group] += 1
            if draft.audience == PUBLIC and draft.meta.public_text:
                public_by_group[draft.meta.translation_group] += 1

    resolved: dict[str, Resolved] = {}
    for relpath, draft in drafts.items():
        meta = draft.meta
        served = draft.withheld is None
        key = meta.translation_group
        in_public = served and draft.audience == PUBLIC and meta.public_text
        resolved[relpath] = Resolved(
            meta,
            draft.audience,
            served=served,
            group=key if served and by_group[key] > 1 else None,
            public_group=key if in_public and public_by_group[key] > 1 else None,
            problems=tuple(draft.problems + draft.quarantine),
            audience_source=draft.audience_source,
            withheld=draft.withheld,
            quarantine=tuple(draft.quarantine),
            drift=tuple(draft.drift),
            sync=sync[relpath][0] if relpath in sync else None,
            public_sync=sync[relpath][1] if relpath in sync and in_public else None,
            off_site=draft.off_site,
            reasons=draft.story(),
        )
    return Derived(resolved, {p: d.dates for p, d in drafts.items() if d.dates}, unsettled)
