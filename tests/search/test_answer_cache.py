"""The Whoosh backend's answer cache and its event-loop look-up
(:meth:`WhooshBackend.answer_from_cache`): keyed by exposure, never older than the index
(CONTRACT X2, X7, R6; issue 15).

Real indexes of the repository's sample wiki, real commits by the indexer."""

from __future__ import annotations

import datetime as dt
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpthread_kit.backend import CachedAnswers, SearchQuery
from helpthread_kit.capabilities import FRESHNESS, MINIMUM, OPTIONAL_CAPABILITIES, SEMANTIC_SEARCH
from helpthread_kit.registrations import Exposure
from provider.indexing import Indexer
from provider.search import backend as backend_module
from provider.search.backend import ResultCache, WhooshBackend
from provider.search.layout import IndexLayout
from provider.wiki.document import WikiSettings
from tests.support import REPO_ROOT

ALL_FIELDS = (frozenset(OPTIONAL_CAPABILITIES) - {SEMANTIC_SEARCH}) | MINIMUM
#: Words of the sample wiki's internal articles (and of public ones): an agent_only answer
#: to these holds internal documents.
WORDS = ["refund", "exceptions", "escalation", "procedure", "vip", "handling", "fraud", "review", "checklist",
         "admin", "console", "goodwill", "credits", "password", "reset", "invoice", "data", "deletion",
         "recovery", "verification", "incident", "runbook", "queue", "account"]
ARTICLE = "en/account/reset-password.md"
ARTICLE_ID = "en/account/reset-password"


def _settle() -> None:
    """Wait until the index folders' last change is old enough for the event-loop look-up
    to trust their stamps (:data:`~provider.search.backend.SETTLED_NS`)."""
    time.sleep(backend_module.SETTLED_NS / 1e9 + 0.1)


@contextmanager
def _sample_indexer(root: Path) -> Iterator[tuple[Path, Indexer]]:
    """A copy of the sample wiki under ``root`` (``root/content``), indexed into
    ``root/index`` and settled: ``(content, indexer)``, the indexer still open."""
    content = root / "content"
    shutil.copytree(REPO_ROOT / "content", content)
    with Indexer(WikiSettings(root=content, locales=("en", "de")), IndexLayout(root / "index")) as indexer:
        indexer.sync()
        _settle()
        yield content, indexer


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cache")
    with _sample_indexer(root):
        pass
    return root / "index"


def _query(text: str, reach: Exposure, capabilities: frozenset[str] = MINIMUM) -> SearchQuery:
    return SearchQuery(text=text, limit=10, reach=reach, capabilities=capabilities)


def test_the_backend_offers_the_optional_hook(index: Path) -> None:
    assert isinstance(WhooshBackend(index), CachedAnswers)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3, unique=True))
def test_x2_an_agent_only_answer_is_never_given_to_customer_safe(index: Path, words: list[str]) -> None:
    """X2: for any query, once agent_only's answer is cached (internal documents among
    them), customer_safe gets — from the event-loop look-up and from a search — only
    public documents, exactly what a backend without a cache answers it."""
    text = " ".join(words)
    backend = WhooshBackend(index, declared_only=True)
    uncached = WhooshBackend(index, cache_entries=0, declared_only=True)
    for _ in range(2):  # the second time from the cache, on both paths
        backend.search(_query(text, Exposure.AGENT_ONLY))
        assert backend.answer_from_cache(_query(text, Exposure.AGENT_ONLY)) is not None
        from_loop = backend.answer_from_cache(_query(text, Exposure.CUSTOMER_SAFE))
        searched = backend.search(_query(text, Exposure.CUSTOMER_SAFE))
        expected = [r.document_id for r in uncached.search(_query(text, Exposure.CUSTOMER_SAFE))]
        assert [r.document_id for r in searched] == expected
        assert all(r.audience == "public" for r in searched)
        if from_loop is not None:
            assert [r.document_id for r in from_loop] == expected
            assert all(r.audience == "public" for r in from_loop)


def test_x2_the_sample_wiki_has_internal_answers_to_these_words(index: Path) -> None:
    """The property above is not vacuous: agent_only's answers do hold internal documents."""
    backend = WhooshBackend(index, cache_entries=0)
    audiences = {r.audience for w in WORDS for r in backend.search(_query(w, Exposure.AGENT_ONLY))}
    assert "internal" in audiences


def _reclassify(content: Path, audience: str) -> None:
    path = content / ARTICLE
    text = path.read_text("utf-8")
    path.write_text(text.replace("audience: public", f"audience: {audience}", 1)
                    .replace("audience: internal", f"audience: {audience}", 1), "utf-8")


def test_x7_no_answer_from_before_an_unpublish_comes_back_from_the_cache(tmp_path: Path) -> None:
    """X7: a public article cached for customer_safe (and answered on the event loop),
    then reclassified internal and indexed: from that commit on neither the event-loop
    look-up nor a search returns it — at once, and once the folder has settled."""
    query = _query("reset password", Exposure.CUSTOMER_SAFE)
    with _sample_indexer(tmp_path) as (content, indexer):
        backend = WhooshBackend(tmp_path / "index", declared_only=True)
        assert ARTICLE_ID in [r.document_id for r in backend.search(query)]
        from_loop = backend.answer_from_cache(query)
        assert from_loop is not None and ARTICLE_ID in [r.document_id for r in from_loop]

        _reclassify(content, "internal")
        indexer.sync([ARTICLE])
        for _ in range(2):
            cached = backend.answer_from_cache(query)
            assert cached is None or ARTICLE_ID not in [r.document_id for r in cached]
            assert ARTICLE_ID not in [r.document_id for r in backend.search(query)]
            _settle()
        backend.search(query)  # on a search thread: the new generation is read
        cached = backend.answer_from_cache(query)
        assert cached is not None, "the event-loop look-up answers again once the new generation is read"
        assert ARTICLE_ID not in [r.document_id for r in cached]
        # agent_only still finds it, labelled internal.
        agent = {r.document_id: r.audience for r in backend.search(_query("reset password", Exposure.AGENT_ONLY))}
        assert agent.get(ARTICLE_ID) == "internal"


def test_x7_a_commit_is_seen_by_the_event_loop_look_up_without_any_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """X7: with no search in between, the look-up itself notices the commit (the index
    folder changed) and declines, so the next answer is searched afresh — by the
    folder's stamp alone (the periodic re-read is put out of reach here)."""
    monkeypatch.setattr(backend_module, "GENERATION_TRUST_S", 3600.0)
    query = _query("reset password", Exposure.CUSTOMER_SAFE)
    with _sample_indexer(tmp_path) as (content, indexer):
        backend = WhooshBackend(tmp_path / "index", declared_only=True)
        backend.search(query)
        assert backend.answer_from_cache(query) is not None
        _reclassify(content, "internal")
        indexer.sync([ARTICLE])
        assert backend.answer_from_cache(query) is None


def test_x7_the_generation_is_read_again_at_least_every_generation_trust_s(
    index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """X7 on a file system whose folders keep their modification time: the event-loop
    look-up trusts a generation for at most GENERATION_TRUST_S, then leaves the next
    request to a search thread, which reads the generation again."""
    # Long enough that a first search on a loaded machine (0.3 s failed once, under the
    # warm-up thread beside it) still finds its generation trusted right after.
    monkeypatch.setattr(backend_module, "GENERATION_TRUST_S", 2.0)
    backend = WhooshBackend(index, declared_only=True)
    query = _query("reset password", Exposure.CUSTOMER_SAFE)
    backend.search(query)
    assert backend.answer_from_cache(query) is not None
    time.sleep(2.2)
    assert backend.answer_from_cache(query) is None
    backend.search(query)
    assert backend.answer_from_cache(query) is not None


class _Clock:
    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


def test_r6_a_cached_answer_turns_stale_when_its_review_date_passes(index: Path) -> None:
    """R6: freshness is judged again from the clock: a cached answer says ``current``
    before a document's ``review_due`` and ``stale`` after it, from both paths; between
    review dates the same results are handed out (nothing copied per request)."""
    clock = _Clock(dt.datetime(2026, 1, 1, tzinfo=dt.UTC))
    backend = WhooshBackend(index, clock=clock, declared_only=True)
    query = _query("rate limits", Exposure.CUSTOMER_SAFE, ALL_FIELDS)
    first = backend.search(query)
    due = {r.document_id: r.review_due_at for r in first if r.review_due_at}
    assert "en/api/rate-limits" in due  # review_due: 2027-01-15
    by_id = {r.document_id: r for r in first}
    assert by_id["en/api/rate-limits"].freshness == "current"
    again = backend.answer_from_cache(query)
    assert again is not None and again is backend.answer_from_cache(query)
    clock.now = dt.datetime(2027, 1, 16, tzinfo=dt.UTC)
    later = backend.answer_from_cache(query) or backend.search(query)
    assert {r.document_id: r.freshness for r in later}["en/api/rate-limits"] == "stale"
    assert {r.document_id: r.freshness for r in backend.search(query)}["en/api/rate-limits"] == "stale"
    # The clock going back is judged again too.
    clock.now = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    assert {r.document_id: r.freshness for r in backend.search(query)}["en/api/rate-limits"] == "current"


def test_r4_declared_only_answers_carry_only_declared_fields(index: Path) -> None:
    """R4: with ``declared_only`` (what the application asks), a minimum-configuration
    answer has no optional field, freshness included, from the cache as from a search."""
    backend = WhooshBackend(index, declared_only=True)
    query = _query("rate limits", Exposure.CUSTOMER_SAFE, MINIMUM)
    for results in (backend.search(query), backend.answer_from_cache(query)):
        assert results
        for r in results:
            assert r.freshness is None and r.review_due_at is None and r.score is None and r.locale is None
    full = WhooshBackend(index, declared_only=True).search(
        _query("rate limits", Exposure.CUSTOMER_SAFE, MINIMUM | {FRESHNESS}))
    assert any(r.freshness is not None for r in full)


def test_the_cache_is_bounded_by_bytes_and_by_entries(index: Path) -> None:
    """The cache never holds more than its byte or entry bound; the least recently
    used answers go first."""
    backend = WhooshBackend(index, cache_entries=1000, cache_bytes=40_000, declared_only=True)
    for word in WORDS:
        backend.search(_query(word, Exposure.AGENT_ONLY))
        assert backend.cache.bytes <= 40_000
    assert 0 < len(backend.cache) < len(WORDS)
    assert backend.answer_from_cache(_query(WORDS[-1], Exposure.AGENT_ONLY)) is not None
    assert backend.answer_from_cache(_query(WORDS[0], Exposure.AGENT_ONLY)) is None
    small = ResultCache(max_entries=3)
    backend.cache = small
    for word in WORDS[:6]:
        backend.search(_query(word, Exposure.AGENT_ONLY))
    assert len(small) == 3
