"""One index of a cold build written in a second process, beside the main one.

A cold build writes two Whoosh indexes, ``public`` and ``all``, after every file has
been read: on one CPU, one index after the other, while the other CPU waits. The public
index's writer runs in a child process instead (:class:`SideWriter`): the main process
sends it, per document, what the reader processes prepared (the pickled units and
postings, as they came) and the fields the corpus rules decided (:func:`~provider.indexing.
entries.entry_header`), and the child makes the same entries the main process would
make and adds them in the same order, so the index is the same. The main process
decides which documents are sent — only public ones (CONTRACT X2) — the child writes
what it is sent.

The child is started through the reader's ``forkserver`` (safe from a threaded server)
and stops with its parent. A failure in it is raised in the main process by
:meth:`SideWriter.commit`; the build then fails as it would in process, and the build
folder is never published.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import threading
import time
import traceback
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index

from ..search.prepared import AnalysedOnce, Unit
from ..search.prepared import load as load_prepared
from ..search.writer import TermWriter
from .entries import unit_entries

__all__ = ["SideWriter", "SideWriterFailed"]

#: Documents sent to the child per message.
_BATCH = 64
#: Seconds between checks that the child still runs while waiting for its commit.
_POLL_S = 1.0

#: Seconds the child waits for the index's write lock.
_LOCK_TIMEOUT_S = 10.0

#: One step for the child: ``(path to delete, None, None, {}, None)``, or ``(None,
#: prepared bytes or None, units or None, stored doc fields, citation URL)`` to add a
#: document; the units are sent only when the prepared bytes have none for the view.
Item = tuple[str | None, bytes | None, tuple[Unit, ...] | None, dict[str, object], str | None]


class SideWriterFailed(RuntimeError):
    """The child process failed to write or commit its index (the message has its
    traceback), or died."""


def _serve(folder: str, limitmb: int, languages: tuple[str, ...], chunking: bool, public_view: bool,
           conn: Any) -> None:
    writer = TermWriter(whoosh_index.open_dir(folder), limitmb=limitmb, timeout=_LOCK_TIMEOUT_S)
    once = AnalysedOnce()
    once.attach(writer)
    try:
        # Opened now for the deletions, while the first batch may still be on its way (a
        # writer started before its batch was read waits here).
        writer.searcher()
        while True:
            message, payload = conn.recv()
            if message == "add":
                for delete, made, units, doc, url in payload:
                    if delete is not None:
                        writer.delete_by_term("path", delete)
                        continue
                    found = load_prepared(made, languages)
                    if found is not None:
                        views, postings = found
                        once.postings.update(postings)
                        units = units if units is not None else views.get(public_view)
                    if units is None:
                        raise ValueError("a document was sent without units for the view written")
                    for entry in unit_entries(units, doc, url, chunking=chunking):
                        writer.add_document(**entry)
                    once.clear()
            elif message == "commit":
                once.detach(writer)
                count = writer.doc_count()
                writer.commit()
                conn.send(("ok", (count, time.process_time())))
                return
            else:
                writer.cancel()
                return
    except BaseException:
        with contextlib.suppress(Exception):
            writer.cancel()
        with contextlib.suppress(Exception):
            conn.send(("error", traceback.format_exc()))
    finally:
        conn.close()


class SideWriter:
    """A :class:`~provider.search.writer.TermWriter` on the index at ``folder``, in a
    child process; what :meth:`add` and :meth:`delete` queue is sent by a thread of this
    process, so the caller never waits for the child until :meth:`commit`.

    Args:
        folder: a Whoosh index folder.
        limitmb: the writer's posting memory, megabytes.
        languages: the analysis languages the prepared bytes must have been made for.
        chunking: ``settings.chunking`` (chunk ids and anchors in the stored fields).
        public_view: which of the prepared views the entries are made from (``True``
            for the public index).

    Raises:
        SideWriterFailed: (from :meth:`commit`) the child failed or died.
    """

    def __init__(self, folder: Path, *, limitmb: int, languages: tuple[str, ...], chunking: bool,
                 public_view: bool = True) -> None:
        ctx = multiprocessing.get_context("forkserver")
        self._conn, child = ctx.Pipe()
        self._process = ctx.Process(target=_serve, args=(str(folder), limitmb, languages, chunking, public_view,
                                                         child), daemon=True)
        self._process.start()
        child.close()
        self._batch: list[Item] = []
        self._outbox: queue.Queue[list[Item] | None] = queue.Queue()
        self._send_error: BaseException | None = None
        self._sender = threading.Thread(target=self._send_all, name="side-writer-sender", daemon=True)
        self._sender.start()
        self._done = False

    def add(self, made: bytes | None, units: tuple[Unit, ...] | None, doc: dict[str, object], url: str | None) -> None:
        """Queue one document: its entries are made from ``units`` if given, else from the
        view in ``made`` (what a reader process prepared)."""
        self._queue((None, made, units, doc, url))

    def delete(self, path: str) -> None:
        """Queue the deletion of every entry of the document at ``path``."""
        self._queue((path, None, None, {}, None))

    def _queue(self, item: Item) -> None:
        self._batch.append(item)
        if len(self._batch) >= _BATCH:
            self._outbox.put(self._batch)
            self._batch = []

    def _send_all(self) -> None:
        while True:
            batch = self._outbox.get()
            if batch is None:
                return
            if self._send_error is not None:
                continue  # drain: commit() reports the error
            try:
                self._conn.send(("add", batch))
            except BaseException as exc:  # the child died: commit() raises
                self._send_error = exc

    def _reason(self) -> str:
        with contextlib.suppress(Exception):
            if self._conn.poll():
                status, detail = self._conn.recv()
                if status == "error":
                    return str(detail)
        return f"exit code {self._process.exitcode}"

    def commit(self) -> tuple[int, float]:
        """Send what is queued, commit in the child, wait for it: ``(entries written, CPU
        seconds the child used)``."""
        if self._batch:
            self._outbox.put(self._batch)
            self._batch = []
        self._outbox.put(None)
        self._sender.join()
        try:
            if self._send_error is not None:
                raise SideWriterFailed(f"the index writer process stopped: {self._reason()}") from self._send_error
            try:
                self._conn.send(("commit", None))
            except (BrokenPipeError, ConnectionError, EOFError) as exc:
                raise SideWriterFailed(f"the index writer process stopped: {self._reason()}") from exc
            try:
                while not self._conn.poll(_POLL_S):
                    if not self._process.is_alive() and not self._conn.poll():
                        raise SideWriterFailed(f"the index writer process died (exit code {self._process.exitcode})")
                status, detail = self._conn.recv()
            except (EOFError, ConnectionError) as exc:
                raise SideWriterFailed(f"the index writer process stopped: exit code {self._process.exitcode}") from exc
        finally:
            self._close()
        if status != "ok":
            raise SideWriterFailed(f"writing the index in a second process failed:\n{detail}")
        count, cpu_s = detail
        return int(count), float(cpu_s)

    def cancel(self) -> None:
        """Drop everything (the child cancels its writer and stops)."""
        if self._done:
            return
        self._batch = []
        self._outbox.put(None)
        self._sender.join(timeout=10.0)
        with contextlib.suppress(Exception):
            self._conn.send(("cancel", None))
        self._close()

    def _close(self) -> None:
        self._done = True
        self._process.join(timeout=10.0)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()
        self._conn.close()
