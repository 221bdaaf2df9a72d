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
bytes have that digest: any edit re-opens it. With ``text`` — the finding's text as ``check`` prints
it, whole (its words compared: case, markup such as ``<!--`` and punctuation aside) — only
the findings of that code with that wording are accepted, not every finding of
the code in the file; ``check --json`` lists the *broad* acceptances (without ``text``)
apart, and an acceptance whose digest or text no longer matches as stale. A ``near-copy``
is accepted per file (its text is a similarity report, not the page's). Acceptance never
overrides a rule — front matter ``audience: internal``, drafts and other publication
keys, the operator's audience rules, the site's configuration, exact ``<!-- internal -->``
markers, an unreadable header, an ``audience`` key set outside the front matter. Paths are
compared after Unicode NFC normalisation.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .body_markers import BODY_MARKER_CODES

__all__ = ["ACCEPTABLE_CODES", "HEURISTIC_CODES", "NEAR_COPY", "Acceptance", "accepted_codes", "covers",
           "finding_text", "format_finding", "parse_acceptances", "read_finding", "stale_acceptances"]

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
        text: the wording of the one finding accepted (its words as ``check`` prints
            them; case, markup and punctuation aside), or
            ``None``: every finding of the code in the file (a *broad* acceptance).
    """

    path: str
    finding: str
    digest: str
    text: str | None = None

    @property
    def key(self) -> str:
        """How :func:`accepted_codes` and :func:`covers` hold it: the code, or ``code|text``."""
        return self.finding if self.text is None else f"{self.finding}|{finding_text(self.text)}"

    def describe(self) -> dict[str, str]:
        described = {"path": self.path, "finding": self.finding, "digest": self.digest}
        return described if self.text is None else {**described, "text": self.text}


def finding_text(text: str) -> str:
    """A finding's text as stored and printed: whitespace runs as one space, at most 120
    characters."""
    return " ".join(text.split())[:120]


def covers(accepted: Iterable[str], code: str, text: str) -> bool:
    """Whether the keys ``accepted`` (:attr:`Acceptance.key`, from :func:`accepted_codes`)
    accept a finding of ``code`` whose text is ``text``: the code itself, or a snippet of
    :func:`finding_text` of ``text``."""
    words = _words(finding_text(text))
    for key in accepted:
        found, _, snippet = key.partition("|")
        if found == code and (not snippet or _words(snippet) == words):
            return True
    return False


def _words(text: str) -> tuple[str, ...]:
    """A finding's wording: its words, case folded (markup such as ``<!--`` and ``##``,
    punctuation and spacing aside). An acceptance's ``text`` must be a finding's whole
    wording: a snippet of it ('o', 'only') would accept other findings too (attacker:
    one letter accepted 'Staff only' and 'Internal notes')."""
    return tuple(re.findall(r"\w+", unicodedata.normalize("NFKC", text).casefold()))


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
        raise ValueError(f"{where}: must be a list of {{path, finding, digest}} (and text, optionally)")
    found = []
    for number, entry in enumerate(value, start=1):
        here = f"{where}[{number}]"
        if not isinstance(entry, dict) or not {"path", "finding", "digest"} <= set(entry) <= {
                "path", "finding", "digest", "text"}:
            raise ValueError(f"{here}: must have exactly the keys path, finding and digest (and text, optionally)")
        path, finding, digest, text = entry["path"], entry["finding"], entry["digest"], entry.get("text")
        if not isinstance(path, str) or not path.strip() or path.startswith("/") or "\\" in path:
            raise ValueError(f"{here}: path must be a file path relative to the content folder, with /")
        if finding not in ACCEPTABLE_CODES:
            refused = " (an audience key is the author's word: edit the file)" if finding in HEURISTIC_CODES else ""
            raise ValueError(f"{here}: finding {finding!r} cannot be accepted{refused}; "
                             f"use one of {', '.join(ACCEPTABLE_CODES)}")
        if not isinstance(digest, str) or _DIGEST.fullmatch(digest.strip().lower()) is None:
            raise ValueError(f"{here}: digest must be the file's git blob hash (40 hex digits; "
                             "`knowledge-provider check` prints it, as does `git hash-object FILE`)")
        if "text" in entry:
            if not isinstance(text, str) or not _words(text):
                raise ValueError(f"{here}: text must be a snippet of the finding's text as check prints it")
            if finding == NEAR_COPY:
                raise ValueError(f"{here}: a near-copy is accepted for the whole file: leave out text")
            text = finding_text(text)
        found.append(Acceptance(_nfc(path.strip()), finding, digest.strip().lower(), text))
    return tuple(found)


def accepted_codes(acceptances: Iterable[Acceptance], relpath: str, revision: str) -> frozenset[str]:
    """What is accepted for the file at ``relpath`` whose bytes hash to ``revision`` (a git
    blob hash): :attr:`Acceptance.key` of each acceptance that applies (read them with
    :func:`covers`)."""
    path = _nfc(relpath)
    return frozenset(a.key for a in acceptances if a.path == path and a.digest == revision)


def format_finding(code: str, line: int, text: str) -> str:
    """A finding as stored with a document: ``"code|line|text"``."""
    return f"{code}|{line}|{finding_text(text)}"


def read_finding(stored: str) -> tuple[str, int, str]:
    """``(code, line, text)`` of a :func:`format_finding` string."""
    code, line, text = [*stored.split("|", 2), "", ""][:3]
    return code, int(line) if line.isdigit() else 0, text


def stale_acceptances(acceptances: Iterable[Acceptance], revisions: Mapping[str, str],
                      found: Mapping[str, Iterable[tuple[str, str]]]) -> list[str]:
    """Why each acceptance no longer applies: the file is gone, it changed since it was
    reviewed (its digest differs: review it again), the finding is not found in it any
    more, or no finding of the code holds the acceptance's text. ``revisions`` maps each
    read file to its git blob hash; ``found`` each file to its heuristic findings as
    ``(code, text)``."""
    by_nfc = {_nfc(path): path for path in revisions}
    out = []
    for acceptance in acceptances:
        path = by_nfc.get(acceptance.path)
        what = f"accepted {acceptance.finding} for {acceptance.path}"
        if path is None:
            out.append(f"{what}: no such file")
        elif revisions[path] != acceptance.digest:
            out.append(f"{what}: the file changed since it was reviewed (digest now {revisions[path]}); review the "
                       "finding again")
        elif not any(covers((acceptance.key,), code, text) for code, text in found.get(path, ())):
            out.append(f"{what}: no such finding in the file any more" if acceptance.text is None else
                       f"{what}: no {acceptance.finding} finding holds the text {acceptance.text!r} any more")
    return out
