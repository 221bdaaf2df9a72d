"""Citation URLs as each tool makes them (CONTRACT R7): for a fixture file of each layout,
the URL the provider cites is the URL the tool's documented default rules give that file
(Hugo pretty URLs and lower-cased paths, Docusaurus ``routeBasePath``/number prefixes/``id``,
Starlight locale folders, MkDocs directory URLs, Jekyll ``.html`` pages and dated posts),
with the site's own locale key (``zh-cn``) and explicit heading ids as anchors."""

from __future__ import annotations

from pathlib import Path

import pytest

from provider.config import config_from_mapping
from provider.wiki.citations import CitationSettings, document_url, url_inputs
from provider.wiki.document import WikiDocument, WikiSettings, parse_document

BASE = "https://site.example.org"

# layout → (locales, [(file, front matter + body, expected URL)]); the expectations are
# the tools' documented default URLs for those files.
CASES: dict[str, tuple[tuple[str, ...], list[tuple[str, str, str]]]] = {
    "hugo": (("en", "de", "zh-CN"), [
        ("content/en/docs/Getting-Started/install.md", "Text.", "/docs/getting-started/install/"),
        ("content/en/docs/_index.md", "Text.", "/docs/"),
        ("content/en/posts/trip/index.md", "Text.", "/posts/trip/"),
        ("content/de/docs/install.md", "Text.", "/de/docs/install/"),
        ("content/zh-cn/docs/install.md", "Text.", "/zh-cn/docs/install/"),
        ("content/about.de.md", "Text.", "/de/about/"),
    ]),
    "docusaurus": (("en", "zh-CN"), [
        ("docs/guide/01-intro.md", "Text.", "/docs/guide/intro"),
        ("docs/guide/other.md", "---\nid: part-one\n---\nText.", "/docs/guide/part-one"),
        ("docs/guide/README.md", "Text.", "/docs/guide"),
        ("docs/get-started/get-started.mdx", "Text.", "/docs/get-started"),  # a category index
        ("i18n/zh-CN/docusaurus-plugin-content-docs/current/guide/01-intro.md", "Text.", "/zh-CN/docs/guide/intro"),
        ("blog/2024-01-31-hello.md", "Text.", "/blog/2024/01/31/hello"),
    ]),
    "starlight": (("en", "zh-CN", "pt-BR"), [
        ("src/content/docs/en/guides/Install.mdx", "---\ntitle: Install\n---\nText.", "/en/guides/install/"),
        ("src/content/docs/zh-cn/guides/install.mdx", "---\ntitle: 安装\n---\nText.", "/zh-cn/guides/install/"),
        ("src/content/docs/pt-br/index.mdx", "---\ntitle: Início\n---\nText.", "/pt-br/"),
    ]),
    "mkdocs": (("en",), [
        ("docs/setup/install.md", "Text.", "/setup/install/"),
        ("docs/setup/index.md", "Text.", "/setup/"),
    ]),
    "jekyll": (("en",), [
        ("about.md", "Text.", "/about.html"),
        ("docs/index.md", "Text.", "/docs/"),
        ("_posts/2024-01-31-hello.md", "Text.", "/2024/01/31/hello.html"),
    ]),
    "docfx": (("en",), [
        ("Exchange/ExchangeOnline/fix-sync.md", "Text.", "/Exchange/ExchangeOnline/fix-sync"),
    ]),
}


def _document(settings: WikiSettings, relpath: str, text: str) -> WikiDocument:
    data = text.encode("utf-8")
    result = parse_document(settings, relpath, data, size=len(data), mtime_ns=0)
    assert isinstance(result, WikiDocument), result
    return result


@pytest.mark.parametrize(("layout", "relpath", "text", "expected"),
                         [(layout, *case) for layout, (_, cases) in CASES.items() for case in cases])
def test_r7_default_urls_are_the_tools_urls(layout: str, relpath: str, text: str, expected: str) -> None:
    locales = CASES[layout][0]
    settings = WikiSettings(root=Path("/nonexistent"), layout=layout, locales=locales,
                            citation=CitationSettings(base_url=BASE))
    meta = _document(settings, relpath, text).meta
    url, warning = document_url(url_inputs(meta, settings), public=True, settings=settings.citation, agent_view=True)
    assert warning is None and url == BASE + expected


def test_docusaurus_route_base_path_slash() -> None:
    """``routeBasePath: '/'`` (kaia-docs): docs are served at the site root."""
    config = config_from_mapping({"layout": "docusaurus", "locales": ["en", "ja"], "citation_base_url": BASE,
                                  "route_base_path": "/"}, base=Path("/nonexistent"))
    settings = config.wiki_settings()
    for relpath, expected in (("docs/build/get-started.md", "/build/get-started"),
                              ("i18n/ja/docusaurus-plugin-content-docs/current/build/get-started.md",
                               "/ja/build/get-started")):
        meta = _document(settings, relpath, "Text.").meta
        assert document_url(url_inputs(meta, settings), public=True, settings=settings.citation,
                            agent_view=True)[0] == BASE + expected


def test_an_operator_pattern_replaces_the_layouts_and_locale_key_is_available() -> None:
    settings = WikiSettings(root=Path("/nonexistent"), layout="hugo", locales=("en", "zh-CN"),
                            citation=CitationSettings(base_url=BASE, path_pattern="/{locale_key}/{path}.html"))
    meta = _document(settings, "content/zh-cn/docs/x.md", "Text.").meta
    url = document_url(url_inputs(meta, settings), public=True, settings=settings.citation, agent_view=True)[0]
    assert url == BASE + "/zh-cn/docs/x.html"


@pytest.mark.parametrize(("layout", "heading", "anchor"), [
    ("hugo", "## Set it up {#setup}", "setup"),
    ("docusaurus", "## Set it up {#setup}", "setup"),
    ("jekyll", "## Set it up\n{: #setup .big}", "setup"),  # kramdown's block attribute list
    ("jekyll", "## Set it up {#setup}", "setup"),
    ("mkdocs", "## Set it up { #setup .wide }", "setup"),
    ("plain", "## Set it up {#setup}", "set-it-up"),  # GitHub does not honour explicit ids
])
def test_explicit_heading_ids_are_anchors(layout: str, heading: str, anchor: str) -> None:
    settings = WikiSettings(root=Path("/nonexistent"), layout=layout)
    doc = _document(settings, "docs/page.md", f"# Page\n\nIntro.\n\n{heading}\n\nBody text.\n")
    assert [p.anchor for p in doc.passages if "Body" in p.text] == [anchor]
