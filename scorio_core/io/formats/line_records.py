"""Records kept under a key on each line of a JSON Lines file: ``{"model": "m", "results": [{"id": "q1", "correct":
1}, ...]}``, one line per model (or run) holding its per-question records.

The JSON Lines reader (:mod:`scorio_core.io.formats.jsonl`) keeps one list-of-objects field per line whose objects
carry an outcome field (:func:`held_records`) and explodes it (:func:`records_under_key`): one row per element with
its line's other fields, said in the notes; an error names the element's line.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from scorio_core.io._schema import normalize_name
from scorio_core.io.formats.trial_lists import OUTCOME_NAMES, is_record, keeps_list, scalar_list

__all__ = ["flatten_records", "held_records", "held_records_refusal", "line_records", "records_note", "records_under_key"]


def flatten_records(record: Mapping, prefix: str = "", out: dict | None = None) -> dict:
    """Flatten nested dicts to dotted keys; lists are kept as values.

    Examples
    --------
    >>> flatten_records({"a": {"b": 1, "c": {"d": 2}}, "e": [1]})
    {'a.b': 1, 'a.c.d': 2, 'e': [1]}
    """
    out = {} if out is None else out
    for key, value in record.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flatten_records(value, f"{name}.", out)
        else:
            out[name] = value
    return out


def held_records(table: pa.Table) -> list[str]:
    """List-of-object fields whose objects carry an outcome field (``correct``, ``passed`` ...): records kept under a
    key on each line (``{"model": "m", "results": [{"id": "q1", "correct": 1}, ...]}``); none when the line is an attempt of its
    own (:func:`~scorio_core.io.formats.trial_lists.is_record`: ``{"task_id": ..., "passed": true, "tests": [...]}``)."""
    names, types = table.column_names, table.schema.types
    if is_record(n for n, t in zip(names, types) if not pa.types.is_nested(t)):
        return []  # each line is an attempt of its own (a list of per-test results beside it stays dropped)
    return [n for n, t in zip(names, types) if pa.types.is_list(t)
            and pa.types.is_struct(t.value_type) and any(normalize_name(f.name) in OUTCOME_NAMES for f in t.value_type)]


def records_under_key(table: pa.Table, column: str, name: str, mapping=None) -> tuple[pa.Table, list[str]]:
    """One row per element of each line's list of records ``column``, with its line's other fields (an element's field
    of the same name as a line's is kept as ``COLUMN.FIELD``); the parent line of each row in the schema's metadata
    (``parents``: int64 bytes), nested element fields flattened or dropped as the reader drops them.

    >>> t = pa.table({"model": ["m", "n"], "results": [[{"id": "q1", "correct": 1}, {"id": "q2", "correct": 0}],
    ...                                                [{"id": "q1", "correct": 1}]]})
    >>> out, _ = records_under_key(t, "results", "r.jsonl")
    >>> out.select(["model", "id", "correct"]).to_pylist()[1:]
    [{'model': 'm', 'id': 'q2', 'correct': 0}, {'model': 'n', 'id': 'q1', 'correct': 1}]
    """
    lists = table.column(column).combine_chunks()
    parents = pc.list_parent_indices(lists)
    flat = pc.list_flatten(lists)
    out = table.drop_columns([column]).take(parents)
    for i, f in enumerate(flat.type):
        out = out.append_column(f.name if f.name not in out.column_names else f"{column}.{f.name}", flat.field(i))
    while any(pa.types.is_struct(t) for t in out.schema.types):
        out = out.flatten()
    nested = [n for n, t in zip(out.column_names, out.schema.types)
              if pa.types.is_nested(t) and not (scalar_list(t) and keeps_list(n, mapping))]
    notes = [f"{name}: ignored non-scalar fields of the records in '{column}': {', '.join(nested[:10])}."] if nested else []
    out = out.drop_columns(nested)
    notes.insert(0, records_note(name, column, len(out), len(table)))
    return out.replace_schema_metadata({b"parents": parents.to_numpy().astype(np.int64).tobytes(),
                                        b"held": column.encode()}), notes


def records_note(name: str, column: str, records: int, lines: int) -> str:
    """The note saying that each line's ``column`` was read as its records."""
    return (f"{name}: each line's '{column}' holds its records: {records:,} records from {lines:,} lines, each with its "
            "line's other fields.")


def line_records(flat: dict) -> tuple[str, list[dict]] | None:
    """The records one JSON line holds (the line-by-line reader's :func:`held_records`): ``(field, rows)`` with each
    element of the line's one list of outcome-carrying objects as a row with the line's other fields (an element's
    field of the same name as a line's kept as ``FIELD.NAME``), or None when the line holds none or is a record itself.

    >>> line_records({"model": "m", "results": [{"id": "q1", "correct": 1}, {"id": "q2", "correct": 0, "model": "x"}]})
    ('results', [{'model': 'm', 'id': 'q1', 'correct': 1}, {'model': 'm', 'id': 'q2', 'correct': 0, 'results.model': 'x'}])
    >>> line_records({"task_id": "t", "passed": True, "tests": [{"passed": True}]}) is None
    True
    """
    if is_record(k for k, v in flat.items() if not isinstance(v, (dict, list))):
        return None
    held = [k for k, v in flat.items() if isinstance(v, list) and v and all(isinstance(e, dict) for e in v)
            and any(normalize_name(f) in OUTCOME_NAMES for e in v[:3] for f in e)]
    if len(held) != 1:
        return None
    base = {k: v for k, v in flat.items() if k != held[0]}
    rows = []
    for element in flat[held[0]]:
        row = dict(base)
        for k, v in flatten_records(element).items():
            row[k if k not in base else f"{held[0]}.{k}"] = v
        rows.append(row)
    return held[0], rows


def held_records_refusal(column: str) -> str:
    """Why a SQL engine (DuckDB, Spark) leaves a table whose rows hold their records in ``column`` to pandas.

    >>> held_records_refusal("results")[:40]
    "each row's 'results' holds records (a li"
    """
    return (f"each row's '{column}' holds records (a list of objects with an outcome field), which the pandas engine "
            "reads as one row per element; use --engine pandas.")
