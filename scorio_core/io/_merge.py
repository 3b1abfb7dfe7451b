"""Merge canonical tables from several sources into one (ids stay categorical)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from pandas.api.types import union_categoricals

from scorio_core.io._canonical import Part, natural_categories
from scorio_core.io._dataset import attempts_to_counts

__all__ = ["merge_parts"]

_IDS = ("model", "task", "question_id")


def merge_parts(parts: list[Part]) -> tuple[pd.DataFrame, str, np.ndarray, list[str]]:
    """Concatenate parts; attempt tables become counts when a count table is present.

    Returns
    -------
    table : pandas.DataFrame
    layout : {"attempts", "counts"}
    row_source : numpy.ndarray of shape (n_rows,)
        Index of the part each row came from.
    notes : list of str

    Raises
    ------
    InputError
        If an attempt table must become counts but has non-binary or missing outcomes.
    """
    notes: list[str] = []
    layouts = {p.layout for p in parts}
    if layouts == {"attempts", "counts"}:
        for p in parts:
            if p.layout == "attempts":
                p.table = attempts_to_counts(p.table, p.source)
                p.layout = "counts"
                notes.append(f"{p.source}: attempts tallied into counts to merge with the count table(s); trial order is dropped.")
    layout = parts[0].layout
    tables = [p.table for p in parts]
    row_source = np.repeat(np.arange(len(parts), dtype=np.int32), [len(t) for t in tables])
    if len(tables) == 1:
        table = tables[0]
    else:
        ids = {c: union_categoricals([t[c] for t in tables]) for c in _IDS}
        rest = pd.concat([t.drop(columns=list(_IDS)) for t in tables], ignore_index=True, sort=False)
        table = pd.concat([pd.DataFrame({c: pd.Series(v) for c, v in ids.items()}), rest], axis=1)
    for c in _IDS:
        table[c] = natural_categories(table[c])
    head = [c for c in ("model", "task", "question_id", "trial", "is_correct", "category", "n_trials", "n_correct") if c in table.columns]
    table = table[head + [c for c in table.columns if c not in head]]
    return table.reset_index(drop=True), layout, row_source, notes
