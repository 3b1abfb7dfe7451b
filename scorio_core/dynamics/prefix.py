"""Rank trajectories from prefix-count statistics (no attempt tensor).

With binary outcomes (weights ``w = [0, 1]``) and a fixed Beta(a, a) prior per question
(uniform a = 1, Jeffreys a = 1/2), the posterior of a question with ``c`` correct among its
first ``m`` trials has mean ``(c + a) / (m + 2a)`` and variance
``(c + a)(m - c + a) / ((m + 2a)^2 (m + 2a + 1))``. Bayes@n is the mean over the M questions of
the posterior means and its ``sigma`` is ``sqrt(sum of the variances) / M`` (Hariri et al.,
"Don't Pass@k", ICLR 2026, arXiv:2510.04265, section 2, Eq. 15); both are sums over groups of
questions with the same ``m`` of terms in ``k`` (questions), ``sum c`` and ``sum c^2``, which is
what :class:`scorio_core.io.engines.prefix.PrefixStats` holds. Ranks, the "data" gold standard
(section 2.7), Kendall's tau_b and convergence@n (Appendix I.1) follow
:func:`scorio_core.dynamics.trajectory.rank_trajectory` exactly (Figure 9 trajectories).
"""

from __future__ import annotations

import numpy as np

from scorio_core.errors import InputError

__all__ = ["PREFIX_METRICS", "PREFIX_PRIORS", "check_prefix_support", "trajectory_from_prefix_stats"]

#: Metrics and priors a trajectory can be computed for from prefix counts.
PREFIX_METRICS = ("bayes", "avg")
PREFIX_PRIORS = ("uniform", "jeffreys")
_ALPHA = {"uniform": 1.0, "jeffreys": 0.5}
_TOL = 1e-12


def check_prefix_support(metric: str, prior: str) -> None:
    """Raise :class:`InputError` unless ``metric``/``prior`` can run from prefix counts.

    Raises
    ------
    InputError
        The Pass@k family (needs each question's count sequence, not only sums of ``c`` and
        ``c^2``) or the empirical-Bayes prior (refitted to each model's first n trials, which
        needs every question's counts): they need attempt rows (``--engine pandas``); or an
        unknown metric/prior.
    """
    if metric not in PREFIX_METRICS:
        raise InputError(f"metric {metric!r} needs attempt rows for its trajectory (prefix counts give bayes and avg "
                         "only); use --engine pandas.")
    if prior not in PREFIX_PRIORS:
        raise InputError(f"the {prior} prior needs attempt rows for trajectories (prefix counts support the uniform "
                         "and jeffreys priors); use --prior uniform|jeffreys or --engine pandas.")


def _group_terms(k, s1, s2, m, a: float | None):
    """Per-group sums of the posterior means and variances (a None: avg@n, no variance).

    ``k, s1, s2`` (L, N) int64 and ``m`` (N,) trials per question of each group.
    """
    kf, s1f = k.astype(np.float64), s1.astype(np.float64)
    mf = m.astype(np.float64)[None, :]
    if a is None:
        with np.errstate(invalid="ignore", divide="ignore"):
            return s1f / mf, None
    total = mf + 2.0 * a
    mean = (s1f + a * kf) / total
    # sum_q (c + a)(m - c + a) = sum c (m - c) + a m k + a^2 k, the first term exact in integers
    spread = (m[None, :] * s1 - s2).astype(np.float64) + a * mf * kf + a * a * kf
    var = spread / (total * total * (total + 1.0))
    return mean, var


def _sums(stats, a: float | None):
    """(mean sum, variance sum) over all M questions for every (model, n), shape (L, N)."""
    n = stats.n
    live_mean, live_var = _group_terms(stats.live_k, stats.live_s1, stats.live_s2, n, a)
    done_mean, done_var = _group_terms(stats.done_k, stats.done_s1, stats.done_s2, n, a)
    live_mean = np.where(stats.live_k > 0, live_mean, 0.0)
    done_mean = np.where(stats.done_k > 0, done_mean, 0.0)

    def carried(x):  # contributions of questions that stopped before n: exclusive cumulative sum
        out = np.zeros_like(x)
        np.cumsum(x[:, :-1], axis=1, out=out[:, 1:])
        return out

    mean = live_mean + carried(done_mean)
    if a is None:
        return mean, None
    var = np.where(stats.live_k > 0, live_var, 0.0) + carried(np.where(stats.done_k > 0, done_var, 0.0))
    return mean, var


def trajectory_from_prefix_stats(stats, metric: str = "bayes", prior: str = "uniform"):
    r"""Rank trajectory (Bayes@n or avg@n, n = 1..N_max) from prefix-count statistics.

    Parameters
    ----------
    stats : scorio_core.io.engines.prefix.PrefixStats
        Per-(model, n) sums of ``c`` and ``c^2`` over questions, arrays of shape (L, N_max)
        (from :func:`scorio_core.io.engines.prefix.prefix_stats`). Ragged data: after n trials
        question q contributes its first ``min(n, N_q)`` trials (:mod:`scorio_core.dynamics.ragged`).
    metric : {"bayes", "avg"}, default "bayes"
        Bayes@n (binary weights ``[0, 1]``) or avg@n (mean over questions of ``c / min(n, N_q)``).
    prior : {"uniform", "jeffreys"}, default "uniform"
        Beta(1, 1) (the paper's) or Beta(1/2, 1/2) per question, for Bayes@n and the gold standard.

    Returns
    -------
    Trajectory
        As ``rank_trajectory(R, metric, prior=prior)`` on the attempt tensor of the same data
        (gold standard "data"): ``ranks``, ``scores`` and ``sigma`` (Bayes@n only) of shape
        (L, N_max), ``gold_ranks`` (L,), ``kendall_tau`` (N_max,), ``convergence``.

    Raises
    ------
    InputError
        A Pass@k-family metric or the empirical-Bayes prior: they need attempt rows
        (``--engine pandas``); an unknown metric or prior.

    Notes
    -----
    For a group of ``k`` questions with ``m`` trials each, ``S1 = sum c`` and ``S2 = sum c^2``:
    the posterior means sum to ``(S1 + a k) / (m + 2a)`` and the variances to
    ``((m S1 - S2) + a m k + a^2 k) / ((m + 2a)^2 (m + 2a + 1))``; Bayes@n is the sum over groups
    divided by M and ``sigma = sqrt(variance sum) / M`` (Eq. 15). The gold standard is avg@N for
    complete data under the uniform prior (section 2.7; same ranking as Bayes@N), otherwise
    Bayes@N_max under the prior, as :func:`rank_trajectory` defines it. Ranks are competition
    ranks with ties within 1e-12 (Figure 9).

    References
    ----------
    Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, section 2 (Eq. 15), section 2.7,
    Appendix I.1, Appendix J (Figure 9).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import numpy as np
    >>> z = np.zeros((2, 2), dtype=np.int64)
    >>> s = SimpleNamespace(n=np.array([1, 2]), n_questions=1, live_k=np.ones((2, 2), dtype=np.int64),
    ...                     live_s1=np.array([[1, 1], [0, 1]]), live_s2=np.array([[1, 1], [0, 1]]),
    ...                     done_k=z, done_s1=z, done_s2=z)
    >>> trajectory_from_prefix_stats(s).ranks.tolist()    # R = [[[1, 0]], [[0, 1]]]
    [[1.0, 1.0], [2.0, 1.0]]
    """
    from scorio_core.dynamics.trajectory import Trajectory
    from scorio_core.dynamics.trajectory_kernel import first_convergence
    from scorio_core.ranking.rank_batch import batch_competition_ranks, batch_ranks_tau

    if not isinstance(metric, str) or not isinstance(prior, str):
        raise InputError(f"metric and prior must be strings; got {metric!r}, {prior!r}.")
    check_prefix_support(metric, prior)
    a = _ALPHA[prior]
    M = float(stats.n_questions)
    bayes_sum, var_sum = _sums(stats, a)
    if metric == "bayes":
        scores = bayes_sum / M
        sigma = np.sqrt(var_sum) / M
    else:
        scores = _sums(stats, None)[0] / M
        sigma = None
    ragged = bool(np.asarray(stats.done_k)[:, :-1].any())
    if not ragged and prior == "uniform":
        gold_scores = scores[:, -1] if metric == "avg" else _sums(stats, None)[0][:, -1] / M
    else:
        gold_scores = bayes_sum[:, -1] / M
    gold = batch_competition_ranks(gold_scores, tol=_TOL).astype(np.int64)
    ranks, tau_b = batch_ranks_tau(np.ascontiguousarray(scores), gold, tol=_TOL)
    conv = int(first_convergence(ranks[:, None, :], gold)[0])
    return Trajectory(
        metric=metric,
        k=1,
        tau=None,
        n=np.asarray(stats.n, dtype=np.int64).copy(),
        ranks=ranks.astype(float),
        scores=scores,
        sigma=sigma,
        gold_ranks=gold,
        kendall_tau=np.asarray(tau_b, dtype=float),
        convergence=None if conv < 0 else conv,
        prior=prior,
    )
