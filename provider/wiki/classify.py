"""Classifying one wiki file: audience, draft, locale, translation group, id, title.

Fail closed (CONTRACT X5): a document is ``public`` only when its audience is exactly
the string ``public`` — from its front matter, or, when the front matter has no
``audience`` key, from the first operator rule whose glob matches its path. Everything
else is ``internal``: a missing key with no rule, a misspelled or differently-cased
value, a list, a number, an unreadable header, undecodable bytes.

Each decision carries the reason an operator sees in warnings and ``check`` output.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from wcmatch import glob

from .locales import find_locale_marker, normalize_tag, strip_extension
from .plaintext import clean_inline

__all__ = [
    "INTERNAL",
    "PUBLIC",
    "AudienceRule",
    "Decision",
    "decide_audience",
    "decide_doc_id",
    "decide_draft",
    "decide_locale",
    "decide_review_due",
    "decide_title",
    "decide_translation_group",
    "readable_name",
]

PUBLIC = "public"
INTERNAL = "internal"
AUDIENCES = (PUBLIC, INTERNAL)
_GLOB_FLAGS = glob.GLOBSTAR | glob.BRACE | glob.DOTGLOB
MAX_ID_CHARS = 200
_ID_OK = re.compile(r"[^\x00-\x1f\x7f]+")


@dataclass(frozen=True)
class AudienceRule:
    """An operator rule: files whose relative path matches ``pattern`` get ``audience``
    unless their front matter says otherwise.

    Attributes:
        pattern: a glob over POSIX paths relative to the content root; ``**`` matches any
            number of folders (``tutorials/**``), ``{a,b}`` alternatives.
        audience: ``public`` or ``internal``.
    """

    pattern: str
    audience: str

    def matches(self, relpath: str) -> bool:
        return bool(glob.globmatch(relpath, self.pattern, flags=_GLOB_FLAGS))


@dataclass(frozen=True)
class Decision:
    """A classified value and where it came from (shown to operators)."""

    value: Any
    source: str


def decide_audience(
    data: Mapping[str, Any], relpath: str, rules: Sequence[AudienceRule], *, unreadable: str | None
) -> Decision:
    """Decide a file's own audience (before corpus-wide rules such as duplicate ids).

    Args:
        data: the front matter mapping (empty when absent or unreadable).
        relpath: path relative to the content root.
        rules: operator rules, first match wins.
        unreadable: why the file's header or bytes could not be read, or ``None``.
    """
    if unreadable is not None:
        return Decision(INTERNAL, f"fail-closed: {unreadable}")
    if "audience" in data:
        value = data["audience"]
        if value == PUBLIC and isinstance(value, str):
            return Decision(PUBLIC, "front matter")
        if value == INTERNAL and isinstance(value, str):
            return Decision(INTERNAL, "front matter")
        return Decision(INTERNAL, "fail-closed: front matter audience is not exactly 'public' or 'internal'")
    for rule in rules:
        if rule.matches(relpath):
            return Decision(rule.audience, f"rule {rule.pattern!r}")
    return Decision(INTERNAL, "fail-closed: no audience key and no matching rule")


_FALSE_WORDS = frozenset({"false", "no", "off", "0", ""})


def _truthy_flag(value: Any) -> bool:
    """Read a flag that, when set, withholds a document: anything but an explicit
    false value counts as set (fail closed)."""
    if value is None or value is False:
        return False
    if isinstance(value, str):
        return value.strip().lower() not in _FALSE_WORDS
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value != 0
    return True


def decide_draft(data: Mapping[str, Any]) -> Decision:
    """``draft: true`` or ``published: false`` → never served (CONTRACT X5)."""
    if "draft" in data and _truthy_flag(data["draft"]):
        return Decision(True, "front matter draft")
    if "published" in data:
        published = data["published"]
        # Explicit false values only (``false``, ``no``, ``"0"``, ``0``): an unset
        # ``published:`` or another value (a date, say) does not withhold.
        if published is not None and not _truthy_flag(published):
            return Decision(True, "front matter published: false")
    return Decision(False, "")


def decide_locale(
    data: Mapping[str, Any], relpath: str, *, known_locales: Iterable[str], default_locale: str
) -> tuple[Decision, list[str]]:
    """Front matter ``locale``/``lang``/``language``, else a path marker naming a
    configured locale, else the default locale. Returns the decision and warnings."""
    warnings: list[str] = []
    for key in ("locale", "lang", "language"):
        if key in data:
            raw = data[key]
            tag = normalize_tag(raw) if isinstance(raw, str) else None
            if tag is not None:
                return Decision(tag, f"front matter {key}"), warnings
            warnings.append(f"front matter {key} is not a valid BCP 47 language tag; ignored")
            break
    marker = find_locale_marker(relpath, known_locales)
    if marker is not None:
        return Decision(marker.locale, f"path {marker.where}"), warnings
    return Decision(default_locale, "default locale"), warnings


def _plain_key(value: Any) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        text = value.strip()
        if text and len(text) <= MAX_ID_CHARS and _ID_OK.fullmatch(text):
            return text
    return None


def decide_translation_group(
    data: Mapping[str, Any], relpath: str, *, known_locales: Iterable[str]
) -> tuple[Decision, list[str]]:
    """Front matter ``translation_group`` (or Hugo's ``translationKey``), else the path
    with its locale marker and extension removed (``de/a/b.md`` and ``en/a/b.md`` → ``a/b``)."""
    warnings: list[str] = []
    for key in ("translation_group", "translationKey"):
        if key in data:
            value = _plain_key(data[key])
            if value is not None:
                return Decision(value, f"front matter {key}"), warnings
            warnings.append(f"front matter {key} is not a usable text value; ignored")
            break
    marker = find_locale_marker(relpath, known_locales)
    if marker is not None:
        return Decision(marker.stem, "path without locale marker"), warnings
    return Decision(strip_extension(relpath), "path"), warnings


def decide_doc_id(data: Mapping[str, Any], relpath: str) -> tuple[Decision, list[str]]:
    """Front matter ``id``, else the relative path without extension."""
    warnings: list[str] = []
    if "id" in data:
        value = _plain_key(data["id"])
        if value is not None:
            return Decision(value, "front matter id"), warnings
        warnings.append("front matter id is not a usable text value; the path is used instead")
    return Decision(strip_extension(relpath), "path"), warnings


def readable_name(relpath: str) -> str:
    """``billing/request-a_refund.md`` → ``Request a refund``."""
    name = relpath.rsplit("/", 1)[-1]
    stem = name.split(".", 1)[0] if not name.startswith(".") else name
    words = re.sub(r"[-_]+", " ", stem).strip()
    return (words[:1].upper() + words[1:]) if words else relpath


def decide_title(data: Mapping[str, Any], relpath: str, *, first_h1: str | None) -> tuple[Decision, list[str]]:
    """Front matter ``title`` (as plain text), else the first ``#`` heading, else a
    readable form of the file name. Never a date, list or number object."""
    warnings: list[str] = []
    if "title" in data:
        raw = data["title"]
        if isinstance(raw, str) and (text := clean_inline(raw)):
            return Decision(text, "front matter title"), warnings
        warnings.append("front matter title is not text; ignored")
    if first_h1:
        return Decision(first_h1, "first heading"), warnings
    return Decision(readable_name(relpath), "file name"), warnings


def decide_review_due(data: Mapping[str, Any]) -> tuple[Decision, list[str]]:
    """Front matter ``review_due`` as a UTC date-time, or ``None``.

    Accepts a YAML date, a YAML date-time, or an ISO 8601 string; a date means
    midnight UTC of that day.
    """
    if "review_due" not in data:
        return Decision(None, ""), []
    raw = data["review_due"]
    value: dt.datetime | None = None
    if isinstance(raw, dt.datetime):
        value = raw
    elif isinstance(raw, dt.date):
        value = dt.datetime(raw.year, raw.month, raw.day)
    elif isinstance(raw, str):
        try:
            value = dt.datetime.fromisoformat(raw.strip().replace("Z", "+00:00"))
        except ValueError:
            value = None
    if value is None:
        return Decision(None, ""), ["front matter review_due is not a date; ignored"]
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    try:
        utc = value.astimezone(dt.UTC)
    except OverflowError:  # e.g. 0001-01-01T00:00+05:00 is before year 1 in UTC
        return Decision(None, ""), ["front matter review_due is out of range; ignored"]
    return Decision(utc, "front matter review_due"), []
