"""Issue 24: translations of a page the docs tool excludes, and names in two Unicode forms.

The attacker's findings on the merged build: MkDocs ``exclude_docs: secret.md`` does not
match ``secret.de.md`` (nor ``docs/de/secret.md`` for ``/en/secret.md``), Hugo's
``ignoreFiles`` regular expression for the English file does not match the German one, and
both tools build the translation, so the provider served it as public — the source was
skipped at discovery and no document stood for it in the translation rules. And a
translation whose file name is in NFD (macOS) beside an NFC source, or ``secret.de.md``
beside ``Secret.md``, was in another translation group, so it did not inherit. The classes:
every tool layout and exclusion style, times the Unicode forms of each name.
"""

from __future__ import annotations

import itertools
import unicodedata
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.audience import AudienceRule
from provider.wiki.check import check_wiki
from provider.wiki.citations import CitationSettings
from provider.wiki.document import WikiSettings
from tests.support import write_files
from tests.wiki.test_sitemap import urlset

_SITES = itertools.count()
_SECRET = "Agents may grant a goodwill credit of up to 75 euros when a delivery is late."
_GERMAN = "Mitarbeiter duerfen eine Kulanzgutschrift von bis zu 75 Euro gewaehren, wenn die Lieferung spaet ist."
_PUBLIC = "Orders ship within two business days from our warehouse."
BASE = "https://docs.example.com"

_I18N = ("plugins:\n  - i18n:\n      docs_structure: {structure}\n      languages:\n"
         "        - locale: en\n          default: true\n        - locale: de\n")
_HUGO_LANGUAGES = 'defaultContentLanguage = "en"\n[languages.en]\n{en}[languages.de]\n{de}'

#: ``layout -> (config file, its text for an exclusion of {name}, source path, translation path)``;
#: ``{name}`` is the page's file name without extension. Each exclusion names the source
#: only, as the attacker wrote it: the tool builds the translation.
_SITES_BY_WAY = {
    "mkdocs suffix, unanchored name": ("mkdocs", "mkdocs.yml",
                                       "site_name: x\nexclude_docs: |\n  {name}.md\n"
                                       + _I18N.format(structure="suffix"),
                                       "docs/{name}.md", "docs/{name}.de.md"),
    "mkdocs suffix, glob": ("mkdocs", "mkdocs.yml",
                            "site_name: x\nexclude_docs: |\n  /{name}.m*\n" + _I18N.format(structure="suffix"),
                            "docs/{name}.md", "docs/{name}.de.md"),
    "mkdocs folder, anchored to en": ("mkdocs", "mkdocs.yml",
                                      "site_name: x\nexclude_docs: |\n  /en/{name}.md\n"
                                      + _I18N.format(structure="folder"),
                                      "docs/en/{name}.md", "docs/de/{name}.md"),
    "hugo suffix, ignoreFiles": ("hugo", "hugo.toml",
                                 'ignoreFiles = ["/{name}\\\\.md$"]\n' + _HUGO_LANGUAGES.format(en="", de=""),
                                 "content/{name}.md", "content/{name}.de.md"),
    "hugo contentDir per language": ("hugo", "hugo.toml",
                                     'ignoreFiles = ["en/{name}\\\\.md$"]\n' + _HUGO_LANGUAGES.format(
                                         en='contentDir = "content/en"\n', de='contentDir = "content/de"\n'),
                                     "content/en/{name}.md", "content/de/{name}.md"),
}
#: Page names: plain, and with letters Unicode writes in two forms (macOS writes NFD).
_NAMES = ("secret", "kündigung", "café-prices", "Ångström")


def _name(base: str, form: str) -> str:
    return unicodedata.normalize(form, base)


def _site(root: Path, way: str, name: str, source_form: str, translation_form: str,
          **extra: object) -> tuple[WikiSettings, str, str]:
    layout, config, text, source, translation = _SITES_BY_WAY[way]
    source_path = source.format(name=_name(name, source_form))
    translation_path = translation.format(name=_name(name, translation_form))
    files = {config: text.format(name=_name(name, "NFC")),
             source_path: f"---\ntitle: Goodwill\n---\n\n{_SECRET}\n",
             translation_path: f"---\ntitle: Kulanz\naudience: public\n---\n\n{_GERMAN}\n",
             source.replace("{name}", "shipping"): f"---\ntitle: Shipping\n---\n\n{_PUBLIC}\n"}
    wiki = WikiSettings(root=write_files(root, files), layout=layout, default_locale="en", locales=("en", "de"),
                        audience_rules=(AudienceRule("**", "public"),), **extra)  # type: ignore[arg-type]
    return wiki, source_path, translation_path


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(way=st.sampled_from(sorted(_SITES_BY_WAY)), name=st.sampled_from(_NAMES),
       forms=st.sampled_from([("NFC", "NFC"), ("NFC", "NFD"), ("NFD", "NFC"), ("NFD", "NFD")]))
def test_a_translation_of_a_page_the_tool_excludes_is_not_public(tmp_path: Path, way: str, name: str,
                                                                 forms: tuple[str, str]) -> None:
    """Issue 24 (X2): whatever the tool and the exclusion's style, and in either Unicode
    form of either name, the translation of an excluded page is served to agents only, and
    says which source and which setting; the public page beside it stays public."""
    wiki, source, translation = _site(tmp_path / f"w{next(_SITES)}", way, name, *forms)
    report = check_wiki(wiki)
    found = {f.path: f.resolved for f in report.files}
    assert found.get(source) is None  # excluded: not read at all
    german = found[translation]
    assert german is not None and german.served and not german.public, (way, name, forms)
    assert "a translation of" in german.audience_source and "does not build" in german.audience_source
    shipping = next(r for p, r in found.items() if "shipping" in p)
    assert shipping is not None and shipping.public


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(way=st.sampled_from(sorted(_SITES_BY_WAY)), name=st.sampled_from(_NAMES))
def test_a_translation_of_a_page_the_tool_builds_stays_public(tmp_path: Path, way: str, name: str) -> None:
    """No false withholding (issue 24): without the exclusion, the same translation is public."""
    wiki, _, translation = _site(tmp_path / f"w{next(_SITES)}", way, name, "NFC", "NFC")
    config = wiki.root / _SITES_BY_WAY[way][1]
    config.write_text("\n".join(line for line in config.read_text("utf-8").splitlines()
                                if "exclude_docs" not in line and "ignoreFiles" not in line
                                and not line.startswith("  /") and line.strip() != f"{name}.md") + "\n", "utf-8")
    found = {f.path: f.resolved for f in check_wiki(wiki).files}
    german = found[translation]
    assert german is not None and german.public, german and german.audience_source


def test_the_sitemap_proves_a_translation_of_an_excluded_page_published(tmp_path: Path) -> None:
    """Issue 24: the exclusion fails closed only while unsure. With the site's sitemap, the
    tool's own output decides (rule 11): listed → public; not listed → internal."""
    root = tmp_path / "w"
    _, _, translation = _site(root, "hugo suffix, ignoreFiles", "secret", "NFC", "NFC")
    statuses = []
    for listed in ("", "/de/secret/"):
        sitemap = tmp_path / f"sitemap{len(statuses)}.xml"
        sitemap.write_text(urlset(*(f"{BASE}{u}" for u in (listed, "/shipping/") if u)), "utf-8")
        with_map = WikiSettings(root=root, layout="hugo", default_locale="en", locales=("en", "de"),
                                audience_rules=(AudienceRule("**", "public"),),
                                citation=CitationSettings(base_url=BASE), sitemap=(str(sitemap),))
        german = {f.path: f.resolved for f in check_wiki(with_map).files}[translation]
        assert german is not None and german.served
        statuses.append((german.public, german.audience_source))
    assert statuses[0] == (False, f"not on the site (sitemap): {BASE}/de/secret/"), statuses
    assert statuses[1][0], statuses


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(_NAMES), source_form=st.sampled_from(["NFC", "NFD"]),
       translation_form=st.sampled_from(["NFC", "NFD"]), case=st.sampled_from([str, str.upper, str.capitalize]),
       place=st.sampled_from(["docs/{}.de.md", "de/docs/{}.md"]))
def test_a_translation_named_in_another_unicode_form_or_case_inherits(
        tmp_path: Path, name: str, source_form: str, translation_form: str, case: object, place: str) -> None:
    """Issue 24 (X2): ``café.md`` in NFC and ``café.de.md`` in NFD (or ``Secret.md`` beside
    ``secret.de.md``) are one page to a reader, and to the tool on macOS' or Windows' file
    systems: the translation of the internal page is never public."""
    source = f"docs/{_name(case(name), source_form)}.md"  # type: ignore[operator]
    translation = place.format(_name(name, translation_form))
    files = {source: f"---\ntitle: Goodwill\naudience: internal\n---\n\n{_SECRET}\n",
             translation: f"---\ntitle: Kulanz\naudience: public\n---\n\n{_GERMAN}\n"}
    wiki = WikiSettings(root=write_files(tmp_path / f"w{next(_SITES)}", files), layout="hugo",
                        default_locale="en", locales=("en", "de"))
    found = {f.path: f.resolved for f in check_wiki(wiki).files}
    german = found[translation]
    assert german is not None and german.served and not german.public, (source, translation)
    assert "a translation of the internal" in german.audience_source


def test_a_listed_translation_of_an_unlisted_docusaurus_page_is_public_and_check_says_why(tmp_path: Path) -> None:
    """Issue 24 (operator trial): Docusaurus builds an ``unlisted: true`` page under its URL
    (left out of the sidebar, the sitemap and search engines only) and builds the
    translation from the translation's own front matter: the text is on the site, so the
    listed translation stays public, and ``check`` says so on the translation."""
    files = {"docusaurus.config.js": "module.exports = { i18n: { defaultLocale: 'en', locales: ['en', 'de'] } };\n",
             "docs/a.md": f"---\ntitle: A\naudience: public\nunlisted: true\n---\n\n{_PUBLIC}\n",
             "i18n/de/docusaurus-plugin-content-docs/current/a.md":
                 f"---\ntitle: A\naudience: public\n---\n\n{_GERMAN}\n"}
    wiki = WikiSettings(root=write_files(tmp_path / "w", files), layout="docusaurus", default_locale="en",
                        locales=("en", "de"))
    found = {f.path: f.resolved for f in check_wiki(wiki).files}
    source, german = found["docs/a.md"], found["i18n/de/docusaurus-plugin-content-docs/current/a.md"]
    assert source is not None and not source.served
    assert german is not None and german.public
    assert any("site publishes it under its URL" in p and "docs/a.md" in p for p in german.problems), german.problems
