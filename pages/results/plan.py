"""Plan: what to run next, and when to stop (issue 39): the planner's next batch, its stopping rule, a projection."""

import streamlit as st

from dashboard.compute.plan import goal_projection, next_batch
from dashboard.compute.results import cost_options, models_of
from dashboard.figures import goal_projection_plot
from dashboard.guard import blocking_notice, user_errors
from dashboard.panels import rubric as rubric_panel
from dashboard.panels.sidebar import page_context
from dashboard.panels.trial_order import trial_position_warning
from dashboard.state import rubric as rubric_state
from dashboard.state.session import choices_phrase
from dashboard.state.widgets import follow_default
from dashboard.panels.charts import chart
from dashboard.tables.sizes import fit_height
from dashboard.tables.chart_text_more import projection_frame, projection_summary
from dashboard.tables.plan import GAIN_MEANING, batch_display, batch_frame, batch_jsonl, model_status_display, plan_notes, plan_sentence
from dashboard.text import md, sentence
from scorio_core.choices import PLAN_GOAL_HELP, PLAN_GOALS, PRIOR_LABELS, SCOPE_LABELS
from scorio_core.report.tables import to_csv
from scorio_core.leaderboard.task_outcomes import ALL_TASKS
from scorio_core.leaderboard.trial_order import STOP_ASSUMES_EXCHANGEABLE
from scorio_core.plan import ONE_TASK
from scorio_core.plan.goals import format_draw_probability
from scorio_core.plan.prior_fit import default_plan_prior

GOAL_LABELS = {"top-1": "Find the best model", "top-k": "Find the top k", "ranking": "Order every model",
               "pair": "Separate two models", "width": "Narrow every interval"}
CONFIDENCES = [0.8, 0.9, 0.95, 0.99]
#: The planner's priors, its default first (see the widget's help); short labels fit the narrow column.
PLAN_PRIORS = {"uniform": "Uniform (paper)", "jeffreys": "Jeffreys", "empirical-bayes": "Empirical Bayes"}

ctx = page_context()
if ctx is None:
    st.stop()

st.title("Plan")
active = rubric_state.active_rubric(ctx)
st.caption("What to run next: from the results so far, the trials (model and question) that most reduce the chance of a "
           "wrong answer to your question per unit cost, and whether you can stop. "
           f"{md(ctx.data.label)} · task: {md(ctx.task)}{md(choices_phrase(ctx.data.key))} · {md(SCOPE_LABELS.get(ctx.scope, ctx.scope))}")
if blocking_notice(ctx.data.dataset):
    st.stop()
rubric_panel.render_unmatched(ctx, active, choose=False)
data_id, dataset, task = ctx.data.data_id, ctx.data.dataset, ctx.task
if task == ALL_TASKS:
    st.info(f"{md(sentence(ONE_TASK))}. Pick one task in the sidebar's Task selector.", icon=":material/info:")
    st.stop()
models = [str(m) for m in models_of(data_id, dataset, task)]

left, mid, right = st.columns([1.4, 1.6, 1])
goal = left.selectbox("Goal", list(PLAN_GOALS), format_func=GOAL_LABELS.get, key="plan_goal", bind="query-params",
                      persist_state="session", help="\n".join(f"- **{GOAL_LABELS[g]}** ({g}): {PLAN_GOAL_HELP[g]}"
                                                              for g in PLAN_GOALS))
options = {"goal": goal}
if goal != "width" and len(models) < 2:
    st.info(f"*{md(GOAL_LABELS[goal])}* compares models; this task has {len(models):d}. With one model, *Narrow every "
            "interval* still plans its next trials; load more models to compare them.", icon=":material/info:")
    st.stop()
if goal == "top-k":
    if len(models) < 3:
        st.info(f"Finding the top k needs at least three models (k between 1 and L - 1); this task has {len(models):d}. "
                "Choose *Find the best model* or load more models.", icon=":material/info:")
        st.stop()
    options["k"] = int(mid.number_input("k", min_value=1, max_value=len(models) - 1, value=min(3, len(models) - 1),
                                        step=1, key="plan_k", help="Size of the top set."))
elif goal == "pair":
    if len(models) < 2:
        st.info("Separating two models needs two models; this task has one.", icon=":material/info:")
        st.stop()
    a_col, b_col = mid.columns(2)
    first = a_col.selectbox("Model A", models, index=0, key="plan_a")
    second = b_col.selectbox("Model B", [m for m in models if m != first], index=0, key="plan_b")
    options["pair"] = (first, second)
elif goal == "width":
    options["width"] = float(mid.number_input("Interval width", min_value=0.001, max_value=1.0, value=0.05, step=0.01,
                                              format="%.3f", key="plan_width",
                                              help="Stop when every model's credible interval is narrower than this."))
if goal != "width":
    options["tolerance"] = float(mid.number_input(
        "Tie tolerance", min_value=0.0, max_value=0.5, value=0.01, step=0.005, format="%.3f", key="plan_tolerance",
        help="Models closer than this (at the confidence) are not worth separating: a pair is declared tied, and the "
             "best model may be any within this distance of the best (0: strict)."))
confidence = right.select_slider("Confidence", CONFIDENCES, value=0.95, format_func=lambda c: f"{c:.0%}",
                                 key="plan_confidence", help="Posterior probability the goal must reach to stop.")
left, mid, right, last = st.columns([1.2, 1.6, 1.2, 0.8])
batch = int(left.number_input("Trials in the next batch", min_value=1, max_value=1_000_000, value=200, step=50,
                              key="plan_batch", help="How many trials your next run may spend."))
costs = cost_options(data_id, dataset, task)
cost_names = [None] + [c.column for c in costs]
cost_labels = {None: "every trial costs 1", **{c.column: c.description for c in costs}}
cost_column = mid.selectbox("Cost per trial", cost_names, format_func=cost_labels.get, key="plan_cost",
                            disabled=not costs, help="A cost column of the data (a per-model total is spread over the "
                                                     "model's trials); without one every trial costs the same.")
follow_default("plan_prior", list(PLAN_PRIORS), default_plan_prior(goal))  # width: the leaderboard's prior
prior = right.selectbox("Prior", list(PLAN_PRIORS), format_func=PLAN_PRIORS.get, key="plan_prior",
                        help="Prior of the stopping rule. Uniform by default for the ranking goals, not the "
                             "leaderboard's empirical Bayes: in replays on recorded data the empirical-Bayes prior "
                             "stopped on the wrong model more often than the confidence allows; the leaderboard's "
                             "empirical Bayes for *Narrow every interval*, whose intervals are the leaderboard's "
                             "(docs/metrics.md, *What to run next*). A note says when a fixed prior is far from the "
                             "data.")
seed = int(last.number_input("Seed", min_value=0, max_value=2**31 - 1, value=0, step=1, key="plan_seed",
                              help="Seed of the posterior draws: the same data and seed give the same plan."))
options.update(confidence=float(confidence), batch=batch, scope=ctx.scope, prior=prior, seed=seed)
if prior != ctx.prior:  # the Leaderboard's probabilities use the sidebar's prior: say why these differ
    st.caption(f"The plan uses the {md(PLAN_PRIORS[prior])} prior, the Leaderboard the sidebar's "
               f"({md(PRIOR_LABELS[ctx.prior])}), so its probabilities (e.g. P(best)) differ from the Leaderboard's: "
               "uniform is the planner's default because, in replays on recorded data, its stopping rule with the "
               "empirical-Bayes prior stopped on the wrong model more often than the confidence allows (docs/metrics.md,"
               " *What to run next*).")
keys = (data_id, dataset, task, active.rubric_id, active.categorization, cost_column)

with user_errors("the plan"):
    plan = next_batch(*keys, **options)
goal_words = plan.goal
if plan.decision == "goal_holds":
    st.success(md(plan_sentence(plan.reason)), icon=":material/check_circle:")
elif plan.stop:  # nothing to run under the limits, and the goal does not hold
    st.warning(md(plan_sentence(plan.reason)), icon=":material/block:")
else:
    st.info(md(plan_sentence(plan.reason)), icon=":material/play_circle:")
for notice in plan.status.get("notices", ()):  # e.g. disconnected_groups: no order across the groups
    st.warning(md(notice["message"]), icon=":material/link_off:" if notice["code"] == "disconnected_groups" else None)
trial_position_warning(ctx, options.get("pair") if goal == "pair" else models, task=task,
                       assumes=STOP_ASSUMES_EXCHANGEABLE)  # the stop rule draws exchangeable trials
a, b, c = st.columns(3)
if goal_words.get("unlinked"):  # the posterior's probability across groups sharing no question is not evidence
    a.metric("P(goal holds)", "not supported", border=True,
             help="The models the goal compares share no question (the notice above): their probability compares the "
                  "question sets as much as the models. Run them on common questions first.")
else:
    a.metric("P(goal holds)" if goal != "width" else "Intervals narrow enough",  # a share of draws: "> 0.999"
             format_draw_probability(goal_words["probability"]) if goal != "width" else f"{goal_words['probability']:.0%}",
             border=True, help=PLAN_GOAL_HELP[goal])
b.metric("Trials so far", f"{plan.spent['total_trials']:,}", border=True)
c.metric("Cost so far" if cost_column else "Trials in the batch",
         f"{plan.spent['total_cost']:,.2f}" if cost_column else f"{sum(r['trials'] for r in plan.batch):,}", border=True)
st.caption(md(plan_notes(plan.status["uncertainty"], plan.status["notes"])))

tabs = st.tabs(["Next batch", "Projection", "Models"], key="plan_view", bind="query-params")
with tabs[0]:
    if getattr(tabs[0], "open", True) is not False:
        if plan.batch:
            frame, config = batch_display(plan.batch)
            st.dataframe(frame, column_config=config, hide_index=True, width="stretch",
                         height=fit_height(len(frame), 480), key="plan_table")
            d1, d2 = st.columns(2)
            rows = len(plan.batch)
            d1.download_button(f"Download the batch (CSV, {rows:,} rows)", to_csv(batch_frame(plan.batch)),
                               file_name="next_batch.csv",
                               mime="text/csv", key="plan_csv", icon=":material/download:")
            d2.download_button(f"Download the batch (JSONL, {rows:,} rows)", batch_jsonl(plan.batch),
                               file_name="next_batch.jsonl", mime="application/jsonl", key="plan_jsonl",
                               icon=":material/download:")
            st.caption("Each row: run this model on this question this many more times. " + GAIN_MEANING + " A row "
                       "without a question asks for new questions from the pool (questions-sampled scope). CLI: "
                       "`python -m scorio_core plan DATA --goal ... --output json`.")
        else:
            st.info("Nothing to run: the planner stops here, for the reason above.", icon=":material/info:")
with tabs[1]:
    if tabs[1].open:
        if plan.stop:
            st.info("The goal already holds: there is nothing to project." if plan.decision == "goal_holds" else
                    "Nothing can be run under the limits: there is nothing to project.", icon=":material/info:")
        else:
            with user_errors("the projection"):
                proj = goal_projection(*keys, **options, batches=6, replays=8, draws=1000)
            chart(goal_projection_plot(proj.trials, proj.probability, confidence=float(confidence),
                                       goal_label=GOAL_LABELS[goal].lower()),
                  projection_summary(proj.trials, proj.probability, confidence=float(confidence),
                                     goal_label=GOAL_LABELS[goal].lower()),
                  projection_frame(proj.trials, proj.probability), key="plan_projection")
            st.caption(md(proj.describe(batch)))
with tabs[2]:
    if tabs[2].open:
        frame, config = model_status_display(plan.status["models"], confidence=float(confidence))
        st.dataframe(frame, column_config=config, hide_index=True, width="stretch",
                     height=fit_height(len(frame), 480), key="plan_models")
        st.caption("Posterior mean and credible interval of each model's score (the prior chosen above, the sidebar's "
                   "scope; where the empirical-Bayes prior is not identified, e.g. with one trial per question, an "
                   "exact binomial interval instead), the probability each is best (>.99 and <.01: a share of the "
                   "posterior draws, never certainty) and what it has run so far.")

with st.expander("Method"):
    st.markdown(
        "**Decision.** The goal's probability is computed from joint draws of the models' Bayes@N posteriors "
        "(questions fixed: independent normals; questions sampled: a Bayesian bootstrap over questions shared by all "
        "models, so comparisons stay paired); the planner stops when it reaches the confidence. "
        "**Next batch.** Each cell's posterior is a Dirichlet; after t more trials its variance is expected to shrink "
        "by the factor A / (A + t) (A: its prior plus trial count)"
        + ("; where the empirical-Bayes prior is not identified, the pooled binomial variance "
           "of each cell shrinks instead as n / (n + t) (n: its trials so far)" if prior == "empirical-bayes" else "")
        + ". The goal's error is approximated by normal tail "
        "probabilities of the deciding pairs, and trials go, in greedy rounds, where they lower that error most per "
        "unit cost (optimal computing budget allocation, Chen et al. 2000; knowledge gradient, Frazier et al. 2008). "
        "**Stopping honestly.** Stopping when the posterior probability reaches the confidence is calibrated when "
        "the prior describes the questions; the error rate of stop decisions is measured by simulation with known "
        "truth and by replays on recorded data (docs/metrics.md, *What to run next*).")
