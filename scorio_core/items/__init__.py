"""Question diagnostics: item response theory on the count table (issue 37).

A two-parameter logistic (2PL) or Rasch model fitted to ``successes`` out of ``trials`` per (model, question)
gives every model an ability and every question a difficulty and a discrimination on one scale, with
Laplace standard errors (:func:`fit_irt`); :func:`flag_questions` turns the fit into stated, stable flags
(possibly mislabeled, saturated, unsolved, low information, flaky; rules in :data:`FLAG_RULES`).
Ragged and missing cells are native (0 trials = missing). See ``docs/items.md``.

Sources
-------
* F. M. Lord (1980), *Applications of Item Response Theory to Practical Testing Problems*; S. E. Embretson &
  S. P. Reise (2000), *Item Response Theory for Psychologists*: the 2PL model and item information.
* F. Maia Polo et al. (2024), "tinyBenchmarks: evaluating LLMs with fewer examples", arXiv 2402.14992: IRT on
  LLM benchmark questions.
* J. Vendrow et al. (2025), "Do Large Language Model Benchmarks Test Reliability?", arXiv 2502.03461: label
  errors and ambiguous questions in popular benchmarks (the motivation for ``possibly_mislabeled``).
"""

from __future__ import annotations

from scorio_core.items.flags import FLAG_CODES, FLAG_RULES, flag_questions
from scorio_core.items.irt import PRIORS, IRTFit, check_counts, fit_irt, from_outcomes, item_information
from scorio_core.items.irt import test_information

__all__ = ["FLAG_CODES", "FLAG_RULES", "IRTFit", "PRIORS", "check_counts", "fit_irt", "flag_questions",
           "from_outcomes", "item_information", "test_information"]
