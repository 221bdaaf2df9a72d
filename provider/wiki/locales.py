"""BCP 47 language tags (via ``langcodes``) and the locale markers of wiki paths.

In the ``plain`` layout a path names a locale either by its first folder
(``de/billing/refunds.md``) or by a file-name suffix (``refunds.de.md``, ``01.de.md``);
other layouts and operators add patterns (:mod:`provider.wiki.locale_patterns`). Only
*configured* locales count as markers, so a folder such as ``it/`` means Italian only
when the operator lists ``it``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from helpthread_kit.locales import canonical_tag

from .locale_patterns import PLAIN_PATTERNS, match_locale

__all__ = ["LocaleMarker", "find_locale_marker", "normalize_tag", "strip_extension"]


def normalize_tag(value: str) -> str | None:
    """Return the canonical BCP 47 form of a tag, or ``None`` when it is not a valid tag
    (the contract layer's :func:`~helpthread_kit.locales.canonical_tag`).

    ``zh_cn`` → ``zh-CN``, ``EN`` → ``en``, ``de-at`` → ``de-AT``; ``und``, ``xx`` and
    ``english`` are refused.
    """
    return canonical_tag(value)


@dataclass(frozen=True)
class LocaleMarker:
    """A locale found in a path, and the path with the marker removed.

    Attributes:
        locale: the canonical tag, e.g. ``de``.
        where: ``"folder"`` or ``"suffix"``.
        stem: the relative path without extension and without the marker, e.g.
            ``billing/refunds`` for ``de/billing/refunds.md`` and for ``billing/refunds.de.md``.
    """

    locale: str
    where: str
    stem: str


def strip_extension(relpath: str) -> str:
    """``a/b.de.md`` → ``a/b.de``; ``a/b`` → ``a/b``."""
    folder, _, name = relpath.rpartition("/")
    base = name.rsplit(".", 1)[0] if "." in name else name
    return f"{folder}/{base}" if folder else base


def find_locale_marker(relpath: str, known_locales: Iterable[str]) -> LocaleMarker | None:
    """Find a configured locale in a path's first folder or file-name suffix (the
    ``plain`` layout's patterns, :data:`~provider.wiki.locale_patterns.PLAIN_PATTERNS`).

    Args:
        relpath: POSIX path relative to the content root.
        known_locales: canonical tags configured by the operator.

    Returns:
        The marker, or ``None`` if the path names no configured locale. When both a
        folder and a suffix name one, the suffix wins (it is the more specific).
    """
    found = match_locale(strip_extension(relpath), PLAIN_PATTERNS, known_locales)
    if found is None:
        return None
    return LocaleMarker(locale=found.locale, where=found.where, stem=found.stem)
