"""Reading the configuration again while serving (provider/reload.py, issue 27): which
changes apply, which wait for a restart, and what is logged. The end-to-end behaviour
on a real server (X2/X7) is tests/e2e/test_config_reload.py."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import msgspec
import pytest
import yaml

from provider.config import SETTINGS, ProviderConfig, load_config
from provider.reload import ConfigFollower, Reload, compare

#: The settings WikiSettings is made of that are read at start only: the content folder
#: (the watcher follows it), the default locale (also the worker's fallback chain) and the
#: capabilities (chunking shapes the index the workers declare capabilities for).
WIKI_AT_START = {"content", "default_locale", "capabilities"}


def _write(path: Path, settings: dict[str, object]) -> Path:
    path.write_text(yaml.safe_dump(settings, sort_keys=False), "utf-8")
    return path


def _config(tmp_path: Path, **settings: object) -> ProviderConfig:
    (tmp_path / "content").mkdir(exist_ok=True)
    return load_config(_write(tmp_path / "provider.yaml", {"content": "content", **settings}), env={})


def _wiki_keys() -> set[str]:
    """The keys whose value reaches WikiSettings: each changed to another valid value (as
    the file would write it) changes ``wiki_settings()``."""
    base = ProviderConfig(content=Path("/c"))
    other: dict[str, object] = {
        "content": "/d", "default_locale": "de", "locales": ["en", "fr"],
        "audience_rules": [{"drafts/**": "internal"}], "audience_key": "visibility",
        "audience_values": {"ITPro": "public"}, "withhold_noindex": True, "layout": "hugo",
        "locale_patterns": ["{locale}/**"], "capabilities": "all",
        "citation_base_url": "https://docs.example.com", "citation_path_pattern": "/{path}",
        "route_base_path": "guides", "internal_citation_base_url": "https://wiki.example.com",
        "docfx_base_paths": {"Exchange": "/exchange/troubleshoot"},
        "max_file_bytes": 4096, "sitemap": "https://docs.example.com/sitemap.xml", "sitemap_refresh_s": 60,
        "sitemap_max_mib": 8, "sitemap_max_urls": 1000,
        "accepted_findings": [{"path": "a.md", "finding": "near-copy", "digest": "0" * 40}],
    }
    found = set()
    for key, value in other.items():
        item = SETTINGS[key]
        changed = msgspec.structs.replace(base, **{item.attr: item.read(value, key, Path("/"))})
        if changed.wiki_settings() != base.wiki_settings():
            found.add(key)
    return found


def test_every_setting_that_shapes_reading_and_classification_is_applied_while_serving() -> None:
    """The class "a change that makes anything less public takes effect without a
    restart": every setting that reaches how the wiki is read and classified (audience
    rules and skips, audience key and values, withhold_noindex, sitemap, layout and
    locale patterns…) is reloadable, but for the three read at start only."""
    wiki = _wiki_keys()
    assert {"audience_rules", "audience_key", "audience_values", "withhold_noindex", "sitemap",
            "layout", "locale_patterns"} <= wiki
    reloadable = {key for key, item in SETTINGS.items() if item.reloadable}
    assert wiki - WIKI_AT_START <= reloadable
    # and nothing else is, but the reading timeout the writer's new indexer takes
    assert reloadable - wiki <= {"parse_timeout"}
    assert not reloadable & WIKI_AT_START


def test_compare_applies_reloadable_keys_and_keeps_the_running_value_of_the_others(tmp_path: Path) -> None:
    running = _config(tmp_path, port=8080)
    read = _config(tmp_path, port=9090, audience_rules=[{"drafts/**": "internal"}], cache_entries=5)
    found = compare(running, read)
    assert found.applied == ("audience_rules",)
    assert found.restart == ("port", "cache_entries")
    assert found.config.port == 8080 and found.config.cache_entries == running.cache_entries
    assert found.config.audience_rules == read.audience_rules


def test_a_setting_given_as_an_option_keeps_the_option_value(tmp_path: Path) -> None:
    running = _config(tmp_path).with_overrides(port=7070)
    found = compare(running, _config(tmp_path, port=9090))
    assert found.applied == () and found.restart == () and found.config.port == 7070


def _follow(config: ProviderConfig) -> tuple[ConfigFollower, list[Reload]]:
    applied: list[Reload] = []
    follower = ConfigFollower(config, applied.append, check_s=0.05)
    follower.start()
    return follower, applied


def _wait(predicate: object, timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return
        time.sleep(0.02)
    raise AssertionError("timed out")


def test_an_edited_file_is_applied_once_and_a_restart_key_logged_once(tmp_path: Path,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="provider")
    config = _config(tmp_path)
    follower, applied = _follow(config)
    try:
        _write(tmp_path / "provider.yaml", {"content": "content", "audience_rules": [{"a/**": "withhold"}],
                                            "port": 9999})
        _wait(lambda: applied)
        assert applied[0].applied == ("audience_rules",) and applied[0].restart == ("port",)
        _write(tmp_path / "provider.yaml", {"content": "content", "audience_rules": [{"a/**": "skip"}],
                                            "port": 9999})
        _wait(lambda: len(applied) == 2)
        restart = [r.getMessage() for r in caplog.records if "restart the provider" in r.getMessage()]
        assert len(restart) == 1 and "port is read at start only" in restart[0]
        assert follower.config.audience_rules == applied[1].config.audience_rules
        assert follower.config.port == config.port
    finally:
        follower.stop()


def test_an_invalid_file_changes_nothing_and_says_so(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    config = _config(tmp_path, audience_rules=[{"a/**": "internal"}])
    follower, applied = _follow(config)
    try:
        (tmp_path / "provider.yaml").write_text("audience_rules: [unclosed\n", "utf-8")
        _wait(lambda: any("not reloaded" in r.getMessage() for r in caplog.records))
        assert applied == [] and follower.config is config
    finally:
        follower.stop()


def test_sighup_without_a_file_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    follower = ConfigFollower(ProviderConfig(), lambda found: None, check_s=0.05)
    assert follower.reload("SIGHUP") is None
    assert "nothing to read again" in caplog.text
