"""``publish``: store eval dumps and a shared analysis in the workspace; print the share link.

Usage::

    python -m scorio_core publish DUMP... [--schema NAME|FILE] [--name NAME] [--workspace DIR]
        [--base-url URL] [--task T] [--metric M] [--k K] [--tau T] [--confidence C] [--tie-rule R]
        [--prior P] [--scope S] [--question-set Q] [--format F] [--map CANONICAL=COLUMN ...]
        [--engine auto|pandas|duckdb|spark] [choices] [--output json|table]

The dataset is stored as ``workspace add`` stores it (same files: same dataset) and an
immutable analysis snapshot of it is saved with exactly the state the app's **Share** button
stores (:func:`scorio_core.store.publish.analysis_state`), so an eval job in CI can publish its
results to the team's dashboard. ``--workspace`` defaults to ``$SCORIO_WORKSPACE`` or
``./workspace`` (the directory the app's server uses); ``--base-url`` to
``http://localhost:8501``. Large tables (``--engine auto``: 50 MB or more, or a quoted glob;
``duckdb``/``spark`` explicitly, a URI with ``spark``) are counted by the engine: the workspace
then stores the count table (``<stem>.counts.parquet``) and the trial order as prefix counts,
as the app stores large uploads.

JSON output (``--output json``)::

    {"analysis_id", "dataset_id", "dataset_created", "dataset_name", "link", "present_link", "engine",
     "notes": [{"code", "message", ...}] (``data_choices``, ``load``, ``graded_by_rubric``, ``name_not_applied``,
               ``default_schema``),
     "analysis_notes": [{"code", "task", "finding", "message", ...}]}

``analysis_notes`` carries the caveats the link's leaderboard shows, so a pipeline posting the link sees them too:
the notes ``leaderboard --task T --output json`` gives for the linked task under its default settings (e.g.
``unequal_question_sets``, ``disconnected_groups``, ``absent_from_task`` for models of the files that did not run
the task, ``missing_tasks``, ``prior_pull``, the prior-not-fitted notes), with the same codes and words.

``dataset_name`` is the name the workspace holds: files already stored keep their first name
(``--name`` names new datasets only; the table output says so when it differs).

``--prior-outcomes FILE [--prior-model NAME]`` (the prior outcomes R0 of ``leaderboard``) is refused (exit 2, before
anything is stored): the shared analysis cannot carry R0 yet, and a link without them would show other numbers; use
``leaderboard --prior-outcomes`` and ``export --prior-outcomes`` for R0.

Table output prints the two links. Bad input (unreadable dump, a choice still needed, unknown
task or rubric, invalid base URL, full workspace) exits with status 2 and one ``error: ...`` line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scorio_core.cli._common import (
    add_choice_arguments,
    add_engine_argument,
    add_question_set_argument,
    add_tie_rule_argument,
    add_uncertainty_arguments,
    emit_json,
    load_for_storage,
)
from scorio_core.report.notes import as_notes, note, note_messages

__all__ = ["PRIOR_OUTCOMES_REFUSAL", "read_files", "register", "run"]

#: Why ``publish --prior-outcomes`` is refused, and what to do instead.
PRIOR_OUTCOMES_REFUSAL = (
    "publish cannot carry the prior outcomes R0 yet: the workspace's shared analysis (what the link opens) does not "
    "store the prior trials, so the link would show the numbers without them. Publish without --prior-outcomes, and "
    "share the R0 numbers with `leaderboard --prior-outcomes FILE` and `export --prior-outcomes FILE --format "
    "html|manifest` instead.")


def register(subparsers) -> None:
    """Add the ``publish`` subcommand."""
    parser = subparsers.add_parser(
        "publish",
        help="store eval dumps and a shared analysis in the workspace; print the share link",
        description="Store eval dump files in the workspace (as `workspace add`) with an immutable analysis of "
                    "them, and print the link the dashboard opens (README, 'Workspace'). For CI pipelines.",
    )
    from scorio_core.choices import METRIC_NAMES
    from scorio_core.store.publish import APP_SETTINGS, CONFIDENCE_LEVELS, DEFAULT_BASE_URL

    parser.add_argument("paths", nargs="+", metavar="DUMP", help="eval dump file(s) or folders (a folder: its supported files, as every command reads it)")
    parser.add_argument("--schema", default=None, help="rubric schema: built-in name, rubric JSON file, or score-values[:STEP] (graded scores: partial credit) (default: binary correctness)")
    parser.add_argument("--max-tokens", type=int, default=None, help="max completion tokens, for the token_ratio signal of rubric schemas")
    parser.add_argument("--name", default=None, help="dataset name (default: the file names)")
    parser.add_argument("--workspace", default=None, metavar="DIR", help="workspace directory (default: $SCORIO_WORKSPACE or ./workspace)")
    parser.add_argument("--base-url", default=DEFAULT_BASE_URL, metavar="URL", help=f"the dashboard's address (default {DEFAULT_BASE_URL})")
    parser.add_argument("--task", default=None, help="task the link opens (default: the first task)")
    parser.add_argument("--metric", default=APP_SETTINGS["metric"], choices=list(METRIC_NAMES), help="ranking metric (default bayes)")
    parser.add_argument("--k", type=int, default=APP_SETTINGS["k"], help="k for Pass@k and the k-metrics (default 1)")
    parser.add_argument("--tau", type=float, default=APP_SETTINGS["tau"], help="tau for G-Pass@k_tau (default 0.5)")
    parser.add_argument("--confidence", type=float, default=APP_SETTINGS["confidence"], choices=CONFIDENCE_LEVELS,
                        help="credibility level, one of the app's levels (the link opens the analysis there; "
                             "default 0.95)")
    add_tie_rule_argument(parser)
    add_question_set_argument(parser)
    add_uncertainty_arguments(parser)
    parser.add_argument("--format", "--input-format", dest="format", default=None, help="input format (default: auto-detect)")
    parser.add_argument("--map", dest="mapping", action="append", default=[], metavar="CANONICAL=COLUMN",
                        help="column mapping override (repeatable)")
    add_engine_argument(parser)
    add_choice_arguments(parser)
    from scorio_core.cli.rubric import add_prior_outcomes_arguments

    add_prior_outcomes_arguments(parser)  # refused (run): the shared analysis cannot carry R0 yet
    parser.add_argument("--output", choices=("table", "json"), default="table")
    parser.set_defaults(func=run)


def read_files(ws, paths, verb: str = "publish") -> list[tuple[str, bytes]]:
    """The files to store, as ``(name, bytes)``: files as given, folders expanded as every command expands them.

    A folder gives its supported files (subfolders too, hidden ones skipped) and a HELM run folder its HELM
    files (:func:`scorio_core.io._sources.as_sources`), so ``publish FOLDER`` stores what ``leaderboard FOLDER``
    ranks. Each file's size is checked before it is read.

    Parameters
    ----------
    ws : scorio_core.store.Workspace
        The workspace (its per-file size limit).
    paths : sequence of str or path
        Files or folders.
    verb : str
        The command, for the messages (``publish`` or ``workspace add``).

    Returns
    -------
    list of (str, bytes)

    Raises
    ------
    InputError
        A path that does not exist, a folder without supported files, a file above the size limit, or two
        files with one name (the workspace stores files by name).
    """
    from scorio_core.errors import InputError
    from scorio_core.io._sources import as_sources

    found: list[tuple[str, Path]] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for src in as_sources([path]):
                members = src.members.values() if src.is_dir else [src]
                found.extend((m.name, Path(m.path)) for m in members)
        elif path.is_file():
            found.append((path.name, path))
        else:
            raise InputError("no such file.", source=path.name)
    seen: dict[str, Path] = {}
    for name, path in found:
        if name in seen and seen[name].resolve() != path.resolve():
            raise InputError(f"two files are named {name!r} ({seen[name]} and {path}); the workspace stores files by "
                             f"name, so {verb} them separately (one folder or HELM run at a time) or rename one.",
                             source=name)
        seen[name] = path
    files = []
    for name, path in seen.items():  # a file named twice (a folder and a file in it) is stored once
        ws.check_file_size(name, path.stat().st_size)  # before reading it into memory
        files.append((name, path.read_bytes()))
    return files


def run(args: argparse.Namespace) -> int:
    """Execute ``publish``; returns the exit status."""
    from scorio_core.store import Workspace
    from scorio_core.store.publish import publish, share_links

    from scorio_core.cli.rubric import refuse_prior_outcomes

    refuse_prior_outcomes(args, PRIOR_OUTCOMES_REFUSAL)  # before anything is read or stored
    share_links(args.base_url, "A" * 22)  # a bad address fails before anything is read or stored
    ws = Workspace(args.workspace, listing="shared")
    dataset, files, default_name = load_for_storage(args, lambda paths: read_files(ws, paths))
    from scorio_core.leaderboard.graded import require_ready_graded, resolve_data_schema

    args.schema = resolve_data_schema(args.schema, dataset)  # --schema score-values: built from the data
    graded: list[dict] = []  # a --schema reading graded scores scores them (as leaderboard --schema does)
    dataset = require_ready_graded(dataset, args.schema, max_tokens=args.max_tokens, notes=graded)
    settings = {"metric": args.metric, "k": args.k, "tau": args.tau, "confidence": args.confidence,
                "tie_rule": args.tie_rule, "prior": args.prior, "scope": args.scope, "question_set": args.question_set}
    result = publish(ws, args.name or default_name[:200], files, dataset,
                     base_url=args.base_url, task=args.task, schema=args.schema, settings=settings,
                     max_tokens=args.max_tokens)
    from scorio_core.cli.quality import load_notes
    from scorio_core.leaderboard.checks import choices_of, data_choices_notice

    # what the leaderboard says of the data before its caveats: the data-quality choices applied and what loading
    # found (CLI QA: a CI log showed neither the 590 duplicate rows removed nor the partial scores counted incorrect)
    notes = ([data_choices_notice(choices_of(dataset))] if choices_of(dataset) else []) + as_notes(
        load_notes(dataset, args), "load") + graded
    if args.name and not result.dataset_created and args.name[:200] != result.dataset_name:
        notes.append(note("name_not_applied", f"these files were stored before under the name {result.dataset_name!r}; "
                          f"--name {args.name[:200]!r} names newly stored datasets only"))
    if not args.schema:  # category codes without is_correct: the link opens on the category-code rubric, as the app does
        from scorio_core.rubric import default_schema_for, default_schema_note

        default = default_schema_for(dataset)
        notes += [note("default_schema", default_schema_note(default))] if default is not None else []
    caveats = _analysis_notes(dataset, args.task, args.schema, settings)
    if args.output == "json":
        emit_json({**result.to_dict(), "engine": args.engine_used, "notes": notes, "analysis_notes": caveats})
    else:
        out = sys.stdout
        out.write(("stored new dataset " if result.dataset_created else "already stored: dataset ") + result.dataset_id
                  + f" ({result.dataset_name!r})\n")
        for message in note_messages(notes):
            out.write(f"note: {message}\n")
        for caveat in caveats:
            text = caveat.get("finding", caveat["message"])
            out.write(f"note: {text if text.startswith(caveat['task'] + ': ') else caveat['task'] + ': ' + text}\n")
        out.write(f"analysis {result.analysis_id} (shared snapshot)\n")
        out.write(f"link:         {result.link}\n")
        out.write(f"presentation: {result.present_link}\n")
    return 0


def _analysis_notes(dataset, task: str | None, schema, settings: dict) -> list[dict]:
    """The caveats the linked leaderboard shows (:func:`scorio_core.leaderboard.checks.leaderboard_notices` and the
    prior-not-fitted notices, as ``leaderboard --output json`` gives them) under the settings the link opens on: the
    published ``settings`` (metric, k, tau, confidence, tie rule, prior, scope, question set; QA: the defaults' were
    reported, e.g. ``prior_not_fitted`` under ``--prior uniform``) and the rubric (``--schema``, or the data's
    default: category codes without is_correct)."""
    from scorio_core.cli.export import analyse
    from scorio_core.leaderboard.checks import dataset_models, model_name_defaults
    from scorio_core.leaderboard.table import emptied_on, leaderboard_notices
    from scorio_core.leaderboard.unfitted import not_fitted_notices
    from scorio_core.rubric import default_schema_for, resolve_schema
    from scorio_core.store.publish import check_task

    task = check_task(dataset, task)
    schema = resolve_schema(schema) if schema else default_schema_for(dataset)
    outcomes, table, _ = analyse(dataset, task, schema=schema, **settings)
    notices = leaderboard_notices(outcomes, table, confidence=settings["confidence"], tie_rule=settings["tie_rule"],
                                  question_set=settings["question_set"], emptied=emptied_on(dataset, task),
                                  dataset_models=dataset_models(dataset), named_by_default=model_name_defaults(dataset))
    notices += not_fitted_notices(table)
    return [{**note, "task": task} for note in notices]
