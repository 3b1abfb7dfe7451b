"""Leaderboard: every model with its posterior mean, credible interval and ranks."""

import streamlit as st

from dashboard.panels import rubric as rubric_panel
from dashboard.panels.board_views import (few_trials_caveat, render_board_table, render_cost_scatter,
                                          render_prior_pull, render_rank_caption)
from dashboard.panels.charts import chart, show_interval_plot
from dashboard.panels.method_board import choose_method, choose_method_options, render_method_ranking
from dashboard.panels.methods import render_irt_ability, render_method_agreement
from dashboard.state import rubric as rubric_state
from dashboard.state.session import choices_phrase
from dashboard.state.url import read_choice_param
from dashboard.state.widgets import LOADER_NOTES_SHOWN, MANY_MODELS, TOP_CHOICES, follow_default, k_notice
from dashboard.compute.results import (
    cost_options, leaderboard_notes, leaderboard_table, top_lead, pairwise_matrix, few_common_pairs,
    rank_ci_paired, rank_distribution, task_outcomes, trial_range, unequal_question_sets,
)
from dashboard.compute.graded import metric_keys  # graded scores: the rubric's metrics only
from dashboard.figures import pairwise_heatmap, rank_heatmap
from dashboard.figures.leaderboard import PAIRWISE_VALUES_MAX
from dashboard.guard import blocking_notice, user_errors
from dashboard.share.links import PresentedSection, presentation_footer, presented_figures, presented_settings, presenting
from dashboard.panels.sidebar import page_context
from dashboard.tables.chart_text import interval_summary, pairwise_frame, pairwise_summary, rank_frame, rank_summary
from dashboard.tables.display import calibration_display, calibration_summary, leaderboard_display, top_rows
from dashboard.tables.analysis import not_identified_caption
from dashboard.text import code, md
from scorio_core.choices import has_fallback_interval, not_fitted_for_all
from scorio_core.leaderboard.checks import prior_pull_notice
from scorio_core.leaderboard.table import QUESTION_SETS
from scorio_core.leaderboard.linking import common_question_count, grouped_order, mask_cross_group_pairs
from scorio_core.leaderboard.metrics import METRICS
from scorio_core.ranking.paired import not_identified_cause, not_identified_models
from scorio_core.ranking.rank import DEFAULT_TIE_RULE, TIE_RULE_HELP, TIE_RULES, tie_rule_sentence
from scorio_core.report.tables import interval_groups, interval_name
from scorio_core.report.lead import among_shown
from scorio_core.report.notes import loader_notes
from scorio_core.report.verdict import verdict
from scorio_core.uncertainty import SCOPE_LABELS, calibration_table

QUESTION_SET_LABELS = {"own": "Each on its own questions", "common": "Common questions only",
                       "missing-incorrect": "Missing counts as incorrect"}

ctx = page_context()
if ctx is None:
    st.stop()

st.title("Leaderboard")
active = rubric_state.active_rubric(ctx)
st.caption(f"{md(ctx.data.label)} · task: {md(ctx.task)}{md(choices_phrase(ctx.data.key))} · rubric: {md(active.summary)}")
if blocking_notice(ctx.data.dataset):
    st.stop()
if active.message:
    st.info(md(active.message), icon=":material/info:")
if active.prior_error:
    st.warning(md(active.prior_error), icon=":material/warning:")
rubric_panel.render_unmatched(ctx, active, choose=not presenting())

with user_errors("the leaderboard"):
    n_min, n_max = trial_range(ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id, active.categorization)
present = presenting()  # &view=present: the shared analysis without editing controls, for stakeholders
if present:
    metric, k, tau, tie_rule = presented_settings(ctx, n_min, n_max)
    spec = METRICS[metric]
else:
    if unread := read_choice_param("lb_metric", {key: spec.label for key, spec in METRICS.items()}, "metric"):
        st.warning(md(unread), icon=":material/link_off:")
    left, mid, right, show_col = st.columns([1.7, 0.7, 2.8, 1.1])  # "Rank ties" shows its four options at 1280 px
    metric = left.selectbox("Metric", metric_keys(ctx, active), format_func=lambda key: METRICS[key].label, key="lb_metric",
                            bind="query-params", persist_state="session")
    spec = METRICS[metric]
    k_max = max(n_min, 1) if metric != "max@k" else 10 * max(n_max, 1)
    if st.session_state.get("lb_k", 1) > k_max:
        st.session_state["lb_k"] = k_max
    k = mid.number_input(
        "k", min_value=1, max_value=k_max, step=1, key="lb_k", bind="query-params", persist_state="session",
        disabled=not spec.uses_k, help=f"Draws for Pass@k and the k-metrics (at most N = {n_min} here).",
    )
    tie_rule = right.segmented_control(
        "Rank ties", list(TIE_RULES), default=DEFAULT_TIE_RULE, key="lb_tie_rule", bind="query-params",
        persist_state="session",
        help=" ".join(f"**{rule}**: {text}." for rule, text in TIE_RULE_HELP.items()),
    ) or DEFAULT_TIE_RULE
    tau = 0.5
    if spec.uses_tau:
        tau = st.slider("tau", 0.0, 1.0, 0.5, 0.05, key="lb_tau", bind="query-params", persist_state="session",
                        help="G-Pass@k_tau needs at least ceil(tau k) correct of k.")

if k_said := k_notice(metric, int(k), n_min, present):  # mG-Pass@k at k = 1: every model 0 and "rank 1", not a board
    st.warning(k_said, icon=":material/warning:")
    st.stop()
unequal = unequal_question_sets(ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id, active.categorization,
                                ctx.short_names)
question_set = "own"
# no question answered by every model (e.g. two groups of models on disjoint questions): "common" is unavailable
no_common = unequal is not None and common_question_count(
    task_outcomes(ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id, active.categorization)) == 0
if present:
    question_set = st.session_state.get("lb_question_set") if st.session_state.get("lb_question_set") in QUESTION_SETS else "own"
    question_set = "own" if question_set == "common" and no_common else question_set  # no common question here
    if unequal is not None:
        # read-only: no choice to make here, so not "Choose how to compare them"; which set is shown, and what it means
        said = unequal.replace(" Choose how to compare them.", "")
        st.warning(md(said) + f" Shown: **{md(QUESTION_SET_LABELS[question_set])}**.", icon=":material/rule:")
elif unequal is not None:
    with st.container(border=True):
        st.warning(md(unequal), icon=":material/rule:")
        question_set = st.radio(
            "Compare models on", list(QUESTION_SETS), key="lb_question_set", bind="query-params", persist_state="session",
            horizontal=True, format_func=lambda v: QUESTION_SET_LABELS[v] + (" (unavailable: none common)" if v == "common" and
                                                                           no_common else ""),
            help="own: each model on the questions it answered. common: only the questions every model answered"
                 + (" (unavailable here: no question was answered by every model)" if no_common else "")
                 + ". missing-incorrect: a question a model did not answer counts as answered wrongly.",
        ) or "own"
if question_set == "common" and no_common:  # e.g. from an old link: say what to do, and show the own-questions board
    st.info("No question was answered by every model, so there are no common questions to compare on: shown is each "
            "model on its own questions. Choose *Missing counts as incorrect*, or run the models on common questions.",
            icon=":material/info:")
    question_set = "own"

with user_errors("the leaderboard"):
    table = leaderboard_table(
        ctx.data.data_id, ctx.data.dataset, ctx.task, metric=metric, k=int(k), tau=float(tau), confidence=ctx.confidence,
        tie_rule=tie_rule, rubric_id=active.rubric_id, _categorization=active.categorization, prior_id=active.prior_id,
        _prior=active.prior, prior=ctx.prior, scope=ctx.scope, question_set=question_set,
        cluster_column=ctx.cluster_column,
    )
    notes = leaderboard_notes(ctx.data.data_id, ctx.data.dataset, ctx.task, table, confidence=ctx.confidence,
                              tie_rule=tie_rule, question_set=question_set, rubric_id=active.rubric_id,
                              _categorization=active.categorization)
said = {text for n in notes for text in (n.get("finding"), n["message"])}
loaded = loader_notes(ctx.data.dataset, said=said)  # what loading found, as the CLI's leaderboard notes (code load)
for text in loaded[:LOADER_NOTES_SHOWN]:
    st.info(md(text), icon=":material/info:")
if len(loaded) > LOADER_NOTES_SHOWN:  # a folder of hundreds of files: one note each would push the table off screen
    with st.expander(f"{len(loaded) - LOADER_NOTES_SHOWN} more notes from loading the files", icon=":material/info:"):
        for text in loaded[LOADER_NOTES_SHOWN:]:
            st.markdown(md(text))
for note in notes:
    if note["code"] == "prior_pull" and ctx.models:  # name only the models the sidebar's model filter shows
        note = prior_pull_notice(table, shown=ctx.shown(table["model"])) or note
    if note["code"] == "paper_chain":
        st.info(md(note["message"]), icon=":material/link:")
    elif note["code"] == "emptied_by_choice":  # a model the Data page's choices removed entirely: say it is missing
        st.warning(md(note["finding"]) + ("" if present else " Undo that choice under *Your choices* on the Data page "
                                          "to rank " + ("it." if len(note["models"]) == 1 else "them.")),
                   icon=":material/person_off:")
    elif note["code"] == "model_named_by_default":  # e.g. an lm-eval samples file without its results file
        st.warning(md(note["finding"]), icon=":material/badge:")
    elif note["code"] == "disconnected_groups":  # models on disjoint questions: no order across the groups
        st.warning(md(note["message"]), icon=":material/link_off:")
    elif note["code"] == "missing_tasks":  # all tasks pooled: a model that ran one task is scored on it alone
        st.warning(md(note["finding"]) + ("" if present else " Choose one task in the sidebar, or see every task side "
                                          "by side on the Tasks page."), icon=":material/rule:")
    elif note["code"] == "trial_position_effect":  # e.g. ARC-AGI's second attempt only after a failed first
        st.warning(md(note["finding"]), icon=":material/repeat:")
    elif note["code"] == "prior_pull":  # e.g. ARC-AGI at N = 2 under Jeffreys: intervals beside, not around, avg@N
        render_prior_pull(note, present=present)  # as Compare and Tasks say it
    elif note["code"] in ("data_choices", "absent_from_task"):  # what the choices changed; models without this task
        st.caption(md(note["finding"]) + (" The Tasks page shows which tasks each model ran."
                                          if note["code"] == "absent_from_task" and not present else ""))
all_models = len(table)
n_scored_all = int(table["mu"].notna().sum())  # rank_ci is computed among every scored model
every_row = table  # before the Show filter: a note about all models counts all of them
shown = ctx.shown(table["model"])
# a snapshot without a Show value (CLI publish) presents what its sharer saw: the default that follows the data
top = st.session_state.get("lb_top", 50 if all_models > MANY_MODELS else "all") if present else None
if not present:
    if "lb_top" in st.session_state or st.query_params.get("lb_top") is None:  # a link's own value wins
        # hundreds of models: the top 50 by default (a 400 x 400 pairwise heatmap is 8 MB and 12,000 px tall); the
        # default follows the data until the user picks a value
        follow_default("lb_top", TOP_CHOICES, 50 if all_models > MANY_MODELS else "all")
    top = show_col.selectbox("Show", TOP_CHOICES, key="lb_top", bind="query-params", persist_state="session",
                       format_func=lambda v: "all models" if v == "all" else f"top {v}",
                       help="The best models by rank (after the sidebar's model filter); ranks stay those among all models.")
limit = int(top) if top in TOP_CHOICES and top != "all" else 0
table = table[table["model"].isin(shown)]
table, tied = top_rows(table, limit)
if len(table) < all_models:
    st.caption(f"Showing {len(table):d} of {all_models:d} models"
               + ((f" (top {limit:d}" + (f", and {tied:d} more with the same rank" if tied else "") + ")") if limit else "")
               + ". Ranks, intervals and rank ties are computed with every model, so each model keeps its place.")
scored = table[table["mu"].notna()]
few_common = (few_common_pairs(ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id, active.categorization,
                               tuple(scored["model"].astype(str))) if ctx.scope != "questions-fixed"
              and question_set == "own" and len(scored) >= 2 else None)  # paired falls back for these pairs
costs = cost_options(ctx.data.data_id, ctx.data.dataset, ctx.task)
tab_names = ["Ranking", "Pairwise P(A > B)", "Rank distribution"] + (["Score vs cost"] if costs else []) + [
    "IRT ability", "Method agreement"]
if present:  # a fixed story, every section open: ranking, pairwise heatmap, and the figures the sharer ticked
    chosen = presented_figures()
    tabs = [PresentedSection(name, name in chosen or i < 2) for i, name in enumerate(tab_names)]
else:
    tabs = st.tabs(tab_names, key="lb_view", bind="query-params")

def _pairwise(rows):
    """P(A > B) between ``rows``' scored models as the rank ties use them (paired when questions are sampled)."""
    return pairwise_matrix(ctx.data.data_id, ctx.data.dataset, ctx.task, rows, metric=metric, confidence=ctx.confidence,
                           rubric_id=active.rubric_id, categorization=active.categorization, prior_id=active.prior_id,
                           prior_obj=active.prior, prior=ctx.prior, scope=ctx.scope, question_set=question_set,
                           cluster_column=ctx.cluster_column)


with tabs[0]:
    ranking_open = getattr(tabs[0], "open", True) is not False
    method = choose_method(all_models, present=present) if ranking_open else "bayes"
    if ranking_open and method != "bayes":  # another scorio.rank method: its ranks beside Bayes@N's
        options = choose_method_options(method)  # None: the box cannot be read (it says why)
        if options is not None:
            render_method_ranking(ctx, ctx.task, question_set, method, options)
    elif ranking_open:
        labels = ctx.labels(table["model"])
        with user_errors("the verdict"):
            top_pair = top_lead(ctx.data.data_id, ctx.data.dataset, ctx.task, table, metric=metric,
                                confidence=ctx.confidence, rubric_id=active.rubric_id,
                                categorization=active.categorization, prior_id=active.prior_id,
                                prior_obj=active.prior, prior=ctx.prior, question_set=question_set,
                                cluster_column=ctx.cluster_column)
        effects = [{**e, "model": labels.get(e["model"], e["model"])} for n in notes
                   if n["code"] == "trial_position_effect" for e in n["effects"]]
        paired_rho = None  # the probabilities the rank ties and the heatmap use (paired when questions are sampled)
        if ctx.scope != "questions-fixed" and len(scored) >= 2:
            with user_errors("the pairwise comparisons"):
                rho, paired = _pairwise(table)
                paired_rho = rho if paired else None
        summary = verdict(table.assign(model=table["model"].map(labels)), confidence=ctx.confidence, pairwise=paired_rho,
                          metric_label=spec.label, scope=ctx.scope, question_sets_differ=unequal is not None and
                          question_set == "own", trial_effects=effects,
                          scale=(float(min(active.weights)), float(max(active.weights)))
                          if metric in ("bayes", "avg") else None,
                          lead=top_pair.renamed(labels) if top_pair else None,
                          groups=[[labels.get(m, m) for m in g] for n in notes if n["code"] == "disconnected_groups"
                                  for g in n["groups"]], tie_rule=tie_rule)  # display names: the verdict stays short
        with st.container(border=True):
            st.markdown(f"**{md(among_shown(summary.headline, len(scored), n_scored_all))}** {md(summary.basis)} "
                        f"{md(summary.brief)}")  # a model filter: "of the 2 models shown", not "first" beside rank 12
            if summary.one_sided:  # ahead at the level, yet Compare's central interval holds 0: say why both hold
                st.caption(md(summary.one_sided))
            if few := few_trials_caveat(summary.caveats, table):  # N < 5: as the exports and the Export page say
                st.caption(md(few))
            rows = every_row[every_row["mu"].notna()]
            unsure = not_identified_models(rows, rows["model"])
            if unsure and len(scored) >= 2:  # N = 1 and the like: P values use the pooled binomial sd, not a posterior
                st.caption(md(not_identified_caption(unsure, not_identified_cause(every_row, unsure), of=len(rows),
                                                     brief=present)))  # presented: one plain sentence
            if summary.details or summary.lines:
                with st.expander("Details: every neighbouring pair", expanded=present):  # presented: printed open
                    if summary.details:
                        st.markdown(md(summary.details))
                    st.markdown("\n".join(f"- {md(line)}" for line in summary.lines))
        show_interval_plot(table, metric_label=spec.label, confidence=ctx.confidence, show_estimate=spec.binary,
                           labels=labels, tie_rule=tie_rule, summary=interval_summary(
                               table, interval=interval_name(table, ctx.confidence), labels=labels))
        frame, config = leaderboard_display(table, metric_label=spec.label, k=int(k), confidence=ctx.confidence, groups=next(
            (n["groups"] for n in notes if n["code"] == "disconnected_groups"), None))  # a Group column where they split
        frame = frame.drop(columns=["estimate"]) if metric in ("bayes", "avg") else frame  # the mean / avg@N again
        shortened = any(labels[m] != m for m in labels)
        if shortened:  # short names in the table; full names on hover in the chart, in exports, or with the toggle off
            frame = frame.assign(model=frame["model"].map(labels))
        render_board_table(frame, config, present=present, interval=interval_name(table, ctx.confidence))
        groups = interval_groups(scored)
        labels = "; ".join(label if len(groups) == 1 else f"of {names}: {label}" for names, label in groups)
        st.caption(f"What the interval covers: {md(labels)}. avg@N is the mean over questions of each "
                   "question's observed mean score (" + (f"its mean rubric score under {md(active.name)}, on a "
                   f"{min(active.weights):g}-to-{max(active.weights):g} scale" if active.status == "rubric" else
                   "its accuracy under binary correctness") + "; every question weighs the same), beside the "
                   "prior-based estimate. "
                   + ("Colours group models that share a rank. "
                      f"{md(tie_rule_sentence(tie_rule, approximate=has_fallback_interval(scored)))}"
                      if len(scored) >= 2 else "With one scored model there is no rank to share or compare.")
                   + (" With questions sampled, the pairwise CI ties pair each two models over the questions both "
                      f"answered.{' ' + md(few_common) if few_common else ''}" if rank_ci_paired(
                       ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id, active.categorization,
                       active.prior_id, active.prior, metric=metric, scope=ctx.scope, tie_rule=tie_rule,
                       n_scored=n_scored_all, cluster_column=ctx.cluster_column) else
                      " With questions sampled, CI ties compare each model's own interval as if independent: the models "
                      "answered the same questions, so the ties are conservative; the Compare page pairs two models over "
                      "their common questions." if ctx.scope != "questions-fixed" else "")
                   + (" Short model names: the full names are on hover in the chart, in every export, and in the table "
                      "with *Short model names* off in the sidebar." if shortened else ""))

with tabs[1]:
    if tabs[1].open and len(scored) >= 2:
        with user_errors("the pairwise comparisons"):
            rho, paired = _pairwise(scored)
        rho = mask_cross_group_pairs(rho, scored["model"].astype(str), next(  # no P(A > B) across unlinked groups
            (n["groups"] for n in notes if n["code"] == "disconnected_groups"), None))
        short = ctx.labels(scored["model"])  # the table's names (full ones in exports and with the toggle off)
        names = [short[m] for m in scored["model"].astype(str)]
        chart(pairwise_heatmap(names, rho, confidence=ctx.confidence), pairwise_summary(names, rho, confidence=ctx.confidence),
              pairwise_frame(names, rho, confidence=ctx.confidence), key="lb_pairwise_chart")
        unidentified = not_identified_models(scored, scored["model"])  # N = 1: sigma is the pooled binomial bound
        st.caption(
            f"Each cell is the {'' if unidentified else 'posterior '}probability that the row model's {spec.label} is "
            "higher than the column model's "
            + (f"(normal approximation); values marked * reach {ctx.confidence:.0%}; >.99 and <.01 are values that round "
               "to 1 or 0 (an order is never certain)." if len(scored) <= PAIRWISE_VALUES_MAX else
               f"(normal approximation); with more than {PAIRWISE_VALUES_MAX} models the values are on hover only "
               f"(the darkest blue is near 1, the darkest red near 0; the table's CI-tie ranks say which pairs reach "
               f"{ctx.confidence:.0%}).")
            + " Rows and columns are sorted by mean."
            + (" With questions sampled, each pair's difference is paired over the questions both answered, "
               f"as on the Compare page.{' ' + md(few_common) if few_common else ''}" if paired else
               " With questions sampled, each cell combines the two models' own intervals as if independent: they answered "
               "the same questions, so this overstates the uncertainty (conservative). Pairing is done for Bayes@N "
               "(without prior counts), as on the Compare page." if ctx.scope != "questions-fixed" else "")
        )
        if unidentified and not present:  # (presented: said once, plainly, under the headline)
            st.caption(md(not_identified_caption(unidentified, not_identified_cause(scored, unidentified), of=len(scored))))
    elif tabs[1].open:
        st.info("Pairwise comparisons need at least two scored models.")

with tabs[2]:
    if tabs[2].open and len(scored) >= 2:
        with user_errors("the rank distribution"):
            models, P, draws, unsure_prior, linked = rank_distribution(
                ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id, active.categorization, active.prior_id,
                active.prior, prior=ctx.prior,
            )
        at = {m: i for i, m in enumerate(models)}
        order, group = grouped_order([m for m in table["model"] if m in at], linked) if linked else (
            [m for m in table["model"] if m in at], None)  # unlinked groups: ranks within each, rows by group
        ordered = P[[at[m] for m in order]]
        chart(rank_heatmap(order, ordered, group), rank_summary(order, ordered, group), rank_frame(order, ordered, group),
              key="lb_rank_chart")
        render_rank_caption(ctx, draws=draws, metric=spec.key, metric_label=spec.label, uncertain_prior=unsure_prior,
                            present=present, n_groups=len(set(group or ())))
    elif tabs[2].open:
        st.info("A rank distribution needs at least two scored models.")

if costs:
    with tabs[3]:
        if tabs[3].open:  # presented: the shared choice of column and scale, no widgets
            render_cost_scatter(ctx, table, costs, metric_label=spec.label, present=present)

irt_tab = tabs[tab_names.index("IRT ability")]
with irt_tab:
    if irt_tab.open:
        render_irt_ability(ctx, ctx.task, tie_rule, active.rubric_id, active.categorization, all_models, limit=limit,
                           present=present)

agreement_tab = tabs[tab_names.index("Method agreement")]
with agreement_tab:
    if agreement_tab.open:
        render_method_agreement(ctx, ctx.task, question_set, all_models, choose=not present)

if present:
    st.divider()
    footer = presentation_footer(ctx, active, spec.label, tie_rule, interval_name(table, ctx.confidence, plural=True),
                                 not_identified=has_fallback_interval(table),
                                 none_identified=not_fitted_for_all(every_row))
    st.caption("Presentation view of a shared analysis: " + md(footer)
               + ". Remove `&view=present` from the address to explore it.")
    st.stop()

help_box = st.expander("What these numbers mean", expanded=False, key="lb_help", on_change="rerun")
with help_box:
    if help_box.open:  # its coverage table is built and drawn only when opened (first paint: issue 36)
        st.markdown(
            f"""
    - **{spec.label} mean and interval**: the central {ctx.confidence:.0%} credible interval of the posterior under the
      sidebar's **prior** and **scope**; the column *Rank* orders the posterior means. *avg@N* is the observed mean, the
      number papers usually publish.
    - **Prior.** *Empirical Bayes* (default) fits a Dirichlet (binary: Beta) prior to each model's own questions by
      maximum marginal likelihood and accounts for the uncertainty of that fit; it pulls each question toward the model's
      own mean. *Uniform (paper)* is the paper's Bayes@N (Dirichlet(1) per question): it pulls every question toward the
      middle of the scale by (1 - 2p)/(N + 2), an offset that does not shrink with the number of questions, so on hard or
      easy benchmarks its intervals miss the true mean (coverage 0 in the table below). *Jeffreys* is Dirichlet(1/2):
      smaller offset, same problem.
    - **Scope.** *Trials (questions fixed)*: the uncertainty from the finite trials on these questions, the paper's
      estimand. *Trials and questions*: also which questions were drawn, for claims about a larger pool of similar
      questions; it is wider.
    - **When data cannot identify the prior** (N = 1, or a model that is always right or always wrong), the interval
      is the exact binomial (Clopper-Pearson) interval of the pooled trials: conservative, never zero width.
    - **Rank (CI ties)**, *pairwise* rule (default): 1 + the number of models credibly better (P(B > A) at least the
      credibility level, normal approximation), each pair on its own (30 simulated equal models: 13 had a rank above 1).
      The *paper* rule chains ties: if A ties B and B ties C, all three share a rank even when A and C are credibly
      different (the page says so when it happens); *upper-bound* counts the models whose whole interval lies above.
    - **Pass@k family**: the point estimate is the unbiased estimator; the mean and interval are the posterior of the
      latent quantity under the sidebar's prior as a Beta prior per question (empirical Bayes: the fitted Beta, its own
      uncertainty added; measured Pass@4 coverage 0.89-0.96 where the uniform prior's falls to 0). These metrics use
      binary correctness; the rubric changes Bayes@N, avg@N and Max@k (Max@k always uses the uniform prior).
    """
        )
        calibration = calibration_table()
        st.markdown(
            f"**Measured coverage** of the 95% interval (mean width in brackets) by simulation: per-question success "
            f"probabilities p_alpha drawn once per cell, {calibration.attrs['reps']:,} replications of the trials "
            f"(seed {calibration.attrs['seed']}; `{code(calibration.attrs['source'])}`). Scope shown: "
            f"{md(SCOPE_LABELS[ctx.scope])}. Target for the default: 0.92 to 0.995. "
            f"{md(calibration_summary(calibration, scope=ctx.scope))} Each cell is one drawn set of questions: its coverage "
            "is conditional on that set and varies between sets (docs/metrics.md, \"One cell is one question set\").")
        st.dataframe(calibration_display(calibration, scope=ctx.scope), hide_index=True, width="stretch")
        if ctx.data.dataset.counts is not None and ctx.data.dataset.trial_prefix:
            st.info("This dataset is a count table whose trial order DuckDB kept as prefix counts: observed trajectories "
                    "are exact; bootstrap views rebuild trials from the counts and assume exchangeable trials.")
        elif ctx.data.dataset.counts is not None:
            st.info("This dataset has counts only (no trial order): views that need an order assume exchangeable trials.")
