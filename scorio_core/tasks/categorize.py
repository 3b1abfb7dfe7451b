"""A rubric applied task by task, as the Leaderboard and the ``leaderboard`` CLI score each task."""

from __future__ import annotations

from scorio_core.leaderboard.table import Categorization, task_names
from scorio_core.errors import InputError

__all__ = ["per_task_categorization"]


def per_task_categorization(dataset, schema, *, thresholds: dict | None = None,
                            unmatched: str = "exclude") -> dict[str, Categorization]:
    """Categorize the attempts of every task with its own thresholds.

    Parameters
    ----------
    dataset : scorio_core.io.Dataset
        Attempt-level data.
    schema : Schema, str, path or dict
        As :func:`scorio_core.rubric.rerank.categorize_scope`.
    thresholds : dict of str to float, optional
        Frozen threshold values (used for every task instead of per-task percentiles).
    unmatched : str, default "exclude"
        What attempts in no category count as (:func:`scorio_core.rubric.rerank.apply_unmatched`).

    Returns
    -------
    dict of str to Categorization
        One categorization per task, codes aligned with every row of ``dataset.attempts``
        (-1 outside the task): exactly what the Leaderboard uses with that task chosen.

    Raises
    ------
    InputError
        Count-only data or a schema problem.
    """
    from scorio_core.rubric import rerank

    if dataset.attempts is None:
        raise InputError("a rubric needs attempt-level data; count tables only support binary correctness.")
    out = {}
    for task in task_names(dataset):
        scoped = rerank.categorize_scope(dataset, task, schema, thresholds)
        out[task] = rerank.apply_unmatched(scoped.categorization, scoped.mask, unmatched)
    return out
