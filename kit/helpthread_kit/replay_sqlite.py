"""An embedded replay store shared by every worker process of one machine (CONTRACT A5).

SQLite in WAL mode, one small table. "Add if absent" is a single ``INSERT … ON CONFLICT
… DO UPDATE … WHERE expired`` statement, so two workers racing on one nonce cannot both
succeed: SQLite serialises writers and the statement's row count says who won.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from .errors import ReplayStoreUnavailable

__all__ = ["SQLiteReplayStore"]

_SCHEMA = "CREATE TABLE IF NOT EXISTS nonces (nonce TEXT PRIMARY KEY, expires_at REAL NOT NULL) WITHOUT ROWID"
_ADD = (
    "INSERT INTO nonces (nonce, expires_at) VALUES (?, ?) "
    "ON CONFLICT (nonce) DO UPDATE SET expires_at = excluded.expires_at WHERE nonces.expires_at <= ?"
)
_PURGE = "DELETE FROM nonces WHERE expires_at <= ?"


class SQLiteReplayStore:
    """Replay store in a SQLite database file.

    Args:
        path: the database file (created with its folder on first use).
        busy_timeout_s: how long a writer waits for another process's write lock before
            the store counts as unavailable (seconds).
        purge_every: delete expired rows once every this many additions.
        clock: Unix time in seconds.

    Raises:
        ReplayStoreUnavailable: (from :meth:`add_if_absent`) the database cannot be
            written; the request is then refused, never accepted unchecked.
    """

    #: Seen by every process that opens it (see ``serving.check_replay_store_for_workers``).
    shared = True

    def __init__(
        self,
        path: Path,
        *,
        busy_timeout_s: float = 2.0,
        purge_every: int = 1000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = Path(path)
        self.busy_timeout_s = busy_timeout_s
        self.purge_every = purge_every
        self._clock = clock
        self._local = threading.local()
        self._count = 0
        self.path.parent.mkdir(parents=True, exist_ok=True)
        connection = self._connect()
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute(_SCHEMA)
        finally:
            connection.close()

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, timeout=self.busy_timeout_s, isolation_level=None)
        connection.execute("PRAGMA synchronous=NORMAL")
        return connection

    def _connection(self) -> sqlite3.Connection:
        # sqlite3 connections belong to the thread that made them.
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            connection = self._connect()
            self._local.connection = connection
        return connection

    def add_if_absent(self, nonce: str, expires_at: float, *, signed_at: float | None = None) -> bool:
        """See :meth:`~helpthread_kit.replay.ReplayStore.add_if_absent`. ``signed_at``
        is not needed: the database outlives every process that writes it.

        Raises:
            ReplayStoreUnavailable: the database cannot be written.
        """
        now = self._clock()
        try:
            connection = self._connection()
            added = connection.execute(_ADD, (nonce, expires_at, now)).rowcount == 1
            self._count += 1
            if self._count % self.purge_every == 0:
                connection.execute(_PURGE, (now,))
        except sqlite3.Error as exc:
            raise ReplayStoreUnavailable(f"replay store {self.path.name} cannot be written ({exc.__class__.__name__})",
                                         retry_after_s=2) from None
        return added

    def close(self) -> None:
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
            self._local.connection = None
