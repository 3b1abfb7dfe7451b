"""scorio-dashboard: which model is really better, and by how much, with honest uncertainty.

Entry point and router: page config, the shared sidebar, then ``st.navigation(...).run()``.
Run with ``make run`` (or ``streamlit run app.py``).
"""

from pathlib import Path

import streamlit as st

from dashboard.sidebar import render_sidebar

st.set_page_config(page_title="scorio-dashboard", page_icon=":material/leaderboard:", layout="wide")

_HERE = Path(__file__).parent
_PAGES = {
    "Data": [
        ("pages/data.py", "Data", ":material/table_view:"),
        ("pages/rubric.py", "Rubric", ":material/rule:"),
    ],
    "Results": [
        ("pages/leaderboard.py", "Leaderboard", ":material/leaderboard:"),
        ("pages/compare.py", "Compare", ":material/compare_arrows:"),
        ("pages/trajectories.py", "Trajectories", ":material/timeline:"),
        ("pages/convergence.py", "Convergence", ":material/ssid_chart:"),
        ("pages/sensitivity.py", "Sensitivity", ":material/tune:"),
    ],
    "Share": [
        ("pages/export.py", "Export", ":material/ios_share:"),
    ],
}

navigation = {
    section: [
        st.Page(str(_HERE / path), title=title, icon=icon, default=(title == "Leaderboard"))
        for path, title, icon in entries
        if (_HERE / path).exists()
    ]
    for section, entries in _PAGES.items()
}
page = st.navigation({section: pages for section, pages in navigation.items() if pages})
st.session_state["_page_context"] = render_sidebar()
page.run()
