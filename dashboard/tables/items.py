"""Display tables of the Questions page: question diagnostics, the flagged list, ranks before/after.

Each display function returns ``(frame, column_config)`` for ``st.dataframe``; no metric math (the
numbers come from :mod:`scorio_core.items`).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.tables.sizes import fit_width, id_column_help

__all__ = ["flag_label", "with_flags", "question_display", "flagged_export", "shift_display"]


def flag_label(code: str) -> str:
    """A flag's code (:data:`scorio_core.items.flags.FLAG_CODES`) as the page shows it; the CSV and JSON keep the code.

    >>> flag_label("possibly_mislabeled")
    'possibly mislabeled'
    """
    return str(code).replace("_", " ")


def with_flags(questions: pd.DataFrame, codes=()) -> pd.DataFrame:
    """Rows of ``questions`` (:attr:`scorio_core.items.report.Diagnostics.questions`) carrying any of ``codes``.

    No codes: every row. The index is reset (row positions are what a table selection reports).
    """
    wanted = set(codes)
    if not wanted:
        return questions.reset_index(drop=True)
    keep = [bool(wanted & set(f)) for f in questions["flags"]]
    return questions[keep].reset_index(drop=True)


def question_display(questions: pd.DataFrame, *, confidence: float) -> tuple[pd.DataFrame, dict]:
    """One row per question: id, flags (comma-separated), the reasons, difficulty and discrimination with intervals,
    information, pooled success rate, models that answered."""
    pct = f"{confidence:.0%}"
    frame = pd.DataFrame({
        "question": questions["question_id"].astype(str),
        "flags": [", ".join(map(flag_label, f)) for f in questions["flags"]],  # words, not codes (QA F11)
        # beside the flags: at 1280 px a last column was off-screen, the explanation of every flag behind a scroll
        "reason": questions["reason"].astype(str),
        "difficulty": questions["difficulty"],
        "difficulty_ci": [f"[{lo:.2f}, {hi:.2f}]" for lo, hi in zip(questions["difficulty_lo"],
                                                                   questions["difficulty_hi"])],
        "discrimination": questions["discrimination"],
        "discrimination_ci": [f"[{lo:.2f}, {hi:.2f}]" for lo, hi in zip(questions["discrimination_lo"],
                                                                       questions["discrimination_hi"])],
        "information": questions["information"],
        "success_rate": questions["success_rate"],
        "n_models": questions["n_models"],
    })
    config = {
        # hashes as ids (LiveBench: 64 characters) took half the grid: capped (the grid has no tooltip for cut text;
        # the id is whole in the question opened below and in the downloads)
        "question": st.column_config.TextColumn("Question", pinned=True, width=fit_width(frame["question"]), help=id_column_help(
            frame["question"], "Question id as in the dump; click the row to see it whole below.")),
        # as wide as the longest list of codes (at 1280 px "low_information" was cut), within a third of the page
        "flags": st.column_config.TextColumn("Flags", help="The rules this question meets (see Method); the CSV "
                                                           "download gives their codes, e.g. possibly_mislabeled.",
                                             width=fit_width(frame["flags"], most=300)),
        "difficulty": st.column_config.NumberColumn(
            "Difficulty b", format="%.2f", help="The ability at which a model succeeds half the time (higher = harder)."),
        "difficulty_ci": st.column_config.TextColumn(f"b {pct}", help=f"{pct} interval of b (Laplace standard error)."),
        "discrimination": st.column_config.NumberColumn(
            "Discrimination a", format="%.2f",
            help="How sharply success rises with ability at b; negative: weaker models succeed more often."),
        "discrimination_ci": st.column_config.TextColumn(f"a {pct}", help=f"{pct} interval of a (Laplace standard error)."),
        "information": st.column_config.NumberColumn(
            "Information", format="%.3f",
            help="Fisher information a^2 p (1 - p) of one trial, summed over the models that answered: how much this "
                 "question tells models apart."),
        "success_rate": st.column_config.ProgressColumn("Success rate", format="%.2f", min_value=0.0, max_value=1.0,
                                                        help="Successes / trials, pooled over every model."),
        "n_models": st.column_config.NumberColumn("Models", format="%d", help="Models that answered this question."),
        # cells do not wrap: as wide as the longest reason (~7 px a character), at most about half the page
        "reason": st.column_config.TextColumn("Reason", help="One line per flag, with the numbers behind it (the whole "
                                                            "text on hover, or in the selected question below).",
                                              width=fit_width(frame["reason"], least=200, most=560, px_per_char=7)),
    }
    return frame, config


def flagged_export(questions: pd.DataFrame, codes=()) -> pd.DataFrame:
    """The flagged questions for a CSV download: every question with a flag (only ``codes`` when given).

    Columns as :data:`scorio_core.items.report.QUESTION_COLUMNS`, ``flags`` joined with ``,``.
    """
    rows = with_flags(questions, codes) if codes else questions[[len(f) > 0 for f in questions["flags"]]]
    out = rows.reset_index(drop=True).copy()
    out["flags"] = [",".join(f) for f in out["flags"]]
    return out


def shift_display(shift: pd.DataFrame, *, kinds: tuple[str, str]) -> tuple[pd.DataFrame, dict]:
    """Ranks, Bayes@N and intervals before and after leaving questions out (:func:`scorio_core.items.shift.rank_shift`);
    ``kinds`` names each side's intervals for the headers (e.g. "95% CrI", "95% exact CI": the third value of
    :func:`dashboard.compute.items.rank_without`)."""

    def interval(lo, hi):
        return [f"[{a:.3f}, {b:.3f}]" if pd.notna(a) and pd.notna(b) else "" for a, b in zip(lo, hi)]

    frame = pd.DataFrame({
        "model": shift["model"].astype(str),
        "rank_before": shift["rank_before"], "rank_after": shift["rank_after"],
        "moved": ["" if pd.isna(d) else ("=" if d == 0 else f"{int(d):+d}") for d in shift["moved"]],
        "mu_before": shift["mu_before"], "ci_before": interval(shift["lo_before"], shift["hi_before"]),
        "mu_after": shift["mu_after"], "ci_after": interval(shift["lo_after"], shift["hi_after"]),
    })
    config = {
        "model": st.column_config.TextColumn("Model", pinned=True),
        "rank_before": st.column_config.NumberColumn("Rank before", format="%d", help="Rank on every question."),
        "rank_after": st.column_config.NumberColumn("Rank after", format="%d",
                                                    help="Rank without the excluded questions."),
        "moved": st.column_config.TextColumn("Moved", help="Places gained (+) or lost (-) without the excluded questions."),
        "mu_before": st.column_config.NumberColumn("Bayes@N before", format="%.3f"),
        "ci_before": st.column_config.TextColumn(f"{kinds[0]} before"),
        "mu_after": st.column_config.NumberColumn("Bayes@N after", format="%.3f"),
        "ci_after": st.column_config.TextColumn(f"{kinds[1]} after"),
    }
    return frame, config
