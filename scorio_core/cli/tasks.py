"""``tasks``: models x tasks (Bayes@N with credible intervals), a combined score, pass/fail and flaky questions.

JSON output (``--output json``) is an object with stable keys::

    {"tasks": [...], "models": [...],
     "cells": [{"model", "task", "bayes", "lo", "hi", "avg", "n", "n_max", "m", "passed", "undecided", "flaky"}, ...],
     "combined": [{"model", "score", "lo", "hi", "reason"}, ...],
     "weighting": str, "assumption": str, "pass_rule": str, "undecided_rule": str, "flaky_rule": str,
     "threshold": float | null,
     "confidence": float, "prior": str, "scope": str, "interval": str, "cluster_column": str | null,
     "prior_outcomes": str | null, "prior_model": str | null,
     "data_choices": [str, ...], "notes": [{"code", "task", "finding", "message", "models", "effects"}, ...],
     "sources": [...]}

``data_choices`` lists the data-quality choices applied (``--missing-outcomes`` etc.), each a line saying what it
changed (empty when none). ``notes`` (a note of one task has its ``task`` and a message starting ``"TASK: "``, as
the leaderboard's) holds ``unequal_task_sizes`` (tasks whose numbers of questions differ 3x or more: the macro
average weighs a question of the smallest task that many times more) and the leaderboard's
``trial_position_effect`` notice of each task whose models' trials are not exchangeable repeats (success depends on
the trial's position; empty otherwise), its ``unequal_question_sets`` and ``disconnected_groups`` notices and its
``prior_pull`` notice (a prior moved a model's mean beyond its own interval from its observed avg@N). With
``--prior-outcomes FILE [--prior-model NAME]`` (the paper's prior outcomes R0, as ``leaderboard --prior-outcomes``: the
same R0 row per question for every model, each task's cells equal to ``leaderboard --task T --prior-outcomes FILE``)
``prior_outcomes``/``prior_model`` name them and each task has the leaderboard's ``prior_outcomes`` note (``source``,
``matched`` of ``n_questions``, ``prior_trials``, ``matched_across``, ``not_used``).

Cells are in task order, then in each task's leaderboard order (highest score first, exact ties by model name); ``n``/``n_max`` are the fewest/most trials of an answered question
(equal unless trials are ragged); NaN becomes ``null``; ``reason`` is "" when the
model has a combined score. ``undecided`` (null where ``passed`` is) is true where the cell's credible interval
holds the threshold: the verdict follows the rule but can flip with more trials or questions. ``--output table|csv|md`` prints the cells, then the combined scores.
"""

from __future__ import annotations

import argparse

from scorio_core.cli._common import add_data_arguments, add_output_argument, add_uncertainty_arguments, emit_json, emit_rows, load_dataset

__all__ = ["register", "run", "CELL_KEYS", "COMBINED_KEYS"]

#: Keys of every ``cells`` entry of the JSON output.
CELL_KEYS = ("model", "task", "bayes", "lo", "hi", "avg", "n", "n_max", "m", "passed", "undecided", "flaky")
#: Keys of every ``combined`` entry of the JSON output.
COMBINED_KEYS = ("model", "score", "lo", "hi", "reason")


def register(subparsers) -> None:
    """Add the ``tasks`` subcommand."""
    parser = subparsers.add_parser(
        "tasks",
        help="models x tasks: Bayes@N per task, combined score, pass/fail and flaky questions",
        description=(
            "Score every model on every task by Bayes@N with a credible interval (the leaderboard's numbers per task), "
            "a combined score (macro average over tasks, tasks independent), pass/fail against a threshold "
            "(avg@N >= T) and the number of flaky questions (both correct and incorrect attempts)."
        ),
    )
    add_data_arguments(parser)
    parser.add_argument("--threshold", type=float, default=None, metavar="T",
                        help="pass threshold: passed = avg@N >= T (default: no verdict, passed is null)")
    parser.add_argument("--confidence", type=float, default=0.95, help="credibility level (default 0.95)")
    add_uncertainty_arguments(parser)
    from scorio_core.cli.quality import add_cluster_argument

    add_cluster_argument(parser)
    parser.add_argument("--schema", default=None, help="rubric schema: built-in name, rubric JSON file, or score-values[:STEP] (graded scores: partial credit) (default: binary correctness)")
    from scorio_core.cli.rubric import add_prior_outcomes_arguments

    add_prior_outcomes_arguments(parser)
    add_output_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Execute ``tasks``; returns the exit status."""
    from scorio_core.tasks import (COMBINED_ASSUMPTION, FLAKY_RULE, PASS_RULE, UNDECIDED_RULE, WEIGHTING, combined_score,
                                   per_task_categorization, task_matrix)

    from scorio_core.cli.quality import cluster_engine
    from scorio_core.leaderboard.checks import choices_of, data_choices_notice

    from scorio_core.cli.rubric import (check_prior_outcomes_args, load_prior_outcomes, prior_outcome_counts,
                                        prior_outcomes_settings)

    check_prior_outcomes_args(args)
    cluster_engine(args)
    dataset = load_dataset(args)
    prior_data, r0_notes = load_prior_outcomes(args), []  # R0 (--prior-outcomes): each task's note in r0_notes
    categorization = per_task_categorization(dataset, args.schema) if args.schema else None
    r0 = None if prior_data is None else (lambda task, outcomes, cat: prior_outcome_counts(args, prior_data, outcomes, task,
                                                                                            cat, r0_notes))
    matrix = task_matrix(dataset, categorization=categorization, prior=args.prior, scope=args.scope,
                         confidence=args.confidence, threshold=args.threshold, prior_counts=r0,
                         tasks=[args.task] if args.task else None, cluster_column=args.cluster_column)
    from scorio_core.rubric.prior_outcomes import prior_outcomes_unused

    board = matrix.cells.sort_values(["bayes", "model"], ascending=[False, True], na_position="last", kind="stable")
    r0_notes = [prior_outcomes_unused(n, board[board["task"] == n["task"]]) for n in r0_notes]  # the leaderboard's order
    combined = combined_score(matrix, emptied=getattr(getattr(dataset, "report", None), "emptied", ()))
    choices = list(choices_of(dataset))
    cells = matrix.cells.astype(object).where(matrix.cells.notna(), None)
    cell_rows = [{k: row[k] for k in CELL_KEYS} for row in cells.to_dict(orient="records")]
    combined_rows = [{k: row[k] for k in COMBINED_KEYS} for row in combined.to_dict(orient="records")]
    from scorio_core.tasks.combined import unequal_task_sizes_notice

    sizes = unequal_task_sizes_notice(matrix)  # a 1-question split weighs as much as a 100-question one
    from scorio_core.cli.quality import load_notes
    from scorio_core.leaderboard.unfitted import prior_pull_notes
    from scorio_core.tasks.combined import no_combined_notice

    r0_of = {n["task"]: n for n in r0_notes}  # each task's leaderboard prior_pull, as `leaderboard --task T` says it
    pulled = [n for t in matrix.tasks for n in prior_pull_notes(
        matrix.cells[matrix.cells["task"] == t].rename(columns={"bayes": "mu", "n": "n_trials"}), task=t,
        r0_note=r0_of.get(t))]
    notes = [_named(n) for n in [{"code": "load", "message": n} for n in load_notes(dataset, args)] + r0_notes
             + list(matrix.notes) + pulled + [n for n in (sizes, no_combined_notice(combined, matrix.tasks)) if n]]
    if args.output == "json":
        emit_json({
            "tasks": list(matrix.tasks), "models": list(matrix.models), "cells": cell_rows, "combined": combined_rows,
            "weighting": WEIGHTING, "assumption": COMBINED_ASSUMPTION, "pass_rule": PASS_RULE,
            "undecided_rule": UNDECIDED_RULE, "flaky_rule": FLAKY_RULE,
            "threshold": matrix.threshold, "confidence": matrix.confidence, "prior": matrix.prior, "scope": matrix.scope,
            "interval": matrix.interval, "cluster_column": args.cluster_column, **prior_outcomes_settings(args),
            "data_choices": choices, "notes": notes, "sources": list(dataset.sources),
        })
        return 0
    emit_rows(cell_rows, CELL_KEYS, args.output)
    if args.output == "csv":
        return 0  # one table per CSV stream; the combined scores are in the JSON output
    print()
    emit_rows(combined_rows, COMBINED_KEYS, args.output)
    if args.output == "table":
        print(f"lo, hi: {matrix.interval}")
        print(f"combined: {WEIGHTING}; {COMBINED_ASSUMPTION}")
        print(f"passed: {PASS_RULE}")
        print(f"undecided: {UNDECIDED_RULE}")
        if choices:
            print(f"note: {data_choices_notice(choices)['finding']}")
        for note in notes:
            print(f"note: {note['message']}")
    return 0


def _named(note: dict) -> dict:
    """A note of one task with its message starting ``"{task}: "``, as the leaderboard's (five tasks' identical
    ``unequal_question_sets`` sentences otherwise read as one repeated); ``task`` is kept."""
    task = note.get("task")
    if task is None or str(note["message"]).startswith(f"{task}: "):
        return note
    return {**note, "message": f"{task}: {note['message']}"}
