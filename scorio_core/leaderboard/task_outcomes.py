"""Per-task outcomes of a loaded dataset: task names, one task's (or all tasks') outcomes, rubric categories.

What every leaderboard, trajectory and comparison starts from: :func:`outcomes_for` turns a
:class:`scorio_core.io.Dataset` into the binary and rubric :class:`~scorio_core.leaderboard.outcomes.Outcomes` of a
task (or all tasks pooled), :func:`categorization_for` applies a rubric schema (paper Appendix F). Re-exported by
:mod:`scorio_core.leaderboard.table`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._dataset import RESERVED_TASK
from scorio_core.leaderboard.outcomes import BINARY_LABELS, Outcomes, from_attempts, from_counts, graded_rows
from scorio_core.limits import check_dense

__all__ = ["ALL_TASKS", "Categorization", "TaskOutcomes", "categorization_for", "combine", "task_listing", "outcomes_for",
           "pick_task", "question_clusters", "cluster_column_candidates", "task_names"]

ALL_TASKS = RESERVED_TASK  # "all tasks": no data task may use the name (scorio_core.io.Dataset refuses it)


@dataclass(frozen=True, eq=False)
class Categorization:
    """Rubric categories of every attempt row: codes (-1 = unmatched), weights, labels; ``thresholds``: the values
    used when one task was categorized (to map prior outcomes R0 the same way), else empty."""

    codes: np.ndarray
    weights: np.ndarray
    labels: tuple[str, ...]
    thresholds: dict = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class TaskOutcomes:
    """Outcomes of one task (or all tasks pooled) under binary correctness and the rubric.

    ``binary``: correct/wrong outcomes for the Pass@k family (None without binary correctness, or with graded scores);
    ``rubric``: the rubric's categories for Bayes@N, avg@N and Max@k (``binary`` itself under binary correctness)."""

    task: str
    binary: Outcomes | None
    rubric: Outcomes

    @property
    def models(self) -> tuple[str, ...]:
        return self.rubric.models


def task_names(dataset, by_models: bool = False) -> list[str]:
    """Tasks of a :class:`scorio_core.io.Dataset`, in order of appearance; ``by_models``: the tasks with the most models
    first, ties in order of appearance (the app's task choices, whose first is the default view)."""
    table = dataset.attempts if dataset.attempts is not None else dataset.counts
    tasks = [str(t) for t in pd.unique(table["task"])]
    if not by_models or len(tasks) < 2:
        return tasks
    (t, task_ids), (m, model_ids) = pd.factorize(table["task"]), pd.factorize(table["model"])  # O(rows), no sort
    seen = np.bincount(t.astype(np.int64) * len(model_ids) + m, minlength=len(task_ids) * len(model_ids)) > 0
    models = dict(zip(map(str, task_ids), seen.reshape(len(task_ids), -1).sum(axis=1)))
    return sorted(tasks, key=lambda task: -int(models[task]))  # sorted is stable: ties keep their order


def split_pooled_question(tasks, question: str, exists=None) -> tuple[str, str]:
    """``(task, question id)`` of a question named ``"task/question"`` under all tasks pooled.

    The longest task name followed by "/" wins, so task names that hold "/" (``mmlu/algebra``) and question ids that
    hold "/" both split right. With ``exists(task, question_id) -> bool``, the splits that name a question of the data
    are the candidates, and two of them are refused as the pooled table refuses them (task ``math/algebra`` with
    question ``q00`` beside task ``math`` with question ``algebra/q00``): picking one silently showed another
    question's attempts.

    Raises
    ------
    InputError
        No task of ``tasks`` starts the name, or (with ``exists``) two tasks hold a question of that name.

    >>> split_pooled_question(["mmlu", "mmlu/algebra", "gsm8k"], "mmlu/algebra/q0/a")
    ('mmlu/algebra', 'q0/a')
    """
    if not (found := [t for t in map(str, tasks) if question.startswith(t + "/")]):
        raise InputError(f"with all tasks pooled a question is named 'task/question'; got {question[:80]!r}, which "
                         "starts with no task of the data.", field="question")
    if exists is not None:
        real = [t for t in found if exists(t, question[len(t) + 1:])]
        if len(real) > 1:
            a, b = sorted(real, key=len, reverse=True)[:2]
            raise InputError(f"with all tasks pooled {question[:80]!r} names two questions: question "
                             f"{question[len(a) + 1:]!r} of task {a!r} and question {question[len(b) + 1:]!r} of task "
                             f"{b!r}; choose the task with --task (the app: the sidebar's task).", field="question")
        found = real or found
    task = max(found, key=len)
    return task, question[len(task) + 1:]


def _binary_codes(rows: pd.DataFrame) -> np.ndarray:
    """is_correct as category codes; NaN (no correctness recorded) -> -1 (excluded, counted)."""
    values = rows["is_correct"].to_numpy(dtype=float)
    codes = np.full(values.shape, -1, dtype=np.int16)
    ok = np.isfinite(values)
    codes[ok] = (values[ok] >= 0.5).astype(np.int16)
    return codes


def pick_task(tasks: list[str], task: str | None, pooled: bool = False) -> str:
    """``task`` checked against the data's ``tasks``, or the only task when None; ``pooled``: the caller also accepts
    ``ALL_TASKS`` (as :func:`outcomes_for` does), so the message offers it.

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
            pool = f", or --task '{ALL_TASKS}' to pool them" if pooled else ""
            raise InputError(f"the data has {task_listing(tasks)}; choose one with --task{pool}.")
        return tasks[0]
    if task not in tasks:
        raise InputError(f"task {task!r} is not in the data; tasks: {task_listing(tasks, 20, count=False)}.")
    return task


def task_listing(tasks, shown: int = 8, count: bool = True) -> str:
    """The tasks of a dataset in a message: ``"18 tasks (a, b, ... and 10 more)"`` (``count=False``: the list alone).

    >>> task_listing(["a", "b", "c"], 2), task_listing(["a", "b"], count=False)
    ('3 tasks (a, b and 1 more)', 'a, b')
    """
    tasks = [str(t) for t in tasks]
    names = ", ".join(tasks[:shown]) + (f" and {len(tasks) - shown:,} more" if len(tasks) > shown else "")
    return f"{len(tasks):,} tasks ({names})" if count else names


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
    task = pick_task(tasks, task, pooled=True)
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
    binary = None  # none when some attempt has a graded score (a rubric scores them): Pass@k never on the 0/1 ones alone
    graded = bool(graded_rows(rows).any())  # the attempts the quality report counts as non-binary
    if "is_correct" in rows and rows["is_correct"].notna().any() and not graded:
        binary = from_attempts(rows, _binary_codes(rows), np.array([0.0, 1.0]), BINARY_LABELS, task)
    if categorization is None:
        if binary is None:  # graded scores under no rubric here: 0/1 outcomes are asked for (e.g. a ranking method)
            raise InputError(f"task {task!r} has graded scores (no 0/1 outcome), not the 0/1 outcomes this needs: a "
                             "threshold gives them (the Data page, or --binarize-threshold 0.5); Bayes@N and avg@N score "
                             "them with a rubric's partial credit as they are." if graded else
                             f"task {task!r} has no is_correct values; choose a rubric schema that reads the data's signals "
                             "(for category codes, one category per code such as condition \"category == 3\": the Rubric "
                             "page, or --schema FILE in the CLI) or map a 0/1 outcome column as is_correct.")
        return TaskOutcomes(task, binary, binary)
    rubric = from_attempts(rows, np.asarray(categorization.codes)[mask], categorization.weights, categorization.labels, task)
    return TaskOutcomes(task, binary, rubric)


def categorization_for(dataset, schema, task: str | None = None, *, thresholds: dict | None = None,
                       max_tokens: int | None = None) -> tuple[Categorization, list[str]]:
    """Apply a rubric schema to the attempts of each task (thresholds computed per task).

    Parameters
    ----------
    dataset : scorio_core.io.Dataset
        Attempt-level data.
    schema : str, dict, path or scorio_core.rubric.Schema
        Built-in name, rubric JSON (text, dict or file) or a Schema.
    task : str, optional
        Only this task (other rows stay code -1); every task if omitted; ``ALL_TASKS``: pooled thresholds, as the app.
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
    from scorio_core.rubric.coverage import categorization_notes

    if dataset.attempts is None:
        raise InputError("a rubric needs attempt-level data; count tables only support binary correctness.")
    schema = resolve_schema(schema)
    attempts = dataset.attempts
    codes = np.full(len(attempts), -1, dtype=np.int16)
    notes: list[str] = []
    result = None
    for name in [task] if task is not None else task_names(dataset):  # all tasks pooled: one scope, as the app's
        mask = np.ones(len(attempts), dtype=bool) if name == ALL_TASKS else (attempts["task"] == name).to_numpy()
        result = categorize(attempts.loc[mask], schema, thresholds, max_tokens=max_tokens)
        codes[mask] = result.codes
        notes.extend(f"{name}: {n}" for n in categorization_notes(result, schema.name))  # as the exports say them
    weights = np.asarray(schema.weights, dtype=float)
    used = dict(result.thresholds) if task is not None and result is not None and result.thresholds else {}
    return Categorization(codes, weights, tuple(schema.labels), used), notes


def _concat(parts: list[Outcomes], task: str) -> Outcomes:
    models: list[str] = []
    for p in parts:
        models.extend(m for m in p.models if m not in models)
    L = len(models)
    n_cat = parts[0].n_categories
    counts_blocks, r_blocks, questions, question_tasks = [], [], [], []
    n_max = max((p.R.shape[2] for p in parts if p.R is not None), default=0)
    has_order = all(p.R is not None for p in parts)
    check_dense(f"pooling {len(parts):,} tasks", L, sum(p.n_questions for p in parts), n_cat, n_max if has_order else None)
    row_of = {m: i for i, m in enumerate(models)}  # not models.index per model and task: O(L^2) per task
    for p in parts:
        idx = [row_of[m] for m in p.models]
        block = np.zeros((L, p.n_questions, n_cat), dtype=np.int64)
        block[idx] = p.counts
        counts_blocks.append(block)
        questions.extend(f"{p.task}/{q}" for q in p.questions)
        question_tasks.extend([p.task] * p.n_questions)
        if has_order:
            r = np.full((L, p.n_questions, n_max), -1, dtype=np.int16)
            r[idx, :, : p.R.shape[2]] = p.R
            r_blocks.append(r)
    _check_pooled_names(questions, question_tasks)
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
        question_tasks=tuple(question_tasks),
    )


def _check_pooled_names(questions: list[str], question_tasks: list[str]) -> None:
    """Raise when two questions of different tasks get the same pooled name ``task/question``.

    Task ``a/b`` with question ``c`` and task ``a`` with question ``b/c`` would both read ``a/b/c``: their
    clusters and prior counts would be merged by name, so the data is refused, naming both.
    """
    if len(set(questions)) == len(questions):
        return
    seen: dict[str, str] = {}
    for name, task in zip(questions, question_tasks):
        if name in seen:
            first = seen[name]
            raise InputError(
                f"pooling tasks names questions 'task/question', and two read {name!r}: question "
                f"{name[len(first) + 1:]!r} of task {first!r} and question {name[len(task) + 1:]!r} of task {task!r}. "
                "Rename one task (or question) so that no task name followed by '/' begins another task's "
                "question names, or analyse the tasks one at a time.")
        seen[name] = task


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


def question_clusters(dataset, task: str | None, column: str) -> dict[str, object]:
    """The cluster of every question of a task, read from a data column (a passage, template or source file).

    Parameters
    ----------
    dataset : scorio_core.io.Dataset
    task : str or None
        As :func:`outcomes_for` (``ALL_TASKS``: keys ``task/question``, clusters kept apart per task).
    column : str
        A column of the attempt table (or count table) whose value is the same on every row of a question.

    Returns
    -------
    dict of str to object
        Question id -> cluster label, for :func:`scorio_core.leaderboard.table.leaderboard` ``clusters=``.

    Raises
    ------
    InputError
        Unknown column (the message lists the columns), a question with no value, or a question whose
        rows disagree (named, with two of its values): a cluster must hold whole questions.
    """
    tasks = task_names(dataset)
    if task == ALL_TASKS:
        out: dict[str, object] = {}
        for t in tasks:
            out.update({f"{t}/{q}": f"{t}/{c}" for q, c in question_clusters(dataset, t, column).items()})
        return out
    task = pick_task(tasks, task, pooled=True)
    table = dataset.attempts if dataset.attempts is not None else dataset.counts
    if column not in table.columns:
        hidden = {"model", "task", "question_id", "trial", "is_correct", "n_trials", "n_correct"}
        choices = [c for c in table.columns if c not in hidden]
        raise InputError(f"cluster column {column!r} is not in the data; columns: {', '.join(map(str, choices[:20])) or 'none'}.")
    rows = table.loc[(table["task"] == task).to_numpy(), ["question_id", column]]
    if rows[column].isna().any():
        q = rows.loc[rows[column].isna(), "question_id"].iloc[0]
        raise InputError(f"cluster column {column!r} is empty on question {q!r} (task {task!r}); every question needs a "
                         "cluster, e.g. its own id when it stands alone.")
    per_question = rows.groupby(rows["question_id"].astype(str), sort=False)[column]
    spread = per_question.nunique()
    if (spread > 1).any():
        q = spread.index[spread.to_numpy() > 1][0]
        values = rows.loc[rows["question_id"].astype(str) == q, column].drop_duplicates().astype(str).tolist()[:2]
        raise InputError(f"cluster column {column!r} has several values on question {q!r} (task {task!r}: "
                         f"{', '.join(values)}); a cluster must hold whole questions: choose a column that is constant "
                         "per question.")
    return per_question.first().to_dict()


#: Columns that are never a question's cluster (identity, outcome and count columns).
_NOT_CLUSTERS = frozenset({"model", "task", "question_id", "trial", "is_correct", "n_trials", "n_correct", "source"})


def cluster_column_candidates(dataset, max_columns: int = 40) -> list[str]:
    """Columns that could group questions into clusters: constant within each question, with at least two values
    and fewer distinct values than questions (a passage, template or source-file column).

    Parameters
    ----------
    dataset : scorio_core.io.Dataset
    max_columns : int, default 40
        Look at most at this many non-identity columns (the first ones).

    Returns
    -------
    list of str
        In the data's column order; empty when none qualifies (then questions are treated as independent).
    """
    table = dataset.attempts if dataset.attempts is not None else dataset.counts
    columns = [c for c in table.columns if c not in _NOT_CLUSTERS][:max_columns]
    if not columns or table.empty:
        return []
    keys = [table["task"], table["question_id"].astype(str)]
    per_question = table[columns].groupby(keys, sort=False).nunique(dropna=False)
    n_questions = len(per_question)
    out = []
    for column in columns:
        if int(per_question[column].max()) > 1:
            continue  # varies within a question (a per-attempt signal)
        distinct = int(table[column].nunique(dropna=True))
        if 2 <= distinct < n_questions and not table[column].isna().any():
            out.append(str(column))
    return out

