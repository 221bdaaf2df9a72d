"""Classifying one wiki file: draft, locale, translation group, id, title, URL.

The audience is decided in :mod:`provider.wiki.audience`; its names that callers have
always imported from here (:class:`AudienceRule`, :data:`PUBLIC`, :data:`INTERNAL`,
:func:`decide_audience`…) are re-exported.

Each decision carries the reason an operator sees in warnings and ``check`` output.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from .audience import (
    AUDIENCES,
    INTERNAL,
    PUBLIC,
    AudienceRule,
    AudienceSignal,
    audience_signals,
    decide_audience,
    decide_own_audience,
)
from .dates import DATED_NAME, not_a_date, parse_date
from .frontmatter import lookup
from .locale_patterns import PLAIN_PATTERNS, LocalePattern, match_locale
from .locales import normalize_tag, strip_extension
from .plaintext import clean_inline

__all__ = [
    "AUDIENCES",
    "INTERNAL",
    "PUBLIC",
    "AudienceRule",
    "AudienceSignal",
    "Decision",
    "audience_signals",
    "decide_audience",
    "decide_doc_id",
    "decide_draft",
    "decide_locale",
    "decide_own_audience",
    "decide_review_due",
    "decide_sync_keys",
    "decide_title",
    "decide_translation_group",
    "decide_url",
    "page_path",
    "readable_name",
    "site_path",
]

MAX_ID_CHARS = 200
_ID_OK = re.compile(r"[^\x00-\x1f\x7f]+")
_URL_OK = re.compile(r"[^\s\x00-\x1f\x7f]{1,2000}")


@dataclass(frozen=True)
class Decision:
    """A classified value and where it came from (shown to operators)."""

    value: Any
    source: str


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
    data: Mapping[str, Any],
    relpath: str,
    *,
    known_locales: Iterable[str],
    default_locale: str,
    patterns: Sequence[LocalePattern] = PLAIN_PATTERNS,
) -> tuple[Decision, list[str]]:
    """Front matter ``locale``/``lang``/``language``, else the first locale pattern that
    matches the path with a configured locale, else the default locale. Returns the
    decision and warnings."""
    warnings: list[str] = []
    for key in ("locale", "lang", "language"):
        if key in data:
            raw = data[key]
            tag = normalize_tag(raw) if isinstance(raw, str) else None
            if tag is not None:
                return Decision(tag, f"front matter {key}"), warnings
            warnings.append(f"front matter {key} is not a valid BCP 47 language tag; ignored")
            break
    found = match_locale(strip_extension(relpath), patterns, known_locales)
    if found is not None:
        return Decision(found.locale, found.label), warnings
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


def page_path(stem_path: str, index_names: Iterable[str] = ()) -> str:
    """The path a page stands for: a bundle's or section's ``index``/``_index`` file
    stands for its folder (``posts/trip/index`` → ``posts/trip``, ``posts/_index.de`` →
    ``posts.de``); any other path is itself."""
    folder, _, name = stem_path.rpartition("/")
    base, dot, suffix = name.partition(".")
    if folder and base.lower() in set(index_names):
        return f"{folder}{dot}{suffix}"
    return stem_path


def site_path(
    relpath: str,
    *,
    known_locales: Iterable[str],
    patterns: Sequence[LocalePattern] = PLAIN_PATTERNS,
    index_names: Iterable[str] = (),
) -> str:
    """The page's path on its site: the file's path without extension and locale marker,
    a bundle's ``index`` standing for its folder (``de/a/b.md`` → ``a/b``). Also the
    translation group when the front matter names none."""
    found = match_locale(strip_extension(relpath), patterns, known_locales)
    return page_path(found.group if found is not None else strip_extension(relpath), index_names)


def decide_translation_group(
    data: Mapping[str, Any],
    relpath: str,
    *,
    known_locales: Iterable[str],
    patterns: Sequence[LocalePattern] = PLAIN_PATTERNS,
    index_names: Iterable[str] = (),
) -> tuple[Decision, list[str]]:
    """Front matter ``translation_group`` (or Hugo's ``translationKey``), else the path
    with its locale marker and extension removed (``de/a/b.md`` and ``en/a/b.md`` → ``a/b``;
    see :mod:`provider.wiki.locale_patterns`), a bundle's ``index`` standing for its folder."""
    warnings: list[str] = []
    for wanted in ("translation_group", "translationKey"):
        given = lookup(data, wanted)
        if given is not None:
            key = given[0]
            value = _plain_key(given[1])
            if value is not None:
                return Decision(value, f"front matter {key}"), warnings
            warnings.append(f"front matter {key} is not a usable text value; ignored")
            break
    found = match_locale(strip_extension(relpath), patterns, known_locales)
    path = site_path(relpath, known_locales=known_locales, patterns=patterns, index_names=index_names)
    # One name in either Unicode form (macOS writes NFD): a translation in NFD beside its
    # NFC source is in its group (issue 24).
    return Decision(unicodedata.normalize("NFC", path), "path without locale marker" if found is not None
                    else "path"), warnings


def decide_doc_id(
    data: Mapping[str, Any],
    relpath: str,
    *,
    index_names: Iterable[str] = (),
    id_relative_to_folder: bool = False,
    posts_folder: str = "",
) -> tuple[Decision, list[str]]:
    """Front matter ``id``, else the relative path without extension.

    Args:
        index_names: file stems that stand for their folder (page bundles, sections).
        id_relative_to_folder: a front matter ``id`` names the page in its folder
            (Docusaurus): ``id: intro`` in ``docs/guide/x.md`` → ``docs/guide/intro``.
        posts_folder: dated files in this folder are posts:
            ``_posts/2024-01-31-hello.md`` → ``posts/2024/01/31/hello``.
    """
    warnings: list[str] = []
    folder = relpath.rpartition("/")[0]
    if "id" in data:
        value = _plain_key(data["id"])
        if value is not None:
            if id_relative_to_folder and folder:
                return Decision(f"{folder}/{value}", "front matter id (in its folder)"), warnings
            return Decision(value, "front matter id"), warnings
        warnings.append("front matter id is not a usable text value; the path is used instead")
    stem = strip_extension(relpath) or relpath  # a name of dots only has no extension to strip
    parts = stem.split("/")
    if posts_folder and posts_folder in parts[:-1]:
        dated = DATED_NAME.fullmatch(parts[-1])
        if dated is not None:
            year, month, day = dated["date"].split("-")
            folders = [p.lstrip("_") if p == posts_folder else p for p in parts[:-1]]
            return Decision("/".join([*folders, year, month, day, dated["slug"]]), "post date and name"), warnings
    path = page_path(stem, index_names)
    return Decision(path, "path" if path == stem else "bundle folder"), warnings


_NUMBER_PREFIX = re.compile(r"^\d+[-_. ]+(?=\S)")


def readable_name(
    relpath: str, *, index_names: Iterable[str] = (), dated_names: bool = False, number_prefixes: bool = False
) -> str:
    """A title made from a file name: ``billing/request-a_refund.md`` → ``Request a refund``.

    Args:
        index_names: file stems that stand for their folder (``trip/index.md`` → ``Trip``).
        dated_names: drop a ``YYYY-MM-DD-`` prefix (``2024-01-31-hello.md`` → ``Hello``).
        number_prefixes: drop an ordering prefix (``01-intro.md`` → ``Intro``).
    """
    parts = relpath.split("/")
    name = parts[-1]
    stem = name.split(".", 1)[0] if not name.startswith(".") else name
    if stem.lower() in set(index_names) and len(parts) > 1:
        stem = parts[-2]
    if dated_names and (dated := DATED_NAME.fullmatch(stem)) is not None:
        stem = dated["slug"]
    if number_prefixes:
        stem = _NUMBER_PREFIX.sub("", stem)
    words = re.sub(r"[-_]+", " ", stem).strip()
    return (words[:1].upper() + words[1:]) if words else relpath


#: Front matter keys a title is read from, in order (Hugo ``linkTitle``, Docusaurus
#: ``sidebar_label``), matched case-insensitively after the exact ``title``.
TITLE_KEYS = ("title", "linkTitle", "sidebar_label")


def decide_title(
    data: Mapping[str, Any], relpath: str, *, first_h1: str | None, file_name: str | None = None
) -> tuple[Decision, list[str]]:
    """Front matter ``title`` (as plain text), else ``linkTitle`` or ``sidebar_label``,
    else the first ``#`` heading, else a readable form of the file name (``file_name``
    when the caller made one for its layout). Never a date, list or number object."""
    warnings: list[str] = []
    for wanted in TITLE_KEYS:
        key = next((k for k in data if isinstance(k, str) and k.lower() == wanted.lower()), None)
        if key is None:
            continue
        raw = data[key]
        if isinstance(raw, str) and (text := clean_inline(raw)):
            return Decision(text, f"front matter {key}"), warnings
        warnings.append(f"front matter {key} is not text; ignored")
    if first_h1:
        return Decision(first_h1, "first heading"), warnings
    return Decision(file_name or readable_name(relpath), "file name"), warnings


def decide_review_due(data: Mapping[str, Any]) -> tuple[Decision, list[str]]:
    """Front matter ``review_due`` as a UTC date-time, or ``None``.

    Accepts a YAML date, a YAML date-time, or an ISO 8601 string; a date means
    midnight UTC of that day (:func:`provider.wiki.dates.parse_date`).
    """
    if "review_due" not in data:
        return Decision(None, ""), []
    value = parse_date(data["review_due"])
    if value is None:
        return Decision(None, ""), [f"{not_a_date('review_due', data['review_due'])}; ignored"]
    return Decision(value, "front matter review_due"), []


def decide_url(data: Mapping[str, Any]) -> tuple[str | None, list[str]]:
    """Front matter ``url`` when it is usable for a citation: an absolute ``https`` URL
    without user information (CONTRACT R7), or a site path starting with ``/`` (Hugo
    and Jekyll permalinks). Anything else is dropped with a warning."""
    if "url" not in data:
        return None, []
    raw = data["url"]
    if isinstance(raw, str):
        text = raw.strip()
        if text.startswith("/") and not text.startswith("//") and _URL_OK.fullmatch(text):
            return text, []
        try:
            parts = urlsplit(text)
        except ValueError:
            parts = None
        if (parts is not None and parts.scheme == "https" and parts.hostname and "@" not in parts.netloc
                and _URL_OK.fullmatch(text)):
            return text, []
    return None, ["front matter url is not an https URL or a site path; ignored"]


_REVISION = re.compile(r"[0-9a-fA-F]{7,64}")
#: Front matter keys recording which source-language revision a translation was made
#: from: ``source_revision`` (the git blob hash of the source file, ``git hash-object``)
#: and Hugo's ``default_lang_commit`` (a git commit of the repository).
SYNC_KEYS = ("source_revision", "default_lang_commit")


def decide_sync_keys(data: Mapping[str, Any]) -> tuple[dict[str, str], list[str]]:
    """The translation-sync keys (:data:`SYNC_KEYS`) that hold a git hash (7–64 hex
    digits, lowercased); others are reported and ignored. A hash of digits only reaches us
    as a YAML number and is taken as written (quote it when it starts with ``0``)."""
    found: dict[str, str] = {}
    warnings: list[str] = []
    for key in SYNC_KEYS:
        if key not in data:
            continue
        value = data[key]
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if isinstance(value, str) and _REVISION.fullmatch(value.strip()):
            found[key] = value.strip().lower()
        else:
            warnings.append(f"front matter {key} is not a git hash (7 to 64 hex digits); ignored")
    return found, warnings
