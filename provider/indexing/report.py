"""What one sync did and what the index now holds (:class:`SyncReport`), and the
figures a pass keeps of its own steps."""

from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..wiki.files import Skipped
from .manifest import Manifest

__all__ = ["FILE_WEIGHT", "Progress", "SyncReport", "stage", "summarize", "took", "warn", "weighing"]

#: ``progress(done, total)`` — called while files are read during a sync (and while
#: documents are written, after :func:`stage` said ``writing``).
Progress = Callable[[int, int], None]


def stage(progress: Progress | None, step: str, total: int = 0) -> bool:
    """Tell ``progress`` that the pass went on to ``step`` (``rules``, ``writing``,
    ``committing``; ``done`` ends the pass), with ``total`` items it will count (0: none),
    when it listens (a ``phase(step, total)`` method, as
    :class:`~provider.logsetup.ProgressLog` has): progress lines then cover every step,
    not only reading. Returns whether it listens (only then does it count the
    documents written: a bare ``progress(done, total)`` counts files read)."""
    listener = getattr(progress, "phase", None)
    if callable(listener):
        listener(step, total)
        return True
    return False


#: What a file costs to read beyond its bytes, in bytes of text: the reading estimate
#: weighs each file as its size plus this (:func:`weighing`).
FILE_WEIGHT = 2048


def weighing(progress: Progress | None, root: Path, relpaths: Sequence[str]) -> Callable[[str, int], None] | None:
    """When ``progress`` listens to weights (a ``weigh(done, total, files)`` method, as
    :class:`~provider.logsetup.ProgressLog` has), a function to call with each file read
    and the count of files read with it, before ``progress(count, total)``: it tells
    ``progress`` the weight read so far — each file's size in bytes plus
    :data:`FILE_WEIGHT` — of the weight of all of ``relpaths`` (under ``root``). ``None``
    when ``progress`` does not listen."""
    listener = getattr(progress, "weigh", None)
    if not callable(listener):
        return None
    sizes: dict[str, int] = {}
    for relpath in relpaths:
        try:
            sizes[relpath] = (root / relpath).stat().st_size + FILE_WEIGHT
        except OSError:  # gone: read as such, at about a file's cost
            sizes[relpath] = FILE_WEIGHT
    total, done = sum(sizes.values()), 0

    def read(relpath: str, count: int) -> None:
        nonlocal done
        done += sizes.get(relpath, FILE_WEIGHT)
        listener(done, total, count)

    return read


@dataclass
class SyncReport:
    """What one sync did and what the index now holds.

    Attributes:
        build: the name of the build served after the sync.
        rebuilt: whether a new build was made aside and swapped in.
        read: files read and parsed in this pass.
        written: documents added or replaced in either index.
        removed: documents removed from either index.
        duration_s: wall time of the pass, in seconds.
        skipped: every file not indexed, with the reason.
        warnings: per file, the problems found in it (every indexed file, read in this pass
            or before).
        problems: per file, corpus-level problems (e.g. a duplicate documentId).
        by_audience: servable documents per effective audience.
        by_locale: servable documents per locale.
        drafts: documents not served: drafts and every other withheld document.
        withheld_by: the same by kind of reason (:mod:`provider.wiki.reasons`).
        quarantined: files on which the provider failed closed because of an error in
            them or in what they depend on (see ``knowledge-provider check``).
        generation: the build's commit counter after the sync.
        last_scan: Unix time of the last completed full scan.
        timings: wall time of each step of the pass, in seconds (printed by
            ``bench/build.py``).
        side_writer_cpu_s: CPU seconds of the process that wrote the public index of a
            cold build, or the agent index of a large batch, beside this one (0.0:
            written in this process).
    """

    build: str = ""
    rebuilt: bool = False
    read: int = 0
    written: int = 0
    removed: int = 0
    duration_s: float = 0.0
    skipped: list[Skipped] = field(default_factory=list)
    warnings: dict[str, list[str]] = field(default_factory=dict)
    problems: dict[str, list[str]] = field(default_factory=dict)
    by_audience: Counter[str] = field(default_factory=Counter)
    by_locale: Counter[str] = field(default_factory=Counter)
    drafts: int = 0
    withheld_by: Counter[str] = field(default_factory=Counter)
    quarantined: list[str] = field(default_factory=list)
    generation: int = 0
    last_scan: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)
    side_writer_cpu_s: float = 0.0

    @property
    def changed(self) -> bool:
        return bool(self.written or self.removed or self.rebuilt)


def took(report: SyncReport, step: str, started: float) -> None:
    """Add the wall time since ``started`` (``time.monotonic()``) to ``step``'s timing."""
    report.timings[step] = report.timings.get(step, 0.0) + time.monotonic() - started


def warn(report: SyncReport, relpath: str, warnings: list[str]) -> None:
    """Add ``warnings`` about ``relpath`` to the report, each once."""
    if warnings:
        known = report.warnings.setdefault(relpath, [])
        known.extend(w for w in warnings if w not in known)


def summarize(report: SyncReport, manifest: Manifest) -> None:
    """Fill in what the index now holds, from the manifest and its kept decisions."""
    report.skipped = manifest.skipped_list()
    report.generation = manifest.generation
    report.last_scan = manifest.last_scan
    # Kept with the decisions (the rules' tally), not counted again over the corpus.
    tally = manifest.rules.tally
    # A list per document with any (28,500 of the 50,000 bench documents have
    # problems): built in C (a generator building them was ~60 % of a one-file
    # update's summary at 50,000 in a profile), and without the collector's passes
    # those allocations trigger. The lists make no cycles: reference counting frees
    # them.
    paused = gc.isenabled()
    gc.disable()
    try:
        # Every document's warnings, not only those read in this pass: a restart that
        # reads nothing reports the same problems as the build that found them (its
        # own warnings, then its citation URL's), merged with what this pass found.
        for relpath in sorted(tally.warnings.keys() | tally.url_warnings.keys()):
            own = tally.warnings.get(relpath, ())
            kept = [*own, *(w for w in tally.url_warnings.get(relpath, ()) if w not in own)]
            found = report.warnings.get(relpath, ())
            report.warnings[relpath] = [*kept, *(w for w in found if w not in kept)]
        report.problems.update(zip(tally.problems.keys(), map(list, tally.problems.values()), strict=True))
    finally:
        if paused:
            gc.enable()
    report.quarantined = sorted(tally.quarantined)
    report.drafts = tally.withheld
    report.withheld_by = Counter(tally.withheld_by)
    report.by_audience = Counter(tally.by_audience)
    report.by_locale = Counter(tally.by_locale)
