"""Every optional capability, end to end over HTTP (issue 4; CONTRACT C1, C2, R4, R6, R7,
Q3, Q4; §3.3, §4.4, §5.5): real ``knowledge-provider serve`` processes, every answer
validated against the JSON Schemas (``ProviderProcess.raw`` does it).

* the full configuration (``capabilities: all``): each field filled where the backend can;
  locale matching and fallback; per-language matching; scores; URLs; freshness including
  translation staleness;
* each capability switched on alone: its fields appear, every other capability's fields
  are absent — so each field is present exactly when its capability is declared.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from helpthread_kit.capabilities import FIELDS_BY_CAPABILITY, OPTIONAL_CAPABILITIES, RETRIEVE, SEMANTIC_SEARCH
from provider.wiki.document import git_blob_sha1
from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, start_provider
from tests.support import REPO_ROOT, ProviderProcess

pytestmark = pytest.mark.e2e

IMPLEMENTED = [c for c in OPTIONAL_CAPABILITIES if c != SEMANTIC_SEARCH]
PUBLIC_SITE = "https://help.example.com"
INTERNAL_SITE = "https://kb.example.net"
SETTINGS: dict[str, object] = {
    "locales": ["en", "de", "de-AT"],
    "fallback_locales": ["de"],
    "citation_base_url": PUBLIC_SITE,
    "citation_path_pattern": "/{locale}/{path}/",
    "internal_citation_base_url": INTERNAL_SITE,
}
SOURCE = "---\ntitle: Export your ledger\naudience: public\n---\n\nExport the quokka ledger as a CSV file.\n"
EXTRA = {
    "en/guide/resume.md": "---\ntitle: Your Résumé\naudience: public\nreview_due: 2020-01-01\nurl: /careers/cv/\n"
                          "---\n\nUpload your résumé before the interview.\n",
    "en/guide/export.md": SOURCE,
    # translated from the current source, reviewed until 2099: current
    "de/guide/export.md": "---\ntitle: Buchhaltung exportieren\naudience: public\nreview_due: 2099-01-01\n"
                          f"source_revision: {git_blob_sha1(SOURCE.encode())}\n---\n\n"
                          "Exportieren Sie das Quokka-Hauptbuch als CSV-Datei.\n",
    # translated from an older source: stale, whatever its review date
    "de-AT/guide/export.md": "---\ntitle: Buchhaltung exportieren (AT)\naudience: public\nreview_due: 2099-01-01\n"
                             f"source_revision: {'f' * 40}\n---\n\nExportieren Sie das Quokka-Hauptbuch als CSV.\n",
    # a public article whose only translation is internal: no group on customer_safe
    "en/guide/lonely.md": "---\naudience: public\n---\n# Lonely\n\nThe numbat checklist for everyone.\n",
    "de/guide/lonely.md": "---\naudience: internal\n---\n# Einsam\n\nDie Numbat-Checkliste nur intern.\n",
}


def _content(tmp: Path) -> Path:
    wiki = tmp / "wiki"
    shutil.copytree(REPO_ROOT / "content", wiki)
    for relpath, text in EXTRA.items():
        (wiki / relpath).parent.mkdir(parents=True, exist_ok=True)
        (wiki / relpath).write_text(text, "utf-8")
    return wiki


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProviderProcess]:
    tmp = tmp_path_factory.mktemp("full")
    server = start_provider(tmp, content=_content(tmp), config={**SETTINGS, "capabilities": "all"})
    yield server
    server.stop()


def _results(server: ProviderProcess, secret: str = CUSTOMER_SECRET, **payload: Any) -> list[dict[str, Any]]:
    reply = server.retrieve({"limit": 20, **payload}, secret)
    assert reply.status == 200, reply.body
    return reply.json()["results"]  # type: ignore[no-any-return]


def _by_id(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for result in results:
        found.setdefault(result["documentId"], result)
    return found


# -- the full configuration --------------------------------------------------------------


def test_c1_c2_all_declares_every_implemented_capability(full: ProviderProcess) -> None:
    """C1/C2: ``capabilities: all`` declares what the backend implements — every optional
    capability but semanticSearch — in the contract's order."""
    declared = full.capabilities(CUSTOMER_SECRET).json()["capabilities"]
    assert declared == [RETRIEVE, *IMPLEMENTED]


def test_r4_declared_fields_are_filled(full: ProviderProcess) -> None:
    """R4: with every capability declared, the backend fills every field it can."""
    for secret in (CUSTOMER_SECRET, AGENT_SECRET):
        results = _results(full, secret, query="reset password link")
        assert results
        for result in results:
            for field in ("chunkId", "score", "locale", "url", "freshness"):
                assert field in result, (field, result)
        reset = _by_id(results)["en/account/reset-password"]
        assert reset["translationGroupId"] == "account/reset-password"
    dated = _by_id(_results(full, query="rate limits"))["en/api/rate-limits"]
    assert dated["reviewDueAt"] == "2027-01-15T00:00:00Z"


def test_q3_a_malformed_locale_is_a_400_naming_the_field(full: ProviderProcess) -> None:
    for tag in ("not a tag!", "", "en_US x", 42):
        reply = full.retrieve({"query": "refund", "locale": tag}, CUSTOMER_SECRET)
        assert reply.status == 400 and reply.json()["error"]["message"].startswith("locale:")
    reply = full.retrieve({"query": "refund", "locale": "de", "localeFallback": "yes"}, CUSTOMER_SECRET)
    assert reply.status == 400 and reply.json()["error"]["message"].startswith("localeFallback:")


def test_q3_exact_and_language_only_locale(full: ProviderProcess) -> None:
    """A German request gets German documents only, each with its true locale; de-AT gets
    the de-AT translation where there is one, German otherwise."""
    german = _results(full, query="Quokka Hauptbuch exportieren", locale="de")
    assert {r["locale"] for r in german} == {"de"}
    assert _by_id(german)["de/guide/export"]["locale"] == "de"
    austrian = _by_id(_results(full, query="Quokka Hauptbuch exportieren", locale="de-AT"))
    assert next(iter(austrian)) == "de-AT/guide/export" and "de/guide/export" not in austrian
    assert austrian["de-AT/guide/export"]["locale"] == "de-AT"
    assert {r["locale"] for r in austrian.values()} <= {"de", "de-AT"}
    mixed = _results(full, query="Passwort", locale="de-AT")
    assert mixed and {r["locale"] for r in mixed} <= {"de", "de-AT"}


def test_q4_fallback_chain_and_no_match(full: ProviderProcess) -> None:
    """Without fallback only the requested language; with it, the operator's chain (de,
    then the default en) — and the result says which locale it really is (§5.5)."""
    assert _results(full, query="webhook signature", locale="fr") == []
    fallback = _results(full, query="webhook signature", locale="fr", localeFallback=True)
    assert fallback[0]["documentId"] == "en/api/webhooks" and fallback[0]["locale"] == "en"
    # French request, fallback chain de → en: the German translation comes before English.
    export = _by_id(_results(full, query="quokka ledger CSV", locale="fr", localeFallback=True))
    assert "de/guide/export" in export and "en/guide/export" not in export
    assert export["de/guide/export"]["locale"] == "de"


def test_one_document_per_translation_group(full: ProviderProcess) -> None:
    results = _results(full, AGENT_SECRET, query="password reset Passwort zurücksetzen", locale="de",
                       localeFallback=True)
    groups: dict[str, str] = {}
    for result in results:
        group = result.get("translationGroupId")
        if group is not None:
            assert groups.setdefault(group, result["documentId"]) == result["documentId"], group
    assert groups["account/reset-password"] == "de/account/passwort-zuruecksetzen"


def test_per_language_analysis(full: ProviderProcess) -> None:
    """German queries find inflected German words; ``resume`` finds ``Résumé``."""
    assert _results(full, query="Erstattungen", locale="de")[0]["documentId"] == \
        "de/billing/rueckerstattung-beantragen"
    assert _results(full, query="Mahnungen", locale="de")[0]["documentId"] == "de/invoices/payment-reminders"
    assert _results(full, query="resume")[0]["documentId"] == "en/guide/resume"


def test_scores_in_unit_interval_non_increasing(full: ProviderProcess) -> None:
    for payload in ({"query": "invoice"}, {"query": "Rechnung pdf", "locale": "de", "localeFallback": True},
                    {"query": "how do I get a refund for my subscription"}):
        scores = [r["score"] for r in _results(full, AGENT_SECRET, **payload)]
        assert scores and all(0 <= s <= 1 for s in scores)
        assert scores == sorted(scores, reverse=True)


def test_r6_freshness_including_translation_staleness(full: ProviderProcess) -> None:
    query = "quokka ledger Hauptbuch resume CSV single sign-on SAML"
    found = _by_id(_results(full, AGENT_SECRET, query=query))
    # Without a locale, one answer per translation group: ask for each translation's own.
    for locale in ("de", "de-AT"):
        found.update({k: v for k, v in _by_id(_results(full, AGENT_SECRET, query=query, locale=locale)).items()
                      if k not in found})
    assert found["en/guide/resume"]["freshness"] == "stale"  # review_due 2020-01-01 is past
    assert found["en/guide/resume"]["reviewDueAt"] == "2020-01-01T00:00:00Z"
    assert found["de/guide/export"]["freshness"] == "current"  # in sync, reviewed until 2099
    assert found["de-AT/guide/export"]["freshness"] == "stale"  # source changed since its source_revision
    assert found["en/guide/export"]["freshness"] == "unknown"  # no review date: no basis for current
    assert "reviewDueAt" not in found["en/guide/export"]
    assert found["en/security/sso-saml"]["freshness"] == "current"


def test_r7_citation_urls(full: ProviderProcess) -> None:
    """Public documents link to the public site (a chunk with its heading's anchor; front
    matter url wins); internal documents only to the internal base, only for agents."""
    results = _results(full, AGENT_SECRET, query="reset link expired")
    reset = [r for r in results if r["documentId"] == "en/account/reset-password"]
    assert reset and all(r["url"].startswith(f"{PUBLIC_SITE}/en/account/reset-password/") for r in reset)
    assert any(r["url"].endswith("#the-link-says-it-has-expired") for r in reset)
    resume = _by_id(_results(full, query="resume"))["en/guide/resume"]
    assert resume["url"] == f"{PUBLIC_SITE}/careers/cv/"
    internal = _by_id(_results(full, AGENT_SECRET, query="refund exception ledger"))["en/internal/refund-exceptions"]
    assert internal["url"].startswith(f"{INTERNAL_SITE}/en/internal/refund-exceptions/")
    for query in ("refund", "password", "invoice", "2fa"):
        for result in _results(full, query=query):
            parts = urlsplit(result["url"])
            assert parts.scheme == "https" and parts.hostname == "help.example.com" and "@" not in parts.netloc


def test_translation_groups_never_reveal_an_internal_sibling(full: ProviderProcess) -> None:
    """§5.4: the public index sees groups as if internal documents did not exist."""
    public = _by_id(_results(full, query="numbat checklist"))["en/guide/lonely"]
    assert "translationGroupId" not in public
    agent = _by_id(_results(full, AGENT_SECRET, query="numbat checklist"))["en/guide/lonely"]
    assert agent["translationGroupId"] == "guide/lonely"


def test_chunks_are_distinct_results(full: ProviderProcess) -> None:
    results = _results(full, AGENT_SECRET, query="two-factor authentication recovery codes")
    keys = [(r["documentId"], r["chunkId"]) for r in results]
    assert len(keys) == len(set(keys)) and len({d for d, _ in keys}) < len(keys)


# -- each capability alone ----------------------------------------------------------------


@pytest.fixture(scope="module", params=IMPLEMENTED)
def single(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[
        tuple[str, ProviderProcess]]:
    tmp = tmp_path_factory.mktemp(f"only-{request.param}")
    server = start_provider(tmp, content=_content(tmp), config={**SETTINGS, "capabilities": [request.param]})
    yield request.param, server
    server.stop()


def _applies(capability: str, result: dict[str, Any]) -> set[str]:
    """The fields of ``capability`` this result must carry when it is declared."""
    if capability == "translationGroups":
        return {"translationGroupId"} if result["documentId"].endswith("account/reset-password") else set()
    if capability == "freshness":
        return {"freshness", "reviewDueAt"} if result["documentId"] == "en/api/rate-limits" else {"freshness"}
    return set(FIELDS_BY_CAPABILITY.get(capability, ()))


def test_r4_each_field_is_present_exactly_when_its_capability_is_declared(single: tuple[str, ProviderProcess]) -> None:
    capability, server = single
    assert server.capabilities(CUSTOMER_SECRET).json()["capabilities"] == [RETRIEVE, capability]
    others = {field for cap, fields in FIELDS_BY_CAPABILITY.items() if cap != capability for field in fields}
    seen = 0
    for secret in (CUSTOMER_SECRET, AGENT_SECRET):
        for query in ("reset password", "rate limits"):
            for result in _results(server, secret, query=query, locale="en", localeFallback=True):
                seen += 1
                assert not set(result) & others, (capability, result)
                assert _applies(capability, result) <= set(result), (capability, result)
    assert seen


def test_r4_minimum_configuration_sends_no_optional_field(sample_server: ProviderProcess) -> None:
    optional = {field for fields in FIELDS_BY_CAPABILITY.values() for field in fields}
    assert sample_server.capabilities(CUSTOMER_SECRET).json()["capabilities"] == [RETRIEVE]
    for secret in (CUSTOMER_SECRET, AGENT_SECRET):
        for result in _results(sample_server, secret, query="reset password Passwort", locale="de"):
            assert not set(result) & optional, result
