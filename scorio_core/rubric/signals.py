"""Base signals of each attempt: derivation from raw dump fields and the signal catalogue.

Paper Appendix F.1 ("Base signals") defines, per attempt: ``has_box``, ``is_correct``,
``token_ratio`` (completion tokens / max tokens; the paper capped generation at 32,768),
``repeated_pattern`` (0 if ``finish_reason`` is stop, else 1), ``prompt_bpt`` and
``completion_bpt`` (negative mean log-prob in bits per token) and the verifier
probabilities ``compass_context_A/B/C`` (correct / wrong / off-task). Every other numeric
column of the attempt table (cost, latency, a judge score, a soft accuracy...) is a signal
too and can be used in a rubric condition.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd

from scorio_core.errors import InputError

__all__ = [
    "ID_COLUMNS",
    "KNOWN_SIGNALS",
    "STOP_REASONS",
    "SignalInfo",
    "derive_signals",
    "list_signals",
]

ID_COLUMNS = ("model", "task", "question_id", "trial")

# Normal termination: OpenAI/vLLM "stop" (the paper's rule), Anthropic "end_turn" and
# "stop_sequence", "eos" in Hugging Face style dumps. Anything else (length, max_tokens,
# content_filter, ...) is repeated_pattern = 1. Compared case-insensitively.
STOP_REASONS = frozenset({"stop", "end_turn", "stop_sequence", "eos", "endoftext"})

KNOWN_SIGNALS: dict[str, str] = {
    "is_correct": "1 if the answer is correct, else 0 (paper F.1)",
    "has_box": "1 if a final boxed answer is present, else 0 (paper F.1)",
    "token_ratio": "completion tokens / max tokens (paper F.1; the paper used 32,768)",
    "repeated_pattern": "0 if finish_reason is stop, else 1: degenerate output (paper F.1)",
    "prompt_bpt": "negative mean prompt log-prob, bits/token; lower is better (paper F.1)",
    "completion_bpt": "negative mean completion log-prob, bits/token (paper F.1)",
    "compass_context_A": "verifier probability of correct (paper F.1)",
    "compass_context_B": "verifier probability of wrong (paper F.1)",
    "compass_context_C": "verifier probability of off-task/invalid (paper F.1)",
    "finish_reason": "why generation stopped (text: stop, length, ...)",
    "completion_tokens": "number of completion tokens",
    "prompt_tokens": "number of prompt tokens",
    "max_tokens": "generation limit of the attempt, tokens",
    "completion_ppl": "completion perplexity",
    "prompt_ppl": "prompt perplexity",
    "completion_logprob_mean": "mean completion log-prob per token, nats",
    "prompt_logprob_mean": "mean prompt log-prob per token, nats",
    "completion_logprob_sum": "total completion log-prob, nats",
    "prompt_logprob_sum": "total prompt log-prob, nats",
    "completion_logprob_min": "least likely completion token's log-prob, nats",
    "score": "soft score of the attempt (e.g. partial credit, judge score)",
    "cost": "cost of the attempt",
    "latency": "latency of the attempt",
    "category": "category code carried by the dump",
}

# Column names of the reference package's categorical loader -> names used here.
ALIASES = {
    "completion_avg_logprob": "completion_logprob_mean",
    "prompt_avg_logprob": "prompt_logprob_mean",
    "completion_sum_logprob": "completion_logprob_sum",
    "prompt_sum_logprob": "prompt_logprob_sum",
    "logprob_min": "completion_logprob_min",
    "completion_perplexity": "completion_ppl",
    "prompt_perplexity": "prompt_ppl",
    "completion_length": "completion_tokens",
}

_LN2 = math.log(2.0)
# target -> {source: formula}; sources are tried in this order, each filling rows still missing.
_LOGPROB_FORMULAS = {
    "bpt": {"logprob_mean": (lambda x: -x / _LN2, "-lp / ln 2"), "ppl": (np.log2, "log2 ppl")},
    "logprob_mean": {"ppl": (lambda x: -np.log(x), "-ln ppl"), "bpt": (lambda x: -x * _LN2, "-bpt * ln 2")},
    "ppl": {"logprob_mean": (lambda x: np.exp(-x), "exp(-lp)"), "bpt": (np.exp2, "2^bpt")},
}


class SignalInfo(NamedTuple):
    """One signal column: name, kind ("number" or "text"), missing count, description."""

    name: str
    kind: str
    n_missing: int
    description: str


def to_float(series: pd.Series) -> np.ndarray:
    """Float64 values of a numeric-like column (NaN for missing or non-numbers)."""
    return _numeric(series)


def _numeric(series: pd.Series) -> np.ndarray:
    if pd.api.types.is_bool_dtype(series.dtype) or pd.api.types.is_numeric_dtype(series.dtype):
        return series.to_numpy(dtype=np.float64, na_value=np.nan)
    return pd.to_numeric(series, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)


_NUMERIC_INFERRED = frozenset({"floating", "integer", "mixed-integer-float", "boolean", "decimal", "empty"})


def is_numeric_column(series: pd.Series) -> bool:
    """True for numeric and boolean columns, and object columns holding only numbers/None."""
    dtype = series.dtype
    if pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_numeric_dtype(dtype):
        return True
    if dtype == object:
        return pd.api.types.infer_dtype(series, skipna=True) in _NUMERIC_INFERRED
    return False


def _check_max_tokens(max_tokens) -> float | None:
    if max_tokens is None:
        return None
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, (int, float, np.integer, np.floating)):
        raise InputError(f"max_tokens must be a positive number of tokens; got {max_tokens!r}.")
    if not (math.isfinite(float(max_tokens)) and float(max_tokens) > 0):
        raise InputError(f"max_tokens must be a positive number of tokens; got {max_tokens!r}.")
    return float(max_tokens)


def derive_signals(attempts: pd.DataFrame, max_tokens: int | None = None) -> tuple[pd.DataFrame, list[str]]:
    """Add the paper's base signals that can be derived from raw dump fields.

    Parameters
    ----------
    attempts : pandas.DataFrame
        Canonical attempt table (``model, task, question_id, trial, is_correct``, signals).
    max_tokens : int, optional
        Generation limit used for ``token_ratio`` on rows without a ``max_tokens`` value.
        Never assumed: the paper used 32,768; pass it if your dump used that limit.

    Returns
    -------
    frame : pandas.DataFrame
        ``attempts`` plus derived columns. Existing columns are never overwritten.
    notes : list of str
        One sentence per derivation (what, from which field, on how many rows) and per
        signal that could not be derived and why.

    Raises
    ------
    InputError
        If ``attempts`` is not a DataFrame or ``max_tokens`` is not a positive number.

    Notes
    -----
    Derivations (paper Appendix F.1), each only when the target column is absent:

    * ``repeated_pattern`` = 0 if ``finish_reason`` is a normal stop (:data:`STOP_REASONS`),
      1 for any other reason, missing (NaN) where ``finish_reason`` is missing.
    * ``token_ratio`` = ``completion_tokens / max_tokens`` with the row's ``max_tokens``
      column when present and positive, else the ``max_tokens`` argument, else missing.
    * ``{prompt,completion}_bpt`` = ``-logprob_mean / ln 2`` (mean log-prob in nats), or
      ``log2(ppl)`` from perplexity for rows without a mean log-prob; likewise
      ``*_logprob_mean`` and ``*_ppl`` from each other, and
      ``*_logprob_sum = *_logprob_mean * *_tokens``.
    * Reference-package column names (``completion_avg_logprob``, ``logprob_min``,
      ``prompt_perplexity``, ...) are copied to the names above.

    References
    ----------
    Hariri et al., "Don't Pass@k: A Bayesian Framework for Large Language Model
    Evaluation", ICLR 2026, arXiv:2510.04265, Appendix F.1 (base signals).

    Examples
    --------
    >>> import pandas as pd
    >>> frame, notes = derive_signals(pd.DataFrame({
    ...     "is_correct": [1.0, 0.0], "finish_reason": ["stop", "length"],
    ...     "completion_tokens": [100, 32768], "completion_ppl": [2.0, 4.0]}), max_tokens=32768)
    >>> frame[["repeated_pattern", "token_ratio", "completion_bpt"]].round(4).values.tolist()
    [[0.0, 0.0031, 1.0], [1.0, 1.0, 2.0]]
    """
    if not isinstance(attempts, pd.DataFrame):
        raise InputError(f"attempts must be a pandas DataFrame; got {type(attempts).__name__}.")
    limit = _check_max_tokens(max_tokens)
    present = set(attempts.columns)
    new: dict[str, np.ndarray] = {}
    notes: list[str] = []

    def have(name: str) -> bool:
        return name in present or name in new

    def column(name: str) -> np.ndarray:
        return new[name] if name in new else _numeric(attempts[name])

    for alias, name in ALIASES.items():
        if alias in present and not have(name):
            new[name] = _numeric(attempts[alias])
            notes.append(f"{name} copied from column '{alias}' (reference-package name).")

    if not have("repeated_pattern"):
        if "finish_reason" in present:
            new["repeated_pattern"], note = _repeated_pattern(attempts["finish_reason"])
            notes.append(note)
        else:
            notes.append("repeated_pattern not derived: the data has no finish_reason.")

    if not have("token_ratio"):
        if have("completion_tokens"):
            ratio, note = _token_ratio(attempts, column("completion_tokens"), limit)
            if ratio is not None:
                new["token_ratio"] = ratio
            notes.append(note)
        else:
            notes.append("token_ratio not derived: the data has no completion_tokens.")

    for side in ("prompt", "completion"):
        originals = {name for name in (*present, *new) if name.startswith(side)}
        _derive_logprob_family(side, originals, column, new, notes)
        total, mean, tokens = f"{side}_logprob_sum", f"{side}_logprob_mean", f"{side}_tokens"
        if not have(total) and have(mean) and have(tokens):
            new[total] = column(mean) * column(tokens)
            notes.append(f"{total} = {mean} * {tokens}.")

    frame = attempts.assign(**new) if new else attempts
    return frame, notes


def _repeated_pattern(reasons: pd.Series) -> tuple[np.ndarray, str]:
    codes, uniques = pd.factorize(reasons, use_na_sentinel=True)
    is_stop = np.array([is_stop_reason(u) for u in uniques] + [False])
    values = np.where(codes < 0, np.nan, np.where(is_stop[codes], 0.0, 1.0))
    counts = np.bincount(codes[codes >= 0], minlength=len(uniques))
    return values, repeated_pattern_note(zip(uniques, counts), int((codes < 0).sum()))


def is_stop_reason(value) -> bool:
    """Whether a ``finish_reason`` value is a normal stop (:data:`STOP_REASONS`, stripped, case-insensitive)."""
    return str(value).strip().lower() in STOP_REASONS


def repeated_pattern_note(value_counts, n_missing: int) -> str:
    """The note of the ``repeated_pattern`` derivation from ``(finish_reason value, rows)`` pairs (distinct values)
    and the rows without a ``finish_reason`` (shared with the SQL engines, which count the values per task)."""
    n_stop, others = 0, []
    for u, c in value_counts:
        if is_stop_reason(u):
            n_stop += int(c)
        else:
            others.append((int(c), str(u)))
    others.sort(reverse=True)
    shown = ", ".join(f"{u!r}: {c}" for c, u in others[:5]) or "none"
    note = (
        f"repeated_pattern derived from finish_reason: 0 for a normal stop on {n_stop} rows, "
        f"1 for other reasons on {sum(c for c, _ in others)} rows ({shown})"
    )
    if n_missing:
        note += f", missing on {n_missing} rows without finish_reason"
    return note + "."


def _token_ratio(attempts: pd.DataFrame, tokens: np.ndarray, limit: float | None):
    n = len(attempts)
    if "max_tokens" in attempts.columns:
        per_row = _numeric(attempts["max_tokens"])
        bad = np.isfinite(per_row) & (per_row <= 0)
        per_row = np.where(np.isfinite(per_row) & (per_row > 0), per_row, np.nan)
    else:
        per_row, bad = np.full(n, np.nan), np.zeros(n, bool)
    from_column = int(np.isfinite(per_row).sum())
    if limit is not None:
        per_row = np.where(np.isfinite(per_row), per_row, limit)
    ratio = tokens / per_row
    derived, note = token_ratio_note(n, from_column, limit, int(bad.sum()), int(np.isnan(ratio).sum()))
    return (ratio if derived else None), note


def token_ratio_note(n_rows: int, from_column: int, limit: float | None, n_bad: int, n_missing: int) -> tuple[bool, str]:
    """Whether ``token_ratio`` is derived, and its note, from row counts (shared with the SQL engines).

    ``from_column`` rows have a positive ``max_tokens`` value, ``n_bad`` a value <= 0, ``limit`` is the
    ``max_tokens`` argument (used where the column gives none) and ``n_missing`` the rows whose ratio is NaN.
    """
    parts = []
    if from_column:
        parts.append(f"the max_tokens column on {from_column} rows")
    if limit is not None and n_rows - from_column:
        parts.append(f"max_tokens={limit:g} on {n_rows - from_column} rows")
    if not parts:
        return False, (
            "token_ratio not derived: the data has no max_tokens column; pass max_tokens "
            "(the paper used 32,768)."
        )
    note = "token_ratio = completion_tokens / max_tokens using " + " and ".join(parts)
    if n_bad:
        note += f"; {n_bad} rows with max_tokens <= 0 are missing"
    if n_missing:
        note += f"; missing on {n_missing} rows"
    return True, note + "."


def _derive_logprob_family(side, originals, column, new, notes) -> None:
    """Fill absent ``{side}_bpt / _logprob_mean / _ppl`` from the ones the dump has."""
    for target, formulas in _LOGPROB_FORMULAS.items():
        name = f"{side}_{target}"
        sources = [(f"{side}_{src}", f) for src, f in formulas.items() if f"{side}_{src}" in originals]
        if name in originals or not sources:
            continue
        values = None
        used = []
        for source, (formula, text) in sources:
            raw = column(source)
            if source.endswith("_ppl"):
                raw = np.where(raw > 0, raw, np.nan)  # a perplexity must be positive
            values = np.full(len(raw), np.nan) if values is None else values
            fill = np.isnan(values) & np.isfinite(raw)
            if fill.any():
                with np.errstate(all="ignore"):
                    values[fill] = formula(raw[fill])
                used.append((text, source, int(fill.sum())))
        if used:
            new[name] = values
        notes.append(logprob_note(name, used, [s for s, _ in sources]))


def logprob_note(name: str, used, sources) -> str:
    """The note of a log-prob family derivation: ``used`` lists ``(formula text, source, rows filled)`` in the order
    tried, ``sources`` every source column (shared with the SQL engines)."""
    if used:
        return f"{name} = " + "; ".join(f"{text} from {source} on {n} rows" for text, source, n in used) + "."
    return f"{name} not derived: " + " and ".join(sources) + " are all missing."


def list_signals(attempts: pd.DataFrame) -> list[SignalInfo]:
    """List the signals an attempt table offers to rubric conditions.

    Every column except ``model, task, question_id, trial`` is a signal: numeric and boolean
    columns are numbers (compare with ``<``, ``>=``...), other columns are text (compare
    with ``==``/``!=`` and a quoted string). Pass the output of :func:`derive_signals` to
    include derived signals.

    Returns
    -------
    list of SignalInfo
        In column order, with the number of missing values and a description for the
        paper's base signals and other well-known fields.
    """
    if not isinstance(attempts, pd.DataFrame):
        raise InputError(f"attempts must be a pandas DataFrame; got {type(attempts).__name__}.")
    out = []
    for name in attempts.columns:
        if not isinstance(name, str) or name in ID_COLUMNS:
            continue
        series = attempts[name]
        kind = "number" if is_numeric_column(series) else "text"
        out.append(SignalInfo(name, kind, int(series.isna().sum()), KNOWN_SIGNALS.get(name, "")))
    return out
