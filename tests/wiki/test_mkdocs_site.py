"""provider.wiki.mkdocs_site: an MkDocs project's URLs as the site makes them (CONTRACT
R7): ``docs_dir`` never in a URL, ``use_directory_urls``, the i18n plugin's language
prefix, per-language projects with ``INHERIT``, and the real openai-agents-docs corpus."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from provider.wiki.citations import CitationSettings, document_url, url_inputs
from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.mkdocs_site import project_for
from tests.support import REPO_ROOT

BASE = "https://docs.example.org"
# The shared corpora beside the checkout (or where $SHARED_CORPORA says, for a worktree elsewhere).
CORPUS = Path(os.environ.get("SHARED_CORPORA", REPO_ROOT.parent / "shared" / "corpora")) / "openai-agents-docs"


def _url(root: Path, relpath: str, locales: tuple[str, ...] = ("en", "ja")) -> str | None:
    settings = WikiSettings(root=root, layout="mkdocs", locales=locales, citation=CitationSettings(base_url=BASE))
    path = root / relpath
    data = path.read_bytes() if path.exists() else b"Text.\n"
    document = parse_document(settings, relpath, data, size=len(data), mtime_ns=0)
    assert isinstance(document, WikiDocument), document
    url, warning = document_url(url_inputs(document.meta, settings), public=True, settings=settings.citation,
                                agent_view=True)
    assert warning is None
    return url


def _write(root: Path, relpath: str, text: str = "Text.\n") -> None:
    (root / relpath).parent.mkdir(parents=True, exist_ok=True)
    (root / relpath).write_text(text, "utf-8")


@pytest.mark.parametrize(("config", "relpath", "expected"), [
    ("site_name: x\n", "docs/guide/setup.md", "/guide/setup/"),
    ("site_name: x\n", "docs/index.md", "/"),
    ("site_name: x\n", "docs/guide/index.md", "/guide/"),
    ("site_name: x\n", "docs/ja/guide/setup.md", "/ja/guide/setup/"),  # i18n folder structure
    ("site_name: x\n", "docs/guide/setup.ja.md", "/ja/guide/setup/"),  # i18n suffix structure
    ("docs_dir: content\n", "content/guide/setup.md", "/guide/setup/"),
    ("docs_dir: content\n", "content/docs/setup.md", "/docs/setup/"),  # a folder called docs stays
    ("use_directory_urls: false\n", "docs/guide/setup.md", "/guide/setup.html"),
    ("use_directory_urls: false\n", "docs/guide/index.md", "/guide/index.html"),
    ("use_directory_urls: false\n", "docs/index.md", "/index.html"),
    ("site_name: !ENV [SITE, x]\nmarkdown_extensions:\n  - pymdownx.superfences:\n      custom_fences:\n"
     "        - format: !!python/name:pymdownx.superfences.fence_code_format\n", "docs/a.md", "/a/"),
])
def test_urls_follow_mkdocs_yml_with_content_at_the_repository_root(
        tmp_path: Path, config: str, relpath: str, expected: str) -> None:
    _write(tmp_path, "mkdocs.yml", config)
    _write(tmp_path, relpath)
    assert _url(tmp_path, relpath) == BASE + expected


def test_content_at_the_docs_folder_reads_the_parent_mkdocs_yml(tmp_path: Path) -> None:
    _write(tmp_path, "mkdocs.yml", "docs_dir: docs\nuse_directory_urls: false\n")
    _write(tmp_path, "docs/guide/setup.md")
    assert _url(tmp_path / "docs", "guide/setup.md") == BASE + "/guide/setup.html"


def test_one_project_per_language_with_inherit(tmp_path: Path) -> None:
    """FastAPI's layout: docs/<lang>/mkdocs.yml (INHERIT: ../en/mkdocs.yml), pages in
    docs/<lang>/docs/; each language site under /<lang>/, English at the root."""
    _write(tmp_path, "docs/en/mkdocs.yml", "site_name: FastAPI\nuse_directory_urls: true\n")
    _write(tmp_path, "docs/es/mkdocs.yml", "INHERIT: ../en/mkdocs.yml\n")
    _write(tmp_path, "docs/en/docs/tutorial/body.md")
    _write(tmp_path, "docs/es/docs/tutorial/body.md")
    assert _url(tmp_path, "docs/en/docs/tutorial/body.md", ("en", "es")) == BASE + "/tutorial/body/"
    assert _url(tmp_path, "docs/es/docs/tutorial/body.md", ("en", "es")) == BASE + "/es/tutorial/body/"
    project = project_for(tmp_path, "docs/es/docs/tutorial/body.md")
    assert project is not None and project.docs_dir == "docs/es/docs" and project.config == "docs/es/mkdocs.yml"


def test_an_unreadable_mkdocs_yml_keeps_the_layout_defaults(tmp_path: Path) -> None:
    _write(tmp_path, "mkdocs.yml", "site_name: [unclosed\n")
    _write(tmp_path, "docs/guide/setup.md")
    project = project_for(tmp_path, "docs/guide/setup.md")
    assert project is not None and project.error is not None and "mkdocs.yml cannot be read" in project.error
    assert _url(tmp_path, "docs/guide/setup.md") == BASE + "/guide/setup/"


def test_no_mkdocs_yml_removes_docs_as_before(tmp_path: Path) -> None:
    _write(tmp_path, "docs/guide/setup.md")
    assert project_for(tmp_path, "docs/guide/setup.md") is None
    assert _url(tmp_path, "docs/guide/setup.md") == BASE + "/guide/setup/"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpora are not beside this checkout")
@pytest.mark.parametrize(("relpath", "expected"), [
    ("docs/index.md", "/"),
    ("docs/ja/index.md", "/ja/"),
    ("docs/sandbox/guide.md", "/sandbox/guide/"),
    ("docs/ko/models/index.md", "/ko/models/"),
    ("docs/zh/realtime/quickstart.md", "/zh/realtime/quickstart/"),
])
def test_openai_agents_docs_urls(relpath: str, expected: str) -> None:
    assert _url(CORPUS, relpath, ("en", "ja", "ko", "zh")) == BASE + expected


def test_fastapi_style_mapping_extensions_and_missing_inherit_parent(tmp_path: Path) -> None:
    """FastAPI's docs/en/mkdocs.yml: INHERIT of a file the checkout may lack, and
    markdown_extensions as a mapping (``toc: {permalink: true}``)."""
    _write(tmp_path, "docs/en/mkdocs.yml",
           "INHERIT: ../en/mkdocs.maybe-insiders.yml\nsite_name: FastAPI\nmarkdown_extensions:\n"
           "  toc:\n    permalink: true\n    separator: _\n  admonition: null\n")
    project = project_for(tmp_path, "docs/en/docs/tutorial/body.md")
    assert project is not None and project.error is None
    assert project.docs_dir == "docs/en/docs" and project.slug_separator == "_"


FASTAPI_PAGES = [
    "# Path Parameters\n\nYou declare them:\n\n{* ../../docs_src/path_params/tutorial001.py hl[6:7] *}\n\nText.\n",
    "{!../../docs/missing-translation.md!}\n\n# Parámetros de path\n\nTexto.\n",
    "# Body\n\n```Python hl_lines=\"2\"\n{!> ../../../docs_src/body/tutorial001.py!}\n```\n\nText.\n",
]


@pytest.mark.parametrize("page", FASTAPI_PAGES)
def test_include_lines_are_not_taken_for_broken_front_matter(tmp_path: Path, page: str) -> None:
    """Issue 24: FastAPI's ``{* … *}`` / ``{!…!}`` lines in the first lines withheld 31 %
    of its pages as 'front matter must start on the very first line'. In the mkdocs
    layout they are the tool's include directives: the page is read (and the line is no
    text, R3)."""
    settings = WikiSettings(root=tmp_path, layout="mkdocs", locales=("en", "es"))
    data = page.encode("utf-8")
    document = parse_document(settings, "docs/en/docs/tutorial/page.md", data, size=len(data), mtime_ns=0)
    assert isinstance(document, WikiDocument)
    assert not document.meta.draft and not document.meta.errors, document.meta.errors
    assert all("{" not in p.text for p in document.passages)


@pytest.mark.parametrize("layout", ["mkdocs", "hugo", "plain"])
def test_an_audience_line_after_an_include_still_fails_closed(tmp_path: Path, layout: str) -> None:
    """X5: the exemption is for the include line only; an audience key after it is
    still a misplaced header, in every layout."""
    settings = WikiSettings(root=tmp_path, layout=layout)
    data = b"# Notes\n\n{* ../x.py *}\naudience: internal\n\nText.\n"
    document = parse_document(settings, "docs/page.md", data, size=len(data), mtime_ns=0)
    assert isinstance(document, WikiDocument)
    assert document.meta.audience != "public" or document.meta.draft


def test_include_lines_are_not_front_matter_outside_mkdocs_either(tmp_path: Path) -> None:
    """Hugo reads a ``{`` first line as JSON front matter, but ``{*`` cannot open a JSON
    object (provider.wiki.frontmatter._OBJECT_START): not taken for a broken header
    in any layout, so the page is not quarantined for it."""
    settings = WikiSettings(root=tmp_path, layout="hugo")
    data = FASTAPI_PAGES[1].encode("utf-8")
    document = parse_document(settings, "content/page.md", data, size=len(data), mtime_ns=0)
    assert isinstance(document, WikiDocument) and not document.meta.errors


@pytest.mark.parametrize("nav", ["", "nav:\n  - sessions.md\n", "nav:\n  - sessions/index.md\n"])
@pytest.mark.parametrize("flat_audience", ["public", "internal"])
def test_a_page_beside_its_folder_index_is_overwritten_by_it_as_mkdocs_does(
        tmp_path: Path, nav: str, flat_audience: str) -> None:
    """``docs/sessions.md`` and ``docs/sessions/index.md`` are both built to
    ``sessions/index.html``; MkDocs writes a folder's files before its subfolders', so the
    subfolder's index is the page the site shows, whatever ``nav`` names (measured with
    MkDocs 1.6.1 on this very layout). That one is served by its own rules; the other is
    not on the site: withheld, never served — nothing is quarantined."""
    import datetime as dt

    from provider.wiki.check import check_wiki
    from provider.wiki.classify import AudienceRule

    _write(tmp_path, "mkdocs.yml", "site_name: x\n" + nav)
    _write(tmp_path, "docs/sessions.md", f"---\naudience: {flat_audience}\n---\n# Flat\n\nThe flat page.\n")
    _write(tmp_path, "docs/sessions/index.md", "# Folder\n\nThe folder page says other things.\n")
    settings = WikiSettings(root=tmp_path, layout="mkdocs", citation=CitationSettings(base_url=BASE),
                            audience_rules=(AudienceRule("docs/**", "public"),))
    report = check_wiki(settings, now=dt.datetime(2026, 9, 1, tzinfo=dt.UTC))
    by_path = {entry.path: entry.resolved for entry in report.files}
    folder, flat = by_path["docs/sessions/index.md"], by_path["docs/sessions.md"]
    assert folder is not None and folder.served and folder.audience == "public" and not folder.quarantined
    assert flat is not None and not flat.served and "MkDocs builds docs/sessions/index.md" in (flat.withheld or "")
