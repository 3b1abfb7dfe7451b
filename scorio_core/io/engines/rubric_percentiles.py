"""Percentile thresholds of a rubric computed in DuckDB, per task, equal to numpy's.

The pandas rubric engine (:mod:`scorio_core.rubric.thresholds`) takes a percentile threshold
as ``np.percentile(x, q)`` (the linear method) of the finite values of its signal over one
task's attempts where its ``where`` condition is definitely true (paper Table 4, e.g.
``tau_low_wrong`` = 60th percentile of ``completion_bpt`` among wrong attempts). Here the same
value comes from one SQL pass per threshold, in the schema's dependency order (a ``where``
may use earlier thresholds), giving per task:

1. the number ``n`` of finite values passing the filter;
2. numpy's two order statistics around the virtual index ``(n - 1) q / 100`` (the same IEEE
   arithmetic in SQL, checked against numpy's ranks), taken from each task's sorted values
   (``list_sort(list(x))``: 1.2-1.9 s for 10^7 values, where a ``row_number()`` window took 12 s),
   and numpy's own interpolation of them (:func:`lerp`): the value is bit-identical to
   ``np.percentile`` (tested by hypothesis against it).

The values live in a temporary table ``__thr`` (one row per task, one DOUBLE column per
percentile threshold, NULL where undefined), joined to the attempts by task, so conditions
compare each attempt with its own task's thresholds. Task names and values reach DuckDB as a
registered Arrow table, never as SQL text; threshold names never enter SQL (columns are
``__t0``, ``__t1``, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

__all__ = ["PercentileThresholds", "lerp", "order_statistics", "percentile_thresholds", "percentile_thresholds_spark"]

_TABLE = "__thr"
_KEY = "__thr_task"


def order_statistics(n: np.ndarray, q: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """0-based ranks of the two order statistics ``np.percentile(x, q)`` interpolates, and the weight.

    Parameters
    ----------
    n : ndarray of int, shape (T,)
        Number of values (>= 1) of each group.
    q : float
        Percentile in [0, 100].

    Returns
    -------
    lower, upper : ndarray of int64, shape (T,)
        Ranks in the sorted values (``upper = lower + 1``, or both ``n - 1`` at the top).
    gamma : ndarray of float, shape (T,)
        Interpolation weight, as numpy computes it (``virtual index - lower``).

    Notes
    -----
    The arithmetic of numpy's ``_quantile`` for ``method="linear"`` (numpy 1.22+):
    ``q / 100`` by ``true_divide``, virtual index ``(n - 1) * q``, ``floor``, and indices at or
    beyond ``n - 1`` clipped to the largest value.
    """
    quantile = np.true_divide(np.float64(q), 100)
    n = np.asarray(n, dtype=np.int64)
    virtual = (n - 1) * quantile
    lower = np.floor(virtual)
    top = virtual >= n - 1
    gamma = virtual - np.where(top, -1.0, lower)  # numpy measures from index -1 there; both values are the maximum
    lower = np.where(top, n - 1, lower).astype(np.int64)
    upper = np.where(top, n - 1, lower + 1).astype(np.int64)
    return lower, upper, gamma


def lerp(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    """numpy's interpolation between order statistics: ``a + (b - a) t``, or ``b - (b - a)(1 - t)`` for ``t >= 0.5``."""
    diff = b - a
    return np.where(t >= 0.5, b - diff * (1 - t), a + diff * t)


@dataclass(frozen=True)
class PercentileThresholds:
    """Per-task values of a schema's percentile thresholds (those not frozen).

    Attributes
    ----------
    columns : dict of str to str
        Threshold name -> its SQL column in :attr:`relation` (for
        :func:`~scorio_core.io.engines.rubric_sql.compile_rubric`'s ``per_task``).
    relation : str
        SQL of the attempts joined with their task's threshold values (same parameters as the input relation).
    values : dict of str to dict of str to float
        Task -> threshold name -> value (NaN where no finite value passed the filter).
    n_values : dict of str to dict of str to int
        Task -> threshold name -> number of values the percentile was taken over.
    """

    columns: dict
    relation: str
    values: dict
    n_values: dict


def _resolve(tasks: list[str], schema, constants: Mapping[str, float], compute, column_of):
    """The loop both engines share: every threshold in the schema's dependency order, constants for every task,
    each percentile one by ``compute(name, spec, known, column)`` -> ``(value (T,), n (T,))`` (``known``: the values
    and :class:`ThresholdColumn` s so far, for its ``where``; it also adds the column ``column`` to the engine's
    relation). ``column_of(column)`` is how conditions refer to that column. Returns ``(columns, values, n_values)``."""
    from scorio_core.io.engines.rubric_sql import ThresholdColumn

    known: dict = dict(constants)
    columns: dict[str, str] = {}
    values: dict[str, dict[str, float]] = {t: {} for t in tasks}
    n_values: dict[str, dict[str, int]] = {t: {} for t in tasks}
    for name in schema.threshold_order:
        if name in constants:
            for t in tasks:
                values[t][name] = float(constants[name])
            continue
        column = f"__t{len(columns)}"
        value, n = compute(name, schema.threshold_map[name], known, column)
        columns[name] = column
        known[name] = ThresholdColumn(column_of(column))
        for t, v, k in zip(tasks, value, n):
            values[t][name] = float(v)
            n_values[t][name] = int(k)
    return columns, values, n_values


def _interpolate(tasks: list[str], n: np.ndarray, q: float, a: dict, b: dict) -> np.ndarray:
    """numpy's percentile of each task from its two order statistics (``a``/``b``: task -> value); NaN without values."""
    lower, upper, gamma = order_statistics(np.maximum(n, 1), q)
    lo = np.array([a.get(t, np.nan) for t in tasks], dtype=float)
    hi = np.array([b.get(t, np.nan) for t in tasks], dtype=float)
    return np.where(n > 0, lerp(lo, hi, gamma), np.nan)


def percentile_thresholds(con, canon: str, params: list, schema, signal_sql: Mapping, kind_of,
                          constants: Mapping[str, float]) -> PercentileThresholds:
    """Compute every percentile threshold of ``schema`` not in ``constants``, per task, in DuckDB.

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        Connection holding the input relation's tables; ``__thr`` is created in it.
    canon, params : str, list
        The canonical attempt relation (columns ``task``, ``o`` and the signal columns) and its parameters.
    schema : scorio_core.rubric.Schema
    signal_sql, kind_of
        As :func:`~scorio_core.io.engines.rubric_sql.compile_rubric`.
    constants : dict of str to float
        Absolute and frozen threshold values (:func:`~scorio_core.io.engines.rubric_sql.constant_thresholds`).

    Returns
    -------
    PercentileThresholds

    Raises
    ------
    EngineUnsupported
        A ``where`` condition or signal the engine cannot translate.
    """
    import pyarrow as pa

    from scorio_core.io.engines._sql import EngineUnsupported
    from scorio_core.io.engines.rubric_sql import condition_compiler

    translate = condition_compiler(schema, signal_sql, kind_of)
    tasks = [str(r[0]) for r in con.execute(f"SELECT DISTINCT task FROM ({canon}) ORDER BY task", params).fetchall()]
    table = {_KEY: pa.array(tasks, pa.string())}
    _store(con, table)
    state = {"relation": canon}

    def compute(name, spec, known, column):
        if spec.of not in signal_sql:
            raise EngineUnsupported(f"threshold {name!r} is a percentile of {spec.of!r}, a signal the DuckDB engine does not "
                                    "read; use --engine pandas.")
        x = signal_sql[spec.of]
        keep, where_params = f"isfinite({x})", []
        if spec.where is not None:
            frag = translate(f"where:{name}", known, spec.where, f"where of threshold {name!r}")
            keep, where_params = f"{keep} AND ({frag.text}) IS TRUE", list(frag.params)
        filtered = f"SELECT task AS __t, {x} AS __x FROM ({state['relation']}) AS c WHERE {keep}"
        # one pass: per task the count and the two order statistics at numpy's ranks, computed in SQL with the same
        # IEEE arithmetic ((n - 1) * (q / 100), floor) and returned to check against numpy's (1-based list index)
        quantile = float(np.true_divide(np.float64(spec.percentile), 100))
        rows = con.execute(
            f"SELECT __t, n, lo, xs[lo + 1], xs[least(lo + 1, n - 1) + 1] FROM (SELECT __t, n, xs, "
            f"CAST(least(floor((n - 1) * CAST(? AS DOUBLE)), n - 1) AS BIGINT) AS lo FROM (SELECT __t, count(*) AS n, "
            f"list_sort(list(__x)) AS xs FROM ({filtered}) GROUP BY __t))", [quantile] + params + where_params).fetchall()
        found = {str(r[0]): r[1:] for r in rows}
        n = np.array([int(found[t][0]) if t in found else 0 for t in tasks], dtype=np.int64)
        lower = order_statistics(np.maximum(n, 1), spec.percentile)[0]
        if any(int(found[t][1]) != int(lo) for t, lo in zip(tasks, lower) if t in found):  # pragma: no cover - IEEE
            raise EngineUnsupported(f"threshold {name!r}: DuckDB's rank arithmetic differs from numpy's here; use --engine "
                                    "pandas.")
        value = _interpolate(tasks, n, spec.percentile, {t: float(r[2]) for t, r in found.items()},
                             {t: float(r[3]) for t, r in found.items()})
        table[column] = pa.array(value, pa.float64(), mask=np.isnan(value))
        _store(con, table)
        state["relation"] = (f"SELECT c.*, {', '.join(f'__thr_c.{k}' for k in table if k != _KEY)} FROM ({canon}) AS c "
                             f"LEFT JOIN {_TABLE} AS __thr_c ON __thr_c.{_KEY} = c.task")
        return value, n

    columns, values, n_values = _resolve(tasks, schema, constants, compute, lambda column: column)
    return PercentileThresholds(columns, state["relation"], values, n_values)


def _store(con, table: dict) -> None:
    """(Re)create ``__thr`` from the columns (a registered Arrow table: values never enter SQL text)."""
    import pyarrow as pa

    con.register("__thr_staged", pa.table(table))
    try:
        con.execute(f"CREATE OR REPLACE TEMP TABLE {_TABLE} AS SELECT * FROM __thr_staged")
    finally:
        con.unregister("__thr_staged")


def percentile_thresholds_spark(canon, schema, signal_cols: Mapping, kind_of, constants: Mapping[str, float]):
    """The Spark twin of :func:`percentile_thresholds`: ``(canon joined with the thresholds, PercentileThresholds)``.

    Same values (finite values passing the filter counted per task; the two order statistics by
    ``row_number()`` over a window per task, distributed where a cluster runs it; numpy's
    interpolation on the driver). The threshold table (one row per task) is broadcast-joined to
    the attempts by task; its columns are ``__t0``, ``__t1``, ... (``relation`` is empty: the
    joined DataFrame is returned instead).
    """
    from pyspark.sql import Window, functions as F

    from scorio_core.io.engines.rubric_sql import condition_compiler
    from scorio_core.io.engines.spark_rubric import SparkColumns

    spark = canon.sparkSession
    translate = condition_compiler(schema, signal_cols, kind_of, SparkColumns())
    tasks = sorted(str(r[0]) for r in canon.select("task").distinct().collect())
    table: dict[str, list] = {_KEY: tasks}
    state = {"joined": canon}

    def compute(name, spec, known, column):
        x = signal_cols[spec.of]
        keep = x.isNotNull() & ~F.isnan(x) & (F.abs(x) != F.lit(float("inf")))
        if spec.where is not None:
            keep = keep & F.coalesce(translate(f"where:{name}", known, spec.where, f"where of threshold {name!r}"),
                                     F.lit(False))
        filtered = state["joined"].where(keep).select(F.col("task").alias("__t"), x.cast("double").alias("__x"))
        counts = {str(r[0]): int(r[1]) for r in filtered.groupBy("__t").count().collect()}
        n = np.array([counts.get(t, 0) for t in tasks], dtype=np.int64)
        lower, upper, _ = order_statistics(np.maximum(n, 1), spec.percentile)
        at: dict = {}
        if (n > 0).any():
            wanted = spark.createDataFrame([(t, int(lo), int(hi)) for t, lo, hi, k in zip(tasks, lower, upper, n) if k],
                                           "__w string, __lo long, __hi long")
            ranked = filtered.withColumn("__r", F.row_number().over(Window.partitionBy("__t").orderBy("__x")) - 1)
            hits = ranked.join(F.broadcast(wanted), (F.col("__w") == F.col("__t"))
                               & ((F.col("__r") == F.col("__lo")) | (F.col("__r") == F.col("__hi"))))
            at = {(str(r[0]), int(r[1])): float(r[2]) for r in hits.select("__t", "__r", "__x").collect()}
        a = {t: at[(t, int(r))] for t, r in zip(tasks, lower) if (t, int(r)) in at}
        b = {t: at[(t, int(r))] for t, r in zip(tasks, upper) if (t, int(r)) in at}
        value = _interpolate(tasks, n, spec.percentile, a, b)
        table[column] = [None if np.isnan(v) else float(v) for v in value]
        thr = spark.createDataFrame(list(zip(*table.values())),
                                    ", ".join(f"{k} {'string' if k == _KEY else 'double'}" for k in table))
        state["joined"] = canon.join(F.broadcast(thr), canon["task"] == thr[_KEY], "left").drop(_KEY)
        return value, n

    columns, values, n_values = _resolve(tasks, schema, constants, compute, F.col)
    return state["joined"], PercentileThresholds(columns, "", values, n_values)
