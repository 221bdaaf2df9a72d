"""Translations of a page the docs tool excludes (issue 24).

A docs tool's exclusion names the source page: MkDocs ``exclude_docs: secret.md`` (a
gitignore pattern, which does not match ``secret.de.md``), Hugo ``ignoreFiles:
["secret\\.md$"]`` (a regular expression searched in the path, which does not match
``secret.de.md`` either), or an anchored pattern for the default language's folder only
(``/en/secret.md``, ``en/secret\\.md$``). The translation beside it is not excluded, and
both tools build it: mkdocs-static-i18n renders ``secret.de.md`` (or ``docs/de/secret.md``)
as the German page, and Hugo renders ``secret.de.md`` (or ``content/de/secret.md`` with a
``contentDir`` per language) as a page of its own language — translations are built one
file at a time, never only with their source.

So the site may well publish it; what its author meant is not known: the source was kept
off the site, and the translation is the same text in another language. The provider fails
closed: such a translation is internal (a site configuration error on the page) unless the
site's sitemap is configured, which then decides (rule 11: public only if its URL is on the
site — the proof that the tool built and published it).

The exclusion was skipped at discovery, so no document stands for the source: the corpus
rules (5b) cannot see it, and this is decided per page from its path, the locale
settings and the site policy (a decision on the page's own path and the configuration,
which :attr:`~provider.wiki.model.DocumentMeta.site_policy` already follows).
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from .locale_patterns import LocalePattern
from .locales import strip_extension
from .translation_names import name_key

__all__ = ["excluded_source", "source_candidates"]

#: Extensions a source page may have beside its translation's own (a translated ``a.md``
#: of an ``a.mdx``: Hugo and MkDocs pair by the name without extension).
_EXTENSIONS = (".md", ".mdx", ".markdown")


def source_candidates(relpath: str, patterns: Sequence[LocalePattern], known_locales: Iterable[str],
                      default_locale: str) -> list[str]:
    """The paths the source page of the translation ``relpath`` may have, or ``[]`` when the
    path names no configured locale other than ``default_locale``.

    The first matching pattern decides, as for the locale: the path without the locale
    marker (``docs/secret.de.md`` → ``docs/secret.md``; ``de/a.md`` → ``a.md``; a pattern's
    source tree: ``i18n/de/…/current/a.md`` → ``docs/a.md``), and for a folder pattern the
    same path in the default locale's folder (``content/de/a.md`` → ``content/en/a.md``);
    each with the translation's extension and the others of :data:`_EXTENSIONS`, and in
    both Unicode normal forms (a name on disk in NFD, as macOS writes it, against a rule
    typed in NFC: either may be the one the tool compares)."""
    stem = strip_extension(relpath)
    extension = relpath[len(stem):]
    known = frozenset(known_locales)
    stems: list[str] = []
    for pattern in patterns:
        found = pattern.match(stem, known)
        if found is None:
            continue
        if found.locale == default_locale:
            return []
        stems.append(found.group)
        if pattern.source is None and "{locale}/" in pattern.pattern:
            for key in dict.fromkeys((default_locale, default_locale.lower())):
                stems.append(pattern.pattern.replace("{locale}", key).replace("**", found.stem))
        break
    out: dict[str, None] = {}
    for base in stems:
        for ext in dict.fromkeys((extension, *_EXTENSIONS)):
            for form in ("NFC", "NFD"):
                out[unicodedata.normalize(form, base + ext)] = None
    out.pop(relpath, None)
    return list(out)


def _on_disk(root: Path, candidates: list[str]) -> list[str]:
    """The files of ``root`` that are one of ``candidates`` to a reader: the same name after
    NFC and case folding (:func:`~provider.wiki.translation_names.name_key`), so a source
    ``Secret.md`` or ``café.md`` (NFD) is found for ``secret.de.md`` or ``café.de.md``
    (NFC) — on a case-insensitive or normalising file system the tool pairs them."""
    wanted: dict[str, set[str]] = {}
    for candidate in candidates:
        folder, _, name = candidate.rpartition("/")
        wanted.setdefault(folder, set()).add(name_key(name))
    found = []
    for folder, names in wanted.items():
        try:
            entries = sorted(os.listdir(root / folder if folder else root))
        except OSError:
            continue
        found += [f"{folder}/{entry}" if folder else entry for entry in entries if name_key(entry) in names]
    return found


def excluded_source(relpath: str, patterns: Sequence[LocalePattern], known_locales: Iterable[str],
                    default_locale: str, excluded: Callable[[str], str | None],
                    root: Path) -> tuple[str, str] | None:
    """``(source path, why the tool excludes it)`` when ``relpath`` is a translation
    (:func:`source_candidates`) whose source file, present under ``root`` (names compared
    after NFC and case folding), the docs tool excludes (``excluded``:
    :meth:`~provider.wiki.sites.policy.SitePolicy.excluded_reason`), else ``None``. A
    path that is no file is no source: a Hugo site with a ``contentDir`` per language
    builds nothing from ``content/a.md``, and has none."""
    candidates = source_candidates(relpath, patterns, known_locales, default_locale)
    for candidate in _on_disk(root, candidates) if candidates else ():
        if candidate == relpath:
            continue
        reason = excluded(candidate)
        if reason is not None:
            return candidate, reason
    return None
