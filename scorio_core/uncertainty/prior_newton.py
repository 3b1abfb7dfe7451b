"""One damped Newton step of the empirical-Bayes Dirichlet fits, and its acceptance rule.

Shared by the fits on count states (:mod:`scorio_core.uncertainty.batch_prior`, special functions)
and on survival counts (:mod:`scorio_core.uncertainty.survival_prior`), so both take the same steps
and stop by the same rules. The Hessian in ``alpha`` of the Dirichlet-multinomial log marginal
likelihood is a diagonal plus a common part (every entry), hence the closed forms below.
"""

from __future__ import annotations

import numpy as np

from scorio_core.uncertainty.priors import _LOG_ALPHA_BOUNDS

__all__ = ["frozen_categories", "newton_step", "newton_update"]


def newton_step(alpha, g_a, h_common, h_diag, damping, closed_form: bool = False, free=None):
    """Levenberg-damped Newton step in eta = log alpha from the alpha-gradient and -Hessian parts.

    Parameters
    ----------
    alpha, g_a, h_diag : ndarray, shape (n, K)
        Pseudo-counts, gradient in alpha and the diagonal part of the Hessian in alpha.
    h_common, damping : ndarray, shape (n,)
        The Hessian's common part (added to every entry) and the Levenberg damping.
    closed_form : bool, default False
        For K = 2, the 2 x 2 eigenvalue and Cramer's rule; for K = 3, a leading-minors test of
        definiteness (1 then stands for the smallest eigenvalue: only its sign is used) and the
        adjugate; for K > 3, the definiteness test of a diagonal minus a rank-one matrix
        (:func:`_positive_definite`; LAPACK's eigenvalues for the other rows only); instead of
        batched LAPACK calls (the same steps to rounding).
    free : ndarray of bool, shape (n, K), optional
        The coordinates that move; the others (categories a fit never observed, held at the lower
        bound: see :func:`frozen_categories`) get a zero gradient and step, and a unit row and column
        of the negated Hessian. Rows without frozen coordinates get the same values as without ``free``.

    Returns
    -------
    g, step : ndarray, shape (n, K)
        Gradient in eta and the step.
    lam_min : ndarray, shape (n,)
        Smallest eigenvalue of the negated Hessian in eta.
    """
    K = alpha.shape[1]
    g = g_a * alpha  # gradient of the log-likelihood in eta
    if free is not None and free.all():
        free = None
    if free is not None:
        g = np.where(free, g, 0.0)
    if closed_form and K == 2 and free is None:  # two categories: a fit with one unobserved is never fitted
        a0, a1 = alpha[:, 0], alpha[:, 1]
        p = -(a0 * (h_common + h_diag[:, 0]) * a0 + g[:, 0])  # the negated eta-Hessian [[p, q], [q, r]]
        r = -(a1 * (h_common + h_diag[:, 1]) * a1 + g[:, 1])
        q = -(a0 * h_common * a1)
        lam_min = 0.5 * (p + r) - np.hypot(0.5 * (p - r), q)
        shift = np.maximum(0.0, -lam_min) + damping * (1.0 + np.maximum(np.abs(p), np.abs(r)))
        ps, rs = p + shift, r + shift
        det = ps * rs - q * q
        step = np.stack([(rs * g[:, 0] - q * g[:, 1]) / det, (ps * g[:, 1] - q * g[:, 0]) / det], axis=1)
        return g, step, lam_min
    if closed_form and K == 3:
        # positive definite (leading minors > 0; only the sign of the smallest eigenvalue is used then): no shift;
        # the smallest eigenvalue of the others from LAPACK; the 3 x 3 solve by the adjugate
        off = alpha * h_common[:, None]
        d0, d1, d2 = (-(alpha[:, j] * (h_common + h_diag[:, j]) * alpha[:, j] + g[:, j]) for j in range(3))
        e01, e02, e12 = -(off[:, 0] * alpha[:, 1]), -(off[:, 0] * alpha[:, 2]), -(off[:, 1] * alpha[:, 2])
        if free is not None:  # a frozen coordinate: unit diagonal, no coupling
            f0, f1, f2 = free[:, 0], free[:, 1], free[:, 2]
            d0, d1, d2 = np.where(f0, d0, 1.0), np.where(f1, d1, 1.0), np.where(f2, d2, 1.0)
            e01, e02, e12 = np.where(f0 & f1, e01, 0.0), np.where(f0 & f2, e02, 0.0), np.where(f1 & f2, e12, 0.0)
        lam_min = np.ones(alpha.shape[0])
        pd = (d0 > 0) & (d0 * d1 - e01 * e01 > 0) & (_det3(d0, d1, d2, e01, e02, e12) > 0)
        if not pd.all():
            lam_min[~pd] = _eig_min(d0, d1, d2, e01, e02, e12, ~pd)
        shift = np.maximum(0.0, -lam_min) + damping * (1.0 + np.maximum(np.maximum(np.abs(d0), np.abs(d1)), np.abs(d2)))
        d0, d1, d2 = d0 + shift, d1 + shift, d2 + shift
        c00, c11, c22 = d1 * d2 - e12 * e12, d0 * d2 - e02 * e02, d0 * d1 - e01 * e01
        c01, c02, c12 = e02 * e12 - e01 * d2, e01 * e12 - e02 * d1, e01 * e02 - d0 * e12
        det = d0 * c00 + e01 * c01 + e02 * c02
        g0, g1, g2 = g[:, 0], g[:, 1], g[:, 2]
        step = np.stack([c00 * g0 + c01 * g1 + c02 * g2, c01 * g0 + c11 * g1 + c12 * g2, c02 * g0 + c12 * g1 + c22 * g2], axis=1)
        return g, step / det[:, None], lam_min
    eye = np.eye(K)
    H_a = h_common[:, None, None] + h_diag[:, :, None] * eye
    neg = -(alpha[:, :, None] * H_a * alpha[:, None, :] + g[:, :, None] * eye)  # Hessian of -ll in eta
    if free is not None:  # a frozen coordinate: unit diagonal, no coupling
        neg = np.where(free[:, :, None] & free[:, None, :], neg, 0.0) + (~free)[:, :, None] * eye
    if closed_form:  # positive definite: no shift (1 stands for the smallest eigenvalue, as for K = 3)
        lam_min = np.ones(alpha.shape[0])
        other = ~_positive_definite(alpha, g, h_common, h_diag, free)
        if other.any():
            lam_min[other] = np.linalg.eigvalsh(neg[other])[:, 0]
    else:
        lam_min = np.linalg.eigvalsh(neg)[:, 0]  # shift to positive definite, plus Levenberg damping
    shift = np.maximum(0.0, -lam_min) + damping * (1.0 + np.abs(np.diagonal(neg, axis1=1, axis2=2)).max(axis=1))
    step = np.linalg.solve(neg + shift[:, None, None] * eye, g[:, :, None])[:, :, 0]
    return g, step, lam_min


def _positive_definite(alpha, g, h_common, h_diag, free=None):
    """Rows whose negated eta-Hessian is positive definite, without an eigendecomposition.

    The negated Hessian in eta is ``diag(delta) - c a a^T`` with ``delta = -(a^2 h_diag + g)``, ``c = h_common``
    and ``a = alpha``: a diagonal minus a rank-one matrix. With every ``delta_i > 0`` it is positive definite if
    and only if ``1 - c sum_i a_i^2 / delta_i > 0`` (the matrix determinant lemma along the path from
    ``diag(delta)``; always true for ``c <= 0``). Rows with some ``delta_i <= 0`` (or not finite) are reported
    as not positive definite here (the caller takes LAPACK's eigenvalues for them).

    Parameters
    ----------
    alpha, g, h_diag : ndarray, shape (n, K)
        Pseudo-counts, gradient in eta and the diagonal part of the Hessian in alpha.
    h_common : ndarray, shape (n,)
        The Hessian's common part.
    free : ndarray of bool, shape (n, K), optional
        As :func:`newton_step`: a frozen coordinate's row and column are those of the identity
        (``delta_i = 1``, ``a_i = 0`` in the rank-one part).

    Returns
    -------
    ndarray of bool, shape (n,)
    """
    a2 = alpha * alpha
    delta = -(a2 * h_diag + g)
    if free is not None:
        delta, a2 = np.where(free, delta, 1.0), np.where(free, a2, 0.0)
    positive = (delta > 0).all(axis=1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        lemma = 1.0 - h_common * (a2 / delta).sum(axis=1)
    return positive & (lemma > 0)


def frozen_categories(observed: np.ndarray, eta: np.ndarray) -> np.ndarray | None:
    """The free coordinates of each fit, with the frozen ones' ``eta`` set to the lower bound (in place).

    A category a fit never observed (no trial of any of its questions in it) has a log marginal
    likelihood strictly decreasing in its pseudo-count: only the total ``A`` carries it, through
    ``-(gammaln(n + A) - gammaln(A))`` per question. Its maximum in the box is therefore the lower
    bound whatever the other pseudo-counts, so the Newton iterations hold it there and move the
    others alone. (Left free, it crawled toward the bound while the others' steps were spent on it:
    the iterations stopped up to 4% short in the total strength, and the restart from a weak start
    was run on every such fit to recover it: 28% of the fits of an 8-category rubric's prefixes.)

    Parameters
    ----------
    observed : ndarray of bool, shape (F, K)
        Whether each fit has a trial in each category.
    eta : ndarray of float, shape (F, K)
        Log pseudo-counts (modified in place where not observed).

    Returns
    -------
    ndarray of bool, shape (F, K), or None
        ``observed``, or None when every coordinate is free.
    """
    if observed.all():
        return None
    eta[~observed] = _LOG_ALPHA_BOUNDS[0]
    return observed


def _det3(d0, d1, d2, e01, e02, e12):
    """Determinant of symmetric 3 x 3 matrices from their diagonal and upper entries."""
    return d0 * (d1 * d2 - e12 * e12) - e01 * (e01 * d2 - e12 * e02) + e02 * (e01 * e12 - d1 * e02)


def _eig_min(d0, d1, d2, e01, e02, e12, rows):
    """Smallest eigenvalue (LAPACK) of the symmetric 3 x 3 matrices ``rows``."""
    m = np.empty((int(rows.sum()), 3, 3))
    m[:, 0, 0], m[:, 1, 1], m[:, 2, 2] = d0[rows], d1[rows], d2[rows]
    m[:, 0, 1] = m[:, 1, 0] = e01[rows]
    m[:, 0, 2] = m[:, 2, 0] = e02[rows]
    m[:, 1, 2] = m[:, 2, 1] = e12[rows]
    return np.linalg.eigvalsh(m)[:, 0]


def newton_update(eta, ll, damping, idx, trial, ll_trial, g, step, lam_min):
    """Accept or reject the trial points of fits ``idx``; ``eta``, ``ll``, ``damping`` updated in place.

    Parameters
    ----------
    eta, ll, damping : ndarray
        All fits' log pseudo-counts (F, K), log-likelihoods and dampings (F,).
    idx : ndarray of int, shape (n,)
        The fits stepped.
    trial, g, step : ndarray, shape (n, K)
        Their trial points, gradients and steps; ``ll_trial`` and ``lam_min`` (n,) as
        :func:`newton_step`.

    Returns
    -------
    better, done : ndarray of bool, shape (n,)
        The trial was accepted; the fit converged.
    """
    lo, hi = _LOG_ALPHA_BOUNDS
    ll_before = ll[idx]
    better = ll_trial >= ll_before - 1e-12 * np.abs(ll_before)
    gain = ll_trial - ll_before
    moved = np.abs(trial - eta[idx]).max(axis=1)
    eta[idx] = np.where(better[:, None], trial, eta[idx])
    ll[idx] = np.where(better, ll_trial, ll_before)
    damping[idx] = np.where(better, np.maximum(damping[idx] / 10.0, 1e-12), damping[idx] * 10.0)
    # converged: a tiny accepted step or gain (flat likelihood, e.g. toward the strength bound),
    # a vanishing projected gradient, or no acceptable step at any damping
    at_bound = ((eta[idx] <= lo + 1e-9) & (g < 0)) | ((eta[idx] >= hi - 1e-9) & (g > 0))
    g_proj = np.where(at_bound, 0.0, g)
    # or, where the likelihood is locally concave, a Newton decrement at the current point (the gain the quadratic
    # model predicts, g . step / 2) below 1e-9 of |ll| (the relative tolerance of the per-model L-BFGS-B fit): on
    # data without between-question spread the maximum is at infinite strength and the likelihood's tail in eta
    # is exponential, where the decrement is half the gain still to be had; without this stop ~40 of ~60
    # iterations crawl along the strength bound, where clipping each pseudo-count moves the mean
    decrement = 0.5 * np.einsum("ij,ij->i", g, step)
    done = (better & ((moved < 1e-10) | (np.abs(gain) < 1e-11 * (1.0 + np.abs(ll[idx])))))
    done |= (lam_min > 0) & (decrement < 1e-9 * (1.0 + np.abs(ll_before)))
    done |= (np.abs(g_proj).max(axis=1) < 1e-9) | (damping[idx] > 1e12)
    return better, done
