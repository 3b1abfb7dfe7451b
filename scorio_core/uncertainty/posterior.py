r"""Generalised Bayes@N: real-valued Dirichlet pseudo-counts, two interval scopes.

``bayes_dirichlet`` is Eq. 15 of Hariri et al. (ICLR 2026, Appendix A) with the uniform
``+1`` replaced by any positive pseudo-counts ``alpha``; ``alpha = 1 + R0 counts`` is the
paper's Bayes@N exactly. :func:`posterior_summary` is what every view calls: posterior mean,
standard deviation and a central credible interval of the rubric-weighted score for one
model, under a prior (:mod:`scorio_core.uncertainty.priors`) and a scope:

- ``questions-fixed`` (the paper's estimand): ``theta = (1/M) sum_a w . pi_a`` over the
  questions in the file; the interval covers the uncertainty from the finite trials.
- ``questions-sampled``: the mean over a larger pool the questions were drawn from; the
  interval also covers which questions were drawn (Miller 2024, arXiv:2411.00640, the CLT
  standard error over questions), never narrower than the questions-fixed one.

Coverage of every prior x scope is measured by simulation in
``benchmarks/bench_calibration.py`` (table in docs/metrics.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special as _special  # betaincinv = scipy.stats.beta.ppf (same Boost routine), without importing scipy.stats (0.3 s)

from scorio_core.choices import DEFAULT_PRIOR, DEFAULT_SCOPE, SCOPE_HELP, SCOPE_LABELS, SCOPES, is_fallback_interval
from scorio_core.eval._interval import ci_tuple
from scorio_core.eval.bayes import bayes_moments, scaled_weights
from scorio_core.uncertainty.fallback import FALLBACK_LABELS, ONE_TRIAL_CAUSE, fallback_interval_label, fallback_reason
from scorio_core.uncertainty.priors import (NOT_IDENTIFIED_RULE, PRIOR_LABELS, FittedPrior, check_prior, fit_dirichlet_prior,
                                            prior_alpha)

__all__ = ["SCOPES", "SCOPE_LABELS", "DEFAULT_PRIOR", "DEFAULT_SCOPE", "PosteriorSummary", "bayes_dirichlet",
           "posterior_summary", "projection_alpha", "check_scope", "interval_label", "FALLBACK_LABELS",
           "fallback_interval_label", "fallback_reason", "is_fallback_interval", "calibration_table", "SCOPE_HELP"]


def _beta_ppf(q, a, b):
    """Quantile ``q`` of Beta(a, b): ``scipy.stats.beta.ppf(q, a, b)`` (identical values, NaN outside the domain)."""
    return _special.betaincinv(a, b, q)


def check_scope(scope: object) -> str:
    """Validate a scope key; returns it.

    Raises
    ------
    ValueError
        If ``scope`` is not one of :data:`SCOPES`.
    """
    if not isinstance(scope, str) or scope not in SCOPES:
        raise ValueError(f"scope must be one of {', '.join(SCOPES)}; got {scope!r}.")
    return scope


def interval_label(prior: str, scope: str, confidence: float = 0.95) -> str:
    """One line saying what an interval covers, e.g. for legends, exports and JSON."""
    return f"{confidence:.0%} credible interval; covers {SCOPE_LABELS[check_scope(scope)]}; {PRIOR_LABELS[check_prior(prior)]}"


def bayes_dirichlet(counts: object, w: object, alpha: object) -> tuple[np.ndarray, np.ndarray]:
    r"""Bayes@N posterior mean and standard deviation under Dirichlet(``alpha``) priors.

    Parameters
    ----------
    counts : array-like, shape (..., M, C+1)
        Category counts per question (leading axes are batch axes).
    w : array-like of float, shape (C+1,)
        Category weights.
    alpha : array-like of float, broadcastable to ``counts``
        Positive prior pseudo-counts per category (and optionally per question). ``1``
        (plus the tallies of ``R0``) is the paper's uniform prior, ``1/2`` Jeffreys.

    Returns
    -------
    mu, sigma : ndarray, shape (...)
        With ``nu = counts + alpha`` and ``T_a = sum_j nu_aj``:
        ``mu = (1/M) sum_a sum_j nu_aj w_j / T_a`` and
        ``sigma^2 = (1/M^2) sum_a [sum_j nu_aj w_j^2 / T_a - (sum_j nu_aj w_j / T_a)^2] / (T_a + 1)``
        (Eq. 15 of the paper with real-valued pseudo-counts; per-question Dirichlet
        posteriors are independent given the questions).

    Raises
    ------
    ValueError
        If ``alpha`` has a non-positive or non-finite entry, or shapes do not broadcast.
    """
    alpha = np.asarray(alpha, dtype=float)
    if not np.all(np.isfinite(alpha)) or np.any(alpha <= 0):
        raise ValueError("alpha (prior pseudo-counts) must be finite and > 0.")
    nu = np.asarray(counts, dtype=float) + alpha
    offset, scale, w_norm = scaled_weights(np.asarray(w, dtype=float))
    batch = nu.shape[:-2]
    if scale == 0.0:
        return np.full(batch, offset), np.zeros(batch)
    total = nu.sum(axis=-1)
    m1 = (nu @ w_norm) / total
    m2 = (nu @ (w_norm * w_norm)) / total
    var = np.maximum(m2 - m1 * m1, 0.0) / (total + 1.0)
    n_questions = nu.shape[-2]
    return offset + scale * m1.mean(axis=-1), scale * np.sqrt(var.sum(axis=-1)) / n_questions


@dataclass(frozen=True)
class PosteriorSummary:
    """Posterior summary of one model's rubric-weighted score.

    Attributes
    ----------
    mu, sigma, lo, hi : float
        Posterior mean, standard deviation and central credible interval (score units).
    prior, scope : str
        Keys of the prior and scope used.
    label : str
        What the interval covers (:func:`interval_label`).
    fitted : FittedPrior or None
        The fitted empirical-Bayes prior (None for fixed priors).
    note : str
        Fallback explanation when the data could not identify the prior ("" otherwise).
    """

    mu: float
    sigma: float
    lo: float
    hi: float
    prior: str
    scope: str
    label: str
    fitted: FittedPrior | None = None
    note: str = ""


def _weighted_var(mean: np.ndarray, w: np.ndarray) -> float:
    """Variance of the weights under category probabilities ``mean``."""
    first = float(mean @ w)
    return max(float(mean @ (w * w)) - first * first, 0.0)


def _empirical_bayes(counts: np.ndarray, w_norm: np.ndarray, extra: np.ndarray | None, fitted: FittedPrior) -> tuple[float, float]:
    """Mean and sd (normalized weights) of the questions-fixed score, hyperparameter uncertainty included.

    Law of total variance over the hyperparameters: ``Var = E-term + Var_h``, with the
    E-term the posterior variance at the fitted prior (:func:`bayes_dirichlet`) and ``Var_h``
    the variance of the posterior mean through the fitted pool mean ``m``:
    ``(d mu / d m)^T Cov(m) (d mu / d m) = c^2 v Var_m(w)``, ``c = (1/M) sum_a A / (N_a + A)``,
    ``v = (1/M^2) sum_a (A + N_a) / (N_a (A + 1))`` (the Dirichlet-multinomial variance of a
    question's observed frequencies). ``A = inf`` (pooled, strength not identified) gives the binomial bound
    ``Var_m(w) / (M N_min)``, which holds whatever the per-question rates (``(1/M^2) sum 1/N_a`` does not when
    the questions' trial counts differ).
    """
    n = counts.sum(axis=1)
    m = counts.shape[0]
    spread = _weighted_var(fitted.mean, w_norm)
    if fitted.pooled:
        mu = float(fitted.mean @ w_norm)
        if extra is not None and extra.any():
            # a category the data never showed has pool mean 0: alpha 0 there unless R0 has it (its posterior
            # mass is 0 either way), so the smallest positive float stands in for 0
            alpha = np.maximum(fitted.mean * 1e12 + extra, np.finfo(float).tiny)
            mu = float(bayes_dirichlet(counts, w_norm, alpha)[0])
        return mu, float(np.sqrt(spread / (m * n.min())))  # p(1-p)/(M N_min): a bound for any per-question rates
    alpha = fitted.alpha if extra is None else fitted.alpha + extra
    mu, sigma = bayes_dirichlet(counts, w_norm, alpha)
    a = fitted.strength
    c = float(np.mean(a / (n + a)))
    v = float(np.sum((a + n) / (n * (a + 1.0)))) / m**2
    return float(mu), float(np.sqrt(float(sigma) ** 2 + c * c * v * spread))


def _interval(mu: float, sigma: float, confidence: float, lo_w: float, hi_w: float, shape: str) -> tuple[float, float]:
    """Central interval: normal (clipped to the score range) or a moment-matched Beta on it."""
    if shape == "normal" or sigma <= 0 or hi_w <= lo_w:
        return ci_tuple(mu, sigma, confidence, (lo_w, hi_w))[2:]
    width = hi_w - lo_w
    x = min(max((mu - lo_w) / width, 0.0), 1.0)
    s2 = (sigma / width) ** 2
    if x <= 0.0 or x >= 1.0 or s2 >= x * (1.0 - x):
        return ci_tuple(mu, sigma, confidence, (lo_w, hi_w))[2:]
    k = x * (1.0 - x) / s2 - 1.0
    q = _beta_ppf([0.5 - 0.5 * confidence, 0.5 + 0.5 * confidence], x * k, (1.0 - x) * k)
    # a Beta with nearly all its mass at an end rounds its quantiles onto the end (ppf -> 1.0 for mu = 1 - 5e-8):
    # keep the mean inside its own interval
    return min(float(lo_w + width * q[0]), mu), max(float(lo_w + width * q[1]), mu)


def _clopper_pearson(x: float, n_eff: float, confidence: float) -> tuple[float, float]:
    """Exact (Clopper-Pearson) binomial interval for ``x * n_eff`` successes in ``n_eff`` trials.

    Used when the prior is pooled (N = 1, or every trial in one category): the
    questions-fixed score is then a Poisson-binomial mean, less variable than the binomial,
    so the exact binomial interval is conservative; unlike a normal or moment-matched Beta
    interval it stays non-degenerate at 0 and 1 successes.
    """
    tail = 0.5 - 0.5 * confidence
    k = min(max(x, 0.0), 1.0) * n_eff
    lo = 0.0 if k <= 0 else float(_beta_ppf(tail, k, n_eff - k + 1.0))
    hi = 1.0 if k >= n_eff else float(_beta_ppf(1.0 - tail, k + 1.0, n_eff - k))
    return lo, hi


def posterior_summary(
    counts: object,
    w: object,
    *,
    prior: str = DEFAULT_PRIOR,
    scope: str = DEFAULT_SCOPE,
    confidence: float = 0.95,
    prior_counts: object | None = None,
    shape: str = "beta",
) -> PosteriorSummary:
    r"""Posterior mean, sd and credible interval of one model's score under a prior and scope.

    Parameters
    ----------
    counts : array-like of int, shape (M, C+1)
        The model's category counts on the questions it answered (every row > 0 trials;
        rows may have different totals).
    w : array-like of float, shape (C+1,)
        Category weights (binary correctness: ``[0, 1]``).
    prior : {"empirical-bayes", "uniform", "jeffreys"}
        ``uniform`` reproduces the reference ``bayes_ci`` exactly (normal interval clipped to
        ``[min w, max w]``, paper section 2.5).
    scope : {"questions-fixed", "questions-sampled"}
        What the interval covers (module docstring).
    confidence : float
        Credibility level in (0, 1).
    prior_counts : array-like of int, shape (M, C+1), optional
        Prior outcome tallies per question (``R0``), added to the pseudo-counts.
    shape : {"beta", "normal"}
        Interval shape for the non-uniform priors: a Beta distribution matched to
        ``(mu, sigma)`` on ``[min w, max w]`` (default; respects the bounds and the skew near
        0 and 1) or the normal ``mu -/+ z sigma``.

    Returns
    -------
    PosteriorSummary

    Raises
    ------
    ValueError
        Unknown prior/scope/shape, confidence outside (0, 1), or counts without an answered
        question.
    """
    from scorio_core.eval._validate import check_confidence

    check_prior(prior)
    check_scope(scope)
    confidence = check_confidence(confidence)
    if shape not in ("beta", "normal"):
        raise ValueError(f"shape must be 'beta' or 'normal'; got {shape!r}.")
    counts = np.asarray(counts)
    weights = np.asarray(w, dtype=float)
    if counts.ndim != 2 or counts.shape[1] != weights.size:
        raise ValueError(f"counts must have shape (M, {weights.size}); got {counts.shape}.")
    answered = counts.sum(axis=1) > 0
    if not answered.any():
        raise ValueError("counts has no answered question.")
    counts = counts[answered]
    extra = None if prior_counts is None else np.asarray(prior_counts, dtype=float)[answered]
    lo_w, hi_w = float(weights.min()), float(weights.max())
    offset, scale, w_norm = scaled_weights(weights)
    fitted, note = None, ""
    if prior == "uniform":
        mu, sigma = (float(v) for v in bayes_moments(counts, weights, None if extra is None else extra.astype(np.int64)))
        shape = "normal"
    elif prior == "jeffreys":
        alpha = prior_alpha("jeffreys", weights.size) + (0.0 if extra is None else extra)
        mu, sigma = (float(v) for v in bayes_dirichlet(counts, weights, alpha))
    else:
        fitted = fit_dirichlet_prior(counts)
        note = fitted.note
        if scale == 0.0:
            mu, sigma = offset, 0.0
        else:
            mu_n, sigma_n = _empirical_bayes(counts.astype(float), w_norm, extra, fitted)
            mu, sigma = offset + scale * mu_n, scale * sigma_n
    if scope == "questions-sampled" and counts.shape[0] > 1:
        per_question = (counts @ weights) / counts.sum(axis=1)
        sigma = max(sigma, float(np.std(per_question, ddof=1)) / np.sqrt(counts.shape[0]))
    width = hi_w - lo_w
    if fitted is not None and fitted.pooled and np.isfinite(width) and width > 0.0:
        n = counts.sum(axis=1).astype(float)
        x_obs = (float(np.mean((counts @ weights) / n)) - lo_w) / width  # observed mean over the questions
        n_eff = counts.shape[0] * float(n.min())  # M N_min trials: conservative also for unequal trials per question
        if scope == "questions-sampled" and 0.0 < x_obs < 1.0 and sigma > 0:
            n_eff = min(n_eff, x_obs * (1.0 - x_obs) / (sigma / width) ** 2)
        lo_n, hi_n = _clopper_pearson(x_obs, n_eff, confidence)
        lo, hi = lo_w + width * lo_n, lo_w + width * hi_n
    else:
        lo, hi = _interval(mu, sigma, confidence, lo_w, hi_w, shape)
    fell_back = fallback_interval_label(fitted.method, scope, confidence) if fitted is not None else None
    label = fell_back or interval_label(prior, scope, confidence)  # never a fitted Dirichlet the data did not identify
    return PosteriorSummary(mu, sigma, lo, hi, prior, scope, label, fitted, note)



def projection_alpha(counts: object, prior: str) -> tuple[np.ndarray, str]:
    """Pseudo-counts of one model's prior, held fixed to project more trials (trials needed).

    Parameters
    ----------
    counts : array-like of int, shape (M, C+1)
        The model's category counts per question.
    prior : {"empirical-bayes", "uniform", "jeffreys"}

    Returns
    -------
    alpha : ndarray of float64, shape (C+1,)
        1 (uniform), 1/2 (Jeffreys) or the fitted empirical-Bayes pseudo-counts; where the
        data cannot identify the empirical-Bayes prior (N = 1, all trials in one category)
        the uniform prior's 1, with a note saying so.
    note : str
        "" or the plain-language reason for the substitution.

    Raises
    ------
    ValueError
        Unknown prior or bad counts.
    """
    c = np.asarray(counts)
    K = c.shape[-1]
    if check_prior(prior) != "empirical-bayes":
        return prior_alpha(prior, K), ""
    fitted = fit_dirichlet_prior(c)
    if fitted.pooled:
        one_trial = c.size and int(c.sum(axis=-1).max()) <= 1  # the cause, not the whole rule (QA 2026-12-03)
        why = {"fallback-n1": ONE_TRIAL_CAUSE if one_trial else NOT_IDENTIFIED_RULE,
               "fallback-degenerate": "every trial in one category"}.get(fitted.method, fitted.method)
        return np.ones(K), (f"the empirical-Bayes prior is not identified for this model ({why}); the projection uses "
                            "the uniform prior")
    return np.asarray(fitted.alpha, dtype=float), ""


def calibration_table():
    """The measured coverage table shipped with the package (``calibration.json``).

    Written by ``benchmarks/bench_calibration.py --write``: coverage and mean width of the
    95% interval for every prior x scope x grid cell (p_alpha distribution, M, N), with the
    replications and seed used. Returns a pandas DataFrame with columns ``p_alpha, M, N,
    prior, scope, coverage, width`` and ``attrs`` holding ``reps``, ``seed`` and ``source``.

    Raises
    ------
    OSError
        If the file is missing from the installation.
    """
    import json
    from pathlib import Path

    import pandas as pd

    doc = json.loads((Path(__file__).with_name("calibration.json")).read_text())
    frame = pd.DataFrame(doc["cells"])
    frame.attrs.update({k: doc[k] for k in ("reps", "seed", "source", "confidence")})
    return frame
