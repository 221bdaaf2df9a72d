"""The adapter passes the contract test kit: every conformance check, in-process,
strict (a repair the contract layer would have to make fails), and simulated as two
workers sharing a SQLite replay store."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from sqlite_adapter import SQLiteBackend, create_database

from helpthread_kit import Backend, ContractSettings, Registration
from helpthread_kit.replay_sqlite import SQLiteReplayStore
from helpthread_kit.testkit import ContractTestKit

SEED = Path(__file__).resolve().parent.parent / "articles.sql"
#: Phrases only staff articles contain (one of them behind a misspelled visibility).
CANARIES = ("refund exception ledger", "goodwill credit matrix")
#: A phrase only the draft article contains (status 'draft': served to nobody, X5).
DRAFT_CANARIES = ("pricing change announcement",)


class TestSQLiteAdapter(ContractTestKit):
    canary_queries = CANARIES
    draft_canary_queries = DRAFT_CANARIES

    def make_backend(self) -> Backend:
        """A database seeded afresh: what the kit's rebuild test and each extra
        simulated worker get (the fixture below builds the first)."""
        import tempfile

        return SQLiteBackend(create_database(Path(tempfile.mkdtemp()) / "help.db", SEED.read_text("utf-8")))

    @pytest.fixture(scope="class")
    @classmethod
    def contract_backend(cls, tmp_path_factory: pytest.TempPathFactory) -> Backend:
        database = create_database(tmp_path_factory.mktemp("sqlite-adapter") / "help.db", SEED.read_text("utf-8"))
        return SQLiteBackend(database)


class TestSQLiteAdapterTwoWorkers(TestSQLiteAdapter):
    """As deployed with SQLITE_ADAPTER_WORKERS=2: each worker its own app, one shared store."""

    workers = 2
    capabilities = frozenset({"retrieve", "citationUrl"})
    _store: SQLiteReplayStore | None = None

    def make_settings(self, registrations: Sequence[Registration]) -> ContractSettings:
        cls = type(self)
        if cls._store is None:
            import tempfile

            cls._store = SQLiteReplayStore(Path(tempfile.mkdtemp()) / "replay.sqlite3")
        return ContractSettings(registrations=list(registrations), capabilities=frozenset(self.capabilities),
                                replay_store=cls._store, strict=self.strict)
