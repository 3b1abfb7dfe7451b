"""Which models an IRT fit compares by the data: those linked by shared questions (Embretson and Reise 2000, ch. 10).

:mod:`scorio_core.items.irt` re-exports :func:`linked_groups`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["group_numbers", "linked_groups", "shared_models_hint", "shared_subset", "SHARED_QUESTIONS"]

#: Questions :func:`shared_subset` aims for: enough for a ranking to say something, few enough to keep many models.
SHARED_QUESTIONS = 10


def linked_groups(answered) -> np.ndarray:
    """Models linked by shared questions: connected components of the model-question graph.

    Parameters
    ----------
    answered : array-like of bool, shape (L, M)
        Whether model l answered question m (trials > 0).

    Returns
    -------
    ndarray of int, shape (L,)
        A label per model, 0, 1, ... in order of first appearance; -1 for a model that answered nothing.
        Two models share a label when a chain of questions and models joins them (A and B answered q1,
        B and C answered q2: A, B, C are one group). Abilities of different groups are placed relative
        to each other by the priors alone (each group's questions centred on the same difficulty), not by
        the data (Embretson and Reise 2000, ch. 10: linking needs common items).

    Examples
    --------
    >>> linked_groups([[1, 0, 0], [1, 1, 0], [0, 0, 1], [0, 0, 0]]).tolist()
    [0, 0, 1, -1]
    """
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    mask = np.asarray(answered, dtype=bool)
    L, M = mask.shape
    seen = mask.any(axis=1)
    if seen.any() and mask[seen].all(axis=0).any():  # a question every answering model answered links them all
        return np.where(seen, 0, -1).astype(np.int64)
    rows, cols = np.nonzero(mask)
    graph = coo_matrix((np.ones(rows.size), (rows, L + cols)), shape=(L + M, L + M))
    _, labels = connected_components(graph, directed=False)
    labels = labels[:L]
    out = np.full(L, -1, dtype=np.int64)
    if seen.any():
        _, first, inverse = np.unique(labels[seen], return_index=True, return_inverse=True)
        order = np.argsort(np.argsort(first))  # relabel by first appearance
        out[seen] = order[inverse]
    return out


def group_numbers(labels) -> np.ndarray:
    """Linked-group labels as the leaderboard numbers its groups: 1 = the largest group, then by size.

    Parameters
    ----------
    labels : array-like of int, shape (L,)
        :func:`linked_groups` (0, 1, ... in order of first appearance; -1 for a model that answered nothing).

    Returns
    -------
    ndarray of int, shape (L,)
        1-based group numbers, largest group first (equal sizes: first appearance); -1 where ``labels`` is -1.
        The numbering of the ``group`` key of ``leaderboard``, ``questions`` and ``leaderboard --method
        irt_ability`` (:func:`scorio_core.leaderboard.linking.with_group_column` numbers the Bayes@N groups the
        same way; there, equal sizes go by the better model).

    Examples
    --------
    >>> group_numbers([0, 1, 1, -1, 2]).tolist()
    [2, 1, 1, -1, 3]
    """
    labels = np.asarray(labels, dtype=np.int64)
    seen = labels >= 0
    if not seen.any():
        return labels.copy()
    order = np.argsort(-np.bincount(labels[seen]), kind="stable")  # largest first; ties: first appearance
    number = np.empty_like(order)
    number[order] = np.arange(1, order.size + 1)
    return np.where(seen, number[np.where(seen, labels, 0)], -1)


def shared_subset(answered, min_questions: int = SHARED_QUESTIONS) -> tuple[np.ndarray, np.ndarray] | None:
    """A large set of models that all answered the same questions, for views that need every model on every question.

    Greedy over questions: start from every model that answered something, take the question the most of the
    remaining models answered, keep only those models, and repeat until ``min_questions`` questions are taken or the
    next would leave fewer than 2 models. Then every question all the kept models answered is theirs. A heuristic (the
    largest such set is a maximum-biclique problem, NP-hard): it finds a set, not always the largest one.

    Parameters
    ----------
    answered : array-like of bool, shape (L, M)
        Whether model l answered question m (trials > 0).
    min_questions : int, default :data:`SHARED_QUESTIONS`
        Questions to reach before the models stop being narrowed (fewer when fewer are shared by 2 or more models).

    Returns
    -------
    (models, questions) : tuple of ndarray of int, or None
        Indices of the kept models (2 or more, ascending) and of the questions they all answered (1 or more); None
        when no question was answered by 2 models. Cost: ``min_questions`` passes over the table, O(min_questions L M).

    Examples
    --------
    >>> models, questions = shared_subset([[1, 1, 0, 1], [1, 1, 1, 0], [0, 1, 1, 1], [1, 0, 0, 0]], min_questions=2)
    >>> models.tolist(), questions.tolist()
    ([0, 1], [0, 1])
    """
    a = np.asarray(answered, dtype=bool)
    keep = a.any(axis=1)
    taken = np.zeros(a.shape[1], dtype=bool)
    for _ in range(min(int(min_questions), a.shape[1])):
        counts = np.where(taken, -1, a[keep].sum(axis=0))
        q = int(np.argmax(counts)) if counts.size else 0
        if counts.size == 0 or counts[q] < 2:
            break
        taken[q] = True
        keep &= a[:, q]
    if not taken.any():
        return None
    return np.flatnonzero(keep), np.flatnonzero(a[keep].all(axis=0))


def shared_models_hint(models, answered) -> str:
    """``"; e.g. these 12 models share 10 questions: --models a b ..."``: :func:`shared_subset` as a copy-pasteable
    command-line choice (names shell-quoted), or "" when no question was answered by 2 models."""
    import shlex

    found = shared_subset(answered)
    if found is None:
        return ""
    names = " ".join(shlex.quote(str(models[i])) for i in found[0])
    return f"; e.g. these {found[0].size} models share {found[1].size} questions: --models {names}"
