"""Building and updating the two indexes from the wiki (the only Whoosh writer).

One pass (:meth:`Indexer.sync`) works the same for a full scan and for a batch of
changed paths: look at each path *now* (present → read, absent → removed), bring the
corpus-wide rules up to date (:class:`~provider.wiki.incremental.CorpusRules`, kept with
the manifest: it derives again every decision the batch can affect, and the whole corpus
after a start or when unsure), and write exactly the documents whose indexed form
changed. The ``public`` index receives only public, servable documents (CONTRACT X2); the
``all`` index every servable document. The decisions equal those of a resolve of the
whole corpus, so the result equals a fresh build of the folder.
"""

from __future__ import annotations

import bisect
import datetime as dt
import gc
import hashlib
import json
import logging
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.filedb.filestore import FileStorage
from whoosh.index import Index
from whoosh.writing import IndexWriter

from ..wiki.citations import builds_url, document_url, url_inputs, with_anchor
from ..wiki.classify import PUBLIC as PUBLIC_AUDIENCE
from ..wiki.corpus import Resolved, public_part
from ..wiki.document import WikiDocument, WikiSettings, git_blob_sha1
from ..wiki.files import Discovery, FileRef, Skipped, discover, ignore_reason, is_ignored_path
from ..wiki.gitblobs import GitBlobs
from ..wiki.quickcheck import may_have_left_public
from ..wiki.reader import DEFAULT_PARSE_TIMEOUT_S, DocumentReader, ReaderClosed
from ..wiki.site_gate import SiteSource
from ..wiki.sites import load_site_policy, site_digest
from .analysis import cjk_mode, schema_languages
from .layout import ALL, PUBLIC, IndexLayout
from .manifest import Manifest
from .prepared import AnalysedOnce, Unit, prepare, text_units
from .prepared import load as load_prepared
from .schema import SCHEMA_VERSION, build_schema
from .sidewriter import SideWriter
from .writer import writer_for

__all__ = ["Indexer", "PendingBuild", "SyncReport", "index_entries", "settings_key"]

log = logging.getLogger(__name__)

#: ``progress(done, total)`` — called while files are read during a sync.
Progress = Callable[[int, int], None]
#: Returns the current time, aware (UTC): publication dates are compared with it.
Clock = Callable[[], dt.datetime]


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


#: Memory of each Whoosh writer's posting pool before it spills a sorted run to disk
#: (megabytes): a 10,000-document build fits in one run per index.
_WRITER_MB = 256


#: Served documents from which a cold build writes the public index in a second process
#: (below, starting the process costs more than it saves).
_SIDE_WRITER_MIN_DOCS = 500
#: Changed documents from which a batch writes the agent index in a second process.
_SIDE_WRITER_MIN_BATCH = 100

#: The step of a batch's timings in which this process waits for the agent index's writer
#: process after committing the public index.
_WAIT_FOR_AGENT_INDEX = "wait for the agent index (second process)"

#: Batches written between two full collections (see :meth:`Indexer._write`).
_FULL_COLLECTION_EVERY = 16
#: Documents from which a pass that derived the whole corpus freezes the heap
#: (:func:`settle_heap`): below, a full collection is short (~0.1 s at 1,000 documents)
#: and the freeze's own collection not worth it.
_FREEZE_MIN_DOCS = 1000


def settle_heap() -> None:
    """Collect, then move every object the collector tracks out of its sight (``gc.freeze``).

    Called after a pass that derived the whole corpus (a build, the first sync after a
    start): the manifest, the kept decisions and the near-copy graph are then most of the
    heap (millions of objects at 50,000 documents) and live until the next such pass. The
    collector's full passes walked them all: 1.5–2.3 s each at 50,000 documents, run on
    its own every ~9th one-file update (and by :meth:`Indexer._write` every
    :data:`_FULL_COLLECTION_EVERY`-th), which made the update's p95. Frozen objects are still
    freed by reference counting; only a reference cycle among them outlives its use, until
    the next call here unfreezes and collects everything first.
    """
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def _open_for_update(folder: Path) -> Index:
    """The Whoosh index in ``folder``, opened for a writer that updates it in place.

    Without memory maps: through one, Whoosh's compound segment hands each sub-file it
    opens to a ``BufferFile``, which copies it whole into a ``BytesIO``. The writer's
    first ``delete_by_term`` opens every segment's term files, so a one-file update at
    50,000 documents copied the large segment's (~120 ms of its ~200 ms write in a
    profile). Read through the file instead, a deletion reads the few blocks of one term.
    """
    return FileStorage(str(folder), supports_mmap=False).open_index()


def _below(ordered: list[str], prefix: str) -> list[str]:
    """The paths of the sorted list ``ordered`` that start with ``prefix``."""
    start = bisect.bisect_left(ordered, prefix)
    end = start
    while end < len(ordered) and ordered[end].startswith(prefix):
        end += 1
    return ordered[start:end]


def _took(report: SyncReport, step: str, started: float) -> None:
    report.timings[step] = report.timings.get(step, 0.0) + time.monotonic() - started


class _InThread:
    """``function(*args)`` run in a thread at once; :meth:`result` waits for it and
    returns what it returned, or raises what it raised."""

    def __init__(self, function: Callable[..., set[str]], *args: Any) -> None:
        self._result: set[str] = set()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(function, args), name="withdraw-early", daemon=True)
        self._thread.start()

    def _run(self, function: Callable[..., set[str]], args: tuple[Any, ...]) -> None:
        try:
            self._result = function(*args)
        except BaseException as exc:  # raised in the caller by result()
            self._error = exc

    def result(self) -> set[str]:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._result


@dataclass
class SyncReport:
    """What one sync did and what the index now holds.

    Attributes:
        build: the name of the build served after the sync.
        rebuilt: whether a new build was made aside and swapped in.
        read: files read and parsed in this pass.
        written: documents added or replaced in either index.
        removed: documents removed from either index.
        duration_s: wall time of the pass, in seconds.
        skipped: every file not indexed, with the reason.
        warnings: per file, the problems found in it (every indexed file, read in this pass
            or before).
        problems: per file, corpus-level problems (e.g. a duplicate documentId).
        by_audience: servable documents per effective audience.
        by_locale: servable documents per locale.
        drafts: documents not served: drafts and every other withheld document.
        withheld_by: the same by kind of reason (:mod:`provider.wiki.reasons`).
        quarantined: files on which the provider failed closed because of an error in
            them or in what they depend on (see ``knowledge-provider check``).
        generation: the build's commit counter after the sync.
        last_scan: Unix time of the last completed full scan.
        timings: wall time of each step of the pass, in seconds (printed by
            ``bench/build.py``).
        side_writer_cpu_s: CPU seconds of the process that wrote the public index of a
            cold build, or the agent index of a large batch, beside this one (0.0:
            written in this process).
    """

    build: str = ""
    rebuilt: bool = False
    read: int = 0
    written: int = 0
    removed: int = 0
    duration_s: float = 0.0
    skipped: list[Skipped] = field(default_factory=list)
    warnings: dict[str, list[str]] = field(default_factory=dict)
    problems: dict[str, list[str]] = field(default_factory=dict)
    by_audience: Counter[str] = field(default_factory=Counter)
    by_locale: Counter[str] = field(default_factory=Counter)
    drafts: int = 0
    withheld_by: Counter[str] = field(default_factory=Counter)
    quarantined: list[str] = field(default_factory=list)
    generation: int = 0
    last_scan: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)
    side_writer_cpu_s: float = 0.0

    @property
    def changed(self) -> bool:
        return bool(self.written or self.removed or self.rebuilt)


def settings_key(settings: WikiSettings) -> str:
    """A digest of every setting that changes how files are classified or indexed (the
    analysis languages, chunking and citation URLs included) and of the schema version.
    A build made with another key is rebuilt aside."""
    data = {**settings.describe(), "schema": SCHEMA_VERSION, "languages": schema_languages(settings.known_locales),
            "cjk": cjk_mode()}
    data.pop("root", None)
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


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
    :func:`~provider.search.prepared.text_units` when already made (in a reader process).
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
        "sync": resolved.public_sync if public_view else resolved.sync,
    }
    return doc, url, [warning] if warning else []


def url_warnings_of(settings: WikiSettings, resolved: Resolved) -> tuple[str, ...]:
    """The citation-URL warning :func:`entry_header` gives a document in the views it is
    written to (one URL for both: the agent view differs only for documents not public),
    or ``()``. Free when no URL can be built (no base URL for its audience, no absolute
    front matter ``url``); else one URL built (~40 µs)."""
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
        entries.append({**unit.fields, "group": doc["group"] or "",
                        "doc": (dict(doc, chunk=unit.chunk_id, url=with_anchor(url, unit.anchor)) if chunking
                                else dict(doc, chunk=None, url=url))})
    return entries


@dataclass
class PendingBuild:
    """A complete build written aside by :meth:`Indexer.build_aside`, not served yet.

    Attributes:
        name: its folder under ``builds/``.
        manifest: what it holds.
        resolved: the corpus-wide decisions it was written with (a view of its
            manifest's kept rules: it follows them when :meth:`Indexer.adopt` updates it).
        report: what building it did (completed by :meth:`Indexer.adopt`).
    """

    name: str
    manifest: Manifest
    resolved: Mapping[str, Resolved]
    report: SyncReport


class Indexer:
    """Keeps ``index/`` equal to the wiki. Holds the writer lock while it lives.

    Args:
        settings: how to read the wiki.
        layout: the index folder.
        clock: the current time (publication dates are compared with it at each sync).

    Raises:
        WriterLockHeld: (from :meth:`open`) another process is writing this index.
    """

    def __init__(self, settings: WikiSettings, layout: IndexLayout, *, clock: Clock = utc_now,
                 parse_timeout_s: float = DEFAULT_PARSE_TIMEOUT_S) -> None:
        self.settings = settings
        self.layout = layout
        self._clock = clock
        # Files are read in worker processes, each within a time limit: one pathological
        # file cannot hold up the batch that reclassifies another (X7).
        self.reader = DocumentReader(settings, timeout_s=parse_timeout_s, prepare=prepare)
        self._key = settings_key(settings)
        self._languages = schema_languages(settings.known_locales)
        self._blobs = GitBlobs(settings.root)
        self._manifest: Manifest | None = None
        self._build: str | None = None
        self._generation = 0
        #: Readers of builds made aside in another thread (closed by :meth:`close`).
        self._aside_readers: list[DocumentReader] = []
        self._writes = 0
        self._closed = False
        #: The site's sitemap when one is configured (:mod:`provider.wiki.site_gate`).
        self.site: SiteSource | None = None
        if settings.sitemap:
            self.site = SiteSource(settings.sitemap, state_file=layout.root / "state" / "sitemap.json",
                                   refresh_s=settings.sitemap_refresh_s)

    def open(self) -> None:
        """Take the writer lock, read the sitemap if one is configured (the last good
        one kept holds if it cannot be read), and load the current build's manifest, if any."""
        self.layout.lock.acquire()
        self._closed = False
        if self.site is not None:
            self.site.load_kept()
            self.site.refresh()
        name = self.layout.current_name()
        if name is None:
            return
        manifest = Manifest.load(self.layout.build_dir(name) / "manifest.json")
        self._generation = manifest.generation if manifest is not None else 0
        # Another schema, analysis languages, chunking, citation or classification settings:
        # the next sync builds afresh aside, while the old build keeps serving.
        if manifest is not None and manifest.schema_version == SCHEMA_VERSION and manifest.settings_key == self._key:
            self._manifest, self._build = manifest, name

    def close(self) -> None:
        """Stop the reader processes and release the writer lock."""
        self._closed = True
        for reader in list(self._aside_readers):
            reader.close()
        self.reader.close()
        self.layout.lock.release()

    def __enter__(self) -> Indexer:
        self.open()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def manifest(self) -> Manifest | None:
        return self._manifest

    # -- public operations -------------------------------------------------------------

    def sync(
        self, paths: Iterable[str] | None = None, *, rebuild: bool = False, progress: Progress | None = None
    ) -> SyncReport:
        """Bring the index up to date.

        Args:
            paths: relative paths that may have changed (a watcher batch); ``None`` scans
                the whole content folder.
            rebuild: build everything aside and swap it in, even if a build exists.
            progress: called as files are read.

        Returns:
            What was done and what is now served.
        """
        started = time.monotonic()
        report = SyncReport()
        if rebuild or self._manifest is None or self._build is None:
            self._full_build(report, progress)
        else:
            self._update(report, paths, progress)
        if (self._manifest is not None and self._manifest.rules.last_full
                and len(self._manifest.docs) >= _FREEZE_MIN_DOCS):
            settled = time.monotonic()
            settle_heap()
            _took(report, "settle the heap (gc.freeze)", settled)
        report.duration_s = time.monotonic() - started
        return report

    def refresh_sitemap(self) -> bool:
        """Read the configured sitemap again if it is due (its refresh time came, or its
        file changed). Returns whether the set of published URLs changed: the caller then
        syncs (``sync([])``), which derives every decision again. Never raises; slow for
        an https sitemap, so call it outside the lock that serialises syncs."""
        return self.site is not None and self.site.due() and self.site.refresh()

    # -- internals -----------------------------------------------------------------------

    def _read(
        self, relpaths: Iterable[str], report: SyncReport, progress: Progress | None, total: int,
        reader: DocumentReader | None = None, prepared: dict[str, bytes] | None = None,
    ) -> tuple[dict[str, WikiDocument], dict[str, str], list[str]]:
        """Read files in the reader processes: ``(documents, skipped with the reason,
        gone)``; what the readers prepared for the index goes into ``prepared``."""
        started = time.monotonic()
        loaded: dict[str, WikiDocument] = {}
        skipped: dict[str, str] = {}
        gone: list[str] = []
        for done, (relpath, result, made) in enumerate((reader or self.reader).read_prepared(relpaths), start=1):
            if isinstance(result, WikiDocument):
                loaded[relpath] = result
                if made is not None and prepared is not None:
                    prepared[relpath] = made
                if result.meta.warnings:
                    report.warnings[relpath] = list(result.meta.warnings)
            elif isinstance(result, Skipped):
                skipped[relpath] = result.reason
            else:
                gone.append(relpath)
            report.read += 1
            if progress is not None:
                progress(done, total)
        _took(report, "read and prepare (reader processes)", started)
        return loaded, skipped, gone

    def _full_build(self, report: SyncReport, progress: Progress | None) -> None:
        pending = self._build_aside(report, progress, self.reader)
        self._publish(pending)
        self._summarize(report)

    def build_aside(self, progress: Progress | None = None) -> PendingBuild:
        """Build the whole index into a new build folder that is **not** served yet.

        Safe to call from a second thread while the current build keeps being served and
        updated by :meth:`sync` (``serve --rebuild``): it reads the files with reader
        processes of its own and touches nothing the current build uses. Pass the result
        to :meth:`adopt`.

        Raises:
            ReaderClosed: :meth:`close` was called meanwhile (shutting down).
        """
        if self._closed:
            raise ReaderClosed("the indexer is closed (shutting down)")
        reader = DocumentReader(self.settings, timeout_s=self.reader.timeout_s, prepare=prepare)
        self._aside_readers.append(reader)
        try:
            report = SyncReport()
            started = time.monotonic()
            pending = self._build_aside(report, progress, reader)
            report.duration_s = time.monotonic() - started
            return pending
        finally:
            reader.close()
            self._aside_readers.remove(reader)

    def adopt(self, pending: PendingBuild) -> SyncReport:
        """Bring a build made by :meth:`build_aside` up to date with the folder as it is
        now (files changed while it was built are read again: a reclassification seen by
        the current build meanwhile is not undone), then swap it in atomically.

        Not concurrent with :meth:`sync`: the caller serialises the two. If the catch-up
        fails, the current build stays served and the pending one is dropped.
        """
        report = pending.report
        started = time.monotonic()
        served = self._manifest, self._build
        # Generations only grow, also across a build made while the old one kept changing.
        pending.manifest.generation = max(pending.manifest.generation, self._generation_now() + 1)
        self._manifest, self._build = pending.manifest, pending.name
        try:
            self._update(report, None, None)
        except BaseException:
            self._manifest, self._build = served
            raise
        self.layout.publish(pending.name)
        self._keep_builds(pending.name, served[1])
        report.rebuilt = True
        if pending.manifest.rules.last_full and len(pending.manifest.docs) >= _FREEZE_MIN_DOCS:
            settle_heap()  # the new build's state is now the long-lived heap
        report.duration_s += time.monotonic() - started
        return report

    def _generation_now(self) -> int:
        return max(self._manifest.generation if self._manifest else 0, self._generation)

    def _build_aside(self, report: SyncReport, progress: Progress | None, reader: DocumentReader) -> PendingBuild:
        started = time.monotonic()
        found = self._discover()
        _took(report, "discover", started)
        prepared: dict[str, bytes] = {}
        loaded, skipped, _ = self._read(sorted(found.files), report, progress, len(found.files), reader, prepared)
        skipped.update({s.relpath: s.reason for s in found.skipped})
        manifest = Manifest(schema_version=SCHEMA_VERSION, settings_key=self._key)
        # The counter carries on across builds, so it only ever grows.
        manifest.generation = self._generation_now() + 1
        manifest.docs = {relpath: doc.meta for relpath, doc in loaded.items()}
        manifest.skipped = skipped
        started = time.monotonic()
        resolved, _ = self._resolve(manifest)
        _took(report, "corpus rules", started)

        started = time.monotonic()
        name, path = self.layout.new_build()
        schema = build_schema(self._languages)
        for sub in (PUBLIC, ALL):
            (path / sub).mkdir()
            whoosh_index.create_in(str(path / sub), schema)
        served = [item for item in resolved.values() if item.served]
        side: SideWriter | None = None
        if len(served) >= _SIDE_WRITER_MIN_DOCS and (os.cpu_count() or 1) > 1:
            # The public index is written by a second process meanwhile (two CPUs busy).
            side = SideWriter(path / PUBLIC, limitmb=_WRITER_MB, languages=self._languages,
                              chunking=self.settings.chunking)
            public_writer = None
        else:
            public_writer = writer_for(whoosh_index.open_dir(str(path / PUBLIC)), limitmb=_WRITER_MB)
        all_writer = writer_for(whoosh_index.open_dir(str(path / ALL)), limitmb=_WRITER_MB)
        once = AnalysedOnce()
        if public_writer is not None:
            once.attach(public_writer)
        once.attach(all_writer)
        try:
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
                        self._warn(report, relpath, warnings)
                        public_units = (units or {}).get(True)
                        if public_units is None:
                            side.add(None, text_units(self.settings, self._languages, loaded[relpath],
                                                      public_view=True), doc, url)
                        else:
                            side.add(made, None, doc, url)
                    elif item.public and public_writer is not None:
                        for entry in self._entries(item, loaded[relpath], report, public_view=True, units=units):
                            public_writer.add_document(**entry)
                    once.clear()
                manifest.fingerprints[relpath] = item.fingerprint()
            _took(report, "add documents (Whoosh pools)", started)
            started = time.monotonic()
            once.detach(all_writer)
            if public_writer is not None:
                once.detach(public_writer)
                public_writer.commit()
            all_writer.commit()
            _took(report, "commit (Whoosh)", started)
            # Saved while the second process may still be writing (the build folder is
            # published only after it committed, so a failure there publishes nothing).
            started = time.monotonic()
            manifest.last_scan = time.time()
            manifest.save(path / "manifest.json")
            _took(report, "save the manifest", started)
            if side is not None:
                started = time.monotonic()
                report.side_writer_cpu_s = side.commit()[1]
                _took(report, "wait for the public index (second process)", started)
        except BaseException:
            if side is not None:
                side.cancel()
            if public_writer is not None:
                public_writer.cancel()
            all_writer.cancel()
            raise
        return PendingBuild(name=name, manifest=manifest, resolved=resolved, report=report)

    def _publish(self, pending: PendingBuild) -> None:
        previous = self.layout.current_name()
        self.layout.publish(pending.name)
        self._keep_builds(pending.name, previous)
        self._manifest, self._build = pending.manifest, pending.name
        pending.report.build, pending.report.rebuilt = pending.name, True

    def _keep_builds(self, name: str, previous: str | None) -> None:
        # The build just replaced stays on disk until the next rebuild: a search that
        # looked up the served build a moment before the swap still finds its files.
        self.layout.remove_other_builds(keep={name} if previous is None else {name, previous})

    def _update(self, report: SyncReport, paths: Iterable[str] | None, progress: Progress | None) -> None:
        manifest, build = self._manifest, self._build
        if manifest is None or build is None:
            raise RuntimeError("no build to update")
        discovered_skips: dict[str, str] = {}
        vanished: set[str] = set()
        if paths is None:
            found = self._discover()
            to_read = {
                relpath for relpath, ref in found.files.items()
                if not self._unchanged(manifest, relpath, ref)
            }
            vanished = (set(manifest.docs) | set(manifest.skipped)) - set(found.files)
            discovered_skips = {s.relpath: s.reason for s in found.skipped}
        else:
            to_read = self._expand(paths, manifest)
        side = self._early_side_writer(build, len(to_read))
        try:
            self._update_with(report, paths, progress, manifest, build, to_read, vanished, discovered_skips, side)
        finally:
            if side is not None:
                side.cancel()  # nothing to write, or a failure: a committed one ignores this

    def _early_side_writer(self, build: str, batch: int) -> SideWriter | None:
        """For a large batch, the agent index's :class:`SideWriter`, started before the
        batch is read: its process starts and opens the index (~0.1–0.6 s of CPU) while
        the reader processes work, not when the agent index's entries are ready. It only
        ever receives what :meth:`_write` sends it after the corpus rules."""
        if batch < _SIDE_WRITER_MIN_BATCH or (os.cpu_count() or 1) < 2:
            return None
        return SideWriter(self.layout.build_dir(build) / ALL, limitmb=_WRITER_MB, languages=self._languages,
                          chunking=self.settings.chunking, public_view=False)

    def _update_with(
        self, report: SyncReport, paths: Iterable[str] | None, progress: Progress | None, manifest: Manifest,
        build: str, to_read: set[str], vanished: set[str], discovered_skips: dict[str, str],
        side: SideWriter | None,
    ) -> None:
        prepared: dict[str, bytes] = {}
        if side is None:
            started = time.monotonic()
            withdrawn = self._withdraw_early(manifest, build, to_read | vanished)
            _took(report, "withdraw early (public index)", started)
            loaded, skipped, gone = self._read(sorted(to_read), report, progress, len(to_read), prepared=prepared)
        else:
            # A large batch: the withdrawal (~0.5 ms a public file, one commit) runs in a
            # thread while the reader processes start on the batch, instead of before
            # them; it still commits long before the batch can (after every file is read).
            withdrawing = _InThread(self._withdraw_early, manifest, build, to_read | vanished)
            try:
                loaded, skipped, gone = self._read(sorted(to_read), report, progress, len(to_read),
                                                   prepared=prepared)
            finally:
                withdrawn = withdrawing.result()

        for relpath in vanished | set(gone):
            manifest.docs.pop(relpath, None)
            manifest.skipped.pop(relpath, None)
        for relpath, reason in {**discovered_skips, **skipped}.items():
            manifest.docs.pop(relpath, None)
            manifest.skipped[relpath] = reason
        for relpath, doc in loaded.items():
            manifest.skipped.pop(relpath, None)
            manifest.docs[relpath] = doc.meta
        manifest.settings_key = self._key

        started = time.monotonic()
        resolved, touched = self._resolve(manifest)
        _took(report, "corpus rules", started)
        started = time.monotonic()
        # Only the decisions the rules re-derived can differ from what was written (after
        # a whole derivation: every path, and every path written before).
        if manifest.rules.last_full:
            touched |= manifest.fingerprints.keys()
        fingerprints = {relpath: resolved[relpath].fingerprint() if relpath in resolved else None
                        for relpath in touched}
        changes = {relpath: resolved.get(relpath) for relpath, fingerprint in fingerprints.items()
                   if manifest.fingerprints.get(relpath) != fingerprint}
        public_changes = {relpath for relpath in changes
                          if public_part(manifest.fingerprints.get(relpath)) != public_part(fingerprints[relpath])}
        for relpath in withdrawn:
            # Taken out ahead of the batch: written again (or left out) as it now is.
            if relpath not in changes:
                changes[relpath] = resolved.get(relpath)
            public_changes.add(relpath)
        _took(report, "fingerprints", started)
        started = time.monotonic()
        waited = report.timings.get(_WAIT_FOR_AGENT_INDEX, 0.0)
        try:
            self._write(build, changes, loaded, report, public_changes, prepared, side)
        except BaseException:
            # The rules moved on but the index did not: the next batch derives and
            # compares everything again (fail closed), not only what it changes.
            manifest.rules.invalidate()
            raise
        # Without the time this process only waited for the agent index's writer (its own step).
        _took(report, "write and commit (Whoosh)", started + report.timings.get(_WAIT_FOR_AGENT_INDEX, 0.0) - waited)
        if changes:
            manifest.generation += 1
        for relpath, fingerprint in fingerprints.items():
            if fingerprint is None:
                manifest.fingerprints.pop(relpath, None)
            else:
                manifest.fingerprints[relpath] = fingerprint
        if paths is None:
            manifest.last_scan = time.time()
        started = time.monotonic()
        manifest.save(self.layout.build_dir(build) / "manifest.json")
        _took(report, "save the manifest", started)
        report.build = build
        started = time.monotonic()
        self._summarize(report)
        _took(report, "summary", started)

    def _withdraw_early(self, manifest: Manifest, build: str, relpaths: set[str]) -> set[str]:
        """X7: before the batch's slow reading, take out of the public index every file
        of the batch that is in it and whose header says it may have left it
        (:func:`provider.wiki.quickcheck.may_have_left_public`) — and, for a section page,
        every public page below it. Forgetting their fingerprints makes the batch's
        batch's commit put back those that are still public. Returns what was withdrawn."""
        fingerprints = manifest.fingerprints
        now = self._clock()
        withdraw: set[str] = set()
        for relpath in relpaths:
            public = bool(public_part(fingerprints.get(relpath)))
            if not public and not self._is_section(relpath):
                continue
            if may_have_left_public(self.settings, relpath, now, manifest.docs.get(relpath)):
                if public:
                    withdraw.add(relpath)
                if self._is_section(relpath):
                    # Only here is every public page looked at (a section's subtree).
                    folder = relpath.rpartition("/")[0]
                    withdraw.update(p for p, fp in fingerprints.items()
                                    if (not folder or p.startswith(folder + "/")) and public_part(fp))
        if not withdraw:
            return withdraw
        writer: IndexWriter = _open_for_update(self.layout.build_dir(build) / PUBLIC).writer(timeout=10.0)
        try:
            for relpath in sorted(withdraw):
                writer.delete_by_term("path", relpath)
            writer.commit()
        except BaseException:
            writer.cancel()
            raise
        log.info("withdrew %d document(s) from the public index ahead of reading them", len(withdraw))
        return withdraw

    def _is_section(self, relpath: str) -> bool:
        names = self.settings.preset.section_names
        return bool(names) and relpath.rsplit("/", 1)[-1].split(".", 1)[0].lower() in names

    def _expand(self, paths: Iterable[str], manifest: Manifest) -> set[str]:
        """Turn changed paths into the wiki files to look at: a folder that appeared
        brings its files, a folder that vanished takes its known files with it."""
        wanted: set[str] = set()
        docs, skipped = manifest.docs, manifest.skipped
        # Looked up per path by bisection: a 500-file batch scanned every known path 1,000
        # times. Sorted only when a path is not a known file (a folder, a new file): a
        # one-file edit does not sort the corpus.
        ordered: list[str] | None = None
        linked = manifest.rules.symlinked()
        if linked is None:  # the rules have not run over these documents yet
            linked = sorted((meta.real_relpath, p) for p, meta in docs.items() if meta.real_relpath is not None)
        for relpath in paths:
            relpath = relpath.strip("/")
            if not relpath or relpath.startswith("../"):
                continue
            prefix = relpath + "/"
            known = relpath in docs or relpath in skipped
            if not known:  # a known file is no folder: nothing is below it
                if ordered is None:
                    ordered = sorted(docs.keys() | skipped.keys())
                wanted.update(_below(ordered, prefix))
            # Files reached through a symlink change when their target does, but the
            # event names only the target.
            if linked:
                wanted.update(p for real, p in linked if real == relpath or real.startswith(prefix))
            folder = self.settings.root / relpath
            ignore = self.settings.preset.ignore
            if folder.is_dir():
                found = discover(folder, extensions=self.settings.file_extensions,
                                 max_file_bytes=self.settings.max_file_bytes)
                wanted.update(prefix + p for p in found.files if ignore_reason(prefix + p, ignore) is None)
            elif known or not (is_ignored_path(relpath, self.settings.file_extensions)
                                          or ignore_reason(relpath, ignore) is not None):
                wanted.add(relpath)
        return wanted

    def _discover(self) -> Discovery:
        # Once per scan: look at the docs tool's configuration files now (logging what
        # cannot be read); :meth:`_unchanged` then compares each page's view of it.
        policy = load_site_policy(self.settings.root, self.settings.layout, log_findings=True)
        return discover(self.settings.root, extensions=self.settings.file_extensions,
                        max_file_bytes=self.settings.max_file_bytes, ignore=self.settings.preset.ignore,
                        exclude=policy.excluded_reason)

    def _resolve(self, manifest: Manifest) -> tuple[Mapping[str, Resolved], set[str]]:
        """The corpus rules over the manifest's documents, and the paths whose decision
        may have changed since the last call (:class:`~provider.wiki.incremental.CorpusRules`)."""
        resolved, touched = manifest.rules.resolve(
            manifest.docs, default_locale=self.settings.default_locale, now=self._clock(), blobs=self._blobs,
            layout=self.settings.preset, changed=manifest.changed_docs(),
            gate=self.site.gate(self.settings) if self.site is not None else None)
        # Kept with the decisions, so a sync that writes nothing (a restart over a kept
        # index) reports a citation URL failing R7 as the sync that wrote it did.
        url_warnings = manifest.rules.tally.url_warnings
        for relpath in touched:
            item = resolved.get(relpath)
            found = url_warnings_of(self.settings, item) if item is not None else ()
            if found:
                url_warnings[relpath] = found
            else:
                url_warnings.pop(relpath, None)
        return resolved, touched

    def _use(self, once: AnalysedOnce, made: bytes | None) -> dict[bool, tuple[Unit, ...]] | None:
        """Hand what a reader process prepared to the writers: its postings to ``once``;
        returns its units by view (``None``: nothing usable, analyse here)."""
        found = load_prepared(made, self._languages)
        if found is None:
            return None
        units, postings = found
        once.postings.update(postings)
        return units

    def _entries(
        self, item: Resolved, document: WikiDocument, report: SyncReport, *, public_view: bool,
        units: dict[bool, tuple[Unit, ...]] | None = None,
    ) -> list[dict[str, Any]]:
        entries, warnings = index_entries(self.settings, self._languages, item, document, public_view=public_view,
                                          units=(units or {}).get(public_view))
        self._warn(report, item.meta.relpath, warnings)
        return entries

    @staticmethod
    def _warn(report: SyncReport, relpath: str, warnings: list[str]) -> None:
        if warnings:
            known = report.warnings.setdefault(relpath, [])
            known.extend(w for w in warnings if w not in known)

    def _unchanged(self, manifest: Manifest, relpath: str, ref: FileRef) -> bool:
        """Whether a file is what the manifest says, without parsing it.

        Size, mtime, ctime and inode all equal: unchanged. Otherwise the bytes are hashed
        (cheap next to parsing) and compared with the recorded revision — an edit that
        restores the mtime (``touch -d``, ``rsync -a``, archives) is still seen, while a
        fresh copy of unchanged files is not re-parsed.
        """
        meta = manifest.docs.get(relpath)
        if meta is None or meta.real_relpath != ref.real_relpath:
            return False
        if meta.site_policy != site_digest(self.settings.root, self.settings.layout, relpath,
                                           real_relpath=ref.real_relpath):
            return False  # its docs tool's configuration changed: read it again
        stamp = (ref.size, ref.mtime_ns, ref.ctime_ns, ref.inode)
        if (meta.size, meta.mtime_ns, meta.ctime_ns, meta.inode) == stamp:
            return True
        if meta.size != ref.size:
            return False
        try:
            data = (self.settings.root / relpath).read_bytes()
        except OSError:
            return False
        if git_blob_sha1(data) != meta.revision:
            return False
        manifest.docs[relpath] = replace(meta, mtime_ns=ref.mtime_ns, ctime_ns=ref.ctime_ns, inode=ref.inode)
        return True

    def _write(
        self, build: str, changes: dict[str, Resolved | None], loaded: dict[str, WikiDocument], report: SyncReport,
        public_changes: set[str] | None = None, prepared: dict[str, bytes] | None = None,
        started_side: SideWriter | None = None,
    ) -> None:
        """Write ``changes`` to the agent index, and those in ``public_changes`` (default:
        all) to the public index. ``started_side``: a :class:`SideWriter` on the agent
        index started earlier (see :meth:`_early_side_writer`): it writes the agent index
        whatever the batch's size; the caller cancels it when nothing was written."""
        if public_changes is None:
            public_changes = set(changes)
        if not changes:
            return
        path = self.layout.build_dir(build)
        texts = dict(loaded)
        prepared = dict(prepared or {})
        # Reclassified by a corpus rule without changing itself: read its text again.
        unread = [p for p, item in changes.items() if item is not None and item.served and p not in texts]
        for relpath, again, made in self.reader.read_prepared(unread):
            item = changes[relpath]
            if isinstance(again, WikiDocument) and item is not None and again.meta.revision == item.meta.revision:
                texts[relpath] = again
                if made is not None:
                    prepared[relpath] = made
        writable = {
            relpath: item for relpath, item in changes.items()
            if item is not None and item.served and relpath in texts
        }
        side = None
        if started_side is not None or (len(changes) >= _SIDE_WRITER_MIN_BATCH and (os.cpu_count() or 1) > 1):
            # A large batch: the agent index is written by a second process while this one
            # writes the public index.
            side = self._write_beside(path / ALL, changes, writable, texts, prepared, report, started_side)
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
                writer: IndexWriter = writer_for(_open_for_update(path / sub), timeout=10.0,
                                                 limitmb=_WRITER_MB)
            except BaseException:
                if side is not None:
                    side.cancel()
                raise
            once = AnalysedOnce()
            once.attach(writer)
            try:
                for relpath, item in sorted(subset.items()):
                    # A document is its entries (one, or one per chunk): replace them all.
                    writer.delete_by_term("path", relpath)
                    if item is not None and relpath in writable and (sub == ALL or item.public):
                        units = self._use(once, prepared.get(relpath))
                        for entry in self._entries(item, texts[relpath], report, public_view=sub == PUBLIC,
                                                   units=units):
                            writer.add_document(**entry)
                        once.clear()
                        report.written += sub == ALL
                    else:
                        report.removed += sub == ALL
                once.detach(writer)
                writer.commit()
            except BaseException:
                writer.cancel()
                if side is not None:
                    side.cancel()
                raise
        if side is not None:
            started = time.monotonic()
            report.side_writer_cpu_s = side.commit()[1]
            _took(report, _WAIT_FOR_AGENT_INDEX, started)
        # Whoosh leaves the readers it used for deletions and merges in reference cycles
        # that hold memory maps of segment files a merge just deleted; without a
        # collection those descriptors pile up until the collector happens to run. They
        # are young: the two younger generations hold them, and a pass over those is
        # cheap, where a full pass over the heap took 0.3 s at 2,000 documents; every
        # 16th batch collects everything, for any that grew old.
        self._writes += 1
        gc.collect(2 if self._writes % _FULL_COLLECTION_EVERY == 0 else 1)

    def _write_beside(
        self, folder: Path, changes: dict[str, Resolved | None], writable: dict[str, Resolved],
        texts: dict[str, WikiDocument], prepared: dict[str, bytes], report: SyncReport,
        side: SideWriter | None = None,
    ) -> SideWriter:
        """Queue a batch's changes to the agent index at ``folder`` for a
        :class:`SideWriter` (``side``, or a new one; deletions and additions in the order
        the in-process writer makes them); the caller commits it."""
        if side is None:
            side = SideWriter(folder, limitmb=_WRITER_MB, languages=self._languages,
                              chunking=self.settings.chunking, public_view=False)
        try:
            for relpath, item in sorted(changes.items()):
                side.delete(relpath)
                if item is not None and relpath in writable:
                    made = prepared.get(relpath)
                    found = load_prepared(made, self._languages)
                    doc, url, warnings = entry_header(self.settings, item, public_view=False)
                    self._warn(report, relpath, warnings)
                    if found is None or False not in found[0]:
                        side.add(None, text_units(self.settings, self._languages, texts[relpath], public_view=False),
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

    def _summarize(self, report: SyncReport) -> None:
        manifest = self._manifest
        if manifest is None:
            return
        report.skipped = manifest.skipped_list()
        report.generation = manifest.generation
        report.last_scan = manifest.last_scan
        # Kept with the decisions (the rules' tally), not counted again over the corpus.
        tally = manifest.rules.tally
        # A list per document with any (28,500 of the 50,000 bench documents have
        # problems): built in C (a generator building them was ~60 % of a one-file
        # update's summary at 50,000 in a profile), and without the collector's passes
        # those allocations trigger. The lists make no cycles: reference counting frees
        # them.
        paused = gc.isenabled()
        gc.disable()
        try:
            # Every document's warnings, not only those read in this pass: a restart that
            # reads nothing reports the same problems as the build that found them (its
            # own warnings, then its citation URL's), merged with what this pass found.
            for relpath in sorted(tally.warnings.keys() | tally.url_warnings.keys()):
                own = tally.warnings.get(relpath, ())
                kept = [*own, *(w for w in tally.url_warnings.get(relpath, ()) if w not in own)]
                found = report.warnings.get(relpath, ())
                report.warnings[relpath] = [*kept, *(w for w in found if w not in kept)]
            report.problems.update(zip(tally.problems.keys(), map(list, tally.problems.values()), strict=True))
        finally:
            if paused:
                gc.enable()
        report.quarantined = sorted(tally.quarantined)
        report.drafts = tally.withheld
        report.withheld_by = Counter(tally.withheld_by)
        report.by_audience = Counter(tally.by_audience)
        report.by_locale = Counter(tally.by_locale)
