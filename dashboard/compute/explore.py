"""Data-page helpers: the per-question grids, one attempt's signals, the trial-position check (no widgets).

:func:`grid_view` slices the outcome tensors for the models and questions the user picked
(in the chosen order); :func:`attempt_signals` finds one attempt in the canonical table.
Both are cached on ``data_id``/``rubric_id`` and return new objects (cached values are
never mutated).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
import streamlit as st

from dashboard.compute.results import question_summary, task_outcomes
from scorio_core.errors import InputError
from scorio_core.leaderboard.table import ALL_TASKS
from scorio_core.leaderboard.task_outcomes import split_pooled_question
from scorio_core.ranking.compare import question_scores

__all__ = ["GridView", "grid_view", "attempt_signals", "trial_effects_for", "MAX_QUESTIONS", "ORDERS"]

#: Most questions one grid shows (taller grids stop being readable); the page says so.
MAX_QUESTIONS = 120
#: Question orders offered on the Data page.
ORDERS = ("as in the data", "hardest first", "easiest first")


class GridView(NamedTuple):
    """What the grids draw.

    Attributes
    ----------
    models : tuple of str, length L'
    questions : tuple of str, length M' (after filter, order and the row cap)
    n_questions_total : int
        Questions that passed the filter (before the cap).
    rates : ndarray (L', M')
        Pass rate per cell (NaN = not answered); the rubric score rescaled to [0, 1] when the
        data has no binary correctness.
    correct, trials : ndarray (L', M')
        Correct trials and trials per cell (correct is NaN without binary correctness).
    codes : ndarray (L', M', N) of int16 or None
        Category code of every trial (-1 = no trial / no category); None for count data.
    labels : tuple of str
    weights : ndarray (C+1,)
    binary : bool
        Whether ``rates`` are binary pass rates.
    """

    models: tuple[str, ...]
    questions: tuple[str, ...]
    n_questions_total: int
    rates: np.ndarray
    correct: np.ndarray
    trials: np.ndarray
    codes: np.ndarray | None
    labels: tuple[str, ...]
    weights: np.ndarray
    binary: bool


@st.cache_data(show_spinner=False, max_entries=64)
def grid_view(data_id: str, _dataset, task: str, models: tuple[str, ...], only_disagree: bool, order: str,
              rubric_id: str = "binary", _categorization=None) -> GridView:
    """Slice the outcomes for the Data page's grids."""
    outcomes = task_outcomes(data_id, _dataset, task, rubric_id, _categorization)
    summary = question_summary(data_id, _dataset, task, models, rubric_id, _categorization)
    rows = summary[summary["disagree"]] if only_disagree else summary
    if order == ORDERS[1]:
        rows = rows.sort_values(["mean_rate", "index"], kind="stable")
    elif order == ORDERS[2]:
        rows = rows.sort_values(["mean_rate", "index"], ascending=[False, True], kind="stable")
    total = len(rows)
    rows = rows.head(MAX_QUESTIONS)
    rub = outcomes.rubric
    binary = outcomes.binary
    q_rub = [rub.questions.index(q) for q in rows["question"]]
    m_rub = [rub.models.index(m) for m in models]
    trials = rub.n_trials[np.ix_(m_rub, q_rub)] if models else np.zeros((0, len(q_rub)), dtype=np.int64)
    if binary is not None:
        scores, n = question_scores(binary)
        q_bin = [binary.questions.index(q) for q in rows["question"]]
        m_bin = [binary.models.index(m) for m in models]
        rates = scores[np.ix_(m_bin, q_bin)]
        correct = binary.counts[np.ix_(m_bin, q_bin)][..., 1].astype(float)
        correct[n[np.ix_(m_bin, q_bin)] == 0] = np.nan
    else:
        scores, _ = question_scores(rub)
        w = rub.weights
        span = float(w.max() - w.min()) or 1.0
        rates = (scores[np.ix_(m_rub, q_rub)] - float(w.min())) / span
        correct = np.full(rates.shape, np.nan)
    codes = None if rub.R is None else rub.R[np.ix_(m_rub, q_rub)].copy()
    return GridView(tuple(models), tuple(rows["question"]), total, rates, correct, trials, codes,
                    tuple(rub.labels), np.asarray(rub.weights), binary is not None)


@st.cache_data(show_spinner=False, max_entries=256)
def attempt_signals(data_id: str, _dataset, task: str, model: str, question: str, trial_position: int,
                    rubric_id: str = "binary", _categorization=None) -> pd.DataFrame:
    """Every field of one attempt as ``field, value`` rows (plus its rubric category).

    ``trial_position`` is the 0-based position among the cell's scored trials in source
    order (the grid's column; attempts without a category or outcome are not in the grid);
    the source's own ``trial`` value is one of the rows.
    """
    table = _dataset.attempts
    q_task, q_id = task, question
    if task == ALL_TASKS and "/" in question:
        q_task, q_id = split_pooled_question(pd.unique(table["task"]), question)
    mask = ((table["task"] == q_task) & (table["model"] == model) & (table["question_id"] == q_id)).to_numpy()
    if _categorization is not None:
        mask = mask & (np.asarray(_categorization.codes) >= 0)
    elif "is_correct" in table.columns:
        mask = mask & table["is_correct"].notna().to_numpy()
    positions = np.flatnonzero(mask)
    if positions.size == 0:
        return pd.DataFrame({"field": [], "value": []})
    order = np.argsort(table["trial"].to_numpy()[positions], kind="stable")
    if not 0 <= trial_position < positions.size:
        return pd.DataFrame({"field": [], "value": []})
    row_index = int(positions[order][trial_position])
    row = table.iloc[row_index]
    fields = [str(c) for c in table.columns]
    values = ["" if pd.isna(v) else str(v) for v in row.tolist()]
    if _categorization is not None:
        code = int(_categorization.codes[row_index])
        fields.append("rubric category")
        values.append("(no category matched)" if code < 0 else
                      f"{_categorization.labels[code]} (weight {_categorization.weights[code]:g})")
    return pd.DataFrame({"field": fields, "value": values})


@st.cache_data(show_spinner=False, max_entries=32)
def trial_effects_for(data_id: str, _dataset, task: str) -> list[dict]:
    """:func:`scorio_core.leaderboard.trial_order.trial_position_effects` of the task's binary outcomes: models whose
    trials are not exchangeable repeats (empty without binary correctness)."""
    from scorio_core.leaderboard.trial_order import trial_position_effects

    try:
        binary = task_outcomes(data_id, _dataset, task).binary
    except InputError:  # no is_correct at all (category codes): no correct/wrong order to test
        return []
    return trial_position_effects(binary) if binary is not None else []

