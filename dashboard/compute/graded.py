"""What graded scores allow on the dynamics pages: Bayes@N with the rubric's partial credit, not the Pass@k family.

A task whose attempts carry graded scores (0.5, ...) scored by a rubric (:mod:`dashboard.state.graded`) has no
0/1 outcomes: :func:`scorio_core.leaderboard.task_outcomes.outcomes_for` gives ``binary = None`` there, and the
Pass@k family is refused rather than computed on the 0/1 attempts alone.
"""

from __future__ import annotations

from dashboard.compute.dynamics import METRIC_LABELS
from dashboard.compute.results import task_outcomes

__all__ = ["PASS_K_NEEDS_BINARY", "binary_outcomes", "metric_keys", "metric_labels"]

#: Said where a view offers Bayes@N only because the task has graded scores.
PASS_K_NEEDS_BINARY = (
    "The Pass@k family (Pass@k, Pass^k, G-Pass@k_tau, mG-Pass@k) needs 0/1 outcomes, and this task's attempts have "
    "graded scores, which the rubric scores with partial credit; only Bayes@N is offered. A threshold on the Data "
    "page (correct when score > threshold) gives the Pass@k family.")


def binary_outcomes(ctx, active) -> bool:
    """True when the page's task has 0/1 outcomes for the Pass@k family (False: graded scores under a rubric)."""
    outcomes = task_outcomes(ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id, active.categorization)
    return outcomes.binary is not None


def metric_labels(ctx, active) -> dict[str, str]:
    """The dynamics pages' metrics (key -> label) the page's data allow: Bayes@N only without 0/1 outcomes."""
    return dict(METRIC_LABELS) if binary_outcomes(ctx, active) else {"bayes": METRIC_LABELS["bayes"]}


def metric_keys(ctx, active) -> list[str]:
    """The Leaderboard's metrics (keys of :data:`scorio_core.leaderboard.metrics.METRICS`) the task's data allow:
    without 0/1 outcomes (graded scores under a rubric), only those of the rubric's outcomes (Bayes@N, avg@N)."""
    from scorio_core.leaderboard.metrics import METRICS

    keep = binary_outcomes(ctx, active)
    return [key for key, spec in METRICS.items() if keep or not spec.binary]
