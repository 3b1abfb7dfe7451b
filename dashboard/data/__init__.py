"""Where a session's data comes from: bundled demos, uploads, the workspace, the active dataset.

- :mod:`.bundled`: the demo datasets shipped in ``data/`` (no Streamlit).
- :mod:`.datasets`: any dataset of the session by key, with its data-quality choices.
- :mod:`.access`: cached loading and the active dataset of the session.
- :mod:`.workspace`: the persistent workspace (SQLite catalog + content-addressed files).

May call Streamlit (caches, session state). Imports :mod:`dashboard.state.session` and the core;
never panels, tables, figures or pages.
"""
