"""Hugo ``cascade``: front matter a section page passes down to its section.

A section page (``_index.md``, :attr:`~provider.wiki.layouts.Layout.section_names`)
may carry ``cascade:`` — a mapping, or a list of mappings — whose values apply to every
page in its folder and below, *and to the section page itself*, wherever that page does
not set the key itself. The nearest section wins per key: a sub-section's cascade
overrides its parent's for the keys it sets. A section applies to pages of its own
locale only (``_index.de.md`` to German pages), as Hugo keeps one page tree per language.

What is cascaded: ``audience`` and the withholding facts of
:mod:`provider.wiki.publication` (``draft``, ``build``, ``publishDate``, …). Hugo
(0.123+) puts custom keys under ``params``; both places are read.

Precedence of a page's audience (highest first): its own front matter → the nearest
cascade → the operator's ``audience_rules`` → internal (fail closed). A cascaded
``audience`` that is not exactly ``public`` or ``internal`` makes the page internal.

Fail closed:

* a cascade entry with ``target``/``_target`` (path, kind, lang, environment filters) is
  not evaluated here, so it may only *withhold*: its ``audience: public`` and its
  explicit "not a draft" values are ignored (reported), the rest applies to the whole
  section;
* a section page whose front matter cannot be read, or whose ``cascade`` is neither a
  mapping nor a list of mappings, makes the pages below it internal where they do not
  set ``audience`` themselves (it might have said ``internal``).

The result of :func:`read_cascade` is a JSON-able mapping (stored in the manifest):
``{"audience": "public" | "internal" | "invalid", <publication facts>...}``, or
``{"error": reason}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .classify import INTERNAL, PUBLIC, audience_signals
from .frontmatter import lookup
from .layouts import Layout
from .publication import DATE_KEYS, FLAG_KEYS, INVALID, KEY_SUFFIX, read_flags_and_dates

__all__ = ["CASCADE_ERROR", "INVALID_AUDIENCE", "read_cascade", "with_params"]

CASCADE_ERROR = "error"
INVALID_AUDIENCE = INVALID


def with_params(data: Mapping[str, Any], params_key: str) -> dict[str, Any]:
    """``data`` with the keys of its ``params`` mapping added where absent at the top.

    An ``audience`` given both at the top and under ``params`` with different values
    is recorded as a conflict (a list of both), which the classifier treats as invalid.
    """
    merged = dict(data)
    if not params_key:
        return merged
    found = lookup(data, params_key)
    if found is None or not isinstance(found[1], Mapping):
        return merged
    for key, value in found[1].items():
        if not isinstance(key, str):
            continue
        if key not in merged:
            merged[key] = value
        elif key == "audience" and merged[key] != value:
            merged[key] = [merged[key], value]
    return merged


def _withholds(key: str, decision: str) -> bool:
    if key in FLAG_KEYS:
        return bool(decision)
    # A date (or an invalid one) can only hold a page back; KEY_SUFFIX names a date's key.
    return key in DATE_KEYS or key.endswith(KEY_SUFFIX)


def read_cascade(data: Mapping[str, Any], layout: Layout) -> tuple[dict[str, str] | None, list[str], list[str]]:
    """The values a section page cascades.

    Args:
        data: the section page's front matter (already read).
        layout: its layout (for ``params``).

    Returns:
        ``(cascade, errors, warnings)``; ``cascade`` is ``None`` when the page has no
        ``cascade`` key.
    """
    found = lookup(data, "cascade")
    if found is None:
        return None, [], []
    raw = found[1]
    entries = [raw] if isinstance(raw, Mapping) else raw if isinstance(raw, list) else None
    if entries is None or not all(isinstance(entry, Mapping) for entry in entries):
        reason = "front matter cascade is not a mapping or a list of mappings"
        # It may have said build: {render: never} as well as internal: both, until fixed.
        return ({CASCADE_ERROR: reason, "build": f"{reason} (withheld, fail closed)"},
                [f"{reason}; pages below are withheld"], [])
    cascade: dict[str, str] = {}
    errors: list[str] = []
    warnings: list[str] = []
    for entry in entries:
        values = with_params(entry, layout.params_key)
        targeted = lookup(values, "target", "_target") is not None
        facts, entry_errors = read_flags_and_dates(values)
        errors += [f"cascade: {error}" for error in entry_errors]
        # Every key resembling ``audience`` in the entry is a signal, as in a page's own
        # front matter (a look-alike key must not let a rule publish the section).
        signals = audience_signals(entry, lowercase_keys=bool(layout.params_key))
        if signals:
            said = {s.value if isinstance(s.value, str) else repr(s.value) for s in signals}
            exact = all(s.exact for s in signals) and len(said) == 1
            audience = signals[0].value
            value = (audience if exact and isinstance(audience, str) and audience in (PUBLIC, INTERNAL)
                     else INVALID_AUDIENCE)
            if value == INVALID_AUDIENCE:
                errors.append("cascade audience is not exactly one 'public' or 'internal' under the key 'audience'; "
                              "pages below are internal")
            if targeted and value == PUBLIC:
                errors.append("cascade entry with a target: its audience: public is not applied (targets are "
                              "not evaluated; fail closed)")
            else:
                cascade.setdefault("audience", value)
        for key, decision in facts.items():
            if targeted and not _withholds(key, decision):
                warnings.append(f"cascade entry with a target: its {key} value is not applied")
                continue
            cascade.setdefault(key, decision)
    return cascade, errors, warnings
