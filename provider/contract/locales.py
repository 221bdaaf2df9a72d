"""BCP 47 language tags and locale matching (CONTRACT Q3, Q4; §3.3, §4.3, §5.5).

Tags are validated and canonicalised with ``langcodes`` (``zh_cn`` → ``zh-CN``,
``EN`` → ``en``); nothing here parses tags by hand.

Matching follows BCP 47 *lookup* (RFC 4647 §3.4): the requested tag is tried as it is,
then with its last subtag removed, and so on (``de-AT-x-foo`` → ``de-AT`` → ``de``). After
those exact steps a document in the same language with another region or script
(``de-DE`` for ``de-AT``) is accepted, ranked below them. With fallback requested, the
operator's fallback chain follows, each entry matched the same way, the default locale
last. A lower rank is a better match; ``None`` means the document does not match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import langcodes

__all__ = ["LocalePreference", "canonical_tag", "language_of", "preference"]

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
class LocalePreference:
    """Which document locales a request accepts, and in what order.

    Attributes:
        steps: best first; each step is (tags accepted as they are — the lookup
            truncations of one tag —, the language whose other regions and scripts are
            accepted just after them). The first step is the requested tag; with
            fallback, one step per fallback language follows.
    """

    steps: tuple[tuple[tuple[str, ...], str], ...]

    def rank(self, document_locale: str) -> int | None:
        """The rank of a document's locale (0 best), or ``None`` when not accepted."""
        lowered = document_locale.lower()
        language = language_of(document_locale)
        rank = 0
        for exact, step_language in self.steps:
            for tag in exact:
                if lowered == tag.lower():
                    return rank
                rank += 1
            if language == step_language:
                return rank
            rank += 1
        return None

    @property
    def accepted_languages(self) -> frozenset[str]:
        """Every language some step accepts (for a coarse pre-filter)."""
        return frozenset(language for _, language in self.steps)


def preference(requested: str, *, fallback: bool, chain: Sequence[str] = ()) -> LocalePreference:
    """Build the preference for one request.

    Args:
        requested: the canonical requested tag.
        fallback: whether the request asked for cross-language fallback (Q4).
        chain: the operator's fallback chain of canonical tags, default locale last;
            used only with ``fallback``.
    """
    steps: list[tuple[tuple[str, ...], str]] = [(tuple(_truncations(requested)), language_of(requested))]
    if fallback:
        seen = {language_of(requested)}
        for tag in chain:
            language = language_of(tag)
            if language in seen:
                continue
            seen.add(language)
            steps.append((tuple(_truncations(tag)), language))
    return LocalePreference(steps=tuple(steps))
