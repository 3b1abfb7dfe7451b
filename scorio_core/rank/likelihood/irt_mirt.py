"""Multidimensional item response theory ranking of ``scorio.rank``: :func:`mirt` (compensatory MIRT, MML-EM).

Counts ``k_lm`` out of ``N`` trials are Binomial with success probability
``c_m + (1 - c_m) sigma(a_m . theta_l + d_m)`` (``c = 0`` for the 2PL), abilities ``theta_l`` in
``R^D`` with a standard normal population distribution integrated on a product Gauss-Hermite grid
(Bock & Aitkin 1981). Each EM iteration computes the posterior of every model over the grid
(E-step) and maximises the expected complete-data log-likelihood in the item parameters
(slopes, intercepts, guessing logits; L2 penalties on slopes and guessing logits) by L-BFGS-B
(M-step). Models are ranked by the reference composite ``s_l = mean_m(a_m) . EAP(theta_l)``, which
does not depend on the rotation of the latent axes (Reckase 2009; Chalmers 2012).

Source: the reference package scorio 0.2.3 (``scorio.rank.irt.mirt``, ``_estimate_mirt``). Same
checks and messages, same start (logits of smoothed accuracies, SVD slopes), same E-step, same M-step
objective and gradient with the same floating-point operations, same L-BFGS-B call and stopping rule,
so the EM path is the reference's bit for bit. That matters: EM stops at a parameter change below
``tol`` and nearly separated data make the path sensitive to the last bit (an algebraically
simplified M-step, with one ``exp`` and one ``log`` per cell, drifted by up to 5e-6 in the scores). The
M-step therefore gains only from working in place in preallocated buffers, in cache-sized blocks of
nodes, and from computing ``f - r`` once per E-step; the fit runs with single-threaded BLAS (its
products are far too small for threads, whose overhead dominated on few shared cores; same values,
:func:`scorio_core.limits.single_threaded_blas`); the exact model orbits are found once for scores,
abilities and SDs.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from scorio_core.limits import single_threaded_blas
from scorio_core.rank.likelihood.irt import _finish
from scorio_core.rank.likelihood.irt_fit import (counts, nonnegative_float, orbit_labels, positive_int,
                                                 require_finite_items, require_success)

__all__ = ["mirt"]

_P_MIN = 1e-10
_BLOCK = 32768  # cells per block of the M-step's cell arithmetic (256 KiB buffers: the working set stays in L2)


def _sigmoid(x):
    """The reference's sigmoid: ``1 / (1 + exp(-clip(x, -30, 30)))``."""
    return 1.0 / (1.0 + np.exp(-np.clip(x, -30, 30)))


def _quadrature(D: int, n_q: int) -> tuple[np.ndarray, np.ndarray]:
    """Product Gauss-Hermite grid for the standard normal: nodes (n_q**D, D), log weights (n_q**D,)."""
    x, w = np.polynomial.hermite.hermgauss(n_q)
    nodes, logw = np.sqrt(2.0) * x, np.log(w) - 0.5 * np.log(np.pi)
    grid = np.stack([g.ravel() for g in np.meshgrid(*([nodes] * D), indexing="ij")], axis=1)
    log_w = np.zeros(grid.shape[0])
    for g in np.meshgrid(*([logw] * D), indexing="ij"):  # D terms, summed in the reference's order
        log_w += g.ravel()
    return grid, log_w


def _mstep_objective(grid, M, D, c_fixed, free_c, upper, reg_a, reg_c, block=_BLOCK):
    """``(params, f, r, f - r) -> (value, gradient)``: penalised expected negative log-likelihood of an M-step.

    ``f`` (G,): the E-step's expected attempts per node; ``r`` (G, M): expected correct answers per node
    and question; ``f - r``: expected wrong answers. Every cell value is computed with the
    reference's floating-point operations in the reference's order (sigmoid of the clipped linear
    predictor, probability clipped to [1e-10, 1 - 1e-10], ``log p`` and ``log1p(-p)``, the gradient
    ``(f p - r) / (p (1 - p)) * dp/dlin``), and the sums and the slope product run over full (G, M)
    arrays as the reference's do, so the L-BFGS-B path is the reference's bit for bit (the EM path is
    sensitive to rounding when the data nearly separate). The speed comes from working in place in
    preallocated buffers, with ``f - r`` computed once per E-step, and from doing the cell arithmetic
    in blocks of about ``block`` cells (rows of nodes), whose working set stays in the CPU's cache
    (passes over whole (G, M) arrays stream from memory); ``-lin`` comes exactly from ``-a``
    (rounding is symmetric), which saves a negation.
    """
    G = grid.shape[0]
    rows = max(1, min(G, block // max(M, 1)))
    lin, cell, g_lin = (np.empty((G, M)) for _ in range(3))  # -lin then sigma(lin); value cells; d nll / d lin
    g_c = np.empty((G, M)) if free_c else None
    pp_, u_ = np.empty((rows, M)), np.empty((rows, M))
    starts = range(0, G, rows)

    def fun(params, f, r, fr):
        a = params[:M * D].reshape(M, D)
        d = params[M * D:M * D + M]
        gamma = params[M * D + M:] if free_c else None
        if free_c:
            c = upper * _sigmoid(gamma)
        else:
            c = c_fixed
        one_c = None if c is None else (1.0 - c)[None, :]
        np.matmul(grid, np.negative(a.T), out=lin)  # -(grid @ a.T) exactly
        for lo in starts:  # blocks of node rows: the same operations on each cell
            hi = min(G, lo + rows)
            x, t, g = lin[lo:hi], cell[lo:hi], g_lin[lo:hi]
            pp, u = pp_[:hi - lo], u_[:hi - lo]
            x -= d[None, :]  # -lin
            np.clip(x, -30, 30, out=x)
            np.exp(x, out=x)
            x += 1.0
            s = np.divide(1.0, x, out=x)  # sigma(lin)
            if c is None:
                np.clip(s, _P_MIN, 1 - _P_MIN, out=pp)
            else:
                np.multiply(one_c, s, out=pp)
                pp += c[None, :]
                np.clip(pp, _P_MIN, 1 - _P_MIN, out=pp)
            np.log(pp, out=t)
            t *= r[lo:hi]  # r log p
            np.negative(pp, out=u)
            np.log1p(u, out=u)
            u *= fr[lo:hi]  # (f - r) log1p(-p)
            t += u
            np.multiply(f[lo:hi, None], pp, out=g)
            g -= r[lo:hi]  # f p - r
            np.subtract(1.0, pp, out=u)
            u *= pp  # p (1 - p)
            g /= u  # dnll/dp
            np.subtract(1.0, s, out=u)  # 1 - s
            if free_c:
                np.multiply(g, u, out=g_c[lo:hi])
            if c is None:
                u *= s  # s (1 - s)
            else:
                np.multiply(one_c, s, out=pp)
                u *= pp  # (1 - c) s (1 - s), in the reference's order
            g *= u  # d nll / d lin
        value = -np.sum(cell)
        g_d = g_lin.sum(axis=0)
        g_a = g_lin.T @ grid
        value += reg_a * np.sum(a**2)
        g_a += 2.0 * reg_a * a
        grad = [g_a.ravel(), g_d]
        if free_c:
            sig_g = _sigmoid(gamma)
            g_gamma = g_c.sum(axis=0) * (upper * sig_g * (1.0 - sig_g))
            value += reg_c * np.sum(gamma**2)
            g_gamma += 2.0 * reg_c * gamma
            grad.append(g_gamma)
        return float(value), np.concatenate(grad)
    return fun


def _fit(k, n, D, three_pl, max_iter, em_iter, n_q, fix_c, reg_a, reg_c, upper, tol):
    """EM fit: EAP abilities (L, D), slopes (M, D), intercepts, guessing, MDISC, MDIFF, posterior SD, scores."""
    L, M = k.shape
    free_c = three_pl and fix_c is None
    c_fixed = np.full(M, float(fix_c)) if (three_pl and fix_c is not None) else None
    grid, log_w = _quadrature(D, n_q)
    k_wrong = n - k
    p0 = np.clip((k + 0.5) / (n + 1.0), 1e-6, 1 - 1e-6)
    z = np.log(p0 / (1 - p0))
    d = z.mean(axis=0)
    _, sv, vt = np.linalg.svd(z - d[None, :], full_matrices=False)
    a = np.zeros((M, D))
    q = min(D, vt.shape[0])
    a[:, :q] = vt[:q].T * np.sqrt(np.maximum(sv[:q], 0.0))[None, :]
    a = np.clip(a, -3.0, 3.0)
    gamma = np.zeros(M)

    def current_c(g):
        return upper * _sigmoid(g) if free_c else c_fixed

    def posterior(a_, d_, c_):
        s = _sigmoid(grid @ a_.T + d_[None, :])
        p = np.clip(s if c_ is None else c_[None, :] + (1.0 - c_[None, :]) * s, _P_MIN, 1 - _P_MIN)
        log_post = k @ np.log(p).T + k_wrong @ np.log1p(-p).T + log_w[None, :]
        log_post -= log_post.max(axis=1, keepdims=True)
        post = np.exp(log_post)
        post /= post.sum(axis=1, keepdims=True)
        return post

    fun = _mstep_objective(grid, M, D, c_fixed, free_c, upper, reg_a, reg_c)
    for _ in range(em_iter):
        post = posterior(a, d, current_c(gamma))
        f = n * post.sum(axis=0)
        r = post.T @ k
        x0 = np.concatenate([a.ravel(), d] + ([gamma] if free_c else []))
        res = minimize(fun, x0, args=(f, r, f[:, None] - r), jac=True, method="L-BFGS-B",
                       options={"maxiter": max_iter})
        require_success(res, "mirt item M-step")
        a_new, d_new = res.x[:M * D].reshape(M, D), res.x[M * D:M * D + M]
        gamma_new = res.x[M * D + M:] if free_c else gamma
        delta = max(float(np.max(np.abs(a_new - a))), float(np.max(np.abs(d_new - d))),
                    float(np.max(np.abs(gamma_new - gamma))) if free_c else 0.0)
        a, d, gamma = a_new, d_new, gamma_new
        if delta < tol:
            break
    c = current_c(gamma)
    post = posterior(a, d, c)
    theta = post @ grid
    theta_sd = np.sqrt(np.maximum(post @ (grid**2) - theta**2, 0.0))
    # orient each axis to a non-negative mean slope; column sums as the reference takes them (D factors), since
    # the sign of a sum that is 0 up to rounding decides the orientation
    flip = np.where(np.array([a[:, j].sum() for j in range(D)]) < 0.0, -1.0, 1.0)
    a, theta = a * flip, theta * flip
    mdisc = np.sqrt(np.sum(a**2, axis=1))
    return (theta, a, d, c if c is not None else np.zeros(M), mdisc, -d / np.maximum(mdisc, 1e-12), theta_sd,
            theta @ a.mean(axis=0))


def mirt(R, n_factors: int = 2, model: str = "2pl", method: str = "competition", return_scores: bool = False,
         max_iter: int = 50, em_iter: int = 100, n_quadrature: int = 15, fix_guessing: float | None = None,
         reg_discrimination: float = 0.01, reg_guessing: float = 0.1, guessing_upper: float = 0.5,
         tol: float = 1e-4, return_item_params: bool = False):
    """Rank models by compensatory multidimensional IRT (MIRT) abilities, marginal ML by EM, EAP scores.

    ``k_lm ~ Binomial(N, c_m + (1 - c_m) sigma(a_m . theta_l + d_m))`` with ``theta_l ~ N(0, I_D)``
    integrated on a product Gauss-Hermite grid of ``n_quadrature ** n_factors`` nodes; ``c = 0`` for
    the 2PL, ``c_m = guessing_upper * sigma(gamma_m)`` (or ``fix_guessing``) for the 3PL. Bock-Aitkin
    EM: posterior over the grid per model (E-step), then L-BFGS-B (scipy defaults, ``max_iter``
    iterations) on the expected negative log-likelihood plus ``reg_discrimination * sum a^2`` (and
    ``reg_guessing * sum gamma^2``), until the largest parameter change is below ``tol`` or after
    ``em_iter`` iterations. Start: intercepts from the mean logit of the smoothed accuracies, slopes
    from the SVD of the centred logits (clipped to [-3, 3]). Each latent axis is oriented so its mean
    slope is non-negative; the score is the reference composite ``mean_m(a_m) . EAP(theta_l)``.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    n_factors : int, default 2
        Latent dimensions ``D`` (1 <= D <= M).
    model : {"2pl", "3pl"}, default "2pl"
        Case and surrounding blanks are ignored.
    method : {"competition", "competition_max", "dense", "avg"}, default "competition"
    return_scores : bool, default False
    max_iter : int, default 50
        L-BFGS-B iterations per M-step (positive); running out raises RuntimeError.
    em_iter : int, default 100
        EM iterations (positive).
    n_quadrature : int, default 15
        Gauss-Hermite nodes per dimension (>= 2); ``n_quadrature ** n_factors`` must not exceed 200000.
    fix_guessing : float, optional
        3PL only: a common guessing value in ``[0, guessing_upper]`` instead of estimated guessing.
    reg_discrimination : float, default 0.01
        L2 weight on the slopes (>= 0).
    reg_guessing : float, default 0.1
        L2 weight on the guessing logits (>= 0; estimated 3PL guessing only).
    guessing_upper : float, default 0.5
        Upper bound of the guessing, in (0, 1).
    tol : float, default 1e-4
        EM stops when no parameter moves more than this (>= 0; 0 runs all ``em_iter`` iterations).
    return_item_params : bool, default False
        Also return (implies the scores) ``{"difficulty": MDIFF (M,), "discrimination": MDISC (M,),
        "slopes": a (M, D), "intercept": d (M,), "abilities": EAP theta (L, D), "ability_sd": posterior SD
        (L, D)}`` and ``"guessing": c (M,)`` for the 3PL, where ``MDISC_m = ||a_m||`` and
        ``MDIFF_m = -d_m / MDISC_m``.

    Returns
    -------
    ndarray, shape (L,); (ranks, scores); or (ranks, scores, params)
        Scores, abilities and their SDs are averaged over exact model orbits (models exchanged by some
        simultaneous relabelling of models and questions).

    Raises
    ------
    TypeError
        ``n_factors``, ``max_iter``, ``em_iter`` or ``n_quadrature`` not an integer.
    ValueError
        Bad ``R`` or argument (messages as the reference); ``fix_guessing`` with the 2PL; a grid of more than
        200000 nodes; an all-correct or all-wrong question; ``n_factors > M``.
    RuntimeError
        An M-step's L-BFGS-B failed or ran out of iterations.
    KeyError
        Unknown ``method``.

    References
    ----------
    Bock, R. D., & Aitkin, M. (1981). Marginal maximum likelihood estimation of item parameters: application of
    an EM algorithm. Psychometrika, 46(4), 443-459.
    Reckase, M. D. (2009). Multidimensional Item Response Theory. Springer.
    Chalmers, R. P. (2012). mirt: a multidimensional item response theory package for the R environment.
    Journal of Statistical Software, 48(6), 1-29.

    Examples
    --------
    >>> mirt([[[1, 1], [1, 1]], [[0, 0], [0, 0]]], n_factors=1, n_quadrature=7).tolist()
    [1.0, 2.0]
    """
    n_factors = positive_int("n_factors", n_factors)
    max_iter = positive_int("max_iter", max_iter)
    em_iter = positive_int("em_iter", em_iter)
    n_quadrature = positive_int("n_quadrature", n_quadrature, 2)
    reg_a = nonnegative_float("reg_discrimination", reg_discrimination)
    reg_c = nonnegative_float("reg_guessing", reg_guessing)
    tol = nonnegative_float("tol", tol)
    upper = float(guessing_upper)
    if not np.isfinite(upper) or not 0.0 < upper < 1.0:
        raise ValueError("guessing_upper must be in (0, 1) and finite.")
    kind = str(model).strip().lower()
    if kind not in {"2pl", "3pl"}:
        raise ValueError("model must be '2pl' or '3pl'.")
    if kind == "2pl" and fix_guessing is not None:
        raise ValueError("fix_guessing is only valid for model='3pl'.")
    if fix_guessing is not None:
        fix_guessing = float(fix_guessing)
        if not np.isfinite(fix_guessing) or not 0.0 <= fix_guessing <= upper:
            raise ValueError(f"fix_guessing must be in [0, guessing_upper={upper}] and finite.")
    grid_size = int(n_quadrature) ** int(n_factors)
    if grid_size > 200_000:
        raise ValueError(f"Product quadrature grid would have {grid_size} nodes (n_quadrature={n_quadrature} ** "
                         f"n_factors={n_factors}). Reduce n_factors or n_quadrature; compensatory MML-EM is intended "
                         "for a small number of factors.")
    k, n = counts(R)
    require_finite_items(k, n, "MIRT")
    M = k.shape[1]
    if n_factors > M:
        raise ValueError(f"n_factors={n_factors} cannot exceed number of questions M={M}.")
    with single_threaded_blas():  # small products and L-BFGS-B: BLAS threads only add overhead (same values)
        theta, a, d, c, mdisc, mdiff, theta_sd, scores = _fit(k, n, n_factors, kind == "3pl", max_iter, em_iter,
                                                              n_quadrature, fix_guessing, reg_a, reg_c, upper, tol)
    labels = orbit_labels(k)
    if np.any(labels != np.arange(len(labels))):  # average the exact model orbits (score, abilities, SDs)
        _, groups = np.unique(labels, return_inverse=True)
        joined = np.column_stack([scores, theta, theta_sd])
        sums = np.zeros((groups.max() + 1, joined.shape[1]))
        np.add.at(sums, groups, joined)
        joined = sums[groups] / np.bincount(groups)[groups, None]
        scores, theta, theta_sd = joined[:, 0], joined[:, 1:1 + n_factors], joined[:, 1 + n_factors:]
    params = {"difficulty": mdiff, "discrimination": mdisc, "slopes": a, "intercept": d, "abilities": theta,
              "ability_sd": theta_sd}
    if kind == "3pl":
        params["guessing"] = c
    return _finish(scores, method, return_scores, return_item_params, params)
