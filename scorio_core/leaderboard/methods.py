"""Method agreement of one task: its models ranked by Bayes@N, IRT ability and the ``scorio.rank`` methods.

Builds the binary response tensor of a task (:func:`scorio_core.rank.agreement.response_tensor`, or
the recorded trials when every cell has the same N), adds Bayes@N under the chosen prior and the 2PL
IRT ability (Rasch with fewer than 3 models) as scores on the same questions, and measures how the
rankings agree (:func:`scorio_core.rank.agreement.agreement`: Kendall's tau_b between methods, each
model's rank range, a one-line summary). With ``n_boot > 0``, each method's rank interval from a
percentile bootstrap over questions, the same resamples for every method
(:func:`scorio_core.rank.bootstrap.bootstrap_ranks`). What the CLI ``methods`` command prints and the
Leaderboard's "Method agreement" tab shows.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from scorio_core.arrays.order import canonical_outcomes
from scorio_core.errors import InputError
from scorio_core.leaderboard.checks import apply_question_set
from scorio_core.report.notes import as_notes
from scorio_core.rank.agreement import (METHODS, MethodAgreement, agreement, available_methods, method_label,
                                        response_tensor)
from scorio_core.rank.bootstrap import RankBootstrap, bootstrap_ranks

__all__ = ["ORDER_DEPENDENT_GROUPS", "QUESTION_SET_SENTENCES", "TRIAL_ORDER_METHODS", "MethodReport", "agreement_json",
           "default_methods", "method_agreement", "method_board", "missing_as_incorrect", "size_note"]


#: Groups left out of the default choice: rating systems replay the trials as a sequence of matches, so their
#: ranking depends on the trial order (arbitrary with counts only), and they cost seconds on large dumps.
ORDER_DEPENDENT_GROUPS = ("Rating systems",)
#: Methods whose ranking depends on how the models' trials line up: the paired comparisons (trial t of A against
#: trial t of B), Bayesian MCMC (the same comparisons) and the rating systems (a sequence of matches). Measured: with
#: each question's trials reordered (correct ones first), every one of these changed its scores on random tensors and
#: no other method did (tests/core/test_method_agreement.py).
TRIAL_ORDER_METHODS = frozenset([*METHODS["Paired comparison"], *METHODS["Rating systems"], "bayesian_mcmc"])
#: Groups offered but not chosen by default: the reference's joint-likelihood IRT fits (seconds each on large
#: dumps; the IRT ability of :mod:`scorio_core.items` stands for them in the default set).
SLOW_GROUPS = ("Item response theory",)


#: Count cells (resamples x models x questions x categories) of one batched Bayes@N bootstrap call.
_BATCH_CELLS = 1 << 22
#: Model x question cells (summed over resamples) of one batched IRT fit (~15 float arrays of this size at a time).
_IRT_BATCH_CELLS = 1 << 19
#: Largest table (models x questions) whose resamples are fitted in one batched solve: below it one fit's time is
#: mostly call overhead, which the batch removes (16 x 15: 11x faster, 20 x 100: 2.3x, 40 x 100: 1.6x); from about
#: 10,000 cells the arithmetic dominates and one fit per resample is as fast or faster (30 x 300: 1.0x, 50 x 200:
#: 0.7x; benchmarks/bench_irt_bootstrap.py, 2026-11-30).
_IRT_BATCH_MAX_CELLS = 6_000
#: Fewest questions a bootstrap over questions resamples into rank intervals (fewer: none, and the notes say why).
MIN_BOOTSTRAP_QUESTIONS = 5


def default_methods(n_models: int | None) -> list[str]:
    """Bayes@N, IRT ability and every implemented ``scorio.rank`` method affordable for ``n_models``
    (None: whatever the number of models; see :data:`scorio_core.rank.agreement.EXPENSIVE`).

    Rating systems (:data:`ORDER_DEPENDENT_GROUPS`) and the reference's IRT fits (:data:`SLOW_GROUPS`) are
    offered but not chosen by default.
    """
    groups = available_methods(n_models)
    return ["bayes", "irt_ability"] + [m for g, methods in groups.items() if g not in ORDER_DEPENDENT_GROUPS + SLOW_GROUPS
                                       for m in methods]


def size_note(n_models: int) -> str | None:
    """The sentence naming the methods :func:`default_methods` leaves out for ``n_models`` models, or None.

    Those are the methods of :data:`scorio_core.rank.agreement.EXPENSIVE` whose limit ``n_models`` exceeds: each
    takes from seconds to minutes at that size (``benchmarks/bench_many_models.py``); they still run when asked for.
    """
    chosen = set(default_methods(n_models))
    left = [m for m in default_methods(None) if m not in chosen]
    if not left:
        return None
    return (f"Left out by default for {n_models} models (each takes from seconds to minutes at this size): "
            f"{', '.join(method_label(m) for m in left)}. Choose them explicitly to run them (CLI: --methods NAME,...).")


#: The sentence a method ranking's caption adds for the question set it ranked on (none for ``own``: every question).
QUESTION_SET_SENTENCES = {"common": " Common questions only.", "missing-incorrect": " A question a model did not answer "
                                                                                 "counts as answered wrongly."}


def missing_as_incorrect(task_outcomes):
    """``apply_question_set(task_outcomes, "missing-incorrect")`` and the sentence counting the cells it filled (None:
    none was missing): a ranking that takes this choice without the leaderboard's notice always says it."""
    filled = apply_question_set(task_outcomes, "missing-incorrect")
    k = int(((np.asarray(task_outcomes.rubric.n_trials) == 0) & (np.asarray(filled.rubric.n_trials) > 0)).sum())
    return filled, (f"{k} missing (model, question) cells counted as answered wrongly, as often as the model that "
                    "tried the question most (missing counts as incorrect)." if k else None)


@dataclass(frozen=True)
class MethodReport:
    """Method agreement of one task and what it was computed on.

    Attributes
    ----------
    task : str
    agreement : MethodAgreement
    n_questions : int
        Questions every method ranked on (all, or the common ones with ``question_set="common"``).
    n_trials : int
        Trials per question and model (N).
    question_set : str
    prior : str
        Prior of the Bayes@N scores.
    notes : tuple of str
        What was left out and why (plain sentences).
    bootstrap : RankBootstrap or None
        With ``n_boot > 0``: each kept method's rank interval from a percentile bootstrap over the same
        questions (:func:`scorio_core.rank.bootstrap.bootstrap_ranks`, questions-sampled scope; the same
        resamples for every method, Bayes@N and IRT ability refitted on each). None otherwise.
    """

    task: str
    agreement: MethodAgreement
    n_questions: int
    n_trials: int
    question_set: str
    prior: str
    notes: tuple[str, ...]
    bootstrap: RankBootstrap | None = None


def method_agreement(task_outcomes, methods=None, *, prior: str = "empirical-bayes", question_set: str = "own",
                     top: int = 3, n_boot: int = 0, seed: int = 0, confidence: float = 0.95,
                     options=None) -> MethodReport:
    """Rank a task's models under several methods on the same questions and measure their agreement.

    Parameters
    ----------
    task_outcomes : scorio_core.leaderboard.task_outcomes.TaskOutcomes
        A task's outcomes; binary correctness is used (the ``scorio.rank`` methods are defined on
        binary outcomes).
    methods : sequence of str, optional
        Names from :data:`scorio_core.rank.agreement.METHODS` (``"bayes"``, ``"irt_ability"`` and the
        :mod:`scorio_core.rank` functions); default :func:`default_methods`.
    prior : str
        Prior of Bayes@N (:data:`scorio_core.choices.PRIORS`).
    question_set : {"own", "common", "missing-incorrect"}
        ``own`` needs every model to have answered every question (otherwise an error says so); ``common`` keeps the
        questions every model answered, ``missing-incorrect`` fills the others as wrong (:func:`missing_as_incorrect`);
        ``notes`` counts the questions left out or the cells filled.
    top : int
        The k of the summary's "top k".
    n_boot : int, default 0
        Bootstrap replicates over questions for each method's rank interval (0: none, as before). Costs
        ``n_boot`` times the chosen methods' time.
    seed : int, default 0
        Seed of the replicate indices (drawn once, shared by every method). The methods rank, draw and resample the
        models and questions in natural order (:func:`scorio_core.arrays.order.canonical_outcomes`) and the report
        lists the models in the input's order: any row order or engine gives the same numbers.
    confidence : float, default 0.95
        Coverage of the percentile rank interval.
    options : dict of str to dict, optional
        Keyword options of the :mod:`scorio_core.rank` methods, ``{name: {option: value}}``
        (:func:`scorio_core.rank.options.parse_method_options`), used for the point ranking and every resample.

    Returns
    -------
    MethodReport

    Raises
    ------
    InputError
        No binary correctness, fewer than 2 models, missing cells under ``own``, no common question,
        or cells with different numbers of trials (the message says what would answer the question).
    ValueError
        An unknown method or question set.
    """
    from scorio_core.choices import QUESTION_SETS
    from scorio_core.items.batch import irt_abilities_batch
    from scorio_core.items.irt import MIN_2PL_MODELS
    from scorio_core.items.irt import fit_irt
    from scorio_core.uncertainty import check_prior
    from scorio_core.uncertainty.batch import posterior_summary_batch

    check_prior(prior)
    if question_set not in QUESTION_SETS:
        raise ValueError(f"question_set must be one of {', '.join(QUESTION_SETS)} for method agreement; "
                         f"got {question_set!r}.")
    if task_outcomes.binary is None:
        raise InputError(f"task '{task_outcomes.task}' has no binary correctness: the ranking methods rank binary "
                         "outcomes (is_correct).", field="is_correct")
    notes = []
    if question_set == "missing-incorrect":  # an explicit choice: every missing cell said, never filled silently
        task_outcomes, filled = missing_as_incorrect(task_outcomes)
        notes += [filled] if filled else []
    out = task_outcomes.binary
    caller = tuple(out.models)  # ranked, drawn and resampled in natural order (any input order: the same numbers)
    out, order, _ = canonical_outcomes(out)
    L = len(out.models)
    if L < 2:
        raise InputError(f"task '{task_outcomes.task}' has {L} model: ranking methods need at least 2.", field="model")
    counts = np.asarray(out.counts)
    trials = counts.sum(axis=2)
    keep = np.ones(counts.shape[1], dtype=bool)
    if not np.all(trials > 0, axis=0).any():  # 'common questions only' would leave none: say what answers instead
        raise InputError(f"task '{task_outcomes.task}': no question was answered by every model, so the ranking "
                         "methods (which need every model on the same questions) cannot rank them, not even on common "
                         "questions. Rank a subset of models that share questions (in the app: the sidebar's Models filter), "
                         "count a question a model did not answer as answered wrongly (--question-set missing-incorrect; "
                         "in the app: 'Missing counts as incorrect'), or read the Bayes@N leaderboard and the IRT "
                         "ability, which rank models on different questions.",
                         field="question_id")
    if question_set == "common":
        keep = np.all(trials > 0, axis=0)  # some question, as checked above
        if not keep.all():
            notes.append(f"{int((~keep).sum())} of {keep.size} questions left out: not answered by every model "
                         "(common questions only).")
    counts = counts[:, keep]
    codes = out.strata()  # tasks pooled: Bayes@N fits its prior per (model, task), as the leaderboard
    codes = None if codes is None else codes[keep]
    s, n = counts[..., 1].astype(float), trials[:, keep].astype(float)
    R = None
    if out.R is not None:
        recorded = np.asarray(out.R)[:, keep]
        if recorded.size and recorded.min() >= 0 and np.all(n == recorded.shape[2]):
            R = (recorded == 1).astype(np.int8)  # the recorded trial order (rating systems use it)
    if R is None:
        R = response_tensor(s, n, out.models, [q for q, k in zip(out.questions, keep) if k])
    names = list(methods) if methods is not None else default_methods(L)
    if out.R is None and n.max() > 1:  # counts only: the tensor's trial order is made up (correct trials first)
        aligned = [method_label(m) for m in dict.fromkeys(names) if m in TRIAL_ORDER_METHODS]
        notes.append("Counts only: trials are taken in an arbitrary order (correct ones first)"
                     + (f"; {', '.join(aligned)} compare or replay the models' trials one by one, so their ranks, and "
                        "whether they can rank the data at all, depend on that order (attempt rows with their trial "
                        "order, e.g. --engine pandas on the attempts, give the real one); the other methods use each "
                        "question's counts." if aligned else
                        "; the chosen methods use each question's counts, so the order does not matter."))
    if methods is None and size_note(L):
        notes.append(size_note(L))
    known = ["bayes", "irt_ability"] + [m for group in available_methods().values() for m in group]
    unknown = [m for m in names if m not in known]
    if unknown or not names:
        what = f"unknown ranking method {unknown[0]!r}" if unknown else "no ranking method chosen"
        raise ValueError(f"{what}; choose from {', '.join(known)}.")
    if n_boot < 0:
        raise ValueError(f"n_boot must be 0 (no bootstrap) or a positive number of replicates; got {n_boot}.")
    if n_boot and not 0.0 < confidence < 1.0:  # before the point ranking: fail fast
        raise ValueError(f"confidence must satisfy 0 < confidence < 1; got confidence={confidence}.")
    irt_model = "2pl" if L >= MIN_2PL_MODELS else "rasch"  # as the Questions page and `questions` fit it

    def extra_scores(q, wanted) -> dict:
        """Bayes@N and IRT ability on the questions ``q`` (all of them, or one bootstrap resample)."""
        extra = {}
        if "bayes" in wanted:
            extra["bayes"] = posterior_summary_batch(counts[:, q], np.array([0.0, 1.0]), prior=prior,
                                                     strata=None if codes is None else codes[q]).mu
        if "irt_ability" in wanted:
            extra["irt_ability"] = fit_irt(s[:, q], n[:, q], irt_model).theta
        return extra

    extra = extra_scores(slice(None), names)
    if "irt_ability" in names and irt_model == "rasch":
        notes.append(f"IRT ability from a Rasch fit (a 2PL fit needs at least {MIN_2PL_MODELS} models).")
    result = agreement(R, names, models=out.models, extra=extra, top=top, options=options)
    boot = None
    if n_boot and R.shape[1] < MIN_BOOTSTRAP_QUESTIONS:  # every resample repeats the same few questions
        notes.append(f"No rank intervals: a bootstrap over questions needs at least {MIN_BOOTSTRAP_QUESTIONS} questions "
                     f"(here {R.shape[1]}); with fewer, the resamples hardly differ and the intervals would be near zero "
                     "width, saying nothing about new questions. More questions would give them.")
        n_boot = 0
    if n_boot:
        kept = result.methods  # the methods that ranked the full data

        def batch_fn(idx) -> dict:
            """Bayes@N and IRT ability of every resample in batched solves: resample b's models are rows
            b L .. b L + L - 1 of one posterior (each model's prior fitted to its own resampled questions, as on one
            resample at a time), and, for tables up to _IRT_BATCH_MAX_CELLS, one Newton solve fits every resample's IRT
            model (items.batch; larger tables: one fit per resample, extra_fn)."""
            B, M = idx.shape
            K = counts.shape[2]
            scores = {}
            if "bayes" in kept:
                scores["bayes"] = np.empty((B, L))
                step = max(1, _BATCH_CELLS // max(1, L * M * K))  # resamples per call: ~4M count cells at a time
                for start in range(0, B, step):
                    part = idx[start:start + step]
                    stacked = counts[:, part].transpose(1, 0, 2, 3).reshape(part.shape[0] * L, M, K)
                    by_task = None if codes is None else np.repeat(codes[part], L, axis=0)  # row b L + l: codes[part[b]]
                    scores["bayes"][start:start + part.shape[0]] = posterior_summary_batch(
                        stacked, np.array([0.0, 1.0]), prior=prior, strata=by_task).mu.reshape(part.shape[0], L)
            if "irt_ability" in kept and L * M <= _IRT_BATCH_MAX_CELLS:  # a fit not finite: a NaN row, a failure
                scores["irt_ability"] = np.empty((B, L))
                step = max(1, _IRT_BATCH_CELLS // max(1, L * M))
                for start in range(0, B, step):
                    part = idx[start:start + step]
                    scores["irt_ability"][start:start + part.shape[0]] = irt_abilities_batch(
                        s[:, part].transpose(1, 0, 2), n[:, part].transpose(1, 0, 2), irt_model)[0]
            return scores

        def extra_fn(q) -> dict:
            """IRT ability of one resample, where tables are too large for the batched solve to gain."""
            try:
                return extra_scores(q, ("irt_ability",)) if "irt_ability" in kept else {}
            except (ValueError, RuntimeError):  # no fit on this resample: counted as a failure
                return {"irt_ability": None}

        boot = bootstrap_ranks(R, kept, models=out.models, extra_fn=extra_fn, batch_fn=batch_fn, n_boot=n_boot,
                               confidence=confidence, seed=seed, options=options)
    back = np.argsort(order)  # each model's column, in the input's order
    result = replace(result, models=caller, ranks=result.ranks[:, back], scores=result.scores[:, back],
                     best=result.best[back], worst=result.worst[back])
    boot = boot if boot is None else replace(boot, models=caller, ranks=boot.ranks[..., back], lo=boot.lo[:, back],
                                             hi=boot.hi[:, back], median=boot.median[:, back])
    return MethodReport(task_outcomes.task, result, int(keep.sum()), int(R.shape[2]), question_set, prior, tuple(notes),
                        boot)


def method_board(report: MethodReport, method: str):
    """One method's ranking of a task beside its Bayes@N ranking: who moves when the method changes.

    Parameters
    ----------
    report : MethodReport
        From :func:`method_agreement` with ``method`` (and ``"bayes"`` for the comparison columns)
        among its methods.
    method : str
        The ranking method to show.

    Returns
    -------
    pandas.DataFrame
        One row per model, by rank (then the report's model order): ``model``, ``score`` (the
        method's own score, higher is better), ``rank`` (competition rank, 1 = best), and when
        Bayes@N was computed ``bayes_rank`` and ``change`` (``bayes_rank - rank``: positive when the
        method ranks the model higher than Bayes@N does) and ``bayes_mean`` (the Bayes@N posterior mean); when the
        report has bootstrap rank intervals for ``method`` (``method_agreement(..., n_boot=B)``), ``rank_lo`` and
        ``rank_hi`` (NaN where it failed on every resample).

    Raises
    ------
    ValueError
        ``method`` was not computed, or it cannot rank these data (the message gives the method's
        own reason, e.g. no finite maximum-likelihood estimate when a model wins every comparison).
    """
    import pandas as pd

    result = report.agreement
    if method in result.skipped:
        raise ValueError(f"{method_label(method)} cannot rank these data: {result.skipped[method]}")
    if method not in result.methods:
        raise ValueError(f"method {method!r} was not computed for this report; computed: {', '.join(result.methods)}.")
    k = result.methods.index(method)
    frame = pd.DataFrame({"model": list(result.models), "score": result.scores[k], "rank": result.ranks[k].astype(int)})
    if "bayes" in result.methods and method != "bayes":
        b = result.methods.index("bayes")
        frame["bayes_rank"] = result.ranks[b].astype(int)
        frame["change"] = frame["bayes_rank"] - frame["rank"]
        frame["bayes_mean"] = result.scores[b]
    boot = report.bootstrap
    if boot is not None and method in boot.methods:
        frame["rank_lo"] = boot.lo[boot.methods.index(method)]
        frame["rank_hi"] = boot.hi[boot.methods.index(method)]
    order = np.lexsort((np.arange(len(frame)), frame["rank"].to_numpy()))
    return frame.iloc[order].reset_index(drop=True)


def agreement_json(report: MethodReport, options: dict, notes: list[dict]) -> dict:
    """One task of ``methods --output json``: the methods, their agreement and bootstrap intervals (stable keys).

    Parameters
    ----------
    report : MethodReport
        :func:`method_agreement` of the task.
    options : dict
        The ``--method-option`` values by method, echoed as ``method_options``.
    notes : list of dict
        Note objects beside the report's own (e.g. the trial-position note).

    Returns
    -------
    dict
        ``task, methods, labels, n_questions, n_trials, question_set, prior, method_options, notes`` (objects
        ``{code, message}``: the report's own under ``method_agreement``, then ``notes``), ``skipped,
        summary, tau_b`` (null where undefined), ``models`` and, with a bootstrap, ``bootstrap`` (``n_boot, seed,
        confidence, scope, failed, intervals``).
    """
    out = {
        "task": report.task, "methods": list(report.agreement.methods),
        "labels": {m: method_label(m) for m in report.agreement.methods},
        "n_questions": report.n_questions, "n_trials": report.n_trials, "question_set": report.question_set,
        "prior": report.prior, "method_options": options, "notes": [*as_notes(report.notes, "method_agreement"), *notes],
        "skipped": dict(report.agreement.skipped), "summary": report.agreement.summary,
        "tau_b": [[None if np.isnan(v) else float(v) for v in row] for row in report.agreement.tau_b],
        "models": report.agreement.rows(),
    }
    boot = report.bootstrap
    if boot is not None:
        out["bootstrap"] = {"n_boot": boot.n_boot, "seed": boot.seed, "confidence": boot.confidence,
                            "scope": "questions-sampled", "failed": dict(boot.failed),
                            "intervals": [{k: row[k] for k in ("model", "method", "rank", "rank_lo", "rank_hi")}
                                          for row in boot.rows(report.agreement.ranks)]}
    return out
