"""Graded scores under a rubric: the data-quality gate of a command given ``--schema``.

A dump whose outcome is a graded score (``score`` in {0, 0.5, 1}, no 0/1 column) is refused by
:meth:`scorio_core.io.Dataset.require_ready` until a threshold binarizes it. A rubric whose categories
read ``score`` scores those attempts itself (partial credit: Bayes@N and avg@N with the rubric's
weights), so when it places every graded attempt in a category the threshold is not needed: the block
is lifted, said in a note, and nothing is binarized or dropped. Binary-only metrics (the Pass@k family)
still need 0/1 outcomes: :func:`~scorio_core.leaderboard.task_outcomes.outcomes_for` gives no binary
outcomes for such a task, so they are refused, never computed on the 0/1 attempts alone.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from scorio_core.errors import InputError
from scorio_core.leaderboard.outcomes import graded_rows  # (defined there: task_outcomes uses it too)

__all__ = ["RUBRIC_ROUTE", "graded_rows", "require_ready_graded"]

#: The route to partial credit, for a command that takes ``--schema`` (the threshold is the other route).
RUBRIC_ROUTE = ("Or, for partial credit instead of a threshold, give a rubric whose categories read the score "
                "(--schema FILE, e.g. categories 'score < 0.25', 'score >= 0.25 and score < 0.75', 'score >= 0.75' "
                "weighted 0, 0.5, 1; check it with `python -m scorio_core rubric PATH --schema FILE`).")


def require_ready_graded(dataset, schema=None, *, takes_schema: bool = True, max_tokens: int | None = None,
                         notes: list | None = None):
    """:meth:`~scorio_core.io.Dataset.require_ready` for a command that may score graded outcomes with a rubric.

    Parameters
    ----------
    dataset : scorio_core.io.Dataset
        The loaded data, with the data-quality choices applied.
    schema : str, dict, path or scorio_core.rubric.Schema, optional
        The command's ``--schema``. When it reads ``score`` and places every graded attempt in a category,
        the non-binary block is lifted (a note in ``report.notes`` says so); other blocks remain.
    takes_schema : bool
        The command has ``--schema``: a refusal of graded scores names the rubric route too.
    max_tokens : int, optional
        Completion-token limit for the ``token_ratio`` signal.
    notes : list, optional
        A command's notes: the lifted block's note is appended (``{"code": "graded_by_rubric", "message"}``).

    Returns
    -------
    scorio_core.io.Dataset
        ``dataset``, or a copy whose report no longer blocks on the graded scores.

    Raises
    ------
    InputError
        A choice is still needed (as ``require_ready``); with graded scores, the message says whether the
        rubric reads no score or which graded attempt it leaves in no category.
    """
    report = dataset.report
    if not report.n_non_binary or dataset.attempts is None or (schema is None and not takes_schema):
        return dataset.require_ready()
    if schema is None:
        try:
            return dataset.require_ready()
        except InputError as exc:
            raise InputError(f"{exc} {RUBRIC_ROUTE}" if "non-binary outcome" in str(exc) else str(exc)) from None
    from scorio_core.leaderboard.task_outcomes import categorization_for
    from scorio_core.rubric import resolve_schema

    schema = resolve_schema(schema)
    names = ", ".join(s.name for s in dataset.sources[:3]) + (" ..." if len(dataset.sources) > 3 else "")
    graded = graded_rows(dataset.attempts)
    n = int(graded.sum())
    if "score" not in schema.signals:
        raise InputError(f"{names}: {n:,} attempts have a graded score (strictly between 0 and 1), and rubric "
                         f"'{schema.name}' does not read the score (it reads {', '.join(schema.signals) or 'no signal'}), "
                         "so it cannot give them partial credit; use a rubric whose categories read 'score', or "
                         "choose a threshold: --binarize-threshold 0.5 (correct iff score > threshold).", field="score")
    codes = categorization_for(dataset, schema, max_tokens=max_tokens)[0].codes
    left = graded & (codes < 0)
    if left.any():
        row = dataset.attempts.iloc[int(np.argmax(left))]
        raise InputError(
            f"{names}: rubric '{schema.name}' places {int(left.sum()):,} of the {n:,} attempts with a graded score in no "
            f"category (the first: model {str(row['model'])[:80]!r}, task {str(row['task'])[:80]!r}, question "
            f"{str(row['question_id'])[:80]!r}, score {row['score']}), so they would be scored by nothing; extend the "
            "rubric's conditions to cover them (check with `python -m scorio_core rubric PATH --schema FILE`), or "
            "choose a threshold: --binarize-threshold 0.5.", field="score")
    note = (f"{n:,} attempts have a graded score (strictly between 0 and 1) and no 0/1 outcome: rubric "
            f"'{schema.name}' scores them (partial credit, its weights), nothing is binarized. Metrics of 0/1 "
            "outcomes (the Pass@k family, pass_at_k) are not computed on these data; --binarize-threshold gives them.")
    if notes is not None:
        notes.append({"code": "graded_by_rubric", "message": note})
    blocking = tuple(b for b in report.blocking if "non-binary outcome" not in b)
    lifted = replace(dataset, report=replace(report, blocking=blocking, notes=tuple(report.notes) + (note,)))
    return lifted.require_ready()
