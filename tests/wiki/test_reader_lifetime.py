"""Reader processes live only while there is reading to do (issue 27: two idle reader
processes held ~575 MB each on a multilingual site after its build)."""

from __future__ import annotations

from pathlib import Path

import pytest

from provider.indexing.units import prepare
from provider.wiki.document import WikiDocument, WikiSettings
from provider.wiki.reader import DocumentReader


def _pages(root: Path, count: int) -> list[str]:
    names = []
    for i in range(count):
        name = f"page-{i}.md"
        (root / name).write_text(f"---\ntitle: Page {i}\n---\n# Page {i}\n\nSome text about topic {i}.\n", "utf-8")
        names.append(name)
    return names


@pytest.mark.timeout(120)
def test_reader_processes_end_when_a_batch_is_read_and_come_back_for_the_next(tmp_path: Path) -> None:
    names = _pages(tmp_path, 6)
    reader = DocumentReader(WikiSettings(root=tmp_path), processes=2, prepare=prepare)
    try:
        seen = []
        for relpath, outcome, made in reader.read_prepared(names[:3]):
            assert isinstance(outcome, WikiDocument) and made is not None, relpath
            seen.extend(w.process for w in reader._workers)
        assert seen, "the batch was read by reader processes"
        # Between batches: no reader process left, none alive.
        assert reader._workers == []
        assert not any(process.is_alive() for process in seen)
        # The next batch starts its own, and reads as well as the first.
        second = {relpath: outcome for relpath, outcome in reader.read(names[3:])}
        assert sorted(second) == names[3:] and all(isinstance(d, WikiDocument) for d in second.values())
        assert reader._workers == []
    finally:
        reader.close()


@pytest.mark.timeout(120)
def test_a_batch_left_half_read_stops_its_reader_processes(tmp_path: Path) -> None:
    names = _pages(tmp_path, 4)
    reader = DocumentReader(WikiSettings(root=tmp_path), processes=1)
    try:
        batch = reader.read(names)
        next(batch)
        started = [w.process for w in reader._workers]
        batch.close()  # the caller stopped reading (an error in the pass)
        assert reader._workers == [] and not any(process.is_alive() for process in started)
    finally:
        reader.close()


class _QueueFailsOnce:
    """A multiprocessing context whose first ``Queue()`` fails as it does when the
    resource tracker is gone (a saturated machine in CI): BrokenPipeError."""

    def __init__(self, real: object) -> None:
        self._real, self.failed = real, False

    def __getattr__(self, name: str) -> object:
        return getattr(self._real, name)

    def Queue(self) -> object:
        if not self.failed:
            self.failed = True
            raise BrokenPipeError(32, "Broken pipe")
        return self._real.Queue()  # type: ignore[attr-defined]


@pytest.mark.timeout(120)
def test_a_results_queue_that_fails_to_be_made_is_made_again_for_the_next_batch(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch whose results queue cannot be made fails; the next batch reads every file
    (before: the reader kept a context without a queue, and every later batch started
    reader processes with none — indexing failed until a restart)."""
    import provider.wiki.reader as reader_module

    real = reader_module._context
    contexts: list[_QueueFailsOnce] = []
    monkeypatch.setattr(reader_module, "_context",
                        lambda prepare: contexts.append(_QueueFailsOnce(real(prepare))) or contexts[-1])
    names = _pages(tmp_path, 3)
    reader = DocumentReader(WikiSettings(root=tmp_path), processes=1, prepare=prepare)
    try:
        with pytest.raises(BrokenPipeError):
            list(reader.read(names))
        contexts.append(_QueueFailsOnce(real(prepare)))
        contexts[-1].failed = True  # the tracker is back: the next queue is made
        monkeypatch.setattr(reader_module, "_context", lambda prepare: contexts[-1])
        again = dict(reader.read(names))
        assert sorted(again) == names and all(isinstance(d, WikiDocument) for d in again.values())
    finally:
        reader.close()
