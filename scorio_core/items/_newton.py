"""Newton's method for the 2PL / Rasch posterior mode, with the Hessian solved through a Schur complement.

The Hessian of the negative log posterior has a block structure: abilities are coupled only through
questions, and a question's (a_j, b_j) only through abilities. With ``D`` the (diagonal) ability block,
``B`` the block-diagonal question block (one 2x2 block per question) and ``C`` (L x 2M) the cross terms,
a Newton step eliminates the questions and solves the L x L Schur complement ``S = D - C B^-1 C^T`` by
Cholesky: O(L M) per step plus O(L^2 M + L^3), with no Python loop over models or questions. The same
factorisation gives the full Laplace covariance's diagonal (:func:`laplace_se`). Where the observed
information is not positive definite (far from the mode, the 2PL posterior is not log-concave) the step
uses the expected (Fisher) information instead; a backtracking line search (halving, Armijo condition) keeps
every step downhill.

Cost: every pass over the (L, M) arrays counts at 100 x 10,000. A trial point costs one evaluation of the
objective (``theta - b``, the linear predictor, and ``sum n log(1 + e^eta)`` via ``exp``/``log`` of ``-|eta|``,
no ``log1p``); the probabilities, gradient and Hessian blocks are computed only at the accepted point, from
the cached predictor, and the observed and Fisher information share their common terms.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import lapack
from scipy.special import expit

__all__ = ["newton_mode", "laplace_se", "neg_log_posterior"]

# LAPACK's Cholesky factor and solve, called directly: the routines scipy.linalg.cho_factor / cho_solve call, with
# the same bits, without their ~30 us of argument checks per call (a small fit makes ~15 of each).
_POTRF, _POTRS = lapack.get_lapack_funcs(("potrf", "potrs"), (np.empty(1),))


def _cho_factor(S: np.ndarray):
    """Lower Cholesky factor of the symmetric ``S``; ``numpy.linalg.LinAlgError`` unless positive definite."""
    if not np.isfinite(S).all():
        raise ValueError("array must not contain infs or NaNs")
    c, info = _POTRF(S, lower=1, clean=0)
    if info != 0:
        raise np.linalg.LinAlgError(f"{info}-th leading minor not positive definite")
    return c


def _cho_solve(c: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """Solve ``S x = rhs`` from the factor of :func:`_cho_factor`."""
    x, info = _POTRS(c, rhs, lower=1)
    if info != 0:
        raise ValueError(f"illegal value in {-info}-th argument of internal potrs")
    return x


def _split(x, L, M, rasch):
    return x[:L], x[L:L + M], (np.ones(M) if rasch else x[L + M:])


def _prior_term(x, L, M, priors, rasch):
    theta, b, a = _split(x, L, M, rasch)
    (mt, st), (mb, sb), (ma, sa) = priors["theta"], priors["b"], priors["a"]
    sq = np.add.reduce  # np.sum's reduction (same bits) without its wrapper: called once per trial point
    f = 0.5 * (sq(((theta - mt) / st) ** 2) + sq(((b - mb) / sb) ** 2))
    return f if rasch else f + 0.5 * sq(((a - ma) / sa) ** 2)


def _evaluate(x, s, n, priors, rasch):
    """Objective at ``x`` and the arrays a derivative pass reuses: ``(f, d, eta)`` with ``d = theta - b``."""
    L, M = s.shape
    theta, b, a = _split(x, L, M, rasch)
    d = theta[:, None] - b[None, :]
    eta = d if rasch else d * a[None, :]
    e = np.abs(eta)  # log(1 + e^eta) = max(eta, 0) + log(1 + e^-|eta|); absolute error ~1e-16 per cell
    np.negative(e, out=e)
    np.exp(e, out=e)
    e += 1.0
    np.log(e, out=e)
    # missing cells: n = s = 0 add nothing
    f = float(np.vdot(n, e) + np.vdot(n, np.maximum(eta, 0.0)) - np.vdot(s, eta))
    return f + _prior_term(x, L, M, priors, rasch), d, eta


def _gradient(x, d, eta, s, n, priors, rasch):
    """Gradient, probabilities ``p`` and residuals ``r = s - n p`` from a cached :func:`_evaluate`."""
    L, M = s.shape
    theta, b, a = _split(x, L, M, rasch)
    (mt, st), (mb, sb), (ma, sa) = priors["theta"], priors["b"], priors["a"]
    p = expit(eta)
    r = n * p
    np.subtract(s, r, out=r)  # d loglik / d eta
    r_sum = r.sum(axis=0)
    g = [-(r @ a) + (theta - mt) / st**2, a * r_sum + (b - mb) / sb**2]
    if not rasch:
        g.append(-np.einsum("ij,ij->j", r, d) + (a - ma) / sa**2)
    return np.concatenate(g), p, r, r_sum


def neg_log_posterior(x, s, n, priors, rasch=False, grad=True):
    """Negative log posterior (constants omitted) and, with ``grad``, its gradient at ``x = [theta, b(, a)]``."""
    s, n = np.asarray(s, dtype=float), np.asarray(n, dtype=float)
    f, d, eta = _evaluate(np.asarray(x, dtype=float), s, n, priors, rasch)
    if not grad:
        return f
    return f, _gradient(x, d, eta, s, n, priors, rasch)[0]


def _hessians(x, d, p, r_sum, r, n, priors, rasch):
    """Blocks of the observed, then the expected information: D (L,), B (aa, bb, ab) (M,), C_a, C_b (L, M).

    Yields the observed blocks first and the Fisher blocks second (they share D, B_bb, B_aa and C_b).
    """
    L, M = n.shape
    theta, b, a = _split(x, L, M, rasch)
    w = 1.0 - p
    w *= p
    w *= n
    a2 = a * a
    D = w @ a2 + 1 / priors["theta"][1] ** 2
    Bbb = a2 * w.sum(axis=0) + 1 / priors["b"][1] ** 2
    wd = None if rasch else w * d
    Cb = w
    Cb *= -a2[None, :]  # w is not needed any more: C_b = -w a^2 in place
    if rasch:
        yield D, None, Bbb, None, None, Cb
        return
    Baa = np.einsum("ij,ij->j", wd, d) + 1 / priors["a"][1] ** 2
    Bab = -a * wd.sum(axis=0)
    Ca = wd
    Ca *= a[None, :]
    yield D, Baa, Bbb, Bab + r_sum, Ca - r, Cb
    yield D, Baa, Bbb, Bab, Ca, Cb


def _factor(D, Baa, Bbb, Bab, Ca, Cb, rasch):
    """Inverse question blocks and the Cholesky factor of the Schur complement; None if not positive definite.

    ``S = D - C B^-1 C^T`` is formed as ``D - K K^T`` with ``K = C R`` and ``R R^T = B_j^-1`` per question
    (``R`` lower triangular 2x2: ``r11 = sqrt(B^-1_aa)``, ``r21 = B^-1_ab / r11``, ``r22 = 1 / sqrt(B_bb)``), so
    one symmetric rank-k product (half the flops of a general one) and three passes over (L, M) build it.
    """
    L, M = Cb.shape
    if rasch:
        Iaa = Iab = None
        Ibb = 1 / Bbb
        K = Cb * np.sqrt(Ibb)
    else:
        det = Baa * Bbb - Bab**2
        if (Baa <= 0).any() or (det <= 1e-14 * Baa * Bbb).any():
            return None
        Iaa, Ibb, Iab = Bbb / det, Baa / det, -Bab / det
        r11 = np.sqrt(Iaa)
        K = np.empty((L, 2 * M))
        np.multiply(Ca, r11, out=K[:, :M])
        K[:, :M] += Cb * (Iab / r11)
        np.multiply(Cb, 1 / np.sqrt(Bbb), out=K[:, M:])
    S = K @ K.T
    np.negative(S, out=S)
    S[np.diag_indices(L)] += D
    try:
        cho = _cho_factor(S)
    except np.linalg.LinAlgError:
        return None
    return cho, (Iaa, Ibb, Iab)


def _step(g, L, M, factored, Ca, Cb, rasch):
    """Newton direction -H^-1 g via the Schur complement."""
    cho, (Iaa, Ibb, Iab) = factored
    gt, gb = g[:L], g[L:L + M]
    if rasch:
        dt = _cho_solve(cho, -(gt - Cb @ (Ibb * gb)))
        db = -Ibb * (gb + Cb.T @ dt)
        return np.concatenate([dt, db])
    ga = g[L + M:]
    dt = _cho_solve(cho, -(gt - Ca @ (Iaa * ga + Iab * gb) - Cb @ (Iab * ga + Ibb * gb)))  # C B^-1 g, by question
    ha, hb = ga + Ca.T @ dt, gb + Cb.T @ dt
    return np.concatenate([dt, -(Iab * ha + Ibb * hb), -(Iaa * ha + Iab * hb)])


def _factored(x, d, p, r_sum, r, n, priors, rasch):
    for fisher, blocks in enumerate(_hessians(x, d, p, r_sum, r, n, priors, rasch)):
        D, Baa, Bbb, Bab, Ca, Cb = blocks
        fac = _factor(D, Baa, Bbb, Bab, Ca, Cb, rasch)
        if fac is not None:
            return fac, Ca, Cb, bool(fisher)
    raise np.linalg.LinAlgError("information matrix not positive definite")  # cannot happen: Fisher + prior is PD


def newton_mode(x0, s, n, priors, rasch=False, tol=1e-9, max_iter=100):
    """Posterior mode by damped Newton; returns ``(x, f, iterations, converged)``."""
    L, M = s.shape
    s, n = np.ascontiguousarray(s, dtype=float), np.ascontiguousarray(n, dtype=float)
    x = np.array(x0, dtype=float)
    f, d, eta = _evaluate(x, s, n, priors, rasch)
    for it in range(1, max_iter + 1):
        g, p, r, r_sum = _gradient(x, d, eta, s, n, priors, rasch)
        fac, Ca, Cb, _ = _factored(x, d, p, r_sum, r, n, priors, rasch)
        del p, r
        step = _step(g, L, M, fac, Ca, Cb, rasch)
        del Ca, Cb, fac
        slope = float(g @ step)
        if slope >= 0:  # numerical noise at the optimum
            return x, f, it, bool(np.max(np.abs(g)) < 1e-6 * max(1.0, abs(f)))
        t = 1.0
        while True:
            x_new = x + t * step
            f_new, d_new, eta_new = _evaluate(x_new, s, n, priors, rasch)
            # a decrease below the rounding noise of f (a sum of L M terms) cannot be tested: take the full step
            if f_new <= f + 1e-4 * t * slope or -slope < 1e-10 * max(1.0, abs(f)) or t < 1e-10:
                break
            t *= 0.5  # halving, not interpolation: the 2PL posterior can be multimodal and the path picks the mode
        x, f, d, eta = x_new, f_new, d_new, eta_new
        if -slope < tol * max(1.0, abs(f)) * 1e-3 or np.abs(t * step).max() < tol:
            return x, f, it, True
    return x, f, max_iter, False


def laplace_se(x, s, n, priors, rasch=False, fix_scale=None, ability_cov=False):
    """Standard errors from the full Laplace covariance (inverse Hessian at the mode): ``(theta_se, b_se, a_se)``.

    ``fix_scale`` (2PL; shape (L,)): a vector ``w``; the covariance is then the Laplace covariance conditioned on
    ``w . theta`` (the linearised ``sum(theta^2) / 2`` for ``w = theta``), ``H^-1 - H^-1 W W^T H^-1 / (W^T H^-1 W)``
    with ``W = (w, 0, 0)``: the uncertainty left once the ability scale is fixed (one more solve).
    ``ability_cov``: also return the abilities' (L, L) block of the *unconditioned* inverse Hessian, fourth.
    """
    L, M = s.shape
    s, n = np.asarray(s, dtype=float), np.asarray(n, dtype=float)
    _, d, eta = _evaluate(x, s, n, priors, rasch)
    _, p, r, r_sum = _gradient(x, d, eta, s, n, priors, rasch)
    (cho, (Iaa, Ibb, Iab)), Ca, Cb, _ = _factored(x, d, p, r_sum, r, n, priors, rasch)
    U = _cho_solve(cho, np.eye(L))  # covariance of the abilities: S^-1
    theta_var = np.diag(U).copy()
    extra = (U,) if ability_cov else ()
    if rasch:
        Gb = Cb * Ibb
        return (np.sqrt(theta_var), np.sqrt(Ibb + np.einsum("ij,ij->j", Gb, U @ Gb)), np.zeros(M)) + extra
    Ga, Gb = Ca * Iaa + Cb * Iab, Ca * Iab + Cb * Ibb  # C_j B_j^-1, question by question
    b_var = Ibb + np.einsum("ij,ij->j", Gb, U @ Gb)
    a_var = Iaa + np.einsum("ij,ij->j", Ga, U @ Ga)
    if fix_scale is not None:
        w = np.asarray(fix_scale, dtype=float)
        t = U @ w  # H^-1 W: abilities t, question parameters -G^T t
        q = float(w @ t)
        if q > 0:
            theta_var = np.maximum(theta_var - t**2 / q, 0.0)
            b_var = np.maximum(b_var - (Gb.T @ t) ** 2 / q, 0.0)
            a_var = np.maximum(a_var - (Ga.T @ t) ** 2 / q, 0.0)
    return (np.sqrt(theta_var), np.sqrt(b_var), np.sqrt(a_var)) + extra
