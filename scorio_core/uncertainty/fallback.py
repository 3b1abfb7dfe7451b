"""What an interval is when a model's empirical-Bayes prior is not identified, and why (the fallback labels).

Split from :mod:`scorio_core.uncertainty.posterior` (which re-exports every name): the leaderboard's Bayes@N rows
then carry an exact binomial interval (:func:`fallback_interval_label`), its Pass@k-family rows the uniform prior's
credible interval with :func:`fallback_reason` appended.
"""

from __future__ import annotations

import numpy as np

from scorio_core.choices import FALLBACK_INTERVAL, SCOPE_LABELS, SCOPES
from scorio_core.uncertainty.priors import MIN_REPEATED_QUESTIONS, NOT_IDENTIFIED_RULE

__all__ = ["FALLBACK_LABELS", "ONE_TRIAL_CAUSE", "beta_sides", "comparison_sds", "pair_sds", "fallback_interval_label", "fallback_reason"]


def _check_scope(scope: object) -> str:
    if not isinstance(scope, str) or scope not in SCOPES:
        raise ValueError(f"scope must be one of {', '.join(SCOPES)}; got {scope!r}.")
    return scope


#: The cause a fallback label names when the model has one trial per question (:func:`fallback_interval_label`).
ONE_TRIAL_CAUSE = "N = 1: one trial per question"
#: Why an empirical-Bayes prior was not fitted, by ``FittedPrior.method`` of the fallbacks.
FALLBACK_LABELS = {
    "fallback-n1": (f"too few repeated trials ({NOT_IDENTIFIED_RULE}) leave its strength not identified "
                    "(conservative; more trials per question would identify it)"),
    "fallback-degenerate": "every trial is in one category (pooled Jeffreys mean)",
    "fallback-task": ("with tasks pooled it is fitted per task, and a task of the model has too few repeated trials "
                      f"({NOT_IDENTIFIED_RULE}) to identify it (conservative; more trials per question in that task would identify it)"),
    "fallback-task-degenerate": ("with tasks pooled it is fitted per task, and a task of the model has every trial in "
                                 "one category, which "
                                 "leaves the prior not identified there (conservative)"),
}


def fallback_interval_label(method: str, scope: str, confidence: float = 0.95, n_max=None, n_min=None,
                            n_questions=None) -> str | None:
    """What a model's interval is when its empirical-Bayes prior fell back (:data:`FALLBACK_LABELS`), else None.

    The interval is then the exact binomial (Clopper-Pearson) bound on the model's pooled answers
    (:func:`scorio_core.uncertainty.posterior_summary_batch`), and the label must not claim a fitted Dirichlet.
    ``n_max``, the model's largest number of trials of a question: at 1 the label names that cause alone
    (``N = 1: one trial per question``) instead of the whole rule; ``n_min`` (its fewest trials of a question) of 2 or
    more with ``n_questions`` below :data:`~scorio_core.uncertainty.priors.MIN_REPEATED_QUESTIONS` names that cause
    (a single question tried 80 times is not "too few trials").

    >>> fallback_interval_label("fallback-n1", "questions-fixed", n_max=1).split("not fitted: ")[1][:60]
    'too few repeated trials (N = 1: one trial per question) leav'
    >>> fallback_interval_label("fallback-n1", "questions-fixed", n_max=80, n_min=80, n_questions=1).split(": ")[1][:58]
    'too few questions (1 question; fewer than 10 questions tri'
    """
    reason = fallback_reason(method, n_max, n_min, n_questions)
    if reason is None:
        return None
    return (f"{confidence:.0%} {FALLBACK_INTERVAL}; covers "
            f"{SCOPE_LABELS[_check_scope(scope)]}; empirical-Bayes prior not fitted: {reason}")


def fallback_reason(method: str, n_max=None, n_min=None, n_questions=None) -> str | None:
    """Why a model's empirical-Bayes prior fell back (:data:`FALLBACK_LABELS`), naming its own cause; else None.

    Arguments as :func:`fallback_interval_label`.

    >>> fallback_reason("fallback-n1", n_max=1)[:45]
    'too few repeated trials (N = 1: one trial per'
    >>> fallback_reason("marginal-likelihood") is None
    True
    """
    if method not in FALLBACK_LABELS:
        return None
    reason = FALLBACK_LABELS[method]
    if method == "fallback-n1" and n_max is not None and n_max == n_max and int(n_max) <= 1:
        reason = reason.replace(f"({NOT_IDENTIFIED_RULE})", f"({ONE_TRIAL_CAUSE})")
    elif (method == "fallback-n1" and n_min is not None and n_min == n_min and int(n_min) >= 2
          and n_questions is not None and n_questions == n_questions and int(n_questions) < MIN_REPEATED_QUESTIONS):
        q = int(n_questions)
        reason = (f"too few questions ({q} question{'' if q == 1 else 's'}; fewer than {MIN_REPEATED_QUESTIONS} "
                  "questions tried twice or more) leave its strength not identified (conservative; more questions "
                  "would identify it)")
    return reason


def beta_sides(mu, sigma, lo: float = 0.0, hi: float = 1.0, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Spread below and above the estimate of a row drawn as a moment-matched Beta, in normal-sd units.

    A fallback row (prior not identified: its estimate with the binomial sd sqrt(x(1 - x)/n)) is drawn, by the rank
    distribution and the planner, from the Beta on ``[lo, hi]`` with the row's mean and sd
    (:func:`scorio_core.uncertainty.fallback_draws.fallback_score_draws`). Near 0 or 1 that Beta is skewed: 26 of 27
    answers (0.963, sd 0.036) spread 0.050 below and 0.019 above in normal units, so a symmetric normal with sd 0.036
    calls the model credibly better than models it is not (QA: ranked above 238 of 245 models, 13 of them with means
    inside its exact interval). A side's spread is the distance from the estimate to the Beta's central interval
    end at ``confidence``, over the normal quantile ``z = Phi^{-1}(1/2 + confidence/2)``.

    Parameters
    ----------
    mu, sigma : array-like of float, shape (L,)
        The rows' estimates and sds (score units).
    lo, hi : float, default 0, 1
        The score range (the rubric's smallest and largest weight).
    confidence : float, default 0.95

    Returns
    -------
    down, up : ndarray of float64, shape (L,)
        ``sigma`` where the Beta does not exist (``sigma = 0``, an estimate at a bound, a variance no score in the
        range has) or is not finite, and on a side where its quantile is not beyond the estimate (always >= 0).

    Examples
    --------
    >>> down, up = beta_sides([26 / 27, 0.5], [0.0363, 0.0913])
    >>> [round(float(v), 4) for v in down], [round(float(v), 4) for v in up]
    ([0.0496, 0.0906], [0.0185, 0.0906])
    """
    from scipy import special  # betaincinv = scipy.stats.beta.ppf, ndtri = norm.ppf (the same routines), without
    # importing scipy.stats (1-4 s of a 2-core CLI start on N = 1 data, where every row falls back)

    mu, sigma = np.asarray(mu, dtype=float), np.asarray(sigma, dtype=float)
    width = float(hi) - float(lo)
    down, up = sigma.copy(), sigma.copy()
    if not width > 0 or not np.isfinite(width):
        return down, up
    x, v = (mu - lo) / width, (sigma / width) ** 2
    ok = np.isfinite(x) & np.isfinite(v) & (x > 0) & (x < 1) & (v > 0) & (v < x * (1 - x) * (1 - 1e-9))  # a Beta exists
    if ok.any():
        k = x[ok] * (1 - x[ok]) / v[ok] - 1
        tail = (1.0 - confidence) / 2.0
        z = float(special.ndtri(1.0 - tail))
        a, b = x[ok] * k, (1 - x[ok]) * k
        q_lo, q_hi = special.betaincinv(a, b, tail), special.betaincinv(a, b, 1.0 - tail)
        # a quantile on the wrong side of the mean (a Beta so skewed that over 97.5% of it lies beyond the
        # estimate, e.g. mean 0.9997 with sd 0.008) gives no spread on that side: the symmetric sd there
        down[ok] = np.where(np.isfinite(q_lo) & (q_lo < x[ok]), (x[ok] - q_lo) * width / z, sigma[ok])
        up[ok] = np.where(np.isfinite(q_hi) & (q_hi > x[ok]), (q_hi - x[ok]) * width / z, sigma[ok])
    return down, up


def comparison_sds(table, confidence: float = 0.95, scale=(0.0, 1.0)) -> tuple[np.ndarray, np.ndarray]:
    """The spreads below and above every leaderboard row's estimate that normal comparisons use, shape (L,) each.

    Ranks with ties, P(A > B), the paper-chain check and compare use ``sigma`` on both sides, except on
    ``exact-binomial`` rows (prior not identified), whose binomial sd is symmetric where the row's distribution is
    not: there :func:`beta_sides` (the skewed spread of the Beta the rank distribution draws), passed to
    :func:`scorio_core.ranking.rank.ranks_with_ties` as ``sigma`` (below) and ``sigma_up`` (above).

    Parameters
    ----------
    table : pandas.DataFrame
        Leaderboard rows (:func:`scorio_core.leaderboard.table.leaderboard`): ``mu``, ``sigma``, ``interval_kind``.
    confidence : float, default 0.95
    scale : (float, float), default (0, 1)
        The score range (the rubric's smallest and largest weight; 0-1 for binary metrics).

    Returns
    -------
    down, up : ndarray of float64, shape (L,)
    """
    sigma = table["sigma"].to_numpy(float)
    down, up = sigma.copy(), sigma.copy()
    if "interval_kind" not in table:
        return down, up
    exact = (table["interval_kind"] == "exact-binomial").to_numpy()
    if exact.any():
        down[exact], up[exact] = beta_sides(table["mu"].to_numpy(float)[exact], sigma[exact], *scale, confidence)
    return down, up


def pair_sds(table, a: str, b: str, confidence: float = 0.95, scale=(0.0, 1.0)) -> tuple[float, float]:
    """The sds of models ``a`` and ``b`` in a normal comparison of the two (:func:`comparison_sds`).

    The one ahead by ``mu`` is compared with its spread below, the other with its spread above; both are ``sigma``
    unless a row is ``exact-binomial``.

    Parameters
    ----------
    table : pandas.DataFrame
        Leaderboard rows (``model``, ``mu``, ``sigma``, ``interval_kind``) holding both models.
    a, b : str
    confidence : float, default 0.95
    scale : (float, float), default (0, 1)

    Returns
    -------
    (float, float)
        The sd of ``a``, the sd of ``b``.
    """
    down, up = comparison_sds(table, confidence, scale)
    names = table["model"].astype(str).tolist()
    i, j = names.index(str(a)), names.index(str(b))
    mu = table["mu"].to_numpy(float)
    return (float(down[i]), float(up[j])) if mu[i] >= mu[j] else (float(up[i]), float(down[j]))
