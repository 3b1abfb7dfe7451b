"""Combined score across tasks: the macro average of per-task Bayes@N with its credible interval."""

from __future__ import annotations

import numpy as np
import pandas as pd

from scorio_core.uncertainty.batch import clipped_normal_interval

__all__ = ["COMBINED_ASSUMPTION", "COMBINED_COLUMNS", "UNEQUAL_TASKS_RATIO", "WEIGHTING", "combined_score",
           "no_combined_notice", "unequal_task_sizes_notice"]

#: Column order of :func:`combined_score` (also the JSON keys of the ``tasks`` CLI).
COMBINED_COLUMNS = ("model", "score", "sigma", "lo", "hi", "n_tasks", "reason")

#: How tasks are weighted (shown by the page and written by the CLI).
WEIGHTING = ("macro average over tasks: every task has weight 1/T, whatever its number of questions (the "
             "leaderboard's 'all tasks' weighs every question the same instead, so the two differ where tasks have "
             "different numbers of questions)")

#: The assumption behind the combined interval (shown by the page and written by the CLI).
COMBINED_ASSUMPTION = ("tasks are independent: score = mean of the per-task Bayes@N means, "
                       "sigma = sqrt(sum of per-task sigma^2) / T, and the interval is the normal "
                       "score +/- z sigma with z = Phi^-1((1 + confidence) / 2), clipped to the range of scores the "
                       "rubric allows, as the leaderboard's normal intervals; with one task, that task's own interval")


def combined_score(matrix, *, confidence: float | None = None, emptied=()) -> pd.DataFrame:
    """Macro-average every model's Bayes@N over the tasks, with a credible interval.

    Parameters
    ----------
    matrix : scorio_core.tasks.TaskMatrix
        Per-task results of :func:`scorio_core.tasks.task_matrix` (T tasks, L models).
    confidence : float, optional
        Credibility of the interval, in (0, 1); default ``matrix.confidence``.
    emptied : iterable of (model, task, choice), optional
        Pairs a data-quality choice left without a row (:attr:`scorio_core.io.QualityReport.emptied`): a
        model's reason names the choice that removed its data on a task (never a silent "no data").

    Returns
    -------
    DataFrame
        One row per model (``matrix.models`` order), columns :data:`COMBINED_COLUMNS`:
        ``score`` (mean of the T task means), ``sigma`` (sqrt(sum sigma_t^2) / T), ``lo``/``hi``
        (``score -/+ z sigma`` clipped to the mean of the tasks' score ranges,
        ``matrix.score_ranges``; with T = 1 the task's own ``lo``/``hi``, so a single task's combined
        interval is its leaderboard interval, exact binomial where that is), ``n_tasks`` (tasks with a score) and ``reason`` (why the score
        is NaN, else ""). A model without a score on every task gets NaN and a reason naming
        the tasks: never a score over fewer tasks.

    Raises
    ------
    ValueError
        ``confidence`` outside (0, 1).

    Notes
    -----
    Equal weights (:data:`WEIGHTING`) and independent tasks (:data:`COMBINED_ASSUMPTION`):
    :math:`\\bar\\mu = T^{-1}\\sum_t \\mu_t`, :math:`\\sigma = T^{-1}\\sqrt{\\sum_t \\sigma_t^2}`.
    """
    level = matrix.confidence if confidence is None else float(confidence)
    if not 0.0 < level < 1.0:
        raise ValueError(f"confidence must satisfy 0 < confidence < 1; got confidence={confidence!r}.")
    tasks, models = list(matrix.tasks), list(matrix.models)
    mu = matrix.pivot("bayes").to_numpy(float)  # (L, T)
    sd = matrix.pivot("sigma").to_numpy(float)
    present = matrix.pivot("m").notna().to_numpy()
    scored = np.isfinite(mu) & np.isfinite(sd)
    complete = scored.all(axis=1) & (len(tasks) > 0)
    T = max(len(tasks), 1)
    score = np.where(complete, np.where(scored, mu, 0.0).sum(axis=1) / T, np.nan)
    sigma = np.where(complete, np.sqrt(np.where(scored, sd, 0.0) ** 2 @ np.ones(len(tasks))) / T, np.nan)
    ranges = np.asarray(matrix.score_ranges or [(0.0, 1.0)] * len(tasks), dtype=float).reshape(-1, 2)
    floor, ceiling = ranges.mean(axis=0) if len(ranges) else (0.0, 1.0)
    lo, hi = clipped_normal_interval(score, sigma, level, floor, ceiling)
    own = {"lo", "hi"} <= set(matrix.cells.columns)
    if len(tasks) == 1 and level == matrix.confidence and own:  # nothing combined: the task's leaderboard interval
        lo = np.where(complete, matrix.pivot("lo").to_numpy(float)[:, 0], np.nan)
        hi = np.where(complete, matrix.pivot("hi").to_numpy(float)[:, 0], np.nan)
    removed = {(str(m), str(t)): str(c) for m, t, c in emptied}
    reasons = []
    for i in range(len(models)):  # loop over models only to word the reasons
        if complete[i]:
            reasons.append("")
            continue
        missing = [t for t, p in zip(tasks, present[i]) if not p]
        unscored = [t for t, p, s in zip(tasks, present[i], scored[i]) if p and not s]
        parts = []
        gone = [t for t in missing if (models[i], t) in removed]
        missing = [t for t in missing if (models[i], t) not in removed]
        if missing:
            parts.append("no data on task" + ("s " if len(missing) > 1 else " ") + ", ".join(missing))
        parts.extend(f"no data left on task {t} (the choice {removed[(models[i], t)]} removed every row)" for t in gone)
        if unscored:
            parts.append("no score on task" + ("s " if len(unscored) > 1 else " ") + ", ".join(unscored)
                         + " (no answered question)")
        reasons.append("; ".join(parts) + f": the combined score needs all {len(tasks)} tasks")
    return pd.DataFrame({
        "model": models, "score": score, "sigma": sigma, "lo": lo, "hi": hi,
        "n_tasks": scored.sum(axis=1).astype(np.int64), "reason": reasons,
    }, columns=list(COMBINED_COLUMNS))


#: Largest-to-smallest ratio of questions per task above which :func:`unequal_task_sizes_notice` speaks.
UNEQUAL_TASKS_RATIO = 3.0


def unequal_task_sizes_notice(matrix) -> dict | None:
    """The ``unequal_task_sizes`` notice: tasks so different in size that the macro average weighs a question of the
    smallest task several times as much as one of the largest (:data:`WEIGHTING`).

    Parameters
    ----------
    matrix : scorio_core.tasks.TaskMatrix
        Its ``cells`` (``task``, ``m``: questions a model answered in the task).

    Returns
    -------
    dict or None
        ``{"code": "unequal_task_sizes", "message", "questions": {task: M}}`` (M the most questions any model answered
        in the task), or None with one task or when the largest task has fewer than :data:`UNEQUAL_TASKS_RATIO` times
        the smallest's questions.

    Examples
    --------
    >>> class M: cells = pd.DataFrame({"task": ["a", "b", "a"], "m": [9, 1, 8]})
    >>> unequal_task_sizes_notice(M())["message"][:62]
    'Tasks differ in size: b has 1 question and a 9; in the combine'
    """
    cells = matrix.cells
    sizes = cells.groupby("task", sort=False)["m"].max().dropna() if len(cells) else pd.Series(dtype=float)
    sizes = sizes[sizes > 0].astype(int)
    if len(sizes) < 2 or sizes.max() < UNEQUAL_TASKS_RATIO * sizes.min():
        return None
    small, big = sizes.idxmin(), sizes.idxmax()
    m_small, m_big = int(sizes[small]), int(sizes[big])
    message = (f"Tasks differ in size: {small} has {m_small:,} question{'' if m_small == 1 else 's'} and {big} "
               f"{m_big:,}; in the combined score (a macro average) each task weighs 1/{len(sizes)}, so a question of "
               f"{small} counts {m_big / m_small:.3g} times as much as one of {big}, and {small}'s score is the least "
               "certain part of it. The leaderboard's 'all tasks' weighs every question the same.")
    return {"code": "unequal_task_sizes", "message": message, "questions": {str(t): int(v) for t, v in sizes.items()}}


def no_combined_notice(combined: pd.DataFrame, tasks) -> dict | None:
    """The ``no_combined_score`` notice: two or more tasks and no model with a combined score (each missed a task).

    Parameters
    ----------
    combined : DataFrame
        :func:`combined_score` (``model``, ``score``, ``n_tasks``).
    tasks : sequence of str
        The tasks combined.

    Returns
    -------
    dict or None
        ``{"code": "no_combined_score", "message", "models_per_task": {task: models with data}}``, None with one task,
        no model, or when some model has a combined score. The message says what would give one (QA: every
        combined score was null, with a reason per row and nothing saying that no row has one).

    Examples
    --------
    >>> c = pd.DataFrame({"model": ["a", "b"], "score": [np.nan, np.nan], "n_tasks": [1, 1]})
    >>> no_combined_notice(c, ["t1", "t2"])["message"][:72]
    'No model has results on all 2 tasks, so no model has a combined score (a'
    """
    if len(tasks) < 2 or not len(combined) or combined["score"].notna().any():
        return None
    most = int(combined["n_tasks"].max())
    message = (f"No model has results on all {len(tasks):,} tasks, so no model has a combined score (a macro average "
               f"over tasks needs each one; the most any model ran is {most:,}). Compare the models task by task in "
               "the per-task scores, or run every model on every task for a combined score.")
    return {"code": "no_combined_score", "message": message, "finding": message}
