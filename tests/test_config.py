"""provider.config: the layout and locale_patterns settings (errors name the key), and
every setting is explained in the docs (docs/how-to/configure.md)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpthread_kit.registrations import ConfigurationError
from provider.config import SETTINGS, config_from_mapping, load_config
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


def test_every_setting_is_explained_in_the_configuration_how_to() -> None:
    """The hand-written table of docs/how-to/configure.md explains every key in context
    (the generated reference page lists them with defaults: tests/test_reference_docs.py)."""
    page = (REPO_ROOT / "docs" / "how-to" / "configure.md").read_text("utf-8")
    table_keys = set(re.findall(r"^\| `([a-z_]+)` \|", page, re.MULTILINE))
    assert set(SETTINGS) <= table_keys, set(SETTINGS) - table_keys
    for name in LAYOUTS:
        assert f"`{name}`" in page, name


def test_fallback_chain_ends_with_the_default_locale() -> None:
    """Q4: the operator's chain in order, canonicalised, the default locale always last."""
    assert config().fallback_chain == ("en",)  # type: ignore[attr-defined]
    chain = config(default_locale="en", fallback_locales=["DE_at", "fr", "en", "fr"]).fallback_chain  # type: ignore[attr-defined]
    assert chain == ("de-AT", "fr", "en")


def test_citation_settings_are_validated_and_reach_the_wiki_settings() -> None:
    settings = config(citation_base_url="https://help.example.com/", citation_path_pattern="/{locale}/{path}/",
                      internal_citation_base_url="https://wiki.example.internal").wiki_settings()  # type: ignore[attr-defined]
    assert settings.citation.base_url == "https://help.example.com"
    assert settings.citation.path_pattern == "/{locale}/{path}/"
    assert settings.citation.internal_base_url == "https://wiki.example.internal"


def test_chunking_follows_the_configured_capabilities() -> None:
    assert not config().wiki_settings().chunking  # type: ignore[attr-defined]
    assert config(capabilities="all").wiki_settings().chunking  # type: ignore[attr-defined]
    assert config(capabilities=["chunking"]).wiki_settings().chunking  # type: ignore[attr-defined]
    assert not config(capabilities=["scoring", "locale"]).wiki_settings().chunking  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"fallback_locales": "de"}, "fallback_locales: must be a list"),
        ({"fallback_locales": ["de", "not a tag"]}, "fallback_locales: 'not a tag' is not a BCP 47"),
        ({"citation_base_url": "http://help.example.com"}, "citation_base_url: 'http://help.example.com' must be"),
        ({"citation_base_url": "https://user:pw@help.example.com"}, "citation_base_url:"),
        ({"citation_base_url": "help.example.com"}, "citation_base_url:"),
        ({"citation_base_url": "https://help.example.com/?a=1"}, "must not have a query or fragment"),
        ({"citation_base_url": 42}, "citation_base_url: must be an https URL"),
        ({"internal_citation_base_url": "ftp://wiki"}, "internal_citation_base_url:"),
        ({"citation_path_pattern": "{path}"}, "citation_path_pattern: '{path}' must start with /"),
        ({"citation_path_pattern": "/{lang}/{path}"}, "unknown placeholder {lang}"),
        ({"citation_path_pattern": "/{path"}, "citation_path_pattern:"),
    ],
)
def test_new_setting_errors_name_the_key(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        config_from_mapping(data, base=Path("/srv"), source=Path("/srv/kp.yaml"))
    assert message in str(caught.value)


def test_the_sample_configuration_and_its_commented_full_configuration_are_valid() -> None:
    """The shipped knowledge-provider.yaml stays minimum (C2); its commented example of the
    full configuration parses once uncommented."""
    import yaml

    text = (REPO_ROOT / "knowledge-provider.yaml").read_text("utf-8")
    plain = config_from_mapping(yaml.safe_load(text), base=REPO_ROOT)
    assert plain.capabilities == "minimum"
    example = [line[2:] for line in text.splitlines() if re.match(r"# [a-z_]+: ", line)]
    data = {**yaml.safe_load(text), **yaml.safe_load("\n".join(example))}
    full = config_from_mapping(data, base=REPO_ROOT)
    assert full.capabilities == "all" and full.citation.base_url == "https://help.example.com"
    assert full.fallback_chain == ("en",) and full.wiki_settings().chunking


def test_every_setting_is_declared_whole_and_reads_its_own_default() -> None:
    """One declaration per setting: help, what it expects, a default that the file form
    of the default gives back (so the reference page's defaults are values the file accepts)."""
    import msgspec

    for key, item in SETTINGS.items():
        assert item.help and item.expects and item.default_text, key
        if item.default in (None, ()) or item.path:
            continue
        written = msgspec.json.decode(msgspec.json.encode(item.default))  # as YAML would give it
        assert getattr(config(**{key: written}), item.attr) == item.default, key


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"port": "8080"}, "port: must be a whole number from 1 to 65535"),
        ({"poll": "yes"}, "poll: must be true or false"),
        ({"log_format": "xml"}, "log_format: must be plain or json"),
        ({"reconcile_interval": -1}, "reconcile_interval: must be seconds"),
        ({"parse_timeout": 0}, "parse_timeout: must be a whole number from 1 to 600"),
        ({"replay_store": "postgres://x"},
         "replay_store: must be memory, sqlite, sqlite:///path or redis://host:port/db, not 'postgres://x'"),
        ({"host": ""}, "host: must be an address"),
        ({"locales": "en"}, "locales: must be a list of BCP 47 tags"),
        ({"locale": ["en"]}, "unknown setting 'locale'; did you mean 'locales'?"),
    ],
)
def test_each_setting_is_checked_and_named(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigurationError, match=re.escape(message)):
        config_from_mapping(data, base=Path("/srv"), source=Path("/srv/kp.yaml"))


def test_a_setting_given_on_the_command_line_is_blamed_on_the_option() -> None:
    config = config_from_mapping({}, base=Path("/srv"), source=Path("/srv/kp.yaml")).with_overrides(
        workers=2, replay_store="memory")
    with pytest.raises(ConfigurationError, match=r"^--replay-store: memory cannot be shared"):
        config.check_serving()


def test_invalid_yaml_names_the_file_at_every_position(tmp_path: Path) -> None:
    from provider.config import load_config

    path = tmp_path / "kp.yaml"
    path.write_text("content: [docs\nport: 8080\n", "utf-8")
    with pytest.raises(ConfigurationError) as caught:
        load_config(path)
    message = str(caught.value)
    assert "is not valid YAML" in message and "<unicode string>" not in message
    assert f'in "{path}", line' in message


def test_parse_timeout_reaches_the_reader(tmp_path: Path) -> None:
    """X7: an operator can bound how long a pathological file holds up a batch."""
    from provider.indexing import Indexer
    from provider.search.layout import IndexLayout

    config = config_from_mapping({"parse_timeout": 5}, base=tmp_path)
    assert config.parse_timeout_s == 5
    indexer = Indexer(config.wiki_settings(), IndexLayout(tmp_path / "ix"), parse_timeout_s=config.parse_timeout_s)
    assert indexer.reader.timeout_s == 5


@pytest.mark.parametrize("text", ["locales: [en, no]", "locales: [en, NO, de]", "default_locale: no",
                                  "fallback_locales: [no, en]", "locales: [en, yes]", "locales: [off]"])
def test_an_unquoted_yaml_boolean_in_a_locale_says_quote_it(tmp_path: Path, text: str) -> None:
    """PyYAML reads `no` (Norwegian) as false: the error says so and how to fix it."""
    path = tmp_path / "kp.yaml"
    path.write_text(text + "\n", "utf-8")
    with pytest.raises(ConfigurationError) as caught:
        load_config(path)
    assert "quote it" in str(caught.value) and text.split(":")[0] in str(caught.value)
    if "yes" not in text and "off" not in text:
        path.write_text(text.replace("no", '"no"').replace("NO", '"NO"') + "\n", "utf-8")
        loaded = load_config(path)  # quoted, it is Norwegian
        assert "no" in (*loaded.locales, *(loaded.fallback_locales or ()))


@pytest.mark.parametrize("command", [["serve"], ["index"], ["check"]])
def test_a_configuration_error_exits_2_from_every_command(tmp_path: Path, command: list[str]) -> None:
    """Documented (docs/how-to/run.md): 2 = unusable configuration, the same for check, serve and index."""
    (tmp_path / "content").mkdir()
    config = tmp_path / "kp.yaml"
    config.write_text("locales: [en, no]\n", "utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("KNOWLEDGE_PROVIDER_")}
    env["KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET"] = "cs-test-secret-0123456789-abcdefghijklmnop"
    result = subprocess.run([sys.executable, "-m", "provider", *command, "--config", str(config)],
                            capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path, check=False)
    assert result.returncode == 2, result.stderr
    assert "quote it" in result.stderr and "Traceback" not in result.stderr


def test_an_error_names_the_file_the_key_what_it_must_be_and_what_was_given() -> None:
    with pytest.raises(ConfigurationError) as caught:
        config_from_mapping({"port": "8080"}, base=Path("/srv"), source=Path("/srv/kp.yaml"))
    assert str(caught.value) == "/srv/kp.yaml: port: must be a whole number from 1 to 65535, not '8080'"
    with pytest.raises(ConfigurationError, match=r"^/srv/kp.yaml: log_level: must be debug, info, warning or error"):
        config_from_mapping({"log_level": "loud"}, base=Path("/srv"), source=Path("/srv/kp.yaml"))
    assert config(log_level="WARNING").log_level == "warning"  # type: ignore[attr-defined]


def test_the_workers_get_the_parents_settings_exactly(tmp_path: Path) -> None:
    """``serve`` hands its validated settings to the worker processes as the model's own
    JSON: every field, rich ones included, comes back equal — and a file edited meanwhile
    cannot make a worker serve with other settings than the index writer."""
    from provider.config import ProviderConfig

    data = {
        "layout": "docusaurus", "locales": ["en", "de"], "capabilities": ["chunking", "locale"],
        "audience_rules": [{"docs/**": "public"}, {"docs/secret/**": "withhold"}],
        "audience_values": {"ITPro": "public"},
        "locale_patterns": ["content/{locale}/**", {"i18n/{locale}/**": "docs/**"}],
        "citation_base_url": "https://help.example.com", "route_base_path": "/", "sitemap": ["site/sitemap.xml"],
        "accepted_findings": [{"path": "a.md", "finding": "would-be-marker", "digest": "0" * 40}],
        "reconcile_interval": 12, "parse_timeout": 5, "ssl_certfile": "c.pem", "ssl_keyfile": "k.pem", "workers": 2,
    }
    parent = config_from_mapping(data, base=tmp_path, source=tmp_path / "kp.yaml").with_overrides(port=9000)
    worker = ProviderConfig.from_json(parent.to_json())
    assert worker == parent
    assert worker.wiki_settings().describe() == parent.wiki_settings().describe()
    assert worker.overridden == {"port"} and worker.source == tmp_path / "kp.yaml"


def test_a_setting_with_a_variable_is_read_from_the_environment(tmp_path: Path) -> None:
    """$KNOWLEDGE_PROVIDER_POLL turns ``poll`` on (any value but 0/false/no/off); a "no"
    leaves the file's value, as before the setting declared its variable."""
    from provider.config import POLL_ENV

    assert load_config(None, env={POLL_ENV: "1"}, cwd=tmp_path).poll
    assert not load_config(None, env={POLL_ENV: "off"}, cwd=tmp_path).poll
    path = tmp_path / "kp.yaml"
    path.write_text("poll: true\n", "utf-8")
    assert load_config(path, env={POLL_ENV: "0"}).poll
    assert SETTINGS["poll"].env == POLL_ENV


def test_each_command_line_option_of_a_setting_takes_its_declaration() -> None:
    """--port, --workers, --log-format…: bounds, choices and help are the setting's, so the
    option and the file can never accept different values."""
    import click

    from provider.cli import SettingOption, main

    seen = set()
    for command in main.commands.values():
        for param in command.params:
            if not isinstance(param, SettingOption):
                continue
            item = SETTINGS[param.opts[0][2:].replace("-", "_")]
            seen.add(item.key)
            assert param.help is not None and param.help.lower().startswith(item.help.lower()), item.key
            if isinstance(param.type, click.IntRange):
                assert (param.type.min, param.type.max) == (item.meta.ge, item.meta.le), item.key
            if isinstance(param.type, click.Choice):
                assert tuple(param.type.choices) == item.choices, item.key
    assert {"content", "index", "port", "workers", "log_format", "poll", "replay_store"} <= seen


_YAML_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**12), st.floats(allow_nan=False),
                          st.text(max_size=30))
_YAML_VALUES = st.recursive(_YAML_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=3)), max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(key=st.sampled_from(sorted(SETTINGS)), value=_YAML_VALUES)
def test_any_value_of_any_setting_is_read_or_refused_by_name(key: str, value: object) -> None:
    """Whatever YAML gives a key, the result is a configuration or a ConfigurationError
    naming the file and the key — never another exception (a crash with a traceback)."""
    try:
        config_from_mapping({key: value}, base=Path("/srv"), source=Path("/srv/kp.yaml"))
    except ConfigurationError as exc:
        assert str(exc).startswith(f"/srv/kp.yaml: {key}"), str(exc)
