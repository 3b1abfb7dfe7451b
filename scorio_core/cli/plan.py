"""``plan``: what to run next for a goal, and whether to stop (:func:`scorio_core.plan.plan_next`).

Usage::

    python -m scorio_core plan DATA... --goal top-1 [--k K] [--pair A B] [--width W] [--tolerance T]
        [--confidence 0.95] [--batch 200] [--cost-column COL] [--scope ...] [--prior ...] [--task T]
        [--max-trials-per-question N] [--project B] [--replays R] [--seed S] [--draws D] [--schema NAME_OR_JSON]
        [--output json|table|csv]

JSON output (stable; an eval harness drives it in a loop: plan -> run the batch -> append -> plan)::

    {"stop": bool, "decision": "goal_holds" | "cannot_progress" | "continue", "reason": str,
     "goal": {..., "probability": float, "holds": bool, "unlinked": bool},
     "batch": [{"model": str, "task": str, "question_id": str | null, "trials": int, "expected_gain": float | null}],
     "spent": {...}, "status": {..., "notes": [{"code", "message"}], "notices": [{"code", "finding", "message", ...}]},
     "sources": [{"name", "sha256", ...}]}

The posterior is Bayes@N's under binary correctness, or under the rubric of ``--schema`` (as ``leaderboard
--schema``); without ``--schema``, data with category codes and no is_correct get the leaderboard's default
'Category codes' rubric (one category per code, weight code / max code; ``status.notes`` says so).

A script should read ``goal.holds`` (or ``decision``), not ``stop`` alone: ``stop`` is true both when the goal holds
(``decision: goal_holds``) and when nothing can be run under the limits (``--max-trials-per-question``) that would
lower the goal's error (``decision: cannot_progress``; ``goal.holds`` false). When the models the goal compares fall
into groups that share no question (``status.notices`` holds the leaderboard's ``disconnected_groups`` notice), the
top-1, top-k, ranking goals and a pair across groups never hold (``goal.unlinked`` true, whatever
``goal.probability`` says): the batch runs models of each group on the other groups' questions (rows with
``expected_gain: null``: the goal's error across the groups is not modelled) until they share questions.
``question_id: null`` asks for new questions from the pool (questions-sampled scope), one trial per new
question per model. Same data and seed, same plan. ``--project B`` adds ``"projection": {"batches",
"replays", "requested_batches", "requested_replays", "note", "trials", "probability", "stopped",
"skipped_pool_trials"}``: per batch 0..batches, the median trials spent, the mean probability of the goal and the
share of replays stopped (:func:`scorio_core.plan.project_goal`). Without ``--replays`` the projection keeps to a
work budget: on large data it runs fewer replays (then batches) than asked, and ``note`` says so (empty otherwise). ``--output table|csv`` prints the batch rows after a
``# stop: ... reason`` line (table; with csv that line goes to standard error so the CSV stays plain: an empty
batch with ``# stop:`` means the goal already holds).
"""

from __future__ import annotations

import argparse
import sys

from scorio_core.cli._common import add_data_arguments, add_uncertainty_arguments, emit_json, emit_rows, load_dataset
from scorio_core.report.notes import as_notes, note, note_messages

__all__ = ["register", "run", "BATCH_KEYS", "EPILOG", "trial_position_plan_note"]

#: Keys of every ``batch`` row of the JSON output.
BATCH_KEYS = ("model", "task", "question_id", "trials", "expected_gain")

#: ``plan --help``'s epilog: how a script reads the decision.
EPILOG = ("Scripts: read goal.holds or decision (goal_holds | cannot_progress | continue) in the JSON, not stop alone: "
          "stop is also true when nothing can be run under the limits (e.g. --max-trials-per-question) that would "
          "lower the goal's error, with goal.holds false. Models in groups that share no question "
          "(status.notices: disconnected_groups) cannot be compared: top-1, top-k, ranking and a pair across groups "
          "never hold there, and the batch runs models of each group on the other groups' questions.")


def register(subparsers) -> None:
    """Add the ``plan`` subcommand (imports nothing beyond argparse and the option names)."""
    from scorio_core.choices import PLAN_GOAL_HELP, PLAN_GOALS

    parser = subparsers.add_parser(
        "plan",
        help="what to run next for a goal (top-1, top-k, ranking, pair, width), and whether to stop",
        description="Check a goal on the Bayes@N posterior of one task and, while it does not hold, propose the next "
                    "batch of (model, question, trials) by expected reduction of the goal's error per unit cost.",
        epilog=EPILOG,
    )
    add_data_arguments(parser, one_task=True)
    parser.add_argument("--goal", choices=PLAN_GOALS, default="top-1",
                        help="; ".join(f"{k}: {v}" for k, v in PLAN_GOAL_HELP.items()))
    parser.add_argument("--k", type=int, default=None, help="top-k: size of the top set (1 <= k < number of models)")
    parser.add_argument("--pair", nargs=2, default=None, metavar=("A", "B"), help="pair: the two models")
    parser.add_argument("--width", type=float, default=None, metavar="W", help="width: target interval width")
    parser.add_argument("--tolerance", type=float, default=0.01, metavar="T",
                        help="ranking, pair: models closer than T may be declared tied; top-1, top-k: the indifference zone (the "
                             "chosen models are the best or within T of them; 0: strict) (default 0.01)")
    parser.add_argument("--confidence", type=float, default=0.95, help="probability the goal must reach (default 0.95)")
    parser.add_argument("--batch", type=int, default=200, help="trials in the next batch (default 200)")
    parser.add_argument("--cost-column", default=None, metavar="COL",
                        help="per-model cost column of the data (e.g. cost_usd); default: every trial costs 1")
    parser.add_argument("--max-trials-per-question", type=int, default=None, metavar="N",
                        help="a (model, question) cell never reaches more than N trials in all (default: no limit)")
    parser.add_argument("--project", type=int, default=0, metavar="B",
                        help="also project the goal's probability over the next B batches (8 replays on outcomes drawn "
                             "from the posterior; the Plan page's chart); adds \"projection\" to the JSON. On large "
                             "data fewer replays, then batches, run to stay within a time budget (the JSON's note "
                             "says so) unless --replays is given")
    parser.add_argument("--replays", type=int, default=None, metavar="R",
                        help="replays of the projection (default 8, fewer on large data); given, exactly R replays "
                             "of B batches run, whatever the time")
    add_uncertainty_arguments(parser, prior_help=PLAN_PRIOR_HELP)
    # None: plan_next's default, uniform for the ranking goals (empirical Bayes stopped wrongly too often in adaptive
    # replays), the leaderboard's for width (scorio_core.plan.prior_fit)
    parser.set_defaults(prior=None)
    parser.add_argument("--seed", type=int, default=0, help="seed of the Monte-Carlo draws (default 0)")
    parser.add_argument("--draws", type=int, default=4000, help="posterior draws (default 4000)")
    parser.add_argument("--schema", default=None, metavar="NAME_OR_JSON",
                        help="rubric schema: built-in name or rubric JSON file (default: binary correctness; category "
                             "codes without is_correct: one category per code, weight code / max code, as leaderboard)")
    parser.add_argument("--output", choices=("table", "json", "csv"), default="table")
    parser.set_defaults(func=run)


def trial_position_plan_note(task_outcomes, models=None) -> str | None:
    """The leaderboard's ``trial_position_effect`` message for the planned models, with what it means for a stop.

    Parameters
    ----------
    task_outcomes : TaskOutcomes
        The task's outcomes (attempt-level data: count data has no trial order, so None).
    models : sequence of str, optional
        The models the goal concerns (``--pair``'s two; default every model of the task).

    Returns
    -------
    str or None
        The message, or None when no planned model's success rate depends on the trial's position.
    """
    from scorio_core.leaderboard.trial_order import STOP_ASSUMES_EXCHANGEABLE, trial_position_note

    order = trial_position_note(task_outcomes, models)
    return None if order is None else f"{order['message']} {STOP_ASSUMES_EXCHANGEABLE}"


#: ``--prior``'s help here: the planner's default is not the leaderboard's (:func:`scorio_core.plan.plan_next`).
PLAN_PRIOR_HELP = ("per-question prior of the planner's posterior draws; default uniform (the paper's) for top-1, top-k, "
                   "ranking and pair, not the leaderboard's empirical-Bayes prior: in adaptive replays the "
                   "empirical-Bayes prior stopped wrongly above the nominal level (docs/metrics.md); the leaderboard's "
                   "empirical-Bayes prior for width (its intervals are the leaderboard's; under the uniform prior 95%% "
                   "of the intervals at a width stop missed the truth on a hard benchmark). A note says when a uniform "
                   "or Jeffreys prior moves a mean beyond its interval from the data (then its stops err more often). "
                   "uniform: Dirichlet(1) per question; jeffreys: "
                   "Dirichlet(1/2); empirical-bayes: a Dirichlet fitted to each model's questions, as on the leaderboard")


def run(args: argparse.Namespace) -> int:
    """Execute ``plan``; returns the exit status."""
    from scorio_core.errors import InputError
    from scorio_core.cli.export import analyse
    from scorio_core.leaderboard.table import ALL_TASKS, pick_task, task_names
    from scorio_core.leaderboard.task_outcomes import task_listing
    from scorio_core.plan import ONE_TASK, per_trial_costs, plan_next

    dataset = load_dataset(args)
    if args.task == ALL_TASKS and len(task_names(dataset)) == 1:
        args.task = None  # one task: all tasks pooled is that task
    if args.task == ALL_TASKS:
        raise InputError(f"{ONE_TASK}; choose one with --task: {task_listing(task_names(dataset), 20, count=False)}.")
    task = pick_task(task_names(dataset), args.task)
    task_outcomes = analyse(dataset, task, schema=args.schema, table=False)[0]  # --schema, or the category-code default
    outcomes = task_outcomes.rubric
    costs = per_trial_costs(dataset, task, args.cost_column, outcomes) if args.cost_column else None
    cap = None
    if args.max_trials_per_question is not None:
        if args.max_trials_per_question < 1:
            raise ValueError(f"--max-trials-per-question must be >= 1; got {args.max_trials_per_question}.")
        cap = (args.max_trials_per_question - outcomes.n_trials).clip(min=0)
    if args.project < 0:
        raise ValueError(f"--project must be >= 0 batches; got {args.project}.")
    if args.replays is not None and args.replays < 1:
        raise ValueError(f"--replays must be >= 1; got {args.replays}.")
    options = dict(k=args.k, pair=args.pair, width=args.width, tolerance=args.tolerance, confidence=args.confidence,
                   batch=args.batch, costs=costs, scope=args.scope, prior=args.prior)
    plan = plan_next(outcomes, args.goal, seed=args.seed, draws=args.draws, max_trials=cap, **options)
    order = trial_position_plan_note(task_outcomes, args.pair if args.goal == "pair" else None)
    # the stop decision draws exchangeable trials: a retry-after-failure dump breaks it (as the leaderboard says); then
    # the weights the category-code default assumed
    from scorio_core.cli.quality import load_notes

    said = [*as_notes(load_notes(dataset, args), "load"), *as_notes(plan.status.get("notes", ()), "plan"), *([note("trial_position_effect", order)] if order else []),
            *getattr(args, "default_notes", [])]
    if args.output == "json":
        out = plan.to_dict()
        out["status"] = {**out["status"], "notes": said}
        if args.project:
            from scorio_core.plan import PROJECTION_BUDGET, project_goal

            proj = project_goal(outcomes, args.goal, batches=args.project, replays=args.replays or 8, seed=args.seed,
                                draws=1000, max_trials=cap, budget=None if args.replays else PROJECTION_BUDGET,
                                **options)
            asked = proj.requested or (proj.replays, proj.batches)
            out["projection"] = {"batches": proj.batches, "replays": proj.replays, "requested_batches": asked[1],
                                 "requested_replays": asked[0], "note": proj.note, **proj.summary(),
                                 "skipped_pool_trials": proj.skipped_pool}
        emit_json({**out, "sources": list(dataset.sources)})
        return 0
    if args.output == "table":
        from scorio_core.choices import DEFAULT_PRIOR, PRIOR_LABELS

        print(f"# stop: {plan.reason}" if plan.stop else f"# {plan.reason}")
        print(f"# {plan.status['uncertainty']}")
        used = plan.status["prior"]
        print(f"# prior: {PRIOR_LABELS[used]}" + (
            f" (the planner's default; the leaderboard's is the {DEFAULT_PRIOR} prior: --prior {DEFAULT_PRIOR} to plan on "
            "it)" if args.prior is None and used != DEFAULT_PRIOR else ""))
        for message in note_messages(said):
            print(f"# note: {message}")
        for notice in plan.status.get("notices", ()):  # coded, as the leaderboard's (e.g. disconnected_groups)
            print(f"# note ({notice['code']}): {notice['message']}")
    if args.output == "csv":  # stdout stays plain CSV for parsers; the decision goes to stderr for a reader
        print(f"# stop: {plan.reason}" if plan.stop else f"# {plan.reason}", file=sys.stderr)
        for notice in plan.status.get("notices", ()):
            print(f"# note ({notice['code']}): {notice['message']}", file=sys.stderr)
    if args.output == "table" and not plan.batch:
        return 0
    new = "(new, from the pool)"
    rows = plan.batch if args.output == "csv" else [
        {**r, "question_id": new if r["question_id"] is None else r["question_id"]} for r in plan.batch]
    emit_rows(rows, list(BATCH_KEYS), args.output)
    return 0
