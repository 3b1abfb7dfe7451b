"""Convergence: how many trials a stable ranking needs (paper Figures 1, 3 and 11)."""

import streamlit as st

from dashboard.panels import rubric as rubric_panel
from dashboard.state import rubric as rubric_state
from dashboard.state.session import choices_phrase
from dashboard.compute.dynamics import (
    convergence_methods,
    convergence_results,
    dynamics_prior,
    pass_k_choices,
    progress_to,
    rubric_block_or_stop,
)
from dashboard.panels.charts import chart
from dashboard.tables.analysis import convergence_curves, convergence_display, convergence_summary
from dashboard.tables.chart_text import convergence_chart_frame, convergence_chart_summary, tau_frame, tau_summary
from scorio_core.dynamics.budget import REPLICATE_CHOICES, default_note, default_replicates, run_estimate
from dashboard.compute.results import closest_pair, leaderboard_table, trials_needed_for
from dashboard.figures import convergence_plot, kendall_tau_plot
from dashboard.panels.sidebar import page_context
from dashboard.panels.trial_order import trial_position_warning
from dashboard.text import md
from dashboard.compute.graded import PASS_K_NEEDS_BINARY, metric_labels
from dashboard.state.widgets import ensure, ensure_choice, ensure_subset, follow_default
from scorio_core.dynamics.explain import format_share, no_convergence_causes
from scorio_core.errors import InputError
from scorio_core.ranking.separation import trials_meaning
from scorio_core.choices import prior_label
from scorio_core.uncertainty.priors import MIN_DISAGREEING_QUESTIONS, MIN_TRIAL_PAIRS

REPLICATES = REPLICATE_CHOICES
GOLD = {"data": "all N trials of the data (paper)", "replicate": "own final ranking"}

ctx = page_context()
if ctx is None:
    st.stop()

st.title("Convergence")
active = rubric_state.active_rubric(ctx)
st.caption(f"{md(ctx.data.label)} · task: {md(ctx.task)}{md(choices_phrase(ctx.data.key))} · rubric: {md(active.summary)}")
rubric_panel.render_unmatched(ctx, active, choose=False)
st.markdown(
    "**convergence@n** is the smallest number of trials after which the ranking equals the gold standard and never "
    "changes again. Its distribution over bootstrap replicates shows how many trials "
    "each method needs, and how often it never settles."
)
block = rubric_block_or_stop(ctx, active, "convergence@n")
N = block.n_trials
K_TOP = min(N - 1, block.min_trials)  # ragged data: every question needs k trials
ks = pass_k_choices(N, block.min_trials)

labels = metric_labels(ctx, active)  # Bayes@N only where graded scores leave no 0/1 outcomes
ensure_subset("conv_methods", list(labels.values()), ["Bayes@N", "Pass@k"])
# N = 2 (ARC-AGI-1) allows only k = 1: without it Pass@k, selected by default, drew nothing and said nothing
ensure_subset("conv_pass_ks", ks, [k for k in (2, 4, 8) if k in ks] or ks[-1:])
ensure("conv_k", min(4, K_TOP), lambda v: 1 <= v <= K_TOP)
ensure("conv_tau", 0.5)
ensure_subset("conv_models", block.models, block.models)
if ctx.models and st.session_state.get("_conv_filter") != ctx.models:  # the sidebar's model filter picks the models
    st.session_state["conv_models"] = ctx.shown(block.models)
    st.session_state["_conv_filter"] = ctx.models
selected = st.pills("Methods", list(labels.values()), selection_mode="multi", key="conv_methods",
                    persist_state="session",
                    help="Bayes@N uses the active rubric's weights; the Pass@k family uses binary correctness.")
if len(labels) == 1:
    st.caption(PASS_K_NEEDS_BINARY)
row = st.columns([2, 1.3, 1.3])
pass_ks = row[0].multiselect("k for Pass@k", ks, key="conv_pass_ks", persist_state="session",
                             disabled="Pass@k" not in selected, help=f"One curve per k (k <= {K_TOP}: k <= N - 1"
                                  + (", and every question needs k trials)." if block.ragged else ")."))
k_other = row[1].number_input("k for Pass^k, G-Pass, mG-Pass", min_value=1, max_value=K_TOP, step=1, key="conv_k",
                              persist_state="session")
tau = row[2].slider("tau of G-Pass@k_tau", 0.0, 1.0, step=0.05, key="conv_tau", persist_state="session")

if block.ragged:
    st.info(f"Questions here have different numbers of trials ({block.min_trials:d}-{N:d}). Every trial is kept: after n "
            "trials a question contributes its first min(n, N) trials, and the bootstrap resamples trials **row-wise** "
            "within each question from that question's own N, which assumes exchangeable trials. Column-wise "
            "resampling (the same trial indices everywhere) needs the same N on every question.", icon=":material/info:")
    st.session_state["conv_scheme"] = "row"
elif not block.has_order:
    st.info("This dataset has " + ("counts, with the trial order kept only as prefix counts (enough for the observed "
                                   "trajectory on the Trajectories page, not for resampling trial indices)"
                                   if block.observed else "counts only (no trial order)")
            + ": the bootstrap resamples trials **row-wise** (within each question), which assumes exchangeable "
            "trials. Column-wise resampling needs attempt-level data.", icon=":material/info:")
    st.session_state["conv_scheme"] = "row"
ensure_choice("conv_scheme", ["column", "row"], "column")
# 2,000 by default; the empirical-Bayes prior is refitted on every replicate, and where that would take more than
# a few seconds (20 x 30 x 80: ~0.015-0.027 s per replicate) the default is the most replicates within them
default_count = default_replicates(block, dynamics_prior(ctx, active), REPLICATES)
follow_default("conv_replicates", REPLICATES, default_count)  # until the user picks a count
ensure("conv_seed", 0)
ensure_choice("conv_gold", list(GOLD), "data")
row = st.columns([1.4, 2.6]) + st.columns([3, 1])  # two rows: the segmented controls keep their labels at 1280 px
row = [row[0], row[2], row[3], row[1]]  # bootstrap, replicates, seed, gold standard
scheme = row[0].segmented_control("Bootstrap", ["column", "row"], format_func=lambda s: f"{s}-wise", key="conv_scheme",
                                  persist_state="session", disabled=not block.has_order or block.ragged,
                                  help="column-wise: resample trial indices, shared by every model and question; "
                                       "row-wise: resample trials independently within each (model, question)."
                                       ) or "column"
replicates = row[1].select_slider("Replicates", REPLICATES, key="conv_replicates", persist_state="session",
                                  help="More replicates give smoother estimates and take longer. Large runs show progress; change "
                                       "any setting to cancel.")
seed = row[2].number_input("Seed", min_value=0, step=1, key="conv_seed", persist_state="session")
gold = row[3].segmented_control("Gold standard", list(GOLD), format_func=GOLD.get, key="conv_gold",
                                persist_state="session",
                                help="What the ranking after n trials must match; see the notes below.") or "data"
chosen = st.multiselect("Models to rank", list(block.models), key="conv_models", persist_state="session",
                        help="The more models, the more trials a ranking needs to settle: with 20 close models "
                             "most replicates never converge. Rank a subset to see how many trials it needs.")
if len(chosen) < 2:
    st.info("Pick at least 2 models to rank.", icon=":material/info:")
    st.stop()
trial_position_warning(ctx, chosen, assumes="The bootstrap replicates resample trials as exchangeable repeats.")

prior = dynamics_prior(ctx, active)
if prior == "empirical-bayes" and "Bayes@N" in selected:
    note = default_note(block, default_count)  # "" at the full default
    st.caption("Bayes@N with the empirical-Bayes prior refits the prior to every model's first n trials of every "
               "replicate (per task with all tasks pooled; what the leaderboard would show after n trials): " + run_estimate(block, int(replicates))
               + ". Change any setting to cancel." + (" " + note if note else ""))
methods = convergence_methods(selected, pass_ks, int(k_other), float(tau))
if not methods:
    st.info("Pick at least one method (and a k for Pass@k).", icon=":material/info:")
    st.stop()
if "Pass@k" in selected and not pass_ks:
    st.caption("Pass@k is selected but no k is picked under *k for Pass@k*: it has no curve.")
bar = st.empty()
try:
    results = convergence_results(ctx, active, methods, scheme=scheme, replicates=int(replicates), seed=int(seed),
                                  gold=gold, models=chosen,
                                  on_progress=progress_to(bar, f"Bootstrapping {len(methods)} methods..."))
except (InputError, ValueError) as exc:
    st.error(f"convergence@n cannot be computed: {md(exc)}", icon=":material/error:")
    st.stop()
bar.empty()

curves = convergence_curves(results)
summary = convergence_summary(results)
chart(convergence_plot(curves, summary, n_max=N), convergence_chart_summary(summary, curves, n_max=N),
      convergence_chart_frame(curves), key="conv_chart")
st.caption(
    f"{len(chosen)} models, {int(replicates):,} {scheme}-wise bootstrap replicates, seed {int(seed)}, prior: "
    f"{md(prior_label(prior, block.strata is not None))}"
    + (", refitted after every n (where it is not identified, always at n = 1, at n = 2 on fewer than "
       f"{MIN_TRIAL_PAIRS} questions and with fewer than {MIN_DISAGREEING_QUESTIONS} questions whose trials disagree, a "
       "model's Bayes@N is its pooled mean over its answers)"
       if prior == "empirical-bayes" else "")
    + ". Dotted vertical lines: mean convergence@n of "
    "the replicates that converge. A curve that never rises (no convergence 100%) means the method's ranking did not "
    "settle on the gold standard before N in any replicate."
)
table, config = convergence_display(results)
st.dataframe(table, column_config=config, hide_index=True, width="stretch")

bayes_result = next((res for m, res in results if m.metric == "bayes"), None)
if bayes_result is not None and bayes_result.no_convergence > 0.05:
    board = leaderboard_table(ctx.data.data_id, ctx.data.dataset, ctx.task, metric="bayes", confidence=ctx.confidence,
                              rubric_id=active.rubric_id, _categorization=active.categorization, prior_id=active.prior_id,
                              _prior=active.prior, prior=ctx.prior, scope=ctx.scope)
    pair = closest_pair(board, chosen)
    if pair is not None:
        needed, _ = trials_needed_for(ctx.data.data_id, ctx.data.dataset, ctx.task, pair[0], pair[1], ctx.confidence,
                                      active.rubric_id, active.categorization, active.prior_id, active.prior, ctx.prior)
        st.info(f"**N = {N:d} is too few for this ranking to settle**: Bayes@N did not reach the gold standard in "
                f"{md(format_share(bayes_result.no_convergence))} of the replicates. The least-separated neighbours, {md(pair[0])} and "
                f"{md(pair[1])} (the lowest P(A > B) among neighbours on the Leaderboard), decide it: {md(trials_meaning(needed))} "
                + ("More trials per question (or fewer, better-separated models) would settle it"
                   if needed.practical else "Report that pair as tied rather than waiting for the ranking to settle")
                + "; the Compare page has the details for any pair.", icon=":material/schedule:")
    for code, cause in no_convergence_causes(bayes_result.no_convergence, N, gold=bayes_result.gold,
                                             gold_ranks=bayes_result.gold_ranks, models=chosen):
        if code == "gold_ties":  # the closest pair above can be a pair the gold standard ties
            st.caption(md(cause))

st.header("Agreement with the gold standard vs n")
chart(kendall_tau_plot(curves, methods=list(summary["method"])), tau_summary(curves), tau_frame(curves),
      key="conv_tau_chart")
st.caption("Mean Kendall's tau_b between the ranking after n trials and the gold standard, over the same replicates "
           "(Kendall's tau_b). 1 means the same order, 0 no relation.")
undefined = sorted(set(curves["method"]) - set(curves.loc[curves["tau"].notna(), "method"]))
if undefined:
    st.info(f"Kendall's tau_b is undefined for {md(', '.join(undefined))}: every model ties in the gold standard or in "
            "every ranking after n trials, so there is no order to agree with (no line is drawn). convergence@n still "
            "says when the ranking matches the gold standard, ties included.", icon=":material/info:")

with st.expander("The gold standard, no convergence, and what is assumed", expanded=False):
    st.markdown(
        "- **Gold standard** (paper section 2.7): the Bayes@N ranking of all N trials of the data; under the uniform "
        "or Jeffreys prior it equals the avg@N ranking, under the empirical-Bayes prior it uses the prior fitted to all "
        "N trials. Every method and replicate is compared with it, so a Pass@k ranking converges only "
        "if it ends up agreeing with the average. *Own final ranking* (each replicate's n = N ranking) instead measures "
        "when a ranking stops changing (the reading of the Figure 9 caption).\n"
        "- **No convergence**: there is no n <= N - 1 from which on the ranking equals the gold standard at every later "
        "n. With many close models this is common (paper Appendix J: with 20 models some replicate never converges); "
        "report credible intervals and rank ties rather than a strict order then.\n"
        "- **Exact match**: convergence needs every rank to match (ties included), so it gets harder as models are added.\n"
        "- **With a rubric** (Rubric page), Bayes@N uses the rubric's weights and is compared with the rubric's avg@N "
        "ranking; the Pass@k family always uses binary correctness and the binary avg@N ranking.\n"
        "- Questions and trials are taken as independent. Bayes@N uses the sidebar's prior (prior counts R0 from the "
        "Rubric page combine with the uniform prior only, which is then used); the sidebar's interval scope does not "
        "enter rankings."
    )
    for assumption in dict.fromkeys(a for _, res in results for a in res.assumptions):
        st.caption(md(assumption))
    for note in block.notes:
        st.caption(md(note))
