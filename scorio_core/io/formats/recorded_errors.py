"""Attempts a table marks as errored, said in the load notes with how they were counted (never changed).

Every Eval Ever's instance-level records (``error``: "timeout, refusal, API error") and many harness exports carry an
error column beside the outcome, which their converters usually fill with a failure. An API error or a timeout is no
answer of the model's, so counting it as wrong lowers that model's score; whether it should is the user's call. The
loader keeps the file's outcome and says how many attempts record an error and how they were counted
(:func:`recorded_errors_note`), with the pandas line that reads them as missing outcomes instead.
"""

from __future__ import annotations

__all__ = ["ERROR_COLUMNS", "NO_ERROR", "error_column", "errored_rows", "errors_as_missing", "errors_note",
           "recorded_errors_note"]

#: Column names (folded as :func:`scorio_core.io._schema.normalize_name` folds them) read as an attempt's error.
ERROR_COLUMNS = frozenset({"error", "errors", "error_message", "exception"})
#: Values of an error column's text (trimmed, lower case) that mean "no error".
NO_ERROR = ("", "none", "null", "nan", "false", "0", "no")


def error_column(columns):
    """The first of ``columns`` read as an attempt's error (its name folded is in :data:`ERROR_COLUMNS`), or None.

    >>> error_column(["model", "Error", "exception"]), error_column(["model", "is_correct"])
    ('Error', None)
    """
    from scorio_core.io._schema import normalize_name

    return next((c for c in columns if normalize_name(c) in ERROR_COLUMNS), None)


def errored_rows(frame):
    """``(error column, mask of the rows whose error is set)``, or ``(None, None)`` when the table has no error column.

    A text value counts as an error unless it is empty, missing, or one of ``none``, ``null``, ``nan``, ``false``,
    ``0``, ``no`` (:data:`NO_ERROR`); a number counts when it is not 0 (a CSV column of blanks and zeros reads as
    0.0, no error); a boolean column is its own mask. The DuckDB engine applies the same rule in SQL
    (:func:`scorio_core.engines.duckdb_inputs.canonical_select`).
    """
    import numpy as np
    import pandas as pd

    column = error_column(frame.columns)
    if column is None:
        return None, None
    s = frame[column]
    if pd.api.types.is_bool_dtype(s.dtype):
        return column, s.fillna(False).to_numpy(dtype=bool)
    if pd.api.types.is_numeric_dtype(s.dtype):
        v = s.to_numpy(dtype=float, na_value=np.nan)
        return column, ~np.isnan(v) & (v != 0)
    codes, uniques = pd.factorize(s, use_na_sentinel=True)  # each distinct value judged once (0.34 -> 0.03 s per 1e6)
    text = pd.Series(np.asarray(uniques, dtype=object), dtype=object).astype("string").str.strip().str.lower()
    flag = np.append(~text.isin(NO_ERROR).to_numpy(dtype=bool, na_value=True), False)  # codes -1 (missing): no error
    return column, flag[codes]


def errors_as_missing(frame, columns):
    """The table with the outcome ``columns`` of errored rows set to missing: ``(frame, rows, error column)``;
    ``(frame, 0, None)`` when the table has no error column (or one empty on every line, which readers drop).

    Parameters
    ----------
    frame : pandas.DataFrame
        A long table as read (one row per attempt); not modified.
    columns : list of str
        The columns read as the outcome (``is_correct`` and a graded ``score``): all are blanked, so no choice
        (``binarize_threshold``) fills the outcome back from the score.
    """
    import pandas as pd

    column, errored = errored_rows(frame)
    if column is None:
        return frame, 0, None
    k = int(errored.sum())
    if not k:
        return frame, 0, column
    out = frame.copy(deep=False)
    for col in dict.fromkeys(columns):
        s = out[col]
        numeric = pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype)
        out[col] = s.where(~errored) if numeric else s.astype(object).where(~errored, None)  # NaN / None: missing
    return out, k, column


def recorded_errors_note(frame, outcome_column: str | None, source: str) -> str | None:
    """The load note for attempts whose error column is set, or None when none is (or there is no such column).

    Parameters
    ----------
    frame : pandas.DataFrame
        A long table as read (one row per attempt).
    outcome_column : str or None
        The column read as the outcome.
    source : str
        The file's name.

    Returns
    -------
    str or None
        How many attempts record an error, an example, and how their outcomes were counted (incorrect, correct,
        graded, without an outcome), with the option that reads them as missing instead.

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"correct": [1, 0, 0, None], "error": [None, "timeout", "", "API error"]})
    >>> note = recorded_errors_note(frame, "correct", "runs.jsonl")
    >>> note.split("; ")[0]
    "runs.jsonl: 2 attempts record an error in column 'error' (e.g. 'API error')"
    >>> note.split(": ")[2].split(".")[0]
    '1 incorrect, 1 without an outcome (left to the missing-outcomes choice)'
    """
    import pandas as pd

    column, errored = errored_rows(frame)
    if column is None or outcome_column is None or outcome_column not in frame.columns:
        return None
    k = int(errored.sum())
    if not k:
        return None
    words = frame[outcome_column][errored].astype("string").str.strip().str.lower()
    v = pd.to_numeric(words.replace({"true": "1", "false": "0"}), errors="coerce").to_numpy(dtype=float, na_value=float("nan"))
    counted = {"incorrect": int((v == 0).sum()), "correct": int((v == 1).sum()), "graded": int(((v > 0) & (v < 1)).sum()),
               "missing": int(pd.isna(v).sum())}
    example = frame[column][errored].astype(str).min()  # the smallest, as the DuckDB engine shows it
    return errors_note(source, column, k, example, counted)


def errors_note(source: str, column: str, k: int, example, counted) -> str:
    """The load note for ``k`` attempts whose error ``column`` is set (shared by the pandas and DuckDB loaders).

    Parameters
    ----------
    source : str
        The file's name.
    column : str
        The error column.
    k : int
        Attempts whose error is set (> 0).
    example : object
        One of their error values (shown shortened).
    counted : dict of str to int
        How their outcomes count: ``incorrect``, ``correct``, ``graded`` (strictly between 0 and 1), ``missing``
        (no outcome); attempts not in these are said to lie outside [0, 1].

    >>> errors_note("a.csv", "error", 3, "timeout", {"incorrect": 3}).split("; ")[1].split(".")[0]
    'they count as the outcome column says: 3 incorrect'
    """
    example = str(example)
    example = example if len(example) <= 60 else example[:57] + "..."
    words = {"incorrect": "incorrect", "correct": "correct", "graded": "graded",
             "missing": "without an outcome (left to the missing-outcomes choice)"}
    said = ", ".join(f"{counted[key]:,} {what}" for key, what in words.items() if counted.get(key))
    rest = k - sum(counted.get(key, 0) for key in words)
    said += f", {rest:,} outside [0, 1]" if rest else ""
    many = ("attempts record", "they count") if k > 1 else ("attempt records", "it counts")
    return (f"{source}: {k:,} {many[0]} an error in column '{column}' (e.g. {example!r}); {many[1]} as the "
            f"outcome column says: {said}. If an error is no answer of the model's (an API failure, a timeout), read "
            "those attempts as missing outcomes instead: --errors-as-missing (CLI) or 'Read attempts with an error as "
            "missing' under the app's Load button, then choose what missing outcomes count as (--missing-outcomes "
            "drop or incorrect).")
