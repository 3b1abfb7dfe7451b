"""Task outcomes from SQL rubric category counts: the pandas leaderboard's inputs, without attempt rows.

:func:`sql_task_outcomes` turns the per-(model, task, question) category counts of
:func:`scorio_core.engines.rubric.counts.load_category_counts` into the
:class:`scorio_core.leaderboard.table.TaskOutcomes`, notes and coverage issues the pandas path builds,
so rubric-weighted Bayes@N (Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265,
Appendix F) and the unmatched-attempt policy give the same leaderboard.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.engines._sql import EngineUnsupported
from scorio_core.engines.rubric.counts import CategoryCountsSQL

__all__ = ["sql_task_outcomes", "task_order"]


def _issues_for(res: CategoryCountsSQL, task: str) -> list:
    """The coverage issues :func:`scorio_core.rubric.categorize` reports for one task."""
    from scorio_core.rubric.coverage import (ERROR, INFO, WARNING, Issue, empty_category_issue, undefined_threshold_issue,
                                             unmatched_issue)

    cov = res.coverage[task]
    n, n_un = cov["n"], cov["unmatched"]
    schema = res.schema
    issues = []
    gone, static = res.task_absent.get(task, ((), res.issues_static))  # computed signals without a value here
    present = [s for s in cov["signals"] if s not in gone]
    if n_un:
        absent = [s for s in res.signals if s not in present and s != "is_correct"]
        issues.append(unmatched_issue(n_un, n, [(s, cov["signals"][s][1]) for s in present], absent))
    counts = _task_counts(res, task)
    for c in range(len(schema.categories)):
        if counts[c] or n == 0:
            continue
        k, takers = cov["categories"][c]
        issues.append(empty_category_issue(schema, c, int(k), takers))
    for s in present:
        k = cov["signals"][s][0]
        if k:
            issues.append(Issue("missing_values", WARNING, f"signal {s!r} is missing on {k} of {n} attempts.",
                                count=k, names=(s,)))
    for name, value in res.task_thresholds.get(task, {}).items():
        if name not in res.thresholds and not np.isfinite(value):  # a percentile of no value in this task
            t = schema.threshold_map[name]
            issues.append(undefined_threshold_issue(name, t.of, t.where))
    rank = {ERROR: 0, WARNING: 1, INFO: 2}
    return sorted([*static, *issues], key=lambda i: rank[i.severity])


def _task_counts(res: CategoryCountsSQL, task: str) -> np.ndarray:
    cells = res.cells[res.cells["task"] == task]
    return np.array([int(cells[f"c{i}"].sum()) for i in range(len(res.labels))], dtype=np.int64)


def sql_task_outcomes(res: CategoryCountsSQL, task: str, policy: str = "exclude"):
    """The pandas leaderboard's inputs for one task, from SQL category counts.

    Parameters
    ----------
    res : CategoryCountsSQL
    task : str
    policy : str
        ``--unmatched``: ``"exclude"`` or a category label (:func:`scorio_core.rubric.rerank.apply_unmatched`).

    Returns
    -------
    outcomes : scorio_core.leaderboard.table.TaskOutcomes
        ``rubric`` counts of shape (L, M, C+1) and ``binary`` counts (L, M, 2), models and
        questions in first-appearance order, ``R`` None (trial order is not kept).
    rubric_notes : list of str
        As :func:`scorio_core.leaderboard.table.categorization_for` (without the task prefix).
    unmatched : pandas.DataFrame
        ``model, attempts, unmatched`` per model (as :func:`scorio_core.rubric.rerank.unmatched_by_model`).

    Raises
    ------
    InputError
        Unknown task; a policy that is not a category; no attempt left to score.
    """
    from scorio_core.leaderboard.table import TaskOutcomes
    from scorio_core.leaderboard.outcomes import BINARY_LABELS, Outcomes, nothing_to_score
    from scorio_core.limits import check_dense
    from scorio_core.rubric.rerank import check_unmatched_policy

    if task not in res.coverage:
        raise InputError(f"task {task!r} is not in the data; tasks: {', '.join(list(res.coverage)[:20])}.")
    cov = res.coverage[task]
    for s, (_, _, present_n) in cov["signals"].items():
        if present_n == 0:  # an all-missing text column is typed as a number by pandas in this task
            raise EngineUnsupported(f"text signal {s!r} has no value in task {task!r}; use --engine pandas.")
    notes = []
    thresholds = res.task_thresholds.get(task, res.thresholds)  # percentiles of the data: this task's values
    if thresholds:
        notes.append(f"rubric '{res.schema.name}' thresholds: " + ", ".join(f"{k}={v:.6g}" for k, v in thresholds.items()))
    if cov["unmatched"]:
        notes.append(f"{cov['unmatched']} of {cov['n']} attempts matched no category and are excluded")
    notes.extend(res.task_notes.get(task, res.notes))
    notes.extend(i.message for i in _issues_for(res, task))
    cells = res.cells[res.cells["task"] == task]
    mi, models = pd.factorize(cells["model"], sort=False)  # codes in first-appearance order, without a Python loop
    qi, questions = pd.factorize(cells["question_id"], sort=False)
    models, questions = tuple(map(str, models)), tuple(map(str, questions))
    C = len(res.labels)
    check_dense(f"task {str(task)[:80]!r}", len(models), len(questions), C)
    counts = np.zeros((len(models), len(questions), C), dtype=np.int64)
    counts[mi, qi] = cells[[f"c{i}" for i in range(C)]].to_numpy(np.int64)
    unmatched = cells["unmatched"].to_numpy(np.int64)
    index = check_unmatched_policy(policy, res.labels)
    excluded = int(unmatched.sum())
    if index is not None:
        counts[mi, qi, index] += unmatched
        excluded = 0
    if counts.sum() == 0:
        raise nothing_to_score(task, excluded)
    binary_counts = np.zeros((len(models), len(questions), 2), dtype=np.int64)
    n, c = cells["n_trials"].to_numpy(np.int64), cells["n_correct"].to_numpy(np.int64)
    binary_counts[mi, qi, 1] = c
    binary_counts[mi, qi, 0] = n - c
    data_notes = (f"{excluded} attempts matched no rubric category and were excluded",) if excluded else ()
    rubric = Outcomes(task=task, models=models, questions=questions, weights=np.asarray(res.weights, dtype=float),
                      labels=tuple(res.labels), counts=counts, R=None, excluded=excluded, notes=data_notes)
    binary = Outcomes(task=task, models=models, questions=questions, weights=np.array([0.0, 1.0]),
                      labels=BINARY_LABELS, counts=binary_counts, R=None)
    per_model = (pd.DataFrame({"model": cells["model"].to_numpy(), "attempts": n, "unmatched": unmatched})
                 .groupby("model", sort=False)[["attempts", "unmatched"]].sum().reset_index()
                 .astype({"attempts": np.int64, "unmatched": np.int64}))
    return TaskOutcomes(task, binary, rubric), notes, per_model


def task_order(res: CategoryCountsSQL) -> list[str]:
    """Tasks in first-appearance order (as :func:`scorio_core.leaderboard.table.task_names`)."""
    return [str(t) for t in pd.unique(res.cells["task"])]  # first-appearance order
