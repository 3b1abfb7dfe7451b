"""Large uploads through the counts engine: uploaded bytes -> DuckDB count table.

The app receives uploads as ``(name, bytes)`` pairs. A large table upload (CSV/TSV/Parquet/plain
JSONL of :data:`~scorio_core.engines.AUTO_THRESHOLD_BYTES` or more together) can be counted
by DuckDB instead of being parsed into a pandas attempt table: the bytes are written to a
private temporary folder under their own file names (so a task taken from a file stem is the
same as with the pandas loader, and the sources name the uploaded files), counted, and the
folder is removed.
"""

from __future__ import annotations

import tempfile
from pathlib import Path, PurePath

from scorio_core.errors import InputError

__all__ = ["attempt_table_file", "count_table_file", "count_uploads", "upload_engine"]


def _write(folder: Path, files) -> list[str]:
    paths = []
    for i, (name, data) in enumerate(files):
        base = PurePath(str(name).replace("\\", "/")).name or f"upload-{i}"
        sub = folder / str(i)  # one sub-folder per file: equal names never collide, names stay as uploaded
        sub.mkdir()
        path = sub / base
        path.write_bytes(data)
        paths.append(str(path))
    return paths


def upload_engine(files, format: str | None = None, threshold: int | None = None) -> str:
    """``"duckdb"`` when these uploads are large table files the counts engine reads, else ``"pandas"``.

    Parameters
    ----------
    files : sequence of (str, bytes)
    format : str, optional
        The format chosen in the app (None: by suffix).
    threshold : int, optional
        Total bytes from which DuckDB counts (default
        :data:`scorio_core.engines.AUTO_THRESHOLD_BYTES`, as ``--engine auto``; Parquet files of
        :data:`~scorio_core.engines.AUTO_THRESHOLD_ROWS` rows or more go to DuckDB too).

    Examples
    --------
    >>> upload_engine([("a.csv", b"model,question,trial,correct\\nm,q,0,1\\n")])
    'pandas'
    >>> upload_engine([("a.csv", b"model,question,trial,correct\\nm,q,0,1\\n")], threshold=0)
    'duckdb'
    >>> upload_engine([("log.eval", b"PK")], threshold=0)
    'pandas'
    """
    from scorio_core.engines import AUTO_THRESHOLD_BYTES, ENGINE_FORMATS, auto_engine, table_format

    limit = AUTO_THRESHOLD_BYTES if threshold is None else threshold
    if not files or (format is not None and format not in ENGINE_FORMATS):
        return "pandas"
    formats = [format or table_format(PurePath(str(name)).name) for name, _ in files]
    if any(f is None for f in formats):
        return "pandas"
    large = sum(len(data) for _, data in files) >= limit
    if large and "jsonl" not in formats:
        return "duckdb"
    if not large and "parquet" not in formats:
        return "pandas"
    # JSONL is sniffed (lm-eval stays with pandas); Parquet footers tell the table's rows
    with tempfile.TemporaryDirectory(prefix="scorio-upload-") as folder:
        return auto_engine(_write(Path(folder), files), format=format, threshold=limit)


def count_uploads(files, *, format: str | None = None, mapping=None, memory_limit: str | None = "2GB",
                  trial_prefix: bool = True):
    """Count uploaded table files with DuckDB.

    Parameters
    ----------
    files : sequence of (str, bytes)
        Uploaded files (names are reduced to their last component).
    format, mapping, memory_limit
        As :func:`scorio_core.engines.load_counts`.
    trial_prefix : bool, default True
        Also keep the trial order as prefix counts per task (``Dataset.trial_prefix``; one
        DuckDB window pass more) when the tables have a trial column.

    Returns
    -------
    Dataset
        The count table (layout ``"counts"``), sources named as uploaded.

    Raises
    ------
    InputError, NotReadyError, EngineUnsupported
        As :func:`scorio_core.engines.load_counts` (the app then reads the files with the
        pandas loader, which reports the choices needed).
    """
    from scorio_core.engines import load_counts

    from scorio_core.io.formats.path_names import folder_fields, folder_names

    if not files:
        raise InputError("no files to count.")
    folder_names(None, folder_fields(mapping), str(files[0][0]))  # an upload has no folder (its copy's is private)
    with tempfile.TemporaryDirectory(prefix="scorio-upload-") as folder:
        paths = _write(Path(folder), files)
        return load_counts(paths, format=format, mapping=mapping, memory_limit=memory_limit, temp_directory=folder,
                           trial_prefix=trial_prefix)


def count_table_file(dataset, first_name: str) -> tuple[str, bytes]:
    """The file a workspace stores for data an engine counted: the count table as ``<stem>.counts.parquet``.

    Parameters
    ----------
    dataset : Dataset
        A count-table dataset (``load_counts``); its sources keep the inputs' names, sizes and
        SHA-256, and ``trial_prefix`` the trial order (stored beside the table).
    first_name : str
        The first input's name or path; its stem names the file (``data`` when it has none).

    Returns
    -------
    (str, bytes)
    """
    return _table_file(dataset.counts, first_name, "counts")


def attempt_table_file(dataset, first_name: str) -> tuple[str, bytes]:
    """The file a workspace stores for attempts whose model or task a file's folder named (``--map model=@folder``):
    the canonical attempt table as ``<stem>.attempts.parquet``, which reads back as the same attempts with the
    names in its columns (the stored files have no folder).

    Parameters
    ----------
    dataset : Dataset
        An attempt-table dataset (``io.load``).
    first_name : str
        As :func:`count_table_file`.

    Returns
    -------
    (str, bytes)
    """
    return _table_file(dataset.attempts, first_name, "attempts")


def _table_file(table, first_name: str, kind: str) -> tuple[str, bytes]:
    import io

    buffer = io.BytesIO()
    table.to_parquet(buffer, index=False)
    stem = PurePath(str(first_name).replace("\\", "/").rstrip("/")).name.split(".")[0]
    stem = "".join(ch for ch in stem if ch.isalnum() or ch in "-_") or "data"  # a URI or glob: no odd characters
    return f"{stem}.{kind}.parquet", buffer.getvalue()
