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


@pytest.fixture(autouse=True)
def _workspace(tmp_path, monkeypatch):
    """Each test gets its own empty workspace (never ./workspace of the checkout)."""
    monkeypatch.setenv("SCORIO_WORKSPACE", str(tmp_path / "workspace"))


def saved_key(at, name: str) -> str:
    """The dataset key (``ws:<id>``) of the one saved upload named ``name``."""
    ids = [i for i, n in at.session_state["_ws_names"].items() if n == name]
    assert len(ids) == 1, (name, at.session_state["_ws_names"])
    return "ws:" + ids[0]


@pytest.fixture
def app():
    """A fresh AppTest of app.py, already run once (opens on the default bundled dataset)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


# --------------------------------------------------------------------------- page-test helpers
SIMULATION = "paper-simulation"


def chart_specs(at) -> list[dict]:
    """Plotly figures on the page as dicts (``data``, ``layout``), in page order."""
    import json

    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def no_exception(at) -> None:
    """Fail with the exception texts if the last run raised."""
    assert not at.exception, [e.value for e in at.exception]


@pytest.fixture
def sim_app(app):
    """The app on the bundled paper simulation (20 models x 30 questions x 80 trials, base signals)."""
    app.sidebar.selectbox(key="dataset").set_value(SIMULATION).run()
    no_exception(app)
    return app


def shown(text: str) -> str:
    """Markdown text as the reader sees it (user text is backslash-escaped by dashboard.text.md)."""
    import re

    return re.sub(r"\\(.)", r"\1", text)


def array(value):
    """A Plotly JSON array as numpy (Plotly 6 writes numpy arrays as base64 ``bdata``)."""
    import base64

    import numpy as np

    if isinstance(value, dict) and "bdata" in value:
        out = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        shape = value.get("shape")
        if shape:
            out = out.reshape([int(s) for s in str(shape).split(",")])
        return out
    return np.asarray(value, dtype=object)


def export_settings(app) -> dict[str, str]:
    """The Export page's "What is exported" table (a Markdown table: long values wrap), as setting -> value."""
    import re

    table = next(m.value for m in app.main.markdown if m.value.startswith("| Setting | Value |"))
    return {shown(k).strip(): shown(v).strip()
            for k, v in (re.split(r"(?<!\\)\|", line)[1:3] for line in table.splitlines()[2:])}
