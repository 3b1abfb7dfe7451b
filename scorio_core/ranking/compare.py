"""Two models head to head, and per-question views of outcomes.

Pure numpy/pandas helpers behind the Compare and Data pages and the ``compare`` CLI:

* :func:`difference_posterior`: posterior of ``mu_A - mu_B`` with its credible interval and
  the ranking confidence ``rho = P(A > B)`` (paper section 2.5);
* :func:`difference_density`: the normal density of that posterior on a grid, for plots;
* :func:`difference_span`: the largest difference a rubric allows;
* re-exported from :mod:`scorio_core.ranking.disagreement`: :func:`question_scores` /
  :func:`question_summary` (per-question pass rates, flaky questions) and :func:`disagreement_table`
  (per-question outcomes of two models).

Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, sections 2.3-2.5.
"""

from __future__ import annotations

import math
import numbers
from typing import NamedTuple

import numpy as np
from scipy.special import ndtr

from scorio_core.eval._interval import z_two_sided
from scorio_core.eval._validate import check_confidence, real_vector
from scorio_core.ranking import disagreement as _disagreement
from scorio_core.ranking.disagreement import (  # noqa: F401 (re-exported through __all__)
    DISAGREEMENT_COLUMNS, OUTCOME_LABELS, disagreement_table, outcome_counts,
    question_scores, question_set_note, question_summary)

__all__ = ["DifferencePosterior", "difference_posterior", "difference_density", "difference_span", "ASSUMPTION",
           "one_sided_note", *_disagreement.__all__]  # the per-question views, re-exported

#: What the difference posterior assumes, shown with every result.
ASSUMPTION = (
    "questions are taken as given; each model's metric has an independent posterior "
    "(Dirichlet per question), so Var(mu_A - mu_B) = sigma_A^2 + sigma_B^2; interval and "
    "P(A > B) use the normal approximation of section 2.5"
)

class DifferencePosterior(NamedTuple):
    """Posterior of the difference ``mu_A - mu_B`` of two models' metrics.

    Attributes
    ----------
    mean : float
        ``mu_A - mu_B``.
    sd : float
        ``sqrt(sigma_A^2 + sigma_B^2)`` (independent posteriors).
    lo, hi : float
        Central credible interval ``mean -/+ z sd`` at ``confidence`` (two-sided z).
    rho : float
        ``P(A > B)`` under the normal approximation, in [0, 1] (section 2.5).
    z : float
        ``mean / sd`` (signed; +/-inf when ``sd = 0`` and the means differ, 0 when equal).
    confidence : float
    kind : {"credible", "approximate"}
        ``"credible"`` when both sds are posterior sds; ``"approximate"`` when a model's empirical-Bayes prior is not
        identified (:func:`scorio_core.ranking.paired.scoped_difference` ``not_identified``): its sd is then the
        pooled binomial bound, and the interval and ``rho`` are normal approximations, not posterior statements.
    """

    mean: float
    sd: float
    lo: float
    hi: float
    rho: float
    z: float
    confidence: float
    kind: str = "credible"


def _finite(value: object, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number; got {value!r} ({type(value).__name__}).")
    return float(real_vector([value], name)[0])  # the shared check: finite, real


def difference_posterior(mu_a, sigma_a, mu_b, sigma_b, confidence: float = 0.95, *,
                         sd: float | None = None) -> DifferencePosterior:
    r"""Posterior of the difference between two models' metrics.

    Parameters
    ----------
    mu_a, sigma_a : float
        Posterior mean and standard deviation of model A (e.g. Bayes@N ``mu``, ``sigma``).
    mu_b, sigma_b : float
        Same for model B. ``sigma >= 0``.
    confidence : float, default 0.95
        Credibility of the central interval, in (0, 1).
    sd : float, optional
        The difference's standard deviation when it is not ``sqrt(sigma_a^2 + sigma_b^2)``
        (the paired form of :func:`scorio_core.ranking.paired.scoped_difference`); ``>= 0``.

    Returns
    -------
    DifferencePosterior

    Raises
    ------
    TypeError
        Non-numeric input.
    ValueError
        NaN/infinite values, negative sigma or sd, confidence outside (0, 1).

    Notes
    -----
    Given the data, the two models' per-question Dirichlet posteriors are independent, so
    the posterior of ``Delta = mu_A - mu_B`` has mean ``mu_A - mu_B`` and variance
    ``sigma_A^2 + sigma_B^2``. With the normal approximation (section 2.5) the interval is
    ``Delta -/+ Phi^{-1}(1/2 + confidence/2) sd`` and ``rho = P(Delta > 0) = Phi(Delta / sd)``,
    the same value as :func:`scorio_core.ranking.rank.pairwise_confidence`. Questions are taken as
    given: the interval covers trial noise, not the choice of questions.

    References
    ----------
    Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, section 2.5.

    Examples
    --------
    >>> d = difference_posterior(0.6213, 0.0117, 0.608, 0.0117)   # paper App. D pair, N = 80
    >>> round(d.mean, 4), round(d.sd, 5), round(d.rho, 4)
    (0.0133, 0.01655, 0.7892)
    """
    ma, sa = _finite(mu_a, "mu_a"), _finite(sigma_a, "sigma_a")
    mb, sb = _finite(mu_b, "mu_b"), _finite(sigma_b, "sigma_b")
    if sa < 0 or sb < 0:
        raise ValueError(f"sigma_a and sigma_b must be >= 0; got {sa} and {sb}.")
    confidence = check_confidence(confidence)
    mean = ma - mb
    if sd is None:
        sd = math.hypot(sa, sb)  # no underflow: a subnormal sigma keeps its sd (squaring it would give 0)
    else:
        sd = _finite(sd, "sd")
        if sd < 0:
            raise ValueError(f"sd must be >= 0; got {sd}.")
    half = z_two_sided(confidence) * sd
    if sd > 0:
        z = mean / sd  # may overflow to +-inf for a subnormal sd: rho is then 1 or 0
        rho = float(ndtr(z))  # P(Delta > 0), the normal approximation of section 2.5 (as pairwise_confidence)
    else:
        z = 0.0 if mean == 0 else math.copysign(math.inf, mean)
        rho = 0.5 if mean == 0 else float(mean > 0)
    return DifferencePosterior(mean, sd, mean - half, mean + half, rho, z, confidence)


def difference_span(weights) -> float:
    """The largest possible ``|mu_A - mu_B|`` under a rubric: ``max(w) - min(w)`` (1 for scores in [0, 1]).

    Parameters
    ----------
    weights : array-like of float, shape (C+1,)
        The rubric's category weights.

    Returns
    -------
    float
        0 for no weights.

    Examples
    --------
    >>> difference_span([0.0, 1.0]), difference_span([-1.0, 0.0, 0.5])
    (1.0, 1.5)
    """
    w = np.asarray(weights, dtype=float)
    return float(w.max() - w.min()) if w.size else 0.0


def difference_density(posterior: DifferencePosterior, points: int = 241, width: float = 4.5, *,
                       span: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Normal density of a :class:`DifferencePosterior` on an even grid, for plotting.

    Parameters
    ----------
    posterior : DifferencePosterior
    points : int, default 241
    width : float, default 4.5
        The grid spans ``mean -/+ width * sd``.
    span : float, optional
        The largest possible ``|difference|`` (:func:`difference_span`): the grid stops at ``-/+ span``, as the
        clipped interval of :func:`scorio_core.ranking.paired.scoped_difference` does (the normal approximation
        puts mass on impossible differences when ``sd`` is large against the range).

    Returns
    -------
    x, density : ndarray of float, shape (points,)
        Empty arrays when ``sd = 0`` (a point mass) or when no grid point is a possible difference.

    Examples
    --------
    >>> d = difference_posterior(0.75, 0.5, 0.25, 0.5)
    >>> x, _ = difference_density(d, span=1.0)
    >>> float(x.min()), float(x.max())
    (-1.0, 1.0)
    """
    if posterior.sd <= 0:
        return np.empty(0), np.empty(0)
    left, right = posterior.mean - width * posterior.sd, posterior.mean + width * posterior.sd
    if span is not None:
        left, right = max(left, -float(span)), min(right, float(span))
        if left >= right:  # the whole bulk outside the possible differences (not from a rubric's scores)
            return np.empty(0), np.empty(0)
    x = np.linspace(left, right, int(points))
    u = (x - posterior.mean) / posterior.sd
    return x, np.exp(-0.5 * u * u) / (posterior.sd * math.sqrt(2.0 * math.pi))


def one_sided_note(diff, model_a: str, model_b: str, confidence: float) -> str | None:
    """A sentence when one model is ahead at ``confidence`` (one-sided) while the central interval still holds 0.

    The leaderboard's CI ties and the planner's ``pair`` goal call A ahead of B when ``P(A > B) >= confidence``;
    the central interval of the difference leaves ``(1 - confidence) / 2`` on each side, so for
    ``confidence <= P < 1 - (1 - confidence) / 2`` the two read as disagreeing (statistical QA: MathArena, o3-mini
    (medium) vs DeepSeek-R1, P = 0.9592 beside [-0.0101, +0.1710]). None otherwise.

    Parameters
    ----------
    diff : DifferencePosterior
        ``rho`` = P(A > B), ``lo``, ``hi``.
    model_a, model_b : str
    confidence : float

    Examples
    --------
    >>> d = difference_posterior(0.80, 0.03, 0.72, 0.03, 0.95)
    >>> print(one_sided_note(d, "A", "B", 0.95))
    A is ahead of B at 95% one-sided (P(A > B) = 0.9703 >= 0.95, as the leaderboard's rank ties and the planner's pair goal read it), while the central 95% interval of the difference still holds 0: it leaves 2.5% on each side.
    """
    rho, lo, hi = float(diff.rho), float(diff.lo), float(diff.hi)
    upper = 1.0 - (1.0 - confidence) / 2.0
    if confidence <= rho < upper and lo <= 0.0 <= hi:
        ahead, behind, p = model_a, model_b, rho
    elif confidence <= 1.0 - rho < upper and lo <= 0.0 <= hi:
        ahead, behind, p = model_b, model_a, 1.0 - rho
    else:
        return None
    return (f"{ahead} is ahead of {behind} at {confidence:.0%} one-sided (P({ahead} > {behind}) = {p:.4f} >= "
            f"{confidence:g}, as the leaderboard's rank ties and the planner's pair goal read it), while the central "
            f"{confidence:.0%} interval of the difference still holds 0: it leaves {(1 - confidence) / 2:.1%} on each "
            "side.")
