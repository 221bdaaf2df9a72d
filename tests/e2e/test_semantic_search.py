"""``semanticSearch`` over HTTP (issue 28; CONTRACT C1, C2, C3, X2, X7): a real ``knowledge-provider
serve`` with ``semantic_search: true`` declares it, answers a paraphrase by meaning, and a page
made internal leaves customer_safe's meaning matches as it leaves the word matches."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpthread_kit.capabilities import SEMANTIC_SEARCH
from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, start_provider
from tests.support import ProviderProcess, wait_for

pytest.importorskip("tokenizers", reason="the semantic extra")
pytest.importorskip("safetensors", reason="the semantic extra")

pytestmark = pytest.mark.e2e

REFUND = "en/billing/requesting-a-refund.md"
PARAPHRASE = "money back"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProviderProcess]:
    tmp = tmp_path_factory.mktemp("semantic")
    process = start_provider(tmp, config={"capabilities": ["locale", "chunking", "scoring"],
                                          "semantic_search": True}, ready_timeout_s=120)
    yield process
    process.stop()


def _ids(server: ProviderProcess, query: str, secret: str = CUSTOMER_SECRET, **more: object) -> list[str]:
    reply = server.retrieve({"query": query, "limit": 10, **more}, secret)
    assert reply.status == 200, reply.body
    return [r["documentId"] for r in reply.json()["results"]]


def test_semantic_search_is_declared(server: ProviderProcess) -> None:
    """C2/C3: declared because the operator switched it on, beside what was configured."""
    for secret in (CUSTOMER_SECRET, AGENT_SECRET):
        reply = server.capabilities(secret)
        assert reply.status == 200
        assert set(reply.json()["capabilities"]) == {"retrieve", "locale", "chunking", "scoring", SEMANTIC_SEARCH}


def test_a_paraphrase_is_answered_and_a_page_made_internal_leaves_it(server: ProviderProcess) -> None:
    """By meaning: "money back" reaches the refund article; made internal (X7), it leaves
    customer_safe's answers, meaning matches included, and agents still find it."""
    assert "en/billing/requesting-a-refund" in _ids(server, PARAPHRASE, locale="en")[:3]
    path: Path = server.content / REFUND
    text = path.read_text("utf-8")
    swap = path.with_name(f".{path.name}.swp")
    swap.write_text(text.replace("audience: public", "audience: internal", 1), "utf-8")
    os.replace(swap, path)
    wait_for(lambda: "en/billing/requesting-a-refund" not in _ids(server, PARAPHRASE, locale="en"),
             "the refund article leaves customer_safe", timeout_s=60)
    for query in (PARAPHRASE, "get a reimbursement", "refund"):
        assert "en/billing/requesting-a-refund" not in _ids(server, query, locale="en")
    assert "en/billing/requesting-a-refund" in _ids(server, PARAPHRASE, AGENT_SECRET, locale="en")
