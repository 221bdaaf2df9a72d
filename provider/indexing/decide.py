"""Decide: the corpus rules over the manifest's documents, and what a batch must write.

:func:`resolve` brings every decision the batch can affect up to date
(:class:`~provider.wiki.incremental.CorpusRules`, kept with the manifest);
:func:`changes_of` compares the decisions with what was last written (fingerprints) and
names the documents whose entries change, in either index. :func:`to_withdraw` is the
quick decision taken before a batch is read (CONTRACT X7).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..wiki.corpus import Resolved, public_part
from ..wiki.document import WikiSettings
from ..wiki.gitblobs import GitBlobs
from ..wiki.quickcheck import may_have_left_public
from ..wiki.site_gate import SiteSource
from .entries import url_warnings_of
from .manifest import Manifest

__all__ = ["Changes", "changes_of", "resolve", "to_withdraw"]


def resolve(settings: WikiSettings, manifest: Manifest, *, now: dt.datetime, blobs: GitBlobs,
            site: SiteSource | None) -> tuple[Mapping[str, Resolved], set[str]]:
    """The corpus rules over the manifest's documents, and the paths whose decision may
    have changed since the last call (:class:`~provider.wiki.incremental.CorpusRules`).
    ``site``: the sitemap, when one is configured (a page off the site is not public)."""
    resolved, touched = manifest.rules.resolve(
        manifest.docs, default_locale=settings.default_locale, now=now, blobs=blobs,
        layout=settings.preset, changed=manifest.changed_docs(),
        gate=site.gate(settings) if site is not None else None)
    # Kept with the decisions, so a sync that writes nothing (a restart over a kept
    # index) reports a citation URL failing R7 as the sync that wrote it did.
    url_warnings = manifest.rules.tally.url_warnings
    for relpath in touched:
        item = resolved.get(relpath)
        found = url_warnings_of(settings, item) if item is not None else ()
        if found:
            url_warnings[relpath] = found
        else:
            url_warnings.pop(relpath, None)
    return resolved, touched


@dataclass
class Changes:
    """What a batch writes.

    Attributes:
        fingerprints: each re-derived path's decision as written from now on (``None``:
            no longer indexed).
        written: the documents whose entries change, with their decision (``None``:
            removed).
        public: those of ``written`` whose public entries change (the public index is
            committed only when one does).
    """

    fingerprints: dict[str, str | None]
    written: dict[str, Resolved | None]
    public: set[str]

    def record(self, manifest: Manifest) -> None:
        """Keep the new fingerprints in the manifest, once the batch is written."""
        for relpath, fingerprint in self.fingerprints.items():
            if fingerprint is None:
                manifest.fingerprints.pop(relpath, None)
            else:
                manifest.fingerprints[relpath] = fingerprint


def changes_of(manifest: Manifest, resolved: Mapping[str, Resolved], touched: set[str],
               withdrawn: Iterable[str]) -> Changes:
    """Compare the decisions of ``touched`` paths with what was last written. Paths in
    ``withdrawn`` were taken out of the public index ahead of the batch: each is written
    again (or left out) as it now is."""
    # Only the decisions the rules re-derived can differ from what was written (after
    # a whole derivation: every path, and every path written before).
    if manifest.rules.last_full:
        touched |= manifest.fingerprints.keys()
    fingerprints = {relpath: resolved[relpath].fingerprint() if relpath in resolved else None
                    for relpath in touched}
    written = {relpath: resolved.get(relpath) for relpath, fingerprint in fingerprints.items()
               if manifest.fingerprints.get(relpath) != fingerprint}
    public = {relpath for relpath in written
              if public_part(manifest.fingerprints.get(relpath)) != public_part(fingerprints[relpath])}
    for relpath in withdrawn:
        if relpath not in written:
            written[relpath] = resolved.get(relpath)
        public.add(relpath)
    return Changes(fingerprints, written, public)


def _is_section(settings: WikiSettings, relpath: str) -> bool:
    names = settings.preset.section_names
    return bool(names) and relpath.rsplit("/", 1)[-1].split(".", 1)[0].lower() in names


def to_withdraw(settings: WikiSettings, manifest: Manifest, relpaths: Iterable[str], now: dt.datetime) -> set[str]:
    """X7: the files of a batch to take out of the public index before its slow reading:
    each one in it whose header says it may have left it
    (:func:`provider.wiki.quickcheck.may_have_left_public`) — and, for a section page,
    every public page below it."""
    fingerprints = manifest.fingerprints
    withdraw: set[str] = set()
    for relpath in relpaths:
        public = bool(public_part(fingerprints.get(relpath)))
        if not public and not _is_section(settings, relpath):
            continue
        if may_have_left_public(settings, relpath, now, manifest.docs.get(relpath)):
            if public:
                withdraw.add(relpath)
            if _is_section(settings, relpath):
                # Only here is every public page looked at (a section's subtree).
                folder = relpath.rpartition("/")[0]
                withdraw.update(p for p, fp in fingerprints.items()
                                if (not folder or p.startswith(folder + "/")) and public_part(fp))
    return withdraw
