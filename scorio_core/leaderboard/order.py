"""The leaderboard's row order: best score first, exact ties by model name, unscored rows last.

One key for every view that lists models by a score (the leaderboard, the models x tasks matrix and the Tasks page),
so two models with the same score are listed in the same order everywhere, whatever order the data gave them.
"""

from __future__ import annotations

import pandas as pd

__all__ = ["board_order"]


def board_order(frame: pd.DataFrame, score: str = "mu") -> pd.DataFrame:
    """``frame`` sorted as the leaderboard sorts its rows: ``score`` descending, exact ties by ``model`` ascending,
    rows without a score (NaN) last.

    Parameters
    ----------
    frame : DataFrame
        Rows with a ``model`` column and a numeric ``score`` column (any other columns are kept).
    score : str, default "mu"
        The column to rank by (``mu`` for a leaderboard, ``bayes`` for task cells, ``score`` for combined scores).

    Returns
    -------
    DataFrame
        The rows in the leaderboard's order (index kept; stable, so equal names keep their order).

    Raises
    ------
    KeyError
        ``frame`` has no ``model`` or no ``score`` column.

    Examples
    --------
    >>> t = pd.DataFrame({"model": ["o3-mini (low)", "DeepSeek-R1", "none"], "mu": [0.5, 0.5, float("nan")]})
    >>> board_order(t)["model"].tolist()
    ['DeepSeek-R1', 'o3-mini (low)', 'none']
    """
    return frame.sort_values([score, "model"], ascending=[False, True], na_position="last", kind="stable")
