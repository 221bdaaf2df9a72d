"""Issue 24 (publication), Hugo: a file Hugo never builds is not a page.

Hugo publishes pages only from ``contentDir`` (per language ``languages.<lang>.contentDir``),
or from the content mounts, minus disabled languages (``disableLanguages``,
``languages.<lang>.disabled``). With ``content:`` at the site root the attack found a root
``README.md``, ``notes/``, ``archetypes/`` and disabled languages' pages served to
``customer_safe`` (provider.wiki.sites.hugo).
"""

from __future__ import annotations

import itertools
import json
import string
from collections.abc import Mapping
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.indexing import Indexer
from provider.search.layout import IndexLayout
from provider.wiki.audience import AudienceRule
from provider.wiki.check import check_wiki
from provider.wiki.document import WikiSettings
from provider.wiki.sites import load_site_policy
from tests.support import write_files

_SITES = itertools.count()
_NAME = st.text(string.ascii_lowercase + string.digits, min_size=1, max_size=6)




def _page(words: str) -> str:
    return f"---\ntitle: T\n---\n{words}\n"


def _public_ids(wiki: WikiSettings, index_root: Path) -> set[str]:
    from whoosh import index as whoosh_index

    layout = IndexLayout(index_root)
    with Indexer(wiki, layout) as indexer:
        indexer.sync()
    name = layout.current_name()
    assert name is not None
    with whoosh_index.open_dir(str(layout.build_dir(name) / "public")).searcher() as searcher:
        return {fields["doc"]["id"] for fields in searcher.all_stored_fields()}


def _why(wiki: WikiSettings, path: str) -> str:
    entry = next(e for e in check_wiki(wiki).files if e.path == path)
    item = entry.resolved
    return " ".join([entry.skipped or "", *entry.reasons, (item.withheld or "") if item else ""])


_HUGO1 = {
    "hugo.toml": ('baseURL = "https://docs.example.com/"\ndefaultContentLanguage = "en"\ndisableLanguages = ["fr"]\n'
                  '[languages.en]\ncontentDir = "content/en"\n[languages.de]\ncontentDir = "content/de"\n'
                  'disabled = true\n[languages.fr]\ncontentDir = "content/fr"\n'),
    "README.md": "# Docs repository\n\nStaging credentials kiwi-lantern-77.\n",
    "notes/roadmap.md": "# Roadmap\n\nThe wombat migration ships in Q3.\n",
    "archetypes/default.md": _page("Escalate to tier-3 via the falcon channel."),
    "content/en/docs/reset.md": _page("Open Settings, choose Security and press Reset password."),
    "content/de/docs/preise.md": _page("Ab März kostet der Schnabeltier-Tarif 99 Euro."),
    "content/fr/docs/tarifs.md": _page("Le forfait ornithorynque coûtera 99 euros."),
}


def test_a6_hugo1_only_what_hugo_builds_reaches_customer_safe(tmp_path: Path) -> None:
    """Issue 24, attack a6 hugo1/hugo2: content at the site root, languages with their own
    contentDir, de disabled by its key and fr by disableLanguages."""
    site = tmp_path / "site"
    write_files(site, _HUGO1)
    wiki = WikiSettings(root=site, layout="hugo", default_locale="en", locales=("en", "de", "fr"),
                        audience_rules=(AudienceRule("**", "public"),))
    assert _public_ids(wiki, tmp_path / "index") == {"content/en/docs/reset"}
    assert "not in Hugo's contentDir" in _why(wiki, "README.md")
    assert "not in Hugo's contentDir" in _why(wiki, "notes/roadmap.md")
    assert "language de is disabled" in _why(wiki, "content/de/docs/preise.md")
    assert "language fr is disabled" in _why(wiki, "content/fr/docs/tarifs.md")


def test_the_default_content_dir_is_content(tmp_path: Path) -> None:
    """hugo2: no contentDir set, so only content/ is built; contentDir moves it."""
    policy = load_site_policy(_site(tmp_path, {"hugo.toml": "title = 'x'\n"}), "hugo")
    assert policy.excluded_reason("content/docs/a.md") is None
    assert "not in Hugo's contentDir (content/)" in (policy.excluded_reason("README.md") or "")
    moved = load_site_policy(_site(tmp_path, {"hugo.toml": "contentDir = 'pages'\n"}), "hugo")
    assert moved.excluded_reason("pages/a.md") is None
    assert moved.excluded_reason("content/a.md") is not None


def test_content_mounts_replace_the_content_dir(tmp_path: Path) -> None:
    config = '[[module.mounts]]\nsource = "docs"\ntarget = "content"\n'
    policy = load_site_policy(_site(tmp_path, {"hugo.toml": config}), "hugo")
    assert policy.excluded_reason("docs/a.md") is None
    assert policy.excluded_reason("README.md") is not None
    lang = ('[[module.mounts]]\nsource = "docs"\ntarget = "content"\n'
            '[[module.mounts]]\nsource = "docs-de"\ntarget = "content"\nlang = "de"\n'
            '[languages.de]\ndisabled = true\n')
    policy = load_site_policy(_site(tmp_path, {"hugo.toml": lang}), "hugo")
    assert policy.excluded_reason("docs/a.md") is None
    assert "language de is disabled" in (policy.excluded_reason("docs-de/a.md") or "")


def _site(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / f"s{next(_SITES)}"
    write_files(root, files)
    return root


def _dump(form: str, data: Mapping[str, object]) -> str:
    if form == "json":
        return json.dumps(data)
    if form == "yaml":
        import yaml

        return str(yaml.safe_dump(data))
    lines: list[str] = []
    for key, value in data.items():
        if not isinstance(value, dict):
            lines.append(f"{key} = {json.dumps(value)}")
    for key, value in data.items():
        if isinstance(value, dict):
            for lang, settings_ in value.items():
                lines.append(f"[{key}.{lang}]" if key == "languages" else f"[{lang}]")
                lines += [f"{k} = {json.dumps(v)}" for k, v in settings_.items()]
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.sampled_from(["hugo.{}", "config.{}", "config/_default/hugo.{}", "config/_default/languages.{}"]),
       form=st.sampled_from(["toml", "yaml", "json"]), how=st.sampled_from(["key", "list"]),
       own_dirs=st.booleans(), at_content=st.booleans(), stray=st.lists(_NAME, min_size=1, max_size=3),
       page=_NAME, suffix=st.sampled_from(["md", "markdown", "html"]))
def test_every_config_form_withholds_disabled_languages_and_files_outside_content(
    tmp_path: Path, where: str, form: str, how: str, own_dirs: bool, at_content: bool, stray: list[str], page: str,
    suffix: str,
) -> None:
    """The class: whichever file and format says it, a disabled language's pages (its own
    contentDir or a ``page.de.md`` translation) and any file outside the content folders
    are not built; the enabled language's pages are."""
    languages: dict[str, dict[str, object]] = {
        "en": {"contentDir": "content/en"} if own_dirs else {"weight": 1},
        "de": {"contentDir": "content/de"} if own_dirs else {"weight": 2},
    }
    top: dict[str, object] = {}
    if how == "key":
        languages["de"]["disabled"] = True
    else:
        top["disableLanguages"] = ["de"]
    if where.startswith("config/_default/languages"):
        files = {where.format(form): _dump(form, {"x": languages}).replace("[x.", "[") if form == "toml"
                 else _dump(form, languages)}
        if top:
            files["hugo.toml"] = _dump("toml", top)
    else:
        files = {where.format(form): _dump(form, {**top, "languages": languages})}
    root = _site(tmp_path, files)
    policy = load_site_policy(root / "content" if at_content else root, "hugo")
    assert not policy.findings, policy.findings
    lead = "" if at_content else "content/"
    en, de = ("en/", "de/") if own_dirs else ("", "")
    assert policy.excluded_reason(f"{lead}{en}{page}.{suffix}") is None
    assert "language de is disabled" in (policy.excluded_reason(f"{lead}{de}{page}.de.{suffix}") or "")
    if own_dirs:
        assert "language de is disabled" in (policy.excluded_reason(f"{lead}de/{'/'.join(stray)}.md") or "")
    if not at_content:
        assert "not in Hugo's contentDir" in (policy.excluded_reason(f"x{'/'.join(stray)}/{page}.md") or "")
        assert "not in Hugo's contentDir" in (policy.excluded_reason(f"{page}.md") or "")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bad=st.sampled_from(['contentDir = 3\n', 'languages = "en"\n', '[languages]\nen = 1\n',
                            '[languages.de]\ndisabled = "yes"\n', 'disableLanguages = "de"\nx = [\n',
                            'disableLanguages = [1]\n', '[languages.en]\ncontentDir = ""\n']))
def test_a_language_setting_we_cannot_read_fails_closed(tmp_path: Path, bad: str) -> None:
    policy = load_site_policy(_site(tmp_path, {"hugo.toml": bad}), "hugo")
    assert policy.findings and "every page is internal" in policy.findings[0].message
