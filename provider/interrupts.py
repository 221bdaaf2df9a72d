"""Steps of the main thread that a stop signal must not cut in two.

The commands turn SIGINT and SIGTERM into an exception raised in the main thread (see
``provider.startup._stops_cleanly``), wherever it happens to be. Raised while
:meth:`multiprocessing.Process.start` waits for the forkserver to fork a reader, it left a
child that the reader did not know of: the process exited, its queues' named semaphores
were unlinked, and the child, still unpickling its arguments, printed a
``FileNotFoundError`` traceback (seen on most stops in the first second of an ``index``
under load). Inside :func:`uninterrupted`, the stop is held back and raised when the
step ends, so every process started is one its owner will stop.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["interrupt", "uninterrupted"]

_depth = 0
_pending: BaseException | None = None


@contextmanager
def uninterrupted() -> Iterator[None]:
    """Hold back :func:`interrupt` in the main thread until the block ends, then raise
    what it held back (also when the block ends with an error of its own). Nested
    blocks release it at the outermost end. In other threads: no effect (signal
    handlers run in the main thread only)."""
    global _depth, _pending
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0 and _pending is not None:
            held, _pending = _pending, None
            raise held  # the stop wins over an error of the block (kept as its context)


def interrupt(stop: BaseException) -> None:
    """Raise ``stop`` now, or at the end of the main thread's current
    :func:`uninterrupted` block (from a signal handler: the first stop is kept)."""
    global _pending
    if _depth:
        if _pending is None:
            _pending = stop
        return
    raise stop
