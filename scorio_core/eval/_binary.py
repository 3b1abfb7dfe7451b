"""Shared engine of the binary count-score metrics: finite estimators and Beta posteriors.

Also the geometric blend ``x^a y^b`` of two metrics (:func:`blend`) and its first-order delta-method
posterior (:func:`delta_blend`), with the reference package's zero and overflow conventions (Geom@k, GeoSpectrum@k).
"""

from __future__ import annotations

import math

import numpy as np

from scorio_core.eval._beta import joint_covariance, posterior_moments
from scorio_core.eval._counts import BinaryCounts, binary_counts
from scorio_core.eval._interval import ci_tuple
from scorio_core.eval._scores import finite_state_scores
from scorio_core.eval._validate import check_beta_prior, check_bounds, check_confidence, finite_k, latent_k

__all__ = [
    "prepare", "finite_mean", "state_posterior", "posterior_summary", "ci_args", "PosteriorStates", "blend",
    "delta_blend",
]


def prepare(R, k, *, latent: bool = False) -> tuple[BinaryCounts, int]:
    """Validate ``R`` (array or counts) then ``k``; finite k requires ``k <= min N``."""
    counts = binary_counts(R)
    k = latent_k(k) if latent else finite_k(k, counts.min_trials)
    return counts, k


def finite_mean(counts: BinaryCounts, values: np.ndarray) -> float:
    """Average over questions of the unbiased finite-sample estimator of ``values``."""
    n, c, freq = counts.states()
    scores = finite_state_scores(values, n, c)
    return float(np.dot(freq.astype(float), scores) / counts.n_questions)


def finite_state_values(counts: BinaryCounts, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-state finite estimator values and state frequencies."""
    n, c, freq = counts.states()
    return finite_state_scores(values, n, c), freq.astype(float)


class PosteriorStates:
    """Beta posteriors ``Beta(alpha0 + c, beta0 + n - c)`` of the unique question states."""

    def __init__(self, counts: BinaryCounts, alpha0: float, beta0: float) -> None:
        n, c, freq = counts.states()
        self.a = alpha0 + c.astype(float)
        self.b = beta0 + (n - c).astype(float)
        self.freq = freq.astype(float)
        self.m = counts.n_questions

    def moments(self, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per-state posterior mean and variance of a count score."""
        return posterior_moments(values, self.a, self.b)

    def covariance(self, left, right, left_mean, right_mean) -> np.ndarray:
        """Per-state posterior covariance of two count scores."""
        return joint_covariance(left, right, left_mean, right_mean, self.a, self.b)

    def aggregate(self, means: np.ndarray, variances: np.ndarray) -> tuple[float, float]:
        """Dataset mean ``(1/M) sum E`` and variance ``(1/M^2) sum Var`` (questions independent)."""
        mu = float(np.dot(self.freq, means) / self.m)
        var = float(np.dot(self.freq, variances) / (self.m * self.m))
        if not (math.isfinite(mu) and math.isfinite(var)):
            raise FloatingPointError("non-finite posterior summary")
        return mu, max(var, 0.0)


def state_posterior(R, alpha0, beta0) -> PosteriorStates:
    """Validate the Beta prior and build :class:`PosteriorStates` for counts ``R``."""
    alpha0, beta0 = check_beta_prior(alpha0, beta0)
    return PosteriorStates(R, alpha0, beta0)


def posterior_summary(counts: BinaryCounts, values: np.ndarray, alpha0, beta0) -> tuple[float, float]:
    """``(mu, sigma)`` of the latent count score averaged over questions."""
    states = state_posterior(counts, alpha0, beta0)
    mu, var = states.aggregate(*states.moments(values))
    return mu, math.sqrt(var)


def ci_args(confidence, bounds) -> tuple[float, tuple[float, float] | None]:
    """Validate ``confidence`` and ``bounds`` of a ``*_ci`` function."""
    return check_confidence(confidence), check_bounds(bounds)


def summary_ci(counts: BinaryCounts, values: np.ndarray, confidence, bounds, alpha0, beta0):
    """``(mu, sigma, lo, hi)`` of a latent count score."""
    confidence, bounds = ci_args(confidence, bounds)
    mu, sigma = posterior_summary(counts, values, alpha0, beta0)
    return ci_tuple(mu, sigma, confidence, bounds)


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


def delta_blend(mx, vx, my, vy, cov, xw: float, yw: float):
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


def blend(x, y, xw: float, yw: float):
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
