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
import threading
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
#: The corpus rules take about this share of the reading's time, and adding the
#: documents to the indexes about this one (measured on the shared corpora and the
#: synthetic wiki, where the steps after reading took 0.4-0.8 of it in all).
RULES_SHARE = 0.2
WRITING_SHARE = 0.22
#: Committing takes about this share of the time adding the documents took.
COMMIT_SHARE = 0.8
#: The steps after reading, as a share of the reading's time: the estimate made while
#: reading includes them, so it is the time to the end of the pass.
AFTER_READING = RULES_SHARE + WRITING_SHARE * (1 + COMMIT_SHARE)


class ProgressLog:
    """``progress(done, total)`` as log lines, for a stderr that is not a terminal
    (Docker, systemd, ``--log-format json``): one line when a large pass starts, then
    one every :data:`PROGRESS_INTERVAL_S` seconds with files done, rate and the time left
    to the end of the pass (reading, then the steps after it).

    The indexer names the steps after reading (:meth:`phase`: ``rules``, ``writing``,
    ``committing``, then ``done``), and ``sitemap`` before it while a configured sitemap
    is read the first time (no estimate then: nothing is counted yet); each is announced,
    and with ``beat`` a thread adds a line whenever none was written for an interval, until the pass is done — so a pass
    says something at least every interval, whatever step it is in. A step that runs past
    its estimate says so (``N s past the estimate, still committing``; ``over_s`` in JSON)
    instead of counting down to "0 s left".

    In JSON the figures are keys too: ``event`` ``"progress"``, ``phase`` (the label,
    lower case), ``step`` (``reading``, ``rules``, ``writing``, ``committing``),
    ``done``, ``total`` (files, or documents while writing), ``rate_per_s`` (files per
    second), ``eta_s`` (seconds) and, past a step's estimate, ``over_s`` (seconds).

    Args:
        label: what is running, e.g. ``Indexing``.
        logger: where the lines go.
        threshold: passes over fewer files say nothing when they start.
        interval_s: seconds between lines.
        clock: monotonic seconds (a parameter for tests).
        beat: start the thread that writes a line when none came for an interval
            (stopped by ``phase("done")`` or :meth:`close`).
    """

    def __init__(self, label: str, logger: logging.Logger, *, threshold: int = 200,
                 interval_s: float = PROGRESS_INTERVAL_S, clock: Callable[[], float] = time.monotonic,
                 beat: bool = False) -> None:
        self.label, self.logger, self.threshold, self.interval_s = label, logger, threshold, interval_s
        self._clock = clock
        self._beat = beat
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        self._started: float | None = None
        self._next = 0.0
        self._step, self._step_started = "reading", 0.0
        self._done, self._total = 0, 0
        #: What the step's count stood at when it started (None: not counted yet).
        self._first: int | None = None
        #: :meth:`weigh`'s figures: (weight before the last file, weight done, total
        #: weight, the file count they go with); the step's weight when it started.
        self._weight: tuple[float, float, float, int] | None = None
        self._weight_first = 0.0
        self._read_s = 0.0
        self._writing_s = 0.0
        self._last_line = 0.0

    def __call__(self, done: int, total: int) -> None:
        with self._lock:
            now = self._clock()
            self._done, self._total = done, total
            if self._started is None:
                self._begin(now)
            if self._step == "sitemap":  # files are counted as they are read
                self._step = "reading"
            if self._first is None:
                # The step's first count starts its clock: rates are of what it did since.
                self._first, self._step_started, self._next = done - 1, now, now + self.interval_s
                self._weight_first = self._weight[0] if self._weight is not None else 0.0
                if self._step == "reading" and total >= self.threshold:
                    self._line(now, "%s: reading %d files", self.label, total)
                return
            if now < self._next or done >= total:
                return
            self._report(now)

    def phase(self, step: str, total: int = 0) -> None:
        """The pass went on to ``step`` (``rules``, ``writing``, ``committing``; ``done``
        ends it), with ``total`` items to count (0: not counted)."""
        with self._lock:
            now = self._clock()
            if self._started is None:
                self._begin(now)
            if self._step == "reading":
                self._read_s = now - self._step_started
            elif self._step == "writing":
                self._writing_s = now - self._step_started
            self._step, self._step_started, self._done, self._total = step, now, 0, total
            self._first, self._weight = None, None
            if step == "done":
                self._stopped.set()
                return
            if step == "reading":  # reading again: its first count says so
                return
            if step == "sitemap":
                self._report(now)
                return
            if now - self._since() >= self.interval_s or self._total >= self.threshold:
                self._report(now)

    def weigh(self, done: float, total: float, files: int) -> None:
        """What the ``files`` files read so far weigh (``done``, e.g. their bytes) of what
        the whole step weighs (``total``); called before ``progress(files, total_files)``.
        The reading estimate then follows the rate of this weight rather than of the file
        count: a site's files differ a hundredfold in cost, and are not read in a random
        order (the reader processes take the languages with segmenters first). Ignored
        for a count it was not given with (a second read in the step)."""
        with self._lock:
            before = self._weight[1] if self._weight is not None else 0.0
            self._weight = (before, float(done), float(total), files)

    def close(self) -> None:
        """Stop the thread of ``beat`` (idempotent)."""
        self._stopped.set()

    def tick(self) -> None:
        """Write a line if none was written for an interval (the thread of ``beat``
        calls this; tests call it with their clock)."""
        with self._lock:
            now = self._clock()
            # A little early, so that with the thread's ticks (a tenth of an interval
            # apart) no gap between two lines exceeds the interval.
            quiet = now - self._last_line >= 0.8 * self.interval_s
            if self._started is not None and not self._stopped.is_set() and quiet:
                self._report(now)

    def left_s(self, now: float) -> float:
        """Seconds to the end of the pass, estimated now."""
        elapsed = now - self._step_started
        if self._step == "reading":
            weight = self._weight
            if weight is not None and weight[3] == self._done and weight[2] > 0:
                rate = (weight[1] - self._weight_first) / max(elapsed, 1e-6)
                left = weight[2] - weight[1]
            else:
                rate = (self._done - (self._first or 0)) / max(elapsed, 1e-6)
                left = self._total - self._done
            reading = elapsed + (left / rate if rate > 0 else 0.0)
            return max(0.0, reading - elapsed) + AFTER_READING * reading
        if self._step == "writing" and self._done * 10 >= self._total > 0:  # its own rate, once it has one
            writing = elapsed * self._total / self._done
            return max(0.0, writing - elapsed) + COMMIT_SHARE * writing
        if self._step == "committing" and self._writing_s:
            return max(0.0, COMMIT_SHARE * self._writing_s - elapsed)
        # Rules, or the first tenth of writing: what is left of the rules' share, then
        # writing and committing (their shares, however long the rules took).
        if self._step == "rules":
            return max(0.0, RULES_SHARE * self._read_s - elapsed) + WRITING_SHARE * (1 + COMMIT_SHARE) * self._read_s
        return max(0.0, WRITING_SHARE * self._read_s - elapsed) + COMMIT_SHARE * WRITING_SHARE * self._read_s

    def over_s(self, now: float) -> float:
        """Seconds the current step has run past its own estimate (0 while within it, and
        always 0 while reading, whose estimate follows its measured rate)."""
        elapsed = now - self._step_started
        if self._step == "writing" and self._done * 10 >= self._total > 0:
            return 0.0  # its own rate: the estimate moves with it
        if self._step == "committing" and self._writing_s:
            return max(0.0, elapsed - COMMIT_SHARE * self._writing_s)
        if self._step == "rules":
            return max(0.0, elapsed - RULES_SHARE * self._read_s)
        if self._step in ("writing", "committing"):
            share = WRITING_SHARE if self._step == "writing" else COMMIT_SHARE * WRITING_SHARE
            return max(0.0, elapsed - share * self._read_s)
        return 0.0

    # -- internals -----------------------------------------------------------------------

    def _since(self) -> float:
        return self._clock() if self._started is None else self._started

    def _begin(self, now: float) -> None:
        self._started = self._step_started = self._last_line = now
        self._next = now + self.interval_s
        if self._beat and self._thread is None:
            self._thread = threading.Thread(target=self._beats, name="kp-progress", daemon=True)
            self._thread.start()

    def _beats(self) -> None:
        while not self._stopped.wait(self.interval_s / 10):
            self.tick()

    def _line(self, now: float, message: str, *args: object, **figures: object) -> None:
        self._last_line, self._next = now, now + self.interval_s
        self.logger.info(message, *args, extra={"event": "progress", "phase": self.label.lower(),
                                                "step": self._step, "done": self._done, "total": self._total,
                                                **figures})

    def _report(self, now: float) -> None:
        eta = self.left_s(now)
        if self._step == "reading":
            elapsed = max(now - self._step_started, 1e-6)
            rate = (self._done - (self._first or 0)) / elapsed
            self._line(now, "%s: %d of %d files read (%d%%), %.1f files/s, about %.0f s left", self.label,
                       self._done, self._total, 100 * self._done // max(self._total, 1), rate, eta,
                       rate_per_s=round(rate, 1), eta_s=round(eta))
            return
        if self._step == "sitemap":
            # Before any file is listed: no rate to estimate the pass from.
            self._line(now, "%s: reading the sitemap (%.0f s in this step)", self.label, now - self._step_started)
            return
        what = {"rules": "corpus rules", "writing": "writing the indexes",
                "committing": "committing the indexes"}.get(self._step, self._step)
        counted = f", {self._done} of {self._total} documents" if self._total else ""
        over = self.over_s(now)
        if round(eta) < 1:
            # The estimate is used up and the step goes on: say so rather than "0 s left".
            self._line(now, "%s: %s%s (%.0f s in this step), %.0f s past the estimate, still %s", self.label,
                       what, counted, now - self._step_started, over, self._step, eta_s=0, over_s=round(over))
        elif over >= 1:
            self._line(now, "%s: %s%s (%.0f s in this step, %.0f s past its estimate), about %.0f s left after it",
                       self.label, what, counted, now - self._step_started, over, eta, eta_s=round(eta),
                       over_s=round(over))
        else:
            self._line(now, "%s: %s%s (%.0f s in this step), about %.0f s left", self.label, what, counted,
                       now - self._step_started, eta, eta_s=round(eta))
