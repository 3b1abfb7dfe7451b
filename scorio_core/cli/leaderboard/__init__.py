"""``leaderboard``: per-task leaderboard with Bayes@N credible intervals and CI-tie ranks.

JSON output (``--output json``) is an object::

    {"rows": [{"model", "task", "metric", "estimate", "mu", "sigma", "lo", "hi",
               "prior", "scope", "interval", "interval_kind", "avg", "accuracy",
               "pass_at_k", "rank", "rank_ci", "n_questions", "n_trials", "n_trials_max", ["group"]}, ...],
     "settings": {...}, "notes": [...], "sources": [...]}

``rows`` are grouped by task, sorted by ``mu``; ``rank`` is the competition rank of ``mu``, the posterior mean the
interval is about (within 1e-6 relative: one rank), ``estimate`` the metric's plug-in estimate (avg@N, unbiased Pass@k,
...; section 2.6: the same order under the uniform prior). ``accuracy`` is the raw mean score (total category weight /
total trials: raw accuracy under binary correctness, not the fraction correct under a graded rubric); ``pass_at_k`` is
of is_correct whatever the rubric. NaN becomes ``null``. ``interval_kind`` is ``credible``, or ``exact-binomial`` where
the empirical-Bayes prior was not identified (N = 1, or every trial in one category) and the interval fell back to
Clopper-Pearson on the pooled answers (``interval`` says why). ``notes`` are objects with a stable ``code`` and a
``message`` (plus details): ``load`` (what loading the files found, e.g. names differing only in spaces), ``unequal_question_sets`` (``models``: answered questions per model, ``n_questions``,
``n_common``, ``question_set``, ``similar_question_ids``: groups of ids written two ways, e.g. ``["01", "1"]``),
``disconnected_groups`` (``groups``: lists of model names that share no question with
the other groups, largest first; ranks across groups compare question sets; then every row has ``group``, its model's
1-based group number in that list, null in a task whose models are all linked or for an unscored model: without the
note no row has the key; the table, CSV and Markdown add a ``group`` column then), ``paper_chain`` (``models``: [best,
worst], ``probability``), ``k_above_trials``, ``rank_pairing`` (with ``--scope questions-sampled``: ``paired``, whether
rank_ci pairs models over their common questions), ``not_scored`` (``models`` without an answered question, e.g. after
``--exclude-flagged``), ``emptied_by_choice`` (``models``: model -> the data-quality choice that removed its every row,
so it is not ranked), ``data_choices`` (first, once for every task: ``choices``, the lines of the data-quality choices
applied, e.g. attempts without an outcome counted as incorrect), ``model_named_by_default`` (a model named after a file
or folder, e.g. an lm-eval samples file without its results file), ``trial_position_effect`` (``models`` whose success
rate depends on the trial's position: trials not exchangeable, e.g. a retry after a failure; ``effects``: rates,
attempts and p-value by model), ``ignored_options`` (``options`` given away from their default that this run does not
use, e.g. ``--tau`` under Bayes@N, ``--scope`` with ``--method elo``), ``prior_used`` (``priors`` some rows used
instead of ``--prior``, e.g. max@k's uniform prior), ``prior_not_fitted`` (per task: ``models`` whose empirical-Bayes
prior the data do not identify, so their row is the pooled rate with an exact binomial interval), ``rubric`` and
``data``, ``one_sided`` (the lead of the first model is one-sided: ``models`` [ahead, behind], the exports' verdict
caveat), ``prior_outcomes`` (per task with ``--prior-outcomes``: ``source``, ``matched`` of ``n_questions``
questions, ``prior_trials``, ``matched_across`` (the prior's tasks matched by id when it has no task of this name),
``not_used`` (models whose row R0 does not enter)). A row without an estimate (``mu`` null, e.g. Pass@k with fewer than k trials) has ``interval`` and
``interval_kind`` null; when no row has one the command fails (exit 2). ``--output table`` prints every note after the
table (``note: ...``); ``csv``/``md`` keep standard output a plain table and print them to standard error (``# note:
...``).
"""

from __future__ import annotations

import argparse
import sys

from scorio_core.cli._common import (add_data_arguments, add_output_argument, add_question_set_argument, load_dataset,
                                    add_tie_rule_argument, add_uncertainty_arguments, emit_json, emit_rows)
from scorio_core.cli.quality import add_cluster_argument, cluster_engine
from scorio_core.cli.rubric import (add_prior_outcomes_arguments, check_prior_outcomes_args, load_prior_outcomes,
                                    prior_outcomes_board, prior_outcomes_settings)

__all__ = ["register", "run"]


def register(subparsers) -> None:
    """Add the ``leaderboard`` subcommand."""
    parser = subparsers.add_parser(
        "leaderboard",
        help="per-task leaderboard with credible intervals and CI-tie ranks",
        description=(
            "Rank models per task by Bayes@N (or another metric) with a credible interval under a stated prior and scope. "
            "rank_ci (default pairwise rule) is 1 + the number of models credibly better at the chosen confidence, each "
            "pair on its own (no correction for the many pairs: of 30 simulated equal models, 13 had rank_ci > 1)."
        ),
    )
    from scorio_core.choices import METRIC_NAMES

    add_data_arguments(parser)
    parser.add_argument("--metric", default="bayes", choices=list(METRIC_NAMES), help="ranking metric (default: bayes = Bayes@N)")
    parser.add_argument("--method", default="bayes", metavar="NAME",
                        help="ranking method: bayes (default: the Bayes@N leaderboard with intervals), irt_ability "
                             "(2PL ability with intervals; missing cells and unequal N handled natively) or a method "
                             "of scorio_core.rank (e.g. bradley_terry, elo, borda, pagerank, rasch; the 'methods' "
                             "command lists them): rows of task, model, method, score, rank on binary correctness")
    parser.add_argument("--confidence", type=float, default=0.95, help="credibility level (default 0.95)")
    parser.add_argument("--k", type=int, default=1, help="k for Pass@k and the k-metrics (default 1)")
    parser.add_argument("--tau", type=float, default=0.5, help="tau for G-Pass@k_tau (default 0.5)")
    add_tie_rule_argument(parser)
    add_question_set_argument(parser)
    add_uncertainty_arguments(parser)
    parser.add_argument("--schema", default=None, help="rubric schema: built-in name, rubric JSON file, or score-values[:STEP] (graded scores: partial credit) (default: binary correctness)")
    parser.add_argument("--max-tokens", type=int, default=None, help="max completion tokens, for the token_ratio signal of rubric schemas")
    parser.add_argument("--freeze-thresholds", default=None, metavar="FILE",
                        help="JSON of rubric threshold values to reuse (e.g. the `thresholds` of `rubric --output json`)")
    parser.add_argument("--unmatched", default="exclude", metavar="POLICY",
                        help="attempts that match no rubric category: 'exclude' (default; left out, counted per model in "
                             "the notes and JSON) or the label of the category they count as")
    add_prior_outcomes_arguments(parser)
    add_cluster_argument(parser)
    parser.add_argument("--exclude-flagged", default=None, metavar="CODE,...",
                        help="rank without the questions carrying these flags of the `questions` command "
                             "(possibly_mislabeled, saturated, unsolved, low_information, flaky; 2PL fit per task, "
                             "Rasch with one model); the excluded questions are listed in the notes")
    parser.add_argument("--bootstrap", type=int, default=0, metavar="B",
                        help="with --method NAME (a scorio.rank method): each model's rank interval from B bootstrap "
                             "resamples of the questions (rank_lo, rank_hi; questions-sampled scope; default 0: none; "
                             "the app's method view uses 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the --bootstrap resamples (default 0)")
    parser.add_argument("--method-option", action="append", default=[], metavar="KEY=VALUE",
                        help="with --method NAME (a scorio.rank method): one of the method's options, repeatable (e.g. "
                             "--method elo --method-option K=16; --method bradley_terry_map --method-option prior=2); "
                             "an unknown key lists the method's options and defaults")
    add_output_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Execute ``leaderboard``; returns the exit status."""
    import pandas as pd

    from scorio_core.leaderboard.checks import dataset_models, model_name_defaults
    from scorio_core.leaderboard.table import (LEADERBOARD_COLUMNS, emptied_on, leaderboard_notices,
                                               outcomes_for, task_names)
    from scorio_core.leaderboard.task_outcomes import question_clusters
    from scorio_core.leaderboard.linking import with_group_column
    from scorio_core.eval._validate import check_confidence, check_tau

    check_confidence(args.confidence)
    check_tau(args.tau)
    if args.bootstrap and args.method in ("bayes", "irt_ability"):
        raise ValueError(f"--bootstrap gives a scorio.rank method's rank intervals (--method NAME); --method "
                         f"{args.method} already reports intervals (credible or Laplace), so leave --bootstrap out.")
    if args.method_option and args.method in ("bayes", "irt_ability"):
        raise ValueError(f"--method-option sets an option of a scorio.rank method (--method NAME); --method "
                         f"{args.method} has none here (its settings are --prior, --confidence, --k, ...).")
    check_prior_outcomes_args(args)  # R0 enters Bayes@N only: refused with --method NAME or another --metric
    if args.method != "bayes":
        from scorio_core.cli.leaderboard.method_rows import run_method_rows

        return run_method_rows(args, ignored_options(args))
    if args.exclude_flagged:
        from scorio_core.items.report import check_flag_codes

        check_flag_codes(args.exclude_flagged)
    from scorio_core.leaderboard.metrics import check_k
    check_k(args.metric, args.k)  # k >= 1, and mG-Pass@k at k = 1 (every model 0) refused
    cluster_engine(args)
    sql = _sql_rubric(args) if args.schema else None
    dataset = sql.dataset if sql is not None else load_dataset(args)
    prior_data = load_prior_outcomes(args, sql)
    tasks = [args.task] if args.task else (_sql_tasks(sql) if sql is not None else task_names(dataset))
    frames, notes = [], list(getattr(args, "default_notes", []))  # then what loading found (e.g. a log's missing samples)
    from scorio_core.cli.quality import load_notes
    notes += [{"code": "load", "message": note} for note in load_notes(dataset, args)]
    unmatched = {"policy": args.unmatched, "count": 0, "by_model": {}}
    for task in tasks:
        if sql is not None:  # category counts computed in DuckDB: same inputs as the pandas path below
            from scorio_core.engines.rubric.outcomes import sql_task_outcomes

            outcomes, rubric_notes, per_model = sql_task_outcomes(sql, task, args.unmatched)
            notes.extend(_note("rubric", task, note) for note in rubric_notes)
            _record_unmatched(per_model, task, args.unmatched, unmatched, notes)
        else:
            categorization, rubric_notes = _categorize(dataset, args, task) if args.schema else (None, [])
            notes.extend(_note("rubric", task, note) for note in rubric_notes)
            if categorization is not None:
                categorization = _unmatched(dataset, task, categorization, args.unmatched, unmatched, notes)
            outcomes = outcomes_for(dataset, task, categorization)
        notes.extend(_note("data", task, note) for note in outcomes.rubric.notes)
        if args.exclude_flagged:
            outcomes = _exclude_flagged(outcomes, task, args, notes)
        clusters = question_clusters(dataset, task, args.cluster_column) if args.cluster_column else None
        frame, counts0 = prior_outcomes_board(  # R0 (--prior-outcomes) and its note, or the plain leaderboard
            args, prior_data, outcomes, task, None if sql else categorization, notes, metric=args.metric, k=args.k,
            tau=args.tau, confidence=args.confidence, tie_rule=args.tie_rule, prior=args.prior, scope=args.scope,
            question_set=args.question_set, clusters=clusters, cluster_column=args.cluster_column or "cluster")
        if counts0 is not None:
            from scorio_core.rubric.prior_outcomes import r0_pull_notice
            r0 = notes[-1]
        for notice in leaderboard_notices(outcomes, frame, confidence=args.confidence, tie_rule=args.tie_rule,
                                          question_set=args.question_set, emptied=emptied_on(dataset, task),
                                          dataset_models=dataset_models(dataset),
                                          named_by_default=model_name_defaults(dataset)):
            notice = r0_pull_notice(notice, r0) if counts0 is not None and notice["code"] == "prior_pull" else notice
            notes.append({**notice, "task": task, "message": f"{task}: {notice['message']}"})
            frame = with_group_column(frame, notice["groups"]) if notice["code"] == "disconnected_groups" else frame
        if args.scope == "questions-sampled":
            from scorio_core.report.notes import rank_pairing_note
            notes.append(rank_pairing_note(task, args.metric, args.scope, args.tie_rule, frame, outcomes,
                                           args.cluster_column if clusters is not None else None))
        from scorio_core.cli.export import one_sided_notes  # the verdict's caveat, as the exports and the app say it
        notes += one_sided_notes(outcomes, frame, task, vars(args), r0=counts0 is not None)
        frames.append(frame)
    table = pd.concat(frames, ignore_index=True)
    said = {t for n in notes if n.get("code") != "load" for t in (n.get("finding"), n["message"])}  # e.g. said per task
    notes = [n for n in notes if n.get("code") != "load" or n["message"] not in said]
    from scorio_core.leaderboard.checks import choices_of, data_choices_notice

    if choices_of(dataset):  # once for every task: the choices apply to the whole dataset
        notes.insert(0, data_choices_notice(choices_of(dataset)))
    unused = ignored_options(args)
    if unused is not None:
        notes.append(unused)
    from scorio_core.leaderboard.unfitted import not_fitted_notices
    notes += not_fitted_notices(table)
    used = sorted(set(table.loc[table["mu"].notna(), "prior"].dropna().astype(str)) - {args.prior})
    if used:  # e.g. max@k is defined under the uniform prior only: settings.prior alone would misstate it
        notes.append({"code": "prior_used", "priors": used, "message": f"{args.metric} uses the {', '.join(used)} prior, not --prior {args.prior}, for the rows whose 'prior' says so"})
    short = table.loc[(table["n_trials"] < args.k) & (table["n_trials"] > 0), "model"].tolist()  # 0: not_scored
    if short and not table["mu"].notna().any():  # nothing to publish: an error, not a table of nulls
        from scorio_core.leaderboard.k_trials import k_above_trials_error
        raise k_above_trials_error(table, args.k, args.metric)
    if short:
        more = f" and {len(short) - 10:,} more" if len(short) > 10 else ""
        notes.append({"code": "k_above_trials", "message": f"Pass@{args.k} is undefined (null) for models with fewer than "
                      f"k={args.k} trials: {', '.join(map(str, short[:10]))}{more}", "models": list(map(str, short))})
    table.loc[table["mu"].isna(), ["interval", "interval_kind"]] = None  # no estimate: no interval to describe
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
                    "question_set": args.question_set,
                    "cluster_column": args.cluster_column,
                    "exclude_flagged": list(check_flag_codes(args.exclude_flagged)) if args.exclude_flagged else [],
                    "schema": getattr(args.schema, "name", args.schema) or "binary",
                    "unmatched": args.unmatched,
                    **prior_outcomes_settings(args),
                },
                "unmatched": unmatched,
                "notes": notes,
                "sources": list(dataset.sources),
                "engine": getattr(args, "engine_used", "pandas"),
            }
        )
    else:
        columns = LEADERBOARD_COLUMNS if args.output != "table" else [c for c in LEADERBOARD_COLUMNS
                                                                         if c not in ("interval", "interval_kind")]
        columns = [*columns, "group"] if "group" in table else columns  # models sharing no question: their group
        emit_rows(table.to_dict(orient="records"), columns, args.output)
        if args.output == "table":
            print_interval_labels(table)
        for note in notes:  # every caveat in every format; csv/md keep stdout a plain table, so theirs go to stderr
            print(f"note: {note['message']}" if args.output == "table" else f"# note: {note['message']}",
                  file=sys.stdout if args.output == "table" else sys.stderr)
    return 0


def _exclude_flagged(outcomes, task: str, args: argparse.Namespace, notes: list):
    """The task's outcomes without the questions flagged with ``--exclude-flagged`` codes (a note lists them)."""
    from scorio_core.items.irt import MIN_2PL_MODELS
    from scorio_core.items.report import diagnose, exclude_questions, flagged_questions, weights_as_successes_note

    model = "2pl" if len(outcomes.models) >= MIN_2PL_MODELS else "rasch"
    diagnostics = diagnose(outcomes, model=model)
    dropped = flagged_questions(diagnostics, args.exclude_flagged)
    if diagnostics.outcome == "rubric weights":  # the flags come from a fit on weighted counts: say so, as questions does
        weights = ", ".join(f"{label} -> {w:.3g}" for label, w in zip(outcomes.rubric.labels, outcomes.rubric.weights))
        notes.append({"code": "rubric_weights", "task": task, "message": weights_as_successes_note(task, f"({weights})")})
    notes.append({"code": "excluded_questions", "task": task, "questions": list(dropped), "irt_model": model,
                  "message": f"{task}: {len(dropped)} of {len(outcomes.rubric.questions)} questions left out "
                             f"(flagged {args.exclude_flagged}; {model.upper() if model == '2pl' else 'Rasch'} fit): "
                             + (", ".join(dropped[:10]) + (" ..." if len(dropped) > 10 else "") if dropped else "none")})
    return exclude_questions(outcomes, dropped)


def _note(code: str, task: str, text: str) -> dict:
    return {"code": code, "task": task, "message": f"{task}: {text}"}


def _unmatched(dataset, task, categorization, policy, summary: dict, notes: list):
    """Apply ``--unmatched`` and record the attempts that matched no category (per model) in ``summary``/``notes``."""
    from scorio_core.rubric.rerank import apply_unmatched, scope_mask, unmatched_by_model

    mask = scope_mask(dataset.attempts, task)
    _record_unmatched(unmatched_by_model(dataset.attempts, categorization.codes, mask), task, policy, summary, notes)
    return apply_unmatched(categorization, mask, policy)


def _record_unmatched(counts, task, policy, summary: dict, notes: list) -> None:
    """Add the per-model unmatched counts (``model, attempts, unmatched`` frame) to ``summary`` and ``notes``."""
    from scorio_core.rubric.rerank import UNMATCHED_EXCLUDE

    counts = counts[counts["unmatched"] > 0]
    if len(counts):
        total = int(counts["unmatched"].sum())
        summary["count"] += total
        for model, n in zip(counts["model"], counts["unmatched"]):
            summary["by_model"][model] = summary["by_model"].get(model, 0) + int(n)
        fate = ("are excluded (M and N count categorised attempts only; Pass@k-family metrics still use binary "
                "correctness of every attempt)" if policy == UNMATCHED_EXCLUDE else f"count as category {policy!r}")
        per_model = ", ".join(f"{m}: {int(n)}" for m, n in zip(counts["model"][:10], counts["unmatched"][:10]))
        notes.append({"code": "unmatched", "task": task, "message": f"{task}: {total} attempts matched no rubric "
                      f"category and {fate} ({per_model}{', ...' if len(counts) > 10 else ''})",
                      "by_model": {str(m): int(n) for m, n in zip(counts["model"], counts["unmatched"])}})


def _sql_rubric(args):
    """``--schema`` with DuckDB or Spark: category counts from :func:`load_category_counts` (or its Spark twin,
    :func:`~scorio_core.engines.rubric.spark.load_category_counts_spark`), or None for pandas.

    ``--engine auto`` falls back to pandas when the rubric or the data is not supported in SQL;
    ``--engine duckdb`` or ``spark`` raises the reason (one line, exit 2).
    """
    from scorio_core.cli._common import choose_engine, parse_mapping
    from scorio_core.engines import EngineUnsupported, NotReadyError

    engine = choose_engine(args)
    if engine not in ("duckdb", "spark"):
        return None
    try:
        from scorio_core.cli.rubric import read_frozen

        frozen = read_frozen(args.freeze_thresholds) if args.freeze_thresholds else None
        common = dict(task=args.task, mapping=parse_mapping(args.mapping) or None, format=args.format, thresholds=frozen,
                      max_tokens=args.max_tokens)
        if engine == "spark":
            from scorio_core.engines.rubric.spark import load_category_counts_spark

            result = load_category_counts_spark(args.paths, args.schema, spark_master=args.spark_master, **common)
        else:
            from scorio_core.engines.rubric.counts import load_category_counts

            result = load_category_counts(args.paths, args.schema, **common)
    except (EngineUnsupported, NotReadyError):
        if getattr(args, "engine", "auto") in ("duckdb", "spark"):
            raise
        args.engine = "pandas"  # auto: the pandas path categorizes (and reports what needs a choice)
        return None
    args.engine_used = engine
    return result


def _categorize(dataset, args, task):
    """Apply ``--schema`` (and ``--freeze-thresholds``) to the attempts of one task."""
    from scorio_core.leaderboard.table import categorization_for
    from scorio_core.cli.rubric import read_frozen

    frozen = read_frozen(args.freeze_thresholds) if args.freeze_thresholds else None
    categorization, notes = categorization_for(dataset, args.schema, task, thresholds=frozen, max_tokens=args.max_tokens)
    return categorization, [n.split(": ", 1)[1] if n.startswith(f"{task}: ") else n for n in notes]


def _sql_tasks(result) -> list:
    from scorio_core.engines.rubric.outcomes import task_order

    return task_order(result)


def print_interval_labels(table) -> None:
    """What ``lo, hi`` are under a text table: one line, or with several kinds (models whose empirical-Bayes prior is
    not identified get exact binomial intervals) one line per kind naming its models."""
    from scorio_core.report.tables import interval_groups

    groups = interval_groups(table)
    for names, label in groups:
        print(f"lo, hi: {label}" if len(groups) == 1 else f"lo, hi of {names}: {label}")


def ignored_options(args: argparse.Namespace) -> dict | None:
    """An ``ignored_options`` note naming options given away from their default that this run does not use, or None.

    ``--tau`` only enters G-Pass@k_tau and mG-Pass@k; with ``--method NAME`` (a :mod:`scorio_core.rank` method or
    IRT ability) ``--metric``, ``--k``, ``--tau``, ``--scope`` and ``--tie-rule`` do not apply, nor ``--confidence``
    without ``--bootstrap`` (for ``irt_ability`` it sets the intervals' level): said, not recorded as if used.
    """
    from scorio_core.choices import DEFAULT_SCOPE
    from scorio_core.leaderboard.metrics import get_metric

    bayes = args.method == "bayes"
    checks = [("--tau", args.tau, 0.5, not bayes or not get_metric(args.metric).uses_tau)]
    if not bayes:
        checks += [("--metric", args.metric, "bayes", True), ("--k", args.k, 1, True),
                   ("--scope", args.scope, DEFAULT_SCOPE, True), ("--tie-rule", args.tie_rule, "pairwise", args.method != "irt_ability"),
                   ("--confidence", args.confidence, 0.95, not args.bootstrap and args.method != "irt_ability")]
    unused = [f"{flag} {value}" for flag, value, default, applies in checks if applies and value != default]
    if not unused:
        return None
    why = (f"--method {args.method} ranks by that method" if not bayes
           else f"--tau applies to G-Pass@k_tau and mG-Pass@k, not to --metric {args.metric}")
    return {"code": "ignored_options", "options": [u.split(" ", 1)[0] for u in unused],
            "message": f"{', '.join(unused)}: not used ({why})."}
