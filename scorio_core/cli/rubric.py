"""``python -m scorio_core rubric`` and ``schemas``: categorize eval dumps under a rubric schema; list the built-in ones.

``schemas`` prints, for each built-in schema: name, source (default, paper Table 5, reference
package), category labels, weights, the signals it reads and its thresholds.

Prints the thresholds used (computed over all attempts loaded, pooled across models, or
frozen from a file), the category labels and weights, the category counts per model and
the attempts no category matched, with examples::

    python -m scorio_core rubric results/*.jsonl --schema "Format Aware" \
        --max-tokens 32768 --output json > run1.json
    python -m scorio_core rubric results/*.jsonl new_model.jsonl --schema "Format Aware" \
        --max-tokens 32768 --freeze-thresholds run1.json --output json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from scorio_core.cli._common import add_data_arguments, apply_cli_choices, emit_json, emit_rows, load_dataset
from scorio_core.errors import InputError

__all__ = ["COMMANDS", "add_prior_outcomes_arguments", "check_prior_outcomes_args", "load_prior_outcomes", "prior_outcome_counts",
           "prior_outcomes_board", "prior_outcomes_manifest", "prior_outcomes_settings", "read_frozen", "refuse_prior_outcomes",
           "register", "rubric_report", "run", "run_schemas", "schema_rows"]

#: The subcommands :func:`register` adds (its registration imports nothing beyond argparse).
COMMANDS = ("schemas", "rubric")

MAX_FREEZE_BYTES = 1_000_000


def register(subparsers) -> None:
    """Add the ``schemas`` and ``rubric`` subcommands."""
    parser = subparsers.add_parser(
        "schemas",
        help="list built-in rubric schemas",
        description="List the built-in rubric schemas: categories, weights, signals needed.",
    )
    parser.add_argument("--output", choices=("table", "json"), default="table")
    parser.set_defaults(func=run_schemas)

    parser = subparsers.add_parser(
        "rubric",
        help="categorize attempts under a rubric schema",
        description=(
            "Map every attempt to a category of a rubric schema (built-in name or JSON file) "
            "and print thresholds, per-model category counts and unmatched attempts."
        ),
    )
    add_data_arguments(parser)
    parser.add_argument("--schema", required=True, metavar="NAME_OR_JSON",
                        help="built-in schema name (see `schemas`) or a rubric JSON file")
    parser.add_argument("--freeze-thresholds", metavar="FILE", default=None,
                        help="JSON with threshold values to reuse: a previous `rubric --output json` "
                             "result or {name: value}")
    parser.add_argument("--max-tokens", type=int, default=None, metavar="N",
                        help="generation limit for token_ratio when the data has no max_tokens "
                             "column (the paper used 32768)")
    parser.add_argument("--output", choices=("table", "json"), default="table")
    parser.set_defaults(func=run)


def read_frozen(path: str) -> dict:
    """Threshold values from a JSON file: ``{"thresholds": {...}}`` or ``{name: value}``.

    ``null`` (how ``--output json`` writes an undefined threshold) is read as NaN.
    """
    file = Path(path)
    try:
        if file.stat().st_size > MAX_FREEZE_BYTES:
            raise InputError(f"threshold file is larger than {MAX_FREEZE_BYTES:,} bytes.", source=file.name)
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read threshold file: {exc.strerror or exc}.", source=file.name) from None
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise InputError(f"threshold file is not valid JSON ({exc}).", source=file.name) from None
    if isinstance(data, dict) and isinstance(data.get("thresholds"), dict):
        data = data["thresholds"]
    if not isinstance(data, dict):
        raise InputError("threshold file must hold a JSON object {name: value} or {\"thresholds\": {...}}.",
                         source=file.name)
    bad = [k for k, v in data.items() if isinstance(v, bool) or not isinstance(v, (int, float, type(None)))]
    if bad:
        raise InputError(f"threshold {bad[0]!r} must be a number; got {data[bad[0]]!r}.", source=file.name)
    return {k: float("nan") if v is None else v for k, v in data.items()}  # null: undefined (NaN)


def rubric_report(attempts, schema, frozen=None, max_tokens=None) -> dict:
    """The JSON-ready result the ``rubric`` subcommand prints."""
    from scorio_core.rubric import categorize, category_counts

    cat = categorize(attempts, schema, frozen, max_tokens=max_tokens)
    counts = category_counts(attempts, cat, by="model")
    unmatched = cat.coverage.unmatched()
    return {
        "schema": cat.schema.name,
        "categories": list(cat.labels),
        "weights": cat.weights.tolist(),
        "thresholds": cat.thresholds,
        "threshold_details": [d._asdict() for d in cat.threshold_details],
        "counts": {str(g): row.tolist() for g, row in zip(counts.groups, counts.counts)},
        "unmatched": {
            "count": cat.coverage.n_unmatched,
            "by_model": {str(g): int(k) for g, k in zip(counts.groups, counts.unmatched)},
            "examples": [e._asdict() for e in unmatched.examples] if unmatched else [],
        },
        "issues": [i.to_dict() for i in cat.coverage.issues],
        "notes": [{"code": "coverage", "message": n} for n in cat.coverage.notes],
    }


def _blocking_notes(dataset, schema, max_tokens) -> list[dict]:
    """What still needs a choice; graded scores this rubric scores (partial credit) are said as such instead."""
    blocking, notes = list(dataset.report.blocking), []
    if getattr(dataset.report, "n_non_binary", 0) and "score" in schema.signals:
        from scorio_core.leaderboard.graded import lift_graded_block
        from scorio_core.leaderboard.task_outcomes import categorization_for

        try:
            lifted, note = lift_graded_block(dataset, schema, categorization_for(dataset, schema, max_tokens=max_tokens)[0].codes)
            blocking, notes = list(lifted.report.blocking), [{"code": "graded_by_rubric", "message": note}]
        except InputError:
            pass  # some graded attempt in no category: the blocking note stays, the counts show the unmatched
    return [{"code": "blocking", "message": n} for n in blocking] + notes


def run(args: argparse.Namespace) -> int:
    """Load the data, categorize, print JSON or tables."""
    from scorio_core.leaderboard.graded import is_score_values, resolve_data_schema
    from scorio_core.rubric import resolve_schema

    schema = None if is_score_values(args.schema) else resolve_schema(args.schema)  # a bad schema fails fast
    frozen = read_frozen(args.freeze_thresholds) if args.freeze_thresholds else None
    # Outcome problems (missing or soft is_correct) are handled by the rubric's three-valued
    # logic (unknown -> unmatched, reported); duplicates would double count, so they still block.
    dataset = load_dataset(args, require_ready=False)
    if dataset.report.n_duplicate_keys:
        dataset.require_ready()
    schema = resolve_data_schema(args.schema, dataset) if schema is None else schema
    attempts = getattr(dataset, "attempts", None)
    if attempts is None:
        raise InputError("the rubric needs per-attempt data; the input is a count table "
                         "(one row per question), which carries correctness counts only.")
    if args.task is not None:
        tasks = sorted(map(str, attempts["task"].unique())) if "task" in attempts.columns else []
        attempts = attempts[attempts["task"] == args.task].reset_index(drop=True)
        if attempts.empty:
            raise InputError(f"no attempts for task {args.task!r}; tasks in the data: {', '.join(tasks)}.")
    report = rubric_report(attempts, schema, frozen, args.max_tokens)
    report["notes"] = _blocking_notes(dataset, schema, args.max_tokens) + report["notes"]
    if args.output == "json":
        emit_json(report)
        return 0
    _print_tables(report)
    return 0


def _print_tables(report: dict) -> None:
    print(f"schema: {report['schema']}")
    if report["thresholds"]:
        rows = [{"threshold": d["name"], "value": d["value"], "kind": d["kind"],
                 "percentile": d["percentile"], "of": d["of"] or "", "where": d["where"] or ""}
                for d in report["threshold_details"]]
        emit_rows(rows, ["threshold", "value", "kind", "percentile", "of", "where"], "table")
    rows = []
    for i, (label, weight) in enumerate(zip(report["categories"], report["weights"])):
        row = {"#": i, "category": label, "weight": weight}
        row.update({model: counts[i] for model, counts in report["counts"].items()})
        rows.append(row)
    unmatched = {"#": -1, "category": "(unmatched)", "weight": float("nan")}
    unmatched.update(report["unmatched"]["by_model"])
    rows.append(unmatched)
    emit_rows(rows, ["#", "category", "weight", *report["counts"]], "table")
    for issue in report["issues"]:
        print(f"{issue['severity']}: {issue['message']}")
    for note in report["notes"]:
        print(f"note: {note['message']}")


def schema_rows() -> list[dict]:
    """One dict per built-in schema (JSON-ready)."""
    from scorio_core.rubric import BUILTIN_SCHEMAS

    rows = []
    for name, schema in BUILTIN_SCHEMAS.items():
        rows.append({
            "name": name,
            "source": schema.source,
            "description": schema.description,
            "categories": list(schema.labels),
            "weights": schema.weights.tolist(),
            "signals": list(schema.signals),
            "thresholds": [t.name for t in schema.thresholds],
        })
    return rows


def run_schemas(args: argparse.Namespace) -> int:
    """Print the built-in schemas as a table or JSON (``schemas``)."""
    rows = schema_rows()
    if args.output == "json":
        emit_json({"schemas": rows})
        return 0
    flat = [{
        "name": r["name"],
        "categories": len(r["categories"]),
        "weights": " ".join(f"{w:g}" for w in r["weights"]),
        "signals": ", ".join(r["signals"]),
    } for r in rows]
    emit_rows(flat, ["name", "categories", "weights", "signals"], "table")
    return 0


def add_prior_outcomes_arguments(parser: argparse.ArgumentParser) -> None:
    """``--prior-outcomes FILE`` and ``--prior-model NAME``: the paper's prior outcomes R0 (Algorithm 1).

    Added to ``leaderboard``, ``tasks``, ``compare``, ``export`` (same semantics), ``trajectory`` and ``convergence``
    (with the uniform prior only); ``publish`` takes them to refuse
    them (:func:`refuse_prior_outcomes`): its shared analysis cannot carry R0 yet.
    """
    parser.add_argument("--prior-outcomes", default=None, metavar="FILE",
                        help="prior outcomes R0 (paper Algorithm 1, Appendix C): earlier trials of the same questions "
                             "(any format the loader reads), mapped through the same rubric and thresholds and added "
                             "to every model's Bayes@N prior; questions matched by id")
    parser.add_argument("--prior-model", default=None, metavar="NAME",
                        help="with --prior-outcomes: take only this model's trials (default: every model's)")


def refuse_prior_outcomes(args: argparse.Namespace, reason: str) -> None:
    """Refuse ``--prior-outcomes``/``--prior-model`` where this command cannot apply R0 (InputError saying ``reason``).

    Parameters
    ----------
    args : argparse.Namespace
        The command's options.
    reason : str
        Why, and what to do instead (the end of the message after the option's name).
    """
    flag = "--prior-outcomes" if getattr(args, "prior_outcomes", None) else "--prior-model"
    if getattr(args, "prior_outcomes", None) or getattr(args, "prior_model", None):
        raise InputError(f"{flag}: {reason}", field="prior_outcomes")


def prior_outcomes_settings(args: argparse.Namespace) -> dict:
    """The settings keys ``prior_outcomes`` (the file's name, or None) and ``prior_model`` every command reports."""
    path = getattr(args, "prior_outcomes", None)
    return {"prior_outcomes": Path(path).name if path else None, "prior_model": getattr(args, "prior_model", None)}


def prior_outcomes_manifest(args: argparse.Namespace, prior) -> dict | None:
    """The manifest's ``prior`` (R0) entry for ``--prior-outcomes``: the file, its SHA-256 and ``--prior-model``.

    ``kind`` is ``dataset`` (another dataset; the app restores it by name), ``key`` ``files:<names>`` as the CLI names
    data, ``sources`` the SHA-256 of its files (``export --manifest`` checks them), ``model`` the ``--prior-model``.
    """
    if prior is None:
        return None
    names = [s.name for s in prior.sources]
    return {"kind": "dataset", "key": "files:" + ",".join(names), "label": ", ".join(names),
            "sources": [s.sha256 for s in prior.sources], "model": getattr(args, "prior_model", None)}


def load_prior_outcomes(args: argparse.Namespace, sql=None, schema=None):
    """The ``--prior-outcomes`` dataset, or None; refuses what R0 does not enter (InputError naming the option).

    ``schema`` is the rubric in force when it is not ``args.schema`` (e.g. restored from a manifest): under a rubric,
    missing or graded outcomes are the rubric's to read, under binary correctness they need a choice.
    """
    if not getattr(args, "prior_outcomes", None):
        if getattr(args, "prior_model", None):
            raise InputError("--prior-model picks a model of --prior-outcomes FILE; give the file too.", field="prior_model")
        return None
    check_prior_outcomes_args(args)
    if sql is not None:
        raise InputError("--prior-outcomes with --schema needs the attempt-level loader: add --engine pandas.",
                         field="prior_outcomes")
    from scorio_core import io

    prior = io.load(args.prior_outcomes)
    # the data-quality choices apply to the prior's trials too (not --intersect-questions: R0 is per question)
    prior = apply_cli_choices(prior, argparse.Namespace(**{**vars(args), "intersect_questions": False}))
    r = prior.report  # duplicates always block; missing or graded outcomes under binary correctness (a rubric reads them)
    binary = (getattr(args, "schema", None) if schema is None else schema) is None
    found = [word for word, n in (("duplicate", r.n_duplicate_rows), ("no outcome", binary and r.n_missing_outcomes),
                                  ("", binary and r.n_non_binary)) if n]
    if found:
        message = next((m for m in r.blocking if found[0] in m), r.blocking[0] if r.blocking else "")
        raise InputError(f"the prior outcomes need a choice first: {message} (the data-quality options apply to the "
                         "prior outcomes too).", source=Path(args.prior_outcomes).name, field="prior_outcomes")
    return prior


def check_prior_outcomes_args(args: argparse.Namespace) -> None:
    """Refuse ``--prior-outcomes`` where R0 would not enter the result (InputError naming the option)."""
    if not getattr(args, "prior_outcomes", None):
        return
    method = getattr(args, "method", "bayes")
    if method != "bayes":
        raise InputError(f"prior outcomes R0 enter the Bayes@N leaderboard only; --method {method} does not use them "
                         "(leave out --prior-outcomes, or rank with --method bayes).", field="prior_outcomes")
    metric = getattr(args, "metric", None) or "bayes"  # tasks and compare: Bayes@N; export: None until a manifest
    if metric != "bayes":
        raise InputError(f"prior outcomes R0 enter Bayes@N only (--metric bayes); --metric {metric} ignores "
                         "them.", field="prior_outcomes")


def prior_outcome_counts(args: argparse.Namespace, prior, outcomes, task: str, categorization, notes: list, schema=None):
    """R0 of one task as ``prior_counts`` (L, M, C+1) for :func:`scorio_core.leaderboard.table.leaderboard`, or
    None without ``--prior-outcomes``; appends the ``prior_outcomes`` note (matched questions). ``schema``: the
    rubric when it is not ``args.schema`` (e.g. restored from a manifest)."""
    if prior is None:
        return None
    from scorio_core.rubric.prior_outcomes import prior_outcomes_for, prior_outcomes_note

    label = Path(args.prior_outcomes).name + (f", model {args.prior_model}" if args.prior_model else "")
    counts0, matched, counts = prior_outcomes_for(prior, outcomes, categorization=categorization,
                                                  schema=args.schema if schema is None else schema,
                                                  model=args.prior_model, max_tokens=getattr(args, "max_tokens", None),
                                                  source=Path(args.prior_outcomes).name)
    notes.append(prior_outcomes_note(task, matched, len(outcomes.rubric.questions), counts, label))
    return counts0


def prior_outcomes_board(args: argparse.Namespace, prior_data, outcomes, task: str, categorization, notes: list,
                         schema=None, **settings):
    """One task's leaderboard with the prior outcomes R0 (none without ``--prior-outcomes``), and its R0 counts.

    What ``leaderboard``, ``compare`` and ``export`` share: :func:`prior_outcome_counts`, then
    :func:`scorio_core.leaderboard.table.leaderboard` with ``prior_counts``, then the ``prior_outcomes`` note names
    the rows R0 did not enter (:func:`scorio_core.rubric.prior_outcomes.prior_outcomes_unused`).

    Parameters
    ----------
    args : argparse.Namespace
        The command's options (``prior_outcomes``, ``prior_model``, ``schema``, ``max_tokens``).
    prior_data : Dataset or None
        :func:`load_prior_outcomes`'s dataset.
    outcomes : TaskOutcomes
        The task's outcomes.
    task : str
        The task's name (in the note).
    categorization : Categorization or None
        The task's rubric categorization (None: binary correctness).
    notes : list
        The ``prior_outcomes`` note is appended here (nothing without R0).
    schema : Schema, optional
        The rubric when it is not ``args.schema``.
    **settings
        Keyword arguments of :func:`~scorio_core.leaderboard.table.leaderboard`.

    Returns
    -------
    frame : DataFrame
        The leaderboard.
    counts0 : ndarray or None
        R0 as ``prior_counts`` (L, M, C+1), None without ``--prior-outcomes``.
    """
    from scorio_core.leaderboard.table import leaderboard

    counts0 = prior_outcome_counts(args, prior_data, outcomes, task, categorization, notes, schema=schema)
    frame = leaderboard(outcomes, prior_counts=counts0, **settings)
    if counts0 is not None:  # R0's note: the rows it did not enter (empirical-Bayes prior not identified)
        from scorio_core.rubric.prior_outcomes import prior_outcomes_unused

        notes[-1] = prior_outcomes_unused(notes[-1], frame)
    return frame, counts0
