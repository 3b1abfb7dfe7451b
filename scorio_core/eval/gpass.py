r"""G-Pass@k_tau, mG-Pass@k, maj@k and AUC@k.

Liu et al. (2024), "Are Your LLMs Capable of Stable Reasoning?", arXiv:2412.13147
(G-Pass@k_tau and mG-Pass@k; Eqs. 23-24 of the Bayes@N paper); Hu et al. (2026),
arXiv:2601.08763 (AUC@K). Posterior summaries as in the reference package ``scorio`` 0.2.3.
"""

from __future__ import annotations

import numpy as np

from scorio_core.eval import _binary
from scorio_core.eval._counts import binary_counts
from scorio_core.eval._scores import auc_values, mg_values, pass_values, tau_threshold, threshold_values
from scorio_core.eval._validate import check_tau, finite_k
from scorio_core.eval.passk import pass_at_k_ci, pass_hat_k, pass_hat_k_ci

__all__ = [
    "g_pass_at_k",
    "g_pass_at_k_ci",
    "g_pass_at_k_tau",
    "g_pass_at_k_tau_ci",
    "mg_pass_at_k",
    "mg_pass_at_k_ci",
    "maj_at_k",
    "maj_at_k_ci",
    "auc_at_k",
    "auc_at_k_ci",
]


def g_pass_at_k(R, k) -> float:
    r"""G-Pass@k (``tau = 1``), identical to :func:`pass_hat_k`.

    Source: Liu et al. (2024), arXiv:2412.13147 (G-Pass@k_tau at ``tau = 1``); Eq. 23 of the Bayes@N paper.

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N) or (N,), or BinaryCounts
        Binary outcomes (questions x trials).
    k : int
        Draws, ``1 <= k <= N``.

    Returns
    -------
    float
        Mean over questions of ``C(c, k) / C(N, k)``, in [0, 1].

    Raises
    ------
    TypeError
        Non-integer ``k``; non-numeric ``R``.
    ValueError
        ``k`` outside ``1..N``; non-binary ``R``.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]])
    >>> round(g_pass_at_k(R, 1), 6), round(g_pass_at_k(R, 2), 6)
    (0.7, 0.45)
    """
    return pass_hat_k(R, k)


def g_pass_at_k_ci(R, k, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0):
    r"""Posterior summary of G-Pass@k (``tau = 1``), identical to :func:`pass_hat_k_ci`.

    Source: the latent target ``p^k`` under ``p ~ Beta(alpha0 + c, beta0 + N - c)`` (Bayes@N paper,
    Appendix B; the reference package's ``g_pass_at_k_ci``).

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N) or (N,), or BinaryCounts
        Binary outcomes (questions x trials).
    k : int
        Draws, ``1 <= k <= N``.
    confidence : float, default 0.95
        Credibility level of the interval, ``0 < confidence < 1``.
    bounds : tuple (lo, hi) or None, default (0, 1)
        Clipping bounds for the interval.
    alpha0, beta0 : float, default 1
        ``Beta(alpha0, beta0)`` prior on each question's success probability.

    Returns
    -------
    mu, sigma, lo, hi : float
        Posterior mean and sd of the question-averaged latent target and the normal-approximation
        interval (clipped to ``bounds``), as in :func:`pass_at_k_ci`.

    Raises
    ------
    TypeError
        Non-integer ``k``; non-numeric ``R``; non-real ``confidence``, ``alpha0``, ``beta0``.
    ValueError
        ``k`` outside ``1..N``; non-binary ``R``; ``confidence`` outside (0, 1); ``bounds`` not an
        ordered pair; ``alpha0`` or ``beta0`` not a finite number > 0.
    FloatingPointError
        A non-finite posterior summary.
    """
    return pass_hat_k_ci(R, k, confidence=confidence, bounds=bounds, alpha0=alpha0, beta0=beta0)


def _tau_values(R, k, tau):
    counts = binary_counts(R)
    tau = check_tau(tau)
    k = finite_k(k, counts.min_trials)
    values = pass_values(k) if tau <= 0.0 else threshold_values(k, tau_threshold(tau, k))
    return counts, values


def g_pass_at_k_tau(R, k, tau) -> float:
    r"""G-Pass@k_tau: probability that at least ``ceil(tau k)`` of k draws are correct.

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N), or BinaryCounts
        Binary outcomes.
    k : int
        Draws, ``1 <= k <= N``.
    tau : float
        Threshold in ``[0, 1]``; ``tau = 0`` is Pass@k and ``tau = 1`` is Pass^k.

    Returns
    -------
    float
        Mean over questions of ``sum_{j >= j0} C(c, j) C(N - c, k - j) / C(N, k)``,
        ``j0 = ceil(tau k)`` (computed robustly: ``0.3 * 10`` requires 3, not 4).

    Raises
    ------
    TypeError
        Non-integer ``k``, non-real ``tau``.
    ValueError
        ``tau`` outside [0, 1], ``k`` outside ``1..N``, non-binary ``R``.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]])
    >>> round(g_pass_at_k_tau(R, 2, 0.5), 6), round(g_pass_at_k_tau(R, 2, 1.0), 6)
    (0.95, 0.45)
    """
    counts, values = _tau_values(R, k, tau)
    return _binary.finite_mean(counts, values)


def g_pass_at_k_tau_ci(R, k, tau, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0):
    r"""Posterior summary of the latent G-Pass@k_tau target.

    The target is ``P(Binomial(k, p) >= max(1, ceil(tau k)))`` per question under
    ``p ~ Beta(alpha0 + c, beta0 + N - c)``, averaged over questions.

    Parameters
    ----------
    R, k, tau
        As in :func:`g_pass_at_k_tau`.
    confidence, bounds, alpha0, beta0
        As in :func:`pass_at_k_ci`.

    Returns
    -------
    mu, sigma, lo, hi : float
    """
    counts, values = _tau_values(R, k, tau)
    return _binary.summary_ci(counts, values, confidence, bounds, alpha0, beta0)


def mg_pass_at_k(R, k) -> float:
    r"""mG-Pass@k: G-Pass@k_tau averaged over ``tau`` in [0.5, 1].

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N), or BinaryCounts
        Binary outcomes.
    k : int
        Draws, ``1 <= k <= N``.

    Returns
    -------
    float
        Mean over questions of ``(2/k) sum_{j=m+1}^{k} (j - m) P(X = j)``, ``m = ceil(k/2)``,
        ``X ~ Hypergeometric(N, c, k)`` (Eq. 24).

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]])
    >>> round(mg_pass_at_k(R, 2), 6), round(mg_pass_at_k(R, 3), 6)
    (0.45, 0.166667)
    """
    counts, k = _binary.prepare(R, k)
    return _binary.finite_mean(counts, mg_values(k))


def mg_pass_at_k_ci(R, k, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0):
    r"""Posterior summary of the latent mG-Pass@k target (closed-form weighting of thresholds).

    Source: Liu et al. (2024), arXiv:2412.13147 (mG-Pass@k, Eq. 24 of the Bayes@N paper); the latent
    target ``(2/k) E[(X - ceil(k/2))_+]``, ``X ~ Binomial(k, p)``, under the Beta posterior of ``p``.

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N) or (N,), or BinaryCounts
        Binary outcomes (questions x trials).
    k : int
        Draws, ``1 <= k <= N``.
    confidence : float, default 0.95
        Credibility level of the interval, ``0 < confidence < 1``.
    bounds : tuple (lo, hi) or None, default (0, 1)
        Clipping bounds for the interval.
    alpha0, beta0 : float, default 1
        ``Beta(alpha0, beta0)`` prior on each question's success probability.

    Returns
    -------
    mu, sigma, lo, hi : float
        Posterior mean and sd of the question-averaged latent target and the normal-approximation
        interval (clipped to ``bounds``), as in :func:`pass_at_k_ci`.

    Raises
    ------
    TypeError
        Non-integer ``k``; non-numeric ``R``; non-real ``confidence``, ``alpha0``, ``beta0``.
    ValueError
        ``k`` outside ``1..N``; non-binary ``R``; ``confidence`` outside (0, 1); ``bounds`` not an
        ordered pair; ``alpha0`` or ``beta0`` not a finite number > 0.
    FloatingPointError
        A non-finite posterior summary.
    """
    counts, k = _binary.prepare(R, k)
    return _binary.summary_ci(counts, mg_values(k), confidence, bounds, alpha0, beta0)


def maj_at_k(R, k) -> float:
    r"""maj@k: probability that a strict majority of k draws is correct.

    Equals G-Pass@k_tau with ``tau = (floor(k/2) + 1) / k``. Source: the reference package's ``maj_at_k``
    (majority vote of k draws for binary outcomes; Wang et al. 2023, self-consistency).

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N) or (N,), or BinaryCounts
        Binary outcomes (questions x trials).
    k : int
        Draws, ``1 <= k <= N``.

    Returns
    -------
    float
        Mean over questions of ``P(X >= floor(k/2) + 1)``, ``X ~ Hypergeometric(N, c, k)``, in [0, 1].

    Raises
    ------
    TypeError
        Non-integer ``k``; non-numeric ``R``.
    ValueError
        ``k`` outside ``1..N``; non-binary ``R``.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]])
    >>> round(maj_at_k(R, 1), 6), round(maj_at_k(R, 2), 6), round(maj_at_k(R, 3), 6)
    (0.7, 0.45, 0.85)
    """
    counts, k = _binary.prepare(R, k)
    return _binary.finite_mean(counts, threshold_values(k, k // 2 + 1))


def maj_at_k_ci(R, k, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0):
    r"""Posterior summary of maj@k (threshold ``floor(k/2) + 1``).

    Source: the latent target ``P(Binomial(k, p) >= floor(k/2) + 1)`` under the Beta posterior of ``p``
    (the reference package's ``maj_at_k_ci``).

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N) or (N,), or BinaryCounts
        Binary outcomes (questions x trials).
    k : int
        Draws, ``1 <= k <= N``.
    confidence : float, default 0.95
        Credibility level of the interval, ``0 < confidence < 1``.
    bounds : tuple (lo, hi) or None, default (0, 1)
        Clipping bounds for the interval.
    alpha0, beta0 : float, default 1
        ``Beta(alpha0, beta0)`` prior on each question's success probability.

    Returns
    -------
    mu, sigma, lo, hi : float
        Posterior mean and sd of the question-averaged latent target and the normal-approximation
        interval (clipped to ``bounds``), as in :func:`pass_at_k_ci`.

    Raises
    ------
    TypeError
        Non-integer ``k``; non-numeric ``R``; non-real ``confidence``, ``alpha0``, ``beta0``.
    ValueError
        ``k`` outside ``1..N``; non-binary ``R``; ``confidence`` outside (0, 1); ``bounds`` not an
        ordered pair; ``alpha0`` or ``beta0`` not a finite number > 0.
    FloatingPointError
        A non-finite posterior summary.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]])
    >>> mu, sigma, lo, hi = maj_at_k_ci(R, 2)
    >>> round(mu, 6), round(sigma, 6), round(lo, 4), round(hi, 4)
    (0.446429, 0.146167, 0.1599, 0.7329)
    >>> mu, sigma, lo, hi = maj_at_k_ci(R, 3)
    >>> round(mu, 6), round(sigma, 6), round(lo, 4), round(hi, 4)
    (0.684524, 0.151958, 0.3867, 0.9824)
    """
    counts, k = _binary.prepare(R, k)
    return _binary.summary_ci(counts, threshold_values(k, k // 2 + 1), confidence, bounds, alpha0, beta0)


def auc_at_k(R, k) -> float:
    r"""AUC@k: trapezoid area under the Pass@j curve, ``j = 1..k`` (Hu et al. 2026, arXiv:2601.08763).

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N), or BinaryCounts
        Binary outcomes.
    k : int
        Maximum budget, ``1 <= k <= N``.

    Returns
    -------
    float
        ``sum_j c_j Pass@j`` with ``c_1 = c_k = 1/(2(k-1))``, ``c_j = 1/(k-1)`` otherwise;
        AUC@1 = Pass@1.

    Raises
    ------
    TypeError
        Non-integer ``k``; non-numeric ``R``.
    ValueError
        ``k`` outside ``1..N``; non-binary ``R``.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]])
    >>> round(auc_at_k(R, 1), 6), round(auc_at_k(R, 2), 6), round(auc_at_k(R, 3), 6)
    (0.7, 0.825, 0.9)
    """
    counts, k = _binary.prepare(R, k)
    return _binary.finite_mean(counts, auc_values(k))


def auc_at_k_ci(R, k, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0):
    r"""Posterior summary of the latent AUC@k target (weighted sum of i.i.d. Pass@j).

    For ``k = 1`` this is :func:`pass_at_k_ci` with ``k = 1``. Source: Hu et al. (2026), arXiv:2601.08763
    (AUC@K), with the Beta posterior of the Bayes@N paper.

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N) or (N,), or BinaryCounts
        Binary outcomes (questions x trials).
    k : int
        Draws, ``1 <= k <= N``.
    confidence : float, default 0.95
        Credibility level of the interval, ``0 < confidence < 1``.
    bounds : tuple (lo, hi) or None, default (0, 1)
        Clipping bounds for the interval.
    alpha0, beta0 : float, default 1
        ``Beta(alpha0, beta0)`` prior on each question's success probability.

    Returns
    -------
    mu, sigma, lo, hi : float
        Posterior mean and sd of the question-averaged latent target and the normal-approximation
        interval (clipped to ``bounds``), as in :func:`pass_at_k_ci`.

    Raises
    ------
    TypeError
        Non-integer ``k``; non-numeric ``R``; non-real ``confidence``, ``alpha0``, ``beta0``.
    ValueError
        ``k`` outside ``1..N``; non-binary ``R``; ``confidence`` outside (0, 1); ``bounds`` not an
        ordered pair; ``alpha0`` or ``beta0`` not a finite number > 0.
    FloatingPointError
        A non-finite posterior summary.
    """
    if isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_)) and int(k) == 1:
        return pass_at_k_ci(R, 1, confidence=confidence, bounds=bounds, alpha0=alpha0, beta0=beta0)
    counts, k = _binary.prepare(R, k)
    return _binary.summary_ci(counts, auc_values(k), confidence, bounds, alpha0, beta0)
