"""Reading many files in worker processes, each within a time limit.

Markdown parsing is pure Python and some inputs are pathological (a long run of ``[``,
a huge table, an unclosed HTML comment repeated): one hostile file must not stall the
only index writer — while it parses, every other edit, including a public → internal
reclassification, waits (CONTRACT X7). So files are read by worker processes; a file
that takes longer than the limit has its worker killed and is skipped and reported,
which also removes it from the index (fail closed).

Worker processes also keep the parsing off the serving process's interpreter lock and
use every CPU for full builds.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing.context import BaseContext
from typing import Any

from helpthread_kit.locales import language_of

from ..interrupts import uninterrupted
from .document import WikiDocument, WikiSettings, load_document, parse_document
from .files import Skipped
from .reader_queue import Waiting
from .sites.load import SettledReadings, adopt_settled, set_hold_s, settled_readings

__all__ = ["DEFAULT_PARSE_TIMEOUT_S", "DocumentReader", "ReaderClosed"]

log = logging.getLogger(__name__)

#: A file not read and classified within this many seconds is skipped and reported.
DEFAULT_PARSE_TIMEOUT_S = 30.0
#: How often an idle reader process checks that the process that started it still runs (seconds).
_PARENT_CHECK_S = 1.0
#: How often, at most, the reading process checks its workers for a stuck file or a death
#: (seconds): a check polls each worker's sentinel (a selector each); done after every
#: result, it took CPU from the main process that the reader processes wanted.
_REAP_EVERY_S = 0.05
Loaded = WikiDocument | Skipped | None
#: ``prepare(settings, document) -> bytes``: more work on a document read, done in the
#: reader process too (a module-level function: it is sent to the workers by name).
Prepare = Callable[[WikiSettings, WikiDocument], bytes]


def _context(prepare: Prepare | None) -> BaseContext:
    # forkserver: safe to start from a threaded server process, and cheap per worker
    # once the server process has imported the parsing modules.
    ctx = multiprocessing.get_context("forkserver")
    # The forkserver starts as `python -c`, which puts the working directory first on its
    # module path: an `http.py` or `yaml.py` in the docs repository the provider was started
    # from ran inside it (a hostile author's code; a harness named http.py forked itself
    # until memory ran out). Python 3.11's safe path keeps that directory off.
    os.environ["PYTHONSAFEPATH"] = "1"
    ctx.set_forkserver_preload(["provider.wiki.document"] + ([prepare.__module__] if prepare is not None else []))
    return ctx


def _leave_with_parent() -> None:
    """Exit this reader as soon as the process that started it is gone, even mid-file.

    A thread waits on the parent's sentinel (the end of a pipe only the parent holds
    open; with forkserver, the parent is the process that asked for this reader, not
    the forkserver) and ends the process when it closes. Checking between files alone
    left a reader whose parent was SIGKILLed parsing a slow file for up to its time
    limit (seen: ~20 minutes of CPU with a 600 s limit). The thread needs the
    interpreter lock, which pure-Python parsing hands over every few milliseconds.
    """
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)  # nothing left to report to, and no stop message will come

    threading.Thread(target=watch, name="kp-reader-parent-watch", daemon=True).start()


def _work(settings: WikiSettings, tasks: Any, results: Any, prepare: Prepare | None = None,
          settled: SettledReadings | None = None) -> None:
    # The process that started us decides when we stop (a stop message, or kill): Ctrl-C
    # reaches the whole process group and printed a KeyboardInterrupt traceback per
    # worker, and systemd's SIGTERM to the whole group would kill a worker mid-batch.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _leave_with_parent()
    set_hold_s(settings.config_hold_s)  # hold a site configuration change as the indexer does
    if settled is not None:
        adopt_settled(settled)
    # Warm up before taking work, so lazily loaded data (langcodes' tables, the YAML
    # and Markdown parsers) does not count against the first file's time limit.
    sample = b"---\nlocale: de-AT\ntitle: Warm-up\n---\n# Heading\n\nSome *text* with a [link](https://x.invalid).\n"
    with contextlib.suppress(Exception):
        parse_document(settings, "warm-up.md", sample, size=len(sample), mtime_ns=0)
    parent = multiprocessing.parent_process()
    while True:
        try:
            relpath = tasks.get(timeout=_PARENT_CHECK_S)
        except queue.Empty:
            # The process that started us is gone (SIGKILL, a crash): nobody will send
            # the stop message, and a worker left waiting here keeps the forkserver and
            # the resource tracker alive too, orphaned.
            if parent is not None and not parent.is_alive():
                return
            continue
        if relpath is None:
            return
        results.put(("start", relpath, os.getpid()))
        try:
            outcome: Loaded = load_document(settings, relpath)
        except Exception as exc:  # a parser bug must not take the worker down
            outcome = Skipped(relpath, f"could not be read ({type(exc).__name__})")
        extra = None
        if prepare is not None and isinstance(outcome, WikiDocument):
            try:
                extra = prepare(settings, outcome)
            except Exception:  # the main process does the same work itself
                log.exception("%s: preparing the index entries failed", relpath)
        results.put(("done", relpath, (outcome, extra)))


class ReaderClosed(RuntimeError):
    """:meth:`DocumentReader.read` was interrupted by :meth:`DocumentReader.close`."""


@dataclass
class _Worker:
    process: Any
    tasks: Any
    current: str | None = None
    started: float = 0.0
    assigned: list[str] = field(default_factory=list)


class DocumentReader:
    """Loads documents like :func:`~provider.wiki.document.load_document`, in worker
    processes, each file within ``timeout_s``.

    Args:
        settings: how to read the wiki (sent to the workers).
        timeout_s: seconds one file may take before its worker is killed and the file
            is skipped with a reason.
        processes: worker processes (default: the CPUs, at most 4).
        prepare: run on every document read, in the worker; its result comes with the
            document from :meth:`read_prepared` (``None`` when it failed).
    """

    def __init__(self, settings: WikiSettings, *, timeout_s: float = DEFAULT_PARSE_TIMEOUT_S,
                 processes: int | None = None, prepare: Prepare | None = None) -> None:
        self.settings = settings
        self.prepare = prepare
        self.timeout_s = timeout_s
        self.processes = processes or max(1, min(4, os.cpu_count() or 1))
        self._ctx: BaseContext | None = None
        self._results: Any = None
        self._workers: list[_Worker] = []
        self._deaths: dict[str, int] = {}
        self._closed = False

    # -- lifecycle -----------------------------------------------------------------------

    def _start_worker(self, slot: int | None = None) -> _Worker:
        """Start a reader process and put it in ``self._workers`` (at ``slot``, else last)."""
        assert self._ctx is not None
        # A stop between the fork and the append would leave a child that close() never
        # stops (see provider.interrupts).
        with uninterrupted():
            tasks = self._ctx.Queue()
            # The site configuration readings this process has settled: a reader started
            # while a change is held holds it as this process does (issue 24).
            args = (self.settings, tasks, self._results, self.prepare, settled_readings())
            process = self._ctx.Process(target=_work, args=args, daemon=True)  # type: ignore[attr-defined]
            process.start()
            worker = _Worker(process=process, tasks=tasks)
            if slot is None:
                self._workers.append(worker)
            else:
                self._workers[slot] = worker
        return worker

    def _ensure_started(self, wanted: int) -> None:
        if self._ctx is None or self._results is None:
            # Both or neither: a results queue that fails to be made (the resource tracker
            # gone on a saturated machine: BrokenPipeError) left a context without a queue,
            # and every later batch started readers with none — indexing failed until a
            # restart (CI, test_busy_machine). The next batch now tries again.
            ctx = _context(self.prepare)
            results = ctx.Queue()
            self._ctx, self._results = ctx, results
        while len(self._workers) < min(self.processes, max(1, wanted)):
            self._start_worker()

    def close(self) -> None:
        """Stop the worker processes. A :meth:`read` still running in another thread (a
        shutdown during a batch) ends without starting new ones."""
        self._closed = True
        self._stop_workers()

    def _stop_workers(self) -> None:
        for worker in self._workers:
            with contextlib.suppress(OSError, ValueError):
                worker.tasks.put(None)
        for worker in self._workers:
            worker.process.join(timeout=2)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
        self._workers = []

    # -- reading -------------------------------------------------------------------------

    def read(self, relpaths: Iterable[str]) -> Iterator[tuple[str, Loaded]]:
        """Yield ``(relpath, outcome)`` for every path, in completion order.

        ``outcome`` is what :func:`~provider.wiki.document.load_document` returns; a file
        over the time limit yields a :class:`Skipped` saying so.

        Raises:
            ReaderClosed: :meth:`close` was called (from another thread) before every
                file was read.
        """
        for relpath, outcome, _ in self.read_prepared(relpaths):
            yield relpath, outcome

    def read_prepared(self, relpaths: Iterable[str]) -> Iterator[tuple[str, Loaded, bytes | None]]:
        """Yield ``(relpath, outcome, prepared)`` for every path, in completion order:
        ``prepared`` is what the ``prepare`` function made of the document (``None``
        without one, or when it failed or the file was not a document).

        ``outcome`` is what :func:`~provider.wiki.document.load_document` returns; a file
        over the time limit yields a :class:`Skipped` saying so.

        Raises:
            ReaderClosed: :meth:`close` was called (from another thread) before every
                file was read.
        """
        todo = list(dict.fromkeys(relpaths))
        if not todo:
            return
        if self._closed:
            raise ReaderClosed("the document reader is closed (shutting down)")
        self._ensure_started(len(todo))
        try:
            yield from self._read_started(todo)
        finally:
            # Reader processes live only while there is reading to do: each holds the
            # parsers and the dictionaries of every language it analysed (hundreds of
            # MiB on a multilingual site), and the next batch forks new ones from the
            # forkserver, which has the parsing modules loaded, in milliseconds.
            if not self._closed:
                self._stop_workers()

    def _read_started(self, todo: list[str]) -> Iterator[tuple[str, Loaded, bytes | None]]:
        waiting = Waiting(todo, {language_of(tag) for tag in self.settings.known_locales})
        remaining = set(todo)
        for worker in self._workers:
            self._assign(worker, waiting)
        next_reap = 0.0
        while remaining and not self._closed:
            try:
                kind, relpath, payload = self._results.get(timeout=0.2)
            except queue.Empty:
                kind = ""
            if kind == "start":
                for worker in self._workers:
                    if worker.process.pid == payload and relpath in worker.assigned:
                        worker.current, worker.started = relpath, time.monotonic()
            elif kind == "done":
                for worker in self._workers:
                    if relpath in worker.assigned:
                        worker.assigned.remove(relpath)
                        if worker.current == relpath:
                            worker.current = None
                        self._assign(worker, waiting)
                if relpath in remaining:  # a killed worker's late answer is not counted twice
                    remaining.discard(relpath)
                    yield relpath, payload[0], payload[1]
            now = time.monotonic()
            reaped: list[tuple[str, Loaded]] = []
            if kind == "" or now >= next_reap:
                next_reap = now + _REAP_EVERY_S
                reaped = self._reap(waiting)
            for relpath, outcome in reaped:
                if relpath in remaining:
                    remaining.discard(relpath)
                    yield relpath, outcome, None
            if kind == "" and waiting:
                # A process left without work (what was left was another's language)
                # takes what is there now.
                for worker in self._workers:
                    if not worker.assigned:
                        self._assign(worker, waiting)
        if remaining:
            # Closed mid-batch: the batch must not be committed as if these files were gone.
            raise ReaderClosed(f"the document reader was closed with {len(remaining)} files unread (shutting down)")

    def _assign(self, worker: _Worker, waiting: Waiting) -> None:
        # Two files queued per worker: one running, one ready, so a worker never idles
        # while we wait for a result.
        while len(worker.assigned) < 2:
            relpath = waiting.pop_for(worker.process.pid)
            if relpath is None:
                return
            worker.assigned.append(relpath)
            worker.tasks.put(relpath)

    def _reap(self, waiting: Waiting) -> list[tuple[str, Loaded]]:
        """Kill workers stuck on one file for too long (or dead); requeue their other files."""
        timed_out: list[tuple[str, Loaded]] = []
        now = time.monotonic()
        for index, worker in enumerate(self._workers):
            stuck = worker.current is not None and now - worker.started > self.timeout_s
            if not stuck and worker.process.is_alive():
                continue
            worker.process.kill()
            worker.process.join()
            culprit = worker.current
            if culprit is None and worker.assigned:
                # Died before saying which file it was on: the first one it was given.
                self._deaths[worker.assigned[0]] = self._deaths.get(worker.assigned[0], 0) + 1
                if self._deaths[worker.assigned[0]] >= 2:
                    culprit = worker.assigned[0]
            if culprit is not None:
                log.warning("%s: not read within %.0f s; skipped", culprit, self.timeout_s)
                reason = (f"took longer than {self.timeout_s:g} s to read (pathological markdown?)" if stuck
                          else "its reader process died")
                timed_out.append((culprit, Skipped(culprit, reason)))
            waiting.forget(worker.process.pid)
            waiting.push(p for p in worker.assigned if p != culprit)
            if self._closed:
                break  # shutting down: a replacement would outlive the process
            replacement = self._start_worker(index)
            self._assign(replacement, waiting)
        return timed_out
