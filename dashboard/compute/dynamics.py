"""Cached calls of the Trajectories and Convergence pages: analysis blocks, bootstrap convergence, trajectories.

Keyed by ``data_id`` (content + data-quality choices), the task, the active rubric's ``rubric_id`` and ``prior_id``
(:mod:`dashboard.state.rubric`) and the view's settings (arguments starting with ``_`` are not hashed). Results are
shared and read-only; long runs go through :func:`dashboard.compute.background.run_jobs`, complete results are kept in
:mod:`dashboard.compute.store` (``stored``/``fetch``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import streamlit as st

from dashboard.compute.background import WORKERS, run_jobs
from dashboard.compute.store import fetch, progress_to, stored
from dashboard.compute.results import prior_counts, task_outcomes
from dashboard.guard import blocking_notice
from dashboard.state.session import KEY_MODELS
from dashboard.text import md
from scorio_core.arrays.order import canonical_outcomes
from scorio_core.dynamics.convergence import ConvergenceResult, bootstrap_convergence, bootstrap_indices
from scorio_core.dynamics.prefix import align_prefix_stats, trajectory_from_prefix_stats
from scorio_core.errors import InputError
from scorio_core.items.linking import shared_subset
from scorio_core.leaderboard.task_outcomes import ALL_TASKS
from scorio_core.dynamics.trajectory import Trajectory, outcomes_from_counts, rank_trajectory

__all__ = ["Block", "Method", "METRIC_LABELS", "pass_k_choices", "analysis_block", "block_models", "block_problem",
           "select_models", "progress_to", "convergence_methods", "convergence_results", "trajectory", "credible_bands",
           "stored", "fetch"]

#: Ranking metrics of the trajectory and convergence views, with their UI labels.
METRIC_LABELS = {
    "bayes": "Bayes@N",
    "pass@k": "Pass@k",
    "pass^k": "Pass^k",
    "g-pass@k_tau": "G-Pass@k_tau",
    "mg-pass@k": "mG-Pass@k",
}


class Method(NamedTuple):
    """One ranking method: metric, k and tau (G-Pass@k_tau only)."""

    metric: str
    k: int = 1
    tau: float | None = None

    @property
    def kind(self) -> str:
        """"rubric" (Bayes@N with the active rubric's weights) or "binary" (Pass@k family)."""
        return "rubric" if self.metric == "bayes" else "binary"

    @property
    def label(self) -> str:
        if self.metric == "bayes":
            return "Bayes@N"
        if self.metric == "pass@k":
            return f"Pass@{self.k}"
        if self.metric == "pass^k":
            return f"Pass^{self.k}"
        if self.metric == "g-pass@k_tau":
            return f"G-Pass@{self.k} (tau={self.tau:g})"
        return f"mG-Pass@{self.k}"


@dataclass(frozen=True, eq=False)
class Block:
    """The complete (L, M, N) rectangle a trajectory or bootstrap runs on.

    ``R`` holds category codes in the source's trial order when ``has_order``; for count
    data it is rebuilt from the counts in an arbitrary order (only row-wise resampling,
    which assumes exchangeable trials, is honest on it). ``prior`` is the prior R0 counts
    (L, M, C+1) aligned with the block's questions (Bayes@N only). ``prefix``: count data
    whose trial order DuckDB kept as prefix counts (binary outcomes), aligned with the
    block's models; the observed trajectory then comes from it, exactly. ``strata``: task code
    per question where tasks are pooled (the empirical-Bayes prior per model and task).
    """

    kind: str
    models: tuple[str, ...]
    R: np.ndarray
    has_order: bool
    weights: np.ndarray
    prior: np.ndarray | None
    notes: tuple[str, ...]
    prefix: object | None = None
    strata: np.ndarray | None = None

    @property
    def observed(self) -> bool:
        """Whether the observed trial order is known (attempt rows, or prefix counts of count data)."""
        return self.has_order or self.prefix is not None

    @property
    def n_models(self) -> int:
        return self.R.shape[0]

    @property
    def n_trials(self) -> int:
        """N_max: the most trials of any (model, question) cell."""
        return self.R.shape[2]

    @property
    def ragged(self) -> bool:
        """Cells with different N (padded with -1): row-wise resampling only."""
        return bool((self.R < 0).any())

    @property
    def min_trials(self) -> int:
        """The fewest trials of any cell (the largest k of the Pass@k family)."""
        return int((self.R >= 0).sum(axis=2).min())

    @property
    def lengths(self) -> np.ndarray | None:
        """Trials per cell (L, M) of ragged data, None when every cell has N trials."""
        return (self.R >= 0).sum(axis=2) if self.ragged else None


@st.cache_resource(show_spinner=False, max_entries=32)
def analysis_block(data_id: str, _dataset, task: str, kind: str, rubric_id: str = "binary", _categorization=None,
                   prior_id: str = "none", _prior=None, models: tuple[str, ...] | None = None) -> Block:
    """The complete block of ``kind`` ("rubric" or "binary") for a task under the active rubric.

    ``models``: build it from these models only (:func:`block_models`); None: every model of the task.

    Raises
    ------
    InputError
        No binary correctness for the Pass@k family, or no question every model answered.
        Cells with different numbers of trials are kept whole (a ragged block, row-wise only).
    """
    outcomes = task_outcomes(data_id, _dataset, task, rubric_id, _categorization)
    chosen = outcomes.rubric if kind == "rubric" else outcomes.binary
    if chosen is None:
        raise InputError("the Pass@k family needs binary correctness (is_correct), which this data does not have.")
    if models:
        chosen = chosen.select_models([m for m in chosen.models if m in set(models)])
    chosen = canonical_outcomes(chosen)[0]  # natural order, as the CLI: row-wise draws per cell match any row order
    block = chosen.complete_block(ragged=True)  # every trial kept; different N per cell -> ragged (row-wise only)
    notes = list(chosen.notes) + list(block.notes)
    prefix = None
    if block.R is not None:
        R, has_order = block.R, True
    else:
        R = outcomes_from_counts(block.counts, ragged=True)
        has_order = False
        prefix = _kept_prefix(_dataset, task, block)
        notes.append("counts only: the trial order is kept as prefix counts (observed trajectories are exact); "
                     "bootstrap trials are rebuilt from the counts and treated as exchangeable" if prefix is not None
                     else "counts only: no trial order; trials are treated as exchangeable")
    prior = None
    if kind == "rubric" and prior_id != "none":
        full, _ = prior_counts(data_id, _dataset, task, rubric_id, _categorization, prior_id, _prior)
        if full is not None:
            column_of = {q: j for j, q in enumerate(chosen.questions)}  # not tuple.index per question: O(M^2)
            index = [column_of[q] for q in block.questions]
            prior = np.ascontiguousarray(full[:, index])
            prefix = None  # prior counts R0 are not part of the prefix counts
    return Block(kind, block.models, R, has_order, np.asarray(block.weights, float), prior, tuple(notes), prefix, block.strata)


def _kept_prefix(dataset, task: str, block):
    """The dataset's prefix counts of ``task`` aligned with a count-only block, or None.

    Only binary blocks (two categories weighted 0 and 1, as a count table's correct/incorrect)
    whose final states match the prefix counts exactly (:func:`align_prefix_stats`).
    """
    kept = getattr(dataset, "trial_prefix", None) or {}
    stats = kept.get(task)
    if stats is None and task == ALL_TASKS and len(kept) == 1:
        stats = next(iter(kept.values()))
    counts = np.asarray(block.counts)
    if stats is None or counts.ndim != 3 or counts.shape[2] != 2 or list(np.asarray(block.weights, float)) != [0.0, 1.0]:
        return None
    return align_prefix_stats(stats, block.models, counts.sum(axis=2), counts[:, :, 1])


def block_problem(block: Block) -> str | None:
    """Why rank trajectories and convergence@n cannot be shown for this block (None if they can)."""
    if block.n_models < 2:
        return (f"Ranking needs at least 2 models; this data has {block.n_models} on this task. "
                "Pick a dataset or task with several models (e.g. the paper simulation).")
    return _single_trial_problem(block.n_trials)


def _single_trial_problem(n_trials: int) -> str | None:
    """Why rank trajectories need more trials than ``n_trials`` (the most any question has), or None."""
    return None if n_trials >= 2 else (
        f"Every question has N = {n_trials} trial here, so the ranking after n trials is a single point and "
        "convergence@n (the smallest n <= N - 1 after which the ranking stays at the gold standard) is undefined. "
        "These views need at least 2 trials per question.")


def _shared_question(ctx, active) -> bool:
    """Some question of the task was answered by every model."""
    outcomes = task_outcomes(ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id, active.categorization)
    return bool(np.any(np.all(outcomes.rubric.n_trials > 0, axis=0)))


def block_models(ctx, active) -> tuple[str, ...] | None:
    """Models the dynamics' block is built from: every model (None) when some question was answered by all of them;
    otherwise the sidebar's model filter (so models with disjoint question sets are compared on the questions the
    filtered ones share), or None when the filter is empty (the block then reports that no question is shared)."""
    if _shared_question(ctx, active) or not ctx.models:
        return None
    outcomes = task_outcomes(ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id, active.categorization)
    kept = tuple(ctx.shown(outcomes.rubric.models))  # the task's order, whatever the filter's
    return kept if len(kept) >= 2 else None


def rubric_block_or_stop(ctx, active, view: str) -> Block:
    """The rubric block of the page's task, or explain on the page why not and ``st.stop()``.

    Shared by the Trajectories and Convergence pages: blocking data-quality choices, the
    rubric's status message, data the block cannot be built from, and blocks with too few
    models or trials. ``view`` names the page's result in the error ("Trajectories").
    """
    if blocking_notice(ctx.data.dataset):
        st.stop()
    if active.message:
        st.info(md(active.message), icon=":material/info:")
    outcomes = task_outcomes(ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id, active.categorization)
    if problem := _single_trial_problem(int(np.max(outcomes.rubric.n_trials, initial=0))):  # before question-set advice
        st.info(md(problem), icon=":material/info:")
        st.stop()
    models = block_models(ctx, active)
    try:
        block = analysis_block(ctx.data.data_id, ctx.data.dataset, ctx.task, "rubric", active.rubric_id,
                               active.categorization, active.prior_id, active.prior, models=models)
    except InputError as exc:
        if _shared_question(ctx, active):
            st.error(f"{view} cannot be computed for this data: {md(exc)}", icon=":material/error:")
        else:  # a limit of the data, not an error (QA: a red box quoting CLI options)
            st.info(f"No question of this task was answered by every model shown, so {view} cannot rank them "
                    "together. Pick models that answered some questions in common in the sidebar's **Models** "
                    "filter: this view then ranks them on the questions they share.", icon=":material/filter_alt:")
            found = shared_subset(outcomes.rubric.n_trials > 0)  # one click to a set that works (greedy, not the largest)
            if found is not None:
                names = [outcomes.rubric.models[i] for i in found[0]]
                st.button(f"Filter to {len(names):d} models that share {found[1].size:d} questions", key="dyn_shared",
                          on_click=st.session_state.__setitem__, args=(KEY_MODELS, names), icon=":material/filter_alt:",
                          help="Sets the sidebar's Models filter to them: " + md(", ".join(names[:12]))
                               + (f" and {len(names) - 12:d} more" if len(names) > 12 else "") + ".")
        st.stop()
    if models:
        st.info(f"No question was answered by every model of this task, so this view ranks the {len(models):d} "
                "models of the sidebar's filter on the questions they share.", icon=":material/filter_alt:")
    problem = block_problem(block)
    if problem:
        st.info(md(problem), icon=":material/info:")
        st.stop()
    return block


def pass_k_choices(n_trials: int, min_trials: int | None = None) -> list[int]:
    """k offered for Pass@k on the Convergence page: 1..8, then 16, 32, 64, all <= N - 1.

    convergence@n is the smallest s <= N - 1 that settles, and Pass@k is undefined for
    n < k, so k = N could never converge. On ragged data every question needs k trials:
    k <= ``min_trials`` too.
    """
    top = n_trials - 1 if min_trials is None else min(n_trials - 1, min_trials)
    return [k for k in range(1, 9) if k <= top] + [k for k in (16, 32, 64) if k <= top]


def convergence_methods(selected, pass_ks, k: int, tau: float) -> list[Method]:
    """Methods of the Convergence page from its widgets (Bayes@N first, then Pass@k by k)."""
    methods = []
    for metric in METRIC_LABELS:
        if METRIC_LABELS[metric] not in selected:
            continue
        if metric == "bayes":
            methods.append(Method("bayes"))
        elif metric == "pass@k":
            methods.extend(Method("pass@k", int(kk)) for kk in sorted(pass_ks))
        else:
            methods.append(Method(metric, int(k), float(tau) if metric == "g-pass@k_tau" else None))
    return methods


def select_models(block: Block, models) -> Block:
    """The block restricted to ``models`` (in block order); the block itself for None or all models."""
    if models is None or set(models) == set(block.models):
        return block
    index = [i for i, m in enumerate(block.models) if m in set(models)]
    return Block(block.kind, tuple(block.models[i] for i in index), block.R[index], block.has_order, block.weights,
                 None if block.prior is None else block.prior[index], block.notes, strata=block.strata)


def _block_for(ctx, active, method: Method) -> Block:
    return analysis_block(ctx.data.data_id, ctx.data.dataset, ctx.task, method.kind, active.rubric_id,
                          active.categorization, active.prior_id, active.prior, models=block_models(ctx, active))


def _metric_args(block: Block, method: Method) -> dict:
    bayes = method.metric == "bayes"
    return dict(w=block.weights if bayes else None, k=method.k, tau=method.tau,
                prior_counts=block.prior if bayes else None)


def _context_key(ctx, active) -> str:
    models = block_models(ctx, active)
    subset = "all" if models is None else hashlib.sha256("\x1f".join(models).encode()).hexdigest()[:16]
    return f"{ctx.data.data_id}|{ctx.task}|{active.rubric_id}|{active.prior_id}|{dynamics_prior(ctx, active)}|{subset}"


def dynamics_prior(ctx, active) -> str:
    """Prior of Bayes@N on trajectories and convergence@n: the sidebar's, or uniform with prior counts R0.

    Prior counts (R0, Rubric page) combine with the paper's uniform prior only there
    (:func:`scorio_core.dynamics.trajectory.rank_trajectory`); the pages say so.
    """
    return "uniform" if active.prior is not None and active.prior_id != "none" else ctx.prior


def convergence_results(ctx, active, methods, *, scheme: str, replicates: int, seed: int, gold: str = "data",
                        models=None, on_progress=None) -> list[tuple[Method, ConvergenceResult]]:
    """Bootstrap convergence@n of every method (cached per data, rubric, prior, models and settings).

    ``models`` restricts the ranking to a subset (None: every model); convergence@n grows
    with the number of models (paper Appendix J). Missing results are computed in parallel
    (:func:`run_jobs`) with ``on_progress``; cached ones are returned at once.
    """
    blocks = [select_models(_block_for(ctx, active, m), models) for m in methods]
    prior = dynamics_prior(ctx, active)
    subset = "all" if models is None else hashlib.sha256("\x1f".join(sorted(models)).encode()).hexdigest()[:16]
    keys = [f"conv|{_context_key(ctx, active)}|{m}|{scheme}|{replicates}|{seed}|{gold}|{subset}" for m in methods]
    found = [fetch(key) for key in keys]
    todo = [i for i, res in enumerate(found) if res is None]

    def workers(method: Method) -> int:
        """Threads for one method's chunks: all for a method computed alone or for the empirical-Bayes refits
        (the Pass@k family beside them finishes in a fraction of their time), else one per method."""
        refit = prior == "empirical-bayes" and method.metric == "bayes"
        return WORKERS if len(todo) == 1 or refit else 1

    # the core sizes chunks by memory (~64 MiB): few, large chunks on small data, where a chunk costs its Newton
    # iterations more than its fits (16 x 15 x 4, 2,000 empirical-Bayes replicates: 0.45 s in one chunk, 4.9 s in
    # chunks of 64); ~40 progress updates on 20 x 30 x 80
    def job(i):
        block, method = blocks[i], methods[i]
        return lambda progress: bootstrap_convergence(
            block.R, method.metric, **_metric_args(block, method), method=scheme, replicates=replicates, seed=seed,
            gold=gold, progress=progress, prior=prior, workers=workers(method), strata=block.strata,
        )

    for i, res in zip(todo, run_jobs([job(i) for i in todo], on_progress)):
        found[i] = stored(keys[i], _result=res)
    return list(zip(methods, found))


def trajectory(ctx, active, method: Method, *, worst: ConvergenceResult | None = None, scheme: str = "column",
               seed: int = 0, gold: str = "data") -> Trajectory:
    """Rank trajectory of ``method`` on the observed trial order, or on the worst bootstrap replicate.

    ``worst`` is the :class:`ConvergenceResult` whose worst-case replicate (paper Figure 9)
    is rebuilt with :func:`bootstrap_indices` (same ``scheme`` and ``seed``). ``gold``:
    "data" (avg@N of the data) or "replicate" (the trajectory's own final ranking, so its
    convergence is the last change of the ranking).
    """
    block = _block_for(ctx, active, method)
    indices = None
    if worst is not None:
        indices = bootstrap_indices(block.R.shape, scheme, 1, seed, start=worst.worst_replicate, lengths=block.lengths)[0]
    order = "observed" if worst is None else f"{scheme}|{seed}|{worst.worst_replicate}"
    key = f"traj|{_context_key(ctx, active)}|{method}|{order}|{gold}"
    cached = fetch(key)
    if cached is not None:
        return cached
    if indices is None and block.prefix is not None:  # count data with its trial order kept as prefix counts
        result = trajectory_from_prefix_stats(block.prefix, method.metric, dynamics_prior(ctx, active), k=method.k,
                                              tau=method.tau, gold=gold)
    else:
        result = rank_trajectory(block.R, method.metric, **_metric_args(block, method), gold=gold, indices=indices,
                                 prior=dynamics_prior(ctx, active), strata=block.strata)
    return stored(key, _result=result)


def credible_bands(ctx, active, *, worst: ConvergenceResult | None = None, worst_method: Method | None = None,
                   scheme: str = "column", seed: int = 0) -> tuple[Trajectory, bool]:
    """Bayes@N trajectory (mean and sigma vs n) along the same trial order as the rank view.

    Returns the trajectory and whether it follows the worst-case replicate of
    ``worst_method``; it falls back to the observed order when that replicate cannot be
    rebuilt on the rubric's block (different shape, e.g. unmatched attempts).
    """
    bayes = Method("bayes")
    if worst is None or worst_method is None:
        return trajectory(ctx, active, bayes), False
    rubric_shape = _block_for(ctx, active, bayes).R.shape
    if worst_method.kind != "rubric" and rubric_shape != _block_for(ctx, active, worst_method).R.shape:
        return trajectory(ctx, active, bayes), False
    return trajectory(ctx, active, bayes, worst=worst, scheme=scheme, seed=seed), True
