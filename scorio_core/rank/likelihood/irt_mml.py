"""Rasch by marginal maximum likelihood of ``scorio.rank``: :func:`rasch_mml` and :func:`rasch_mml_credible`.

Counts ``k_lm`` out of ``N`` trials are Binomial with success probability ``sigma(theta_l - b_m)``, abilities
with a standard normal population distribution integrated on a Gauss-Hermite grid (Bock & Aitkin 1981).
Each EM iteration computes every model's posterior over the grid (E-step) and then each question's
difficulty maximising the expected complete-data log-likelihood (M-step). Models are scored by their
expected a posteriori (EAP) ability, or by a posterior quantile (``rasch_mml_credible``).

Source: the reference package scorio 0.2.3 (``scorio.rank.irt.rasch_mml``, ``rasch_mml_credible``,
``_estimate_rasch_mml``): same checks and messages, same start (logits of the smoothed accuracies), same
E-step (clipped probabilities, softmax over the nodes), same number of EM iterations, same treatment of
questions every model solves or none does (difficulty -inf / +inf, left out of the fit), same scores and
tie averaging. One difference, deliberate: the reference solves each question's M-step with its own
L-BFGS-B run on finite-difference gradients (one optimiser call per question and EM iteration), which
stops at that optimiser's tolerance. Here the M-step's stationarity condition
``sum_q (r_mq - N W_q p_q(b_m)) = 0`` (``W_q`` the posterior mass at node q, ``r_mq`` the expected correct
answers) is solved for all questions at once by safeguarded Newton iterations to rounding, which is the
maximum the reference's optimiser approaches; the two agree in ranks and to the reference optimiser's
tolerance in scores (measured in ``tests/core/test_rank_reference_mml.py``).
"""

from __future__ import annotations

import numpy as np

from scorio_core.rank.likelihood.fitting import average_equal_rows
from scorio_core.rank.likelihood.irt_fit import counts, positive_int
from scorio_core.rank.ties import rank_with

__all__ = ["rasch_mml", "rasch_mml_credible"]

_P_MIN = 1e-10
_NEWTON_MAX = 200


def _probabilities(theta_q: np.ndarray, beta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The reference's clipped success probabilities (Q, M) and where they are not clipped."""
    raw = 1.0 / (1.0 + np.exp(-np.clip(theta_q[:, None] - beta[None, :], -30, 30)))
    free = (raw > _P_MIN) & (raw < 1.0 - _P_MIN)
    return np.clip(raw, _P_MIN, 1.0 - _P_MIN), free


def _posterior(k: np.ndarray, n_trials: int, beta: np.ndarray, theta_q: np.ndarray, w_q: np.ndarray) -> np.ndarray:
    """E-step: each model's posterior over the nodes (L, Q), a softmax of log-likelihood plus log weight."""
    prob, _free = _probabilities(theta_q, beta)
    log_lik = k @ np.log(prob).T + (n_trials - k) @ np.log(1.0 - prob).T
    lik = np.exp(log_lik - log_lik.max(axis=1, keepdims=True)) * w_q[None, :]
    return lik / lik.sum(axis=1, keepdims=True)


def _m_step(beta: np.ndarray, posterior: np.ndarray, k: np.ndarray, n_trials: int, theta_q: np.ndarray) -> np.ndarray:
    """Every question's M-step difficulty at once: the root of ``sum_q (r_mq - N W_q p_q(b))`` by bracketed Newton.

    The expected negative log-likelihood of question m is convex in ``b``; its derivative
    ``g(b) = sum_q (r_mq - N W_q p_q(b))`` (over nodes where the probability is not clipped) increases
    with ``b``. Each iteration keeps a bracket (``g < 0`` below the root, ``> 0`` above) and takes the
    Newton step, or bisects when the step leaves the bracket; it stops at a step below rounding.
    """
    W = posterior.sum(axis=0)  # (Q,)
    r = k.T @ posterior  # (M, Q)
    nw = n_trials * W
    b = beta.copy()
    lo = np.full(b.shape, -np.inf)
    hi = np.full(b.shape, np.inf)
    active = np.arange(b.size)
    for _ in range(_NEWTON_MAX):
        if active.size == 0:
            break
        ba = b[active]
        p, free = _probabilities(theta_q, ba)  # (Q, A)
        p, free = p.T, free.T
        g = np.where(free, r[active] - nw * p, 0.0).sum(axis=1)
        h = np.where(free, nw * p * (1.0 - p), 0.0).sum(axis=1)
        lo[active] = np.where(g < 0, ba, lo[active])
        hi[active] = np.where(g > 0, ba, hi[active])
        la, ha = lo[active], hi[active]
        with np.errstate(divide="ignore", invalid="ignore"):  # h = 0 (all nodes clipped) and inf - inf are caught below
            new = ba - np.clip(g / h, -4.0, 4.0)
            outside = ~((new > la) & (new < ha)) | ~np.isfinite(new)
            both = np.isfinite(la) & np.isfinite(ha)
            new = np.where(outside & both, 0.5 * (la + ha), new)
            new = np.where(outside & ~both & np.isfinite(la), la + 4.0, new)
            new = np.where(outside & ~both & np.isfinite(ha), ha - 4.0, new)
        step = np.abs(new - ba)
        b[active] = new
        done = (step <= 1e-13 * (1.0 + np.abs(new))) | (g == 0)
        active = active[~done]
    return b


def _estimate(k: np.ndarray, n_trials: int, em_iter: int, n_quadrature: int):
    """``(abilities, beta, posterior, theta_q)`` as the reference's ``_estimate_rasch_mml``."""
    L, M = k.shape
    x_gh, w_gh = np.polynomial.hermite.hermgauss(n_quadrature)
    theta_q = np.sqrt(2.0) * x_gh
    w_q = w_gh / np.sqrt(np.pi)
    totals = k.sum(axis=0)
    informative = ~((totals == 0.0) | (totals == float(L * n_trials)))
    beta_all = np.where(totals == 0.0, np.inf, -np.inf)
    if not informative.any():
        posterior = np.repeat(w_q[None, :], L, axis=0)
        return posterior @ theta_q, beta_all, posterior, theta_q
    ki = k[:, informative]
    p_lm = np.clip((ki + 0.5) / (n_trials + 1.0), 1e-6, 1 - 1e-6)
    share = p_lm.mean(axis=0)
    beta = -np.log((share + 0.01) / (1 - share + 0.01))
    for _ in range(em_iter):
        beta = _m_step(beta, _posterior(ki, n_trials, beta, theta_q, w_q), ki, n_trials, theta_q)
    posterior = _posterior(ki, n_trials, beta, theta_q, w_q)
    abilities = np.sum(posterior * theta_q[None, :], axis=1)
    beta_all[informative] = beta
    return abilities, beta_all, posterior, theta_q


def _check(max_iter, em_iter, n_quadrature) -> tuple[int, int]:
    positive_int("max_iter", max_iter)
    return positive_int("em_iter", em_iter), positive_int("n_quadrature", n_quadrature, minimum=2)


def rasch_mml(R, method: str = "competition", return_scores: bool = False, max_iter: int = 100, em_iter: int = 20,
              n_quadrature: int = 21, return_item_params: bool = False):
    """Rank models by Rasch abilities estimated by marginal maximum likelihood (EM + quadrature), EAP scoring.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes (a matrix is one trial).
    method : {"competition", "competition_max", "dense", "avg"}, default "competition"
        Tie handling of the ranks.
    return_scores : bool, default False
        Also return the EAP abilities.
    max_iter : int, default 100
        The reference's optimiser budget per M-step; validated (positive) and otherwise unused: the
        M-step here is solved to rounding (module docstring).
    em_iter : int, default 20
        EM iterations (positive).
    n_quadrature : int, default 21
        Gauss-Hermite nodes (>= 2).
    return_item_params : bool, default False
        Also return ``{"difficulty": b (M,), "ability_sd": sd(theta | R) (L,)}`` (implies the scores);
        a question every model solves has difficulty ``-inf``, one none solves ``+inf``.

    Returns
    -------
    ndarray of int, shape (L,), or (ranks, scores) or (ranks, scores, params)

    Raises
    ------
    TypeError, ValueError
        Bad ``R`` or arguments, with the reference's messages.

    Notes
    -----
    ``theta_l^EAP = sum_q w_lq theta_q`` with ``w_lq`` proportional to ``p(k_l | theta_q, b) w_q``.
    Models with the same total correct count get the mean of their scores (an exact symmetry of the
    Rasch likelihood). Bock & Aitkin (1981), Psychometrika 46(4); scorio 0.2.3 ``rasch_mml``.
    """
    em, nq = _check(max_iter, em_iter, n_quadrature)
    k, n_trials = counts(R)
    theta, beta, posterior, theta_q = _estimate(k, n_trials, em, nq)
    scores = average_equal_rows(theta, k.sum(axis=1, keepdims=True))
    ranks, scores = rank_with(scores, method, True)
    if return_item_params:
        mean = posterior @ theta_q
        sd = np.sqrt(np.maximum(posterior @ theta_q**2 - mean**2, 0.0))
        return ranks, scores, {"difficulty": beta, "ability_sd": sd}
    return (ranks, scores) if return_scores else ranks


def rasch_mml_credible(R, quantile: float = 0.05, method: str = "competition", return_scores: bool = False,
                       max_iter: int = 100, em_iter: int = 20, n_quadrature: int = 21):
    """Rank models by a posterior quantile of their Rasch ability (the posterior of :func:`rasch_mml`).

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    quantile : float, default 0.05
        Posterior quantile ``q`` in (0, 1); low values rank conservatively.
    method, return_scores, max_iter, em_iter, n_quadrature
        As :func:`rasch_mml`.

    Returns
    -------
    ndarray of int, shape (L,), or (ranks, scores)
        Scores: the smallest grid node whose posterior CDF reaches ``q`` (the discrete quantile),
        averaged over models with the same total correct count.

    Raises
    ------
    ValueError
        ``quantile`` outside (0, 1); bad ``R`` or arguments as :func:`rasch_mml`.
    """
    if not (0.0 < quantile < 1.0):
        raise ValueError("quantile must be in (0, 1)")
    em, nq = _check(max_iter, em_iter, n_quadrature)
    k, n_trials = counts(R)
    _theta, _beta, posterior, theta_q = _estimate(k, n_trials, em, nq)
    order = np.argsort(theta_q)
    cdf = np.cumsum(posterior[:, order], axis=1)
    j = np.minimum((cdf < quantile).sum(axis=1), theta_q.size - 1)
    scores = average_equal_rows(theta_q[order][j], k.sum(axis=1, keepdims=True))
    return rank_with(scores, method, return_scores)
