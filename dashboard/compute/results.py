"""Cached calls into scorio_core for pages (keyed by the dataset's ``data_id`` and settings).

Arguments starting with ``_`` are not hashed by ``st.cache_data``; string ids stand in for
them: ``data_id`` (content digest + data-quality choices), ``rubric_id`` (schema, frozen
thresholds and scope; "binary" for binary correctness) and ``prior_id`` ("none" without a
prior R0). Results are shared and read-only: never mutate them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from scorio_core.leaderboard import costs
from scorio_core.rubric import rerank
from scorio_core.ranking import compare, rank
from scorio_core.leaderboard.checks import apply_question_set
from scorio_core.io.quality.names import similar_ids_sentence, similar_question_ids
from scorio_core.uncertainty.fallback import comparison_sds
from scorio_core.leaderboard.table import (ALL_TASKS, TaskOutcomes, emptied_on, leaderboard, leaderboard_notices,
                                          outcomes_for, pairwise_for, task_names)
from scorio_core.report import lead
from scorio_core.report.names import display_names
from scorio_core.leaderboard.task_outcomes import cluster_column_candidates, question_clusters
from scorio_core.ranking.paired import pair_trials_needed
from scorio_core.ranking.posterior_ranks import RANK_SEED, rank_draws  # re-exported: the app's import path

__all__ = [
    "ALL_TASKS", "tasks_of", "task_outcomes", "prior_counts", "closest_pair", "task_table", "question_attempts_for",
    "groups_of", "models_of", "unmatched_table", "leaderboard_table", "leaderboard_notes", "unequal_question_sets",
    "trial_range", "rank_distribution", "method_agreement_for", "method_bootstrap_for", "METHOD_BOOT", "rank_draws",
    "trials_needed_for", "disagreements", "question_summary", "cost_options", "model_costs", "category_distribution",
    "RANK_SEED",
]


@st.cache_data(show_spinner=False, max_entries=32)
def tasks_of(data_id: str, _dataset, by_models: bool = False) -> list[str]:
    """Tasks of the dataset, in order of appearance (``by_models``: most models first, :func:`task_names`)."""
    return task_names(_dataset, by_models)


@st.cache_resource(show_spinner=False, max_entries=32)
def groups_of(data_id: str, _dataset):
    """Family/organisation of each model (:func:`scorio_core.report.groups.model_groups`), or None."""
    from scorio_core.report.groups import model_groups

    return model_groups(_dataset.attempts if _dataset.attempts is not None else _dataset.counts)


@st.cache_data(show_spinner=False, max_entries=32)
def models_of(data_id: str, _dataset, task: str) -> list[str]:
    """Models with data on ``task`` (every task for ``ALL_TASKS``), in order of appearance."""
    table = _dataset.attempts if _dataset.attempts is not None else _dataset.counts
    if task != ALL_TASKS and "task" in table.columns:
        table = table[table["task"] == task]
    return [str(m) for m in pd.unique(table["model"])]


@st.cache_resource(show_spinner=False, max_entries=32)
def task_outcomes(data_id: str, _dataset, task: str, rubric_id: str = "binary", _categorization=None) -> TaskOutcomes:
    """Outcome tensors of one task (shared, read-only: never mutate the result)."""
    return outcomes_for(_dataset, task, _categorization)


@st.cache_resource(show_spinner=False, max_entries=32)
def prior_counts(data_id: str, _dataset, task: str, rubric_id: str, _categorization, prior_id: str, _prior):
    """``(prior counts (L, M, C+1), questions matched)`` of a prior R0, or ``(None, 0)``."""
    if _prior is None or prior_id == "none":
        return None, 0
    outcomes = task_outcomes(data_id, _dataset, task, rubric_id, _categorization)
    return rerank.align_prior(outcomes, _prior)


@st.cache_data(show_spinner="Computing leaderboard...", max_entries=128)
def leaderboard_table(
    data_id: str,
    _dataset,
    task: str,
    *,
    metric: str = "bayes",
    k: int = 1,
    tau: float = 0.5,
    confidence: float = 0.95,
    tie_rule: str = "pairwise",
    rubric_id: str = "binary",
    _categorization=None,
    prior_id: str = "none",
    _prior=None,
    prior: str = "empirical-bayes",
    scope: str = "questions-fixed",
    question_set: str = "own",
    cluster_column: str | None = None,
) -> pd.DataFrame:
    """The leaderboard of one task (or ``ALL_TASKS``) under the given settings (``cluster_column``: questions in
    groups, cluster-robust intervals under the questions-sampled scope)."""
    outcomes = task_outcomes(data_id, _dataset, task, rubric_id, _categorization)
    counts0, _ = prior_counts(data_id, _dataset, task, rubric_id, _categorization, prior_id, _prior)
    clusters = question_clusters_for(data_id, _dataset, task, cluster_column) if scope != "questions-fixed" else None
    return leaderboard(outcomes, metric=metric, k=k, tau=tau, confidence=confidence, tie_rule=tie_rule, prior_counts=counts0,
                       prior=prior, scope=scope, question_set=question_set, clusters=clusters,
                       cluster_column=cluster_column or "cluster")


@st.cache_data(show_spinner=False, max_entries=32)
def question_clusters_for(data_id: str, _dataset, task: str, cluster_column: str | None) -> dict | None:
    """Question id -> cluster label from a data column (:func:`scorio_core.leaderboard.task_outcomes.question_clusters`), or None."""
    if not cluster_column:
        return None
    return question_clusters(_dataset, task, cluster_column)


@st.cache_data(show_spinner=False, max_entries=32)
def cluster_candidates(data_id: str, _dataset) -> tuple[str, ...]:
    """Columns that could group questions (:func:`scorio_core.leaderboard.task_outcomes.cluster_column_candidates`)."""
    return tuple(cluster_column_candidates(_dataset))


def top_lead(data_id: str, dataset, task: str, table: pd.DataFrame, *, metric: str, confidence: float,
             rubric_id: str, categorization, prior_id: str, prior_obj, prior: str, question_set: str,
             cluster_column: str | None = None):
    """The leaderboard's top pair under both scopes and the questions behind it
    (:func:`scorio_core.report.lead.top_lead`), or None: for Bayes@N without prior counts R0 (the
    paired difference of the Compare page), with at least two scored models."""
    if metric != "bayes" or prior_counts(data_id, dataset, task, rubric_id, categorization, prior_id, prior_obj)[0] is not None:
        return None
    fixed = leaderboard_table(data_id, dataset, task, metric=metric, confidence=confidence, rubric_id=rubric_id,
                              _categorization=categorization, prior_id=prior_id, _prior=prior_obj, prior=prior,
                              scope="questions-fixed", question_set=question_set)
    original = task_outcomes(data_id, dataset, task, rubric_id, categorization)
    outcomes = apply_question_set(original, question_set)
    return lead.top_lead(outcomes, table, fixed,  # the lead's questions are the leaderboard's (common: every model's)
                         confidence=confidence, clusters=question_clusters_for(data_id, dataset, task, cluster_column),
                         original=original)


def pairwise_matrix(data_id: str, dataset, task: str, table: pd.DataFrame, *, metric: str, confidence: float,
                    rubric_id: str, categorization, prior_id: str, prior_obj, prior: str, scope: str,
                    question_set: str, cluster_column: str | None = None) -> tuple[np.ndarray, bool]:
    """P(A > B) for the table's scored models (:func:`scorio_core.leaderboard.table.pairwise_for`): paired for Bayes@N
    under the questions-sampled scope, from the questions-fixed leaderboard of the same settings (not with prior
    counts R0, as the leaderboard's rank_ci)."""
    outcomes = task_outcomes(data_id, dataset, task, rubric_id, categorization)
    fixed = None  # with clusters: each model's own cluster-robust interval, unpaired (conservative)
    if metric == "bayes" and scope != "questions-fixed" and not cluster_column and prior_counts(data_id, dataset, task, rubric_id, categorization,
                                                                         prior_id, prior_obj)[0] is None:
        fixed = leaderboard_table(data_id, dataset, task, metric=metric, confidence=confidence, rubric_id=rubric_id,
                                  _categorization=categorization, prior_id=prior_id, _prior=prior_obj, prior=prior,
                                  scope="questions-fixed", question_set=question_set)
    return pairwise_for(outcomes, table, fixed, metric=metric, scope=scope, question_set=question_set,
                        confidence=confidence)


def rank_ci_paired(data_id: str, dataset, task: str, rubric_id: str, categorization, prior_id: str, prior_obj, *,
                   metric: str, scope: str, tie_rule: str, n_scored: int, cluster_column: str | None = None) -> bool:
    """Whether the leaderboard's rank_ci pairs the models over their common questions (as :func:`leaderboard`:
    never with clustered questions)."""
    from scorio_core.ranking.paired import ranks_are_paired

    outcomes = task_outcomes(data_id, dataset, task, rubric_id, categorization)
    return (not cluster_column and ranks_are_paired(metric, scope, tie_rule, n_scored, len(outcomes.rubric.questions))
            and prior_counts(data_id, dataset, task, rubric_id, categorization, prior_id, prior_obj)[0] is None)


@st.cache_data(show_spinner=False, max_entries=64)
def few_common_pairs(data_id: str, _dataset, task: str, rubric_id: str, _categorization, models: tuple[str, ...]):
    """:func:`scorio_core.ranking.disagreement.few_common_note` for ``models`` of the task: the pairs sharing fewer
    than 2 questions, whose paired comparison (questions sampled) falls back to the questions-fixed sd (or None)."""
    from scorio_core.ranking.disagreement import few_common_note

    outcomes = task_outcomes(data_id, _dataset, task, rubric_id, _categorization).rubric
    wanted = set(models)
    return few_common_note(outcomes.counts[[i for i, m in enumerate(outcomes.models) if str(m) in wanted]])


def leaderboard_notes(data_id: str, _dataset, task: str, table: pd.DataFrame, *, confidence: float, tie_rule: str,
                      question_set: str, rubric_id: str = "binary", _categorization=None) -> list[dict]:
    """Structured notices of a leaderboard (data-quality choices applied, unequal question sets, paper-rule chains)."""
    outcomes = task_outcomes(data_id, _dataset, task, rubric_id, _categorization)
    from scorio_core.leaderboard.checks import choices_of, dataset_models, model_name_defaults

    return leaderboard_notices(outcomes, table, confidence=confidence, tie_rule=tie_rule, question_set=question_set,
                               emptied=emptied_on(_dataset, task), choices=choices_of(_dataset),
                               dataset_models=dataset_models(_dataset), named_by_default=model_name_defaults(_dataset))


@st.cache_data(show_spinner=False, max_entries=64)
def trial_range(data_id: str, _dataset, task: str, rubric_id: str = "binary", _categorization=None) -> tuple[int, int]:
    """Smallest and largest number of trials over answered (model, question) cells (under the active rubric's
    categories: data with category codes and no is_correct has no binary outcomes)."""
    n = task_outcomes(data_id, _dataset, task, rubric_id, _categorization).rubric.n_trials
    n = n[n > 0]
    return int(n.min()), int(n.max())


@st.cache_data(show_spinner="Sampling posterior ranks...", max_entries=32)
def rank_distribution(data_id: str, _dataset, task: str, rubric_id: str = "binary", _categorization=None,
                      prior_id: str = "none", _prior=None, seed: int = RANK_SEED, prior: str = "uniform"):
    """``(models, P (L, L), draws, unsure, groups)``: posterior probability of each rank under Bayes@N with ``prior``
    (the sidebar's; the empirical-Bayes prior held at its fit, per task with tasks pooled), the models whose
    empirical-Bayes prior is not identified (drawn from their leaderboard row: ``rank_prior.fallback_moments``), and
    each model's group label where the models fall into groups that share no question (``{}`` otherwise): ranks are
    then within each group (``posterior_rank_distribution(groups=...)``), as the CLI's ``ranks``.

    Models that answered no question are left out; the others are listed in natural order (the draws' order).
    """
    from scorio_core.items.linking import linked_groups
    from scorio_core.ranking.rank_prior import fallback_moments, hyperparameter_sd, rank_prior_alpha

    from scorio_core.arrays.order import canonical_outcomes

    # drawn in the models' and questions' natural order: any row order or engine gives the same probabilities
    outcomes, by_model, by_question = canonical_outcomes(task_outcomes(data_id, _dataset, task, rubric_id, _categorization).rubric)
    r0, _ = prior_counts(data_id, _dataset, task, rubric_id, _categorization, prior_id, _prior)
    r0 = None if r0 is None else np.asarray(r0)[by_model][:, by_question]
    keep = outcomes.n_trials.sum(axis=1) > 0
    counts = outcomes.counts[keep]
    draws = rank_draws(*counts.shape)
    strata = outcomes.strata()
    alpha, unsure = rank_prior_alpha(counts, prior, strata)
    # the hyperparameters' variance (the same with prior counts: it does not depend on them)
    shift = hyperparameter_sd(counts, outcomes.weights, alpha, strata=strata, held=unsure) if prior == "empirical-bayes" else None
    mean, sd = fallback_moments(counts, outcomes.weights, unsure, strata=strata) if unsure else (None, None)
    labels = linked_groups(counts.sum(axis=2) > 0)  # ranks across unlinked groups compare question sets too
    split = np.unique(labels).size > 1
    P = rank.posterior_rank_distribution(counts, outcomes.weights, None if r0 is None else r0[keep], draws=draws, seed=seed,
                                         alpha=None if prior == "uniform" else alpha, shift_sd=shift, fallback_mean=mean,
                                         fallback_sd=sd, groups=labels if split else None)
    models = [m for m, k in zip(outcomes.models, keep) if k]
    return models, P, draws, [models[i] for i in unsure], dict(zip(models, labels.tolist())) if split else {}


@st.cache_resource(show_spinner="Ranking under every method...", max_entries=32)
def method_agreement_for(data_id: str, _dataset, task: str, methods: tuple[str, ...], prior: str, question_set: str,
                         options: tuple = ()):
    """:func:`scorio_core.leaderboard.methods.method_agreement` of a task's binary outcomes (shared, read-only).

    ``options``: ``((method, ((key, value), ...)), ...)``, the methods' keyword options (hashable for the cache).
    """
    from scorio_core.leaderboard.methods import method_agreement

    return method_agreement(task_outcomes(data_id, _dataset, task), list(methods), prior=prior,
                            question_set=question_set, options={m: dict(kw) for m, kw in options} or None)


#: Resamples and seed of the Method agreement tab's rank intervals (recorded in the tab's caption).
METHOD_BOOT = {"n_boot": 200, "seed": 0}


@st.cache_resource(show_spinner="Bootstrapping every method's ranks over questions (200 resamples)...", max_entries=16)
def method_bootstrap_for(data_id: str, _dataset, task: str, methods: tuple[str, ...], prior: str, question_set: str,
                         confidence: float, options: tuple = ()):
    """:func:`method_agreement_for` with each kept method's bootstrap rank interval (``report.bootstrap``; shared).

    :data:`METHOD_BOOT` resamples of the questions, the same for every method
    (:func:`scorio_core.rank.bootstrap.bootstrap_ranks`); costs 200 times the point ranking. ``options`` as in
    :func:`method_agreement_for` (used on every resample).
    """
    from scorio_core.leaderboard.methods import method_agreement

    return method_agreement(task_outcomes(data_id, _dataset, task), list(methods), prior=prior,
                            question_set=question_set, confidence=confidence,
                            options={m: dict(kw) for m, kw in options} or None, **METHOD_BOOT)


@st.cache_data(show_spinner="Projecting trials needed...", max_entries=64)
def trials_needed_for(data_id: str, _dataset, task: str, model_a: str, model_b: str, confidence: float,
                      rubric_id: str = "binary", _categorization=None, prior_id: str = "none", _prior=None,
                      prior: str = "uniform"):
    """:func:`scorio_core.ranking.separation.trials_needed` for two models under the active rubric and ``prior``.

    Returns ``(TrialsNeeded, notes)``: notes name a model whose empirical-Bayes prior is not
    identified (the projection then uses the uniform prior for it).
    """
    outcomes = task_outcomes(data_id, _dataset, task, rubric_id, _categorization).rubric
    counts0, _ = prior_counts(data_id, _dataset, task, rubric_id, _categorization, prior_id, _prior)
    return pair_trials_needed(outcomes, model_a, model_b, prior=prior, confidence=confidence, prior_counts=counts0)


@st.cache_data(show_spinner=False, max_entries=32)
def unmatched_table(data_id: str, _dataset, task: str, rubric_id: str, _scoped) -> pd.DataFrame:
    """Attempts per model and how many matched no rubric category (:func:`scorio_core.rubric.rerank.unmatched_by_model`)."""
    return rerank.unmatched_by_model(_dataset.attempts, _scoped.categorization.codes, _scoped.mask)


@st.cache_data(show_spinner=False, max_entries=64)
def question_attempts_for(data_id: str, _dataset, task: str, question: str, models: tuple[str, ...],
                          rubric_id: str = "binary", _categorization=None) -> pd.DataFrame:
    """Every attempt of ``models`` on one question (:func:`scorio_core.leaderboard.drilldown.question_attempts`)."""
    from scorio_core.leaderboard.drilldown import question_attempts

    return question_attempts(_dataset, task, question, models, _categorization)


@st.cache_resource(show_spinner="Scoring every task...", max_entries=16)
def task_table(data_id: str, _dataset, rubric_key: str, _schema, _frozen, unmatched: str, prior: str, scope: str,
               confidence: float, threshold: float, cluster_column: str | None = None):
    """``(TaskMatrix, combined)`` of :mod:`scorio_core.tasks` (cached per data, rubric and settings).

    ``rubric_key`` identifies ``_schema`` with its frozen thresholds ("binary" for binary correctness).
    """
    from scorio_core.tasks import combined_score, per_task_categorization, task_matrix

    categorization = None
    if _schema is not None:  # the rubric task by task, as the Leaderboard scores each task
        categorization = per_task_categorization(_dataset, _schema, thresholds=_frozen, unmatched=unmatched)
    matrix = task_matrix(_dataset, categorization=categorization, prior=prior, scope=scope, confidence=confidence,
                         threshold=threshold, cluster_column=cluster_column)
    return matrix, combined_score(matrix, emptied=getattr(getattr(_dataset, "report", None), "emptied", ()))


def closest_pair(board: pd.DataFrame, models) -> tuple[str, str] | None:
    """The least-separated neighbours among ``models`` (``board`` of :func:`leaderboard_table`): the adjacent pair of
    the sorted Bayes@N means with the smallest z = gap / sqrt(sigma_a^2 + sigma_b^2), i.e. the lowest P(A > B) among
    neighbours, as the Leaderboard's verdict reads it (the smallest gap where the board has no ``sigma``).

    O(L log L); None with fewer than two scored models.
    """
    rows = board[board["model"].isin(list(models)) & board["mu"].notna()].sort_values("mu")
    if len(rows) < 2:
        return None
    gaps = np.diff(rows["mu"].to_numpy())
    if "sigma" in rows:
        down, up = comparison_sds(rows)  # an exact-binomial row's skewed spread, as the ranks compare it
        with np.errstate(divide="ignore", invalid="ignore"):
            z = gaps / np.sqrt(down[1:] ** 2 + up[:-1] ** 2)
        gaps = np.where(np.isfinite(z), z, np.where(gaps > 0, np.inf, 0.0))
    i = int(np.argmin(gaps))
    return str(rows["model"].iloc[i + 1]), str(rows["model"].iloc[i])


@st.cache_data(show_spinner=False, max_entries=64)
def disagreements(data_id: str, _dataset, task: str, model_a: str, model_b: str, rubric_id: str = "binary",
                  _categorization=None, question_set: str = "own") -> pd.DataFrame:
    """Per-question outcomes of two models (:func:`scorio_core.ranking.compare.disagreement_table`) on the
    leaderboard's question set (``common``: the questions every model answered)."""
    outcomes = apply_question_set(task_outcomes(data_id, _dataset, task, rubric_id, _categorization), question_set)
    return compare.disagreement_table(outcomes, model_a, model_b)


@st.cache_data(show_spinner=False, max_entries=64)
def question_summary(data_id: str, _dataset, task: str, models: tuple[str, ...], rubric_id: str = "binary",
                     _categorization=None) -> pd.DataFrame:
    """Per-question pass rates, flaky cells and disagreement of the selected models."""
    outcomes = task_outcomes(data_id, _dataset, task, rubric_id, _categorization)
    return compare.question_summary(outcomes, models)


@st.cache_data(show_spinner=False, max_entries=32)
def cost_options(data_id: str, _dataset, task: str) -> list[costs.CostColumn]:
    """Cost and token columns of the data (for the score-vs-cost view)."""
    return costs.cost_columns(_dataset, task)


@st.cache_data(show_spinner=False, max_entries=32)
def model_costs(data_id: str, _dataset, task: str, column: str) -> costs.ModelCosts:
    """Per-model values of one cost column."""
    return costs.model_costs(_dataset, task, column)


@st.cache_data(show_spinner=False, max_entries=32)
def category_distribution(data_id: str, _dataset, task: str, rubric_id: str = "binary", _categorization=None,
                          _scope_mask=None) -> tuple[list[str], np.ndarray, np.ndarray]:
    """``(models, counts (L, C+1), unmatched (L,))``: attempts per model and rubric category.

    ``_scope_mask`` (rows of the attempts in scope) is needed to count unmatched attempts
    per model; without it (binary correctness, count data) unmatched counts are zero.
    """
    outcomes = task_outcomes(data_id, _dataset, task, rubric_id, _categorization).rubric
    counts = outcomes.counts.sum(axis=1)
    unmatched = np.zeros(len(outcomes.models), dtype=np.int64)
    if _categorization is not None and _scope_mask is not None and _dataset.attempts is not None:
        rows = _dataset.attempts.loc[_scope_mask, "model"].astype(str).to_numpy()
        bad = np.asarray(_categorization.codes)[_scope_mask] < 0
        found = pd.Series(rows[bad]).value_counts()
        unmatched = np.array([int(found.get(m, 0)) for m in outcomes.models], dtype=np.int64)
    return list(outcomes.models), counts, unmatched


@st.cache_data(show_spinner=False, max_entries=64)
def unequal_question_sets(data_id: str, _dataset, task: str, rubric_id: str = "binary", _categorization=None,
                          short_names: bool = False) -> str | None:
    """The notice text when models of the task answered different questions (None otherwise); ``short_names``: the
    models named as the sidebar's *Short model names* shows them (exports keep the full names)."""
    outcomes = task_outcomes(data_id, _dataset, task, rubric_id, _categorization)
    answered = outcomes.rubric.n_trials > 0
    per_model = answered.sum(axis=1)
    if per_model.min() == answered.shape[1]:
        return None
    short = [(m, int(k)) for m, k in zip(outcomes.models, per_model) if k < answered.shape[1]]
    if short_names:
        names = display_names([str(m) for m in outcomes.models])
        short = [(names[str(m)], k) for m, k in short]
    listed = ", ".join(f"{m} ({k})" for m, k in short[:6]) + (f" and {len(short) - 6} more" if len(short) > 6 else "")
    return (f"Models answered different questions: {len(short)} of {len(per_model)} answered fewer than all "
            f"{answered.shape[1]} ({listed}); {int(np.all(answered, axis=0).sum())} were answered by every model. "
            "Scored on their own questions, a model that skipped hard questions ranks higher. "
            + (similar_ids_sentence(similar_question_ids(outcomes.rubric.questions, answered)) + " ").lstrip()
            + "Choose how to compare them.")
