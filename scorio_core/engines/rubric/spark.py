"""Rubric category counts on Spark: files -> per-(model, task, question) category counts -> task outcomes.

The Spark twin of :mod:`scorio_core.engines.rubric.counts` (same result type, same semantics,
same refusals): the rubric is translated by :func:`scorio_core.engines.rubric.sql.compile_rubric`
into one boolean Spark column per category (:class:`SparkColumns`: Spark's ``AND``/``OR``/``NOT``
and comparisons are SQL's three-valued logic, NULL = unknown, NaN mapped to NULL first), the
first category whose condition is true is each attempt's code (``-1`` for none), and the
attempts of each category are counted per (model, task, question). The counts feed
rubric-weighted Bayes@N (paper Appendix F) through
:func:`scorio_core.engines.rubric.outcomes.sql_task_outcomes`, exactly as DuckDB's do.

Signals come from typed (Parquet) columns: numbers (integers, floats, booleans) as DOUBLE with NaN
as NULL, text as strings. A signal read from CSV/TSV/JSONL is refused (Spark reads those as text or
infers types differently from the pandas reader, so the rubric's types could differ); the binary
correctness rubric needs no signal and runs on any format.

Safety: every constant is a ``lit``; column names come from the files' schemas and are referenced
only through :func:`~scorio_core.engines.spark_inputs.spark_ident`. No user text is formatted
into SQL.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.engines._sql import EngineUnsupported
from scorio_core.engines.rubric.derived import family_pair, family_signals, notes_from_counts
from scorio_core.engines.rubric.spark_columns import SparkColumns

__all__ = ["load_category_counts_spark"]

def _signal_reader(candidates: set[str]):
    """The ``extra`` hook of :func:`~scorio_core.engines.spark_engine.read_inputs` for rubric signals.

    Returns ``(hook, kinds, typed_only)``: ``kinds`` fills with every pandas column's kind (``"number"``,
    ``"text"`` or ``"other"``), ``typed_only`` with the candidate signals found in CSV/TSV/JSONL groups.
    """
    from pyspark.sql import functions as F

    from scorio_core.io._schema import BINARY_SIGNALS, SIGNAL_COLUMNS, STRING_SIGNALS
    from scorio_core.engines.rubric.counts import _pandas_names
    from scorio_core.engines.spark_inputs import column_kind, spark_ident

    kinds: dict[str, str] = {}
    typed_only: dict[str, str] = {}
    binary: list = []

    def hook(group, guess, types):
        cols = set(types)
        out = []
        for name, col in _pandas_names(list(types), guess.mapping).items():
            kind = column_kind(types[col])
            k = "number" if kind in ("int", "float", "bool") else "text" if kind == "text" else "other"
            if name in STRING_SIGNALS and k != "text" or name in SIGNAL_COLUMNS and name not in STRING_SIGNALS and k == "text":
                k = "other"
            if group.fmt != "parquet":
                k = "other"
                if name in candidates:
                    typed_only.setdefault(name, group.label)
            prev = kinds.setdefault(name, k)
            if prev != k:
                kinds[name] = "other"
            if name not in candidates or k == "other":
                continue
            c = F.col(spark_ident(col, cols))
            if k == "number":
                v = c.cast("double")
                v = F.when(~F.isnan(v), v) if kind == "float" else v
                if name in BINARY_SIGNALS:
                    binary.append((name, group.label))
            else:
                v = c.cast("string")
            out.append(v.alias(_alias(name)))
        return out

    hook.binary = binary
    return hook, kinds, typed_only


def _alias(name: str) -> str:
    return "__sig_" + name.encode().hex()  # any column name -> a plain identifier


def load_category_counts_spark(
    paths,
    schema,
    *,
    task: str | None = None,
    mapping: Mapping[str, str] | None = None,
    format: str | None = None,
    thresholds: Mapping[str, float] | None = None,
    spark_master: str | None = None,
    spark=None,
    hash_files: bool = True,
    max_tokens: int | None = None,
):
    """Count rubric categories per (model, task, question) with Spark SQL, without an attempt table.

    Parameters
    ----------
    paths : str, os.PathLike or sequence of them
        Attempt-level CSV/TSV/Parquet/JSONL files, folders, globs or URIs (as :func:`load_counts` with
        ``engine="spark"``); rubric signals other than ``is_correct`` are read from Parquet only.
    schema : Schema, str, path or dict
        Rubric schema (built-in name, JSON file or document).
    task : str, optional
        Keep only this task's cells (all tasks otherwise).
    mapping, format, hash_files
        As :func:`scorio_core.engines.load_counts`.
    thresholds : dict of str to float, optional
        Frozen threshold values (``--freeze-thresholds``).
    spark_master : str, optional
        Spark master URL (:func:`~scorio_core.engines.spark_session.spark_session`).
    spark : pyspark.sql.SparkSession, optional
        Use this session instead.
    max_tokens : int, optional
        Generation limit for ``token_ratio`` (``--max-tokens``).

    Returns
    -------
    CategoryCountsSQL
        As :func:`scorio_core.engines.rubric.counts.load_category_counts`: ``cells`` (one row per
        (task, model, question_id) in first-appearance order: file order, then Spark's row id, which
        follows each file's split order) with ``n_trials``, ``n_correct``, ``unmatched`` and ``c0..cC``
        (``sum(c*) + unmatched == n_trials``), per-task coverage, the count dataset.

    Raises
    ------
    EngineUnsupported
        Derived signals other than ``repeated_pattern``, ``*_bpt`` and ``token_ratio``, unknown names,
        type errors, count tables, signals read from CSV/TSV/JSONL or whose type differs between files, binary signals with other
        values than 0 and 1 (the message says which; ``--engine pandas`` handles them).
    NotReadyError
        Duplicate keys, non-binary or missing outcomes (as :func:`load_counts`).
    InputError
        Bad files, ids, trials or outcomes (as :func:`load_counts`).

    References
    ----------
    Hariri et al., "Don't Pass@k: A Bayesian Framework for Large Language Model Evaluation",
    ICLR 2026, arXiv:2510.04265, Appendix F (categorical rubrics, rubric-weighted Bayes@N).
    """
    from pyspark.sql import functions as F

    from scorio_core.engines.frames import count_frame
    from scorio_core.engines.rubric.binding import bind_signals, derivation_inputs, second_source, static_issues_without
    from scorio_core.engines.rubric.counts import CategoryCountsSQL
    from scorio_core.engines.rubric.percentiles import percentile_thresholds_spark
    from scorio_core.engines.rubric.sql import compile_rubric, constant_thresholds
    from scorio_core.engines.spark_engine import _count_attempts, count_dataset, read_inputs, source_infos
    from scorio_core.engines._sql import refuse_no_rows
    from scorio_core.engines.spark_inputs import path_of, spark_error
    from scorio_core.engines.spark_session import spark_session
    from scorio_core.rubric.engine import _schema
    from scorio_core.rubric.signals import _check_max_tokens

    schema = _schema(schema)
    spark = spark if spark is not None else spark_session(spark_master)
    limit = _check_max_tokens(max_tokens)
    inputs = derivation_inputs(schema.signals)  # columns a read signal may be derived from
    hook, kinds, typed_only = _signal_reader(set(schema.signals) - {"is_correct"} | inputs)
    inp = read_inputs(spark, paths, format, mapping, extra=hook)
    if inp.layout != "attempts":
        raise EngineUnsupported("a rubric needs attempt-level data; count tables only support binary correctness.",
                                source=inp.labels)
    for s in [*schema.signals, *sorted(derivation_inputs([d for d in schema.signals if d not in kinds]))]:
        if s in typed_only:
            raise EngineUnsupported(f"rubric signal {s!r} is read from a CSV/TSV/JSONL file; with --engine spark rubric "
                                    "signals come from Parquet (typed columns) only: convert the files to Parquet, or use "
                                    "--engine duckdb or pandas.", source=typed_only[s])
    bound, derive_notes, needed, present, computed = bind_signals(schema, kinds, "Spark", derive=True, max_tokens=limit)
    mt = F.col(_alias("max_tokens")) if "token_ratio" in computed and "max_tokens" in kinds else None
    # a second data column fills the rows the first leaves missing (never a signal computed here)
    second = {s: second_source(s, kinds) for s in family_signals(computed)}
    kinds = {**kinds, **{s: "number" for s in computed}}
    canon = inp.canon
    for s in family_signals(computed):  # where pandas fills it (a finite source, a positive perplexity), as numpy does
        canon = canon.withColumn(_alias(s), _family_column(s, [c for c in (computed[s], second[s]) if c]))
    for s in [s for s in computed if s.endswith("_logprob_sum")]:  # mean * tokens: one IEEE multiplication
        tokens = F.col(_alias(second_source(s, kinds))).cast("double")
        canon = canon.withColumn(_alias(s), F.col(_alias(computed[s])).cast("double") * tokens)
    if "token_ratio" in computed:  # tokens / (the row's positive max_tokens, else the argument, else missing)
        per_row = F.when((F.abs(mt) < F.lit(math.inf)) & (mt > 0), mt) if mt is not None else F.lit(None).cast("double")
        per_row = F.coalesce(per_row, F.lit(limit)) if limit is not None else per_row
        canon = canon.withColumn(_alias("token_ratio"), F.col(_alias(computed["token_ratio"])).cast("double") / per_row)
    signal_cols = {s: F.col(_alias(s)) for s in present}
    signal_cols["is_correct"] = F.col("o")
    for s in needed:
        if s not in present:  # a known signal absent from the data: missing everywhere
            signal_cols[s] = F.lit(None).cast("string" if bound.table.kind(s) == "text" else "double")
    constants = constant_thresholds(schema, thresholds)
    try:
        for name, label in hook.binary:
            if name in present and canon.filter(~F.col(_alias(name)).isin(0.0, 1.0)).limit(1).count():
                raise EngineUnsupported(f"signal {name!r} has values other than 0 and 1; use --engine pandas.", source=label)
        # one task: its percentiles and categories only (both are per task); the counts and report cover every task
        coded, pct = (canon if task is None else canon.filter(F.col("task") == F.lit(str(task)))), None
        task_notes, absent = {}, {}
        if computed:
            coded, task_notes, absent = _derive(coded, computed, derive_notes, mt, limit, second)
        if set(schema.threshold_order) - set(constants):  # percentiles of the data: per-task columns joined by task
            coded, pct = percentile_thresholds_spark(coded, schema, signal_cols, bound.table.kind, constants)
        rub = compile_rubric(schema, signal_cols, bound.table.kind, thresholds, backend=SparkColumns(),
                             per_task=pct and {n: F.col(c) for n, c in pct.columns.items()})
        cells_v, per_file, _ = _count_attempts(canon, inp.labels, inp.has_trial)
        refuse_no_rows(inp.files, {path_of(uri): n for uri, n in per_file.items()})
        cells, coverage = _categorize(coded, rub, present, signal_cols, kinds, inp)
    except (InputError, EngineUnsupported):
        raise
    except Exception as exc:  # noqa: BLE001 - Spark job failures
        raise spark_error(exc, inp.groups[0]) from None
    infos = source_infos(inp, per_file, hash_files)
    note = f"{int(cells_v['n_trials'].sum()):,} attempts categorized by the Spark engine (rubric {schema.name!r})."
    from scorio_core.engines._sql import engine_notes  # the pandas loader's notes

    partial = engine_notes(inp.groups, inp.guesses, "attempts", cells_v["partial_by_file"],
                           {path_of(u): n for u, n in per_file.items()}, cells_v["errors_by_file"])
    dataset = count_dataset(inp, count_frame(cells_v), infos, [*partial, note])
    return CategoryCountsSQL(cells, rub.labels, rub.weights, rub.thresholds, coverage, tuple(bound.static),
                             tuple(derive_notes), schema, dataset, tuple(needed), pct.values if pct else {}, task_notes,
                             {t: (a, static_issues_without(schema, kinds, computed, a)) for t, a in absent.items() if a})


def _numpy_udf(name: str):
    """numpy's ``exp``/``exp2``/``log``/``log2`` as a Spark pandas UDF (the executors' numpy: the pandas engine's values)."""
    from pyspark.sql.functions import pandas_udf

    fn = getattr(np, name)

    def apply(x: pd.Series) -> pd.Series:
        with np.errstate(all="ignore"):
            return pd.Series(fn(x.to_numpy(dtype=np.float64, na_value=np.nan)), index=x.index)

    return pandas_udf(apply, "double")


def _family_when(name: str, source: str):
    """(where pandas fills the family member ``name`` from ``source``, the value there) as Spark columns (the Spark
    form of DuckDB's ``derived_expr``)."""
    from pyspark.sql import functions as F

    x = F.col(_alias(source))
    finite = F.abs(x) < F.lit(math.inf)  # numbers reach Spark with NaN as NULL
    ln2 = F.lit(math.log(2.0))
    return {("bpt", "logprob_mean"): lambda: (finite, -x / ln2),
            ("logprob_mean", "bpt"): lambda: (finite, -x * ln2),
            ("ppl", "logprob_mean"): lambda: (finite, _numpy_udf("exp")(-x)),
            ("ppl", "bpt"): lambda: (finite, _numpy_udf("exp2")(x)),
            ("bpt", "ppl"): lambda: (finite & (x > 0), _numpy_udf("log2")(x)),
            ("logprob_mean", "ppl"): lambda: (finite & (x > 0), -_numpy_udf("log")(x))}[family_pair(name, source)]()


def _family_column(name: str, sources: list):
    """A log-prob family member from its source columns, the second filling the rows the first leaves missing."""
    from pyspark.sql import functions as F

    (cond, value), *rest = [_family_when(name, c) for c in sources]
    column = F.when(cond, value)
    for cond, value in rest:
        column = column.when(cond, value)
    return column


def _derive(scoped, computed, notes, mt, limit, second):
    """Count what the derivation notes report per task (one groupBy over the attempts in scope), then add
    ``repeated_pattern`` (0 where ``finish_reason`` is one of the stop values Python found, a literal list)."""
    from pyspark.sql import functions as F

    value = F.col(_alias("finish_reason")) if "repeated_pattern" in computed else F.lit(None).cast("string")
    counts = []
    for s in family_signals(computed):  # rows filled; from the second source: rows the first leaves missing
        counts.append(F.count(F.col(_alias(s))))
        if second.get(s):
            first, then = _family_when(s, computed[s])[0], _family_when(s, second[s])[0]
            counts.append(F.count(F.when(F.coalesce(first, F.lit(False)) == F.lit(False), F.when(then, 1))))
    if "token_ratio" in computed:
        good, bad = ((F.abs(mt) < F.lit(math.inf)) & (mt > 0), (F.abs(mt) < F.lit(math.inf)) & (mt <= 0)) if mt is not None \
            else (F.lit(False), F.lit(False))
        counts += [F.count(F.when(good, 1)), F.count(F.when(bad, 1)), F.count(F.col(_alias("token_ratio")))]
    rows = scoped.groupBy(F.col("task"), value.alias("__v")).agg(F.count(F.lit(1)), *counts).collect()
    stops, task_notes, absent = notes_from_counts(rows, computed, notes, limit, second)
    if "repeated_pattern" in computed:
        src = F.col(_alias("finish_reason"))
        stop = src.isin(stops) if stops else F.lit(False)
        scoped = scoped.withColumn(_alias("repeated_pattern"),
                                   F.when(src.isNull(), F.lit(None).cast("double")).when(stop, F.lit(0.0)).otherwise(F.lit(1.0)))
    return scoped, task_notes, absent


def _categorize(canon, rub, present, signal_cols, kinds, inp):
    """Codes and counts: (cells frame in first-appearance order, per-task coverage)."""
    from pyspark.sql import functions as F

    from scorio_core.engines.rubric.binding import coverage_of
    from scorio_core.engines.spark_engine import _collect
    from scorio_core.engines.spark_inputs import path_of

    C = len(rub.labels)
    flags = [F.coalesce(cond, F.lit(False)).alias(f"__k{i}") for i, cond in enumerate(rub.conditions)]
    code = F.lit(-1)
    for i in reversed(range(C)):  # first match wins
        code = F.when(F.col(f"__k{i}"), F.lit(i)).otherwise(code)
    miss, pres = {}, {}
    for s in present:
        col = signal_cols[s]
        miss[s] = (col.isNull() | (F.abs(col) == F.lit(float("inf")))) if kinds[s] == "number" else col.isNull()
        if kinds[s] != "number":
            pres[s] = col.isNotNull()
    coded = canon.select("model", "task", "question_id", "o", "file", F.monotonically_increasing_id().alias("__pos"),
                         *flags, *[m.alias(f"__m{j}") for j, m in enumerate(miss.values())],
                         *[p.alias(f"__p{j}") for j, p in enumerate(pres.values())])
    coded = coded.withColumn("code", code).cache()
    try:
        counts = [F.count(F.when(F.col("code") == i, 1)).alias(f"c{i}") for i in range(C)]
        by_file = _collect(coded.groupBy("file", "task", "model", "question_id").agg(
            F.count(F.lit(1)).alias("n_trials"), F.count(F.when(F.col("o") == 1, 1)).alias("n_correct"),
            F.count(F.when(F.col("code") < 0, 1)).alias("unmatched"), *counts, F.min("__pos").alias("pos")))
        stats = [F.count(F.lit(1)), F.count(F.when(F.col("code") < 0, 1))]
        for j, s in enumerate(present):
            m = F.col(f"__m{j}")
            stats += [F.count(F.when(m, 1)), F.count(F.when(m & (F.col("code") < 0), 1))]
            if kinds[s] != "number":
                stats.append(F.count(F.when(F.col(f"__p{list(pres).index(s)}"), 1)))
        for i in range(C):
            stats += [F.count(F.when(F.col(f"__k{i}"), 1)), F.collect_set(F.when(F.col(f"__k{i}"), F.col("code")))]
        rows = coded.groupBy("task").agg(*stats).collect()
    finally:
        coded.unpersist()
    return _cells(by_file, C, inp, path_of), coverage_of(rows, present, kinds, C)


def _cells(by_file: dict, C: int, inp, path_of) -> pd.DataFrame:
    """Per-(file, cell) counts -> per-cell counts ordered by first appearance (file order, then row id)."""
    index = {os.path.realpath(f.path): i for i, f in enumerate(inp.files) if not f.remote}
    files = pd.Series(by_file["file"], dtype=object)
    local = files.map(lambda u: os.path.realpath(path_of(u)) if "://" not in u or u.startswith("file:") else None)
    remote = sorted(set(files[local.isna()]))  # read under a URI: after the local files, by name
    order = local.map(index).astype("float64")
    order[local.isna()] = files[local.isna()].map({u: len(index) + i for i, u in enumerate(remote)})
    cols = ["n_trials", "n_correct", "unmatched"] + [f"c{i}" for i in range(C)]
    frame = pd.DataFrame({"task": by_file["task"], "model": by_file["model"], "question_id": by_file["question_id"],
                          **{c: np.asarray(by_file[c], dtype=np.int64) for c in cols},
                          "__file": order.to_numpy(), "__pos": np.asarray(by_file["pos"], dtype=np.int64)})
    if frame.empty:
        return frame.drop(columns=["__file", "__pos"])
    frame = frame.sort_values(["__file", "__pos"], kind="stable")
    out = frame.groupby(["task", "model", "question_id"], sort=False)[cols].sum().reset_index()
    for key in ("task", "model", "question_id"):
        out[key] = out[key].astype(object).map(str)
    return out.astype({c: np.int64 for c in cols})
