"""Display tables for pages: column labels, formats and help texts (no metric math)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

__all__ = ["leaderboard_display"]


def leaderboard_display(table: pd.DataFrame, *, metric_label: str, k: int, confidence: float) -> tuple[pd.DataFrame, dict]:
    """Leaderboard rows ready for ``st.dataframe``: ordered columns and their ``column_config``."""
    pct = f"{confidence:.0%}"
    frame = table[
        ["rank", "rank_ci", "model", "mu", "lo", "hi", "sigma", "estimate", "avg", "pass_at_k", "n_questions", "n_trials"]
    ].copy()
    config = {
        "rank": st.column_config.NumberColumn("Rank", help="Competition rank by posterior mean (1224 ranking).", format="%d"),
        "rank_ci": st.column_config.NumberColumn(
            "Rank (CI ties)", help="Models share a rank when their difference is not credible at this level.", format="%d"
        ),
        "model": st.column_config.TextColumn("Model"),
        "mu": st.column_config.NumberColumn(f"{metric_label} mean", format="%.4f", help="Posterior mean."),
        "lo": st.column_config.NumberColumn(f"{pct} CrI low", format="%.4f"),
        "hi": st.column_config.NumberColumn(f"{pct} CrI high", format="%.4f"),
        "sigma": st.column_config.NumberColumn("sigma", format="%.4f", help="Posterior standard deviation."),
        "estimate": st.column_config.NumberColumn(
            "Point estimate", format="%.4f", help="Classical estimate from the data (e.g. unbiased Pass@k); equals the mean for Bayes@N."
        ),
        "avg": st.column_config.NumberColumn("avg@N", format="%.4f", help="Average score over questions and trials."),
        "pass_at_k": st.column_config.NumberColumn(f"Pass@{k}", format="%.4f", help="Unbiased Pass@k estimator (Chen et al. 2021)."),
        "n_questions": st.column_config.NumberColumn("M", help="Questions the model answered.", format="%d"),
        "n_trials": st.column_config.NumberColumn("N", help="Trials per question (smallest, if they differ).", format="%d"),
    }
    return frame, config
