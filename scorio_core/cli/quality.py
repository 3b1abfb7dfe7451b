"""``quality``: the data-quality report of eval dumps, with the detected formats.

Usage::

    python -m scorio_core quality PATH... [--format F] [--map CANONICAL=COLUMN ...]
        [--duplicates keep-first|keep-last|drop|sum|as-trials] [--binarize-threshold T]
        [--missing-outcomes drop|incorrect] [--intersect-questions] [--output json|table]
    python -m scorio_core quality --formats [--output json|table]

JSON output (``--output json``) is an object ``{"sources": [...], "report": {...}}``:
``sources`` lists ``name, format, sha256, rows, layout, mapping`` per input and ``report``
is :meth:`scorio_core.io.QualityReport.to_dict`. ``--formats`` prints the supported formats
(``{"formats": [{"name", "description"}, ...]}`` in JSON). The exit status is 0 when the
files load (blocking issues are reported, not failures) and 2 for unreadable input.
"""

from __future__ import annotations

import argparse
import sys

from scorio_core.cli._common import add_choice_arguments, add_engine_argument, emit_json, load_dataset

__all__ = ["load_notes", "register", "run"]


def register(subparsers) -> None:
    """Add the ``quality`` subcommand."""
    parser = subparsers.add_parser(
        "quality",
        help="data-quality report and detected format of eval dumps; --formats lists formats",
        description=(
            "Load eval dumps and print what was found: detected format and column mapping per "
            "file, models with different question sets, unequal trials, duplicate or "
            "conflicting rows, questions every model gets right or wrong, non-binary outcomes. "
            "Choices (--duplicates, --binarize-threshold, --missing-outcomes, "
            "--intersect-questions) are applied and recorded in the report."
        ),
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="eval dump file(s) or folders")
    parser.add_argument("--formats", action="store_true", help="list the supported input formats and exit")
    parser.add_argument("--format", "--input-format", dest="format", default=None, help="input format (default: auto-detect; see --formats)")
    parser.add_argument(
        "--map", dest="mapping", action="append", default=[], metavar="CANONICAL=COLUMN",
        help="column mapping override, e.g. --map question_id=problem (repeatable)",
    )
    add_engine_argument(parser)
    add_choice_arguments(parser)
    parser.add_argument("--output", choices=("table", "json"), default="table")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Execute ``quality``; returns the exit status."""
    from scorio_core import io

    if args.formats:
        if args.output == "json":
            emit_json({"formats": [{"name": k, "description": v} for k, v in io.SUPPORTED_FORMATS.items()]})
        else:
            width = max(len(k) for k in io.SUPPORTED_FORMATS)
            for name, text in io.SUPPORTED_FORMATS.items():
                print(f"{name:<{width}}  {text}")
        return 0
    if not args.paths:
        raise ValueError("give at least one PATH (or --formats to list the supported formats).")
    from scorio_core.engines._sql import NotReadyError

    try:
        dataset = load_dataset(args, require_ready=False)
    except NotReadyError as exc:  # an engine counts ready data only: what blocks the counting is the report
        return _not_ready(args, exc)
    if args.output == "json":
        emit_json({"sources": [s.to_dict() for s in dataset.sources], "report": dataset.report.to_dict(),
                   "engine": getattr(args, "engine_used", "pandas")})
    else:
        _print_table(dataset, sys.stdout)
    return 0


def _not_ready(args: argparse.Namespace, exc) -> int:
    """The report of data an engine refused to count (duplicates, missing or non-binary outcomes): its blocking
    messages (the pandas loader's), exit 0 as for any report; the pandas engine gives the full report."""
    engine = getattr(args, "engine_used", args.engine)
    note = (f"--engine {engine} counts only ready data, so this report holds what blocks the counting (the same "
            "messages as the pandas loader's); --engine pandas gives the full report (sources, gaps, duplicates "
            "listed) and, with the data-quality options (--duplicates, --missing-outcomes, --binarize-threshold), "
            "resolves the blocking issues.")
    if args.output == "json":
        emit_json({"sources": [], "report": {"ready": False, "blocking": list(exc.blocking) or [str(exc)]},
                   "engine": engine, "notes": [{"code": "engine_not_ready", "message": note}]})
    else:
        _lines(sys.stdout.write, "BLOCKING (choose before computing metrics)", list(exc.blocking) or [str(exc)])
        print(f"note: {note}")
    return 0


def _n(count: int, noun: str) -> str:
    """``"1 task"``, ``"2 tasks"``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _print_table(dataset, out) -> None:
    r = dataset.report
    w = out.write
    w("sources\n")
    for s in dataset.sources:
        mapping = ", ".join(f"{k}<-{v}" for k, v in s.mapping)
        w(f"  {s.name}  format={s.format}  layout={s.layout}  rows={s.rows}  sha256={s.sha256[:12]}\n")
        if mapping:
            w(f"    mapping: {mapping}\n")
    w(f"table: {r.layout}, {r.n_rows} rows, {_n(r.n_models, 'model')}, {_n(r.n_tasks, 'task')}, {r.n_questions} (task, "
      "question) pairs\n")
    _lines(w, "defaults", r.defaults)
    _lines(w, "notes", r.notes)
    if r.n_absent:
        w(f"models without rows on a task: {r.n_absent:,} (model, task) pairs, not ranked on that task, e.g. "
          + ", ".join(f"{m} on {t}" for m, t in r.absent[:5]) + "\n")
    if r.question_gaps:
        w(f"question sets differ: {r.missing_cells} missing (model, question) cells\n")
        for g in r.question_gaps:
            w(f"  {g.task} / {g.model}: {g.n_questions} questions, {g.n_missing} missing (e.g. {', '.join(g.missing_examples)})\n")
    if r.unequal_trials:
        w("unequal trials per question:\n")
        for s in r.unequal_trials:
            w(f"  {s.task} / {s.model}: {s.min_trials}..{s.max_trials}\n")
    if r.n_duplicate_keys:
        w(f"duplicates: {r.n_duplicate_rows} extra rows over {r.n_duplicate_keys} keys, {r.n_conflicting_keys} conflicting\n")
        for d in r.duplicates[:10]:
            flag = "CONFLICT " if d.conflicting else ""
            src = f" from {', '.join(dict.fromkeys(d.sources))}" if d.sources else ""
            w(f"  {flag}{d.model} / {d.task} / {d.question_id} / trial {d.trial}: {d.n_rows} rows, outcomes {list(d.outcomes)}{src}\n")
    w(f"questions all models get right: {r.n_all_correct}; all wrong: {r.n_all_wrong}\n")
    if r.n_non_binary:
        w(f"non-binary outcomes: {r.n_non_binary} (e.g. {', '.join(f'{v:g}' for v in r.non_binary_examples[:5])})\n")
    if r.n_missing_outcomes:
        w(f"attempts without an outcome: {r.n_missing_outcomes}\n")
    _lines(w, "choices", r.choices)
    _lines(w, "BLOCKING (choose before computing metrics)", r.blocking)
    if not r.blocking:
        w("ready: no blocking issues\n")


def _lines(w, title: str, items) -> None:
    if items:
        w(f"{title}:\n")
        for item in items:
            w(f"  - {item}\n")


def load_notes(dataset, args: argparse.Namespace) -> tuple[str, ...]:
    """What loading found, for a command's notes: :func:`scorio_core.report.notes.loader_notes` of the engine that
    read the data (``args.engine_used``)."""
    from scorio_core.report.notes import loader_notes

    return loader_notes(dataset, engine=getattr(args, "engine_used", "pandas"))


def add_cluster_argument(parser: argparse.ArgumentParser) -> None:
    """``--cluster-column``: questions that come in groups (leaderboard and compare)."""
    parser.add_argument(
        "--cluster-column", default=None, metavar="COLUMN",
        help="a column grouping questions (passage, template, source file; constant per question): with --scope "
             "questions-sampled, intervals use cluster-robust standard errors (Miller 2024) instead of treating "
             "questions as independent; read with the attempt-level loader",
    )


def cluster_engine(args: argparse.Namespace) -> None:
    """``--cluster-column`` reads a per-question column, which the SQL engines' count tables do not carry."""
    from scorio_core.errors import InputError

    if getattr(args, "cluster_column", None):
        if getattr(args, "engine", "auto") in ("duckdb", "spark"):
            raise InputError(f"--cluster-column needs the attempt-level loader (--engine pandas or auto); --engine "
                             f"{args.engine} aggregates to counts without the column {args.cluster_column!r}.")
        args.engine = "pandas"


def check_output_file(out: str, inputs) -> None:
    """Refuse an output file whose folder does not exist, or that is one of the input files (an export written over
    the dump it reads: QA lost a dataset so; ``export ... --out`` checks before the analysis).

    Raises
    ------
    InputError
        Naming the path and what to do.
    """
    from pathlib import Path

    from scorio_core.errors import InputError

    target = Path(out).resolve()
    if not target.parent.is_dir():
        raise InputError(f"--out {out}: the folder {target.parent} does not exist; create it or write elsewhere.")
    if any(Path(p).resolve() == target for p in inputs if "://" not in str(p)):
        raise InputError(f"--out {out} is one of the input files: writing the export there would replace the data it "
                         "reads; choose another file.")
