"""``convergence``: bootstrap distribution of convergence@n and mean Kendall's tau_b vs n.

JSON output (``--output json``) is an object::

    {"task", "metric", "prior", "k", "tau", "method", "replicates", "seed", "gold", "models",
     "n": [1..N] (for kendall_tau_mean), "gold_ranks", "s": [1..N-1] (for pmf and cdf),
     "pmf": [P(convergence@n = s)], "cdf": [P(convergence@n <= s)], "mean",
     "mean_censored", "no_convergence", "kendall_tau_mean": [N values],
     "worst_replicate", "worst_convergence", "worst_ranks": [[...]],
     "notes": [{"code", "message", ...}], "assumptions": [...], "sources": [...]}

Notes are objects as in every command (:mod:`scorio_core.report.notes`); besides the trajectory's codes:
``count_data``, ``bootstrap_auto``, ``default_replicates`` (with ``replicates``), ``kendall_tau_undefined`` and
``no_convergence_share`` / ``_few_trials`` / ``_gold_ties`` / ``_gold_data`` (why replicates did not converge).
``worst_convergence`` is -1 and ``mean`` is null when nothing converges. Count tables work
with ``--bootstrap row`` (trials resampled within each question; assumes exchangeable
trials); ``--bootstrap column`` needs attempt-level data with trial order. ``"engine"`` names
the engine that read the data: ``--bootstrap row`` needs only each question's counts, so it
also runs on counts from ``--engine duckdb`` or ``spark`` (and ``auto`` on large tables); the
trials are then rebuilt from the counts, which changes the replicates drawn for a seed (not
their distribution), and a note says so. The models (``"models"``, ``"gold_ranks"``, ``"worst_ranks"``) and
questions are taken in natural order, so the replicates do not depend on the file's row order or the engine.
"""

from __future__ import annotations

import argparse
import os

import numpy as np

from scorio_core.cli._common import add_data_arguments, add_output_argument, emit_json, emit_rows
from scorio_core.cli.trajectory import R0_GOLD, add_metric_arguments, int_ranks, load_block
from scorio_core.report.notes import note, note_messages

__all__ = ["register", "run"]


def register(subparsers) -> None:
    """Add the ``convergence`` subcommand."""
    parser = subparsers.add_parser(
        "convergence",
        help="bootstrap distribution of convergence@n and mean Kendall's tau_b vs n",
        description=(
            "convergence@n (paper section 3.3, Appendix I.1): the smallest number of trials after "
            "which the ranking equals the gold standard (the Bayes@N ranking of all the data under --prior: "
            "under the uniform prior the paper's avg@N ranking; the default empirical-Bayes prior can break "
            "avg@N's ties) and stays equal; estimated over bootstrap replicates (paper Figures 1, 3, 9, 11)."
        ),
    )
    add_data_arguments(parser, one_task=True, pool=True)
    add_metric_arguments(parser)
    from scorio_core.cli.rubric import add_prior_outcomes_arguments

    add_prior_outcomes_arguments(parser)  # R0 with --prior uniform (load_block)
    parser.add_argument(
        "--bootstrap",
        choices=("auto", "column", "row"),
        default="auto",
        help="resampling scheme; auto (default): column-wise when every question has the same N and the trial order, "
             "row-wise otherwise (count data, or ragged data where each question keeps its own N)",
    )
    parser.add_argument(
        "--replicates", type=int, default=None,
        help="bootstrap replicates (default 2000; under the empirical-Bayes prior, refitted to every replicate, prefix "
             "and model, the most of 100/200/500/1000/2000 estimated to finish in about 8 s on 2 cores: an estimate "
             "from the data's shape, so the same data always get the same count; it is in the JSON's replicates "
             "and a note says so)",
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--gold",
        choices=("data", "replicate"),
        default="data",
        help="gold standard: the data's Bayes@N ranking under --prior (default; avg@N's under --prior uniform, "
        "as in the paper) or each replicate's own final ranking",
    )
    add_output_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Execute ``convergence``; returns the exit status."""
    from scorio_core.dynamics.convergence import bootstrap_convergence
    from scorio_core.dynamics.explain import no_convergence_causes
    from scorio_core.dynamics.trajectory import outcomes_from_counts

    if args.replicates is not None and args.replicates < 1:
        raise ValueError(f"--replicates must be >= 1; got {args.replicates}.")
    if args.seed < 0:
        raise ValueError(f"--seed must be >= 0; got {args.seed}.")
    block = load_block(args, canonical=True, one_trial=_one_trial)  # row-wise draws per cell: in natural order
    notes = list(block.notes)
    R = block.R
    if R is None:
        if args.bootstrap == "column":
            raise ValueError(
                "column-wise bootstrap resamples trial indices shared by all questions and needs "
                "attempt-level data with trial order; these are counts: use --bootstrap row "
                "(assumes exchangeable trials)."
            )
        R = outcomes_from_counts(block.counts, ragged=True)
        notes.append(note("count_data", "count data: trials rebuilt from counts in arbitrary order (row-wise bootstrap "
                          "assumes exchangeable trials)"))
    if R.shape[2] < 2:
        raise _one_trial(block.task, block.sources)
    ragged = bool((R < 0).any())
    if ragged and args.bootstrap == "column":
        raise ValueError(
            "column-wise bootstrap shares trial indices across questions, but the questions here have different "
            "numbers of trials (ragged data): use --bootstrap row, which resamples each question's own trials "
            "(assumes exchangeable trials)."
        )
    if args.bootstrap == "auto":
        args.bootstrap = "row" if ragged or block.R is None else "column"
        if args.bootstrap == "row":
            notes.append(note("bootstrap_auto", "--bootstrap auto chose row-wise: "
                              + ("count data" if block.R is None else "ragged data")))
    if args.replicates is None:  # the pages' default: 2,000, or what the empirical-Bayes refits do in ~8 s
        from scorio_core.dynamics.budget import REPLICATE_CHOICES, default_note, default_replicates

        sized = block._replace(R=R)
        args.replicates = default_replicates(sized, args.prior, REPLICATE_CHOICES)
        notes.append(note("default_replicates", default_note(sized, args.replicates, flag="--replicates")
                          or f"--replicates not given: the default {args.replicates:,} bootstrap replicates ran (the "
                             "Convergence page's default); --replicates N runs another count.", replicates=args.replicates))
    tau = args.tau if args.metric == "g-pass@k_tau" else None
    w = block.weights if args.metric in ("bayes", "avg") else None
    res = bootstrap_convergence(
        R, args.metric, w=w, k=args.k, tau=tau, method=args.bootstrap, replicates=args.replicates, seed=args.seed, gold=args.gold,
        prior=args.prior, workers=min(2, os.cpu_count() or 1),  # both cores of the target machine; same result
        strata=block.strata, prior_counts=block.prior_counts,
    )
    if np.isnan(np.asarray(res.kendall_tau_mean, dtype=float)).all():
        notes.append(note("kendall_tau_undefined", "Kendall's tau_b is undefined (NaN): every model ties in the gold "
                          "standard or in every ranking after n trials, so there is no order to agree with; "
                          "convergence@n still compares the rankings, ties included"))
    notes.extend(note(f"no_convergence_{code}", sentence) for code, sentence in no_convergence_causes(
        res.no_convergence, int(res.n.size), gold=res.gold, gold_ranks=res.gold_ranks, models=block.models))
    payload = {
        "task": block.task,
        "engine": getattr(args, "engine_used", "pandas"),
        "metric": res.metric,
        "prior": res.prior,
        "k": res.k,
        "tau": res.tau,
        "method": res.method,
        "replicates": res.replicates,
        "seed": res.seed,
        "gold": res.gold,
        "models": list(block.models),
        "n": res.n,
        "gold_ranks": res.gold_ranks,
        "s": res.n[:-1],
        "pmf": res.pmf,
        "cdf": res.cdf,
        "mean": res.mean,
        "mean_censored": res.mean_censored,
        "no_convergence": res.no_convergence,
        "kendall_tau_mean": res.kendall_tau_mean,
        "worst_replicate": res.worst_replicate,
        "worst_convergence": res.worst_convergence,
        "worst_ranks": int_ranks(res.worst_ranks),
        "notes": notes,
        "assumptions": [*res.assumptions, *([R0_GOLD] if block.prior_counts is not None else [])],
        "sources": block.sources,
    }
    if args.output == "json":
        emit_json(payload)
        return 0
    N = res.n.size
    # every s = 1..N-1 for short runs (convergence@n <= N - 1 by definition), a log-spaced sample otherwise
    shown = list(range(1, N)) if N <= 21 else sorted({n for n in (1, 2, 5, 10, 20, 40, 80, 160, 320) if n < N} | {N - 1})
    rows = [
        {
            "n": n,
            "P(convergence@n = n)": float(res.pmf[n - 1]),
            "P(convergence@n <= n)": float(res.cdf[n - 1]),
            "mean Kendall tau_b": float(res.kendall_tau_mean[n - 1]),
        }
        for n in shown
    ]
    emit_rows(rows, list(rows[0]), args.output)
    if args.output == "table":
        mean = ("n/a (nothing converged)" if np.isnan(res.mean) else f"{res.mean:.1f} (over the replicates that converge; "
                f"{res.mean_censored:.1f} counting no convergence as N)")
        print(
            f"task {block.task}, metric {res.metric}, prior {res.prior}, {res.method}-wise bootstrap, {res.replicates} replicates, seed {res.seed}: "
            f"mean convergence@n {mean}, no convergence {res.no_convergence:.1%}"
        )
        for message in note_messages(notes):
            print(f"note: {message}")
    return 0


def _one_trial(task: str, sources):
    """The error for N = 1 trial per question everywhere: convergence@n needs 2 (an InputError naming the sources)."""
    from scorio_core.errors import InputError

    return InputError(f"task '{task}' has N = 1 trial per question for every model: convergence@n (the smallest "
                      "s <= N - 1 after which the ranking equals the gold standard for good) needs at least 2 trials "
                      "per question, so these data cannot answer it; run more trials per question (N >= 2; more "
                      "trials say more). `leaderboard` ranks the data as they are.",
                      source=", ".join(s.name for s in sources[:3]) or None)
