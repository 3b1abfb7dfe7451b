"""JSON inputs for generic tables: JSON Lines (streamed with pyarrow) and JSON record arrays.

Nested objects become dotted column names (``output.finish_reason``); list fields are
dropped (and reported) unless a reader asks for their per-row mean. When pyarrow cannot
read a file (mixed value types across lines, invalid JSON), a line-by-line reader takes
over: it accepts mixed types and names the line of invalid JSON.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Mapping
from pathlib import PurePosixPath

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pajson

from scorio_core.errors import InputError
from scorio_core.io._schema import _ALIASES, normalize_name
from scorio_core.io._sources import Source, load_json, locate_bad_utf8, text_encoding, utf8_bytes
from scorio_core.io.formats.benchmarks.cruxeval import cruxeval_records
from scorio_core.io.formats.harnesses.openai_evals import OPENAI_EVALS_COLUMNS, openai_evals_log
from scorio_core.io.formats.line_records import (flatten_records, held_records, keyed_objects, keyed_records, line_records,
                                                 object_matrix, records_note, records_under_key)
from scorio_core.io.formats.trial_lists import is_record, keeps_list, sample_records, samples_field, scalar_list

__all__ = ["OBJECT_MATRIX", "drop_nested", "flatten_records", "object_matrix_refusal", "read_json_frame"]

#: The words by which a note marks a JSON document read as an object of objects (a response matrix keyed both ways).
OBJECT_MATRIX = "an object of objects"

_BLOCK = 4 << 20


def drop_nested(name: str, table: pa.Table, mapping: Mapping[str, str] | None = None) -> tuple[pa.Table, list[str]]:
    """Drop list/struct/map columns, with a note naming them; a list of per-trial outcomes is kept
    (:mod:`scorio_core.io.formats.trial_lists`)."""
    nested = [n for n, t in zip(table.column_names, table.schema.types)
              if pa.types.is_nested(t) and not (scalar_list(t) and keeps_list(n, mapping))]
    notes = []
    if nested:
        notes.append(f"{name}: ignored non-scalar fields (lists/objects are not per-attempt values): {', '.join(nested[:10])}.")
        table = table.drop_columns(nested)
    return table, notes


def read_json_frame(src: Source, fmt: str, mapping, list_means) -> tuple[pd.DataFrame, Callable[[int], dict], list[str]]:
    if fmt == "json-records":
        return _json_records(src, utf8_bytes(src), mapping)
    path = src.readable_path() if text_encoding(src.head(4)) is None else None
    payload: list[bytes] = []

    def data() -> bytes:
        if not payload:
            payload.append(utf8_bytes(src))
        return payload[0]

    rows: list[np.ndarray] = []  # each row's line when each line's records were exploded

    def locate(i: int) -> dict:
        return _jsonl_locator(data())(int(rows[0][i]) if rows else i)

    try:
        table, notes = _jsonl_arrow(str(path) if path is not None else io.BytesIO(data()), src.name, list_means or {}, mapping,
                                    records=True)
        if parents := (table.schema.metadata or {}).get(b"parents"):  # line_records.records_under_key
            rows.append(np.frombuffer(parents, dtype=np.int64))
        frame = table.to_pandas(self_destruct=True, split_blocks=True)
        del table
    except (pa.ArrowException, UnicodeDecodeError):  # pyarrow decodes a key's invalid UTF-8 in Python
        # mixed types across lines, invalid JSON or invalid UTF-8: read in chunks of lines,
        # pyarrow where it can, line by line where it cannot (which names a bad line)
        frame, notes = _jsonl_chunked(src, data(), list_means or {}, mapping)
        if "parents" in frame.attrs:  # each line's records exploded (line_records)
            rows.append(frame.attrs.pop("parents"))
    else:
        pa.default_memory_pool().release_unused()
    if ({"schema_version", "evaluation_id"} <= set(frame.columns) and "sample_id" not in frame.columns
            and any(str(c).startswith("model_info.") for c in frame.columns)):
        first = frame.iloc[0] if len(frame) else {}  # aggregate records, one per line (Every Eval Ever's aggregate.jsonl)
        doc = {"model_info": {k: first.get(f"model_info.{k}") for k in ("id", "name")},
               "detailed_evaluation_results": {"file_path": first.get("detailed_evaluation_results.file_path")}}
        raise _aggregate_error(doc, src.name)
    if OPENAI_EVALS_COLUMNS <= set(frame.columns):
        return openai_evals_log(frame, locate, src, notes)
    if {"correct_count", "total_count", "valid", "error_type"} <= set(frame.columns):  # BFCL's score/<model>/*.json
        raise InputError("a BFCL score file: its first line counts the correct entries (correct_count of total_count) "
                         "and the other lines are only the entries the model got wrong, so read line by line it would "
                         "count failures alone, and the entries it got right are not listed: per-question outcomes "
                         "cannot come from it. Grade each entry of the model's result file (one row per entry id with "
                         "0/1) and load that.", source=src.name)
    return frame, locate, notes


def _jsonl_arrow(stream, name: str, list_means: Mapping[str, str], mapping=None,
                 records: bool = False) -> tuple[pa.Table, list[str]]:
    """Stream JSON Lines block by block: flatten objects, reduce lists, dictionary-encode text; with ``records``, one
    list of records per line is kept and exploded (:func:`records_under_key`)."""
    reader = pajson.open_json(stream, read_options=pajson.ReadOptions(block_size=_BLOCK))
    batches, notes, dropped = [], [], {}
    for batch in reader:
        table = pa.Table.from_batches([batch])
        while any(pa.types.is_struct(t) for t in table.schema.types):
            table = table.flatten()
        for field_name, out in list_means.items():
            if field_name in table.column_names and pa.types.is_list(table.schema.field(field_name).type):
                table = table.append_column(out, pa.array(_list_mean(table.column(field_name).combine_chunks())))
                table = table.drop_columns([field_name])
        held = held_records(table) if records else []
        nested = [n for n, t in zip(table.column_names, table.schema.types) if pa.types.is_null(t) or (
            pa.types.is_nested(t) and not (scalar_list(t) and keeps_list(n, mapping)) and held != [n])]
        for n in nested:
            dropped.setdefault(n, table.schema.field(n).type)
        table = table.drop_columns(nested)
        cols = [pc.dictionary_encode(c) if pa.types.is_string(c.type) else c for c in table.columns]
        batches.extend(pa.Table.from_arrays(cols, names=table.column_names).to_batches())
    if not batches:
        raise InputError("the file has no records.", source=name)
    lists = [n for n, t in dropped.items() if not pa.types.is_null(t)]
    if lists:
        notes.append(f"{name}: ignored non-scalar fields (lists/objects are not per-attempt values): {', '.join(lists[:10])}.")
    empty = [n for n, t in dropped.items() if pa.types.is_null(t)]
    if empty:
        notes.append(f"{name}: ignored fields that are null on every line: {', '.join(empty[:10])}.")
    table = pa.Table.from_batches(batches)
    if records and len(held := held_records(table)) == 1:
        table, more = records_under_key(table, held[0], name, mapping)
        notes = more + notes
    return table, notes


def _jsonl_locator(data: bytes) -> Callable[[int], dict]:
    def locate(i: int) -> dict:
        seen = -1
        for lineno, line in enumerate(data.split(b"\n"), start=1):
            if line.strip():
                seen += 1
                if seen == i:
                    return {"line": lineno}
        return {"row": i + 1}

    return locate


def _list_mean(col: pa.Array):
    """Mean of each list's non-null numbers (NaN for empty/null lists), vectorized."""
    n = len(col)
    flat = pc.list_flatten(col)
    parent = pc.list_parent_indices(col).to_numpy()
    ok = flat.is_valid().to_numpy(zero_copy_only=False)
    values = pc.cast(flat, pa.float64()).to_numpy(zero_copy_only=False)
    sums = np.bincount(parent[ok], weights=values[ok], minlength=n)
    counts = np.bincount(parent[ok], minlength=n)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)


def _mean_of(values) -> float:
    nums = [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)] if isinstance(values, list) else []
    return sum(nums) / len(nums) if nums else float("nan")


def _check_utf8(src: Source, data: bytes) -> None:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise locate_bad_utf8(src.name, data) from None


def _jsonl_chunked(src: Source, data: bytes, list_means: Mapping[str, str], mapping=None) -> tuple[pd.DataFrame, list[str]]:
    _check_utf8(src, data)
    frames, notes, start, line, seen, parents, held = [], [], 0, 1, 0, [], set()
    while start < len(data):
        end = data.find(b"\n", start + _BLOCK)
        end = len(data) if end < 0 else end + 1
        chunk = data[start:end]
        try:
            table, chunk_notes = _jsonl_arrow(io.BytesIO(chunk), src.name, list_means, mapping, records=True)
            meta = table.schema.metadata or {}
            frame = table.to_pandas()
            if b"parents" in meta:
                frame.attrs.update(parents=np.frombuffer(meta[b"parents"], dtype=np.int64), held=meta[b"held"].decode())
        except pa.ArrowException:
            frame, chunk_notes = _jsonl_python(src, chunk, list_means, first_line=line, mapping=mapping)
        except InputError:  # a chunk of blank lines
            frame, chunk_notes = pd.DataFrame(), []
        lines = sum(1 for x in chunk.split(b"\n") if x.strip())
        parents.append(frame.attrs.pop("parents", np.arange(len(frame), dtype=np.int64)) + seen)
        held.update([frame.attrs.pop("held")] if "held" in frame.attrs else [])
        frames.append(frame)
        notes.extend(n for n in chunk_notes if n not in notes and "holds its records" not in n)
        line += chunk.count(b"\n")
        start, seen = end, seen + lines
    if not any(len(f) for f in frames):
        raise InputError("the file has no records.", source=src.name)
    out = pd.concat([f for f in frames if len(f)], ignore_index=True, sort=False) if len(frames) > 1 else frames[0]
    if held:  # each line's records: one note over the file, and each row's line for the error messages
        out.attrs["parents"] = np.concatenate(parents)
        notes.insert(0, records_note(src.name, ", ".join(sorted(held)), len(out), seen))
    return out, notes


def _jsonl_python(src: Source, data: bytes, list_means: Mapping[str, str] | None = None, first_line: int = 1,
                  mapping=None) -> tuple[pd.DataFrame, list[str]]:
    means = dict(list_means or {})
    columns: dict[str, list] = {}
    nested: set[str] = set()
    held: set[str] = set()
    parents: list[int] = []
    n = lines = 0
    for lineno, line in enumerate(data.split(b"\n"), start=first_line):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as exc:
            what = "is cut off (truncated file?)" if "Unterminated" in str(exc) or "Expecting" in str(exc) else "is not valid JSON"
            raise InputError(f"the record {what}: {exc.msg} at column {exc.colno}; fix or remove that line.", source=src.name, line=lineno) from None
        if not isinstance(record, dict):
            raise InputError(f"each line must be a JSON object; got {type(record).__name__}.", source=src.name, line=lineno)
        flat = record if not any(isinstance(v, dict) for v in record.values()) else flatten_records(record)
        found = line_records(flat)
        if found:
            held.add(found[0])
        for row in (found[1] if found else [flat]):
            for key, value in row.items():
                if key in means:
                    key, value = means[key], _mean_of(value)
                elif isinstance(value, dict) or (isinstance(value, list) and not keeps_list(key, mapping)):
                    nested.add(key)
                    continue
                col = columns.get(key)
                if col is None:
                    col = columns[key] = [None] * n
                col.append(value)
            n += 1
            parents.append(lines)
            for col in columns.values():
                if len(col) < n:
                    col.append(None)
        lines += 1
    if not lines:
        raise InputError("the file has no records.", source=src.name)
    frame, notes = _columns_frame(src.name, columns, nested)
    if held:  # each line's records (line_records), with the line of each row
        frame.attrs.update(parents=np.asarray(parents, dtype=np.int64), held=", ".join(sorted(held)))
    return frame, notes


def _columns_frame(name: str, columns: dict[str, list], nested: set[str]) -> tuple[pd.DataFrame, list[str]]:
    notes: list[str] = []
    kept = {k: v for k, v in columns.items() if k not in nested}
    if nested:
        notes.append(f"{name}: ignored non-scalar fields (lists/objects are not per-attempt values): {', '.join(sorted(nested)[:10])}.")
    return pd.DataFrame({k: pd.Series(v, dtype=object) for k, v in kept.items()}), notes


def _records_frame(name: str, records: list[dict], mapping=None) -> tuple[pd.DataFrame, list[str]]:
    columns: dict[str, list] = {}
    nested: set[str] = set()
    for i, rec in enumerate(records):
        for key, value in rec.items():
            if isinstance(value, dict) or (isinstance(value, list) and not keeps_list(key, mapping)):
                nested.add(key)
            columns.setdefault(key, [None] * i).append(value)
        for col in columns.values():
            if len(col) < i + 1:
                col.append(None)
    return _columns_frame(name, columns, nested)


def _json_records(src: Source, data: bytes, mapping=None) -> tuple[pd.DataFrame, Callable[[int], dict], list[str]]:
    doc = load_json(src)
    if isinstance(doc, dict) and "evaluation_results" in doc and "model_info" in doc:
        raise _aggregate_error(doc, src.name)
    keyed: list[str] = []
    ids: dict = {}
    matrix = ""
    listed: list[str] = []
    if isinstance(doc, dict) and (found := cruxeval_records(doc, src.name)):  # {"raw_scored_generations": {id: [true]}}
        doc, listed = found
    elif isinstance(doc, dict):
        lists = [v for v in doc.values() if isinstance(v, list)]
        groups = [k for k, v in doc.items() if keyed_records(v)]
        own = is_record(k for k, v in doc.items() if not isinstance(v, (dict, list)))  # an attempt itself
        objects = [k for k, v in doc.items() if keyed_objects(v)] if not (lists or groups or own) else []
        if not lists and len(groups) == 1:  # {"eval": {"HumanEval/0": [sample, ...], ...}} (EvalPlus)
            keyed = [groups[0], f"<key in {groups[0]}>", "the arrays", "one per key"]
            lists = [[{**r, keyed[1]: key} for key, recs in doc[groups[0]].items() for r in recs]]
        elif len(objects) == 1:  # {"details": {"0": {"pred": ..., "correct": true}, ...}} (OpenCompass before 0.4)
            recs = doc[objects[0]]
            column = "question_id" if not any("question_id" in r for r in recs.values()) else f"<key in {objects[0]}>"
            keyed = [objects[0], column, "the objects", "keyed by question"]
            lists = [[{column: key, **r} for key, r in recs.items()]]
        elif not lists and not groups and (field := samples_field(doc)):  # {id: {"responses": [{"correctness": ...}]}}
            recs, column = sample_records(doc, field)  # (SkyThought's results.json)
            keyed, lists = ["", column, f"the samples in each object's {field!r} (the position the trial)", "each object keyed by question"], [recs]
        elif not lists and not groups and keyed_objects(doc):  # {question_id: {"model": ..., "judge_response": ...}} (HLE)
            column = "question_id" if not any("question_id" in r for r in doc.values()) else "<key>"
            keyed = ["", column, "the document's objects", "keyed by question"]
            lists = [[{column: key, **r} for key, r in doc.items()]]
        elif not lists and not groups and object_matrix(doc):  # {"gpt-4": {"q1": 1, ...}, ...}
            first = next(iter(doc))
            example = ", ".join(f"{k!r}: {v!r}" for k, v in list(doc[first].items())[:2])
            matrix = (f"{src.name}: {OBJECT_MATRIX} ({len(doc):,} top-level keys, e.g. {first!r}: {{{example}, ...}}), "
                      "read as one row per top-level key (column 'key')" + ("." if "key" in (mapping or {}).values() else
                      "; say which keys are which: --map model=key --map question_id=@columns (top-level keys are "
                      "models) or --map question_id=key --map model=@columns (top-level keys are questions)."))
            lists = [[{"key": k, **v} for k, v in doc.items()]]
        if len(lists) != 1:
            raise InputError("expected a JSON array of records (or an object holding exactly one array of records, or "
                             "one object of arrays of records keyed by question).", source=src.name)
        ids = {k: v for k, v in doc.items() if isinstance(v, (str, int)) and _id_field(k)}  # {"model": "m", ...}
        doc = [{**ids, **r} if isinstance(r, dict) else r for r in lists[0]] if ids else lists[0]
    if not isinstance(doc, list) or not doc:
        raise InputError("expected a non-empty JSON array of records.", source=src.name)
    for i, rec in enumerate(doc):
        if not isinstance(rec, dict):
            raise InputError(f"record {i + 1} is a {type(rec).__name__}, not an object.", source=src.name, row=i + 1)
    frame, notes = _records_frame(src.name, [flatten_records(r) for r in doc], mapping)
    if ids:
        notes.append(f"{src.name}: the document's {', '.join(map(repr, ids))} applied to every record that has no such "
                     "field.")
    if matrix:
        notes.append(matrix)
    notes.extend(listed)
    if keyed:
        notes.append(f"{src.name}: the records are {keyed[2]}{f' under {keyed[0]!r}' if keyed[0] else ''}, {keyed[3]} (the key is column "
                     f"'{keyed[1]}'; {len(doc):,} records).")
    return frame, lambda i: {"row": i + 1}, notes


def object_matrix_refusal(exc: InputError, notes: list[str]) -> InputError:
    """A mapping refusal of an object of objects (:data:`OBJECT_MATRIX`) as the note that says how to read it; any
    other refusal unchanged."""
    said = next((n for n in notes if OBJECT_MATRIX in n), None)
    if said is None:
        return exc
    return InputError(said.split(": ", 1)[1].replace("read as one row per top-level key (column 'key'); ", ""),
                      source=exc.source)


def _id_field(key: str) -> bool:
    """Whether a document-level key names the model or the task (its folded name or an alias of either)."""
    name = normalize_name(key)
    return any(name == f or name in (a for tier in _ALIASES[f] for a in tier) for f in ("model", "task"))


def every_eval_ever_aggregate(doc: dict) -> str:
    """Why an Every Eval Ever aggregate record (``eval.schema.json``: ``model_info``, ``evaluation_results``) is
    refused, and which file to load instead: its ``detailed_evaluation_results.file_path`` (instance-level JSONL).

    >>> every_eval_ever_aggregate({"model_info": {"id": "m"}, "evaluation_results": [],
    ...     "detailed_evaluation_results": {"file_path": "instance_level_data/x.jsonl"}}).split("; ")[1]
    "load its instance-level file instead: 'instance_level_data/x.jsonl' (JSON Lines)."
    """
    info = doc.get("model_info") if isinstance(doc.get("model_info"), dict) else {}
    model = next((v for v in (info.get("id"), info.get("name")) if isinstance(v, str) and v), "its model")
    detail = doc.get("detailed_evaluation_results")
    path = detail.get("file_path") if isinstance(detail, dict) else None
    said = (f"an Every Eval Ever aggregate record (one score per evaluation for {str(model)[:80]!s}): Bayes@N and its "
            "intervals need each question's outcomes; ")
    if isinstance(path, str) and path:
        return said + f"load its instance-level file instead: {path[:200]!r} (JSON Lines)."
    return said + ("it names no instance-level file (detailed_evaluation_results); export the per-sample results "
                   "(Every Eval Ever's instance-level JSONL, an Inspect .eval log, lm-eval --log_samples).")


def _aggregate_error(doc: dict, name: str) -> InputError:
    err = InputError(every_eval_ever_aggregate(doc), source=name)
    detail = doc.get("detailed_evaluation_results")
    path = detail.get("file_path") if isinstance(detail, dict) else None
    err.instance_file = path if isinstance(path, str) and path else None  # for paired_aggregate
    return err


def paired_aggregate(exc: Exception, names) -> str | None:
    """The load note for an Every Eval Ever aggregate record loaded beside the instance-level file it names (a
    folder of the datastore: ``{uuid}.json`` with ``{uuid}_samples.jsonl``), which is then skipped; None otherwise
    (the aggregate alone is refused: :func:`every_eval_ever_aggregate`).

    >>> err = _aggregate_error({"model_info": {"id": "m"}, "evaluation_results": [],
    ...                          "detailed_evaluation_results": {"file_path": "data/x/u1_samples.jsonl"}}, "u1.json")
    >>> paired_aggregate(err, ["u1.json", "u1_samples.jsonl"])[:60]
    'u1.json: an Every Eval Ever aggregate record (one score per '
    >>> paired_aggregate(err, ["u1.json"]) is None
    True
    """
    path = getattr(exc, "instance_file", None)
    if not path or PurePosixPath(path).name not in {PurePosixPath(str(n).replace("\\", "/")).name for n in names}:
        return None
    return (f"{exc.source}: an Every Eval Ever aggregate record (one score per evaluation); skipped, its per-sample "
            f"records are read from {PurePosixPath(path).name}.")
