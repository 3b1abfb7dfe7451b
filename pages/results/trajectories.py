"""Trajectories: the rank of every model as trials accumulate (paper Figure 9), with Bayes@N bands."""

import numpy as np
import streamlit as st

from dashboard.panels import rubric as rubric_panel
from dashboard.state import rubric as rubric_state
from dashboard.state.session import choices_phrase
from dashboard.compute.dynamics import (
    METRIC_LABELS,
    Method,
    analysis_block,
    block_models,
    convergence_results,
    credible_bands,
    dynamics_prior,
    progress_to,
    rubric_block_or_stop,
    trajectory,
)
from scorio_core.dynamics.budget import REPLICATE_CHOICES, default_replicates
from dashboard.panels.charts import chart
from dashboard.tables.chart_text import trajectory_frame, trajectory_summary
from dashboard.tables.chart_text_more import band_summary, band_table
from dashboard.tables.analysis import band_frame, band_interval_name, models_by_rank
from dashboard.figures import credible_band_grid, rank_trajectory_plot
from dashboard.panels.sidebar import page_context
from dashboard.panels.trial_order import trial_position_warning
from dashboard.text import md, sentence
from dashboard.compute.graded import PASS_K_NEEDS_BINARY, metric_labels
from dashboard.state.widgets import drawn_rows, ensure, ensure_choice, ensure_subset, follow_default, top_models
from scorio_core.dynamics.trajectory import TRAJECTORY_PRIOR_NOTES
from scorio_core.errors import InputError
from scorio_core.choices import prior_label
from scorio_core.uncertainty.priors import MIN_DISAGREEING_QUESTIONS, MIN_TRIAL_PAIRS

REPLICATES = REPLICATE_CHOICES

ctx = page_context()
if ctx is None:
    st.stop()

st.title("Trajectories")
active = rubric_state.active_rubric(ctx)
st.caption(f"{md(ctx.data.label)} · task: {md(ctx.task)}{md(choices_phrase(ctx.data.key))} · rubric: {md(active.summary)}")
rubric_panel.render_unmatched(ctx, active, choose=False)
st.markdown(
    "How the ranking changes as trials accumulate: the rank of every model after the first *n* trials, "
    "for *n* = 1..N. A ranking you can trust settles early and stays put."
)
block = rubric_block_or_stop(ctx, active, "Trajectories")
trial_position_warning(ctx, block.models, assumes="The gold standard and the bootstrap replicates treat trials as "
                                                  "exchangeable repeats.")
N = block.n_trials

labels = metric_labels(ctx, active)  # Bayes@N only where graded scores leave no 0/1 outcomes
ensure_choice("traj_metric", list(labels), "bayes")
K_TOP = block.min_trials  # ragged data: every question needs k trials
ensure("traj_k", min(2, K_TOP), lambda v: 1 <= v <= K_TOP)
ensure("traj_tau", 0.5)
left, mid, right = st.columns([2, 1, 1])
metric = left.selectbox("Ranking metric", list(labels), format_func=labels.get, key="traj_metric",
                        persist_state="session",
                        help="Bayes@N uses the sidebar's prior (with the uniform or Jeffreys prior it ranks like "
                             "avg@N); the Pass@k family uses binary correctness.")
k = mid.number_input("k", min_value=1, max_value=K_TOP, step=1, key="traj_k", persist_state="session",
                     disabled=metric == "bayes", help=f"Draws of the Pass@k family (k <= N = {N}); undefined for n < k.")
tau = right.slider("tau", 0.0, 1.0, step=0.05, key="traj_tau", persist_state="session", disabled=metric != "g-pass@k_tau",
                   help="G-Pass@k_tau counts a question when at least ceil(tau k) of k draws are correct.")
if len(labels) == 1:
    st.caption(PASS_K_NEEDS_BINARY)
method = Method(metric, int(k) if metric != "bayes" else 1, float(tau) if metric == "g-pass@k_tau" else None)

orders = {"observed": "Observed order", "worst": "Worst-case replicate"}
if block.ragged:
    st.info(f"Questions here have different numbers of trials ({block.min_trials:d}-{N:d}). Every trial is kept: after n "
            "trials a question contributes its first min(n, N) trials; the gold standard is Bayes@N on all trials. "
            "Bootstrap replicates resample **row-wise** within each question from its own N (exchangeable trials).",
            icon=":material/info:")
    st.session_state["traj_scheme"] = "row"
if not block.has_order and block.prefix is not None:
    st.info("This dataset was counted by DuckDB, which kept its trial order as **prefix counts** (correct answers "
            "among the first n trials of every question): the observed trajectory is exact. Bootstrap replicates "
            "are rebuilt from the counts and resample **row-wise** (exchangeable trials).", icon=":material/info:")
    st.session_state["traj_scheme"] = "row"
elif not block.has_order:
    st.info("This dataset has counts only (no trial order), so there is no observed trajectory. Shown: the worst-case "
            "**row-wise** bootstrap replicate, which resamples trials within each question and assumes exchangeable "
            "trials.", icon=":material/info:")
    st.session_state["traj_order"], st.session_state["traj_scheme"] = "worst", "row"
ensure_choice("traj_order", list(orders), "observed")
ensure_choice("traj_scheme", ["column", "row"], "column")
# the same default as the Convergence page (its worst case is one of the same replicates): 2,000, or under the
# empirical-Bayes prior the most that finish in a few seconds
follow_default("traj_replicates", REPLICATES, default_replicates(block, dynamics_prior(ctx, active), REPLICATES))
ensure("traj_seed", 0)
ensure_subset("traj_highlight", block.models, [])
if ctx.models and st.session_state.get("_traj_filter") != ctx.models:  # the sidebar's model filter highlights
    st.session_state["traj_highlight"] = ctx.shown(block.models)
    st.session_state["_traj_filter"] = ctx.models
c1, c2 = st.columns([2.6, 1.4])  # two rows: the segmented controls keep their full labels at 1280 px
c3, c4 = st.columns([3, 1])
order = c1.segmented_control("Trial order", list(orders), format_func=orders.get, key="traj_order",
                             persist_state="session", disabled=not block.observed,
                             help="The data's own trial order, or the resampled trial order whose ranking settles "
                                  "last (the worst case).") or "observed"
worst_view = order == "worst"
scheme = c2.segmented_control("Bootstrap", ["column", "row"], format_func=lambda s: f"{s}-wise", key="traj_scheme",
                              persist_state="session", disabled=not worst_view or not block.has_order or block.ragged,
                              help="column-wise: resample trial indices shared by all questions; row-wise: resample "
                                   "within each (model, question).") or "column"
replicates = c3.select_slider("Replicates", REPLICATES, key="traj_replicates", persist_state="session",
                              disabled=not worst_view, help="The worst case is the latest-converging of these replicates.")
seed = c4.number_input("Seed", min_value=0, step=1, key="traj_seed", persist_state="session", disabled=not worst_view)
highlight = st.multiselect("Highlight models", list(block.models), key="traj_highlight", persist_state="session",
                           placeholder="All models in colour", help="Grey out the others.")

worst = None
try:
    if worst_view:
        bar = st.empty()
        ((_, worst),) = convergence_results(ctx, active, [method], scheme=scheme, replicates=int(replicates), seed=int(seed),
                                            on_progress=progress_to(bar, "Bootstrapping..."))
        bar.empty()
    traj = trajectory(ctx, active, method, worst=worst, scheme=scheme, seed=int(seed))
    settles = trajectory(ctx, active, method, worst=worst, scheme=scheme, seed=int(seed), gold="replicate").convergence
    models = analysis_block(ctx.data.data_id, ctx.data.dataset, ctx.task, method.kind, active.rubric_id,
                            active.categorization, active.prior_id, active.prior, models=block_models(ctx, active)).models
except (InputError, ValueError) as exc:
    st.error(f"This view cannot be computed: {md(exc)}", icon=":material/error:")
    st.stop()

label = METRIC_LABELS[metric] if metric == "bayes" else method.label
tied = int(np.sum(worst.convergence < 0)) if worst_view and worst.worst_convergence < 0 else 0
where = "observed trial order" if not worst_view else (  # many never settle: the first of them is shown
    f"worst of {int(replicates):,} {scheme}-wise bootstrap replicates (replicate #{worst.worst_replicate}"
    + (f", the first of the {tied:,} that never settle" if tied > 1 else "") + f", seed {int(seed)})")
m1, m2, m3, m4 = st.columns(4)
m1.metric("convergence@n", "none" if traj.convergence is None else traj.convergence,
          help="Smallest n <= N - 1 after which the ranking equals the gold standard and never changes again.")
m2.metric("Ranking stops changing at", "n = N" if settles is None else f"n = {settles}",
          help="The last change of this trajectory's ranking (compared with its own final ranking); "
               "n = N means it still changes at the last trial.")
half = max(1, N // 2)
at_half = traj.kendall_tau[min(int(np.searchsorted(traj.n, half)), len(traj.n) - 1)]
m3.metric(md(f"Agreement at n = {half}"), f"{at_half:.3f}" if np.isfinite(at_half) else "undefined",
          help=f"Kendall's tau_b between the ranking after half the trials (n = {half}) and the gold standard: 1 means "
               "the same order, 0 no relation. (At n = N it is 1 by construction on the observed order, so it is not "
               "shown.) Undefined when every model ties in either ranking: there is no order to agree with.")
m4.metric("Models x trials", f"{len(models)} x {N}")
palette = models_by_rank(models, -traj.gold_ranks)  # colours follow the gold-standard order, best first
drawn = top_models("traj_top", palette, help="Hundreds of lines hide each other: the chart draws the best models by "
                                             "the gold standard (the ranking after all N trials). Ranks are among all "
                                             "models.")
rows = drawn_rows(models, drawn)
if len(rows) < len(models):
    st.caption(f"The chart draws the top {len(rows):,} of {len(models):,} models by the gold standard; their ranks are "
               f"among all {len(models):,} (a line entering from below comes from a rank outside the top "
               f"{len(rows):,}).")
paths = ([models[i] for i in rows], traj.n, np.asarray(traj.ranks)[rows])
chart(rank_trajectory_plot(*paths, convergence=traj.convergence, highlight=highlight,
                           title=f"{label} rank after n trials: {where}", metric_label=label, color_order=palette),
      trajectory_summary(*paths, convergence=traj.convergence), trajectory_frame(*paths), key="traj_chart")
prior = dynamics_prior(ctx, active)
st.caption(
    f"Prior: {md(prior_label(prior, block.strata is not None))}. {md(sentence(TRAJECTORY_PRIOR_NOTES[prior]))}. "
    "A line still moving near n = N means N trials were not enough to pin that model's place."
    + (" Pass@k-family ranks are undefined for n < k." if method.k > 1 else "")
    + (" Prior counts R0 (Rubric page) combine with the uniform prior only, so it is used here."
       if prior != ctx.prior else "")
)

st.header("Bayes@N mean and credible interval vs n")
try:
    bands, same = credible_bands(ctx, active, worst=worst, worst_method=method if worst is not None else None,
                                 scheme=scheme, seed=int(seed))
except (InputError, ValueError) as exc:
    st.error(f"The credible bands cannot be computed: {md(exc)}", icon=":material/error:")
    st.stop()
ranked = models_by_rank(block.models, bands.scores[:, -1])
if ctx.models and st.session_state.get("_traj_band_filter") != ctx.models:
    st.session_state["traj_band_models"] = ctx.shown(ranked)
    st.session_state["_traj_band_filter"] = ctx.models
ensure_subset("traj_band_models", ranked, ranked[:8])
chosen = st.multiselect("Models", ranked, key="traj_band_models",
                        persist_state="session", help="One panel per model; the best 8 at n = N by default"
                        + (" (this replicate's n = N, which can differ from the Leaderboard's order)." if same else "."))
if chosen:
    band = band_frame(bands, block.models, block.weights, ctx.confidence)
    chart(credible_band_grid(band, models=chosen, confidence=ctx.confidence, color_order=palette,
                             interval_name=band_interval_name(prior)),
          band_summary(band, chosen, confidence=ctx.confidence), band_table(band, chosen), key="traj_bands")
st.caption(
    f"Posterior mean after n trials with its central {ctx.confidence:.0%} credible interval (normal approximation), "
    + ("along the same replicate as the ranks above. " if same else "along the observed trial order. ")
    + f"Prior: {md(prior_label(prior, block.strata is not None))}"
    + (f", refitted after every n; where it is not identified (n = 1, n = 2 on fewer than {MIN_TRIAL_PAIRS} "
       f"questions, fewer than {MIN_DISAGREEING_QUESTIONS} questions whose trials so far disagree, or a model's trials so far all in one category) the band is the normal approximation around the pooled mean with its binomial sd, not a posterior. "
       if prior == "empirical-bayes" else ". ")
    + ("The dotted line is this replicate's value after its N resampled trials, not the Leaderboard's value (which "
       "uses the data's own trials). " if same else "The dotted line is the value after all N trials. ")
    + "The interval covers the uncertainty from the finite number "
    "of trials per question; the questions themselves are taken as given."
)

with st.expander("What this view assumes"):
    st.markdown(
        "- Questions and trials are independent; the ranking after *n* trials uses each question's first *n* trials.\n"
        "- Ranks are competition ranks of the metric (ties share the better rank), as in the paper's Figure 9.\n"
        "- The worst-case replicate is the one that converges last (or never) among the bootstrap replicates; "
        "row-wise resampling assumes exchangeable trials.\n"
        "- With a prior R0 (Rubric page), Bayes@N uses it with the paper's uniform prior; the gold standard stays the "
        "avg@N ranking of the data.\n"
        "- **Prior** (sidebar): uniform and Jeffreys rank exactly like avg@N for equal N. The empirical-Bayes prior is "
        "refitted to each model's first n trials (per task with all tasks pooled, as the leaderboard; what the "
        "leaderboard would show after n trials; n = 1, n = 2 on "
        f"fewer than {MIN_TRIAL_PAIRS} questions, fewer than {MIN_DISAGREEING_QUESTIONS} questions whose trials disagree "
        "and all-0/all-1 models fall back to the observed or smoothed mean), so its ranks can differ from avg@N's where "
        "models are close; its gold standard is the Bayes@N ranking under the prior fitted to all N trials."
    )
    for note in block.notes:
        st.caption(md(note))
