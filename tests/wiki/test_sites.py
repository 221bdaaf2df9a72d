"""Each docs tool's own publication settings (issue 24, :mod:`provider.wiki.sites`): a page
the tool does not publish never reaches the public index (CONTRACT X2, X5), and ``check``
reports it with the reason; a configuration that cannot be understood fails closed."""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from provider.indexing import Indexer
from provider.search.layout import IndexLayout
from provider.wiki.audience import AudienceRule
from provider.wiki.check import check_wiki
from provider.wiki.document import WikiDocument, WikiSettings, load_document
from provider.wiki.files import Skipped
from provider.wiki.sites import load_site_policy


def _write(root: Path, files: dict[str, str]) -> None:
    """Write ``files``; each page gets words of its own, so no two pages are one text
    (the same-words rule would otherwise relate them: provider.wiki.same_text)."""
    for rel, text in files.items():
        if rel.endswith((".md", ".mdx", ".markdown")) and text.endswith("here.\n"):
            digest = hashlib.sha256(rel.encode()).hexdigest()
            text += "\n" + " ".join("w" + digest[i:i + 4] for i in range(0, 64, 4)) + ".\n"
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")


_PAGES = itertools.count()


def _page(audience: str | None = "public", extra: str = "") -> str:
    head = f"audience: {audience}\n" if audience else ""
    # Each page its own words: pages with one internal page's whole text are copies of
    # it (rule 6d), which is not what these tests are about.
    n = next(_PAGES)
    words = " ".join(f"word{n}x{i}" for i in range(8))
    return f"---\ntitle: T\n{head}{extra}---\n# Heading\n\nSome words about the product: {words}.\n"


def _public_now(layout: IndexLayout) -> set[str]:
    """The documentIds in the current build's public (customer_safe) index."""
    from whoosh import index as whoosh_index

    name = layout.current_name()
    assert name is not None
    with whoosh_index.open_dir(str(layout.build_dir(name) / "public")).searcher() as searcher:
        return {fields["doc"]["id"] for fields in searcher.all_stored_fields()}


def _public_ids(settings_: WikiSettings, index_root: Path) -> set[str]:
    with Indexer(settings_, IndexLayout(index_root)) as indexer:
        indexer.sync()
    return _public_now(IndexLayout(index_root))


def _reasons(report_files: list, path: str) -> str:  # type: ignore[type-arg]
    entry = next(e for e in report_files if e.path == path)
    item = entry.resolved
    return " ".join([entry.skipped or "", *(entry.reasons), (item.withheld or "") if item else "",
                     item.audience if item else ""])


def test_jekyll_exclude_defaults_and_underscore_names(tmp_path: Path) -> None:
    """X2/X5: _config.yml exclude:, defaults: (published: false, an audience) and names
    Jekyll does not render keep pages out of the public index; check names the reason."""
    site = tmp_path / "site"
    _write(site, {
        "_config.yml": (
            "exclude: [private/]\ninclude: [_kept]\n"
            "defaults:\n"
            "  - scope: {path: ''}\n    values: {audience: public}\n"
            "  - scope: {path: team}\n    values: {audience: internal}\n"
            "  - scope: {path: 'soon/*'}\n    values: {published: false}\n"
        ),
        "index.md": _page(None),
        "private/a.md": _page(),
        "team/b.md": _page(None),
        "soon/x/c.md": _page(None),
        "_notes/d.md": _page(),
        "guide/_e.md": _page(),
        "_kept/f.md": _page(None),
    })
    wiki = WikiSettings(root=site, layout="jekyll")
    assert _public_ids(wiki, tmp_path / "index") == {"index", "_kept/f"}
    files = check_wiki(wiki).files
    assert "excluded by _config.yml exclude: private/" in _reasons(files, "private/a.md")
    assert "internal" in _reasons(files, "team/b.md")
    assert "published" in _reasons(files, "soon/x/c.md")
    assert "start with _" in _reasons(files, "_notes/d.md")
    assert "start with _" in _reasons(files, "guide/_e.md")


def test_mkdocs_exclude_docs_draft_docs_defaults_and_meta_yml(tmp_path: Path) -> None:
    """X2/X5: exclude_docs / draft_docs (gitignore), the default templates/ exclusion,
    files outside docs_dir and a folder's .meta.yml; custom YAML tags are not evaluated."""
    site = tmp_path / "site"
    _write(site, {
        "mkdocs.yml": (
            "site_name: !ENV [SITE_NAME, 'x']\n"
            "markdown_extensions:\n  - pymdownx.emoji:\n"
            "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
            "plugins:\n  - search\n  - meta\n"
            "exclude_docs: |\n  secret/\n  *.wip.md\n  !keep.wip.md\n"
            "draft_docs: |\n  drafts/\n"
        ),
        "README.md": _page(),
        "docs/index.md": _page(),
        "docs/keep.wip.md": _page(),
        "docs/a.wip.md": _page(),
        "docs/secret/s.md": _page(),
        "docs/drafts/d.md": _page(),
        "docs/templates/t.md": _page(),
        "docs/team/.meta.yml": "audience: internal\n",
        "docs/team/p.md": _page(None),
        "docs/team/q.md": _page("public"),
        "docs/guide/index.md": _page(),
        "docs/guide/README.md": _page(),
    })
    wiki = WikiSettings(root=site, layout="mkdocs")
    public = _public_ids(wiki, tmp_path / "index")
    assert public == {"docs", "docs/keep.wip", "docs/team/q", "docs/guide"}
    files = check_wiki(wiki).files
    assert "exclude_docs: 'secret/'" in _reasons(files, "docs/secret/s.md")
    assert "exclude_docs: '*.wip.md'" in _reasons(files, "docs/a.wip.md")
    assert "draft_docs: 'drafts/'" in _reasons(files, "docs/drafts/d.md")
    assert "default exclusion '/templates/'" in _reasons(files, "docs/templates/t.md")
    assert "outside docs_dir" in _reasons(files, "README.md")
    assert "internal" in _reasons(files, "docs/team/p.md")
    assert "excludes the README" in _reasons(files, "docs/guide/README.md")


def test_an_unreadable_site_configuration_makes_every_page_internal(tmp_path: Path) -> None:
    """Fail closed: an mkdocs.yml that cannot be parsed may have excluded anything."""
    site = tmp_path / "site"
    _write(site, {"mkdocs.yml": "exclude_docs: [unclosed\n", "docs/index.md": _page()})
    wiki = WikiSettings(root=site, layout="mkdocs")
    assert _public_ids(wiki, tmp_path / "index") == set()
    report = check_wiki(wiki)
    assert report.exit_code == 1 and report.site.findings
    assert "mkdocs.yml" in _reasons(report.files, "docs/index.md")


def test_docfx_content_globs_file_metadata_and_noindex(tmp_path: Path) -> None:
    """X2/X5: build.content exclude, fileMetadata (an audience, ROBOTS: NOINDEX) and
    globalMetadata, each as the page's own key."""
    site = tmp_path / "site"
    _write(site, {
        "Teams/docfx.json": (
            '{"build": {"content": [{"files": ["**/*.md"], "exclude": ["private/**", "README.md"]}],'
            ' "globalMetadata": {"audience": "public"},'
            ' "fileMetadata": {"audience": {"team/**": "internal", "odd/**": "Public"},'
            ' "ROBOTS": {"old/**": "NOINDEX"}}}}'
        ),
        "Teams/index.md": _page(None),
        "Teams/README.md": _page(None),
        "Teams/private/a.md": _page(None),
        "Teams/team/b.md": _page(None),
        "Teams/odd/c.md": _page(None),
        "Teams/old/d.md": _page(None),
        "notes.md": _page(),
    })
    wiki = WikiSettings(root=site, layout="docfx", withhold_noindex=True)
    assert _public_ids(wiki, tmp_path / "index") == {"Teams"}
    files = check_wiki(wiki).files
    assert "exclude: private/**" in _reasons(files, "Teams/private/a.md")
    assert "exclude: README.md" in _reasons(files, "Teams/README.md")
    assert "no DocFX docset" in _reasons(files, "notes.md")
    assert "NOINDEX" in _reasons(files, "Teams/old/d.md")
    assert "site metadata (Teams/docfx.json" in _reasons(files, "Teams/old/d.md")
    team = next(e for e in files if e.path == "Teams/team/b.md").resolved
    assert team is not None and team.audience == "internal" and "docfx.json fileMetadata" in team.audience_source


def test_hugo_ignore_files_and_mount_excludes(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _write(site, {
        "hugo.toml": ('ignoreFiles = ["\\\\.secret\\\\.md$"]\n'
                      '[[module.mounts]]\nsource = "content"\ntarget = "content"\nexcludeFiles = ["drafts/**"]\n'),
        "content/docs/a.md": _page(),
        "content/docs/b.secret.md": _page(),
        "content/drafts/c.md": _page(),
    })
    wiki = WikiSettings(root=site / "content", layout="hugo")
    assert _public_ids(wiki, tmp_path / "index") == {"docs/a"}
    files = check_wiki(wiki).files
    assert "ignoreFiles" in _reasons(files, "docs/b.secret.md")
    assert "excludeFiles" in _reasons(files, "drafts/c.md")


def test_docusaurus_javascript_exclude_is_reported_and_fails_closed(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _write(site, {
        "docusaurus.config.js": "module.exports = { presets: [['classic', { docs: { exclude: ['**/old/**'] } }]] };\n",
        "docs/intro.md": _page(),
        "docs/_partial.md": _page(),
        "docs/old/x.md": _page(),
    })
    wiki = WikiSettings(root=site, layout="docusaurus")
    assert _public_ids(wiki, tmp_path / "index") == set()
    report = check_wiki(wiki)
    assert report.exit_code == 1
    assert any("sets exclude" in f.message and "sitemap" in f.message for f in report.site.findings)
    # The hook for the sitemap (pub-sitemap): such a finding is one a sitemap settles.
    from provider.wiki.sites import site_view

    assert site_view(site, "docusaurus", "docs/intro.md").sitemap_settles
    assert "starting with _" in _reasons(report.files, "docs/_partial.md")


def test_starlight_underscore_files_are_not_pages(tmp_path: Path) -> None:
    """X2/X5: Starlight's docs loader skips _-prefixed files; a JS collection pattern is a finding."""
    root = tmp_path / "site"
    _write(root, {"src/content/docs/en/a.mdx": _page(), "src/content/docs/en/_b.mdx": _page()})
    wiki = WikiSettings(root=root, layout="starlight", locales=("en",))
    assert _public_ids(wiki, tmp_path / "index") == {"src/content/docs/en/a"}
    assert "start with _" in _reasons(check_wiki(wiki).files, "src/content/docs/en/_b.mdx")
    _write(root, {"src/content.config.ts": "export const collections = { docs: defineCollection({ loader: "
                                           "glob({ pattern: '**/[^x]*.mdx', base: 'src/content/docs' }) }) };\n"})
    report = check_wiki(wiki)
    assert report.exit_code == 1 and "sets pattern" in report.site.findings[0].message


def test_starlight_at_the_site_root_builds_its_docs_collection_only(tmp_path: Path) -> None:
    """X2/X5 (operator trial, astro-docs): with content at the site root, a README or
    SOURCE.md beside src/content/docs is never a page, even under a `**: public` rule;
    pointed at src/content/docs itself, every page is read as before."""
    root = tmp_path / "site"
    _write(root, {"src/content/docs/en/a.mdx": _page(), "SOURCE.md": _page(), "notes/b.md": _page()})
    rules = (AudienceRule("**", "public"),)
    wiki = WikiSettings(root=root, layout="starlight", locales=("en",), audience_rules=rules)
    assert _public_ids(wiki, tmp_path / "index") == {"src/content/docs/en/a"}
    assert "docs collection" in _reasons(check_wiki(wiki).files, "SOURCE.md")
    inner = WikiSettings(root=root / "src/content/docs", layout="starlight", locales=("en",), audience_rules=rules)
    assert _public_ids(inner, tmp_path / "index2") == {"en/a"}


_NAME = st.text(string.ascii_lowercase + string.digits + "-", min_size=1, max_size=8)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lead=st.sampled_from(["_", ".", "#", "~"]), name=_NAME, depth=st.integers(0, 2), folder=st.booleans())
def test_jekyll_special_names_are_never_pages(tmp_path: Path, lead: str, name: str, depth: int, folder: bool) -> None:
    """The class: any file or folder whose name starts with _ . # ~ (at any depth, not
    included, not _posts/_drafts) is not rendered by Jekyll, so it is never a page."""
    root = tmp_path / "jk"
    _write(root, {"_config.yml": "title: x\n"})
    special = lead + name
    if special in ("_posts", "_drafts"):
        return
    parts = [f"d{i}" for i in range(depth)] + ([special, "page.md"] if folder else [special + ".md"])
    policy = load_site_policy(root, "jekyll")
    assert policy.excluded_reason("/".join(parts)) is not None
    assert policy.excluded_reason("/".join([*parts[:-1][: depth], "plain.md"])) is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.one_of(st.text(max_size=12), st.sampled_from(["Public", "public ", "PUBLIC", "'public'", "yes"])),
       key=st.sampled_from(["audience", "Audience"]))
def test_docfx_metadata_audience_is_public_only_when_exactly_public(tmp_path: Path, value: str, key: str) -> None:
    """The class: an audience given by fileMetadata counts like the page's own key —
    anything but exactly ``audience: public`` is internal (X5)."""
    root = tmp_path / "dfx"
    _write(root, {"docfx.json": json.dumps({"build": {"content": [{"files": ["**/*.md"]}],
                                                      "fileMetadata": {key: {"**/*.md": value}}}}),
                  "a.md": "# A\n\nWords here.\n"})
    doc = load_document(WikiSettings(root=root, layout="docfx"), "a.md")
    assert isinstance(doc, WikiDocument)
    if not (key == "audience" and value == "public"):
        assert doc.meta.audience == "internal"
    else:
        assert doc.meta.audience == "public"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(folder=_NAME, other=_NAME, name=_NAME, trailing=st.booleans())
def test_mkdocs_exclude_docs_folder_pattern_excludes_everything_below(
    tmp_path: Path, folder: str, other: str, name: str, trailing: bool
) -> None:
    """The class: a gitignore folder pattern in exclude_docs excludes every file below
    that folder at any depth, and nothing beside it."""
    root = tmp_path / "mk"
    pattern = f"{folder}/" if trailing else folder
    _write(root, {"mkdocs.yml": f"exclude_docs: |\n  {pattern}\n"})
    policy = load_site_policy(root, "mkdocs")
    assert policy.excluded_reason(f"docs/{folder}/{name}.md") is not None
    assert policy.excluded_reason(f"docs/x/{folder}/{name}.md") is not None
    if other != folder and other != f"{name}.md":
        assert policy.excluded_reason(f"docs/{other}/{name}x.md") is None or other.startswith(".")


def test_a_site_configuration_change_is_picked_up_by_the_next_scan(tmp_path: Path) -> None:
    """X7 for site settings: an exclude: added to _config.yml takes the page out of the
    public index at the next scan (the watcher scans on a configuration change), without
    the page file changing."""
    site = tmp_path / "site"
    _write(site, {"_config.yml": "title: x\n", "a.md": _page(), "b.md": _page()})
    wiki = WikiSettings(root=site, layout="jekyll")
    layout = IndexLayout(tmp_path / "index")

    with Indexer(wiki, layout) as indexer:
        indexer.sync()
        assert _public_now(layout) == {"a", "b"}
        (site / "_config.yml").write_text("title: x\nexclude: [b.md]\ndefaults:\n  - scope: {path: a.md}\n"
                                          "    values: {published: false}\n", "utf-8")
        indexer.sync()
        assert _public_now(layout) == set()


def test_mkdocs_yml_tags_are_never_evaluated(tmp_path: Path) -> None:
    """A Python tag in mkdocs.yml is kept as data: reading it runs nothing."""
    marker = tmp_path / "ran"
    _write(tmp_path / "mk", {"mkdocs.yml": (
        f"site_name: x\nhooks: !!python/object/apply:os.system ['touch {marker}']\n"
        "nav: !!python/name:os.system\nexclude_docs: |\n  old/\n")})
    policy = load_site_policy(tmp_path / "mk", "mkdocs")
    assert not marker.exists()
    assert not policy.findings and policy.excluded_reason("docs/old/a.md") is not None


def test_an_env_tag_on_a_publication_setting_fails_closed(tmp_path: Path) -> None:
    _write(tmp_path / "mk", {"mkdocs.yml": "exclude_docs: !ENV [EXCLUDES, '']\n", "docs/a.md": _page()})
    wiki = WikiSettings(root=tmp_path / "mk", layout="mkdocs")
    doc = load_document(wiki, "docs/a.md")
    assert isinstance(doc, WikiDocument) and doc.meta.errors
    assert any("!ENV" in error for error in doc.meta.errors)


def test_javascript_options_in_comments_are_not_findings(tmp_path: Path) -> None:
    _write(tmp_path / "ds", {"docusaurus.config.js": (
        "// exclude: ['x']\n/* include: ['y'] */\nmodule.exports = { url: 'https://x.test' };\n")})
    assert load_site_policy(tmp_path / "ds", "docusaurus").findings == ()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(page_key=st.sampled_from(["Audience", "audiences", "AUDIENCE", "audience "]),
       default=st.sampled_from(["public", "internal"]))
def test_a_look_alike_key_beside_a_default_audience_is_internal(
    tmp_path: Path, page_key: str, default: str
) -> None:
    """The class: a page whose own key only resembles ``audience`` while a Jekyll default
    gives one is never public (the two signals disagree or one is not exact: X5)."""
    root = tmp_path / "jk2"
    _write(root, {"_config.yml": f"defaults:\n  - scope: {{path: ''}}\n    values: {{audience: {default}}}\n",
                  "a.md": f"---\n'{page_key}': public\n---\n# A\n\nWords here.\n"})
    doc = load_document(WikiSettings(root=root, layout="jekyll"), "a.md")
    assert isinstance(doc, WikiDocument) and doc.meta.audience == "internal"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stem=st.text("abc", min_size=1, max_size=4), accent=st.sampled_from(["é", "ü", "ñ", "å", "ö"]),
       tool=st.sampled_from(["jekyll", "mkdocs", "docfx"]))
def test_an_nfc_pattern_excludes_an_nfd_folder(tmp_path: Path, stem: str, accent: str, tool: str) -> None:
    """The class: the same folder name in another Unicode normalisation on disk is still
    excluded by the tool's pattern (no leak through NFD names)."""
    import unicodedata

    folder = stem + accent
    nfc, nfd = unicodedata.normalize("NFC", folder), unicodedata.normalize("NFD", folder)
    root = tmp_path / f"u{tool}"
    config = {"jekyll": ("_config.yml", f"exclude: ['{nfc}/']\n"),
              "mkdocs": ("mkdocs.yml", f"exclude_docs: |\n  {nfc}/\n"),
              "docfx": ("docfx.json", json.dumps({"build": {"content": [{"files": ["**/*.md"],
                                                                         "exclude": [f"{nfc}/**"]}]}}))}
    name, text = config[tool]
    page = f"docs/{nfd}/p.md" if tool == "mkdocs" else f"{nfd}/p.md"
    _write(root, {name: text, page: _page()})
    assert isinstance(load_document(WikiSettings(root=root, layout=tool), page), Skipped)


def test_the_watcher_rescans_when_a_site_configuration_file_changes(tmp_path: Path) -> None:
    """A watcher batch naming a configuration file (here a folder's .meta.yml) re-derives
    every page it governs, although no page file changed."""
    from provider.watch import LiveIndexer

    site = tmp_path / "site"
    _write(site, {"mkdocs.yml": "plugins: [meta]\n", "docs/team/a.md": _page(None), "docs/b.md": _page()})
    layout = IndexLayout(tmp_path / "index")
    with Indexer(WikiSettings(root=site, layout="mkdocs", audience_rules=()), layout) as indexer:
        indexer.sync()
        docs = indexer.manifest.docs if indexer.manifest else {}
        assert docs["docs/team/a.md"].audience == "internal"  # no audience anywhere: internal
        _write(site, {"docs/team/.meta.yml": "audience: public\n"})
        live = LiveIndexer(indexer, reconcile_interval_s=0)
        report = live.apply(["docs/team/.meta.yml"])
        assert report is not None and report.written >= 1
        docs = indexer.manifest.docs if indexer.manifest else {}
        assert docs["docs/team/a.md"].audience == "public"
        assert "docs/team/.meta.yml" in docs["docs/team/a.md"].sources.get("site", "")


def test_the_indexer_logs_a_configuration_it_cannot_understand_once(tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    site = tmp_path / "site"
    _write(site, {"_config.yml": "exclude: 3\n", "a.md": _page()})
    with caplog.at_level(logging.WARNING, logger="provider.wiki.sites.load"), \
            Indexer(WikiSettings(root=site, layout="jekyll"), IndexLayout(tmp_path / "index")) as indexer:
        indexer.sync()
        indexer.sync()
    logged = [r.getMessage() for r in caplog.records if "_config.yml exclude" in r.getMessage()]
    assert len(logged) == 1 and "internal" in logged[0]


def test_mkdocs_i18n_language_with_build_false_is_not_built(tmp_path: Path) -> None:
    root = tmp_path / "mk"
    _write(root, {"mkdocs.yml": ("plugins:\n  - i18n:\n      docs_structure: folder\n      languages:\n"
                                 "        - {locale: en, default: true, build: true}\n"
                                 "        - {locale: ja, build: false}\n        - {locale: ko, build: true}\n")})
    policy = load_site_policy(root, "mkdocs")
    assert "'ja' has build: false" in (policy.excluded_reason("docs/ja/a.md") or "")
    assert policy.excluded_reason("docs/ko/a.md") is None and policy.excluded_reason("docs/a.md") is None


def test_a_hugo_site_cascade_change_is_picked_up_by_the_next_scan(tmp_path: Path) -> None:
    """The site configuration's cascade (hugo_site) now also re-derives at the next scan:
    its files are part of each page's site digest."""

    site = tmp_path / "site"
    _write(site, {"hugo.toml": "title = 'x'\n", "content/docs/a.md": _page()})
    wiki = WikiSettings(root=site / "content", layout="hugo")
    layout = IndexLayout(tmp_path / "index")

    with Indexer(wiki, layout) as indexer:
        indexer.sync()
        assert _public_now(layout) == {"docs/a"}
        _write(site, {"hugo.toml": "title = 'x'\n[[cascade]]\n[cascade.build]\nrender = 'never'\n"})
        indexer.sync()
        assert _public_now(layout) == set()


def _corpora() -> Path | None:
    repo = Path(__file__).resolve().parents[2]
    for candidate in (repo / ".." / "shared" / "corpora", repo / ".." / ".." / "shared" / "corpora"):
        if candidate.is_dir():
            return candidate
    return None


@pytest.mark.parametrize(("corpus", "layout", "expected"), [
    ("openai-agents-docs", "mkdocs", {"SOURCE.md"}),
    ("ms-officedocs-support", "docfx", {"SOURCE.md"}),
    ("kaia-docs", "docusaurus", {"SOURCE.md"}),  # beside docs/: not built (issue 24)
    ("astro-docs", "starlight", {"SOURCE.md"}),
])
def test_what_the_site_rules_withhold_on_real_corpora(corpus: str, layout: str, expected: set[str]) -> None:
    """False positives, measured: on the real sites the tool rules withhold only what
    their own tool does not publish (the export's SOURCE.md, outside docs_dir / any
    docset), and find nothing they cannot read."""
    from provider.wiki.files import discover
    from provider.wiki.sites import site_view

    corpora = _corpora()
    if corpora is None:
        pytest.skip("the shared corpora are not next to this checkout")
    root = (corpora / corpus).resolve()
    wiki = WikiSettings(root=root, layout=layout)
    files = discover(root, extensions=wiki.file_extensions, ignore=wiki.ignore_rules).files
    views = {relpath: site_view(root, layout, relpath) for relpath in files}
    assert {relpath for relpath, view in views.items() if view.excluded} == expected
    assert not any(view.errors for view in views.values())
    assert load_site_policy(root, layout).findings == ()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(folder=_NAME, below=st.lists(_NAME, max_size=3), name=_NAME,
       how=st.sampled_from(["exclude", "noindex", "published", "draft", "internal"]))
def test_a_tool_default_that_withholds_a_folder_withholds_every_page_below(
    tmp_path: Path, folder: str, below: list[str], name: str, how: str
) -> None:
    """The class: whichever way the tool's configuration withholds a folder (DocFX exclude
    or ROBOTS NOINDEX; Jekyll defaults published: false, draft: true, audience: internal),
    no page at any depth below it is public."""
    relpath = "/".join([folder, *below, f"{name}.md"])
    body = "# A\n\nWords about the product.\n"
    if how in ("exclude", "noindex"):
        config = ({"content": [{"files": ["**/*.md"], "exclude": [f"{folder}/**"]}]} if how == "exclude" else
                  {"content": [{"files": ["**/*.md"]}], "globalMetadata": {"audience": "public"},
                   "fileMetadata": {"ROBOTS": {f"{folder}/**": "NOINDEX"}}})
        root = tmp_path / f"d{how}"
        _write(root, {"docfx.json": json.dumps({"build": config}), relpath: body})
        wiki = WikiSettings(root=root, layout="docfx", withhold_noindex=True)
    else:
        value = {"published": "published: false", "draft": "draft: true", "internal": "audience: internal"}[how]
        root = tmp_path / f"j{how}"
        _write(root, {"_config.yml": (f"defaults:\n  - scope: {{path: ''}}\n    values: {{audience: public}}\n"
                                      f"  - scope: {{path: '{folder}'}}\n    values: {{{value}}}\n"),
                      relpath: f"---\ntitle: T\n---\n{body}"})
        wiki = WikiSettings(root=root, layout="jekyll")
    doc = load_document(wiki, relpath)
    assert isinstance(doc, Skipped) or doc.meta.draft or doc.meta.audience == "internal"
    # Not vacuous: a page beside the folder is public (no name of the generator is a
    # prefix of an upper-case name, so Jekyll's prefix scopes do not reach it).
    _write(root, {"Sibling.md": f"---\ntitle: T\n---\n{body}" if how not in ("exclude", "noindex") else body})
    sibling = load_document(wiki, "Sibling.md")
    assert isinstance(sibling, WikiDocument) and not sibling.meta.draft
    assert sibling.meta.audience == ("public" if how != "exclude" else "internal")


def test_jekyll_without_a_config_file_still_applies_its_naming_rule(tmp_path: Path) -> None:
    root = tmp_path / "bare"
    _write(root, {"a.md": _page(), "_b.md": _page(), "node_modules_x/c.md": _page(), "Gemfile.md": _page()})
    wiki = WikiSettings(root=root, layout="jekyll")
    assert isinstance(load_document(wiki, "a.md"), WikiDocument)
    assert isinstance(load_document(wiki, "_b.md"), Skipped)
    # Jekyll's default excludes are prefixes: "Gemfile" also excludes "Gemfile.md".
    assert "default exclude: Gemfile" in str(load_document(wiki, "Gemfile.md"))


def test_a_fifo_in_place_of_a_configuration_file_fails_closed_without_hanging(tmp_path: Path) -> None:
    import os

    root = tmp_path / "fifo"
    _write(root, {"docs/a.md": _page()})
    os.mkfifo(root / "mkdocs.yml")
    policy = load_site_policy(root, "mkdocs")
    assert policy.findings and "not a regular file" in policy.findings[0].message


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(folders=st.lists(_NAME, max_size=3), name=_NAME, marker=st.sampled_from(["draft", "internal", "wip"]),
       mount_exclude=st.booleans())
def test_hugo_ignore_files_and_mount_excludes_cover_every_depth(
    tmp_path: Path, folders: list[str], name: str, marker: str, mount_exclude: bool
) -> None:
    """The class: an ignoreFiles regex (or a mount's excludeFiles glob) matching a name
    excludes it at any depth; a name it does not match stays."""
    site = tmp_path / f"h{marker}{int(mount_exclude)}"
    config = (f'[[module.mounts]]\nsource = "content"\ntarget = "content"\nexcludeFiles = ["**/*.{marker}.md"]\n'
              if mount_exclude else f'ignoreFiles = ["\\\\.{marker}\\\\.md$"]\n')
    _write(site, {"hugo.toml": config})
    policy = load_site_policy(site / "content", "hugo")
    where = "/".join([*folders, ""])
    assert policy.excluded_reason(f"{where}{name}.{marker}.md") is not None
    assert policy.excluded_reason(f"{where}{name}.md") is None


@pytest.mark.parametrize("meta_file", ["**/_meta.yml", "_meta.yml", "**/.pages.yml"])
def test_x2_the_meta_plugins_own_file_name_is_read(tmp_path: Path, meta_file: str) -> None:
    """X2: Material's meta plugin reads the file its ``meta_file`` option names; a folder
    made internal there stays out of the public index."""
    name = meta_file.rpartition("/")[2]
    site = tmp_path / "site"
    _write(site, {
        "mkdocs.yml": f"site_name: x\nplugins:\n  - meta:\n      meta_file: '{meta_file}'\n",
        f"docs/{name}": "audience: public\n",
        f"docs/team/{name}": "audience: internal\n",
        "docs/team/a.md": _page(None),
        "docs/index.md": _page(None),
    })
    wiki = WikiSettings(root=site, layout="mkdocs")
    assert _public_ids(wiki, tmp_path / "index") == {"docs"}


@pytest.mark.parametrize("plugin", ["  - meta:\n      meta_file: '**/meta/*.yml'\n",
                                    "  - material/meta:\n      meta_file: 3\n",
                                    "  - meta:\n      some_future_option: true\n"])
def test_x5_a_meta_plugin_setting_we_cannot_follow_fails_closed(tmp_path: Path, plugin: str) -> None:
    """X5: a meta plugin option that decides which files hold metadata, and that the
    provider cannot follow, makes every page internal and is a finding (check exits 1)."""
    site = tmp_path / "site"
    _write(site, {"mkdocs.yml": "site_name: x\nplugins:\n" + plugin, "docs/index.md": _page()})
    wiki = WikiSettings(root=site, layout="mkdocs")
    assert _public_ids(wiki, tmp_path / "index") == set()
    report = check_wiki(wiki)
    assert report.exit_code == 1 and "meta plugin" in report.site.findings[0].message


# --- Issue 24, round 35: settings read with each tool's own semantics -----------------

_SITES = itertools.count()
_SEGMENT = st.text(string.ascii_lowercase + string.digits + "-", min_size=1, max_size=6)


def _policy(tmp_path: Path, tool: str, files: dict[str, str]):  # type: ignore[no-untyped-def]
    root = tmp_path / f"s{next(_SITES)}"
    _write(root, files)
    return load_site_policy(root, tool)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(_SEGMENT, min_size=1, max_size=3, unique=True), slash=st.sampled_from(["", "/", "//"]),
       spaces=st.sampled_from(["", " ", "  "]), form=st.sampled_from(["string", "list"]))
def test_x2_jekyll_exclude_as_a_string_or_with_a_leading_slash_is_read_as_jekyll_does(
        tmp_path: Path, names: list[str], slash: str, spaces: str, form: str) -> None:
    """X2: Jekyll splits a string ``exclude`` on commas (``csv_to_array``) and joins each
    pattern to the source folder, so ``"a, b"`` and ``[/a]`` exclude ``a`` and ``b``; a
    look-alike beside them (``a.x/``) stays a page."""
    # Jekyll's own string prefix: a name that begins "index.md" or "zz…" excludes it too.
    assume(not any("index.md".startswith(name) or name.startswith("z") for name in names))
    patterns = [slash + name for name in names]
    value = json.dumps(f",{spaces}".join(patterns)) if form == "string" else json.dumps(patterns)
    files = {"_config.yml": f"exclude: {value}\n", "index.md": _page()}
    files |= {f"{name}/a.md": _page() for name in names} | {f"{name}.md": _page() for name in names}
    files |= {f"zz{name}/a.md": _page() for name in names}
    policy = _policy(tmp_path, "jekyll", files)
    assert not policy.findings
    for name in names:
        assert policy.excluded_reason(f"{name}/a.md")
        assert policy.excluded_reason(f"{name}.md")  # Jekyll's own string prefix: "a" covers "a.md"
        assert policy.excluded_reason(f"zz{name}/a.md") is None
    assert policy.excluded_reason("index.md") is None


@pytest.mark.parametrize("value", ["3", "{a: b}", "true", "[[a]]"])
def test_x5_jekyll_exclude_of_another_type_fails_closed(tmp_path: Path, value: str) -> None:
    policy = _policy(tmp_path, "jekyll", {"_config.yml": f"exclude: {value}\n", "index.md": _page()})
    assert policy.findings and "exclude" in policy.findings[0].message


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(folder=_SEGMENT, tail=st.sampled_from([".md", "x/a.md", "-old/a.md", "s.md", "-tools.md"]),
       below=st.sampled_from(["a.md", "b/c.md"]),
       withhold=st.sampled_from(["{audience: internal}", "{published: false}", "{sitemap: false}",
                                 "{audience: staff}", "{robots: noindex}"]))
def test_x2_jekyll_withholding_defaults_scope_is_a_prefix(tmp_path: Path, folder: str, tail: str, below: str,
                                                          withhold: str) -> None:
    """Issue 24: Jekyll 4's ``FrontmatterDefaults#path_is_subpath?`` is a string prefix
    (``guides/internal`` selects ``guides/internal-tools.md``), Jekyll 3 compares whole
    segments: a scope whose values withhold selects by prefix, the stricter of the two,
    so a look-alike of the folder is withheld under either version."""
    policy = _policy(tmp_path, "jekyll", {"_config.yml": (
        "defaults:\n  - scope: {path: ''}\n    values: {audience: public}\n"
        f"  - scope: {{path: '{folder}'}}\n    values: {withhold}\n")})
    key, _, said = withhold.strip("{}").partition(": ")
    for path in (f"{folder}/{below}", folder, f"{folder}{tail}"):
        assert str(policy.defaults_for(path)[0].get(key)).lower() == said, path
    assert str(policy.defaults_for(f"Q/{folder}{tail}")[0].get(key)).lower() != said


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(folder=_SEGMENT, tail=st.sampled_from([".md", "x/a.md", "-old/a.md", "s.md"]),
       below=st.sampled_from(["a.md", "b/c.md"]))
def test_x2_jekyll_publishing_defaults_scope_path_matches_by_segments(tmp_path: Path, folder: str, tail: str,
                                                                      below: str) -> None:
    """Jekyll 3 (GitHub Pages) compares scope paths segment by segment: a scope whose
    values only publish (``audience: public``) selects ``a`` and ``a/…``, not ``a.md``
    or ``ax/``, so a look-alike stays as the site default says (internal)."""
    policy = _policy(tmp_path, "jekyll", {"_config.yml": (
        "defaults:\n  - scope: {path: ''}\n    values: {audience: internal}\n"
        f"  - scope: {{path: '{folder}'}}\n    values: {{audience: public}}\n")})
    assert policy.defaults_for(f"{folder}/{below}")[0]["audience"] == "public"
    assert policy.defaults_for(folder)[0]["audience"] == "public"
    assert policy.defaults_for(f"{folder}{tail}")[0]["audience"] == "internal"


_JS_UNREADABLE = [
    'const opts = require("./o.json"); module.exports = { presets: [["classic", { docs: opts }]] };',
    'module.exports = { presets: [["classic", { docs: require("./o.json") }]] };',
    'const ex = "exclude"; module.exports = { presets: [["classic", { docs: { [ex]: ["**/s/**"] } }]] };',
    'module.exports = { presets: [["classic", { docs: { "ex\\u0063lude": ["**/s/**"] } }]] };',
    'module.exports = { presets: [["classic", { docs: { ex\\u0063lude: ["**/s/**"] } }]] };',
    'module.exports = { presets: [["classic", { docs: { ...opts } }]] };',
    'module.exports = { presets: [["classic", { ...base, blog: false }]] };',
    'module.exports = { presets: [["@docusaurus/preset-classic", opts]] };',
    'module.exports = { presets: [["classic", { docs }]] };',
    'module.exports = { plugins: [["@docusaurus/plugin-content-docs", makeOptions()]] };',
    'module.exports = { plugins: [[require.resolve("@docusaurus/plugin-content-blog"), { ...o }]] };',
    'module.exports = { presets: require("./presets.js") };',
    'module.exports = { presets: [makeClassicPreset()] };',
    'module.exports = { presets: [...shared] };',
    'module.exports = { presets: [["classic", { "do\u0063s": opts }]] };',
]


@pytest.mark.parametrize("config", _JS_UNREADABLE)
def test_x5_docusaurus_options_we_cannot_read_fail_closed(tmp_path: Path, config: str) -> None:
    """X5: docs/preset options that are not a literal object read in full (an identifier,
    a require, a spread, a computed or escaped key) are a finding the sitemap settles:
    every page internal until then, as for an ``exclude`` the provider does not run."""
    site = tmp_path / "site"
    _write(site, {"docusaurus.config.js": config, "docs/s/secret.md": _page(), "docs/intro.md": _page()})
    policy = load_site_policy(site, "docusaurus")
    assert policy.findings and all(f.sitemap_settles for f in policy.findings)
    wiki = WikiSettings(root=site, layout="docusaurus")
    assert _public_ids(wiki, tmp_path / "index") == set()
    assert check_wiki(wiki).exit_code == 1


@pytest.mark.parametrize("config", [
    'module.exports = { presets: [["classic", ({ docs: { path: "docs", sidebarPath: require.resolve("./s.js") },'
    ' blog: false, theme: { customCss: [require.resolve("./c.css")] } })]],'
    ' scripts: [...(process.env.X ? [{ src: "x" }] : [])],'
    ' themeConfig: { docs: sidebarOptions, docsPluginId: "classic", navbar: { items: [...items] } } };',
    'export default { presets: [[require.resolve("@docusaurus/preset-classic"), { docs: { routeBasePath: "/" } }]] };',
    'export default { presets: [["classic", { docs: { remarkPlugins: [[math, { ...mathOptions }]], path: "d" } }]],'
    ' plugins: [["content-docs", { id: "api", path: "api" }]] };',
])
def test_docusaurus_literal_options_and_spreads_elsewhere_stay_readable(tmp_path: Path, config: str) -> None:
    """The balance: a spread or identifier outside the content options (scripts,
    themeConfig) changes no page, so the site is read as usual."""
    policy = _policy(tmp_path, "docusaurus", {"docusaurus.config.js": config, "docs/intro.md": _page()})
    assert policy.findings == ()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(folder=_SEGMENT, name=_SEGMENT, how=st.sampled_from(["glob-list", "glob-str", "regex"]),
       material=st.booleans())
def test_x2_mkdocs_exclude_plugin_globs_are_applied(tmp_path: Path, folder: str, name: str, how: str,
                                                    material: bool) -> None:
    """X2: the mkdocs-exclude plugin's ``glob`` (fnmatch, ``*`` crosses ``/``) and ``regex``
    (``re.match``) drop pages; a look-alike folder beside it stays a page."""
    options = {"glob-list": f"glob: ['{folder}/*']", "glob-str": f"glob: '{folder}/*'",
               "regex": f"regex: ['{folder}/.*']"}[how]
    policy = _policy(tmp_path, "mkdocs", {"mkdocs.yml": f"site_name: x\nplugins:\n  - search\n  - exclude:\n"
                                                        f"      {options}\n"})
    assert not policy.findings
    assert policy.excluded_reason(f"docs/{folder}/{name}.md")
    assert policy.excluded_reason(f"docs/{folder}/{name}/deep.md")
    assert policy.excluded_reason(f"docs/x{folder}/{name}.md") is None
    assert policy.excluded_reason(f"docs/{name}.md") is None or name == folder


@pytest.mark.parametrize("plugin", ["  - exclude-search:\n      exclude: ['private/*']\n",
                                    "  - awesome-pages\n", "  - mkdocs-simple-hooks:\n      hooks: {}\n",
                                    "  - blog:\n      draft_if_future_date: true\n",
                                    "  - material/blog:\n      draft_on_serve: true\n",
                                    "  - some-future-plugin\n", "  - exclude:\n      glob: 3\n",
                                    "  - exclude:\n      regex: ['(']\n", "  - exclude:\n      other: x\n"])
def test_x5_an_mkdocs_plugin_that_may_drop_pages_we_do_not_read_fails_closed(tmp_path: Path, plugin: str) -> None:
    """X5: a plugin known to drop or hide pages (or unknown) whose choice is not read is a
    finding naming it and recommending the sitemap; every page is internal until then."""
    site = tmp_path / "site"
    _write(site, {"mkdocs.yml": "site_name: x\nplugins:\n" + plugin, "docs/index.md": _page(),
                  "docs/private/a.md": _page()})
    wiki = WikiSettings(root=site, layout="mkdocs")
    assert _public_ids(wiki, tmp_path / "index") == set()
    report = check_wiki(wiki)
    assert report.exit_code == 1 and "sitemap" in report.site.findings[0].message
    assert plugin.split(":")[0].strip(" -\n") in report.site.findings[0].message


@pytest.mark.parametrize("plugins", ["[search, tags, blog, material/social]",
                                     "{search: {}, git-revision-date-localized: {enabled: true}}",
                                     "[{exclude-search: {enabled: false}}]"])
def test_mkdocs_plugins_that_drop_no_page_change_nothing(tmp_path: Path, plugins: str) -> None:
    policy = _policy(tmp_path, "mkdocs", {"mkdocs.yml": f"site_name: x\nplugins: {plugins}\n"})
    assert policy.findings == () and policy.excluded_reason("docs/index.md") is None


def test_mkdocs_exclude_docs_folder_pattern_follows_pathspec_as_mkdocs_does(tmp_path: Path) -> None:
    """MkDocs matches ``exclude_docs`` with ``pathspec.GitIgnoreSpec``; with it ``private/**/``
    also covers files directly in ``private/`` (pathspec appends ``**`` to a trailing
    ``/``), so the provider, reading what MkDocs publishes, does the same. A look-alike
    ``privatex/`` stays a page."""
    policy = _policy(tmp_path, "mkdocs", {"mkdocs.yml": "site_name: x\nexclude_docs: 'private/**/'\n"})
    assert policy.excluded_reason("docs/private/sub/a.md")
    assert policy.excluded_reason("docs/private/a.md")
    assert policy.excluded_reason("docs/privatex/a.md") is None


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(folder=_SEGMENT, lead=st.sampled_from(["", "./", "/", "././"]),
       comment=st.sampled_from(["", "// files\n", "/* a // b */\n"]))
def test_x2_docfx_comments_and_dot_slash_globs_are_read_as_docfx_does(tmp_path: Path, folder: str, lead: str,
                                                                      comment: str) -> None:
    """DocFX reads docfx.json with Newtonsoft.Json (comments allowed) and ``./x/**`` is
    ``x/**``: the excluded folder is not built, the rest is (no finding)."""
    config = ('{\n' + comment + '"build": {"content": [{"files": ["**/*.md"], ' + comment +
              f'"exclude": ["{lead}{folder}/**"]}}]}}}}\n')
    policy = _policy(tmp_path, "docfx", {"docfx.json": config, "index.md": _page()})
    assert policy.findings == ()
    assert policy.excluded_reason(f"{folder}/a.md")
    assert policy.excluded_reason(f"x{folder}/a.md") is None
    assert policy.excluded_reason("index.md") is None


def test_x5_docfx_json_with_a_key_twice_fails_closed(tmp_path: Path) -> None:
    config = '{"build": {"content": [{"files": ["**/*.md"], "exclude": ["private/**"], "exclude": []}]}}'
    policy = _policy(tmp_path, "docfx", {"docfx.json": config, "private/a.md": _page()})
    assert policy.findings and "twice" in policy.findings[0].message


@pytest.mark.parametrize("pattern", ["./ops3", "./ops3/", "ops3/./", "./*"])
def test_x2_jekyll_exclude_with_a_dot_segment_matches_nothing_as_in_jekyll(tmp_path: Path, pattern: str) -> None:
    """X2 (issue 24, the attack's ``exclude: ./ops3``): Jekyll's ``EntryFilter#glob_include?``
    joins the pattern to the source folder with ``File.join``, which keeps ``./`` as
    written, then compares with ``File.fnmatch`` and ``start_with?`` against entries that
    never hold a ``.`` segment: the pattern excludes nothing and the site publishes
    ``ops3/``. The provider serves what the site publishes; ``ops3`` alone excludes it."""
    files = {"_config.yml": f"exclude: ['{pattern}']\n", "index.md": _page(), "ops3/a.md": _page()}
    policy = _policy(tmp_path, "jekyll", files)
    assert not policy.findings
    assert policy.excluded_reason("ops3/a.md") is None
    assert _policy(tmp_path, "jekyll", {**files, "_config.yml": "exclude: [ops3]\n"}).excluded_reason("ops3/a.md")
