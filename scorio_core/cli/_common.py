"""Shared CLI plumbing: data arguments, loading, and stable output rendering."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["emit_method_rows", "add_data_arguments", "add_engine_argument", "add_uncertainty_arguments",
           "add_prior_argument", "add_tie_rule_argument", "add_question_set_argument", "add_output_argument",
           "add_choice_arguments", "apply_cli_choices", "load_dataset", "parse_mapping", "to_jsonable", "emit_json", "emit_rows"]

OUTPUT_CHOICES = ("table", "json", "csv", "md")
#: Commands whose default covers every task (the others analyse one task: ``--task`` help says which).
EVERY_TASK_COMMANDS = "leaderboard, tasks, methods, questions and rubric"


def add_data_arguments(parser: argparse.ArgumentParser, *, one_task: bool = False, pool: bool = False) -> None:
    """Add ``PATH...``, ``--format`` (alias ``--input-format``), ``--map`` and ``--task`` to a subcommand parser.

    ``one_task``: the command analyses one task, so ``--task`` is needed when the data have several (its help says
    so); ``pool``: ``--task 'all tasks'`` (``ALL_TASKS``, not imported: pandas at start-up) pools them."""
    parser.add_argument("paths", nargs="+", metavar="PATH", help="eval dump file(s) or folders")
    parser.add_argument("--format", "--input-format", dest="format", default=None,  # --input-format: `export`'s name
                        help="input format (default: auto-detect); see `python -m scorio_core quality --formats`")
    parser.add_argument("--map", dest="mapping", action="append", default=[], metavar="CANONICAL=COLUMN",
                        help="column mapping override, e.g. --map question_id=problem (repeatable); question_id=@columns: a "
                             "response matrix; model=@folder, task=@folder (@folder:2: the folder above): the file's folder")
    task_help = ("restrict to one task (default: every task)" if not one_task else
                 "the task to analyse (this command does one task at a time): data with one task need no --task; with "
                 "several, choose one" + (", or 'all tasks' to pool them" if pool else "") + f"; {EVERY_TASK_COMMANDS} "
                 "do every task by default")
    parser.add_argument("--task", default=None, help=task_help)
    add_engine_argument(parser)
    add_choice_arguments(parser)


ENGINE_CHOICES = ("auto", "pandas", "duckdb", "spark")
#: Subcommands that need attempt rows (trial order, per-attempt signals): ``auto`` keeps pandas for them.
_ATTEMPT_COMMANDS = frozenset({"trajectory", "convergence", "rubric", "sensitivity", "attempts"})


def add_engine_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--engine {auto,pandas,duckdb,spark}`` and ``--spark-master`` (how tables become counts; docs/scale.md)."""
    parser.add_argument(
        "--engine", choices=ENGINE_CHOICES, default="auto",
        help="auto (default): DuckDB for CSV/TSV/Parquet/JSONL tables of 50 MB or more or a quoted glob such as "
             "'runs/**/*.parquet', pandas otherwise; duckdb counts in SQL without loading attempts (count-level "
             "results only); spark counts with Spark SQL (optional: pip install -r requirements-spark.txt and a "
             "Java runtime; never picked by auto); pandas reads every format and keeps attempt rows",
    )
    parser.add_argument(
        "--spark-master", default=None, metavar="URL",
        help="with --engine spark: Spark master URL, e.g. local[4], spark://host:7077, yarn (default: the "
             "active session under spark-submit, else $SPARK_MASTER, else local[*])",
    )


def add_choice_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the explicit data-quality choices (nothing is dropped or filled without one)."""
    from scorio_core.choices import DUPLICATE_POLICIES, MISSING_POLICIES

    group = parser.add_argument_group("data-quality choices (recorded in the output)")
    group.add_argument("--duplicates", choices=DUPLICATE_POLICIES, default=None, help="resolve duplicate (model, task, question, trial) rows: keep one (keep-first, keep-last), drop them all, add counts (sum: count tables), or read each as a further "
                            "attempt (as-trials: files that are separate runs; trials renumbered per question in load order) (default: none; refused while any remain, naming one)")
    group.add_argument("--binarize-threshold", type=float, default=None, metavar="T", help="is_correct = score > T (AISBench uses 0.5; default: none, graded scores are refused until chosen)")
    group.add_argument("--missing-outcomes", choices=MISSING_POLICIES, default=None, help="drop attempts without an outcome, or count them incorrect (default: none, refused while any remain)")
    group.add_argument("--intersect-questions", action="store_true", help="keep only questions every model of a task attempted")
    group.add_argument("--recode", action="append", default=None, metavar="LABEL=VALUE", help="read a text label of the outcome column as a value in [0, 1], e.g. --recode pass=1 --recode fail=0 (repeatable; compared without case; default: text labels are refused)")
    group.add_argument("--outcome-scale", type=float, default=None, metavar="MAX", help="the outcome column's full score: its numbers are divided by MAX, e.g. --outcome-scale 100 for percentages (default: outcomes must lie in [0, 1])")
    group.add_argument("--errors-as-missing", action="store_true", default=None, help="read the outcome of attempts whose error column (error, exception ...) is set as missing, then choose --missing-outcomes (default: as the file gives it, with a note)")


def outcome_reading(args: argparse.Namespace) -> dict:
    """``io.load``'s ``recode``, ``outcome_scale``, ``errors_as_missing`` from the options of those names."""
    from scorio_core.io.formats.user_recoding import parse_recoding
    return {"recode": parse_recoding(getattr(args, "recode", None)), "outcome_scale": getattr(args, "outcome_scale", None),
            "errors_as_missing": bool(getattr(args, "errors_as_missing", None))}


def apply_cli_choices(dataset, args: argparse.Namespace):
    """Apply the ``--duplicates/--binarize-threshold/--missing-outcomes/--intersect-questions`` choices."""
    from scorio_core import io

    choices = {
        "duplicates": getattr(args, "duplicates", None),
        "binarize_threshold": getattr(args, "binarize_threshold", None),
        "missing_outcomes": getattr(args, "missing_outcomes", None),
        "intersect_questions": bool(getattr(args, "intersect_questions", False)),
    }
    if any(v not in (None, False) for v in choices.values()):
        dataset = io.apply_choices(dataset, **choices)
    return dataset


def add_uncertainty_arguments(parser: argparse.ArgumentParser, *, defaults: bool = True,
                              prior_help: str | None = None) -> None:
    """Add ``--prior`` and ``--scope`` (what every credible interval is conditioned on); ``defaults=False`` leaves them
    None so a manifest can fill them; ``prior_help`` replaces ``--prior``'s help (a command whose default differs)."""
    from scorio_core.choices import DEFAULT_SCOPE, SCOPE_HELP, SCOPES

    add_prior_argument(parser, defaults=defaults, what=prior_help)
    parser.add_argument(
        "--scope", choices=SCOPES, default=DEFAULT_SCOPE if defaults else None,
        help=f"what intervals cover (default {DEFAULT_SCOPE}): " + "; ".join(f"{k}: {v}" for k, v in SCOPE_HELP.items()),
    )


def add_prior_argument(parser: argparse.ArgumentParser, *, defaults: bool = True, what: str | None = None) -> None:
    """Add ``--prior`` (``defaults=False`` leaves it None so a manifest can fill it)."""
    from scorio_core.choices import DEFAULT_PRIOR, PRIOR_HELP, PRIORS

    parser.add_argument("--prior", choices=PRIORS, default=DEFAULT_PRIOR if defaults else None,
                        help=what or f"per-question prior of Bayes@N and the Pass@k family (default {DEFAULT_PRIOR}): "
                        + "; ".join(f"{k}: {v}" for k, v in PRIOR_HELP.items()))


def add_tie_rule_argument(parser: argparse.ArgumentParser, *, default: str | None = "pairwise") -> None:
    """Add ``--tie-rule`` with every rule described exactly (``default=None``: a manifest may fill it)."""
    from scorio_core.choices import TIE_RULE_HELP, TIE_RULES

    parser.add_argument("--tie-rule", choices=TIE_RULES, default=default,
                        help="rank_ci rule (default pairwise): " + "; ".join(f"{k}: {v}" for k, v in TIE_RULE_HELP.items()))


def add_question_set_argument(parser: argparse.ArgumentParser, *, default: str | None = "own") -> None:
    """Add ``--question-set`` (how models that answered different questions are compared)."""
    from scorio_core.choices import QUESTION_SETS

    parser.add_argument(
        "--question-set", choices=QUESTION_SETS, default=default,
        help="when models answered different questions: own (each on its own questions; default), common (only "
             "questions every model answered) or missing-incorrect (a missing question counts as wrong)",
    )


def add_output_argument(parser: argparse.ArgumentParser, default: str = "table") -> None:
    """Add ``--output {table,json,csv,md}``."""
    parser.add_argument("--output", choices=OUTPUT_CHOICES, default=default,
                        help=f"output format (default {default}): table, json (stable keys, for scripts), csv or md")


def parse_mapping(items: Sequence[str]) -> dict[str, str]:
    """Parse repeated ``CANONICAL=COLUMN`` options into a dict.

    Raises
    ------
    ValueError
        If an item has no ``=`` or an empty side.
    """
    mapping: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ValueError(f"--map must look like CANONICAL=COLUMN (e.g. question_id=problem); got {item!r}.")
        mapping[key.strip()] = value.strip()
    return mapping


def load_dataset(args: argparse.Namespace, require_ready: bool = True):
    """Load the files named on the command line into one :class:`scorio_core.io.Dataset`.

    Applies the data-quality choices given as options; with ``require_ready`` (results commands) a problem that
    still needs a choice (duplicates, soft scores unless a ``--schema`` reads them, missing outcomes) is an error
    naming the option that resolves it. ``--schema score-values`` is built from the data's scores; without ``--schema``,
    data with category codes and no is_correct get the category-code rubric (``args.schema``, note in ``default_notes``).
    """
    from scorio_core import io

    mapping = parse_mapping(args.mapping) or None
    dataset = _counted(args, mapping)
    if dataset is None:
        dataset = io.load(_expand_globs(args.paths), format=args.format, mapping=mapping, **outcome_reading(args))
    dataset = apply_cli_choices(dataset, args)
    from scorio_core.leaderboard.graded import require_ready_graded, resolve_data_schema
    if isinstance(vars(args).get("schema"), str):  # --schema score-values: the rubric of the data's score values
        args.schema = resolve_data_schema(args.schema, dataset)
    if require_ready:  # a --schema reading the score may score graded outcomes (scorio_core.leaderboard.graded)
        dataset = require_ready_graded(dataset, vars(args).get("schema"), takes_schema="schema" in vars(args),
                                       max_tokens=vars(args).get("max_tokens"), notes=vars(args).setdefault("default_notes", []))
    if "schema" in vars(args) and args.schema is None:  # no --schema: category codes without is_correct get theirs
        from scorio_core.rubric import default_schema_for, default_schema_note

        args.schema = default_schema_for(dataset)  # its note (args.default_notes) goes to the command's notes
        args.default_notes = [{"code": "default_schema", "message": default_schema_note(args.schema)}] if args.schema else []
    return dataset


def _counted(args: argparse.Namespace, mapping, *, trial_prefix: bool = False):
    """The engine's count-table dataset when ``--engine`` resolves to DuckDB or Spark, else None.

    Sets ``args.engine_used``. ``auto`` falls back to pandas (None) for inputs the engine does
    not read or data that needs a choice (the pandas loader then reports it); an explicit
    engine raises those errors.
    """
    engine = args.engine_used = choose_engine(args)
    if engine not in ("duckdb", "spark"):
        return None
    from scorio_core.engines import EngineUnsupported, NotReadyError, load_counts

    try:
        return load_counts(args.paths, engine=engine, mapping=mapping, format=args.format,
                           spark_master=getattr(args, "spark_master", None), trial_prefix=trial_prefix)
    except (EngineUnsupported, NotReadyError):
        if getattr(args, "engine", "auto") != "auto":
            raise
        args.engine_used = "pandas"
        return None


def load_for_storage(args: argparse.Namespace, read_files):
    """What ``workspace add`` and ``publish`` store: ``(dataset, files, default name)``.

    With the pandas loader, the files themselves (``read_files(args.paths)``, size-checked by
    the caller) and the dataset read from them, with the data-quality choices applied. When
    ``--engine`` resolves to DuckDB or Spark (large tables, a quoted glob, a URI with
    ``--engine spark``), the engine's count table as ``<stem>.counts.parquet``
    (:func:`scorio_core.engines.uploads.count_table_file`) and the dataset with the trial
    order kept as prefix counts, as the app stores large uploads. ``args.engine_used`` says
    which ran.

    Raises
    ------
    InputError
        As :func:`load_dataset`.
    """
    from scorio_core import io
    from scorio_core.engines.uploads import count_table_file

    mapping = parse_mapping(args.mapping) or None
    dataset = _counted(args, mapping, trial_prefix=True)
    if dataset is not None:
        first = dataset.sources[0].name if dataset.sources else str(args.paths[0])  # a file, not the glob
        return dataset, [count_table_file(dataset, first)], ", ".join(map(str, args.paths))
    files = read_files(args.paths)
    dataset = io.load(files, format=args.format, mapping=mapping, **outcome_reading(args))
    return apply_cli_choices(dataset, args), files, ", ".join(name for name, _ in files)


def choose_engine(args: argparse.Namespace) -> str:
    """Resolve ``--engine`` for these arguments: ``"pandas"``, ``"duckdb"`` or ``"spark"``.

    ``auto`` keeps pandas for subcommands and options that need attempt rows (convergence, rubric, sensitivity,
    ``--schema``; trajectories without ``--schema`` run from DuckDB prefix counts, ``convergence --bootstrap row``
    from counts) or a data-quality choice (``--duplicates/--binarize-threshold/--missing-outcomes``), and otherwise
    asks :func:`scorio_core.engines.auto_engine` (large table files or a glob).

    Raises
    ------
    InputError
        ``--engine duckdb`` or ``spark`` combined with an option that needs attempt rows or a
        choice; ``--spark-master`` without ``--engine spark``.
    """
    engine = getattr(args, "engine", None) or "auto"
    if engine == "pandas":
        return "pandas"
    # leaderboard --schema runs in SQL when the rubric translates (engines.rubric.sql); not score-values (from the rows)
    schema = getattr(args, "schema", None)
    needs_rows = getattr(args, "command", None) in _ATTEMPT_COMMANDS or bool(schema) and (getattr(args, "command", None)
        != "leaderboard" or str(schema).strip().lower().replace("_", "-").startswith("score-values"))
    if needs_rows and getattr(args, "command", None) == "trajectory" and not getattr(args, "schema", None):
        needs_rows = False  # binary trajectories run from prefix-count histograms in SQL (scorio_core.engines.prefix)
    if (needs_rows and getattr(args, "command", None) == "convergence" and getattr(args, "bootstrap", None) == "row"
            and not getattr(args, "schema", None)):
        needs_rows = False  # row-wise resampling within each question needs each question's counts only
    choices = [opt for opt, key in (("--duplicates", "duplicates"), ("--binarize-threshold", "binarize_threshold"),
                                    ("--missing-outcomes", "missing_outcomes"), ("--recode", "recode"), ("--outcome-scale",
                                    "outcome_scale"), ("--errors-as-missing", "errors_as_missing")) if getattr(args, key, None) is not None]
    if getattr(args, "command", None) in ("trajectory", "convergence") and getattr(args, "models", None):
        choices.append("--models")  # the model subset and its common questions are chosen on the loaded outcomes
    from scorio_core.errors import InputError

    if getattr(args, "spark_master", None) and engine != "spark":
        raise InputError("--spark-master needs --engine spark.")
    if engine in ("duckdb", "spark"):
        if needs_rows:
            raise InputError(f"--engine {engine} produces counts only; this command (or --schema) needs attempt rows: "
                             "use --engine pandas.")
        if choices:
            raise InputError(f"--engine {engine} counts only ready data and does not apply {choices[0]}; use --engine pandas.")
        return engine
    from scorio_core.engines import auto_engine, is_remote

    remote = next((p for p in getattr(args, "paths", None) or () if is_remote(p)), None)
    if remote is not None:  # auto never starts a JVM: a URI needs an explicit --engine spark
        from scorio_core.engines._sql import REMOTE_HINT

        raise InputError(REMOTE_HINT, source=remote[:200])
    if needs_rows or choices:
        return "pandas"
    return auto_engine(args.paths, args.format)


def _expand_globs(paths):
    """Expand quoted globs for the pandas loader (the shell did not), archives of a folder into it; others pass."""
    from scorio_core.cli.archives import archive_folder
    from scorio_core.engines import expand_inputs, has_glob, is_remote
    out = []
    for p in paths:
        out.extend([f.path for f in expand_inputs([p])] if has_glob(p) or is_remote(p) else [archive_folder(p)])
    return out


def to_jsonable(value: Any) -> Any:
    """Convert numpy/pandas scalars and containers to JSON-safe Python (NaN -> None)."""
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if hasattr(value, "to_dict") and not isinstance(value, type):
        return to_jsonable(value.to_dict())
    if hasattr(value, "_asdict"):
        return to_jsonable(value._asdict())
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":  # at C speed (300 x 300 ranks: 90,000 values)
        return np.where(np.isfinite(value), value, None).tolist() if value.dtype.kind == "f" else value.tolist()
    if isinstance(value, np.ndarray):
        return [to_jsonable(v) for v in value.tolist()]
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        f = float(value)
        return f if math.isfinite(f) else None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if hasattr(value, "to_dict"):
            return to_jsonable(value.to_dict())
        return to_jsonable(dataclasses.asdict(value))
    if value is None or isinstance(value, (int, str)):
        return value
    try:
        import pandas as pd

        if value is pd.NA or value is pd.NaT:
            return None
    except ImportError:  # pragma: no cover
        pass
    return str(value)


def emit_json(obj: Any, stream=None) -> None:
    """Print ``obj`` as indented JSON with sorted-free, stable key order."""
    stream = stream or sys.stdout
    stream.write(json.dumps(to_jsonable(obj), indent=2, allow_nan=False) + "\n")  # one write, not one per token


#: Count and rank columns of the CLI's tables: printed as integers when a null (an unranked model) made them float.
INTEGER_COLUMNS = frozenset({"rank", "rank_ci", "rank_lo", "rank_hi", "n_questions", "n_trials", "n_trials_max", "n",
                             "n_max", "m", "flaky", "n_models", "answered", "trials", "best", "worst", "n_a", "n_b",
                             "correct_a", "correct_b"})


def emit_rows(rows: Sequence[Mapping[str, Any]], columns: Sequence[str], output: str, stream=None) -> None:
    """Render a list of row dicts as an aligned table, CSV or Markdown."""
    import pandas as pd

    stream = stream or sys.stdout
    frame = pd.DataFrame(list(rows), columns=list(columns))
    for col in INTEGER_COLUMNS.intersection(frame.columns):  # a null (unranked model) made them float: "2", not "2.0000"
        values = pd.to_numeric(frame[col], errors="coerce")
        if frame[col].notna().any() and values.notna().equals(frame[col].notna()) and (values.dropna() % 1 == 0).all():
            frame[col] = values.astype("Int64")
            if output != "csv":  # text: NaN like the other columns; Markdown: an empty cell; never "<NA>"
                frame[col] = frame[col].astype(object).where(frame[col].notna(), "" if output == "md" else float("nan"))
    if output == "csv":
        from scorio_core.report.tables import formula_note, to_csv

        stream.write(to_csv(frame))
        if note := formula_note(frame):  # a name written '=cmd() (formula guard): a script joining on it must know
            print(f"# note: {note}", file=sys.stderr)
    elif output == "md":
        from scorio_core.report.tables import to_markdown

        stream.write(to_markdown(frame) + "\n")
    else:
        from scorio_core.report.tables import without_negative_zero

        for col in frame.columns[frame.dtypes == object]:  # a null text cell (no threshold, no reason): blank, not "None"
            frame[col] = frame[col].where(frame[col].notna(), "")
        with pd.option_context("display.max_rows", None, "display.max_columns", None, "display.width", 200):
            stream.write(without_negative_zero(frame).to_string(index=False, float_format=lambda x: f"{x:.4f}") + "\n")


def emit_method_rows(args: argparse.Namespace, rows: list[dict], columns: Sequence[str], settings: dict,
                     notes: list[dict], dataset) -> None:
    """Output of ``leaderboard --method NAME``: JSON ``{"rows", "settings", "notes", "sources"}``, or the rows as
    a table/CSV/Markdown (``--output``) with each note's message after a table."""
    if args.output == "json":
        emit_json({"rows": rows, "settings": settings, "notes": notes, "sources": list(dataset.sources)})
        return
    emit_rows(rows, list(columns), args.output)
    if args.output == "table":
        for note in notes:
            print(f"note: {note['message']}")
