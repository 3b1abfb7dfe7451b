"""Input checks shared by the across-schemata and perturbation analyses."""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.rubric import Schema, SignalTable


# --------------------------------------------------------------------------- validation
def _table(attempts, max_tokens) -> SignalTable:
    if attempts is None:
        raise InputError(
            "rubric sensitivity needs attempt-level data with signals; count tables only "
            "support binary correctness."
        )
    if isinstance(attempts, SignalTable):
        return attempts
    if not isinstance(attempts, pd.DataFrame):
        raise TypeError(f"attempts must be a pandas DataFrame or SignalTable; got {type(attempts).__name__}.")
    if attempts.empty:
        raise InputError("the attempt table is empty.")
    return SignalTable(attempts, max_tokens=max_tokens)


def _missing_signals(schema: Schema, table: SignalTable) -> tuple[str, ...]:
    return tuple(s for s in schema.signals if bool(table.missing(s).all()))


def _real(value: object, name: str, low: float, high: float) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number; got {value!r}.")
    if not low <= float(value) <= high:
        raise ValueError(f"{name} must satisfy {low:g} <= {name} <= {high:g}; got {name}={value}.")
    return float(value)


