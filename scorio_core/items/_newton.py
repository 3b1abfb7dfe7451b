"""Newton's method for the 2PL / Rasch posterior mode, with the Hessian solved through a Schur complement.

The Hessian of the negative log posterior has a block structure: abilities are coupled only through
questions, and a question's (a_j, b_j) only through abilities. With ``D`` the (diagonal) ability block,
``B`` the block-diagonal question block (one 2x2 block per question) and ``C`` (L x 2M) the cross terms,
a Newton step eliminates the questions and solves the L x L Schur complement ``S = D - C B^-1 C^T`` by
Cholesky: O(L M) per step plus O(L^2 M + L^3), with no Python loop over models or questions. The same
factorisation gives the full Laplace covariance's diagonal (:func:`laplace_se`). Where the observed
information is not positive definite (far from the mode, the 2PL posterior is not log-concave) the step
uses the expected (Fisher) information instead; a backtracking line search keeps every step downhill.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import cho_factor, cho_solve
from scipy.special import expit

__all__ = ["newton_mode", "laplace_se", "neg_log_posterior"]


def _split(x, L, M, rasch):
    return x[:L], x[L:L + M], (np.ones(M) if rasch else x[L + M:])


def neg_log_posterior(x, s, n, priors, rasch=False, grad=True):
    """Negative log posterior (constants omitted) and, with ``grad``, its gradient at ``x = [theta, b(, a)]``."""
    L, M = s.shape
    theta, b, a = _split(x, L, M, rasch)
    d = theta[:, None] - b[None, :]
    eta = d * a[None, :]
    (mt, st), (mb, sb), (ma, sa) = priors["theta"], priors["b"], priors["a"]
    f = float(np.sum(n * np.logaddexp(0.0, eta)) - np.sum(s * eta))  # missing cells: n = s = 0 add nothing
    f += 0.5 * (np.sum(((theta - mt) / st) ** 2) + np.sum(((b - mb) / sb) ** 2))
    if not rasch:
        f += 0.5 * np.sum(((a - ma) / sa) ** 2)
    if not grad:
        return f
    r = s - n * expit(eta)  # d loglik / d eta
    g = [-(r @ a) + (theta - mt) / st**2, a * r.sum(axis=0) + (b - mb) / sb**2]
    if not rasch:
        g.append(-np.einsum("ij,ij->j", r, d) + (a - ma) / sa**2)
    return f, np.concatenate(g)


def _hessian(x, s, n, priors, rasch, fisher):
    """Blocks of the (observed or expected) information: D (L,), B entries (aa, bb, ab) (M,), C_a, C_b (L, M)."""
    L, M = s.shape
    theta, b, a = _split(x, L, M, rasch)
    d = theta[:, None] - b[None, :]
    p = expit(d * a[None, :])
    w = n * p * (1 - p)
    D = w @ (a * a) + 1 / priors["theta"][1] ** 2
    Bbb = a * a * w.sum(axis=0) + 1 / priors["b"][1] ** 2
    Cb = -w * (a * a)[None, :]
    if rasch:
        return D, None, Bbb, None, None, Cb
    wd = w * d
    Baa = np.einsum("ij,ij->j", wd, d) + 1 / priors["a"][1] ** 2
    Bab = -a * wd.sum(axis=0)
    Ca = wd * a[None, :]
    if not fisher:
        r = s - n * p
        Bab = Bab + r.sum(axis=0)
        Ca = Ca - r
    return D, Baa, Bbb, Bab, Ca, Cb


def _factor(D, Baa, Bbb, Bab, Ca, Cb, rasch):
    """Inverse question blocks and the Cholesky factor of the Schur complement; None if not positive definite."""
    if rasch:
        Iaa = Iab = None
        Ibb = 1 / Bbb
        S = np.diag(D) - (Cb * Ibb) @ Cb.T
        G = (None, Cb * Ibb)
    else:
        det = Baa * Bbb - Bab**2
        if np.any(Baa <= 0) or np.any(det <= 1e-14 * Baa * Bbb):
            return None
        Iaa, Ibb, Iab = Bbb / det, Baa / det, -Bab / det
        Ga, Gb = Ca * Iaa + Cb * Iab, Ca * Iab + Cb * Ibb  # C_j B_j^-1, column by column
        S = np.diag(D) - Ga @ Ca.T - Gb @ Cb.T
        G = (Ga, Gb)
    try:
        cho = cho_factor(S, lower=True)
    except np.linalg.LinAlgError:
        return None
    return cho, (Iaa, Ibb, Iab), G


def _step(g, L, M, factored, Ca, Cb, rasch):
    """Newton direction -H^-1 g via the Schur complement."""
    cho, (Iaa, Ibb, Iab), (Ga, Gb) = factored
    gt, gb = g[:L], g[L:L + M]
    if rasch:
        dt = cho_solve(cho, -(gt - Gb @ gb))
        db = -Ibb * (gb + Cb.T @ dt)
        return np.concatenate([dt, db])
    ga = g[L + M:]
    dt = cho_solve(cho, -(gt - Ga @ ga - Gb @ gb))
    ha, hb = ga + Ca.T @ dt, gb + Cb.T @ dt
    return np.concatenate([dt, -(Iab * ha + Ibb * hb), -(Iaa * ha + Iab * hb)])


def _factored(x, s, n, priors, rasch):
    for fisher in (False, True):
        D, Baa, Bbb, Bab, Ca, Cb = _hessian(x, s, n, priors, rasch, fisher)
        fac = _factor(D, Baa, Bbb, Bab, Ca, Cb, rasch)
        if fac is not None:
            return fac, Ca, Cb, fisher
    raise np.linalg.LinAlgError("information matrix not positive definite")  # cannot happen: Fisher + prior is PD


def newton_mode(x0, s, n, priors, rasch=False, tol=1e-9, max_iter=100):
    """Posterior mode by damped Newton; returns ``(x, f, iterations, converged)``."""
    L, M = s.shape
    x = np.array(x0, dtype=float)
    f, g = neg_log_posterior(x, s, n, priors, rasch)
    for it in range(1, max_iter + 1):
        fac, Ca, Cb, _ = _factored(x, s, n, priors, rasch)
        step = _step(g, L, M, fac, Ca, Cb, rasch)
        slope = float(g @ step)
        if slope >= 0:  # numerical noise at the optimum
            return x, f, it, bool(np.max(np.abs(g)) < 1e-6 * max(1.0, abs(f)))
        t = 1.0
        while True:
            x_new = x + t * step
            f_new = neg_log_posterior(x_new, s, n, priors, rasch, grad=False)
            if f_new <= f + 1e-4 * t * slope or t < 1e-10:
                break
            t *= 0.5
        x = x_new
        f, g = neg_log_posterior(x, s, n, priors, rasch)
        if -slope < tol * max(1.0, abs(f)) * 1e-3 or np.max(np.abs(t * step)) < tol:
            return x, f, it, True
    return x, f, max_iter, False


def laplace_se(x, s, n, priors, rasch=False):
    """Standard errors from the full Laplace covariance (inverse Hessian at the mode): ``(theta_se, b_se, a_se)``."""
    L, M = s.shape
    (cho, (Iaa, Ibb, Iab), (Ga, Gb)), Ca, Cb, _ = _factored(x, s, n, priors, rasch)
    U = cho_solve(cho, np.eye(L))  # covariance of the abilities: S^-1
    theta_se = np.sqrt(np.diag(U))
    b_var = Ibb + np.einsum("ij,ij->j", Gb, U @ Gb)
    if rasch:
        return theta_se, np.sqrt(b_var), np.zeros(M)
    a_var = Iaa + np.einsum("ij,ij->j", Ga, U @ Ga)
    return theta_se, np.sqrt(b_var), np.sqrt(a_var)
