"""Issue 24, rule 5b: a translation the locale settings place inherits its source's status.

"The internal status of a translation's source counts however it was decided (rule,
cascade, front matter)": before, only a translation made public by an operator's rule or
a cascade inherited, only from a source internal by front matter, a rule or a cascade —
a translation public by its own front matter, or of a draft, quarantined or unbuilt
source, stayed public. The class: every way a source can be internal or withheld, times
every way the translation can be public, times the places a translation can be put;
one code path (``corpus._inherit_from_source``) with rule 5c.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpthread_kit.backend import SearchQuery
from helpthread_kit.capabilities import ALL_CAPABILITIES
from helpthread_kit.registrations import Exposure
from provider.indexing import Indexer
from provider.search.backend import WhooshBackend
from provider.search.layout import IndexLayout
from provider.wiki.check import check_wiki
from provider.wiki.classify import AudienceRule
from provider.wiki.document import WikiSettings
from tests.conftest import CUSTOMER_SECRET, start_provider
from tests.support import write_files

_SITES = itertools.count()
_SECRET = "Agents may grant a goodwill credit of up to 75 euros when a delivery is late."
_GERMAN = "Mitarbeiter duerfen eine Kulanzgutschrift von bis zu 75 Euro gewaehren, wenn die Lieferung spaet ist."

#: How the source is made internal or withheld: (front matter lines, an audience rule for
#: it, a section page beside it with this cascade, whether it is then withheld).
_SOURCE_WAYS = {
    "front matter": ("audience: internal\n", None, None),
    "audience rule": ("", "internal", None),
    "cascade": ("", None, "audience: internal"),
    "quarantine": ("audience: Internal-only\n", None, None),
    "draft": ("audience: public\ndraft: true\n", None, None),
    "future publishDate": ("audience: public\npublishDate: 2999-01-01\n", None, None),
    "cascaded draft": ("audience: public\n", None, "draft: true"),
}
#: How the translation is made public.
_TRANSLATION_WAYS = ("front matter", "audience rule", "catch-all rule")
#: Where the locale settings put the German translation of ``docs/goodwill.md``.
_PLACES = ("docs/goodwill.de.md", "de/docs/goodwill.md")


def _page(title: str, text: str, front: str = "") -> str:
    return f"---\ntitle: {title}\n{front}---\n\n{text}\n"


def _site(root: Path, source_way: str, translation_way: str, place: str,
          *, layout: str = "hugo") -> dict[str, tuple[bool, bool, str]]:
    front, rule, cascade = _SOURCE_WAYS[source_way]
    files = {
        "docs/goodwill.md": _page("Goodwill", _SECRET, front),
        place: _page("Kulanz", _GERMAN, "audience: public\n" if translation_way == "front matter" else ""),
        "shipping.md": _page("Shipping", "Orders ship within two business days.", "audience: public\n"),
    }
    if cascade is not None:
        files["docs/_index.md"] = f"---\ntitle: Docs\ncascade:\n  {cascade}\n---\n\nThe docs.\n"
    rules = [AudienceRule("docs/goodwill.md", rule)] if rule else []
    if translation_way == "audience rule":
        rules.append(AudienceRule(place, "public"))
    if translation_way == "catch-all rule" or cascade is not None:
        rules.append(AudienceRule("**", "public"))
    wiki = WikiSettings(root=write_files(root, files), layout=layout, default_locale="en", locales=("en", "de"),
                        audience_rules=tuple(rules))
    return {f.path: (f.resolved.served, f.resolved.public, f.resolved.audience_source)
            for f in check_wiki(wiki).files if f.resolved is not None}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source_way=st.sampled_from(sorted(_SOURCE_WAYS)), translation_way=st.sampled_from(_TRANSLATION_WAYS),
       place=st.sampled_from(_PLACES))
def test_a_placed_translation_of_internal_or_withheld_text_is_never_public(
        tmp_path: Path, source_way: str, translation_way: str, place: str) -> None:
    """Issue 24 (X2): however the source's status was decided and however the
    translation was made public, the translation never reaches ``customer_safe``; it is
    still served to agents, with the reason naming its source."""
    found = _site(tmp_path / f"w{next(_SITES)}", source_way, translation_way, place)
    served, public, why = found[place]
    assert not found["docs/goodwill.md"][1], source_way  # the source itself is not public
    assert served and not public, (source_way, translation_way, place, why)
    assert "a translation of" in why and "docs/goodwill.md" in why, why
    assert found["shipping.md"][1]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(translation_way=st.sampled_from(_TRANSLATION_WAYS), place=st.sampled_from(_PLACES))
def test_a_placed_translation_of_a_public_page_stays_public(tmp_path: Path, translation_way: str,
                                                           place: str) -> None:
    """No false withholding (issue 24): the translation of a public page is public."""
    root = tmp_path / f"w{next(_SITES)}"
    files = {"docs/goodwill.md": _page("Goodwill", "Public goodwill policy.", "audience: public\n"),
             place: _page("Kulanz", _GERMAN, "audience: public\n" if translation_way == "front matter" else "")}
    rules = {"audience rule": (AudienceRule(place, "public"),), "catch-all rule": (AudienceRule("**", "public"),),
             "front matter": ()}[translation_way]
    wiki = WikiSettings(root=write_files(root, files), layout="hugo", default_locale="en", locales=("en", "de"),
                        audience_rules=rules)
    found = {f.path: f.resolved for f in check_wiki(wiki).files if f.resolved is not None}
    assert found[place].public, found[place].audience_source


def test_a_translation_of_a_page_the_tool_does_not_build_is_internal(tmp_path: Path) -> None:
    """Issue 24 (X2): Jekyll copies a file without front matter as a static file, so the
    source is withheld (not a page); its translation, public by its own front matter, is
    internal (served to agents), like a translation of any other withheld page."""
    files = {"goodwill.md": f"# Goodwill\n\n{_SECRET}\n",
             "de/goodwill.md": _page("Kulanz", _GERMAN, "audience: public\n")}
    wiki = WikiSettings(root=write_files(tmp_path / "w", files), layout="jekyll", default_locale="en",
                        locales=("en", "de"), audience_rules=(AudienceRule("**", "public"),))
    found = {f.path: f.resolved for f in check_wiki(wiki).files if f.resolved is not None}
    assert not found["goodwill.md"].served
    assert found["de/goodwill.md"].served and not found["de/goodwill.md"].public
    assert "goodwill.md, which is not served" in found["de/goodwill.md"].audience_source


def test_a_source_only_kept_out_of_search_engines_passes_nothing_on(tmp_path: Path) -> None:
    """The site publishes a ``noindex`` page: its translation stays public, as a copy of it
    would (one rule with the copy rules, :func:`provider.wiki.same_text.copy_source`)."""
    files = {"docs/goodwill.md": _page("Goodwill", "Public goodwill policy.", "audience: public\nnoindex: true\n"),
             "de/docs/goodwill.md": _page("Kulanz", _GERMAN, "audience: public\n")}
    wiki = WikiSettings(root=write_files(tmp_path / "w", files), layout="hugo", default_locale="en",
                        locales=("en", "de"))
    found = {f.path: f.resolved for f in check_wiki(wiki).files if f.resolved is not None}
    assert not found["docs/goodwill.md"].public
    assert found["de/docs/goodwill.md"].public


def _indexed(root: Path, index: Path, files: dict[str, str]) -> WhooshBackend:
    wiki = WikiSettings(root=write_files(root, files), default_locale="en", locales=("en", "de"))
    with Indexer(wiki, IndexLayout(index)) as indexer:
        indexer.sync()
    return WhooshBackend(index)


def _found(backend: WhooshBackend, text: str, reach: Exposure, locale: str | None) -> dict[str, str | None]:
    query = SearchQuery(text=text, limit=20, reach=reach, capabilities=frozenset(ALL_CAPABILITIES), locale=locale)
    return {r.document_id: r.locale for r in backend.search(query)}


def test_a_placed_public_translation_is_retrieved_in_its_locale_for_customer_safe(tmp_path: Path) -> None:
    """Issue 24 (Q3): ``de/goodwill.md`` beside a public ``goodwill.md`` is one group; asked
    in ``de``, ``customer_safe`` gets the German page — by a German word, and by a word
    both pages share (one answer per group: the one in the asked locale)."""
    backend = _indexed(tmp_path / "w", tmp_path / "index", {
        "goodwill.md": _page("Goodwill", "Agents may grant a goodwill credit when a delivery is late.",
                             "audience: public\n"),
        "de/goodwill.md": _page("Kulanz", f"{_GERMAN} Goodwill heisst Kulanz.", "audience: public\n"),
    })
    assert _found(backend, "Kulanzgutschrift", Exposure.CUSTOMER_SAFE, "de") == {"de/goodwill": "de"}
    assert _found(backend, "goodwill", Exposure.CUSTOMER_SAFE, "de") == {"de/goodwill": "de"}
    assert _found(backend, "goodwill", Exposure.CUSTOMER_SAFE, "en") == {"goodwill": "en"}


def test_a_placed_translation_of_an_internal_page_is_not_retrieved_for_customer_safe(tmp_path: Path) -> None:
    """Issue 24 (X2): the same pair with the source internal by front matter and the
    translation public by its own: ``customer_safe`` gets neither, agents get both."""
    backend = _indexed(tmp_path / "w", tmp_path / "index", {
        "goodwill.md": _page("Goodwill", _SECRET, "audience: internal\n"),
        "de/goodwill.md": _page("Kulanz", _GERMAN, "audience: public\n"),
    })
    assert _found(backend, "Kulanzgutschrift", Exposure.CUSTOMER_SAFE, "de") == {}
    assert _found(backend, "Kulanzgutschrift", Exposure.AGENT_ONLY, "de") == {"de/goodwill": "de"}


@pytest.mark.e2e
def test_e2e_a_placed_public_translation_reaches_customer_safe_in_its_locale(tmp_path: Path) -> None:
    """End to end (real ``serve``, signed requests), issue 24: with the ``locale``
    capability declared, ``locale: de`` returns ``de/goodwill`` to ``customer_safe``. In the
    minimum configuration the request's ``locale`` is ignored (CONTRACT Q3, C2): one answer
    per group, in the language the query is read as."""
    wiki = write_files(tmp_path / "wiki", {
        "goodwill.md": _page("Goodwill", "Agents may grant a goodwill credit when a delivery is late.",
                             "audience: public\n"),
        "de/goodwill.md": _page("Kulanz", f"{_GERMAN} Goodwill heisst Kulanz.", "audience: public\n"),
    })
    server = start_provider(tmp_path / "run", content=wiki, config={
        "locales": ["en", "de"], "capabilities": ["retrieve", "locale"]})
    try:
        for query in ("Kulanzgutschrift", "goodwill"):
            reply = server.retrieve({"query": query, "locale": "de", "limit": 10}, CUSTOMER_SECRET)
            assert reply.status == 200, reply.body
            assert [(r["documentId"], r["locale"]) for r in reply.json()["results"]] == [("de/goodwill", "de")]
    finally:
        server.stop()
