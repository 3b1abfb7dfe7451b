"""Percentile thresholds of a rubric computed in DuckDB, per task, equal to numpy's.

The pandas rubric engine (:mod:`scorio_core.rubric.thresholds`) takes a percentile threshold
as ``np.percentile(x, q)`` (the linear method) of the finite values of its signal over one
task's attempts where its ``where`` condition is definitely true (paper Table 4, e.g.
``tau_low_wrong`` = 60th percentile of ``completion_bpt`` among wrong attempts). Here the same
value comes from one SQL pass per threshold, in the schema's dependency order (a ``where``
may use earlier thresholds), giving per task:

1. the number ``n`` of finite values passing the filter;
2. numpy's two order statistics around the virtual index ``(n - 1) q / 100`` (:func:`order_statistics`),
   found without sorting: DuckDB's ``quantile_disc`` picks a value next to them and one counting pass
   around it (values below, equal, the nearest below and above; :func:`around_candidate`) gives both
   exactly (0.66 s for 10^7 values; sorting each task's values, the fallback, took 1.2 s and a
   ``row_number()`` window 12 s), and numpy's own interpolation of them (:func:`lerp`): the value is
   bit-identical to ``np.percentile`` (tested by hypothesis against it).

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

__all__ = ["PercentileThresholds", "around_candidate", "lerp", "order_statistics", "percentile_thresholds", "percentile_thresholds_spark"]

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
        :func:`~scorio_core.engines.rubric.sql.compile_rubric`'s ``per_task``).
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
    from scorio_core.engines.rubric.sql import ThresholdColumn

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
        As :func:`~scorio_core.engines.rubric.sql.compile_rubric`.
    constants : dict of str to float
        Absolute and frozen threshold values (:func:`~scorio_core.engines.rubric.sql.constant_thresholds`).

    Returns
    -------
    PercentileThresholds

    Raises
    ------
    EngineUnsupported
        A ``where`` condition or signal the engine cannot translate.
    """
    import pyarrow as pa

    from scorio_core.engines._sql import EngineUnsupported
    from scorio_core.engines.rubric.sql import condition_compiler

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
        quantile = float(np.true_divide(np.float64(spec.percentile), 100))
        n, a, b = _order_values(con, tasks, filtered, params + where_params, spec.percentile, quantile)
        if n is None:  # pragma: no cover - IEEE
            raise EngineUnsupported(f"threshold {name!r}: DuckDB's rank arithmetic differs from numpy's here; use --engine "
                                    "pandas.")
        value = _interpolate(tasks, n, spec.percentile, a, b)
        table[column] = pa.array(value, pa.float64(), mask=np.isnan(value))
        _store(con, table)
        state["relation"] = (f"SELECT c.*, {', '.join(f'__thr_c.{k}' for k in table if k != _KEY)} FROM ({canon}) AS c "
                             f"LEFT JOIN {_TABLE} AS __thr_c ON __thr_c.{_KEY} = c.task")
        return value, n

    columns, values, n_values = _resolve(tasks, schema, constants, compute, lambda column: column)
    return PercentileThresholds(columns, state["relation"], values, n_values)


# a candidate near numpy's lower rank (DuckDB's discrete quantile: a selection, no sort); tests swap it for a bad one
_CANDIDATE = "quantile_disc(__x, ?)"


def around_candidate(ranks: np.ndarray, v: np.ndarray, below: np.ndarray, equal: np.ndarray, prev: np.ndarray,
                     nxt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Order statistics at ``ranks`` from counts around a candidate value, where they determine them.

    Parameters
    ----------
    ranks : ndarray of int, shape (T,)
        0-based ranks wanted in each group's sorted values.
    v : ndarray of float, shape (T,)
        A value of each group (the candidate).
    below, equal : ndarray of int, shape (T,)
        How many values are ``< v`` and ``== v``.
    prev, nxt : ndarray of float, shape (T,)
        The largest value ``< v`` and the smallest ``> v`` (NaN where there is none).

    Returns
    -------
    values : ndarray of float, shape (T,)
        The value at each rank: ``v`` for ranks ``below .. below + equal - 1``, ``prev`` at ``below - 1``,
        ``nxt`` at ``below + equal`` (NaN elsewhere).
    known : ndarray of bool, shape (T,)
        Where the counts determine the value (ranks within one of the candidate's run of ties).
    """
    ranks = np.asarray(ranks, dtype=np.int64)
    below = np.asarray(below, dtype=np.int64)
    top = below + np.asarray(equal, dtype=np.int64)
    values = np.where((ranks >= below) & (ranks < top), v, np.where(ranks == below - 1, prev, np.where(ranks == top, nxt, np.nan)))
    return values, (ranks >= below - 1) & (ranks <= top)


def _order_values(con, tasks: list[str], filtered: str, params: list, percentile: float, quantile: float):
    """Per task: the number of values and the two order statistics numpy's percentile interpolates (task -> value).

    A candidate per task (:data:`_CANDIDATE`, a selection) and one counting pass around it give them exactly
    (:func:`around_candidate`: 0.66 s for 10^7 values where sorting each task's values took 1.2 s); tasks where
    the candidate is too far from the ranks (it never is with DuckDB's ``quantile_disc``) take them from the sorted
    values. Returns ``(None, None, None)`` if DuckDB's rank arithmetic ever differs from numpy's.
    """
    import pyarrow as pa

    rows = con.execute(f"SELECT __t, count(*), {_CANDIDATE} FROM ({filtered}) GROUP BY __t", [quantile] + params).fetchall()
    found = {str(r[0]): (int(r[1]), float(r[2])) for r in rows}
    n = np.array([found[t][0] if t in found else 0 for t in tasks], dtype=np.int64)
    lower, upper, _ = order_statistics(np.maximum(n, 1), percentile)
    have = [t for t in tasks if t in found]
    if not have:
        return n, {}, {}
    con.register("__cand_staged", pa.table({"__ct": pa.array(have, pa.string()),
                                            "__cv": pa.array([found[t][1] for t in have], pa.float64())}))
    try:
        around = {str(r[0]): r[1:] for r in con.execute(
            f"SELECT __t, count(*) FILTER (WHERE __x < __cv), count(*) FILTER (WHERE __x = __cv), max(__x) FILTER "
            f"(WHERE __x < __cv), min(__x) FILTER (WHERE __x > __cv) FROM ({filtered}) JOIN __cand_staged ON __ct = __t "
            f"GROUP BY __t", params).fetchall()}
    finally:
        con.unregister("__cand_staged")
    position = {t: i for i, t in enumerate(tasks)}
    idx = np.array([position[t] for t in have], dtype=np.int64)
    cols = [np.array([np.nan if around[t][k] is None else float(around[t][k]) for t in have]) for k in range(4)]
    v = np.array([found[t][1] for t in have])
    a, ok_a = around_candidate(lower[idx], v, cols[0].astype(np.int64), cols[1].astype(np.int64), cols[2], cols[3])
    b, ok_b = around_candidate(upper[idx], v, cols[0].astype(np.int64), cols[1].astype(np.int64), cols[2], cols[3])
    if (ok_a & ok_b).all():
        return n, dict(zip(have, a)), dict(zip(have, b))
    # fallback: each task's sorted values, ranks computed in SQL with numpy's IEEE arithmetic and checked against numpy's
    rows = con.execute(
        f"SELECT __t, n, lo, xs[lo + 1], xs[least(lo + 1, n - 1) + 1] FROM (SELECT __t, n, xs, "
        f"CAST(least(floor((n - 1) * CAST(? AS DOUBLE)), n - 1) AS BIGINT) AS lo FROM (SELECT __t, count(*) AS n, "
        f"list_sort(list(__x)) AS xs FROM ({filtered}) GROUP BY __t))", [quantile] + params).fetchall()
    sorted_ = {str(r[0]): r[1:] for r in rows}
    if any(int(sorted_[t][1]) != int(lo) for t, lo in zip(tasks, lower) if t in sorted_):  # pragma: no cover - IEEE
        return None, None, None
    return n, {t: float(r[2]) for t, r in sorted_.items()}, {t: float(r[3]) for t, r in sorted_.items()}


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

    from scorio_core.engines.rubric.sql import condition_compiler
    from scorio_core.engines.rubric.spark_columns import SparkColumns

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
