"""Empirical-Bayes priors of the dynamics fitted per (model, task) where several tasks are pooled.

The leaderboard under *all tasks* fits one empirical-Bayes prior per (model, task) and combines the tasks' posteriors
over the questions (:mod:`scorio_core.uncertainty.strata`). The rank trajectories and the convergence@n bootstrap
refit the prior after every prefix of n trials; here they fit it per (prefix or replicate, model, task) the same
way, so the last point of a trajectory is the leaderboard's Bayes@N. Bayes@N after n trials is then

.. math::

    w_0 + \\frac{1}{M} \\sum_t \\frac{m_t\\, \\alpha_t \\cdot (w - w_0) + S_t(n)}{A_t + n}

with :math:`m_t` questions of task t, pseudo-counts :math:`\\alpha_t` (total :math:`A_t`) and :math:`S_t(n)` the sum
of :math:`w_j - w_0` over the task's first n trials (Eq. 15 per question, averaged). Where one task of a model cannot
identify its prior (:data:`~scorio_core.uncertainty.priors.NOT_IDENTIFIED_RULE`, or all its trials in one category)
the model takes the fallback over all its answers, as the leaderboard does: the observed mean (pseudo-count 0), or
the smoothed pooled mean where all of its trials are in one category (1/(2M) per category and question).
Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, Eq. 15 and section 2.7.
"""

from __future__ import annotations

import numpy as np

from scorio_core.uncertainty.batch_prior import _fit_states
from scorio_core.uncertainty.strata import strata_states

__all__ = ["check_task_strata", "combine_task_fits", "task_prior_alpha"]


def check_task_strata(strata: object, n_questions: int) -> np.ndarray | None:
    """Task codes ``0..T-1`` (int64, shape (M,)) of the questions, or None where they span fewer than 2 tasks.

    Parameters
    ----------
    strata : array-like of int, shape (M,), or None
        Any integer label of each question's task (e.g. ``Outcomes.strata()`` on the kept questions).
    n_questions : int
        M.

    Raises
    ------
    ValueError
        ``strata`` not of shape (M,) or not integers.
    """
    if strata is None:
        return None
    codes = np.asarray(strata)
    if codes.shape != (n_questions,) or (codes.size and codes.dtype.kind not in "iu"):
        raise ValueError(f"strata must hold one integer task code per question ({n_questions}); got shape "
                         f"{codes.shape} dtype {codes.dtype}.")
    labels, inverse = np.unique(codes, return_inverse=True)
    return inverse.astype(np.int64).reshape(n_questions) if labels.size >= 2 else None


def combine_task_fits(alpha: np.ndarray, pooled: np.ndarray, totals: np.ndarray, n_questions: int) -> np.ndarray:
    """Per-task pseudo-counts (F, T, K) of F fits, with the whole-model fallback where a task is not identified.

    Parameters
    ----------
    alpha : ndarray of float, shape (F, T, K)
        Fitted pseudo-counts per (fit, task) (any value where ``pooled``).
    pooled : ndarray of bool, shape (F, T)
        The task's prior is not identified (a fallback of the fit).
    totals : ndarray, shape (F, K)
        Category counts of the fit over all its questions (to tell the all-in-one-category fallback).
    n_questions : int
        M, all tasks' questions.

    Returns
    -------
    ndarray of float, shape (F, T, K)
        ``alpha`` where every task of the fit is identified; else 0 in every task (the observed mean over the
        questions) or ``1 / (2M)`` where all the fit's trials are in one category (the smoothed pooled mean).
    """
    any_pooled = np.asarray(pooled).any(axis=1)
    degenerate = np.count_nonzero(totals, axis=1) <= 1
    fallback = np.where(degenerate, 0.5 / n_questions, 0.0)
    return np.where(any_pooled[:, None, None], fallback[:, None, None], alpha)


def task_prior_alpha(counts: np.ndarray, strata: np.ndarray, init: np.ndarray | None = None,
                     exact: bool = False) -> np.ndarray:
    """Empirical-Bayes pseudo-counts per (fit, task) of count tables, combined as the leaderboard's.

    Parameters
    ----------
    counts : ndarray of int, shape (F, M, K)
        Category counts of F fits (e.g. every (model, prefix n)) on M questions.
    strata : ndarray of int64, shape (M,)
        Task codes ``0..T-1`` (:func:`check_task_strata`).
    init : ndarray of float, shape (F, T, K), optional
        Starting pseudo-counts (a replicate starts from the data's fit).
    exact : bool, default False
        Iterate with the special functions (the data's fits, which start the replicates').

    Returns
    -------
    ndarray of float, shape (F, T, K)
        :func:`combine_task_fits` of the per-task fits.
    """
    F, M, K = counts.shape
    T = int(strata.max()) + 1
    start = None if init is None else np.asarray(init, dtype=float).reshape(F * T, K)
    fitted = _fit_states(strata_states(counts, strata), start, exact=exact)
    return combine_task_fits(fitted.alpha.reshape(F, T, K), fitted.pooled.reshape(F, T), counts.sum(axis=1), M)

