"""Spark SQL counts engine: attempt-level files -> count table on a Spark cluster (or ``local[*]``).

The same aggregation, validation and refusals as :mod:`scorio_core.engines.duckdb_engine`, written with the DataFrame
API so it runs wherever Spark runs (``spark-submit``, a managed Spark, or ``local[N]`` on one machine). Only the count
table (one row per cell) and, on bad input, one example row come back to Python. Reading and mapping the files is
:mod:`scorio_core.engines.spark_inputs`; the session, :mod:`scorio_core.engines.spark_session`.

Safety: paths travel as reader arguments (Hadoop glob characters escaped), every constant as a ``lit``; column names
come from the files' own schemas (checked by :func:`infer_mapping`) and are referenced only through
:func:`spark_ident` (backticks doubled). No user text is formatted into SQL.

PySpark is imported lazily; it and a Java runtime are an optional extra
(``pip install -r requirements-spark.txt`` and, on Debian, ``apt-get install default-jre-headless``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import unquote, urlparse

from scorio_core.errors import InputError, decimal_comma_hint
from scorio_core.io.formats.recoding import (mixed_labels_hint, percent_scores_hint, suggest_scale, text_scores_hint,
                                             trial_labels_hint)
from scorio_core.engines._sql import (EngineUnsupported, InputFile, NotReadyError, engine_notes, expand_inputs,
                                      refuse_empty_files, refuse_no_rows)
from scorio_core.io._detect import refuse_tool_jsonl
from scorio_core.engines.spark_inputs import (Group, _check_ids, _duplicate_example, _example, canonical_frame, error_examples,
                                             path_of, spark_error, spark_ident, split_groups)
from scorio_core.engines.per_model import spark_join_per_model
from scorio_core.engines.spark_session import INSTALL_HINT, spark_session

__all__ = ["INSTALL_HINT", "load_counts_spark", "spark_ident", "spark_session"]


def load_counts_spark(
    paths,
    *,
    mapping: Mapping[str, str] | None = None,
    format: str | None = None,
    spark_master: str | None = None,
    spark=None,
    hash_files: bool = True,
    trial_prefix: bool = False,
):
    """Count attempt-level (or count-level) table files with Spark SQL.

    Parameters
    ----------
    paths : str, os.PathLike or sequence of them
        Files, folders and globs as for :func:`scorio_core.engines.load_counts`.
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
    trial_prefix : bool, default False
        Also keep the trial order as prefix counts per task (a Spark window pass; as the DuckDB
        engine's, :func:`scorio_core.engines.prefix.assemble_by_task`), for trajectories.

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
    spark = spark if spark is not None else spark_session(spark_master)
    inp = read_inputs(spark, paths, format, mapping)
    canon, layout, has_trial = inp.canon, inp.layout, inp.has_trial
    try:
        if layout == "counts":
            cells, per_file = _count_counts(canon, inp.labels)
            n_attempts = 0
        else:
            cells, per_file, n_attempts = _count_attempts(canon, inp.labels, has_trial)
        refuse_no_rows(inp.files, {path_of(uri): n for uri, n in per_file.items()})
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - Spark job failures (malformed rows in FAILFAST mode...)
        raise spark_error(exc, inp.groups[0]) from None
    from scorio_core.engines.frames import count_frame

    table = count_frame(cells)
    infos = source_infos(inp, per_file, hash_files)
    prefix = None
    if trial_prefix and has_trial:
        try:
            prefix = _prefix_by_task(spark, canon, table, infos, n_attempts)
        except Exception as exc:  # noqa: BLE001 - Spark job failures
            raise spark_error(exc, inp.groups[0]) from None
    notes = engine_notes(inp.groups, inp.guesses, layout, cells.get("partial_by_file", {}),  # the pandas loader's
                         {path_of(u): n for u, n in per_file.items()}, cells.get("errors_by_file", {}))
    if layout == "attempts" and prefix is not None:
        notes.append(f"{n_attempts:,} attempts counted by the Spark engine into {len(table):,} (model, task, question) "
                     "cells; trial order is kept as prefix counts (correct answers among the first n trials).")
    elif layout == "attempts":
        notes.append(f"{n_attempts:,} attempts counted by the Spark engine into {len(table):,} (model, task, question) "
                     "cells; trial order is not kept (trajectories: --engine spark computes prefix counts itself).")
    return count_dataset(inp, table, infos, notes, prefix)


class SparkInputs:
    """Files read by Spark under canonical names (:func:`read_inputs`).

    Attributes: ``files`` (InputFile list), ``groups`` and ``guesses`` (one mapping per group), ``defaults`` (notes
    on defaulted fields), ``layout`` (``"attempts"`` or ``"counts"``), ``has_trial``, ``labels`` (the groups' names,
    for errors) and ``canon`` (the union DataFrame).
    """

    def __init__(self, files, groups, guesses, defaults, layout, has_trial, labels, canon):
        self.files, self.groups, self.guesses, self.defaults = files, groups, guesses, defaults
        self.layout, self.has_trial, self.labels, self.canon = layout, has_trial, labels, canon


def read_inputs(spark, paths, format=None, mapping=None, extra=None) -> SparkInputs:
    """Expand, group and read the inputs as one canonical DataFrame (see :func:`load_counts_spark`).

    ``extra`` is passed to :func:`~scorio_core.engines.spark_inputs.canonical_frame` (more columns per group).

    Raises
    ------
    EngineUnsupported
        Formats Spark does not read here, mixed count and attempt tables, a trial column in some inputs only.
    InputError
        A glob matching nothing, an unreadable or empty file, a missing column.
    """
    from pyspark.sql import functions as F

    files = expand_inputs(paths, format, remote=True)
    unknown = [f for f in files if f.format is None]
    if unknown and unknown[0].remote:
        raise EngineUnsupported("a URI without a table suffix (a folder or a glob such as s3a://bucket/runs/*) needs "
                                "the format of its files: --format parquet (or csv, tsv, jsonl).", source=unknown[0].name)
    if unknown:
        raise EngineUnsupported("the Spark engine reads CSV, TSV, Parquet and JSONL tables only (by suffix, .gz allowed); "
                                "use --engine pandas or --format.", source=unknown[0].name)
    refuse_empty_files(files)
    refuse_tool_jsonl([(f.name, f.path) for f in files if f.format == "jsonl" and not f.remote and format is None], "Spark")
    if colon := next((f for f in files if not f.remote and ":" in f.path), None):  # Hadoop reads 'a:b' as a URI
        raise EngineUnsupported(f"Spark (Hadoop paths) cannot read a path holding ':' ({colon.path}); rename the file or "
                                "folder, or use --engine duckdb or pandas.", source=colon.name)
    by_fmt: dict[str, list[InputFile]] = {}
    for f in files:
        by_fmt.setdefault(f.format, []).append(f)
    groups = split_groups([Group(fmt, fs) for fmt, fs in by_fmt.items()])
    by_name = {}  # file name (as Spark reports it, URI-encoded or not) -> stem; one key for a name in several folders
    for f in files:
        if not f.remote:  # listed by Spark: stems from the names it reports (spark_inputs.canonical_frame)
            by_name.update({f.name: f.stem, os.path.basename(_as_uri(f.path)): f.stem})
    pairs = [F.lit(x) for kv in by_name.items() for x in kv]
    stems = F.create_map(*pairs) if pairs else F.create_map().cast("map<string,string>")
    frames, guesses, defaults = [], [], []
    for g in groups:
        df, guess, d = canonical_frame(spark, g, mapping, stems, extra)
        frames.append(df)
        guesses.append(guess)
        defaults += d
    frames, defaults = spark_join_per_model(groups, guesses, frames, defaults)
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
        canon = canon.unionByName(other, allowMissingColumns=True)  # extra columns some groups lack: null
    has_trial = layout == "attempts" and with_trial.pop()
    return SparkInputs(files, groups, guesses, defaults, layout, has_trial, labels, canon)


def source_infos(inp: SparkInputs, per_file: dict, hash_files: bool) -> tuple:
    """One :class:`~scorio_core.io.SourceInfo` per input file (rows read; remote URIs unhashed)."""
    from scorio_core.io._dataset import SourceInfo
    from scorio_core.engines.duckdb_inputs import sha256_file
    from scorio_core.io.formats.path_names import folder_record

    rows_by_name = {}
    for uri, n in per_file.items():
        rows_by_name[os.path.realpath(path_of(uri)) if urlparse(uri).scheme in ("file", "") else uri] = n
    remote_rows = _remote_rows(inp.files, rows_by_name)
    return tuple(
        SourceInfo(f.name, f.format, "" if f.remote or not hash_files else sha256_file(f.path),
                   int(remote_rows[f.path] if f.remote else rows_by_name.get(os.path.realpath(f.path), 0)), inp.layout,
                   folder_record(guess.mapping, f.path, f.name))
        for g, guess in zip(inp.groups, inp.guesses) for f in g.files
    )


def count_dataset(inp: SparkInputs, table, infos: tuple, notes: list, prefix=None):
    """The count-table :class:`~scorio_core.io.Dataset` (report computed on ``table``, as the DuckDB engine's)."""
    from scorio_core.io._dataset import Dataset
    from scorio_core.io.quality.compute import compute_report
    from scorio_core.limits import check_dense_table

    check_dense_table(table, [i.name for i in infos])
    if any(f.remote for f in inp.files):
        notes = [f"{sum(f.remote for f in inp.files)} remote input(s) listed and read by Spark; their files are not "
                 "hashed (sources record the URI, without credentials, and the rows read).", *notes]
    meta = {"sources": tuple((i.name, i.format) for i in infos), "mappings": tuple((i.name, i.mapping) for i in infos),
            "defaults": tuple(inp.defaults), "notes": tuple(notes)}
    report = compute_report(table, "counts", source_names=tuple(i.name for i in infos), meta=meta)
    return Dataset(attempts=None, counts=table, report=report, sources=infos, trial_prefix=prefix)


def _prefix_by_task(spark, canon, table, sources, n_attempts: int) -> dict:
    """Every task's question-state histogram after n trials, by a Spark window in trial order (see :mod:`scorio_core.
    engines.prefix`): ``row_number`` for n, a running sum of outcomes for c, grouped by (task, model, n, c); only
    questions every model of the task answered."""
    from pyspark.sql import Window, functions as F
    from scorio_core.engines.prefix import assemble_by_task, complete_cells, kept_pairs
    keep = complete_cells(table)
    if keep is None:
        return {}
    rows = canon
    if not keep.all():
        rows = rows.join(spark.createDataFrame(kept_pairs(table, keep).astype(str)), ["task", "question_id"], "left_semi")
    window = Window.partitionBy("task", "model", "question_id").orderBy("trial")
    running = window.rowsBetween(Window.unboundedPreceding, Window.currentRow)
    hist = (rows.select("task", "model", F.row_number().over(window).alias("n"),
                        F.sum(F.col("o").cast("long")).over(running).alias("c"))
            .groupBy("task", "model", "n", "c").agg(F.count(F.lit(1)).alias("h")))
    return assemble_by_task(table, keep, _collect(hist), sources, n_attempts)


def _remote_rows(files, rows_by_name: dict) -> dict:
    """Rows read under each remote input: every file Spark read that is not a local input, given to the
    first URI that matches it (Hadoop glob as fnmatch, or a folder prefix); the rest to the first URI."""
    import fnmatch

    remote = [f for f in files if f.remote]
    if not remote:
        return {}
    local = {os.path.realpath(f.path) for f in files if not f.remote}
    out = dict.fromkeys((f.path for f in remote), 0)
    for name, n in rows_by_name.items():
        if name in local:
            continue
        found = next((f.path for f in remote if _covers(f.path, name, fnmatch)), remote[0].path)
        out[found] += int(n)
    return out


def _covers(pattern: str, uri: str, fnmatch) -> bool:
    a, b = urlparse(pattern), urlparse(uri)
    if a.scheme != b.scheme and not (a.scheme == "file" and b.scheme in ("file", "")):
        return False
    pa, pb = unquote(a.path), unquote(b.path)
    return fnmatch.fnmatchcase(pb, pa) or pb.startswith(pa.rstrip("/") + "/") or pb == pa


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


def _count_attempts(canon, labels: str, with_trial: bool):
    import numpy as np
    from pyspark.sql import functions as F
    from scorio_core.io.quality.compute import blocking_messages
    from scorio_core.io.quality.report import with_duplicate_example
    o = F.col("o")
    part = (F.col("s") > 0) & (F.col("s") < 1) & o.isNotNull()  # partial credit beside a 0/1 outcome (the pandas note)
    errs = "err" in canon.columns  # attempts an error column marks (the pandas loader's note), with those correct
    by_file = canon.groupBy("file", "model", "task", "question_id").agg(
        F.count(F.lit(1)).alias("n"), F.count(F.when(o == 1, 1)).alias("c"), F.count(F.when(o == 0, 1)).alias("z"),
        F.count(F.when(F.col("bad_t"), 1)).alias("bad_t"), F.count(F.when(F.col("bad_o"), 1)).alias("bad_o"),
        F.count(F.when(part, 1)).alias("p"), F.count(F.when(part & (o == 0), 1)).alias("pw"),
        *([F.count(F.when(F.col("err"), 1)).alias("e"), F.count(F.when(F.col("err") & (o == 1), 1)).alias("ec")] if errs else []),
    ).cache()
    try:
        aggs = [F.sum("n").alias("n_trials"), F.sum("c").alias("n_correct"), F.sum("z").alias("z"),
                F.sum("bad_t").alias("bad_t"), F.sum("bad_o").alias("bad_o")]
        cells = _collect(by_file.groupBy("model", "task", "question_id").agg(*aggs))
        files = by_file.groupBy("file").agg(F.sum("n"), F.sum("p"), F.sum("pw"), *([F.sum("e"), F.sum("ec")] if errs else [])).collect()
        per_file = {r[0]: int(r[1]) for r in files}
        partial = {path_of(r[0]): (int(r[2] or 0), int(r[3] or 0)) for r in files if r[2]}
        errored = {path_of(r[0]): (int(r[4]), int(r[5] or 0)) for r in files if errs and r[4]}
    finally:
        by_file.unpersist()
    if not len(cells["n_trials"]):
        cells = {k: np.asarray([], dtype=object if k in ("model", "task", "question_id") else np.int64) for k in cells}
    _check_ids(canon, cells)
    n = cells["n_trials"].astype(np.int64)
    if cells["bad_t"].sum():
        name, raw = _example(canon, F.col("bad_t"), "trial")
        got = "an empty value or text" if raw is None else repr(raw)
        hint = trial_labels_hint() if raw is None else decimal_comma_hint(raw)  # None: the value did not cast (text)
        raise InputError(f"field 'trial' must be a whole number (trial index or seed); got {got}.{hint}", source=name, field="trial")
    if cells["bad_o"].sum():
        name, raw = _example(canon, F.col("bad_o"))
        found = [r[0] for r in canon.filter(F.col("bad_o")).select(F.col("raw_o").cast("string")).distinct().limit(21).collect()]
        hint = text_scores_hint(found) or (  # words among numbers (ERROR, timeout): missing or failures, the user's call
            mixed_labels_hint(found) if canon.filter(F.col("o").isNotNull()).limit(1).count() else "")
        raise InputError(f"field 'is_correct' must be 0 or 1 (true/false); got {raw!r}.{hint}", source=name, field="is_correct")
    soft = missing = dup_rows = conflicting = 0
    if (cells["n_correct"] + cells["z"] != n).any():
        row = canon.agg(F.count(F.when((o < 0) | (o > 1), 1)), F.count(F.when((o > 0) & (o < 1), 1)),
                        F.count(F.when(o.isNull(), 1)), F.min(o), F.max(o)).first()
        bad, soft, missing = int(row[0]), int(row[1]), int(row[2])
        if missing and "s" in canon.columns:  # a blank outcome beside a score graded in its task is graded (graded_mask)
            blank = o.isNull() & F.col("s").isNotNull() & ~F.isnan("s")
            part = blank & (F.col("s") > 0) & (F.col("s") < 1)
            tasks = {r[0] for r in canon.filter(part).select("task").distinct().collect()}
            tasks = sorted(tasks - {r[0] for r in canon.filter(o.isNotNull()).select("task").distinct().collect()})
            graded = canon.filter(part | blank & F.col("task").isin(tasks)).count()
            soft, missing = soft + graded, missing - graded
        if bad:
            name, raw = _example(canon, (o < 0) | (o > 1))
            raise suggest_scale(InputError(f"field 'is_correct' must be 0 or 1 (or a soft score in [0, 1]); got {raw!r}."
                                           f"{percent_scores_hint(row[3], row[4])}", source=name, field="is_correct"),
                                row[3], row[4])
    if with_trial:
        dups = (canon.groupBy("model", "task", "question_id", "trial")
                .agg(F.count(F.lit(1)).alias("k"), F.count_distinct(F.coalesce(o, F.lit(-1.0))).alias("nd"))
                .filter(F.col("k") > 1))
        row = dups.agg(F.sum(F.col("k") - 1), F.count(F.lit(1)), F.count(F.when(F.col("nd") > 1, 1))).first()
        if row[1]:
            dup_rows, conflicting = int(row[0]), int(row[2])
    blocking = blocking_messages(soft, missing, dup_rows, conflicting)
    if blocking:
        first = blocking[0]
        if dup_rows:
            first = with_duplicate_example(first, _duplicate_example(canon, ["model", "task", "question_id", "trial"],
                                                                     [F.coalesce(o, F.lit(-1.0))])[1])
        raise NotReadyError(f"{first} The Spark engine counts only ready data; use --engine pandas with the "
                            "choice.", source=labels, blocking=tuple(blocking))
    cells["partial_by_file"] = partial  # local path -> (partial scores, of them outcome 0)
    cells["errors_by_file"] = error_examples(canon, errored)  # local path -> (errored, of them correct, an example)
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
                             f"got n_trials={row[1]}, n_correct={row[2]}.", source=os.path.basename(path_of(row[0])),
                             field=fld)
    extra = np.asarray(cells["r"], dtype=np.int64) - 1
    if extra.sum():  # the pandas loader's message, with one repeated key named
        from scorio_core.io.quality.compute import blocking_messages
        from scorio_core.io.quality.report import with_duplicate_example

        conflicts, key = _duplicate_example(canon, ["model", "task", "question_id"], [nt, nc])
        blocking = blocking_messages(0, 0, int(extra.sum()), conflicts, counts_layout=True)
        raise NotReadyError(f"{with_duplicate_example(blocking[0], key, counts_layout=True)} The Spark engine counts "
                            "only ready data; use --engine pandas with the choice.", source=labels, blocking=tuple(blocking))
    return cells, per_file
