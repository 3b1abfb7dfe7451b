"""Tasks view: every model on every task of a dump (Bayes@N per cell) and a combined score.

* :mod:`scorio_core.tasks.matrix`: :func:`task_matrix`, one leaderboard per task
  (:func:`scorio_core.leaderboard.table.leaderboard`, so each cell equals the Leaderboard page's row
  for that task), pass/fail against a threshold and flaky-question counts;
* :mod:`scorio_core.tasks.combined`: :func:`combined_score`, the macro average over tasks
  with its credible interval (tasks independent);
* :mod:`scorio_core.tasks.categorize`: :func:`per_task_categorization`, a rubric applied
  task by task (thresholds per task), as the Leaderboard computes each task.
"""

from scorio_core.tasks.categorize import per_task_categorization
from scorio_core.tasks.combined import COMBINED_ASSUMPTION, COMBINED_COLUMNS, WEIGHTING, combined_score
from scorio_core.tasks.matrix import (
    CELL_COLUMNS,
    FLAKY_RULE,
    PASS_RULE,
    PASS_SCORES,
    UNDECIDED_RULE,
    TaskMatrix,
    task_matrix,
)

__all__ = [
    "CELL_COLUMNS",
    "COMBINED_ASSUMPTION",
    "COMBINED_COLUMNS",
    "FLAKY_RULE",
    "PASS_RULE",
    "PASS_SCORES",
    "WEIGHTING",
    "TaskMatrix",
    "UNDECIDED_RULE",
    "combined_score",
    "per_task_categorization",
    "task_matrix",
]
