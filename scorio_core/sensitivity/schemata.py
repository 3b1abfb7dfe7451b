"""Bayes@N ranks of every model under each of several rubric schemata (paper Figure 7)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from scorio_core.errors import InputError
from scorio_core.leaderboard.outcomes import graded_rows
from scorio_core.eval._validate import check_confidence
from scorio_core.ranking.rank import TIE_RULES, competition_ranks, ranks_with_ties
from scorio_core.uncertainty import check_prior, check_scope
from scorio_core.uncertainty.batch import posterior_summary_batch
from scorio_core.uncertainty.fallback import beta_sides
from scorio_core.uncertainty.priors import shortage_cause
from scorio_core.rubric import BoundRubric, Schema, resolve_schema
from scorio_core.sensitivity import kernel
from scorio_core.sensitivity._common import _missing_signals, _table, pooled_means_note


#: What a schema that does not read ``score`` lacks on data with graded attempts (no 0/1 outcome, a score in (0, 1)).
GRADED_LACK = "0/1 outcomes of the graded attempts"


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
    prior, scope : str
    fell_back : tuple of str
        Models whose empirical-Bayes prior was not identified under some schema (their Bayes@N is the pooled rate).
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
    prior: str = "uniform"
    scope: str = "questions-fixed"
    fell_back: tuple[str, ...] = ()



# --------------------------------------------------------------------------- across schemata
def applicable_schemas(attempts, schemas: Sequence, *, max_tokens: int | None = None):
    """Split schemata into those the data can support and those it cannot.

    A schema applies when every signal it reads is present (a column with at least one
    non-missing value, possibly derived, e.g. ``token_ratio`` from token counts). On data with graded
    attempts (a score strictly between 0 and 1 and no 0/1 outcome: a rubric gives them partial credit,
    :mod:`scorio_core.leaderboard.graded`) a schema must also read ``score``: one that reads 0/1 correctness
    only would leave those attempts in no category and rank the models on the others; it is skipped, lacking
    :data:`GRADED_LACK`.

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
    graded = int(graded_rows(table.frame).sum())
    applicable, skipped = [], []
    for spec in schemas:
        schema = resolve_schema(spec)
        missing = _missing_signals(schema, table)
        if graded and "score" not in schema.signals:  # it would score the 0/1 attempts only, the graded ones excluded
            missing += (GRADED_LACK,)
        if missing:
            reason = f"needs {', '.join(missing)}, which the data does not have"
            if GRADED_LACK in missing:
                reason += (f": {graded:,} attempts have a graded score and no 0/1 outcome, and the schema does not read "
                           "the score, so it would rank the models on their other attempts only. Compare rubrics that "
                           "read the score (the score values' partial credit and its threshold reading), or binarize "
                           "the score with a threshold to compare this one")
            skipped.append(SkippedSchema(schema.name, missing, reason))
        else:
            applicable.append(schema)
    return applicable, skipped


def schema_ranks(
    attempts,
    schemas: Sequence,
    *,
    confidence: float = 0.95,
    tie_rule: str = "pairwise",
    max_tokens: int | None = None,
    prior: str = "uniform",
    scope: str = "questions-fixed",
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
    tie_rule : {"pairwise", "paper", "upper-bound", "none"}, default "pairwise"
        Rule of :func:`scorio_core.ranking.rank.ranks_with_ties` for ``ranks_ci``.
    max_tokens : int, optional
        Generation limit for ``token_ratio``.
    prior : {"uniform", "jeffreys", "empirical-bayes"}, default "uniform"
        Per-question prior of Bayes@N (:mod:`scorio_core.uncertainty`); the empirical-Bayes
        prior is fitted per model and schema. Default uniform: rubrics compared under the
        paper's estimator.
    scope : {"questions-fixed", "questions-sampled"}, default "questions-fixed"
        What sigma (hence the CI ties) covers.

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
    check_prior(prior)
    check_scope(scope)
    if tie_rule not in TIE_RULES:
        raise ValueError(f"tie_rule must be one of {', '.join(TIE_RULES)}; got {tie_rule!r}.")
    if isinstance(schemas, (str, Schema, dict)) or len(schemas) == 0:
        raise ValueError("schemas must be a non-empty list of schema names, documents or Schema objects.")
    table = _table(attempts, max_tokens)
    applicable, skipped = applicable_schemas(table, schemas)
    if not applicable:
        reasons = "; ".join(f"{s.schema}: {s.reason}" for s in skipped)
        raise InputError(f"none of the schemata applies to this data ({reasons}).")
    from scorio_core.leaderboard.linking import rank_within_groups, scored_group_labels

    cells = kernel.cells(table.frame)
    L = len(cells.models)
    S = len(applicable)
    mu, sigma = np.full((S, L), np.nan), np.full((S, L), np.nan)
    ranks, ranks_ci = np.full((S, L), np.nan), np.full((S, L), np.nan)
    unmatched = np.zeros(S, dtype=np.int64)
    notes = []
    fell_back = np.zeros((S, L), dtype=bool)  # empirical-Bayes fits that were not identified (pooled means)
    down, up = np.full((S, L), np.nan), np.full((S, L), np.nan)  # the CI ties' spreads: skewed on exact rows (as rank_ci)
    for s, schema in enumerate(applicable):
        codes = BoundRubric(table, schema).codes()
        unmatched[s] = int((codes < 0).sum())
        if unmatched[s]:
            notes.append(f"{schema.name}: {unmatched[s]} of {codes.size} attempts matched no category and are excluded")
        counts = kernel.category_counts(codes, cells, len(schema.categories))
        if prior == "uniform" and scope == "questions-fixed":
            mu[s], sigma[s] = kernel.model_moments(counts, schema.weights)
            down[s], up[s] = sigma[s], sigma[s]
        else:
            summary = posterior_summary_batch(counts, schema.weights, prior=prior, scope=scope, confidence=confidence,
                                              strata=cells.strata)
            fell_back[s] = np.char.startswith(summary.method.astype(str), "fallback")
            mu[s], sigma[s] = summary.mu, summary.sigma
            below, above = beta_sides(summary.mu, summary.sigma, min(schema.weights), max(schema.weights), confidence)
            down[s], up[s] = np.where(fell_back[s], below, sigma[s]), np.where(fell_back[s], above, sigma[s])
        ok = np.isfinite(mu[s])
        if ok.any():  # groups that share no question: each ranked alone, as the leaderboard ranks them
            groups = scored_group_labels(counts[ok].sum(axis=2))
            ranks[s, ok] = rank_within_groups(competition_ranks, groups, mu[s, ok])
            ranks_ci[s, ok] = rank_within_groups(lambda m, d, u: ranks_with_ties(
                m, d, confidence=confidence, rule=tie_rule, sigma_up=u), groups, mu[s, ok], down[s, ok], up[s, ok])
    pooled = np.flatnonzero(fell_back.any(axis=0))
    note = pooled_means_note([cells.models[i] for i in pooled],
                             [applicable[s].name for s in np.flatnonzero(fell_back.any(axis=1))], S,
                             ci_ties=tie_rule != "none", tasks_pooled=cells.strata is not None,
                             cause=shortage_cause(counts[pooled]) if pooled.size else None)
    if note:
        notes.append(note)
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
        prior=prior,
        scope=scope,
        fell_back=tuple(cells.models[i] for i in pooled),
    )




def skipped_summary(skipped: Sequence[SkippedSchema], *, limit: int = 6) -> str:
    """The skipped schemata in one sentence: how many, and the signals the data lacks with how many need each.

    Parameters
    ----------
    skipped : sequence of SkippedSchema
        :attr:`SchemaRanks.skipped`.
    limit : int, default 6
        Signals named (the most needed first); the rest are counted.

    Returns
    -------
    str
        Empty when nothing was skipped.

    Examples
    --------
    >>> skipped_summary([SkippedSchema("A", ("x", "y"), ""), SkippedSchema("B", ("x",), "")])
    '2 schemata skipped (A, B): the data lacks x (needed by 2), y (1).'
    """
    if not skipped:
        return ""
    need: dict[str, int] = {}
    for s in skipped:
        for signal in s.missing:
            need[signal] = need.get(signal, 0) + 1
    order = sorted(need, key=lambda k: (-need[k], k))
    named = [f"{k} ({'needed by ' if i == 0 else ''}{need[k]})" for i, k in enumerate(order[:limit])]
    more = f" and {len(order) - limit} more" if len(order) > limit else ""
    which = ", ".join(s.schema for s in skipped[:8]) + (", ..." if len(skipped) > 8 else "")
    noun = "schema" if len(skipped) == 1 else "schemata"
    return f"{len(skipped)} {noun} skipped ({which}): the data lacks {', '.join(named)}{more}."


def one_rubric_note(result: SchemaRanks) -> str | None:
    """Said when a single schema applies: the ranking cannot depend on the rubric on this data, and what would
    let it (the page's "Only binary correctness applies" notice, for the CLI and JSON). ``None`` otherwise."""
    if len(result.schemas) != 1:
        return None
    return (f"only {result.schemas[0]} applies to this data, so these ranks cannot show how the ranking depends on "
            "the rubric; attempt signals such as boxed answers, token counts, bits per token or verifier scores "
            "unlock the skipped schemata, or pass a rubric of your own (--schemas FILE.json)")
