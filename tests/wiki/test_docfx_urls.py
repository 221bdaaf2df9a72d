"""DocFX / Microsoft Learn citation URLs from each docset's own ``docfx.json`` (issue 24).

CONTRACT R7 (a citation URL is the page's URL on the site) and X2 (with a sitemap, a page
is public only if that URL is on the site): ``build.content`` ``src``/``dest`` mappings,
several docsets under operator-named base paths, Learn's lower case, ``index`` pages,
``toc.md`` and redirected files (not pages), and no guessed URL where the base path of a
docset is not known.
"""

from __future__ import annotations

import json
import os
import random
import re
import unicodedata
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpthread_kit.registrations import ConfigurationError
from provider.cli import format_check
from provider.config import config_from_mapping
from provider.wiki.check import check_wiki
from provider.wiki.citations import CitationSettings, document_url, url_inputs
from provider.wiki.corpus import resolve
from provider.wiki.docfx_urls import docfx_site
from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.site_gate import NO_URL, SiteGate
from provider.wiki.sitemap import Sitemap, site_key
from provider.wiki.sites import load_site_policy
from tests.support import write_files

LEARN = "https://learn.microsoft.com/en-us"
PAGE = "---\ntitle: T\naudience: ITPro\n---\n# T\n\nWords about the product.\n"


def _entry(src: str, dest: str = ".") -> dict[str, object]:
    return {"files": ["**/*.md", "**/**.yml"], "src": src, "dest": dest,
            "exclude": ["**/obj/**", "**/includes/**", "README.md"]}


def _docfx(*entries: dict[str, object], crumb: str | None = None) -> str:
    build: dict[str, object] = {"content": list(entries)}
    if crumb:
        build["globalMetadata"] = {"breadcrumb_path": crumb}
    return json.dumps({"build": build})




def _settings(root: Path, base_paths: dict[str, str] | None = None, base: str = LEARN, **more: object) -> WikiSettings:
    return WikiSettings(root=root, layout="docfx", audience_map=config_from_mapping(
        {"audience_values": {"ITPro": "public"}}, base=root).wiki_settings().audience_map,
        citation=CitationSettings(base_url=base, docfx_base_paths=tuple((base_paths or {}).items())),
        **more)  # type: ignore[arg-type]


def _doc(settings: WikiSettings, relpath: str) -> WikiDocument:
    data = (settings.root / relpath).read_bytes()
    result = parse_document(settings, relpath, data, size=len(data), mtime_ns=0)
    assert isinstance(result, WikiDocument), result
    return result


def _url(settings: WikiSettings, relpath: str) -> str | None:
    meta = _doc(settings, relpath).meta
    return document_url(url_inputs(meta, settings), public=True, settings=settings.citation, agent_view=True)[0]


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    """Two docsets as in MicrosoftDocs/OfficeDocs-Support: several ``src`` folders each
    published at the docset root (``dest: .``), one ``src`` under a ``dest`` folder."""
    root = tmp_path / "repo"
    write_files(root, {
        "Exchange/docfx.json": _docfx(_entry("ExchangeOnline"), _entry("ExchangeServer"), _entry("Hub"),
                                      crumb="/exchange/troubleshoot/breadcrumb/toc.json"),
        "Exchange/ExchangeOnline/Mail-Flow/Fix-Sync.md": PAGE,
        "Exchange/ExchangeServer/setup/install.md": PAGE,
        "Exchange/Hub/index.md": PAGE,
        "Exchange/ExchangeOnline/mail-flow/index.md": PAGE,
        "Exchange/ExchangeOnline/TOC.md": "# Contents\n\n- [Fix](mail-flow/fix-sync.md)\n",
        "Outlook/docfx.json": _docfx(_entry("Client", "desktop"), crumb="/outlook/troubleshoot/breadcrumb/toc.json"),
        "Outlook/Client/profiles/Reset-Profile.md": PAGE,
    })
    return root


BASES = {"Exchange": "/exchange/troubleshoot", "Outlook": "/outlook/troubleshoot/"}


def test_r7_src_dest_several_docsets_lower_case_and_index(repo: Path) -> None:
    settings = _settings(repo, BASES)
    assert _url(settings, "Exchange/ExchangeOnline/Mail-Flow/Fix-Sync.md") == \
        f"{LEARN}/exchange/troubleshoot/mail-flow/fix-sync"
    assert _url(settings, "Exchange/ExchangeServer/setup/install.md") == f"{LEARN}/exchange/troubleshoot/setup/install"
    # An index page stands for its folder (the docset's own root for the hub).
    assert _url(settings, "Exchange/Hub/index.md") == f"{LEARN}/exchange/troubleshoot/"
    assert _url(settings, "Exchange/ExchangeOnline/mail-flow/index.md") == f"{LEARN}/exchange/troubleshoot/mail-flow/"
    # dest names a folder of the output.
    assert _url(settings, "Outlook/Client/profiles/Reset-Profile.md") == \
        f"{LEARN}/outlook/troubleshoot/desktop/profiles/reset-profile"


def test_toc_files_are_not_pages(repo: Path) -> None:
    policy = load_site_policy(repo, "docfx")
    assert policy.excluded_reason("Exchange/ExchangeOnline/TOC.md") == "a DocFX table of contents (toc.md), not a page"
    assert policy.excluded_reason("Exchange/ExchangeOnline/mail-flow/toc-settings.md") is None


def test_no_base_path_no_guessed_url_and_check_says_why(repo: Path) -> None:
    """Several docsets and no base path for one: its pages get no URL (a guess would decide
    publication against a sitemap), and check names the docset and the breadcrumb hint."""
    settings = _settings(repo, {"Exchange": "/exchange/troubleshoot"})
    assert _url(settings, "Exchange/ExchangeServer/setup/install.md") == f"{LEARN}/exchange/troubleshoot/setup/install"
    assert _url(settings, "Outlook/Client/profiles/Reset-Profile.md") is None
    report = check_wiki(settings)
    assert len(report.url_notes) == 1 and "Outlook/docfx.json" in report.url_notes[0]
    assert "breadcrumb_path suggests /outlook/troubleshoot" in report.url_notes[0]
    assert any("Outlook/docfx.json" in f for f in report.strict_failures())
    assert report.to_json()["urlNotes"] == report.url_notes
    served = {e.path: e.url for e in report.files if e.status == "served"}
    assert served["Outlook/Client/profiles/Reset-Profile.md"] is None
    text = format_check(report, urls=True)
    assert "Citation URL problems (1):\n  Outlook/docfx.json: " in text
    assert "  Outlook/Client/profiles/Reset-Profile.md  (none)" in text
    assert f"  Exchange/ExchangeServer/setup/install.md  {LEARN}/exchange/troubleshoot/setup/install" in text


def test_x2_no_base_path_is_withheld_by_the_sitemap_with_the_reason(repo: Path) -> None:
    settings = _settings(repo, {"Exchange": "/exchange/troubleshoot"})
    metas = {p: _doc(settings, p).meta for p in ("Outlook/Client/profiles/Reset-Profile.md",
                                                  "Exchange/ExchangeServer/setup/install.md")}
    urls = (f"{LEARN}/exchange/troubleshoot/setup/install",
            f"{LEARN}/outlook/troubleshoot/desktop/profiles/reset-profile")
    gate = SiteGate(settings, Sitemap(("t",), {site_key(u): u for u in urls}))
    found = resolve(metas, default_locale="en", gate=gate)
    assert found["Exchange/ExchangeServer/setup/install.md"].public
    outlook = found["Outlook/Client/profiles/Reset-Profile.md"]
    assert not outlook.public and outlook.off_site == NO_URL and "docfx_base_paths" in outlook.audience_source


def test_a_single_docset_is_at_the_root_of_the_base_url(tmp_path: Path) -> None:
    root = tmp_path / "r"
    write_files(root, {"docs/docfx.json": _docfx(_entry("articles", "guide")), "docs/articles/Start.md": PAGE})
    assert _url(_settings(root), "docs/articles/Start.md") == f"{LEARN}/guide/start"
    assert check_wiki(_settings(root)).url_notes == []


def test_plain_docfx_keeps_case_and_html(tmp_path: Path) -> None:
    """A DocFX site that is not Learn: DocFX's own output (case kept, ``.html``)."""
    root = tmp_path / "r"
    write_files(root, {"docfx.json": _docfx(_entry("articles", ".")), "articles/Get-Started.md": PAGE,
                       "articles/api/index.md": PAGE})
    settings = _settings(root, base="https://docs.example.org")
    assert _url(settings, "articles/Get-Started.md") == "https://docs.example.org/Get-Started.html"
    assert _url(settings, "articles/api/index.md") == "https://docs.example.org/api/index.html"
    # The Open Publishing configuration in the repository makes it a Learn docset.
    (root / ".openpublishing.publish.config.json").write_text("{}", "utf-8")
    settings = _settings(root, base="https://docs.example.org/fr-fr")
    assert _url(settings, "articles/Get-Started.md") == "https://docs.example.org/fr-fr/get-started"


def test_redirected_source_files_are_not_pages(repo: Path) -> None:
    write_files(repo, {".openpublishing.redirection.json": json.dumps({"redirections": [
        {"source_path": "Exchange/ExchangeServer/setup/install.md", "redirect_url": "/exchange/troubleshoot/new",
         "redirect_document_id": True},
        {"source_path_from_root": "/Outlook/Client/profiles/Reset-Profile.md", "redirect_url": "/outlook/x"},
    ]})})
    policy = load_site_policy(repo, "docfx")
    assert policy.excluded_reason("Exchange/ExchangeServer/setup/install.md") == (
        "redirected by .openpublishing.redirection.json to /exchange/troubleshoot/new: a redirect, not a page on "
        "the site")
    assert "redirected by" in (policy.excluded_reason("Outlook/Client/profiles/Reset-Profile.md") or "")
    assert policy.excluded_reason("Exchange/Hub/index.md") is None
    report = check_wiki(_settings(repo, BASES))
    status = {e.path: e.status for e in report.files}
    assert status["Exchange/ExchangeServer/setup/install.md"] == "skipped"
    assert status["Exchange/Hub/index.md"] == "served"


def test_a_docset_open_publishing_does_not_build_is_not_published(repo: Path) -> None:
    write_files(repo, {".openpublishing.publish.config.json": json.dumps({"docsets_to_publish": [
        {"docset_name": "Support-Exchange", "build_source_folder": "Exchange"}]})})
    policy = load_site_policy(repo, "docfx")
    assert policy.excluded_reason("Outlook/Client/profiles/Reset-Profile.md") == (
        "its docset Outlook/ is not in .openpublishing.publish.config.json docsets_to_publish: not published")
    assert policy.excluded_reason("Exchange/Hub/index.md") is None
    write_files(repo, {".openpublishing.publish.config.json": "[]"})
    report = check_wiki(_settings(repo, BASES))
    assert report.exit_code == 1 and not any(e.resolved is not None and e.resolved.public for e in report.files)


def test_an_unreadable_redirection_file_fails_closed(repo: Path) -> None:
    write_files(repo, {".openpublishing.redirection.json": "{not json"})
    report = check_wiki(_settings(repo, BASES))
    assert report.exit_code == 1
    assert any(f.source == ".openpublishing.redirection.json" for f in report.site.findings)
    assert not any(e.resolved is not None and e.resolved.public for e in report.files)


_SEGMENT = st.text(st.characters(codec="utf-8", categories=("Ll", "Lu", "Nd"), include_characters="-’ é"),
                   min_size=1, max_size=12).filter(lambda s: s.strip() == s and s not in ("index", "toc"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(folders=st.lists(_SEGMENT, max_size=2), name=_SEGMENT, from_root=st.booleans(), nfd=st.booleans())
def test_x2_a_redirected_file_is_never_served_whatever_its_name(
    tmp_path_factory: pytest.TempPathFactory, folders: list[str], name: str, from_root: bool, nfd: bool
) -> None:
    """The class: any file a redirection names (``source_path`` or the ``/``-rooted
    ``source_path_from_root``, the name written in NFC and stored in NFD) is not served."""
    root = tmp_path_factory.mktemp("r")
    relpath = "/".join(["Exchange", "ExchangeOnline", *folders, f"{name}.md"])
    on_disk = unicodedata.normalize("NFD", relpath) if nfd else relpath
    key = "source_path_from_root" if from_root else "source_path"
    write_files(root, {"Exchange/docfx.json": _docfx(_entry("ExchangeOnline")), on_disk: PAGE,
                       ".openpublishing.redirection.json": json.dumps({"redirections": [
                           {key: ("/" if from_root else "") + unicodedata.normalize("NFC", relpath),
                            "redirect_url": "/elsewhere"}]})})
    report = check_wiki(_settings(root))
    assert [e.status for e in report.files] == ["skipped"]


def test_x2_learn_sitemap_urls_let_real_pages_through(repo: Path, tmp_path: Path) -> None:
    """A small sitemap written as Learn writes one (lower case, ``/en-us/``, hreflang
    alternates): every page of the repository is on it and public; none is withheld as
    "not on the site"."""
    sitemap = tmp_path / "sitemap.xml"
    urls = ["exchange/troubleshoot/mail-flow/fix-sync", "exchange/troubleshoot/setup/install",
            "exchange/troubleshoot/", "exchange/troubleshoot/mail-flow/",
            "outlook/troubleshoot/desktop/profiles/reset-profile"]
    body = "".join(
        f"<url><loc>https://learn.microsoft.com/en-us/{u}</loc><lastmod>2024-10-24</lastmod>"
        f'<xhtml:link rel="alternate" hreflang="de-de" href="https://learn.microsoft.com/de-de/{u}"/></url>'
        for u in urls)
    sitemap.write_text('<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/'
                       'sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">' + body + "</urlset>", "utf-8")
    settings = _settings(repo, BASES, sitemap=(str(sitemap),))
    report = check_wiki(settings)
    served = [e for e in report.files if e.status == "served"]
    assert len(served) == 5 and all(e.resolved is not None and e.resolved.public for e in served)
    # The German alternates have no <loc>: not published, so no site URL lacks a document.
    assert report.site_only == []
    assert report.sitemap is not None and report.sitemap["urls"] == 5


def test_config_docfx_base_paths() -> None:
    config = config_from_mapping({"layout": "docfx", "docfx_base_paths": {"Exchange/": "/exchange/troubleshoot/"}},
                                 base=Path("/nonexistent"))
    assert config.wiki_settings().citation.docfx_base_paths == (("Exchange", "exchange/troubleshoot"),)
    for bad in ({"Exchange": "/a b"}, {"Exchange": 3}, [], {"Exchange": "/../x"}):
        with pytest.raises(ConfigurationError, match="docfx_base_paths"):
            config_from_mapping({"docfx_base_paths": bad}, base=Path("/nonexistent"))


def test_a_base_path_naming_no_docset_is_reported(repo: Path) -> None:
    notes = docfx_site(repo, (*BASES.items(), ("Exchnage", "/x"))).notes()
    assert notes == ["docfx_base_paths names 'Exchnage', which is no docset folder (no Exchnage/docfx.json); "
                     "it is not used"]


# --------------------------------------------------------------------------- the real corpus

CORPUS = Path(os.environ.get("KP_CORPORA") or Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora") \
    / "ms-officedocs-support"
#: The docset base paths the corpus' own links use (``/exchange/troubleshoot/…``), which
#: are also what each docfx.json's ``breadcrumb_path`` names.
CORPUS_BASES = {"Exchange": "/exchange/troubleshoot", "Microsoft365": "/microsoft-365/troubleshoot",
                "Office": "/office/troubleshoot", "Outlook": "/outlook/troubleshoot",
                "SharePoint": "/sharepoint/troubleshoot", "SkypeforBusiness": "/skypeforbusiness/troubleshoot",
                "Teams": "/microsoftteams/troubleshoot", "Viva": "/viva/troubleshoot"}


def _corpus_links(root: Path, files: list[str]) -> dict[str, str]:
    """Site links between the corpus' pages whose last segment names exactly one file:
    ``{link path: that file}`` — evidence of a page's URL that does not use our mapping."""
    by_stem: dict[str, list[str]] = defaultdict(list)
    for relpath in files:
        by_stem[Path(relpath).stem.lower()].append(relpath)
    firsts = "|".join(re.escape(base.strip("/").split("/")[0]) for base in CORPUS_BASES.values())
    link = re.compile(r"\]\((?:https://learn\.microsoft\.com)?(?:/en-us)?(/(?:" + firsts
                      + r")/troubleshoot/[^)\s#?\"]+)", re.IGNORECASE)
    found: dict[str, str] = {}
    for relpath in files:
        for match in link.finditer((root / relpath).read_text("utf-8")):
            path = match.group(1).lower().rstrip("/")
            named = by_stem.get(path.rsplit("/", 1)[-1], [])
            if len(named) == 1:
                found[path] = named[0]
    return found


def test_r7_real_corpus_urls_match_the_corpus_own_links() -> None:
    """On MicrosoftDocs/OfficeDocs-Support, the URLs built from docfx.json agree with the
    links its pages make to each other. The 9 of 83 that differ are links to a page's
    older folder (``/exchange/troubleshoot/distribution-groups/cannot-manage-dg`` for
    ``groups-and-distribution-lists/cannot-manage-dg.md``): Learn redirects them, and the
    export holds no redirection file to show it."""
    root = CORPUS.resolve()
    if not root.is_dir():
        pytest.skip("the shared corpora are not next to this checkout")
    site = docfx_site(root, tuple(CORPUS_BASES.items()), LEARN)
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.md")
                   if "/includes/" not in p.as_posix() and p.name != "SOURCE.md")
    links = _corpus_links(root, files)
    matched = sum(1 for path, relpath in links.items() if "/" + (site.url_path(relpath)[0] or "").rstrip("/") == path)
    assert len(links) >= 80 and matched / len(links) >= 0.85, (matched, len(links))
    # A sample of every page: a URL under its docset's base, lower case, no extension.
    for relpath in random.Random(24).sample(files, 200):
        path, problem = site.url_path(relpath)
        assert problem is None and path is not None
        assert path.startswith(CORPUS_BASES[relpath.split("/")[0]].strip("/") + "/")
        assert path == path.lower() and not path.endswith(".md")
        if relpath.split("/")[0] not in ("Teams", "Viva"):  # docsets whose entries have a src folder
            assert relpath.split("/")[1].lower() not in path.split("/")[2:3]  # … which is not in the URL
    assert site.notes() == []


_SEGMENT = st.from_regex(r"[A-Za-z][A-Za-z0-9-]{0,8}", fullmatch=True)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(folders=st.lists(_SEGMENT, max_size=3), name=_SEGMENT, shortcut=st.sampled_from(["**.md", "**/**.md"]))
def test_issue24_docfx_globstar_shortcut_is_every_folder(tmp_path_factory: pytest.TempPathFactory,
                                                         folders: list[str], name: str, shortcut: str) -> None:
    """DocFX reads a segment starting with ``**`` as ``**/`` then ``*`` (``**.md`` is
    ``**/*.md``, GlobMatcher.ExpandGlobStarShortcut): ``"files": ["**.md"]`` at the docset
    root builds every ``.md`` file at any depth, as ``**/*.md`` does, and gives it its URL
    (issue 24; the glob matcher alone read ``**.md`` as ``*.md``, the top folder only, so
    pages below it had no URL and were withheld as not built)."""
    root = tmp_path_factory.mktemp("docfx")
    relpath = "/".join([*folders, f"{name}.md"])
    write_files(root, {"docfx.json": json.dumps({"build": {"content": [{"files": [shortcut]}]}}), relpath: PAGE})
    policy = load_site_policy(root, "docfx")
    assert policy.excluded_reason(relpath) is None
    site = docfx_site(root, (), LEARN)
    expected = relpath[:-3].lower()
    if name.lower() == "index":
        expected = "/".join(folders).lower() + "/" if folders else ""
    assert site.url_path(relpath) == (expected, None)


@pytest.mark.parametrize(("pattern", "path", "matched"), [
    ("**.md", "a/b/c.md", True),
    ("**.md", "c.md", True),
    ("**.md", "a/c.yml", False),
    ("a**.md", "ab.md", True),          # inside a segment ** is one *
    ("a**.md", "a/b.md", False),
    ("docs/**.md", "docs/x/y.md", True),
    ("docs/**.md", "other/y.md", False),
])
def test_issue24_docfx_globstar_shortcut_excludes_too(tmp_path: Path, pattern: str, path: str,
                                                      matched: bool) -> None:
    """The same reading for ``exclude``: ``"exclude": ["private/**.md"]`` withholds the
    pages at any depth below ``private/`` (fail closed)."""
    write_files(tmp_path, {"docfx.json": json.dumps({"build": {"content": [
        {"files": ["**/*.md", "**/*.yml"], "exclude": [pattern]}]}}), path: PAGE})
    policy = load_site_policy(tmp_path, "docfx")
    assert (policy.excluded_reason(path) is not None) is matched


@pytest.mark.parametrize(("files", "path", "built"), [
    (["**/*.md"], ".attachments/x.md", False),   # DocFX's globs skip dot names unless named
    (["**/*.md"], "a/.hidden.md", False),
    (["**.md"], ".git/x.md", False),
    ([".attachments/*.md"], ".attachments/x.md", True),
    (["**/*.md"], "a/x.md", True),
])
def test_issue24_docfx_files_globs_skip_dot_names(tmp_path: Path, files: list[str], path: str, built: bool) -> None:
    """DocFX's default glob options do not let ``*`` or ``**`` match a name starting with
    ``.``: such a file is not built (and gets no URL) unless a pattern names the dot."""
    write_files(tmp_path, {"docfx.json": json.dumps({"build": {"content": [{"files": files}]}}), path: PAGE})
    assert (load_site_policy(tmp_path, "docfx").excluded_reason(path) is None) is built
    assert (docfx_site(tmp_path, (), LEARN).url_path(path)[0] is not None) is built


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(folders=st.lists(_SEGMENT, min_size=1, max_size=3), name=_SEGMENT,
       files=st.sampled_from([["*"], ["*.md"], ["*.{md,yml}"], ["?*"], ["[a-zA-Z]*"]]))
def test_issue24_docfx_files_glob_without_a_slash_builds_the_top_folder_only(
        tmp_path_factory: pytest.TempPathFactory, folders: list[str], name: str, files: list[str]) -> None:
    """DocFX matches a ``files`` glob against each file's path: a glob without ``/`` or
    ``**`` (``"*"``, ``"*.md"``) builds the docset folder's own files, not ``sub/x.md``
    — that page is not built, gets no URL and is not public (issue 24: ``"*"`` matched the
    folder ``sub`` and every page below it was read as built)."""
    root = tmp_path_factory.mktemp("docfx")
    nested = "/".join([*folders, f"{name}.md"])
    write_files(root, {"docfx.json": json.dumps({"build": {"content": [{"files": files}]}}), nested: PAGE,
                       "top.md": PAGE})
    policy = load_site_policy(root, "docfx")
    assert policy.excluded_reason(nested) is not None
    assert docfx_site(root, (), LEARN).url_path(nested)[0] is None
    assert policy.excluded_reason("top.md") is None
