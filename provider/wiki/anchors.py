"""Heading anchors: the ``#fragment`` a rendered page gives a heading.

The rule is GitHub's (``github-slugger``, also what Hugo's default ``goldmark`` anchors,
Docusaurus and many MkDocs themes produce for plain headings): lowercase the heading's
text; remove every character that is not a letter, a digit, ``_``, ``-`` or a space
(letters and digits of any script are kept); turn each space into ``-``. A heading whose
slug already occurred on the page gets ``-1``, ``-2`` … in order. An explicit heading id
(``## Title {#id}``, in the layouts whose tool honours it: Hugo, Docusaurus, Jekyll's
kramdown, MkDocs attr_list) is the anchor instead (:attr:`provider.wiki.plaintext.Block.anchor`).
"""

from __future__ import annotations

import re
from collections import Counter

__all__ = ["Slugger", "slugify"]

_NOT_SLUG = re.compile(r"[^\w\- ]")


def slugify(heading: str) -> str:
    """The GitHub slug of a heading's text (without de-duplication)."""
    return _NOT_SLUG.sub("", heading.strip().lower()).replace(" ", "-")


class Slugger:
    """Slugs for the headings of one page, in order, made unique as GitHub does."""

    def __init__(self) -> None:
        self._seen: Counter[str] = Counter()

    def slug(self, heading: str) -> str:
        base = slugify(heading)
        count = self._seen[base]
        self._seen[base] += 1
        return base if count == 0 else f"{base}-{count}"
