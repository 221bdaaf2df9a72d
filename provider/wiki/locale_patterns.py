"""Locale path patterns: where a path names its locale, and which translation it is.

A pattern is a POSIX path relative to the content root, written without the file
extension, with exactly one ``{locale}`` placeholder and exactly one ``**``:

* **folder form** — ``{locale}`` is a whole folder and ``**`` the last part:
  ``{locale}/**``, ``content/{locale}/**``,
  ``i18n/{locale}/docusaurus-plugin-content-docs/current/**``;
* **suffix form** — the last part is ``**.{locale}``: the locale is the file-name suffix
  before the extension: ``**.{locale}`` (``guide.de.md``), ``docs/**.{locale}``.

Every other part is a literal folder name (no wildcards). ``{locale}`` matches only a
*configured* locale, compared after BCP 47 normalisation (``DE``, ``de_at`` work).
``**`` matches one or more path parts; what it matched is the page's *stem*.

The translation-group key a pattern gives is the path with the locale marker removed
(``content/de/a/b`` → ``content/a/b``; ``docs/a.de`` → ``docs/a``), so translations pair
with the default-locale original at the same place. A pattern may name a **source**
instead — the default-locale tree the translations mirror, written with a final
``**`` — and then the key is the source with ``**`` replaced by the stem:
``i18n/{locale}/docusaurus-plugin-content-docs/current/**`` with source ``docs/**`` maps
``i18n/de/…/current/guide/intro`` to ``docs/guide/intro``, the key of ``docs/guide/intro.md``.

Patterns are tried in order; the first that matches wins.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from helpthread_kit.locales import canonical_tag

__all__ = [
    "PLAIN_PATTERNS",
    "LocaleMatch",
    "LocalePattern",
    "match_locale",
    "parse_locale_pattern",
]

PLACEHOLDER = "{locale}"
_WILD = re.compile(r"[*?\[\]{}\\]")


@dataclass(frozen=True)
class LocaleMatch:
    """A locale found in a path by a pattern.

    Attributes:
        locale: canonical BCP 47 tag of a configured locale.
        group: the translation-group key the path gives (see the module docstring).
        stem: what ``**`` matched.
        label: how an operator sees where the locale came from (``path suffix``,
            ``path folder`` or ``path pattern '…'``).
        where: ``"folder"`` or ``"suffix"``.
        key: the locale as the path writes it (``zh-cn`` for ``zh-CN``): the site's own
            key, which its URLs use.
    """

    locale: str
    group: str
    stem: str
    label: str
    where: str
    key: str = ""


@dataclass(frozen=True)
class LocalePattern:
    """One validated pattern; build it with :func:`parse_locale_pattern`.

    Attributes:
        pattern: the pattern text as configured.
        source: the default-locale tree it mirrors (``docs/**``), or ``None``.
    """

    pattern: str
    source: str | None = None
    _regex: re.Pattern[str] = field(default=re.compile(""), repr=False, compare=False)
    _where: str = field(default="folder", repr=False, compare=False)
    _group_prefix: str = field(default="", repr=False, compare=False)

    @property
    def label(self) -> str:
        if self.pattern == "{locale}/**":
            return "path folder"
        if self.pattern == "**.{locale}":
            return "path suffix"
        return f"path pattern {self.pattern!r}"

    def match(self, stem_path: str, known_locales: Iterable[str]) -> LocaleMatch | None:
        """Match a path *without its extension* (``content/de/a``).

        Returns ``None`` unless the pattern matches and its ``{locale}`` part names a
        configured locale.
        """
        found = self._regex.fullmatch(stem_path)
        if found is None:
            return None
        tag = canonical_tag(found["locale"])
        if tag is None or tag not in set(known_locales):
            return None
        rest = found["rest"]
        if not rest.rsplit("/", 1)[-1].strip("."):
            return None  # ``x/.de`` and ``x/..de`` name no page
        group = f"{self._group_prefix}{rest}"
        return LocaleMatch(locale=tag, group=group, stem=rest, label=self.label, where=self._where,
                           key=found["locale"])

    def to_config(self) -> str | dict[str, str]:
        """The configuration form (for messages and ``check --json``)."""
        return self.pattern if self.source is None else {self.pattern: self.source}


def _literal_parts(parts: Sequence[str], what: str) -> None:
    for part in parts:
        if part in ("", ".", ".."):
            raise ValueError(f"{what} has an empty, '.' or '..' folder")
        if _WILD.search(part):
            raise ValueError(f"{what}: folder {part!r} must be a literal name (only one ** and one {{locale}})")


def _parse_source(source: str) -> str:
    """Validate a source tree (``docs/**``) and return its prefix (``docs/``)."""
    text = source.strip()
    if PLACEHOLDER in text:
        raise ValueError(f"source {source!r} must not contain {{locale}}: it is the default-locale tree")
    parts = text.split("/")
    if text.startswith("/") or parts[-1] != "**" or text.count("**") != 1:
        raise ValueError(f"source {source!r} must be a relative folder path ending in /** (e.g. docs/**)")
    _literal_parts(parts[:-1], f"source {source!r}")
    return "".join(f"{p}/" for p in parts[:-1])


def parse_locale_pattern(pattern: str, source: str | None = None) -> LocalePattern:
    """Validate and compile a pattern (see the module docstring).

    Raises:
        ValueError: with a message saying what is wrong with the pattern.
    """
    text = pattern.strip()
    if not text:
        raise ValueError("a pattern must not be empty")
    if text.startswith("/"):
        raise ValueError(f"pattern {pattern!r} must be relative to the content folder (no leading /)")
    if text.count(PLACEHOLDER) != 1:
        raise ValueError(f"pattern {pattern!r} must contain {{locale}} exactly once")
    if text.count("**") != 1:
        raise ValueError(f"pattern {pattern!r} must contain ** exactly once (it matches the page's path)")
    if re.search(r"\.(md|mdx|markdown)$", text, re.IGNORECASE):
        raise ValueError(f"pattern {pattern!r} is written without the file extension (e.g. **.{{locale}})")
    parts = text.split("/")
    last = parts[-1]
    if last == "**.{locale}":
        _literal_parts(parts[:-1], f"pattern {pattern!r}")
        prefix = "".join(f"{re.escape(p)}/" for p in parts[:-1])
        # ``01..de`` is page 01 in German: extra dots before the locale belong to no one.
        regex = re.compile(rf"{prefix}(?P<rest>[^/].*?)(?<!/)\.+(?P<locale>[^./]+)")
        group_prefix = "".join(f"{p}/" for p in parts[:-1])
        where = "suffix"
    elif last == "**" and PLACEHOLDER in parts:
        index = parts.index(PLACEHOLDER)
        before, after = parts[:index], parts[index + 1 : -1]
        _literal_parts(before + after, f"pattern {pattern!r}")
        regex = re.compile(
            "".join(f"{re.escape(p)}/" for p in before)
            + r"(?P<locale>[^/]+)/"
            + "".join(f"{re.escape(p)}/" for p in after)
            + r"(?P<rest>.+)"
        )
        group_prefix = "".join(f"{p}/" for p in before + after)
        where = "folder"
    else:
        raise ValueError(
            f"pattern {pattern!r} must be a folder form ending in /** with {{locale}} as a whole folder "
            "(content/{locale}/**) or a suffix form ending in **.{locale} (docs/**.{locale})"
        )
    if source is not None:
        group_prefix = _parse_source(source)
    return LocalePattern(
        pattern=text, source=source.strip() if source else None, _regex=regex, _where=where, _group_prefix=group_prefix
    )


#: Today's behaviour (layout ``plain``): a file-name suffix, else the first folder.
PLAIN_PATTERNS: tuple[LocalePattern, ...] = (
    parse_locale_pattern("**.{locale}"),
    parse_locale_pattern("{locale}/**"),
)


def match_locale(
    stem_path: str, patterns: Sequence[LocalePattern], known_locales: Iterable[str]
) -> LocaleMatch | None:
    """The first pattern that matches ``stem_path`` (a path without extension), if any."""
    known = frozenset(known_locales)
    for pattern in patterns:
        found = pattern.match(stem_path, known)
        if found is not None:
            return found
    return None
