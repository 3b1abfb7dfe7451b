"""Rank trajectories from prefix-count histograms (no attempt tensor).

With binary outcomes every trajectory metric after n trials is a mean over the M questions of
a function of one question's state ``(m, c)``: ``m = min(n, N_q)`` trials seen and ``c``
correct among them. Bayes@n under a Beta(a, a) prior (uniform a = 1, Jeffreys a = 1/2) has
per-question posterior mean ``(c + a) / (m + 2a)`` and variance
``(c + a)(m - c + a) / ((m + 2a)^2 (m + 2a + 1))`` (Hariri et al., "Don't Pass@k", ICLR 2026,
arXiv:2510.04265, section 2, Eq. 15); avg@n uses ``c / m``; the Pass@k family its unbiased
per-question estimator at ``(m, c)`` (:func:`scorio_core.eval.batch.binary_question_scores`).
The empirical-Bayes prior refitted after n trials is the Dirichlet-multinomial maximum marginal
likelihood of the same states. So a histogram "how many questions of model l are in state
(m, c) after n trials" (:class:`StateCounts`, computed in SQL by
:mod:`scorio_core.engines.prefix`) gives every trajectory exactly as
:func:`scorio_core.dynamics.trajectory.rank_trajectory` computes it on the attempt tensor:
ranks, the "data" gold standard (section 2.7), Kendall's tau_b and convergence@n (Appendix I.1,
Appendix J Figure 9).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scorio_core.errors import InputError

__all__ = ["StateCounts", "align_prefix_stats", "check_prefix_support", "trajectory_from_prefix_stats"]

_ALPHA = {"uniform": 1.0, "jeffreys": 0.5}
_TOL = 1e-12


@dataclass(frozen=True, eq=False)
class StateCounts:
    """Sparse histogram of question states: ``count[i]`` questions of model ``model[i]`` have
    ``c[i]`` correct among ``n[i]`` trials (1-D int64 arrays of one length, ``count > 0``)."""

    model: np.ndarray
    n: np.ndarray
    c: np.ndarray
    count: np.ndarray

    @classmethod
    def of(cls, model, n, c, count=None) -> "StateCounts":
        """Distinct ``(model, n, c)`` rows with their total ``count`` (1 each when None), sorted."""
        model, n, c = (np.asarray(x, dtype=np.int64) for x in (model, n, c))
        count = np.ones_like(model) if count is None else np.asarray(count, dtype=np.int64)
        if model.size == 0:
            return cls(model, n, c, count)
        width = int(n.max()) + 1
        key = (model * width + n) * width + c
        uniq, inverse = np.unique(key, return_inverse=True)
        total = np.bincount(inverse.ravel(), weights=count, minlength=uniq.size)
        return cls(uniq // (width * width), uniq // width % width, uniq % width, np.rint(total).astype(np.int64))

    def per_column(self, values: np.ndarray, n_models: int, n_max: int) -> np.ndarray:
        """``sum count * values`` per (model, n), shape (n_models, n_max) (column ``n - 1``)."""
        flat = self.model * n_max + self.n - 1
        return np.bincount(flat, weights=self.count * values, minlength=n_models * n_max).reshape(n_models, n_max)

    def per_model(self, values: np.ndarray, n_models: int) -> np.ndarray:
        """``sum count * values`` per model, shape (n_models,)."""
        return np.bincount(self.model, weights=self.count * values, minlength=n_models)


def check_prefix_support(metric: str, prior: str) -> None:
    """Raise :class:`InputError` unless ``metric`` and ``prior`` name a trajectory metric and prior.

    Every binary trajectory metric (:data:`scorio_core.dynamics.trajectory.TRAJECTORY_METRICS`)
    under every prior (:data:`scorio_core.uncertainty.PRIORS`) runs from prefix counts.
    """
    from scorio_core.dynamics.trajectory_kernel import TRAJECTORY_METRICS
    from scorio_core.uncertainty.priors import PRIORS

    if metric not in TRAJECTORY_METRICS:
        raise InputError(f"unknown trajectory metric {metric!r}; choose one of {', '.join(TRAJECTORY_METRICS)}.")
    if prior not in PRIORS:
        raise InputError(f"unknown prior {prior!r}; choose one of {', '.join(PRIORS)}.")


def _state_values(metric: str, m: np.ndarray, c: np.ndarray, k: int, tau: float | None, a: float | None):
    """Per-state score (and posterior variance for Bayes@n under a fixed prior ``a``)."""
    from scorio_core.eval.batch import _binary_question_scores

    mf, cf = m.astype(np.float64), c.astype(np.float64)
    if metric == "avg":
        return cf / mf, None
    if metric == "bayes":
        total = mf + 2.0 * a
        return (cf + a) / total, (cf + a) * (mf - cf + a) / (total * total * (total + 1.0))
    return _binary_question_scores(metric, c, m, k, tau), None


def _fitted_states(stats, L: int, N: int, every_n: bool):
    """Empirical-Bayes count states per (model, n) (``every_n``) or per model on all trials.

    Returns ``(_CountStates, m, c)``: state ``s`` belongs to fit ``model[s]`` (``l * N + n - 1``
    or ``l``) with ``rows[s] = (m - c, c)``, in the order :func:`fit_dirichlet_prior_batch` sorts
    its states (by fit, then by count row), so the fit equals the one on the attempt tensor.
    """
    from scorio_core.uncertainty.batch_prior import _CountStates

    live, final = stats.live, stats.final
    if every_n:
        # after n trials: the questions with N_q >= n (live), plus those that stopped at j < n with their final state
        carry = np.maximum(N - final.n, 0)
        src = np.repeat(np.arange(final.n.size), carry)
        step = np.arange(src.size) - np.repeat(np.cumsum(carry) - carry, carry)  # 0.. carry-1 within each row
        fit = np.concatenate([live.model * N + live.n - 1, final.model[src] * N + final.n[src] + step])
        m = np.concatenate([live.n, final.n[src]])
        c = np.concatenate([live.c, final.c[src]])
        freq = np.concatenate([live.count, final.count[src]])
        n_fits = L * N
    else:
        fit, m, c, freq, n_fits = final.model, final.n, final.c, final.count, L
    order = np.lexsort((c, m - c, fit))
    fit, m, c, freq = fit[order], m[order], c[order], freq[order]
    rows = np.stack([m - c, c], axis=1).astype(np.float64)
    return _CountStates(n_fits, 2, fit, rows, freq.astype(np.float64)), m, c


def _empirical_bayes(stats, L: int, N: int, every_n: bool, with_sigma: bool):
    """Bayes@n (and its sigma) under the empirical-Bayes prior fitted to the same trials.

    As :func:`scorio_core.dynamics.priors.trajectory_prior_alpha` (fallbacks via
    :func:`~scorio_core.dynamics.priors.pseudo_counts`) and, for sigma,
    :func:`scorio_core.uncertainty.posterior_summary_batch`. Shapes (L, N) or (L,).
    """
    from scorio_core.dynamics.priors import pseudo_counts
    from scorio_core.uncertainty.batch import summary_from_states
    from scorio_core.uncertainty.batch_prior import _fit_states

    st, m, c = _fitted_states(stats, L, N, every_n)
    M = float(stats.n_questions)
    fitted = _fit_states(st)
    alpha = pseudo_counts(fitted, stats.n_questions)  # (fits, 2)
    mean = st.total((alpha[st.model, 1] + c) / (alpha[st.model].sum(axis=1) + m)) / M
    sigma = None
    if with_sigma:
        sigma = summary_from_states(st, np.array([0.0, 1.0]), "empirical-bayes", "questions-fixed", 0.95, fitted).sigma
    shape = (L, N) if every_n else (L,)
    return mean.reshape(shape), None if sigma is None else sigma.reshape(shape)


def trajectory_from_prefix_stats(stats, metric: str = "bayes", prior: str = "uniform", *, k: int = 1,
                                 tau: float | None = None, gold: str = "data"):
    r"""Rank trajectory (any binary metric, n = 1..N_max) from prefix-count histograms.

    Parameters
    ----------
    stats : scorio_core.engines.prefix.PrefixStats
        ``models`` (L names), ``n_questions`` (M), ``n`` (1..N_max) and two :class:`StateCounts`:
        ``live`` (questions with ``N_q >= n`` in state ``(n, c(n))`` for every n) and ``final``
        (every question's state on all its trials, ``(N_q, c)``). Ragged data: after n trials
        question q contributes its first ``min(n, N_q)`` trials (:mod:`scorio_core.dynamics.ragged`).
    metric : {"bayes", "avg", "pass@k", "pass^k", "g-pass@k_tau", "mg-pass@k", "maj@k", "auc@k"}
        Bayes@n (binary weights ``[0, 1]``), avg@n, or a Pass@k-family estimator averaged over
        questions (undefined, NaN, for n < k).
    prior : {"uniform", "jeffreys", "empirical-bayes"}, default "uniform"
        Prior of Bayes@n and of the "data" gold standard: Beta(1, 1) (the paper's),
        Beta(1/2, 1/2), or the Dirichlet fitted to each model's first n trials (refitted for
        every n; the gold standard's to all trials).
    k : int, default 1
        Draws of the Pass@k family, ``1 <= k <= N_max`` (``<=`` the fewest trials of a
        question for ragged data); ignored by "bayes" and "avg".
    tau : float, optional
        Threshold of "g-pass@k_tau", in [0, 1].
    gold : {"data", "replicate"}, default "data"
        The gold standard: "data" (section 2.7, below) or "replicate" (the trajectory's own
        ranking at n = N_max, so convergence@n is the last change of the ranking).

    Returns
    -------
    Trajectory
        As ``rank_trajectory(R, metric, k=k, tau=tau, prior=prior, gold=gold)`` on the attempt
        tensor of the same data: ``ranks``, ``scores`` and ``sigma`` (Bayes@n
        only) of shape (L, N_max), ``gold_ranks`` (L,), ``kendall_tau`` (N_max,), ``convergence``.

    Raises
    ------
    InputError
        Unknown metric or prior.
    ValueError
        ``k`` outside 1..N_max (or above the fewest trials of a question on ragged data),
        ``tau`` missing or outside [0, 1] for "g-pass@k_tau", an unknown ``gold``.

    Notes
    -----
    Each score is ``(1/M) sum over states of count x f(m, c)``: questions still running after n
    trials come from ``live`` at n, questions that stopped at ``N_q < n`` keep their final state
    (an exclusive cumulative sum over ``final``). Under the empirical-Bayes prior the states of
    every (model, n) are fitted at once (:func:`scorio_core.uncertainty.fit_dirichlet_prior_batch`).
    The gold standard is avg@N for complete data under the uniform prior (section 2.7; same
    ranking as Bayes@N), otherwise Bayes@N_max under the prior. Ranks are competition ranks
    with ties within 1e-12 (Figure 9).

    References
    ----------
    Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, section 2 (Eq. 15), section 2.7,
    Appendix I.1, Appendix J (Figure 9).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import numpy as np
    >>> live = StateCounts.of([0, 0, 1, 1], [1, 2, 1, 2], [1, 1, 0, 1])   # R = [[[1, 0]], [[0, 1]]]
    >>> final = StateCounts.of([0, 1], [2, 2], [1, 1])
    >>> s = SimpleNamespace(models=("a", "b"), n_questions=1, n=np.array([1, 2]), live=live, final=final)
    >>> trajectory_from_prefix_stats(s).ranks.tolist()
    [[1.0, 1.0], [2.0, 1.0]]
    >>> trajectory_from_prefix_stats(s, "pass@k", k=2).ranks.tolist()
    [[nan, 1.0], [nan, 1.0]]
    """
    from scorio_core.dynamics.trajectory import Trajectory
    from scorio_core.dynamics.ragged import check_ragged_metric
    from scorio_core.dynamics.trajectory_kernel import check_metric, first_convergence
    from scorio_core.eval.ranking import NEAR_TIE_RTOL, near_tie_ranks
    from scorio_core.ranking.rank_batch import batch_ranks_tau

    if not isinstance(metric, str) or not isinstance(prior, str):
        raise InputError(f"metric and prior must be strings; got {metric!r}, {prior!r}.")
    check_prefix_support(metric, prior)
    if gold not in ("data", "replicate"):
        raise ValueError(f"gold must be 'data' or 'replicate'; got {gold!r}.")
    live, final = stats.live, stats.final
    L, N = len(stats.models), int(np.asarray(stats.n).size)
    M = float(stats.n_questions)
    metric, k, tau = check_metric(metric, k, tau, N)
    check_ragged_metric(metric, k, final.n)
    ragged = bool((final.n < N).any())

    def per_n(values_live, values_final):
        """(L, N) sums over the questions after n trials: live states at n plus the carried final states."""
        out = live.per_column(values_live, L, N)
        done = final.per_column(values_final, L, N)
        carried = np.zeros_like(done)  # a question that stopped at N_q counts from n = N_q + 1 on
        np.cumsum(done[:, :-1], axis=1, out=carried[:, 1:])
        return out + carried

    sigma = None
    eb = prior == "empirical-bayes"
    a = _ALPHA.get(prior)
    if metric == "bayes" and eb:
        scores, sigma = _empirical_bayes(stats, L, N, every_n=True, with_sigma=True)
    else:
        v_live, var_live = _state_values(metric, live.n, live.c, k, tau, a)
        v_final, var_final = _state_values(metric, final.n, final.c, k, tau, a)
        if metric not in ("bayes", "avg"):  # undefined for n < k: the live states there are NaN
            v_live = np.where(live.n >= k, v_live, 0.0)
        scores = per_n(v_live, v_final) / M
        scores[:, : k - 1] = np.nan
        if metric == "bayes":
            sigma = np.sqrt(per_n(var_live, var_final)) / M
    if gold == "replicate":  # the trajectory's own final ranking
        gold_scores = scores[:, -1]
    elif prior == "uniform" and not ragged:  # avg@N_max: the ranking of Bayes@N_max under the uniform prior
        gold_scores = final.per_model(final.c / final.n, L) / M
    elif eb:
        gold_scores = scores[:, -1] if metric == "bayes" else _empirical_bayes(stats, L, N, False, False)[0]
    else:  # Bayes@N_max under the fixed prior
        gold_scores = final.per_model(_state_values("bayes", final.n, final.c, 1, None, a)[0], L) / M
    # the leaderboard's tie rule (relative 1e-6) for the gold standard and the ranks after n trials alike
    gold = near_tie_ranks(gold_scores).astype(np.int64)
    first = k - 1
    defined, tau_b = batch_ranks_tau(np.ascontiguousarray(scores[:, first:]), gold, tol=_TOL, rtol=NEAR_TIE_RTOL)
    ranks = np.zeros((L, N), dtype=np.int64)
    ranks[:, first:] = defined
    kendall = np.full(N, np.nan)
    kendall[first:] = tau_b
    conv = int(first_convergence(ranks[:, None, :], gold)[0])
    float_ranks = ranks.astype(float)
    float_ranks[:, :first] = np.nan
    return Trajectory(
        metric=metric,
        k=k,
        tau=tau,
        n=np.arange(1, N + 1, dtype=np.int64),
        ranks=float_ranks,
        scores=scores,
        sigma=sigma,
        gold_ranks=gold,
        kendall_tau=kendall,
        convergence=None if conv < 0 else conv,
        prior=prior,
    )


def align_prefix_stats(stats, models, n_trials: np.ndarray, n_correct: np.ndarray):
    """Prefix-count statistics with their models in the order ``models``, if they describe exactly this data.

    A count table's trial order kept as prefix counts (``Dataset.trial_prefix``) is used for a
    block only when it belongs to it: the same models, the same number of questions and N_max,
    and, per model, the same histogram of final question states ``(N_lq, c_lq)`` as the
    block's counts. Anything else (another rubric, a question subset, data changed by a
    quality choice) gives None, and the trial order is then unknown.

    Parameters
    ----------
    stats : PrefixStats or None
        :class:`scorio_core.engines.prefix.PrefixStats` of one task.
    models : sequence of str, length L
        The block's models, in its order.
    n_trials, n_correct : ndarray of int, shape (L, M)
        Trials and correct answers of every (model, question) cell of the block.

    Returns
    -------
    PrefixStats or None
        ``stats`` with ``models`` reordered (and the histograms' model indices with them).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> s = SimpleNamespace(models=("b", "a"), n_questions=1, n=np.array([1, 2]),
    ...                     live=StateCounts.of([0, 0, 1, 1], [1, 2, 1, 2], [0, 1, 1, 1]),
    ...                     final=StateCounts.of([0, 1], [2, 2], [1, 1]))
    >>> align_prefix_stats(s, ["a", "b"], np.array([[2], [2]]), np.array([[1], [1]])) is None
    False
    >>> align_prefix_stats(s, ["a", "b"], np.array([[2], [2]]), np.array([[2], [1]])) is None
    True
    """
    import dataclasses

    models = tuple(str(m) for m in models)
    n_trials, n_correct = np.asarray(n_trials, dtype=np.int64), np.asarray(n_correct, dtype=np.int64)
    if stats is None or n_trials.ndim != 2 or n_trials.shape != n_correct.shape or n_trials.size == 0:
        return None
    L, M = n_trials.shape
    if len(models) != L or sorted(stats.models) != sorted(models) or int(stats.n_questions) != M:
        return None
    if np.asarray(stats.n).size != int(n_trials.max()):
        return None
    where = {m: i for i, m in enumerate(models)}
    perm = np.array([where[m] for m in stats.models], dtype=np.int64)

    def moved(st: StateCounts) -> StateCounts:
        return StateCounts.of(perm[st.model], st.n, st.c, st.count)

    final = moved(stats.final)
    want = StateCounts.of(np.repeat(np.arange(L), M), n_trials.ravel(), n_correct.ravel())
    if any(not np.array_equal(getattr(final, f), getattr(want, f)) for f in ("model", "n", "c", "count")):
        return None
    try:
        return dataclasses.replace(stats, models=models, live=moved(stats.live), final=final)
    except TypeError:  # not a dataclass (a namespace in tests): a copy with the new fields
        return type(stats)(**{**vars(stats), "models": models, "live": moved(stats.live), "final": final})
