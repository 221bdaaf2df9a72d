"""What an operator reads in ``knowledge-provider check`` (issue 24, CONTRACT X2): what
``customer_safe`` actually gets of each page, why a page has no citation URL, and which
class each failure of ``check --strict`` belongs to, so a CI script can fail on leaks
alone."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from provider.cli import main
from tests.support import write_config

PAGES = {
    "pub.md": "---\naudience: public\n---\n# Pub\n\nHow to send an invoice to a customer.\n",
    "part.md": ("---\naudience: public\n---\n# Part\n\nPublic text about refunds.\n\n<!-- internal -->\n"
                "Refunds above the limit go to the finance lead.\n<!-- /internal -->\n"),
    "only-internal.md": ("---\naudience: public\n---\n<!-- internal -->\nEscalate to the on-call engineer.\n"
                         "<!-- /internal -->\n"),
    "draft.md": "---\naudience: public\ndraft: true\n---\n# Coming soon\n\nA page about e-invoicing.\n",
    "staff.md": "---\naudience: internal\n---\n# Staff\n\nThe goodwill credit policy for agents.\n",
}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", *args], env={"KNOWLEDGE_PROVIDER_CONFIG": ""})
    return result.exit_code, result.stdout


def wiki(tmp_path: Path, pages: dict[str, str], **settings: object) -> Path:
    for name, text in pages.items():
        path = tmp_path / "content" / "en" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return write_config(tmp_path / "kp.yaml", {"content": "content", "locales": ["en"], **settings})


def test_the_table_says_what_customer_safe_gets_not_only_the_audience(tmp_path: Path) -> None:
    """A withheld draft and a page with no text outside internal sections keep the audience
    ``public`` their front matter gives; CUSTOMER_SAFE says customers get none of them."""
    code, out = run("--config", str(wiki(tmp_path, PAGES)))
    assert code == 0, out
    header = next(line for line in out.splitlines() if line.startswith("STATUS"))
    assert header.split() == ["STATUS", "CUSTOMER_SAFE", "AUDIENCE", "WHY", "LOCALE", "WHERE", "GROUP", "PATH"]
    rows = {line.rsplit(None, 1)[-1]: line for line in out.splitlines() if line.endswith(".md") and "  en/" in line}
    expected = {"en/pub.md": ("served", "yes", "public"), "en/part.md": ("served", "part", "public"),
                "en/only-internal.md": ("served*", "no", "public"), "en/draft.md": ("withheld", "no", "public"),
                "en/staff.md": ("served", "no", "internal")}
    for path, (status, customers, audience) in expected.items():
        assert rows[path].split()[:3] == [status, customers, audience], rows[path]
        # Aligned: every cell starts under its heading.
        assert rows[path].index(customers) == header.index("CUSTOMER_SAFE")
        assert rows[path].index(audience, header.index("AUDIENCE")) == header.index("AUDIENCE")
        assert rows[path].index(path) == header.index("PATH")
    files = {f["path"]: f for f in json.loads(run("--config", str(tmp_path / "kp.yaml"), "--json")[1])["files"]}
    assert {path: files[path]["customerSafe"] for path in expected} == {
        path: customers for path, (_, customers, _) in expected.items()}
    assert files["en/draft.md"]["fileAudience"] == "public" and files["en/draft.md"]["inPublicIndex"] is False


def test_urls_say_why_a_page_has_none_and_what_to_set(tmp_path: Path) -> None:
    config = wiki(tmp_path, {k: PAGES[k] for k in ("pub.md", "staff.md")})
    _, out = run("--config", str(config), "--urls")
    assert "  en/pub.md  (none) [1]" in out and "  en/staff.md  (none) [2]" in out
    assert "Why none has one:" in out
    assert "  [1] no citation_base_url set (set it to the public site" in out
    assert "  [2] internal: no internal_citation_base_url set" in out
    config = wiki(tmp_path, {}, citation_base_url="https://help.example.com")
    _, out = run("--config", str(config), "--urls")
    assert "  en/pub.md  https://help.example.com/pub\n" in out
    assert "Why some have none:\n  [1] internal: no internal_citation_base_url set" in out
    files = {f["path"]: f for f in json.loads(run("--config", str(config), "--json")[1])["files"]}
    assert files["en/pub.md"]["urlMissing"] is None
    assert files["en/staff.md"]["urlMissing"].startswith("internal: no internal_citation_base_url set")


def test_strict_failures_carry_a_class_so_a_leak_is_not_masked(tmp_path: Path) -> None:
    """A heading finding on an internal page is a notice; the same heading on a page its
    rules publish is a leak risk. Both fail --strict (exit 1), and --json tells them apart."""
    heading = "\n## Internal notes\n\nCall the finance lead before refunding.\n"
    config = wiki(tmp_path, {"staff.md": PAGES["staff.md"] + heading, "pub.md": PAGES["pub.md"]},
                  audience_rules=[{"en/archive/**": "internal"}, {"en/typo/**": "public"}])
    code, out = run("--config", str(config), "--strict", "--json")
    data = json.loads(out)
    assert code == 1
    assert data["failureClasses"] == {"leak-risk": 1, "withheld": 1, "quarantined": 0, "notice": 1}
    by_path = {(f["path"], f["class"]) for f in data["failures"]}
    assert ("en/staff.md", "notice") in by_path
    rules = {f["message"]: f["class"] for f in data["failures"] if f["kinds"] == ["unused-rule"]}
    # A withholding rule that matches nothing may leave pages public; a publishing one, internal.
    assert rules == {"audience rule 'en/archive/**' matches no file": "leak-risk",
                     "audience rule 'en/typo/**' matches no file": "withheld"}
    (tmp_path / "content" / "en" / "pub.md").write_text(PAGES["pub.md"] + heading, "utf-8")
    code, out = run("--config", str(config), "--strict")
    assert code == 1
    assert "[leak-risk] en/pub.md: heuristic finding hiding-heading at line 8" in out
    assert "[notice] en/staff.md: heuristic finding hiding-heading at line 4" in out
    assert "Failures by class (`check --json` lists each under failures[]):\n  leak-risk       2" in out
    assert "\n  notice          1" in out


def test_a_plain_check_lists_quarantined_files_under_their_class(tmp_path: Path) -> None:
    code, out = run("--config", str(wiki(tmp_path, {"bad.md": "---\naudience: Public\n---\nText.\n"})), "--json")
    data = json.loads(out)
    assert code == 1 and "strictFailures" not in data
    assert data["failureClasses"] == {"leak-risk": 0, "withheld": 0, "quarantined": 1, "notice": 0}
    assert data["failures"][0]["path"] == "en/bad.md" and data["failures"][0]["kinds"] == ["quarantined"]


def test_a_finding_on_a_page_a_cascade_publishes_is_a_leak_risk(tmp_path: Path) -> None:
    """The page has no audience of its own (internal by default at first); its section's
    cascade makes it public, so a hiding heading in it is a leak risk, not a notice."""
    docs = tmp_path / "site" / "content" / "docs"
    docs.mkdir(parents=True)
    (docs / "_index.md").write_text("---\ntitle: Docs\ncascade:\n  audience: public\n---\nAll the docs.\n", "utf-8")
    (docs / "refunds.md").write_text("---\ntitle: Refunds\n---\nHow refunds work.\n\n## Internal notes\n\n"
                                     "Call the finance lead first.\n", "utf-8")
    config = write_config(tmp_path / "kp.yaml", {"content": "site", "layout": "hugo"})
    code, out = run("--config", str(config), "--strict", "--json")
    data = json.loads(out)
    entry = next(f for f in data["files"] if f["path"] == "content/docs/refunds.md")
    assert (entry["fileAudience"], entry["fileAudienceSource"]) == ("public", "cascade from content/docs/_index.md")
    assert code == 1 and [(f["class"], f["path"]) for f in data["failures"]] == [
        ("leak-risk", "content/docs/refunds.md")]


def test_check_says_when_no_sitemap_proves_what_the_site_publishes(tmp_path: Path) -> None:
    """Issue 24: without a sitemap, what is public rests on the rules alone — `check` says so
    and names the setting; with one, it does not."""
    _, out = run("--config", str(wiki(tmp_path, {"pub.md": PAGES["pub.md"]})))
    assert "Sitemap: none given" in out and "`sitemap:`" in out
    (tmp_path / "sitemap.xml").write_text(
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>https://docs.example.com/en/pub/</loc></url></urlset>", "utf-8")
    config = write_config(tmp_path / "kp.yaml", {"content": "content", "locales": ["en"], "sitemap": "sitemap.xml",
                                                 "citation_base_url": "https://docs.example.com"})
    _, out = run("--config", str(config))
    assert "Sitemap: none given" not in out and "sitemap URLs" in out, out
