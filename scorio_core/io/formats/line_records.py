"""Records kept under a key on each line of a JSON Lines file: ``{"model": "m", "results": [{"id": "q1", "correct":
1}, ...]}``, one line per model (or run) holding its per-question records.

The JSON Lines reader (:mod:`scorio_core.io.formats.jsonl`) keeps one list-of-objects field per line whose objects
carry an outcome field (:func:`held_records`) and explodes it (:func:`records_under_key`): one row per element with
its line's other fields, said in the notes; an error names the element's line.

The shapes of a JSON document that holds its records under keys (arrays keyed by question, objects keyed by question,
an object of objects read as a matrix, outcome lists keyed by question) are recognised here too
(:func:`keyed_records`, :func:`keyed_objects`, :func:`object_matrix`, :func:`holds_records`), for detection and for
the JSON reader.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from scorio_core.io._schema import _ALIASES, normalize_name
from scorio_core.io.formats.benchmarks.cruxeval import outcome_lists
from scorio_core.io.formats.trial_lists import OUTCOME_NAMES, is_record, keeps_list, samples_field, scalar_list

__all__ = ["flatten_records", "held_records", "held_records_refusal", "holds_records", "keyed_objects", "keyed_records",
           "line_records", "object_matrix", "records_note", "records_under_key"]


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


def keyed_records(value: object) -> bool:
    """An object whose values are arrays of records, keyed by question (EvalPlus's ``eval``: task id -> samples).

    >>> keyed_records({"HumanEval/0": [{"base_status": "pass"}], "HumanEval/1": []}), keyed_records({"a": 1})
    (True, False)
    """
    return (isinstance(value, dict) and bool(value) and all(isinstance(v, list) for v in value.values())
            and any(v for v in value.values())
            and all(isinstance(r, dict) for v in value.values() for r in v[:3]))


def keyed_objects(value: object) -> bool:
    """An object of records keyed by question (OpenCompass's older ``details``: ``{"0": {"pred": ..., "correct":
    true}, ...}``; HLE's judged files: ``{question_id: {"model": ..., "judge_response": {"correct": "yes"}}}``): at
    least two entries, every value an object, the first with an outcome field (``correct``, ``passed``, ``score`` ...
    as the column mapping names them; in a nested object too, as its dotted column is mapped), so a nested settings
    object is not read as records.

    >>> keyed_objects({"0": {"pred": "A", "correct": True}, "1": {"pred": "B", "correct": False}})
    True
    >>> keyed_objects({"q1": {"model": "m", "judge_response": {"correct": "yes"}}, "q2": {"model": "m"}})
    True
    >>> keyed_objects({"sampler": {"top_p": 1}, "model": {"name": "m"}})
    False
    """
    if not (isinstance(value, dict) and len(value) >= 2 and all(isinstance(v, dict) for v in value.values())):
        return False
    outcome = {"is_correct", *(a for tier in _ALIASES["is_correct"] for a in tier)}
    first = next(iter(value.values()))
    keys = [*first, *(k for v in first.values() if isinstance(v, dict) for k in v)]
    return any(normalize_name(k) in outcome for k in keys)


def object_matrix(doc: object) -> bool:
    """A JSON object of objects of plain values (``{"gpt-4": {"q1": 1, "q2": 0}, ...}``): a response matrix keyed
    both ways, which :mod:`~scorio_core.io.formats.jsonl` reads once the user says which keys are models.

    >>> object_matrix({"gpt-4": {"q1": 1, "q2": 0}, "claude": {"q1": 0}}), object_matrix({"a": {"b": {"c": 1}}})
    (True, False)
    """
    return (isinstance(doc, dict) and bool(doc) and all(isinstance(v, dict) and v for v in doc.values())
            and all(not isinstance(x, (dict, list)) for v in list(doc.values())[:50] for x in v.values()))


def holds_records(doc: dict) -> bool:
    """A one-line JSON document holding its records (an array of objects, or arrays or objects of them keyed by
    question, or outcome lists keyed by question: CRUXEval's ``raw_scored_generations``)."""
    if outcome_lists(doc) or any((isinstance(v, list) and v and all(isinstance(r, dict) for r in v[:3]))
                                 or keyed_records(v) or outcome_lists(v) for v in doc.values()):
        return True
    own = is_record(k for k, v in doc.items() if not isinstance(v, (dict, list)))
    return not own and (object_matrix(doc) or keyed_objects(doc) or samples_field(doc) is not None  # else a record
                        or any(keyed_objects(v) for v in doc.values()))
