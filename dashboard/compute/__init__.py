"""Cached calls into the core for pages, keyed by the dataset's ``data_id`` and the settings.

- :mod:`.results`: leaderboards, task tables, comparisons, clusters (``st.cache_data``).
- :mod:`.dynamics`: trajectories and convergence.
- :mod:`.store`: the result store of the long runs (dynamics, Sensitivity) and their progress bars.
- :mod:`.sensitivity`: schemata that apply, ranks across schemata, perturbation.
- :mod:`.background`: long computations in worker threads with progress (no Streamlit).
- :mod:`.items`: question diagnostics (item response theory, flags) and ranks without flagged questions.
- :mod:`.explore`: the Data page's per-question grids and one attempt's signals (no widgets).

Calls Streamlit only to cache and report progress, never to render widgets. Imports state, data
and the core; never panels, tables, figures or pages.
"""
