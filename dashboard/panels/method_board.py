"""The Leaderboard's "Ranking method" choice: the Ranking tab under another method of ``scorio.rank``.

Bayes@N (the default) keeps the page's verdict, interval chart and table. Another method shows its ranking
of the task's binary outcomes beside the Bayes@N ranking (:func:`scorio_core.leaderboard.methods.method_board`):
who moves, a two-column bump chart (:func:`dashboard.figures.schema_bump_chart`), each model's bootstrap rank
interval under the method (questions resampled, :func:`scorio_core.rank.bootstrap.bootstrap_ranks`) unless the
method is too slow to rank 200 resamples here (then the caption says so and names the CLI command), and a caption
that says what the method ranks. Reads the page's context, calls the cached
:func:`dashboard.compute.results.method_bootstrap_for` / :func:`~dashboard.compute.results.method_agreement_for`.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.compute.results import METHOD_BOOT, method_agreement_for, method_bootstrap_for
from dashboard.figures import schema_bump_chart
from dashboard.text import md
from scorio_core.errors import InputError
from scorio_core.leaderboard.methods import method_board
from scorio_core.rank.agreement import METHODS, available_methods, method_label
from scorio_core.rank.bootstrap import quick_to_resample

__all__ = ["KEY", "choose_method", "render_method_ranking"]

#: Session (and URL) key of the choice.
KEY = "lb_method"


def method_options(n_models: int) -> dict[str, str]:
    """Bayes@N first, then every ``scorio.rank`` method affordable for ``n_models``: ``name -> "label (group)"``.

    IRT ability has its own tab (with intervals) and is not offered here.
    """
    options = {"bayes": "Bayes@N (default)"}
    for group, methods in available_methods(n_models).items():
        options.update({name: f"{label} ({group.lower()})" for name, label in methods.items()})
    return options


def choose_method(n_models: int, *, present: bool = False) -> str:
    """The "Ranking method" select box (bound to the URL); ``present``: no widget, Bayes@N."""
    if present:
        return "bayes"  # the presentation view shows the ranking with its credible intervals
    options = method_options(n_models)
    if KEY in st.session_state and st.session_state[KEY] not in options:  # e.g. too many models for a method now
        st.session_state[KEY] = "bayes"
    hidden = [method_label(m) for group in available_methods().values() for m in group if m not in options]
    column, _ = st.columns([1.6, 2.4])
    return column.selectbox(
        "Ranking method", list(options), key=KEY, format_func=options.get, bind="query-params", persist_state="session",
        help="Bayes@N (the default) ranks by posterior mean with credible intervals under the rubric. The other "
             "methods are the reference package's scorio.rank: they rank right/wrong outcomes on the same questions, "
             "shown beside the Bayes@N rank. The Method agreement tab compares many at once."
             + (f" Not offered for {n_models} models (each takes from seconds to minutes at this size; the Method "
                f"agreement tab and the CLI run them when asked): {', '.join(hidden)}." if hidden else ""),
    ) or "bayes"


def render_method_ranking(ctx, task: str, question_set: str, method: str) -> None:
    """The Ranking tab under ``method``: its ranks beside Bayes@N's, a bump chart and what the method ranks."""
    label = method_label(method)
    used_set = "common" if question_set != "own" else "own"
    try:
        report = method_agreement_for(ctx.data.data_id, ctx.data.dataset, task, (method, "bayes"), ctx.prior, used_set)
        board = method_board(report, method)  # raises where the method cannot rank these data
        resample = quick_to_resample(method, len(board), report.n_questions)  # 200 rankings in about 2 s at most
        if resample:
            report = method_bootstrap_for(ctx.data.data_id, ctx.data.dataset, task, (method, "bayes"), ctx.prior,
                                          used_set, ctx.confidence)
            board = method_board(report, method)
    except (InputError, ValueError) as exc:
        st.warning(f"{md(label)} cannot rank these data as they are: {md(exc)} Bayes@N (the default) handles them.",
                   icon=":material/rule:")
        return
    labels = ctx.labels(board["model"])
    shown = board[board["model"].isin(ctx.shown(board["model"]))]
    moved = int((board["change"] != 0).sum()) if "change" in board else 0
    top = board.loc[board["rank"] == 1, "model"].map(labels).tolist()
    with st.container(border=True):
        first = " and ".join(top[:3]) + (f" and {len(top) - 3:d} more" if len(top) > 3 else "")
        st.markdown(f"**Ranked by {md(label)}: {md(first)} {'share' if len(top) > 1 else 'is'} the top rank; "
                    f"{moved:d} of {len(board):d} models rank differently than under Bayes@N.**")
        st.caption(
            f"{md(label[:1].upper() + label[1:])} on {report.n_questions:d} questions x {report.n_trials:d} trials of binary correctness (the "
            f"rubric does not apply: these methods rank right/wrong outcomes); Bayes@N beside it under the "
            f"{md(report.prior)} prior on the same questions. Competition ranks (ties share the best rank). "
            + (f"Rank interval: {ctx.confidence:.0%} percentile bootstrap over questions ({METHOD_BOOT['n_boot']:d} "
               f"resamples, seed {METHOD_BOOT['seed']:d}): it covers the questions-sampled scope (the questions seen as "
               "a sample from a population of questions), not the trial-to-trial noise on these questions. "
               if resample else
               f"This method is too slow to rank {METHOD_BOOT['n_boot']:d} resamples of {len(board):d} models x "
               f"{report.n_questions:d} questions here, so it gives a point ranking without an interval; the command "
               f"line computes one (methods --methods {md(method)} --bootstrap 200). ")
            + "Bayes@N's credible intervals are on the default view." + (" Common questions only." if used_set == "common" else ""))
    failed = report.bootstrap.failed.get(method, 0) if resample and report.bootstrap is not None else 0
    if failed:
        n_boot = report.bootstrap.n_boot
        st.caption(f"{md(label[:1].upper() + label[1:])} could not rank {failed:d} of {n_boot:d} resamples (e.g. no "
                   "finite estimate when a resample lets one model win every comparison); "
                   + (f"its rank intervals come from the other {n_boot - failed:d}, so they describe those resamples "
                      "only and are likely too narrow." if failed < n_boot else "so it has no rank interval here."))
    order_dependent = method in METHODS["Rating systems"]
    for note in report.notes:  # the trial-order note concerns the rating systems only
        if order_dependent or not note.startswith("Counts only"):
            st.caption(md(note))
    bump = pd.concat([pd.DataFrame({"schema": name, "model": shown["model"].map(labels), "rank": shown[col],
                                    "mu": shown["bayes_mean"]}) for name, col in (("Bayes@N", "bayes_rank"), (label, "rank"))])
    st.plotly_chart(schema_bump_chart(bump, schemas=["Bayes@N", label], models=shown["model"].map(labels).tolist()),
                    width="stretch")
    frame = pd.DataFrame({"rank": shown["rank"], "model": shown["model"].map(labels), "score": shown["score"],
                          "Bayes@N rank": shown["bayes_rank"], "change": shown["change"]})
    if "rank_lo" in shown:
        frame.insert(1, "rank interval", [("-" if pd.isna(lo) else f"{int(lo)}-{int(hi)}")
                                          for lo, hi in zip(shown["rank_lo"], shown["rank_hi"])])
    st.dataframe(frame, hide_index=True, width="stretch", height=min(36 * len(frame) + 40, 900),
                 column_config={"score": st.column_config.NumberColumn(format="%.4f", help=f"{label}'s own score "
                                                                       "(higher is better; its scale is the method's)"),
                                "change": st.column_config.NumberColumn(
                                    format="%+d", help="Bayes@N rank minus this method's rank: positive when the "
                                                       "method ranks the model higher.")})
    st.caption("Share links open this choice; the presentation view shows Bayes@N with its credible intervals.")
