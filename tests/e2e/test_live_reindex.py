"""Live re-indexing end to end: a real server follows its content folder while files
change (CONTRACT X7, R5; issue "Live re-indexing an operator can trust")."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, start_provider
from tests.support import ProviderProcess, wait_for

pytestmark = pytest.mark.e2e

ARTICLE = "en/billing/requesting-a-refund.md"
DOC_ID = "en/billing/requesting-a-refund"


def atomic_save(path: Path, text: str) -> None:
    """What editors do: write a temporary file beside the target, then rename it over."""
    tmp = path.with_name(f".{path.name}.swp-{os.getpid()}")
    tmp.write_text(text, "utf-8")
    os.replace(tmp, path)


def ids(server: ProviderProcess, query: str, secret: str = CUSTOMER_SECRET) -> list[str]:
    reply = server.retrieve({"query": query, "limit": 50}, secret)
    assert reply.status == 200, reply.body
    return [r["documentId"] for r in reply.json()["results"]]


def make_internal(text: str) -> str:
    return text.replace("audience: public", "audience: internal", 1)


def test_x7_reclassification_under_continuous_customer_queries(fresh_server: ProviderProcess) -> None:
    """X7: public → internal by an atomic save while customer_safe queries run without
    pause: once the article has gone, it never comes back, and no query fails."""
    path = fresh_server.content / ARTICLE
    original = path.read_text("utf-8")
    assert DOC_ID in ids(fresh_server, "requesting a refund")
    observations: list[tuple[float, bool]] = []
    failures: list[str] = []
    stop = threading.Event()

    def customer() -> None:
        while not stop.is_set():
            sent = time.monotonic()
            reply = fresh_server.retrieve({"query": "requesting a refund", "limit": 50}, CUSTOMER_SECRET)
            if reply.status != 200:
                failures.append(f"{reply.status} {reply.body[:200]!r}")
                continue
            present = DOC_ID in [r["documentId"] for r in reply.json()["results"]]
            observations.append((sent, present))

    threads = [threading.Thread(target=customer) for _ in range(3)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    saved_at = time.monotonic()
    atomic_save(path, make_internal(original))
    latency = wait_for(lambda: DOC_ID not in ids(fresh_server, "requesting a refund"), what="reclassification")
    time.sleep(1.0)
    stop.set()
    for thread in threads:
        thread.join()
    assert not failures, failures[:3]
    # A request sent after a response already showed the article gone must not show it.
    gone_at = saved_at + latency
    late = [t for t, present in observations if present and t > gone_at]
    assert not late, "the reclassified article was served to customer_safe after it had gone"
    print(f"reclassification latency: {latency * 1000:.0f} ms")
    # The agent registration still finds it, now labelled internal (X6). The label comes
    # with the batch, which may finish after the early withdrawal has taken the article
    # out of customer_safe (a busy CI machine: more than the second waited above).

    def labelled_internal() -> bool:
        reply = fresh_server.retrieve({"query": "requesting a refund", "limit": 50}, AGENT_SECRET).json()
        return {r["documentId"]: r["audience"] for r in reply["results"]}.get(DOC_ID) == "internal"

    wait_for(labelled_internal, what="the agent index's internal label")


def test_x7_deletion_draft_write_rename_and_new_file(fresh_server: ProviderProcess) -> None:
    """Deleting a public file, adding draft: true, a plain in-place write, a rename and a
    new file each take effect once their batch commits."""
    content = fresh_server.content
    # Delete.
    (content / "en/account/change-email.md").unlink()
    wait_for(lambda: "en/account/change-email" not in ids(fresh_server, "change email address"), what="deletion")
    # draft: true → served to nobody.
    path = content / "en/api/webhooks.md"
    path.write_text(path.read_text("utf-8").replace("---\n", "---\ndraft: true\n", 1), "utf-8")
    for secret in (CUSTOMER_SECRET, AGENT_SECRET):
        wait_for(lambda s=secret: "en/api/webhooks" not in ids(fresh_server, "webhooks signature", s),  # type: ignore[misc]
                 what="draft withdrawal")
    # Plain write in place: new words become searchable.
    path = content / "en/api/rate-limits.md"
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("\n\nThe quokka throttle applies to bulk exports.\n")
    wait_for(lambda: "en/api/rate-limits" in ids(fresh_server, "quokka throttle"), what="in-place write")
    # Rename: the old documentId disappears, the new one appears.
    os.rename(content / "en/api/api-keys.md", content / "en/api/keys-and-tokens.md")
    wait_for(lambda: "en/api/keys-and-tokens" in ids(fresh_server, "api keys"), what="rename target")
    assert "en/api/api-keys" not in ids(fresh_server, "api keys")
    # A new file.
    (content / "en/api/new-page.md").write_text("---\naudience: public\n---\n# Capybara guide\n\nAll about capybara.\n")
    wait_for(lambda: "en/api/new-page" in ids(fresh_server, "capybara"), what="new file")
    # A delete-and-recreate pair arrives unordered: the file exists, so it is indexed.
    target = content / "en/api/new-page.md"
    target.unlink()
    target.write_text("---\naudience: public\n---\n# Capybara guide\n\nCapybara and tapir.\n")
    wait_for(lambda: "en/api/new-page" in ids(fresh_server, "tapir"), what="recreate")


def test_r5_revision_changes_with_bytes_and_only_then(fresh_server: ProviderProcess) -> None:
    """R5: agent_only's revision is the git blob hash (touching a file keeps it, changing a
    byte changes it); customer_safe's changes only when the public text does (issue 11:
    no side channel on internal text)."""
    def revision(secret: str = CUSTOMER_SECRET) -> str:
        reply = fresh_server.retrieve({"query": "reset your password", "limit": 1}, secret).json()
        return str(reply["results"][0]["revision"])

    path = fresh_server.content / "en/account/reset-password.md"
    before, agent_before = revision(), revision(AGENT_SECRET)
    os.utime(path, None)
    time.sleep(2.0)
    assert (revision(), revision(AGENT_SECRET)) == (before, agent_before)
    internal_block = "\n<!-- internal -->\nOverride code kiwi-42.\n<!-- /internal -->\n"
    path.write_text(path.read_text("utf-8") + internal_block, "utf-8")
    wait_for(lambda: revision(AGENT_SECRET) != agent_before, what="agent revision change")
    assert revision() == before, "an internal-only edit is invisible to customer_safe"
    path.write_text(path.read_text("utf-8") + "\nOne more public sentence.\n", "utf-8")
    wait_for(lambda: revision() != before, what="revision change")


def test_bulk_change_like_a_branch_switch(fresh_server: ProviderProcess, tmp_path: Path) -> None:
    """300 files change at once; the served index then equals a fresh build of the folder."""
    content = fresh_server.content
    bulk = content / "en" / "bulk"
    bulk.mkdir()
    for i in range(300):
        audience = "public" if i % 3 else "internal"
        (bulk / f"page-{i:03d}.md").write_text(
            f"---\naudience: {audience}\n---\n# Bulk page {i}\n\nBulkword{i} appears here with pangolin.\n", "utf-8"
        )
    wait_for(lambda: "en/bulk/page-299" in ids(fresh_server, "bulkword299", AGENT_SECRET), "bulk add", timeout_s=60)
    wait_for(lambda: len(ids(fresh_server, "pangolin", AGENT_SECRET)) == 50, "all bulk pages", timeout_s=60)
    assert "en/bulk/page-000" not in ids(fresh_server, "bulkword0")  # internal
    assert "en/bulk/page-001" in ids(fresh_server, "bulkword1")
    # Switch back: the whole folder disappears in one move.
    os.rename(bulk, tmp_path / "moved-away")
    wait_for(lambda: not ids(fresh_server, "pangolin", AGENT_SECRET), "bulk removal", timeout_s=60)
    assert_index_equals_fresh_build(fresh_server, tmp_path / "fresh")


def assert_index_equals_fresh_build(server: ProviderProcess, fresh_index: Path) -> None:
    """Compare the server's manifest with a fresh full build of the same folder."""
    from provider.indexing import Indexer
    from provider.indexing.manifest import Manifest
    from provider.search.layout import IndexLayout
    from provider.wiki.document import WikiSettings

    settings = WikiSettings(root=server.content, locales=("en", "de"))
    with Indexer(settings, IndexLayout(fresh_index)) as indexer:
        indexer.sync()
    served = IndexLayout(server.root / "index")

    def fingerprints(layout: IndexLayout) -> dict[str, str]:
        name = layout.current_name()
        assert name is not None
        manifest = Manifest.load(layout.build_dir(name) / "manifest.json")
        assert manifest is not None
        return manifest.fingerprints

    wait_for(lambda: fingerprints(served) == fingerprints(IndexLayout(fresh_index)), "index equal to fresh build")


def test_restart_serves_without_rebuild_and_sees_offline_edits(tmp_path: Path) -> None:
    """Fast restart: unchanged content is served from the existing build; a file edited
    while the server was down is re-indexed before the server reports ready (no stale
    public answer after a restart)."""
    server = start_provider(tmp_path)
    assert DOC_ID in ids(server, "requesting a refund")
    server.stop()
    path = server.content / ARTICLE
    path.write_text(make_internal(path.read_text("utf-8")), "utf-8")
    started = time.monotonic()
    again = start_provider(tmp_path, content=server.content)
    try:
        ready_s = time.monotonic() - started
        assert DOC_ID not in ids(again, "requesting a refund")
        log = again.log()
        assert "Index built" not in log and "Index updated" in log
        print(f"restart to ready: {ready_s:.2f}s")
    finally:
        again.stop()


def test_second_writer_refused_and_live_writer_keeps_its_lock(fresh_server: ProviderProcess) -> None:
    """Exactly one process writes the index: `index` refuses while `serve` holds the lock,
    and the serving process keeps indexing afterwards."""
    result = subprocess.run(
        [sys.executable, "-m", "provider", "index", "--config", str(fresh_server.root / "provider.yaml")],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode != 0 and "only one process" in result.stderr
    (fresh_server.content / "en/after-lock.md").write_text("---\naudience: public\n---\n# Lemur\n\nLemur page.\n")
    wait_for(lambda: "en/after-lock" in ids(fresh_server, "lemur"), what="indexing after refused writer")


def test_polling_mode(tmp_path: Path) -> None:
    """The polling mode (KNOWLEDGE_PROVIDER_POLL=1) picks up changes without inotify."""
    server = start_provider(tmp_path, env={"KNOWLEDGE_PROVIDER_POLL": "1"}, config={"poll_delay_ms": 200})
    try:
        (server.content / "en/polled.md").write_text("---\naudience: public\n---\n# Okapi\n\nOkapi page.\n")
        wait_for(lambda: "en/polled" in ids(server, "okapi"), what="polled change")
    finally:
        server.stop()
