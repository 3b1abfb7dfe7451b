"""``attempts``: every attempt of some models on one question (the app's drill-down).

Usage::

    python -m scorio_core attempts PATH... --question Q [--task T] [--models A B ...]
        [--schema S] [--unmatched exclude|LABEL] [--output json|table|csv]

JSON output is ``{"task", "question", "models", "schema", "columns", "rows": [{...}, ...]}``,
one row per attempt in model then trial order (:func:`scorio_core.leaderboard.drilldown.question_attempts`):
``model, trial, is_correct, score, category, weight`` when present, then every other field
the dump carries (answers, tokens, ...), as loaded; missing values are null.
"""

from __future__ import annotations

import argparse

from scorio_core.cli._common import add_data_arguments, emit_json, emit_rows, load_dataset

__all__ = ["register", "run"]


def register(subparsers) -> None:
    """Add the ``attempts`` subcommand."""
    parser = subparsers.add_parser(
        "attempts",
        help="every attempt of some models on one question, with outcome, rubric category and fields",
        description="Drill down from a question to its attempts: correctness, score, rubric category and every "
                    "per-attempt field the dump carries (answer, tokens, ...).",
    )
    add_data_arguments(parser)
    parser.add_argument("--question", required=True, help="question id (with all tasks pooled: task/question)")
    parser.add_argument("--models", nargs="+", default=None, metavar="MODEL", help="models to show (default: all)")
    parser.add_argument("--schema", default=None, help="rubric schema for the category column (built-in name or JSON file)")
    parser.add_argument("--unmatched", default="exclude", metavar="POLICY",
                        help="attempts in no rubric category: 'exclude' (shown as '(no category)') or a category label")
    parser.add_argument("--output", choices=("table", "json", "csv"), default="table")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Execute ``attempts``; returns the exit status."""
    from scorio_core.leaderboard.table import categorization_for, task_names
    from scorio_core.leaderboard.drilldown import question_attempts
    from scorio_core.errors import InputError
    from scorio_core.rubric.rerank import apply_unmatched, scope_mask

    dataset = load_dataset(args)
    tasks = task_names(dataset)
    task = args.task or (tasks[0] if len(tasks) == 1 else None)
    if task is None:
        raise InputError(f"the data has {len(tasks)} tasks ({', '.join(tasks[:8])}); choose one with --task.")
    categorization = None
    if args.schema:
        categorization, _ = categorization_for(dataset, args.schema, task)
        categorization = apply_unmatched(categorization, scope_mask(dataset.attempts, task), args.unmatched)
    frame = question_attempts(dataset, task, args.question, args.models, categorization)
    rows = frame.astype(object).where(frame.notna(), None).to_dict(orient="records")
    if args.output == "json":
        emit_json({"task": task, "question": args.question, "models": list(dict.fromkeys(frame["model"])),
                   "schema": args.schema or "binary", "columns": list(frame.columns), "rows": rows})
    else:
        emit_rows(rows, list(frame.columns), args.output)
    return 0
