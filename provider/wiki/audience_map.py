"""What a repository's own front matter means for the audience: the operator's mapping.

Microsoft Learn docsets write ``audience: ITPro`` (or ``Admin``, ``Admin|ITPro|Developer``):
their own vocabulary, never ``public``/``internal``. Rather than editing every file, an
operator says in the configuration

* which front matter key carries the audience (``audience_key``, default ``audience``),
  or that **none** does (``audience_key: none``: the audience then comes from a cascade
  or ``audience_rules`` only, whatever the files say);
* what its values mean (``audience_values``: an exact map such as
  ``{ITPro: public, Admin: public}``).

:func:`apply_audience_map` rewrites a front matter mapping before classification, so the
classifier (:func:`provider.wiki.classify.decide_audience`) still sees only
``audience: public|internal`` and keeps its fail-closed rules. Fail closed here too:

* a value that is not a key of the map — compared exactly, a string only (``ITPro `` with
  a trailing space, ``itpro``, a list are not ``ITPro``) — becomes a value the
  classifier rejects: the page is internal and the file is reported (quarantined);
* ``public`` and ``internal`` keep their meaning unless the map names them;
* with a key other than ``audience``, a file that also has its own ``audience`` key
  whose meaning differs makes the page internal (which one the author meant is unknown).

The same rewrite applies to the entries of a Hugo ``cascade``.

**Withholding by the operator** (:func:`operator_withholding`): an ``audience_rules``
entry may say ``withhold`` (the file is read and served to nobody, reported as withheld)
or ``skip`` (the file is not read at all, listed as skipped by design; see
:attr:`provider.wiki.document.WikiSettings.ignore_rules`). Every matching such rule
applies whatever the order of the rules and whatever the file says, since honouring it
can only serve less; ``public``/``internal`` rules keep "first match wins". With
``withhold_noindex: true``, a page whose front matter ``ROBOTS`` (any case) contains
``NOINDEX`` (Microsoft Learn's way of keeping a live page out of search engines) is
withheld too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["AUDIENCE", "SKIP", "UNMAPPED", "WITHHOLD", "AudienceMap", "apply_audience_map", "operator_withholding"]

AUDIENCE = "audience"
#: Rule values that are not an audience: served to nobody / not read.
WITHHOLD, SKIP = "withhold", "skip"
#: What an unmapped value becomes: not ``public`` or ``internal``, so it is rejected.
UNMAPPED = "unmapped"


@dataclass(frozen=True)
class AudienceMap:
    """The operator's audience settings.

    Attributes:
        key: the front matter key that carries the audience (compared exactly), or
            ``None`` when no key does.
        values: ``(exact front matter value, public|internal)`` pairs; empty means the
            values ``public`` and ``internal`` only.
    """

    key: str | None = AUDIENCE
    values: tuple[tuple[str, str], ...] = ()

    @property
    def is_default(self) -> bool:
        return self.key == AUDIENCE and not self.values

    def describe(self) -> dict[str, Any]:
        return {"audience_key": self.key, "audience_values": dict(self.values)}

    def meaning(self, value: Any) -> str | None:
        """``public``/``internal`` for a front matter value, or ``None`` when the value has
        no meaning here (unmapped, not a string)."""
        if not isinstance(value, str):
            return None
        for written, audience in self.values:
            if value == written:
                return audience
        return value if value in ("public", "internal") else None


def _is_audience_key(key: Any) -> bool:
    return isinstance(key, str) and key.strip().lower() == AUDIENCE


def _rewrite(data: Mapping[str, Any], mapping: AudienceMap, where: str) -> tuple[dict[str, Any], list[str]]:
    errors: list[str] = []
    out = dict(data)
    if mapping.key is None:
        for key in [k for k in out if _is_audience_key(k)]:
            del out[key]  # the operator said no key carries the audience
        return out, errors
    if mapping.key not in out:
        # An ``audience`` key of the file's own, if any, keeps its strict meaning (only
        # exactly public or internal), so nothing is widened.
        return out, errors
    raw = out.pop(mapping.key)
    meaning = mapping.meaning(raw)
    if meaning is None:
        shown = repr(raw)[:60]
        errors.append(f"{where}{mapping.key} {shown} is not one of audience_values "
                      f"({', '.join(repr(v) for v, _ in mapping.values) or 'public, internal'}); treated as internal")
        meaning = UNMAPPED
    own = [k for k in out if _is_audience_key(k)]
    if own:
        # ``ms.audience: ITPro`` next to ``audience: internal``: both stay, so the
        # classifier sees a conflict unless they agree.
        for key in own:
            if out[key] != meaning:
                out[key] = [out[key], meaning]
        return out, errors
    out[AUDIENCE] = meaning
    return out, errors


def apply_audience_map(data: Mapping[str, Any], mapping: AudienceMap) -> tuple[dict[str, Any], list[str]]:
    """``data`` with the operator's audience key and values turned into ``audience:
    public|internal`` (module docstring), and the errors to report.

    Args:
        data: a front matter mapping (Hugo ``params`` already merged in).
        mapping: the operator's settings.

    Returns:
        ``(mapping, errors)``; an error means the page is made internal.
    """
    if mapping.is_default:
        return dict(data), []
    out, errors = _rewrite(data, mapping, "front matter ")
    cascade_key = next((k for k in out if isinstance(k, str) and k.lower() == "cascade"), None)
    if cascade_key is not None:
        raw = out[cascade_key]
        entries = [raw] if isinstance(raw, Mapping) else raw if isinstance(raw, list) else None
        if entries is not None and all(isinstance(e, Mapping) for e in entries):
            rewritten = []
            for entry in entries:
                params = next((k for k in entry if isinstance(k, str) and k.lower() == "params"), None)
                entry_out, more = _rewrite(entry, mapping, "cascade ")
                if params is not None and isinstance(entry.get(params), Mapping):
                    entry_out[params], more_params = _rewrite(entry[params], mapping, "cascade params ")
                    more += more_params
                errors += more
                rewritten.append(entry_out)
            out[cascade_key] = rewritten[0] if isinstance(raw, Mapping) else rewritten
    return out, errors


class _PathRule(Protocol):
    @property
    def pattern(self) -> str: ...

    @property
    def audience(self) -> str: ...

    def matches(self, relpath: str) -> bool: ...


def operator_withholding(
    data: Mapping[str, Any], relpaths: Iterable[str], rules: Iterable[_PathRule], *, withhold_noindex: bool
) -> str | None:
    """Why the operator's settings withhold a page, or ``None``.

    Args:
        data: the page's front matter.
        relpaths: its path, and its real path when reached through a symlink (a rule
            matching either withholds).
        rules: ``audience_rules`` (only ``withhold`` rules are looked at).
        withhold_noindex: withhold pages whose ``ROBOTS`` says ``NOINDEX``.
    """
    paths = list(relpaths)
    for rule in rules:
        if rule.audience == WITHHOLD and any(rule.matches(path) for path in paths):
            return f"withheld by rule {rule.pattern!r}"
    if withhold_noindex:
        for key, value in data.items():
            if isinstance(key, str) and key.strip().lower() == "robots":
                words = value if isinstance(value, list) else [value]
                if any(isinstance(w, str) and "noindex" in w.lower() for w in words):
                    return f"front matter {key}: NOINDEX (withhold_noindex)"
    return None
