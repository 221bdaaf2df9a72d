"""Docs-tool settings in the forms the tools themselves accept (issue 24, the attacker's
A08, A10, A23, F07): an MkDocs ``INHERIT`` chain, mkdocs-static-i18n's older ``languages``
mapping, every ``docusaurus.config.*`` name Docusaurus loads, and a ``docfx.json`` with a
trailing comma. Each is read as the tool reads it, or fails closed with a finding."""

from __future__ import annotations

import copy
import itertools
import json
import posixpath
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.check import check_wiki
from provider.wiki.document import WikiSettings
from provider.wiki.sites import load_site_policy
from provider.wiki.sites.config_files import deep_merge
from provider.wiki.sites.javascript import DOCUSAURUS_CONFIGS

_SITES = itertools.count()
_NAME = st.text(string.ascii_lowercase, min_size=1, max_size=5)
_FUNCTION_SCOPED = [HealthCheck.function_scoped_fixture]


def _site(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / f"s{next(_SITES)}"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return root


# --- A08: MkDocs INHERIT chains --------------------------------------------------------

@settings(max_examples=40, deadline=None, suppress_health_check=_FUNCTION_SCOPED)
@given(folders=st.lists(st.lists(_NAME, max_size=2), min_size=1, max_size=5), data=st.data())
def test_x2_an_inherit_chain_of_any_length_is_followed_each_path_relative_to_its_file(
        tmp_path: Path, folders: list[list[str]], data: st.DataObject) -> None:
    """mkdocs.yml → p1 → … → pn (each in a folder of its own, named relative to the file
    naming it, as MkDocs' ``yaml_load`` joins it): ``exclude_docs`` from the level that
    sets it nearest to mkdocs.yml is in force; a level below that sets another value
    overrides a farther one."""
    paths = ["mkdocs.yml", *("/".join([*parts, f"p{n}.yml"]) for n, parts in enumerate(folders, 1))]
    setter = data.draw(st.integers(0, len(paths) - 1), label="level holding exclude_docs")
    files = {}
    for level, path in enumerate(paths):
        text = "site_name: x\n" if level == 0 else "theme: mkdocs\n"
        if level + 1 < len(paths):
            text += f"INHERIT: {posixpath.relpath(paths[level + 1], posixpath.dirname(path) or '.')}\n"
        if level == setter:
            text += "exclude_docs: |\n  staff/\n"
        elif level > setter:
            text += "exclude_docs: |\n  other/\n"  # farther from mkdocs.yml: overridden
        files[path] = text
    policy = load_site_policy(_site(tmp_path, files), "mkdocs")
    assert policy.findings == ()
    assert policy.excluded_reason("docs/staff/o.md")
    assert policy.excluded_reason("docs/other/o.md") is None
    assert policy.excluded_reason("docs/index.md") is None


@pytest.mark.parametrize(("files", "said"), [
    ({"mkdocs.yml": "INHERIT: base.yml\n"}, "does not exist"),
    ({"mkdocs.yml": "INHERIT: cfg/a.yml\n", "cfg/a.yml": "INHERIT: b.yml\n"}, "does not exist"),
    ({"mkdocs.yml": "INHERIT: a.yml\n", "a.yml": "INHERIT: mkdocs.yml\n"}, "cycle"),
    ({"mkdocs.yml": "INHERIT: a.yml\n", "a.yml": "INHERIT: a.yml\n"}, "cycle"),
    ({"mkdocs.yml": "INHERIT: [a.yml]\n"}, "not a file path"),
    ({"mkdocs.yml": "INHERIT: a.yml\n", "a.yml": "- a list\n"}, "not a mapping"),
    ({"mkdocs.yml": "INHERIT: a.yml\n", "a.yml": "exclude_docs: [unclosed\n"}, "not valid YAML"),
])
def test_x5_an_inherit_chain_that_cannot_be_followed_fails_closed(tmp_path: Path, files: dict[str, str],
                                                                 said: str) -> None:
    """MkDocs refuses to build with a missing parent; a cycle never ends. Either way the
    provider cannot know what is excluded: a finding, every page internal."""
    root = _site(tmp_path, {**files, "docs/index.md": "# Home\n\nText.\n"})
    policy = load_site_policy(root, "mkdocs")
    assert policy.findings and said in policy.findings[0].message and "INHERIT" in policy.findings[0].message
    report = check_wiki(WikiSettings(root=root, layout="mkdocs"))
    assert report.exit_code == 1


def test_an_inherited_mapping_is_deep_merged_and_a_list_replaced_as_mkdocs_does(tmp_path: Path) -> None:
    """mergedeep (MkDocs' merge): the child's ``plugins`` list replaces the parent's whole,
    so the parent's i18n ``build: false`` no longer applies; a mapping merges key by key."""
    parent = ("plugins:\n  - i18n:\n      docs_structure: folder\n      languages:\n"
              "        - {locale: en, default: true}\n        - {locale: fr, build: false}\n")
    replaced = _site(tmp_path, {"mkdocs.yml": "INHERIT: base.yml\nplugins: [search]\n", "base.yml": parent})
    assert load_site_policy(replaced, "mkdocs").excluded_reason("docs/fr/a.md") is None
    kept = _site(tmp_path, {"mkdocs.yml": "INHERIT: base.yml\nsite_name: x\n", "base.yml": parent})
    assert load_site_policy(kept, "mkdocs").excluded_reason("docs/fr/a.md")


_JSONISH = st.recursive(st.integers(0, 3) | st.text("ab", max_size=2) | st.lists(st.integers(0, 2), max_size=2),
                        lambda inner: st.dictionaries(st.sampled_from("abcd"), inner, max_size=3), max_leaves=8)


@settings(max_examples=150, deadline=None)
@given(parent=st.dictionaries(st.sampled_from("abcd"), _JSONISH, max_size=4),
       child=st.dictionaries(st.sampled_from("abcd"), _JSONISH, max_size=4))
def test_deep_merge_is_mergedeeps_replace_strategy(parent: dict[str, Any], child: dict[str, Any]) -> None:
    """The provider's merge gives what MkDocs' own (``mergedeep.merge``) gives (mergedeep
    comes with MkDocs: the ``docs`` extra)."""
    mergedeep = pytest.importorskip("mergedeep")
    expected = mergedeep.merge(copy.deepcopy(parent), copy.deepcopy(child))
    before = copy.deepcopy(parent)
    assert deep_merge(parent, child) == expected
    assert parent == before


# --- A10: mkdocs-static-i18n languages as a mapping --------------------------------------

@settings(max_examples=40, deadline=None, suppress_health_check=_FUNCTION_SCOPED)
@given(languages=st.dictionaries(st.sampled_from(["en", "fr", "de", "ja", "pt-BR", "zh"]),
                                 st.tuples(st.sampled_from(["str", "mapping", "null"]), st.booleans()),
                                 min_size=1, max_size=5),
       folder=st.booleans())
def test_x2_i18n_languages_as_the_older_mapping_is_read(tmp_path: Path, languages: dict[str, tuple[str, bool]],
                                                         folder: bool) -> None:
    """``languages: {en: english, fr: {name: …, build: false}}`` (mkdocs-static-i18n 0.x):
    a non-default language with ``build: false`` is not built; the rest is."""
    default = next(iter(languages))
    lines = [f"      default_language: {default}", "      languages:"]
    for locale, (form, built) in languages.items():
        if form == "mapping" or not built:
            lines.append(f"        {locale}:\n          name: L{locale}\n          build: {str(built).lower()}")
        else:
            lines.append(f"        {locale}: {'null' if form == 'null' else 'Name ' + locale}")
    structure = "      docs_structure: folder\n" if folder else ""
    config = "plugins:\n  - i18n:\n" + structure + "\n".join(lines) + "\n"
    policy = load_site_policy(_site(tmp_path, {"mkdocs.yml": config}), "mkdocs")
    assert policy.findings == ()
    for locale, (_form, built) in languages.items():
        path = f"docs/{locale}/a.md" if folder else f"docs/a.{locale}.md"
        unbuilt = not built and locale != default
        assert bool(policy.excluded_reason(path)) == unbuilt, (locale, config)


@pytest.mark.parametrize("languages", ["en", "3", "[en, fr]", "{en: 3}", "[{locale: fr, build: 'no'}]",
                                       "{fr: {build: 0}}", "!ENV LANGS"])
def test_x5_i18n_languages_of_an_unknown_shape_fail_closed(tmp_path: Path, languages: str) -> None:
    """Never silently "no languages": a shape the provider does not read is a finding and
    every page is internal until the sitemap settles it."""
    config = f"plugins:\n  - i18n:\n      languages: {languages}\n"
    policy = load_site_policy(_site(tmp_path, {"mkdocs.yml": config}), "mkdocs")
    assert policy.findings and "i18n" in policy.findings[0].message


# --- A23: every docusaurus.config.* Docusaurus loads ---------------------------------------

def test_docusaurus_config_names_are_docusaurus_own() -> None:
    """``findConfig`` in @docusaurus/core ``server/config.ts``, in its order."""
    assert tuple(f"docusaurus.config.{e}" for e in ("ts", "mts", "cts", "js", "mjs", "cjs")) == DOCUSAURUS_CONFIGS


@pytest.mark.parametrize("name", DOCUSAURUS_CONFIGS)
def test_x5_docs_exclude_in_any_docusaurus_config_name_fails_closed(tmp_path: Path, name: str) -> None:
    config = "export default {\n  presets: [['classic', {docs: {exclude: ['**/staff/**']}}]],\n};\n"
    root = _site(tmp_path, {name: config, "docs/staff/o.md": "# Staff\n\nText.\n"})
    policy = load_site_policy(root, "docusaurus")
    assert policy.findings and name in policy.findings[0].message and "exclude" in policy.findings[0].message


# --- F07: docfx.json as Newtonsoft.Json reads it -----------------------------------------

@settings(max_examples=60, deadline=None, suppress_health_check=_FUNCTION_SCOPED)
@given(folder=_NAME, commas=st.lists(st.booleans(), min_size=4, max_size=4),
       space=st.sampled_from(["", " ", "\n  ", " /* c */ ", " // c\n"]), bom=st.booleans())
def test_x2_docfx_json_with_trailing_commas_is_read_as_docfx_does(tmp_path: Path, folder: str, commas: list[bool],
                                                                   space: str, bom: bool) -> None:
    """Newtonsoft.Json (DocFX's reader) accepts one trailing comma before ``]`` / ``}``
    (JamesNK/Newtonsoft.Json#818: on purpose); with comments and a BOM too."""
    c = ["," + space if on else space for on in commas]
    config = (("\ufeff" if bom else "") + '{"build": {"content": [{"files": ["**/*.md"], '
              f'"exclude": ["{folder}/**"{c[0]}]{c[1]}}}{c[2]}]{c[3]}}}}}\n')
    policy = load_site_policy(_site(tmp_path, {"docfx.json": config, "index.md": "# Home\n"}), "docfx")
    assert policy.findings == ()
    assert policy.excluded_reason(f"{folder}/a.md")
    assert policy.excluded_reason("index.md") is None


@pytest.mark.parametrize("config", [
    '{"build": {"content": [{"files": ["**/*.md"],, "exclude": ["x/**"]}]}}',
    '{"build": {"content": [{"files": ["**/*.md"], "exclude": ["x/**",,]}]}}',
])
def test_x5_docfx_json_with_more_than_a_trailing_comma_still_fails_closed(tmp_path: Path, config: str) -> None:
    policy = load_site_policy(_site(tmp_path, {"docfx.json": config, "index.md": "# Home\n"}), "docfx")
    assert policy.findings and "JSON" in policy.findings[0].message


def test_a_comma_inside_a_docfx_string_is_kept(tmp_path: Path) -> None:
    config = json.dumps({"build": {"content": [{"files": ["**/*.md"], "exclude": ["a,]/**"]}]}})
    policy = load_site_policy(_site(tmp_path, {"docfx.json": config}), "docfx")
    assert policy.findings == () and policy.excluded_reason("a,]/x.md")


def test_an_edit_to_an_inherited_parent_is_read_again(tmp_path: Path) -> None:
    """The parents an INHERIT chain named are watched like mkdocs.yml: editing the far
    parent's ``exclude_docs`` changes which pages are built without touching mkdocs.yml;
    the chain is listed among the sources."""
    root = _site(tmp_path, {"mkdocs.yml": "INHERIT: cfg/base.yml\n", "cfg/base.yml": "INHERIT: root.yml\n",
                            "cfg/root.yml": "exclude_docs: |\n  staff/\n"})
    policy = load_site_policy(root, "mkdocs", max_age_s=0)
    assert policy.sources == ("mkdocs.yml", "cfg/base.yml", "cfg/root.yml")
    assert policy.excluded_reason("docs/staff/o.md") and not policy.excluded_reason("docs/ops/o.md")
    (root / "cfg/root.yml").write_text("exclude_docs: |\n  ops/\n  other/\n", "utf-8")
    policy = load_site_policy(root, "mkdocs", max_age_s=0)
    assert policy.excluded_reason("docs/ops/o.md") and not policy.excluded_reason("docs/staff/o.md")
