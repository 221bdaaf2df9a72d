"""Docusaurus MDX partials followed live (issue 24, CONTRACT X7): an edit to a partial
reads every page that imports it again in the same batch, so text the edit makes
internal leaves ``customer_safe`` with it — over real HTTP, a real server following its
content folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, start_provider
from tests.support import ProviderProcess, wait_for

pytestmark = pytest.mark.e2e

STUB = "---\ntitle: {title}\n---\n\nimport Shared from '../_shared/wallet.mdx';\n\n<Shared />\n"
PARTIAL = "## Configure the wallet\n\nOpen the wallet and add the quokkanet network.\n"


def _texts(server: ProviderProcess, query: str, secret: str) -> dict[str, str]:
    reply = server.retrieve({"query": query, "limit": 20}, secret)
    assert reply.status == 200, reply.body
    return {r["documentId"]: r.get("text", "") or r.get("snippet", "") for r in reply.json()["results"]}


def _save(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.swp-{os.getpid()}")
    tmp.write_text(text, "utf-8")
    os.replace(tmp, path)


def test_x7_partial_edit_reads_its_importers_again(tmp_path: Path) -> None:
    content = tmp_path / "site"
    for name, text in {"docs/a/setup.mdx": STUB.format(title="Setup A"),
                       "docs/b/setup.mdx": STUB.format(title="Setup B"),
                       "docs/_shared/wallet.mdx": PARTIAL}.items():
        (content / name).parent.mkdir(parents=True, exist_ok=True)
        (content / name).write_text(text, "utf-8")
    server = start_provider(tmp_path / "run", content=content, config={
        "layout": "docusaurus", "locales": ["en"], "audience_rules": [{"docs/**": "public"}]})
    try:
        wiki = server.content
        found = _texts(server, "quokkanet", CUSTOMER_SECRET)
        assert {"docs/a/setup", "docs/b/setup"} <= set(found)
        # The partial's text changes: both pages show the new words.
        _save(wiki / "docs/_shared/wallet.mdx", PARTIAL.replace("quokkanet", "wombatnet"))
        wait_for(lambda: {"docs/a/setup", "docs/b/setup"} <= set(_texts(server, "wombatnet", CUSTOMER_SECRET)),
                 what="importers read again after the partial changed")
        assert not set(_texts(server, "quokkanet", CUSTOMER_SECRET)) & {"docs/a/setup", "docs/b/setup"}
        # The partial gains an internal section: its words leave customer_safe on both pages.
        _save(wiki / "docs/_shared/wallet.mdx",
              PARTIAL + "\n<!-- internal -->\nRotate the numbatkey with the ops runbook.\n<!-- /internal -->\n")
        wait_for(lambda: not _texts(server, "numbatkey", CUSTOMER_SECRET)
                 and {"docs/a/setup", "docs/b/setup"} <= set(_texts(server, "numbatkey", AGENT_SECRET)),
                 what="the partial's internal section withheld from customer_safe on every importer")
    finally:
        server.stop()
