"""Capability names and the fields each one governs (CONTRACT C1–C3, R4; §3.3).

A field of an undeclared capability must be *absent* from every result (R4): not
``null``, not empty. :data:`FIELDS_BY_CAPABILITY` is the single table the response
layer uses to strip them, so a backend cannot leak one by accident.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "ALL_CAPABILITIES",
    "CHUNKING",
    "CITATION_URL",
    "FIELDS_BY_CAPABILITY",
    "FRESHNESS",
    "LOCALE",
    "LOCALE_FALLBACK",
    "MINIMUM",
    "OPTIONAL_CAPABILITIES",
    "RETRIEVE",
    "SCORING",
    "SEMANTIC_SEARCH",
    "TRANSLATION_GROUPS",
    "parse_capabilities",
]

RETRIEVE = "retrieve"
SEMANTIC_SEARCH = "semanticSearch"
LOCALE = "locale"
LOCALE_FALLBACK = "localeFallback"
FRESHNESS = "freshness"
TRANSLATION_GROUPS = "translationGroups"
CHUNKING = "chunking"
SCORING = "scoring"
CITATION_URL = "citationUrl"

#: In the order the contract lists them (§3.3); ``/capabilities`` answers in this order.
OPTIONAL_CAPABILITIES: tuple[str, ...] = (
    SEMANTIC_SEARCH,
    LOCALE,
    LOCALE_FALLBACK,
    FRESHNESS,
    TRANSLATION_GROUPS,
    CHUNKING,
    SCORING,
    CITATION_URL,
)
ALL_CAPABILITIES: tuple[str, ...] = (RETRIEVE, *OPTIONAL_CAPABILITIES)
#: What a provider declares by default (C2): whole documents, no scores, no locale.
MINIMUM: frozenset[str] = frozenset({RETRIEVE})

#: Result fields (wire names) that may appear only when their capability is declared (R4).
FIELDS_BY_CAPABILITY: dict[str, tuple[str, ...]] = {
    LOCALE: ("locale",),
    CHUNKING: ("chunkId",),
    SCORING: ("score",),
    CITATION_URL: ("url",),
    FRESHNESS: ("freshness", "reviewDueAt"),
    TRANSLATION_GROUPS: ("translationGroupId",),
}


def parse_capabilities(value: str | Iterable[str] | None, *, implemented: Iterable[str]) -> frozenset[str]:
    """Turn an operator's capability setting into the declared set.

    Args:
        value: ``None`` or ``"minimum"`` for the minimum set; ``"all"`` for every
            capability the backend implements; or names (a list, or one comma-separated
            string). ``retrieve`` is always included.
        implemented: the capabilities the backend actually implements (C2: never
            declare one that is not).

    Raises:
        ValueError: an unknown name, or a capability the backend does not implement;
            the message names it and lists the valid choices.
    """
    implemented_set = frozenset(implemented) | MINIMUM
    if value is None:
        return MINIMUM
    if isinstance(value, str):
        word = value.strip()
        if word in ("", "minimum", "none"):
            return MINIMUM
        if word == "all":
            return implemented_set
        names = [part.strip() for part in word.split(",") if part.strip()]
    else:
        names = [str(part).strip() for part in value]
    declared = set(MINIMUM)
    for name in names:
        if name not in ALL_CAPABILITIES:
            raise ValueError(
                f"unknown capability {name!r}; choose from: all, minimum, {', '.join(ALL_CAPABILITIES)}"
            )
        if name not in implemented_set:
            raise ValueError(
                f"capability {name!r} is not implemented by this backend; it implements: "
                f"{', '.join(sorted(implemented_set))}"
            )
        declared.add(name)
    return frozenset(declared)
