"""A document's Whoosh entries in one index: its units with what the corpus rules decided.

The units (:mod:`provider.indexing.units`) are the same whatever the rules decide; the
fields every entry of a document shares — audience, revision, translation group and sync,
citation URL — come from its :class:`~provider.wiki.corpus.Resolved` decision
(:func:`entry_header`), and :func:`unit_entries` puts the two together (here or in a
:class:`~provider.indexing.sidewriter.SideWriter`'s process).
"""

from __future__ import annotations

from typing import Any

from ..search.prepared import Unit
from ..search.schema import SYNC_CURRENT as STORED_CURRENT
from ..search.schema import SYNC_STALE as STORED_STALE
from ..wiki.citations import builds_url, document_url, url_inputs, with_anchor
from ..wiki.classify import PUBLIC as PUBLIC_AUDIENCE
from ..wiki.corpus import SYNC_CURRENT, SYNC_STALE, Resolved
from ..wiki.document import WikiDocument, WikiSettings
from .units import text_units

__all__ = ["entry_header", "index_entries", "stored_sync", "unit_entries", "url_warnings_of"]

#: A translation's sync state (:attr:`~provider.wiki.corpus.Resolved.sync`) as the stored
#: ``sync`` field the search reads back; any other state is stored as it is (unknown).
_STORED_SYNC = {SYNC_CURRENT: STORED_CURRENT, SYNC_STALE: STORED_STALE}


def stored_sync(state: str | None) -> str | None:
    """The stored ``sync`` value of a translation sync state (``None``: not a translation
    with a sync key)."""
    return None if state is None else _STORED_SYNC.get(state, state)


def index_entries(
    settings: WikiSettings, languages: tuple[str, ...], resolved: Resolved, document: WikiDocument, *,
    public_view: bool, units: tuple[Unit, ...] | None = None,
) -> tuple[list[dict[str, Any]], list[str]]:
    """The Whoosh documents of one wiki document in one index, and warnings (a citation
    URL that fails R7).

    The ``public`` view is built from the text outside internal sections only — body,
    passages and their terms — so an internal block's words are not in the public index
    at all; translation groups and translation sync are judged as if internal documents
    did not exist. There is one entry per chunk (:mod:`provider.wiki.chunks`); with
    ``settings.chunking`` each is a result of its own (its chunk id and anchor stored),
    else each stands for the whole document (no chunk id, the document's URL), so a long
    document is scored by its best-matching section rather than diluted by the rest of
    it, and the search keeps one entry per document. ``units``: the view's
    :func:`~provider.indexing.units.text_units` when already made (in a reader process).
    """
    doc, url, warnings = entry_header(settings, resolved, public_view=public_view)
    if units is None:
        units = text_units(settings, languages, document, public_view=public_view)
    return unit_entries(units, doc, url, chunking=settings.chunking), warnings


def entry_header(settings: WikiSettings, resolved: Resolved, *,
                 public_view: bool) -> tuple[dict[str, object], str | None, list[str]]:
    """What every entry of a document in one view shares, decided by the corpus rules:
    ``(stored doc fields, citation URL or None, warnings)`` (see :func:`index_entries`)."""
    meta = resolved.meta
    inputs = url_inputs(meta, settings)
    url, warning = document_url(inputs, public=resolved.audience == PUBLIC_AUDIENCE, settings=settings.citation,
                                agent_view=not public_view)
    doc: dict[str, object] = {
        "id": meta.doc_id,
        "title": meta.title,
        "audience": resolved.audience,
        # customer_safe sees a revision of the public view only: an edit inside an internal
        # section changes nothing it can observe, and a guessed internal text cannot be
        # confirmed by hashing the file (agent_only keeps the git blob hash).
        "revision": (meta.public_revision or meta.revision) if public_view else meta.revision,
        "locale": meta.locale,
        "group": resolved.public_group if public_view else resolved.group,
        "review_due": meta.review_due,
        "sync": stored_sync(resolved.public_sync if public_view else resolved.sync),
    }
    return doc, url, [warning] if warning else []


def url_warnings_of(settings: WikiSettings, resolved: Resolved) -> tuple[str, ...]:
    """The citation-URL warning :func:`entry_header` gives a document in the views it is
    written to (one URL for both: the agent view differs only for documents not public),
    or ``()``. Free when no URL can be built (no base URL for its audience, no absolute
    front matter ``url``); else one URL built."""
    if not resolved.served:
        return ()
    citation = settings.citation
    public = resolved.audience == PUBLIC_AUDIENCE
    if not builds_url(resolved.meta.url, public=public, settings=citation, agent_view=True):
        return ()  # document_url's own test: they cannot drift apart
    _, warning = document_url(url_inputs(resolved.meta, settings), public=public, settings=citation, agent_view=True)
    return (warning,) if warning else ()


def unit_entries(units: tuple[Unit, ...], doc: dict[str, object], url: str | None, *,
                 chunking: bool) -> list[dict[str, Any]]:
    """The Whoosh documents of one view's units with their :func:`entry_header`."""
    entries: list[dict[str, Any]] = []
    for unit in units:
        if not chunking:
            entries.append({**unit.fields, "group": doc["group"] or "", "doc": dict(doc, chunk=None, url=url)})
            continue
        cited = with_anchor(url, unit.anchor)
        # A chunk of merged short sections shows the passage that matched, which may sit
        # under a later heading than the chunk's first: the result cites that heading
        # (``urls``: passage index → its URL, only where it differs from the chunk's).
        urls = {index: mine for index, anchor in enumerate(unit.passage_anchors)
                if (mine := with_anchor(url, anchor)) != cited}
        entries.append({**unit.fields, "group": doc["group"] or "",
                        "doc": dict(doc, chunk=unit.chunk_id, url=cited, **({"urls": urls} if urls else {}))})
    return entries
