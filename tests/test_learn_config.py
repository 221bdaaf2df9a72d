"""One documented configuration for Microsoft Learn (issue 24): the snippet of
docs/reference/docs-tools.md is the configuration the project measures Learn with
(bench/corpora/ms-officedocs-support.yaml), every other Learn example in docs/ agrees with
it, and on the real export it publishes every article Learn publishes (CONTRACT X5: a value
left out stays internal, so the map must name them all)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from provider.config import config_from_mapping
from provider.wiki.classify import PUBLIC
from provider.wiki.document import WikiDocument, parse_document
from tests.corpora import require_corpus
from tests.support import REPO_ROOT

DOCS = REPO_ROOT / "docs"
PAGE = DOCS / "reference" / "docs-tools.md"
HEADING = "### Microsoft Learn: the configuration"
BENCH = [REPO_ROOT / "bench" / "corpora" / "ms-officedocs-support.yaml",
         REPO_ROOT / "bench" / "relevance" / "corpora" / "ms-officedocs-support.yaml"]
#: The settings that decide who reads a Learn page.
AUDIENCE_KEYS = ("layout", "audience_key", "audience_values", "withhold_noindex", "audience_rules")
#: Learn's one page with ``ROBOTS: NOINDEX`` (withheld by ``withhold_noindex: true``).
NOINDEX = "Microsoft365/admin/installation/install-apps.md"
_YAML_BLOCK = re.compile(r"^```yaml\n(.*?)^```", re.MULTILINE | re.DOTALL)


def documented() -> dict[str, Any]:
    """The YAML block under the page's Learn heading, parsed."""
    text = PAGE.read_text("utf-8")
    assert HEADING in text, f"{PAGE} lost its heading {HEADING!r}"
    found = _YAML_BLOCK.search(text, text.index(HEADING))
    assert found is not None
    data = yaml.safe_load(found.group(1))
    assert isinstance(data, dict)
    return data


def audience_settings(data: dict[str, Any]) -> dict[str, Any]:
    """What the configuration decides about audiences, as the provider reads it."""
    config = config_from_mapping({k: v for k, v in data.items() if k in AUDIENCE_KEYS}, base=Path("/nonexistent"))
    return {key: getattr(config, key) for key in AUDIENCE_KEYS}


def test_the_documented_learn_configuration_is_valid_and_maps_every_learn_value_to_public() -> None:
    settings = audience_settings(documented())
    assert dict(settings["audience_values"]) == {"ITPro": PUBLIC, "Admin": PUBLIC, "Admin|ITPro|Developer": PUBLIC}
    assert settings["layout"] == "docfx" and settings["withhold_noindex"] is True
    assert settings["audience_rules"][-1].pattern == "**" and settings["audience_rules"][-1].audience == PUBLIC


@pytest.mark.parametrize("path", BENCH, ids=lambda p: p.relative_to(REPO_ROOT).as_posix())
def test_the_bench_measures_learn_with_the_documented_configuration(path: Path) -> None:
    bench = yaml.safe_load(path.read_text("utf-8"))
    assert audience_settings(bench) == audience_settings(documented())


def test_no_other_learn_example_in_the_docs_maps_the_audience_another_way() -> None:
    """The trial met three maps (``Admin: internal`` on one page, ``End User`` in the bench):
    every YAML example mapping Learn's ``audience`` key says what the documented one says."""
    expected = audience_settings(documented())["audience_values"]
    seen = 0
    for page in sorted(DOCS.rglob("*.md")):
        for block in _YAML_BLOCK.findall(page.read_text("utf-8")):
            if "audience_values" not in block:
                continue
            data = yaml.safe_load(block)
            if not isinstance(data, dict) or "ITPro" not in str(data.get("audience_values", "")):
                continue
            if data.get("audience_key", "audience") != "audience":
                continue  # another docset's key (ms.audience set in docfx.json), not Learn's own
            seen += 1
            assert audience_settings(data)["audience_values"] == expected, page.relative_to(REPO_ROOT)
    assert seen >= 1


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_documented_configuration_publishes_every_learn_article() -> None:
    """On the real export, Learn's ``audience`` takes only the mapped values (so every
    article with the key is public by its front matter) and two articles have none. Every
    article with a value other than ``ITPro`` (and one in 100 of those) is read as the
    index reads it: public, nothing reported; the ``ROBOTS: NOINDEX`` page withheld."""
    root = require_corpus("ms-officedocs-support")
    config = config_from_mapping({**documented(), "content": str(root), "default_locale": "en-US",
                                  "locales": ["en-US"]}, base=root)
    settings = config.wiki_settings()
    values: dict[str, int] = {}
    read = 0
    for number, path in enumerate(sorted(root.glob("*/**/*.md"))):
        rel = path.relative_to(root).as_posix()
        if rel.startswith("includes/"):
            continue
        data = path.read_bytes()
        written = re.search(rb"^audience:(.*)$", data.split(b"\n---", 1)[0], re.MULTILINE)
        value = written.group(1).decode() if written else None
        values[str(value).strip()] = values.get(str(value).strip(), 0) + 1
        if value == "ITPro" and rel != NOINDEX and number % 100:
            continue
        read += 1
        result = parse_document(settings, rel, data, size=len(data), mtime_ns=0)
        assert isinstance(result, WikiDocument), rel
        if rel == NOINDEX:
            assert result.meta.draft, rel  # Learn keeps it out of search: served to nobody
            continue
        assert result.meta.audience == PUBLIC and not result.meta.errors and not result.meta.draft, \
            (rel, result.meta.errors)
    assert values.keys() == {"ITPro", "Admin", "Admin|ITPro|Developer", "None"}, values
    assert values["None"] == 2 and sum(values.values()) == 2448 and read > 150, (values, read)
