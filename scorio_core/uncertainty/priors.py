r"""Per-question priors for Bayes@N: uniform (paper), Jeffreys and empirical Bayes.

Each question's outcome probabilities ``pi_a`` (over the ``C+1`` rubric categories) get a
Dirichlet(``alpha``) prior. The paper uses ``alpha = 1`` (uniform; Hariri et al., ICLR 2026,
section 2.4), which pulls every per-question estimate toward the middle of the scale by
``(1 - 2p)/(N + 2)`` (binary); the pull does not shrink with the number of questions M, so
credible intervals that shrink as ``1/sqrt(M)`` stop covering (see docs/metrics.md,
"Calibration"). The empirical-Bayes prior fits ``alpha`` to the model's own questions by
maximum marginal likelihood of the Dirichlet-multinomial, so the pull goes toward the model's
own mean instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import digamma, gammaln

from scorio_core.choices import PRIOR_HELP, PRIOR_LABELS, PRIORS

__all__ = ["MIN_DISAGREEING_QUESTIONS", "MIN_REPEATED_QUESTIONS", "MIN_TRIAL_PAIRS", "NOT_IDENTIFIED_RULE", "not_identified_rule", "shortage_cause", "PRIORS", "PRIOR_LABELS", "PRIOR_HELP", "FittedPrior", "check_prior", "fit_dirichlet_prior", "prior_alpha"]

#: Questions with two or more trials the empirical-Bayes fit needs: the spread between questions (the prior's
#: strength) is identified only by questions tried more than once, and one or two of them let a single lucky
#: question set it (e.g. an all-or-nothing prior from one question solved twice); with fewer the fit falls back
#: to the pooled binomial bound (``fallback-n1``). Ten, not three: fitted from 3-9 such questions the 95% interval
#: covered 0.72-0.97 in simulation (``benchmarks/bench_calibration_small.py``, docs/metrics.md), the fallback 0.96+.
MIN_REPEATED_QUESTIONS = 10

#: Pairs of trials of the same question (``sum_q n_q (n_q - 1) / 2``) the empirical-Bayes fit also needs: with two
#: trials per question each question gives one pair, and fitted from 10-19 such questions the 95% interval covered
#: 0.88-0.93 (U-shaped and easy rates; ``benchmarks/bench_calibration_small.py``), the fallback 0.96+; with three or
#: four trials 10 questions give 30-60 pairs and covered 0.92-0.96.
MIN_TRIAL_PAIRS = 20

#: Questions whose trials disagree (fall in two or more categories) the fit also needs. The strength is read from how
#: often a question's trials agree; with none disagreeing the marginal likelihood grows without bound as the strength
#: goes to 0 (every question always or never solved: the maximum lies on the boundary, not identified), and with one,
#: that question alone sets it. QA: 19 questions solved twice and one failed twice gave a 95% interval of +-0.008
#: and a "> 99.9%" lead over a model two questions behind. Fitted from 0-1 such questions the 95% interval covered
#: 0.00-0.69 of the replications where it happened on U-shaped, all-0.9 and 4-trial easy rates (U-shaped Beta(0.2,
#: 0.2), 20 questions x 2 trials: 0.886 overall, 0.962 with this rule; ``benchmarks/bench_calibration_small.py
#: --disagreeing``, docs/metrics.md).
MIN_DISAGREEING_QUESTIONS = 2


def not_identified_rule(degenerate: bool = False) -> str:
    """When the empirical-Bayes prior is not identified, in the words every text uses (a list for parentheses).

    ``degenerate``: also "every trial in one category" (the other fallback).

    >>> not_identified_rule()
    'N = 1, fewer than 10 questions tried twice or more, fewer than 20 pairs of trials of a question (N = 2 on fewer than 20 questions), or fewer than 2 questions whose trials disagree'
    """
    items = ["N = 1", f"fewer than {MIN_REPEATED_QUESTIONS} questions tried twice or more",
             f"fewer than {MIN_TRIAL_PAIRS} pairs of trials of a question (N = 2 on fewer than {MIN_TRIAL_PAIRS} questions)",
             f"fewer than {MIN_DISAGREEING_QUESTIONS} questions whose trials disagree"]
    items += ["every trial in one category"] if degenerate else []
    return ", ".join(items[:-1]) + ", or " + items[-1]


def shortage_cause(counts: object) -> str | None:
    """The one cause of :func:`not_identified_rule` that holds for every model of ``counts``, in its words.

    Parameters
    ----------
    counts : array-like of int, shape (L, M, C+1)
        Category counts per question of the models whose fit fell back (one task).

    Returns
    -------
    str or None
        ``"N = 1: one trial per question"``, ``"fewer than 10 questions tried twice or more"``, ``"fewer than 20
        pairs of trials of a question"`` or ``"fewer than 2 questions whose trials disagree"`` (with the count when
        ``L == 1``), ``"every trial in one category"`` when the trials suffice; None when the models' causes differ
        or ``L == 0`` (then the whole rule is said).

    >>> shortage_cause([[[1, 1], [0, 0]]])
    'fewer than 10 questions tried twice or more (1 question)'
    >>> shortage_cause([[[1, 0]] * 30, [[0, 1]] * 30])
    'N = 1: one trial per question'
    >>> shortage_cause([[[1, 1]] * 12]), shortage_cause([[[3, 0]] * 12])
    ('fewer than 20 pairs of trials of a question (12 pairs)', 'every trial in one category')
    >>> shortage_cause([[[0, 2]] * 19 + [[2, 0]]])
    'fewer than 2 questions whose trials disagree (0 questions)'
    """
    c = np.asarray(counts, dtype=float)
    if c.ndim != 3 or not c.shape[0]:
        return None
    totals = c.sum(axis=2)
    repeated = (totals >= 2).sum(axis=1)
    pairs = (totals * (totals - 1) / 2).sum(axis=1)
    disagree = (np.count_nonzero(c, axis=2) >= 2).sum(axis=1)
    one_category = np.count_nonzero(c.sum(axis=1), axis=1) <= 1
    kind = np.where(totals.max(axis=1) <= 1, 0, np.where(repeated < MIN_REPEATED_QUESTIONS, 1, np.where(
        pairs < MIN_TRIAL_PAIRS, 2, np.where(~one_category & (disagree < MIN_DISAGREEING_QUESTIONS), 4, 3))))
    if np.unique(kind).size != 1:
        return None
    one = c.shape[0] == 1
    if kind[0] == 1:
        n = int(repeated[0])
        return (f"fewer than {MIN_REPEATED_QUESTIONS} questions tried twice or more"
                + (f" ({n} question{'' if n == 1 else 's'})" if one else ""))
    if kind[0] == 2:
        return (f"fewer than {MIN_TRIAL_PAIRS} pairs of trials of a question"
                + (f" ({int(pairs[0])} pair{'' if pairs[0] == 1 else 's'})" if one else ""))
    if kind[0] == 4:
        return (f"fewer than {MIN_DISAGREEING_QUESTIONS} questions whose trials disagree"
                + (f" ({int(disagree[0])} question{'' if disagree[0] == 1 else 's'})" if one else ""))
    return ("N = 1: one trial per question", "", "", "every trial in one category")[int(kind[0])]


#: :func:`not_identified_rule` without the degenerate case.
NOT_IDENTIFIED_RULE = not_identified_rule()


def _too_few_repeats(questions_tried_twice, trial_pairs, disagreeing=None):
    """Whether a fit's strength is not identified (:data:`MIN_REPEATED_QUESTIONS`, :data:`MIN_TRIAL_PAIRS`,
    :data:`MIN_DISAGREEING_QUESTIONS` when ``disagreeing`` is given: questions with trials in two or more categories)."""
    few = (questions_tried_twice < MIN_REPEATED_QUESTIONS) | (trial_pairs < MIN_TRIAL_PAIRS)
    return few if disagreeing is None else few | (disagreeing < MIN_DISAGREEING_QUESTIONS)

#: Bounds of the fitted pseudo-counts: ``alpha_j`` in [1e-3, 1e6]. The upper bound is reached
#: when the questions show no over-dispersion (all alike); the formulas then equal the pooled
#: binomial/multinomial ones.
_LOG_ALPHA_BOUNDS = (np.log(1e-3), np.log(1e6))


def check_prior(prior: object) -> str:
    """Validate a prior key; returns it.

    Raises
    ------
    ValueError
        If ``prior`` is not one of :data:`PRIORS`.
    """
    if not isinstance(prior, str) or prior not in PRIORS:
        raise ValueError(f"prior must be one of {', '.join(PRIORS)}; got {prior!r}.")
    return prior


@dataclass(frozen=True)
class FittedPrior:
    """A Dirichlet prior for one model's questions.

    Attributes
    ----------
    alpha : ndarray, shape (C+1,)
        Pseudo-counts per category (real-valued, > 0); ``inf`` total means "questions alike":
        see ``pooled``.
    mean : ndarray, shape (C+1,)
        Prior mean ``alpha / sum(alpha)`` (for the empirical-Bayes prior: the fitted pool mean).
    pooled : bool
        True when the prior strength is infinite: every question shares the pool mean
        (N = 1 data, where strength is not identified, or questions showing no spread).
    method : str
        ``"fixed"`` (uniform/Jeffreys), ``"marginal-likelihood"`` (fitted),
        ``"fallback-n1"`` (N = 1, or fewer than :data:`MIN_REPEATED_QUESTIONS` questions with two or more
        trials: strength not identified, pooled bound, conservative) or
        ``"fallback-degenerate"`` (all trials in one category: pooled Jeffreys mean).
    note : str
        Plain-language explanation for fallbacks ("" otherwise).
    """

    alpha: np.ndarray
    mean: np.ndarray
    pooled: bool
    method: str
    note: str = ""

    @property
    def strength(self) -> float:
        """Total pseudo-count ``A = sum(alpha)`` (``inf`` when pooled)."""
        return float("inf") if self.pooled else float(np.sum(self.alpha))


def prior_alpha(prior: str, n_categories: int) -> np.ndarray:
    """Pseudo-counts of a fixed prior: 1 (uniform) or 1/2 (Jeffreys) per category.

    Raises
    ------
    ValueError
        For ``"empirical-bayes"`` (fitted per model: use :func:`fit_dirichlet_prior`) or an
        unknown key.
    """
    check_prior(prior)
    if prior == "uniform":
        return np.ones(n_categories)
    if prior == "jeffreys":
        return np.full(n_categories, 0.5)
    raise ValueError("the empirical-Bayes prior is fitted per model: use fit_dirichlet_prior(counts).")


def _neg_log_marginal(eta: np.ndarray, rows: np.ndarray, freq: np.ndarray, totals: np.ndarray):
    """Dirichlet-multinomial negative log marginal likelihood in ``eta = log(alpha)`` and its gradient."""
    alpha = np.exp(eta)
    a_sum = alpha.sum()
    ll = freq @ (gammaln(a_sum) - gammaln(a_sum + totals) + (gammaln(rows + alpha) - gammaln(alpha)).sum(axis=1))
    d_alpha = freq @ (digamma(a_sum) - digamma(a_sum + totals))[:, None] + freq @ (digamma(rows + alpha) - digamma(alpha))
    return -float(ll), -(d_alpha * alpha)


def fit_dirichlet_prior(counts: object) -> FittedPrior:
    r"""Empirical-Bayes Dirichlet prior fitted to one model's per-question category counts.

    Parameters
    ----------
    counts : array-like of int, shape (M, C+1)
        Category counts per question (binary: ``[n_wrong, n_correct]``); rows with no trials
        are ignored (the model did not answer that question).

    Returns
    -------
    FittedPrior
        ``alpha`` maximising the Dirichlet-multinomial marginal likelihood
        ``prod_a  B(alpha + n_a) / B(alpha)`` (the multinomial coefficients do not depend on
        ``alpha``), found with ``scipy.optimize.minimize`` (L-BFGS-B on ``log alpha`` with
        an analytic gradient, ``alpha_j`` in [1e-3, 1e6]).

    Notes
    -----
    Fallbacks, where the data cannot identify the prior:

    - every answered question has one trial (N = 1): the strength ``sum(alpha)`` is not
      identified (only the mean is). The prior is *pooled* (infinite strength, mean = the
      observed category frequencies); with the hyperparameter uncertainty of
      :func:`scorio_core.uncertainty.posterior_summary` this gives the binomial
      (multinomial) variance ``p(1-p)/M``, an upper bound on the questions-fixed variance,
      hence conservative intervals.
    - all trials fall in one category (e.g. a model that never, or always, answers
      correctly): the pool mean is the pooled Jeffreys estimate
      ``(K_j + 1/2) / (K + (C+1)/2)`` and the prior is pooled.

    Raises
    ------
    ValueError
        If ``counts`` is not a 2-D array of non-negative integers with at least one answered
        question.
    """
    c = np.asarray(counts)
    if c.ndim != 2 or c.shape[1] < 2 or c.dtype.kind not in "iub" and not (c.dtype.kind == "f" and np.all(c == np.trunc(c))):
        raise ValueError(f"counts must be an (M, C+1) integer array with C+1 >= 2; got shape {c.shape} dtype {c.dtype}.")
    c = c.astype(np.float64)
    if np.any(c < 0):
        raise ValueError("counts must be non-negative.")
    totals = c.sum(axis=1)
    c = c[totals > 0]
    totals = totals[totals > 0]
    if c.shape[0] == 0:
        raise ValueError("counts has no answered question (every row sums to 0).")
    pooled = c.sum(axis=0)
    n_cat = c.shape[1]
    if np.count_nonzero(pooled) <= 1:
        mean = (pooled + 0.5) / (pooled.sum() + 0.5 * n_cat)
        return FittedPrior(
            mean * np.inf, mean, True, "fallback-degenerate",
            "every trial fell in one category, so the spread between questions cannot be estimated; "
            "the interval uses the pooled Jeffreys estimate (questions treated as alike).",
        )
    if _too_few_repeats(np.count_nonzero(totals >= 2), float((totals * (totals - 1) / 2).sum()),
                        np.count_nonzero(np.count_nonzero(c, axis=1) >= 2)):
        mean = (c / totals[:, None]).mean(axis=0)  # the observed mean over the questions (each weighted equally)
        with np.errstate(invalid="ignore"):  # an unobserved category: 0 * inf is NaN (no strength), as before, silently
            alpha = mean * np.inf
        return FittedPrior(
            alpha, mean, True, "fallback-n1",
            f"too few repeated trials ({NOT_IDENTIFIED_RULE}) leave the prior's strength not identified; the interval "
            "uses the binomial bound p(1-p)/(M N_min) (conservative: N_min the fewest trials of a question).",
        )
    rows, freq = np.unique(c, axis=0, return_counts=True)
    row_totals = rows.sum(axis=1)
    freq = freq.astype(np.float64)
    mean0 = np.clip(pooled / pooled.sum(), 1e-3, None)
    eta0 = np.log(2.0 * mean0 / mean0.sum())
    from scipy import optimize  # imported here: scipy.optimize costs ~0.15 s of CLI start-up; the batch fit does not use it

    result = optimize.minimize(
        _neg_log_marginal, eta0, args=(rows, freq, row_totals), jac=True, method="L-BFGS-B",
        bounds=[_LOG_ALPHA_BOUNDS] * n_cat,
    )
    alpha = np.exp(result.x)
    return FittedPrior(alpha, alpha / alpha.sum(), False, "marginal-likelihood")


def log_alpha_covariance(counts: object, alpha: object) -> np.ndarray | None:
    """Asymptotic covariance of the fitted ``log alpha``: inverse observed information.

    Parameters
    ----------
    counts : array-like of int, shape (M, C+1)
        The counts the prior was fitted to (rows with no trials are ignored).
    alpha : array-like of float, shape (C+1,)
        The fitted pseudo-counts (finite).

    Returns
    -------
    ndarray, shape (C+1, C+1), or None
        Inverse of the Hessian of the negative Dirichlet-multinomial log marginal likelihood
        in ``eta = log alpha`` at ``alpha``; None when it is not positive definite (e.g. the
        fit sits on a bound, where the likelihood is flat).
    """
    c = np.asarray(counts, dtype=np.float64)
    c = c[c.sum(axis=1) > 0]
    a = np.asarray(alpha, dtype=np.float64)
    if not np.all(np.isfinite(a)) or c.shape[0] == 0:
        return None
    rows, freq = np.unique(c, axis=0, return_counts=True)
    totals = rows.sum(axis=1)
    a_sum = a.sum()
    from scipy.special import polygamma

    g_a = freq @ ((digamma(a_sum) - digamma(a_sum + totals))[:, None] + digamma(rows + a) - digamma(a))
    h_common = float(freq @ (polygamma(1, a_sum) - polygamma(1, a_sum + totals)))
    h_diag = freq @ (polygamma(1, rows + a) - polygamma(1, a))
    hessian_ll = np.outer(a, a) * (h_common + np.diag(h_diag)) + np.diag(g_a * a)
    info = -hessian_ll
    try:
        np.linalg.cholesky(info)
    except np.linalg.LinAlgError:
        return None
    return np.linalg.inv(info)
