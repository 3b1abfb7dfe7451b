"""Trials needed to tell two models apart (paper Appendix D).

Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265: section 2.5 (z-score and ranking
confidence rho) and Appendix D (model distinguishability and sample size, Figure 6).
numpy/scipy only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr, ndtri

from scorio_core.eval._validate import check_confidence, check_int, count_array, nonnegative_array, weights_for
from scorio_core.eval.batch import _bayes_batch
from scorio_core.ranking.projection_hyper import hyper_of, hyper_var

__all__ = ["TrialsNeeded", "trials_needed", "trials_meaning", "observed_trials", "ASSUMPTION", "PRACTICAL_TRIALS"]

#: The assumption behind :func:`trials_needed`, returned with every result.
ASSUMPTION = (
    "per-question category rates fixed at their current posterior means: with N trials per "
    "question each model is credited the expected counts N * (posterior mean rates), and "
    "mu, sigma follow Eq. 15 (normal approximation of section 2.5 for z)"
)
_BUDGET = 4_000_000
_CURVE_MAX = 10_000


def _first_crossing(z_of, threshold: float, n_limit: int, step: int) -> int | None:
    """Smallest N <= n_limit with z(N) >= threshold: doubling search, then a linear scan."""
    grid = np.unique(np.minimum(2 ** np.arange(0, int(np.log2(n_limit)) + 2), n_limit)).astype(float)
    above = np.flatnonzero(z_of(grid) >= threshold)
    if not above.size:
        return None
    hi = int(grid[above[0]])
    lo = int(grid[above[0] - 1]) + 1 if above[0] > 0 else 1
    for start in range(lo, hi + 1, step):
        n = np.arange(start, min(start + step, hi + 1), dtype=float)
        hit = np.flatnonzero(z_of(n) >= threshold)
        if hit.size:
            return int(n[hit[0]])
    return hi  # pragma: no cover - hi itself is above the threshold


#: Above this many times the observed trials per question, a trials-needed figure is reported as "no practical
#: number of trials" (as :data:`scorio_core.ranking.questions_power.PRACTICAL_FACTOR` for questions).
PRACTICAL_TRIALS = 100


@dataclass(frozen=True, eq=False)
class TrialsNeeded:
    """z-score of the difference of two models vs the number of trials per question.

    Attributes
    ----------
    n : ndarray of int64, shape (K,)
        Trials per question 1..n_max.
    z : ndarray of float64, shape (K,)
        ``|mu_a - mu_b| / sqrt(sigma_a^2 + sigma_b^2)`` at each N under the assumption.
    rho : ndarray of float64, shape (K,)
        Ranking confidence ``(1 + erf(z / sqrt 2)) / 2`` (section 2.5).
    confidence : float
    z_threshold : float
        One-sided ``Phi^{-1}(confidence)`` (1.645 at 0.95, as in the paper's ranking rule).
    n_needed : int or None
        Smallest N <= ``n_limit`` with ``z >= z_threshold``; None if not reached (e.g.
        the two models' projected means are equal).
    n_observed : tuple of int
        Largest number of trials per question observed for model a and model b.
    z_observed : float
        z of the observed data (``bayes`` on the actual counts).
    rho_observed : float
    assumption : str
        :data:`ASSUMPTION`.
    power : float
        Target probability that a fresh run at ``n_power`` trials separates the models.
    n_power : int or None
        Smallest N with ``z(N) >= z_threshold + Phi^{-1}(power)``: a new run at this N
        separates the two models with probability ``power`` if the difference equals its
        posterior mean. ``n_needed`` (the plug-in N) has only about 50% power.
    n_power_range : tuple of (int or None, int or None)
        ``n_power`` when the true difference is at the upper and at the lower end of its
        central ``range_level`` credible interval (fewer trials if the gap is larger). None at
        the upper end means not reached within ``n_limit`` (or the interval includes no
        difference at all).
    range_level : float
        Credibility of the interval of the difference behind ``n_power_range``.
    n_observed_min : int or None
        Smallest number of trials on an answered question of either model (equal to
        ``max(n_observed)`` when every question has the same N; None if not given).
    """

    n: np.ndarray
    z: np.ndarray
    rho: np.ndarray
    confidence: float
    z_threshold: float
    n_needed: int | None
    n_observed: tuple[int, int]
    z_observed: float
    rho_observed: float
    assumption: str
    power: float = 0.8
    n_power: int | None = None
    n_power_range: tuple[int | None, int | None] = (None, None)
    range_level: float = 0.8
    n_observed_min: int | None = None

    @property
    def practical(self) -> bool:
        """Whether ``n_power`` trials per question is a run a team could do: at most :data:`PRACTICAL_TRIALS` times
        the observed N (False when not reached), as :attr:`~scorio_core.ranking.questions_power.QuestionsNeeded.practical`."""
        return self.n_power is not None and self.n_power <= PRACTICAL_TRIALS * max(self.n_observed)


def _counts(values: object, name: str) -> np.ndarray:
    c = count_array(values, name, "(M, C+1)", 2)
    if not np.any(c.sum(axis=1) > 0):
        raise ValueError(f"{name} has no answered question (every row sums to 0).")
    return c


def _prior(values: object, name: str, shape: tuple[int, int]) -> np.ndarray:
    return np.zeros(shape) if values is None else nonnegative_array(values, name, (shape,))


def _gap_se(n: np.ndarray, rates: list[np.ndarray], priors: list[np.ndarray], w: np.ndarray,
            hypers: tuple = (None, None)) -> tuple[np.ndarray, np.ndarray]:
    """``|mu_a - mu_b|`` and ``sqrt(sigma_a^2 + sigma_b^2)`` at each N in ``n`` for projected counts N * rates."""
    moments = []
    for r, p, h in zip(rates, priors, hypers):
        mu, sigma = _bayes_batch(n[:, None, None] * r[None], w, p[None])
        if h is not None:
            sigma = np.sqrt(sigma**2 + hyper_var(np.broadcast_to(n[:, None], (n.size, r.shape[0])), h))
        moments.append((mu, sigma))
    (mu_a, s_a), (mu_b, s_b) = moments
    return np.abs(mu_a - mu_b), np.sqrt(s_a**2 + s_b**2)


def _ratio(gap: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``gap / den``: 0 where both are 0, inf where only ``den`` is."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, gap / np.where(den > 0, den, 1.0), np.where(gap == 0, 0.0, np.inf))


def _z(n: np.ndarray, rates: list[np.ndarray], priors: list[np.ndarray], w: np.ndarray,
       hypers: tuple = (None, None)) -> np.ndarray:
    """z at each N in ``n`` for projected counts N * rates (answered questions only)."""
    return _ratio(*_gap_se(n, rates, priors, w, hypers))


def trials_needed(
    counts_a,
    counts_b,
    w=None,
    prior_counts_a=None,
    prior_counts_b=None,
    confidence: float = 0.95,
    n_max: int | None = None,
    n_limit: int = 1_000_000,
    power: float = 0.8,
    range_level: float = 0.8,
    alpha_a=None,
    alpha_b=None,
    empirical_a: bool = False,
    empirical_b: bool = False,
    strata_a=None,
    strata_b=None,
) -> TrialsNeeded:
    r"""How many trials per question separate two models at a chosen confidence.

    Parameters
    ----------
    counts_a, counts_b : array-like of int, shape (M, C+1)
        Category counts of the two models per question (rows of ``Outcomes.counts``); a
        row summing to 0 is a question the model did not answer and is left out of its
        mean, as on the leaderboard. The two may have different M.
    w : array-like of float, shape (C+1,), optional
        Category weights; default ``[0, 1]``.
    prior_counts_a, prior_counts_b : array-like, optional
        Prior counts of each model, same shape as its counts.
    confidence : float, default 0.95
        Target ranking confidence; the threshold is the one-sided
        ``z = Phi^{-1}(confidence)`` (1.645 at 0.95, 1.96 at 0.975), as in Appendix D.
    n_max : int, optional
        Length of the returned curve; default ``max(2 * n_needed, 2 * n_observed)``
        (``2 * n_observed`` if not reached), capped at ``n_limit`` and 10,000.
    n_limit : int, default 1,000,000
        Largest N searched for ``n_needed``.
    power : float, default 0.8
        Target power of ``n_power`` in (0, 1).
    range_level : float, default 0.8
        Credibility of the interval of the difference that gives ``n_power_range``.
    alpha_a, alpha_b : array-like of float, shape (C+1,) or (M, C+1), optional
        Dirichlet pseudo-counts of each model's per-question prior (default 1 per category,
        the paper's uniform prior; 1/2 Jeffreys; a fitted empirical-Bayes prior), held fixed
        as N grows; per question (rows of its counts) with ``strata_*`` where a prior is fitted
        per task (:func:`scorio_core.ranking.projection_prior.task_projection_alpha`). The
        prior counts are added to them.
    empirical_a, empirical_b : bool, default False
        ``alpha_*`` is a fitted empirical-Bayes prior: its hyperparameter uncertainty is added
        at every N (law of total variance, as the leaderboard's
        :func:`scorio_core.uncertainty.posterior_summary`). Without it, a fit with a very large
        strength (questions that differ no more than chance) would be held fixed as if the
        model's rates were known without trials, and z would explode.
    strata_a, strata_b : array-like of int, shape (M,), optional
        Task code of each question where ``alpha_*`` is per question (one prior per task).

    Returns
    -------
    TrialsNeeded

    Raises
    ------
    TypeError
        Non-numeric arrays, non-integer ``n_max``/``n_limit``.
    ValueError
        Bad shapes, negative or fractional counts, a model with no answered question,
        ``confidence`` outside (0, 1), ``n_max``/``n_limit`` < 1.

    Notes
    -----
    Assumption (:data:`ASSUMPTION`): the per-question rates stay at their posterior means
    ``pi_hat_aj = nu_aj / T_a`` (``nu = counts + prior + alpha``, alpha = 1 by default). With N trials per question a
    model is credited the expected counts ``N pi_hat``; ``mu(N)`` and ``sigma(N)`` follow
    Eq. 15 on those counts, ``z(N) = |mu_a - mu_b| / sqrt(sigma_a^2 + sigma_b^2)``, and
    ``n_needed`` is the first N with ``z(N) >= Phi^{-1}(confidence)``, found by doubling N
    and scanning the last doubling interval (exact when z(N) increases with N, as it does
    for two models with the same prior size). It is an estimate:
    the true rates are unknown and new trials will move ``mu``. The paper's Appendix D
    simulates the biased-coin mimics LLM_9 and LLM_10 (means 0.608 vs 0.6213): z ~ 1.14
    at N = 80, 1.645 at N ~ 199, 1.96 at N ~ 285.

    Power: a fresh run at N trials gives ``z_new ~ Normal(delta / se(N), 1)`` (normal
    approximation), so it separates the models (``z_new >= z_threshold``) with probability
    ``Phi(z(N) - z_threshold)``. ``n_needed`` makes that 50%; ``n_power`` is the first N with
    ``z(N) >= z_threshold + Phi^{-1}(power)``. ``n_power_range`` is the same first N for a
    difference at the ends of the central ``range_level`` interval of the observed difference's
    posterior, ``half = Phi^{-1}(1/2 + range_level/2) se_obs``: the projected difference at
    each N moved by ``+-half``, ``z_end(N) = (|mu_a(N) - mu_b(N)| +- half) / se(N) >=
    z_threshold + Phi^{-1}(power)``; so ``lo <= n_power <= hi``, and an end is None (no finite
    N) where it is 0 or below. (Scaling z(N) by ``|delta_hat| / |delta'|`` instead, as before
    2026-11-30, gave N = 1 for a near-zero observed difference under two empirical-Bayes
    priors, whose different means move the projected difference at small N.)

    References
    ----------
    Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, section 2.5, Appendix D.

    Examples
    --------
    >>> a = [[20, 60]] * 30                      # 75% correct on each of 30 questions, N = 80
    >>> b = [[24, 56]] * 30                      # 70% correct
    >>> res = trials_needed(a, b)
    >>> res.n_needed, round(res.z_observed, 2), round(float(res.z[79]), 2)
    (17, 3.84, 3.72)
    >>> res.n_power, res.n_power_range
    (37, (21, 83))
    """
    ca = _counts(counts_a, "counts_a")
    cb = _counts(counts_b, "counts_b")
    if ca.shape[1] != cb.shape[1]:
        raise ValueError(
            "counts_a and counts_b must have the same number of categories; "
            f"got {ca.shape[1]} and {cb.shape[1]}."
        )
    w_a = weights_for(w, ca.shape[1])
    pa = _prior(prior_counts_a, "prior_counts_a", ca.shape)
    pb = _prior(prior_counts_b, "prior_counts_b", cb.shape)
    confidence = check_confidence(confidence)
    if not (isinstance(power, (int, float)) and 0.0 < power < 1.0):
        raise ValueError(f"power must be in (0, 1); got {power!r}.")
    if not (isinstance(range_level, (int, float)) and 0.0 < range_level < 1.0):
        raise ValueError(f"range_level must be in (0, 1); got {range_level!r}.")
    n_limit = check_int(n_limit, "n_limit", 1)
    if n_max is not None:
        n_max = check_int(n_max, "n_max", 1)

    keep_a, keep_b = ca.sum(axis=1) > 0, cb.sum(axis=1) > 0
    alphas, stratas, hypers = [], [], []
    for name, alpha, strata, keep, m in (("alpha_a", alpha_a, strata_a, keep_a, ca.shape[0]),
                                         ("alpha_b", alpha_b, strata_b, keep_b, cb.shape[0])):
        a = None if alpha is None else np.asarray(alpha, dtype=float)
        if a is not None and (a.shape not in ((ca.shape[1],), (m, ca.shape[1])) or not np.all(np.isfinite(a) & (a > 0))
                              or (a.ndim == 2 and np.shape(strata) != (m,))):
            raise ValueError(f"{name} must hold {ca.shape[1]} finite pseudo-counts > 0 (or one row per question with "
                             f"its task codes); got shape {a.shape}.")
        alphas.append(None if a is None else (a[keep] if a.ndim == 2 else a))
        stratas.append(None if a is None or a.ndim == 1 else np.asarray(strata)[keep])
    ca, pa, cb, pb = ca[keep_a], pa[keep_a], cb[keep_b], pb[keep_b]
    # pseudo-counts alpha enter Eq. 15 as prior counts alpha - 1 (nu = counts + prior + 1)
    pa, pb = (p if a is None else p + (a - 1.0) for p, a in ((pa, alphas[0]), (pb, alphas[1])))
    rates = [(c + p + 1.0) / (c + p + 1.0).sum(axis=1, keepdims=True) for c, p in ((ca, pa), (cb, pb))]
    priors = [pa, pb]
    for flag, a, strata, c in zip((empirical_a, empirical_b), alphas, stratas, (ca, cb)):
        hypers.append(hyper_of(a, strata, w_a, c.shape[0]) if flag and a is not None else None)
    hypers = tuple(hypers)
    mu_a, s_a = _bayes_batch(ca, w_a, pa)
    mu_b, s_b = _bayes_batch(cb, w_a, pb)
    s_a = float(np.sqrt(s_a**2 + hyper_var(ca.sum(axis=1).astype(float), hypers[0])))
    s_b = float(np.sqrt(s_b**2 + hyper_var(cb.sum(axis=1).astype(float), hypers[1])))
    den = float(np.sqrt(s_a**2 + s_b**2))
    z_obs = abs(float(mu_a - mu_b)) / den if den > 0 else (0.0 if mu_a == mu_b else float("inf"))
    z_threshold = float(ndtri(confidence))

    step = max(1, _BUDGET // ((ca.shape[0] + cb.shape[0]) * ca.shape[1]))
    n_needed = _first_crossing(lambda n: _z(n, rates, priors, w_a, hypers), z_threshold, n_limit, step)
    z_of = lambda n: _z(n, rates, priors, w_a, hypers)  # noqa: E731
    z_power = z_threshold + float(ndtri(power))
    n_power = _first_crossing(z_of, z_power, n_limit, step)
    gap = abs(float(mu_a - mu_b))
    half = float(ndtri(0.5 + 0.5 * range_level)) * den
    ends = []
    for sign in (1.0, -1.0):  # the projected difference moved to the upper, then the lower end of its interval
        if gap <= 0 or gap + sign * half <= 0 or not np.isfinite(half):
            ends.append(None)
            continue
        # z(N) of a difference shifted by +-half: (gap_N +- half) / se_N. Shifting the projected difference at
        # each N (not scaling z(N) by a ratio of observed differences) keeps the ends valid where the priors
        # move the projected difference at small N (two empirical-Bayes priors with different means) and keeps
        # lo <= n_power <= hi at every N.
        def z_end(n, shift=sign * half):
            gap_n, se_n = _gap_se(n, rates, priors, w_a, hypers)
            return _ratio(np.maximum(gap_n + shift, 0.0), se_n)

        ends.append(_first_crossing(z_end, z_power, n_limit, step))
    n_observed = (int(ca.sum(axis=1).max()), int(cb.sum(axis=1).max()))
    totals = np.concatenate([ca.sum(axis=1), cb.sum(axis=1)])
    n_observed_min = int(totals[totals > 0].min())
    if n_max is None:
        n_max = min(n_limit, _CURVE_MAX, max(2 * (n_needed or 0), int(1.25 * (n_power or 0)), 2 * max(n_observed)))
    n = np.arange(1, n_max + 1)
    z = np.concatenate([_z(n[i : i + step].astype(float), rates, priors, w_a, hypers) for i in range(0, n_max, step)])
    return TrialsNeeded(
        n=n,
        z=z,
        rho=ndtr(z),
        confidence=confidence,
        z_threshold=z_threshold,
        n_needed=n_needed,
        n_observed=n_observed,
        z_observed=z_obs,
        rho_observed=float(ndtr(z_obs)),
        assumption=ASSUMPTION,
        power=float(power),
        n_power=n_power,
        n_power_range=(ends[0], ends[1]),
        range_level=float(range_level),
        n_observed_min=n_observed_min,
    )


def _n(value) -> str:
    return "not reached" if value is None else f"{value:,}"


def _per_question(value) -> str:
    """``"37 trials per question"``, ``"1 trial per question"`` (QA: "with 1 trials per question")."""
    return f"{_n(value)} trial{'' if value == 1 else 's'} per question"


def observed_trials(needed: TrialsNeeded) -> str:
    """The observed trials per question as a reader should see them: ``"8"``, or ``"1-8"`` where questions differ.

    >>> observed_trials(trials_needed([[1, 3]] * 4, [[2, 2]] * 4))
    '4'
    >>> observed_trials(trials_needed([[1, 3], [0, 1]], [[2, 2], [1, 0]]))
    '1-4'
    """
    high = max(needed.n_observed)
    low = high if needed.n_observed_min is None else needed.n_observed_min
    return f"{high}" if low == high else f"{low}-{high}"


def trials_meaning(needed: TrialsNeeded) -> str:
    """One sentence saying what the numbers of a :class:`TrialsNeeded` mean (CLI, JSON, Compare page).

    >>> trials_meaning(trials_needed([[20, 60]] * 30, [[24, 56]] * 30))[:60]
    'a fresh run with 37 trials per question separates them at 95'
    """
    pct = f"{needed.confidence:.0%}"
    observed = observed_trials(needed)
    if needed.n_needed is None:
        return (f"not reached: at the current per-question rates the two models stay below z = {needed.z_threshold:.3f} "
                f"however many trials are run (observed N = {observed}).")
    if needed.n_power is not None and not needed.practical:  # as questions_meaning: 10^4 trials is not a plan
        return (f"no practical number of trials separates them: at the estimated difference it would take about "
                f"{_per_question(needed.n_power)}, more than {PRACTICAL_TRIALS} times the observed N = "
                f"{observed}: more trials on these questions will not tell them apart.")
    lo, hi = needed.n_power_range
    level = f"{needed.range_level:.0%}"
    upper = "none within reach" if lo is None else f"{lo:,}"
    lower = "no finite number" if hi is None else f"{hi:,}"
    return (f"a fresh run with {_per_question(needed.n_power)} separates them at {pct} with "
            f"{needed.power:.0%} probability if the difference is as estimated ({upper} if the difference is at the "
            f"upper end of its {level} credible interval, {lower} at the lower end); the plug-in N = "
            f"{_n(needed.n_needed)} separates them only about half the time (observed N = {observed}).")
