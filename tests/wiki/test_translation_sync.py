"""Freshness (CONTRACT R6) and translation staleness: a translation is stale when its
source-language document changed after the revision its front matter names
(``source_revision``, a git blob hash; Hugo's ``default_lang_commit``, a commit); unknown
when that cannot be told — never current without a basis."""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
from pathlib import Path

import pytest

from helpthread_kit.backend import SearchQuery
from helpthread_kit.capabilities import ALL_CAPABILITIES
from helpthread_kit.registrations import Exposure
from provider.indexing import Indexer
from provider.search.backend import WhooshBackend, freshness
from provider.search.layout import IndexLayout
from provider.wiki.check import check_wiki
from provider.wiki.corpus import SYNC_CURRENT, SYNC_STALE, SYNC_UNKNOWN
from provider.wiki.document import WikiSettings, git_blob_sha1
from provider.wiki.gitblobs import GitBlobs

NOW = dt.datetime(2026, 5, 1, 9, 0, tzinfo=dt.UTC)
PAST, FUTURE = NOW - dt.timedelta(days=1), NOW + dt.timedelta(days=1)
SOURCE = "---\naudience: public\n---\n# Refunds\n\nRequest a walrus refund within 30 days.\n"

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _write(root: Path, relpath: str, text: str) -> Path:
    path = root / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def _translation(**front: str) -> str:
    extra = "".join(f"{k}: {v}\n" for k, v in front.items())
    return f"---\naudience: public\nreview_due: 2099-01-01\n{extra}---\n# Erstattung\n\nWalrus Erstattung.\n"


def _git(root: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "HOME": str(root), "GIT_CONFIG_NOSYSTEM": "1",
           "PATH": "/usr/bin:/bin:/usr/local/bin"}
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, env=env, check=True)
    return done.stdout.strip()


_OPEN: list[Indexer] = []


@pytest.fixture(autouse=True)
def _close_indexers() -> object:
    yield
    while _OPEN:
        _OPEN.pop().close()


def _sync_states(settings: WikiSettings, index: Path) -> tuple[dict[str, str | None], Indexer]:
    indexer = Indexer(settings, IndexLayout(index), clock=lambda: NOW)
    indexer.open()
    _OPEN.append(indexer)
    indexer.sync()
    return _stored_sync(index), indexer


def _stored_sync(index: Path) -> dict[str, str | None]:
    from whoosh import index as whoosh_index

    layout = IndexLayout(index)
    name = layout.current_name()
    assert name is not None
    ix = whoosh_index.open_dir(str(layout.build_dir(name) / "all"))
    with ix.searcher() as searcher:
        return {fields["path"]: fields["doc"]["sync"] for fields in searcher.all_stored_fields()}


def test_freshness_rule() -> None:
    """R6: stale beats current; current needs a future review date and no unknown sync."""
    assert freshness(None, None, NOW) == "unknown"
    assert freshness(PAST, None, NOW) == "stale"
    assert freshness(NOW, None, NOW) == "stale"
    assert freshness(FUTURE, None, NOW) == "current"
    assert freshness(FUTURE, SYNC_CURRENT, NOW) == "current"
    assert freshness(FUTURE, SYNC_STALE, NOW) == "stale"
    assert freshness(None, SYNC_STALE, NOW) == "stale"
    assert freshness(FUTURE, SYNC_UNKNOWN, NOW) == "unknown"
    assert freshness(PAST, SYNC_UNKNOWN, NOW) == "stale"
    assert freshness(None, SYNC_CURRENT, NOW) == "unknown"


def test_source_revision_current_then_stale_after_the_source_changes(tmp_path: Path) -> None:
    """The translation names the blob hash of the source it was made from; editing the
    source makes it stale — incrementally, exactly as a fresh build would."""
    content = tmp_path / "content"
    _write(content, "en/refund.md", SOURCE)
    revision = git_blob_sha1(SOURCE.encode())
    _write(content, "de/refund.md", _translation(source_revision=revision))
    _write(content, "fr/refund.md", _translation(source_revision=revision[:7]))  # a short hash is enough
    _write(content, "es/refund.md", _translation(source_revision="f" * 40))
    _write(content, "it/refund.md", _translation(source_revision="1234567"))  # a YAML number: taken as written
    settings = WikiSettings(root=content, locales=("en", "de", "fr", "es", "it"))
    states, indexer = _sync_states(settings, tmp_path / "index")
    assert states == {"en/refund.md": None, "de/refund.md": SYNC_CURRENT, "fr/refund.md": SYNC_CURRENT,
                      "es/refund.md": SYNC_STALE, "it/refund.md": SYNC_STALE}

    _write(content, "en/refund.md", SOURCE.replace("30", "14"))
    indexer.sync(["en/refund.md"])
    incremental = _stored_sync(tmp_path / "index")
    assert incremental["de/refund.md"] == SYNC_STALE and incremental["fr/refund.md"] == SYNC_STALE
    fresh, _ = _sync_states(settings, tmp_path / "fresh")
    assert incremental == fresh
    warnings = {e.path: e.warnings for e in check_wiki(settings, now=NOW).files}
    assert any("stale translation" in w for w in warnings["de/refund.md"])


def test_a_translation_without_a_single_source_is_unknown(tmp_path: Path) -> None:
    content = tmp_path / "content"
    _write(content, "de/orphan.md", _translation(source_revision="a" * 40))
    _write(content, "de/plain.md", _translation())  # no sync key: its review date decides alone
    states, _ = _sync_states(WikiSettings(root=content, locales=("en", "de")), tmp_path / "index")
    assert states == {"de/orphan.md": SYNC_UNKNOWN, "de/plain.md": None}


def test_public_index_judges_with_public_sources_only(tmp_path: Path) -> None:
    """As with groups, the public index never learns about an internal source. (A source
    internal for a meant reason makes its translation internal too, issue 24: a source
    only kept out of search engines is on the site and passes nothing on.)"""
    content = tmp_path / "content"
    internal = SOURCE.replace("audience: public", "audience: public\nnoindex: true")
    _write(content, "en/refund.md", internal)
    _write(content, "de/refund.md", _translation(source_revision=git_blob_sha1(internal.encode())))
    settings = WikiSettings(root=content, locales=("en", "de"))
    with Indexer(settings, IndexLayout(tmp_path / "index"), clock=lambda: NOW) as indexer:
        indexer.sync()
    backend = WhooshBackend(tmp_path / "index", clock=lambda: NOW)
    caps = frozenset(ALL_CAPABILITIES)

    def fresh(reach: Exposure) -> dict[str, str | None]:
        # Asked in German: without a locale only one answer per translation group comes back.
        query = SearchQuery(text="walrus", limit=10, reach=reach, capabilities=caps, locale="de")
        return {r.document_id: r.freshness for r in backend.search(query)}

    assert fresh(Exposure.AGENT_ONLY)["de/refund"] == "current"
    assert fresh(Exposure.CUSTOMER_SAFE) == {"de/refund": "unknown"}


@needs_git
def test_default_lang_commit_asks_git(tmp_path: Path) -> None:
    """Hugo's convention: current while the source file is what it was at the commit,
    stale once it changed (committed or not), unknown for a commit git does not know."""
    repo = tmp_path / "site"
    content = repo / "content"
    _write(content, "en/refund.md", SOURCE)
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "source")
    commit = _git(repo, "rev-parse", "HEAD")
    _write(content, "de/refund.md", _translation(default_lang_commit=commit))
    _write(content, "fr/refund.md", _translation(default_lang_commit="deadbeef" * 5))
    settings = WikiSettings(root=content, locales=("en", "de", "fr"))
    states, indexer = _sync_states(settings, tmp_path / "index")
    assert states["de/refund.md"] == SYNC_CURRENT and states["fr/refund.md"] == SYNC_UNKNOWN

    _write(content, "en/refund.md", SOURCE + "\nA new paragraph.\n")
    _git(repo, "commit", "-q", "-am", "edit the source")
    indexer.sync(["en/refund.md"])
    assert _stored_sync(tmp_path / "index")["de/refund.md"] == SYNC_STALE

    backend = WhooshBackend(tmp_path / "index", clock=lambda: NOW)
    found = {}
    for locale in ("de", "fr"):  # without a locale, one answer per translation group
        query = SearchQuery(text="walrus erstattung", limit=10, reach=Exposure.AGENT_ONLY,
                            capabilities=frozenset(ALL_CAPABILITIES), locale=locale)
        found.update({r.document_id: (r.freshness, r.review_due_at) for r in backend.search(query)})
    assert found["de/refund"] == ("stale", "2099-01-01T00:00:00Z")  # stale beats a future review date
    assert found["fr/refund"] == ("unknown", "2099-01-01T00:00:00Z")  # never current without a basis


@needs_git
def test_git_lookups_are_batched_and_remembered(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _write(repo, "a.md", "a")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "a")
    commit = _git(repo, "rev-parse", "HEAD")
    blobs = GitBlobs(repo)
    answers = blobs([(commit, "a.md"), (commit, "missing.md"), ("f" * 40, "a.md")])
    assert answers == {(commit, "a.md"): git_blob_sha1(b"a"), (commit, "missing.md"): None, ("f" * 40, "a.md"): None}
    assert blobs.calls == 1
    blobs([(commit, "a.md")])
    assert blobs.calls == 1


def test_no_repository_means_unknown(tmp_path: Path) -> None:
    blobs = GitBlobs(tmp_path)
    assert blobs([("a" * 40, "x.md")]) == {("a" * 40, "x.md"): None}
