"""Loading one wiki file into a classified document.

:func:`load_document` reads a file *now* and returns a :class:`WikiDocument`, a
:class:`~provider.wiki.files.Skipped` with the reason, or ``None`` when the file has
gone (a removal, not an error). It never raises on file content. The data types
(:class:`WikiSettings`, :class:`DocumentMeta`, :class:`WikiDocument`) live in
:mod:`provider.wiki.model` and are offered here too, where readers have always found them.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import unicodedata
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from .anchors import AnchorRule, new_slugger
from .audience import PUBLIC, FileFacts, decide_file
from .audience_map import WITHHOLD, apply_audience_map, operator_withholding
from .body_markers import LABEL_CODES, BodyMarker, find_body_markers, front_matter_markers, mark_body_sections
from .cascade import CASCADE_ERROR, read_cascade, with_params
from .classify import (
    TITLE_KEYS,
    Decision,
    decide_doc_id,
    decide_locale,
    decide_review_due,
    decide_sync_keys,
    decide_title,
    decide_translation_group,
    decide_url,
    readable_name,
    site_path,
)
from .code_shown import shown_as_code
from .containment import block_shingles
from .copies import paragraph_bags, sketch, word_bag
from .dates import DATED_NAME, not_a_date, parse_date, post_group
from .dialects import apply_dialects
from .excluded_sources import excluded_source
from .files import FileRef, Skipped, ignore_reason, stat_file
from .findings import MISPLACED, WOULD_BE_MARKER, accepted_codes, covers, format_finding
from .frontmatter import FrontMatter, head_key, lookup, parse_front_matter
from .hugo_site import BUNDLE_RESOURCE, hugo_leaf_bundle, site_cascade_for
from .jekyll_urls import jekyll_url
from .layouts import Layout
from .locales import normalize_tag, strip_extension
from .mdx_partials import inline_partials, partial_digest
from .mkdocs_site import project_for
from .model import DocumentMeta, WikiDocument, WikiSettings
from .passages import Passage, split_passages
from .plaintext import Block, PlainText, TextOptions, markdown_to_text, no_text_to_serve
from .publication import read_publication, standing_withholding
from .redirects import HIDDEN_BY_REFRESH, redirect_stub
from .sections import MARKER, SectionSplit, hiding_spans, mark_internal_blocks, split_sections
from .sites import SiteView, load_site_policy, site_view
from .sites.hugo import goldmark_shows_raw_html
from .template_blocks import (
    DEFAULT_DELIMITERS,
    jinja_delimiters,
    mark_template_blocks,
    shortcode_templates,
    silent_shortcodes,
    template_dialect,
)

__all__ = ["DocumentMeta", "WikiDocument", "WikiSettings", "git_blob_sha1", "load_document", "parse_document",
           "reread_header"]


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


def _section_messages(split: SectionSplit, at: Callable[[int], int]) -> tuple[list[str], list[str]]:
    """Warnings and errors about internal-section markers; ``at`` turns a body line into
    the file's line (past the front matter, before any inlined partial)."""
    warnings, errors = [], []
    if split.unclosed_line is not None:
        warnings.append(f"internal section opened at line {at(split.unclosed_line)} is never closed; "
                        "everything after it is internal")
    for line in split.stray_lines:
        errors.append(f"<!-- /internal --> at line {at(line)} has no opening marker; the text before it "
                      "is treated as internal")
    if split.near_miss_lines:
        lines = ", ".join(str(at(n)) for n in split.near_miss_lines)
        errors.append(f"line {lines}: looks like an internal-section marker but is not one (the markers are "
                      "<!-- internal --> and <!-- /internal -->); the document is treated as internal")
    return warnings, errors


def _page_date(data: dict[str, Any], relpath: str, layout: Layout) -> tuple[str | None, list[str]]:
    found = lookup(data, "date")
    if found is not None:
        value = parse_date(found[1])
        if value is None:
            return None, [not_a_date(found[0], found[1])]
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

    Reads the header (:func:`_read_header`), the withholding facts, the page's identity
    and its body, then decides the audience in one pass over what they found
    (:func:`provider.wiki.audience.decide_file`).

    Args:
        real_relpath: the file's real path relative to the root when it was reached
            through a symlink; audience rules must then agree for both paths.
    """
    layout = settings.preset
    revision = git_blob_sha1(data)
    head = _read_header(settings, relpath, data, revision, real_relpath)
    section = _is_section(relpath, layout)
    publication, publication_errors, warnings = _withholding(settings, relpath, real_relpath, head)
    identity = _identity(settings, relpath, head.meta)
    warnings += identity.warnings
    body = _read_body(settings, relpath, head)
    warnings += body.warnings
    verdict = decide_file(FileFacts(
        relpath, head.meta, settings.audience_only_rules, unreadable=head.unreadable, real_relpath=real_relpath,
        lowercase_keys=bool(layout.params_key), skip=("cascade",) if section else (),
        site_sources=head.site.sources if head.site.defaults else (),
        page_front_matter=head.page_meta(settings) if head.site.defaults else None,
        audience_in_body=body.audience_in_body, would_be_marker=bool(body.split.near_miss_lines),
        header_text=head.text if head.front.present else "",
    ))
    errors = [*head.errors, *verdict.errors, *publication_errors, *body.errors]
    page = _page_fields(settings, relpath, head.meta, body, errors)
    warnings += page.warnings
    cascade = _section_cascade(settings, relpath, head, errors, warnings) if section else None
    if not body.passages and cascade is None:
        return Skipped(relpath, "has no readable text", expected=True)
    withheld = standing_withholding(publication) is not None
    if not (withheld or section) and (stub := _stub(head.meta, head.front.body, body, page)):
        publication["path"] = stub
        if stub.startswith(HIDDEN_BY_REFRESH):
            # Words under a meta refresh are shown to no reader: hidden text (issue 24).
            errors.append(f"{stub}; its words are hidden text, withheld (fail closed)")
    sources = {
        "audience": verdict.source,
        "draft": _standing_reason(publication),
        "locale": identity.locale.source, "translation_group": identity.group.source,
        "doc_id": identity.doc_id.source, "title": page.title.source,
        **({"site": ", ".join(head.site.sources)} if head.site.sources else {}),
    }
    meta = DocumentMeta(
        relpath=relpath, size=size, mtime_ns=mtime_ns, ctime_ns=ctime_ns, inode=inode, real_relpath=real_relpath,
        revision=revision,
        # NFC: two names that differ only in Unicode normalisation ("café" written two
        # ways) look identical to a reader; as one id they are reported as duplicates.
        doc_id=unicodedata.normalize("NFC", identity.doc_id.value),
        title=page.title.value,
        audience=verdict.audience,
        draft=bool(sources["draft"]),
        locale=normalize_tag(identity.locale.value) or settings.default_locale,
        translation_group=identity.group.value,
        review_due=page.review_due,
        url=page.url,
        sources=sources,
        warnings=tuple(dict.fromkeys([*errors, *warnings])),
        errors=tuple(errors),
        audience_own=verdict.own,
        publication=publication,
        section=section,
        cascade=cascade,
        date=page.date,
        site_path=site_path(relpath, known_locales=settings.known_locales, patterns=settings.patterns,
                            index_names=layout.index_names),
        slug=(_front_slug(head.meta) if layout.url_rules == "docusaurus"
              else _hugo_slug(relpath, head.meta) if layout.url_rules == "hugo"
              else _jekyll_url(settings, relpath, head.meta) if layout.url_rules == "jekyll"
              else _mkdocs_blog_url(settings, relpath, head.meta, page.title.value) if layout.url_rules == "mkdocs"
              else ""),
        partials=body.partials,
        translates=head.translates,
        sync=page.sync,
        has_front_matter=head.front.present,
        site_cascade=site_cascade_for(settings, relpath, section=section) if layout.site_cascade else None,
        head=head_key(head.text, head.front) if head.unreadable is None else "",
        site_policy=head.site.digest,
        findings=tuple([*head.findings, *body.findings]),
        accepted=tuple(sorted(head.accepted)),
        **_text_fields(page.title.value, body),
    )
    return WikiDocument(meta=meta, passages=body.passages, public_passages=body.public_passages)


def reread_header(settings: WikiSettings, before: DocumentMeta, *,
                  read_with: WikiSettings | None = None) -> DocumentMeta | Skipped | None:
    """``before`` (a file read with other settings, or under another docs-tool
    configuration) with what its header decides under ``settings``: own audience,
    withholding facts, errors, accepted findings, a section page's cascade — what a
    configuration change can make stricter without the body having changed. The body
    is not parsed: its facts are ``before``'s (they depend on the bytes only).

    Returns a :class:`~provider.wiki.files.Skipped` for a file no longer indexed under
    ``settings`` (larger than ``max_file_bytes``, skipped by a rule, left out by the docs
    tool), and ``None`` when this cannot tell without a full reading, so the caller must
    treat the page as internal (fail closed, CONTRACT X7): the file cannot be read, is no
    longer what ``before`` describes (another git blob), or lost the acceptance of a
    finding it had. Never raises on content.

    ``read_with``: the settings ``before`` was read with. A page ``before`` withholds as
    no page (a redirect stub, no text: read from the body) stays withheld; telling that
    reason from the operator's (a ``withhold`` rule, ``NOINDEX``, which the new settings
    decide) takes the header read with them too. Without them, it stays withheld.
    """
    relpath = before.relpath
    try:
        with open(os.path.join(settings.root, *relpath.split("/")), "rb") as handle:
            data = handle.read(settings.max_file_bytes + 1)
    except OSError:
        return None
    if len(data) > settings.max_file_bytes:
        return Skipped(relpath, f"larger than {settings.max_file_bytes} bytes")
    revision = git_blob_sha1(data)
    if revision != before.revision or not _partials_as_before(settings, before):
        return None
    ignored = ignore_reason(relpath, settings.ignore_rules)
    if ignored is not None:
        return Skipped(relpath, ignored, expected=True)
    head = _read_header(settings, relpath, data, revision, before.real_relpath)
    if head.site.excluded is not None:
        return Skipped(relpath, head.site.excluded, expected=True)
    if not set(before.accepted) <= head.accepted:
        return None
    layout = settings.preset
    publication, publication_errors, _ = _withholding(settings, relpath, before.real_relpath, head)
    if before.publication.get("path") and not publication.get("path") and not (
            read_with is not None and _withholding(
                read_with, relpath, before.real_relpath,
                _read_header(read_with, relpath, data, revision, before.real_relpath))[0].get("path")
            == before.publication["path"]):
        publication["path"] = before.publication["path"]  # a stub page (read from the body) stays one
    verdict = decide_file(FileFacts(
        relpath, head.meta, settings.audience_only_rules, unreadable=head.unreadable,
        real_relpath=before.real_relpath, lowercase_keys=bool(layout.params_key),
        skip=("cascade",) if before.section else (),
        site_sources=head.site.sources if head.site.defaults else (),
        page_front_matter=head.page_meta(settings) if head.site.defaults else None,
        header_text=head.text if head.front.present else "",
    ))
    errors = [*before.errors, *head.errors, *verdict.errors, *publication_errors]
    warnings: list[str] = []
    cascade = _section_cascade(settings, relpath, head, errors, warnings) if before.section else None
    # The reasons too, not only the verdicts: the copy rules tell a source from a page
    # on the site by them (a NOINDEX page later withheld by a rule is a source; X7).
    sources = {**before.sources, "audience": verdict.source, "draft": _standing_reason(publication)}
    return replace(
        before, audience=verdict.audience, audience_own=verdict.own, sources=sources,
        draft=bool(sources["draft"]),
        publication=publication, errors=tuple(dict.fromkeys(errors)), cascade=cascade,
        accepted=tuple(sorted(head.accepted)),
        site_cascade=site_cascade_for(settings, relpath, section=before.section) if layout.site_cascade else None,
    )


def _standing_reason(publication: Mapping[str, str]) -> str:
    """Why ``publication`` withholds the page whatever the date (``""``: it does not)."""
    found = standing_withholding(publication)
    return found[1] if found is not None else ""


def _section_cascade(settings: WikiSettings, relpath: str, head: _Header, errors: list[str],
                     warnings: list[str]) -> dict[str, str] | None:
    """What a section page cascades to its folder (its errors and warnings added)."""
    if head.unreadable is not None:
        return {CASCADE_ERROR: f"front matter of {relpath} cannot be read",
                "build": f"the front matter of section {relpath} cannot be read (withheld, fail closed)"}
    cascade, more_errors, more = read_cascade(head.meta, settings.preset)
    errors += more_errors
    warnings += more
    return cascade


@dataclass(frozen=True)
class _Header:
    """What the bytes and the front matter say, before the body is read.

    Attributes:
        meta: the front matter as every decision reads it (the docs tool's defaults below
            it, Hugo's ``params`` lifted, the operator's audience map applied).
        unreadable: why the bytes or the header cannot be read, or ``None``.
        errors: decoding, front matter, site configuration and audience map errors, in
            that order.
        findings: a misplaced header's finding.
        accepted: what the operator accepted for these bytes (:func:`~provider.wiki.findings.accepted_codes`:
            codes, and ``code|text`` for one finding; read with :func:`~provider.wiki.findings.covers`).
    """

    text: str
    front: FrontMatter
    site: SiteView
    meta: dict[str, Any]
    unreadable: str | None
    errors: list[str]
    findings: list[str]
    accepted: frozenset[str]
    #: the excluded file this page translates (:func:`~provider.wiki.excluded_sources.excluded_source`), or ``""``.
    translates: str = ""

    def page_meta(self, settings: WikiSettings) -> dict[str, Any]:
        """The page's own front matter read as :attr:`meta` is, without the tool's defaults."""
        mine, _ = apply_audience_map(with_params(self.front.data, settings.preset.params_key), settings.audience_map)
        return mine


def _read_header(settings: WikiSettings, relpath: str, data: bytes, revision: str,
                 real_relpath: str | None) -> _Header:
    layout = settings.preset
    errors: list[str] = []
    findings: list[str] = []
    unreadable: str | None = None
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
        if covers(accepted, MISPLACED, front.error):
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
    translates = ""
    if not settings.sitemap and site.excluded is None:
        # With a sitemap, rule 11 decides: on the site is the proof the tool published it.
        source = excluded_source(relpath, settings.patterns, settings.known_locales, settings.default_locale,
                                 load_site_policy(settings.root, settings.layout).excluded_reason,
                                 settings.root, own, yaml_end_marker=layout.name == "jekyll")
        if source is not None:
            translates = source[0]
            errors.append(f"a translation of {source[0]}, which the docs tool does not build ({source[1]}): "
                          "internal until the site's sitemap (sitemap:) shows this page published")
    meta, more_errors = apply_audience_map(with_params(own, layout.params_key), settings.audience_map)
    errors += more_errors
    return _Header(text, front, site, meta, unreadable, errors, findings, accepted, translates)


def _withholding(settings: WikiSettings, relpath: str, real_relpath: str | None,
                 head: _Header) -> tuple[dict[str, str], list[str], list[str]]:
    """``(publication, errors, warnings)``: the file's own withholding facts, the
    operator's ``withhold`` rules and ``NOINDEX`` included (as ``path``)."""
    publication, errors, warnings = read_publication(head.meta, relpath, settings.preset, dated=head.site.dated)
    if head.front.error is not None:
        # Its draft, build or dates may say "not published": they cannot be read (X5).
        publication.setdefault("draft", f"{head.front.error}: its publication keys cannot be read (withheld)")
    by_operator = operator_withholding(head.meta, [relpath, *([real_relpath] if real_relpath else [])],
                                       settings.audience_rules, withhold_noindex=settings.withhold_noindex)
    if (by_operator is not None and head.site.defaults and by_operator.startswith("front matter ")
            and not any(isinstance(k, str) and k.strip().lower() == "robots" for k in head.front.data)):
        by_operator = f"site metadata ({', '.join(head.site.sources)}) " + by_operator.removeprefix("front matter ")
    if by_operator is not None and not publication.get("path"):
        publication["path"] = by_operator
    if settings.preset.bundle_resources and not publication.get("path"):
        # The bundle's index may be a file the provider does not read (index.html,
        # index.org): the corpus rule sees only markdown ones (issue 24).
        bundle = hugo_leaf_bundle(settings.root, relpath)
        if bundle is not None:
            publication["path"] = f"{BUNDLE_RESOURCE} {bundle}/ (Hugo renders only its index)"
    return publication, errors, warnings


@dataclass(frozen=True)
class _Identity:
    locale: Decision
    group: Decision
    doc_id: Decision
    warnings: list[str]


def _identity(settings: WikiSettings, relpath: str, meta: dict[str, Any]) -> _Identity:
    """The page's locale, translation group and ``documentId``."""
    layout = settings.preset
    warnings: list[str] = []
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
    return _Identity(locale, group, doc_id, warnings)


@dataclass(frozen=True)
class _Body:
    """What the body holds: its sections, text and passages, and what its markers say.

    Attributes:
        audience_in_body: a line sets an audience outside the front matter.
        errors, warnings, findings: about the body's markers, in the order met.
    """

    split: SectionSplit
    public: PlainText
    passages: tuple[Passage, ...]
    public_passages: tuple[Passage, ...]
    internal_blocks: list[Block]
    audience_in_body: bool
    errors: list[str]
    warnings: list[str]
    findings: list[str]
    #: the internal blocks only a label hides (:data:`~provider.wiki.body_markers.LABEL_CODES`).
    label_blocks: list[Block] = field(default_factory=list)
    #: the MDX partials shown (:attr:`provider.wiki.model.DocumentMeta.partials`).
    partials: tuple[str, ...] = ()


def _read_body(settings: WikiSettings, relpath: str, head: _Header) -> _Body:
    layout = settings.preset
    body_text = head.front.body
    offset = len(_lines(head.text)) - len(body_text.split("\n"))
    partial_warnings: list[str] = []
    refused: list[str] = []
    origin: list[int] = []
    partials: list[str] = []
    if layout.name == "docusaurus":
        # The site shows an imported partial's text in place of its component: that
        # text is the page's. ``origin`` keeps each line's own line on the page.
        body_text, partial_warnings = inline_partials(body_text, settings.root, settings.root / relpath,
                                                      restricted=_partial_gate(settings), refused=refused,
                                                      lines=origin, read=partials)

    def at(line: int) -> int:
        return (origin[line - 1] if 0 < line <= len(origin) else line) + offset

    # Template logic the provider cannot evaluate is not proof of publication
    # (issue 24): its text becomes internal sections; a comment construct, or one whose
    # tags are shown as code (they run there; no marker can stand in code), is dropped.
    dialects_here = layout.dialects_for(relpath)
    dialect = template_dialect(layout.name, settings.root, head.meta)
    body_text = mark_template_blocks(
        body_text, dialect,
        lambda spans: shown_as_code(body_text, [_text_span(body_text, a, b) for a, b in spans],
                                    lambda text: _cleaned(text, dialects_here),
                                    shortcodes_run_first=layout.name == "hugo"),
        delimiters=jinja_delimiters(settings.root) if dialect == "jinja" else DEFAULT_DELIMITERS,
        silent=silent_shortcodes(settings.root) if dialect == "hugo" else frozenset(),
        templates=shortcode_templates(settings.root) if dialect == "hugo" else None)
    markers = find_body_markers(body_text)
    if not _says_internal(head.meta):
        # A title saying "not for customers" matters on a page that would be public; on
        # one its own front matter already makes internal it is only what it says.
        markers += [replace(m, line=m.line - offset) for m in front_matter_markers(head.meta, head.text)]
    errors, warnings, findings, hiding = _marker_messages(markers, at, head)
    warnings = [*partial_warnings, *warnings]
    # The site shows the partial's text on this page to every reader: a page that
    # imports text the operator made internal is internal (fail closed, issue 24).
    errors += [f"imports the MDX partial {item} (the site shows its text on {relpath}); served as internal"
               for item in refused]
    if layout.name == "docfx":
        warnings += _includes_not_inlined(body_text)
    audience_in_body = any(m.code == AUDIENCE_IN_BODY for m in markers)
    split = _split(body_text, hiding, layout, layout.dialects_for(relpath), head.accepted, findings, at)
    if split.blocks or split.near_miss_lines:
        more, more_errors = _section_messages(split, at)
        warnings += more
        errors += more_errors
    dialects = layout.dialects_for(relpath)
    # Hugo's Goldmark omits raw HTML unless the site sets ``unsafe``: its text is no text.
    text_options = (replace(layout.text, raw_html=goldmark_shows_raw_html(settings.root)) if layout.name == "hugo"
                    else layout.text)
    full = markdown_to_text(_cleaned(split.full, dialects), text_options)
    anchors = _anchor_rule(settings, relpath)
    internal_blocks: list[Block] = []
    label_blocks: list[Block] = []
    if split.blocks:
        public = markdown_to_text(_cleaned(split.public, dialects), text_options)
        marked = mark_internal_blocks(full.blocks, public.blocks)
        internal_blocks = [b for b in marked if b.internal]
        if any(m.code in LABEL_CODES for m in hiding):
            label_blocks = _label_blocks(body_text, hiding, layout, dialects, full.blocks, internal_blocks,
                                         text_options)
        passages = split_passages(marked, slugger=new_slugger(anchors))
        public_passages = split_passages(public.blocks, slugger=new_slugger(anchors))
        if not public_passages:
            warnings.append("no text outside internal sections: never in the public index")
    else:
        public = full
        passages = public_passages = split_passages(full.blocks, slugger=new_slugger(anchors))
    return _Body(split, public, passages, public_passages, internal_blocks, audience_in_body, errors, warnings,
                 findings, label_blocks, tuple(dict.fromkeys(partials)))


def _partials_as_before(settings: WikiSettings, before: DocumentMeta) -> bool:
    """Whether the partials ``before`` showed are unchanged and still allowed on a public
    page under ``settings`` (their text is part of the body, which a header reading does
    not parse again)."""
    gate = _partial_gate(settings)
    for entry in before.partials:
        digest, _, relpath = entry.partition(" ")
        if gate(relpath) is not None or partial_digest(settings.root / relpath) != digest:
            return False
    return True


def _partial_gate(settings: WikiSettings) -> Callable[[str], str | None]:
    """Why the operator's ``audience_rules`` keep a partial (a POSIX path relative to the
    content root) from public pages: the first audience rule matching it is not
    ``public``, or a ``withhold`` rule matches it; ``None``: no objection."""
    def why(relpath: str) -> str | None:
        for rule in settings.audience_rules:
            if rule.audience == WITHHOLD and rule.matches(relpath):
                return f"the audience rule {rule.pattern!r} withholds it"
        first = next((r for r in settings.audience_only_rules if r.matches(relpath)), None)
        if first is not None and first.audience != PUBLIC:
            return f"the audience rule {first.pattern!r} makes it {first.audience}"
        return None
    return why


@lru_cache(maxsize=16)
def _cleaned(source: str, dialects: tuple[str, ...]) -> str:
    """:func:`apply_dialects`, once per text: reading a page cleans the same body (or its
    public view, when it has no internal section) up to four times — looking for markers
    shown as code, cutting the sections, then the full and the public text. Bounded: a
    reader process holds at most this many texts besides the page it reads."""
    return apply_dialects(source, dialects)


def _text_span(body: str, start: int, end: int) -> re.Match[str]:
    """``body[start:end]`` as a match, the shape :func:`shown_as_code` reads."""
    found = re.compile(f"(?s).{{{end - start}}}").match(body, start)
    if found is None:  # never: the spans come from the body
        raise ValueError(f"span {start}-{end} outside a body of {len(body)} characters")
    return found


def _label_blocks(body_text: str, hiding: list[BodyMarker], layout: Layout, dialects: tuple[str, ...],
                  full: tuple[Block, ...], internal: list[Block], text_options: TextOptions) -> list[Block]:
    """The blocks of ``internal`` that only a label hides: internal with every hiding
    marker, public when the :data:`~provider.wiki.body_markers.LABEL_CODES` ones are left
    out (the body cut again without them)."""
    strong = [m for m in hiding if m.code not in LABEL_CODES]
    split = _cut(body_text, strong, layout, dialects)
    still: Counter[tuple[str, str]] = Counter()
    if split.blocks:
        public = markdown_to_text(_cleaned(split.public, dialects), text_options)
        still.update((b.kind, b.text) for b in mark_internal_blocks(full, public.blocks) if b.internal)
    found = []
    for block in internal:
        key = (block.kind, block.text)
        if still[key] > 0:
            still[key] -= 1
        else:
            found.append(block)
    return found


def _says_internal(meta: dict[str, Any]) -> bool:
    """Whether the front matter's own ``audience`` key (any case) says ``internal``."""
    found = lookup(meta, "audience")
    return found is not None and str(found[1]).strip().lower() == "internal"


#: The body-marker finding of an audience key written in the body.
AUDIENCE_IN_BODY = "audience-in-body"
#: The body-marker finding of a front matter title saying the page is internal.
INTERNAL_TITLE = "internal-title"


def _marker_messages(markers: list[BodyMarker], at: Callable[[int], int],
                     head: _Header) -> tuple[list[str], list[str], list[str], list[BodyMarker]]:
    """``(errors, warnings, findings, hiding)``: what the body's markers say, and those
    that hide their block (not accepted by the operator)."""
    errors: list[str] = []
    warnings: list[str] = []
    findings: list[str] = []
    hiding: list[BodyMarker] = []
    for marker in markers:
        findings.append(format_finding(marker.code, at(marker.line), marker.text))
        if marker.code == AUDIENCE_IN_BODY:
            if head.unreadable is None:  # else the header reader already said so
                errors.append(f"line {at(marker.line)} sets {marker.text!r} in the body, outside the front "
                              "matter; the document is treated as internal")
        elif marker.code == INTERNAL_TITLE:
            if not covers(head.accepted, marker.code, marker.text):
                errors.append(f"line {at(marker.line)}: front matter {marker.text!r} says the page is not for "
                              f"customers; treated as internal ({INTERNAL_TITLE}; accept it in accepted_findings if "
                              "it is public)")
        elif not covers(head.accepted, marker.code, marker.text):
            hiding.append(marker)
            warnings.append(f"line {at(marker.line)}: {marker.text!r} says it is not for customers, so "
                            f"{_HIDES[marker.code]} internal ({marker.code}; accept it in accepted_findings if "
                            "it is public)")
    return errors, warnings, findings, hiding


def _split(body_text: str, hiding: list[BodyMarker], layout: Layout, dialects: tuple[str, ...],
           accepted: frozenset[str], findings: list[str], at: Callable[[int], int]) -> SectionSplit:
    """The body cut into internal sections (the hiding markers' blocks included);
    would-be markers are added to ``findings``; ``dialects``: the file's text cleaners."""
    split = _cut(body_text, hiding, layout, dialects)
    if hiding:
        # The markers put at line starts hide what a would-be marker there (``> [!X]``)
        # looks like: look for would-be markers in the text as written too.
        written = _cut(body_text, [], layout, dialects)
        near = tuple(sorted({*split.near_miss_lines, *written.near_miss_lines}))
        split = replace(split, near_miss_lines=near)
    if split.near_miss_lines:
        lines = _lines(body_text)
        texts = {n: lines[n - 1] if n <= len(lines) else "" for n in split.near_miss_lines}
        findings += [format_finding(WOULD_BE_MARKER, at(n), texts[n]) for n in split.near_miss_lines]
        # Accepted one by one (an acceptance's text) or all at once (none).
        kept = tuple(n for n in split.near_miss_lines if not covers(accepted, WOULD_BE_MARKER, texts[n]))
        if kept != split.near_miss_lines:
            split = replace(split, near_miss_lines=kept)
    return split


def _cut(body_text: str, hiding: list[BodyMarker], layout: Layout, dialects: tuple[str, ...]) -> SectionSplit:
    """The body cut into internal sections, with ``hiding``'s blocks marked (none: as written);
    ``dialects``: the file's text cleaners."""
    return split_sections(mark_body_sections(body_text, hiding) if hiding else body_text,
                          prepare=lambda body: _cleaned(body, dialects),
                          colon_containers=layout.name != "mkdocs", shortcodes_run_first=layout.name == "hugo")


@dataclass(frozen=True)
class _Page:
    title: Decision
    review_due: str | None
    url: str | None
    sync: dict[str, str]
    date: str | None
    warnings: list[str]


def _page_fields(settings: WikiSettings, relpath: str, meta: dict[str, Any], body: _Body,
                 errors: list[str]) -> _Page:
    """Title, review date, URL, sync keys and date; a title that holds an internal-section
    marker is added to ``errors``."""
    layout = settings.preset
    warnings: list[str] = []
    name = readable_name(relpath, index_names=layout.index_names, dated_names=layout.dated_names,
                         number_prefixes=layout.number_prefixes)
    # The title is shown to customers: take heading candidates from the public view only.
    title, more = decide_title(meta, relpath, first_h1=body.public.first_h1, file_name=name)
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
    due = review_due.value.isoformat() if review_due.value is not None else None
    return _Page(title, due, url, sync, page_date, warnings)


def _jekyll_url(settings: WikiSettings, relpath: str, meta: dict[str, Any]) -> str:
    """The page's URL path as Jekyll builds it (:func:`~provider.wiki.jekyll_urls.jekyll_url`:
    its permalink, the site's and its collection's ``permalink``), kept in
    :attr:`DocumentMeta.slug` for the citation URL."""
    policy = load_site_policy(settings.root, "jekyll", max_age_s=5.0)
    kind = policy.page_type(relpath)
    settings_ = dict(policy.permalinks)
    return jekyll_url(relpath, meta, kind=kind, style=settings_.get("", "date"),
                      collection_permalink=settings_.get(kind), collection_folder=policy.type_folder(kind))


def _mkdocs_blog_url(settings: WikiSettings, relpath: str, meta: dict[str, Any], title: str) -> str:
    """A Material blog post's URL path, ``/`` first (:meth:`MkDocsProject.blog_url`), kept
    in :attr:`DocumentMeta.slug` for the citation URL; ``""`` for any other page."""
    project = project_for(settings.root, relpath)
    inner = project.page_path(relpath) if project is not None and project.error is None else None
    if project is None or inner is None or not project.blogs:
        return ""
    front_title = meta.get("title")
    url = project.blog_url(inner, meta, front_title if isinstance(front_title, str) and front_title else title)
    return "/" + url if url is not None else ""


def _front_slug(meta: dict[str, Any]) -> str:
    """The front matter ``slug`` when it is a short single-line text, else ``""`` (the
    path rule applies, as Docusaurus would refuse the page rather than guess)."""
    value = meta.get("slug")
    if isinstance(value, str) and value.strip() and len(value) <= 500 and "\n" not in value:
        return value.strip()
    return ""


def _hugo_slug(relpath: str, meta: dict[str, Any]) -> str:
    """Hugo's front matter ``slug``, which replaces the last segment of a page's URL (a
    leaf bundle's folder for its ``index``), or ``""``: none, a section's ``_index``
    (Hugo ignores it there), or a value with a ``/`` inside."""
    value = _front_slug(meta).strip("/")
    if not value or "/" in value or relpath.rpartition("/")[2].lower().startswith("_index."):
        return ""
    return value


#: DocFX's include line: ``[!INCLUDE [title](path)]``, the path captured.
_DOCFX_INCLUDE = re.compile(r"\[!INCLUDE\s{0,10}\[[^\]\n]{0,500}\]\(([^)\n]{1,1000})\)\]", re.IGNORECASE)
#: Paths an include warning names at most (the rest are counted).
_INCLUDES_NAMED = 3


def _includes_not_inlined(body: str) -> list[str]:
    """The warning of a DocFX page that includes other files (``[!INCLUDE [name](path)]``):
    the provider does not put their text there, so the page's served text lacks what the
    site shows (issue 27: the trial read "skipped" as "included"). None without one."""
    paths = list(dict.fromkeys(m.group(1).strip() for m in _DOCFX_INCLUDE.finditer(body)))
    if not paths:
        return []
    named = ", ".join(paths[:_INCLUDES_NAMED]) + (f" and {len(paths) - _INCLUDES_NAMED} more"
                                                  if len(paths) > _INCLUDES_NAMED else "")
    return [f"included text not inlined: [!INCLUDE] of {named}; the site shows that text on this page, "
            "the provider serves the page without it"]


def _stub(front: dict[str, Any], markdown: str, body: _Body, page: _Page) -> str | None:
    """Why a page that is not a page is not served: a redirect stub
    (:func:`~provider.wiki.redirects.redirect_stub`), or a page with no text beyond its
    title (:func:`~provider.wiki.plaintext.no_text_to_serve`; not when the title is the
    file name, which says nothing either); ``None`` for a page."""
    stub = redirect_stub(front, markdown, (p.text for p in body.passages))
    if stub is None and page.title.source != "file name":
        blocks = (*body.public.blocks, *body.internal_blocks)
        stub = no_text_to_serve(markdown, (f"{p.heading} {p.text}" for p in body.passages), page.title.value,
                                headings_only=bool(blocks) and all(block.kind == "heading" for block in blocks))
    return stub


def _text_fields(title: str, body: _Body) -> dict[str, Any]:
    """The :class:`DocumentMeta` fields made from the text: digests, sketches and bags."""
    passages, public_passages = body.passages, body.public_passages
    internal_only = [p for p in passages if p.internal]
    # Title and headings count: a translation that translated only its headings is still
    # a translation, not a copy.
    text_hash = hashlib.sha1(_texts(title, passages).encode("utf-8"), usedforsecurity=False).hexdigest()
    return {
        "internal_sections": body.split.blocks,
        "public_text": bool(public_passages),
        "has_text": bool(passages),
        "text_hash": text_hash if passages else "",
        "sketch": sketch(_texts(title, passages)),
        "internal_sketch": sketch(_texts("", internal_only)) if internal_only else "",
        "public_revision": hashlib.sha1(
            f"{title}\n{_texts('', public_passages)}".encode(), usedforsecurity=False).hexdigest(),
        # Without title and headings: a copy is retitled.
        "bag": word_bag("\n".join(p.text for p in passages)),
        "internal_bag": word_bag("\n".join(p.text for p in internal_only)) if internal_only else "",
        "paragraph_bags": paragraph_bags(b.text for b in body.public.blocks if b.kind != "heading"),
        "internal_paragraph_bags": paragraph_bags(b.text for b in body.internal_blocks if b.kind != "heading"),
        "block_shingles": block_shingles((b.text, b.kind == "code", b.verbatim) for b in body.public.blocks),
        "internal_block_shingles": block_shingles((b.text for b in body.internal_blocks), page=False, hidden=True),
        "label_block_shingles": block_shingles((b.text for b in body.label_blocks), page=False, hidden=True),
    }


#: What each body-marker finding makes internal, for its warning.
_HIDES = {"hiding-heading": "its heading's section is", "hiding-label": "its paragraph is",
          "hiding-note": "its blockquote is", "todo-internal": "the block holding it is",
          "hiding-title": "the box or element it titles is", "hiding-cell": "its table row (a header: the table) is",
          "hiding-footnote": "the footnote and the blocks citing it are",
          "hiding-term": "the term and its definitions are",
          "hiding-sentence": "the section holding it (before any heading: the page) is"}
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
