"""How the DuckDB engines read their inputs: files, column mapping and the canonical ``SELECT``.

Shared by the counts engine (:mod:`scorio_core.engines.duckdb_engine`), the prefix counts of
trajectories (:mod:`scorio_core.engines.prefix`) and the rubric counts
(:mod:`scorio_core.engines.rubric.counts`): input files are grouped by format (and, for up to
64 files, by column set), each group's columns come from DuckDB (``DESCRIBE``) and its mapping
from :func:`scorio_core.io.infer_mapping`; every value is validated by the SQL expressions of
:mod:`scorio_core.engines.duckdb_values` (identifiers as text the way the pandas loader writes
them, outcomes as 0/1/booleans/empty tokens, whole-number trials and counts, error marks).

Safety: file paths, file stems and every constant travel as prepared-statement parameters;
column names come from the files' own schemas (checked by :func:`infer_mapping`) and are
spliced only through :func:`quote_ident`. User text is never formatted into SQL.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
from collections.abc import Mapping
from typing import NamedTuple

from scorio_core.errors import InputError
from scorio_core.io._dataset import SourceInfo
from scorio_core.io._detect import refuse_tool_jsonl
from scorio_core.io._schema import MappingGuess
from scorio_core.io.formats.harnesses.openai_evals import OPENAI_EVALS_COLUMNS
from scorio_core.io.formats.matrix import guess_mapping
from scorio_core.io.formats.path_names import FOLDER, folder_fields, folder_names, folder_record
from scorio_core.io.formats.rates import is_rate_table
from scorio_core.io.formats.recoding import letter_scores_hint
from scorio_core.io.formats.recorded_errors import error_column
from scorio_core.engines._sql import (
    FILE_COLUMN,
    NO_TRIAL,
    SPLIT_MAX,
    EngineUnsupported,
    InputFile,
    expand_inputs,
    quote_ident,
    refuse_empty_files,
    register_files,
)
from scorio_core.engines.duckdb_shapes import refuse_held_records, refuse_rates, refuse_text_lists, trial_list
from scorio_core.engines.duckdb_values import column_kind, error_expr, error_text_expr, id_expr, int_expr, number_expr
from scorio_core.engines.per_model import join_per_model

__all__ = [
    "Group",
    "Prepared",
    "canonical_select",
    "column_kind",
    "connect",
    "describe",
    "duck_error",
    "engine_files",
    "prepare_inputs",
    "sha256_file",
    "source_infos",
    "split_by_columns",
]


class Group:
    """Files of one format read by one DuckDB table function."""

    def __init__(self, fmt: str, files: list[InputFile]):
        self.fmt, self.files = fmt, files
        self.paths = [f.path for f in files]
        self.label = files[0].name if len(files) == 1 else f"{files[0].name} and {len(files) - 1} more"
        self.error_column: str | None = None  # an attempt table's error column, set by canonical_select
        self.structs: tuple[str, ...] = ()  # struct columns, read as their fields' dotted names (set by describe)
        self.fields: tuple[tuple[str, str], ...] = ()  # (dotted name, SQL expression) of every struct's leaf field
        self.trial_list: tuple[str, str] | None = None  # (list column, position column): one row per element

    def reader(self, types: Mapping[str, str] | None = None, *, row_numbers: bool = False,
               ordinality: bool = False) -> tuple[str, list]:
        """The table function reading the files (``src`` in the canonical SELECT) and its parameters.

        ``row_numbers``: Parquet's ``file_row_number`` column; ``ordinality``: ``WITH ORDINALITY``. Struct columns
        (Parquet, JSON objects) are replaced by their leaf fields under dotted names (``metrics.acc``), as the pandas
        loader flattens them, so a mapping names them the same under either engine.
        """
        if self.fmt == "parquet":
            sql = f"read_parquet(?, union_by_name = true, filename = ?{', file_row_number = true' if row_numbers else ''})"
            params: list = [self.paths, FILE_COLUMN]
        elif self.fmt == "jsonl":
            sql, params = "read_json(?, format = 'newline_delimited', union_by_name = true, filename = ?)", [self.paths, FILE_COLUMN]
        else:
            sql = "read_csv(?, header = true, delim = ?, union_by_name = true, filename = ?"
            params = [self.paths, _delimiter(self.files[0], self.fmt), FILE_COLUMN]
            if types:
                sql += ", types = ?"
                params.append(dict(types))
            sql += ")"
        sql += " WITH ORDINALITY" if ordinality else ""
        if self.structs:
            fields = ", ".join(f"{expr} AS {quote_ident(name)}" for name, expr in self.fields)
            sql = f"(SELECT * EXCLUDE ({', '.join(map(quote_ident, self.structs))}), {fields} FROM {sql})"
        if self.trial_list:  # scorio_core.io.formats.trial_lists: two unnests of one length go side by side
            col, pos = map(quote_ident, self.trial_list)
            sql = f"(SELECT * EXCLUDE ({col}), unnest({col}) AS {col}, unnest(range(len({col}))) AS {pos} FROM {sql})"
        return sql, params


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


def connect(memory_limit: str | None, temp_directory: str | None, threads: int | None):
    """An in-memory DuckDB connection with the engine's settings (no progress bar, insertion order not kept).

    Parameters
    ----------
    memory_limit : str, optional
        DuckDB ``memory_limit`` (e.g. ``"2GB"``); beyond it DuckDB spills to ``temp_directory``.
    temp_directory : str, optional
        Where DuckDB spills (default: DuckDB's own).
    threads : int, optional
        Worker threads (default: one per core).

    Raises
    ------
    InputError
        A setting DuckDB refuses (one line saying which to check).
    """
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


def duck_error(exc: Exception, group: Group, guess: MappingGuess | None = None) -> InputError:
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
        hint = letter_scores_hint([got.group(1)]) if got and field == "is_correct" else ""
        return InputError(f"field '{field}' {what}; got {got.group(1)!r}.{hint}" if got else f"field '{field}' {what}.",
                          source=name, line=int(line.group(1)) if line else None, field=field)
    first = next((t for t in text.splitlines() if t.strip()), type(exc).__name__)
    return InputError(f"cannot read the file with DuckDB ({first[:200]}); check its format or use --engine pandas.",
                      source=name, line=int(line.group(1)) if line else None)


def describe(con, group: Group) -> list[tuple[str, str]]:
    """``(column, DuckDB type)`` of the group's files (the file-name column left out); InputError naming the file."""
    import duckdb

    sql, params = group.reader()
    try:
        rows = con.execute(f"DESCRIBE SELECT * FROM {sql}", params).fetchall()
        if not group.structs and any(str(r[1]).startswith("STRUCT(") for r in rows):  # flatten them, then again
            schema = con.sql(f"SELECT * FROM {sql} LIMIT 0", params=params).to_arrow_table().schema
            group.structs = tuple(f.name for f in schema if _is_struct(f.type))
            group.fields = tuple(leaf for f in schema if _is_struct(f.type) for leaf in _leaves(f, quote_ident(f.name), f.name))
            sql, params = group.reader()
            rows = con.execute(f"DESCRIBE SELECT * FROM {sql}", params).fetchall()
    except duckdb.Error as exc:
        raise duck_error(exc, group) from None
    return [(r[0], r[1]) for r in rows if r[0] != FILE_COLUMN]


def _is_struct(typ) -> bool:
    import pyarrow as pa

    return pa.types.is_struct(typ)


def _leaves(field, expr: str, name: str) -> list[tuple[str, str]]:
    """``(dotted name, struct_extract expression)`` of a struct field's leaves (nested structs recursively)."""
    out = []
    for child in field.type:
        sub = f"struct_extract({expr}, '{child.name.replace(chr(39), chr(39) * 2)}')"
        out += _leaves(child, sub, f"{name}.{child.name}") if _is_struct(child.type) else [(f"{name}.{child.name}", sub)]
    return out


def split_by_columns(con, groups: list[Group]) -> list[Group]:
    """Split each format group by column set when it has few files, so each gets its own mapping."""
    out = []
    for g in groups:
        if len(g.files) == 1 or len(g.files) > SPLIT_MAX:
            out.append(g)
            continue
        by_cols: dict[tuple, list[InputFile]] = {}
        for f in g.files:
            by_cols.setdefault(tuple(describe(con, Group(g.fmt, [f]))), []).append(f)
        out.extend(Group(g.fmt, fs) for fs in by_cols.values())
    return out


def canonical_select(con, group: Group, mapping: Mapping[str, str] | None, *,
                      positions: bool = False) -> tuple[str, list, MappingGuess, list[str]]:
    """SQL (and its parameters) giving the group's rows under canonical names, plus the mapping used."""
    columns = describe(con, group)
    names = [c for c, _ in columns]
    types = dict(columns)
    if len(set(names)) != len(names):
        dup = next(c for c in names if names.count(c) > 1)
        raise InputError(f"column '{dup}' appears twice; rename one of them.", source=group.label, field=dup)
    if OPENAI_EVALS_COLUMNS <= set(names):
        raise EngineUnsupported("an OpenAI evals record log is read by the pandas engine; use --engine pandas.",
                                source=group.label)
    guess = guess_mapping(names, mapping, source=group.label)
    if not guess.ok:
        refuse_held_records(types, group.label)  # each row's records in a list: pandas explodes them
    guess.raise_if_unresolved(group.label)
    if guess.layout == "wide":
        raise EngineUnsupported("wide tables (one column per trial) and response matrices are read by the pandas engine; use --engine pandas.",
                                source=group.label)
    if "category" in guess.mapping:
        raise EngineUnsupported("rubric category codes are read by the pandas engine; use --engine pandas.", source=group.label)
    gm = guess.mapping
    if is_rate_table(guess) and column_kind(types[gm["is_correct"]]) in ("float", "text"):
        refuse_rates(con, group, gm["is_correct"], gm.get("n_trials"), duck_error)
    defaults: list[str] = []
    listed = re.fullmatch(r"(.+)\[\d*\]", str(types.get(gm.get("is_correct"), "")))
    if listed:  # per-trial outcome lists, read as scorio_core.io.formats.trial_lists reads them
        guess = trial_list(group, gm["is_correct"], listed.group(1), gm, mapping, types)
        gm = guess.mapping  # the note: engine_notes (scorio_core.io.formats.trial_lists.trial_list_notes)
    src = group.label
    if group.fmt in ("csv", "tsv"):
        # read identifiers as text, as the pandas reader does ('007' stays '007'), and the outcome as text too:
        # DuckDB's sniffer types a column of only yes/no (or y/n) as BOOLEAN, which would count 'yes' as correct
        # where the pandas loader refuses it; as text it meets the same tokens (true/false/1/0) and refusals
        forced = {gm[k]: "VARCHAR" for k in ("model", "task", "question_id", "is_correct") if k in gm}
        sql, params = group.reader(forced)
        types.update(forced)
    else:
        sql, params = group.reader()
    if guess.layout == "attempts" and column_kind(types[gm["is_correct"]]) == "text":
        refuse_text_lists(con, sql, params, gm["is_correct"], group, duck_error)  # '[True, False]': pandas reads it
    select: list[str] = []
    sel_params: list = []
    folders = folder_fields(mapping)
    for key in ("model", "task"):
        if key in gm:
            select.append(f"{id_expr(gm[key], types[gm[key]], key, src)} AS {key}")
        elif key in folders:  # --map model=@folder: each file's folder (checked here: a file with fewer folders is named)
            for f in group.files:
                folder_names(f.path, {key: folders[key]}, f.name)
            select.append(f"__files.__parents[{int(folders[key])}] AS {key}")
        else:  # the task may become the per-model files' one task (scorio_core.engines.per_model)
            select.append(f"__files.{'__stem' if key == 'model' else '__stem_task'} AS {key}")
            defaults += [f"{f.name}: no {key} column; {key} set to the file stem '{f.stem}'." for f in group.files]
    select.append(f"{id_expr(gm['question_id'], types[gm['question_id']], 'question_id', src)} AS question_id")
    if guess.layout == "counts":
        nt, nt_bad = int_expr(gm["n_trials"], types[gm["n_trials"]], "n_trials", src)
        nc, nc_bad = int_expr(gm["n_correct"], types[gm["n_correct"]], "n_correct", src)
        select += [f"{nt} AS n_trials", f"{nc} AS n_correct", f"{nt_bad} AS bad_n", f"{nc_bad} AS bad_c"]
    else:
        if "trial" in gm:
            tr, tr_bad = int_expr(gm["trial"], types[gm["trial"]], "trial", src)
            select += [f"{tr} AS trial", f"{tr_bad} AS bad_t"]
        else:
            select += ["CAST(NULL AS BIGINT) AS trial", "FALSE AS bad_t"]
            defaults += [f"{f.name}: {NO_TRIAL}" for f in group.files]  # each row one attempt, as pandas numbers them
        o, o_bad = number_expr(gm["is_correct"], types[gm["is_correct"]], "is_correct", src, booleans=True)
        select += [f"{o} AS o", f"{o_bad} AS bad_o", f"CAST({quote_ident(gm['is_correct'])} AS VARCHAR) AS raw_o"]
        sc = gm.get("score") if gm.get("score") != gm["is_correct"] else None  # partial credit beside a 0/1 outcome
        kind = column_kind(types[sc]) if sc is not None else None  # a NaN is never strictly between 0 and 1: plain cast
        s_sql = f"CAST({quote_ident(sc)} AS DOUBLE)" if kind in ("int", "float", "bool") else (
            number_expr(sc, types[sc], "score", src, booleans=True)[0] if kind == "text" else "CAST(NULL AS DOUBLE)")
        select.append(f"{s_sql} AS s")
        group.error_column = error_column(names)
        if group.error_column is not None:  # err: the pandas loader's rule (errored_rows); raw_err: an example
            select += [f"{error_expr(group.error_column, types[group.error_column])} AS err",
                       f"{error_text_expr(group.error_column, types[group.error_column])} AS raw_err"]
    select.append(f"src.{quote_ident(FILE_COLUMN)} AS file")
    if positions and group.fmt == "parquet" and "file_row_number" not in types:
        # the row's index within its file (Parquet metadata: no sequential numbering of the scan, 0.59 -> 0.37 s
        # for a GROUP BY over 5 x 10^6 rows); with the file's index it orders rows as they appear
        select.append("src.file_row_number AS pos")
        sql, params = group.reader(row_numbers=True)
    elif positions:
        select.append("src.ordinality AS pos")
        sql, params = group.reader(forced if group.fmt in ("csv", "tsv") else None, ordinality=True)
    join = f" LEFT JOIN __files ON __files.__path = src.{quote_ident(FILE_COLUMN)}" if ("model" not in gm or "task" not in gm) else ""
    gm.update({k: f"{FOLDER}:{n}" for k, n in folders.items()})  # in the provenance as each file's folder (source_infos)
    text = f"SELECT {', '.join(select)} FROM {sql} AS src{join}"
    return text, params + sel_params, guess, defaults


class Prepared(NamedTuple):
    """The canonical attempt/count rows of every input as one SQL text, with what produced them."""

    canon: str
    params: list
    groups: list
    guesses: list
    defaults: list
    layout: str
    with_trial: bool


def engine_files(paths, format: str | None = None) -> list[InputFile]:
    """Expand inputs for DuckDB; refuse files whose format only the pandas readers know, and empty files."""
    files = expand_inputs(paths, format)
    unknown = [f for f in files if f.format is None]
    if unknown:
        raise EngineUnsupported("the DuckDB engine reads CSV, TSV, Parquet and JSONL tables only (by suffix, .gz allowed); "
                                "use --engine pandas or --format.", source=unknown[0].name)
    refuse_empty_files(files)
    if format is None:  # --format jsonl: the user says the files are plain tables
        refuse_tool_jsonl([(f.name, f.path) for f in files if f.format == "jsonl"], "DuckDB")
    return files


def prepare_inputs(con, files: list[InputFile], mapping: Mapping[str, str] | None, *, positions: bool = False) -> Prepared:
    """Register the files, infer each group's mapping and build the canonical ``SELECT`` (shared by every DuckDB view).

    ``positions`` adds ``pos``: the row's index within its file (Parquet) or its ordinal in its group's scan
    (monotone within a file), so with the file's order the first appearance of a model can be found as the pandas
    loader sees it.
    """
    import duckdb

    groups: dict[str, list[InputFile]] = {}
    for f in files:
        groups.setdefault(f.format, []).append(f)
    register_files(con, files)
    selects, params, guesses, defaults, parts = [], [], [], [], []
    group_objs = split_by_columns(con, [Group(fmt, fs) for fmt, fs in groups.items()])
    for g in group_objs:
        s, p, guess, d = canonical_select(con, g, mapping, positions=positions)
        selects.append(s)
        params += p
        guesses.append(guess)
        defaults += d
        parts.append((s, p, "task" not in guess.mapping))
    try:  # per-model files without a task column: one task, as the pandas loader reads them
        defaults = join_per_model(con, parts, [f for g, p in zip(group_objs, parts) if p[2] for f in g.files], defaults)
    except duckdb.Error as exc:
        raise duck_error(exc, Group(group_objs[0].fmt, [f for g in group_objs for f in g.files])) from None
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
    return Prepared(canon, params, group_objs, guesses, defaults, layout, with_trial.pop())


def source_infos(prep: Prepared, per_file: Mapping[str, int], hash_files: bool) -> tuple[SourceInfo, ...]:
    """One :class:`SourceInfo` per file (rows = the file's input rows)."""
    return tuple(
        SourceInfo(f.name, f.format, sha256_file(f.path) if hash_files else "", int(per_file.get(f.path, 0)), prep.layout,
                   folder_record(guess.mapping, f.path, f.name))
        for g, guess in zip(prep.groups, prep.guesses) for f in g.files
    )


def sha256_file(path: str) -> str:
    """Hex SHA-256 of a file's bytes (streamed), as recorded in :class:`~scorio_core.io.SourceInfo`."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()
