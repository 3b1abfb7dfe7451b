"""Per-trial outcome lists: one record per question whose outcome field lists the N samples' outcomes.

Sampling evaluations often keep one record per (model, question) with the outcomes of its N samples in a list:
Qwen2.5-Math's evaluation writes ``"score": [true, false, ...]``, pass@k harnesses ``"correct": [1, 0, 1, 1]``.
The JSON and Parquet readers drop list fields (they are not per-attempt values), except a list field whose name
reads as an outcome (an alias of ``is_correct``: ``correct``, ``passed``, ``score`` ...) or that the user mapped
(``--map is_correct=FIELD``); :func:`explode_trials` then reads each element as one attempt and its position
(0-based) as the trial, and says so. A record with an empty list has no attempt (said), a null element is a
missing outcome (left to the missing-outcomes choice), other list fields are dropped with the readers' note, and a
trial column beside such a list is refused (two numberings of the same attempts).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from scorio_core.errors import InputError
from scorio_core.io._schema import _ALIASES, MappingGuess, normalize_name
from scorio_core.io.formats.matrix import guess_mapping

__all__ = ["OUTCOME_NAMES", "explode_trials", "is_record", "keeps_list", "sample_records", "samples_field", "scalar_list",
           "text_lists", "trial_column_error", "trial_list_notes"]

#: Folded names of the fields a list of per-trial outcomes may have (``is_correct`` and its aliases).
OUTCOME_NAMES = frozenset({"is_correct"} | {a for tier in _ALIASES["is_correct"] for a in tier})
#: The elements a list written as text may hold (as pandas writes a list column to CSV: ``[True, False, None]``).
_TOKENS = {"true": 1.0, "false": 0.0, "1": 1.0, "0": 0.0, "1.0": 1.0, "0.0": 0.0, "none": np.nan, "null": np.nan,
           "nan": np.nan}
_ELEMENT = "(?:" + "|".join(re.escape(t) for t in _TOKENS) + ")"
_TEXT_LIST = rf"\[\s*(?:{_ELEMENT}(?:\s*,\s*{_ELEMENT})*)?\s*,?\s*\]"


def is_record(names) -> bool:
    """Whether plain (non-nested) fields with these names make one attempt of their own: an outcome and a question
    id (``{"task_id": ..., "passed": true, "tests": [...]}``), so lists of objects nested in it are details, not its
    records. A document with an outcome and no question id (``{"accuracy": 50.0, "details": {...}}``) is a summary.

    >>> is_record(["model", "task_id", "passed"]), is_record(["accuracy", "model"])
    (True, False)
    """
    folded = {normalize_name(n) for n in names}
    ids = {"question_id"} | {a for tier in _ALIASES["question_id"] for a in tier}
    return bool(folded & OUTCOME_NAMES) and bool(folded & ids)


def keeps_list(name: str, mapping: Mapping[str, str] | None) -> bool:
    """Whether a list field ``name`` is kept by the readers: named as an outcome, or mapped as one by the user.

    >>> keeps_list("score", None), keeps_list("metrics.correct", None), keeps_list("tokens", None)
    (True, True, False)
    >>> keeps_list("verdicts", {"is_correct": "verdicts"})
    True
    """
    if name == (mapping or {}).get("is_correct"):
        return True
    return normalize_name(str(name).rsplit(".", 1)[-1]) in OUTCOME_NAMES


def scalar_list(typ: pa.DataType) -> bool:
    """A list (large or fixed-size too) of scalars (numbers, booleans, text): not a list of lists or of objects."""
    return ((pa.types.is_list(typ) or pa.types.is_large_list(typ) or pa.types.is_fixed_size_list(typ))
            and not pa.types.is_nested(typ.value_type))


def trial_column_error(column: str, trial: str, source: str) -> InputError:
    """The refusal of a trial column beside a list of per-trial outcomes (two numberings of the same attempts)."""
    return InputError(f"column '{column}' lists the outcomes of several trials per row and column '{trial}' numbers "
                      "trials too; drop one of them (or map the outcome to another column).", source=source,
                      field="trial")


def _is_list_column(s: pd.Series) -> bool:
    if s.dtype != object:
        return False
    first = s.first_valid_index()  # no copy of the column (a text column of 10^7 rows)
    return first is not None and isinstance(s.at[first], (list, tuple, np.ndarray))


def text_lists(frame: pd.DataFrame, guess: MappingGuess, source: str, notes: list[str]) -> pd.DataFrame:
    """The outcome column as lists when every value is a list of 0/1 outcomes written as text (``[True, False, True]``,
    ``[1, 0, 1]``: what ``DataFrame.to_csv`` writes for a list column), for :func:`explode_trials`; else unchanged.

    Only ``true``/``false``/``1``/``0``/``1.0``/``0.0`` and ``None``/``null``/``nan`` (a missing outcome) are read, without
    case; any other text leaves the column to the outcome check, which names its row.

    >>> t = pd.DataFrame({"model": ["m", "m"], "question_id": ["q1", "q2"], "correct": ["[True, False]", "[]"]})
    >>> from scorio_core.io.formats.matrix import guess_mapping
    >>> text_lists(t, guess_mapping(t.columns, None), "t.csv", [])["correct"].tolist()
    [[1.0, 0.0], []]
    """
    column = guess.mapping.get("is_correct")
    if guess.layout != "attempts" or column not in frame.columns or not (
            frame[column].dtype == object or pd.api.types.is_string_dtype(frame[column].dtype)):
        return frame
    first = frame[column].first_valid_index()
    if first is None or not isinstance(frame[column].at[first], str) or not frame[column].at[first].lstrip().startswith("["):
        return frame  # real lists (a JSON reader's) go to explode_trials as they are
    text = frame[column].astype("string").str.strip()
    if not (text.isna() | text.str.fullmatch(_TEXT_LIST, case=False).fillna(False)).all():
        return frame
    tokens = text.str.slice(1, -1).str.split(",").explode().str.strip().str.lower()
    tokens = tokens[tokens.notna() & (tokens != "")]
    lists = tokens.map(_TOKENS).groupby(level=0).agg(list)
    out = pd.Series([[] if v is not pd.NA else None for v in text], index=frame.index, dtype=object)
    out.loc[lists.index] = lists
    notes.append(f"{source}: column '{column}' holds lists written as text ('{frame[column].at[first]!s:.40}', as pandas "
                 "writes a list column to CSV): read as lists of outcomes.")
    return frame.assign(**{column: out.to_numpy()})


def explode_trials(frame: pd.DataFrame, guess: MappingGuess, locate: Callable[[int], dict], mapping, source: str,
                   notes: list[str]) -> tuple[pd.DataFrame, MappingGuess, Callable[[int], dict]]:
    """One row per element of the outcome column when it holds lists; the table unchanged otherwise.

    Parameters
    ----------
    frame : pandas.DataFrame
        A table as read (list fields kept by :func:`keeps_list` as object columns of lists or arrays).
    guess : MappingGuess
        Its mapping; ``is_correct`` names the column looked at.
    locate : callable
        The reader's ``row -> {"line": ...}``; the result locates an attempt at its record's line.
    mapping : dict or None
        The user's mapping (kept; ``trial`` and ``is_correct`` are set for the exploded table).
    source : str
        The file's name, for notes and errors.
    notes : list of str
        Appended to in place: what was read, and list fields dropped.

    Returns
    -------
    (pandas.DataFrame, MappingGuess, callable)
        The table (other list columns dropped, ``<position in FIELD>`` added), its mapping and locator.

    Raises
    ------
    InputError
        A trial column beside a list of per-trial outcomes; lists mixed with single values; every list empty.
    """
    lists = [c for c in frame.columns if _is_list_column(frame[c])]
    if not lists:
        return frame, guess, locate
    column = guess.mapping.get("is_correct")
    dropped = [c for c in lists if c != column]
    if dropped:
        notes.append(f"{source}: ignored non-scalar fields (lists/objects are not per-attempt values): "
                     f"{', '.join(map(str, dropped[:10]))}.")
        frame = frame.drop(columns=dropped)
    if column not in lists:
        given = {k: v for k, v in (mapping or {}).items() if v not in dropped}
        return frame, guess_mapping(frame.columns, given, source=source), locate
    if "trial" in guess.mapping:
        raise trial_column_error(column, guess.mapping["trial"], source)
    try:
        values = pa.array(frame[column].to_numpy(dtype=object), from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        values = pa.array([])
    if not (pa.types.is_list(values.type) or pa.types.is_large_list(values.type)):
        raise InputError(f"column '{column}' mixes lists and single values (or lists of mixed types); give every row a "
                         "list of outcomes, or one outcome per row.", source=source, field="is_correct")
    parent = np.asarray(pc.list_parent_indices(values))
    if not len(parent):
        raise InputError(f"column '{column}' lists no outcome in any row (every list is empty): no attempt to read.",
                         source=source, field="is_correct")
    offsets = np.asarray(values.offsets)[:-1]
    position = np.arange(len(parent), dtype=np.int64) - offsets[parent]
    flat = values.flatten().to_pandas()
    empty = int((pc.list_value_length(values).fill_null(0).to_numpy() == 0).sum())
    out = frame.drop(columns=[column]).take(parent).reset_index(drop=True)
    trial = f"<position in {column}>"
    out[column], out[trial] = flat.to_numpy(), position
    notes.append(f"{source}: column '{column}' lists each row's trial outcomes: each element read as one attempt "
                 f"({len(parent):,} from {len(frame):,} rows), its position (0-based) as the trial"
                 + (f"; {empty:,} row{'s' * (empty != 1)} with an empty list {'have' if empty != 1 else 'has'} no attempt." if empty else "."))
    given = {**(mapping or {}), "is_correct": column, "trial": trial}
    return out, guess_mapping(out.columns, given, source=source), (lambda i: locate(int(parent[i])))


def trial_list_notes(groups, rows: Mapping[str, int]) -> list[str]:
    """The note :func:`explode_trials` gives, for the input groups a SQL engine read as per-trial lists.

    Parameters
    ----------
    groups : sequence
        Input groups with ``files`` (``.path``, ``.name``) and ``trial_list``: ``(list column, position column)``
        when the engine unnested the outcome column (``None`` or absent otherwise).
    rows : mapping of str to int
        File path -> attempts read from it (one per list element).

    Returns
    -------
    list of str
        One note per such file, in input order.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> g = NS(trial_list=("score", "<position in score>"), files=[NS(path="/d/a.jsonl", name="a.jsonl")])
    >>> trial_list_notes([g], {"/d/a.jsonl": 1200})[0][:68]
    "a.jsonl: column 'score' lists each row's trial outcomes: each elemen"
    """
    out = []
    for group in groups:
        listed = getattr(group, "trial_list", None)
        for f in group.files if listed else ():
            out.append(f"{f.name}: column '{listed[0]}' lists each row's trial outcomes: each element read as one "
                       f"attempt ({int(rows.get(f.path, 0)):,} attempts), its position (0-based) as the trial; a row "
                       "with an empty list has no attempt.")
    return out


def samples_field(doc) -> str | None:
    """The field holding each question's samples when ``doc`` is an object of objects keyed by question whose first
    object lists its samples as objects with an outcome (SkyThought's ``results.json``: ``{unique_id: {"problem": ...,
    "responses": [{"content": ..., "correctness": true}, ...]}}``), else None.

    >>> samples_field({"7": {"problem": "p", "responses": [{"content": "x", "correctness": True}]}})
    'responses'
    >>> samples_field({"7": {"tokens": [{"n": 3}]}}), samples_field([{"correct": 1}])
    (None, None)
    """
    if not isinstance(doc, dict) or not doc or not all(isinstance(v, dict) for v in list(doc.values())[:50]):
        return None
    first = next(iter(doc.values()))
    return next((k for k, v in first.items() if isinstance(v, list) and v and isinstance(v[0], dict)
                 and any(normalize_name(f) in OUTCOME_NAMES for f in v[0])), None)


def sample_records(doc: dict, field: str) -> tuple[list[dict], str]:
    """One record per sample of a document :func:`samples_field` recognises: the question's key as ``question_id``
    (``<key>`` when the objects have a ``question_id`` of their own), the sample's position as ``trial``, the object's
    plain fields, the sample's fields and the same position of each other list of objects as long as the samples
    (SkyThought's ``token_usages``: each sample's tokens).

    Returns
    -------
    (records, id column) : (list of dict, str)

    >>> recs, col = sample_records({"7": {"answer": "4", "responses": [{"correctness": True}, {"correctness": False}],
    ...                                   "token_usages": [{"completion_tokens": 9}, {"completion_tokens": 5}]}},
    ...                            "responses")
    >>> col, [(r["question_id"], r["trial"], r["correctness"], r["completion_tokens"]) for r in recs]
    ('question_id', [('7', 0, True, 9), ('7', 1, False, 5)])
    """
    column = "<key>" if any(isinstance(v, dict) and "question_id" in v for v in doc.values()) else "question_id"
    records: list[dict] = []
    for key, obj in doc.items():
        samples = obj.get(field) if isinstance(obj, dict) else None
        if not isinstance(samples, list):
            continue
        plain = {k: v for k, v in obj.items() if not isinstance(v, (list, dict))}
        beside = [v for k, v in obj.items() if k != field and isinstance(v, list) and len(v) == len(samples)
                  and all(isinstance(x, dict) for x in v)]
        for i, sample in enumerate(samples):
            rec = {**plain, column: key, "trial": i}
            for other in beside:
                rec.update(other[i])
            rec.update(sample if isinstance(sample, dict) else {field: sample})
            records.append(rec)
    return records, column
