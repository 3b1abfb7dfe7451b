"""``leaderboard --method NAME``: every task's models ranked by one ranking method other than Bayes@N.

:func:`run_method_rows` ranks with a :mod:`scorio_core.rank` method on a complete (model x question x trial) tensor
(:func:`scorio_core.leaderboard.methods.method_agreement`); :func:`run_irt_ability` ranks by the IRT ability of the
``questions`` command's fit (missing cells and unequal N native). Called by :mod:`scorio_core.cli.leaderboard`, whose subcommand it serves.
"""

from __future__ import annotations

import argparse

from scorio_core.cli._common import emit_method_rows, load_dataset
from scorio_core.cli.questions import binary_outcomes_for

__all__ = ["IRT_ABILITY_COLUMNS", "METHOD_COLUMNS", "INTERVAL_COLUMNS", "run_irt_ability", "run_method_rows"]


#: Extra keys of ``leaderboard --method irt_ability`` rows: the ability's interval and CI-tie rank.
IRT_ABILITY_COLUMNS = ("task", "model", "method", "score", "rank", "sigma", "lo", "hi", "rank_ci", "n_questions", "group")


def run_irt_ability(args: argparse.Namespace, dataset, tasks, question_set: str, first_notes=()) -> int:
    """``leaderboard --method irt_ability``: IRT abilities on the count table, missing cells and unequal N native.

    Unlike the :mod:`scorio_core.rank` methods this needs no complete tensor: a question's difficulty and
    discrimination come from every model that answered it (:func:`scorio_core.items.report.diagnose`,
    :func:`scorio_core.items.board.ability_board`; a 2PL fit: ranking needs at least two models). ``--question-set common`` keeps
    the questions every model answered, ``missing-incorrect`` fills the others as wrong. Rows add ``sigma``, ``lo``, ``hi`` (the ability's interval at
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
        task_outcomes = binary_outcomes_for(dataset, task, "IRT ability (item response theory)")
        if question_set == "missing-incorrect":  # as the Bayes@N leaderboard, the filled cells said
            from scorio_core.leaderboard.methods import missing_as_incorrect  # here: it loads the method registry

            task_outcomes, filled = missing_as_incorrect(task_outcomes)
            notes += [{"code": "data", "task": task, "message": f"{task}: {filled}"}] if filled else []
        out = task_outcomes.binary
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
    ``--question-set common`` keeps the questions all answered, ``missing-incorrect`` fills the rest as wrong (noted).
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
    question_set = args.question_set  # own, common or missing-incorrect, as the Bayes@N leaderboard takes it
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
