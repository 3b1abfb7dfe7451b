"""Paired-comparison ranks of many question resamples at once: batched Newton on the pooled counts.

The bootstrap of :mod:`scorio_core.rank.bootstrap` ranks every resample of the questions under every
method. :mod:`scorio_core.rank.likelihood.paired`'s Bradley-Terry, Bradley-Terry-Davidson and Rao-Kupper fits
(and their MAP) follow the reference's L-BFGS-B path one tensor at a time (0.3-1.6 s per fit at 100 models),
so 200 resamples take minutes. Their ranks depend only on the optimum of the likelihood (or posterior), which
this module solves for all resamples together:

- the win counts of resample b are ``W_b = sum_q c_bq W_q``, with ``W_q`` the win counts of question q
  (``W_q[i, j]`` trials of q where i is right and j wrong) and ``c_bq`` how often the resample drew q:
  one matrix product for all resamples; ties (both right or both wrong) are the rest of the resample's events;
- Newton's method on the concave log-likelihood of the centred log-strengths (plus ``-sum theta^2 / (2 var)``
  under the Gaussian prior of the MAP): Bradley-Terry ``sum_ij W_ij log expit(theta_i - theta_j)``, Rao-Kupper
  the same form with weights ``W + T`` and offset ``log kappa``, Davidson a three-way softmax with its tie
  parameter fitted too (:func:`_newton_davidson`); the gauge fixed by adding ``1 1^T`` to the negative Hessian,
  steps capped at 5 in any coordinate, all resamples in one batched ``np.linalg.solve`` per iteration, to a
  step below 1e-10;
- the reference's conventions on every resample: no decisive outcome gives every model strength 1 (one tie);
  under maximum likelihood without a strongly connected win graph (win/tie graph for Davidson and Rao-Kupper)
  the MLE does not exist and the resample counts as failed (the one-at-a-time fit raises ``ValueError``
  there; the MAP always exists); models with identical outcomes on the resample (no decisive comparison
  between them: ``W_ij = W_ji = 0``) share their mean strength, and log-strengths within 1e-9 of each other
  are one tie (equal at the optimum, apart by rounding).

The ranks equal those of the one-at-a-time fits except where two models' strengths are equal at the optimum
(symmetric records on a tiny resample; under Davidson every two models with equal totals, since each pair is
compared on the same events and the net wins are the sufficient statistics) or within the reference
optimiser's own tolerance of each other (its L-BFGS-B stops about 1e-4 from the optimum): there this module
gives the tie, the L-BFGS-B path an arbitrary order. Tested resample by resample on random tensors and by
hypothesis (``tests/core/test_rank_bootstrap_batch.py``).

Source: Bradley & Terry (1952); Rao & Kupper (1967); Davidson (1970); on the existence of the MLE, Hunter,
"MM algorithms for generalized Bradley-Terry models", Ann. Statist. 32, 2004, sec. 3.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components
from scipy.special import expit

from scorio_core.rank.graph import question_wins

__all__ = ["BATCHED_METHODS", "bradley_terry_resamples", "fits_in_memory", "method_resamples",
           "rao_kupper_resamples"]

#: Methods (with their default arguments) this module ranks for many resamples at once.
#: ``plackett_luce_map`` maximises the same pairwise-reduced posterior as ``bradley_terry_map`` (the Plackett-Luce
#: likelihood of binary outcomes reduced to the pairwise wins, times the Gaussian prior), so it shares its solve.
BATCHED_METHODS = frozenset({"bradley_terry", "bradley_terry_map", "rao_kupper", "rao_kupper_map",
                             "bradley_terry_davidson", "bradley_terry_davidson_map", "plackett_luce_map"})

#: Most float64 entries of the per-question win counts (questions x models^2) held at once (200 MB).
_MAX_ENTRIES = 25_000_000
#: Resamples per block: about this many float64 entries (32 MB) in each of the Newton step's B x L x L arrays.
_CHUNK_ENTRIES = 4_000_000
_STEP_CAP = 5.0
#: Log-strengths closer than this are one tie: Newton stops at steps below 1e-10, so the optimum's equal
#: strengths (identical or symmetric records) differ by rounding only.
_TIE = 1e-9


def fits_in_memory(n_models: int, n_questions: int) -> bool:
    """Whether the per-question win counts of ``n_questions`` questions and ``n_models`` models fit the budget."""
    return n_models * n_models * n_questions <= _MAX_ENTRIES


def _strongly_connected(wins: np.ndarray) -> np.ndarray:
    """Whether each resample's directed win graph (B, L, L) is strongly connected: one call on a block diagonal."""
    B, L, _ = wins.shape
    if not B:
        return np.zeros(0, dtype=bool)
    _, labels = connected_components(_block_graph(wins > 0), directed=True, connection="strong")
    labels = labels.reshape(B, L)
    return (labels == labels[:, :1]).all(axis=1)


def _block_graph(adj: np.ndarray) -> csr_matrix:
    """The block-diagonal sparse graph of B adjacency matrices (B, L, L), built from their nonzero indices."""
    B, L, _ = adj.shape
    b, i, j = np.nonzero(adj)
    n = B * L
    return csr_matrix((np.ones(b.size, dtype=bool), (b * L + i, b * L + j)), shape=(n, n))


def _snap_ties(theta: np.ndarray, tol: float = _TIE) -> np.ndarray:
    """Each row's values within ``tol`` of the next larger one share the group's largest value (exact ties)."""
    order = np.argsort(-theta, axis=1, kind="stable")
    s = np.take_along_axis(theta, order, axis=1)
    start = np.concatenate([np.ones((len(s), 1), dtype=bool), (s[:, :-1] - s[:, 1:]) > tol], axis=1)
    head = np.maximum.accumulate(np.where(start, np.arange(s.shape[1]), 0), axis=1)
    out = np.empty_like(theta)
    np.put_along_axis(out, order, np.take_along_axis(s, head, axis=1), axis=1)
    return out


def _newton(weights: np.ndarray, offset: float, inv_var: float, max_iter: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """Centred log-strengths maximising ``sum_ij A_ij log expit(theta_i - theta_j - offset) - inv_var |theta|^2 / 2``.

    ``weights`` A (b, L, L): Bradley-Terry's wins (offset 0); Rao-Kupper's wins plus ties (offset ``log kappa``:
    ``pi_i / (pi_i + kappa pi_j) = expit(theta_i - theta_j - log kappa)`` and its tie probability is the product
    of both directions' terms up to a constant). Returns the log-strengths (b, L) and the converged mask (b,).
    """
    B, L, _ = weights.shape
    theta = np.zeros((B, L))
    done = np.zeros(B, dtype=bool)
    ones, diag = np.ones((L, L)), np.arange(L)
    for _ in range(max_iter):
        act = np.flatnonzero(~done)
        if not act.size:
            break
        t, A = theta[act], weights[act]
        q = expit(t[:, None, :] - t[:, :, None] + offset)  # 1 - expit(theta_i - theta_j - offset), (b, L, L)
        Aq = A * q
        grad = Aq.sum(axis=2) - Aq.sum(axis=1) - inv_var * t
        curv = Aq * (1.0 - q)
        curv += curv.transpose(0, 2, 1)
        hess = -curv  # the negative Hessian: the Laplacian of the curvatures, plus the prior's
        hess[:, diag, diag] = curv.sum(axis=2) + inv_var
        step = np.linalg.solve(hess + ones, grad[..., None])[..., 0]  # + 1 1^T fixes the gauge (grad sums to 0)
        big = np.abs(step).max(axis=1)
        step *= np.minimum(1.0, _STEP_CAP / np.maximum(big, 1e-300))[:, None]
        t = t + step
        theta[act] = t - t.mean(axis=1, keepdims=True)
        done[act] = big < 1e-10
    return theta, done


def bradley_terry_resamples(R, idx, *, prior_var: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Bradley-Terry (ML or Gaussian MAP) log-strengths of many question resamples of one tensor.

    Parameters
    ----------
    R : array_like of int, shape (L, M, N)
        Binary outcomes, L >= 2 models.
    idx : array_like of int, shape (B, M')
        Question indices of each resample (with repeats), as :func:`scorio_core.rank.bootstrap.bootstrap_ranks`
        draws them.
    prior_var : float, optional
        ``None``: maximum likelihood (:func:`~scorio_core.rank.likelihood.paired.bradley_terry`); a positive
        variance: the MAP under ``GaussianPrior(mean, prior_var)`` on the centred log-strengths
        (``bradley_terry_map(R, prior=prior_var)``; the mean does not change a centred fit).

    Returns
    -------
    scores : ndarray of float, shape (B, L)
        Centred log-strengths (higher is better): equal within groups of models with identical outcomes on
        the resample, all 0 on a resample without a decisive outcome; NaN on a failed resample.
    failed : ndarray of bool, shape (B,)
        Resamples without an estimate: under ML a win graph that is not strongly connected (no finite MLE);
        any resample where Newton did not converge in 200 steps.

    Raises
    ------
    ValueError
        ``R`` not 3-D with at least 2 models, ``idx`` not 2-D, or a non-positive ``prior_var``.

    Notes
    -----
    Memory: the per-question win counts, M x L x L floats (see :func:`fits_in_memory`), and a few arrays of
    about 4e6 floats per block of resamples. Cost: one (B x M) by (M x L^2) product, then about 5-15 Newton
    steps of B L x L solves.
    """
    return _resamples(R, idx, prior_var, "bradley_terry", None)


def rao_kupper_resamples(R, idx, *, tie_strength: float = 1.1,
                         prior_var: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Rao-Kupper (ML or Gaussian MAP) log-strengths of many question resamples of one tensor.

    ``P(i beats j) = pi_i / (pi_i + kappa pi_j)`` and ``P(tie) = (kappa^2 - 1) pi_i pi_j / ((pi_i + kappa pi_j)
    (kappa pi_i + pi_j))`` with the fixed ``kappa = tie_strength``; a tie is a (question, trial) both models
    solve or both miss (:func:`~scorio_core.rank.likelihood.paired.rao_kupper`).

    Parameters
    ----------
    R, idx, prior_var
        As :func:`bradley_terry_resamples` (``prior_var``: ``rao_kupper_map(R, tie_strength, prior=prior_var)``).
    tie_strength : float, default 1.1
        ``kappa`` > 1 (at 1 ties are impossible, which binary outcomes with ties contradict).

    Returns
    -------
    scores, failed
        As :func:`bradley_terry_resamples`; under ML a resample fails without a strongly connected win/tie graph.

    Raises
    ------
    ValueError
        As :func:`bradley_terry_resamples`, and ``tie_strength`` not a finite number > 1.
    """
    kappa = float(tie_strength)
    if not (np.isfinite(kappa) and kappa > 1.0):
        raise ValueError(f"tie_strength must be a finite number > 1; got {tie_strength!r}.")
    return _resamples(R, idx, prior_var, "rao_kupper", kappa)


def method_resamples(method: str, R, idx) -> tuple[np.ndarray, np.ndarray]:
    """Scores and failures of ``method`` (one of :data:`BATCHED_METHODS`, with its default arguments) on every resample.

    ``bradley_terry`` / ``rao_kupper`` / ``bradley_terry_davidson``: maximum likelihood; their ``_map``: the
    default ``prior=1.0`` (Gaussian, variance 1, on the centred log-strengths); Rao-Kupper with the default
    ``tie_strength=1.1``; ``plackett_luce_map``: the posterior of ``bradley_terry_map``. See
    :func:`bradley_terry_resamples`.
    """
    if method not in BATCHED_METHODS:
        raise ValueError(f"method must be one of {sorted(BATCHED_METHODS)}; got {method!r}.")
    prior_var = 1.0 if method.endswith("_map") else None
    if method.startswith("rao_kupper"):
        return _resamples(R, idx, prior_var, "rao_kupper", 1.1)
    return _resamples(R, idx, prior_var, "davidson" if "davidson" in method else "bradley_terry", None)


def _resamples(R, idx, prior_var, model: str, kappa) -> tuple[np.ndarray, np.ndarray]:
    """The models' shared driver: ``model`` "bradley_terry", "rao_kupper" (with ``kappa``) or "davidson"."""
    R = np.asarray(R)
    if R.ndim != 3 or R.shape[0] < 2:
        raise ValueError(f"R must have shape (L, M, N) with L >= 2; got {R.shape}.")
    idx = np.asarray(idx)
    if idx.ndim != 2:
        raise ValueError(f"idx must have shape (B, M'); got {idx.shape}.")
    if prior_var is not None and not (np.isfinite(prior_var) and prior_var > 0):
        raise ValueError(f"prior_var must be a positive finite variance; got {prior_var!r}.")
    L, M, N = R.shape
    B = idx.shape[0]
    per_question = question_wins(R).reshape(M, L * L)
    scores, failed = np.zeros((B, L)), np.zeros(B, dtype=bool)
    inv_var = 0.0 if prior_var is None else 1.0 / float(prior_var)
    events = float(idx.shape[1] * N)  # (question, trial) events of a resample: each pair compared on each
    step = max(1, _CHUNK_ENTRIES // (L * L))
    for start in range(0, B, step):  # resamples in blocks of bounded memory, each block in one pass
        rows = idx[start:start + step]
        drawn = np.zeros((len(rows), M))
        np.add.at(drawn, (np.arange(len(rows))[:, None], rows), 1.0)
        wins = (drawn @ per_question).reshape(len(rows), L, L)
        ties = None
        if model != "bradley_terry":
            ties = events - wins - wins.transpose(0, 2, 1)
            ties[:, np.arange(L), np.arange(L)] = 0.0
        scores[start:start + step], failed[start:start + step] = _solve(wins, ties, model, kappa, inv_var,
                                                                         prior_var is None)
    return scores, failed


def _solve(wins: np.ndarray, ties, model: str, kappa, inv_var: float, mle: bool) -> tuple[np.ndarray, np.ndarray]:
    """Scores and failures of a block of resamples' win (and tie) counts (b, L, L)."""
    B, L, _ = wins.shape
    decisive = wins.reshape(B, -1).sum(axis=1) > 0
    failed = np.zeros(B, dtype=bool)
    if mle:
        graph = wins if ties is None else wins + ties
        failed[decisive] = ~_strongly_connected(graph[decisive])
    scores = np.zeros((B, L))
    fit = np.flatnonzero(decisive & ~failed)
    if fit.size:
        if model == "bradley_terry":
            theta, done = _newton(wins[fit], 0.0, inv_var)
        elif model == "rao_kupper":
            theta, done = _newton(wins[fit] + ties[fit], float(np.log(kappa)), inv_var)
        else:
            theta, done = _newton_davidson(wins[fit], ties[fit], inv_var)
        same = (wins[fit] + wins[fit].transpose(0, 2, 1)) == 0  # identical outcomes on the resample (diagonal too)
        mean = (same @ theta[..., None])[..., 0] / same.sum(axis=2)
        first = same.argmax(axis=2)  # each model's first identical model: one value per group, to the bit
        scores[fit] = _snap_ties(np.take_along_axis(mean, first, axis=1))
        failed[fit[~done]] = True
    scores[failed] = np.nan
    return scores, failed


def _newton_davidson(wins: np.ndarray, ties: np.ndarray, inv_var: float,
                     max_iter: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """Centred log-strengths of Davidson's model, its tie parameter ``u = log nu`` fitted with them.

    Each pair's outcome is a softmax over ``(theta_i, theta_j, u + (theta_i + theta_j) / 2)`` (win, loss, tie), so
    the log-likelihood is concave in ``(theta, u)``: with ``s = theta_i - theta_j`` and ``D = e^(s/2) + e^(-s/2) +
    e^u`` a pair contributes ``(w_ij - w_ji) s / 2 + t_ij u - n_ij log D``. Newton on the L + 1 parameters, the
    gauge fixed on the strengths; ``u`` is kept in [-10, 10] (the reference clips it there): a resample without
    ties fits the strengths with ``u`` at -10.
    """
    B, L, _ = wins.shape
    n = wins + wins.transpose(0, 2, 1) + ties
    diff = wins - wins.transpose(0, 2, 1)
    theta, u = np.zeros((B, L)), np.zeros(B)
    free = ties.reshape(B, -1).sum(axis=1) > 0  # without ties the likelihood rises as nu -> 0: u stays at -10
    u[~free] = -10.0
    done = np.zeros(B, dtype=bool)
    gauge = np.zeros((L + 1, L + 1))
    gauge[:L, :L] = 1.0
    diag = np.arange(L)
    for _ in range(max_iter):
        act = np.flatnonzero(~done)
        if not act.size:
            break
        t, uu, nn = theta[act], u[act], n[act]
        half = 0.5 * (t[:, :, None] - t[:, None, :])
        a, b, e = np.exp(half), np.exp(-half), np.exp(uu)[:, None, None]
        D = a + b + e
        g_s = 0.5 * diff[act] - 0.5 * nn * (a - b) / D
        h_ss = 0.25 * nn * ((a + b) * D - (a - b) ** 2) / D**2  # minus the second derivative in s
        h_su = -0.5 * nn * (a - b) * e / D**2  # minus the mixed derivative
        h_uu = nn * e * (a + b) / D**2
        hess = np.zeros((len(act), L + 1, L + 1))
        hess[:, :L, :L] = -h_ss
        hess[:, diag, diag] = h_ss.sum(axis=2) + inv_var
        hess[:, :L, L] = hess[:, L, :L] = h_su.sum(axis=2)
        hess[:, L, L] = 0.5 * h_uu.sum(axis=(1, 2))
        grad = np.empty((len(act), L + 1))
        grad[:, :L] = g_s.sum(axis=2) - inv_var * t
        grad[:, L] = 0.5 * (ties[act] - nn * e / D).sum(axis=(1, 2))
        fixed = ~free[act]  # u held: its row and column out of the system
        hess[fixed, L, :] = hess[fixed, :, L] = 0.0
        hess[fixed, L, L], grad[fixed, L] = 1.0, 0.0
        step = np.linalg.solve(hess + gauge, grad[..., None])[..., 0]
        cap = np.abs(step).max(axis=1)
        step *= np.minimum(1.0, _STEP_CAP / np.maximum(cap, 1e-300))[:, None]
        t = t + step[:, :L]
        theta[act] = t - t.mean(axis=1, keepdims=True)
        new_u = uu + step[:, L]
        out = (np.abs(new_u) > 10.0) & free[act]  # the tie parameter reaches a clip: held there from now on
        free[act[out]] = False
        u[act] = np.clip(new_u, -10.0, 10.0)
        big = np.where(out, np.inf, np.abs(step[:, :L]).max(axis=1))
        big = np.maximum(big, np.where(free[act], np.abs(step[:, L]), 0.0))
        done[act] = big < 1e-10
    return theta, done
