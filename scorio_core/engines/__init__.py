"""Counts engines: large attempt-level tables -> the count table, without pandas in between.

The metric core is counts-first: a leaderboard needs only ``n_trials`` and ``n_correct`` per
(model, task, question). :func:`load_counts` computes them where the data lives (DuckDB,
embedded and out of core) and returns the same :class:`~scorio_core.io.Dataset` that loading
the equivalent count table with :func:`scorio_core.io.load` gives. See docs/scale.md.

Typical use::

    from scorio_core.engines import load_counts
    ds = load_counts("runs/**/*.parquet", memory_limit="2GB")
    ds.counts            # model, task, question_id, n_trials, n_correct

DuckDB is imported only when an engine runs, so importing this package stays cheap.
"""

from __future__ import annotations

from collections.abc import Mapping

from scorio_core.errors import InputError
from scorio_core.engines._sql import (
    ENGINE_FORMATS,
    EngineUnsupported,
    InputFile,
    NotReadyError,
    expand_inputs,
    has_glob,
    is_remote,
    quote_ident,
    table_format,
)

__all__ = [
    "AUTO_THRESHOLD_BYTES",
    "AUTO_THRESHOLD_ROWS",
    "ENGINES",
    "ENGINE_FORMATS",
    "EngineUnsupported",
    "InputFile",
    "NotReadyError",
    "auto_engine",
    "expand_inputs",
    "has_glob",
    "is_remote",
    "load_counts",
    "quote_ident",
    "table_format",
]

#: Engines accepted by :func:`load_counts` (``pandas`` and ``auto`` are CLI choices).
ENGINES = ("duckdb", "spark")
#: ``--engine auto`` picks DuckDB when the table files together are at least this large.
AUTO_THRESHOLD_BYTES = 50 * 1024 * 1024
#: ... or when its Parquet files hold at least this many rows (Parquet compresses attempt tables
#: 20-100x: 10^7 attempts can be 3 MB on disk and 1.5 GB as a pandas table).
AUTO_THRESHOLD_ROWS = 1_000_000


def load_counts(
    paths,
    *,
    engine: str = "duckdb",
    mapping: Mapping[str, str] | None = None,
    format: str | None = None,
    memory_limit: str | None = "2GB",
    temp_directory: str | None = None,
    threads: int | None = None,
    hash_files: bool = True,
    spark_master: str | None = None,
    spark=None,
    trial_prefix: bool = False,
):
    """Aggregate attempt-level table files into a count-table :class:`~scorio_core.io.Dataset`.

    Parameters
    ----------
    paths : str, os.PathLike or sequence of them
        Files, folders (searched recursively for table files) and globs
        (``"runs/**/*.parquet"``). CSV, TSV, Parquet and JSON Lines, optionally gzip
        compressed, recognised by suffix (or all read as ``format``). Spark also reads URIs
        (``"s3a://bucket/details/*.parquet"``, ``hdfs://...``, a folder URI with ``format``),
        listed and globbed by Spark itself; their sources record the URI without credentials
        and are not hashed. DuckDB refuses URIs (one line saying to use Spark).
    engine : {"duckdb", "spark"}
        The SQL engine: DuckDB (embedded, the default) or Spark SQL (optional extra:
        ``pip install -r requirements-spark.txt`` and a Java runtime).
    mapping : dict of str to str, optional
        Column overrides ``{canonical_name: source_column}`` as for :func:`scorio_core.io.load`;
        the source columns are checked against the files' schemas.
    format : {"csv", "tsv", "parquet", "jsonl"}, optional
        Read every file as this format instead of going by suffix.
    memory_limit : str, optional
        DuckDB ``memory_limit`` (e.g. ``"2GB"``); beyond it DuckDB spills to ``temp_directory``.
    temp_directory : str, optional
        Where DuckDB spills (default: DuckDB's own choice).
    threads : int, optional
        DuckDB worker threads (default: one per core).
    hash_files : bool, default True
        Record each file's SHA-256 in ``sources`` (reads every byte once more; turn off for
        very large inputs).
    spark_master : str, optional
        Spark only: master URL (``local[2]``, ``spark://host:7077``, ``yarn``); default the
        active session (``spark-submit``), else ``$SPARK_MASTER`` or ``local[*]``.
    spark : pyspark.sql.SparkSession, optional
        Spark only: run on this session.
    trial_prefix : bool, default False
        Also keep the trial order as prefix counts per task (one window pass more;
        ``Dataset.trial_prefix``), so observed rank trajectories stay exact on the count table.
        Left None for count tables and tables without a trial column.

    Returns
    -------
    Dataset
        ``counts`` with one row per (model, task, question): ``model, task, question_id``
        (categorical of str, natural order) and ``n_trials, n_correct`` (int64), shape
        (n_cells, 5); ``report`` computed on that table (layout ``"counts"``: question gaps,
        unequal trials, saturation) with the sources, mappings and defaults; one
        :class:`~scorio_core.io.SourceInfo` per file whose ``rows`` are the file's input rows.

    Raises
    ------
    InputError
        A glob matching nothing, a missing file, an ambiguous or missing column, an empty
        identifier, a non-integer trial, an outcome that is not a number or outside [0, 1],
        an invalid count - naming the file (and line, when DuckDB reports it) and the field.
        With ``engine="spark"``: PySpark or Java missing (one line saying how to install).
    NotReadyError
        (an ``InputError``) when the data needs a choice first: duplicate (model, task,
        question, trial) keys, non-binary or missing outcomes. Nothing is dropped or filled;
        ``blocking`` carries the same messages as the pandas report.
    EngineUnsupported
        (an ``InputError``) for inputs only the pandas readers handle: other formats
        (lm-eval, Inspect, HELM, NPZ, JSON), wide tables, rubric category codes, column types
        that are not text, numbers or booleans.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "a.csv").write_text("model,question,trial,correct\\nm1,q1,0,1\\nm1,q1,1,0\\n")
    >>> load_counts(str(d / "*.csv")).counts.values.tolist()
    [['m1', 'a', 'q1', 2, 1]]
    """
    if engine not in ENGINES:
        raise InputError(f"unknown counts engine {engine!r}; use one of {', '.join(ENGINES)} (or the pandas loader).")
    if format is not None and format not in ENGINE_FORMATS:
        name = "DuckDB" if engine == "duckdb" else "Spark"
        raise EngineUnsupported(f"format {format!r} is read by the pandas engine; the {name} engine reads "
                                f"{', '.join(ENGINE_FORMATS)}.")
    if engine == "spark":
        from scorio_core.engines.spark_engine import load_counts_spark

        return load_counts_spark(paths, mapping=mapping, format=format, spark_master=spark_master, spark=spark,
                                 hash_files=hash_files, trial_prefix=trial_prefix)
    from scorio_core.engines.duckdb_engine import load_counts_duckdb

    return load_counts_duckdb(paths, mapping=mapping, format=format, memory_limit=memory_limit,
                              temp_directory=temp_directory, threads=threads, hash_files=hash_files,
                              trial_prefix=trial_prefix)


def auto_engine(paths, format: str | None = None, threshold: int = AUTO_THRESHOLD_BYTES,
                rows: int | None = None) -> str:
    """Which engine ``--engine auto`` uses for these inputs: ``"duckdb"`` or ``"pandas"``.

    DuckDB when every input is a CSV/TSV/Parquet/JSONL table (by suffix or ``format``) and
    the files together hold at least ``threshold`` bytes or their Parquet footers at least
    ``rows`` rows (default :data:`AUTO_THRESHOLD_ROWS`), or a glob names them; pandas
    otherwise (small files, folders, lm-eval / Inspect / HELM / NPZ / JSON inputs). JSONL
    files are sniffed so lm-eval and scorio per-attempt JSONL stay with pandas.

    Returns
    -------
    str
        ``"duckdb"`` or ``"pandas"``; never raises for bad paths (the loader reports them).
    """
    import os

    if format is not None and format not in ENGINE_FORMATS:
        return "pandas"
    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    if any(os.path.isdir(os.fspath(p)) for p in items):
        return "pandas"  # a folder may hold HELM runs or lm-eval dumps
    try:
        files = expand_inputs(items, format)
    except InputError:
        return "duckdb" if any(has_glob(p) for p in items) else "pandas"
    if any(f.format is None for f in files):
        return "pandas"
    if any(f.format == "jsonl" for f in files) and not _plain_jsonl(files):
        return "pandas"
    if any(has_glob(p) for p in items) or sum(f.size for f in files) >= threshold:
        return "duckdb"
    rows = AUTO_THRESHOLD_ROWS if rows is None else rows
    if any(f.format == "parquet" for f in files) and _parquet_rows(files) >= rows:
        return "duckdb"
    return "pandas"


def _parquet_rows(files) -> int:
    """Rows in the inputs' Parquet footers (0 when a footer cannot be read: the loader reports it)."""
    import duckdb

    paths = [f.path for f in files if f.format == "parquet"]
    try:
        with duckdb.connect() as con:
            total = con.execute("SELECT sum(num_rows) FROM parquet_file_metadata(?)", [paths]).fetchone()[0]
    except duckdb.Error:
        return 0
    return int(total or 0)


def _plain_jsonl(files) -> bool:
    from scorio_core.io._detect import jsonl_kinds

    return all(kind == "jsonl" for _, kind in jsonl_kinds((f.name, f.path) for f in files if f.format == "jsonl"))
