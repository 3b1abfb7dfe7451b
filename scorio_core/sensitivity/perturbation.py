"""Rank stability under random perturbations of one schema's weights and percentile thresholds."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from scorio_core.dynamics.convergence import Cancelled
from scorio_core.errors import InputError
from scorio_core.eval._validate import check_int
from scorio_core.eval.ranking import near_tie_snap
from scorio_core.ranking.rank_batch import batch_group_ranks
from scorio_core.rubric import BoundRubric, resolve_schema
from scorio_core.sensitivity import kernel
from scorio_core.sensitivity._common import _missing_signals, _real, _table, pooled_means_note
from scorio_core.sensitivity.groups import group_labels, groups_note
from scorio_core.uncertainty import PRIOR_LABELS, check_prior
from scorio_core.uncertainty.batch import posterior_shares, posterior_summary_batch
from scorio_core.uncertainty.priors import shortage_cause


@dataclass(frozen=True)
class RubricParameter:
    """One perturbed rubric parameter.

    ``kind`` is "weight" (``value`` is the base weight; samples are scale factors in
    ``[low, high]``) or "threshold" (``value`` is the base percentile; samples are shifts
    in percentile points in ``[low, high]``).
    """

    name: str
    kind: str
    value: float
    low: float
    high: float


@dataclass(frozen=True)
class FlipDriver:
    """How one rubric parameter relates to a change of leader.

    Attributes
    ----------
    parameter : str
        :attr:`RubricParameter.name`.
    kind : str
        "weight" or "threshold".
    correlation : float
        Pearson correlation between the sampled value and the leader-change indicator
        (NaN when either is constant).
    flip_rate_low, flip_rate_high : float
        Share of perturbations with a leader change among those where the parameter lies
        in the lowest / highest third of its sampling range (NaN if none).
    smallest_change : float or None
        Smallest change of this parameter alone (others at their base values) after which
        another model overtakes the leader: a relative weight change (``-0.17`` = weight
        times 0.83) or a percentile shift in points; None if none within the search range.
    new_leader : str or None
        The model that overtakes first at ``smallest_change``.
    """

    parameter: str
    kind: str
    correlation: float
    flip_rate_low: float
    flip_rate_high: float
    smallest_change: float | None
    new_leader: str | None


@dataclass(frozen=True, eq=False)
class PerturbationResult:
    """Rank stability of L models over ``n`` randomly perturbed versions of one schema.

    Attributes
    ----------
    schema : str
    models : tuple of str, length L
    n : int
        Perturbed rubrics.
    weight_range : float
        ``r``: weights scaled by ``U(1 - r, 1 + r)``.
    threshold_shift : float
        ``d``: percentile thresholds shifted by ``U(-d, d)`` points (within [0, 100]).
    seed : int
    parameters : tuple of RubricParameter
        Perturbed parameters (non-zero weights, then percentile thresholds).
    samples : ndarray of float64, shape (n, len(parameters))
        Sampled factor (weights) or shift (thresholds) of every perturbation.
    base_mu : ndarray of float64, shape (L,)
        Bayes@N means under the unperturbed schema.
    base_ranks : ndarray of float64, shape (L,)
    ranks : ndarray of float64, shape (n, L)
        Competition ranks under each perturbed rubric.
    rank_share : ndarray of float64, shape (L, L)
        ``rank_share[i, r - 1]``: share of perturbed rubrics in which model i has rank r
        (rows sum to 1; tied models share the better rank).
    leader : str
        Leader under the unperturbed schema (first in model order among tied leaders); where the models fall into
        groups that share no question, the leader of the first of ``groups`` (the largest).
    leader_kept : float
        Share of perturbed rubrics in which ``leader`` still ranks first (ties included).
    drivers : tuple of FlipDriver
        One per parameter, in the order of ``parameters``.
    assumptions : tuple of str
    notes : tuple of str
    groups : tuple of tuple of str
        Models (best first under the unperturbed schema) of each group that shares no question with the others,
        largest first; empty when every model is linked. With groups, every rank (``base_ranks``, ``ranks``,
        ``rank_share``) is a rank within the model's group, as the leaderboard ranks them, and the leader and the
        drivers are those of the first group.
    """

    schema: str
    models: tuple[str, ...]
    n: int
    weight_range: float
    threshold_shift: float
    seed: int
    parameters: tuple[RubricParameter, ...]
    samples: np.ndarray
    base_mu: np.ndarray
    base_ranks: np.ndarray
    ranks: np.ndarray
    rank_share: np.ndarray
    leader: str
    leader_kept: float
    drivers: tuple[FlipDriver, ...]
    assumptions: tuple[str, ...]
    notes: tuple[str, ...]
    groups: tuple[tuple[str, ...], ...] = ()

    @property
    def leader_share(self) -> np.ndarray:
        """Share of perturbed rubrics in which each model ranks first, shape (L,)."""
        return self.rank_share[:, 0]



# --------------------------------------------------------------------------- perturbation
def perturb_rubric(
    attempts,
    schema,
    *,
    n: int = 200,
    weight_range: float = 0.2,
    threshold_shift: float = 5.0,
    seed: int = 0,
    max_tokens: int | None = None,
    thresholds: dict | None = None,
    search_weight: float = 1.0,
    search_shift: float = 25.0,
    progress: Callable[[float], object] | None = None,
    prior: str = "uniform",
) -> PerturbationResult:
    r"""Rank stability under random perturbations of one rubric's weights and thresholds.

    Parameters
    ----------
    attempts : pandas.DataFrame or SignalTable
        Canonical attempt table (as :func:`schema_ranks`).
    schema : str, dict or Schema
        The rubric to perturb.
    n : int, default 200
        Number of perturbed rubrics.
    weight_range : float, default 0.2
        ``r`` in [0, 1]: every weight is multiplied by an independent ``U(1 - r, 1 + r)``.
    threshold_shift : float, default 5.0
        ``d`` in [0, 100]: every percentile threshold moves by an independent
        ``U(-d, d)`` percentile points, restricted to [0, 100] (a 95th percentile with
        ``d = 10`` is drawn from [85, 100]).
    seed : int, default 0
        Seed of the draws (``numpy.random.default_rng``).
    max_tokens : int, optional
        Generation limit for ``token_ratio``.
    thresholds : dict, optional
        Frozen threshold values (``{name: value}``); frozen thresholds are not perturbed.
    search_weight : float, default 1.0
        Largest relative change searched for :attr:`FlipDriver.smallest_change` of a weight.
    search_shift : float, default 25.0
        Largest percentile shift searched (1-point steps) for a threshold.
    progress : callable, optional
        ``progress(fraction_done)``; returning False stops the run with :class:`Cancelled`.
    prior : {"uniform", "jeffreys", "empirical-bayes"}, default "uniform"
        Prior of Bayes@N (:func:`scorio_core.uncertainty.batch.posterior_shares`). The
        empirical-Bayes prior is fitted to the category counts, so it is refitted when a
        threshold moves and not when a weight changes.

    Returns
    -------
    PerturbationResult

    Raises
    ------
    InputError
        Count-only data, an unknown schema, a schema whose signals are absent, or fewer
        than 2 scored models.
    TypeError, ValueError
        Arguments of the wrong type or outside their range.
    Cancelled
        When ``progress`` returns False.

    Notes
    -----
    A leader change is a perturbed rubric under which the base leader no longer ranks
    first. Bayes@N means are linear in the weights, ``mu_i(w) = sum_j w_j P_ij`` with
    ``P_ij`` the posterior mean share of category j (under any of the priors), so the smallest single-weight change
    after which model i overtakes the leader l is ``(mu_l - mu_i) / (w_j (P_ij - P_lj))``,
    solved exactly; thresholds are searched in 1-point steps outward from the base.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [("a", q, t, float(q < 2), float(t % 2)) for q in range(3) for t in range(4)]
    >>> rows += [("b", q, t, float(q < 1), 1.0) for q in range(3) for t in range(4)]
    >>> df = pd.DataFrame(rows, columns=["model", "question_id", "trial", "is_correct", "has_box"])
    >>> res = perturb_rubric(df, "Format Compliance & Correctness", n=50, seed=1)
    >>> res.leader, res.leader_kept                  # b leads in 8% of the perturbed rubrics
    ('a', 0.92)
    >>> [(d.parameter, round(d.smallest_change, 2)) for d in res.drivers if d.smallest_change is not None]
    [('weight: Obedient but Wrong', 0.33), ('weight: Correct but Unformatted', -0.25)]
    """
    n = check_int(n, "n", 1)
    r = _real(weight_range, "weight_range", 0.0, 1.0)
    d = _real(threshold_shift, "threshold_shift", 0.0, 100.0)
    seed = check_int(seed, "seed", 0)
    search_weight = _real(search_weight, "search_weight", 0.0, 10.0)
    search_shift = _real(search_shift, "search_shift", 0.0, 100.0)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable or None; got {type(progress).__name__}.")
    table = _table(attempts, max_tokens)
    schema = resolve_schema(schema)
    missing = _missing_signals(schema, table)
    if missing:
        raise InputError(f"schema {schema.name!r} needs {', '.join(missing)}, which the data does not have.")
    bound = BoundRubric(table, schema)
    frozen = dict(thresholds or {})
    cells = kernel.cells(table.frame)
    K = len(schema.categories)
    w = schema.weights

    prior = check_prior(prior)
    base_codes = bound.codes(frozen or None)
    base_counts = kernel.category_counts(base_codes, cells, K)
    basis = posterior_shares(base_counts, prior, cells.strata)  # (L, K): mu = basis @ w for any weights
    base_mu = basis @ w
    scored = np.isfinite(base_mu)
    if scored.sum() < 2:
        raise InputError(f"ranking needs at least 2 models with matched attempts under {schema.name!r}; got {int(scored.sum())}.")
    # models that share no question (across every task): means of different groups average different questions, so
    # each group is ranked alone (as the leaderboard) and the leader, its flips and drivers are the largest group's
    group_of, member, groups = group_labels(base_counts.sum(axis=2), base_mu, scored, cells.models)
    rank_of = kernel.ranks if group_of is None else (lambda m: batch_group_ranks(
        np.where(np.isfinite(m), m, -np.inf), group_of).astype(float))
    in_group = np.where(member, base_mu, np.nan)
    # the first model among those tied for first within the leaderboard's near-tie rule (all weights equal gave 0.5 and
    # 0.5000000000000001: the leader was a rounding's, not the first in model order as documented: helper QA)
    snapped = near_tie_snap(in_group)
    tied_first = np.flatnonzero(snapped == np.nanmax(snapped))
    leader = int(tied_first[0])

    weight_idx = [j for j in range(K) if w[j] != 0.0]
    pct = [t for t in schema.thresholds if t.kind == "percentile" and t.name not in frozen]
    lows = np.array([max(-d, -t.percentile) for t in pct])
    highs = np.array([min(d, 100.0 - t.percentile) for t in pct])
    rng = np.random.default_rng(seed)
    factors = rng.uniform(1.0 - r, 1.0 + r, size=(n, K))
    shifts = rng.uniform(lows, highs, size=(n, len(pct))) if pct else np.zeros((n, 0))

    def codes_for(shift_values) -> np.ndarray:
        shift = {t.name: float(v) for t, v in zip(pct, shift_values) if v != 0.0}
        return bound.codes(frozen or None, shift or None) if shift else base_codes

    search_cost = len(pct) * 2 * int(search_shift)
    total = n + search_cost
    step = max(1, total // 50)
    if pct:  # moved thresholds change the categories: one posterior per perturbed rubric, fitted in batches
        mu = np.empty((n, len(cells.models)))
        chunk = max(step, 40)  # 40 rubrics per batched fit: a progress update every few seconds on large data
        for start in range(0, n, chunk):
            stop = min(n, start + chunk)
            shares = kernel.shares_of([codes_for(shifts[p]) for p in range(start, stop)], cells, K, prior)
            mu[start:stop] = np.einsum("plk,pk->pl", shares, w * factors[start:stop])
            if progress is not None and progress(stop / total) is False:
                raise Cancelled(f"rubric perturbation cancelled after {stop} of {n} rubrics.")
    else:  # weights only: linear in the weights, all perturbations at once
        mu = (w * factors) @ basis.T
        if progress is not None and progress(n / total) is False:
            raise Cancelled(f"rubric perturbation cancelled after {n} of {n} rubrics.")
    ranks = rank_of(mu)
    flip = ranks[:, leader] > 1
    L = len(cells.models)
    share = (ranks[:, :, None] == np.arange(1, L + 1)).mean(axis=0)

    parameters, samples, drivers = [], [], []
    labels = schema.labels
    for j in weight_idx:
        parameters.append(RubricParameter(f"weight: {labels[j]}", "weight", float(w[j]), 1.0 - r, 1.0 + r))
        samples.append(factors[:, j])
        change, who = kernel.weight_flip(in_group, basis[:, j] * w[j], leader, search_weight)
        drivers.append(_driver(parameters[-1], factors[:, j], flip, change, who, cells.models))
    for i, t in enumerate(pct):
        parameters.append(RubricParameter(f"threshold: {t.name}", "threshold", float(t.percentile), float(lows[i]), float(highs[i])))
        samples.append(shifts[:, i])
        change, who = kernel.threshold_flip(
            lambda steps, i=i: np.where(member, kernel.shares_of([codes_for(np.eye(len(pct))[i] * s) for s in steps],
                                                                 cells, K, prior) @ w, np.nan),
            t.percentile, leader, search_shift,
        )
        drivers.append(_driver(parameters[-1], shifts[:, i], flip, change, who, cells.models))
        if progress is not None and progress((n + 2 * int(search_shift) * (i + 1)) / total) is False:
            raise Cancelled("rubric perturbation cancelled during the threshold search.")

    notes = []
    if groups:
        notes.append(groups_note(groups, ranks, cells.models))
    if tied_first.size > 1:
        names = [cells.models[i] for i in tied_first]
        notes.append(f"{len(names)} models tie for first under the unperturbed rubric ({', '.join(names[:5])}"
                     f"{', ...' if len(names) > 5 else ''}): the leader is the first of them in model order, and any "
                     "change that separates them can put another first")
    if len(weight_idx) == 1 and not pct:  # one weight scaled by a positive factor: every rank stays as it is
        notes.append(f"one non-zero weight ({labels[weight_idx[0]]}) and no percentile threshold to move: scaling it "
                     "cannot change any rank, so the leader keeps rank 1 by construction; this says nothing about "
                     "robustness (a rubric with more weighted categories, or thresholds, can)")
    zero = [labels[j] for j in range(K) if w[j] == 0.0]
    if zero:
        notes.append(f"weights equal to 0 stay 0 under relative scaling: {', '.join(zero)}")
    fixed = [t.name for t in schema.thresholds if t.kind != "percentile" or t.name in frozen]
    if fixed:
        notes.append(f"absolute or frozen thresholds are not perturbed: {', '.join(fixed)}")
    if not scored.all():
        notes.append(f"{int((~scored).sum())} models have no matched attempt and rank last")
    if prior == "empirical-bayes":
        fell_back = np.char.startswith(posterior_summary_batch(base_counts, w, prior=prior, strata=cells.strata)
                                       .method.astype(str), "fallback")
        note = pooled_means_note([cells.models[i] for i in np.flatnonzero(fell_back)], tasks_pooled=cells.strata is not None,
                                 cause=shortage_cause(base_counts[fell_back]))
        if note:
            notes.append(note)
    assumptions = (
        f"each non-zero weight is multiplied by an independent U({1 - r:g}, {1 + r:g}) factor; "
        "scaling every weight by one common factor would not change the ranking",
        f"each percentile threshold moves by an independent U(-{d:g}, {d:g}) percentile points "
        "(within 0..100) and is recomputed from the same attempts, pooled over models",
        f"ranks are competition ranks of the Bayes@N posterior mean ({PRIOR_LABELS[prior]}); "
        "questions and trials are taken as independent",
    )
    return PerturbationResult(
        schema=schema.name,
        models=cells.models,
        n=n,
        weight_range=r,
        threshold_shift=d,
        seed=seed,
        parameters=tuple(parameters),
        samples=np.stack(samples, axis=1) if samples else np.zeros((n, 0)),
        base_mu=base_mu,
        base_ranks=rank_of(base_mu[None])[0],
        ranks=ranks,
        rank_share=share,
        leader=cells.models[leader],
        leader_kept=float(1.0 - flip.mean()),
        drivers=tuple(drivers),
        assumptions=assumptions,
        notes=tuple(notes),
        groups=groups,
    )


def _driver(param: RubricParameter, x: np.ndarray, flip: np.ndarray, change, who, models) -> FlipDriver:
    corr, low, high = kernel.flip_rates(x, flip, param.low, param.high)
    return FlipDriver(param.name, param.kind, corr, low, high, change, None if who is None else models[who])
