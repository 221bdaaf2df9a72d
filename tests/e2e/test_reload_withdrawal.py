"""A configuration change that makes a page internal takes effect before the rebuild it
starts is done (issue 27; CONTRACT X2, X7): on a real server process, over HTTP with
signed requests, no ``customer_safe`` answer to a request sent after the reload is
logged holds the page — while the rebuild aside is still running — for a change seen
in the file and for one read on ``SIGHUP``.

The rebuild is made slow on purpose, the same on any machine, as in
test_rebuild_while_serving.py: the wiki holds one file that takes longer than
``parse_timeout`` to parse, so every full build waits that long for it.
"""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from pathlib import Path

import pytest
import yaml

from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, start_provider
from tests.e2e.test_config_reload import ARTICLE, DOC_ID, QUERY, rule_decided_wiki
from tests.support import ProviderProcess, wait_for

pytestmark = pytest.mark.e2e

PARSE_TIMEOUT_S = 6
APPLIED = "applying audience_rules while serving"
BUILT = "scan complete at"


def _server(tmp_path: Path) -> ProviderProcess:
    """The sample wiki with the refund article public by an audience rule (its front
    matter line removed), and a file that makes every full build slow."""
    content = rule_decided_wiki(tmp_path)
    (content / "slow.md").write_text("[" * 1_500_000, "utf-8")
    return start_provider(tmp_path / "served", content=content, ready_timeout_s=120,
                          config={"audience_rules": [{ARTICLE: "public"}], "parse_timeout": PARSE_TIMEOUT_S})


def _found(server: ProviderProcess, secret: str) -> bool:
    reply = server.retrieve({"query": QUERY, "limit": 50}, secret)
    assert reply.status == 200, reply.body
    return DOC_ID in [r["documentId"] for r in reply.json()["results"]]


def _write_rules(server: ProviderProcess, audience: str, *, unseen: bool) -> None:
    """Write the article's rule as ``audience``. ``unseen``: in place, padded to the same
    size, with the old modification time put back, so the file follower cannot see the
    change and only ``SIGHUP`` reads it."""
    path = server.root / "provider.yaml"
    settings = yaml.safe_load(path.read_text("utf-8"))
    settings["audience_rules"] = [{ARTICLE: audience}]
    text = yaml.safe_dump(settings, sort_keys=False)
    if not unseen:
        tmp = path.with_name(".provider.yaml.tmp")
        tmp.write_text(text, "utf-8")
        tmp.replace(path)  # as an editor saves: a rename over the file
        return
    before = path.stat()
    data = text.encode("utf-8")
    assert len(data) <= before.st_size, "the new settings must fit in the old file's size"
    with open(path, "r+b") as handle:
        handle.write(data + b"\n" + b"#" * (before.st_size - len(data) - 1) if len(data) < before.st_size else data)
        handle.truncate()
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size


@pytest.mark.timeout(300)
@pytest.mark.parametrize("how", ["file", "SIGHUP"])
def test_a_page_made_internal_by_a_reload_leaves_customer_safe_before_the_rebuild_is_done(
        tmp_path: Path, how: str) -> None:
    server = _server(tmp_path)
    try:
        assert _found(server, CUSTOMER_SECRET)
        builds = server.log().count(BUILT)
        seen: list[tuple[float, bool]] = []  # (when the request was sent, the page in the answer)
        statuses: list[int] = []
        stop = threading.Event()

        def customer() -> None:
            while not stop.is_set():
                sent = time.monotonic()
                reply = server.retrieve({"query": QUERY, "limit": 50}, CUSTOMER_SECRET)
                statuses.append(reply.status)
                if reply.status == 200:
                    seen.append((sent, DOC_ID in [r["documentId"] for r in reply.json()["results"]]))

        threads = [threading.Thread(target=customer) for _ in range(2)]
        for thread in threads:
            thread.start()
        try:
            if how == "SIGHUP":
                # Room for the unseen edit: the same settings and a comment, seen (and
                # found to change nothing) by the follower first.
                path = server.root / "provider.yaml"
                padded = path.with_name(".provider.yaml.tmp")
                padded.write_text(path.read_text("utf-8") + "#" * 64 + "\n", "utf-8")
                padded.replace(path)
                time.sleep(2.5)
                _write_rules(server, "internal", unseen=True)
                time.sleep(2.5)  # the follower looks every second: it must not have seen it
                assert APPLIED not in server.log(), "the follower saw an edit made to be unseen"
                server.proc.send_signal(signal.SIGHUP)
            else:
                _write_rules(server, "internal", unseen=False)
            wait_for(lambda: APPLIED in server.log(), "the reload line", timeout_s=60, every_s=0.02)
            logged = time.monotonic()
            assert server.log().count(BUILT) == builds, "the rebuild must still be running when the line is written"
            wait_for(lambda: server.log().count(BUILT) > builds, "the rebuild", timeout_s=180, every_s=0.2)
            rebuilt = time.monotonic()
            time.sleep(0.5)
        finally:
            stop.set()
            for thread in threads:
                thread.join()
        during = [present for sent, present in seen if logged < sent < rebuilt]
        assert during, "requests were answered while the rebuild ran"
        assert not any(present for sent, present in seen if sent > logged), \
            "customer_safe got the page after the reload was logged"
        assert set(statuses) == {200}, f"answers other than 200: {set(statuses)}"
        log = server.log()
        # The article, and any public page holding its text (rule 6d), in one commit.
        withdrew = re.search(r"withdrew (\d+) of \d+ public page\(s\) from customer_safe in", log)
        assert withdrew is not None and int(withdrew.group(1)) >= 1, log[-3000:]
        assert (f"(SIGHUP): {APPLIED}" if how == "SIGHUP" else f"(the file changed): {APPLIED}") in log
        # agent_only still finds it, labelled internal (X6), from the new build.
        reply = server.retrieve({"query": QUERY, "limit": 50}, AGENT_SECRET)
        assert {r["documentId"]: r["audience"] for r in reply.json()["results"]}.get(DOC_ID) == "internal"
    finally:
        server.stop()


@pytest.mark.timeout(300)
def test_a_page_made_public_by_a_reload_waits_for_the_rebuild(tmp_path: Path) -> None:
    """Only what becomes less public is withdrawn early: a page made public by the reload
    appears once the rebuild is swapped in, and nothing public was withdrawn meanwhile."""
    server = _server(tmp_path)
    try:
        _write_rules(server, "internal", unseen=False)
        wait_for(lambda: server.log().count(BUILT) >= 2, "the first rebuild", timeout_s=180, every_s=0.2)
        assert not _found(server, CUSTOMER_SECRET)
        _write_rules(server, "public", unseen=False)
        wait_for(lambda: server.log().count(APPLIED) >= 2, "the second reload", timeout_s=60, every_s=0.05)
        assert "withdrew 0 of" in server.log()
        wait_for(lambda: _found(server, CUSTOMER_SECRET), "the page public again", timeout_s=180, every_s=0.2)
    finally:
        server.stop()
