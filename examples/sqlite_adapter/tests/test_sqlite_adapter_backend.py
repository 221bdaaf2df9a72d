"""The adapter's own duties: reach by construction, its visibility and status fields
(X5), HTML bodies as plain text (R3)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlite_adapter import SQLiteBackend, create_database
from sqlite_adapter.backend import _public_only

from helpthread_kit import MINIMUM, Exposure, IndexUnavailable, Result, SearchQuery
from helpthread_kit.plaintext import markup_in

SEED = Path(__file__).resolve().parent.parent / "articles.sql"


@pytest.fixture()
def backend(tmp_path: Path) -> SQLiteBackend:
    return SQLiteBackend(create_database(tmp_path / "help.db", SEED.read_text("utf-8")))


def search(backend: SQLiteBackend, text: str, reach: Exposure) -> list[Result]:
    return list(backend.search(SearchQuery(text=text, limit=50, reach=reach, capabilities=MINIMUM)))


def test_x2_the_customer_safe_connection_cannot_read_the_table(backend: SQLiteBackend) -> None:
    """By construction: on the customer_safe connection any read of `articles` other
    than through public_articles is refused by SQLite itself."""
    connection = backend._connection(Exposure.CUSTOMER_SAFE)
    for sql in ("SELECT * FROM articles", "SELECT title FROM servable_articles",
                "SELECT id FROM public_articles UNION SELECT id FROM articles"):
        with pytest.raises(sqlite3.DatabaseError, match=r"prohibited|not authorized"):
            connection.execute(sql).fetchall()
    assert {row[0] for row in connection.execute("SELECT audience FROM public_articles")} == {"public"}


def test_the_authorizer_allows_nothing_but_reading_the_view() -> None:
    assert _public_only(sqlite3.SQLITE_INSERT, "articles", None, "main", None) == sqlite3.SQLITE_DENY
    assert _public_only(sqlite3.SQLITE_READ, "articles", "title", "main", None) == sqlite3.SQLITE_DENY
    assert _public_only(sqlite3.SQLITE_READ, "articles", "title", "main", "public_articles") == sqlite3.SQLITE_OK


def test_x5_visibility_is_public_only_when_exactly_everyone(backend: SQLiteBackend) -> None:
    """'staff' and a misspelled 'Everyone ' are internal: agents only, labelled internal."""
    assert search(backend, "refund exception ledger goodwill credit matrix", Exposure.CUSTOMER_SAFE) == []
    found = {r.document_id: r.audience for r in search(backend, "refund ledger goodwill matrix", Exposure.AGENT_ONLY)}
    assert found == {"refund-exceptions": "internal", "goodwill-credits": "internal"}


def test_x5_a_draft_is_served_to_nobody(backend: SQLiteBackend) -> None:
    for reach in Exposure:
        assert "new-pricing" not in {r.document_id for r in search(backend, "pricing announcement", reach)}


def test_r3_html_bodies_become_plain_text_that_the_checker_accepts(backend: SQLiteBackend) -> None:
    """Tags and script content go, entities are decoded; `&lt;really&gt;` stays the
    text `<really>`, which the checker's plain-text rule accepts (one definition)."""
    found = search(backend, "export csv really", Exposure.CUSTOMER_SAFE)
    [export] = [r for r in found if r.document_id == "export-data"]
    assert "<really>" in export.snippet and "Settings > Export" in export.snippet
    for result in search(backend, "password invoice payment export settings two factor", Exposure.AGENT_ONLY):
        assert markup_in(result.title) == [] and markup_in(result.snippet) == [], result
        assert "track(" not in result.snippet


def test_a_missing_database_fails_closed(tmp_path: Path) -> None:
    backend = SQLiteBackend(tmp_path / "absent.db")
    assert backend.is_ready() is False
    with pytest.raises(IndexUnavailable):
        search(backend, "password", Exposure.CUSTOMER_SAFE)


def test_knowledge_provider_strict_is_read_from_the_environment(tmp_path: Path) -> None:
    """The switch reaches the app: a bad value stops the adapter naming the variable."""
    from sqlite_adapter.app import app_from_environment

    database = create_database(tmp_path / "help.db", SEED.read_text("utf-8"))
    environ = {"SQLITE_ADAPTER_DATABASE": str(database),
               "SQLITE_ADAPTER_CUSTOMER_SAFE_SECRET": "sqlite-adapter-test-secret-0123456789-abcdef"}
    assert app_from_environment({**environ, "KNOWLEDGE_PROVIDER_STRICT": "1"}) is not None
    with pytest.raises(ValueError, match="KNOWLEDGE_PROVIDER_STRICT='2'"):
        app_from_environment({**environ, "KNOWLEDGE_PROVIDER_STRICT": "2"})
