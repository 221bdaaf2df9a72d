"""Configuration changes while serving, on a real server process (issue 27; CONTRACT X2,
X6, X7): the file is read again when it changes or on SIGHUP; a change that makes a page
less public applies without a restart; a change that needs a restart says so, naming the
keys, and the running values stay."""

from __future__ import annotations

import shutil
import signal
from pathlib import Path

import pytest
import yaml

from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, start_provider
from tests.support import REPO_ROOT, ProviderProcess, wait_for

pytestmark = pytest.mark.e2e

DOC_ID = "en/billing/requesting-a-refund"
QUERY = "requesting a refund"


ARTICLE = "en/billing/requesting-a-refund.md"


def rule_decided_wiki(tmp_path: Path) -> Path:
    """A copy of the sample wiki in which the refund article's audience is left to an
    audience rule (its front matter line removed: rules decide where front matter does not)."""
    content = tmp_path / "source"
    shutil.copytree(REPO_ROOT / "content", content)
    article = content / ARTICLE
    text = article.read_text("utf-8")
    assert "\naudience: public\n" in text
    article.write_text(text.replace("\naudience: public\n", "\n", 1), "utf-8")
    return content


@pytest.fixture
def server(tmp_path: Path) -> ProviderProcess:
    """The sample wiki with the refund article's audience given by an audience rule."""
    content = rule_decided_wiki(tmp_path)
    started = start_provider(tmp_path / "served", content=content, config={"audience_rules": [{ARTICLE: "public"}]})
    yield started  # type: ignore[misc]
    started.stop()


def _config_path(server: ProviderProcess) -> Path:
    return server.root / "provider.yaml"


def _edit(server: ProviderProcess, **changes: object) -> None:
    path = _config_path(server)
    settings = yaml.safe_load(path.read_text("utf-8"))
    settings.update(changes)
    tmp = path.with_name(".provider.yaml.tmp")
    tmp.write_text(yaml.safe_dump(settings, sort_keys=False), "utf-8")
    tmp.replace(path)  # as an editor saves: a rename over the file


def _results(server: ProviderProcess, secret: str) -> dict[str, str]:
    reply = server.retrieve({"query": QUERY, "limit": 50}, secret)
    assert reply.status == 200, reply.body
    return {r["documentId"]: r["audience"] for r in reply.json()["results"]}


def _restart_lines(server: ProviderProcess) -> list[str]:
    return [line for line in server.log().splitlines() if "restart the provider to apply" in line]


def test_an_internal_rule_added_while_serving_withholds_the_page_from_customer_safe(server: ProviderProcess) -> None:
    """X2/X7: an audience rule written into the configuration file of a running server
    makes the page internal: customer_safe stops finding it, agent_only finds it labelled
    internal (X6) — without a restart, and the process is the same one."""
    assert _results(server, CUSTOMER_SECRET).get(DOC_ID) == "public"
    pid = server.proc.pid
    _edit(server, audience_rules=[{ARTICLE: "internal"}])
    wait_for(lambda: DOC_ID not in _results(server, CUSTOMER_SECRET), "customer_safe no longer gets the page",
             timeout_s=60, every_s=0.2)
    # customer_safe loses it at once (withdrawn ahead of the rebuild); agent_only's label
    # comes with the rebuilt index.
    wait_for(lambda: _results(server, AGENT_SECRET).get(DOC_ID) == "internal", "agent_only's label internal",
             timeout_s=60, every_s=0.2)
    assert server.proc.poll() is None and server.proc.pid == pid
    assert "applying audience_rules while serving" in server.log()
    # Once withheld, it stays withheld (no request finds it again).
    for _ in range(5):
        assert DOC_ID not in _results(server, CUSTOMER_SECRET)


def test_a_skip_rule_added_while_serving_withholds_the_page_from_everyone(server: ProviderProcess) -> None:
    """A ``skip`` rule added while serving: the page leaves both indexes (X7)."""
    assert DOC_ID in _results(server, AGENT_SECRET)
    _edit(server, audience_rules=[{ARTICLE: "public"}, {ARTICLE: "skip"}])
    wait_for(lambda: DOC_ID not in _results(server, AGENT_SECRET), "agent_only no longer gets the page",
             timeout_s=60, every_s=0.2)
    assert DOC_ID not in _results(server, CUSTOMER_SECRET)


def test_a_setting_read_at_start_only_is_named_in_one_log_line_and_the_running_value_stays(
        server: ProviderProcess) -> None:
    """Changing ``port`` (and ``max_in_flight``) in the file of a running server: one log
    line names both keys and says a restart is needed; the server keeps answering on its
    port, and an unrelated later save does not repeat the line."""
    _edit(server, port=1, max_in_flight=7)
    wait_for(lambda: bool(_restart_lines(server)), "the restart-needed line", timeout_s=30, every_s=0.2)
    lines = _restart_lines(server)
    assert len(lines) == 1, lines
    assert "port" in lines[0] and "max_in_flight" in lines[0]
    assert _results(server, CUSTOMER_SECRET)  # still served, on the running port
    _edit(server, port=1, max_in_flight=7, withhold_noindex=True)
    wait_for(lambda: "applying withhold_noindex while serving" in server.log(), "the applied change",
             timeout_s=30, every_s=0.2)
    assert len(_restart_lines(server)) == 1


def test_sighup_reads_the_file_again_and_does_not_stop_the_server(server: ProviderProcess) -> None:
    """SIGHUP (``systemctl reload``) reads the file again: the server keeps running; with a
    restart-only change pending, the line naming it is written again for the SIGHUP."""
    server.proc.send_signal(signal.SIGHUP)
    wait_for(lambda: "read again (SIGHUP): nothing changed" in server.log(), "the SIGHUP line", timeout_s=30,
             every_s=0.2)
    assert server.proc.poll() is None
    _edit(server, search_threads=3)
    wait_for(lambda: len(_restart_lines(server)) == 1, "the restart-needed line", timeout_s=30, every_s=0.2)
    server.proc.send_signal(signal.SIGHUP)
    wait_for(lambda: len(_restart_lines(server)) == 2, "the line again for SIGHUP", timeout_s=30, every_s=0.2)
    assert "search_threads" in _restart_lines(server)[-1] and "SIGHUP" in _restart_lines(server)[-1]
    assert _results(server, CUSTOMER_SECRET)
