r"""Empirical-Bayes priors fitted per stratum of a model's questions (its tasks), combined over the questions.

Pooling several tasks under one empirical-Bayes prior per model pulls every question toward the pooled tasks'
mean rate. Where the tasks differ in difficulty and in trials per question, the questions tried fewer times are
pulled toward the other task's rate and the interval misses: ``benchmarks/bench_calibration_small.py --pooled``
measured coverage 0.30 (40 questions x 1 trial at Beta(2, 3) beside 20 x 10 at Beta(7, 3)). Here the prior is
fitted per (model, stratum) and the strata's posteriors are combined over the model's questions, each question
weighing the same:

.. math::

    \mu = \sum_t \frac{m_t}{M} \mu_t, \qquad \sigma^2 = \sum_t \frac{m_t^2}{M^2} \sigma_t^2

(the strata's posteriors are independent given their priors; :math:`m_t` questions of stratum :math:`t`,
:math:`M = \sum_t m_t`). The interval is the moment-matched Beta of the combined mean and variance, as for one
prior. Where a stratum cannot identify its prior (:data:`~scorio_core.uncertainty.priors.NOT_IDENTIFIED_RULE`,
or all its trials in one category) and the model has other strata, the model takes the not-identified fallback over all its answers
(method ``"fallback-task"``: observed mean over the questions, exact binomial interval), never a posterior that
mixes a fitted part with an unfitted one. A model with one stratum gets exactly the one-prior result.
"""

from __future__ import annotations

import numpy as np

from scorio_core.uncertainty.batch_prior import _CountStates, _fit_states

__all__ = ["strata_states", "stratified_moments", "stratified_shares"]


def strata_states(counts: np.ndarray, strata: object) -> _CountStates:
    """The answered rows of ``counts`` as states of (model, stratum) pseudo-models, index ``model * T + stratum``.

    Parameters
    ----------
    counts : ndarray of int, shape (L, M, K)
        Whole non-negative category counts (rows summing to 0: unanswered).
    strata : array-like of int, shape (M,) or (L, M)
        Stratum code of each question, ``0 .. T-1`` (e.g. ``pandas.factorize`` of the questions' tasks); shape
        (L, M) where the rows' questions differ (stacked bootstrap resamples of the questions).

    Returns
    -------
    _CountStates
        ``L * T`` pseudo-models, states sorted by pseudo-model (so also by model).

    Raises
    ------
    ValueError
        ``strata`` not of shape (M,) or (L, M), or not non-negative integers.
    """
    codes = np.asarray(strata)
    if codes.shape not in ((counts.shape[1],), counts.shape[:2]) or (
            codes.size and (codes.dtype.kind not in "iu" or codes.min() < 0)):
        raise ValueError(f"strata must be {counts.shape[1]} non-negative integer codes, one per question; got shape "
                         f"{codes.shape} dtype {codes.dtype}.")
    T = int(codes.max()) + 1 if codes.size else 1
    model, rows, freq = [], [], []
    for t in range(T):  # one pass per stratum (a task), each over its own questions (per row: the others zeroed)
        part = _CountStates.of(counts[:, codes == t] if codes.ndim == 1 else np.where((codes == t)[..., None], counts, 0))
        model.append(part.model * T + t)
        rows.append(part.rows)
        freq.append(part.freq)
    model_all = np.concatenate(model).astype(np.int64)
    order = np.argsort(model_all, kind="stable")
    return _CountStates(counts.shape[0] * T, counts.shape[2], model_all[order], np.concatenate(rows)[order],
                        np.concatenate(freq)[order])


def stratified_moments(st: _CountStates, strata: _CountStates, w_norm: np.ndarray, moments):
    """``(mean, variance, pooled, method)`` per model (L,) with the empirical-Bayes prior fitted per stratum.

    Parameters
    ----------
    st : _CountStates
        Every model's states (L models).
    strata : _CountStates
        The same answers as (model, stratum) states (:func:`strata_states`, ``L * T`` pseudo-models).
    w_norm : ndarray of float, shape (K,)
        Category weights scaled to [0, 1].
    moments : callable
        ``moments(states, w_norm, prior, fitted) -> (mean, variance, pooled, method)`` of one prior per
        (pseudo-)model (:func:`scorio_core.uncertainty.batch._moments`).

    Returns
    -------
    tuple of ndarray, each shape (L,)
        The combined mean and variance of the normalised score (module docstring), whether the model's interval is
        the exact binomial fallback, and its method (a one-stratum model: its stratum's; several strata, one not
        identified: ``"fallback-task"`` where a stratum has too few repeated trials (N = 1 and the like),
        ``"fallback-n1"`` where no stratum is identified and one has too few repeated trials,
        ``"fallback-task-degenerate"`` where a stratum has all its trials in one category, ``"fallback-degenerate"``
        where all the model's trials are in one category).
    """
    L = st.L
    T = strata.L // max(L, 1)
    mu_s, var_s, pooled_s, method_s = moments(strata, w_norm, "empirical-bayes", None)
    m_s = np.bincount(strata.model, weights=strata.freq, minlength=strata.L)
    answered = m_s > 0
    group = np.arange(strata.L) // max(T, 1)
    m_l = np.bincount(group, weights=m_s, minlength=L)
    m_safe = np.where(m_l > 0, m_l, 1.0)
    mu = np.bincount(group, weights=np.where(answered, m_s * np.nan_to_num(mu_s), 0.0), minlength=L) / m_safe
    var = np.bincount(group, weights=np.where(answered, m_s**2 * np.nan_to_num(var_s), 0.0), minlength=L) / m_safe**2
    n_strata = np.bincount(group, weights=answered, minlength=L)
    pooled = np.bincount(group, weights=answered & pooled_s, minlength=L) > 0
    method = np.where(m_l > 0, "marginal-likelihood", "none").astype(object)
    single = answered & (n_strata[group] == 1)
    method[group[single]] = method_s[single]
    mu[group[single]], var[group[single]] = mu_s[single], var_s[single]  # one stratum: the one-prior numbers exactly
    several = pooled & (n_strata > 1)
    if several.any():  # a stratum not identified: the whole model at its fallback over all its answers
        f_mu, f_var, _, f_method = moments(st, w_norm, "empirical-bayes", _fit_states(st, fallback=True))
        mu[several], var[several] = f_mu[several], f_var[several]
        n1 = np.bincount(group, weights=answered & (method_s == "fallback-n1"), minlength=L)
        unfitted = np.bincount(group, weights=answered & pooled_s, minlength=L)
        every = (unfitted == n_strata) & (n1 > 0)  # no task identifies it (N = 1 everywhere): the plain rule says why
        method[several] = np.where(f_method[several] == "fallback-degenerate", "fallback-degenerate",
                                   np.where(every[several], "fallback-n1",
                                            np.where(n1[several] > 0, "fallback-task", "fallback-task-degenerate")))
    return mu, var, pooled, method


def stratified_shares(st: _CountStates, strata: _CountStates, shares) -> np.ndarray:
    """Posterior mean category shares per model (L, K) with the prior fitted per stratum (as :func:`stratified_moments`).

    ``shares(states, prior, fitted) -> (shares, pooled)`` is :func:`scorio_core.uncertainty.batch._shares`. The
    shares are combined as the means (each question weighing the same); a model with several strata, one not
    identified, takes its fallback shares over all its answers. NaN rows for models without answered questions.
    """
    L = st.L
    T = strata.L // max(L, 1)
    p_s, pooled_s = shares(strata, "empirical-bayes")
    m_s = np.bincount(strata.model, weights=strata.freq, minlength=strata.L)
    answered = m_s > 0
    group = np.arange(strata.L) // max(T, 1)
    m_l = np.bincount(group, weights=m_s, minlength=L)
    weighted = np.where(answered[:, None], m_s[:, None] * np.nan_to_num(p_s), 0.0)
    P = np.stack([np.bincount(group, weights=weighted[:, j], minlength=L) for j in range(st.K)], axis=1)
    P = P / np.where(m_l > 0, m_l, 1.0)[:, None]
    single = answered & (np.bincount(group, weights=answered, minlength=L)[group] == 1)
    P[group[single]] = p_s[single]
    several = (np.bincount(group, weights=answered & pooled_s, minlength=L) > 0) & ~np.isin(np.arange(L), group[single])
    if several.any():
        P[several] = shares(st, "empirical-bayes", _fit_states(st, fallback=True))[0][several]
    return np.where((m_l > 0)[:, None], P, np.nan)
