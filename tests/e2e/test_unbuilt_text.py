"""Text the site never publishes stays out of ``customer_safe``, end to end over HTTP
(issue 24, attack a6; CONTRACT S1, X2): a real ``serve`` process, signed queries.

* Hugo with ``content:`` at the site root: a root ``README.md``, ``notes/`` and a disabled
  language's pages are not built by Hugo (provider.wiki.sites.hugo);
* a page's template logic the provider cannot evaluate (a Liquid ``{% if %}``, Hugo's
  ``comment`` shortcode) is internal text of the page; the rest of it stays public
  (provider.wiki.template_blocks).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, start_provider
from tests.support import ProviderProcess

pytestmark = pytest.mark.e2e



def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return root


def _texts(server: ProviderProcess, secret: str, query: str) -> dict[str, str]:
    reply = server.retrieve({"query": query, "limit": 50}, secret)
    assert reply.status == 200, reply.body
    return {r["documentId"]: " ".join(str(v) for v in r.values()) for r in reply.json()["results"]}


def test_s1_what_hugo_never_builds_and_commented_text_never_reach_customer_safe(tmp_path: Path) -> None:
    site = _write(tmp_path / "site", {
        "hugo.toml": ('defaultContentLanguage = "en"\n[languages.en]\ncontentDir = "content/en"\n'
                      '[languages.de]\ncontentDir = "content/de"\ndisabled = true\n'),
        "README.md": "# Repository\n\nWombat credentials live in the kiwi vault.\n",
        "notes/roadmap.md": "# Roadmap\n\nThe wombat migration ships in Q3.\n",
        "content/en/docs/reset.md": ("---\ntitle: Reset\n---\nWombat users open Settings and press Reset.\n\n"
                                     "{{% comment %}}\nThe wombat quokka datacenter closes in May.\n"
                                     "{{% /comment %}}\n\nThen wombat users sign in again.\n"),
        "content/de/docs/preise.md": "---\ntitle: Preise\n---\nWombat Tarif kostet bald 99 Euro.\n",
    })
    config = {"content": str(site), "layout": "hugo", "locales": ["en", "de"],
              "audience_rules": [{"**": "public"}]}
    server = start_provider(tmp_path / "run", content=site, config=config)
    try:
        public = _texts(server, CUSTOMER_SECRET, "wombat")
        assert set(public) == {"content/en/docs/reset"}, public
        assert "quokka" not in public["content/en/docs/reset"]
        assert "sign in again" in public["content/en/docs/reset"] or "Reset" in public["content/en/docs/reset"]
        # Files Hugo never builds are pages to nobody; the comment is dropped for agents too.
        agents = _texts(server, AGENT_SECRET, "wombat")
        assert set(agents) == {"content/en/docs/reset"}, agents
        assert not _texts(server, AGENT_SECRET, "quokka")
    finally:
        server.stop()


def test_s1_a_liquid_conditional_is_internal_text_of_a_public_page(tmp_path: Path) -> None:
    site = _write(tmp_path / "site", {
        "_config.yml": "title: Example\nshow_new_pricing: false\n",
        "docs/billing.md": ("---\ntitle: Billing\n---\nInvoices are issued monthly.\n\n{% if site.show_new_pricing %}\n"
                            "The pelican discount ends in April.\n{% endif %}\n\nCard payments are accepted.\n"),
    })
    config = {"content": str(site), "layout": "jekyll", "audience_rules": [{"**": "public"}]}
    server = start_provider(tmp_path / "run", content=site, config=config)
    try:
        assert set(_texts(server, CUSTOMER_SECRET, "invoices")) == {"docs/billing"}
        assert not _texts(server, CUSTOMER_SECRET, "pelican")
        assert set(_texts(server, AGENT_SECRET, "pelican")) == {"docs/billing"}
    finally:
        server.stop()
