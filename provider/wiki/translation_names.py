"""Paths that name a language the locale settings do not place: translation candidates.

Locale patterns (:mod:`provider.wiki.locale_patterns`) place a translation only where an
operator said translations live, and only in a configured locale. An author does not
know that: ``goodwill.de-DE.md``, ``goodwill_de.md``, ``goodwill-de.md``,
``de-DE/goodwill.md`` or ``german/goodwill.md`` beside an internal ``goodwill.md`` is,
to a reader, its German translation — internal text — although no pattern says so and
the page is labelled with the default locale.

A path is a **candidate** translation of another page when one of its folders, or one to
three parts of its file name between ``.``, ``_`` or ``-`` (at its end, its start or in its
middle), names a language other than the page's own: a BCP 47 tag ``langcodes`` accepts
whose language has a two-letter code (``de``, ``DE``, ``de_DE``, ``deu``; not ``api``), or a
language's English name or its own name, whole (``german``, ``Deutsch``). Removing that
part (a middle part: also with what follows it) gives the path, without extension, of the
page it would translate (:func:`candidate_stems`); under Docusaurus' ``i18n/<lang>/`` the
plugin folders map to the trees they translate (``docusaurus-plugin-content-docs/current/``
→ ``docs/``). Paths are compared by :func:`name_key` (NFC, case-folded). The corpus rules
report a candidate of an existing page, and withhold a public one from ``customer_safe``
when that page, or a member of its translation group, is internal or withheld
(:mod:`provider.wiki.corpus`, rule 5c).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import langcodes

from .locales import strip_extension

__all__ = ["candidate_stems", "language_of", "name_key"]

#: Separators before a language suffix in a file name.
_SEPARATORS = "._-"
#: What a tag or a language name can be made of (no digits but in region codes).
_SHAPE = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*|[^\W\d_]{4,}", re.UNICODE)


@lru_cache(maxsize=8192)
def language_of(text: str) -> str | None:
    """The language (a canonical BCP 47 language subtag, ``de``) that ``text`` names, or
    ``None``: a tag ``langcodes`` accepts, with ``_`` read as ``-``, or a language's
    English name or autonym, compared whole and case-insensitively (``German``,
    ``deutsch``; ``archive`` is not ``Archi``)."""
    if not _SHAPE.fullmatch(text):
        return None
    tag = text.replace("_", "-")
    try:
        if langcodes.tag_is_valid(tag):
            language = langcodes.standardize_tag(langcodes.Language.get(tag).language or "")
            # A three-letter code names a language here only as an alias of a two-letter
            # one (``deu``, ``ger``): ISO 639-3 holds words of every kind (``api`` is
            # Apiaká, and ``build-forms-api.mdx`` is no translation).
            return language if len(language) == 2 else None
    except (ValueError, LookupError):
        pass
    if len(text) < 4:
        return None
    try:
        found = langcodes.find(text)
    except (LookupError, ImportError, ValueError):
        return None
    wanted = text.casefold()
    names = {found.display_name("en").casefold(), found.autonym().casefold()}
    return langcodes.standardize_tag(found.language) if found.language and wanted in names else None


def _language(tag: str) -> str:
    try:
        return langcodes.Language.get(tag).language or tag
    except (ValueError, LookupError):
        return tag


def name_key(path: str) -> str:
    """How rule 5c compares paths: Unicode NFC, then case-folded (``Kündigung`` written
    with a combining diaeresis, ``KÜNDIGUNG`` and ``kündigung`` are one name; so are
    ``Goodwill`` and ``goodwill``)."""
    return unicodedata.normalize("NFC", path).casefold()


#: Docusaurus' i18n tree: the plugin folder under ``i18n/<locale>/`` → the source tree
#: it translates (``current`` is the docs' unversioned tree, ``version-1.2`` a version).
_DOCUSAURUS_TREES = {"docusaurus-plugin-content-blog": "blog", "docusaurus-plugin-content-pages": "src/pages"}
_DOCUSAURUS_DOCS = "docusaurus-plugin-content-docs"
#: The separators between a file name's parts.
_SHAPE_SPLIT = re.compile(r"[._-]")
#: At most this many name parts make one language (``zh-Hant-TW``).
_MAX_TAG_PARTS = 3


def _docusaurus_source(before: list[str], after: list[str]) -> list[str] | None:
    """The source folders of a Docusaurus translation path (``before`` ends in ``i18n``,
    ``after`` follows the locale folder), or ``None`` when it is not that tree's shape."""
    if not before or before[-1].casefold() != "i18n" or not after:
        return None
    site, plugin = before[:-1], after[0].casefold()
    if plugin == _DOCUSAURUS_DOCS and len(after) > 1:
        version = after[1]
        return [*site, "docs", *after[2:]] if version == "current" else [*site, "versioned_docs", version, *after[2:]]
    if plugin in _DOCUSAURUS_TREES:
        return [*site, *_DOCUSAURUS_TREES[plugin].split("/"), *after[1:]]
    return None


def _name_stems(name: str, own: str) -> dict[str, str]:
    """The file names ``name`` (without extension) may translate: one to three of its
    parts between ``.``, ``_`` or ``-`` naming a language other than ``own``, read as a
    suffix (``goodwill-de`` → ``goodwill``), a prefix with a two-letter language
    (``de-goodwill`` → ``goodwill``) or a middle part followed only by parts with digits,
    removed or with what follows (``goodwill-de-v2`` → ``goodwill-v2`` and ``goodwill``)."""
    cuts = [-1, *(index for index, char in enumerate(name) if char in _SEPARATORS), len(name)]
    found: dict[str, str] = {}
    for first, start in enumerate(cuts[:-1]):
        for end in cuts[first + 1:first + 1 + _MAX_TAG_PARTS]:
            if (start, end) == (-1, len(name)) or end - start < 2:
                continue  # the whole name, or an empty part
            language = language_of(name[start + 1:end])
            if language is None or language == own:
                continue
            head, tail = name[:max(start, 0)], name[end + 1:] if end < len(name) else ""
            if start == -1:
                # Before the name only a tag with a two-letter language (``de-goodwill``,
                # ``de_DE-goodwill``): a longer word there is the name's own (``kas-anchoring``
                # is no Kashmiri page).
                if len(_SHAPE_SPLIT.split(name[:end], 1)[0]) != 2:
                    continue
                stems = [tail]
            elif end == len(name):
                stems = [head]
            elif all(any(c.isdigit() for c in part) for part in _SHAPE_SPLIT.split(tail)):
                # Inside the name only before versions, dates, numbers (``goodwill-de-v2``):
                # ``room-finder-is-not-available`` is no Icelandic room finder.
                stems = [head + name[end:], head]
            else:
                continue
            for stem in stems:
                if stem.strip(_SEPARATORS):
                    found.setdefault(stem, language)
    return found


def candidate_stems(relpath: str, locale: str) -> list[tuple[str, str]]:
    """``(key, language)`` pairs: each page ``relpath`` (in ``locale``) may translate,
    as a path without extension compared by :func:`name_key`, and the language its path
    names. Empty for a path that names no language other than ``locale``'s.

    ``de-DE/goodwill.md`` → ``[("goodwill", "de")]``; ``goodwill.de-DE.md`` →
    ``[("goodwill", "de")]`` (and ``("goodwill.de", "de")`` for the region read as a
    suffix of its own); ``docs/german/a.md`` → ``[("docs/a", "de")]``; ``Goodwill-DE-v2.md``
    → ``goodwill`` and ``goodwill-v2``; ``i18n/de/docusaurus-plugin-content-docs/current/a.md``
    → ``docs/a`` (and ``i18n/docusaurus-plugin-content-docs/current/a``).
    """
    own = _language(locale)
    stem = strip_extension(unicodedata.normalize("NFC", relpath))
    folders, _, name = stem.rpartition("/")
    parts = folders.split("/") if folders else []
    found: dict[str, str] = {}
    for index, part in enumerate(parts):
        language = language_of(part)
        if language is not None and language != own:
            before, after = parts[:index], parts[index + 1:]
            found.setdefault(name_key("/".join([*before, *after, name])), language)
            source = _docusaurus_source(before, after)
            if source is not None:
                found.setdefault(name_key("/".join([*source, name])), language)
    prefix = folders + "/" if folders else ""
    for other, language in _name_stems(name, own).items():
        found.setdefault(name_key(prefix + other), language)
    return sorted(found.items())
