"""Loading one wiki file into a classified document.

:func:`load_document` reads a file *now* and returns a :class:`WikiDocument`, a
:class:`~provider.wiki.files.Skipped` with the reason, or ``None`` when the file has
gone (a removal, not an error). It never raises on file content.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .classify import (
    INTERNAL,
    AudienceRule,
    decide_audience,
    decide_doc_id,
    decide_draft,
    decide_locale,
    decide_review_due,
    decide_title,
    decide_translation_group,
)
from .files import DEFAULT_EXTENSIONS, DEFAULT_MAX_FILE_BYTES, FileRef, Skipped, stat_file
from .frontmatter import parse_front_matter
from .locales import normalize_tag
from .passages import Passage, split_passages
from .plaintext import markdown_to_text

__all__ = ["DocumentMeta", "WikiDocument", "WikiSettings", "git_blob_sha1", "load_document"]


@dataclass(frozen=True)
class WikiSettings:
    """How to read a wiki.

    Attributes:
        root: the content folder.
        default_locale: BCP 47 tag for files that name no locale.
        locales: tags recognised as path markers (the default locale is always one).
        audience_rules: operator rules, first match wins.
        max_file_bytes: larger files are skipped and reported (default 2 MiB).
        extensions: file extensions read, compared case-insensitively.
    """

    root: Path
    default_locale: str = "en"
    locales: tuple[str, ...] = ("en",)
    audience_rules: tuple[AudienceRule, ...] = ()
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS

    @property
    def known_locales(self) -> frozenset[str]:
        return frozenset((*self.locales, self.default_locale))


@dataclass(frozen=True)
class DocumentMeta:
    """Everything known about a file except its text; small enough for the manifest.

    Attributes:
        relpath: POSIX path relative to the content root.
        size, mtime_ns: what the file looked like when read (bytes, nanoseconds).
        revision: the git blob hash of the bytes (what ``git hash-object`` prints).
        doc_id: the ``documentId``.
        title: plain-text title.
        audience: ``public`` or ``internal`` as the file itself decides; corpus-wide rules
            (duplicate ids) may still make it internal.
        draft: never served when true.
        locale: canonical BCP 47 tag.
        translation_group: the group key (every document has one; a group of one is
            not reported as a group).
        review_due: ISO 8601 UTC date-time, or ``None``.
        url: front matter ``url``, unchecked here, or ``None``.
        sources: where each decision came from (``{"audience": "rule 'docs/**'", ...}``).
        warnings: problems an operator should fix.
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

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["warnings"] = list(self.warnings)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DocumentMeta:
        data = dict(data)
        data["warnings"] = tuple(data.get("warnings", ()))
        return cls(**data)


@dataclass(frozen=True)
class WikiDocument:
    """A classified document with its text cut into passages."""

    meta: DocumentMeta
    passages: tuple[Passage, ...]

    @property
    def body(self) -> str:
        return "\n".join(p.text for p in self.passages)


def git_blob_sha1(data: bytes) -> str:
    """The id git gives these bytes as a blob (``git hash-object``)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def load_document(settings: WikiSettings, relpath: str) -> WikiDocument | Skipped | None:
    """Read and classify one file as it is now.

    Returns:
        the document; a :class:`Skipped` (too large, outside the root, no readable text);
        or ``None`` when the file does not exist (any more).
    """
    ref = stat_file(settings.root, relpath, max_file_bytes=settings.max_file_bytes)
    if not isinstance(ref, FileRef):
        return ref
    try:
        with open(os.path.join(settings.root, *relpath.split("/")), "rb") as handle:
            data = handle.read(settings.max_file_bytes + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return Skipped(relpath, f"cannot be read: {exc.strerror or exc}")
    if len(data) > settings.max_file_bytes:
        return Skipped(relpath, f"larger than {settings.max_file_bytes} bytes")
    return parse_document(settings, relpath, data, size=len(data), mtime_ns=ref.mtime_ns)


def parse_document(
    settings: WikiSettings, relpath: str, data: bytes, *, size: int, mtime_ns: int
) -> WikiDocument | Skipped:
    """Classify a file's bytes. Never raises on content."""
    warnings: list[str] = []
    unreadable: str | None = None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")
        unreadable = "file is not valid UTF-8"
        warnings.append(unreadable)
    front = parse_front_matter(text)
    if front.error is not None:
        unreadable = unreadable or front.error
        warnings.append(front.error)
    meta = front.data
    audience = decide_audience(meta, relpath, settings.audience_rules, unreadable=unreadable)
    if audience.value == INTERNAL and "audience" in meta and audience.source.startswith("fail-closed"):
        warnings.append("audience is not exactly 'public' or 'internal'; treated as internal")
    draft = decide_draft(meta)
    locale, more = decide_locale(
        meta, relpath, known_locales=settings.known_locales, default_locale=settings.default_locale
    )
    warnings += more
    group, more = decide_translation_group(meta, relpath, known_locales=settings.known_locales)
    warnings += more
    doc_id, more = decide_doc_id(meta, relpath)
    warnings += more
    plain = markdown_to_text(front.body)
    title, more = decide_title(meta, relpath, first_h1=plain.first_h1)
    warnings += more
    review_due, more = decide_review_due(meta)
    warnings += more
    url = meta.get("url") if isinstance(meta.get("url"), str) else None
    passages = split_passages(plain.blocks)
    if not passages:
        return Skipped(relpath, "has no readable text")
    document_meta = DocumentMeta(
        relpath=relpath,
        size=size,
        mtime_ns=mtime_ns,
        revision=git_blob_sha1(data),
        doc_id=doc_id.value,
        title=title.value,
        audience=audience.value,
        draft=bool(draft.value),
        locale=normalize_tag(locale.value) or settings.default_locale,
        translation_group=group.value,
        review_due=review_due.value.isoformat() if review_due.value is not None else None,
        url=url,
        sources={
            "audience": audience.source,
            "draft": draft.source,
            "locale": locale.source,
            "translation_group": group.source,
            "doc_id": doc_id.source,
            "title": title.source,
        },
        warnings=tuple(warnings),
    )
    return WikiDocument(meta=document_meta, passages=passages)
