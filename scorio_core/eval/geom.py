r"""Geometric blends of Pass@k and Pass^k, threshold spectra and GeoSpectrum@k.

Definitions follow the reference package ``scorio`` 0.2.3 (``geom_at_k``: questionwise
blend; ``geom_ds_at_k``: dataset-level blend; ``threshold_spectrum_at_k``: the spectrum
``S_{w,k} = sum_r w_r T_{r,k}`` in its event-score form; ``geo_spectrum_at_k``:
``Pass@k^lam * S_{w,k}^(1-lam)``). Posterior summaries use first-order delta propagation
through ``g(x, y) = x^a y^b`` with the exact Beta-posterior covariance of x and y.
"""

from __future__ import annotations

import math

import numpy as np

from scorio_core.eval import _binary
from scorio_core.eval._interval import ci_tuple
from scorio_core.eval._scores import pass_values, spectrum_values, threshold_values
from scorio_core.eval._validate import check_lambda, check_power, latent_k

__all__ = [
    "threshold_spectrum_at_k",
    "threshold_spectrum_at_k_ci",
    "geom_at_k",
    "geom_at_k_ci",
    "geom_ds_at_k",
    "geom_ds_at_k_ci",
    "geo_spectrum_at_k",
    "geo_spectrum_at_k_ci",
    "geo_spectrum_star_at_k",
    "geo_spectrum_star_at_k_ci",
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


def _pow(x: np.ndarray, p: float) -> tuple[np.ndarray, np.ndarray]:
    """``x ** p`` elementwise and where it overflows (Python's float ``**`` raises there)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out = np.power(x, p)
    return out, np.isinf(out) & np.isfinite(x)


def _zero_base(x, y, xw: float, yw: float):
    """States whose zero base meets a negative power: (ValueError, blend is 0, proceed).

    The reference checks ``x`` first: ``x == 0`` with ``xw < 0`` is an error unless
    ``y == 0`` with ``yw > 0`` (blend 0); then the same for ``y``.
    """
    bad_x = (x == 0.0) & (xw < 0.0)
    rescued_x = bad_x & (y == 0.0) & (yw > 0.0)
    bad_y = ~bad_x & (y == 0.0) & (yw < 0.0)
    rescued_y = bad_y & (x == 0.0) & (xw > 0.0)
    return bad_x & ~rescued_x, bad_y & ~rescued_y, rescued_x | rescued_y, ~bad_x & ~bad_y


def _raise_first(error_x: np.ndarray, error_y: np.ndarray, overflow: np.ndarray, xw: float, yw: float) -> None:
    """Raise the error of the first failing state, as the reference's loop over states does."""
    failing = np.flatnonzero(error_x | error_y | overflow)
    if failing.size == 0:
        return
    if error_x[failing[0]]:
        raise ValueError(f"the Pass@k power must be non-negative when Pass@k is 0; got {xw}.")
    if error_y[failing[0]]:
        raise ValueError(f"the second power must be non-negative when its base is 0; got {yw}.")
    raise OverflowError(34, "Numerical result out of range")


def _delta(mx, vx, my, vy, cov, xw: float, yw: float):
    """First-order delta-method mean and variance of ``x^xw y^yw`` (elementwise).

    Follows the reference's scalar arithmetic state by state: the blend is 0 (variance 0)
    where it vanishes; ``ValueError`` for a zero base with a negative power (unless the
    other factor makes the blend 0); ``OverflowError`` where a power of a finite number
    (``x^xw``, the gradients' ``x^(xw-1)``, their squares) overflows; a NaN variance
    becomes 0 (``max(0.0, nan)``).
    """
    if xw == 0.0 and yw == 0.0:
        raise ValueError("pass_power and unanimous_power (or lam and 1 - lam) must not both be 0.")
    x, y = np.atleast_1d(np.asarray(mx, dtype=float)), np.atleast_1d(np.asarray(my, dtype=float))
    error_x, error_y, _, live = _zero_base(x, y, xw, yw)
    px, over_x = _pow(x, xw)
    py, over_y = _pow(y, yw)
    overflow = live & (over_x | over_y)
    with np.errstate(over="ignore", invalid="ignore"):
        mean = np.where(live & ~overflow, px * py, 0.0)
        live &= ~overflow & (mean != 0.0)
        gx, over_gx = (np.zeros_like(x), np.zeros(x.shape, bool)) if xw == 0.0 else _pow(x, xw - 1.0)
        gy, over_gy = (np.zeros_like(y), np.zeros(y.shape, bool)) if yw == 0.0 else _pow(y, yw - 1.0)
        gx = gx if xw == 0.0 else xw * gx * py
        gy = gy if yw == 0.0 else yw * px * gy
        overflow |= live & (over_gx | over_gy)
        live &= ~(over_gx | over_gy)
        (gx2, over_sx), (gy2, over_sy) = _pow(gx, 2.0), _pow(gy, 2.0)
        overflow |= live & (over_sx | over_sy)
        var = gx2 * vx + gy2 * vy + 2.0 * gx * gy * cov
    _raise_first(error_x, error_y, overflow, xw, yw)
    var = np.where(live & (var > 0.0), var, 0.0)
    return mean.reshape(np.shape(mx)), var.reshape(np.shape(mx))


def _blend(x, y, xw: float, yw: float):
    """``x^xw * y^yw`` elementwise with the reference package's zero conventions."""
    if xw == 0.0 and yw == 0.0:
        raise ValueError("pass_power and unanimous_power (or lam and 1 - lam) must not both be 0.")
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    error_x, error_y, rescued, _ = _zero_base(x, y, xw, yw)
    _raise_first(error_x.ravel(), error_y.ravel(), np.zeros(x.size, bool), xw, yw)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out = np.power(x, xw) * np.power(y, yw)
    return np.where(rescued, 0.0, out)


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
    """
    counts, k = _binary.prepare(R, k)
    return _binary.finite_mean(counts, _spectrum(weights, k))


def threshold_spectrum_at_k_ci(R, k, weights, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0):
    r"""Posterior summary of the latent spectrum ``S_{w,k}(p)`` (any ``k >= 1``).

    ``g(p) = sum_j A_j C(k, j) p^j (1-p)^(k-j)`` with ``A_j = sum_{r <= j} w_r``; mean and
    sigma over questions as in :func:`pass_at_k_ci`.
    """
    k = latent_k(k)
    values = _spectrum(weights, k)
    counts = _binary.binary_counts(R)
    return _binary.summary_ci(counts, values, confidence, bounds, alpha0, beta0)


def geom_ds_at_k(R, k, pass_power=0.5, unanimous_power=0.5) -> float:
    r"""Dataset-level blend ``Pass@k(R)^a * Pass^k(R)^b`` (default geometric mean).

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
    return float(_blend(x, y, a, b))


def geom_at_k(R, k, pass_power=0.5, unanimous_power=0.5) -> float:
    r"""Questionwise Geom@k: ``mean_a Pass@k_a^a * Pass^k_a^b``.

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
    return float(np.dot(freq, _blend(x, y, a, b)) / counts.n_questions)


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
    mu, var = _delta(mx, vx, my, vy, c, xw, yw)
    return float(mu), math.sqrt(float(var))


def geom_at_k_ci(R, k, pass_power=0.5, unanimous_power=0.5, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0):
    r"""Approximate posterior summary of questionwise Geom@k (any ``k >= 1``).

    Per question, ``mu_a ~ mu_P^a mu_U^b`` and its variance by the delta method through
    ``g(x, y) = x^a y^b`` with the exact posterior covariance of Pass@k and Pass^k; then
    averaged over questions.

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
    means, variances = _delta(lm, lv, rm, rv, cov, a, b)
    # Plain averages, as in the reference: an overflowing blend gives inf / nan, not an error.
    mu = float(np.dot(states.freq, means) / states.m)
    var = float(np.dot(states.freq, variances) / (states.m * states.m))
    return ci_tuple(mu, math.sqrt(var), confidence, bounds)


def geom_ds_at_k_ci(R, k, pass_power=0.5, unanimous_power=0.5, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0):
    r"""Approximate posterior summary of dataset-level Geom@k (any ``k >= 1``).

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


def geo_spectrum_at_k(R, k, lam=0.5, weights=None, lambda_=None) -> float:
    r"""GeoSpectrum_{lam,w}@k on the observed bank: ``Pass@k^lam * S_{w,k}^(1-lam)``.

    ``weights=None`` uses the upper-half mG weights, so ``geo_spectrum_at_k(R, k)`` is
    GeoSpectrum*@k ``= sqrt(Pass@k * mG-Pass@k)``. ``lambda_`` is an alias of ``lam``.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]])
    >>> round(geo_spectrum_at_k(R, 3), 6), round(geo_spectrum_at_k(R, 3, lam=1.0), 6)
    (0.408248, 1.0)
    """
    lam = check_lambda(lam, lambda_)
    counts, k = _binary.prepare(R, k)
    if lam == 1.0:
        return _binary.finite_mean(counts, pass_values(k))
    values = _spectrum(_mg_weights(k) if weights is None else weights, k)
    spectrum = _binary.finite_mean(counts, values)
    if lam == 0.0:
        return spectrum
    return float(_blend(_binary.finite_mean(counts, pass_values(k)), spectrum, lam, 1.0 - lam))


def geo_spectrum_at_k_ci(R, k, lam=0.5, weights=None, lambda_=None, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0):
    r"""Approximate posterior summary of latent GeoSpectrum_{lam,w}@k (any ``k >= 1``).

    ``mu ~ x^lam y^(1-lam)`` at the posterior means of Pass@k (x) and the spectrum (y);
    sigma by the delta method with their exact posterior covariance.
    """
    lam = check_lambda(lam, lambda_)
    k = latent_k(k)
    confidence, bounds = _binary.ci_args(confidence, bounds)
    counts = _binary.binary_counts(R)
    if lam == 1.0:
        return _binary.summary_ci(counts, pass_values(k), confidence, bounds, alpha0, beta0)
    values = _spectrum(_mg_weights(k) if weights is None else weights, k)
    if lam == 0.0:
        return _binary.summary_ci(counts, values, confidence, bounds, alpha0, beta0)
    states, (lm, lv), (rm, rv), cov = _joint(counts, k, values, alpha0, beta0)
    return ci_tuple(*_dataset_delta(states, lm, lv, rm, rv, cov, lam, 1.0 - lam), confidence, bounds)


def geo_spectrum_star_at_k(R, k) -> float:
    r"""GeoSpectrum*@k ``= sqrt(Pass@k * mG-Pass@k)``: :func:`geo_spectrum_at_k` defaults."""
    return geo_spectrum_at_k(R, k)


def geo_spectrum_star_at_k_ci(R, k, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0):
    r"""Posterior summary of GeoSpectrum*@k: :func:`geo_spectrum_at_k_ci` defaults."""
    return geo_spectrum_at_k_ci(R, k, confidence=confidence, bounds=bounds, alpha0=alpha0, beta0=beta0)
