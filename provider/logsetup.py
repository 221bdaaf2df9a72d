"""Logging: plain lines or JSON lines, on standard error.

The access log (logger ``provider.access``) writes one line per request with status,
duration, registration name, result count and a digest of ``X-Helpthread-Request``;
in JSON those are separate keys. Nothing logged carries a secret, a signature, a nonce
or query text (CONTRACT A6, O2) — at any level, debug included. Request paths are
logged with control characters escaped, so a request cannot forge log lines.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable

__all__ = ["LOG_FORMATS", "PROGRESS_INTERVAL_S", "ProgressLog", "received_signal", "setup_logging"]

LOG_FORMATS = ("plain", "json")
_PLAIN = "%(asctime)s %(levelname)-7s [%(process)d] %(name)s: %(message)s"
#: Libraries whose debug output is noise for an operator (markdown-it logs every rule).
_QUIET = ("markdown_it", "watchfiles.main", "httpx", "httpcore", "asyncio")


#: uvicorn's start and stop chatter (several lines per worker); debug only, so a start
#: and a stop are each announced by one line of ours.
_UVICORN_LIFECYCLE = frozenset({
    "Started server process [%d]", "Waiting for application startup.", "Application startup complete.",
    "Uvicorn running on %s://%s:%d (Press CTRL+C to quit)", "Shutting down", "Waiting for application shutdown.",
    "Application shutdown complete.", "Finished server process [%d]", "Waiting for connections to close. "
    "(CTRL+C to force quit)", "Waiting for background tasks to complete. (CTRL+C to force quit)",
})
_UVICORN_LIFECYCLE_PREFIXES = ("Started parent process", "Stopping parent process", "Waiting for child process",
                               "Terminated child process", "Received SIGINT", "Received SIGTERM", "Uvicorn running on")


_received: list[str] = []


def received_signal() -> str | None:
    """The signal uvicorn's ``--workers`` supervisor said it stopped on (it takes the
    signal for itself and only logs it), or ``None``."""
    return _received[-1] if _received else None


class _QuietLifecycle(logging.Filter):
    """uvicorn's lifecycle lines become debug lines."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name != "uvicorn.error" or record.levelno != logging.INFO:
            return True
        text = str(record.msg)
        if text.startswith("Received SIG"):
            _received.append(text.split()[1].rstrip(",."))
        if text in _UVICORN_LIFECYCLE or text.startswith(_UVICORN_LIFECYCLE_PREFIXES):
            if logging.getLogger().level > logging.DEBUG:
                return False
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


class _DropColor(logging.Filter):
    """uvicorn attaches an ANSI-coloured copy of each message; JSON lines drop it."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.__dict__.pop("color_message", None)
        return True


def setup_logging(level: str = "info", fmt: str = "plain") -> None:
    """Configure the root logger (replacing earlier handlers).

    Args:
        level: ``debug``, ``info``, ``warning`` or ``error``.
        fmt: ``plain``, or ``json``: one object per line (python-json-logger) with an
            ISO 8601 UTC ``timestamp``, ``level``, ``process``, ``name``, ``message`` and
            the access log's fields as keys.
    """
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        from pythonjsonlogger.json import JsonFormatter

        handler.setFormatter(JsonFormatter("%(levelname)s %(process)d %(name)s %(message)s",
                                           rename_fields={"levelname": "level"}, timestamp=True))
        handler.addFilter(_DropColor())
    else:
        handler.setFormatter(logging.Formatter(_PLAIN))
    handler.addFilter(_QuietLifecycle())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    for name in _QUIET:
        logging.getLogger(name).setLevel(max(root.level, logging.INFO))


#: Seconds between two progress lines.
PROGRESS_INTERVAL_S = 5.0


class ProgressLog:
    """``progress(done, total)`` as log lines, for a stderr that is not a terminal
    (Docker, systemd, ``--log-format json``): one line when a large pass starts, then
    one every :data:`PROGRESS_INTERVAL_S` seconds with files done, rate and ETA.

    In JSON the figures are keys too: ``event`` ``"progress"``, ``phase`` (the label,
    lower case), ``done``, ``total`` (files), ``rate_per_s`` (files per second) and
    ``eta_s`` (seconds).

    Args:
        label: what is running, e.g. ``Indexing``.
        logger: where the lines go.
        threshold: passes over fewer files say nothing when they start.
        interval_s: seconds between lines.
        clock: monotonic seconds (a parameter for tests).
    """

    def __init__(self, label: str, logger: logging.Logger, *, threshold: int = 200,
                 interval_s: float = PROGRESS_INTERVAL_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.label, self.logger, self.threshold, self.interval_s = label, logger, threshold, interval_s
        self._clock = clock
        self._started: float | None = None
        self._next = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = self._clock()
        if self._started is None:
            self._started, self._next = now, now + self.interval_s
            if total >= self.threshold:
                self.logger.info("%s: reading %d files", self.label, total,
                                 extra={"event": "progress", "phase": self.label.lower(), "done": 0, "total": total})
        if now < self._next or done >= total:
            return
        self._next = now + self.interval_s
        elapsed = max(now - self._started, 1e-6)
        rate = done / elapsed
        eta = (total - done) / rate if rate > 0 else 0.0
        self.logger.info("%s: %d of %d files read (%d%%), %.1f files/s, about %.0f s left", self.label, done, total,
                         100 * done // max(total, 1), rate, eta,
                         extra={"event": "progress", "phase": self.label.lower(), "done": done, "total": total,
                                "rate_per_s": round(rate, 1), "eta_s": round(eta)})
