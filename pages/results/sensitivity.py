"""Sensitivity: does the ranking depend on the rubric? (paper Figure 7, Appendix F)"""

import streamlit as st

from scorio_core.choices import prior_label, unfitted_share
from scorio_core.leaderboard.task_outcomes import ALL_TASKS
from scorio_core.uncertainty import interval_label

from dashboard.panels import rubric as rubric_panel
from dashboard.state import rubric as rubric_state
from dashboard.state.session import choices_phrase
from dashboard.compute.results import models_of
from dashboard.compute.store import progress_to
from dashboard.panels.charts import chart
from dashboard.tables.analysis import (bump_frame, drivers_display, groups_warning, leader_summary, models_by_rank,
                                      perturbation_order, stability_display)
from dashboard.tables.chart_text_more import bump_summary, bump_table, rank_share_frame, rank_share_summary
from dashboard.figures import rank_share_heatmap, schema_bump_chart
from dashboard.guard import blocking_notice
from dashboard.compute.sensitivity import (
    default_comparison,
    default_perturbation,
    follow_active_rubric,
    frozen_thresholds,
    perturbation,
    ranks_across_schemata,
    rubric_choice_matters,
    schema_applicability,
    schema_options,
    unused_signals,
)
from dashboard.panels.sidebar import page_context
from dashboard.panels.trial_order import trial_position_warning
from dashboard.text import code, md
from dashboard.state.widgets import ensure, ensure_choice, ensure_subset, top_models
from scorio_core.errors import InputError
from scorio_core.sensitivity.schemata import GRADED_LACK
from scorio_core.ranking.rank import DEFAULT_TIE_RULE, tie_rule_sentence

RUBRICS = (100, 200, 500, 1000, 2000, 5000)

ctx = page_context()
if ctx is None:
    st.stop()

st.title("Rubric sensitivity")
active = rubric_state.active_rubric(ctx)
st.caption(f"{md(ctx.data.label)} · task: {md(ctx.task)}{md(choices_phrase(ctx.data.key))} · rubric: {md(active.summary)}")
rubric_panel.render_unmatched(ctx, active, choose=False)
st.markdown(
    "A rubric maps every attempt to a category and weights the categories. Different, equally "
    "reasonable rubrics can order models differently; this page shows how much the ranking depends on that choice."
)
if blocking_notice(ctx.data.dataset):
    st.stop()
if len(models_of(ctx.data.data_id, ctx.data.dataset, ctx.task)) < 2:  # before any schema or signal list
    st.info("Ranking needs at least 2 models; this data has one on this task, so no rubric can change an order. "
            "Load a dump with two or more models, or pick a task that has them.", icon=":material/info:")
    st.stop()
if ctx.data.dataset.attempts is None:
    st.info(
        "This dataset has counts only (n_trials, n_correct per question): there are no attempt-level signals such as "
        "boxed answers, token counts or verifier scores, so binary correctness is the only rubric that applies and there "
        "is nothing to compare. Pick an attempt-level dataset with signals, e.g. *Paper simulation*.",
        icon=":material/info:",
    )
    st.stop()
trial_position_warning(ctx)  # every schema's Bayes@N assumes exchangeable trials
options = schema_options(active, ctx.data.dataset.attempts)
try:
    names, skipped = schema_applicability(ctx, options)
except InputError as exc:
    st.error(f"The rubric signals of this data cannot be read: {md(exc)}", icon=":material/error:")
    st.stop()
if skipped:
    with st.expander(f"Schemata this data cannot support ({len(skipped)}): signals missing"):
        for item in skipped:
            st.markdown(f"- **{md(item.schema)}**: needs {md(', '.join(item.missing))}")
        if any(GRADED_LACK in item.missing for item in skipped):  # partial credit: the 0/1 schemata would drop attempts
            st.caption("Graded attempts carry a score and no 0/1 outcome, so a schema that reads correctness only would "
                       "rank the models on their other attempts. Rubrics that read the score are compared instead; a "
                       "threshold on the Data page binarizes the score and brings these schemata back.")

st.header("Ranks across schemata")
follow_active_rubric(active, names, options)
ensure_subset("sens_schemas", names, default_comparison(names, options, active))
ensure("sens_ci", False)
picked = st.multiselect("Schemata", names, key="sens_schemas", persist_state="session",
                        help="Only schemata whose signals exist in the data are offered.")
left, right = st.columns([1, 3])
with_ci = left.toggle(f"With {ctx.confidence:.0%} CI ties", key="sens_ci", persist_state="session",
                      help=tie_rule_sentence(DEFAULT_TIE_RULE))
if not picked:
    st.info("Pick at least one schema.", icon=":material/info:")
else:
    try:
        across = ranks_across_schemata(ctx, [options[n] for n in picked], tie_rule=DEFAULT_TIE_RULE)
    except (InputError, ValueError) as exc:
        st.error(f"The schemata cannot be compared: {md(exc)}", icon=":material/error:")
        st.stop()
    models = models_by_rank(across.models, across.mu[0])
    ensure_subset("sens_highlight", models, [])
    if ctx.models and st.session_state.get("_sens_filter") != ctx.models:  # the sidebar's model filter highlights
        st.session_state["sens_highlight"] = ctx.shown(models)
        st.session_state["_sens_filter"] = ctx.models
    highlight = right.multiselect("Highlight models", models, key="sens_highlight", persist_state="session",
                                  placeholder="All models in colour")
    if len(models) < 2:
        st.info("Ranking needs at least 2 models; this data has one on this task.", icon=":material/info:")
        st.stop()
    if len(across.schemas) >= 2:
        # hundreds of lines: the best under the first schema by default (ranks stay among all)
        drawn = top_models("sens_top", models, where=left,
                           help="The best models under the first schema; ranks are among all models.")
        frame = bump_frame(across, with_ci=with_ci)
        drawn_frame = frame[frame["model"].isin(drawn)]
        chart(schema_bump_chart(drawn_frame, schemas=across.schemas, models=drawn,
                                highlight=[m for m in highlight if m in drawn],
                                rank_label=f"rank with {ctx.confidence:.0%} CI ties" if with_ci else "competition rank"),
              bump_summary(drawn_frame, across.schemas, drawn), bump_table(drawn_frame, across.schemas, drawn),
              key="sens_bump")
        if len(drawn) < len(models):
            st.caption(f"The chart shows the top {len(drawn):d} of {len(models):d} models under "
                       f"{md(across.schemas[0])}; ranks are among all of them.")
    elif len(names) > 1:  # one column of ranks shows no crossing: the Leaderboard has them
        st.info("Pick a second schema: the chart shows how each model's rank moves from one schema to the next.",
                icon=":material/info:")
    elif rubric_choice_matters(names, options):  # e.g. category codes: no built-in schema reads them (helper QA)
        st.info(f"Only {md(names[0])} applies to these data (the built-in schemata need signals they lack), so "
                "there is no second schema to compare it with. *Rank stability under perturbation* below shows how "
                "much its weights and thresholds matter; another weighting is an edit on the Rubric page.",
                icon=":material/info:")
    unfitted = unfitted_share(len(across.fell_back), len(across.models))
    st.caption(f"Bayes@N ({md(prior_label(ctx.prior, ctx.task == ALL_TASKS, unfitted))}) under each schema's categories "
               "and weights; thresholds are percentiles of this data."
               + (" Lines that cross mark models whose order depends on the rubric." if len(across.schemas) >= 2 else ""))
    for note in across.notes:
        st.caption(md(note))

signals = rubric_state.available_signals(ctx.data.data_id, ctx.data.dataset, ctx.task)
extra = unused_signals(signals, names, options)
if not rubric_choice_matters(names, options):
    rubric_panel.render_signals(ctx, expanded=bool(extra))
    if extra:
        st.info(f"Of the built-in schemata only binary correctness applies here, but this data has {len(extra):d} more "
                f"numeric or boolean signals no schema reads: {md(', '.join(extra[:12]))}"
                f"{' and more' if len(extra) > 12 else ''}. Write a rubric that uses them on the Rubric page (for example "
                f"`is_correct == 1 and {code(extra[0])} < ...`); the active rubric then joins the comparison above and can "
                "be perturbed here.", icon=":material/info:")
    else:
        st.info("Only binary correctness applies to this data (it has no other numeric or boolean attempt signals), so "
                "the ranking cannot depend on a rubric here. Datasets with signals such as boxed answers, token counts, "
                "bits per token or verifier scores (e.g. *Paper simulation*) unlock the other schemata.",
                icon=":material/info:")
    st.stop()

st.header("Rank stability under perturbation")
st.markdown("Random rubrics around one schema: every non-zero weight scaled by an independent factor in "
            "[1 - r, 1 + r], every percentile threshold moved by up to d percentile points. Which ranks hold?")
ensure_choice("sens_target", names, default_perturbation(names, options, active))
ensure("sens_weight_range", 0.2)
ensure("sens_shift", 5.0)
ensure_choice("sens_n", RUBRICS, 200)
ensure("sens_seed", 0)
cols = st.columns([2.2, 1.4, 1.4, 1.4, 0.8])
target = cols[0].selectbox("Schema to perturb", names, key="sens_target", persist_state="session")
weight_range = cols[1].slider("Weights +/- (r)", 0.0, 0.5, step=0.05, key="sens_weight_range", persist_state="session",
                              format="%.2f", help="Each weight is multiplied by U(1 - r, 1 + r); a zero weight stays zero.")
shift = cols[2].slider("Thresholds +/- d (points)", 0.0, 20.0, step=1.0, key="sens_shift",
                       persist_state="session", help="Each percentile threshold moves by U(-d, d) percentile points, within 0..100.")
n = cols[3].select_slider("Perturbed rubrics", RUBRICS, key="sens_n", persist_state="session")
seed = cols[4].number_input("Seed", min_value=0, step=1, key="sens_seed", persist_state="session")

bar = st.empty()
try:
    result = perturbation(ctx, options[target], n=int(n), weight_range=float(weight_range), threshold_shift=float(shift),
                          seed=int(seed), frozen=frozen_thresholds(active, options[target]),
                          on_progress=progress_to(bar, "Scoring perturbed rubrics..."))
except (InputError, ValueError) as exc:
    st.error(f"The perturbation cannot be computed: {md(exc)}", icon=":material/error:")
    st.stop()
bar.empty()

apart = groups_warning(result)
if apart:
    st.warning(md(apart), icon=":material/warning:")
m1, m2, m3 = st.columns(3)
m1.metric("Leader (unperturbed)" if not result.groups else "Leader (unperturbed, largest group)", result.leader)
m2.metric("Leader keeps rank 1", f"{result.leader_kept:.0%}", help=f"Share of the {result.n} perturbed rubrics.")
m3.metric("Parameters perturbed", len(result.parameters))
order = perturbation_order(result)
index = [result.models.index(m) for m in order]
chart(rank_share_heatmap(order, result.rank_share[index], result.base_ranks[index], n_rubrics=result.n),
      rank_share_summary(order, result.rank_share[index], result.base_ranks[index], n_rubrics=result.n),
      rank_share_frame(order, result.rank_share[index], result.base_ranks[index]), key="sens_heatmap")
st.caption("Each row: the share of perturbed rubrics in which the model holds each rank (ties share the better rank). "
           "Orange squares: its rank under the unperturbed schema.")

st.markdown("**Which rubric choices flip the leader**")
st.markdown(md(leader_summary(result)))
drivers, driver_config = drivers_display(result)
if drivers.empty:
    st.info("This schema has nothing to perturb (no non-zero weight or percentile threshold).", icon=":material/info:")
else:
    st.dataframe(drivers, column_config=driver_config, hide_index=True, width="stretch")
    st.caption("Leader change rates compare perturbed rubrics where the parameter sits in the low or high third of its "
               "range; the smallest change moves that parameter alone until another model catches the leader.")
stability = st.expander("Per-model stability", key="sens_stability", on_change="rerun")
with stability:
    if stability.open:  # a table drawn only when opened (first paint: issue 36)
        frame, config = stability_display(result)
        st.dataframe(frame, column_config=config, hide_index=True, width="stretch")
with st.expander("What this view assumes"):
    for text in result.assumptions + result.notes:
        st.markdown(f"- {md(text)}")
    st.markdown("- Credible intervals and CI ties cover the uncertainty from the finite number of trials, not the "
                "choice of rubric: this page is the place to see the latter.")
    st.markdown(f"- Bayes@N under each schema uses the sidebar's prior and scope: {md(interval_label(ctx.prior, ctx.scope, ctx.confidence))} "
                "(the empirical-Bayes prior is fitted per model and schema, and refitted when a perturbed threshold "
                "changes the categories; a weight change leaves the fit as it is).")

rubric_panel.render_signals(ctx)  # the same list as the Rubric page
