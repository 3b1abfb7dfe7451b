"""Leaderboards: from a loaded dataset to one row per model with credible intervals. The single function the Leaderboard
page, the CLI (``leaderboard``) and the exports call, so every surface shows the same numbers. A dataset's per-task
outcomes (binary and rubric) come from :mod:`scorio_core.leaderboard.task_outcomes` (re-exported)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from scorio_core import eval as ev
from scorio_core.eval.batch import _binary_question_scores
from scorio_core.eval.bayes import scaled_weights
from scorio_core.errors import InputError
from scorio_core.leaderboard.metrics import get_metric
from scorio_core.leaderboard.checks import (QUESTION_SETS, _common_mask, apply_question_set, emptied_on, leaderboard_notices,
                                            question_sets_differ)
from scorio_core.choices import prior_label
from scorio_core.uncertainty import DEFAULT_PRIOR, DEFAULT_SCOPE, PRIOR_LABELS, check_prior, check_scope, interval_label
from scorio_core.uncertainty.fallback import FALLBACK_LABELS, comparison_sds, fallback_interval_label
from scorio_core.eval._validate import check_confidence
from scorio_core.uncertainty.batch import _whole_counts, summary_from_states
from scorio_core.uncertainty.clustered import clustered_se, codes_for_questions
from scorio_core.uncertainty.batch_prior import _CountStates
from scorio_core.uncertainty.strata import strata_states
from scorio_core.leaderboard.order import board_order
from scorio_core.leaderboard.outcomes import Outcomes
from scorio_core.leaderboard.task_outcomes import (
    ALL_TASKS,
    Categorization,
    TaskOutcomes,
    categorization_for,
    combine,
    outcomes_for,
    pick_task,
    task_names,
)

__all__ = ["TaskOutcomes", "Categorization", "task_names", "pick_task", "outcomes_for", "combine", "leaderboard",
           "categorization_for", "LEADERBOARD_COLUMNS", "ALL_TASKS", "QUESTION_SETS", "apply_question_set",
           "leaderboard_notices", "emptied_on", "question_sets_differ", "pairwise_for"]


#: Column order of :func:`leaderboard` (also the JSON row keys of the CLI).
LEADERBOARD_COLUMNS = (
    "model", "task", "metric", "estimate", "mu", "sigma", "lo", "hi", "prior", "scope", "interval", "interval_kind",
    "avg", "accuracy", "pass_at_k", "rank", "rank_ci", "n_questions", "n_trials", "n_trials_max",
)


def _positions(names, wanted) -> np.ndarray:
    """Indices of ``wanted`` in ``names`` (dict lookup, not list.index per model)."""
    where = {m: i for i, m in enumerate(names)}
    return np.array([where[m] for m in wanted], dtype=np.int64)


def _take(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``a[idx]`` without the copy when ``idx`` is every row in order (the usual case; callers only read it).

    The result is C-contiguous either way, as ``a[idx]`` is: reductions sum in a layout-dependent order.
    """
    if idx.size == len(a) and (idx.size == 0 or np.array_equal(idx, np.arange(idx.size))):
        return np.ascontiguousarray(a)
    return a[idx]


class _StateMemo:
    """Each model's distinct answered count rows (:class:`_CountStates`), built once per tensor.

    Every per-model column of the leaderboard (questions, trials, avg@N, Pass@k, the batch
    posterior) is a frequency-weighted sum over these states: one pass over the (L, M, C+1)
    tensor instead of one per column.
    """

    def __init__(self) -> None:
        self._memo: dict = {}

    def of(self, outcomes: Outcomes, names) -> _CountStates:
        idx = _positions(outcomes.models, names)
        key = (id(outcomes), idx.tobytes())
        if key not in self._memo:
            self._memo[key] = _CountStates.of(_whole_counts(_take(outcomes.counts, idx)))
        return self._memo[key]

    def strata_of(self, outcomes: Outcomes, names) -> _CountStates | None:
        """(model, task) states where ``outcomes`` pools several tasks (:meth:`Outcomes.strata`), else None."""
        codes = outcomes.strata()
        if codes is None:
            return None
        idx = _positions(outcomes.models, names)
        key = ("strata", id(outcomes), idx.tobytes())
        if key not in self._memo:
            self._memo[key] = strata_states(_whole_counts(_take(outcomes.counts, idx)), codes)
        return self._memo[key]


def _trial_columns(st: _CountStates) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(answered questions, fewest trials, most trials)`` per model (L,); 0 trials without answers."""
    n = st.n.astype(np.int64)
    answered = np.bincount(st.model, weights=st.freq, minlength=st.L).astype(np.int64)
    fewest = np.zeros(st.L, dtype=np.int64)
    most = np.zeros(st.L, dtype=np.int64)
    has = np.bincount(st.model, minlength=st.L) > 0
    if has.any():  # states are sorted by model: one reduceat per bound
        starts = np.searchsorted(st.model, np.flatnonzero(has))
        fewest[has] = np.minimum.reduceat(n, starts)
        most[has] = np.maximum.reduceat(n, starts)
    return answered, fewest, most


def _avg_from_states(st: _CountStates, w: np.ndarray) -> np.ndarray:
    """avg@N of every model, shape (L,): mean over answered questions of each question's average score.

    Equals :func:`scorio_core.eval.avg` per model (equal N: sum over trials / (M N)); NaN without
    answered questions. Computed on weights shifted and scaled to unit range, so weights near 1e308 stay finite.
    """
    offset, scale, w_norm = scaled_weights(np.asarray(w, dtype=float))
    answered = np.bincount(st.model, weights=st.freq, minlength=st.L)
    per_state = (st.rows @ w_norm) / st.n if st.rows.size else np.zeros(0)
    return np.where(answered > 0, offset + scale * (st.total(per_state) / np.maximum(answered, 1)), np.nan)


def _pooled_from_states(st: _CountStates, w: np.ndarray) -> np.ndarray:
    """Raw accuracy of every model, shape (L,): the score of all its trials pooled (total score / total trials).

    Equals avg@N when every question has the same number of trials; with unequal trials a question
    with more trials weighs more here, while avg@N weighs every question the same. NaN without trials.
    """
    offset, scale, w_norm = scaled_weights(np.asarray(w, dtype=float))
    trials = st.total(st.n.astype(float)) if st.rows.size else np.zeros(st.L)
    score = st.total(st.rows @ w_norm) if st.rows.size else np.zeros(st.L)
    return np.where(trials > 0, offset + scale * score / np.maximum(trials, 1), np.nan)


def _pass_at_k_from_states(st: _CountStates, k: int) -> np.ndarray:
    """Pass@k of every model (L,): mean of the unbiased per-question estimator; NaN if a question has < k trials."""
    answered, fewest, _ = _trial_columns(st)
    n = st.n.astype(np.int64)
    scores = (st.rows[:, 1] / np.maximum(n, 1) if k == 1  # c / n exactly, as avg@N (not 1 - (n - c) / n)
              else _binary_question_scores("pass@k", st.rows[:, 1].astype(np.int64), np.maximum(n, max(k, 1)), k=k))
    value = st.total(np.where(n >= k, scores, 0.0)) / np.maximum(answered, 1)
    return np.where((answered > 0) & (k <= fewest), value, np.nan)


def _model_counts(outcomes: Outcomes, index: int, prior_counts: np.ndarray | None, binary: bool):
    """Sufficient statistics of one model over the questions it answered."""
    cell = outcomes.counts[index]
    present = cell.sum(axis=1) > 0
    if not np.any(present):
        return None
    if binary:
        return ev.BinaryCounts(cell[present, 1], cell[present].sum(axis=1))
    prior = None if prior_counts is None else prior_counts[index][present]
    return ev.CategoryCounts(cell[present], prior)


def leaderboard(
    task_outcomes: TaskOutcomes,
    *,
    metric: str = "bayes",
    k: int = 1,
    tau: float = 0.5,
    confidence: float = 0.95,
    tie_rule: str = "pairwise",
    prior_counts: np.ndarray | None = None,
    prior: str = DEFAULT_PRIOR,
    scope: str = DEFAULT_SCOPE,
    question_set: str = "own",
    clusters: Mapping[str, object] | None = None,
    cluster_column: str = "cluster",
) -> pd.DataFrame:
    """One row per model: the metric with its credible interval, avg@N, Pass@k and ranks.

    Parameters
    ----------
    task_outcomes : TaskOutcomes
    metric : str, default "bayes"
        Key of :data:`scorio_core.leaderboard.metrics.METRICS`.
    k : int, default 1
        Draws for the k-metrics and the ``pass_at_k`` column.
    tau : float, default 0.5
        Threshold of G-Pass@k_tau.
    confidence : float, default 0.95
        Credibility of intervals (two-sided) and of CI ties (one-sided z, paper 2.7.1).
    tie_rule : {"pairwise", "paper", "upper-bound", "none"}, default "pairwise"
        How ``rank_ci`` treats overlapping uncertainty (see :func:`scorio_core.ranking.rank.ranks_with_ties`).
        Bayes@N under ``questions-sampled`` with ``pairwise``: each pair's difference is paired over
        the questions both answered (:func:`scorio_core.ranking.paired.paired_pairwise_ranks`, up to
        :data:`~scorio_core.ranking.paired.PAIRED_MAX_WORK`; Miller 2024).
    prior_counts : ndarray, shape (L, M, C+1), optional
        Prior outcome counts for Bayes@N / Max@k (a Dirichlet prior from another dump).
    prior : {"empirical-bayes", "uniform", "jeffreys"}, default "empirical-bayes"
        Per-question prior (:mod:`scorio_core.uncertainty`); ``uniform`` is the paper's
        Bayes@N, reference-exact. The default is the one measured to cover at the nominal
        level (docs/metrics.md, "Calibration").
    scope : {"questions-fixed", "questions-sampled"}, default "questions-fixed"
        What the interval covers: the trials only (the paper's estimand) or also which
        questions were drawn from a larger pool.
    question_set : {"own", "common", "missing-incorrect"}, default "own"
        How models that answered different questions are compared (:data:`QUESTION_SETS`,
        :func:`apply_question_set`); :func:`leaderboard_notices` says when it matters.
    clusters : mapping of question id to cluster label, optional
        Questions that come in groups (a passage, a template, a source file; :func:`question_clusters`).
        Under ``questions-sampled``, Bayes@N and avg@N use the cluster-robust standard error over
        questions (:mod:`scorio_core.uncertainty.clustered`; Miller 2024) instead of treating the
        questions as independent, and their ``interval`` label says so; their CI ties then compare
        each model's own (clustered) interval, unpaired (conservative). Other metrics keep
        independent questions and their label says that too. No effect with questions fixed.
    cluster_column : str, default "cluster"
        Name of the grouping, for the labels and errors.

    Returns
    -------
    DataFrame
        Columns :data:`LEADERBOARD_COLUMNS`, sorted by ``mu`` (best first). Models that
        cannot be scored (e.g. ``k`` larger than their trials) get NaN and rank NaN.
        ``prior``/``scope`` are the ones actually used for the row (Max@k: always uniform)
        and ``interval`` says in words what the interval covers; ``interval_kind``: ``"credible"``, or
        ``"exact-binomial"`` (Clopper-Pearson) where the empirical-Bayes prior was not identified.

    Raises
    ------
    ValueError
        Unknown metric, prior, scope, tie rule or question set.
    """
    from scorio_core.ranking.compare import question_scores
    from scorio_core.ranking.paired import paired_pairwise_ranks, ranks_are_paired
    from scorio_core.eval.ranking import near_tie_ranks
    from scorio_core.ranking.rank import ranks_with_ties
    from scorio_core.leaderboard.linking import rank_within_groups, scored_group_labels

    spec = get_metric(metric)
    check_prior(prior)
    check_scope(scope)
    task_outcomes = apply_question_set(task_outcomes, question_set)
    source = task_outcomes.binary if spec.binary else task_outcomes.rubric
    if source is None:
        raise InputError(f"{spec.label} needs binary correctness (is_correct) on every attempt, which this data does not "
                         "have (no is_correct, or graded scores that a rubric gives partial credit: Bayes@N and avg@N "
                         f"use its weights; a threshold that binarizes the score gives {spec.label}).")
    binary = task_outcomes.binary
    rubric = task_outcomes.rubric
    models = list(task_outcomes.models)
    confidence = check_confidence(confidence)
    if prior_counts is not None and question_set == "common":
        prior_counts = prior_counts[:, _common_mask(task_outcomes)]
    clustered = clusters is not None and scope == "questions-sampled"
    n_clusters = 0
    states = _StateMemo()
    r_states = states.of(rubric, models)
    n_questions, fewest, most = _trial_columns(r_states)
    frame = pd.DataFrame({
        "model": models, "task": task_outcomes.task, "metric": spec.label, "n_questions": n_questions.astype(int),
        "n_trials": fewest.astype(int), "n_trials_max": most,
    })
    columns = {name: np.full(len(models), np.nan) for name in ("estimate", "mu", "sigma", "lo", "hi")}
    used_prior = np.full(len(models), prior, dtype=object)
    used_scope = np.full(len(models), scope, dtype=object)
    unfit: dict[int, str] = {}
    s_idx = _positions(source.models, models)
    fallback = by_task = None
    if spec.key in ("bayes", "avg") and prior_counts is None and not (spec.key == "avg" and prior == "uniform"
                                                                      and scope == "questions-fixed"):
        # every model at once (no loop over models): the same numbers as MetricSpec.compute
        s_states = states.of(source, models)
        sampled_se = None
        if clustered:
            codes = codes_for_questions(source.questions, clusters, column=cluster_column)
            sampled_se = clustered_se(question_scores(source)[0][s_idx], codes)
            n_clusters = int(codes.max()) + 1 if codes.size else 0
        by_task = states.strata_of(source, models) if prior == "empirical-bayes" else None
        batch = summary_from_states(s_states, np.asarray(source.weights, dtype=float), prior, scope, confidence,
                                    sampled_se=sampled_se, strata=by_task)
        columns.update(mu=batch.mu, sigma=batch.sigma, lo=batch.lo, hi=batch.hi)
        fallback = batch.method
        columns["estimate"] = batch.mu if spec.key == "bayes" else _avg_from_states(s_states, source.weights)
    else:
        for i, model in enumerate(models):
            counts = _model_counts(source, s_idx[i], prior_counts if not spec.binary else None, spec.binary)
            if counts is None or (spec.uses_k and spec.key != "max@k" and k > int(np.min(counts.n_trials))):
                continue
            value = spec.compute(counts, w=source.weights, k=k, tau=tau, confidence=confidence, prior=prior, scope=scope)
            for name in columns:
                columns[name][i] = getattr(value, name)
            used_prior[i], used_scope[i] = value.prior, value.scope
            if value.prior_fit.startswith("fallback"):  # Pass@k family, prior not identified: estimate, exact interval
                unfit[i] = value.prior_fit
    for name, values in columns.items():
        frame[name] = values
    frame["prior"], frame["scope"] = used_prior, used_scope
    labels = {(p_, s_): interval_label(p_, s_, confidence) for p_, s_ in set(zip(used_prior, used_scope))}
    frame["interval"] = [labels[(p_, s_)] for p_, s_ in zip(used_prior, used_scope)]
    if unfit:  # as Bayes@N's fallback rows: labelled and typed exact-binomial, so every note and view treats them alike
        fallback = np.array([unfit.get(i, "") for i in range(len(models))], dtype=object)
    if fallback is not None:  # an empirical-Bayes prior the data could not identify: say what the interval is
        frame["interval"] = [fallback_interval_label(m, s_, confidence, n, lo, q) or label for m, s_, label, n, lo, q in zip(
            fallback, used_scope, frame["interval"], frame["n_trials_max"], frame["n_trials"], frame["n_questions"])]
        if unfit:
            for i in unfit:
                frame.loc[i, "interval"] += (f"; for {spec.label}: the estimate with the binomial bound x(1 - x)/M "
                                             "over the questions, which holds whatever their rates")
    # for scripts (the label says it in words): Clopper-Pearson where the empirical-Bayes prior was not identified
    frame["interval_kind"] = np.where(pd.Series(fallback, dtype=object).isin(FALLBACK_LABELS).to_numpy(),
                                      "exact-binomial", "credible") if fallback is not None else "credible"
    if by_task is not None:  # tasks pooled: the empirical-Bayes prior is fitted per (model, task)
        per_task = (frame["prior"] == "empirical-bayes").to_numpy() & (fallback == "marginal-likelihood")
        eb = PRIOR_LABELS["empirical-bayes"]
        frame.loc[per_task, "interval"] = frame.loc[per_task, "interval"].str.replace(
            eb, prior_label("empirical-bayes", pooled=True), regex=False)
    if clustered:  # what the question-sampling part assumes, in the label every view shows
        frame["interval"] += (f"; questions in {n_clusters:,} clusters of {cluster_column!r} (cluster-robust)"
                              if n_clusters else f"; clusters of {cluster_column!r} not applied to {spec.label} "
                                                 "(questions treated as independent)")
    frame["avg"] = _avg_from_states(r_states, rubric.weights)
    frame["accuracy"] = _pooled_from_states(r_states, rubric.weights)
    frame["pass_at_k"] = np.nan
    if binary is not None:
        in_binary = set(binary.models)
        present = [m for m in models if m in in_binary]
        frame.loc[frame["model"].isin(present).to_numpy(), "pass_at_k"] = _pass_at_k_from_states(states.of(binary, present), k)
    frame["rank"] = np.nan
    frame["rank_ci"] = np.nan
    scored = frame["mu"].notna().to_numpy()
    if scored.any():
        mu = frame.loc[scored, "mu"].to_numpy(float)
        down, up = comparison_sds(frame.loc[scored], confidence, _span(source.weights))  # exact rows: skewed
        groups = scored_group_labels(source.n_trials[s_idx[scored]])  # share no question: rank within each group
        frame.loc[scored, "rank"] = rank_within_groups(near_tie_ranks, groups, mu)  # an optimiser's last digits: no rank
        frame.loc[scored, "rank_ci"] = rank_within_groups(lambda m, d, u: ranks_with_ties(
            m, d, confidence=confidence, rule=tie_rule, sigma_up=u), groups, mu, down, up)
        if prior_counts is None and not clustered and ranks_are_paired(spec.key, scope, tie_rule, int(scored.sum()),
                                                                        len(source.questions)):
            # questions sampled: the models answered the same questions, so each pair's difference is paired
            fixed = summary_from_states(s_states, np.asarray(source.weights, dtype=float), prior, "questions-fixed",
                                        confidence, strata=by_task)
            scores, fixed_sd = question_scores(source)[0][s_idx[scored]], fixed.sigma[scored]
            fixed_sd = np.fmax(*comparison_sds(pd.DataFrame({  # fallback rows: the wider side of their fixed Beta (as
                "mu": fixed.mu[scored], "sigma": fixed_sd, "interval_kind": frame.loc[scored, "interval_kind"].to_numpy()}),
                confidence, _span(source.weights)))  # pairwise_for's P(A > B), so rank_ci and the matrix agree)
            frame.loc[scored, "rank_ci"] = rank_within_groups(lambda m, d, q: paired_pairwise_ranks(m, d, q, confidence),
                                                              groups, mu, fixed_sd, scores)
    frame["rank"] = frame["rank"].astype("Int64")
    frame["rank_ci"] = frame["rank_ci"].astype("Int64")
    frame = board_order(frame)  # score first, exact ties by name (the Tasks matrix sorts its cells the same way)
    return frame.reset_index(drop=True)[list(LEADERBOARD_COLUMNS)]


def _span(weights) -> tuple[float, float]:
    """The score range of a rubric's weights (the range an exact-binomial row's Beta lives on)."""
    w = np.asarray(weights, dtype=float)
    return float(w.min()), float(w.max())


def pairwise_for(task_outcomes: TaskOutcomes, table: pd.DataFrame, fixed_table: pd.DataFrame | None = None, *,
                 metric: str = "bayes", scope: str = DEFAULT_SCOPE, question_set: str = "own",
                 confidence: float = 0.95) -> tuple[np.ndarray, bool]:
    """``P(A > B)`` for every pair of a leaderboard's scored models, paired where the scope asks for it.

    Parameters
    ----------
    task_outcomes : TaskOutcomes
        The outcomes the leaderboard was computed from.
    table : DataFrame
        :func:`leaderboard` rows (``model``, ``mu``, ``sigma``); only scored rows (``mu`` not NaN)
        are compared, in the table's order.
    fixed_table : DataFrame, optional
        The same leaderboard under ``scope="questions-fixed"`` (its ``sigma`` is where the paired
        difference starts); needed to pair.
    metric, scope, question_set, confidence
        The leaderboard's settings (``confidence``: the level of an exact-binomial row's skewed spread,
        :func:`scorio_core.uncertainty.fallback.comparison_sds`).

    Returns
    -------
    rho : ndarray of float, shape (L, L)
        ``rho[i, j] = P(mu_i > mu_j)`` (:func:`scorio_core.ranking.rank.pairwise_confidence`);
        for Bayes@N under ``questions-sampled`` (within
        :data:`~scorio_core.ranking.paired.PAIRED_MAX_WORK`, with ``fixed_table``) paired
        over the questions each pair answered (:func:`~scorio_core.ranking.paired.paired_pairwise_confidence`).
    paired : bool
        Whether ``rho`` is paired.
    """
    from scorio_core.ranking.compare import question_scores
    from scorio_core.ranking.paired import paired_pairwise_confidence, ranks_are_paired
    from scorio_core.ranking.rank import pairwise_confidence

    scored = table[table["mu"].notna()]
    mu = scored["mu"].to_numpy(float)
    outcomes = apply_question_set(task_outcomes, question_set)
    source = outcomes.binary if get_metric(metric).binary else outcomes.rubric
    span = (0.0, 1.0) if source is None else _span(source.weights)
    if fixed_table is None or source is None or not ranks_are_paired(metric, scope, "pairwise", len(scored),
                                                                     len(source.questions)):
        return pairwise_confidence(mu, *comparison_sds(scored, confidence, span)), False
    fixed = fixed_table.set_index("model").loc[scored["model"]]
    sigma = np.fmax(*comparison_sds(fixed, confidence, span))  # paired: symmetric, the wider side
    scores = question_scores(source)[0][_positions(source.models, list(scored["model"]))]
    return paired_pairwise_confidence(mu, sigma, scores), True
