"""Building and updating the two indexes from the wiki (the only Whoosh writer).

One pass (:meth:`Indexer.sync`) works the same for a full scan and for a batch of
changed paths, in four phases: **scan** (:mod:`~provider.indexing.scan`: which files to
look at — present → read, absent → removed), **read** (:mod:`~provider.indexing.read`: in
reader processes, which also prepare each document's units, :mod:`~provider.indexing.
units`), **decide** (:mod:`~provider.indexing.decide`: the corpus-wide rules, kept with
the manifest, derive again every decision the batch can affect, and the whole corpus
after a start or when unsure) and **write** (:mod:`~provider.indexing.write`: exactly the
documents whose indexed form changed). The ``public`` index receives only public,
servable documents (CONTRACT X2); the ``all`` index every servable document. The
decisions equal those of a resolve of the whole corpus, so the result equals a fresh
build of the folder.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from .. import allocator
from ..search.analysis import cjk_mode, schema_languages
from ..search.embedding import load_embedder
from ..search.layout import ALL, PUBLIC, IndexLayout
from ..search.schema import SCHEMA_VERSION
from ..wiki.corpus import Resolved, public_part
from ..wiki.document import WikiSettings
from ..wiki.gitblobs import GitBlobs
from ..wiki.reader import DEFAULT_PARSE_TIMEOUT_S, DocumentReader, ReaderClosed
from ..wiki.site_gate import SiteSource
from ..wiki.sites.load import set_hold_s
from . import heap
from .decide import Changes, changes_of, resolve, to_withdraw
from .manifest import Manifest
from .read import InThread, Read, read_again, read_files
from .report import Progress, SyncReport, stage, summarize, took
from .scan import bundle_members, discover_all, expand, translations_of, unchanged
from .sidewriter import SideWriter
from .stricter import Withdrawal, public_paths, stricter
from .units import prepare
from .vectors import VECTOR_TEXT_VERSION, check_vectors, missing_vectors
from .write import WAIT_FOR_AGENT_INDEX, EntryWriter, withdraw

__all__ = ["Indexer", "PendingBuild", "Progress", "SyncReport", "Withdrawal", "settings_key"]

log = logging.getLogger(__name__)

#: Returns the current time, aware (UTC): publication dates are compared with it.
Clock = Callable[[], dt.datetime]


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def settings_key(settings: WikiSettings) -> str:
    """A digest of every setting that changes how files are classified or indexed (the
    analysis languages, chunking and citation URLs included) and of the schema version.
    A build made with another key is rebuilt aside."""
    data = {**settings.describe(), "schema": SCHEMA_VERSION, "languages": schema_languages(settings.known_locales),
            "cjk": cjk_mode()}
    data.pop("root", None)
    if settings.semantic_model is not None:
        # Vectors of another model (or none) cannot be searched with this one's: rebuilt aside.
        data["semantic"] = f"{load_embedder(settings.semantic_model).name}/{VECTOR_TEXT_VERSION}"
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


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
        set_hold_s(settings.config_hold_s)  # every process holds a site configuration change alike
        # Files are read in worker processes, each within a time limit: one pathological
        # file cannot hold up the batch that reclassifies another (X7).
        self.reader = DocumentReader(settings, timeout_s=parse_timeout_s, prepare=prepare)
        self._key = settings_key(settings)
        self._languages = schema_languages(settings.known_locales)
        self._writer = EntryWriter(settings, self._languages)
        self._blobs = GitBlobs(settings.root)
        self._manifest: Manifest | None = None
        self._build: str | None = None
        self._generation = 0
        #: Readers of builds made aside in another thread (closed by :meth:`close`).
        self._aside_readers: list[DocumentReader] = []
        self._writes = 0
        self._closed = False
        #: Pages taken out of the public index by :meth:`withdraw_stricter` that the next
        #: update writes again as they now are (those still public come back).
        self.withdrawn_ahead: set[str] = set()
        #: The site's sitemap when one is configured (:mod:`provider.wiki.site_gate`).
        self.site: SiteSource | None = None
        self._sitemap_read = False
        if settings.sitemap:
            self.site = SiteSource(settings.sitemap, state_file=layout.root / "state" / "sitemap.json",
                                   refresh_s=settings.sitemap_refresh_s, limits=settings.sitemap_limits)

    def open(self, *, read_sitemap: bool = True) -> None:
        """Take the writer lock, read the sitemap if one is configured (the last good
        one kept holds if it cannot be read; with ``read_sitemap`` false, at the first
        :meth:`sync` instead: :meth:`read_sitemap`), and load the current build's
        manifest, if any."""
        self.layout.lock.acquire()
        self._closed = False
        if read_sitemap:
            self.read_sitemap()
        name = self.layout.current_name()
        if name is None:
            return
        manifest = Manifest.load(self.layout.build_dir(name) / "manifest.json")
        self._generation = manifest.generation if manifest is not None else 0
        # Another schema, analysis languages, chunking, citation or classification settings:
        # the next sync builds afresh aside, while the old build keeps serving.
        if manifest is not None and manifest.schema_version == SCHEMA_VERSION and manifest.settings_key == self._key:
            lacking = self._vectors_lacking(name)
            if lacking:
                log.error("index build %s lacks vectors for semanticSearch (%s): building afresh aside, the old "
                          "build serves meanwhile", name, "; ".join(lacking))
                return
            self._manifest, self._build = manifest, name

    def _vectors_lacking(self, name: str) -> list[str]:
        """What the build ``name`` lacks of the vectors its settings ask for (``[]``: all there)."""
        if self.settings.semantic_model is None:
            return []
        try:
            return missing_vectors(self.layout.build_dir(name))
        except Exception as exc:  # Whoosh raises its own errors for an unreadable index
            return [f"unreadable: {exc}"]

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
        if self.site is not None and not self._sitemap_read:
            # The first read can take half a minute (issue 27): progress lines say so.
            stage(progress, "sitemap")
        self.read_sitemap()  # no sync derives a decision without the sitemap
        started = time.monotonic()
        report = SyncReport()
        full = rebuild or self._manifest is None or self._build is None
        try:
            if full:
                self._full_build(report, progress)
            else:
                self._update(report, paths, progress)
        finally:
            stage(progress, "done")
        whole = self._manifest is not None and self._manifest.rules.last_full
        if whole and self._manifest is not None and len(self._manifest.docs) >= heap.FREEZE_MIN_DOCS:
            settled = time.monotonic()
            heap.settle_heap()
            took(report, "settle the heap (gc.freeze)", settled)
        if full or whole:
            # A build's (or a start-up sync's) analysers, postings and batches are garbage
            # now, but their memory stayed in this long-lived process's heap: give it back.
            trimmed = time.monotonic()
            allocator.release()
            took(report, "give freed memory back (malloc_trim)", trimmed)
        report.duration_s = time.monotonic() - started
        return report

    def read_sitemap(self) -> None:
        """Read the configured sitemap the first time (the one kept in the state folder,
        then the sources); later calls do nothing. Until it is read, the sitemap gate has
        no sitemap and nothing is public to ``customer_safe`` (fail closed). ``serve``
        calls it from the indexing thread, after the server listens: a 48 MiB sitemap took
        31–41 s to read (issue 27). Never raises."""
        if self.site is not None and not self._sitemap_read:
            self._sitemap_read = True
            self.site.load_kept()
            self.site.refresh()

    def refresh_sitemap(self) -> bool:
        """Read the configured sitemap again if it is due (its refresh time came, or its
        file changed). Returns whether the set of published URLs changed: the caller then
        syncs (``sync([])``), which derives every decision again. Never raises; slow for
        an https sitemap, so call it outside the lock that serialises syncs."""
        return self.site is not None and self.site.due() and self.site.refresh()

    def withdraw_stricter(self, new: WikiSettings, *, site: SiteSource | None = None,
                          site_changed: bool = False) -> Withdrawal | None:
        """X7 for a configuration change: take out of the served build's public index, in
        one commit, every page the ``new`` settings (or a changed docs-tool configuration,
        ``site_changed``) may make less public (:func:`~provider.indexing.stricter.stricter`),
        and log one line saying how many and how long it took. ``site``: the sitemap as
        ``new`` configures it (``None``: none). Returns what was found, or ``None`` when no
        build is served. Not concurrent with :meth:`sync`: the caller serialises the two.

        The pages stay out until a build made with ``new`` is swapped in, or, when this
        indexer goes on updating its build, until its next update writes them again as
        they now are (:attr:`withdrawn_ahead`).
        """
        manifest, build = self._manifest, self._build
        if manifest is None or build is None:
            return None
        started = time.monotonic()
        found = stricter(self.settings, new, manifest, now=self._clock(), site_changed=site_changed,
                         gate=site.gate(new) if site is not None else None, blobs=self._blobs)
        if found.paths:
            withdraw(self.layout.build_dir(build) / PUBLIC, set(found.paths))
            self.withdrawn_ahead |= found.paths
        log.info("%s: withdrew %d of %d public page(s) from customer_safe in %.2fs (%s%s); the rest is decided by "
                 "the new build", "site configuration changed" if site_changed else "configuration changed",
                 len(found.paths), len(public_paths(manifest)), time.monotonic() - started, found.why,
                 "" if found.everything else f", {found.headers} header(s) read again")
        return found

    # -- internals -----------------------------------------------------------------------

    def _full_build(self, report: SyncReport, progress: Progress | None) -> None:
        pending = self._build_aside(report, progress, self.reader)
        self._publish(pending)
        summarize(report, pending.manifest)

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
            stage(progress, "done")
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
        if pending.manifest.rules.last_full and len(pending.manifest.docs) >= heap.FREEZE_MIN_DOCS:
            heap.settle_heap()  # the new build's state is now the long-lived heap
        allocator.release()  # the old build's state and the rebuild's leftovers (see sync)
        report.duration_s += time.monotonic() - started
        return report

    def _generation_now(self) -> int:
        return max(self._manifest.generation if self._manifest else 0, self._generation)

    def _resolve(self, manifest: Manifest) -> tuple[Mapping[str, Resolved], set[str]]:
        return resolve(self.settings, manifest, now=self._clock(), blobs=self._blobs, site=self.site)

    def _build_aside(self, report: SyncReport, progress: Progress | None, reader: DocumentReader) -> PendingBuild:
        started = time.monotonic()
        found = discover_all(self.settings)
        took(report, "discover", started)
        read = read_files(reader, sorted(found.files), report, progress, len(found.files))
        read.skipped.update({s.relpath: s.reason for s in found.skipped})
        manifest = Manifest(schema_version=SCHEMA_VERSION, settings_key=self._key)
        # The counter carries on across builds, so it only ever grows.
        manifest.generation = self._generation_now() + 1
        manifest.docs = {relpath: doc.meta for relpath, doc in read.loaded.items()}
        manifest.skipped = read.skipped
        started = time.monotonic()
        stage(progress, "rules")
        resolved, _ = self._resolve(manifest)
        took(report, "corpus rules", started)
        name, path = self.layout.new_build()
        counts = stage(progress, "writing", sum(item.served for item in resolved.values()))
        self._writer.write_build(path, resolved, read.loaded, read.prepared, report, manifest,
                                 progress if counts else None)
        # Never published without the vectors its settings promise (VectorsMissing).
        check_vectors(self.settings, path)
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
            found = discover_all(self.settings)
            to_read = {relpath for relpath, ref in found.files.items()
                       if not unchanged(self.settings, manifest, relpath, ref)}
            vanished = (set(manifest.docs) | set(manifest.skipped)) - set(found.files)
            discovered_skips = {s.relpath: s.reason for s in found.skipped}
            # A page the docs tool excludes that appeared or went since: its translations
            # are decided again though their own files did not change (issue 24).
            to_read |= translations_of(self.settings, manifest,
                                       (discovered_skips.keys() ^ manifest.skipped.keys()) | vanished)
            to_read |= bundle_members(self.settings, manifest) - vanished
        else:
            to_read = expand(self.settings, paths, manifest)
        side = self._writer.early_side_writer(self.layout.build_dir(build) / ALL, len(to_read))
        try:
            read, withdrawn = self._read_batch(report, progress, manifest, build, to_read, vanished, side)
            for relpath in vanished | set(read.gone):
                manifest.docs.pop(relpath, None)
                manifest.skipped.pop(relpath, None)
            for relpath, reason in {**discovered_skips, **read.skipped}.items():
                manifest.docs.pop(relpath, None)
                manifest.skipped[relpath] = reason
            for relpath, doc in read.loaded.items():
                manifest.skipped.pop(relpath, None)
                manifest.docs[relpath] = doc.meta
            manifest.settings_key = self._key
            self._decide_and_write(report, paths, progress, manifest, build, read, withdrawn, side)
            self.withdrawn_ahead -= withdrawn
        finally:
            if side is not None:
                side.cancel()  # nothing to write, or a failure: a committed one ignores this

    def _read_batch(
        self, report: SyncReport, progress: Progress | None, manifest: Manifest, build: str, to_read: set[str],
        vanished: set[str], side: SideWriter | None,
    ) -> tuple[Read, set[str]]:
        """Withdraw early what may have left the public index (:meth:`_withdraw_early`)
        and read ``to_read``: ``(what was read, what was withdrawn)`` — the pages
        :meth:`withdraw_stricter` took out included."""
        ahead = set(self.withdrawn_ahead)
        if side is None:
            started = time.monotonic()
            withdrawn = self._withdraw_early(manifest, build, to_read | vanished)
            took(report, "withdraw early (public index)", started)
            return read_files(self.reader, sorted(to_read), report, progress, len(to_read)), withdrawn | ahead
        # A large batch: the withdrawal (one commit) runs in a thread while the reader
        # processes start on the batch, instead of before them; it still commits long
        # before the batch can (after every file is read).
        withdrawing = InThread(self._withdraw_early, manifest, build, to_read | vanished)
        try:
            read = read_files(self.reader, sorted(to_read), report, progress, len(to_read))
        finally:
            withdrawn = withdrawing.result()
        return read, withdrawn | ahead

    def _decide_and_write(
        self, report: SyncReport, paths: Iterable[str] | None, progress: Progress | None, manifest: Manifest,
        build: str, read: Read, withdrawn: set[str], side: SideWriter | None,
    ) -> None:
        started = time.monotonic()
        stage(progress, "rules")
        resolved, touched = self._resolve(manifest)
        took(report, "corpus rules", started)
        started = time.monotonic()
        changes = changes_of(manifest, resolved, touched, withdrawn)
        took(report, "fingerprints", started)
        started = time.monotonic()
        leaving = self._withdraw_leaving(manifest, build, changes, read, withdrawn)
        if leaving:
            took(report, "withdraw what the rules took out (public index)", started)
        started = time.monotonic()
        waited = report.timings.get(WAIT_FOR_AGENT_INDEX, 0.0)
        try:
            self._write(build, changes, read, report, side, progress)
        except BaseException:
            # The rules moved on but the index did not: the next batch derives and
            # compares everything again (fail closed), not only what it changes.
            manifest.rules.invalidate()
            raise
        self.withdrawn_ahead -= leaving
        # Without the time this process only waited for the agent index's writer (its own step).
        took(report, "write and commit (Whoosh)", started + report.timings.get(WAIT_FOR_AGENT_INDEX, 0.0) - waited)
        if changes.written:
            manifest.generation += 1
        changes.record(manifest)
        if paths is None:
            manifest.last_scan = time.time()
        started = time.monotonic()
        manifest.save(self.layout.build_dir(build) / "manifest.json")
        took(report, "save the manifest", started)
        report.build = build
        started = time.monotonic()
        summarize(report, manifest)
        took(report, "summary", started)

    def _write(self, build: str, changes: Changes, read: Read, report: SyncReport, side: SideWriter | None,
               progress: Progress | None) -> None:
        """Write a batch's changes: the documents reclassified without changing are read
        again first (``progress`` counts them on from the files read before)."""
        if not changes.written:
            return
        texts, prepared = dict(read.loaded), dict(read.prepared)
        stage(progress, "reading")
        read_again(self.reader, changes.written, texts, prepared, progress, done_before=read.files)
        stage(progress, "writing", 0)
        self._writer.write_batch(self.layout.build_dir(build), changes.written, texts, prepared, report,
                                 changes.public, side)
        self._writes += 1
        heap.collect_after_write(self._writes)

    def _withdraw_leaving(self, manifest: Manifest, build: str, changes: Changes, read: Read,
                          withdrawn: set[str]) -> set[str]:
        """X7: what the corpus rules took out of the public index (a page gone from a
        re-read sitemap, a page whose section became internal…) leaves it now, in one
        commit, when the batch must first read pages again (slow): not after that.
        Returns what left; until the batch is written it is in :attr:`withdrawn_ahead`
        (a failed batch leaves it to the next one to write back, if still public)."""
        if all(relpath in read.loaded for relpath, item in changes.written.items() if item is not None):
            return set()  # nothing to read again: the batch's own commit follows at once
        leaving = {relpath for relpath in changes.public - withdrawn
                   if public_part(manifest.fingerprints.get(relpath))
                   and not public_part(changes.fingerprints.get(relpath))}
        if leaving:
            withdraw(self.layout.build_dir(build) / PUBLIC, leaving)
            self.withdrawn_ahead |= leaving
            log.info("withdrew %d document(s) the corpus rules took out of the public index ahead of reading "
                     "them again", len(leaving))
        return leaving

    def _withdraw_early(self, manifest: Manifest, build: str, relpaths: set[str]) -> set[str]:
        """X7: before the batch's slow reading, take out of the public index what may
        have left it (:func:`~provider.indexing.decide.to_withdraw`). Forgetting their
        fingerprints makes the batch's commit put back those that are still public.
        Returns what was withdrawn."""
        withdrawn = to_withdraw(self.settings, manifest, relpaths, self._clock())
        if withdrawn:
            withdraw(self.layout.build_dir(build) / PUBLIC, withdrawn)
            log.info("withdrew %d document(s) from the public index ahead of reading them", len(withdrawn))
        return withdrawn
