"""Rubric category counts in DuckDB: files -> per-(model, task, question) category counts -> task outcomes.

Uses the SQL translation of :mod:`scorio_core.engines.rubric.sql` on the canonical relation
of :mod:`scorio_core.engines.duckdb_engine`; see that module for the semantics. The result
feeds rubric-weighted Bayes@N (paper Appendix F) exactly as the pandas path does, through
:mod:`scorio_core.engines.rubric.outcomes` (the leaderboard's inputs per task).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from scorio_core.engines._sql import EngineUnsupported, quote_ident
from scorio_core.engines.rubric.binding import bind_signals, coverage_of, second_source, static_issues_without
from scorio_core.engines.rubric.derived import (derived_expr, derived_task_notes, numpy_functions,
                                                   register_numpy_functions)
from scorio_core.engines.rubric.percentiles import percentile_thresholds
from scorio_core.engines.rubric.sql import SQLRubric, _Frag, _join, compile_rubric, constant_thresholds

__all__ = ["CategoryCountsSQL", "load_category_counts"]

_NUMERIC = ("int", "float", "bool")
# values pyarrow's CSV reader turns into null or a number/bool (then pandas would not see text)
_ARROW_NULLS = ("", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
                "N/A", "NA", "NULL", "NaN", "n/a", "nan", "null", "<NA>", "None")
_ARROW_BOOLS = ("true", "false", "True", "False", "TRUE", "FALSE")


# ----------------------------------------------------------------------------- columns
def _pandas_names(names: list[str], gm: Mapping[str, str]) -> dict[str, str]:
    """pandas column name -> raw column, as :mod:`scorio_core.io._canonical` names extra columns."""
    from scorio_core.io._schema import COUNT_COLUMNS, ID_COLUMNS, SIGNAL_COLUMNS

    used = {c for k, c in gm.items() if k in ID_COLUMNS + ("is_correct", "category") + COUNT_COLUMNS}
    source_to_signal = {c: k for k, c in gm.items() if k in SIGNAL_COLUMNS}
    taken = set(ID_COLUMNS) | {"is_correct"}
    out: dict[str, str] = {}
    for col in names:
        if col in used and col not in source_to_signal:
            continue
        name = source_to_signal.get(col, str(col))
        if name in taken or name in out:
            name = f"{name}_source"
        out[name] = col
    return out


def _column_plan(con, groups, guesses, needed: set[str]):
    """Per signal name: its kind and, per group, the SQL expression (None when absent).

    Returns ``(kinds, exprs, all_names)``: ``kinds[name]`` is ``"number"``/``"text"`` for every
    pandas column, ``exprs[name][g]`` the SQL over ``src`` for needed names.

    Raises EngineUnsupported where the pandas loader's type cannot be predicted: text columns
    in CSV whose values pyarrow would read as numbers or nulls, CSV booleans, other types,
    types that differ between files, canonical signals with text (``_numeric`` parsing).
    """
    from scorio_core.io._schema import BINARY_SIGNALS, SIGNAL_COLUMNS, STRING_SIGNALS
    from scorio_core.engines.duckdb_inputs import column_kind, describe

    kinds: dict[str, str] = {}
    exprs: dict[str, list] = {}
    for gi, (g, guess) in enumerate(zip(groups, guesses)):
        types = dict(describe(con, g))
        for name, col in _pandas_names(list(types), guess.mapping).items():
            kind = column_kind(types[col])
            k = "number" if kind in _NUMERIC else "text" if kind == "text" else "other"
            if name in STRING_SIGNALS and k != "text" or name in SIGNAL_COLUMNS and name not in STRING_SIGNALS and k == "text":
                k = "other"
            if g.fmt in ("csv", "tsv") and kind == "bool":
                k = "other"
            prev = kinds.setdefault(name, k)
            if prev != k:
                k = kinds[name] = "other"
            if name not in needed:
                continue
            if k == "other":
                raise EngineUnsupported(f"column '{col}' (rubric signal {name!r}) has type {types[col]} or differs between "
                                        "files; its values are read by the pandas engine only; use --engine pandas.",
                                        source=g.label)
            q = f"src.{quote_ident(col)}"
            if k == "number":
                v = f"CAST({q} AS DOUBLE)"
                sql = f"CASE WHEN isnan({v}) THEN NULL ELSE {v} END" if kind == "float" else v
                if name in BINARY_SIGNALS:
                    _refuse_if(con, g, f"{sql} NOT IN (0, 1)", f"signal {name!r} has values other than 0 and 1")
            elif g.fmt in ("csv", "tsv"):
                lits = ", ".join("?" for _ in _ARROW_NULLS + _ARROW_BOOLS)
                _refuse_if(con, g, f"TRUE HAVING bool_and({q} IS NULL OR {q} IN ({lits}) OR TRY_CAST({q} AS DOUBLE) "
                                   "IS NOT NULL)", f"text column '{col}' holds only numbers, booleans or null-like "
                                   "values, which the pandas reader types differently",
                           list(_ARROW_NULLS + _ARROW_BOOLS), aggregate=True)
                sql = f"coalesce({q}, '')"  # pyarrow keeps an empty CSV text field as ''
            else:
                sql = f"CAST({q} AS VARCHAR)"
            exprs.setdefault(name, [None] * len(groups))[gi] = sql
    return kinds, exprs


def _refuse_if(con, group, where: str, why: str, params: list | None = None, aggregate: bool = False) -> None:
    sql, p = group.reader()
    if aggregate:
        query = f"SELECT count(*) FROM {sql} AS src WHERE {where}"
    else:
        query = f"SELECT count(*) FROM (SELECT 1 FROM {sql} AS src WHERE {where} LIMIT 1)"
    row = con.execute(query, p + list(params or [])).fetchone()
    if row and row[0]:
        raise EngineUnsupported(f"{why}; use --engine pandas.", source=group.label)


# ----------------------------------------------------------------------------- results
@dataclass(frozen=True, eq=False)
class CategoryCountsSQL:
    """Per (model, task, question) category counts computed by DuckDB.

    Attributes
    ----------
    cells : pandas.DataFrame
        One row per (task, model, question_id) in first-appearance order of the files:
        ``task, model, question_id`` (str), ``n_trials``, ``n_correct``, ``unmatched`` and one
        column ``c0..cC`` per category (int64), shape (n_cells, 6 + C+1).
    labels : tuple of str
    weights : ndarray of shape (C+1,)
    thresholds : dict of str to float
        Values of the thresholds that do not depend on the data (absolute, frozen).
    coverage : dict of str to dict
        Per task: ``n``, ``unmatched``, per-signal missing counts, per-category condition
        counts and takers (for the same coverage notes as the pandas path).
    issues_static : tuple
        Static coverage issues (absent signals, never-matching categories, ...).
    notes : tuple of str
        Signal derivation notes (as :class:`scorio_core.rubric.SignalTable`).
    schema : scorio_core.rubric.Schema
    dataset : scorio_core.io.Dataset
        The count-table dataset of the same files (sources, report).
    task_thresholds : dict of str to dict of str to float
        Task -> every threshold's value (schema order) when some are percentiles of the data, which
        are computed per task as the pandas engine does (:mod:`~scorio_core.engines.rubric.percentiles`).
    task_notes : dict of str to tuple of str
        Task -> signal derivation notes when the engine computes derived signals
        (:mod:`~scorio_core.engines.rubric.derived`), whose notes count that task's rows; ``notes`` otherwise.
    task_absent : dict of str to tuple
        Task -> (computed signals without a value in that task, the static issues calling them not in the data),
        as the pandas engine sees that task.
    """

    cells: pd.DataFrame
    labels: tuple
    weights: np.ndarray
    thresholds: dict
    coverage: dict
    issues_static: tuple
    notes: tuple
    schema: object
    dataset: object
    signals: tuple = ()
    task_thresholds: dict = field(default_factory=dict)
    task_notes: dict = field(default_factory=dict)
    task_absent: dict = field(default_factory=dict)


def load_category_counts(
    paths,
    schema,
    *,
    task: str | None = None,
    mapping: Mapping[str, str] | None = None,
    format: str | None = None,
    thresholds: Mapping[str, float] | None = None,
    memory_limit: str | None = "2GB",
    temp_directory: str | None = None,
    threads: int | None = None,
    hash_files: bool = True,
    max_tokens: int | None = None,
) -> CategoryCountsSQL:
    """Count rubric categories per (model, task, question) in DuckDB, without an attempt table.

    Parameters
    ----------
    paths : str, os.PathLike or sequence of them
        Attempt-level CSV/TSV/Parquet/JSONL files, folders or globs (as :func:`load_counts`).
    schema : Schema, str, path or dict
        Rubric schema (built-in name, JSON file or document).
    task : str, optional
        Keep only this task's cells (all tasks otherwise).
    mapping, format, memory_limit, temp_directory, threads, hash_files
        As :func:`scorio_core.engines.load_counts`.
    thresholds : dict of str to float, optional
        Frozen threshold values (``--freeze-thresholds``).
    max_tokens : int, optional
        Generation limit for ``token_ratio`` on rows without a positive ``max_tokens`` value
        (``--max-tokens``; as :func:`~scorio_core.rubric.signals.derive_signals`).

    Returns
    -------
    CategoryCountsSQL
        ``cells`` with ``n_trials``, ``n_correct``, ``unmatched`` and counts ``c0..cC`` per
        cell; ``sum(c*) + unmatched == n_trials``.

    Raises
    ------
    EngineUnsupported
        A signal derived from another derived signal (e.g. ``*_logprob_sum`` from a mean log-prob
        derived from ``*_bpt``; :mod:`~scorio_core.engines.rubric.derived`), unknown names, type errors, count tables,
        columns whose pandas type is not predictable (message says which).
    NotReadyError
        Duplicate keys, non-binary or missing outcomes (as :func:`load_counts`).
    InputError
        Bad files, ids, trials or outcomes (as :func:`load_counts`).

    References
    ----------
    Hariri et al., "Don't Pass@k: A Bayesian Framework for Large Language Model Evaluation",
    ICLR 2026, arXiv:2510.04265, Appendix F (categorical rubrics, rubric-weighted Bayes@N).
    """
    import duckdb

    from scorio_core.io._dataset import Dataset
    from scorio_core.io.quality.compute import compute_report
    from scorio_core.engines.duckdb_count import count_attempts
    from scorio_core.engines.duckdb_inputs import (
        Group,
        canonical_select,
        connect,
        duck_error,
        engine_files,
        source_infos,
        split_by_columns,
    )
    from scorio_core.engines._sql import register_files
    from scorio_core.engines.per_model import join_per_model
    from scorio_core.rubric.engine import _schema
    from scorio_core.rubric.signals import _check_max_tokens

    schema = _schema(schema)
    limit = _check_max_tokens(max_tokens)
    files = engine_files(paths, format)
    con = connect(memory_limit, temp_directory, threads)
    try:
        groups_by_fmt: dict[str, list] = {}
        for f in files:
            groups_by_fmt.setdefault(f.format, []).append(f)
        register_files(con, files)
        groups = split_by_columns(con, [Group(fmt, fs) for fmt, fs in groups_by_fmt.items()])
        selects = [canonical_select(con, g, mapping, positions=True) for g in groups]
        guesses = [s[2] for s in selects]
        if any(g.layout != "attempts" for g in guesses):
            raise EngineUnsupported("a rubric needs attempt-level data; count tables only support binary correctness.",
                                    source=", ".join(g.label for g in groups))
        if len({"trial" in g.mapping for g in guesses}) > 1:
            raise EngineUnsupported("some inputs have a trial column and some do not; use --engine pandas.")
        with_trial = "trial" in guesses[0].mapping
        parts = [(s[0], s[1], "task" not in s[2].mapping) for s in selects]
        try:  # per-model files without a task column: one task, as the pandas loader reads them
            defaults = join_per_model(con, parts, [f for g, p in zip(groups, parts) if p[2] for f in g.files],
                                      [d for s in selects for d in s[3]])
        except duckdb.Error as exc:
            raise duck_error(exc, Group(groups[0].fmt, files)) from None
        # kinds of every pandas column, then SQL of the columns the schema reads (or derives signals from)
        kinds, exprs = _column_plan(con, groups, guesses, set(schema.signals) - {"is_correct"})
        bound, derive_notes, needed, present, computed = bind_signals(schema, kinds, "DuckDB", derive=True, max_tokens=limit)
        # max_tokens of token_ratio, tokens of *_logprob_sum, a log-prob family member's second source
        other = {s: second_source(s, kinds) for s in computed}
        kinds = {**kinds, **{s: "number" for s in computed}}
        raw = list(dict.fromkeys([*computed.values(), *(c for c in other.values() if c is not None)]))
        if numpy_functions(computed, other):  # exp/log of the log-prob family: numpy's own, as pandas computes them
            register_numpy_functions(con, numpy_functions(computed, other))
        sources = [c for c in raw if c not in present]
        if sources:
            exprs.update(_column_plan(con, groups, guesses, set(sources))[1])
        alias = {s: f"__s{i}" for i, s in enumerate(present + sources)}
        parts, params = [], []
        for gi, (text, p, _, _) in enumerate(selects):
            if not text.startswith("SELECT "):
                raise EngineUnsupported("the DuckDB relation has an unexpected shape; use --engine pandas.")
            sql = {s: (derived_expr(s, computed[s], exprs[computed[s]][gi], other[s] and exprs[other[s]][gi], limit,
                                    other[s]) if s in computed else exprs[s][gi]) for s in present}
            sql.update({c: exprs[c][gi] for c in sources})
            extra = [f"{sql[s] if sql[s] is not None else 'NULL'} AS {quote_ident(alias[s])}" for s in present + sources]
            extra = [e if not e.startswith("NULL ") else
                     f"CAST(NULL AS {'DOUBLE' if kinds[s] == 'number' else 'VARCHAR'}) AS {quote_ident(alias[s])}"
                     for e, s in zip(extra, present + sources)]
            body = text[len("SELECT "):]
            parts.append(f"(SELECT {', '.join(extra + [body])})" if extra else f"({text})")
            params += p
        canon = " UNION ALL BY NAME ".join(parts)
        signal_sql = {s: quote_ident(alias[s]) for s in present}
        signal_sql["is_correct"] = "o"
        for s in needed:
            if s not in present:  # a known signal absent from the data: missing everywhere
                signal_sql[s] = "CAST(NULL AS VARCHAR)" if bound.table.kind(s) == "text" else "CAST(NULL AS DOUBLE)"
        constants = constant_thresholds(schema, thresholds)
        # one task: its percentiles and categories only (both are per task); the counts and report cover every task
        scoped, scoped_params = ((canon, params) if task is None else
                                 (f"SELECT * FROM ({canon}) AS __scope WHERE task = ?", [*params, str(task)]))
        try:
            if numpy_functions(computed, other):  # a numpy UDF costs ~0.14 s per 10^6 values in each of the four passes
                con.execute(f"CREATE TEMP TABLE __scoped AS SELECT * FROM ({scoped})", scoped_params)
                scoped, scoped_params = "SELECT * FROM __scoped", []
            raw_sql = {c: quote_ident(alias[c]) for c in raw}
            task_notes, absent = (derived_task_notes(con, scoped, scoped_params, computed, raw_sql, signal_sql, derive_notes,
                                                     limit, other) if computed else ({}, {}))
            pct = (percentile_thresholds(con, scoped, scoped_params, schema, signal_sql, bound.table.kind, constants)
                   if set(schema.threshold_order) - set(constants) else None)
            rub = compile_rubric(schema, signal_sql, bound.table.kind, thresholds, per_task=pct and pct.columns)
            cells_v, per_file, _ = count_attempts(con, canon, params, groups, with_trial)
            out = _categorize_sql(con, pct.relation if pct else scoped, scoped_params, rub, present, signal_sql, kinds,
                                  single=len(files) == 1)
        except duckdb.Error as exc:
            raise duck_error(exc, groups[0], guesses[0]) from None
    finally:
        con.close()
    cells, coverage = out
    # the count dataset of the same files (sources, report), as load_counts returns it
    from scorio_core.engines._sql import engine_notes
    from scorio_core.engines.duckdb_inputs import Prepared
    from scorio_core.engines.frames import count_frame

    prep = Prepared(canon, params, groups, guesses, defaults, "attempts", with_trial)
    table = count_frame(cells_v)
    infos = source_infos(prep, per_file, hash_files)
    meta = {"sources": tuple((i.name, i.format) for i in infos), "mappings": tuple((i.name, i.mapping) for i in infos),
            "defaults": tuple(defaults), "notes": (*engine_notes(groups, guesses, "attempts", cells_v["partial_by_file"],
                                                                 per_file, cells_v["errors_by_file"]),
                                                    f"{int(cells['n_trials'].sum()):,} attempts categorized by the DuckDB "
                                                    f"engine (rubric {schema.name!r}).")}
    report = compute_report(table, "counts", source_names=tuple(i.name for i in infos), meta=meta)
    dataset = Dataset(attempts=None, counts=table, report=report, sources=infos)
    return CategoryCountsSQL(cells, rub.labels, rub.weights, rub.thresholds, coverage, tuple(bound.static),
                             tuple(derive_notes), schema, dataset, tuple(needed), pct.values if pct else {}, task_notes,
                             {t: (a, static_issues_without(schema, kinds, computed, a)) for t, a in absent.items() if a})


_WORD = 62  # condition bits per BIGINT pattern word (the sign bit unused)


def _categorize_sql(con, canon: str, params: list, rub: SQLRubric, present, signal_sql, kinds, single: bool = False):
    """One streaming GROUP BY over the attempts by cell and *pattern* (which categories' conditions hold, as bits of
    BIGINT words; an attempt's code is its pattern's first set bit), then the per-cell counts and the per-task coverage
    from those groups (a few per cell) instead of per-attempt CASE and FILTER aggregates (the GROUP BY 2.2 s -> 1.5 s,
    the whole pass 3.1-3.8 s -> 1.8-2.1 s for 10^7 attempts). ``single``: one input file, whose row ordinals alone give
    the first appearance. Returns (cells frame in first-appearance order, coverage)."""
    C = len(rub.labels)
    words = max(1, -(-C // _WORD))
    conds = [_Frag(t, list(p)) for t, p in rub.conditions]
    pattern = []
    for w in range(words):
        bits = [_Frag("(((") + c + _Frag(f") IS TRUE)::BIGINT << {i - w * _WORD})")  # operators of one precedence
                for i, c in enumerate(conds) if i // _WORD == w]
        pattern.append(_join(bits, " | ") + _Frag(f" AS __p{w}") if bits else _Frag(f"0::BIGINT AS __p{w}"))
    missing = {s: (f"({signal_sql[s]} IS NULL OR NOT isfinite({signal_sql[s]}))" if kinds[s] == "number"
                   else f"({signal_sql[s]} IS NULL)") for s in present}
    # first appearance: (file index, row) as one number; one file needs no per-row join on its path
    first = "pos" if single else "__files.__idx * 1000000000000 + pos"
    head = _Frag(f"SELECT model, task, question_id, o, {first} AS first, ") + _join(pattern, ", ")
    tail_cols = "".join(f", {missing[s]} AS {quote_ident('__m_' + s)}" for s in present)
    tail_cols += "".join(f", {signal_sql[s]} IS NOT NULL AS {quote_ident('__pr_' + s)}" for s in present if kinds[s] != "number")
    join = "" if single else " JOIN __files ON __files.__path = c.file"
    flagged = head + _Frag(f"{tail_cols} FROM ({canon}) AS c{join}", list(params))
    partial = []  # per (cell, pattern); summed per cell and per task below
    for j, s in enumerate(present):
        partial.append(f"coalesce(count_if({quote_ident('__m_' + s)}), 0) AS __cm{j}")  # count_if: faster than FILTER
        if kinds[s] != "number":
            partial.append(f"coalesce(count_if({quote_ident('__pr_' + s)}), 0) AS __cp{j}")
    keys = ", ".join(f"__p{w}" for w in range(words))
    grouped = _Frag(f"CREATE TEMP TABLE __groups AS SELECT task, model, question_id, {keys}, count(*)::BIGINT AS n, "
                    f"coalesce(count_if(o = 1), 0) AS nc, min(first) AS first, {', '.join(partial + ['0 AS __none'])} "
                    "FROM (") + flagged + _Frag(f") GROUP BY task, model, question_id, {keys}")
    con.execute(grouped.text, grouped.params)

    def holds(i):  # category i's condition holds (integer literals only)
        return f"(__p{i // _WORD} & {1 << (i % _WORD)}) <> 0"

    coded = "(SELECT *, CASE " + " ".join(f"WHEN {holds(i)} THEN {i}" for i in range(C)) + " ELSE -1 END AS code FROM __groups)"
    counts = ", ".join(f"coalesce(sum(n) FILTER (WHERE code = {i}), 0) AS c{i}" for i in range(C))
    cells = con.execute(f"SELECT task, model, question_id, sum(n) AS n_trials, sum(nc) AS n_correct, "
                        f"coalesce(sum(n) FILTER (WHERE code < 0), 0) AS unmatched, {counts}, min(first) AS first "
                        f"FROM {coded} GROUP BY task, model, question_id ORDER BY first").df()
    stats = ["sum(n) AS n", "coalesce(sum(n) FILTER (WHERE code < 0), 0) AS unmatched"]
    for j, s in enumerate(present):
        stats += [f"sum(__cm{j})", f"coalesce(sum(__cm{j}) FILTER (WHERE code < 0), 0)"]
        stats += [f"sum(__cp{j})"] if kinds[s] != "number" else []
    for i in range(C):
        # the codes taken where category i's condition holds: a bitstring, bit code + 1 set (codes -1..C-1)
        stats += [f"coalesce(sum(n) FILTER (WHERE {holds(i)}), 0)", f"bitstring_agg(code + 1, 0, {int(C)}) FILTER (WHERE {holds(i)})"]
    rows = con.execute(f"SELECT task, {', '.join(stats)} FROM {coded} GROUP BY task").fetchall()
    takers = len(rows[0]) - 2 * C if rows else 0  # where the (count, bitstring) pairs start; bitstrings -> code lists
    rows = [r[:takers] + tuple(v if k % 2 == 0 else [b - 1 for b, bit in enumerate(v or "") if bit == "1"]
                               for k, v in enumerate(r[takers:])) for r in rows]
    coverage = coverage_of(rows, present, kinds, C)
    for key in ("task", "model", "question_id"):
        cells[key] = cells[key].astype(object).map(str)
    cells = cells.drop(columns="first")
    for col in ["n_trials", "n_correct", "unmatched"] + [f"c{i}" for i in range(C)]:
        cells[col] = cells[col].astype(np.int64)
    return cells, coverage
