"""Early withdrawal for a changed configuration (CONTRACT X7; issue 27).

A configuration reload that changes how pages are classified builds the index afresh
aside and swaps it in; a changed docs-tool configuration (``mkdocs.yml``,
``docfx.json``…) reads every page again. Either takes as long as a build, and until it
is done the build being served would go on answering ``customer_safe`` with pages the
new configuration makes internal. :func:`stricter` is the quick pass that closes that
gap: from the served build's manifest, the old and new settings and each page's header
read again (no body is parsed), it names every page of the public index whose
``customer_safe`` status may become stricter. The indexer takes them out of the public
index in one commit at once; the rebuild (or the scan) puts back, at its swap, what is
still public. A page that becomes *more* public waits for the rebuild.

How it decides, per setting that changed (:meth:`WikiSettings.describe` keys):

* ``audience_rules``: the pages a changed rule matches (from the first rule that
  differs on, for ``public``/``internal`` rules, whose first match wins; every added
  or removed ``withhold``/``skip`` rule) have their header read again with the new
  settings (:func:`provider.wiki.document.reread_header`);
* ``audience_key``, ``audience_values``, ``withhold_noindex``, ``accepted_findings``,
  a changed docs-tool configuration: every page's header is read again;
* ``max_file_bytes``: the pages now too large leave (as do pages a rule now skips or the
  docs tool now leaves out: they are not in the corpus any more);
* files left out before (too large, skipped by a rule) that the new settings read — a
  grown ``max_file_bytes``, a ``skip`` rule removed: their text is unknown here, so every
  page of the public index is withdrawn until the swap;
* ``sitemap``, ``citation``: nothing is read; the corpus rules below apply the new
  sitemap (rule 11) to the new citation URLs;
* ``chunking``: no page changes audience;
* any other key (``layout``, locales, locale patterns, extensions…), a key this module
  does not know, or any error: it cannot decide, and every page of the public index is
  withdrawn until the swap (fail closed).

Then the corpus-wide rules (:func:`provider.wiki.corpus.resolve`: cascades, copies,
translations of internal text, duplicate ids, the sitemap) run over every page with
the headers read again, a page whose header could not be judged (its bytes changed since
it was indexed, a finding no longer accepted) counting as internal, so a page made
internal by a rule that reads another page is found too.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..wiki.audience import INTERNAL
from ..wiki.audience_map import SKIP, WITHHOLD
from ..wiki.corpus import Gate, public_part, resolve
from ..wiki.document import DocumentMeta, WikiSettings, reread_header
from ..wiki.files import Skipped
from ..wiki.gitblobs import GitBlobs
from .manifest import Manifest

__all__ = ["HEADER_KEYS", "NEUTRAL_KEYS", "RULES_ONLY_KEYS", "Withdrawal", "public_paths", "stricter"]

log = logging.getLogger(__name__)

#: Settings whose change is decided by reading every page's header again.
HEADER_KEYS = frozenset({"audience_key", "audience_values", "withhold_noindex", "accepted_findings"})
#: Settings whose change is decided by the corpus rules alone (the sitemap gate).
RULES_ONLY_KEYS = frozenset({"sitemap", "citation"})
#: Settings whose change makes no page less public.
NEUTRAL_KEYS = frozenset({"chunking"})
#: Settings with a pass of their own (below).
_OWN_PASS = frozenset({"audience_rules", "max_file_bytes"})


@dataclass(frozen=True)
class Withdrawal:
    """What :func:`stricter` found.

    Attributes:
        paths: the pages to take out of the public index now (relative paths).
        everything: the pass could not decide, so ``paths`` is the whole public index.
        why: a short account for the log line (the keys read, or why it could not decide).
        headers: how many pages' headers were read again.
    """

    paths: frozenset[str]
    everything: bool
    why: str
    headers: int = 0


def public_paths(manifest: Manifest) -> set[str]:
    """The pages the build described by ``manifest`` holds in its public index."""
    return {relpath for relpath, fingerprint in manifest.fingerprints.items() if public_part(fingerprint)}


def changed_keys(old: WikiSettings, new: WikiSettings) -> set[str]:
    """The :meth:`WikiSettings.describe` keys whose values differ."""
    before, after = old.describe(), new.describe()
    return {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}


def _rules_changed(old: WikiSettings, new: WikiSettings) -> list[Any]:
    """The audience rules that may decide a page differently: the ``public``/``internal``
    rules of either list from the first position where they differ (first match wins:
    a page matching none of them is decided as before), and every ``withhold``/``skip``
    rule added or removed (each applies whatever the order)."""
    before, after = old.audience_only_rules, new.audience_only_rules
    first = next((i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
                 min(len(before), len(after)))
    changed: list[Any] = [*before[first:], *after[first:]]
    strong_before = {r for r in old.audience_rules if r.audience in (WITHHOLD, SKIP)}
    strong_after = {r for r in new.audience_rules if r.audience in (WITHHOLD, SKIP)}
    changed += list(strong_before ^ strong_after)
    return changed


def _skips(settings: WikiSettings) -> set[str]:
    """The patterns of the operator's ``skip`` rules."""
    return {r.pattern for r in settings.audience_rules if r.audience == SKIP}


def _matched(docs: Mapping[str, DocumentMeta], rules: list[Any]) -> set[str]:
    return {relpath for relpath, meta in docs.items()
            if any(rule.matches(relpath) or (meta.real_relpath is not None and rule.matches(meta.real_relpath))
                   for rule in rules)}


def _forced_internal(meta: DocumentMeta) -> DocumentMeta:
    return replace(meta, audience=INTERNAL, audience_own=True)


def stricter(old: WikiSettings, new: WikiSettings, manifest: Manifest, *, now: dt.datetime,
             gate: Gate | None = None, site_changed: bool = False, blobs: GitBlobs | None = None) -> Withdrawal:
    """The pages of the public index described by ``manifest`` (built with ``old``) that
    may not be public under ``new`` (see the module docstring). Never raises: any error
    withdraws the whole public index.

    Args:
        old, new: the settings the build was made with, and those in force now.
        manifest: the served build's manifest (not changed).
        now: publication dates are compared with it (aware).
        gate: the sitemap gate under ``new`` (``None``: no sitemap configured).
        site_changed: the docs tool's configuration changed (every header is read again).
        blobs: answers translation-sync questions, as for the indexer's own rules.
    """
    public = public_paths(manifest)
    try:
        return _stricter(old, new, manifest, public, now=now, gate=gate, site_changed=site_changed, blobs=blobs)
    except Exception as exc:  # never expected; the pass must fail closed, not open
        log.warning("the quick pass over the changed configuration failed (%s); withdrawing every public page "
                    "until the new build is served", exc, exc_info=True)
        return Withdrawal(frozenset(public), True, f"the quick pass failed ({type(exc).__name__})")


def _stricter(old: WikiSettings, new: WikiSettings, manifest: Manifest, public: set[str], *, now: dt.datetime,
              gate: Gate | None, site_changed: bool, blobs: GitBlobs | None) -> Withdrawal:
    changed = changed_keys(old, new)
    undecided = changed - HEADER_KEYS - RULES_ONLY_KEYS - NEUTRAL_KEYS - _OWN_PASS
    if undecided:
        return Withdrawal(frozenset(public), True, f"{', '.join(sorted(undecided))} changed: not decided "
                          "without a full reading")
    if manifest.skipped and (new.max_file_bytes > old.max_file_bytes or _skips(old) - _skips(new)):
        # Files left out (too large, skipped by a rule) are read for the first time: their
        # text (an internal page a public one copies, a translation's source) is not known
        # to this pass.
        return Withdrawal(frozenset(public), True, "files left out before (too large, skipped) are read for "
                          "the first time: not decided without a full reading")
    docs = manifest.docs
    if site_changed or changed & HEADER_KEYS:
        to_read = set(docs)
    elif "audience_rules" in changed:
        to_read = _matched(docs, _rules_changed(old, new))
    else:
        to_read = set()
    # gone: not indexed under ``new`` (too large, skipped, excluded by the docs tool);
    # unknown: not decided without a full reading, so counted as internal.
    gone = {relpath for relpath, meta in docs.items() if meta.size > new.max_file_bytes}
    unknown: set[str] = set()
    reread: dict[str, DocumentMeta] = {}
    for relpath in sorted(to_read - gone):
        meta = reread_header(new, docs[relpath], read_with=old)
        if meta is None:
            unknown.add(relpath)
        elif isinstance(meta, Skipped):
            gone.add(relpath)
        else:
            reread[relpath] = meta
    why = ", ".join(sorted(changed)) or ("the docs tool's configuration" if site_changed else "nothing")
    if not (reread or unknown or gone or changed & RULES_ONLY_KEYS):
        return Withdrawal(frozenset(), False, why, 0)
    view = {relpath: _forced_internal(meta) if relpath in unknown else reread.get(relpath, meta)
            for relpath, meta in docs.items() if relpath not in gone}
    resolved = resolve(view, default_locale=new.default_locale, now=now, blobs=blobs, layout=new.preset, gate=gate)
    leaving = {relpath for relpath in public
               if relpath in unknown or (item := resolved.get(relpath)) is None or not item.public}
    return Withdrawal(frozenset(leaving), False, why, len(to_read))
