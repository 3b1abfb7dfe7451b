"""Leaderboards: from a loaded dataset to one row per model with credible intervals.

The single function the Leaderboard page, the CLI (``leaderboard``) and the exports call,
so every surface shows the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from scorio_core import eval as ev
from scorio_core.eval.batch import binary_question_scores
from scorio_core.eval.bayes import scaled_weights
from scorio_core.errors import InputError
from scorio_core.metrics import get_metric
from scorio_core.leaderboard_checks import QUESTION_SETS, _common_mask, apply_question_set, leaderboard_notices
from scorio_core.uncertainty import DEFAULT_PRIOR, DEFAULT_SCOPE, check_prior, check_scope, interval_label
from scorio_core.uncertainty.batch import _sum_last, posterior_summary_batch
from scorio_core.outcomes import BINARY_LABELS, Outcomes, from_attempts, from_counts

__all__ = [
    "TaskOutcomes",
    "Categorization",
    "task_names",
    "pick_task",
    "outcomes_for",
    "combine",
    "leaderboard",
    "categorization_for",
    "LEADERBOARD_COLUMNS",
    "ALL_TASKS",
    "QUESTION_SETS",
    "apply_question_set",
    "leaderboard_notices",
]


ALL_TASKS = "all tasks"

#: Column order of :func:`leaderboard` (also the JSON row keys of the CLI).
LEADERBOARD_COLUMNS = (
    "model",
    "task",
    "metric",
    "estimate",
    "mu",
    "sigma",
    "lo",
    "hi",
    "prior",
    "scope",
    "interval",
    "avg",
    "pass_at_k",
    "rank",
    "rank_ci",
    "n_questions",
    "n_trials",
    "n_trials_max",
)


@dataclass(frozen=True, eq=False)
class Categorization:
    """Rubric categories of every attempt row: codes (-1 = unmatched), weights, labels."""

    codes: np.ndarray
    weights: np.ndarray
    labels: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class TaskOutcomes:
    """Outcomes of one task (or all tasks pooled) under binary correctness and the rubric.

    ``binary`` holds correct/wrong outcomes for the Pass@k family (None if the data has no
    binary correctness); ``rubric`` holds the rubric's categories for Bayes@N, avg@N and
    Max@k (the same object as ``binary`` under the default binary schema).
    """

    task: str
    binary: Outcomes | None
    rubric: Outcomes

    @property
    def models(self) -> tuple[str, ...]:
        return self.rubric.models


def task_names(dataset) -> list[str]:
    """Tasks of a :class:`scorio_core.io.Dataset`, in order of appearance."""
    table = dataset.attempts if dataset.attempts is not None else dataset.counts
    return [str(t) for t in pd.unique(table["task"])]


def _binary_codes(rows: pd.DataFrame) -> np.ndarray:
    """is_correct as category codes; NaN (no correctness recorded) -> -1 (excluded, counted)."""
    values = rows["is_correct"].to_numpy(dtype=float)
    codes = np.full(values.shape, -1, dtype=np.int16)
    ok = np.isfinite(values)
    codes[ok] = (values[ok] >= 0.5).astype(np.int16)
    return codes


def pick_task(tasks: list[str], task: str | None) -> str:
    """``task`` checked against the data's ``tasks``, or the only task when None.

    Raises
    ------
    InputError
        Several tasks and none chosen (listing them), or a task not in the data.

    Examples
    --------
    >>> pick_task(["math"], None), pick_task(["math", "code"], "code")
    ('math', 'code')
    """
    if task is None:
        if len(tasks) != 1:
            raise InputError(f"the data has {len(tasks)} tasks ({', '.join(tasks[:8])}); choose one with --task.")
        return tasks[0]
    if task not in tasks:
        raise InputError(f"task {task!r} is not in the data; tasks: {', '.join(tasks[:20])}.")
    return task


def outcomes_for(dataset, task: str | None = None, categorization: Categorization | None = None) -> TaskOutcomes:
    """Build :class:`TaskOutcomes` for one task of a dataset.

    Parameters
    ----------
    dataset : scorio_core.io.Dataset
        Loaded data (attempt table or count table).
    task : str, optional
        Task name; may be omitted when the dataset has a single task. ``ALL_TASKS`` pools
        the questions of every task (each question weighted equally).
    categorization : Categorization, optional
        Rubric codes aligned with ``dataset.attempts`` rows; default binary correctness.

    Raises
    ------
    InputError
        Unknown task, several tasks and none chosen, or a rubric on count-only data.
    """
    tasks = task_names(dataset)
    if task == ALL_TASKS:
        return combine([outcomes_for(dataset, t, categorization) for t in tasks])
    task = pick_task(tasks, task)
    if dataset.attempts is None:
        if categorization is not None:
            raise InputError("a rubric needs attempt-level data; count tables only support binary correctness.")
        counts = dataset.counts
        if len(tasks) > 1:  # one task: every row (no 10^7-row copy for a boolean mask of all True)
            counts = counts[counts["task"] == task]
        binary = from_counts(counts, task)
        return TaskOutcomes(task, binary, binary)
    table = dataset.attempts
    mask = (table["task"] == task).to_numpy()
    rows = table.loc[mask]
    binary = None
    if "is_correct" in rows and rows["is_correct"].notna().any():
        binary = from_attempts(rows, _binary_codes(rows), np.array([0.0, 1.0]), BINARY_LABELS, task)
    if categorization is None:
        if binary is None:
            raise InputError(f"task {task!r} has no is_correct values; choose a rubric schema that uses its signals.")
        return TaskOutcomes(task, binary, binary)
    rubric = from_attempts(rows, np.asarray(categorization.codes)[mask], categorization.weights, categorization.labels, task)
    return TaskOutcomes(task, binary, rubric)


def categorization_for(
    dataset, schema, task: str | None = None, *, thresholds: dict | None = None, max_tokens: int | None = None
) -> tuple[Categorization, list[str]]:
    """Apply a rubric schema to the attempts of each task (thresholds computed per task).

    Parameters
    ----------
    dataset : scorio_core.io.Dataset
        Attempt-level data.
    schema : str, dict, path or scorio_core.rubric.Schema
        Built-in name, rubric JSON (text, dict or file) or a Schema.
    task : str, optional
        Categorize only this task (other rows stay unmatched, code -1); all tasks if omitted.
    thresholds : dict, optional
        Frozen threshold values (``{name: value}``) reused instead of recomputing percentiles.
    max_tokens : int, optional
        Completion-token limit for the ``token_ratio`` signal.

    Returns
    -------
    categorization : Categorization
        Codes aligned with ``dataset.attempts`` rows (-1 = unmatched or other task).
    notes : list of str
        Thresholds used and coverage problems per task (unmatched attempts are excluded
        from scoring and counted, never filled).

    Raises
    ------
    InputError
        Count-only data, or a schema problem (unknown signal, bad condition...).
    """
    from scorio_core.rubric import categorize, resolve_schema

    if dataset.attempts is None:
        raise InputError("a rubric needs attempt-level data; count tables only support binary correctness.")
    schema = resolve_schema(schema)
    attempts = dataset.attempts
    codes = np.full(len(attempts), -1, dtype=np.int16)
    notes: list[str] = []
    result = None
    for name in [task] if task is not None else task_names(dataset):
        mask = (attempts["task"] == name).to_numpy()
        result = categorize(attempts.loc[mask], schema, thresholds, max_tokens=max_tokens)
        codes[mask] = result.codes
        if result.thresholds:
            values = ", ".join(f"{k}={v:.6g}" for k, v in result.thresholds.items())
            notes.append(f"{name}: rubric '{schema.name}' thresholds: {values}")
        coverage = result.coverage
        if coverage.n_unmatched:
            notes.append(f"{name}: {coverage.n_unmatched} of {coverage.n_attempts} attempts matched no category and are excluded")
        notes.extend(f"{name}: {n}" for n in coverage.notes)
        notes.extend(f"{name}: {getattr(i, 'message', i)}" for i in coverage.issues)
    weights = np.asarray(schema.weights, dtype=float)
    return Categorization(codes, weights, tuple(schema.labels)), notes


def _concat(parts: list[Outcomes], task: str) -> Outcomes:
    models: list[str] = []
    for p in parts:
        models.extend(m for m in p.models if m not in models)
    L = len(models)
    n_cat = parts[0].n_categories
    counts_blocks, r_blocks, questions = [], [], []
    n_max = max((p.R.shape[2] for p in parts if p.R is not None), default=0)
    has_order = all(p.R is not None for p in parts)
    for p in parts:
        idx = [models.index(m) for m in p.models]
        block = np.zeros((L, p.n_questions, n_cat), dtype=np.int64)
        block[idx] = p.counts
        counts_blocks.append(block)
        questions.extend(f"{p.task}/{q}" for q in p.questions)
        if has_order:
            r = np.full((L, p.n_questions, n_max), -1, dtype=np.int16)
            r[idx, :, : p.R.shape[2]] = p.R
            r_blocks.append(r)
    return Outcomes(
        task=task,
        models=tuple(models),
        questions=tuple(questions),
        weights=parts[0].weights,
        labels=parts[0].labels,
        counts=np.concatenate(counts_blocks, axis=1),
        R=np.concatenate(r_blocks, axis=1) if has_order else None,
        excluded=sum(p.excluded for p in parts),
        notes=tuple(n for p in parts for n in p.notes),
    )


def combine(per_task: list[TaskOutcomes]) -> TaskOutcomes:
    """Pool the questions of several tasks into one :class:`TaskOutcomes` (task ``ALL_TASKS``).

    Questions are renamed ``task/question``; a model missing from a task has missing cells
    there (excluded from its question count, never filled).
    """
    rubric_parts = [t.rubric for t in per_task]
    weights = rubric_parts[0].weights
    if any(not np.array_equal(p.weights, weights) for p in rubric_parts):
        raise InputError("tasks use different rubric weights and cannot be pooled.")
    binaries = [t.binary for t in per_task]
    binary = _concat(binaries, ALL_TASKS) if all(b is not None for b in binaries) else None
    rubric = binary if all(t.rubric is t.binary for t in per_task) and binary is not None else _concat(rubric_parts, ALL_TASKS)
    return TaskOutcomes(ALL_TASKS, binary, rubric)


def _positions(names, wanted) -> np.ndarray:
    """Indices of ``wanted`` in ``names`` (dict lookup, not list.index per model)."""
    where = {m: i for i, m in enumerate(names)}
    return np.array([where[m] for m in wanted], dtype=np.int64)


def _take(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``a[idx]`` without the copy when ``idx`` is every row in order (the usual case; callers only read it).

    The result is C-contiguous either way, as ``a[idx]`` is: reductions sum in a layout-dependent order.
    """
    if idx.size == len(a) and (idx.size == 0 or np.array_equal(idx, np.arange(idx.size))):
        return np.ascontiguousarray(a)
    return a[idx]


def _avg_rows(counts: np.ndarray, w: np.ndarray) -> np.ndarray:
    """avg@N of every model, shape (L,): mean over answered questions of each question's average score.

    Equals :func:`scorio_core.eval.avg` per model (equal N: sum over trials / (M N)); NaN without
    answered questions. Computed on weights shifted and scaled to unit range, so weights near 1e308 stay finite.
    """
    offset, scale, w_norm = scaled_weights(np.asarray(w, dtype=float))
    n = _sum_last(counts) if counts.dtype == np.int64 else counts.sum(axis=2)
    ok = n > 0
    per_q = counts @ w_norm  # the same operations as np.where(ok, (counts @ w_norm) / np.where(ok, n, 1), 0.0), in place
    n[~ok] = 1
    per_q /= n
    np.copyto(per_q, 0.0, where=~ok)
    m = ok.sum(axis=1)
    return np.where(m > 0, offset + scale * (per_q.sum(axis=1) / np.maximum(m, 1)), np.nan)


def _model_counts(outcomes: Outcomes, index: int, prior_counts: np.ndarray | None, binary: bool):
    """Sufficient statistics of one model over the questions it answered."""
    cell = outcomes.counts[index]
    present = cell.sum(axis=1) > 0
    if not np.any(present):
        return None
    if binary:
        return ev.BinaryCounts(cell[present, 1], cell[present].sum(axis=1))
    prior = None if prior_counts is None else prior_counts[index][present]
    return ev.CategoryCounts(cell[present], prior)


def leaderboard(
    task_outcomes: TaskOutcomes,
    *,
    metric: str = "bayes",
    k: int = 1,
    tau: float = 0.5,
    confidence: float = 0.95,
    tie_rule: str = "pairwise",
    prior_counts: np.ndarray | None = None,
    prior: str = DEFAULT_PRIOR,
    scope: str = DEFAULT_SCOPE,
    question_set: str = "own",
) -> pd.DataFrame:
    """One row per model: the metric with its credible interval, avg@N, Pass@k and ranks.

    Parameters
    ----------
    task_outcomes : TaskOutcomes
    metric : str, default "bayes"
        Key of :data:`scorio_core.metrics.METRICS`.
    k : int, default 1
        Draws for the k-metrics and the ``pass_at_k`` column.
    tau : float, default 0.5
        Threshold of G-Pass@k_tau.
    confidence : float, default 0.95
        Credibility of intervals (two-sided) and of CI ties (one-sided z, paper 2.7.1).
    tie_rule : {"pairwise", "paper", "upper-bound", "none"}, default "pairwise"
        How ``rank_ci`` treats overlapping uncertainty (see :func:`scorio_core.ranking.rank.ranks_with_ties`).
    prior_counts : ndarray, shape (L, M, C+1), optional
        Prior outcome counts for Bayes@N / Max@k (a Dirichlet prior from another dump).
    prior : {"empirical-bayes", "uniform", "jeffreys"}, default "empirical-bayes"
        Per-question prior (:mod:`scorio_core.uncertainty`); ``uniform`` is the paper's
        Bayes@N, reference-exact. The default is the one measured to cover at the nominal
        level (docs/metrics.md, "Calibration").
    scope : {"questions-fixed", "questions-sampled"}, default "questions-fixed"
        What the interval covers: the trials only (the paper's estimand) or also which
        questions were drawn from a larger pool.
    question_set : {"own", "common", "missing-incorrect"}, default "own"
        How models that answered different questions are compared (:data:`QUESTION_SETS`,
        :func:`apply_question_set`); :func:`leaderboard_notices` says when it matters.

    Returns
    -------
    DataFrame
        Columns :data:`LEADERBOARD_COLUMNS`, sorted by ``mu`` (best first). Models that
        cannot be scored (e.g. ``k`` larger than their trials) get NaN and rank NaN.
        ``prior``/``scope`` are the ones actually used for the row (Max@k: always uniform)
        and ``interval`` says in words what the interval covers.

    Raises
    ------
    ValueError
        Unknown metric, prior, scope, tie rule or question set.
    """
    from scorio_core.ranking.rank import competition_ranks, ranks_with_ties

    spec = get_metric(metric)
    check_prior(prior)
    check_scope(scope)
    task_outcomes = apply_question_set(task_outcomes, question_set)
    source = task_outcomes.binary if spec.binary else task_outcomes.rubric
    if source is None:
        raise InputError(f"{spec.label} needs binary correctness (is_correct), which this data does not have.")
    binary = task_outcomes.binary
    rubric = task_outcomes.rubric
    models = list(task_outcomes.models)
    rubric_trials = rubric.n_trials  # (L, M) once, not once per model
    if prior_counts is not None and question_set == "common":
        prior_counts = prior_counts[:, _common_mask(task_outcomes)]
    r_idx = _positions(rubric.models, models)
    n_cells = _take(rubric_trials, r_idx)
    answered = n_cells > 0
    n_questions = answered.sum(axis=1)
    frame = pd.DataFrame({
        "model": models, "task": task_outcomes.task, "metric": spec.label, "n_questions": n_questions.astype(int),
        "n_trials": np.where(answered, n_cells, np.iinfo(np.int64).max).min(axis=1, initial=np.iinfo(np.int64).max),
        "n_trials_max": n_cells.max(axis=1, initial=0),
    })
    frame.loc[n_questions == 0, "n_trials"] = 0
    frame["n_trials"] = frame["n_trials"].astype(int)
    columns = {name: np.full(len(models), np.nan) for name in ("estimate", "mu", "sigma", "lo", "hi")}
    used_prior = np.full(len(models), prior, dtype=object)
    used_scope = np.full(len(models), scope, dtype=object)
    s_idx = _positions(source.models, models)
    if spec.key in ("bayes", "avg") and prior_counts is None and not (spec.key == "avg" and prior == "uniform"
                                                                      and scope == "questions-fixed"):
        # every model at once (no loop over models): the same numbers as MetricSpec.compute
        batch = posterior_summary_batch(_take(source.counts, s_idx), source.weights, prior=prior, scope=scope, confidence=confidence)
        columns.update(mu=batch.mu, sigma=batch.sigma, lo=batch.lo, hi=batch.hi)
        columns["estimate"] = batch.mu if spec.key == "bayes" else _avg_rows(_take(source.counts, s_idx), source.weights)
    else:
        for i, model in enumerate(models):
            counts = _model_counts(source, s_idx[i], prior_counts if not spec.binary else None, spec.binary)
            if counts is None or (spec.uses_k and spec.key != "max@k" and k > int(np.min(counts.n_trials))):
                continue
            value = spec.compute(counts, w=source.weights, k=k, tau=tau, confidence=confidence, prior=prior, scope=scope)
            for name in columns:
                columns[name][i] = getattr(value, name)
            used_prior[i], used_scope[i] = value.prior, value.scope
    for name, values in columns.items():
        frame[name] = values
    frame["prior"], frame["scope"] = used_prior, used_scope
    labels = {(p_, s_): interval_label(p_, s_, confidence) for p_, s_ in set(zip(used_prior, used_scope))}
    frame["interval"] = [labels[(p_, s_)] for p_, s_ in zip(used_prior, used_scope)]
    frame["avg"] = _avg_rows(_take(rubric.counts, r_idx), rubric.weights)
    frame["pass_at_k"] = np.nan
    if binary is not None:
        in_binary = set(binary.models)
        present = [m for m in models if m in in_binary]
        b_idx = _positions(binary.models, present)
        c = _take(binary.counts, b_idx)[..., 1]
        n = _take(rubric_trials if binary is rubric else binary.n_trials, b_idx)  # the same integers as cells.sum(axis=2)
        ok = n > 0
        scores = binary_question_scores("pass@k", c, np.where(ok, n, max(k, 1)), k=k)
        n_min = np.where(ok, n, np.iinfo(np.int64).max).min(axis=1)
        value = np.where(ok, scores, 0.0).sum(axis=1) / np.maximum(ok.sum(axis=1), 1)
        value = np.where((ok.sum(axis=1) > 0) & (k <= n_min), value, np.nan)
        frame.loc[frame["model"].isin(present).to_numpy(), "pass_at_k"] = value
    frame["rank"] = np.nan
    frame["rank_ci"] = np.nan
    scored = frame["mu"].notna().to_numpy()
    if scored.any():
        mu = frame.loc[scored, "mu"].to_numpy(float)
        sigma = frame.loc[scored, "sigma"].to_numpy(float)
        frame.loc[scored, "rank"] = competition_ranks(mu)
        frame.loc[scored, "rank_ci"] = ranks_with_ties(mu, sigma, confidence=confidence, rule=tie_rule)
    frame["rank"] = frame["rank"].astype("Int64")
    frame["rank_ci"] = frame["rank_ci"].astype("Int64")
    frame = frame.sort_values(["mu", "model"], ascending=[False, True], na_position="last", kind="stable")
    return frame.reset_index(drop=True)[list(LEADERBOARD_COLUMNS)]
