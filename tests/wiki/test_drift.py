"""Translations that drift (provider.wiki.corpus): the same page twice, untranslated
copies, orphan translations, two documents of one locale in a group — each handled
deliberately and reported."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from provider.wiki.classify import AudienceRule
from provider.wiki.corpus import COPY, ORPHAN, SAME_LOCALE, TWIN, Resolved, resolve
from provider.wiki.document import WikiDocument, WikiSettings, parse_document

NOW = dt.datetime(2025, 6, 1, tzinfo=dt.UTC)
PUBLIC_RULE = AudienceRule("**", "public")


def wiki(files: dict[str, str], layout: str = "plain", default: str | None = "en") -> dict[str, Resolved]:
    settings = WikiSettings(root=Path("/x"), layout=layout, locales=("en", "de", "fr"), audience_rules=(PUBLIC_RULE,))
    metas = {}
    for relpath, text in files.items():
        result = parse_document(settings, relpath, text.encode(), size=len(text), mtime_ns=0)
        assert isinstance(result, WikiDocument), (relpath, result)
        metas[relpath] = result.meta
    return resolve(metas, default_locale=default, now=NOW)


def test_md_and_mdx_twins_serve_one_and_report_both() -> None:
    out = wiki({"docs/a.md": "Old text.", "docs/a.mdx": "New text."}, layout="docusaurus")
    assert out["docs/a.mdx"].served and not out["docs/a.md"].served
    assert "docs/a.mdx" in str(out["docs/a.md"].withheld)
    assert TWIN in out["docs/a.md"].drift and TWIN in out["docs/a.mdx"].drift
    assert out["docs/a.mdx"].quarantine == ()  # not a duplicate id: the twin is withheld first
    assert out["docs/a.mdx"].public


def test_twin_is_public_only_if_every_twin_is() -> None:
    out = wiki({"docs/a.md": "---\naudience: internal\n---\nOld.", "docs/a.mdx": "New."}, layout="docusaurus")
    assert out["docs/a.mdx"].served and out["docs/a.mdx"].audience == "internal"
    assert "twin" in out["docs/a.mdx"].audience_source


def test_md_and_markdown_twins_in_plain_layout() -> None:
    out = wiki({"a.md": "One.", "a.markdown": "Two."})
    assert out["a.md"].served and not out["a.markdown"].served


def test_untranslated_copy_is_withheld() -> None:
    out = wiki({"en/a.md": "---\ntitle: A\n---\nSame words.", "de/a.md": "---\ntitle: A\n---\nSame words.",
                "fr/a.md": "Mots en français."})
    assert not out["de/a.md"].served and COPY in out["de/a.md"].drift
    assert "identical to its en source en/a.md" in str(out["de/a.md"].withheld)
    assert out["fr/a.md"].served and out["en/a.md"].served
    assert out["en/a.md"].group == "a"  # en and fr still form a group


def test_copy_of_an_unpublished_source_is_not_served_under_another_name() -> None:
    out = wiki({"en/a.md": "---\ndraft: true\n---\nSecret launch.", "de/a.md": "Secret launch."})
    assert not out["en/a.md"].served and not out["de/a.md"].served


def test_orphan_translation_is_served_and_reported() -> None:
    out = wiki({"de/only.md": "Nur auf Deutsch.", "en/b.md": "English.", "de/b.md": "Deutsch."})
    assert out["de/only.md"].served and ORPHAN in out["de/only.md"].drift
    assert ORPHAN not in out["de/b.md"].drift


def test_two_documents_of_one_locale_in_a_group_are_reported() -> None:
    out = wiki({"x/01.de.md": "Eins.", "x/01..de.md": "Zwei.", "x/01.en.md": "One."})
    assert SAME_LOCALE in out["x/01.de.md"].drift and SAME_LOCALE in out["x/01..de.md"].drift
    assert out["x/01.de.md"].served and out["x/01..de.md"].served


def test_without_a_default_locale_no_translation_rules_run() -> None:
    out = wiki({"en/a.md": "Same.", "de/a.md": "Same."}, default=None)
    assert out["de/a.md"].served and out["de/a.md"].drift == ()


def test_duplicate_ids_are_quarantined_and_internal() -> None:
    out = wiki({"a.md": "---\nid: kb-1\n---\nOne.", "b.md": "---\nid: kb-1\n---\nTwo."})
    for relpath in ("a.md", "b.md"):
        assert out[relpath].audience == "internal" and out[relpath].quarantined


def test_a_translated_title_or_heading_makes_a_translation_not_a_copy() -> None:
    """Title and headings count in the comparison: a page whose headings were translated
    and whose text (a code sample, say) was not is a translation."""
    out = wiki({"en/a.md": "---\ntitle: A\n---\n# Install\n\nSame words.",
                "de/a.md": "---\ntitle: A (DE)\n---\n# Installieren\n\nSame words."})
    assert out["de/a.md"].served and COPY not in out["de/a.md"].drift
