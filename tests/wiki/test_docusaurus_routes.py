"""Docusaurus URLs and pages by the docs plugin's own rules (issue 24; citation URLs are
the site's, CONTRACT R7; internal text never reaches ``customer_safe``, CONTRACT A1):
front matter ``slug``, ``routeBasePath`` read from ``docusaurus.config.js``, translations
built only for a source file at the same path, and partials the operator made internal."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.citations import document_url, url_inputs
from provider.wiki.classify import INTERNAL, PUBLIC, AudienceRule
from provider.wiki.corpus import resolve
from provider.wiki.document import WikiDocument, WikiSettings, load_document
from provider.wiki.docusaurus_urls import docusaurus_doc_path, resolve_slug
from provider.wiki.layouts import LAYOUTS
from provider.wiki.model import CitationSettings

BASE = "https://docs.example.com"
CONFIG = """module.exports = {{
  presets: [
    ['classic', ({{
      blog: false,
      docs: {{ {docs} sidebarPath: require.resolve('./sidebars.js') }},
    }})],
  ],
}};
"""


def _site(root: Path, files: dict[str, str], *, rules: tuple[AudienceRule, ...] = (AudienceRule("**", PUBLIC),),
          route: str | None = None) -> WikiSettings:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return WikiSettings(root=root, layout="docusaurus", locales=("en", "ko", "vi", "ja"), audience_rules=rules,
                        citation=CitationSettings(base_url=BASE, route_base_path=route))


def _url(settings: WikiSettings, relpath: str) -> str | None:
    doc = load_document(settings, relpath)
    assert isinstance(doc, WikiDocument), doc
    return document_url(url_inputs(doc.meta, settings), public=True, settings=settings.citation, agent_view=True)[0]


@pytest.mark.parametrize(("relpath", "front", "expected"), [
    # kaia-docs: the translated slug is the translated page's URL.
    ("i18n/ko/docusaurus-plugin-content-docs/current/build/get-started/get-started.mdx",
     "slug: /build/get-start", "/ko/docs/build/get-start"),
    ("i18n/vi/docusaurus-plugin-content-docs/current/build/get-started/get-started.mdx",
     "slug: /build/bắt-đầu", "/vi/docs/build/b%E1%BA%AFt-%C4%91%E1%BA%A7u"),
    ("docs/build/get-started/get-started.mdx", "slug: /build/get-started", "/docs/build/get-started"),
    ("docs/a/b.md", "slug: c", "/docs/a/c"),  # relative: in its folder
    ("docs/a/b.md", "slug: ../c", "/docs/c"),
    ("docs/a/b.md", "slug: /", "/docs"),
    ("docs/a/README.md", "id: intro", "/docs/a"),  # a category index is its folder, whatever its id
    ("docs/guides/guides.md", "id: intro", "/docs/guides"),
    ("docs/a/b.md", "id: intro", "/docs/a/intro"),
    ("docs/01-a/02-b.md", "title: B", "/docs/a/b"),
])
def test_slug_and_id_follow_docusaurus(tmp_path: Path, relpath: str, front: str, expected: str) -> None:
    settings = _site(tmp_path, {relpath: f"---\n{front}\n---\n\n# Page\n\nWords.\n"})
    assert _url(settings, relpath) == BASE + expected


@pytest.mark.parametrize("slug", ["/a//b", "/a/../b", "x?y", "/a#b", "../../../x"])
def test_a_slug_docusaurus_refuses_gives_no_url(tmp_path: Path, slug: str) -> None:
    settings = _site(tmp_path, {"docs/a/b.md": f"---\nslug: '{slug}'\n---\n\nWords.\n"})
    assert _url(settings, "docs/a/b.md") is None


@pytest.mark.parametrize(("docs", "route", "expected"), [
    ("routeBasePath: '/',", None, "/build/x"),
    ("routeBasePath: 'guide/',", None, "/guide/build/x"),
    ("", None, "/docs/build/x"),  # Docusaurus' default
    ("routeBasePath: '/',", "manual", "/manual/build/x"),  # the operator's setting wins
    ("routeBasePath: base,", None, None),  # not a literal: unknown, no guess
    ("routeBasePath: `${x}`,", None, None),
])
def test_route_base_path_is_read_from_the_config(tmp_path: Path, docs: str, route: str | None,
                                                  expected: str | None) -> None:
    settings = _site(tmp_path, {"docusaurus.config.js": CONFIG.format(docs=docs), "docs/build/x.md": "Words.\n"},
                     route=route)
    assert _url(settings, "docs/build/x.md") == (BASE + expected if expected else None)


@given(st.lists(st.sampled_from(["a", "b", "..", "."]), min_size=1, max_size=6),
       st.lists(st.sampled_from(["x", "y"]), max_size=3))
def test_resolve_slug_is_url_path_resolution(parts: list[str], folders: list[str]) -> None:
    """Property: a relative slug resolves as urllib resolves a relative URL path (RFC 3986
    section 5.2), except that climbing above the root is refused rather than clamped.
    (Empty segments and a leading ``/`` are refused or absolute before resolution.)"""
    from urllib.parse import urljoin
    slug = "/".join(parts)
    folder = "/" + "".join(f"{f}/" for f in folders)
    mine = resolve_slug(slug, folder)
    theirs = urljoin("https://h" + folder, slug).removeprefix("https://h") if slug else folder
    climbs = False
    depth = len(folders)
    for part in parts:
        if part == "..":
            if depth == 0:
                climbs = True
                break
            depth -= 1
        elif part not in (".", ""):
            depth += 1
    if climbs:
        assert mine is None
    else:
        assert mine is not None and mine.rstrip("/") == theirs.rstrip("/")


def test_docusaurus_doc_path_examples() -> None:
    assert docusaurus_doc_path("index.md") == ""
    assert docusaurus_doc_path("Guides/README.mdx") == "Guides"


def _resolved(settings: WikiSettings, relpaths: list[str]) -> dict[str, object]:
    docs = {}
    for relpath in relpaths:
        doc = load_document(settings, relpath)
        assert isinstance(doc, WikiDocument), (relpath, doc)
        docs[relpath] = doc.meta
    return dict(resolve(docs, default_locale="en", now=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
                        layout=LAYOUTS["docusaurus"]))


JA = "i18n/ja/docusaurus-plugin-content-docs/current"


def test_a_translation_is_built_only_for_the_source_file_at_its_path(tmp_path: Path) -> None:
    """kaia-docs: ja has both ``admin.md`` and ``admin/README.md``; the source has only
    ``admin/README.md``. Docusaurus looks each ``docs/`` file up in the locale's folder, so
    ja's README is the page and ``admin.md`` is never built (not a duplicate id)."""
    files = {
        "docs/rpc/admin/README.md": "# Admin\n\nThe admin namespace in English.\n",
        f"{JA}/rpc/admin/README.md": "# 管理\n\n管理名前空間の説明です。\n",
        f"{JA}/rpc/admin.md": "# 管理（古い）\n\n古い管理ページの説明です。\n",
        "docs/verify/hardhat.mdx": "# Hardhat\n\nVerify with Hardhat.\n",
        f"{JA}/verify/hardhat.md": "# Hardhat 古い\n\n古い説明です。\n",
        f"{JA}/verify/hardhat.mdx": "# Hardhat\n\nHardhatで検証します。\n",
    }
    settings = _site(tmp_path, files)
    resolved = _resolved(settings, list(files))
    served = {p for p, r in resolved.items() if r.served}  # type: ignore[attr-defined]
    assert served == {"docs/rpc/admin/README.md", f"{JA}/rpc/admin/README.md", "docs/verify/hardhat.mdx",
                      f"{JA}/verify/hardhat.mdx"}
    for relpath in (f"{JA}/rpc/admin/README.md", f"{JA}/verify/hardhat.mdx"):
        assert resolved[relpath].meta.audience == PUBLIC  # type: ignore[attr-defined]
        assert resolved[relpath].audience == PUBLIC  # type: ignore[attr-defined]
    assert "no docs/rpc/admin.md" in (resolved[f"{JA}/rpc/admin.md"].withheld or "")  # type: ignore[attr-defined]


def test_a_page_importing_an_internal_partial_is_internal(tmp_path: Path) -> None:
    """The operator's rules make ``_shared/**`` internal: the page that shows it is not
    served to customers, and the finding names both files."""
    files = {
        "docs/wallet.mdx": "# Wallet\n\nimport Shared from './_shared/keys.mdx';\n\n<Shared />\n",
        "docs/_shared/keys.mdx": "Staff recovery key procedure.\n",
        "docs/other.md": "# Other\n\nPublic words.\n",
    }
    rules = (AudienceRule("docs/_shared/**", INTERNAL), AudienceRule("**", PUBLIC))
    settings = _site(tmp_path, files, rules=rules)
    doc = load_document(settings, "docs/wallet.mdx")
    assert isinstance(doc, WikiDocument)
    assert "Staff recovery" not in doc.public_body
    assert any("docs/_shared/keys.mdx" in e and "docs/wallet.mdx" in e for e in doc.meta.errors)
    resolved = _resolved(settings, ["docs/wallet.mdx", "docs/other.md"])
    assert resolved["docs/wallet.mdx"].audience == INTERNAL  # type: ignore[attr-defined]
    assert resolved["docs/other.md"].audience == PUBLIC  # type: ignore[attr-defined]


@given(st.sampled_from(["internal", "withhold"]), st.sampled_from(["docs/_shared/**", "**/_shared/*.mdx",
                                                                   "docs/_shared/keys.mdx", "DOCS/_shared/**"]))
def test_any_rule_keeping_a_partial_from_customers_fails_the_page_closed(audience: str, pattern: str) -> None:
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        rules = (AudienceRule(pattern, audience), AudienceRule("**", PUBLIC))
        settings = _site(Path(folder), {
            "docs/wallet.mdx": "# Wallet\n\nimport Shared from './_shared/keys.mdx';\n\n<Shared />\n",
            "docs/_shared/keys.mdx": "Staff recovery key procedure.\n"}, rules=rules)
        doc = load_document(settings, "docs/wallet.mdx")
        assert isinstance(doc, WikiDocument)
        assert "Staff recovery" not in doc.public_body and doc.meta.errors


def test_findings_after_an_inlined_partial_give_the_pages_own_line(tmp_path: Path) -> None:
    """Issue 24 (finding 5): a 30-line partial does not shift the line of a marker below
    its component; a marker inside the partial is reported at the component's line."""
    partial = "\n".join(f"Partial line {n}." for n in range(30)) + "\n\nFor staff only: the partial's note.\n"
    page = ("# Wallet\n\nimport Shared from './_shared/keys.mdx';\n\n<Shared />\n\nSome words.\n\n"
            "For staff only: rotate the key.\n")
    settings = _site(tmp_path, {"docs/wallet.mdx": page, "docs/_shared/keys.mdx": partial})
    doc = load_document(settings, "docs/wallet.mdx")
    assert isinstance(doc, WikiDocument)
    said = " | ".join(doc.meta.warnings)
    assert "line 9:" in said  # "For staff only: rotate the key." is line 9 of the file
    assert "line 5:" in said  # the partial's marker: the <Shared /> line
    assert not any(f"line {n}:" in said for n in range(10, 50))


#: Docusaurus 3.10.2's ``DefaultNumberPrefixParser`` on these names (run with node).
@pytest.mark.parametrize(("name", "expected"), [
    ("01-intro", "intro"), ("2021-11-foo", "2021-11-foo"), ("7.0-foo", "7.0-foo"), ("003 - myDoc", "myDoc"),
    ("1-", "1-"), ("01--x", "x"), ("12_a", "a"), ("1.b", "b"), ("x1-a", "x1-a"), ("1 _ . c", "1 _ . c"),
])
def test_number_prefixes_as_docusaurus_parses_them(name: str, expected: str) -> None:
    assert docusaurus_doc_path(f"{name}.md") == expected


_PAGES = ["a.md", "a.mdx", "a/README.md", "a/index.mdx", "a/a.md", "b/c.md", "b/c.mdx"]


@settings(max_examples=25, deadline=None)
@given(st.sets(st.sampled_from(_PAGES), min_size=1), st.sets(st.sampled_from(_PAGES), min_size=1))
def test_a_translation_is_served_only_with_its_source_file(sources: set[str], translations: set[str]) -> None:
    """Property (issue 24, rule 5): whatever mix of ``.md``/``.mdx``, ``README``/``index``
    and folder-named files the source and a locale hold, a translation is never served
    without the source file at its path, is served when that source is, and no two
    served documents share an id unless quarantined."""
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        files = {f"docs/{p}": f"# Source {p}\n\nEnglish words about {p}.\n" for p in sources}
        files |= {f"{JA}/{p}": f"# 翻訳 {p}\n\n{p} についての日本語の説明です。\n" for p in translations}
        resolved = _resolved(_site(Path(folder), files), sorted(files))
        for p in translations:
            served = resolved[f"{JA}/{p}"].served  # type: ignore[attr-defined]
            assert not served or p in sources, p  # never built without its source file
            if p in sources and resolved[f"docs/{p}"].served:  # type: ignore[attr-defined]
                assert served, p
        served_ids = [r.meta.doc_id for r in resolved.values() if r.served]  # type: ignore[attr-defined]
        quarantined = [r for r in resolved.values() if r.quarantine]  # type: ignore[attr-defined]
        assert len(served_ids) == len(set(served_ids)) or quarantined


def test_a_header_reread_does_not_keep_a_partial_the_new_rules_make_internal(tmp_path: Path) -> None:
    """X7 at a configuration reload: a page is re-read from its header only when its body
    is as before; a partial it shows that the new ``audience_rules`` make internal (or
    whose bytes changed) sends it to a full reading (``None``: internal until then)."""
    from dataclasses import replace as dc_replace

    from provider.wiki.document import reread_header
    files = {"docs/wallet.mdx": "# Wallet\n\nimport Shared from './_shared/keys.mdx';\n\n<Shared />\n",
             "docs/_shared/keys.mdx": "Recovery key procedure.\n"}
    settings = _site(tmp_path, files)
    doc = load_document(settings, "docs/wallet.mdx")
    assert isinstance(doc, WikiDocument) and doc.meta.partials
    assert reread_header(settings, doc.meta) is not None
    rules = (AudienceRule("docs/_shared/**", INTERNAL), AudienceRule("**", PUBLIC))
    stricter = dc_replace(settings, audience_rules=rules)
    assert reread_header(stricter, doc.meta) is None
    (tmp_path / "docs/_shared/keys.mdx").write_text("Changed words.\n", encoding="utf-8")
    assert reread_header(settings, doc.meta) is None
