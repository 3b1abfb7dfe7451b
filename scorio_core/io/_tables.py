"""Generic tables: CSV/TSV, JSON Lines, JSON record arrays and Parquet, read with pyarrow.

Each reader returns the raw table as a pandas DataFrame (string id columns dictionary-encoded
while reading, so a million rows stay small), the column mapping it used, and a function
that turns a 0-based row position into a file location for error messages. Readers only
parse; values are validated in :mod:`scorio_core.io._canonical`.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from scorio_core.errors import InputError
from scorio_core.io.formats.jsonl import drop_nested, flatten_records, object_matrix_refusal, read_json_frame
from scorio_core.io.formats.path_names import folder_fields, folder_names
from scorio_core.io.formats.rates import rates_to_counts
from scorio_core.io.formats.trial_lists import explode_trials, text_lists
from scorio_core.io._schema import MappingGuess
from scorio_core.io.formats.matrix import guess_mapping
from scorio_core.io._sources import Source, locate_bad_utf8, text_encoding, utf8_bytes

__all__ = ["RawTable", "read_table", "table_columns"]

_DICT = pa.dictionary(pa.int32(), pa.string())
_DICT_FIELDS = ("model", "task", "question_id", "finish_reason")
_BLOCK = 4 << 20


@dataclass
class RawTable:
    """A parsed table before validation (see module docstring)."""

    frame: pd.DataFrame
    guess: MappingGuess
    locate: Callable[[int], dict]
    notes: list[str] = field(default_factory=list)
    derived: dict[str, str] = field(default_factory=dict)  # new column -> "mean(field)"
    path_names: dict[str, str] = field(default_factory=dict)  # model/task -> the folder naming it (--map model=@folder)
    rescaled: int = 0  # rows of a rate column divided by the user's outcome scale before being read as counts


def table_columns(src: Source, fmt: str) -> list[str]:
    """Column names of a generic table without reading all of it (for the mapping widget)."""
    if fmt in ("csv", "tsv"):
        return _csv_header(src, _delimiter(src, fmt))
    if fmt == "parquet":
        return _flat_names(_parquet_schema(src))  # struct fields as the reader names them (metrics.acc)
    if fmt == "jsonl":
        records = []
        for line in src.text_head(1 << 20).split(b"\n")[:200]:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict):
                records.append(flatten_records(rec))
        if records:
            return list(dict.fromkeys(k for r in records for k in r))
    return list(read_json_frame(src, fmt, None, None)[0].columns)


def read_table(
    src: Source,
    fmt: str,
    mapping: Mapping[str, str] | None,
    defaults: Mapping[str, str] | None = None,
    list_means: Mapping[str, str] | None = None,
    scale: float | None = None,
) -> RawTable:
    """Read a generic table and resolve its column mapping.

    ``defaults`` is a format's own mapping (e.g. the scorio JSONL field paths), applied
    under the user's ``mapping``; ``list_means`` turns JSON list fields into per-row means
    (``{source_field: new_column}``, nulls skipped), computed without a Python loop on the
    pyarrow path. ``scale`` (the user's outcome scale, e.g. 100) is applied to a rate column beside a trial count
    before it is read as counts (:func:`~scorio_core.io.formats.rates.rates_to_counts`; ``RawTable.rescaled`` then
    holds its rows); other outcomes are rescaled by the caller.

    Raises
    ------
    InputError
        Empty file, header only, ragged rows, invalid UTF-8, invalid JSON, an unreadable
        Parquet file, duplicate column names, or an ambiguous/missing required column; ``@folder`` for an upload
        or above the file system's root (:mod:`scorio_core.io.formats.path_names`).
    """
    path_names = folder_names(src.path, folder_fields(mapping), src.name)
    if fmt in ("csv", "tsv"):
        raw = _read_csv(src, fmt, mapping)
    elif fmt == "parquet":
        raw = _read_parquet(src, mapping)
    else:
        frame, locate, notes = read_json_frame(src, fmt, mapping, list_means)
        merged = {k: v for k, v in (defaults or {}).items() if v in frame.columns}
        merged.update(mapping or {})
        guess = guess_mapping(frame.columns, merged, source=src.name)
        try:
            guess.raise_if_unresolved(src.name)
        except InputError as exc:  # an object of objects: say which keys can be models or questions
            raise object_matrix_refusal(exc, notes) from None
        derived = {out: f"mean({f})" for f, out in (list_means or {}).items() if out in frame.columns}
        raw = RawTable(_encode_ids(frame, guess), guess, locate, notes, derived)
    raw.frame = text_lists(raw.frame, raw.guess, src.name, raw.notes)  # '[True, False]' in a CSV cell
    raw.frame, raw.guess, raw.locate = explode_trials(raw.frame, raw.guess, raw.locate, mapping, src.name, raw.notes)
    layout = raw.guess.layout
    raw.frame, raw.guess = rates_to_counts(raw.frame, raw.guess, raw.locate, mapping, src.name, raw.notes, scale)
    raw.rescaled = len(raw.frame) if scale is not None and layout != raw.guess.layout else 0
    raw.path_names = path_names
    return raw


# ---------------------------------------------------------------------------- CSV / TSV
def _delimiter(src: Source, fmt: str) -> str:
    if fmt == "tsv":
        return "\t"
    first = _text_head(src).split(b"\n", 1)[0]
    return ";" if first.count(b";") > first.count(b",") else ","


def _text_head(src: Source) -> bytes:
    head = src.text_head()
    enc = text_encoding(head)
    if enc is not None:
        return head.decode(enc, errors="ignore").lstrip("\ufeff").encode("utf-8")
    return head.removeprefix(b"\xef\xbb\xbf")


def _csv_header(src: Source, delimiter: str) -> list[str]:
    head = _text_head(src)
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 4:
            raise locate_bad_utf8(src.name, head) from None
        text = head[: exc.start].decode("utf-8")
    rows = csv.reader(io.StringIO(text), delimiter=delimiter)
    header = next((r for r in rows if r), None)
    if not header:
        raise InputError("the file is empty; export the results again.", source=src.name)
    names = [h.strip() for h in header]
    _check_names(src.name, names)
    return names


def _check_names(name: str, columns: list[str]) -> None:
    seen: set[str] = set()
    for i, c in enumerate(columns):
        if c == "":
            raise InputError(f"column {i + 1} of the header has no name; give every column a name.", source=name, line=1)
        if c in seen:
            raise InputError(f"column '{c}' appears twice in the header; rename one of them.", source=name, line=1, field=c)
        seen.add(c)


def _read_csv(src: Source, fmt: str, mapping: Mapping[str, str] | None) -> RawTable:
    delimiter = _delimiter(src, fmt)
    header = _csv_header(src, delimiter)
    guess = guess_mapping(header, mapping, source=src.name)
    guess.raise_if_unresolved(src.name)
    types = {guess.mapping[k]: _DICT for k in _DICT_FIELDS if k in guess.mapping}
    path = src.readable_path() if text_encoding(src.head(4)) is None else None
    payload = None if path is not None else utf8_bytes(src)

    def read(use_threads: bool = True, newlines: bool = False, handler=None) -> pa.Table:
        # Streaming reader: it holds one block at a time instead of the whole file, and it
        # infers each column's type from the first block; a later block that does not fit
        # (a number column with text further down) is re-read with that column as text.
        while True:
            stream = str(path) if path is not None else io.BytesIO(payload)
            try:
                reader = pacsv.open_csv(
                    stream,
                    read_options=pacsv.ReadOptions(use_threads=use_threads, block_size=_BLOCK, column_names=header, skip_rows=1),
                    parse_options=pacsv.ParseOptions(delimiter=delimiter, newlines_in_values=newlines, invalid_row_handler=handler),
                    convert_options=pacsv.ConvertOptions(column_types=types, quoted_strings_can_be_null=False),
                )
                table = reader.read_all()
            except pa.ArrowInvalid as exc:
                # pyarrow >= 17 puts the row in between: "In CSV column #9: Row #3: CSV conversion error to null"
                m = re.match(r"In CSV column #(\d+): (?:Row #\d+: )?CSV conversion error to (?!string|dictionary)", str(exc))
                if m is None or header[int(m.group(1))] in types:
                    raise
                types[header[int(m.group(1))]] = pa.string()
                continue
            pa.default_memory_pool().release_unused()
            return table

    def data() -> bytes:
        return payload if payload is not None else src.data()

    try:
        table = read()
    except pa.ArrowInvalid as exc:
        text = str(exc)
        if "Empty CSV" in text:
            raise InputError("the file has a header but no data rows.", source=src.name, line=1) from None
        if "Expected" in text and "columns" in text:
            try:
                table = read(newlines=True)  # quoted values with line breaks
            except pa.ArrowInvalid:
                raw = data()
                if not _is_utf8(raw):  # else pyarrow fails inside the bad-row callback (a traceback on stderr)
                    raise locate_bad_utf8(src.name, raw) from None
                raise _ragged(src, read, len(header)) from None
        elif "UTF8" in text or "utf8" in text.lower():
            raise locate_bad_utf8(src.name, data()) from None
        else:
            first = text.splitlines()[0] if text else ""
            first = first if len(first) <= 300 else first[:300] + f"... ({len(first):,} characters)"  # a 5 MB value
            raise InputError(f"cannot parse the table ({first}); check that it is {fmt.upper()} text.", source=src.name) from None
    if table.num_rows == 0:
        raise InputError("the file has a header but no data rows.", source=src.name, line=1)
    for name, col in zip(table.column_names, table.columns):
        if pa.types.is_binary(col.type) or pa.types.is_large_binary(col.type):
            raise locate_bad_utf8(src.name, data(), field=name)
    frame = table.to_pandas(self_destruct=True, split_blocks=True)
    del table
    pa.default_memory_pool().release_unused()
    return RawTable(frame, guess, lambda i: {"line": _csv_line_of_row(data(), delimiter, i)})


def _is_utf8(data: bytes, step: int = 1 << 24) -> bool:
    """Whether ``data`` is valid UTF-8, checked in 16 MiB steps (no full-size str copy)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        for start in range(0, len(data), step):
            decoder.decode(data[start:start + step], final=False)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _ragged(src: Source, read, n_header: int) -> InputError:
    bad: list = []

    def handler(row) -> str:
        bad.append(row)
        return "error"

    try:
        read(use_threads=False, newlines=True, handler=handler)
    except pa.ArrowInvalid:
        pass
    if bad:
        row = bad[0]
        return InputError(
            f"row has {row.actual_columns} fields but the header has {row.expected_columns}; fix the "
            "delimiters or quoting on that line (a value containing the delimiter must be quoted).",
            source=src.name,
            line=row.number,
        )
    return InputError(f"rows do not all have {n_header} fields; fix the delimiters or quoting.", source=src.name)


def _csv_line_of_row(data: bytes, delimiter: str, row: int) -> int:
    """1-based file line where 0-based data row ``row`` starts (blank lines skipped)."""
    reader = csv.reader(io.StringIO(data.decode("utf-8", errors="replace")), delimiter=delimiter)
    start = 1
    index = -1
    for record in reader:
        if record:
            index += 1
            if index == row + 1:
                return start
        start = reader.line_num + 1
    return start


# ---------------------------------------------------------------------------- Parquet
def _parquet_schema(src: Source) -> pa.Schema:
    try:
        path = src.readable_path()
        return pq.read_schema(str(path) if path else pa.BufferReader(src.data()))
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"not a readable Parquet file ({str(exc).splitlines()[0]}); re-export it.", source=src.name) from None


def _read_parquet(src: Source, mapping: Mapping[str, str] | None) -> RawTable:
    schema = _parquet_schema(src)
    names = [f.name for f in schema]
    _check_names(src.name, names)
    flat = [f.name for f in schema if not pa.types.is_struct(f.type)]
    guess = guess_mapping(_flat_names(schema), mapping, source=src.name)
    guess.raise_if_unresolved(src.name)
    strings = {guess.mapping[k] for k in _DICT_FIELDS if k in guess.mapping}
    read_dict = [n for n in flat if n in strings and pa.types.is_string(schema.field(n).type)]
    try:
        path = src.readable_path()
        with pq.ParquetFile(str(path) if path else pa.BufferReader(src.data()), read_dictionary=read_dict) as pf:
            batches = list(pf.iter_batches(batch_size=1 << 16, use_threads=False))  # one row group at a time
            table = pa.Table.from_batches(batches, schema=pf.schema_arrow) if batches else pf.schema_arrow.empty_table()
        del batches
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"not a readable Parquet file ({str(exc).splitlines()[0]}); re-export it.", source=src.name) from None
    while any(pa.types.is_struct(t) for t in table.schema.types):
        table = table.flatten()
    if table.num_rows == 0:
        raise InputError("the table has columns but no rows.", source=src.name)
    table, notes = drop_nested(src.name, table, mapping)
    frame = table.to_pandas(self_destruct=True, split_blocks=True)
    del table
    pa.default_memory_pool().release_unused()
    return RawTable(_encode_ids(frame, guess), guess, lambda i: {"row": i + 1}, notes)


def _flat_names(schema: pa.Schema, prefix: str = "") -> list[str]:
    out = []
    for f in schema:
        if pa.types.is_struct(f.type):
            out.extend(_flat_names(pa.schema(list(f.type)), f"{prefix}{f.name}."))
        else:
            out.append(prefix + f.name)
    return out


def _encode_ids(frame: pd.DataFrame, guess: MappingGuess) -> pd.DataFrame:
    for key in _DICT_FIELDS:
        col = guess.mapping.get(key)
        if col is not None and col in frame.columns and not isinstance(frame[col].dtype, pd.CategoricalDtype):
            s = frame[col]
            if s.dtype == object or pd.api.types.is_string_dtype(s.dtype):
                frame[col] = s.astype("category")
    return frame
