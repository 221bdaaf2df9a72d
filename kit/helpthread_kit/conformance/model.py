"""What a conformance check is, and what it yields (contract §8.2).

A check is a function of a :class:`~helpthread_kit.conformance.session.Session` that either
returns the reason it passed, or raises :class:`Failed` / :class:`Skipped` with the
reason it did not. Each carries the CONTRACT.md id of the duty it tests (``A4``,
``W3``…) and a name a person can read in one line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .verdicts import Failed, Skipped, Status

if TYPE_CHECKING:
    from .session import Session

__all__ = ["Check", "CheckGroup", "Failed", "Outcome", "Skipped", "Status"]

_ID_RE = re.compile(r"[A-Z][0-9]{1,2}")


@dataclass(frozen=True)
class Outcome:
    """The result of running one check.

    Attributes:
        id: the CONTRACT.md id, e.g. ``"A4"``.
        name: what the check asserts, one line.
        status: PASS, FAIL or SKIP.
        reason: why, one line; never contains a secret.
    """

    id: str
    name: str
    status: Status
    reason: str

    @property
    def key(self) -> str:
        """A stable unique identifier: the id and a slug of the name."""
        return check_key(self.id, self.name)


def check_key(contract_id: str, name: str) -> str:
    """``"A4"``, ``"timestamps just outside the window are refused"`` →
    ``"A4-timestamps-just-outside-the-window-are-refused"``."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return f"{contract_id}-{slug}"


CheckFunction = Callable[["Session"], str]


@dataclass(frozen=True)
class Check:
    """One registered check.

    Attributes:
        id: the CONTRACT.md id of the duty.
        name: what it asserts.
        run: the check function; returns the PASS reason, raises Failed or Skipped.
        final: runs after every other check, because it judges every exchange the
            session recorded (e.g. "every answer carries contractVersion").
        depends_on: keys of checks whose failure explains this one's: when one of them
            failed, a failure of this check is reported as skipped, naming it
            (``grouping.py``). Never on an exposure check: a leak is always reported.
    """

    id: str
    name: str
    run: CheckFunction
    final: bool = False
    depends_on: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return check_key(self.id, self.name)


class CheckGroup:
    """An ordered collection of checks, one per module (auth, wire, …).

    Usage::

        checks = CheckGroup()

        @checks.register("A4", "timestamps just outside the window are refused")
        def outside_window(s: Session) -> str: ...
    """

    def __init__(self) -> None:
        self._checks: list[Check] = []

    def register(self, contract_id: str, name: str, *, final: bool = False,
                 depends_on: Sequence[str] = ()) -> Callable[[CheckFunction], CheckFunction]:
        """Decorator adding a check to this group, in source order.

        Raises:
            ValueError: ``contract_id`` does not look like a CONTRACT.md id.
        """
        if not _ID_RE.fullmatch(contract_id):
            raise ValueError(f"{contract_id!r} is not a CONTRACT.md id such as 'A4'")

        def decorator(function: CheckFunction) -> CheckFunction:
            self._checks.append(Check(contract_id, name, function, final, tuple(depends_on)))
            return function

        return decorator

    def __iter__(self) -> Iterator[Check]:
        return iter(self._checks)

    def __len__(self) -> int:
        return len(self._checks)
