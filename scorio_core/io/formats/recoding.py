"""Values a table holds that need recoding before they can be read, and what the loaders say about each.

The loaders refuse these rather than guess, with the recoding to write (a pandas line):

* Inspect AI's score letters: its scorers write ``C`` (correct), ``I`` (incorrect), ``P`` (partial) and ``N`` (no
  answer), which its ``value_to_float`` reads as 1, 0, 0.5 and 0. The Inspect reader applies that reading to logs
  (:mod:`scorio_core.io.formats.inspect_ai`); a CSV exported from Inspect's sample tables keeps the letters
  (:func:`letter_scores_hint`).
* Success/failure words such as pass/fail (:func:`binary_labels_hint`).
* Scores on a 0-100 scale (:func:`percent_scores_hint`).
* Trials labelled by text, such as run names (:func:`trial_labels_hint`).
"""

from __future__ import annotations

__all__ = ["INSPECT_LETTERS", "BINARY_LABELS", "letter_scores_hint", "binary_labels_hint", "text_scores_hint",
           "percent_scores_hint", "trial_labels_hint"]

#: Inspect AI's score letters and the value its ``value_to_float`` gives each.
INSPECT_LETTERS = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}
#: Words an outcome column may hold for a success (1) and a failure (0), compared without case or spaces.
BINARY_LABELS = {**dict.fromkeys(("pass", "passed", "correct", "right", "yes", "success", "solved"), 1),
                 **dict.fromkeys(("fail", "failed", "incorrect", "wrong", "no", "failure", "unsolved"), 0)}


def letter_scores_hint(values, column: str | None = "COLUMN") -> str:
    """What to do with an outcome column of Inspect AI's score letters, or "" when it holds anything else.

    A CSV exported from Inspect's sample tables keeps the scorer's letters (``C`` correct, ``I`` incorrect, ``P``
    partial, ``N`` no answer), which are not 0/1; the hint gives the recoding Inspect itself applies
    (:func:`scorio_core.io.formats.inspect_ai.value_to_float`), or loading the log, which this package reads with that recoding.

    Parameters
    ----------
    values : iterable
        The column's values (or the one that failed); None and NaN are skipped.
    column : str or None
        The column's name, for the pandas line; None for a wide table's trial columns (one column per trial).

    Returns
    -------
    str
        A sentence starting with a space when every value is one of C, I, P, N and at least one is C or I; else "".

    >>> letter_scores_hint(["C", "I", "I"], "score")[:66]
    " These look like Inspect AI's scores (C correct, I incorrect, P pa"
    >>> letter_scores_hint(["correct", "I"])
    ''
    """
    texts = {str(v).strip() for v in values if v is not None and v == v}
    if not texts or not texts <= INSPECT_LETTERS.keys() or not texts & {"C", "I"}:
        return ""
    recode = "{" + ", ".join(f"'{k}': {v:g}" for k, v in INSPECT_LETTERS.items()) + "}"
    example = (f"the column the same way, e.g. with pandas: df['is_correct'] = df['{column}'].map({recode})" if column is not None
               else f"the trial columns the same way, e.g. with pandas: df[trial_columns] = df[trial_columns].replace({recode})")
    return (" These look like Inspect AI's scores (C correct, I incorrect, P partial, N no answer), which Inspect reads as "
            f"1, 0, 0.5 and 0: recode {example}, or load the Inspect log itself (.eval or .json), which is read that way.")


def binary_labels_hint(values, column: str | None = "COLUMN") -> str:
    """The 0/1 recoding of an outcome column of two words such as pass/fail, or "" when it holds anything else.

    Parameters
    ----------
    values : iterable
        The column's distinct values; None and NaN are skipped.
    column : str or None
        The column's name, for the pandas line; None for a wide table's trial columns.

    Returns
    -------
    str
        A sentence starting with a space when every value is one of :data:`BINARY_LABELS` (any case) and both a
        success and a failure word occur; the map lists every spelling found. The loaders still refuse the
        column: which word means success is the user's to confirm.

    >>> binary_labels_hint(["pass", "fail", "Pass"], "result").split("pandas: ")[1]
    "df['is_correct'] = df['result'].map({'fail': 0, 'Pass': 1, 'pass': 1})."
    >>> binary_labels_hint(["pass", "partial", "fail"]), binary_labels_hint(["yes", "right"])
    ('', '')
    """
    texts = sorted({str(v) for v in values if v is not None and v == v}, key=lambda t: (t.strip().lower(), t))
    read = [BINARY_LABELS.get(t.strip().lower()) for t in texts]
    if not texts or None in read or len(set(read)) < 2:
        return ""
    recode = "{" + ", ".join(f"{t!r}: {v}" for v, t in sorted(zip(read, texts), key=lambda p: p[0])) + "}"
    line = (f"df['is_correct'] = df['{column}'].map({recode})" if column is not None
            else f"df[trial_columns] = df[trial_columns].replace({recode})")
    return f" These read as success/failure labels: recode them to 0/1, e.g. with pandas: {line}."


def text_scores_hint(values, column: str | None = "COLUMN") -> str:
    """:func:`letter_scores_hint`, else :func:`binary_labels_hint` (same arguments): "" for other text.

    >>> text_scores_hint(["C", "I"]) == letter_scores_hint(["C", "I"])
    True
    """
    return letter_scores_hint(values, column) or binary_labels_hint(values, column)


def percent_scores_hint(low: float, high: float, column: str | None = "COLUMN") -> str:
    """What to do with an outcome column whose scores look like percentages, or "" when they do not.

    Parameters
    ----------
    low, high : float
        The smallest and largest value of the column (NaN when it has none).
    column : str or None
        The column's name, for the pandas line; None for a wide table's trial columns.

    Returns
    -------
    str
        A sentence starting with a space when ``0 <= low`` and ``1 < high <= 100``; else "". The loaders never
        rescale by themselves: a score of 1 on a 0-100 scale would otherwise read as a full success.

    >>> percent_scores_hint(0, 100, "score")
    " If the column holds percentages (0 to 100), divide it by 100 first, e.g. with pandas: df['is_correct'] = df['score'] / 100."
    >>> percent_scores_hint(0, 250), percent_scores_hint(-1, 50), percent_scores_hint(0, 1)
    ('', '', '')
    """
    if not (0 <= low and 1 < high <= 100):  # NaN compares false: no hint
        return ""
    line = (f"df['is_correct'] = df['{column}'] / 100" if column is not None
            else "df[trial_columns] = df[trial_columns] / 100")
    return f" If the column holds percentages (0 to 100), divide it by 100 first, e.g. with pandas: {line}."


def trial_labels_hint(column: str = "COLUMN") -> str:
    """What to do with a trial column of text labels (run names, seeds written as words).

    Parameters
    ----------
    column : str
        The column's name, for the pandas line.

    Returns
    -------
    str
        A sentence starting with a space: number the labels (the same label the same number across models, so
        trials stay paired by label), or un-map the column, which numbers each (model, task, question)'s rows in
        row order.

    >>> trial_labels_hint("run")[:56]
    ' If the trials are labelled by text (run names), number '
    """
    return (" If the trials are labelled by text (run names), number them, e.g. with pandas: "
            f"df['trial'] = pd.factorize(df['{column}'])[0] (the same label gets the same number in every model), or "
            "un-map the column (--map trial=none in the CLI, or 'none' under the app's Column mapping): each (model, "
            "task, question)'s rows are then its trials in row order.")
