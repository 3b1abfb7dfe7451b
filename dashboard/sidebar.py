"""Shared sidebar: dataset, task and credibility level (rendered by app.py on every page)."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from dashboard import state
from dashboard.compute import ALL_TASKS, tasks_of
from dashboard.data_access import ActiveData, active_data
from dashboard.state import KEY_CONFIDENCE, KEY_DATASET, KEY_TASK
from scorio_core.errors import InputError

__all__ = ["PageContext", "render_sidebar", "page_context", "CONFIDENCE_LEVELS"]

CONFIDENCE_LEVELS = (0.8, 0.9, 0.95, 0.99)


@dataclass(frozen=True)
class PageContext:
    """What every page works on: the active data, the task and the credibility level."""

    data: ActiveData
    task: str
    tasks: tuple[str, ...]
    confidence: float


def render_sidebar() -> PageContext | None:
    """Render the shared widgets and return the page context (None if no data could load)."""
    state.init_state()
    state.apply_pending_selection()
    options = state.dataset_options()
    if st.session_state.get(KEY_DATASET) not in options:
        st.session_state[KEY_DATASET] = state.active_key()
    with st.sidebar:
        st.selectbox(
            "Dataset",
            options,
            format_func=state.dataset_label,
            key=KEY_DATASET,
            bind="query-params",
            help="Bundled real results, or your uploads from the Data page.",
        )
        try:
            data = active_data()
        except InputError as exc:
            st.error(f"Could not load this dataset: {exc}")
            return None
        tasks = tuple(tasks_of(data.data_id, data.dataset))
        task_options = list(tasks) + ([ALL_TASKS] if len(tasks) > 1 else [])
        if st.session_state.get(KEY_TASK) not in task_options:
            st.session_state[KEY_TASK] = task_options[0]
        st.selectbox(
            "Task",
            task_options,
            key=KEY_TASK,
            bind="query-params",
            help="'all tasks' pools the questions of every task (each question weighs the same).",
        )
        st.session_state.setdefault(KEY_CONFIDENCE, 0.95)
        st.select_slider(
            "Credibility level",
            options=CONFIDENCE_LEVELS,
            key=KEY_CONFIDENCE,
            bind="query-params",
            format_func=lambda c: f"{c:.0%}",
            help=(
                "Intervals are central credible intervals at this level (z = 1.96 at 95%). "
                "Rank ties use the one-sided z of the same level (1.645 at 95%), as in the paper (section 2.7.1)."
            ),
        )
        st.caption(
            "Credible intervals cover the uncertainty from the finite number of trials per question "
            "(Dirichlet/Beta posterior per question); the questions themselves are taken as given."
        )
    return PageContext(data=data, task=st.session_state[KEY_TASK], tasks=tasks, confidence=float(st.session_state[KEY_CONFIDENCE]))


def page_context() -> PageContext | None:
    """The context computed by the sidebar in this run (pages call this)."""
    return st.session_state.get("_page_context")
