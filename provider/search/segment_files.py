"""Whoosh's compound segment files read in place from their memory map (issue 27).

A searcher opens each segment's compound file (``.seg``) through a memory map and hands
every sub-file it opens (terms, postings, columns, lengths) to a
``whoosh.filedb.structfile.BufferFile``, which wraps it in ``BytesIO(buffer)``: a copy
of the whole sub-file on the heap (whoosh-reloaded 2.7.5). Each of a worker's
``search_threads`` searchers holds its own copies, so a worker grew by a few hundred MiB
with its first queries on a 2,500-page site, memory the map already held in the page
cache, shared and reclaimable. :class:`InPlaceBufferFile` reads from the map instead:
``read(n)`` copies the ``n`` bytes asked for, nothing more; Whoosh's ``get_*`` methods
already read the buffer directly.

:func:`install` makes Whoosh's compound storage use it; the index files and the answers
are the same.
"""

from __future__ import annotations

import io
from typing import Any

from whoosh.filedb import compound
from whoosh.filedb.structfile import BufferFile

__all__ = ["InPlaceBufferFile", "install"]


class _InPlaceReader(io.RawIOBase):
    """A read-only, seekable file over a buffer (a memoryview of the map), no copy made."""

    def __init__(self, buf: Any) -> None:
        super().__init__()
        self._buf = buf
        self._pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        start = self._pos
        end = len(self._buf) if size is None or size < 0 else min(len(self._buf), start + size)
        self._pos = max(start, end)
        return bytes(self._buf[start:end])

    def readinto(self, target: Any) -> int:
        data = self.read(len(target))
        target[: len(data)] = data
        return len(data)

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence == io.SEEK_SET:
            self._pos = offset
        elif whence == io.SEEK_CUR:
            self._pos += offset
        else:
            self._pos = len(self._buf) + offset
        return self._pos

    def tell(self) -> int:
        return self._pos


class InPlaceBufferFile(BufferFile):  # type: ignore[misc]  # Whoosh is untyped
    """A ``BufferFile`` whose stream reads from its buffer in place (module docstring)."""

    def __init__(self, buf: Any, name: str | None = None, onclose: Any = None) -> None:
        super().__init__(b"", name=name, onclose=onclose)
        self._buf = buf
        self.file = _InPlaceReader(buf)

    def subset(self, position: int, length: int, name: str | None = None) -> InPlaceBufferFile:
        return InPlaceBufferFile(self.get(position, length), name=name or self._name)


def install() -> None:
    """Make Whoosh's compound segment storage open its sub-files as :class:`InPlaceBufferFile`
    (process-wide; idempotent)."""
    compound.BufferFile = InPlaceBufferFile
