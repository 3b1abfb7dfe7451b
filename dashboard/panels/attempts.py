"""Drill-down widgets: the attempts of one question, their text fields shown as plain text.

Shared by the Compare page (two models on a question) and the Data page (the selected models
on the question picked in the grid). The frame comes from
:func:`scorio_core.leaderboard.drilldown.question_attempts`; text is rendered with ``st.text`` (never HTML
or Markdown) and labels from the dump are escaped.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.tables.sizes import fit_height
from dashboard.text import md
from scorio_core.leaderboard.drilldown import TEXT_FIELDS

__all__ = ["long_text_columns", "render_attempts", "render_long_fields"]

#: A text value longer than this is shown below the table in full, not in a cell.
LONG = 60


def long_text_columns(frame: pd.DataFrame) -> list[str]:
    """Text columns worth a full-text view: the drill-down text fields and any long text column.

    >>> long_text_columns(pd.DataFrame({"model": ["m"], "answer": ["4"], "note": ["x" * 61], "n": [1]}))
    ['answer', 'note']
    """
    out = []
    for c in frame.columns:
        if c in ("model", "category") or not (pd.api.types.is_string_dtype(frame[c]) or frame[c].dtype == object):
            continue
        values = frame[c].dropna().astype(str)
        if values.empty:
            continue
        if c in TEXT_FIELDS or values.str.len().max() > LONG:
            out.append(str(c))
    return out


def render_long_fields(fields: list[tuple[str, object]], *, expanded: tuple[str, ...] = ("answer", "extracted_answer")) -> None:
    """One expander per ``(name, value)`` with the value as plain text."""
    for name, value in fields:
        text = "" if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)
        with st.expander(f"{md(name)} ({len(text):,} characters)", expanded=name in expanded):
            st.text(text)  # plain text: never HTML or Markdown


def render_attempts(attempts: pd.DataFrame, *, key: str, caption_rubric: bool) -> None:
    """The attempts table, then the full text fields of the attempt picked below it."""
    long_text = long_text_columns(attempts)
    table = attempts.drop(columns=[c for c in long_text if c not in ("extracted_answer", "target")])
    st.dataframe(table, hide_index=True, width="stretch", height=fit_height(len(table), 480),
                 column_config={"model": st.column_config.TextColumn("Model", pinned=True)})
    if long_text:
        index = st.selectbox("Attempt", list(range(len(attempts))), key=key,
                             format_func=lambda i: f"{attempts['model'].iloc[i]} · trial {attempts['trial'].iloc[i]}"
                             if "trial" in attempts.columns else f"{attempts['model'].iloc[i]} · row {i + 1}",
                             help="Its text fields (input, target, answer, transcript, ...) are shown in full below.")
        row = attempts.iloc[int(index or 0)]
        render_long_fields([(c, row[c]) for c in long_text])
    st.caption("Fields as loaded from the dump (text shown as plain text; a text cut by the loader says so and where "
               "the full text is)." + (" Category and weight are the active rubric's." if caption_rubric else ""))
