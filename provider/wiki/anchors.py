"""Heading anchors: the ``#fragment`` a rendered page gives a heading, by each tool's rule.

``github`` (the default; what Hugo's default ``goldmark`` anchors, Docusaurus, Starlight
and GitHub itself produce for plain headings; github-slugger's rule): lowercase the
heading's text; keep letters, combining marks, decimal and letter numbers and connector
punctuation of any script (``_``, Devanagari vowel signs, Arabic shadda), ``-`` and the
ASCII space, and remove every other character (other punctuation, symbols, ``²``, and other
spaces: a no-break space before a French ``?`` leaves no trailing ``-``); turn each space
into ``-``. A heading whose slug already occurred on the page gets ``-1``, ``-2`` … in order.

``python-markdown`` (MkDocs): Python-Markdown's ``toc`` extension, by its own functions
(``markdown.extensions.toc.slugify`` and ``unique``), so the anchors are the site's: by
default non-ASCII letters are folded to ASCII or dropped (``Übersicht`` → ``ubersicht``,
a Japanese heading → ``_1``), a repeated slug gets ``_1``, ``_2`` …, and every explicit id
on the page is taken before any slug is made (:class:`TocSlugger`). The project's ``toc``
settings (``slugify_unicode``, ``separator``) are read from ``mkdocs.yml``
(:mod:`provider.wiki.mkdocs_site`).

An explicit heading id (``## Title {#id}``, in the layouts whose tool honours it: Hugo,
Docusaurus, Jekyll's kramdown, MkDocs attr_list) is the anchor instead
(:attr:`provider.wiki.plaintext.Block.anchor`).
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from markdown.extensions.toc import slugify as toc_slugify
from markdown.extensions.toc import unique as toc_unique

__all__ = ["ANCHOR_RULES", "AnchorRule", "Slugger", "TocSlugger", "new_slugger", "slugify"]

ANCHOR_RULES = ("github", "python-markdown")
#: General categories github-slugger keeps (letters, marks, Nd/Nl numbers, connectors).
_KEPT = frozenset({"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "Pc"})


def _kept(char: str) -> bool:
    return char in "- " or unicodedata.category(char) in _KEPT


def slugify(heading: str) -> str:
    """The GitHub slug of a heading's text (without de-duplication)."""
    return "".join(filter(_kept, heading.strip().lower())).replace(" ", "-")


class Slugger:
    """Slugs for the headings of one page, in order, made unique as GitHub does."""

    def __init__(self) -> None:
        self._seen: Counter[str] = Counter()

    def reserve(self, ids: Iterable[str]) -> None:
        """Explicit ids do not count among the slugs GitHub's rule makes unique."""

    def slug(self, heading: str) -> str:
        base = slugify(heading)
        count = self._seen[base]
        self._seen[base] += 1
        return base if count == 0 else f"{base}-{count}"


class TocSlugger:
    """Slugs for the headings of one page as Python-Markdown's ``toc`` makes them.

    Args:
        separator: the toc ``separator`` (``-``).
        unicode: the toc slugify keeps letters of every script (``slugify_unicode``).
    """

    def __init__(self, separator: str = "-", unicode: bool = False) -> None:
        self._separator = separator
        self._unicode = unicode
        self._used: set[str] = set()
        self._counters: dict[str, int] = {}

    def reserve(self, ids: Iterable[str]) -> None:
        """Take the page's explicit ids first, as ``toc`` collects them before slugging."""
        self._used.update(ids)

    def slug(self, heading: str) -> str:
        made = toc_slugify(heading, self._separator, self._unicode)
        return toc_unique(made, self._used, self._counters)


@dataclass(frozen=True)
class AnchorRule:
    """How a site makes heading anchors.

    Attributes:
        name: one of :data:`ANCHOR_RULES`.
        separator: the word separator (``python-markdown`` only).
        unicode: letters of every script are kept (``python-markdown`` only).
    """

    name: str = "github"
    separator: str = "-"
    unicode: bool = False


def new_slugger(rule: AnchorRule = AnchorRule()) -> Slugger | TocSlugger:
    """A fresh slugger for one page under ``rule``.

    Raises:
        ValueError: an unknown rule name.
    """
    if rule.name == "github":
        return Slugger()
    if rule.name == "python-markdown":
        return TocSlugger(rule.separator, rule.unicode)
    raise ValueError(f"unknown anchor rule {rule.name!r}; use one of {', '.join(ANCHOR_RULES)}")
