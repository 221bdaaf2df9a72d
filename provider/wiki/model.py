"""The wiki's data types: how to read a wiki, and what reading one file gives.

A leaf of the wiki package: it holds data and the few properties derived from it, and
imports no module that reads, classifies or cites, so every one of those can import it.
:mod:`provider.wiki.document` (which builds these from files) and
:mod:`provider.wiki.citations` re-export the names they always offered.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .audience import AudienceRule
from .audience_map import SKIP, WITHHOLD, AudienceMap
from .files import DEFAULT_MAX_FILE_BYTES
from .findings import Acceptance
from .layouts import DEFAULT_LAYOUT, Layout, get_layout
from .locale_patterns import LocalePattern
from .passages import Passage

if TYPE_CHECKING:
    from .sitemap import SitemapLimits

__all__ = ["CitationSettings", "DocumentMeta", "WikiDocument", "WikiSettings"]


@dataclass(frozen=True)
class CitationSettings:
    """The operator's citation settings (all optional).

    Attributes:
        base_url: the public site, e.g. ``https://help.example.com`` (validated, no
            trailing ``/``).
        path_pattern: appended to a base URL, with placeholders (module docstring);
            ``None`` means the layout's.
        internal_base_url: where agents read internal documents, if anywhere.
        route_base_path: Docusaurus's ``routeBasePath`` of the docs plugin (``""`` for
            ``'/'``); ``None``: as the site's ``docusaurus.config.*`` writes it, else
            ``docs`` (:func:`provider.wiki.sites.javascript.docusaurus_route_base_path`).
        docfx_base_paths: DocFX: ``(docset folder, URL path)`` pairs, where the site puts
            each docset (:mod:`provider.wiki.docfx_urls`).
    """

    base_url: str | None = None
    path_pattern: str | None = None
    internal_base_url: str | None = None
    route_base_path: str | None = None
    docfx_base_paths: tuple[tuple[str, str], ...] = ()

    def describe(self, url_rules: str | None = None) -> dict[str, Any]:
        """The settings as plain JSON data; with ``url_rules`` (a layout's), only those
        that apply to it (``route_base_path`` is Docusaurus's, ``docfx_base_paths``
        DocFX's). Without it every one, as the index's settings record keeps them."""
        described = {"base_url": self.base_url, "path_pattern": self.path_pattern,
                     "internal_base_url": self.internal_base_url, "route_base_path": self.route_base_path,
                     **({"docfx_base_paths": dict(self.docfx_base_paths)} if self.docfx_base_paths else {})}
        if url_rules is not None:
            if url_rules != "docusaurus":
                del described["route_base_path"]
            if url_rules != "docfx":
                described.pop("docfx_base_paths", None)
        return described


@dataclass(frozen=True)
class WikiSettings:
    """How to read a wiki.

    Attributes:
        root: the content folder.
        default_locale: BCP 47 tag for files that name no locale.
        locales: tags recognised as path markers (the default locale is always one).
        audience_rules: operator rules, first match wins.
        max_file_bytes: larger files are skipped and reported (default 2 MiB).
        extensions: file extensions read, compared case-insensitively; ``None`` means
            the layout's.
        layout: the name of a :mod:`~provider.wiki.layouts` preset (default ``plain``).
        locale_patterns: explicit locale patterns replacing the layout's; ``None`` means
            the layout's.
        chunking: index passages (chunks) rather than whole documents (the ``chunking``
            capability is declared).
        citation: how citation URLs are built (:mod:`provider.wiki.citations`).
        audience_map: which front matter key carries the audience and what its values
            mean (:mod:`provider.wiki.audience_map`).
        withhold_noindex: withhold pages whose front matter ``ROBOTS`` says ``NOINDEX``.
        sitemap: the site's sitemap sources (absolute file paths, ``https`` URLs); when
            set, a document is public only if its citation URL is on the site
            (:mod:`provider.wiki.site_gate`).
        sitemap_refresh_s: seconds between reads of a sitemap (a changed file is read
            again at once).
        sitemap_max_bytes, sitemap_max_urls: bytes (decompressed) and URLs one sitemap
            file may hold (:class:`~provider.wiki.sitemap.SitemapLimits`).
        accepted_findings: heuristic findings the operator reviewed and accepted
            (:mod:`provider.wiki.findings`).
        semantic_model: with ``semanticSearch``, the embedding model whose vectors each
            entry stores (:func:`~provider.search.embedding.load_embedder`); ``None``: no
            vectors (the index's schema has no ``vector`` field).
        config_hold_s: seconds a docs-tool configuration change that makes a page more
            public waits (:mod:`provider.wiki.sites.load`); from the environment
            (``KNOWLEDGE_PROVIDER_CONFIG_HOLD_S``) when the settings are made, and handed to
            every reader process with them. Not part of :meth:`describe`.
    """

    root: Path
    default_locale: str = "en"
    locales: tuple[str, ...] = ("en",)
    audience_rules: tuple[AudienceRule, ...] = ()
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    extensions: tuple[str, ...] | None = None
    layout: str = DEFAULT_LAYOUT
    locale_patterns: tuple[LocalePattern, ...] | None = None
    chunking: bool = False
    citation: CitationSettings = field(default_factory=CitationSettings)
    audience_map: AudienceMap = field(default_factory=AudienceMap)
    withhold_noindex: bool = False
    sitemap: tuple[str, ...] = ()
    sitemap_refresh_s: float = 600.0
    sitemap_max_bytes: int = 50 * 1024 * 1024
    sitemap_max_urls: int = 50_000
    accepted_findings: tuple[Acceptance, ...] = ()
    semantic_model: str | None = None
    config_hold_s: float = field(default_factory=lambda: _hold_from_env())

    @property
    def sitemap_limits(self) -> SitemapLimits:
        """The bounds a sitemap is read with (:func:`~provider.wiki.sitemap.load_sitemap`)."""
        from .sitemap import SitemapLimits

        return SitemapLimits(max_bytes=self.sitemap_max_bytes, max_urls_per_file=self.sitemap_max_urls)

    @property
    def audience_only_rules(self) -> tuple[AudienceRule, ...]:
        """The rules that give an audience (``public``/``internal``), in order."""
        return tuple(r for r in self.audience_rules if r.audience not in (WITHHOLD, SKIP))

    @property
    def ignore_rules(self) -> tuple[tuple[str, str], ...]:
        """The layout's ignore rules and the operator's ``skip`` rules, as ``(glob, reason)``."""
        skips = tuple((r.pattern, f"skipped by rule {r.pattern!r}") for r in self.audience_rules if r.audience == SKIP)
        return (*self.preset.ignore, *skips)

    @property
    def known_locales(self) -> frozenset[str]:
        return frozenset((*self.locales, self.default_locale))

    @property
    def preset(self) -> Layout:
        """The layout preset (raises ``KeyError`` for an unknown name)."""
        return get_layout(self.layout)

    @property
    def patterns(self) -> tuple[LocalePattern, ...]:
        """The locale patterns in effect."""
        return self.locale_patterns if self.locale_patterns is not None else self.preset.locale_patterns

    @property
    def file_extensions(self) -> tuple[str, ...]:
        """The extensions in effect."""
        return self.extensions if self.extensions is not None else self.preset.extensions

    def describe(self, *, applicable_only: bool = False) -> dict[str, Any]:
        """Every setting that changes how files are classified or indexed, as plain JSON
        data (what the index records: a key added or dropped rebuilds every index). With
        ``applicable_only``, a layout's citation settings only when they apply to it (what
        ``check`` shows the operator)."""
        return {
            "root": str(self.root),
            "layout": self.layout,
            "default_locale": self.default_locale,
            "locales": sorted(self.known_locales),
            "locale_patterns": [p.to_config() for p in self.patterns],
            "audience_rules": [{r.pattern: r.audience} for r in self.audience_rules],
            "max_file_bytes": self.max_file_bytes,
            "extensions": sorted(self.file_extensions),
            "chunking": self.chunking,
            "citation": self.citation.describe(self.preset.url_rules if applicable_only else None),
            **self.audience_map.describe(),
            "withhold_noindex": self.withhold_noindex,
            # Only when set: a key every index lacked would rebuild every index on upgrade.
            **({"sitemap": list(self.sitemap)} if self.sitemap else {}),
            **({"accepted_findings": [a.describe() for a in self.accepted_findings]} if self.accepted_findings else {}),
        }


@dataclass(frozen=True)
class DocumentMeta:
    """Everything known about a file except its text; small enough for the manifest.

    Attributes:
        relpath: POSIX path relative to the content root.
        size, mtime_ns: what the file looked like when read (bytes, nanoseconds).
        revision: the git blob hash of the bytes (what ``git hash-object`` prints).
        doc_id: the ``documentId``.
        title: plain-text title (from text outside internal sections).
        audience: ``public`` or ``internal`` as the file itself and the operator's rules
            decide; a section's cascade and corpus-wide rules (duplicate ids) are applied
            by :func:`provider.wiki.corpus.resolve`.
        draft: the file's own front matter or path withholds it whatever the date or
            cascade (``draft``, ``published: false``, ``unlisted``, ``build``, ``headless``,
            a drafts folder).
        locale: canonical BCP 47 tag.
        translation_group: the group key (every document has one; a group of one is
            not reported as a group).
        review_due: ISO 8601 UTC date-time, or ``None``.
        url: front matter ``url`` when it is an https URL or a site path, else ``None``.
        sources: where each decision came from (``{"audience": "rule 'docs/**'", ...}``).
        warnings: problems an operator should fix (``errors`` included).
        errors: the warnings that made the provider fail closed against what the file
            may mean (unreadable front matter, an audience that is not exactly public
            or internal, an invalid date or ``build`` value that withholds it, a stray
            internal-section marker): the file is *quarantined* until fixed.
        audience_own: the file decided its audience itself (front matter ``audience``, or
            unreadable): no cascade or rule applies.
        publication: the file's own withholding facts (:mod:`provider.wiki.publication`).
        section: a section page of its layout, whose ``cascade`` applies to its folder.
        cascade: what a section page cascades (:mod:`provider.wiki.cascade`), or ``None``.
        internal_sections: internal blocks in the body (:mod:`provider.wiki.sections`).
        public_text: whether any text is outside internal sections.
        has_text: whether the file has any text (a section page without text is kept
            only for its cascade and never served).
        text_hash: digest of the full plain text (finds untranslated copies).
        date: the page's date (front matter ``date`` or a dated file name), ISO 8601 UTC.
        ctime_ns, inode: with ``size`` and ``mtime_ns``, how a later scan tells whether
            the file may have changed (a restored mtime does not hide an edit).
        real_relpath: the real path of a file reached through a symlink in the root.
        site_path: the page's path on its site (:func:`provider.wiki.classify.site_path`),
            the ``{path}`` of citation URLs.
        slug: the front matter ``slug`` as written, when the layout's tool reads one
            (Docusaurus: :func:`provider.wiki.docusaurus_urls.docusaurus_path`); Jekyll: the
            page's URL path, starting with ``/``, by its permalink
            (:func:`provider.wiki.jekyll_urls.jekyll_url`); else ``""``.
        partials: the MDX partials the page showed when read (Docusaurus,
            :mod:`provider.wiki.mdx_partials`), each ``"<sha1 of its bytes> <path>"``
            (``missing`` for one that could not be read): an edit to one reads the page
            again (:func:`provider.indexing.scan.expand`, :func:`~provider.indexing.scan.unchanged`).
        translates: the file the docs tool excludes that this page was read as a
            translation of (:func:`provider.wiki.excluded_sources.excluded_source`), or
            ``""``: its change or removal reads the page again
            (:func:`provider.indexing.scan.translations_of`).
        sync: translation-sync keys from the front matter (``source_revision``,
            ``default_lang_commit``; :func:`provider.wiki.classify.decide_sync_keys`).
        sketch: the bottom-k sketch of the whole text, title and headings included
            (:mod:`provider.wiki.copies`): finds near-copies anywhere in the corpus.
        internal_sketch: the same, of the text inside internal sections only (``""``
            when there is none, or too little).
        has_front_matter: whether the file starts with front matter (Jekyll renders only
            such files as pages).
        public_revision: what ``customer_safe`` sees as ``revision``: a SHA-1 of the title
            and the text outside internal sections, so it changes exactly when that
            changes, and internal text cannot be confirmed by hashing a guess.
        site_cascade: what the site configuration cascades to this page (Hugo,
            :mod:`provider.wiki.hugo_site`), applied below every section's cascade.
        head: :func:`provider.wiki.frontmatter.head_key` of the file: lets the early
            withdrawal (:mod:`provider.wiki.quickcheck`) tell a file whose header is as
            it was without parsing its YAML again (``""``: unknown, parse it).
        site_policy: :attr:`provider.wiki.sites.SiteView.digest` when the page was read:
            a scan re-reads the page when its docs tool's configuration changed.
        findings: the heuristic findings in the file (:mod:`provider.wiki.findings`,
            each ``"code|line|text"``), accepted ones included.
        accepted: what the operator accepted for the file's current bytes: finding codes
            (every finding of the code), and ``code|text`` for the findings whose text holds
            ``text`` (:func:`provider.wiki.findings.covers`): those findings are ignored.
        bag, internal_bag: :func:`provider.wiki.copies.word_bag` of the text (title
            and headings left out: a copy is retitled) and of the internal sections' text: finds
            copies too short for a sketch, or with their words reordered.
        paragraph_bags, internal_paragraph_bags: :func:`provider.wiki.copies.paragraph_bags`
            of the paragraphs outside and inside internal sections: find a paragraph
            copied, in any word order, into a longer page (rule 6c).
        block_shingles, internal_block_shingles: :func:`provider.wiki.containment.block_shingles`
            of the blocks outside and inside internal sections (each block's 3-word runs
            and words): find an internal text's distinctive content in a public page,
            however edited, reordered or split (rule 6d).
        label_block_shingles: the same of the internal blocks that only a label in a
            table cell, a paragraph's opening, a footnote or a definition term hides
            (:data:`provider.wiki.body_markers.LABEL_CODES`): a source of rule 6d only
            for a long verbatim run (:func:`provider.wiki.containment.contained`).
    """

    relpath: str
    size: int
    mtime_ns: int
    revision: str
    doc_id: str
    title: str
    audience: str
    draft: bool
    locale: str
    translation_group: str
    review_due: str | None = None
    url: str | None = None
    sources: dict[str, str] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()
    audience_own: bool = False
    publication: dict[str, str] = field(default_factory=dict)
    section: bool = False
    cascade: dict[str, str] | None = None
    internal_sections: int = 0
    public_text: bool = True
    has_text: bool = True
    text_hash: str = ""
    date: str | None = None
    ctime_ns: int = 0
    inode: int = 0
    real_relpath: str | None = None
    site_path: str = ""
    slug: str = ""
    partials: tuple[str, ...] = ()
    translates: str = ""
    sync: dict[str, str] = field(default_factory=dict)
    sketch: str = ""
    internal_sketch: str = ""
    public_revision: str = ""
    has_front_matter: bool = True
    site_cascade: dict[str, str] | None = None
    head: str = ""
    site_policy: str = ""
    findings: tuple[str, ...] = ()
    accepted: tuple[str, ...] = ()
    bag: str = ""
    internal_bag: str = ""
    paragraph_bags: tuple[str, ...] = ()
    internal_paragraph_bags: tuple[str, ...] = ()
    block_shingles: tuple[str, ...] = ()
    internal_block_shingles: tuple[str, ...] = ()
    label_block_shingles: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for name in ("warnings", "errors", "findings", "accepted", "paragraph_bags", "internal_paragraph_bags",
                     "block_shingles", "internal_block_shingles", "label_block_shingles", "partials"):
            data[name] = list(getattr(self, name))
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DocumentMeta:
        data = dict(data)
        data["warnings"] = tuple(data.get("warnings", ()))
        data["errors"] = tuple(data.get("errors", ()))
        data["findings"] = tuple(data.get("findings", ()))
        data["accepted"] = tuple(data.get("accepted", ()))
        data["paragraph_bags"] = tuple(data.get("paragraph_bags", ()))
        data["internal_paragraph_bags"] = tuple(data.get("internal_paragraph_bags", ()))
        data["block_shingles"] = tuple(data.get("block_shingles", ()))
        data["internal_block_shingles"] = tuple(data.get("internal_block_shingles", ()))
        data["label_block_shingles"] = tuple(data.get("label_block_shingles", ()))
        data["partials"] = tuple(data.get("partials", ()))
        return cls(**data)


@dataclass(frozen=True)
class WikiDocument:
    """A classified document with its text cut into passages.

    Attributes:
        meta: the classification.
        passages: the full text (what ``agent_only`` reads), passages from internal
            sections flagged ``internal``.
        public_passages: the text outside internal sections (what the public index
            receives); the same as ``passages`` when there are no internal sections
            (and when not given).
    """

    meta: DocumentMeta
    passages: tuple[Passage, ...]
    public_passages: tuple[Passage, ...] = None  # type: ignore[assignment]  # set below

    def __post_init__(self) -> None:
        if self.public_passages is None:
            object.__setattr__(self, "public_passages", self.passages)

    @property
    def body(self) -> str:
        return "\n".join(p.text for p in self.passages)

    @property
    def public_body(self) -> str:
        return "\n".join(p.text for p in self.public_passages)


def _hold_from_env() -> float:
    from .sites.config_files import hold_from_env  # a leaf module: imported when settings are made

    return hold_from_env()
