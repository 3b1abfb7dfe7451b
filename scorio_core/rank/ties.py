"""Scores -> ranks under the four tie conventions, and the response-tensor validation of ``scorio.rank``.

Source: the reference package scorio 0.2.3 (``scorio.utils.rank_scores``, ``scorio.rank._base.validate_input``);
same results and errors, vectorised.
"""

from __future__ import annotations

import numpy as np

from scorio_core.eval.ranking import NEAR_TIE_RTOL, near_tie_ranks  # re-exported: the rule the app and CLI show

__all__ = ["RANK_METHODS", "rank_scores", "validate_input", "rank_with", "near_tie_ranks", "settled_ranks",
           "NEAR_TIE_RTOL"]

#: Tie conventions: competition (1, 2, 2, 4), competition_max (1, 3, 3, 4), dense (1, 2, 2, 3), avg (1, 2.5, 2.5, 4).
RANK_METHODS = ("competition", "competition_max", "dense", "avg")


def _grouped(sorted_desc: np.ndarray, tol: float) -> np.ndarray:
    """Each score replaced by its group leader's: a group starts where a score is more than ``tol`` below the leader."""
    out = sorted_desc.copy()
    with np.errstate(invalid="ignore"):  # inf - inf: not within tol (equal infinities are equal anyway)
        close = np.flatnonzero(np.abs(np.diff(sorted_desc)) <= tol) + 1  # positions that may join the group before them
    if close.size == 0:
        return out
    for i in close:  # only scores within tol of their neighbour (ties): the reference's leader rule, exactly
        if abs(out[i] - out[i - 1]) <= tol:
            out[i] = out[i - 1]
    return out


def rank_scores(scores, tol: float = 1e-12) -> dict[str, np.ndarray]:
    """Ranks of ``scores`` (higher is better) under every tie convention of :data:`RANK_METHODS`.

    Parameters
    ----------
    scores : array_like, shape (L,)
    tol : float, default 1e-12
        Scores within ``tol`` of their group's best score share its rank.

    Returns
    -------
    dict of str to ndarray, shape (L,)
        ``"competition"``, ``"competition_max"``, ``"dense"``, ``"avg"`` (float ranks; the values of
        ``scipy.stats.rankdata`` on the grouped scores, NaN everywhere if a score is NaN, as the reference).

    Raises
    ------
    ValueError
        ``scores`` is not one-dimensional.

    Examples
    --------
    >>> r = rank_scores([95.0, 87.5, 87.5, 80.0])
    >>> r["competition"].tolist(), r["competition_max"].tolist(), r["dense"].tolist(), r["avg"].tolist()
    ([1.0, 2.0, 2.0, 4.0], [1.0, 3.0, 3.0, 4.0], [1.0, 2.0, 2.0, 3.0], [1.0, 2.5, 2.5, 4.0])
    """
    s = np.asarray(scores, dtype=float)
    if s.ndim != 1:
        raise ValueError("scores_in_id_order must be a 1D sequence.")
    n = s.size
    if n == 0:
        return {name: np.empty(0) for name in RANK_METHODS}
    order = np.argsort(-s)
    grouped = _grouped(s[order], tol)
    if np.isnan(grouped).any():  # scipy's rankdata (the reference's) propagates NaN to every rank
        return {name: np.full(n, np.nan) for name in RANK_METHODS}
    # On the descending, grouped scores a tie group is a run of equal values (rankdata's ties, one sort):
    # competition = the run's first position + 1, competition_max = its last + 1, dense = the run's number.
    new = np.r_[True, grouped[1:] != grouped[:-1]]
    starts = np.flatnonzero(new)
    run = np.cumsum(new) - 1
    first = starts[run] + 1.0
    last = np.r_[starts[1:], n][run].astype(float)
    by_position = {"competition": first, "competition_max": last, "dense": run + 1.0, "avg": (first + last) / 2.0}
    out = {}
    for name in RANK_METHODS:
        ranks = np.empty(n, dtype=float)
        ranks[order] = by_position[name]
        out[name] = ranks
    return out


def rank_with(scores: np.ndarray, method: str, return_scores: bool):
    """``rank_scores(scores)[method]``, with the scores when asked (every method's return convention)."""
    if method not in RANK_METHODS:
        raise KeyError(method)  # the reference indexes its dict with the name: a KeyError
    ranking = rank_scores(scores)[method]
    return (ranking, scores) if return_scores else ranking


def validate_input(R, binary_only: bool = True) -> np.ndarray:
    """The response tensor as integers of shape (L, M, N); (L, M) is read as N = 1.

    Raises
    ------
    ValueError
        Not 2-D or 3-D; not numeric; complex; NaN or Inf; a float other than 0.0/1.0; a value other than
        0/1 when ``binary_only``; fewer than 2 models, 1 question or 1 trial (the reference's messages).
    """
    R = np.asarray(R)
    if R.ndim == 2:
        R = R[:, :, np.newaxis]
    elif R.ndim != 3:
        raise ValueError(f"Input R must be a 2D array of shape (L, M) or 3D array of shape (L, M, N), got shape {R.shape}")
    if np.issubdtype(R.dtype, np.bool_):
        R = R.astype(int, copy=False)
    else:
        if not np.issubdtype(R.dtype, np.number):
            raise ValueError(f"Input R must be numeric, got dtype {R.dtype}")
        if np.issubdtype(R.dtype, np.complexfloating):
            raise ValueError("Input R must contain real-valued outcomes")
        if not np.isfinite(R).all():
            raise ValueError("Input R must not contain NaN or Inf values")
        if np.issubdtype(R.dtype, np.floating):
            if not np.all((R == 0) | (R == 1)):
                raise ValueError("Float inputs must be binary values (0.0 or 1.0). Use integer dtype for multiclass outcomes.")
        elif binary_only and not np.all((R == 0) | (R == 1)):
            raise ValueError("Input R must contain only binary values (0 or 1)")
        R = R.astype(int, copy=False)
    L, M, N = R.shape
    if L < 2:
        raise ValueError(f"Need at least 2 models to rank, got L={L}")
    if M < 1:
        raise ValueError(f"Need at least 1 question, got M={M}")
    if N < 1:
        raise ValueError(f"Need at least 1 trial, got N={N}")
    return R


def settled_ranks(ranks, scores, rtol: float = NEAR_TIE_RTOL) -> np.ndarray:
    """A method's competition ``ranks`` with near-equal ``scores`` tied (:func:`near_tie_ranks`), where the ranks
    follow the scores (higher is better); else the ranks unchanged (a method whose scores are not its ranking's).

    >>> settled_ranks([2.0, 3.0, 1.0], [1.2599210431, 0.5, 1.2599210439]).tolist()
    [1.0, 3.0, 1.0]
    >>> settled_ranks([1.0, 2.0], [0.0, 5.0]).tolist()  # scores that are not higher-is-better: left alone
    [1.0, 2.0]
    """
    r, s = np.asarray(ranks, dtype=float), np.asarray(scores, dtype=float)
    if r.shape != s.shape or np.isnan(r).any():
        return r
    exact = rank_scores(np.where(np.isnan(s), -np.inf, s))["competition"]
    return near_tie_ranks(s, rtol) if np.array_equal(exact, r) else r

