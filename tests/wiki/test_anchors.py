"""provider.wiki.anchors: heading anchors by each tool's own rule (CONTRACT R7: a chunk's
URL points at its heading). For MkDocs the expected ids are Python-Markdown's own output:
each case renders the page with ``markdown.markdown(..., extensions=["toc", "attr_list"])``
and reads the ids back, so the test follows the library, not our reading of it."""

from __future__ import annotations

import re
from pathlib import Path

import markdown
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.anchors import AnchorRule, Slugger, TocSlugger, new_slugger
from provider.wiki.dialects import apply_dialects
from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.passages import split_passages
from provider.wiki.plaintext import markdown_to_text

_ID = re.compile(r'<h[1-6][^>]*?\sid="([^"]*)"')


def python_markdown_ids(source: str, **toc: object) -> list[str]:
    html = markdown.markdown(source, extensions=["toc", "attr_list"], extension_configs={"toc": toc})
    return _ID.findall(html)


MKDOCS_RULE = AnchorRule("python-markdown")


def our_ids(source: str, rule: AnchorRule = MKDOCS_RULE) -> list[str]:
    blocks = markdown_to_text(apply_dialects(source, ("mkdocs", "heading_attributes"))).blocks
    return [p.anchor for p in split_passages(blocks, slugger=new_slugger(rule))]


def page(headings: list[str]) -> str:
    return "".join(f"## {h}\n\nBody {i}.\n\n" for i, h in enumerate(headings))


@pytest.mark.parametrize(
    "headings",
    [
        ["Install", "Install", "Install"],  # _1, _2
        ["Übersicht der Größen", "Café crème"],  # folded to ASCII
        ["Agents SDK を使用する理由", "概念", "概念"],  # CJK dropped: _1, _2
        ["Why use it? {#why}", "Why use it?"],
        ["Set it up { #setup .wide }", "setup"],  # an explicit id is taken first: setup_1
        ["A `code` heading", "Q&A: what's new", "C++ / C# (2024)"],
        ["Trailing hashes ##", "  Spaced   out  "],
    ],
)
def test_mkdocs_anchors_are_python_markdowns(headings: list[str]) -> None:
    source = page(headings)
    assert our_ids(source) == python_markdown_ids(source)


def test_toc_options_unicode_and_separator() -> None:
    from markdown.extensions.toc import slugify_unicode

    source = page(["Agents SDK を使用する理由", "Übersicht"])
    rule = AnchorRule("python-markdown", separator="_", unicode=True)
    assert our_ids(source, rule) == python_markdown_ids(source, slugify=slugify_unicode, separator="_")


_HEADING_CHARS = st.sampled_from(list("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 ---.,:!?'\"()/+éüßçñ日本語概念한국"))
_HEADING = st.text(alphabet=_HEADING_CHARS, min_size=1, max_size=30).filter(lambda t: t.strip(" -") != "")
_EXPLICIT = st.text(alphabet=st.sampled_from("abcxyz-"), min_size=1, max_size=6).filter(lambda t: t[0].isalpha())


@settings(max_examples=200, deadline=None, database=None)
@given(items=st.lists(st.tuples(_HEADING, st.one_of(st.none(), _EXPLICIT)), min_size=1, max_size=6))
def test_property_mkdocs_anchors_match_python_markdown(items: list[tuple[str, str | None]]) -> None:
    headings = [h.strip() + (f" {{#{i}}}" if i else "") for h, i in items]
    source = page(headings)
    assert our_ids(source) == python_markdown_ids(source)


def test_github_rule_kept_for_the_other_layouts() -> None:
    slugger = Slugger()
    assert [slugger.slug(h) for h in ("Install", "Install", "Agents SDK を使用する理由")] == [
        "install", "install-1", "agents-sdk-を使用する理由"]
    assert isinstance(new_slugger(AnchorRule()), Slugger)
    assert isinstance(new_slugger(AnchorRule("python-markdown")), TocSlugger)
    with pytest.raises(ValueError, match="unknown anchor rule"):
        new_slugger(AnchorRule("kramdown"))


@pytest.mark.parametrize(("heading", "slug"), [
    # github-slugger (Starlight, Docusaurus): no-break spaces are removed, not turned into "-"
    # (the operator trial: 340 French astro-docs headings cited an anchor ending in "-")
    ("Qu’est-ce qui a mal tourné\u202f?", "quest-ce-qui-a-mal-tourné"),
    ("Configuration\u00a0: options", "configuration-options"),
    # combining marks are kept: Arabic shadda, Devanagari vowel signs
    ("قالب المكوّن", "قالب-المكوّن"),
    ("एडिटर सेटअप", "एडिटर-सेटअप"),
    # other numbers and symbols go; decimal digits and "_" stay
    ("x² and € 5_a", "x-and--5_a"),
])
def test_github_rule_is_github_sluggers(heading: str, slug: str) -> None:
    assert Slugger().slug(heading) == slug


def _anchors(root: Path, relpath: str, layout: str) -> list[str]:
    settings = WikiSettings(root=root, layout=layout, locales=("en", "ja"))
    data = (root / relpath).read_bytes()
    document = parse_document(settings, relpath, data, size=len(data), mtime_ns=0)
    assert isinstance(document, WikiDocument)
    return list(dict.fromkeys(p.anchor for p in document.passages))


def test_mkdocs_yml_toc_settings_are_read(tmp_path: Path) -> None:
    (tmp_path / "docs" / "ja").mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: x\nmarkdown_extensions:\n  - toc:\n      permalink: true\n"
        "      slugify: !!python/name:markdown.extensions.toc.slugify_unicode\n", "utf-8")
    (tmp_path / "docs" / "ja" / "guide.md").write_text("# ガイド\n\n本文。\n\n## 概念\n\n説明。\n", "utf-8")
    assert _anchors(tmp_path, "docs/ja/guide.md", "mkdocs") == ["ガイド", "概念"]
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", "utf-8")
    assert _anchors(tmp_path, "docs/ja/guide.md", "mkdocs") == ["_1", "_2"]  # the default rule: ASCII only
    assert _anchors(tmp_path, "docs/ja/guide.md", "docusaurus") == ["ガイド", "概念"]  # GitHub's rule
