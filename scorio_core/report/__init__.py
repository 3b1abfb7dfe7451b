"""Exports for stakeholders: tables (CSV, Markdown, LaTeX), HTML report, analysis manifest."""
