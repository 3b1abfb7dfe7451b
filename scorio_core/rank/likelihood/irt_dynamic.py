"""Dynamic (longitudinal) item response theory ranking of ``scorio.rank``: :func:`dynamic_irt`.

Axis 2 of ``R`` (L models, M questions, N trials) is read as ordered time ``t_n`` (normalised to
[0, 1]). Three variants:

- ``"linear"``: the static Rasch fit of :func:`scorio_core.rank.likelihood.irt.rasch` on the counts;
- ``"growth"``: ``P(R_lmn = 1) = sigma(theta0_l + theta1_l t_n - b_m)``, joint ML with an L2 penalty
  ``slope_reg * sum theta1^2`` on the slopes (Verhelst & Glas 1993; Wang & Nydick 2020);
- ``"state_space"``: ``P(R_lmn = 1) = sigma(theta_ln - b_m)`` with the random-walk penalty
  ``state_reg * sum_{l, n>0} (theta_ln - theta_l,n-1)^2 / (t_n - t_n-1)`` and the weak anchor
  ``1e-3 * sum theta_l0^2``.

Difficulties are centred (``sum b = 0``) inside the objective. Models are ranked by a summary of
their ability path (``score_target``: initial, final, mean or gain).

Source: the reference package scorio 0.2.3 (``scorio.rank.irt.dynamic_irt`` and its estimators).
Same checks in the same order with the same messages, same starting point, same objective and
gradient in the same parameterisation, same L-BFGS-B options (ftol 1e-12, gtol 1e-8), so the fits
land on the reference's optimum. The log-likelihood is evaluated from sufficient statistics (correct
counts per model and time and per question) and an outer product of exponentials
(:func:`_fast_terms`: a product, two reciprocals, a blend and one ``log1p`` per cell instead of the
reference's ``logaddexp``, ``expit`` and temporaries). One case needs more: when a model answers
every question alike at some time, that ability wants an infinite value held only by the
penalties, the reference's estimate carries an optimiser error up to ~1e-5 that only its own
floating-point path reproduces, and :func:`_exact_terms` repeats the reference's cell operations
(see :func:`_terms`). The separation check is :mod:`scorio_core.rank.likelihood.irt_fit`'s
(sparse; skipped when the mixed cells connect everything).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit

from scorio_core.limits import single_threaded_blas
from scorio_core.rank.likelihood.fitting import average_equal_rows
from scorio_core.rank.likelihood.irt import _finish, _rasch_fit
from scorio_core.rank.likelihood.irt_fit import (nonnegative_float, positive_int, require_finite_items,
                                                 require_finite_rows, require_no_separation, require_success)
from scorio_core.rank.ties import validate_input

__all__ = ["dynamic_irt"]

_ALIASES = {"baseline": "initial", "start": "initial", "end": "final", "average": "mean", "delta": "gain",
            "trend": "gain"}
_OPTIONS = {"ftol": 1e-12, "gtol": 1e-8}


def _score_target(score_target) -> str:
    target = str(score_target).strip().lower()
    target = _ALIASES.get(target, target)
    if target not in {"initial", "final", "mean", "gain"}:
        raise ValueError("score_target must be one of {'initial', 'final', 'mean', 'gain'} "
                         "(aliases: baseline, start, end, average, delta, trend).")
    return target


def _time_points(time_points, n_time: int) -> tuple[np.ndarray, np.ndarray]:
    """``(raw, unit)``: the measurement times as given (default ``linspace(0, 1, N)``) and rescaled to [0, 1]."""
    if time_points is None:
        raw = np.linspace(0.0, 1.0, n_time, dtype=float)
    else:
        raw = np.asarray(time_points, dtype=float)
        if raw.ndim != 1 or raw.shape[0] != n_time:
            raise ValueError("time_points must be a 1D array with length equal to R.shape[2].")
        if not np.all(np.isfinite(raw)):
            raise ValueError("time_points must contain only finite values.")
        if np.any(np.diff(raw) <= 0.0):
            raise ValueError("time_points must be strictly increasing.")
    if n_time < 2:
        return raw, np.zeros(n_time, dtype=float)
    with np.errstate(over="ignore"):  # finite times whose span overflows: the error below, not a RuntimeWarning
        span = float(raw[-1] - raw[0])
    if not np.isfinite(span) or span <= 0.0:
        raise ValueError("time_points must span a positive interval.")
    return raw, (raw - raw[0]) / span


def _path_score(path: np.ndarray, target: str) -> np.ndarray:
    if target == "initial":
        return path[:, 0]
    if target == "final":
        return path[:, -1]
    if target == "mean":
        return path.mean(axis=1)
    return path[:, -1] - path[:, 0]


def _fast_terms(R: np.ndarray):
    """``(eta (L, N), b (M,)) -> (sum softplus(d) - R d, sum_m sigma(d) - R (L, N), sum_ln sigma(d) - R (M,))``.

    ``d_lmn = eta_ln - b_m``. Cells are laid out (M, L*N) so both reductions run along contiguous axes,
    in three buffers allocated once per fit. ``X = exp(-d) = exp(b_m) exp(-eta_ln)`` is an outer product
    (L*N + M exponentials, not one per cell); ``sigma(d) = 1 / (1 + X)``, and each cell's negative
    log-likelihood, ``log1p(X)`` if right and ``log1p(1 / X)`` if wrong, is a positive term (no
    cancellation between large sums, which would make the line search stall near the optimum). Where
    ``|d|`` could come near overflow (over 600) the reference's cell operations are used instead.
    """
    L, M, N = R.shape
    LN = L * N
    C = R.sum(axis=1, dtype=float).reshape(LN)  # correct per (model, time)
    K = R.sum(axis=(0, 2), dtype=float)  # correct per question
    hit = R.transpose(1, 0, 2).reshape(M, LN).astype(float)
    X, p, Z = np.empty((M, LN)), np.empty((M, LN)), np.empty((M, LN))
    exact = None

    def terms(eta: np.ndarray, b: np.ndarray):
        nonlocal exact
        eta = eta.reshape(LN)
        if float(np.max(np.abs(eta))) + float(np.max(np.abs(b))) >= 600.0:
            exact = exact or _exact_terms(R)
            return exact(eta.reshape(L, N), b)
        np.multiply(np.exp(b)[:, None], np.exp(-eta)[None, :], out=X)
        np.add(X, 1.0, out=p)
        np.reciprocal(p, out=p)  # sigma(d)
        np.reciprocal(X, out=Z)  # exp(d)
        np.subtract(X, Z, out=X)
        np.multiply(X, hit, out=X)
        np.add(X, Z, out=X)  # exp(-d) if right, exp(d) if wrong (a blend: masked ufuncs are slower)
        np.log1p(X, out=X)
        return float(X.sum()), (p.sum(axis=0) - C).reshape(L, N), p.sum(axis=1) - K
    return terms


def _exact_terms(R: np.ndarray):
    """As :func:`_fast_terms`, with the reference's cell operations (``np.logaddexp(0, d)``, ``expit(d)``) on the
    same (L, M, N) layout, reduced the same way: values and gradients equal to the reference's to the last bit,
    so L-BFGS-B follows the reference's path (needed where a fit is weakly determined; ~10x slower per cell).
    """
    hit = R.astype(bool)
    d, w = np.empty(R.shape), np.empty(R.shape)

    def terms(eta: np.ndarray, b: np.ndarray):
        np.subtract(eta[:, None, :], b[None, :, None], out=d)
        np.logaddexp(0.0, d, out=w)
        np.subtract(w, d, out=w, where=hit)  # softplus(d) - R d: subtracting R d = +-0 elsewhere is exact
        value = np.sum(w)
        expit(d, out=d)
        np.subtract(d, 1.0, out=d, where=hit)  # residual sigma(d) - R
        return value, d.sum(axis=1), d.sum(axis=(0, 2))
    return terms


def _terms(R: np.ndarray):
    """:func:`_exact_terms` when some model answers every question alike at some time, else :func:`_fast_terms`.

    Such an ability-at-a-time wants an infinite value and is held only by the penalties (slope, random
    walk, the 1e-3 anchor): the fit is weakly determined there, and the reference's L-BFGS-B stops
    (ftol 1e-12) up to ~1e-5 from the optimum, at a point only its own floating-point path reproduces.
    """
    flat = np.any(np.all(R == R[:, :1, :], axis=1))
    return (_exact_terms if flat else _fast_terms)(R)


def _growth_fit(R: np.ndarray, t: np.ndarray, max_iter: int, slope_reg: float):
    """Baselines ``theta0`` (L,), slopes ``theta1`` (L,) and centred difficulties (M,) of the growth model."""
    L, M, N = R.shape
    p0 = np.clip(R[:, :, 0].mean(axis=1), 1e-6, 1 - 1e-6)
    p_m = np.clip(R.mean(axis=(0, 2)), 1e-6, 1 - 1e-6)
    x0 = np.concatenate([np.log(p0 / (1 - p0)), np.zeros(L), -np.log(p_m / (1 - p_m))])
    terms = _terms(R)

    def fun(x):
        th0, th1, b = x[:L], x[L:2 * L], x[2 * L:]
        b = b - b.mean()
        value, res, res_b = terms(th0[:, None] + th1[:, None] * t[None, :], b)
        g_b = -res_b
        return (value + slope_reg * float(th1 @ th1),
                np.concatenate([res.sum(axis=1), res @ t + 2.0 * slope_reg * th1, g_b - g_b.mean()]))

    with single_threaded_blas():  # small BLAS calls: threads only add overhead (same values)
        res = minimize(fun, x0, jac=True, method="L-BFGS-B", options={"maxiter": max_iter, **_OPTIONS})
    require_success(res, "dynamic_irt growth")
    b = res.x[2 * L:]
    return res.x[:L], res.x[L:2 * L], b - b.mean()


def _state_space_fit(R: np.ndarray, t: np.ndarray, max_iter: int, state_reg: float):
    """Ability paths ``theta`` (L, N) and centred difficulties (M,) of the random-walk model."""
    L, M, N = R.shape
    p_ln = np.clip(R.mean(axis=1), 1e-6, 1 - 1e-6)
    p_m = np.clip(R.mean(axis=(0, 2)), 1e-6, 1 - 1e-6)
    x0 = np.concatenate([np.log(p_ln / (1 - p_ln)).ravel(), -np.log(p_m / (1 - p_m))])
    terms = _terms(R)
    dt = np.diff(t)[None, :]

    def fun(x):
        theta, b = x[:L * N].reshape(L, N), x[L * N:]
        b = b - b.mean()
        value, g, res_b = terms(theta, b)
        inc = theta[:, 1:] - theta[:, :-1]
        value += state_reg * np.sum(inc**2 / dt)
        step = 2.0 * state_reg * inc / dt  # gradient of the random-walk penalty along each increment
        g[:, 1:] += step
        g[:, :-1] -= step
        value += 1e-3 * np.sum(theta[:, 0] ** 2)  # weak anchor of the initial abilities
        g[:, 0] += 2e-3 * theta[:, 0]
        g_b = -res_b
        g_b -= g_b.mean()
        return float(value), np.concatenate([g.ravel(), g_b])

    with single_threaded_blas():  # small BLAS calls: threads only add overhead (same values)
        res = minimize(fun, x0, jac=True, method="L-BFGS-B", options={"maxiter": max_iter, **_OPTIONS})
    require_success(res, "dynamic_irt state_space")
    b = res.x[L * N:]
    return res.x[:L * N].reshape(L, N), b - b.mean()


def dynamic_irt(R, variant: str = "linear", method: str = "competition", return_scores: bool = False,
                max_iter: int = 500, return_item_params: bool = False, time_points=None,
                score_target: str = "final", slope_reg: float = 0.01, state_reg: float = 1.0,
                assume_time_axis: bool = False):
    """Rank models with dynamic (longitudinal) IRT: a static Rasch baseline, linear growth or a random walk.

    ``"linear"``: Rasch joint ML on the counts ``k_lm = sum_n R_lmn``. ``"growth"``:
    ``P(R_lmn = 1) = sigma(theta0_l + theta1_l t_n - b_m)``, minimising the negative log-likelihood plus
    ``slope_reg * sum theta1^2``. ``"state_space"``: ``P(R_lmn = 1) = sigma(theta_ln - b_m)``, minimising the
    negative log-likelihood plus ``state_reg * sum (theta_ln - theta_l,n-1)^2 / (t_n - t_n-1)`` and
    ``1e-3 * sum theta_l0^2``. Difficulties are centred; times ``t`` are rescaled to [0, 1]; L-BFGS-B
    (ftol 1e-12, gtol 1e-8) from the logits of the observed accuracies (per model at the first time for
    ``growth``, per model and time for ``state_space``; per question for ``b``).

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes; for the longitudinal variants axis 2 is ordered time (N >= 2).
    variant : {"linear", "growth", "state_space"}, default "linear"
        Case and surrounding blanks are ignored.
    method : {"competition", "competition_max", "dense", "avg"}, default "competition"
    return_scores : bool, default False
    max_iter : int, default 500
        L-BFGS-B iteration budget (positive).
    return_item_params : bool, default False
        Also return the parameters (implies the scores): ``{"difficulty"}`` (linear);
        ``{"difficulty", "baseline", "slope", "ability_path", "time_points"}`` (growth);
        ``{"difficulty", "ability_path", "time_points", "gain"}`` (state_space). ``ability_path`` has
        shape (L, N), ``time_points`` is ``time_points`` as given (or the default grid).
    time_points : array_like, shape (N,), optional
        Strictly increasing finite measurement times (default ``linspace(0, 1, N)``); longitudinal variants only.
    score_target : {"initial", "final", "mean", "gain"}, default "final"
        Summary of the ability path used as the score (aliases baseline, start, end, average, delta, trend);
        must be "final" for ``"linear"``.
    slope_reg : float, default 0.01
        L2 weight on the growth slopes; must be positive for ``"growth"``.
    state_reg : float, default 1.0
        Random-walk weight; must be positive for ``"state_space"``.
    assume_time_axis : bool, default False
        Must be True for the longitudinal variants (acknowledges that axis 2 is time, not i.i.d. trials).

    Returns
    -------
    ndarray, shape (L,); (ranks, scores); or (ranks, scores, params)
        Scores: Rasch ability (linear) or the ``score_target`` summary of the path. Models with equal
        sufficient statistics (total correct; for growth also ``sum_n t_n C_ln``; for state_space the
        correct count at every time) share their mean estimates.

    Raises
    ------
    TypeError
        ``max_iter`` not an integer; ``slope_reg``/``state_reg`` not convertible to float.
    ValueError
        Bad ``R``, ``max_iter``, ``variant``, ``score_target`` (or not "final" for linear), ``time_points``, or
        negative/non-finite regularisation; ``assume_time_axis`` False, N < 2 or a zero weight for a
        longitudinal variant; an all-correct/all-wrong question (longitudinal variants), an all-correct/
        all-wrong model or separated data (linear, growth): no finite estimate.
    RuntimeError
        Optimiser failure (e.g. the iteration budget ran out).
    KeyError
        Unknown ``method``.

    References
    ----------
    Verhelst, N. D., & Glas, C. A. (1993). A dynamic generalization of the Rasch model. Psychometrika.
    Wang, C., & Nydick, S. W. (2020). On longitudinal item response theory models: a didactic. Journal of
    Educational and Behavioral Statistics.

    Examples
    --------
    >>> dynamic_irt([[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0]], variant="linear").tolist()
    [1.0, 2.0, 2.0]
    """
    max_iter = positive_int("max_iter", max_iter)
    name = str(variant).strip().lower()
    R = validate_input(R)
    k, n = R.sum(axis=2, dtype=float), int(R.shape[2])
    if name != "linear":
        require_finite_items(k, n, "Dynamic IRT")
    target = _score_target(score_target)
    slope_reg = nonnegative_float("slope_reg", slope_reg)
    state_reg = nonnegative_float("state_reg", state_reg)
    if name == "linear":
        if target != "final":
            raise ValueError("score_target is only used for longitudinal variants ('growth' and 'state_space').")
        theta, b = _rasch_fit(k, n, None, max_iter)
        scores = average_equal_rows(theta, k.sum(axis=1))
        return _finish(scores, method, return_scores, return_item_params, {"difficulty": b})
    if name not in ("growth", "state_space"):
        raise ValueError(f"Unknown variant: {name}. Use 'linear', 'growth', or 'state_space'.")
    if not assume_time_axis:
        raise ValueError(f"variant='{name}' interprets axis-2 as ordered longitudinal time. "
                         "Set assume_time_axis=True to proceed.")
    if n < 2:
        raise ValueError("Longitudinal dynamic IRT requires at least two time points.")
    if name == "growth":
        if slope_reg == 0.0:
            raise ValueError("slope_reg must be positive for variant='growth' so temporal separation cannot "
                             "produce an infinite slope estimate.")
        require_finite_rows(k, n, "Dynamic growth IRT")
        require_no_separation(k, n, "Dynamic growth IRT")
        raw, t = _time_points(time_points, n)
        th0, th1, b = _growth_fit(R, t, max_iter, slope_reg)
        C = R.sum(axis=1, dtype=float)
        stats = np.column_stack([C.sum(axis=1), C @ t])
        th0, th1 = average_equal_rows(th0, stats), average_equal_rows(th1, stats)
        path = th0[:, None] + th1[:, None] * t[None, :]
        params = {"difficulty": b, "baseline": th0, "slope": th1, "ability_path": path, "time_points": raw}
    else:
        if state_reg == 0.0:
            raise ValueError("state_reg must be positive for variant='state_space' so each latent trajectory "
                             "has a proper random-walk penalty.")
        raw, t = _time_points(time_points, n)
        path, b = _state_space_fit(R, t, max_iter, state_reg)
        _, groups = np.unique(R.sum(axis=1), axis=0, return_inverse=True)  # equal correct counts at every time
        groups = groups.ravel()
        sums = np.zeros((groups.max() + 1, n))
        np.add.at(sums, groups, path)
        path = sums[groups] / np.bincount(groups)[groups, None]
        params = {"difficulty": b, "ability_path": path, "time_points": raw, "gain": path[:, -1] - path[:, 0]}
    return _finish(_path_score(path, target), method, return_scores, return_item_params, params)
