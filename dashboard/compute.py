"""Cached calls into scorio_core for pages (keyed by the dataset's ``data_id`` and settings).

Arguments starting with ``_`` are not hashed by ``st.cache_data``; the ``data_id`` string
(content digest + choices) stands in for them.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from scorio_core.analysis import ALL_TASKS, TaskOutcomes, leaderboard, outcomes_for, task_names

__all__ = ["tasks_of", "task_outcomes", "leaderboard_table", "trial_range", "ALL_TASKS"]


@st.cache_data(show_spinner=False, max_entries=32)
def tasks_of(data_id: str, _dataset) -> list[str]:
    """Tasks of the dataset, in order of appearance."""
    return task_names(_dataset)


@st.cache_resource(show_spinner=False, max_entries=32)
def task_outcomes(data_id: str, _dataset, task: str, rubric_id: str = "binary", _categorization=None) -> TaskOutcomes:
    """Outcome tensors of one task (shared, read-only: never mutate the result)."""
    return outcomes_for(_dataset, task, _categorization)


@st.cache_data(show_spinner="Computing leaderboard...", max_entries=128)
def leaderboard_table(
    data_id: str,
    _dataset,
    task: str,
    *,
    metric: str = "bayes",
    k: int = 1,
    tau: float = 0.5,
    confidence: float = 0.95,
    tie_rule: str = "paper",
    rubric_id: str = "binary",
    _categorization=None,
) -> pd.DataFrame:
    """The leaderboard of one task (or ``ALL_TASKS``) under the given settings."""
    outcomes = task_outcomes(data_id, _dataset, task, rubric_id, _categorization)
    return leaderboard(outcomes, metric=metric, k=k, tau=tau, confidence=confidence, tie_rule=tie_rule)


@st.cache_data(show_spinner=False, max_entries=64)
def trial_range(data_id: str, _dataset, task: str) -> tuple[int, int]:
    """Smallest and largest number of trials over answered (model, question) cells."""
    n = task_outcomes(data_id, _dataset, task).rubric.n_trials
    n = n[n > 0]
    return int(n.min()), int(n.max())
