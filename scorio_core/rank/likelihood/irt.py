"""Item response theory rankings of ``scorio.rank``: Rasch (1PL), 2PL and 3PL, by joint ML or MAP.

Counts ``k_lm = sum_n R_lmn`` out of ``N`` trials are Binomial with success probability
``c_m + (1 - c_m) sigma(a_m (theta_l - b_m))`` (Rasch: ``a = 1, c = 0``; 2PL: ``c = 0``), difficulties
centred (``sum b = 0``); models are ranked by ability ``theta``. Joint fits need finite estimates
(no all-correct/all-wrong row or column, no separation; checked up front) and an L2 penalty on
``log a`` (and on the guessing logits) for the scale; the MAP fits add a prior on ``theta``.

Source: the reference package scorio 0.2.3 (``scorio.rank.irt``). Its objectives have analytic
gradients and run scipy's L-BFGS-B with tight tolerances; this module minimises the same objectives
(same terms, same starting point, same optimiser settings), so abilities agree to the optimiser's
precision, and replaces the reference's cell-by-cell checks (dense separation programme,
automorphism search) by vectorised ones (:mod:`scorio_core.rank.likelihood.irt_fit`). The 2PL/3PL
public functions (:mod:`scorio_core.rank.likelihood.irt_xpl`) fit with single-threaded BLAS
(:mod:`scorio_core.rank.likelihood.blas`): L-BFGS-B's vector operations gain nothing from threads.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit, xlog1py, xlogy

from scorio_core.limits import single_threaded_blas
from scorio_core.rank.likelihood.fitting import average_equal_rows
from scorio_core.rank.likelihood.irt_fit import (LOG_A_BOUND, ability_prior, check_stable, counts, exchangeable, fit_nonconvex,
                                      positive_int, prior_gradient, require_finite_items, require_finite_rows,
                                      require_no_separation, require_success, start)
from scorio_core.rank.likelihood.priors import UniformPrior
from scorio_core.rank.ties import rank_with

__all__ = ["rasch", "rasch_map"]


def _objective(k, n, prior=None, two_pl=False, three_pl=False, reg_a=0.0, reg_c=0.0, fix_c=None, upper=0.5):
    """params -> (objective, gradient) of the 1PL/2PL/3PL joint negative log-posterior (reference term order).

    The 2PL/3PL cell terms are computed in five preallocated (L, M) buffers, in place, with the
    reference's operations in the reference's order (scipy's ``expit``, ``xlogy``, ``xlog1py``: their
    values differ in the last bit from numpy's ``exp``/``log``), so values and gradients are the
    reference's bit for bit and the L-BFGS-B path is the reference's; ``N - k`` is computed once.
    """
    L, M = k.shape
    free_c = three_pl and fix_c is None
    if two_pl or three_pl:
        z_, base_, p_, t1, t2 = (np.empty((L, M)) for _ in range(5))
        n_wrong = n - k
        fixed = None if free_c or not three_pl else np.full(M, float(fix_c))
        tiny = np.finfo(float).tiny

    def fun(x):
        theta, b = x[:L], x[L:L + M]
        b = b - b.mean()
        if not (two_pl or three_pl):
            d = theta[:, None] - b[None, :]
            p = expit(d)
            value = np.sum(n * np.logaddexp(0.0, d) - k * d)
            res = n * p - k
            g_theta = res.sum(axis=1)
            if prior is not None:
                g_theta = g_theta + prior_gradient(prior, theta)
                value = value + prior.penalty(theta)
            g_b = -res.sum(axis=0)
            return float(value), np.concatenate([g_theta, g_b - g_b.mean()])
        log_a = x[L + M:L + 2 * M]
        a = np.exp(log_a)
        z = np.subtract(theta[:, None], b[None, :], out=z_)
        z *= a  # a (theta - b)
        base = expit(z, out=base_)
        if three_pl:
            if free_c:
                logit_c = x[L + 2 * M:]
                unit_c = expit(logit_c)
                c = upper * unit_c
            else:
                c = fixed
            one_c = 1 - c
            p = np.multiply(one_c, base, out=p_)
            p += c  # c + (1 - c) sigma(z)
            cells = xlogy(k, p, out=t1)
            cells += xlog1py(n_wrong, np.negative(p, out=t2), out=t2)
            value = -np.sum(cells)
            if prior is not None:
                value += prior.penalty(theta)
            value += reg_a * np.sum(log_a**2)
            if free_c:
                value += reg_c * np.sum(logit_c**2)
            res = np.multiply(p, n, out=t1)
            res -= k  # N p - k
            safe = np.maximum(p, tiny, out=p_)
            g_z = np.multiply(res, base, out=t2)
            g_z /= safe
        else:
            cells = np.logaddexp(0.0, z, out=t1)
            cells *= n
            cells -= np.multiply(k, z, out=t2)
            value = np.sum(cells)
            value += reg_a * np.sum(log_a**2)
            if prior is not None:
                value += prior.penalty(theta)
            g_z = np.multiply(base, n, out=t2)
            g_z -= k  # N sigma(z) - k
        g_theta = np.multiply(g_z, a, out=base_).sum(axis=1)
        if prior is not None:
            g_theta += prior_gradient(prior, theta)
        g_b = -a * g_z.sum(axis=0)
        parts = [g_theta, g_b - g_b.mean(), np.multiply(g_z, z, out=base_).sum(axis=0) + 2.0 * reg_a * log_a]
        if free_c:
            safe *= one_c
            g_c = np.divide(res, safe, out=t1).sum(axis=0) * (upper * unit_c * (1.0 - unit_c))
            parts.append(g_c + 2.0 * reg_c * logit_c)
        return float(value), np.concatenate(parts)
    return fun


def _rasch_fit(k, n, prior, max_iter):
    """Rasch abilities and centred difficulties (joint ML when ``prior`` is None or uniform, else MAP)."""
    if prior is not None and type(prior) is UniformPrior:
        prior = None
    if prior is None:
        require_finite_rows(k, n, "Rasch")
        require_finite_items(k, n, "Rasch")
        require_no_separation(k, n, "Rasch")
    else:
        require_finite_items(k, n, "Rasch MAP")
    theta0, b0 = start(k, n)
    with single_threaded_blas():  # L-BFGS-B's small BLAS calls: threads only add overhead (same values)
        res = minimize(_objective(k, n, prior), np.concatenate([theta0, b0]), jac=True, method="L-BFGS-B",
                       options={"maxiter": max_iter, "ftol": 1e-12, "gtol": 1e-8})
    require_success(res, "rasch" if prior is None else "rasch_map")
    L = k.shape[0]
    return res.x[:L], res.x[L:] - res.x[L:].mean()


def _xpl_fit(k, n, prior, max_iter, reg_a, three_pl=False, fix_c=None, reg_c=0.0, upper=0.5, name="", orbits=None):
    """2PL/3PL abilities and item parameters (joint ML when ``prior`` is None or uniform, else MAP; ``orbits``:
    the caller's :class:`~scorio_core.rank.likelihood.irt_fit.Orbits` of ``k``, shared with the audit)."""
    if prior is not None and type(prior) is UniformPrior:
        prior = None
    label, kind = ("3PL", "rasch_3pl") if three_pl else ("2PL", "rasch_2pl")
    if prior is None:
        if reg_a <= 0.0:
            raise ValueError(f"reg_discrimination must be positive for an identified {label} joint fit.")
        if three_pl and fix_c is None and reg_c <= 0.0:
            raise ValueError("reg_guessing must be positive when 3PL guessing is estimated.")
        require_finite_rows(k, n, label)
        require_finite_items(k, n, label)
        require_no_separation(k, n, label)
    else:
        require_finite_items(k, n, f"{label} MAP")
        kind += "_map"
    L, M = k.shape
    theta0, b0 = start(k, n)
    free_c = three_pl and fix_c is None
    x0 = np.concatenate([theta0, b0, np.zeros(M)] + ([np.zeros(M)] if free_c else []))
    bounds = [(None, None)] * (L + M) + [(-LOG_A_BOUND, LOG_A_BOUND)] * M + [(None, None)] * (M if free_c else 0)
    fun = _objective(k, n, prior, two_pl=not three_pl, three_pl=three_pl, reg_a=reg_a, reg_c=reg_c, fix_c=fix_c,
                     upper=upper)
    res = fit_nonconvex(fun, x0, bounds, max_iter, k, kind, exch=prior is None or exchangeable(prior),
                        orbits=orbits)
    theta, b, log_a = res.x[:L], res.x[L:L + M] - res.x[L:L + M].mean(), res.x[L + M:L + 2 * M]
    check_stable(theta, b, log_a, kind)
    params = {"difficulty": b, "discrimination": np.exp(log_a)}
    if three_pl:
        if free_c:
            logit_c = res.x[L + 2 * M:]
            if np.max(np.abs(logit_c)) > 30.0:
                raise ValueError(f"{kind} guessing parameters saturated at a boundary; use stronger guessing "
                                 "regularization or fix_guessing.")
            params["guessing"] = upper * expit(logit_c)
        else:
            params["guessing"] = np.full(M, float(fix_c))
    return theta, params


def _finish(scores, method, return_scores, return_item_params, params):
    out = rank_with(scores, method, True)
    if return_item_params:
        return out[0], out[1], params
    return out if return_scores else out[0]


def rasch(R, method: str = "competition", return_scores: bool = False, max_iter: int = 500,
          return_item_params: bool = False):
    """Rank models by Rasch (1PL) abilities, joint maximum likelihood.

    ``k_lm ~ Binomial(N, sigma(theta_l - b_m))`` with ``sum_m b_m = 0``; L-BFGS-B from the logits of
    the smoothed accuracies (ftol 1e-12, gtol 1e-8).

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    method : {"competition", "competition_max", "dense", "avg"}, default "competition"
    return_scores : bool, default False
    max_iter : int, default 500
        L-BFGS-B iteration budget (positive).
    return_item_params : bool, default False
        Also return ``{"difficulty": b}`` (implies the scores).

    Returns
    -------
    ndarray, shape (L,); (ranks, theta); or (ranks, theta, params)
        Models with the same total score share their mean ability.

    Raises
    ------
    TypeError, ValueError, RuntimeError
        Bad ``R`` or ``max_iter``; an all-correct/all-wrong model or question, or separated data (no finite
        estimate); optimiser failure.

    Examples
    --------
    >>> rasch([[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0]]).tolist()
    [1.0, 2.0, 2.0]
    """
    max_iter = positive_int("max_iter", max_iter)
    k, n = counts(R)
    theta, b = _rasch_fit(k, n, None, max_iter)
    return _finish(average_equal_rows(theta, k.sum(axis=1)), method, return_scores, return_item_params,
                   {"difficulty": b})


def rasch_map(R, prior=1.0, method: str = "competition", return_scores: bool = False, max_iter: int = 500,
              return_item_params: bool = False):
    """Rank models by Rasch (1PL) MAP abilities: :func:`rasch`'s likelihood plus ``prior.penalty(theta)``.

    Parameters
    ----------
    R, method, return_scores, max_iter, return_item_params
        As :func:`rasch`.
    prior : Prior or float, default 1.0
        A Python float (or int) is the variance of ``GaussianPrior(0, var)``; ``UniformPrior()`` gives :func:`rasch`.

    Returns
    -------
    ndarray, shape (L,); (ranks, theta); or (ranks, theta, {"difficulty": b})
        With an exchangeable prior, models with the same total score share their mean ability.

    Raises
    ------
    TypeError, ValueError, RuntimeError
        Bad ``prior``, ``R`` or ``max_iter``; an all-correct/all-wrong question; optimiser failure.

    Examples
    --------
    >>> rasch_map([[[1, 1], [1, 1]], [[0, 0], [0, 0]]]).tolist()
    [1.0, 2.0]
    """
    max_iter = positive_int("max_iter", max_iter)
    k, n = counts(R)
    prior = ability_prior(prior)
    theta, b = _rasch_fit(k, n, prior, max_iter)
    scores = average_equal_rows(theta, k.sum(axis=1)) if exchangeable(prior) else theta
    return _finish(scores, method, return_scores, return_item_params, {"difficulty": b})
