"""A stop signal held back across the steps that must not be cut in two (provider.interrupts)."""

from __future__ import annotations

import threading

import pytest

from provider.interrupts import interrupt, uninterrupted


class Stop(BaseException):
    pass


def test_outside_a_block_the_stop_is_raised_at_once() -> None:
    with pytest.raises(Stop):
        interrupt(Stop())


def test_inside_a_block_the_stop_waits_for_its_end() -> None:
    steps: list[str] = []
    with pytest.raises(Stop) as raised, uninterrupted():
        interrupt(Stop("first"))
        steps.append("after the signal")
        with uninterrupted():
            interrupt(Stop("second"))  # a second signal while stopping: the first is kept
            steps.append("nested")
        steps.append("after the nested block")  # the inner end does not release it
    assert steps == ["after the signal", "nested", "after the nested block"]
    assert raised.value.args == ("first",)
    with uninterrupted():
        pass  # nothing left pending


def test_the_stop_wins_over_an_error_of_the_block() -> None:
    with pytest.raises(Stop) as raised, uninterrupted():
        interrupt(Stop())
        raise OSError("the fork failed")
    assert isinstance(raised.value.__context__, OSError)


def test_other_threads_are_not_held_back() -> None:
    seen: list[BaseException] = []

    def run() -> None:
        try:
            with uninterrupted():
                interrupt(Stop())
        except Stop as stop:
            seen.append(stop)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert len(seen) == 1
