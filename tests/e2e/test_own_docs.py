"""The docs site is itself a wiki the provider serves (issue 26): the repository's own
``docs/`` and ``mkdocs.yml``, indexed with ``layout: mkdocs`` by a real server process,
answer a newcomer's question over signed HTTP with the page and section a reader would
open on the built site (CONTRACT R1, R2, R7; the pages carry no front matter, so one
operator rule publishes them: X5)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, start_provider
from tests.support import REPO_ROOT, ProviderProcess, markup_in

pytestmark = pytest.mark.e2e

SITE = "https://docs.example.com"


@pytest.fixture(scope="module")
def docs_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProviderProcess]:
    tmp = tmp_path_factory.mktemp("own-docs")
    repository = tmp / "repository"
    shutil.copytree(REPO_ROOT / "docs", repository / "docs")
    shutil.copy(REPO_ROOT / "mkdocs.yml", repository / "mkdocs.yml")
    server = start_provider(tmp / "served", content=repository, config={
        "layout": "mkdocs", "locales": ["en"], "audience_rules": [{"docs/**": "public"}],
        "capabilities": ["citationUrl", "chunking"], "citation_base_url": SITE,
    })
    yield server
    server.stop()


def _ask(server: ProviderProcess, query: str, secret: str = CUSTOMER_SECRET) -> list[dict[str, Any]]:
    reply = server.retrieve({"query": query, "limit": 5}, secret)
    assert reply.status == 200, reply.body
    results: list[dict[str, Any]] = reply.json()["results"]
    return results


def test_r1_a_newcomers_question_is_answered_from_the_docs(docs_server: ProviderProcess) -> None:
    results = _ask(docs_server, "how do I create a secret file")
    assert results, "no answer from the provider's own docs"
    top = results[0]
    assert top["documentId"] == "docs/how-to/run", [r["documentId"] for r in results]
    assert top["audience"] == "public"
    assert "secret" in top["snippet"].lower()
    assert markup_in(top["snippet"]) == [] and markup_in(top["title"]) == []
    # The URL MkDocs gives that page, at the section that answers (its heading's anchor).
    assert top["url"] == f"{SITE}/how-to/run/#create-a-secret-file", top["url"]


def test_r2_every_page_of_the_site_is_public_and_agents_see_the_same(docs_server: ProviderProcess) -> None:
    for query in ("configuration edits need a restart", "write an adapter backend"):
        public = _ask(docs_server, query)
        agent = _ask(docs_server, query, AGENT_SECRET)
        assert public and all(r["audience"] == "public" for r in public), public
        assert [r["documentId"] for r in public] == [r["documentId"] for r in agent]
        assert all(r["documentId"].startswith("docs/") for r in public)


def test_r7_mkdocs_yml_and_the_folder_layout_stay_out_of_the_answers(docs_server: ProviderProcess) -> None:
    for result in _ask(docs_server, "mkdocs nav theme readthedocs site_name"):
        assert result["documentId"].startswith("docs/"), result
        assert result["url"].startswith(f"{SITE}/"), result
