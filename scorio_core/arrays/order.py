"""The canonical order of models and questions that every seeded Monte-Carlo draw is made in (stdlib and numpy only).

The pandas loader lists models and questions in order of first appearance, the DuckDB and Spark engines in natural
order; a seeded draw made per model (or per question) in the caller's order would give other numbers for the same
data and seed when a file's rows are shuffled or another engine counted them. The seeded paths (``ranks``, ``plan``
and its projection, ``methods``) therefore draw in the natural order of the names (:func:`natural_key`, what the
engines already give, so their results are unchanged) and map the results back to the caller's order.
"""

from __future__ import annotations

import dataclasses
import functools
import re

import numpy as np

__all__ = ["canonical_order", "canonical_outcomes", "natural_key", "natural_sorted"]


_DIGITS = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple:
    """Sort key that orders digit runs by value (``q2`` before ``q10``); distinct texts get distinct keys.

    Examples
    --------
    >>> sorted(["q10", "q2", "1", "b"], key=natural_key)
    ['1', 'b', 'q2', 'q10']
    """
    return tuple([(0, int(p), p) if p.isdecimal() else (1, 0, p) for p in _DIGITS.split(str(text)) if p])


@functools.lru_cache(maxsize=32)
def natural_sorted(names: tuple) -> tuple:
    """``names`` (a tuple of str) sorted by :func:`natural_key`, remembered: a tool's files of many models share one
    question list (AlpacaEval's 805 instructions, MMLU-Pro's 12,032 questions), sorted once instead of once per file.

    >>> natural_sorted(("q10", "q2", "a"))
    ('a', 'q2', 'q10')
    """
    return tuple(sorted(names, key=natural_key))


def _sortable(text) -> str:
    """A string whose code-point order is :func:`natural_key`'s order (so numpy sorts many names at once)."""
    out = []
    for p in _DIGITS.split(str(text)):
        if p.isdecimal():  # before any text part; by value (length of its digits, then the digits), then as written
            v = str(int(p))
            out.append(f"\x02{len(v):010d}{v}\x01{p}\x01")  # \x01 ends a part (numpy drops trailing NULs)
        elif p:
            out.append(f"\x03{p}\x01")
    return "".join(out)


def canonical_order(names, groups=None) -> np.ndarray:
    """The permutation that puts ``names`` in natural order (within ``groups``, themselves in natural order).

    Parameters
    ----------
    names : sequence of str, length n
    groups : sequence of str, length n, optional
        A first key, e.g. each question's task where tasks are pooled.

    Returns
    -------
    ndarray of intp, shape (n,)
        ``order`` with ``names[order]`` canonical (``sorted(names, key=natural_key)``); ``np.argsort(order)`` maps
        canonical positions back.

    Examples
    --------
    >>> canonical_order(["m10", "m2", "a"]).tolist()
    [2, 1, 0]
    >>> canonical_order(["q1", "q0", "q0"], groups=["b", "b", "a"]).tolist()
    [2, 1, 0]
    """
    keys = [np.array([_sortable(n) for n in names], dtype=str)]
    if groups is not None:
        keys.append(np.array([_sortable(g) for g in groups], dtype=str))
    return np.lexsort(keys).astype(np.intp)


def canonical_outcomes(outcomes):
    """``outcomes`` (:class:`scorio_core.leaderboard.outcomes.Outcomes`) with models and questions in canonical order.

    Models by :func:`canonical_order` of their names, questions by (task, question id) where tasks are pooled, else
    by question id; counts, recorded trials (``R``, whose trial axis is data and is kept) and question tasks follow.

    Returns
    -------
    (Outcomes, ndarray of intp, ndarray of intp)
        The reordered outcomes (``outcomes`` itself when already canonical), the models' order
        (``canonical.models[i] == outcomes.models[models[i]]``) and the questions' order, to reorder arrays aligned
        with ``outcomes`` (e.g. prior counts) the same way.
    """
    m = canonical_order(outcomes.models)
    q = canonical_order(outcomes.questions, outcomes.question_tasks)
    if np.array_equal(m, np.arange(m.size)) and np.array_equal(q, np.arange(q.size)):
        return outcomes, m, q
    tasks = outcomes.question_tasks
    return dataclasses.replace(
        outcomes, models=tuple(outcomes.models[i] for i in m), questions=tuple(outcomes.questions[j] for j in q),
        counts=np.asarray(outcomes.counts)[m][:, q], R=None if outcomes.R is None else np.asarray(outcomes.R)[m][:, q],
        question_tasks=None if tasks is None else tuple(tasks[j] for j in q)), m, q
