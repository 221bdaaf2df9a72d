"""provider.wiki.classify with layouts: bundle and section pages, dated posts,
Docusaurus folder-relative ids, readable names, title keys, citation URLs, and the
locale patterns of each preset."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from provider.wiki.classify import (
    decide_audience,
    decide_doc_id,
    decide_title,
    decide_url,
    page_path,
    readable_name,
)
from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.layouts import DOCUSAURUS, HUGO, JEKYLL, LAYOUTS, MKDOCS


def test_page_path_bundles_and_sections() -> None:
    names = ("index", "_index")
    assert page_path("content/posts/trip/index", names) == "content/posts/trip"
    assert page_path("content/posts/_index.de", names) == "content/posts.de"
    assert page_path("index", names) == "index"  # the root page has no folder to stand for
    assert page_path("content/posts/trip/index") == "content/posts/trip/index"  # plain: no bundles


@pytest.mark.parametrize(
    ("relpath", "layout", "name"),
    [
        ("content/posts/my-trip/index.md", HUGO, "My trip"),
        ("content/posts/_index.md", HUGO, "Posts"),
        ("_posts/2024-01-31-hello-world.md", JEKYLL, "Hello world"),
        ("docs/guides/01-setup.mdx", DOCUSAURUS, "Setup"),
        ("docs/guide/README.md", MKDOCS, "Guide"),
        ("blog/2024-01-31-welcome.md", DOCUSAURUS, "Welcome"),
    ],
)
def test_readable_names(relpath: str, layout: Any, name: str) -> None:
    kwargs = {"index_names": layout.index_names, "dated_names": layout.dated_names,
              "number_prefixes": layout.number_prefixes}
    assert readable_name(relpath, **kwargs) == name


def test_doc_ids() -> None:
    bundle = decide_doc_id({}, "content/posts/trip/index.md", index_names=HUGO.index_names)[0]
    assert (bundle.value, bundle.source) == ("content/posts/trip", "bundle folder")
    assert decide_doc_id({}, "_posts/2024-01-31-hello.md", posts_folder="_posts")[0].value == "posts/2024/01/31/hello"
    assert decide_doc_id({}, "de/_posts/news/2024-01-31-hallo.md", posts_folder="_posts")[0].value == (
        "de/posts/news/2024/01/31/hallo")
    relative = decide_doc_id({"id": "setup"}, "docs/guides/01-setup.mdx", id_relative_to_folder=True)[0]
    assert (relative.value, relative.source) == ("docs/guides/setup", "front matter id (in its folder)")
    assert decide_doc_id({"id": "kb-1"}, "docs/a.md")[0].value == "kb-1"


def test_title_keys_in_order() -> None:
    assert decide_title({"title": "T", "linkTitle": "L"}, "a.md", first_h1="H")[0].value == "T"
    assert decide_title({"linkTitle": "L", "sidebar_label": "S"}, "a.md", first_h1="H")[0].value == "L"
    assert decide_title({"linktitle": "l"}, "a.md", first_h1="H")[0].source == "front matter linktitle"
    assert decide_title({"sidebar_label": "S"}, "a.md", first_h1="H")[0].value == "S"
    assert decide_title({"sidebar_label": ["x"]}, "a.md", first_h1="H")[0].value == "H"
    assert decide_title({}, "a.md", first_h1=None, file_name="Readable")[0].value == "Readable"


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        ("https://help.example.com/a", True),
        ("/docs/a/", True),
        ("http://help.example.com/a", False),
        ("https://user:pw@help.example.com/a", False),
        ("//evil.example.com/a", False),
        ("javascript:alert(1)", False),
        ("https://help.example.com/a b", False),
        (42, False),
    ],
)
def test_url(value: object, kept: bool) -> None:
    url, warnings = decide_url({"url": value})
    assert (url is not None) == kept and bool(warnings) != kept


def test_misspelled_audience_key_beats_a_public_rule() -> None:
    from provider.wiki.classify import AudienceRule

    decision = decide_audience({"Audience": "internal"}, "a.md", (AudienceRule("**", "public"),), unreadable=None)
    assert decision.value == "internal" and "Audience" in decision.source


@pytest.mark.parametrize(
    ("layout", "relpath", "locale", "group"),
    [
        ("plain", "de/a/b.md", "de", "a/b"),
        ("plain", "a/b.de.md", "de", "a/b"),
        ("hugo", "content/de/posts/a.md", "de", "content/posts/a"),
        ("hugo", "content/posts/a.de.md", "de", "content/posts/a"),
        ("hugo", "de/posts/a.md", "de", "posts/a"),  # content dir as the root
        ("hugo", "content/posts/trip/index.de.md", "de", "content/posts/trip"),
        ("docusaurus", "i18n/de/docusaurus-plugin-content-docs/current/a/b.mdx", "de", "docs/a/b"),
        ("docusaurus", "i18n/de/docusaurus-plugin-content-blog/2024-01-31-x.md", "de", "blog/2024-01-31-x"),
        ("docusaurus", "i18n/de/docusaurus-plugin-content-pages/about.md", "de", "src/pages/about"),
        ("docusaurus", "docs/a/b.md", "en", "docs/a/b"),
        ("docusaurus", "docs/a/b.de.md", "en", "docs/a/b.de"),  # Docusaurus has no suffix locales
        ("jekyll", "de/docs/a.md", "de", "docs/a"),
        ("mkdocs", "docs/a.de.md", "de", "docs/a"),
        ("mkdocs", "docs/de/a.md", "de", "docs/a"),
        ("docfx", "articles/a.de.md", "de", "articles/a"),
    ],
)
def test_each_preset_finds_locale_and_group(layout: str, relpath: str, locale: str, group: str) -> None:
    settings = WikiSettings(root=Path("/x"), layout=layout, locales=("en", "de"))
    data = b"Text."
    result = parse_document(settings, relpath, data, size=len(data), mtime_ns=0)
    assert isinstance(result, WikiDocument)
    assert (result.meta.locale, result.meta.translation_group) == (locale, group)


def test_layouts_are_consistent() -> None:
    for layout in LAYOUTS.values():
        assert layout.extensions and all(e.startswith(".") and e == e.lower() for e in layout.extensions)
        assert all(n == n.lower() for n in (*layout.index_names, *layout.section_names))


def test_jekyll_one_digit_hours_and_translated_posts_posted_later() -> None:
    """Jekyll reads ``2013-11-22 5:00:00 +0000``; a news post's translation with the same
    slug posted a day later is in the original's translation group (ruby-lang.org)."""
    from provider.wiki.dates import parse_date, post_group

    assert parse_date("2013-11-22 5:00:00 +0000") == dt.datetime(2013, 11, 22, 5, tzinfo=dt.UTC)
    assert post_group("news/_posts/2013-11-22-ruby-released", "_posts") == "news/_posts/2013/ruby-released"
    assert post_group("news/other/2013-11-22-ruby-released", "_posts") is None
    settings = WikiSettings(root=Path("/nonexistent"), layout="jekyll", locales=("en", "ja"))
    groups = {}
    for relpath in ("en/news/_posts/2013-11-22-ruby-released.md", "ja/news/_posts/2013-11-23-ruby-released.md"):
        data = b"---\ndate: 2013-11-22 5:00:00 +0000\n---\nText.\n"
        result = parse_document(settings, relpath, data, size=len(data), mtime_ns=0)
        assert isinstance(result, WikiDocument) and not result.meta.errors, result
        groups[relpath] = result.meta.translation_group
    assert len(set(groups.values())) == 1
