"""What a docs tool does not render as a page is not served as one (issue 11, corpus rule 5)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from provider.wiki.classify import AudienceRule
from provider.wiki.corpus import ORPHAN, Resolved, resolve
from provider.wiki.document import WikiDocument, WikiSettings, parse_document

NOW = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
PUBLIC_RULE = AudienceRule("**", "public")


def wiki(files: dict[str, str], layout: str) -> dict[str, Resolved]:
    settings = WikiSettings(root=Path("/x"), layout=layout, locales=("en", "ja"), audience_rules=(PUBLIC_RULE,))
    metas = {}
    for relpath, text in files.items():
        result = parse_document(settings, relpath, text.encode(), size=len(text), mtime_ns=0)
        assert isinstance(result, WikiDocument), (relpath, result)
        metas[relpath] = result.meta
    return resolve(metas, default_locale="en", now=NOW, layout=settings.preset)


def test_docusaurus_builds_no_i18n_file_without_its_source_page() -> None:
    """The issue's case: pages moved to an internal archive, their translations left at the
    old paths — Docusaurus never builds those, so neither are they served."""
    out = wiki({
        "docs/archive/old.md": "---\naudience: internal\n---\nArchived words here.",
        "i18n/ja/docusaurus-plugin-content-docs/current/old.md": "Archived words here, in English still.",
        "docs/kept.md": "Kept page.",
        "i18n/ja/docusaurus-plugin-content-docs/current/kept.md": "保存されたページ。",
    }, "docusaurus")
    orphan = out["i18n/ja/docusaurus-plugin-content-docs/current/old.md"]
    assert not orphan.served and orphan.withheld and orphan.withheld.startswith("not a page")
    assert ORPHAN in orphan.drift
    assert out["i18n/ja/docusaurus-plugin-content-docs/current/kept.md"].public


def test_docusaurus_translation_of_an_internal_page_is_internal() -> None:
    out = wiki({
        "docs/ops.md": "---\naudience: internal\n---\nRunbook.",
        "i18n/ja/docusaurus-plugin-content-docs/current/ops.md": "ランブック。",
    }, "docusaurus")
    assert not out["i18n/ja/docusaurus-plugin-content-docs/current/ops.md"].public


def test_hugo_leaf_bundle_resources_are_not_pages() -> None:
    out = wiki({
        "content/posts/trip/index.md": "---\ntitle: Trip\n---\nThe trip.",
        "content/posts/trip/notes.md": "---\ntitle: Notes\n---\nNotes kept with the bundle.",
        "content/posts/trip/more/deep.md": "Deeper resource.",
        "content/posts/_index.md": "---\ntitle: Posts\n---\nAll posts.",
        "content/posts/other.md": "Another post.",
    }, "hugo")
    assert out["content/posts/trip/index.md"].public and out["content/posts/other.md"].public
    assert out["content/posts/_index.md"].public
    for resource in ("content/posts/trip/notes.md", "content/posts/trip/more/deep.md"):
        assert not out[resource].served and "leaf bundle" in str(out[resource].withheld)


def test_jekyll_renders_only_files_with_front_matter() -> None:
    out = wiki({"docs/page.md": "---\ntitle: Page\n---\nA page.", "docs/raw.md": "# Raw\n\nCopied as is."}, "jekyll")
    assert out["docs/page.md"].public
    assert not out["docs/raw.md"].served and "front matter" in str(out["docs/raw.md"].withheld)
