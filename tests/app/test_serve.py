"""dashboard.serve: the server `make run` starts (every URL routed through app.py from the first session)."""

from __future__ import annotations

from streamlit.runtime.pages_manager import PagesManager

from dashboard import serve


def test_routes_every_page_through_the_app(monkeypatch):
    monkeypatch.setattr(PagesManager, "uses_pages_directory", None)  # a fresh process: not decided yet
    assert serve.route_every_page_through_the_app() is True
    assert PagesManager.uses_pages_directory is False
    # the first session's PagesManager keeps it: the legacy `pages/` router never runs
    PagesManager(str(serve.APP))
    assert PagesManager.uses_pages_directory is False


def test_main_runs_streamlit_run_on_app_py_with_the_options(monkeypatch):
    from streamlit.web import cli

    calls = []
    monkeypatch.setattr(PagesManager, "uses_pages_directory", None)
    monkeypatch.setattr(cli, "main", lambda args, prog_name: calls.append((args, prog_name)))
    serve.main(["--server.port", "8599", "--server.address", "127.0.0.1"])
    assert calls == [(["run", str(serve.APP), "--server.port", "8599", "--server.address", "127.0.0.1"], "streamlit")]
    assert serve.APP.name == "app.py" and serve.APP.exists()
    assert PagesManager.uses_pages_directory is False
