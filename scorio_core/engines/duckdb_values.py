"""How the DuckDB engines read one value: SQL expressions for identifiers, outcomes, whole numbers and error marks.

Each takes a column name from the file's own schema (spliced only through :func:`quote_ident`) and its DuckDB
type, and writes the pandas loader's rules as SQL (identifiers as text the way the pandas loader writes them,
outcomes as 0/1/booleans/empty tokens, whole-number trials and counts, the error column's rule of
:func:`scorio_core.io.formats.recorded_errors.errored_rows`). Used by
:func:`scorio_core.engines.duckdb_inputs.canonical_select`; only this module's own constant tokens are written
into SQL text.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorio_core.engines._sql import EMPTY_TOKENS, EXACT_INTEGER_LIMIT, FALSE_TOKENS, TRUE_TOKENS, EngineUnsupported, quote_ident
from scorio_core.io.formats.recorded_errors import NO_ERROR

__all__ = ["column_kind", "error_expr", "error_text_expr", "id_expr", "int_expr", "number_expr"]

_INT_TYPES = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"}
_FLOAT_TYPES = {"FLOAT", "DOUBLE", "REAL"}
_EXACT = str(EXACT_INTEGER_LIMIT)


def column_kind(typ: str) -> str:
    """Kind of a DuckDB column type: ``"int"``, ``"float"`` (incl. DECIMAL), ``"text"``, ``"bool"`` or ``"other"``.

    >>> column_kind("BIGINT"), column_kind("DECIMAL(9,2)"), column_kind("DATE")
    ('int', 'float', 'other')
    """
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


def id_expr(col: str, typ: str, field: str, source: str) -> str:
    q = quote_ident(col)
    kind = column_kind(typ)
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


def number_expr(col: str, typ: str, field: str, source: str, *, booleans: bool) -> tuple[str, str]:
    """(value as DOUBLE or NULL when empty, TRUE where a present value is not a number)."""
    q = quote_ident(col)
    kind = column_kind(typ)
    if kind in ("int", "float", "bool"):
        value = f"CAST({q} AS DOUBLE)"
        return (f"CASE WHEN isnan({value}) THEN NULL ELSE {value} END" if kind == "float" else value), "FALSE"
    if kind != "text":
        raise EngineUnsupported(f"column '{col}' (field '{field}') has type {typ}, which the DuckDB engine cannot read as "
                                "a number; use --engine pandas.", source=source, field=field)
    v = f"lower(trim({q}))"
    parts = [f"WHEN {q} IS NULL OR {v} IN {_sql_list(EMPTY_TOKENS)} THEN NULL"]
    if booleans:
        parts += [f"WHEN {v} IN {_sql_list(TRUE_TOKENS)} THEN 1.0", f"WHEN {v} IN {_sql_list(FALSE_TOKENS)} THEN 0.0"]
    value = f"CASE {' '.join(parts)} ELSE TRY_CAST({v} AS DOUBLE) END"
    known = _sql_list(EMPTY_TOKENS + (TRUE_TOKENS + FALSE_TOKENS if booleans else ()))
    bad = f"({q} IS NOT NULL AND {v} NOT IN {known} AND TRY_CAST({v} AS DOUBLE) IS NULL)"
    return value, bad


def int_expr(col: str, typ: str, field: str, source: str) -> tuple[str, str]:
    """(value as BIGINT or NULL, TRUE where the value is missing or not a whole number)."""
    q = quote_ident(col)
    if column_kind(typ) == "int":
        return f"CAST({q} AS BIGINT)", f"({q} IS NULL)"
    value, bad = number_expr(col, typ, field, source, booleans=False)
    ok = f"({value} IS NOT NULL AND {value} = round({value}) AND abs({value}) < {_EXACT})"
    return f"CASE WHEN {ok} THEN CAST({value} AS BIGINT) END", f"(NOT coalesce({ok}, FALSE) OR {bad})"


def error_expr(col: str, typ: str) -> str:
    """TRUE where an error column marks the attempt as errored (:func:`~scorio_core.io.formats.recorded_errors.errored_rows`'s
    rule: a boolean as it is, a number other than 0, text other than the no-error words; missing: no error)."""
    q = quote_ident(col)
    kind = column_kind(typ)
    if kind == "bool":
        return f"coalesce({q}, FALSE)"
    if kind in ("int", "float"):
        v = f"CAST({q} AS DOUBLE)"
        return f"coalesce({v} <> 0 AND NOT isnan({v}), FALSE)"
    return f"coalesce(lower(trim(CAST({q} AS VARCHAR))) NOT IN {_sql_list(NO_ERROR)}, FALSE)"


def error_text_expr(col: str, typ: str) -> str:
    """An error column's value as text the way the pandas loader shows it in its note (``True`` for a boolean)."""
    q = quote_ident(col)
    if column_kind(typ) == "bool":
        return f"CASE WHEN {q} THEN 'True' WHEN NOT {q} THEN 'False' END"
    return f"CAST({q} AS VARCHAR)"
