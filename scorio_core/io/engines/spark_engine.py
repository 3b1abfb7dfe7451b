"""Spark SQL counts engine: attempt-level files -> count table on a Spark cluster (or ``local[*]``).

The same aggregation, validation and refusals as :mod:`scorio_core.io.engines.duckdb_engine`,
written with the DataFrame API so it runs wherever Spark runs (``spark-submit``, a managed
Spark, or ``local[N]`` on one machine). Only the count table (one row per cell) and, on bad
input, one example row come back to Python.

Safety: paths travel as reader arguments (Hadoop glob characters escaped), every constant as
a ``lit``; column names come from the files' own schemas (checked by :func:`infer_mapping`)
and are referenced only through :func:`spark_ident` (backticks doubled). No user text is
formatted into SQL.

PySpark is imported lazily; it and a Java runtime are an optional extra
(``pip install -r requirements-spark.txt`` and, on Debian, ``apt-get install default-jre-headless``).
"""

from __future__ import annotations

import gzip
import os
import shutil
from collections.abc import Mapping
from urllib.parse import unquote, urlparse

from scorio_core.errors import InputError
from scorio_core.io.engines._sql import EngineUnsupported, InputFile, NotReadyError, expand_inputs

__all__ = ["INSTALL_HINT", "load_counts_spark", "spark_ident", "spark_session"]

#: How to get the optional Spark engine working (one line, used in every "missing" error).
INSTALL_HINT = ("install it with `pip install -r requirements-spark.txt` and a Java runtime (JRE 17+, e.g. Debian's "
                "`apt-get install default-jre-headless`), or use --engine duckdb")

_FILE_COL = "__scorio_file__"
_EMPTY = ("", "nan", "none", "null", "na", "n/a")
_TRUE = ("1", "1.0", "true", "t")
_FALSE = ("0", "0.0", "false", "f")
_EXACT = 2.0 ** 53
_SPLIT_MAX = 64  # as in the DuckDB engine: up to this many files are grouped by column set
_HADOOP_GLOB = str.maketrans({c: "\\" + c for c in "\\*?[]{}"})


def spark_ident(name: object, columns=None) -> str:
    """Quote a column name as a Spark SQL identifier (backticks doubled inside).

    Parameters
    ----------
    name : object
        A column name read from the file's schema.
    columns : collection of str, optional
        The file's columns; when given, ``name`` must be one of them.

    Returns
    -------
    str
        ```name``` with every backtick doubled, for ``F.col`` / ``selectExpr``.

    Raises
    ------
    InputError
        If ``name`` is not among ``columns`` or contains a NUL character.

    Examples
    --------
    >>> spark_ident("a`b.c")
    '`a``b.c`'
    """
    text = str(name)
    if "\x00" in text:
        raise InputError(f"column name {text!r} contains a NUL character; rename the column.")
    if columns is not None and text not in columns:
        raise InputError(f"column {text!r} is not in the file.", field=text)
    return "`" + text.replace("`", "``") + "`"


def _import_pyspark():
    import warnings

    try:
        with warnings.catch_warnings():  # pyspark warns about pandas >= 3 at import; the engine does not use pandas UDFs
            warnings.simplefilter("ignore", FutureWarning)
            import pyspark  # noqa: F401
            from pyspark.sql import SparkSession
    except ImportError:
        raise InputError(f"the Spark engine needs PySpark, which is not installed; {INSTALL_HINT}.") from None
    return SparkSession


def spark_session(master: str | None = None, *, shuffle_partitions: int | None = None):
    """The active SparkSession, or a new one on ``master``.

    Parameters
    ----------
    master : str, optional
        Spark master URL (``local[2]``, ``spark://host:7077``, ``yarn``...). None reuses the
        active session (e.g. under ``spark-submit``) or starts ``$SPARK_MASTER`` / ``local[*]``.
    shuffle_partitions : int, optional
        ``spark.sql.shuffle.partitions`` for a new session (default: Spark's, or the core
        count for ``local[N]``).

    Returns
    -------
    pyspark.sql.SparkSession

    Raises
    ------
    InputError
        One line saying how to install PySpark or Java when either is missing or the JVM
        cannot start.
    """
    SparkSession = _import_pyspark()
    active = SparkSession.getActiveSession()
    if active is not None and (master is None or active.sparkContext.master == master):
        return active
    if not (os.environ.get("JAVA_HOME") or shutil.which("java")):
        raise InputError(f"the Spark engine needs a Java runtime and `java` was not found; {INSTALL_HINT}.")
    master = master or os.environ.get("SPARK_MASTER") or "local[*]"
    builder = (SparkSession.builder.master(master).appName("scorio-counts")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.session.timeZone", "UTC").config("spark.log.level", "ERROR"))
    if shuffle_partitions is None and master.startswith("local["):
        inner = master[6:-1]  # local[N]: a few partitions per core instead of Spark's 200
        shuffle_partitions = max(2, int(inner) if inner.isdigit() else (os.cpu_count() or 2))
    if shuffle_partitions:
        builder = builder.config("spark.sql.shuffle.partitions", str(int(shuffle_partitions)))
    try:
        session = builder.getOrCreate()
    except Exception as exc:  # noqa: BLE001 - JAVA_GATEWAY_EXITED, bad master URL...
        first = next((t for t in str(exc).splitlines() if t.strip()), type(exc).__name__)
        raise InputError(f"cannot start Spark on {master!r} ({first[:200]}); {INSTALL_HINT}.") from None
    session.sparkContext.setLogLevel("ERROR")
    return session


def _kind(dtype) -> str:
    from pyspark.sql import types as T

    if isinstance(dtype, (T.ByteType, T.ShortType, T.IntegerType, T.LongType)):
        return "int"
    if isinstance(dtype, (T.FloatType, T.DoubleType, T.DecimalType)):
        return "float"
    if isinstance(dtype, (T.StringType, T.VarcharType, T.CharType)):
        return "text"
    if isinstance(dtype, T.BooleanType):
        return "bool"
    return "other"


def _id_col(col: str, dtype, field: str, source: str, cols):
    from pyspark.sql import functions as F

    c = F.col(spark_ident(col, cols))
    kind = _kind(dtype)
    if kind == "text":
        return c
    if kind == "int":
        return c.cast("string")
    if kind == "float":  # like the pandas loader: 3.0 -> '3'
        d = c.cast("double")
        return (F.when((d == F.round(d)) & (F.abs(d) < F.lit(_EXACT)), d.try_cast("long").cast("string"))
                .otherwise(d.cast("string")))
    if kind == "bool":
        return F.when(c, F.lit("True")).when(~c, F.lit("False"))
    raise EngineUnsupported(f"column '{col}' (field '{field}') has type {dtype.simpleString()}, which the Spark engine "
                            "does not read as an identifier; use --engine pandas.", source=source, field=field)


def _number_col(col: str, dtype, field: str, source: str, cols, *, booleans: bool):
    """(value as double or null when empty, true where a present value is not a number)."""
    from pyspark.sql import functions as F

    c = F.col(spark_ident(col, cols))
    kind = _kind(dtype)
    if kind in ("int", "float", "bool"):
        value = c.cast("double")
        return (F.when(~F.isnan(value), value) if kind == "float" else value), F.lit(False)
    if kind != "text":
        raise EngineUnsupported(f"column '{col}' (field '{field}') has type {dtype.simpleString()}, which the Spark "
                                "engine cannot read as a number; use --engine pandas.", source=source, field=field)
    v = F.lower(F.trim(c))
    parsed = v.try_cast("double")
    value = F.when(c.isNull() | v.isin(*_EMPTY), F.lit(None).cast("double"))
    if booleans:
        value = value.when(v.isin(*_TRUE), F.lit(1.0)).when(v.isin(*_FALSE), F.lit(0.0))
    value = value.otherwise(parsed)
    known = _EMPTY + (_TRUE + _FALSE if booleans else ())
    bad = c.isNotNull() & ~v.isin(*known) & parsed.isNull()
    return value, F.coalesce(bad, F.lit(False))


def _int_col(col: str, dtype, field: str, source: str, cols):
    """(value as long or null, true where the value is missing or not a whole number)."""
    from pyspark.sql import functions as F

    c = F.col(spark_ident(col, cols))
    if _kind(dtype) == "int":
        return c.cast("long"), c.isNull()
    value, bad = _number_col(col, dtype, field, source, cols, booleans=False)
    ok = value.isNotNull() & (value == F.round(value)) & (F.abs(value) < F.lit(_EXACT))
    return F.when(ok, value.try_cast("long")), ~F.coalesce(ok, F.lit(False)) | bad


def _header(f: InputFile) -> bytes:
    opener = gzip.open if f.path.lower().endswith(".gz") else open
    try:
        with opener(f.path, "rb") as fh:
            return fh.readline(1 << 20)
    except OSError as exc:
        raise InputError(f"cannot read the file ({exc}).", source=f.name) from None


def _delimiter(f: InputFile, fmt: str) -> str:
    """Same rule as the pandas reader: TSV is tab; CSV is ';' when the header has more ';' than ','."""
    if fmt == "tsv":
        return "\t"
    first = _header(f)
    return ";" if first.count(b";") > first.count(b",") else ","


def _schema_key(f: InputFile, fmt: str):
    if fmt in ("csv", "tsv"):
        return (_delimiter(f, fmt), _header(f).rstrip(b"\r\n"))
    if fmt == "parquet":
        try:
            import pyarrow.parquet as pq

            return tuple(pq.read_schema(f.path).names)
        except Exception:  # noqa: BLE001 - let Spark report unreadable files
            return None
    return None


class _Group:
    """Files of one format and column set, read by one Spark reader call."""

    def __init__(self, fmt: str, files: list[InputFile]):
        self.fmt, self.files = fmt, files
        self.label = files[0].name if len(files) == 1 else f"{files[0].name} and {len(files) - 1} more"

    def read(self, spark):
        paths = [f.path.translate(_HADOOP_GLOB) for f in self.files]
        reader = spark.read
        if self.fmt == "parquet":
            df = reader.option("mergeSchema", "true").parquet(*paths)
        elif self.fmt == "jsonl":
            df = reader.option("mode", "FAILFAST").option("primitivesAsString", "false").json(paths)
        else:
            df = (reader.option("header", "true").option("inferSchema", "false").option("mode", "FAILFAST")
                  .option("sep", _delimiter(self.files[0], self.fmt)).option("escape", '"').option("multiLine", "false")
                  .csv(paths))
        from pyspark.sql import functions as F

        return df.withColumn(_FILE_COL, F.input_file_name())


def _split(groups: list[_Group]) -> list[_Group]:
    out = []
    for g in groups:
        if len(g.files) == 1 or (len(g.files) > _SPLIT_MAX and g.fmt not in ("csv", "tsv")):
            out.append(g)
            continue
        by_key: dict = {}
        for f in g.files:
            by_key.setdefault(_schema_key(f, g.fmt), []).append(f)
        out.extend(_Group(g.fmt, fs) for fs in by_key.values())
    return out


def _path_of(uri: str) -> str:
    """A file URI from ``input_file_name()`` -> a local-style path (for names and per-file rows)."""
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme in ("file", "") else uri


def _spark_error(exc: Exception, group: _Group) -> InputError:
    text = str(exc)
    first = next((t.strip() for t in text.splitlines() if t.strip()), type(exc).__name__)
    return InputError(f"cannot read the file with Spark ({first[:200]}); check its format or use --engine pandas.",
                      source=group.label)


def _canonical(spark, group: _Group, mapping: Mapping[str, str] | None, stems):
    """The group's rows under canonical names, with the mapping used and the defaults applied."""
    from pyspark.sql import functions as F

    from scorio_core.io._schema import infer_mapping

    try:
        df = group.read(spark)
        fields = [f for f in df.schema.fields if f.name != _FILE_COL]
    except Exception as exc:  # noqa: BLE001 - AnalysisException, Py4JJavaError...
        raise _spark_error(exc, group) from None
    names = [f.name for f in fields]
    if "_corrupt_record" in names:
        raise InputError("a line is not valid JSON; check the file or use --engine pandas.", source=group.label)
    if len(set(names)) != len(names):
        dup = next(c for c in names if names.count(c) > 1)
        raise InputError(f"column '{dup}' appears twice; rename one of them.", source=group.label, field=dup)
    types = {f.name: f.dataType for f in fields}
    cols = set(names)
    guess = infer_mapping(names, mapping, source=group.label)
    guess.raise_if_unresolved(group.label)
    if guess.layout == "wide":
        raise EngineUnsupported("wide tables (one column per trial) are read by the pandas engine; use --engine pandas.",
                                source=group.label)
    if "category" in guess.mapping:
        raise EngineUnsupported("rubric category codes are read by the pandas engine; use --engine pandas.", source=group.label)
    gm, src = guess.mapping, group.label
    file_col = F.col(spark_ident(_FILE_COL))
    select, defaults = [], []
    for key in ("model", "task"):
        if key in gm:
            select.append(_id_col(gm[key], types[gm[key]], key, src, cols).alias(key))
        else:
            select.append(stems[F.element_at(F.split(file_col, "/"), -1)].alias(key))
            defaults += [f"{f.name}: no {key} column; {key} set to the file stem '{f.stem}'." for f in group.files]
    select.append(_id_col(gm["question_id"], types[gm["question_id"]], "question_id", src, cols).alias("question_id"))
    if guess.layout == "counts":
        nt, nt_bad = _int_col(gm["n_trials"], types[gm["n_trials"]], "n_trials", src, cols)
        nc, nc_bad = _int_col(gm["n_correct"], types[gm["n_correct"]], "n_correct", src, cols)
        select += [nt.alias("n_trials"), nc.alias("n_correct"), nt_bad.alias("bad_n"), nc_bad.alias("bad_c")]
    else:
        if "trial" in gm:
            tr, tr_bad = _int_col(gm["trial"], types[gm["trial"]], "trial", src, cols)
            select += [tr.alias("trial"), tr_bad.alias("bad_t")]
        else:
            select += [F.lit(None).cast("long").alias("trial"), F.lit(False).alias("bad_t")]
        o, o_bad = _number_col(gm["is_correct"], types[gm["is_correct"]], "is_correct", src, cols, booleans=True)
        raw = F.col(spark_ident(gm["is_correct"], cols)).cast("string")
        select += [o.alias("o"), o_bad.alias("bad_o"), raw.alias("raw_o")]
    select.append(file_col.alias("file"))
    return df.select(*select), guess, defaults


def load_counts_spark(
    paths,
    *,
    mapping: Mapping[str, str] | None = None,
    format: str | None = None,
    spark_master: str | None = None,
    spark=None,
    hash_files: bool = True,
):
    """Count attempt-level (or count-level) table files with Spark SQL.

    Parameters
    ----------
    paths : str, os.PathLike or sequence of them
        Files, folders and globs as for :func:`scorio_core.io.engines.load_counts`.
    mapping : dict of str to str, optional
        Column overrides ``{canonical_name: source_column}``.
    format : {"csv", "tsv", "parquet", "jsonl"}, optional
        Read every file as this format instead of going by suffix.
    spark_master : str, optional
        Spark master URL; see :func:`spark_session`.
    spark : pyspark.sql.SparkSession, optional
        Use this session (tests, notebooks) instead of :func:`spark_session`.
    hash_files : bool, default True
        Record each file's SHA-256 in ``sources``.

    Returns
    -------
    Dataset
        The same count-table Dataset as the DuckDB engine: ``counts`` of shape (n_cells, 5)
        (``model, task, question_id`` categorical, ``n_trials, n_correct`` int64).

    Raises
    ------
    InputError
        Missing PySpark or Java (saying how to install them), a glob matching nothing, a
        missing file or column, an invalid value (naming the file and field).
    NotReadyError
        Duplicate keys, non-binary or missing outcomes; ``blocking`` as in the pandas report.
    EngineUnsupported
        Inputs only the pandas readers handle.
    """
    files = expand_inputs(paths, format)
    unknown = [f for f in files if f.format is None]
    if unknown:
        raise EngineUnsupported("the Spark engine reads CSV, TSV, Parquet and JSONL tables only (by suffix, .gz allowed); "
                                "use --engine pandas or --format.", source=unknown[0].name)
    spark = spark if spark is not None else spark_session(spark_master)
    from pyspark.sql import functions as F

    from scorio_core.io._dataset import Dataset, SourceInfo
    from scorio_core.io._quality import compute_report
    from scorio_core.io.engines.duckdb_engine import _sha256
    from scorio_core.io.engines.frames import count_frame

    by_fmt: dict[str, list[InputFile]] = {}
    for f in files:
        by_fmt.setdefault(f.format, []).append(f)
    groups = _split([_Group(fmt, fs) for fmt, fs in by_fmt.items()])
    pairs = []
    for f in files:  # file name (as Spark reports it, URI-encoded or not) -> stem
        pairs += [F.lit(f.name), F.lit(f.stem)]
        quoted = os.path.basename(_as_uri(f.path))
        if quoted != f.name:
            pairs += [F.lit(quoted), F.lit(f.stem)]
    stems = F.create_map(*pairs)
    frames, guesses, defaults = [], [], []
    for g in groups:
        df, guess, d = _canonical(spark, g, mapping, stems)
        frames.append(df)
        guesses.append(guess)
        defaults += d
    layouts = {g.layout for g in guesses}
    labels = ", ".join(g.label for g in groups)
    if len(layouts) > 1:
        raise EngineUnsupported("the inputs mix count tables and attempt tables; use --engine pandas.", source=labels)
    layout = layouts.pop()
    with_trial = {"trial" in g.mapping for g in guesses}
    if layout == "attempts" and len(with_trial) > 1:
        raise EngineUnsupported("some inputs have a trial column and some do not; use --engine pandas.", source=labels)
    canon = frames[0]
    for other in frames[1:]:
        canon = canon.unionByName(other)
    try:
        if layout == "counts":
            cells, per_file = _count_counts(canon, labels)
            n_attempts = 0
        else:
            cells, per_file, n_attempts = _count_attempts(canon, labels, with_trial.pop())
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - Spark job failures (malformed rows in FAILFAST mode...)
        raise _spark_error(exc, groups[0]) from None
    table = count_frame(cells)
    rows_by_name = {}
    for uri, n in per_file.items():
        rows_by_name[os.path.realpath(_path_of(uri))] = n
    infos = tuple(
        SourceInfo(f.name, f.format, _sha256(f.path) if hash_files else "",
                   int(rows_by_name.get(os.path.realpath(f.path), 0)), layout, tuple(guess.mapping.items()))
        for g, guess in zip(groups, guesses) for f in g.files
    )
    notes = []
    if layout == "attempts":
        notes.append(f"{n_attempts:,} attempts counted by the Spark engine into {len(table):,} (model, task, question) "
                     "cells; trial order is not kept (trajectories need --engine pandas).")
    meta = {
        "sources": tuple((i.name, i.format) for i in infos),
        "mappings": tuple((i.name, i.mapping) for i in infos),
        "defaults": tuple(defaults),
        "notes": tuple(notes),
    }
    report = compute_report(table, "counts", source_names=tuple(i.name for i in infos), meta=meta)
    return Dataset(attempts=None, counts=table, report=report, sources=infos)


def _as_uri(path: str) -> str:
    from pathlib import Path

    try:
        return Path(path).resolve().as_uri()
    except ValueError:
        return path


def _collect(df) -> dict:
    """A small aggregated DataFrame -> dict of numpy arrays (column -> values)."""
    import numpy as np

    rows = df.collect()
    names = df.columns
    out = {}
    for i, name in enumerate(names):
        values = [r[i] for r in rows]
        out[name] = np.asarray(values, dtype=object if name in ("model", "task", "question_id", "file") else None)
    return out


def _example(canon, where, what: str = "raw_o"):
    from pyspark.sql import functions as F

    row = canon.filter(where).select("file", F.col(what).cast("string")).first()
    return (os.path.basename(_path_of(row[0])), row[1]) if row else (None, None)


def _check_ids(canon, cells: dict) -> None:
    import pandas as pd
    from pyspark.sql import functions as F

    for key in ("model", "task", "question_id"):
        values = pd.Series(cells[key], dtype=object)
        if (values.isna() | (values.fillna("").astype(str).str.strip() == "")).any():
            row = canon.filter(F.col(key).isNull() | (F.trim(F.col(key)) == F.lit(""))).select("file").first()
            raise InputError(f"field '{key}' is empty; every row needs a value.",
                             source=os.path.basename(_path_of(row[0])) if row else None, field=key)


def _count_attempts(canon, labels: str, with_trial: bool):
    import numpy as np
    from pyspark.sql import functions as F

    from scorio_core.io._quality import blocking_messages

    o = F.col("o")
    by_file = canon.groupBy("file", "model", "task", "question_id").agg(
        F.count(F.lit(1)).alias("n"), F.count(F.when(o == 1, 1)).alias("c"), F.count(F.when(o == 0, 1)).alias("z"),
        F.count(F.when(F.col("bad_t"), 1)).alias("bad_t"), F.count(F.when(F.col("bad_o"), 1)).alias("bad_o"),
    ).cache()
    try:
        aggs = [F.sum("n").alias("n_trials"), F.sum("c").alias("n_correct"), F.sum("z").alias("z"),
                F.sum("bad_t").alias("bad_t"), F.sum("bad_o").alias("bad_o")]
        cells = _collect(by_file.groupBy("model", "task", "question_id").agg(*aggs))
        per_file = {r[0]: int(r[1]) for r in by_file.groupBy("file").agg(F.sum("n")).collect()}
    finally:
        by_file.unpersist()
    if not len(cells["n_trials"]):
        cells = {k: np.asarray([], dtype=object if k in ("model", "task", "question_id") else np.int64) for k in cells}
    _check_ids(canon, cells)
    n = cells["n_trials"].astype(np.int64)
    if cells["bad_t"].sum():
        name, raw = _example(canon, F.col("bad_t"), "trial")
        got = "an empty value or text" if raw is None else repr(raw)
        raise InputError(f"field 'trial' must be a whole number (trial index or seed); got {got}.", source=name, field="trial")
    if cells["bad_o"].sum():
        name, raw = _example(canon, F.col("bad_o"))
        raise InputError(f"field 'is_correct' must be 0 or 1 (true/false); got {raw!r}.", source=name, field="is_correct")
    soft = missing = dup_rows = conflicting = 0
    if (cells["n_correct"] + cells["z"] != n).any():
        row = canon.agg(F.count(F.when((o < 0) | (o > 1), 1)), F.count(F.when((o > 0) & (o < 1), 1)),
                        F.count(F.when(o.isNull(), 1))).first()
        bad, soft, missing = int(row[0]), int(row[1]), int(row[2])
        if bad:
            name, raw = _example(canon, (o < 0) | (o > 1))
            raise InputError(f"field 'is_correct' must be 0 or 1 (or a soft score in [0, 1]); got {raw!r}.",
                             source=name, field="is_correct")
    if with_trial:
        dups = (canon.groupBy("model", "task", "question_id", "trial")
                .agg(F.count(F.lit(1)).alias("k"), F.count_distinct(F.coalesce(o, F.lit(-1.0))).alias("nd"))
                .filter(F.col("k") > 1))
        row = dups.agg(F.sum(F.col("k") - 1), F.count(F.lit(1)), F.count(F.when(F.col("nd") > 1, 1))).first()
        if row[1]:
            dup_rows, conflicting = int(row[0]), int(row[2])
    blocking = blocking_messages(soft, missing, dup_rows, conflicting)
    if blocking:
        raise NotReadyError(f"{blocking[0]} The Spark engine counts only ready data; use --engine pandas with the "
                            "choice.", source=labels, blocking=tuple(blocking))
    return cells, per_file, int(n.sum())


def _count_counts(canon, labels: str):
    import numpy as np
    from pyspark.sql import functions as F

    nt, nc = F.col("n_trials"), F.col("n_correct")
    bad_n = F.col("bad_n") | (nt < 1)
    bad_c = F.col("bad_c") | (nc < 0) | (nc > nt)
    by_file = canon.groupBy("file", "model", "task", "question_id").agg(
        F.count(F.lit(1)).alias("r"), F.sum(nt).alias("n"), F.sum(nc).alias("c"),
        F.count(F.when(bad_n, 1)).alias("bad_n"), F.count(F.when(bad_c, 1)).alias("bad_c")).cache()
    try:
        cells = _collect(by_file.groupBy("model", "task", "question_id").agg(
            F.sum("n").alias("n_trials"), F.sum("c").alias("n_correct"), F.sum("r").alias("r"),
            F.sum("bad_n").alias("bad_n"), F.sum("bad_c").alias("bad_c")))
        per_file = {r[0]: int(r[1]) for r in by_file.groupBy("file").agg(F.sum("r")).collect()}
    finally:
        by_file.unpersist()
    _check_ids(canon, cells)
    for fld, cond in (("n_trials", bad_n), ("n_correct", bad_c)):
        if cells["bad_n" if fld == "n_trials" else "bad_c"].sum():
            row = canon.filter(cond).select("file", "n_trials", "n_correct").first()
            raise InputError(f"field '{fld}' must be a whole number with 1 <= n_trials and 0 <= n_correct <= n_trials; "
                             f"got n_trials={row[1]}, n_correct={row[2]}.", source=os.path.basename(_path_of(row[0])),
                             field=fld)
    extra = np.asarray(cells["r"], dtype=np.int64) - 1
    if extra.sum():
        raise NotReadyError(
            f"{int(extra.sum())} duplicate rows share a (model, task, question) key; choose apply_choices(duplicates="
            "'keep-first', 'keep-last', 'drop' or 'sum') or --duplicates. The Spark engine counts only ready data; use "
            "--engine pandas with the choice.", source=labels)
    return cells, per_file
