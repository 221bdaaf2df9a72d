"""The adapter's own duties: reach by construction, plain text, revision, reloading."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from json_adapter import JsonBackend, build_app

from helpthread_kit import MINIMUM, Exposure, IndexUnavailable, Result, SearchQuery
from helpthread_kit.conformance import InProcessTransport
from helpthread_kit.plaintext import html_to_paragraphs
from helpthread_kit.testing import signed_headers

ARTICLES = Path(__file__).resolve().parent.parent / "articles"
SECRET = "json-adapter-test-secret-0123456789-abcdef"


@pytest.fixture()
def files(tmp_path: Path) -> tuple[Path, Path]:
    public, internal = tmp_path / "public.json", tmp_path / "internal.json"
    shutil.copy(ARTICLES / "public.json", public)
    shutil.copy(ARTICLES / "internal.json", internal)
    return public, internal


def search(backend: JsonBackend, text: str, reach: Exposure, limit: int = 50,
           capabilities: frozenset[str] = MINIMUM) -> list[Result]:
    return list(backend.search(SearchQuery(text=text, limit=limit, reach=reach, capabilities=capabilities)))


def edit(path: Path, change: Any) -> None:
    data = json.loads(path.read_text("utf-8"))
    change(data["articles"])
    path.write_text(json.dumps(data, indent=1), "utf-8")


def test_customer_safe_never_opens_internal_json(files: tuple[Path, Path]) -> None:
    """X2 by construction: with internal.json corrupt, customer_safe searches still work
    (the file is never read on that path) while agent_only searches fail closed."""
    public, internal = files
    internal.write_text("{ not json", "utf-8")
    backend = JsonBackend(public, internal)
    assert search(backend, "password", Exposure.CUSTOMER_SAFE)
    with pytest.raises(IndexUnavailable):
        search(backend, "password", Exposure.AGENT_ONLY)


def test_internal_articles_reach_agents_only_labelled_internal(files: tuple[Path, Path]) -> None:
    backend = JsonBackend(*files)
    assert search(backend, "chargeback dossier template", Exposure.CUSTOMER_SAFE) == []
    [top, *_] = search(backend, "chargeback dossier template", Exposure.AGENT_ONLY)
    assert (top.document_id, top.audience) == ("chargebacks", "internal")
    assert all(r.audience == "public" for r in search(backend, "password reset", Exposure.CUSTOMER_SAFE))


def test_html_bodies_become_plain_text(files: tuple[Path, Path]) -> None:
    """R3: tags removed, entities decoded, the matching paragraph chosen."""
    [top, *_] = search(JsonBackend(*files), "authenticator app", Exposure.CUSTOMER_SAFE)
    assert top.snippet == ("Open Settings › Security and choose Enable two-factor login. "
                           "Scan the code with an authenticator app.")


def test_html_to_paragraphs() -> None:
    html = "<h2>A &amp; B</h2><p>one<br>two</p><script>alert(1)</script><style>p{}</style>tail &#39;x&#39;"
    assert html_to_paragraphs(html) == ["A & B", "one", "two", "tail 'x'"]
    assert html_to_paragraphs("plain\n\nsecond   para") == ["plain", "second para"]


def test_reclassifying_an_article_takes_effect_on_the_next_search(files: tuple[Path, Path]) -> None:
    """X7, R5: moving an article to internal.json hides it from customer_safe at once and
    changes its revision; an untouched article keeps its revision."""
    public, internal = files
    backend = JsonBackend(public, internal)
    before = {r.document_id: r.revision for r in search(backend, "refund", Exposure.AGENT_ONLY)}
    moved: list[Any] = []
    edit(public, lambda articles: moved.extend(a for a in articles if a["id"] == "refunds") or
         articles.remove(moved[0]))
    edit(internal, lambda articles: articles.append(moved[0]))
    assert "refunds" not in [r.document_id for r in search(backend, "refund", Exposure.CUSTOMER_SAFE)]
    after = {r.document_id: (r.revision, r.audience) for r in search(backend, "refund", Exposure.AGENT_ONLY)}
    assert after["refunds"][1] == "internal" and after["refunds"][0] != before["refunds"]
    assert after["chargebacks"][0] == before["chargebacks"]


def test_unsafe_urls_are_dropped(files: tuple[Path, Path]) -> None:
    """R7: only absolute https URLs without userinfo are sent."""
    public, internal = files
    urls = {"reset-password": "http://help.example.com/a", "two-factor": "https://user:pw@help.example.com/b",
            "change-email": "/relative"}
    edit(public, lambda articles: [a.update(url=urls[a["id"]]) for a in articles if a["id"] in urls])
    results = {r.document_id: r.url for r in search(JsonBackend(public, internal), "password email two factor",
                                                                 Exposure.CUSTOMER_SAFE,
                                                                 capabilities=frozenset({"retrieve", "citationUrl"}))}
    assert all(results[key] is None for key in urls)
    assert results["api-keys"] == "https://help.example.com/articles/api-keys"
    # Without citationUrl declared, no url at all (R4), so the contract layer repairs nothing.
    assert {r.url for r in search(JsonBackend(public, internal), "password", Exposure.CUSTOMER_SAFE)} == {None}


@pytest.mark.parametrize("content", ['{"articles": [{"id": "a", "title": "A"}, {"id": "a", "title": "B"}]}',
                                     '{"articles": [{"id": "", "title": "A"}]}', '[]', "\xff"])
def test_an_invalid_file_fails_closed(files: tuple[Path, Path], content: str) -> None:
    public, internal = files
    public.write_bytes(content.encode("utf-8", "surrogateescape"))
    backend = JsonBackend(public, internal)
    assert backend.is_ready() is False
    with pytest.raises(IndexUnavailable):
        search(backend, "password", Exposure.CUSTOMER_SAFE)


def test_build_app_serves_signed_requests(files: tuple[Path, Path]) -> None:
    """The deployable app: signed by the customer_safe secret, declaring citationUrl."""
    import httpx

    app = build_app(*files, customer_safe_secrets=[SECRET], capabilities="retrieve,citationUrl")
    body = json.dumps({"query": "reset password", "limit": 2}).encode()
    with httpx.Client(transport=InProcessTransport(app), base_url="http://adapter.invalid") as client:
        answer = client.post("/retrieve", content=body, headers=signed_headers(body, SECRET)).json()
        declared = client.get("/capabilities", headers=signed_headers(b"", SECRET, content_type=None)).json()
    assert answer["results"][0]["documentId"] == "reset-password"
    assert answer["results"][0]["url"] == "https://help.example.com/articles/reset-password"
    assert declared == {"contractVersion": 1, "capabilities": ["retrieve", "citationUrl"]}


@pytest.mark.parametrize(("strict", "status"), [("1", 500), ("0", 200)])
def test_knowledge_provider_strict_refuses_what_production_repairs(files: tuple[Path, Path], strict: str,
                                                                    status: int) -> None:
    """KNOWLEDGE_PROVIDER_STRICT=1 (staging): an answer the contract layer would repair
    (a title over 300 characters, clipped in production, R3) is refused 500 naming the
    duty, so the checker sees it; unset or 0, it is clipped and logged."""
    import httpx
    from json_adapter.app import app_from_environment

    public, internal = files
    edit(public, lambda articles: articles[0].update(title="Reset " + "very " * 80 + "password"))
    app = app_from_environment({"JSON_ADAPTER_PUBLIC": str(public), "JSON_ADAPTER_INTERNAL": str(internal),
                                "JSON_ADAPTER_CUSTOMER_SAFE_SECRET": SECRET, "KNOWLEDGE_PROVIDER_STRICT": strict})
    body = json.dumps({"query": "reset password"}).encode()
    with httpx.Client(transport=InProcessTransport(app), base_url="http://adapter.invalid") as client:
        answer = client.post("/retrieve", content=body, headers=signed_headers(body, SECRET))
    assert answer.status_code == status
    if status == 500:
        assert "the backend broke R3" in answer.json()["error"]["message"]


def test_a_bad_strict_switch_stops_the_adapter(files: tuple[Path, Path]) -> None:
    from json_adapter.app import app_from_environment

    with pytest.raises(ValueError, match="KNOWLEDGE_PROVIDER_STRICT='sometimes'"):
        app_from_environment({"JSON_ADAPTER_PUBLIC": str(files[0]), "JSON_ADAPTER_CUSTOMER_SAFE_SECRET": SECRET,
                              "KNOWLEDGE_PROVIDER_STRICT": "sometimes"})
