"""``questions`` and ``attempts``: the questions of a task, diagnosed; one question's attempts.

Usage::

    python -m scorio_core questions PATH... [--task T] [--model-2pl | --rasch] [--difficulty-prior P] [--confidence C] [--output json|table|csv]
    python -m scorio_core attempts PATH... --question Q [--task T] [--models A B ...] [--schema S] [--unmatched exclude|LABEL] [--output json|table|csv]

``questions`` fits an item response model (2PL by default, Rasch with ``--rasch``) to each task's
count table and flags questions (:mod:`scorio_core.items`, docs/items.md). JSON output:
``{"model", "method", "confidence", "outcome", "flag_rules", "priors", "tasks", "questions": [...],
"models": [...], "sources"}`` with one row per question (``task, question_id, difficulty,
difficulty_lo, difficulty_hi, discrimination, discrimination_lo, discrimination_hi, information,
success_rate, n_models, flags`` (list of codes), ``reason``) and per model (``task, model, ability,
ability_lo, ability_hi, answered``); each ``tasks`` entry's ``unlinked`` says when models fall into groups that
share no question (abilities comparable within a group only), else null; ``notes`` holds what loading found (``load``)
and the leaderboard's ``trial_position_effect`` notice (with its ``task``) of each task whose trials are not
exchangeable repeats. ``leaderboard --exclude-flagged CODE,...`` ranks without the questions carrying those flags.
:mod:`scorio_core.cli.leaderboard.method_rows` is ``leaderboard --method NAME`` (any ranking method; ``irt_ability``: the same
fit's abilities as a ranking with intervals, missing cells and unequal N native).

``attempts`` lists every attempt of some models on one question (the app's drill-down): one row per
attempt in model then trial order (:func:`scorio_core.leaderboard.drilldown.question_attempts`):
``model, trial, is_correct, score, category, weight`` when present, then every other field the dump
carries, as loaded; missing values are null. JSON: ``{"task", "question", "models", "schema", "columns", "rows",
"notes", "sources"}``. Commands that rank 0/1 outcomes only (IRT, ``methods``, ``leaderboard --method``) refuse
category codes without is_correct with :func:`binary_outcomes_for`'s error.
"""

from __future__ import annotations

import argparse

from scorio_core.cli._common import add_data_arguments, emit_json, emit_rows, load_dataset

__all__ = ["COMMANDS", "register", "run", "run_questions", "binary_outcomes_for"]

#: The subcommands :func:`register` adds (its registration imports nothing beyond argparse).
COMMANDS = ("questions", "attempts")


def register(subparsers) -> None:
    """Add the ``questions`` and ``attempts`` subcommands."""
    parser = subparsers.add_parser(
        "questions", help="which questions are broken, saturated or uninformative (item response theory per task)",
        description="Fit a 2PL (or Rasch) item response model to each task's counts: question difficulty, "
                    "discrimination and information with Laplace intervals, model abilities, and question flags "
                    "(possibly_mislabeled, saturated, unsolved, low_information, flaky) with a reason each.",
    )
    add_data_arguments(parser)
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--model-2pl", dest="irt_model", action="store_const", const="2pl",
                      help="two-parameter logistic model (default; without this option a task with one model gets Rasch)")
    kind.add_argument("--rasch", dest="irt_model", action="store_const", const="rasch",
                      help="Rasch model (every discrimination 1; works with one model)")
    parser.set_defaults(irt_model=None)  # 2PL, Rasch where a task has one model (said), as the Questions page
    parser.add_argument("--difficulty-prior", choices=("empirical-bayes", "fixed"), default="empirical-bayes",
                        help="difficulty prior: N(0, tau^2) with tau estimated from the data (empirical-bayes, "
                             "default: intervals nearer their nominal coverage on simulated data; docs/items.md) or "
                             "N(0, 3^2) (fixed)")
    parser.add_argument("--confidence", type=float, default=0.95, help="level of the intervals (default 0.95)")
    parser.add_argument("--schema", default=None, metavar="NAME_OR_JSON",
                        help="fit a rubric's weights in [0, 1] read as fractional successes, as the Questions page does "
                             "under a rubric (e.g. score-values: graded scores' partial credit; default: 0/1 correctness)")
    parser.add_argument("--output", choices=("table", "json", "csv"), default="table")
    parser.set_defaults(func=run_questions)

    parser = subparsers.add_parser(
        "attempts",
        help="every attempt of some models on one question, with outcome, rubric category and fields",
        description="Drill down from a question to its attempts: correctness, score, rubric category and every "
                    "per-attempt field the dump carries (answer, tokens, ...).",
    )
    add_data_arguments(parser, one_task=True, pool=True)
    parser.add_argument("--question", required=True, help="question id (with all tasks pooled: task/question)")
    parser.add_argument("--models", nargs="+", default=None, metavar="MODEL", help="models to show (default: all)")
    parser.add_argument("--schema", default=None, help="rubric schema for the category column (built-in name or JSON file)")
    parser.add_argument("--unmatched", default="exclude", metavar="POLICY",
                        help="attempts in no rubric category: 'exclude' (shown as '(no category)') or a category label")
    parser.add_argument("--output", choices=("table", "json", "csv"), default="table")
    parser.set_defaults(func=run)


def binary_outcomes_for(dataset, task: str, needs: str):
    """:func:`scorio_core.leaderboard.table.outcomes_for` of a command that ranks 0/1 outcomes only.

    Parameters
    ----------
    dataset : scorio_core.io.Dataset
        Loaded data.
    task : str
        The task (or ``ALL_TASKS``).
    needs : str
        What needs the 0/1 outcomes, named in the error (e.g. ``"IRT"``).

    Returns
    -------
    TaskOutcomes
        The task's outcomes (its ``binary`` set).

    Raises
    ------
    InputError
        No is_correct value in the task: names its category codes and the fixes (no option this command lacks).
    """
    from scorio_core.errors import InputError
    from scorio_core.leaderboard.table import ALL_TASKS, outcomes_for

    rows = dataset.attempts  # the task's (a count table has is_correct counts: outcomes_for reads them)
    rows = rows if rows is None or task == ALL_TASKS else rows.loc[(rows["task"] == task).to_numpy()]
    if rows is None or rows.empty or ("is_correct" in rows and rows["is_correct"].notna().any()):
        return outcomes_for(dataset, task)
    codes = sorted({int(c) for c in rows["category"].dropna()}) if "category" in rows else []
    found = f"category codes ({', '.join(map(str, codes))}) and no is_correct" if codes else "no is_correct values"
    raise InputError(f"task '{task}' has {found}: {needs} needs 0/1 outcomes. Map a 0/1 column of the data as the "
                     "outcome (--map is_correct=COLUMN)" + (", or score the category codes under Bayes@N with "
                     "`leaderboard`, `compare`, `ranks` or `plan` (the default 'Category codes' rubric: weight code / "
                     "max code)" if codes else "") + ".", field="is_correct")


def irt_outcomes(dataset, task: str, schema=None):
    """The outcomes ``questions`` fits: 0/1 correctness, or a rubric's weights in [0, 1] read as fractional successes,
    as the Questions page reads its rubric (:func:`scorio_core.items.irt.from_outcomes`): ``schema`` (``--schema``),
    else for category codes without is_correct (AlpacaEval's preferences, a judge's ratings) the default rubric.

    Returns
    -------
    (TaskOutcomes, str or None)
        The outcomes, and the note that says the weights were read as successes (None for 0/1 outcomes).

    Raises
    ------
    InputError
        Neither is_correct nor category codes (:func:`binary_outcomes_for`'s message).
    """
    from scorio_core.errors import InputError
    from scorio_core.leaderboard.table import outcomes_for
    from scorio_core.leaderboard.task_outcomes import categorization_for
    from scorio_core.rubric import code_weights_text, default_schema_for

    from scorio_core.items.report import weights_as_successes_note

    if schema is not None and schema.name != "Binary correctness":
        categorization, _ = categorization_for(dataset, schema, task)
        weights = ", ".join(f"{label} -> {w:.3g}" for label, w in zip(schema.labels, schema.weights))
        return outcomes_for(dataset, task, categorization), weights_as_successes_note(task, f"'{schema.name}' ({weights})")
    try:
        return binary_outcomes_for(dataset, task, "IRT (item response theory)"), None
    except InputError:
        schema = default_schema_for(dataset)
        if schema is None:
            raise
    categorization, _ = categorization_for(dataset, schema, task)
    return outcomes_for(dataset, task, categorization), weights_as_successes_note(
        task, f"default '{schema.name}' ({code_weights_text(schema)})")


def run_questions(args: argparse.Namespace) -> int:
    """Execute ``questions``; returns the exit status."""
    import pandas as pd

    from scorio_core.eval._validate import check_confidence
    from scorio_core.items import FLAG_RULES, PRIORS
    from scorio_core.items.board import ability_interval_label, coverage_note, unlinked_note
    from scorio_core.items.irt import MIN_2PL_MODELS
    from scorio_core.items.report import MODEL_COLUMNS, QUESTION_COLUMNS, diagnose
    from scorio_core.items.spread import spread_note
    from scorio_core.leaderboard.table import task_names

    from scorio_core.rubric import resolve_schema

    check_confidence(args.confidence)
    given = args.schema is not None  # (without it, category codes get their default rubric: irt_outcomes says so)
    dataset = load_dataset(args)  # (--schema score-values: built from the data's scores here)
    schema = resolve_schema(args.schema) if given else None
    tasks = [args.task] if args.task else task_names(dataset)
    from scorio_core.leaderboard.trial_order import trial_position_note
    from scorio_core.cli.quality import load_notes
    from scorio_core.report.notes import as_notes

    results, fallback, notes = [], {}, as_notes(load_notes(dataset, args), "load")
    for task in tasks:
        outcomes, weighted = irt_outcomes(dataset, task, schema)
        notes += [{"code": "rubric_weights", "task": task, "message": weighted}] if weighted else []
        notes += [n for n in [trial_position_note(outcomes, task=task)] if n]  # the fit counts trials as exchangeable
        model = args.irt_model or "2pl"  # --model-2pl given: a task it cannot fit is an error
        if model == "2pl" and len(outcomes.models) < MIN_2PL_MODELS and (len(tasks) > 1 or not args.irt_model):
            model, fallback[task] = "rasch", (f"Rasch fit: a 2PL fit needs at least {MIN_2PL_MODELS} models and this "
                                              f"task has {len(outcomes.models)}.")
        results.append(diagnose(outcomes, model=model, confidence=args.confidence, b_prior=args.difficulty_prior))
        spread, coverage = spread_note(results[-1].fit), coverage_note(results[-1])
        if spread:
            notes.append({"code": "abilities_not_different", "task": task, "message": f"{task}: {spread}"})
        if coverage:
            notes.append({"code": "small_design", "task": task, "message": f"{task}: {coverage}"})
    questions = pd.concat([r.questions for r in results], ignore_index=True)
    models = pd.concat([r.models for r in results], ignore_index=True)
    question_rows = [{**row, "flags": list(row["flags"])} for row in questions.to_dict(orient="records")]
    model_rows = models.to_dict(orient="records")
    if args.output == "json":
        emit_json({
            "model": args.irt_model or "2pl", "method": results[0].fit.method, "confidence": args.confidence,
            "outcome": results[0].outcome, "flag_rules": dict(FLAG_RULES),
            "priors": {k: {"mean": m, "sd": s} for k, (m, s) in PRIORS.items()},
            "priors_note": "the fixed priors the fit starts from, on the mode's scale"
                           + ("; the difficulty prior's SD is then estimated per task: tasks[].difficulty_prior_sd, on "
                              "the reported scale" if args.difficulty_prior == "empirical-bayes" else ""),
            "difficulty_prior": args.difficulty_prior,
            "tasks": [{"task": r.task, "model": r.fit.model, **({"note": fallback[r.task]} if r.task in fallback else {}),
                       "converged": bool(r.fit.converged), "iterations": r.fit.iterations,
                       "interval": ability_interval_label(r) + "; difficulty and discrimination intervals alike",
                       "scale": r.fit.scale, "scale_var": r.fit.scale_var, "spread_p": r.fit.spread_p,
                       # on the scale the difficulties are reported on (the fit's own is the mode's: / scale)
                       "difficulty_prior_sd": r.fit.b_prior_sd / r.fit.scale,
                       "unanswered_models": list(r.fit.unanswered_models), "unlinked": unlinked_note(r)}
                      for r in results],
            "questions": question_rows, "models": model_rows, "notes": notes, "sources": list(dataset.sources),
        })
        return 0
    shown = [{**row, "flags": ",".join(row["flags"])} for row in question_rows]
    emit_rows(shown, list(QUESTION_COLUMNS), args.output)
    if args.output == "csv":
        return 0  # one table per CSV stream; abilities are in the JSON output
    print()
    emit_rows(model_rows, list(MODEL_COLUMNS), args.output)
    if args.output == "table":
        for note in notes:
            print(f"note: {note['message']}")
        for task, note in fallback.items():
            print(f"note: {task}: {note}")
        for r in results:
            if unlinked_note(r):
                print(f"note: {r.task}: {unlinked_note(r)}")
    return 0


def run(args: argparse.Namespace) -> int:
    """Execute ``attempts``; returns the exit status."""
    from scorio_core.errors import InputError
    from scorio_core.leaderboard.drilldown import question_attempts
    from scorio_core.leaderboard.table import categorization_for, task_names
    from scorio_core.leaderboard.task_outcomes import task_listing
    from scorio_core.rubric.rerank import apply_unmatched, scope_mask

    dataset = load_dataset(args)
    tasks = task_names(dataset)
    task = args.task or (tasks[0] if len(tasks) == 1 else None)
    if task is None:
        raise InputError(f"the data has {task_listing(tasks)}; choose one with --task.")
    categorization = None
    if args.schema:
        categorization, _ = categorization_for(dataset, args.schema, task)
        categorization = apply_unmatched(categorization, scope_mask(dataset.attempts, task), args.unmatched)
    frame = question_attempts(dataset, task, args.question, args.models, categorization)
    rows = frame.astype(object).where(frame.notna(), None).to_dict(orient="records")
    shown = list(dict.fromkeys(frame["model"]))
    absent = [m for m in dict.fromkeys(args.models or []) if m not in shown]  # in the data, not on this question
    notes = [{"code": "no_attempt", "models": absent, "message": f"{', '.join(absent)} {'has' if len(absent) == 1 else 'have'} "
              f"no attempt on question {args.question!r} (answered other questions of task '{task}')."}] if absent else []
    if args.output == "json":
        emit_json({"task": task, "question": args.question, "models": shown, "schema": getattr(args.schema, "name", args.schema) or "binary",
                   "columns": list(frame.columns), "rows": rows, "notes": notes, "sources": list(dataset.sources)})
    else:
        emit_rows(rows, list(frame.columns), args.output)
        for note in notes if args.output == "table" else ():
            print(f"note: {note['message']}")
    return 0
