"""Read: files parsed in the reader processes, with what they prepared for the index.

:func:`read_files` reads the files a scan or a batch chose; :func:`read_again` reads the
documents a corpus rule reclassified without their changing (their text was not kept),
so they can be written again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..wiki.corpus import Resolved
from ..wiki.document import WikiDocument
from ..wiki.files import Skipped
from ..wiki.reader import DocumentReader
from .report import Progress, SyncReport, took, weighing

__all__ = ["InThread", "Read", "read_again", "read_files"]


@dataclass
class Read:
    """What reading a set of files gave.

    Attributes:
        loaded: the documents read, by relative path.
        skipped: the files not indexed, with the reason.
        gone: the files that no longer exist.
        prepared: what the reader processes prepared for the index
            (:func:`~provider.indexing.units.prepare`), by relative path.
    """

    loaded: dict[str, WikiDocument] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    gone: list[str] = field(default_factory=list)
    prepared: dict[str, bytes] = field(default_factory=dict)

    @property
    def files(self) -> int:
        """Files looked at."""
        return len(self.loaded) + len(self.skipped) + len(self.gone)


def read_files(reader: DocumentReader, relpaths: Iterable[str], report: SyncReport, progress: Progress | None,
               total: int) -> Read:
    """Read files in the reader processes. ``progress(done, total)`` is called after
    each file."""
    started = time.monotonic()
    read = Read()
    relpaths = list(relpaths)
    weigh = weighing(progress, reader.settings.root, relpaths)
    for done, (relpath, result, made) in enumerate(reader.read_prepared(relpaths), start=1):
        if isinstance(result, WikiDocument):
            read.loaded[relpath] = result
            if made is not None:
                read.prepared[relpath] = made
            if result.meta.warnings:
                report.warnings[relpath] = list(result.meta.warnings)
        elif isinstance(result, Skipped):
            read.skipped[relpath] = result.reason
        else:
            read.gone.append(relpath)
        report.read += 1
        if weigh is not None:
            weigh(relpath, done)
        if progress is not None:
            progress(done, total)
    took(report, "read and prepare (reader processes)", started)
    return read


def read_again(
    reader: DocumentReader, changes: Mapping[str, Resolved | None], texts: dict[str, WikiDocument],
    prepared: dict[str, bytes], progress: Progress | None = None, *, done_before: int = 0,
) -> None:
    """Read again, into ``texts`` and ``prepared``, every served document of ``changes``
    whose text is not in ``texts``: one a corpus rule reclassified (a sitemap that
    changed can reclassify every page). A file that changed since its decision is left
    out (the next batch writes it). ``progress(done, total)`` counts on from
    ``done_before`` files read earlier in the pass."""
    unread = [p for p, item in changes.items() if item is not None and item.served and p not in texts]
    total = done_before + len(unread)
    for done, (relpath, again, made) in enumerate(reader.read_prepared(unread), start=done_before + 1):
        item = changes[relpath]
        if isinstance(again, WikiDocument) and item is not None and again.meta.revision == item.meta.revision:
            texts[relpath] = again
            if made is not None:
                prepared[relpath] = made
        if progress is not None:
            progress(done, total)


class InThread:
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
