"""Paths that name a language the locale settings do not place: translation candidates.

Locale patterns (:mod:`provider.wiki.locale_patterns`) place a translation only where an
operator said translations live, and only in a configured locale. An author does not
know that: ``goodwill.de-DE.md``, ``goodwill_de.md``, ``goodwill-de.md``,
``de-DE/goodwill.md`` or ``german/goodwill.md`` beside an internal ``goodwill.md`` is,
to a reader, its German translation — internal text — although no pattern says so and
the page is labelled with the default locale.

A path is a **candidate** translation of another page when one of its folders, or the
end of its file name after a ``.``, ``_`` or ``-``, names a language other than the
page's own: a BCP 47 tag ``langcodes`` accepts whose language has a two-letter code
(``de``, ``DE``, ``de_DE``, ``deu``; not ``api``), or a language's English name or its
own name, whole (``german``, ``Deutsch``). Removing that
part gives the path, without extension, of the page it would translate
(:func:`candidate_stems`). The corpus rules withhold a public candidate from
``customer_safe`` when that page, or a member of its translation group, is internal
(:mod:`provider.wiki.corpus`, rule 5).
"""

from __future__ import annotations

import re
from functools import lru_cache

import langcodes

from .locales import strip_extension

__all__ = ["candidate_stems", "language_of"]

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


def candidate_stems(relpath: str, locale: str) -> list[tuple[str, str]]:
    """``(stem, language)`` pairs: each page ``relpath`` (in ``locale``) may translate,
    as a path without extension, and the language its path names. Empty for a path that
    names no language other than ``locale``'s.

    ``de-DE/goodwill.md`` → ``[("goodwill", "de")]``; ``goodwill.de-DE.md`` →
    ``[("goodwill", "de")]`` (and ``("goodwill.de", "de")`` for the region read as a
    suffix of its own); ``docs/german/a.md`` → ``[("docs/a", "de")]``.
    """
    own = _language(locale)
    stem = strip_extension(relpath)
    folders, _, name = stem.rpartition("/")
    parts = folders.split("/") if folders else []
    found: dict[str, str] = {}
    for index, part in enumerate(parts):
        language = language_of(part)
        if language is not None and language != own:
            rest = [*parts[:index], *parts[index + 1:], name]
            found.setdefault("/".join(rest), language)
    prefix = folders + "/" if folders else ""
    for index, char in enumerate(name):
        if char in _SEPARATORS and 0 < index < len(name) - 1:
            language = language_of(name[index + 1:])
            if language is not None and language != own:
                found.setdefault(prefix + name[:index], language)
    return sorted(found.items())
