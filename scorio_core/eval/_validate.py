"""Shared argument validation for the evaluation API.

Every public metric validates its arguments here, once, and then calls kernels that
assume clean input. Errors follow one template: the argument, the rule, the value
received. ``TypeError`` for a wrong type, ``ValueError`` for a wrong value.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = [
    "as_outcome_matrix",
    "refuse_pooled_counts",
    "as_weights",
    "as_prior_matrix",
    "check_binary",
    "check_category_range",
    "finite_k",
    "latent_k",
    "check_tau",
    "check_confidence",
    "check_bounds",
    "check_beta_prior",
    "check_power",
    "check_lambda",
]


def _describe(value: object) -> str:
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(value).__name__})"


def refuse_pooled_counts(values: object, name: str = "R") -> None:
    """Raise ``TypeError`` for a :class:`scorio_core.rubric.CategoryCounts` (counts per model pooled over questions).

    Recognised by its class name and fields, so this module imports neither pandas nor the rubric package.
    """
    if type(values).__name__ == "CategoryCounts" and all(hasattr(values, f) for f in ("groups", "labels", "unmatched")):
        raise TypeError(
            f"{name} is a scorio_core.rubric CategoryCounts: category counts per model pooled over questions "
            f"({len(values.groups)} groups), not one question per row. The metrics need per-question counts: "
            "o = scorio_core.leaderboard.table.outcomes_for(dataset, task, categorization_for(dataset, schema)[0]).rubric; "
            "c = o.counts[l] is model l's (questions, C+1) counts (drop rows with no trial, c[c.sum(1) > 0]); then "
            "eval.bayes(eval.CategoryCounts(c), o.weights). Or pass one model's (M, N) category codes as R."
        )


def as_outcome_matrix(values: object, name: str = "R", allow_empty_trials: bool = False) -> np.ndarray:
    """Validate an outcome matrix and return it as a 2-D int64 array.

    A 1-D input is one question (shape ``(1, N)``). Accepts bool, integer and
    integral-float arrays, as the reference package does.

    Raises
    ------
    TypeError
        If the entries are not numbers or booleans.
    ValueError
        If the array is not 1-D/2-D, is empty, or holds non-finite or non-integral values.
    """
    refuse_pooled_counts(values, name)
    try:
        array = np.asarray(values)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a rectangular array of integers; got a ragged or malformed sequence.") from exc
    if array.ndim == 1:
        array = array.reshape(1, -1)
    elif array.ndim != 2:
        raise ValueError(f"{name} must be 1-D (one question) or 2-D (M questions x N trials); got {array.ndim} dimensions.")
    kind = array.dtype.kind
    if kind == "c":
        raise TypeError(f"{name} must hold real integers; got complex dtype {array.dtype}.")
    if kind not in "biuf":
        raise TypeError(f"{name} must hold integers or booleans; got dtype {array.dtype}.")
    m, n = array.shape
    if m == 0:
        raise ValueError(f"{name} must contain at least one question (M >= 1); got shape {array.shape}.")
    if n == 0 and not allow_empty_trials:
        raise ValueError(f"{name} must contain at least one trial (N >= 1); got shape {array.shape}.")
    if kind == "f":
        if not np.all(np.isfinite(array)):
            raise ValueError(f"{name} must contain only finite values; got NaN or infinity.")
        if not np.all(array == np.trunc(array)):
            bad = array[array != np.trunc(array)].flat[0].item()
            raise ValueError(f"{name} must contain integer-valued entries; got {bad!r}.")
        if array.size and (array.min() < -(2.0**63) or array.max() >= 2.0**63):
            raise ValueError(f"{name} entries must fit in a signed 64-bit integer.")
    elif kind == "u" and array.size and array.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{name} entries must fit in a signed 64-bit integer.")
    return array.astype(np.int64, copy=False)


def check_binary(matrix: np.ndarray, name: str = "R") -> None:
    """Raise ``ValueError`` unless every entry is 0 or 1."""
    if matrix.size and (matrix.min() < 0 or matrix.max() > 1):
        bad = matrix[(matrix < 0) | (matrix > 1)].flat[0]
        raise ValueError(f"{name} must be binary (entries 0 or 1); got {int(bad)}.")


def check_category_range(matrix: np.ndarray, n_categories: int, name: str = "R") -> None:
    """Raise ``ValueError`` unless entries lie in ``0..n_categories-1``."""
    if matrix.size and (matrix.min() < 0 or matrix.max() >= n_categories):
        bad = matrix[(matrix < 0) | (matrix >= n_categories)].flat[0]
        raise ValueError(
            f"{name} entries must be category codes in [0, {n_categories - 1}] "
            f"(len(w) = {n_categories}); got {int(bad)}."
        )


def as_weights(w: object, matrix: np.ndarray | None = None) -> np.ndarray:
    """Validate a weight vector ``w`` of shape ``(C+1,)``; ``None`` means binary ``[0, 1]``.

    Raises
    ------
    TypeError
        If ``w`` holds non-numeric values.
    ValueError
        If ``w`` is not a non-empty 1-D finite vector, or ``w`` is None and R is not binary.
    """
    if w is None:
        if matrix is not None and matrix.size and (matrix.min() < 0 or matrix.max() > 1):
            observed = ", ".join(str(v) for v in np.unique(matrix)[:8])
            raise ValueError(
                f"w is required when R is not binary; R holds categories {{{observed}}}. "
                "Pass a weight per category, e.g. w=[0, 0.5, 1]."
            )
        return np.array([0.0, 1.0])
    try:
        array = np.asarray(w)
    except (TypeError, ValueError) as exc:
        raise ValueError("w must be a 1-D array of finite numbers.") from exc
    if array.dtype.kind == "c":
        raise TypeError(f"w must hold real numbers; got complex dtype {array.dtype}.")
    if array.dtype.kind not in "biuf":
        raise TypeError(f"w must hold numbers; got dtype {array.dtype}.")
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"w must be a non-empty 1-D vector of length C+1; got shape {array.shape}.")
    with np.errstate(over="ignore", invalid="ignore"):
        out = array.astype(np.float64)
    if not np.all(np.isfinite(out)):
        raise ValueError("w must contain only finite values; got NaN or infinity.")
    return out


def as_prior_matrix(R0: object, n_questions: int) -> np.ndarray:
    """Validate prior outcomes ``R0`` of shape ``(M, D)``; a 1-D R0 is reshaped to M rows."""
    if R0 is None:
        return np.empty((n_questions, 0), dtype=np.int64)
    refuse_pooled_counts(R0, "R0")
    try:
        array = np.asarray(R0)
    except (TypeError, ValueError) as exc:
        raise ValueError("R0 must be a rectangular array of integers.") from exc
    if array.ndim == 1:
        if array.size % n_questions:
            raise ValueError(
                f"A 1-D R0 must hold a multiple of M={n_questions} entries (one block per question); got {array.size}."
            )
        array = array.reshape(n_questions, -1)
    elif array.ndim != 2:
        raise ValueError(f"R0 must be 1-D or 2-D (M x D); got {array.ndim} dimensions.")
    if array.shape[0] != n_questions:
        raise ValueError(f"R0 must have one row per question (M={n_questions}); got {array.shape[0]} rows.")
    return as_outcome_matrix(array, name="R0", allow_empty_trials=True)


def _integer(value: object, name: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer; got {_describe(value)}.")
    return int(value)


def finite_k(k: object, n_trials: int) -> int:
    """Validate ``1 <= k <= N`` for finite-sample estimators; return ``int(k)``."""
    k = _integer(k, "k")
    if not 1 <= k <= n_trials:
        raise ValueError(f"k must satisfy 1 <= k <= N (N={n_trials}); got k={k}.")
    return k


def latent_k(k: object) -> int:
    """Validate ``k >= 1`` for latent (posterior) targets; return ``int(k)``."""
    k = _integer(k, "k")
    if k < 1:
        raise ValueError(f"k must satisfy k >= 1; got k={k}.")
    return k


def _real(value: object, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number; got {_describe(value)}.")
    return float(value)


def check_tau(tau: object) -> float:
    """Validate ``0 <= tau <= 1``."""
    tau = _real(tau, "tau")
    if not 0.0 <= tau <= 1.0:
        raise ValueError(f"tau must satisfy 0 <= tau <= 1; got tau={tau}.")
    return tau


def check_confidence(confidence: object) -> float:
    """Validate ``0 < confidence < 1``."""
    confidence = _real(confidence, "confidence")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must satisfy 0 < confidence < 1; got confidence={confidence}.")
    return confidence


def check_bounds(bounds: object) -> tuple[float, float] | None:
    """Validate optional clipping bounds ``(lo, hi)`` with ``lo <= hi``."""
    if bounds is None:
        return None
    try:
        lo, hi = bounds  # type: ignore[misc]
    except (TypeError, ValueError) as exc:
        raise TypeError(f"bounds must be a pair (lo, hi) or None; got {_describe(bounds)}.") from exc
    lo, hi = _real(lo, "bounds[0]"), _real(hi, "bounds[1]")
    if math.isnan(lo) or math.isnan(hi):
        raise ValueError(f"bounds must not be NaN; got ({lo}, {hi}).")
    if lo > hi:
        raise ValueError(f"bounds must satisfy bounds[0] <= bounds[1]; got ({lo}, {hi}).")
    return lo, hi


def check_beta_prior(alpha0: object, beta0: object) -> tuple[float, float]:
    """Validate Beta prior parameters ``alpha0 > 0``, ``beta0 > 0`` (finite)."""
    out = []
    for name, value in (("alpha0", alpha0), ("beta0", beta0)):
        v = _real(value, name)
        if not (math.isfinite(v) and v > 0.0):
            raise ValueError(f"{name} must be a finite number > 0; got {name}={v}.")
        out.append(v)
    return out[0], out[1]


def check_power(value: object, name: str) -> float:
    """Validate a finite real exponent."""
    v = _real(value, name)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite; got {name}={v}.")
    return v


def check_lambda(lam: object, lambda_: object = None) -> float:
    """Resolve ``lam`` / its alias ``lambda_`` and validate ``0 <= lam <= 1``."""
    if lambda_ is not None:
        if lam != 0.5:
            raise TypeError("Specify at most one of 'lam' and 'lambda_'.")
        lam = lambda_
    lam = _real(lam, "lam")
    if not 0.0 <= lam <= 1.0:
        raise ValueError(f"lam must satisfy 0 <= lam <= 1; got lam={lam}.")
    return lam


# ----------------------------------------------------------------------------------------
# Shared by the rest of the numeric core (rank, separation, trajectory, convergence).


def check_int(value: object, name: str, minimum: int | None = None) -> int:
    """Validate an integer (not bool) with an optional lower bound; return ``int(value)``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer; got {_describe(value)}.")
    if minimum is not None and int(value) < minimum:
        raise ValueError(f"{name} must be >= {minimum}; got {name}={int(value)}.")
    return int(value)


def real_vector(values: object, name: str, *, min_size: int = 1) -> np.ndarray:
    """A 1-D vector of finite real numbers as float64."""
    try:
        array = np.asarray(values)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a 1-D array of finite numbers; got a ragged sequence.") from exc
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold real numbers; got dtype {array.dtype}.")
    if array.ndim != 1 or array.size < min_size:
        raise ValueError(f"{name} must be 1-D with at least {min_size} entries; got shape {array.shape}.")
    out = array.astype(float)
    if not np.all(np.isfinite(out)):
        raise ValueError(f"{name} must contain only finite values; got NaN or infinity.")
    return out


def count_array(values: object, name: str, shape_doc: str, ndim: int) -> np.ndarray:
    """Non-negative whole-number counts with ``ndim`` non-empty axes, as float64."""
    array = np.asarray(values)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold non-negative integer counts; got dtype {array.dtype}.")
    if array.ndim != ndim or min(array.shape) == 0:
        raise ValueError(f"{name} must have shape {shape_doc} with no empty axis; got shape {array.shape}.")
    out = array.astype(float)
    if not np.all(np.isfinite(out)) or np.any(out < 0) or np.any(out != np.trunc(out)):
        raise ValueError(f"{name} must hold non-negative whole numbers; got a negative, fractional or non-finite value.")
    return out


def nonnegative_array(values: object, name: str, shapes: tuple[tuple[int, ...], ...]) -> np.ndarray:
    """Finite, non-negative float array whose shape is one of ``shapes`` (prior counts)."""
    array = np.asarray(values)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold non-negative numbers; got dtype {array.dtype}.")
    if array.shape not in shapes:
        expected = " or ".join(str(s) for s in shapes)
        raise ValueError(f"{name} must have shape {expected}; got {array.shape}.")
    out = array.astype(float)
    if not np.all(np.isfinite(out)) or np.any(out < 0):
        raise ValueError(f"{name} must be finite and >= 0.")
    return out


def weights_for(w: object, n_categories: int) -> np.ndarray:
    """Weights of ``n_categories`` categories; ``None`` is binary ``[0, 1]`` (needs 2 categories)."""
    if w is None:
        if n_categories != 2:
            raise ValueError(f"w is required with {n_categories} categories (the binary default needs 2).")
        return np.array([0.0, 1.0])
    out = real_vector(w, "w")
    if out.size != n_categories:
        raise ValueError(f"w must have one weight per category (C+1={n_categories}); got {out.size}.")
    return out
