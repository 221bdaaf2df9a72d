"""Heuristic findings, and the operator's acceptance of a reviewed one.

A *heuristic* withholds or hides text because it looks meant to be withheld, not because
a rule says so. Each finding has a code:

========================== ===================================================== ==========
code                       what fires                                            acceptable
========================== ===================================================== ==========
``misplaced-front-matter`` a header-like block (``---`` then ``key: value``       yes
                           lines, a JSON object) in the first lines but not at
                           the very top: the page is quarantined and withheld
``would-be-marker``        a comment, tag, class or container that looks meant   yes
                           as an internal-section marker: the page is internal
``hiding-heading``         (:mod:`provider.wiki.body_markers`) its section is    yes
``hiding-label``           internal (a title: its box; a cell: its row; a
``hiding-note``            footnote: it and the blocks citing it)
``todo-internal``
``hiding-title``
``hiding-cell``
``hiding-footnote``
``hiding-term``
``hiding-sentence``
``internal-title``         a front matter title saying so: the page is           yes
                           quarantined
``near-copy``              the page nearly copies internal or withheld text      yes
                           (:mod:`provider.wiki.copies`): it inherits that status
``audience-in-body``       ``audience: internal`` in the body: internal           no
========================== ===================================================== ==========

**Accepting** (configuration ``accepted_findings``): a list of ``{path, finding,
digest}``, where ``digest`` is the file's git blob hash (``git hash-object PATH``, also
printed by ``check``). The finding of that code is then ignored for that file while its
bytes have that digest: any edit re-opens it. Acceptance never overrides a rule — front
matter ``audience: internal``, drafts and other publication keys, the operator's audience
rules, the site's configuration, exact ``<!-- internal -->`` markers, an unreadable
header, an ``audience`` key set outside the front matter. Paths are compared after
Unicode NFC normalisation.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .body_markers import BODY_MARKER_CODES

__all__ = ["ACCEPTABLE_CODES", "HEURISTIC_CODES", "NEAR_COPY", "Acceptance", "accepted_codes", "format_finding",
           "parse_acceptances", "read_finding", "stale_acceptances"]

MISPLACED, WOULD_BE_MARKER, NEAR_COPY = "misplaced-front-matter", "would-be-marker", "near-copy"
#: Every heuristic finding code.
HEURISTIC_CODES = (MISPLACED, WOULD_BE_MARKER, *BODY_MARKER_CODES, NEAR_COPY)
#: Codes an operator may accept (an ``audience`` key in the body is the author's word).
ACCEPTABLE_CODES = tuple(code for code in HEURISTIC_CODES if code != "audience-in-body")

_DIGEST = re.compile(r"[0-9a-f]{40}")


@dataclass(frozen=True)
class Acceptance:
    """One accepted finding.

    Attributes:
        path: the file, relative to the content folder (POSIX, NFC).
        finding: one of :data:`ACCEPTABLE_CODES`.
        digest: the git blob hash (40 lowercase hex digits) of the file's bytes when it
            was reviewed.
    """

    path: str
    finding: str
    digest: str

    def describe(self) -> dict[str, str]:
        return {"path": self.path, "finding": self.finding, "digest": self.digest}


def _nfc(path: str) -> str:
    return unicodedata.normalize("NFC", path)


def parse_acceptances(value: object, where: str) -> tuple[Acceptance, ...]:
    """Validate the ``accepted_findings`` setting.

    Raises:
        ValueError: naming the entry and what is wrong with it (``where`` first).
    """
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ValueError(f"{where}: must be a list of {{path, finding, digest}}")
    found = []
    for number, entry in enumerate(value, start=1):
        here = f"{where}[{number}]"
        if not isinstance(entry, dict) or set(entry) != {"path", "finding", "digest"}:
            raise ValueError(f"{here}: must have exactly the keys path, finding and digest")
        path, finding, digest = entry["path"], entry["finding"], entry["digest"]
        if not isinstance(path, str) or not path.strip() or path.startswith("/") or "\\" in path:
            raise ValueError(f"{here}: path must be a file path relative to the content folder, with /")
        if finding not in ACCEPTABLE_CODES:
            refused = " (an audience key is the author's word: edit the file)" if finding in HEURISTIC_CODES else ""
            raise ValueError(f"{here}: finding {finding!r} cannot be accepted{refused}; "
                             f"use one of {', '.join(ACCEPTABLE_CODES)}")
        if not isinstance(digest, str) or _DIGEST.fullmatch(digest.strip().lower()) is None:
            raise ValueError(f"{here}: digest must be the file's git blob hash (40 hex digits; "
                             "`knowledge-provider check` prints it, as does `git hash-object FILE`)")
        found.append(Acceptance(_nfc(path.strip()), finding, digest.strip().lower()))
    return tuple(found)


def accepted_codes(acceptances: Iterable[Acceptance], relpath: str, revision: str) -> frozenset[str]:
    """The finding codes accepted for the file at ``relpath`` whose bytes hash to
    ``revision`` (a git blob hash)."""
    path = _nfc(relpath)
    return frozenset(a.finding for a in acceptances if a.path == path and a.digest == revision)


def format_finding(code: str, line: int, text: str) -> str:
    """A finding as stored with a document: ``"code|line|text"``."""
    return f"{code}|{line}|{' '.join(text.split())[:120]}"


def read_finding(stored: str) -> tuple[str, int, str]:
    """``(code, line, text)`` of a :func:`format_finding` string."""
    code, line, text = [*stored.split("|", 2), "", ""][:3]
    return code, int(line) if line.isdigit() else 0, text


def stale_acceptances(acceptances: Iterable[Acceptance], revisions: Mapping[str, str],
                      used: Mapping[str, Iterable[str]]) -> list[str]:
    """Why each acceptance no longer applies: the file is gone, it changed since it was
    reviewed (its digest differs: review it again), or the finding is not found in it
    any more. ``revisions`` maps each read file to its git blob hash; ``used`` each file
    to the codes accepted and found in it."""
    by_nfc = {_nfc(path): path for path in revisions}
    out = []
    for acceptance in acceptances:
        path = by_nfc.get(acceptance.path)
        if path is None:
            out.append(f"accepted {acceptance.finding} for {acceptance.path}: no such file")
        elif revisions[path] != acceptance.digest:
            out.append(f"accepted {acceptance.finding} for {acceptance.path}: the file changed since it was "
                       f"reviewed (digest now {revisions[path]}); review the finding again")
        elif acceptance.finding not in set(used.get(path, ())):
            out.append(f"accepted {acceptance.finding} for {acceptance.path}: no such finding in the file any more")
    return out
