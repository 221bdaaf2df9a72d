"""Progress lines for a stderr that is not a terminal (issue 16)."""

from __future__ import annotations

import logging
import re

import pytest

from provider.logsetup import AFTER_READING, ProgressLog


def test_progress_lines_give_files_done_rate_and_eta_every_interval(caplog: pytest.LogCaptureFixture) -> None:
    now = [100.0]
    progress = ProgressLog("Indexing", logging.getLogger("provider.test"), interval_s=5.0, clock=lambda: now[0])
    with caplog.at_level(logging.INFO, logger="provider.test"):
        for done in range(1, 1001):
            now[0] += 0.02  # 50 files a second
            progress(done, 1000)
    records = [r for r in caplog.records if getattr(r, "event", None) == "progress"]
    # The start, then one line per 5 s of a 20 s pass (none at the very end: the summary says it).
    # (timed from the first file's completion: a few files late)
    assert [round(r.done, -1) for r in records] == [0, 250, 500, 750]  # type: ignore[attr-defined]
    last = records[-1]
    assert last.total == 1000 and last.rate_per_s == pytest.approx(50, rel=0.01)  # type: ignore[attr-defined]
    # 5 s of reading left, then the steps after reading (AFTER_READING of its 20 s).
    assert last.eta_s == round(5 + AFTER_READING * 20)  # type: ignore[attr-defined]
    assert re.search(r"75\d of 1000 files read \(75%\), 50\.\d files/s, about 17 s left", last.getMessage())


def test_a_small_pass_says_nothing() -> None:
    logger = logging.getLogger("provider.test.small")
    lines: list[logging.LogRecord] = []
    logger.addHandler(handler := logging.Handler())
    handler.emit = lines.append  # type: ignore[method-assign]
    progress = ProgressLog("Indexing", logger)
    for done in range(1, 11):
        progress(done, 10)
    assert lines == []
