"""Rows whose empirical-Bayes prior the data do not identify, as a coded note for scripts.

Their ``prior`` column names the prior asked for while the row is the observed mean over the questions (avg@N; the
pooled Jeffreys estimate when every trial is in one category) with an exact binomial interval (``interval_kind``); a pipeline reading only ``prior`` would be misled (N = 1 data, a single question, every
trial in one category: :func:`scorio_core.uncertainty.posterior.fallback_interval_label`).
"""

from __future__ import annotations

__all__ = ["not_fitted_notices"]


def not_fitted_notices(table) -> list[dict]:
    """One ``prior_not_fitted`` note per task with fallback rows.

    Parameters
    ----------
    table : DataFrame
        Leaderboard rows (``task``, ``model``, ``interval``, ``interval_kind``:
        :func:`scorio_core.leaderboard.table.leaderboard`).

    Returns
    -------
    list of dict
        ``{"code": "prior_not_fitted", "task", "models", "message"}`` per task whose ``interval_kind`` is
        ``exact-binomial`` on some row; empty when none is (or the column is absent).

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"task": ["t", "t"], "model": ["a", "b"], "interval_kind": ["exact-binomial", "credible"],
    ...                   "interval": ["95% exact ... (N = 1: one trial per question) ...", "95% credible interval"]})
    >>> [(n["code"], n["models"]) for n in not_fitted_notices(t)]
    [('prior_not_fitted', ['a'])]
    """
    from scorio_core.ranking.paired import names_phrase, not_identified_cause
    from scorio_core.uncertainty.priors import not_identified_rule

    if "interval_kind" not in getattr(table, "columns", ()):
        return []
    out = []
    for task, rows in table[table["interval_kind"].eq("exact-binomial")].groupby("task", sort=False):
        models = rows["model"].astype(str).tolist()
        cause = not_identified_cause(rows, models) or not_identified_rule(degenerate=True)
        out.append({"code": "prior_not_fitted", "task": str(task), "models": models, "message": (
            f"{task}: the empirical-Bayes prior is not identified for {names_phrase(models)} ({cause}): "
            f"{'its row is' if len(models) == 1 else 'their rows are'} the observed mean over the questions (avg@N; "
            "with every trial in one category, the pooled Jeffreys estimate (successes + 1/2) / (trials + 1)) with a "
            "conservative exact binomial interval (interval_kind), not a posterior mean and credible interval")})
    return out
