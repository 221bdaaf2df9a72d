"""Why documents are withheld, counted by kind for summaries.

A summary that lumps every withheld document together ("drafts, unpublished, copies")
hides the one kind an operator must act on: a header the provider could not read is not
a draft. :func:`withheld_kind` names the kind of a :attr:`Resolved.withheld
<provider.wiki.corpus.Resolved.withheld>` reason; the index summary and ``check`` count
by it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

__all__ = ["WITHHELD_KINDS", "describe_withheld", "withheld_kind"]

#: ``(kind, substrings of a reason that mean it)``, the first match wins.
WITHHELD_KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("no text to serve (generated or bare title)", ("no text to serve",)),
    ("unreadable front matter", ("its publication keys cannot be read", "cannot be read (withheld, fail closed)")),
    ("invalid publication keys", ("(withheld, fail closed)",)),
    ("redirect stubs", ("a redirect",)),
    ("near-copies of withheld pages", ("a copy of ", "the same words as ", "a paragraph copied from ",
                                       "text copied from ")),
    ("untranslated copies", ("not a translation",)),
    ("the same page twice", ("the same page as ",)),
    ("not built by the docs tool", ("not a page:",)),
    ("NOINDEX", ("NOINDEX",)),
    ("withheld by a rule", ("withheld by rule ",)),
    ("by a section's cascade", ("cascade from ",)),
    ("not yet published or expired", ("is in the future", "has passed")),
    ("drafts and unpublished", ("draft", "unlisted", "published", "build", "headless", "folder")),
    ("no readable text", ("has no readable text",)),
)


def withheld_kind(reason: str) -> str:
    """The kind of a withholding reason (``"other"`` when none of
    :data:`WITHHELD_KINDS` matches)."""
    for kind, parts in WITHHELD_KINDS:
        if any(part in reason for part in parts):
            return kind
    return "other"


def describe_withheld(kinds: Iterable[str] | Counter[str]) -> str:
    """``"3 unreadable front matter, 1 drafts and unpublished"``: counts by kind, largest first."""
    counts = kinds if isinstance(kinds, Counter) else Counter(kinds)
    return ", ".join(f"{n} {kind}" for kind, n in counts.most_common())
