"""Normal-approximation credible intervals shared by every ``*_ci`` function."""

from __future__ import annotations

from scipy.special import ndtri

__all__ = ["z_two_sided", "credible_interval", "ci_tuple"]


def z_two_sided(confidence: float) -> float:
    """``z`` with ``P(|Z| <= z) = confidence`` for ``Z ~ N(0, 1)`` (1.959964 at 0.95)."""
    return float(ndtri(0.5 + 0.5 * confidence))


def credible_interval(mu: float, sigma: float, confidence: float, bounds: tuple[float, float] | None) -> tuple[float, float]:
    """Central interval ``mu -/+ z sigma``; both ends clipped into ``bounds`` when given.

    Clipping both endpoints into ``[b_lo, b_hi]`` (not just lo from below and hi from
    above) keeps ``lo <= hi`` even if ``mu`` lies outside the bounds, as in the reference.
    """
    z = z_two_sided(confidence)
    lo, hi = mu - z * sigma, mu + z * sigma
    if bounds is not None:
        b_lo, b_hi = bounds
        lo = min(max(lo, b_lo), b_hi)
        hi = min(max(hi, b_lo), b_hi)
    return float(lo), float(hi)


def ci_tuple(mu: float, sigma: float, confidence: float, bounds: tuple[float, float] | None) -> tuple[float, float, float, float]:
    """``(mu, sigma, lo, hi)`` as Python floats."""
    lo, hi = credible_interval(mu, sigma, confidence, bounds)
    return float(mu), float(sigma), lo, hi
