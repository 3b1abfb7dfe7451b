"""``python -m scorio_core schemas``: list the built-in rubric schemas.

For each schema: name, source (default, paper Table 5, reference package), category
labels, weights, the signals it reads and its thresholds.
"""

from __future__ import annotations

import argparse

from scorio_core.cli._common import emit_json, emit_rows

__all__ = ["register", "run", "schema_rows"]


def register(subparsers) -> None:
    """Add the ``schemas`` subcommand."""
    parser = subparsers.add_parser(
        "schemas",
        help="list built-in rubric schemas",
        description="List the built-in rubric schemas: categories, weights, signals needed.",
    )
    parser.add_argument("--output", choices=("table", "json"), default="table")
    parser.set_defaults(func=run)


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


def run(args: argparse.Namespace) -> int:
    """Print the built-in schemas as a table or JSON."""
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
