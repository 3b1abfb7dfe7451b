"""Which models move when questions are left out: a leaderboard before and after, side by side.

The Questions page's toggle "rank without flagged questions" ranks a task on every question and on the
questions left after :func:`scorio_core.items.report.exclude_questions`; :func:`rank_shift` joins the two
leaderboards (:func:`scorio_core.leaderboard.table.leaderboard`) per model so a reader can judge a flag's
effect before acting on it. :func:`success_rates` gives each model's observed success rate per question (the
markers of the item characteristic curve).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from scorio_core.items.irt import from_outcomes

__all__ = ["SHIFT_COLUMNS", "rank_shift", "success_rates"]

#: Columns of :func:`rank_shift`.
SHIFT_COLUMNS = ("model", "rank_before", "rank_after", "moved", "mu_before", "lo_before", "hi_before", "mu_after",
                 "lo_after", "hi_after", "n_questions_before", "n_questions_after")

_NEEDED = ("model", "rank", "mu", "lo", "hi", "n_questions")


def rank_shift(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """Join two leaderboards of the same task per model: ranks, means and intervals before and after.

    Parameters
    ----------
    before, after : DataFrame
        Leaderboards (:func:`scorio_core.leaderboard.table.leaderboard`) with at least the columns
        ``model, rank, mu, lo, hi, n_questions``; ``after`` is usually computed on fewer questions.
        A model missing from one of them (e.g. it answered only left-out questions) gets NaN there.

    Returns
    -------
    DataFrame
        One row per model of either table, columns :data:`SHIFT_COLUMNS`: ``rank_before``/``rank_after``
        (nullable Int64), ``moved = rank_before - rank_after`` (Int64: positive = moved up, negative =
        down, NA when either rank is missing), ``mu``/``lo``/``hi`` and ``n_questions`` of each side.
        Sorted by ``rank_after``, then ``rank_before``, then model (unranked last).

    Raises
    ------
    ValueError
        A table lacks one of the needed columns, or lists a model twice.

    Examples
    --------
    >>> b = pd.DataFrame({"model": ["x", "y"], "rank": [1, 2], "mu": [.8, .6], "lo": [.7, .5], "hi": [.9, .7],
    ...                   "n_questions": [10, 10]})
    >>> a = b.assign(rank=[2, 1], mu=[.5, .7], n_questions=[9, 9])
    >>> rank_shift(b, a)[["model", "rank_before", "rank_after", "moved"]].values.tolist()
    [['y', 2, 1, 1], ['x', 1, 2, -1]]
    """
    for name, table in (("before", before), ("after", after)):
        missing = [c for c in _NEEDED if c not in table.columns]
        if missing:
            raise ValueError(f"{name} lacks the leaderboard column(s) {', '.join(missing)}.")
        if table["model"].astype(str).duplicated().any():
            raise ValueError(f"{name} lists a model more than once; pass the leaderboard of one task.")

    def side(table: pd.DataFrame, suffix: str) -> pd.DataFrame:
        out = table[list(_NEEDED)].copy()
        out["model"] = out["model"].astype(str)
        return out.rename(columns={c: f"{c}_{suffix}" for c in _NEEDED if c != "model"})

    joined = side(before, "before").merge(side(after, "after"), on="model", how="outer", sort=False)
    order = list(dict.fromkeys([str(m) for m in before["model"]] + [str(m) for m in after["model"]]))
    joined = joined.set_index("model").loc[order].reset_index()
    for column in ("rank_before", "rank_after", "n_questions_before", "n_questions_after"):
        joined[column] = pd.to_numeric(joined[column], errors="coerce").round().astype("Int64")
    joined["moved"] = (joined["rank_before"] - joined["rank_after"]).astype("Int64")
    joined = joined.sort_values(["rank_after", "rank_before", "model"], na_position="last", kind="stable")
    return joined.reset_index(drop=True)[list(SHIFT_COLUMNS)]


def success_rates(task_outcomes) -> pd.DataFrame:
    """Observed success rate of every model on every question (the outcome :func:`~.report.diagnose` fits).

    Parameters
    ----------
    task_outcomes : TaskOutcomes or Outcomes
        Binary correctness when the data has it (``.binary``), else the rubric outcomes (weighted
        successes, weights in [0, 1]).

    Returns
    -------
    DataFrame
        Shape (L models, M questions), index ``model``, columns the question ids; a cell with no trial is NaN.
    """
    outcomes = getattr(task_outcomes, "binary", None) or getattr(task_outcomes, "rubric", task_outcomes)
    s, n, models, questions = from_outcomes(outcomes)
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = np.where(n > 0, s / np.where(n > 0, n, 1), np.nan)
    return pd.DataFrame(rates, index=pd.Index(list(models), name="model"), columns=list(questions))
