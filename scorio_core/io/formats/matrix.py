"""Response matrices: one row per model and one column per question (or one row per question, one column per model).

Item response theory data and many published correctness dumps come as a matrix of outcomes (tinyBenchmarks'
correctness arrays, leaderboard "response matrices"): ``model, q1, q2, ...`` with a 0/1 in each cell. No column
names a question there, and guessing that every unmapped column is one would read a table of per-model flags or
scores as questions, so the user says it: ``--map question_id=@columns`` (each column no other field uses is a
question; CLI, ``io.load(mapping=...)``, the app's column mapping) or ``--map model=@columns`` (each such column is a
model, one row per question). A trial column, if any, numbers the rows' attempts (a matrix per run); without one,
each row is one attempt. An empty cell is a question the model was not run on: no attempt, said in the notes.

:func:`guess_mapping` is :func:`scorio_core.io._schema.infer_mapping` for tables that may be such a matrix (the
``"wide"`` layout with ``wide_field`` the question or model); :func:`melt_columns` turns the matrix (or a wide
table's trial columns) into one row per cell.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._schema import UNMAP, MappingGuess, infer_mapping
from scorio_core.io.formats.metric_names import named_outcome
from scorio_core.io.formats.path_names import folder_fields

__all__ = ["MATRIX", "guess_mapping", "matrix_cell_error", "matrix_field", "melt_columns"]

#: The mapping value that makes every column no other field uses a question (``question_id``) or a model.
MATRIX = "@columns"
_FIELDS = ("question_id", "model")
#: Fields read from the rows of a matrix (besides the other of question and model).
_ROW_FIELDS = ("task", "trial")


def matrix_field(mapping: Mapping[str, str] | None) -> str | None:
    """The field whose values are the column names (``question_id`` or ``model``), or None.

    Raises
    ------
    InputError
        ``@columns`` given for another field, or for both.

    >>> matrix_field({"question_id": "@columns", "model": "name"}), matrix_field({"model": "m"})
    ('question_id', None)
    """
    fields = [k for k, v in (mapping or {}).items() if str(v).strip().lower() == MATRIX]
    if not fields:
        return None
    if len(fields) > 1 or fields[0] not in _FIELDS:
        raise InputError(f"--map FIELD={MATRIX} reads the columns as questions (question_id) or as models (model), one "
                         f"of them; got it for {', '.join(fields)}.", field=fields[0])
    return fields[0]


def guess_mapping(columns: Iterable[object], mapping: Mapping[str, str] | None = None, *,
                  source: str | None = None) -> MappingGuess:
    """:func:`~scorio_core.io._schema.infer_mapping`, or the mapping of a response matrix when ``mapping`` says
    ``FIELD=@columns``.

    For a matrix the row fields (``model`` or ``question_id``, ``task``, ``trial``) are found as usual (the user's
    mapping wins) and every other column holds one outcome per row and column: the layout is ``"wide"`` with
    ``wide_field`` the field named by the columns and ``wide_columns`` {column: its name}. Outcome and signal
    columns are not looked for (a cell is the outcome).

    Raises
    ------
    InputError
        As :func:`infer_mapping`; ``@columns`` for another field; no column left to read as questions or models.
    """
    cols = [str(c) for c in columns]
    folders = folder_fields(mapping)  # model/task named by the file's folder: never looked for among the columns
    mapping = {k: (UNMAP if k in folders else v) for k, v in mapping.items()} if folders else mapping
    field = matrix_field(mapping)
    if field is None:
        guess = infer_mapping(cols, mapping, source=source)
        if "is_correct" in guess.missing and "category" not in guess.mapping:  # lighteval's avg@n:n=64, by its name
            named = named_outcome(cols, [*guess.mapping.values(), *(c for cs in guess.ambiguous.values() for c in cs)])
            if len(named) == 1:
                return infer_mapping(cols, {**(mapping or {}), "is_correct": named[0]}, source=source)
            if named:  # several: the user picks one (the refusal lists them)
                return replace(guess, ambiguous={**guess.ambiguous, "is_correct": named},
                               missing=tuple(m for m in guess.missing if m != "is_correct"))
        return guess
    given = {k: v for k, v in (mapping or {}).items() if k != field and k not in folders}
    rows = (_ROW_FIELDS + ("model",)) if field == "question_id" else (_ROW_FIELDS + ("question_id",))
    if any(k not in rows for k in given):
        bad = next(k for k in given if k not in rows)
        raise InputError(f"--map {field}={MATRIX} reads each cell as an outcome, so '{bad}' cannot be mapped to a column; "
                         f"map only {', '.join(rows)}.", source=source, field=bad)
    found = infer_mapping(cols, given, source=source)
    chosen = {k: v for k, v in found.mapping.items() if k in rows}
    ambiguous = {k: v for k, v in found.ambiguous.items() if k in rows}
    taken = set(chosen.values()) | {c for cs in ambiguous.values() for c in cs}
    matrix = {c: c for c in cols if c not in taken}
    if not matrix:
        raise InputError(f"--map {field}={MATRIX}: no column is left to read as {'questions' if field == 'question_id' else 'models'}"
                         f" (columns: {', '.join(map(repr, cols[:12]))}).", source=source, field=field)
    other = "model" if field == "question_id" else "question_id"  # the rows' field: required (no file-stem default)
    missing = (other,) if other not in chosen and other not in ambiguous and other not in folders else ()
    return MappingGuess(mapping=chosen, ambiguous=ambiguous, missing=missing, layout="wide", wide_columns=matrix,
                        user=dict(found.user), unmapped=found.unmapped, columns=tuple(cols), wide_field=field)


def melt_columns(frame: pd.DataFrame, wide: Mapping[str, object], field: str) -> tuple[pd.DataFrame, np.ndarray, int]:
    """One row per (row, column) cell of ``wide``'s columns: ``(table, source row of each, empty cells left out)``.

    The cells go to ``__outcome__`` and the column's value in ``wide`` (a trial index, or the column name of a
    question or model) to ``__<field>__``; the other columns are repeated. Rows stay in file order with one row's
    cells together; empty cells (missing, or blank text) are no attempt and are left out.
    """
    n, cols = len(frame), list(wide)
    keep = [c for c in frame.columns if c not in wide]
    index = np.repeat(np.arange(n), len(cols))  # row-major: one source row's cells together
    out = frame[keep].iloc[index].reset_index(drop=True)
    block = frame[cols]  # one 2-D array (row-major ravel): no per-column Series for a matrix of 10^4 columns
    numeric = all(pd.api.types.is_numeric_dtype(dt) and not pd.api.types.is_bool_dtype(dt) for dt in block.dtypes)
    integer = all(isinstance(dt, np.dtype) and dt.kind in "iu" for dt in block.dtypes)  # shown as written in errors
    values = pd.Series(block.to_numpy(dtype=np.int64).ravel() if integer else
                       block.to_numpy(dtype=float, na_value=np.nan).ravel() if numeric else  # floats, Int8 ...
                       block.to_numpy(dtype=object).ravel())
    out["__outcome__"] = values
    if field == "trial":
        out["__trial__"] = np.tile(np.array([wide[c] for c in cols], dtype=np.int64), n)
    else:  # the column names as a categorical (codes tiled): no 10^6 strings to hash again
        names = pd.Index([str(wide[c]) for c in cols])
        out[f"__{field}__"] = pd.Categorical.from_codes(np.tile(np.arange(len(cols)), n),
                                                        categories=names)  # unique: the readers refuse repeated names
    present = ~values.isna().to_numpy()
    if isinstance(values.dtype, pd.CategoricalDtype) or values.dtype == object:
        present &= values.astype(str).str.strip().to_numpy() != ""
    return out[present].reset_index(drop=True), index[present], int((~present).sum())


def matrix_cell_error(exc: InputError, frame: pd.DataFrame, field: str) -> InputError:
    """A refused outcome of a response matrix, said about its cells: the column of the first cell that is not an
    outcome (0/1, true/false, a number in [0, 1]) is named, with the reminder that every column no other field uses
    was read as a question (model); the advice written for a wide table's trial columns speaks of the matrix's.

    ``frame`` is :func:`melt_columns`'s table; the refusal keeps its location and the attributes the app reads
    (``labels``, ``scale``).
    """
    text = frame["__outcome__"].astype("string").str.strip().str.lower()
    number = pd.to_numeric(text.replace({"true": "1", "false": "0"}), errors="coerce")
    bad = (~text.isna() & number.isna()) | (number < 0) | (number > 1)
    first = np.flatnonzero(bad.fillna(False).to_numpy(dtype=bool))
    what = "question" if field == "question_id" else "model"
    said = (exc.message.replace("the trial cells", "the matrix cells").replace("column 'trial cells'", "the matrix cells")
            .replace("trial_columns", f"{what}_columns"))
    said = re.sub(r" If the column holds category codes.*?Override another field\.", "", said)  # no category in a matrix
    if len(first):
        column = str(frame[f"__{field}__"].iloc[int(first[0])])
        said += (f" (First in column {column!r}.)" if getattr(exc, "labels", None) else
                 f" (The value is in column {column!r}: every column no other field uses is read as a {what} "
                 f"(--map {field}={MATRIX}); a column that holds something else, such as a model's size, must be "
                 "removed from the table first, or mapped to a field.)")
    err = InputError(said, source=exc.source, line=exc.line, row=exc.row, field=exc.field)
    for name in ("labels", "scale", "outcome_range"):
        if hasattr(exc, name):
            setattr(err, name, getattr(exc, name))
    return err
