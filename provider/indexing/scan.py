"""Scan: which files of the content folder a sync looks at.

A full scan discovers every file (:func:`discover_all`) and keeps out those the manifest
shows unchanged (:func:`unchanged`); a watcher's batch of changed paths is turned into
the files it concerns (:func:`expand`).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping
from dataclasses import replace

from ..wiki.document import WikiSettings, git_blob_sha1
from ..wiki.excluded_sources import forget_excluded, path_permalink_key, permalink_key, read_join_keys, source_keys
from ..wiki.files import Discovery, FileRef, discover, ignore_reason, is_ignored_path
from ..wiki.hugo_site import BUNDLE_RESOURCE, hugo_leaf_bundle, is_bundle_index
from ..wiki.locales import strip_extension
from ..wiki.mdx_partials import partial_digest
from ..wiki.model import DocumentMeta
from ..wiki.sites import load_site_policy, site_digest
from ..wiki.translation_names import name_key
from .manifest import Manifest

__all__ = ["bundle_members", "discover_all", "expand", "translations_of", "unchanged"]


def discover_all(settings: WikiSettings) -> Discovery:
    """Every wiki file under ``settings.root`` and every file left out, with the reason."""
    # Once per scan: look at the docs tool's configuration files now (logging what
    # cannot be read); :func:`unchanged` then compares each page's view of it.
    policy = load_site_policy(settings.root, settings.layout, log_findings=True)
    forget_excluded(settings.root)  # the excluded files' join keys are read again (issue 24)
    return discover(settings.root, extensions=settings.file_extensions, max_file_bytes=settings.max_file_bytes,
                    ignore=settings.ignore_rules, exclude=policy.excluded_reason)


def _below(ordered: list[str], prefix: str) -> list[str]:
    """The paths of the sorted list ``ordered`` that start with ``prefix``."""
    start = bisect.bisect_left(ordered, prefix)
    end = start
    while end < len(ordered) and ordered[end].startswith(prefix):
        end += 1
    return ordered[start:end]


def expand(settings: WikiSettings, paths: Iterable[str], manifest: Manifest) -> set[str]:
    """Turn changed paths (relative to ``settings.root``) into the wiki files to look at:
    a folder that appeared brings its files, a folder that vanished takes its known
    files with it, and a symlink's target brings the files reached through it."""
    wanted: set[str] = set()
    docs, skipped = manifest.docs, manifest.skipped
    # Looked up per path by bisection: a 500-file batch scanned every known path 1,000
    # times. Sorted only when a path is not a known file (a folder, a new file): a
    # one-file edit does not sort the corpus.
    ordered: list[str] | None = None
    importers: dict[str, list[str]] | None = None
    linked = manifest.rules.symlinked()
    if linked is None:  # the rules have not run over these documents yet
        linked = sorted((meta.real_relpath, p) for p, meta in docs.items() if meta.real_relpath is not None)
    for relpath in paths:
        relpath = relpath.strip("/")
        if not relpath or relpath.startswith("../"):
            continue
        prefix = relpath + "/"
        known = relpath in docs or relpath in skipped
        if not known:  # a known file is no folder: nothing is below it
            if ordered is None:
                ordered = sorted(docs.keys() | skipped.keys())
            wanted.update(_below(ordered, prefix))
        # Files reached through a symlink change when their target does, but the
        # event names only the target.
        if linked:
            wanted.update(p for real, p in linked if real == relpath or real.startswith(prefix))
        # A page shows its MDX partials' text: an edit to one reads every page that
        # imports it again, in this batch (issue 24; X7: text it makes internal leaves
        # the public index with this change).
        if importers is None:
            importers = _importers(docs)
        wanted.update(importers.get(relpath, ()))
        folder = settings.root / relpath
        ignore = settings.preset.ignore
        if folder.is_dir():
            found = discover(folder, extensions=settings.file_extensions, max_file_bytes=settings.max_file_bytes)
            wanted.update(prefix + p for p in found.files if ignore_reason(prefix + p, ignore) is None)
        elif known or not (is_ignored_path(relpath, settings.file_extensions)
                           or ignore_reason(relpath, ignore) is not None):
            wanted.add(relpath)
    return wanted | translations_of(settings, manifest, paths) | bundle_members(settings, manifest, paths)


def bundle_members(settings: WikiSettings, manifest: Manifest, paths: Iterable[str] | None = None) -> set[str]:
    """The documents whose standing as a page or a leaf bundle's resource (Hugo,
    :func:`~provider.wiki.hugo_site.hugo_leaf_bundle`) a change may have turned, though
    their own files did not change (issue 24): an ``index.html`` added beside
    ``secret.md`` makes it a resource with no URL. With ``paths`` (relative to
    ``settings.root``), the known documents below a bundle index among them; without,
    every document whose standing now differs from the one it was read with (a full
    scan, which sees no events). Empty unless the layout has leaf bundles."""
    if not settings.preset.bundle_resources:
        return set()
    docs = manifest.docs
    if paths is not None:
        folders = {p.strip("/").rpartition("/")[0] for p in paths if is_bundle_index(p.rpartition("/")[2])}
        return {relpath for relpath in docs for folder in folders
                if relpath.startswith(folder + "/") or (not folder and "/" not in relpath)}
    turned: set[str] = set()
    for relpath, meta in docs.items():
        reason = meta.publication.get("path")
        if reason is not None and not reason.startswith(BUNDLE_RESOURCE):
            continue  # withheld by its own path already: the bundle adds nothing
        if (reason is not None) != (hugo_leaf_bundle(settings.root, relpath) is not None):
            turned.add(relpath)
    return turned


def translations_of(settings: WikiSettings, manifest: Manifest, paths: Iterable[str]) -> set[str]:
    """The documents whose status a change of ``paths`` (relative to ``settings.root``:
    files that appeared, changed, went or are skipped) may change as translations of a
    page the docs tool excludes (:func:`~provider.wiki.excluded_sources.excluded_source`,
    issue 24): a document that translates one of them (:attr:`DocumentMeta.translates`),
    whose name reads as a translation of one
    (:func:`~provider.wiki.excluded_sources.source_keys`), or that shares a join key with
    one as it is now (Hugo's ``translationKey``, a jekyll-polyglot ``permalink``). Paths
    that are documents are left to the corpus rules; an excluded file is never one."""
    changed = sorted({p.strip("/") for p in paths} - manifest.docs.keys() - {""})
    changed = [p for p in changed if p.lower().endswith(tuple(settings.file_extensions))]
    if not changed:
        return set()
    forget_excluded(settings.root)
    names = {name_key(strip_extension(p)) for p in changed}
    joins: set[tuple[str, str]] = set()
    for relpath in changed:
        joins.add(("permalink", path_permalink_key(relpath)))
        joins |= read_join_keys(settings.root / relpath, settings.default_locale,
                                yaml_end_marker=settings.preset.name == "jekyll")
    wanted: set[str] = set()
    known = frozenset(changed)
    for relpath, meta in manifest.docs.items():
        joined = joins and (("group", name_key(meta.translation_group)) in joins
                            or (meta.slug and ("permalink", permalink_key(meta.slug)) in joins))
        if meta.translates in known or joined or names & source_keys(
                relpath, meta.locale, settings.patterns, settings.known_locales, settings.default_locale):
            wanted.add(relpath)
    return wanted


def _importers(docs: Mapping[str, DocumentMeta]) -> dict[str, list[str]]:
    """Partial path → the pages that showed it (:attr:`DocumentMeta.partials`)."""
    found: dict[str, list[str]] = {}
    for page, meta in docs.items():
        for entry in meta.partials:
            found.setdefault(entry.partition(" ")[2], []).append(page)
    return found


def _partials_changed(settings: WikiSettings, meta: DocumentMeta) -> bool:
    return any(partial_digest(settings.root / relpath) != digest
               for digest, _, relpath in (entry.partition(" ") for entry in meta.partials))


def unchanged(settings: WikiSettings, manifest: Manifest, relpath: str, ref: FileRef) -> bool:
    """Whether a file is what the manifest says, without parsing it.

    Size, mtime, ctime and inode all equal: unchanged. Otherwise the bytes are hashed
    (cheap next to parsing) and compared with the recorded revision — an edit that
    restores the mtime (``touch -d``, ``rsync -a``, archives) is still seen, while a
    fresh copy of unchanged files is not re-parsed (its new stamp is recorded in the
    manifest).
    """
    meta = manifest.docs.get(relpath)
    if meta is None or meta.real_relpath != ref.real_relpath:
        return False
    if meta.site_policy != site_digest(settings.root, settings.layout, relpath, real_relpath=ref.real_relpath):
        return False  # its docs tool's configuration changed: read it again
    if meta.partials and _partials_changed(settings, meta):
        return False  # a partial it shows changed: its text did
    if meta.translates and not (settings.root / meta.translates).is_file():
        return False  # the excluded page it translated went: decide it again (issue 24)
    stamp = (ref.size, ref.mtime_ns, ref.ctime_ns, ref.inode)
    if (meta.size, meta.mtime_ns, meta.ctime_ns, meta.inode) == stamp:
        return True
    if meta.size != ref.size:
        return False
    try:
        data = (settings.root / relpath).read_bytes()
    except OSError:
        return False
    if git_blob_sha1(data) != meta.revision:
        return False
    manifest.docs[relpath] = replace(meta, mtime_ns=ref.mtime_ns, ctime_ns=ref.ctime_ns, inode=ref.inode)
    return True
