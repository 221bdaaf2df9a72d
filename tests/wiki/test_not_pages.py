"""What a docs tool does not render as a page is not served as one (issue 11, corpus rule 5)."""

from __future__ import annotations

import datetime as dt
import itertools
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.classify import AudienceRule
from provider.wiki.corpus import ORPHAN, Resolved, resolve
from provider.wiki.document import WikiDocument, WikiSettings, load_document, parse_document
from tests.support import public_index_paths

NOW = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
PUBLIC_RULE = AudienceRule("**", "public")
_SITES = itertools.count()


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


_FORMATS = ("html", "htm", "org", "adoc", "asciidoc", "ad", "rst", "pandoc", "pdc", "md", "de.html", "markdown")


@given(index=st.sampled_from(_FORMATS), resource=st.sampled_from(["secret.md", "more/deep.md", "notes.de.md"]))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_leaf_bundle_of_any_content_format_makes_its_markdown_resources(tmp_path: Path, index: str,
                                                                          resource: str) -> None:
    """Issue 24 (leak): a folder whose ``index`` is HTML, Org, AsciiDoc, reStructuredText
    or Pandoc (files the provider does not read) is a leaf bundle all the same: a ``.md``
    beside or below it is a resource Hugo publishes no page for, not a public page. A
    branch bundle (``_index.*``) holds pages."""
    root = tmp_path / f"s{next(_SITES)}"
    leaf, branch = root / "content/docs/trip", root / "content/docs/guide"
    for folder in (leaf, branch):
        (folder / resource).parent.mkdir(parents=True, exist_ok=True)
        (folder / resource).write_text("---\ntitle: Notes\n---\nQuokkasecret notes.", "utf-8")
    (leaf / f"index.{index}").write_text("<p>The trip.</p>", "utf-8")
    (branch / f"_index.{index}").write_text("<p>The guide.</p>", "utf-8")
    settings_ = WikiSettings(root=root, layout="hugo", audience_rules=(PUBLIC_RULE,))
    metas = {}
    for relpath in (f"content/docs/trip/{resource}", f"content/docs/guide/{resource}"):
        result = load_document(settings_, relpath)
        assert isinstance(result, WikiDocument), result
        metas[relpath] = result.meta
    out = resolve(metas, default_locale="en", now=NOW, layout=settings_.preset)
    kept = out[f"content/docs/trip/{resource}"]
    assert not kept.served and "leaf bundle content/docs/trip/" in str(kept.withheld)
    assert out[f"content/docs/guide/{resource}"].public


def test_a_bundle_index_added_or_removed_later_turns_its_resources_incrementally(tmp_path: Path) -> None:
    """Issue 24 (X7): an ``index.html`` added beside a page that was read as public makes
    it a leaf bundle's resource though the page's own file did not change: the watcher's
    batch (naming only the new file) and a reconcile scan (no event) both take it out of
    the public index; removing the index brings it back."""
    from provider.indexing import Indexer
    from provider.search.layout import IndexLayout

    public = public_index_paths
    root = tmp_path / "site"
    pages = {"content/docs/trip/secret.md": "Quokkasecret notes.", "content/docs/guide.md": "The guide.",
             **{f"content/docs/page-{n}.md": f"Page {n} is about topic number {n}." for n in range(5)}}
    for relpath, text in pages.items():
        (root / relpath).parent.mkdir(parents=True, exist_ok=True)
        (root / relpath).write_text(f"---\ntitle: {relpath}\n---\n{text}\n", "utf-8")
    settings_ = WikiSettings(root=root, layout="hugo", audience_rules=(PUBLIC_RULE,), config_hold_s=0.0)
    bundle_index, resource = root / "content/docs/trip/index.html", "content/docs/trip/secret.md"
    with Indexer(settings_, IndexLayout(tmp_path / "index")) as indexer:
        indexer.sync()
        assert resource in public(tmp_path / "index")
        bundle_index.write_text("<p>The trip.</p>", "utf-8")
        indexer.sync(["content/docs/trip/index.html"])
        assert resource not in public(tmp_path / "index")
        assert "content/docs/guide.md" in public(tmp_path / "index")
        bundle_index.unlink()
        indexer.sync(["content/docs/trip/index.html"])
        assert resource in public(tmp_path / "index")
        bundle_index.write_text("<p>The trip.</p>", "utf-8")
        indexer.sync()  # a reconcile scan: the event was missed
        assert resource not in public(tmp_path / "index")
