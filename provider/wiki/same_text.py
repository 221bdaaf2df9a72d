"""Corpus rules about one text under several names (:mod:`provider.wiki.corpus` calls
them on its drafts; CONTRACT X2).

* **Rule 1b — one file, several paths.** A file reached through a symlink or a hard link
  is one text: every path gets the strictest status of them all (withheld, else
  internal), so a symlink from a public Hugo section into a cascade-internal one is
  internal.
* **Rule 6b — the same words.** A public document whose words are exactly those of an
  internal or withheld document or internal section, in any order
  (:func:`provider.wiki.copies.word_bag`), inherits its status: the near-copy sketch
  misses texts under its shingle floor and texts whose words or sentences were
  reordered.
* **Rule 6c — a copied paragraph.** A public document with a paragraph of at least
  :data:`provider.wiki.copies.MIN_PARAGRAPH_WORDS` words whose words (in any order) are
  those of a paragraph of an internal or withheld document, or of any document's
  internal section, inherits its status as in rule 6b: a long public page that quotes an
  internal paragraph is as internal as the paragraph (containment, which neither the
  sketch nor the whole-text bag sees).

* **Rule 6d — contained text** (:mod:`provider.wiki.containment`): a public document
  holding the distinctive content of an internal text (verbatim, edited, reordered,
  spread over the page, or a part of it when other pages hold the rest) inherits its
  status.

All four take their sources from one predicate, :func:`copy_source`, and relate
documents the incremental rules must follow (:func:`file_keys`, :func:`bag_keys`,
:class:`provider.wiki.containment.ContainmentIndex`: :mod:`provider.wiki.incremental`
indexes them).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Protocol

from .audience import CORPUS, INTERNAL, KEPT_OUT_OF_SEARCH, PUBLIC, Reason
from .containment import (
    MIN_DISTINCT_SHINGLES,
    Rarity,
    Skeletons,
    Unit,
    contained,
    held,
    page_values,
    part,
    parts_cover,
    public_set,
    rarity,
    text_units,
    units,
)
from .copies import MIN_PARAGRAPH_WORDS
from .document import DocumentMeta
from .findings import NEAR_COPY

__all__ = ["NOT_MEANT", "ON_THE_SITE", "WITHHELD", "Draft", "bag_keys", "contained_text", "copy_source",
           "file_keys", "same_file", "same_paragraphs", "same_words"]

#: How the withholding reasons of pages the site still publishes under their URL end:
#: ``ROBOTS: NOINDEX`` with ``withhold_noindex``
#: (:func:`provider.wiki.audience_map.operator_withholding`), Docusaurus ``unlisted``
#: (built, only left out of lists), a redirect stub
#: (:func:`provider.wiki.redirects.redirect_stub`: "this page has moved" under its URL,
#: no text of the site's own; its link text in Japanese, Korean, Chinese withheld 4
#: openai-agents-docs pages when it was a source).
ON_THE_SITE = ("NOINDEX (withhold_noindex)", "front matter unlisted", "with a script or a meta refresh")

#: Audience sources that say no one asked for the page to be internal: a duplicate id
#: makes both claimants internal (neither is a secret the other copies); a page kept out
#: of search engines is published on the site.
NOT_MEANT = ("fail-closed: duplicate documentId", KEPT_OUT_OF_SEARCH)

#: :func:`copy_source`'s answer for a source whose copies are withheld like it.
WITHHELD = "withheld"


class Draft(Protocol):
    """What these rules read and set of a document's decisions while the corpus rules run
    (``provider.wiki.corpus._Draft``)."""

    meta: DocumentMeta
    audience: str
    audience_source: str
    withheld: str | None
    problems: list[str]
    quarantine: list[str]
    withheld_as_duplicate: bool
    copied_from: set[str]

    def decide(self, reason: Reason) -> None:
        """Set the audience through the corpus story (:class:`provider.wiki.corpus._Draft`)."""


def copy_source(draft: Draft) -> tuple[str | None, bool]:
    """Which text of a document the copy rules (6, 6b, 6c, 6d) take copies of, and what a
    copy inherits: ``(whole, sections)``. ``whole`` is :data:`WITHHELD` (a public copy of
    the document's text is withheld like it), ``INTERNAL`` (made internal) or ``None``
    (its whole text is no source); ``sections``: whether its internal sections are
    sources (a copy of one is made internal).

    The rule, the same for all four:

    * a document withheld as a duplicate (twins, untranslated copies, a translation the
      tool does not build) passes nothing on: it duplicates the page it would demote;
    * a document withheld for a reason ending in one of :data:`ON_THE_SITE` (NOINDEX,
      ``unlisted``, a redirect stub) is published on the site under its URL, so its
      withholding passes nothing on; it is an ``INTERNAL`` source (whole text and
      sections) only when its own metadata (:attr:`DocumentMeta.audience`: front matter,
      the operator's audience rules) makes it internal for a meant reason (an audience
      source not starting with one of :data:`NOT_MEANT`);
    * any other withheld document is a :data:`WITHHELD` source;
    * a served document is an ``INTERNAL`` source when its audience is not public for a
      meant reason; its internal sections are sources whatever its audience.

    Rule 6d reads units only of documents whose metadata can make them a source
    (:func:`provider.wiki.containment.source_capable`): a document public by its metadata
    and internal only by a corpus rule (a Hugo section's cascade) has none there."""
    withheld = draft.withheld
    if draft.withheld_as_duplicate:
        return None, False
    if withheld is not None and withheld.endswith(ON_THE_SITE):
        meant = draft.meta.audience != PUBLIC and not draft.meta.sources.get("audience", "").startswith(NOT_MEANT)
        return (INTERNAL, True) if meant else (None, False)
    if withheld is not None:
        return WITHHELD, True
    if draft.audience != PUBLIC and not draft.audience_source.startswith(NOT_MEANT):
        return INTERNAL, True
    return None, True


def copied_back(drafts: Mapping[str, Draft], relpath: str, key: str) -> bool:
    """Whether the source ``key`` (a path, or a path and ``#internal``) took its status
    from ``relpath`` by a copy rule: its text shared with ``relpath`` is ``relpath``'s own,
    and must not come back to demote it (issue 24: ``b.md`` quoting the public paragraphs
    around ``a.md``'s internal section was internal, then ``a.md`` as holding ``b.md``'s
    paragraph). Other pages copying that source still inherit its status."""
    return relpath in drafts[key.partition("#")[0]].copied_from


def file_keys(relpath: str, meta: DocumentMeta) -> tuple[str, ...]:
    """What identifies the file a document was read from: its real path (a symlink's
    target) and, when known, its inode (hard links share it)."""
    keys = ("path:" + (meta.real_relpath or relpath),)
    return (*keys, f"inode:{meta.inode}") if meta.inode else keys


def same_file(drafts: Mapping[str, Draft]) -> None:
    """Rule 1b: one file reached by several paths (symlinks, hard links) gets the
    strictest status of every path: withheld if any path withholds it, else internal if
    any path makes it internal (a symlink into a cascade-internal section)."""
    by_key: dict[str, list[str]] = defaultdict(list)
    for relpath, draft in drafts.items():
        for key in file_keys(relpath, draft.meta):
            by_key[key].append(relpath)
    if all(len(paths) < 2 for paths in by_key.values()):
        return
    parent: dict[str, str] = {}

    def root(path: str) -> str:
        while parent.get(path, path) != path:
            path = parent[path]
        return path

    for paths in by_key.values():
        for other in paths[1:]:
            a, b = root(paths[0]), root(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: dict[str, list[str]] = defaultdict(list)
    for relpath in drafts:
        groups[root(relpath)].append(relpath)
    for paths in groups.values():
        if len(paths) < 2:
            continue
        paths.sort()
        withheld = next((p for p in paths if drafts[p].withheld is not None), None)
        internal = next((p for p in paths if drafts[p].audience != PUBLIC), None)
        for relpath in paths:
            draft = drafts[relpath]
            if withheld is not None and draft.withheld is None:
                draft.withheld = f"the same file as {withheld}, which is not served: {drafts[withheld].withheld}"
                draft.problems.append(f"the same file as {withheld} (a link); withheld as it is")
            if internal is not None and draft.audience == PUBLIC:
                draft.decide(Reason(INTERNAL, f"fail-closed: the same file as the internal {internal}", CORPUS))
                draft.problems.append(f"the same file as {internal} (a link), which is internal; served as internal")


def bag_keys(relpath: str, meta: DocumentMeta) -> tuple[str, ...]:
    """The word bags (:func:`provider.wiki.copies.word_bag`) a document holds, whole text
    and internal sections, and its paragraph bags (rule 6c): the incremental rules
    relate documents sharing one."""
    return (*(bag for bag in (meta.bag, meta.internal_bag) if bag), *meta.paragraph_bags,
            *meta.internal_paragraph_bags)


def same_words(drafts: Mapping[str, Draft]) -> None:
    """Rule 6b: a public document with the very words of an internal or withheld
    document (or internal section) — too short for a sketch, or reordered — inherits its
    status as in rule 6 (the sources of :func:`copy_source`, the same acceptance)."""
    sources: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for relpath, draft in sorted(drafts.items()):
        whole, sections = copy_source(draft)
        if draft.meta.bag and whole is not None:
            sources[draft.meta.bag].append((relpath, whole == WITHHELD))
        if draft.meta.internal_bag and sections:
            sources[draft.meta.internal_bag].append((relpath + "#internal", False))
    if not sources:
        return
    for relpath, draft in sorted(drafts.items()):
        if draft.withheld is not None or draft.audience != PUBLIC or not draft.meta.bag:
            continue
        group = draft.meta.translation_group
        found = [(key, withheld) for key, withheld in sources.get(draft.meta.bag, ())
                 if key.partition("#")[0] != relpath and drafts[key.partition("#")[0]].meta.translation_group != group
                 and not copied_back(drafts, relpath, key)]
        if not found:
            continue
        key, withheld = next((f for f in found if f[1]), found[0])
        path = key.partition("#")[0] + (" (its internal section)" if key.endswith("#internal") else "")
        _inherit(draft, key, drafts[key].withheld if withheld else None, accepted=f"the same words as {path}",
                 withheld=(f"the same words as {path}", f"nearly the same text as {path} (the same words)"),
                 internal=(f"a copy of the internal {path}",
                           f"nearly the same text as the internal {path} (the same words)"))


def same_paragraphs(drafts: Mapping[str, Draft], *, rare: Rarity | None = None) -> None:
    """Rule 6c: a public document holding a paragraph (any word order) of an internal or
    withheld document, or of any document's internal section, outside its translation
    group, inherits its status as in rule 6b (the sources of :func:`copy_source`, the
    same finding code, so ``accepted_findings`` accepts it for the file's current bytes).

    Only a paragraph that is not boilerplate counts (:func:`_not_boilerplate`, with rule
    6d's rarity ``rare``; ``None``: measured on ``drafts``, the whole corpus): a paragraph
    made only of runs many public pages hold (Microsoft Learn's administrator-account
    note shared by Teams and Exchange articles) is site wording, not the source's text."""
    sources: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for relpath, draft in sorted(drafts.items()):
        whole, sections = copy_source(draft)
        if whole is not None:
            for bag in draft.meta.paragraph_bags:
                sources[bag].append((relpath, whole == WITHHELD))
        if sections:
            for bag in draft.meta.internal_paragraph_bags:
                sources[bag].append((relpath + "#internal", False))
    if not sources:
        return
    for relpath, draft in sorted(drafts.items()):
        if draft.withheld is not None or draft.audience != PUBLIC or not draft.meta.paragraph_bags:
            continue
        group = draft.meta.translation_group
        found = [(key, withheld) for bag in draft.meta.paragraph_bags for key, withheld in sources.get(bag, ())
                 if key.partition("#")[0] != relpath and drafts[key.partition("#")[0]].meta.translation_group != group
                 and not copied_back(drafts, relpath, key)]
        if not found:
            continue
        if rare is None:
            rare = rarity({path: d.meta for path, d in drafts.items()})
        page = public_set(draft.meta)
        found = [f for f in found if _not_boilerplate(drafts[f[0].partition("#")[0]].meta, f[0].endswith("#internal"),
                                                      page, rare)]
        if not found:
            continue
        key, withheld = min(found, key=lambda f: (not f[1], f[0]))
        source = key.partition("#")[0]
        path = source + (" (its internal section)" if key.endswith("#internal") else "")
        _inherit(draft, source, drafts[source].withheld if withheld else None, accepted=f"a paragraph of {path}",
                 withheld=(f"a paragraph copied from {path}", f"holds a paragraph of {path} (the same words)"),
                 internal=(f"holds a paragraph of the internal {path}",
                           f"holds a paragraph of the internal {path} (the same words)"))


def _not_boilerplate(source: DocumentMeta, internal: bool, page: frozenset[int], rare: Rarity) -> bool:
    """Rule 6c's rarity test: whether a block of ``source`` (of its internal sections when
    ``internal``) of a paragraph's length whose words ``page`` all holds — the copied
    paragraph — has :data:`~provider.wiki.containment.MIN_DISTINCT_SHINGLES` distinctive
    word triples. Judged on the source's paragraph, not on what else the page holds:
    Microsoft Learn's "This feature requires a Microsoft 365 administrator account…"
    note is made of runs many public articles hold, whichever page quotes it; and a block
    :data:`~provider.wiki.containment.BOILERPLATE_DOCS` public pages hold whole has none
    (:meth:`~provider.wiki.containment.Rarity.distinctive`)."""
    whole, inner = text_units(source)
    for unit in inner if internal else whole:
        # A sentence is no paragraph: a sentence of another block whose words the page
        # holds scattered confirmed Learn's administrator-account note on 2 articles.
        # Of a paragraph's length: its terms (shingles + 2), less 2 numbers written one way
        # (terms joins "555-0199", words splits it); a script without spaces, twice that.
        terms = len(unit.order) + 2
        if unit.pairs or unit.secret or unit.names or unit.sentence \
                or terms < (MIN_PARAGRAPH_WORDS - 2) * (2 if unit.split else 1) or not unit.words <= page:
            continue
        if len(rare.distinctive(unit)[0]) >= MIN_DISTINCT_SHINGLES:
            return True
    return False


def contained_text(drafts: Mapping[str, Draft], *, rare: Rarity | None = None) -> None:
    """Rule 6d: a public document containing a unit (:func:`provider.wiki.containment.units`)
    of an internal or withheld document, or of any document's internal sections — its own
    translations included —, by its distinctive content
    (:func:`provider.wiki.containment.contained`), or carrying a part of one that other
    pages carry the rest of (:func:`~provider.wiki.containment.part`), inherits its status
    as rule 6c does (the sources of :func:`copy_source`; the same ``near-copy`` finding).
    ``rare``: the corpus's :class:`~provider.wiki.containment.Rarity` (``None``: ``drafts``
    is the whole corpus, and it is measured on it)."""
    sources: list[tuple[Unit, str, bool]] = []
    for relpath, draft in sorted(drafts.items()):
        kind, sections = copy_source(draft)
        whole, internal = units(draft.meta)
        if kind is not None:
            sources += [(unit, relpath, kind == WITHHELD) for unit in whole]
        if sections:
            sources += [(unit, relpath + "#internal", False) for unit in internal]
    if not sources:
        return
    # The corpus's secrets are looked for in each public page's skeleton here, once.
    skeletons = Skeletons(unit for unit, _, _ in sources)
    pages = {relpath: page_values(draft.meta, skeletons) for relpath, draft in drafts.items()
             if draft.meta.block_shingles and draft.withheld is None and draft.audience == PUBLIC}
    if rare is None:
        rare = rarity({relpath: draft.meta for relpath, draft in drafts.items()}, pages)
    common = rare.common
    by_value: dict[int, list[int]] = defaultdict(list)
    for number, (unit, _, _) in enumerate(sources):
        for value in unit.values() - common:
            by_value[value].append(number)
    indexed = by_value.keys()
    found: dict[str, list[tuple[bool, str, str]]] = defaultdict(list)
    parts: dict[int, list[tuple[str, frozenset[int], bool]]] = defaultdict(list)
    for relpath, page in sorted(pages.items()):
        # A translation is no exception here: text of an internal source left as it is in a
        # public translation is the source's text (the attack's esc.fr.md), not a translation.
        candidates = {number for value in indexed & page for number in by_value[value]}
        language = _language(drafts[relpath].meta.locale)
        for number in sorted(candidates):
            unit, key, withheld = sources[number]
            if key.partition("#")[0] == relpath or copied_back(drafts, relpath, key):
                continue
            # Words in any order across languages are terms a translation keeps (5 to 7
            # English glossary terms of kaia's archive over a Korean FAQ), not a copy.
            same_language = _language(drafts[key.partition("#")[0]].meta.locale) == language
            if contained(unit, page, rare, words=same_language):
                shingles, words_ = held(unit, page, rare)
                share = "a code beside one of its words" if unit.pairs else \
                    "the value of a line naming a secret" if unit.secret else \
                    f"{words_} distinctive words of a list of names" if unit.names else \
                    f"{shingles} distinctive word triples, {words_} words"
                found[relpath].append((not withheld, key, share))
                # Its pieces still count: the rest of a note one page holds most of may
                # be the piece another page carries.
                if same_language and (carried := part(unit, page, rare)):
                    parts[number].append((relpath, carried, True))
            elif same_language and (carried := part(unit, page, rare)):
                parts[number].append((relpath, carried, False))
    for number, holders in parts.items():
        unit, key, withheld = sources[number]
        # One page too: its pieces with a word changed every 10 words are the text edited,
        # which the wording path's 80 % of runs misses (issue 24).
        if (len(holders) > 1 or not unit.code) and parts_cover(unit, (carried for _, carried, _ in holders), rare,
                                                               alone=len(holders) == 1):
            for relpath, carried, copy in holders:
                if not copy:
                    rest = f", the rest on {len(holders) - 1} other pages" if len(holders) > 1 else ", edited"
                    found[relpath].append((not withheld, key, f"a part: {len(carried)} of its {len(unit.order)} word"
                                                              f" triples{rest}"))
    _site_text(found, drafts)
    for relpath, hits in sorted(found.items()):
        if not hits:
            continue
        if any(p.startswith("accepted near-copy") for p in drafts[relpath].problems):
            continue  # an earlier copy rule's finding on this page is accepted: one line says so
        not_withheld, key, share = min(hits)
        source = key.partition("#")[0]
        path = source + (" (its internal section)" if key.endswith("#internal") else "")
        _inherit(drafts[relpath], source, None if not_withheld else drafts[source].withheld,
                 accepted=f"text of {path}",
                 withheld=(f"text copied from {path}", f"holds the text of {path} ({share})"),
                 internal=(f"holds the text of the internal {path}",
                           f"holds the text of the internal {path} ({share})"))


def _site_text(found: dict[str, list[tuple[bool, str, str]]], drafts: Mapping[str, Draft]) -> None:
    """Drop from ``found`` (public page → ``(not withheld, source key, share)`` hits)
    the hits on a withheld source (a draft, a page not yet due) that two or more public
    pages hold, when the source's own metadata makes it public: that text is the site's,
    which the withheld page quotes (rule 6 says so too; issue 24). An internal source, or
    a withheld one its metadata makes internal, keeps every hit: its text pasted onto many
    public pages is still internal."""
    holders: dict[str, set[str]] = defaultdict(set)
    for relpath, hits in found.items():
        for not_withheld, key, _ in hits:
            if not not_withheld:
                holders[key].add(relpath)
    shared = {key for key, pages in holders.items()
              if len(pages) > 1 and drafts[key.partition("#")[0]].meta.audience == PUBLIC and "#" not in key}
    if not shared:
        return
    for relpath, hits in found.items():
        kept = [hit for hit in hits if hit[0] or hit[1] not in shared]
        if len(kept) < len(hits):
            gone = sorted({hit[1] for hit in hits if hit not in kept})
            drafts[relpath].problems.append(
                f"holds the text of {', '.join(gone)}, which is not served; two or more public pages hold it, so "
                "it is the site's: served")
        hits[:] = kept


def _language(locale: str) -> str:
    return locale.replace("_", "-").partition("-")[0].casefold()


def _inherit(draft: Draft, key: str, source_withheld: str | None, *, accepted: str,
             withheld: tuple[str, str], internal: tuple[str, str]) -> None:
    """Rules 6b and 6c's one decision: a public ``draft`` related to a source ``key`` (a
    path, maybe with ``#internal``; withheld for ``source_withheld``, else internal) is
    withheld or made internal, and quarantined — unless the operator accepted its
    ``near-copy`` finding. ``withheld`` and ``internal``: (what the reason says, what the
    quarantine message says)."""
    if NEAR_COPY in draft.meta.accepted:
        draft.problems.append(f"accepted near-copy: {accepted}; accepted in accepted_findings")
        return
    draft.copied_from.add(key.partition("#")[0])
    if source_withheld is not None:
        draft.withheld = f"{withheld[0]}, which is not served: {source_withheld}"
        draft.quarantine.append(f"{withheld[1]}, which is not served; not served either")
    else:
        draft.decide(Reason(INTERNAL, f"fail-closed: {internal[0]}", CORPUS))
        draft.quarantine.append(f"{internal[1]}; served as internal")
