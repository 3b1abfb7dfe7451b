"""Pure Plotly figure functions: data in, ``plotly.graph_objects.Figure`` out.

No Streamlit, no metric math: callers pass tables computed by ``scorio_core``. Tests inspect
``fig.data`` and ``fig.layout``. User text is escaped with :func:`theme.plain`. Imports
plotly, numpy, pandas, the core and :mod:`dashboard.figures.theme` only; never another dashboard
package.
"""

from dashboard.figures.compare import difference_plot, question_scatter, trials_plot
from dashboard.figures.data import rate_grid, trial_grid
from dashboard.figures.leaderboard import cost_scatter, interval_plot, method_agreement_heatmap, pairwise_heatmap, rank_heatmap
from dashboard.figures.rubric import category_bars
from dashboard.figures.convergence import convergence_plot, kendall_tau_plot
from dashboard.figures.sensitivity import rank_share_heatmap, schema_bump_chart
from dashboard.figures.trajectory import credible_band_grid, rank_trajectory_plot
from dashboard.figures.tasks import combined_interval_plot, task_heatmap
from dashboard.figures.items import flag_bars, item_curve
from dashboard.figures.plan import goal_projection_plot

__all__ = [
    "interval_plot",
    "pairwise_heatmap",
    "rank_heatmap",
    "method_agreement_heatmap",
    "cost_scatter",
    "rate_grid",
    "trial_grid",
    "category_bars",
    "difference_plot",
    "question_scatter",
    "trials_plot",
    "rank_trajectory_plot",
    "credible_band_grid",
    "convergence_plot",
    "kendall_tau_plot",
    "schema_bump_chart",
    "rank_share_heatmap",
    "task_heatmap",
    "combined_interval_plot",
    "item_curve",
    "flag_bars",
    "goal_projection_plot",
]
