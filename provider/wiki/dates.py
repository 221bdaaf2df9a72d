"""Front matter dates → aware UTC date-times.

Front matter dates arrive as YAML dates and date-times, TOML date-times (offset or
local), or ISO 8601 strings. A date without a time means midnight UTC of that day;
a date-time without an offset is taken as UTC.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

__all__ = ["DATED_NAME", "parse_date"]

#: ``2024-01-31-my-title`` (Jekyll posts, Docusaurus blog posts).
DATED_NAME = re.compile(r"(?P<date>\d{4}-\d{2}-\d{2})-(?P<slug>.+)")


def parse_date(raw: Any) -> dt.datetime | None:
    """Return ``raw`` as an aware UTC date-time, or ``None`` when it is not a date.

    Accepts ``datetime.datetime``, ``datetime.date``, and ISO 8601 strings
    (``2025-03-01``, ``2025-03-01T10:00:00Z``, ``2025-03-01 10:00:00 +02:00``).
    Values out of range once converted to UTC are ``None``, never an exception.
    """
    value: dt.datetime | None = None
    if isinstance(raw, dt.datetime):
        value = raw
    elif isinstance(raw, dt.date):
        value = dt.datetime(raw.year, raw.month, raw.day)
    elif isinstance(raw, str):
        text = raw.strip().replace("Z", "+00:00")
        # Jekyll and Hugo write "2024-01-31 10:00:00 +0100": drop the space before the offset.
        text = re.sub(r"\s+([+-]\d{2}:?\d{2})$", r"\1", text)
        try:
            value = dt.datetime.fromisoformat(text)
        except ValueError:
            value = None
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    try:
        return value.astimezone(dt.UTC)
    except OverflowError:  # e.g. 0001-01-01T00:00+05:00 is before year 1 in UTC
        return None
