"""Loading one wiki file into a classified document.

:func:`load_document` reads a file *now* and returns a :class:`WikiDocument`, a
:class:`~provider.wiki.files.Skipped` with the reason, or ``None`` when the file has
gone (a removal, not an error). It never raises on file content.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import unicodedata
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from .anchors import AnchorRule, new_slugger
from .audience_map import SKIP, WITHHOLD, AudienceMap, apply_audience_map, operator_withholding
from .body_markers import find_body_markers, mark_body_sections
from .cascade import CASCADE_ERROR, read_cascade, with_params
from .citations import CitationSettings
from .classify import (
    INTERNAL,
    TITLE_KEYS,
    AudienceRule,
    Decision,
    audience_signals,
    decide_doc_id,
    decide_locale,
    decide_own_audience,
    decide_review_due,
    decide_sync_keys,
    decide_title,
    decide_translation_group,
    decide_url,
    readable_name,
    site_path,
)
from .copies import paragraph_bags, sketch, word_bag
from .dates import DATED_NAME, parse_date, post_group
from .dialects import apply_dialects
from .files import DEFAULT_MAX_FILE_BYTES, FileRef, Skipped, ignore_reason, stat_file
from .findings import MISPLACED, WOULD_BE_MARKER, Acceptance, accepted_codes, format_finding
from .frontmatter import head_key, parse_front_matter
from .hugo_site import site_cascade_for
from .layouts import DEFAULT_LAYOUT, Layout, get_layout
from .locale_patterns import LocalePattern
from .locales import normalize_tag, strip_extension
from .mkdocs_site import project_for
from .passages import Passage, split_passages
from .plaintext import Block, markdown_to_text, no_text_to_serve
from .publication import FLAG_KEYS, lookup, read_publication
from .sections import MARKER, SectionSplit, hiding_spans, mark_internal_blocks, split_sections
from .sites import site_view

__all__ = ["DocumentMeta", "WikiDocument", "WikiSettings", "git_blob_sha1", "load_document", "parse_document"]


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
        accepted_findings: heuristic findings the operator reviewed and accepted
            (:mod:`provider.wiki.findings`).
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
    accepted_findings: tuple[Acceptance, ...] = ()

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

    def describe(self) -> dict[str, Any]:
        """Every setting that changes how files are classified or indexed, as plain JSON data."""
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
            "citation": self.citation.describe(),
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
        accepted: the finding codes the operator accepted for the file's current bytes:
            those findings are ignored.
        bag, internal_bag: :func:`provider.wiki.copies.word_bag` of the text (title
            and headings left out: a copy is retitled) and of the internal sections' text: finds
            copies too short for a sketch, or with their words reordered.
        paragraph_bags, internal_paragraph_bags: :func:`provider.wiki.copies.paragraph_bags`
            of the paragraphs outside and inside internal sections: find a paragraph
            copied, in any word order, into a longer page (rule 6c).
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

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for name in ("warnings", "errors", "findings", "accepted", "paragraph_bags", "internal_paragraph_bags"):
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


def git_blob_sha1(data: bytes) -> str:
    """The id git gives these bytes as a blob (``git hash-object``)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def load_document(settings: WikiSettings, relpath: str) -> WikiDocument | Skipped | None:
    """Read and classify one file as it is now.

    Returns:
        the document; a :class:`Skipped` (too large, outside the root, ignored by the
        layout, no readable text); or ``None`` when the file does not exist (any more).
    """
    ref = stat_file(settings.root, relpath, max_file_bytes=settings.max_file_bytes)
    if not isinstance(ref, FileRef):
        return ref
    ignored = ignore_reason(relpath, settings.ignore_rules)
    if ignored is not None:
        return Skipped(relpath, ignored, expected=True)
    # A path the docs tool does not build is no page on the site: served to nobody.
    excluded = site_view(settings.root, settings.layout, relpath, real_relpath=ref.real_relpath).excluded
    if excluded is not None:
        return Skipped(relpath, excluded, expected=True)
    try:
        # Non-blocking, then checked again on the open descriptor: the path may have been
        # swapped for a FIFO or a device since it was looked at, and opening one of those
        # must never hang the indexer.
        fd = os.open(os.path.join(settings.root, *relpath.split("/")), os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return Skipped(relpath, f"cannot be read: {exc.strerror or exc}")
    with os.fdopen(fd, "rb") as handle:
        opened = os.fstat(handle.fileno())
        if not stat.S_ISREG(opened.st_mode):
            return Skipped(relpath, "not a regular file")
        try:
            data = handle.read(settings.max_file_bytes + 1)
        except OSError as exc:
            return Skipped(relpath, f"cannot be read: {exc.strerror or exc}")
    if len(data) > settings.max_file_bytes:
        return Skipped(relpath, f"larger than {settings.max_file_bytes} bytes")
    return parse_document(settings, relpath, data, size=len(data), mtime_ns=opened.st_mtime_ns,
                          ctime_ns=opened.st_ctime_ns, inode=opened.st_ino, real_relpath=ref.real_relpath)


def _anchor_rule(settings: WikiSettings, relpath: str) -> AnchorRule:
    """How the page's site makes heading anchors (an MkDocs project's toc settings)."""
    name = settings.preset.anchors
    project = project_for(settings.root, relpath) if name == "python-markdown" else None
    if project is None or project.error is not None:
        return AnchorRule(name)
    return AnchorRule(name, project.slug_separator, project.slug_unicode)


def _is_section(relpath: str, layout: Layout) -> bool:
    name = relpath.rsplit("/", 1)[-1]
    return bool(layout.section_names) and name.split(".", 1)[0].lower() in layout.section_names


def _section_messages(split: SectionSplit, offset: int) -> tuple[list[str], list[str]]:
    """Warnings and errors about internal-section markers; ``offset`` turns body lines
    into file lines (the front matter's)."""
    warnings, errors = [], []
    if split.unclosed_line is not None:
        warnings.append(f"internal section opened at line {split.unclosed_line + offset} is never closed; "
                        "everything after it is internal")
    for line in split.stray_lines:
        errors.append(f"<!-- /internal --> at line {line + offset} has no opening marker; the text before it "
                      "is treated as internal")
    if split.near_miss_lines:
        lines = ", ".join(str(n + offset) for n in split.near_miss_lines)
        errors.append(f"line {lines}: looks like an internal-section marker but is not one (the markers are "
                      "<!-- internal --> and <!-- /internal -->); the document is treated as internal")
    return warnings, errors


def _page_date(data: dict[str, Any], relpath: str, layout: Layout) -> tuple[str | None, list[str]]:
    found = lookup(data, "date")
    if found is not None:
        value = parse_date(found[1])
        if value is None:
            return None, [f"front matter {found[0]} is not a date"]
        return value.isoformat(), []
    if layout.dated_names:
        named = DATED_NAME.fullmatch(strip_extension(relpath).rsplit("/", 1)[-1])
        value = parse_date(named["date"]) if named is not None else None
        if value is not None:
            return value.isoformat(), []
    return None, []


def parse_document(
    settings: WikiSettings, relpath: str, data: bytes, *, size: int, mtime_ns: int, ctime_ns: int = 0,
    inode: int = 0, real_relpath: str | None = None,
) -> WikiDocument | Skipped:
    """Classify a file's bytes. Never raises on content.

    Args:
        real_relpath: the file's real path relative to the root when it was reached
            through a symlink; audience rules must then agree for both paths.
    """
    layout = settings.preset
    warnings: list[str] = []
    errors: list[str] = []
    findings: list[str] = []
    unreadable: str | None = None
    revision = git_blob_sha1(data)
    accepted = accepted_codes(settings.accepted_findings, relpath, revision) if settings.accepted_findings \
        else frozenset()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")
        unreadable = "file is not valid UTF-8"
        errors.append(unreadable)
    front = parse_front_matter(text, yaml_end_marker=layout.name == "jekyll",
                               include_lines=layout.name == "mkdocs")
    if front.error is not None and front.error.startswith(MISPLACED_HEADER):
        findings.append(format_finding(MISPLACED, _line_in(front.error), front.error))
        if MISPLACED in accepted:
            front = parse_front_matter(text, yaml_end_marker=layout.name == "jekyll",
                                       include_lines=layout.name == "mkdocs", accept_misplaced=True)
    if front.error is not None:
        unreadable = unreadable or front.error
        errors.append(front.error)
    site = site_view(settings.root, settings.layout, relpath, real_relpath=real_relpath)
    # The tool's defaults (Jekyll defaults, .meta.yml, DocFX fileMetadata) sit under the
    # page's own keys, exactly as the tool merges them: they count as the page's own.
    own = {**site.defaults, **front.data} if site.defaults else front.data
    if not (settings.sitemap and site.sitemap_settles):
        # A JavaScript setting we cannot read is settled by the sitemap when one is
        # given: it proves what the tool published. A broken file never is.
        errors += site.errors
    meta, more_errors = apply_audience_map(with_params(own, layout.params_key), settings.audience_map)
    errors += more_errors
    lowercase_keys = bool(layout.params_key)  # Hugo reads front matter keys case-insensitively
    skip = ("cascade",) if _is_section(relpath, layout) else ()
    audience, more_errors = decide_own_audience(
        meta, relpath, settings.audience_only_rules, unreadable=unreadable, real_relpath=real_relpath,
        lowercase_keys=lowercase_keys, skip=skip,
    )
    errors += more_errors
    audience_own = unreadable is not None or bool(audience_signals(meta, lowercase_keys=lowercase_keys, skip=skip))
    if site.defaults and audience_own and unreadable is None and audience.source.startswith("front matter"):
        # Say where the operator will find it: the tool's configuration, not the file.
        mine, _ = apply_audience_map(with_params(front.data, layout.params_key), settings.audience_map)
        if not audience_signals(mine, lowercase_keys=lowercase_keys, skip=skip):
            audience = Decision(audience.value, f"site metadata ({', '.join(site.sources)}): "
                                                f"{audience.source.removeprefix('front matter').strip()}")
    publication, more_errors, more = read_publication(meta, relpath, layout)
    errors += more_errors
    warnings += more
    if front.error is not None:
        # Its draft, build or dates may say "not published": they cannot be read (X5).
        publication.setdefault("draft", f"{front.error}: its publication keys cannot be read (withheld)")
    by_operator = operator_withholding(meta, [relpath, *([real_relpath] if real_relpath else [])],
                                       settings.audience_rules, withhold_noindex=settings.withhold_noindex)
    if (by_operator is not None and site.defaults and by_operator.startswith("front matter ")
            and not any(isinstance(k, str) and k.strip().lower() == "robots" for k in front.data)):
        by_operator = f"site metadata ({', '.join(site.sources)}) " + by_operator.removeprefix("front matter ")
    if by_operator is not None and not publication.get("path"):
        publication["path"] = by_operator
    draft = any(publication.get(key) for key in (*FLAG_KEYS, "path"))
    locale, more = decide_locale(
        meta, relpath, known_locales=settings.known_locales, default_locale=settings.default_locale,
        patterns=settings.patterns,
    )
    warnings += more
    group, more = decide_translation_group(
        meta, relpath, known_locales=settings.known_locales, patterns=settings.patterns,
        index_names=layout.index_names,
    )
    warnings += more
    if group.source.startswith("path") and (post := post_group(group.value, layout.posts_folder)) is not None:
        group = Decision(post, f"{group.source} (post slug and year)")  # translations posted days later
    doc_id, more = decide_doc_id(
        meta, relpath, index_names=layout.index_names, id_relative_to_folder=layout.id_relative_to_folder,
        posts_folder=layout.posts_folder,
    )
    warnings += more

    offset = len(_lines(text)) - len(front.body.split("\n"))
    markers = find_body_markers(front.body)
    hiding = []
    for marker in markers:
        findings.append(format_finding(marker.code, marker.line + offset, marker.text))
        if marker.code == "audience-in-body":
            if unreadable is None:  # else the header reader already said so
                errors.append(f"line {marker.line + offset} sets {marker.text!r} in the body, outside the front "
                              "matter; the document is treated as internal")
                audience = Decision(INTERNAL, "fail-closed: an audience key in the body")
        elif marker.code not in accepted:
            hiding.append(marker)
            warnings.append(f"line {marker.line + offset}: {marker.text!r} says it is not for customers, so "
                            f"{_HIDES[marker.code]} internal ({marker.code}; accept it in accepted_findings if "
                            "it is public)")
    body = mark_body_sections(front.body, hiding)
    split = split_sections(body, prepare=lambda body: apply_dialects(body, layout.dialects),
                           colon_containers=layout.name != "mkdocs")
    if hiding:
        # The markers put at line starts hide what a would-be marker there (``> [!X]``)
        # looks like: look for would-be markers in the text as written too.
        written = split_sections(front.body, prepare=lambda body: apply_dialects(body, layout.dialects),
                                 colon_containers=layout.name != "mkdocs")
        near = tuple(sorted({*split.near_miss_lines, *written.near_miss_lines}))
        split = replace(split, near_miss_lines=near)
    if split.near_miss_lines:
        findings += [format_finding(WOULD_BE_MARKER, n + offset, _lines(front.body)[n - 1] if n <= len(
            _lines(front.body)) else "") for n in split.near_miss_lines]
        if WOULD_BE_MARKER in accepted:
            split = replace(split, near_miss_lines=())
    if split.blocks or split.near_miss_lines:
        more, more_errors = _section_messages(split, offset=offset)
        warnings += more
        errors += more_errors
    if split.near_miss_lines:
        audience = Decision(INTERNAL, "fail-closed: a would-be internal-section marker")
    full = markdown_to_text(apply_dialects(split.full, layout.dialects), layout.text)
    anchors = _anchor_rule(settings, relpath)
    internal_blocks: list[Block] = []
    if split.blocks:
        public = markdown_to_text(apply_dialects(split.public, layout.dialects), layout.text)
        marked = mark_internal_blocks(full.blocks, public.blocks)
        internal_blocks = [b for b in marked if b.internal]
        passages = split_passages(marked, slugger=new_slugger(anchors))
        public_passages = split_passages(public.blocks, slugger=new_slugger(anchors))
        if not public_passages:
            warnings.append("no text outside internal sections: never in the public index")
    else:
        public = full
        passages = public_passages = split_passages(full.blocks, slugger=new_slugger(anchors))

    name = readable_name(relpath, index_names=layout.index_names, dated_names=layout.dated_names,
                         number_prefixes=layout.number_prefixes)
    # The title is shown to customers: take heading candidates from the public view only.
    title, more = decide_title(meta, relpath, first_h1=public.first_h1, file_name=name)
    warnings += more
    for key in TITLE_KEYS:
        raw_title = meta.get(key)
        if isinstance(raw_title, str) and (MARKER.search(raw_title) or hiding_spans(raw_title)):
            errors.append(f"front matter {key} holds an internal-section marker (titles cannot hide text); "
                          "treated as internal")
            break
    review_due, more = decide_review_due(meta)
    warnings += more
    url, more = decide_url(meta)
    warnings += more
    sync, more = decide_sync_keys(meta)
    warnings += more
    page_date, more = _page_date(meta, relpath, layout)
    # Hugo already reported an invalid ``date`` as an error (it is the publish date there).
    warnings += [w for w in more if not any(w in e for e in errors)]

    section = _is_section(relpath, layout)
    cascade: dict[str, str] | None = None
    if section and unreadable is not None:
        cascade = {CASCADE_ERROR: f"front matter of {relpath} cannot be read",
                   "build": f"the front matter of section {relpath} cannot be read (withheld, fail closed)"}
    elif section:
        cascade, more_errors, more = read_cascade(meta, layout)
        errors += more_errors
        warnings += more
    if not passages and cascade is None:
        return Skipped(relpath, "has no readable text", expected=True)
    if not (draft or section or title.source == "file name") and (stub := no_text_to_serve(
            front.body, (f"{p.heading} {p.text}" for p in passages), title.value)):
        publication["path"], draft = stub, True
    # Title and headings count: a translation that translated only its headings is still
    # a translation, not a copy.
    text_hash = hashlib.sha1(_texts(title.value, passages).encode("utf-8"), usedforsecurity=False).hexdigest()
    internal_only = [p for p in passages if p.internal]
    document_meta = DocumentMeta(
        relpath=relpath,
        size=size,
        mtime_ns=mtime_ns,
        ctime_ns=ctime_ns,
        inode=inode,
        real_relpath=real_relpath,
        revision=revision,
        # NFC: two names that differ only in Unicode normalisation ("café" written two
        # ways) look identical to a reader; as one id they are reported as duplicates.
        doc_id=unicodedata.normalize("NFC", doc_id.value),
        title=title.value,
        audience=audience.value,
        draft=draft,
        locale=normalize_tag(locale.value) or settings.default_locale,
        translation_group=group.value,
        review_due=review_due.value.isoformat() if review_due.value is not None else None,
        url=url,
        sources={
            "audience": audience.source,
            "draft": next((publication[k] for k in (*FLAG_KEYS, "path") if publication.get(k)), ""),
            "locale": locale.source,
            "translation_group": group.source,
            "doc_id": doc_id.source,
            "title": title.source,
            **({"site": ", ".join(site.sources)} if site.sources else {}),
        },
        warnings=tuple(dict.fromkeys([*errors, *warnings])),
        errors=tuple(errors),
        audience_own=audience_own,
        publication=publication,
        section=section,
        cascade=cascade,
        internal_sections=split.blocks,
        public_text=bool(public_passages),
        has_text=bool(passages),
        text_hash=text_hash if passages else "",
        date=page_date,
        site_path=site_path(relpath, known_locales=settings.known_locales, patterns=settings.patterns,
                            index_names=layout.index_names),
        sync=sync,
        has_front_matter=front.present,
        sketch=sketch(_texts(title.value, passages)),
        internal_sketch=sketch(_texts("", internal_only)) if internal_only else "",
        public_revision=hashlib.sha1(
            f"{title.value}\n{_texts('', public_passages)}".encode(), usedforsecurity=False).hexdigest(),
        site_cascade=site_cascade_for(settings, relpath, section=section) if layout.site_cascade else None,
        head=head_key(text, front) if unreadable is None else "",
        site_policy=site.digest,
        findings=tuple(findings),
        accepted=tuple(sorted(accepted)),
        # Without title and headings: a copy is retitled.
        bag=word_bag("\n".join(p.text for p in passages)),
        internal_bag=word_bag("\n".join(p.text for p in internal_only)) if internal_only else "",
        paragraph_bags=paragraph_bags(b.text for b in public.blocks if b.kind != "heading"),
        internal_paragraph_bags=paragraph_bags(b.text for b in internal_blocks if b.kind != "heading"),
    )
    return WikiDocument(meta=document_meta, passages=passages, public_passages=public_passages)


#: What each body-marker finding makes internal, for its warning.
_HIDES = {"hiding-heading": "its heading's section is", "hiding-label": "its paragraph is",
          "hiding-note": "its blockquote is", "todo-internal": "the block holding it is"}
#: How the front matter reader's "header-like block below the top" reason starts.
MISPLACED_HEADER = "front matter must start on the very first line"


def _line_in(message: str) -> int:
    found = re.search(r"line (\d+)", message)
    return int(found.group(1)) if found else 0


def _texts(title: str, passages: tuple[Passage, ...] | list[Passage]) -> str:
    """The words a reader sees: title, then each passage's heading (when it changes) and text."""
    out, heading = [title], None
    for passage in passages:
        if passage.heading != heading:
            out.append(passage.heading)
            heading = passage.heading
        out.append(passage.text)
    return "\n".join(out)


def _lines(text: str) -> list[str]:
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
