"""Leaderboard sections that differ in the presentation view (``&view=present``): the table, the rank distribution's
caption, and the score-vs-cost figure; and what the Leaderboard says that other pages showing the same intervals say
too (the ``prior_pull`` warning, the verdict's few-trials caveat, the loader's notes).

The presentation view is a read-only report for stakeholders (QA F6, F7, F13): no widgets (the figures use the shared
analysis' choices or the defaults), no command lines or repository paths, and a leaderboard table that prints whole
(a static table of fewer columns: Chromium's print of the interactive grid cut its right-hand columns).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.compute.results import model_costs
from dashboard.figures import cost_scatter
from dashboard.panels.charts import chart
from dashboard.tables.chart_text_more import cost_frame, cost_summary
from dashboard.tables.sizes import fit_height
from dashboard.text import code, md, sentence
from scorio_core.choices import prior_label
from scorio_core.leaderboard.table import ALL_TASKS
from scorio_core.ranking.paired import names_phrase
from scorio_core.ranking.posterior_ranks import HELD_PRIOR, WITHIN_GROUPS, rank_draws_note
from scorio_core.report.tables import interval_name

__all__ = ["few_trials_caveat", "printable_board", "render_board_table", "render_prior_pull",
           "render_rank_caption", "render_cost_scatter"]

#: What the ``prior_pull`` warning advises in the app (the core's message says it with the CLI's option).
PRIOR_PULL_ADVICE = (" Choose the *Empirical Bayes (calibrated)* prior in the sidebar to let each model's questions set "
                     "its prior.")


def render_prior_pull(note: dict | None, *, present: bool = False, prefix: str = "") -> None:
    """The Leaderboard's ``prior_pull`` warning (a prior moved a model's mean beyond its interval from its observed
    avg@N), on every page that shows those intervals (Leaderboard, Compare, Tasks).

    Parameters
    ----------
    note : dict or None
        :func:`scorio_core.leaderboard.checks.prior_pull_notice` of the rows the page shows; None: nothing to say.
    present : bool, default False
        The presentation view: no advice about the sidebar (it has none).
    prefix : str, default ""
        Plain text put before the finding (e.g. the task's name on the Tasks page); escaped here.
    """
    if note is None:
        return
    fixed = note["message"] != note["finding"]  # the core advises another prior only for a fixed one
    st.warning(md(prefix + note["finding"]) + ("" if present or not fixed else PRIOR_PULL_ADVICE),
               icon=":material/compress:")


def few_trials_caveat(caveats, table: pd.DataFrame) -> str | None:
    """The verdict's few-trials caveat ("With as few as N = 4 trials per question, posterior means are pulled toward
    the prior mean ..."), as the Markdown and HTML exports and the Export page carry it, or None.

    Parameters
    ----------
    caveats : sequence of str
        ``Verdict.caveats`` of :func:`scorio_core.report.verdict.verdict` for ``table``.
    table : DataFrame
        The leaderboard rows the verdict was computed from (``mu``, ``n_trials``, ``interval``, ``n_questions``).

    Returns
    -------
    str or None
        The caveat among ``caveats`` that :func:`scorio_core.report.caveats._few_trials_caveat` words for ``table``
        (fewer than 5 trials per question), else None.
    """
    from scorio_core.report.caveats import _few_trials_caveat

    scored = table[table["mu"].notna()]
    if "n_trials" not in scored.columns or not len(scored) or int(scored["n_trials"].min()) >= 5:
        return None
    few = _few_trials_caveat(int(scored["n_trials"].min()), scored)
    return next((c for c in caveats if c in (few, few.replace("sharpen the ranking", "narrow the interval"))), None)


def _label(key: str, column) -> str:
    """The header a ``column_config`` entry gives ``key`` (the key itself without a label)."""
    return str(column.get("label") or key) if isinstance(column, dict) else key


def _cell(value, fmt: str | None) -> str:
    """A cell as the interactive grid shows it: its ``printf`` format for numbers, "" for a missing value."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    if fmt and not isinstance(value, str):
        return fmt % (int(value) if fmt.endswith("d") else float(value))
    return str(value)


def printable_board(frame: pd.DataFrame, config: dict, *, interval: str) -> pd.DataFrame:
    """The leaderboard table for the presentation view: the columns ``config`` shows, headed and formatted as in the
    interactive grid, with the interval's two ends in one text column titled ``interval`` (e.g. "95% credible
    interval": "[0.512, 0.634]"), so the table fits an A4 page.

    Parameters
    ----------
    frame, config : DataFrame, dict
        :func:`dashboard.tables.display.leaderboard_display`'s output (``None`` entries are hidden columns).
    interval : str
        The header of the interval column (:func:`scorio_core.report.tables.interval_name`).

    Returns
    -------
    DataFrame of str, one column per shown column.
    """
    out = {}
    for key in frame.columns:
        column = config.get(key, {})
        if column is None or key == "hi":
            continue
        if key == "lo":
            out[interval] = [f"[{lo:.3f}, {hi:.3f}]" if pd.notna(lo) and pd.notna(hi) else ""
                             for lo, hi in zip(frame["lo"], frame["hi"])]
            continue
        fmt = (column.get("type_config") or {}).get("format") if isinstance(column, dict) else None
        out[_label(key, column)] = [_cell(v, fmt) for v in frame[key]]
    return pd.DataFrame(out)


def render_board_table(frame: pd.DataFrame, config: dict, *, present: bool, interval: str) -> None:
    """The leaderboard table: the interactive grid, or in the presentation view a static table that prints whole."""
    if present:
        st.table(printable_board(frame, config, interval=interval), hide_index=True)
    else:
        st.dataframe(frame, column_config=config, hide_index=True, width="stretch", height=fit_height(len(frame), 900))


def render_rank_caption(ctx, *, draws: int, metric: str, metric_label: str, uncertain_prior, present: bool,
                        n_groups: int = 0) -> None:
    """The Rank distribution's caption; the presentation view leaves out the command line (QA F7); with ``n_groups``
    (two or more groups of models that share no question) it says the ranks are within each group."""
    if n_groups > 1:
        st.warning(md(f"The models fall into {n_groups} groups that share no question (rows grouped, group 1 first, "
                      f"as the table's Group column): a rank across groups would compare the question sets as much "
                      f"as the models. {WITHIN_GROUPS}"), icon=":material/link_off:")
    st.caption(
        f"Probability that each model holds each rank, from {draws:,} joint draws of the per-question Dirichlet "
        f"posteriors of Bayes@N under the {'shared analysis' if present else 'sidebar'}'s prior "
        f"({md(prior_label(ctx.prior, ctx.task == ALL_TASKS))}; "
        f"exact, no normal approximation; seed 0; Monte Carlo error at most {0.5 / draws ** 0.5:.1%}). It ranks "
        "Bayes@N under the active rubric" + (f", not {md(metric_label)}" if metric != "bayes" else "") + "."
        + (f" {md(sentence(HELD_PRIOR))}." if ctx.prior == "empirical-bayes" else "")
        + (f" The prior is not identified for {md(names_phrase(uncertain_prior))} (too few repeated trials, or every "
           "trial in one category): their draws are a Beta with their leaderboard row's estimate and sd."
           if uncertain_prior else "")
        + ("" if present else f" CLI: `python -m scorio_core ranks DATA --prior {code(ctx.prior)} --output json`.")
        + (" " + md(rank_draws_note(draws)) + "." if rank_draws_note(draws) else ""))


def render_cost_scatter(ctx, table: pd.DataFrame, costs, *, metric_label: str, present: bool) -> None:
    """The Score vs cost figure; in the presentation view without its column picker and scale toggle (the shared
    analysis' choice, else the first cost column on a log scale)."""
    columns = [c.column for c in costs]
    if present:
        column = st.session_state.get("lb_cost") if st.session_state.get("lb_cost") in columns else columns[0]
        log_x = bool(st.session_state.get("lb_cost_log", True))
    else:
        c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
        column = c1.selectbox("Cost or token column", columns, key="lb_cost",
                              format_func=lambda c: next(o.description for o in costs if o.column == c),
                              bind="query-params", persist_state="session")
        log_x = c2.toggle("Log scale", value=True, key="lb_cost_log", persist_state="session")
    result = model_costs(ctx.data.data_id, ctx.data.dataset, ctx.task, column)
    chart(cost_scatter(table, result.values, x_title=result.column.description, metric_label=metric_label,
                       confidence=ctx.confidence, log_x=log_x),
          cost_summary(table, result.values, x_title=result.column.description, log_x=log_x),
          cost_frame(table, result.values, x_title=result.column.description, log_x=log_x), key="lb_cost_chart")
    st.caption(f"x: {md(result.column.description)} ({result.column.how})"
               + (", log scale" if present and log_x else "") + ". "
               f"y: the mean with its {md(interval_name(table, ctx.confidence))}; the x value carries no uncertainty here.")
    if result.left_out:
        st.caption(md(result.left_out_note))
