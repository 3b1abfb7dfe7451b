"""Binding a rubric schema to an engine's columns, shared by the DuckDB and Spark rubric counts.

:func:`bind_signals` type-checks the schema against the columns' kinds exactly as the pandas
engine would see them (a zero-row prototype table) and refuses what SQL cannot compute (derived
signals, columns of unpredictable type); :func:`coverage_of` turns each engine's per-task
aggregate rows into the coverage the notes are built from
(:mod:`scorio_core.io.engines.rubric_outcomes`).
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io.engines._sql import EngineUnsupported

__all__ = ["bind_signals", "coverage_of"]


def _prototype(kinds: Mapping[str, str]) -> pd.DataFrame:
    """Zero-row attempt table with the pandas columns and kinds (for type checks and static issues)."""
    cols = {"model": pd.Series([], dtype="str"), "task": pd.Series([], dtype="str"),
            "question_id": pd.Series([], dtype="str"), "trial": pd.Series([], dtype="int64"),
            "is_correct": pd.Series([], dtype="float64")}
    for name, k in kinds.items():
        cols[name] = pd.Series([], dtype="float64" if k == "number" else "str")
    return pd.DataFrame(cols)


def bind_signals(schema, kinds: Mapping[str, str], engine: str):
    """Type-check a schema against the columns' kinds, as the pandas engine would see them.

    Parameters
    ----------
    schema : scorio_core.rubric.Schema
    kinds : dict of str to str
        Every pandas column's kind: ``"number"``, ``"text"`` or ``"other"`` (a type the engine cannot match).
    engine : str
        ``"DuckDB"`` or ``"Spark"`` (named in the refusals).

    Returns
    -------
    bound : scorio_core.rubric.engine.BoundRubric
        Bound to a zero-row prototype table (static coverage issues, signal kinds).
    derive_notes : list of str
    needed : list of str
        Signals the schema reads (``is_correct`` aside) that the table knows.
    present : list of str
        Those of ``needed`` that are columns of the data.

    Raises
    ------
    EngineUnsupported
        Derived signals in the data, type errors or unknown names, a needed signal of kind ``"other"``.
    """
    from scorio_core.rubric.engine import BoundRubric
    from scorio_core.rubric.signals import derive_signals

    proto = _prototype({k: ("number" if v == "number" else "text") for k, v in kinds.items()})
    derived, derive_notes = derive_signals(proto)
    added = [c for c in derived.columns if c not in proto.columns]
    if added:
        raise EngineUnsupported(f"the data yields derived signals ({', '.join(added)}), which the {engine} engine does not "
                                "compute; use --engine pandas.")
    try:
        bound = BoundRubric(proto, schema)
    except InputError as exc:
        raise EngineUnsupported(f"{exc} (the pandas engine reports it with positions)") from None
    needed = [s for s in schema.signals if s != "is_correct" and bound.table.kind(s) is not None]
    for s in needed:
        if kinds.get(s) == "other":
            raise EngineUnsupported(f"signal {s!r} has a type the {engine} engine cannot match (or it differs between "
                                    "files); use --engine pandas.")
    return bound, derive_notes, needed, [s for s in needed if s in kinds]


def coverage_of(rows, present, kinds: Mapping[str, str], C: int) -> dict:
    """Per-task coverage from rows ``(task, n, unmatched, per signal: missing, missing and unmatched[, present for
    text], per category: condition count, codes of the takers)``, as both engines aggregate them."""
    coverage = {}
    for row in rows:
        it = iter(row[3:])
        sig = {}
        for s in present:
            miss, miss_un = next(it), next(it)
            present_n = next(it) if kinds[s] != "number" else None
            sig[s] = (int(miss), int(miss_un), present_n)
        cats = [(int(next(it)), sorted(next(it) or [])) for _ in range(C)]
        coverage[str(row[0])] = {"n": int(row[1]), "unmatched": int(row[2]), "signals": sig, "categories": cats}
    return coverage
