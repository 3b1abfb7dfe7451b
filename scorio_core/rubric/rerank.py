"""Re-ranking under a rubric: categorize the attempts in scope, build outcomes, add a prior R0.

The one path the Rubric page (and every page that uses the active rubric), the CLI and
``benchmarks/bench_rerank.py`` share:

1. :func:`signal_table` binds the attempts of the scope (one task, or every task for
   ``ALL_TASKS``) once; :func:`categorize_scope` maps them to the schema's categories with
   thresholds computed over that scope (or frozen), aligned with the dataset's rows;
2. :func:`scorio_core.leaderboard.table.outcomes_for` and :func:`scorio_core.leaderboard.table.leaderboard`
   score them (:func:`rubric_leaderboard` runs the three steps);
3. optionally, a prior ``R0`` (another dump, or another model's attempts) is mapped through
   the same schema with the same (frozen) thresholds, tallied per question
   (:func:`prior_question_counts`) and aligned with the outcomes (:func:`align_prior`).

Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, Appendix F (rubrics) and
section 2.3 (prior outcomes R0).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from scorio_core import rubric
from scorio_core.leaderboard.table import ALL_TASKS, Categorization, TaskOutcomes, leaderboard, outcomes_for
from scorio_core.errors import InputError

__all__ = [
    "ScopedCategorization",
    "PriorCounts",
    "scope_mask",
    "signal_table",
    "categorize_scope",
    "prior_question_counts",
    "prior_from_counts",
    "align_prior",
    "rubric_leaderboard",
    "UNMATCHED_EXCLUDE",
    "check_unmatched_policy",
    "apply_unmatched",
    "unmatched_by_model",
]

#: Policy for attempts that match no rubric category: left out of scoring (counted and shown).
UNMATCHED_EXCLUDE = "exclude"


class ScopedCategorization(NamedTuple):
    """A rubric applied to the attempts of one scope.

    Attributes
    ----------
    result : scorio_core.rubric.Categorization
        Codes, thresholds and coverage over the attempts in scope (rows of ``mask``).
    categorization : scorio_core.leaderboard.table.Categorization
        Codes aligned with every row of ``dataset.attempts`` (-1 outside the scope), the
        input of :func:`scorio_core.leaderboard.table.outcomes_for`.
    mask : ndarray of bool, shape (n_attempts,)
        Rows in scope.
    """

    result: rubric.Categorization
    categorization: Categorization
    mask: np.ndarray


class PriorCounts(NamedTuple):
    """Prior outcome counts R0 per question, mapped through a rubric.

    Attributes
    ----------
    tasks, questions : tuple of str, length Q
        Task and question id of each row of ``counts``.
    counts : ndarray of int64, shape (Q, C+1)
        Prior category counts per question (summed over the prior's models and trials).
    n_unmatched : int
        Prior attempts no category matched (left out).
    """

    tasks: tuple[str, ...]
    questions: tuple[str, ...]
    counts: np.ndarray
    n_unmatched: int = 0


def scope_mask(attempts: pd.DataFrame, task: str | None) -> np.ndarray:
    """Rows of ``attempts`` in scope: one task, or all rows for ``None`` / ``ALL_TASKS``."""
    if task is None or task == ALL_TASKS:
        return np.ones(len(attempts), dtype=bool)
    mask = (attempts["task"] == task).to_numpy()
    if not mask.any():
        raise InputError(f"task {task!r} is not in the data.")
    return mask


def signal_table(dataset, task: str | None, max_tokens: int | None = None) -> rubric.SignalTable:
    """Signals of the attempts in scope, converted once (reuse it across schemas and edits).

    Raises
    ------
    InputError
        For count-only data (rubrics need attempt-level signals).
    """
    if dataset.attempts is None:
        raise InputError("rubrics need attempt-level data with signals; this dataset has counts only "
                         "(n_trials, n_correct), so it is scored by binary correctness.")
    mask = scope_mask(dataset.attempts, task)
    rows = dataset.attempts if mask.all() else dataset.attempts.loc[mask]
    return rubric.SignalTable(rows.reset_index(drop=True), max_tokens=max_tokens)


def categorize_scope(dataset, task: str | None, schema, thresholds=None, *, table: rubric.SignalTable | None = None,
                     max_tokens: int | None = None) -> ScopedCategorization:
    """Categorize the attempts of one scope; thresholds are computed over that scope.

    Parameters
    ----------
    dataset : scorio_core.io.Dataset
        Attempt-level data.
    task : str or None
        A task, or ``None`` / ``ALL_TASKS`` for every attempt (thresholds pooled over tasks).
    schema : Schema, str, path or dict
        As :func:`scorio_core.rubric.categorize`.
    thresholds : dict of str to float, optional
        Frozen threshold values.
    table : SignalTable, optional
        The prebuilt :func:`signal_table` of this scope (faster on repeated calls).
    max_tokens : int, optional
        For ``token_ratio`` when the data has no ``max_tokens`` column.

    Returns
    -------
    ScopedCategorization

    Raises
    ------
    InputError
        Count-only data, unknown names or type errors in the schema, bad thresholds.
    """
    if dataset.attempts is None:
        raise InputError("rubrics need attempt-level data with signals; this dataset has counts only.")
    mask = scope_mask(dataset.attempts, task)
    if table is None:
        table = signal_table(dataset, task, max_tokens)
    elif table.n_rows != int(mask.sum()):
        raise InputError(f"the signal table has {table.n_rows} rows but the scope has {int(mask.sum())} attempts.")
    result = rubric.categorize(table, schema, thresholds)
    codes = np.full(len(dataset.attempts), -1, dtype=np.int16)
    codes[mask] = result.codes
    categorization = Categorization(codes, np.asarray(result.weights, dtype=float), tuple(result.labels))
    return ScopedCategorization(result, categorization, mask)


def prior_question_counts(attempts: pd.DataFrame, codes: np.ndarray, n_categories: int) -> PriorCounts:
    """Tally prior attempts per (task, question) and category.

    Parameters
    ----------
    attempts : DataFrame
        The prior attempts (``task``, ``question_id``), one row per attempt.
    codes : ndarray of int, shape (len(attempts),)
        Category of each prior attempt under the same schema (-1 = unmatched, left out).
    n_categories : int
        C+1.
    """
    codes = np.asarray(codes)
    if codes.shape != (len(attempts),):
        raise ValueError(f"codes must have one entry per prior attempt ({len(attempts)}); got {codes.shape}.")
    keep = codes >= 0
    keys = pd.MultiIndex.from_arrays([attempts["task"].astype(str).to_numpy()[keep],
                                      attempts["question_id"].astype(str).to_numpy()[keep]])
    index, uniques = pd.factorize(keys, sort=False)
    counts = np.zeros((len(uniques), n_categories), dtype=np.int64)
    np.add.at(counts, (index, codes[keep].astype(np.int64)), 1)
    tasks = tuple(str(t) for t, _ in uniques)
    questions = tuple(str(q) for _, q in uniques)
    return PriorCounts(tasks, questions, counts, int((~keep).sum()))


def prior_from_counts(counts_table: pd.DataFrame) -> PriorCounts:
    """Binary prior counts ``[wrong, correct]`` per question from a count table."""
    grouped = counts_table.groupby([counts_table["task"].astype(str), counts_table["question_id"].astype(str)],
                                   sort=False)[["n_trials", "n_correct"]].sum()
    n = grouped["n_trials"].to_numpy(np.int64)
    c = grouped["n_correct"].to_numpy(np.int64)
    tasks = tuple(str(t) for t, _ in grouped.index)
    questions = tuple(str(q) for _, q in grouped.index)
    return PriorCounts(tasks, questions, np.stack([n - c, c], axis=1), 0)


def align_prior(task_outcomes: TaskOutcomes, prior: PriorCounts) -> tuple[np.ndarray, int]:
    """Prior counts aligned with the outcomes' questions, the same for every model.

    Questions are matched by id: within the outcomes' task when the prior has that task,
    else by question id over all prior tasks; for ``ALL_TASKS`` by ``task/question``.
    Unmatched questions get zero prior counts (the uniform Dirichlet prior alone).

    Returns
    -------
    prior_counts : ndarray of int64, shape (L, M, C+1)
    n_matched : int
        Questions of the outcomes that received prior counts.

    Raises
    ------
    InputError
        If the prior has a different number of categories than the rubric.
    """
    outcomes = task_outcomes.rubric
    n_cat = outcomes.n_categories
    if prior.counts.shape[1] != n_cat:
        raise InputError(f"the prior has {prior.counts.shape[1]} categories but the rubric has {n_cat}.")
    if task_outcomes.task == ALL_TASKS:
        keys = [f"{t}/{q}" for t, q in zip(prior.tasks, prior.questions)]
    else:
        same = [t == task_outcomes.task for t in prior.tasks]
        use = same if any(same) else [True] * len(prior.tasks)
        keys = [q if u else None for q, u in zip(prior.questions, use)]
    lookup: dict[str, np.ndarray] = {}
    for key, row in zip(keys, prior.counts):
        if key is not None:
            lookup[key] = lookup[key] + row if key in lookup else row.copy()
    aligned = np.zeros((outcomes.n_questions, n_cat), dtype=np.int64)
    matched = 0
    for j, q in enumerate(outcomes.questions):
        row = lookup.get(q)
        if row is not None:
            aligned[j] = row
            matched += 1
    return np.broadcast_to(aligned, (outcomes.n_models, *aligned.shape)).copy(), matched


def rubric_leaderboard(dataset, task: str, schema, thresholds=None, *, table: rubric.SignalTable | None = None,
                       prior: PriorCounts | None = None, **settings) -> tuple[ScopedCategorization, TaskOutcomes, pd.DataFrame]:
    """Categorize, build outcomes and rank: the whole rubric re-rank path in one call.

    ``settings`` go to :func:`scorio_core.leaderboard.table.leaderboard` (metric, k, tau,
    confidence, tie_rule). Returns the scoped categorization, the outcomes and the table.
    """
    scoped = categorize_scope(dataset, task, schema, thresholds, table=table)
    outcomes = outcomes_for(dataset, task, scoped.categorization)
    prior_counts = align_prior(outcomes, prior)[0] if prior is not None else None
    return scoped, outcomes, leaderboard(outcomes, prior_counts=prior_counts, **settings)


def check_unmatched_policy(policy: object, labels) -> int | None:
    """Category index an unmatched attempt counts as, or None for :data:`UNMATCHED_EXCLUDE`.

    Parameters
    ----------
    policy : str
        ``"exclude"`` (the attempt is left out; M and N per model show it) or the label of
        one rubric category the attempt then counts as.
    labels : sequence of str
        The rubric's category labels.

    Raises
    ------
    InputError
        A policy that is neither ``"exclude"`` nor one of ``labels`` (field ``unmatched``).
    """
    if policy is None or policy == UNMATCHED_EXCLUDE:
        return None
    labels = [str(label) for label in labels]
    if isinstance(policy, str) and policy in labels:
        return labels.index(policy)
    raise InputError(
        f"unmatched attempts: {str(policy)[:80]!r} is not a category of this rubric; use 'exclude' or one of "
        f"{', '.join(repr(label) for label in labels)}.", field="unmatched",
    )


def apply_unmatched(categorization: Categorization, mask: np.ndarray, policy: object) -> Categorization:
    """The categorization with unmatched attempts of the scope counted as one category (or unchanged).

    Parameters
    ----------
    categorization : scorio_core.leaderboard.table.Categorization
        Codes per attempt row (-1 = unmatched or outside the scope).
    mask : ndarray of bool, shape (n_attempts,)
        Rows in scope (:func:`scope_mask`); rows outside stay -1.
    policy : str
        As :func:`check_unmatched_policy`.

    Returns
    -------
    Categorization
        The same object for ``"exclude"``; otherwise new codes where every in-scope -1 is
        the chosen category. Nothing is dropped or filled without this explicit choice.
    """
    index = check_unmatched_policy(policy, categorization.labels)
    if index is None:
        return categorization
    codes = categorization.codes.copy()
    codes[mask & (codes < 0)] = index
    return Categorization(codes, categorization.weights, categorization.labels)


def unmatched_by_model(attempts: pd.DataFrame, codes: np.ndarray, mask: np.ndarray) -> pd.DataFrame:
    """Attempts per model in scope and how many matched no rubric category.

    Returns
    -------
    DataFrame
        Columns ``model``, ``attempts``, ``unmatched`` (int), one row per model of the scope
        in order of first appearance.
    """
    frame = pd.DataFrame({"model": attempts["model"].to_numpy()[mask], "unmatched": codes[mask] < 0})
    grouped = frame.groupby("model", sort=False)["unmatched"].agg(["size", "sum"]).reset_index()
    grouped.columns = ["model", "attempts", "unmatched"]
    grouped["model"] = grouped["model"].astype(str)
    return grouped.astype({"attempts": np.int64, "unmatched": np.int64})
