"""``knowledge-provider check`` with a sitemap, and citation URLs (``--urls``, ``--json``):
a wrong URL pattern shows up before serving (issue 24; CONTRACT X2)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpthread_kit.registrations import ConfigurationError
from provider.cli import main
from provider.config import config_from_mapping
from tests.support import write_config
from tests.wiki.test_sitemap import BOMB, urlset

BASE = "https://help.example.com"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", *args], env={"KNOWLEDGE_PROVIDER_CONFIG": ""})
    return result.exit_code, result.stdout


def site(tmp_path: Path, sitemap: str | None, **more: object) -> Path:
    docs = tmp_path / "content" / "docs"
    docs.mkdir(parents=True)
    for name in ("index", "install", "usage", "draft-notes"):
        (docs / f"{name}.md").write_text(f"# {name.title()}\n\nText about {name}.\n", "utf-8")
    (docs / "internal.md").write_text("---\naudience: internal\n---\n# Internal\n\nText.\n", "utf-8")
    if sitemap is not None:
        (tmp_path / "site").mkdir()
        (tmp_path / "site" / "sitemap.xml").write_text(sitemap, "utf-8")
    return write_config(tmp_path / "kp.yaml", {"layout": "mkdocs", "citation_base_url": BASE,
                                               "audience_rules": [{"**": "public"}],
                                               "sitemap": "site/sitemap.xml", **more})


def test_check_lists_pages_off_the_site_with_the_reason(tmp_path: Path) -> None:
    config = site(tmp_path, urlset(f"{BASE}/", f"{BASE}/install/", f"{BASE}/en/usage/", f"{BASE}/about/"))
    code, out = run("--config", str(config))
    assert code == 0, out
    assert "Sitemap: 4 published URLs from 1 file(s)" in out
    assert "Withheld from customer_safe by the sitemap (2; agents keep them):" in out
    assert (f"docs/usage.md: not on the site (sitemap): URL pattern produces {BASE}/usage/, the site has "
            f"{BASE}/en/usage/") in out
    assert f"docs/draft-notes.md: not on the site (sitemap): {BASE}/draft-notes/" in out
    assert "docs/internal.md: not on the site" not in out  # internal by its own rules, not by the sitemap
    assert "Sitemap URLs no document produces (2;" in out and f"  {BASE}/about/" in out
    assert re.search(r"public by rules, not on site +2\n", out)
    assert "1  not on the site (sitemap)\n" in out


def test_a_withheld_page_on_the_site_is_no_sign_of_a_wrong_url_pattern(tmp_path: Path) -> None:
    """A page the site publishes but we withhold (here: no text to serve, a mkdocstrings
    stub) is not listed among the sitemap URLs no document produces: that list is read as
    a sign of a wrong URL pattern (issue 24, operator trial)."""
    config = site(tmp_path, urlset(f"{BASE}/", f"{BASE}/install/", f"{BASE}/ref/agent/"))
    (tmp_path / "content" / "docs" / "ref").mkdir()
    (tmp_path / "content" / "docs" / "ref" / "agent.md").write_text("# Agents\n\n::: agents.agent\n", "utf-8")
    _, out = run("--config", str(config), "--json")
    data = json.loads(out)
    stub = {f["path"]: f for f in data["files"]}["docs/ref/agent.md"]
    assert stub["inPublicIndex"] is False and "no text to serve" in json.dumps(stub)
    assert f"{BASE}/ref/agent/" not in data["summary"]["sitemap"]["siteUrlsWithoutDocumentTop"]
    assert data["summary"]["sitemap"]["siteUrlsWithoutDocument"] == 0


def test_check_json_has_urls_and_the_sitemap_summary(tmp_path: Path) -> None:
    config = site(tmp_path, urlset(f"{BASE}/", f"{BASE}/install/", f"{BASE}/en/usage/"))
    code, out = run("--config", str(config), "--json")
    assert code == 0
    data = json.loads(out)
    files = {f["path"]: f for f in data["files"]}
    assert files["docs/install.md"]["url"] == f"{BASE}/install/"
    assert files["docs/install.md"]["inPublicIndex"] is True and files["docs/install.md"]["offSite"] is None
    assert files["docs/usage.md"]["offSite"] == "url-pattern" and files["docs/usage.md"]["inPublicIndex"] is False
    assert files["docs/usage.md"]["audience"] == "internal"
    summary = data["summary"]["sitemap"]
    assert summary["publicByRulesNotOnSite"] == 2
    assert summary["byReason"] == {
        "not on the site (sitemap)": 1,
        "not on the site (sitemap), a near URL is: the URL pattern may be wrong": 1,
        "no citation URL to look up in the sitemap": 0,
        "the sitemap has never been read": 0,
        "on the site only under a URL another document shares: cannot tell which is published": 0,
        "its URL is a page the site generates (tags, archives, pagination, search)": 0,  # issue 24
    }
    assert summary["siteUrlsWithoutDocument"] == 1 and summary["siteUrlsWithoutDocumentTop"] == [f"{BASE}/en/usage/"]
    assert data["sitemap"]["urls"] == 3 and data["sitemap"]["error"] is None


def test_check_with_an_unreadable_sitemap_says_so_and_nothing_is_public(tmp_path: Path) -> None:
    config = site(tmp_path, BOMB)
    code, out = run("--config", str(config))
    assert "Sitemap: cannot be read: sitemap" in out and "declares XML entities" in out
    assert re.search(r"in the public index +0\n", out)
    code, out = run("--config", str(config), "--strict", "--fail-on", "not-on-site")
    assert code == 1 and "docs/install.md: not-on-site" in out


def test_check_urls_lists_citation_urls(tmp_path: Path) -> None:
    config = site(tmp_path, urlset(f"{BASE}/install/"))
    _, out = run("--config", str(config), "--urls")
    assert "Citation URLs:" in out
    assert f"  docs/install.md  {BASE}/install/" in out
    assert "  docs/internal.md  (none)" in out  # no internal_citation_base_url


@pytest.mark.parametrize(("data", "message"), [
    ({"sitemap": 3}, "sitemap: must be a sitemap file"),
    ({"sitemap": []}, "sitemap: must be a sitemap file"),
    ({"sitemap": "http://example.com/sitemap.xml"}, "sitemap: 'http://example.com/sitemap.xml' must be an https URL"),
    ({"sitemap": "https://user@example.com/s.xml"}, "no user information"),
    ({"sitemap_refresh_s": 0}, "sitemap_refresh_s: must be seconds from 1 to 86400"),
    ({"sitemap_refresh_s": True}, "sitemap_refresh_s: must be seconds"),
])
def test_config_errors_name_the_key(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigurationError, match=r"^/srv/kp\.yaml: ") as caught:
        config_from_mapping(data, base=Path("/srv"), source=Path("/srv/kp.yaml"))
    assert message in str(caught.value)


def test_config_paths_are_relative_to_the_file_and_urls_kept() -> None:
    config = config_from_mapping({"sitemap": ["site/sitemap.xml", "https://ex.com/fr/sitemap.xml"],
                                  "sitemap_refresh_s": 60}, base=Path("/srv"), source=Path("/srv/kp.yaml"))
    assert config.sitemap == ("/srv/site/sitemap.xml", "https://ex.com/fr/sitemap.xml")
    settings = config.wiki_settings()
    assert settings.sitemap == config.sitemap and settings.sitemap_refresh_s == 60.0
    assert settings.describe()["sitemap"] == list(config.sitemap)
    assert "sitemap" not in config_from_mapping({}, base=Path("/srv")).wiki_settings().describe()


@pytest.mark.parametrize(
    ("sitemap", "base", "message"),
    [
        (None, BASE, "the sitemap cannot be read, so nothing is public"),
        (BOMB, BASE, "the sitemap cannot be read, so nothing is public"),
        # A base URL one segment short: no page's URL is on the site.
        ("urlset", "https://help.example.com/product", "the sitemap matches none of the 4 pages the rules make public"),
    ],
)
def test_x2_check_fails_when_the_sitemap_leaves_customers_nothing(
        tmp_path: Path, sitemap: str | None, base: str, message: str) -> None:
    """An operator's CI gate must not pass a provider whose customer_safe index is empty
    because of the sitemap: exit 1, one verdict naming why (never OK, then STRICT)."""
    text = urlset(f"{BASE}/", f"{BASE}/install/", f"{BASE}/usage/", f"{BASE}/draft-notes/") if sitemap == "urlset" \
        else sitemap
    config = site(tmp_path, text, citation_base_url=base)
    code, out = run("--config", str(config), "--strict")
    assert code == 1, out
    assert message in out
    assert "OK:" not in out


def test_check_json_lists_every_site_url_without_a_document(tmp_path: Path) -> None:
    """Operator trial (issue 24): ``--json`` listed only the first 10 sitemap URLs no
    document produces; it lists them all (the text shortens with a count)."""
    extra = [f"{BASE}/old/{n:02}/" for n in range(25)]
    config = site(tmp_path, urlset(f"{BASE}/", f"{BASE}/install/", f"{BASE}/usage/", *extra))
    _, out = run("--config", str(config), "--json")
    data = json.loads(out)
    assert data["sitemap"]["urlsWithoutDocument"] == sorted(extra)
    assert data["summary"]["sitemap"]["siteUrlsWithoutDocument"] == 25
    _, text = run("--config", str(config))
    assert "… and 15 more (--json lists them all)" in text


def test_check_summary_breaks_withheld_down_by_reason(tmp_path: Path) -> None:
    """Operator trial (issue 24): the summary's withheld count is broken down by the kind
    of reason, in the text and in ``--json``; the kinds add up to the count."""
    config = site(tmp_path, None)
    docs = tmp_path / "content" / "docs"
    (docs / "ref").mkdir()
    (docs / "ref" / "agent.md").write_text("# Agents\n\n::: agents.agent\n", "utf-8")
    (docs / "old.md").write_text('# Old\n\n<script>window.location.replace("../new/")</script>\n\nMoved.\n', "utf-8")
    (docs / "wip.md").write_text("---\ndraft: true\n---\n# WIP\n\nSoon.\n", "utf-8")
    (tmp_path / "kp.yaml").write_text((tmp_path / "kp.yaml").read_text("utf-8").replace(
        "sitemap: site/sitemap.xml", ""), "utf-8")
    _, out = run("--config", str(config), "--json")
    summary = json.loads(out)["summary"]
    assert summary["withheldByReason"]["no text to serve (generated or bare title)"] == 1
    assert summary["withheldByReason"]["redirect stubs"] == 1
    assert sum(summary["withheldByReason"].values()) == summary["withheld"]
    _, text = run("--config", str(config))
    assert re.search(r"withheld \(served to nobody\) +3\n(?: +1  .+\n){3}", text), text
    assert "    1  redirect stubs\n" in text


def jekyll_site(tmp_path: Path, *listed: str, index_audience: str = "public") -> Path:
    """The attacker's wiki of issue 24 L1: Jekyll builds ``a.md`` to ``/a.html`` and
    ``a/index.md`` to ``/a/``, two files of the site."""
    root = tmp_path / "content"
    (root / "a").mkdir(parents=True)
    (root / "_config.yml").write_text("exclude: [site]\n", "utf-8")
    (root / "a.md").write_text("---\ntitle: Alpha page\nid: alpha-old\n---\nAlpha text about zebras.\n", "utf-8")
    (root / "a" / "index.md").write_text(f"---\ntitle: Alpha index\naudience: {index_audience}\n---\n"
                                         "Alpha index text about giraffes.\n", "utf-8")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitemap.xml").write_text(urlset(*listed), "utf-8")
    return write_config(tmp_path / "kp.yaml", {"content": "content", "layout": "jekyll", "citation_base_url": BASE,
                                               "audience_rules": [{"**": "public"}], "sitemap": "site/sitemap.xml"})


def _files(config: Path) -> dict[str, dict[str, object]]:
    code, out = run("--config", str(config), "--json")
    assert code in (0, 1), out
    return {f["path"]: f for f in json.loads(out)["files"]}


@pytest.mark.parametrize("listed", [f"{BASE}/a/", f"{BASE}/a/index.html", f"{BASE}/a", "http://help.example.com/a/",
                                    f"{BASE}/a/#top"])
def test_x2_a_folder_url_on_the_site_does_not_publish_the_file_of_that_name(tmp_path: Path, listed: str) -> None:
    """Issue 24 L1: the sitemap lists only ``/a/`` (a/index.md); ``a.md`` (``/a.html``) is
    not on the site, whatever spelling of the folder the sitemap uses."""
    files = _files(jekyll_site(tmp_path, listed))
    assert files["a.md"]["audience"] == "internal" and files["a.md"]["offSite"] == "url-pattern"
    assert files["a/index.md"]["audience"] == "public"  # balance: the page the site lists stays public


def test_x2_a_file_url_on_the_site_does_not_publish_the_folder_of_that_name(tmp_path: Path) -> None:
    files = _files(jekyll_site(tmp_path, f"{BASE}/a.html"))
    assert files["a.md"]["audience"] == "public"
    assert files["a/index.md"]["audience"] == "internal" and files["a/index.md"]["offSite"] == "url-pattern"


def test_x2_a_site_listing_both_publishes_both(tmp_path: Path) -> None:
    """Balance: a Jekyll site with ``a.html`` and ``a/index.html`` publishes both pages."""
    files = _files(jekyll_site(tmp_path, f"{BASE}/a.html", f"{BASE}/a/"))
    assert files["a.md"]["audience"] == "public" and files["a/index.md"]["audience"] == "public"


@pytest.mark.parametrize("config_js", [
    "module.exports = { presets: [['classic', { docs: { exclude: ['**/old/**'] } }]] };\n",
    "const opts = require('./opts');\nmodule.exports = { presets: [['classic', { docs: opts }]] };\n",
])
def test_issue24_strict_passes_on_docusaurus_when_the_sitemap_settles_its_config(
    tmp_path: Path, config_js: str,
) -> None:
    """Issue 24 L3: a docusaurus.config.js the provider cannot run (an ``exclude``, options
    that are not a literal) is settled by a configured sitemap — the ground truth of what
    was published, exclusions included: ``check --strict`` passes, the finding is shown as
    settled, and a page the config excludes is withheld because the sitemap lacks it.
    Without a sitemap the same site still fails."""
    root = tmp_path / "content"
    for rel, text in {"docusaurus.config.js": config_js, "docs/intro.md": "# Intro\n\nText.\n",
                      "docs/old/x.md": "# Old\n\nOld text.\n"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")
    (tmp_path / "sitemap.xml").write_text(urlset(f"{BASE}/docs/intro"), "utf-8")
    settings = {"layout": "docusaurus", "citation_base_url": BASE, "audience_rules": [{"**": "public"}]}
    with_sitemap = write_config(tmp_path / "kp.yaml", {**settings, "sitemap": "sitemap.xml"})
    code, out = run("--config", str(with_sitemap), "--strict")
    assert code == 0, out
    assert "settled by the sitemap" in out and "FAILED" not in out
    code, out = run("--config", str(with_sitemap), "--json")
    data = json.loads(out)
    assert data["ok"] and all(f["settledBySitemap"] for f in data["site"]["findings"])
    files = {f["path"]: f for f in data["files"]}
    assert files["docs/intro.md"]["inPublicIndex"] and not files["docs/old/x.md"]["inPublicIndex"]
    without = write_config(tmp_path / "kp2.yaml", settings)
    code, out = run("--config", str(without), "--strict")
    assert code == 1 and "not understood" in out
