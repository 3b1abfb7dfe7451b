"""Priors of the IRT fit (:mod:`scorio_core.items.irt`) and the two steps that depend on them.

* :data:`PRIORS`: ability N(0, 1), difficulty N(0, 3^2) (the first fit's; the reported fit uses the SD estimated
  from the data), discrimination N(1, 1.5^2) on ``a`` itself;
* :func:`difficulty_prior_sd`: that SD by a moment step of empirical Bayes (Morris 1983);
* :func:`ability_scale`: a 2PL mode put on the scale the ability prior defines.

:mod:`scorio_core.items.irt` re-exports every name here.
"""

from __future__ import annotations

import numpy as np

__all__ = ["PRIORS", "B_PRIORS", "B_PRIOR_SD_BOUNDS", "MIN_QUESTIONS_FOR_B_PRIOR", "difficulty_prior_sd",
           "ability_scale", "has_scale"]

#: Prior means and standard deviations: ability, difficulty, discrimination. The difficulty SD is the first fit's:
#: :func:`~scorio_core.items.irt.fit_irt` (by default) refits with one estimated from the data
#: (:func:`difficulty_prior_sd`).
PRIORS = {"theta": (0.0, 1.0), "b": (0.0, 3.0), "a": (1.0, 1.5)}
#: Bounds of the estimated difficulty prior SD (the default 3 is the upper bound: the estimate only tightens it).
B_PRIOR_SD_BOUNDS = (0.5, 3.0)
#: Answered questions needed to estimate the difficulty prior's SD; with fewer the default is kept.
MIN_QUESTIONS_FOR_B_PRIOR = 10
#: Difficulty priors of :func:`~scorio_core.items.irt.fit_irt`: the SD estimated from the data (default) or the fixed 3.
B_PRIORS = ("empirical-bayes", "fixed")


def difficulty_prior_sd(b, b_se, seen) -> float:
    """The difficulty prior's SD estimated from a first fit: a moment step of empirical Bayes.

    With ``b_j ~ N(0, tau^2)`` and estimates ``b_hat_j`` of error SD ``se_j``, ``E[b_hat^2] ~ tau^2 + se^2``, so
    ``tau^2 = mean(b_hat^2) - mean(se^2)`` over the answered questions (Morris 1983's moment estimator of a
    normal prior's variance), clipped to :data:`B_PRIOR_SD_BOUNDS`. The default N(0, 3^2) is then a bound: on
    the recovery designs of ``benchmarks/bench_items_recovery.py`` it is wider than the difficulties' spread,
    which inflates the location part of every Laplace SE and under-shrinks the noisiest difficulties; with the
    estimated SD the abilities' 95% intervals cover at 0.951-0.967 over six designs (0.929-0.983 with the fixed
    prior) and no correlation with the truth drops (docs/items.md, "Recovery").

    Parameters
    ----------
    b, b_se : ndarray, shape (M,)
        Difficulties of the first fit (on the mode's scale) and their standard errors.
    seen : ndarray of bool, shape (M,)
        Questions with at least one trial (the others are the prior's).

    Returns
    -------
    float
        The SD, in ``B_PRIOR_SD_BOUNDS``.

    References
    ----------
    Morris, C. N. (1983). Parametric empirical Bayes inference: theory and applications. JASA 78(381), 47-55.
    """
    b, b_se = np.asarray(b, dtype=float)[seen], np.asarray(b_se, dtype=float)[seen]
    lo, hi = B_PRIOR_SD_BOUNDS
    if b.size == 0:
        return hi
    return float(np.clip(np.sqrt(max(float(np.mean(b**2) - np.mean(b_se**2)), 0.0)), lo, hi))


def has_scale(theta, seen) -> bool:
    """Whether the abilities of the models that answered (``seen``) spread enough to set the 2PL's scale by: at
    least 2 such models, mean square above 1e-12 and range above 1e-6 (else :func:`ability_scale` leaves the mode
    as it is, and the Laplace covariance is not conditioned on a direction of rounding noise)."""
    seen = np.asarray(seen, dtype=bool)
    k = int(seen.sum())
    return k >= 2 and float(np.mean(theta[seen] ** 2)) > 1e-12 and float(np.ptp(theta[seen])) > 1e-6


def ability_scale(theta, theta_se, b, b_se, a, a_se, seen):
    """Put a 2PL mode on the scale its ability prior defines: the abilities' mean square is 1.

    The 2PL likelihood is unchanged by ``theta -> theta / c``, ``b -> b / c``, ``a -> a c``. At the joint
    mode the scale ``c`` is set by a tug of war between the ability prior N(0, 1) (which pulls abilities in)
    and the discrimination prior N(1, 1.5^2) summed over every question (which pulls each ``a`` toward 1):
    with hundreds of questions whose discriminations are far from 1 (LLM benchmarks fit ``a`` of 2-3 on the
    abilities' scale: bundled MathArena and ARC-AGI-1) the second wins and the abilities come out
    stretched by 40-60%, with intervals that cover the simulated truth at 0.36-0.52 instead of 0.95
    (``benchmarks/bench_items_recovery.py --design``). The full posterior does not have this bias: integrating
    over ``c`` with the ability prior gives a density ``c^L exp(-c^2 sum(theta^2) / 2)`` whose mode is the
    scale at which ``sum(theta^2) = L`` (the Jacobian ``c^L`` that a joint mode leaves out), and whose
    log-scale has variance ``1 / (2 L)``.

    So the mode is rescaled to mean square 1 over the models that answered, and that scale's uncertainty is
    added in quadrature to every standard error by the delta method (``Var(x) += x^2 / (2 L)``). Measured
    coverage of 95% intervals on simulated data (L = 30, M = 200, N = 4, six designs with ``a`` from
    LogNormal(0, 0.3) to LogNormal(1, 0.3)): abilities 0.94-0.99, difficulties 0.95-0.97 (docs/items.md).

    Parameters
    ----------
    theta, theta_se : ndarray, shape (L,)
    b, b_se, a, a_se : ndarray, shape (M,)
        The joint mode and its Laplace standard errors.
    seen : ndarray of bool, shape (L,)
        Models that answered at least one question (the others keep their prior, 0 +- 1).

    Returns
    -------
    scale : float
        ``c``, the root mean square of the mode's abilities over ``seen`` (1.0 when fewer than 2 models
        answered or every ability is equal, within 1e-6: no spread to set a scale by).
    scale_var : float
        The variance of ``log c`` added (``1 / (2 L)``; 0 when nothing was rescaled).
    arrays : tuple of ndarray
        ``(theta, theta_se, b, b_se, a, a_se)`` on the new scale.
    """
    seen = np.asarray(seen, dtype=bool)
    k = int(seen.sum())
    if not has_scale(theta, seen):
        # every ability equal (identical models, all solved): no spread to set a scale by; rescaling would put
        # them all at +-1 exactly (helper QA), a magnitude the data never gave
        return 1.0, 0.0, (theta, theta_se, b, b_se, a, a_se)
    c = np.sqrt(float(np.mean(theta[seen] ** 2)))
    var_log_c = 1.0 / (2 * k)
    theta, b, a = theta / c, b / c, a * c
    out_theta_se = np.where(seen, np.sqrt((theta_se / c) ** 2 + theta**2 * var_log_c), theta_se)
    return float(c), var_log_c, (np.where(seen, theta, 0.0), out_theta_se, b, np.sqrt((b_se / c) ** 2 + b**2 * var_log_c),
                      a, np.sqrt((a_se * c) ** 2 + a**2 * var_log_c))
