"""The workspace: datasets stored once as blobs, catalogued in SQLite, reopened without parsing.

Layout of a workspace root::

    catalog.sqlite3          SQLite catalog (WAL): datasets, their sources, analyses
    blobs/ab/cdef...         content-addressed files: every source file and each canonical
                             table (Parquet), named by SHA-256

A dataset row is inserted only after its blobs are durable, inside a write transaction that
re-checks they exist (so a concurrent :meth:`Workspace.gc` can never leave a row pointing at a
deleted blob). Deleting a dataset or analysis only marks its row deleted (restorable with
:meth:`Workspace.restore_dataset`); :meth:`Workspace.gc` purges rows deleted longer ago than the
retention period, then removes blobs no remaining row references and temporary files left by crashes.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager

from scorio_core.limits import human_bytes
from scorio_core.store._analyses import AnalysesMixin
from scorio_core.store._datasets import DatasetsMixin
from scorio_core.store._settings import QuotaError, check_retention, read_settings
from scorio_core.store._trash import TrashMixin
from scorio_core.store.blobs import DIR_MODE, BlobStore
from scorio_core.store.catalog import CATALOG_NAME, CatalogError, connect, migrate, transaction
from scorio_core.store.records import GcReport, Usage

__all__ = ["Workspace"]

class Workspace(DatasetsMixin, AnalysesMixin, TrashMixin):
    """A persistent workspace of datasets and analyses in one directory.

    Parameters
    ----------
    root : str or path-like, optional
        Directory (created on first use); default ``$SCORIO_WORKSPACE`` or ``./workspace``.
    listing : {"shared", "private"}, optional
        Who sees which rows in ``list_*``; default ``$SCORIO_WORKSPACE_LISTING`` or ``"shared"``.
        ``private``: a caller sees the rows with its owner token and rows without an owner.
    max_file_bytes, max_bytes : int, optional
        Override ``SCORIO_WORKSPACE_MAX_FILE_BYTES`` / ``SCORIO_WORKSPACE_MAX_BYTES``.
    retention_days : float, optional
        Days a deleted dataset or analysis stays restorable before :meth:`gc` purges it; default
        ``$SCORIO_WORKSPACE_RETENTION_DAYS`` or 30.

    Raises
    ------
    ValueError
        An invalid environment variable or listing.
    RuntimeError
        A catalog written by a newer scorio_core.
    CatalogError
        A catalog file that SQLite cannot read (an ``OSError``: the app keeps uploads in the session and says why).

    Notes
    -----
    Safe to share between threads and processes: every call opens its own SQLite connection.
    """

    def __init__(self, root=None, *, listing: str | None = None, max_file_bytes: int | None = None,
                 max_bytes: int | None = None, retention_days: float | None = None) -> None:
        s = read_settings(root, listing)
        self.root = s.root
        self.listing = s.listing
        self.max_file_bytes = int(max_file_bytes or s.max_file_bytes)
        self.max_bytes = int(max_bytes or s.max_bytes)
        self.retention_days = s.retention_days if retention_days is None else check_retention(retention_days)
        self.root.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
        self.blobs = BlobStore(self.root)
        self.catalog_path = self.root / CATALOG_NAME
        try:
            with self._db() as conn:
                migrate(conn)
        except sqlite3.DatabaseError as exc:  # a damaged or replaced catalog file: say so, never a traceback
            raise CatalogError(
                f"the workspace catalog {self.catalog_path} cannot be read ({exc}): it is damaged or not a catalog. "
                f"Restore it from a backup, or move it aside to start an empty one (the stored files under "
                f"{self.root / 'blobs'} are kept; do not run gc before the datasets are listed again).") from exc

    def __repr__(self) -> str:
        return f"Workspace({str(self.root)!r}, listing={self.listing!r})"

    @contextmanager
    def _db(self):
        conn = connect(self.catalog_path)
        try:
            yield conn
        finally:
            conn.close()

    # ---------------------------------------------------------------- quotas
    def check_file_size(self, name: str, size: int) -> None:
        """Raise unless a file of ``size`` bytes fits the per-file limit.

        Parameters
        ----------
        name : str
            File name for the message.
        size : int
            Bytes.

        Raises
        ------
        QuotaError
            Naming the file, its size, the limit and ``SCORIO_WORKSPACE_MAX_FILE_BYTES``.
        """
        if size > self.max_file_bytes:
            raise QuotaError(
                f"is {human_bytes(size)} ({size:,} bytes); the workspace stores files up to "
                f"{human_bytes(self.max_file_bytes)} ({self.max_file_bytes:,} bytes). "
                "Change the limit with SCORIO_WORKSPACE_MAX_FILE_BYTES.", source=name)

    def _check_total(self, items: list[tuple[str, int, str]]) -> None:
        new = {sha: (name, size) for name, size, sha in items if not self.blobs.exists(sha)}
        needed = sum(size for _, size in new.values())
        if not needed:
            return
        _, used = self.blobs.total_bytes()
        if used + needed > self.max_bytes:
            name, size = max(new.values(), key=lambda v: v[1])
            raise QuotaError(
                f"is {human_bytes(size)} ({size:,} bytes); storing the dataset needs {human_bytes(needed)} more but "
                f"the workspace already holds {human_bytes(used)} of its {human_bytes(self.max_bytes)} "
                f"({self.max_bytes:,} bytes) limit. Delete datasets and run gc (deleted datasets keep their files for "
                f"{self.retention_days:g} days unless gc is given a shorter retention), or raise SCORIO_WORKSPACE_MAX_BYTES.",
                source=name)

    # ---------------------------------------------------------------- maintenance
    def gc(self, grace_seconds: float = 3600.0, force: bool = False, retention_days: float | None = None) -> GcReport:
        """Purge rows deleted longer ago than the retention period, then remove blobs no row references.

        Also removes temporary files left by crashes. Blobs of a dataset deleted within the retention
        period are kept (it can still be restored).

        Parameters
        ----------
        grace_seconds : float
            Temporary files younger than this may belong to a write in progress in another
            process and are kept (0 removes them all). Unreferenced blobs are removed at any age.
        force : bool, default False
            Remove them even when the catalog lists no dataset at all (see Raises).
        retention_days : float, optional
            Rows deleted at least this many days ago are purged for good (0: every deleted row);
            default the workspace's ``retention_days``.

        Returns
        -------
        GcReport

        Raises
        ------
        ValueError
            The catalog has never listed a dataset (no ``had_datasets`` row) but stored files exist (a catalog
            replaced, truncated or restored without its rows would otherwise cost every upload); ``force=True``
            (CLI ``gc --force``) removes them. Deleting every dataset and then running gc is fine.
            Also raised for a negative ``retention_days``.
        """
        removed = freed = kept = 0
        retention = self.retention_days if retention_days is None else check_retention(retention_days)
        with self._db() as conn, transaction(conn):  # blocks dataset inserts while blobs are removed
            purged = self._purge_expired(conn, retention)
            query = ("SELECT sha256 FROM dataset_sources UNION SELECT table_sha256 FROM datasets "
                     "UNION SELECT json_extract(report_json, '$.trial_prefix.sha256') FROM datasets")
            referenced = {r[0] for r in conn.execute(query) if r[0] is not None}  # + prefix counts of count tables
            had = conn.execute("SELECT 1 FROM meta WHERE key = 'had_datasets'").fetchone() is not None
            if not referenced and not had and not force and any(True for _ in self.blobs.iter_blobs()):
                stored = sum(1 for _ in self.blobs.iter_blobs())
                raise ValueError(
                    f"the workspace catalog {self.catalog_path} has never listed a dataset, but {stored:,} stored files "
                    "exist: the catalog may have been replaced, truncated or restored without its rows, and gc would "
                    "delete every upload. Restore the catalog first; to delete the files anyway, run gc with --force.")
            for sha, _, _ in self.blobs.iter_blobs():
                if sha in referenced:
                    kept += 1
                else:
                    freed += self.blobs.remove(sha)
                    removed += 1
        n_tmp, tmp_bytes = self.blobs.remove_temp_files(grace_seconds)
        with self._db() as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return GcReport(removed_blobs=removed, removed_bytes=freed + tmp_bytes, removed_temp_files=n_tmp, kept_blobs=kept,
                        purged_datasets=purged[0], purged_analyses=purged[1])

    def usage(self) -> Usage:
        """Space used and the limits in force.

        Returns
        -------
        Usage
        """
        n_blobs, blob_bytes = self.blobs.total_bytes()
        with self._db() as conn:
            n_datasets = conn.execute("SELECT COUNT(*) FROM datasets WHERE deleted IS NULL").fetchone()[0]
            n_analyses = conn.execute("SELECT COUNT(*) FROM analyses WHERE deleted IS NULL").fetchone()[0]
        catalog = sum(p.stat().st_size for p in self.root.glob(CATALOG_NAME + "*") if p.is_file())
        return Usage(root=str(self.root), n_datasets=n_datasets, n_analyses=n_analyses, n_blobs=n_blobs,
                     blob_bytes=blob_bytes, catalog_bytes=catalog, max_bytes=self.max_bytes,
                     max_file_bytes=self.max_file_bytes, listing=self.listing)
