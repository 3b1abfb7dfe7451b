"""Derived rubric signals computed in SQL (DuckDB; Spark shares the notes), with the pandas engine's values and notes.

Of the base signals :func:`scorio_core.rubric.signals.derive_signals` adds (paper Appendix F.1), three are
computed here when a schema reads them (:func:`~scorio_core.engines.rubric.binding.sql_derivations`):

* ``repeated_pattern`` = 0 where ``finish_reason`` is a normal stop, 1 for any other value, missing where
  it is missing. The stop values are not matched in SQL (Python's ``str.strip``/``str.lower`` are not
  DuckDB's ``trim``/``lower`` on every Unicode string): one GROUP BY gives each task's distinct values and
  their rows, Python classifies them with :func:`~scorio_core.rubric.signals.is_stop_reason`, and the stop
  values reach DuckDB as parameters into a temporary table (never as SQL text).
* ``{side}_bpt`` = ``-{side}_logprob_mean / ln 2`` where the mean log-prob is finite: one correctly rounded
  division by the same double as numpy's, so the values are bit-identical. DuckDB also derives the other members
  of the log-prob family from their source, or from two in the pandas engine's order with the second filling the
  rows the first leaves missing (``-bpt * ln 2``; ``exp(-lp)``, ``2^bpt``, ``log2 ppl``, ``-ln ppl`` with
  numpy's own functions as vectorized UDFs: :func:`register_numpy_functions`) and ``{side}_logprob_sum`` =
  ``{side}_logprob_mean * {side}_tokens`` (one multiplication).
* ``token_ratio`` = ``completion_tokens / max_tokens``: the row's ``max_tokens`` where it is finite and
  positive, else the ``max_tokens`` argument (``--max-tokens``), else missing; one division, bit-identical.

The same GROUP BY counts, per task, the rows each note reports (stop and other values, missing rows, values
filled, rows with ``max_tokens <= 0``), so the notes are those the pandas engine writes for that task's
attempts. Spark computes the same columns (:mod:`scorio_core.engines.rubric.spark`) and shares
:func:`notes_from_counts`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

__all__ = ["derived_expr", "derived_task_notes", "family_condition", "family_pair", "family_signals",
           "notes_from_counts", "numpy_functions", "register_numpy_functions"]

_STOPS = "__stop_values"


def _double(x: float) -> str:
    return f"CAST('{float(x)!r}' AS DOUBLE)"  # the shortest repr parses back to the same double


# (target, source) members of the log-prob family -> (SQL condition on the source's SQL ``x`` where the pandas engine
# fills the target from it: a finite source, a positive perplexity; SQL of the value; the numpy function it needs, None
# for plain IEEE arithmetic)
_FAMILY_SQL = {
    ("bpt", "logprob_mean"): ("isfinite({x})", "-({x}) / {ln2}", None),
    ("logprob_mean", "bpt"): ("isfinite({x})", "-({x}) * {ln2}", None),
    ("ppl", "logprob_mean"): ("isfinite({x})", "{f}(-({x}))", "exp"),
    ("ppl", "bpt"): ("isfinite({x})", "{f}({x})", "exp2"),
    ("bpt", "ppl"): ("isfinite({x}) AND {x} > 0", "{f}({x})", "log2"),
    ("logprob_mean", "ppl"): ("isfinite({x}) AND {x} > 0", "-{f}({x})", "log"),
}
_NUMPY_UDF = "__scorio_np_"


def family_pair(name: str, source: str) -> tuple[str, str] | None:
    """``(target, source)`` of a log-prob family derivation, e.g. ``("ppl", "logprob_mean")`` for ``completion_ppl``
    from ``completion_logprob_mean``; None for other signals."""
    side = name.split("_", 1)[0]
    pair = (name[len(side) + 1:], source[len(side) + 1:])
    return pair if pair in _FAMILY_SQL and source.startswith(f"{side}_") else None


def numpy_functions(computed: Mapping[str, str], second: Mapping[str, str | None] | None = None) -> list[str]:
    """The numpy functions (``exp``, ``exp2``, ``log``, ``log2``) the computed signals need as DuckDB UDFs
    (``second``: signal -> the column filling the gaps its first source leaves, as ``second_source`` gives)."""
    second = second or {}
    pairs = [family_pair(s, c) for s, src in computed.items() for c in (src, second.get(s)) if c is not None]
    return sorted({_FAMILY_SQL[p][2] for p in pairs if p is not None and _FAMILY_SQL[p][2]})


def family_condition(name: str, source: str, x: str) -> str:
    """SQL that holds where the pandas engine fills the family member ``name`` from ``source`` (SQL ``x``)."""
    return _FAMILY_SQL[family_pair(name, source)][0].format(x=x)


def register_numpy_functions(con, names) -> None:
    """Register numpy's ``exp``/``exp2``/``log``/``log2`` on a DuckDB connection as vectorized (Arrow) UDFs.

    DuckDB's own ``exp``/``ln`` call the C library, numpy may use its own SIMD code: on some CPUs they differ in the
    last bit, so the values the pandas engine compares with rubric thresholds come from numpy here too (about 0.15 s
    per 10^6 values evaluated).
    """
    import numpy as np
    import pyarrow as pa

    def vectorized(fn):
        def udf(x):
            values = x.to_numpy(zero_copy_only=False)
            with np.errstate(all="ignore"):
                out = fn(values)
            return pa.array(out, type=pa.float64(), mask=np.asarray(x.is_null()) if x.null_count else None)

        return udf

    for name in names:
        udf = vectorized(getattr(np, name))
        con.create_function(f"{_NUMPY_UDF}{name}", udf, ["DOUBLE"], "DOUBLE", type="arrow")


def derived_expr(name: str, column: str, x: str | None, other: str | None = None, limit: float | None = None,
                 other_column: str | None = None) -> str:
    """SQL of the computed signal ``name`` from its source column ``column`` whose SQL is ``x`` (``None``: the file
    lacks it, so missing) and, for ``token_ratio``, the ``max_tokens`` column's SQL ``other`` (``None`` when absent) and
    the ``max_tokens`` argument ``limit``; for ``{side}_logprob_sum``, ``other`` is the ``{side}_tokens`` column's SQL;
    for a log-prob family member, ``other`` is the SQL of ``other_column``, the second source that fills the rows the
    first leaves missing (pandas' order: ``_LOGPROB_FORMULAS``)."""
    if (pair := family_pair(name, column)) is not None:
        ln2, whens = _double(math.log(2.0)), []
        for p, sql in ((pair, x), (other_column and family_pair(name, other_column), other)):
            if p and sql is not None:
                cond, value, fn = _FAMILY_SQL[p]
                whens.append(f"WHEN {cond.format(x=sql)} THEN {value.format(x=sql, ln2=ln2, f=f'{_NUMPY_UDF}{fn}')}")
        return f"CASE {' '.join(whens)} END" if whens else "CAST(NULL AS DOUBLE)"
    if x is None:
        return "CAST(NULL AS DOUBLE)"
    if name == "token_ratio":  # the row's positive max_tokens, else the argument, else missing
        per_row = f"CASE WHEN isfinite({other}) AND {other} > 0 THEN {other} END" if other else "NULL"
        if limit is not None:
            per_row = f"coalesce({per_row}, {_double(limit)})"
        return f"CAST({x} AS DOUBLE) / CAST({per_row} AS DOUBLE)"
    if name == "repeated_pattern":
        return f"CASE WHEN {x} IS NULL THEN NULL WHEN {x} IN (SELECT v FROM {_STOPS}) THEN 0.0::DOUBLE ELSE 1.0::DOUBLE END"
    if name.endswith("_logprob_sum"):  # mean * tokens: one correctly rounded multiplication, as numpy's
        return f"CAST({x} AS DOUBLE) * CAST({other} AS DOUBLE)" if other else "CAST(NULL AS DOUBLE)"
    raise ValueError(f"no SQL derivation of {name!r}")


def derived_task_notes(con, relation: str, params: list, computed: Mapping[str, str], raw: Mapping[str, str],
                       signal_sql: Mapping[str, str], notes, limit: float | None = None,
                       second: Mapping[str, str | None] | None = None) -> tuple[dict, dict]:
    """Count what the derivations' notes report per task (one GROUP BY), register the stop values, write the notes.

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
    relation, params : str, list
        The (task-scoped) canonical attempt relation and its parameters.
    computed : dict of str to str
        Computed signal -> source column (:func:`~scorio_core.engines.rubric.binding.bind_signals`).
    raw : dict of str to str
        Source column -> its SQL in ``relation`` (``finish_reason``; ``max_tokens`` when a column; the sources of
        a log-prob family member filled from two columns).
    signal_sql : dict of str to str
        Signal -> its SQL in ``relation`` (the computed log-prob family and ``token_ratio`` columns).
    notes : sequence of str
        Derivation notes of the binding, whose placeholders (notes starting with a computed signal's name) are
        replaced by each task's own note.
    limit : float, optional
        The ``max_tokens`` argument of ``token_ratio``.
    second : dict of str to str, optional
        Computed signal -> its second source column (a log-prob family member pandas fills from two columns).

    Returns
    -------
    notes, absent : dict
        As :func:`notes_from_counts`.
    """
    second = second or {}
    con.execute(f"CREATE TEMP TABLE IF NOT EXISTS {_STOPS} (v VARCHAR)")  # bound by the relation; filled below
    value = raw["finish_reason"] if "repeated_pattern" in computed else "CAST(NULL AS VARCHAR)"
    filled = ""
    for s in family_signals(computed):  # rows filled; from the second source: rows the first leaves missing
        filled += f", count({signal_sql[s]})"
        if second.get(s):
            first, then = (family_condition(s, c, raw[c]) for c in (computed[s], second[s]))
            filled += f", count(*) FILTER (WHERE ({first}) IS NOT TRUE AND ({then}) IS TRUE)"
    if "token_ratio" in computed:
        mt = raw.get("max_tokens")
        filled += (f", count(*) FILTER (WHERE isfinite({mt}) AND {mt} > 0), count(*) FILTER (WHERE isfinite({mt}) AND "
                   f"{mt} <= 0)" if mt else ", 0, 0") + f", count({signal_sql['token_ratio']})"
    rows = con.execute(f"SELECT task, {value} AS __v, count(*){filled} FROM ({relation}) AS c GROUP BY ALL", params).fetchall()
    stops, by_task, absent = notes_from_counts(rows, computed, notes, limit, second)
    if stops:  # values as parameters, never SQL text
        con.executemany(f"INSERT INTO {_STOPS} VALUES (?)", [[v] for v in stops])
    return by_task, absent


def family_signals(computed: Mapping[str, str]) -> list[str]:
    """The computed log-prob family signals (``*_bpt``, ``*_logprob_mean``, ``*_ppl``), in the order
    :func:`notes_from_counts` reads their counts (rows filled)."""
    return [s for s, src in computed.items() if family_pair(s, src) is not None]


def notes_from_counts(rows, computed: Mapping[str, str], notes, limit: float | None = None,
                      second: Mapping[str, str | None] | None = None) -> tuple[list, dict, dict]:
    """The stop values and each task's derivation notes from per-(task, ``finish_reason`` value) counts.

    Parameters
    ----------
    rows : iterable of tuple
        ``(task, finish_reason value or None, rows, then per signal of family_signals(computed): values filled
        (and, with a second source, those filled from it)``,
        then, when ``token_ratio`` is computed, rows with a positive ``max_tokens``, rows with one <= 0 and rows
        with a ratio; one per distinct (task, value) (the value None where ``repeated_pattern`` is not computed).
    computed : dict of str to str
        Computed signal -> source column.
    notes : sequence of str
        The binding's derivation notes (placeholders for the computed signals).
    limit : float, optional
        The ``max_tokens`` argument of ``token_ratio``.
    second : dict of str to str, optional
        Computed signal -> its second source column, as for :func:`derived_task_notes`.

    Returns
    -------
    stops : list of str
        The distinct ``finish_reason`` values that are normal stops
        (:func:`~scorio_core.rubric.signals.is_stop_reason`), sorted.
    notes : dict of str to tuple of str
        Task -> derivation notes, in the pandas engine's order.
    absent : dict of str to tuple of str
        Task -> computed signals without a value there (``*_bpt`` where no mean log-prob is finite,
        ``token_ratio`` without a positive ``max_tokens`` and no argument), which the pandas engine does not
        derive for that task (so it reports them as not in the data).
    """
    from scorio_core.rubric.signals import (_LOGPROB_FORMULAS, is_stop_reason, logprob_note, repeated_pattern_note,
                                            token_ratio_note)

    second = second or {}
    bpt = family_signals(computed)
    sources = {t: [c for c in (computed[t], second.get(t)) if c] for t in bpt}
    width = sum(len(c) for c in sources.values())  # counts per row of the family signals
    rows = [tuple(r) for r in rows]
    formulas = {(t, c): _LOGPROB_FORMULAS[target][source][1] for t in bpt for c in sources[t]
                for target, source in [family_pair(t, c)]}
    stops = sorted({r[1] for r in rows if r[1] is not None and is_stop_reason(r[1])})
    per_task: dict[str, dict] = {}
    for row in rows:
        t = per_task.setdefault(str(row[0]), {"values": {}, "missing": 0, "rows": 0, "filled": [0] * (len(row) - 3)})
        if row[1] is None:
            t["missing"] += int(row[2])
        else:
            t["values"][row[1]] = int(row[2])
        t["rows"] += int(row[2])
        t["filled"] = [a + int(b) for a, b in zip(t["filled"], row[3:])]
    out, absent = {}, {}
    for task, t in per_task.items():
        own, gone = {}, []
        if "repeated_pattern" in computed:
            own["repeated_pattern"] = repeated_pattern_note(t["values"].items(), t["missing"])
        at = 0
        for s in bpt:
            n, n2 = t["filled"][at], (t["filled"][at + 1] if len(sources[s]) > 1 else 0)
            at += len(sources[s])
            used = [(formulas[s, c], c, k) for c, k in zip(sources[s], (n - n2, n2)) if k]
            own[s] = logprob_note(s, used, sources[s])
            gone += [] if n else [s]
        if "token_ratio" in computed:
            from_column, bad, ratios = t["filled"][width:]
            derived, own["token_ratio"] = token_ratio_note(t["rows"], from_column, limit, bad, t["rows"] - ratios)
            gone += [] if derived else ["token_ratio"]
        out[task] = tuple(own.get(note.split(" ", 1)[0], note) for note in notes)
        absent[task] = tuple(gone)
    return stops, out, absent
