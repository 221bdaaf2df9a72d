"""The Docusaurus layout reads text as the site shows it (issue 24): MDX partials inlined
where their component stands (duty: public text is what the site shows, internal text
never reaches a ``customer_safe`` credential — CONTRACT A1)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.check import check_wiki
from provider.wiki.citations import document_url, url_inputs
from provider.wiki.classify import PUBLIC, AudienceRule
from provider.wiki.document import WikiDocument, WikiSettings, load_document
from provider.wiki.files import Skipped
from provider.wiki.model import CitationSettings

PAGE = "---\ntitle: Wallets\n---\n\nimport Shared from '{target}';\n\n<Shared />\n"


def _site(root: Path, files: dict[str, str]) -> WikiSettings:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return WikiSettings(root=root, layout="docusaurus", audience_rules=(AudienceRule("**", PUBLIC),))


def _load(settings: WikiSettings, relpath: str) -> WikiDocument | Skipped | None:
    return load_document(settings, relpath)


def test_partial_text_is_the_page_text(tmp_path: Path) -> None:
    settings = _site(tmp_path, {
        "docs/build/wallets/setup.mdx": PAGE.format(target="../_shared/wallet.mdx"),
        "docs/build/_shared/wallet.mdx": "## Configure the wallet\n\nOpen MetaMask and add the Kaia network.\n",
    })
    doc = _load(settings, "docs/build/wallets/setup.mdx")
    assert isinstance(doc, WikiDocument)
    assert "Open MetaMask and add the Kaia network." in doc.public_body
    assert "import" not in doc.public_body and "<Shared" not in doc.public_body
    assert doc.meta.audience == PUBLIC
    # The partial itself stays a non-page.
    assert isinstance(_load(settings, "docs/build/_shared/wallet.mdx"), Skipped)


def test_site_alias_and_nested_partials(tmp_path: Path) -> None:
    settings = _site(tmp_path, {
        "docs/a.md": PAGE.format(target="@site/docs/_shared/outer.md"),
        "docs/_shared/outer.md": "Outer words.\n\nimport Inner from './inner.md';\n\n<Inner />\n",
        "docs/_shared/inner.md": "Inner words.\n",
    })
    doc = _load(settings, "docs/a.md")
    assert isinstance(doc, WikiDocument)
    assert "Outer words." in doc.public_body and "Inner words." in doc.public_body


def test_internal_marker_inside_a_partial_makes_an_internal_section(tmp_path: Path) -> None:
    settings = _site(tmp_path, {
        "docs/a.mdx": PAGE.format(target="./_p.mdx"),
        "docs/_p.mdx": "Public steps here.\n\n<!-- internal -->\nThe staging password rotation runbook.\n"
                       "<!-- /internal -->\n",
    })
    doc = _load(settings, "docs/a.mdx")
    assert isinstance(doc, WikiDocument)
    assert "Public steps here." in doc.public_body
    assert "staging password" not in doc.public_body
    assert "staging password" in doc.body


def test_refused_partials_leave_the_page_as_before(tmp_path: Path) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("Outside words.\n", encoding="utf-8")
    root = tmp_path / "site"
    settings = _site(root, {
        "docs/out.md": PAGE.format(target="../../secret.md") + "\nOwn text.\n",
        "docs/missing.md": PAGE.format(target="./_nope.md") + "\nOwn text.\n",
        "docs/cycle.md": PAGE.format(target="./_c1.md"),
        "docs/_c1.md": "One.\n\nimport C from './_c2.md';\n\n<C />\n",
        "docs/_c2.md": "Two.\n\nimport C from './_c1.md';\n\n<C />\n",
        "docs/deep.md": PAGE.format(target="./_d1.md"),
        "docs/_d1.md": "D1.\n\nimport D from './_d2.md';\n\n<D />\n",
        "docs/_d2.md": "D2.\n\nimport D from './_d3.md';\n\n<D />\n",
        "docs/_d3.md": "D3.\n\nimport D from './_d4.md';\n\n<D />\n",
        "docs/_d4.md": "D4.\n",
        "docs/own.md": PAGE.format(target="./_aud.md") + "\nOwn text.\n",
        "docs/_aud.md": "---\naudience: internal\n---\nStaff only.\n",
    })
    out = _load(settings, "docs/out.md")
    assert isinstance(out, WikiDocument) and "Outside words" not in out.body
    assert any("outside the content root" in w for w in out.meta.warnings)
    missing = _load(settings, "docs/missing.md")
    assert isinstance(missing, WikiDocument) and any("missing" in w for w in missing.meta.warnings)
    cycle = _load(settings, "docs/cycle.md")
    assert isinstance(cycle, WikiDocument) and "One." in cycle.body and "Two." in cycle.body
    assert any("cycle" in w for w in cycle.meta.warnings)
    deep = _load(settings, "docs/deep.md")
    assert isinstance(deep, WikiDocument) and "D3." in deep.body and "D4." not in deep.body
    own = _load(settings, "docs/own.md")
    assert isinstance(own, WikiDocument) and "Staff only" not in own.body


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["./_x.mdx", "../docs/_x.mdx", "@site/docs/_x.mdx"]),
       st.sampled_from(["<Shared />", "<Shared/>", "  <Shared />", "<Shared></Shared>", "<Shared {...props} />"]),
       st.sampled_from(["'", '"']), st.booleans())
def test_every_import_form_inlines_and_marked_text_stays_internal(
        tmp_path_factory: pytest.TempPathFactory, target: str, usage: str, quote: str, marked: bool) -> None:
    root = tmp_path_factory.mktemp("site")
    body = "Shown words.\n" + ("\n<!-- internal -->\nHidden runbook.\n<!-- /internal -->\n" if marked
                               else "\nHidden runbook.\n")
    page = f"---\ntitle: T\n---\n\nimport Shared from {quote}{target}{quote};\n\n{usage}\n"
    settings_ = _site(root, {"docs/p.mdx": page, "docs/_x.mdx": body})
    doc = _load(settings_, "docs/p.mdx")
    assert isinstance(doc, WikiDocument)
    assert "Shown words." in doc.public_body
    # Balance: unmarked partial text stays public; marked text never does.
    assert ("Hidden runbook." in doc.public_body) is not marked
    assert "Hidden runbook." in doc.body


def test_files_outside_the_plugin_folders_are_not_pages_at_the_site_root(tmp_path: Path) -> None:
    settings = _site(tmp_path, {
        "docusaurus.config.js": "module.exports = { title: 'Site' };\n",
        "docs/intro.md": "# Intro\n\nWelcome to the docs.\n",
        "i18n/ko/docusaurus-plugin-content-docs/current/intro.md": "# 소개\n\n문서에 오신 것을 환영합니다.\n",
        "blog/2024-01-01-hello.md": "# Hello\n\nA post.\n",
        "src/pages/about.md": "# About\n\nAbout us.\n",
        "SOURCE.md": "# Source\n\nWhere this corpus came from.\n",
        "README.md": "# Readme\n\nHow to build the site.\n",
        "notes/x.md": "# Notes\n\nLoose notes.\n",
    })
    for page in ("docs/intro.md", "i18n/ko/docusaurus-plugin-content-docs/current/intro.md",
                 "blog/2024-01-01-hello.md", "src/pages/about.md"):
        assert isinstance(_load(settings, page), WikiDocument), page
    for other in ("SOURCE.md", "README.md", "notes/x.md"):
        skipped = _load(settings, other)
        assert isinstance(skipped, Skipped) and "Docusaurus does not build it" in skipped.reason, other


def test_content_root_without_a_site_config_keeps_every_page(tmp_path: Path) -> None:
    # Balance: content pointed at a docs folder (no docusaurus.config.js) is all pages.
    settings = _site(tmp_path, {"README.md": "# Readme\n\nPublic words.\n", "guide/a.md": "# A\n\nText.\n"})
    assert isinstance(_load(settings, "README.md"), WikiDocument)
    assert isinstance(_load(settings, "guide/a.md"), WikiDocument)


@pytest.mark.parametrize("fence", ["```", "````", "~~~"])
def test_mdx_code_block_is_page_content_not_code(tmp_path: Path, fence: str) -> None:
    page = (f"# Debugging\n\nThis guide covers node tools.\n\n{fence}mdx-code-block\n"
            f"import DocCardList from '@theme/DocCardList';\nimport Shared from './_s.md';\n\n<DocCardList />\n\n"
            f"<Shared />\n{fence}\n\n```js\nimport x from 'y';\n```\n")
    settings = _site(tmp_path, {"docs/d.md": page, "docs/_s.md": "Shared partial words.\n"})
    doc = _load(settings, "docs/d.md")
    assert isinstance(doc, WikiDocument)
    assert "DocCardList" not in doc.public_body and "mdx-code-block" not in doc.public_body
    assert "Shared partial words." in doc.public_body
    # Balance: an ordinary code fence is still code, shown as written.
    assert "import x from 'y';" in doc.public_body


@pytest.mark.parametrize(("written", "url"), [
    ("trailingSlash: true,", "https://docs.example.com/docs/guide/intro/"),
    ("trailingSlash: false,", "https://docs.example.com/docs/guide/intro"),
    ("trailingSlash: process.env.SLASH === '1',", "https://docs.example.com/docs/guide/intro"),  # not evaluated
    ("// trailingSlash: true,", "https://docs.example.com/docs/guide/intro"),  # a comment sets nothing
    ("", "https://docs.example.com/docs/guide/intro"),
])
def test_trailing_slash_is_read_from_the_config(tmp_path: Path, written: str, url: str) -> None:
    settings = _site(tmp_path, {"docusaurus.config.js": f"module.exports = {{\n  {written}\n  title: 'x',\n}};\n",
                                "docs/guide/intro.md": "# Intro\n\nWelcome.\n"})
    settings = replace(settings, citation=CitationSettings(base_url="https://docs.example.com"))
    doc = _load(settings, "docs/guide/intro.md")
    assert isinstance(doc, WikiDocument)
    built, _ = document_url(url_inputs(doc.meta, settings), public=True, settings=settings.citation,
                            agent_view=False)
    assert built == url


@pytest.mark.parametrize(("written", "noted"), [("trailingSlash: isProd,", True), ("trailingSlash: true,", False),
                                                ("", False)])
def test_check_says_when_trailing_slash_is_not_a_literal(tmp_path: Path, written: str, noted: bool) -> None:
    settings = _site(tmp_path, {"docusaurus.config.js": f"module.exports = {{\n  {written}\n}};\n",
                                "docs/a.md": "# A\n\nText.\n"})
    settings = replace(settings, citation=CitationSettings(base_url="https://docs.example.com"))
    notes = check_wiki(settings).url_notes
    assert any("trailingSlash is 'isProd'" in n for n in notes) is noted
