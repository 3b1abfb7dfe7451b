"""DuckDB counting passes: validate attempt (or count) rows and tally them per (model, task, question) in SQL.

Shared by the DuckDB counts engine (:mod:`scorio_core.engines.duckdb_engine`), prefix counts
(:mod:`scorio_core.engines.prefix`) and the rubric counts (:mod:`scorio_core.engines.rubric.counts`).
Safety as in :mod:`scorio_core.engines.duckdb_engine`: every constant is a prepared-statement
parameter; column names come from the files' own schemas.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from scorio_core.engines._sql import NotReadyError, refuse_no_rows
from scorio_core.engines.duckdb_inputs import Group
from scorio_core.errors import InputError, decimal_comma_hint
from scorio_core.io.formats.recoding import (mixed_labels_hint, outcome_labels, percent_scores_hint, suggest_scale,
                                             text_scores_hint, trial_labels_hint)
from scorio_core.io.quality.compute import blocking_messages
from scorio_core.io.quality.report import DuplicateKey, with_duplicate_example
from scorio_core.engines.frames import ID_KEYS, order_rows

__all__ = ["count_attempts", "count_counts"]

_MAX_SPAN = 1024  # trial range up to which duplicate keys are found with a per-cell bitmap (one pass)
_WORDS = 2  # trial ranges up to 64 * _WORDS values use UBIGINT words instead of a bitstring
_SAMPLE = 100_000  # rows whose trial range sets the bitmaps' range


def _check_ids(con, canon: str, params: list, cells: dict) -> None:
    for key in ("model", "task", "question_id"):
        values = cells[key]
        missing = np.ma.getmaskarray(values) if isinstance(values, np.ma.MaskedArray) else pd.isna(np.asarray(values, dtype=object))
        text = pd.Series(np.asarray(values, dtype=object), dtype=object).where(~missing, "")
        empty = missing | (text.astype(str).str.strip() == "").to_numpy()
        if empty.any():
            row = con.execute(f"SELECT file FROM ({canon}) WHERE {key} IS NULL OR trim({key}) = '' LIMIT 1", params).fetchone()
            raise InputError(f"field '{key}' is empty; every row needs a value.",
                             source=os.path.basename(row[0]) if row else None, field=key)


def _example(con, canon: str, params: list, where: str, what: str = "raw_o"):
    """The file and raw value of one row matching ``where``; the file name carries the row's key (model, task,
    question), which finds the row as a line number would (the SQL scan has no line numbers)."""
    row = con.execute(f"SELECT file, {what}, model, task, question_id FROM ({canon}) WHERE {where} LIMIT 1",
                      params).fetchone()
    if not row:
        return None, None
    key = ", ".join(f"{k} {str(v)[:80]!r}" for k, v in zip(("model", "task", "question"), row[2:]) if v is not None)
    return f"{os.path.basename(row[0])} (the row of {key})" if key else os.path.basename(row[0]), row[1]


def count_attempts(con, canon: str, params: list, groups: list[Group], with_trial: bool):
    """Validate and tally attempt rows per (model, task, question) in one SQL pass.

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
    canon, params : str, list
        The canonical ``SELECT`` and its parameters (:func:`~scorio_core.engines.duckdb_inputs.prepare_inputs`).
    groups : list of Group
        The input groups (named in errors).
    with_trial : bool
        Whether the rows have a trial column (duplicate (cell, trial) keys are then looked for).

    Returns
    -------
    cells : dict of ndarray
        ``model, task, question_id, n_trials, n_correct`` (and internal tallies), one entry per cell; and
        ``partial_by_file``: file path -> (attempts with a score strictly between 0 and 1, of them outcome 0), for
        the files with any (:func:`scorio_core.engines._sql.partial_credit_notes`); ``errors_by_file``: file path ->
        (attempts an error column marks, of them outcome 1, one error value), for the files with any
        (:func:`scorio_core.engines._sql.recorded_error_notes`).
    per_file : dict
        Input rows per file path.
    n_attempts : int

    Raises
    ------
    InputError
        An input file without rows, an empty identifier, a trial that is not a whole number, an outcome
        outside 0/1/booleans.
    NotReadyError
        Soft or missing outcomes, duplicate (model, task, question, trial) keys (the pandas report's messages).
    """
    span_sql = ""
    span_params: list = []
    lo = hi = 0
    if with_trial:
        # the trial range of the first rows (one parse of a CSV instead of two); trials outside it are counted and,
        # if there are any, duplicates are looked for with a GROUP BY on (cell, trial) instead of the bitmaps
        lo, hi = con.execute(f"SELECT min(trial), max(trial) FROM (SELECT trial FROM ({canon}) LIMIT {_SAMPLE})",
                             params).fetchone()
        lo, hi = (int(lo), int(hi)) if lo is not None else (0, 0)
        if hi - lo < _WORDS * 64:
            # up to 128 trial values: the distinct trials of a cell as the bits of one or two UBIGINT words (bit_or of
            # shifted ones: exact, and about twice as fast as bitstring_agg); trials outside the range are clamped
            # into it and counted in out_t, which then sends the check to the GROUP BY below
            words = (hi - lo) // 64 + 1
            shifted = "least(greatest(trial, ?), ?) - ?"
            if words == 1:
                span_sql = f", bit_or(1::UBIGINT << ({shifted})::UBIGINT) AS bits0"
                span_params = [lo, hi, lo]
            else:
                span_sql = "".join(
                    f", bit_or(CASE WHEN {shifted} BETWEEN {64 * w} AND {64 * w + 63} THEN 1::UBIGINT << "
                    f"({shifted} - {64 * w})::UBIGINT ELSE 0::UBIGINT END) AS bits{w}" for w in range(words))
                span_params = [lo, hi, lo] * (2 * words)
            span_sql += ", count_if(trial < ? OR trial > ?) AS out_t"
            span_params += [lo, hi]
        elif hi - lo < _MAX_SPAN:
            # trials outside the range are clamped into it (a FILTER costs ~2x here): they are counted in out_t and,
            # if there are any, the bitmaps are not used
            words = 0
            span_sql = (", bitstring_agg(least(greatest(trial, ?), ?), ?, ?) AS bits, "
                        "count_if(trial < ? OR trial > ?) AS out_t")
            span_params = [lo, hi] * 3
    # one pass: per (file, cell) tallies; the per-file rows and the per-cell counts both come from it
    # (one input file: no file key, which saves hashing the file name of every row)
    paths = [p for g in groups for p in g.paths]
    single = len(paths) == 1
    errs = any(g.error_column for g in groups)  # attempts an error column marks: counted for the load note
    err_sql = ", count_if(err) AS e, count_if(err AND o = 1) AS ec" if errs else ""
    con.execute(
        f"CREATE TEMP TABLE __by_file AS SELECT {'' if single else 'file, '}model, task, question_id, count(*) AS n, "
        f"count_if(o = 1) AS c, count_if(o = 0) AS z, count_if(bad_t) AS bad_t, count_if(bad_o) AS bad_o, "
        f"count_if(s > 0 AND s < 1 AND o IS NOT NULL) AS p, count_if(s > 0 AND s < 1 AND o = 0) AS pw{err_sql}{span_sql} "
        f"FROM ({canon}) GROUP BY ALL",  # count_if: 1.7x faster than count(*) FILTER; NULL, not 0, where every o is NULL
        span_params + params,
    )
    total = "coalesce(sum({0}), 0)::BIGINT AS {0}".format
    if span_sql and words:
        distinct = ", " + " + ".join(f"bit_count(bit_or(bits{w}))::BIGINT" for w in range(words)) + f" AS d, {total('out_t')}"
    else:
        distinct = f", bit_count(bit_or(bits)) AS d, {total('out_t')}" if span_sql else ""
    cells = con.execute(
        f"SELECT model, task, question_id, sum(n)::BIGINT AS n_trials, coalesce(sum(c), 0)::BIGINT AS n_correct, "
        f"{total('z')}, {total('bad_t')}, {total('bad_o')}, {total('p')}, {total('pw')}"
        f"{', ' + total('e') + ', ' + total('ec') if errs else ''}{distinct} FROM __by_file GROUP BY ALL"
    ).fetchnumpy()
    if single:
        per_file = {paths[0]: int(np.asarray(cells["n_trials"]).sum())}
        partial = {paths[0]: (int(np.asarray(cells["p"]).sum()), int(np.asarray(cells["pw"]).sum()))}
        errored = {paths[0]: (int(np.asarray(cells["e"]).sum()), int(np.asarray(cells["ec"]).sum()))} if errs else {}
    else:
        by_file = con.execute("SELECT file, sum(n)::BIGINT, coalesce(sum(p), 0)::BIGINT, coalesce(sum(pw), 0)::BIGINT"
                              f"{', coalesce(sum(e), 0)::BIGINT, coalesce(sum(ec), 0)::BIGINT' if errs else ''} "
                              "FROM __by_file GROUP BY file").fetchall()
        per_file, partial = {r[0]: int(r[1]) for r in by_file}, {r[0]: (int(r[2]), int(r[3])) for r in by_file}
        errored = {r[0]: (int(r[4]), int(r[5])) for r in by_file} if errs else {}
    cells["partial_by_file"] = {f: kw for f, kw in partial.items() if kw[0]}  # (partial scores, of them outcome 0)
    refuse_no_rows([f for g in groups for f in g.files], per_file)  # the pandas loader's messages, naming the file
    _check_ids(con, canon, params, cells)
    n = cells["n_trials"]
    if cells["bad_t"].sum():
        name, raw = _example(con, canon, params, "bad_t", "CAST(trial AS VARCHAR)")
        got = "an empty value or text" if raw is None else repr(raw)
        hint = trial_labels_hint() if raw is None else decimal_comma_hint(raw)  # None: the value did not cast (text)
        raise InputError(f"field 'trial' must be a whole number (trial index or seed); got {got}.{hint}", source=name, field="trial")
    if cells["bad_o"].sum():
        name, raw = _example(con, canon, params, "bad_o")
        found = [r[0] for r in con.execute(f"SELECT DISTINCT raw_o FROM ({canon}) WHERE bad_o LIMIT 21", params).fetchall()]
        hint = text_scores_hint(found) or (  # words among numbers (ERROR, timeout): missing or failures, the user's call
            mixed_labels_hint(found) if con.execute(f"SELECT count(o) FROM ({canon})", params).fetchone()[0] else "")
        err = InputError(f"field 'is_correct' must be 0 or 1 (true/false); got {raw!r}.{hint}", source=name, field="is_correct")
        err.labels = outcome_labels(found)  # text only: bad_o is a value that is not a number (the app's recoding form)
        raise err
    soft = missing = dup_rows = conflicting = 0
    if (cells["n_correct"] + cells["z"] != n).any():
        # a blank outcome beside a score graded in its task is graded, not missing (as io.quality.report.graded_mask)
        bad, soft, missing, low, high, graded = con.execute(
            f"WITH c AS ({canon}) SELECT count(*) FILTER (WHERE o < 0 OR o > 1), count(*) FILTER (WHERE o > 0 AND o < 1), "
            f"count(*) FILTER (WHERE o IS NULL), min(o), max(o), count(*) FILTER (WHERE o IS NULL AND s IS NOT NULL AND "
            f"isfinite(s) AND (s > 0 AND s < 1 OR task IN (SELECT task FROM c WHERE o IS NULL AND s > 0 AND s < 1) AND task "
            f"NOT IN (SELECT task FROM c WHERE o IS NOT NULL))) "
            f"FROM c", params).fetchone()
        soft, missing = soft + graded, missing - graded
        if bad:
            name, raw = _example(con, canon, params, "o < 0 OR o > 1")
            raise suggest_scale(InputError(f"field 'is_correct' must be 0 or 1 (or a soft score in [0, 1]); got {raw!r}."
                                           f"{percent_scores_hint(low, high)}", source=name, field="is_correct"), low, high)
    if with_trial:
        bitmaps = span_sql and not cells["out_t"].any()  # every trial in the sampled range: the bitmaps decide
        has_dups = bool((cells["d"] != n).any()) if bitmaps else bool(con.execute(
            f"SELECT count(*) FROM (SELECT 1 FROM ({canon}) GROUP BY model, task, question_id, trial HAVING count(*) > 1)",
            params).fetchone()[0])
        if has_dups:
            dup_rows, _, conflicting = con.execute(
                f"SELECT sum(k - 1)::BIGINT, count(*), count(*) FILTER (WHERE nd > 1) FROM (SELECT count(*) AS k, "
                f"count(DISTINCT coalesce(o, -1)) AS nd FROM ({canon}) GROUP BY model, task, question_id, trial "
                "HAVING count(*) > 1)", params).fetchone()
    blocking = blocking_messages(soft, missing, dup_rows, conflicting)
    if blocking:
        names = ", ".join(g.label for g in groups)
        first = blocking[0]
        if dup_rows:  # name one repeated key and its files, as the pandas loader does (a conflicting key first)
            row = con.execute(
                f"SELECT model, task, question_id, trial, count(*), count(DISTINCT coalesce(o, -1)) > 1 AS conflict, "
                f"list(DISTINCT file ORDER BY file) FROM ({canon}) GROUP BY model, task, question_id, trial "
                "HAVING count(*) > 1 ORDER BY conflict DESC, model, task, question_id, trial LIMIT 1", params).fetchone()
            first = with_duplicate_example(first, DuplicateKey(
                str(row[0]), str(row[1]), str(row[2]), int(row[3]), int(row[4]), bool(row[5]), (),
                tuple(os.path.basename(str(f)) for f in row[6])))
        raise NotReadyError(f"{first} The DuckDB engine counts only ready data; use --engine pandas with the "
                            "choice.", source=names, blocking=tuple(blocking))
    cells["errors_by_file"] = _error_examples(con, canon, params, errored)
    return cells, per_file, int(n.sum())


def _error_examples(con, canon: str, params: list, errored: dict) -> dict:
    """File path -> (attempts whose error is set, of them correct, one error value), for the files with any; the
    smallest value as the example, so the note does not change between runs (one scan more, only when there are)."""
    errored = {f: ke for f, ke in errored.items() if ke[0]}
    if not errored:
        return {}
    examples = dict(con.execute(f"SELECT file, min(raw_err) FROM ({canon}) WHERE err GROUP BY file", params).fetchall())
    return {f: (k, kc, examples.get(f, "")) for f, (k, kc) in errored.items()}


def count_counts(con, canon: str, params: list, groups: list[Group]):
    """Count-table rows -> cells. A count table has one row per cell (10^7 rows for 10^8 attempts), so the
    identifiers are dictionary-encoded in SQL: only the distinct values and integer codes reach Python."""
    dicts = _id_dicts(con, canon, params)
    joins = " ".join(f"JOIN __dict_{k} AS d_{k} ON src.{k} = d_{k}.v" for k in ID_KEYS)
    # no GROUP BY: one row per cell is the only ready input, so duplicates are found on the codes in numpy
    cells = con.execute(
        f"SELECT {', '.join(f'd_{k}.i AS {k}' for k in ID_KEYS)}, src.n_trials, src.n_correct, "
        f"coalesce(src.bad_n OR src.n_trials < 1, FALSE) AS bad_n, "
        f"coalesce(src.bad_c OR src.n_correct < 0 OR src.n_correct > src.n_trials, FALSE) AS bad_c "
        f"FROM ({canon}) AS src {joins}", params).fetchnumpy()
    per_file = dict(con.execute(f"SELECT file, count(*)::BIGINT FROM ({canon}) GROUP BY file", params).fetchall())
    refuse_no_rows([f for g in groups for f in g.files], per_file)
    for fld, cond in (("n_trials", "bad_n OR n_trials < 1"), ("n_correct", "bad_c OR n_correct < 0 OR n_correct > n_trials")):
        if cells["bad_n" if fld == "n_trials" else "bad_c"].any():
            row = con.execute(f"SELECT file, n_trials, n_correct FROM ({canon}) WHERE {cond} LIMIT 1", params).fetchone()
            raise InputError(f"field '{fld}' must be a whole number with 1 <= n_trials and 0 <= n_correct <= n_trials; "
                             f"got n_trials={row[1]}, n_correct={row[2]}.", source=os.path.basename(row[0]), field=fld)
    # one combined key gives both the duplicates and the row order count_frame needs (codes already in natural order)
    order, n_dup = order_rows([cells[k] for k in ID_KEYS], [len(dicts[k]) for k in ID_KEYS])
    if n_dup:  # the pandas loader's message, with one repeated key and its files named (a conflicting key first)
        repeated = (f"SELECT model, task, question_id, count(*) AS k, count(DISTINCT (n_trials, n_correct)) > 1 AS "
                    f"conflict, list(DISTINCT file ORDER BY file) AS files FROM ({canon}) GROUP BY model, task, "
                    "question_id HAVING count(*) > 1")
        conflicts = con.execute(f"SELECT count(*) FILTER (WHERE conflict) FROM ({repeated})", params).fetchone()[0]
        row = con.execute(f"SELECT * FROM ({repeated}) ORDER BY conflict DESC, model, task, question_id LIMIT 1",
                          params).fetchone()
        blocking = blocking_messages(0, 0, n_dup, int(conflicts), counts_layout=True)
        first = with_duplicate_example(blocking[0], DuplicateKey(
            str(row[0]), str(row[1]), str(row[2]), -1, int(row[3]), bool(row[4]), (),
            tuple(os.path.basename(str(f)) for f in row[5])), counts_layout=True)
        raise NotReadyError(f"{first} The DuckDB engine counts only ready data; use --engine pandas with the choice.",
                            blocking=tuple(blocking),
                            source=", ".join(g.label for g in groups))
    return {**cells, "__order": order, **{f"{k}__values": v for k, v in dicts.items()}}, per_file



def _id_dicts(con, canon: str, params: list) -> dict[str, list]:
    """Distinct values of each identifier as temp tables ``__dict_<key> (v, i)``, ``i`` = 0-based code in natural
    order (as :func:`~scorio_core.engines.frames.count_frame` orders categories, so the codes the JOIN returns
    need no remapping); checks them (no missing or empty identifier) and returns the values in code order."""
    import pyarrow as pa

    from scorio_core.engines.frames import natural_order

    found = {key: [r[0] for r in con.execute(f"SELECT DISTINCT {key} FROM ({canon})", params).fetchall()] for key in ID_KEYS}
    _check_ids(con, canon, params, {k: np.asarray(v, dtype=object) for k, v in found.items()})
    out = {}
    for key in ID_KEYS:
        values = natural_order([str(v) for v in found[key]])
        staged = pa.table({"v": pa.array(values, pa.string()), "i": pa.array(np.arange(len(values), dtype=np.int32))})
        con.register("__dict_staged", staged)  # a registered Arrow table: values never enter SQL text
        try:
            con.execute(f"CREATE TEMP TABLE __dict_{key} AS SELECT v, i FROM __dict_staged")
        finally:
            con.unregister("__dict_staged")
        out[key] = values
    return out
