"""Pure Plotly figure functions: data in, ``plotly.graph_objects.Figure`` out.

No Streamlit, no metric math: callers pass tables computed by ``scorio_core``. Tests inspect
``fig.data`` and ``fig.layout``.
"""

from dashboard.figures.leaderboard import interval_plot

__all__ = ["interval_plot"]
