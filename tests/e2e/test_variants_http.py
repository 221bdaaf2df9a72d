"""No authoring variant reaches customer_safe over real HTTP (issue 11; X2, X5).

One real server indexes a wiki made of freshly generated variants (:mod:`tests.wiki.variants`)
— headers meaning internal, internal-section syntaxes, near-copies of internal text and
cascades — and the canary word is searched with both credentials: customer_safe finds
nothing, agent_only finds it (so the variants were indexed, not skipped).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, start_provider
from tests.wiki.variants import CANARY, cascaded_internal, copied_text, internal_header, internal_section

pytestmark = pytest.mark.e2e


@settings(max_examples=1, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example])
@given(
    headers=st.lists(internal_header(), min_size=80, max_size=80),
    sections=st.lists(internal_section(), min_size=80, max_size=80),
    copies=st.lists(copied_text(), min_size=20, max_size=20),
    cascades=st.lists(cascaded_internal(), min_size=20, max_size=20),
)
def test_x2_no_generated_variant_reaches_customer_safe_over_http(
    tmp_path_factory: pytest.TempPathFactory,
    headers: list[tuple[str, str]],
    sections: list[tuple[str, str]],
    copies: list[dict[str, str]],
    cascades: list[dict[str, str]],
) -> None:
    tmp = tmp_path_factory.mktemp("variants")
    content = tmp / "wiki"
    files: dict[str, str] = {}
    files.update({f"headers/h{i}.md": text for i, (_, text) in enumerate(headers)})
    files.update({f"sections/s{i}.md": text for i, (_, text) in enumerate(sections)})
    for i, wiki in enumerate(copies):
        files.update({f"copies/c{i}/{path}": text for path, text in wiki.items()})
    for i, wiki in enumerate(cascades):
        files.update({path.replace("content/docs", f"cascades/k{i}"): text for path, text in wiki.items()})
    for relpath, text in files.items():
        path = content / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    rules = [{"copies/*/ops/**": "internal"}, {"**": "public"}]
    server = start_provider(tmp / "run", content=content, config={"layout": "hugo", "audience_rules": rules})
    try:
        for query in (CANARY, f"override {CANARY}", f"{CANARY} agents"):
            reply = server.retrieve({"query": query, "limit": 50}, CUSTOMER_SECRET)
            assert reply.status == 200
            assert reply.json()["results"] == [], query
        found = server.retrieve({"query": CANARY, "limit": 50}, AGENT_SECRET).json()["results"]
        assert len(found) >= 20, "the variants were indexed for agent_only"
    finally:
        server.stop()
