"""A file's header read alone, to take it out of the public index before its body is
parsed (CONTRACT X7).

Parsing a body can be slow (a pathological file may take up to ``parse_timeout`` in a
reader process), and a batch of changes commits once. So a public → internal edit in a
batch that also holds slow files would wait for them. :func:`may_have_left_public` looks
only at what decides reach cheaply — the bytes, the front matter, the page's own
publication facts, a section page's cascade, and whether the body holds anything that
looks like an internal-section marker — and answers whether the file *may* no longer be
public. The indexer withdraws such files from the public index at once and puts back,
after the batch, those that are still public. It never answers "still public" for a
file the full reading would not publish — when in doubt, it says "may have left".
"""

from __future__ import annotations

import datetime as dt
import os

from .audience_map import apply_audience_map, operator_withholding
from .body_markers import find_body_markers, front_matter_markers
from .cascade import read_cascade, with_params
from .classify import PUBLIC, decide_own_audience
from .document import DocumentMeta, WikiSettings
from .frontmatter import parse_front_matter, same_head
from .publication import read_publication, withholding
from .sections import MARKER, hiding_spans

__all__ = ["may_have_left_public"]


def may_have_left_public(settings: WikiSettings, relpath: str, now: dt.datetime,
                         before: DocumentMeta | None = None) -> bool:
    """Whether the file at ``relpath``, as it is now, may no longer belong in the public
    index: gone, unreadable, too large, not UTF-8, an unreadable header, an own audience
    that is not exactly public, withheld by its own publication facts at ``now``, a
    section page whose cascade is not public, a body with a would-be internal-section
    marker, with text that says it is not for customers
    (:mod:`provider.wiki.body_markers`) or a closing marker without an opening one, or with another number of
    opening markers than the internal sections ``before`` had (an edit *inside* an
    existing internal section withdraws nothing, so it stays invisible to
    ``customer_safe``). Reads at most ``settings.max_file_bytes`` bytes; never raises."""
    layout = settings.preset
    try:
        with open(os.path.join(settings.root, *relpath.split("/")), "rb") as handle:
            data = handle.read(settings.max_file_bytes + 1)
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return True
    if len(data) > settings.max_file_bytes:
        return True
    body = _body_if_header_unchanged(text, before, now)
    if body is None:
        return True
    if body:
        return _body_may_withdraw(body[0], before)
    front = parse_front_matter(text, yaml_end_marker=layout.name == "jekyll",
                               include_lines=layout.name == "mkdocs")
    if front.error is not None:
        return True
    lowercase_keys = bool(layout.params_key)
    section = bool(layout.section_names) and relpath.rsplit("/", 1)[-1].split(".", 1)[0].lower() in layout.section_names
    # Read as parse_document reads it: the operator's audience key and values first.
    meta, errors = apply_audience_map(with_params(front.data, layout.params_key), settings.audience_map)
    if errors:
        return True
    audience, errors = decide_own_audience(meta, relpath, settings.audience_only_rules, unreadable=None,
                                           lowercase_keys=lowercase_keys, skip=("cascade",) if section else ())
    if errors or (audience.source == "front matter" and audience.value != PUBLIC):
        return True
    if operator_withholding(meta, [relpath], settings.audience_rules, withhold_noindex=settings.withhold_noindex):
        return True
    facts, errors, _ = read_publication(meta, relpath, layout)
    if errors or withholding(facts, now) is not None:
        return True
    if section:
        cascade, errors, _ = read_cascade(meta, layout)
        if errors or (cascade is not None and cascade.get("audience", PUBLIC) != PUBLIC):
            return True
    if front_matter_markers(meta, text):
        return True  # a title saying the page is internal quarantines it
    return _body_may_withdraw(front.body, before)


def _body_if_header_unchanged(text: str, before: DocumentMeta | None,
                              now: dt.datetime) -> tuple[str] | tuple[()] | None:
    """When the header reads as it did when ``before`` was read
    (:func:`~provider.wiki.frontmatter.same_head`), what the header checks of
    :func:`may_have_left_public` answer follows from ``before`` without parsing its YAML
    again (a 500-file batch spent most of its early withdrawal there): ``None`` — may
    have left (withheld at ``now``); ``(body,)`` — the header stays public, look at
    ``body``; ``()`` — not known this way, read the header (also whenever ``before``
    says anything but an error-free, public, unwithheld page of its own path that is no
    section page: only such a page takes this shortcut)."""
    if (before is None or not before.head or before.errors or before.audience != PUBLIC or before.draft
            or before.real_relpath is not None or before.section):
        return ()
    body = same_head(text, before.head)
    if body is None:
        return ()
    # Everything the header checks read is a function of the header's data, the path
    # and the settings (the same: another settings key rebuilds the index), and was
    # read into ``before``: its errors (none), own audience (public), operator and
    # publication withholding (its ``publication`` facts). Section pages (a cascade,
    # a subtree to withdraw) always read their header.
    if withholding(before.publication, now) is not None:
        return None
    return (body,)


def _body_may_withdraw(body: str, before: DocumentMeta | None) -> bool:
    openers, inside = 0, False
    for marker in MARKER.finditer(body):
        if not marker.group(1):
            openers += 1
            inside = True
        elif not inside:
            # A closer without an opener: the full reading quarantines the page.
            return True
        else:
            inside = False
    if openers != (before.internal_sections if before is not None else 0):
        return True
    # Text that says "not for customers" in words hides its section (or quarantines the
    # page): whether an accepted finding still applies is the full reading's to tell.
    return bool(hiding_spans(body)) or bool(find_body_markers(body))
