"""provider.config: the layout and locale_patterns settings (errors name the key), and
every setting is documented in the README."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from provider.config import _KNOWN_KEYS, config_from_mapping
from provider.contract.registrations import ConfigurationError
from provider.wiki.layouts import LAYOUTS
from tests.support import REPO_ROOT


def config(**data: object) -> object:
    return config_from_mapping(data, base=Path("/srv"))


def test_layout_default_is_plain_and_each_preset_is_accepted() -> None:
    assert config().layout == "plain"  # type: ignore[attr-defined]
    for name in LAYOUTS:
        assert config(layout=name.upper()).layout == name  # type: ignore[attr-defined]


def test_locale_patterns_forms() -> None:
    parsed = config(locale_patterns=[
        "content/{locale}/**",
        {"i18n/{locale}/docusaurus-plugin-content-docs/current/**": "docs/**"},
        {"pattern": "**.{locale}", "source": None},
        {"pattern": "blog/{locale}/**"},
    ]).locale_patterns  # type: ignore[attr-defined]
    assert [p.to_config() for p in parsed] == [
        "content/{locale}/**",
        {"i18n/{locale}/docusaurus-plugin-content-docs/current/**": "docs/**"},
        "**.{locale}",
        "blog/{locale}/**",
    ]


def test_explicit_patterns_replace_the_layouts() -> None:
    settings = config(layout="hugo", locale_patterns=["docs/{locale}/**"]).wiki_settings()  # type: ignore[attr-defined]
    assert [p.pattern for p in settings.patterns] == ["docs/{locale}/**"]
    hugo = config(layout="hugo").wiki_settings()  # type: ignore[attr-defined]
    assert hugo.patterns[0].pattern == "**.{locale}"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"layout": "gatsby"}, "layout: must be one of"),
        ({"layout": 3}, "layout: must be one of"),
        ({"locale_patterns": "content/{locale}/**"}, "locale_patterns: must be a list"),
        ({"locale_patterns": []}, "locale_patterns: must be a list"),
        ({"locale_patterns": [42]}, "locale_patterns[0]: each entry is"),
        ({"locale_patterns": ["{locale}/**", "docs/**"]}, "locale_patterns[1]: pattern 'docs/**' must contain"),
        ({"locale_patterns": [{"{locale}/**": 3}]}, "locale_patterns[0]: the pattern and its source must be text"),
        ({"locale_patterns": [{"{locale}/**": "docs"}]}, "locale_patterns[0]: source 'docs' must be"),
        ({"locale_patterns": [{"a": 1, "b": 2}]}, "locale_patterns[0]: each entry is"),
    ],
)
def test_errors_name_the_key(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        config_from_mapping(data, base=Path("/srv"), source=Path("/srv/kp.yaml"))
    assert str(caught.value).startswith("/srv/kp.yaml: ")
    assert message in str(caught.value)


def test_every_setting_is_documented_in_the_readme() -> None:
    readme = (REPO_ROOT / "README.md").read_text("utf-8")
    table_keys = set(re.findall(r"^\| `([a-z_]+)` \|", readme, re.MULTILINE))
    assert set(_KNOWN_KEYS) <= table_keys, set(_KNOWN_KEYS) - table_keys
    for name in LAYOUTS:
        assert f"`{name}`" in readme, name
