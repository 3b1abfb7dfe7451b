"""Shared engine of the binary count-score metrics: finite estimators and Beta posteriors."""

from __future__ import annotations

import math

import numpy as np

from scorio_core.eval._beta import joint_covariance, posterior_moments
from scorio_core.eval._counts import BinaryCounts, binary_counts
from scorio_core.eval._interval import ci_tuple
from scorio_core.eval._scores import finite_state_scores
from scorio_core.eval._validate import check_beta_prior, check_bounds, check_confidence, finite_k, latent_k

__all__ = ["prepare", "finite_mean", "state_posterior", "posterior_summary", "ci_args", "PosteriorStates"]


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
