"""Attempts a table marks as errored, said in the load notes with how they were counted (never changed).

Every Eval Ever's instance-level records (``error``: "timeout, refusal, API error") and many harness exports carry an
error column beside the outcome, which their converters usually fill with a failure. An API error or a timeout is no
answer of the model's, so counting it as wrong lowers that model's score; whether it should is the user's call. The
loader keeps the file's outcome and says how many attempts record an error and how they were counted
(:func:`recorded_errors_note`), with the pandas line that reads them as missing outcomes instead.
"""

from __future__ import annotations

__all__ = ["ERROR_COLUMNS", "errored_rows", "errors_as_missing", "recorded_errors_note"]

#: Column names (folded as :func:`scorio_core.io._schema.normalize_name` folds them) read as an attempt's error.
ERROR_COLUMNS = frozenset({"error", "errors", "error_message", "exception"})
#: Values of an error column that mean "no error".
_NO_ERROR = ("", "none", "null", "nan", "false", "0", "no")


def errored_rows(frame):
    """``(error column, mask of the rows whose error is set)``, or ``(None, None)`` when the table has no error column.

    A value counts as an error unless it is empty, missing, or one of ``none``, ``null``, ``nan``, ``false``, ``0``,
    ``no``; a boolean column is its own mask.
    """
    import numpy as np
    import pandas as pd

    from scorio_core.io._schema import normalize_name

    column = next((c for c in frame.columns if normalize_name(c) in ERROR_COLUMNS), None)
    if column is None:
        return None, None
    s = frame[column]
    if pd.api.types.is_bool_dtype(s.dtype):
        return column, s.fillna(False).to_numpy(dtype=bool)
    codes, uniques = pd.factorize(s, use_na_sentinel=True)  # each distinct value judged once (0.34 -> 0.03 s per 1e6)
    text = pd.Series(np.asarray(uniques, dtype=object), dtype=object).astype("string").str.strip().str.lower()
    flag = np.append(~text.isin(_NO_ERROR).to_numpy(dtype=bool, na_value=True), False)  # codes -1 (missing): no error
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
    "runs.jsonl: 2 attempts record an error in column 'error' (e.g. 'timeout')"
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
    s = frame[column]
    example = str(s[errored].iloc[0])
    example = example if len(example) <= 60 else example[:57] + "..."
    words = frame[outcome_column][errored].astype("string").str.strip().str.lower()
    v = pd.to_numeric(words.replace({"true": "1", "false": "0"}), errors="coerce").to_numpy(dtype=float, na_value=float("nan"))
    counted = [(int((v == 0).sum()), "incorrect"), (int((v == 1).sum()), "correct"),
               (int(((v > 0) & (v < 1)).sum()), "graded"), (int(pd.isna(v).sum()), "without an outcome (left to "
                                                             "the missing-outcomes choice)")]
    said = ", ".join(f"{n:,} {what}" for n, what in counted if n)
    rest = k - sum(n for n, _ in counted)
    said += f", {rest:,} outside [0, 1]" if rest else ""
    many = ("attempts record", "they count") if k > 1 else ("attempt records", "it counts")
    return (f"{source}: {k:,} {many[0]} an error in column '{column}' (e.g. {example!r}); {many[1]} as the "
            f"outcome column says: {said}. If an error is no answer of the model's (an API failure, a timeout), read "
            "those attempts as missing outcomes instead: --errors-as-missing (CLI) or 'Read attempts with an error as "
            "missing' under the app's Load button, then choose what missing outcomes count as (--missing-outcomes "
            "drop or incorrect).")
