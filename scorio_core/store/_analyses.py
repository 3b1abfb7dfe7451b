"""Analysis methods of :class:`~scorio_core.store.Workspace`: autosave, share, list, delete.

An analysis is a JSON object (the app's state) tied to one dataset. A *mutable* analysis is
updated in place by each autosave; :meth:`AnalysesMixin.share_analysis` copies it into an
*immutable* snapshot with a new id, for share links. Saving onto a snapshot's id never
changes it: a new mutable analysis is created from it (copy-on-write), so callers must keep
the id of the record returned by every save.

Deleting is soft (catalog version 3): a deleted analysis (alone, or with its dataset) is skipped by every
lookup here, so its link reports a missing analysis, until it is restored or purged (:mod:`scorio_core.store._trash`).
"""

from __future__ import annotations

import json

from scorio_core.errors import InputError
from scorio_core.store._ids import NotFoundError, check_name, new_id, now_iso, validate_id, validate_owner
from scorio_core.store.catalog import transaction
from scorio_core.store.records import AnalysisRecord

__all__ = ["MAX_STATE_BYTES", "AnalysesMixin"]

MAX_STATE_BYTES = 2_000_000
_COLUMNS = "id, dataset_id, state_json, page, created, updated, immutable, owner"


def _record(row) -> AnalysisRecord:
    return AnalysisRecord(id=row[0], dataset_id=row[1], state=json.loads(row[2]), page=row[3], created=row[4],
                          updated=row[5], immutable=bool(row[6]), owner=row[7])


def _state_json(state) -> str:
    if not isinstance(state, dict):
        raise TypeError(f"state must be a dict (a JSON object); got {type(state).__name__}.")
    try:
        text = json.dumps(state, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise InputError(f"state must be JSON-serializable (str keys; no NaN or infinity): {exc}.", field="state") from None
    except RecursionError:
        raise InputError("state is nested too deeply to store.", field="state") from None
    if len(text.encode()) > MAX_STATE_BYTES:
        raise InputError(f"state is {len(text.encode()):,} bytes as JSON; the limit is {MAX_STATE_BYTES:,}.", field="state")
    return text


class AnalysesMixin:
    """Analysis methods; the host class provides ``_db`` and ``listing``."""

    def save_analysis(self, dataset_id: str, state: dict, page: str, analysis_id: str | None = None,
                      owner: str | None = None) -> AnalysisRecord:
        """Autosave an analysis: create it, or update it in place.

        Parameters
        ----------
        dataset_id : str
            The dataset it analyses.
        state : dict
            JSON object of at most 2,000,000 bytes (README, "Workspace", recommends the
            analysis manifest of :func:`scorio_core.report.manifest.build_manifest`).
        page : str
            Page it was saved from (1-200 printable characters).
        analysis_id : str, optional
            None creates a new analysis. The id of a mutable analysis updates it in place
            (its owner is kept); the id of a shared snapshot creates a new mutable analysis
            from it. Keep the returned record's id.
        owner : str, optional
            Session token of the creator (for new analyses).

        Returns
        -------
        AnalysisRecord

        Raises
        ------
        TypeError
            ``state`` is not a dict.
        InputError
            An invalid id, page, owner or state, or ``analysis_id`` belongs to another dataset.
        NotFoundError
            The dataset or ``analysis_id`` does not exist.
        """
        validate_id(dataset_id, "dataset id")
        if analysis_id is not None:
            validate_id(analysis_id, "analysis id")
        page = check_name(page, "page")
        owner = validate_owner(owner)
        text = _state_json(state)
        stamp = now_iso()
        with self._db() as conn, transaction(conn):
            if conn.execute("SELECT 1 FROM datasets WHERE id = ? AND deleted IS NULL", (dataset_id,)).fetchone() is None:
                raise NotFoundError(f"no dataset with id {dataset_id!r} in the workspace.")
            new = new_id()
            if analysis_id is not None:
                row = conn.execute("SELECT dataset_id, immutable FROM analyses WHERE id = ? AND deleted IS NULL",
                                   (analysis_id,)).fetchone()
                if row is None:
                    raise NotFoundError(f"no analysis with id {analysis_id!r} in the workspace.")
                if row[0] != dataset_id:
                    raise InputError(f"analysis {analysis_id!r} belongs to dataset {row[0]!r}, not {dataset_id!r}.")
                if not row[1]:
                    conn.execute("UPDATE analyses SET state_json = ?, page = ?, updated = ? WHERE id = ?",
                                 (text, page, stamp, analysis_id))
                    new = analysis_id
            if new != analysis_id:
                conn.execute(f"INSERT INTO analyses ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
                             (new, dataset_id, text, page, stamp, stamp, owner))
        return self.get_analysis(new)

    def share_analysis(self, analysis_id: str) -> AnalysisRecord:
        """Freeze an analysis into an immutable snapshot with a new id (for a share link).

        Parameters
        ----------
        analysis_id : str

        Returns
        -------
        AnalysisRecord
            The snapshot (``immutable=True``); for an id that already is a snapshot, that
            snapshot itself.

        Raises
        ------
        InputError
            An invalid id.
        NotFoundError
            No analysis has this id (or it was deleted, alone or with its dataset).
        """
        validate_id(analysis_id, "analysis id")
        with self._db() as conn, transaction(conn):
            row = conn.execute(f"SELECT {_COLUMNS} FROM analyses WHERE id = ? AND deleted IS NULL", (analysis_id,)).fetchone()
            if row is None:
                raise NotFoundError(f"no analysis with id {analysis_id!r} in the workspace.")
            if row[6]:
                return _record(row)
            snapshot, stamp = new_id(), now_iso()
            conn.execute(f"INSERT INTO analyses ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 1, ?)",
                         (snapshot, row[1], row[2], row[3], stamp, stamp, row[7]))
        return self.get_analysis(snapshot)

    def get_analysis(self, analysis_id: str) -> AnalysisRecord:
        """One analysis by id (any caller holding the id may read it).

        Raises
        ------
        InputError
            An invalid id.
        NotFoundError
            No analysis has this id (or it was deleted, alone or with its dataset).
        """
        validate_id(analysis_id, "analysis id")
        with self._db() as conn:
            row = conn.execute(f"SELECT {_COLUMNS} FROM analyses WHERE id = ? AND deleted IS NULL", (analysis_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no analysis with id {analysis_id!r} in the workspace.")
        return _record(row)

    def list_analyses(self, owner: str | None = None, dataset_id: str | None = None) -> list[AnalysisRecord]:
        """Analyses the caller may list, most recently updated first.

        Parameters
        ----------
        owner : str, optional
            The caller's session token; with ``listing="private"`` only its rows and rows
            without an owner are listed.
        dataset_id : str, optional
            Only the analyses of this dataset.

        Returns
        -------
        list of AnalysisRecord

        Raises
        ------
        InputError
            An invalid owner or dataset id.
        """
        owner = validate_owner(owner)
        if dataset_id is not None:
            validate_id(dataset_id, "dataset id")
        private = self.listing == "private"
        query = (f"SELECT {_COLUMNS} FROM analyses WHERE deleted IS NULL AND (? IS NULL OR dataset_id = ?) "
                 "AND (? = 0 OR owner IS NULL OR owner = ?) ORDER BY updated DESC, id")
        with self._db() as conn:
            rows = conn.execute(query, (dataset_id, dataset_id, int(private), owner)).fetchall()
        return [_record(r) for r in rows]

    def delete_analysis(self, analysis_id: str, *, purge: bool = False) -> None:
        """Delete an analysis (a shared snapshot too: its link stops working until it is restored).

        Parameters
        ----------
        analysis_id : str
        purge : bool, default False
            Remove the row at once instead of marking it deleted (for a draft made only to be
            snapshotted, whose content the snapshot keeps). By default it stays restorable with
            :meth:`restore_analysis` until :meth:`gc` purges it after the retention period.

        Raises
        ------
        InputError
            An invalid id.
        NotFoundError
            No analysis has this id (or it is deleted already).
        """
        validate_id(analysis_id, "analysis id")
        with self._db() as conn, transaction(conn):
            if purge:
                n = conn.execute("DELETE FROM analyses WHERE id = ? AND deleted IS NULL", (analysis_id,)).rowcount
            else:
                n = conn.execute("UPDATE analyses SET deleted = ? WHERE id = ? AND deleted IS NULL",
                                 (now_iso(), analysis_id)).rowcount
            if not n:
                raise NotFoundError(f"no analysis with id {analysis_id!r} in the workspace.")
