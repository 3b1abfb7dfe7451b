"""Cached planner results for the Plan page (issue 39): the next batch and the projected course of the goal.

Keyed like :mod:`dashboard.compute.results`: ``data_id`` and ``rubric_id`` stand in for the unhashed
``_dataset`` and ``_categorization``. Results are shared and read-only: never mutate them.
"""

from __future__ import annotations

import streamlit as st

from dashboard.compute.results import task_outcomes
from scorio_core.plan import Plan, Projection, per_trial_costs, plan_next, project_goal

__all__ = ["next_batch", "goal_projection"]


def _options(data_id, dataset, task, rubric_id, categorization, cost_column, options):
    outcomes = task_outcomes(data_id, dataset, task, rubric_id, categorization).rubric
    costs = per_trial_costs(dataset, task, cost_column, outcomes) if cost_column else None
    return outcomes, {**options, "costs": costs}


@st.cache_data(show_spinner="Planning the next batch...", max_entries=32)
def next_batch(data_id: str, _dataset, task: str, rubric_id: str = "binary", _categorization=None,
               cost_column: str | None = None, **options) -> Plan:
    """:func:`scorio_core.plan.plan_next` on one task (``options``: goal, k, pair, width, tolerance, confidence,
    batch, scope, prior, seed), with per-trial costs from ``cost_column`` (:func:`scorio_core.plan.per_trial_costs`).

    Raises
    ------
    InputError
        A bad goal argument or cost column (named).
    """
    outcomes, options = _options(data_id, _dataset, task, rubric_id, _categorization, cost_column, options)
    return plan_next(outcomes, **options)


@st.cache_data(show_spinner="Replaying the planner on runs simulated from the posterior...", max_entries=16)
def goal_projection(data_id: str, _dataset, task: str, rubric_id: str = "binary", _categorization=None,
                    cost_column: str | None = None, **options) -> Projection:
    """:func:`scorio_core.plan.project_goal` on one task (``options`` as :func:`next_batch` plus batches, replays)."""
    outcomes, options = _options(data_id, _dataset, task, rubric_id, _categorization, cost_column, options)
    return project_goal(outcomes, **options)
