"""Evaluation-metric rankings of ``scorio.rank``: each model scored by a metric of :mod:`scorio_core.eval`.

Source: the reference package scorio 0.2.3 (``scorio.rank.bayes``, ``pass_at_k``, ``pass_hat_k``,
``g_pass_at_k_tau``, ``mg_pass_at_k`` of its ``rank/eval_ranking`` module); same scores, ranks and errors.
The Pass@k family is computed for every (model, question) at once from the success counts, with the
finite-sample kernel of :mod:`scorio_core.eval._scores`; Bayes@N is :func:`scorio_core.eval.bayes` per model.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import norm

from scorio_core.eval._scores import finite_state_scores, mg_values, pass_values, tau_threshold, threshold_values
from scorio_core.eval._validate import finite_k
from scorio_core.eval.bayes import bayes as _eval_bayes
from scorio_core.rank.ties import rank_with, validate_input

__all__ = ["bayes", "pass_at_k", "pass_hat_k", "g_pass_at_k_tau", "mg_pass_at_k"]


def _model_scores(R: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per-model mean over questions of the finite-sample estimator of credit ``values`` (``R``: (L, M, N))."""
    L, M, N = R.shape
    successes = R.sum(axis=2, dtype=np.int64)
    states, inverse = np.unique(successes, return_inverse=True)
    per_state = finite_state_scores(values, np.full(states.size, N, dtype=np.int64), states)
    return per_state[inverse.reshape(L, M)].mean(axis=1)


def _count_metric(R, k, method, return_scores, values_of, tau=None):
    R = validate_input(R)
    if tau is not None:
        # the reference's check: a comparison (a TypeError for a string), booleans read as 0/1
        if not (0.0 <= tau <= 1.0):
            raise ValueError(f"tau must be in [0, 1]; got {tau}")
        tau = float(tau)
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise ValueError(f"k must be an integer; got {k!r}.")  # the reference's type and message
    k = finite_k(k, R.shape[2])
    return rank_with(_model_scores(R, values_of(k, tau)), method, return_scores)


def pass_at_k(R, k, method: str = "competition", return_scores: bool = False):
    """Rank models by Pass@k: the chance that at least one of ``k`` draws without replacement is correct.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes (:func:`scorio_core.rank.ties.validate_input`).
    k : int
        Draws, ``1 <= k <= N``.
    method : {"competition", "competition_max", "dense", "avg"}, default "competition"
        Tie convention (:func:`scorio_core.rank.ties.rank_scores`).
    return_scores : bool, default False
        Also return the scores.

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)
        ``scores[l] = mean_m (1 - C(N - c_lm, k) / C(N, k))`` (Chen et al. 2021, arXiv:2107.03374).

    Raises
    ------
    ValueError
        Bad ``R``; ``k`` not an integer or outside ``1..N`` (the reference's type and message).
    KeyError
        Unknown ``method``.

    Examples
    --------
    >>> pass_at_k([[[1, 1, 0], [0, 1, 0]], [[1, 0, 0], [0, 0, 0]]], k=2).tolist()
    [1.0, 2.0]
    """
    return _count_metric(R, k, method, return_scores, lambda k, _: pass_values(k))


def pass_hat_k(R, k, method: str = "competition", return_scores: bool = False):
    """Rank models by Pass^k (Pass-hat@k): the chance that all ``k`` draws are correct.

    Parameters
    ----------
    R, k, method, return_scores
        As :func:`pass_at_k`.

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)
        ``scores[l] = mean_m C(c_lm, k) / C(N, k)`` (Yao et al. 2024, arXiv:2406.12045).

    Raises
    ------
    ValueError, KeyError
        As :func:`pass_at_k`.

    Examples
    --------
    >>> pass_hat_k([[[1, 1, 0], [0, 1, 0]], [[1, 0, 0], [0, 0, 0]]], k=1, return_scores=True)[1].round(6).tolist()
    [0.5, 0.166667]
    """
    return _count_metric(R, k, method, return_scores, lambda k, _: threshold_values(k, k))


def g_pass_at_k_tau(R, k, tau, method: str = "competition", return_scores: bool = False):
    """Rank models by G-Pass@k_tau: the chance of at least ``max(1, ceil(tau k))`` successes in ``k`` draws.

    Parameters
    ----------
    R, k, method, return_scores
        As :func:`pass_at_k`.
    tau : float
        Threshold fraction, ``0 <= tau <= 1`` (``tau = 0`` is Pass@k, ``tau = 1`` Pass^k).

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)
        Mean over questions of the hypergeometric tail (Liu et al. 2025, Findings of ACL, arXiv:2412.13147).

    Raises
    ------
    ValueError
        Bad ``R``; ``tau`` outside ``[0, 1]`` or NaN; ``k`` not an integer or outside ``1..N``.
    TypeError
        ``tau`` not comparable with a number (a string, ``None``), as the reference.
    KeyError
        Unknown ``method``.

    Examples
    --------
    >>> R = [[[1, 1, 0], [0, 1, 0]], [[1, 0, 0], [0, 0, 0]]]
    >>> g_pass_at_k_tau(R, k=2, tau=1.0).tolist() == pass_hat_k(R, 2).tolist()
    True
    """
    def values(k, tau):
        return pass_values(k) if tau <= 0.0 else threshold_values(k, tau_threshold(tau, k))

    return _count_metric(R, k, method, return_scores, values, tau=tau)


def mg_pass_at_k(R, k, method: str = "competition", return_scores: bool = False):
    """Rank models by mG-Pass@k: ``(2/k) E[(X - ceil(k/2))_+]`` with ``X`` the successes among ``k`` draws.

    Parameters
    ----------
    R, k, method, return_scores
        As :func:`pass_at_k`.

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)
        Mean over questions of the mG-Pass@k estimator (Liu et al. 2025, arXiv:2412.13147).

    Raises
    ------
    ValueError, KeyError
        As :func:`pass_at_k`.

    Examples
    --------
    >>> mg_pass_at_k([[[1, 1, 1], [0, 1, 1]], [[1, 0, 0], [0, 0, 0]]], k=3, return_scores=True)[1].round(6).tolist()
    [0.333333, 0.0]
    """
    return _count_metric(R, k, method, return_scores, lambda k, _: mg_values(k))


def _prior_outcomes(R0, L: int, M: int):
    """``(shared, per_model)`` prior outcome arrays, validated as the reference does."""
    if R0 is None:
        return None, None
    R0 = np.asarray(R0)
    if not np.issubdtype(R0.dtype, np.bool_):
        if not np.issubdtype(R0.dtype, np.number) or np.issubdtype(R0.dtype, np.complexfloating):
            raise ValueError("R0 must contain real, finite integer-valued outcomes")
        if not np.isfinite(R0).all() or not np.equal(R0, np.floor(R0)).all():
            raise ValueError("R0 must contain real, finite integer-valued outcomes")
    R0 = R0.astype(int, copy=False)
    if R0.ndim == 2:
        if R0.shape[0] != M:
            raise ValueError(f"Shared R0 must have shape (M={M}, D), got {R0.shape}")
        return R0, None
    if R0.ndim == 3:
        if R0.shape[0] != L or R0.shape[1] != M:
            raise ValueError(f"Model-specific R0 must have shape (L={L}, M={M}, D), got {R0.shape}")
        return None, R0
    raise ValueError(f"R0 must be shape (M, D) or (L, M, D); got ndim={R0.ndim} with shape {R0.shape}")


def bayes(R, w=None, R0=None, quantile=None, method: str = "competition", return_scores: bool = False):
    """Rank models by their Bayes@N posterior mean, or by the conservative score ``mu + Phi^-1(q) sigma``.

    Parameters
    ----------
    R : array_like of int, shape (L, M, N) or (L, M)
        Categorical outcomes ``0..C`` (:func:`scorio_core.rank.ties.validate_input` with ``binary_only=False``).
    w : array_like of float, shape (C+1,), optional
        Category weights; required unless ``R`` is binary (then ``[0, 1]``), as :func:`scorio_core.eval.bayes`.
    R0 : array_like of int, shape (M, D) or (L, M, D), optional
        Prior outcomes, shared by every model or one matrix per model.
    quantile : float, optional
        ``q`` in ``(0, 1)``: rank by ``mu_l + Phi^-1(q) sigma_l`` (``q = 0.05`` penalises uncertainty);
        ``None`` ranks by ``mu_l``.
    method : {"competition", "competition_max", "dense", "avg"}, default "competition"
        Tie convention (:func:`scorio_core.rank.ties.rank_scores`).
    return_scores : bool, default False
        Also return the scores (posterior means or quantile scores).

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)
        Hariri et al. (2026), "Don't Pass@k", ICLR 2026, arXiv:2510.04265, Algorithm 1 per model.

    Raises
    ------
    ValueError
        Bad ``R``; ``quantile`` not a number in ``(0, 1)``; ``R0`` not integer-valued or of the wrong shape;
        ``w`` missing for non-binary ``R`` or not matching its categories (the reference's messages).
    KeyError
        Unknown ``method``.

    Examples
    --------
    >>> R = [[[1, 0], [1, 1], [0, 0]], [[0, 0], [1, 0], [1, 1]]]
    >>> ranks, scores = bayes(R, w=[0.0, 1.0], R0=[[1, 1], [0, 1], [0, 0]], return_scores=True)
    >>> ranks.tolist(), scores.round(6).tolist()
    ([1.0, 1.0], [0.5, 0.5])
    """
    R = validate_input(R, binary_only=False)
    L, M, _ = R.shape
    z = None
    if quantile is not None:
        try:
            quantile = float(quantile)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"quantile must be in (0, 1); got {quantile}") from exc
        if not math.isfinite(quantile) or not 0.0 < quantile < 1.0:
            raise ValueError(f"quantile must be in (0, 1); got {quantile}")
        z = float(norm.ppf(quantile))
    shared, per_model = _prior_outcomes(R0, L, M)
    scores = np.zeros(L)
    for model in range(L):
        try:
            mu, sigma = _eval_bayes(R[model], w, R0=per_model[model] if per_model is not None else shared)
        except TypeError as exc:  # a non-numeric w: the reference (its eval.bayes) raises a ValueError
            raise ValueError(str(exc)) from exc
        scores[model] = mu if z is None else mu + z * sigma
    return rank_with(scores, method, return_scores)
