"""Leaderboard: every model with its posterior mean, credible interval and ranks."""

import streamlit as st

from dashboard.compute import leaderboard_table, trial_range
from dashboard.figures import interval_plot
from dashboard.quality import blocking_notice
from dashboard.sidebar import page_context
from dashboard.tables import leaderboard_display
from scorio_core.metrics import METRICS

ctx = page_context()
if ctx is None:
    st.stop()

st.title("Leaderboard")
st.caption(f"{ctx.data.label} · task: {ctx.task}")
if blocking_notice(ctx.data.dataset):
    st.stop()

n_min, n_max = trial_range(ctx.data.data_id, ctx.data.dataset, ctx.task)
left, mid, right = st.columns([2, 1, 2])
metric = left.selectbox(
    "Metric", list(METRICS), format_func=lambda key: METRICS[key].label, key="lb_metric", bind="query-params"
)
spec = METRICS[metric]
st.session_state.setdefault("lb_k", 1)
if st.session_state["lb_k"] > max(n_min, 1) and metric != "max@k":
    st.session_state["lb_k"] = max(n_min, 1)
k = mid.number_input(
    "k", min_value=1, max_value=max(n_min, 1) if metric != "max@k" else 10 * max(n_max, 1), step=1, key="lb_k",
    bind="query-params", help=f"Draws for Pass@k and the k-metrics (at most N = {n_min} here).",
)
tie_rule = right.segmented_control(
    "Rank ties",
    ["paper", "upper-bound", "none"],
    default="paper",
    key="lb_tie_rule",
    bind="query-params",
    help=(
        "paper: order by mean; adjacent models share a rank when z = |mu_a - mu_b| / sqrt(s_a^2 + s_b^2) is "
        "below the one-sided z of the credibility level (section 2.7.1). upper-bound: rank = 1 + models whose "
        "interval lies entirely above (arena style). none: competition rank of the mean."
    ),
) or "paper"
tau = 0.5
if spec.uses_tau:
    tau = st.slider("tau", 0.0, 1.0, 0.5, 0.05, key="lb_tau", help="G-Pass@k_tau needs at least ceil(tau k) correct of k.")

table = leaderboard_table(
    ctx.data.data_id, ctx.data.dataset, ctx.task, metric=metric, k=int(k), tau=float(tau),
    confidence=ctx.confidence, tie_rule=tie_rule,
)
st.plotly_chart(
    interval_plot(table, metric_label=spec.label, confidence=ctx.confidence, show_estimate=spec.binary),
    width="stretch",
)
frame, config = leaderboard_display(table, metric_label=spec.label, k=int(k), confidence=ctx.confidence)
st.dataframe(frame, column_config=config, hide_index=True, width="stretch")

with st.expander("What these numbers mean", expanded=False):
    st.markdown(
        f"""
- **{spec.label} mean and interval**: {spec.interval}. The interval is the central
  {ctx.confidence:.0%} credible interval of a normal approximation to the posterior.
- **Rank (CI ties)** with the *paper* rule chains ties: if A ties B and B ties C, all three share a rank,
  even when A and C alone would be distinguishable. Check the *upper-bound* rule or pairwise comparisons
  before declaring two distant models tied.
- **Bayes@N vs avg@N**: under the uniform prior Bayes@N is an affine transform of avg@N, so both give the
  same ranking (paper, Appendix B); Bayes@N shrinks toward the prior mean when N is small.
- **Pass@k family**: the point estimate is the unbiased estimator; the mean and interval are the posterior of
  the latent i.i.d. quantity under a Beta(1, 1) prior per question, which shrinks strongly when N is small.
"""
    )
    if ctx.data.dataset.counts is not None:
        st.info("This dataset has counts only (no trial order): views that need an order assume exchangeable trials.")
