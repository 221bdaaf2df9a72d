"""Keeping the index equal to the wiki while files change (CONTRACT X7; §1.1, §2.3).

:class:`LiveIndexer` runs in one thread of the one process that writes the index:

1. a startup sync (fast when the manifest shows nothing changed), after which the
   index is *ready* — until then the server answers ``503 index_unavailable``, so an
   article reclassified while the provider was down is never served stale;
2. then it follows the content folder with ``watchfiles``. Each batch of events is
   treated as a *set of paths*, each looked at now (present → indexed, absent →
   removed): event kinds and order are not trusted, because an editor's atomic save
   arrives as "added", a delete-and-recreate as an unordered pair and a ``git checkout``
   as hundreds of events. One batch is one commit per index;
3. every ``reconcile_interval_s`` a full scan bounds any drift (missed events,
   filesystems without inotify);
4. with a sitemap configured, a second thread reads it again when due (every
   ``sitemap_refresh_s``, or at once when its file changed) and, when the set of
   published URLs changed, syncs: every decision is derived again and a page gone from
   the site leaves the public index in that batch (CONTRACT X7).

``serve --rebuild`` with a usable current build: the startup sync updates the current
build and the server is ready at once; a fresh build is made aside in a second thread
(its own reader processes) while this thread keeps applying every batch to the build
being served — so a public → internal edit made during the rebuild takes effect at once.
When the new build is complete it is brought up to date with the folder (files changed
since they were read are read again), under the same lock as the batches, and swapped
in atomically. Without a usable build (first start, changed classification settings)
there is nothing safe to serve: the rebuild is the startup sync and the server is ready
when it is done.

Polling replaces inotify when asked (``--poll`` or ``KNOWLEDGE_PROVIDER_POLL=1``, for
Docker Desktop bind mounts and NFS/SMB) and automatically, with a warning, when the OS
watch limit is reached.
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import watchfiles

from .config import POLL_ENV, env_flag
from .indexing import Indexer, Progress, SyncReport
from .indexing.stricter import Withdrawal
from .wiki.document import WikiSettings
from .wiki.reader import ReaderClosed
from .wiki.sites import is_site_config
from .wiki.sites.load import hold_deadline

__all__ = ["POLL_ENV", "LiveIndexer", "poll_requested"]

log = logging.getLogger(__name__)

#: Default seconds between full reconcile scans.
DEFAULT_RECONCILE_INTERVAL_S = 300.0
#: Seconds between looks at whether the sitemap is due (a stat of its files).
SITEMAP_CHECK_S = 1.0
#: The label of the progress lines of the pass that follows a changed sitemap.
SITEMAP_PROGRESS = "Sitemap changed"
_WATCH_LIMIT_ERRNOS = {errno.ENOSPC, errno.EMFILE, errno.ENFILE}

WatchFn = Callable[..., Iterator[set[tuple[watchfiles.Change, str]]]]


def poll_requested(env: dict[str, str] | os._Environ[str] | None = None) -> bool:
    """Whether ``KNOWLEDGE_PROVIDER_POLL`` asks for polling (any value but 0/false/no/off)."""
    return env_flag((os.environ if env is None else env).get(POLL_ENV))


class _WithoutFolders(watchfiles.DefaultFilter):
    """watchfiles' default filter (``.git``, editor swap files…), and nothing below
    ``folders`` (absolute, each ending in the path separator)."""

    def __init__(self, folders: tuple[str, ...]) -> None:
        super().__init__()
        self.folders = folders

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        return not path.startswith(self.folders) and super().__call__(change, path)


def _is_watch_limit(exc: BaseException) -> bool:
    if isinstance(exc, OSError) and exc.errno in _WATCH_LIMIT_ERRNOS:
        return True
    text = str(exc).lower()
    return "limit" in text and ("watch" in text or "inotify" in text or "file" in text)


class LiveIndexer:
    """Startup sync, then watch and reconcile, in a background thread.

    Args:
        indexer: an opened :class:`~provider.indexing.indexer.Indexer` (holding the writer lock).
        poll: use polling instead of OS notifications from the start.
        poll_delay_ms: polling period in milliseconds.
        reconcile_interval_s: seconds between full scans; ``0`` disables them.
        on_report: called with each sync's report (for logs and metrics).
        watch_fn: the watch function (``watchfiles.watch``); a parameter so the
            watch-limit fallback can be tested.
        ready_marker: a file created once the startup sync is done (and removed now),
            so serving worker processes know the index is current.
        rebuild_first: rebuild the index aside after the startup sync (``serve --rebuild``):
            the current build keeps being served, and updated, until the new one is
            swapped in (see the module docstring).
        progress: given a label, returns a ``progress(done, total)`` callback for a full
            scan or build, or the pass after a changed sitemap (or ``None``); for
            progress bars and progress log lines.
    """

    def __init__(
        self,
        indexer: Indexer,
        *,
        poll: bool = False,
        poll_delay_ms: int = 1000,
        reconcile_interval_s: float = DEFAULT_RECONCILE_INTERVAL_S,
        on_report: Callable[[SyncReport], None] | None = None,
        watch_fn: WatchFn = watchfiles.watch,
        ready_marker: Path | None = None,
        rebuild_first: bool = False,
        progress: Callable[[str], Progress | None] | None = None,
    ) -> None:
        self.indexer = indexer
        self.root = Path(indexer.settings.root).resolve()
        self.poll = poll
        self.poll_delay_ms = poll_delay_ms
        self.reconcile_interval_s = reconcile_interval_s
        self.on_report = on_report
        self.watch_fn = watch_fn
        self.ready_marker = ready_marker
        self._rebuild_next = rebuild_first
        self._progress = progress or (lambda label: None)
        # Serialises the writes to the served build: watcher batches, scans and the
        # catch-up of a build made aside before it is swapped in.
        self._write_lock = threading.Lock()
        self._rebuilder: threading.Thread | None = None
        #: Set when a rebuild aside (``rebuild_first``) has been swapped in, or has failed.
        self.rebuilt = threading.Event()
        if ready_marker is not None:
            ready_marker.unlink(missing_ok=True)
        #: Set once the startup sync has completed; the server is ready from then on.
        self.ready = threading.Event()
        #: Unix time of the last completed full scan, or 0.
        self.last_scan = 0.0
        #: Set when the watcher is following the folder (after the startup sync).
        self.watching = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._sitemap_thread: threading.Thread | None = None
        #: the indexer given (its owner closes it); :meth:`reconfigure` may replace it
        self._original = indexer
        #: the held site configuration change (Unix time it applies) last scanned for
        self._held_scanned = 0.0

    # -- lifecycle -----------------------------------------------------------------------

    def start(self) -> None:
        """Run :meth:`run` in a daemon thread."""
        self._thread = threading.Thread(target=self.run, name="live-indexer", daemon=True)
        self._thread.start()

    def running(self) -> bool:
        """Whether the thread :meth:`start` began is still following the folder."""
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout_s: float = 10.0) -> None:
        """Ask the thread to stop and wait for it (at most ``timeout_s`` seconds). An
        indexer made by :meth:`reconfigure` has its reader processes stopped here; the
        writer lock stays with the caller's indexer, which releases it."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout_s)
        if self.indexer is not self._original:
            self.indexer.reader.close()

    def reconfigure(self, settings: WikiSettings, *, parse_timeout_s: float) -> SyncReport | None:
        """Read the wiki with new ``settings`` from now on (a configuration change while
        serving, :mod:`provider.reload`): :meth:`switch`, then scan it all."""
        self.switch(settings, parse_timeout_s=parse_timeout_s)
        return self.scan()

    def switch(self, settings: WikiSettings, *, parse_timeout_s: float) -> Withdrawal | None:
        """Take out of the served build's public index, at once, every page the new
        ``settings`` may make less public (:meth:`Indexer.withdraw_stricter`, CONTRACT X7),
        then give the writer a new :class:`~provider.indexing.Indexer` with these
        settings, between two batches. Quick (a rules-only pass, no body is parsed); the
        caller then calls :meth:`scan`: when the settings change how files are classified,
        it builds the index afresh aside and swaps it in (the current build, less what was
        withdrawn, serves until then); otherwise it is an ordinary scan, which writes the
        withdrawn pages that are still public back.

        The new indexer shares the index folder and the writer lock this process holds.
        Waits for a rebuild aside in progress (``serve --rebuild``) to finish first: it
        reads with the indexer being replaced. Returns what was withdrawn (``None``: no
        build is served yet).
        """
        self.rebuilt.wait()
        with self._write_lock:
            previous = self.indexer
            fresh = Indexer(settings, previous.layout, parse_timeout_s=parse_timeout_s)
            fresh.open()
            try:
                found = previous.withdraw_stricter(settings, site=fresh.site)
            except Exception:  # a failed commit: the scan that follows still applies the change
                log.exception("withdrawing ahead of the configuration change failed; the change takes effect "
                              "when the new build is served")
                found = None
            # A build that goes on being updated (same classification settings) must
            # write what was withdrawn back; a new build starts without it.
            fresh.withdrawn_ahead |= previous.withdrawn_ahead
            self.indexer = fresh
        # Only its reader processes stop: the writer lock is shared, and the caller's
        # indexer releases it when it closes.
        previous.reader.close()
        if fresh.site is not None and self.ready.is_set():
            self._start_sitemap_thread()
        return found

    def _start_sitemap_thread(self) -> None:
        if self._sitemap_thread is None or not self._sitemap_thread.is_alive():
            self._sitemap_thread = threading.Thread(target=self._follow_sitemap, name="sitemap", daemon=True)
            self._sitemap_thread.start()

    def run(self) -> None:
        """Startup sync, then follow the folder until :meth:`stop`."""
        # Not ready until one scan has succeeded: serving an index that may predate an
        # edit made while the provider was down could serve a withdrawn article.
        aside = self._rebuild_next and self.indexer.manifest is not None
        if aside:
            self._rebuild_next = False  # the startup scan updates the served build
        delay_s = 1.0
        while self.scan() is None:
            if self._stop.wait(delay_s):
                return
            delay_s = min(delay_s * 2, 60.0)
        self.ready.set()
        if self.ready_marker is not None:
            self.ready_marker.parent.mkdir(parents=True, exist_ok=True)
            self.ready_marker.write_text(f"{os.getpid()}\n", "utf-8")
        if aside:
            self._rebuilder = threading.Thread(target=self._rebuild_aside, name="rebuild-aside", daemon=True)
            self._rebuilder.start()
        else:
            self.rebuilt.set()
        if self.indexer.site is not None:
            self._start_sitemap_thread()
        while not self._stop.is_set():
            try:
                self._follow()
            except Exception as exc:
                if not self.poll and _is_watch_limit(exc):
                    log.warning(
                        "the OS file-watch limit is reached (%s); falling back to polling every %d ms. "
                        "Raise fs.inotify.max_user_watches, or set %s=1 to poll from the start",
                        exc, self.poll_delay_ms, POLL_ENV,
                    )
                    self.poll = True
                    continue
                if "decode" in str(exc).lower():
                    log.warning("a file or folder name under %s is not valid UTF-8 (%s): rename it; until then "
                                "changes are picked up by a full scan every 5 s", self.root, exc)
                else:
                    log.exception("file watching failed; retrying in 5 s (reconcile scans continue)")
                self._stop.wait(5.0)
                self.scan()

    # -- work ----------------------------------------------------------------------------

    def scan(self) -> SyncReport | None:
        """A full reconcile scan now. Errors are logged, never raised."""
        report = self._sync(None)
        if report is not None:
            self.last_scan = time.time()
            log.info(
                "scan complete at %s: %d served (%s), %d skipped, %d changed in %.2fs",
                time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.last_scan)),
                sum(report.by_audience.values()),
                ", ".join(f"{n} {a}" for a, n in sorted(report.by_audience.items())) or "none",
                len(report.skipped), report.written + report.removed, report.duration_s,
            )
        return report

    def apply(self, paths: Iterable[str]) -> SyncReport | None:
        """Re-index a batch of relative paths now. Errors are logged, never raised."""
        batch = sorted(set(paths))
        if not batch:
            return None
        if any(is_site_config(path) for path in batch):
            # The docs tool's configuration may exclude or publish any page: re-derive
            # everything (pages whose view of it changed are read again).
            log.info("a site configuration file changed (%s); scanning everything again",
                     next(path for path in batch if is_site_config(path)))
            # X7: what the new configuration may exclude or withhold leaves the public
            # index now, not after every page is read again; the scan writes it back
            # where it is still public.
            with self._write_lock:
                try:
                    self.indexer.withdraw_stricter(self.indexer.settings, site=self.indexer.site, site_changed=True)
                except Exception:  # the scan below still applies the change
                    log.exception("withdrawing ahead of the site configuration change failed")
            return self.scan()
        report = self._sync(batch)
        if report is not None and report.changed:
            log.info("re-indexed a batch of %d paths in %.3fs: %d written, %d removed",
                     len(batch), report.duration_s, report.written, report.removed)
        return report

    def apply_held(self) -> SyncReport | None:
        """Scan again when a held site configuration change (one that may make pages more
        public, :mod:`provider.wiki.sites.load`) is due to apply: its files have been
        unchanged for the hold time. Called about once a second by the watcher loop, so the
        change applies without waiting for another file event. ``None`` when nothing was due."""
        due = hold_deadline(self.indexer.settings.root, after=self._held_scanned)
        if due is None or time.time() < due:
            return None
        self._held_scanned = due
        log.info("a held site configuration change is due; scanning everything again")
        return self.scan()

    def _follow_sitemap(self) -> None:
        """Read the sitemap again when due; sync when its published URLs changed. The read
        (an HTTP request, perhaps) happens outside the write lock: batches go on meanwhile.
        Ends when the indexer in use has no sitemap (a configuration change removed it)."""
        while not self._stop.wait(SITEMAP_CHECK_S) and self.indexer.site is not None:
            try:
                changed = self.indexer.refresh_sitemap()
            except Exception:  # never expected (refresh logs and keeps the last good one)
                log.exception("reading the sitemap failed; the last good one holds")
                continue
            if changed:
                # Every page's customer_safe status is derived again, and every page it
                # changes is read and written again: a pass as long as a build.
                report = self._sync([], progress_label=SITEMAP_PROGRESS)
                if report is not None:
                    log.info("sitemap changed: %d written, %d removed in %.3fs", report.written, report.removed,
                             report.duration_s)

    def _rebuild_aside(self) -> None:
        """Build afresh aside, then catch up and swap in (``serve --rebuild``)."""
        log.info("rebuilding the index aside; the current build is served, and kept up to date, meanwhile")
        try:
            pending = self.indexer.build_aside(self._progress("Rebuilding"))
            if self._stop.is_set():
                return
            with self._write_lock:
                report = self.indexer.adopt(pending)
        except ReaderClosed:
            return  # shutting down: the unfinished build is never served, the next rebuild removes it
        except Exception:
            log.exception("the rebuild aside failed; the current build stays served and up to date")
            return
        finally:
            self.rebuilt.set()
        log.info("rebuild swapped in: build %s (%d documents read in %.1fs)", report.build, report.read,
                 report.duration_s)
        if self.on_report is not None:
            self.on_report(report)

    def _sync(self, paths: list[str] | None, *, progress_label: str | None = None) -> SyncReport | None:
        """Sync ``paths`` (``None``: a full scan) under the write lock; progress lines
        for a full scan, or under ``progress_label``. Errors are logged, never raised."""
        try:
            rebuild = self._rebuild_next and paths is None
            label = progress_label if progress_label is not None else ("Indexing" if paths is None else None)
            progress = self._progress(label) if label is not None else None
            with self._write_lock:
                report = self.indexer.sync(paths, rebuild=rebuild, progress=progress)
            self._rebuild_next = False
        except ReaderClosed:
            return None  # shutting down mid-batch: nothing was committed, the next start catches up
        except Exception:
            log.exception("indexing failed; the served index is unchanged and will be reconciled")
            return None
        if self.on_report is not None:
            self.on_report(report)
        return report

    def _relative(self, path: str) -> str | None:
        rel = os.path.relpath(path, self.root)
        if rel == "." or rel.startswith(".." + os.sep) or rel == "..":
            return None
        return Path(rel).as_posix()

    def _own_folders(self) -> tuple[str, ...]:
        """The folders below the content folder the provider writes itself (the index,
        with its state; the readiness marker's), each ending in the path separator."""
        found = []
        for folder in (self.indexer.layout.root, *([self.ready_marker.parent] if self.ready_marker else [])):
            real = os.path.realpath(folder)
            if real == str(self.root) or real.startswith(str(self.root) + os.sep):
                found.append(real.rstrip(os.sep) + os.sep)
        return tuple(found)

    def _follow(self) -> None:
        own = self._own_folders()
        kwargs: dict[str, Any] = {
            "stop_event": self._stop,
            "force_polling": self.poll,
            "poll_delay_ms": self.poll_delay_ms,
            "rust_timeout": 1000,
            "yield_on_timeout": True,
            "step": 50,
            "debounce": 1600,
            "raise_interrupt": False,
            # With the content folder at the repository root, the index folder may be in
            # it: each commit's own writes (segments, the manifest) would be a batch that
            # commits again, about 520 batches a minute after one edit. Git's internals
            # are ignored by the default filter.
            "watch_filter": _WithoutFolders(own),
        }
        next_scan = time.monotonic() + self.reconcile_interval_s
        # The content folder may be a symlink an operator swaps to a new release: the
        # watcher follows the folder it resolved, so a changed target means a full scan
        # and a new watcher.
        self.root = Path(os.path.realpath(self.indexer.settings.root))
        self.watching.set()
        try:
            for changes in self.watch_fn(str(self.root), **kwargs):
                if Path(os.path.realpath(self.indexer.settings.root)) != self.root:
                    log.info("the content folder now resolves to %s; rescanning",
                             os.path.realpath(self.indexer.settings.root))
                    self.scan()
                    return
                if changes:
                    relpaths = [rel for _, path in changes if not path.startswith(own)
                                and (rel := self._relative(path)) is not None]
                    self.apply(relpaths)
                self.apply_held()
                if self.reconcile_interval_s and time.monotonic() >= next_scan:
                    self.scan()
                    next_scan = time.monotonic() + self.reconcile_interval_s
                if self._stop.is_set():
                    return
        finally:
            self.watching.clear()
