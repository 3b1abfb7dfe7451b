"""How sure is each method's rank? A percentile bootstrap over questions, the same resamples for every method.

Every replicate draws M questions with replacement from the M questions of the response tensor R
(models x questions x trials) and ranks the models of the resampled tensor under every chosen method
of :mod:`scorio_core.rank` (and under caller-computed scores such as Bayes@N or IRT ability, through
``extra_fn``). The replicate indices are drawn once, ``rng.integers(0, M, size=(n_boot, M))`` with
``rng = np.random.default_rng(seed)``, and every method ranks the same resamples, so two methods'
intervals differ by the method, not by the draws, and a method's ranks do not depend on which other
methods are in the list.

The interval of a model's rank under a method is the percentile interval of its bootstrap ranks
(Efron & Tibshirani, "An Introduction to the Bootstrap", 1993, ch. 13): the ``(1 - c) / 2`` and
``(1 + c) / 2`` quantiles with ``np.nanquantile(..., method="inverted_cdf")``, which returns an
observed bootstrap rank, so the bounds are attainable integer competition ranks. Resampling the
questions treats the benchmark's questions as a sample from a population of questions: the interval
covers the questions-sampled scope (Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265), not
the trial-to-trial noise on these fixed questions.

Cost: ``n_boot`` times each method's time on one tensor (most iterative methods cannot be vectorised across
replicates); ``avg`` is ranked for every replicate in one numpy pass, Bradley-Terry, Davidson, Rao-Kupper and
their MAP by one batched Newton solve of all resamples
(:mod:`scorio_core.rank.likelihood.paired_batch`: the optimum the one-at-a-time
fits approach, the same ranks but where strengths tie), and caller scores given through ``batch_fn`` (Bayes@N:
every resample's posterior in one batched call) in one call.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from scorio_core.rank.ties import near_tie_ranks, settled_ranks
from scorio_core.rank.likelihood.paired_batch import BATCHED_METHODS, fits_in_memory, method_resamples

__all__ = ["BATCHED_MODELS", "RESAMPLE_WHEN_SMALL", "RankBootstrap", "SLOW_TO_RESAMPLE", "bootstrap_ranks", "quick_to_resample"]

#: Scope of the interval (what is resampled), as the rest of the project names it.
SCOPE = "questions-sampled"

#: Methods whose one ranking of a benchmark-sized tensor can take 30 ms to seconds (iterative likelihood fits,
#: samplers, exact Kemeny-Young, alpha-rank, rating replays; measured on the bundled MathArena and paper data),
#: so that 200 resamples can take minutes: interactive views resample them only where
#: :func:`quick_to_resample` says the data are small enough, and say so otherwise; the CLI runs any method.
SLOW_TO_RESAMPLE = frozenset({
    "bradley_terry", "bradley_terry_map", "bradley_terry_davidson", "bradley_terry_davidson_map",
    "bradley_terry_luce", "bradley_terry_luce_map", "rao_kupper", "rao_kupper_map", "plackett_luce",
    "plackett_luce_map", "davidson_luce", "davidson_luce_map", "rasch", "rasch_map", "rasch_2pl", "rasch_2pl_map",
    "rasch_3pl", "rasch_3pl_map", "rasch_mml", "rasch_mml_credible", "dynamic_irt", "mirt", "thompson",
    "bayesian_mcmc", "elo", "glicko", "trueskill", "kemeny_young", "alpharank",
})

#: Methods of :data:`SLOW_TO_RESAMPLE` that rank small data in a few milliseconds: ``{name: (most models, most
#: model x question cells)}`` (``None``: no bound on the cells). Measured one ranking at a time on 2 cores
#: (2026-11-29; seeded 2PL tensors and the bundled data): the paired-comparison fits work on the L x L win
#: counts, 2.3-5.3 ms (Bradley-Terry, Rao-Kupper and their MAP) and 3.3-10.9 ms (Davidson) from 10 to 24 models
#: whatever M x N (10 x 1000 x 5, 24 x 2000 x 1, 20 x 30 x 80); Rasch and dynamic IRT fit L + M parameters,
#: 1.6-3.8 ms up to 24 x 80 questions and 23-47 ms at 24 x 400 or 10 x 1000. Plackett-Luce (MAP) also fits on
#: pooled comparison counts (up to 100 models it shares Bradley-Terry MAP's batched solve; this bound is for data
#: too large for that): 3.6-5.9 ms at 12-20 models whatever M x N (20 x 1000 x 8, 20 x 100 x 80, 12 x 2000 x
#: 4), 11-23 ms at 30 models; 200 resamples of the bundled data 0.9-1.9 s (MathArena 16 x 15, the paper simulation
#: 20 x 30 x 80, ARC 12 x 415). Left out after measuring: the Plackett-Luce MLE (no finite estimate on 95 of 200
#: MathArena resamples, 3.4 s), Thompson sampling (2.0-4.7 s per 200 on the bundled data), Elo (24 s on the paper
#: simulation: one update per trial), Kemeny-Young (0.13-0.53 s per ranking of 8-12 models without a clear order).
#: Within these bounds 200 resamples take about 0.5-2 s.
RESAMPLE_WHEN_SMALL = {
    "bradley_terry": (30, None), "bradley_terry_map": (30, None), "bradley_terry_davidson": (30, None),
    "bradley_terry_davidson_map": (30, None), "rao_kupper": (30, None), "rao_kupper_map": (30, None),
    "plackett_luce_map": (20, None),
    "rasch": (30, 2_500), "rasch_map": (30, 2_500), "dynamic_irt": (30, 2_500),
}


#: Bradley-Terry, Davidson, Rao-Kupper and their MAP (and Plackett-Luce MAP) resample in one batched Newton solve
#: (:mod:`~scorio_core.rank.likelihood.paired_batch`):
#: 200 resamples in 0.06-1.0 s up to 100 models on a quiet 2-core machine (30 x 100 x 4 to 100 x 2,500 x 1; 0.4-2.8 s
#: at 64 models under load 6), while the per-question win counts fit in memory; against 1-72 s one fit at a time
#: (`benchmarks/bench_bootstrap_paired.py`, 2026-11-29). 100 is also where the app stops offering them
#: (:data:`scorio_core.rank.agreement.EXPENSIVE`), so wherever they are offered they get an interval.
BATCHED_MODELS = 100


def quick_to_resample(method: str, n_models: int, n_questions: int, *, with_options: bool = False) -> bool:
    """Whether an interactive view bootstraps ``method``'s ranks on data of this size (200 rankings in ~2 s).

    Parameters
    ----------
    method : str
        A ranking method's name (or a caller's, such as ``"bayes"``).
    n_models, n_questions : int
        The models and questions that method ranks.
    with_options : bool, default False
        Whether the method runs with keyword options: :func:`bootstrap_ranks` then ranks each resample with
        its own fit instead of the batched solve, so only :data:`RESAMPLE_WHEN_SMALL`'s bounds apply.

    Returns
    -------
    bool
        True for a method outside :data:`SLOW_TO_RESAMPLE`, for one of :data:`RESAMPLE_WHEN_SMALL` within
        its bounds, and for Bradley-Terry, Davidson and Rao-Kupper (ML or MAP) and Plackett-Luce MAP up to
        :data:`BATCHED_MODELS` models while their per-question counts fit in memory; False otherwise (the
        view gives a point ranking and names the CLI command for an interval).
        Deterministic: the same data give the same answer on any machine.
    """
    if method not in SLOW_TO_RESAMPLE:
        return True
    if (method in BATCHED_METHODS and not with_options and n_models <= BATCHED_MODELS
            and fits_in_memory(n_models, n_questions)):
        return True
    bound = RESAMPLE_WHEN_SMALL.get(method)
    if bound is None:
        return False
    most_models, most_cells = bound
    return n_models <= most_models and (most_cells is None or n_models * n_questions <= most_cells)


@dataclass(frozen=True)
class RankBootstrap:
    """Bootstrap ranks of L models under K methods over the same ``n_boot`` question resamples.

    Attributes
    ----------
    models : tuple of str, length L
    methods : tuple of str, length K
    ranks : ndarray of float, shape (n_boot, K, L)
        Competition ranks (1 = best) of every replicate; NaN where the method raised on that replicate.
    lo, hi : ndarray of float, shape (K, L)
        Percentile interval of the ranks at ``confidence`` (``np.nanquantile``, ``method="inverted_cdf"``:
        bounds are ranks some replicate gave); NaN for a method that failed on every replicate.
    median : ndarray of float, shape (K, L)
        The 0.5 quantile, same rule (``lo <= median <= hi``).
    failed : dict of str to int
        Methods that raised ``ValueError``/``RuntimeError`` on some replicates, with how many (methods that
        never failed are left out); their interval uses the other replicates.
    n_boot : int
    confidence : float
    seed : int
    """

    models: tuple[str, ...]
    methods: tuple[str, ...]
    ranks: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    median: np.ndarray
    failed: dict
    n_boot: int
    confidence: float
    seed: int

    def rows(self, observed=None) -> list[dict]:
        """One JSON-ready record per (model, method), models in order, methods in order within a model.

        Parameters
        ----------
        observed : array_like of float, shape (K, L), optional
            The ranks on the full data (e.g. ``MethodAgreement.ranks``), reported as ``rank``.

        Returns
        -------
        list of dict
            ``{"model", "method", "rank" (with ``observed``), "rank_lo", "rank_hi", "rank_median"}``;
            ``None`` bounds where the method failed on every replicate.
        """
        def num(x):
            return None if np.isnan(x) else int(x)

        obs = None if observed is None else np.asarray(observed, dtype=float)
        out = []
        for i, model in enumerate(self.models):
            for k, method in enumerate(self.methods):
                row = {"model": model, "method": method}
                if obs is not None:
                    row["rank"] = num(obs[k, i])
                row.update(rank_lo=num(self.lo[k, i]), rank_hi=num(self.hi[k, i]), rank_median=num(self.median[k, i]))
                out.append(row)
        return out


def _competition(scores: np.ndarray) -> np.ndarray:
    """Competition ranks of each row of ``scores`` (higher is better; NaN last), shape kept; scores within the
    near-tie tolerance share a rank (:func:`scorio_core.rank.ties.near_tie_ranks`), as the observed ranking does."""
    return near_tie_ranks(scores)


def bootstrap_ranks(R, methods, *, models=None, extra_fn=None, batch_fn=None, n_boot: int = 200,
                    confidence: float = 0.95, seed: int = 0, options=None) -> RankBootstrap:
    """Percentile bootstrap over questions of every method's ranks, on the same resamples for all methods.

    Parameters
    ----------
    R : array_like of int, shape (L, M, N) or (L, M)
        Binary outcomes (:func:`scorio_core.rank.agreement.response_tensor`).
    methods : sequence of str
        Names of :mod:`scorio_core.rank` functions of :data:`scorio_core.rank.agreement.METHODS` and/or
        names ``extra_fn`` returns scores for, in display order (repeats count once).
    models : sequence of str, optional
        Model names (default ``"0"``, ``"1"``, ...).
    extra_fn : callable, optional
        ``extra_fn(idx_row) -> {name: scores}``: scores (higher is better, shape (L,), NaN ranks last) of
        caller-computed methods on the resample whose question indices are ``idx_row`` (shape (M,)), e.g.
        Bayes@N on ``counts[:, idx_row]``. A name mapped to ``None`` on a replicate, or ``ValueError``/
        ``RuntimeError`` raised by ``extra_fn``, counts as a failure there; every name of ``methods`` that
        is not a ranking method must be a key of the dict (or of ``batch_fn``'s).
    batch_fn : callable, optional
        ``batch_fn(idx) -> {name: scores}``: caller-computed scores of every resample at once, shape
        (n_boot, L), from the whole index matrix ``idx`` (n_boot, M) (e.g. Bayes@N of all resamples in one
        batched posterior); NaN rows count as failures on those resamples. Names it returns are not asked
        of ``extra_fn``.
    n_boot : int, default 200
        Replicates (at least 1).
    confidence : float, default 0.95
        Coverage of the percentile interval, in (0, 1).
    seed : int, default 0
        Seed of ``np.random.default_rng``; the indices are ``rng.integers(0, M, size=(n_boot, M))``.
    options : dict of str to dict, optional
        Keyword options per ranking method, ``{name: {option: value}}``, passed to every resample's call; a
        method given options is ranked one resample at a time (the one-pass and batched paths use the
        defaults).

    Returns
    -------
    RankBootstrap

    Raises
    ------
    ValueError
        ``n_boot`` < 1, ``confidence`` outside (0, 1), no method, an unknown method (neither a ranking
        method nor returned by ``extra_fn``), ``models`` of the wrong length, or ``extra_fn`` scores of
        the wrong shape.

    Notes
    -----
    Cost: ``n_boot`` times the methods' time on one tensor (plus ``extra_fn``), except ``avg``, ranked for
    all replicates at once from the per-question sums weighted by how often each question was drawn, and
    the ``batch_fn`` names, scored for all replicates in one call.
    """
    import scorio_core.rank as rank
    from scorio_core.rank.agreement import CALLER_SCORED, METHODS

    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 1:
        raise ValueError(f"n_boot must be an integer of at least 1; got n_boot={n_boot!r}.")
    if not isinstance(confidence, (int, float, np.floating)) or not 0.0 < float(confidence) < 1.0:
        raise ValueError(f"confidence must satisfy 0 < confidence < 1; got confidence={confidence!r}.")
    R = np.asarray(R)
    if R.ndim == 2:
        R = R[:, :, None]
    if R.ndim != 3 or R.shape[1] < 1:
        raise ValueError(f"R must have shape (L, M, N) or (L, M) with at least one question; got {R.shape}.")
    L, M = R.shape[:2]
    names = tuple(dict.fromkeys(methods))
    if not names:
        raise ValueError("methods: choose at least one ranking method.")
    models = tuple(str(m) for m in (models if models is not None else range(L)))
    if len(models) != L:
        raise ValueError(f"models has {len(models)} names for {L} models.")
    known = {m for group in METHODS.values() for m in group if callable(getattr(rank, m, None))} - CALLER_SCORED
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, M, size=(int(n_boot), M))  # drawn once: every method ranks the same resamples
    options = {m: dict(kw) for m, kw in (options or {}).items() if kw}
    own = [m for m in names if m in known]
    outside = [m for m in names if m not in known]
    batched = {}
    if outside and batch_fn is not None:
        batched = {name: s for name, s in batch_fn(idx).items() if name in outside}
        outside = [m for m in outside if m not in batched]
    if outside and extra_fn is None:
        raise ValueError(f"methods: unknown ranking method {outside[0]!r} (no extra_fn gives its scores).")

    B, K = idx.shape[0], len(names)
    ranks = np.full((B, K, L), np.nan)
    failed = dict.fromkeys(names, 0)
    slot = {m: k for k, m in enumerate(names)}
    loop = list(own)
    for name, scores in batched.items():  # every resample at once
        scores = np.asarray(scores, dtype=float)
        if scores.shape != (B, L):
            raise ValueError(f"batch_fn scores of {name!r} have shape {scores.shape}; expected ({B}, {L}).")
        bad = np.isnan(scores).all(axis=1)
        ranks[:, slot[name], :] = np.where(bad[:, None], np.nan, _competition(scores))
        failed[name] += int(bad.sum())
    if "avg" in own and "avg" not in options:  # one pass: each replicate's sums are the per-question sums weighted by the draw counts
        try:
            rank.validate_input(R)
        except ValueError:
            pass  # left to the loop, which counts the method's own error on every replicate
        else:
            drawn = np.zeros((B, M))
            np.add.at(drawn, (np.arange(B)[:, None], idx), 1.0)
            ranks[:, slot["avg"], :] = _competition(drawn @ R.sum(axis=2).T.astype(float))
            loop.remove("avg")
    batch = [m for m in loop if m in BATCHED_METHODS and m not in options] if fits_in_memory(L, M) else []
    if batch:
        try:
            rank.validate_input(R)
        except ValueError:
            batch = []  # left to the loop, which counts the method's own error on every replicate
    for name in batch:  # Newton for every resample at once
        scores, bad = method_resamples(name, R, idx)
        ranks[:, slot[name], :] = np.where(bad[:, None], np.nan, _competition(scores))
        failed[name] += int(bad.sum())
        loop.remove(name)
    if "bayesian_mcmc" in loop and "bayesian_mcmc" not in options:  # every resample's chain in lock-step
        from scorio_core.rank.likelihood.bayesian import bayesian_mcmc_resamples
        from scorio_core.rank.ties import rank_scores

        block = max(1, 4_000_000 // (L * L))  # (resamples, L^2) arrays of at most ~32 MB
        for start in range(0, B, block):
            scores = bayesian_mcmc_resamples(R, idx[start:start + block])
            ranks[start:start + len(scores), slot["bayesian_mcmc"]] = [
                settled_ranks(rank_scores(row)["competition"], row) for row in scores]
        loop.remove("bayesian_mcmc")
    for b in range(B if outside or loop else 0):  # iterative methods cannot be vectorised across replicates
        if outside:
            try:
                scores = extra_fn(idx[b])
            except (ValueError, RuntimeError):  # no caller score on this resample
                scores = dict.fromkeys(outside)
            missing = [m for m in outside if m not in scores]
            if missing:
                raise ValueError(f"methods: unknown ranking method {missing[0]!r} (not a ranking method, and "
                                 "extra_fn returns no scores for it).")
            for name in outside:
                s = scores.get(name)
                if s is None:
                    failed[name] += 1
                    continue
                s = np.asarray(s, dtype=float)
                if s.shape != (L,):
                    raise ValueError(f"extra_fn scores of {name!r} have shape {s.shape}; expected ({L},).")
                ranks[b, slot[name]] = _competition(s)
        Rb = R[:, idx[b]] if loop else None
        for name in loop:
            try:
                r, sb = getattr(rank, name)(Rb, method="competition", return_scores=True, **options.get(name, {}))
                ranks[b, slot[name]] = settled_ranks(r, sb)
            except (ValueError, RuntimeError):  # no estimate on this resample: counted, left out of the interval
                failed[name] += 1
    alpha = (1.0 - float(confidence)) / 2.0
    with warnings.catch_warnings():  # a method that failed on every replicate: NaN bounds, no warning
        warnings.simplefilter("ignore", RuntimeWarning)
        lo, median, hi = np.nanquantile(ranks, [alpha, 0.5, 1.0 - alpha], axis=0, method="inverted_cdf")
    return RankBootstrap(models, names, ranks, lo, hi, median, {m: n for m, n in failed.items() if n},
                         B, float(confidence), seed)
