"""Display tables: core results -> DataFrames with column labels, formats and help texts.

- :mod:`.display`: leaderboard, tasks and comparison tables.
- :mod:`.items`: the Questions page's diagnostics, flagged list and ranks before/after.
- :mod:`.analysis`: tables of the Trajectories, Convergence and Sensitivity pages.
- :mod:`.rubric_rows`: rubric schemas as editable tables and back (no Streamlit).

No metric math (that is the core's). May use ``st.column_config``; imports the core and
:mod:`dashboard.text` only.
"""
