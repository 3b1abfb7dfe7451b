"""Table shapes the DuckDB engines read beside plain attempt rows: per-trial outcome lists, and rate tables refused.

* A list-typed outcome column (``"score": [true, false, ...]``) is unnested to one attempt per element, its 0-based
  position the trial, as :mod:`scorio_core.io.formats.trial_lists` reads it (the group's reader does the ``unnest``:
  :attr:`scorio_core.engines.duckdb_inputs.Group.trial_list`).
* A rate table (shares of correct trials beside a trial count, :mod:`scorio_core.io.formats.rates`) is read by the
  pandas engine; DuckDB refuses it by name rather than reading each share as one attempt.

Column names come from the files' schemas and are spliced only through
:func:`~scorio_core.engines._sql.quote_ident`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from scorio_core.engines._sql import EngineUnsupported, quote_ident
from scorio_core.io._schema import MappingGuess
from scorio_core.io.formats.matrix import guess_mapping
from scorio_core.io.formats.rates import rates_refusal
from scorio_core.io.formats.trial_lists import trial_column_error

__all__ = ["refuse_held_records", "refuse_rates", "refuse_text_lists", "trial_list"]


def refuse_held_records(types: Mapping[str, str], label: str) -> None:
    """Refuse a file whose rows hold their records in a list of objects with an outcome field (``"results": [{"id":
    "q1", "correct": 1}, ...]``), which the pandas reader explodes (:mod:`scorio_core.io.formats.line_records`).

    >>> refuse_held_records({"model": "VARCHAR", "results": "STRUCT(id VARCHAR, correct BIGINT)[]"}, "r.jsonl")
    Traceback (most recent call last):
    ...
    scorio_core.engines._sql.EngineUnsupported: r.jsonl: each row's 'results' holds records (a list of objects with an outcome field), which the pandas engine reads as one row per element; use --engine pandas.
    """
    from scorio_core.io._schema import normalize_name
    from scorio_core.io.formats.line_records import held_records_refusal
    from scorio_core.io.formats.trial_lists import OUTCOME_NAMES

    for column, kind in types.items():
        inner = re.fullmatch(r"STRUCT\((.*)\)\[\]", str(kind))
        fields = re.findall(r'(?:^|, )("(?:[^"]|"")+"|[^ ,()"]+) ', inner.group(1)) if inner else []
        if any(normalize_name(f.strip('"')) in OUTCOME_NAMES for f in fields):
            raise EngineUnsupported(held_records_refusal(column), source=label)


def refuse_text_lists(con, sql: str, params: list, column: str, group, duck_error: Callable) -> None:
    """Refuse an outcome column of lists written as text (``[True, False]``, a pandas list column saved to CSV), which
    the pandas reader reads as lists (:func:`scorio_core.io.formats.trial_lists.text_lists`). Only the first non-empty
    value is looked at (such a column is lists throughout), so a large file is not scanned twice.

    Raises
    ------
    EngineUnsupported
        The first value starts with ``[``.
    """
    import duckdb

    ident = quote_ident(column)
    try:
        row = con.execute(f"SELECT {ident} FROM {sql} WHERE {ident} IS NOT NULL LIMIT 1", params).fetchone()
    except duckdb.Error as exc:
        raise duck_error(exc, group) from None
    if row and str(row[0]).lstrip().startswith("["):
        raise EngineUnsupported(f"column '{column}' holds lists written as text ({str(row[0])[:40]!r}), which the pandas "
                                "engine reads as one attempt per element; use --engine pandas.", source=group.label)


def refuse_rates(con, group, column: str, trials: str | None, duck_error: Callable) -> None:
    """Refuse a rate table: an outcome value strictly between 0 and 1 beside a trial count column.

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
    group : scorio_core.engines.duckdb_inputs.Group
        The files (``reader()``, ``label``).
    column : str
        The outcome column of the group's mapping.
    trials : str or None
        Its trial count column (None: the outcome's name states the count, ``n=16``).
    duck_error : callable
        ``(exception, group) -> InputError`` for a DuckDB error while looking.

    Raises
    ------
    EngineUnsupported
        Such a value exists (the pandas engine reads the table as counts).
    """
    import duckdb

    sql, params = group.reader()
    value = f"TRY_CAST({quote_ident(column)} AS DOUBLE)"
    try:
        found = con.execute(f"SELECT 1 FROM {sql} WHERE {value} > 0 AND {value} < 1 LIMIT 1", params).fetchone()
    except duckdb.Error as exc:
        raise duck_error(exc, group) from None
    if found:
        raise EngineUnsupported(rates_refusal(column, trials), source=group.label)


def trial_list(group, column: str, element: str, gm: Mapping[str, str], mapping: Mapping[str, str] | None,
               types: dict) -> MappingGuess:
    """Read a list-typed outcome column as one attempt per element, its 0-based position the trial (as pandas does).

    Parameters
    ----------
    group : scorio_core.engines.duckdb_inputs.Group
        Its ``trial_list`` is set to ``(column, "<position in COLUMN>")``, so its reader unnests the lists.
    column : str
        The outcome column.
    element : str
        The DuckDB type of the list's elements (``BOOLEAN`` for ``BOOLEAN[]``).
    gm : mapping
        The group's guessed mapping.
    mapping : mapping or None
        The user's mapping.
    types : dict
        Column -> DuckDB type; updated in place (the element type, the position column).

    Returns
    -------
    MappingGuess
        The mapping with ``is_correct`` the column and ``trial`` its position.

    Raises
    ------
    EngineUnsupported
        Lists of objects, maps or lists (not outcomes).
    InputError
        A trial column beside the lists (two numberings of the same attempts).
    """
    if re.search(r"STRUCT\(|MAP\(|\[\d*\]$", element):
        raise EngineUnsupported(f"column '{column}' holds lists of {element} values, not outcomes; map another column "
                                "or use --engine pandas.", source=group.label)
    if "trial" in gm:
        raise trial_column_error(column, gm["trial"], group.label)
    position = f"<position in {column}>"
    group.trial_list = (column, position)
    types.update({column: element, position: "BIGINT"})
    return guess_mapping([*types], {**(mapping or {}), "is_correct": column, "trial": position}, source=group.label)
