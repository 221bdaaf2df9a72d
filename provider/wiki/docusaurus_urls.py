"""A Docusaurus doc's URL path, by the docs plugin's own rules (issue 24).

The docs plugin makes a doc's slug from the file's path inside its content folder
(``docs/``, or the locale's ``i18n/<locale>/docusaurus-plugin-content-docs/current/``,
which mirrors it), and from the file's own front matter — a translation's front matter
gives the translated page its slug:

* a front matter ``slug`` starting with ``/`` is the slug as written;
* without a ``slug``, a *category index* — a file named ``index`` or ``README`` (any case)
  or like its folder (``guides/guides.md``) — is its folder (``/guides/``), whatever its
  ``id``;
* otherwise the ``slug`` (when relative), else the front matter ``id``, else the file name
  without its ``01-`` ordering prefix, is resolved against the folder as a relative URL
  path is (``../x`` climbs a folder), the folders without their ordering prefixes.

The URL path is the plugin's ``routeBasePath`` followed by the slug. Not followed: the
``parse_number_prefixes: false`` front matter key (prefixes are always dropped) and a
custom ``numberPrefixParser``. A slug Docusaurus
refuses (a query, a fragment, a backslash, ``//``, or a ``.``/``..`` segment in an
absolute slug) gives no URL here: the page is served without one rather than with a
guess.
"""

from __future__ import annotations

import re

__all__ = ["docusaurus_doc_path", "resolve_slug"]

#: Docusaurus' default number prefix parser: digits, then ``-``, ``_`` or ``.`` (spaces
#: around them allowed) before a name; a date or version (``2021-11-x``, ``7.0-x``) is
#: no prefix.
_NUMBER_PREFIX = re.compile(r"^\d+\s*[-_.]+\s*(?=[^-_.\s])")
_NOT_A_PREFIX = re.compile(r"^\d+[-_.]\d+")
_REFUSED = re.compile(r"[?#\\\s]|//")


def _unprefixed(name: str) -> str:
    """``name`` without its ordering prefix (``01-intro`` → ``intro``)."""
    return name if _NOT_A_PREFIX.match(name) else _NUMBER_PREFIX.sub("", name, count=1)


def resolve_slug(to: str, folder: str) -> str | None:
    """``to`` (a relative slug) resolved against ``folder`` (``/a/b/``, always ending in
    ``/``) as a relative URL path is: ``x`` → ``/a/b/x``, ``../x`` → ``/a/x``, ``x/`` keeps
    its trailing ``/``. ``None`` when it climbs above the root."""
    segments = [s for s in folder.split("/") if s]
    parts = to.split("/")
    for part in parts:
        if part == "..":
            if not segments:
                return None
            segments.pop()
        elif part not in (".", ""):
            segments.append(part)
    trailing = to.endswith("/") or parts[-1] in (".", "..")
    return "/" + "/".join(segments) + ("/" if trailing and segments else "")


def docusaurus_doc_path(inner: str, *, slug: str = "", front_id: str | None = None) -> str | None:
    """The slug of the doc at ``inner`` (its path inside the content folder, extension
    included: ``build/get-started/get-started.mdx``), with its front matter ``slug`` and
    ``id`` (``""``/``None``: absent), without leading or trailing ``/`` (``""``: the
    content root). ``None``: a slug Docusaurus would refuse (module docstring).

    >>> docusaurus_doc_path("build/get-started/get-started.mdx", slug="/build/get-start")
    'build/get-start'
    >>> docusaurus_doc_path("a/01-b/02-c.md")
    'a/b/c'
    """
    stem = inner.rsplit(".", 1)[0] if "." in inner.rsplit("/", 1)[-1] else inner
    *folders, name = stem.split("/")
    folder = "/" + "".join(f"{_unprefixed(f)}/" for f in folders)
    if slug:
        if _REFUSED.search(slug):
            return None
        if slug.startswith("/"):
            if any(part in (".", "..") for part in slug.split("/")):
                return None
            return slug.strip("/")
        resolved = resolve_slug(slug, folder)
        return resolved.strip("/") if resolved is not None else None
    lowered = name.lower()
    if lowered in ("index", "readme") or (folders and lowered == folders[-1].lower()):
        return folder.strip("/")
    resolved = resolve_slug(front_id if front_id else _unprefixed(name), folder)
    return resolved.strip("/") if resolved is not None else None
