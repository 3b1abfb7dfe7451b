"""The paired sd of two models' difference under the questions-sampled scope, question sets equal or not.

When two models answered the same questions the difference of their means is the mean of the
per-question differences ``d``, and its variance ``sd(d)^2 / m`` (Miller 2024, arXiv:2411.00640).
When they answered different questions (a ragged file), each model's estimate is its mean over its
**own** questions, and so is the difference the leaderboard and ``compare`` report. Its variance
is that of a difference of two partly overlapping sample means::

    Var(mean_A - mean_B) = s_A^2 / M_A + s_B^2 / M_B - 2 (m / (M_A M_B)) c_AB

``s_A^2`` the sample variance (``ddof=1``) of A's per-question scores over its ``M_A`` questions
(each model's own questions-sampled variance, :func:`scorio_core.uncertainty.posterior_summary`),
``c_AB`` the sample covariance (``ddof=1``) of the two models' scores over the ``m`` questions both
answered: only those carry a covariance, ``Cov(mean_A, mean_B) = (1 / (M_A M_B)) sum_shared
Cov(x_A, x_B)``. With equal question sets it is ``sd(d)^2 / m`` exactly. The mean and the sd then
describe the same estimator (a paired sd over the shared questions next to a mean over each model's
own questions describe two different ones).
"""

from __future__ import annotations

import numpy as np

__all__ = ["OWN_MEANS_ASSUMPTION", "UNPAIRED_OWN_ASSUMPTION", "paired_sd_matrix", "same_questions",
           "clustered_own_means_se"]

#: What the questions-sampled difference assumes when the two models answered different questions
#: ({ma}, {mb}: each model's questions; {m}: both; {how}: the covariance's standard error rule).
OWN_MEANS_ASSUMPTION = (
    "questions are a sample from a larger pool; the models answered different questions (A {ma}, B {mb}, both {m}), "
    "so the difference is of each model's mean over its own questions, as the leaderboard reports it, and its sd is "
    "that of a difference of two overlapping sample means: Var = Var_A + Var_B - 2 Cov, each Var the model's "
    "question-sampling variance over its own questions and Cov from the {m} questions both answered (a hard question "
    "is hard for both){how} (Miller 2024, arXiv:2411.00640), never narrower than with questions fixed; interval and "
    "P(A > B) use the normal approximation of section 2.5"
)


#: The same difference when the two models share fewer than 2 questions: no covariance can be estimated, so the sd
#: is the unpaired one of two independent own-question means ({ma}, {mb}: each model's questions; {m}: both).
UNPAIRED_OWN_ASSUMPTION = (
    "questions are a sample from a larger pool; the models answered different questions (A {ma}, B {mb}, both {m}), "
    "so the difference is of each model's mean over its own questions, as the leaderboard reports it; with fewer "
    "than 2 questions both answered no covariance can be estimated, so its sd is unpaired: Var = Var_A + Var_B, each "
    "the model's question-sampling variance over its own questions (wider than a paired comparison would be; "
    "questions both answered would narrow it), never narrower than with questions fixed; interval and P(A > B) use "
    "the normal approximation of section 2.5"
)


def same_questions(score_a, score_b) -> bool:
    """Whether two models' per-question scores (NaN where not answered) cover the same questions."""
    return bool(np.array_equal(np.isnan(np.asarray(score_a, dtype=float)), np.isnan(np.asarray(score_b, dtype=float))))


def paired_sd_matrix(sigma, scores) -> np.ndarray:
    r"""The paired sd of ``mu_i - mu_j`` for every pair of models (questions-sampled scope).

    Parameters
    ----------
    sigma : array-like of float, shape (L,)
        Each model's posterior sd **with questions fixed**.
    scores : array-like of float, shape (L, M)
        Per-question scores (``counts @ w / n``, :func:`~scorio_core.ranking.compare.question_scores`);
        NaN where a model did not answer the question.

    Returns
    -------
    ndarray of float, shape (L, L)
        ``max(sqrt(sigma_i^2 + sigma_j^2), se_ij)``. Where both answered the same questions ``se_ij = sd(d_ij) /
        sqrt(m_ij)`` (the sample sd of ``d = score_i - score_j``; 0 with ``m_ij < 2``); where their question sets
        differ, ``se_ij^2 = s_i^2 / M_i + s_j^2 / M_j - 2 m_ij c_ij / (M_i M_j)`` (module docstring; 0 if rounding
        makes it negative), the sd of the difference of their own-question means, with ``c_ij = 0`` (unpaired) where
        they share fewer than 2 questions (simulated: 0.94 coverage of 95% intervals at 0 or 1 shared questions,
        against 0.76-0.78 with the questions-fixed sd used before), and 0 where a model answered fewer than 2. The form of
        :func:`scorio_core.ranking.paired.scoped_difference` for every pair at once, no loop over pairs.

    Raises
    ------
    ValueError
        Shapes that do not match, or an infinite score.

    Examples
    --------
    >>> nan = float("nan")   # A: q0-q2, B: q1-q3; shared q1, q2
    >>> sd = paired_sd_matrix([0.0, 0.0], [[1.0, 0.0, 1.0, nan], [nan, 0.0, 0.5, 1.0]])
    >>> round(float(sd[0, 1]), 6)   # s_A^2/3 = 1/9, s_B^2/3 = 1/12, c_AB = 0.25: sqrt(1/9 + 1/12 - 2 * 2 * 0.25 / 9)
    0.288675
    """
    sigma = np.asarray(sigma, dtype=float)
    x = np.asarray(scores, dtype=float)
    if sigma.ndim != 1 or x.ndim != 2 or x.shape[0] != sigma.size:
        raise ValueError(f"scores must have shape (L, M) with L = {sigma.size}; got {x.shape}.")
    answered = ~np.isnan(x)
    if not np.all(np.isfinite(x[answered])):
        raise ValueError("scores must be finite where not NaN; got infinity.")
    k = answered.astype(float)
    m = k @ k.T
    own = np.diag(m)
    se = _equal_sets_se(x, answered, k, m)
    same = (m == own[:, None]) & (m == own[None, :])
    if not same.all():
        se = np.where(same, se, _own_means_se(x, answered, k, m, own))
    return np.maximum(np.hypot(sigma[:, None], sigma[None, :]), se)


def _equal_sets_se(x, answered, k, m):
    # each question's mean over the models that answered it: differences on a question do not change, and the sums
    # below stay the size of the spread between models, not of the scores (scores 0.5 and 0.50001 summed as 0.5^2
    # terms lost 5e-7 of their sd's 5e-6 to cancellation with one centre for every question)
    n_q = k.sum(axis=0)
    center = np.where(answered, x, 0.0).sum(axis=0) / np.maximum(n_q, 1.0)
    x = np.where(answered, x - center, 0.0)
    s1 = x @ k.T - k @ x.T  # sum over the common questions of (x_i - x_j)
    x2 = x * x
    size = x2 @ k.T + k @ x2.T  # the magnitude of the terms below: their rounding error is ~eps times it
    s2 = size - 2.0 * (x @ x.T)  # sum of (x_i - x_j)^2
    with np.errstate(divide="ignore", invalid="ignore"):
        ss = s2 - s1 * s1 / m
        # below the rounding error, e.g. two models with identical scores on every common question: exactly 0
        var = np.where(ss > 64.0 * np.finfo(float).eps * size, ss, 0.0) / (m - 1.0)
        return np.where(m >= 2, np.sqrt(var / m), 0.0)


def _own_means_se(x, answered, k, m, own):
    # centred on each model's own mean: a covariance does not change with a shift per model (it would with one per
    # question), and the sums stay the size of the spread
    mean = np.where(answered, x, 0.0).sum(axis=1) / np.maximum(own, 1.0)
    x = np.where(answered, x - mean[:, None], 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        v = np.where(own >= 2, np.sum(x * x, axis=1) / (own - 1.0) / own, 0.0)  # s_i^2 / M_i
        s = x @ k.T  # s[i, j]: sum of x_i over the questions both i and j answered
        cov = ((x @ x.T) - s * s.T / m) / (m - 1.0)  # sample covariance over the common questions
        cov = np.where(m >= 2, cov, 0.0)  # fewer than 2 common questions: no covariance to estimate, unpaired
        var = v[:, None] + v[None, :] - 2.0 * m * cov / np.outer(own, own)
        var = np.where(var > 64.0 * np.finfo(float).eps * (v[:, None] + v[None, :]), var, 0.0)
        return np.where((own[:, None] >= 2) & (own[None, :] >= 2), np.sqrt(var), 0.0)


def clustered_own_means_se(score_a, score_b, clusters) -> float:
    """Cluster-robust standard error of ``mean_A - mean_B``, each the mean over the model's own questions.

    Each question contributes ``u = (x_A - mean_A) / M_A - (x_B - mean_B) / M_B`` (a term for each model that
    answered it); ``SE^2 = C / (C - 1) sum_c (sum_{q in c} u_q)^2`` over the ``C`` clusters of the questions either
    answered. With equal question sets it is :func:`scorio_core.uncertainty.clustered.clustered_pair_se`.

    Parameters
    ----------
    score_a, score_b : array-like of float, shape (M,)
        Per-question scores, NaN where the model did not answer.
    clusters : array-like of int, shape (M,)

    Returns
    -------
    float
        NaN when the common questions span fewer than two clusters (no covariance can be estimated).
    """
    xs = np.asarray([score_a, score_b], dtype=float)
    codes = np.asarray(clusters, dtype=np.int64)
    answered = ~np.isnan(xs)
    both = answered.all(axis=0)
    if len(set(codes[both].tolist())) < 2:
        return float("nan")
    own = answered.sum(axis=1).astype(float)
    mean = np.where(answered, xs, 0.0).sum(axis=1) / own
    u = np.where(answered, xs - mean[:, None], 0.0) / own[:, None]
    u = u[0] - u[1]
    either = answered.any(axis=0)
    labels, inverse = np.unique(codes[either], return_inverse=True)
    sums = np.bincount(inverse, weights=u[either], minlength=labels.size)
    c = labels.size
    return float(np.sqrt(c / (c - 1.0) * np.sum(sums * sums)))
