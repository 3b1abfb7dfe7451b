r"""Per-cell Dirichlet posteriors of one task, their preposterior variance and joint score draws.

Each (model, question) cell has a Dirichlet posterior ``Dir(A_lm p_lm)`` with ``A_lm p_lm =
alpha_l + counts_lm`` (``alpha_l`` the prior of :mod:`scorio_core.uncertainty.batch`, the same
fitted empirical-Bayes prior the leaderboard uses). Model ``l``'s Bayes@N score is the mean of
its ``M_l`` answered cells, so its variance under the questions-fixed scope is
``sum_m v_lm / M_l^2`` with ``v_lm = Var(w . theta_lm)``; the planner scales this sum so that it
equals :func:`~scorio_core.uncertainty.batch.posterior_summary_batch`'s ``sd^2`` (the scale is 1
for fixed priors; above 1 for the empirical-Bayes prior, whose summary adds the uncertainty of
the fitted prior).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scorio_core.eval._validate import check_confidence
from scorio_core.uncertainty.batch import (
    BatchSummary, _CountStates, clipped_normal_interval, _prior_pseudo_counts, _whole_counts, summary_from_states,
)
from scorio_core.uncertainty.batch_prior import _fit_states
from scorio_core.uncertainty.fallback import FALLBACK_LABELS
from scorio_core.uncertainty.fallback_draws import fallback_score_draws
from scorio_core.uncertainty.priors import check_prior

__all__ = ["CellPosterior", "cell_posterior", "cell_variance", "preposterior_variance", "question_spread", "score_draws"]

#: Cells x draws held in memory at once by :func:`score_draws` (float64: 16 MB per array).
_CHUNK_CELLS = 2_000_000


def cell_variance(nu: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Posterior mean and variance of ``w . theta`` for Dirichlet parameters ``nu``.

    Parameters
    ----------
    nu : ndarray of float, shape (..., C+1)
        Dirichlet parameters (prior pseudo-counts plus counts), all > 0.
    w : ndarray of float, shape (C+1,)
        Category weights.

    Returns
    -------
    mean, var, A : ndarray of float, shape (...)
        ``sum_k w_k p_k``, ``(sum_k w_k^2 p_k - mean^2) / (A + 1)`` and ``A = sum_k nu_k``
        (``p = nu / A``).

    Notes
    -----
    The Dirichlet covariance ``Cov(theta_j, theta_k) = (p_j delta_jk - p_j p_k) / (A + 1)``
    gives ``Var(w . theta) = (sum_k w_k^2 p_k - (sum_k w_k p_k)^2) / (A + 1)`` (Hariri et al.,
    ICLR 2026, arXiv:2510.04265, Eq. 15 for one question).

    Examples
    --------
    >>> m, v, A = cell_variance(np.array([3.0, 5.0]), np.array([0.0, 1.0]))  # Beta(5, 3)
    >>> float(m), round(float(v), 6), float(A)  # hand: 5/8, (5/8)(3/8)/9
    (0.625, 0.026042, 8.0)
    """
    A = nu.sum(axis=-1)
    p = nu / A[..., None]
    mean = p @ w
    var = np.maximum(p @ (w * w) - mean * mean, 0.0) / (A + 1.0)
    return mean, var, A


def preposterior_variance(v: np.ndarray, A: np.ndarray, t: np.ndarray) -> np.ndarray:
    r"""Expected posterior variance of a cell's ``w . theta`` after ``t`` more trials.

    Parameters
    ----------
    v, A : ndarray of float
        Current posterior variance of ``w . theta`` and Dirichlet strength of each cell.
    t : ndarray of float, broadcastable
        Further trials (>= 0).

    Returns
    -------
    ndarray of float
        ``v A / (A + t)``: exact for the Dirichlet-multinomial (the posterior after ``t`` draws has
        strength ``A + t``; averaging its variance over the predictive distribution of the draws
        leaves the factor ``A / (A + t)``; Raiffa & Schlaifer 1961, preposterior analysis).

    Examples
    --------
    >>> float(preposterior_variance(np.array(0.03), np.array(8.0), np.array(2.0)))  # hand: 0.03 * 8 / 10
    0.024
    """
    return v * A / (A + t)


@dataclass(frozen=True, eq=False)
class CellPosterior:
    """Per-cell posteriors of one task and the per-model summaries they add up to.

    Attributes
    ----------
    mean, var, strength : ndarray of float, shape (L, M)
        Posterior mean and variance of each cell's expected score ``w . theta`` and its
        Dirichlet strength ``A`` (missing cells: the prior's; pooled empirical-Bayes fallbacks:
        the pool's spread over ``n`` trials, strength ``n``).
    answered : ndarray of bool, shape (L, M)
    n_answered : ndarray of float, shape (L,)
        ``M_l``.
    ratio : ndarray of float, shape (L,)
        ``sd_l^2 / (sum_m v_lm / M_l^2)`` (1 for fixed priors).
    fixed, sampled : BatchSummary
        :func:`~scorio_core.uncertainty.batch.posterior_summary_batch` under both scopes.
    var_trials, var_questions : ndarray of float, shape (L,)
        The two parts of the uncertainty: trials within the questions (``fixed.sigma^2``) and the
        sampling of questions (``max(sampled.sigma^2 - fixed.sigma^2, 0)``).
    spread : ndarray of float, shape (L,)
        ``s_l^2``, the spread of the model's question-level scores (:func:`question_spread`).
    task_mu, task_sigma, task_lo, task_hi : ndarray of float, shape (L,)
        The planning target under the questions-fixed scope: each model's score on **every** question
        of the task (the union). A model answered ``M_a`` of the ``M`` questions; its score on the other
        ``U = M - M_a`` is extrapolated from the answered ones, so the estimate stays ``fixed.mu`` and the
        variance grows by ``(U/M)^2 s_l^2 (1/U + 1/M_a) = s_l^2 U / (M M_a)`` (the two question sets as a
        random split of the task; the unknown mean is shared by every unanswered question, so this term
        does not shrink like independent cells would). Equal to ``fixed`` for models without unanswered
        questions; otherwise a normal interval clipped to the weights' range. NaN for models without any
        answered question.
    score_range : tuple of float
        ``(min w, max w)``: the range :func:`score_draws` keeps the draws of models whose empirical-Bayes prior is
        not identified in.
    """

    mean: np.ndarray
    var: np.ndarray
    strength: np.ndarray
    answered: np.ndarray
    n_answered: np.ndarray
    ratio: np.ndarray
    fixed: BatchSummary
    sampled: BatchSummary
    var_trials: np.ndarray
    var_questions: np.ndarray
    spread: np.ndarray
    task_mu: np.ndarray
    task_sigma: np.ndarray
    task_lo: np.ndarray
    task_hi: np.ndarray
    score_range: tuple = (0.0, 1.0)


def question_spread(counts: np.ndarray, w: np.ndarray) -> np.ndarray:
    r"""Spread of each model's question-level scores, ``s_l^2`` (L,), for extrapolating to unanswered questions.

    The larger of the model's own sample variance of its cells' observed scores ``(c_lm . w) / n_lm`` (over
    its answered questions, ``ddof = 1``; 0 with fewer than two) and the same variance pooled over every
    answered cell of the task: a model seen on three questions that it all failed does not get spread 0.
    Observed scores include trial noise, so ``s_l^2`` errs on the wide side.
    """
    n = counts.sum(axis=2)
    ans = n > 0
    x = np.where(ans, (counts @ w) / np.where(ans, n, 1), 0.0)
    k = ans.sum(axis=1)
    mean = x.sum(axis=1) / np.maximum(k, 1)
    own = ((x - mean[:, None]) ** 2 * ans).sum(axis=1) / np.maximum(k - 1, 1)
    total = int(k.sum())
    pooled = float(np.var(x[ans], ddof=1)) if total > 1 else 0.0
    return np.maximum(np.where(k > 1, own, 0.0), pooled)


def _task_target(fixed: BatchSummary, spread: np.ndarray, answered: np.ndarray, w: np.ndarray, confidence: float):
    """``(mu, sigma, lo, hi)`` of every model's score on all M questions (see :class:`CellPosterior`)."""
    M = answered.shape[1]
    m_a = answered.sum(axis=1)
    partial = (m_a < M) & np.isfinite(fixed.mu)
    extra = spread * (M - m_a) / (M * np.maximum(m_a, 1))  # (U/M)^2 s^2 (1/U + 1/M_a) = s^2 U / (M M_a)
    mu = fixed.mu
    sigma = np.where(partial, np.sqrt(fixed.sigma**2 + extra), fixed.sigma)
    n_lo, n_hi = clipped_normal_interval(mu, sigma, confidence, float(w.min()), float(w.max()))
    return mu, sigma, np.where(partial, n_lo, fixed.lo), np.where(partial, n_hi, fixed.hi)


def cell_posterior(counts: np.ndarray, w: np.ndarray, prior: str, confidence: float) -> CellPosterior:
    """Per-cell Dirichlet posteriors of a count tensor under a leaderboard prior.

    Parameters
    ----------
    counts : ndarray of int, shape (L, M, C+1)
        Category counts; a row summing to 0 is a missing cell.
    w : ndarray of float, shape (C+1,)
    prior : {"empirical-bayes", "uniform", "jeffreys"}
    confidence : float in (0, 1)
        Level of the summaries' intervals.

    Returns
    -------
    CellPosterior

    Raises
    ------
    ValueError
        Bad prior, shape or counts (from :func:`~scorio_core.uncertainty.batch.posterior_summary_batch`).
    """
    w = np.asarray(w, dtype=float)
    c = np.asarray(counts)
    if c.ndim != 3 or c.shape[2] != w.size:
        raise ValueError(f"counts must have shape (L, M, {w.size}); got {c.shape}.")
    check_prior(prior)
    confidence = check_confidence(confidence)
    c = _whole_counts(c)
    st = _CountStates.of(c)
    fitted = _fit_states(st) if prior == "empirical-bayes" else None  # one fit for both summaries and the cells
    fixed = summary_from_states(st, w, prior, "questions-fixed", confidence, fitted=fitted)
    sampled = summary_from_states(st, w, prior, "questions-sampled", confidence, fitted=fitted)
    n = c.sum(axis=2)
    answered = n > 0
    n_answered = answered.sum(axis=1).astype(float)
    alpha, pooled, fitted = _prior_pseudo_counts(st, prior, n_answered > 0, fitted)
    mean, var, strength = cell_variance(c + alpha[:, None, :], w)
    if pooled.any():  # questions alike: each cell is the pool mean seen through n trials (spread / n)
        spread = np.maximum(fitted.mean @ (w * w) - (fitted.mean @ w) ** 2, 0.0)
        n_safe = np.where(answered, n, 1).astype(float)
        rows = pooled[:, None] & answered
        var = np.where(rows, spread[:, None] / n_safe, var)
        strength = np.where(rows, n_safe, strength)
        mean = np.where(rows, (c @ w) / n_safe, mean)
    m_safe = np.maximum(n_answered, 1.0)
    base = (var * answered).sum(axis=1) / m_safe**2
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(base > 0, fixed.sigma**2 / np.where(base > 0, base, 1.0), 1.0)
    ratio = np.where(np.isfinite(ratio), np.maximum(ratio, 1.0), 1.0)
    var_trials = np.nan_to_num(fixed.sigma**2)
    var_questions = np.maximum(np.nan_to_num(sampled.sigma**2) - var_trials, 0.0)
    spread = question_spread(c, w)
    target = _task_target(fixed, spread, answered, w, confidence)
    return CellPosterior(mean, var, strength, answered, n_answered, ratio, fixed, sampled, var_trials, var_questions,
                         spread, *target, (float(w.min()), float(w.max())))


def score_draws(post: CellPosterior, scope: str, draws: int, rng: np.random.Generator) -> np.ndarray:
    r"""Joint posterior draws of every model's score.

    Parameters
    ----------
    post : CellPosterior
    scope : {"questions-fixed", "questions-sampled"}
    draws : int
        Number of draws D.
    rng : numpy.random.Generator

    Returns
    -------
    ndarray of float, shape (D, L)
        Questions fixed: independent ``N(mu_l, sd_l^2)`` of the score on every question of the task
        (``task_mu``, ``task_sigma``; the models' posteriors are independent given the questions), except models
        whose empirical-Bayes prior is not identified (``fixed.method`` a fallback) that answered every question
        (their target is then their leaderboard row): a Beta distribution with the row's mean and sd on ``score_range``
        (:func:`scorio_core.uncertainty.fallback_draws.fallback_score_draws`, as the rank distribution draws them),
        drawn after the normals, so the other models' draws are unchanged. Questions sampled: one Bayesian-bootstrap weight vector
        ``g ~ Dirichlet(1, ..., 1)`` over the questions per draw, shared by every model (Rubin
        1981; keeps the pairing), applied to the cells' posterior means plus their posterior noise
        (normal, variance ``sum_m g_lm^2 v_lm`` scaled by ``ratio``), centred on ``mu_l``.
        Models without answered questions are NaN.
    """
    L, M = post.answered.shape
    if scope == "questions-fixed":  # the score on every question of the task (CellPosterior.task_mu)
        mu, sd = post.task_mu, post.task_sigma
        out = mu + np.nan_to_num(sd) * rng.standard_normal((draws, L))
        row = post.answered.all(axis=1) & np.isfinite(mu)  # the target is the leaderboard row (no extrapolation)
        held = np.flatnonzero(np.isin(post.fixed.method, list(FALLBACK_LABELS)) & row)
        if held.size:  # not identified: the leaderboard row's mean and sd, kept in the score range
            out[:, held] = fallback_score_draws(rng, mu[held], np.nan_to_num(sd[held]), *post.score_range, draws)
        return out
    mu, sd = post.fixed.mu, post.fixed.sigma
    ans = post.answered.astype(float)
    m_safe = np.maximum(post.n_answered, 1.0)
    cell_mean = (post.mean * ans).T  # (M, L)
    cell_var = (post.var * ans).T * post.ratio
    centre = mu - cell_mean.sum(axis=0) / m_safe
    out = np.empty((draws, L))
    step = max(1, _CHUNK_CELLS // max(M, 1))
    for start in range(0, draws, step):  # chunks of draws: memory O(step x M)
        stop = min(draws, start + step)
        g = rng.standard_exponential((stop - start, M))
        norm = g @ ans.T
        norm = np.where(norm > 0, norm, 1.0)
        s = (g @ cell_mean) / norm
        noise = np.sqrt(((g * g) @ cell_var)) / norm
        out[start:stop] = s + centre + noise * rng.standard_normal((stop - start, L))
    return np.where(np.isfinite(mu), out, np.nan)
