r"""Cluster-robust standard errors for the questions-sampled scope: questions that come in groups.

When questions share a passage, a template or a source file, they are not independent draws
from the pool: a hard passage makes all its questions hard. The questions-sampled standard
error over ``m`` independent questions, ``sd(s) / sqrt(m)``, is then too small. The
cluster-robust (sandwich) standard error of a mean groups the deviations by cluster first
(Miller 2024, "Adding Error Bars to Evals", arXiv:2411.00640, section 2.2; Inspect's
``stderr(cluster=...)`` computes the same):

.. math::

    SE^2 = \frac{C}{C - 1} \, \frac{1}{m^2} \sum_{c=1}^{C} \Big( \sum_{i \in c} (s_i - \bar s) \Big)^2

with ``C`` clusters among the ``m`` answered questions. Each cluster counts once, so with ``C``
much smaller than ``m`` the interval is wider; with one question per cluster it is the usual
``sd / sqrt(m)`` (exactly, ``C/(C-1) = m/(m-1)``). Fewer than two clusters cannot estimate it
(NaN; the caller falls back to the questions-fixed interval and says so). Paired differences use
the same formula on the per-question differences. Coverage is measured by simulation in
``tests/core/test_clustered.py`` (docs/metrics.md, "Clustered questions").
"""

from __future__ import annotations

import numpy as np

from scorio_core.errors import InputError

__all__ = ["cluster_codes", "codes_for_questions", "clustered_se", "clustered_pair_se", "clustered_pair_se_matrix"]


def cluster_codes(values, *, column: str = "cluster") -> np.ndarray:
    """Integer codes ``0..C-1`` of per-question cluster labels (first appearance order).

    Parameters
    ----------
    values : array-like, shape (M,)
        The cluster label of each question (any hashable; missing labels are an error).
    column : str
        The data column the labels come from, for the error message.

    Returns
    -------
    ndarray of int64, shape (M,)

    Raises
    ------
    InputError
        A question without a cluster label.
    """
    import pandas as pd

    labels = pd.Series(values, dtype=object)
    missing = labels.isna().to_numpy()
    if missing.any():
        raise InputError(f"cluster column {column!r} is empty for {int(missing.sum()):,} of {len(labels):,} questions "
                         f"(first at position {int(np.argmax(missing))}); every question needs a cluster, e.g. its own "
                         "id when it stands alone.")
    codes, _ = pd.factorize(labels.astype(str), sort=False)
    return codes.astype(np.int64)


def codes_for_questions(questions, clusters, *, column: str = "cluster") -> np.ndarray | None:
    """Cluster codes of ``questions`` from a question id -> cluster label mapping; None without a mapping.

    Parameters
    ----------
    questions : iterable
        Question ids in the order of the scores they will cluster.
    clusters : mapping of str to object or None
        From :func:`scorio_core.leaderboard.task_outcomes.question_clusters`.
    column : str
        The cluster column's name, for the error message.

    Raises
    ------
    InputError
        A question without a cluster (:func:`cluster_codes`).
    """
    if clusters is None:
        return None
    return cluster_codes([clusters.get(str(q)) for q in questions], column=column)


def _onehot(clusters: np.ndarray, m: int) -> tuple[np.ndarray, int]:
    clusters = np.asarray(clusters, dtype=np.int64)
    if clusters.shape != (m,):
        raise ValueError(f"clusters must have one code per question ({m}); got shape {clusters.shape}.")
    if m and clusters.min() < 0:
        raise ValueError("clusters must be non-negative codes (cluster_codes makes them).")
    n_clusters = int(clusters.max()) + 1 if m else 0
    onehot = np.zeros((m, n_clusters))
    onehot[np.arange(m), clusters] = 1.0
    return onehot, n_clusters


def clustered_se(scores, clusters) -> np.ndarray:
    """Cluster-robust standard error of each model's mean score over the questions it answered.

    Parameters
    ----------
    scores : array-like of float, shape (L, M)
        Per-question mean scores (NaN where the model did not answer the question).
    clusters : array-like of int, shape (M,)
        Cluster code of each question (:func:`cluster_codes`).

    Returns
    -------
    ndarray of float, shape (L,)
        The standard error (module docstring formula); NaN for a model whose answered
        questions span fewer than two clusters.

    Raises
    ------
    ValueError
        Shapes that do not match, negative codes.

    Examples
    --------
    >>> # two clusters of two questions: deviations (+.25, +.25) and (-.25, -.25); SE^2 = 2 * (0.5^2 + 0.5^2) / 16
    >>> float(clustered_se([[1.0, 1.0, 0.5, 0.5]], [0, 0, 1, 1])[0])
    0.25
    """
    s = np.atleast_2d(np.asarray(scores, dtype=float))
    onehot, _ = _onehot(clusters, s.shape[1])
    answered = ~np.isnan(s)
    m = answered.sum(axis=1)
    mean = np.where(m > 0, np.nansum(s, axis=1) / np.maximum(m, 1), 0.0)
    dev = np.where(answered, s - mean[:, None], 0.0)
    sums = dev @ onehot  # (L, C): the deviations summed per cluster
    n_clusters = (answered.astype(float) @ onehot > 0).sum(axis=1)
    var = n_clusters / np.maximum(n_clusters - 1, 1) * np.sum(sums * sums, axis=1) / np.maximum(m, 1) ** 2
    return np.where(n_clusters >= 2, np.sqrt(var), np.nan)


def clustered_pair_se(question_diffs, clusters) -> float:
    """Cluster-robust standard error of a paired mean difference (questions both models answered).

    Parameters
    ----------
    question_diffs : array-like of float, shape (M,)
        ``score_A - score_B`` per question, NaN where one of them did not answer.
    clusters : array-like of int, shape (M,)

    Returns
    -------
    float
        NaN with fewer than two clusters among the common questions.
    """
    return float(clustered_se(np.asarray(question_diffs, dtype=float)[None, :], clusters)[0])


def clustered_pair_se_matrix(scores, clusters) -> np.ndarray:
    """Cluster-robust standard error of ``mean_i - mean_j`` for every pair of models, paired over questions.

    Parameters
    ----------
    scores : array-like of float, shape (L, M)
        Per-question scores; every model must have answered every question (the pairing is then
        over the same M questions for all pairs, and the matrix is three matrix products).
    clusters : array-like of int, shape (M,)

    Returns
    -------
    ndarray of float, shape (L, L)
        0 on the diagonal; NaN everywhere (diagonal included) with fewer than two clusters.

    Raises
    ------
    ValueError
        A missing score (use :func:`clustered_pair_se` per pair for ragged data).
    """
    s = np.asarray(scores, dtype=float)
    if np.isnan(s).any():
        raise ValueError("clustered_pair_se_matrix needs every model to answer every question.")
    onehot, _ = _onehot(clusters, s.shape[1])
    n_clusters = int(np.count_nonzero(onehot.sum(axis=0)))  # clusters with at least one question
    dev = (s - s.mean(axis=1, keepdims=True)) @ onehot  # (L, C)
    sq = np.sum(dev * dev, axis=1)
    ss = np.maximum(sq[:, None] + sq[None, :] - 2.0 * (dev @ dev.T), 0.0)
    if n_clusters < 2:
        return np.full(ss.shape, np.nan)
    se = np.sqrt(n_clusters / (n_clusters - 1) * ss) / s.shape[1]
    np.fill_diagonal(se, 0.0)
    return se
