"""Which URL a docs tool gives a page, and whether it builds it at all (issue 24, CONTRACT X2).

Docusaurus' versions: the ``docs/`` folder is the *current* version. Once versions are
released (``versions.json``) the newest one is served at ``/docs/`` and the current one
at ``/docs/next/`` (``lastVersion``, ``versions.current.path``); ``includeCurrentVersion:
false`` or an ``onlyIncludeVersions`` without ``current`` builds no page from it. A
current doc cited at ``/docs/x`` would be proved published by the released page there.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from provider.wiki.citations import CitationSettings, document_url, url_inputs
from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.sites.javascript import docusaurus_current_docs

BASE = "https://site.example.org"


def _site(root: Path, docs_options: str, versions: list[str] | None) -> WikiSettings:
    root.mkdir(parents=True, exist_ok=True)
    (root / "docusaurus.config.js").write_text(
        "module.exports = {presets: [['classic', {docs: {" + docs_options + "}}]]};\n", "utf-8")
    if versions is not None:
        (root / "versions.json").write_text(json.dumps(versions), "utf-8")
    elif (root / "versions.json").exists():
        (root / "versions.json").unlink()
    return WikiSettings(root=root, layout="docusaurus", citation=CitationSettings(base_url=BASE))


def _url(settings: WikiSettings, relpath: str = "docs/guide/intro.md") -> tuple[str | None, str | None]:
    data = b"Text."
    doc = parse_document(settings, relpath, data, size=len(data), mtime_ns=0)
    assert isinstance(doc, WikiDocument)
    inputs = url_inputs(doc.meta, settings)
    return document_url(inputs, public=True, settings=settings.citation, agent_view=False)[0], inputs.problem


@pytest.mark.parametrize(("options", "versions", "expected"), [
    ("", None, "/docs/guide/intro"),                                  # no versions: the only one
    ("", ["2.0", "1.0"], "/docs/next/guide/intro"),                   # 2.0 lives at /docs/
    ("lastVersion: 'current'", ["2.0"], "/docs/guide/intro"),
    ("lastVersion: '1.0'", ["2.0", "1.0"], "/docs/next/guide/intro"),
    ("versions: {current: {path: 'edge', banner: 'unreleased'}}", ["2.0"], "/docs/edge/guide/intro"),
    ("versions: {current: {label: 'Current'}}, lastVersion: 'current'", [], "/docs/guide/intro"),  # kaia-docs
    ("onlyIncludeVersions: ['current', '2.0']", ["2.0"], "/docs/next/guide/intro"),
    ("routeBasePath: '/', lastVersion: '2.0'", ["2.0"], "/next/guide/intro"),
])
def test_issue24_current_docs_url_follows_versions(tmp_path: Path, options: str, versions: list[str] | None,
                                                    expected: str) -> None:
    assert _url(_site(tmp_path, options, versions))[0] == BASE + expected


@pytest.mark.parametrize(("options", "versions"), [
    ("includeCurrentVersion: false", ["2.0"]),
    ("onlyIncludeVersions: ['2.0']", ["2.0"]),
    ("lastVersion: someName", ["2.0"]),                  # code: not evaluated
    ("versions: VERSIONS", ["2.0"]),
    ("versions: {current: {path: `${p}`}}", ["2.0"]),
    ("onlyIncludeVersions: process.env.V ? ['2.0'] : ['current']", ["2.0"]),
])
def test_issue24_current_docs_not_built_or_unknown_have_no_url(tmp_path: Path, options: str,
                                                               versions: list[str]) -> None:
    url, problem = _url(_site(tmp_path, options, versions))
    assert url is None and problem


def test_issue24_unreadable_versions_json_fails_closed(tmp_path: Path) -> None:
    settings = _site(tmp_path, "", None)
    (tmp_path / "versions.json").write_text("{not json", "utf-8")
    url, problem = _url(settings)
    assert url is None and problem is not None and problem.startswith("versions.json cannot be read")


_NAME = st.from_regex(r"[0-9]\.[0-9]{1,2}", fullmatch=True)


@hsettings(max_examples=40, deadline=None)
@given(released=st.lists(_NAME, unique=True, max_size=3), last=st.one_of(st.none(), st.just("current"), _NAME),
       include=st.booleans(), only=st.one_of(st.none(), st.lists(st.one_of(st.just("current"), _NAME), max_size=3)))
def test_issue24_current_docs_never_at_a_released_versions_url(tmp_path_factory: pytest.TempPathFactory,
                                                               released: list[str], last: str | None,
                                                               include: bool, only: list[str] | None) -> None:
    """Whatever the options: the current docs are either not cited, or cited at
    ``/docs/`` only when no released version is served there (no versions, or
    ``lastVersion: 'current'``)."""
    parts = [f"includeCurrentVersion: {'true' if include else 'false'}"]
    if last is not None:
        parts.append(f"lastVersion: '{last}'")
    if only is not None:
        parts.append(f"onlyIncludeVersions: {json.dumps(only)}")
    root = tmp_path_factory.mktemp("site")
    path, _ = docusaurus_current_docs(_site(root, ", ".join(parts), released).root)
    built = include and (only is None or "current" in only)
    if not built:
        assert path is None
    elif path == "":
        # Docusaurus picks the last version among those onlyIncludeVersions keeps.
        assert not [v for v in released if only is None or v in only] or last == "current"
