"""Citation URLs (the ``citationUrl`` capability, CONTRACT R7): https, absolute, a host, no
user information — anything else dropped with a warning; internal documents only from the
internal base and only for agent_only; chunk URLs carry their heading's anchor."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from provider.indexing import Indexer
from provider.search.layout import IndexLayout
from provider.wiki.anchors import Slugger, slugify
from provider.wiki.check import check_wiki
from provider.wiki.citations import (
    CitationSettings,
    UrlInputs,
    builds_url,
    check_base_url,
    check_path_pattern,
    document_url,
    is_citable,
    with_anchor,
)
from provider.wiki.document import WikiSettings

SITE = CitationSettings(base_url="https://help.example.com", path_pattern="/{locale_prefix}{path}/",
                        internal_base_url="https://wiki.example.net/kb")


def _inputs(**overrides: object) -> UrlInputs:
    values: dict[str, object] = {"front_matter_url": None, "site_path": "account/reset-password", "locale": "de",
                                 "default_locale": "en", "doc_id": "de/account/reset-password"}
    values.update(overrides)
    return UrlInputs(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize(("url", "ok"), [
    ("https://help.example.com/a", True),
    ("https://help.example.com:8443/a?b=c#d", True),
    ("http://help.example.com/a", False),
    ("https://user:pw@help.example.com/a", False),
    ("https://@help.example.com/a", False),
    ("https:///a", False),
    ("//help.example.com/a", False),
    ("/a/b", False),
    ("javascript:alert(1)", False),
    ("https://help.example.com/a b", False),
    ("https://help.example.com/a\nb", False),
    ("https://help.example.com:99999/", False),
    ("https://help.example.com/" + "a" * 2000, False),
])
def test_r7_is_citable(url: str, ok: bool) -> None:
    assert is_citable(url) is ok


@given(st.text(max_size=60))
def test_r7_anything_accepted_is_https_absolute_without_userinfo(text: str) -> None:
    url = "https://" + text
    if is_citable(url):
        assert url.startswith("https://") and "@" not in url.split("/")[2] and not any(c.isspace() for c in url)


def test_pattern_placeholders() -> None:
    url, warning = document_url(_inputs(), public=True, settings=SITE, agent_view=False)
    assert url == "https://help.example.com/de/account/reset-password/" and warning is None
    english, _ = document_url(_inputs(locale="en"), public=True, settings=SITE, agent_view=False)
    assert english == "https://help.example.com/account/reset-password/"
    other = CitationSettings(base_url="https://h.example.com/docs", path_pattern="/{locale}/{slug}?id={id}")
    url, _ = document_url(_inputs(doc_id="kb 1/ä"), public=True, settings=other, agent_view=False)
    assert url == "https://h.example.com/docs/de/reset-password?id=kb%201/%C3%A4"


def test_values_are_percent_encoded() -> None:
    url, _ = document_url(_inputs(site_path="Ordner mit Leerzeichen/Grüße"), public=True, settings=SITE,
                          agent_view=False)
    assert url == "https://help.example.com/de/Ordner%20mit%20Leerzeichen/Gr%C3%BC%C3%9Fe/"
    assert url is not None and is_citable(url)


def test_front_matter_url_overrides_for_public_documents() -> None:
    absolute, _ = document_url(_inputs(front_matter_url="https://elsewhere.example.org/x"), public=True,
                               settings=SITE, agent_view=False)
    assert absolute == "https://elsewhere.example.org/x"
    site_path, _ = document_url(_inputs(front_matter_url="/kb/reset/"), public=True, settings=SITE, agent_view=False)
    assert site_path == "https://help.example.com/kb/reset/"
    # Without a base, a site path cannot become a URL; an absolute one still is.
    assert document_url(_inputs(front_matter_url="/kb/"), public=True, settings=CitationSettings(),
                        agent_view=False) == (None, None)
    assert document_url(_inputs(front_matter_url="https://a.example/"), public=True, settings=CitationSettings(),
                        agent_view=False)[0] == "https://a.example/"


def test_internal_documents_only_from_the_internal_base_and_only_for_agents() -> None:
    internal = _inputs(front_matter_url="https://help.example.com/leak")
    assert document_url(internal, public=False, settings=SITE, agent_view=False) == (None, None)
    url, _ = document_url(internal, public=False, settings=SITE, agent_view=True)
    assert url == "https://wiki.example.net/kb/de/account/reset-password/"
    no_internal_base = CitationSettings(base_url="https://help.example.com")
    assert document_url(internal, public=False, settings=no_internal_base, agent_view=True) == (None, None)


def test_a_url_failing_r7_is_dropped_with_a_warning() -> None:
    url, warning = document_url(_inputs(front_matter_url="/a" + "b" * 2100), public=True, settings=SITE,
                                agent_view=False)
    assert url is None and warning is not None and "dropped" in warning


def test_anchor_rule_and_with_anchor() -> None:
    assert slugify("Option 1: Use a recovery code") == "option-1-use-a-recovery-code"
    assert slugify("Passwort zurücksetzen") == "passwort-zurücksetzen"
    assert slugify('"Invalid code" — even though I typed it') == "invalid-code--even-though-i-typed-it"
    slugger = Slugger()
    assert [slugger.slug("FAQ"), slugger.slug("FAQ"), slugger.slug("faq")] == ["faq", "faq-1", "faq-2"]
    assert with_anchor("https://h.example.com/a/", "passwort-zurücksetzen") == \
        "https://h.example.com/a/#passwort-zur%C3%BCcksetzen"
    assert with_anchor("https://h.example.com/a/#own", "x") == "https://h.example.com/a/#own"
    assert with_anchor("https://h.example.com/a/", "") == "https://h.example.com/a/"
    assert with_anchor(None, "x") is None


def test_base_url_and_pattern_validation() -> None:
    assert check_base_url(" https://help.example.com/docs/ ") == "https://help.example.com/docs"
    for bad in ("http://h.example.com", "https://u@h.example.com", "https://h.example.com/#x", "h.example.com"):
        with pytest.raises(ValueError):
            check_base_url(bad)
    assert check_path_pattern("/{locale}/{path}.html") == "/{locale}/{path}.html"
    for bad in ("{path}", "/{nope}", "/{path", "/{path!r}x{"):
        with pytest.raises(ValueError):
            check_path_pattern(bad)


def _write(root: Path, relpath: str, text: str) -> None:
    (root / relpath).parent.mkdir(parents=True, exist_ok=True)
    (root / relpath).write_text(text, "utf-8")


def test_index_and_check_warn_about_a_dropped_url(tmp_path: Path) -> None:
    """R7 at index time: the warning is in the sync report and in ``check``."""
    content = tmp_path / "content"
    _write(content, "en/long.md", "---\naudience: public\nurl: /" + "x" * 1990 + "\n---\n# Long\n\nText.\n")
    _write(content, "en/ok.md", "---\naudience: public\n---\n# Ok\n\nText.\n")
    settings = WikiSettings(root=content, citation=SITE)
    with Indexer(settings, IndexLayout(tmp_path / "index")) as indexer:
        report = indexer.sync()
    assert any("dropped" in w for w in report.warnings["en/long.md"])
    assert "en/ok.md" not in report.warnings
    checked = {entry.path: entry for entry in check_wiki(settings).files}
    assert any("dropped" in w for w in checked["en/long.md"].warnings)
    assert not checked["en/ok.md"].warnings


def test_a_dropped_url_warning_is_kept_beside_the_documents_own_warnings(tmp_path: Path) -> None:
    """R7: a document with warnings of its own (a title that is not text) and a citation
    URL that is dropped reports both in the sync report, as ``check`` does."""
    content = tmp_path / "content"
    long_url = "/" + "x" * 1990
    _write(content, "en/both.md", f"---\naudience: public\ntitle: [1, 2]\nurl: {long_url}\n---\n# Both\n\nText.\n")
    _write(content, "en/own.md", "---\naudience: public\ntitle: [3]\n---\n# Own\n\nText.\n")
    settings = WikiSettings(root=content, citation=SITE)
    with Indexer(settings, IndexLayout(tmp_path / "index")) as indexer:
        warnings = indexer.sync().warnings
    assert any("dropped" in w for w in warnings["en/both.md"]), warnings
    assert any("title is not text" in w for w in warnings["en/both.md"]), warnings
    assert len(warnings["en/both.md"]) == len(set(warnings["en/both.md"]))
    assert not any("dropped" in w for w in warnings["en/own.md"])
    checked = {entry.path: entry for entry in check_wiki(settings).files}
    assert set(checked["en/both.md"].warnings) == set(warnings["en/both.md"])


_FRONT_URLS = st.sampled_from([None, "/kb/reset/", "https://elsewhere.example.org/x", "https://user@bad.example/x",
                               "http://plain.example/x"])
_CITATIONS = st.builds(
    CitationSettings,
    base_url=st.sampled_from([None, "https://help.example.com"]),
    path_pattern=st.sampled_from([None, "/{locale_prefix}{path}/"]),
    internal_base_url=st.sampled_from([None, "https://wiki.example.net/kb"]),
)


@given(_FRONT_URLS, st.booleans(), _CITATIONS, st.booleans(), st.sampled_from(["account/reset", "", "a b/ä"]))
def test_builds_url_is_exactly_when_document_url_gives_a_url_or_a_warning(
    front_url: str | None, public: bool, citation: CitationSettings, agent_view: bool, site_path: str,
) -> None:
    """The one test of "can a URL be built here" that ``document_url`` and the index's
    warning tally (``indexer.url_warnings_of``) share."""
    built = document_url(_inputs(front_matter_url=front_url, site_path=site_path), public=public,
                         settings=citation, agent_view=agent_view)
    assert builds_url(front_url, public=public, settings=citation, agent_view=agent_view) is (built != (None, None))


#: A path too long for a citable URL (R7: at most 2,000 characters): built, then dropped with a warning.
_LONG_RELPATH = "/".join(["x" * 200] * 11) + ".md"


@given(_FRONT_URLS, st.sampled_from(["public", "internal"]), _CITATIONS,
       st.sampled_from(["account/reset.md", _LONG_RELPATH]))
def test_the_index_warns_of_a_citation_url_exactly_as_document_url_does(
    front_url: str | None, audience: str, citation: CitationSettings, relpath: str,
) -> None:
    """``url_warnings_of`` (the warnings kept in the rules' tally, reported after a
    restart that reads nothing) says what building the document's URL says — a warning
    for a long path under either base among the cases drawn."""
    from provider.indexing.entries import url_warnings_of
    from provider.wiki.citations import url_inputs
    from provider.wiki.corpus import Resolved
    from provider.wiki.document import WikiDocument, parse_document

    settings = WikiSettings(root=Path("/nonexistent"), citation=citation)
    head = f"audience: {audience}\ntitle: Reset\n" + (f"url: {front_url}\n" if front_url else "")
    data = f"---\n{head}---\n# Reset\n\nText.\n".encode()
    document = parse_document(settings, relpath, data, size=len(data), mtime_ns=0)
    assert isinstance(document, WikiDocument)
    meta = document.meta
    resolved = Resolved(meta=meta, audience=meta.audience, served=True, group=None)
    _, warning = document_url(url_inputs(meta, settings), public=meta.audience == "public", settings=citation,
                              agent_view=True)
    assert url_warnings_of(settings, resolved) == ((warning,) if warning else ())
