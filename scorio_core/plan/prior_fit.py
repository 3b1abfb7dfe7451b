"""The planner's prior: its default for each goal, and a warning where a fixed prior is far from the data.

The planner's stopping rule is as good as the posterior it checks. In adaptive replays on recorded data the
empirical-Bayes prior stopped on a wrong model more often than the confidence allows (ARC-AGI: 12% at 95%), the
uniform prior did not, so the ranking goals plan under the uniform prior by default (docs/metrics.md, "What to run
next"). A fixed prior is wrong in another way: on a benchmark far from 50% success it pulls every question's mean
toward the middle, further than a few trials pull it back, and then its stops are wrong more often than
``1 - confidence`` (helper QA, 5 models x 20 questions, mean success 0.15: top-1 at 90% stopped on a wrong model
0.22 +- 0.04 of the time under the uniform prior, 0.12 +- 0.02 under empirical Bayes; width at 95%: 95% of the
intervals at the stop missed the truth under the uniform prior, 7% under empirical Bayes). The ``width`` goal
therefore plans under the leaderboard's prior by default (its intervals are the leaderboard's), and
:func:`fixed_prior_pull_note` says when a fixed prior moves a model's mean beyond its own interval from what was
observed (as the leaderboard's ``prior_pull`` notice does) on a benchmark whose pooled score is far from the middle of its
range (:data:`POOLED_MIDDLE`; near it, e.g. MathArena, the uniform prior's stops were measured at their level).
"""

from __future__ import annotations

import numpy as np

__all__ = ["default_plan_prior", "fixed_prior_pull_note"]

#: Models named in the note (the rest are counted).
NAMED = 3
#: The note is for benchmarks far from the middle of the score range: pooled observed score (scaled to [0, 1]) outside.
POOLED_MIDDLE = (0.25, 0.75)


def default_plan_prior(goal: str) -> str:
    """The planner's prior when none is chosen: the leaderboard's for ``width``, uniform for the ranking goals.

    >>> default_plan_prior("top-1"), default_plan_prior("width")
    ('uniform', 'empirical-bayes')
    """
    from scorio_core.choices import DEFAULT_PRIOR

    return DEFAULT_PRIOR if goal == "width" else "uniform"


def fixed_prior_pull_note(post, counts, w, prior: str, models) -> str | None:
    """A sentence when a fixed prior moves a model's posterior mean beyond its own interval from its avg@N, else None.

    Parameters
    ----------
    post : scorio_core.plan.posterior.CellPosterior
        The planner's posterior (``fixed``: each model over its answered questions, with questions fixed).
    counts : ndarray of int, shape (L, M, C+1)
    w : ndarray of float, shape (C+1,)
    prior : str
        The planner's prior: only ``uniform`` and ``jeffreys`` are checked (empirical Bayes is fitted to the data).
    models : sequence of str, length L

    Returns
    -------
    str or None
        None unless the task's pooled observed score (every answered cell, scaled to the weights' range) lies outside
        :data:`POOLED_MIDDLE` and some model's avg@N lies outside its questions-fixed interval.
    """
    if prior not in ("uniform", "jeffreys"):
        return None
    n = counts.sum(axis=2)
    answered = n > 0
    k = answered.sum(axis=1)
    x = np.where(answered, (counts @ w) / np.where(answered, n, 1), 0.0)
    avg = np.where(k > 0, x.sum(axis=1) / np.maximum(k, 1), np.nan)  # avg@N over the answered questions
    span = float(np.max(w) - np.min(w))
    pooled = (float(x[answered].mean()) - float(np.min(w))) / span if answered.any() and span > 0 else 0.5
    if POOLED_MIDDLE[0] <= pooled <= POOLED_MIDDLE[1]:  # near the prior's middle: the simulated excess does not apply
        return None
    lo, hi = np.asarray(post.fixed.lo, float), np.asarray(post.fixed.hi, float)
    with np.errstate(invalid="ignore"):
        off = np.flatnonzero(np.isfinite(avg) & np.isfinite(lo) & ((avg < lo - 1e-9) | (avg > hi + 1e-9)))
    if not off.size:
        return None
    named = ", ".join(f"{models[i]} (avg@N {avg[i]:.3f}, interval [{lo[i]:.3f}, {hi[i]:.3f}])" for i in off[:NAMED])
    more = f" and {off.size - NAMED:,} more" if off.size > NAMED else ""
    label = "Jeffreys" if prior == "jeffreys" else "uniform"
    return (f"the {label} prior moves the means of {off.size:,} model{'s' if off.size > 1 else ''} beyond their "
            f"intervals from what was observed: {named}{more}; on data this far from the prior (a benchmark much "
            "harder or easier than 50%) its stops can be wrong more often than 1 - confidence (simulated at mean success "
            "0.15: top-1 at 90% stopped on a wrong model 22% of the time under the uniform prior, 12% under empirical "
            "Bayes): --prior empirical-bayes (the Plan page's Prior) fits the prior to the data")
