"""Chunks: the addressable passages of a document (the ``chunking`` capability).

A document's passages are grouped by **section** — a section starts at each heading of
level 1–3 (:data:`~provider.wiki.passages.SECTION_MAX_LEVEL`); the text before the first
one is a section of its own — and then:

* a section shorter than :data:`CHUNK_MIN_CHARS` is merged into the following one (the
  last section of a document into the one before it), so a heading with one line under
  it does not become a result of its own;
* a section longer than :data:`CHUNK_MAX_CHARS` is split at passage boundaries into
  pieces of at most that size (a single passage is never cut: passages are bounded).

A chunk's heading is that of its first section; its anchor is that of the nearest heading
above its first passage, at any level (a chunk whose text starts under an ``####`` links
to it, not to the ``###`` above); a result showing a later passage of the chunk cites
that passage's heading instead (:func:`provider.search.snippets.cited_url`). Its **id** is a short digest
of its heading and text, so it stays the same while the chunk is unchanged, however the
rest of the document changes (only the merge of a short section depends on its
neighbour). Identical chunks of one document are told apart by a suffix in order of
appearance (``…-2``).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .passages import Passage

__all__ = ["CHUNK_ID_CHARS", "CHUNK_MAX_CHARS", "CHUNK_MIN_CHARS", "Chunk", "split_chunks"]

#: Sections with less text than this (characters) are merged into a neighbour.
CHUNK_MIN_CHARS = 200
#: Sections with more text than this are split at passage boundaries.
CHUNK_MAX_CHARS = 2400
#: Hex digits of a chunk id's digest (48 bits: collisions within a document are negligible).
CHUNK_ID_CHARS = 12


@dataclass(frozen=True)
class Chunk:
    """A run of consecutive passages of one document.

    Attributes:
        id: stable while the chunk's heading and text are unchanged (see the module docstring).
        heading: the heading of the chunk's first section (``""`` before any heading).
        anchor: the anchor of the nearest heading above its first passage, on the rendered
            page, without ``#`` (``""`` when none).
        passages: the chunk's passages, in document order.
    """

    id: str
    heading: str
    anchor: str
    passages: tuple[Passage, ...]

    @property
    def text(self) -> str:
        return "\n".join(p.text for p in self.passages)


def _size(passages: Sequence[Passage]) -> int:
    return sum(len(p.text) for p in passages)


def _sections(passages: Sequence[Passage]) -> list[list[Passage]]:
    sections: list[list[Passage]] = []
    for passage in passages:
        if sections and sections[-1][0].section == passage.section:
            sections[-1].append(passage)
        else:
            sections.append([passage])
    return sections


def _merged(sections: list[list[Passage]], min_chars: int) -> list[list[Passage]]:
    out: list[list[Passage]] = []
    pending: list[Passage] = []
    for section in sections:
        run = pending + section
        if _size(run) < min_chars:
            pending = run
            continue
        out.append(run)
        pending = []
    if pending:
        if out:
            out[-1] = out[-1] + pending
        else:
            out.append(pending)
    return out


def _split(run: list[Passage], max_chars: int) -> list[list[Passage]]:
    pieces: list[list[Passage]] = []
    current: list[Passage] = []
    for passage in run:
        if current and _size(current) + len(passage.text) > max_chars:
            pieces.append(current)
            current = []
        current.append(passage)
    if current:
        pieces.append(current)
    return pieces


def _digest(heading: str, passages: Sequence[Passage]) -> str:
    material = heading + "\x1f" + "\x1e".join(p.text for p in passages)
    return hashlib.sha1(material.encode("utf-8"), usedforsecurity=False).hexdigest()[:CHUNK_ID_CHARS]


def split_chunks(
    passages: Sequence[Passage], *, min_chars: int = CHUNK_MIN_CHARS, max_chars: int = CHUNK_MAX_CHARS
) -> tuple[Chunk, ...]:
    """Group a document's passages into chunks (see the module docstring)."""
    seen: Counter[str] = Counter()
    chunks = []
    for run in _merged(_sections(passages), min_chars):
        heading, anchor = run[0].section_heading, run[0].anchor
        for piece in _split(run, max_chars):
            digest = _digest(heading, piece)
            seen[digest] += 1
            chunk_id = digest if seen[digest] == 1 else f"{digest}-{seen[digest]}"
            chunks.append(Chunk(chunk_id, heading, piece[0].heading_anchor or anchor, tuple(piece)))
    return tuple(chunks)
