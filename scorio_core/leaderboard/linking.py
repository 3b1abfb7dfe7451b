"""Models that share no question: groups of a leaderboard that its scores cannot order across.

Two models are *linked* when they answered a common question, or a chain of models and questions joins them
(A and B answered q1, B and C answered q2). When the scored models of a task fall into several groups that are not
linked (e.g. half the models ran one half of the benchmark, the other half the other), each group's Bayes@N (or any
mean over a model's own questions) averages other questions: an order across groups compares the question sets as
much as the models. :func:`disconnected_groups_notice` is the ``disconnected_groups`` notice of
:func:`scorio_core.leaderboard.checks.leaderboard_notices`; :func:`question_groups` the groups themselves (the
verdict's ``groups``; :func:`with_group_column` adds each model's to a table), :func:`cross_group_note` a pair's
sentence (Compare). :func:`missing_tasks_notice` names the
models of a pooled board (every task) that ran only some of its tasks.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd

from scorio_core.choices import QUESTION_SETS

__all__ = ["common_mask", "common_question_count", "cross_group_note", "disconnected_groups_notice", "group_of",
           "grouped_order", "mask_cross_group_pairs", "missing_tasks_notice", "question_groups", "rank_within_groups", "scored_group_labels",
           "with_group_column"]

#: Models named per group in the notice's sentence (the rest are counted; ``groups`` lists every one).
NAMED_PER_GROUP = 4


def question_groups(task_outcomes, table=None, question_set: str = "own") -> list[list[str]]:
    """Scored models grouped by shared questions in the leaderboard's question set, largest group first.

    Parameters
    ----------
    task_outcomes : TaskOutcomes
        The task's outcomes (before the question set is applied).
    table : DataFrame, optional
        The leaderboard (``model``, ``mu``): only its scored rows (non-NaN ``mu``) count, in its order (best first),
        so each group lists its models best first. Without it every model with an answered question counts, in the
        outcomes' order.
    question_set : {"own", "common", "missing-incorrect"}
        As :func:`scorio_core.leaderboard.checks.apply_question_set`: ``common`` keeps the questions every model
        answered (none: no groups, that set is unavailable), ``missing-incorrect`` puts every model on every question
        some model answered; both give one group.

    Returns
    -------
    list of list of str
        The connected components of the bipartite model-question graph (edges: a model answered a question; scipy's
        ``connected_components`` via :func:`scorio_core.items.irt.linked_groups`), restricted to the scored models.
        Largest first (ties: the group of the better model first). One group when every model is linked; empty when
        no model is scored.

    Raises
    ------
    ValueError
        Unknown ``question_set``.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> o = NS(models=["a", "b", "c"], rubric=NS(n_trials=np.array([[2, 0], [2, 0], [0, 2]])))
    >>> question_groups(o)
    [['a', 'b'], ['c']]
    """
    from scorio_core.items.irt import linked_groups

    if question_set not in QUESTION_SETS:
        raise ValueError(f"question_set must be one of {', '.join(QUESTION_SETS)}; got {question_set!r}.")
    answered = np.asarray(task_outcomes.rubric.n_trials) > 0
    if question_set == "common":  # the questions every model answered (as apply_question_set keeps them)
        keep = common_mask(task_outcomes)
        if not keep.any():  # the set is unavailable: no leaderboard to qualify
            return []
        answered = answered[:, keep]
    elif question_set == "missing-incorrect":  # a missing cell counts as tried and wrong, where any model tried it
        answered = np.broadcast_to(answered.any(axis=0), answered.shape)
    models = [str(m) for m in task_outcomes.models]
    if table is not None and "model" in table.columns:
        scored = table.loc[table["mu"].notna(), "model"].astype(str) if "mu" in table.columns else table["model"]
        index = {m: i for i, m in enumerate(models)}
        rows = np.array([index[m] for m in dict.fromkeys(scored) if m in index], dtype=np.int64)
    else:
        rows = np.arange(len(models), dtype=np.int64)
    if rows.size == 0:
        return []
    labels = linked_groups(answered[rows])  # -1: nothing answered (not scored on any question)
    keep = labels >= 0
    if not keep.any():
        return []
    names = np.asarray(models, dtype=object)[rows[keep]]
    labels = labels[keep]
    sizes = np.bincount(labels)
    order = np.argsort(-sizes, kind="stable")  # labels follow first appearance: ties keep the better model's group first
    return [names[labels == g].tolist() for g in order]


def scored_group_labels(n_trials) -> np.ndarray | None:
    """Group label of each model (rows of ``n_trials``) where they fall into groups that share no question, or None.

    Parameters
    ----------
    n_trials : array-like of int, shape (L, M)
        Trials per model and question of the models to rank (the leaderboard's scored rows, after its question set).

    Returns
    -------
    ndarray of int64, shape (L,), or None
        :func:`scorio_core.items.linking.linked_groups` labels (0, 1, ...) with two or more groups; None with one.

    >>> scored_group_labels([[2, 0], [2, 0], [0, 2]]).tolist()
    [0, 0, 1]
    >>> scored_group_labels([[2, 1], [0, 2]]) is None
    True
    """
    from scorio_core.items.linking import linked_groups

    labels = linked_groups(np.asarray(n_trials) > 0)
    return labels if np.unique(labels[labels >= 0]).size > 1 else None


def rank_within_groups(rank, labels, *columns) -> np.ndarray:
    """``rank(*columns)`` applied to each group of ``labels`` alone: every group's models ranked among themselves.

    Parameters
    ----------
    rank : callable
        A ranking of aligned columns (e.g. :func:`scorio_core.eval.ranking.near_tie_ranks` of the means, or
        :func:`scorio_core.ranking.rank.ranks_with_ties` of means and sds) returning one rank per row.
    labels : array-like of int, shape (L,), or None
        Each model's group (:func:`scored_group_labels`); None: one group (``rank(*columns)`` itself).
    *columns : array-like, first axis of length L
        The ranking's inputs, row i of each for model i.

    Returns
    -------
    ndarray of float, shape (L,)
        Each model's rank within its group (1 = its group's best; a model alone in its group is 1). The loop runs over
        groups of two or more models only (usually two or three; at most L / 2).

    >>> rank_within_groups(lambda x: (-x).argsort().argsort() + 1.0, [0, 1, 0, 1], np.array([0.9, 0.2, 0.5, 0.7]))
    array([1., 2., 2., 1.])
    """
    if labels is None:
        return np.asarray(rank(*columns), dtype=float)
    lab = np.asarray(labels)
    out = np.ones(lab.shape[0], dtype=float)
    values, sizes = np.unique(lab, return_counts=True)
    for g in values[sizes > 1]:
        idx = np.flatnonzero(lab == g)
        out[idx] = rank(*(np.asarray(c)[idx] for c in columns))
    return out


def mask_cross_group_pairs(matrix, models, groups) -> np.ndarray:
    """``matrix`` (models x models, e.g. P(row > column)) with NaN where the two models are in different groups.

    Parameters
    ----------
    matrix : array-like of float, shape (L, L)
    models : sequence of str, length L
        The rows' (and columns') models.
    groups : list of list of str or None
        :func:`question_groups` (the ``disconnected_groups`` notice's ``groups``); None or one group: unchanged.

    Returns
    -------
    ndarray of float, shape (L, L)
        A copy; a model in no group is compared with none.

    >>> mask_cross_group_pairs([[0.5, 0.9, 0.8], [0.1, 0.5, 0.3], [0.2, 0.7, 0.5]], ["a", "b", "c"],
    ...                        [["a", "c"], ["b"]]).tolist()
    [[0.5, nan, 0.8], [nan, 0.5, nan], [0.2, nan, 0.5]]
    """
    out = np.array(matrix, dtype=float)
    if not groups or len(groups) < 2:
        return out
    where = group_of(groups)
    lab = np.array([where.get(str(m), -1 - i) for i, m in enumerate(models)])  # no group: a label of its own
    apart = lab[:, None] != lab[None, :]
    out[apart] = np.nan
    return out


def grouped_order(order, labels) -> tuple[list[str], list[int]]:
    """Models in ``order`` (e.g. the leaderboard's, best first) grouped by ``labels`` as :func:`question_groups`
    numbers groups: largest first, ties by the group of the earlier model; each group keeps ``order``.

    Parameters
    ----------
    order : sequence of str
        Model names in display order.
    labels : mapping of str to int
        Each model's group label (any integers: only the partition counts), e.g. the rank distribution's.

    Returns
    -------
    models : list of str
        ``order`` regrouped.
    group : list of int
        The group number (1 = the first) of each of ``models``.

    >>> grouped_order(["a", "b", "c", "d"], {"a": 7, "b": 3, "c": 3, "d": 7})
    (['a', 'd', 'b', 'c'], [1, 1, 2, 2])
    >>> grouped_order(["a", "b", "c"], {"a": 0, "b": 5, "c": 5})
    (['b', 'c', 'a'], [1, 1, 2])
    """
    names = [str(m) for m in order]
    lab = [labels[m] for m in names]
    first: dict = {}
    for i, g in enumerate(lab):
        first.setdefault(g, i)
    size = Counter(lab)
    number = {g: i + 1 for i, g in enumerate(sorted(first, key=lambda g: (-size[g], first[g])))}
    ranked = sorted(range(len(names)), key=lambda i: (number[lab[i]], i))
    return [names[i] for i in ranked], [number[lab[i]] for i in ranked]


def group_of(groups) -> dict[str, int]:
    """Model -> its group's number (1 = the first, largest group) in ``groups`` (:func:`question_groups`)."""
    return {str(m): i + 1 for i, members in enumerate(groups) for m in members}


def with_group_column(table: pd.DataFrame, groups) -> pd.DataFrame:
    """``table`` with a ``group`` column when its models fall into two or more groups; ``table`` itself otherwise.

    Parameters
    ----------
    table : DataFrame
        A leaderboard (``model`` column).
    groups : list of list of str
        :func:`question_groups` (the ``disconnected_groups`` notice's ``groups``), largest first.

    Returns
    -------
    DataFrame
        With two or more groups, a copy with ``group``: each model's 1-based group number in ``groups`` (nullable
        integer; missing for a model in no group, e.g. not scored), so a row says which models its ranks compare
        with (the Leaderboard page's Group column). With fewer, ``table`` unchanged (no column).

    Examples
    --------
    >>> with_group_column(pd.DataFrame({"model": ["a", "b", "c"]}), [["a", "b"], ["c"]])["group"].tolist()
    [1, 1, 2]
    """
    if len(groups) < 2:
        return table
    member = group_of(groups)
    return table.assign(group=pd.array([member.get(str(m)) for m in table["model"]], dtype="Int64"))


def _listed(members: list[str], limit: int = NAMED_PER_GROUP) -> str:
    shown = ", ".join(members[:limit])
    return shown + (f" and {len(members) - limit:,} more" if len(members) > limit else "")


def disconnected_groups_notice(task_outcomes, table=None, question_set: str = "own", *,
                               metric_label: str = "Bayes@N") -> dict | None:
    """The ``disconnected_groups`` notice: the scored models fall into groups that share no question.

    Parameters
    ----------
    task_outcomes, table, question_set
        As :func:`question_groups`.
    metric_label : str, default "Bayes@N"
        The leaderboard's metric, named in the sentence.

    Returns
    -------
    dict or None
        ``{"code": "disconnected_groups", "finding", "message", "groups", "question_set"}`` with ``groups`` the lists
        of model names, largest first (:func:`question_groups`); ``finding`` and ``message`` are the same sentence
        (it says what would answer it, which a reader of an export needs too). None with fewer than two groups.

    Notes
    -----
    Source: linking needs common items (Embretson & Reise 2000, ch. 10); a mean over each model's own questions has
    no common scale across unlinked groups either.
    """
    groups = question_groups(task_outcomes, table, question_set)
    if len(groups) < 2:
        return None
    listed = "; ".join(f"group {i + 1} ({len(g):,} model{'s' if len(g) != 1 else ''}: {_listed(g)})"
                       for i, g in enumerate(groups[:NAMED_PER_GROUP]))
    if len(groups) > NAMED_PER_GROUP:
        listed += f"; and {len(groups) - NAMED_PER_GROUP:,} more groups"
    finding = (f"The models fall into {len(groups):,} groups that share no question, directly or through other models: "
               f"{listed}. The {metric_label} of models in different groups averages different questions, so their "
               "order compares the question sets as much as the models: ranks and probabilities across groups are not "
               "supported, so each model is ranked within its group (every group has its own rank 1). Running the "
               "groups on common questions (some questions answered by models of every group) would compare them.")
    return {"code": "disconnected_groups", "finding": finding, "message": finding,
            "groups": [list(g) for g in groups], "question_set": question_set}


def cross_group_note(groups, model_a: str, model_b: str, labels=None) -> str | None:
    """The sentence for a pair of models in different groups of :func:`question_groups` (None otherwise).

    ``labels`` maps model names to the names to show (e.g. short ones); the groups are looked up by model name.

    >>> cross_group_note([["a", "b"], ["c"]], "a", "c")[:59]
    'a and c are in different groups of models that share no que'
    """
    where = group_of(groups)
    ga, gb = where.get(str(model_a)), where.get(str(model_b))
    if ga is None or gb is None or ga == gb:
        return None
    name_a, name_b = ((labels or {}).get(m, m) for m in (model_a, model_b))
    return (f"{name_a} and {name_b} are in different groups of models that share no question, directly or through "
            f"other models (group {ga} and group {gb} of {len(groups)}): each score averages its own group's questions, "
            "so the difference below compares the question sets as much as the models. Run both on common questions "
            "to compare them.")


def common_mask(task_outcomes) -> np.ndarray:
    """Questions every model of the task answered (rubric cells), shape (M,) of bool.

    A model with no answered question left (e.g. every question it answered excluded as flagged) is not scored under
    any question set and does not empty the common set of the others.
    """
    answered = np.asarray(task_outcomes.rubric.n_trials) > 0
    active = answered.any(axis=1)
    return np.all(answered[active], axis=0) if active.any() else np.zeros(answered.shape[1], dtype=bool)


def common_question_count(task_outcomes) -> int:
    """Questions answered by every model with an answered question (the ``common`` question set's size).

    Returns
    -------
    int
        0 when no question is common: the ``common`` question set is then unavailable
        (:func:`scorio_core.leaderboard.checks.apply_question_set` raises :class:`~scorio_core.errors.InputError`).
    """
    return int(common_mask(task_outcomes).sum())


def missing_tasks_notice(task_outcomes, answered: np.ndarray | None = None, *, limit: int = 5) -> dict | None:
    """Models that ran only some of the tasks pooled into one board (``ALL_TASKS``).

    A pooled Bayes@N averages the questions a model answered: a model that ran one of two tasks is scored on that task
    alone and ranked beside models scored on both, so its place compares tasks as much as models.

    Parameters
    ----------
    task_outcomes : TaskOutcomes or Outcomes
        Pooled outcomes (``question_tasks`` set); for one task the notice is None.
    answered : ndarray of bool, shape (L, M), optional
        Cells with at least one trial (default: from ``task_outcomes``).
    limit : int, default 5
        Models named in the sentence; the rest are counted (``models`` has all).

    Returns
    -------
    dict or None
        ``{"code": "missing_tasks", "finding", "message", "models": {model: [task, ...]}}``, or None when every
        scored model answered some question of every task.

    Examples
    --------
    >>> from scorio_core.leaderboard.outcomes import Outcomes
    >>> counts = np.zeros((2, 3, 2), np.int64); counts[0, :, 1] = 1; counts[1, :2, 1] = 1
    >>> o = Outcomes("all tasks", ("a", "b"), ("x/1", "x/2", "y/1"), np.array([0.0, 1.0]), ("wrong", "correct"),
    ...              counts, question_tasks=("x", "x", "y"))
    >>> missing_tasks_notice(o)["models"]
    {'b': ['y']}
    """
    outcomes = getattr(task_outcomes, "rubric", task_outcomes)  # a TaskOutcomes or its Outcomes
    tasks = outcomes.question_tasks
    if tasks is None or len(set(tasks)) < 2:
        return None
    if answered is None:
        answered = outcomes.n_trials > 0
    codes, names = pd.factorize(pd.Series(tasks, dtype=object), sort=False)
    ran = (answered.astype(np.int64) @ np.eye(len(names), dtype=np.int64)[codes]) > 0  # (L, T): any answer per task
    partial = np.flatnonzero(ran.any(axis=1) & ~ran.all(axis=1))
    if not len(partial):
        return None
    models = {str(outcomes.models[i]): [str(names[t]) for t in np.flatnonzero(~ran[i])] for i in partial}
    named = [f"{m} (no {', '.join(t)})" for m, t in list(models.items())[:limit]]
    more = f" and {len(models) - limit:,} more" if len(models) > limit else ""
    n_all = int(ran.any(axis=1).sum())
    finding = (f"{len(models):,} of the {n_all:,} models did not run every task pooled here: {', '.join(named)}{more}. "
               "A pooled score averages the questions a model answered, so theirs covers only the tasks they ran and "
               "their place beside models scored on every task compares the tasks as much as the models.")
    return {"code": "missing_tasks", "finding": finding, "models": models,
            "message": finding + " Rank one task at a time (--task), or see every task side by side on the Tasks page "
                                 "(CLI: tasks)."}
