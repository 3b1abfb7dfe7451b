"""Rubric sensitivity: how much a Bayes@N ranking depends on the rubric.

Two questions (Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, Appendix F.1,
Figure 7; section 2.7.1 for credible-interval ties):

* **Across schemata** (:func:`schema_ranks`): the competition rank of every model under each
  of several rubric schemata, with and without credible-interval ties (the bump chart of
  Figure 7).
* **Under perturbation** (:func:`perturb_rubric`): random rubrics around one schema, each
  weight scaled by ``U(1 - r, 1 + r)`` and each percentile threshold shifted by ``U(-d, d)``
  percentile points; per model the share of perturbed rubrics in which it holds each rank,
  and which parameters flip the leader (correlation, conditional flip rates and the
  smallest single-parameter change that does).

numpy/pandas only. The attempt table is converted to rubric signals once
(:class:`scorio_core.rubric.SignalTable`); every perturbation re-derives only the
thresholds (:meth:`scorio_core.rubric.BoundRubric.codes`), tallies category counts with one
``bincount`` and scores all models with :func:`scorio_core.eval.batch.bayes_batch`; there is
no Python loop over attempts, questions or models.
"""

from scorio_core.dynamics.convergence import Cancelled
from scorio_core.sensitivity.perturbation import FlipDriver, PerturbationResult, RubricParameter, perturb_rubric
from scorio_core.sensitivity.schemata import (
    SchemaRanks,
    SkippedSchema,
    applicable_schemas,
    one_rubric_note,
    schema_ranks,
    skipped_summary,
)

__all__ = [
    "SkippedSchema",
    "SchemaRanks",
    "RubricParameter",
    "FlipDriver",
    "PerturbationResult",
    "applicable_schemas",
    "schema_ranks",
    "skipped_summary",
    "one_rubric_note",
    "perturb_rubric",
    "Cancelled",
]

