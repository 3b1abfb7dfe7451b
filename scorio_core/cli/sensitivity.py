"""``sensitivity``: how much the Bayes@N ranking depends on the rubric.

Ranks every model under each schema (paper Figure 7), with and without credible-interval
ties, and optionally under random perturbations of each schema's weights and percentile
thresholds. JSON output (``--output json``) is an object::

    {"task", "models": [L names], "schemas": [S names that apply],
     "skipped": [{"schema", "missing": [signals], "reason"}],
     "confidence", "tie_rule", "prior", "scope",
     "ranks": [[rank of models[i] under schemas[j]]], "ranks_ci": [[...]],
     "mu": [[...]], "sigma": [[...]], "unmatched": [S counts],
     "perturbation": [{"schema", "n", "weight_range", "threshold_shift", "seed", "leader",
                       "leader_kept", "base_ranks": [L],
                       "rank_share": [[share of rubrics with models[i] at rank r + 1]],
                       "parameters": [{"name", "kind", "value", "low", "high"}],
                       "drivers": [{"parameter", "kind", "correlation", "flip_rate_low",
                                    "flip_rate_high", "smallest_change", "new_leader"}],
                       "assumptions": [...], "notes": [{"code", "message"}], "groups": [[names]]}],
     "notes": [{"code", "message", ...}], "sources": [...]}

``perturbation`` is empty without ``--perturb``; ranks of unscored models are ``null``. A perturbation's ``groups`` lists
the models of each group that shares no question (empty when all are linked): its ranks are then within groups and its
leader is the largest group's.
Rubrics need attempt-level signals: count tables are refused. ``notes`` carries the leaderboard's
``disconnected_groups`` sentence when the models fall into groups that share no question. Category codes without
is_correct need rubric files of the codes (``--schemas A.json,...``): the built-in schemata read is_correct.
Graded scores (no 0/1 outcome) are compared under rubrics that read the score: ``--schemas
score-values,score-threshold:0.5`` (partial credit against correct iff score > 0.5); schemata that read 0/1
correctness only are then ``skipped``, lacking "0/1 outcomes of the graded attempts".
"""

from __future__ import annotations

import argparse

from scorio_core.cli._common import add_data_arguments, add_output_argument, emit_json, emit_rows, load_dataset
from scorio_core.cli.trajectory import int_ranks
from scorio_core.report.notes import as_notes, note, note_messages

__all__ = ["register", "run", "DEFAULT_SCHEMAS"]

#: ``--schemas`` default: binary correctness and the paper's 12 schemata (Table 5).
DEFAULT_SCHEMAS = "paper"


def register(subparsers) -> None:
    """Add the ``sensitivity`` subcommand."""
    parser = subparsers.add_parser(
        "sensitivity",
        help="ranks across rubric schemata and under perturbed weights/thresholds",
        description=(
            "Rubric sensitivity (paper Appendix F, Figure 7): the Bayes@N rank of every model under each "
            "schema, and with --perturb N the share of N randomly perturbed rubrics (weights x U(1-r, 1+r), "
            "percentile thresholds + U(-d, d)) in which each model holds each rank, and which parameters "
            "flip the leader."
        ),
    )
    add_data_arguments(parser, one_task=True, pool=True)
    parser.add_argument(
        "--schemas", default=DEFAULT_SCHEMAS, metavar="A,B,...",
        help="comma-separated built-in names or rubric JSON files; 'paper' = binary + Table 5 (default), 'all' = every "
             "built-in; for graded scores 'score-values[:STEP]' (partial credit) and 'score-threshold[:T]' (correct iff "
             "score > T, default 0.5), built from the data",
    )
    parser.add_argument("--perturb", type=int, default=0, metavar="N", help="perturbed rubrics per schema (default 0: none)")
    parser.add_argument("--weight-range", type=float, default=0.2, metavar="R", help="weights scaled by U(1-R, 1+R) (default 0.2)")
    parser.add_argument("--threshold-shift", type=float, default=5.0, metavar="D",
                        help="percentile thresholds moved by U(-D, D) points (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="random seed of the perturbations (default 0)")
    parser.add_argument("--freeze-thresholds", metavar="FILE", default=None,
                        help="JSON of threshold values to keep fixed in --perturb (a `rubric --output json` result or "
                             "{name: value}); thresholds of a schema named there are not perturbed")
    parser.add_argument("--max-tokens", type=int, default=None, help="max completion tokens, for the token_ratio signal")
    parser.add_argument("--confidence", type=float, default=0.95, help="credibility level of the CI ties (default 0.95)")
    from scorio_core.cli._common import add_tie_rule_argument

    add_tie_rule_argument(parser)
    from scorio_core.cli._common import add_uncertainty_arguments

    add_uncertainty_arguments(parser)
    add_output_argument(parser)
    parser.set_defaults(func=run)


def _schema_list(text: str) -> list[str]:
    from scorio_core.rubric import BUILTIN_SCHEMAS, DEFAULT_SCHEMA

    if text.strip().lower() == "all":
        return list(BUILTIN_SCHEMAS)
    if text.strip().lower() == "paper":
        return [DEFAULT_SCHEMA] + [n for n, s in BUILTIN_SCHEMAS.items() if s.source.startswith("Hariri")]
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise ValueError(f"--schemas must name at least one schema; got {text!r}.")
    return names


#: ``--schemas`` entry for the binarized reading of a graded score (``score-threshold:0.7``; default threshold 0.5).
SCORE_THRESHOLD = "score-threshold"
#: What a refusal of graded scores names: the rubrics that read them, compared (the Sensitivity page's default there).
ROUTE = ("Or compare partial credit with its threshold reading: --schemas score-values,score-threshold:0.5 (the score "
         "values' rubric, each attempt earning its score, against correct iff score > 0.5), or give rubric files whose "
         "categories read the score (--schemas A.json,B.json).")


def _data_schema(spec, dataset):
    """``spec`` with ``score-values[:STEP]`` and ``score-threshold[:T]`` built from the data's scores (else unchanged)."""
    from scorio_core.errors import InputError
    from scorio_core.leaderboard.graded import resolve_data_schema, threshold_schema

    name, sep, value = str(spec).strip().lower().replace("_", "-").partition(":")
    if name.strip() != SCORE_THRESHOLD:
        return resolve_data_schema(spec, dataset)
    if dataset.attempts is None or "score" not in dataset.attempts.columns:
        raise InputError(f"--schemas {spec}: the data has no score column to threshold; map the graded score's column "
                         "(--map score=COLUMN).", field="schemas")
    try:
        threshold = float(value) if sep else 0.5
    except ValueError:
        threshold = float("nan")
    if not 0.0 <= threshold < 1.0:
        raise InputError(f"--schemas {spec}: the threshold after 'score-threshold:' must be a number in [0, 1) (correct "
                         "iff score > T), e.g. score-threshold:0.5.", field="schemas")
    return threshold_schema(dataset.attempts, threshold)


def _perturbation_payload(result) -> dict:
    return {
        "schema": result.schema,
        "n": result.n,
        "weight_range": result.weight_range,
        "threshold_shift": result.threshold_shift,
        "seed": result.seed,
        "leader": result.leader,
        "leader_kept": result.leader_kept,
        "base_ranks": [int(r) for r in result.base_ranks],
        "rank_share": result.rank_share,
        "parameters": [{"name": p.name, "kind": p.kind, "value": p.value, "low": p.low, "high": p.high} for p in result.parameters],
        "drivers": [
            {"parameter": d.parameter, "kind": d.kind, "correlation": d.correlation, "flip_rate_low": d.flip_rate_low,
             "flip_rate_high": d.flip_rate_high, "smallest_change": d.smallest_change, "new_leader": d.new_leader}
            for d in result.drivers
        ],
        "assumptions": list(result.assumptions),
        "notes": as_notes(result.notes, "perturbation"),
        "groups": [list(g) for g in result.groups],
    }


def _codes_without_rubric(dataset, table, schemas, task: str) -> None:
    """Refuse category codes without is_correct when no given schema reads them, saying why and what would.

    Parameters
    ----------
    dataset : scorio_core.io.Dataset
        Loaded data.
    table : scorio_core.rubric.SignalTable
        The task's signal table.
    schemas : list of Schema
        The resolved ``--schemas``.
    task : str
        The task, named in the error.

    Raises
    ------
    InputError
        The data has category codes and no is_correct, and none of ``schemas`` applies: the built-in schemata read
        is_correct (and other signals); rubric files of the codes (``--schemas A.json,B.json``) would apply.
    """
    from scorio_core.errors import InputError
    from scorio_core.rubric import default_schema_for
    from scorio_core.sensitivity import applicable_schemas

    codes = default_schema_for(dataset)
    if codes is None or applicable_schemas(table, schemas)[0]:
        return
    found = ", ".join(label.removeprefix("code ") for label in codes.labels)
    raise InputError(f"none of the schemata applies to task '{task}': it has category codes ({found}) and no "
                     "is_correct, and the built-in schemata read is_correct (and other signals). Rubric sensitivity "
                     "compares rubrics of the codes: give rubric JSON files with --schemas A.json,B.json (one category "
                     "per code, e.g. condition \"category == 2\", weight 0.5; the Rubric page saves one), or one file "
                     "with --perturb N to vary its weights.", field="schemas")


def run(args: argparse.Namespace) -> int:
    """Execute ``sensitivity``; returns the exit status."""
    from scorio_core.leaderboard.table import task_names
    from scorio_core.leaderboard.task_outcomes import ALL_TASKS, task_listing
    from scorio_core.errors import InputError
    from scorio_core.cli.rubric import read_frozen
    from scorio_core.rubric.rerank import signal_table
    from scorio_core.rubric import resolve_schema
    from scorio_core.sensitivity import one_rubric_note, perturb_rubric, schema_ranks, skipped_summary

    if args.perturb < 0:
        raise ValueError(f"--perturb must be >= 0; got {args.perturb}.")
    if args.seed < 0:
        raise ValueError(f"--seed must be >= 0; got {args.seed}.")
    schemas = _schema_list(args.schemas)
    dataset = load_dataset(args, require_ready=False)
    from scorio_core.leaderboard.graded import require_ready_graded

    schemas = [_data_schema(spec, dataset) for spec in schemas]  # score-values, score-threshold: from the data
    # graded scores (no 0/1 outcome) are ranked when a compared rubric reads the score and places every one of them
    gate = next((s for s in map(resolve_schema, schemas) if "score" in s.signals), None)
    graded_notes: list = []
    dataset = require_ready_graded(dataset, gate, max_tokens=args.max_tokens, notes=graded_notes, route=ROUTE)
    if dataset.attempts is None:
        raise InputError("rubric sensitivity needs attempt-level data with signals (one row per attempt: is_correct, "
                         "score, finish_reason, ...) to categorize; these are counts (n_trials, n_correct), which fix "
                         "one rubric already. Load the per-attempt dump instead.",
                         source=", ".join(s.name for s in dataset.sources)[:200] or None)
    tasks = task_names(dataset)
    if args.task is None and len(tasks) > 1:
        raise InputError(f"the data has {task_listing(tasks)}; choose one with --task, or --task '{ALL_TASKS}' to pool "
                         "them (as the Sensitivity page's all tasks).")
    task = args.task or tasks[0]
    if task not in tasks and task != ALL_TASKS:
        raise InputError(f"task {task!r} is not in the data; tasks: {', '.join(tasks[:20])} (or '{ALL_TASKS}').")
    table = signal_table(dataset, task, args.max_tokens)
    if table.frame["model"].nunique() < 2:  # ranks of one model do not move: as the Sensitivity page, say so and stop
        raise InputError(f"task '{task}' has 1 model: rubric sensitivity compares rankings, so it needs at least 2; "
                         "load more models' results for this task.", field="model")
    # resolved once: the perturbation runs on the very rubric ranked (by name, a file's rubric called "Binary
    # correctness" was perturbed as the built-in one, and a file's own name was "unknown": helper QA)
    resolved = [resolve_schema(spec) for spec in schemas]
    names = [r.name for r in resolved]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise InputError(f"two rubrics are named {twice[0]!r} (a built-in's name, or two files with one name); give "
                         "each file's rubric its own \"name\".", field="schemas")
    by_name = dict(zip(names, resolved))
    _codes_without_rubric(dataset, table, resolved, task)
    result = schema_ranks(table, resolved, confidence=args.confidence, tie_rule=args.tie_rule, prior=args.prior,
                          scope=args.scope)
    frozen = read_frozen(args.freeze_thresholds) if args.freeze_thresholds else {}

    def frozen_for(name: str) -> dict | None:
        own = {t.name for t in by_name[name].thresholds}
        return {k: v for k, v in frozen.items() if k in own} or None

    perturbed = [
        perturb_rubric(table, by_name[name], n=args.perturb, weight_range=args.weight_range,
                       threshold_shift=args.threshold_shift, seed=args.seed, thresholds=frozen_for(name),
                       prior=result.prior)
        for name in result.schemas
    ] if args.perturb else []
    from scorio_core.cli.quality import load_notes

    notes = [*graded_notes, *[n for n in as_notes(load_notes(dataset, args), "load")  # (the graded note once)
                              if n["message"] not in note_messages(graded_notes)], *as_notes(result.notes, "sensitivity"),  # then what it cannot show
             *[note("one_rubric", n) for n in [one_rubric_note(result)] if n]]
    from scorio_core.leaderboard.checks import question_sets_notice
    from scorio_core.leaderboard.trial_order import trial_position_note

    from scorio_core.cli.export import analyse
    from scorio_core.rubric import default_schema_for

    # the notes read the data as the leaderboard does by default (category codes without is_correct: their own
    # rubric; outcomes_for alone failed there with "no is_correct values" after the ranks were computed: helper QA)
    # (graded scores: under the rubric that scores them, as the gate above)
    task_outcomes = analyse(dataset, task, schema=gate if graded_notes else default_schema_for(dataset), table=False)[0]
    unequal = question_sets_notice(task_outcomes, "own", [])  # as `leaderboard`, `ranks`, `compare`
    if unequal is not None:  # the ranks compare the models together with their question sets: say so
        notes.append(note(unequal["code"], unequal["finding"], models=unequal["models"]))
    order = trial_position_note(task_outcomes, result.models)  # every schema's Bayes@N assumes exchangeable trials
    notes += [order] if order else []
    from scorio_core.leaderboard.linking import disconnected_groups_notice

    unlinked = disconnected_groups_notice(task_outcomes)  # as the leaderboard: ranks across the groups are not supported
    notes += [unlinked] if unlinked else []
    payload = {
        "task": task,
        "models": list(result.models),
        "schemas": list(result.schemas),
        "skipped": [{"schema": s.schema, "missing": list(s.missing), "reason": s.reason} for s in result.skipped],
        "confidence": result.confidence,
        "tie_rule": result.tie_rule,
        "prior": result.prior,
        "scope": result.scope,
        "ranks": int_ranks(result.ranks.T),
        "ranks_ci": int_ranks(result.ranks_ci.T),
        "mu": result.mu.T,
        "sigma": result.sigma.T,
        "unmatched": result.unmatched,
        "perturbation": [_perturbation_payload(p) for p in perturbed],
        "notes": as_notes(table.notes, "signals") + notes,
        "sources": list(dataset.sources),
    }
    if args.output == "json":
        emit_json(payload)
        return 0
    rows = [
        {"model": model, **{schema: rank for schema, rank in zip(result.schemas, ranks)}}
        for model, ranks in zip(result.models, int_ranks(result.ranks.T))
    ]
    rows.sort(key=lambda row: (row[result.schemas[0]] is None, row[result.schemas[0]] or 0, row["model"]))
    emit_rows(rows, ["model", *result.schemas], args.output)
    if args.output == "table":
        count = len(result.schemas)
        print(f"task {task}: competition ranks of Bayes@N under {count} {'schema' if count == 1 else 'schemata'}")
        if result.skipped:  # every schema and what it lacks: --output json's "skipped"
            print(f"{skipped_summary(result.skipped)} Each with what it reads: --output json.")
        for p in perturbed:
            flips = [d for d in p.drivers if d.smallest_change is not None]
            closest = min(flips, key=lambda d: abs(d.smallest_change)) if flips else None
            detail = ""
            if closest is not None:
                unit = f"{closest.smallest_change:+.0%}" if closest.kind == "weight" else f"{closest.smallest_change:+g} points"
                detail = f"; smallest single change that flips it: {closest.parameter} {unit} (new leader {closest.new_leader})"
            print(f"perturbed {p.schema}: leader {p.leader} keeps rank 1 in {p.leader_kept:.0%} of {p.n} rubrics{detail}")
            for message in [n for n in p.notes if n not in note_messages(notes)]:  # what the share means
                print(f"  note: {message}")
        for message in note_messages(notes):
            print(f"note: {message}")
    return 0
