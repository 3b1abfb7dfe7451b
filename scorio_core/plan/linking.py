r"""Goals across groups of models that share no question: the notice, the check and the linking batch.

When the models of a task fall into groups that share no question, directly or through other models
(:func:`scorio_core.leaderboard.linking.question_groups`), each group's score averages its own questions: the
posterior probability that a model of one group beats one of another compares the question sets as much as the
models, and the leaderboard and ``ranks`` call it unsupported (the ``disconnected_groups`` notice). A goal that
compares models of different groups (``top-1``, ``top-k``, ``ranking``, and ``pair`` across groups) therefore never
holds on such data; what answers it is running models of each group on the other groups' questions, which
:func:`linking_trials` proposes. The ``width`` goal is per model and unaffected.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

__all__ = ["GroupCheck", "group_check", "linking_trials"]


@dataclass(frozen=True, eq=False)
class GroupCheck:
    """How the goal's models sit in groups of models that share no question.

    Attributes
    ----------
    notice : dict or None
        The ``disconnected_groups`` notice (:func:`scorio_core.leaderboard.linking.disconnected_groups_notice`), or
        None when every model with an answer is linked.
    crosses : bool
        The goal compares models of different groups (then it cannot hold on these data).
    labels : ndarray of int, shape (L,)
        Group label of each model (-1: nothing answered).
    goal_models : ndarray of bool, shape (L,)
        The models the goal compares (every model, or the pair's two).
    n_groups : int
        Groups among the goal's models (1 or 0: nothing to link).
    """

    notice: dict | None
    crosses: bool
    labels: np.ndarray
    goal_models: np.ndarray
    n_groups: int = 1


def group_check(outcomes, goal, models, mu=None) -> GroupCheck:
    """Whether a goal compares models that share no question, directly or through other models.

    Parameters
    ----------
    outcomes : scorio_core.leaderboard.outcomes.Outcomes
        One task's outcomes (``models``, ``n_trials`` of shape (L, M)).
    goal : scorio_core.plan.goals.Goal
        The validated goal (``pair`` holds model indices).
    models : sequence of str, length L
    mu : array-like of float, shape (L,), optional
        The models' posterior means: each group of the notice lists its models best first, as the leaderboard's.

    Returns
    -------
    GroupCheck

    Examples
    --------
    >>> from scorio_core.plan.goals import Goal
    >>> o = SimpleNamespace(models=["a", "b", "c"], n_trials=np.array([[2, 0], [2, 0], [0, 2]]))
    >>> g = group_check(o, Goal("top-1"), ["a", "b", "c"])
    >>> g.crosses, g.notice["groups"], group_check(o, Goal("pair", pair=(0, 1)), ["a", "b", "c"]).crosses
    (True, [['a', 'b'], ['c']], False)
    """
    from scorio_core.items.linking import linked_groups
    from scorio_core.leaderboard.linking import disconnected_groups_notice

    answered = np.asarray(outcomes.n_trials) > 0
    labels = linked_groups(answered)
    goal_models = np.zeros(len(models), dtype=bool)
    if goal.name == "pair":
        goal_models[list(goal.pair)] = True
    elif goal.name != "width":
        goal_models[:] = True
    table = None
    if mu is not None:  # best first, as the leaderboard's rows
        import pandas as pd

        order = np.argsort(-np.nan_to_num(np.asarray(mu, dtype=float), nan=-np.inf), kind="stable")
        table = pd.DataFrame({"model": np.asarray(models, dtype=object)[order], "mu": np.asarray(mu, float)[order]})
    notice = disconnected_groups_notice(SimpleNamespace(models=list(models), rubric=outcomes), table)
    seen = np.unique(labels[goal_models & (labels >= 0)])
    return GroupCheck(notice, notice is not None and seen.size > 1, labels, goal_models, int(seen.size))


def linking_trials(check: GroupCheck, answered, batch: int, room=None) -> np.ndarray:
    """Trials that link the goal's groups: each goal model on the questions of the goal's other groups.

    Parameters
    ----------
    check : GroupCheck
        :func:`group_check`'s result with ``crosses`` true.
    answered : array-like of bool, shape (L, M)
        Whether model l answered question m so far.
    batch : int
        Trials to hand out (>= 1).
    room : array-like of float, shape (L, M), optional
        At most this many more trials per cell (None: no limit).

    Returns
    -------
    ndarray of int64, shape (L, M)
        Trials per cell, ``batch`` in all unless the cells' room runs out (then fewer, possibly 0). The questions
        of each group are taken in turn (the first question of every group, then the second, ...), and every goal
        model of the other groups runs each one, so the first trials already give the groups common questions;
        a larger batch repeats the same cells evenly.

    Examples
    --------
    >>> c = GroupCheck(None, True, np.array([0, 1]), np.array([True, True]))
    >>> linking_trials(c, np.array([[1, 1, 0, 0], [0, 0, 1, 1]], bool), 3).tolist()
    [[0, 0, 1, 0], [1, 1, 0, 0]]
    """
    answered = np.asarray(answered, dtype=bool)
    L, M = answered.shape
    labels = check.labels
    qgroup = np.where(answered, labels[:, None], -1).max(axis=0)  # each answered question lies in one group
    groups = np.unique(labels[check.goal_models & (labels >= 0)])
    cells = (check.goal_models & (labels >= 0))[:, None] & np.isin(qgroup, groups)[None, :] \
        & (qgroup[None, :] != labels[:, None]) & ~answered
    if room is not None:
        cells &= np.floor(np.asarray(room, dtype=float)) >= 1
    trials = np.zeros((L, M), dtype=np.int64)
    li, qi = np.nonzero(cells)
    if li.size == 0:
        return trials
    order = np.lexsort((np.arange(M), qgroup))  # questions by group, in data order within each group
    sorted_group = qgroup[order]
    rank = np.empty(M, dtype=np.int64)
    rank[order] = np.arange(M) - np.searchsorted(sorted_group, sorted_group, side="left")
    turn = np.lexsort((li, qi, qgroup[qi], rank[qi]))  # round-robin over the groups' questions, then models
    n = li.size
    per = np.full(n, batch // n, dtype=np.int64)
    per[turn[: batch % n]] += 1
    trials[li, qi] = per
    if room is not None:
        trials = np.minimum(trials, np.floor(np.asarray(room, dtype=float)).astype(np.int64))
    return trials
