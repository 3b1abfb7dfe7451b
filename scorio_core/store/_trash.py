"""Soft delete of :class:`~scorio_core.store.Workspace`: list what was deleted, restore it, purge it for good.

``delete_dataset`` and ``delete_analysis`` only stamp ``deleted`` on the rows (catalog version 3). An
analysis deleted with its dataset carries the dataset's stamp, so :meth:`TrashMixin.restore_dataset`
brings back exactly those (an analysis deleted on its own before stays deleted). :meth:`Workspace.gc`
calls :meth:`TrashMixin._purge_expired` in its write transaction, before it collects the blobs no row
references: blobs of a deleted dataset still within the retention period stay referenced and are kept.
"""

from __future__ import annotations

import datetime as _dt

from scorio_core.errors import InputError
from scorio_core.store._ids import NotFoundError, validate_id, validate_owner
from scorio_core.store.catalog import transaction
from scorio_core.store.records import AnalysisRecord, DatasetRecord, DeletedRecord

__all__ = ["TrashMixin", "restore_until"]


def _parse(stamp: str) -> _dt.datetime:
    return _dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def _iso(moment: _dt.datetime) -> str:
    return moment.astimezone(_dt.timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


def restore_until(deleted: str, retention_days: float) -> str:
    """When a row deleted at ``deleted`` may be purged by ``gc``: ``deleted`` + ``retention_days``.

    Parameters
    ----------
    deleted : str
        ISO 8601 UTC stamp, as stored in the catalog's ``deleted`` column.
    retention_days : float
        Days deleted rows stay restorable.

    Returns
    -------
    str
        ISO 8601 UTC with a ``Z`` suffix (the catalog's format).
    """
    return _iso(_parse(deleted) + _dt.timedelta(days=retention_days))


class TrashMixin:
    """Restore and purge methods; the host class provides ``_db``, ``listing``, ``retention_days`` and the getters."""

    def _undelete(self, conn, dataset_id: str) -> int:
        """Clear the ``deleted`` stamp of a dataset and of the analyses deleted with it (inside a transaction)."""
        row = conn.execute("SELECT deleted FROM datasets WHERE id = ?", (dataset_id,)).fetchone()
        if row is None or row[0] is None:
            return 0
        n = conn.execute("UPDATE analyses SET deleted = NULL WHERE dataset_id = ? AND deleted = ?",
                         (dataset_id, row[0])).rowcount
        conn.execute("UPDATE datasets SET deleted = NULL WHERE id = ?", (dataset_id,))
        return int(n)

    def restore_dataset(self, dataset_id: str) -> DatasetRecord:
        """Bring back a deleted dataset, with the analyses deleted together with it.

        Parameters
        ----------
        dataset_id : str
            The id it had (ids never change: share links and bookmarks work again).

        Returns
        -------
        DatasetRecord
            The restored row, same id and content as before the delete.

        Raises
        ------
        InputError
            An invalid id.
        NotFoundError
            No deleted dataset has this id (never stored, not deleted, or purged by ``gc``).
        """
        validate_id(dataset_id, "dataset id")
        with self._db() as conn, transaction(conn):
            if conn.execute("SELECT 1 FROM datasets WHERE id = ? AND deleted IS NOT NULL", (dataset_id,)).fetchone() is None:
                raise NotFoundError(f"no deleted dataset with id {dataset_id!r} in the workspace (it is not deleted, "
                                    "or gc purged it after the retention period).")
            self._undelete(conn, dataset_id)
        return self.get_dataset(dataset_id)

    def restore_analysis(self, analysis_id: str) -> AnalysisRecord:
        """Bring back an analysis deleted on its own (one deleted with its dataset comes back with the dataset).

        Parameters
        ----------
        analysis_id : str

        Returns
        -------
        AnalysisRecord

        Raises
        ------
        InputError
            An invalid id, or its dataset is deleted too (restore the dataset instead).
        NotFoundError
            No deleted analysis has this id.
        """
        validate_id(analysis_id, "analysis id")
        with self._db() as conn, transaction(conn):
            row = conn.execute("SELECT a.dataset_id, d.deleted FROM analyses a JOIN datasets d ON d.id = a.dataset_id "
                               "WHERE a.id = ? AND a.deleted IS NOT NULL", (analysis_id,)).fetchone()
            if row is None:
                raise NotFoundError(f"no deleted analysis with id {analysis_id!r} in the workspace (it is not deleted, "
                                    "or gc purged it after the retention period).")
            if row[1] is not None:
                raise InputError(f"analysis {analysis_id!r} belongs to the deleted dataset {row[0]!r}; restore the "
                                 "dataset (its analyses deleted with it come back too).")
            conn.execute("UPDATE analyses SET deleted = NULL WHERE id = ?", (analysis_id,))
        return self.get_analysis(analysis_id)

    def list_deleted(self, owner: str | None = None) -> list[DeletedRecord]:
        """Deleted datasets, and analyses deleted on their own, that can still be restored; newest first.

        Parameters
        ----------
        owner : str, optional
            The caller's session token; with ``listing="private"`` only its rows and rows without an
            owner are listed, as in :meth:`list_datasets`.

        Returns
        -------
        list of DeletedRecord
            Datasets first, then analyses (whose dataset is live); ``restore_until`` is when ``gc``
            may purge each.

        Raises
        ------
        InputError
            An invalid owner token.
        """
        owner = validate_owner(owner)
        private = int(self.listing == "private")
        with self._db() as conn:
            datasets = conn.execute(
                "SELECT d.id, d.name, d.id, d.deleted, d.owner, (SELECT COUNT(*) FROM analyses a "
                "WHERE a.dataset_id = d.id AND a.deleted = d.deleted) FROM datasets d WHERE d.deleted IS NOT NULL "
                "AND (? = 0 OR d.owner IS NULL OR d.owner = ?) ORDER BY d.deleted DESC, d.id", (private, owner)).fetchall()
            analyses = conn.execute(
                "SELECT a.id, a.page, a.dataset_id, a.deleted, a.owner, 0 FROM analyses a JOIN datasets d "
                "ON d.id = a.dataset_id WHERE a.deleted IS NOT NULL AND d.deleted IS NULL "
                "AND (? = 0 OR a.owner IS NULL OR a.owner = ?) ORDER BY a.deleted DESC, a.id", (private, owner)).fetchall()
        return [DeletedRecord(kind=kind, id=r[0], name=r[1], dataset_id=r[2], deleted=r[3],
                              restore_until=restore_until(r[3], self.retention_days), n_analyses=int(r[5]), owner=r[4])
                for kind, rows in (("dataset", datasets), ("analysis", analyses)) for r in rows]

    def _purge_expired(self, conn, retention_days: float) -> tuple[int, int]:
        """Remove rows deleted at least ``retention_days`` ago (inside gc's transaction); (datasets, analyses)."""
        cutoff = _iso(_dt.datetime.now(_dt.timezone.utc) - _dt.timedelta(days=retention_days))
        n_with = conn.execute("SELECT COUNT(*) FROM analyses a JOIN datasets d ON d.id = a.dataset_id "
                              "WHERE d.deleted IS NOT NULL AND d.deleted <= ?", (cutoff,)).fetchone()[0]
        n_datasets = conn.execute("DELETE FROM datasets WHERE deleted IS NOT NULL AND deleted <= ?",
                                  (cutoff,)).rowcount  # their sources and analyses cascade
        n_alone = conn.execute("DELETE FROM analyses WHERE deleted IS NOT NULL AND deleted <= ?", (cutoff,)).rowcount
        return int(n_datasets), int(n_with) + int(n_alone)
