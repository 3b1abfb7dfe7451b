"""Bayesian ranking methods of ``scorio.rank``: Thompson sampling of Beta posteriors and Bayesian Bradley-Terry MCMC.

Both are seeded Monte-Carlo methods. They draw from ``numpy.random.default_rng(seed)`` with the same
generator calls, in the same order, as the reference package scorio 0.2.3 (``scorio.rank.bayesian``),
so with the same seed they give the same draws and scores (to rounding):

- :func:`thompson` draws all ``n_samples`` x ``L`` Beta variates in one call (the generator fills
  arrays element by element, so one (T, L) call is the reference's T calls of L) and ranks every
  draw at once;
- :func:`bayesian_mcmc` is a sequential random-walk Metropolis chain (one proposal call and one
  uniform per step, as the reference); its log-posterior is one vectorised pass over the L x L
  win matrix instead of a double Python loop, summed in the reference's order.
"""

from __future__ import annotations

import numpy as np

from scorio_core.rank.graph import question_wins
from scorio_core.rank.likelihood.fitting import average_equal_rows, check_int, pairwise_counts
from scorio_core.rank.ties import rank_with, validate_input

__all__ = ["thompson", "bayesian_mcmc"]

_CHUNK = 1 << 20  # Beta draws per generator call (bounded memory; the stream is the same)


def _positive_float(value, name: str) -> float:
    value = float(value)
    if not np.isfinite(value) or value <= 0.0:
        raise ValueError(f"{name} must be > 0 and finite.")
    return value


def thompson(R, n_samples: int = 10000, prior_alpha: float = 1.0, prior_beta: float = 1.0, seed: int = 42,
             method: str = "competition", return_scores: bool = False):
    """Rank models by posterior expected rank under independent Beta-Binomial accuracies (Thompson sampling).

    Model ``l`` with ``S_l`` successes in ``M N`` outcomes has posterior
    ``p_l ~ Beta(prior_alpha + S_l, prior_beta + M N - S_l)``; the score is minus the Monte-Carlo mean
    rank of ``p_l`` over ``n_samples`` joint draws (rank 1 is the largest draw).

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    n_samples : int, default 10000
        Posterior draws (>= 1).
    prior_alpha, prior_beta : float, default 1.0
        Beta prior parameters (positive, finite).
    seed : int, default 42
        Seed of ``numpy.random.default_rng``.
    method : {"competition", "competition_max", "dense", "avg"}, default "competition"
    return_scores : bool, default False

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)
        ``scores = -E[rank]``; all ``-(L + 1) / 2`` when every posterior is the same, and models with the
        same posterior share their mean score.

    Raises
    ------
    TypeError
        ``n_samples`` is not an integer.
    ValueError
        Bad ``R``; ``n_samples < 1``; a prior parameter not positive and finite.

    Examples
    --------
    >>> thompson([[[1, 1], [1, 1]], [[0, 0], [0, 0]]], n_samples=2000).tolist()
    [1.0, 2.0]
    """
    R = validate_input(R)
    n_samples = check_int(n_samples, "n_samples", 1)
    prior_alpha = _positive_float(prior_alpha, "prior_alpha")
    prior_beta = _positive_float(prior_beta, "prior_beta")
    L, M, N = R.shape
    rng = np.random.default_rng(seed)
    successes = R.reshape(L, -1).sum(axis=1).astype(float)
    alphas, betas = prior_alpha + successes, prior_beta + (float(M * N) - successes)
    if np.allclose(alphas, alphas[0]) and np.allclose(betas, betas[0]):
        return rank_with(np.full(L, -(L + 1) / 2.0), method, return_scores)
    rank_sums = np.zeros(L)
    rows = max(1, _CHUNK // L)
    for start in range(0, n_samples, rows):
        draws = rng.beta(alphas, betas, size=(min(rows, n_samples - start), L))
        rank_sums += (np.argsort(np.argsort(-draws, axis=1), axis=1) + 1).sum(axis=0)
    scores = average_equal_rows(-(rank_sums / n_samples), np.column_stack((alphas, betas)))
    return rank_with(scores, method, return_scores)


def _log_posterior(wins: np.ndarray, prior_var: float):
    """theta -> Bradley-Terry log-likelihood of the decisive wins plus the Gaussian log-prior (reference order)."""
    i, j = np.nonzero(wins)  # row-major: the reference's double-loop order, zero-win pairs skipped
    weights = wins[i, j]
    exp, log, add, where = np.exp, np.log, np.add.reduce, np.where

    def log_post(theta):
        diff = theta[j] - theta[i]  # log P(i beats j) = -log(1 + exp(theta_j - theta_i)), cut at |diff| > 20
        log_p = where(diff > 20, -diff, where(diff < -20, 0.0, -log(1 + exp(np.minimum(diff, 20.0)))))
        ll = float((weights * log_p).cumsum()[-1])  # sequential, as ``ll += ...``
        return ll + (-0.5 * add(theta**2) / prior_var)
    return log_post


def bayesian_mcmc(R, n_samples: int = 5000, burnin: int = 1000, prior_var: float = 1.0, seed: int = 42,
                  method: str = "competition", return_scores: bool = False):
    """Rank models by posterior mean Bradley-Terry log-strengths, sampled by random-walk Metropolis.

    Decisive wins ``W_ij`` (i solves, j misses) have likelihood ``prod sigma(theta_i - theta_j)^W_ij``,
    ``theta_i ~ N(0, prior_var)``. The chain starts at 0 with proposal scale 0.1, retuned every 500
    burn-in steps (x 0.8 below 20 % acceptance, x 1.2 above 50 %); the score is the mean of the
    ``n_samples`` retained states.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    n_samples : int, default 5000
        Retained states (>= 1).
    burnin : int, default 1000
        Warm-up steps (>= 0).
    prior_var : float, default 1.0
        Positive, finite.
    seed : int, default 42
    method : {"competition", "competition_max", "dense", "avg"}, default "competition"
    return_scores : bool, default False

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)
        Posterior means of ``theta``; all 0 without decisive outcomes; models with identical outcomes share
        their mean score.

    Raises
    ------
    TypeError
        ``n_samples`` or ``burnin`` is not an integer.
    ValueError
        Bad ``R``; ``n_samples < 1``; ``burnin < 0``; ``prior_var`` not positive and finite.

    Examples
    --------
    >>> bayesian_mcmc([[[1, 1], [1, 1]], [[0, 0], [0, 0]]], n_samples=2000, burnin=500).tolist()
    [1.0, 2.0]
    """
    R = validate_input(R)
    n_samples = check_int(n_samples, "n_samples", 1)
    burnin = check_int(burnin, "burnin", 0)
    prior_var = _positive_float(prior_var, "prior_var")
    L = R.shape[0]
    rng = np.random.default_rng(seed)
    wins, _ = pairwise_counts(R)
    if float(np.sum(wins)) <= 0.0:
        return rank_with(np.zeros(L), method, return_scores)
    log_post = _log_posterior(wins, prior_var)
    theta = np.zeros(L)
    current = log_post(theta)
    samples = np.empty((n_samples, L))
    step, accepted = 0.1, 0
    for it in range(n_samples + burnin):
        proposal = theta + rng.normal(0, step, L)
        proposed = log_post(proposal)
        if np.log(rng.random()) < min(proposed - current, 0.0):
            theta, current = proposal, proposed
            accepted += 1
        if it >= burnin:
            samples[it - burnin] = theta
        if it > 0 and it % 500 == 0 and it < burnin:
            rate = accepted / it
            step = step * 0.8 if rate < 0.2 else step * 1.2 if rate > 0.5 else step
    scores = average_equal_rows(np.mean(samples, axis=0), R)
    return rank_with(scores, method, return_scores)


def bayesian_mcmc_resamples(R, idx, n_samples: int = 5000, burnin: int = 1000, prior_var: float = 1.0,
                            seed: int = 42) -> np.ndarray:
    """:func:`bayesian_mcmc`'s scores on every resample of questions at once, the same numbers as one call each.

    Parameters
    ----------
    R : ndarray, shape (L, M, N)
        Binary outcomes (validated by the caller).
    idx : ndarray of int, shape (B, M')
        Question indices of each resample (``R[:, idx[b]]`` is resample b).
    n_samples, burnin, prior_var, seed
        As :func:`bayesian_mcmc` (its defaults).

    Returns
    -------
    ndarray of float64, shape (B, L)
        Posterior-mean log-strengths of each resample, identical to
        ``bayesian_mcmc(R[:, idx[b]], ..., return_scores=True)[1]``.

    Notes
    -----
    Every call of :func:`bayesian_mcmc` with the same ``seed`` consumes the same random stream (a normal vector and
    a uniform per step, whatever is accepted), so the B chains run in lock-step on one stream: the proposal of chain b
    is ``theta_b + step_b z`` with the shared ``z``, its acceptance compares the shared ``log u``, and its proposal
    scale is retuned from its own acceptance rate. The log-posterior sums each chain's decisive-win terms in the
    reference's row-major pair order (absent pairs add exact zeros), so every chain is bit-identical to its own call.
    Cost: one pass of ``n_samples + burnin`` steps over (B, L^2) arrays instead of B passes over (L^2) arrays.
    """
    R = np.asarray(R)
    idx = np.asarray(idx)
    n_samples = check_int(n_samples, "n_samples", 1)
    burnin = check_int(burnin, "burnin", 0)
    prior_var = _positive_float(prior_var, "prior_var")
    L, M = R.shape[:2]
    B = idx.shape[0]
    per_question = question_wins(R).reshape(M, L * L)  # (M, L^2): integer counts, each pairwise_counts(R[:, [q]])[0]
    drawn = np.zeros((B, M))
    np.add.at(drawn, (np.arange(B)[:, None], idx), 1.0)
    wins = drawn @ per_question  # (B, L^2): integer-valued, exactly the resample's pairwise_counts
    i, j = np.divmod(np.arange(L * L), L)
    exp, log, where = np.exp, np.log, np.where

    def log_post(theta):  # (B, L) -> (B,), each row as _log_posterior's log_post
        diff = theta[:, j] - theta[:, i]
        log_p = where(diff > 20, -diff, where(diff < -20, 0.0, -log(1 + exp(np.minimum(diff, 20.0)))))
        ll = (wins * log_p).cumsum(axis=1)[:, -1]
        return ll + (-0.5 * np.add.reduce(theta**2, axis=1) / prior_var)

    rng = np.random.default_rng(seed)
    theta = np.zeros((B, L))
    current = log_post(theta)
    total = np.zeros((B, L))
    step = np.full(B, 0.1)
    accepted = np.zeros(B, dtype=np.int64)
    for it in range(n_samples + burnin):  # steps of a Markov chain are sequential; the B chains move together
        proposal = theta + step[:, None] * rng.normal(0, 1.0, L)
        proposed = log_post(proposal)
        take = np.log(rng.random()) < np.minimum(proposed - current, 0.0)
        theta = np.where(take[:, None], proposal, theta)
        current = np.where(take, proposed, current)
        accepted += take
        if it >= burnin:
            total += theta
        if it > 0 and it % 500 == 0 and it < burnin:
            rate = accepted / it
            step = np.where(rate < 0.2, step * 0.8, np.where(rate > 0.5, step * 1.2, step))
    scores = total / n_samples
    scores = np.stack([average_equal_rows(row, R[:, rows]) for row, rows in zip(scores, idx)]) if B else scores
    return np.where((wins.sum(axis=1) <= 0.0)[:, None], 0.0, scores)  # no decisive outcome: all 0, as one call
