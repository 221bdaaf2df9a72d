"""Hugo's site configuration ``cascade`` read as Hugo does (hugo.yaml|toml|json,
config.*, config/_default/): what it withholds is served to nobody, and a configuration
that cannot be read withholds everything (CONTRACT X5)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from provider.wiki.check import CheckReport, check_wiki
from provider.wiki.classify import INTERNAL, PUBLIC
from provider.wiki.document import WikiSettings

NOW = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)

# OpenTelemetry's idiom: partials under _includes/ are hidden by the site configuration.
YAML_CONFIG = """\
baseURL: https://example.org/
cascade:
  - target:
      path: "/docs/_includes/**"
    build:
      list: never
      render: never
  - params:
      audience: public
"""
TOML_CONFIG = """\
baseURL = 'https://example.org/'
[[cascade]]
  [cascade.build]
    list = 'never'
    render = 'never'
  [cascade.target]
    path = '/docs/_includes/**'
[[cascade]]
  [cascade.params]
    audience = 'public'
"""


def site(tmp_path: Path, config: dict[str, str]) -> Path:
    for name, text in {
        **config,
        "content/en/docs/_includes/fragment.md": "Fragment text shared by pages.\n",
        "content/en/docs/install.md": "---\ntitle: Install\n---\nInstall text.\n",
        "content/en/docs/secret.md": "---\naudience: internal\n---\nSecret text.\n",
    }.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return tmp_path


def report(root: Path) -> dict[str, object]:
    checked: CheckReport = check_wiki(WikiSettings(root=root, layout="hugo"), now=NOW)
    return {f.path: f for f in checked.files}


@pytest.mark.parametrize("config", [
    {"hugo.yaml": YAML_CONFIG},
    {"hugo.toml": TOML_CONFIG},
    {"config.yaml": YAML_CONFIG},
    {"config/_default/hugo.yaml": YAML_CONFIG},
    {"config/_default/cascade.yaml": YAML_CONFIG.split("cascade:\n", 1)[1]},
])
def test_x5_the_site_cascade_withholds_partials_and_publishes_the_rest(tmp_path: Path, config: dict[str, str]) -> None:
    files = report(site(tmp_path, config))
    fragment = files["content/en/docs/_includes/fragment.md"]
    assert fragment.status == "withheld" and "the site configuration" in (fragment.resolved.withheld or "")  # type: ignore[attr-defined]
    install = files["content/en/docs/install.md"].resolved  # type: ignore[attr-defined]
    assert install.served and install.audience == PUBLIC
    assert install.audience_source == "cascade from the site configuration"
    # The page's own front matter wins over the site's cascade.
    assert files["content/en/docs/secret.md"].resolved.audience == INTERNAL  # type: ignore[attr-defined]


def test_hugo_yaml_wins_over_config_yaml(tmp_path: Path) -> None:
    files = report(site(tmp_path, {"hugo.yaml": YAML_CONFIG, "config.yaml": "cascade: {params: {audience: internal}}"}))
    assert files["content/en/docs/install.md"].resolved.audience == PUBLIC  # type: ignore[attr-defined]


@pytest.mark.parametrize("config", [
    {"hugo.yaml": "cascade: [\n"},
    {"hugo.yaml": "cascade: 3\n"},
    {"hugo.toml": "cascade = 'x'\n[broken\n"},
])
def test_x5_an_unreadable_site_configuration_withholds_everything(tmp_path: Path, config: dict[str, str]) -> None:
    files = report(site(tmp_path, config))
    for path in ("content/en/docs/install.md", "content/en/docs/_includes/fragment.md"):
        entry = files[path]
        assert entry.status == "withheld", path  # type: ignore[attr-defined]
        assert entry.quarantined, path  # type: ignore[attr-defined]


def test_x5_a_target_that_cannot_be_evaluated_only_withholds(tmp_path: Path) -> None:
    config = {"hugo.yaml": "cascade:\n  - target: {path: '/docs/**', sites: {matrix: x}}\n"
                           "    params: {audience: public}\n"
                           "  - target: {path: '/docs/**', sites: x}\n    draft: true\n"}
    files = report(site(tmp_path, config))
    install = files["content/en/docs/install.md"]
    assert install.status == "withheld"  # type: ignore[attr-defined]
    assert install.resolved.audience == INTERNAL  # type: ignore[attr-defined]  # its audience: public was not applied


def test_target_kind_and_lang(tmp_path: Path) -> None:
    config = {"hugo.yaml": "cascade:\n  - target: {kind: page, lang: en}\n    params: {audience: public}\n"}
    files = report(site(tmp_path, config))
    assert files["content/en/docs/install.md"].resolved.audience == PUBLIC  # type: ignore[attr-defined]


LANGUAGE_TOML = """\
baseURL = 'https://example.org/'
[[cascade]]
  [cascade.params]
    audience = 'public'
[languages.en]
  weight = 1
  [[languages.en.cascade]]
    [languages.en.cascade.params]
      audience = 'internal'
    [languages.en.cascade.target]
      path = '/docs/**'
[languages.de]
  weight = 2
"""


@pytest.mark.parametrize("config", [
    {"hugo.toml": LANGUAGE_TOML},
    {"hugo.yaml": "cascade:\n  - params: {audience: public}\nlanguages:\n  en:\n    cascade:\n"
                  "      - target: {path: '/docs/**'}\n        params: {audience: internal}\n"},
    {"hugo.yaml": "cascade:\n  - params: {audience: public}\n",
     "config/_default/languages.yaml": "en:\n  cascade:\n    params: {audience: internal}\n"},
])
def test_x2_a_cascade_set_per_language_applies_to_that_language(tmp_path: Path, config: dict[str, str]) -> None:
    """X2: Hugo's ``[languages.en.cascade]`` makes English pages internal; it is read
    wherever the languages are configured, and only for that language."""
    root = site(tmp_path, config)
    (root / "content/de/docs/anleitung.md").parent.mkdir(parents=True)
    (root / "content/de/docs/anleitung.md").write_text("---\ntitle: Anleitung\n---\nText.\n", "utf-8")
    checked = check_wiki(WikiSettings(root=root, layout="hugo", locales=("en", "de")), now=NOW)
    files = {f.path: f for f in checked.files}
    assert files["content/en/docs/install.md"].resolved.audience == INTERNAL  # type: ignore[union-attr]
    assert files["content/de/docs/anleitung.md"].resolved.audience == PUBLIC  # type: ignore[union-attr]
