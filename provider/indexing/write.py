"""Write: the decided documents' entries into the two Whoosh indexes.

The ``public`` index receives only public, servable documents (CONTRACT X2); the ``all``
index every servable document. A cold build writes both afresh (:meth:`EntryWriter.
write_build`); a batch replaces the entries of the documents whose decision or text
changed (:meth:`EntryWriter.write_batch`), the public index committing first so that a
document leaving it stops reaching customer_safe as early as possible (CONTRACT X7).
Large builds and batches write one of the indexes in a second process
(:class:`~provider.indexing.sidewriter.SideWriter`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.filedb.filestore import FileStorage
from whoosh.index import Index
from whoosh.writing import IndexWriter

from ..search.layout import ALL, PUBLIC
from ..search.prepared import AnalysedOnce, Unit
from ..search.prepared import load as load_prepared
from ..search.schema import build_schema
from ..search.writer import writer_for
from ..wiki.corpus import Resolved
from ..wiki.document import WikiDocument, WikiSettings
from .entries import entry_header, index_entries
from .manifest import Manifest
from .report import Progress, SyncReport, stage, took, warn
from .sidewriter import SideWriter
from .units import text_units
from .vectors import vector_bytes_of

__all__ = ["WAIT_FOR_AGENT_INDEX", "EntryWriter", "open_for_update", "withdraw"]

#: Memory of each Whoosh writer's posting pool before it spills a sorted run to disk
#: (megabytes): a 10,000-document build fits in one run per index.
WRITER_MB = 256
#: Served documents from which a cold build writes the public index in a second process
#: (below, starting the process costs more than it saves).
SIDE_WRITER_MIN_DOCS = 500
#: Changed documents from which a batch writes the agent index in a second process.
SIDE_WRITER_MIN_BATCH = 100
#: The step of a batch's timings in which this process waits for the agent index's writer
#: process after committing the public index.
WAIT_FOR_AGENT_INDEX = "wait for the agent index (second process)"


def _two_cpus() -> bool:
    return (os.cpu_count() or 1) > 1


def open_for_update(folder: Path) -> Index:
    """The Whoosh index in ``folder``, opened for a writer that updates it in place.

    Without memory maps: through one, Whoosh's compound segment hands each sub-file it
    opens to a ``BufferFile``, which copies it whole into a ``BytesIO``. The writer's
    first ``delete_by_term`` opens every segment's term files, so a one-file update
    copied the large segment's. Read through the file instead, a deletion reads the few
    blocks of one term.
    """
    return FileStorage(str(folder), supports_mmap=False).open_index()


def withdraw(folder: Path, relpaths: set[str]) -> None:
    """Delete every entry of ``relpaths`` from the index in ``folder``, in one commit."""
    writer: IndexWriter = open_for_update(folder).writer(timeout=10.0)
    try:
        for relpath in sorted(relpaths):
            writer.delete_by_term("path", relpath)
        writer.commit()
    except BaseException:
        writer.cancel()
        raise


class EntryWriter:
    """Writes documents' entries, as decided, for one wiki's settings.

    Args:
        settings: how the wiki is read (chunking, citation URLs).
        languages: the analysis languages of the indexes' schema.
    """

    def __init__(self, settings: WikiSettings, languages: tuple[str, ...]) -> None:
        self.settings = settings
        self.languages = languages

    def _use(self, once: AnalysedOnce, made: bytes | None) -> dict[bool, tuple[Unit, ...]] | None:
        """Hand what a reader process prepared to the writers: its postings to ``once``;
        returns its units by view (``None``: nothing usable, analyse here)."""
        found = load_prepared(made, self.languages)
        if found is None:
            return None
        units, postings = found
        once.postings.update(postings)
        return units

    def _entries(self, item: Resolved, document: WikiDocument, report: SyncReport, *, public_view: bool,
                 units: dict[bool, tuple[Unit, ...]] | None = None) -> list[dict[str, Any]]:
        entries, warnings = index_entries(self.settings, self.languages, item, document, public_view=public_view,
                                          units=(units or {}).get(public_view))
        warn(report, item.meta.relpath, warnings)
        return entries

    # -- a cold build ------------------------------------------------------------------

    def write_build(self, path: Path, resolved: Mapping[str, Resolved], loaded: Mapping[str, WikiDocument],
                    prepared: dict[str, bytes], report: SyncReport, manifest: Manifest,
                    progress: Progress | None = None) -> None:
        """Create both indexes in the new build folder ``path``, write every served
        document of ``resolved`` (texts in ``loaded``; ``prepared`` is used up), record
        the fingerprints and save ``manifest`` there. Nothing is left half-written on
        failure: the folder is then never published. ``progress(done, total)`` counts the
        served documents written, then hears the ``committing`` step (:func:`stage`)."""
        started = time.monotonic()
        schema = build_schema(self.languages, vector_bytes=vector_bytes_of(self.settings))
        for sub in (PUBLIC, ALL):
            (path / sub).mkdir()
            whoosh_index.create_in(str(path / sub), schema)
        side: SideWriter | None = None
        public_writer = None
        if sum(item.served for item in resolved.values()) >= SIDE_WRITER_MIN_DOCS and _two_cpus():
            # The public index is written by a second process meanwhile (two CPUs busy).
            side = SideWriter(path / PUBLIC, limitmb=WRITER_MB, languages=self.languages,
                              chunking=self.settings.chunking)
        else:
            public_writer = writer_for(whoosh_index.open_dir(str(path / PUBLIC)), limitmb=WRITER_MB)
        all_writer = writer_for(whoosh_index.open_dir(str(path / ALL)), limitmb=WRITER_MB)
        try:
            self._add_all(resolved, loaded, prepared, report, manifest, all_writer, public_writer, side, progress)
            took(report, "add documents (Whoosh pools)", started)
            stage(progress, "committing")
            started = time.monotonic()
            if public_writer is not None:
                public_writer.commit()
            all_writer.commit()
            took(report, "commit (Whoosh)", started)
            # Saved while the second process may still be writing (the build folder is
            # published only after it committed, so a failure there publishes nothing).
            started = time.monotonic()
            manifest.last_scan = time.time()
            manifest.save(path / "manifest.json")
            took(report, "save the manifest", started)
            if side is not None:
                started = time.monotonic()
                report.side_writer_cpu_s = side.commit()[1]
                took(report, "wait for the public index (second process)", started)
        except BaseException:
            if side is not None:
                side.cancel()
            # A writer already committed is closed: cancelling it would raise and hide
            # the error that got us here (the second process stopping, after the commits).
            for writer in (public_writer, all_writer):
                if writer is not None and not getattr(writer, "is_closed", False):
                    writer.cancel()
            raise

    def _add_all(self, resolved: Mapping[str, Resolved], loaded: Mapping[str, WikiDocument],
                 prepared: dict[str, bytes], report: SyncReport, manifest: Manifest, all_writer: IndexWriter,
                 public_writer: IndexWriter | None, side: SideWriter | None,
                 progress: Progress | None = None) -> None:
        """Add a cold build's entries to its writers (their postings detached again)."""
        served = sum(item.served for item in resolved.values())
        once = AnalysedOnce()
        if public_writer is not None:
            once.attach(public_writer)
        once.attach(all_writer)
        # In path order, not in the order the reader processes finished: two builds of
        # the same folder number their entries alike, so equal scores rank alike.
        for relpath, item in sorted(resolved.items()):
            if item.served:
                made = prepared.pop(relpath, None)
                units = self._use(once, made)
                for entry in self._entries(item, loaded[relpath], report, public_view=False, units=units):
                    all_writer.add_document(**entry)
                report.written += 1
                if item.public and side is not None:
                    doc, url, warnings = entry_header(self.settings, item, public_view=True)
                    warn(report, relpath, warnings)
                    if (units or {}).get(True) is None:
                        side.add(None, text_units(self.settings, self.languages, loaded[relpath], public_view=True),
                                 doc, url)
                    else:
                        side.add(made, None, doc, url)
                elif item.public and public_writer is not None:
                    for entry in self._entries(item, loaded[relpath], report, public_view=True, units=units):
                        public_writer.add_document(**entry)
                once.clear()
                if progress is not None:
                    progress(report.written, served)
            manifest.fingerprints[relpath] = item.fingerprint()
        once.detach(all_writer)
        if public_writer is not None:
            once.detach(public_writer)

    # -- a batch -----------------------------------------------------------------------

    def early_side_writer(self, folder: Path, batch: int) -> SideWriter | None:
        """For a batch of ``batch`` files, the agent index's (in ``folder``)
        :class:`SideWriter`, started before the batch is read: its process starts and
        opens the index while the reader processes work, not when the agent index's
        entries are ready. It only ever receives what :meth:`write_batch` sends it after
        the corpus rules. ``None`` for a small batch or on one CPU."""
        if batch < SIDE_WRITER_MIN_BATCH or not _two_cpus():
            return None
        return SideWriter(folder, limitmb=WRITER_MB, languages=self.languages, chunking=self.settings.chunking,
                          public_view=False)

    def write_batch(
        self, path: Path, changes: Mapping[str, Resolved | None], texts: Mapping[str, WikiDocument],
        prepared: Mapping[str, bytes], report: SyncReport, public_changes: set[str],
        started_side: SideWriter | None = None,
    ) -> None:
        """Write ``changes`` to the agent index of the build at ``path``, and those in
        ``public_changes`` to its public index (a document without its text in ``texts``
        is removed). ``started_side``: a :class:`SideWriter` on the agent index started
        earlier (:meth:`early_side_writer`): it writes the agent index whatever the
        batch's size; the caller cancels it when nothing was written."""
        writable = {relpath: item for relpath, item in changes.items()
                    if item is not None and item.served and relpath in texts}
        side = None
        if started_side is not None or (len(changes) >= SIDE_WRITER_MIN_BATCH and _two_cpus()):
            # A large batch: the agent index is written by a second process while this one
            # writes the public index.
            side = self._queue_beside(path / ALL, changes, writable, texts, prepared, report, started_side)
        # The public index commits first (or beside the agent index): a document leaving
        # it stops reaching customer_safe as early as possible (CONTRACT X7).
        for sub in (PUBLIC,) if side is not None else (PUBLIC, ALL):
            subset = changes if sub == ALL else {p: item for p, item in changes.items() if p in public_changes}
            if not subset:
                # Nothing public changed: the public index is not committed, so its
                # generation (and the answer cache keyed by it) stays as it was — an edit
                # to internal text is invisible to customer_safe, latency included.
                continue
            try:
                writer: IndexWriter = writer_for(open_for_update(path / sub), timeout=10.0, limitmb=WRITER_MB)
            except BaseException:
                if side is not None:
                    side.cancel()
                raise
            try:
                self._replace(writer, sub, subset, writable, texts, prepared, report)
            except BaseException:
                writer.cancel()
                if side is not None:
                    side.cancel()
                raise
        if side is not None:
            started = time.monotonic()
            report.side_writer_cpu_s = side.commit()[1]
            took(report, WAIT_FOR_AGENT_INDEX, started)

    def _replace(self, writer: IndexWriter, sub: str, subset: Mapping[str, Resolved | None],
                 writable: Mapping[str, Resolved], texts: Mapping[str, WikiDocument],
                 prepared: Mapping[str, bytes], report: SyncReport) -> None:
        """Replace the entries of ``subset`` in one index (``sub``) and commit."""
        once = AnalysedOnce()
        once.attach(writer)
        for relpath, item in sorted(subset.items()):
            # A document is its entries (one, or one per chunk): replace them all.
            writer.delete_by_term("path", relpath)
            if item is not None and relpath in writable and (sub == ALL or item.public):
                units = self._use(once, prepared.get(relpath))
                for entry in self._entries(item, texts[relpath], report, public_view=sub == PUBLIC, units=units):
                    writer.add_document(**entry)
                once.clear()
                report.written += sub == ALL
            else:
                report.removed += sub == ALL
        once.detach(writer)
        writer.commit()

    def _queue_beside(
        self, folder: Path, changes: Mapping[str, Resolved | None], writable: Mapping[str, Resolved],
        texts: Mapping[str, WikiDocument], prepared: Mapping[str, bytes], report: SyncReport,
        side: SideWriter | None = None,
    ) -> SideWriter:
        """Queue a batch's changes to the agent index at ``folder`` for a
        :class:`SideWriter` (``side``, or a new one; deletions and additions in the order
        the in-process writer makes them); the caller commits it."""
        if side is None:
            side = SideWriter(folder, limitmb=WRITER_MB, languages=self.languages,
                              chunking=self.settings.chunking, public_view=False)
        try:
            for relpath, item in sorted(changes.items()):
                side.delete(relpath)
                if item is not None and relpath in writable:
                    made = prepared.get(relpath)
                    found = load_prepared(made, self.languages)
                    doc, url, warnings = entry_header(self.settings, item, public_view=False)
                    warn(report, relpath, warnings)
                    if found is None or False not in found[0]:
                        side.add(None, text_units(self.settings, self.languages, texts[relpath], public_view=False),
                                 doc, url)
                    else:
                        side.add(made, None, doc, url)
                    report.written += 1
                else:
                    report.removed += 1
        except BaseException:
            side.cancel()
            raise
        return side
