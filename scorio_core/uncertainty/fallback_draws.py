"""Draws of a model whose empirical-Bayes prior is not identified: centred on its leaderboard row, kept in range.

Such a model's leaderboard row (:func:`scorio_core.uncertainty.batch.posterior_summary_batch`, ``method`` in
:data:`scorio_core.uncertainty.fallback.FALLBACK_LABELS`) is an estimate with the binomial sd ``sqrt(x(1-x)/(M N_min))``
(or the pooled Jeffreys estimate when every trial is in one category), not a Dirichlet posterior. ``compare`` turns
that row into a normal approximation; the rank distribution (``ranks``, the app's Rank distribution tab) and the
planner (``plan --prior empirical-bayes``) draw the model from :func:`fallback_score_draws`: the Beta distribution
with the row's mean and sd on the score range, so every draw is a possible score and the mean draw is the row's
estimate. Numeric module: numpy only.
"""

from __future__ import annotations

import numpy as np

__all__ = ["FALLBACK_DRAWS", "fallback_score_draws"]

#: What :func:`fallback_score_draws` draws, in words (the ``ranks`` ``prior_note`` and the planner's note).
FALLBACK_DRAWS = ("a Beta distribution with {its} leaderboard row's estimate as mean and {its} row's sd as sd, on the "
                  "score range (moment-matched; not a Dirichlet posterior)")


def fallback_score_draws(rng: np.random.Generator, mean, sd, lo: float, hi: float, size: int) -> np.ndarray:
    r"""Draws of K scores in ``[lo, hi]`` with the given means and standard deviations (moment-matched Beta).

    Parameters
    ----------
    rng : numpy.random.Generator
    mean, sd : array-like of float, shape (K,)
        Each model's leaderboard estimate and sd (score units), finite, ``sd >= 0``.
    lo, hi : float
        The score range: the rubric's smallest and largest weight.
    size : int
        Draws per model.

    Returns
    -------
    ndarray of float64, shape (size, K)
        In ``[lo, hi]``. With ``x = (mean - lo) / (hi - lo)`` and ``v = (sd / (hi - lo))^2``: ``lo + (hi - lo)
        Beta(x k, (1 - x) k)`` with ``k = x (1 - x) / v - 1`` when ``0 < x < 1`` and ``0 < v < x (1 - x)`` (mean and
        variance exactly the row's); when ``v >= x (1 - x)`` (no score in the range has that spread) the Beta's limit
        ``k -> 0``: ``hi`` with probability ``x``, else ``lo`` (mean the row's, the largest variance possible); when
        ``v = 0``, ``x`` at a bound or ``hi <= lo``: the point mass at ``mean`` (clipped to the range).

    Notes
    -----
    One Beta variate and one uniform per (draw, model), whichever case applies: the stream consumed depends only on
    ``size`` and K. A clipped normal would move the mean of a row near a bound (an estimate of 0.9 with sd 0.095
    would draw 0.877 on average); the Beta keeps it.

    Examples
    --------
    >>> d = fallback_score_draws(np.random.default_rng(0), [0.9, 0.5, 0.75], [0.09, 0.0, 0.5], 0.0, 1.0, 200_000)
    >>> np.round(d.mean(axis=0), 2).tolist(), np.round(d.std(axis=0), 2).tolist()
    ([0.9, 0.5, 0.75], [0.09, 0.0, 0.43])
    """
    m = np.asarray(mean, dtype=float)
    s = np.asarray(sd, dtype=float)
    width = float(hi) - float(lo)
    if width <= 0 or not np.isfinite(width):
        return np.broadcast_to(m, (int(size), m.size)).copy()
    x = np.clip((m - lo) / width, 0.0, 1.0)
    v = (s / width) ** 2
    inner = (x > 0) & (x < 1) & (v > 0)
    top = x * (1.0 - x)
    k = np.where(inner, top / np.where(inner, v, 1.0) - 1.0, 1.0)
    beta = inner & (k > 0)
    two_point = inner & ~beta
    a = np.where(beta, x * k, 1.0)
    b = np.where(beta, (1.0 - x) * k, 1.0)
    shape = (int(size), m.size)
    z = rng.beta(np.broadcast_to(a, shape), np.broadcast_to(b, shape))
    u = rng.random(shape)
    unit = np.where(beta, z, np.where(two_point, (u < x).astype(float), x))
    return lo + width * unit
