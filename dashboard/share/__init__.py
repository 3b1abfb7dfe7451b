"""Sharing an analysis: immutable share links, the read-only presentation view, exports, manifests.

- :mod:`.links`: share links (``?analysis=<id>``), the presentation view, autosave of drafts.
- :mod:`.export`: the settings in force, the export files, restoring a manifest.

Calls Streamlit. Imports state, data, compute, tables, figures and the core; never panels or pages.
"""
