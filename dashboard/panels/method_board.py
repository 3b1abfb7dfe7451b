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
from dashboard.panels.charts import chart
from dashboard.tables.chart_text_more import bump_summary
from dashboard.tables.sizes import fit_height
from dashboard.state.url import relabel_param
from dashboard.text import md
from scorio_core.errors import InputError
from scorio_core.leaderboard.methods import QUESTION_SET_SENTENCES, method_board
from scorio_core.rank.agreement import METHODS, available_methods, method_label
from scorio_core.rank.bootstrap import quick_to_resample
from scorio_core.rank.options import method_option_names, parse_method_options

__all__ = ["KEY", "OPTIONS_KEY", "choose_method", "choose_method_options", "render_method_ranking"]

#: Session (and URL) key of the choice.
KEY = "lb_method"
#: Session (and URL) key of the chosen method's options, ``KEY=VALUE; KEY=VALUE`` (the CLI's ``--method-option``).
OPTIONS_KEY = "lb_method_options"
_OPTIONS_FOR = "_lb_method_options_for"
#: Every method name (a link may name one the current data does not offer).
METHOD_NAMES = frozenset(m for group in METHODS.values() for m in group)


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
    raw = st.query_params.get(KEY)
    if raw is not None and raw not in options.values():  # the URL carries the label the box shows
        if raw in options:  # a method's name, as the CLI spells it (--method bradley_terry): read as its label
            relabel_param(KEY, options[raw])
        else:
            del st.query_params[KEY]
            st.warning(md(f"The link names the ranking method {raw!r}, which is not offered here"
                          + (f" for {n_models} models" if raw in METHOD_NAMES else "")
                          + ": the ranking below is Bayes@N's. Choose a method in the box."), icon=":material/link_off:")
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


def _text(value) -> str:
    """An option's default as the text the options box reads back (``none``, ``true``, ``0.01,0.99``)."""
    if value is None or isinstance(value, bool):
        return str(value).lower()
    return ",".join(f"{v:g}" for v in value) if isinstance(value, tuple) else str(value)


def choose_method_options(method: str) -> dict | None:
    """The "Method options" box of the chosen method (bound to the URL): the options, or None if unreadable.

    The text is ``KEY=VALUE`` entries separated by ``;``, read by :func:`scorio_core.rank.options.parse_method_options`
    (typed by the option's default, never evaluated), as the CLI's ``leaderboard --method NAME --method-option``.
    Choosing another method empties the box (its options are that method's). Text that cannot be read gets a
    warning with the parser's message (which names the option and lists the method's options) and None.
    """
    defaults = method_option_names(method) if method != "bayes" else {}
    if not defaults:
        return {}
    if st.session_state.get(_OPTIONS_FOR, method) != method:  # another method was chosen: its own defaults
        st.session_state[OPTIONS_KEY] = ""
    st.session_state[_OPTIONS_FOR] = method
    listed = "; ".join(f"{k}={_text(v)}" for k, v in defaults.items())
    column, _ = st.columns([1.6, 2.4])
    text = column.text_input(
        "Method options", key=OPTIONS_KEY, placeholder=listed, bind="query-params", persist_state="session",
        help=f"KEY=VALUE entries separated by ';' (the reference's keyword options, e.g. {next(iter(defaults))}=...). "
             f"Empty: the defaults ({listed}). The same as the command line's --method-option KEY=VALUE.")
    pairs = [part.strip() for part in (text or "").split(";") if part.strip()]
    try:
        return parse_method_options(method, pairs)
    except InputError as exc:
        st.warning(f"The method options cannot be read: {md(exc)} Fix them, or empty the box for the method's "
                   "defaults.", icon=":material/rule:")
        return None


def render_method_ranking(ctx, task: str, question_set: str, method: str, options: dict | None = None) -> None:
    """The Ranking tab under ``method`` (with ``options``): its ranks beside Bayes@N's, a bump chart and what the
    method ranks."""
    label = method_label(method)
    used_set = question_set  # the leaderboard's choice: own, common, or missing counts as incorrect
    frozen = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in (options or {}).items()))
    given = "; ".join(f"{k}={_text(v)}" for k, v in frozen)
    try:
        report = method_agreement_for(ctx.data.data_id, ctx.data.dataset, task, (method, "bayes"), ctx.prior, used_set,
                                      ((method, frozen),) if frozen else ())
        board = method_board(report, method)  # raises where the method cannot rank these data
        # 200 rankings in about 2 s at most (with options, one fit per resample)
        resample = quick_to_resample(method, len(board), report.n_questions, with_options=bool(frozen))
        if resample:
            report = method_bootstrap_for(ctx.data.data_id, ctx.data.dataset, task, (method, "bayes"), ctx.prior,
                                          used_set, ctx.confidence, ((method, frozen),) if frozen else ())
            board = method_board(report, method)
    except (InputError, ValueError) as exc:
        if frozen:
            st.warning(f"{md(label)} cannot rank these data with the options {md(given)}: {md(exc)} Change the "
                       "options or empty the box for the defaults.", icon=":material/rule:")
        else:
            st.warning(f"{md(label)} cannot rank these data as they are: {md(exc)} Bayes@N (the default) handles "
                       "them.", icon=":material/rule:")
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
            + "Bayes@N's credible intervals are on the default view." + md(QUESTION_SET_SENTENCES.get(used_set, ""))
            + (f" Method options: {md(given)} (the others at their defaults)." if frozen else ""))
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
    drawn = shown["model"].map(labels).tolist()
    chart(schema_bump_chart(bump, schemas=["Bayes@N", label], models=drawn),
          bump_summary(bump, ["Bayes@N", label], drawn), key="lb_method_bump")  # the table below holds the ranks
    frame = pd.DataFrame({"rank": shown["rank"], "model": shown["model"].map(labels), "score": shown["score"],
                          "Bayes@N rank": shown["bayes_rank"], "change": shown["change"]})
    if "rank_lo" in shown:
        frame.insert(1, "rank interval", [("-" if pd.isna(lo) else f"{int(lo)}-{int(hi)}")
                                          for lo, hi in zip(shown["rank_lo"], shown["rank_hi"])])
    st.dataframe(frame, hide_index=True, width="stretch", height=fit_height(len(frame), 900),
                 column_config={"score": st.column_config.NumberColumn(format="%.4f", help=f"{label}'s own score "
                                                                       "(higher is better; its scale is the method's)"),
                                "change": st.column_config.NumberColumn(
                                    format="%+d", help="Bayes@N rank minus this method's rank: positive when the "
                                                       "method ranks the model higher.")})
    st.caption("Share links open this choice; the presentation view shows Bayes@N with its credible intervals.")
