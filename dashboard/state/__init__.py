"""Session and URL state: one place every page reads what the user chose.

- :mod:`.session`: the active dataset, uploads of the session, data-quality choices, restores.
- :mod:`.rubric`: the active rubric (schema, thresholds, prior R0) and its categorization.
- :mod:`.widgets`: widget defaults that survive page switches and data changes.
- :mod:`.url`: query parameters, validated before any widget reads them.

May call Streamlit (``st.session_state``, ``st.query_params``). Imports :mod:`dashboard.data`,
:mod:`dashboard.text` and the core; never panels, tables, figures or pages.
"""
