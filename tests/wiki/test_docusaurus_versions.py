"""Docusaurus versioned docs get the URLs Docusaurus gives them (issue 24, CONTRACT R7, X2).

``versioned_docs/version-<name>/`` holds a released version's docs: ``lastVersion`` (by
default the newest in ``versions.json``) is served at ``routeBasePath`` itself
(``/docs/x``), another released version at ``/docs/<name>/x`` (or its ``versions.<name>.path``),
the current ``docs/`` folder at ``/docs/next/x``. A version ``versions.json`` does not list,
or ``onlyIncludeVersions`` leaves out, is not built; version options the provider cannot
read as plain data leave every versioned doc out, and ``check`` says why (fail closed).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.audience import AudienceRule
from provider.wiki.check import check_wiki
from provider.wiki.citations import CitationSettings, document_url, url_inputs
from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.sites import load_site_policy
from tests.wiki.test_sitemap import urlset

BASE = "https://docs.example.com"
PAGE = "---\ntitle: Intro\n---\n# Intro\n\nInstall the {} release.\n"
_SITES = itertools.count()


def _site(root: Path, config: str, versions: list[str], folders: dict[str, str]) -> WikiSettings:
    files = {"docusaurus.config.js": config, "versions.json": json.dumps(versions), "docs/intro.md": PAGE}
    files.update({f"versioned_docs/version-{v}/{rel}": PAGE.format(v) for v, rel in folders.items()})
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")
    return WikiSettings(root=root, layout="docusaurus", audience_rules=(AudienceRule("**", "public"),),
                        citation=CitationSettings(base_url=BASE))


def _url(settings: WikiSettings, relpath: str) -> tuple[str | None, str | None]:
    """``(url, why none)``: the citation URL, else the site policy's or the URL rules' reason."""
    excluded = load_site_policy(settings.root, "docusaurus").excluded_reason(relpath)
    if excluded is not None:
        return None, excluded
    data = (settings.root / relpath).read_bytes()
    doc = parse_document(settings, relpath, data, size=len(data), mtime_ns=0)
    assert isinstance(doc, WikiDocument), doc
    inputs = url_inputs(doc.meta, settings)
    return document_url(inputs, public=True, settings=settings.citation, agent_view=True)[0], inputs.problem


def _config(docs: str = "") -> str:
    return f"module.exports = {{ presets: [['classic', {{ docs: {{ {docs} }} }}]] }};\n"


V = {"2.0": "intro.md", "1.0": "guides/01-setup.md", "0.9": "intro.md"}


@pytest.mark.parametrize(("docs", "expected"), [
    ("", {"docs/intro.md": "/docs/next/intro", "versioned_docs/version-2.0/intro.md": "/docs/intro",
          "versioned_docs/version-1.0/guides/01-setup.md": "/docs/1.0/guides/setup",
          "versioned_docs/version-0.9/intro.md": None}),                        # 0.9 not in versions.json
    ("lastVersion: 'current'", {"docs/intro.md": "/docs/intro",
                                "versioned_docs/version-2.0/intro.md": "/docs/2.0/intro"}),
    ("lastVersion: '1.0', versions: { current: { label: 'Next', path: 'dev' }, '2.0': { path: 'v2', "
     "banner: 'none' } }", {"docs/intro.md": "/docs/dev/intro", "versioned_docs/version-2.0/intro.md": "/docs/v2/intro",
                            "versioned_docs/version-1.0/guides/01-setup.md": "/docs/guides/setup"}),
    ("onlyIncludeVersions: ['current', '2.0']", {"versioned_docs/version-2.0/intro.md": "/docs/intro",
                                                 "versioned_docs/version-1.0/guides/01-setup.md": None}),
    ("routeBasePath: '/', versions: opts", {"versioned_docs/version-2.0/intro.md": None,
                                            "versioned_docs/version-1.0/guides/01-setup.md": None}),
    ("versions: { ['2.0']: { path: 'x' } }", {"versioned_docs/version-2.0/intro.md": None}),
    # disableVersioning: only the current docs are built, as the last version (issue 24).
    ("disableVersioning: true", {"docs/intro.md": "/docs/intro", "versioned_docs/version-2.0/intro.md": None,
                                 "versioned_docs/version-1.0/guides/01-setup.md": None}),
    ("disableVersioning: true, versions: { current: { path: 'dev' } }", {"docs/intro.md": "/docs/dev/intro"}),
    ("disableVersioning: false", {"docs/intro.md": "/docs/next/intro",
                                  "versioned_docs/version-2.0/intro.md": "/docs/intro"}),
    ("disableVersioning: true, lastVersion: '2.0'", {"docs/intro.md": None}),      # Docusaurus refuses it
    ("disableVersioning: flag", {"docs/intro.md": None, "versioned_docs/version-2.0/intro.md": None}),
])
def test_r7_issue24_versioned_docs_urls(tmp_path: Path, docs: str, expected: dict[str, str | None]) -> None:
    settings = _site(tmp_path, _config(docs), ["2.0", "1.0"], V)
    for relpath, path in expected.items():
        url, why = _url(settings, relpath)
        assert url == (f"{BASE}{path}" if path else None), (relpath, url, why)
        if path is None:
            assert why, relpath  # check says why there is none


def test_x2_issue24_unbuilt_or_unreadable_versions_are_not_served(tmp_path: Path) -> None:
    settings = _site(tmp_path, _config("versions: opts"), ["2.0"], {"2.0": "intro.md"})
    reason = load_site_policy(tmp_path, "docusaurus").excluded_reason("versioned_docs/version-2.0/intro.md")
    assert reason is not None and "versions is not a literal object" in reason
    (tmp_path / "docusaurus.config.js").write_text(_config(), "utf-8")
    (tmp_path / "versions.json").write_text("not json", "utf-8")
    reason = load_site_policy(tmp_path, "docusaurus").excluded_reason("versioned_docs/version-2.0/intro.md")
    assert reason is not None and "versions.json cannot be read" in reason
    assert _url(settings, "docs/intro.md")[0] is None


def test_x2_issue24_versioned_docs_public_when_the_sitemap_lists_them(tmp_path: Path) -> None:
    """End to end: with the site's sitemap, a released version's page whose URL it lists
    is public; the current docs' page, at /docs/next/ which the sitemap lacks, is not."""
    root = tmp_path / f"s{next(_SITES)}"
    settings = _site(root, _config(), ["2.0", "1.0"], {"2.0": "intro.md", "1.0": "intro.md", "0.9": "intro.md"})
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(urlset(f"{BASE}/docs/intro", f"{BASE}/docs/1.0/intro", f"{BASE}/docs/0.9/intro"), "utf-8")
    import dataclasses

    found = {e.path: e.resolved for e in check_wiki(dataclasses.replace(settings, sitemap=(str(sitemap),))).files}
    assert getattr(found["versioned_docs/version-2.0/intro.md"], "public", False)
    assert getattr(found["versioned_docs/version-1.0/intro.md"], "public", False)
    assert not getattr(found["docs/intro.md"], "public", False)
    assert not getattr(found["versioned_docs/version-0.9/intro.md"], "public", False)  # not built, whatever the sitemap


_NAME = st.from_regex(r"[0-9]{1,2}\.[0-9]{1,2}(\.[0-9])?", fullmatch=True)


@settings(max_examples=25, deadline=None)
@given(names=st.lists(_NAME, min_size=1, max_size=4, unique=True), data=st.data())
def test_r7_issue24_version_paths_class(tmp_path_factory: pytest.TempPathFactory, names: list[str],
                                        data: st.DataObject) -> None:
    """Any versions.json and lastVersion: exactly one version (lastVersion) is at
    routeBasePath, every other released one at its name, the current docs at next/."""
    last = data.draw(st.sampled_from(["", "current", *names]))
    root = tmp_path_factory.mktemp("v")
    settings = _site(root, _config(f"lastVersion: '{last}'" if last else ""), names, dict.fromkeys(names, "a.md"))
    effective = last or names[0]
    for name in names:
        url, why = _url(settings, f"versioned_docs/version-{name}/a.md")
        assert url == (f"{BASE}/docs/a" if name == effective else f"{BASE}/docs/{name}/a"), (name, why)
    assert _url(settings, "docs/intro.md")[0] == (f"{BASE}/docs/intro" if effective == "current"
                                                 else f"{BASE}/docs/next/intro")


def test_issue24_each_version_has_its_tag_pages(tmp_path: Path) -> None:
    """A versioned doc whose slug is ``/tags`` collides with that version's generated tag
    list (/docs/1.0/tags): not proved published by the sitemap."""
    from provider.wiki.generated_pages import generated_route

    _site(tmp_path, _config("versions: { '1.0': { path: 'old' } }"), ["2.0", "1.0"], {})
    for path in ("/docs/tags", "/docs/old/tags/x", "/docs/next/tags"):
        assert generated_route("docusaurus", path, root=tmp_path) is not None, path
    for path in ("/docs/guides/tags", "/docs/2.0/tags"):  # 2.0 is lastVersion: at /docs/ itself
        assert generated_route("docusaurus", path, root=tmp_path) is None, path


TRANSLATED = "i18n/ja/docusaurus-plugin-content-docs"


@pytest.mark.parametrize(("docs", "expected"), [
    ("", {f"{TRANSLATED}/version-2.0/intro.md": "/ja/docs/intro",
          f"{TRANSLATED}/version-1.0/guides/01-setup.md": "/ja/docs/1.0/guides/setup",
          f"{TRANSLATED}/current/intro.md": "/ja/docs/next/intro",
          f"{TRANSLATED}/version-0.9/intro.md": None,          # not in versions.json: not built
          f"{TRANSLATED}/version-3.0/intro.md": None}),        # no versioned_docs/version-3.0 either
    ("disableVersioning: true", {f"{TRANSLATED}/version-2.0/intro.md": None,
                                 f"{TRANSLATED}/current/intro.md": "/ja/docs/intro"}),
    ("onlyIncludeVersions: ['current', '1.0']", {f"{TRANSLATED}/version-2.0/intro.md": None,
                                                 f"{TRANSLATED}/version-1.0/guides/01-setup.md":
                                                     "/ja/docs/guides/setup"}),
    ("versions: opts", {f"{TRANSLATED}/version-2.0/intro.md": None}),
])
def test_r7_issue24_translations_of_versioned_docs(tmp_path: Path, docs: str,
                                                   expected: dict[str, str | None]) -> None:
    """Issue 24: ``i18n/<locale>/docusaurus-plugin-content-docs/version-<name>/`` translates
    ``versioned_docs/version-<name>/``: it gets that version's URL under the locale
    (``/ja/docs/1.0/…``) when Docusaurus builds the version, and is skipped with the reason
    when it does not (or when the version options cannot be read)."""
    import dataclasses

    settings = dataclasses.replace(_site(tmp_path, _config(docs), ["2.0", "1.0"], {**V, "0.9": "intro.md"}),
                                   locales=("en", "ja"))
    for relpath in expected:
        (tmp_path / relpath).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relpath).write_text(PAGE.format("ja"), "utf-8")
    for relpath, path in expected.items():
        url, why = _url(settings, relpath)
        assert url == (f"{BASE}{path}" if path else None), (relpath, url, why)
        if path is None:
            assert why, relpath


def test_x2_issue24_translation_of_an_internal_versioned_doc_is_not_public(tmp_path: Path) -> None:
    """The translation of a released version's doc follows its source (issue 24): the
    source internal, the translation is internal too, whatever the sitemap lists; a public
    source's translation is public when the sitemap lists it."""
    import dataclasses

    root = tmp_path / f"s{next(_SITES)}"
    settings = _site(root, _config(), ["2.0", "1.0"], {"2.0": "intro.md", "1.0": "intro.md"})
    (root / "versioned_docs/version-1.0/intro.md").write_text(
        "---\ntitle: Intro\naudience: internal\n---\n# Intro\n\nThe support escalation runbook.\n", "utf-8")
    for version in ("1.0", "2.0"):
        (root / f"{TRANSLATED}/version-{version}").mkdir(parents=True)
    texts = {"1.0": "---\ntitle: 障害対応\n---\n# 障害対応\n\nサポート担当者向けのエスカレーション手順です。\n",
             "2.0": "---\ntitle: インストール\n---\n# インストール\n\n新しいリリースをダウンロードして実行します。\n"}
    for version, text in texts.items():
        (root / f"{TRANSLATED}/version-{version}/intro.md").write_text(text, "utf-8")
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(urlset(*(f"{BASE}{p}" for p in ("/docs/intro", "/docs/1.0/intro", "/ja/docs/intro",
                                                       "/ja/docs/1.0/intro"))), "utf-8")
    found = {e.path: e.resolved for e in check_wiki(dataclasses.replace(
        settings, locales=("en", "ja"), sitemap=(str(sitemap),))).files}
    assert getattr(found[f"{TRANSLATED}/version-2.0/intro.md"], "public", False)
    assert not getattr(found["versioned_docs/version-1.0/intro.md"], "public", False)
    assert not getattr(found[f"{TRANSLATED}/version-1.0/intro.md"], "public", False)
