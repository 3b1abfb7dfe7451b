"""Rubric schemas as editable tables, and back (pure pandas; no Streamlit).

The Rubric page edits a schema in three ``st.data_editor`` tables: categories (order,
label, condition, weight), variables (name, condition) and thresholds (name, percentile,
of, where, value). :func:`schema_to_rows` fills them; :func:`rows_to_schema` builds a new
:class:`~scorio_core.rubric.Schema`, raising :class:`~scorio_core.errors.InputError` (or
its subclass ``ExpressionError``, which carries the position) naming the row and field.
Categories follow the ``order`` column (ties and blanks keep their table position).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.rubric import Category, Schema, Threshold, Variable

__all__ = [
    "CATEGORY_COLUMNS",
    "VARIABLE_COLUMNS",
    "THRESHOLD_COLUMNS",
    "KINDS",
    "schema_to_rows",
    "rows_to_schema",
    "rows_equal",
    "in_order",
    "normalize_order",
]

CATEGORY_COLUMNS = ("order", "label", "condition", "weight")
VARIABLE_COLUMNS = ("name", "condition", "description")
THRESHOLD_COLUMNS = ("name", "percentile", "of", "where", "value", "description")
KINDS = ("categories", "variables", "thresholds")


def _text_frame(records: list[dict], columns: tuple[str, ...], numeric: tuple[str, ...]) -> pd.DataFrame:
    frame = pd.DataFrame.from_records(records, columns=list(columns))
    for c in columns:
        frame[c] = frame[c].astype(float) if c in numeric else frame[c].astype(object)
    return frame


def schema_to_rows(schema: Schema) -> dict[str, pd.DataFrame]:
    """The three editable tables of a schema (``categories``, ``variables``, ``thresholds``)."""
    cats = [{"order": float(i + 1), "label": c.label, "condition": c.condition, "weight": float(c.weight)}
            for i, c in enumerate(schema.categories)]
    var = [{"name": v.name, "condition": v.condition, "description": v.description or None} for v in schema.variables]
    thr = [{"name": t.name, "percentile": t.percentile, "of": t.of, "where": t.where, "value": t.value,
            "description": t.description or None} for t in schema.thresholds]
    return {
        "categories": _text_frame(cats, CATEGORY_COLUMNS, ("order", "weight")),
        "variables": _text_frame(var, VARIABLE_COLUMNS, ()),
        "thresholds": _text_frame(thr, THRESHOLD_COLUMNS, ("percentile", "value")),
    }


def _blank(value) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return isinstance(value, str) and not value.strip()


def _text(value, what: str, required: bool = True) -> str | None:
    if _blank(value):
        if required:
            raise InputError(f"{what} is empty; fill it in or delete the row.")
        return None
    if not isinstance(value, str):
        value = str(value)
    return value.strip()


def _number(value, what: str, required: bool = True) -> float | None:
    if _blank(value):
        if required:
            raise InputError(f"{what} is empty; enter a number.")
        return None
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{what} must be a number; got {value!r:.40}.") from None
    if not math.isfinite(out):
        raise InputError(f"{what} must be finite; got {value!r:.40}.")
    return out


def _ordered(frame: pd.DataFrame) -> pd.DataFrame:
    order = pd.to_numeric(frame["order"], errors="coerce")
    position = np.arange(len(frame), dtype=float)
    key = np.where(order.notna(), order.to_numpy(dtype=float, na_value=np.nan), np.inf)
    idx = np.lexsort((position, key))
    return frame.iloc[idx]


def rows_to_schema(rows: dict[str, pd.DataFrame], *, name: str, description: str = "", source: str = "") -> Schema:
    """Build a :class:`Schema` from the three tables.

    Raises
    ------
    InputError
        A blank label/condition/name, a non-numeric weight or percentile, a threshold with
        both or neither of percentile and value, duplicate labels, a cycle; the message
        names the row (1-based, as shown) and the field. ``ExpressionError`` (a subclass)
        for a condition that does not parse, with its position.
    """
    categories = []
    frame = rows["categories"].reset_index(drop=True)
    if frame.empty:
        raise InputError("the rubric needs at least one category; add a row.")
    for index, row in _ordered(frame).iterrows():
        where = f"category row {int(index) + 1}"
        label = _text(row.get("label"), f"{where}: label")
        condition = _text(row.get("condition"), f"{where} ({label!r}): condition")
        weight = _number(row.get("weight"), f"{where} ({label!r}): weight")
        categories.append(Category(label, condition, weight))
    variables = []
    for i, row in enumerate(rows.get("variables", pd.DataFrame()).to_dict(orient="records")):
        where = f"variable row {i + 1}"
        if all(_blank(row.get(c)) for c in VARIABLE_COLUMNS):
            continue
        var_name = _text(row.get("name"), f"{where}: name")
        condition = _text(row.get("condition"), f"{where} ({var_name!r}): condition")
        variables.append(Variable(var_name, condition, _text(row.get("description"), "", required=False) or ""))
    thresholds = []
    for i, row in enumerate(rows.get("thresholds", pd.DataFrame()).to_dict(orient="records")):
        where = f"threshold row {i + 1}"
        if all(_blank(row.get(c)) for c in THRESHOLD_COLUMNS):
            continue
        t_name = _text(row.get("name"), f"{where}: name")
        percentile = _number(row.get("percentile"), f"{where} ({t_name!r}): percentile", required=False)
        value = _number(row.get("value"), f"{where} ({t_name!r}): value", required=False)
        if (percentile is None) == (value is None):
            raise InputError(f"{where} ({t_name!r}): give either a percentile (with 'of') or an absolute value, not both.")
        thresholds.append(Threshold(
            t_name, value=value, percentile=percentile,
            of=_text(row.get("of"), f"{where} ({t_name!r}): of", required=percentile is not None) if percentile is not None else None,
            where=_text(row.get("where"), "", required=False) if percentile is not None else None,
            description=_text(row.get("description"), "", required=False) or "",
        ))
    return Schema(name, tuple(categories), tuple(variables), tuple(thresholds), description, source)


def rows_equal(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    """Same shape, columns and cell values (NaN equal to NaN and None)."""
    if a.shape != b.shape or list(a.columns) != list(b.columns):
        return False
    left = a.reset_index(drop=True).astype(object).where(a.reset_index(drop=True).notna(), None)
    right = b.reset_index(drop=True).astype(object).where(b.reset_index(drop=True).notna(), None)
    return bool((left == right).all().all()) if len(a) else True


def in_order(categories: pd.DataFrame) -> bool:
    """True when the ``order`` column is 1..n in table order (nothing to re-sort)."""
    order = pd.to_numeric(categories["order"], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    return bool(np.array_equal(order, np.arange(1, len(categories) + 1, dtype=float)))


def normalize_order(categories: pd.DataFrame) -> pd.DataFrame:
    """Rows sorted by ``order`` (blanks last, ties by position) and renumbered 1..n."""
    out = _ordered(categories).reset_index(drop=True).copy()
    out["order"] = np.arange(1, len(out) + 1, dtype=float)
    return out
