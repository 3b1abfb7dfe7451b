"""Hyperparameter variance of a trials-needed projection whose empirical-Bayes priors are held fixed (numpy only).

A fitted prior's own uncertainty is added to the projected posterior variance at every N (law of total variance, as
:func:`scorio_core.uncertainty.posterior_summary`), per task where a prior is fitted per (model, task) and combined
over the questions with weights ``(m_t / M)^2`` (:mod:`scorio_core.uncertainty.strata`). Used by
:func:`scorio_core.ranking.separation.trials_needed`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["hyper_of", "hyper_var"]


def hyper_of(alpha: np.ndarray, strata: np.ndarray | None, w: np.ndarray, n_questions: int):
    """``(strength per question (M,), spread per task (T,), one-hot (M, T))`` of fitted pseudo-counts.

    ``alpha`` (C+1,) (one prior; T = 1) or (M, C+1) per question with task codes ``strata``; the spread is
    ``Var_m(w)`` under each task's prior mean.
    """
    a = np.asarray(alpha, dtype=float)
    if a.ndim == 1:
        a = np.broadcast_to(a, (n_questions, a.size))
        codes = np.zeros(n_questions, dtype=np.int64)
    else:
        codes = np.unique(strata, return_inverse=True)[1].reshape(-1)
    onehot = (codes[:, None] == np.arange(int(codes.max()) + 1)).astype(float)
    first = np.argmax(onehot, axis=0)  # a question of each task: its prior
    mean = a[first] / a[first].sum(axis=1, keepdims=True)
    spread = np.maximum(mean @ (w * w) - (mean @ w) ** 2, 0.0)
    return a.sum(axis=1), spread, onehot


def hyper_var(n_q: np.ndarray, hyper) -> np.ndarray | float:
    """Variance of the posterior mean through fitted empirical-Bayes priors (law of total variance).

    ``hyper`` from :func:`hyper_of` (None: 0). With ``n_q`` trials on each of M questions (last axis) and task t's
    strength A: ``sum_t (m_t / M)^2 c_t^2 v_t spread_t``, ``c_t = mean_t A / (n_q + A)``, ``v_t = sum_t (A + n_q) /
    (n_q (A + 1)) / m_t^2``, as :func:`scorio_core.uncertainty.posterior_summary` per task and
    :mod:`scorio_core.uncertainty.strata` over the tasks (one task: ``c^2 v spread``).
    """
    if hyper is None:
        return 0.0
    a, spread, onehot = hyper
    m = n_q.shape[-1]
    s1 = (a / (n_q + a)) @ onehot  # (..., T): m_t c_t
    s2 = ((a + n_q) / (n_q * (a + 1.0))) @ onehot  # m_t^2 v_t
    m_t = onehot.sum(axis=0)
    return np.sum(s1 * s1 * s2 * spread / (m_t * m_t), axis=-1) / (m * m)
