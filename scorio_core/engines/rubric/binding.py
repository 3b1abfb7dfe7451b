"""Binding a rubric schema to an engine's columns, shared by the DuckDB and Spark rubric counts.

:func:`bind_signals` type-checks the schema against the columns' kinds exactly as the pandas
engine would see them (a zero-row prototype table) and refuses what SQL cannot compute (a schema
reading derived signals, columns of unpredictable type); :func:`coverage_of` turns each engine's per-task
aggregate rows into the coverage the notes are built from
(:mod:`scorio_core.engines.rubric.outcomes`).
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from scorio_core.errors import InputError
from scorio_core.engines._sql import EngineUnsupported

__all__ = ["SQL_DERIVED", "bind_signals", "coverage_of", "derivation_inputs", "second_source", "sql_derivations",
           "static_issues_without"]


def _prototype(kinds: Mapping[str, str], one_row: bool = False) -> pd.DataFrame:
    """Attempt table with the pandas columns and kinds: zero rows (type checks, static issues), or one attempt with
    every number 1.0 and every text ``"stop"`` (what the pandas engine derives from values)."""
    def col(value, dtype):
        return pd.Series([value] if one_row else [], dtype=dtype)

    cols = {"model": col("m", "str"), "task": col("t", "str"), "question_id": col("q", "str"),
            "trial": col(0, "int64"), "is_correct": col(1.0, "float64")}
    for name, k in kinds.items():
        cols[name] = col(1.0, "float64") if k == "number" else col("stop", "str")
    return pd.DataFrame(cols)


# derived signals with a fixed source column; :func:`sql_derivations` also derives the log-prob family and sums
SQL_DERIVED = {"repeated_pattern": "finish_reason", "token_ratio": "completion_tokens"}
_FAMILY = ("bpt", "logprob_mean", "ppl")


def sql_derivations(kinds: Mapping[str, str], max_tokens: float | None = None) -> dict[str, str]:
    """Derived signals an SQL engine computes exactly as the pandas engine does, from these columns: name -> source.

    ``repeated_pattern`` from a text ``finish_reason`` (stop values classified in Python by
    :func:`~scorio_core.rubric.signals.is_stop_reason`); ``{side}_bpt = -{side}_logprob_mean / ln 2`` (one correctly
    rounded division, bit-identical; with a perplexity column, ``log2`` of it fills the rows the mean leaves missing);
    ``token_ratio = completion_tokens / max_tokens`` (one division) with a numeric ``max_tokens`` column and/or the
    ``max_tokens`` argument; every member of the log-prob family (``{side}_bpt``, ``_logprob_mean``,
    ``_ppl``) the pandas engine derives from numeric source columns (from one; or from two, the second filling the rows
    the first leaves missing, as pandas does: :func:`second_source`; exp, exp2, log and log2 run numpy's own functions
    in vectorized UDFs: bit-identical), and ``{side}_logprob_sum = {side}_logprob_mean * {side}_tokens`` (one
    multiplication) from two numeric columns. Where pandas would derive a signal from a column under a
    reference-package alias or from another derived signal (a sum from a mean derived from bpt), the engines do not
    compute it (the schema is refused).
    """
    from scorio_core.rubric.signals import _LOGPROB_FORMULAS, ALIASES

    out = {}
    for name, source in SQL_DERIVED.items():
        if name in kinds:
            continue
        if name == "repeated_pattern":
            if kinds.get(source) == "text":
                out[name] = source
        else:  # token_ratio
            limit = kinds.get("max_tokens") == "number" or ("max_tokens" not in kinds and max_tokens is not None)
            if kinds.get(source) == "number" and limit:
                out[name] = source
    via_alias = {ALIASES[a] for a in kinds if a in ALIASES}
    for side in ("prompt", "completion"):
        names = {t: f"{side}_{t}" for t in _FAMILY}
        have = {t for t, n in names.items() if n in kinds or n in via_alias}  # pandas' originals of the family
        for target, formulas in _LOGPROB_FORMULAS.items():
            sources = [s for s in formulas if s in have]  # pandas' order: the second fills what the first leaves
            if target not in have and sources and all(kinds.get(names[s]) == "number" for s in sources):
                out[names[target]] = names[sources[0]]
        total, mean, tokens = f"{side}_logprob_sum", names["logprob_mean"], f"{side}_tokens"
        if total not in kinds and total not in via_alias and kinds.get(mean) == "number" and kinds.get(tokens) == "number":
            out[total] = mean
    return out


def derivation_inputs(signals) -> set[str]:
    """Every column a computed signal among ``signals`` may be derived from (what an engine must read to decide)."""
    from scorio_core.rubric.signals import _LOGPROB_FORMULAS

    out = {SQL_DERIVED[s] for s in signals if s in SQL_DERIVED} | ({"max_tokens"} if "token_ratio" in signals else set())
    for s in signals:
        side, _, rest = s.partition("_")
        if side in ("prompt", "completion") and rest in _LOGPROB_FORMULAS:
            out |= {f"{side}_{src}" for src in _LOGPROB_FORMULAS[rest]}
        elif side in ("prompt", "completion") and rest == "logprob_sum":
            out |= {f"{side}_logprob_mean", f"{side}_tokens"}
    return out


def second_source(name: str, kinds: Mapping[str, str]) -> str | None:
    """The other column a computed signal reads: ``max_tokens`` of ``token_ratio`` (when a column),
    ``{side}_tokens`` of ``{side}_logprob_sum``, the second source of a log-prob family member when the data has both
    (e.g. ``completion_bpt`` filling the rows of ``completion_ppl`` where ``completion_logprob_mean`` is missing);
    None for the one-source signals."""
    from scorio_core.rubric.signals import _LOGPROB_FORMULAS

    side, _, target = name.partition("_")
    if side in ("prompt", "completion") and target in _LOGPROB_FORMULAS:
        sources = [f"{side}_{s}" for s in _LOGPROB_FORMULAS[target] if f"{side}_{s}" in kinds]
        return sources[1] if len(sources) == 2 else None
    if name == "token_ratio":
        return "max_tokens" if "max_tokens" in kinds else None
    if name.endswith("_logprob_sum"):
        return f"{name.split('_', 1)[0]}_tokens"
    return None


def _derived_notes(proto: pd.DataFrame, kinds: Mapping[str, str], engine: str, computed,
                   max_tokens: float | None = None) -> tuple[list[str], list[str]]:
    """Signals the pandas engine would derive from these columns (aliases, ``repeated_pattern``, ``token_ratio``,
    the log-prob family) and truthful notes about them: the derivation notes that depend on no value (those of the
    zero-row ``proto``), the zero-row note of each signal in ``computed`` as a placeholder (every derivation note
    starts with its signal; the engine puts each task's own note there), and one note naming what this engine does not
    compute (the zero-row prototype's notes about those would claim "0 rows" or "all missing")."""
    from scorio_core.rubric.signals import derive_signals

    _, notes = derive_signals(proto, max_tokens=max_tokens)
    one = _prototype(kinds, one_row=True)
    with_values, _ = derive_signals(one, max_tokens=max_tokens)
    added = [c for c in with_values.columns if c not in one.columns]
    skipped = [c for c in added if c not in computed]
    kept = [n for n in notes if n.split(" ", 1)[0] not in skipped]
    if skipped:
        kept.append(f"{', '.join(skipped)}: derived from the data's values by the pandas engine; the {engine} engine "
                    "does not compute them (this schema does not read them).")
    return added, kept


def bind_signals(schema, kinds: Mapping[str, str], engine: str, derive: bool = False, max_tokens: float | None = None):
    """Type-check a schema against the columns' kinds, as the pandas engine would see them.

    Parameters
    ----------
    schema : scorio_core.rubric.Schema
    kinds : dict of str to str
        Every pandas column's kind: ``"number"``, ``"text"`` or ``"other"`` (a type the engine cannot match).
    engine : str
        ``"DuckDB"`` or ``"Spark"`` (named in the refusals).
    derive : bool
        Whether the engine computes the signals of :func:`sql_derivations` the schema reads.
    max_tokens : float, optional
        The ``max_tokens`` argument of ``token_ratio`` (``--max-tokens``).

    Returns
    -------
    bound : scorio_core.rubric.engine.BoundRubric
        Bound to a zero-row prototype table (static coverage issues, signal kinds).
    derive_notes : list of str
        What the pandas engine derives or cannot derive from these columns (never a claim about values; the
        notes of ``computed`` signals are zero-row placeholders the engine replaces per task).
    needed : list of str
        Signals the schema reads (``is_correct`` aside) that the table knows.
    present : list of str
        Those of ``needed`` that are columns of the data or computed from them.
    computed : dict of str to str
        Derived signals the schema reads and the engine computes -> their source column.

    Raises
    ------
    EngineUnsupported
        The schema reads a signal the pandas engine would derive from these columns and this engine does not,
        type errors or unknown names, a needed signal of kind ``"other"``.
    """
    from scorio_core.rubric.coverage import relevant_notes
    from scorio_core.rubric.engine import BoundRubric

    simple = {k: ("number" if v == "number" else "text") for k, v in kinds.items()}
    proto = _prototype(simple)
    derivable = sql_derivations(kinds, max_tokens) if derive else {}
    computed = {s: derivable[s] for s in dict.fromkeys(schema.signals) if s in derivable}
    added, derive_notes = _derived_notes(proto, simple, engine, computed, max_tokens)
    derive_notes = list(relevant_notes(derive_notes, schema.signals))  # no "X not derived" for a signal not read
    computed = {s: c for s, c in computed.items() if s in added}  # what the pandas engine derives at all
    read = [s for s in schema.signals if s in added and s not in computed]
    if read:
        raise EngineUnsupported(f"the schema reads derived signals ({', '.join(read)}), which the {engine} engine does not "
                                "compute; use --engine pandas.")
    try:  # computed signals are columns (static issues must not call them absent)
        bound = BoundRubric(_with(proto, computed), schema)
    except InputError as exc:
        raise EngineUnsupported(f"{exc} (the pandas engine reports it with positions)") from None
    needed = [s for s in schema.signals if s != "is_correct" and bound.table.kind(s) is not None]
    for s in needed:
        if kinds.get(s) == "other":
            raise EngineUnsupported(f"signal {s!r} has a type the {engine} engine cannot match (or it differs between "
                                    "files); use --engine pandas.")
    return bound, derive_notes, needed, [s for s in needed if s in kinds or s in computed], computed


def _with(proto: pd.DataFrame, computed) -> pd.DataFrame:
    return proto.assign(**{s: pd.Series([], dtype="float64") for s in computed})


def static_issues_without(schema, kinds: Mapping[str, str], computed, absent) -> tuple:
    """The static coverage issues of a task where the computed signals ``absent`` have no value: the pandas engine
    derives no column from a source without values (``*_bpt`` of a task without a finite mean log-prob), so it calls
    them not in the data."""
    from scorio_core.rubric.engine import BoundRubric

    simple = {k: ("number" if v == "number" else "text") for k, v in kinds.items() if k not in absent}
    return tuple(BoundRubric(_with(_prototype(simple), [s for s in computed if s not in absent]), schema).static)


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
