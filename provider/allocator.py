"""Handing freed memory back to the system, and fewer malloc arenas per process (issue 27).

CPython's objects live in memory glibc's ``malloc`` hands out. Memory freed after a large
piece of work (the writer's first build, a worker's warm-up) stays in the process's heap
for later allocations unless ``malloc_trim`` returns it; and glibc gives each thread that
allocates at once its own *arena* (up to 8 per core), each keeping its own freed memory,
so a worker whose search threads build and drop large postings lists holds the high-water
mark of every thread's arena. Two arenas serve a Python process as well as many (the GIL
runs one thread's Python code at a time).

* :func:`limit_arenas` — at most :data:`ARENAS` arenas in this process (``mallopt``),
  and in every process it starts from now on (``MALLOC_ARENA_MAX``, read by glibc when
  a process starts), unless the environment already sets ``MALLOC_ARENA_MAX``;
* :func:`trim` — ``malloc_trim(0)``: the heap's free pages back to the system;
* :func:`release` — a full garbage collection, then :func:`trim`.

Both do nothing where the C library is not glibc (musl, macOS): there is no such knob.
"""

from __future__ import annotations

import ctypes
import gc
import os
import platform
from functools import cache
from typing import Any

__all__ = ["ARENAS", "ARENA_ENV", "limit_arenas", "release", "trim"]

#: malloc arenas per process (glibc's default: 8 per core).
ARENAS = 2
#: the environment variable glibc reads at a process's start for the same limit
ARENA_ENV = "MALLOC_ARENA_MAX"
#: ``mallopt``'s parameter number for the arena limit (glibc's ``malloc.h``)
_M_ARENA_MAX = -8


@cache
def _glibc() -> Any:
    """This process's C library when it is glibc, else ``None``."""
    if platform.libc_ver()[0] != "glibc":
        return None
    try:
        return ctypes.CDLL(None)
    except OSError:
        return None


def limit_arenas() -> bool:
    """At most ``$MALLOC_ARENA_MAX`` (default :data:`ARENAS`) malloc arenas in this process
    and the processes it starts later (their environment gets ``MALLOC_ARENA_MAX``).

    Call it before the threads start: an arena already made stays. An operator's own
    ``MALLOC_ARENA_MAX`` is kept. Returns whether the limit applies to this process
    (``False``: not glibc, or ``mallopt`` refused)."""
    libc = _glibc()
    if libc is None:
        return False
    limit = os.environ.setdefault(ARENA_ENV, str(ARENAS))
    try:
        return bool(libc.mallopt(_M_ARENA_MAX, int(limit)))
    except ValueError:
        return False  # not a number: glibc ignores it at the next start too


def trim() -> bool:
    """Give the free memory of every arena of this process's heap back to the system
    (``malloc_trim(0)``). Costs a few milliseconds to a few tens on a large heap: for
    after a large piece of work, not per request. Returns whether memory was given back
    (``False``: nothing to give back, or not glibc)."""
    libc = _glibc()
    return libc is not None and bool(libc.malloc_trim(0))


def release() -> bool:
    """Collect garbage (every generation), then :func:`trim`; returns what it returns."""
    gc.collect()
    return trim()
