"""Rubric sensitivity: how much a Bayes@N ranking depends on the rubric.

Two questions (Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, Appendix F.1,
Figure 7; section 2.7.1 for credible-interval ties):

* **Across schemata** (:func:`schema_ranks`): the competition rank of every model under each
  of several rubric schemata, with and without credible-interval ties (the bump chart of
  Figure 7).
* **Under perturbation** (:func:`perturb_rubric`): random rubrics around one schema, each
  weight scaled by ``U(1 - r, 1 + r)`` and each percentile threshold shifted by ``U(-d, d)``
  percentile points; per model the share of perturbed rubrics in which it holds each rank,
  and which parameters flip the leader (correlation, conditional flip rates and the
  smallest single-parameter change that does).

numpy/pandas only. The attempt table is converted to rubric signals once
(:class:`scorio_core.rubric.SignalTable`); every perturbation re-derives only the
thresholds (:meth:`scorio_core.rubric.BoundRubric.codes`), tallies category counts with one
``bincount`` and scores all models with :func:`scorio_core.eval.batch.bayes_batch`; there is
no Python loop over attempts, questions or models.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from scorio_core import sensitivity_kernel as kernel
from scorio_core.convergence import Cancelled
from scorio_core.errors import InputError
from scorio_core.eval._validate import check_confidence, check_int
from scorio_core.rank import TIE_RULES, competition_ranks, ranks_with_ties
from scorio_core.rubric import BoundRubric, Schema, SignalTable, resolve_schema

__all__ = [
    "SkippedSchema",
    "SchemaRanks",
    "RubricParameter",
    "FlipDriver",
    "PerturbationResult",
    "applicable_schemas",
    "schema_ranks",
    "perturb_rubric",
    "Cancelled",
]


class SkippedSchema(NamedTuple):
    """A schema that could not be applied to the data, and why."""

    schema: str
    missing: tuple[str, ...]
    reason: str


@dataclass(frozen=True, eq=False)
class SchemaRanks:
    """Bayes@N ranks of L models under S rubric schemata (paper Figure 7).

    Attributes
    ----------
    models : tuple of str, length L
        In order of first appearance in the attempt table.
    schemas : tuple of str, length S
        Schemata that apply to the data, in the order asked for.
    mu, sigma : ndarray of float64, shape (S, L)
        Bayes@N posterior mean and standard deviation (uniform prior, rubric weights, in the
        schema's weight units); NaN for a model none of whose attempts matched.
    ranks : ndarray of float64, shape (S, L)
        Competition ranks of ``mu`` (1 = best; ties within 1e-12 share the better rank).
    ranks_ci : ndarray of float64, shape (S, L)
        Ranks with credible-interval ties under ``tie_rule`` at ``confidence``.
    unmatched : ndarray of int64, shape (S,)
        Attempts no category of the schema matched (excluded from scoring, never filled).
    confidence : float
    tie_rule : str
    skipped : tuple of SkippedSchema
        Schemata left out because a signal they read is absent from the data.
    notes : tuple of str
    """

    models: tuple[str, ...]
    schemas: tuple[str, ...]
    mu: np.ndarray
    sigma: np.ndarray
    ranks: np.ndarray
    ranks_ci: np.ndarray
    unmatched: np.ndarray
    confidence: float
    tie_rule: str
    skipped: tuple[SkippedSchema, ...]
    notes: tuple[str, ...]


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
        Leader under the unperturbed schema (first in model order among tied leaders).
    leader_kept : float
        Share of perturbed rubrics in which ``leader`` still ranks first (ties included).
    drivers : tuple of FlipDriver
        One per parameter, in the order of ``parameters``.
    assumptions : tuple of str
    notes : tuple of str
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

    @property
    def leader_share(self) -> np.ndarray:
        """Share of perturbed rubrics in which each model ranks first, shape (L,)."""
        return self.rank_share[:, 0]


# --------------------------------------------------------------------------- validation
def _table(attempts, max_tokens) -> SignalTable:
    if attempts is None:
        raise InputError(
            "rubric sensitivity needs attempt-level data with signals; count tables only "
            "support binary correctness."
        )
    if isinstance(attempts, SignalTable):
        return attempts
    if not isinstance(attempts, pd.DataFrame):
        raise TypeError(f"attempts must be a pandas DataFrame or SignalTable; got {type(attempts).__name__}.")
    if attempts.empty:
        raise InputError("the attempt table is empty.")
    return SignalTable(attempts, max_tokens=max_tokens)


def _missing_signals(schema: Schema, table: SignalTable) -> tuple[str, ...]:
    return tuple(s for s in schema.signals if bool(table.missing(s).all()))


def _real(value: object, name: str, low: float, high: float) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number; got {value!r}.")
    if not low <= float(value) <= high:
        raise ValueError(f"{name} must satisfy {low:g} <= {name} <= {high:g}; got {name}={value}.")
    return float(value)


# --------------------------------------------------------------------------- across schemata
def applicable_schemas(attempts, schemas: Sequence, *, max_tokens: int | None = None):
    """Split schemata into those the data can support and those it cannot.

    A schema applies when every signal it reads is present (a column with at least one
    non-missing value, possibly derived, e.g. ``token_ratio`` from token counts).

    Parameters
    ----------
    attempts : pandas.DataFrame or SignalTable
        Canonical attempt table.
    schemas : sequence of (str, dict or Schema)
        Built-in names, rubric JSON documents or schemas.
    max_tokens : int, optional
        Generation limit for ``token_ratio`` when the data has no ``max_tokens`` column.

    Returns
    -------
    applicable : list of Schema
    skipped : list of SkippedSchema

    Raises
    ------
    InputError
        Count-only data (``attempts`` is None), an unknown schema name or a bad document.
    """
    table = _table(attempts, max_tokens)
    applicable, skipped = [], []
    for spec in schemas:
        schema = resolve_schema(spec)
        missing = _missing_signals(schema, table)
        if missing:
            reason = f"needs {', '.join(missing)}, which the data does not have"
            skipped.append(SkippedSchema(schema.name, missing, reason))
        else:
            applicable.append(schema)
    return applicable, skipped


def schema_ranks(
    attempts,
    schemas: Sequence,
    *,
    confidence: float = 0.95,
    tie_rule: str = "paper",
    max_tokens: int | None = None,
) -> SchemaRanks:
    r"""Bayes@N ranks of every model under several rubric schemata (paper Figure 7).

    Parameters
    ----------
    attempts : pandas.DataFrame or SignalTable
        Canonical attempt table of the analysis (``model``, ``question_id``, optional
        ``task``, signals). Questions are (task, question) pairs; percentile thresholds are
        computed over all rows passed in, pooled across models.
    schemas : sequence of (str, dict or Schema)
        Schemata to compare; those whose signals are absent are skipped and reported.
    confidence : float, default 0.95
        Credibility of the CI ties (one-sided z, paper section 2.7.1).
    tie_rule : {"paper", "upper-bound", "none"}, default "paper"
        Rule of :func:`scorio_core.rank.ranks_with_ties` for ``ranks_ci``.
    max_tokens : int, optional
        Generation limit for ``token_ratio``.

    Returns
    -------
    SchemaRanks

    Raises
    ------
    InputError
        Count-only data, unknown schemata, or no schema that applies.
    ValueError, TypeError
        Empty ``schemas``, bad ``confidence`` or ``tie_rule``.

    Notes
    -----
    Per schema: categories by first match (:func:`scorio_core.rubric.categorize`), then
    Bayes@N with the schema's weights and a uniform prior over each model's answered
    questions; unmatched attempts are excluded and counted.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [("a", q, t, float(q < 2), float(t % 2)) for q in range(3) for t in range(4)]
    >>> rows += [("b", q, t, float(q < 1), 1.0) for q in range(3) for t in range(4)]
    >>> df = pd.DataFrame(rows, columns=["model", "question_id", "trial", "is_correct", "has_box"])
    >>> res = schema_ranks(df, ["Binary correctness", "Format Compliance & Correctness"])
    >>> res.schemas, res.ranks.tolist()
    (('Binary correctness', 'Format Compliance & Correctness'), [[1.0, 2.0], [1.0, 2.0]])
    """
    confidence = check_confidence(confidence)
    if tie_rule not in TIE_RULES:
        raise ValueError(f"tie_rule must be one of {', '.join(TIE_RULES)}; got {tie_rule!r}.")
    if isinstance(schemas, (str, Schema, dict)) or len(schemas) == 0:
        raise ValueError("schemas must be a non-empty list of schema names, documents or Schema objects.")
    table = _table(attempts, max_tokens)
    applicable, skipped = applicable_schemas(table, schemas)
    if not applicable:
        reasons = "; ".join(f"{s.schema}: {s.reason}" for s in skipped)
        raise InputError(f"none of the schemata applies to this data ({reasons}).")
    cells = kernel.cells(table.frame)
    L = len(cells.models)
    S = len(applicable)
    mu, sigma = np.full((S, L), np.nan), np.full((S, L), np.nan)
    ranks, ranks_ci = np.full((S, L), np.nan), np.full((S, L), np.nan)
    unmatched = np.zeros(S, dtype=np.int64)
    notes = []
    for s, schema in enumerate(applicable):
        codes = BoundRubric(table, schema).codes()
        unmatched[s] = int((codes < 0).sum())
        if unmatched[s]:
            notes.append(f"{schema.name}: {unmatched[s]} of {codes.size} attempts matched no category and are excluded")
        mu[s], sigma[s] = kernel.model_moments(kernel.category_counts(codes, cells, len(schema.categories)), schema.weights)
        ok = np.isfinite(mu[s])
        if ok.any():
            ranks[s, ok] = competition_ranks(mu[s, ok])
            ranks_ci[s, ok] = ranks_with_ties(mu[s, ok], sigma[s, ok], confidence=confidence, rule=tie_rule)
    return SchemaRanks(
        models=cells.models,
        schemas=tuple(s.name for s in applicable),
        mu=mu,
        sigma=sigma,
        ranks=ranks,
        ranks_ci=ranks_ci,
        unmatched=unmatched,
        confidence=confidence,
        tie_rule=tie_rule,
        skipped=tuple(skipped),
        notes=tuple(notes),
    )


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
    ``P_ij`` the posterior mean share of category j, so the smallest single-weight change
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

    base_codes = bound.codes(frozen or None)
    base_counts = kernel.category_counts(base_codes, cells, K)
    base_mu = kernel.model_moments(base_counts, w)[0]
    scored = np.isfinite(base_mu)
    if scored.sum() < 2:
        raise InputError(f"ranking needs at least 2 models with matched attempts under {schema.name!r}; got {int(scored.sum())}.")
    leader = int(np.flatnonzero(base_mu == np.nanmax(base_mu))[0])

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
    mu = np.empty((n, len(cells.models)))
    for p in range(n):
        counts = kernel.category_counts(codes_for(shifts[p]), cells, K) if pct else base_counts
        mu[p] = kernel.model_moments(counts, w * factors[p])[0]
        if progress is not None and (p + 1) % step == 0 and progress((p + 1) / total) is False:
            raise Cancelled(f"rubric perturbation cancelled after {p + 1} of {n} rubrics.")
    ranks = kernel.ranks(mu)
    flip = ranks[:, leader] > 1
    L = len(cells.models)
    share = (ranks[:, :, None] == np.arange(1, L + 1)).mean(axis=0)

    parameters, samples, drivers = [], [], []
    labels = schema.labels
    basis = np.stack([kernel.model_moments(base_counts, np.eye(K)[j])[0] for j in range(K)], axis=1)  # (L, K)
    for j in weight_idx:
        parameters.append(RubricParameter(f"weight: {labels[j]}", "weight", float(w[j]), 1.0 - r, 1.0 + r))
        samples.append(factors[:, j])
        change, who = kernel.weight_flip(base_mu, basis[:, j] * w[j], leader, search_weight)
        drivers.append(_driver(parameters[-1], factors[:, j], flip, change, who, cells.models))
    for i, t in enumerate(pct):
        parameters.append(RubricParameter(f"threshold: {t.name}", "threshold", float(t.percentile), float(lows[i]), float(highs[i])))
        samples.append(shifts[:, i])
        change, who = kernel.threshold_flip(
            lambda s, i=i: kernel.model_moments(kernel.category_counts(codes_for(np.eye(len(pct))[i] * s), cells, K), w)[0],
            t.percentile, leader, search_shift,
        )
        drivers.append(_driver(parameters[-1], shifts[:, i], flip, change, who, cells.models))
        if progress is not None and progress((n + 2 * int(search_shift) * (i + 1)) / total) is False:
            raise Cancelled("rubric perturbation cancelled during the threshold search.")

    notes = []
    zero = [labels[j] for j in range(K) if w[j] == 0.0]
    if zero:
        notes.append(f"weights equal to 0 stay 0 under relative scaling: {', '.join(zero)}")
    fixed = [t.name for t in schema.thresholds if t.kind != "percentile" or t.name in frozen]
    if fixed:
        notes.append(f"absolute or frozen thresholds are not perturbed: {', '.join(fixed)}")
    if not scored.all():
        notes.append(f"{int((~scored).sum())} models have no matched attempt and rank last")
    assumptions = (
        f"each non-zero weight is multiplied by an independent U({1 - r:g}, {1 + r:g}) factor; "
        "scaling every weight by one common factor would not change the ranking",
        f"each percentile threshold moves by an independent U(-{d:g}, {d:g}) percentile points "
        "(within 0..100) and is recomputed from the same attempts, pooled over models",
        "ranks are competition ranks of the Bayes@N posterior mean (uniform prior); "
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
        base_ranks=kernel.ranks(base_mu[None])[0],
        ranks=ranks,
        rank_share=share,
        leader=cells.models[leader],
        leader_kept=float(1.0 - flip.mean()),
        drivers=tuple(drivers),
        assumptions=assumptions,
        notes=tuple(notes),
    )


def _driver(param: RubricParameter, x: np.ndarray, flip: np.ndarray, change, who, models) -> FlipDriver:
    corr, low, high = kernel.flip_rates(x, flip, param.low, param.high)
    return FlipDriver(param.name, param.kind, corr, low, high, change, None if who is None else models[who])
