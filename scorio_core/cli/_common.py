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

__all__ = [
    "add_data_arguments",
    "add_output_argument",
    "load_dataset",
    "parse_mapping",
    "to_jsonable",
    "emit_json",
    "emit_rows",
]

OUTPUT_CHOICES = ("table", "json", "csv", "md")


def add_data_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``PATH...``, ``--format``, ``--map`` and ``--task`` to a subcommand parser."""
    parser.add_argument("paths", nargs="+", metavar="PATH", help="eval dump file(s) or folders")
    parser.add_argument(
        "--format",
        dest="format",
        default=None,
        help="input format (default: auto-detect); see `python -m scorio_core formats`",
    )
    parser.add_argument(
        "--map",
        dest="mapping",
        action="append",
        default=[],
        metavar="CANONICAL=COLUMN",
        help="column mapping override, e.g. --map question_id=problem (repeatable)",
    )
    parser.add_argument("--task", default=None, help="restrict to one task")


def add_output_argument(parser: argparse.ArgumentParser, default: str = "table") -> None:
    """Add ``--output {table,json,csv,md}``."""
    parser.add_argument("--output", choices=OUTPUT_CHOICES, default=default)


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


def load_dataset(args: argparse.Namespace):
    """Load the files named on the command line into one :class:`scorio_core.io.Dataset`."""
    from scorio_core import io

    return io.load(args.paths, format=args.format, mapping=parse_mapping(args.mapping) or None)


def to_jsonable(value: Any) -> Any:
    """Convert numpy/pandas scalars and containers to JSON-safe Python (NaN -> None)."""
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return [to_jsonable(v) for v in value.tolist()]
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        f = float(value)
        return f if math.isfinite(f) else None
    if hasattr(value, "_asdict"):
        return to_jsonable(value._asdict())
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
    json.dump(to_jsonable(obj), stream, indent=2, allow_nan=False)
    stream.write("\n")


def emit_rows(rows: Sequence[Mapping[str, Any]], columns: Sequence[str], output: str, stream=None) -> None:
    """Render a list of row dicts as an aligned table, CSV or Markdown."""
    import pandas as pd

    stream = stream or sys.stdout
    frame = pd.DataFrame(list(rows), columns=list(columns))
    if output == "csv":
        from scorio_core.report.tables import to_csv

        stream.write(to_csv(frame))
    elif output == "md":
        from scorio_core.report.tables import to_markdown

        stream.write(to_markdown(frame))
        stream.write("\n")
    else:
        with pd.option_context("display.max_rows", None, "display.max_columns", None, "display.width", 200):
            stream.write(frame.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
            stream.write("\n")
