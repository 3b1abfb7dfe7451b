"""Registry of leaderboard metrics: one entry per core metric, with its credible interval.

Pages, the CLI and exports pick metrics by ``key`` and show ``label`` (the field's term).
Each entry maps count-level sufficient statistics of one model to
``(estimate, mu, sigma, lo, hi)``: ``estimate`` is the classical point value people report
(e.g. the unbiased Pass@k estimator), ``mu, sigma, lo, hi`` the posterior summary used for
ranking. For Bayes@N and avg@N ``estimate`` equals ``mu``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from scorio_core import eval as ev

__all__ = ["MetricSpec", "METRICS", "get_metric", "MetricValue"]


@dataclass(frozen=True)
class MetricValue:
    """Point estimate and posterior summary of one metric for one model."""

    estimate: float
    mu: float
    sigma: float
    lo: float
    hi: float


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

    def compute(self, counts, *, w: np.ndarray, k: int = 1, tau: float = 0.5, confidence: float = 0.95) -> MetricValue:
        """Evaluate on :class:`~scorio_core.eval.CategoryCounts` (rubric) or :class:`~scorio_core.eval.BinaryCounts`."""
        return self._compute(counts, w=w, k=k, tau=tau, confidence=confidence)


def _bayes(counts, *, w, k, tau, confidence):
    mu, sigma, lo, hi = ev.bayes_ci(counts, w, confidence=confidence, bounds=(float(w.min()), float(w.max())))
    return MetricValue(mu, mu, sigma, lo, hi)


def _avg(counts, *, w, k, tau, confidence):
    if counts.has_prior:
        counts = ev.CategoryCounts(counts.counts)
    a, sigma, lo, hi = ev.avg_ci(counts, w, confidence=confidence, bounds=(float(w.min()), float(w.max())))
    return MetricValue(a, a, sigma, lo, hi)


def _max(counts, *, w, k, tau, confidence):
    point_counts = ev.CategoryCounts(counts.counts)
    estimate = ev.max_at_k(point_counts, k, w) if k <= int(counts.n_trials.min()) else float("nan")
    mu, sigma, lo, hi = ev.max_at_k_ci(counts, k, w, confidence=confidence)
    return MetricValue(estimate, mu, sigma, lo, hi)


def _binary(point: Callable, ci: Callable, with_tau: bool = False):
    def compute(counts, *, w, k, tau, confidence):
        args = (k, tau) if with_tau else (k,)
        estimate = point(counts, *args)
        mu, sigma, lo, hi = ci(counts, *args, confidence=confidence)
        return MetricValue(estimate, mu, sigma, lo, hi)

    return compute


_TRIALS = "uncertainty from the finite trials of each question (questions fixed)"

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
