"""Drill-down: every attempt of some models on one question, with its outcome, rubric category and fields.

What a reviewer opens from a per-question view (Compare page, Data page grid, CLI ``attempts``)
to see *why* a model failed: each trial's correctness, score, rubric category and whatever the
dump carries per attempt (answer, extracted answer, input, transcript, tokens, ...). Text is
returned as plain strings; renderers must show it as text, never as HTML or Markdown.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from scorio_core.leaderboard.table import ALL_TASKS, Categorization
from scorio_core.errors import InputError

__all__ = ["ATTEMPT_LEAD_COLUMNS", "TEXT_FIELDS", "question_attempts"]

#: Columns put first in a drill-down, when present.
ATTEMPT_LEAD_COLUMNS = ("model", "trial", "is_correct", "score", "category", "weight")
#: Per-attempt text fields the loaders keep when a dump has them (shown in full on request).
TEXT_FIELDS = ("input", "target", "answer", "extracted_answer", "completion", "transcript", "explanation")


def _split(dataset, task: str, question: str) -> tuple[str, str]:
    if task == ALL_TASKS:
        from scorio_core.leaderboard.task_outcomes import split_pooled_question, task_names

        table = dataset.attempts if dataset.attempts is not None else dataset.counts

        def exists(t: str, q: str) -> bool:  # a few candidate splits, each one vectorised pass
            return bool((table["task"].eq(t) & table["question_id"].eq(q)).any())  # string categories

        return split_pooled_question(task_names(dataset), question, exists=exists)
    return task, question


def question_attempts(dataset, task: str, question: str, models=None,
                      categorization: Categorization | None = None) -> pd.DataFrame:
    """Every attempt of ``models`` on one question, in model then trial order.

    Parameters
    ----------
    dataset : scorio_core.io.Dataset
        Attempt-level data (count tables have no attempts to show).
    task : str
        The task, or ``ALL_TASKS`` with ``question`` given as ``"task/question"``.
    question : str
        The question id.
    models : sequence of str, optional
        Models to show, in this order; default every model with an attempt on the question.
    categorization : scorio_core.leaderboard.table.Categorization, optional
        The active rubric's codes (aligned with ``dataset.attempts``); adds ``category``
        (label, or "(no category)") and ``weight``.

    Returns
    -------
    DataFrame
        One row per attempt: :data:`ATTEMPT_LEAD_COLUMNS` that exist, then every other
        column of the attempt table except ``task`` and ``question_id`` (empty columns
        dropped). Values are as loaded; nothing is filled.

    Raises
    ------
    InputError
        Count-only data, or a question with no attempt by the chosen models (field
        ``question``).
    """
    table = dataset.attempts
    if table is None:
        raise InputError("this dataset has counts only (n_trials, n_correct): there are no attempts to open.",
                         field="question")
    q_task, q_id = _split(dataset, task, str(question))
    mask = ((table["task"] == q_task) & (table["question_id"].astype(str) == q_id)).to_numpy()
    if models is not None:
        wanted = [str(m) for m in models]
        known = set(table["model"].astype(str).unique())
        unknown = [m for m in wanted if m not in known]
        if unknown:
            listed = sorted(known)
            raise InputError(f"model{'s' if len(unknown) > 1 else ''} {', '.join(repr(m[:80]) for m in unknown[:5])} "
                             f"{'are' if len(unknown) > 1 else 'is'} not in the data; models here: "
                             f"{', '.join(listed[:20])}" + (f" and {len(listed) - 20:,} more" if len(listed) > 20 else "")
                             + ".", field="models")
        mask = mask & table["model"].astype(str).isin(wanted).to_numpy()
    rows = np.flatnonzero(mask)
    if rows.size == 0:
        who = "these models" if models is not None else "any model"
        raise InputError(f"question {q_id[:80]!r} of task {q_task[:80]!r} has no attempts by {who}.",
                         field="question")
    frame = table.iloc[rows].drop(columns=[c for c in ("task", "question_id") if c in table.columns]).copy()
    frame["model"] = frame["model"].astype(str)
    if categorization is not None:
        codes = np.asarray(categorization.codes)[rows]
        labels = np.asarray(list(categorization.labels) + ["(no category)"], dtype=object)
        weights = np.append(np.asarray(categorization.weights, dtype=float), np.nan)
        frame["category"] = labels[np.where(codes < 0, len(categorization.labels), codes)]
        frame["weight"] = weights[np.where(codes < 0, len(categorization.labels), codes)]
    order = pd.Categorical(frame["model"], categories=wanted if models is not None else pd.unique(frame["model"]))
    frame = frame.assign(_order=order.codes).sort_values(["_order", "trial"], kind="stable").drop(columns="_order")
    frame = frame.dropna(axis=1, how="all")
    lead = [c for c in ATTEMPT_LEAD_COLUMNS if c in frame.columns]
    return frame[lead + [c for c in frame.columns if c not in lead]].reset_index(drop=True)
