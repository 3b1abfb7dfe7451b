r"""Pass@k and Pass^k: unbiased finite-sample estimators and Beta-posterior summaries.

Chen et al. (2021), arXiv:2107.03374 (Pass@k, Eq. 21 of the Bayes@N paper); Yao et al.
(2024), tau-bench, arXiv:2406.12045 (Pass^k, Eq. 22). Posterior summaries follow the
reference package ``scorio`` 0.2.3: each question's success probability has a
``Beta(alpha0 + c, beta0 + N - c)`` posterior and questions are independent.
"""

from __future__ import annotations

from scorio_core.eval import _binary
from scorio_core.eval._scores import pass_values, threshold_values

__all__ = ["pass_at_k", "pass_at_k_ci", "pass_hat_k", "pass_hat_k_ci", "unanimous_at_k", "unanimous_at_k_ci"]


def pass_at_k(R, k) -> float:
    r"""Unbiased Pass@k: probability that at least one of k draws is correct.

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N) or (N,), or BinaryCounts
        Binary outcomes, ``R[a, i] = 1`` if trial ``i`` of question ``a`` passed.
        With :class:`BinaryCounts` rows may have different ``N`` (then ``k <= min N``).
    k : int
        Draws, ``1 <= k <= N``.

    Returns
    -------
    float
        Mean over questions of ``1 - C(N - c_a, k) / C(N, k)``, in [0, 1].

    Raises
    ------
    TypeError
        Non-integer ``k`` or non-numeric ``R``.
    ValueError
        Non-binary or empty ``R``; ``k`` outside ``1..N``.

    Notes
    -----
    ``c_a = sum_i R_ai``. Pass@1 equals avg@N; the estimator is unbiased for the
    probability of at least one success in ``k`` i.i.d. attempts (Chen et al., 2021).

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1],
    ...               [1, 1, 0, 1, 1]])
    >>> round(pass_at_k(R, 1), 6), round(pass_at_k(R, 2), 6)
    (0.7, 0.95)
    """
    counts, k = _binary.prepare(R, k)
    return _binary.finite_mean(counts, pass_values(k))


def pass_hat_k(R, k) -> float:
    r"""Pass^k (Pass-hat@k, unanimous@k): probability that all k draws are correct.

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N) or (N,), or BinaryCounts
        Binary outcomes.
    k : int
        Draws, ``1 <= k <= N``.

    Returns
    -------
    float
        Mean over questions of ``C(c_a, k) / C(N, k)``, in [0, 1].

    Raises
    ------
    TypeError, ValueError
        As in :func:`pass_at_k`.

    Notes
    -----
    Yao et al. (2024), Eq. 22 of the Bayes@N paper. Equals G-Pass@k with ``tau = 1``.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1],
    ...               [1, 1, 0, 1, 1]])
    >>> round(pass_hat_k(R, 1), 6), round(pass_hat_k(R, 2), 6)
    (0.7, 0.45)
    """
    counts, k = _binary.prepare(R, k)
    return _binary.finite_mean(counts, threshold_values(k, k))


def pass_at_k_ci(R, k, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0) -> tuple[float, float, float, float]:
    r"""Bayesian mean, sigma and credible interval of the i.i.d. Pass@k target.

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N), or BinaryCounts
        Binary outcomes.
    k : int
        Draws, ``1 <= k <= N``.
    confidence : float, default 0.95
        Credibility level of the interval.
    bounds : tuple (lo, hi) or None, default (0, 1)
        Clipping bounds for the interval.
    alpha0, beta0 : float, default 1
        ``Beta(alpha0, beta0)`` prior on each question's success probability.

    Returns
    -------
    mu, sigma, lo, hi : float
        Posterior mean and sd of ``(1/M) sum_a g(p_a)`` with ``g(p) = 1 - (1-p)^k``, and
        the normal-approximation interval. The interval covers uncertainty from the finite
        trials of each question (questions fixed), not a resampling of questions.

    Notes
    -----
    ``p_a | R ~ Beta(alpha0 + c_a, beta0 + N - c_a)``;
    ``E[g] = 1 - B(a, b + k) / B(a, b)``; ``sigma = sqrt(sum_a Var[g(p_a)]) / M``.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1],
    ...               [1, 1, 0, 1, 1]])
    >>> mu, sigma, lo, hi = pass_at_k_ci(R, 1)
    >>> round(mu, 6), round(sigma, 6), round(lo, 4), round(hi, 4)
    (0.642857, 0.118451, 0.4107, 0.875)
    >>> mu, sigma, lo, hi = pass_at_k_ci(R, 2)
    >>> round(mu, 6), round(sigma, 6), round(lo, 4), round(hi, 4)
    (0.839286, 0.097263, 0.6487, 1.0)
    """
    counts, k = _binary.prepare(R, k)
    return _binary.summary_ci(counts, pass_values(k), confidence, bounds, alpha0, beta0)


def pass_hat_k_ci(R, k, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0) -> tuple[float, float, float, float]:
    r"""Bayesian mean, sigma and credible interval of the i.i.d. Pass^k target ``p^k``.

    Parameters
    ----------
    R, k, confidence, bounds, alpha0, beta0
        As in :func:`pass_at_k_ci`.

    Returns
    -------
    mu, sigma, lo, hi : float
        ``E[p^k] = B(a + k, b) / B(a, b)`` averaged over questions, its sd and interval.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1],
    ...               [1, 1, 0, 1, 1]])
    >>> mu, sigma, lo, hi = pass_hat_k_ci(R, 2)
    >>> round(mu, 6), round(sigma, 6), round(lo, 4), round(hi, 4)
    (0.446429, 0.146167, 0.1599, 0.7329)
    """
    counts, k = _binary.prepare(R, k)
    return _binary.summary_ci(counts, threshold_values(k, k), confidence, bounds, alpha0, beta0)


unanimous_at_k = pass_hat_k
unanimous_at_k_ci = pass_hat_k_ci
