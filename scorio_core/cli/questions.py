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
:func:`run_method_rows` is ``leaderboard --method NAME`` (any ranking method) and :func:`run_irt_ability` is
``leaderboard --method irt_ability``: the same fit's abilities as a ranking with intervals (missing cells, unequal N).

``attempts`` lists every attempt of some models on one question (the app's drill-down): one row per
attempt in model then trial order (:func:`scorio_core.leaderboard.drilldown.question_attempts`):
``model, trial, is_correct, score, category, weight`` when present, then every other field the dump
carries, as loaded; missing values are null. JSON: ``{"task", "question", "models", "schema", "columns", "rows",
"notes", "sources"}``. Commands that rank 0/1 outcomes only (IRT, ``methods``, ``leaderboard --method``) refuse
category codes without is_correct with :func:`binary_outcomes_for`'s error.
"""

from __future__ import annotations

import argparse

from scorio_core.cli._common import add_data_arguments, emit_json, emit_method_rows, emit_rows, load_dataset

__all__ = ["COMMANDS", "register", "run", "run_questions", "run_irt_ability", "run_method_rows",
           "binary_outcomes_for"]

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

    check_confidence(args.confidence)
    dataset = load_dataset(args)
    tasks = [args.task] if args.task else task_names(dataset)
    from scorio_core.leaderboard.trial_order import trial_position_note
    from scorio_core.cli.quality import load_notes
    from scorio_core.report.notes import as_notes

    results, fallback, notes = [], {}, as_notes(load_notes(dataset, args), "load")
    for task in tasks:
        outcomes = binary_outcomes_for(dataset, task, "IRT (item response theory)")
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


#: Extra keys of ``leaderboard --method irt_ability`` rows: the ability's interval and CI-tie rank.
IRT_ABILITY_COLUMNS = ("task", "model", "method", "score", "rank", "sigma", "lo", "hi", "rank_ci", "n_questions", "group")


def run_irt_ability(args: argparse.Namespace, dataset, tasks, question_set: str, first_notes=()) -> int:
    """``leaderboard --method irt_ability``: IRT abilities on the count table, missing cells and unequal N native.

    Unlike the :mod:`scorio_core.rank` methods this needs no complete tensor: a question's difficulty and
    discrimination come from every model that answered it (:func:`scorio_core.items.report.diagnose`,
    :func:`scorio_core.items.board.ability_board`; a 2PL fit: ranking needs at least two models). ``--question-set common`` keeps
    the questions every model answered. Called by ``leaderboard --method irt_ability``
    (:mod:`scorio_core.cli.leaderboard`). Rows add ``sigma``, ``lo``, ``hi`` (the ability's interval at
    ``--confidence``), ``rank_ci`` (``--tie-rule``), ``n_questions`` and ``group`` (the linked group, 0, 1, ...: the
    ``unlinked_groups`` note's; ranks count within it); a model that answered nothing has null ``score``, ranks and
    ``group``.
    """
    import dataclasses

    import numpy as np
    import pandas as pd

    from scorio_core.errors import InputError
    from scorio_core.eval._validate import check_confidence
    from scorio_core.items.board import ability_board, ability_interval_label, coverage_note, unlinked_note
    from scorio_core.items.spread import spread_note
    from scorio_core.items.irt import MIN_2PL_MODELS
    from scorio_core.items.linking import group_numbers
    from scorio_core.items.report import diagnose
    from scorio_core.leaderboard.trial_order import trial_position_note

    check_confidence(args.confidence)
    rows, notes = [], list(first_notes)
    for task in tasks:
        out = binary_outcomes_for(dataset, task, "IRT ability (item response theory)").binary
        notes += [n for n in [trial_position_note(out, task=task)] if n]  # as the leaderboard's Bayes@N notes
        if out is None:
            raise InputError(f"task '{task}' has no binary correctness: IRT ability ranks binary outcomes "
                             "(is_correct).", field="is_correct")
        if len(out.models) < 2:
            raise InputError(f"task '{task}' has {len(out.models)} model: ranking needs at least 2.", field="model")
        if question_set == "common":
            keep = np.all(np.asarray(out.counts).sum(axis=2) > 0, axis=0)
            if not keep.any():
                raise InputError(f"task '{task}': no question was answered by every model; IRT ability ranks models "
                                 "on unequal question sets without --question-set common.", field="question_id")
            out = dataclasses.replace(out.keep_questions(keep), R=None)
        model = "2pl" if len(out.models) >= MIN_2PL_MODELS else "rasch"  # as the Questions page and `questions`
        diagnostics = diagnose(out, model=model, confidence=args.confidence)
        board = ability_board(diagnostics, tie_rule=args.tie_rule)
        notes.append({"code": "interval", "task": task, "message": f"{task}: {ability_interval_label(diagnostics)}."})
        unlinked, spread, coverage = unlinked_note(diagnostics), spread_note(diagnostics.fit), coverage_note(diagnostics)
        if spread:
            notes.append({"code": "abilities_not_different", "task": task, "message": f"{task}: {spread}"})
        if coverage:
            notes.append({"code": "small_design", "task": task, "message": f"{task}: {coverage}"})
        if unlinked:
            notes.append({"code": "unlinked_groups", "task": task, "message": f"{task}: {unlinked}",
                          "groups": dict(zip(diagnostics.fit.models, group_numbers(diagnostics.fit.groups).tolist()))})
        if model == "rasch":
            notes.append({"code": "data", "task": task, "message": f"{task}: IRT ability from a Rasch fit (a 2PL fit "
                                                                     f"needs at least {MIN_2PL_MODELS} models)."})

        for r in board.itertuples(index=False):  # a model that answered nothing: NaN ability (JSON null), no rank
            rows.append({"task": task, "model": r.model, "method": "irt_ability", "score": float(r.mu),
                         "rank": None if pd.isna(r.rank) else int(r.rank), "sigma": float(r.sigma),
                         "lo": float(r.lo), "hi": float(r.hi),
                         "rank_ci": None if pd.isna(r.rank_ci) else int(r.rank_ci), "n_questions": int(r.n_questions),
                         "group": None if pd.isna(r.group) else int(r.group)})
    linked = {row["group"] for row in rows if row["group"] is not None}  # the text table shows it only when it matters
    columns = IRT_ABILITY_COLUMNS if len(linked) > 1 or args.output != "table" else IRT_ABILITY_COLUMNS[:-1]
    emit_method_rows(args, rows, columns, {"method": "irt_ability", "method_label": "IRT ability",
                                                       "question_set": question_set, "prior": args.prior,
                                                       "confidence": args.confidence, "tie_rule": args.tie_rule},
                     notes, dataset)
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


#: Keys of each row of ``leaderboard --method NAME`` (a ranking method other than Bayes@N); with ``--bootstrap B``
#: also :data:`INTERVAL_COLUMNS`.
METHOD_COLUMNS = ("task", "model", "method", "score", "rank")
INTERVAL_COLUMNS = ("rank_lo", "rank_hi")


def run_method_rows(args: argparse.Namespace, ignored: dict | None = None) -> int:
    """``leaderboard --method NAME``: every task's models ranked by one method of :mod:`scorio_core.rank`.

    JSON: ``{"rows": [{"task", "model", "method", "score", "rank"}], "settings": {"method", "method_label",
    "question_set", "prior", "method_options"}, "notes": [...], "sources": [...]}``; rows by task, then rank.
    ``method_options`` holds the ``--method-option`` values as the method received them (``{}``: its defaults). The method ranks binary
    correctness on a complete (model x question x trial) tensor (:func:`scorio_core.leaderboard.methods.method_agreement`):
    ``--question-set common`` keeps the questions every model answered; missing cells otherwise are an error.
    With ``--bootstrap B`` each row also has ``rank_lo``/``rank_hi`` (the percentile rank interval over B resamples of
    the questions at ``--confidence``, seeded by ``--seed``; null where the method failed on every resample), the
    settings ``bootstrap: {n_boot, seed, confidence, scope}`` and a note per task counting the resamples the method
    could not rank (the interval then comes from the others). A task the method cannot rank, among several, is left
    out with a ``task_left_out`` note (alone: exit 2).
    """
    import numpy as np

    from scorio_core.errors import InputError
    from scorio_core.leaderboard.table import task_names
    from scorio_core.leaderboard.trial_order import trial_position_note

    if args.schema or args.exclude_flagged or args.cluster_column:
        raise InputError("--method ranks binary correctness on every question: it does not combine with --schema, "
                         "--exclude-flagged or --cluster-column (use the default --method bayes for those).")
    question_set = "common" if args.question_set == "common" else "own"
    if args.method == "irt_ability":  # the count-table fit: no complete tensor, no method registry (scipy.stats)
        dataset = load_dataset(args)
        return run_irt_ability(args, dataset, [args.task] if args.task else task_names(dataset), question_set,
                               [ignored] if ignored else [])
    from scorio_core.leaderboard.methods import method_agreement
    from scorio_core.rank.agreement import method_label
    from scorio_core.rank.options import method_option_names, parse_method_options

    options = parse_method_options(args.method, args.method_option)
    dataset = load_dataset(args)  # after the options: a typo in them fails before a large file is read
    tasks = [args.task] if args.task else task_names(dataset)
    if args.bootstrap < 0:
        raise ValueError(f"--bootstrap must be 0 (none) or a number of resamples; got {args.bootstrap}.")
    rows, notes, refused = [], [ignored] if ignored else [], []  # options given that the method does not use, first
    for task in tasks:
        task_outcomes = binary_outcomes_for(dataset, task, f"--method {args.method}")
        notes += [n for n in [trial_position_note(task_outcomes, task=task)] if n]  # as the leaderboard's Bayes@N
        try:
            report = method_agreement(task_outcomes, [args.method], prior=args.prior,
                                      question_set=question_set, n_boot=args.bootstrap, seed=args.seed,
                                      confidence=args.confidence, options={args.method: options})
        except InputError as exc:  # this task cannot be ranked: with other tasks, said in the notes (helper QA)
            if len(tasks) == 1:
                raise
            refused.append(exc)
            notes.append({"code": "task_left_out", "task": task,
                          "message": f"{task}: left out: {str(exc).removeprefix(f'task {task!r}: ')}"})
            continue
        except ValueError as exc:  # the method refused to rank: with options, most likely one of their values
            if not options:
                raise
            reason = str(exc).split(f"{args.method}: ", 1)[-1].rstrip(".")
            defaults = ", ".join(f"{k} (default {v!r})" for k, v in method_option_names(args.method).items())
            raise InputError(f"{task}: {method_label(args.method)} with --method-option "
                             f"{' '.join(args.method_option)} could not rank: {reason}. Its options: {defaults}.",
                             field="method-option") from None
        result = report.agreement
        if args.method in result.skipped:
            refused.append(InputError(f"{task}: {method_label(args.method)} cannot rank this data: "
                                      f"{result.skipped[args.method]}"))
            if len(tasks) == 1:
                raise refused[-1]
            notes.append({"code": "task_left_out", "task": task, "message": f"{task}: left out: {refused[-1]}"})
            continue
        notes.extend({"code": "data", "task": task, "message": f"{task}: {note}"} for note in report.notes)
        boot = report.bootstrap
        failed = boot.failed.get(args.method, 0) if boot is not None else 0
        if failed:
            notes.append({"code": "bootstrap_failed", "task": task, "failed": failed, "message": (
                f"{task}: {method_label(args.method)} could not rank {failed} of {boot.n_boot} resamples; the rank "
                "intervals come from the others, so they describe those resamples only and are likely too narrow.")})
        order = np.lexsort((np.arange(len(result.models)), result.ranks[0]))
        for i in order:
            row = {"task": task, "model": result.models[i], "method": args.method, "score": float(result.scores[0, i]),
                   "rank": int(result.ranks[0, i])}
            if boot is not None:
                j = boot.models.index(result.models[i])
                row.update({key: (None if np.isnan(bound[0, j]) else int(bound[0, j]))
                            for key, bound in (("rank_lo", boot.lo), ("rank_hi", boot.hi))})
            rows.append(row)
    if refused and not rows:  # no task could be ranked
        raise refused[0]
    settings = {"method": args.method, "method_label": method_label(args.method), "question_set": question_set,
                "prior": args.prior, "method_options": options}
    if args.bootstrap:
        settings["bootstrap"] = {"n_boot": args.bootstrap, "seed": args.seed, "confidence": args.confidence,
                                 "scope": "questions-sampled"}
    emit_method_rows(args, rows, METHOD_COLUMNS + (INTERVAL_COLUMNS if args.bootstrap else ()), settings, notes, dataset)
    return 0
