"""``export``: the leaderboard as CSV, Markdown, LaTeX, a self-contained HTML report, or a manifest. Usage::

    python -m scorio_core export PATH... --format csv|md|latex|html|manifest [--out FILE]
        [--input-format F] [--map CANONICAL=COLUMN]
        [--task T] [--metric bayes] [--k 1] [--tau 0.5] [--confidence 0.95]
        [--tie-rule pairwise] [--prior P] [--scope S] [--question-set Q] [--schema NAME_OR_JSON] [--max-tokens N]
        [--freeze-thresholds FILE] [--manifest FILE] [--engine auto|pandas|duckdb|spark]
        [--prior-outcomes FILE [--prior-model NAME]]

``--manifest FILE`` restores an analysis saved by the app or by ``--format manifest``: its task, rubric, thresholds,
data-quality choices and settings are used (options given on the command line win), after checking that the files have
the SHA-256 the manifest records; given none of ``--map/--recode/--outcome-scale/--errors-as-missing``, the files
are read as the manifest records them (``data.reading``, :mod:`scorio_core.report.reading`; said in the notes). ``--prior-outcomes FILE
[--prior-model NAME]`` adds the paper's prior outcomes R0 as ``leaderboard --prior-outcomes`` does (the same numbers;
Bayes@N only): the table's caption, notes and settings name them, and the manifest records them in its ``prior`` entry
(``kind`` ``dataset``, the file's name and SHA-256, ``model``). A manifest recording R0 is restored only with
``--prior-outcomes`` and files of that SHA-256 (never silently without them). With R0 the verdict states no lead's
questions nor paired P(A > B) (as the app's, which does not pair models with R0). CSV cells starting with ``= + - @``
are neutralised against spreadsheet formula injection (with R0 a ``prior_outcomes`` column names them on every row);
when the models fall into groups that share no question, the CSV has a ``group`` column (1-based, largest group first,
as the ``disconnected_groups`` note; absent otherwise), so the file says which ranks compare like with like; the HTML
report escapes all user text and embeds the manifest. Without ``--out`` the result goes to stdout."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scorio_core.cli._common import add_choice_arguments, add_engine_argument

__all__ = ["register", "run", "analyse", "one_sided_notes", "FORMATS"]

FORMATS = ("csv", "md", "latex", "html", "manifest")
_DEFAULTS = {"metric": "bayes", "k": 1, "tau": 0.5, "confidence": 0.95, "tie_rule": "pairwise",
             "prior": "empirical-bayes", "scope": "questions-fixed", "question_set": "own"}


def add_analysis_arguments(parser: argparse.ArgumentParser, *, with_metric: bool = True) -> None:
    """Settings shared by ``export`` and ``compare`` (defaults None: a manifest may fill them), incl. the prior
    outcomes R0 (``--prior-outcomes FILE [--prior-model NAME]``, as ``leaderboard``'s)."""
    from scorio_core.choices import METRIC_NAMES

    if with_metric:
        parser.add_argument("--metric", default=None, choices=list(METRIC_NAMES), help="ranking metric (default bayes = Bayes@N)")
        parser.add_argument("--k", type=int, default=None, help="k for Pass@k and the k-metrics (default 1)")
        parser.add_argument("--tau", type=float, default=None, help="tau for G-Pass@k_tau (default 0.5)")
        from scorio_core.cli._common import add_question_set_argument, add_tie_rule_argument

        add_tie_rule_argument(parser, default=None)
        add_question_set_argument(parser, default=None)
    parser.add_argument("--confidence", type=float, default=None, help="credibility level (default 0.95)")
    from scorio_core.cli._common import add_uncertainty_arguments

    add_uncertainty_arguments(parser, defaults=False)
    parser.add_argument("--schema", default=None, metavar="NAME_OR_JSON",
                        help="rubric schema: built-in name or rubric JSON file (default: binary correctness)")
    parser.add_argument("--max-tokens", type=int, default=None, help="max completion tokens, for token_ratio")
    parser.add_argument("--freeze-thresholds", default=None, metavar="FILE",
                        help="JSON of rubric threshold values to reuse ({name: value} or a `rubric --output json` result)")
    from scorio_core.cli.rubric import add_prior_outcomes_arguments

    add_prior_outcomes_arguments(parser)


def register(subparsers) -> None:
    """Add the ``export`` subcommand."""
    parser = subparsers.add_parser(
        "export",
        help="leaderboard as CSV/Markdown/LaTeX, a self-contained HTML report, or an analysis manifest",
        description=(
            "Export the leaderboard of one task (or 'all tasks') as CSV (formula-injection safe), "
            "Markdown, LaTeX (booktabs; a longtable above 40 models), a self-contained HTML report with a plain-language verdict, "
            "or an analysis manifest (data SHA-256, rubric, thresholds, settings, versions) that "
            "restores the analysis with --manifest."
        ),
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="eval dump file(s) or folders")
    parser.add_argument("--format", dest="export_format", required=True, choices=FORMATS, help="what to write")
    parser.add_argument("--input-format", dest="format", default=None,
                        help="input format (default: auto-detect); see `python -m scorio_core quality --formats`")
    parser.add_argument("--map", dest="mapping", action="append", default=[], metavar="CANONICAL=COLUMN",
                        help="column mapping override, e.g. --map question_id=problem (repeatable)")
    parser.add_argument("--task", default=None, help="task to export, or 'all tasks' to pool them")
    add_engine_argument(parser)
    add_choice_arguments(parser)
    add_analysis_arguments(parser)
    from scorio_core.cli.quality import add_cluster_argument

    add_cluster_argument(parser)
    parser.add_argument("--manifest", default=None, metavar="FILE", help="restore the analysis saved in this manifest")
    parser.add_argument("--out", default=None, metavar="FILE", help="write to FILE instead of stdout")
    parser.set_defaults(func=run)


def _restore(args: argparse.Namespace):
    """Fill unset options from ``--manifest``; returns the manifest (or None)."""
    if not args.manifest:
        return None
    from scorio_core.errors import InputError
    from scorio_core.report.manifest import read_manifest
    from scorio_core.report.reading import restore_reading

    try:
        data = (path := Path(args.manifest)).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read manifest: {exc.strerror or exc}.", source=path.name) from None
    manifest = read_manifest(data, source=path.name)
    for name in ("metric", "k", "tau", "confidence", "tie_rule", "prior", "scope", "question_set", "max_tokens",
                 "cluster_column"):
        if getattr(args, name, None) is None and name in manifest.settings:
            setattr(args, name, manifest.settings[name])
    if args.task is None:
        args.task = manifest.task
    restore_reading(args, manifest.reading)  # --map/--recode/--outcome-scale as recorded, unless given
    choices = manifest.choices
    for name in ("duplicates", "binarize_threshold", "missing_outcomes"):
        if getattr(args, name, None) is None and choices.get(name) is not None:
            setattr(args, name, choices[name])
    if choices.get("intersect_questions"):
        args.intersect_questions = True
    if manifest.prior is not None:  # R0: restored from the same file only, never dropped silently
        if not getattr(args, "prior_outcomes", None):
            what = manifest.prior.get("label") or manifest.prior.get("key") or "another model of the data"
            raise InputError(f"the manifest records prior outcomes R0 ({what}{', model ' + str(manifest.prior['model']) if manifest.prior.get('model') else ''}); "
                             "pass those trials with --prior-outcomes FILE (their SHA-256 is checked) to restore the "
                             "analysis.", source=path.name, field="prior_outcomes")
        if args.prior_model is None and manifest.prior.get("model"):
            args.prior_model = str(manifest.prior["model"])
    return manifest


def _settings(args: argparse.Namespace) -> dict:
    from scorio_core.eval._validate import check_confidence, check_tau
    from scorio_core.leaderboard.metrics import check_k

    out = {name: (getattr(args, name, None) if getattr(args, name, None) is not None else default)
           for name, default in _DEFAULTS.items()}
    check_confidence(out["confidence"])
    check_tau(out["tau"])
    if isinstance(out["k"], bool) or not isinstance(out["k"], int) or out["k"] < 1:
        raise ValueError(f"--k must be an integer >= 1; got {out['k']!r}.")
    check_k(out["metric"], out["k"])  # mG-Pass@k at k = 1 scores every model 0: refused, as by `leaderboard`
    out["max_tokens"] = getattr(args, "max_tokens", None)
    out["cluster_column"] = getattr(args, "cluster_column", None)
    return out


def analyse(dataset, task: str, *, schema=None, frozen=None, max_tokens=None, table: bool = True, **settings):
    """Categorize (optional), build outcomes and rank one task: what export, compare and ranks share.

    Returns ``(outcomes, table, scoped)`` where ``scoped`` is the
    :class:`scorio_core.rubric.rerank.ScopedCategorization` (None without a schema); ``table`` is None with
    ``table=False`` (the outcomes only).
    """
    from scorio_core.leaderboard.table import leaderboard, outcomes_for
    from scorio_core.rubric.rerank import categorize_scope

    scoped = None
    if schema is not None:
        scoped = categorize_scope(dataset, task, schema, frozen, max_tokens=max_tokens)
    outcomes = outcomes_for(dataset, task, scoped.categorization if scoped else None)
    return outcomes, leaderboard(outcomes, **settings) if table else None, scoped


def resolve_task(dataset, task: str | None) -> str:
    """The task to analyse: the one given, or the only task of the data."""
    from scorio_core.leaderboard.table import ALL_TASKS, task_names
    from scorio_core.leaderboard.task_outcomes import task_listing
    from scorio_core.errors import InputError

    tasks = task_names(dataset)
    if not tasks and getattr(getattr(dataset, "report", None), "choices", ()):  # e.g. --intersect-questions, none common
        raise InputError("no attempt is left after the data-quality choices: " + " ".join(dataset.report.choices)
                         + " Leave out the choice that removed them (e.g. --intersect-questions where no question was "
                           "answered by every model: --question-set missing-incorrect on leaderboard counts a question "
                           "a model did not answer as wrong).")
    if task is None:
        if len(tasks) != 1:
            raise InputError(f"the data has {task_listing(tasks)}; choose one with "
                             f"--task, or --task '{ALL_TASKS}' to pool them.")
        return tasks[0]
    if task != ALL_TASKS and task not in tasks:
        raise InputError(f"task {task!r} is not in the data; tasks: {', '.join(tasks[:20])}.")
    return task


def load_schema_args(args: argparse.Namespace, manifest=None):
    """Schema and frozen thresholds from ``--schema``/``--freeze-thresholds`` (or the manifest)."""
    from scorio_core.cli.rubric import read_frozen
    from scorio_core.leaderboard.graded import is_score_values  # score-values: load_dataset builds it (args.schema)
    from scorio_core.rubric import resolve_schema

    schema = None if is_score_values(args.schema) else resolve_schema(args.schema) if args.schema else (
        manifest.schema if manifest else None)
    frozen = read_frozen(args.freeze_thresholds) if args.freeze_thresholds else None
    if frozen is None and manifest is not None and manifest.frozen and schema is manifest.schema:
        frozen = dict(manifest.thresholds)
    return schema, frozen


def run(args: argparse.Namespace) -> int:
    """Execute ``export``; returns the exit status."""
    from scorio_core.cli._common import load_dataset
    from scorio_core.errors import InputError
    from scorio_core.report.reading import command_reading
    from scorio_core.leaderboard.metrics import get_metric
    from scorio_core.report import latex, tables
    from scorio_core.report.manifest import build_manifest, manifest_to_json, source_mismatches

    from scorio_core.cli.quality import check_output_file, cluster_engine
    from scorio_core.cli.rubric import (check_prior_outcomes_args, load_prior_outcomes, prior_outcomes_board,
                                        prior_outcomes_manifest)
    from scorio_core.leaderboard.task_outcomes import question_clusters

    if args.out:  # before the analysis, not after it
        check_output_file(args.out, args.paths)
    manifest = _restore(args)
    settings = _settings(args)
    cluster_engine(args)
    check_prior_outcomes_args(args)  # R0 enters Bayes@N only (--metric from the command line or the manifest)
    schema, frozen = load_schema_args(args, manifest)
    args.schema = args.schema or schema  # a manifest's rubric reading graded scores lifts their block, as --schema
    dataset = load_dataset(args)
    if schema is None and manifest is None and getattr(args, "schema", None) is not None:
        schema = args.schema  # category codes without is_correct: load_dataset's category-code rubric, as leaderboard
    prior_data, r0_notes = load_prior_outcomes(args, schema=schema), []  # R0 (--prior-outcomes), its note in r0_notes
    if manifest is not None:
        problems = source_mismatches(manifest, dataset.sources)
        shas = sorted((manifest.prior or {}).get("sources") or [])
        if prior_data is not None and shas and shas != sorted(s.sha256 for s in prior_data.sources):
            problems.append(f"--prior-outcomes {Path(args.prior_outcomes).name} is not the prior outcomes R0 it records")
        if problems:
            raise InputError("the data differs from the manifest: " + "; ".join(problems[:3]) + ".")
    task = resolve_task(dataset, args.task)
    leaderboard_settings = {k: settings[k] for k in ("metric", "k", "tau", "confidence", "tie_rule", "prior", "scope",
                                                           "question_set")}
    if settings["cluster_column"]:
        leaderboard_settings.update(clusters=question_clusters(dataset, task, settings["cluster_column"]),
                                    cluster_column=settings["cluster_column"])
    outcomes, _, scoped = analyse(dataset, task, schema=schema, frozen=frozen, max_tokens=settings["max_tokens"],
                                  table=False)
    table, counts0 = prior_outcomes_board(args, prior_data, outcomes, task, scoped.categorization if scoped else None,
                                          r0_notes, schema=schema, **leaderboard_settings)  # R0: as leaderboard's
    r0 = r0_notes[0] if r0_notes else None
    label = get_metric(settings["metric"]).label
    fmt = args.export_format
    doc = build_manifest(
        dataset_key=manifest.dataset_key if manifest else "files:" + ",".join(s.name for s in dataset.sources),
        dataset_label=manifest.dataset_label if manifest else ", ".join(s.name for s in dataset.sources),
        sources=dataset.sources,
        choices={k: getattr(args, k, None) for k in ("duplicates", "binarize_threshold", "missing_outcomes", "intersect_questions")},
        task=task,
        schema=schema,
        thresholds=scoped.result.thresholds if scoped else None,
        frozen=frozen is not None,
        prior=prior_outcomes_manifest(args, prior_data),
        settings=settings,
        reading=command_reading(args),
    )
    notices = _notices(args, dataset, task, table, outcomes, scoped, schema, settings, r0, r0_notes)
    rubric_name = schema.name if schema is not None else "Binary correctness"
    if fmt == "csv":  # models sharing no question: each row's group in the file (its caveat goes to stderr below)
        from scorio_core.leaderboard.linking import question_groups, with_group_column

        grouped = with_group_column(table, question_groups(outcomes, table, settings["question_set"]))
        framed = tables.with_context(grouped, dataset=", ".join(s.name for s in dataset.sources), rubric=rubric_name)
        text = tables.to_csv(framed if r0 is None else framed.assign(prior_outcomes=r0["source"]))  # R0: on every row
        if tables.formula_note(table):
            print(f"# note: {tables.formula_note(table)}", file=sys.stderr)
        for notice in notices:  # a CSV has no caption: its caveats go to standard error (md/latex/html carry them)
            print(f"# note: {notice}", file=sys.stderr)
    elif fmt == "md":
        context = {"Data": ", ".join(s.name for s in dataset.sources), "Task": task,
                   "Rubric": rubric_name,
                   "Metric": label + (f" (k = {settings['k']})" if label != "Bayes@N" else "")}
        if r0 is not None:
            context["Prior outcomes R0"] = r0["source"]
        text = tables.leaderboard_markdown(table, metric_label=label, confidence=settings["confidence"],
                                           verdict=_verdict(outcomes, table, label, settings, r0=r0 is not None),
                                           notes=notices,
                                           context=context)
    elif fmt == "latex":
        text = latex.leaderboard_latex(table, metric_label=label, confidence=settings["confidence"], task=task,
                                        notes=notices)
    elif fmt == "manifest":
        text = manifest_to_json(doc) + "\n"
    else:
        text = _html(dataset, task, table, label, settings, schema, doc, outcomes, notices, r0=r0,
                     thresholds=scoped.result.thresholds if scoped else None)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out} ({len(text.encode('utf-8')):,} bytes)", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _notices(args, dataset, task, table, outcomes, scoped, schema, settings, r0, r0_notes) -> list[str]:
    """The export's notes, each sentence once: what the leaderboard's JSON notes say of this task, in every format
    that has notes (a default the data assumed, R0, what loading found, the rubric's thresholds and derived signals,
    the data's notes, the leaderboard's notices and, with questions sampled, how rank_ci pairs the models)."""
    from scorio_core.cli.quality import load_notes
    from scorio_core.leaderboard.checks import choices_of, dataset_models, model_name_defaults
    from scorio_core.leaderboard.table import emptied_on, leaderboard_notices
    from scorio_core.rubric.coverage import categorization_notes
    from scorio_core.rubric.prior_outcomes import r0_pull_notice

    found = [(r0_pull_notice(n, r0) if r0 is not None and n["code"] == "prior_pull" else n)  # R0 pulls the means
             for n in leaderboard_notices(outcomes, table, confidence=settings["confidence"],
                                          tie_rule=settings["tie_rule"], question_set=settings["question_set"],
                                          emptied=emptied_on(dataset, task), choices=choices_of(dataset),
                                          dataset_models=dataset_models(dataset),
                                          named_by_default=model_name_defaults(dataset))]
    if settings["scope"] == "questions-sampled":  # whether rank_ci pairs the models, as the leaderboard's note
        from scorio_core.report.notes import rank_pairing_note
        pairing = rank_pairing_note(task, settings["metric"], settings["scope"], settings["tie_rule"], table, outcomes,
                                    settings["cluster_column"])
        found.append({**pairing, "finding": pairing["message"].removeprefix(f"{task}: ")})
    rubric_notes = categorization_notes(scoped.result, schema.name) if scoped is not None else []
    notices = ([n["message"] for n in [*getattr(args, "reading_notes", []), *getattr(args, "default_notes", []),
                                       *r0_notes]]  # the manifest's reading, weights a default assumed
               + rubric_notes + list(outcomes.rubric.notes) + [n["finding"] for n in found])
    said = set(notices) | {n["message"] for n in found}  # a load note the task's notes say already: once
    notices = [n for n in load_notes(dataset, args) if n not in said] + notices
    return list(dict.fromkeys(notices))


def one_sided_notes(outcomes, table, task: str, settings: dict, r0: bool = False) -> list[dict]:
    """The verdict's "lead is one-sided" caveat (P(A > B) reaches the level while the central interval of the
    difference holds 0) as a ``one_sided`` note of ``task`` (``models``: [ahead, behind]), for the leaderboard's JSON,
    in the words of the exports and the app; ``[]`` when the lead is not one-sided."""
    from scorio_core.leaderboard.metrics import get_metric

    v = _verdict(outcomes, table, get_metric(settings["metric"]).label, settings, r0=r0)
    return [{"code": "one_sided", "task": task, "models": [v.comparisons[0].ahead, v.comparisons[0].behind],
             "message": f"{task}: {v.one_sided}"}] if v.one_sided else []


def _verdict(outcomes, table, label, settings, r0: bool = False):
    """The export's verdict: its scope in the headline and, for Bayes@N, the questions behind the lead (not with the
    prior outcomes R0, ``r0``: the lead's paired difference does not take them, as in the app)."""
    from scorio_core.leaderboard.table import leaderboard, question_sets_differ
    from scorio_core.report.lead import top_lead
    from scorio_core.report.verdict import verdict

    from scorio_core.leaderboard.checks import apply_question_set
    from scorio_core.leaderboard.table import pairwise_for

    lead, rho, paired = None, None, False
    if settings["metric"] == "bayes" and not r0:
        fixed = table if settings["scope"] == "questions-fixed" else leaderboard(
            outcomes, confidence=settings["confidence"], prior=settings["prior"], scope="questions-fixed",
            question_set=settings["question_set"])
        # the lead's questions are the leaderboard's (common: the questions every model answered)
        lead = top_lead(apply_question_set(outcomes, settings["question_set"]), table, fixed,
                        confidence=settings["confidence"], original=outcomes)
        if settings["scope"] != "questions-fixed" and table["mu"].notna().sum() >= 2:  # as the rank ties pair them
            rho, paired = pairwise_for(outcomes, table, fixed, metric="bayes", scope=settings["scope"],
                                       question_set=settings["question_set"], confidence=settings["confidence"])
    from scorio_core.leaderboard.trial_order import trial_position_effects

    from scorio_core.leaderboard.linking import question_groups

    effects = trial_position_effects(outcomes.binary) if outcomes.binary is not None else []
    return verdict(table, confidence=settings["confidence"], metric_label=label, scope=settings["scope"], lead=lead,
                   pairwise=rho if paired else None, groups=question_groups(outcomes, table, settings["question_set"]),
                   question_sets_differ=question_sets_differ(outcomes, settings["question_set"]), trial_effects=effects,
                   scale=_scale(outcomes.rubric.weights) if settings["metric"] in ("bayes", "avg") else None,
                   tie_rule=settings["tie_rule"])


def _scale(weights) -> tuple[float, float]:
    """The rubric's smallest and largest weight: the range of a Bayes@N or avg@N score."""
    return float(min(weights)), float(max(weights))


def _html(dataset, task, table, label, settings, schema, doc, outcomes, notices=(), r0=None, thresholds=None) -> str:
    from scorio_core.report.html import html_report, settings_rows

    v = _verdict(outcomes, table, label, settings, r0=r0 is not None)
    names = ", ".join(s.name for s in dataset.sources)
    weights = [float(w) for w in outcomes.rubric.weights]
    shown = settings_rows(  # the app's rows: a CLI report and an app report list the same settings
        table, dataset=doc["data"]["label"],
        files=", ".join(f"{s.name} (SHA-256 {s.sha256[:12]})" for s in dataset.sources),
        choices=doc["data"]["choices"], task=task,
        rubric=f"{schema.name if schema is not None else 'Binary correctness'} ({len(weights)} categories, w = "
               f"{', '.join(f'{w:g}' for w in weights)})", thresholds=dict(thresholds or {}),
        metric=label + (f" (k = {settings['k']})" if label != "Bayes@N" else ""), confidence=settings["confidence"],
        tie_rule=settings["tie_rule"], prior=settings["prior"], scope=settings["scope"],
        question_set=settings["question_set"], cluster_column=settings.get("cluster_column"), reading=doc["data"].get("reading"))
    if r0 is not None:
        shown["Prior outcomes R0"] = f"{r0['source']} ({r0['matched']:,} of {r0['n_questions']:,} questions matched)"
    notes = list(notices) + ["Charts are embedded when the report is exported from the app; "
                             "the table's bars show each interval."]
    return html_report(title=f"{label} leaderboard: {task}", subtitle=names, table=table, verdict=v, settings=shown,
                       manifest=doc, notes=notes, generated=f"scorio_core {doc['versions']['scorio_core']}, {doc['created']}",
                       tie_rule=settings["tie_rule"])
