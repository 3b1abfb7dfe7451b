"""Score letters some harnesses write instead of 0/1, and what to say when a table's outcome column holds them.

Inspect AI's scorers write ``C`` (correct), ``I`` (incorrect), ``P`` (partial) and ``N`` (no answer); its
``value_to_float`` reads them as 1, 0, 0.5 and 0. The Inspect reader applies that reading to logs
(:mod:`scorio_core.io.formats.inspect_ai`); a CSV exported from Inspect's sample tables keeps the letters, and the
loaders (pandas, DuckDB, Spark) refuse them with :func:`letter_scores_hint`'s advice rather than guess.
"""

from __future__ import annotations

__all__ = ["INSPECT_LETTERS", "letter_scores_hint"]

#: Inspect AI's score letters and the value its ``value_to_float`` gives each.
INSPECT_LETTERS = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}


def letter_scores_hint(values, column: str = "COLUMN") -> str:
    """What to do with an outcome column of Inspect AI's score letters, or "" when it holds anything else.

    A CSV exported from Inspect's sample tables keeps the scorer's letters (``C`` correct, ``I`` incorrect, ``P``
    partial, ``N`` no answer), which are not 0/1; the hint gives the recoding Inspect itself applies
    (:func:`scorio_core.io.formats.inspect_ai.value_to_float`), or loading the log, which this package reads with that recoding.

    Parameters
    ----------
    values : iterable
        The column's values (or the one that failed); None and NaN are skipped.
    column : str
        The column's name, for the pandas line.

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
    recode = ", ".join(f"'{k}': {v:g}" for k, v in INSPECT_LETTERS.items())
    return (" These look like Inspect AI's scores (C correct, I incorrect, P partial, N no answer), which Inspect reads as "
            f"1, 0, 0.5 and 0: recode the column the same way, e.g. with pandas: df['is_correct'] = df['{column}'].map("
            f"{{{recode}}}), or load the Inspect log itself (.eval or .json), which is read that way.")
