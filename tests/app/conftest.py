"""AppTest helpers: run the app from the repository root."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _navigation_mode(monkeypatch):
    """Run every AppTest rerun through app.py, as the real server does.

    AppTest resets ``PagesManager.uses_pages_directory`` before each run, so with a folder
    named ``pages/`` next to app.py it falls back to legacy multipage mode and executes the
    page file directly on reruns (skipping app.py and its sidebar). A real server clears the
    flag as soon as ``st.navigation`` runs; this shim does the same for the test harness.
    """
    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)


@pytest.fixture
def app():
    """A fresh AppTest of app.py, already run once (opens on the default bundled dataset)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at
