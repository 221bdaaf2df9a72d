"""Section-level audience end to end (CONTRACT X2, X3, X6): a block marked
``<!-- internal -->`` … ``<!-- /internal -->`` inside a public article is searchable
and visible to ``agent_only`` only. ``customer_safe`` gets no result, no snippet and no
title containing a word that exists only inside such a block — the word is not in the
public index at all. Real server processes over HTTP, configured from the fixtures'
own knowledge-provider.yaml (tests/fixtures/dialects/)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, start_provider
from tests.support import REPO_ROOT, ProviderProcess, markup_in

pytestmark = pytest.mark.e2e

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "dialects"

#: fixture → (word only inside internal blocks, documentId of a public article holding it)
CANARIES = {
    "plain": [("kestrelgate", "en/refunds"), ("pagerwren", "en/unclosed"), ("ospreydeal", "en/only-internal"),
              ("lynxhold", "en/stray")],
    "hugo": [("bluefinch", "content/en/docs/tokens")],
}


def _fixture_config(name: str) -> dict[str, Any]:
    settings = yaml.safe_load((FIXTURES / name / "knowledge-provider.yaml").read_text("utf-8"))
    settings.pop("content")
    return dict(settings)


@pytest.fixture(scope="module", params=sorted(CANARIES))
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    name = request.param
    tmp: Path = tmp_path_factory.mktemp(f"sections-{name}")
    process = start_provider(tmp, content=FIXTURES / name / "site", config=_fixture_config(name))
    yield name, process
    process.stop()


def _results(server: ProviderProcess, query: str, secret: str) -> list[dict[str, Any]]:
    reply = server.retrieve({"query": query, "limit": 50}, secret)
    assert reply.status == 200
    results: list[dict[str, Any]] = reply.json()["results"]
    return results


def test_x2_customer_safe_never_finds_a_word_that_exists_only_in_an_internal_block(
    server: tuple[str, ProviderProcess],
) -> None:
    name, process = server
    for word, _ in CANARIES[name]:
        results = _results(process, word, CUSTOMER_SECRET)
        assert results == [], (word, results)
        # Nor through a query that also matches public words of the same article.
        for result in _results(process, f"{word} refund token tokens support data", CUSTOMER_SECRET):
            assert word not in result["snippet"].lower() and word not in result["title"].lower()
            assert result["audience"] == "public"


def test_x3_agent_only_sees_the_whole_article(server: tuple[str, ProviderProcess]) -> None:
    name, process = server
    for word, doc_id in CANARIES[name]:
        results = _results(process, word, AGENT_SECRET)
        top = {r["documentId"]: r for r in results}
        assert doc_id in top, (word, results)
        assert word in top[doc_id]["snippet"].lower()
        # X6: the snippet shows internal text, so the result says internal.
        assert top[doc_id]["audience"] == "internal"
        assert markup_in(top[doc_id]["snippet"]) == [] and markup_in(top[doc_id]["title"]) == []


def test_public_text_of_the_same_article_still_reaches_customers(server: tuple[str, ProviderProcess]) -> None:
    name, process = server
    query, doc_id = {"plain": ("refund billing page", "en/refunds"),
                     "hugo": ("API token console", "content/en/docs/tokens")}[name]
    results = _results(process, query, CUSTOMER_SECRET)
    found = {r["documentId"]: r for r in results}
    assert doc_id in found
    assert found[doc_id]["audience"] == "public"
    assert not any(word in found[doc_id]["snippet"].lower() for word, _ in CANARIES[name])
