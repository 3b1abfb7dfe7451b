"""DuckDB counts engine: attempt-level files -> count table in SQL, out of core.

The attempt table never reaches pandas: DuckDB scans the files (CSV/TSV/Parquet/JSONL, gzip,
many files at once), validates every value with SQL predicates and tallies
``(model, task, question_id) -> n_trials, n_correct``. Only the count table (one row per
cell) and, on bad input, one example row come back to Python.

Safety: file paths, file stems and every constant travel as prepared-statement parameters;
column names come from the files' own schemas (checked by :func:`infer_mapping`) and are
spliced only through :func:`quote_ident`. User text is never formatted into SQL.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._dataset import Dataset, SourceInfo
from scorio_core.io._quality import blocking_messages, compute_report
from scorio_core.io._schema import MappingGuess, infer_mapping
from scorio_core.io.engines.frames import ID_KEYS, count_frame, n_duplicate_keys
from scorio_core.io.engines._sql import (
    EngineUnsupported,
    InputFile,
    NotReadyError,
    expand_inputs,
    quote_ident,
)

__all__ = ["load_counts_duckdb"]

_FILE_COL = "__scorio_file__"
_INT_TYPES = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"}
_FLOAT_TYPES = {"FLOAT", "DOUBLE", "REAL"}
_EMPTY = ("", "nan", "none", "null", "na", "n/a")
_TRUE = ("1", "1.0", "true", "t")
_FALSE = ("0", "0.0", "false", "f")
_MAX_SPAN = 1024  # trial range up to which duplicate keys are found with a per-cell bitmap (one pass)
_SAMPLE = 100_000  # rows whose trial range sets the bitmaps' range
_EXACT = "9007199254740992"  # 2**53


def _kind(typ: str) -> str:
    t = typ.upper()
    if t in _INT_TYPES:
        return "int"
    if t in _FLOAT_TYPES or t.startswith("DECIMAL"):
        return "float"
    if t == "VARCHAR":
        return "text"
    if t == "BOOLEAN":
        return "bool"
    return "other"


def _sql_list(values: Sequence[str]) -> str:
    # only for this module's own constant tokens (never user text)
    return "(" + ", ".join("'" + v.replace("'", "''") + "'" for v in values) + ")"


def _id_expr(col: str, typ: str, field: str, source: str) -> str:
    q = quote_ident(col)
    kind = _kind(typ)
    if kind == "text":
        return q
    if kind == "int":
        return f"CAST({q} AS VARCHAR)"
    if kind == "float":  # like the pandas loader: 3.0 -> '3'
        return (f"CASE WHEN {q} = round({q}) AND abs({q}) < {_EXACT} THEN CAST(CAST({q} AS BIGINT) AS VARCHAR) "
                f"ELSE CAST({q} AS VARCHAR) END")
    if kind == "bool":
        return f"CASE WHEN {q} THEN 'True' WHEN NOT {q} THEN 'False' END"
    raise EngineUnsupported(f"column '{col}' (field '{field}') has type {typ}, which the DuckDB engine does not read as an "
                            "identifier; use --engine pandas.", source=source, field=field)


def _number_expr(col: str, typ: str, field: str, source: str, *, booleans: bool) -> tuple[str, str]:
    """(value as DOUBLE or NULL when empty, TRUE where a present value is not a number)."""
    q = quote_ident(col)
    kind = _kind(typ)
    if kind in ("int", "float", "bool"):
        value = f"CAST({q} AS DOUBLE)"
        return (f"CASE WHEN isnan({value}) THEN NULL ELSE {value} END" if kind == "float" else value), "FALSE"
    if kind != "text":
        raise EngineUnsupported(f"column '{col}' (field '{field}') has type {typ}, which the DuckDB engine cannot read as "
                                "a number; use --engine pandas.", source=source, field=field)
    v = f"lower(trim({q}))"
    parts = [f"WHEN {q} IS NULL OR {v} IN {_sql_list(_EMPTY)} THEN NULL"]
    if booleans:
        parts += [f"WHEN {v} IN {_sql_list(_TRUE)} THEN 1.0", f"WHEN {v} IN {_sql_list(_FALSE)} THEN 0.0"]
    value = f"CASE {' '.join(parts)} ELSE TRY_CAST({v} AS DOUBLE) END"
    known = _sql_list(_EMPTY + (_TRUE + _FALSE if booleans else ()))
    bad = f"({q} IS NOT NULL AND {v} NOT IN {known} AND TRY_CAST({v} AS DOUBLE) IS NULL)"
    return value, bad


def _int_expr(col: str, typ: str, field: str, source: str) -> tuple[str, str]:
    """(value as BIGINT or NULL, TRUE where the value is missing or not a whole number)."""
    q = quote_ident(col)
    if _kind(typ) == "int":
        return f"CAST({q} AS BIGINT)", f"({q} IS NULL)"
    value, bad = _number_expr(col, typ, field, source, booleans=False)
    ok = f"({value} IS NOT NULL AND {value} = round({value}) AND abs({value}) < {_EXACT})"
    return f"CASE WHEN {ok} THEN CAST({value} AS BIGINT) END", f"(NOT coalesce({ok}, FALSE) OR {bad})"


class _Group:
    """Files of one format read by one DuckDB table function."""

    def __init__(self, fmt: str, files: list[InputFile]):
        self.fmt, self.files = fmt, files
        self.paths = [f.path for f in files]
        self.label = files[0].name if len(files) == 1 else f"{files[0].name} and {len(files) - 1} more"

    def reader(self, types: Mapping[str, str] | None = None) -> tuple[str, list]:
        if self.fmt == "parquet":
            return "read_parquet(?, union_by_name = true, filename = ?)", [self.paths, _FILE_COL]
        if self.fmt == "jsonl":
            return "read_json(?, format = 'newline_delimited', union_by_name = true, filename = ?)", [self.paths, _FILE_COL]
        sql = "read_csv(?, header = true, delim = ?, union_by_name = true, filename = ?"
        params: list = [self.paths, _delimiter(self.files[0], self.fmt), _FILE_COL]
        if types:
            sql += ", types = ?"
            params.append(dict(types))
        return sql + ")", params


def _delimiter(f: InputFile, fmt: str) -> str:
    """Same rule as the pandas reader: TSV is tab; CSV is ';' when the header has more ';' than ','."""
    if fmt == "tsv":
        return "\t"
    opener = gzip.open if f.path.lower().endswith(".gz") else open
    try:
        with opener(f.path, "rb") as fh:
            first = fh.readline(1 << 20)
    except OSError as exc:
        raise InputError(f"cannot read the file ({exc}).", source=f.name) from None
    return ";" if first.count(b";") > first.count(b",") else ","


def _connect(memory_limit: str | None, temp_directory: str | None, threads: int | None):
    import duckdb

    config: dict = {"preserve_insertion_order": False}
    if memory_limit:
        config["memory_limit"] = str(memory_limit)
    if temp_directory:
        config["temp_directory"] = str(temp_directory)
    if threads:
        config["threads"] = int(threads)
    try:
        con = duckdb.connect(":memory:", config=config)
        con.execute("SET enable_progress_bar = false")  # no bars on stderr: the CLI's errors stay one line
        return con
    except duckdb.Error as exc:
        raise InputError(f"invalid DuckDB setting ({str(exc).splitlines()[0]}); check memory_limit and temp_directory.") from None


def _duck_error(exc: Exception, group: _Group, guess: MappingGuess | None = None) -> InputError:
    """A DuckDB exception -> one-line InputError naming the file, line and field when DuckDB knows them."""
    text = str(exc)
    name = group.label
    m = re.search(r"\bfile = (.+)", text)
    if m:
        name = os.path.basename(m.group(1).strip())
    line = re.search(r"Line: (\d+)", text)
    col = re.search(r'converting column "((?:[^"]|"")*)"', text)
    field = None
    if col:
        column = col.group(1)
        by_column = {v: k for k, v in (guess.mapping.items() if guess else ())}
        field = by_column.get(column, column)
        got = re.search(r'Could not convert string "(.*?)" to', text)
        what = "must be 0 or 1 (true/false)" if field == "is_correct" else "has a value of the wrong type"
        return InputError(f"field '{field}' {what}; got {got.group(1)!r}." if got else f"field '{field}' {what}.",
                          source=name, line=int(line.group(1)) if line else None, field=field)
    first = next((t for t in text.splitlines() if t.strip()), type(exc).__name__)
    return InputError(f"cannot read the file with DuckDB ({first[:200]}); check its format or use --engine pandas.",
                      source=name, line=int(line.group(1)) if line else None)


def _describe(con, group: _Group) -> list[tuple[str, str]]:
    import duckdb

    sql, params = group.reader()
    try:
        rows = con.execute(f"DESCRIBE SELECT * FROM {sql}", params).fetchall()
    except duckdb.Error as exc:
        raise _duck_error(exc, group) from None
    return [(r[0], r[1]) for r in rows if r[0] != _FILE_COL]


_SPLIT_MAX = 64  # up to this many files, files with different columns get their own mapping (as with pandas)


def _split_by_columns(con, groups: list[_Group]) -> list[_Group]:
    """Split each format group by column set when it has few files, so each gets its own mapping."""
    out = []
    for g in groups:
        if len(g.files) == 1 or len(g.files) > _SPLIT_MAX:
            out.append(g)
            continue
        by_cols: dict[tuple, list[InputFile]] = {}
        for f in g.files:
            by_cols.setdefault(tuple(_describe(con, _Group(g.fmt, [f]))), []).append(f)
        out.extend(_Group(g.fmt, fs) for fs in by_cols.values())
    return out


def _canonical_select(con, group: _Group, mapping: Mapping[str, str] | None, *,
                      positions: bool = False) -> tuple[str, list, MappingGuess, list[str]]:
    """SQL (and its parameters) giving the group's rows under canonical names, plus the mapping used."""
    columns = _describe(con, group)
    names = [c for c, _ in columns]
    types = dict(columns)
    if len(set(names)) != len(names):
        dup = next(c for c in names if names.count(c) > 1)
        raise InputError(f"column '{dup}' appears twice; rename one of them.", source=group.label, field=dup)
    guess = infer_mapping(names, mapping, source=group.label)
    guess.raise_if_unresolved(group.label)
    if guess.layout == "wide":
        raise EngineUnsupported("wide tables (one column per trial) are read by the pandas engine; use --engine pandas.",
                                source=group.label)
    if "category" in guess.mapping:
        raise EngineUnsupported("rubric category codes are read by the pandas engine; use --engine pandas.", source=group.label)
    gm = guess.mapping
    src = group.label
    if group.fmt in ("csv", "tsv"):
        # read identifiers as text, as the pandas reader does ('007' stays '007')
        forced = {gm[k]: "VARCHAR" for k in ("model", "task", "question_id") if k in gm}
        sql, params = group.reader(forced)
        types.update(forced)
    else:
        sql, params = group.reader()
    defaults: list[str] = []
    select: list[str] = []
    sel_params: list = []
    for key in ("model", "task"):
        if key in gm:
            select.append(f"{_id_expr(gm[key], types[gm[key]], key, src)} AS {key}")
        else:
            select.append(f"__files.stem AS {key}")
            defaults += [f"{f.name}: no {key} column; {key} set to the file stem '{f.stem}'." for f in group.files]
    select.append(f"{_id_expr(gm['question_id'], types[gm['question_id']], 'question_id', src)} AS question_id")
    if guess.layout == "counts":
        nt, nt_bad = _int_expr(gm["n_trials"], types[gm["n_trials"]], "n_trials", src)
        nc, nc_bad = _int_expr(gm["n_correct"], types[gm["n_correct"]], "n_correct", src)
        select += [f"{nt} AS n_trials", f"{nc} AS n_correct", f"{nt_bad} AS bad_n", f"{nc_bad} AS bad_c"]
    else:
        if "trial" in gm:
            tr, tr_bad = _int_expr(gm["trial"], types[gm["trial"]], "trial", src)
            select += [f"{tr} AS trial", f"{tr_bad} AS bad_t"]
        else:
            select += ["CAST(NULL AS BIGINT) AS trial", "FALSE AS bad_t"]
        o, o_bad = _number_expr(gm["is_correct"], types[gm["is_correct"]], "is_correct", src, booleans=True)
        select += [f"{o} AS o", f"{o_bad} AS bad_o", f"CAST({quote_ident(gm['is_correct'])} AS VARCHAR) AS raw_o"]
    select.append(f"src.{quote_ident(_FILE_COL)} AS file")
    if positions:
        select.append("src.ordinality AS pos")
        sql += " WITH ORDINALITY"
    join = f" LEFT JOIN __files ON __files.path = src.{quote_ident(_FILE_COL)}" if ("model" not in gm or "task" not in gm) else ""
    text = f"SELECT {', '.join(select)} FROM {sql} AS src{join}"
    return text, params + sel_params, guess, defaults


class _Prepared(NamedTuple):
    """The canonical attempt/count rows of every input as one SQL text, with what produced them."""

    canon: str
    params: list
    groups: list
    guesses: list
    defaults: list
    layout: str
    with_trial: bool


def engine_files(paths, format: str | None = None) -> list[InputFile]:
    """Expand inputs for DuckDB; refuse files whose format only the pandas readers know."""
    files = expand_inputs(paths, format)
    unknown = [f for f in files if f.format is None]
    if unknown:
        raise EngineUnsupported("the DuckDB engine reads CSV, TSV, Parquet and JSONL tables only (by suffix, .gz allowed); "
                                "use --engine pandas or --format.", source=unknown[0].name)
    return files


def prepare_inputs(con, files: list[InputFile], mapping: Mapping[str, str] | None, *, positions: bool = False) -> _Prepared:
    """Register the files, infer each group's mapping and build the canonical ``SELECT`` (shared by every DuckDB view).

    ``positions`` adds ``pos``: the row's ordinal in its group's scan (monotone within a file), so
    the first appearance of a model can be found as the pandas loader sees it.
    """
    groups: dict[str, list[InputFile]] = {}
    for f in files:
        groups.setdefault(f.format, []).append(f)
    con.execute("CREATE TEMP TABLE __files (path VARCHAR, stem VARCHAR, name VARCHAR)")
    con.executemany("INSERT INTO __files VALUES (?, ?, ?)", [[f.path, f.stem, f.name] for f in files])
    selects, params, guesses, defaults = [], [], [], []
    group_objs = _split_by_columns(con, [_Group(fmt, fs) for fmt, fs in groups.items()])
    for g in group_objs:
        s, p, guess, d = _canonical_select(con, g, mapping, positions=positions)
        selects.append(s)
        params += p
        guesses.append(guess)
        defaults += d
    layouts = {g.layout for g in guesses}
    if len(layouts) > 1:
        raise EngineUnsupported("the inputs mix count tables and attempt tables; use --engine pandas.",
                                source=", ".join(g.label for g in group_objs))
    layout = layouts.pop()
    with_trial = {"trial" in g.mapping for g in guesses}
    if layout == "attempts" and len(with_trial) > 1:
        raise EngineUnsupported("some inputs have a trial column and some do not; use --engine pandas.",
                                source=", ".join(g.label for g in group_objs))
    canon = " UNION ALL BY NAME ".join(f"({s})" for s in selects)
    return _Prepared(canon, params, group_objs, guesses, defaults, layout, with_trial.pop())


def source_infos(prep: _Prepared, per_file: Mapping[str, int], hash_files: bool) -> tuple[SourceInfo, ...]:
    """One :class:`SourceInfo` per file (rows = the file's input rows)."""
    return tuple(
        SourceInfo(f.name, f.format, _sha256(f.path) if hash_files else "", int(per_file.get(f.path, 0)), prep.layout,
                   tuple(guess.mapping.items()))
        for g, guess in zip(prep.groups, prep.guesses) for f in g.files
    )


def load_counts_duckdb(
    paths,
    *,
    mapping: Mapping[str, str] | None = None,
    format: str | None = None,
    memory_limit: str | None = "2GB",
    temp_directory: str | None = None,
    threads: int | None = None,
    hash_files: bool = True,
) -> Dataset:
    """Count attempt-level (or count-level) table files with DuckDB; see :func:`scorio_core.io.engines.load_counts`."""
    import duckdb

    files = engine_files(paths, format)
    con = _connect(memory_limit, temp_directory, threads)
    try:
        prep = prepare_inputs(con, files, mapping)
        layout = prep.layout
        try:
            if layout == "counts":
                cells, per_file = _count_counts(con, prep.canon, prep.params, prep.groups)
            else:
                cells, per_file, n_attempts = _count_attempts(con, prep.canon, prep.params, prep.groups, prep.with_trial)
        except duckdb.Error as exc:
            raise _duck_error(exc, prep.groups[0], prep.guesses[0]) from None
    finally:
        con.close()
    table = count_frame(cells)
    infos = source_infos(prep, per_file, hash_files)
    notes = []
    if layout == "attempts":
        notes.append(f"{n_attempts:,} attempts counted by the DuckDB engine into {len(table):,} (model, task, question) "
                     "cells; trial order is not kept (`trajectory --engine duckdb` computes prefix counts itself).")
    meta = {
        "sources": tuple((i.name, i.format) for i in infos),
        "mappings": tuple((i.name, i.mapping) for i in infos),
        "defaults": tuple(prep.defaults),
        "notes": tuple(notes),
    }
    names = tuple(i.name for i in infos)
    report = compute_report(table, "counts", source_names=names, meta=meta)
    return Dataset(attempts=None, counts=table, report=report, sources=infos)


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
    row = con.execute(f"SELECT file, {what} FROM ({canon}) WHERE {where} LIMIT 1", params).fetchone()
    return (os.path.basename(row[0]), row[1]) if row else (None, None)


def _count_attempts(con, canon: str, params: list, groups: list[_Group], with_trial: bool):
    span_sql = ""
    span_params: list = []
    lo = hi = 0
    if with_trial:
        # the trial range of the first rows (one parse of a CSV instead of two); trials outside it are counted and,
        # if there are any, duplicates are looked for with a GROUP BY on (cell, trial) instead of the bitmaps
        lo, hi = con.execute(f"SELECT min(trial), max(trial) FROM (SELECT trial FROM ({canon}) LIMIT {_SAMPLE})",
                             params).fetchone()
        lo, hi = (int(lo), int(hi)) if lo is not None else (0, 0)
        if hi - lo < _MAX_SPAN:
            span_sql = (", bitstring_agg(trial, ?, ?) FILTER (WHERE trial BETWEEN ? AND ?) AS bits, "
                        "count(*) FILTER (WHERE trial < ? OR trial > ?) AS out_t")
            span_params = [lo, hi] * 3
    # one pass: per (file, cell) tallies; the per-file rows and the per-cell counts both come from it
    # (one input file: no file key, which saves hashing the file name of every row)
    paths = [p for g in groups for p in g.paths]
    single = len(paths) == 1
    con.execute(
        f"CREATE TEMP TABLE __by_file AS SELECT {'' if single else 'file, '}model, task, question_id, count(*) AS n, "
        f"count(*) FILTER (WHERE o = 1) AS c, count(*) FILTER (WHERE o = 0) AS z, "
        f"count(*) FILTER (WHERE bad_t) AS bad_t, count(*) FILTER (WHERE bad_o) AS bad_o{span_sql} "
        f"FROM ({canon}) GROUP BY ALL",
        span_params + params,
    )
    distinct = ", bit_count(bit_or(bits)) AS d, sum(out_t)::BIGINT AS out_t" if span_sql else ""
    cells = con.execute(
        f"SELECT model, task, question_id, sum(n)::BIGINT AS n_trials, sum(c)::BIGINT AS n_correct, sum(z)::BIGINT AS z, "
        f"sum(bad_t)::BIGINT AS bad_t, sum(bad_o)::BIGINT AS bad_o{distinct} FROM __by_file GROUP BY ALL"
    ).fetchnumpy()
    if single:
        per_file = {paths[0]: int(np.asarray(cells["n_trials"]).sum())}
    else:
        per_file = dict(con.execute("SELECT file, sum(n)::BIGINT FROM __by_file GROUP BY file").fetchall())
    _check_ids(con, canon, params, cells)
    n = cells["n_trials"]
    if cells["bad_t"].sum():
        name, raw = _example(con, canon, params, "bad_t", "CAST(trial AS VARCHAR)")
        got = "an empty value or text" if raw is None else repr(raw)
        raise InputError(f"field 'trial' must be a whole number (trial index or seed); got {got}.", source=name, field="trial")
    if cells["bad_o"].sum():
        name, raw = _example(con, canon, params, "bad_o")
        raise InputError(f"field 'is_correct' must be 0 or 1 (true/false); got {raw!r}.", source=name, field="is_correct")
    soft = missing = dup_rows = conflicting = 0
    if (cells["n_correct"] + cells["z"] != n).any():
        bad, soft, missing = con.execute(
            f"SELECT count(*) FILTER (WHERE o < 0 OR o > 1), count(*) FILTER (WHERE o > 0 AND o < 1), "
            f"count(*) FILTER (WHERE o IS NULL) FROM ({canon})", params).fetchone()
        if bad:
            name, raw = _example(con, canon, params, "o < 0 OR o > 1")
            raise InputError(f"field 'is_correct' must be 0 or 1 (or a soft score in [0, 1]); got {raw!r}.",
                             source=name, field="is_correct")
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
        raise NotReadyError(f"{blocking[0]} The DuckDB engine counts only ready data; use --engine pandas with the "
                            "choice.", source=names, blocking=tuple(blocking))
    return cells, per_file, int(n.sum())


def _count_counts(con, canon: str, params: list, groups: list[_Group]):
    """Count-table rows -> cells. A count table has one row per cell (10^7 rows for 10^8 attempts), so the
    identifiers are dictionary-encoded in SQL: only the distinct values and integer codes reach Python."""
    dicts = _id_dicts(con, canon, params)
    joins = " ".join(f"JOIN __dict_{k} AS d_{k} ON src.{k} = d_{k}.v" for k in _ID_KEYS)
    # no GROUP BY: one row per cell is the only ready input, so duplicates are found on the codes in numpy
    cells = con.execute(
        f"SELECT {', '.join(f'd_{k}.i AS {k}' for k in _ID_KEYS)}, src.n_trials, src.n_correct, "
        f"coalesce(src.bad_n OR src.n_trials < 1, FALSE) AS bad_n, "
        f"coalesce(src.bad_c OR src.n_correct < 0 OR src.n_correct > src.n_trials, FALSE) AS bad_c "
        f"FROM ({canon}) AS src {joins}", params).fetchnumpy()
    per_file = dict(con.execute(f"SELECT file, count(*)::BIGINT FROM ({canon}) GROUP BY file", params).fetchall())
    for fld, cond in (("n_trials", "bad_n OR n_trials < 1"), ("n_correct", "bad_c OR n_correct < 0 OR n_correct > n_trials")):
        if cells["bad_n" if fld == "n_trials" else "bad_c"].any():
            row = con.execute(f"SELECT file, n_trials, n_correct FROM ({canon}) WHERE {cond} LIMIT 1", params).fetchone()
            raise InputError(f"field '{fld}' must be a whole number with 1 <= n_trials and 0 <= n_correct <= n_trials; "
                             f"got n_trials={row[1]}, n_correct={row[2]}.", source=os.path.basename(row[0]), field=fld)
    n_dup = n_duplicate_keys([cells[k] for k in _ID_KEYS], [len(dicts[k]) for k in _ID_KEYS])
    if n_dup:
        raise NotReadyError(
            f"{n_dup} duplicate rows share a (model, task, question) key; choose apply_choices(duplicates="
            "'keep-first', 'keep-last', 'drop' or 'sum') or --duplicates. The DuckDB engine counts only ready data; use "
            "--engine pandas with the choice.", source=", ".join(g.label for g in groups))
    return {**cells, **{f"{k}__values": v for k, v in dicts.items()}}, per_file


_ID_KEYS = ID_KEYS


def _id_dicts(con, canon: str, params: list) -> dict[str, list]:
    """Distinct values of each identifier as temp tables ``__dict_<key> (v, i)`` (``i`` = 0-based code); checks them
    (no missing or empty identifier) and returns the values in code order."""
    out = {}
    for key in _ID_KEYS:
        con.execute(f"CREATE TEMP TABLE __dict_{key} AS SELECT v, (row_number() OVER () - 1)::INTEGER AS i "
                    f"FROM (SELECT DISTINCT {key} AS v FROM ({canon}))", params)
        out[key] = [r[0] for r in con.execute(f"SELECT v FROM __dict_{key} ORDER BY i").fetchall()]
    _check_ids(con, canon, params, {k: np.asarray(v, dtype=object) for k, v in out.items()})
    return out


def _sha256(path: str) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()
