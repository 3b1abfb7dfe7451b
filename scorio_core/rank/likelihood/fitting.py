"""Shared machinery of the paired-comparison models (:mod:`scorio_core.rank.likelihood.paired`).

Exact-symmetry averaging, the reference's argument checks (pairwise win/tie counts and strong
connectivity are :mod:`scorio_core.rank.graph`'s, re-exported here), and the reference-faithful L-BFGS-B driver (see the ``paired`` docstring).
Source: the reference package scorio 0.2.3 (``scorio.rank._base``, ``scorio.rank.bradley_terry``).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from scorio_core.arrays import equal_rows, group_mean
from scorio_core.limits import single_threaded_blas
from scorio_core.rank.graph import pairwise_counts, strongly_connected
from scorio_core.rank.likelihood.priors import GaussianPrior, Prior

__all__ = ["pairwise_counts", "strongly_connected", "average_equal_rows", "check_max_iter", "coerce_prior",
           "sequential_total", "lbfgs", "centred_strengths"]


def average_equal_rows(scores: np.ndarray, stats: np.ndarray) -> np.ndarray:
    """Scores of models with identical rows of ``stats`` replaced by their group mean (exact symmetries).

    The groups are :func:`scorio_core.arrays.equal_rows` (exact); each group's scores are summed in row order,
    whatever the groups' numbering.
    """
    return group_mean(scores, equal_rows(np.asarray(stats).reshape(len(scores), -1))[1])


def check_int(value, name: str, minimum: int = 1) -> int:
    """Validate an integer argument (not bool) ``>= minimum``; return ``int(value)``.

    Messages match the reference's: ``TypeError("<name> must be an integer, got <type>")``,
    ``ValueError("<name> must be >= <minimum>, got <value>")``.
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return value


def check_max_iter(max_iter) -> int:
    """``max_iter`` as a positive int (TypeError / ValueError as the reference)."""
    if isinstance(max_iter, bool) or not isinstance(max_iter, (int, np.integer)):
        raise TypeError(f"max_iter must be an integer, got {type(max_iter).__name__}")
    if max_iter <= 0:
        raise ValueError(f"max_iter must be > 0, got {max_iter}")
    return int(max_iter)


def coerce_prior(prior, positive_message: str = "prior must be a positive finite scalar variance") -> Prior:
    """A float is the variance of ``GaussianPrior(0, var)``; a :class:`Prior` is used as is; TypeError otherwise."""
    if isinstance(prior, bool):
        raise TypeError("prior must be a Prior object or positive finite float")
    if isinstance(prior, (int, float, np.integer, np.floating)):
        var = float(prior)
        if not np.isfinite(var) or var <= 0.0:
            raise ValueError(positive_message.format(value=prior))
        return GaussianPrior(mean=0.0, var=var)
    if not isinstance(prior, Prior):
        raise TypeError(f"prior must be a Prior object or float, got {type(prior).__name__}")
    return prior


def sequential_total(terms: np.ndarray) -> np.ndarray:
    """Left-to-right sums of the rows of ``terms`` (B, K): ``((0 + t1) + t2) + ...``, as a Python loop adds."""
    return np.cumsum(terms, axis=1)[:, -1]


def lbfgs(objective, x0: np.ndarray, max_iter: int, name: str) -> np.ndarray:
    """scipy L-BFGS-B (finite-difference gradients) on ``objective`` (rows of points -> values), as the reference.

    The finite-difference points of an iteration are evaluated in one call through scipy's ``workers``
    hook; every other setting is scipy's default. Raises RuntimeError ``"<name> optimization failed: ..."``
    when scipy reports no success.
    """
    def workers(_fun, points):
        return [np.atleast_1d(v) for v in objective(np.array(list(points)))]

    with single_threaded_blas():  # L-BFGS-B's small BLAS calls: threads only add overhead (same values)
        result = minimize(lambda x: float(objective(x[None, :])[0]), x0, method="L-BFGS-B",
                          options={"maxiter": max_iter, "workers": workers})
    if not result.success:
        raise RuntimeError(f"{name} optimization failed: {result.message}")
    return result.x


def centred_strengths(x: np.ndarray) -> np.ndarray:
    """``exp`` of the centred log-strengths, clipped to [-30, 30]."""
    return np.exp(np.clip(x - x.mean(), -30.0, 30.0))
