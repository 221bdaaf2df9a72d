"""Headings that name a product feature with the words of a staff label (issue 24).

``## Internal notes`` over a helpdesk's public page about its notes feature, or
``## Agents only mode`` in an SDK's docs, *names* a thing; the same heading over "The
override code is 1234." *labels* its section's readers. A heading whose words say "not
for customers" (:func:`provider.wiki.body_markers.says_not_for_customers`) is read as a
name only when the section's first paragraph speaks of the thing in the third person
(:func:`names_a_feature`):

* the heading's own words, in full, stand in a sentence of that paragraph as the object
  of an action (*Agents can add internal notes to a ticket*, *lets you add internal
  notes*) or as the subject of a verb describing it (*Internal notes are visible only to
  agents*, *Agents only mode runs the loop without a human*);
* the heading is a noun phrase: the label phrase ends in *note(s)*, or a word follows it
  in the heading (*mode*, *fields*); *Staff only*, *Agents only*, *Internal* alone stay
  labels;
* nothing in that paragraph restricts its readers or orders staff
  (:func:`~provider.wiki.restriction.restricts_readers`,
  :func:`~provider.wiki.restriction.orders_staff`: *Internal notes are for agents only*
  stays a label), and the describing sentence points at no text (*these*, *below*,
  *here*: *These internal notes are kept below* is a label), holds no colon after the
  words (*Internal notes are: …*) and has at least five words.

Fail closed: anything else stays withheld. A label section whose first sentence is
written to describe a feature (*Agents add internal notes. The override code is 1234.*)
would be served: a writer labelling a section does not write that, and the paragraph
rules (labels, restricting sentences, orders) still run on every paragraph.
"""

from __future__ import annotations

import re

from .lookalike import fold
from .restriction import orders_staff, restricts_readers

__all__ = ["names_a_feature"]

_WORD = re.compile(r"[^\W_]+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
#: Verbs acting on a named thing (its object): *add an internal note*.
_ACTIONS = frozenset(
    "add adds adding added create creates creating write writes writing leave leaves leaving post posts posting "
    "edit edits editing delete deletes deleting pin pins pinning view views viewing see sees enable enables "
    "enabling disable disables disabling use uses using attach attaches mention mentions search searches filter "
    "filters turn turns switch switches support supports".split())
#: Words that may stand between the action and the thing.
_DETERMINERS = frozenset("a an the new your their its any on off to".split())
#: Verbs describing a named thing (its subject): *internal notes are visible*.
_DESCRIBING = frozenset(
    "is are was were let lets allow allows appear appears show shows can cannot may run runs work works keep keeps "
    "stay stays give gives help helps hide hides support supports require requires apply applies start starts "
    "send sends become becomes mean means store stores record records".split())
#: Words by which a sentence points at the page's own text.
_POINTERS = frozenset("this these those following below above here hereafter".split())


def _words(text: str) -> list[str]:
    return _WORD.findall(fold(text).lower())


def _is_noun_phrase(heading: list[str], phrase: list[str]) -> bool:
    """Whether the heading names a thing: its label phrase ends in a note word, or a
    word follows the phrase in it."""
    for i in range(len(heading) - len(phrase) + 1):
        if heading[i : i + len(phrase)] == phrase:
            return phrase[-1] in ("note", "notes") or i + len(phrase) < len(heading)
    return False


def _describes(sentence: str, name: list[str]) -> bool:
    """Whether ``sentence`` speaks of the thing ``name`` (words) in the third person."""
    words = _words(sentence)
    if len(words) < 5 or _POINTERS.intersection(words):
        return False
    size = len(name)
    for i in range(len(words) - size + 1):
        if words[i : i + size] != name:
            continue
        after = words[i + size] if i + size < len(words) else ""
        j = i - 1
        while j >= 0 and words[j] in _DETERMINERS:
            j -= 1
        acted_on = j >= 0 and words[j] in _ACTIONS
        if (after in _DESCRIBING or acted_on) and not _colon_after(sentence, name):
            return True
    return False


def _colon_after(sentence: str, name: list[str]) -> bool:
    """A colon right after the name or its verb (*Internal notes are: …*) makes a label."""
    pattern = r"\W+".join(re.escape(w) for w in name) + r"\W*(?:\w+\s*)?[:：]"
    return re.search(pattern, fold(sentence).lower()) is not None


def names_a_feature(heading: str, phrase: str, paragraph: str) -> bool:
    """Whether ``heading`` (its shown text), which says ``phrase`` (a label phrase of
    :func:`~provider.wiki.body_markers.says_not_for_customers`), names a product feature
    that ``paragraph`` (the shown text of the section's first paragraph, ``""`` when
    none) describes in the third person, rather than labelling the section's readers.
    ``False`` whenever in doubt (CONTRACT X5, fail closed: the section then stays
    internal)."""
    name = _words(heading)
    if not paragraph or not name or len(name) > 5 or not _is_noun_phrase(name, phrase.split()):
        return False
    if restricts_readers(paragraph) is not None or orders_staff(paragraph) is not None:
        return False
    sentences = _SENTENCE_END.split(" ".join(paragraph.split()))
    if any(restricts_readers(s) is not None or orders_staff(s) is not None for s in sentences):
        return False
    return any(_describes(sentence, name) for sentence in sentences)
