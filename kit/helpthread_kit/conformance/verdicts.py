"""What a check yields (contract §8.2): its verdict, and the two exceptions a check raises
when it does not pass. A leaf module: every other module of the checker may import it.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

__all__ = ["Failed", "Skipped", "Status"]


class Status(enum.StrEnum):
    """The verdict of one check."""

    PASS = "PASS"  # noqa: S105 - a verdict, not a password
    FAIL = "FAIL"
    SKIP = "SKIP"


class Failed(Exception):
    """Raised by a check: the provider broke the duty. The message says how.

    Args:
        message: the reason, one line.
        misses: each variant that missed, when the reason lists several
            (:class:`~helpthread_kit.conformance.expect.Tally`); default: the message.
        own: the misses are the check's own subject, proven so by a baseline request
            that was answered (e.g. only hostile queries answered ``500``): never
            grouped under another failure (``grouping.py``).
    """

    def __init__(self, message: str, misses: Sequence[str] = (), *, own: bool = False) -> None:
        super().__init__(message)
        self.misses: tuple[str, ...] = tuple(misses) or (message,)
        self.own = own


class Skipped(Exception):
    """Raised by a check: it could not be judged (a missing secret, no results…).
    The message says what the operator can supply to run it."""
