"""Models x tasks: Bayes@N with its credible interval, avg@N, N, M, pass/fail and flaky questions.

Each task is scored by :func:`scorio_core.leaderboard.table.leaderboard` (metric ``bayes``), the
function behind the Leaderboard page and the ``leaderboard`` CLI, so a cell equals that
task's leaderboard row exactly. Only the loop over tasks is in Python; every task is
computed on its (L, M, C+1) count tensor at once.

References
----------
Hariri et al., "Don't Pass@k: A Bayesian Framework for Large Language Model Evaluation",
ICLR 2026, arXiv:2510.04265 (Bayes@N, section 2). Pass rule and flakiness after the
skill-eval scoring module (``SkillScore.passed``: overallScore >= threshold;
``StimulusScore.flaky``: 0 < passRate < 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from scorio_core.leaderboard.table import Categorization, leaderboard, outcomes_for, task_names
from scorio_core.leaderboard.task_outcomes import question_clusters
from scorio_core.leaderboard.checks import question_set_notes
from scorio_core.leaderboard.order import board_order
from scorio_core.leaderboard.trial_order import trial_position_note
from scorio_core.errors import InputError
from scorio_core.uncertainty import DEFAULT_PRIOR, DEFAULT_SCOPE, check_prior, check_scope, interval_label

__all__ = ["CELL_COLUMNS", "FLAKY_RULE", "PASS_RULE", "PASS_SCORES", "TaskMatrix", "UNDECIDED_RULE", "task_matrix"]

#: Column order of :attr:`TaskMatrix.cells` (also the JSON keys of the ``tasks`` CLI, plus sigma/interval/interval_kind).
CELL_COLUMNS = ("model", "task", "bayes", "sigma", "lo", "hi", "avg", "n", "n_max", "m", "passed", "undecided",
                "flaky", "prior", "scope", "interval", "interval_kind")

#: Scores the pass rule can use: avg@N (skill-eval's overallScore) or the Bayes@N posterior mean.
PASS_SCORES = ("avg", "bayes")

#: The pass rule in words (shown by the page and the CLI).
PASS_RULE = ("passed = score >= threshold (skill-eval SkillScore.passed: overallScore >= threshold); the score is "
             "avg@N, the mean over questions of each question's mean score over its trials, which is skill-eval's "
             "overallScore (mean of stimulus scores averaged across trials); no score (no answered question) = no verdict")

#: When a verdict is undecided, in words (the page and the CLI).
UNDECIDED_RULE = ("undecided = the verdict's credible interval (lo, hi) holds the threshold: the rule still gives pass or "
                  "fail, but more trials or questions can flip it")

#: The flakiness rule in words.
FLAKY_RULE = ("a question is flaky for a model when its attempts disagree: both correct and incorrect ones "
              "(skill-eval StimulusScore.flaky: 0 < pass rate < 1); without binary correctness, attempts in more "
              "than one rubric category")


@dataclass(frozen=True, eq=False)
class TaskMatrix:
    """Per (model, task) results of :func:`task_matrix`.

    Attributes
    ----------
    cells : DataFrame
        One row per (model, task) pair with data, columns :data:`CELL_COLUMNS`: ``bayes``
        (posterior mean), ``sigma`` (posterior sd), ``lo``/``hi`` (central credible
        interval), ``avg`` (avg@N), ``n`` (fewest trials of an answered question), ``n_max``,
        ``m`` (answered questions), ``passed`` (boolean, NA without threshold or score),
        ``undecided`` (boolean, NA where ``passed`` is: the interval holds the threshold, :data:`UNDECIDED_RULE`),
        ``flaky`` (flaky questions), ``prior``/``scope``/``interval`` (what the interval covers), ``interval_kind``
        (``credible``, or ``exact-binomial`` where the empirical-Bayes prior is not identified, as the leaderboard's).
        Rows in task order, then each task's leaderboard order (Bayes@N descending, exact ties by model name,
        unscored last: :func:`scorio_core.leaderboard.order.board_order`).
    tasks : tuple of str
        Tasks in order of appearance.
    models : tuple of str
        Models in order of first appearance over all tasks.
    confidence : float
    prior, scope : str
    threshold : float or None
    pass_on : {"avg", "bayes"}
    cluster_column : str or None
        The column whose clusters made the intervals cluster-robust (questions-sampled only).
    score_ranges : tuple of (float, float)
        Per task (:attr:`tasks` order), the lowest and highest score its rubric allows
        (smallest and largest category weight; (0, 1) for binary correctness). Empty: (0, 1).
    notes : tuple of dict
        Per task whose trials are not exchangeable repeats, the leaderboard's ``trial_position_effect`` notice with
        its ``task`` (:func:`scorio_core.leaderboard.trial_order.trial_position_note`; none for count data); per task
        whose models answered different questions, the leaderboard's ``unequal_question_sets`` notice and, when they
        fall into groups sharing no question, its ``disconnected_groups`` notice, each with its ``task``.
    """

    cells: pd.DataFrame
    tasks: tuple[str, ...]
    models: tuple[str, ...]
    confidence: float
    prior: str
    scope: str
    threshold: float | None
    pass_on: str = "avg"
    cluster_column: str | None = None
    score_ranges: tuple[tuple[float, float], ...] = ()
    notes: tuple[dict, ...] = ()

    def pivot(self, column: str) -> pd.DataFrame:
        """``column`` as a models x tasks table (rows :attr:`models`, columns :attr:`tasks`; NaN = no data)."""
        if column not in self.cells.columns:
            raise ValueError(f"column must be one of {', '.join(CELL_COLUMNS)}; got {column!r}.")
        table = self.cells.pivot(index="model", columns="task", values=column)
        return table.reindex(index=list(self.models), columns=list(self.tasks))

    @property
    def interval(self) -> str:
        """What every interval covers (confidence, scope, prior and question clusters), in words.

        The cells' own labels (``interval`` column, as the leaderboard's rows), each with the cells it applies to
        when they differ ("of a (logic) and b (logic): ..."; :func:`scorio_core.report.tables.interval_groups`): a
        model whose empirical-Bayes prior is not identified (N = 1) has an exact binomial interval, not a credible
        interval under a fitted Dirichlet; the generic label where the cells carry none.
        """
        from scorio_core.report.tables import interval_groups

        groups = interval_groups(self.cells.rename(columns={"bayes": "mu"})) if "interval" in self.cells else []
        label = ("; ".join(lab if len(groups) == 1 else f"of {names}: {lab}" for names, lab in groups) if groups
                 else interval_label(self.prior, self.scope, self.confidence))
        if self.cluster_column and self.scope != "questions-fixed":
            label += f"; questions in clusters of {self.cluster_column!r} (cluster-robust)"
        return label


def _check(confidence, threshold, pass_on) -> float | None:
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float, np.floating)):
        raise TypeError(f"confidence must be a number; got {type(confidence).__name__}.")
    if not 0.0 < float(confidence) < 1.0:
        raise ValueError(f"confidence must satisfy 0 < confidence < 1; got confidence={confidence!r}.")
    if pass_on not in PASS_SCORES:
        raise ValueError(f"pass_on must be one of {', '.join(PASS_SCORES)}; got {pass_on!r}.")
    if threshold is None:
        return None
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float, np.integer, np.floating)):
        raise TypeError(f"threshold must be a number or None; got {type(threshold).__name__}.")
    if not np.isfinite(float(threshold)):
        raise ValueError(f"threshold must be finite; got threshold={threshold!r}.")
    return float(threshold)


def _flaky_counts(task_outcomes) -> tuple[tuple[str, ...], np.ndarray]:
    """Flaky questions per model of one task, shape (L,) (vectorised over models and questions)."""
    source = task_outcomes.binary if task_outcomes.binary is not None else task_outcomes.rubric
    counts = source.counts  # (L, M, C+1)
    if task_outcomes.binary is not None:
        correct, total = counts[..., 1], counts.sum(axis=2)
        flaky = (correct > 0) & (correct < total)
    else:
        flaky = (counts > 0).sum(axis=2) >= 2
    return source.models, flaky.sum(axis=1).astype(np.int64)


def _categorization(categorization, task: str):
    if categorization is None or isinstance(categorization, Categorization):
        return categorization
    if isinstance(categorization, Mapping):
        if task not in categorization:
            raise InputError(f"the per-task rubric has no categorization for task {task!r}.")
        return categorization[task]
    raise TypeError("categorization must be a Categorization, a mapping of task to Categorization, or None; "
                    f"got {type(categorization).__name__}.")


def task_matrix(
    dataset,
    *,
    categorization: Categorization | Mapping[str, Categorization] | None = None,
    prior: str = DEFAULT_PRIOR,
    scope: str = DEFAULT_SCOPE,
    confidence: float = 0.95,
    threshold: float | None = None,
    pass_on: str = "avg",
    question_set: str = "own",
    tasks=None,
    cluster_column: str | None = None,
    prior_counts=None,
) -> TaskMatrix:
    """Score every model on every task: Bayes@N with its credible interval and companions.

    Parameters
    ----------
    dataset : scorio_core.io.Dataset
        Loaded data (attempt or count table) with one or more tasks.
    categorization : Categorization or mapping of str to Categorization, optional
        The rubric as the Leaderboard uses it: one categorization aligned with every
        attempt row (used for every task), or one per task
        (:func:`scorio_core.tasks.per_task_categorization`, thresholds per task, which is
        what the Leaderboard page uses with that task chosen). Default: binary correctness.
    prior : {"empirical-bayes", "uniform", "jeffreys"}, default "empirical-bayes"
        Per-question prior of Bayes@N (:mod:`scorio_core.uncertainty`).
    scope : {"questions-fixed", "questions-sampled"}, default "questions-fixed"
        What the interval covers.
    confidence : float, default 0.95
        Credibility of the two-sided central intervals, in (0, 1).
    threshold : float, optional
        Pass threshold in score units; ``None`` leaves ``passed`` NA.
    pass_on : {"avg", "bayes"}, default "avg"
        Score the pass rule compares: avg@N (skill-eval's overallScore) or the Bayes@N mean.
    question_set : {"own", "common", "missing-incorrect"}, default "own"
        As :func:`scorio_core.leaderboard.table.leaderboard`.
    tasks : sequence of str, optional
        Tasks to score (default: all, in order of appearance).
    cluster_column : str, optional
        A column grouping questions (constant per question): under ``scope="questions-sampled"``
        each task's intervals are cluster-robust over its clusters
        (:func:`scorio_core.leaderboard.task_outcomes.question_clusters`; Miller 2024, arXiv:2411.00640).
        Ignored under ``questions-fixed``.
    prior_counts : callable, optional
        ``prior_counts(task, outcomes, categorization)``: the task's prior outcomes R0 as ``prior_counts`` (L, M, C+1)
        of :func:`scorio_core.leaderboard.table.leaderboard`, or None (paper Algorithm 1; the ``tasks`` CLI's
        ``--prior-outcomes``). Default: no R0.

    Returns
    -------
    TaskMatrix
        ``cells`` has one row per (model, task) pair present in the data (L_t rows per task),
        columns :data:`CELL_COLUMNS`; ``bayes``, ``lo``, ``hi`` equal ``mu``, ``lo``, ``hi`` of
        ``leaderboard(outcomes_for(dataset, task, categorization_t), metric="bayes", ...)``,
        ``avg`` its ``avg``, ``n``/``n_max``/``m`` its ``n_trials``/``n_trials_max``/``n_questions``.

    Raises
    ------
    TypeError
        ``confidence`` or ``threshold`` not a number, ``categorization`` of a wrong type.
    ValueError
        ``confidence`` outside (0, 1), non-finite threshold, unknown ``pass_on``, prior or scope.
    InputError
        Unknown task, a rubric on count-only data, a task without correctness, a
        ``cluster_column`` not in the data or not constant within a question.

    Notes
    -----
    ``passed = score >= threshold`` (:data:`PASS_RULE`), ``undecided`` where ``lo <= threshold <= hi``
    (:data:`UNDECIDED_RULE`); a question is flaky for a model when
    ``0 < c < n`` (correct of trials; :data:`FLAKY_RULE`).

    Examples
    --------
    >>> from scorio_core import io  # doctest: +SKIP
    >>> tm = task_matrix(io.load(["dump.csv"]), prior="uniform", threshold=0.5)  # doctest: +SKIP
    >>> tm.pivot("bayes")  # models x tasks  # doctest: +SKIP
    """
    threshold = _check(confidence, threshold, pass_on)
    check_prior(prior)
    check_scope(scope)
    names = task_names(dataset) if tasks is None else [str(t) for t in tasks]
    frames, models, ranges, notes = [], {}, [], []
    for task in names:
        outcomes = outcomes_for(dataset, task, _categorization(categorization, task))
        weights = np.asarray(outcomes.rubric.weights, dtype=float)
        ranges.append((float(weights.min()), float(weights.max())))
        grouped = {}
        if cluster_column and scope != "questions-fixed":
            grouped = {"clusters": question_clusters(dataset, task, cluster_column), "cluster_column": cluster_column}
        counts0 = None if prior_counts is None else prior_counts(task, outcomes, _categorization(categorization, task))
        board = leaderboard(outcomes, metric="bayes", confidence=confidence, prior=prior, scope=scope,
                            question_set=question_set, prior_counts=counts0, **grouped)
        order_note = trial_position_note(outcomes, task=task)  # the intervals assume exchangeable trials
        notes += [order_note] if order_note else []
        notes += question_set_notes(outcomes, question_set, task=task, table=board)
        flaky_models, flaky = _flaky_counts(outcomes)
        flaky_of = dict(zip(flaky_models, flaky))
        frame = pd.DataFrame({
            "model": board["model"].astype(str).to_numpy(), "task": task,
            "bayes": board["mu"].to_numpy(float), "sigma": board["sigma"].to_numpy(float),
            "lo": board["lo"].to_numpy(float), "hi": board["hi"].to_numpy(float), "avg": board["avg"].to_numpy(float),
            "n": board["n_trials"].to_numpy(np.int64), "n_max": board["n_trials_max"].to_numpy(np.int64),
            "m": board["n_questions"].to_numpy(np.int64),
            "flaky": np.array([int(flaky_of.get(m, 0)) for m in board["model"]], dtype=np.int64),
            "prior": board["prior"].to_numpy(object), "scope": board["scope"].to_numpy(object),
            "interval": board["interval"].to_numpy(object), "interval_kind": board["interval_kind"].to_numpy(object),
        })
        listed = set(frame["model"])
        models.update(dict.fromkeys(m for m in map(str, outcomes.models) if m in listed))  # first appearance in the data
        frame = board_order(frame, "bayes")  # the task's leaderboard order: exact ties by name, as that leaderboard
        frames.append(frame)
    cells = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=list(CELL_COLUMNS))
    score = cells["avg" if pass_on == "avg" else "bayes"].to_numpy(float)
    passed = pd.array([pd.NA] * len(cells), dtype="boolean")
    if threshold is not None:
        ok = np.isfinite(score)
        passed[ok] = score[ok] >= threshold
    undecided = pd.array([pd.NA] * len(cells), dtype="boolean")  # the verdict can flip: its interval holds T
    known = ~np.asarray(passed.isna(), dtype=bool)
    if known.any():
        undecided[known] = ((cells["lo"].to_numpy(float) <= threshold) & (threshold <= cells["hi"].to_numpy(float)))[known]
    cells["passed"] = passed
    cells["undecided"] = undecided
    cells = cells[list(CELL_COLUMNS)].reset_index(drop=True)
    return TaskMatrix(cells, tuple(names), tuple(models), float(confidence), prior, scope, threshold, pass_on,
                      cluster_column if cluster_column and scope != "questions-fixed" else None, tuple(ranges),
                      tuple(notes))

