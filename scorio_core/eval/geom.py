r"""Geometric blends of Pass@k and Pass^k, threshold spectra and GeoSpectrum@k.

Definitions follow the reference package ``scorio`` 0.2.3 (``geom_at_k``: questionwise
blend; ``geom_ds_at_k``: dataset-level blend; ``threshold_spectrum_at_k``: the spectrum
``S_{w,k} = sum_r w_r T_{r,k}`` in its event-score form; ``geo_spectrum_at_k``:
``Pass@k^lam * S_{w,k}^(1-lam)``, in :mod:`scorio_core.eval.geo_spectrum`). Posterior summaries use
first-order delta propagation through ``g(x, y) = x^a y^b`` (:func:`scorio_core.eval._binary.delta_blend`)
with the exact Beta-posterior covariance of x and y.
"""

from __future__ import annotations

import math

import numpy as np

from scorio_core.eval import _binary
from scorio_core.eval._interval import ci_tuple
from scorio_core.eval._scores import pass_values, spectrum_values, threshold_values
from scorio_core.eval._validate import check_power, latent_k

__all__ = [
    "threshold_spectrum_at_k",
    "threshold_spectrum_at_k_ci",
    "geom_at_k",
    "geom_at_k_ci",
    "geom_ds_at_k",
    "geom_ds_at_k_ci",
]


def _spectrum(weights, k: int) -> np.ndarray:
    """Validate spectrum weights (length k, >= 0, finite, sum <= 1) and return credit values."""
    try:
        w = np.asarray(weights)
    except (TypeError, ValueError) as exc:
        raise ValueError("weights must be a 1-D array of non-negative numbers.") from exc
    if w.dtype.kind == "c" or w.dtype.kind not in "biuf":
        raise TypeError(f"weights must hold real numbers; got dtype {w.dtype}.")
    if w.ndim != 1 or w.shape[0] != k:
        raise ValueError(f"weights must be a 1-D array of length k={k}; got shape {w.shape}.")
    w = w.astype(float)
    if not np.all(np.isfinite(w)):
        raise ValueError("weights must be finite.")
    if np.any(w < 0.0):
        raise ValueError(f"weights must be non-negative; got {float(w.min())}.")
    total = float(np.sum(w))
    if total > 1.0 + 1e-12:
        raise ValueError(f"weights must satisfy sum(weights) <= 1; got sum={total}.")
    return spectrum_values(w)


def _mg_weights(k: int) -> np.ndarray:
    """Upper-half mG-Pass weights: ``2/k`` on thresholds ``ceil(k/2)+1 .. k``."""
    w = np.zeros(k)
    w[(k + 1) // 2 :] = 2.0 / k
    return w


def threshold_spectrum_at_k(R, k, weights) -> float:
    r"""Finite-bank threshold spectrum ``S_{w,k}(R) = sum_r w_r T_{r,k}(R)``.

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N), or BinaryCounts
    k : int
        ``1 <= k <= N``.
    weights : array-like of float, shape (k,)
        Non-negative, ``sum(weights) <= 1``; ``T_{r,k}`` is "exactly r of k correct" in the
        event-score form (credit ``sum_{r <= j} w_r`` for j successes).

    Returns
    -------
    float
        Mean over questions of ``sum_j A_j Hypergeom(j; N, c, k)``, ``A_j = sum_{r <= j} w_r``.

    Raises
    ------
    TypeError
        Non-integer ``k``; non-numeric ``R`` or ``weights``.
    ValueError
        ``k`` outside ``1..N``; non-binary ``R``; ``weights`` not of length k, not finite, negative
        or summing above 1.

    Source: the reference package's ``threshold_spectrum_at_k`` (the Bayes@N paper's threshold family).
    """
    counts, k = _binary.prepare(R, k)
    return _binary.finite_mean(counts, _spectrum(weights, k))


def threshold_spectrum_at_k_ci(R, k, weights, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0):
    r"""Posterior summary of the latent spectrum ``S_{w,k}(p)`` (any ``k >= 1``).

    ``g(p) = sum_j A_j C(k, j) p^j (1-p)^(k-j)`` with ``A_j = sum_{r <= j} w_r``; mean and
    sigma over questions as in :func:`pass_at_k_ci`. Source: the reference package's
    ``threshold_spectrum_at_k_ci`` with the Beta posterior of the Bayes@N paper (Appendix B).

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N) or (N,), or BinaryCounts
        Binary outcomes (questions x trials).
    k : int
        Latent budget, any ``k >= 1`` (may exceed ``N``).
    weights : array-like of float, shape (k,)
        Non-negative, ``sum(weights) <= 1``.
    confidence : float, default 0.95
        Credibility level, ``0 < confidence < 1``.
    bounds : tuple (lo, hi) or None, default (0, 1)
        Clipping bounds for the interval.
    alpha0, beta0 : float, default 1
        ``Beta(alpha0, beta0)`` prior on each question's success probability.

    Returns
    -------
    mu, sigma, lo, hi : float
        Posterior mean and sd and the normal-approximation interval clipped to ``bounds``.

    Raises
    ------
    TypeError
        Non-integer ``k``; non-numeric ``R`` or ``weights``; non-real ``confidence``, ``alpha0``, ``beta0``.
    ValueError
        ``k < 1``; non-binary ``R``; bad ``weights`` (as :func:`threshold_spectrum_at_k`); ``confidence``
        outside (0, 1); ``bounds`` not an ordered pair; ``alpha0`` or ``beta0`` not a finite number > 0.
    """
    k = latent_k(k)
    values = _spectrum(weights, k)
    counts = _binary.binary_counts(R)
    return _binary.summary_ci(counts, values, confidence, bounds, alpha0, beta0)


def geom_ds_at_k(R, k, pass_power=0.5, unanimous_power=0.5) -> float:
    r"""Dataset-level blend ``Pass@k(R)^a * Pass^k(R)^b`` (default geometric mean).

    Source: the reference package's ``geom_ds_at_k`` (blend of the dataset means).

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N) or (N,), or BinaryCounts
        Binary outcomes (questions x trials).
    k : int
        Draws, ``1 <= k <= N``.
    pass_power, unanimous_power : float, default 0.5
        Finite exponents ``a`` of Pass@k and ``b`` of Pass^k (not both 0; default: geometric mean).

    Returns
    -------
    float
        ``Pass@k^a * Pass^k^b`` of the question-averaged finite estimators.

    Raises
    ------
    TypeError
        Non-integer ``k``; non-real powers; non-numeric ``R``.
    ValueError
        ``k`` outside ``1..N``; non-binary ``R``; non-finite powers or both 0; a negative power of a
        zero base (unless the other factor makes the blend 0).
    OverflowError
        A power overflows (the reference's float ``**``).

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]])
    >>> round(geom_ds_at_k(R, 2), 6)
    0.653835
    """
    counts, k = _binary.prepare(R, k)
    a, b = check_power(pass_power, "pass_power"), check_power(unanimous_power, "unanimous_power")
    x = _binary.finite_mean(counts, pass_values(k))
    y = _binary.finite_mean(counts, threshold_values(k, k))
    return float(_binary.blend(x, y, a, b))


def geom_at_k(R, k, pass_power=0.5, unanimous_power=0.5) -> float:
    r"""Questionwise Geom@k: ``mean_a Pass@k_a^a * Pass^k_a^b``.

    Source: the reference package's ``geom_at_k`` (blend per question, then averaged).

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N) or (N,), or BinaryCounts
        Binary outcomes (questions x trials).
    k : int
        Draws, ``1 <= k <= N``.
    pass_power, unanimous_power : float, default 0.5
        Finite exponents ``a`` of Pass@k and ``b`` of Pass^k (not both 0; default: geometric mean).

    Returns
    -------
    float
        Mean over questions of the blend of the per-question finite estimators.

    Raises
    ------
    TypeError
        Non-integer ``k``; non-real powers; non-numeric ``R``.
    ValueError
        ``k`` outside ``1..N``; non-binary ``R``; non-finite powers or both 0; a negative power of a
        zero base (unless the other factor makes the blend 0).
    OverflowError
        A power overflows (the reference's float ``**``).

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]])
    >>> round(geom_at_k(R, 2), 6)
    0.647106
    """
    counts, k = _binary.prepare(R, k)
    a, b = check_power(pass_power, "pass_power"), check_power(unanimous_power, "unanimous_power")
    x, freq = _binary.finite_state_values(counts, pass_values(k))
    y, _ = _binary.finite_state_values(counts, threshold_values(k, k))
    return float(np.dot(freq, _binary.blend(x, y, a, b)) / counts.n_questions)


def _joint(R, k, right_values, alpha0, beta0):
    counts = _binary.binary_counts(R)
    states = _binary.state_posterior(counts, alpha0, beta0)
    left = pass_values(k)
    lm, lv = states.moments(left)
    if np.array_equal(left, right_values):  # k = 1: Pass@1 is Pass^1 (the reference shares moments)
        return states, (lm, lv), (lm, lv), lv
    rm, rv = states.moments(right_values)
    cov = states.covariance(left, right_values, lm, rm)
    return states, (lm, lv), (rm, rv), cov


def _dataset_delta(states, lm, lv, rm, rv, cov, xw: float, yw: float) -> tuple[float, float]:
    """Delta method on the dataset-level means: aggregate x, y and Cov(x, y), then blend."""
    mx, vx = states.aggregate(lm, lv)
    my, vy = states.aggregate(rm, rv)
    c = float(np.dot(states.freq, cov) / (states.m * states.m))
    if not math.isfinite(c):
        raise FloatingPointError("non-finite posterior covariance")
    mu, var = _binary.delta_blend(mx, vx, my, vy, c, xw, yw)
    return float(mu), math.sqrt(float(var))


def geom_at_k_ci(R, k, pass_power=0.5, unanimous_power=0.5, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0):
    r"""Approximate posterior summary of questionwise Geom@k (any ``k >= 1``).

    Per question, ``mu_a ~ mu_P^a mu_U^b`` and its variance by the delta method through
    ``g(x, y) = x^a y^b`` with the exact posterior covariance of Pass@k and Pass^k; then
    averaged over questions. Source: the reference package's ``geom_at_k_ci``.

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N) or (N,), or BinaryCounts
        Binary outcomes (questions x trials).
    k : int
        Latent budget, any ``k >= 1`` (may exceed ``N``).
    pass_power, unanimous_power : float, default 0.5
        Finite exponents ``a`` of Pass@k and ``b`` of Pass^k (not both 0; default: geometric mean).
    confidence : float, default 0.95
        Credibility level, ``0 < confidence < 1``.
    bounds : tuple (lo, hi) or None, default (0, 1)
        Clipping bounds for the interval.
    alpha0, beta0 : float, default 1
        ``Beta(alpha0, beta0)`` prior on each question's success probability.

    Returns
    -------
    mu, sigma, lo, hi : float
        Posterior mean and sd and the normal-approximation interval clipped to ``bounds``.

    Raises
    ------
    TypeError
        Non-integer ``k``; non-real powers, ``confidence``, ``alpha0``, ``beta0``; non-numeric ``R``.
    ValueError
        ``k < 1``; non-binary ``R``; bad powers (as the point estimate); ``confidence`` outside (0, 1);
        ``bounds`` not an ordered pair; ``alpha0`` or ``beta0`` not a finite number > 0.
    OverflowError
        A power or gradient overflows in the delta method (as the reference).

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]])
    >>> mu, sigma, lo, hi = geom_at_k_ci(R, 2)
    >>> round(mu, 6), round(sigma, 6), round(lo, 4), round(hi, 4)
    (0.610666, 0.133107, 0.3498, 0.8716)
    """
    k = latent_k(k)
    a, b = check_power(pass_power, "pass_power"), check_power(unanimous_power, "unanimous_power")
    confidence, bounds = _binary.ci_args(confidence, bounds)
    states, (lm, lv), (rm, rv), cov = _joint(R, k, threshold_values(k, k), alpha0, beta0)
    means, variances = _binary.delta_blend(lm, lv, rm, rv, cov, a, b)
    # Plain averages, as in the reference: an overflowing blend gives inf / nan, not an error.
    mu = float(np.dot(states.freq, means) / states.m)
    var = float(np.dot(states.freq, variances) / (states.m * states.m))
    return ci_tuple(mu, math.sqrt(var), confidence, bounds)


def geom_ds_at_k_ci(R, k, pass_power=0.5, unanimous_power=0.5, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0):
    r"""Approximate posterior summary of dataset-level Geom@k (any ``k >= 1``).

    Delta method through ``x^a y^b`` at the dataset-level posterior means of Pass@k (x) and Pass^k (y)
    with their exact covariance. Source: the reference package's ``geom_ds_at_k_ci``.

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N) or (N,), or BinaryCounts
        Binary outcomes (questions x trials).
    k : int
        Latent budget, any ``k >= 1`` (may exceed ``N``).
    pass_power, unanimous_power : float, default 0.5
        Finite exponents ``a`` of Pass@k and ``b`` of Pass^k (not both 0; default: geometric mean).
    confidence : float, default 0.95
        Credibility level, ``0 < confidence < 1``.
    bounds : tuple (lo, hi) or None, default (0, 1)
        Clipping bounds for the interval.
    alpha0, beta0 : float, default 1
        ``Beta(alpha0, beta0)`` prior on each question's success probability.

    Returns
    -------
    mu, sigma, lo, hi : float
        Posterior mean and sd and the normal-approximation interval clipped to ``bounds``.

    Raises
    ------
    TypeError
        Non-integer ``k``; non-real powers, ``confidence``, ``alpha0``, ``beta0``; non-numeric ``R``.
    ValueError
        ``k < 1``; non-binary ``R``; bad powers (as the point estimate); ``confidence`` outside (0, 1);
        ``bounds`` not an ordered pair; ``alpha0`` or ``beta0`` not a finite number > 0.
    OverflowError
        A power or gradient overflows in the delta method (as the reference).

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]])
    >>> mu, sigma, lo, hi = geom_ds_at_k_ci(R, 2)
    >>> round(mu, 6), round(sigma, 6), round(lo, 4), round(hi, 4)
    (0.612112, 0.132755, 0.3519, 0.8723)
    """
    k = latent_k(k)
    a, b = check_power(pass_power, "pass_power"), check_power(unanimous_power, "unanimous_power")
    confidence, bounds = _binary.ci_args(confidence, bounds)
    states, (lm, lv), (rm, rv), cov = _joint(R, k, threshold_values(k, k), alpha0, beta0)
    return ci_tuple(*_dataset_delta(states, lm, lv, rm, rv, cov, a, b), confidence, bounds)
