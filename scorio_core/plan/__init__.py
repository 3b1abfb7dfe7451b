"""What to run next: an adaptive evaluation planner with a stopping rule (issue 39).

:func:`plan_next` takes one task's outcomes so far and a goal (``top-1``, ``top-k``, ``ranking``,
``pair``, ``width``; :data:`scorio_core.choices.PLAN_GOALS`) and returns a :class:`Plan`: stop or
continue with a one-sentence reason, and the next batch of (model, question, trials) rows ranked
by expected reduction of the goal's error per unit cost.

Modules: :mod:`~scorio_core.plan.posterior` (per-cell Dirichlet posteriors, preposterior variance,
joint score draws), :mod:`~scorio_core.plan.goals` (validation, goal probability, approximate error),
:mod:`~scorio_core.plan.allocate` (greedy allocation), :mod:`~scorio_core.plan.planner` (the public
function), :mod:`~scorio_core.plan.project` (the projected course of the goal's probability, by replays on
data drawn from the posterior). Method and sources: docs/metrics.md, "What to run next (planner)".
"""

from scorio_core.choices import PLAN_GOAL_HELP, PLAN_GOALS
from scorio_core.plan.planner import Plan, per_trial_costs, plan_next
from scorio_core.plan.project import PROJECTION_BUDGET, Projection, project_goal, projection_size

__all__ = ["PLAN_GOALS", "PLAN_GOAL_HELP", "ONE_TASK", "Plan", "PROJECTION_BUDGET", "Projection", "per_trial_costs",
           "plan_next", "project_goal", "projection_size"]

#: Why the planner refuses all tasks pooled (the CLI and the Plan page say the same).
ONE_TASK = ("the planner plans one task at a time: its goal is checked on one task's posterior, and a model's next "
            "trials go to that task's questions")
