"""Cost and token columns of a dataset, summarised per model (for score-vs-cost views).

Only columns with a known meaning are offered (:data:`KNOWN_COLUMNS`); values are parsed as
plain numbers and anything else (``"N/A"``, ``"$0.00*"``) is left out and reported, never
guessed. A column that is constant within every model (e.g. MathArena's reported total cost,
repeated on each row) is a per-model value; otherwise values are per attempt (attempt
tables) or per question (count tables) and are averaged per model.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from scorio_core.leaderboard.table import ALL_TASKS
from scorio_core.errors import InputError

__all__ = ["KNOWN_COLUMNS", "CostColumn", "ModelCosts", "cost_columns", "model_costs"]

#: Column name -> (label, unit) of cost-like columns the app knows how to read.
KNOWN_COLUMNS: dict[str, tuple[str, str]] = {
    "model_total_cost_usd_reported": ("total cost (reported)", "USD"),
    "total_cost": ("total cost", "USD"),
    "cost": ("cost", "USD"),
    "cost_usd": ("cost", "USD"),
    "user_cost": ("user-simulator cost", "USD"),
    "completion_tokens": ("completion tokens", "tokens"),
    "output_tokens": ("output tokens", "tokens"),
    "total_tokens": ("total tokens", "tokens"),
    "latency": ("latency", "s"),
}


class CostColumn(NamedTuple):
    """A cost-like column: name, label, unit and level (``model``, ``attempt`` or ``question``)."""

    column: str
    label: str
    unit: str
    level: str

    @property
    def description(self) -> str:
        """How the per-model value is obtained, for axis titles and notes."""
        if self.level == "model":
            return f"{self.label} per model ({self.unit})"
        return f"mean {self.label} per {self.level} ({self.unit})"

    @property
    def how(self) -> str:
        """How each model's value is obtained, in words (``"one value per model, as the data reports it"``)."""
        return {"model": "one value per model, as the data reports it", "attempt": "the mean over each model's attempts",
                "question": "the mean over each model's questions"}[self.level]


class ModelCosts(NamedTuple):
    """Per-model values of one cost column.

    Attributes
    ----------
    column : CostColumn
    values : DataFrame
        ``model, value`` for models with a numeric value.
    left_out : tuple of (model, raw value)
        Models whose values are not plain numbers (or missing).
    """

    column: CostColumn
    values: pd.DataFrame
    left_out: tuple[tuple[str, str], ...]

    @property
    def left_out_note(self) -> str:
        """The models left out, each with its value as the data writes it, and what such marks mean ("" if none).

        >>> print(ModelCosts(None, pd.DataFrame(), (("a", "$0.00*"), ("b", "N/A"))).left_out_note)
        Left out, as their value is not a plain number (shown in brackets as the data writes it: a mark such as "*" is a footnote of the source, explained there; "N/A" means not available): a ($0.00*), b (N/A).
        """
        if not self.left_out:
            return ""
        return ("Left out, as their value is not a plain number (shown in brackets as the data writes it: a mark such "
                "as \"*\" is a footnote of the source, explained there; \"N/A\" means not available): "
                + ", ".join(f"{m} ({raw})" for m, raw in self.left_out) + ".")


def _numbers(series: pd.Series) -> np.ndarray:
    return pd.to_numeric(series, errors="coerce").to_numpy(dtype=float)


def _rows(dataset, task: str | None) -> tuple[pd.DataFrame, str]:
    table = dataset.attempts if dataset.attempts is not None else dataset.counts
    level = "attempt" if dataset.attempts is not None else "question"
    if task is not None and task != ALL_TASKS:
        table = table[(table["task"] == task).to_numpy()]
    return table, level


def _constant_per_model(table: pd.DataFrame, column: str) -> bool:
    per = table.groupby("model", observed=True)[column].nunique(dropna=False)
    return bool(len(per)) and bool((per <= 1).all())


def cost_columns(dataset, task: str | None = None) -> list[CostColumn]:
    """Cost-like columns of the dataset with at least one numeric value, in :data:`KNOWN_COLUMNS` order."""
    table, level = _rows(dataset, task)
    found = []
    for column, (label, unit) in KNOWN_COLUMNS.items():
        if column not in table.columns or not np.isfinite(_numbers(table[column])).any():
            continue
        found.append(CostColumn(column, label, unit, "model" if _constant_per_model(table, column) else level))
    return found


def model_costs(dataset, task: str | None, column: str) -> ModelCosts:
    """Per-model values of a cost-like column (the constant, or the mean per attempt/question).

    Raises
    ------
    InputError
        If the column is not a known cost column of the data.
    """
    options = {c.column: c for c in cost_columns(dataset, task)}
    if column not in options:
        raise InputError(f"{column!r} is not a cost or token column of this data; "
                         f"available: {', '.join(options) or 'none'}.")
    spec = options[column]
    table, _ = _rows(dataset, task)
    frame = pd.DataFrame({"model": table["model"].astype(str).to_numpy(), "value": _numbers(table[column]),
                          "raw": table[column].astype("string").fillna("(missing)").to_numpy()})
    values, left_out = [], []
    for model, rows in frame.groupby("model", sort=False):
        finite = rows["value"].to_numpy()
        finite = finite[np.isfinite(finite)]
        if finite.size == 0:
            left_out.append((str(model), str(rows["raw"].iloc[0])))
            continue
        values.append((str(model), float(finite[0] if spec.level == "model" else finite.mean())))
    return ModelCosts(spec, pd.DataFrame(values, columns=["model", "value"]), tuple(left_out))
