"""BCP 47 language tags and locale matching (CONTRACT Q3, Q4; §3.3, §4.3, §5.5).

Tags are validated and canonicalised with ``langcodes`` (``zh_cn`` → ``zh-CN``,
``EN`` → ``en``); nothing here parses tags by hand.

Matching is script-aware. Every tag is compared after adding its likely subtags (CLDR,
via ``langcodes``: ``zh-TW`` → ``zh-Hant-TW``, ``zh`` → ``zh-Hans-CN``, ``sr`` →
``sr-Cyrl-RS``, ``pt`` → ``pt-Latn-BR``), and a document in another script than the
request's is never accepted by the request's own step — Traditional and Simplified Chinese
are different writing, not dialects. Within the request's language and script, in order:

1. the exact tag (case-insensitively);
2. each truncation of it (RFC 4647 §3.4 lookup: ``sr-Latn-RS`` → ``sr-Latn`` → ``sr``),
   skipping a truncation whose own likely script differs (``zh`` for ``zh-TW`` is
   Simplified; ``sr`` for ``sr-Latn`` is Cyrillic);
3. the request's likely region (``zh-Hant`` → ``zh-TW``; ``pt`` → ``pt-BR``);
4. any other region (``zh-HK`` for ``zh-TW``; ``pt-PT`` for ``pt-BR``).

With fallback requested, the operator's fallback chain follows, each entry matched the
same way (an entry whose language and script an earlier step already covers is skipped),
the default locale last: only there may another script come in. A lower rank is a better
match; ``None`` means the document does not match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import langcodes

__all__ = ["LocalePreference", "canonical_tag", "language_of", "likely_subtags", "preference", "writing_of"]

MAX_TAG_CHARS = 64


@lru_cache(maxsize=4096)
def canonical_tag(value: str) -> str | None:
    """The canonical form of a valid BCP 47 tag, or ``None`` (``und``, ``xx``, ``english``,
    ``en_US x`` and over-long values are not valid)."""
    text = value.strip()
    if not text or len(text) > MAX_TAG_CHARS:
        return None
    try:
        tag = langcodes.standardize_tag(text)
    except ValueError:  # langcodes.LanguageTagError is a ValueError
        return None
    if tag == "und" or not langcodes.tag_is_valid(tag):
        return None
    return str(tag)


@lru_cache(maxsize=4096)
def language_of(tag: str) -> str:
    """The language subtag of a canonical tag: ``pt-BR`` → ``pt``."""
    language = langcodes.Language.get(tag).language
    return str(language) if language else tag.split("-", 1)[0]


@lru_cache(maxsize=4096)
def likely_subtags(tag: str) -> tuple[str, str, str]:
    """``(language, script, region)`` of a tag after adding likely subtags (CLDR):
    ``zh-TW`` → ``("zh", "Hant", "TW")``, ``pt`` → ``("pt", "Latn", "BR")``. A part CLDR
    cannot tell is ``""``."""
    try:
        full = langcodes.Language.get(tag).maximize()
    except ValueError:
        return (tag.split("-", 1)[0].lower(), "", "")
    return (str(full.language or language_of(tag)), str(full.script or ""), str(full.territory or ""))


def writing_of(tag: str) -> tuple[str, str]:
    """``(language, script)`` of a tag after likely subtags: what a reader of it reads
    (``zh-TW`` and ``zh-Hant`` → ``("zh", "Hant")``)."""
    language, script, _ = likely_subtags(tag)
    return (language, script)


def _truncations(tag: str) -> list[str]:
    parts = tag.split("-")
    out = []
    while parts:
        # A single-letter subtag (an extension or private-use singleton) never ends a range.
        if len(parts[-1]) > 1:
            out.append("-".join(parts))
        parts.pop()
    return out


@dataclass(frozen=True)
class _Step:
    """One language and script accepted: its exact tags (best first), then its likely
    region, then any region."""

    exact: tuple[str, ...]
    language: str
    script: str
    region: str


@dataclass(frozen=True)
class LocalePreference:
    """Which document locales a request accepts, and in what order (module docstring).

    Attributes:
        steps: best first; the first is the requested tag, then (with fallback) one per
            fallback-chain entry of a language and script not yet covered.
    """

    steps: tuple[_Step, ...]

    def rank(self, document_locale: str) -> int | None:
        """The rank of a document's locale (0 best), or ``None`` when not accepted."""
        lowered = document_locale.lower()
        language, script, region = likely_subtags(document_locale)
        rank = 0
        for step in self.steps:
            for tag in step.exact:
                if lowered == tag.lower():
                    return rank
                rank += 1
            if language == step.language and script == step.script:
                return rank if region == step.region else rank + 1
            rank += 2
        return None

    @property
    def accepted_languages(self) -> frozenset[str]:
        """Every language some step accepts (for a coarse pre-filter)."""
        return frozenset(step.language for step in self.steps)


def _step(tag: str) -> _Step:
    language, script, region = likely_subtags(tag)
    exact = tuple(t for t in _truncations(tag) if likely_subtags(t)[:2] == (language, script))
    return _Step(exact=exact, language=language, script=script, region=region)


def preference(requested: str, *, fallback: bool, chain: Sequence[str] = ()) -> LocalePreference:
    """Build the preference for one request.

    Args:
        requested: the canonical requested tag.
        fallback: whether the request asked for cross-language fallback (Q4).
        chain: the operator's fallback chain of canonical tags, default locale last;
            used only with ``fallback``.
    """
    steps = [_step(requested)]
    if fallback:
        seen = {(steps[0].language, steps[0].script)}
        for tag in chain:
            step = _step(tag)
            if (step.language, step.script) in seen:
                continue
            seen.add((step.language, step.script))
            steps.append(step)
    return LocalePreference(steps=tuple(steps))
