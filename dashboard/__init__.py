"""The app's building blocks between the pages and the core: ``pages -> dashboard -> scorio_core``.

Subpackages, in the order data flows through a page:

- :mod:`dashboard.state`: session and URL state (active dataset, rubric, widget defaults, query
  parameters). Calls Streamlit; imports :mod:`dashboard.data` and the core.
- :mod:`dashboard.data`: where data comes from (bundled demos, uploads of the session, the
  persistent workspace) and the active dataset. Calls Streamlit (caches); imports the core.
- :mod:`dashboard.compute`: cached calls into the core (leaderboards, dynamics, sensitivity,
  background jobs). Calls Streamlit only for caching and progress; imports state, data and the core.
- :mod:`dashboard.tables`: core results -> display DataFrames and column configs.
- :mod:`dashboard.figures`: pure functions returning ``plotly.graph_objects.Figure``; never Streamlit.
- :mod:`dashboard.panels`: composite widgets a page renders (sidebar, uploads, rubric editor,
  data-quality report, attempt inspector). Imports everything above, never a page.
- :mod:`dashboard.share`: share links, the presentation view, exports and manifests.

Top-level modules: :mod:`dashboard.text` (user text escaped for Markdown) and
:mod:`dashboard.guard` (bad input becomes one ``st.error``). Pages import from these only.
"""
