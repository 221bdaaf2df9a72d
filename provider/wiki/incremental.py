"""The corpus rules kept between batches: a batch derives again only what it can affect.

:func:`provider.wiki.corpus.resolve` decides every document from the whole corpus. A
document's decision, though, reads only a few other documents — its **inputs**:

* the section pages in its folder and the folders above it (their cascade);
* the files with its path but another extension (twins, rule 3);
* the ``index`` files in its folder and the folders above it (Hugo leaf bundles, rule 5);
* the members of its translation group (untranslated copies, translations without or
  of an internal source, drift, translation sync, the group itself: rules 4, 5, 8–10);
* the page its path would translate were a language name removed from it, and the
  pages whose paths name a language before its own (rule 5c);
* the documents claiming its ``documentId`` (rule 7);
* the documents whose text nearly copies its own or its internal sections' (rule 6,
  from the :class:`~provider.wiki.copies.CopyGraph`);
* the documents containing a unit of its text, and those a unit of which it contains
  (rule 6d, from the :class:`~provider.wiki.containment.ContainmentIndex`).

Every rule reads those inputs' decisions of earlier rules only, so a decision is a
function of the metadata of its inputs, their inputs, and so on (the *closure*), and of
``now`` through the publication dates it compared. :class:`CorpusRules` keeps the
previous decisions and indexes of the relations above. For a batch it finds the
documents that changed (a new, changed or removed :class:`DocumentMeta`; a publication
date between the previous ``now`` and this one; a translation whose git answer was not
final), the documents whose closure holds one of them — before the change and after it —
and derives exactly those again, with :func:`~provider.wiki.corpus.derive` over them and
their closure: the result equals a resolve from scratch (tested as a property,
``tests/wiki/test_incremental_rules.py``). It fails closed: the first call, other
settings, another sitemap (a changed set of published URLs: rule 11 may change any
document), an affected share above ``max_share`` of the corpus, or any error while
keeping the state derive the whole corpus again.
"""

from __future__ import annotations

import bisect
import datetime as dt
import gc
import logging
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .containment import ContainmentIndex
from .copies import CopyGraph
from .corpus import Derived, Gate, Resolved, _sketches, derive, url_key
from .document import DocumentMeta
from .gitblobs import BlobLookup
from .layouts import Layout
from .locales import strip_extension
from .reasons import withheld_kind
from .same_text import bag_keys, file_keys
from .translation_names import candidate_stems, name_key

__all__ = ["CorpusRules", "Tally"]

log = logging.getLogger(__name__)

#: Slack around a publication date (seconds): a document is derived again when ``now``
#: moves past one of its dates give or take this much (more often than needed, never
#: less).
_DATE_SLACK_S = 1.0


@dataclass
class Tally:
    """What the decisions add up to, kept with them (a sync report's summary).

    Attributes:
        by_audience: served documents per effective audience.
        by_locale: served documents per locale.
        withheld: documents served to nobody.
        withheld_by: the same, by kind of reason (:func:`provider.wiki.reasons.withheld_kind`).
        quarantined: paths of quarantined documents.
        problems: corpus-level problems by path (documents with any).
        warnings: each document's own warnings by path (documents with any).
        url_warnings: each document's citation-URL warnings by path (documents with
            any). Not derived here (the URL needs the operator's citation settings): the
            indexer sets them for every path a call returns as touched; taking a decision
            away drops them, so none outlives its decision.
    """

    by_audience: Counter[str] = field(default_factory=Counter)
    by_locale: Counter[str] = field(default_factory=Counter)
    withheld: int = 0
    withheld_by: Counter[str] = field(default_factory=Counter)
    quarantined: set[str] = field(default_factory=set)
    problems: dict[str, tuple[str, ...]] = field(default_factory=dict)
    warnings: dict[str, tuple[str, ...]] = field(default_factory=dict)
    url_warnings: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def count(self, relpath: str, item: Resolved, sign: int) -> None:
        """Add (``sign`` 1) or take away (-1) one decision."""
        if sign > 0:
            if item.meta.warnings:
                self.warnings[relpath] = item.meta.warnings
            if item.problems:
                self.problems[relpath] = item.problems
            if item.quarantined:
                self.quarantined.add(relpath)
        else:
            self.warnings.pop(relpath, None)
            self.url_warnings.pop(relpath, None)
            self.problems.pop(relpath, None)
            self.quarantined.discard(relpath)
        if not item.served:
            self.withheld += sign
            kind = withheld_kind(item.withheld or "")
            self.withheld_by[kind] += sign
            if self.withheld_by[kind] <= 0:
                del self.withheld_by[kind]
            return
        self.by_audience[item.audience] += sign
        self.by_locale[item.meta.locale] += sign
        if sign < 0:
            for counter, key in ((self.by_audience, item.audience), (self.by_locale, item.meta.locale)):
                if counter[key] <= 0:
                    del counter[key]


def _gate_key(gate: Gate | None) -> str | None:
    """What of rule 11's gate the kept decisions depend on: its ``key`` (the sitemap's
    digest), or the gate itself for a plain function."""
    return None if gate is None else str(getattr(gate, "key", id(gate)))


def _parent(relpath: str) -> str:
    return relpath.rpartition("/")[0]


def _folders(relpath: str) -> Iterator[str]:
    """The folders holding ``relpath``, innermost first, the root (``""``) last."""
    folder = _parent(relpath)
    while True:
        yield folder
        if not folder:
            return
        folder = _parent(folder)


def _name_keys(relpath: str, meta: DocumentMeta) -> set[str]:
    """What a path naming a language before it is compared with (rule 5c): its path
    without extension and its translation group."""
    return {name_key(strip_extension(relpath)), name_key(meta.translation_group)}


def _is_index(relpath: str) -> bool:
    folder, _, name = relpath.rpartition("/")
    return bool(folder) and name.split(".", 1)[0].lower() == "index"


class CorpusRules:
    """The corpus-wide decisions of the previous batch, and what they depend on.

    Not thread-safe: one indexer calls it. Memory: a few small sets and tuples per
    document beside the :class:`~provider.wiki.copies.CopyGraph`.

    Args:
        max_share: when a batch affects more than this share of the corpus, the whole
            corpus is derived again (cheaper than following so many relations).

    Attributes:
        copies: the near-copy graph of the corpus's sketches.
        tally: what the current decisions add up to.
        last_full: whether the last call derived the whole corpus.
        last_derived: documents derived in the last call.
    """

    def __init__(self, *, max_share: float = 0.5) -> None:
        self.max_share = max_share
        self.copies = CopyGraph()
        self.contained = ContainmentIndex()
        self.last_full = True
        self.last_derived = 0
        self._config: tuple[Any, ...] | None = None
        self._docs: dict[str, DocumentMeta] = {}
        self._resolved: dict[str, Resolved] = {}
        self._dates: dict[str, tuple[float, ...]] = {}
        self._timeline: list[tuple[float, str]] = []
        self._unsettled: set[str] = set()
        self._now: dt.datetime | None = None
        self._by_stem: dict[str, set[str]] = defaultdict(set)
        #: stem → the documents whose path names a language before it (rule 5c; stems
        #: and the two indexes below compared by :func:`~provider.wiki.translation_names.name_key`).
        self._by_candidate: dict[str, set[str]] = defaultdict(set)
        #: path without extension, and translation group → the documents (rule 5c).
        self._by_name: dict[str, set[str]] = defaultdict(set)
        self._by_group: dict[str, set[str]] = defaultdict(set)
        #: Jekyll URL → documents (jekyll-polyglot joins the pages of one URL: rule 5).
        self._by_url: dict[str, set[str]] = defaultdict(set)
        self._by_id: dict[str, set[str]] = defaultdict(set)
        self._sections: dict[str, set[str]] = defaultdict(set)
        self._bundles: dict[str, set[str]] = defaultdict(set)
        self._ordered: list[str] = []
        self._bundle_rule = False
        self._linked: dict[str, set[str]] = defaultdict(set)
        self._by_file: dict[str, set[str]] = defaultdict(set)
        self._by_bag: dict[str, set[str]] = defaultdict(set)
        self.tally = Tally()

    def symlinked(self) -> list[tuple[str, str]] | None:
        """``(real path, path)`` of every document reached through a symlink, sorted, as
        of the last call (``None`` when there is no state to tell)."""
        if self._config is None:
            return None
        return sorted((real, relpath) for real, paths in self._linked.items() for relpath in paths)

    def invalidate(self) -> None:
        """Forget the state: the next call derives the whole corpus (e.g. after a batch
        whose decisions could not be written)."""
        self._config = None

    def resolve(
        self, docs: Mapping[str, DocumentMeta], *, default_locale: str | None, now: dt.datetime,
        blobs: BlobLookup | None = None, layout: Layout | None = None, changed: Iterable[str] | None = None,
        gate: Gate | None = None,
    ) -> tuple[Mapping[str, Resolved], set[str]]:
        """The decisions of :func:`provider.wiki.corpus.resolve` for ``docs`` at ``now``.

        Args:
            docs: every document's metadata by relative path (a changed document has a
                new :class:`DocumentMeta` object; objects are compared by identity).
            default_locale, now, blobs, layout: as for :func:`~provider.wiki.corpus.resolve`.
            changed: every path whose entry in ``docs`` was set or removed since the
                previous call (more is harmless), so the others are not compared; ``None``:
                compare every entry.
            gate: rule 11's :class:`~provider.wiki.site_gate.SiteGate` (or ``None``); a
                gate with another ``key`` (another set of published URLs) derives the
                whole corpus again.

        Returns:
            ``(resolved, touched)``: every document's decision (a read-only view of the
            kept decisions: it changes with the next call; a copy would cost a pass over
            every entry), and the paths whose decision may differ from the previous call's, removed ones included
            (every path, before and after, when the whole corpus was derived).
        """
        paused = gc.isenabled()
        gc.disable()
        try:
            config = (default_locale, layout, id(blobs), _gate_key(gate))
            if self._config == config:
                try:
                    found = self._incremental(docs, default_locale=default_locale, now=now, blobs=blobs,
                                              layout=layout, hint=changed, gate=gate)
                except Exception:  # the full derivation is the reference: fail closed to it
                    log.warning("incremental corpus rules failed; deriving the whole corpus", exc_info=True)
                    found = None
                if found is not None:
                    return found
            return self._full(docs, default_locale=default_locale, now=now, blobs=blobs, layout=layout,
                              config=config, gate=gate)
        finally:
            if paused:
                gc.enable()

    # -- the whole corpus ------------------------------------------------------------------

    def _full(
        self, docs: Mapping[str, DocumentMeta], *, default_locale: str | None, now: dt.datetime,
        blobs: BlobLookup | None, layout: Layout | None, config: tuple[Any, ...], gate: Gate | None = None,
    ) -> tuple[Mapping[str, Resolved], set[str]]:
        self._config = None  # until the state below is complete
        before = set(self._resolved)
        self.copies.sync(_sketches(docs))
        self.contained.rebuild(docs)
        derived = derive(docs, default_locale=default_locale, now=now, blobs=blobs, layout=layout, copies=self.copies,
                         gate=gate, rare=self.contained.rarity)
        self._bundle_rule = bool(layout is not None and layout.bundle_resources)
        for index in (self._by_stem, self._by_candidate, self._by_group, self._by_url, self._by_id, self._sections,
                      self._bundles,
                      self._linked, self._by_file, self._by_bag):
            index.clear()
        for relpath, meta in docs.items():
            self._index(relpath, meta)
        self._ordered = sorted(docs)
        self._docs = dict(docs)
        self._resolved = derived.resolved
        self.tally = Tally()
        for relpath, item in self._resolved.items():
            self.tally.count(relpath, item, 1)
        self._dates = dict(derived.dates)
        self._timeline = sorted((when, relpath) for relpath, dates in derived.dates.items() for when in dates)
        self._unsettled = set(derived.unsettled)
        self._now = now
        self._config = config
        self.last_full, self.last_derived = True, len(docs)
        return MappingProxyType(self._resolved), before | set(self._resolved)

    # -- one batch ---------------------------------------------------------------------------

    def _incremental(
        self, docs: Mapping[str, DocumentMeta], *, default_locale: str | None, now: dt.datetime,
        blobs: BlobLookup | None, layout: Layout | None, hint: Iterable[str] | None = None,
        gate: Gate | None = None,
    ) -> tuple[Mapping[str, Resolved], set[str]] | None:
        previous = self._docs
        if hint is None:
            changed = {relpath for relpath, meta in docs.items() if previous.get(relpath) is not meta}
            changed.update(previous.keys() - docs.keys())
        else:
            changed = {relpath for relpath in hint if previous.get(relpath) is not docs.get(relpath)}
        if self._now is not None and now != self._now:
            changed.update(self._dated_between(self._now, now))
        changed |= self._unsettled
        # The share of the larger of the corpus before and after: removing every document
        # is a change of the whole corpus before, whatever is left after.
        limit = max(int(self.max_share * max(len(docs), len(previous))), 1)
        if not changed:
            self._now = now
            self.last_full, self.last_derived = False, 0
            return MappingProxyType(self._resolved), set()
        if len(changed) > limit:
            return None
        # Whose closure holds a changed document, before the change (its old relations)…
        affected = self._closure((p for p in changed if p in previous), previous, reverse=True, limit=limit)
        if affected is None:
            return None
        self._config = None  # the relations are half updated until the end
        if not self._apply(changed, previous, docs):
            return None  # a value became common or distinctive (rule 6d): derive everything
        # … and after it.
        after = self._closure((p for p in changed if p in docs), docs, reverse=True, limit=limit)
        if after is None:
            return None
        # Membership tests, not set operations with ``docs.keys()``: those walk the corpus.
        affected = {relpath for relpath in affected | after if relpath in docs}
        needed = self._closure(affected, docs, reverse=False, limit=limit)
        if needed is None:
            return None
        derived: Derived = derive({p: docs[p] for p in needed}, default_locale=default_locale, now=now, blobs=blobs,
                                  layout=layout, copies=self.copies, gate=gate, rare=self.contained.rarity)
        removed = {relpath for relpath in changed if relpath not in docs}
        touched = set(removed)
        for relpath in removed:
            gone = self._resolved.pop(relpath, None)
            if gone is not None:
                self.tally.count(relpath, gone, -1)
            self._set_dates(relpath, ())
            self._unsettled.discard(relpath)
        for relpath in needed:
            item = derived.resolved[relpath]
            was = self._resolved.get(relpath)
            if was != item:
                touched.add(relpath)
                if was is not None:
                    self.tally.count(relpath, was, -1)
                self.tally.count(relpath, item, 1)
                self._resolved[relpath] = item
            self._set_dates(relpath, derived.dates.get(relpath, ()))
            if relpath in derived.unsettled:
                self._unsettled.add(relpath)
            else:
                self._unsettled.discard(relpath)
        self._now = now
        self._config = (default_locale, layout, id(blobs), _gate_key(gate))
        self.last_full, self.last_derived = False, len(needed)
        return MappingProxyType(self._resolved), touched

    def _dated_between(self, first: dt.datetime, second: dt.datetime) -> list[str]:
        low, high = sorted((first.timestamp(), second.timestamp()))
        start = bisect.bisect_left(self._timeline, low - _DATE_SLACK_S, key=lambda entry: entry[0])
        end = bisect.bisect_right(self._timeline, high + _DATE_SLACK_S, key=lambda entry: entry[0])
        return [relpath for _, relpath in self._timeline[start:end]]

    def _set_dates(self, relpath: str, dates: tuple[float, ...]) -> None:
        old = self._dates.get(relpath, ())
        if old == dates:
            return
        for when in old:
            at = bisect.bisect_left(self._timeline, (when, relpath))
            if at < len(self._timeline) and self._timeline[at] == (when, relpath):
                del self._timeline[at]
        for when in dates:
            bisect.insort(self._timeline, (when, relpath))
        if dates:
            self._dates[relpath] = dates
        else:
            self._dates.pop(relpath, None)

    # -- relations ------------------------------------------------------------------------

    def _index(self, relpath: str, meta: DocumentMeta) -> None:
        self._by_stem[strip_extension(relpath)].add(relpath)
        for key in _name_keys(relpath, meta):
            self._by_name[key].add(relpath)
        for stem, _ in candidate_stems(relpath, meta.locale):
            self._by_candidate[stem].add(relpath)
        self._by_group[name_key(meta.translation_group)].add(relpath)  # as rule 5b compares groups
        if (url := url_key(meta)) is not None:
            self._by_url[url].add(relpath)
        self._by_id[meta.doc_id].add(relpath)
        if meta.section:
            self._sections[_parent(relpath)].add(relpath)
        if self._bundle_rule and _is_index(relpath):
            self._bundles[_parent(relpath)].add(relpath)
        if meta.real_relpath is not None:
            self._linked[meta.real_relpath].add(relpath)
        for key in file_keys(relpath, meta):
            self._by_file[key].add(relpath)
        for bag in bag_keys(relpath, meta):
            self._by_bag[bag].add(relpath)

    def _unindex(self, relpath: str, meta: DocumentMeta) -> None:
        for index, key in ((self._by_stem, strip_extension(relpath)),
                           (self._by_group, name_key(meta.translation_group)),
                           (self._by_url, url_key(meta) or ""),
                           *((self._by_name, key) for key in _name_keys(relpath, meta)),
                           *((self._by_candidate, stem) for stem, _ in candidate_stems(relpath, meta.locale)),
                           (self._by_id, meta.doc_id), (self._sections, _parent(relpath)),
                           (self._bundles, _parent(relpath)), (self._linked, meta.real_relpath or ""),
                           *((self._by_file, key) for key in file_keys(relpath, meta)),
                           *((self._by_bag, bag) for bag in bag_keys(relpath, meta))):
            members = index.get(key)
            if members is not None:
                members.discard(relpath)
                if not members:
                    del index[key]

    def _apply(self, changed: Iterable[str], previous: dict[str, DocumentMeta],
               docs: Mapping[str, DocumentMeta]) -> bool:
        """Bring the relations, the copy graph and the kept metadata to ``docs`` for the
        changed paths. Returns whether rule 6d's :class:`~provider.wiki.containment.Rarity`
        kept every value's status (else only a full derivation is exact)."""
        contained = {relpath: (previous.get(relpath), docs.get(relpath)) for relpath in changed}
        for relpath in changed:
            old, new = previous.get(relpath), docs.get(relpath)
            if old is not None:
                self._unindex(relpath, old)
            if new is not None:
                self._index(relpath, new)
                previous[relpath] = new
                if old is None:
                    bisect.insort(self._ordered, relpath)
            else:
                previous.pop(relpath, None)
                at = bisect.bisect_left(self._ordered, relpath)
                if at < len(self._ordered) and self._ordered[at] == relpath:
                    del self._ordered[at]
            self.copies.update(relpath, new.sketch if new is not None else "")
            self.copies.update(relpath + "#internal", new.internal_sketch if new is not None else "")
        return self.contained.update(contained, docs)

    def _below(self, folder: str) -> list[str]:
        if not folder:
            return self._ordered
        prefix = folder + "/"
        start = bisect.bisect_left(self._ordered, prefix)
        end = bisect.bisect_left(self._ordered, folder + "0")  # "0" is the character after "/"
        return self._ordered[start:end]

    def _related(self, relpath: str, meta: DocumentMeta, docs: Mapping[str, DocumentMeta], *,
                 reverse: bool) -> Iterator[str]:
        """The inputs of ``relpath``'s decision (``reverse``: the documents it is an input
        of), in the current state of the relations."""
        yield from self._by_stem.get(strip_extension(relpath), ())
        # A path naming a language reads the page without it, and that page's group (5c).
        for key in _name_keys(relpath, meta):
            yield from self._by_candidate.get(key, ())
        for stem, _ in candidate_stems(relpath, meta.locale):
            yield from self._by_name.get(stem, ())
        yield from self._by_group.get(name_key(meta.translation_group), ())
        if (url := url_key(meta)) is not None:
            yield from self._by_url.get(url, ())
        yield from self._by_id.get(meta.doc_id, ())
        for key in file_keys(relpath, meta):  # the same file by another path (rule 1b)
            yield from self._by_file.get(key, ())
        for bag in bag_keys(relpath, meta):  # the same words (rule 6b)
            yield from self._by_bag.get(bag, ())
        for key in (relpath, relpath + "#internal"):
            for other in self.copies.neighbours(key):
                yield other.partition("#")[0]
        yield from self.contained.related(relpath, meta, docs)  # contained text (rule 6d)
        if reverse:
            if meta.section or (self._bundle_rule and _is_index(relpath)):
                yield from self._below(_parent(relpath))
            return
        for folder in _folders(relpath):
            yield from self._sections.get(folder, ())
            yield from self._bundles.get(folder, ())

    def _closure(self, start: Iterable[str], docs: Mapping[str, DocumentMeta], *, reverse: bool,
                 limit: int) -> set[str] | None:
        """``start`` and every document reached from it through :meth:`_related`
        (``None`` past ``limit`` documents)."""
        seen = set(start)
        todo = list(seen)
        while todo:
            relpath = todo.pop()
            for other in self._related(relpath, docs[relpath], docs, reverse=reverse):
                if other not in seen and other in docs:
                    seen.add(other)
                    todo.append(other)
                    if len(seen) > limit:
                        return None
        return seen if len(seen) <= limit else None
