"""Every layout preset on a small site built the way its tool documents it
(tests/fixtures/dialects/<preset>/, each with the knowledge-provider.yaml an operator
would write): the fixture is indexed and, for every file, the test checks the locale,
the translation group and where the document ends up — public index, agent index, or
nowhere (unpublished) — and that no title, passage or snippet carries markup
(CONTRACT R3, X2, X5)."""

from __future__ import annotations

import datetime as dt
import functools
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from whoosh import index as whoosh_index

from helpthread_kit.backend import SearchQuery
from helpthread_kit.registrations import Exposure
from provider.config import load_config
from provider.indexing import Indexer
from provider.search.backend import WhooshBackend
from provider.search.layout import ALL, PUBLIC, IndexLayout
from provider.search.schema import body_field, languages_of
from provider.wiki.check import CheckReport, check_wiki
from provider.wiki.dialects import apply_dialects
from provider.wiki.document import WikiSettings
from provider.wiki.frontmatter import parse_front_matter
from provider.wiki.plaintext import markdown_to_text
from tests.support import REPO_ROOT, markup_in
from tests.wiki.markup import assert_no_markup, assert_no_prose_markup, code_words

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "dialects"
NOW = dt.datetime(2025, 6, 1, tzinfo=dt.UTC)

# Where each file ends up: "public" (both indexes), "internal" (agent index only),
# "public-no-text" (public, but all its text is in internal sections: agent index only),
# "withheld" (read, served to nobody), "skipped" (not read).
S, P, INT, W, N = "skipped", "public", "internal", "withheld", "public-no-text"

#: preset → path → (locale, translation group, where it ends up); None for skipped paths.
EXPECTED: dict[str, dict[str, tuple[str, str, str] | None]] = {
    "hugo": {
        "archetypes/": None,
        "content/de/_index.md": ("de", "content", P),
        "content/de/docs/_index.md": ("de", "content/docs", P),
        "content/de/docs/install.md": ("de", "content/docs/install", P),
        "content/de/docs/linktitle.md": ("de", "content/docs/linktitle", W),  # untranslated copy
        "content/de/docs/nur-deutsch.md": ("de", "content/docs/nur-deutsch", P),  # orphan, still served
        "content/de/docs/troubleshooting/index.md": ("de", "content/docs/troubleshooting", P),
        "content/en/_index.md": ("en", "content", P),
        "content/en/blog/first-release.md": ("en", "content/blog/first-release", P),  # JSON front matter, rule
        "content/en/docs/_index.md": ("en", "content/docs", P),  # its own cascade applies to itself
        "content/en/docs/draft-page.md": ("en", "content/docs/draft-page", W),
        "content/en/docs/expired.md": ("en", "content/docs/expired", W),
        "content/en/docs/future.md": ("en", "content/docs/future", W),
        "content/en/docs/headless-bundle/index.md": ("en", "content/docs/headless-bundle", W),
        "content/en/docs/install.md": ("en", "content/docs/install", P),
        "content/en/docs/internal-notes.md": ("en", "content/docs/internal-notes", INT),  # own beats cascade
        "content/en/docs/linktitle.md": ("en", "content/docs/linktitle", P),
        "content/en/docs/ops/_index.md": ("en", "content/docs/ops", INT),  # nearest cascade wins
        "content/en/docs/ops/runbook.md": ("en", "content/docs/ops/runbook", INT),
        "content/en/docs/tokens.md": ("en", "content/docs/tokens", P),
        "content/en/docs/troubleshooting/index.md": ("en", "content/docs/troubleshooting", P),
    },
    "docusaurus": {
        "blog/2024-01-31-welcome.md": ("en", "blog/2024-01-31-welcome", P),
        "docs/_license.md": None,
        "docs/_snippets/": None,
        "docs/guides/01-setup.mdx": ("en", "docs/guides/01-setup", P),
        "docs/guides/configuration.md": ("en", "docs/guides/configuration", W),  # the .mdx twin is served
        "docs/guides/configuration.mdx": ("en", "docs/guides/configuration", P),
        "docs/guides/draft.md": ("en", "docs/guides/draft", W),
        "docs/guides/internal-only.md": ("en", "docs/guides/internal-only", INT),
        "docs/guides/unlisted.md": ("en", "docs/guides/unlisted", W),
        "docs/intro.md": ("en", "docs/intro", P),
        "i18n/fr/docusaurus-plugin-content-docs/current/guides/01-setup.mdx": ("fr", "docs/guides/01-setup", P),
        # No docs/guides/facturation source: Docusaurus does not build it, so it is not served.
        "i18n/fr/docusaurus-plugin-content-docs/current/guides/facturation.md": ("fr", "docs/guides/facturation", W),
        "i18n/fr/docusaurus-plugin-content-docs/current/intro.md": ("fr", "docs/intro", P),
        # A released version's translation, skipped with the reason: its version is not built (issue 24).
        "i18n/fr/docusaurus-plugin-content-docs/version-1.0/intro.md": None,
        # A released version's folder that versions.json (absent here) does not list: not built.
        "versioned_docs/version-1.0/intro.md": None,
    },
    "jekyll": {
        "_drafts/new-feature.md": ("en", "_drafts/new-feature", W),
        "_includes/": None,
        "_posts/2024-01-31-hello-world.md": ("en", "_posts/2024/hello-world", P),
        # Translated a day later (same slug): grouped with its original; a one-digit hour.
        "es/_posts/2024-02-01-hello-world.md": ("es", "_posts/2024/hello-world", P),
        "_posts/2999-12-31-future-post.md": ("en", "_posts/2999/future-post", W),
        "docs/getting-started.md": ("en", "docs/getting-started", P),
        "docs/unpublished.md": ("en", "docs/unpublished", W),
        "es/docs/getting-started.md": ("es", "docs/getting-started", P),
        "index.md": ("en", "index", P),
        "vendor/": None,
    },
    "mkdocs": {
        "docs/blog/posts/roadmap.md": ("en", "docs/blog/posts/roadmap", W),
        "docs/guide/index.md": ("en", "docs/guide", P),
        "docs/guide/sso.de.md": ("de", "docs/guide/sso", W),  # untranslated copy
        "docs/guide/sso.md": ("en", "docs/guide/sso", P),
        "docs/index.de.md": ("de", "docs", P),
        "docs/index.md": ("en", "docs", P),
        "overrides/": None,
        "site/": None,
    },
    "docfx": {
        "_site/": None,
        "articles/overview.md": ("en", "articles/overview", P),
        "articles/quickstart.md": ("en", "articles/quickstart", P),
        "includes/": None,
    },
    "plain": {
        "de/refunds.md": ("de", "refunds", P),
        "en/code-sample.md": ("en", "code-sample", P),
        "en/only-internal.md": ("en", "only-internal", N),
        "en/refunds.md": ("en", "refunds", P),
        "en/stray.md": ("en", "stray", INT),  # quarantined (a stray closer): never public
        "en/unclosed.md": ("en", "unclosed", P),
    },
}

#: Titles and documentIds worth pinning: bundles, posts, linkTitle, sidebar_label, JSON/TOML.
TITLES: dict[str, dict[str, tuple[str, str]]] = {
    "hugo": {
        "content/en/docs/troubleshooting/index.md": ("Troubleshooting", "content/en/docs/troubleshooting"),
        "content/en/docs/linktitle.md": ("Proxy settings", "content/en/docs/linktitle"),
        "content/en/docs/install.md": ("Install the Acme agent", "content/en/docs/install"),
        "content/en/blog/first-release.md": ("First release of the agent", "content/en/blog/first-release"),
        "content/en/_index.md": ("Acme Help Center", "content/en"),
    },
    "docusaurus": {
        "docs/guides/01-setup.mdx": ("Set up sync", "docs/guides/setup"),
        "blog/2024-01-31-welcome.md": ("Welcome", "blog/2024-01-31-welcome"),
        "i18n/fr/docusaurus-plugin-content-docs/current/guides/01-setup.mdx": (
            "Configurer la synchronisation", "i18n/fr/docusaurus-plugin-content-docs/current/guides/setup"),
    },
    "jekyll": {"_posts/2024-01-31-hello-world.md": ("Hello world", "posts/2024/01/31/hello-world")},
    "mkdocs": {"docs/guide/index.md": ("Setting up the vault", "docs/guide"),
               "docs/index.md": ("Welcome to Acme", "docs")},
    "docfx": {"articles/overview.md": ("Acme Storage overview", "articles/overview")},
    "plain": {"en/refunds.md": ("Request a refund", "en/refunds")},
}

#: Text each dialect must keep (reduced to words) in the public index, by path.
KEPT: dict[str, dict[str, list[str]]] = {
    "hugo": {"content/en/docs/install.md": ["You need administrator rights", "Download the package",
                                            "Before you start"]},
    "docusaurus": {"docs/intro.md": ["Quick start", "Install the desktop app", "Sync folders"],
                   "docs/guides/01-setup.mdx": ["Before you begin", "enough disk space", "symbolic links"]},
    "jekyll": {"docs/getting-started.md": ["Create an account", "registration page", "Install the client"]},
    "mkdocs": {"docs/index.md": ["Free for small teams", "free of charge", "Nested admonitions", "Desktop",
                                 "Get started", "ctrl+k"]},
    "docfx": {"articles/overview.md": ["classic tier", "Deleting an account", "Screenshot of the storage account",
                                       "Acme.Storage.AccountName", "Cool tier"],
              "articles/quickstart.md": ["Diagram of the three setup steps", "three boxes"]},
    "plain": {"en/refunds.md": ["within 30 days", "How long does it take"]},
}

#: Dialect syntax that must be gone from every title and passage of a preset.
LEFTOVERS: dict[str, list[str]] = {
    "hugo": ["{#", "{.", "notice", "badge", "ref \""],
    "docusaurus": [":::", "{/*", "TabItem", "import ", "export ", "{#", "{' '}"],
    "jekyll": ["{:", "{::", "TOC", "site.title", "include ", "highlight", "Editor note", "*[CLI]"],
    "mkdocs": ["!!!", "???", "===", "{ .", "{ #", "--8<--", "++", "*[SSO]", "md-button"],
    "docfx": ["[!", ":::", "alt-text", "xref", "zone", "nextstepaction", "code-csharp", "VIDEO"],
    "plain": ["<!--", "internal -->"],
}

#: Words that exist only inside internal sections: never in the public index.
INTERNAL_ONLY: dict[str, list[str]] = {
    "hugo": ["bluefinch"],
    "mkdocs": ["gannetrotate"],
    "plain": ["kestrelgate", "pagerwren", "ospreydeal", "lynxhold"],
}


def _settings(preset: str) -> WikiSettings:
    return load_config(FIXTURES / preset / "knowledge-provider.yaml").wiki_settings()


@functools.cache
def _code(preset: str) -> frozenset[str]:
    """The words of every code block of the fixture: code is kept as written (it may show
    ``<!-- internal -->`` or a tag), so markup checks look at the other words."""
    settings = _settings(preset)
    layout = settings.preset
    texts = []
    for path in sorted(settings.root.rglob("*")):
        if path.suffix.lower() in settings.file_extensions and path.is_file():
            body = parse_front_matter(path.read_text("utf-8", errors="replace")).body
            blocks = markdown_to_text(apply_dialects(body, layout.dialects), layout.text).blocks
            texts += [block.text for block in blocks if block.kind == "code"]
    return code_words(texts)


def _prose(text: str, preset: str) -> str:
    code = _code(preset)
    return " ".join(word for word in text.split() if word not in code)


def _stored(index: Path) -> dict[str, dict[str, dict[str, Any]]]:
    layout = IndexLayout(index)
    name = layout.current_name()
    assert name is not None
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for sub in (PUBLIC, ALL):
        ix = whoosh_index.open_dir(str(layout.build_dir(name) / sub))
        with ix.searcher() as searcher:
            out[sub] = {fields["path"]: fields for fields in searcher.all_stored_fields()}
            if sub == PUBLIC:
                words = {t.decode() for lang in languages_of(searcher.schema)
                         for t in searcher.lexicon(body_field(lang))}
                out["public-terms"] = {"": {"words": words}}
    return out


@pytest.fixture(scope="module", params=sorted(EXPECTED))
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    preset = request.param
    settings = _settings(preset)
    assert settings.layout == preset
    index = tmp_path_factory.mktemp(f"index-{preset}")
    with Indexer(settings, IndexLayout(index), clock=lambda: NOW) as indexer:
        indexer.sync()
    return preset, settings, index, _stored(index), check_wiki(settings, now=NOW)


def test_every_file_has_the_expected_locale_group_and_place(built: Any) -> None:
    preset, _, _, stored, report = built
    report_ = {entry.path: entry for entry in report.files}
    assert sorted(report_) == sorted(EXPECTED[preset]), "every file and skipped folder is accounted for"
    served = [e for e in EXPECTED[preset].values() if e is not None and e[2] in (P, INT, N)]
    group_sizes = Counter(group for _, group, _ in served)
    for path, expected in EXPECTED[preset].items():
        entry = report_[path]
        if expected is None:
            assert entry.status == "skipped", path
            assert path not in stored[ALL] and path not in stored[PUBLIC]
            continue
        locale, group, place = expected
        assert entry.resolved is not None
        meta = entry.resolved.meta
        assert (meta.locale, meta.translation_group) == (locale, group), path
        in_public, in_all = path in stored[PUBLIC], path in stored[ALL]
        if place == W:
            assert not in_all and not in_public and entry.status == "withheld", (path, entry.resolved.withheld)
            continue
        assert in_all, path
        doc = stored[ALL][path]["doc"]
        assert doc["locale"] == locale
        assert doc["group"] == (group if group_sizes[group] > 1 else None), path
        assert doc["audience"] == (INT if place == INT else P), path
        assert in_public == (place == P), path
        if in_public:
            assert stored[PUBLIC][path]["doc"]["audience"] == P


def test_titles_and_document_ids(built: Any) -> None:
    preset, _, _, stored, _ = built
    for path, (title, doc_id) in TITLES[preset].items():
        doc = stored[ALL][path]["doc"]
        assert (doc["title"], doc["id"]) == (title, doc_id), path


def test_r3_no_markup_in_any_title_or_passage(built: Any) -> None:
    preset, _, _, stored, _ = built
    for sub in (PUBLIC, ALL):
        for path, fields in stored[sub].items():
            assert_no_markup(fields["doc"]["title"])
            assert fields["passages"], path
            for passage in fields["passages"]:
                assert_no_prose_markup(passage, _code(preset))
                for leftover in LEFTOVERS[preset]:
                    assert leftover not in _prose(passage, preset), (path, leftover, passage)
            for leftover in LEFTOVERS[preset]:
                assert leftover not in fields["doc"]["title"], (path, leftover)


def test_dialect_text_is_kept(built: Any) -> None:
    preset, _, _, stored, _ = built
    for path, phrases in KEPT[preset].items():
        text = " ".join(stored[PUBLIC][path]["passages"])
        for phrase in phrases:
            assert phrase in text, (path, phrase, text)


def test_r3_snippets_from_real_searches_are_plain(built: Any) -> None:
    """Search every document's title in both reaches: titles and snippets are plain text."""
    preset, _, index, stored, _ = built
    backend = WhooshBackend(index)
    queries = {fields["doc"]["title"] for fields in stored[ALL].values()}
    for reach in (Exposure.CUSTOMER_SAFE, Exposure.AGENT_ONLY):
        for text in sorted(queries):
            results = backend.search(SearchQuery(text=text, limit=10, reach=reach, capabilities=frozenset()))
            assert results or reach is Exposure.CUSTOMER_SAFE, text
            for result in results:
                assert markup_in(result.title) == [] and markup_in(_prose(result.snippet, preset)) == [], result
                assert_no_prose_markup(result.snippet, _code(preset))
                if reach is Exposure.CUSTOMER_SAFE:
                    assert result.audience == P


def test_x2_internal_section_words_are_not_in_the_public_index(built: Any) -> None:
    preset, _, index, stored, _ = built
    public_words = stored["public-terms"][""]["words"]
    backend = WhooshBackend(index)
    for word in INTERNAL_ONLY.get(preset, []):
        assert word not in public_words
        for fields in stored[PUBLIC].values():
            assert word not in " ".join(fields["passages"]) and word not in fields["doc"]["title"]
        assert list(backend.search(SearchQuery(text=word, limit=50, reach=Exposure.CUSTOMER_SAFE,
                                               capabilities=frozenset()))) == []
        agent = backend.search(SearchQuery(text=word, limit=50, reach=Exposure.AGENT_ONLY, capabilities=frozenset()))
        assert agent and all(word in r.snippet for r in agent)
        assert all(r.audience == INT for r in agent), "a snippet from an internal section is labelled internal"


def test_check_agrees_with_the_index(built: Any) -> None:
    """check runs the indexer's classification: what it calls served is what was indexed."""
    _, _, _, stored, report = built
    assert isinstance(report, CheckReport)
    served = {e.path for e in report.files if e.status == "served"}
    assert served == set(stored[ALL])
    public = {e.path for e in report.files if e.resolved is not None and e.resolved.public}
    assert public == set(stored[PUBLIC])
