"""Honest uncertainty: per-question priors (uniform, Jeffreys, empirical Bayes) and interval scopes.

See :mod:`scorio_core.uncertainty.priors` and :mod:`scorio_core.uncertainty.posterior`;
measured coverage is in docs/metrics.md ("Calibration") and ``benchmarks/bench_calibration.py``.
"""

from scorio_core.uncertainty.posterior import (
    DEFAULT_PRIOR,
    DEFAULT_SCOPE,
    SCOPE_HELP,
    SCOPE_LABELS,
    SCOPES,
    PosteriorSummary,
    bayes_dirichlet,
    calibration_table,
    check_scope,
    interval_label,
    posterior_summary,
    projection_alpha,
)
from scorio_core.uncertainty.priors import PRIOR_HELP, PRIOR_LABELS, PRIORS, FittedPrior, check_prior, fit_dirichlet_prior, prior_alpha

__all__ = [
    "DEFAULT_PRIOR",
    "DEFAULT_SCOPE",
    "PRIORS",
    "PRIOR_HELP",
    "PRIOR_LABELS",
    "SCOPES",
    "SCOPE_HELP",
    "SCOPE_LABELS",
    "FittedPrior",
    "PosteriorSummary",
    "bayes_dirichlet",
    "calibration_table",
    "check_prior",
    "check_scope",
    "fit_dirichlet_prior",
    "interval_label",
    "posterior_summary",
    "prior_alpha",
    "projection_alpha",
]
