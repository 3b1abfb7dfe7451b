"""Data-page widgets: grid filters, the outcome grids and the attempt inspector."""

from __future__ import annotations

from functools import partial

import streamlit as st

from dashboard.panels.attempts import LONG, render_attempts, render_long_fields
from dashboard.compute.results import leaderboard_table, question_attempts_for
from dashboard.compute.explore import MAX_QUESTIONS, ORDERS, attempt_signals, grid_view
from dashboard.figures import rate_grid, trial_grid
from dashboard.panels.charts import chart
from dashboard.tables.chart_text_data import rate_grid_frame, rate_grid_summary, trial_grid_frame, trial_grid_summary
from dashboard.guard import user_errors
from dashboard.tables.sizes import fit_height
from dashboard.text import md
from scorio_core.leaderboard.drilldown import TEXT_FIELDS

__all__ = ["render_outcomes", "MAX_PANELS"]

#: Most models drawn side by side in the per-trial grid.
MAX_PANELS = 6
_CHART = "data_trial_grid"


def _cell(custom) -> tuple[int, int, int] | None:
    """``(model, question, trial)`` indexes from a point's customdata (a list, or a dict keyed "0".."2")."""
    if isinstance(custom, dict):
        custom = [custom.get(str(i), custom.get(i)) for i in range(3)]
    try:
        mi, qi, ti = (int(v) for v in list(custom)[:3])
    except (TypeError, ValueError):
        return None
    return mi, qi, ti


def _on_cell(models: tuple[str, ...], questions: tuple[str, ...]) -> None:
    """A click on the trial grid selects that attempt in the inspector."""
    points = (st.session_state.get(_CHART) or {}).get("selection", {}).get("points", [])
    for point in points:
        cell = _cell(point.get("customdata"))
        if cell is None:
            continue
        mi, qi, ti = cell
        if 0 <= mi < len(models) and 0 <= qi < len(questions):
            st.session_state["data_inspect_model"] = models[mi]
            st.session_state["data_inspect_question"] = questions[qi]
            st.session_state["data_inspect_trial"] = ti + 1
            return


def _filters(all_models: list[str], data_id: str) -> tuple[tuple[str, ...], bool, str]:
    default = all_models[: min(len(all_models), 20)]
    current = st.session_state.get("data_models")
    if st.session_state.get("_data_models_for") != data_id:  # other data: its own models (QA: a new upload sharing
        current = None                                         # one name with the demo showed 1 of its 2 models)
        st.session_state["_data_models_for"] = data_id
    if current is None or not set(current) <= set(all_models):
        st.session_state["data_models"] = [m for m in (current or []) if m in all_models] or default
    left, mid, right = st.columns([3, 1.3, 1.2], vertical_alignment="bottom")
    models = left.multiselect("Models", all_models, key="data_models", persist_state="session",
                              help="Best first (Bayes@N). The trial grid shows the first six.")
    only = mid.toggle("Disagreements only", key="data_disagree", bind="query-params",
                      persist_state="session", help="Keep only questions whose pass rates differ between the selected models.")
    order = right.selectbox("Question order", ORDERS, key="data_order", bind="query-params", persist_state="session")
    return tuple(models), bool(only), order


def render_outcomes(ctx, active) -> None:
    """Filters, the pass-rate grid, the per-trial grid (attempt data) and the inspector."""
    data = ctx.data
    with user_errors("the per-question grids"):
        board = leaderboard_table(data.data_id, data.dataset, ctx.task, metric="bayes", confidence=ctx.confidence,
                                  rubric_id=active.rubric_id, _categorization=active.categorization)
    models, only, order = _filters([str(m) for m in board["model"]], data.data_id)
    if not models:
        st.info("Select at least one model.")
        return
    view = grid_view(data.data_id, data.dataset, ctx.task, models, only, order, active.rubric_id, active.categorization)
    if not view.questions:
        st.info("No question matches the filter: the selected models agree on every question.")
        return
    shown = f"{len(view.questions)} of {view.n_questions_total}" if view.n_questions_total > len(view.questions) else f"{len(view.questions)}"
    plural = "" if view.n_questions_total == 1 else "s"
    of = f" of {len(board):,}" if len(board) > len(models) else ""  # QA: "20 models" read as all of 250
    st.markdown(f"**Per-question results** · {shown} question{md(plural)} · {len(models)}{md(of)} model"
                f"{'' if len(models) == 1 and not of else 's'}" + (" (choose others under *Models*)" if of else ""))
    if view.n_questions_total > MAX_QUESTIONS:
        st.caption(f"Showing the first {MAX_QUESTIONS} questions in this order; pick a task or filter to see others.")
    chart(rate_grid(view.models, view.questions, view.rates, view.correct, view.trials, binary=view.binary),
          rate_grid_summary(view.models, view.questions, view.rates, binary=view.binary),
          rate_grid_frame(view.models, view.questions, view.rates, view.correct, view.trials, binary=view.binary),
          key="data_rate_grid")
    if data.dataset.attempts is None or view.codes is None:
        st.info("Counts only: the data gives correct trials out of N per question, so the order of trials is unknown "
                "and there is no per-trial grid. Cells strictly between red and blue are flaky (0 < pass rate < 1).",
                icon=":material/info:")
        return
    st.caption("Cells strictly between red and blue are flaky questions for that model (0 < pass rate < 1).")
    panel = view.models[:MAX_PANELS]
    st.markdown(f"**Every trial, coloured by rubric category** ({md(active.name)})")
    if len(view.models) > MAX_PANELS:
        st.caption(f"Showing the first {MAX_PANELS} selected models; deselect some to see others.")
    fig = trial_grid(panel, view.questions, view.codes[: len(panel)], view.labels, view.weights, view.rates[: len(panel)])
    chart(fig, trial_grid_summary(panel, view.questions, view.codes[: len(panel)], view.labels, view.rates[: len(panel)]),
          trial_grid_frame(panel, view.questions, view.codes[: len(panel)], view.labels), key=_CHART,
          on_select=partial(_on_cell, panel, view.questions), selection_mode="points")
    st.caption("Diamonds mark flaky questions. Click a cell (or choose below) to see that attempt's signals.")
    _inspector(ctx, active, view)


def _inspector(ctx, active, view) -> None:
    st.markdown("**Inspect one attempt**")
    for key, options in (("data_inspect_model", view.models), ("data_inspect_question", view.questions)):
        if st.session_state.get(key) not in options:
            st.session_state[key] = options[0]
    n_max = int(view.trials.max()) if view.trials.size else 1
    if not 1 <= int(st.session_state.get("data_inspect_trial", 1)) <= max(n_max, 1):
        st.session_state["data_inspect_trial"] = 1
    c1, c2, c3 = st.columns([2, 2, 1])
    model = c1.selectbox("Model", view.models, key="data_inspect_model")
    question = c2.selectbox("Question", view.questions, key="data_inspect_question")
    trial = c3.number_input("Attempt (1 = first)", min_value=1, max_value=max(n_max, 1), step=1,
                            key="data_inspect_trial",
                            help="The attempt's position in trial order (1 is the first); the trial number stored in "
                                 "the data (0 or 1 for the first, as the dump numbers them) is the 'trial' field below.")
    signals = attempt_signals(ctx.data.data_id, ctx.data.dataset, ctx.task, model, question, int(trial) - 1,
                              active.rubric_id, active.categorization)
    if signals.empty:
        st.caption("No scored attempt at this position (the model has fewer trials on this question).")
    else:
        long = signals["field"].isin(TEXT_FIELDS) | (signals["value"].str.len() > LONG)
        short = signals[~long]
        st.dataframe(short, hide_index=True, width="stretch", height=fit_height(len(short), 520),
                     column_config={"field": st.column_config.TextColumn("Field", width="small"),
                                    "value": st.column_config.TextColumn("Value", width="large")})
        render_long_fields(list(zip(signals["field"][long], signals["value"][long])))
    if st.toggle("Every attempt of the selected models on this question", key="data_question_attempts",
                 help="The drill-down table: each trial's outcome, score, rubric category and the dump's fields."):
        with user_errors("the attempts"):
            attempts = question_attempts_for(ctx.data.data_id, ctx.data.dataset, ctx.task, question, view.models,
                                             active.rubric_id, active.categorization)
            render_attempts(attempts, key="data_attempt", caption_rubric="category" in attempts.columns)
