"""Kernels of :mod:`scorio_core.sensitivity`: cells, category counts, Bayes@N per model, flips.

Internal: assumes the public functions validated their input. The attempt table's
(model, question) cells, category counts with one ``bincount``, Bayes@N moments per model
over its answered questions, competition ranks of many rubrics at once, and the
leader-flip searches. numpy/pandas only.
Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, Eq. 15 and Appendix F.1.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.eval.batch import _bayes_batch
from scorio_core.ranking.rank_batch import batch_competition_ranks

__all__ = ["Cells", "cells", "category_counts", "model_moments", "ranks", "weight_flip", "threshold_flip", "flip_rates", "shares_of"]


class Cells(NamedTuple):
    """Models (order of first appearance), number of questions, each attempt's flat cell, and each question's task
    code where there are several tasks (the empirical-Bayes prior is then fitted per task,
    :mod:`scorio_core.uncertainty.strata`)."""

    models: tuple[str, ...]
    n_questions: int
    index: np.ndarray  # (n_rows,) model * M + question
    strata: np.ndarray | None = None  # (M,) task code of each question, or None for one task


def cells(frame: pd.DataFrame) -> Cells:
    """Model and question of every attempt; a question is a (task, question_id) pair."""
    for column in ("model", "question_id"):
        if column not in frame.columns:
            raise InputError(f"the attempt table needs a {column!r} column.")
    model_codes, models = pd.factorize(frame["model"], sort=False)
    question = pd.factorize(frame["question_id"].astype(str), sort=False)[0].astype(np.int64)
    strata = None
    if "task" in frame.columns:
        task, tasks = pd.factorize(frame["task"].astype(str), sort=False)
        task = task.astype(np.int64)
        question = pd.factorize(task * (question.max() + 1) + question, sort=False)[0].astype(np.int64)
        if len(tasks) > 1:
            strata = np.zeros(int(question.max()) + 1, dtype=np.int64)
            strata[question] = task
    M = int(question.max()) + 1 if question.size else 0
    return Cells(tuple(str(m) for m in models), M, model_codes.astype(np.int64) * M + question, strata)


def category_counts(codes: np.ndarray, where: Cells, n_categories: int) -> np.ndarray:
    """Category counts (L, M, C+1) of the matched attempts (code -1 is left out)."""
    keep = codes >= 0
    L, M = len(where.models), where.n_questions
    flat = where.index[keep] * n_categories + codes[keep]
    return np.bincount(flat, minlength=L * M * n_categories).reshape(L, M, n_categories)


def model_moments(counts: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bayes@N (mu, sigma) per model over the questions it has matched attempts on.

    Each question is scored alone by :func:`bayes_batch` (M = 1) and the moments are
    combined over a model's answered questions: mu is their mean, sigma the root of the
    summed variances over the number of questions (Eq. 15), which is what the leaderboard
    computes from the model's present questions. NaN for a model with none.
    Shapes: counts (..., L, M, C+1) -> (..., L).
    """
    q_mu, q_sigma = _bayes_batch(counts[..., :, None, :], w)  # (..., L, M)
    present = counts.sum(axis=-1) > 0
    n = present.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mu = np.where(present, q_mu, 0.0).sum(axis=-1) / n
        sigma = np.sqrt(np.where(present, q_sigma**2, 0.0).sum(axis=-1)) / n
    return np.where(n > 0, mu, np.nan), np.where(n > 0, sigma, np.nan)


def ranks(mu: np.ndarray) -> np.ndarray:
    """Competition ranks of every row of ``mu`` (..., L) as float; unscored (NaN) models rank last."""
    return batch_competition_ranks(np.where(np.isfinite(mu), mu, -np.inf)).astype(float)


def weight_flip(mu: np.ndarray, slope: np.ndarray, leader: int, limit: float) -> tuple[float | None, int | None]:
    """Smallest relative change delta of one weight after which a model catches the leader.

    Bayes@N is linear in the weights, so changing weight j by ``delta * w_j`` moves model i
    to ``mu_i + delta * slope_i`` (``slope_i = w_j P_ij``, ``P_ij`` its posterior mean share
    of category j); model i reaches the leader l at ``delta_i = (mu_l - mu_i) / (slope_i -
    slope_l)``. The weight stays positive (``delta > -1``: at 0 the category would drop
    out) and ``|delta| <= limit``. Returns ``(delta, i)`` of the smallest ``|delta|``, or
    ``(None, None)``.
    """
    others = np.flatnonzero(np.isfinite(mu) & (np.arange(mu.size) != leader))
    rel = slope[others] - slope[leader]
    gap = mu[leader] - mu[others]
    with np.errstate(divide="ignore", invalid="ignore"):
        delta = np.where(rel != 0.0, gap / rel, np.where(gap <= 0.0, 0.0, np.inf))
    ok = np.isfinite(delta) & (delta > -1.0) & (np.abs(delta) <= limit)
    if not ok.any():
        return None, None
    best = int(np.argmin(np.where(ok, np.abs(delta), np.inf)))
    return float(delta[best]), int(others[best])


def threshold_flip(mu_at: Callable[[list[float]], np.ndarray], base: float, leader: int, limit: float):
    """Smallest percentile shift (1-point steps outward, +s before -s, within 0..100) after
    which the leader no longer ranks first; ``(shift, new leader)`` or ``(None, None)``.

    ``mu_at(shifts)`` gives the means under each shift, shape (len(shifts), L); the shifts are
    evaluated in batches of 8 in search order and the first that moves the leader wins."""
    order = [s for size in range(1, int(limit) + 1) for s in (float(size), -float(size)) if 0.0 <= base + s <= 100.0]
    for start in range(0, len(order), 8):
        batch = order[start:start + 8]
        mu = np.asarray(mu_at(batch), dtype=float)
        moved = np.flatnonzero(ranks(mu)[:, leader] > 1)
        if moved.size:
            row = mu[moved[0]]
            return batch[moved[0]], int(np.argmax(np.where(np.isfinite(row), row, -np.inf)))
    return None, None


def shares_of(codes: list[np.ndarray], where: Cells, n_categories: int, prior: str) -> np.ndarray:
    """Posterior mean category shares under each of several codings of the same attempts, shape (P, L, C+1).

    The P count tensors are stacked as P x L rows of one :func:`posterior_shares` call, so the
    empirical-Bayes fits (one per row and task) run as one batch; each row is fitted alone, as
    one call per coding would fit it."""
    from scorio_core.uncertainty.batch import posterior_shares

    L = len(where.models)
    if not codes:
        return np.zeros((0, L, n_categories))
    counts = np.concatenate([category_counts(c, where, n_categories) for c in codes])
    return posterior_shares(counts, prior, where.strata).reshape(len(codes), L, n_categories)


def flip_rates(x: np.ndarray, flip: np.ndarray, low: float, high: float) -> tuple[float, float, float]:
    """Correlation of ``x`` with ``flip`` and the flip rate in the lowest / highest third of [low, high]."""
    f = flip.astype(float)
    corr = float(np.corrcoef(x, f)[0, 1]) if x.size > 1 and np.ptp(x) > 0 and np.ptp(f) > 0 else float("nan")
    third = (high - low) / 3.0
    if third <= 0:
        return corr, float("nan"), float("nan")
    lower, upper = x <= low + third, x >= high - third
    return (corr, float(f[lower].mean()) if lower.any() else float("nan"),
            float(f[upper].mean()) if upper.any() else float("nan"))
