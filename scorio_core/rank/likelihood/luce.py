"""Luce-family choice models of ``scorio.rank``: Plackett-Luce, Davidson-Luce and Bradley-Terry-Luce (ML and MAP).

Each (question, trial) event splits the models into winners (right) and losers (wrong); events where
every model is right or every model is wrong carry no information and are dropped. With strengths
``pi_i`` a Luce choice of ``i`` from a set ``S`` has probability ``pi_i / sum_{j in S} pi_j``
(Luce, 1959). Three likelihoods are built from the events:

- Plackett-Luce (Plackett, 1975), reduced to the decisive pairwise win counts ``W_ij``: the
  Bradley-Terry form, fitted by Hunter's (2004) MM iteration (ML) or L-BFGS-B (MAP);
- Davidson-Luce (Firth, Kosmidis & Turner, 2019): the winner set is one tied choice with
  probability ``delta_t g_t(W) / sum_{t'<=D} delta_t' sum_{|T|=t'} g_t'(T)``, ``g_t(T)`` the geometric
  mean strength of ``T`` and ``t = |W|``; tie parameters ``delta_2..delta_D`` are estimated;
- Bradley-Terry-Luce rank breaking: each winner ``i`` is a Luce choice from ``{i} | losers``
  (a composite likelihood).

Strengths are ``exp`` of centred log-strengths (clipped to [-30, 30]) except for the Plackett-Luce MM
fit, whose strengths sum to 1. MAP variants add the penalty of a prior
(:mod:`scorio_core.rank.likelihood.priors`) on the centred log-strengths. Models that no such
model can tell apart share their mean score. Source: the reference package scorio 0.2.3
(``scorio.rank.listwise``); see :mod:`.luce_fit` for how its optimiser path is reproduced.
"""

from __future__ import annotations

import numpy as np

from scorio_core.rank.likelihood.fitting import (average_equal_rows, centred_strengths, check_int, coerce_prior, lbfgs,
                                                 pairwise_counts)
from scorio_core.rank.likelihood.luce_fit import (btl_nll, choice_graph_connected, davidson_luce_nll, events,
                                                  mm_plackett_luce, pl_map_nll)
from scorio_core.rank.likelihood.orbits import average_over_orbits
from scorio_core.rank.likelihood.priors import CauchyPrior, GaussianPrior, LaplacePrior, UniformPrior
from scorio_core.rank.ties import rank_with, validate_input

__all__ = ["plackett_luce", "plackett_luce_map", "davidson_luce", "davidson_luce_map", "bradley_terry_luce",
           "bradley_terry_luce_map"]

_EXCHANGEABLE = (GaussianPrior, LaplacePrior, CauchyPrior, UniformPrior)


def _float_arg(name: str, value) -> float:
    out = float(value)
    if not np.isfinite(out) or out <= 0.0:
        raise ValueError(f"{name} must be a finite scalar > 0.0, got {value}")
    return out


def _prior(prior):
    if isinstance(prior, (int, float, np.integer, np.floating)) and not isinstance(prior, bool):
        prior = float(prior)
    return coerce_prior(prior, "prior must be a finite scalar > 0.0, got {value}")


def _posterior(nll, prior):
    def objective(X):
        value, lp = nll(X)
        return value if prior is None else value + prior.penalty_rows(lp)
    return objective


def _pl_scores(wins, prior, max_iter, tol):
    if prior is None or type(prior) is UniformPrior:
        return mm_plackett_luce(wins, max_iter, tol)
    total = np.maximum(wins.sum(axis=1), 1)
    x = lbfgs(_posterior(pl_map_nll(wins), prior), np.log(total / total.sum()), max_iter, "plackett_luce_map")
    return centred_strengths(x)


def _max_tie_order(max_tie_order, L: int, win: np.ndarray) -> int:
    D = max(L - 1, 1) if max_tie_order is None else max_tie_order
    D = check_int(D, "max_tie_order")
    if D > L:
        raise ValueError(f"max_tie_order must be <= number of models ({L})")
    if len(win) and int(win.sum(axis=1).max()) > D:
        raise ValueError("Observed winner-set size exceeds max_tie_order; increase "
                         "max_tie_order so every observed event has positive model probability.")
    return D


def _dl_scores(win, L, D, prior, max_iter):
    if len(win) == 0:
        return np.ones(L) / L
    ml = prior is None or type(prior) is UniformPrior
    if ml and not choice_graph_connected(win, co_winners=True):
        raise ValueError("Davidson-Luce has no finite maximum-likelihood strength estimate because its win/co-winner "
                         "graph is not strongly connected; use davidson_luce_map with a proper prior.")
    name = "davidson_luce" if ml else "davidson_luce_map"
    objective = _posterior(davidson_luce_nll(win, D), None if ml else prior)
    x = lbfgs(objective, np.zeros(L + max(D - 1, 0)), max_iter, name)
    return centred_strengths(x[:L])


def _dl_statistics(win, L, D):
    """Each model's winner memberships by winner-set size, (L, D): Davidson-Luce's sufficient statistics."""
    size = win.sum(axis=1)
    return win.T.astype(np.int64) @ np.eye(D, dtype=np.int64)[size - 1] if len(win) else np.zeros((L, D), int)


def _btl_scores(win, L, prior, max_iter):
    if len(win) == 0:
        return np.ones(L) / L
    ml = prior is None or type(prior) is UniformPrior
    if ml and not choice_graph_connected(win, co_winners=False):
        raise ValueError("Bradley-Terry-Luce has no finite maximum-likelihood estimate because the directed choice "
                         "graph is not strongly connected; use bradley_terry_luce_map for a regularized estimate.")
    name = "bradley_terry_luce" if ml else "bradley_terry_luce_map"
    return centred_strengths(lbfgs(_posterior(btl_nll(win), None if ml else prior), np.zeros(L), max_iter, name))


def plackett_luce(R, method: str = "competition", return_scores: bool = False, max_iter: int = 10_000,
                  tol: float = 1e-8):
    """Rank models by Plackett-Luce maximum-likelihood strengths on the decisive pairwise wins.

    Reduced to pairwise decisive outcomes, Plackett-Luce (Plackett, 1975; Luce, 1959) is the
    Bradley-Terry model ``P(i beats j) = pi_i / (pi_i + pi_j)``; ties (both right or both wrong) are
    ignored. Fitted by Hunter's (2004) MM iteration ``pi_i <- W_i / sum_j N_ij / (pi_i + pi_j)``,
    renormalised to sum 1 after each sweep.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes of L >= 2 models on M questions and N trials.
    method : {"competition", "competition_max", "dense", "avg"}, default "competition"
        Tie convention of the ranks.
    return_scores : bool, default False
        Also return the strengths.
    max_iter : int, default 10000
        MM sweep budget (>= 1).
    tol : float, default 1e-8
        Convergence threshold on the largest change of ``pi`` (finite, > 0).

    Returns
    -------
    ndarray, shape (L,), or (ranks, strengths)
        Strengths sum to 1 (``1 / L`` each without any decisive outcome); models with identical
        outcomes share their mean strength.

    Raises
    ------
    ValueError
        Bad ``R``, ``max_iter`` < 1 or a bad ``tol``; a win graph that is not strongly connected (no finite MLE).
    TypeError
        Non-integer ``max_iter``.
    RuntimeError
        No convergence within ``max_iter`` sweeps.
    """
    R = validate_input(R)
    max_iter = check_int(max_iter, "max_iter")
    tol = _float_arg("tol", tol)
    wins, _ = pairwise_counts(R)
    return rank_with(average_equal_rows(_pl_scores(wins, None, max_iter, tol), R), method, return_scores)


def plackett_luce_map(R, prior=1.0, method: str = "competition", return_scores: bool = False, max_iter: int = 500):
    """Rank models by Plackett-Luce MAP strengths: the pairwise likelihood of :func:`plackett_luce` times a prior.

    Minimises ``-sum_{i != j} W_ij (theta_i - log(e^theta_i + e^theta_j)) + P(theta - mean(theta))`` by
    L-BFGS-B from the log win shares; ``UniformPrior()`` gives the MM fit of :func:`plackett_luce`.

    Parameters
    ----------
    R, method, return_scores
        As :func:`plackett_luce`.
    prior : Prior or float, default 1.0
        A float is the variance of ``GaussianPrior(0, var)`` (finite, > 0).
    max_iter : int, default 500
        Optimiser iteration budget (>= 1).

    Returns
    -------
    ndarray, shape (L,), or (ranks, strengths)
        ``exp`` of the centred log-strengths; identical models share their mean under an exchangeable prior.

    Raises
    ------
    TypeError, ValueError, RuntimeError
        Bad ``R``, ``max_iter`` or ``prior``; optimiser failure (as :func:`plackett_luce` under ``UniformPrior``).
    """
    R = validate_input(R)
    max_iter = check_int(max_iter, "max_iter")
    prior = _prior(prior)
    wins, _ = pairwise_counts(R)
    scores = _pl_scores(wins, prior, max_iter, 1e-8)
    if type(prior) in _EXCHANGEABLE:
        scores = average_equal_rows(scores, R)
    return rank_with(scores, method, return_scores)


def davidson_luce(R, method: str = "competition", return_scores: bool = False, max_iter: int = 500,
                  max_tie_order: int | None = None):
    """Rank models by Davidson-Luce maximum-likelihood strengths (the winner set as one tied choice).

    ``P(W | S) = delta_t g_t(W) / sum_{t'=1}^{min(D, |S|)} delta_t' sum_{|T|=t'} g_t'(T)`` with ``t = |W|``,
    ``g_t(T) = (prod_{i in T} alpha_i)^{1/t}``, ``delta_1 = 1`` (Firth, Kosmidis & Turner, 2019,
    arXiv:1909.07123). The normaliser uses elementary symmetric polynomials; strengths and log tie
    parameters are fitted jointly by L-BFGS-B from zero.

    Parameters
    ----------
    R, method, return_scores
        As :func:`plackett_luce`.
    max_iter : int, default 500
        Optimiser iteration budget (>= 1).
    max_tie_order : int or None, default None
        Largest tie order ``D`` (``1 <= D <= L``); None means ``max(L - 1, 1)``.

    Returns
    -------
    ndarray, shape (L,), or (ranks, strengths)
        Strengths ``alpha`` (``1 / L`` each without informative events); models with equal winner
        counts by tie order share their mean strength.

    Raises
    ------
    ValueError
        Bad ``R``, ``max_iter`` or ``max_tie_order`` (> L, or smaller than an observed winner set);
        a win/co-winner graph that is not strongly connected.
    TypeError
        Non-integer ``max_iter`` or ``max_tie_order``.
    RuntimeError
        Optimiser failure.
    """
    R = validate_input(R)
    max_iter = check_int(max_iter, "max_iter")
    win, L = events(R), R.shape[0]
    D = _max_tie_order(max_tie_order, L, win)
    scores = average_equal_rows(_dl_scores(win, L, D, None, max_iter), _dl_statistics(win, L, D))
    return rank_with(scores, method, return_scores)


def davidson_luce_map(R, prior=1.0, method: str = "competition", return_scores: bool = False, max_iter: int = 500,
                      max_tie_order: int | None = None):
    """Rank models by Davidson-Luce MAP strengths: :func:`davidson_luce`'s likelihood times a prior.

    Parameters
    ----------
    R, method, return_scores, max_iter, max_tie_order
        As :func:`davidson_luce`.
    prior : Prior or float, default 1.0
        As :func:`plackett_luce_map`; ``UniformPrior()`` gives :func:`davidson_luce`.

    Returns
    -------
    ndarray, shape (L,), or (ranks, strengths)

    Raises
    ------
    TypeError, ValueError, RuntimeError
        As :func:`davidson_luce` and :func:`plackett_luce_map`.
    """
    R = validate_input(R)
    max_iter = check_int(max_iter, "max_iter")
    L = R.shape[0]
    prior = _prior(prior)
    win = events(R)
    D = _max_tie_order(max_tie_order, L, win)
    scores = _dl_scores(win, L, D, prior, max_iter)
    if type(prior) in _EXCHANGEABLE:
        scores = average_equal_rows(scores, _dl_statistics(win, L, D))
    return rank_with(scores, method, return_scores)


def bradley_terry_luce(R, method: str = "competition", return_scores: bool = False, max_iter: int = 500):
    """Rank models by Bradley-Terry-Luce composite-likelihood strengths (rank breaking of winner sets).

    Each winner ``i`` of an event is a Luce (1959) choice from ``{i} | losers``: the objective is
    ``sum_events sum_{i in W} [log pi_i - log(pi_i + sum_{j in losers} pi_j)]``, a composite likelihood,
    maximised by L-BFGS-B from zero.

    Parameters
    ----------
    R, method, return_scores
        As :func:`plackett_luce`.
    max_iter : int, default 500
        Optimiser iteration budget (>= 1).

    Returns
    -------
    ndarray, shape (L,), or (ranks, strengths)
        ``exp`` of centred log-strengths (``1 / L`` each without informative events); models that a
        relabelling of the events maps onto each other share their mean strength.

    Raises
    ------
    ValueError
        Bad ``R`` or ``max_iter``; a winner -> loser choice graph that is not strongly connected.
    TypeError
        Non-integer ``max_iter``.
    RuntimeError
        Optimiser failure.
    """
    R = validate_input(R)
    max_iter = check_int(max_iter, "max_iter")
    scores = _btl_scores(events(R), R.shape[0], None, max_iter)
    return rank_with(average_over_orbits(scores, R), method, return_scores)


def bradley_terry_luce_map(R, prior=1.0, method: str = "competition", return_scores: bool = False,
                           max_iter: int = 500):
    """Rank models by Bradley-Terry-Luce MAP strengths: :func:`bradley_terry_luce`'s objective plus a prior.

    Parameters
    ----------
    R, method, return_scores, max_iter
        As :func:`bradley_terry_luce`.
    prior : Prior or float, default 1.0
        As :func:`plackett_luce_map`; ``UniformPrior()`` gives :func:`bradley_terry_luce`.

    Returns
    -------
    ndarray, shape (L,), or (ranks, strengths)

    Raises
    ------
    TypeError, ValueError, RuntimeError
        As :func:`bradley_terry_luce` and :func:`plackett_luce_map`.
    """
    R = validate_input(R)
    max_iter = check_int(max_iter, "max_iter")
    prior = _prior(prior)
    scores = _btl_scores(events(R), R.shape[0], prior, max_iter)
    if type(prior) in _EXCHANGEABLE:
        scores = average_over_orbits(scores, R)
    return rank_with(scores, method, return_scores)
