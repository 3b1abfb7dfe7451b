"""Per-question rates beside a trial count: ``accuracy = 0.75`` with ``n_samples = 4`` is 3 correct of 4 trials.

Tables aggregated by a user's own script often keep one row per (model, question) with the share of correct trials
and the number of trials (``model, question_id, accuracy, n_samples``), where Bayes@N needs the counts. Such a table
is read as a count table when, and only when, its outcome column holds a value strictly between 0 and 1, a trial
count column sits beside it (``n_trials`` or an alias: ``n``, ``n_samples``, ``num_samples`` ...; or the outcome's
name states it, lighteval's ``avg@n:n=64`` and ``pass@k:k=1&n=16``:
:func:`~scorio_core.io.formats.metric_names.trials_in_name`) and no column
numbers trials or counts successes: ``n_correct = rate x n_trials``, which must be a whole number on every row
(within the rounding of a rate printed to 4 decimals). A row where it is not is refused by its line (a mean of
graded scores is not a count of correct trials); the notes say what was read. A 0/1 outcome column is left as it is
(one attempt per row), whatever other column is named like a trial count.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._schema import MappingGuess
from scorio_core.io.formats.matrix import guess_mapping
from scorio_core.io.formats.metric_names import trials_in_name

__all__ = ["RATE_TOLERANCE", "is_rate_table", "rates_refusal", "rates_to_counts"]

#: A rate is read as ``k / n`` when within this of it (a rate printed to 4 decimals), or a quarter of ``1 / n`` when
#: that is smaller (so one ``k`` is the only candidate).
RATE_TOLERANCE = 5e-5


def is_rate_table(guess: MappingGuess) -> bool:
    """Whether a table's mapping could be a rate table: an outcome and a trial count (a column, or ``n=N`` in the
    outcome's name: :func:`~scorio_core.io.formats.metric_names.trials_in_name`), no trial and no success count.

    >>> from scorio_core.io.formats.matrix import guess_mapping
    >>> is_rate_table(guess_mapping(["model", "question_id", "accuracy", "n_samples"], None))
    True
    >>> is_rate_table(guess_mapping(["model", "question_id", "trial", "correct"], None))
    False
    """
    m = guess.mapping
    return (guess.layout == "attempts" and "is_correct" in m
            and ("n_trials" in m or trials_in_name(m["is_correct"]) is not None)
            and not {"n_correct", "trial", "category"} & set(m))


def rates_refusal(column: str, trials: str | None) -> str:
    """Why a SQL engine (DuckDB, Spark) leaves a rate table to the pandas engine, which reads it as counts.

    >>> rates_refusal("accuracy", "n_samples")[:72]
    "column 'accuracy' holds shares of correct trials beside column 'n_sample"
    """
    count = f"column '{trials}' (a trial count)" if trials else "the trial count its name states"
    return (f"column '{column}' holds shares of correct trials beside {count}, which the pandas engine reads as counts "
            "(n_correct = share x trials); use --engine pandas.")


def rates_to_counts(frame: pd.DataFrame, guess: MappingGuess, locate: Callable[[int], dict],
                    mapping: Mapping[str, str] | None, source: str, notes: list[str],
                    scale: float | None = None) -> tuple[pd.DataFrame, MappingGuess]:
    """Read a rate table as counts (``n_correct = rate x n_trials``); any other table unchanged.

    Parameters
    ----------
    frame : pandas.DataFrame
        A table as read, shape (rows, columns).
    guess : MappingGuess
        Its mapping (:func:`is_rate_table` decides whether to look at the values).
    locate : callable
        The reader's ``row -> {"line": ...}`` (or ``{"row": ...}``), to name a refused row.
    mapping : dict or None
        The user's mapping (kept; ``n_correct`` is set to the computed column).
    source : str
        The file's name, for the note and errors.
    notes : list of str
        Appended to in place: what was read.
    scale : float, optional
        The user's outcome scale (``--outcome-scale 100``: rates in percent), applied before the rates are checked.

    Returns
    -------
    (pandas.DataFrame, MappingGuess)
        The table with the rate column replaced by ``<RATE x N>`` (int64 correct trials) and its count-table mapping,
        or the inputs unchanged when no outcome lies strictly between 0 and 1.

    Raises
    ------
    InputError
        A rate whose product with the row's trials is not a whole number of correct trials; a missing rate or a
        trial count that is not a positive whole number on a row of such a table.

    Examples
    --------
    >>> t = pd.DataFrame({"model": ["a", "a"], "question_id": ["q1", "q2"], "accuracy": [0.75, 0.3333],
    ...                   "n_samples": [4, 3]})
    >>> g = guess_mapping(t.columns, None)
    >>> notes = []
    >>> out, g2 = rates_to_counts(t, g, lambda i: {"row": i + 1}, None, "acc.csv", notes)
    >>> out["<accuracy x n_samples>"].tolist(), g2.layout
    ([3, 1], 'counts')
    """
    if not is_rate_table(guess):
        return frame, guess
    col = guess.mapping["is_correct"]
    named = trials_in_name(col)
    ncol = f"<n in {col}>" if named else guess.mapping["n_trials"]
    rate = pd.to_numeric(frame[col], errors="coerce").to_numpy(dtype=float) / (scale or 1.0)
    if not ((rate > 0) & (rate < 1)).any() or (rate < 0).any() or (rate > 1).any():
        return frame, guess  # one 0/1 attempt per row (or a scale the outcome checks refuse by name)
    if named:  # the trial count the column's name states, which a trial count column must not contradict
        other = guess.mapping.get("n_trials")
        if other is not None:
            differs = np.flatnonzero(pd.to_numeric(frame[other], errors="coerce").to_numpy(dtype=float) != named)
            first = frame[other].iloc[int(differs[0])] if differs.size else None
            if differs.size and "n_trials" in (guess.user or {}):
                where = {key: v for key, v in locate(int(differs[0])).items() if key in ("line", "row")}
                raise InputError(f"column '{col}' states n={named} trials in its name and column '{other}' (mapped as "
                                 f"n_trials) gives {first}; map the trial count that belongs to this outcome, or "
                                 "another outcome.", source=source, field="n_trials", **where)
            if differs.size:
                notes.append(f"{source}: column '{other}' ({first} on {differs.size:,} of {len(frame):,} rows) not used "
                             f"as the trial count of '{col}', whose name states n={named}.")
            frame = frame.drop(columns=[other])
        frame = frame.assign(**{ncol: np.int64(named)})
    n = pd.to_numeric(frame[ncol], errors="coerce").to_numpy(dtype=float)
    good_n = np.isfinite(n) & (n >= 1) & (n == np.floor(n))
    k = np.rint(rate * np.where(good_n, n, 1.0))
    tol = np.minimum(RATE_TOLERANCE, 0.25 / np.where(good_n, n, 1.0))
    whole = np.isfinite(rate) & (np.abs(rate - k / np.where(good_n, n, 1.0)) <= tol)
    bad = np.flatnonzero(~(good_n & whole))
    times = str(named) if named else ncol  # what the rate is multiplied by, in messages
    over = f"the n={named} trials its name states" if named else f"column '{ncol}'"
    if bad.size:
        i = int(bad[0])
        where = {key: v for key, v in locate(i).items() if key in ("line", "row")}
        if not good_n[i]:
            why = f"'{ncol}' must be a positive whole number of trials; got {frame[ncol].iloc[i]!r}"
        elif not np.isfinite(rate[i]):
            why = f"'{col}' is missing or not a number ({frame[col].iloc[i]!r})"
        else:
            why = (f"{rate[i]:g} x {int(n[i])} = {rate[i] * n[i]:g} is not a whole number of correct trials (a mean "
                   "of graded scores, or an estimate such as pass@k with k > 1, is not a share of correct trials)")
        fix = ("map another outcome column (--map is_correct=COLUMN)" if named else f"if '{ncol}' is not a trial count "
               "(each row one attempt with a graded score), say so with --map n_trials=none (the app: the column mapping)")
        raise InputError(f"column '{col}' holds shares of correct trials over {over} (a value strictly between 0 and 1 "
                         f"beside a trial count), read as counts n_correct = {col} x {times}; {why}"
                         f"{f' ({bad.size:,} rows like it)' if bad.size > 1 else ''}. Give n_trials and n_correct "
                         f"columns, or one row per attempt with its 0/1 outcome; {fix}.", source=source,
                         field="is_correct", **where)
    counted = f"<{col} x {times}>"
    out = frame.drop(columns=[col])
    out[counted] = k.astype(np.int64)
    notes.append(f"{source}: column '{col}'{f' (divided by {scale:g}, the outcome scale given)' if scale else ''} read "
                 f"as each question's share of correct trials over {over} (values "
                 f"strictly between 0 and 1 beside a trial count): counts n_correct = {col} x {times}, a whole number "
                 f"on all {len(frame):,} rows.")
    given = {k_: v for k_, v in (mapping or {}).items() if k_ != "is_correct"}
    return out, guess_mapping(out.columns, {**given, "n_trials": ncol, "n_correct": counted}, source=source)
