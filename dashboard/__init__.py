"""UI helpers shared by pages: session state, cached loaders and pure Plotly figures.

Imports flow ``pages -> dashboard -> scorio_core``; ``dashboard.figures`` never imports
Streamlit, so figures stay pure functions testable on their traces and axes.
"""
