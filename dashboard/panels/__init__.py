"""Composite widgets a page renders: a panel reads state, calls compute, and draws widgets.

- :mod:`.sidebar`: dataset, task, prior, scope, models (rendered on every page; the PageContext).
- :mod:`.upload`, :mod:`.server_open`, :mod:`.workspace`: getting data in (Data page).
- :mod:`.quality`: the data-quality report and the user's choices.
- :mod:`.data`: the outcome grids and the attempt inspector; :mod:`.attempts`: drill-down widgets.
- :mod:`.rubric`: the rubric editor (schema picker, tables, thresholds, JSON, prior R0).
- :mod:`.charts`: charts every new session draws with the same inputs, built once per server.
- :mod:`.board_views`: Leaderboard sections that differ in the presentation view (printable table, no CLI hints,
  Score vs cost without widgets).

Calls Streamlit. Imports state, data, compute, tables, figures, share and the core; never a page.
"""
