"""Dataset methods of :class:`~scorio_core.store.Workspace` (save, list, open, rename, delete).

Deleting is soft (catalog version 3): the row gets a ``deleted`` stamp and every lookup here skips it; restoring
and purging are in :mod:`scorio_core.store._trash`.
"""

from __future__ import annotations

import hashlib
import json

from scorio_core.errors import InputError
from scorio_core.io import Dataset, QualityReport
from scorio_core.store import _codec
from scorio_core.store._ids import NotFoundError, check_name, new_id, now_iso, validate_id, validate_owner
from scorio_core.store.blobs import sha256_of
from scorio_core.store.catalog import transaction
from scorio_core.store.records import DatasetRecord, SourceRecord

__all__ = ["DatasetsMixin", "content_key"]

_DATASET_COLUMNS = ("id, name, created, layout, n_models, n_questions, n_trials, n_rows, size_bytes, "
                    "table_sha256, owner")


class DatasetsMixin:
    """Dataset methods; the host class provides ``_db``, ``blobs``, ``listing`` and the quota checks."""

    # ---------------------------------------------------------------- datasets
    def save_dataset(self, name: str, files, dataset: Dataset, owner: str | None = None, *,
                     return_created: bool = False) -> DatasetRecord | tuple[DatasetRecord, bool]:
        """Store a loaded dataset: its source files, its canonical table and its report.

        Parameters
        ----------
        name : str
            Display name (1-200 printable characters; not unique, never a path).
        files : list of (str, bytes)
            The source files exactly as given to :func:`scorio_core.io.load`.
        dataset : Dataset
            What ``load`` (and ``apply_choices``) returned for ``files``.
        owner : str, optional
            Session token of the creator (None: visible to everyone, e.g. from the CLI).
        return_created : bool, default False
            Also return whether this call inserted the row (decided inside the transaction that inserts it, so
            concurrent writers of the same data get True once).

        Returns
        -------
        DatasetRecord
            The new row, or the existing one when the same owner already stored the same
            files in any order (multiset of SHA-256) read with the same choices and column
            mappings (see :func:`content_key`); a deleted one is restored (with the analyses deleted with it).
            ``(record, created)`` with ``return_created``.

        Raises
        ------
        TypeError
            Wrong argument types.
        InputError
            An invalid name, owner or empty ``files``.
        QuotaError
            A file above the per-file limit, or the workspace would exceed its total limit.
        """
        name = check_name(name)
        owner = validate_owner(owner)
        # by name as well: after a code reload (Streamlit's file watcher) a dataset loaded before it is an instance
        # of the class object of the previous import, which is the same class
        if not isinstance(dataset, Dataset) and type(dataset).__qualname__ != Dataset.__qualname__:
            raise TypeError(f"dataset must be a scorio_core.io.Dataset; got {type(dataset).__name__}.")
        files = _check_files(files)
        for fname, data in files:
            self.check_file_size(fname, len(data))
        shas = [sha256_of(data) for _, data in files]
        key = content_key(shas, dataset)
        found = self._find_content(key, owner)
        if found is not None:
            return (self.get_dataset(found), False) if return_created else self.get_dataset(found)
        table = _codec.table_to_parquet(dataset)
        table_sha = sha256_of(table)
        extra = []
        prefix = _codec.prefix_to_parquet(dataset)
        if prefix is not None:  # the trial order of a count table, as prefix counts (a blob the meta names)
            extra = [("prefix counts", len(prefix[0]), sha256_of(prefix[0]))]
            meta = _codec.encode_meta(dataset, {**prefix[1], "sha256": extra[0][2]})
        else:
            meta = _codec.encode_meta(dataset)
        self._check_total([(f, len(d), s) for (f, d), s in zip(files, shas)] + [("canonical table", len(table), table_sha)]
                          + extra)
        blobs = [(sha, data) for sha, (_, data) in zip(shas, files)] + [(table_sha, table)]
        if prefix is not None:
            blobs.append((extra[0][2], prefix[0]))
        for _, data in blobs:
            self.blobs.put(data)
        dataset_id = new_id()
        with self._db() as conn, transaction(conn):
            row = conn.execute("SELECT id FROM datasets WHERE content_key = ? AND COALESCE(owner, '') = COALESCE(?, '')",
                               (key, owner)).fetchone()
            created = row is None
            if row is not None:  # another writer stored the same data meanwhile (or it was deleted meanwhile)
                dataset_id = row[0]
                self._undelete(conn, dataset_id)
            else:
                for sha, data in blobs:  # a gc between put and here may have removed them
                    if not self.blobs.exists(sha):
                        self.blobs.put(data)
                report = dataset.report
                conn.execute(
                    "INSERT INTO datasets (id, name, created, layout, n_models, n_questions, n_trials, n_rows, size_bytes, "
                    "table_sha256, report_json, content_key, owner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (dataset_id, name, now_iso(), dataset.layout, int(report.n_models), int(report.n_questions),
                     _max_trials(dataset), int(len(dataset.table)), sum(len(d) for _, d in files), table_sha, meta, key,
                     owner))
                conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('had_datasets', '1')")
                conn.executemany(
                    "INSERT INTO dataset_sources (dataset_id, position, name, format, sha256, size_bytes) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [(dataset_id, i, fname, _source_format(fname, sha, dataset), sha, len(data))
                     for i, ((fname, data), sha) in enumerate(zip(files, shas))])
        return (self.get_dataset(dataset_id), created) if return_created else self.get_dataset(dataset_id)

    def _find_content(self, key: str, owner: str | None) -> str | None:
        """The id of the row holding this content for this owner; a deleted one is restored (stored again)."""
        with self._db() as conn:
            row = conn.execute("SELECT id, deleted FROM datasets WHERE content_key = ? "
                               "AND COALESCE(owner, '') = COALESCE(?, '')", (key, owner)).fetchone()
            if row is not None and row[1] is not None:
                with transaction(conn):  # a gc may have purged it meanwhile: then it is stored anew
                    if conn.execute("SELECT 1 FROM datasets WHERE id = ?", (row[0],)).fetchone() is None:
                        return None
                    self._undelete(conn, row[0])
        return None if row is None else row[0]

    def _dataset_rows(self, where: str, params: tuple) -> list[DatasetRecord]:
        # ``where`` is one of this module's constant clauses; values go through ``params``
        with self._db() as conn:
            rows = conn.execute(f"SELECT {_DATASET_COLUMNS} FROM datasets {where} ORDER BY created DESC, id", params).fetchall()
            ids = [r[0] for r in rows]
            sources: dict[str, list[SourceRecord]] = {i: [] for i in ids}
            if ids:
                q = ("SELECT dataset_id, position, name, format, sha256, size_bytes FROM dataset_sources "
                     "WHERE dataset_id IN (SELECT value FROM json_each(?)) ORDER BY dataset_id, position")
                for r in conn.execute(q, (json.dumps(ids),)):
                    sources[r[0]].append(SourceRecord(*r[1:]))
        return [DatasetRecord(*r, sources=tuple(sources[r[0]])) for r in rows]

    def list_datasets(self, owner: str | None = None) -> list[DatasetRecord]:
        """Datasets the caller may list, newest first.

        Parameters
        ----------
        owner : str, optional
            The caller's session token. With ``listing="private"`` only rows with this owner
            and rows without an owner are listed; with ``"shared"`` every row is.

        Returns
        -------
        list of DatasetRecord

        Raises
        ------
        InputError
            An invalid owner token.
        """
        owner = validate_owner(owner)
        if self.listing == "private":
            return self._dataset_rows("WHERE deleted IS NULL AND (owner IS NULL OR owner = ?)", (owner,))
        return self._dataset_rows("WHERE deleted IS NULL", ())

    def get_dataset(self, dataset_id: str) -> DatasetRecord:
        """The catalog row of one dataset.

        Parameters
        ----------
        dataset_id : str
            22-character id (validated before any query).

        Returns
        -------
        DatasetRecord

        Raises
        ------
        InputError
            An invalid id.
        NotFoundError
            No dataset has this id (or it was deleted).
        """
        validate_id(dataset_id, "dataset id")
        rows = self._dataset_rows("WHERE id = ? AND deleted IS NULL", (dataset_id,))
        if not rows:
            raise NotFoundError(f"no dataset with id {dataset_id!r} in the workspace.")
        return rows[0]

    def _meta(self, dataset_id: str) -> tuple[str, dict]:
        validate_id(dataset_id, "dataset id")
        with self._db() as conn:
            row = conn.execute("SELECT table_sha256, report_json FROM datasets WHERE id = ? AND deleted IS NULL",
                               (dataset_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no dataset with id {dataset_id!r} in the workspace.")
        return row[0], _codec.decode_meta(row[1])

    def dataset_report(self, dataset_id: str) -> QualityReport:
        """The stored data-quality report of a dataset (without reading its table).

        Raises
        ------
        InputError
            An invalid id.
        NotFoundError
            No dataset has this id (or it was deleted).
        """
        return self._meta(dataset_id)[1]["report"]

    def open_dataset(self, dataset_id: str) -> Dataset:
        """Reopen a stored dataset from its Parquet table (no source file is parsed).

        Parameters
        ----------
        dataset_id : str

        Returns
        -------
        Dataset
            Equal to the Dataset that was saved: table with its dtypes and categories,
            ``report``, ``sources`` and ``row_source``.

        Raises
        ------
        InputError
            An invalid id.
        NotFoundError
            No dataset has this id (or it was deleted).
        CorruptBlobError
            The table blob is missing or does not match its hash.
        """
        table_sha, meta = self._meta(dataset_id)
        table, row_source = _codec.table_from_parquet(self.blobs.read(table_sha), meta)
        return _codec.dataset_from_parts(table, row_source, meta, self._trial_prefix(meta))

    def _trial_prefix(self, meta: dict) -> dict | None:
        """The stored prefix counts of a count table, or None (none kept, or the blob is gone or damaged:
        the trial order is then unknown, as for any count table; the counts themselves are intact)."""
        stored = meta.get("trial_prefix")
        if not isinstance(stored, dict) or not isinstance(stored.get("sha256"), str):
            return None
        try:
            return _codec.prefix_from_parquet(self.blobs.read(stored["sha256"]), stored, meta["sources"])
        except (OSError, ValueError, KeyError, TypeError):  # CorruptBlobError is an OSError
            return None

    def dataset_files(self, dataset_id: str) -> list[tuple[str, bytes]]:
        """The source files of a dataset as ``(name, bytes)`` pairs, verified, in their order.

        Useful to load them again with other choices (``scorio_core.io.load(files, mapping=...)``).

        Raises
        ------
        InputError
            An invalid id.
        NotFoundError
            No dataset has this id (or it was deleted).
        CorruptBlobError
            A blob is missing or corrupt.
        """
        record = self.get_dataset(dataset_id)
        return [(s.name, self.blobs.read(s.sha256)) for s in record.sources]

    def rename_dataset(self, dataset_id: str, name: str) -> DatasetRecord:
        """Give a dataset a new display name.

        Returns
        -------
        DatasetRecord
            The updated row.

        Raises
        ------
        InputError
            An invalid id or name.
        NotFoundError
            No dataset has this id (or it was deleted).
        """
        validate_id(dataset_id, "dataset id")
        name = check_name(name)
        with self._db() as conn, transaction(conn):
            changed = conn.execute("UPDATE datasets SET name = ? WHERE id = ? AND deleted IS NULL",
                                   (name, dataset_id)).rowcount
        if not changed:
            raise NotFoundError(f"no dataset with id {dataset_id!r} in the workspace.")
        return self.get_dataset(dataset_id)

    def delete_dataset(self, dataset_id: str, *, force: bool = False) -> int:
        """Delete a dataset and its analyses: hidden at once, restorable until :meth:`gc` purges them.

        The rows are marked deleted (:meth:`restore_dataset` brings them back with the same ids and
        content); :meth:`gc` purges them, and then frees their blobs, once they were deleted longer ago
        than the retention period (``retention_days``, default 30).

        Parameters
        ----------
        dataset_id : str
        force : bool
            Also delete shared snapshots of its analyses (their links stop working until a restore).
            Without it, a dataset that has shared snapshots is not deleted (share links are promised
            to stay valid).

        Returns
        -------
        int
            Number of analyses deleted with it (analyses deleted before are not counted).

        Raises
        ------
        InputError
            An invalid id, or shared snapshots exist and ``force`` is False.
        NotFoundError
            No dataset has this id (or it is deleted already).
        """
        validate_id(dataset_id, "dataset id")
        stamp = now_iso()
        with self._db() as conn, transaction(conn):
            if conn.execute("SELECT 1 FROM datasets WHERE id = ? AND deleted IS NULL", (dataset_id,)).fetchone() is None:
                raise NotFoundError(f"no dataset with id {dataset_id!r} in the workspace.")
            n_shared, n_all = conn.execute("SELECT COALESCE(SUM(immutable), 0), COUNT(*) FROM analyses "
                                           "WHERE dataset_id = ? AND deleted IS NULL", (dataset_id,)).fetchone()
            if n_shared and not force:
                raise InputError(f"dataset {dataset_id!r} has {n_shared} shared snapshot(s) whose links would break; "
                                 "delete those snapshots first, or delete the dataset with them (`workspace delete ID "
                                 "--force`; force=True in Python).")
            # the dataset's stamp on its live analyses: restore_dataset brings back exactly these
            conn.execute("UPDATE analyses SET deleted = ? WHERE dataset_id = ? AND deleted IS NULL", (stamp, dataset_id))
            conn.execute("UPDATE datasets SET deleted = ? WHERE id = ?", (stamp, dataset_id))
        return int(n_all)


def content_key(shas: list[str], dataset: Dataset) -> str:
    """The dedupe key of a dataset: its files and how they were read, not their order.

    Parameters
    ----------
    shas : list of str
        SHA-256 of every source file.
    dataset : Dataset
        Contributes ``report.choices`` (in order) and ``report.mappings`` (sorted).

    Returns
    -------
    str
        SHA-256 hex of the sorted file digests, the choices and the mappings.
    """
    how = json.dumps({"choices": list(dataset.report.choices), "mappings": sorted(repr(m) for m in dataset.report.mappings),
                      "layout": dataset.layout}, sort_keys=True)
    return hashlib.sha256("\n".join(["scorio-dataset/1", *sorted(shas), how]).encode()).hexdigest()


def _check_files(files) -> list[tuple[str, bytes]]:
    if isinstance(files, (str, bytes)) or not hasattr(files, "__iter__"):
        raise TypeError("files must be a list of (name, bytes) pairs.")
    out = []
    for i, item in enumerate(files):
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)
                and isinstance(item[1], (bytes, bytearray, memoryview))):
            raise TypeError(f"files[{i}] must be a (name, bytes) pair; got {type(item).__name__}.")
        out.append((check_name(item[0], f"files[{i}] name"), bytes(item[1])))
    if not out:
        raise InputError("a dataset needs at least one source file.")
    return out


def _source_format(name: str, sha: str, dataset: Dataset) -> str:
    for s in dataset.sources:
        if s.name == name or s.sha256 == sha:
            return s.format
    formats = {s.format for s in dataset.sources}
    return formats.pop() if len(formats) == 1 else ""


def _max_trials(dataset: Dataset) -> int:
    table = dataset.table
    if not len(table):
        return 0
    if dataset.layout == "counts":
        return int(table["n_trials"].max())
    sizes = table.groupby(["model", "task", "question_id"], observed=True, sort=False).size()
    return int(sizes.max())


