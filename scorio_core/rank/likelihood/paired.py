"""Paired-comparison models of ``scorio.rank``: Bradley-Terry, Davidson and Rao-Kupper (ML and MAP).

Every model pair (i, j) is compared on every (question, trial) event: ``W_ij`` counts the events
i solves and j does not, ``T_ij`` the events both solve or both miss (i != j). Both are L x L matrix
products of the flattened outcomes (no loop over models, questions or trials). Strengths
``pi = exp(theta)`` maximise the likelihood (ML) or the likelihood times a prior on the centred
``theta`` (MAP; see :mod:`scorio_core.rank.likelihood.priors`).

Source: the reference package scorio 0.2.3 (``scorio.rank.bradley_terry`` and friends). The
reference minimises its objective with scipy's L-BFGS-B and finite-difference gradients and stops at
scipy's default tolerances, so its strengths are only optimal to about 1e-4; to give the same scores
to 1e-6 (and the same ranks) this module runs the same optimiser from the same start on an objective
that is bit-for-bit the reference's (same terms, summed in the same order, by a sequential
``cumsum``), evaluated for all finite-difference points of an iteration in one vectorised pass.
"""

from __future__ import annotations

import numpy as np
from scorio_core.rank.likelihood.fitting import (average_equal_rows, centred_strengths, check_max_iter, coerce_prior, lbfgs,
                                     pairwise_counts, sequential_total, strongly_connected)
from scorio_core.rank.likelihood.priors import CauchyPrior, GaussianPrior, LaplacePrior, UniformPrior
from scorio_core.rank.ties import rank_with, validate_input

__all__ = ["bradley_terry", "bradley_terry_map", "bradley_terry_davidson", "bradley_terry_davidson_map",
           "rao_kupper", "rao_kupper_map"]

_EXCHANGEABLE = (GaussianPrior, LaplacePrior, CauchyPrior, UniformPrior)


def _init_from_wins(wins: np.ndarray) -> np.ndarray:
    total = np.maximum(wins.sum(axis=1), 1)
    return np.log(total / total.sum())


def _finish(scores, R, prior, method, return_scores):
    if prior is None or type(prior) in _EXCHANGEABLE:
        scores = average_equal_rows(scores, R)
    return rank_with(scores, method, return_scores)


def _bt_nll(wins):
    def nll(X):
        lp = X - X.mean(axis=1, keepdims=True)
        lc = np.clip(lp, -30.0, 30.0)
        pi = np.exp(lc)
        terms = wins * (lc[:, :, None] - np.log(pi[:, :, None] + pi[:, None, :]))
        return -sequential_total(terms.reshape(len(X), -1)), lp
    return nll


def _davidson_nll(wins, ties):
    n = len(wins)
    i, j = np.triu_indices(n, 1)
    w_ij, w_ji, t_ij = wins[i, j], wins[j, i], ties[i, j]
    eps = 1e-10

    def nll(X):
        lp = X[:, :n] - X[:, :n].mean(axis=1, keepdims=True)
        pi = np.exp(np.clip(lp, -30.0, 30.0))
        nu = np.exp(np.clip(X[:, n], -10, 10))[:, None]
        pi_i, pi_j = pi[:, i], pi[:, j]
        geo = nu * np.sqrt(pi_i * pi_j)
        den = np.maximum(pi_i + pi_j + geo, eps)
        terms = np.stack([w_ij * np.log(np.maximum(pi_i / den, eps)), w_ji * np.log(np.maximum(pi_j / den, eps)),
                          t_ij * np.log(np.maximum(geo / den, eps))], axis=2)
        return -sequential_total(terms.reshape(len(X), -1)), lp
    return nll


def _rao_kupper_nll(wins, ties, kappa):
    n = len(wins)
    i, j = np.triu_indices(n, 1)
    counts = np.stack([wins[i, j], wins[j, i], ties[i, j]], axis=1)
    eps = 1e-12

    def nll(X):
        lp = X - X.mean(axis=1, keepdims=True)
        pi = np.exp(np.clip(lp, -30, 30))
        pi_i, pi_j = pi[:, i], pi[:, j]
        d_ij, d_ji = pi_i + kappa * pi_j, kappa * pi_i + pi_j
        p_tie = np.maximum((kappa * kappa - 1.0) * pi_i * pi_j / (d_ij * d_ji), eps) if kappa > 1.0 else np.ones_like(pi_i)
        probs = np.stack([np.maximum(pi_i / d_ij, eps), np.maximum(pi_j / d_ji, eps), p_tie], axis=2)
        terms = np.where(counts > 0, counts * np.log(probs), 0.0)
        return -sequential_total(terms.reshape(len(X), -1)), lp
    return nll


def _posterior(nll, prior):
    """Objective of rows: the negative log-likelihood, plus the prior penalty of the centred log-strengths."""
    if prior is None:
        return lambda X: nll(X)[0]

    def objective(X):
        value, lp = nll(X)
        return value + prior.penalty_rows(lp)
    return objective


def _fit(nll, x0, n, prior, no_decisive, max_iter, name):
    """Shared MAP/ML driver; ``prior=None`` is ML. MAP shortcuts and degenerate cases as the reference."""
    if prior is not None and no_decisive and isinstance(prior, GaussianPrior) and float(prior.mean) == 0.0:
        return np.ones(n)
    x = lbfgs(_posterior(nll, prior), x0, max_iter, name)
    scores = centred_strengths(x[:n])
    if prior is not None and no_decisive and float(np.max(scores) - np.min(scores)) <= 1e-5:
        return np.ones(n)
    return scores


def _bt_scores(wins, prior, max_iter, name):
    n = len(wins)
    no_decisive = float(np.sum(wins)) <= 0.0
    if prior is None:
        if no_decisive:
            return np.ones(n)
        if not strongly_connected(wins > 0):
            raise ValueError("Bradley-Terry has no finite maximum-likelihood estimate because the directed win graph "
                             "is not strongly connected; use bradley_terry_map for a regularized estimate.")
    return _fit(_bt_nll(wins), _init_from_wins(wins), n, prior, no_decisive, max_iter, name)


def _davidson_scores(wins, ties, prior, max_iter, name):
    n = len(wins)
    no_decisive = float(np.sum(wins)) <= 0.0
    if prior is None:
        if no_decisive:
            return np.ones(n)
        if not strongly_connected((wins > 0) | (ties > 0)):
            raise ValueError("Bradley-Terry-Davidson has no finite maximum-likelihood strength estimate because its "
                             "win/tie graph is not strongly connected; use bradley_terry_davidson_map with a proper prior.")
    x0 = np.concatenate([_init_from_wins(wins), [0.0]])
    return _fit(_davidson_nll(wins, ties), x0, n, prior, no_decisive, max_iter, name)


def _rao_kupper_scores(wins, ties, kappa, prior, max_iter, name):
    n = len(wins)
    if kappa == 1.0 and float(np.triu(ties, 1).sum()) > 0:
        raise ValueError("tie_strength=1.0 implies no ties, but tie counts exist")
    no_decisive = float(np.sum(wins)) <= 0.0
    if prior is None:
        if no_decisive:
            return np.ones(n)
        if not strongly_connected((wins > 0) | (ties > 0)):
            raise ValueError("Rao-Kupper has no finite maximum-likelihood strength estimate because its win/tie graph "
                             "is not strongly connected; use rao_kupper_map with a proper prior.")
    return _fit(_rao_kupper_nll(wins, ties, kappa), np.zeros(n), n, prior, no_decisive, max_iter, name)


def _map_prior(prior):
    prior = coerce_prior(prior)
    return None if type(prior) is UniformPrior else prior, prior


def _check_kappa(tie_strength) -> float:
    if isinstance(tie_strength, bool):
        raise TypeError(f"tie_strength must be a finite scalar >= 1.0, got {type(tie_strength).__name__}")
    kappa = float(tie_strength)
    if not np.isfinite(kappa):
        raise ValueError("tie_strength must be finite.")
    if kappa < 1.0:
        raise ValueError("tie_strength must be >= 1.0 for Rao-Kupper")
    return kappa


def bradley_terry(R, method: str = "competition", return_scores: bool = False, max_iter: int = 500):
    """Rank models by Bradley-Terry maximum-likelihood strengths (ties ignored).

    ``P(i beats j) = pi_i / (pi_i + pi_j)``; strengths are ``exp`` of centred log-strengths.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    method : {"competition", "competition_max", "dense", "avg"}, default "competition"
    return_scores : bool, default False
    max_iter : int, default 500
        L-BFGS-B iteration budget (positive).

    Returns
    -------
    ndarray, shape (L,), or (ranks, strengths)
        All strengths 1 without any decisive outcome; models with identical outcomes share the mean strength.

    Raises
    ------
    ValueError, TypeError, RuntimeError
        Bad ``R`` or ``max_iter``; a win graph that is not strongly connected (no finite MLE); optimiser failure.

    Examples
    --------
    >>> bradley_terry([[1, 1, 1, 0], [0, 0, 1, 1]], return_scores=True)[1].round(4).tolist()  # wins 2:1
    [1.4142, 0.7071]
    """
    R = validate_input(R)
    max_iter = check_max_iter(max_iter)
    wins, _ = pairwise_counts(R)
    return _finish(_bt_scores(wins, None, max_iter, "bradley_terry"), R, None, method, return_scores)


def bradley_terry_map(R, prior=1.0, method: str = "competition", return_scores: bool = False, max_iter: int = 500):
    """Rank models by Bradley-Terry MAP strengths: the likelihood of :func:`bradley_terry` times a prior.

    Parameters
    ----------
    R, method, return_scores, max_iter
        As :func:`bradley_terry`.
    prior : Prior or float, default 1.0
        A float is the variance of ``GaussianPrior(0, var)``; ``UniformPrior()`` gives :func:`bradley_terry`.

    Returns
    -------
    ndarray, shape (L,), or (ranks, strengths)
        All 1 without decisive outcomes under a zero-mean Gaussian prior (or a fit flatter than 1e-5);
        identical models share the mean strength when the prior is exchangeable.

    Raises
    ------
    TypeError, ValueError, RuntimeError
        Bad ``prior`` (not a Prior or positive finite float), ``R`` or ``max_iter``; optimiser failure.
    """
    R = validate_input(R)
    max_iter = check_max_iter(max_iter)
    fit_prior, prior = _map_prior(prior)
    wins, _ = pairwise_counts(R)
    name = "bradley_terry" if fit_prior is None else "bradley_terry_map"
    return _finish(_bt_scores(wins, fit_prior, max_iter, name), R, prior, method, return_scores)


def bradley_terry_davidson(R, method: str = "competition", return_scores: bool = False, max_iter: int = 500):
    """Rank models by Bradley-Terry-Davidson maximum-likelihood strengths (ties modelled, ``nu`` estimated).

    ``P(i beats j) = pi_i / D``, ``P(tie) = nu sqrt(pi_i pi_j) / D``, ``D = pi_i + pi_j + nu sqrt(pi_i pi_j)``.

    Parameters
    ----------
    R, method, return_scores, max_iter
        As :func:`bradley_terry`.

    Returns
    -------
    ndarray, shape (L,), or (ranks, strengths)

    Raises
    ------
    ValueError, TypeError, RuntimeError
        As :func:`bradley_terry` (the win-or-tie graph must be strongly connected).
    """
    R = validate_input(R)
    max_iter = check_max_iter(max_iter)
    wins, ties = pairwise_counts(R)
    scores = _davidson_scores(wins, ties, None, max_iter, "bradley_terry_davidson")
    return _finish(scores, R, None, method, return_scores)


def bradley_terry_davidson_map(R, prior=1.0, method: str = "competition", return_scores: bool = False,
                               max_iter: int = 500):
    """Rank models by Bradley-Terry-Davidson MAP strengths (prior on centred log-strengths; ``nu`` free).

    Parameters
    ----------
    R, prior, method, return_scores, max_iter
        As :func:`bradley_terry_map`.

    Returns
    -------
    ndarray, shape (L,), or (ranks, strengths)

    Raises
    ------
    TypeError, ValueError, RuntimeError
        As :func:`bradley_terry_map`; ``ValueError`` for a disconnected win/tie graph under ``UniformPrior``.
    """
    R = validate_input(R)
    max_iter = check_max_iter(max_iter)
    fit_prior, prior = _map_prior(prior)
    wins, ties = pairwise_counts(R)
    name = "bradley_terry_davidson" if fit_prior is None else "bradley_terry_davidson_map"
    return _finish(_davidson_scores(wins, ties, fit_prior, max_iter, name), R, prior, method, return_scores)


def rao_kupper(R, tie_strength: float = 1.1, method: str = "competition", return_scores: bool = False,
               max_iter: int = 500):
    """Rank models by Rao-Kupper maximum-likelihood strengths with a fixed tie threshold ``kappa``.

    ``P(i beats j) = pi_i / (pi_i + kappa pi_j)``,
    ``P(tie) = (kappa^2 - 1) pi_i pi_j / ((pi_i + kappa pi_j)(kappa pi_i + pi_j))``.

    Parameters
    ----------
    R, method, return_scores, max_iter
        As :func:`bradley_terry`.
    tie_strength : float, default 1.1
        ``kappa >= 1``, finite.

    Returns
    -------
    ndarray, shape (L,), or (ranks, strengths)

    Raises
    ------
    ValueError, TypeError, RuntimeError
        As :func:`bradley_terry_davidson`; also ``kappa == 1`` with ties, a bool ``tie_strength``.
    """
    R = validate_input(R)
    max_iter = check_max_iter(max_iter)
    kappa = _check_kappa(tie_strength)
    wins, ties = pairwise_counts(R)
    scores = _rao_kupper_scores(wins, ties, kappa, None, max_iter, "rao_kupper")
    return _finish(scores, R, None, method, return_scores)


def rao_kupper_map(R, tie_strength: float = 1.1, prior=1.0, method: str = "competition",
                   return_scores: bool = False, max_iter: int = 500):
    """Rank models by Rao-Kupper MAP strengths (fixed ``kappa``, prior on centred log-strengths).

    Parameters
    ----------
    R, tie_strength, method, return_scores, max_iter
        As :func:`rao_kupper`.
    prior : Prior or float, default 1.0
        As :func:`bradley_terry_map`.

    Returns
    -------
    ndarray, shape (L,), or (ranks, strengths)

    Raises
    ------
    TypeError, ValueError, RuntimeError
        As :func:`rao_kupper` and :func:`bradley_terry_map`.
    """
    R = validate_input(R)
    max_iter = check_max_iter(max_iter)
    kappa = _check_kappa(tie_strength)
    fit_prior, prior = _map_prior(prior)
    wins, ties = pairwise_counts(R)
    name = "rao_kupper" if fit_prior is None else "rao_kupper_map"
    return _finish(_rao_kupper_scores(wins, ties, kappa, fit_prior, max_iter, name), R, prior, method, return_scores)
