"""Front matter dates → aware UTC date-times.

Front matter dates arrive as YAML dates and date-times, TOML date-times (offset or
local), or ISO 8601 strings. A date without a time means midnight UTC of that day;
a date-time without an offset is taken as UTC.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

__all__ = ["DATED_NAME", "not_a_date", "parse_date", "post_group"]

#: ``2024-01-31-my-title`` (Jekyll posts, Docusaurus blog posts).
DATED_NAME = re.compile(r"(?P<date>\d{4}-\d{2}-\d{2})-(?P<slug>.+)")


_ONE_DIGIT = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:([ T])(\d{1,2}):(\d{2}))?")


def _padded(match: re.Match[str]) -> str:
    year, month, day, sep, hour, minute = match.groups()
    date = f"{year}-{int(month):02d}-{int(day):02d}"
    return date if sep is None else f"{date}{sep}{int(hour):02d}:{minute}"


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
        # Jekyll (Ruby's Time.parse) also takes one-digit months, days and hours:
        # "2013-11-22 5:00:00 +0000".
        text = _ONE_DIGIT.sub(_padded, text, count=1)
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


def post_group(path: str, posts_folder: str) -> str | None:
    """The translation-group key of a dated post without its month and day:
    ``news/_posts/2013-11-22-ruby-2-0-0-p353-released`` → ``news/_posts/2013/ruby-2-0-0-p353-released``,
    so a translation posted a day later (same slug, same year) is in the original's group;
    ``None`` for a path that is not a dated post in ``posts_folder``."""
    folder, _, name = path.rpartition("/")
    if not posts_folder or posts_folder not in folder.split("/"):
        return None
    dated = DATED_NAME.fullmatch(name)
    if dated is None:
        return None
    return f"{folder}/{dated['date'][:4]}/{dated['slug']}"


def not_a_date(key: str, raw: Any) -> str:
    """The message for a front matter date that :func:`parse_date` cannot read: the key,
    the value as written (up to 40 characters) and the forms that are read."""
    shown = str(raw)
    shown = shown if len(shown) <= 40 else shown[:39] + "…"
    return (f"front matter {key} {shown!r} is not a date (write YYYY-MM-DD, or an ISO 8601 date-time such as "
            "2026-03-01T09:30:00+01:00)")
