"""What the workspace returns: frozen records, each with ``to_dict()`` for JSON."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["AnalysisRecord", "DatasetRecord", "DeletedRecord", "GcReport", "SourceRecord", "Usage"]


@dataclass(frozen=True)
class SourceRecord:
    """One stored source file of a dataset.

    Attributes
    ----------
    position : int
        0-based order in which the files were given.
    name : str
        File name as given (display only; never a path).
    format : str
        Loader format key (``""`` when the loader grouped the file, e.g. a HELM run member,
        under a source of another name and several formats were involved).
    sha256 : str
        SHA-256 of the bytes (the blob's name).
    size_bytes : int
    """

    position: int
    name: str
    format: str
    sha256: str
    size_bytes: int

    def to_dict(self) -> dict[str, Any]:
        """JSON object with keys ``position, name, format, sha256, size_bytes``."""
        return asdict(self)


@dataclass(frozen=True)
class DatasetRecord:
    """A stored dataset's catalog row.

    Attributes
    ----------
    id : str
        22-character id.
    name : str
    created : str
        ISO 8601 UTC time, e.g. ``2026-01-01T12:00:00.123456Z``.
    layout : {"attempts", "counts"}
    n_models, n_questions : int
        Distinct models; distinct (task, question) pairs.
    n_trials : int
        Largest number of trials of one model on one question.
    n_rows : int
        Rows of the canonical table.
    size_bytes : int
        Total size of the source files.
    table_sha256 : str
        Blob of the canonical table (Parquet).
    owner : str or None
        Session token of the creator; None for rows published without one (CLI, CI).
    sources : tuple of SourceRecord
    """

    id: str
    name: str
    created: str
    layout: str
    n_models: int
    n_questions: int
    n_trials: int
    n_rows: int
    size_bytes: int
    table_sha256: str
    owner: str | None
    sources: tuple[SourceRecord, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON object: the attributes above, ``sources`` as a list of objects."""
        out = {k: getattr(self, k) for k in self.__dataclass_fields__ if k != "sources"}
        out["sources"] = [s.to_dict() for s in self.sources]
        return out


@dataclass(frozen=True)
class AnalysisRecord:
    """A saved analysis: the app's state for one dataset.

    Attributes
    ----------
    id : str
    dataset_id : str
    state : dict
        JSON object saved by the app (see README, "Workspace", for the recommended form).
    page : str
        The page the analysis was saved from (e.g. ``"results/leaderboard"``).
    created, updated : str
        ISO 8601 UTC times.
    immutable : bool
        True for a shared snapshot (never changes; saving onto it forks a new analysis).
    owner : str or None
    """

    id: str
    dataset_id: str
    state: dict
    page: str
    created: str
    updated: str
    immutable: bool
    owner: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON object with keys ``id, dataset_id, state, page, created, updated, immutable, owner``."""
        return asdict(self)


@dataclass(frozen=True)
class GcReport:
    """What :meth:`Workspace.gc` removed.

    Attributes
    ----------
    removed_blobs : int
        Blob files no catalog row referenced.
    removed_bytes : int
        Bytes freed by those blobs and by temporary files.
    removed_temp_files : int
        Temporary files left by interrupted writes.
    kept_blobs : int
        Blobs still referenced (by live rows, or by deleted rows still within the retention period).
    purged_datasets, purged_analyses : int
        Deleted rows purged for good because they were deleted longer ago than the retention period
        (analyses counted with their dataset or on their own).
    """

    removed_blobs: int
    removed_bytes: int
    removed_temp_files: int
    kept_blobs: int
    purged_datasets: int = 0
    purged_analyses: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON object with keys ``removed_blobs, removed_bytes, removed_temp_files, kept_blobs, purged_datasets,
        purged_analyses``."""
        return asdict(self)


@dataclass(frozen=True)
class DeletedRecord:
    """A deleted dataset or analysis that can still be restored (see :meth:`Workspace.list_deleted`).

    Attributes
    ----------
    kind : {"dataset", "analysis"}
    id : str
    name : str
        The dataset's name; for an analysis, its page.
    dataset_id : str
        The dataset itself, or the dataset an analysis belongs to.
    deleted : str
        When it was deleted (ISO 8601 UTC).
    restore_until : str
        When ``gc`` may purge it for good (``deleted`` + the retention period).
    n_analyses : int
        Analyses deleted with a dataset, restored with it (0 for an analysis).
    owner : str or None
    """

    kind: str
    id: str
    name: str
    dataset_id: str
    deleted: str
    restore_until: str
    n_analyses: int
    owner: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON object with keys ``kind, id, name, dataset_id, deleted, restore_until, n_analyses, owner``."""
        return asdict(self)


@dataclass(frozen=True)
class Usage:
    """Space used by the workspace and its limits.

    Attributes
    ----------
    root : str
    n_datasets, n_analyses, n_blobs : int
    blob_bytes : int
        Bytes of all blob files (what the quota counts).
    catalog_bytes : int
        Bytes of the SQLite catalog (with its WAL).
    max_bytes, max_file_bytes : int
        Limits in force.
    listing : {"shared", "private"}
    """

    root: str
    n_datasets: int
    n_analyses: int
    n_blobs: int
    blob_bytes: int
    catalog_bytes: int
    max_bytes: int
    max_file_bytes: int
    listing: str

    def to_dict(self) -> dict[str, Any]:
        """JSON object with the attributes above as keys."""
        return asdict(self)
