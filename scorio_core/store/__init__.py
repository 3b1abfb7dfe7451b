"""The persistent workspace: datasets, analyses and share links that survive a restart.

Uploaded files are stored once, by content (SHA-256), under ``<root>/blobs``; a SQLite catalog
(``<root>/catalog.sqlite3``) records datasets (with their canonical table as Parquet and their
quality report) and analyses (the app's state as JSON). Reopening a dataset reads the Parquet
table; no source file is parsed again. No Streamlit import: the app wraps a :class:`Workspace`
in ``st.cache_resource``.

Typical use::

    from scorio_core import io
    from scorio_core.store import Workspace

    ws = Workspace()                                   # $SCORIO_WORKSPACE or ./workspace
    files = [("gpt.csv", gpt_bytes), ("claude.csv", claude_bytes)]
    record = ws.save_dataset("my eval", files, io.load(files), owner=session_token)
    ds = ws.open_dataset(record.id)                    # == the loaded Dataset
    a = ws.save_analysis(record.id, state, page="results/leaderboard", owner=session_token)
    a = ws.save_analysis(record.id, new_state, page="results/leaderboard", analysis_id=a.id)
    link_id = ws.share_analysis(a.id).id               # immutable snapshot
    ws.delete_dataset(record.id)                       # soft: hidden, listed by ws.list_deleted()
    ws.restore_dataset(record.id)                      # back, with its analyses; gc purges after the retention

Share links made outside the app (``python -m scorio_core publish``) are built by
:mod:`scorio_core.store.publish`, which the app's Share button uses too.

Settings (environment): ``SCORIO_WORKSPACE``, ``SCORIO_WORKSPACE_MAX_FILE_BYTES``,
``SCORIO_WORKSPACE_MAX_BYTES``, ``SCORIO_WORKSPACE_LISTING``, ``SCORIO_WORKSPACE_RETENTION_DAYS``
(README, "Workspace").
"""

from scorio_core.store._analyses import MAX_STATE_BYTES
from scorio_core.store._ids import NotFoundError, new_id, validate_id
from scorio_core.store._settings import LISTINGS, QuotaError, WorkspaceSettings, read_settings
from scorio_core.store.blobs import BlobStore, CorruptBlobError, sha256_of
from scorio_core.store.records import AnalysisRecord, DatasetRecord, DeletedRecord, GcReport, SourceRecord, Usage
from scorio_core.store.workspace import Workspace

__all__ = [
    "LISTINGS",
    "MAX_STATE_BYTES",
    "AnalysisRecord",
    "BlobStore",
    "CorruptBlobError",
    "DatasetRecord",
    "DeletedRecord",
    "GcReport",
    "NotFoundError",
    "QuotaError",
    "SourceRecord",
    "Usage",
    "Workspace",
    "WorkspaceSettings",
    "new_id",
    "read_settings",
    "sha256_of",
    "validate_id",
]
