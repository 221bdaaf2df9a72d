"""Issue 24, rule 5c: a page whose path names another language reads as a translation.

An internal ``goodwill.md`` and its German text at ``goodwill-de.md``,
``goodwill.de-DE.md``, ``de-DE/goodwill.md``, ``german/goodwill.md``… — places the
locale settings do not name — were served public, labelled with the default locale. The
class: any folder or file-name suffix that is a language tag or a language's name, other
than the page's own locale, makes the page a translation candidate of the page without
it; that page (or its translation group) being internal makes the candidate internal,
with a warning.
"""

from __future__ import annotations

import itertools
import unicodedata
from pathlib import Path

import langcodes
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.audience import AudienceRule
from provider.wiki.check import check_wiki
from provider.wiki.document import WikiSettings
from provider.wiki.translation_names import candidate_stems, language_of
from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, start_provider
from tests.support import write_files

_SITES = itertools.count()
_SECRET = "Agents may grant a goodwill credit of up to 75 euros when a delivery is late."
_GERMAN = "Mitarbeiter duerfen eine Kulanzgutschrift von bis zu 75 Euro gewaehren, wenn die Lieferung spaet ist."
#: The language as a path writes it: tags in any case and separator, 639-2 codes, names.
_GERMANS = ["de", "DE", "De", "de-DE", "de_DE", "DE-de", "de-AT", "de_CH", "deu", "ger", "german", "German",
            "deutsch", "Deutsch"]
_FORMS = ["{stem}.{tag}", "{stem}_{tag}", "{stem}-{tag}", "{tag}/{stem}", "docs/{tag}/{stem}",
          "{tag}/docs/{stem}"]




def _page(title: str, text: str, audience: str | None = None) -> str:
    said = f"audience: {audience}\n" if audience else ""
    return f"---\ntitle: {title}\n{said}---\n\n{text}\n"


def _statuses(root: Path, locales: tuple[str, ...]) -> dict[str, tuple[str, str, tuple[str, ...]]]:
    wiki = WikiSettings(root=root, default_locale="en", locales=locales,
                        audience_rules=(AudienceRule("**", "public"),))
    report = check_wiki(wiki)
    return {f.path: (f.resolved.audience, f.resolved.audience_source, f.warnings) for f in report.files
            if f.resolved is not None}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tag=st.sampled_from(_GERMANS), form=st.sampled_from(_FORMS), stem=st.sampled_from(["goodwill", "refunds"]),
       locales=st.sampled_from([("en",), ("en", "de"), ("en", "fr")]),
       how=st.sampled_from(["front matter", "rule"]))
def test_a_translation_the_locale_settings_do_not_place_is_internal_with_its_source(
        tmp_path: Path, tag: str, form: str, stem: str, locales: tuple[str, ...], how: str) -> None:
    """Issue 24 (X2/X3): whatever the form, the candidate never reaches the public
    index while its source is internal, and ``check`` says why."""
    path = form.format(stem=stem, tag=tag)
    source = "/".join(part for part in form.format(stem=stem, tag="").split("/") if part).rstrip("._-")
    files = {f"{source}.md": _page("Goodwill", _SECRET, "internal" if how == "front matter" else None),
             f"{path}.md": _page("Kulanz", _GERMAN), "shipping.md": _page("Shipping", "Orders ship in two days.")}
    root = write_files(tmp_path / f"w{next(_SITES)}", files)
    wiki = WikiSettings(root=root, default_locale="en", locales=locales,
                        audience_rules=((AudienceRule(f"{source}.md", "internal"),) if how == "rule" else ())
                        + (AudienceRule("**", "public"),))
    found = {f.path: f.resolved for f in check_wiki(wiki).files if f.resolved is not None}
    candidate = found[f"{path}.md"]
    assert candidate.audience == "internal", (path, candidate.audience_source)
    assert found["shipping.md"].audience == "public"


@pytest.mark.parametrize("path", ["goodwill.de.md", "de/goodwill.md", "goodwill-de.md", "goodwill_de.md",
                                  "goodwill.de-DE.md", "de-DE/goodwill.md", "german/goodwill.md",
                                  "deu/goodwill.md", "goodwill.DE.md", "goodwill.de_DE.md"])
def test_the_attack_wikis_forms_are_internal_with_a_warning(tmp_path: Path, path: str) -> None:
    """The attacker's forms (issue 24, two attack wikis), under the default locales [en] (where no
    pattern places German at all) — pinned."""
    root = write_files(tmp_path / "w", {"goodwill.md": _page("Goodwill", _SECRET, "internal"),
                                        path: _page("Kulanz", _GERMAN)})
    audience, source, problems = _statuses(root, ("en",))[path]
    assert audience == "internal"
    assert "names the language 'de'" in source or "translation of the internal" in source
    assert problems


def test_a_public_source_leaves_the_candidate_public(tmp_path: Path) -> None:
    """No false withholding: a public page's translation-like sibling stays public."""
    root = write_files(tmp_path / "w", {"goodwill.md": _page("Goodwill", "Public goodwill policy.", "public"),
                                        "goodwill-de.md": _page("Kulanz", _GERMAN)})
    assert _statuses(root, ("en",))["goodwill-de.md"][0] == "public"


@pytest.mark.parametrize(("text", "language"), [
    ("de", "de"), ("DE", "de"), ("de_DE", "de"), ("deu", "de"), ("German", "de"), ("Deutsch", "de"),
    ("français", "fr"), ("zh-Hant", "zh"), ("pt_BR", "pt"),
    ("archive", None), ("guide", None), ("intro", None), ("v2", None), ("2024", None), ("readme", None),
])
def test_language_of_reads_tags_and_whole_names_only(text: str, language: str | None) -> None:
    assert language_of(text) == language


def test_candidate_stems_ignore_the_pages_own_language() -> None:
    assert candidate_stems("en/goodwill.md", "en") == []
    assert candidate_stems("goodwill.en-GB.md", "en") == []
    assert candidate_stems("goodwill-de.md", "en") == [("goodwill", "de")]
    assert candidate_stems("docs/german/a.md", "en") == [("docs/a", "de")]


@pytest.mark.e2e
def test_e2e_customer_safe_never_gets_an_unplaced_translation_of_internal_text(tmp_path: Path) -> None:
    """End to end (real ``serve``, signed requests): the first attack wiki's case. The German copy
    of the internal page is not returned to ``customer_safe``; ``agent_only`` gets it,
    labelled internal."""
    wiki = write_files(tmp_path / "wiki", {
        "goodwill.md": _page("Goodwill credits", _SECRET, "internal"),
        "goodwill-de.md": _page("Kulanzgutschriften", _GERMAN),
        "german/goodwill.md": _page("Kulanzgutschriften", _GERMAN),
        "shipping.md": _page("Shipping", "Orders ship within two business days; Kulanzgutschrift not needed."),
    })
    server = start_provider(tmp_path / "run", content=wiki, config={
        "port": 18851, "locales": ["en"], "audience_rules": [{"**": "public"}]})
    try:
        def ids(secret: str) -> dict[str, str]:
            reply = server.retrieve({"query": "Kulanzgutschrift", "limit": 20}, secret)
            assert reply.status == 200, reply.body
            return {r["documentId"]: r["audience"] for r in reply.json()["results"]}

        public = ids(CUSTOMER_SECRET)
        assert public and all(audience == "public" for audience in public.values())
        assert not any("goodwill" in doc for doc in public), public
        agents = ids(AGENT_SECRET)
        assert {agents.get("goodwill-de"), agents.get("german/goodwill")} == {"internal"}, agents
    finally:
        server.stop()


#: Languages with a two-letter code, read from the BCP 47 library (``langcodes``), not
#: listed here; their tags are built by it too.
_LANGUAGES = sorted(code for code in ("de", "fr", "es", "ja", "ko", "pt", "ru", "zh", "nl", "sv", "pl", "tr", "vi")
                    if langcodes.Language.get(code).is_valid())
_REGIONS = (None, "DE", "AT", "BR", "CN", "TW", "US", "419")


@st.composite
def _tags(draw: st.DrawFn) -> tuple[str, str]:
    """``(tag as a path writes it, its language)``: a BCP 47 tag made by ``langcodes``
    (language, optional script for Chinese, optional region), in any case, ``-`` or ``_``."""
    language = draw(st.sampled_from(_LANGUAGES))
    script = draw(st.sampled_from([None, "Hant", "Hans"])) if language == "zh" else None
    tag = langcodes.Language.make(language=language, script=script, territory=draw(st.sampled_from(_REGIONS))).to_tag()
    assert langcodes.tag_is_valid(tag)
    written = draw(st.sampled_from([tag, tag.lower(), tag.upper(), tag.replace("-", "_")]))
    return written, language


#: Name shapes issue 24 lists: ``{tag}`` and ``{stem}`` placeholders.
_SHAPES = ["{stem}-{tag}", "{tag}-{stem}", "{stem}-{tag}-v2", "{stem}_{tag}_draft2", "{stem}.{tag}",
           "i18n/{tag}/docusaurus-plugin-content-docs/current/{stem}", "{tag}/{stem}"]
#: The source's stem per shape (Docusaurus' i18n tree mirrors docs/).
_SOURCES = {"i18n/{tag}/docusaurus-plugin-content-docs/current/{stem}": "docs/{stem}"}
_STEMS = ["goodwill", "Kündigung", "Über-uns"]


class TestNameShapes:
    """Issue 24, rule 5c: the shapes the last round missed — a Docusaurus ``i18n/`` tree,
    a language before the name (``de-goodwill``) or in its middle (``goodwill-de-v2``),
    NFD against NFC, case — times BCP 47 tags made by ``langcodes``: the candidate of an
    internal page is never public; of a public page, stays public."""

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(tagged=_tags(), shape=st.sampled_from(_SHAPES), stem=st.sampled_from(_STEMS),
           source_form=st.sampled_from(["NFC", "NFD", "upper", "as is"]), internal=st.booleans())
    def test_every_shape_reads_as_a_translation(self, tmp_path: Path, tagged: tuple[str, str], shape: str,
                                                stem: str, source_form: str, internal: bool) -> None:
        tag, language = tagged
        path = shape.format(stem=stem, tag=tag) + ".md"
        assert any(found == language for _, found in candidate_stems(path, "en")), path
        source = _SOURCES.get(shape, "{stem}").format(stem=stem)
        source = {"NFC": unicodedata.normalize("NFC", source), "NFD": unicodedata.normalize("NFD", source),
                  "upper": source.upper(), "as is": source}[source_form] + ".md"
        files = {source: _page("Goodwill", _SECRET, "internal" if internal else "public"),
                 path: _page("Kulanz", _GERMAN), "shipping.md": _page("Shipping", "Orders ship in two days.")}
        root = write_files(tmp_path / f"w{next(_SITES)}", files)
        found = _statuses(root, ("en",))
        audience, why, warnings = found[path]
        assert (audience == "internal") == internal, (path, source, why)
        assert any(w.startswith("unplaced translation:") for w in warnings), warnings
        assert found["shipping.md"][0] == "public"

    @pytest.mark.parametrize("path", ["docs/install-ubuntu.md", "docs/guide.md", "docs/v2/intro.md", "archive.md",
                                      # Real names the prefix and middle shapes must not read
                                      # (kaia-docs, ms-officedocs-support): Kashmiri, Icelandic.
                                      "docs/nodes/service-chain/configure/kas-anchoring.md",
                                      "Outlook/room-finder-is-not-available-shared-calendars-outlook.md"])
    def test_paths_naming_no_language_are_no_candidates(self, path: str) -> None:
        assert candidate_stems(path, "en") == []
