"""Issue 24, attack a6 hs: a sitemap URL that a non-markdown source of the site produces
(Hugo ``static/``, a Jekyll ``.html`` page) is not proof of publication for a markdown
document that claims it by front matter (provider.wiki.static_pages, site_gate)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.audience import AudienceRule
from provider.wiki.check import check_wiki
from provider.wiki.citations import CitationSettings
from provider.wiki.document import WikiSettings
from tests.wiki.test_sitemap import urlset

BASE = "https://docs.example.com"
_SITES = itertools.count()


def _site(tmp_path: Path, layout: str, slug: str, form: str) -> tuple[WikiSettings, str, str]:
    root = tmp_path / f"s{next(_SITES)}"
    url = f"/{slug}/" if form == "folder" else f"/{slug}.html"
    static = f"{slug}/index.html" if form == "folder" else f"{slug}.html"
    if layout == "hugo":
        files = {"hugo.toml": "title = 'x'\n", f"static/{static}": "<html>Prices: 10 euros.</html>",
                 "content/docs/claim.md": f"---\ntitle: Claim\nurl: {url}\n---\nNew prices from 2027: 99 euros.\n",
                 "content/docs/reset.md": "---\ntitle: Reset\n---\nOpen Settings and press Reset.\n"}
        claim, ok = "content/docs/claim.md", "content/docs/reset.md"
        ok_url = "/docs/reset/"
    else:
        files = {"_config.yml": "title: x\n", static: "<html>Prices: 10 euros.</html>",
                 "docs/claim.md": f"---\ntitle: Claim\npermalink: {url}\n---\nNew prices from 2027: 99 euros.\n",
                 "docs/reset.md": "---\ntitle: Reset\n---\nOpen Settings and press Reset.\n"}
        claim, ok = "docs/claim.md", "docs/reset.md"
        ok_url = "/docs/reset.html"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")
    sitemap = root / "sitemap.xml"
    sitemap.write_text(urlset(f"{BASE}{url}", f"{BASE}{ok_url}", f"{BASE}/docs/reset/"), "utf-8")
    wiki = WikiSettings(root=root, layout=layout, audience_rules=(AudienceRule("**", "public"),),
                        citation=CitationSettings(base_url=BASE), sitemap=(str(sitemap),))
    return wiki, claim, ok


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layout=st.sampled_from(["hugo", "jekyll"]), slug=st.text("abcdefgh", min_size=1, max_size=8),
       form=st.sampled_from(["folder", "file"]))
def test_a_document_claiming_a_static_pages_url_is_not_proved_published(
    tmp_path: Path, layout: str, slug: str, form: str
) -> None:
    wiki, claim, ok = _site(tmp_path, layout, slug, form)
    files = {e.path: e for e in check_wiki(wiki).files}
    entry = files[claim]
    assert entry.resolved is not None and entry.resolved.withheld is None
    assert entry.resolved.audience != "public"
    if layout == "hugo":  # Jekyll citation URLs follow the file path: there the claim is simply off the site
        assert "not a markdown document" in " ".join([*entry.reasons, entry.resolved.audience_source or ""])
    kept = files[ok].resolved
    assert kept is not None and kept.audience == "public"


@pytest.mark.parametrize("layout", ["hugo", "jekyll"])
def test_a6_hs_shape(tmp_path: Path, layout: str) -> None:
    wiki, claim, _ = _site(tmp_path, layout, "pricing", "folder")
    resolved = next(e for e in check_wiki(wiki).files if e.path == claim).resolved
    assert resolved is not None and resolved.audience != "public"
