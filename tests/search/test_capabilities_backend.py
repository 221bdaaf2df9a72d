"""The Whoosh backend with every capability (issue 4), in process: scores (``scoring``),
chunks (``chunking``), per-language matching, and the index rebuilt when what it holds
must change."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpthread_kit.backend import SearchQuery
from helpthread_kit.capabilities import ALL_CAPABILITIES
from helpthread_kit.registrations import Exposure
from provider.indexing import Indexer
from provider.search.backend import SCORE_HALF, WhooshBackend, normalised_score
from provider.search.layout import IndexLayout
from provider.wiki.document import WikiSettings
from tests.support import REPO_ROOT

ALL = frozenset(ALL_CAPABILITIES)
QUERIES = ("reset password", "refund", "invoice pdf", "api key", "Rechnung", "Passwort zurücksetzen",
           "how do I get my money back", "zahlung fehlgeschlagen karte", "webhook signature", "2fa")


@pytest.fixture(scope="module", params=[False, True], ids=["documents", "chunks"])
def sample(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> WhooshBackend:
    content = tmp_path_factory.mktemp("content")
    shutil.copytree(REPO_ROOT / "content", content, dirs_exist_ok=True)
    index = tmp_path_factory.mktemp("index")
    with Indexer(WikiSettings(root=content, locales=("en", "de"), chunking=request.param),
                 IndexLayout(index)) as indexer:
        indexer.sync()
    return WhooshBackend(index, fallback_locales=("en",))


@pytest.mark.parametrize("locale", [None, "de", "en-GB"])
def test_scores_are_in_unit_interval_and_never_increase(sample: WhooshBackend, locale: str | None) -> None:
    """scoring: score in [0, 1], non-increasing down the results (AND before OR fill-up,
    locale ranking may reorder: the score is capped, never raised)."""
    for text in QUERIES:
        for reach in Exposure:
            query = SearchQuery(text=text, limit=50, reach=reach, capabilities=ALL, locale=locale,
                                locale_fallback=True)
            scores = [r.score for r in sample.search(query)]
            assert all(s is not None and 0.0 <= s <= 1.0 for s in scores), scores
            assert scores == sorted(scores, reverse=True), (text, scores)  # type: ignore[type-var]


@given(st.floats(min_value=0, max_value=1e6), st.floats(min_value=0, max_value=1e6))
def test_normalisation_is_monotonic_and_bounded(a: float, b: float) -> None:
    assert 0.0 <= normalised_score(a) < 1.0 or a > 1e15
    if a <= b:
        assert normalised_score(a) <= normalised_score(b)
    assert normalised_score(SCORE_HALF) == 0.5


def test_one_result_per_chunk_and_the_snippet_comes_from_it(sample: WhooshBackend) -> None:
    query = SearchQuery(text="reset password link", limit=50, reach=Exposure.AGENT_ONLY, capabilities=ALL)
    results = sample.search(query)
    keys = [(r.document_id, r.chunk_id) for r in results]
    assert len(keys) == len(set(keys))
    chunked = [r for r in results if r.chunk_id is not None]
    if not chunked:  # the whole-document index
        assert all(r.chunk_id is None for r in results)
        return
    assert len(chunked) == len(results)
    assert len({r.chunk_id for r in results if r.document_id == "en/account/reset-password"}) > 1


def test_german_queries_find_inflected_german_words(sample: WhooshBackend) -> None:
    """Erstattungen (plural) finds the article about a Rückerstattung/Erstattung; Mahnungen
    finds Mahnung; zurucksetzen (no umlaut) finds zurücksetzen."""
    for text, expected in (("Erstattungen", "de/billing/rueckerstattung-beantragen"),
                           ("Mahnungen verschicken", "de/invoices/payment-reminders"),
                           ("passwort zurucksetzen", "de/account/passwort-zuruecksetzen")):
        query = SearchQuery(text=text, limit=5, reach=Exposure.CUSTOMER_SAFE, capabilities=ALL, locale="de")
        assert expected in [r.document_id for r in sample.search(query)][:3], text


def _write(root: Path, relpath: str, text: str) -> None:
    (root / relpath).parent.mkdir(parents=True, exist_ok=True)
    (root / relpath).write_text(text, "utf-8")


def test_resume_finds_resume(tmp_path: Path) -> None:
    content = tmp_path / "content"
    _write(content, "cv.md", "---\naudience: public\n---\n# Your Résumé\n\nUpload a résumé in the portal.\n")
    with Indexer(WikiSettings(root=content), IndexLayout(tmp_path / "index")) as indexer:
        indexer.sync()
    backend = WhooshBackend(tmp_path / "index")
    query = SearchQuery(text="resume", limit=5, reach=Exposure.CUSTOMER_SAFE, capabilities=ALL)
    assert [r.document_id for r in backend.search(query)] == ["cv"]


def _section(name: str) -> str:
    return f"## {name}\n\n" + " ".join(f"The {name} step {i} has its own walrus detail." for i in range(8)) + "\n\n"


def _chunk_ids(backend: WhooshBackend) -> dict[str, str]:
    query = SearchQuery(text="walrus", limit=50, reach=Exposure.CUSTOMER_SAFE, capabilities=ALL)
    return {r.snippet.split(" — ")[0]: r.chunk_id or "" for r in backend.search(query)}


def test_chunk_ids_survive_reindexing_and_edits_of_other_sections(tmp_path: Path) -> None:
    """chunkId is stable across re-indexing while the chunk is unchanged, also when
    another section of the same document is edited (incrementally and in a fresh build)."""
    content = tmp_path / "content"
    body = "---\naudience: public\n---\n# Guide\n\n" + _section("Install") + _section("Configure") + _section("Run")
    _write(content, "guide.md", body)
    settings = WikiSettings(root=content, chunking=True)
    backend = WhooshBackend(tmp_path / "index", cache_entries=0)
    with Indexer(settings, IndexLayout(tmp_path / "index")) as indexer:
        indexer.sync()
        before = _chunk_ids(backend)
        assert set(before) == {"Install", "Configure", "Run"}
        _write(content, "guide.md", body.replace(_section("Configure"), _section("Reconfigure")))
        indexer.sync(["guide.md"])
        after = _chunk_ids(backend)
        assert set(after) == {"Install", "Reconfigure", "Run"}
        assert after["Install"] == before["Install"] and after["Run"] == before["Run"]
        assert indexer.sync(rebuild=True).rebuilt
        assert _chunk_ids(backend) == after


def test_toggling_chunking_rebuilds_the_index(tmp_path: Path) -> None:
    """What the index holds depends on the declared capabilities: a change of the settings
    key builds afresh aside."""
    content = tmp_path / "content"
    _write(content, "guide.md", "---\naudience: public\n---\n# Guide\n\n" + _section("Install") + _section("Run"))
    layout = IndexLayout(tmp_path / "index")
    with Indexer(WikiSettings(root=content), layout) as indexer:
        indexer.sync()
    first = layout.current_name()
    backend = WhooshBackend(tmp_path / "index", cache_entries=0)
    assert set(_chunk_ids(backend).values()) == {""}
    with Indexer(WikiSettings(root=content, chunking=True), layout) as indexer:
        report = indexer.sync()
    assert report.rebuilt and layout.current_name() != first
    assert "" not in set(_chunk_ids(backend).values())
    with Indexer(WikiSettings(root=content, chunking=True), layout) as indexer:
        assert not indexer.sync().rebuilt


def test_typos_are_corrected_in_the_querys_language_only(sample: WhooshBackend) -> None:
    """A word no document has becomes the closest indexed word — ``pasword`` → password,
    ``Rechnugn`` → Rechnung — where the query looks written in that language."""
    def top(text: str, locale: str | None = None) -> str:
        query = SearchQuery(text=text, limit=5, reach=Exposure.CUSTOMER_SAFE, capabilities=ALL, locale=locale)
        return sample.search(query)[0].document_id

    assert top("pasword reset link expired") == "en/account/reset-password"
    assert top("two factor authentification") == "en/account/two-factor-authentication"
    assert top("Rechnugn stornieren", "de") == "de/invoices/credit-notes"
