r"""Evaluation metrics: Bayes@N, avg@N and the Pass@k family, with credible intervals.

Same names, signatures, defaults and values as the reference package ``scorio`` 0.2.3::

    from scorio_core import eval
    mu, sigma = eval.bayes(R, w, R0)
    mu, sigma, lo, hi = eval.pass_at_k_ci(R, k=2)

``R`` is an ``(M, N)`` outcome matrix (questions x trials, entries ``0..C``), a 1-D row for
one question, or a count object (:class:`BinaryCounts`, :class:`CategoryCounts`) when only
sufficient statistics are known; count objects also allow ragged rows (questions with
different numbers of trials). Point estimators return ``float``; ``*_ci`` functions return
``(mu, sigma, lo, hi)`` as Python floats.

What an interval covers: every posterior here conditions on the questions in ``R`` and
quantifies uncertainty from the finite number of trials per question (the per-question
success probabilities are unknown); it is not a resampling of questions from a population.

References: Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265.
"""

from scorio_core.eval._counts import BinaryCounts, CategoryCounts
from scorio_core.eval.bayes import avg, avg_ci, bayes, bayes_ci
from scorio_core.eval.extras import cons_at_k, flakiness, pass_at_k_naive, pass_hat_k_naive
from scorio_core.eval.geo_spectrum import (
    geo_spectrum_at_k,
    geo_spectrum_at_k_ci,
    geo_spectrum_star_at_k,
    geo_spectrum_star_at_k_ci,
)
from scorio_core.eval.geom import (
    geom_at_k,
    geom_at_k_ci,
    geom_ds_at_k,
    geom_ds_at_k_ci,
    threshold_spectrum_at_k,
    threshold_spectrum_at_k_ci,
)
from scorio_core.eval.gpass import (
    auc_at_k,
    auc_at_k_ci,
    g_pass_at_k,
    g_pass_at_k_ci,
    g_pass_at_k_tau,
    g_pass_at_k_tau_ci,
    maj_at_k,
    maj_at_k_ci,
    mg_pass_at_k,
    mg_pass_at_k_ci,
)
from scorio_core.eval.max_reward import max_at_k, max_at_k_ci
from scorio_core.eval.passk import (
    pass_at_k,
    pass_at_k_ci,
    pass_hat_k,
    pass_hat_k_ci,
    unanimous_at_k,
    unanimous_at_k_ci,
)
from scorio_core.eval.ranking import competition_ranks_from_scores

__all__ = [
    "BinaryCounts",
    "CategoryCounts",
    "bayes",
    "bayes_ci",
    "avg",
    "avg_ci",
    "pass_at_k",
    "pass_at_k_ci",
    "pass_hat_k",
    "pass_hat_k_ci",
    "unanimous_at_k",
    "unanimous_at_k_ci",
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
    "max_at_k",
    "max_at_k_ci",
    "threshold_spectrum_at_k",
    "threshold_spectrum_at_k_ci",
    "geom_at_k",
    "geom_at_k_ci",
    "geom_ds_at_k",
    "geom_ds_at_k_ci",
    "geo_spectrum_at_k",
    "geo_spectrum_at_k_ci",
    "geo_spectrum_star_at_k",
    "geo_spectrum_star_at_k_ci",
    "competition_ranks_from_scores",
    "cons_at_k",
    "pass_at_k_naive",
    "pass_hat_k_naive",
    "flakiness",
]
