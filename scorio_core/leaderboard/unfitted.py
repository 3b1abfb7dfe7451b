"""Rows whose empirical-Bayes prior the data do not identify, as a coded note for scripts; and the leaderboard's
``prior_pull`` notice for the commands that show some of its rows without its other notices (``compare``, ``tasks``).

Their ``prior`` column names the prior asked for while the row is the observed mean over the questions (avg@N; the
pooled Jeffreys estimate when every trial is in one category) with an exact binomial interval (``interval_kind``); a pipeline reading only ``prior`` would be misled (N = 1 data, a single question, every
trial in one category: :func:`scorio_core.uncertainty.posterior.fallback_interval_label`).
"""

from __future__ import annotations

__all__ = ["not_fitted_notices", "prior_pull_notes"]


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
    >>> wide = pd.concat([t] * 4).assign(model=list("abcdefgh"), interval_kind="exact-binomial")
    >>> not_fitted_notices(wide)[0]["message"][:57]
    't: the empirical-Bayes prior is not identified for all 8 '
    """
    from scorio_core.ranking.paired import names_phrase, not_identified_cause
    from scorio_core.uncertainty.priors import not_identified_rule

    if "interval_kind" not in getattr(table, "columns", ()):
        return []
    out = []
    for task, rows in table[table["interval_kind"].eq("exact-binomial")].groupby("task", sort=False):
        models = rows["model"].astype(str).tolist()
        cause = not_identified_cause(rows, models) or not_identified_rule(degenerate=True)
        said = names_phrase(models, of=int(table["task"].eq(task).sum()))  # every row: "all 150 models"
        out.append({"code": "prior_not_fitted", "task": str(task), "models": models, "message": (
            f"{task}: the empirical-Bayes prior is not identified for {said} ({cause}): "
            f"{'its row is' if len(models) == 1 else 'their rows are'} the observed mean over the questions (avg@N; "
            "with every trial in one category, the pooled Jeffreys estimate (successes + 1/2) / (trials + 1)) with a "
            "conservative exact binomial interval (interval_kind), not a posterior mean and credible interval")})
    return out


def prior_pull_notes(table, models=None, *, r0_note: dict | None = None, task: str | None = None) -> list[dict]:
    """The leaderboard's ``prior_pull`` notice for the rows a command shows, in the leaderboard's words.

    ``compare`` shows two rows of a task's leaderboard and ``tasks`` every row per task: where a prior moved a shown
    model's mean beyond its own interval from its observed avg@N, they say so as the leaderboard does (statistical QA:
    MathArena under the uniform prior, o3-mini (high) avg@N 0.800 beside [0.624, 0.776]).

    Parameters
    ----------
    table : DataFrame
        Leaderboard rows of one task (``model, mu, lo, hi, avg``, ...:
        :func:`scorio_core.leaderboard.table.leaderboard`).
    models : collection of str, optional
        The models the command shows (default: every row): the notice names only those, as if the table held no other.
    r0_note : dict, optional
        The task's ``prior_outcomes`` note when prior outcomes R0 entered the rows: the notice says R0 pulls the means
        (:func:`scorio_core.rubric.prior_outcomes.r0_pull_notice`), as the leaderboard's does.
    task : str, optional
        Added as ``task``, and ``message`` starts ``"{task}: "`` (as the leaderboard's notes).

    Returns
    -------
    list of dict
        ``[{"code": "prior_pull", "finding", "message", "models", ["task"]}]``, or ``[]`` when every shown interval
        holds its avg@N (:func:`scorio_core.leaderboard.checks.prior_pull_notice`).

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"model": ["a", "b"], "mu": [0.2, 0.5], "lo": [0.18, 0.4], "hi": [0.22, 0.6],
    ...                   "avg": [0.05, 0.5], "n_trials": [2, 2], "prior": ["jeffreys"] * 2})
    >>> [n["models"] for n in prior_pull_notes(t)], prior_pull_notes(t, ["b"])
    ([['a']], [])
    >>> prior_pull_notes(t, task="t1")[0]["message"][:30]
    't1: The interval of a excludes'
    """
    from scorio_core.leaderboard.checks import prior_pull_notice
    from scorio_core.rubric.prior_outcomes import r0_pull_notice

    shown = table if models is None else table[table["model"].astype(str).isin(set(map(str, models)))]
    notice = prior_pull_notice(shown)
    if notice is None:
        return []
    notice = r0_pull_notice(notice, r0_note) if r0_note is not None else notice
    if task is not None:
        notice = {**notice, "task": task, "message": f"{task}: {notice['message']}"}
    return [notice]
