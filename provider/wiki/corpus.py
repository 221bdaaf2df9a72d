"""Corpus-wide rules: what one file cannot decide alone.

:func:`resolve` takes every document's metadata and decides, for each, whether and
how it is served:

* drafts are served to nobody (CONTRACT X5);
* two or more servable files claiming one ``documentId`` are all reported and all
  made internal, so none reaches ``customer_safe`` (fail closed);
* translation groups: a group key shared by two or more servable documents is a group;
  a key of one document is not reported as a group. The public index sees groups as
  if internal documents did not exist, so a public article's group never reveals an
  internal sibling (contract §5.4).

The result depends only on the metadata, so an incremental update that re-resolves
the whole corpus gives exactly what a fresh build would.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from .classify import INTERNAL, PUBLIC
from .document import DocumentMeta

__all__ = ["Resolved", "resolve"]


@dataclass(frozen=True)
class Resolved:
    """How one document is served.

    Attributes:
        meta: the file's own metadata.
        audience: the effective audience (``public`` only if the file is public *and*
            no corpus rule withdrew it).
        served: false for drafts.
        group: the translation group key when the group has two or more servable
            members, else ``None`` (used in the agent index).
        public_group: the same, counting only public members (used in the public index).
        problems: corpus-level reasons shown to the operator (e.g. a duplicate id).
    """

    meta: DocumentMeta
    audience: str
    served: bool
    group: str | None
    public_group: str | None = None
    problems: tuple[str, ...] = ()

    @property
    def public(self) -> bool:
        """Whether the document belongs in the public (``customer_safe``) index."""
        return self.served and self.audience == PUBLIC

    def fingerprint(self) -> str:
        """Changes whenever anything indexed for this document changes."""
        meta = self.meta
        parts = (meta.revision, self.audience, str(self.served), self.group or "", self.public_group or "",
                 meta.doc_id, meta.title, meta.locale, meta.review_due or "", meta.url or "")
        return "|".join(parts)


def resolve(docs: Mapping[str, DocumentMeta]) -> dict[str, Resolved]:
    """Apply the corpus-wide rules to every document (keyed by relative path)."""
    by_id: dict[str, list[str]] = defaultdict(list)
    by_group: dict[str, int] = defaultdict(int)
    for relpath, meta in docs.items():
        if not meta.draft:
            by_id[meta.doc_id].append(relpath)
            by_group[meta.translation_group] += 1
    public_by_group: dict[str, int] = defaultdict(int)
    for meta in docs.values():
        if not meta.draft and meta.audience == PUBLIC and len(by_id[meta.doc_id]) == 1:
            public_by_group[meta.translation_group] += 1

    resolved: dict[str, Resolved] = {}
    for relpath, meta in docs.items():
        if meta.draft:
            resolved[relpath] = Resolved(meta, meta.audience, served=False, group=None)
            continue
        problems: list[str] = []
        audience = meta.audience
        claimants = by_id[meta.doc_id]
        if len(claimants) > 1:
            others = ", ".join(sorted(p for p in claimants if p != relpath))
            problems.append(f"documentId {meta.doc_id!r} is also claimed by {others}; served as internal")
            audience = INTERNAL
        key = meta.translation_group
        group = key if by_group[key] > 1 else None
        public_group = key if audience == PUBLIC and public_by_group[key] > 1 else None
        resolved[relpath] = Resolved(
            meta, audience, served=True, group=group, public_group=public_group, problems=tuple(problems)
        )
    return resolved
