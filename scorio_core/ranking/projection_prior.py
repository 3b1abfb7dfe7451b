"""The prior a trials-needed projection holds fixed, one per model or one per (model, task) where tasks are pooled.

The leaderboard under *all tasks* fits the empirical-Bayes prior per (model, task) and combines the tasks over the
questions (:mod:`scorio_core.uncertainty.strata`); the Compare projection
(:func:`scorio_core.ranking.separation.trials_needed`) then holds each task's fitted prior fixed on that task's
questions and adds each task's hyperparameter variance with weight ``(m_t / M)^2``
(:mod:`scorio_core.ranking.projection_hyper`), so at the observed N its sd is the leaderboard's. Where a task of the model cannot identify its prior, the whole model's projection uses the uniform
prior (as one not-identified prior does, :func:`scorio_core.uncertainty.projection_alpha`), with a note.
"""

from __future__ import annotations

import numpy as np

from scorio_core.uncertainty.posterior import projection_alpha

__all__ = ["task_projection_alpha"]


def task_projection_alpha(counts: np.ndarray, strata: np.ndarray | None, prior: str):
    """Pseudo-counts held fixed by one model's projection, per question where its tasks are pooled.

    Parameters
    ----------
    counts : ndarray of int, shape (M, C+1)
        The model's category counts per question (rows summing to 0: unanswered).
    strata : ndarray of int, shape (M,), or None
        Task code of each question where tasks are pooled (``Outcomes.strata()``).
    prior : {"empirical-bayes", "uniform", "jeffreys"}

    Returns
    -------
    alpha : ndarray of float64, shape (C+1,) or (M, C+1)
        :func:`~scorio_core.uncertainty.projection_alpha`'s, or with several answered tasks under the
        empirical-Bayes prior each question's task's fitted pseudo-counts (rows of unanswered questions: 1).
    strata : ndarray of int64, shape (M,), or None
        The task codes where ``alpha`` is per question.
    note : str
        "" or why the uniform prior replaces the fit.
    """
    c = np.asarray(counts)
    K = c.shape[-1]
    answered = c.sum(axis=1) > 0
    tasks = None if strata is None else np.unique(np.asarray(strata)[answered])
    if prior != "empirical-bayes" or tasks is None or tasks.size < 2:
        alpha, note = projection_alpha(c, prior)
        return alpha, None, note
    codes = np.asarray(strata, dtype=np.int64)
    alpha = np.ones((c.shape[0], K))
    for t in tasks:  # a handful of tasks, each one fit over its questions
        fitted, note = projection_alpha(c[codes == t], prior)
        if note:
            return np.ones(K), None, note.replace("for this model (", "for a task of this model (")
        alpha[codes == t] = fitted
    return alpha, codes, ""
