"""The SQLite catalog ``<root>/catalog.sqlite3``: schema, migrations and connections.

WAL journal (readers never block the writer), ``PRAGMA foreign_keys=ON`` on every connection,
schema version in ``PRAGMA user_version`` (upgraded by :func:`migrate`, inside a write
transaction so two processes opening a new workspace at once do not race). Every statement
takes its values as parameters; no id, name or token is ever formatted into SQL.

Schema (version 1)::

    datasets(id PK, name, created, layout, n_models, n_questions, n_trials, n_rows,
             size_bytes, table_sha256, report_json, content_key, owner NULL)
        UNIQUE (content_key, COALESCE(owner, ''))   -- same files + same table, same owner
    dataset_sources(dataset_id FK -> datasets ON DELETE CASCADE, position, name, format,
                    sha256, size_bytes, PK (dataset_id, position))
    analyses(id PK, dataset_id FK -> datasets ON DELETE CASCADE, state_json, page, created,
             updated, immutable 0/1, owner NULL)

Version 2 adds ``meta(key PK, value)``; version 3 adds ``deleted`` (NULL, or when it was
soft-deleted) to ``datasets`` and ``analyses``.
"""

from __future__ import annotations

import os
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path

from scorio_core.store.blobs import FILE_MODE

__all__ = ["CATALOG_NAME", "SCHEMA_VERSION", "CatalogError", "connect", "migrate", "transaction"]

CATALOG_NAME = "catalog.sqlite3"
SCHEMA_VERSION = 3
BUSY_TIMEOUT_S = 60.0

_V1 = (
    """CREATE TABLE datasets (
        id TEXT PRIMARY KEY CHECK (length(id) = 22),
        name TEXT NOT NULL,
        created TEXT NOT NULL,
        layout TEXT NOT NULL CHECK (layout IN ('attempts', 'counts')),
        n_models INTEGER NOT NULL,
        n_questions INTEGER NOT NULL,
        n_trials INTEGER NOT NULL,
        n_rows INTEGER NOT NULL,
        size_bytes INTEGER NOT NULL,
        table_sha256 TEXT NOT NULL CHECK (length(table_sha256) = 64),
        report_json TEXT NOT NULL,
        content_key TEXT NOT NULL,
        owner TEXT
    )""",
    "CREATE UNIQUE INDEX datasets_content ON datasets (content_key, COALESCE(owner, ''))",
    "CREATE INDEX datasets_owner ON datasets (owner)",
    """CREATE TABLE dataset_sources (
        dataset_id TEXT NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        format TEXT NOT NULL,
        sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
        size_bytes INTEGER NOT NULL,
        PRIMARY KEY (dataset_id, position)
    )""",
    "CREATE INDEX dataset_sources_sha ON dataset_sources (sha256)",
    """CREATE TABLE analyses (
        id TEXT PRIMARY KEY CHECK (length(id) = 22),
        dataset_id TEXT NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
        state_json TEXT NOT NULL,
        page TEXT NOT NULL,
        created TEXT NOT NULL,
        updated TEXT NOT NULL,
        immutable INTEGER NOT NULL DEFAULT 0 CHECK (immutable IN (0, 1)),
        owner TEXT
    )""",
    "CREATE INDEX analyses_dataset ON analyses (dataset_id)",
    "CREATE INDEX analyses_owner ON analyses (owner)",
)

#: Version 2: ``meta`` key/value rows; ``had_datasets`` is set once a dataset was ever stored, so ``gc`` can tell a
#: catalog whose datasets were deleted from one replaced or truncated beside its stored files (which it refuses).
_V2 = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "INSERT INTO meta (key, value) SELECT 'had_datasets', '1' WHERE EXISTS (SELECT 1 FROM datasets)",
)

#: Version 3: soft delete. ``deleted`` (ISO 8601 UTC, NULL while live) hides a row from every listing and lookup
#: until it is restored or ``gc`` purges it after the retention period; analyses deleted with their dataset carry
#: the dataset's stamp, so restoring the dataset restores exactly them.
_V3 = (
    "ALTER TABLE datasets ADD COLUMN deleted TEXT",
    "ALTER TABLE analyses ADD COLUMN deleted TEXT",
    "CREATE INDEX datasets_deleted ON datasets (deleted) WHERE deleted IS NOT NULL",
    "CREATE INDEX analyses_deleted ON analyses (deleted) WHERE deleted IS NOT NULL",
)

#: Migration steps: ``_MIGRATIONS[v]`` upgrades a catalog from version ``v`` to ``v + 1``.
_MIGRATIONS: tuple[tuple[str, ...], ...] = (_V1, _V2, _V3)


class CatalogError(OSError):
    """The workspace catalog cannot be read (damaged, or another file in its place); the message says what to do."""


def connect(path: Path) -> sqlite3.Connection:
    """Open a catalog connection: autocommit mode, WAL, foreign keys, a busy timeout.

    Parameters
    ----------
    path : Path
        The catalog file (created if absent).

    Returns
    -------
    sqlite3.Connection
        Use :func:`transaction` for writes; close it when done.

    Raises
    ------
    sqlite3.Error
        If the file is not a SQLite database or cannot be opened.
    """
    try:  # created here, 0600: SQLite gives its -wal and -shm files the catalog's mode
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    except OSError:  # it exists, or cannot be created: sqlite3.connect says what is wrong, as before
        pass
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=True)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")  # a constant, not input
        _use_wal(conn)
        conn.execute("PRAGMA synchronous = FULL")
    except BaseException:
        conn.close()
        raise
    return conn


def _use_wal(conn: sqlite3.Connection, attempts: int = 60) -> None:
    """Switch to WAL once per catalog file; retried, since the switch needs a lock the busy timeout does not wait for.

    Several processes or threads opening a new catalog at once race for that lock and SQLite reports
    "database is locked" at once; one of them wins and the others then find WAL already set.
    """
    for attempt in range(attempts):
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(min(0.01 * (attempt + 1), 0.2))


@contextmanager
def transaction(conn: sqlite3.Connection):
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on error): one writer at a time."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the schema to :data:`SCHEMA_VERSION`; return the version found before.

    Parameters
    ----------
    conn : sqlite3.Connection
        From :func:`connect`.

    Returns
    -------
    int
        The catalog's ``user_version`` before migrating (0 for a new catalog).

    Raises
    ------
    RuntimeError
        If the catalog was written by a newer version of scorio_core.
    """
    with transaction(conn):
        found = conn.execute("PRAGMA user_version").fetchone()[0]
        if found > SCHEMA_VERSION:
            raise RuntimeError(f"the workspace catalog has schema version {found}; this scorio_core reads up to "
                               f"{SCHEMA_VERSION}. Upgrade scorio_core.")
        for version in range(found, SCHEMA_VERSION):
            for statement in _MIGRATIONS[version]:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version + 1}")  # an int from this module, not input
    return found
