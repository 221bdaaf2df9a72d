"""Choosing the snippet: the passage that matched, as plain text (CONTRACT R3).

Passages and their analysed terms are stored at index time, so this is set lookups
only: no analysis, no highlighting, no markup.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from itertools import compress, pairwise, starmap
from operator import ne
from typing import Any

from helpthread_kit.plaintext import ELLIPSIS, as_plain_text, clip_text, without_controls
from helpthread_kit.results import SNIPPET_MAX_CHARS

__all__ = ["CODE_PASSAGE_WEIGHT", "PAIR", "best_passage", "cited_url", "pair_weights", "passage_terms",
           "snippet_span"]

#: Joins two adjacent terms into a *pair* term (``refund+exception``): no analysed term
#: contains it. A passage where the query's words stand next to each other — as a phrase,
#: stop words aside — outranks one where they are scattered.
PAIR = "+"


def passage_terms(*token_runs: Sequence[str]) -> str:
    """The stored form of a passage's terms: every distinct term of the runs (a heading,
    the text), and every pair of adjacent terms within a run, sorted, space-separated."""
    found: set[str] = set()
    for run in token_runs:
        found.update(run)
        # Each pair of unequal neighbours, joined — without a Python step per pair.
        found.update(compress(map(PAIR.join, pairwise(run)), starmap(ne, pairwise(run))))
    return " ".join(sorted(found))


def pair_weights(words: Sequence[str], weights: Mapping[str, float]) -> dict[str, float]:
    """``weights`` plus a weight for each pair of adjacent query terms: the mean of the
    two terms' weights."""
    out = dict(weights)
    for a, b in pairwise(words):
        if a != b:
            out[f"{a}{PAIR}{b}"] = (weights.get(a, 0.0) + weights.get(b, 0.0)) / 2
    return out


#: A passage mostly of code counts this share of its matching weight: the prose that
#: explains a command is the better snippet.
CODE_PASSAGE_WEIGHT = 0.5


def best_passage(passage_terms: Sequence[str], weights: Mapping[str, float], code: Collection[int] = ()) -> int:
    """Index of the passage whose terms carry the most query weight (the earliest on a
    tie; the first passage when none matches, e.g. a title-only match).

    Args:
        passage_terms: per passage, its terms separated by single spaces.
        weights: query term → weight (e.g. its inverse document frequency).
        code: indexes of passages mostly of code (their weight counts
            :data:`CODE_PASSAGE_WEIGHT`).
    """
    best, best_score = 0, 0.0
    for index, line in enumerate(passage_terms):
        padded = f" {line} "
        score = sum(weight for term, weight in weights.items() if f" {term} " in padded)
        if index in code:
            score *= CODE_PASSAGE_WEIGHT
        if score > best_score:
            best, best_score = index, score
    return best


def snippet_span(passages: Sequence[str], start: int, max_chars: int = SNIPPET_MAX_CHARS) -> tuple[str, range]:
    """The passage at ``start``, followed by the next ones while they fit in ``max_chars``
    characters, and the range of passage indexes it shows (to know whether any of them
    came from an internal section).

    The snippet never starts or ends inside a word without an ellipsis (CONTRACT R3):
    passages are cut at sentences and spaces, a passage cut inside a word carries an
    ellipsis at the cut, and a text still too long is clipped with one
    (:func:`helpthread_kit.plaintext.clip_text`). Code and escaped text that would read
    as markup are shown with look-alike characters
    (:func:`helpthread_kit.plaintext.as_plain_text`), after the clip, so a cut cannot
    leave half a tag. Control characters and bidirectional overrides an author left in
    the page are not shown (:func:`helpthread_kit.plaintext.without_controls`)."""
    if not passages:
        return "", range(0)
    text = passages[start]
    end = start + 1
    for following in passages[start + 1 :]:
        joined = _join(text, following)
        if len(joined) > max_chars:
            break
        text = joined
        end += 1
    shown = as_plain_text(clip_text(without_controls(text), max_chars))
    # A passage of nothing but control characters still shows something (R3: never empty).
    return (shown if shown.strip() else ELLIPSIS), range(start, end)


def _join(text: str, following: str) -> str:
    """Two consecutive passages as one text: a word cut between them (the ellipses
    :mod:`provider.wiki.passages` puts at such a cut) is made whole again."""
    if text.endswith(ELLIPSIS) and following.startswith(ELLIPSIS) and len(text) > 1 and len(following) > 1:
        return text[:-1] + following[1:]
    return f"{text} {following}"


def cited_url(doc: Mapping[str, Any], start: int) -> str | None:
    """The citation URL of a result whose snippet starts at passage ``start`` of an entry
    whose stored ``doc`` fields are given: the URL of the heading that governs that
    passage (``doc["urls"]``, passage index → URL, holds those differing from the
    chunk's; :func:`provider.indexing.entries.unit_entries`), else the entry's ``url``
    (``None`` without one). A chunk of merged short sections cites the section whose text
    the snippet shows, not its first (CONTRACT R3: the snippet is the passage that
    matched; R7)."""
    urls = doc.get("urls") or {}
    url = urls.get(start, doc.get("url"))
    return url if isinstance(url, str) else None
