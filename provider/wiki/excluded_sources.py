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
import threading
import time
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .files import discover
from .frontmatter import lookup_all, parse_front_matter
from .locale_patterns import LocalePattern
from .locales import strip_extension
from .translation_names import candidate_stems, language_of, name_key

__all__ = ["excluded_source", "forget_excluded", "join_keys", "path_permalink_key", "permalink_key", "read_join_keys",
           "source_candidates", "source_keys"]

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


def _real_folders(root: Path, key: str) -> list[str]:
    """The folders under ``root`` whose path is ``key`` after :func:`name_key` (``""``:
    the root itself)."""
    found = [""]
    for part in key.split("/") if key else ():
        deeper = []
        for base in found:
            try:
                entries = sorted(os.listdir(root / base if base else root))
            except OSError:
                continue
            deeper += [f"{base}/{e}" if base else e for e in entries
                       if name_key(e) == part and (root / base / e).is_dir()]
        found = deeper
    return found


def _named(root: Path, relpath: str, default_locale: str) -> list[str]:
    """The page files under ``root`` that ``relpath`` reads as a translation of by its
    name alone (:func:`~provider.wiki.translation_names.candidate_stems`: ``secret_de.md``,
    ``secret.de-DE.md``, ``secret-de.md``, ``de-DE/secret.md`` → ``secret.md``): the
    suffixes and folders of every i18n plugin's naming, not only the configured patterns."""
    extension = relpath[len(strip_extension(relpath)):]
    suffixes = {name_key(e) for e in (extension, *_EXTENSIONS)}
    found = []
    for stem, _ in candidate_stems(relpath, default_locale):
        folder, _, name = stem.rpartition("/")
        for real in _real_folders(root, folder):
            try:
                entries = sorted(os.listdir(root / real if real else root))
            except OSError:
                continue
            for entry in entries:
                base = strip_extension(entry)
                if name_key(base) == name and name_key(entry[len(base):]) in suffixes:
                    found.append(f"{real}/{entry}" if real else entry)
    return found


#: Front matter keys that join a translation to its source whatever their file names:
#: the provider's ``translation_group``, Hugo's ``translationKey``.
_GROUP_KEYS = ("translation_group", "translationKey")
#: Front matter keys that name a page's language (jekyll-polyglot ``lang``, others).
_LANGUAGE_KEYS = ("lang", "locale", "language")
#: Bytes of an excluded file read for its front matter.
_HEAD_BYTES = 65536
#: Seconds an index of the excluded files' join keys is kept without walking again; a
#: scan forgets it first (:func:`forget_excluded`), so a sync never reads a stale one.
_KEYS_MAX_AGE_S = 60.0
_KEYS: dict[str, tuple[float, dict[tuple[str, str], list[str]]]] = {}
_KEYS_LOCK = threading.Lock()


def _text_key(value: Any) -> str | None:
    return name_key(value.strip()) if isinstance(value, str) and value.strip() else None


def permalink_key(value: Any) -> str | None:
    """A ``permalink`` (or a Jekyll URL path) as :func:`join_keys` compares it: NFC, case
    folded, without its slashes, a trailing ``.html``/``.htm`` or ``index`` (``/docs/plan.html``,
    ``/docs/plan/`` and ``/docs/plan/index.html`` are one page whatever the permalink
    style); ``/`` for the root; ``None`` for no text."""
    key = _text_key(value)
    if key is None:
        return None
    key = key.strip("/")
    for suffix in (".html", ".htm"):
        key = key.removesuffix(suffix)
    key = key.removesuffix("/index") if key != "index" else ""
    return key.strip("/") or "/"


def path_permalink_key(relpath: str) -> str:
    """The :func:`permalink_key` of the URL a page at ``relpath`` gets without a
    ``permalink`` (its path without extension: Jekyll's pages, whatever the style):
    jekyll-polyglot pairs a translation whose ``permalink`` is that URL with the page."""
    return permalink_key("/" + strip_extension(relpath)) or "/"


def join_keys(front: Mapping[str, Any], default_locale: str, *, source: bool) -> set[tuple[str, str]]:
    """The keys that join a page to its translations whatever their file names:
    ``("group", …)`` from ``translation_group`` or Hugo's ``translationKey`` (one group:
    Hugo pairs pages by it across languages), and ``("permalink", …)`` from ``permalink``
    (jekyll-polyglot: pages with one permalink are one page in several languages) —
    for a translation (``source=False``) only when its ``lang`` (or ``locale``,
    ``language``) names another language than ``default_locale``'s. Values compared
    after NFC and case folding, permalinks without their slashes. Key names are matched
    whatever their case (Hugo reads ``TranslationKey`` and ``translationkey`` as
    ``translationKey``; a join more fails closed), every spelling present counting."""
    def values(*names: str) -> list[Any]:
        return [value for _, value in lookup_all(front, *names)]

    keys = {("group", key) for key in map(_text_key, values(*_GROUP_KEYS)) if key}
    permalinks = {key for key in map(permalink_key, values("permalink")) if key is not None}
    if permalinks:
        own = language_of(default_locale) or default_locale
        languages = {language_of(v.strip()) for v in values(*_LANGUAGE_KEYS) if isinstance(v, str) and v.strip()}
        if source or any(language not in (None, own) for language in languages):
            keys |= {("permalink", permalink) for permalink in permalinks}
            # ``/de/secret.html`` on a page in German is ``/secret.html`` in German.
            prefixes = {f"{language}/" for language in languages if language}
            keys |= {("permalink", permalink.split("/", 1)[1]) for permalink in permalinks
                     if not source and "/" in permalink and permalink.split("/", 1)[0] + "/" in prefixes}
    return keys


def read_join_keys(path: Path, default_locale: str, *, yaml_end_marker: bool) -> set[tuple[str, str]]:
    """:func:`join_keys` of the file ``path`` as a source; empty when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            text = handle.read(_HEAD_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return set()
    return join_keys(parse_front_matter(text, yaml_end_marker=yaml_end_marker).data, default_locale, source=True)


def forget_excluded(root: Path) -> None:
    """Drop the index of ``root``'s excluded files (a scan or a watcher batch starts):
    the next :func:`excluded_source` walks again and sees files that appeared or went."""
    with _KEYS_LOCK:
        _KEYS.pop(str(root), None)


def _excluded_keys(root: Path, excluded: Callable[[str], str | None], default_locale: str,
                   yaml_end_marker: bool) -> dict[tuple[str, str], list[str]]:
    """Join key → the page files under ``root`` the docs tool excludes that have it."""
    now = time.monotonic()
    with _KEYS_LOCK:
        cached = _KEYS.get(str(root))
        if cached is not None and now - cached[0] <= _KEYS_MAX_AGE_S:
            return cached[1]
    found: dict[tuple[str, str], list[str]] = {}
    try:
        skipped = discover(root, extensions=_EXTENSIONS, exclude=excluded).skipped
    except OSError:
        skipped = []
    for entry in skipped:
        relpath = entry.relpath
        if relpath.endswith("/") or not relpath.lower().endswith(_EXTENSIONS) or excluded(relpath) is None:
            continue
        keys = read_join_keys(root / relpath, default_locale, yaml_end_marker=yaml_end_marker)
        for key in keys | {("permalink", path_permalink_key(relpath))}:
            found.setdefault(key, []).append(relpath)
    with _KEYS_LOCK:
        _KEYS[str(root)] = (now, found)
    return found


def source_keys(relpath: str, locale: str, patterns: Sequence[LocalePattern], known_locales: Iterable[str],
                default_locale: str) -> set[str]:
    """The paths without extension, compared by :func:`name_key`, of every page that
    ``relpath`` (in ``locale``) may translate by its name (:func:`source_candidates` and
    :func:`~provider.wiki.translation_names.candidate_stems`): what a change of such a
    page must read ``relpath`` again for (:func:`provider.indexing.scan.expand`)."""
    keys = {name_key(strip_extension(c)) for c in source_candidates(relpath, patterns, known_locales, default_locale)}
    for own in dict.fromkeys((default_locale, locale)):
        keys.update(stem for stem, _ in candidate_stems(relpath, own))
    return keys


def excluded_source(relpath: str, patterns: Sequence[LocalePattern], known_locales: Iterable[str],
                    default_locale: str, excluded: Callable[[str], str | None],
                    root: Path, front: Mapping[str, Any] | None = None, *,
                    yaml_end_marker: bool = False) -> tuple[str, str] | None:
    """``(source path, why the tool excludes it)`` when ``relpath`` is a translation of a
    file present under ``root`` that the docs tool excludes (``excluded``:
    :meth:`~provider.wiki.sites.policy.SitePolicy.excluded_reason`), else ``None``.

    A translation by the locale settings (:func:`source_candidates`, names compared after
    NFC and case folding), by a name any i18n plugin gives one (:func:`_named`:
    ``secret_de.md``, ``secret.de-DE.md``, ``secret-de.md``), or by a key in its front
    matter ``front`` that the excluded file shares (:func:`join_keys`: Hugo's
    ``translationKey``, jekyll-polyglot's ``permalink`` with ``lang``; the excluded files'
    keys are read once per scan, their front matter parsed with ``yaml_end_marker`` as
    Jekyll does). A path that is no file is no source: a Hugo site with a ``contentDir``
    per language builds nothing from ``content/a.md``, and has none."""
    candidates = source_candidates(relpath, patterns, known_locales, default_locale)
    on_disk = _on_disk(root, candidates) if candidates else []
    for candidate in dict.fromkeys([*on_disk, *_named(root, relpath, default_locale)]):
        if candidate == relpath:
            continue
        reason = excluded(candidate)
        if reason is not None:
            return candidate, reason
    keys = join_keys(front, default_locale, source=False) if front else set()
    if keys:
        index = _excluded_keys(root, excluded, default_locale, yaml_end_marker)
        for key in sorted(keys):
            for candidate in sorted(index.get(key, ())):
                reason = excluded(candidate) if candidate != relpath else None
                if reason is not None:
                    return candidate, f"{reason}; the same {key[0]} {key[1]!r}"
    return None
