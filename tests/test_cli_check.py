"""``knowledge-provider check``: exit codes, the --json shape, messages an operator acts on."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from provider.cli import main
from tests.support import REPO_ROOT, write_config

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "dialects"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["check", *args], env={"KNOWLEDGE_PROVIDER_CONFIG": ""})
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("preset", ["hugo", "docusaurus", "jekyll", "mkdocs", "docfx"])
def test_clean_fixtures_exit_0(preset: str) -> None:
    code, out, _ = run("--config", str(FIXTURES / preset / "knowledge-provider.yaml"))
    assert code == 0, out
    assert "OK: nothing quarantined (exit 0)" in out
    assert f"layout {preset}" in out


def test_quarantine_exits_1_and_names_the_file_and_reason() -> None:
    code, out, _ = run("--config", str(FIXTURES / "plain" / "knowledge-provider.yaml"))
    assert code == 1
    assert "Quarantined (1):" in out
    assert "en/stray.md: <!-- /internal --> at line 6 has no opening marker" in out
    assert "FAILED: 1 quarantined (exit 1)" in out


def test_json_output(tmp_path: Path) -> None:
    code, out, _ = run("--config", str(FIXTURES / "hugo" / "knowledge-provider.yaml"), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["ok"] is True and data["checkFormat"] == 1
    assert data["settings"]["layout"] == "hugo"
    assert data["settings"]["locale_patterns"] == ["**.{locale}", "content/{locale}/**", "{locale}/**"]
    assert data["summary"]["files"] == len(data["files"])
    statuses = {f["path"]: f["status"] for f in data["files"]}
    assert statuses["content/en/docs/draft-page.md"] == "withheld"
    assert statuses["archetypes/"] == "skipped"
    tokens = next(f for f in data["files"] if f["path"] == "content/en/docs/tokens.md")
    assert tokens["internalSections"] == 1 and tokens["inPublicIndex"] is True


def test_problems_only_lists_files_with_problems() -> None:
    code, out, _ = run("--config", str(FIXTURES / "plain" / "knowledge-provider.yaml"), "--problems")
    assert code == 1
    assert "en/stray.md" in out and "en/unclosed.md" in out
    assert "  de/refunds.md" not in out  # a clean file is not listed


def test_content_option_overrides_the_file(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("---\naudience: Public\n---\nText.", "utf-8")
    code, out, _ = run("--content", str(tmp_path / "docs"))
    assert code == 1 and "a.md" in out


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"layout": "wordpress"}, "layout: must be one of plain, hugo, docusaurus, jekyll, mkdocs, docfx"),
        ({"locale_patterns": ["content/**"]}, "locale_patterns[0]: pattern 'content/**' must contain {locale}"),
        ({"content": "missing"}, "does not exist"),
        ({"capabilities": ["retrieve", "bogus"]}, "capabilities: unknown capability 'bogus'"),
    ],
)
def test_configuration_errors_exit_2(tmp_path: Path, settings: dict[str, object], message: str) -> None:
    (tmp_path / "content").mkdir()
    config = write_config(tmp_path / "kp.yaml", settings)
    code, _, err = run("--config", str(config))
    assert code == 2
    assert message in err


def test_missing_config_file_exits_2(tmp_path: Path) -> None:
    code, _, err = run("--config", str(tmp_path / "nope.yaml"))
    assert code == 2 and "does not exist" in err


def test_the_readme_ci_command_runs_as_a_process() -> None:
    """The command line docs/how-to/check.md gives for a docs repository's CI."""
    completed = subprocess.run(
        [sys.executable, "-m", "provider", "check",
         "--config", "tests/fixtures/dialects/docusaurus/knowledge-provider.yaml"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=60, check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "OK: nothing quarantined" in completed.stdout


def test_strict_fails_on_an_unused_rule_and_on_chosen_warnings(tmp_path: Path) -> None:
    """``contnet/**`` (a typo) leaves the site internal: plain check passes, --strict fails."""
    (tmp_path / "content" / "de").mkdir(parents=True)
    (tmp_path / "content" / "de" / "nur.md").write_text("# Nur Deutsch\n\nText.\n", "utf-8")
    config = tmp_path / "knowledge-provider.yaml"
    config.write_text('content: content\nlocales: [en, de]\naudience_rules:\n  - "contnet/**": public\n', "utf-8")
    assert run("--config", str(config))[0] == 0
    code, out, _ = run("--config", str(config), "--strict")
    assert code == 1 and "audience rule 'contnet/**' matches no file" in out
    config.write_text('content: content\nlocales: [en, de]\naudience_rules:\n  - "**": public\n', "utf-8")
    assert run("--config", str(config), "--strict")[0] == 0  # an orphan is only a warning...
    code, out, _ = run("--config", str(config), "--strict", "--fail-on", "orphan-translation")
    assert code == 1 and "de/nur.md: orphan-translation" in out  # ...unless the operator says so
    code, out, _ = run("--config", str(config), "--strict", "--fail-on", "orphan", "--json")
    assert code == 2


def test_fail_on_unplaced_translation_fails_the_operators_ci(tmp_path: Path) -> None:
    """Issue 24: ``goodwill-de.md`` beside ``goodwill.md`` reads as its German translation
    but the locale settings ([en]) do not place it: a warning, and with
    ``--fail-on unplaced-translation`` exit 1 naming the file (public source or not)."""
    content = tmp_path / "content"
    content.mkdir()
    (content / "goodwill.md").write_text("# Goodwill\n\nPublic goodwill policy.\n", "utf-8")
    (content / "goodwill-de.md").write_text("# Kulanz\n\nKulanzregeln auf Deutsch.\n", "utf-8")
    (content / "shipping.md").write_text("# Shipping\n\nOrders ship in two days.\n", "utf-8")
    config = tmp_path / "knowledge-provider.yaml"
    config.write_text('content: content\nlocales: [en]\naudience_rules:\n  - "**": public\n', "utf-8")
    code, out, _ = run("--config", str(config))
    assert code == 0 and "unplaced translation" in out
    code, out, _ = run("--config", str(config), "--fail-on", "unplaced-translation")
    assert code == 1 and "goodwill-de.md: unplaced-translation" in out and "shipping.md:" not in out
    code, out, _ = run("--config", str(config), "--fail-on", "unplaced-translation", "--json")
    assert code == 1 and json.loads(out)["strictFailures"] == ["goodwill-de.md: unplaced-translation"]
    (content / "goodwill-de.md").rename(content / "goodwill.de.md")  # placed: de is a configured locale
    config.write_text('content: content\nlocales: [en, de]\naudience_rules:\n  - "**": public\n', "utf-8")
    assert run("--config", str(config), "--fail-on", "unplaced-translation")[0] == 0


def test_a_reason_cut_short_in_the_table_is_said_and_wide_shows_it_in_full(tmp_path: Path) -> None:
    """An operator reads why a page is withheld: the table cuts long cells (and says so);
    ``--wide`` shows the whole reason."""
    content = tmp_path / "content"
    content.mkdir()
    (content / "a.md").write_text("# No audience key\n\nText.\n")
    _, out, _ = run("--content", str(content))
    assert "…" in out and "`check --wide` or `--json` shows them in full" in out
    _, wide, _ = run("--content", str(content), "--wide")
    row = next(line for line in wide.splitlines() if line.endswith("a.md"))
    assert "…" not in row and "shows them in full" not in wide


@pytest.mark.parametrize("preset", ["hugo", "docusaurus", "jekyll", "mkdocs", "docfx", "plain"])
def test_json_settings_show_only_the_citation_settings_of_the_layout(preset: str) -> None:
    # route_base_path is Docusaurus's routeBasePath: shown for a Starlight or Hugo site it
    # reads as if it changed their URLs.
    _, out, _ = run("--config", str(FIXTURES / preset / "knowledge-provider.yaml"), "--json")
    citation = json.loads(out)["settings"]["citation"]
    assert ("route_base_path" in citation) == (preset == "docusaurus")
    assert "docfx_base_paths" not in citation or preset == "docfx"
    assert "base_url" in citation and "path_pattern" in citation


def test_json_settings_of_starlight_have_no_route_base_path(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "a.md").write_text("# A\n\nText.\n", "utf-8")
    config = write_config(tmp_path / "kp.yaml", {"content": "site", "layout": "starlight",
                                                "audience_rules": [{"**": "public"}]})
    _, out, _ = run("--config", str(config), "--json")
    assert "route_base_path" not in json.loads(out)["settings"]["citation"]


def test_issue24_check_reads_a_fresh_checkouts_configuration_as_it_is(tmp_path: Path) -> None:
    """Issue 24: ``check`` right after ``git clone`` (every configuration file seconds old)
    reads the configuration with no hold — a one-shot reading has no earlier state to
    protect — so ``--strict`` passes, pages are public or excluded as configured, and
    nothing is said about a hold; the process's hold is as before afterwards."""
    from provider.wiki.sites.load import hold_s, set_hold_s

    site = tmp_path / "site"
    (site / "private").mkdir(parents=True)
    (site / "_config.yml").write_text("title: Docs\nexclude:\n  - private/\n", "utf-8")
    page = "---\ntitle: T\naudience: public\n---\n# {0}\n\nSome words about {0} of the product.\n"
    (site / "pub.md").write_text(page.format("refunds"), "utf-8")
    (site / "private" / "a.md").write_text(page.format("pricing"), "utf-8")
    config = write_config(tmp_path / "kp.yaml", {"content": str(site), "layout": "jekyll"})
    set_hold_s(30.0)
    try:
        result = CliRunner().invoke(main, ["check", "--config", str(config), "--strict", "--json"],
                                    env={"KNOWLEDGE_PROVIDER_CONFIG": "", "KNOWLEDGE_PROVIDER_CONFIG_HOLD_S": "30"})
        assert hold_s() == 30.0
    finally:
        set_hold_s(None)
    assert result.exit_code == 0, result.stdout
    data = json.loads(result.stdout)
    files = {f["path"]: f for f in data["files"]}
    assert files["pub.md"]["inPublicIndex"] is True and not files["pub.md"]["quarantined"], files["pub.md"]
    assert files["private/a.md"]["skipped"] == "excluded by _config.yml exclude: private/", files["private/a.md"]
    assert "hold" not in result.stdout.replace("withhold", "") and "earlier reading" not in result.stdout


def test_modules_in_the_working_directory_never_run_in_reader_processes(tmp_path: Path) -> None:
    """A docs repository the provider is started from may hold ``http.py`` or ``yaml.py``
    (a hostile author's, or a harness's): the reader processes start as ``python -c``,
    whose module path began with the working directory, so such a file ran inside them."""
    marker = tmp_path / "ran"
    for name in ("http", "yaml", "markdown_it", "whoosh"):
        (tmp_path / f"{name}.py").write_text(
            f"open({str(marker)!r}, 'a').write('{name}\\n')\nraise SystemExit(3)\n", "utf-8")
    script = Path(sys.executable).with_name("knowledge-provider")
    completed = subprocess.run([str(script), "check", "--content", str(REPO_ROOT / "content")], cwd=tmp_path,
                               capture_output=True, text=True, timeout=120, check=False)
    assert not marker.exists(), f"ran from the working directory: {marker.read_text()}"
    assert completed.returncode == 1 and "quarantined     2" in completed.stdout, completed.stdout + completed.stderr
