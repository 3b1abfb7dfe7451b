r"""Related metrics from the other seed documents, and how they map onto this API.

* AISBench ("Accuracy Evaluation Scenarios: Analysis of Evaluation Metrics"): pass@k is
  the unbiased estimator :func:`~scorio_core.eval.pass_at_k`; avg@n is
  :func:`~scorio_core.eval.avg` (binary); cons@k ``= (1/M) sum_i 1[c_i > k/2]`` with
  ``n = k`` trials is :func:`cons_at_k`, identical to ``maj_at_k(R, N)`` (a strict
  majority of all N trials). Worked example (n = k = 3, correct counts 2, 2, 1, 0):
  pass@3 = 0.75, avg@3 = 0.4167, cons@3 = 0.5.
* skill-eval scoring module (TypeScript): ``passAtKNaive = 1 - (1 - p)^k`` and
  ``passToTheK = p^k`` are plug-in estimators at the observed rate ``p = c/n``
  (:func:`pass_at_k_naive`, :func:`pass_hat_k_naive`); they are biased for finite n, which is
  why :func:`~scorio_core.eval.pass_at_k` uses ``1 - C(n-c, k)/C(n, k)``. Bayes@N replaces
  the plug-in rate by its posterior. :func:`flakiness` reports questions with
  ``0 < c/n < 1`` and the minority-outcome share.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from scorio_core.eval._counts import binary_counts
from scorio_core.eval._validate import latent_k

__all__ = ["cons_at_k", "pass_at_k_naive", "pass_hat_k_naive", "flakiness", "Flakiness"]


def cons_at_k(R) -> float:
    r"""AISBench cons@k: share of questions where a strict majority of the trials is correct.

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N), or BinaryCounts
        Binary outcomes; AISBench fixes ``k = n = N`` (num_return_sequences).

    Returns
    -------
    float
        ``(1/M) sum_a 1[c_a > N_a / 2]``; equals ``maj_at_k(R, N)`` when rows have N trials.

    Examples
    --------
    AISBench worked example (n = k = 3; correct counts 2, 2, 1, 0):

    >>> import numpy as np
    >>> R = np.array([[1, 1, 0], [1, 0, 1], [0, 0, 1], [0, 0, 0]])
    >>> cons_at_k(R)
    0.5
    """
    counts = binary_counts(R)
    return float(np.mean(2 * counts.n_correct > counts.n_trials))


def pass_at_k_naive(pass_rate, k):
    r"""Plug-in Pass@k ``1 - (1 - p)^k`` (skill-eval ``passAtKNaive``); biased, for comparison.

    Parameters
    ----------
    pass_rate : float or array-like in [0, 1]
        Observed per-trial pass rate ``p = c / n``.
    k : int
        Attempts, ``k >= 1``.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(pass_at_k_naive(0.8, 5), 5)
    0.99968
    """
    p = _rate(pass_rate)
    k = latent_k(k)
    out = -np.expm1(k * np.log1p(-p)) if np.all(p < 1) else 1.0 - (1.0 - p) ** k
    return float(out) if np.ndim(out) == 0 else out


def pass_hat_k_naive(pass_rate, k):
    r"""Plug-in Pass^k ``p^k`` (skill-eval ``passToTheK``).

    Biased for a finite bank (the unbiased estimator is :func:`~scorio_core.eval.pass_hat_k`).
    Source: the skill-eval scoring module's ``passToTheK`` (see the module docstring).

    Parameters
    ----------
    pass_rate : float or array-like of float
        Observed pass rate(s) ``p = c/n`` in [0, 1].
    k : int
        Trials, ``k >= 1``.

    Returns
    -------
    float or ndarray
        ``p**k``: a float for a scalar rate, an array of the rates' shape otherwise.

    Raises
    ------
    TypeError
        Non-numeric ``pass_rate``; non-integer ``k``.
    ValueError
        ``pass_rate`` outside [0, 1] or not finite; ``k < 1``.

    Examples
    --------
    >>> round(pass_hat_k_naive(0.8, 5), 3)   # skill-eval doc: 80% pass rate, 5 trials -> 0.328
    0.328
    """
    p = _rate(pass_rate)
    k = latent_k(k)
    out = p**k
    return float(out) if np.ndim(out) == 0 else out


def _rate(pass_rate) -> np.ndarray:
    p = np.asarray(pass_rate)
    if p.dtype.kind not in "biuf":
        raise TypeError(f"pass_rate must be a number in [0, 1]; got dtype {p.dtype}.")
    p = p.astype(float)
    if np.any(~np.isfinite(p) | (p < 0) | (p > 1)):
        raise ValueError(f"pass_rate must lie in [0, 1]; got {pass_rate!r}.")
    return p


class Flakiness(NamedTuple):
    """Per-question flakiness: ``flaky`` (0 < rate < 1) and ``percent`` (minority share x 100)."""

    flaky: np.ndarray
    percent: np.ndarray


def flakiness(R) -> Flakiness:
    r"""Flaky questions (skill-eval): ``0 < c/n < 1``, and ``min(c, n - c) / n * 100``.

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N), or BinaryCounts

    Returns
    -------
    Flakiness
        ``flaky`` (bool, shape (M,)) and ``percent`` (float, shape (M,), in [0, 50]).

    Examples
    --------
    >>> import numpy as np
    >>> f = flakiness(np.array([[1, 1, 0, 1, 1], [1, 1, 1, 1, 1]]))
    >>> f.flaky.tolist(), f.percent.tolist()
    ([True, False], [20.0, 0.0])
    """
    counts = binary_counts(R)
    c, n = counts.n_correct, counts.n_trials
    return Flakiness((c > 0) & (c < n), 100.0 * np.minimum(c, n - c) / n)
