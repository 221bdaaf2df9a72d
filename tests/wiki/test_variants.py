"""No authoring variant makes internal text reachable by customer_safe (issue 11; X2, X5).

The generators (:mod:`tests.wiki.variants`) write what an author clearly meant as
internal in many forms; each example is classified by the same code as ``index`` and
``serve`` (:func:`provider.wiki.document.parse_document` and
:func:`provider.wiki.corpus.resolve`), and the canary word must not be in any public
document's public text. Every would-be signal that is not exact must also quarantine
the file, so ``check`` exits 1.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from provider.wiki.classify import AudienceRule
from provider.wiki.corpus import Resolved, resolve
from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from tests.wiki.variants import (
    CANARY,
    cascaded_internal,
    copied_text,
    internal_header,
    internal_section,
    short_or_shuffled_copy,
)

NOW = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
EXAMPLES = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _classify(
    files: dict[str, str], layout: str, rules: tuple[AudienceRule, ...]
) -> dict[str, tuple[Resolved, WikiDocument]]:
    wiki = WikiSettings(root=Path("/x"), layout=layout, locales=("en", "de"), audience_rules=rules)
    docs: dict[str, WikiDocument] = {}
    for relpath, text in files.items():
        result = parse_document(wiki, relpath, text.encode("utf-8"), size=len(text), mtime_ns=0)
        if isinstance(result, WikiDocument):
            docs[relpath] = result
    resolved = resolve({p: d.meta for p, d in docs.items()}, default_locale="en", now=NOW,
                       layout=wiki.preset)
    return {p: (resolved[p], docs[p]) for p in docs}


def _leaks(classified: dict[str, tuple[Resolved, WikiDocument]]) -> list[str]:
    return [p for p, (item, doc) in classified.items()
            if item.public and (CANARY in doc.public_body or CANARY in item.meta.title)]


@EXAMPLES
@given(internal_header())
def test_x5_no_header_variant_meaning_internal_is_public(variant: tuple[str, str]) -> None:
    layout, text = variant
    classified = _classify({"docs/page.md": text}, layout, (AudienceRule("**", "public"),))
    assert not _leaks(classified), text
    for item, _ in classified.values():
        assert not item.public, text


@EXAMPLES
@given(internal_section())
def test_x5_no_internal_section_variant_reaches_customer_safe(variant: tuple[str, str]) -> None:
    layout, text = variant
    classified = _classify({"docs/page.md": text}, layout, ())
    assert not _leaks(classified), text
    for item, _ in classified.values():
        # Public only when an exact marker pair hid the block (then the canary is in the
        # agent text alone, checked above); otherwise quarantined with a reason.
        assert item.public or item.quarantined, text


@EXAMPLES
@given(copied_text())
def test_x2_copies_inherit_the_strictest_status(files: dict[str, str]) -> None:
    classified = _classify(files, "plain", (AudienceRule("public/**", "public"),))
    assert not _leaks(classified), files
    copies = [item for path, (item, _) in classified.items() if path.startswith("public/")]
    assert copies and all(item.quarantined for item in copies), files


@EXAMPLES
@given(cascaded_internal())
def test_x5_no_cascade_variant_meaning_internal_publishes_its_section(files: dict[str, str]) -> None:
    classified = _classify(files, "hugo", (AudienceRule("content/**", "public"),))
    assert not _leaks(classified), files
    assert not classified["content/docs/page.md"][0].public, files


@EXAMPLES
@given(short_or_shuffled_copy())
def test_x2_short_and_reordered_copies_inherit_the_strictest_status(files: dict[str, str]) -> None:
    # Issue 24: under the shingle floor, or with words and sentences shuffled.
    classified = _classify(files, "plain", (AudienceRule("public/**", "public"),))
    assert not _leaks(classified), files
    copies = [item for path, (item, _) in classified.items() if path.startswith("public/")]
    assert copies and all(item.quarantined for item in copies), files
