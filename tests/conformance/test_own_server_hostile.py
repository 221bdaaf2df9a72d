"""Our server passes its own checker on hostile pages (issue 25; CONTRACT R3): the sample
wiki plus pages whose prose shows escaped tags, entities and markup-like text, and
carries real markup of every kind. The converter keeps what the page shows literally
(an escaped ``&lt;b&gt;`` is the text ``<b>``) and drops formatting markup; the checker's
R3 — the kit's one definition of plain text — agrees."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from helpthread_kit.conformance import Status, check_url, format_text
from tests.conformance.test_own_server import CANARIES, DRAFT_CANARIES, MINIMUM_SKIPS
from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, start_provider
from tests.support import REPO_ROOT

pytestmark = pytest.mark.e2e

HOSTILE = {
    "en/hostile/escaped-tags.md": """---
title: Making a word bold with &lt;b&gt;
audience: public
---
# Zephyr formatting tags

Zephyr labels accept a little HTML: wrap a word in &lt;b&gt; to make it bold and close it
with &lt;/b&gt;, or write \\<i\\> for italics. Press `<kbd>` keys as written: \\<Enter\\>
sends, &lt;Esc&gt; cancels. Fish &amp; chips, and an escaped entity &amp;amp; reads as text.
""",
    "en/hostile/real-markup.md": """---
title: Zephyr <b>markup</b> of every kind
audience: public
---
# Zephyr markup

Zephyr prose with <b>bold tags</b>, <span class="x">spans</span>, a [zephyr link](https://x.example/z),
**strong zephyr words**, {{< note >}}a zephyr shortcode{{< /note >}}, {% if plan %}liquid{% endif %},
<!-- a hidden zephyr comment --> and entities &#x2192; &eacute; in zephyr text.
""",
}
PROBES = ("zephyr formatting tags bold", "zephyr markup bold tags spans")


def test_r3_our_server_passes_its_own_checker_on_hostile_pages(tmp_path: Path) -> None:
    """Every check passes (or is skipped as in the minimum configuration), R3 among
    them, with the hostile pages among the results it judged."""
    wiki = tmp_path / "wiki"
    shutil.copytree(REPO_ROOT / "content", wiki)
    for relpath, text in HOSTILE.items():
        (wiki / relpath).parent.mkdir(parents=True, exist_ok=True)
        (wiki / relpath).write_text(text, "utf-8")
    server = start_provider(tmp_path / "server", content=wiki)
    try:
        found = server.retrieve({"query": PROBES[0], "limit": 3}, CUSTOMER_SECRET).json()["results"]
        assert found and "<b>" in found[0]["snippet"] + found[0]["title"], found
        report = check_url(server.base_url, customer_safe_secret=CUSTOMER_SECRET, agent_only_secret=AGENT_SECRET,
                           canary_queries=CANARIES, draft_canary_queries=DRAFT_CANARIES, probe_queries=PROBES,
                           application_only=True)
    finally:
        server.stop()
    assert not report.failed, format_text(report)
    assert {o.id for o in report.outcomes if o.status is Status.SKIP} == MINIMUM_SKIPS, format_text(report)
