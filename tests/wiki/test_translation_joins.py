"""Issue 24 (second round): translations of an excluded source that the locale patterns do not name.

The attacker's findings on the merged build: an MkDocs ``exclude_docs: secret.md`` beside
``secret_de.md`` or ``secret.de-DE.md``, a Jekyll ``exclude:`` beside ``secret-de.md``,
``secret.de.md`` (in NFD too), a jekyll-polyglot page with ``lang: de`` and the excluded
source's ``permalink:``, and a Hugo page joined to an ignored source only by
``translationKey`` were served to ``customer_safe``: the excluded-source rule read only
the configured locale patterns, and no key in front matter. The classes: every way an
i18n plugin names or joins a translation, times each tool's exclusion, in both Unicode
forms and any case; and the same page without the exclusion stays public.
"""

from __future__ import annotations

import itertools
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.audience import AudienceRule
from provider.wiki.check import check_wiki
from provider.wiki.document import WikiSettings
from tests.support import public_index_paths, write_files

_SITES = itertools.count()
_SECRET = "Agents may grant a goodwill credit of up to 75 euros when a delivery is late."
_GERMAN = "Mitarbeiter duerfen eine Kulanzgutschrift von bis zu 75 Euro gewaehren, wenn die Lieferung spaet ist."
_PUBLIC = "Orders ship within two business days from our warehouse."

#: How mkdocs-static-i18n (suffix, folder), mkdocs-i18n and hand-made sites name the
#: German page of ``{n}``, and the Jekyll equivalents (jekyll-multiple-languages and
#: hand-made ``-de``/``.de``/``_de`` names).
_NAMINGS = ("{n}_de", "{n}.de-DE", "{n}-de", "{n}.de", "{n}_de_DE", "{n}.DE", "de/{n}", "de-DE/{n}", "{n}-de-DE")
_NAMES = ("secret", "kündigung", "Ångström-notes")
_TOOLS = {
    # layout: (config file, exclusion of {n}, folder of the pages)
    "mkdocs": ("mkdocs.yml", "site_name: x\nexclude_docs: |\n  {n}.md\n", "docs/"),
    "jekyll": ("_config.yml", "exclude:\n  - {n}.md\n", ""),
    "hugo": ("hugo.toml", 'ignoreFiles = ["{n}\\\\.md$"]\n', "content/"),
}


def _form(text: str, form: str) -> str:
    return unicodedata.normalize(form, text)


def _wiki(root: Path, layout: str, files: dict[str, str], locales: tuple[str, ...] = ("en",)) -> WikiSettings:
    return WikiSettings(root=write_files(root, files), layout=layout, default_locale="en", locales=locales,
                        audience_rules=(AudienceRule("**", "public"),))


def _statuses(wiki: WikiSettings) -> dict[str, tuple[bool, bool, str]]:
    return {f.path: (f.resolved.served, f.resolved.public, f.resolved.audience_source)
            for f in check_wiki(wiki).files if f.resolved is not None}


def _named_site(root: Path, layout: str, naming: str, name: str, forms: tuple[str, str], case: str,
                exclude: bool = True) -> tuple[WikiSettings, str]:
    config, exclusion, folder = _TOOLS[layout]
    source = f"{folder}{_form(name, forms[0])}.md"
    translation = folder + naming.format(n=_form(getattr(name, case)(), forms[1])) + ".md"
    files = {config: exclusion.format(n=_form(name, "NFC")) if exclude else exclusion.split("\n")[0] + "\n",
             source: f"---\ntitle: Goodwill\n---\n\n{_SECRET}\n",
             translation: f"---\ntitle: Kulanz\n---\n\n{_GERMAN}\n",
             f"{folder}shipping.md": f"---\ntitle: Shipping\n---\n\n{_PUBLIC}\n",
             f"{folder}shipping-notes.md": f"---\ntitle: Shipping notes\n---\n\n{_PUBLIC} Notes.\n"}
    if layout == "mkdocs" and not exclude:
        files[config] = "site_name: x\n"
    if layout == "hugo" and not exclude:
        files[config] = 'title = "x"\n'
    return _wiki(root, layout, files), translation


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layout=st.sampled_from(sorted(_TOOLS)), naming=st.sampled_from(_NAMINGS), name=st.sampled_from(_NAMES),
       forms=st.sampled_from([("NFC", "NFC"), ("NFC", "NFD"), ("NFD", "NFC")]),
       case=st.sampled_from(["lower", "capitalize", "upper"]))
def test_a_translation_named_by_any_i18n_plugin_of_an_excluded_page_is_not_public(
        tmp_path: Path, layout: str, naming: str, name: str, forms: tuple[str, str], case: str) -> None:
    """Issue 24 (X2): ``secret_de.md``, ``secret.de-DE.md``, ``secret-de.md``, ``de-DE/secret.md``…
    beside a ``secret.md`` that MkDocs' ``exclude_docs``, Jekyll's ``exclude:`` or Hugo's
    ``ignoreFiles`` excludes is served to agents only (no sitemap proves it published),
    in either Unicode form and any case; the unrelated public pages beside it stay public."""
    wiki, translation = _named_site(tmp_path / f"w{next(_SITES)}", layout, naming, name, forms, case)
    found = _statuses(wiki)
    # Hugo's ``ignoreFiles`` regular expression also matches ``de/secret.md``: not read at all.
    served, public, why = found.get(translation, (False, False, "excluded itself"))
    assert not public, (layout, translation, why)
    assert not served or ("a translation of" in why and "does not build" in why), why
    assert all(p for path, (_, p, _) in found.items() if "shipping" in path), found


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layout=st.sampled_from(sorted(_TOOLS)), naming=st.sampled_from(_NAMINGS))
def test_the_same_translation_of_a_built_page_stays_public(tmp_path: Path, layout: str, naming: str) -> None:
    """No false withholding (issue 24): without the exclusion the same names are public."""
    wiki, translation = _named_site(tmp_path / f"w{next(_SITES)}", layout, naming, "secret", ("NFC", "NFC"),
                                    "lower", exclude=False)
    served, public, why = _statuses(wiki)[translation]
    assert served and public, why


_POLYGLOT = "languages: [en, de]\ndefault_lang: en\nexclude:\n  - secret.md\n"


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(how=st.sampled_from(["excluded", "internal", "unpublished"]),
       lang=st.sampled_from(["de", "DE", "de-DE", "de_DE"]),
       permalink=st.sampled_from(["/secret/", "/secret", "secret/", "/Secret/"]),
       place=st.sampled_from(["geheim.md", "_de/geheim.md", "de/kulanz.md"]))
def test_a_polyglot_page_with_the_permalink_of_an_unpublished_page_is_not_public(
        tmp_path: Path, how: str, lang: str, permalink: str, place: str) -> None:
    """Issue 24 (X2): jekyll-polyglot builds pages with one ``permalink`` as one page in
    several languages, whatever their file names: ``lang: de`` with the permalink of a
    ``secret.md`` that ``exclude:`` keeps off the site, that is internal, or that is not
    published is its German page, not public; another permalink stays public."""
    config = _POLYGLOT if how == "excluded" else _POLYGLOT.split("exclude:")[0]
    extra = {"excluded": "", "internal": "audience: internal\n", "unpublished": "published: false\n"}[how]
    files = {"_config.yml": config,
             "secret.md": f"---\ntitle: Goodwill\npermalink: /secret/\n{extra}---\n\n{_SECRET}\n",
             place: f"---\ntitle: Kulanz\nlang: {lang}\npermalink: {permalink}\n---\n\n{_GERMAN}\n",
             "versand.md": f"---\ntitle: Versand\nlang: {lang}\npermalink: /shipping/\n---\n\n{_PUBLIC}\n"}
    found = _statuses(_wiki(tmp_path / f"w{next(_SITES)}", "jekyll", files, ("en", "de")))
    if place in found:  # ``_de/`` is no page to Jekyll without a collection: nothing to serve
        _, public, why = found[place]
        assert not public, (how, why)
        assert "secret.md" in why, why
    assert found["versand.md"][1], found["versand.md"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source_permalink=st.sampled_from(["", "/docs/plan.html", "/docs/plan/"]),
       permalink=st.sampled_from(["/docs/plan.html", "/docs/plan/", "/docs/plan", "/de/docs/plan.html",
                                  "/de/docs/plan/", "/docs/plan/index.html"]),
       lang=st.sampled_from(["de", "de-DE"]))
def test_a_polyglot_page_at_the_url_of_an_excluded_page_is_not_public(
        tmp_path: Path, source_permalink: str, permalink: str, lang: str) -> None:
    """Issue 24 (X2): jekyll-polyglot pairs pages by URL, and an excluded page without a
    ``permalink`` has one all the same (``docs/plan.md`` is ``/docs/plan.html``, or
    ``/docs/plan/`` in another style); a German page whose permalink is that URL, with or
    without ``/de/`` before it, is its German page: not public. Another URL stays public."""
    extra = f"permalink: {source_permalink}\n" if source_permalink else ""
    files = {"_config.yml": "languages: [en, de]\ndefault_lang: en\nexclude:\n  - docs/plan.md\n",
             "docs/plan.md": f"---\ntitle: Plan\n{extra}---\n\n{_SECRET}\n",
             "other.md": f"---\ntitle: Plan\nlang: {lang}\npermalink: {permalink}\n---\n\n{_GERMAN}\n",
             "versand.md": f"---\ntitle: Versand\nlang: {lang}\npermalink: /docs/shipping.html\n---\n\n{_PUBLIC}\n"}
    found = _statuses(_wiki(tmp_path / f"w{next(_SITES)}", "jekyll", files, ("en", "de")))
    _, public, why = found["other.md"]
    assert not public, (permalink, why)
    assert found["versand.md"][1], found["versand.md"]


_KEY_SPELLINGS = st.sampled_from(["translationKey", "TranslationKey", "translationkey", "TRANSLATIONKEY"])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(how=st.sampled_from(["ignored", "internal", "draft"]), key=st.sampled_from(["goodwill", "Goodwill Credit"]),
       place=st.sampled_from(["content/kulanz.de.md", "content/de/kulanz.md"]),
       source_name=_KEY_SPELLINGS, page_name=_KEY_SPELLINGS)
def test_a_hugo_page_joined_only_by_translation_key_to_an_unpublished_source_is_not_public(
        tmp_path: Path, how: str, key: str, place: str, source_name: str, page_name: str) -> None:
    """Issue 24 (X2): Hugo pairs translations by ``translationKey`` whatever their file
    names, and reads the key's name whatever its case (``TranslationKey``). A page sharing
    the key of a source that ``ignoreFiles`` excludes, that is internal, or that is a draft
    is not public; a page with another key stays public."""
    config = ('defaultContentLanguage = "en"\n' + ('ignoreFiles = ["secret\\\\.md$"]\n' if how == "ignored" else "")
              + '[languages.en]\n[languages.de]\n')
    source_front = {"ignored": "", "internal": "audience: internal\n", "draft": "draft: true\n"}[how]
    files = {"hugo.toml": config,
             "content/secret.md": f"---\ntitle: Goodwill\n{source_name}: {key}\n{source_front}---\n\n{_SECRET}\n",
             place: f"---\ntitle: Kulanz\n{page_name}: {key.lower()}\n---\n\n{_GERMAN}\n",
             "content/versand.de.md": f"---\ntitle: Versand\ntranslationKey: shipping\n---\n\n{_PUBLIC}\n"}
    wiki = WikiSettings(root=write_files(tmp_path / f"w{next(_SITES)}", files), layout="hugo",
                        default_locale="en", locales=("en", "de"), audience_rules=(AudienceRule("**", "public"),))
    found = _statuses(wiki)
    _, public, why = found[place]
    assert not public, (how, place, why)
    assert found["content/versand.de.md"][1], found["content/versand.de.md"]


#: ``(layout, config, its text, source path, its text, translation path, its text)``: a
#: translation by name (MkDocs ``secret_de.md``), by ``translationKey`` (Hugo) and by
#: ``lang`` and ``permalink`` (jekyll-polyglot), of a source the tool excludes, or (the
#: corpus rules' incremental relations) of an internal one.
_LATER = {
    "mkdocs name": ("mkdocs", "mkdocs.yml", "site_name: x\nexclude_docs: |\n  secret.md\n",
                    "docs/secret.md", "---\ntitle: Goodwill\n---\n\n",
                    "docs/secret_de.md", "---\ntitle: Kulanz\n---\n\n"),
    "hugo translationKey": ("hugo", "hugo.toml", 'ignoreFiles = ["secret\\\\.md$"]\n[languages.en]\n[languages.de]\n',
                            "content/secret.md", "---\ntitle: Goodwill\ntranslationKey: goodwill\n---\n\n",
                            "content/kulanz.de.md", "---\ntitle: Kulanz\ntranslationKey: goodwill\n---\n\n"),
    "jekyll polyglot": ("jekyll", "_config.yml", _POLYGLOT,
                        "secret.md", "---\ntitle: Goodwill\npermalink: /secret/\n---\n\n",
                        "geheim.md", "---\ntitle: Kulanz\nlang: de\npermalink: /secret/\n---\n\n"),
    "jekyll polyglot, internal source": ("jekyll", "_config.yml", _POLYGLOT.split("exclude:")[0],
                                         "secret.md", "---\ntitle: Goodwill\npermalink: /secret/\naudience: internal\n"
                                         "---\n\n",
                                         "geheim.md", "---\ntitle: Kulanz\nlang: de\npermalink: /secret/\n---\n\n"),
}


@pytest.mark.parametrize("way", sorted(_LATER))
def test_an_excluded_source_that_appears_or_goes_later_decides_its_translation_incrementally(
        tmp_path: Path, way: str) -> None:
    """Issue 24 (X2, X7): the status of a translation of an excluded page changes with
    that page, through the indexer's incremental path that ``serve``'s watcher drives
    (a batch of changed paths) and its reconcile scan — without a full rebuild: the source
    appears (internal), goes (public again), appears in a reconcile scan (internal)."""
    from provider.indexing import Indexer
    from provider.search.layout import IndexLayout

    layout, config, config_text, source, source_text, translation, translation_text = _LATER[way]
    folder = "docs/" if layout == "mkdocs" else "content/" if layout == "hugo" else ""
    content, settings_ = _site_of_pages(tmp_path, layout, folder, {config: config_text,
                                                                   translation: translation_text + _GERMAN + "\n"})
    index = tmp_path / "index"
    with Indexer(settings_, IndexLayout(index)) as indexer:
        indexer.sync()
        assert translation in public_index_paths(index), way  # no source: nothing to inherit
        (content / source).write_text(source_text + _SECRET + "\n", "utf-8")
        indexer.sync([source])  # the watcher's batch names only the new file
        assert translation not in public_index_paths(index), way
        assert f"{folder}shipping.md" in public_index_paths(index)
        (content / source).unlink()
        indexer.sync([source])
        assert translation in public_index_paths(index), way
        (content / source).write_text(source_text + _SECRET + "\n", "utf-8")
        indexer.sync()  # a reconcile scan, the event missed
        assert translation not in public_index_paths(index), way


def _site_of_pages(tmp_path: Path, layout: str, folder: str, files: dict[str, str]) -> tuple[Path, WikiSettings]:
    """A site of ``files``, a public shipping page and six unrelated pages under ``folder``
    (pages enough that a change derives again only what it affects, not the whole corpus;
    a root named content/ would be Hugo's content folder), and its settings: every page public."""
    content = write_files(tmp_path / "site", {
        **files,
        f"{folder}shipping.md": f"---\ntitle: Shipping\n---\n\n{_PUBLIC}\n",
        **{f"{folder}page-{n}.md": f"---\ntitle: Page {n}\n---\n\nPage {n} is about topic number {n}.\n"
           for n in range(6)}})
    return content, WikiSettings(root=content, layout=layout, default_locale="en", locales=("en", "de"),
                                 audience_rules=(AudienceRule("**", "public"),), config_hold_s=0.0)


#: ``(layout, config, its text, excluded source, its front matter with {key}, translation,
#: its text, the translation's key)``: an excluded file whose join key an edit changes.
_REKEYED = {
    "hugo translationKey": ("hugo", "hugo.toml", 'ignoreFiles = ["secret\\\\.md$"]\n[languages.en]\n[languages.de]\n',
                            "content/secret.md", "---\ntitle: Goodwill\ntranslationKey: {key}\n---\n\n",
                            "content/kulanz.de.md", "---\ntitle: Kulanz\ntranslationKey: goodwill\n---\n\n",
                            "goodwill"),
    # Named unlike the permalink: its path's URL (/goodwill.html) joins nothing.
    "jekyll polyglot": ("jekyll", "_config.yml", _POLYGLOT.replace("secret.md", "goodwill.md"),
                        "goodwill.md", "---\ntitle: Goodwill\npermalink: /{key}/\n---\n\n",
                        "geheim.md", "---\ntitle: Kulanz\nlang: de\npermalink: /secret/\n---\n\n", "secret"),
}


@pytest.mark.parametrize("way", sorted(_REKEYED))
def test_an_excluded_source_rekeyed_with_the_event_missed_is_seen_by_the_reconcile_scan(
        tmp_path: Path, way: str) -> None:
    """Issue 24 (X2, X7): an excluded page that *changes* its ``translationKey`` or
    ``permalink`` while the watcher misses the event (no batch names it) changes its
    translations' status at the next reconcile scan, though their own files did not
    change: the key becomes the translation's (internal), and goes again (public). (A
    guard: the reconcile scan hands every skipped file to ``translations_of``.)"""
    from provider.indexing import Indexer
    from provider.search.layout import IndexLayout

    layout, config, config_text, source, source_front, translation, translation_text, key = _REKEYED[way]
    folder = "content/" if layout == "hugo" else ""
    content, settings_ = _site_of_pages(tmp_path, layout, folder, {
        config: config_text, source: source_front.format(key="other-page") + _SECRET + "\n",
        translation: translation_text + _GERMAN + "\n"})
    index = tmp_path / "index"
    with Indexer(settings_, IndexLayout(index)) as indexer:
        indexer.sync()
        assert translation in public_index_paths(index), way  # the excluded page has another key
        (content / source).write_text(source_front.format(key=key) + _SECRET + "\n", "utf-8")
        indexer.sync()  # a reconcile scan, the event missed
        assert translation not in public_index_paths(index), way
        assert f"{folder}shipping.md" in public_index_paths(index)
        (content / source).write_text(source_front.format(key="another-page") + _SECRET + "\n", "utf-8")
        indexer.sync()
        assert translation in public_index_paths(index), way
