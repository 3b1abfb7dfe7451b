"""The Dirichlet prior of the rank distribution's draws: the leaderboard's prior, fitted once and held fixed.

:func:`scorio_core.ranking.posterior_ranks.posterior_rank_distribution` draws every model's per-question
posterior ``Dirichlet(alpha + counts)``. Under the uniform (Dirichlet(1), the paper's) and Jeffreys (Dirichlet(1/2))
priors ``alpha`` is a constant; under the empirical-Bayes prior it is each model's fitted pseudo-counts (per
(model, task) where tasks are pooled, as the leaderboard fits them: :mod:`scorio_core.uncertainty.strata`), held at
the fit, so each model's mean draw is its Bayes@N; the hyperparameter variance the leaderboard's intervals add (law
of total variance: :func:`scorio_core.uncertainty.posterior.posterior_summary`) is drawn as a normal shift of each
model's score (:func:`hyperparameter_sd`), so each model's draws have its leaderboard variance. Where a model's prior is
not identified (N = 1 and the like; its leaderboard row is then its estimate with the binomial sd and an exact binomial
interval), it is drawn from that row (:func:`fallback_moments`): a Beta distribution with the row's estimate as mean
and the row's sd as sd on the score range (:func:`scorio_core.uncertainty.fallback_draws.fallback_score_draws`, the
planner's draws of such a model too), and the result names it.
"""

from __future__ import annotations

import numpy as np

from scorio_core.uncertainty.batch_prior import _fit_states, fit_dirichlet_prior_batch
from scorio_core.uncertainty.strata import strata_states

__all__ = ["rank_prior_alpha", "hyperparameter_sd", "fallback_moments", "prior_rank_summary", "RANK_PRIORS"]

#: Priors the rank distribution draws under (the leaderboard's).
RANK_PRIORS = ("empirical-bayes", "uniform", "jeffreys")


def rank_prior_alpha(counts, prior: str = "uniform", strata=None) -> tuple[np.ndarray, list[int]]:
    """Prior pseudo-counts of every model's per-question Dirichlet, as the leaderboard's ``prior``.

    Parameters
    ----------
    counts : ndarray of int, shape (L, M, C+1)
        Category counts (a row summing to 0: an unanswered question).
    prior : {"empirical-bayes", "uniform", "jeffreys"}
    strata : ndarray of int, shape (M,), optional
        Task code of each question where tasks are pooled (``Outcomes.strata()``): the empirical-Bayes prior is then
        fitted per (model, task).

    Returns
    -------
    alpha : ndarray of float64, shape (L, M, C+1)
        ``1`` (uniform), ``1/2`` (Jeffreys) or the fitted pseudo-counts of the question's model (and task).
    not_identified : list of int
        Models whose empirical-Bayes prior is not identified (in some task, with tasks pooled): their rows hold the
        uniform prior's 1.

    Raises
    ------
    ValueError
        An unknown ``prior``, or ``strata`` of another length than M.

    Examples
    --------
    >>> c = np.zeros((1, 3, 2), dtype=int); c[0, :, 1] = 2
    >>> alpha, unsure = rank_prior_alpha(c, "jeffreys")
    >>> alpha.shape, float(alpha.max()), unsure
    ((1, 3, 2), 0.5, [])
    """
    if prior not in RANK_PRIORS:
        raise ValueError(f"prior must be one of {', '.join(RANK_PRIORS)}; got {prior!r}.")
    c = np.asarray(counts)
    L, M, K = c.shape
    if prior != "empirical-bayes":
        return np.full((L, M, K), 1.0 if prior == "uniform" else 0.5), []
    tasks = None if strata is None else np.asarray(strata, dtype=np.int64)
    if tasks is not None and tasks.shape != (M,):
        raise ValueError(f"strata must have one task code per question ({M}); got shape {tasks.shape}.")
    if tasks is None or np.unique(tasks[c.sum(axis=(0, 2)) > 0]).size < 2:
        fit = fit_dirichlet_prior_batch(c.astype(np.int64))
        alpha = np.broadcast_to(fit.alpha[:, None, :], (L, M, K))
        unsure = np.asarray(fit.pooled, dtype=bool) | ~np.isfinite(fit.alpha).all(axis=1)
    else:
        _, codes = np.unique(tasks, return_inverse=True)
        T = int(codes.max()) + 1
        fitted = _fit_states(strata_states(c.astype(np.int64), codes), None)
        per_task = fitted.alpha.reshape(L, T, K)
        answered = np.zeros((L, T), dtype=bool)
        np.logical_or.at(answered, (slice(None), codes), c.sum(axis=2) > 0)
        pooled = fitted.pooled.reshape(L, T) & answered  # a task the model did not answer does not count against it
        alpha = per_task[:, codes, :]
        unsure = pooled.any(axis=1) | ~np.isfinite(np.where(answered[:, :, None], per_task, 1.0)).all(axis=(1, 2))
    alpha = np.where(unsure[:, None, None] | ~np.isfinite(alpha), 1.0, alpha)
    return np.ascontiguousarray(alpha, dtype=float), [int(i) for i in np.flatnonzero(unsure)]


def fallback_moments(counts, w, unsure, *, strata=None, sigma=None, mu=None) -> tuple[np.ndarray, np.ndarray]:
    """The leaderboard row (estimate, sd) of each model whose empirical-Bayes prior is not identified; NaN elsewhere.

    The same numbers ``compare`` reads for such a model (its leaderboard row: the observed estimate, or the pooled
    Jeffreys one when every trial is in one category, with the binomial sd ``sqrt(x(1-x)/(M N_min))``), from
    :func:`scorio_core.uncertainty.batch.posterior_summary_batch` under the empirical-Bayes prior with ``strata``: the
    ``fallback_mean``, ``fallback_sd`` of :func:`~scorio_core.ranking.posterior_ranks.posterior_rank_distribution`.

    Parameters
    ----------
    counts : ndarray of int, shape (L, M, C+1)
        Every model answered at least one question.
    w : array-like of float, shape (C+1,)
    unsure : sequence of int
        :func:`rank_prior_alpha`'s ``not_identified``.
    strata : ndarray of int, shape (M,), optional
        Task codes where tasks are pooled.
    mu, sigma : ndarray of float, shape (L,), optional
        That summary's ``mu`` and ``sigma`` when the caller already has them.

    Returns
    -------
    mean, sd : ndarray of float64, shape (L,)
        NaN for the models not in ``unsure``.

    Examples
    --------
    >>> c = np.zeros((2, 1, 2), dtype=int); c[0, 0] = [1, 9]; c[1, 0] = [5, 5]
    >>> mean, sd = fallback_moments(c, [0.0, 1.0], [0])
    >>> round(float(mean[0]), 4), round(float(sd[0]), 4), bool(np.isnan(mean[1]))  # hand: 0.9, sqrt(0.09 / 10)
    (0.9, 0.0949, True)
    """
    if mu is None or sigma is None:
        from scorio_core.uncertainty.batch import posterior_summary_batch

        row = posterior_summary_batch(np.asarray(counts), np.asarray(w, dtype=float), prior="empirical-bayes",
                                      strata=strata)
        mu, sigma = row.mu, row.sigma
    held = np.zeros(np.asarray(counts).shape[0], dtype=bool)
    held[list(unsure)] = True
    return (np.where(held, np.asarray(mu, dtype=float), np.nan), np.where(held, np.asarray(sigma, dtype=float), np.nan))


def hyperparameter_sd(counts, w, alpha, *, strata=None, held: list[int] | tuple = (), sigma=None) -> np.ndarray:
    """Standard deviation the empirical-Bayes hyperparameters add to each model's Bayes@N (score units).

    The leaderboard's empirical-Bayes variance is ``Var = E-term + Var_h`` (law of total variance over the
    hyperparameters, :func:`scorio_core.uncertainty.posterior.posterior_summary`); the E-term is the variance of
    the draws at the prior held at its fit, ``sum_a Var(w . pi_a) / M^2`` with ``pi_a ~ Dirichlet(alpha_a +
    counts_a)``. This returns ``sqrt(max(sigma^2 - E-term, 0))`` with ``sigma`` the leaderboard's
    (:func:`scorio_core.uncertainty.batch.posterior_summary_batch`, the same ``strata``): the shift
    :func:`~scorio_core.ranking.posterior_ranks.posterior_rank_distribution` adds (``shift_sd``).

    Parameters
    ----------
    counts : ndarray of int, shape (L, M, C+1)
        Every model answered at least one question.
    w : array-like of float, shape (C+1,)
    alpha : ndarray of float, shape (L, M, C+1)
        :func:`rank_prior_alpha`'s pseudo-counts.
    strata : ndarray of int, shape (M,), optional
        Task codes where tasks are pooled.
    held : sequence of int
        Models whose prior is not identified (drawn from their leaderboard row, :func:`fallback_moments`): no shift (0).
    sigma : ndarray of float, shape (L,), optional
        The leaderboard's sd when the caller already has it (else computed).

    Returns
    -------
    ndarray of float64, shape (L,)
    """
    from scorio_core.uncertainty.batch import posterior_summary_batch

    c = np.asarray(counts, dtype=float)
    w_a = np.asarray(w, dtype=float)
    nu = c + alpha
    total = nu.sum(axis=2)
    p = nu / total[:, :, None]
    first = p @ w_a
    var = np.maximum(p @ (w_a * w_a) - first * first, 0.0) / (total + 1.0)
    present = c.sum(axis=2) > 0
    weight = present / present.sum(axis=1, keepdims=True)
    held_var = np.sum(weight * weight * var, axis=1)
    if sigma is None:
        sigma = posterior_summary_batch(np.asarray(counts), w_a, prior="empirical-bayes", strata=strata).sigma
    sd = np.sqrt(np.maximum(np.nan_to_num(np.asarray(sigma, dtype=float) ** 2 - held_var, nan=0.0), 0.0))
    sd[list(held)] = 0.0
    return sd


def prior_rank_summary(models, counts, w, *, prior: str = "empirical-bayes", strata=None, draws: int | None = None,
                       seed: int = 0, groups=None) -> dict:
    """:func:`scorio_core.ranking.posterior_ranks.rank_summary` under the leaderboard's ``prior`` (what ``ranks`` and
    the Leaderboard's Rank distribution tab show).

    Parameters
    ----------
    models : sequence of str, length L
    counts : array-like of int, shape (L, M, C+1)
    w : array-like of float, shape (C+1,)
    prior : {"empirical-bayes", "uniform", "jeffreys"}, default "empirical-bayes"
    strata : ndarray of int, shape (M,), optional
        Task codes where tasks are pooled.
    draws, seed, groups
        As :func:`~scorio_core.ranking.posterior_ranks.rank_summary` (``groups``: ranks within groups of models that
        share no question with each other).

    Returns
    -------
    dict
        ``rank_summary``'s, with ``prior`` and ``prior_note`` (under the empirical-Bayes prior: it is held at its
        fit, and the models whose prior is not identified, drawn from their leaderboard row: :func:`fallback_moments`,
        :data:`scorio_core.uncertainty.fallback_draws.FALLBACK_DRAWS`).

    Raises
    ------
    ValueError
        As :func:`rank_prior_alpha` and ``rank_summary``.
    """
    from scorio_core.ranking.paired import names_phrase
    from scorio_core.ranking.posterior_ranks import HELD_PRIOR, rank_summary
    from scorio_core.uncertainty.fallback_draws import FALLBACK_DRAWS

    c = np.asarray(counts)
    keep = c.sum(axis=(1, 2)) > 0
    alpha, unsure = rank_prior_alpha(c[keep], prior, strata)
    names = [str(m) for m, k in zip(models, keep) if k]
    its = "its" if len(unsure) == 1 else "their"
    note = "" if prior != "empirical-bayes" else HELD_PRIOR + ("" if not unsure else (
        f"; not identified for {names_phrase([names[i] for i in unsure])} (too few repeated trials, or every trial "
        f"in one category), whose draws come instead from {FALLBACK_DRAWS.format(its=its)}, so {its} mean draw is "
        f"{its} leaderboard estimate"))
    if prior == "empirical-bayes" and names and len(unsure) == len(names):  # nothing was fitted: say only that
        note = ("the empirical-Bayes prior is not identified for any model (too few repeated trials, or every trial in "
                f"one category), so each model's draws come from {FALLBACK_DRAWS.format(its='its')}, so each "
                "model's mean draw is its leaderboard estimate")
    shift = mean = sd = None
    if prior == "empirical-bayes":
        from scorio_core.uncertainty.batch import posterior_summary_batch

        row = posterior_summary_batch(c[keep], np.asarray(w, dtype=float), prior="empirical-bayes", strata=strata)
        shift = hyperparameter_sd(c[keep], w, alpha, strata=strata, held=unsure, sigma=row.sigma)
        mean, sd = fallback_moments(c[keep], w, unsure, mu=row.mu, sigma=row.sigma) if unsure else (None, None)
    return rank_summary(models, c, w, draws=draws, seed=seed, prior=prior, prior_note=note,
                        alpha=None if prior == "uniform" else alpha, shift_sd=shift, fallback_mean=mean,
                        fallback_sd=sd, groups=groups)
