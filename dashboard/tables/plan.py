"""Display tables of the Plan page: the next batch and each model's status.

Each display function returns ``(frame, column_config)`` for ``st.dataframe``; no planning math (the
numbers come from :func:`scorio_core.plan.plan_next`).
"""

from __future__ import annotations

import json
import re

import pandas as pd
import streamlit as st

from dashboard.tables.display import interval_headers
from dashboard.tables.sizes import fit_width, id_column_help
from dashboard.text import probability_cells, sentence

__all__ = ["GAIN_MEANING", "LINKING_LABEL", "POOL_LABEL", "batch_display", "batch_frame", "batch_jsonl", "model_status_display", "plan_notes", "plan_sentence"]

#: How a batch row without a question (new questions from the pool) is shown.
POOL_LABEL = "(new questions from the pool)"

#: What a row's expected gain measures. The planner's error is a sum over the pairs of models that decide the goal
#: (scorio_core.plan.goals): with many close models it exceeds 1 (QA 2026-12-03: gains of 1.15 on 300 models, shown
#: as a "reduction of the ... error probability"), so it is named a score and read as a priority.
GAIN_MEANING = ("Expected gain: how much these trials are expected to lower the planner's error score (per unit cost "
                "when costs are given). The score adds, over the pairs of models that decide the goal, each pair's "
                "approximate probability of coming out in the wrong order (for the interval-width goal: the total "
                "excess width); with many close models it exceeds 1, so compare gains with each other rather than "
                "read them as probabilities.")


#: The expected-gain cell of a row that links groups of models sharing no question (no modelled gain).
LINKING_LABEL = "none: links the groups"


def batch_frame(rows: list[dict]) -> pd.DataFrame:
    """The next batch as a table (the CSV download): model, task, question, trials, expected gain (NaN: a row
    linking groups that share no question)."""
    frame = pd.DataFrame(rows, columns=["model", "task", "question_id", "trials", "expected_gain"])
    frame["question_id"] = frame["question_id"].astype(object).where(frame["question_id"].notna(), POOL_LABEL)
    return frame


def batch_display(rows: list[dict]) -> tuple[pd.DataFrame, dict]:
    """One row per (model, question) of the next batch: model, task, question, trials, expected gain.

    A row linking groups that share no question has no gain: its cell says so (:data:`LINKING_LABEL`) instead of
    the grid's grey "None" (QA 2026-12-03), the others then as text with four decimals.
    """
    frame = batch_frame(rows)
    gains = frame["expected_gain"].astype(float)
    linking = bool(gains.isna().any())
    if linking:
        frame["expected_gain"] = gains.map("{:.4f}".format).where(gains.notna(), LINKING_LABEL)
    config = {
        "model": st.column_config.TextColumn("Model", pinned=True),
        "task": st.column_config.TextColumn("Task"),
        "question_id": st.column_config.TextColumn("Question", width=fit_width(frame["question_id"]), help=id_column_help(
            frame["question_id"], f"Question id as in the dump; {POOL_LABEL}: that many new questions, one trial each.")),
        "trials": st.column_config.NumberColumn("Trials", format="%d", help="More trials to run on this cell."),
        "expected_gain": (st.column_config.TextColumn if linking else st.column_config.NumberColumn)(
            "Expected gain", help=GAIN_MEANING + f" '{LINKING_LABEL}' on rows that link groups of models sharing no "
                                                 "question: the goal's error across those groups is not modelled.",
            **({} if linking else {"format": "%.4f"})),  # a normal decimal (QA F11: "9.75e-3" read as jargon)
    }
    return frame, config


def plan_sentence(reason: str) -> str:
    """The planner's status (:attr:`scorio_core.plan.Plan.reason`, as the CLI prints it) in words for the page: no
    ``continue:`` prefix, no bare ``<`` / ``>=`` against the level (QA F11).

    >>> plan_sentence("continue: P(o3 is best) = 0.509 < 0.95; within 0.01: 0.588")
    'Keep running: P(o3 is best) = 0.509, below the 0.95 goal; within 0.01 of the best: 0.588.'
    >>> plan_sentence("top-1 holds: P(o3 is best) = 0.973 >= 0.95")
    'Top-1 holds: P(o3 is best) = 0.973, reaching the 0.95 goal.'
    >>> plan_sentence("continue: P(a > b) = 0.71 and P(within 0.01) = 0.02, both < 0.95")
    'Keep running: P(a > b) = 0.71 and P(within 0.01) = 0.02, both below the 0.95 goal.'
    >>> plan_sentence("continue: P(b > a) = 0.504 and P(within 0) < 0.001, both < 0.95")  # a bound, not a goal
    'Keep running: P(b > a) = 0.504 and P(within 0) < 0.001, both below the 0.95 goal.'
    """
    text = re.sub(r"^continue: ", "Keep running: ", reason.strip())
    text = re.sub(r",? both < ([0-9.]+)", r", both below the \1 goal", text)
    # a value against the goal ("= 0.509 < 0.95"), not a bound on a probability ("P(within 0) < 0.001", QA)
    text = re.sub(r"(?<=\d) < ([0-9][0-9.]*)(?=$|[;,)]| \()", r", below the \1 goal", text)
    text = re.sub(r"(?<=\d) >= ([0-9][0-9.]*)(?=$|[;,)]| \()", r", reaching the \1 goal", text)
    text = re.sub(r"; within ([0-9.e-]+): ", r"; within \1 of the best: ", text)
    text = sentence(text)
    return text if text.endswith(".") else text + "."


def plan_notes(uncertainty: str, notes) -> str:
    """The planner's uncertainty line and notes (lower-case clauses, as the CLI prints them after ``#``) as the page's
    sentences: each capitalised, the scope's code in words (QA 2026-12-03: "... trials there inform them). the
    uniform prior moves ..." on the Plan page).

    >>> plan_notes("questions-fixed: all the uncertainty is trial noise", ["the uniform prior moves 2 means", "N = 1."])
    'Questions fixed: all the uncertainty is trial noise. The uniform prior moves 2 means. N = 1.'
    """
    text = re.sub(r"^questions-(fixed|sampled): ", lambda m: f"Questions {m.group(1)}: ", str(uncertainty).strip())
    return " ".join(t if t.endswith(".") else t + "." for t in map(sentence, (text, *notes)) if t)


def batch_jsonl(rows: list[dict]) -> str:
    """The batch as JSON Lines, one object per row with the CLI's keys (``question_id`` null for pool rows,
    ``expected_gain`` null for rows that link groups sharing no question)."""
    keys = ("model", "task", "question_id", "trials", "expected_gain")
    def plain(value):  # NaN (a row linking groups that share no question: no modelled gain) -> null, as the CLI
        return None if isinstance(value, float) and value != value else value

    return "".join(json.dumps({k: plain(r[k]) for k in keys}) + "\n" for r in rows)


def model_status_display(models: list[dict], *, confidence: float) -> tuple[pd.DataFrame, dict]:
    """One row per model: posterior mean, credible interval, P(best), trials and questions so far."""
    pct = f"{confidence:.0%}"
    frame = pd.DataFrame(models)
    frame = frame[["model", "mean", "lo", "hi", "p_best", "trials", "questions", "missing_questions"]].copy()
    frame["p_best"] = probability_cells(frame["p_best"].to_numpy(float))  # as the Pairwise tab: "<.01", not "0.000"
    config = {
        "model": st.column_config.TextColumn("Model", pinned=True),
        "mean": st.column_config.NumberColumn("Posterior mean", format="%.4f"),
        "lo": st.column_config.NumberColumn(interval_headers(confidence)[0], format="%.4f", help=f"{pct} credible interval, lower end."),
        "hi": st.column_config.NumberColumn(interval_headers(confidence)[1], format="%.4f", help=f"{pct} credible interval, upper end."),
        "p_best": st.column_config.TextColumn(
            "P(best)", alignment="right",
            help="Posterior probability that this model has the highest score: the share of the joint posterior draws "
                 "in which it does; >.99 and <.01 where two decimals would print 1.00 or 0.00 (a share of draws, not "
                 "certainty), as on the Leaderboard's Pairwise tab."),
        "trials": st.column_config.NumberColumn("Trials", format="%d"),
        "questions": st.column_config.NumberColumn("Questions", format="%d", help="Questions answered."),
        "missing_questions": st.column_config.NumberColumn("Missing", format="%d",
                                                           help="Questions of the task this model has not answered."),
    }
    return frame, config
