"""Registry of leaderboard metrics: one entry per core metric, with its credible interval.

Pages, the CLI and exports pick metrics by ``key`` and show ``label`` (the field's term).
Each entry maps count-level sufficient statistics of one model to
``(estimate, mu, sigma, lo, hi)``: ``estimate`` is the classical point value people report
(e.g. the unbiased Pass@k estimator), ``mu, sigma, lo, hi`` the posterior summary used for
ranking. For Bayes@N ``estimate`` equals ``mu``; avg@N's ``estimate`` is the observed mean.

Every metric takes a ``prior`` (:data:`scorio_core.uncertainty.PRIORS`) and an interval
``scope`` (:data:`scorio_core.uncertainty.SCOPES`); the :class:`MetricValue` says which prior
was actually used (Max@k only supports the paper's uniform prior and says so).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from scorio_core import eval as ev
from scorio_core.eval._interval import ci_tuple
from scorio_core.uncertainty import DEFAULT_PRIOR, DEFAULT_SCOPE, check_prior, check_scope, fit_dirichlet_prior, posterior_summary

__all__ = ["MetricSpec", "METRICS", "get_metric", "MetricValue", "beta_prior", "min_k", "k_problem", "check_k"]


@dataclass(frozen=True)
class MetricValue:
    """Point estimate and posterior summary of one metric for one model."""

    estimate: float
    mu: float
    sigma: float
    lo: float
    hi: float
    prior: str = "uniform"
    scope: str = "questions-fixed"
    prior_fit: str = ""


@dataclass(frozen=True)
class MetricSpec:
    """A leaderboard metric.

    Attributes
    ----------
    key : str
        Stable identifier used in URLs, JSON and the CLI (``--metric``).
    label : str
        Display name ("Bayes@N", "Pass@k", ...).
    binary : bool
        True if the metric needs binary correctness (the Pass@k family); rubric metrics
        (Bayes@N, avg@N, Max@k) use the rubric's categories and weights.
    uses_k, uses_tau : bool
        Whether ``k`` / ``tau`` apply.
    interval : str
        What the credible interval covers, shown in the UI.
    """

    key: str
    label: str
    binary: bool
    uses_k: bool
    uses_tau: bool
    interval: str
    _compute: Callable[..., MetricValue]

    def compute(
        self,
        counts,
        *,
        w: np.ndarray,
        k: int = 1,
        tau: float = 0.5,
        confidence: float = 0.95,
        prior: str = DEFAULT_PRIOR,
        scope: str = DEFAULT_SCOPE,
    ) -> MetricValue:
        """Evaluate on :class:`~scorio_core.eval.CategoryCounts` (rubric) or :class:`~scorio_core.eval.BinaryCounts`.

        Raises
        ------
        ValueError
            Unknown ``prior`` or ``scope``, or an argument the metric rejects.
        """
        return self._compute(counts, w=w, k=k, tau=tau, confidence=confidence, prior=check_prior(prior), scope=check_scope(scope))


def _summary(counts, w, confidence, prior, scope):
    prior_counts = counts.prior_counts if counts.has_prior else None
    s = posterior_summary(counts.counts, w, prior=prior, scope=scope, confidence=confidence, prior_counts=prior_counts)
    return s, ("" if s.fitted is None else s.fitted.method)


def _bayes(counts, *, w, k, tau, confidence, prior, scope):
    s, fit = _summary(counts, w, confidence, prior, scope)
    return MetricValue(s.mu, s.mu, s.sigma, s.lo, s.hi, prior, scope, fit)


def _avg(counts, *, w, k, tau, confidence, prior, scope):
    if counts.has_prior:
        counts = ev.CategoryCounts(counts.counts)
    if prior == "uniform" and scope == "questions-fixed":
        a, sigma, lo, hi = ev.avg_ci(counts, w, confidence=confidence, bounds=(float(w.min()), float(w.max())))
        return MetricValue(a, a, sigma, lo, hi, prior, scope)
    # avg@N estimates the same theta as Bayes@N: report the observed mean, rank and bound by
    # the posterior of theta under the chosen prior and scope.
    a = ev.avg(counts, w)[0]
    s, fit = _summary(counts, w, confidence, prior, scope)
    return MetricValue(a, s.mu, s.sigma, s.lo, s.hi, prior, scope, fit)


def _max(counts, *, w, k, tau, confidence, prior, scope):
    point_counts = ev.CategoryCounts(counts.counts)
    estimate = ev.max_at_k(point_counts, k, w) if k <= int(counts.n_trials.min()) else float("nan")
    mu, sigma, lo, hi = ev.max_at_k_ci(counts, k, w, confidence=confidence)
    return MetricValue(estimate, mu, sigma, lo, hi, "uniform", "questions-fixed")


#: Pooled (questions alike) empirical-Bayes priors enter the Beta posteriors with this strength.
_POOLED_STRENGTH = 1e6


def beta_prior(counts: ev.BinaryCounts, prior: str) -> tuple[float, float, str]:
    """``(alpha0, beta0, fit)`` of the Beta prior ``prior`` for binary counts.

    ``uniform`` is Beta(1, 1) (the reference default), ``jeffreys`` Beta(1/2, 1/2),
    ``empirical-bayes`` the Beta-binomial maximum-marginal-likelihood fit of
    :func:`scorio_core.uncertainty.fit_dirichlet_prior` (pooled fits enter with strength
    1e6). ``fit`` names the fitting method ("" for fixed priors); a ``fit`` starting ``"fallback"`` means the
    strength is not identified, and the Pass@k-family metrics then report their estimate with an exact binomial
    interval instead (:func:`_fallback_value`), as Bayes@N does.
    """
    if prior == "uniform":
        return 1.0, 1.0, ""
    if prior == "jeffreys":
        return 0.5, 0.5, ""
    c = np.asarray(counts.n_correct)
    fitted = fit_dirichlet_prior(np.stack([np.asarray(counts.n_trials) - c, c], axis=1))
    alpha = fitted.mean * _POOLED_STRENGTH if fitted.pooled else fitted.alpha
    return float(alpha[1]), float(alpha[0]), fitted.method


def _with_hyperparameter_uncertainty(counts, ci, args, confidence, a0, b0, sigma) -> float:
    """sigma of a Pass@k-family metric with the uncertainty of the fitted Beta prior added.

    Law of total variance, delta method: ``J Sigma J^T`` with ``J = d mu / d(log alpha0, log beta0)``
    (central differences) and ``Sigma`` the inverse observed information of the Beta-binomial
    marginal likelihood (:func:`scorio_core.uncertainty.priors.log_alpha_covariance`). When the
    fit sits on a bound (flat likelihood), only the pool mean's uncertainty is added:
    ``(d mu / d m)^2 m (1 - m) (1/M^2) sum_a (A + N_a) / (N_a (A + 1))``.
    """
    from scorio_core.uncertainty.priors import log_alpha_covariance

    c = np.asarray(counts.n_correct)
    n_a = np.asarray(counts.n_trials, dtype=float)
    cov = log_alpha_covariance(np.stack([np.asarray(counts.n_trials) - c, c], axis=1), [b0, a0])
    h = 1e-4

    def mu_at(a, b):
        return ci(counts, *args, confidence=confidence, alpha0=a, beta0=b)[0]

    if cov is not None:
        d_beta = (mu_at(a0, b0 * np.exp(h)) - mu_at(a0, b0 * np.exp(-h))) / (2 * h)
        d_alpha = (mu_at(a0 * np.exp(h), b0) - mu_at(a0 * np.exp(-h), b0)) / (2 * h)
        jac = np.array([d_beta, d_alpha])  # order of cov: (log beta0, log alpha0) = categories (wrong, correct)
        return float(np.sqrt(sigma**2 + max(float(jac @ cov @ jac), 0.0)))
    strength, m = a0 + b0, a0 / (a0 + b0)
    step = h * min(m, 1.0 - m)
    if step <= 0:
        return sigma
    slope = (mu_at(strength * (m + step), strength * (1 - m - step)) - mu_at(strength * (m - step), strength * (1 - m + step)))
    var_m = m * (1 - m) * float(np.sum((strength + n_a) / (n_a * (strength + 1.0)))) / counts.n_questions**2
    return float(np.sqrt(sigma**2 + (slope / (2 * step)) ** 2 * var_m))


def _shaped_interval(mu: float, sigma: float, confidence: float) -> tuple[float, float]:
    """Beta-shaped interval on [0, 1] matched to (mu, sigma), as for Bayes@N under non-uniform priors."""
    from scorio_core.uncertainty.posterior import _interval

    return _interval(mu, sigma, confidence, 0.0, 1.0, "beta")


def _fallback_value(estimate: float, m: int, confidence: float, prior: str, scope: str, fit: str) -> MetricValue:
    """A Pass@k-family value where the empirical-Bayes prior is not identified: the estimate (mean of the per-question
    estimates) with the exact binomial interval on ``m`` trials and the binomial sd ``sqrt(x (1 - x) / m)``.

    Each question's estimate lies in [0, 1] with mean its metric ``t_a``, so its variance is at most ``t_a (1 - t_a)``
    (Bhatia-Davis) and that of the mean at most ``x (1 - x) / m`` (concavity): conservative whatever the questions'
    rates, with questions fixed or sampled (the same bound holds for the total variance over both draws).
    """
    from scorio_core.uncertainty.posterior import _clopper_pearson

    x = min(max(float(estimate), 0.0), 1.0)
    lo, hi = _clopper_pearson(x, float(m), confidence)
    return MetricValue(estimate, x, float(np.sqrt(x * (1.0 - x) / m)), lo, hi, prior, scope, fit)


def _binary(point: Callable, ci: Callable, with_tau: bool = False):
    def compute(counts, *, w, k, tau, confidence, prior, scope):
        args = (k, tau) if with_tau else (k,)
        estimate = point(counts, *args) + 0.0  # + 0.0: 1 - 1 is -0.0 in some estimators, printed "-0.0" in JSON
        a0, b0, fit = beta_prior(counts, prior)
        if fit.startswith("fallback"):
            # the empirical-Bayes prior is not identified (N = 1, too few repeated trials, one outcome only): a pooled
            # point mass would score every question at the model's average rate, i.e. the metric of the average
            # (1 - (1 - p)^k, not the mean of each question's metric), a biased mean with a credible-looking interval.
            # As Bayes@N's fallback: the estimate itself with an exact binomial interval on M trials, a bound for any
            # per-question rates (each question's estimate lies in [0, 1], so its variance is at most m (1 - m)).
            return _fallback_value(estimate, counts.n_questions, confidence, prior, scope, fit)
        mu, sigma, lo, hi = ci(counts, *args, confidence=confidence, alpha0=a0, beta0=b0)
        if fit and sigma > 0:
            sigma = _with_hyperparameter_uncertainty(counts, ci, args, confidence, a0, b0, sigma)
            lo, hi = _shaped_interval(mu, sigma, confidence)
        if scope == "questions-sampled" and counts.n_questions > 1:
            # Law of total variance over questions: add the spread of the per-question
            # posterior means / M. One call per distinct (n_trials, n_correct) state, not per
            # question (at most N+1 states for N trials).
            n, c, freq = counts.states()
            means = np.array([ci(ev.BinaryCounts([ci_], [ni]), *args, confidence=confidence, alpha0=a0, beta0=b0)[0]
                              for ni, ci_ in zip(n.tolist(), c.tolist())])
            f = freq.astype(float) / freq.sum()
            between = float(f @ (means - f @ means) ** 2) * counts.n_questions / (counts.n_questions - 1)
            sigma = float(np.sqrt(sigma**2 + between / counts.n_questions))
            lo, hi = _shaped_interval(mu, sigma, confidence) if fit else ci_tuple(mu, sigma, confidence, (0.0, 1.0))[2:]
        return MetricValue(estimate, mu, sigma, lo, hi, prior, scope, fit)

    return compute


_TRIALS = "uncertainty from the finite trials of each question (questions fixed) or also from which questions were drawn (questions sampled)"

METRICS: dict[str, MetricSpec] = {
    spec.key: spec
    for spec in (
        MetricSpec("bayes", "Bayes@N", False, False, False, _TRIALS + "; Dirichlet posterior per question, Eq. 15", _bayes),
        MetricSpec("avg", "avg@N", False, False, False, _TRIALS + "; Bayes@N sigma rescaled by T/N (Eq. 20)", _avg),
        MetricSpec("pass@k", "Pass@k", True, True, False, _TRIALS + "; Beta posterior of 1-(1-p)^k", _binary(ev.pass_at_k, ev.pass_at_k_ci)),
        MetricSpec("pass^k", "Pass^k", True, True, False, _TRIALS + "; Beta posterior of p^k", _binary(ev.pass_hat_k, ev.pass_hat_k_ci)),
        MetricSpec(
            "g-pass@k_tau", "G-Pass@k_tau", True, True, True, _TRIALS + "; Beta posterior of P(>= ceil(tau k) of k)",
            _binary(ev.g_pass_at_k_tau, ev.g_pass_at_k_tau_ci, with_tau=True),
        ),
        MetricSpec("mg-pass@k", "mG-Pass@k", True, True, False, _TRIALS, _binary(ev.mg_pass_at_k, ev.mg_pass_at_k_ci)),
        MetricSpec("maj@k", "maj@k", True, True, False, _TRIALS, _binary(ev.maj_at_k, ev.maj_at_k_ci)),
        MetricSpec("auc@k", "AUC@k", True, True, False, _TRIALS, _binary(ev.auc_at_k, ev.auc_at_k_ci)),
        MetricSpec("max@k", "Max@k", False, True, False, _TRIALS + "; Dirichlet posterior, closed form", _max),
        MetricSpec("geom@k", "Geom@k", True, True, False, _TRIALS + "; delta method", _binary(ev.geom_at_k, ev.geom_at_k_ci)),
        MetricSpec(
            "geo-spectrum*@k", "GeoSpectrum*@k", True, True, False, _TRIALS + "; delta method",
            _binary(ev.geo_spectrum_star_at_k, ev.geo_spectrum_star_at_k_ci),
        ),
    )
}


def get_metric(key: str) -> MetricSpec:
    """Return the :class:`MetricSpec` for ``key``.

    Raises
    ------
    ValueError
        Unknown key; the message lists the valid keys.
    """
    try:
        return METRICS[key]
    except KeyError:
        raise ValueError(f"metric must be one of {', '.join(METRICS)}; got {key!r}.") from None


#: Metrics that score every model 0 below a k (key -> (smallest useful k, why)): mG-Pass@k is
#: ``(2/k) sum_{j=m+1}^{k} (j - m) P(X = j)`` with ``m = ceil(k/2)`` (Eq. 24), a sum with no term at k = 1, and
#: GeoSpectrum*@k = sqrt(Pass@k * mG-Pass@k) inherits it.
_MIN_K = {
    "mg-pass@k": (2, "its sum over j from ceil(k/2) + 1 to k is empty"),
    "geo-spectrum*@k": (2, "it is sqrt(Pass@k x mG-Pass@k), and mG-Pass@k's sum over j from ceil(k/2) + 1 to k is "
                           "empty"),
}


def min_k(key: str) -> int:
    """The smallest ``k`` at which metric ``key`` can tell models apart (1 for most metrics).

    >>> min_k("pass@k"), min_k("mg-pass@k")
    (1, 2)
    """
    return _MIN_K.get(key, (1, ""))[0]


def k_problem(key: str, k: int) -> str | None:
    """Why metric ``key`` at ``k`` scores every model 0 (an empty sum), or None where ``k`` is fine.

    The sentence names the smallest useful k but not how to set it: the CLI adds "pass --k 2 or more", the app
    points at its k box.

    >>> print(k_problem("mg-pass@k", 1))
    mG-Pass@k needs k >= 2: at k = 1 its sum over j from ceil(k/2) + 1 to k is empty, so every model scores 0 with a zero-width interval
    >>> k_problem("mg-pass@k", 2) is None, k_problem("pass@k", 1) is None
    (True, True)
    """
    smallest, why = _MIN_K.get(key, (1, ""))
    if int(k) >= smallest:
        return None
    return (f"{get_metric(key).label} needs k >= {smallest}: at k = {int(k)} {why}, so every model scores 0 with a "
            "zero-width interval")


def check_k(key: str, k: int) -> int:
    """``k`` for metric ``key`` on the command line (``--k``): at least 1, and not where the metric scores every model 0.

    Raises
    ------
    ValueError
        ``k < 1``, or :func:`k_problem` (e.g. mG-Pass@k at k = 1), with the smallest ``--k`` to pass.

    >>> check_k("mg-pass@k", 1)
    Traceback (most recent call last):
    ...
    ValueError: mG-Pass@k needs k >= 2: at k = 1 its sum over j from ceil(k/2) + 1 to k is empty, so every model scores 0 with a zero-width interval; pass --k 2 or more.
    """
    if k < 1:
        raise ValueError(f"--k must be >= 1; got {k}.")
    problem = k_problem(key, k)
    if problem:
        raise ValueError(f"{problem}; pass --k {min_k(key)} or more.")
    return k
