"""``leaderboard``: per-task leaderboard with Bayes@N credible intervals and CI-tie ranks.

JSON output (``--output json``) is an object::

    {"rows": [{"model", "task", "metric", "estimate", "mu", "sigma", "lo", "hi",
               "prior", "scope", "interval", "avg",
               "pass_at_k", "rank", "rank_ci", "n_questions", "n_trials", "n_trials_max"}, ...],
     "settings": {...}, "notes": [...], "sources": [...]}

``rows`` are grouped by task and sorted by ``mu`` within a task. NaN becomes ``null``.
"""

from __future__ import annotations

import argparse

from scorio_core.cli._common import add_data_arguments, add_output_argument, add_uncertainty_arguments, emit_json, emit_rows, load_dataset

__all__ = ["register", "run"]


def register(subparsers) -> None:
    """Add the ``leaderboard`` subcommand."""
    from scorio_core.metrics import METRICS

    parser = subparsers.add_parser(
        "leaderboard",
        help="per-task leaderboard with credible intervals and CI-tie ranks",
        description=(
            "Rank models per task by Bayes@N (or another metric) with a credible interval. "
            "rank_ci lets models share a rank when their difference is not credible at the "
            "chosen confidence (paper section 2.7.1)."
        ),
    )
    add_data_arguments(parser)
    parser.add_argument("--metric", default="bayes", choices=list(METRICS), help="ranking metric (default: bayes = Bayes@N)")
    parser.add_argument("--confidence", type=float, default=0.95, help="credibility level (default 0.95)")
    parser.add_argument("--k", type=int, default=1, help="k for Pass@k and the k-metrics (default 1)")
    parser.add_argument("--tau", type=float, default=0.5, help="tau for G-Pass@k_tau (default 0.5)")
    parser.add_argument(
        "--tie-rule",
        choices=("paper", "upper-bound", "none"),
        default="paper",
        help="rank_ci rule: paper (adjacent z-test), upper-bound (arena style) or none",
    )
    add_uncertainty_arguments(parser)
    parser.add_argument("--schema", default=None, help="rubric schema: built-in name or rubric JSON file (default: binary correctness)")
    parser.add_argument("--max-tokens", type=int, default=None, help="max completion tokens, for the token_ratio signal of rubric schemas")
    parser.add_argument(
        "--freeze-thresholds",
        default=None,
        metavar="FILE",
        help="JSON of rubric threshold values to reuse (e.g. the `thresholds` of `rubric --output json`)",
    )
    add_output_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Execute ``leaderboard``; returns the exit status."""
    import pandas as pd

    from scorio_core.analysis import LEADERBOARD_COLUMNS, leaderboard, outcomes_for, task_names
    from scorio_core.eval._validate import check_confidence, check_tau

    check_confidence(args.confidence)
    check_tau(args.tau)
    if args.k < 1:
        raise ValueError(f"--k must be >= 1; got {args.k}.")
    dataset = load_dataset(args)
    tasks = [args.task] if args.task else task_names(dataset)
    frames, notes = [], []
    for task in tasks:
        categorization, rubric_notes = _categorize(dataset, args, task) if args.schema else (None, [])
        notes.extend(f"{task}: {note}" for note in rubric_notes)
        outcomes = outcomes_for(dataset, task, categorization)
        notes.extend(f"{task}: {note}" for note in outcomes.rubric.notes)
        frames.append(
            leaderboard(outcomes, metric=args.metric, k=args.k, tau=args.tau, confidence=args.confidence, tie_rule=args.tie_rule,
                        prior=args.prior, scope=args.scope)
        )
    table = pd.concat(frames, ignore_index=True)
    short = table.loc[table["n_trials"] < args.k, "model"].tolist()
    if short:
        notes.append(f"Pass@{args.k} is undefined (null) for models with fewer than k={args.k} trials: {', '.join(map(str, short[:10]))}")
    if args.output == "json":
        emit_json(
            {
                "rows": table.to_dict(orient="records"),
                "settings": {
                    "metric": args.metric,
                    "confidence": args.confidence,
                    "k": args.k,
                    "tau": args.tau,
                    "tie_rule": args.tie_rule,
                    "prior": args.prior,
                    "scope": args.scope,
                    "schema": args.schema or "binary",
                },
                "notes": notes,
                "sources": list(dataset.sources),
            }
        )
    else:
        columns = LEADERBOARD_COLUMNS if args.output != "table" else [c for c in LEADERBOARD_COLUMNS if c != "interval"]
        emit_rows(table.to_dict(orient="records"), columns, args.output)
        if args.output == "table":
            for label in dict.fromkeys(table["interval"]):
                print(f"lo, hi: {label}")
    return 0


def _categorize(dataset, args, task):
    """Apply ``--schema`` (and ``--freeze-thresholds``) to the attempts of one task."""
    from scorio_core.analysis import categorization_for
    from scorio_core.cli.rubric import read_frozen

    frozen = read_frozen(args.freeze_thresholds) if args.freeze_thresholds else None
    categorization, notes = categorization_for(dataset, args.schema, task, thresholds=frozen, max_tokens=args.max_tokens)
    return categorization, [n.split(": ", 1)[1] if n.startswith(f"{task}: ") else n for n in notes]
