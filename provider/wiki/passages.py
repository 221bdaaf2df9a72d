"""Cutting a document's blocks into passages, the unit a snippet is taken from.

Done once at index time so a search only has to pick the best passage. A passage is
consecutive text under one heading, at most :data:`PASSAGE_MAX_CHARS` characters, cut
at sentence boundaries (after ``。！？`` too, where CJK text puts no space), or for a
run-on sentence at a space or a CJK comma; where a sentence must be cut inside a word
(a long CJK sentence, a huge token) the two pieces carry an ellipsis at the cut. Its ``heading`` is
the nearest heading above it, whose words count as matching the passage.

Passages also know their **section**: a section starts at each heading of level 1–3 (the
unit :mod:`provider.wiki.chunks` builds chunks from), with the heading's anchor on the
rendered page (:mod:`provider.wiki.anchors`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from helpthread_kit.plaintext import ELLIPSIS, safe_cut

from .anchors import Slugger, TocSlugger
from .plaintext import Block

__all__ = ["PASSAGE_MAX_CHARS", "SECTION_MAX_LEVEL", "Passage", "split_passages"]

#: Passages stay below the 480-character snippet bound, leaving room to add context.
PASSAGE_MAX_CHARS = 400
#: Headings of this level or higher (1 = ``#``) start a section.
SECTION_MAX_LEVEL = 3
# A sentence ends at whitespace after its stop, or right after a CJK full stop (Japanese
# and Chinese put no space between sentences) unless a closing quote or bracket follows.
# Captures the gap, so sentences joined again keep it: none after a CJK full stop that
# had none (a space there would make the passage differ from the page's text).
_SENTENCE_END = re.compile(r"((?<=[.!?…:;])\s+|(?<=[。！？])(?![。！？」』）】〕”’])\s*)")
_CJK_PAUSES = "、，；："


@dataclass(frozen=True)
class Passage:
    """A piece of a document's text.

    Attributes:
        heading: the nearest heading above, or ``""`` before the first heading.
        text: single-line plain text, 1–:data:`PASSAGE_MAX_CHARS` characters.
        internal: made of text from an internal section (:mod:`provider.wiki.sections`);
            a passage never mixes internal and public blocks.
        section: the ordinal of its section (0 before the first heading of level 1–3).
        section_heading: the heading that opened its section (``""`` for section 0).
        anchor: that heading's anchor on the rendered page, without ``#`` (``""`` for
            section 0).
        heading_anchor: the anchor of ``heading``, the nearest heading above at any level
            (an ``####`` inside a section too; ``""`` before the first heading).
        code: the pieces of ``text`` that come from code blocks, in order (search weighs
            them less than prose).

    Equality compares ``heading``, ``text`` and ``internal`` only.
    """

    heading: str
    text: str
    internal: bool = False
    section: int = field(default=0, compare=False)
    section_heading: str = field(default="", compare=False)
    anchor: str = field(default="", compare=False)
    code: tuple[str, ...] = field(default=(), compare=False)
    heading_anchor: str = field(default="", compare=False)


def _cut(sentence: str, max_chars: int) -> tuple[str, str]:
    """Split a sentence longer than ``max_chars`` into a head that fits and the rest: at
    the last space, else after the last CJK comma, in the second half of the room; else
    anywhere (never inside a character's marks), and then the head ends and the rest
    starts with an ellipsis, so no snippet shows a cut word without one."""
    cut = sentence.rfind(" ", 0, max_chars)
    if cut > max_chars // 2:
        return sentence[:cut].rstrip(), sentence[cut:].lstrip()
    comma = max((sentence.rfind(c, 0, max_chars) for c in _CJK_PAUSES), default=-1)
    if comma >= max_chars // 2:
        return sentence[: comma + 1], sentence[comma + 1 :].lstrip()
    cut = safe_cut(sentence, max_chars - 1) or max_chars - 1
    return sentence[:cut] + ELLIPSIS, ELLIPSIS + sentence[cut:]


def _pieces(text: str, max_chars: int) -> Iterable[str]:
    if len(text) <= max_chars:
        yield text
        return
    current = ""
    parts = _SENTENCE_END.split(text)
    for index in range(0, len(parts), 2):
        sentence = parts[index]
        gap = " " if index and parts[index - 1] else ""
        if not sentence:
            continue
        while len(sentence) > max_chars:
            head, sentence = _cut(sentence, max_chars)
            if current:
                yield current
                current = ""
            yield head
        if current and len(current) + len(gap) + len(sentence) > max_chars:
            yield current
            current = sentence
        else:
            current = f"{current}{gap}{sentence}" if current else sentence
    if current:
        yield current


def split_passages(
    blocks: Iterable[Block], max_chars: int = PASSAGE_MAX_CHARS, slugger: Slugger | TocSlugger | None = None
) -> tuple[Passage, ...]:
    """Group blocks into passages (see the module docstring).

    Args:
        blocks: a document's blocks, in order.
        max_chars: the longest passage.
        slugger: makes the headings' anchors by the site's rule
            (:func:`provider.wiki.anchors.new_slugger`); GitHub's by default.
    """
    passages: list[Passage] = []
    headings: list[Block] = []
    heading = ""
    heading_internal = False
    current = ""
    current_code: list[str] = []
    internal = False
    blocks = list(blocks)
    slugger = slugger if slugger is not None else Slugger()
    slugger.reserve(block.anchor for block in blocks if block.kind == "heading" and block.anchor)
    section, section_heading, anchor, heading_anchor = 0, "", "", ""

    def flush() -> None:
        nonlocal current
        if current:
            # A passage is shown with its heading, so an internal heading makes it internal.
            passages.append(Passage(heading, current, internal or heading_internal, section, section_heading, anchor,
                                    code=tuple(current_code), heading_anchor=heading_anchor))
            current = ""
            current_code.clear()

    for block in blocks:
        if block.kind == "heading":
            flush()
            heading, heading_internal = block.text, block.internal
            headings.append(block)
            # An explicit id is the anchor as written; the tools do not count it among
            # the slugs they make unique.
            slug = heading_anchor = block.anchor or slugger.slug(block.text)
            if 1 <= block.level <= SECTION_MAX_LEVEL:
                section, section_heading, anchor = section + 1, block.text, slug
            continue
        if block.internal != internal:
            # Internal and public text never share a passage, so a snippet's audience
            # is known from the passages it shows.
            flush()
            internal = block.internal
        for piece in _pieces(block.text, max_chars):
            if current and len(current) + 1 + len(piece) > max_chars:
                flush()
            current = f"{current} {piece}" if current else piece
            if block.kind == "code":
                current_code.append(piece)
    flush()
    if not passages and headings:
        # A document of headings only still has words a reader sees.
        any_internal = any(h.internal for h in headings)
        passages.extend(
            Passage("", piece, any_internal) for piece in _pieces(" · ".join(h.text for h in headings), max_chars)
        )
    return tuple(passages)
