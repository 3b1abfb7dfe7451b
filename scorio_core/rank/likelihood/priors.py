"""Prior penalties on log-strengths for the ``_map`` ranking methods of ``scorio.rank``.

Source: the reference package scorio 0.2.3 (``scorio.rank.priors``); same classes, constructor
arguments, penalties and errors. Besides ``penalty(theta)`` every built-in prior has
``penalty_rows(thetas)``: the penalties of a stack of vectors in one vectorised pass (each row's
value is bit-for-bit ``penalty(row)``), which the optimisers use for their finite differences.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

import numpy as np

__all__ = ["Prior", "EmpiricalPrior", "GaussianPrior", "LaplacePrior", "CauchyPrior", "UniformPrior", "CustomPrior"]


def _finite_scalar(value, name: str) -> float:
    """``value`` as a finite float: TypeError for a non-real-scalar (bool included), ValueError if not finite."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a finite scalar")
    try:
        value = float(value)
    except OverflowError as exc:
        raise ValueError(f"{name} must be finite") from exc
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite")
    return value


def _positive(value, name: str, label: str) -> float:
    value = _finite_scalar(value, name)
    if value <= 0:
        raise ValueError(f"{label} must be positive")
    return value


class Prior(ABC):
    """A prior penalty ``P(theta)`` (negative log-prior up to a constant) on log-strengths ``theta``."""

    @abstractmethod
    def penalty(self, theta: np.ndarray) -> float:
        """The penalty of one log-strength vector, shape (L,)."""

    def penalty_rows(self, thetas: np.ndarray) -> np.ndarray:
        """The penalties of the rows of ``thetas`` (B, L); generic fallback: one :meth:`penalty` call a row."""
        return np.array([float(self.penalty(row)) for row in thetas])


class GaussianPrior(Prior):
    """Isotropic Gaussian prior: ``P(theta) = sum_i (theta_i - mean)^2 / (2 var)``.

    Parameters
    ----------
    mean : float, default 0.0
    var : float, default 1.0
        Positive.

    Raises
    ------
    TypeError
        ``mean`` or ``var`` is not a real scalar.
    ValueError
        Not finite, or ``var <= 0``.
    """

    def __init__(self, mean: float = 0.0, var: float = 1.0):
        mean = _finite_scalar(mean, "Mean")
        self.mean, self.var = mean, _positive(var, "Variance", "Variance")

    def penalty(self, theta):
        return float(((theta - self.mean) ** 2).sum() / (2 * self.var))

    def penalty_rows(self, thetas):
        return ((thetas - self.mean) ** 2).sum(axis=1) / (2 * self.var)


class LaplacePrior(Prior):
    """Laplace prior: ``P(theta) = sum_i |theta_i - loc| / scale`` (``scale > 0``; errors as :class:`GaussianPrior`)."""

    def __init__(self, loc: float = 0.0, scale: float = 1.0):
        loc = _finite_scalar(loc, "Location")
        self.loc, self.scale = loc, _positive(scale, "Scale", "Scale")

    def penalty(self, theta):
        return float(np.abs(theta - self.loc).sum() / self.scale)

    def penalty_rows(self, thetas):
        return np.abs(thetas - self.loc).sum(axis=1) / self.scale


class CauchyPrior(Prior):
    """Cauchy prior: ``P(theta) = sum_i log(1 + ((theta_i - loc) / scale)^2)`` (``scale > 0``)."""

    def __init__(self, loc: float = 0.0, scale: float = 1.0):
        loc = _finite_scalar(loc, "Location")
        self.loc, self.scale = loc, _positive(scale, "Scale", "Scale")

    def penalty(self, theta):
        return float(np.log1p(((theta - self.loc) / self.scale) ** 2).sum())

    def penalty_rows(self, thetas):
        return np.log1p(((thetas - self.loc) / self.scale) ** 2).sum(axis=1)


class UniformPrior(Prior):
    """Improper flat prior: ``P(theta) = 0``; the ``_map`` methods then fit the maximum-likelihood model."""

    def penalty(self, theta):
        return 0.0

    def penalty_rows(self, thetas):
        return np.zeros(len(thetas))


class EmpiricalPrior(Prior):
    """Gaussian prior around centred empirical logits of a prior outcome tensor ``R0``.

    ``mu_l = logit(clip(mean(R0[l]), eps, 1 - eps))``, centred; ``P(theta) = sum_l (theta_l - mu_l)^2 / (2 var)``.

    Parameters
    ----------
    R0 : array_like, shape (L, M, D) or (L, M)
        Binary prior outcomes.
    var : float, default 1.0
        Positive.
    eps : float, default 1e-6
        In (0, 0.5).

    Raises
    ------
    TypeError
        ``var`` or ``eps`` is not a real scalar.
    ValueError
        Bad ``var``/``eps``; ``R0`` not 2-D/3-D, empty, non-numeric, complex, non-finite or non-binary;
        ``penalty`` of a vector of the wrong length.
    """

    def __init__(self, R0, var: float = 1.0, eps: float = 1e-6):
        var = _positive(var, "Variance", "Variance")
        eps = _finite_scalar(eps, "eps")
        if not 0.0 < eps < 0.5:
            raise ValueError("eps must be strictly between 0 and 0.5")
        R0 = np.asarray(R0)
        if R0.ndim == 2:
            R0 = R0[:, :, np.newaxis]
        elif R0.ndim != 3:
            raise ValueError(f"R0 must be 2D (L, M) or 3D (L, M, D), got ndim={R0.ndim}")
        if 0 in R0.shape:
            raise ValueError("R0 must be non-empty in every dimension")
        if not (np.issubdtype(R0.dtype, np.number) or np.issubdtype(R0.dtype, np.bool_)):
            raise ValueError(f"R0 must be numeric, got dtype {R0.dtype}")
        if np.issubdtype(R0.dtype, np.complexfloating):
            raise ValueError("R0 must contain real-valued outcomes")
        if not np.isfinite(R0).all():
            raise ValueError("R0 must not contain NaN or Inf values")
        if not np.all((R0 == 0) | (R0 == 1)):
            raise ValueError("R0 must contain only binary values (0 or 1)")
        self.R0 = R0.astype(int, copy=False)
        self.var, self.eps = var, eps
        acc = np.clip(self.R0.reshape(len(R0), -1).mean(axis=1), eps, 1 - eps)
        mu = np.log(acc / (1 - acc))
        self.prior_mean = mu - mu.mean()

    def _check(self, n: int) -> None:
        if n != len(self.prior_mean):
            raise ValueError(f"theta length ({n}) must match number of models ({len(self.prior_mean)})")

    def penalty(self, theta):
        self._check(len(theta))
        return float(((theta - self.prior_mean) ** 2).sum() / (2 * self.var))

    def penalty_rows(self, thetas):
        self._check(thetas.shape[1])
        return ((thetas - self.prior_mean) ** 2).sum(axis=1) / (2 * self.var)


class CustomPrior(Prior):
    """A user penalty callable ``penalty_fn(theta) -> float`` (called as given; nothing is evaluated from text).

    Raises
    ------
    ValueError
        ``penalty_fn`` is not callable.
    """

    def __init__(self, penalty_fn: Callable[[np.ndarray], float]):
        if not callable(penalty_fn):
            raise ValueError("penalty_fn must be callable")
        self._penalty_fn = penalty_fn

    def penalty(self, theta):
        return self._penalty_fn(theta)
