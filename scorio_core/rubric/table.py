"""Signals of one attempt table as numpy arrays, converted once and cached.

:class:`SignalTable` is what the rubric engine evaluates conditions on. Build it once per
analysis (it runs :func:`~scorio_core.rubric.signals.derive_signals`) and reuse it across
schemas, thresholds and weights: each column is converted to float64 (numbers) or integer
codes (text) on first use only.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.rubric.kernel import NUMBER, TEXT, TextColumn
from scorio_core.rubric.signals import (
    ID_COLUMNS,
    KNOWN_SIGNALS,
    derive_signals,
    is_numeric_column,
    to_float,
)

__all__ = ["KNOWN_TEXT_SIGNALS", "Example", "SignalTable"]

KNOWN_TEXT_SIGNALS = frozenset({"finish_reason"})


class Example(NamedTuple):
    """One attempt, for messages: 0-based row position and its identifiers (None if absent)."""

    row: int
    model: object
    question_id: object
    trial: object

    def __str__(self) -> str:
        return f"row {self.row} (model={self.model}, question_id={self.question_id}, trial={self.trial})"


class SignalTable:
    """Attempt signals bound once for repeated rubric evaluation.

    Parameters
    ----------
    attempts : pandas.DataFrame
        Canonical attempt table (see ``docs/ARCHITECTURE.md``).
    max_tokens : int, optional
        Passed to :func:`~scorio_core.rubric.signals.derive_signals` for ``token_ratio``.

    Attributes
    ----------
    frame : pandas.DataFrame
        The table with derived signals added.
    notes : tuple of str
        Derivation notes.
    n_rows : int
        Number of attempts.
    """

    def __init__(self, attempts: pd.DataFrame, max_tokens: int | None = None):
        frame, notes = derive_signals(attempts, max_tokens=max_tokens)
        self.frame = frame
        self.notes = tuple(notes)
        self.n_rows = len(frame)
        self.max_tokens = max_tokens
        self._columns = {c for c in frame.columns if isinstance(c, str) and c not in ID_COLUMNS}
        self._numbers: dict[str, np.ndarray] = {}
        self._texts: dict[str, TextColumn] = {}
        self._kinds: dict[str, str] = {}

    @property
    def columns(self) -> frozenset[str]:
        """Signal columns present in the table (identifiers excluded)."""
        return frozenset(self._columns)

    def has(self, name: str) -> bool:
        """True if ``name`` is a column of the table."""
        return name in self._columns

    def kind(self, name: str) -> str | None:
        """``"number"`` or ``"text"`` for a column or a known-but-absent signal; else None."""
        if name in self._kinds:
            return self._kinds[name]
        if name in self._columns:
            kind = NUMBER if is_numeric_column(self.frame[name]) else TEXT
        elif name in KNOWN_SIGNALS:
            kind = TEXT if name in KNOWN_TEXT_SIGNALS else NUMBER
        else:
            return None
        self._kinds[name] = kind
        return kind

    def number(self, name: str) -> np.ndarray:
        """Float64 values of a numeric signal, shape ``(n_rows,)``; all NaN if absent."""
        if name not in self._numbers:
            if name in self._columns:
                values = to_float(self.frame[name])
            else:
                values = np.full(self.n_rows, np.nan)
            values.setflags(write=False)
            self._numbers[name] = values
        return self._numbers[name]

    def text(self, name: str) -> TextColumn:
        """Integer codes (-1 = missing) of a text signal; all missing if absent."""
        if name not in self._texts:
            if name in self._columns:
                codes, uniques = pd.factorize(self.frame[name], use_na_sentinel=True)
                index = {str(u): i for i, u in enumerate(uniques)}
                codes = codes.astype(np.int32, copy=False)
            else:
                codes, index = np.full(self.n_rows, -1, np.int32), {}
            codes.setflags(write=False)
            self._texts[name] = TextColumn(codes, index)
        return self._texts[name]

    def missing(self, name: str) -> np.ndarray:
        """Boolean mask of rows where the signal is missing (NaN/None or absent column)."""
        if self.kind(name) == TEXT:
            return self.text(name).codes < 0
        return ~np.isfinite(self.number(name))

    def examples(self, rows: np.ndarray, limit: int = 5) -> tuple[Example, ...]:
        """The first ``limit`` rows of a boolean mask or index array, as :class:`Example`."""
        rows = np.asarray(rows)
        index = np.flatnonzero(rows)[:limit] if rows.dtype == bool else rows[:limit]
        out = []
        for i in index:
            ids = [self._id(col, int(i)) for col in ("model", "question_id", "trial")]
            out.append(Example(int(i), *ids))
        return tuple(out)

    def _id(self, column: str, i: int):
        if column not in self.frame.columns:
            return None
        value = self.frame[column].iat[i]
        if pd.isna(value):
            return None
        return value.item() if isinstance(value, np.generic) else value


def as_table(attempts, max_tokens: int | None = None) -> SignalTable:
    """Return ``attempts`` as a :class:`SignalTable` (built if it is a DataFrame)."""
    if isinstance(attempts, SignalTable):
        if max_tokens is not None and max_tokens != attempts.max_tokens:
            raise InputError(
                "max_tokens was given but the SignalTable was built with "
                f"max_tokens={attempts.max_tokens!r}; build a new SignalTable instead."
            )
        return attempts
    return SignalTable(attempts, max_tokens=max_tokens)
