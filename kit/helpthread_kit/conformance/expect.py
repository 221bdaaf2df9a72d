"""Judging answers: one check usually tries several variants and reports every miss."""

from __future__ import annotations

from collections.abc import Collection

from .session import Exchange
from .verdicts import Failed

__all__ = ["Tally"]


class Tally:
    """Collects the variants of one check that did not answer as required.

    Usage::

        tally = Tally()
        tally.expect("t=now-310", exchange, 401, {"stale_timestamp"})
        return tally.verdict("both answered 401 stale_timestamp")
    """

    def __init__(self) -> None:
        self.misses: list[str] = []
        self.tried = 0

    def expect(
        self, label: str, exchange: Exchange, statuses: int | Collection[int], codes: Collection[str] = ()
    ) -> bool:
        """Record whether ``exchange`` answered one of ``statuses`` (and, for errors, one of
        ``codes`` when any are given). Returns ``True`` when it did."""
        self.tried += 1
        wanted = {statuses} if isinstance(statuses, int) else set(statuses)
        if exchange.status in wanted and (not codes or exchange.error_code in codes):
            return True
        expected = " or ".join(str(s) for s in sorted(wanted))
        if codes:
            expected += " " + "/".join(sorted(codes))
        self.misses.append(f"{label}: answered {exchange.describe()}, expected {expected}")
        return False

    def miss(self, description: str) -> None:
        """Record a miss found by other means."""
        self.tried += 1
        self.misses.append(description)

    def verdict(self, passed: str, *, own: bool = False) -> str:
        """Return ``passed`` when nothing missed.

        Args:
            own: the misses are the check's own subject (``Failed.own``).

        Raises:
            Failed: listing every miss.
        """
        if self.misses:
            raise Failed("; ".join(self.misses), self.misses, own=own)
        return passed
