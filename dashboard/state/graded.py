"""Graded scores in the app: partial credit under a rubric that reads the score, instead of a threshold.

A dump whose outcome is a graded score (0, 0.5, 1, ...) is blocked until a choice is made (the Data page). One
choice binarizes it with a threshold; the other keeps each attempt's credit: a rubric whose categories read
``score`` (:func:`use_score_values` builds one from the data's values, weight = value). Under such a rubric the
pages work on :func:`graded_scored`'s dataset, whose report no longer blocks (as ``leaderboard --schema`` lifts
it in :func:`scorio_core.leaderboard.graded.require_ready_graded`).
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from dashboard.state.rubric import scoped_categorization, use_schema, workspace
from scorio_core.errors import InputError
from scorio_core.leaderboard.graded import lift_graded_block, offered_score_values, score_value_schema
from scorio_core.leaderboard.table import ALL_TASKS

__all__ = ["graded_scored", "offered_for", "use_score_values"]


@st.cache_resource(show_spinner=False, max_entries=8)
def offered_for(data_id: str, _dataset):
    """:func:`scorio_core.leaderboard.graded.offered_score_values` of a dataset, once per data id (a large dump's
    unique scores and, rounded, the measured shift are not recomputed on every rerun of a blocked page)."""
    return offered_score_values(_dataset.attempts)


def use_score_values(dataset) -> None:
    """Make the rubric of ``dataset``'s score values the one in force: partial credit for graded scores.

    Exact values where at most 12, else rounded to 0.1 (:func:`scorio_core.leaderboard.graded.offered_score_values`).

    Raises
    ------
    InputError
        No score gives partial credit, or neither rubric builds (:func:`~scorio_core.leaderboard.graded.score_value_schema`).
    """
    schema = offered_score_values(dataset.attempts)
    if schema is None:
        score_value_schema(dataset.attempts)  # raises why
        raise InputError("no score strictly between 0 and 1: nothing to give partial credit.", field="score")
    use_schema(schema)


def graded_scored(data):
    """``data`` (:class:`dashboard.data.access.ActiveData`) with its graded-score block lifted under a scoring rubric.

    Graded scores block results until a threshold binarizes them, unless the rubric in force reads ``score`` and
    places every graded attempt in a category (partial credit, as ``leaderboard --schema``):
    :func:`scorio_core.leaderboard.graded.lift_graded_block` then gives the dataset the pages work on, with its note.
    Otherwise (or when the rubric cannot run on the data) ``data`` is returned as it is, still blocked.
    """
    dataset = data.dataset
    if dataset.ready or not dataset.report.n_non_binary or dataset.attempts is None:
        return data
    ws = workspace()
    if "score" not in ws.schema.signals:
        return data
    try:
        scoped = scoped_categorization(data.data_id, dataset, ALL_TASKS)
        lifted, _ = lift_graded_block(dataset, ws.schema, scoped.categorization.codes)
    except InputError:
        return data
    return replace(data, dataset=lifted)
