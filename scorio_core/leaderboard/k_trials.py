"""The error when ``--k`` exceeds the trials of every model: it names the fewest and the most trials per question."""

from __future__ import annotations

__all__ = ["k_above_trials_error"]


def k_above_trials_error(table, k: int, metric: str) -> ValueError:
    """The error for a Pass@k-family ``k`` above every model's fewest trials per question.

    The estimators need ``k`` trials on every question, so what limits ``k`` is each model's fewest
    trials per question (``n_trials``), not the most (``n_trials_max``); with unequal trials both are
    named, with the two ways out (a smaller ``--k``, or the questions with at least ``k`` trials).

    Parameters
    ----------
    table : DataFrame
        Leaderboard rows with ``n_trials`` (a model's fewest trials per question; 0: not scored) and,
        optionally, ``n_trials_max`` (its most).
    k : int
        The ``--k`` asked for.
    metric : str
        The metric's name, e.g. ``"pass@k"``.

    Returns
    -------
    ValueError
        One line: the fewest (and most) trials per question and what to do.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"n_trials": [1, 1], "n_trials_max": [5, 5]})
    >>> print(k_above_trials_error(t, 3, "pass@k"))  # doctest: +NORMALIZE_WHITESPACE
    --k 3 is more than the fewest trials per question of every model (the fewest is N = 1, the most N = 5):
    pass@k needs k trials on every question; choose --k 1 or smaller, or keep the questions with at least 3
    trials (run more trials on the others).
    """
    scored = table.loc[table["n_trials"] > 0]
    lo, hi = int(scored["n_trials"].min()), int(scored["n_trials"].max())
    most = int(scored["n_trials_max"].max()) if "n_trials_max" in scored else hi
    if most == hi == lo:
        return ValueError(f"--k {k} is more than the trials per question of every model (every question has N = {hi} "
                          f"trials): {metric} needs k <= N; choose --k {hi} or smaller, or run more trials.")
    fewest = f"N = {hi}" if lo == hi else f"N = {lo} to {hi} across models"
    way = (f", or keep the questions with at least {k} trials (run more trials on the others)" if most >= k
           else f" (no question has more than {most} trials)")
    return ValueError(f"--k {k} is more than the fewest trials per question of every model (the fewest is {fewest}, "
                      f"the most N = {most}): {metric} needs k trials on every question; choose --k {hi} or "
                      f"smaller{way}.")
